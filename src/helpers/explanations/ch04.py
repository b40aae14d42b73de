"""What chapter 04 needs besides the statistics: checked parameters, ratings with provenance, steps, findings.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks every
parameter before any work (where the ratings come from: a CSV, rating workbooks or the
simulator, :func:`ratings_source`; the benchmark; the cut and the resamples) and raises
:class:`~helpers.core.errors.InputError` naming the parameter (and the file, sheet, row,
column and value). ``setup.load()`` returns :class:`Data`: the ratings, the benchmark and,
when simulated, the simulator, with their :class:`~helpers.core.book.report.Provenance`. The steps
take that box (or the frames the statistics of :mod:`helpers.explanations.analysis` return)
and return tidy frames, which the chapter saves as its result CSVs; :func:`findings` reads
them back by their public names (:data:`FINDINGS_INPUTS`) and returns every number the page
states, so the findings can be recomputed and tested from
``results/04_explanation_judgements/*.csv`` alone; the sentences are
``notebooks/words/04_explanation_judgements.md``. Chapter 05 loads its ratings the same way
(:func:`ratings_source`, :class:`Data`, :func:`ratings_description`).

While the ratings are simulated, the simulator's own values
(:func:`~helpers.explanations.simulate.generating_values`) stand beside the estimates that
merely recover them (:func:`by_construction`): the regression weights, the clusters and the
design contrast test whether the *method* finds structure that was put there, not what
people do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

import pandas as pd
from scipy import stats as st

from ..core import classroom, params, paths
from ..core.book.findings import Findings
from ..core.book.report import ChapterData, Provenance, table
from ..core.book.results import read_saved
from ..core.errors import InputError
from ..core.statistics.agreement import ALPHA_RELIABLE
from . import analysis
from .io import BENCHMARK_FILE, SCORES, WorkbookRatings, load_benchmark, load_ratings, workbook_files
from .simulate import RatingModel, generating_values, simulate_ratings

RATING_FORMATS = (
    "a long CSV (item_id, rater, dimension, score), a Forms export, a rating workbook, a folder of "
    "rating workbooks or a list of them (.venv/bin/python -m helpers template explanations)"
)
#: The significance level of the chapter's counts and readings.
LEVEL = 0.05
#: A dimension is an independent axis (or in a shared cluster) when it is so in at least this share of resamples.
STABLE = 0.9
#: The α from which single ratings count as reliable (Krippendorff's convention, the book's one:
#: :func:`helpers.core.statistics.agreement.alpha_reading`).
RELIABLE_ALPHA = ALPHA_RELIABLE


# --------------------------------------------------------------------------- the ratings (chapters 04 and 05)


@dataclass(frozen=True)
class Data(ChapterData):
    ratings: pd.DataFrame = None  # item_id, metaphor, explanation, rater, dimension, score
    benchmark: pd.DataFrame = None  # the items with their designed pass/fail per dimension
    model: RatingModel | None = None  # the simulator, when simulated

    @property
    def truth(self) -> pd.DataFrame | None:
        """The simulator's generating values per score (None for real ratings)."""
        return generating_values(self.model) if self.simulated else None


@dataclass(frozen=True)
class RatingsSource:
    """The checked parameters of chapters 04 and 05 that say where the ratings come from."""

    ratings_file: object
    benchmark: pd.DataFrame
    benchmark_file: str
    n_raters: int
    seed: int
    model: RatingModel
    loaded: WorkbookRatings | None = None

    @property
    def simulated(self) -> bool:
        return self.ratings_file is None

    def load(self) -> Data:
        """The ratings (simulated, or the checked ones) with their provenance; the data box's
        sentence is the words' section ``provenance``, filled from :func:`findings`."""
        if self.simulated:
            ratings = simulate_ratings(self.benchmark, n_raters=self.n_raters, seed=self.seed, model=self.model)
            files = (self.benchmark_file,)
        else:
            ratings, files = self.loaded.ratings, self.loaded.files
        return Data(
            Provenance("simulated" if self.simulated else "own", files),
            ratings,
            self.benchmark,
            self.model if self.simulated else None,
        )


