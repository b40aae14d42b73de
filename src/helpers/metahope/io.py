"""MetaHOPE annotations in and out: workbooks, the long CSV and MQM/Marot TSV (Liang & Han 2026).

The released workbooks are *wide*: one row per metaphor-related word (MRW) with
``word_id, sentence, word|token, wordcat|POS`` and then, per MT system, a translation
column followed by the five error-category columns ``IMP RAM MIS STL PRF`` and their sum
``SEGS`` (pandas shows the repeated headers of the 2nd and 3rd system as ``IMP.1``, ``IMP.2``).
A cell holds a severity from the scale 0/2/4/6/8/10 (paper appendix I.3); a blank cell is 0.

Every loader returns the *tidy* frame, one row per (item, system, annotator, category)
with columns :data:`TIDY_COLUMNS`, and raises :class:`~helpers.core.errors.InputError`
naming the file, sheet, row, column, cell and value of anything wrong. Nothing is dropped
or filled in silently: a sheet that lacks an item another sheet has, an annotator with no
row for an item, or a workbook handed back blank are errors.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from ..core import classroom, paths
from ..core.errors import InputError, raise_all, typed
from .severity import SEVERITY_LEVELS, SEVERITY_NAMES, apply_weights, blank

#: The five MetaHOPE error categories (paper §3): Impact, Required Adaptation Missing,
#: Mistranslation, Style, Proofreading.
CATEGORIES: tuple[str, ...] = ("IMP", "RAM", "MIS", "STL", "PRF")
#: Column headers of the released workbooks -> the system names the paper prints.
SYSTEM_NAMES = {"Google_translate": "GoogleMT", "GPT_5.4": "GPT-5.4", "hunyuan_7b": "Hunyuan-LLM-7B"}
#: The default weighting scheme that puts foreign MQM severities on MetaHOPE's linear scale
#: (``helpers/core/schemes/metahope.yml``: Minor 2, Major 6, Critical 10; paper §3).
MQM_SCHEME = "metahope"
#: Columns of the tidy frame every loader returns.
TIDY_COLUMNS = ["item", "position", "row", "sentence", "metaphor", "pos", "system", "translation", "annotator",
                "category", "severity"]

#: The start of a kit workbook's file name (``metahope_S01.xlsx``), not part of the student's name.
KIT_PREFIX = "metahope_"
#: The kit workbook's second sheet, which holds the Student: field (helpers.metahope.template).
GUIDE_SHEET = "Guidelines"
_ID_HEADERS = (("word_id",), ("sentence",), ("word", "token"), ("wordcat", "pos"))
_BLOCK = CATEGORIES + ("SEGS",)
_SUFFIX = re.compile(r"\.\d+$")
#: Released pilot v1 (EN->ZH) files in aaronlifenghan/MetaHOPE.
METAHOPE_REPO = "aaronlifenghan/MetaHOPE"
PILOT_V1_FILES = {
    "A": "VUAMC_pilot20__translation_aligned_annotator-A.xlsx",
    "B": "VUAMC_pilot20__translation_aligned_annotated_annotator-B.xlsx",
}
PILOT_V1_SENTENCE_FILE = "Copy_VUAMC_pilot20__translation_aligned_with_full_sentence-level_error.xlsx"
#: Released ZH->EN pilot sheet (PSUCMC news, 32 MRWs): one annotator, not named in the paper.
PILOT_ZH_EN_FILE = "PSUCMC_pilot20__translation_aligned_annotated.xlsx"


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
        raise InputError(f"severity must be one of {', '.join(map(str, SEVERITY_LEVELS))} or blank", value=value,
                         **where)
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
            raise InputError(f"header must be {' or '.join(repr(a) for a in allowed)}", file=file, sheet=sheet,
                             row=1, column=h, cell=f"{get_column_letter(i + 1)}1", value=h)
    blocks, i = [], len(_ID_HEADERS)
    while i < len(headers):
        following = [_SUFFIX.sub("", str(h).strip()) if not blank(h) else "" for h in headers[i + 1: i + 7]]
        intended = sum(f.upper() in _BLOCK for f in following) >= 3
        if not intended:
            break
        for j, (got, want) in enumerate(zip(following + [""] * (6 - len(following)), _BLOCK)):
            if got != want:
                col = i + 2 + j
                raise InputError(f"expected the category header {want!r} after system column {headers[i]!r}",
                                 file=file, sheet=sheet, row=1, column=got or None, cell=f"{get_column_letter(col)}1",
                                 value=headers[col - 1] if col - 1 < len(headers) else None)
        if blank(headers[i]):
            raise InputError("system (translation) column has no header", file=file, sheet=sheet, row=1,
                             cell=f"{get_column_letter(i + 1)}1", value=headers[i])
        blocks.append((i, str(headers[i]).strip()))
        i += 7
    if not blocks:
        raise InputError("no system block found: after word_id, sentence, word, wordcat each system needs a "
                         "translation column followed by IMP RAM MIS STL PRF SEGS", file=file, sheet=sheet, row=1)
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


def read_sheet(path: str | os.PathLike, annotator: str, sheet: str | None = None,
               system_names: Mapping[str, str] | None = None) -> AnnotationSheet:
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
    done_at = next((k for k in range(after, len(headers))
                    if not blank(headers[k]) and str(headers[k]).strip().lower() == classroom.DONE_HEADER), None)
    records, skipped, seen, entered, unfinished, problems = [], [], {}, 0, {}, []
    if student is not None and done_at is None:  # a kit workbook: without its done marks a blank would read as 0
        problems.append(InputError(f"the {classroom.DONE_HEADER!r} column is missing (renamed or deleted?): without "
                                   "it an unfinished row cannot be told from a row without errors", file=path,
                                   sheet=ws.title, row=1, expected=f"a column headed {classroom.DONE_HEADER!r} "
                                   "before comments, as in the template"))
    for r, values in enumerate(rows[1:], start=2):
        values = list(values) + [None] * (len(headers) - len(values))
        if all(blank(v) for v in values):
            skipped.append(r)
            continue
        item = values[0]
        if blank(item):
            problems.append(InputError("row has content but no word_id", file=path, sheet=ws.title, row=r,
                                       column=headers[0], cell=f"A{r}", value=item))
            continue
        item = str(item).strip()
        if item in seen:
            problems.append(InputError(f"duplicate word_id (first on row {seen[item]})", file=path, sheet=ws.title,
                                       row=r, column=headers[0], cell=f"A{r}", value=item))
            continue
        seen[item] = r
        if done_at is not None:
            finished = classroom.row_done(values[done_at], problems, file=path, sheet=ws.title, row=r,
                                          column=classroom.DONE_HEADER, cell=f"{get_column_letter(done_at + 1)}{r}")
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
                    severities[cat] = parse_severity(values[c], file=path, sheet=ws.title, row=r,
                                                     column=f"{cat} ({header})", cell=f"{get_column_letter(c + 1)}{r}")
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
                    problems.append(InputError(
                        f"SEGS must be blank or equal IMP+RAM+MIS+STL+PRF = {total} (paper Eq. 1)", file=path,
                        sheet=ws.title, row=r, column=f"SEGS ({header})", cell=f"{get_column_letter(segs_col + 1)}{r}",
                        value=segs))
            for cat, sev in severities.items():
                records.append({
                    "item": item, "position": position, "row": r, "sentence": clean_sentence(sentence),
                    "metaphor": values[2], "pos": values[3], "system": system, "translation": values[col],
                    "annotator": annotator, "category": cat, "severity": sev,
                })
    raise_all(problems)
    if not records:
        raise InputError("no annotated rows: the sheet has a header but no item", file=path, sheet=ws.title)
    last = max(r["row"] for r in records)
    df = pd.DataFrame.from_records(records, columns=TIDY_COLUMNS)
    df["category"] = pd.Categorical(df["category"], categories=list(CATEGORIES), ordered=True)
    return AnnotationSheet(df, path, ws.title, tuple(r for r in skipped if r < last), entered, dict(seen), student,
                           done_at is not None, unfinished)


def read_workbook(path: str | os.PathLike, annotator: str, sheet: str | None = None,
                  system_names: Mapping[str, str] | None = None) -> pd.DataFrame:
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


@dataclass(frozen=True)
class ClassAnnotations:
    """A team's or class's annotations as loaded, with what was left out and why."""

    tidy: pd.DataFrame
    notes: tuple[str, ...] = ()  # one line per file ignored, student or item left out
    students: tuple[str, ...] = ()  # annotators kept, in file order
    dropped_students: tuple[str, ...] = ()
    dropped_items: tuple[str, ...] = ()
    annotations: pd.DataFrame | None = None  # an MQM file's core annotations (helpers.core.annotations), else None
    scheme: str = MQM_SCHEME  # the weighting scheme that made a foreign MQM file's severities (from_mqm)
    left_out: classroom.LeftOut = classroom.LeftOut()  # each student's rows and the items left out, for their page
    named_by_field: bool = False  # the workbooks carry a Student: field (a class's, from template metahope)
    files: tuple[Path, ...] = ()  # the workbooks read (and the files ignored), for a projection's notes

    @property
    def foreign(self) -> bool:
        """Whether these are foreign MQM annotations (not MetaHOPE's categories; :func:`from_mqm`)."""
        return not is_metahope(self.tidy)

    def weighted(self, scheme: str) -> pd.DataFrame:
        """The tidy frame with ``severity`` under another weighting scheme: MetaHOPE levels
        mapped through :func:`~helpers.metahope.severity.apply_weights` (the result's
        ``penalty`` column), foreign MQM annotations re-read by :func:`from_mqm`."""
        if self.annotations is not None and self.foreign:
            return from_mqm(self.annotations, scheme).assign(penalty=lambda d: d["severity"])
        return apply_weights(self.tidy, scheme)

    def for_page(self, choice, results_dir) -> tuple[ClassAnnotations, classroom.Projection]:
        """These annotations as a chapter page shows them, and the projection used: students
        coded when ``choice`` (a chapter's ``projection`` parameter) says so, see
        :func:`helpers.core.classroom.projection` (the key goes to ``results_dir``)."""
        shown = classroom.projection(choice, self.named_by_field, self.names(), results_dir, self.files)
        return self.projected(shown), shown

    def names(self) -> list[str]:
        """Every annotator read, kept or left out."""
        return list(dict.fromkeys([*map(str, self.tidy["annotator"].unique()), *self.students,
                                   *self.dropped_students]))

    def projected(self, projection: classroom.Projection) -> ClassAnnotations:
        """The same annotations with every student shown by their code (annotator column,
        students, notes; :class:`helpers.core.classroom.Projection`)."""
        if not projection:
            return self
        return replace(self, tidy=projection.column(self.tidy, "annotator"),
                       notes=tuple(projection.text(n) for n in self.notes), students=projection.names(self.students),
                       dropped_students=projection.names(self.dropped_students),
                       annotations=None if self.annotations is None else projection.column(self.annotations, "rater"),
                       left_out=classroom.LeftOut({projection.name(s): r for s, r in self.left_out.rows.items()},
                                                  self.left_out.items))


def _legacy_blank(s: AnnotationSheet, student: str) -> InputError:
    return InputError(f"student {student!r}: no severity was entered in any cell: a blank template handed back? If "
                      "this annotator really found no error at all, enter 0s", file=s.file, sheet=s.sheet,
                      expected=f"a filled-in sheet, or run with {typed('unfinished', 'drop_rows')} or "
                      f"{typed('unfinished', 'drop_students')} to leave it out")


def load_class(files, sheet: str | None = None, system_names: Mapping[str, str] | None = None,
               unfinished: str = "stop", notes: Sequence[str] = (), scheme: str = MQM_SCHEME) -> ClassAnnotations:
    """Read one workbook per annotator into one tidy frame, reporting every problem at once.

    ``files`` is ``{annotator: workbook}`` (the names given), a list of workbooks or a
    folder of them (each annotator named by the workbook's ``Student:`` field, else by the
    name its file name implies, :func:`helpers.core.classroom.name_students`; see
    :func:`helpers.core.classroom.gather` for which files of a folder count),
    or one long ``.csv`` / MQM file (read as it is; a foreign MQM file's severities are the
    weights of ``scheme``, :func:`from_mqm`). Checked
    together, all problems in one :class:`~helpers.core.errors.InputErrors`: every bad cell
    of every sheet, two workbooks of one student, an item or a system that one sheet lacks
    and the others have, and unfinished rows (rows not marked done in a kit workbook; a
    released-layout sheet with nothing entered at all). ``unfinished`` decides what
    unfinished rows mean (:data:`helpers.core.classroom.UNFINISHED_CHOICES`): ``"stop"``
    reports them; ``"drop_students"`` leaves out every student with one;
    ``"drop_rows"`` leaves those items out for everyone (MetaHOPE's statistics compare
    complete sheets) and leaves out students who finished nothing. Items are ordered as
    in the union (first sheet first); ``row`` stays each sheet's own Excel row.
    """
    unfinished = classroom.unfinished_choice(unfinished)
    if not files:
        raise InputError("no annotation workbooks were given", expected="{annotator: workbook} or a list")
    files, folder = classroom.as_spec(files, None)
    if folder is not None:
        notes = [*notes, *folder.notes()]
    elif not isinstance(files, Mapping):
        return _one_file(files, scheme)
    named = isinstance(files, Mapping)
    entries = list(files.items()) if named else [(None, f) for f in files]
    read, fields, problems = [], [], list(folder.unusable) if folder is not None else []
    for given, f in entries:
        try:
            path = paths.resolve_input(f)
            s = read_sheet(path, str(given) if named else path.stem, sheet=sheet, system_names=system_names)
        except FileNotFoundError as exc:
            problems.append(InputError(str(exc), value=str(f)))
            continue
        except InputError as exc:
            problems.append(exc)
            unread = None if named else classroom.field_of_unread(path, workbook_student)
            fields += [unread] if unread else []  # its errors are reported; a second copy of its student too
            continue
        read.append((given, s))
        fields.append((s.student, s.file))
    if named:
        names = [str(given) for given, _ in read]
    else:
        naming = classroom.name_students(fields, KIT_PREFIX)
        by_file = dict(zip((p for _, p in fields), naming.names))
        names = [by_file[s.file] for _, s in read]
        notes, problems = [*notes, *naming.notes], [*problems, *naming.problems]
    sheets = []
    for name, (_, s) in zip(names, read):
        if name != s.frame["annotator"].iat[0]:
            s = AnnotationSheet(s.frame.assign(annotator=name), s.file, s.sheet, s.skipped_rows, s.entered_cells,
                                s.item_rows, s.student, s.has_done_column, s.unfinished)
        sheets.append((name, s))
    union: dict[str, tuple[AnnotationSheet, int]] = {}
    for _, s in sheets:
        for item, row in s.item_rows.items():
            union.setdefault(item, (s, row))
    all_systems = list(dict.fromkeys(sys for _, s in sheets for sys in s.frame["system"].unique()))
    for _, s in sheets:
        missing = [i for i in union if i not in s.item_rows]
        if missing:
            where, row = union[missing[0]]
            more = f" ({len(missing) - 1} more item(s) missing too)" if len(missing) > 1 else ""
            problems.append(InputError(f"item {missing[0]!r} is missing from this sheet (it is on row {row} of "
                                       f"{where.file.name}){more}", file=s.file, sheet=s.sheet, column="word_id"))
        lacking = [x for x in all_systems if x not in set(s.frame["system"])]
        if lacking:
            problems.append(InputError(f"system {lacking[0]!r} is missing from this sheet (other sheets have it)",
                                       file=s.file, sheet=s.sheet, row=1))
    progress = {n: classroom.Progress(n, s.file, s.sheet, tuple(s.unfinished_rows()), len(s.item_rows),
                                      None if s.has_done_column else _legacy_blank(s, n)) for n, s in sheets}
    settled = classroom.settle_unfinished(list(progress.values()), unfinished, note_rows=False)
    raise_all([*problems, *settled.problems])
    kept_names = {p.student for p in settled.kept}
    kept = [(n, s) for n, s in sheets if n in kept_names]
    dropped = [n for n, _ in sheets if n not in kept_names]
    out_notes, dropped_items, own_rows = [*notes, *settled.notes], [], {}
    if unfinished == "drop_rows":  # MetaHOPE's statistics compare complete sheets: an item leaves for everyone
        by_item: dict[str, list[str]] = {}
        for n, s in kept:
            for item in s.unfinished:
                by_item.setdefault(item, []).append(n)
        dropped_items = [i for i in union if i in by_item]
        own_rows = {n: dict(s.unfinished) for n, s in kept if s.unfinished}
        for item in dropped_items:
            out_notes.append(f"left out item {item}: not marked done by {', '.join(by_item[item])}")
    if not kept:
        raise InputError("no student is left once the unfinished sheets are left out", value=dropped)
    order = {item: k for k, item in enumerate(i for i in union if i not in set(dropped_items))}
    if not order:
        raise InputError("no item is left once the unfinished rows are left out",
                         expected=f"finished rows, or {typed('unfinished', 'drop_students')}")
    out = pd.concat([s.frame for _, s in kept], ignore_index=True)
    out = out[out["item"].isin(order)].reset_index(drop=True)
    out["position"] = out["item"].map(order)
    out["severity"] = out["severity"].astype(int)
    out["category"] = pd.Categorical(out["category"], categories=list(CATEGORIES), ordered=True)
    return ClassAnnotations(out, tuple(out_notes), tuple(n for n, _ in kept), tuple(dropped), tuple(dropped_items),
                            left_out=classroom.LeftOut(own_rows, tuple(dropped_items)),
                            named_by_field=any(s.student for _, s in sheets),
                            files=(*(s.file for _, s in sheets), *(p for p, _ in (folder.ignored if folder else ()))))


#: Suffixes of an MQM/Marot file (``.tar.gz`` ends in ``.gz``).
MQM_SUFFIXES = (".tsv", ".txt", ".gz", ".tgz")


def _one_file(spec, scheme: str = MQM_SCHEME) -> ClassAnnotations:
    path = paths.resolve_input(spec)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return ClassAnnotations(read_long(path))
    if suffix in MQM_SUFFIXES:
        tidy, frame = read_mqm(path, scheme)
        return ClassAnnotations(tidy, annotations=frame, scheme=scheme)
    if suffix in (".xlsx", ".xlsm"):
        raise InputError("one workbook is one annotator: pass a folder, a list or a mapping of workbooks, one per "
                         "annotator", file=path)
    raise InputError("pass a folder of workbooks, a list or mapping of workbooks (one per annotator), or a long "
                     ".csv / MQM .tsv file", file=path)


def load_study(files, sheet: str | None = None, system_names: Mapping[str, str] | None = None,
               unfinished: str = "stop") -> pd.DataFrame:
    """The tidy frame of :func:`load_class` (one workbook per annotator)."""
    return load_class(files, sheet, system_names, unfinished).tidy


def pilot_v1_files() -> dict[str, Path]:
    """The released EN->ZH pilot v1 annotator sheets (A, B), fetched by ``python -m helpers fetch``."""
    return {a: paths.released_file(METAHOPE_REPO, f) for a, f in PILOT_V1_FILES.items()}


def pilot_zh_en_file() -> Path:
    """The released ZH->EN pilot sheet (one annotator), fetched by ``python -m helpers fetch``."""
    return paths.released_file(METAHOPE_REPO, PILOT_ZH_EN_FILE)


def pilot_v1_sentence_file() -> Path:
    """The released sheet with annotator A's full sentence-level errors (EPS, paper Table 2)."""
    return paths.released_file(METAHOPE_REPO, PILOT_V1_SENTENCE_FILE)


# --------------------------------------------------------------------------- interchange formats

LONG_COLUMNS = ["item", "system", "annotator", "category", "severity"]
LONG_OPTIONAL = ["sentence", "metaphor", "pos", "translation"]


def to_long(tidy: pd.DataFrame) -> pd.DataFrame:
    """The interchange long format: one row per (item, system, annotator, category)."""
    cols = LONG_COLUMNS[:4] + [c for c in LONG_OPTIONAL if c in tidy.columns] + ["severity"]
    out = tidy[cols].copy()
    out["category"] = out["category"].astype(str)
    return out


def read_long(path: str | os.PathLike) -> pd.DataFrame:
    """Read a long-format CSV (``item, system, annotator, category, severity`` + optional
    ``sentence, metaphor, pos, translation``) into the tidy frame.

    Categories an annotator did not list for an (item, system) they rated are 0; an
    (item, system) an annotator has no row for at all is an error (not a silent 0).
    Errors name the file, the CSV line, the column and the value.
    """
    path = Path(path)
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in LONG_COLUMNS if c not in raw.columns]
    if missing:
        raise InputError(f"missing column(s) {missing}; the long format needs {LONG_COLUMNS}", file=path, row=1)
    records = []
    for i, r in raw.iterrows():
        line = i + 2
        if r["category"].strip() not in CATEGORIES:
            raise InputError(f"category must be one of {', '.join(CATEGORIES)}", file=path, row=line,
                             column="category", value=r["category"])
        for col in ("item", "system", "annotator"):
            if not r[col].strip():
                raise InputError(f"{col} is empty", file=path, row=line, column=col, value=r[col])
        rec = {c: r[c].strip() for c in ("item", "system", "annotator", "category")}
        rec["severity"] = parse_severity(r["severity"], file=path, row=line, column="severity")
        rec["_line"] = line
        for c in LONG_OPTIONAL:
            rec[c] = r[c] if c in raw.columns else ""
        records.append(rec)
    if not records:
        raise InputError("the file has a header but no rows", file=path, row=1)
    df = pd.DataFrame.from_records(records)
    dup = df.duplicated(["item", "system", "annotator", "category"], keep=False)
    if dup.any():
        first = df[dup].iloc[0]
        raise InputError("the same (item, system, annotator, category) appears twice", file=path,
                         row=int(first["_line"]), column="item", value=first["item"])
    return _finish_long(df.drop(columns="_line"), path)


