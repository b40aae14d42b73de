"""A class's returned workbooks: which files count, who each student is, which rows are unfinished.

The three classroom kits (MetaHOPE annotation, explanation rating, homophone rating) share
these rules, so that a lecturer passes a class the same way to every chapter, to
``feedback`` and to ``check``:

* **A class is a folder or a list of workbooks.** In a folder, Excel's lock files
  (``~$name.xlsx``, left while a workbook is open) and hidden files are ignored and
  listed; every other file must be an ``.xlsx`` workbook, and all that are not are named
  together in one error (a sheet saved as ``.csv`` would otherwise vanish from the class).
* **A student is named by the workbook's own student field** (the ``Student:`` cell the
  template fills in), not by the file name, so a renamed copy (``metahope_S05 (1).xlsx``)
  keeps its student; two workbooks of the same student are refused. Workbooks without the
  field (the released ones) are named after the file, without the kit's prefix and copy
  marks; in a class whose other workbooks carry the field, that is said in a note
  (:func:`name_students`).
* **Unfinished is not "no error".** Every kit's template has a ``done`` column: a row
  counts only once its student marked it done; blank cells of a done row mean "no error"
  (MetaHOPE) or "cannot judge" (the rating kits). Unfinished rows are never counted
  silently: ``unfinished="stop"`` (the default) stops with every student's unfinished
  rows, ``"drop_rows"`` leaves those rows out, ``"drop_students"`` leaves out every student
  with an unfinished row. A sheet with no finished row at all (a blank template) is left
  out under both drop choices, and said so.
* **Privacy.** Feedback pages name classmates ``classmate 1 … n`` unless the lecturer asks
  for names, numbered in a random order drawn for each page (:func:`classmate_labels`), never
  in class-list order; the student is "you", listed first. Each page says what was left
  out of that student's data (:class:`LeftOut`). A chapter page run on a class's workbooks
  shows students as ``student 1 … n`` (:class:`Projection`, the chapters' ``projection``
  parameter), the key in ``<results_dir>/student_key.csv``.
"""

from __future__ import annotations

import os
import re
import secrets
import string
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

import numpy as np

from .. import params, paths
from ..book import pages
from ..book.findings import Findings
from ..errors import InputError, raise_all
from .folders import (  # noqa: F401 (the package's names, as before the split)
    DONE_HEADER,
    DONE_MARKS,
    UNFINISHED_CHOICES,
    WORKBOOK_SUFFIXES,
    ClassFolder,
    LeftOut,
    Progress,
    Settled,
    _words,
    gather,
    is_done,
    row_done,
    row_ranges,
    settle_unfinished,
    unfinished_choice,
    unfinished_error,
)

STUDENT_LABEL = "Student:"
#: Labels of the student field in workbooks written before the field had one name.
STUDENT_LABELS = ("student", "student:", "rater name:", "rater:", "annotator:", "name:")


def student_field(rows: Sequence[Sequence], max_rows: int = 3) -> str | None:
    """The name in a ``Student:`` field (the label in column A, the name in B) among the
    first rows of a sheet, or None.

    Examples
    --------
    >>> student_field([("Student:", "Ana"), ("x",)]), student_field([("item", "score")])
    ('Ana', None)
    >>> student_field([("w1", "student", "NN")])  # a word that happens to be a label is not the field
    """
    for r in rows[:max_rows]:
        cells = list(r or ()) + [None, None]
        label, name = cells[0], cells[1]
        if isinstance(label, str) and label.strip().lower() in STUDENT_LABELS:
            return str(name).strip() if name is not None and str(name).strip() else None
    return None


def workbook_student(wb, sheet: str | None = None) -> str | None:
    """The ``Student:`` field of an open openpyxl workbook: in ``sheet`` (where the kit's
    template writes it), or else the first one found on the first rows of its sheets, in
    sheet order (None when there is none)."""
    sheets = [wb[sheet]] if sheet is not None and sheet in wb.sheetnames else [] if sheet else wb.worksheets
    for ws in sheets:
        name = student_field(list(ws.iter_rows(min_row=1, max_row=3, max_col=2, values_only=True)))
        if name:
            return name
    return None


#: What copying, downloading or mailing a file adds to its name (`` (1)``, `` - Copy``,
#: ``副本``), and the words students add to a second version (``final``, ``corrected``).
_COPY_MARKS = re.compile(r"(?:[\s_-]*(?:\(\d+\)|\[\d+\]|copy(?:\s*\d+)?|副本|final|corrected))+$", re.IGNORECASE)


