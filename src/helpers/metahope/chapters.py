"""What chapters 1–3 need besides the methods: checked parameters, data with provenance, findings.

Each chapter calls its ``*_setup`` function in the cell right after its ``parameters``
cell. It checks every parameter before any work is done (types, files that exist, their
headers, annotator names, enough annotators) and raises
:class:`~helpers.core.errors.InputError` naming the parameter, the file, sheet, row,
column, cell and value. Its ``load()`` returns the data together with a
:class:`~helpers.core.report.Provenance` (released, own or simulated).

The numbers each chapter states come from the ``*_findings``, ``*_summary`` and
``*_description`` functions below as tidy findings frames
(:class:`~helpers.core.findings.Findings`); their sentences live in
``notebooks/words/<chapter>.md`` and are filled by :class:`~helpers.core.findings.Words`.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import classroom, params
from ..core.errors import InputError, raise_all
from ..core.findings import Findings
from ..core.report import ChapterData, Provenance
from ..core import stats
from ..core.stats import FEW_CLUSTERS
from . import load, long_csv, mqm_format, release, tidy_frame, workbooks
from .scoring import normalise_pos, segment_scores, team_scores

WORKBOOK = (".xlsx", ".xlsm")
CHAPTER_1 = "01_metahope_pilot_v1"  # its words: notebooks/words/01_metahope_pilot_v1.md
RELEASED_DETAIL = ("Workbooks from aaronlifenghan/MetaHOPE at the pinned commit, sha256-verified by "
                   "<code>.venv/bin/python -m helpers fetch</code> (licence CC BY-NC 4.0).")
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
            raise InputError(f"names {len(files)} workbook(s); it needs at least {minimum}"
                             + (" (agreement needs two annotators or more)" if minimum >= 2 else ""),
                             parameter=name, value=[str(f) for f in files])
    else:
        raise InputError("must be a folder, a list of workbooks or a mapping {name: workbook}", parameter=name,
                         value=value)
    for label, path in (files.items() if isinstance(files, dict) else ((p.name, p) for p in files)):
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
    return (isinstance(value, (str, Path)) and not classroom._is_dir(value)
            and Path(str(value)).suffix.lower() in (".csv",) + mqm_format.MQM_SUFFIXES)


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
        raise InputError(f"has {len(found)} annotator(s) {found}; agreement needs at least {minimum}",
                         parameter=name, file=path)
    return path, found


def mqm_raters(name: str, path: Path) -> pd.Series:
    """The rater column of an MQM/Marot file read by the core reader
    (:func:`helpers.core.mqm.read_mqm`: positional columns, any header variant, WMT 2020–21
    and 2023 files, .gz/.tar.gz); a file it refuses is an error naming the parameter."""
    from ..core import mqm

    try:
        return mqm.read_mqm(path, columns=["rater"])["rater"]
    except InputError as exc:
        raise exc.located(parameter=name) from None


def mqm_description(loaded: load.ClassAnnotations) -> pd.DataFrame:
    """What the data box says about a foreign MQM file (section ``mqm`` of chapters 1 and 3):
    what an item, a category and a severity are (:func:`helpers.metahope.mqm_format.from_mqm`), how
    missing raters and side-by-side pairings are handled. Names are HTML-escaped (the box is HTML)."""
    from ..core.annotations import split_pairing
    from ..core.schemes import load_scheme

    tidy = loaded.tidy
    scheme = load_scheme(loaded.scheme)
    per_unit = tidy.drop_duplicates(["item", "system", "annotator"]).groupby(["item", "system"]).size()
    paired = int((split_pairing(pd.Series(tidy["system"].unique()))["partner"] != "").sum())
    return (Findings().add("segments", tidy["item"].nunique())
            .add("categories", text=escape(", ".join(tidy_frame.category_order(tidy))))
            .add("scheme", text=escape(str(loaded.scheme)))
            .add("levels", text=", ".join(f"{escape(r.name)} {r.weight:g}" for r in scheme.rules))
            .add("metahope_levels", loaded.scheme == mqm_format.MQM_SCHEME)
            .add("raters_per_unit", per_unit.min(), ci=(per_unit.min(), per_unit.max()),
                 text=_span(per_unit.min(), per_unit.max()))
            .add("raters", tidy["annotator"].nunique()).add("paired", paired).frame())


#: The study-wide words file of the MetaHOPE chapters (notebooks/words/metahope.md).
SHARED_WORDS = ("metahope",)


def _said(words, chapter: str, section: str, found: pd.DataFrame) -> str:
    """A data box's sentence: ``section`` of the chapter's words (``words``, else a fresh
    :class:`~helpers.core.findings.Words` of ``chapter``) filled from ``found``, recorded for findings.csv."""
    from ..core.findings import Words

    return (words if words is not None else Words(chapter, shared=SHARED_WORDS)).say(section, found).data


def _bool_or_none(name: str, value):
    return None if value is None else params.boolean(name, value)


def _projection(value):
    """The checked ``projection`` parameter: True, False or None (see :func:`helpers.core.classroom.projection`)."""
    return _bool_or_none("projection", value)


# --------------------------------------------------------------------------- chapter 1


@dataclass(frozen=True)
class PilotV1Data(ChapterData):
    tidy: pd.DataFrame = None  # metaphor-level annotations of every annotator
    sentences: pd.DataFrame | None = None  # the penalty annotator's full sentence-level sheet (EPS), if any
    compare_published: bool = False
    loaded: load.ClassAnnotations | None = None  # what was read (to re-weight it)
    penalty_annotator: str = "A"  # whose sheet gives the penalty tables

    @property
    def metahope(self) -> bool:
        """MetaHOPE data (the paper's categories), not a foreign MQM file."""
        return tidy_frame.is_metahope(self.tidy)

    def weighted(self, scheme: str) -> pd.DataFrame:
        """:attr:`tidy` with a ``penalty`` column under ``scheme`` (``"hope"``, ``"metahope"``):
        the same units and annotators (:meth:`helpers.metahope.load.ClassAnnotations.weighted`)."""
        out = self.loaded.weighted(scheme)
        keys = ["item", "system", "annotator"]
        keep = pd.MultiIndex.from_frame(out[keys]).isin(pd.MultiIndex.from_frame(self.tidy[keys]))
        return out[keep].reset_index(drop=True)


@dataclass(frozen=True)
class PilotV1Setup:
    """Chapter 1's checked parameters (see the chapter's parameters cell)."""

    files: dict | list | Path | None
    unfinished: str
    sentence_file: Path | None
    penalty_annotator: str | None
    n_sentences: int | None
    n_boot: int
    seed: int
    compare_published: bool
    raters: list | None = None
    projection: bool | None = None  # students shown as codes (None: when the workbooks carry a Student: field)
    results_dir: str = "results"  # where a projection's key goes

    @property
    def released(self) -> bool:
        return self.files is None

    def load(self, words=None) -> PilotV1Data:
        """The annotations of the two annotators compared, with their provenance; the data
        box's sentences come from ``words`` (the chapter's :class:`~helpers.core.findings.Words`;
        None: read afresh)."""
        if isinstance(self.files, Path):
            return self._load_file(words)
        files = release.pilot_v1_files() if self.released else self.files
        loaded = load.load_class(files, unfinished=self.unfinished)
        if len(loaded.students) < 2:
            raise InputError(f"only {len(loaded.students)} annotator is left once the unfinished sheets are left "
                             "out; agreement needs two", parameter="annotator_files", value=list(loaded.students))
        pair_tidy, pair = tidy_frame.two_raters(loaded.tidy, self.raters)
        penalty = self.penalty_annotator or pair[0]
        if penalty not in pair:
            raise InputError("was left out (unfinished sheet)" if penalty in loaded.dropped_students
                             else "is not one of the two annotators compared", parameter="penalty_annotator",
                             value=penalty, expected=" or ".join(pair))
        loaded, coded = loaded.for_page(self.projection, self.results_dir)
        tidy = coded.column(pair_tidy, "annotator")
        sentences = (load.load_class({penalty: self.sentence_file}, unfinished=self.unfinished).tidy
                     if self.sentence_file else None)
        if sentences is not None:
            sentences = coded.column(sentences, "annotator")
        shown = list(files.values() if isinstance(files, dict) else files) + (
            [self.sentence_file] if self.sentence_file else [])
        if self.released:
            provenance = Provenance("released", coded.paths(shown), RELEASED_DETAIL)
        else:
            detail = _class_note(OWN_DETAIL, loaded.notes) + " " + _pair_note(
                words, tidy, list(coded.names(pair)), coded.name(penalty), self.raters is not None,
                list(loaded.students), workbooks=True)
            provenance = Provenance("own", coded.paths(shown), detail)
        return PilotV1Data(provenance, tidy, sentences, self.compare_published, loaded, coded.name(penalty))

    def _load_file(self, words=None) -> PilotV1Data:
        """One long ``.csv`` or MQM file: the two raters compared on the units both rated."""
        loaded = load.load_class(self.files)
        tidy, pair = tidy_frame.two_raters(loaded.tidy, self.raters)
        penalty = self.penalty_annotator or pair[0]
        params.member("penalty_annotator", penalty, pair, "two raters compared")
        loaded, coded = loaded.for_page(self.projection, self.results_dir)  # raters coded only when asked for
        tidy, pair, penalty = coded.column(tidy, "annotator"), list(coded.names(pair)), coded.name(penalty)
        detail = OWN_DETAIL
        if loaded.foreign:
            detail += " " + _said(words, CHAPTER_1, "mqm", mqm_description(loaded))
        detail += " " + _pair_note(words, tidy, pair, penalty, self.raters is not None,
                                   list(loaded.tidy["annotator"].unique()), workbooks=False)
        return PilotV1Data(Provenance("own", (str(self.files),), detail), tidy, None, False,
                           load.ClassAnnotations(tidy, annotations=loaded.annotations), penalty)


def _pair_note(words, tidy: pd.DataFrame, pair: list[str], penalty: str, given: bool, annotators: list[str],
               workbooks: bool) -> str:
    """The data box's sentence (section ``two_raters`` of chapter 1) on the two annotators
    compared: who, how they were chosen (``raters`` given; else the first two of a class's
    workbooks, or the pair of an annotation file that shares the most units), on how many
    units, whose sheet gives the penalty tables, and, when the data hold more than two
    annotators (``annotators``, all of them), how to compare another pair."""
    others = [a for a in annotators if a not in pair]
    return _said(words, CHAPTER_1, "two_raters", Findings()
                 .add("first", text=escape(pair[0])).add("second", text=escape(pair[1]))
                 .add("given", given).add("first_two", not given and workbooks)
                 .add("most_shared", not given and not workbooks)
                 .add("units", len(tidy.drop_duplicates(["item", "system"])))
                 .add("items", text="metaphor" if tidy_frame.is_metahope(tidy) else "segment")
                 .add("penalty", text=escape(penalty))
                 .add("annotators", len(annotators)).add("others", bool(others))
                 .add("other", text=escape(others[0]) if others else "").frame())


def pilot_v1_setup(annotator_files=None, sentence_level_file=None, penalty_annotator=None, n_sentences=20,
                   n_boot=2000, seed=2026, results_dir="results", compare_published=None,
                   unfinished="stop", raters=None, projection=None) -> PilotV1Setup:
    """Check chapter 1's parameters (nothing is read beyond the workbooks' header rows and
    student fields, or an annotation file's rater column).

    Chapter 1 compares two annotators. ``raters`` names them among a class's workbooks (two
    or more students) or among the raters of one long ``.csv`` or MQM/Marot file (WMT's
    ``.tsv``/``.tar.gz``); None: the first two students in class order, or the pair of a
    file that shares the most units. With a file, the items are its segments
    (``n_sentences`` counts them) and there is no published table to compare with.
    ``penalty_annotator`` (one of the two) None is ``A`` for the released sheets, else the
    first of the two. ``projection`` (None: on for a class's workbooks, which carry a
    Student: field; off for the released sheets and annotation files) shows students as
    ``student 1 … n`` (:class:`helpers.core.classroom.Projection`; the key goes to
    ``<results_dir>/student_key.csv``)."""
    if raters is not None and not (isinstance(raters, (list, tuple)) and len(raters) == 2):
        raise InputError("must name two annotators", parameter="raters", value=raters,
                         expected="[name, name] or None")
    if _is_annotation_file(annotator_files):
        path, found = _annotation_file("annotator_files", annotator_files, minimum=2)
        for r in raters or ():
            params.member("raters", str(r), found, "raters of the file")
        if penalty_annotator is not None:
            params.member("penalty_annotator", penalty_annotator, list(raters) if raters else found, "raters")
        if sentence_level_file not in (None, ""):
            raise InputError("has no counterpart for an annotation file (its items are whole segments)",
                             parameter="sentence_level_file", value=sentence_level_file, expected="None")
        if compare_published:
            raise InputError("the paper's tables describe the released MetaHOPE sheets, not this file",
                             parameter="compare_published", value=compare_published, expected="None or False")
        params.text("results_dir", str(results_dir))
        return PilotV1Setup(path, classroom.unfinished_choice(unfinished), None, penalty_annotator, None,
                            params.integer("n_boot", n_boot, minimum=100), params.integer("seed", seed), False,
                            [str(r) for r in raters] if raters else None, _projection(projection),
                            str(results_dir))
    files = None if annotator_files is None else _workbooks("annotator_files", annotator_files, minimum=2)
    annotators = ["A", "B"] if files is None else _names(files)
    if raters and files is not None:  # codes a projected page showed name their students in the key
        raters = classroom.uncoded(raters, results_dir)
    for r in raters or ():
        params.member("raters", str(r), annotators, "annotators")
    if penalty_annotator is None and files is None:
        penalty_annotator = "A"  # the released sentence-level sheet (EPS) is A's
    if penalty_annotator is not None:
        params.member("penalty_annotator", penalty_annotator, [str(r) for r in raters] if raters else annotators,
                      "two annotators compared" if raters else "annotators")
    if sentence_level_file is None:
        sentence_file = release.pilot_v1_sentence_file() if files is None else None
    elif sentence_level_file == "":
        sentence_file = None
    else:
        sentence_file = params.existing_file("sentence_level_file", sentence_level_file, WORKBOOK)
        try:
            workbooks.check_header(sentence_file)
        except InputError as exc:
            raise exc.located(parameter="sentence_level_file") from None
    if n_sentences is not None:
        params.integer("n_sentences", n_sentences, minimum=1)
    params.text("results_dir", str(results_dir))
    compare = _bool_or_none("compare_published", compare_published)
    return PilotV1Setup(files, classroom.unfinished_choice(unfinished), sentence_file,
                        penalty_annotator, n_sentences, params.integer("n_boot", n_boot, minimum=100),
                        params.integer("seed", seed), files is None if compare is None else compare,
                        [str(r) for r in raters] if raters else None, projection=_projection(projection),
                        results_dir=str(results_dir))


def one_category(table6: pd.DataFrame, system: str, error: str) -> tuple[str, str]:
    """The (system, error category) an exercise recomputes from Table 6: ``(system, error)``
    when this run's table has that row (the paper's systems), else its first row whose α
    is defined (its first row if none is), so that the solution runs on any data."""
    rows = table6[["system", "error"]].astype(str)
    if ((rows["system"] == system) & (rows["error"] == error)).any():
        return system, error
    defined = rows[table6["alpha"].notna().to_numpy()]
    first = (defined if len(defined) else rows).iloc[0]
    return first["system"], first["error"]


def pilot_v1_description(data: PilotV1Data, n_items: int, counted_sentences: int) -> pd.DataFrame:
    """What chapter 1 reads (section ``data``): items (metaphor-related words or segments),
    distinct source sentences, systems and annotators."""
    tidy = data.tidy
    return (Findings().add("n_items", n_items)
            .add("items", text="metaphor-related words" if data.metahope else "segments")
            .add("counted", counted_sentences).add("systems", text=", ".join(map(str, tidy["system"].unique())))
            .add("annotators", text=", ".join(map(str, tidy["annotator"].unique()))).frame())


def sentence_count_note(words, n_sentences: int, counted: int, released: bool):
    """The box (section ``sentence_count`` of the chapter's words) that says what "per
    sentence" divides by when it is not the counted number."""
    from ..core.report import data_note

    found = Findings().add("n_sentences", n_sentences).add("counted", counted).add("released", released)
    return data_note("released" if released else "own", [], words.say("sentence_count", found.frame()).data)


def ratio_findings(ratios: pd.DataFrame, published: pd.DataFrame | None = None) -> pd.DataFrame:
    """What Ratio (M/S) is and how sure it is (section ``ratio``), from
    :func:`~helpers.metahope.scoring.ratio_m_s`: the cells where the metaphors carry more
    points than the sentences (``cell_epm``, ``cell_eps`` per "system category"), per system
    the ratio on SEGS with its jackknife t interval by sentence (``ratio``; ``percentile``
    beside it), the penalised sentences and on how many of them either sheet carries more,
    the paper's ratio when ``published`` (its Table 3) is given, and the span of the
    intervals over the systems (``span``)."""
    found = Findings()
    cells = ratios[(ratios["category"] != "SEGS") & ratios["epm_exceeds_eps"]]
    found.add("exceeds", len(cells) > 0)
    for _, r in cells.iterrows():
        group = f"{r['system']} {r['category']}"
        found.add("cell_epm", r["epm"], group=group).add("cell_eps", r["eps"], group=group)
    if cells.empty:
        found.add("cell_epm").add("cell_eps")
    total = ratios[ratios["category"] == "SEGS"]
    paper = None if published is None else published.set_index("system")["ratio_m_s"].astype(float)
    for _, r in total.iterrows():
        g = r["system"]
        (found.add("ratio", r["ratio_m_s"], ci=(r["jackknife_ci_low"], r["jackknife_ci_high"]), group=g)
         .add("percentile", r["ratio_m_s"], ci=(r["ci_low"], r["ci_high"]), group=g)
         .add("penalised", r["sentences_penalised"], group=g)
         .add("metaphor_higher", r["sentences_metaphor_higher"], group=g)
         .add("sentence_higher", r["sentences_sentence_higher"], group=g)
         .add("published", None if paper is None else paper.get(g), group=g))
    low, high = total["jackknife_ci_low"].min(), total["jackknife_ci_high"].max()
    return (found.add("sentences", total["n_sentences"].max() if len(total) else None)
            .add("span", high - low, ci=(low, high)).add("released", published is not None).frame())


def few_clusters(n_clusters, unit: str = "sentences", items: str = "metaphors") -> pd.DataFrame:
    """Whether a page shows a second, wider interval (section ``few_clusters``): with fewer than
    :data:`~helpers.core.stats.FEW_CLUSTERS` clusters the percentile cluster bootstrap is too
    narrow (tests/core/test_stats.py measures its coverage with 20 clusters against the t
    intervals'). ``n_clusters``: one count, or the counts of several comparisons."""
    counts = [int(n_clusters)] if np.ndim(n_clusters) == 0 else [int(n) for n in n_clusters]
    low, high = min(counts), max(counts)
    return (Findings().add("clusters", low, ci=(low, high), text=_span(low, high))
            .add("few", low < FEW_CLUSTERS).add("few_clusters", FEW_CLUSTERS)
            .add("unit", text=unit).add("items", text=items).frame())


def _span(low, high) -> str:
    """``3`` or ``3–5``: a count that may vary."""
    return f"{low}" if low == high else f"{low}–{high}"


def _excludes_zero(low, high):
    return (low > 0) | (high < 0)


#: Which scheme gives the raters higher α on SEGS, by the read interval (section ``weighting``).
WEIGHTING_VERDICTS = {"linear": "higher with linear weights (the interval excludes 0)",
                      "exponential": "higher with exponential weights (the interval excludes 0)",
                      "neither": "not distinguishable between the schemes (the interval spans 0)"}


def _favours(difference: float) -> str:
    return "exponential" if difference < 0 else "linear"


def weighting(scheme_effect: pd.DataFrame) -> pd.DataFrame:
    """Per system (section ``weighting``): is α on SEGS higher with linear or exponential
    weights? Read on the jackknife t interval by sentence when there is one (it holds with
    few clusters; ``percentile`` is the interval beside it), else on the percentile interval;
    then κ per system where its interval excludes 0 (``kappa``: κ ranks each scheme's values
    on their own scale, a caveat the words give)."""
    nested = "jackknife_ci_low" in scheme_effect
    read = "jackknife_" if nested else ""
    found = Findings().add("unit", text="sentences" if nested else "metaphors")
    for _, r in scheme_effect[scheme_effect["metric"] == "alpha"].iterrows():
        low, high = r[f"{read}ci_low"], r[f"{read}ci_high"]
        verdict = "linear" if low > 0 else "exponential" if high < 0 else "neither"
        (found.add("alpha_linear", r["linear (MetaHOPE)"], group=r["system"])
         .add("alpha_exponential", r["exponential (HOPE)"], group=r["system"])
         .add("difference", r["difference"], group=r["system"], ci=(low, high), text=WEIGHTING_VERDICTS[verdict],
              interval="jackknife t" if nested else "percentile", verdict=verdict))
        found.add("percentile", r["difference"] if nested else None, group=r["system"],
                  ci=(r["cluster_ci_low"], r["cluster_ci_high"]) if nested else None)
    _kappa_rows(found, scheme_effect, read, nested)
    return found.frame()


def _kappa_rows(found: Findings, scheme_effect: pd.DataFrame, read: str, nested: bool = True) -> None:
    """κ's differences whose ``read`` interval excludes 0 (quantity ``kappa``, per system;
    not applicable when there is none) and ``kappa_percentile`` beside them."""
    k = scheme_effect[scheme_effect["metric"] == "weighted_kappa"]
    k = k[_excludes_zero(k[f"{read}ci_low"], k[f"{read}ci_high"])]
    for _, r in k.iterrows():
        found.add("kappa", r["difference"], group=r["system"], ci=(r[f"{read}ci_low"], r[f"{read}ci_high"]),
                  text=_favours(r["difference"]), interval="jackknife t" if nested else "percentile")
        found.add("kappa_percentile", r["difference"] if nested else None, group=r["system"],
                  ci=(r["cluster_ci_low"], r["cluster_ci_high"]) if nested else None)
    if k.empty:
        found.add("kappa").add("kappa_percentile")
    found.add("kappa_clear", len(k))


def pilot_v1_findings(comparisons: dict, n_sentences, counted_sentences: int, n_items: int,
                      table1_ci: pd.DataFrame, scheme_effect: pd.DataFrame, bias: pd.DataFrame, first: str,
                      second: str, items: str = "metaphors") -> pd.DataFrame:
    """Chapter 1's findings (section ``findings``), each computed from this run's tables
    (``items``: what an item is, ``"metaphors"`` or an MQM file's ``"segments"``)."""
    found = Findings()
    for name, c in comparisons.items():
        found.add("reproduced", int(c["match"].sum()), group=name, cells=len(c),
                  differing=", ".join(c.loc[~c["match"], "column"].unique()))
        found.add("all_match", bool(c["match"].all()), group=name)
    found.add("compared", len(comparisons))
    if not comparisons:
        found.add("reproduced").add("all_match")
    found.add("denominator", n_sentences or counted_sentences).add("counted", counted_sentences)
    found.add("metaphors", items == "metaphors").add("n_items", n_items).add("items", text=items)

    alpha = table1_ci[table1_ci["metric"] == "alpha"]
    widths = {"item": alpha["ci_high"] - alpha["ci_low"], "cluster": alpha["cluster_ci_high"] - alpha["cluster_ci_low"],
              "t": alpha["jackknife_ci_high"] - alpha["jackknife_ci_low"]}
    for name, w in widths.items():
        found.add(f"{name}_width", w.min(), ci=(w.min(), w.max()))
    spread = alpha["estimate"].max() - alpha["estimate"].min()
    narrowest = min(widths["cluster"].min(), widths["t"].min())
    found.add("spread", spread).add("cannot_rank", narrowest > spread)

    effect = scheme_effect[scheme_effect["metric"] == "alpha"]
    for _, r in effect.iterrows():
        found.add("scheme_difference", r["difference"], group=r["system"],
                  ci=(r["jackknife_ci_low"], r["jackknife_ci_high"]))
        found.add("scheme_percentile", r["difference"], group=r["system"],
                  ci=(r["cluster_ci_low"], r["cluster_ci_high"]))
    clear = effect[_excludes_zero(effect["jackknife_ci_low"], effect["jackknife_ci_high"])]
    found.add("scheme_clear", len(clear), text=", ".join(clear["system"]))
    _kappa_rows(found, scheme_effect, "jackknife_")

    found.add("first", text=first).add("second", text=second)
    for _, r in bias.iterrows():
        p = r["p_cluster_permutation"]
        (found.add("second_higher", r[f"share_{second}_higher"], group=r["system"])  # percent, as in the table
         .add("first_higher", r[f"share_{first}_higher"], group=r["system"])
         .add("bias", r["mean_difference"], group=r["system"], p=p)
         .add("wilcoxon", p=r["p_value"], text="Wilcoxon", group=r["system"])
         .add("systematic", p < 0.05, group=r["system"]))
    return found.frame()


# --------------------------------------------------------------------------- chapter 2


@dataclass(frozen=True)
class DirectionsSetup:
    """Chapter 2's checked parameters."""

    en_zh: dict | list | None
    zh_en: dict | list | None
    pos_overrides: dict
    n_perm: int
    n_boot: int
    seed: int
    unfinished: str
    projection: bool | None = None  # students shown as codes (see PilotV1Setup)
    results_dir: str = "results"

    def load(self) -> tuple[pd.DataFrame, Provenance]:
        """Both directions in one tidy frame with ``direction`` and ``pos_class``."""
        released = self.en_zh is None and self.zh_en is None
        en_zh = release.pilot_v1_files() if self.en_zh is None else self.en_zh
        zh_en = {"ZH1": release.pilot_zh_en_file()} if self.zh_en is None else self.zh_en
        parts = {d: load.load_class(f, unfinished=self.unfinished) for d, f in (("EN→ZH", en_zh), ("ZH→EN", zh_en))}
        students = [p for p in parts.values() if p.named_by_field or self.projection]  # not the released annotators
        coded = classroom.projection(self.projection, bool(students), [n for p in students for n in p.names()],
                                     self.results_dir, [f for p in students for f in p.files])  # one code per student
        parts = {d: p.projected(coded) for d, p in parts.items()}
        tidy = pd.concat([p.tidy.assign(direction=d) for d, p in parts.items()], ignore_index=True)
        tidy = normalise_pos(tidy, self.pos_overrides)
        files = coded.paths(f for spec in (en_zh, zh_en) for f in (spec.values() if isinstance(spec, dict) else spec))
        kind = "released" if released else "own"
        detail = RELEASED_DETAIL if released else OWN_DETAIL
        if not released and (self.en_zh is None or self.zh_en is None):
            detail = "Your annotations for one direction, the released workbooks for the other."
        notes = [f"{d}: {n}" for d, p in parts.items() for n in p.notes]
        return tidy, Provenance(kind, files, _class_note(detail, notes))


def directions_setup(en_zh_files=None, zh_en_files=None, pos_overrides={}, n_perm=10000, n_boot=2000, seed=2026,
                     results_dir="results", unfinished="stop", projection=None) -> DirectionsSetup:
    """Check chapter 2's parameters (defaults as in the notebook's parameters cell; ``pos_overrides``
    is only read, never changed; ``projection`` as in :func:`pilot_v1_setup`)."""
    en_zh = None if en_zh_files is None else _workbooks("en_zh_files", en_zh_files, minimum=1)
    zh_en = None if zh_en_files is None else _workbooks("zh_en_files", zh_en_files, minimum=1)
    overrides = pos_overrides or {}
    if not isinstance(overrides, dict):
        raise InputError("must be a mapping {item id: class}", parameter="pos_overrides", value=overrides)
    allowed = ("noun", "verb", "adjective-adverb", "other")
    for item, cls in overrides.items():
        if cls not in allowed:
            raise InputError(f"class of item {item!r} is not a POS class", parameter="pos_overrides", value=cls,
                             expected=" or ".join(allowed))
    params.text("results_dir", str(results_dir))
    return DirectionsSetup(en_zh, zh_en, dict(overrides), params.integer("n_perm", n_perm, minimum=100),
                           params.integer("n_boot", n_boot, minimum=100), params.integer("seed", seed),
                           classroom.unfinished_choice(unfinished), _projection(projection), str(results_dir))


def _pilot(direction, annotator) -> dict:
    """The group and columns naming one pilot (direction, annotator) in a findings frame."""
    return {"group": f"{direction} · {annotator}", "direction": direction, "annotator": annotator}


def profile_summary(profile: pd.DataFrame) -> pd.DataFrame:
    """Per direction and annotator (section ``profile``): the systems penalised most and
    least (mean penalty per metaphor, share of metaphors with an error) and the largest
    category (its share of all penalty points)."""
    from .scoring import profile_categories

    found = Findings()
    for (direction, annotator), g in profile.groupby(["direction", "annotator"], sort=False):
        g = g.sort_values("mean_penalty", ascending=False)
        worst, best = g.iloc[0], g.iloc[-1]
        top = g[profile_categories(profile)].sum()
        pilot = _pilot(direction, annotator)
        (found.add("worst", worst["mean_penalty"], text=worst["system"], with_error=worst["items_with_error"], **pilot)
         .add("best", best["mean_penalty"], text=best["system"], with_error=best["items_with_error"], **pilot)
         .add("top_category", top.max() / top.sum(), text=top.idxmax(), **pilot))
    return found.frame()


#: Chapter 2's verdict on a pair of systems (``verdict`` of :func:`helpers.core.stats.compare_pairs`).
VERDICT_FLAGS = {"difference": "is_difference", "suggestive, not significant after Holm": "is_suggestive",
                 "no evidence": "no_evidence"}


def comparison_summary(comparison: pd.DataFrame) -> pd.DataFrame:
    """Per compared pair of systems (section ``comparison``): the difference with both
    intervals by sentence (percentile bootstrap and cluster-robust t with G − 1 degrees of
    freedom), each at 95 % and family-wise, the verdict read on the sentence-cluster test
    with Holm (flags ``is_difference``, ``is_suggestive``, ``no_evidence``) and the
    cluster-level minimum detectable difference; then the pairs whose simultaneous
    percentile interval excludes 0 where the t interval does not."""
    m = _pairs(comparison)
    found = Findings().add("family_level", 1 - 0.05 / m).add("pairs", m)
    for k, r in comparison.iterrows():
        row = {"group": f"{r['direction']} · {r['annotator']} · {r['system_a']} − {r['system_b']}",
               "direction": r["direction"], "annotator": r["annotator"], "pair": f"{r['system_a']} − {r['system_b']}"}
        (found.add("difference", r["mean_difference"], ci=(r["cluster_t_ci_low"], r["cluster_t_ci_high"]),
                   p=r["p_cluster_permutation"], **row)
         .add("percentile", r["mean_difference"], ci=(r["cluster_ci_low"], r["cluster_ci_high"]), **row)
         .add("family_t", r["mean_difference"], ci=(r["family_t_ci_low"], r["family_t_ci_high"]), **row)
         .add("family_percentile", r["mean_difference"], ci=(r["family_ci_low"], r["family_ci_high"]), **row)
         .add("holm", p=r["p_cluster_holm"], text="Holm", **row)
         .add("sentences", r["n_clusters"], **row).add("mdd", r["cluster_mdd_80_adjusted"], **row))
        for verdict, flag in VERDICT_FLAGS.items():
            found.add(flag, r["verdict"] == verdict, **row)
    found.add("n_items", text=_span(comparison["n_items"].min(), comparison["n_items"].max()),
              ci=(comparison["n_items"].min(), comparison["n_items"].max()))
    found.add("n_clusters", text=_span(comparison["n_clusters"].min(), comparison["n_clusters"].max()),
              ci=(comparison["n_clusters"].min(), comparison["n_clusters"].max()))
    disagree = comparison[_excludes_zero(comparison["family_ci_low"], comparison["family_ci_high"])
                          & (comparison["family_t_ci_low"] <= 0) & (comparison["family_t_ci_high"] >= 0)]
    found.add("t_disagrees", len(disagree), text="; ".join(
        f"{r['direction']} {r['annotator']} {r['system_a']} − {r['system_b']}" for _, r in disagree.iterrows()))
    return found.frame()


def segments_by_direction(tidy: pd.DataFrame) -> pd.DataFrame:
    """SEGS per (direction, item, system, annotator): the unit chapter 2 compares systems on."""
    segs = segment_scores(tidy.drop(columns="pos_class", errors="ignore"))
    return segs.merge(tidy.drop_duplicates(["item", "annotator"])[["item", "annotator", "direction"]],
                      on=["item", "annotator"])


def team_comparison(segs: pd.DataFrame, n_perm: int, n_boot: int, seed: int, data: str) -> pd.DataFrame:
    """The systems compared on each direction's team mean (:func:`~helpers.metahope.scoring.team_scores`),
    with sentence clusters and Holm as in the per-annotator comparison; ``data`` labels the rows."""
    team = team_scores(segs)
    out = stats.compare_pairs(team, value="SEGS", by=["direction", "annotator"], n_perm=n_perm, n_boot=n_boot,
                              seed=seed, clusters="sentence")
    return out.rename(columns={"annotator": "team"}).assign(data=data)


def pilot_team_comparison(n_perm: int, n_boot: int, seed: int) -> pd.DataFrame | None:
    """The released pilots' team comparison, to stand beside a class's (None when the
    released workbooks have not been fetched)."""
    try:
        released = DirectionsSetup(None, None, {}, n_perm, n_boot, seed, "stop").load()[0]
    except FileNotFoundError:
        return None
    return team_comparison(segments_by_direction(released), n_perm, n_boot, seed, "released pilot")


def team_summary(team: pd.DataFrame) -> pd.DataFrame:
    """Per data, direction and pair (section ``team``): the team's verdict, read on the
    sentence-cluster test with Holm (the same rule as the per-annotator verdicts)."""
    found = Findings()
    for _, r in team.iterrows():
        found.add("team_difference", r["mean_difference"], ci=(r["cluster_ci_low"], r["cluster_ci_high"]),
                  p=r["p_cluster_holm"], text=r["verdict"], group=f"{r['data']} · {r['direction']} · {r['team']} · "
                  f"{r['system_a']} − {r['system_b']}", data=r["data"], direction=r["direction"], team=r["team"],
                  pair=f"{r['system_a']} − {r['system_b']}")
    return found.frame()


def team_findings(team: pd.DataFrame, found: Findings) -> Findings:
    """The team verdicts of this run's data, added to chapter 2's findings: per direction the
    pairs tested and separated after Holm (``team_pairs``, ``team_separated``), and each
    separated pair's difference (``team_hit``)."""
    own = team[team["data"] == "this run"]
    for direction, g in own.groupby("direction", sort=False):
        hits = g[g["verdict"] == "difference"]
        (found.add("team_pairs", len(g), group=direction, team=g["team"].iloc[0])
         .add("team_separated", len(hits), group=direction, team=g["team"].iloc[0]))
        for _, r in hits.iterrows():
            found.add("team_hit", r["mean_difference"], group=f"{direction} · {r['system_a']} − {r['system_b']}",
                      direction=direction, pair=f"{r['system_a']} − {r['system_b']}")
    if not (own["verdict"] == "difference").any():
        found.add("team_hit")
    return found


#: How chapter 2 names a measure of :func:`helpers.metahope.corpus.type_comparison`.
TYPE_MEASURES = {"error_rate": "share of ratings with an error", "penalty": "mean penalty per metaphor"}


def _sentences(n: int) -> str:
    return f"{n} sentence" if n == 1 else f"{n} sentences"


def types_summary(types: pd.DataFrame, by_type: pd.DataFrame) -> pd.DataFrame:
    """Metaphor types (section ``types``): per direction how many annotated metaphors found
    their corpus row (and which did not); per contrast and measure of ``by_type``
    (:func:`helpers.metahope.corpus.type_comparison`) the difference with its sentence-cluster
    interval and minimum detectable difference, or ``no_interval`` when a side comes from one
    sentence."""
    found = Findings()
    for direction, g in types.groupby("direction", sort=False):
        missed = g[~g["matched"]]
        found.add("matched", int(g["matched"].sum()), group=direction, direction=direction, items=len(g),
                  text="; ".join(f"{r['metaphor']} ({r['item']}: {r['note']})" for _, r in missed.iterrows()))
        found.add("unmatched", len(missed), group=direction, direction=direction)
        found.add("id_wrong", int((g["matched"] & ~g["id_agrees"].fillna(True).astype(bool)).sum()), group=direction,
                  direction=direction)
    for _, r in by_type.iterrows():
        row = {"group": f"{r['direction']} · {r['group_a']} vs {r['group_b']} · {r['measure']}",
               "direction": r["direction"], "contrast": f"{r['group_a']} ({r['n_a']} metaphors in "
               f"{_sentences(r['sentences_a'])}) vs {r['group_b']} ({r['n_b']} in {_sentences(r['sentences_b'])})",
               "measure": TYPE_MEASURES[r["measure"]]}
        scale = 100 if r["measure"] == "error_rate" else 1
        found.add("type_difference", r["difference"] * scale, ci=(r["ci_low"] * scale, r["ci_high"] * scale),
                  unit=" points" if scale == 100 else "", **row)
        found.add("type_mdd", r["mdd_80"] * scale, **row)
        found.add("no_interval", bool(pd.isna(r["ci_low"])), **row)
    excluding = int(_excludes_zero(by_type["ci_low"], by_type["ci_high"]).sum()) if len(by_type) else 0
    found.add("excluding", excluding).add("with_interval", int(by_type["ci_low"].notna().sum()) if len(by_type) else 0)
    found.add("no_contrast", by_type.empty)
    if by_type.empty:
        found.add("type_difference").add("type_mdd").add("no_interval")
    return found.frame()


def _pairs(comparison: pd.DataFrame) -> int:
    return int(comparison.groupby(["direction", "annotator"]).size().max())


def directions_findings(profile: pd.DataFrame, by_pos: pd.DataFrame, comparison: pd.DataFrame,
                        team: pd.DataFrame) -> pd.DataFrame:
    """Chapter 2's findings (section ``findings``), each computed from this run's tables."""
    from .scoring import profile_categories

    found = Findings()
    for (direction, annotator), g in profile.groupby(["direction", "annotator"], sort=False):
        g = g.sort_values("mean_penalty", ascending=False)
        top = g[profile_categories(profile)].sum()
        pilot = _pilot(direction, annotator)
        (found.add("highest", g.iloc[0]["mean_penalty"], text=g.iloc[0]["system"], **pilot)
         .add("lowest", g.iloc[-1]["mean_penalty"], text=g.iloc[-1]["system"], **pilot)
         .add("top_share", top.max() / top.sum(), text=top.idxmax(), **pilot))
    counts = comparison["verdict"].value_counts()
    mdd = comparison["cluster_mdd_80_adjusted"]
    (found.add("pairs", _pairs(comparison)).add("comparisons", len(comparison))
     .add("differences", counts.get("difference", 0))
     .add("suggestive", counts.get("suggestive, not significant after Holm", 0))
     .add("no_evidence", counts.get("no evidence", 0)).add("mdd", mdd.min(), ci=(mdd.min(), mdd.max())))
    widen_t = ((comparison["family_t_ci_high"] - comparison["family_t_ci_low"])
               / (comparison["family_ci_high"] - comparison["family_ci_low"]))
    g_low, g_high = comparison["n_clusters"].min(), comparison["n_clusters"].max()
    (found.add("few", g_low < FEW_CLUSTERS)
     .add("n_clusters", text=_span(g_low, g_high), ci=(g_low, g_high))
     .add("t_widening", widen_t.min(), ci=(widen_t.min(), widen_t.max()))
     .add("percentile_exclude", int(_excludes_zero(comparison["family_ci_low"], comparison["family_ci_high"]).sum()))
     .add("t_exclude", int(_excludes_zero(comparison["family_t_ci_low"], comparison["family_t_ci_high"]).sum())))
    widen = ((comparison["cluster_ci_high"] - comparison["cluster_ci_low"])
             / (comparison["ci_high"] - comparison["ci_low"]))
    (found.add("widening", widen.median(), ci=(widen.min(), widen.max()))
     .add("understated", widen.median() > 1))
    found.add("small_cells", int((by_pos["n_items"] < 10).sum())).add("cells", len(by_pos))
    return team_findings(team, found).frame()
