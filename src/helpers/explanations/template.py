"""Blank rating workbooks for metaphor explanations, one per rater (chapters 4–5, the teaching kit).

``python -m helpers template explanations --items ITEMS.csv --raters N --out DIR`` writes
``explanations_<rater>.xlsx`` per rater. Filled in and handed back, a folder of them is
the ``ratings_file`` of chapters 4 and 5 and the ``--ratings`` of
``python -m helpers feedback explanations``; :func:`helpers.explanations.io.read_workbooks`
reads them and names every wrong entry by workbook, sheet, cell and value.

* sheet ``Ratings`` (first): the ``Student:`` field in A1/B1 (the run names the rater by
  it, whatever the file is called), the header in row 3 and one row per item:
  ``item_id``, the metaphor, the explanation (wrapped), then seven score columns, the six
  dimensions of Naveriani et al. (2026, Table 1) and Overall, each cell a 1–5 dropdown
  (Excel data validation that refuses anything else), and a ``done`` column: a row counts
  once it is marked done (an empty score in it is then a missing rating, "cannot judge");
  a row not marked done is unfinished (see :mod:`helpers.core.classroom`);
* sheet ``Guide``: what each dimension asks, what a 1 and a 5 look like, and how to fill
  the sheet, written for this book (not the paper's wording).

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

from ..core import classroom, params, paths, workbook
from ..core.errors import InputError
from .io import GUIDE_SHEET, HEADER_ROW, KIT_PREFIX, LABELS, RATINGS_SHEET, SCORES, TEXT_COLUMNS

#: What each score asks, in the book's words: (key, question, a 1 looks like, a 5 looks like).
DIMENSION_GUIDE = [
    ("non_circularity", "Does the explanation add something, or does it only say the expression again?",
     "It repeats the key words of the expression, or swaps one figure of speech for another, so a reader who did "
     "not understand the expression learns nothing.",
     "It says what the expression means in plain, literal words that do not lean on the expression itself."),
    ("origin", "Where an expression comes from a particular field, story, custom or event, does the explanation "
     "get that source right?",
     "It ignores a well-known source, or names a wrong one.",
     "It names the right source briefly. If the expression has no traceable source, rate 5: there is nothing to "
     "miss."),
    ("mapping", "Does it say which feature the two things being compared have in common?",
     "It gives a meaning but never says what links the picture to that meaning.",
     "It names the shared feature (speed, weight, warmth, fragility ...) that makes the comparison work."),
    ("emergence", "Does it give the figurative meaning rather than a description of the literal scene?",
     "It describes the literal objects or actions (a real wall, a real storm) and stops there.",
     "It gives the meaning the expression has in use, which goes beyond its literal parts."),
    ("accessibility", "Could a general reader follow it?",
     "Dense technical vocabulary or convoluted sentences get in the way.",
     "Plain words and a clear sentence; nothing needs looking up."),
    ("purpose", "Does it say why or when people use the expression?",
     "Nothing about the situation, the speaker's aim or the effect on the listener.",
     "It says what the expression does in conversation: warns, praises, mocks, softens, dramatises ..."),
    ("overall", "Taking everything into account, how good is this explanation for someone who does not know the "
     "expression?",
     "Useless or misleading.",
     "You would hand it to a learner as it is."),
]

SCALE_GUIDE = [
    (1, "fails clearly"), (2, "mostly fails"), (3, "half-way: some of it is there"), (4, "mostly succeeds"),
    (5, "succeeds fully"),
]

HOW_TO = [
    "Read the metaphor and its explanation, then give each of the seven columns a whole number from 1 to 5 (the "
    "cells offer a dropdown).",
    "Rate every column separately: an explanation can be clear (Accessibility 5) and still miss the meaning "
    "(Emergence 1).",
    "Work on your own and do not change the item_id, metaphor or explanation cells. Leave a cell empty only if "
    "you really cannot decide; in a row marked done it then counts as a missing rating.",
    "When a row is finished, choose 'done' in its done column. A row not marked done counts as not yet rated.",
    "Check that your name is in cell B1 of the Ratings sheet (the run names you by it, whatever the file is "
    "called), save the file as .xlsx and hand it back.",
]


def read_items(path: str | os.PathLike) -> pd.DataFrame:
    """The item list (:func:`helpers.core.params.read_table`: a UTF-8 or GBK ``.csv``, or the
    first sheet of an ``.xlsx``): ``item_id``, ``metaphor``, ``explanation`` (checked:
    present, ids unique and non-empty)."""
    path = Path(path)
    items = params.item_table(params.read_table(path), path, "item_id", TEXT_COLUMNS,
                              "the columns item_id, metaphor, explanation")
    return items[list(TEXT_COLUMNS)].assign(item_id=lambda d: d["item_id"].str.strip())


def write_workbook(items: pd.DataFrame, rater: str, path: str | os.PathLike) -> Path:
    """One rater's blank workbook (see the module docstring)."""
    wb = Workbook()
    ws = wb.active
    ws.title = RATINGS_SHEET
    # the Student: field in io.RATER_LABEL_CELL and io.RATER_CELL (A1, B1), a note beside it
    workbook.student_field(ws, 1, rater, note="Scores: whole numbers 1 (fails) to 5 (succeeds); the Guide sheet "
                                              "says what each column asks.")
    headers = [*TEXT_COLUMNS, *[LABELS[s] for s in SCORES], classroom.DONE_HEADER]
    cells = [ws.cell(row=HEADER_ROW, column=k, value=h) for k, h in enumerate(headers, start=1)]
    workbook.style_header(cells)
    for cell in cells:
        cell.alignment = Alignment(wrap_text=True, vertical="center")
    first, last = len(TEXT_COLUMNS) + 1, len(headers) - 1
    dv = workbook.list_validation(ws, (1, 2, 3, 4, 5), "Rating", "Use a whole number from 1 to 5, or leave the cell empty.",
                                  showInputMessage=True, promptTitle="Rating", prompt="1 = fails ... 5 = succeeds")
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
        wb.create_sheet(GUIDE_SHEET), f"How to rate the explanations (sheet for {rater})",
        [workbook.GuideSection(("Score", "What it asks", "A 1 looks like", "A 5 looks like"),
                               [(LABELS[key], *texts) for key, *texts in DIMENSION_GUIDE], bold_first=True),
         workbook.GuideSection(("Scale", "Meaning"), SCALE_GUIDE),
         workbook.GuideSection(("Step", "How to fill the Ratings sheet"), list(enumerate(HOW_TO, start=1)))],
        {"A": 26, "B": 48, "C": 48, "D": 48})
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
