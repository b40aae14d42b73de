"""Correlations, each once: Pearson's r (:func:`pearson`, vectorised :func:`pearson_rows`),
Kendall's τ_b (:func:`kendall_tau_b`, vectorised :func:`kendall_tau_rows` over the signs of
every pair, :func:`pair_signs`), and Spearman's ρ within groups
(:func:`spearman_defined`, :func:`within_group_permutation_test`: the mean within-group ρ, exact
or sampled, so the groups' levels do not count).

Edge cases, the same for every caller: a constant vector has no correlation (the denominator
is 0), so r and τ_b are NaN there, as in mt-metrics-eval (which sets the constant case to NaN
since scipy began returning a warning for it); fewer than two pairs give NaN. Two distinct
pairs give r = ±1 and τ_b = ±1 exactly (two points always lie on a line), which callers that
need a meaningful correlation exclude by n (Spearman's ρ here asks for n ≥ 3).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd


def _rows(x) -> np.ndarray:
    return np.atleast_2d(np.asarray(x, dtype=float))


#: Two scores closer than this share of the larger absolute score of their row are one value (a tie):
#: means of three raters' penalties that are equal in exact arithmetic differ by ~1e-15 in floating point.
TIE_TOLERANCE = 1e-9


def snap_ties(x, tolerance: float = TIE_TOLERANCE) -> np.ndarray:
    """Each row of ``x`` with scores that differ by floating-point noise made equal.

    Within a row, sorted, a value closer than ``tolerance`` × max|x| of the row to the previous
    one joins its run, and every value of a run takes the run's smallest value; NaN stays NaN.
    ``tolerance=0`` returns the values unchanged (exact ties only, as mt-metrics-eval tests them).

    Parameters
    ----------
    x : array_like
        A vector or (rows, n) matrix of scores.
    tolerance : float, default :data:`TIE_TOLERANCE`
        Relative to the row's largest absolute score.

    Returns
    -------
    ndarray
        Float array of ``x``'s shape (2-D for a matrix, 1-D for a vector).

    References
    ----------
    Deutsch, Foster & Freitag (2023), Ties Matter, §3 (a tie is an equality of scores); the
    tolerance is this book's, for scores that are averages of raters' penalties.

    Examples
    --------
    >>> snap_ties([0.1 + 0.2, 0.3, 1.0]).tolist()  # 0.30000000000000004 and 0.3 are one value
    [0.3, 0.3, 1.0]
    >>> snap_ties([0.1 + 0.2, 0.3, 1.0], tolerance=0).tolist()[0] == 0.3
    False
    """
    arr = np.asarray(x, dtype=float)
    rows = _rows(arr).copy()
    if tolerance <= 0 or rows.shape[1] < 2:
        return rows.reshape(arr.shape)
    order = np.argsort(rows, axis=1, kind="stable")  # NaN last
    ordered = np.take_along_axis(rows, order, axis=1)
    scale = np.where(np.isnan(rows), 0.0, np.abs(rows)).max(axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):
        joins = np.diff(ordered, axis=1) <= tolerance * scale  # False wherever a NaN is involved
    start = np.where(np.c_[np.ones((rows.shape[0], 1), dtype=bool), ~joins], np.arange(rows.shape[1]), 0)
    start = np.maximum.accumulate(start, axis=1)
    snapped = np.take_along_axis(ordered, start, axis=1)
    np.put_along_axis(rows, order, np.where(np.isnan(ordered), np.nan, snapped), axis=1)
    return rows.reshape(arr.shape)


def pearson_rows(x, y) -> np.ndarray:
    """Pearson's r of each row of ``x`` with the same row of ``y`` (a 1-D argument is one row,
    broadcast against the other's rows): one value per bootstrap resample or permutation.

    Parameters
    ----------
    x, y : array_like
        Shape (B, n) or (n,).

    Returns
    -------
    numpy.ndarray
        Shape (B,): r = Σ (x − x̄)(y − ȳ) / √(Σ (x − x̄)² Σ (y − ȳ)²), cut to [−1, 1]; NaN for a
        row in which x or y is exactly constant (max − min = 0) or holds a NaN.

    References
    ----------
    Pearson, K. (1896). Mathematical contributions to the theory of evolution. III. Regression,
    heredity, and panmixia. Philosophical Transactions of the Royal Society A 187, 253–318.
    mt-metrics-eval ``stats.AverageCorrelation`` (a constant row is NaN).

    Examples
    --------
    >>> pearson_rows([[1, 2, 3], [1, 1, 1]], [1, 2, 4]).round(4).tolist()
    [0.982, nan]
    """
    x, y = _rows(x), _rows(y)
    xc, yc = x - x.mean(axis=1, keepdims=True), y - y.mean(axis=1, keepdims=True)
    den = np.sqrt((xc**2).sum(axis=1) * (yc**2).sum(axis=1))
    constant = (np.ptp(x, axis=1) == 0) | (np.ptp(y, axis=1) == 0)  # exactly constant, as mt-metrics-eval
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (xc * yc).sum(axis=1) / den
    return np.where(constant, np.nan, np.clip(r, -1.0, 1.0))


def pearson(x, y) -> float:
    """Pearson's r: Σ(x − x̄)(y − ȳ) / √(Σ(x − x̄)² Σ(y − ȳ)²) (:func:`pearson_rows` of one row).

    NaN when either vector is constant (the denominator is 0: mt-metrics-eval sets this case to
    NaN since scipy 1.4 began returning 0 or a warning for it), or has fewer than two values.

    Parameters
    ----------
    x, y : array_like
        Paired values.

    Returns
    -------
    float
        r as above; NaN for a constant vector or fewer than two values.

    References
    ----------
    ``scipy.stats.pearsonr``; mt-metrics-eval ``stats.AverageCorrelation`` (constant rows).

    Examples
    --------
    >>> round(pearson([1, 2, 3, 4], [1, 3, 2, 4]), 3), pearson([1, 1, 1], [1, 2, 3])
    (0.8, nan)
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    return float(pearson_rows(x, y)[0]) if x.size >= 2 else float("nan")


