"""Chapter 03 (MetaHOPE pilot v2, a team of annotators): checked parameters, data with provenance, steps, findings.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks every
parameter before any work and raises :class:`~helpers.core.errors.InputError` naming the
parameter. ``setup.load()`` returns :class:`Data`: a team's own annotations, or by default a
seeded simulated team (:mod:`helpers.metahope.simulate`) rating the real items of the released
ZH→EN sheet, with its :class:`~helpers.core.book.report.Provenance`. :func:`description` is the
chapter's ``data_summary.csv``; the steps (:func:`calibration_table`,
:func:`disagreement_example`, :func:`anatomy_summary`, :func:`plan_summary`) take frames and
return tidy frames. :func:`findings` reads the chapter's result CSVs back by their public names
(:data:`FINDINGS_INPUTS`) and returns every number the page states, per section
(:data:`SECTIONS`), so they can be recomputed and tested from
``results/03_metahope_pilot_v2/*.csv`` alone; the sentences are
``notebooks/words/03_metahope_pilot_v2.md``. The agreement statistics are
:mod:`helpers.core.statistics.agreement`, the scoring :mod:`helpers.metahope.scoring`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..core import classroom, params, paths
from ..core.book.findings import COLUMNS, Findings
from ..core.book.report import ChapterData, Provenance
from ..core.book.results import read_saved
from ..core.errors import InputError
from ..core.formats.published import read_published
from ..core.statistics.agreement import ALPHA_READINGS, ALPHA_RELIABLE, ALPHA_TENTATIVE, alpha_reading
from . import load, mqm_format, release, simulate, tidy_frame, workbooks
from .chapter_common import OWN_DETAIL, WORKBOOK, _annotation_spec, _class_note, _projection, _said, mqm_description

CHAPTER = "03_metahope_pilot_v2"  # its words: notebooks/words/03_metahope_pilot_v2.md
#: The verdict key of each reading of α (:data:`helpers.core.statistics.agreement.ALPHA_READINGS`, in its
#: order); the words file's ``## verdicts`` table gives each key its phrase.
ALPHA_KEYS = dict(zip(ALPHA_READINGS, ("reliable", "tentative", "too_low", "undefined")))
#: The paper's Table 12 unit: the ZH→EN item and the system whose translation it rates.
TABLE12_ITEM, TABLE12_SYSTEM = "news_01_v.4_10_17", "Hunyuan-LLM-7B"


@dataclass(frozen=True)
class Data(ChapterData):
    tidy: pd.DataFrame = None  # metaphor-level annotations
    sentences: pd.DataFrame | None = None  # sentence-level annotations, if any
    truth: pd.DataFrame | None = None  # the sheet the simulation takes as the truth
    panel: tuple = field(default_factory=tuple)  # the simulated annotators


@dataclass(frozen=True)
class Setup:
    """Chapter 03's checked parameters (see the chapter's parameters cell)."""

    annotations: object
    sentence_annotations: object
    unfinished: str
    truth_file: Path | None
    panel: tuple
    sentence_raters: int
    seed: int
    n_seeds: int = 10
    weights: str = mqm_format.MQM_SCHEME  # an MQM file's weighting scheme
    projection: bool | None = None  # students shown as codes (None: when the workbooks carry a Student: field)
    results_dir: str = "results"
    n_plan: int = 500  # imitated studies per size in the study plan (helpers.metahope.planning)

    @property
    def sweep_seeds(self) -> int:
        """Teams per sweep point (at most 5: the sweeps are 20 points)."""
        return min(self.n_seeds, 5)

    def load(self, words=None) -> Data:
        """Own annotations when given, else the seeded simulation over the truth sheet; the
        data box's sentences come from ``words`` (the chapter's :class:`~helpers.core.book.findings.Words`;
        None: read afresh)."""
        if self.annotations is not None:
            return self._own(words)
        truth_path = self.truth_file or release.pilot_zh_en_file()
        truth = (
            workbooks.read_workbook(truth_path, "truth")
            if truth_path.suffix.lower() in WORKBOOK
            else load.load_annotations(truth_path)
        )
        tidy = simulate.simulate_annotations(truth, self.panel, seed=self.seed)
        sentences = simulate.simulate_annotations(
            simulate.sentence_units(truth), self.panel[: self.sentence_raters], seed=self.seed + 1
        )
        detail = _said(
            words,
            CHAPTER,
            "simulated",
            Findings()
            .add("annotators", len(self.panel))
            .add("seed", self.seed)
            .add("released_truth", self.truth_file is None)
            .add("truth", text=truth_path.name)
            .frame(),
        )
        return Data(Provenance("simulated", (str(truth_path),), detail), tidy, sentences, truth, self.panel)

    def _own(self, words) -> Data:
        """The team's own annotations (metaphor level, and sentence level when given)."""
        loaded = load.load_class(self.annotations, unfinished=self.unfinished, scheme=self.weights)
        if self.weights != mqm_format.MQM_SCHEME and not loaded.foreign:
            raise InputError(
                "weighs a foreign MQM file's severities; MetaHOPE annotations carry their own 0–10 levels",
                parameter="weights",
                value=self.weights,
                expected=repr(mqm_format.MQM_SCHEME),
            )
        if len(loaded.students) < 2 and len(set(loaded.tidy["annotator"])) < 2:
            raise InputError(
                f"only {len(set(loaded.tidy['annotator']))} annotator is left once the unfinished "
                "sheets are left out; agreement needs two",
                parameter="annotations",
            )
        per_unit = loaded.tidy.drop_duplicates(["item", "system", "annotator"]).groupby(["item", "system"]).size()
        if per_unit.max() < 2:
            raise InputError(
                "no (item, system) is rated by two annotators or more (each segment has one rater), "
                "so there is no agreement to measure",
                parameter="annotations",
                file=load.annotation_files(self.annotations)[0],
                expected="a file in which some segments are rated by several raters",
            )
        sentences = (
            load.load_class(self.sentence_annotations, unfinished=self.unfinished, scheme=self.weights)
            if self.sentence_annotations is not None
            else None
        )
        both = [loaded] + ([sentences] if sentences else [])
        coded = classroom.projection(
            self.projection,
            any(p.named_by_field for p in both),
            [n for p in both for n in p.names()],
            self.results_dir,
            [f for p in both for f in p.files],
        )  # one code per student
        loaded, sentences = loaded.projected(coded), sentences.projected(coded) if sentences else None
        files = coded.paths(
            load.annotation_files(self.annotations)
            + (load.annotation_files(self.sentence_annotations) if self.sentence_annotations is not None else [])
        )
        notes = list(loaded.notes) + ([f"sentence level: {n}" for n in sentences.notes] if sentences else [])
        detail = _class_note(OWN_DETAIL, notes) + (
            " " + _said(words, CHAPTER, "mqm", mqm_description(loaded)) if loaded.foreign else ""
        )
        return Data(
            Provenance("own", tuple(map(str, files)), detail), loaded.tidy, sentences.tidy if sentences else None
        )