def _finish_long(df: pd.DataFrame, source) -> pd.DataFrame:
    """Complete missing categories with 0, refuse missing (item, system, annotator) units,
    and add ``position`` in first-seen item order."""
    order = {item: k for k, item in enumerate(dict.fromkeys(df["item"]))}
    systems, annotators = list(dict.fromkeys(df["system"])), list(dict.fromkeys(df["annotator"]))
    have = set(zip(df["item"], df["system"], df["annotator"]))
    for item in order:
        for system in systems:
            for annotator in annotators:
                if (item, system, annotator) not in have:
                    raise InputError(f"annotator {annotator!r} has no row for item {item!r} and system {system!r} "
                                     "(give at least one row, with severity 0 if there is no error)", file=source,
                                     column="item", value=item)
    info = df.drop_duplicates("item").set_index("item")
    full = pd.MultiIndex.from_product([list(order), systems, annotators, list(CATEGORIES)],
                                      names=["item", "system", "annotator", "category"])
    sev = df.set_index(["item", "system", "annotator", "category"])["severity"].reindex(full, fill_value=0)
    out = sev.reset_index()
    out["position"] = out["item"].map(order)
    for c in LONG_OPTIONAL:
        out[c] = out["item"].map(info[c]) if c in info.columns else ""
    trans = df.drop_duplicates(["item", "system"]).set_index(["item", "system"])["translation"]
    out["translation"] = [trans.get((i, s), "") for i, s in zip(out["item"], out["system"])]
    out["sentence"] = out["sentence"].map(clean_sentence)
    out["row"] = out["position"] + 2
    out["category"] = pd.Categorical(out["category"], categories=list(CATEGORIES), ordered=True)
    return out[TIDY_COLUMNS]


