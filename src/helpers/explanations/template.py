"""Blank rating workbooks for metaphor explanations, one per rater (chapters 4–5, the teaching kit).

``.venv/bin/python -m helpers template explanations --items ITEMS.csv --raters N --out DIR`` writes
``explanations_<rater>.xlsx`` per rater. Filled in and handed back, a folder of them is
the ``ratings_file`` of chapters 4 and 5 and the ``--ratings`` of
``.venv/bin/python -m helpers feedback explanations``; :func:`helpers.explanations.io.read_workbooks`
reads them and names every wrong entry by workbook, sheet, cell and value.

* sheet ``Ratings`` (first): the ``Student:`` field in A1/B1 (the run names the rater by
  it, whatever the file is called), the header in row 3 and one row per item:
  ``item_id``, the metaphor, the explanation (wrapped), then seven score columns, the six
  dimensions of Naveriani et al. (2026, Table 1) and Overall, each cell a 1–5 dropdown
  (Excel data validation that refuses anything else), and a ``done`` column: a row counts
  once it is marked done (an empty score in it is then a missing rating, "cannot judge");
  a row not marked done is unfinished (see :mod:`helpers.core.classroom`);
* sheet ``Guide``: what each dimension asks, what a 1 and a 5 look like, and how to fill
  the sheet, written for this book (not the paper's wording) in ``pages/workbook.yml``.

``ITEMS`` is a table (a ``.csv`` in UTF-8 or GBK, or the first sheet of an ``.xlsx``) with
``item_id``, ``metaphor`` and ``explanation`` (other columns, such as the benchmark's
designed pass/fail, are *not* copied into the workbook, so raters do not see the answer
key). The book's authored benchmark
(``data/authored/metaphor_explanations.csv``) is one such list.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
from openpyxl import Workbook
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter

from ..core import classroom, params, paths
from ..core.book import pages
from ..core.classroom import workbook
from ..core.errors import InputError
from .io import GUIDE_SHEET, HEADER_ROW, KIT_PREFIX, LABELS, RATINGS_SHEET, SCORES, TEXT_COLUMNS


def read_items(path: str | os.PathLike) -> pd.DataFrame:
    """The item list (:func:`helpers.core.params.read_table`: a UTF-8 or GBK ``.csv``, or the
    first sheet of an ``.xlsx``): ``item_id``, ``metaphor``, ``explanation`` (checked:
    present, ids unique and non-empty)."""
    path = Path(path)
    items = params.item_table(
        params.read_table(path), path, "item_id", TEXT_COLUMNS, "the columns item_id, metaphor, explanation"
    )
    return items[list(TEXT_COLUMNS)].assign(item_id=lambda d: d["item_id"].str.strip())


def write_workbook(items: pd.DataFrame, rater: str, path: str | os.PathLike) -> Path:
    """One rater's blank workbook (see the module docstring)."""
    wb = Workbook()
    ws = wb.active
    ws.title = RATINGS_SHEET
    # the Student: field in io.RATER_LABEL_CELL and io.RATER_CELL (A1, B1), a note beside it
    guide = pages.texts("explanations", "workbook")
    workbook.student_field(ws, 1, rater, note=guide["note"])
    headers = [*TEXT_COLUMNS, *[LABELS[s] for s in SCORES], classroom.DONE_HEADER]
    cells = [ws.cell(row=HEADER_ROW, column=k, value=h) for k, h in enumerate(headers, start=1)]
    workbook.style_header(cells)
    for cell in cells:
        cell.alignment = Alignment(wrap_text=True, vertical="center")
    first, last = len(TEXT_COLUMNS) + 1, len(headers) - 1
    dv = workbook.list_validation(
        ws,
        (1, 2, 3, 4, 5),
        "Rating",
        guide["validation"],
        showInputMessage=True,
        promptTitle="Rating",
        prompt=guide["prompt"],
    )
    for r, item in enumerate(items.to_dict("records"), start=HEADER_ROW + 1):
        ws.cell(row=r, column=1, value=item["item_id"])
        ws.cell(row=r, column=2, value=item["metaphor"])
        ws.cell(row=r, column=3, value=item["explanation"])
        for k in range(1, last + 2):
            ws.cell(row=r, column=k).alignment = Alignment(wrap_text=True, vertical="top")
    end = HEADER_ROW + len(items)
    done = workbook.done_validation(ws)
    if len(items):
        dv.add(f"{get_column_letter(first)}{HEADER_ROW + 1}:{get_column_letter(last)}{end}")
        done.add(f"{get_column_letter(last + 1)}{HEADER_ROW + 1}:{get_column_letter(last + 1)}{end}")
    for col, width in {1: 9, 2: 28, 3: 60}.items():
        ws.column_dimensions[get_column_letter(col)].width = width
    for col in range(first, last + 2):
        ws.column_dimensions[get_column_letter(col)].width = 14
    ws.row_dimensions[HEADER_ROW].height = 32
    ws.freeze_panes = ws.cell(row=HEADER_ROW + 1, column=first)
    workbook.write_guide(
        wb.create_sheet(GUIDE_SHEET),
        guide["title"].format(rater=rater),
        [
            workbook.GuideSection(
                ("Score", "What it asks", "A 1 looks like", "A 5 looks like"),
                [(LABELS[g["key"]], g["asks"], g["one"], g["five"]) for g in guide["scores"]],
                bold_first=True,
            ),
            workbook.GuideSection(("Scale", "Meaning"), [(g["rating"], g["meaning"]) for g in guide["scale"]]),
            workbook.GuideSection(("Step", "How to fill the Ratings sheet"), list(enumerate(guide["steps"], start=1))),
        ],
        {"A": 26, "B": 48, "C": 48, "D": 48},
    )
    return workbook.save(wb, path)


def write_templates(items_path, raters: str | int, out_dir) -> list[Path]:
    """Every rater's workbook, named ``explanations_<rater>.xlsx`` in ``out_dir``."""
    items = read_items(paths.resolve_input(items_path))
    names = params.person_names(raters)  # S01, S02, ... as in every kit
    files = [classroom.safe_file_name(n) for n in names]
    if len(set(files)) != len(files):
        raise InputError("two rater names give the same file name", parameter="--raters", value=names)
    out = Path(out_dir)
    return [write_workbook(items, name, out / f"{KIT_PREFIX}{f}.xlsx") for name, f in zip(names, files)]