def setup(
    annotations=None,
    sentence_annotations=None,
    truth_file=None,
    panel=None,
    sentence_raters=3,
    seed=7,
    n_seeds=10,
    results_dir="results",
    unfinished="stop",
    weights=mqm_format.MQM_SCHEME,
    projection=None,
    n_plan=500,
) -> Setup:
    """Check chapter 03's parameters before any work (each problem names its parameter).

    ``annotations`` (and ``sentence_annotations``) are a team's own sheets or an annotation
    file; None simulates the team ``panel`` over ``truth_file`` (None: the released ZH→EN
    sheet). ``n_plan`` is the number of imitated studies per size of the study plan
    (:func:`helpers.metahope.planning.study_plan`). ``weights`` is the weighting scheme that
    turns a foreign MQM file's severities into penalties (:func:`helpers.core.statistics.schemes.load_scheme`:
    a built-in name or a YAML file; :func:`helpers.metahope.mqm_format.from_mqm`);
    ``projection`` shows students as codes (None: when their workbooks carry a Student: field).
    """
    from ..core.statistics.schemes import load_scheme

    load_scheme(weights)  # a name that is neither built in nor a file is an error naming the parameter
    spec = None if annotations is None else _annotation_spec("annotations", annotations, minimum=2)
    sentence_spec = (
        None
        if sentence_annotations is None
        else _annotation_spec("sentence_annotations", sentence_annotations, minimum=2)
    )
    if spec is None and sentence_spec is not None:
        raise InputError(
            "is given without metaphor-level annotations",
            parameter="sentence_annotations",
            expected="also annotations, or neither (simulation)",
        )
    truth = None
    if truth_file is not None:
        truth = params.existing_file("truth_file", truth_file, WORKBOOK + (".csv", ".tsv"))
        if truth.suffix.lower() in WORKBOOK:
            try:
                workbooks.check_header(truth)
            except InputError as exc:
                raise exc.located(parameter="truth_file") from None
    team = simulate.panel_from_records(panel)
    raters = params.integer("sentence_raters", sentence_raters, minimum=2, maximum=len(team))
    params.text("results_dir", str(results_dir))
    return Setup(
        spec,
        sentence_spec,
        classroom.unfinished_choice(unfinished),
        truth,
        team,
        raters,
        params.integer("seed", seed),
        params.integer("n_seeds", n_seeds, minimum=2, maximum=200),
        str(weights),
        _projection(projection),
        str(results_dir),
        params.integer("n_plan", n_plan, minimum=20),
    )