def _ratings_file(value):
    """Check the ``ratings_file`` parameter's form: a path (CSV, workbook, folder) or a list of workbooks."""
    if isinstance(value, (list, tuple)):
        if not value:
            raise InputError("is an empty list", parameter="ratings_file", expected=RATING_FORMATS)
        return [params.existing_file(f"ratings_file[{k}]", v, (".xlsx", ".xlsm")) for k, v in enumerate(value)]
    if not isinstance(value, (str, Path)) or not str(value).strip():
        raise InputError(
            "must be a path or a list of paths", parameter="ratings_file", value=value, expected=RATING_FORMATS
        )
    try:
        path = paths.resolve_input(value)
    except FileNotFoundError as exc:
        raise InputError(f"not found ({exc})", parameter="ratings_file", value=str(value)) from None
    if path.is_dir():
        return path
    return params.existing_file("ratings_file", value, (".csv", ".txt", ".xlsx", ".xlsm"))


def ratings_source(
    ratings_file=None,
    benchmark_file=None,
    n_raters=16,
    seed=42,
    rating_model=None,
    results_dir="results",
    unfinished="stop",
    projection=None,
) -> RatingsSource:
    """Check where the ratings come from: a ratings CSV, rating workbooks (one file, a
    folder, or a list; their items must be in the benchmark, at least two raters) or the
    simulator (its knobs, the number of raters). Defaults as in the notebooks' parameters
    cells (``rating_model`` is only read, never changed). ``projection`` (None: on for a
    class's workbooks, which carry a Student: field; off for a CSV and the simulation) shows
    the raters as ``student 1 … n`` (:class:`helpers.core.classroom.Projection`; the key
    goes to ``<results_dir>/student_key.csv``)."""
    bench_path = (
        BENCHMARK_FILE if benchmark_file is None else params.existing_file("benchmark_file", benchmark_file, (".csv",))
    )
    try:
        benchmark = load_benchmark(bench_path)
    except InputError as exc:
        raise exc.located(parameter="benchmark_file") from None
    model = RatingModel.from_parameters(rating_model or {})
    unfinished = classroom.unfinished_choice(unfinished)
    loaded = None
    if ratings_file is not None:
        source = _ratings_file(ratings_file)
        try:
            loaded = load_ratings(source, benchmark, unfinished=unfinished)
        except InputError as exc:
            raise exc.located(parameter="ratings_file") from None
        ratings = loaded.ratings
        first = Path(loaded.files[0]) if loaded.files else None
        sheet = "Ratings" if workbook_files(source) else None
        unknown = sorted(set(ratings["item_id"]) - set(benchmark["item_id"]))
        if unknown:
            raise InputError(
                f"{len(unknown)} rated item(s) are not in the benchmark, e.g. {unknown[:5]}",
                parameter="ratings_file",
                file=first,
                sheet=sheet,
                column="item_id",
                value=unknown[0],
                expected=f"item ids of {bench_path}",
            )
        raters = ratings["rater"].nunique()
        if raters < 2:
            raise InputError(
                f"has {raters} rater(s) with ratings; reliability needs at least 2",
                parameter="ratings_file",
                file=first,
                column="rater",
            )
    params.text("results_dir", str(results_dir))
    projection = None if projection is None else params.boolean("projection", projection)
    if loaded is not None:
        loaded, _ = loaded.for_page(projection, results_dir)
    return RatingsSource(
        ratings_file,
        benchmark,
        str(bench_path),
        params.integer("n_raters", n_raters, minimum=2),
        params.integer("seed", seed),
        model,
        loaded,
    )


