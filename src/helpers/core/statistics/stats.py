"""Resampling and paired statistics shared by every study.

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

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy.stats import norm, t as student_t

#: Below this many clusters, intervals and tests that rest on large-G theory (the percentile
#: cluster bootstrap, normal quantiles) are too optimistic; pages say so. Cameron & Miller
#: (2015, §VI) give no single number: "few" ranges from fewer than 20 to fewer than 50
#: clusters depending on the design; 42 is this book's choice inside that range.
FEW_CLUSTERS = 42


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def resample(n_items: int, n_boot: int, seed=0, clusters: Sequence | None = None, size: int | None = None) -> np.ndarray:
    """Bootstrap multiplicities, shape (n_boot, n_items): how often each item is drawn.

    Without ``clusters`` items are drawn with replacement (Efron's bootstrap). With
    ``clusters`` (one label per item) whole clusters are drawn with replacement and every
    item of a drawn cluster comes along: the cluster bootstrap, right when items are
    nested (several metaphors of one sentence share its context, so they are not
    independent). The draws depend only on ``(n_items, n_boot, seed, clusters)``, so two
    analyses of the same items see the same resamples and their difference is paired.
    ``seed`` may also be a ``numpy.random.Generator``. ``size`` draws that many items (or
    clusters) per resample instead of as many as there are: a study of another size drawn
    from the same population (:mod:`helpers.metahope.planning`).

    Parameters
    ----------
    n_items : int
        Number of items n.
    n_boot : int
        Number of resamples B.
    seed : int or numpy.random.Generator, default 0
        Seed of the draws (or the generator itself).
    clusters : sequence, optional
        One cluster label per item; whole clusters are drawn (cluster bootstrap).
    size : int, optional
        Items (or clusters) drawn per resample; default as many as there are.

    Returns
    -------
    numpy.ndarray
        Integer multiplicities, shape (B, n): w[b, i] is how often item i is drawn in resample b,
        so a weighted statistic sum_i w[b, i] · x_i / sum_i w[b, i] is the statistic of resample b.

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, ch. 6 (the bootstrap of a
    mean). Davison, A. C. & Hinkley, D. V. (1997). Bootstrap Methods and their Application, §3.8
    (resampling whole clusters of a two-stage design).

    Examples
    --------
    >>> w = resample(4, 3, seed=1)
    >>> w.shape, w.sum(axis=1).tolist()
    ((3, 4), [4, 4, 4])
    >>> c = resample(4, 5, seed=1, clusters=["s1", "s1", "s2", "s2"])
    >>> bool((c[:, 0] == c[:, 1]).all() and (c[:, 2] == c[:, 3]).all())
    True
    >>> resample(4, 2, seed=1, size=10).sum(axis=1).tolist()
    [10, 10]
    """
    rng = _rng(seed)
    if clusters is None:
        draws = rng.integers(0, n_items, size=(n_boot, n_items if size is None else size))
        offsets = (np.arange(n_boot) * n_items)[:, None]
        return np.bincount((draws + offsets).ravel(), minlength=n_boot * n_items).reshape(n_boot, n_items)
    labels = cluster_labels(clusters, n_items)
    n_clusters = labels.max() + 1
    draws = rng.integers(0, n_clusters, size=(n_boot, n_clusters if size is None else size))
    offsets = (np.arange(n_boot) * n_clusters)[:, None]
    per_cluster = np.bincount((draws + offsets).ravel(), minlength=n_boot * n_clusters).reshape(n_boot, n_clusters)
    return per_cluster[:, labels]


def percentile_interval(samples, ci: float = 95.0) -> tuple[float, float]:
    """Percentile interval of bootstrap ``samples`` (NaN samples ignored; NaN if none left).

    Parameters
    ----------
    samples : array_like
        Bootstrap replicates of a statistic.
    ci : float, default 95.0
        Coverage in percent.

    Returns
    -------
    tuple of float
        (low, high) = the (100 − ci)/2 and 100 − (100 − ci)/2 percentiles of the replicates.

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §13.3 (the percentile interval).
    """
    s = np.asarray(samples, dtype=float)
    s = s[~np.isnan(s)]
    if s.size == 0:
        return float("nan"), float("nan")
    lo = (100 - ci) / 2
    return float(np.percentile(s, lo)), float(np.percentile(s, 100 - lo))


def weighted_mean(values, weights: np.ndarray) -> np.ndarray:
    """Mean of ``values`` (n,) under each row of ``weights`` (B, n); values of shape (n, k)
    give (B, k), k variables at once.

    Parameters
    ----------
    values : array_like
        Shape (n,) or (n, k).
    weights : numpy.ndarray
        Multiplicities, shape (B, n) (:func:`resample`, :func:`jackknife_weights`).

    Returns
    -------
    numpy.ndarray
        Shape (B,) or (B, k): mean_b = sum_i w[b, i] · x_i / sum_i w[b, i].

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §6.2 (a bootstrap replicate
    as the statistic of the resample, here written with multiplicities).
    """
    w, v = np.asarray(weights, dtype=float), np.asarray(values, dtype=float)
    total = w.sum(axis=1)
    return w @ v / (total[:, None] if v.ndim == 2 else total)


# --------------------------------------------------------------------------- few clusters


def cluster_labels(clusters, n: int | None = None) -> np.ndarray:
    """Integer cluster codes 0…G−1 in order of first appearance, for every function here
    that resamples, flips or leaves out whole clusters. A missing label (None, NaN) is
    refused: it would silently join another cluster or never be left out.

    Parameters
    ----------
    clusters : sequence
        One label per item.
    n : int, optional
        Expected number of items (checked).

    Returns
    -------
    numpy.ndarray
        Integer codes 0 … G − 1, the first label seen coded 0.

    References
    ----------
    Cameron, A. C. & Miller, D. L. (2015). A practitioner's guide to cluster-robust inference.
    Journal of Human Resources 50(2), §II (clusters: the groups whose errors may correlate).

    Examples
    --------
    >>> cluster_labels(["s2", "s1", "s2"]).tolist()
    [0, 1, 0]
    >>> cluster_labels(["s1", None])
    Traceback (most recent call last):
    ...
    ValueError: cluster label of item 2 is missing (every item needs its cluster, e.g. its sentence)
    """
    labels = pd.factorize(pd.Series(list(clusters), dtype=object))[0]
    if (labels < 0).any():
        raise ValueError(f"cluster label of item {int(np.argmax(labels < 0)) + 1} is missing (every item needs its "
                         "cluster, e.g. its sentence)")
    if n is not None and len(labels) != n:
        raise ValueError(f"clusters has {len(labels)} labels for {n} items")
    return labels


def cluster_robust_se(values, clusters: Sequence) -> tuple[float, int]:
    """Cluster-robust standard error of the mean of ``values`` and the number of clusters G.

    The mean is the OLS fit of ``values`` on a constant; its sandwich variance with the
    usual small-sample factor (CR1, Cameron & Miller 2015, Eq. 12; statsmodels'
    ``cov_type="cluster"``) is G/(G − 1) · Σ_g (Σ_{i∈g} e_i)² / N², with e_i = x_i − x̄ the
    residuals summed within each cluster g.

    Parameters
    ----------
    values : array_like
        The n observations x_i.
    clusters : sequence
        One cluster label per observation.

    Returns
    -------
    tuple
        (se, G): SE = sqrt(G/(G − 1) · sum_g (sum_{i in g} (x_i − mean(x)))²) / n, NaN with G < 2;
        and the number of clusters G.

    References
    ----------
    Cameron, A. C. & Miller, D. L. (2015). A practitioner's guide to cluster-robust inference.
    Journal of Human Resources 50(2), Eq. 12 (the CR1 variance).

    Examples
    --------
    >>> se, g = cluster_robust_se([1, 3, 2, 2, 0, 4], ["a", "a", "b", "b", "c", "c"])
    >>> round(se, 4), g  # mean 2, cluster residual sums 0, 0, 0
    (0.0, 3)
    """
    x = np.asarray(values, dtype=float)
    labels = cluster_labels(clusters, x.size)
    g = int(labels.max()) + 1
    if g < 2:
        return float("nan"), g
    sums = np.bincount(labels, weights=x - x.mean())
    return float(np.sqrt(g / (g - 1) * (sums**2).sum()) / x.size), g


def cluster_t_interval(values, clusters: Sequence, ci: float = 95.0) -> tuple[float, float]:
    """Interval of the mean of clustered ``values`` that holds with few clusters: x̄ ± t_{G−1} · SE,
    SE from :func:`cluster_robust_se` and Student's t with G − 1 degrees of freedom (Cameron &
    Miller 2015, §VI.C; Bell & McCaffrey 2002). With 20 clusters its coverage stays close to
    nominal where the percentile cluster bootstrap's falls short.

    Parameters
    ----------
    values : array_like
        The n observations.
    clusters : sequence
        One cluster label per observation.
    ci : float, default 95.0
        Coverage in percent.

    Returns
    -------
    tuple of float
        (low, high) = mean(x) ∓ t_{G−1, 1−(1−ci/100)/2} · SE, SE from :func:`cluster_robust_se`;
        NaN when SE is undefined.

    References
    ----------
    Cameron, A. C. & Miller, D. L. (2015). A practitioner's guide to cluster-robust inference,
    §VI.C (t with G − 1 degrees of freedom). Bell, R. M. & McCaffrey, D. F. (2002). Bias reduction in
    standard errors for linear regression with multi-stage samples. Survey Methodology 28(2).

    Examples
    --------
    >>> low, high = cluster_t_interval([1, 3, 2, 4, 5, 7], ["a", "a", "b", "b", "c", "c"])
    >>> round(low, 3), round(high, 3)  # mean 11/3, residual sums −10/3, −4/3, 14/3: SE = √(3/2 · 312/9) / 6
    (-1.504, 8.838)
    """
    x = np.asarray(values, dtype=float)
    se, g = cluster_robust_se(x, clusters)
    if not np.isfinite(se):
        return float("nan"), float("nan")
    half = student_t.ppf(1 - (1 - ci / 100) / 2, g - 1) * se
    return float(x.mean() - half), float(x.mean() + half)


def jackknife_weights(clusters: Sequence) -> np.ndarray:
    """Delete-one-cluster multiplicities, shape (G, n): row g leaves out every item of cluster g.

    Like :func:`resample`'s multiplicities, so any weighted statistic of this module or of
    :mod:`helpers.core.statistics.agreement` yields its G leave-one-cluster-out values at once.

    Parameters
    ----------
    clusters : sequence
        One cluster label per item.

    Returns
    -------
    numpy.ndarray
        Shape (G, n): w[g, i] = 0 if item i is in cluster g, else 1.

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §11.2 (the jackknife);
    Cameron, A. C. & Miller, D. L. (2015), §VI.B (leaving out one cluster at a time).

    Examples
    --------
    >>> jackknife_weights(["s1", "s1", "s2"]).tolist()
    [[0, 0, 1], [1, 1, 0]]
    """
    labels = cluster_labels(clusters)
    return (labels[None, :] != np.arange(labels.max() + 1)[:, None]).astype(int)


def jackknife_t_interval(estimate: float, leave_one_out, ci: float = 95.0) -> tuple[float, float]:
    """Delete-one-cluster jackknife interval θ̂ ± t_{G−1} · SE_J for any statistic, with
    SE_J² = (G − 1)/G · Σ_g (θ_(g) − θ̄_(·))² over the G leave-one-cluster-out values
    ``leave_one_out`` (Efron & Tibshirani 1993, Eq. 11.5; for clustered data Cameron & Miller
    2015, §VI.B). For a mean with equal cluster sizes SE_J is exactly :func:`cluster_robust_se`;
    it is the few-cluster interval for statistics such as Krippendorff's α. NaN when a
    leave-one-out value is undefined.

    Parameters
    ----------
    estimate : float
        The statistic θ̂ on all data.
    leave_one_out : array_like
        The G values θ_(g), each with cluster g left out (:func:`jackknife_weights`).
    ci : float, default 95.0
        Coverage in percent.

    Returns
    -------
    tuple of float
        (low, high) = θ̂ ∓ t_{G−1} · SE_J with SE_J² = (G − 1)/G · sum_g (θ_(g) − mean θ_(·))².

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, Eq. 11.5. Cameron, A. C. &
    Miller, D. L. (2015). A practitioner's guide to cluster-robust inference, §VI.B.

    Examples
    --------
    >>> low, high = jackknife_t_interval(2.0, [1.0, 2.0, 3.0])  # SE_J = √(2/3 · 2), t_{2, .975} = 4.303
    >>> round(low, 3), round(high, 3)
    (-2.968, 6.968)
    """
    loo = np.asarray(leave_one_out, dtype=float)
    g = loo.size
    if g < 2 or np.isnan(loo).any() or not np.isfinite(estimate):
        return float("nan"), float("nan")
    se = np.sqrt((g - 1) / g * ((loo - loo.mean()) ** 2).sum())
    half = student_t.ppf(1 - (1 - ci / 100) / 2, g - 1) * se
    return float(estimate - half), float(estimate + half)


# --------------------------------------------------------------------------- paired tests


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


def mdd_80(sd: float, n: int, alpha: float = 0.05) -> float:
    """Minimum detectable mean difference of a paired two-sided test at level ``alpha`` with
    80 % power: (z_{1−α/2} + z_{0.8}) · sd / √n (normal approximation).

    Parameters
    ----------
    sd : float
        Standard deviation of the paired differences.
    n : int
        Number of pairs.
    alpha : float, default 0.05
        Two-sided level.

    Returns
    -------
    float
        MDD = (z_{1−α/2} + z_{0.8}) · sd / sqrt(n); NaN for n < 2 or a non-finite sd.

    References
    ----------
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, 2nd ed., ch. 2 (the
    test of a mean difference; here its normal approximation).

    Examples
    --------
    >>> round(mdd_80(2.0, 16), 3)  # (1.960 + 0.842) · 2 / 4
    1.401
    """
    if n < 2 or not np.isfinite(sd):
        return float("nan")
    return float((norm.ppf(1 - alpha / 2) + norm.ppf(0.8)) * sd / np.sqrt(n))


def cluster_mdd_80(values, clusters: Sequence, alpha: float = 0.05) -> float:
    """Minimum detectable mean difference when whole clusters are the units, as in the cluster
    sign-flip test: (t_{G−1, 1−α/2} + t_{G−1, 0.8}) · SE, SE the cluster-robust standard error
    of the mean of the paired differences ``values`` (:func:`cluster_robust_se`, G clusters).
    The item-level :func:`mdd_80` (sd/√n) pretends the n items are independent.

    Parameters
    ----------
    values : array_like
        Paired differences of the items.
    clusters : sequence
        One cluster label per item.
    alpha : float, default 0.05
        Two-sided level.

    Returns
    -------
    float
        MDD = (t_{G−1, 1−α/2} + t_{G−1, 0.8}) · SE, SE = :func:`cluster_robust_se`; NaN when SE is not.

    References
    ----------
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, ch. 2; Cameron, A. C. &
    Miller, D. L. (2015). A practitioner's guide to cluster-robust inference, §VI.C (t with G − 1
    degrees of freedom).

    Examples
    --------
    >>> round(cluster_mdd_80([1, 3, 2, 4, 5, 7], ["a", "a", "b", "b", "c", "c"]), 2)  # (4.303 + 1.061) · 1.202
    6.45
    """
    se, g = cluster_robust_se(values, clusters)
    if not np.isfinite(se):
        return float("nan")
    return float((student_t.ppf(1 - alpha / 2, g - 1) + student_t.ppf(0.8, g - 1)) * se)


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


def detectable_correlation(n: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """Smallest correlation a two-sided test at level ``alpha`` detects with ``power`` among
    ``n`` pairs (Fisher z approximation): tanh((z_{1−α/2} + z_power) / √(n − 3)).

    Parameters
    ----------
    n : int
        Number of pairs.
    alpha : float, default 0.05
        Two-sided level.
    power : float, default 0.8
        Power.

    Returns
    -------
    float
        r = tanh((z_{1−α/2} + z_power) / sqrt(n − 3)); NaN for n ≤ 3.

    References
    ----------
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, ch. 3 (the test of a
    correlation r); Fisher, R. A. (1921). Metron 1, 3–32 (the z transformation).

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
            half = student_t.ppf(1 - alpha / 2, n - 1) * sd / math.sqrt(n) if n > 1 else np.nan
            row.update({"t_ci_low": d.mean() - half, "t_ci_high": d.mean() + half})
            if clusters is not None:
                nested = _pair_stats(x, y, n_perm, n_boot, seed, ci, labels)
                fam = percentile_interval(weighted_mean(d, resample(n, n_boot, seed, labels)), family)
                row.update({"n_clusters": int(pd.Series(labels).nunique()), "cluster_ci_low": nested["ci_low"],
                            "cluster_ci_high": nested["ci_high"], "p_cluster_permutation": nested["p"],
                            "family_ci_low": fam[0], "family_ci_high": fam[1],
                            "mdd_80_adjusted": mdd_80(sd, n, alpha / max(len(pairs), 1))})
                t_ci, t_fam = cluster_t_interval(d, labels, ci), cluster_t_interval(d, labels, family)
                row.update({"cluster_t_ci_low": t_ci[0], "cluster_t_ci_high": t_ci[1],
                            "family_t_ci_low": t_fam[0], "family_t_ci_high": t_fam[1],
                            "cluster_mdd_80": cluster_mdd_80(d, labels, alpha),
                            "cluster_mdd_80_adjusted": cluster_mdd_80(d, labels, alpha / max(len(pairs), 1))})
            block.append(row)
        for r, p in zip(block, holm([r["p_permutation"] for r in block])):
            r["p_holm"] = float(p)
        if clusters is not None:
            for r, p in zip(block, holm([r["p_cluster_permutation"] for r in block])):
                r["p_cluster_holm"] = float(p)
                r["verdict"] = verdict(r["p_cluster_permutation"], p, alpha)
        rows.extend(block)
    cols = by + ["system_a", "system_b", "n_items", "mean_a", "mean_b", "mean_difference", "ci_low", "ci_high",
                 "cohen_dz", "rank_biserial", "p_permutation", "p_holm", "mdd_80"]
    if clusters is not None:
        cols += ["n_clusters", "cluster_ci_low", "cluster_ci_high", "p_cluster_permutation", "p_cluster_holm",
                 "family_ci_low", "family_ci_high", "mdd_80_adjusted", "verdict", "cluster_t_ci_low",
                 "cluster_t_ci_high", "family_t_ci_low", "family_t_ci_high", "cluster_mdd_80", "cluster_mdd_80_adjusted"]
    return pd.DataFrame(rows, columns=cols + ["t_ci_low", "t_ci_high"])


