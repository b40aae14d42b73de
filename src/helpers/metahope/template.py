"""Blank MetaHOPE annotation workbooks for a class (or any annotation team).

``.venv/bin/python -m helpers template metahope --items ITEMS --systems A,B,C --annotators N --out DIR``
writes one workbook per annotator in the released layout, so that filled-in sheets load
back with :func:`helpers.metahope.load.load_study` and the chapters run on them unchanged.

* sheet ``Annotation`` (first): one row per metaphor item with id, source sentence,
  metaphor word, POS and, per system, its translation, then the five category cells with
  a dropdown restricted to 0/2/4/6/8/10 and a ``SEGS`` formula; a ``done`` column (the
  student marks a row done when it is finished: its empty cells then mean "no error", and
  a row not marked done is unfinished, never "no error"); a comments column;
* sheet ``Guidelines``: the ``Student:`` field (pre-filled with the student's name; the
  run names the student from it, so a renamed file keeps its student), the five
  categories, the severity scale and the decision steps, written for this book after the
  paper's annotation procedure (§3, appendix I); their words are in ``pages/workbook.yml``.

``ITEMS`` is a table (a ``.csv`` in UTF-8 or GBK, or an ``.xlsx`` whose first sheet holds
it) with ``word_id`` (or ``item``), ``sentence``, ``word`` (or ``token``,
``metaphor``), ``pos`` (or ``wordcat``, ``POS``) and one column per system holding its
translation, or a workbook in the released layout whose translations are reused.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from openpyxl import Workbook
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter

from ..core import classroom, params
from ..core.book import pages
from ..core.classroom import workbook
from .severity import SEVERITY_LEVELS
from .tidy_frame import CATEGORIES
from .workbooks import GUIDE_SHEET, KIT_PREFIX, read_workbook

_ALIASES = {"item": "word_id", "token": "word", "metaphor": "word", "wordcat": "pos", "POS": "pos"}


def read_items(path: str | os.PathLike, systems: Sequence[str]) -> pd.DataFrame:
    """Items to annotate: ``word_id, sentence, word, pos`` and one translation column per
    system, from a table (:func:`helpers.core.params.read_table`: a UTF-8 or GBK ``.csv``,
    or the first sheet of an ``.xlsx``) or a workbook in the released layout (recognised
    by its category columns), whose translations are reused."""
    path = Path(path)
    items = params.read_table(path)
    if {"IMP", "SEGS"} & {str(c).strip().upper() for c in items.columns}:
        tidy = read_workbook(path, "template")
        wide = (
            tidy.drop_duplicates(["item", "system"])
            .pivot_table(
                index=["position", "item", "sentence", "metaphor", "pos"],
                columns="system",
                values="translation",
                aggfunc="first",
            )
            .reset_index()
        )
        wide.columns.name = None
        items = wide.drop(columns="position").rename(columns={"item": "word_id", "metaphor": "word"})
    else:
        items = items.rename(columns=_ALIASES)
    return params.item_table(
        items,
        path,
        "word_id",
        ["word_id", "sentence", "word", "pos", *systems],
        f"the columns word_id, sentence, word, pos and one per system {list(systems)}",
    )


def write_workbook(items: pd.DataFrame, systems: Sequence[str], annotator: str, path: str | os.PathLike) -> Path:
    """One annotator's blank workbook (see the module docstring)."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Annotation"
    headers = ["word_id", "sentence", "word", "wordcat"]
    for system in systems:
        headers += [system, *CATEGORIES, "SEGS"]
    headers += [classroom.DONE_HEADER, "comments"]
    ws.append(headers)
    workbook.style_header(ws[1])
    dv = workbook.list_validation(
        ws, SEVERITY_LEVELS, "MetaHOPE severity", f"Use {', '.join(map(str, SEVERITY_LEVELS))} or leave empty."
    )
    done_col = get_column_letter(len(headers) - 1)
    done = workbook.done_validation(ws)
    if len(items):
        done.add(f"{done_col}2:{done_col}{len(items) + 1}")
    for r, item in enumerate(items.to_dict("records"), start=2):
        values = [item["word_id"], item["sentence"], item["word"], item["pos"]]
        for k, system in enumerate(systems):
            col = 5 + 7 * k
            first, last = get_column_letter(col + 1), get_column_letter(col + 5)
            values += [item[system], *[None] * len(CATEGORIES), f"=SUM({first}{r}:{last}{r})"]
            dv.add(f"{first}{r}:{last}{r}")
        values += [None, None]  # done, comments
        ws.append(values)
    widths = {1: 22, 2: 50, 3: 14, 4: 8}
    for k in range(len(systems)):
        widths[5 + 7 * k] = 45
    for col, width in widths.items():
        ws.column_dimensions[get_column_letter(col)].width = width
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            cell.alignment = Alignment(wrap_text=True, vertical="top")
    ws.freeze_panes = "E2"
    guide = pages.texts("metahope", "workbook")
    workbook.write_guide(
        wb.create_sheet(GUIDE_SHEET),
        guide["title"],
        [
            workbook.GuideSection(
                ("Category", "Name", "When to use it"), [(c["code"], c["name"], c["use"]) for c in guide["categories"]]
            ),
            workbook.GuideSection(
                ("Severity", "Level", "Meaning"), [(c["points"], c["level"], c["meaning"]) for c in guide["severities"]]
            ),
            workbook.GuideSection(
                ("Step", "", "How to decide"), [(k, "", text) for k, text in enumerate(guide["steps"], start=1)]
            ),
        ],
        {"A": 12, "B": 28, "C": 100},
        student=annotator,
        student_note=guide["student_note"],
    )
    return workbook.save(wb, path)


def annotator_names(annotators: str | int) -> list[str]:
    """``3`` -> S01, S02, S03 (the naming of every kit); ``"ana,ben"`` -> ana, ben."""
    return params.person_names(annotators, option="--annotators")


def write_templates(items_path, systems: Sequence[str], annotators: str | int, out_dir) -> list[Path]:
    """All annotators' workbooks, named ``metahope_<annotator>.xlsx`` in ``out_dir``."""
    systems = [s.strip() for s in systems if s.strip()]
    items = read_items(items_path, systems)
    out = Path(out_dir)
    return [
        write_workbook(items, systems, name, out / f"{KIT_PREFIX}{name}.xlsx") for name in annotator_names(annotators)
    ]
