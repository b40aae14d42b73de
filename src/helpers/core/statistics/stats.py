"""The statistics every study shares, under one name: each family lives in its own module, and
``stats`` gathers their public names, so ``stats.resample`` or ``from helpers.core.statistics.stats
import percentile_interval`` keeps working wherever it is written.

The families: :mod:`~helpers.core.statistics.resampling` (the bootstrap),
:mod:`~helpers.core.statistics.intervals` (few-cluster intervals, detectable effects, Wilson),
:mod:`~helpers.core.statistics.paired` (paired tests), :mod:`~helpers.core.statistics.rankings`
(systems ranked and told apart), :mod:`~helpers.core.statistics.correlation` (Pearson, Kendall,
within-group Spearman) and :mod:`~helpers.core.statistics.regression` (cluster-bootstrap OLS).
What each holds:

* :func:`resample` is the book's one bootstrap: seeded, vectorised, over items or over
  clusters of items (e.g. metaphors nested in sentences). It returns *multiplicities*
  (how often each item is drawn in each resample), so every statistic below is computed
  for all resamples at once as a weighted statistic.
* :func:`cluster_t_interval` and :func:`jackknife_t_interval`: intervals that hold with
  few clusters (t with G − 1 degrees of freedom), to read beside the percentile cluster
  bootstrap, which is too narrow with the 20–21 sentences of the MetaHOPE pilots.
* :func:`paired_permutation_test` (sign flips of paired differences, optionally by
  cluster), :func:`holm`, :func:`rank_biserial`, :func:`mdd_80`, :func:`cluster_mdd_80`,
  :func:`verdict` and :func:`compare_pairs`: paired comparisons of systems (or anything
  measured on the same items), the approach MQM tooling such as Marot uses.
* :func:`within_group_permutation_test` (the mean within-group Spearman ρ, exact or sampled),
  :func:`spearman_interval` (Fisher z) and :func:`mean_rho_interval`: correlations measured
  within groups (e.g. the candidates of each slang word), so the groups' levels do not count.
"""

from __future__ import annotations

from .correlation import (  # noqa: F401
    MAX_EXACT_GROUP,
    WithinGroupTest,
    kendall_tau_b,
    kendall_tau_rows,
    pair_signs,
    pearson,
    pearson_rows,
    spearman_defined,
    within_group_permutation_test,
)
from .intervals import (  # noqa: F401
    FEW_CLUSTERS,
    cluster_mdd_80,
    cluster_robust_se,
    cluster_t_interval,
    detectable_correlation,
    jackknife_t_interval,
    mdd_80,
    mean_rho_interval,
    spearman_interval,
    wilson_interval,
)
from .paired import (  # noqa: F401
    VERDICTS,
    compare_pairs,
    holm,
    paired_permutation_test,
    rank_biserial,
    verdict,
)
from .rankings import (  # noqa: F401
    approximate_randomization,
    ranking_stability,
    significance_clusters,
)
from .regression import cluster_ols  # noqa: F401
from .resampling import (  # noqa: F401
    bootstrap_interval,
    cluster_labels,
    jackknife_weights,
    percentile_interval,
    resample,
    weighted_mean,
)