# --------------------------------------------------------------------------- systems: tests and rankings


def approximate_randomization(scores: pd.DataFrame, n_trials: int = 10000, seed=0, clusters: Sequence | None = None,
                              lower_better: bool = True) -> pd.DataFrame:
    """Paired one-sided approximate randomisation for every pair of systems, all pairs at once.

    ``scores`` is items × systems (one column per system; items missing for a system are
    dropped). This is Marot's test (google-research/google-research
    ``marot/marot-sigtests.js``, ``runPAR``, which follows sacrebleu's paired approximate
    randomisation): for a pair with ``system_a`` better than ``system_b``, each trial swaps
    the two systems' scores of every item with probability ½ and recomputes the difference
    of their means; ``p = (c + 1) / (T + 1)`` with c the trials whose difference (``b`` minus
    ``a`` in the better-is-lower sense) reaches the observed one. A swap flips the sign of
    the item's difference, so a trial is a ±1 sign vector and all trials of all pairs are one
    product: signs (T × n) · differences (n × pairs). Where Marot declines to test (fewer
    than log2(T) units to swap) the test here is exact instead: all 2^k swap patterns of the
    k units are enumerated and p is the share reaching the observed difference (at least
    2^−k: with 5 documents no pair can have p below 1/32). Otherwise the trials are ``n_trials``
    rows of k fair coins, ``numpy.random.default_rng(seed).integers(0, 2, (n_trials, k),
    dtype=int8)``, 1 keeping and 0 swapping a unit. A trial counts when it comes within
    10^−12 · max(1, |observed|) of the observed difference (the floating-point residue of
    summing the same numbers in another order, relative to their size).

    With ``clusters`` (one label per item, e.g. its document) the swap is drawn per cluster,
    for every item of it together: the document-level test, right when the items of a
    document are not independent. Returns ``system_a, system_b, n_items, n_units, mean_a,
    mean_b, difference, p`` (``difference`` = mean_b − mean_a), pairs in the order of the
    systems' means (best first; systems with equal means keep their column order).

    Parameters
    ----------
    scores : DataFrame
        Items × systems.
    n_trials : int, default 10000
        Trials T when not every swap pattern is enumerated.
    seed : int or numpy.random.Generator, default 0
        Seed of the trials.
    clusters : sequence, optional
        One label per item; the swaps are drawn per cluster.
    lower_better : bool, default True
        Lower scores are better (MQM penalties); False for higher-is-better scores.

    Returns
    -------
    DataFrame
        One row per pair: p = (c + 1) / (T + 1), c = #{trials t : sum_i s_ti · d_i / n ≥ observed},
        with s_ti = ±1 and d_i the item's difference (the exact share over all 2^k patterns when
        2^k ≤ T).

    References
    ----------
    Riezler, S. & Maxwell, J. T. (2005). On some pitfalls in automatic evaluation and significance
    testing for MT. ACL Workshop on Intrinsic and Extrinsic Evaluation Measures for MT; Noreen, E. W.
    (1989). Computer-Intensive Methods for Testing Hypotheses, ch. 2.

    Examples
    --------
    >>> s = pd.DataFrame({"A": [0.0, 0, 0, 0, 0, 0], "B": [1.0, 1, 1, 1, 1, 1]})
    >>> approximate_randomization(s, n_trials=2000, seed=1)[["system_a", "system_b", "n_units", "p"]].round(2).values.tolist()
    [['A', 'B', 6, 0.02]]
    """
    wide = scores.dropna()
    means = wide.mean()
    order = list(means.sort_values(ascending=lower_better, kind="stable").index)
    sign = 1.0 if lower_better else -1.0
    values = wide[order].to_numpy(dtype=float) * sign
    n, m = values.shape
    ia, ib = np.triu_indices(m, k=1)
    diffs = values[:, ib] - values[:, ia]  # n × pairs: how much worse b is than a, per item
    if clusters is not None:
        labels = cluster_labels(clusters, len(scores))[scores.index.get_indexer(wide.index)]
        labels = pd.factorize(labels)[0]
        units = np.zeros((labels.max() + 1, diffs.shape[1]))
        np.add.at(units, labels, diffs)
    else:
        units = diffs
    k = units.shape[0]
    observed = diffs.sum(axis=0) / n
    if 2**k <= n_trials:  # every swap pattern: the exact test (Marot declines to test here)
        signs = 1 - 2 * ((np.arange(2**k)[:, None] >> np.arange(k)) & 1).astype(float)
    else:
        signs = _rng(seed).integers(0, 2, size=(n_trials, k), dtype=np.int8).astype(float) * 2 - 1
    trials = signs @ units / n
    count = (trials >= observed - 1e-12 * np.maximum(1.0, np.abs(observed))).sum(axis=0)
    p = count / len(signs) if 2**k <= n_trials else (count + 1) / (n_trials + 1)
    return pd.DataFrame({"system_a": [order[i] for i in ia], "system_b": [order[j] for j in ib], "n_items": n,
                         "n_units": k, "mean_a": means[order].to_numpy()[ia], "mean_b": means[order].to_numpy()[ib],
                         "difference": observed * sign, "p": p})


