"""Homophone rating workbooks for a class (chapter 6, the teaching kit).

``.venv/bin/python -m helpers template homophones --words W1,W2 --per-word N --raters R --out DIR``
draws Algorithm 1 candidates at random (:func:`rating_items`) and writes one workbook per
rater (:func:`write_rating_sheets`):

* sheet ``Ratings``: one row per candidate (ids H001… the same in every workbook, rows in
  the rater's own shuffled order), a 1–5 dropdown in the rating column, a ``done`` column
  and a comment column;
* sheet ``Instructions``: the ``Student:`` field (the run names the rater by it, whatever
  the file is called), the task, the steps and what each rating means (their words:
  ``pages/workbook.yml``).

Returned workbooks are read back (:func:`read_rating_sheet`, :func:`read_class_ratings`),
every wrong entry named by workbook, sheet, row, cell and value, and averaged per
candidate (:func:`average_ratings`): the ``ratings_file`` of chapter 6.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import classroom, params
from ..core.book import pages
from ..core.classroom import workbook
from ..core.errors import InputError, raise_all

RATING_SHEET = "Ratings"
INSTRUCTIONS_SHEET = "Instructions"  # holds the Student: field
#: The start of a rating workbook's file name (``homophones_S01.xlsx``), not part of the student's name.
KIT_PREFIX = "homophones_"
RATING_HEADER = ("item", "slang_word", "candidate", "rating", "done", "comment")
RATING_REQUIRED = RATING_HEADER[:4]  # workbooks written before the done column have the other two or only comment
RATING_LEVELS = (1, 2, 3, 4, 5)


def rating_items(
    cands_by_word: Mapping[str, Sequence[str]], words: Sequence[str], per_word: int, seed: int = 0
) -> pd.DataFrame:
    """The candidates a class rates: for each of ``words``, ``per_word`` of Algorithm 1's
    candidates drawn uniformly without replacement (seeded; the slang word itself is never
    drawn, and no ranking method is consulted, so a human-rated or top-ranked candidate is
    in the sample only by chance). Returns ``word, candidate`` in drawing order.

    Examples
    --------
    >>> items = rating_items({"尼玛": ["尼玛", "你妈", "泥马", "你吗"]}, ["尼玛"], 2, seed=1)
    >>> len(items), "尼玛" in set(items["candidate"])
    (2, False)
    """
    unknown = [w for w in words if w not in cands_by_word]
    if unknown:
        raise InputError(
            "is not one of the slang words", parameter="--words", value=unknown[0], expected=" or ".join(cands_by_word)
        )
    if len(set(words)) != len(words):
        raise InputError("a slang word is listed twice", parameter="--words", value=list(words))
    rng = np.random.default_rng(seed)
    rows = []
    for word in words:
        pool = [c for c in cands_by_word[word] if c != word]
        if per_word > len(pool):
            raise InputError(
                f"{word} has only {len(pool)} candidates besides itself",
                parameter="--per-word",
                value=per_word,
                expected=f"at most {len(pool)} for {word}",
            )
        rows += [{"word": word, "candidate": pool[i]} for i in rng.choice(len(pool), size=per_word, replace=False)]
    return pd.DataFrame(rows, columns=["word", "candidate"])


def write_rating_workbook(items: pd.DataFrame, rater: str, path: str | os.PathLike, seed: int = 0) -> Path:
    """One rater's workbook: sheet ``Ratings`` with the items (ids H001… in the order of
    ``items``, the same in every workbook) in this rater's own shuffled order (``seed``), a
    1–5 dropdown in the rating column and a ``done`` column, and sheet ``Instructions``
    with the ``Student:`` field (the run names the rater by it, whatever the file is called)."""
    from openpyxl import Workbook

    order = np.random.default_rng(seed).permutation(len(items))
    wb = Workbook()
    ws = wb.active
    ws.title = RATING_SHEET
    ws.append(list(RATING_HEADER))
    workbook.style_header(ws[1])
    guide = pages.texts("slang", "workbook")
    dv = workbook.list_validation(ws, RATING_LEVELS, "Rating", guide["validation"])
    done = workbook.done_validation(ws)
    # item ids follow the drawing order, so H001 is the same candidate in every workbook
    workbook.item_rows(
        ws,
        [[f"H{i + 1:03d}", items.iloc[i]["word"], items.iloc[i]["candidate"], None, None, None] for i in order],
        {"D": dv, "E": done},
        (8, 12, 14, 10, 8, 40),
    )
    workbook.write_guide(
        wb.create_sheet(INSTRUCTIONS_SHEET),
        guide["title"],
        [
            workbook.GuideSection(rows=[("Task", guide["task"])], bold_first=True),
            workbook.GuideSection(("Step", "What to do"), list(enumerate(guide["steps"], start=1))),
            workbook.GuideSection(("Rating", "Meaning"), [(r["rating"], r["meaning"]) for r in guide["ratings"]]),
        ],
        {"A": 8, "B": 100},
        student=rater,
    )
    return workbook.save(wb, path)


def write_rating_sheets(
    cands_by_word: Mapping[str, Sequence[str]],
    words: Sequence[str],
    per_word: int,
    raters: str | int,
    out_dir: str | os.PathLike,
    seed: int = 0,
) -> list[Path]:
    """``homophones_<rater>.xlsx`` for every rater in ``out_dir``: the same sample of
    candidates (:func:`rating_items`), each rater's rows in a different order."""
    items = rating_items(cands_by_word, words, per_word, seed)
    out = Path(out_dir)
    return [
        write_rating_workbook(items, name, out / f"{KIT_PREFIX}{name}.xlsx", seed=seed * 1000 + k + 1)
        for k, name in enumerate(params.person_names(raters))
    ]


