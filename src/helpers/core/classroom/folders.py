"""A class as files: which workbooks count (:func:`gather`), which rows are done, what to do with
unfinished rows (:func:`settle_unfinished`) and what each page says was left out
(:class:`LeftOut`). Its names are importable from :mod:`helpers.core.classroom` as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import params, paths
from ..book import pages
from ..book.findings import Findings
from ..errors import InputError, raise_all, typed

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")

#: The parameter (and command-line option) that says what to do with unfinished rows.
UNFINISHED_CHOICES = ("stop", "drop_rows", "drop_students")

DONE_HEADER = "done"

DONE_MARKS = frozenset({"done", "yes", "y", "x", "✓", "✔", "1", "true"})


@dataclass(frozen=True)
class ClassFolder:
    """The workbooks of a class and the files passed over, each with the reason."""

    files: tuple[Path, ...]
    ignored: tuple[tuple[Path, str], ...] = ()
    unusable: tuple[InputError, ...] = ()  # files that are not workbooks (reported with the other problems)

    def __iter__(self):  # a class folder reads like the list of its workbooks
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)

    def notes(self) -> list[str]:
        """One line per ignored file, for the run's output and the page's data box."""
        return [f"ignored {p.name}: {why}" for p, why in self.ignored]

    def mentioned(self) -> tuple[str, ...]:
        """Every file the class's notes and errors may name: workbooks, ignored files and files
        that are not workbooks (a file name may carry a student's real name, so a projected
        page replaces each, :meth:`Projection.text`)."""
        return tuple(
            str(p)
            for p in (
                *self.files,
                *(p for p, _ in self.ignored),
                *(e.file for e in self.unusable if e.file is not None),
            )
        )


def _words():
    """The words of the class commands and pages, ``core/book/pages/classroom.md``."""
    return pages.words("core", "classroom")


def _why_ignored(path: Path) -> str | None:
    """Why a file of a class folder is passed over (the phrase of its key), None if it is not."""
    key = (
        "lock"
        if path.name.startswith("~$")
        else "hidden"
        if path.name.startswith(".")
        else "folder"
        if path.is_dir()
        else None
    )
    return None if key is None else _words().verdict("ignored", key)


def gather(source, parameter: str | None = None, strict: bool = True) -> ClassFolder:
    """The workbooks a class ``source`` names: a folder, one workbook, or a list of
    workbooks and folders. Every file of a folder is accounted for (see the module
    docstring); files that are neither a workbook nor ignorable are refused together
    (``strict``), or returned as ``unusable`` for the caller to report with the rest.

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for name in ("s1.xlsx", "~$s1.xlsx", ".DS_Store", "s2.xlsx"):
    ...     _ = (d / name).write_bytes(b"")
    >>> found = gather(d)
    >>> [p.name for p in found.files], [p.name for p, _ in found.ignored]
    (['s1.xlsx', 's2.xlsx'], ['.DS_Store', '~$s1.xlsx'])
    >>> _ = (d / "s3.csv").write_text("x")
    >>> gather(d)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    helpers.core.errors.InputError: ...s3.csv: is not an .xlsx workbook, so its student would be missing from the class (expected save it as an Excel workbook (.xlsx) or move it out of the folder)
    """
    entries = list(source) if isinstance(source, (list, tuple)) else [source]
    if not entries:
        raise InputError("names no workbook", parameter=parameter, expected="a folder or a list of .xlsx workbooks")
    files, ignored, bad, missing = [], [], [], []
    for entry in entries:
        try:
            path = paths.resolve_input(entry)
        except FileNotFoundError as exc:
            missing.append(InputError(str(exc), parameter=parameter, value=str(entry)))
            continue
        inside = sorted(path.iterdir()) if path.is_dir() else [path]
        for p in inside:
            why = _why_ignored(p) if path.is_dir() else None
            if why:
                ignored.append((p, why))
            elif p.suffix.lower() in WORKBOOK_SUFFIXES:
                files.append(p)
            else:
                bad.append(
                    InputError(
                        "is not an .xlsx workbook, so its student would be missing from the class",
                        parameter=parameter,
                        file=p,
                        expected="save it as an Excel workbook (.xlsx) or move it out of the folder",
                    )
                )
    raise_all(missing)
    if bad and strict:
        raise_all(bad)
    if not files and not bad:
        raise InputError(
            "holds no .xlsx workbook",
            parameter=parameter,
            file=entries[0] if len(entries) == 1 else None,
            expected="the class's returned workbooks",
        )
    dup = sorted({p for p in files if files.count(p) > 1})
    if dup:
        raise InputError("is named twice", parameter=parameter, file=dup[0])
    return ClassFolder(tuple(files), tuple(ignored), tuple(bad))


def is_done(value, **where) -> bool:
    """A ``done`` cell: a mark (``done``, ``yes``, ``x``, ``✓``, ``1`` …) or blank.

    Examples
    --------
    >>> is_done("Done"), is_done(None), is_done(" "), is_done(1), is_done(1.0)
    (True, False, False, True, True)
    >>> is_done("later", file="a.xlsx", cell="Z4")
    Traceback (most recent call last):
    ...
    helpers.core.errors.InputError: a.xlsx, cell Z4: value 'later': a done cell holds 'done' or nothing
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return False
    if (
        value is True
        or str(value).strip().lower() in DONE_MARKS
        or (isinstance(value, (int, float)) and not isinstance(value, bool) and value == 1)
    ):
        return True
    raise InputError("a done cell holds 'done' or nothing", value=value, **where)