def significance_clusters(p, alpha: float = 0.05) -> list[int]:
    """Ranks (significance clusters) of systems ordered best first, from their pairwise p-values.

    ``p[i][j]`` (i < j; only the upper triangle is read) is the p-value of "system j
    is worse than system i". The rule is mt-metrics-eval's (google-research/mt-metrics-eval,
    ``stats.py``, ``AssignRanks``): walking down the order, a system opens a new cluster
    (rank + 1) when it is significantly worse (p ≤ ``alpha``) than any system of the current
    cluster, i.e. any from the cluster's first member up to the one before it; otherwise it
    joins the current cluster. A rank-r system is thus not significantly worse than any other
    rank-r system that precedes it.

    Parameters
    ----------
    p : array_like
        Square matrix of pairwise p-values, systems ordered best first.
    alpha : float, default 0.05
        Level.

    Returns
    -------
    list of int
        The rank of each system: rank_j = rank_{j−1} + 1 if p[i][j] ≤ α for some i from the current
        cluster's first member to j − 1, else rank_{j−1}.

    References
    ----------
    Freitag, M. et al. (2021). Results of the WMT21 Metrics Shared Task (significance clusters), as
    implemented in google-research/mt-metrics-eval, stats.py, AssignRanks.

    Examples
    --------
    >>> p = [[1, .2, .01, .01], [0, 1, .3, .02], [0, 0, 1, .04], [0, 0, 0, 1]]
    >>> significance_clusters(p)  # C is worse than A: new cluster at C; D worse than C
    [1, 1, 2, 3]
    """
    p = np.asarray(p, dtype=float)
    if p.ndim != 2 or p.shape[0] != p.shape[1]:
        raise ValueError("p must be a square matrix of p-values")
    ranks, rank, start = [], 1, 0
    for j in range(p.shape[0]):
        if j > start and (p[start:j, j] <= alpha).any():
            rank, start = rank + 1, j
        ranks.append(rank)
    return ranks