from ..core import annotations as core_ann  # noqa: E402 (kept with the MQM section it serves)
from ..core import mqm as core_mqm  # noqa: E402
from ..core import schemes as core_schemes  # noqa: E402

#: Marot's column names and order, the columns :func:`write_mqm_tsv` writes
#: (:data:`helpers.core.mqm.MAROT_COLUMNS`).
MQM_COLUMNS = list(core_mqm.MAROT_COLUMNS)
_LEVEL_OF_SEVERITY = {name.capitalize(): level for level, name in SEVERITY_NAMES.items() if level}


def to_annotations(tidy: pd.DataFrame) -> pd.DataFrame:
    """The tidy frame as the core annotation model (:mod:`helpers.core.annotations`): one row
    per error (a category with severity > 0), a ``No-error`` row for an (item, system,
    annotator) without any, so every rating is represented.

    ``doc`` is the item id up to its last ``_`` (VUAMC fragment + sentence, PSUCMC segment),
    ``doc_seg_id`` = ``global_seg_id`` = position + 1, ``severity`` the MetaHOPE level name
    (Minor, Moderate, Major, Severe, Critical; paper §3), ``source``/``target`` the sentence
    and translation, and ``metadata`` JSON with the item id, metaphor word, POS and workbook
    row, so :func:`from_annotations` gives the tidy frame back unchanged.
    """
    keys = ["item", "system", "annotator"]
    first = tidy.drop_duplicates(keys).reset_index(drop=True)
    errors = tidy[tidy["severity"] > 0]
    clean = first.merge(errors[keys].drop_duplicates(), on=keys, how="left", indicator=True)
    clean = first[(clean["_merge"] == "left_only").to_numpy()]
    rows = pd.concat([errors.assign(kind=1), clean.assign(kind=0)], ignore_index=True)
    order = {k: i for i, k in enumerate(zip(first["item"], first["system"], first["annotator"]))}
    rows["_order"] = [order[k] for k in zip(rows["item"], rows["system"], rows["annotator"])]
    rows = rows.sort_values(["_order", "kind", "category"], kind="stable").reset_index(drop=True)
    no_error = rows["kind"] == 0
    meta = [json.dumps({"item": str(i), "metaphor": str(m), "pos": str(p), "row": int(r)}, ensure_ascii=False)
            for i, m, p, r in zip(rows["item"], rows["metaphor"], rows["pos"], rows["row"])]
    frame = pd.DataFrame({
        "system": rows["system"].astype(str), "doc": rows["item"].astype(str).str.rsplit("_", n=1).str[0],
        "doc_seg_id": rows["position"].astype(int) + 1, "global_seg_id": rows["position"].astype(int) + 1,
        "rater": rows["annotator"].astype(str), "source": rows["sentence"].astype(str),
        "target": rows["translation"].astype(str),
        "category": rows["category"].astype(str).where(~no_error, core_ann.NO_ERROR),
        "severity": [core_ann.NO_ERROR if k == 0 else SEVERITY_NAMES[int(v)].capitalize()
                     for k, v in zip(rows["kind"], rows["severity"])],
        "source_start": pd.NA, "source_end": pd.NA, "target_start": pd.NA, "target_end": pd.NA,
        "metadata": meta, "line": 0})
    for col in ("source", "target"):  # TSV cannot hold tabs or line breaks inside a field
        frame[col] = frame[col].str.replace(r"[\t\r\n]+", " ", regex=True)
    return core_ann.conform(frame)


