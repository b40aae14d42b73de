"""Paired comparisons of systems (or anything measured on the same items), the approach MQM
tooling such as Marot uses: :func:`paired_permutation_test` (sign flips of paired differences,
optionally by cluster), :func:`holm`, :func:`rank_biserial`, :func:`verdict` and
:func:`compare_pairs`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from .intervals import cluster_mdd_80, cluster_t_interval, mdd_80
from .resampling import _rng, cluster_labels, percentile_interval, resample, weighted_mean


def paired_permutation_test(x, y, n_perm: int = 10000, seed=0, clusters: Sequence | None = None) -> float:
    """Two-sided p-value of mean(x − y) under random sign flips of the paired differences.

    With ``clusters`` the signs are flipped per cluster (all items of a sentence together),
    the permutation counterpart of the cluster bootstrap. Exact (all 2^k flips of the k
    units) when k ≤ 16, Monte Carlo with ``n_perm`` seeded draws otherwise; the observed
    statistic counts as one permutation, so p is never 0.

    Parameters
    ----------
    x, y : array_like
        Paired measurements on the same n items.
    n_perm : int, default 10000
        Monte Carlo sign patterns when there are more than 16 units.
    seed : int or numpy.random.Generator, default 0
        Seed of the Monte Carlo draws.
    clusters : sequence, optional
        One cluster label per item; the signs are flipped per cluster.

    Returns
    -------
    float
        With d = x − y and D_u the summed difference of unit u (an item, or a cluster), exact:
        p = #{s in {−1, 1}^k : |sum_u s_u · D_u| / n ≥ |mean(d)|} / 2^k; Monte Carlo:
        p = (hits + 1) / (n_perm + 1). 1.0 when every d is 0.

    References
    ----------
    Fisher, R. A. (1935). The Design of Experiments, §21 (the randomisation test of paired
    differences). Good, P. (2005). Permutation, Parametric and Bootstrap Tests of Hypotheses, 3rd ed.

    Examples
    --------
    >>> paired_permutation_test([3, 4, 5], [1, 1, 1])  # all 8 flips: only ±(all positive) reach 3
    0.25
    """
    d = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    if not np.any(d):
        return 1.0
    if clusters is not None:
        labels = cluster_labels(clusters, d.size)
        units = np.bincount(labels, weights=d)  # summed difference per cluster
    else:
        units = d
    n, k = d.size, units.size
    observed = abs(d.mean())
    if k <= 16:
        signs = 1 - 2 * ((np.arange(2**k)[:, None] >> np.arange(k)) & 1)
        stats = np.abs((signs * units).sum(axis=1) / n)
        return float((stats >= observed - 1e-12).mean())
    signs = _rng(seed).choice([-1.0, 1.0], size=(n_perm, k))
    stats = np.abs((signs * units).sum(axis=1) / n)
    return float(((stats >= observed - 1e-12).sum() + 1) / (n_perm + 1))


def holm(p: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error), in the input order.

    Parameters
    ----------
    p : sequence of float
        The m unadjusted p-values.

    Returns
    -------
    numpy.ndarray
        Adjusted p-values: with p_(1) ≤ … ≤ p_(m), p̃_(j) = min(1, max_{i ≤ j} (m − i + 1) · p_(i)),
        returned in the input order.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian Journal
    of Statistics 6(2), 65–70.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p, dtype=float)
    order = np.argsort(p)
    m = p.size
    adjusted = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(adjusted, 1.0)
    return out


def rank_biserial(d) -> float:
    """Matched-pairs rank-biserial correlation of paired differences ``d``:
    (sum of ranks of positive − of negative differences) / sum of all ranks; zeros dropped.

    Parameters
    ----------
    d : array_like
        Paired differences.

    Returns
    -------
    float
        r = (R+ − R−) / (R+ + R−), R± the sums of the ranks of |d| over the positive (negative)
        differences; 0.0 when every difference is 0.

    References
    ----------
    Kerby, D. S. (2014). The simple difference formula: an approach to teaching nonparametric
    correlation. Comprehensive Psychology 3, 11.IT.3.1 (the matched-pairs rank-biserial correlation).

    Examples
    --------
    >>> rank_biserial([1, 2, -3])  # ranks 1, 2, 3: (1 + 2 − 3) / 6
    0.0
    """
    d = np.asarray(d, dtype=float)
    d = d[d != 0]
    if d.size == 0:
        return 0.0
    ranks = pd.Series(np.abs(d)).rank().to_numpy()
    return float((ranks[d > 0].sum() - ranks[d < 0].sum()) / ranks.sum())


#: The three verdicts of :func:`verdict`, from strongest to weakest.
VERDICTS = ("difference", "suggestive, not significant after Holm", "no evidence")


def verdict(p: float, p_adjusted: float, alpha: float = 0.05) -> str:
    """What a test of one of m comparisons shows, read on its p-values alone: "difference" when
    the multiplicity-adjusted ``p_adjusted`` (Holm) is below ``alpha``, "suggestive, not
    significant after Holm" when only the unadjusted ``p`` is, else "no evidence". An
    interval never changes the verdict: intervals and the test can disagree, and the test is
    the one that was corrected for the m comparisons.

    Parameters
    ----------
    p : float
        Unadjusted p-value.
    p_adjusted : float
        Holm-adjusted p-value (:func:`holm`).
    alpha : float, default 0.05
        Level.

    Returns
    -------
    str
        One of :data:`VERDICTS`: "difference" if p_adjusted < α, else the second if p < α, else
        "no evidence".

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian Journal
    of Statistics 6(2), 65–70.

    Examples
    --------
    >>> verdict(0.01, 0.03), verdict(0.03, 0.09), verdict(0.079, 0.158)
    ('difference', 'suggestive, not significant after Holm', 'no evidence')
    """
    return VERDICTS[0] if p_adjusted < alpha else VERDICTS[1] if p < alpha else VERDICTS[2]


def _pair_stats(x, y, n_perm, n_boot, seed, ci, labels=None) -> dict:
    d = x - y
    boot = weighted_mean(d, resample(d.size, n_boot, seed, labels))
    low, high = percentile_interval(boot, ci)
    return {"ci_low": low, "ci_high": high, "p": paired_permutation_test(x, y, n_perm, seed, labels)}


def compare_pairs(
    scores: pd.DataFrame,
    value: str,
    system: str = "system",
    item: str = "item",
    by: str | Sequence[str] | None = None,
    n_perm: int = 10000,
    n_boot: int = 2000,
    seed: int = 0,
    clusters: str | None = None,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """All pairs of ``system`` values within each group of ``by``, compared on per-item ``value``.

    Returns tidy ``by…, system_a, system_b, n_items, mean_a, mean_b, mean_difference
    (a − b), ci_low, ci_high, cohen_dz, rank_biserial, p_permutation, p_holm, mdd_80``:
    a percentile bootstrap interval of the mean difference (:func:`resample`, items), Cohen's
    d_z, the rank-biserial correlation, the sign-flip permutation p with Holm's correction
    over the m pairs of a group, and the minimum detectable difference at level ``alpha``.

    With ``clusters`` (a column grouping the items, e.g. ``sentence``: several metaphors
    share a sentence, so they are not independent) these columns follow: ``n_clusters``,
    ``cluster_ci_low``, ``cluster_ci_high`` (percentile cluster bootstrap), ``p_cluster_permutation``
    (sign flips per cluster) and ``p_cluster_holm``; ``family_ci_low``, ``family_ci_high``
    (cluster bootstrap at the Bonferroni level 1 − alpha/m: simultaneous intervals for the m
    pairs of a group; Holm's step-down test can reject where such an interval still touches
    0, so the two need not agree); ``mdd_80_adjusted`` (the item-level minimum detectable
    difference at alpha/m); ``verdict`` (:func:`verdict` on the cluster test: "difference"
    when it survives Holm, "suggestive, not significant after Holm" when only the unadjusted
    cluster p is below alpha, else "no evidence"). Then the columns that hold with few
    clusters: ``cluster_t_ci_low``, ``cluster_t_ci_high`` (:func:`cluster_t_interval`, G − 1
    degrees of freedom, level 1 − alpha), ``family_t_ci_low``, ``family_t_ci_high`` (the same
    at 1 − alpha/m), ``cluster_mdd_80`` and ``cluster_mdd_80_adjusted``
    (:func:`cluster_mdd_80` at alpha and alpha/m). Last, ``t_ci_low``, ``t_ci_high``: the paired
    t interval that takes the items as independent (n − 1 degrees of freedom, level 1 − alpha),
    the naive counterpart of ``cluster_t_ci_…`` (compare t with t, like with like).

    Parameters
    ----------
    scores : DataFrame
        One row per (system, item): the per-item ``value`` of each system.
    value, system, item : str
        Column names of the value, the system and the item.
    by : str or sequence of str, optional
        Columns whose groups are compared separately (Holm within each group).
    n_perm : int, default 10000
        Monte Carlo permutations of :func:`paired_permutation_test`.
    n_boot : int, default 2000
        Bootstrap resamples of the intervals.
    seed : int, default 0
        Seed of permutations and resamples.
    clusters : str, optional
        Column grouping the items (e.g. ``sentence``).
    alpha : float, default 0.05
        Level of the tests and of the minimum detectable differences.

    Returns
    -------
    DataFrame
        One row per pair with the columns listed above; mean_difference = mean_i (a_i − b_i),
        cohen_dz = mean(d) / sd(d), t interval mean(d) ∓ t_{n−1, 1−alpha/2} · sd(d) / √n.

    References
    ----------
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, ch. 2 (d_z for paired
    samples); Holm (1979), Scand. J. Statistics 6(2); Cameron & Miller (2015), J. Human Resources
    50(2), §VI; Efron & Tibshirani (1993), An Introduction to the Bootstrap, §13.3.
    """
    by = [] if by is None else ([by] if isinstance(by, str) else list(by))
    groups = scores.groupby(by, sort=False, observed=True) if by else [((), scores)]
    ci = 100 * (1 - alpha)
    rows = []
    for key, group in groups:
        key = key if isinstance(key, tuple) else (key,)
        wide = group.pivot_table(
            index=item, columns=system, values=value, aggfunc="first", observed=True, sort=False
        ).dropna()
        labels = None
        if clusters is not None:
            labels = group.drop_duplicates(item).set_index(item)[clusters].reindex(wide.index).to_numpy()
        pairs = list(combinations(list(dict.fromkeys(group[system])), 2))
        family = 100 * (1 - alpha / max(len(pairs), 1))
        block = []
        for a, b in pairs:
            x, y = wide[a].to_numpy(dtype=float), wide[b].to_numpy(dtype=float)
            d = x - y
            n = d.size
            sd = d.std(ddof=1) if n > 1 else np.nan
            items = _pair_stats(x, y, n_perm, n_boot, seed, ci)
            row = {
                **dict(zip(by, key)),
                "system_a": a,
                "system_b": b,
                "n_items": n,
                "mean_a": x.mean(),
                "mean_b": y.mean(),
                "mean_difference": d.mean(),
                "ci_low": items["ci_low"],
                "ci_high": items["ci_high"],
                "cohen_dz": d.mean() / sd if sd else np.nan,
                "rank_biserial": rank_biserial(d),
                "p_permutation": items["p"],
                "mdd_80": mdd_80(sd, n, alpha),
            }
            half = student_t.ppf(1 - alpha / 2, n - 1) * sd / math.sqrt(n) if n > 1 else np.nan
            row.update({"t_ci_low": d.mean() - half, "t_ci_high": d.mean() + half})
            if clusters is not None:
                nested = _pair_stats(x, y, n_perm, n_boot, seed, ci, labels)
                fam = percentile_interval(weighted_mean(d, resample(n, n_boot, seed, labels)), family)
                row.update(
                    {
                        "n_clusters": int(pd.Series(labels).nunique()),
                        "cluster_ci_low": nested["ci_low"],
                        "cluster_ci_high": nested["ci_high"],
                        "p_cluster_permutation": nested["p"],
                        "family_ci_low": fam[0],
                        "family_ci_high": fam[1],
                        "mdd_80_adjusted": mdd_80(sd, n, alpha / max(len(pairs), 1)),
                    }
                )
                t_ci, t_fam = cluster_t_interval(d, labels, ci), cluster_t_interval(d, labels, family)
                row.update(
                    {
                        "cluster_t_ci_low": t_ci[0],
                        "cluster_t_ci_high": t_ci[1],
                        "family_t_ci_low": t_fam[0],
                        "family_t_ci_high": t_fam[1],
                        "cluster_mdd_80": cluster_mdd_80(d, labels, alpha),
                        "cluster_mdd_80_adjusted": cluster_mdd_80(d, labels, alpha / max(len(pairs), 1)),
                    }
                )
            block.append(row)
        for r, p in zip(block, holm([r["p_permutation"] for r in block])):
            r["p_holm"] = float(p)
        if clusters is not None:
            for r, p in zip(block, holm([r["p_cluster_permutation"] for r in block])):
                r["p_cluster_holm"] = float(p)
                r["verdict"] = verdict(r["p_cluster_permutation"], p, alpha)
        rows.extend(block)
    cols = by + [
        "system_a",
        "system_b",
        "n_items",
        "mean_a",
        "mean_b",
        "mean_difference",
        "ci_low",
        "ci_high",
        "cohen_dz",
        "rank_biserial",
        "p_permutation",
        "p_holm",
        "mdd_80",
    ]
    if clusters is not None:
        cols += [
            "n_clusters",
            "cluster_ci_low",
            "cluster_ci_high",
            "p_cluster_permutation",
            "p_cluster_holm",
            "family_ci_low",
            "family_ci_high",
            "mdd_80_adjusted",
            "verdict",
            "cluster_t_ci_low",
            "cluster_t_ci_high",
            "family_t_ci_low",
            "family_t_ci_high",
            "cluster_mdd_80",
            "cluster_mdd_80_adjusted",
        ]
    return pd.DataFrame(rows, columns=cols + ["t_ci_low", "t_ci_high"])