def ratings_description(box: Data, source: RatingsSource) -> pd.DataFrame:
    """The ratings in a ``quantity, value, text`` table (the first rows of the chapters'
    ``data_summary.csv``): whether simulated, the simulated raters, seed and benchmark size, what
    loading the given ratings left out (``skipped``, its notes in ``text``), and how many
    explanations, raters and ratings there are."""
    notes = () if source.simulated else source.loaded.notes
    rows = [
        ("simulated", int(source.simulated), ""),
        ("simulated_raters", source.n_raters, ""),
        ("seed", source.seed, ""),
        ("benchmark_items", len(source.benchmark), ""),
        ("skipped", len(notes), "; ".join(notes)),
        ("items", box.ratings["item_id"].nunique(), ""),
        ("raters", box.ratings["rater"].nunique(), ""),
        ("ratings", len(box.ratings), ""),
    ]
    return pd.DataFrame(rows, columns=["quantity", "value", "text"])


def ratings_findings(found: Findings, summary: pd.DataFrame) -> Findings:
    """The quantities of the words' sections ``provenance`` and ``data`` from a ``data_summary``
    table (:func:`ratings_description`): the simulator's settings only when simulated, the
    skipped notes HTML-escaped (the data box is HTML)."""
    d = summary.set_index("quantity") if not summary.empty else pd.DataFrame(columns=["value", "text"])

    def value(q):
        return d.loc[q, "value"] if q in d.index else None

    simulated = value("simulated")
    found.add("simulated", simulated)
    for q in ("simulated_raters", "seed", "benchmark_items"):
        found.add(q, value(q) if simulated else None)
    notes = d.loc["skipped", "text"] if "skipped" in d.index and isinstance(d.loc["skipped", "text"], str) else ""
    found.add("skipped", value("skipped"), text="; ".join(escape(n) for n in notes.split("; ")) if notes else "")
    for q in ("items", "raters", "ratings"):
        found.add(q, value(q))
    return found


def by_construction(words, frame: pd.DataFrame | None, text, decimals: int = 3):
    """The box "Recovered by construction" of ``words``' section ``recovered_box`` (in the
    study's shared words file) around ``text`` (a filled words section, as Markdown text or
    :meth:`~helpers.core.book.findings.Words.say`'s output) and the estimates beside the
    simulator's generating values (``frame``); nothing for real ratings (``frame`` None)."""
    from IPython.display import HTML
    from markdown_it import MarkdownIt

    if frame is None:
        return None
    body = MarkdownIt("commonmark", {"html": False}).render(getattr(text, "data", text))
    box = Findings().add("body", text=body.replace("\n", "")).add("estimates", text=table(frame, decimals).to_html())
    return HTML(words.text("recovered_box", box.frame()))


# --------------------------------------------------------------------------- chapter 04's set-up and data


@dataclass(frozen=True)
class Setup:
    """Chapter 04's checked parameters (see the chapter's parameters cell)."""

    source: RatingsSource
    cluster_threshold: float
    n_boot: int
    n_null: int
    n_seeds: int

    @property
    def seed(self) -> int:
        return self.source.seed

    @property
    def n_raters(self) -> int:
        return self.source.n_raters

    def load(self) -> Data:
        """The data box: the simulated ratings, or the given ones (:meth:`RatingsSource.load`)."""
        return self.source.load()


def setup(
    ratings_file=None,
    unfinished="stop",
    projection=None,
    benchmark_file=None,
    n_raters=16,
    seed=42,
    rating_model=None,
    cluster_threshold=0.6,
    n_boot=300,
    n_null=1000,
    n_seeds=30,
    results_dir="results",
) -> Setup:
    """Check chapter 04's parameters before any work (each problem names its parameter).

    The ratings' parameters as :func:`ratings_source`; ``cluster_threshold``, the dendrogram's
    cut, lies between 0 and 2 (the distance 1 − ρ); ``n_boot`` ≥ 20 bootstrap resamples of the
    items, ``n_null`` ≥ 99 replicates of the bounded-scale null, ``n_seeds`` ≥ 0 further
    simulation seeds for the stability of the clusters.
    """
    source = ratings_source(
        ratings_file=ratings_file,
        benchmark_file=benchmark_file,
        n_raters=n_raters,
        seed=seed,
        rating_model=rating_model,
        results_dir=results_dir,
        unfinished=unfinished,
        projection=projection,
    )
    return Setup(
        source,
        params.number("cluster_threshold", cluster_threshold, minimum=0, maximum=2),
        params.integer("n_boot", n_boot, minimum=20),
        params.integer("n_null", n_null, minimum=99),
        params.integer("n_seeds", n_seeds, minimum=0),
    )


