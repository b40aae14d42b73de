"""Ratings of metaphor explanations on six dimensions plus Overall (Naveriani et al. 2026): input.

The study rated 100 explanations × 16 raters × 7 scores (1–5 Likert): Non-Circularity,
Origin & Cultural Accuracy, Mapping, Emergence, Accessibility, Purpose and Overall. Its
ratings are not public; the book carries an authored benchmark with a designed pass/fail
profile per dimension (``data/authored/metaphor_explanations.csv``) and
:func:`simulate_ratings`, and every function here runs unchanged on real ratings.

Ratings are tidy: one row per (item_id, rater, dimension) with an integer ``score``;
a rater who skipped an item simply has no row (missing data, never dropped silently).

Three ways in: a long CSV or a Forms export (:func:`read_ratings`), or the rating workbooks
that ``.venv/bin/python -m helpers template explanations`` writes, one per rater
(:func:`read_workbooks`); :func:`load_ratings` takes any of them (a CSV, a workbook, a
folder of workbooks or a list of workbooks).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from ..core import classroom, params, paths
from ..core.errors import InputError, raise_all

DIMENSIONS: tuple[str, ...] = ("non_circularity", "origin", "mapping", "emergence", "accessibility", "purpose")
SCORES: tuple[str, ...] = DIMENSIONS + ("overall",)
LABELS = {
    "non_circularity": "Non-Circularity",
    "origin": "Origin & Cultural Accuracy",
    "mapping": "Mapping",
    "emergence": "Emergence",
    "accessibility": "Accessibility",
    "purpose": "Purpose",
    "overall": "Overall",
}
SHORT = {
    "non_circularity": "NC",
    "origin": "OR",
    "mapping": "MP",
    "emergence": "EM",
    "accessibility": "AC",
    "purpose": "PU",
    "overall": "OV",
}
BENCHMARK_FILE = "data/authored/metaphor_explanations.csv"
RATING_COLUMNS = ["item_id", "metaphor", "explanation", "rater", "dimension", "score"]

#: Layout of a rating workbook (:mod:`helpers.explanations.template` writes it, :func:`read_workbooks` reads it).
RATINGS_SHEET = "Ratings"
GUIDE_SHEET = "Guide"
RATER_LABEL_CELL, RATER_CELL = "A1", "B1"
#: The start of a rating workbook's file name (``explanations_R01.xlsx``), not part of the student's name.
KIT_PREFIX = "explanations_"
HEADER_ROW = 3
TEXT_COLUMNS = ("item_id", "metaphor", "explanation")


def _dimension_key(text) -> str | None:
    """'Mapping', 'mapping', 'MP', 'Origin and Cultural Accuracy' -> key; None if unknown."""
    t = re.sub(r"[^a-z]", "", str(text).lower())
    for key in SCORES:
        forms = {re.sub(r"[^a-z]", "", key), re.sub(r"[^a-z]", "", LABELS[key].lower()), SHORT[key].lower()}
        if t in forms:
            return key
    if t in ("originandculturalaccuracy", "overallquality"):
        return "origin" if t.startswith("origin") else "overall"
    return None


def _score(value, file, row, column) -> int:
    """A 1–5 rating (numbers, numeric text, or text starting with the number such as '4 - good')."""
    m = re.match(r"^\s*(\d+(?:\.0+)?)\b", str(value))
    if m is None or not 1 <= float(m.group(1)) <= 5:
        raise InputError(file=file, problem="score must be an integer from 1 to 5", row=row, column=column, value=value)
    return int(float(m.group(1)))


def load_benchmark(path: str | os.PathLike | None = None) -> pd.DataFrame:
    """The authored benchmark: one row per item with metaphor, explanation and the designed
    pass (1) / fail (0) of each dimension."""
    path = paths.resolve_input(path or BENCHMARK_FILE)
    bench = pd.read_csv(path, dtype={"violates": str}, keep_default_na=False)
    missing = [c for c in ["item_id", "metaphor", "explanation", "design", *DIMENSIONS] if c not in bench.columns]
    if missing:
        raise InputError(file=path, problem=f"missing column(s) {missing}", row=1)
    for d in DIMENSIONS:
        bad = bench.index[~bench[d].isin([0, 1])]
        if len(bad):
            raise InputError(
                file=path,
                problem="designed pass/fail must be 0 or 1",
                row=int(bad[0]) + 2,
                column=d,
                value=bench.loc[bad[0], d],
            )
    return bench


def read_ratings(path: str | os.PathLike, benchmark: pd.DataFrame | None = None) -> pd.DataFrame:
    """Read ratings in the long layout or as a wide Google-Forms export.

    * long: columns ``item_id, rater, dimension, score`` (``metaphor``, ``explanation``
      optional; taken from ``benchmark`` when missing);
    * wide: one row per rater, a rater column (``rater``, ``Name``, ``Email Address`` or
      ``Username``; else the row number) and one column per rating headed
      ``<item_id> … [<dimension>]``, the way Forms exports a grid question.

    Errors name the file, the row (as in a spreadsheet: header = row 1), the column and
    the value: scores outside 1–5, unknown dimensions, duplicate ratings.
    """
    path = paths.resolve_input(path)
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    if {"item_id", "rater", "dimension", "score"} <= set(raw.columns):
        records = []
        for i, r in raw.iterrows():
            row = i + 2
            if not r["score"].strip():
                continue  # an empty cell is a missing rating
            key = _dimension_key(r["dimension"])
            if key is None:
                raise InputError(
                    file=path,
                    problem=f"unknown dimension (expected one of {', '.join(LABELS.values())})",
                    row=row,
                    column="dimension",
                    value=r["dimension"],
                )
            for col in ("item_id", "rater"):
                if not r[col].strip():
                    raise InputError(file=path, problem=f"{col} is empty", row=row, column=col, value=r[col])
            records.append(
                {
                    "item_id": r["item_id"].strip(),
                    "rater": r["rater"].strip(),
                    "dimension": key,
                    "score": _score(r["score"], path, row, "score"),
                    "_row": row,
                    "metaphor": r.get("metaphor", ""),
                    "explanation": r.get("explanation", ""),
                }
            )
        long = pd.DataFrame.from_records(records)
    else:
        long = _read_wide(raw, path)
    dup = long.duplicated(["item_id", "rater", "dimension"], keep="first")
    if dup.any():
        first = long[dup].iloc[0]
        raise InputError(
            file=path,
            problem=f"a second rating of item {first['item_id']} by rater {first['rater']} on {first['dimension']}",
            row=int(first["_row"]),
            value=first["item_id"],
        )
    return _attach_texts(long.drop(columns="_row"), benchmark, path)


def _read_wide(raw: pd.DataFrame, path) -> pd.DataFrame:
    header = re.compile(r"^\s*(?P<item>[^\s\[\].]+)[^\[]*\[(?P<dim>[^\]]+)\]\s*$")
    rater_col = next((c for c in ("rater", "Name", "Email Address", "Username") if c in raw.columns), None)
    rating_cols = {}
    for col in raw.columns:
        m = header.match(col)
        if m:
            key = _dimension_key(m.group("dim"))
            if key is None:
                raise InputError(
                    file=path, problem="unknown dimension in the column header", row=1, column=col, value=m.group("dim")
                )
            rating_cols[col] = (m.group("item"), key)
    if not rating_cols:
        raise InputError(
            file=path,
            problem="neither the long layout (item_id, rater, dimension, score) nor Forms-style "
            "columns '<item_id> ... [<dimension>]' were found",
            row=1,
        )
    records = []
    for i, r in raw.iterrows():
        rater = r[rater_col].strip() if rater_col else f"rater{i + 1}"
        for col, (item, key) in rating_cols.items():
            if r[col].strip():
                records.append(
                    {
                        "item_id": item,
                        "rater": rater,
                        "dimension": key,
                        "score": _score(r[col], path, i + 2, col),
                        "_row": i + 2,
                        "metaphor": "",
                        "explanation": "",
                    }
                )
    return pd.DataFrame.from_records(records)


def _attach_texts(long: pd.DataFrame, benchmark: pd.DataFrame | None, source) -> pd.DataFrame:
    if benchmark is not None:
        texts = benchmark.set_index("item_id")[["metaphor", "explanation"]]
        have = long["metaphor"].astype(str).str.strip() != ""
        long.loc[~have, "metaphor"] = long.loc[~have, "item_id"].map(texts["metaphor"]).fillna("")
        have = long["explanation"].astype(str).str.strip() != ""
        long.loc[~have, "explanation"] = long.loc[~have, "item_id"].map(texts["explanation"]).fillna("")
    long["dimension"] = pd.Categorical(long["dimension"], categories=list(SCORES), ordered=True)
    return long[RATING_COLUMNS].reset_index(drop=True)


# --------------------------------------------------------------------------- rating workbooks


@dataclass(frozen=True)
class WorkbookRatings:
    """Ratings read from workbooks, and what was left out (students, rows, ignored files)."""

    ratings: pd.DataFrame
    files: tuple[str, ...]
    notes: tuple[str, ...] = ()
    left_out: classroom.LeftOut = classroom.LeftOut(unit="explanation")  # each student's rows left out, for their page
    named_by_field: bool = False  # the workbooks carry a Student: field (a class's, from template explanations)
    names: tuple[str, ...] = ()  # every student read, kept or left out
    read: tuple[str, ...] = ()  # every file the notes may name (left-out and ignored ones too: names may be real)

    def for_page(self, choice, results_dir) -> tuple[WorkbookRatings, classroom.Projection]:
        """These ratings as a chapter page shows them, and the projection used: students
        coded when ``choice`` (a chapter's ``projection`` parameter) says so, see
        :func:`helpers.core.classroom.projection` (the key goes to ``results_dir``)."""
        shown = classroom.projection(
            choice,
            self.named_by_field,
            [*self.names, *map(str, self.ratings["rater"].unique())],
            results_dir,
            self.read or self.files,
        )
        if not shown:
            return self, shown
        return replace(
            self,
            ratings=shown.column(self.ratings, "rater"),
            files=shown.paths(self.files),
            notes=tuple(shown.text(n) for n in self.notes),
            names=shown.names(self.names),
            left_out=classroom.LeftOut(
                {shown.name(s): r for s, r in self.left_out.rows.items()}, unit=self.left_out.unit
            ),
        ), shown


@dataclass(frozen=True)
class RatingSheet:
    """One rater's workbook as read: ratings per row and which rows are unfinished."""

    rater: str
    frame: pd.DataFrame  # item_id, _row, metaphor, explanation and the seven scores (NaN: missing)
    file: Path
    has_done_column: bool = False
    unfinished_rows: tuple[int, ...] = ()  # Excel rows not marked done (kit workbooks)
    student: str | None = None  # the workbook's Student: field, None when it has none

    @property
    def named_by_field(self) -> bool:
        """Whether the rater came from the workbook's Student: field (a class's workbook)."""
        return self.student is not None

    def open_rows(self) -> list[int]:
        """Rows that count as not rated: not marked done; in a workbook without a done column,
        every row when the workbook holds no rating at all."""
        if self.has_done_column:
            return list(self.unfinished_rows)
        return self.frame["_row"].tolist() if self.frame[list(SCORES)].notna().sum().sum() == 0 else []


def sheet_student(path: str | os.PathLike) -> str | None:
    """The ``Student:`` field above the header of a rating workbook's Ratings sheet (None
    when it has none; :func:`read_workbooks` then names the student after the file)."""
    from openpyxl import load_workbook

    path = Path(path)
    try:
        wb = load_workbook(path, read_only=True)
    except Exception as exc:  # not a zip, not an xlsx, damaged
        raise InputError(f"cannot be opened as an Excel workbook ({exc.__class__.__name__})", file=path) from None
    try:
        return classroom.workbook_student(wb, RATINGS_SHEET)
    finally:
        wb.close()


def read_sheet(path: str | os.PathLike) -> RatingSheet:
    """One rater's workbook. Empty score cells are missing ratings; every entry that is not
    a whole number from 1 to 5, a bad done mark, a repeated item or a rated row without an
    item id is reported at once, each naming the workbook, sheet, row, column, cell and value.
    The rater is the workbook's ``Student:`` field (B1), else the name its file name
    implies (:func:`helpers.core.classroom.implied_student`)."""
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter

    path = Path(path)
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # not a zip, not an xlsx, damaged
        raise InputError(f"cannot be opened as an Excel workbook ({exc.__class__.__name__})", file=path) from None
    try:
        if RATINGS_SHEET not in wb.sheetnames:
            raise InputError(
                f"has no sheet {RATINGS_SHEET!r} (it has {wb.sheetnames})",
                file=path,
                expected="a workbook written by .venv/bin/python -m helpers template explanations",
            )
        rows = list(wb[RATINGS_SHEET].iter_rows(values_only=True))
    finally:
        wb.close()
    header_at = next((i for i, r in enumerate(rows[:15]) if r and str(r[0] or "").strip().lower() == "item_id"), None)
    if header_at is None:
        raise InputError(
            "no header row starting with 'item_id' in the first 15 rows",
            file=path,
            sheet=RATINGS_SHEET,
            expected=f"the header in row {HEADER_ROW}",
        )
    header = [str(h or "").strip() for h in rows[header_at]]
    columns = {}
    for k, h in enumerate(header):
        key = _dimension_key(h)
        if key is not None and key not in columns:
            columns[key] = k
    missing = [LABELS[s] for s in SCORES if s not in columns]
    if missing:
        raise InputError(
            f"the header lacks the column(s) {missing}",
            file=path,
            sheet=RATINGS_SHEET,
            row=header_at + 1,
            value=header,
            expected=f"{', '.join(LABELS.values())}",
        )
    text_at = {c: (header.index(c) if c in header else None) for c in ("metaphor", "explanation")}
    done_at = next((k for k, h in enumerate(header) if h.lower() == classroom.DONE_HEADER), None)
    student = classroom.student_field(rows[:header_at])
    rater = student or classroom.implied_student(path, KIT_PREFIX)
    records, seen, problems, unfinished = [], {}, [], []
    for i, r in enumerate(rows[header_at + 1 :], start=header_at + 2):
        r = tuple(r) + (None,) * (len(header) - len(r))
        item = str(r[0]).strip() if r[0] is not None else ""
        scores = {}
        for key, k in columns.items():
            try:
                scores[key] = params.whole_score(r[k])
            except ValueError:
                problems.append(
                    InputError(
                        "score must be a whole number from 1 to 5 (or empty)",
                        file=path,
                        sheet=RATINGS_SHEET,
                        row=i,
                        column=LABELS[key],
                        cell=f"{get_column_letter(k + 1)}{i}",
                        value=r[k],
                    )
                )
                scores[key] = None
        finished = done_at is None or classroom.row_done(
            r[done_at],
            problems,
            file=path,
            sheet=RATINGS_SHEET,
            row=i,
            column=classroom.DONE_HEADER,
            cell=f"{get_column_letter(done_at + 1)}{i}",
        )
        if not item:
            if any(v is not None for v in scores.values()) or (done_at is not None and finished):
                problems.append(
                    InputError(
                        "a row with ratings has no item_id",
                        file=path,
                        sheet=RATINGS_SHEET,
                        row=i,
                        column="item_id",
                        cell=f"A{i}",
                        value=r[0],
                    )
                )
            continue
        if item in seen:
            problems.append(
                InputError(
                    f"item {item} appears twice (first in row {seen[item]})",
                    file=path,
                    sheet=RATINGS_SHEET,
                    row=i,
                    column="item_id",
                    cell=f"A{i}",
                    value=item,
                )
            )
            continue
        seen[item] = i
        if not finished:
            unfinished.append(i)
        texts = {c: (str(r[k]).strip() if k is not None and r[k] is not None else "") for c, k in text_at.items()}
        records.append({"item_id": item, "_row": i, **texts, **scores})
    raise_all(problems)
    frame = pd.DataFrame.from_records(records, columns=["item_id", "_row", "metaphor", "explanation", *SCORES])
    return RatingSheet(rater, frame, path, done_at is not None, tuple(unfinished), student)


def read_workbook(path: str | os.PathLike) -> tuple[str, pd.DataFrame]:
    """One rater's workbook as (rater name, ratings per row); see :func:`read_sheet`."""
    sheet = read_sheet(path)
    return sheet.rater, sheet.frame


def read_workbooks(
    files: Sequence[str | os.PathLike],
    benchmark: pd.DataFrame | None = None,
    unfinished: str = "stop",
    notes: Sequence[str] = (),
    unusable: Sequence[InputError] = (),
    mentioned: Sequence[str] = (),
) -> WorkbookRatings:
    """Rating workbooks of several raters (one each) as tidy ratings, every problem at once.

    Checked together (one :class:`~helpers.core.errors.InputErrors`): every bad entry of
    every workbook, two workbooks of the same student, an item that the other workbooks
    list but this one lacks, and unfinished rows (not marked done; a workbook without a
    done column that holds no rating at all). ``unfinished``
    (:data:`helpers.core.classroom.UNFINISHED_CHOICES`): ``"stop"`` reports them,
    ``"drop_rows"`` leaves those rows of that student out (ratings may be missing),
    ``"drop_students"`` leaves out every student with an unfinished row; a student who
    finished nothing is left out under both, and every choice is listed in ``notes``.
    ``unusable``: files of the class folder that are not workbooks, reported with the rest;
    ``mentioned``: the other files ``notes`` name (:meth:`helpers.core.classroom.ClassFolder.mentioned`).
    """
    unfinished = classroom.unfinished_choice(unfinished)
    read, fields, problems = [], [], list(unusable)
    for f in files:
        try:
            read.append(read_sheet(f))
            fields.append((read[-1].student, read[-1].file))
        except InputError as exc:
            problems.append(exc)
            unread = classroom.field_of_unread(f, sheet_student)
            fields += [unread] if unread else []  # its errors are reported; a second copy of its student too
    naming = classroom.name_students(fields, KIT_PREFIX)
    by_file = dict(zip((p for _, p in fields), naming.names))
    read = [replace(s, rater=by_file[s.file]) for s in read]
    notes, problems = [*notes, *naming.notes], [*problems, *naming.problems]
    expected = list(dict.fromkeys(i for s in read for i in s.frame["item_id"]))
    for s in read:
        lacking = [i for i in expected if i not in set(s.frame["item_id"])]
        if lacking:
            problems.append(
                InputError(
                    f"item {lacking[0]} is missing from this sheet ({len(lacking)} item(s) that "
                    "other workbooks list are missing)",
                    file=s.file,
                    sheet=RATINGS_SHEET,
                    column="item_id",
                    value=lacking[0],
                )
            )
    progress = [classroom.Progress(s.rater, s.file, RATINGS_SHEET, tuple(s.open_rows()), len(s.frame)) for s in read]
    settled = classroom.settle_unfinished(progress, unfinished)
    raise_all([*problems, *settled.problems])
    if not read:
        raise InputError("no rating workbook was given", expected="the class's returned .xlsx workbooks")
    kept_files = {p.file: p for p in settled.kept}
    kept = [
        (s.file, s.rater, s.frame[~s.frame["_row"].isin(kept_files[s.file].open_rows)])
        for s in read
        if s.file in kept_files
    ]
    out_notes = [*notes, *settled.notes]
    own_rows = {}  # each student's rows left out, for their own page
    for s in read:
        gone = set(kept_files[s.file].open_rows) if s.file in kept_files else set()
        if gone:
            own_rows[s.rater] = {i: int(r) for i, r in zip(s.frame["item_id"], s.frame["_row"]) if r in gone}
    if not kept:
        raise InputError(
            "no student is left once the unfinished workbooks are left out", value=[str(s.file) for s in read]
        )
    parts = []
    for _, rater, frame in kept:
        long = (
            frame.drop(columns="_row")
            .melt(id_vars=["item_id", "metaphor", "explanation"], var_name="dimension", value_name="score")
            .dropna(subset=["score"])
        )
        parts.append(long.assign(rater=rater))
    long = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=RATING_COLUMNS)
    long["score"] = long["score"].astype(int)
    order = {i: k for k, i in enumerate(expected)}
    long = long.sort_values(
        ["rater", "item_id"], key=lambda c: c.map(order) if c.name == "item_id" else c, kind="stable"
    )
    return WorkbookRatings(
        _attach_texts(long, benchmark, ", ".join(str(p) for p, _, _ in kept)),
        tuple(str(p) for p, _, _ in kept),
        tuple(out_notes),
        classroom.LeftOut(own_rows, unit="explanation"),
        any(s.named_by_field for s in read),
        tuple(s.rater for s in read),
        tuple(dict.fromkeys([*map(str, files), *map(str, mentioned)])),
    )


def workbook_files(source) -> list[Path] | None:
    """The workbooks a ratings source names: a folder (see
    :func:`helpers.core.classroom.gather`), one ``.xlsx`` file, or a list of them; None
    when the source is a CSV file."""
    found = _gathered(source)
    return None if found is None else list(found.files)


def _gathered(source) -> classroom.ClassFolder | None:
    if isinstance(source, (list, tuple)):
        return classroom.gather(source, strict=False)
    path = paths.resolve_input(source)
    if path.is_dir() or path.suffix.lower() in (".xlsx", ".xlsm"):
        return classroom.gather(path, strict=False)
    return None


def load_ratings(source, benchmark: pd.DataFrame | None = None, unfinished: str = "stop") -> WorkbookRatings:
    """Ratings from any source: a long CSV or Forms export, one workbook, a folder of
    workbooks or a list of workbooks (see the module docstring)."""
    found = _gathered(source)
    if found is None:
        path = paths.resolve_input(source)
        return WorkbookRatings(read_ratings(path, benchmark), (str(path),))
    return read_workbooks(found.files, benchmark, unfinished, found.notes(), found.unusable, found.mentioned())
