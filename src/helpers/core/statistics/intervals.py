"""Intervals and detectable effects that hold with few clusters, and intervals of proportions
and correlations.

* :data:`FEW_CLUSTERS`; :func:`cluster_robust_se`, :func:`cluster_t_interval` and
  :func:`jackknife_t_interval`: intervals that hold with few clusters (t with G − 1 degrees of
  freedom), to read beside the percentile cluster bootstrap, which is too narrow with the
  20–21 sentences of the MetaHOPE pilots;
* :func:`mdd_80`, :func:`cluster_mdd_80` and :func:`detectable_correlation`: the smallest
  difference or correlation a study of this size detects;
* :func:`spearman_interval` (Fisher z) and :func:`mean_rho_interval` for correlations;
  :func:`wilson_interval` for a proportion.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.stats import norm
from scipy.stats import t as student_t

from .resampling import cluster_labels

#: Below this many clusters, intervals and tests that rest on large-G theory (the percentile
#: cluster bootstrap, normal quantiles) are too optimistic; pages say so. Cameron & Miller
#: (2015, §VI) give no single number: "few" ranges from fewer than 20 to fewer than 50
#: clusters depending on the design; 42 is this book's choice inside that range.
FEW_CLUSTERS = 42


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


def wilson_interval(k: int, n: int, ci: float = 95.0) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k / n`` (statsmodels' ``proportion_confint``,
    method ``wilson``); NaN for ``n = 0``, where there is no proportion. Unlike the normal
    (Wald) interval it stays inside [0, 1] and is not empty for k = 0 or k = n.

    Parameters
    ----------
    k : int
        Number of successes.
    n : int
        Number of trials.
    ci : float
        Level of the interval, in percent.

    Returns
    -------
    tuple of float
        (low, high) = (c − h, c + h) with p = k / n, z the normal quantile at (1 + ci/100) / 2,
        c = (p + z² / (2n)) / (1 + z² / n) and h = z / (1 + z² / n) · √(p(1 − p) / n + z² / (4n²));
        (NaN, NaN) for n = 0.

    References
    ----------
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
    Journal of the American Statistical Association 22(158), 209–212.
    Brown, L. D., Cai, T. T. & DasGupta, A. (2001). Interval estimation for a binomial proportion.
    Statistical Science 16(2), 101–133 (which recommends it for small n).

    Examples
    --------
    >>> [round(v, 4) for v in wilson_interval(0, 10)], wilson_interval(0, 0)
    ([0.0, 0.2775], (nan, nan))
    """
    if n == 0:
        return float("nan"), float("nan")
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(k, n, alpha=1 - ci / 100, method="wilson")
    return float(low), float(high)
