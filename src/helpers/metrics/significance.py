"""Is metric A closer to the humans than metric B? PERM-BOTH (Deutsch, Dror & Roth 2021) and the
significance clusters of metrics that WMT's metrics task draws from it (mt-metrics-eval ``data.CompareMetrics``).

References
----------
Deutsch, D., Dror, R. & Roth, D. (2021). A Statistical Analysis of Summarization Evaluation Metrics Using
Resampling Methods. TACL 9. arXiv:2104.00054.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..core.statistics.correlation import pearson_rows
from .correlations import snap_ties
from .meta import (
    _SYSTEM_FUNCTIONS,
    HUMAN,
    LOWER_IS_BETTER,
    SEGMENT_STATISTICS,
    SYSTEM_STATISTICS,
    _align,
    _Aligned,
    _human_system,
    _metric_system,
    _segment_rows,
)


def _zscore(x: np.ndarray) -> np.ndarray:
    sd = np.nanstd(x)
    return (x - np.nanmean(x)) / (sd if sd > 0 else 1.0)


def perm_both(
    human: pd.DataFrame,
    metrics: pd.DataFrame,
    metric_a: str,
    metric_b: str,
    statistic: str = "pearson",
    level: str = "system",
    n_perm: int = 1000,
    seed: int = 0,
    segments: str = "given",
    human_higher_is_better: bool = False,
    lower_is_better: Iterable[str] = LOWER_IS_BETTER,
) -> dict:
    """Does ``metric_a`` agree with the humans better than ``metric_b``? PERM-BOTH (Deutsch et al. 2021).

    δ = stat(a) − stat(b) for ``statistic`` at ``level`` (system: ``pearson``,
    ``kendall_tau_b``, ``pairwise_accuracy``; segment: any of
    :data:`SEGMENT_STATISTICS` except the epsilon). Each metric's scores on the compared
    units (systems, or the (system, segment) cells that the humans and both metrics
    scored) are z-scored so the two are on one scale; each permutation swaps the two
    metrics' scores of every unit independently with probability ½ and recomputes δ.
    Under the null hypothesis that the metrics are exchangeable δ is as likely as any
    permuted δ*; the one-sided p-value is

        p = (1 + #{δ* ≥ δ}) / (1 + n_perm),

    the observed assignment counted as one permutation (mt-metrics-eval's
    ``PermutationSigDiff`` reports #{δ* ≥ δ} / n_perm, which can be 0; they differ by at
    most 1/n_perm). Two identical metrics give δ = 0 = δ* always, so p = 1. Seeded:
    the same seed gives the same p.

    Returns ``{"delta", "p", "n_perm", "n"}`` (n: the units compared).

    Parameters
    ----------
    human : DataFrame
        ``system, segment, score``.
    metrics : DataFrame
        ``system, segment, metric, score``.
    metric_a, metric_b : str
        The two metrics compared.
    statistic : str, default "pearson"
        The agreement statistic.
    level : {"system", "segment"}
        Level of the statistic.
    n_perm : int, default 1000
        Permutations.
    seed : int, default 0
        Seed of the permutations.
    segments : {"given", "all", "rated"}
        Which scores make a system score (:func:`system_level_scores`).
    human_higher_is_better : bool, default False
        Orientation of the human scores.
    lower_is_better : iterable of str
        Lower-is-better metrics.

    Returns
    -------
    dict
        ``delta`` = stat(a) − stat(b), ``p`` = (1 + #{δ* ≥ δ}) / (1 + n_perm), ``n_perm`` and ``n``.

    References
    ----------
    Deutsch, Dror & Roth (2021), §4 and Appendix (PERM-BOTH), arXiv:2104.00054;
    mt-metrics-eval ``stats.PermutationSigDiff``.
    """
    a = _align(human, metrics, human_higher_is_better, lower_is_better)
    delta, deltas, n = _perm_deltas(a, metric_a, metric_b, statistic, level, n_perm, seed, segments)
    return {"delta": delta, "p": _p_value(delta, deltas), "n_perm": n_perm, "n": n}


def _p_value(delta: float, deltas: np.ndarray) -> float:
    """(1 + #{δ* ≥ δ}) / (1 + n_perm), a NaN δ* counted as below δ (rounding slack 1e-12)."""
    count = int((np.nan_to_num(deltas, nan=-np.inf) >= delta - 1e-12).sum())
    return (count + 1) / (deltas.size + 1)


def _perm_deltas(
    a: _Aligned,
    metric_a: str,
    metric_b: str,
    statistic: str,
    level: str,
    n_perm: int,
    seed: int,
    segments: str,
    system_scores: dict | None = None,
) -> tuple[float, np.ndarray, int]:
    """δ = stat(a) − stat(b) on the aligned data and its ``n_perm`` permuted values δ*; n the units.

    ``system_scores`` keeps each metric's system scores (and the humans') for the next pair
    (:func:`compare_metrics`), so they are computed once per metric, not once per pair."""
    system_scores = {} if system_scores is None else system_scores

    def system_of(name: str) -> np.ndarray:
        if name not in system_scores:
            system_scores[name] = _metric_system(a, name, segments, None)[0][0]
        return system_scores[name]

    for name in (metric_a, metric_b):
        if name not in a.metrics:
            raise ValueError(f"no metric {name!r} in the scores (have {', '.join(a.metrics)})")
    if statistic == "acc_eq_epsilon_item":
        raise ValueError("the tie threshold is not a correlation to compare")
    rng = np.random.default_rng(seed)
    if level == "system":
        if statistic not in _SYSTEM_FUNCTIONS:
            raise ValueError(f"unknown system-level statistic {statistic!r} (one of {', '.join(SYSTEM_STATISTICS)})")
        if HUMAN not in system_scores:
            system_scores[HUMAN] = snap_ties(_human_system(a, None)[0][0], a.tolerance)
        h, ma, mb = system_scores[HUMAN], system_of(metric_a), system_of(metric_b)
        keep = ~(np.isnan(h) | np.isnan(ma) | np.isnan(mb))
        h, ma, mb = h[keep], _zscore(ma[keep]), _zscore(mb[keep])
        fn = _SYSTEM_FUNCTIONS[statistic]
        delta = float(fn(h, ma)[0] - fn(h, mb)[0])
        swap = rng.random((n_perm, h.size)) < 0.5
        pa, pb = np.where(swap, mb, ma), np.where(swap, ma, mb)
        hh = np.broadcast_to(h, pa.shape)
        return delta, fn(hh, pa) - fn(hh, pb), int(h.size)
    if level != "segment":
        raise ValueError(f"level must be system or segment, not {level!r}")
    if statistic not in SEGMENT_STATISTICS:
        raise ValueError(f"unknown segment-level statistic {statistic!r} (one of {', '.join(SEGMENT_STATISTICS)})")
    ga, gb = a.metrics[metric_a], a.metrics[metric_b]
    cells = ~(np.isnan(a.human) | np.isnan(ga) | np.isnan(gb))
    hgrid = np.where(cells, a.human, np.nan)
    za, zb = np.full(ga.shape, np.nan), np.full(gb.shape, np.nan)
    za[cells], zb[cells] = _zscore(ga[cells]), _zscore(gb[cells])
    if statistic == "pearson_flat":  # vectorised: Pearson's r of every permutation's cells at once
        h, xa, xb = hgrid[cells], za[cells], zb[cells]
        delta = float(pearson_rows(h, xa)[0] - pearson_rows(h, xb)[0])
        deltas = np.empty(n_perm)
        for start in range(0, n_perm, 100):  # the same draws as one permutation at a time, 100 at a time
            k = min(100, n_perm - start)
            swap = (rng.random((k, *za.shape)) < 0.5)[:, cells]
            pa, pb = np.where(swap, xb, xa), np.where(swap, xa, xb)
            hh = np.broadcast_to(h, pa.shape)
            deltas[start : start + k] = pearson_rows(hh, pa) - pearson_rows(hh, pb)
        return delta, deltas, int(cells.sum())
    sub = _Aligned(a.systems, a.items, a.clusters, hgrid, a.human_system, {}, {}, a.signs, a.tolerance)

    def stat_of(grid_a, grid_b) -> float:
        sub.metrics = {"a": grid_a, "b": grid_b}
        return float(
            _segment_rows(sub, "a", None, (statistic,))[0][statistic][0]
            - _segment_rows(sub, "b", None, (statistic,))[0][statistic][0]
        )

    delta = stat_of(za, zb)
    deltas = np.empty(n_perm)
    for k in range(n_perm):
        swap = (rng.random(za.shape) < 0.5) & cells
        deltas[k] = stat_of(np.where(swap, zb, za), np.where(swap, za, zb))
    return delta, deltas, int(cells.sum())


def compare_metrics(
    human: pd.DataFrame,
    metrics: pd.DataFrame,
    statistic: str = "pearson",
    level: str = "system",
    n_perm: int = 1000,
    seed: int = 0,
    **options,
) -> pd.DataFrame:
    """PERM-BOTH (:func:`perm_both`) for every ordered pair of metrics:
    ``metric_a, metric_b, delta, p`` with p the one-sided p-value that ``metric_a`` agrees
    with the humans better than ``metric_b``. ``options`` go to :func:`perm_both`.

    Parameters
    ----------
    human : DataFrame
        ``system, segment, score``.
    metrics : DataFrame
        ``system, segment, metric, score``.
    statistic : str, default "pearson"
        The agreement statistic.
    level : {"system", "segment"}
        Level of the statistic.
    n_perm : int, default 1000
        Permutations per pair.
    seed : int, default 0
        Seed of the permutations.
    **options
        Passed to :func:`perm_both`.

    Returns
    -------
    DataFrame
        One row per ordered pair: delta = stat(a) − stat(b), p = (1 + #{δ* ≥ δ}) / (1 + n_perm).

    References
    ----------
    Deutsch, D., Dror, R. & Roth, D. (2021). A statistical analysis of summarization evaluation
    metrics using resampling methods. TACL 9, §4 (PERM-BOTH), arXiv:2104.00054.
    """
    keys = {k: options.pop(k) for k in ("human_higher_is_better", "lower_is_better") if k in options}
    a = _align(human, metrics, keys.get("human_higher_is_better", False), keys.get("lower_is_better", LOWER_IS_BETTER))
    segments = options.pop("segments", "given")
    if options:
        raise TypeError(f"unknown option(s) {', '.join(options)}")
    names = list(a.metrics)
    found, system_scores = {}, {}
    for i, x in enumerate(names):
        for y in names[i + 1 :]:  # one set of permutations per pair: (y, x) sees every δ* negated
            delta, deltas, _ = _perm_deltas(a, x, y, statistic, level, n_perm, seed, segments, system_scores)
            found[x, y] = (delta, _p_value(delta, deltas))
            found[y, x] = (-delta, _p_value(-delta, -deltas))
    rows = [
        {"metric_a": x, "metric_b": y, "delta": found[x, y][0], "p": found[x, y][1]}
        for x in names
        for y in names
        if x != y
    ]
    return pd.DataFrame(rows, columns=["metric_a", "metric_b", "delta", "p"])


def metric_clusters(estimates: pd.DataFrame, comparison: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """The significance clusters of metrics, as WMT's metrics task draws them.

    Metrics are ordered by their statistic, best first (ties by name, as mt-metrics-eval's
    ``CompareMetrics``); walking down the order, a metric opens a new cluster when PERM-BOTH
    finds some metric of the current cluster better than it at ``alpha``
    (:func:`helpers.core.statistics.stats.significance_clusters`, mt-metrics-eval's ``AssignRanks``).
    Metrics with an undefined statistic are left out.

    Parameters
    ----------
    estimates : DataFrame
        ``metric, estimate`` (one statistic, higher is better).
    comparison : DataFrame
        :func:`compare_metrics`' ``metric_a, metric_b, delta, p`` for the same statistic.
    alpha : float, default 0.05
        Level of each pairwise test.

    Returns
    -------
    DataFrame
        ``metric, estimate, rank, p_next``: ``rank`` the cluster (1 = best), ``p_next`` the one-sided
        p-value that the metric beats the next one down the order (NaN for the last).

    References
    ----------
    Freitag et al. (2021; 2022; 2023), the metrics-task findings (significance clusters);
    mt-metrics-eval ``data.CompareMetrics``, ``data.AssignRanks``.

    Examples
    --------
    >>> est = pd.DataFrame({"metric": ["a", "b", "c"], "estimate": [0.9, 0.8, 0.2]})
    >>> cmp = pd.DataFrame({"metric_a": ["a", "a", "b"], "metric_b": ["b", "c", "c"], "p": [0.3, 0.01, 0.2]})
    >>> metric_clusters(est, cmp)[["metric", "rank"]].values.tolist()  # c is worse than a: a new cluster
    [['a', 1], ['b', 1], ['c', 2]]
    """
    from ..core.statistics.stats import significance_clusters

    ordered = estimates.dropna(subset=["estimate"]).assign(_neg=lambda f: -f["estimate"])
    ordered = ordered.sort_values(["_neg", "metric"]).drop(columns="_neg").reset_index(drop=True)
    names = ordered["metric"].tolist()
    p = comparison.set_index(["metric_a", "metric_b"])["p"]
    matrix = np.ones((len(names), len(names)))
    for i, x in enumerate(names):
        for j, y in enumerate(names[i + 1 :], start=i + 1):
            matrix[i, j] = p.get((x, y), np.nan)
    ranks = significance_clusters(matrix, alpha) if names else []
    p_next = [matrix[i, i + 1] for i in range(len(names) - 1)] + [np.nan] if names else []
    return ordered[["metric", "estimate"]].assign(rank=ranks, p_next=p_next)


__all__ = ["perm_both", "compare_metrics", "metric_clusters"]
