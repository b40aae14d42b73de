"""The agreement statistics of a metric with human scores, on arrays, as mt-metrics-eval defines them.

System level: Pearson and Kendall τ_b (:mod:`helpers.core.statistics.correlation`),
:func:`pairwise_accuracy` (Kocmi et al. 2021); segment level grouped by item and the tie-calibrated pairwise accuracy :func:`tie_calibrated_accuracy`
(Deutsch, Foster & Freitag 2023). Each private ``*_rows`` function takes (B, n) arrays and returns B
values, one per bootstrap resample or permutation, so intervals and tests cost one vectorised call.
Ties are decided after :func:`snap_ties` (values within :data:`TIE_TOLERANCE` of the scale are one
value). :mod:`helpers.metrics.meta` builds the tables from these.

References
----------
Kocmi, T. et al. (2021). To Ship or Not to Ship. WMT 2021. arXiv:2107.10821.
Deutsch, D., Foster, G. & Freitag, M. (2023). Ties Matter. EMNLP 2023. arXiv:2305.14324.
Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika 33(3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.statistics.correlation import TIE_TOLERANCE, snap_ties
from ..core.statistics.correlation import pair_signs as _pair_signs

# --------------------------------------------------------------------------- statistics on arrays
# Each *_rows function takes (B, n) arrays and returns B values: one per bootstrap resample or
# permutation, so intervals and tests cost one vectorised call. A row with a NaN gives NaN.


def _accuracy_rows(human, metric) -> np.ndarray:
    sh, sm = _pair_signs(human), _pair_signs(metric)
    acc = (sh == sm).mean(axis=1) if sh.shape[1] else np.full(sh.shape[0], np.nan)
    bad = np.isnan(sh).any(axis=1) | np.isnan(sm).any(axis=1)
    return np.where(bad, np.nan, acc)


def pairwise_accuracy(human, metric, tolerance: float = TIE_TOLERANCE) -> float:
    """Pairwise accuracy (Kocmi et al. 2021): the share of the n(n − 1)/2 pairs of systems
    that the metric orders as the humans do, sign(h_i − h_j) = sign(m_i − m_j).

    A pair tied on both sides counts as agreement, a tie on one side only as disagreement
    (mt-metrics-eval ``stats.Agreement``, which WMT 2022-2023 used at system level). Both
    vectors oriented higher-is-better.

    Parameters
    ----------
    human, metric : array_like
        System scores, both higher-is-better.
    tolerance : float, default :data:`TIE_TOLERANCE`
        Scores closer than this share of the largest absolute score are tied (:func:`snap_ties`; 0: exact
        equality only, as mt-metrics-eval).

    Returns
    -------
    float
        acc = #{pairs i < j : sign(h_i − h_j) = sign(m_i − m_j)} / (n(n − 1)/2).

    References
    ----------
    Kocmi et al. (2021), §3, arXiv:2107.10821; mt-metrics-eval ``stats.Agreement`` and
    ``data.CompareMetricsWithGlobalAccuracy``.

    Examples
    --------
    >>> pairwise_accuracy([1, 2, 3], [1, 3, 2])  # pairs (1,2) and (1,3) agree, (2,3) does not
    0.6666666666666666
    """
    h, m = snap_ties(human, tolerance), snap_ties(metric, tolerance)
    return float(_accuracy_rows(h, m)[0]) if h.size >= 2 else float("nan")


@dataclass
class _TiePairs:
    """The pairs of :func:`tie_calibrated_accuracy`, sorted by the metric's absolute difference."""

    row: np.ndarray  # item of each pair
    diff: np.ndarray  # |m_i − m_j|, ascending
    gain: np.ndarray  # tie_ok − base_ok: what declaring the pair a metric tie changes
    base: np.ndarray  # base_ok
    per_row: np.ndarray  # pairs per item
    last: np.ndarray  # index of the last pair of each distinct diff