def kendall_tau_rows(reference, samples) -> np.ndarray:
    """Kendall's τ-b between ``reference`` (m,) and each row of ``samples`` (B × m), vectorised
    over the m(m − 1)/2 pairs: (concordant − discordant) / √(pairs untied in x · pairs untied
    in y) (Kendall 1945; ``scipy.stats.kendalltau``'s default). NaN when either has no untied pair.

    Parameters
    ----------
    reference : array_like
        Shape (m,).
    samples : array_like
        Shape (B, m).

    Returns
    -------
    numpy.ndarray
        Shape (B,): τ_b = (C − D) / sqrt((P − T_x) · (P − T_y)), C and D the concordant and
        discordant pairs, P = m(m − 1)/2, T_x and T_y the pairs tied in each variable.

    References
    ----------
    Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika 33(3), 239–251.

    Examples
    --------
    >>> kendall_tau_rows([1, 2, 3], [[1, 2, 3], [3, 2, 1], [1, 3, 2]]).round(3).tolist()
    [1.0, -1.0, 0.333]
    """
    ref = np.asarray(reference, dtype=float)
    s = np.atleast_2d(np.asarray(samples, dtype=float))
    i, j = np.triu_indices(ref.size, k=1)
    sx = np.sign(ref[i] - ref[j])
    sy = np.sign(s[:, i] - s[:, j])
    with np.errstate(invalid="ignore", divide="ignore"):
        return (sy * sx).sum(axis=1) / np.sqrt((sx != 0).sum() * (sy != 0).sum(axis=1))


