"""Metaphor explanations on six dimensions (Naveriani et al. 2026). Chapters 4–5.

* :mod:`~helpers.explanations.io` the authored benchmark and ratings (long CSV or Forms export);
* :mod:`~helpers.explanations.simulate` seeded simulated raters;
* :mod:`~helpers.explanations.analysis` reliability, structure, drivers of Overall, disagreement;
* :mod:`~helpers.explanations.evaluator` the two-stage automatic evaluator;
* :mod:`~helpers.explanations.figures` the chapters' figures;
* :mod:`~helpers.explanations.chapters` each chapter's parameter check and data loader.
"""

from .analysis import (Clusters, DisagreementShape, Regression, cluster_dimensions, design_contrast,
                       disagreement_by_quality, item_statistics, rater_profile, rating_matrix, reliability_table,
                       spearman_table, standardized_regression, wide_ratings)
from .evaluator import EvaluatorConfig, item_targets, run_evaluator, split_by_metaphor
from .io import BENCHMARK_FILE, DIMENSIONS, LABELS, RATING_COLUMNS, SCORES, SHORT, load_benchmark, read_ratings
from .simulate import RatingModel, simulate_ratings

__all__ = [
    "Clusters", "DisagreementShape", "Regression", "cluster_dimensions", "design_contrast", "disagreement_by_quality",
    "item_statistics", "rater_profile", "rating_matrix", "reliability_table", "spearman_table",
    "standardized_regression", "wide_ratings", "EvaluatorConfig", "item_targets", "run_evaluator",
    "split_by_metaphor", "BENCHMARK_FILE", "DIMENSIONS", "LABELS", "RATING_COLUMNS", "SCORES", "SHORT",
    "load_benchmark", "read_ratings", "RatingModel", "simulate_ratings",
]