def implied_student(path, prefix: str = "") -> str:
    """The student a workbook's file name implies: its name without the kit's ``prefix``
    (``metahope_``) and without copy marks.

    Examples
    --------
    >>> implied_student("metahope_S06 (1).xlsx", "metahope_"), implied_student("S04 final (1).xlsx", "metahope_")
    ('S06', 'S04')
    >>> implied_student("returned/Metahope_ana - Copy.xlsx", "metahope_"), implied_student("annotator-B.xlsx")
    ('ana', 'annotator-B')
    """
    stem = Path(path).stem
    name = stem[len(prefix) :] if prefix and stem.lower().startswith(prefix.lower()) else stem
    return _COPY_MARKS.sub("", name).strip(" _-") or stem


@dataclass(frozen=True)
class ClassNames:
    """What :func:`name_students` decided: one name per workbook (in the order given), a
    note per workbook named after its file in a class whose other workbooks carry the
    field, and an error per second workbook of one student."""

    names: tuple[str, ...]
    notes: tuple[str, ...] = ()
    problems: tuple[InputError, ...] = ()


def name_students(fields: Sequence[tuple[str | None, Path]], prefix: str = "") -> ClassNames:
    """The one naming rule of every kit, given each workbook's ``Student:`` field (None
    when it has none) and path. A workbook is its field's student; a workbook without the
    field is the student its file name implies (:func:`implied_student`).

    The released workbooks carry no field, so a class of them is named after the files.
    In a class whose other workbooks carry the field, a workbook without it was not saved
    from the template (a ``.csv`` re-saved as ``.xlsx`` keeps one sheet and loses the
    field): it is read under the implied name, and a note says so, rather than refused,
    because that name is the only trace of its student and the lecturer cannot easily put
    the field back; the name is still held to the class: a second workbook of that student
    is an error (as for any two workbooks of one student), and so is a name the class list
    lacks (``check --class-list``).

    Examples
    --------
    >>> named = name_students([("S01", Path("metahope_S01.xlsx")), (None, Path("metahope_S06 (1).xlsx"))],
    ...                       "metahope_")
    >>> named.names
    ('S01', 'S06')
    >>> print(named.notes[0])
    metahope_S06 (1).xlsx has no Student: field (a .csv re-saved as .xlsx, or not made from the template?); read as student 'S06', the name its file name implies
    >>> name_students([("S01", Path("a.xlsx")), ("S01", Path("b.xlsx"))]).problems[0].file.name
    'b.xlsx'
    """
    fielded = any(given for given, _ in fields)
    names, notes = [], []
    for given, path in fields:
        name = given or implied_student(path, prefix)
        if not given and fielded:
            notes.append(_words().fill("note_no_field", file=Path(path).name, label=STUDENT_LABEL, name=repr(name)))
        names.append(name)
    duplicates = unique_students([(name, Path(path)) for name, (_, path) in zip(names, fields)])
    return ClassNames(tuple(names), tuple(notes), tuple(duplicates))


def field_of_unread(path, field_of) -> tuple[str | None, Path] | None:
    """``(Student: field, path)`` of a workbook whose sheet could not be read (its errors are
    reported), so that a second copy of its student is still found; None when it cannot
    even be opened. ``field_of(path)`` is the kit's reader of the field."""
    try:
        return field_of(path), Path(path)
    except (InputError, OSError):
        return None


def unique_students(named: Sequence[tuple[str, Path]], what: str = "student") -> list[InputError]:
    """Errors for two workbooks of the same student (a copy renamed, or a name typed twice)."""
    first: dict[str, Path] = {}
    errors = []
    for name, path in named:
        if name in first:
            errors.append(
                InputError(
                    f"{what} {name!r} also has the workbook {first[name].name}; keep one of the two "
                    "(a renamed copy keeps its student field)",
                    file=path,
                    value=name,
                )
            )
        else:
            first[name] = path
    return errors


