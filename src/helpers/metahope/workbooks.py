"""MetaHOPE annotation workbooks (Liang & Han 2026): the released sheets and the class kit's.

The released workbooks are *wide*: one row per metaphor-related word (MRW) with
``word_id, sentence, word|token, wordcat|POS`` and then, per MT system, a translation
column followed by the five error-category columns ``IMP RAM MIS STL PRF`` and their sum
``SEGS`` (pandas shows the repeated headers of the 2nd and 3rd system as ``IMP.1``, ``IMP.2``).
A cell holds a severity from the scale 0/2/4/6/8/10 (paper appendix I.3); a blank cell is 0.

A sheet becomes the tidy frame (:data:`helpers.metahope.tidy_frame.TIDY_COLUMNS`); anything wrong
raises :class:`~helpers.core.errors.InputError` naming the file, sheet, row, column, cell
and value. :func:`helpers.metahope.load.load_class` reads a whole class of them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from ..core import classroom
from ..core.errors import InputError, raise_all
from .severity import SEVERITY_LEVELS, blank
from .tidy_frame import CATEGORIES, TIDY_COLUMNS

#: Column headers of the released workbooks -> the system names the paper prints.
SYSTEM_NAMES = {"Google_translate": "GoogleMT", "GPT_5.4": "GPT-5.4", "hunyuan_7b": "Hunyuan-LLM-7B"}

#: The start of a kit workbook's file name (``metahope_S01.xlsx``), not part of the student's name.
KIT_PREFIX = "metahope_"
#: The kit workbook's second sheet, which holds the Student: field (helpers.metahope.template).
GUIDE_SHEET = "Guidelines"
_ID_HEADERS = (("word_id",), ("sentence",), ("word", "token"), ("wordcat", "pos"))
_BLOCK = CATEGORIES + ("SEGS",)
_SUFFIX = re.compile(r"\.\d+$")


def parse_severity(value, **where) -> int:
    """One severity cell -> int in :data:`SEVERITY_LEVELS`; blank is 0.

    Numbers and numeric text ("4", "4.0") are accepted; anything else raises
    :class:`InputError` with the location passed in ``where``.

    Examples
    --------
    >>> parse_severity("4.0"), parse_severity(None), parse_severity(10)
    (4, 0, 10)
    >>> parse_severity(5, file="a.xlsx", row=3)
    Traceback (most recent call last):
    ...
    helpers.core.errors.InputError: a.xlsx, row 3: value 5: severity must be one of 0, 2, 4, 6, 8, 10 or blank
    """
    if blank(value):
        return 0
    number = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, (int, float, np.integer, np.floating)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            number = None
    if number is None or not number.is_integer() or int(number) not in SEVERITY_LEVELS:
        raise InputError(
            f"severity must be one of {', '.join(map(str, SEVERITY_LEVELS))} or blank", value=value, **where
        )
    return int(number)


def clean_sentence(text: str) -> str:
    """The source sentence without an annotator's note.

    Annotators sometimes appended a corrected reading after ``=>`` or a bracketed note
    after the final punctuation; both are dropped so that the same sentence is recognised
    on every row.

    Examples
    --------
    >>> clean_sentence("Prices will climb next year. (feel bullish)")
    'Prices will climb next year.'
    >>> clean_sentence("The bank froze accounts => frozen")
    'The bank froze accounts'
    """
    s = str(text).split("=>")[0].strip()
    s = re.sub(r"(?<=[.!?\"”。！？])\s*\([^()]*\)\s*$", "", s)
    return s.strip()


def _header_blocks(headers: list, file, sheet) -> list[tuple[int, str]]:
    """Validate the header row; return (column index, system header) of each system block."""
    for i, allowed in enumerate(_ID_HEADERS):
        h = headers[i] if i < len(headers) else None
        if blank(h) or str(h).strip().lower() not in allowed:
            raise InputError(
                f"header must be {' or '.join(repr(a) for a in allowed)}",
                file=file,
                sheet=sheet,
                row=1,
                column=h,
                cell=f"{get_column_letter(i + 1)}1",
                value=h,
            )
    blocks, i = [], len(_ID_HEADERS)
    while i < len(headers):
        following = [_SUFFIX.sub("", str(h).strip()) if not blank(h) else "" for h in headers[i + 1 : i + 7]]
        intended = sum(f.upper() in _BLOCK for f in following) >= 3
        if not intended:
            break
        for j, (got, want) in enumerate(zip(following + [""] * (6 - len(following)), _BLOCK)):
            if got != want:
                col = i + 2 + j
                raise InputError(
                    f"expected the category header {want!r} after system column {headers[i]!r}",
                    file=file,
                    sheet=sheet,
                    row=1,
                    column=got or None,
                    cell=f"{get_column_letter(col)}1",
                    value=headers[col - 1] if col - 1 < len(headers) else None,
                )
        if blank(headers[i]):
            raise InputError(
                "system (translation) column has no header",
                file=file,
                sheet=sheet,
                row=1,
                cell=f"{get_column_letter(i + 1)}1",
                value=headers[i],
            )
        blocks.append((i, str(headers[i]).strip()))
        i += 7
    if not blocks:
        raise InputError(
            "no system block found: after word_id, sentence, word, wordcat each system needs a "
            "translation column followed by IMP RAM MIS STL PRF SEGS",
            file=file,
            sheet=sheet,
            row=1,
        )
    names = [b[1] for b in blocks]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise InputError(f"system column {sorted(dup)[0]!r} appears twice", file=file, sheet=sheet, row=1)
    return blocks


def _open_sheet(path: Path, sheet: str | None):
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises several types for non-xlsx input
        raise InputError(f"not a readable .xlsx workbook ({exc})", file=path) from exc
    if sheet is not None and sheet not in wb.sheetnames:
        wb.close()
        raise InputError(f"no sheet {sheet!r} (sheets: {wb.sheetnames})", file=path)
    return wb, (wb.worksheets[0] if sheet is None else wb[sheet])


def check_header(path: str | os.PathLike, sheet: str | None = None) -> list[str]:
    """Validate only the header row of a workbook (fast); returns the system headers."""
    path = Path(path)
    wb, ws = _open_sheet(path, sheet)
    try:
        first = next(ws.iter_rows(min_row=1, max_row=1, values_only=True), None)
        if first is None:
            raise InputError("sheet is empty", file=path, sheet=ws.title)
        return [b[1] for b in _header_blocks(list(first), path, ws.title)]
    finally:
        wb.close()


@dataclass(frozen=True)
class AnnotationSheet:
    """One annotator's sheet as read: the tidy frame and facts about the sheet itself."""

    frame: pd.DataFrame
    file: Path
    sheet: str
    skipped_rows: tuple[int, ...] = ()  # empty rows between items (Excel row numbers)
    entered_cells: int = 0  # severity cells holding anything (a blank template has none)
    item_rows: dict = field(default_factory=dict)  # item id -> Excel row
    student: str | None = None  # the workbook's Student: field (kit workbooks), else None
    has_done_column: bool = False  # kit workbooks mark finished rows; the released ones do not
    unfinished: dict = field(default_factory=dict)  # item id -> Excel row, rows not marked done

    def unfinished_rows(self) -> list[int]:
        """Excel rows that count as not annotated: not marked done in a kit workbook, every
        row of a released-layout sheet in which nothing at all was entered."""
        if self.has_done_column:
            return sorted(self.unfinished.values())
        return sorted(self.item_rows.values()) if self.entered_cells == 0 else []


