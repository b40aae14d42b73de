"""Inter-annotator agreement for any number of raters (k ≥ 2).

Conventions, chosen because they reproduce the MetaHOPE paper's Tables 1 and 6 exactly
(chapter 1 shows the evidence):

* Krippendorff's α via the ``krippendorff`` package, interval level by default (the
  MetaHOPE paper treats the severities as "ordered penalty levels", but its printed
  numbers for pilot v1 are interval α; both levels are offered through ``level``).
* Cohen's κ with quadratic weights (Cohen 1968) on the *positions* of the values in a list
  of category labels, as ``sklearn.metrics.cohen_kappa_score(weights="quadratic")`` does.
  For single categories the labels are the severity scale 0…10; for summed scores, which
  have no fixed scale, the labels are the values observed by any rater.
* How high is high enough: :func:`alpha_reading` reads α by Krippendorff's convention, the
  one reading of α levels the whole book uses.
* Pearson r, NaN when one rater is constant (the paper prints "NA").
* Exact agreement: percentage of items on which all raters gave the same score; presence
  agreement: the same for "any error" (value > 0) versus none.

With more than two raters κ and r are means over rater pairs, each pair on the items both
rated. Input is a tidy frame with one row per (item, rater) and a value column; results
are tidy frames with one row per group and fixed column names (:data:`COLUMNS`).
What raters do beyond agreeing (severity and rater bias, error spans, ICC) is
:mod:`~helpers.core.statistics.raters`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import krippendorff
import numpy as np
import pandas as pd

from .correlation import pearson
from .stats import jackknife_t_interval, jackknife_weights, percentile_interval, resample

#: The statistics of :func:`agreement`, in order.
METRICS = ("alpha", "weighted_kappa", "pearson_r", "exact_agreement", "presence_agreement")
#: The range of each two-rater metric; a symmetric (jackknife t) interval is cut to it.
BOUNDS = {
    "alpha": (-np.inf, 1.0),
    "weighted_kappa": (-1.0, 1.0),
    "pearson_r": (-1.0, 1.0),
    "exact_agreement": (0.0, 100.0),
    "presence_agreement": (0.0, 100.0),
}
#: Columns of :func:`agreement` after the grouping columns (``total_<rater>`` may follow).
COLUMNS = ("n_items", "n_raters") + METRICS


#: Krippendorff (2004, §12.4; 2011): rely on data with α ≥ .800 ...
ALPHA_RELIABLE = 0.800
#: ... and draw only tentative conclusions from data with .667 ≤ α < .800; below, none.
ALPHA_TENTATIVE = 0.667
#: The readings :func:`alpha_reading` gives, highest first (and for an undefined α).
ALPHA_READINGS = ("reliable", "tentative conclusions only", "too low for conclusions", "undefined")


def alpha_reading(alpha: float) -> str:
    """How Krippendorff's convention reads an α: the book's one scale for α levels.

    Krippendorff (2004, *Content Analysis*, 2nd ed., §12.4; 2011, "Computing Krippendorff's
    alpha-reliability") advises relying on data with α ≥ .800 (:data:`ALPHA_RELIABLE`),
    drawing only tentative conclusions when .667 ≤ α < .800 (:data:`ALPHA_TENTATIVE`), and
    none below .667. Every chapter's words about α levels come from here (one of
    :data:`ALPHA_READINGS`); NaN reads "undefined". Labels of other conventions (Landis &
    Koch's "moderate", "substantial" for κ) are not used for α.

    Parameters
    ----------
    alpha : float
        Krippendorff's α.

    Returns
    -------
    str
        "reliable" if α ≥ 0.800, "tentative conclusions only" if 0.667 ≤ α < 0.800, "too low for
        conclusions" below, "undefined" for NaN.

    References
    ----------
    Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology, 2nd ed., §12.4.
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. University of Pennsylvania.

    Examples
    --------
    >>> [alpha_reading(a) for a in (0.8, 0.7999, 0.667, 0.6669, float("nan"))]
    ['reliable', 'tentative conclusions only', 'tentative conclusions only', 'too low for conclusions', 'undefined']
    """
    if alpha is None or np.isnan(alpha):
        return ALPHA_READINGS[3]
    return (
        ALPHA_READINGS[0]
        if alpha >= ALPHA_RELIABLE
        else ALPHA_READINGS[1]
        if alpha >= ALPHA_TENTATIVE
        else ALPHA_READINGS[2]
    )


def krippendorff_alpha(ratings, level: str = "interval", value_domain: Sequence | None = None) -> float:
    """Krippendorff's α for a (raters × units) array (NaN = missing).

    Returns NaN when fewer than two distinct values occur (α is undefined there; the
    ``krippendorff`` package raises instead). The interval level is computed in closed form
    (:func:`interval_alpha_weighted`, equal to the package's value: tests/core/test_agreement.py),
    the other levels by the package.

    Parameters
    ----------
    ratings : array_like
        Raters × units, NaN where a rater did not rate a unit.
    level : str, default "interval"
        Level of measurement: "nominal", "ordinal", "interval" or "ratio".
    value_domain : sequence, optional
        The possible values (for the nominal and ordinal levels).

    Returns
    -------
    float
        α = 1 − D_o / D_e, D_o the observed and D_e the expected disagreement under the level's
        difference function (interval: δ²(v, v') = (v − v')²); NaN with fewer than two values.

    References
    ----------
    Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology, 2nd ed., §12.4.
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. University of Pennsylvania.

    Examples
    --------
    Krippendorff (2011), "Computing Krippendorff's alpha-reliability", the worked example
    with four coders and missing values: interval α = 0.849.

    >>> nan = float("nan")
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> round(krippendorff_alpha(data), 3)
    0.849
    """
    data = np.asarray(ratings, dtype=float)
    if np.unique(data[~np.isnan(data)]).size < 2:
        return float("nan")
    if level == "interval":  # the closed form, 10^4 times faster than the package on 3770 units × 8 raters
        alpha = float(interval_alpha_weighted(data.T, np.ones((1, data.shape[1])))[0])
        return 0.0 if abs(alpha) < 1e-12 else alpha  # floating-point residue of an exact 0, as in κ
    kwargs = {"value_domain": list(value_domain)} if value_domain is not None and level != "interval" else {}
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement=level, **kwargs))


def _positions(values, labels) -> np.ndarray:
    index = {float(v): i for i, v in enumerate(np.asarray(labels, dtype=float))}
    try:
        return np.array([index[float(v)] for v in np.asarray(values, dtype=float)], dtype=float)
    except KeyError as exc:
        raise ValueError(f"rating {exc.args[0]} is not among the labels {list(index)}") from None


def _weighted_kappa_rows(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Quadratic κ of positions ``x``, ``y`` (n,) under each row of multiplicities ``w`` (B, n).

    With quadratic weights Σ w·O = mean((x − y)²) and Σ w·E = var(x) + var(y) + (x̄ − ȳ)²
    (population moments), so κ = 1 − mean((x − y)²) / (var x + var y + (x̄ − ȳ)²).
    """
    total = w.sum(axis=1)
    mx, my = w @ x / total, w @ y / total
    vx, vy = w @ x**2 / total - mx**2, w @ y**2 / total - my**2
    observed = w @ (x - y) ** 2 / total
    expected = vx + vy + (mx - my) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = 1.0 - observed / expected
    kappa = np.where(np.abs(expected) < 1e-12, 0.0, kappa)
    return np.where(np.abs(kappa) < 1e-12, 0.0, kappa)  # floating-point residue of an exact 0


def weighted_kappa(a, b, labels: Sequence | None = None) -> float:
    """Quadratic-weighted Cohen's κ between two raters (Cohen 1968).

    κ = 1 − Σ w·O / Σ w·E with w_ij = (i − j)², i, j the positions of the two ratings in
    ``labels`` (default: the sorted values either rater used), O the observed and E the
    chance-expected joint proportions. Returns 0 when E has no weight (both raters
    constant): no agreement beyond chance can be shown (scikit-learn 1.9 returns NaN there).

    Parameters
    ----------
    a, b : array_like
        The two raters' values on the same items.
    labels : sequence, optional
        The ordered categories whose positions are weighted; default the sorted values used.

    Returns
    -------
    float
        κ_w = 1 − sum_ij w_ij O_ij / sum_ij w_ij E_ij with w_ij = (i − j)²; 0 when E has no weight.

    References
    ----------
    Cohen, J. (1968). Weighted kappa: nominal scale agreement with provision for scaled
    disagreement or partial credit. Psychological Bulletin 70(4), 213–220.

    Examples
    --------
    >>> round(weighted_kappa([0, 1, 2, 2], [0, 2, 2, 1]), 4)  # positions = values: 1 − 0.5 / 1.375
    0.6364
    >>> round(weighted_kappa([0, 2], [0, 4], labels=[0, 2, 4]), 3)  # positions (0, 1) vs (0, 2): 1 − 0.5/1.5
    0.667
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if labels is None:
        labels = np.unique(np.concatenate([a, b]))
    x, y = _positions(a, labels), _positions(b, labels)
    return float(_weighted_kappa_rows(x, y, np.ones((1, x.size)))[0])


def exact_agreement(*raters) -> float:
    """Percentage of items on which every rater gave the same value.

    Parameters
    ----------
    *raters : array_like
        Each rater's values on the same items.

    Returns
    -------
    float
        100 · #{items i : all raters gave i the same value} / #items.

    References
    ----------
    Artstein, R. & Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    Computational Linguistics 34(4) (observed agreement).

    Examples
    --------
    >>> exact_agreement([1, 2, 3, 4], [1, 2, 0, 4])
    75.0
    """
    data = np.vstack([np.asarray(r, dtype=float) for r in raters])
    return float((data == data[0]).all(axis=0).mean() * 100)


def _statistics(data: np.ndarray, labels: Sequence | None, level: str) -> dict:
    """All statistics for one items × raters array (NaN = not rated)."""
    group_labels = np.asarray(labels if labels is not None else np.unique(data[~np.isnan(data)]), dtype=float)
    kappas, rs = [], []
    for i, j in combinations(range(data.shape[1]), 2):
        both = ~np.isnan(data[:, i]) & ~np.isnan(data[:, j])
        if both.sum() >= 2:
            kappas.append(weighted_kappa(data[both, i], data[both, j], group_labels))
            rs.append(pearson(data[both, i], data[both, j]))
    rated = data[(~np.isnan(data)).sum(axis=1) >= 2]
    same = [np.unique(r[~np.isnan(r)]).size == 1 for r in rated]
    same_presence = [np.unique(r[~np.isnan(r)] > 0).size == 1 for r in rated]
    return {
        "n_items": len(rated),
        "n_raters": data.shape[1],
        "alpha": krippendorff_alpha(data.T, level=level, value_domain=group_labels),
        "weighted_kappa": float(np.mean(kappas)) if kappas else np.nan,
        "pearson_r": float(np.mean(rs)) if rs and not np.isnan(rs).any() else np.nan,
        "exact_agreement": float(np.mean(same) * 100) if same else np.nan,
        "presence_agreement": float(np.mean(same_presence) * 100) if same else np.nan,
    }


def rating_matrix(scores: pd.DataFrame, value: str, rater: str = "annotator", item: str = "item") -> pd.DataFrame:
    """Items × raters table of ``value`` (NaN where a rater did not rate an item), items and
    raters in order of first appearance.

    Parameters
    ----------
    scores : DataFrame
        Tidy ratings, one row per (item, rater).
    value, rater, item : str
        Column names of the value, the rater and the item.

    Returns
    -------
    DataFrame
        Items × raters of ``value`` (NaN where missing): the layout every agreement coefficient reads.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability, §A (the reliability data matrix).
    """
    return scores.pivot_table(index=item, columns=rater, values=value, aggfunc="first", observed=True, sort=False)


def agreement(
    scores: pd.DataFrame,
    by: str | Sequence[str],
    value: str,
    rater: str = "annotator",
    item: str = "item",
    labels: Sequence | None = None,
    level: str = "interval",
    totals: bool = False,
) -> pd.DataFrame:
    """Agreement of k ≥ 2 raters per group of a tidy (item, rater, value) frame.

    Returns ``by…, n_items, n_raters, alpha, weighted_kappa, pearson_r, exact_agreement,
    presence_agreement`` and, with ``totals=True``, ``total_<rater>`` columns with each
    rater's summed value (the columns of MetaHOPE Tables 1 and 6):

    * α at ``level`` (interval by default) over all raters, missing ratings allowed;
    * quadratic κ (labels: ``labels`` or the values observed in the group) and Pearson r,
      each the mean over rater pairs on the items both rated;
    * exact agreement on the value and on its presence (> 0), in percent of the items
      rated by at least two raters.

    Parameters
    ----------
    scores : DataFrame
        Tidy ratings, one row per (item, rater).
    by : str or sequence of str
        Grouping columns (one result row per group).
    value, rater, item : str
        Column names.
    labels : sequence, optional
        κ's ordered categories (default: the values observed in the group).
    level : str, default "interval"
        α's level of measurement.
    totals : bool, default False
        Add each rater's summed value.

    Returns
    -------
    DataFrame
        One row per group with the coefficients above (α: :func:`krippendorff_alpha`; κ, r: means
        over rater pairs of :func:`weighted_kappa` and :func:`pearson_r`; exact and presence
        agreement in percent).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. University of Pennsylvania.
    Cohen, J. (1968). Psychological Bulletin 70(4), 213–220.

    Examples
    --------
    >>> s = pd.DataFrame({"item": [1, 2, 3, 1, 2, 3], "annotator": list("AAABBB"),
    ...                   "SEGS": [0, 4, 6, 0, 4, 8], "system": "X"})
    >>> print(agreement(s, by="system", value="SEGS").round(3).to_string(index=False))
    system  n_items  n_raters  alpha  weighted_kappa  pearson_r  exact_agreement  presence_agreement
         X        3         2  0.935           0.857      0.982           66.667               100.0

    By hand: α = 1 − D_o/D_e with D_o = 4·2/6 (only item 3 differs, 6 vs 8) and
    D_e = 2·51.33/5; κ on the positions of 0, 4, 6, 8: 1 − (1/3)/(2/3 + 14/9 + 1/9) = 6/7.
    """
    by = [by] if isinstance(by, str) else list(by)
    rows = []
    for key, group in scores.groupby(by, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        wide = rating_matrix(group, value, rater, item)
        stats = _statistics(wide.to_numpy(dtype=float), labels, level)
        row = {**dict(zip(by, key)), **{c: stats[c] for c in COLUMNS}}
        if totals:
            for name in wide.columns:
                row[f"total_{str(name).lower()}"] = float(wide[name].sum())
        rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- bootstrap


def interval_alpha_weighted(data: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Interval Krippendorff's α of an items × raters array (NaN = missing) under each row
    of unit multiplicities ``weights`` (B × items), i.e. for every bootstrap resample at once.

    With m_u values in unit u (units with m_u ≥ 2 only), n = Σ w_u m_u,
    D_o = (1/n) Σ_u w_u · 2 m_u/(m_u − 1) · Σ_i (v_ui − v̄_u)² and
    D_e = 2 Σ (v − v̄)² / (n − 1) over all pairable values; α = 1 − D_o / D_e
    (Krippendorff 2011, interval metric δ² = (v − v')²).

    Parameters
    ----------
    data : numpy.ndarray
        Items × raters, NaN where missing.
    weights : numpy.ndarray
        Unit multiplicities, B × items.

    Returns
    -------
    numpy.ndarray
        Shape (B,): α_b = 1 − D_o / D_e under the multiplicities of resample b.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. University of Pennsylvania.
    """
    data = np.asarray(data, dtype=float)
    w = np.asarray(weights, dtype=float)
    seen = ~np.isnan(data)
    m = seen.sum(axis=1)
    ok = m >= 2
    v = np.where(seen, data, 0.0)[ok]
    m_ok = m[ok].astype(float)
    unit_mean = v.sum(axis=1) / m_ok
    within = (np.where(seen[ok], (v - unit_mean[:, None]) ** 2, 0.0)).sum(axis=1)
    term = 2 * m_ok / (m_ok - 1) * within
    wk = w[:, ok]
    n = wk @ m_ok
    s1, s2 = wk @ v.sum(axis=1), wk @ (v**2).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):  # n = 0: no unit with two values
        ss = s2 - s1**2 / n
        d_o = (wk @ term) / n
        d_e = 2 * ss / (n - 1)
        return np.where(d_e <= 1e-12, np.nan, 1 - d_o / d_e)


def bootstrap_samples(a, b, weights: np.ndarray, labels: Sequence | None = None) -> pd.DataFrame:
    """Two-rater metrics under each row of bootstrap multiplicities (:func:`~helpers.core.statistics.stats.resample`).

    α is interval α; κ uses the positions of the values in ``labels`` (default: the values
    observed in the full sample, kept fixed across resamples). One row per resample.

    Parameters
    ----------
    a, b : array_like
        The two raters' values on the same items.
    weights : numpy.ndarray
        Multiplicities, B × items (:func:`~helpers.core.statistics.stats.resample`).
    labels : sequence, optional
        κ's ordered categories.

    Returns
    -------
    DataFrame
        One row per resample: alpha, weighted_kappa, pearson_r, exact_agreement and
        presence_agreement of the weighted sample.

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, ch. 6 and §13.3.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    w = np.asarray(weights, dtype=float)
    if labels is None:
        labels = np.unique(np.concatenate([a, b]))
    x, y = _positions(a, labels), _positions(b, labels)
    total = w.sum(axis=1)
    ma, mb = w @ a / total, w @ b / total
    va, vb = w @ a**2 / total - ma**2, w @ b**2 / total - mb**2
    cov = w @ (a * b) / total - ma * mb
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where((va <= 1e-12) | (vb <= 1e-12), np.nan, cov / np.sqrt(va * vb))
    return pd.DataFrame(
        {
            "alpha": interval_alpha_weighted(np.column_stack([a, b]), w),
            "weighted_kappa": _weighted_kappa_rows(x, y, w),
            "pearson_r": r,
            "exact_agreement": w @ (a == b).astype(float) / total * 100,
        }
    )


def _two_raters(group: pd.DataFrame, value: str, rater: str, item: str, key) -> pd.DataFrame:
    wide = rating_matrix(group, value, rater, item)
    if wide.shape[1] != 2 or wide.isna().any().any():
        raise ValueError(
            f"the bootstrap takes two raters who rated every item; group {key} has "
            f"{list(wide.columns)} with {int(wide.isna().sum().sum())} missing ratings"
        )
    return wide


def bootstrap_agreement(
    scores: pd.DataFrame,
    by: str | Sequence[str],
    value: str,
    rater: str = "annotator",
    item: str = "item",
    labels: Sequence | None = None,
    n_boot: int = 2000,
    seed: int = 0,
    ci: float = 95.0,
    clusters: str | None = None,
) -> pd.DataFrame:
    """Percentile bootstrap intervals of the two-rater metrics, per group.

    Items are resampled with replacement. Returns tidy ``by…, metric, estimate, ci_low,
    ci_high, n_boot, n_undefined``; ``estimate`` is the full-sample value, and resamples
    where a metric is undefined (e.g. a constant rater for r) are dropped from its interval
    and counted in ``n_undefined``. With ``clusters`` naming a column that groups the items
    (e.g. ``sentence``), ``cluster_ci_low`` and ``cluster_ci_high`` follow: the percentile
    interval when whole clusters are resampled, the one to use when items are nested; then
    ``jackknife_ci_low`` and ``jackknife_ci_high``, the delete-one-cluster jackknife t interval
    (:func:`~helpers.core.statistics.stats.jackknife_t_interval`, G − 1 degrees of freedom), which holds
    with few clusters where the percentile interval is too narrow (cut to the metric's
    range, :data:`BOUNDS`, since it is symmetric).

    Parameters
    ----------
    scores : DataFrame
        Tidy ratings of two raters.
    by : str or sequence of str
        Grouping columns.
    value, rater, item : str
        Column names.
    labels : sequence, optional
        κ's ordered categories.
    n_boot : int, default 2000
        Resamples.
    seed : int, default 0
        Seed of the resamples.
    ci : float, default 95.0
        Coverage in percent.
    clusters : str, optional
        Column grouping the items (cluster bootstrap and jackknife intervals).

    Returns
    -------
    DataFrame
        One row per (group, metric): the estimate and its percentile interval (the (100 − ci)/2
        and 100 − (100 − ci)/2 percentiles of the resampled values).

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §13.3 and Eq. 11.5;
    Cameron, A. C. & Miller, D. L. (2015). A practitioner's guide to cluster-robust inference, §VI.
    """
    by = [by] if isinstance(by, str) else list(by)
    rows = []
    for key, group in scores.groupby(by, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        wide = _two_raters(group, value, rater, item, key)
        a, b = (wide[c].to_numpy(dtype=float) for c in wide.columns)
        samples = bootstrap_samples(a, b, resample(len(a), n_boot, seed), labels)
        nested = jack = None
        if clusters:
            labels_of = group.drop_duplicates(item).set_index(item)[clusters].reindex(wide.index)
            nested = bootstrap_samples(a, b, resample(len(a), n_boot, seed, labels_of), labels)
            jack = bootstrap_samples(a, b, jackknife_weights(labels_of), labels)
        full = agreement(group, by=by, value=value, rater=rater, item=item, labels=labels).iloc[0]
        for metric in samples.columns:
            low, high = percentile_interval(samples[metric], ci)
            row = {
                **dict(zip(by, key)),
                "metric": metric,
                "estimate": full[metric],
                "ci_low": low,
                "ci_high": high,
                "n_boot": n_boot,
                "n_undefined": int(samples[metric].isna().sum()),
            }
            if nested is not None:
                row["cluster_ci_low"], row["cluster_ci_high"] = percentile_interval(nested[metric], ci)
                low, high = jackknife_t_interval(full[metric], jack[metric], ci)
                lo_bound, hi_bound = BOUNDS[metric]
                row["jackknife_ci_low"], row["jackknife_ci_high"] = max(low, lo_bound), min(high, hi_bound)
            rows.append(row)
    return pd.DataFrame(rows)


def bootstrap_difference(
    scores_x: pd.DataFrame,
    scores_y: pd.DataFrame,
    by: str | Sequence[str],
    value: str,
    rater: str = "annotator",
    item: str = "item",
    n_boot: int = 2000,
    seed: int = 0,
    ci: float = 95.0,
    clusters: str | None = None,
) -> pd.DataFrame:
    """Paired bootstrap of ``metric(x) − metric(y)`` for two scorings of the same items.

    Both scorings are resampled with the same multiplicities, so the interval reflects the
    effect of the scoring alone. Returns tidy ``by…, metric, x, y, difference, ci_low,
    ci_high`` (items resampled) and, with ``clusters``, ``cluster_ci_low, cluster_ci_high``
    (whole clusters resampled) and ``jackknife_ci_low, jackknife_ci_high`` (delete-one-cluster
    jackknife t, :func:`~helpers.core.statistics.stats.jackknife_t_interval`: holds with few clusters).
    κ labels are each scoring's observed values, as in :func:`agreement`, so the two κ weigh
    the same disagreement on different rank scales.

    Parameters
    ----------
    scores_x, scores_y : DataFrame
        Two scorings of the same items by the same raters.
    by : str or sequence of str
        Grouping columns.
    value, rater, item : str
        Column names.
    n_boot : int, default 2000
        Resamples.
    seed : int, default 0
        Seed of the resamples.
    ci : float, default 95.0
        Coverage in percent.
    clusters : str, optional
        Column grouping the items.

    Returns
    -------
    DataFrame
        One row per (group, metric): difference = metric(x) − metric(y), with the percentile
        interval of metric_b(x) − metric_b(y) over resamples b drawn alike for both.

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §13.3; Koehn, P. (2004).
    Statistical significance tests for machine translation evaluation. EMNLP (paired bootstrap).
    """
    by = [by] if isinstance(by, str) else list(by)
    groups_y = dict(iter(scores_y.groupby(by, sort=False, observed=True)))
    rows = []
    for key, gx in scores_x.groupby(by, sort=False, observed=True):
        gy = groups_y[key]
        wx, wy = _two_raters(gx, value, rater, item, key), _two_raters(gy, value, rater, item, key)
        if list(wx.index) != list(wy.index):
            raise ValueError(f"group {key}: both scorings need the same items")
        draws = {"": resample(len(wx), n_boot, seed)}
        if clusters:
            labels_of = gx.drop_duplicates(item).set_index(item)[clusters].reindex(wx.index)
            draws["cluster_"] = resample(len(wx), n_boot, seed, labels_of)
        if clusters:
            draws["jackknife_"] = jackknife_weights(labels_of)
        diffs = {}
        for prefix, w in draws.items():
            sx = bootstrap_samples(*(wx[c].to_numpy(dtype=float) for c in wx.columns), w)
            sy = bootstrap_samples(*(wy[c].to_numpy(dtype=float) for c in wy.columns), w)
            diffs[prefix] = sx - sy
        fx = agreement(gx, by=by, value=value, rater=rater, item=item).iloc[0]
        fy = agreement(gy, by=by, value=value, rater=rater, item=item).iloc[0]
        key = key if isinstance(key, tuple) else (key,)
        for metric in diffs[""].columns:
            row = {
                **dict(zip(by, key)),
                "metric": metric,
                "x": fx[metric],
                "y": fy[metric],
                "difference": fx[metric] - fy[metric],
            }
            for prefix, d in diffs.items():
                row[f"{prefix}ci_low"], row[f"{prefix}ci_high"] = (
                    jackknife_t_interval(row["difference"], d[metric], ci)
                    if prefix == "jackknife_"
                    else percentile_interval(d[metric], ci)
                )
            rows.append(row)
    return pd.DataFrame(rows)
