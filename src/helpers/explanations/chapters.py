"""What chapters 4–5 need besides the methods: checked parameters, ratings with provenance,
and the findings the pages state, as tidy frames computed from the run's tables (the
sentences that state them live in ``notebooks/words/04_explanation_judgements.md`` and
``05_explanation_evaluator.md``; see :mod:`helpers.core.findings`).

``explanations_setup`` checks the parameters both chapters share (ratings: a CSV, rating
workbooks or the simulator; the benchmark) and ``evaluator_config`` those of chapter 5's
model; both raise :class:`~helpers.core.errors.InputError` naming the parameter (and the
file, sheet, row, column, cell and value) before any work is done.

While the ratings are simulated, the simulator's own values (:func:`~helpers.explanations.
simulate.generating_values`) stand beside the estimates that merely recover them
(:func:`by_construction`): the regression weights, the clusters and the design contrast
test whether the *method* finds structure that was put there, not what people do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

import pandas as pd
from scipy import stats as st

from ..core import classroom, params, paths
from ..core.agreement import ALPHA_RELIABLE
from ..core.errors import InputError
from ..core.findings import Findings
from ..core.report import ChapterData, Provenance, table
from .evaluator import EvaluatorConfig
from .analysis import spearman_pairs
from .io import BENCHMARK_FILE, DIMENSIONS, SCORES, WorkbookRatings, load_benchmark, load_ratings, workbook_files
from .simulate import RatingModel, generating_values, simulate_ratings

RATING_FORMATS = ("a long CSV (item_id, rater, dimension, score), a Forms export, a rating workbook, a folder of "
                  "rating workbooks or a list of them (python -m helpers template explanations)")


@dataclass(frozen=True)
class Ratings(ChapterData):
    ratings: pd.DataFrame = None
    benchmark: pd.DataFrame = None
    model: RatingModel | None = None  # the simulator, when simulated

    @property
    def truth(self) -> pd.DataFrame | None:
        """The simulator's generating values per score (None for real ratings)."""
        return generating_values(self.model) if self.simulated else None


@dataclass(frozen=True)
class ExplanationsSetup:
    """The checked parameters of chapters 4 and 5 that say where the ratings come from."""

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

    def load(self, words=None) -> Ratings:
        """The ratings (simulated, or the checked ones) with their provenance; the data box's
        sentence is section ``provenance`` of the chapter's ``words``
        (:class:`~helpers.core.findings.Words`), filled from :meth:`provenance`."""
        if self.simulated:
            ratings = simulate_ratings(self.benchmark, n_raters=self.n_raters, seed=self.seed, model=self.model)
            files = (self.benchmark_file,)
        else:
            ratings, files = self.loaded.ratings, self.loaded.files
        detail = "" if words is None else words.say("provenance", self.provenance(ratings)).data
        return Ratings(Provenance("simulated" if self.simulated else "own", files, detail), ratings, self.benchmark,
                       self.model if self.simulated else None)

    def provenance(self, ratings: pd.DataFrame) -> pd.DataFrame:
        """What the data box states: simulated raters, seed and benchmark size, or the counts of
        the given ratings and what loading them left out (``skipped``, HTML-escaped)."""
        found = Findings().add("simulated", self.simulated)
        if self.simulated:
            found.add("simulated_raters", self.n_raters).add("seed", self.seed).add("benchmark_items", len(self.benchmark))
        else:
            _absent(found, "simulated_raters", "seed", "benchmark_items")
        notes = () if self.simulated else self.loaded.notes
        found.add("skipped", len(notes), text="; ".join(escape(n) for n in notes))
        return pd.concat([found.frame(), rating_counts(ratings)], ignore_index=True)


def _ratings_source(value):
    """Check the ``ratings_file`` parameter's form: a path (CSV, workbook, folder) or a list of workbooks."""
    if isinstance(value, (list, tuple)):
        if not value:
            raise InputError("is an empty list", parameter="ratings_file", expected=RATING_FORMATS)
        return [params.existing_file(f"ratings_file[{k}]", v, (".xlsx", ".xlsm")) for k, v in enumerate(value)]
    if not isinstance(value, (str, Path)) or not str(value).strip():
        raise InputError("must be a path or a list of paths", parameter="ratings_file", value=value,
                         expected=RATING_FORMATS)
    try:
        path = paths.resolve_input(value)
    except FileNotFoundError as exc:
        raise InputError(f"not found ({exc})", parameter="ratings_file", value=str(value)) from None
    if path.is_dir():
        return path
    return params.existing_file("ratings_file", value, (".csv", ".txt", ".xlsx", ".xlsm"))