def pair_signs(x) -> np.ndarray:
    """The sign of the difference of every pair of values in each row: what Kendall's τ and
    pairwise accuracy count.

    Parameters
    ----------
    x : array_like
        Shape (B, n) or (n,) (one row).

    Returns
    -------
    numpy.ndarray
        Shape (B, n(n − 1)/2): sign(x_i − x_j) for i < j in ``numpy.triu_indices`` order; NaN where
        either value is NaN.

    References
    ----------
    Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika 33(3), 239–251.

    Examples
    --------
    >>> pair_signs([1, 3, 2]).tolist()
    [[-1.0, -1.0, 1.0]]
    """
    x = _rows(x)
    i, j = np.triu_indices(x.shape[1], k=1)
    return np.sign(x[:, i] - x[:, j])


def kendall_tau_rows(x, y) -> np.ndarray:
    """Kendall's τ_b of each row of ``x`` with the same row of ``y`` (a 1-D argument is one row,
    broadcast against the other's rows, e.g. a reference ranking against B resampled ones),
    vectorised over the m(m − 1)/2 pairs: (concordant − discordant) / √(pairs untied in x · pairs
    untied in y) (Kendall 1945; ``scipy.stats.kendalltau``'s default, mt-metrics-eval's
    ``KendallVariants(variant="b")``). NaN when either has no untied pair or holds a NaN.

    Parameters
    ----------
    x, y : array_like
        Shape (B, m) or (m,).

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
    sx, sy = pair_signs(x), pair_signs(y)
    den = np.sqrt((sx != 0).sum(axis=1) * (sy != 0).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (sx * sy).sum(axis=1) / den
    bad = np.isnan(sx).any(axis=1) | np.isnan(sy).any(axis=1) | (den == 0)
    return np.where(bad, np.nan, tau)


def kendall_tau_b(x, y, tolerance: float = 0.0) -> float:
    """Kendall's τ_b: (C − D) / √((n₀ − n₁)(n₀ − n₂)) (:func:`kendall_tau_rows` of one row).

    Over the n₀ = n(n − 1)/2 pairs, C concordant and D discordant, n₁ tied in x and n₂ in y
    (Kendall 1945). This is mt-metrics-eval's default variant (``KendallVariants(variant="b")``)
    and scipy's ``kendalltau`` default. NaN when every pair is tied on one side (a constant
    vector) or there are fewer than two values.

    Parameters
    ----------
    x, y : array_like
        Paired scores.
    tolerance : float, default 0
        Scores closer than this share of the largest absolute score are tied (:func:`snap_ties`;
        0: exact equality only, as mt-metrics-eval and scipy; chapter 09 passes :data:`TIE_TOLERANCE`).

    Returns
    -------
    float
        τ_b as above; NaN when every pair is tied on one side.

    References
    ----------
    Kendall (1945); ``scipy.stats.kendalltau(variant="b")``; mt-metrics-eval ``stats.KendallVariants``.

    Examples
    --------
    >>> round(kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]), 3)  # C = 5, D = 1: 4 / 6
    0.667
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    x, y = snap_ties(x, tolerance), snap_ties(y, tolerance)
    return float(kendall_tau_rows(x, y)[0]) if x.size >= 2 else float("nan")


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
    frame = pd.DataFrame(
        {"x": np.asarray(x, dtype=float), "y": np.asarray(y, dtype=float), "g": pd.Series(list(groups), dtype=object)}
    )
    parts = []
    for _, g in frame.groupby("g", sort=False):
        gx, gy = g["x"].to_numpy(), g["y"].to_numpy()
        if spearman_defined(gx, gy):
            xc, yc = _centred_ranks(gx), _centred_ranks(gy)
            parts.append((xc, yc, float(np.sqrt((xc**2).sum() * (yc**2).sum()))))
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
