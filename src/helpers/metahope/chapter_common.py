"""What chapters 1–3 share besides the methods: their annotation parameters (workbooks, a class
folder, one annotation file), the data description of an MQM file, the projection of students
as codes, and the few-clusters caveat.

Each chapter's own module (:mod:`~helpers.metahope.ch01`, :mod:`~helpers.metahope.ch02`,
:mod:`~helpers.metahope.ch03`) checks its parameters with these and raises
:class:`~helpers.core.errors.InputError` naming the parameter, the file, sheet, row, column,
cell and value.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import pandas as pd

from ..core import classroom, params
from ..core.book.findings import Findings
from ..core.errors import InputError, raise_all
from ..core.statistics.stats import FEW_CLUSTERS
from . import load, long_csv, mqm_format, tidy_frame, workbooks

WORKBOOK = (".xlsx", ".xlsm")

RELEASED_DETAIL = (
    "Workbooks from aaronlifenghan/MetaHOPE at the pinned commit, sha256-verified by "
    "<code>.venv/bin/python -m helpers fetch</code> (licence CC BY-NC 4.0)."
)
OWN_DETAIL = "Annotations passed to this notebook as papermill parameters."


def _workbooks(name: str, value, minimum: int):
    """A class of workbooks checked: ``{annotator: workbook}`` (names given), or a folder or
    list of workbooks (names from each workbook's Student: field). Files exist, are
    workbooks, their headers are right, and there are at least ``minimum``; every problem
    is reported at once. Returns the mapping, or the list of workbook paths."""
    problems = []
    if isinstance(value, dict):
        files = params.named_files(name, value, WORKBOOK, minimum=minimum)
    elif isinstance(value, (list, tuple, str)):
        files, folder = classroom.as_spec(value if isinstance(value, (list, tuple)) else [value], name)
        problems += folder.unusable
        files = classroom.ClassFolder(folder.files, folder.ignored)  # its unusable files are reported here
        if len(files) < minimum:
            raise InputError(
                f"names {len(files)} workbook(s); it needs at least {minimum}"
                + (" (agreement needs two annotators or more)" if minimum >= 2 else ""),
                parameter=name,
                value=[str(f) for f in files],
            )
    else:
        raise InputError(
            "must be a folder, a list of workbooks or a mapping {name: workbook}", parameter=name, value=value
        )
    for label, path in files.items() if isinstance(files, dict) else ((p.name, p) for p in files):
        try:
            workbooks.check_header(path)
        except InputError as exc:
            problems.append(exc.located(parameter=f"{name}[{label}]"))
    raise_all(problems)
    if not isinstance(files, dict):
        raise_all(e.located(parameter=name) for e in _naming(files).problems)
    return files


def _naming(files) -> classroom.ClassNames:
    """How :func:`helpers.metahope.load.load_class` will name the workbooks of a list (or folder)."""
    return classroom.name_students([(workbooks.workbook_student(p), p) for p in files], workbooks.KIT_PREFIX)


def _names(files) -> list[str]:
    """The annotators a :func:`_workbooks` result will be read as."""
    return list(files) if isinstance(files, dict) else list(_naming(files).names)


def _class_note(detail: str, notes) -> str:
    """The data box's text with what the run left out (students, items, files)."""
    if not notes:
        return detail
    return detail + " " + "; ".join(escape(n) for n in notes) + "."


def _annotation_spec(name: str, value, minimum: int):
    """A :func:`helpers.metahope.load.load_annotations` spec checked before loading: workbooks
    (a folder, a list or a mapping), or a long ``.csv`` / MQM ``.tsv`` with its columns and
    enough annotators."""
    if isinstance(value, (dict, list, tuple)) or classroom._is_dir(value):
        return _workbooks(name, value, minimum)
    return _annotation_file(name, value, minimum)[0]


def _is_annotation_file(value) -> bool:
    """Whether a parameter names one long ``.csv`` or MQM/Marot file (not workbooks)."""
    return (
        isinstance(value, (str, Path))
        and not classroom._is_dir(value)
        and Path(str(value)).suffix.lower() in (".csv",) + mqm_format.MQM_SUFFIXES
    )


def _annotation_file(name: str, value, minimum: int) -> tuple[Path, list[str]]:
    """A long ``.csv`` (its columns checked) or an MQM/Marot file (read by the core reader),
    with its annotators, at least ``minimum`` of them."""
    path = params.existing_file(name, value, (".csv",) + mqm_format.MQM_SUFFIXES)
    if path.suffix.lower() == ".csv":
        params.csv_with_columns(name, path, long_csv.LONG_COLUMNS)
        raters = pd.read_csv(path, usecols=["annotator"], dtype=str, keep_default_na=False)["annotator"]
    else:
        raters = mqm_raters(name, path)
    found = sorted(set(raters.str.strip()) - {""})
    if len(found) < minimum:
        raise InputError(
            f"has {len(found)} annotator(s) {found}; agreement needs at least {minimum}", parameter=name, file=path
        )
    return path, found


def mqm_raters(name: str, path: Path) -> pd.Series:
    """The rater column of an MQM/Marot file read by the core reader
    (:func:`helpers.core.formats.mqm.read_mqm`: positional columns, any header variant, WMT 2020–21
    and 2023 files, .gz/.tar.gz); a file it refuses is an error naming the parameter."""
    from ..core.formats import mqm

    try:
        return mqm.read_mqm(path, columns=["rater"])["rater"]
    except InputError as exc:
        raise exc.located(parameter=name) from None


def mqm_description(loaded: load.ClassAnnotations) -> pd.DataFrame:
    """What the data box says about a foreign MQM file (section ``mqm`` of chapters 1 and 3):
    what an item, a category and a severity are (:func:`helpers.metahope.mqm_format.from_mqm`), how
    missing raters and side-by-side pairings are handled. Names are HTML-escaped (the box is HTML)."""
    from ..core.formats.annotations import split_pairing
    from ..core.statistics.schemes import load_scheme

    tidy = loaded.tidy
    scheme = load_scheme(loaded.scheme)
    per_unit = tidy.drop_duplicates(["item", "system", "annotator"]).groupby(["item", "system"]).size()
    paired = int((split_pairing(pd.Series(tidy["system"].unique()))["partner"] != "").sum())
    return (
        Findings()
        .add("segments", tidy["item"].nunique())
        .add("categories", text=escape(", ".join(tidy_frame.category_order(tidy))))
        .add("scheme", text=escape(str(loaded.scheme)))
        .add("levels", text=", ".join(f"{escape(r.name)} {r.weight:g}" for r in scheme.rules))
        .add("metahope_levels", loaded.scheme == mqm_format.MQM_SCHEME)
        .add(
            "raters_per_unit",
            per_unit.min(),
            ci=(per_unit.min(), per_unit.max()),
            text=_span(per_unit.min(), per_unit.max()),
        )
        .add("raters", tidy["annotator"].nunique())
        .add("paired", paired)
        .frame()
    )


#: The study-wide words file of the MetaHOPE chapters (notebooks/words/metahope.md).
SHARED_WORDS = ("metahope",)


def _said(words, chapter: str, section: str, found: pd.DataFrame) -> str:
    """A data box's sentence: ``section`` of the chapter's words (``words``, else a fresh
    :class:`~helpers.core.book.findings.Words` of ``chapter``) filled from ``found``, recorded for findings.csv."""
    from ..core.book.findings import Words

    return (words if words is not None else Words(chapter, shared=SHARED_WORDS)).say(section, found).data


def _bool_or_none(name: str, value):
    return None if value is None else params.boolean(name, value)


def _projection(value):
    """The checked ``projection`` parameter: True, False or None (see :func:`helpers.core.classroom.projection`)."""
    return _bool_or_none("projection", value)


def _span(low, high) -> str:
    """``3`` or ``3–5``: a count that may vary."""
    return f"{low}" if low == high else f"{low}–{high}"


def _excludes_zero(low, high):
    return (low > 0) | (high < 0)


def few_clusters(found: Findings, n_clusters, unit: str = "sentences", items: str | None = "metaphors") -> Findings:
    """Whether a page shows a second, wider interval (section ``few_clusters`` of ``metahope.md``),
    added to ``found``: with fewer than :data:`~helpers.core.statistics.stats.FEW_CLUSTERS` clusters the
    percentile cluster bootstrap is too narrow (tests/core/test_stats.py measures its coverage with
    20 clusters against the t intervals'). ``n_clusters``: the counts of the comparisons (none: every
    quantity, the threshold and the names of the units too, is not applicable)."""
    counts = [int(n) for n in n_clusters]
    if not counts:
        return found.add("clusters").add("few").add("few_clusters").add("unit").add("items")
    low, high = min(counts), max(counts)
    return (
        found.add("clusters", low, ci=(low, high), text=_span(low, high))
        .add("few", low < FEW_CLUSTERS)
        .add("few_clusters", FEW_CLUSTERS)
        .add("unit", text=unit)
        .add("items", text=items)
    )