def read_sheet(
    path: str | os.PathLike, annotator: str, sheet: str | None = None, system_names: Mapping[str, str] | None = None
) -> AnnotationSheet:
    """Read one wide MetaHOPE annotation sheet (see :func:`read_workbook`) with its facts.

    Every bad cell of the sheet is reported at once (:class:`~helpers.core.errors.InputErrors`)."""
    path = Path(path)
    names = dict(SYSTEM_NAMES if system_names is None else system_names)
    wb, ws = _open_sheet(path, sheet)
    try:
        rows = list(ws.iter_rows(values_only=True))
        student = classroom.workbook_student(wb, GUIDE_SHEET)
    finally:
        wb.close()
    if not rows:
        raise InputError("sheet is empty", file=path, sheet=ws.title)
    headers = list(rows[0])
    blocks = _header_blocks(headers, path, ws.title)
    after = blocks[-1][0] + 7
    done_at = next(
        (
            k
            for k in range(after, len(headers))
            if not blank(headers[k]) and str(headers[k]).strip().lower() == classroom.DONE_HEADER
        ),
        None,
    )
    records, skipped, seen, entered, unfinished, problems = [], [], {}, 0, {}, []
    if student is not None and done_at is None:  # a kit workbook: without its done marks a blank would read as 0
        problems.append(
            InputError(
                f"the {classroom.DONE_HEADER!r} column is missing (renamed or deleted?): without "
                "it an unfinished row cannot be told from a row without errors",
                file=path,
                sheet=ws.title,
                row=1,
                expected=f"a column headed {classroom.DONE_HEADER!r} before comments, as in the template",
            )
        )
    for r, values in enumerate(rows[1:], start=2):
        values = list(values) + [None] * (len(headers) - len(values))
        if all(blank(v) for v in values):
            skipped.append(r)
            continue
        item = values[0]
        if blank(item):
            problems.append(
                InputError(
                    "row has content but no word_id",
                    file=path,
                    sheet=ws.title,
                    row=r,
                    column=headers[0],
                    cell=f"A{r}",
                    value=item,
                )
            )
            continue
        item = str(item).strip()
        if item in seen:
            problems.append(
                InputError(
                    f"duplicate word_id (first on row {seen[item]})",
                    file=path,
                    sheet=ws.title,
                    row=r,
                    column=headers[0],
                    cell=f"A{r}",
                    value=item,
                )
            )
            continue
        seen[item] = r
        if done_at is not None:
            finished = classroom.row_done(
                values[done_at],
                problems,
                file=path,
                sheet=ws.title,
                row=r,
                column=classroom.DONE_HEADER,
                cell=f"{get_column_letter(done_at + 1)}{r}",
            )
            if not finished:
                unfinished[item] = r
        position = len(seen) - 1
        sentence = "" if blank(values[1]) else str(values[1])
        for col, header in blocks:
            system = names.get(header, header)
            severities = {}
            for k, cat in enumerate(CATEGORIES):
                c = col + 1 + k
                entered += not blank(values[c])
                try:
                    severities[cat] = parse_severity(
                        values[c],
                        file=path,
                        sheet=ws.title,
                        row=r,
                        column=f"{cat} ({header})",
                        cell=f"{get_column_letter(c + 1)}{r}",
                    )
                except InputError as exc:
                    problems.append(exc)
                    severities[cat] = None
            segs_col = col + 1 + len(CATEGORIES)
            segs = values[segs_col]
            if not blank(segs) and None not in severities.values():
                total = sum(severities.values())
                try:
                    ok = float(segs) == total
                except (TypeError, ValueError):
                    ok = False
                if not ok:
                    problems.append(
                        InputError(
                            f"SEGS must be blank or equal IMP+RAM+MIS+STL+PRF = {total} (paper Eq. 1)",
                            file=path,
                            sheet=ws.title,
                            row=r,
                            column=f"SEGS ({header})",
                            cell=f"{get_column_letter(segs_col + 1)}{r}",
                            value=segs,
                        )
                    )
            for cat, sev in severities.items():
                records.append(
                    {
                        "item": item,
                        "position": position,
                        "row": r,
                        "sentence": clean_sentence(sentence),
                        "metaphor": values[2],
                        "pos": values[3],
                        "system": system,
                        "translation": values[col],
                        "annotator": annotator,
                        "category": cat,
                        "severity": sev,
                    }
                )
    raise_all(problems)
    if not records:
        raise InputError("no annotated rows: the sheet has a header but no item", file=path, sheet=ws.title)
    last = max(r["row"] for r in records)
    df = pd.DataFrame.from_records(records, columns=TIDY_COLUMNS)
    df["category"] = pd.Categorical(df["category"], categories=list(CATEGORIES), ordered=True)
    return AnnotationSheet(
        df,
        path,
        ws.title,
        tuple(r for r in skipped if r < last),
        entered,
        dict(seen),
        student,
        done_at is not None,
        unfinished,
    )