def description(box: Data, setup: Setup) -> pd.DataFrame:
    """The run's data in one table (``data_summary.csv``): ``quantity, value, text``, the
    ratings (:func:`ratings_description`) and the chapter's cut and resamples."""
    rows = pd.DataFrame(
        [
            ("cluster_threshold", setup.cluster_threshold, ""),
            ("n_boot", setup.n_boot, ""),
            ("n_null", setup.n_null, ""),
            ("n_seeds", setup.n_seeds, ""),
        ],
        columns=["quantity", "value", "text"],
    )
    return pd.concat([ratings_description(box, setup.source), rows], ignore_index=True)


# --------------------------------------------------------------------------- steps


def calibration_band(
    benchmark: pd.DataFrame,
    n_raters: int,
    model: RatingModel,
    seeds: Sequence[int] = range(12),
    low: float = 0.35,
    high: float = 0.60,
) -> pd.DataFrame:
    """Interval α of every score over simulation ``seeds`` (min, max, and whether both lie in
    [low, high], the band of the paper's Table 2 the simulator was calibrated to). Not
    cached: it takes about a second, and a cached band could outlive a change to the
    simulator it is meant to check."""
    from ..core.statistics.agreement import krippendorff_alpha, rating_matrix

    def alphas(ratings: pd.DataFrame) -> dict[str, float]:
        return {
            d: krippendorff_alpha(
                rating_matrix(ratings[ratings["dimension"] == d], "score", rater="rater", item="item_id")
                .to_numpy(dtype=float)
                .T
            )
            for d in SCORES
        }

    band = pd.DataFrame([alphas(simulate_ratings(benchmark, n_raters, s, model)) for s in seeds]).agg(["min", "max"]).T
    band[f"within {low:.2f}–{high:.2f}"] = (band["min"] >= low) & (band["max"] <= high)
    return band


def stability(box: Data, setup: Setup) -> analysis.ClusterStability:
    """How stable the cut is (:func:`~helpers.explanations.analysis.cluster_stability`): over
    ``n_boot`` item resamples and, for simulated ratings, ``n_seeds`` further simulation seeds."""
    replicates = (
        [simulate_ratings(box.benchmark, setup.n_raters, setup.seed + 1 + k, box.model) for k in range(setup.n_seeds)]
        if box.simulated
        else []
    )
    return analysis.cluster_stability(
        box.ratings, threshold=setup.cluster_threshold, n_boot=setup.n_boot, seed=setup.seed, seed_replicates=replicates
    )


def regression_fit(regression: analysis.Regression) -> pd.DataFrame:
    """R² of the regression of Overall and what it was fitted on (``regression_fit.csv``):
    ``r2, n_ratings, n_items``."""
    return pd.DataFrame({"r2": [regression.r2], "n_ratings": [regression.n], "n_items": [regression.n_items]})