def explanations_setup(ratings_file=None, benchmark_file=None, n_raters=16, seed=42, rating_model={},
                       results_dir="results", unfinished="stop", projection=None) -> ExplanationsSetup:
    """Check where the ratings come from: a ratings CSV, rating workbooks (one file, a
    folder, or a list; their items must be in the benchmark, at least two raters) or the
    simulator (its knobs, the number of raters). Defaults as in the notebooks' parameters
    cells (``rating_model`` is only read, never changed). ``projection`` (None: on for a
    class's workbooks, which carry a Student: field; off for a CSV and the simulation) shows
    the raters as ``student 1 … n`` (:class:`helpers.core.classroom.Projection`; the key
    goes to ``<results_dir>/student_key.csv``)."""
    bench_path = BENCHMARK_FILE if benchmark_file is None else params.existing_file("benchmark_file",
                                                                                    benchmark_file, (".csv",))
    try:
        benchmark = load_benchmark(bench_path)
    except InputError as exc:
        raise exc.located(parameter="benchmark_file") from None
    model = RatingModel.from_parameters(rating_model or {})
    unfinished = classroom.unfinished_choice(unfinished)
    loaded = None
    if ratings_file is not None:
        source = _ratings_source(ratings_file)
        try:
            loaded = load_ratings(source, benchmark, unfinished=unfinished)
        except InputError as exc:
            raise exc.located(parameter="ratings_file") from None
        ratings = loaded.ratings
        first = Path(loaded.files[0]) if loaded.files else None
        sheet = "Ratings" if workbook_files(source) else None
        unknown = sorted(set(ratings["item_id"]) - set(benchmark["item_id"]))
        if unknown:
            raise InputError(f"{len(unknown)} rated item(s) are not in the benchmark, e.g. {unknown[:5]}",
                             parameter="ratings_file", file=first, sheet=sheet, column="item_id", value=unknown[0],
                             expected=f"item ids of {bench_path}")
        raters = ratings["rater"].nunique()
        if raters < 2:
            raise InputError(f"has {raters} rater(s) with ratings; reliability needs at least 2",
                             parameter="ratings_file", file=first, column="rater")
    params.text("results_dir", str(results_dir))
    projection = None if projection is None else params.boolean("projection", projection)
    if loaded is not None:
        loaded, _ = loaded.for_page(projection, results_dir)
    return ExplanationsSetup(ratings_file, benchmark, str(bench_path), params.integer("n_raters", n_raters, minimum=2),
                             params.integer("seed", seed), model, loaded)


def evaluator_config(mode="frozen", model_path=None, ridge_alpha=10.0, epochs=50, learning_rate=2e-5, batch_size=2,
                     max_length=128, n_test=None, split_seed=42) -> EvaluatorConfig:
    """Check chapter 5's model parameters (``n_test`` None: held-out metaphors follow the data,
    :func:`~helpers.explanations.evaluator.held_out_metaphors`)."""
    params.choice("mode", mode, ("frozen", "finetune"))
    path = None if model_path is None else str(params.model_folder("model_path", model_path))
    return EvaluatorConfig(mode=mode, model_path=path,
                           ridge_alpha=params.number("ridge_alpha", ridge_alpha, minimum=0),
                           epochs=params.integer("epochs", epochs, minimum=1),
                           learning_rate=params.number("learning_rate", learning_rate, minimum=0),
                           batch_size=params.integer("batch_size", batch_size, minimum=1),
                           max_length=params.integer("max_length", max_length, minimum=8, maximum=512),
                           n_test=None if n_test is None else params.integer("n_test", n_test, minimum=2),
                           seed=params.integer("split_seed", split_seed))


def check_replicates(n_splits, n_rating_sets) -> tuple[int, int]:
    """Grouped splits (≥ 1) and simulated rating sets (≥ 1) of chapter 5's repeated comparison."""
    return (params.integer("n_splits", n_splits, minimum=1, maximum=100),
            params.integer("n_rating_sets", n_rating_sets, minimum=1, maximum=50))


def check_cluster_threshold(value) -> float:
    """The dendrogram cut (distance 1 − ρ lies between 0 and 2)."""
    return params.number("cluster_threshold", value, minimum=0, maximum=2)


