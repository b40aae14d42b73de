"""Resampling and paired statistics shared by every study.

* :func:`resample` is the book's one bootstrap: seeded, vectorised, over items or over
  clusters of items (e.g. metaphors nested in sentences). It returns *multiplicities*
  (how often each item is drawn in each resample), so every statistic below is computed
  for all resamples at once as a weighted statistic.
* :func:`paired_permutation_test` (sign flips of paired differences, optionally by
  cluster), :func:`holm`, :func:`rank_biserial`, :func:`mdd_80` and
  :func:`compare_pairs`: paired comparisons of systems (or anything measured on the same
  items), the approach MQM tooling such as Marot uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pandas as pd
from scipy.stats import norm


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def resample(n_items: int, n_boot: int, seed=0, clusters: Sequence | None = None) -> np.ndarray:
    """Bootstrap multiplicities, shape (n_boot, n_items): how often each item is drawn.

    Without ``clusters`` items are drawn with replacement (Efron's bootstrap). With
    ``clusters`` (one label per item) whole clusters are drawn with replacement and every
    item of a drawn cluster comes along: the cluster bootstrap, right when items are
    nested (several metaphors of one sentence share its context, so they are not
    independent). The draws depend only on ``(n_items, n_boot, seed, clusters)``, so two
    analyses of the same items see the same resamples and their difference is paired.
    ``seed`` may also be a ``numpy.random.Generator``.

    Examples
    --------
    >>> w = resample(4, 3, seed=1)
    >>> w.shape, w.sum(axis=1).tolist()
    ((3, 4), [4, 4, 4])
    >>> c = resample(4, 5, seed=1, clusters=["s1", "s1", "s2", "s2"])
    >>> bool((c[:, 0] == c[:, 1]).all() and (c[:, 2] == c[:, 3]).all())
    True
    """
    rng = _rng(seed)
    if clusters is None:
        draws = rng.integers(0, n_items, size=(n_boot, n_items))
        offsets = (np.arange(n_boot) * n_items)[:, None]
        return np.bincount((draws + offsets).ravel(), minlength=n_boot * n_items).reshape(n_boot, n_items)
    labels = pd.factorize(pd.Series(list(clusters), dtype=object))[0]
    if len(labels) != n_items:
        raise ValueError(f"clusters has {len(labels)} labels for {n_items} items")
    n_clusters = labels.max() + 1
    draws = rng.integers(0, n_clusters, size=(n_boot, n_clusters))
    offsets = (np.arange(n_boot) * n_clusters)[:, None]
    per_cluster = np.bincount((draws + offsets).ravel(), minlength=n_boot * n_clusters).reshape(n_boot, n_clusters)
    return per_cluster[:, labels]


def percentile_interval(samples, ci: float = 95.0) -> tuple[float, float]:
    """Percentile interval of bootstrap ``samples`` (NaN samples ignored; NaN if none left)."""
    s = np.asarray(samples, dtype=float)
    s = s[~np.isnan(s)]
    if s.size == 0:
        return float("nan"), float("nan")
    lo = (100 - ci) / 2
    return float(np.percentile(s, lo)), float(np.percentile(s, 100 - lo))


def weighted_mean(values, weights: np.ndarray) -> np.ndarray:
    """Mean of ``values`` (n,) under each row of ``weights`` (B, n)."""
    w = np.asarray(weights, dtype=float)
    return w @ np.asarray(values, dtype=float) / w.sum(axis=1)


# --------------------------------------------------------------------------- paired tests


def paired_permutation_test(x, y, n_perm: int = 10000, seed=0, clusters: Sequence | None = None) -> float:
    """Two-sided p-value of mean(x − y) under random sign flips of the paired differences.

    With ``clusters`` the signs are flipped per cluster (all items of a sentence together),
    the permutation counterpart of the cluster bootstrap. Exact (all 2^k flips of the k
    units) when k ≤ 16, Monte Carlo with ``n_perm`` seeded draws otherwise; the observed
    statistic counts as one permutation, so p is never 0.

    Examples
    --------
    >>> paired_permutation_test([3, 4, 5], [1, 1, 1])  # all 8 flips: only ±(all positive) reach 3
    0.25
    """
    d = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    if not np.any(d):
        return 1.0
    if clusters is not None:
        labels = pd.factorize(pd.Series(list(clusters), dtype=object))[0]
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


def holm(pvalues: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error), in the input order.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    m = p.size
    adjusted = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(adjusted, 1.0)
    return out


def rank_biserial(d) -> float:
    """Matched-pairs rank-biserial correlation of paired differences ``d``:
    (sum of ranks of positive − of negative differences) / sum of all ranks; zeros dropped.

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


def mdd_80(sd: float, n: int, alpha: float = 0.05) -> float:
    """Minimum detectable mean difference of a paired two-sided test at level ``alpha`` with
    80 % power: (z_{1−α/2} + z_{0.8}) · sd / √n (normal approximation).

    Examples
    --------
    >>> round(mdd_80(2.0, 16), 3)  # (1.960 + 0.842) · 2 / 4
    1.401
    """
    if n < 2 or not np.isfinite(sd):
        return float("nan")
    return float((norm.ppf(1 - alpha / 2) + norm.ppf(0.8)) * sd / np.sqrt(n))


def detectable_correlation(n: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """Smallest correlation a two-sided test at level ``alpha`` detects with ``power`` among
    ``n`` pairs (Fisher z approximation): tanh((z_{1−α/2} + z_power) / √(n − 3)).

    Examples
    --------
    >>> round(detectable_correlation(20), 2)  # tanh((1.960 + 0.842) / √17)
    0.59
    """
    if n <= 3:
        return float("nan")
    return float(np.tanh((norm.ppf(1 - alpha / 2) + norm.ppf(power)) / np.sqrt(n - 3)))


def _pair_stats(x, y, n_perm, n_boot, seed, ci, labels=None) -> dict:
    d = x - y
    boot = weighted_mean(d, resample(d.size, n_boot, seed, labels))
    low, high = percentile_interval(boot, ci)
    return {"ci_low": low, "ci_high": high, "p": paired_permutation_test(x, y, n_perm, seed, labels)}


def compare_pairs(scores: pd.DataFrame, value: str, system: str = "system", item: str = "item",
                  by: str | Sequence[str] | None = None, n_perm: int = 10000, n_boot: int = 2000, seed: int = 0,
                  clusters: str | None = None, alpha: float = 0.05) -> pd.DataFrame:
    """All pairs of ``system`` values within each group of ``by``, compared on per-item ``value``.

    Returns tidy ``by…, system_a, system_b, n_items, mean_a, mean_b, mean_difference
    (a − b), ci_low, ci_high, cohen_dz, rank_biserial, p_permutation, p_holm, mdd_80``:
    a percentile bootstrap interval of the mean difference (:func:`resample`, items), Cohen's
    d_z, the rank-biserial correlation, the sign-flip permutation p with Holm's correction
    over the m pairs of a group, and the minimum detectable difference at level ``alpha``.

    With ``clusters`` (a column grouping the items, e.g. ``sentence``: several metaphors
    share a sentence, so they are not independent) these columns follow: ``n_clusters``,
    ``cluster_ci_low``, ``cluster_ci_high`` (cluster bootstrap), ``p_cluster_permutation``
    (sign flips per cluster) and ``p_cluster_holm``; ``family_ci_low``, ``family_ci_high``
    (cluster bootstrap at the Bonferroni level 1 − alpha/m, so that the m intervals of a
    group hold together with probability ≥ 1 − alpha, the interval that matches Holm's test);
    ``mdd_80_adjusted`` (the minimum detectable difference at alpha/m); and ``verdict``:
    "difference" when the cluster test survives Holm, "suggestive, not significant after
    Holm" when only the unadjusted cluster test is below alpha, else "no evidence".
    """
    by = [] if by is None else ([by] if isinstance(by, str) else list(by))
    groups = scores.groupby(by, sort=False, observed=True) if by else [((), scores)]
    ci = 100 * (1 - alpha)
    rows = []
    for key, group in groups:
        key = key if isinstance(key, tuple) else (key,)
        wide = group.pivot_table(index=item, columns=system, values=value, aggfunc="first", observed=True,
                                 sort=False).dropna()
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
                **dict(zip(by, key)), "system_a": a, "system_b": b, "n_items": n, "mean_a": x.mean(),
                "mean_b": y.mean(), "mean_difference": d.mean(), "ci_low": items["ci_low"], "ci_high": items["ci_high"],
                "cohen_dz": d.mean() / sd if sd else np.nan, "rank_biserial": rank_biserial(d),
                "p_permutation": items["p"], "mdd_80": mdd_80(sd, n, alpha),
            }
            if clusters is not None:
                nested = _pair_stats(x, y, n_perm, n_boot, seed, ci, labels)
                fam = percentile_interval(weighted_mean(d, resample(n, n_boot, seed, labels)), family)
                row.update({"n_clusters": int(pd.Series(labels).nunique()), "cluster_ci_low": nested["ci_low"],
                            "cluster_ci_high": nested["ci_high"], "p_cluster_permutation": nested["p"],
                            "family_ci_low": fam[0], "family_ci_high": fam[1],
                            "mdd_80_adjusted": mdd_80(sd, n, alpha / max(len(pairs), 1))})
            block.append(row)
        for r, p in zip(block, holm([r["p_permutation"] for r in block])):
            r["p_holm"] = float(p)
        if clusters is not None:
            for r, p in zip(block, holm([r["p_cluster_permutation"] for r in block])):
                r["p_cluster_holm"] = float(p)
                unadjusted = r["p_cluster_permutation"] < alpha or r["cluster_ci_low"] > 0 or r["cluster_ci_high"] < 0
                r["verdict"] = ("difference" if p < alpha else
                                "suggestive, not significant after Holm" if unadjusted else "no evidence")
        rows.extend(block)
    cols = by + ["system_a", "system_b", "n_items", "mean_a", "mean_b", "mean_difference", "ci_low", "ci_high",
                 "cohen_dz", "rank_biserial", "p_permutation", "p_holm", "mdd_80"]
    if clusters is not None:
        cols += ["n_clusters", "cluster_ci_low", "cluster_ci_high", "p_cluster_permutation", "p_cluster_holm",
                 "family_ci_low", "family_ci_high", "mdd_80_adjusted", "verdict"]
    return pd.DataFrame(rows, columns=cols)