@dataclass(frozen=True)
class RatingSheet:
    """One returned homophone workbook: its rated rows and which rows are unfinished."""

    rater: str
    ratings: pd.DataFrame  # rater, word, candidate, rating (rated rows of finished rows)
    file: Path
    n_rows: int
    has_done_column: bool = False
    unfinished_rows: tuple[int, ...] = ()
    unfinished_ratings: pd.DataFrame | None = None  # ratings entered in rows not marked done
    item_rows: tuple[int, ...] = ()  # the Excel rows that hold a candidate
    student: str | None = None  # the workbook's Student: field, None when it has none

    @property
    def named_by_field(self) -> bool:
        """Whether the rater came from the workbook's Student: field (a class's workbook)."""
        return self.student is not None

    def open_rows(self) -> list[int]:
        """Rows that count as not rated: not marked done; in a workbook without a done column,
        every row when nothing at all was rated."""
        if self.has_done_column:
            return list(self.unfinished_rows)
        return list(self.item_rows) if self.ratings.empty else []


def rating_sheet_student(path: str | os.PathLike) -> str | None:
    """The ``Student:`` field of a returned rating workbook (None when it has none;
    :func:`read_class_ratings` then names the student after the file)."""
    from openpyxl import load_workbook

    path = Path(path)
    try:
        wb = load_workbook(path, read_only=True)
    except Exception as exc:  # not a workbook, or a damaged one
        raise InputError(f"cannot be read as an .xlsx workbook ({type(exc).__name__})", file=path) from None
    try:
        return classroom.workbook_student(wb, INSTRUCTIONS_SHEET)
    finally:
        wb.close()