def check_resamples(n_boot, n_null, n_seeds) -> tuple[int, int, int]:
    """Bootstrap resamples (≥ 20), bounded-scale null replicates (≥ 99), simulated seeds (≥ 0)."""
    return (params.integer("n_boot", n_boot, minimum=20), params.integer("n_null", n_null, minimum=99),
            params.integer("n_seeds", n_seeds, minimum=0))


def calibration_band(benchmark: pd.DataFrame, n_raters: int, model: RatingModel, seeds: Sequence[int] = range(12),
                     low: float = 0.35, high: float = 0.60) -> pd.DataFrame:
    """Interval α of every score over simulation ``seeds`` (min, max, and whether both lie in
    [low, high], the band of the paper's Table 2 the simulator was calibrated to). Not
    cached: it takes about a second, and a cached band could outlive a change to the
    simulator it is meant to check."""
    from ..core.agreement import krippendorff_alpha, rating_matrix

    def alphas(ratings: pd.DataFrame) -> dict[str, float]:
        return {d: krippendorff_alpha(rating_matrix(ratings[ratings["dimension"] == d], "score", rater="rater",
                                                    item="item_id").to_numpy(dtype=float).T) for d in SCORES}

    band = pd.DataFrame([alphas(simulate_ratings(benchmark, n_raters, s, model)) for s in seeds]).agg(["min", "max"]).T
    band[f"within {low:.2f}–{high:.2f}"] = (band["min"] >= low) & (band["max"] <= high)
    return band


# --------------------------------------------------------------------------- small helpers


def _list(names: Sequence[str]) -> str:
    """Names as a phrase: ``a, b and c`` (``none`` for no names)."""
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else (names[0] if names else "none")


def _absent(found: Findings, *quantities: str) -> Findings:
    """Rows for quantities that do not apply to this run (their sentences are left out)."""
    for q in quantities:
        found.add(q)
    return found


def _box_html(text: str) -> str:
    """A filled words section (paragraphs and ``-`` list items) as escaped HTML for a box."""
    html = []
    for block in text.split("\n\n"):
        lines = block.split("\n")
        items = [line for line in lines if re.match(r"\s*[-*] ", line)]
        prose = " ".join(line for line in lines if line not in items)
        if prose:
            html.append(f"<p style='margin:.3em 0'>{escape(prose)}</p>")
        if items:
            html.append("<ul style='margin:.3em 0'>" + "".join(f"<li>{escape(i.strip()[2:])}</li>" for i in items)
                        + "</ul>")
    return "".join(html)


# --------------------------------------------------------------------------- recovered by construction


def by_construction(frame: pd.DataFrame | None, text, decimals: int = 3):
    """A box "Recovered by construction" with ``text`` (a filled words section, as Markdown
    text or :meth:`~helpers.core.findings.Words.say`'s output) and the estimates beside the
    simulator's generating values (``frame``); nothing for real ratings (``frame`` None)."""
    from IPython.display import HTML

    if frame is None:
        return None
    return HTML("<div class='by-construction' style='background:#fff4e0;border-left:6px solid #b45f06;"
                "padding:.5em 1em;margin:1em 0'><strong style='color:#b45f06'>Recovered by construction (simulated "
                f"data)</strong>{_box_html(getattr(text, 'data', text))}" + table(frame, decimals).to_html() + "</div>")


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


def clusters_beside_truth(stability, truth: pd.DataFrame | None) -> pd.DataFrame | None:
    """Share of resamples in which a dimension is an independent axis beside its generating
    loading on the shared general quality and its rater noise."""
    if truth is None:
        return None
    t = truth.set_index("dimension")
    out = stability.table[["dimension", "independent_share_bootstrap", "independent_share_seeds"]].copy()
    out["generating_loading"] = out["dimension"].map(t["loading"])
    out["generating_noise"] = out["dimension"].map(t["noise"])
    return out


# --------------------------------------------------------------------------- chapter 4: data and design


def rating_counts(ratings: pd.DataFrame) -> pd.DataFrame:
    """How many explanations, raters and ratings the chapter analyses (section ``data``)."""
    return (Findings().add("items", ratings["item_id"].nunique()).add("raters", ratings["rater"].nunique())
            .add("ratings", len(ratings)).frame())