def _tie_pairs(human: np.ndarray, metric: np.ndarray) -> _TiePairs:
    h, m = np.asarray(human, dtype=float), np.asarray(metric, dtype=float)
    i, j = np.triu_indices(h.shape[1], k=1)
    hd, md = h[:, i] - h[:, j], m[:, i] - m[:, j]
    valid = ~(np.isnan(hd) | np.isnan(md))
    row = np.broadcast_to(np.arange(h.shape[0])[:, None], hd.shape)[valid]
    hd, md = hd[valid], md[valid]
    base = (np.sign(hd) == np.sign(md)).astype(float)  # concordant, or tied on both sides
    tie = (hd == 0).astype(float)  # once the metric calls the pair a tie, right iff the humans tie it
    diff = np.abs(md)
    order = np.argsort(diff, kind="stable")
    diff, row, base, tie = diff[order], row[order], base[order], tie[order]
    last = np.flatnonzero(np.r_[diff[1:] != diff[:-1], True]) if diff.size else np.array([], dtype=int)
    return _TiePairs(row, diff, tie - base, base, np.bincount(row, minlength=h.shape[0]), last)


#: In bootstrap resamples acc_eq's threshold is searched among at most this many candidates
#: (0 and quantiles of the metric's pairwise differences); the estimate itself tries every one.
RESAMPLE_THRESHOLDS = 1024


def _tie_calibrated_counts(pairs: _TiePairs, thresholds: np.ndarray) -> np.ndarray:
    """Right pairs of each item at each of ``thresholds`` (ascending): the (items, thresholds) matrix C,
    C_rt = Σ base_ok + Σ_{|Δm| ≤ ε_t} (tie_ok − base_ok) over the pairs of item r. Built once per
    metric; every block of resamples reuses it (:func:`_tie_calibrated_curve`)."""
    n_items = pairs.per_row.size
    at = np.searchsorted(thresholds, pairs.diff, side="left")  # first threshold that ties the pair
    gains = np.bincount(
        pairs.row * (thresholds.size + 1) + at, weights=pairs.gain, minlength=n_items * (thresholds.size + 1)
    ).reshape(n_items, thresholds.size + 1)
    curve = np.cumsum(gains[:, :-1], axis=1)
    curve += np.bincount(pairs.row, weights=pairs.base, minlength=n_items)[:, None]
    return curve


