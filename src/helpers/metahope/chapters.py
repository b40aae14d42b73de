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

from dataclasses import dataclass, field
from html import escape
from pathlib import Path

import pandas as pd

from ..core import classroom, params, paths
from ..core.agreement import ALPHA_RELIABLE, ALPHA_TENTATIVE, alpha_reading
from ..core.errors import InputError, raise_all
from ..core.findings import Findings
from ..core.published import read_published
from ..core.report import ChapterData, Provenance
from ..core.stats import FEW_CLUSTERS
from . import io, simulate

WORKBOOK = (".xlsx", ".xlsm")
CHAPTER_1, CHAPTER_3 = "01_metahope_pilot_v1", "03_metahope_pilot_v2"  # their words: notebooks/words/<chapter>.md
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
            io.check_header(path)
        except InputError as exc:
            problems.append(exc.located(parameter=f"{name}[{label}]"))
    raise_all(problems)
    if not isinstance(files, dict):
        raise_all(e.located(parameter=name) for e in _naming(files).problems)
    return files


def _naming(files) -> classroom.ClassNames:
    """How :func:`helpers.metahope.io.load_class` will name the workbooks of a list (or folder)."""
    return classroom.name_students([(io.workbook_student(p), p) for p in files], io.KIT_PREFIX)


def _names(files) -> list[str]:
    """The annotators a :func:`_workbooks` result will be read as."""
    return list(files) if isinstance(files, dict) else list(_naming(files).names)


def _class_note(detail: str, notes) -> str:
    """The data box's text with what the run left out (students, items, files)."""
    if not notes:
        return detail
    return detail + " " + "; ".join(escape(n) for n in notes) + "."


def _annotation_spec(name: str, value, minimum: int):
    """A :func:`helpers.metahope.io.load_annotations` spec checked before loading: workbooks
    (a folder, a list or a mapping), or a long ``.csv`` / MQM ``.tsv`` with its columns and
    enough annotators."""
    if isinstance(value, (dict, list, tuple)) or classroom._is_dir(value):
        return _workbooks(name, value, minimum)
    return _annotation_file(name, value, minimum)[0]


def _is_annotation_file(value) -> bool:
    """Whether a parameter names one long ``.csv`` or MQM/Marot file (not workbooks)."""
    return (isinstance(value, (str, Path)) and not classroom._is_dir(value)
            and Path(str(value)).suffix.lower() in (".csv",) + io.MQM_SUFFIXES)


def _annotation_file(name: str, value, minimum: int) -> tuple[Path, list[str]]:
    """A long ``.csv`` (its columns checked) or an MQM/Marot file (read by the core reader),
    with its annotators, at least ``minimum`` of them."""
    path = params.existing_file(name, value, (".csv",) + io.MQM_SUFFIXES)
    if path.suffix.lower() == ".csv":
        params.csv_with_columns(name, path, io.LONG_COLUMNS)
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