def from_annotations(frame: pd.DataFrame, source=None) -> pd.DataFrame:
    """Core annotations (:func:`helpers.core.mqm.read_mqm`, :func:`to_annotations`) as the tidy frame.

    Categories must be MetaHOPE's (``IMP`` …; a prefix such as ``MetaHOPE/MIS`` is
    accepted) or ``No-error``, severities MetaHOPE's level names (Minor … Critical). Items
    come from ``metadata.item`` when present, else from ``doc`` + ``global_seg_id``. Every
    rater must have at least one row (an error or ``No-error``) for every item and system.
    Errors name ``source`` (the file) and the line.
    """
    if frame.empty:
        raise InputError("the file has a header but no rows", file=source, row=1)
    meta = core_ann.parse_metadata(frame)
    records = []
    for i, r in enumerate(frame.itertuples(index=False)):
        m = meta.iloc[i]
        line = int(r.line) if getattr(r, "line", 0) else None
        item = str(m.get("item") or f"{r.doc}_{r.global_seg_id}")
        category = str(r.category).strip().split("/")[-1]
        if r.category == core_ann.NO_ERROR:
            severity, category = 0, None
        elif category not in CATEGORIES:
            raise InputError(f"category must be one of {', '.join(CATEGORIES)} or No-error", file=source, row=line,
                             column="category", value=r.category)
        elif r.severity not in _LEVEL_OF_SEVERITY:
            raise InputError("severity must be a MetaHOPE level", file=source, row=line, column="severity",
                             value=r.severity, expected=", ".join(_LEVEL_OF_SEVERITY))
        else:
            severity = _LEVEL_OF_SEVERITY[r.severity]
        base = {"item": item, "system": r.system, "annotator": r.rater, "sentence": r.source,
                "translation": r.target, "metaphor": m.get("metaphor", ""), "pos": m.get("pos", "")}
        for c in ([category] if category else list(CATEGORIES)):
            records.append({**base, "category": c, "severity": severity if category else 0})
    df = pd.DataFrame.from_records(records)
    df = df.groupby(["item", "system", "annotator", "category"], sort=False, as_index=False).agg(
        severity=("severity", "max"), sentence=("sentence", "first"), translation=("translation", "first"),
        metaphor=("metaphor", "first"), pos=("pos", "first"))
    out = _finish_long(df, source)
    # what to_annotations wrote down comes back: the workbook row and position of each item,
    # and the order of the ratings (first appearance of each item, system, annotator)
    rows = {str(m["item"]): (int(seg) - 1, int(m["row"])) for m, seg in zip(meta, frame["doc_seg_id"])
            if "item" in m and "row" in m}
    if rows and set(out["item"]) <= set(rows):
        out["position"] = out["item"].map(lambda i: rows[i][0]).astype("int64")
        out["row"] = out["item"].map(lambda i: rows[i][1]).astype("int64")
    seen = {}
    for i, r in enumerate(records):
        seen.setdefault((r["item"], r["system"], r["annotator"]), i)
    rank = [seen[k] for k in zip(out["item"], out["system"], out["annotator"])]
    return out.assign(_rank=rank).sort_values("_rank", kind="stable").drop(columns="_rank").reset_index(drop=True)