def _tie_calibrated_curve(pairs: _TiePairs, weights: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """acc_eq at each threshold of ``counts`` (:func:`_tie_calibrated_counts`) under each row of item
    ``weights``: (B, thresholds).

    Per item r with n_r pairs, acc_r(ε) = C_r(ε) / n_r; the weighted mean over items of every
    resample at once is W diag(1/n) C / Σ W.
    """
    n_items = pairs.per_row.size
    scale = np.divide(1.0, pairs.per_row, out=np.zeros(n_items), where=pairs.per_row > 0)
    w = np.atleast_2d(np.asarray(weights, dtype=float)) * (pairs.per_row > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (w * scale) @ counts / w.sum(axis=1, keepdims=True)


def _tie_calibrated_clustered(pairs: _TiePairs, weights: np.ndarray, counts: np.ndarray, clusters) -> tuple:
    """:func:`_tie_calibrated_curve`'s two sums taken over clusters of items that share their weight in
    every row (documents of a cluster bootstrap): Σ_i w_bi x_i = Σ_g w_bg Σ_{i∈g} x_i, so the product
    costs B × clusters × thresholds instead of B × items × thresholds. Returns the per-cluster weights
    (B, G), Σ_{i∈g} C_i / n_i (G, thresholds) and the items with a pair per cluster (G,)."""
    labels = np.unique(np.asarray(clusters), return_inverse=True)[1].ravel()
    if labels.size != pairs.per_row.size:
        raise ValueError(f"{labels.size} cluster labels for {pairs.per_row.size} items")
    first = np.unique(labels, return_index=True)[1]
    draws = weights[:, first]
    if not np.array_equal(weights, draws[:, labels]):
        raise ValueError("the weights differ within a cluster: give clusters whose items always share a weight")
    valid = pairs.per_row > 0
    scale = np.divide(1.0, pairs.per_row, out=np.zeros(valid.size), where=valid)
    order = np.argsort(labels, kind="stable")
    starts = np.flatnonzero(np.r_[True, labels[order][1:] != labels[order][:-1]])
    summed = np.add.reduceat(counts[order] * scale[order][:, None], starts, axis=0)
    return draws, summed, np.bincount(labels, weights=valid.astype(float))


def _tie_calibrated_best(pairs: _TiePairs, weights: np.ndarray) -> tuple[float, float]:
    """acc_eq and its epsilon under one row of item ``weights``, every threshold tried (the estimate):
    one pass over the sorted pairs; the first, smallest epsilon of the best."""
    item_w = weights * (pairs.per_row > 0)
    wp = item_w[pairs.row] / pairs.per_row[pairs.row]
    total = item_w.sum()
    at_zero = (wp * pairs.base).sum() / total
    curve = np.r_[at_zero, at_zero + np.cumsum(wp * pairs.gain)[pairs.last] / total]
    thresholds = np.r_[0.0, pairs.diff[pairs.last]]
    best = int(np.argmax(curve))
    return curve[best], thresholds[best]


#: Accuracies this close count as equal when the best threshold is chosen: the resampled curves are BLAS
#: products, whose last digits follow the thread count (one or two kernels per build).
BEST_TOLERANCE = 1e-12


def _first_best(curve: np.ndarray) -> np.ndarray:
    """Per row of ``curve`` (resamples x ascending thresholds) the first, smallest threshold whose
    accuracy is the row's best up to :data:`BEST_TOLERANCE` (0 for an all-NaN row), so that rounding
    does not move epsilon between near-equal maxima."""
    filled = np.nan_to_num(curve, nan=-np.inf)
    top = filled.max(axis=1, keepdims=True)
    return np.argmax(filled >= top - BEST_TOLERANCE, axis=1)


def _tie_calibrated_rows(
    pairs: _TiePairs, weights: np.ndarray, clusters=None, exact: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Best acc_eq and its epsilon under each row of item ``weights`` (B, n_items): every
    threshold for a single row and for the first ``exact`` rows (estimates,
    :func:`_tie_calibrated_best`), :data:`RESAMPLE_THRESHOLDS` candidates for the others (resamples,
    summed by ``clusters`` when given: :func:`_tie_calibrated_clustered`)."""
    w = np.atleast_2d(np.asarray(weights, dtype=float))
    if pairs.diff.size == 0:
        return np.full(w.shape[0], np.nan), np.full(w.shape[0], np.nan)
    exact = 1 if w.shape[0] == 1 else exact
    acc, eps = np.empty(w.shape[0]), np.empty(w.shape[0])
    for k in range(exact):
        acc[k], eps[k] = _tie_calibrated_best(pairs, w[k])
    w = w[exact:]
    if not w.shape[0]:
        return acc, eps
    candidates = np.unique(np.r_[0.0, pairs.diff[pairs.last]])
    if candidates.size > RESAMPLE_THRESHOLDS:
        candidates = np.unique(np.r_[0.0, np.quantile(pairs.diff, np.linspace(0, 1, RESAMPLE_THRESHOLDS - 1))])
    counts = _tie_calibrated_counts(pairs, candidates)
    if clusters is not None:
        draws, summed, sizes = _tie_calibrated_clustered(pairs, w, counts, clusters)
    for start in range(0, w.shape[0], 256):
        if clusters is None:
            curve = _tie_calibrated_curve(pairs, w[start : start + 256], counts)
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                block = draws[start : start + 256]
                drawn = np.flatnonzero(block.any(axis=0))  # clusters no row of the block draws add nothing
                block = block[:, drawn]
                curve = block @ summed[drawn] / (block @ sizes[drawn])[:, None]
        ok = ~np.isnan(curve).all(axis=1)
        best = _first_best(curve)
        at = slice(exact + start, exact + start + curve.shape[0])
        acc[at] = np.where(ok, curve[np.arange(curve.shape[0]), best], np.nan)
        eps[at] = np.where(ok, candidates[best], np.nan)
    return acc, eps


def tie_calibrated_accuracy(human, metric, tolerance: float = TIE_TOLERANCE) -> tuple[float, float]:
    """Tie-calibrated pairwise accuracy acc_eq and its threshold epsilon (Deutsch et al. 2023).

    ``human`` and ``metric`` are (items, systems) matrices (NaN: not scored); a 1-D pair of
    vectors is one item. Within each item every pair of systems scored on both sides is one
    of: concordant, discordant, tied for the humans only, for the metric only, or for both.
    The metric's difference counts as a tie when |m_i − m_j| ≤ ε, and

        acc_eq(ε) = (concordant + tied on both sides) / all pairs,

    computed per item and averaged over the items that have a pair (mt-metrics-eval
    ``KendallWithTiesOpt(variant="acc23", average_by="item")``, WMT 2023's segment-level
    statistic). ε runs over 0 and every distinct |m_i − m_j|; the result is the highest
    acc_eq and the smallest ε that reaches it (``tau_optimization``, sample_rate 1). Ties of
    the humans are equalities after :func:`snap_ties` (``tolerance``); NaN, NaN when no item has a pair.

    Parameters
    ----------
    human, metric : array_like
        Items × systems scores (NaN: not scored), or two vectors (one item).
    tolerance : float, default :data:`TIE_TOLERANCE`
        Scores closer than this share of the largest absolute score are tied (:func:`snap_ties`; 0: exact
        equality only, as mt-metrics-eval).

    Returns
    -------
    tuple of float
        (max_ε acc_eq(ε), the smallest ε reaching it); (NaN, NaN) when no item has a pair.

    References
    ----------
    Deutsch, Foster & Freitag (2023), Ties Matter, §4-5, arXiv:2305.14324.

    Examples
    --------
    >>> # one item, 3 systems; humans tie A and B. ε = 0: only (A,C) and (B,C) right: 2/3;
    >>> # ε = 0.1 makes (A,B) a metric tie too: 3/3
    >>> tie_calibrated_accuracy([[1, 1, 2]], [[0.5, 0.6, 2.0]])
    (1.0, 0.09999999999999998)
    """
    h, m = np.atleast_2d(np.asarray(human, dtype=float)), np.atleast_2d(np.asarray(metric, dtype=float))
    h, m = snap_ties(h.ravel(), tolerance).reshape(h.shape), snap_ties(m.ravel(), tolerance).reshape(m.shape)
    if h.shape != m.shape:
        raise ValueError(f"human scores have shape {h.shape}, metric scores {m.shape}")
    pairs = _tie_pairs(h, m)
    acc, eps = _tie_calibrated_rows(pairs, np.ones((1, h.shape[0])))
    return float(acc[0]), float(eps[0])


def _item_values(h: np.ndarray, m: np.ndarray, statistic: str) -> np.ndarray:
    """Per item (row) correlation across the systems scored on both sides; NaN when fewer
    than two or one side is constant (the item then leaves the average)."""
    valid = ~(np.isnan(h) | np.isnan(m))
    n = valid.sum(axis=1)
    if statistic == "pearson":
        hz, mz = np.where(valid, h, 0.0), np.where(valid, m, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            hc = np.where(valid, h - hz.sum(axis=1, keepdims=True) / n[:, None], 0.0)
            mc = np.where(valid, m - mz.sum(axis=1, keepdims=True) / n[:, None], 0.0)
            r = (hc * mc).sum(axis=1) / np.sqrt((hc**2).sum(axis=1) * (mc**2).sum(axis=1))
        hmax, hmin = np.where(valid, h, -np.inf).max(axis=1), np.where(valid, h, np.inf).min(axis=1)
        mmax, mmin = np.where(valid, m, -np.inf).max(axis=1), np.where(valid, m, np.inf).min(axis=1)
        constant = (hmax == hmin) | (mmax == mmin)
        return np.where((n < 2) | constant, np.nan, np.clip(r, -1.0, 1.0))
    i, j = np.triu_indices(h.shape[1], k=1)
    both = valid[:, i] & valid[:, j]
    sx, sy = np.where(both, np.sign(h[:, i] - h[:, j]), 0.0), np.where(both, np.sign(m[:, i] - m[:, j]), 0.0)
    den = np.sqrt((sx != 0).sum(axis=1) * (sy != 0).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (sx * sy).sum(axis=1) / den
    return np.where((n < 2) | (den == 0), np.nan, tau)


def _weighted_item_mean(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    defined = ~np.isnan(values)
    w = np.atleast_2d(weights) * defined
    with np.errstate(invalid="ignore", divide="ignore"):
        return (w @ np.where(defined, values, 0.0)) / w.sum(axis=1)