def classmate_labels(names: Iterable[str], own: str, show_names: bool = False, seed=None) -> dict[str, str]:
    """How a student's feedback page names the others: ``classmate 1 … n`` numbered in a
    random order drawn for this page (the default), or their names in class order when
    the lecturer asks for them. Returned in label order (``classmate 1`` first).

    The numbering must not follow the class list: with "classmate k" in roster order and
    the student left out, anyone holding the roster decodes every classmate. ``seed``
    (None: a fresh secret one from :mod:`secrets`, so the order cannot be recomputed from
    the book's public defaults) fixes the draw, for tests; use one label dict for a whole
    page, so that a label means the same classmate everywhere on it.

    Examples
    --------
    >>> sorted(classmate_labels(["ana", "ben", "chen"], "ben").values())
    ['classmate 1', 'classmate 2']
    >>> classmate_labels(["ana", "ben", "chen"], "ben", show_names=True)
    {'ana': 'ana', 'chen': 'chen'}
    """
    others = [n for n in dict.fromkeys(names) if n != own]
    if show_names:
        return {n: n for n in others}
    order = np.random.default_rng(secrets.randbits(128) if seed is None else seed).permutation(len(others))
    return {others[i]: f"classmate {k}" for k, i in enumerate(order, start=1)}


#: The file of a results folder that holds the key of a projection (student name -> code).
STUDENT_KEY = "student_key.csv"