def mqm_description(loaded: io.ClassAnnotations) -> pd.DataFrame:
    """What the data box says about a foreign MQM file (section ``mqm`` of chapters 1 and 3):
    what an item, a category and a severity are (:func:`helpers.metahope.io.from_mqm`), how
    missing raters and side-by-side pairings are handled. Names are HTML-escaped (the box is HTML)."""
    from ..core.annotations import split_pairing
    from ..core.schemes import load_scheme

    tidy = loaded.tidy
    scheme = load_scheme(loaded.scheme)
    per_unit = tidy.drop_duplicates(["item", "system", "annotator"]).groupby(["item", "system"]).size()
    paired = int((split_pairing(pd.Series(tidy["system"].unique()))["partner"] != "").sum())
    return (Findings().add("segments", tidy["item"].nunique())
            .add("categories", text=escape(", ".join(io.category_order(tidy))))
            .add("scheme", text=escape(str(loaded.scheme)))
            .add("levels", text=", ".join(f"{escape(r.name)} {r.weight:g}" for r in scheme.rules))
            .add("metahope_levels", loaded.scheme == io.MQM_SCHEME)
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


def _span(low, high) -> str:
    """``3`` or ``3–5``: a count that may vary."""
    return f"{low}" if low == high else f"{low}–{high}"


def _excludes_zero(low, high):
    return (low > 0) | (high < 0)


def few_clusters(found: Findings, n_clusters, unit: str = "sentences", items: str | None = "metaphors") -> Findings:
    """Whether a page shows a second, wider interval (section ``few_clusters`` of ``metahope.md``),
    added to ``found``: with fewer than :data:`~helpers.core.stats.FEW_CLUSTERS` clusters the
    percentile cluster bootstrap is too narrow (tests/core/test_stats.py measures its coverage with
    20 clusters against the t intervals'). ``n_clusters``: the counts of the comparisons (none: not
    applicable)."""
    counts = [int(n) for n in n_clusters]
    if not counts:
        return found.add("clusters").add("few").add("few_clusters", FEW_CLUSTERS).add("unit", text=unit).add(
            "items", text=items)
    low, high = min(counts), max(counts)
    return (found.add("clusters", low, ci=(low, high), text=_span(low, high))
            .add("few", low < FEW_CLUSTERS).add("few_clusters", FEW_CLUSTERS)
            .add("unit", text=unit).add("items", text=items))


# --------------------------------------------------------------------------- chapter 3


@dataclass(frozen=True)
class PilotV2Data(ChapterData):
    tidy: pd.DataFrame = None  # metaphor-level annotations
    sentences: pd.DataFrame | None = None  # sentence-level annotations, if any
    truth: pd.DataFrame | None = None  # the sheet the simulation takes as the truth
    panel: tuple = field(default_factory=tuple)  # the simulated annotators


@dataclass(frozen=True)
class PilotV2Setup:
    """Chapter 3's checked parameters."""

    annotations: object
    sentence_annotations: object
    unfinished: str
    truth_file: Path | None
    panel: tuple
    sentence_raters: int
    seed: int
    n_seeds: int = 10
    weights: str = io.MQM_SCHEME  # an MQM file's weighting scheme
    projection: bool | None = None  # students shown as codes (see PilotV1Setup)
    results_dir: str = "results"
    n_plan: int = 500  # imitated studies per size in the study plan (helpers.metahope.planning)

    @property
    def sweep_seeds(self) -> int:
        """Teams per sweep point (at most 5: the sweeps are 20 points)."""
        return min(self.n_seeds, 5)

    def load(self, words=None) -> PilotV2Data:
        """Own annotations when given, else the seeded simulation over the truth sheet; the
        data box's sentences come from ``words`` (the chapter's :class:`~helpers.core.findings.Words`;
        None: read afresh)."""
        if self.annotations is not None:
            loaded = io.load_class(self.annotations, unfinished=self.unfinished, scheme=self.weights)
            if self.weights != io.MQM_SCHEME and not loaded.foreign:
                raise InputError("weighs a foreign MQM file's severities; MetaHOPE annotations carry their own 0–10 "
                                 "levels", parameter="weights", value=self.weights, expected=repr(io.MQM_SCHEME))
            if len(loaded.students) < 2 and len(set(loaded.tidy["annotator"])) < 2:
                raise InputError(f"only {len(set(loaded.tidy['annotator']))} annotator is left once the unfinished "
                                 "sheets are left out; agreement needs two", parameter="annotations")
            per_unit = loaded.tidy.drop_duplicates(["item", "system", "annotator"]).groupby(["item", "system"]).size()
            if per_unit.max() < 2:
                raise InputError("no (item, system) is rated by two annotators or more (each segment has one rater), "
                                 "so there is no agreement to measure", parameter="annotations",
                                 file=io.annotation_files(self.annotations)[0],
                                 expected="a file in which some segments are rated by several raters")
            sentences = (io.load_class(self.sentence_annotations, unfinished=self.unfinished, scheme=self.weights)
                         if self.sentence_annotations is not None else None)
            both = [loaded] + ([sentences] if sentences else [])
            coded = classroom.projection(self.projection, any(p.named_by_field for p in both),
                                         [n for p in both for n in p.names()], self.results_dir,
                                         [f for p in both for f in p.files])  # one code per student
            loaded, sentences = loaded.projected(coded), sentences.projected(coded) if sentences else None
            files = coded.paths(io.annotation_files(self.annotations) + (
                io.annotation_files(self.sentence_annotations) if self.sentence_annotations is not None else []))
            notes = list(loaded.notes) + ([f"sentence level: {n}" for n in sentences.notes] if sentences else [])
            detail = _class_note(OWN_DETAIL, notes) + (
                " " + _said(words, CHAPTER_3, "mqm", mqm_description(loaded)) if loaded.foreign else "")
            return PilotV2Data(Provenance("own", tuple(map(str, files)), detail),
                               loaded.tidy, sentences.tidy if sentences else None)
        truth_path = self.truth_file or io.pilot_zh_en_file()
        truth = (io.read_workbook(truth_path, "truth") if truth_path.suffix.lower() in WORKBOOK
                 else io.load_annotations(truth_path))
        tidy = simulate.simulate_annotations(truth, self.panel, seed=self.seed)
        sentences = simulate.simulate_annotations(simulate.sentence_units(truth), self.panel[:self.sentence_raters],
                                                  seed=self.seed + 1)
        detail = _said(words, CHAPTER_3, "simulated", Findings()
                       .add("annotators", len(self.panel)).add("seed", self.seed)
                       .add("released_truth", self.truth_file is None).add("truth", text=truth_path.name).frame())
        return PilotV2Data(Provenance("simulated", (str(truth_path),), detail), tidy, sentences, truth, self.panel)


def pilot_v2_setup(annotations=None, sentence_annotations=None, truth_file=None, panel=None, sentence_raters=3,
                   seed=7, n_seeds=10, results_dir="results", unfinished="stop",
                   weights=io.MQM_SCHEME, projection=None, n_plan=500) -> PilotV2Setup:
    """Check chapter 3's parameters. ``n_plan`` is the number of imitated studies per size
    of the study plan (:func:`helpers.metahope.planning.study_plan`). ``weights`` is the weighting scheme that turns a foreign
    MQM file's severities into penalties (:func:`helpers.core.schemes.load_scheme`: a
    built-in name or a YAML file; :func:`helpers.metahope.io.from_mqm`); ``projection`` as
    in :func:`pilot_v1_setup`."""
    from ..core.schemes import load_scheme

    load_scheme(weights)  # a name that is neither built in nor a file is an error naming the parameter
    spec = None if annotations is None else _annotation_spec("annotations", annotations, minimum=2)
    sentence_spec = (None if sentence_annotations is None
                     else _annotation_spec("sentence_annotations", sentence_annotations, minimum=2))
    if spec is None and sentence_spec is not None:
        raise InputError("is given without metaphor-level annotations", parameter="sentence_annotations",
                         expected="also annotations, or neither (simulation)")
    truth = None
    if truth_file is not None:
        truth = params.existing_file("truth_file", truth_file, WORKBOOK + (".csv", ".tsv"))
        if truth.suffix.lower() in WORKBOOK:
            try:
                io.check_header(truth)
            except InputError as exc:
                raise exc.located(parameter="truth_file") from None
    team = simulate.panel_from_records(panel)
    raters = params.integer("sentence_raters", sentence_raters, minimum=2, maximum=len(team))
    params.text("results_dir", str(results_dir))
    return PilotV2Setup(spec, sentence_spec, classroom.unfinished_choice(unfinished), truth, team,
                        raters, params.integer("seed", seed), params.integer("n_seeds", n_seeds, minimum=2,
                                                                                   maximum=200), str(weights),
                        _projection(projection), str(results_dir), params.integer("n_plan", n_plan, minimum=20))


def pilot_v2_description(data: PilotV2Data) -> pd.DataFrame:
    """What chapter 3 reads (section ``data``): items (metaphors or segments), systems and
    annotators."""
    tidy = data.tidy
    return (Findings().add("items", tidy["item"].nunique())
            .add("units", text="metaphor items" if io.is_metahope(tidy) else "segments")
            .add("systems", tidy["system"].nunique()).add("annotators", tidy["annotator"].nunique(),
                                                          text=", ".join(map(str, tidy["annotator"].unique())))
            .frame())


def _released_unit(item: str, system: str) -> pd.DataFrame | None:
    """The rows (one per category) of one unit of the released ZH→EN sheet; None when that file
    has not been fetched (an own-data run needs no released file)."""
    path = paths.raw_data_dir() / io.METAHOPE_REPO.replace("/", "__") / io.PILOT_ZH_EN_FILE
    if not path.exists():
        return None
    sheet = io.read_workbook(path, "released")
    return sheet[(sheet["item"] == item) & (sheet["system"] == system)]


def released_disagreement_item(item: str = "news_01_v.4_10_17", system: str = "Hunyuan-LLM-7B") -> pd.Series | None:
    """Source sentence, metaphor and translation of the Table 12 item from the released ZH→EN
    sheet, or None when that file has not been fetched (an own-data run needs no released file)."""
    rows = _released_unit(item, system)
    return rows.iloc[0] if rows is not None and len(rows) else None


def released_against_table12(table12: pd.DataFrame, item: str = "news_01_v.4_10_17",
                             system: str = "Hunyuan-LLM-7B") -> pd.DataFrame:
    """Whose scores the released ZH→EN sheet holds for the Table 12 unit (section ``example``):
    its scores (``released_scores``: the total, the non-zero categories as text) and the
    annotators of Table 12 (one row per annotator, columns IMP … PRF) whose five scores are
    the same (``released_matches``: their number, their names or "none"; ``released_unmatched``
    when there is none). Not applicable when
    the sheet has not been fetched. The sheet names no annotator and the paper does not say
    where it comes from; on the released data it matches none of the five."""
    rows = _released_unit(item, system)
    found = Findings().add("paper_annotators", len(table12))
    if rows is None or rows.empty:
        return found.add("released_scores").add("released_matches").add("released_unmatched").frame()
    released = rows.set_index("category")["severity"].reindex(list(io.CATEGORIES), fill_value=0).astype(int)
    scores = table12.set_index("annotator")[list(io.CATEGORIES)].astype(int)
    same = [str(a) for a, r in scores.iterrows() if (r == released).all()]
    shown = ", ".join(f"{c} {v}" for c, v in released.items() if v) or "no error"
    return (found.add("released_scores", int(released.sum()), text=shown)
            .add("released_matches", len(same), text=", ".join(same) or "none")
            .add("released_unmatched", not same).frame())


@dataclass(frozen=True)
class DisagreementExample:
    """The unit whose disagreement chapter 3 takes apart (the paper's Table 12 on simulated
    data; on a team's own data its most disputed unit), and what the page says about it."""

    scores: pd.DataFrame  # annotator, category, severity of the one unit
    description: pd.DataFrame  # findings (section ``example``): source, metaphor, translation
    disputed: pd.DataFrame | None = None  # the team's most disputed units (own data only)


def disagreement_example(data: PilotV2Data, metahope: bool = True, top: int = 5) -> DisagreementExample:
    """Chapter 3's Table 12 section: the paper's item when the data are simulated, else the
    team's ``top`` most disputed units (:func:`~helpers.metahope.scoring.disputed_items`) and the first of them.
    Its ``description`` names the unit: ``sentence``, ``metaphor``, ``pos``, ``translation``
    and ``system`` of the paper's item (not applicable when the released sheet is not fetched),
    or the disputed units' count and the first one's ``unit``, ``metaphor``, ``system``,
    ``sentence`` and ``item``."""
    from .scoring import disputed_items

    found = Findings().add("simulated", data.simulated)
    if data.simulated:
        example = read_published("metahope_pilot_v2", "table12_disagreement_example")
        scores = example.melt(id_vars="annotator", value_vars=list(io.CATEGORIES), var_name="category",
                              value_name="severity").astype({"severity": int})
        row = released_disagreement_item()
        for name in ("sentence", "metaphor", "pos", "translation"):
            found.add(name, text=None if row is None else row[name])
        found.add("system", text="Hunyuan-LLM-7B").add("missing_sheet", row is None)
        found.add("disputed").add("unit").add("item")
        provenance = released_against_table12(example)
        return DisagreementExample(scores, pd.concat([found.frame(), provenance], ignore_index=True))
    disputed = disputed_items(data.tidy, top=top)
    first = disputed.iloc[0]
    unit = data.tidy[(data.tidy["item"] == first["item"]) & (data.tidy["system"] == first["system"])]
    (found.add("disputed", len(disputed)).add("unit", text="metaphor" if metahope else "segment")
     .add("metaphor", text=first["metaphor"] or "the segment").add("system", text=first["system"])
     .add("sentence", text=first["sentence"]).add("item", text=first["item"]).add("missing_sheet", False)
     .add("pos").add("translation").add("paper_annotators").add("released_scores").add("released_matches")
     .add("released_unmatched"))
    return DisagreementExample(unit[["annotator", "category", "severity"]], found.frame(), disputed)


def anatomy_summary(anatomy) -> pd.DataFrame:
    """Detection, category and severity disagreement of one item (section ``anatomy``),
    true for whichever item was read (the paper's or a team's own): annotators who recorded
    an error (``detected``, of ``annotators``; ``none_recorded`` names the others), the
    categories used (``categories``; ``category_use`` per category), the range of totals,
    and the severities of the most used category when several annotators chose it."""
    scores = anatomy.scores.set_index("annotator")
    cats = anatomy.categories.set_index("category")
    detected = scores["detected"]
    used = cats[cats["annotators_using_it"] > 0]
    found = (Findings().add("detected", int(detected.sum())).add("annotators", len(detected))
             .add("none_recorded", int((~detected).sum()), text=", ".join(map(str, detected[~detected].index)) or "nobody")
             .add("categories", len(used), text=", ".join(f"{c} ({n})" for c, n in used["annotators_using_it"].items()))
             .add("several_categories", len(used) > 1).add("one_category", len(used) == 1, text=", ".join(used.index))
             .add("lowest_total", scores["total"].min()).add("highest_total", scores["total"].max()))
    for c, n in used["annotators_using_it"].items():
        found.add("category_use", n, group=c)
    top = used["annotators_using_it"].idxmax() if len(used) else None
    shared = top is not None and used.loc[top, "annotators_using_it"] > 1
    found.add("top_category", used.loc[top, "annotators_using_it"] if shared else None, text=top if shared else None,
              severities=", ".join(str(int(v)) for v in scores.loc[scores[top] > 0, top]) if shared else "")
    return found.frame()


def calibration_table(study: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Per system: ordinal α and exact presence agreement on SEGS over the simulated teams
    (mean, min, max) beside the paper's Table 7."""
    g = study.groupby("system", sort=False)
    out = pd.DataFrame({
        "alpha_mean": g["segs_alpha"].mean(), "alpha_min": g["segs_alpha"].min(), "alpha_max": g["segs_alpha"].max(),
        "presence_mean": g["presence_agreement"].mean(), "presence_min": g["presence_agreement"].min(),
        "presence_max": g["presence_agreement"].max(), "teams": g.size()}).reset_index()
    pub = published.set_index("system")
    out["published_alpha"] = out["system"].map(pub["ordinal_alpha"].astype(float))
    out["published_presence"] = out["system"].map(pub["exact_presence_agreement"].astype(float))
    return out


def pilot_v2_findings(data: PilotV2Data, by_system: pd.DataFrame, by_error: pd.DataFrame,
                      sentence_table: pd.DataFrame | None, study: pd.DataFrame | None,
                      seed_noise: pd.DataFrame | None, sweeps: pd.DataFrame | None, anatomy) -> pd.DataFrame:
    """Chapter 3's findings (section ``findings``), each computed from this run's tables."""
    found = (Findings().add("simulated", data.simulated)
             .add("units", text="metaphors" if io.is_metahope(data.tidy) else "segments")
             .add("unit", text="metaphor" if io.is_metahope(data.tidy) else "segment")
             .add("sentence_level", sentence_table is not None)
             .add("reliable_alpha", ALPHA_RELIABLE).add("tentative_alpha", ALPHA_TENTATIVE))
    for _, r in by_system.iterrows():
        (found.add("alpha", r["ordinal_alpha"], text=alpha_reading(r["ordinal_alpha"]), group=r["system"])
         .add("presence", r["exact_presence_agreement"], group=r["system"]))  # percent, as in the table
    ranked = by_error.sort_values("ordinal_alpha")
    worst, best = ranked.iloc[0], ranked.iloc[-1]
    (found.add("worst_category", worst["ordinal_alpha"], text=worst["error"])
     .add("best_category", best["ordinal_alpha"], text=best["error"])
     .add("exact", by_error["exact_score_agreement"].min(),
          ci=(by_error["exact_score_agreement"].min(), by_error["exact_score_agreement"].max())))
    for _, r in (sentence_table.iterrows() if sentence_table is not None else ()):
        found.add("icc", r["icc2_1"], ci=(r["icc2_1_ci_low"], r["icc2_1_ci_high"]), group=r["system"])
    if sentence_table is None:
        found.add("icc")
    found.add("teams", None if study is None else study["seed"].nunique())
    if study is None:
        found.add("team_alpha").add("noisy").add("firm")
    else:
        g = study.groupby("system", sort=False)["segs_alpha"]
        for system in g.mean().index:
            found.add("team_alpha", g.min()[system], ci=(g.min()[system], g.max()[system]), group=system)
        for _, r in seed_noise.iterrows():
            a_ahead = r["share_a_ahead"] > 0.5
            found.add("noisy" if r["seed_noise"] else "firm",
                      r["share_a_ahead"] if r["seed_noise"] else max(r["share_a_ahead"], 1 - r["share_a_ahead"]),
                      group=f"{r['system_a']} · {r['system_b']}", system_a=r["system_a"], system_b=r["system_b"],
                      ahead=r["system_a"] if a_ahead else r["system_b"],
                      behind=r["system_b"] if a_ahead else r["system_a"])
        for name, rows in (("noisy", seed_noise["seed_noise"]), ("firm", ~seed_noise["seed_noise"])):
            if not rows.any():
                found.add(name)
    for knob, g in (sweeps.groupby("knob", sort=False) if sweeps is not None else ()):
        percent = "%" in g["statistic"].iloc[0]
        found.add("sweep_percent" if percent else "sweep", g["metric"].iloc[0],
                  ci=(g["metric_min"].min(), g["metric_max"].max()), group=knob, knob=knob.replace("_", " "),
                  statistic=g["statistic"].iloc[0].replace(" (%)", ""), start=g["value"].iloc[0],
                  end=g["value"].iloc[-1], last=g["metric"].iloc[-1])
    names = set() if sweeps is None else {"%" in t for t in sweeps["statistic"]}
    if True not in names:
        found.add("sweep_percent")
    if False not in names:
        found.add("sweep")
    scores = anatomy.scores.set_index("annotator")
    (found.add("detected", int(scores["detected"].sum())).add("annotators", len(scores))
     .add("categories", int((anatomy.categories["annotators_using_it"] > 0).sum()))
     .add("lowest_total", scores["total"].min()).add("highest_total", scores["total"].max()))
    return found.frame()


def plan_summary(plan: pd.DataFrame, margin: float = 2.0, planned: int = 200) -> pd.DataFrame:
    """Chapter 3's study plan (section ``plan``), per data set: at the paper's ``planned``
    test set with the most raters the data have, the width of α's interval and of a system
    difference's, and the power at ``margin``; at 20 sentences (the pilots' size) the same;
    and the fewest sentences of the plan that give 80 % power at ``margin`` with each number
    of raters (``needed``; NaN when none does)."""
    found = Findings().add("margin", margin).add("planned", planned).add("no_data", plan.empty)
    if plan.empty:
        return found.add("at_plan").add("at_pilot").add("needed").frame()
    p = plan[plan["margin"] == margin]
    for data, g in p.groupby("data", sort=False):
        k = int(g["raters"].max())
        for name, n in (("at_plan", planned), ("at_pilot", 20)):
            r = g[(g["sentences"] == n) & (g["raters"] == k)]
            if len(r):
                r = r.iloc[0]
                found.add(name, r["power"], group=data, data=data, raters=k, alpha_width=r["alpha_width"],
                          difference_width=r["difference_width"], alpha=r["alpha"])
        for raters, h in g.groupby("raters"):
            enough = h[h["power"] >= 0.8]["sentences"]
            found.add("needed", enough.min() if len(enough) else None, group=f"{data} · {raters}", data=data,
                      raters=int(raters), text=f"{int(enough.min())}" if len(enough) else
                      f"more than {int(h['sentences'].max())}")
    return found.frame()