def design_findings(contrast: pd.DataFrame, truth: pd.DataFrame | None = None, level: float = 0.05) -> pd.DataFrame:
    """Designed passes against designed failures (:func:`~helpers.explanations.analysis.design_contrast`):
    the range of the gaps, how many dimensions show one at ``level``, and (simulated) the
    latent gap the simulator builds in (sections ``recovered_contrast`` and ``findings``)."""
    found = (Findings().add("gap_lowest", contrast["difference"].min()).add("gap_highest", contrast["difference"].max())
             .add("designed_significant", int((contrast["p_value"] < level).sum())).add("dimensions", len(contrast)))
    gap = None if truth is None else float((truth["pass_level"] - truth["fail_level"]).dropna().iloc[0])
    return found.add("generating_gap", gap).frame()


def regression_recovery(regression: pd.DataFrame, truth: pd.DataFrame | None) -> pd.DataFrame:
    """The regression beside the simulator's Overall weights (section ``recovered_regression``):
    the three largest β and weights, whether they are the same (and in the same order), and
    Spearman ρ of β and weights; not applicable for real ratings."""
    found = Findings()
    if truth is None:
        return _absent(found, "top_betas", "top_weights", "same_top", "same_order", "recovered_rho").frame()
    reg, t = regression.set_index("predictor"), truth.set_index("dimension")
    weights = t.loc[reg.index, "overall_weight"]
    top_est = list(reg["beta"].sort_values(ascending=False).index[:3])
    top_true = list(weights.sort_values(ascending=False).index[:3])
    return (found.add("top_betas", text=_list(top_est)).add("top_weights", text=_list(top_true))
            .add("same_top", set(top_est) == set(top_true)).add("same_order", top_est == top_true)
            .add("recovered_rho", st.spearmanr(reg["beta"], weights).statistic).frame())


def clusters_recovery(stability, truth: pd.DataFrame | None) -> pd.DataFrame:
    """Per dimension (by its generating loading) the loading and the share of item resamples
    in which it is an independent axis (section ``recovered_clusters``); not applicable for
    real ratings."""
    found = Findings()
    if truth is None:
        return _absent(found, "loading", "alone").frame()
    t = truth.set_index("dimension")
    shares = stability.table.set_index("dimension")["independent_share_bootstrap"]
    for d in sorted(shares.index, key=lambda d: t.loc[d, "loading"]):
        found.add("loading", t.loc[d, "loading"], group=d).add("alone", shares[d], group=d)
    return found.frame()


# --------------------------------------------------------------------------- chapter 4: structure


def spearman_significance(spearman: pd.DataFrame, level: float = 0.05) -> pd.DataFrame:
    """How many ρ are significant at ``level`` over single ratings and over item means, and the
    pairs significant only when ratings count as independent (section ``spearman_significance``)."""
    off = spearman_pairs(spearman)
    flipped = off[(off["p_value"] < level) & (off["p_items"] >= level)]
    found = (Findings().add("n_items", int(off["n_items"].iloc[0])).add("n_ratings", int(off["n"].iloc[0]))
             .add("pairs", len(off)).add("significant_ratings", int((off["p_value"] < level).sum()))
             .add("significant_items", int((off["p_items"] < level).sum())).add("flipped", len(flipped)))
    for r in flipped.itertuples():
        pair = f"{r.dimension_a}–{r.dimension_b}"
        found.add("flip_ratings", r.rho, group=pair, p=r.p_value).add("flip_items", r.rho_items, group=pair, p=r.p_items)
    if flipped.empty:
        _absent(found, "flip_ratings", "flip_items")
    return found.frame()


def regression_fit(regression) -> pd.DataFrame:
    """R² of the regression of Overall and what it was fitted on (section ``regression_fit``)."""
    return (Findings().add("r2", regression.r2).add("n_ratings", regression.n).add("n_items", regression.n_items)
            .frame())


def regression_significance(regression: pd.DataFrame, level: float = 0.05) -> pd.DataFrame:
    """Item-clustered against naive standard errors (their ratio's range) and the predictors
    that lose significance at ``level`` (section ``regression_significance``)."""
    ratio = regression["se_cluster"] / regression["se"]
    lost = regression[(regression["p_value"] < level) & (regression["p_cluster"] >= level)]["predictor"].tolist()
    return (Findings().add("se_ratio_lowest", ratio.min()).add("se_ratio_highest", ratio.max())
            .add("lost", len(lost), text=_list(lost)).frame())