def write_mqm_tsv(tidy: pd.DataFrame, path: str | os.PathLike) -> Path:
    """Write the tidy frame as Marot TSV (:func:`to_annotations`, then
    :func:`helpers.core.mqm.write_mqm_tsv`: Marot's header and column order), which Marot
    opens and :func:`read_mqm_tsv` reads back to the same tidy frame."""
    return core_mqm.write_mqm_tsv(to_annotations(tidy), path)


#: The top-level MQM categories in the order the WMT releases and Freitag et al. (2021,
#: Table 10) list them; a foreign file's categories come in this order, others after them
#: in order of first appearance.
MQM_TOP_CATEGORIES = ("Accuracy", "Fluency", "Terminology", "Style", "Locale convention", "Other", "Non-translation",
                      "Source error", "Source issue")


def top_category(category: pd.Series) -> pd.Series:
    """The top-level MQM category of each annotation: the part before the first ``/``
    without a trailing ``!`` (``Accuracy/Mistranslation`` -> ``Accuracy``,
    ``Non-translation!`` -> ``Non-translation``)."""
    return category.astype(str).str.split("/", n=1).str[0].str.strip().str.rstrip("!").str.strip()


def is_metahope_annotations(frame: pd.DataFrame) -> bool:
    """Whether core annotations carry MetaHOPE's categories (``IMP`` …, also as ``MetaHOPE/MIS``):
    then :func:`from_annotations` reads them losslessly, else :func:`from_mqm` does. A file
    without any error is MetaHOPE's when its metadata names the items (:func:`to_annotations`)."""
    marks = frame["severity"].isin([core_ann.NO_ERROR, core_ann.HOTW])
    codes = frame.loc[~marks, "category"].astype(str).str.strip().str.split("/").str[-1]
    if codes.empty:
        return "metadata" in frame and bool(frame["metadata"].astype(str).str.contains('"item"', regex=False).any())
    return bool(codes.isin(CATEGORIES).any())