def ranking_stability(values, weights: np.ndarray, alpha: float = 0.05) -> dict:
    """How stable a ranking of systems is under resampling of the items they were scored on.

    ``values`` is items × systems (lower is better or higher, it does not matter: τ and the
    sign tests are symmetric); ``weights`` are resample multiplicities (B × items,
    :func:`resample`, over items or clusters). For each resample the systems' means are
    recomputed. Returns ``tau_mean`` and ``tau_low`` (mean and 2.5th percentile of Kendall's
    τ-b between the full-data ranking and the resampled ones, :func:`kendall_tau_rows`) and
    ``share_significant``: the share of system pairs whose difference keeps its sign in at
    least 1 − ``alpha``/2 of the resamples (the percentile interval of the difference
    excludes 0), the "ability to discriminate" the WMT MQM README weighs against stability.

    Parameters
    ----------
    values : array_like
        Items × systems.
    weights : numpy.ndarray
        Resample multiplicities (B × items).
    alpha : float, default 0.05
        Level of the sign-stability criterion.

    Returns
    -------
    dict
        ``tau_mean`` and ``tau_low`` (mean and 2.5th percentile over b of τ_b(full means, means
        under w_b)), and ``share_significant``.

    References
    ----------
    Koehn, P. (2004). Statistical significance tests for machine translation evaluation. EMNLP
    (bootstrap resampling of the test set); Freitag, M. et al. (2021). Experts, errors, and context.
    TACL 9 (the stability of MQM rankings).
    """
    v = np.asarray(values, dtype=float)
    w = np.asarray(weights, dtype=float)
    full = v.mean(axis=0)
    boot = weighted_mean(v, w)
    tau = kendall_tau_rows(full, boot)
    i, j = np.triu_indices(v.shape[1], k=1)
    d = boot[:, i] - boot[:, j]
    kept = np.maximum((d > 0).mean(axis=0), (d < 0).mean(axis=0))
    return {"tau_mean": float(np.nanmean(tau)), "tau_low": float(np.nanpercentile(tau, 2.5)),
            "share_significant": float((kept >= 1 - alpha / 2).mean()), "n_resamples": int(w.shape[0])}