def description(box: Data, setup: Setup | None = None) -> pd.DataFrame:
    """What chapter 03 reads (section ``data``; saved as ``data_summary.csv``): items (metaphors
    or segments), systems and annotators, and what :func:`findings` needs to know of the data:
    whether they are ``simulated`` and whether they are MetaHOPE's (``metahope``: its five
    categories, not a foreign MQM file's). Everything comes from ``box``; ``setup`` is taken for
    the surface every chapter shares (chapter 09's description reads its parameters)."""
    tidy = box.tidy
    metahope = tidy_frame.is_metahope(tidy)
    return (
        Findings()
        .add("items", tidy["item"].nunique())
        .add("units", text="metaphor items" if metahope else "segments")
        .add("systems", tidy["system"].nunique())
        .add("annotators", tidy["annotator"].nunique(), text=", ".join(map(str, tidy["annotator"].unique())))
        .add("simulated", box.simulated)
        .add("metahope", metahope)
        .frame()
    )


def _released_unit(item: str, system: str) -> pd.DataFrame | None:
    """The rows (one per category) of one unit of the released ZH→EN sheet; None when that file
    has not been fetched (an own-data run needs no released file)."""
    path = paths.raw_data_dir() / release.METAHOPE_REPO.replace("/", "__") / release.PILOT_ZH_EN_FILE
    if not path.exists():
        return None
    sheet = workbooks.read_workbook(path, "released")
    return sheet[(sheet["item"] == item) & (sheet["system"] == system)]


def released_disagreement_item(item: str = TABLE12_ITEM, system: str = TABLE12_SYSTEM) -> pd.Series | None:
    """Source sentence, metaphor and translation of the Table 12 item from the released ZH→EN
    sheet, or None when that file has not been fetched (an own-data run needs no released file)."""
    rows = _released_unit(item, system)
    return rows.iloc[0] if rows is not None and len(rows) else None


def released_against_table12(
    table12: pd.DataFrame, item: str = TABLE12_ITEM, system: str = TABLE12_SYSTEM
) -> pd.DataFrame:
    """Whose scores the released ZH→EN sheet holds for the Table 12 unit (section ``example``):
    its scores (``released_scores``: the total, the non-zero categories as text) and the
    annotators of Table 12 (one row per annotator, columns IMP … PRF) whose five scores are
    the same (``released_matches``: their number, their names or "none"; ``released_unmatched``
    when there is none). Not applicable when the sheet has not been fetched. The sheet names
    no annotator and the paper does not say where it comes from; on the released data it
    matches none of the five."""
    rows = _released_unit(item, system)
    found = Findings().add("paper_annotators", len(table12))
    if rows is None or rows.empty:
        return found.add("released_scores").add("released_matches").add("released_unmatched").frame()
    released = rows.set_index("category")["severity"].reindex(list(tidy_frame.CATEGORIES), fill_value=0).astype(int)
    scores = table12.set_index("annotator")[list(tidy_frame.CATEGORIES)].astype(int)
    same = [str(a) for a, r in scores.iterrows() if (r == released).all()]
    shown = ", ".join(f"{c} {v}" for c, v in released.items() if v) or "no error"
    return (
        found.add("released_scores", int(released.sum()), text=shown)
        .add("released_matches", len(same), text=", ".join(same) or "none")
        .add("released_unmatched", not same)
        .frame()
    )