def disagreement_shape(box: Data, setup: Setup, item_stats: pd.DataFrame) -> pd.DataFrame:
    """The quadratic term of SD on mean Overall (:func:`~helpers.explanations.analysis.disagreement_by_quality`)
    on the ratings and, for simulated ratings, on the simulator's latent scores before rounding
    and clipping (``disagreement_shape.csv``): ``scores, quadratic, quadratic_p``."""
    shapes = {"observed": analysis.disagreement_by_quality(item_stats)}
    if box.simulated:
        latent = simulate_ratings(box.benchmark, setup.n_raters, setup.seed, box.model, bounded=False)
        shapes["latent"] = analysis.disagreement_by_quality(analysis.item_statistics(latent))
    return pd.DataFrame(
        [{"scores": k, "quadratic": s.quadratic, "quadratic_p": s.quadratic_p} for k, s in shapes.items()]
    )


def contrast_beside_truth(contrast: pd.DataFrame, truth: pd.DataFrame | None) -> pd.DataFrame | None:
    """Design contrast per dimension beside the latent gap the simulator builds in
    (pass_level − fail_level)."""
    if truth is None:
        return None
    t = truth.set_index("dimension")
    out = contrast[["dimension", "mean_pass", "mean_fail", "difference"]].copy()
    out["generating_gap"] = out["dimension"].map(t["pass_level"] - t["fail_level"])
    return out


def regression_beside_truth(regression: pd.DataFrame, truth: pd.DataFrame | None) -> pd.DataFrame | None:
    """Standardised β (with its item-clustered 90% CI) beside the simulator's Overall weight."""
    if truth is None:
        return None
    out = regression[["predictor", "beta", "ci90_cluster_low", "ci90_cluster_high"]].copy()
    out["generating_weight"] = out["predictor"].map(truth.set_index("dimension")["overall_weight"])
    return out


def clusters_beside_truth(stability: analysis.ClusterStability, truth: pd.DataFrame | None) -> pd.DataFrame | None:
    """Share of resamples in which a dimension is an independent axis beside its generating
    loading on the shared general quality and its rater noise."""
    if truth is None:
        return None
    t = truth.set_index("dimension")
    out = stability.table[["dimension", "independent_share_bootstrap", "independent_share_seeds"]].copy()
    out["generating_loading"] = out["dimension"].map(t["loading"])
    out["generating_noise"] = out["dimension"].map(t["noise"])
    return out


# --------------------------------------------------------------------------- findings

#: The result files :func:`findings` reads (``results/04_explanation_judgements/<name>.csv``).
FINDINGS_INPUTS = (
    "data_summary",
    "simulator_truth",
    "design_contrast",
    "reliability",
    "spearman",
    "cluster_stability",
    "regression",
    "regression_fit",
    "disagreement_null",
    "disagreement_shape",
    "disagreement_null_thresholds",
)


def read_inputs(folder, names: Sequence[str]) -> dict[str, pd.DataFrame]:
    """The result CSVs ``names`` of ``folder`` by name; a missing or empty one is an empty frame."""
    return {name: read_saved(folder, name) for name in names}


def names_list(names: Sequence[str]) -> str:
    """Names as a phrase: ``a, b and c`` (``none`` for no names)."""
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else (names[0] if names else "none")


def absent(found: Findings, *quantities: str) -> Findings:
    """Rows for quantities that do not apply to this run (their sentences are left out)."""
    for q in quantities:
        found.add(q)
    return found


def findings(folder) -> pd.DataFrame:
    """Chapter 04's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone.

    Every quantity is always present; one whose table is missing (not saved yet, or not made
    in this run: the simulator's values for real ratings) is not applicable and its sentence
    drops out of the words. Quantities per dimension, pair or choice of thresholds carry it as
    ``group``; ``curvature`` states its verdict as a key (``hump``, ``dip``, ``flat``) that the
    words' ``## verdicts`` table phrases.

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS`.
    """
    t = read_inputs(folder, FINDINGS_INPUTS)
    truth = t["simulator_truth"] if not t["simulator_truth"].empty else None
    found = ratings_findings(Findings(), t["data_summary"])
    _reliability(found, t["reliability"])
    _design(found, t["design_contrast"], truth)
    _spearman(found, t["spearman"])
    _clusters(found, t["cluster_stability"], t["data_summary"], truth)
    _regression(found, t["regression"], t["regression_fit"], truth)
    _shape(found, t["disagreement_null"], t["disagreement_shape"])
    _thresholds(found, t["disagreement_null_thresholds"])
    return found.frame()