# --------------------------------------------------------------------------- within-group correlation tests


@dataclass(frozen=True)
class WithinGroupTest:
    """A permutation test of the mean within-group Spearman ρ (:func:`within_group_permutation_test`)."""

    statistic: float  # mean over the groups of the within-group Spearman ρ
    p_value: float  # two-sided: share of permutations with |mean ρ| >= the observed one
    n_groups: int  # groups that entered the mean (at least 3 items, neither variable constant)
    n_items: int  # items in those groups
    exact: bool  # every permutation enumerated (True) or a seeded Monte Carlo sample (False)
    n_permutations: int  # permutations enumerated (the product of n_g!) or drawn


MAX_EXACT_GROUP = 8  # 8! = 40 320 permutations per group are enumerated; larger groups are sampled
_MAX_SUPPORT = 2_000_000  # exact while the null distribution has at most this many distinct values, else sampled


def _centred_ranks(values) -> np.ndarray:
    ranks = pd.Series(np.asarray(values, dtype=float)).rank().to_numpy()  # average ranks for ties
    return ranks - ranks.mean()


def spearman_defined(x: np.ndarray, y: np.ndarray) -> bool:
    """Spearman's ρ of ``x`` and ``y`` is defined: at least 3 pairs, neither variable constant.

    Parameters
    ----------
    x, y : numpy.ndarray
        Paired values.

    Returns
    -------
    bool
        True when n ≥ 3 and max − min > 0 for both x and y (the denominator of ρ is then non-zero).

    References
    ----------
    Spearman, C. (1904). The proof and measurement of association between two things. American
    Journal of Psychology 15(1), 72–101.
    """
    return len(x) >= 3 and np.ptp(x) > 0 and np.ptp(y) > 0