def from_mqm(frame: pd.DataFrame, scheme=MQM_SCHEME, source=None) -> pd.DataFrame:
    """Foreign MQM annotations (WMT/Marot categories) as the tidy frame of chapters 1–3.

    * an **item** is a segment ``doc|doc_seg_id`` (``position`` in order of first
      appearance, ``row`` the file line of its first row, ``sentence`` the source and
      ``translation`` the target without ``<v>`` markers; ``metaphor`` and ``pos`` are "");
    * a **category** is a top-level MQM category (:func:`top_category`), the set read from
      the data in :data:`MQM_TOP_CATEGORIES` order (:func:`category_order` gives it back);
    * a **severity** is the sum of the weights ``scheme`` gives the rater's errors of that
      category in that segment (default :data:`MQM_SCHEME`, MetaHOPE's linear levels; with
      ``"mqm"`` SEGS is the rater's MQM penalty of Freitag et al. 2021 §3). ``HOTW-test``
      rows weigh nothing, and an annotation the scheme does not cover is an error;
    * only units rated are rows: a rater who did not rate a (segment, system) has no row,
      so every pivot shows NaN there, never 0 (WMT rates each segment by 3 of N raters).
      A rated unit has every category, 0 where the rater marked none.

    Side-by-side pairing keys (``GPT4-5shot_with_refA``) are kept as separate systems.
    """
    core_ann.check_columns(frame)
    if frame.empty:
        raise InputError("the file has a header but no rows", file=source, row=1)
    weights = core_schemes.load_scheme(scheme).weights(frame, file=source).fillna(0.0)
    top = top_category(frame["category"])
    found = list(dict.fromkeys(top[~frame["severity"].isin([core_ann.NO_ERROR, core_ann.HOTW])]))
    cats = [c for c in MQM_TOP_CATEGORIES if c in found] + [c for c in found if c not in MQM_TOP_CATEGORIES]
    if not cats:
        cats = ["No-error"]  # nobody marked any error: one category of zeros keeps every unit
    segment = frame["doc"].astype(str) + "|" + frame["doc_seg_id"].astype(str)
    work = pd.DataFrame({"item": segment, "system": frame["system"], "annotator": frame["rater"],
                         "category": top, "weight": weights.to_numpy(), "line": frame["line"]})
    for col, name in (("source", "sentence"), ("target", "translation")):
        work[name] = core_ann.clean_text(frame[col]) if col in frame.columns else ""
    order = {item: k for k, item in enumerate(dict.fromkeys(work["item"]))}
    units = work.drop_duplicates(["item", "system", "annotator"])[["item", "system", "annotator"]]
    grid = units.merge(pd.DataFrame({"category": cats}), how="cross")
    sums = work[work["category"].isin(cats)].groupby(["item", "system", "annotator", "category"], sort=False,
                                                     as_index=False)["weight"].sum()
    out = grid.merge(sums, on=["item", "system", "annotator", "category"], how="left")
    out["severity"] = out.pop("weight").fillna(0.0).astype(float)
    first = work.drop_duplicates("item").set_index("item")
    out["position"] = out["item"].map(order).astype("int64")
    out["row"] = out["item"].map(first["line"]).astype("int64")
    out["sentence"] = out["item"].map(first["sentence"])
    trans = work.drop_duplicates(["item", "system"]).set_index(["item", "system"])["translation"]
    out["translation"] = trans.reindex(pd.MultiIndex.from_frame(out[["item", "system"]])).to_numpy()
    out["metaphor"] = ""
    out["pos"] = ""
    raters = {r: k for k, r in enumerate(dict.fromkeys(work["annotator"]))}
    systems = {s: k for k, s in enumerate(dict.fromkeys(work["system"]))}
    out = out.sort_values(["annotator", "system", "position"], kind="stable",
                          key=lambda c: c.map(raters if c.name == "annotator" else systems)
                          if c.name in ("annotator", "system") else c)
    out["category"] = pd.Categorical(out["category"], categories=cats, ordered=True)
    return out[TIDY_COLUMNS].reset_index(drop=True)