def read_workbook(
    path: str | os.PathLike, annotator: str, sheet: str | None = None, system_names: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """Read one wide MetaHOPE annotation sheet into a tidy frame.

    Returns one row per (item, system, category) with columns :data:`TIDY_COLUMNS`
    (``position`` is the item's order in the sheet, ``row`` its Excel row). Blank severity
    cells become 0. A filled-in ``SEGS`` cell must equal the sum of the five categories
    (paper Eq. 1). Rows that are entirely empty hold no annotation and are skipped.
    ``system_names`` maps column headers to display names (default :data:`SYSTEM_NAMES`;
    unknown headers are kept as they are). Whether rows are marked done is not looked at
    here: :func:`load_class` decides what unfinished rows mean.
    """
    return read_sheet(path, annotator, sheet, system_names).frame


def workbook_student(path: str | os.PathLike) -> str | None:
    """The ``Student:`` field of a workbook's Guidelines sheet (None for the released ones,
    which have none)."""
    wb, _ = _open_sheet(Path(path), None)
    try:
        return classroom.workbook_student(wb, GUIDE_SHEET)
    finally:
        wb.close()


def gold_standards(path=None, annotator: str = "A") -> pd.DataFrame:
    """MetaHOPE's EN→ZH pilot: each system's sentence translation, its human gold standard and its penalty.

    Annotator A's workbook (aaronlifenghan/MetaHOPE; Liang and Han 2026) rates, per metaphor
    item, each system's translation of the item's sentence on five categories (0–10 each) and
    gives a human gold-standard translation of the sentence (column ``Human Gold Standard``,
    filled on one row of a sentence). The penalty of a (sentence, system) is the sum of its
    items' severities (:func:`read_workbook`).

    Returns
    -------
    DataFrame
        ``sentence, system, translation, post_edit, penalty, items`` for the sentences with a
        gold standard; targets are Chinese (score them with ``target="zh"``).
    """
    from . import release

    path = Path(path) if path else release.pilot_v1_files()[annotator]
    tidy = read_workbook(path, annotator)
    wide = pd.read_excel(path, dtype=str)
    if "Human Gold Standard" not in wide.columns:
        raise InputError("has no column 'Human Gold Standard'", file=path, row=1)
    gold = pd.DataFrame({"row": np.arange(len(wide)) + 2, "post_edit": wide["Human Gold Standard"]}).dropna(
        subset=["post_edit"]
    )
    gold = gold.merge(tidy[["row", "sentence"]].drop_duplicates(), on="row")
    gold = gold.assign(post_edit=gold["post_edit"].str.strip()).drop_duplicates("sentence")[["sentence", "post_edit"]]
    per = (
        tidy.groupby(["sentence", "system"], sort=False)
        .agg(translation=("translation", "first"), penalty=("severity", "sum"), items=("item", "nunique"))
        .reset_index()
    )
    out = per.merge(gold, on="sentence", how="inner")
    out["penalty"] = out["penalty"].astype(float)
    return out[["sentence", "system", "translation", "post_edit", "penalty", "items"]]