def within_group_permutation_test(x, y, groups, n_perm: int = 10000, seed=0) -> WithinGroupTest:
    """Is the mean within-group Spearman ρ of ``x`` and ``y`` larger in size than chance?

    The ratings ``y`` are permuted *within* each group (each slang word), so the words'
    different levels of ``x`` and ``y`` stay where they are and only the ranking of a
    word's own candidates is tested. The statistic is the unweighted mean over groups of
    Spearman's ρ (Pearson's r of average ranks, as :func:`scipy.stats.spearmanr`); groups
    with fewer than 3 items or a constant variable are left out (ρ is undefined there).

    Exact when every group has at most :data:`MAX_EXACT_GROUP` items: each group's n_g!
    permutations are enumerated and the groups' null distributions convolved (five words
    of five candidates: 120^5 ≈ 2.5·10^10 permutations, counted exactly; p is the share of
    them, never below one over their number, the observed order being one of them).
    Otherwise (or when the convolved distribution has more than ``_MAX_SUPPORT`` distinct
    values) ``n_perm`` permutations per group are drawn: group after group in order of first
    appearance, the argsort of each row of ``numpy.random.default_rng(seed).random((n_perm,
    n_g))``; p = (hits + 1) / (n_perm + 1).

    Parameters
    ----------
    x, y : array_like
        Paired values (e.g. a candidate's self-information and its rating).
    groups : sequence
        One group label per pair (e.g. the slang word).
    n_perm : int, default 10000
        Permutations per group when not exact.
    seed : int, default 0
        Seed of the sampled permutations.

    Returns
    -------
    WithinGroupTest
        statistic = (1/G) · sum_g ρ_g, ρ_g Spearman's ρ within group g, and its two-sided p-value
        p = share of permutations with |mean ρ| ≥ |observed| (sampled: (hits + 1) / (n_perm + 1)).

    References
    ----------
    Good, P. (2005). Permutation, Parametric and Bootstrap Tests of Hypotheses, 3rd ed. (permutations
    restricted to blocks); Spearman, C. (1904). American Journal of Psychology 15(1).

    Examples
    --------
    Two groups of three whose ranks agree perfectly: each group's ρ is 1 for 1 of its 6
    orders, so |mean ρ| = 1 only when both groups are (1, 1) or (−1, −1): p = 2/36.

    >>> t = within_group_permutation_test([1, 2, 3, 1, 2, 3], [1, 2, 3, 5, 6, 7], list("aaabbb"))
    >>> t.statistic, round(t.p_value, 4), t.exact, t.n_permutations
    (1.0, 0.0556, True, 36)
    """
    frame = pd.DataFrame({"x": np.asarray(x, dtype=float), "y": np.asarray(y, dtype=float),
                          "g": pd.Series(list(groups), dtype=object)})
    parts = []
    for _, g in frame.groupby("g", sort=False):
        gx, gy = g["x"].to_numpy(), g["y"].to_numpy()
        if spearman_defined(gx, gy):
            xc, yc = _centred_ranks(gx), _centred_ranks(gy)
            parts.append((xc, yc, float(np.sqrt((xc ** 2).sum() * (yc ** 2).sum()))))
    if not parts:
        return WithinGroupTest(float("nan"), float("nan"), 0, 0, False, 0)
    observed = sum(float(xc @ yc) / d for xc, yc, d in parts)  # the sum of the ρ; the mean is sum / G
    n_items = sum(len(xc) for xc, _, _ in parts)
    if all(len(xc) <= MAX_EXACT_GROUP for xc, _, _ in parts):
        # the null distribution of the sum of the ρ: its distinct values and how many permutations
        # give each (float counts: exact up to 2^53 permutations, relative precision 1e-16 beyond)
        values, counts = np.zeros(1), np.ones(1)  # the empty sum: 0, reached by one permutation
        for xc, yc, d in parts:
            perms = np.array(list(itertools.permutations(range(len(xc)))))
            rho, n_rho = np.unique(np.round(yc[perms] @ xc / d, 10), return_counts=True)
            values = (values[:, None] + rho[None, :]).ravel()
            counts = (counts[:, None] * n_rho[None, :]).ravel()
            values, inverse = np.unique(np.round(values, 9), return_inverse=True)
            counts = np.bincount(inverse.ravel(), weights=counts)
            if len(values) > _MAX_SUPPORT:
                break
        else:
            p = float(counts[np.abs(values) >= abs(observed) - 1e-9].sum() / counts.sum())
            total = math.prod(math.factorial(len(xc)) for xc, _, _ in parts)
            return WithinGroupTest(observed / len(parts), p, len(parts), n_items, True, total)
    rng = np.random.default_rng(seed)
    sums = np.zeros(n_perm)
    for xc, yc, d in parts:
        perms = np.argsort(rng.random((n_perm, len(xc))), axis=1)
        sums += yc[perms] @ xc / d
    hits = int((np.abs(sums) >= abs(observed) - 1e-9).sum())
    return WithinGroupTest(observed / len(parts), (hits + 1) / (n_perm + 1), len(parts), n_items, False, n_perm)


