"""Metaphor explanations on six dimensions (Naveriani et al. 2026). Chapters 4–5.

* :mod:`~helpers.explanations.io` the authored benchmark and ratings (long CSV, Forms export
  or rating workbooks);
* :mod:`~helpers.explanations.simulate` seeded simulated raters and their generating values;
* :mod:`~helpers.explanations.analysis` reliability, structure (with item-level inference and
  cluster stability), drivers of Overall, disagreement against the bounded-scale null;
* :mod:`~helpers.explanations.evaluator` the two-stage automatic evaluator;
* :mod:`~helpers.explanations.template` blank rating workbooks, one per rater;
* :mod:`~helpers.explanations.feedback` each student's leniency, consistency and agreement;
* :mod:`~helpers.explanations.figures` the chapters' figures;
* :mod:`~helpers.explanations.ch04` and :mod:`~helpers.explanations.ch05` each chapter's set-up, data box,
  steps and findings (read from its saved result CSVs).
"""

from .analysis import (
    Clusters,
    ClusterStability,
    DisagreementShape,
    Regression,
    cluster_dimensions,
    cluster_stability,
    design_contrast,
    disagreement_by_quality,
    item_means,
    item_statistics,
    rater_profile,
    reliability_table,
    spearman_matrices,
    spearman_pairs,
    spearman_table,
    standardized_regression,
    wide_ratings,
)
from .bounded_scale import BoundedNull, bounded_scale_null, latent_means, quadratic_term, rounded_scale_moments
from .evaluator import EvaluatorConfig, item_targets, judge_vs_baselines, run_evaluator, split_by_metaphor
from .feedback import Feedback, class_feedback, write_pages
from .io import (
    BENCHMARK_FILE,
    DIMENSIONS,
    LABELS,
    RATING_COLUMNS,
    SCORES,
    SHORT,
    load_benchmark,
    load_ratings,
    read_ratings,
    read_workbooks,
)
from .simulate import RatingModel, generating_values, simulate_ratings
from .template import write_templates

__all__ = [
    "BoundedNull",
    "Clusters",
    "ClusterStability",
    "DisagreementShape",
    "Regression",
    "bounded_scale_null",
    "cluster_dimensions",
    "cluster_stability",
    "design_contrast",
    "disagreement_by_quality",
    "item_means",
    "item_statistics",
    "latent_means",
    "quadratic_term",
    "rater_profile",
    "reliability_table",
    "rounded_scale_moments",
    "spearman_matrices",
    "spearman_pairs",
    "spearman_table",
    "standardized_regression",
    "wide_ratings",
    "EvaluatorConfig",
    "item_targets",
    "judge_vs_baselines",
    "run_evaluator",
    "split_by_metaphor",
    "Feedback",
    "class_feedback",
    "write_pages",
    "BENCHMARK_FILE",
    "DIMENSIONS",
    "LABELS",
    "RATING_COLUMNS",
    "SCORES",
    "SHORT",
    "load_benchmark",
    "load_ratings",
    "read_ratings",
    "read_workbooks",
    "RatingModel",
    "generating_values",
    "simulate_ratings",
    "write_templates",
]