@dataclass(frozen=True)
class DisagreementExample:
    """The unit whose disagreement chapter 03 takes apart (the paper's Table 12 on simulated
    data; on a team's own data its most disputed unit), and what the page says about it."""

    scores: pd.DataFrame  # annotator, category, severity of the one unit
    description: pd.DataFrame  # findings (section ``example``): source, metaphor, translation
    disputed: pd.DataFrame | None = None  # the team's most disputed units (own data only)


def disagreement_example(box: Data, metahope: bool = True, top: int = 5) -> DisagreementExample:
    """Chapter 03's Table 12 section: the paper's item when the data are simulated, else the
    team's ``top`` most disputed units (:func:`~helpers.metahope.scoring.disputed_items`) and the first of them.
    Its ``description`` names the unit: ``sentence``, ``metaphor``, ``pos``, ``translation``
    and ``system`` of the paper's item (not applicable when the released sheet is not fetched),
    or the disputed units' count and the first one's ``unit``, ``metaphor``, ``system``,
    ``sentence`` and ``item``."""
    from .scoring import disputed_items

    found = Findings().add("simulated", box.simulated)
    if box.simulated:
        example = read_published("metahope_pilot_v2", "table12_disagreement_example")
        scores = example.melt(
            id_vars="annotator", value_vars=list(tidy_frame.CATEGORIES), var_name="category", value_name="severity"
        ).astype({"severity": int})
        row = released_disagreement_item()
        for name in ("sentence", "metaphor", "pos", "translation"):
            found.add(name, text=None if row is None else row[name])
        found.add("system", text=TABLE12_SYSTEM).add("missing_sheet", row is None)
        found.add("disputed").add("unit").add("item")
        provenance = released_against_table12(example)
        return DisagreementExample(scores, pd.concat([found.frame(), provenance], ignore_index=True))
    disputed = disputed_items(box.tidy, top=top)
    first = disputed.iloc[0]
    unit = box.tidy[(box.tidy["item"] == first["item"]) & (box.tidy["system"] == first["system"])]
    (
        found.add("disputed", len(disputed))
        .add("unit", text="metaphor" if metahope else "segment")
        .add("metaphor", text=first["metaphor"] or "the segment")
        .add("system", text=first["system"])
        .add("sentence", text=first["sentence"])
        .add("item", text=first["item"])
        .add("missing_sheet", False)
        .add("pos")
        .add("translation")
        .add("paper_annotators")
        .add("released_scores")
        .add("released_matches")
        .add("released_unmatched")
    )
    return DisagreementExample(unit[["annotator", "category", "severity"]], found.frame(), disputed)


def anatomy_summary(scores: pd.DataFrame) -> pd.DataFrame:
    """Detection, category and severity disagreement of one item (section ``anatomy``), from
    its scores table (:func:`~helpers.metahope.scoring.disagreement_anatomy`'s ``scores``, saved
    as ``disagreement_anatomy.csv``: one row per annotator, a column per category, ``total``,
    ``detected``), true for whichever item was read (the paper's or a team's own): annotators
    who recorded an error (``detected``, of ``annotators``; ``none_recorded`` names the others),
    the categories used (``categories``; ``category_use`` per category), the range of totals,
    and the severities of the most used category when several annotators chose it."""
    scores = scores.set_index("annotator")
    severities = scores.drop(columns=["total", "detected"])
    using = (severities > 0).sum()
    detected = scores["detected"].astype(bool)
    used = using[using > 0]
    found = (
        Findings()
        .add("detected", int(detected.sum()))
        .add("annotators", len(detected))
        .add("none_recorded", int((~detected).sum()), text=", ".join(map(str, detected[~detected].index)) or "nobody")
        .add("categories", len(used), text=", ".join(f"{c} ({n})" for c, n in used.items()))
        .add("several_categories", len(used) > 1)
        .add("one_category", len(used) == 1, text=", ".join(used.index))
        .add("lowest_total", scores["total"].min())
        .add("highest_total", scores["total"].max())
    )
    for c, n in used.items():
        found.add("category_use", n, group=c)
    top = used.idxmax() if len(used) else None
    shared = top is not None and used[top] > 1
    found.add(
        "top_category",
        used[top] if shared else None,
        text=top if shared else None,
        severities=", ".join(str(int(v)) for v in scores.loc[scores[top] > 0, top]) if shared else "",
    )
    return found.frame()