def row_done(value, problems: list, **where) -> bool:
    """:func:`is_done` for a reader that collects every problem: a bad mark is appended to
    ``problems`` and its row counts as not done."""
    try:
        return is_done(value, **where)
    except InputError as exc:
        problems.append(exc)
        return False


def unfinished_choice(value, name: str = "unfinished") -> str:
    """The checked ``unfinished`` parameter (one of :data:`UNFINISHED_CHOICES`)."""
    return params.choice(name, value, UNFINISHED_CHOICES)


def row_ranges(rows: Iterable[int]) -> str:
    """Row numbers as short ranges.

    Examples
    --------
    >>> row_ranges([9, 4, 5, 6, 12, 13])
    '4-6, 9, 12-13'
    """
    rows = sorted(set(int(r) for r in rows))
    out, start = [], None
    for k, r in enumerate(rows):
        if start is None:
            start = r
        if k + 1 == len(rows) or rows[k + 1] != r + 1:
            out.append(str(start) if start == r else f"{start}-{r}")
            start = None
    return ", ".join(out)


def unfinished_error(student: str, file, sheet: str, rows: Sequence[int], n_rows: int) -> InputError:
    """The error that names a student's unfinished rows and the lecturer's two choices, as
    typed where the class is read (:func:`~helpers.core.errors.typed`).

    Examples
    --------
    >>> print(unfinished_error("S04", "S04.xlsx", "Annotation", [9, 10], 10))  # doctest: +NORMALIZE_WHITESPACE
    S04.xlsx, sheet 'Annotation', column 'done': student 'S04': 2 of 10 rows are not marked done: rows 9-10; have
    them finished and marked done, or run with -p unfinished drop_rows (leave those rows out) or -p unfinished
    drop_students (leave the student out)
    """
    what = (
        "nothing is marked done (a blank template, or a sheet not yet worked on)"
        if len(rows) == n_rows
        else f"{len(rows)} of {n_rows} rows are not marked done: rows {row_ranges(rows)}"
    )
    return InputError(
        f"student {student!r}: {what}; have them finished and marked done, or run with "
        f"{typed('unfinished', 'drop_rows')} (leave those rows out) or "
        f"{typed('unfinished', 'drop_students')} (leave the student out)",
        file=file,
        sheet=sheet,
        column=DONE_HEADER,
    )


@dataclass(frozen=True)
class Progress:
    """How far one student got: the Excel rows not marked done, of how many rows."""

    student: str
    file: Path
    sheet: str
    open_rows: tuple[int, ...]
    n_rows: int
    blank_error: InputError | None = None  # a sheet without done marks in which nothing was entered: its message

    @property
    def nothing_done(self) -> bool:
        return bool(self.open_rows) and len(self.open_rows) >= self.n_rows


@dataclass(frozen=True)
class Settled:
    """What :func:`settle_unfinished` decided: problems to report (with ``stop``), the
    students kept, and one note per student or rows left out."""

    problems: tuple[InputError, ...]
    kept: tuple[Progress, ...]
    notes: tuple[str, ...]