@dataclass(frozen=True)
class Projection:
    """Student names replaced by codes ``student 1 … n`` on a chapter page a lecturer projects.

    A chapter run on a class's workbooks would otherwise print every student's name in its
    per-annotator tables, figures and data box. The codes are numbered in a random order
    (drawn from a secret seed, so neither the class list nor the book's public seeds decode
    them); the key is the lecturer's, in ``<results_dir>/student_key.csv`` and never on
    the page, and it is reused, so a student keeps their code in every chapter run into
    the same ``results_dir``. An empty projection (``codes`` empty) shows names unchanged.

    Examples
    --------
    >>> p = Projection({"ana": "student 2", "ben": "student 1"}, ("ana.xlsx",))
    >>> p.name("ben"), p.name("zoe")
    ('student 1', 'zoe')
    >>> p.text("left out student ana (ana.xlsx): nothing is marked done")
    'left out student 2 (a workbook): nothing is marked done'
    """

    codes: Mapping[str, str] = field(default_factory=dict)
    files: tuple[str, ...] = ()  # file names of the class (they may carry a name): replaced in notes

    def __bool__(self) -> bool:
        return bool(self.codes)

    @classmethod
    def draw(cls, names: Iterable[str], key: Mapping[str, str] | None = None, files: Iterable = ()) -> Projection:
        """Codes for ``names``: those ``key`` already has are kept, the others get the next
        numbers in a random order (:mod:`secrets`)."""
        codes = {n: c for n, c in (key or {}).items()}
        new = [n for n in dict.fromkeys(map(str, names)) if n not in codes]
        start = 1 + max(
            (int(c.rsplit(" ", 1)[-1]) for c in codes.values() if c.rsplit(" ", 1)[-1].isdigit()), default=0
        )
        order = np.random.default_rng(secrets.randbits(128)).permutation(len(new))
        codes.update({new[i]: f"student {start + k}" for k, i in enumerate(order)})
        return cls(codes, tuple(dict.fromkeys(Path(str(f)).name for f in files)))

    def name(self, student) -> str:
        """The code of ``student`` (a name not in the key is returned unchanged)."""
        return self.codes.get(str(student), student)

    def names(self, students: Iterable) -> tuple:
        """:meth:`name` of each."""
        return tuple(self.name(s) for s in students)

    def text(self, text: str) -> str:
        """A note with file names replaced by "a workbook" and names by codes ("student ana"
        and "ana" both become "student 2")."""
        for f in sorted(self.files, key=len, reverse=True):
            text = text.replace(f, "a workbook")
        for n in sorted(self.codes, key=len, reverse=True):
            word = rf"(?<![^\W_]){re.escape(n)}(?![^\W_])"
            text = re.sub(rf"(?:student )?{word}", self.codes[n], text)
        return text

    def paths(self, files: Iterable) -> tuple[str, ...]:
        """What a data box lists for the class's files: their folders, not the file names."""
        return tuple(dict.fromkeys(str(Path(str(f)).parent) for f in files)) if self else tuple(map(str, files))

    def column(self, frame, column: str):
        """``frame`` with ``column``'s names replaced by codes (a copy; unchanged when empty)."""
        return frame.assign(**{column: frame[column].map(lambda v: self.codes.get(str(v), v))}) if self else frame

    @staticmethod
    def key_file(results_dir) -> Path:
        """Where a projection's key lives: ``<results_dir>/student_key.csv``."""
        return paths.resolve_output(results_dir) / STUDENT_KEY

    def write_key(self, results_dir) -> Path | None:
        """Write the key (code, student; by code) to :meth:`key_file`; None when empty."""
        if not self:
            return None
        import csv
        import io

        number = lambda c: int(c.rsplit(" ", 1)[-1]) if c.rsplit(" ", 1)[-1].isdigit() else 0  # noqa: E731
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["code", "student"])
        for n, c in sorted(self.codes.items(), key=lambda kv: number(kv[1])):
            w.writerow([c, n])
        target = self.key_file(results_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        return paths.atomic_write(target, out.getvalue())


def read_key(results_dir) -> dict[str, str]:
    """The lecturer's key of ``results_dir`` (student -> code), empty when there is none."""
    import csv

    key_file = Projection.key_file(results_dir)
    if not key_file.exists():
        return {}
    with key_file.open(encoding="utf-8", newline="") as fh:
        return {r["student"]: r["code"] for r in csv.DictReader(fh) if r.get("student") and r.get("code")}


def uncoded(names: Iterable, results_dir) -> list[str]:
    """``names`` with every code of ``results_dir``'s key read back as its student, so that a
    command a projected page suggests (``-p raters "[student 3, student 5]"``) works in a
    run into the same ``results_dir``; names that are no code stay as they are.

    Examples
    --------
    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> _ = Projection({"ana": "student 2", "ben": "student 1"}).write_key(d)
    >>> uncoded(["student 1", "chen"], d)
    ['ben', 'chen']
    """
    by_code = {c: s for s, c in read_key(results_dir).items()}
    return [by_code.get(str(n), str(n)) for n in names]


def projection(choice, named_by_field: bool, names: Iterable[str], results_dir, files: Iterable = ()) -> Projection:
    """The projection of one chapter run (see :class:`Projection`), its key written.

    ``choice`` is the chapter's ``projection`` parameter: True or False, or None (the
    default) for "on when the workbooks carry a ``Student:`` field" (``named_by_field``):
    a class's workbooks from ``template`` name real students, so a page shown to the class
    hides them unless the lecturer asks otherwise; the released sheets and annotation files
    name anonymous annotators (A, B, WMT rater ids), whose names the paper's tables use."""
    on = named_by_field if choice is None else params.boolean("projection", choice)
    if not on:
        return Projection()
    p = Projection.draw(names, read_key(results_dir), files)
    p.write_key(results_dir)
    return p


def add_check_command(
    groups: dict,
    kind: str,
    what: str,
    load,
    field_of,
    prefix: str = "",
    chapter: tuple[str, str] | None = None,
    feedback: str | None = None,
):
    """``.venv/bin/python -m helpers check KIND FOLDER...``: ``load(files, unfinished, args)`` reads the
    class as the chapters will (raising every problem at once) and returns
    ``(students, n_items, notes)``; ``field_of(path)`` is a workbook's ``Student:`` field
    (None when it has none), which with the kit's file-name ``prefix`` names its student
    as the kit's reader does (:func:`name_students`; for ``--class-list``). The command
    prints a summary and the commands that read the class next (``chapter``: the notebook
    and its class parameter; ``feedback``: the option of ``feedback KIND``; see
    :func:`next_commands`), or every problem as an ``error:`` line (exit 1). Returns the
    subparser."""
    h = pages.texts("core", "commands")["class"]
    p = groups["check"].add_parser(kind, help=h["check"].format(what=what))
    p.add_argument("sheets", metavar="FOLDER", nargs="+", help=h["sheets"])
    p.add_argument("--class-list", help=h["--class-list"])
    add_unfinished_option(p)

    def _check(args) -> int:
        found = gather(args.sheets if len(args.sheets) > 1 else args.sheets[0], "FOLDER", strict=False)
        returned = _name_files(found.files, field_of, prefix)
        for line in [*found.notes(), *returned.notes]:
            print(line)
        early = [*found.unusable, *_roster_problems(args.class_list, returned, field_of, prefix)]
        try:
            students, n_items, notes = load(list(found.files), args.unfinished, args)
        except InputError as exc:
            raise_all([*early, exc])
        raise_all(early)
        for line in notes:
            if line not in returned.notes:  # said above
                print(line)
        print(
            f"ready: {len(found.files)} workbook(s), {len(students)} student(s) ({', '.join(students)}), "
            f"{n_items} item(s)"
        )
        if len(args.sheets) == 1 and (chapter or feedback):
            print(_words().fill("next_commands"))
            for line in next_commands(kind, args.sheets[0], args.unfinished, chapter, feedback):
                print(f"  {line}")
        return 0

    p.set_defaults(handler=_check)
    return p


def next_commands(
    kind: str,
    folder: str,
    unfinished: str,
    chapter: tuple[str, str] | None = None,
    feedback: str | None = None,
    python: str | None = None,
) -> list[str]:
    """The commands that read a checked class ``folder`` next, ready to paste: the chapter
    (``chapter``: notebook and class parameter) and ``feedback KIND`` (``feedback``: its
    class option), both with the ``unfinished`` choice (unless ``stop``) and the class's
    sibling folders ``results`` and ``feedback`` (``class/returned`` -> ``class/results``,
    ``class/feedback``). ``python`` is this interpreter, relative to the current folder when
    it lies inside it (``.venv/bin/python``; ``.venv\\Scripts\\python.exe`` on Windows).

    Examples
    --------
    >>> for line in next_commands("metahope", "class/returned", "drop_rows", ("notebooks/03.ipynb", "annotations"),
    ...                           "--annotations", python=".venv/bin/python"):
    ...     print(line)
    .venv/bin/python -m helpers run notebooks/03.ipynb -p annotations class/returned -p results_dir class/results -p unfinished drop_rows
    .venv/bin/python -m helpers feedback metahope --annotations class/returned --out class/feedback --unfinished drop_rows
    """
    if python is None:
        python = os.path.relpath(sys.executable) if Path(sys.executable).is_relative_to(Path.cwd()) else sys.executable
    parent = Path(folder).parent
    tails = []
    if chapter:
        tails.append(
            ["run", chapter[0], "-p", chapter[1], folder, "-p", "results_dir", str(parent / "results")]
            + (["-p", "unfinished", unfinished] if unfinished != "stop" else [])
        )
    if feedback:
        tails.append(
            ["feedback", kind, feedback, folder, "--out", str(parent / "feedback")]
            + (["--unfinished", unfinished] if unfinished != "stop" else [])
        )
    quoted = [[f'"{a}"' if " " in a else a for a in [python, "-m", "helpers", *tail]] for tail in tails]
    return [" ".join(line) for line in quoted]


@dataclass(frozen=True)
class _Named:
    """The workbooks of a class that open, each with its student's name (:func:`name_students`)."""

    files: tuple[Path, ...]
    names: tuple[str, ...]
    notes: tuple[str, ...]


def _name_files(files, field_of, prefix: str) -> _Named:
    fields = []
    for f in files:
        try:
            fields.append((field_of(f), Path(f)))
        except InputError:  # an unreadable workbook is reported by the kit's own reader
            continue
    naming = name_students(fields, prefix)
    return _Named(tuple(p for _, p in fields), naming.names, naming.notes)


def _roster_problems(class_list, returned: _Named, field_of, prefix: str) -> list[InputError]:
    """Errors for the students of ``class_list`` (a folder of blank templates, or names
    separated by commas) who have no workbook among the ``returned`` ones, and for each
    returned workbook whose student is not on the list."""
    if not class_list:
        return []
    try:
        folder = paths.resolve_input(class_list)
    except FileNotFoundError:
        folder = None
    if folder is not None and not folder.is_dir():
        raise InputError(
            "is a file; give the folder of blank templates or names separated by commas",
            parameter="--class-list",
            value=str(class_list),
        )
    roster = (
        _name_files(gather(folder, "--class-list", strict=False).files, field_of, prefix).names
        if folder is not None
        else [n.strip() for n in str(class_list).split(",") if n.strip()]
    )
    off_the_list = (
        f"move their blank workbook out of {class_list}, or give --class-list as the names of those who "
        "should return one"
        if folder is not None
        else "take their name out of --class-list"
    )
    missing = [
        InputError(
            f"student {n!r} is on the class list but returned no workbook",
            parameter="--class-list",
            expected=f"their workbook in the folder; or, if they are not to return one, {off_the_list}",
        )
        for n in roster
        if n not in set(returned.names)
    ]
    unknown = [
        InputError(
            f"student {n!r} returned this workbook but is not on the class list",
            file=f,
            expected="the name as on the class list (a typo in the Student: "
            "field, or a file name that does not say whose it is?), or their name added to the list",
        )
        for f, n in zip(returned.files, returned.names)
        if n not in set(roster)
    ]
    return [*missing, *unknown]


#: The help of every template's class-list option (``--annotators``, ``--raters``): the names a
#: number gives are those :func:`helpers.core.params.person_names` writes, the same in every kit.
PEOPLE_HELP = pages.texts("core", "commands")["class"]["people"].format(names=", ".join(params.person_names(3)))


def add_unfinished_option(parser) -> None:
    """The ``--unfinished`` option of every class command (the chapters' ``unfinished`` parameter)."""
    parser.add_argument(
        "--unfinished",
        choices=UNFINISHED_CHOICES,
        default="stop",
        help=pages.texts("core", "commands")["class"]["--unfinished"],
    )


def add_show_names_option(parser) -> None:
    """The ``--show-names`` option of every feedback command (classmates by name, not numbered)."""
    parser.add_argument(
        "--show-names", action="store_true", help=pages.texts("core", "commands")["class"]["--show-names"]
    )


def html_page(markdown_text: str, title: str) -> str:
    """A small standalone HTML page (tables styled) from Markdown: a handout (the page around
    it: ``core/book/pages/handout.html``)."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark").enable("table").render(markdown_text)
    frame = string.Template((pages.folder("core") / "handout.html").read_text(encoding="utf-8"))
    return frame.substitute(title=escape(title), body=body)


def write_overview(
    out_dir: Path, title: str, header: Sequence[str], rows: Sequence[str], show_names: bool, notes: Sequence[str] = ()
) -> Path:
    """The lecturer's ``index.html`` of a feedback folder: one Markdown table row per student
    (``rows``, linking their pages, by name), what the students' pages call classmates,
    and ``notes`` (what the run left out); its words: ``core/book/pages/classroom.md``."""
    table = "\n".join(["| " + " | ".join(header) + " |", "|" + "---|" * len(header), *rows])
    found = (
        Findings()
        .add("title", text=title)
        .add("show_names", int(bool(show_names)))
        .add("table", text=table)
        .add("n_notes", len(notes))
        .add("notes", text="\n".join(f"* {n}" for n in notes))
    )
    text = pages.page("core", "classroom", "overview", found.frame())
    return paths.atomic_write(Path(out_dir) / "index.html", html_page(text, title))


def safe_file_name(name: str, default: str = "student") -> str:
    """A student's name usable as a file name (letters of any script, digits, ``-``, ``_``)."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in str(name)).strip("_") or default


def feedback_file_name(student: str) -> str:
    """A student's feedback page without its suffix, the same in every kit: ``feedback_<student>``."""
    return f"feedback_{safe_file_name(student)}"


def feedback_file_names(students: Iterable[str]) -> dict[str, str]:
    """:func:`feedback_file_name` of each student; two students whose names give the same file
    (``Ana Li`` and ``Ana.Li``) are refused, so that no page overwrites a classmate's.

    Examples
    --------
    >>> feedback_file_names(["ana", "ben"])
    {'ana': 'feedback_ana', 'ben': 'feedback_ben'}
    >>> feedback_file_names(["Ana Li", "Ana.Li"])
    Traceback (most recent call last):
    ...
    helpers.core.errors.InputError: value 'Ana.Li': students 'Ana Li' and 'Ana.Li' would share the feedback page feedback_Ana_Li.html (expected names that differ in a letter or digit: correct one Student: field)
    """
    names: dict[str, str] = {}
    for s in dict.fromkeys(map(str, students)):
        name = feedback_file_name(s)
        clash = next((o for o, n in names.items() if n.lower() == name.lower()), None)
        if clash is not None:
            raise InputError(
                f"students {clash!r} and {s!r} would share the feedback page {name}.html",
                value=s,
                expected="names that differ in a letter or digit: correct one Student: field",
            )
        names[s] = name
    return names


def as_spec(value, parameter: str):
    """A class parameter as given: a mapping ``{name: workbook}`` stays, a folder or a list
    of workbooks/folders becomes a :class:`ClassFolder` (see :func:`gather`; it iterates
    like the list of its workbooks); anything else (one CSV or TSV file) is returned as it
    is. Returns ``(spec, ClassFolder | None)``; the folder's ``unusable`` files are the
    caller's to report with the other problems."""
    if isinstance(value, ClassFolder):
        return value, value
    if isinstance(value, Mapping):
        return value, None
    if isinstance(value, (list, tuple)) or (isinstance(value, (str, os.PathLike)) and _is_dir(value)):
        found = gather(value, parameter, strict=False)
        return found, found
    return value, None


def _is_dir(value) -> bool:
    try:
        return paths.resolve_input(value).is_dir()
    except FileNotFoundError:
        return False