@dataclass(frozen=True)
class StabilityVerdicts:
    """Dimensions that are an independent axis in ≥ ``stable`` of the item resamples, in a
    shared cluster in ≥ ``stable``, or in between (unstable)."""

    independent: list[str]
    shared: list[str]
    unstable: list[str]
    stable: float


def stability_verdicts(stability, stable: float = 0.9) -> StabilityVerdicts:
    """Read :func:`~helpers.explanations.analysis.cluster_stability`'s shares at ``stable``."""
    shares = stability.table.set_index("dimension")["independent_share_bootstrap"]
    return StabilityVerdicts([d for d, s in shares.items() if s >= stable],
                             [d for d, s in shares.items() if s <= 1 - stable],
                             [d for d, s in shares.items() if 1 - stable < s < stable], stable)


def cluster_findings(stability, stable: float = 0.9) -> pd.DataFrame:
    """Which dimensions are independent axes, shared or unstable, from the resample shares
    rather than one cut (section ``clusters``): per dimension its share of item resamples
    (and of simulated seeds), for the unstable ones where they join, and the cut."""
    v = stability_verdicts(stability, stable)
    t = stability.table.set_index("dimension")
    seeds = stability.n_seeds > 0
    found = (Findings().add("n_boot", stability.n_boot).add("stable", stable).add("threshold", stability.threshold)
             .add("independent_axes", len(v.independent), text=_list(v.independent))
             .add("shared_axes", len(v.shared), text=_list(v.shared)).add("n_unstable", len(v.unstable)))
    for kind, names in (("independent", v.independent), ("unstable", v.unstable)):
        for d in names:
            found.add(kind, t.loc[d, "independent_share_bootstrap"], group=d)
            found.add(f"{kind}_seeds", t.loc[d, "independent_share_seeds"] if seeds else None, group=d)
            if kind == "unstable":
                found.add("merge_distance", t.loc[d, "merge_distance"], group=d)
        if not names:
            _absent(found, kind, f"{kind}_seeds")
    if not v.unstable:
        _absent(found, "merge_distance")
    return found.frame()


# --------------------------------------------------------------------------- chapter 4: disagreement

#: How the quadratic term of SD on mean reads against 0 (the paper's reading).
CURVATURES = {"hump": "disagreement peaks at intermediate quality (negative quadratic term)",
              "dip": "disagreement is lowest at intermediate quality (positive quadratic term)",
              "flat": "no clear curvature"}

def shape_findings(shape, null=None, latent_shape=None, level: float = 0.05) -> pd.DataFrame:
    """The quadratic term of disagreement on quality, tested against 0 (as the paper's reading
    does) and against the bounded-scale null, and (simulated) on the latent scores before
    rounding (section ``shape``). Against the null exactly one of ``beyond_null`` (a hump
    stronger than the bounded scale makes), ``like_null`` (not distinguishable at ``level``)
    and ``weaker_than_null`` holds."""
    q, p = shape.quadratic, shape.quadratic_p
    curvature = "hump" if q < 0 and p < level else "dip" if q > 0 and p < level else "flat"
    found = Findings().add("quadratic", q, p=p).add("curvature", text=CURVATURES[curvature], verdict=curvature)
    if null is not None:
        s = null.summary.iloc[0]
        beyond, rejected = bool(null.beyond_null), bool(s["p_value"] < level)
        (found.add("latent_sd", null.latent_sd).add("n_null", int(s["n_null"]))
         .add("null_mean", s["null_mean"], ci=(s["null_ci_low"], s["null_ci_high"]), p=s["p_value"])
         .add("beyond_null", beyond).add("like_null", not beyond and not rejected)
         .add("weaker_than_null", not beyond and rejected))
    else:
        _absent(found, "latent_sd", "n_null", "null_mean", "beyond_null", "like_null", "weaker_than_null")
    found.add("latent_quadratic", None if latent_shape is None else latent_shape.quadratic,
              p=None if latent_shape is None else latent_shape.quadratic_p)
    return found.frame()


