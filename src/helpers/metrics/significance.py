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

from .meta import (LOWER_IS_BETTER, SEGMENT_STATISTICS, SYSTEM_STATISTICS, _SYSTEM_FUNCTIONS, _align, _Aligned,
                   _human_system, _metric_system, _segment_rows)

def _zscore(x: np.ndarray) -> np.ndarray:
    sd = np.nanstd(x)
    return (x - np.nanmean(x)) / (sd if sd > 0 else 1.0)


def perm_both(human: pd.DataFrame, metrics: pd.DataFrame, metric_a: str, metric_b: str,
              statistic: str = "pearson", level: str = "system", n_perm: int = 1000, seed: int = 0,
              segments: str = "given", human_higher_is_better: bool = False,
              lower_is_better: Iterable[str] = LOWER_IS_BETTER) -> dict:
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
    for name in (metric_a, metric_b):
        if name not in a.metrics:
            raise ValueError(f"no metric {name!r} in the scores (have {', '.join(a.metrics)})")
    if statistic == "acc_eq_epsilon_item":
        raise ValueError("the tie threshold is not a correlation to compare")
    rng = np.random.default_rng(seed)
    if level == "system":
        if statistic not in _SYSTEM_FUNCTIONS:
            raise ValueError(f"unknown system-level statistic {statistic!r} (one of {', '.join(SYSTEM_STATISTICS)})")
        h = _human_system(a, None)[0][0]
        ma, mb = _metric_system(a, metric_a, segments, None)[0][0], _metric_system(a, metric_b, segments, None)[0][0]
        keep = ~(np.isnan(h) | np.isnan(ma) | np.isnan(mb))
        h, ma, mb = h[keep], _zscore(ma[keep]), _zscore(mb[keep])
        fn = _SYSTEM_FUNCTIONS[statistic]
        delta = float(fn(h, ma)[0] - fn(h, mb)[0])
        swap = rng.random((n_perm, h.size)) < 0.5
        pa, pb = np.where(swap, mb, ma), np.where(swap, ma, mb)
        hh = np.broadcast_to(h, pa.shape)
        deltas = fn(hh, pa) - fn(hh, pb)
        n = int(h.size)
    elif level == "segment":
        if statistic not in SEGMENT_STATISTICS:
            raise ValueError(f"unknown segment-level statistic {statistic!r} (one of {', '.join(SEGMENT_STATISTICS)})")
        ga, gb = a.metrics[metric_a], a.metrics[metric_b]
        cells = ~(np.isnan(a.human) | np.isnan(ga) | np.isnan(gb))
        hgrid = np.where(cells, a.human, np.nan)
        za, zb = np.full(ga.shape, np.nan), np.full(gb.shape, np.nan)
        za[cells], zb[cells] = _zscore(ga[cells]), _zscore(gb[cells])
        sub = _Aligned(a.systems, a.items, a.clusters, hgrid, a.human_system, {}, {}, a.signs)

        def stat_of(grid_a, grid_b) -> float:
            sub.metrics = {"a": grid_a, "b": grid_b}
            return float(_segment_rows(sub, "a", None, (statistic,))[0][statistic][0]
                         - _segment_rows(sub, "b", None, (statistic,))[0][statistic][0])

        delta = stat_of(za, zb)
        deltas = np.empty(n_perm)
        for k in range(n_perm):
            swap = (rng.random(za.shape) < 0.5) & cells
            deltas[k] = stat_of(np.where(swap, zb, za), np.where(swap, za, zb))
        n = int(cells.sum())
    else:
        raise ValueError(f"level must be system or segment, not {level!r}")
    count = int((np.nan_to_num(deltas, nan=-np.inf) >= delta - 1e-12).sum())
    return {"delta": delta, "p": (count + 1) / (n_perm + 1), "n_perm": n_perm, "n": n}


def compare_metrics(human: pd.DataFrame, metrics: pd.DataFrame, statistic: str = "pearson", level: str = "system",
                    n_perm: int = 1000, seed: int = 0, **options) -> pd.DataFrame:
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
    names = list(dict.fromkeys(metrics["metric"].astype(str)))
    rows = []
    for x in names:
        for y in names:
            if x != y:
                r = perm_both(human, metrics, x, y, statistic, level, n_perm, seed, **options)
                rows.append({"metric_a": x, "metric_b": y, "delta": r["delta"], "p": r["p"]})
    return pd.DataFrame(rows, columns=["metric_a", "metric_b", "delta", "p"])


__all__ = ["perm_both", "compare_metrics"]
