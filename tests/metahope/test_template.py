"""Classroom workbooks: made, filled in, loaded back; wrong entries located."""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from helpers import __main__ as cli
from helpers import metahope as mh
from helpers.core.errors import InputError

ITEMS = """word_id,sentence,word,pos,sysA,sysB
s1_3,Rumours swirled around the boardroom.,swirled,V,谣言在董事会里打转。,董事会里流言四起。
s2_5,The new manager is a breath of fresh air.,breath,N,新经理是一口新鲜空气。,新经理带来了一股清风。
s2_9,The new manager is a breath of fresh air.,fresh,AJ,新经理是一口新鲜空气。,新经理带来了一股清风。
"""


@pytest.fixture
def sheets(tmp_path):
    items = tmp_path / "items.csv"
    items.write_text(ITEMS, encoding="utf-8")
    code = cli.main(
        [
            "template",
            "metahope",
            "--items",
            str(items),
            "--systems",
            "sysA,sysB",
            "--annotators",
            "ana,ben",
            "--out",
            str(tmp_path / "out"),
        ]
    )
    assert code == 0
    return {"ana": tmp_path / "out" / "metahope_ana.xlsx", "ben": tmp_path / "out" / "metahope_ben.xlsx"}


def _fill(path, cells: dict[str, object]):
    wb = load_workbook(path)
    ws = wb["Annotation"]
    for ref, value in cells.items():
        ws[ref] = value
    wb.save(path)


def test_template_layout_dropdown_and_guidelines(sheets):
    wb = load_workbook(sheets["ana"])
    assert wb.sheetnames == ["Annotation", "Guidelines"]
    ws = wb["Annotation"]
    header = [c.value for c in ws[1]]
    assert header == [
        "word_id",
        "sentence",
        "word",
        "wordcat",
        "sysA",
        "IMP",
        "RAM",
        "MIS",
        "STL",
        "PRF",
        "SEGS",
        "sysB",
        "IMP",
        "RAM",
        "MIS",
        "STL",
        "PRF",
        "SEGS",
        "done",
        "comments",
    ]
    assert ws["A3"].value == "s2_5" and ws["L3"].value == "新经理带来了一股清风。"
    assert ws["K2"].value == "=SUM(F2:J2)"
    validation = ws.data_validations.dataValidation[0]
    assert validation.formula1 == '"0,2,4,6,8,10"'
    assert "F2:J4" in str(validation.sqref) or "F2:J2" in str(validation.sqref)
    done = ws.data_validations.dataValidation[1]
    assert done.formula1 == '"done"' and str(done.sqref) == "S2:S4"
    assert [wb["Guidelines"]["A1"].value, wb["Guidelines"]["B1"].value] == ["Student:", "ana"]
    guide = " ".join(str(c.value) for row in wb["Guidelines"].iter_rows() for c in row if c.value)
    for word in ("IMP", "RAM", "MIS", "STL", "PRF", "critical", "minor", "done"):
        assert word in guide


DONE = {"S2": "done", "S3": "done", "S4": "done"}


def test_round_trip_filled_sheets_load_back(sheets):
    _fill(sheets["ana"], {"H2": 4, "N3": 2, **DONE})  # ana: MIS 4 for sysA on s1_3, RAM 2 for sysB on s2_5
    _fill(sheets["ben"], {"H2": 8, "I2": "2", "J4": 6, **DONE})  # ben: MIS 8 + STL 2 on s1_3, PRF 6 on s2_9 (sysA)
    study = mh.load_study(sheets)
    got = study[study["severity"] > 0][["annotator", "item", "system", "category", "severity"]]
    got = got.assign(category=got["category"].astype(str)).values.tolist()
    assert sorted(got) == sorted(
        [
            ["ana", "s1_3", "sysA", "MIS", 4],
            ["ana", "s2_5", "sysB", "RAM", 2],
            ["ben", "s1_3", "sysA", "MIS", 8],
            ["ben", "s1_3", "sysA", "STL", 2],
            ["ben", "s2_9", "sysA", "PRF", 6],
        ]
    )
    assert study["item"].unique().tolist() == ["s1_3", "s2_5", "s2_9"]
    assert study.loc[study["item"] == "s2_5", "translation"].iloc[-1] == "新经理带来了一股清风。"