def threshold_findings(sensitivity: pd.DataFrame | None, level: float = 0.05) -> pd.DataFrame:
    """How the bounded-scale null's p-value moves with its thresholds (from
    :func:`~helpers.explanations.analysis.threshold_sensitivity`; section ``thresholds``):
    its range, per choice of thresholds, the fitted thresholds and whether the reading at
    ``level`` changes."""
    found = Findings()
    if sensitivity is None:
        return _absent(found, "null_p_lowest", "null_p_highest", "threshold_p", "fitted_thresholds",
                       "thresholds_matter").frame()
    p = sensitivity["p_value"]
    fitted = sensitivity[sensitivity["thresholds_from"].str.startswith("fitted")]
    found.add("null_p_lowest", p.min()).add("null_p_highest", p.max())
    for r in sensitivity.itertuples():
        found.add("threshold_p", r.p_value, group=r.thresholds_from)
    found.add("fitted_thresholds", text=fitted["thresholds"].iloc[0] if len(fitted) else "")
    return found.add("thresholds_matter", not ((p >= level).all() or (p < level).all())).frame()


# --------------------------------------------------------------------------- findings of chapter 4

#: The α from which single ratings count as reliable (Krippendorff's convention, the book's one:
#: :func:`helpers.core.agreement.alpha_reading`).
RELIABLE_ALPHA = ALPHA_RELIABLE


def judgements_findings(*, reliability: pd.DataFrame, spearman: pd.DataFrame, stability, regression: pd.DataFrame,
                        shape, null, contrast: pd.DataFrame, truth: pd.DataFrame | None,
                        sensitivity: pd.DataFrame | None = None, level: float = 0.05) -> pd.DataFrame:
    """The closing findings of chapter 4 (section ``findings``), every number from this run's
    tables: reliability and drivers here, the rest from the sections' findings functions."""
    rel = reliability.set_index("dimension")
    lo, hi = rel["alpha"].idxmin(), rel["alpha"].idxmax()
    reg = regression.set_index("predictor")
    order = list(reg["beta"].sort_values(ascending=False).index)
    weak = list(reg.index[reg["p_cluster"] >= level])
    found = (Findings().add("simulated", truth is not None)
             .add("alpha_lowest", rel.loc[lo, "alpha"], ci=(rel.loc[lo, "alpha_ci_low"], rel.loc[lo, "alpha_ci_high"]),
                  text=lo)
             .add("alpha_highest", rel.loc[hi, "alpha"],
                  ci=(rel.loc[hi, "alpha_ci_low"], rel.loc[hi, "alpha_ci_high"]), text=hi)
             .add("reliable", int((rel["alpha"] >= RELIABLE_ALPHA).sum())).add("scores", len(rel))
             .add("reliable_alpha", RELIABLE_ALPHA))
    for name, predictor in (("first_beta", order[0]), ("second_beta", order[1])):
        found.add(name, reg.loc[predictor, "beta"],
                  ci=(reg.loc[predictor, "ci90_cluster_low"], reg.loc[predictor, "ci90_cluster_high"]), text=predictor)
    (found.add("predictors", len(reg)).add("not_significant", len(weak), text=_list(weak))
     .add("largest_vif", reg["vif"].max()))
    parts = [found.frame(), cluster_findings(stability), spearman_significance(spearman, level),
             regression_significance(regression, level), shape_findings(shape, null, level=level),
             threshold_findings(sensitivity, level), design_findings(contrast, truth, level),
             regression_recovery(regression, truth), clusters_recovery(stability, truth)]
    return pd.concat(parts, ignore_index=True)


# --------------------------------------------------------------------------- chapter 5


def evaluator_setup(config, result) -> pd.DataFrame:
    """What was trained on what (section ``setup``): mode, encoder, training and held-out
    metaphors, why that many are held out (``n_test`` as given, or a fifth of the
    metaphors), the correlation so many held-out items can detect, and the stage-2
    cross-validated MAE on the training part."""
    from ..core.encoder import model_name
    from ..core.stats import detectable_correlation

    split = result["split"]
    held = split["set"] == "held-out"
    n_metaphors, n_held_out = split["metaphor"].nunique(), split.loc[held, "metaphor"].nunique()
    return (Findings().add("mode", text=config.mode).add("encoder", text=config.model_path or model_name(None))
            .add("packaged", config.model_path is None).add("n_metaphors", n_metaphors)
            .add("n_train", n_metaphors - n_held_out).add("n_held_out", n_held_out)
            .add("held_out_share", config.n_test is None)
            .add("paper_share", config.n_test is None and n_metaphors == 100)
            .add("held_out_detectable_r", detectable_correlation(int(held.sum())))
            .add("stage2_cv_mae", result["stage2_cv"]["mae"].mean()).frame())