def calibration_table(study: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Per system: ordinal α and exact presence agreement on SEGS over the simulated teams
    (mean, min, max) beside the paper's Table 7."""
    g = study.groupby("system", sort=False)
    out = pd.DataFrame(
        {
            "alpha_mean": g["segs_alpha"].mean(),
            "alpha_min": g["segs_alpha"].min(),
            "alpha_max": g["segs_alpha"].max(),
            "presence_mean": g["presence_agreement"].mean(),
            "presence_min": g["presence_agreement"].min(),
            "presence_max": g["presence_agreement"].max(),
            "teams": g.size(),
        }
    ).reset_index()
    pub = published.set_index("system")
    out["published_alpha"] = out["system"].map(pub["ordinal_alpha"].astype(float))
    out["published_presence"] = out["system"].map(pub["exact_presence_agreement"].astype(float))
    return out


def plan_summary(plan: pd.DataFrame, margin: float = 2.0, planned: int = 200) -> pd.DataFrame:
    """Chapter 03's study plan (section ``plan``), per data set: at the paper's ``planned``
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
                found.add(
                    name,
                    r["power"],
                    group=data,
                    data=data,
                    raters=k,
                    alpha_width=r["alpha_width"],
                    difference_width=r["difference_width"],
                    alpha=r["alpha"],
                )
        for raters, h in g.groupby("raters"):
            enough = h[h["power"] >= 0.8]["sentences"]
            found.add(
                "needed",
                enough.min() if len(enough) else None,
                group=f"{data} · {raters}",
                data=data,
                raters=int(raters),
                text=f"{int(enough.min())}" if len(enough) else f"more than {int(h['sentences'].max())}",
            )
    return found.frame()


#: The result CSVs :func:`findings` reads (``results/03_metahope_pilot_v2/<name>.csv``); those of
#: the simulation (``seed_study``, ``seed_noise``, ``simulation_sweeps``) and ``sentence_icc``
#: exist only in runs that have them.
FINDINGS_INPUTS = (
    "data_summary",
    "agreement_by_system",
    "agreement_by_error",
    "sentence_icc",
    "seed_study",
    "seed_noise",
    "simulation_sweeps",
    "disagreement_example",
    "disagreement_anatomy",
    "study_plan",
)
#: The quantities of each section when its tables are missing (all of them not applicable).
_QUANTITIES = {
    "data": ("items", "units", "systems", "annotators", "simulated", "metahope"),
    "example": (
        "simulated",
        "sentence",
        "metaphor",
        "pos",
        "translation",
        "system",
        "missing_sheet",
        "disputed",
        "unit",
        "item",
        "paper_annotators",
        "released_scores",
        "released_matches",
        "released_unmatched",
    ),
    "anatomy": (
        "detected",
        "annotators",
        "none_recorded",
        "categories",
        "several_categories",
        "one_category",
        "lowest_total",
        "highest_total",
        "category_use",
        "top_category",
    ),
    "plan": ("margin", "planned", "no_data", "at_plan", "at_pilot", "needed"),
    "findings": (
        "simulated",
        "units",
        "unit",
        "sentence_level",
        "reliable_alpha",
        "tentative_alpha",
        "alpha",
        "presence",
        "worst_category",
        "best_category",
        "exact",
        "icc",
        "teams",
        "team_alpha",
        "noisy",
        "firm",
        "sweep",
        "sweep_percent",
        "detected",
        "annotators",
        "categories",
        "lowest_total",
        "highest_total",
    ),
}
SECTIONS = tuple(_QUANTITIES)


def findings(folder, section: str | None = None) -> pd.DataFrame:
    """Chapter 03's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone.

    Parameters
    ----------
    folder
        The chapter's result folder (``results/03_metahope_pilot_v2``, or the run's staging folder).
    section
        One section of the words (:data:`SECTIONS`): ``data`` (``data_summary.csv`` read back),
        ``example`` (``disagreement_example.csv``), ``anatomy`` (:func:`anatomy_summary` of
        ``disagreement_anatomy.csv``), ``plan`` (:func:`plan_summary` of ``study_plan.csv``) or
        ``findings`` (the closing section, below). None: every section's, each row with its
        ``section`` (``findings.csv``).

    The closing section, per system: ordinal α on SEGS with its verdict key (``alpha``,
    :data:`ALPHA_KEYS`: Krippendorff's reading, :func:`helpers.core.statistics.agreement.alpha_reading`) and
    exact presence agreement (``presence``, %); the categories with the lowest and highest α and
    the range of exact agreement over them; the sentence-level ICC(2,1) with its interval
    (``icc``); over the simulated teams (``teams``) each system's range of α (``team_alpha``) and
    each pair of systems whose order changes with the team (``noisy``) or holds (``firm``); each
    sweep's move (``sweep``, or ``sweep_percent`` for a statistic in %); and the anatomy of the
    Table 12 unit (``detected`` of ``annotators``, ``categories`` used, ``lowest_total``,
    ``highest_total``).

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS` plus the extra columns some quantities use. Every
        quantity is always present; one whose table is missing (or empty) is not applicable, and
        its sentence drops out of the words.
    """
    if section is not None and section not in SECTIONS:
        raise InputError(
            "is not a section of chapter 03's findings",
            parameter="section",
            value=section,
            expected=", ".join(SECTIONS),
        )
    t = {name: read_saved(folder, name) for name in FINDINGS_INPUTS}
    planned = (Path(folder) / "study_plan.csv").exists()  # an empty plan is saved (and said) too
    if section is not None:
        return _section(t, section, planned)
    return pd.concat([_section(t, name, planned).assign(section=name) for name in SECTIONS], ignore_index=True)


#: The tables each section needs (the plan: ``study_plan.csv`` saved, even empty).
_NEEDS = {
    "data": ("data_summary",),
    "example": ("disagreement_example",),
    "anatomy": ("disagreement_anatomy",),
    "plan": (),
    "findings": ("data_summary", "agreement_by_system", "agreement_by_error", "disagreement_anatomy"),
}


def _read_back(saved: pd.DataFrame) -> pd.DataFrame:
    """A findings table the chapter saved (``data_summary``, ``disagreement_example``) as :class:`Findings` made it."""
    frame = saved.reindex(columns=list(dict.fromkeys(COLUMNS + list(saved.columns))))
    return frame.assign(group=frame["group"].fillna("").astype(str), text=frame["text"].fillna("").astype(str))


def _section(t: dict, name: str, planned: bool) -> pd.DataFrame:
    """One section's findings; all not applicable when a table it needs is missing or empty."""
    if all(not t[n].empty for n in _NEEDS[name]) and (name != "plan" or planned):
        build = {
            "data": lambda: _read_back(t["data_summary"]),
            "example": lambda: _read_back(t["disagreement_example"]),
            "anatomy": lambda: anatomy_summary(t["disagreement_anatomy"]),
            "plan": lambda: plan_summary(t["study_plan"]),
            "findings": lambda: _closing(t),
        }
        return build[name]()
    found = Findings()
    for q in _QUANTITIES[name]:
        found.add(q)
    return found.frame()


def _closing(t: dict) -> pd.DataFrame:
    """The closing section's findings (see :func:`findings`)."""
    info = t["data_summary"].set_index("quantity")["value"]
    metahope, by_system, by_error = bool(info["metahope"]), t["agreement_by_system"], t["agreement_by_error"]
    found = (
        Findings()
        .add("simulated", bool(info["simulated"]))
        .add("units", text="metaphors" if metahope else "segments")
        .add("unit", text="metaphor" if metahope else "segment")
        .add("sentence_level", not t["sentence_icc"].empty)
        .add("reliable_alpha", ALPHA_RELIABLE)
        .add("tentative_alpha", ALPHA_TENTATIVE)
    )
    for _, r in by_system.iterrows():
        (
            found.add(
                "alpha", r["ordinal_alpha"], text=ALPHA_KEYS[alpha_reading(r["ordinal_alpha"])], group=r["system"]
            ).add("presence", r["exact_presence_agreement"], group=r["system"])
        )  # percent, as in the table
    ranked = by_error.dropna(subset=["ordinal_alpha"]).sort_values("ordinal_alpha")  # an undefined α ranks nowhere
    if ranked.empty:
        found.add("worst_category").add("best_category")
    else:
        worst, best = ranked.iloc[0], ranked.iloc[-1]
        found.add("worst_category", worst["ordinal_alpha"], text=worst["error"])
        found.add("best_category", best["ordinal_alpha"], text=best["error"])
    (
        found.add(
            "exact",
            by_error["exact_score_agreement"].min(),
            ci=(by_error["exact_score_agreement"].min(), by_error["exact_score_agreement"].max()),
        )
    )
    for _, r in t["sentence_icc"].iterrows():
        found.add("icc", r["icc2_1"], ci=(r["icc2_1_ci_low"], r["icc2_1_ci_high"]), group=r["system"])
    if t["sentence_icc"].empty:
        found.add("icc")
    _teams(found, t["seed_study"], t["seed_noise"])
    _sweeps(found, t["simulation_sweeps"])
    scores = t["disagreement_anatomy"].set_index("annotator")
    categories = scores.drop(columns=["total", "detected"])
    (
        found.add("detected", int(scores["detected"].sum()))
        .add("annotators", len(scores))
        .add("categories", int((categories > 0).any().sum()))
        .add("lowest_total", scores["total"].min())
        .add("highest_total", scores["total"].max())
    )
    return found.frame()


def _teams(found: Findings, study: pd.DataFrame, seed_noise: pd.DataFrame) -> None:
    """The findings of the simulated teams: α's range per system, and the pairs of systems whose
    order changes with the team (``noisy``) or holds (``firm``); not applicable on own data."""
    found.add("teams", None if study.empty else study["seed"].nunique())
    if study.empty:
        found.add("team_alpha")
    else:
        g = study.groupby("system", sort=False)["segs_alpha"]
        for system in g.mean().index:
            found.add("team_alpha", g.min()[system], ci=(g.min()[system], g.max()[system]), group=system)
    if study.empty or seed_noise.empty:
        found.add("noisy").add("firm")
        return
    for _, r in seed_noise.iterrows():
        a_ahead = r["share_a_ahead"] > 0.5
        found.add(
            "noisy" if r["seed_noise"] else "firm",
            r["share_a_ahead"] if r["seed_noise"] else max(r["share_a_ahead"], 1 - r["share_a_ahead"]),
            group=f"{r['system_a']} · {r['system_b']}",
            system_a=r["system_a"],
            system_b=r["system_b"],
            ahead=r["system_a"] if a_ahead else r["system_b"],
            behind=r["system_b"] if a_ahead else r["system_a"],
        )
    for name, rows in (("noisy", seed_noise["seed_noise"]), ("firm", ~seed_noise["seed_noise"])):
        if not rows.any():
            found.add(name)


def _sweeps(found: Findings, sweeps: pd.DataFrame) -> None:
    """Each sweep's move from its first to its last value (``sweep_percent`` when the statistic
    is a percentage); not applicable on own data."""
    for knob, g in sweeps.groupby("knob", sort=False) if not sweeps.empty else ():
        percent = "%" in g["statistic"].iloc[0]
        found.add(
            "sweep_percent" if percent else "sweep",
            g["metric"].iloc[0],
            ci=(g["metric_min"].min(), g["metric_max"].max()),
            group=knob,
            knob=knob.replace("_", " "),
            statistic=g["statistic"].iloc[0].replace(" (%)", ""),
            start=g["value"].iloc[0],
            end=g["value"].iloc[-1],
            last=g["metric"].iloc[-1],
        )
    names = set() if sweeps.empty else {"%" in s for s in sweeps["statistic"]}
    if True not in names:
        found.add("sweep_percent")
    if False not in names:
        found.add("sweep")
