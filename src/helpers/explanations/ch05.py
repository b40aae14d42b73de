"""What chapter 05 needs besides the evaluator: checked parameters, ratings with provenance, steps, findings.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks every
parameter before any work (the ratings as chapter 04 does, :func:`helpers.explanations.ch04.ratings_source`;
the model, :func:`evaluator_config`; the repeated comparison) and raises
:class:`~helpers.core.errors.InputError` naming the parameter. ``setup.load()`` returns
:class:`~helpers.explanations.ch04.Data` (the ratings with their provenance, loaded one way in
both chapters). The model is :mod:`helpers.explanations.evaluator`; the steps here take the box
(or its tables) and return tidy frames, which the chapter saves as its result CSVs.
:func:`findings` reads them back by their public names (:data:`FINDINGS_INPUTS`) and returns
every number the page states, so the findings can be recomputed and tested from
``results/05_explanation_evaluator/*.csv`` alone; the sentences are
``notebooks/words/05_explanation_evaluator.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
from scipy import stats as st

from ..core import params
from ..core.book.findings import Findings
from ..core.encoder import model_name
from ..core.formats import published
from ..core.statistics.stats import detectable_correlation
from . import evaluator
from .ch04 import (
    LEVEL,
    Data,
    RatingsSource,
    absent,
    names_list,
    ratings_description,
    ratings_findings,
    ratings_source,
    read_inputs,
)
from .evaluator import EvaluatorConfig
from .io import DIMENSIONS, SCORES
from .simulate import simulate_ratings

STUDY = "metaphor_explanations"


@dataclass(frozen=True)
class Setup:
    """Chapter 05's checked parameters (see the chapter's parameters cell)."""

    source: RatingsSource
    config: EvaluatorConfig
    n_splits: int
    n_rating_sets: int

    @property
    def seed(self) -> int:
        return self.source.seed

    def load(self) -> Data:
        """The data box: the simulated ratings, or the given ones (as chapter 04's)."""
        return self.source.load()


def evaluator_config(
    mode="frozen",
    model_path=None,
    ridge_alpha=10.0,
    epochs=50,
    learning_rate=2e-5,
    batch_size=2,
    max_length=128,
    n_test=None,
    split_seed=42,
) -> EvaluatorConfig:
    """Check the model's parameters (``n_test`` None: held-out metaphors follow the data,
    :func:`~helpers.explanations.evaluator.held_out_metaphors`)."""
    params.choice("mode", mode, ("frozen", "finetune"))
    path = None if model_path is None else str(params.model_folder("model_path", model_path))
    return EvaluatorConfig(
        mode=mode,
        model_path=path,
        ridge_alpha=params.number("ridge_alpha", ridge_alpha, minimum=0),
        epochs=params.integer("epochs", epochs, minimum=1),
        learning_rate=params.number("learning_rate", learning_rate, minimum=0),
        batch_size=params.integer("batch_size", batch_size, minimum=1),
        max_length=params.integer("max_length", max_length, minimum=8, maximum=512),
        n_test=None if n_test is None else params.integer("n_test", n_test, minimum=2),
        seed=params.integer("split_seed", split_seed),
    )


def setup(
    ratings_file=None,
    unfinished="stop",
    projection=None,
    benchmark_file=None,
    n_raters=16,
    seed=42,
    rating_model=None,
    mode="frozen",
    model_path=None,
    ridge_alpha=10.0,
    epochs=50,
    learning_rate=2e-5,
    batch_size=2,
    max_length=128,
    n_test=None,
    split_seed=42,
    n_splits=6,
    n_rating_sets=3,
    results_dir="results",
) -> Setup:
    """Check chapter 05's parameters before any work (each problem names its parameter).

    The ratings' parameters as :func:`helpers.explanations.ch04.ratings_source`, the model's as
    :func:`evaluator_config`; ``n_splits`` (1–100) further metaphor-grouped splits and
    ``n_rating_sets`` (1–50) simulated rating sets for the repeated comparison.
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
    config = evaluator_config(
        mode=mode,
        model_path=model_path,
        ridge_alpha=ridge_alpha,
        epochs=epochs,
        learning_rate=learning_rate,
        batch_size=batch_size,
        max_length=max_length,
        n_test=n_test,
        split_seed=split_seed,
    )
    return Setup(
        source,
        config,
        params.integer("n_splits", n_splits, minimum=1, maximum=100),
        params.integer("n_rating_sets", n_rating_sets, minimum=1, maximum=50),
    )


def description(box: Data, setup: Setup) -> pd.DataFrame:
    """The run's data in one table (``data_summary.csv``): ``quantity, value, text``, the
    ratings (:func:`~helpers.explanations.ch04.ratings_description`), the model (mode, encoder,
    whether the packaged one, ``n_test`` as given) and the repeated comparison's size."""
    c = setup.config
    rows = pd.DataFrame(
        [
            ("mode", None, c.mode),
            ("encoder", None, c.model_path or model_name(None)),
            ("packaged", int(c.model_path is None), ""),
            ("n_test", c.n_test, ""),
            ("n_splits", setup.n_splits, ""),
            ("n_rating_sets", setup.n_rating_sets, ""),
        ],
        columns=["quantity", "value", "text"],
    )
    return pd.concat([ratings_description(box, setup.source), rows], ignore_index=True)


# --------------------------------------------------------------------------- steps


def replicates(box: Data, setup: Setup, items: pd.DataFrame) -> pd.DataFrame:
    """The judge against the training mean on ``n_splits`` further splits and, for simulated
    ratings, ``n_rating_sets`` rating sets (seeds ``seed``, ``seed + 1``, …;
    :func:`~helpers.explanations.evaluator.judge_replicates`); ``items`` are the run's item
    targets (the first rating set)."""
    rating_sets = {f"seed {setup.seed}": items}
    if box.simulated:
        rating_sets.update(
            {
                f"seed {s}": evaluator.item_targets(
                    simulate_ratings(box.benchmark, setup.source.n_raters, s, box.model)
                )
                for s in range(setup.seed + 1, setup.seed + setup.n_rating_sets)
            }
        )
    return evaluator.judge_replicates(rating_sets, setup.config, split_seeds=range(setup.n_splits))


def run_beside_paper(mae: pd.DataFrame, weights: pd.DataFrame) -> pd.DataFrame:
    """This run's Tables 5/10 as the paper's are laid out: every score but stage 1's Overall
    (which has no published counterpart), with the judge's weight of each dimension."""
    return mae[mae["score"] != "overall"].merge(
        weights.rename(columns={"dimension": "score", "weight": "judge_weight"}), on="score", how="left"
    )


def paper_beside_run(table: pd.DataFrame) -> pd.DataFrame:
    """The paper's Tables 5/10 named as :func:`run_beside_paper`: its Overall row is its
    stage-2 judge, so it stands beside ``overall (stage 2)``."""
    return table.rename(columns={"weight": "judge_weight"}).replace({"score": {"overall": "overall (stage 2)"}})


def weights_beside_truth(weights: pd.DataFrame, truth: pd.DataFrame | None) -> pd.DataFrame | None:
    """The judge's feature importances beside the simulator's Overall weights."""
    if truth is None:
        return None
    out = weights.rename(columns={"weight": "judge_importance"}).copy()
    out["generating_weight"] = out["dimension"].map(truth.set_index("dimension")["overall_weight"])
    return out


def paper_judge_mae() -> float:
    """The held-out MAE of the paper's stage-2 judge on Overall quality: Naveriani et al. 2026,
    Table 5, row "Overall quality" (``data/published/metaphor_explanations/table5_10_evaluator_mae.csv``)."""
    table = published.read_published(STUDY, "table5_10_evaluator_mae").set_index("score")
    return float(table.loc["overall", "test_mae"])


# --------------------------------------------------------------------------- findings

#: The result files :func:`findings` reads (``results/05_explanation_evaluator/<name>.csv``).
FINDINGS_INPUTS = (
    "data_summary",
    "simulator_truth",
    "split",
    "stage2_cv",
    "evaluator_mae",
    "judge_vs_baselines",
    "judge_vs_baseline_replicates",
    "disagreement_vs_error",
    "judge_weights",
)
#: The shares of fits in which the judge is worse from which it is "mostly worse", and up to which "mostly better".
MOSTLY_WORSE, MOSTLY_BETTER = 0.8, 0.2


def findings(folder) -> pd.DataFrame:
    """Chapter 05's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone.

    Every quantity is always present; one whose table is missing (not saved yet, or not made
    in this run: the simulator's values for real ratings) is not applicable and its sentence
    drops out of the words. ``judge_verdict`` and ``replicate_reading`` state their verdicts as
    keys that the words' ``## verdicts`` table phrases.

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS`.
    """
    t = read_inputs(folder, FINDINGS_INPUTS)
    summary = t["data_summary"]
    found = ratings_findings(Findings(), summary)
    simulated = not summary.empty and bool(summary.set_index("quantity").loc["simulated", "value"] == 1)
    _setup(found, summary, t["split"], t["stage2_cv"])
    _errors(found, t["evaluator_mae"], t["judge_vs_baselines"])
    _replicates(found, t["judge_vs_baseline_replicates"], simulated)
    _disagreement(found, t["disagreement_vs_error"])
    truth = t["simulator_truth"] if not t["simulator_truth"].empty else None
    if truth is not None and not t["judge_weights"].empty:
        w = weights_beside_truth(t["judge_weights"], truth)
        (
            found.add("importance_rho", st.spearmanr(w["judge_importance"], w["generating_weight"]).statistic).add(
                "most_important", text=w.sort_values("judge_importance", ascending=False)["dimension"].iloc[0]
            )
        )
    else:
        absent(found, "importance_rho", "most_important")
    return found.frame()


def _setup(found: Findings, summary: pd.DataFrame, split: pd.DataFrame, cv: pd.DataFrame) -> None:
    """What was trained on what: mode, encoder, training and held-out metaphors, why that many
    are held out (``n_test`` as given, or a fifth of the metaphors), the correlation so many
    held-out items can detect, and the stage-2 cross-validated MAE on the training part."""
    d = summary.set_index("quantity") if not summary.empty else pd.DataFrame(columns=["value", "text"])
    given = "mode" in d.index
    found.add("mode", text=d.loc["mode", "text"] if given else "")
    found.add("encoder", text=d.loc["encoder", "text"] if given else "")
    found.add("packaged", d.loc["packaged", "value"] if given else None)
    if split.empty or not given:
        absent(found, "n_metaphors", "n_train", "n_held_out", "held_out_share", "paper_share", "held_out_detectable_r")
    else:
        held = split["set"] == "held-out"
        n_metaphors, n_held_out = split["metaphor"].nunique(), split.loc[held, "metaphor"].nunique()
        by_share = bool(pd.isna(d.loc["n_test", "value"]))
        (
            found.add("n_metaphors", n_metaphors)
            .add("n_train", n_metaphors - n_held_out)
            .add("n_held_out", n_held_out)
            .add("held_out_share", by_share)
            .add("paper_share", by_share and n_metaphors == 100)
            .add("held_out_detectable_r", detectable_correlation(int(held.sum())))
        )
    found.add("stage2_cv_mae", cv["mae"].mean() if not cv.empty else None)


def _errors(found: Findings, mae: pd.DataFrame, versus: pd.DataFrame) -> None:
    """Where stage 1 beats the mean baseline (every score, and the six dimensions with the
    largest gain), its overfitting, and the judge against the baselines (on the chapter's
    split, with the bootstrap interval of its difference to the training mean: the verdict)
    and against the paper's judge (:func:`paper_judge_mae`)."""
    found.add("paper_judge_mae", None if mae.empty else paper_judge_mae())
    if mae.empty:
        absent(
            found,
            "better_scores",
            "worse_scores",
            "n_scores",
            "judge_mae",
            "mean_baseline_mae",
            "beats_mean",
            "similarity_baseline_mae",
            "beats_similarity",
            "stage1_overall_mae",
            "delta_lowest",
            "delta_highest",
            "better_dimensions",
            "n_dimensions",
            "best_gain_mae",
            "best_gain_baseline",
            "overfit_lowest",
            "overfit_highest",
        )
    else:
        scores = mae[mae["score"].isin(SCORES)]
        better = scores[scores["test_mae"] < scores["mean_baseline_mae"]]["score"].tolist()
        worse = scores[scores["test_mae"] >= scores["mean_baseline_mae"]]["score"].tolist()
        judge = mae[mae["score"] == "overall (stage 2)"].iloc[0]
        stage1 = mae[mae["score"] == "overall"].iloc[0]
        (
            found.add("better_scores", len(better), text=names_list(better) if better else "")
            .add("worse_scores", len(worse), text=names_list(worse) if worse else "")
            .add("n_scores", len(scores))
            .add("judge_mae", judge["test_mae"])
            .add("mean_baseline_mae", judge["mean_baseline_mae"])
            .add("beats_mean", bool(judge["test_mae"] < judge["mean_baseline_mae"]))
            .add("similarity_baseline_mae", judge["similarity_baseline_mae"])
            .add("beats_similarity", bool(judge["test_mae"] < judge["similarity_baseline_mae"]))
            .add("stage1_overall_mae", stage1["test_mae"])
            .add("delta_lowest", scores["delta"].min())
            .add("delta_highest", scores["delta"].max())
        )
        dims = mae[mae["score"].isin(DIMENSIONS)]
        gains = dims[dims["test_mae"] < dims["mean_baseline_mae"]]
        gain = 1 - gains["test_mae"] / gains["mean_baseline_mae"]
        best = gains.loc[gain.idxmax()] if len(gains) else None
        (
            found.add("better_dimensions", len(gains))
            .add("n_dimensions", len(dims))
            .add(
                "best_gain_mae", None if best is None else best["test_mae"], text="" if best is None else best["score"]
            )
            .add("best_gain_baseline", None if best is None else best["mean_baseline_mae"])
            .add("overfit_lowest", dims["delta"].min())
            .add("overfit_highest", dims["delta"].max())
        )
    mean = versus.set_index("other").loc["training mean"] if not versus.empty else None
    if mean is None:
        absent(found, "mean_difference", "constant_mae", "judge_difference", "held_out_items", "judge_verdict")
        return
    verdict = "worse" if mean["ci_low"] > 0 else "better" if mean["ci_high"] < 0 else "same"
    ci = (mean["ci_low"], mean["ci_high"])
    (
        found.add("mean_difference", mean["difference"], ci=ci)
        .add("constant_mae", mean["other_mae"])
        .add("judge_difference", mean["difference"], ci=ci)
        .add("held_out_items", int(mean["n_items"]))
        .add("judge_verdict", text=verdict)
    )


def _replicates(found: Findings, replicates: pd.DataFrame, simulated: bool) -> None:
    """What the repeated comparison (:func:`replicates`) shows: fits, splits, rating sets, in
    how many the judge is worse than the training mean, the range and median of the
    difference and the reading (a key of the words' verdicts)."""
    if replicates.empty:
        absent(
            found,
            "fits",
            "splits",
            "rating_sets",
            "judge_worse",
            "difference_lowest",
            "difference_highest",
            "difference_median",
            "replicate_reading",
            "replicate_held_out",
            "simulated_ratings",
        )
        return
    n, worse = len(replicates), int((replicates["difference"] > 0).sum())
    sets, d = replicates["ratings"].nunique(), replicates["difference"]
    share = worse / n
    reading = (
        "always"
        if worse == n
        else "mostly worse"
        if share >= MOSTLY_WORSE
        else "mostly better"
        if share <= MOSTLY_BETTER
        else "depends"
    )
    (
        found.add("fits", n)
        .add("splits", replicates["split_seed"].nunique())
        .add("rating_sets", sets if simulated and sets > 1 else None)
        .add("judge_worse", worse)
        .add("difference_lowest", d.min())
        .add("difference_highest", d.max())
        .add("difference_median", d.median())
        .add("replicate_reading", text=reading)
        .add("replicate_held_out", int(replicates["n_held_out"].iloc[0]))
        .add("simulated_ratings", simulated)
    )


def _disagreement(found: Findings, disagreement: pd.DataFrame) -> None:
    """Is the correlation of human disagreement and model error significant at :data:`LEVEL`,
    and which |r| its n detects with 80% power; undefined when the held-out items' SDs or
    errors do not vary."""
    names = ("disagreement_r", "disagreement_n", "disagreement_significant", "disagreement_undefined", "detectable_r")
    if disagreement.empty:
        absent(found, *names)
        return
    d = disagreement.set_index("statistic").loc["pearson_r"]
    n = int(d["n"])
    (
        found.add("disagreement_r", d["value"], p=d["p_value"])
        .add("disagreement_n", n)
        .add("disagreement_significant", bool(d["p_value"] < LEVEL))
        .add("disagreement_undefined", bool(pd.isna(d["value"])))
        .add("detectable_r", detectable_correlation(n))
    )


__all__ = [
    "Setup",
    "setup",
    "evaluator_config",
    "description",
    "replicates",
    "run_beside_paper",
    "paper_beside_run",
    "weights_beside_truth",
    "paper_judge_mae",
    "FINDINGS_INPUTS",
    "findings",
    "MOSTLY_WORSE",
    "MOSTLY_BETTER",
]
