"""Unit tests of helpers.core.formats.texts: the one reader of one-segment-per-line files and the join of
an MQM file's documents to lines (moved with the functions from tests/metrics/test_data.py)."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.core.formats import texts
from helpers.core.formats.texts import align_to_lines, read_lines


def test_align_to_lines_finds_a_document_with_duplicate_lines_and_refuses_a_wrong_one():
    source = ["标题", "”", "第一句。", "”", "第 二 句"]
    mqm_rows = pd.DataFrame({"doc": ["d", "d", "d"], "doc_seg_id": [1, 2, 3], "source": ["”", "第<v>一</v>句。", "”"]})
    got = align_to_lines(mqm_rows, source)
    assert got["segment"].tolist() == [2, 3, 4]
    wrong = mqm_rows.assign(source=["”", "第一句。", "别的"])
    with pytest.raises(InputError, match="segment 3 does not match line 4") as err:
        align_to_lines(wrong, source, file="x.tsv")
    assert err.value.file == "x.tsv" and err.value.value == "d"


def test_read_lines_refuses_an_empty_file(tmp_path):
    (tmp_path / "e.txt").write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="is empty") as err:
        read_lines(tmp_path / "e.txt")
    assert err.value.file == tmp_path / "e.txt"


def test_align_to_lines_finds_each_documents_block_by_hand():
    # two documents of two segments on lines 1-2 and 3-4; the MQM text has span markup and lost a space
    lines = ["The cat sat.", "It purred.", "中文 and Latin", "end"]
    segments = pd.DataFrame(
        {
            "doc": ["d1", "d1", "d2", "d2", "d2"],
            "doc_seg_id": [1, 2, 1, 2, 2],
            "source": ["The <v>cat</v> sat.", "It purred.", "中文and Latin", "end", "end"],
        }
    )
    out = texts.align_to_lines(segments, lines)
    assert out.to_dict("records") == [
        {"doc": "d1", "doc_seg_id": 1, "segment": 1},
        {"doc": "d1", "doc_seg_id": 2, "segment": 2},
        {"doc": "d2", "doc_seg_id": 1, "segment": 3},
        {"doc": "d2", "doc_seg_id": 2, "segment": 4},
    ]


def test_align_to_lines_refuses_a_segment_off_its_documents_block():
    lines = ["a", "b", "c"]
    segments = pd.DataFrame({"doc": ["d1", "d1"], "doc_seg_id": [1, 2], "source": ["a", "c"]})
    with pytest.raises(InputError, match="segment 2 does not match line 2"):
        texts.align_to_lines(segments, lines)