PAPER_JUDGE_MAE = 0.689  # Naveriani et al. 2026, Table 5, OVERALL QUALITY (the stage-2 judge)


def evaluator_summary(mae: pd.DataFrame, versus: pd.DataFrame | None = None) -> pd.DataFrame:
    """Where stage 1 beats the mean baseline, and the judge compared with the baselines and
    with the paper's judge (section ``summary``)."""
    dims = mae[mae["score"].isin(SCORES)]
    better = dims[dims["test_mae"] < dims["mean_baseline_mae"]]["score"].tolist()
    worse = dims[dims["test_mae"] >= dims["mean_baseline_mae"]]["score"].tolist()
    judge = mae[mae["score"] == "overall (stage 2)"].iloc[0]
    stage1 = mae[mae["score"] == "overall"].iloc[0]
    found = (Findings().add("better_scores", len(better), text=_list(better) if better else "")
             .add("worse_scores", len(worse), text=_list(worse) if worse else "").add("n_scores", len(dims))
             .add("judge_mae", judge["test_mae"]).add("mean_baseline_mae", judge["mean_baseline_mae"])
             .add("beats_mean", bool(judge["test_mae"] < judge["mean_baseline_mae"]))
             .add("similarity_baseline_mae", judge["similarity_baseline_mae"])
             .add("beats_similarity", bool(judge["test_mae"] < judge["similarity_baseline_mae"])))
    if versus is not None:
        m = versus.set_index("other").loc["training mean"]
        found.add("mean_difference", m["difference"], ci=(m["ci_low"], m["ci_high"]))
    else:
        found.add("mean_difference")
    return (found.add("paper_judge_mae", PAPER_JUDGE_MAE).add("stage1_overall_mae", stage1["test_mae"])
            .add("delta_lowest", dims["delta"].min()).add("delta_highest", dims["delta"].max()).frame())