def test_unfinished_rows_are_never_zeros(sheets):
    _fill(sheets["ana"], {"H2": 4, **DONE})
    _fill(sheets["ben"], {"H2": 8, "S2": "done", "J4": 6})  # row 3 untouched, row 4 has an entry but no done mark
    with pytest.raises(
        InputError,
        match=r"metahope_ben.xlsx, sheet 'Annotation', column 'done': student 'ben': 2 of 3 "
        r"rows are not marked done: rows 3-4",
    ):
        mh.load_study(sheets)
    rows = mh.load_class(sheets, unfinished="drop_rows")  # items s2_5, s2_9 leave for everyone: sheets stay complete
    assert rows.tidy["item"].unique().tolist() == ["s1_3"] and set(rows.tidy["annotator"]) == {"ana", "ben"}
    assert rows.notes == ("left out item s2_5: not marked done by ben", "left out item s2_9: not marked done by ben")
    students = mh.load_class(sheets, unfinished="drop_students")
    assert set(students.tidy["annotator"]) == {"ana"} and students.tidy["item"].nunique() == 3
    assert students.notes == ("left out student ben (metahope_ben.xlsx): rows 3-4 are not marked done",)


def test_the_student_field_names_the_student_not_the_file(sheets, tmp_path):
    _fill(sheets["ana"], DONE)
    _fill(sheets["ben"], DONE)
    renamed = sheets["ben"].with_name("metahope_ben (1).xlsx")
    sheets["ben"].rename(renamed)
    study = mh.load_study([sheets["ana"], renamed])
    assert set(study["annotator"]) == {"ana", "ben"}
    copy = tmp_path / "copy.xlsx"
    copy.write_bytes(renamed.read_bytes())
    with pytest.raises(
        InputError,
        match=r"copy.xlsx: value 'ben': student 'ben' also has the workbook "
        r"metahope_ben \(1\).xlsx",
    ):
        mh.load_study([sheets["ana"], renamed, copy])


@pytest.mark.parametrize("cell, value", [("H3", 7), ("O4", "major")])
def test_wrong_entry_is_located(sheets, cell, value):
    _fill(sheets["ben"], {cell: value})
    with pytest.raises(InputError) as err:
        mh.load_study(sheets)
    msg = str(err.value)
    assert "metahope_ben.xlsx" in msg and "sheet 'Annotation'" in msg and f"cell {cell}" in msg and repr(value) in msg


def test_every_bad_cell_of_every_sheet_at_once(sheets):
    _fill(sheets["ana"], {"H3": 7, "I4": "severe", **DONE})
    _fill(sheets["ben"], {"O2": 5, "S3": "later", "S2": "done", "S4": "done"})
    with pytest.raises(InputError) as err:
        mh.load_study(sheets)
    lines = str(err.value).splitlines()
    assert [line.split("cell ")[1].split(":")[0] for line in lines] == ["H3", "I4", "O2", "S3"]
    assert "value 'later': a done cell holds 'done' or nothing" in lines[3]


def test_category_header_typo_in_returned_sheet(sheets):
    _fill(sheets["ana"], {"P1": "STYLE"})
    with pytest.raises(InputError, match=r"metahope_ana.xlsx, sheet 'Annotation', row 1, column 'STYLE', cell P1"):
        mh.load_study(sheets)


def test_items_from_released_layout_workbook(tmp_path, two_annotators):
    from helpers.metahope.template import read_items

    items = read_items(two_annotators["A"], ["GoogleMT", "GPT-5.4"])
    assert items["word_id"].tolist() == ["i1", "i2", "i3"] and items["GoogleMT"].iloc[0] == "zh-i1-g"


def test_items_csv_errors(tmp_path):
    bad = tmp_path / "items.csv"
    bad.write_text("word_id,sentence,word,pos,sysA\na,s,w,N,t\na,s,w,N,t\n")
    assert (
        cli.main(
            [
                "template",
                "metahope",
                "--items",
                str(bad),
                "--systems",
                "sysA",
                "--annotators",
                "2",
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == 1
    )
    from helpers.metahope.template import read_items

    with pytest.raises(ValueError, match="appears twice"):
        read_items(bad, ["sysA"])
    with pytest.raises(ValueError, match=r"missing column\(s\) \['sysB'\]"):
        read_items(bad, ["sysA", "sysB"])


def test_a_kit_workbook_without_its_done_column_is_refused(sheets):
    """A deleted or renamed done column must not turn unfinished rows back into 'no error'."""
    _fill(sheets["ana"], {"H2": 4, "S1": "Done?", **DONE})
    _fill(sheets["ben"], DONE)
    with pytest.raises(
        InputError,
        match=r"metahope_ana.xlsx, sheet 'Annotation', row 1: the 'done' column is "
        r"missing \(renamed or deleted\?\)",
    ):
        mh.load_study(sheets)


def test_a_label_word_in_an_item_row_is_not_the_student_field(sheets):
    _fill(sheets["ana"], {"C2": "student", "D2": "NN", **DONE})  # the metaphor word happens to be a field label
    _fill(sheets["ben"], DONE)
    assert set(mh.load_study([sheets["ana"], sheets["ben"]])["annotator"]) == {"ana", "ben"}