def read_rating_sheet(path: str | os.PathLike, cands_by_word: Mapping[str, Sequence[str]]) -> RatingSheet:
    """One returned workbook of :func:`write_rating_sheets`. The rater is the workbook's
    ``Student:`` field (else the name its file name implies,
    :func:`helpers.core.classroom.implied_student`).

    Every wrong header, unknown slang word, candidate Algorithm 1 does not make, rating
    outside 1–5, bad done mark or repeated row is reported at once
    (:class:`~helpers.core.errors.InputErrors`), each naming the workbook, sheet, row, cell
    and value."""
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter

    path = Path(path)
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # not a workbook, or a damaged one
        raise InputError(f"cannot be read as an .xlsx workbook ({type(exc).__name__})", file=path) from None
    try:
        if RATING_SHEET not in wb.sheetnames:
            raise InputError(
                f"has no sheet {RATING_SHEET!r}",
                file=path,
                value=wb.sheetnames,
                expected="a workbook made by `.venv/bin/python -m helpers template homophones`",
            )
        rows = list(wb[RATING_SHEET].iter_rows(values_only=True))
        student = classroom.workbook_student(wb, INSTRUCTIONS_SHEET)
    finally:
        wb.close()
    header = [str(h).strip() if h is not None else None for h in (rows[0] if rows else ())]
    for k, name in enumerate(RATING_REQUIRED):
        got = header[k] if k < len(header) else None
        if got != name:
            raise InputError(
                "the header row was changed",
                file=path,
                sheet=RATING_SHEET,
                row=1,
                cell=f"{'ABCD'[k]}1",
                value=got,
                expected=", ".join(RATING_HEADER),
            )
    done_at = next((k for k, h in enumerate(header) if h == classroom.DONE_HEADER), None)
    rater = student or classroom.implied_student(path, KIT_PREFIX)
    out, early, seen, problems, unfinished, item_rows = [], [], {}, [], [], []
    for r, values in enumerate(rows[1:], start=2):
        values = tuple(values) + (None,) * (len(header) - len(values))
        _, word, cand, rating = values[:4]
        if word is None and cand is None and rating is None:
            continue
        item_rows.append(r)
        word, cand = str(word or "").strip(), str(cand or "").strip()
        if word not in cands_by_word:
            problems.append(
                InputError(
                    "is not one of the slang words",
                    file=path,
                    sheet=RATING_SHEET,
                    row=r,
                    column="slang_word",
                    cell=f"B{r}",
                    value=word,
                    expected=" or ".join(cands_by_word),
                )
            )
            continue
        if cand not in set(cands_by_word[word]):
            problems.append(
                InputError(
                    f"is not a candidate Algorithm 1 generates for {word}",
                    file=path,
                    sheet=RATING_SHEET,
                    row=r,
                    column="candidate",
                    cell=f"C{r}",
                    value=cand,
                )
            )
            continue
        if (word, cand) in seen:
            problems.append(
                InputError(
                    f"the same candidate is listed twice (first in row {seen[(word, cand)]})",
                    file=path,
                    sheet=RATING_SHEET,
                    row=r,
                    column="candidate",
                    cell=f"C{r}",
                    value=cand,
                )
            )
            continue
        seen[(word, cand)] = r
        try:
            score = params.whole_score(rating, RATING_LEVELS)
        except ValueError:
            problems.append(
                InputError(
                    "a rating must be a whole number from 1 to 5 (or empty)",
                    file=path,
                    sheet=RATING_SHEET,
                    row=r,
                    column="rating",
                    cell=f"D{r}",
                    value=rating,
                )
            )
            continue
        before = len(problems)
        finished = done_at is None or classroom.row_done(
            values[done_at],
            problems,
            file=path,
            sheet=RATING_SHEET,
            row=r,
            column=classroom.DONE_HEADER,
            cell=f"{get_column_letter(done_at + 1)}{r}",
        )
        if len(problems) > before:  # a bad done mark: the row is reported, not read
            continue
        if not finished:
            unfinished.append(r)
        if score is not None:
            (out if finished else early).append({"rater": rater, "word": word, "candidate": cand, "rating": score})
    raise_all(problems)
    columns = ["rater", "word", "candidate", "rating"]
    return RatingSheet(
        rater,
        pd.DataFrame(out, columns=columns),
        path,
        len(item_rows),
        done_at is not None,
        tuple(unfinished),
        pd.DataFrame(early, columns=columns),
        tuple(item_rows),
        student,
    )


def read_rating_workbook(path: str | os.PathLike, cands_by_word: Mapping[str, Sequence[str]]) -> pd.DataFrame:
    """One returned workbook as ``rater, word, candidate, rating`` (rated rows that count;
    see :func:`read_rating_sheet`)."""
    return read_rating_sheet(path, cands_by_word).ratings


@dataclass(frozen=True)
class ClassRatings:
    """A class's homophone ratings averaged per candidate, and what was left out."""

    ratings: pd.DataFrame  # word, candidate, avg_score, n_raters
    files: tuple[str, ...]
    notes: tuple[str, ...] = ()
    students: tuple[str, ...] = ()
    named_by_field: bool = False  # the workbooks carry a Student: field (a class's, from template homophones)
    names: tuple[str, ...] = ()  # every student read, kept or left out
    read: tuple[str, ...] = ()  # every workbook read, kept or left out (their names may carry a student's)

    def for_page(self, choice, results_dir) -> ClassRatings:
        """These ratings as a chapter page shows them: with students coded when ``choice`` (the
        chapter's ``projection`` parameter) says so (:func:`helpers.core.classroom.projection`;
        the key goes to ``results_dir``), no name in the notes and the folders for the files."""
        shown = classroom.projection(choice, self.named_by_field, self.names, results_dir, self.read)
        if not shown:
            return self
        return replace(
            self,
            files=shown.paths(self.files),
            notes=tuple(shown.text(n) for n in self.notes),
            students=shown.names(self.students),
            names=shown.names(self.names),
        )