def _reliability(found: Findings, rel: pd.DataFrame) -> None:
    """Lowest and highest interval α and how many scores reach :data:`RELIABLE_ALPHA`."""
    if rel.empty:
        absent(found, "alpha_lowest", "alpha_highest", "reliable", "scores", "reliable_alpha")
        return
    rel = rel.set_index("dimension")
    lo, hi = rel["alpha"].idxmin(), rel["alpha"].idxmax()
    (
        found.add(
            "alpha_lowest",
            rel.loc[lo, "alpha"],
            ci=(rel.loc[lo, "alpha_ci_low"], rel.loc[lo, "alpha_ci_high"]),
            text=lo,
        )
        .add(
            "alpha_highest",
            rel.loc[hi, "alpha"],
            ci=(rel.loc[hi, "alpha_ci_low"], rel.loc[hi, "alpha_ci_high"]),
            text=hi,
        )
        .add("reliable", int((rel["alpha"] >= RELIABLE_ALPHA).sum()))
        .add("scores", len(rel))
        .add("reliable_alpha", RELIABLE_ALPHA)
    )


def _design(found: Findings, contrast: pd.DataFrame, truth: pd.DataFrame | None) -> None:
    """Designed passes against designed failures (:func:`~helpers.explanations.analysis.design_contrast`):
    the range of the gaps, how many dimensions show one at :data:`LEVEL`, and (simulated) the
    latent gap the simulator builds in."""
    if contrast.empty:
        absent(found, "gap_lowest", "gap_highest", "designed_significant", "dimensions")
    else:
        (
            found.add("gap_lowest", contrast["difference"].min())
            .add("gap_highest", contrast["difference"].max())
            .add("designed_significant", int((contrast["p_value"] < LEVEL).sum()))
            .add("dimensions", len(contrast))
        )
    gap = None if truth is None else float((truth["pass_level"] - truth["fail_level"]).dropna().iloc[0])
    found.add("generating_gap", gap)


def _spearman(found: Findings, spearman: pd.DataFrame) -> None:
    """How many ρ are significant over single ratings and over item means, and the pairs
    significant only when ratings count as independent."""
    names = (
        "n_items",
        "n_ratings",
        "pairs",
        "significant_ratings",
        "significant_items",
        "flipped",
        "flip_ratings",
        "flip_items",
    )
    if spearman.empty:
        absent(found, *names)
        return
    off = analysis.spearman_pairs(spearman)
    flipped = off[(off["p_value"] < LEVEL) & (off["p_items"] >= LEVEL)]
    (
        found.add("n_items", int(off["n_items"].iloc[0]))
        .add("n_ratings", int(off["n"].iloc[0]))
        .add("pairs", len(off))
        .add("significant_ratings", int((off["p_value"] < LEVEL).sum()))
        .add("significant_items", int((off["p_items"] < LEVEL).sum()))
        .add("flipped", len(flipped))
    )
    for r in flipped.itertuples():
        pair = f"{r.dimension_a}–{r.dimension_b}"
        found.add("flip_ratings", r.rho, group=pair, p=r.p_value)
        found.add("flip_items", r.rho_items, group=pair, p=r.p_items)
    if flipped.empty:
        absent(found, "flip_ratings", "flip_items")