def category_order(tidy: pd.DataFrame) -> list[str]:
    """The categories of a tidy frame, in order: a categorical column's categories (every
    loader sets them: MetaHOPE's IMP … PRF, or the MQM categories of :func:`from_mqm`),
    else :data:`CATEGORIES` when the values are MetaHOPE's, else in order of appearance."""
    col = tidy["category"]
    if isinstance(col.dtype, pd.CategoricalDtype):
        return [str(c) for c in col.cat.categories]
    seen = list(dict.fromkeys(col.astype(str)))
    return list(CATEGORIES) if set(seen) <= set(CATEGORIES) else seen


def is_metahope(tidy: pd.DataFrame) -> bool:
    """Whether a tidy frame holds MetaHOPE annotations (categories IMP … PRF), the data the
    paper's tables describe; foreign MQM data (:func:`from_mqm`) is not compared with them."""
    return category_order(tidy) == list(CATEGORIES)


def severity_labels(tidy: pd.DataFrame):
    """The severity scale for κ and ordinal α on single categories: MetaHOPE's levels
    (:data:`SEVERITY_LEVELS`) for MetaHOPE data, None (the values observed) for foreign MQM
    data, whose category sums have no fixed scale."""
    return SEVERITY_LEVELS if is_metahope(tidy) else None


