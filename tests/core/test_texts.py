"""Unit tests of helpers.core.formats.texts: the one reader of one-segment-per-line files and the join of
an MQM file's documents to lines (moved with the functions from tests/metrics/test_data.py)."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.errors import InputError
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