def _clusters(found: Findings, stab: pd.DataFrame, summary: pd.DataFrame, truth: pd.DataFrame | None) -> None:
    """Which dimensions are independent axes, shared or unstable, from the resample shares
    rather than one cut: per dimension its share of item resamples (and of simulated seeds),
    for the unstable ones where they join, and the cut; (simulated) each dimension's loading
    beside its share."""
    if stab.empty:
        absent(
            found,
            "n_boot",
            "stable",
            "threshold",
            "independent_axes",
            "shared_axes",
            "n_unstable",
            "independent",
            "independent_seeds",
            "unstable",
            "unstable_seeds",
            "merge_distance",
            "loading",
            "alone",
        )
        return
    t = stab.set_index("dimension")
    shares = t["independent_share_bootstrap"]
    independent = [d for d, s in shares.items() if s >= STABLE]
    shared = [d for d, s in shares.items() if s <= 1 - STABLE]
    unstable = [d for d, s in shares.items() if 1 - STABLE < s < STABLE]
    threshold = summary.set_index("quantity")["value"].get("cluster_threshold") if not summary.empty else None
    seeds = t["n_seeds"].iloc[0] > 0
    (
        found.add("n_boot", t["n_boot"].iloc[0])
        .add("stable", STABLE)
        .add("threshold", threshold)
        .add("independent_axes", len(independent), text=names_list(independent))
        .add("shared_axes", len(shared), text=names_list(shared))
        .add("n_unstable", len(unstable))
    )
    for kind, names in (("independent", independent), ("unstable", unstable)):
        for d in names:
            found.add(kind, t.loc[d, "independent_share_bootstrap"], group=d)
            found.add(f"{kind}_seeds", t.loc[d, "independent_share_seeds"] if seeds else None, group=d)
            if kind == "unstable":
                found.add("merge_distance", t.loc[d, "merge_distance"], group=d)
        if not names:
            absent(found, kind, f"{kind}_seeds")
    if not unstable:
        absent(found, "merge_distance")
    if truth is None:
        absent(found, "loading", "alone")
        return
    g = truth.set_index("dimension")
    for d in sorted(shares.index, key=lambda d: g.loc[d, "loading"]):
        found.add("loading", g.loc[d, "loading"], group=d).add("alone", shares[d], group=d)


def _regression(found: Findings, regression: pd.DataFrame, fit: pd.DataFrame, truth: pd.DataFrame | None) -> None:
    """The drivers of Overall: R², the two largest β, the predictors not significant with
    item-clustered errors, the largest VIF, clustered against naive standard errors and the
    predictors that lose significance; (simulated) the three largest β beside the three
    largest generating weights and Spearman ρ of β and weights."""
    found.add("r2", fit["r2"].iloc[0] if not fit.empty else None)
    if regression.empty:
        absent(
            found,
            "first_beta",
            "second_beta",
            "predictors",
            "not_significant",
            "largest_vif",
            "se_ratio_lowest",
            "se_ratio_highest",
            "lost",
            "top_betas",
            "top_weights",
            "same_top",
            "same_order",
            "recovered_rho",
        )
        return
    reg = regression.set_index("predictor")
    order = list(reg["beta"].sort_values(ascending=False).index)
    for name, predictor in (("first_beta", order[0]), ("second_beta", order[1])):
        found.add(
            name,
            reg.loc[predictor, "beta"],
            ci=(reg.loc[predictor, "ci90_cluster_low"], reg.loc[predictor, "ci90_cluster_high"]),
            text=predictor,
        )
    weak = list(reg.index[reg["p_cluster"] >= LEVEL])
    (
        found.add("predictors", len(reg))
        .add("not_significant", len(weak), text=names_list(weak))
        .add("largest_vif", reg["vif"].max())
    )
    ratio = reg["se_cluster"] / reg["se"]
    lost = list(reg.index[(reg["p_value"] < LEVEL) & (reg["p_cluster"] >= LEVEL)])
    found.add("se_ratio_lowest", ratio.min()).add("se_ratio_highest", ratio.max()).add(
        "lost", len(lost), text=names_list(lost)
    )
    if truth is None:
        absent(found, "top_betas", "top_weights", "same_top", "same_order", "recovered_rho")
        return
    weights = truth.set_index("dimension").loc[reg.index, "overall_weight"]
    top_est = list(reg["beta"].sort_values(ascending=False).index[:3])
    top_true = list(weights.sort_values(ascending=False).index[:3])
    (
        found.add("top_betas", text=names_list(top_est))
        .add("top_weights", text=names_list(top_true))
        .add("same_top", set(top_est) == set(top_true))
        .add("same_order", top_est == top_true)
        .add("recovered_rho", st.spearmanr(reg["beta"], weights).statistic)
    )