def read_class_ratings(
    paths_: Sequence[str | os.PathLike],
    cands_by_word: Mapping[str, Sequence[str]],
    unfinished: str = "stop",
    notes: Sequence[str] = (),
    unusable: Sequence[InputError] = (),
    mentioned: Sequence[str] = (),
) -> ClassRatings:
    """All returned workbooks, averaged per candidate (:func:`average_ratings`), every
    problem of every workbook at once: bad entries, two workbooks of the same student,
    unfinished rows. ``unfinished`` (:data:`helpers.core.classroom.UNFINISHED_CHOICES`):
    ``"stop"`` reports them, ``"drop_rows"`` leaves those rows of that student out,
    ``"drop_students"`` leaves out every student with one; a student who finished nothing
    is left out under both. ``unusable``: files of the class folder that are not
    workbooks, reported with the rest; ``mentioned``: the other files ``notes`` name
    (:meth:`helpers.core.classroom.ClassFolder.mentioned`)."""
    unfinished = classroom.unfinished_choice(unfinished)
    if not paths_ and not unusable:
        raise InputError("no workbook given", expected="one or more .xlsx files")
    sheets, fields, problems = [], [], list(unusable)
    for p in paths_:
        try:
            sheets.append(read_rating_sheet(p, cands_by_word))
            fields.append((sheets[-1].student, sheets[-1].file))
        except InputError as exc:
            problems.append(exc)
            unread = classroom.field_of_unread(p, rating_sheet_student)
            fields += [unread] if unread else []  # its errors are reported; a second copy of its student too
    naming = classroom.name_students(fields, KIT_PREFIX)
    by_file = dict(zip((p for _, p in fields), naming.names))
    sheets = [
        replace(
            s,
            rater=by_file[s.file],
            ratings=s.ratings.assign(rater=by_file[s.file]),
            unfinished_ratings=s.unfinished_ratings.assign(rater=by_file[s.file]),
        )
        for s in sheets
    ]
    notes, problems = [*notes, *naming.notes], [*problems, *naming.problems]
    progress = [classroom.Progress(s.rater, s.file, RATING_SHEET, tuple(s.open_rows()), s.n_rows) for s in sheets]
    settled = classroom.settle_unfinished(progress, unfinished)
    raise_all([*problems, *settled.problems])
    kept_files = {p.file for p in settled.kept}
    kept = [s for s in sheets if s.file in kept_files]  # a sheet's unfinished rows are in s.unfinished_ratings
    out_notes = [*notes, *settled.notes]
    if not kept:
        raise InputError(
            "no student is left once the unfinished workbooks are left out", value=[str(s.file) for s in sheets]
        )
    long = pd.concat([s.ratings for s in kept], ignore_index=True)
    if long.empty:
        raise InputError("no rating was entered in any finished row", expected="ratings 1-5 in column D")
    return ClassRatings(
        average_ratings(long),
        tuple(str(s.file) for s in kept),
        tuple(out_notes),
        tuple(s.rater for s in kept),
        any(s.named_by_field for s in sheets),
        tuple(s.rater for s in sheets),
        tuple(dict.fromkeys([*map(str, paths_), *map(str, mentioned)])),
    )


def read_rating_workbooks(
    paths_: Sequence[str | os.PathLike], cands_by_word: Mapping[str, Sequence[str]], unfinished: str = "stop"
) -> pd.DataFrame:
    """All returned workbooks, averaged per candidate: ``word, candidate, avg_score,
    n_raters`` (a candidate counts for the raters who rated it); see :func:`read_class_ratings`."""
    return read_class_ratings(paths_, cands_by_word, unfinished).ratings


def average_ratings(long: pd.DataFrame) -> pd.DataFrame:
    """``rater, word, candidate, rating`` -> ``word, candidate, avg_score, n_raters``.

    Examples
    --------
    >>> long = pd.DataFrame({"rater": ["a", "b", "a"], "word": "尼玛", "candidate": ["你妈", "你妈", "泥马"],
    ...                      "rating": [5, 4, 2]})
    >>> average_ratings(long).values.tolist()
    [['尼玛', '你妈', 4.5, 2], ['尼玛', '泥马', 2.0, 1]]
    """
    return (
        long.groupby(["word", "candidate"], sort=False)
        .agg(avg_score=("rating", "mean"), n_raters=("rating", "size"))
        .reset_index()
    )
