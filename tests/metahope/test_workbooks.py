"""Reading MetaHOPE workbooks (helpers.metahope.workbooks) on small hand-made sheets."""

from __future__ import annotations

import pytest

from conftest import HEADERS, row, write_workbook
from helpers.core.errors import InputError
from helpers.metahope import workbooks


def test_read_workbook_tidy_and_blank_is_zero(two_annotators):
    df = workbooks.read_workbook(two_annotators["A"], "A")
    # 3 items x 2 systems x 5 categories
    assert len(df) == 30
    assert set(df["system"]) == {"GoogleMT", "GPT-5.4"}
    assert list(df.columns[:4]) == ["item", "position", "row", "sentence"]
    nonzero = df[df["severity"] > 0][["item", "system", "category", "severity"]]
    assert nonzero.astype(str).values.tolist() == [["i1", "GoogleMT", "MIS", "4"], ["i3", "GPT-5.4", "PRF", "2"]]
    assert df.loc[df["item"] == "i1", "row"].unique().tolist() == [2]
    assert df.loc[df["item"] == "i3", "translation"].iloc[-1] == "zh-i3-p"


@pytest.mark.parametrize(
    "bad, problem",
    [
        (7, "severity must be one of 0, 2, 4, 6, 8, 10"),
        ("major", "severity must be one of"),
        (4.5, "severity must be one of"),
        (-2, "severity must be one of"),
    ],
)
def test_bad_severity_names_file_row_column_cell_value(tmp_path, bad, problem):
    path = write_workbook(
        tmp_path / "bad.xlsx",
        [
            row("i1", "S.", "w", "N"),
            row("i2", "S.", "w2", "V", gpt=(None, None, bad, None, None)),
        ],
    )
    with pytest.raises(InputError) as err:
        workbooks.read_workbook(path, "A")
    msg = str(err.value)
    assert "bad.xlsx" in msg and "row 3" in msg and "MIS (GPT_5.4)" in msg
    # columns: A-D ids, E Google, F-J categories, K SEGS, L GPT, M IMP, N RAM, O MIS
    assert "cell O3" in msg and repr(bad) in msg and problem in msg
    assert err.value.row == 3 and err.value.value == bad


def test_category_header_typo(tmp_path):
    headers = list(HEADERS)
    headers[headers.index("MIS", 10)] = "MIZ"  # in the second system's block
    path = write_workbook(tmp_path / "typo.xlsx", [row("i1", "S.", "w", "N")], headers=headers)
    with pytest.raises(InputError) as err:
        workbooks.read_workbook(path, "A")
    msg = str(err.value)
    assert "typo.xlsx" in msg and "row 1" in msg and "cell O1" in msg and "'MIZ'" in msg and "'MIS'" in msg


def test_id_header_must_match(tmp_path):
    headers = list(HEADERS)
    headers[2] = "lemma"
    path = write_workbook(tmp_path / "h.xlsx", [row("i1", "S.", "w", "N")], headers=headers)
    with pytest.raises(InputError, match=r"cell C1: value 'lemma': header must be 'word' or 'token'"):
        workbooks.read_workbook(path, "A")


def test_segs_must_equal_sum(tmp_path):
    path = write_workbook(
        tmp_path / "s.xlsx", [row("i1", "S.", "w", "N", google=(2, None, 4, None, None), segs=(8, None))]
    )
    with pytest.raises(InputError, match=r"row 2, column 'SEGS \(Google_translate\)', cell K2: value 8: SEGS must"):
        workbooks.read_workbook(path, "A")


def test_row_without_id_and_duplicate_id(tmp_path):
    path = write_workbook(tmp_path / "n.xlsx", [row("i1", "S.", "w", "N"), row(None, "S.", "w", "N")])
    with pytest.raises(
        InputError, match=r"row 3, column 'word_id', cell A3: value None: row has content but no word_id"
    ):
        workbooks.read_workbook(path, "A")
    path = write_workbook(tmp_path / "d.xlsx", [row("i1", "S.", "w", "N"), row("i1", "S.", "w", "N")])
    with pytest.raises(InputError, match=r"row 3.*value 'i1': duplicate word_id \(first on row 2\)"):
        workbooks.read_workbook(path, "A")


def test_blank_rows_between_items_are_skipped_and_listed(tmp_path):
    path = write_workbook(
        tmp_path / "b.xlsx", [row("i1", "S.", "w", "N"), [None] * len(HEADERS), row("i2", "S.", "v", "V")]
    )
    sheet = workbooks.read_sheet(path, "A")
    assert sheet.frame["item"].unique().tolist() == ["i1", "i2"]
    assert sheet.skipped_rows == (3,) and sheet.item_rows == {"i1": 2, "i2": 4}


def test_clean_sentence_drops_annotator_notes():
    assert workbooks.clean_sentence("A spanner in the works => A spanner in the works.") == "A spanner in the works"
    assert workbooks.clean_sentence("Prices will soar next year. (soar)") == "Prices will soar next year."
    assert workbooks.clean_sentence("He said (quietly) no.") == "He said (quietly) no."


def test_metahope_gold_standard_per_sentence_and_system():
    """Annotator A's workbook: 19 of its 24 sentences have a gold standard, 3 systems each; the
    first sentence's Google translation carries one MIS 10 and nothing else."""
    pe = workbooks.gold_standards()
    assert pe["sentence"].nunique() == 19 and len(pe) == 57
    first = pe[pe["sentence"].str.startswith("The Labour Party Conference")].set_index("system")
    assert first.loc["GoogleMT", "penalty"] == 10.0
    assert first.loc["GoogleMT", "translation"] == "工党大会：政策评估令白厅机器陷入混乱"
    assert first.loc["GoogleMT", "post_edit"] == "工党大会：政策审查给白厅的运作机制带来混乱"
