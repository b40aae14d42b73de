"""Loading MetaHOPE annotations whatever their format: the entry points a chapter calls.

:func:`load_class` takes what a notebook parameter holds (workbooks, a folder of them, a
long ``.csv`` or an MQM file), picks the reader (:mod:`~helpers.metahope.workbooks`,
:mod:`~helpers.metahope.long_csv`, :mod:`~helpers.metahope.mqm_format`) and returns
:class:`ClassAnnotations`: the tidy frame with what was left out and why. Nothing is
dropped or filled in silently: a sheet that lacks an item another sheet has, an annotator
with no row for an item, or a workbook handed back blank are errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from ..core import classroom, paths
from ..core.errors import InputError, raise_all, typed
from .long_csv import read_long
from .mqm_format import MQM_SCHEME, MQM_SUFFIXES, from_mqm, read_mqm
from .severity import apply_weights
from .tidy_frame import CATEGORIES, is_metahope
from .workbooks import KIT_PREFIX, AnnotationSheet, read_sheet, workbook_student


@dataclass(frozen=True)
class ClassAnnotations:
    """A team's or class's annotations as loaded, with what was left out and why."""

    tidy: pd.DataFrame
    notes: tuple[str, ...] = ()  # one line per file ignored, student or item left out
    students: tuple[str, ...] = ()  # annotators kept, in file order
    dropped_students: tuple[str, ...] = ()
    dropped_items: tuple[str, ...] = ()
    annotations: pd.DataFrame | None = (
        None  # an MQM file's core annotations (helpers.core.formats.annotations), else None
    )
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
        return list(dict.fromkeys([*map(str, self.tidy["annotator"].unique()), *self.students, *self.dropped_students]))

    def projected(self, projection: classroom.Projection) -> ClassAnnotations:
        """The same annotations with every student shown by their code (annotator column,
        students, notes; :class:`helpers.core.classroom.Projection`)."""
        if not projection:
            return self
        return replace(
            self,
            tidy=projection.column(self.tidy, "annotator"),
            notes=tuple(projection.text(n) for n in self.notes),
            students=projection.names(self.students),
            dropped_students=projection.names(self.dropped_students),
            annotations=None if self.annotations is None else projection.column(self.annotations, "rater"),
            left_out=classroom.LeftOut(
                {projection.name(s): r for s, r in self.left_out.rows.items()}, self.left_out.items
            ),
        )


def _legacy_blank(s: AnnotationSheet, student: str) -> InputError:
    return InputError(
        f"student {student!r}: no severity was entered in any cell: a blank template handed back? If "
        "this annotator really found no error at all, enter 0s",
        file=s.file,
        sheet=s.sheet,
        expected=f"a filled-in sheet, or run with {typed('unfinished', 'drop_rows')} or "
        f"{typed('unfinished', 'drop_students')} to leave it out",
    )


def load_class(
    files,
    sheet: str | None = None,
    system_names: Mapping[str, str] | None = None,
    unfinished: str = "stop",
    notes: Sequence[str] = (),
    scheme: str = MQM_SCHEME,
) -> ClassAnnotations:
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
            s = AnnotationSheet(
                s.frame.assign(annotator=name),
                s.file,
                s.sheet,
                s.skipped_rows,
                s.entered_cells,
                s.item_rows,
                s.student,
                s.has_done_column,
                s.unfinished,
            )
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
            problems.append(
                InputError(
                    f"item {missing[0]!r} is missing from this sheet (it is on row {row} of {where.file.name}){more}",
                    file=s.file,
                    sheet=s.sheet,
                    column="word_id",
                )
            )
        lacking = [x for x in all_systems if x not in set(s.frame["system"])]
        if lacking:
            problems.append(
                InputError(
                    f"system {lacking[0]!r} is missing from this sheet (other sheets have it)",
                    file=s.file,
                    sheet=s.sheet,
                    row=1,
                )
            )
    progress = {
        n: classroom.Progress(
            n,
            s.file,
            s.sheet,
            tuple(s.unfinished_rows()),
            len(s.item_rows),
            None if s.has_done_column else _legacy_blank(s, n),
        )
        for n, s in sheets
    }
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
        raise InputError(
            "no item is left once the unfinished rows are left out",
            expected=f"finished rows, or {typed('unfinished', 'drop_students')}",
        )
    out = pd.concat([s.frame for _, s in kept], ignore_index=True)
    out = out[out["item"].isin(order)].reset_index(drop=True)
    out["position"] = out["item"].map(order)
    out["severity"] = out["severity"].astype(int)
    out["category"] = pd.Categorical(out["category"], categories=list(CATEGORIES), ordered=True)
    return ClassAnnotations(
        out,
        tuple(out_notes),
        tuple(n for n, _ in kept),
        tuple(dropped),
        tuple(dropped_items),
        left_out=classroom.LeftOut(own_rows, tuple(dropped_items)),
        named_by_field=any(s.student for _, s in sheets),
        files=(*(s.file for _, s in sheets), *(p for p, _ in (folder.ignored if folder else ()))),
    )


def _one_file(spec, scheme: str = MQM_SCHEME) -> ClassAnnotations:
    path = paths.resolve_input(spec)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return ClassAnnotations(read_long(path))
    if suffix in MQM_SUFFIXES:
        tidy, frame = read_mqm(path, scheme)
        return ClassAnnotations(tidy, annotations=frame, scheme=scheme)
    if suffix in (".xlsx", ".xlsm"):
        raise InputError(
            "one workbook is one annotator: pass a folder, a list or a mapping of workbooks, one per annotator",
            file=path,
        )
    raise InputError(
        "pass a folder of workbooks, a list or mapping of workbooks (one per annotator), or a long "
        ".csv / MQM .tsv file",
        file=path,
    )


def load_study(
    files, sheet: str | None = None, system_names: Mapping[str, str] | None = None, unfinished: str = "stop"
) -> pd.DataFrame:
    """The tidy frame of :func:`load_class` (one workbook per annotator)."""
    return load_class(files, sheet, system_names, unfinished).tidy


def load_annotations(spec, unfinished: str = "stop") -> pd.DataFrame:
    """Annotations from whatever a notebook parameter holds (the tidy frame of :func:`load_class`).

    * ``{annotator: workbook}``, a list of workbooks, or a folder of them (annotators named
      by each workbook's ``Student:`` field, else its file name);
    * a ``.csv`` path: the long format (:func:`read_long`);
    * a ``.tsv`` path: MQM/Marot-style TSV (:func:`read_mqm_tsv`).
    """
    return load_class(spec, unfinished=unfinished).tidy


def annotation_files(spec) -> list[Path]:
    """The files a :func:`load_annotations` spec names (for the page's data box)."""
    if isinstance(spec, Mapping):
        return [Path(str(v)) for v in spec.values()]
    if isinstance(spec, (list, tuple, classroom.ClassFolder)):
        return [Path(str(v)) for v in spec]
    return [Path(str(spec))]