def shared_units(tidy: pd.DataFrame) -> pd.DataFrame:
    """Annotator × annotator: how many (item, system) units both rated (the diagonal: how
    many each rated), annotators in order of first appearance."""
    units = tidy.drop_duplicates(["item", "system", "annotator"])
    rated = pd.crosstab([units["item"], units["system"]], units["annotator"]).clip(upper=1)
    rated = rated[list(dict.fromkeys(units["annotator"]))]
    return rated.T @ rated


def two_raters(tidy: pd.DataFrame, raters=None, parameter: str = "raters") -> tuple[pd.DataFrame, list[str]]:
    """Two annotators' ratings of the (item, system) units both rated, and their names.

    Chapter 1's two-rater statistics (κ, bootstrap, severity bias) need the same items from
    both; in a WMT design (3 of N raters per segment) that is the units a pair shares.
    ``raters`` names the two; None takes the pair that shares the most units (first
    appearance breaks ties). Fewer than two annotators, an unknown name or a pair that
    shares no unit is an :class:`InputError` naming ``parameter``.
    """
    shared = shared_units(tidy)
    names = list(shared.index)
    if raters is None:
        if len(names) < 2:
            raise InputError(f"has {len(names)} annotator(s) {names}; agreement needs two", parameter=parameter)
        off = shared.to_numpy().copy()
        np.fill_diagonal(off, -1)
        i, j = np.unravel_index(int(np.argmax(off)), off.shape)
        raters = [names[min(i, j)], names[max(i, j)]]
    raters = [str(r) for r in raters]
    if len(raters) != 2 or raters[0] == raters[1]:
        raise InputError("must name two different annotators", parameter=parameter, value=raters)
    for r in raters:
        if r not in names:
            raise InputError("is not one of the annotators", parameter=parameter, value=r,
                             expected=" or ".join(names))
    a, b = raters
    if shared.loc[a, b] == 0:
        raise InputError(f"{a} and {b} share no rated unit", parameter=parameter, value=raters,
                         expected="two annotators who rated some of the same segments")
    pair = tidy[tidy["annotator"].isin(raters)]
    count = pair.drop_duplicates(["item", "system", "annotator"]).groupby(["item", "system"]).size()
    both = count[count == 2].index
    keep = pd.MultiIndex.from_frame(pair[["item", "system"]]).isin(both)
    return pair[keep].reset_index(drop=True), raters


def read_mqm(path: str | os.PathLike, scheme=MQM_SCHEME) -> tuple[pd.DataFrame, pd.DataFrame]:
    """An MQM/Marot file (:func:`helpers.core.mqm.read_mqm`) as ``(tidy, annotations)``:
    the tidy frame (:func:`from_annotations` for MetaHOPE categories, else :func:`from_mqm`
    under ``scheme``) and the core annotations it came from (to re-weight them)."""
    path = Path(path)
    frame = core_mqm.read_mqm(path)
    tidy = (from_annotations(frame, source=path) if is_metahope_annotations(frame)
            else from_mqm(frame, scheme, source=path))
    return tidy, frame


def read_mqm_tsv(path: str | os.PathLike) -> pd.DataFrame:
    """Read an MQM/Marot TSV (:func:`helpers.core.mqm.read_mqm`: Marot's positional columns,
    recurring headers, .gz/.tar.gz) into the tidy frame: MetaHOPE categories and severities
    through :func:`from_annotations`, any other MQM categories through :func:`from_mqm`."""
    return read_mqm(path)[0]


def load_annotations(spec, unfinished: str = "stop") -> pd.DataFrame:
    """Annotations from whatever a notebook parameter holds (the tidy frame of :func:`load_class`).

    * ``{annotator: workbook}``, a list of workbooks, or a folder of them (annotators named
      by each workbook's ``Student:`` field, else its file name);
    * a ``.csv`` path: the long format (:func:`read_long`);
    * a ``.tsv`` path: MQM/Marot-style TSV (:func:`read_mqm_tsv`).
    """
    return load_class(spec, unfinished=unfinished).tidy


def workbook_student(path: str | os.PathLike) -> str | None:
    """The ``Student:`` field of a workbook's Guidelines sheet (None for the released ones,
    which have none)."""
    wb, _ = _open_sheet(Path(path), None)
    try:
        return classroom.workbook_student(wb, GUIDE_SHEET)
    finally:
        wb.close()


def annotation_files(spec) -> list[Path]:
    """The files a :func:`load_annotations` spec names (for the page's data box)."""
    if isinstance(spec, Mapping):
        return [Path(str(v)) for v in spec.values()]
    if isinstance(spec, (list, tuple, classroom.ClassFolder)):
        return [Path(str(v)) for v in spec]
    return [Path(str(spec))]