def spearman_interval(rho: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Approximate confidence interval of a Spearman ρ from n pairs: Fisher's z with the
    variance 1.06 / (n − 3) of Fieller, Hartley and Pearson (1957). NaN for n ≤ 3; ρ = ±1 is
    taken as ±0.999999, so a perfect correlation still gets a finite, non-degenerate interval.

    Parameters
    ----------
    rho : float
        Spearman's ρ.
    n : int
        Number of pairs.
    level : float, default 0.95
        Coverage.

    Returns
    -------
    tuple of float
        tanh(atanh(ρ) ∓ z_{(1+level)/2} · sqrt(1.06 / (n − 3))).

    References
    ----------
    Fieller, E. C., Hartley, H. O. & Pearson, E. S. (1957). Tests for rank correlation coefficients. I.
    Biometrika 44(3/4), 470–481.

    Examples
    --------
    >>> [round(v, 3) for v in spearman_interval(0.5, 28)]  # tanh(atanh(.5) ± 1.96 · √(1.06/25))
    [0.145, 0.741]
    """
    if n <= 3 or not np.isfinite(rho):
        return float("nan"), float("nan")
    z, half = np.arctanh(np.clip(rho, -0.999999, 0.999999)), norm.ppf(0.5 + level / 2) * np.sqrt(1.06 / (n - 3))
    return float(np.tanh(z - half)), float(np.tanh(z + half))


def mean_rho_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """t interval of the mean of G correlations (one per group, e.g. per word): mean ± t(G − 1) · SD / √G,
    cut to [−1, 1]; NaN values are left out, NaN with fewer than 2 groups.

    Parameters
    ----------
    values : sequence of float
        One correlation per group.
    level : float, default 0.95
        Coverage.

    Returns
    -------
    tuple of float
        mean ∓ t_{G−1, (1+level)/2} · SD / sqrt(G), cut to [−1, 1].

    References
    ----------
    Student (1908). The probable error of a mean. Biometrika 6(1), 1–25 (the t interval of a mean).
    """
    v = np.asarray([x for x in values if np.isfinite(x)], dtype=float)
    if len(v) < 2:
        return float("nan"), float("nan")
    half = student_t.ppf(0.5 + level / 2, len(v) - 1) * v.std(ddof=1) / np.sqrt(len(v))
    return max(float(v.mean() - half), -1.0), min(float(v.mean() + half), 1.0)