def settle_unfinished(progress: Sequence[Progress], choice: str, note_rows: bool = True) -> Settled:
    """The one rule for unfinished rows, for every kit (see the module docstring).

    ``stop``: every student with an unfinished row is a problem. ``drop_students``: they
    are left out. ``drop_rows``: they stay (the kit leaves their unfinished rows out; with
    ``note_rows`` a note names those rows), except a student who finished nothing, who is
    left out under both drop choices.

    Examples
    --------
    >>> p = [Progress("ana", Path("a.xlsx"), "S", (), 3), Progress("ben", Path("b.xlsx"), "S", (3, 4), 3)]
    >>> settle_unfinished(p, "drop_rows").notes
    ('left out rows 3-4 of student ben (b.xlsx): not marked done',)
    >>> settle_unfinished(p, "drop_students").notes
    ('left out student ben (b.xlsx): rows 3-4 are not marked done',)
    >>> [str(e).split(": ")[1] for e in settle_unfinished(p, "stop").problems]
    ["student 'ben'"]
    """
    choice = unfinished_choice(choice)
    if choice == "stop":
        return Settled(
            tuple(
                p.blank_error or unfinished_error(p.student, p.file, p.sheet, p.open_rows, p.n_rows)
                for p in progress
                if p.open_rows
            ),
            tuple(progress),
            (),
        )
    kept, notes = [], []
    for p in progress:
        if p.open_rows and (choice == "drop_students" or p.nothing_done):
            why = (
                _words().verdict("left_out", "blank")
                if p.blank_error is not None
                else _words().verdict("left_out", "none_done")
                if p.nothing_done
                else f"rows {row_ranges(p.open_rows)} are not marked done"
            )
            notes.append(_words().fill("note_student", student=str(p.student), file=p.file.name, why=why))
            continue
        if p.open_rows and note_rows:
            notes.append(
                _words().fill("note_rows", rows=row_ranges(p.open_rows), student=str(p.student), file=p.file.name)
            )
        kept.append(p)
    return Settled((), tuple(kept), tuple(notes))


@dataclass(frozen=True)
class LeftOut:
    """What a run left out of the class's data, in the terms each student's own page uses
    (a page says what was left out of *that* student's data and never names a classmate).

    ``rows``: per student, the items of their workbook left out (not marked done, under
    ``drop_rows``), each with its Excel row; ``items``: items left out for the whole class
    (MetaHOPE compares complete sheets, so an item anyone left unfinished goes for everyone).

    Examples
    --------
    >>> import textwrap
    >>> left = LeftOut({"ben": {"s2_5": 3, "s2_9": 4}}, ("s2_5", "s2_9", "s4_1"))
    >>> print(textwrap.fill(left.told("ben"), 90))
    **Left out of this page:** rows 3-4 of your workbook (items s2_5, s2_9) were not marked
    done, so they are not counted here, for anyone in the class; 1 more item (s4_1) is left
    out for the whole class because a classmate had not marked it done.
    >>> print(textwrap.fill(left.told("ana"), 90))
    **Left out of this page:** 3 items (s2_5, s2_9, s4_1) are left out for the whole class
    because a classmate had not marked them done.
    >>> LeftOut().told("ana")
    ''
    """

    rows: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    items: tuple[str, ...] = ()
    unit: str = "item"

    def _units(self, n: int) -> str:
        return self.unit + ("" if n == 1 else "s")

    def told(self, student: str) -> str:
        """The Markdown paragraph for ``student``'s page ('' when nothing was left out); its
        words: ``core/book/pages/classroom.md``."""
        own = dict(self.rows.get(student, {}))
        others = [i for i in self.items if i not in own]
        parts = []
        if own:
            parts.append(
                pages.page(
                    "core",
                    "classroom",
                    "left_out_own",
                    Findings()
                    .add("rows", text=row_ranges(own.values()))
                    .add("own", text=f"{self._units(len(own))} {', '.join(own)}")
                    .add("shared", int(bool(set(own) & set(self.items))))
                    .frame(),
                )
            )
        if others:
            n = len(others)
            parts.append(
                pages.page(
                    "core",
                    "classroom",
                    "left_out_class",
                    Findings()
                    .add("others", text=f"{n} {'more ' if own else ''}{self._units(n)} ({', '.join(others)})")
                    .add("one", int(n == 1))
                    .frame(),
                )
            )
        if not parts:
            return ""
        joined = "; ".join(part.rstrip("\n") for part in parts)
        return pages.page("core", "classroom", "left_out", Findings().add("parts", text=joined).frame()).rstrip("\n")