def _shape(found: Findings, null: pd.DataFrame, shape: pd.DataFrame) -> None:
    """The quadratic term of disagreement on quality, tested against 0 (as the paper's reading
    does) and against the bounded-scale null, and (simulated) on the latent scores before
    rounding. Against the null exactly one of ``beyond_null`` (a hump stronger than the
    bounded scale makes: the term below the null's mean, p < :data:`LEVEL`), ``like_null``
    (not distinguishable) and ``weaker_than_null`` holds."""
    s = shape.set_index("scores") if not shape.empty else pd.DataFrame()
    if "observed" in s.index:
        q, p = s.loc["observed", "quadratic"], s.loc["observed", "quadratic_p"]
        curvature = "hump" if q < 0 and p < LEVEL else "dip" if q > 0 and p < LEVEL else "flat"
        found.add("quadratic", q, p=p).add("curvature", text=curvature)
    else:
        absent(found, "quadratic", "curvature")
    if not null.empty:
        n = null.iloc[0]
        rejected = bool(n["p_value"] < LEVEL)
        beyond = bool(n["observed_quadratic"] < n["null_mean"] and rejected)
        (
            found.add("latent_sd", n["latent_sd"])
            .add("n_null", int(n["n_null"]))
            .add("null_mean", n["null_mean"], ci=(n["null_ci_low"], n["null_ci_high"]), p=n["p_value"])
            .add("beyond_null", beyond)
            .add("like_null", not beyond and not rejected)
            .add("weaker_than_null", not beyond and rejected)
        )
    else:
        absent(found, "latent_sd", "n_null", "null_mean", "beyond_null", "like_null", "weaker_than_null")
    latent = "latent" in s.index
    found.add(
        "latent_quadratic",
        s.loc["latent", "quadratic"] if latent else None,
        p=s.loc["latent", "quadratic_p"] if latent else None,
    )


def _thresholds(found: Findings, sensitivity: pd.DataFrame) -> None:
    """How the bounded-scale null's p-value moves with its thresholds (from
    :func:`~helpers.explanations.bounded_scale.threshold_sensitivity`): its range, per choice of
    thresholds, the fitted thresholds and whether the reading at :data:`LEVEL` changes."""
    if sensitivity.empty:
        absent(found, "null_p_lowest", "null_p_highest", "threshold_p", "fitted_thresholds", "thresholds_matter")
        return
    p = sensitivity["p_value"]
    fitted = sensitivity[sensitivity["thresholds_from"].str.startswith("fitted")]
    found.add("null_p_lowest", p.min()).add("null_p_highest", p.max())
    for r in sensitivity.itertuples():
        found.add("threshold_p", r.p_value, group=r.thresholds_from)
    found.add("fitted_thresholds", text=fitted["thresholds"].iloc[0] if len(fitted) else "")
    found.add("thresholds_matter", not ((p >= LEVEL).all() or (p < LEVEL).all()))


__all__ = [
    "Data",
    "RatingsSource",
    "Setup",
    "setup",
    "ratings_source",
    "description",
    "ratings_description",
    "ratings_findings",
    "by_construction",
    "calibration_band",
    "stability",
    "regression_fit",
    "disagreement_shape",
    "contrast_beside_truth",
    "regression_beside_truth",
    "clusters_beside_truth",
    "FINDINGS_INPUTS",
    "findings",
    "read_inputs",
    "names_list",
    "absent",
    "RATING_FORMATS",
    "LEVEL",
    "STABLE",
    "RELIABLE_ALPHA",
]
