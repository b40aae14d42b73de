"""Item lists as a lecturer keeps them in Excel: a CSV saved by Chinese Excel (GBK), a CSV
UTF-8 with its byte-order mark, or an .xlsx workbook. Both kits that read an item list
(``template metahope`` and ``template explanations``) read them through one reader."""

from __future__ import annotations

import pytest
from openpyxl import Workbook, load_workbook

from helpers import __main__ as cli
from helpers.core.errors import InputError

ROWS = [
    ["word_id", "sentence", "word", "pos", "sysA", "sysB"],
    ["s1_3", "他说话很冲。", "冲", "V", "He speaks bluntly.", "His words are sharp."],
    ["s2_5", "这个消息像一颗炸弹。", "炸弹", "N", "The news was like a bomb.", "The news was a bombshell."],
]
EXPLANATIONS = [
    ["item_id", "metaphor", "explanation"],
    ["e1", "吃醋", "字面是“吃醋”，比喻嫉妒。"],
    ["e2", "炒鱿鱼", "比喻被解雇。"],
]


def _csv(rows) -> str:
    return "".join(",".join(r) + "\n" for r in rows)


def _xlsx(path, rows, sheet="Items"):
    wb = Workbook()
    wb.active.title = sheet
    for r in rows:
        wb.active.append(r)
    wb.create_sheet("notes").append(["not the item list"])  # only the first sheet is read
    wb.save(path)
    return path


def _annotation_rows(path) -> list[tuple]:
    ws = load_workbook(path)["Annotation"]
    return [tuple(c.value for c in r[:5]) + (r[11].value,) for r in ws.iter_rows(min_row=2)]


WRITTEN = [
    ("s1_3", "他说话很冲。", "冲", "V", "He speaks bluntly.", "His words are sharp."),
    ("s2_5", "这个消息像一颗炸弹。", "炸弹", "N", "The news was like a bomb.", "The news was a bombshell."),
]


@pytest.mark.parametrize("form", ["gbk", "gb18030", "utf-8-sig", "utf-8", "xlsx"])
def test_metahope_items_as_excel_saves_them(tmp_path, form, capsys):
    if form == "xlsx":
        items = _xlsx(tmp_path / "items.xlsx", ROWS)
    else:
        items = tmp_path / "items.csv"
        items.write_bytes(_csv(ROWS).encode(form))
    out = tmp_path / "blank"
    assert (
        cli.main(
            [
                "template",
                "metahope",
                "--items",
                str(items),
                "--systems",
                "sysA,sysB",
                "--annotators",
                "2",
                "--out",
                str(out),
            ]
        )
        == 0
    ), capsys.readouterr().err
    assert _annotation_rows(out / "metahope_S01.xlsx") == WRITTEN


@pytest.mark.parametrize("form", ["gbk", "xlsx"])
def test_explanation_items_as_excel_saves_them(tmp_path, form, capsys):
    if form == "xlsx":
        items = _xlsx(tmp_path / "items.xlsx", EXPLANATIONS)
    else:
        items = tmp_path / "items.csv"
        items.write_bytes(_csv(EXPLANATIONS).encode(form))
    out = tmp_path / "blank"
    assert cli.main(["template", "explanations", "--items", str(items), "--raters", "2", "--out", str(out)]) == 0, (
        capsys.readouterr().err
    )
    ws = load_workbook(next(out.glob("*.xlsx")))["Ratings"]
    texts = [tuple(c.value for c in r[:3]) for r in ws.iter_rows() if r[0].value in ("e1", "e2")]
    assert texts == [tuple(r) for r in EXPLANATIONS[1:]]


def test_a_csv_in_no_known_encoding_is_one_clear_error(tmp_path, capsys):
    items = tmp_path / "items.csv"
    items.write_bytes(_csv(ROWS).encode("utf-16"))  # Excel's "Unicode Text"
    assert (
        cli.main(
            [
                "template",
                "metahope",
                "--items",
                str(items),
                "--systems",
                "sysA,sysB",
                "--annotators",
                "2",
                "--out",
                str(tmp_path / "blank"),
            ]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"error: {items}: is neither UTF-8 nor GBK/GB18030 text (expected save it from Excel "
        "as 'CSV UTF-8 (Comma delimited) (*.csv)', or as an .xlsx workbook)"
    ]


def test_an_xlsx_item_list_with_a_missing_column_names_it(tmp_path):
    items = _xlsx(tmp_path / "items.xlsx", [r[:5] for r in ROWS])  # no sysB column
    from helpers.metahope.template import read_items

    with pytest.raises(InputError, match=r"items\.xlsx, row 1: value .*missing column\(s\) \['sysB'\]"):
        read_items(items, ["sysA", "sysB"])


def test_numbers_typed_into_an_xlsx_item_list_read_as_the_csv_would(tmp_path):
    from helpers.core.params import read_table

    items = _xlsx(tmp_path / "items.xlsx", [["item_id", "metaphor", "explanation", ""], [7, 3.0, None, None]])
    assert read_table(items).to_dict("records") == [{"item_id": "7", "metaphor": "3", "explanation": ""}]
