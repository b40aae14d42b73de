"""Chapter 1 (MetaHOPE pilot v1, EN→ZH): checked parameters, data with provenance, findings.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks every
parameter before any work (types, files that exist, their headers, annotator names, enough
annotators) and raises :class:`~helpers.core.errors.InputError` naming the parameter, the
file, sheet, row, column, cell and value. ``setup.load(words)`` returns :class:`Data`: the
annotations of the two annotators compared, the penalty annotator's sentence-level sheet and
their :class:`~helpers.core.book.report.Provenance`. :func:`description` is the chapter's
``data_summary.csv``; the analysis is :mod:`helpers.metahope.scoring` and
:mod:`helpers.core.statistics.agreement`, called by the notebook. :func:`findings` reads the saved tables
back by their public names (:data:`FINDINGS_INPUTS`) and returns every number the page states,
so the findings can be recomputed and tested from ``results/01_metahope_pilot_v1/*.csv``
alone; the sentences are ``notebooks/words/01_metahope_pilot_v1.md`` (and the shared
``metahope.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

import pandas as pd

from ..core import classroom, params
from ..core.book.findings import Findings
from ..core.book.report import ChapterData, Provenance, data_note
from ..core.book.results import read_saved
from ..core.errors import InputError
from ..core.formats.published import compare_with_published, read_published
from . import load, release, tidy_frame, workbooks
from .chapter_common import (
    OWN_DETAIL,
    RELEASED_DETAIL,
    WORKBOOK,
    _annotation_file,
    _bool_or_none,
    _class_note,
    _excludes_zero,
    _is_annotation_file,
    _names,
    _projection,
    _said,
    _workbooks,
    few_clusters,
    mqm_description,
)
from .scoring import count_sentences

CHAPTER = "01_metahope_pilot_v1"  # its words: notebooks/words/01_metahope_pilot_v1.md
#: The published tables of the pilot (``data/published/metahope_pilot_v1/``).
STUDY = "metahope_pilot_v1"
#: The paper's tables this run is compared with: ``(name, result CSV, key columns)``.
PUBLISHED_TABLES = (
    ("Table 1", "table1_agreement", ["system"]),
    ("Table 2", "table2_sentence_penalties", ["system"]),
    ("Table 3", "table3_metaphor_penalties", ["system"]),
    ("Table 6", "table6_per_error_agreement", ["system", "error"]),
)


@dataclass(frozen=True)
class Data(ChapterData):
    tidy: pd.DataFrame = None  # metaphor-level annotations of the two annotators compared
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
class Setup:
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

    def load(self, words=None) -> Data:
        """The annotations of the two annotators compared, with their provenance; the data
        box's sentences come from ``words`` (the chapter's :class:`~helpers.core.book.findings.Words`;
        None: read afresh)."""
        if isinstance(self.files, Path):
            return self._load_file(words)
        files = release.pilot_v1_files() if self.released else self.files
        loaded = load.load_class(files, unfinished=self.unfinished)
        if len(loaded.students) < 2:
            raise InputError(
                f"only {len(loaded.students)} annotator is left once the unfinished sheets are left "
                "out; agreement needs two",
                parameter="annotator_files",
                value=list(loaded.students),
            )
        pair_tidy, pair = tidy_frame.two_raters(loaded.tidy, self.raters)
        penalty = self.penalty_annotator or pair[0]
        if penalty not in pair:
            raise InputError(
                "was left out (unfinished sheet)"
                if penalty in loaded.dropped_students
                else "is not one of the two annotators compared",
                parameter="penalty_annotator",
                value=penalty,
                expected=" or ".join(pair),
            )
        loaded, coded = loaded.for_page(self.projection, self.results_dir)
        tidy = coded.column(pair_tidy, "annotator")
        sentences = (
            load.load_class({penalty: self.sentence_file}, unfinished=self.unfinished).tidy
            if self.sentence_file
            else None
        )
        if sentences is not None:
            sentences = coded.column(sentences, "annotator")
        shown = list(files.values() if isinstance(files, dict) else files) + (
            [self.sentence_file] if self.sentence_file else []
        )
        if self.released:
            provenance = Provenance("released", coded.paths(shown), RELEASED_DETAIL)
        else:
            detail = (
                _class_note(OWN_DETAIL, loaded.notes)
                + " "
                + _pair_note(
                    words,
                    tidy,
                    list(coded.names(pair)),
                    coded.name(penalty),
                    self.raters is not None,
                    list(loaded.students),
                    workbooks=True,
                )
            )
            provenance = Provenance("own", coded.paths(shown), detail)
        return Data(provenance, tidy, sentences, self.compare_published, loaded, coded.name(penalty))

    def _load_file(self, words=None) -> Data:
        """One long ``.csv`` or MQM file: the two raters compared on the units both rated."""
        loaded = load.load_class(self.files)
        tidy, pair = tidy_frame.two_raters(loaded.tidy, self.raters)
        penalty = self.penalty_annotator or pair[0]
        params.member("penalty_annotator", penalty, pair, "two raters compared")
        loaded, coded = loaded.for_page(self.projection, self.results_dir)  # raters coded only when asked for
        tidy, pair, penalty = coded.column(tidy, "annotator"), list(coded.names(pair)), coded.name(penalty)
        detail = OWN_DETAIL
        if loaded.foreign:
            detail += " " + _said(words, CHAPTER, "mqm", mqm_description(loaded))
        detail += " " + _pair_note(
            words,
            tidy,
            pair,
            penalty,
            self.raters is not None,
            list(loaded.tidy["annotator"].unique()),
            workbooks=False,
        )
        return Data(
            Provenance("own", (str(self.files),), detail),
            tidy,
            None,
            False,
            load.ClassAnnotations(tidy, annotations=loaded.annotations),
            penalty,
        )


def _pair_note(
    words, tidy: pd.DataFrame, pair: list[str], penalty: str, given: bool, annotators: list[str], workbooks: bool
) -> str:
    """The data box's sentence (section ``two_raters`` of chapter 1) on the two annotators
    compared: who, how they were chosen (``raters`` given; else the first two of a class's
    workbooks, or the pair of an annotation file that shares the most units), on how many
    units, whose sheet gives the penalty tables, and, when the data hold more than two
    annotators (``annotators``, all of them), how to compare another pair."""
    others = [a for a in annotators if a not in pair]
    return _said(
        words,
        CHAPTER,
        "two_raters",
        Findings()
        .add("first", text=escape(pair[0]))
        .add("second", text=escape(pair[1]))
        .add("given", given)
        .add("first_two", not given and workbooks)
        .add("most_shared", not given and not workbooks)
        .add("units", len(tidy.drop_duplicates(["item", "system"])))
        .add("items", text="metaphor" if tidy_frame.is_metahope(tidy) else "segment")
        .add("penalty", text=escape(penalty))
        .add("annotators", len(annotators))
        .add("others", bool(others))
        .add("other", text=escape(others[0]) if others else "")
        .frame(),
    )


def setup(
    annotator_files=None,
    sentence_level_file=None,
    penalty_annotator=None,
    n_sentences=20,
    n_boot=2000,
    seed=2026,
    results_dir="results",
    compare_published=None,
    unfinished="stop",
    raters=None,
    projection=None,
) -> Setup:
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
        raise InputError("must name two annotators", parameter="raters", value=raters, expected="[name, name] or None")
    if _is_annotation_file(annotator_files):
        path, found = _annotation_file("annotator_files", annotator_files, minimum=2)
        for r in raters or ():
            params.member("raters", str(r), found, "raters of the file")
        if penalty_annotator is not None:
            params.member("penalty_annotator", penalty_annotator, list(raters) if raters else found, "raters")
        if sentence_level_file not in (None, ""):
            raise InputError(
                "has no counterpart for an annotation file (its items are whole segments)",
                parameter="sentence_level_file",
                value=sentence_level_file,
                expected="None",
            )
        if compare_published:
            raise InputError(
                "the paper's tables describe the released MetaHOPE sheets, not this file",
                parameter="compare_published",
                value=compare_published,
                expected="None or False",
            )
        params.text("results_dir", str(results_dir))
        return Setup(
            path,
            classroom.unfinished_choice(unfinished),
            None,
            penalty_annotator,
            None,
            params.integer("n_boot", n_boot, minimum=100),
            params.integer("seed", seed),
            False,
            [str(r) for r in raters] if raters else None,
            _projection(projection),
            str(results_dir),
        )
    files = None if annotator_files is None else _workbooks("annotator_files", annotator_files, minimum=2)
    annotators = ["A", "B"] if files is None else _names(files)
    if raters and files is not None:  # codes a projected page showed name their students in the key
        raters = classroom.uncoded(raters, results_dir)
    for r in raters or ():
        params.member("raters", str(r), annotators, "annotators")
    if penalty_annotator is None and files is None:
        penalty_annotator = "A"  # the released sentence-level sheet (EPS) is A's
    if penalty_annotator is not None:
        params.member(
            "penalty_annotator",
            penalty_annotator,
            [str(r) for r in raters] if raters else annotators,
            "two annotators compared" if raters else "annotators",
        )
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
    return Setup(
        files,
        classroom.unfinished_choice(unfinished),
        sentence_file,
        penalty_annotator,
        n_sentences,
        params.integer("n_boot", n_boot, minimum=100),
        params.integer("seed", seed),
        files is None if compare is None else compare,
        [str(r) for r in raters] if raters else None,
        projection=_projection(projection),
        results_dir=str(results_dir),
    )


def description(box: Data, setup: Setup) -> pd.DataFrame:
    """What chapter 1 reads, one table (``data_summary.csv``): ``quantity, value, text``.

    ``n_items`` items (metaphor-related words, or a file's segments: ``metahope``), in
    ``counted`` distinct source sentences; ``n_sentences`` the per-sentence denominator given
    (NA: the counted one); the ``systems`` and ``annotators`` (``first`` and ``second``, in
    the order the tables name them); whose sheet gives the penalty tables; whether the data
    are the released sheets and are compared with the paper's tables."""
    tidy = box.tidy
    annotators = list(map(str, tidy["annotator"].unique()))
    systems = list(map(str, tidy["system"].unique()))
    rows = [
        ("n_items", tidy["item"].nunique(), ""),
        ("counted", count_sentences(tidy), ""),
        ("n_sentences", setup.n_sentences, ""),
        ("metahope", int(box.metahope), ""),
        ("systems", len(systems), ", ".join(systems)),
        ("annotators", len(annotators), ", ".join(annotators)),
        ("first", None, annotators[0]),
        ("second", None, annotators[1]),
        ("penalty_annotator", None, box.penalty_annotator),
        ("released", int(setup.released), ""),
        ("compare_published", int(box.compare_published), ""),
    ]
    return pd.DataFrame(rows, columns=["quantity", "value", "text"])


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


def sentence_count_note(words, folder):
    """The data box (section ``sentence_count``) saying what "per sentence" divides by, or None
    when it divides by the counted sentences (``n_sentences`` not given, or equal to them)."""
    found = findings(folder)
    value = found.set_index("quantity")["value"]
    if pd.isna(value["n_sentences"]) or value["n_sentences"] == value["counted"]:
        return None
    return data_note("released" if value["released"] else "own", [], words.say("sentence_count", found).data)


# --------------------------------------------------------------------------- findings
#: The result files :func:`findings` reads (``results/01_metahope_pilot_v1/<name>.csv``).
FINDINGS_INPUTS = (
    "data_summary",
    "table1_agreement",
    "table2_sentence_penalties",
    "table3_metaphor_penalties",
    "table6_per_error_agreement",
    "ratio_m_s_by_sentence",
    "ratio_m_s_excess",
    "table1_bootstrap_ci",
    "weighting_scheme_agreement",
    "severity_bias",
)


def findings(folder) -> pd.DataFrame:
    """Chapter 1's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone.

    Every number the page states, one quantity each (per system where it varies): the data
    (``n_items``, ``counted``, ...), the reproduction of the paper's tables (``reproduced``,
    recomputed against ``data/published/metahope_pilot_v1``), Ratio (M/S) (``ratio``), the few
    clusters (``clusters``, ``few``), linear against exponential weights (``difference``,
    ``kappa``) and the severity bias (``bias``). A quantity whose table is not saved (yet, or
    in this run) is not applicable, and its sentence drops out of the words.

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS` plus extra columns some quantities use.
    """
    t = {name: read_saved(folder, name) for name in FINDINGS_INPUTS}
    d = t["data_summary"].set_index("quantity") if not t["data_summary"].empty else pd.DataFrame()

    def info(q, col="value"):
        return d.loc[q, col] if q in d.index and pd.notna(d.loc[q, col]) else None

    found = Findings()
    metahope = info("metahope")
    items = None if metahope is None else "metaphors" if metahope else "segments"
    n_sentences, counted = info("n_sentences"), info("counted")
    (
        found.add("n_items", info("n_items"))
        .add("metaphors", metahope)
        .add("counted", counted)
        .add("n_sentences", n_sentences)
        .add("denominator", n_sentences or counted)
        .add("released", info("released"))
        .add("systems", text=info("systems", "text"))
        .add("annotators", text=info("annotators", "text"))
        .add("first", text=info("first", "text"))
        .add("second", text=info("second", "text"))
    )
    _reproduction(found, t, bool(info("compare_published")))
    _ratio(found, t["ratio_m_s_by_sentence"], bool(info("compare_published")))
    _excess(found, t["ratio_m_s_excess"])
    few_clusters(found, [] if counted is None else [counted], unit="sentences", items=items)
    _agreement_widths(found, t["table1_bootstrap_ci"])
    _weighting(found, t["weighting_scheme_agreement"])
    _bias(found, t["severity_bias"], info("first", "text"), info("second", "text"))
    return found.frame()


def _reproduction(found: Findings, t: dict, compare: bool) -> None:
    """Per published table (``group``): its cells reproduced to the printed precision."""
    compared = 0
    for name, table, keys in PUBLISHED_TABLES if compare else ():
        if t[table].empty:
            continue
        c = compare_with_published(t[table], read_published(STUDY, table), keys)
        found.add(
            "reproduced",
            int(c["match"].sum()),
            group=name,
            cells=len(c),
            differing=", ".join(c.loc[~c["match"], "column"].unique()),
        )
        found.add("all_match", bool(c["match"].all()), group=name)
        compared += 1
    found.add("compared", compared if compared or not t["data_summary"].empty else None)  # no data: not applicable
    if not compared:
        found.add("reproduced").add("all_match")


def _ratio(found: Findings, ratios: pd.DataFrame, compare: bool) -> None:
    """What Ratio (M/S) is and how sure it is (section ``ratio``), from
    :func:`~helpers.metahope.scoring.ratio_m_s`: the cells where the metaphors carry more
    points than the sentences (``cell_epm``, ``cell_eps`` per "system category"), per system
    the ratio on SEGS with its jackknife t interval by sentence (``ratio``;
    ``ratio_percentile`` beside it), the penalised sentences and on how many of them either
    sheet carries more, the paper's ratio (its Table 3) when ``compare``, and the span of the
    intervals over the systems (``span``)."""
    if ratios.empty:
        for q in (
            "exceeds",
            "cell_epm",
            "cell_eps",
            "ratio",
            "ratio_percentile",
            "penalised",
            "metaphor_higher",
            "sentence_higher",
            "published",
            "sentences",
            "span",
        ):
            found.add(q)
        return
    cells = ratios[(ratios["category"] != "SEGS") & ratios["epm_exceeds_eps"]]
    found.add("exceeds", len(cells) > 0)
    for _, r in cells.iterrows():
        group = f"{r['system']} {r['category']}"
        found.add("cell_epm", r["epm"], group=group).add("cell_eps", r["eps"], group=group)
    if cells.empty:
        found.add("cell_epm").add("cell_eps")
    total = ratios[ratios["category"] == "SEGS"]
    paper = (
        read_published(STUDY, "table3_metaphor_penalties").set_index("system")["ratio_m_s"].astype(float)
        if compare
        else None
    )
    for _, r in total.iterrows():
        g = r["system"]
        (
            found.add("ratio", r["ratio_m_s"], ci=(r["jackknife_ci_low"], r["jackknife_ci_high"]), group=g)
            .add("ratio_percentile", r["ratio_m_s"], ci=(r["ci_low"], r["ci_high"]), group=g)
            .add("penalised", r["sentences_penalised"], group=g)
            .add("metaphor_higher", r["sentences_metaphor_higher"], group=g)
            .add("sentence_higher", r["sentences_sentence_higher"], group=g)
            .add("published", None if paper is None else paper.get(g), group=g)
        )
    low, high = total["jackknife_ci_low"].min(), total["jackknife_ci_high"].max()
    found.add("sentences", total["n_sentences"].max() if len(total) else None).add("span", high - low, ci=(low, high))


def _excess(found: Findings, excess: pd.DataFrame) -> None:
    """Why the metaphors carry more points than the sentences (section ``ratio``), from
    :func:`~helpers.metahope.scoring.metaphor_excess`: per sentence of each such cell
    (``excess``, group "system category: sentence"; its ``epm``, ``eps``, ``metaphors``
    penalised, the cause key as text) and whether any excess comes from points on several
    metaphors (``several_metaphors``, the count of such sentences)."""
    if excess.empty:
        found.add("excess").add("several_metaphors")
        return
    for _, r in excess.iterrows():
        found.add(
            "excess",
            r["excess"],
            group=f"{r['system']} {r['category']}, “{r['sentence']}”",
            text=r["cause"],
            epm=r["epm"],
            eps=r["eps"],
            metaphors=r["metaphors_penalised"],
        )
    found.add("several_metaphors", int((excess["cause"] == "several_metaphors").sum()))


def _agreement_widths(found: Findings, table1_ci: pd.DataFrame) -> None:
    """How wide the intervals of α on SEGS are, resampling items, sentences (percentile) and by
    the jackknife t (``item_width``, ``cluster_width``, ``t_width``: the narrowest, with the
    range over the systems as the interval), against the spread of α between systems."""
    if table1_ci.empty:
        found.add("item_width").add("cluster_width").add("t_width").add("spread").add("cannot_rank")
        return
    alpha = table1_ci[table1_ci["metric"] == "alpha"]
    widths = {
        "item": alpha["ci_high"] - alpha["ci_low"],
        "cluster": alpha["cluster_ci_high"] - alpha["cluster_ci_low"],
        "t": alpha["jackknife_ci_high"] - alpha["jackknife_ci_low"],
    }
    for name, w in widths.items():
        found.add(f"{name}_width", w.min(), ci=(w.min(), w.max()))
    spread = alpha["estimate"].max() - alpha["estimate"].min()
    narrowest = min(widths["cluster"].min(), widths["t"].min())
    found.add("spread", spread).add("cannot_rank", narrowest > spread)


def _weighting(found: Findings, scheme_effect: pd.DataFrame) -> None:
    """Per system (sections ``weighting`` and ``findings``): is α on SEGS higher with linear or
    exponential weights? Read on the jackknife t interval by sentence when there is one (it
    holds with few clusters; ``percentile`` is the interval beside it), else on the percentile
    interval; the verdict key (``difference``'s text: ``linear``, ``exponential``, ``neither``)
    is phrased by the words' verdicts table. Then κ per system where its interval excludes 0
    (``kappa``: κ ranks each scheme's values on their own scale, a caveat the words give)."""
    if scheme_effect.empty:
        for q in (
            "alpha_linear",
            "alpha_exponential",
            "difference",
            "percentile",
            "scheme_difference",
            "scheme_percentile",
            "scheme_clear",
            "kappa",
            "kappa_percentile",
            "kappa_clear",
        ):
            found.add(q)
        return
    nested = "jackknife_ci_low" in scheme_effect
    read = "jackknife_" if nested else ""
    effect = scheme_effect[scheme_effect["metric"] == "alpha"]
    for _, r in effect.iterrows():
        low, high = r[f"{read}ci_low"], r[f"{read}ci_high"]
        verdict = "linear" if low > 0 else "exponential" if high < 0 else "neither"
        (
            found.add("alpha_linear", r["linear (MetaHOPE)"], group=r["system"])
            .add("alpha_exponential", r["exponential (HOPE)"], group=r["system"])
            .add(
                "difference",
                r["difference"],
                group=r["system"],
                ci=(low, high),
                text=verdict,
                interval="jackknife t" if nested else "percentile",
            )
        )
        found.add(
            "percentile",
            r["difference"] if nested else None,
            group=r["system"],
            ci=(r["cluster_ci_low"], r["cluster_ci_high"]) if nested else None,
        )
        found.add("scheme_difference", r["difference"], group=r["system"], ci=(low, high))
        found.add(
            "scheme_percentile",
            r["difference"] if nested else None,
            group=r["system"],
            ci=(r["cluster_ci_low"], r["cluster_ci_high"]) if nested else None,
        )
    clear = effect[_excludes_zero(effect[f"{read}ci_low"], effect[f"{read}ci_high"])]
    found.add("scheme_clear", len(clear), text=", ".join(clear["system"]))
    k = scheme_effect[scheme_effect["metric"] == "weighted_kappa"]
    k = k[_excludes_zero(k[f"{read}ci_low"], k[f"{read}ci_high"])]
    for _, r in k.iterrows():
        found.add(
            "kappa",
            r["difference"],
            group=r["system"],
            ci=(r[f"{read}ci_low"], r[f"{read}ci_high"]),
            text="exponential" if r["difference"] < 0 else "linear",
            interval="jackknife t" if nested else "percentile",
        )
        found.add(
            "kappa_percentile",
            r["difference"] if nested else None,
            group=r["system"],
            ci=(r["cluster_ci_low"], r["cluster_ci_high"]) if nested else None,
        )
    if k.empty:
        found.add("kappa").add("kappa_percentile")
    found.add("kappa_clear", len(k))


def _bias(found: Findings, bias: pd.DataFrame, first: str | None, second: str | None) -> None:
    """Per system: who penalises more (``bias``: the mean difference, second − first, with the
    sentence sign-flip p; ``systematic`` when that p is below 0.05; the Wilcoxon p beside it).
    Without the data summary naming the two annotators, none applies."""
    if first is None or second is None:
        bias = bias.iloc[0:0]
    for _, r in bias.iterrows():
        p = r["p_cluster_permutation"]
        (
            found.add("second_higher", r[f"share_{second}_higher"], group=r["system"])  # percent, as in the table
            .add("first_higher", r[f"share_{first}_higher"], group=r["system"])
            .add("bias", r["mean_difference"], group=r["system"], p=p)
            .add("wilcoxon", p=r["p_value"], text="Wilcoxon", group=r["system"])
            .add("systematic", p < 0.05, group=r["system"])
        )
    if bias.empty:
        for q in ("second_higher", "first_higher", "bias", "wilcoxon", "systematic"):
            found.add(q)
