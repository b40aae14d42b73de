"""Writing the blank workbooks of the classroom kits (openpyxl): what every kit's sheets share.

Each kit (:mod:`helpers.metahope.template`, :mod:`helpers.explanations.template`,
:mod:`helpers.slang.template`) lays out its own data sheet and words its own guide; the
pieces here make them look and behave alike:

* :func:`style_header`: a data sheet's header cells, bold on a pale blue fill;
* :func:`student_field`: the ``Student:`` label and the pre-filled name the run reads
  (:data:`helpers.core.classroom.STUDENT_LABEL`);
* :func:`list_validation` and :func:`done_validation`: dropdowns that refuse anything else,
  the second one for the ``done`` column (:data:`helpers.core.classroom.DONE_HEADER`);
* :func:`write_guide`: the guide sheet, a title and :class:`GuideSection` tables;
* :func:`save`: the workbook written, its folder made.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from .. import classroom

HEADER_FILL = "DDE7F3"  # a data sheet's header row
STUDENT_FILL = "FFF4E0"  # the cell that holds the student's name


def style_header(cells: Iterable) -> None:
    """Bold on :data:`HEADER_FILL`, for the header cells of a data sheet."""
    for cell in cells:
        cell.font, cell.fill = Font(bold=True), PatternFill("solid", fgColor=HEADER_FILL)


def student_field(ws, row: int, name: str, note: str | None = None) -> None:
    """``Student:`` in column A of ``row`` (bold), the student's ``name`` in B (on
    :data:`STUDENT_FILL`) and an optional ``note`` in C."""
    ws.cell(row=row, column=1, value=classroom.STUDENT_LABEL).font = Font(bold=True)
    ws.cell(row=row, column=2, value=name).fill = PatternFill("solid", fgColor=STUDENT_FILL)
    if note is not None:
        ws.cell(row=row, column=3, value=note)


def list_validation(ws, values: Sequence, title: str, error: str, **prompt) -> DataValidation:
    """A dropdown of ``values`` added to ``ws`` (empty allowed, anything else refused with
    ``error``); ``prompt`` takes openpyxl's input-message options. Cells join it with
    ``.add("D2:D9")``."""
    dv = DataValidation(
        type="list",
        formula1=f'"{",".join(map(str, values))}"',
        allow_blank=True,
        showErrorMessage=True,
        errorTitle=title,
        error=error,
        **prompt,
    )
    ws.add_data_validation(dv)
    return dv


def done_validation(ws) -> DataValidation:
    """The ``done`` column's dropdown: a row is finished once it holds ``done``."""
    return list_validation(
        ws, [classroom.DONE_HEADER], "Row finished?", "Choose 'done' when the row is finished, or leave it empty."
    )


@dataclass(frozen=True)
class GuideSection:
    """One table of a guide sheet: a bold ``header`` row (none when empty) and its ``rows``;
    ``bold_first`` makes the first cell of every row bold (a row's label)."""

    header: Sequence = ()
    rows: Sequence[Sequence] = ()
    bold_first: bool = False


def write_guide(
    ws,
    title: str,
    sections: Sequence[GuideSection],
    widths: Mapping[str, float],
    student: str | None = None,
    student_note: str | None = None,
) -> None:
    """A guide sheet: the :func:`student_field` in row 1 when ``student`` is given, the
    ``title`` (bold, larger), then each section after an empty row; every cell wrapped and
    aligned to the top, ``widths`` per column letter."""
    for col, width in widths.items():
        ws.column_dimensions[col].width = width
    if student is not None:
        student_field(ws, 1, student, student_note)
    ws.append([title])
    ws.cell(row=ws.max_row, column=1).font = Font(bold=True, size=13)
    bold = []
    for section in sections:
        ws.append([])
        if section.header:
            ws.append(list(section.header))
            bold += [c for c in ws[ws.max_row] if c.value]
        for row in section.rows:
            ws.append(list(row))
            if section.bold_first:
                bold.append(ws.cell(row=ws.max_row, column=1))
    for row in ws.iter_rows():
        for cell in row:
            cell.alignment = Alignment(wrap_text=True, vertical="top")
    for cell in bold:
        cell.font = Font(bold=True)


def item_rows(ws, rows: Sequence[Sequence], validations: Mapping[str, DataValidation], widths: Sequence[float]) -> None:
    """The items of a one-row-per-item sheet below its header: ``rows`` appended, each of
    ``validations`` (column letter -> dropdown) applied to that column's item rows, the columns
    from A given ``widths``, the header row frozen."""
    from openpyxl.utils import get_column_letter

    for row in rows:
        ws.append(list(row))
    if rows:
        for col, dv in validations.items():
            dv.add(f"{col}2:{col}{len(rows) + 1}")
    for k, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(k)].width = width
    ws.freeze_panes = "A2"


def save(wb, path: str | os.PathLike) -> Path:
    """Write ``wb`` to ``path``, making its folder first."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path