def evaluator_beside_published(mae: pd.DataFrame, weights: pd.DataFrame, published: pd.DataFrame
                               ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """This run's and the paper's Tables 5/10 aligned judge with judge: the paper's Overall
    row is its stage-2 judge, so it is set beside ``overall (stage 2)``; stage 1's Overall
    has no published counterpart."""
    mine = mae[mae["score"] != "overall"].merge(
        weights.rename(columns={"dimension": "score", "weight": "judge_weight"}), on="score", how="left")
    pub = published.rename(columns={"weight": "judge_weight"}).replace({"score": {"overall": "overall (stage 2)"}})
    return mine, pub


def weights_beside_truth(weights: pd.DataFrame, truth: pd.DataFrame | None) -> pd.DataFrame | None:
    """The judge's feature importances beside the simulator's Overall weights."""
    if truth is None:
        return None
    out = weights.rename(columns={"weight": "judge_importance"}).copy()
    out["generating_weight"] = out["dimension"].map(truth.set_index("dimension")["overall_weight"])
    return out


def disagreement_power(disagreement: pd.DataFrame, level: float = 0.05) -> pd.DataFrame:
    """Is the correlation of human disagreement and model error significant at ``level``, and
    which |r| its n detects with 80% power (section ``disagreement``); undefined when the
    held-out items' SDs or errors do not vary."""
    from ..core.stats import detectable_correlation

    d = disagreement.set_index("statistic").loc["pearson_r"]
    n = int(d["n"])
    return (Findings().add("disagreement_r", d["value"], p=d["p_value"]).add("disagreement_n", n)
            .add("disagreement_significant", bool(d["p_value"] < level))
            .add("disagreement_undefined", bool(pd.isna(d["value"])))
            .add("detectable_r", detectable_correlation(n)).frame())


#: What the repeated comparison shows, by the share of fits in which the judge is worse.
REPLICATE_READINGS = {"always": "the judge is worse than a constant in every tested case",
                      "mostly worse": "the judge is worse than a constant in most tested cases",
                      "mostly better": "the judge beats a constant in most tested cases",
                      "depends": "whether the judge beats a constant depends on the split and the ratings"}


def replicate_findings(replicates: pd.DataFrame | None, simulated: bool) -> pd.DataFrame:
    """What the repeated comparison (:func:`~helpers.explanations.evaluator.judge_replicates`)
    shows (section ``replicates``): fits, splits, rating sets, in how many the judge is worse
    than the training mean, the range and median of the difference and the reading."""
    found = Findings()
    if replicates is None:
        return _absent(found, "fits", "splits", "rating_sets", "judge_worse", "difference_lowest", "difference_highest",
                       "difference_median", "replicate_reading", "replicate_held_out", "simulated_ratings").frame()
    n, worse = len(replicates), int((replicates["difference"] > 0).sum())
    sets, d = replicates["ratings"].nunique(), replicates["difference"]
    share = worse / n
    reading = ("always" if worse == n else "mostly worse" if share >= 0.8 else "mostly better" if share <= 0.2
               else "depends")
    return (found.add("fits", n).add("splits", replicates["split_seed"].nunique())
            .add("rating_sets", sets if simulated and sets > 1 else None).add("judge_worse", worse)
            .add("difference_lowest", d.min()).add("difference_highest", d.max()).add("difference_median", d.median())
            .add("replicate_reading", text=REPLICATE_READINGS[reading], verdict=reading)
            .add("replicate_held_out", int(replicates["n_held_out"].iloc[0]))
            .add("simulated_ratings", bool(simulated)).frame())


#: The judge against the training mean on the chapter's split, by the bootstrap interval of the difference.
JUDGE_VERDICTS = {"worse": "worse than", "better": "better than", "same": "not distinguishable from"}


def evaluator_findings(*, mae: pd.DataFrame, versus: pd.DataFrame, disagreement: pd.DataFrame,
                       weights: pd.DataFrame, truth: pd.DataFrame | None,
                       replicates: pd.DataFrame | None = None) -> pd.DataFrame:
    """The closing findings of chapter 5 (section ``findings``), every number from this run
    (``versus`` is :func:`~helpers.explanations.evaluator.judge_vs_baselines`, ``replicates``
    :func:`~helpers.explanations.evaluator.judge_replicates`)."""
    dims = mae[mae["score"].isin(DIMENSIONS)]
    better = dims[dims["test_mae"] < dims["mean_baseline_mae"]]
    gain = 1 - better["test_mae"] / better["mean_baseline_mae"]
    best = better.loc[gain.idxmax()] if len(better) else None
    found = Findings().add("simulated", truth is not None).add("better_dimensions", len(better)).add("n_dimensions", len(dims))
    found.add("best_gain_mae", None if best is None else best["test_mae"], text="" if best is None else best["score"])
    found.add("best_gain_baseline", None if best is None else best["mean_baseline_mae"])
    found.add("overfit_lowest", dims["delta"].min()).add("overfit_highest", dims["delta"].max())
    m = versus.set_index("other").loc["training mean"]
    verdict = "worse" if m["ci_low"] > 0 else "better" if m["ci_high"] < 0 else "same"
    (found.add("judge_mae", m["judge_mae"]).add("constant_mae", m["other_mae"])
     .add("judge_difference", m["difference"], ci=(m["ci_low"], m["ci_high"])).add("held_out_items", int(m["n_items"]))
     .add("judge_verdict", text=JUDGE_VERDICTS[verdict], verdict=verdict).add("paper_judge_mae", PAPER_JUDGE_MAE))
    if truth is not None:
        w = weights_beside_truth(weights, truth)
        (found.add("importance_rho", st.spearmanr(w["judge_importance"], w["generating_weight"]).statistic)
         .add("most_important", text=w.sort_values("judge_importance", ascending=False)["dimension"].iloc[0]))
    else:
        _absent(found, "importance_rho", "most_important")
    return pd.concat([found.frame(), replicate_findings(replicates, truth is not None), disagreement_power(disagreement)],
                     ignore_index=True)


__all__ = ["DIMENSIONS", "ExplanationsSetup", "Ratings", "evaluator_config", "explanations_setup",
           "check_cluster_threshold", "check_resamples", "check_replicates", "calibration_band", "RATING_FORMATS",
           "by_construction", "contrast_beside_truth", "regression_beside_truth", "clusters_beside_truth",
           "rating_counts", "design_findings", "regression_recovery", "clusters_recovery", "spearman_significance",
           "regression_fit", "regression_significance", "StabilityVerdicts", "stability_verdicts", "cluster_findings",
           "CURVATURES", "shape_findings", "threshold_findings", "RELIABLE_ALPHA",
           "judgements_findings", "evaluator_setup", "PAPER_JUDGE_MAE", "evaluator_summary",
           "evaluator_beside_published", "weights_beside_truth", "disagreement_power", "REPLICATE_READINGS",
           "replicate_findings", "JUDGE_VERDICTS", "evaluator_findings"]
