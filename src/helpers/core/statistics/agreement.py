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
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import krippendorff
import numpy as np
import pandas as pd

from .stats import jackknife_t_interval, jackknife_weights, paired_permutation_test, percentile_interval, resample

#: The statistics of :func:`agreement`, in order.
METRICS = ("alpha", "weighted_kappa", "pearson_r", "exact_agreement", "presence_agreement")
#: The range of each two-rater metric; a symmetric (jackknife t) interval is cut to it.
BOUNDS = {"alpha": (-np.inf, 1.0), "weighted_kappa": (-1.0, 1.0), "pearson_r": (-1.0, 1.0),
          "exact_agreement": (0.0, 100.0), "presence_agreement": (0.0, 100.0)}
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
    return ALPHA_READINGS[0] if alpha >= ALPHA_RELIABLE else ALPHA_READINGS[1] if alpha >= ALPHA_TENTATIVE \
        else ALPHA_READINGS[2]


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


def pearson_r(a, b) -> float:
    """Pearson correlation; NaN when either rater gave one value to every item.

    Parameters
    ----------
    a, b : array_like
        Paired values.

    Returns
    -------
    float
        r = sum (a_i − ā)(b_i − b̄) / sqrt(sum (a_i − ā)² · sum (b_i − b̄)²); NaN when either is constant.

    References
    ----------
    Pearson, K. (1896). Mathematical contributions to the theory of evolution. III. Regression,
    heredity, and panmixia. Philosophical Transactions of the Royal Society A 187, 253–318.

    Examples
    --------
    >>> round(pearson_r([1, 2, 3], [2, 4, 7]), 4), bool(np.isnan(pearson_r([1, 1, 1], [1, 2, 3])))
    (0.9934, True)
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.std() == 0 or b.std() == 0:
        return float("nan")
    return float(np.corrcoef(a, b)[0, 1])


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
            rs.append(pearson_r(data[both, i], data[both, j]))
    rated = data[(~np.isnan(data)).sum(axis=1) >= 2]
    same = [np.unique(r[~np.isnan(r)]).size == 1 for r in rated]
    same_presence = [np.unique(r[~np.isnan(r)] > 0).size == 1 for r in rated]
    return {
        "n_items": len(rated), "n_raters": data.shape[1],
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


def agreement(scores: pd.DataFrame, by: str | Sequence[str], value: str, rater: str = "annotator", item: str = "item",
              labels: Sequence | None = None, level: str = "interval", totals: bool = False) -> pd.DataFrame:
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
    return pd.DataFrame({
        "alpha": interval_alpha_weighted(np.column_stack([a, b]), w),
        "weighted_kappa": _weighted_kappa_rows(x, y, w),
        "pearson_r": r,
        "exact_agreement": w @ (a == b).astype(float) / total * 100,
    })


def _two_raters(group: pd.DataFrame, value: str, rater: str, item: str, key) -> pd.DataFrame:
    wide = rating_matrix(group, value, rater, item)
    if wide.shape[1] != 2 or wide.isna().any().any():
        raise ValueError(f"the bootstrap takes two raters who rated every item; group {key} has "
                         f"{list(wide.columns)} with {int(wide.isna().sum().sum())} missing ratings")
    return wide


def bootstrap_agreement(scores: pd.DataFrame, by: str | Sequence[str], value: str, rater: str = "annotator",
                        item: str = "item", labels: Sequence | None = None, n_boot: int = 2000, seed: int = 0,
                        ci: float = 95.0, clusters: str | None = None) -> pd.DataFrame:
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
            row = {**dict(zip(by, key)), "metric": metric, "estimate": full[metric], "ci_low": low, "ci_high": high,
                   "n_boot": n_boot, "n_undefined": int(samples[metric].isna().sum())}
            if nested is not None:
                row["cluster_ci_low"], row["cluster_ci_high"] = percentile_interval(nested[metric], ci)
                low, high = jackknife_t_interval(full[metric], jack[metric], ci)
                lo_bound, hi_bound = BOUNDS[metric]
                row["jackknife_ci_low"], row["jackknife_ci_high"] = max(low, lo_bound), min(high, hi_bound)
            rows.append(row)
    return pd.DataFrame(rows)


def bootstrap_difference(scores_x: pd.DataFrame, scores_y: pd.DataFrame, by: str | Sequence[str], value: str,
                         rater: str = "annotator", item: str = "item", n_boot: int = 2000, seed: int = 0,
                         ci: float = 95.0, clusters: str | None = None) -> pd.DataFrame:
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
            row = {**dict(zip(by, key)), "metric": metric, "x": fx[metric], "y": fy[metric],
                   "difference": fx[metric] - fy[metric]}
            for prefix, d in diffs.items():
                row[f"{prefix}ci_low"], row[f"{prefix}ci_high"] = (
                    jackknife_t_interval(row["difference"], d[metric], ci) if prefix == "jackknife_"
                    else percentile_interval(d[metric], ci))
            rows.append(row)
    return pd.DataFrame(rows)


def severity_bias(paired: pd.DataFrame, x: str, y: str, by: str = "system", clusters: str | None = None,
                  n_perm: int = 10000, seed: int = 0) -> pd.DataFrame:
    """Does rater ``y`` score higher than rater ``x``? One row per group.

    ``paired`` has one row per item with a column per rater. Returns the mean scores, the
    mean paired difference ``y − x``, the share of items each rater scored higher, and a
    two-sided Wilcoxon signed-rank test (pingouin) with its matched-pairs rank-biserial
    effect size (NaN when every difference is zero). The Wilcoxon test takes the items as
    independent; with ``clusters`` (a column such as ``sentence``) ``n_clusters`` and
    ``p_cluster_permutation`` follow: the sign-flip test of the mean difference with whole
    clusters flipped (:func:`~helpers.core.statistics.stats.paired_permutation_test`), the test to read
    when items are nested.

    Parameters
    ----------
    paired : DataFrame
        One row per item with a column per rater.
    x, y : str
        The two raters' columns.
    by : str, default "system"
        Grouping column.
    clusters : str, optional
        Column grouping the items (cluster sign-flip test).
    n_perm : int, default 10000
        Monte Carlo permutations.
    seed : int, default 0
        Seed of the permutations.

    Returns
    -------
    DataFrame
        One row per group: mean_difference = mean(y − x), the Wilcoxon signed-rank p-value,
        r_rb = (R+ − R−) / (R+ + R−) and, with clusters, the cluster sign-flip p-value.

    References
    ----------
    Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin 1(6), 80–83;
    Kerby, D. S. (2014). Comprehensive Psychology 3 (rank-biserial r).
    """
    import pingouin as pg

    rows = []
    for key, g in paired.groupby(by, sort=False):
        d = g[y] - g[x]
        row = {by: key, "n_items": len(g), f"mean_{x}": g[x].mean(), f"mean_{y}": g[y].mean(),
               "mean_difference": d.mean(), f"share_{y}_higher": (d > 0).mean() * 100,
               f"share_{x}_higher": (d < 0).mean() * 100, "share_equal": (d == 0).mean() * 100,
               "wilcoxon_W": np.nan, "p_value": np.nan, "rank_biserial": np.nan}
        if (d != 0).any():
            w = pg.wilcoxon(g[y], g[x], alternative="two-sided")
            row.update(wilcoxon_W=float(w["W_val"].iloc[0]), p_value=float(w["p_val"].iloc[0]),
                       rank_biserial=float(w["RBC"].iloc[0]))
        if clusters is not None:
            row["n_clusters"] = int(g[clusters].nunique())
            row["p_cluster_permutation"] = paired_permutation_test(g[y], g[x], n_perm, seed, g[clusters])
        rows.append(row)
    return pd.DataFrame(rows)


def icc_table(scores: pd.DataFrame, by: str | Sequence[str], value: str, rater: str = "annotator",
              item: str = "item") -> pd.DataFrame:
    """Two-way random-effects, absolute-agreement ICCs per group (``pingouin.intraclass_corr``).

    ICC(2,1) (McGraw & Wong's ICC(A,1)) is the reliability of a single rater, ICC(2,k)
    (ICC(A,k)) of the mean of the k raters (Shrout & Fleiss 1979). Items not rated by
    every rater are dropped. Returns ``by…, n_items, n_raters, icc2_1, icc2_1_ci_low,
    icc2_1_ci_high, icc2_k, icc2_k_ci_low, icc2_k_ci_high``.

    Parameters
    ----------
    scores : DataFrame
        Tidy ratings.
    by : str or sequence of str
        Grouping columns.
    value, rater, item : str
        Column names.

    Returns
    -------
    DataFrame
        One row per group: ICC(2,1) = (MSR − MSE) / (MSR + (k − 1) MSE + k (MSC − MSE) / n) and
        ICC(2,k) = (MSR − MSE) / (MSR + (MSC − MSE) / n), MSR, MSC, MSE the row (item), column
        (rater) and error mean squares, with their 95 % intervals.

    References
    ----------
    Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater
    reliability. Psychological Bulletin 86(2), 420–428.
    McGraw, K. O. & Wong, S. P. (1996). Forming inferences about some intraclass correlation
    coefficients. Psychological Methods 1(1), 30–46.
    """
    import pingouin as pg

    by = [by] if isinstance(by, str) else list(by)
    rows = []
    for key, group in scores.groupby(by, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        data = group[[item, rater, value]].copy()
        data[value] = data[value].astype(float)
        res = pg.intraclass_corr(data=data, targets=item, raters=rater, ratings=value, nan_policy="omit"
                                 ).set_index("Type")
        row = {**dict(zip(by, key)), "n_items": int(data[item].nunique()), "n_raters": int(data[rater].nunique())}
        for name, kind in (("icc2_1", "ICC(A,1)"), ("icc2_k", "ICC(A,k)")):  # pingouin 0.7's names
            row[name] = float(res.loc[kind, "ICC"])
            row[f"{name}_ci_low"], row[f"{name}_ci_high"] = (float(v) for v in res.loc[kind, "CI95"])
        rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- k raters: bias and spans


def rater_bias(scores: pd.DataFrame, value: str, rater: str = "annotator", item: str | Sequence[str] = "item",
               clusters: str | None = None, ci: float = 95.0) -> pd.DataFrame:
    """How much higher each rater scores than the other raters of the same items.

    For every item a rater rated together with at least one other rater, the rater's
    ``value`` minus the mean of the others' on that item; a rater's ``bias`` is the mean of
    these differences (0: scores like the rest of the panel). The interval is
    :func:`~helpers.core.statistics.stats.cluster_t_interval` over the items, with ``clusters`` (e.g.
    the document: items of a document are not independent) as its clusters, else over items
    as their own clusters; it holds with few clusters (t with G − 1 degrees of freedom).
    Returns ``rater, n_items, n_clusters, mean_rater, mean_others, bias, ci_low, ci_high``.

    Parameters
    ----------
    scores : DataFrame
        Tidy ratings.
    value, rater : str
        Column names.
    item : str or sequence of str, default "item"
        The column(s) naming an item.
    clusters : str, optional
        Column grouping the items (e.g. the document).
    ci : float, default 95.0
        Coverage in percent.

    Returns
    -------
    DataFrame
        One row per rater: bias = mean over items i of (v_ri − mean_{r' ≠ r} v_r'i), with its
        cluster t interval.

    References
    ----------
    Cameron, A. C. & Miller, D. L. (2015). A practitioner's guide to cluster-robust inference,
    §VI.C (t with G − 1 degrees of freedom); Freitag, M. et al. (2021). Experts, errors, and context.
    TACL 9 (rater behaviour in MQM).

    Examples
    --------
    >>> s = pd.DataFrame({"item": [1, 1, 2, 2], "annotator": list("ABAB"), "v": [3, 1, 5, 1]})
    >>> rater_bias(s, "v")[["rater", "bias"]].values.tolist()
    [['A', 3.0], ['B', -3.0]]
    """
    from .stats import cluster_t_interval

    items = [item] if isinstance(item, str) else list(item)
    data = scores[items + [rater, value] + ([clusters] if clusters and clusters not in items else [])].copy()
    data[value] = data[value].astype(float)
    grouped = data.groupby(items, sort=False, observed=True)[value]
    total, count = grouped.transform("sum"), grouped.transform("count")
    data = data[count >= 2]
    others = (total - data[value])[count >= 2] / (count[count >= 2] - 1)
    data = data.assign(others=others, difference=data[value] - others)
    rows = []
    for name, g in data.groupby(rater, sort=True, observed=True):
        labels = g[clusters].to_numpy() if clusters else np.arange(len(g))
        low, high = cluster_t_interval(g["difference"].to_numpy(), labels, ci)
        rows.append({"rater": name, "n_items": len(g), "n_clusters": int(pd.Series(labels).nunique()),
                     "mean_rater": g[value].mean(), "mean_others": g["others"].mean(),
                     "bias": g["difference"].mean(), "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows, columns=["rater", "n_items", "n_clusters", "mean_rater", "mean_others", "bias",
                                       "ci_low", "ci_high"])


#: Criteria of :func:`span_matches`, from loosest to strictest.
SPAN_CRITERIA = ("overlap", "overlap+category", "overlap+category+severity")


def span_matches(spans: pd.DataFrame, rated: pd.DataFrame, item: Sequence[str], rater: str = "rater") -> pd.DataFrame:
    """Span agreement counts for every pair of raters of every item both rated.

    ``spans`` has one row per marked error span: the ``item`` columns (those that name one
    judged item, e.g. system, document and segment), ``rater``, ``side``
    (e.g. source or target), ``start``, ``end`` (character offsets, end exclusive),
    ``category`` and ``severity``; ``rated`` lists the (item, rater) ratings, so that a rater
    who marked nothing in an item still counts (with no spans). A span of rater a is
    *matched* by rater b when b marked a span on the same side that shares at least one
    character with it (criterion ``overlap``), and in addition has the same category
    (``overlap+category``) and severity (``overlap+category+severity``), :data:`SPAN_CRITERIA`.

    Returns one row per (item, rater_a, rater_b), rater_a < rater_b: ``spans_a, spans_b``,
    ``matched_a_<criterion>, matched_b_<criterion>`` and the characters each marked
    (``chars_a, chars_b``, a character counted once however many of a rater's spans cover it)
    and both marked (``chars_both``). :func:`span_agreement` sums them.

    Parameters
    ----------
    spans : DataFrame
        One row per marked error span.
    rated : DataFrame
        The (item, rater) ratings, including those without spans.
    item : sequence of str
        Columns naming one judged item.
    rater : str, default "rater"
        Column naming the rater.

    Returns
    -------
    DataFrame
        One row per (item, rater_a, rater_b): the span counts, the matched counts per criterion
        and the marked characters of each rater and of both.

    References
    ----------
    Freitag, M. et al. (2021). Experts, errors, and context: a large-scale study of human evaluation
    for machine translation. TACL 9; Kocmi, T. et al. (2024). Error span annotation: a balanced
    approach for human evaluation of machine translation. WMT.
    """
    item = list(item)
    r = rated[item + [rater]].drop_duplicates()
    pairs = r.merge(r, on=item, suffixes=("_a", "_b"))
    pairs = pairs[pairs[f"{rater}_a"].astype(str) < pairs[f"{rater}_b"].astype(str)].reset_index(drop=True)
    s = spans[item + [rater, "side", "start", "end", "category", "severity"]].reset_index(drop=True)
    s = s.assign(span=np.arange(len(s)), start=s["start"].astype(int), end=s["end"].astype(int))
    own = item + [rater]
    cross = s.merge(s, on=item + ["side"], suffixes=("", "_o"))
    cross = cross[cross[rater] != cross[f"{rater}_o"]]
    hit = ((cross["start"] < cross["end_o"]) & (cross["start_o"] < cross["end"])).to_numpy()
    same_cat = (cross["category"] == cross["category_o"]).to_numpy()
    same_sev = (cross["severity"] == cross["severity_o"]).to_numpy()
    tests = dict(zip(SPAN_CRITERIA, (hit, hit & same_cat, hit & same_cat & same_sev)))
    counts = s.groupby(own, observed=True).size().rename("spans")
    matched = []
    for name, ok in tests.items():
        m = cross[ok].drop_duplicates(["span", f"{rater}_o"]).groupby(own + [f"{rater}_o"], observed=True).size()
        matched.append(m.rename(name))
    matched = pd.concat(matched, axis=1).fillna(0) if matched else pd.DataFrame()
    chars = _span_characters(s, own)
    char_counts = chars.groupby(own, observed=True).size().rename("chars")
    both = chars.merge(chars, on=item + ["side", "pos"], suffixes=("_a", "_b"))
    both = both.groupby(item + [f"{rater}_a", f"{rater}_b"], observed=True).size().rename("chars_both")
    out = pairs
    for side in ("a", "b"):
        me = f"{rater}_{side}"
        other = f"{rater}_{'b' if side == 'a' else 'a'}"
        out = out.merge(counts.rename(f"spans_{side}").rename_axis(item + [me]).reset_index(), how="left",
                        on=item + [me])
        out = out.merge(char_counts.rename(f"chars_{side}").rename_axis(item + [me]).reset_index(), how="left",
                        on=item + [me])
        if len(matched):
            mm = matched.rename(columns={c: f"matched_{side}_{c}" for c in matched.columns})
            mm = mm.rename_axis(item + [me, other]).reset_index()
            out = out.merge(mm, how="left", on=item + [me, other])
    out = out.merge(both.reset_index(), how="left", on=item + [f"{rater}_a", f"{rater}_b"])
    for col in [c for c in out.columns if c.startswith(("spans_", "chars_", "matched_"))]:
        out[col] = out[col].fillna(0).astype(int)
    for side in ("a", "b"):
        for c in SPAN_CRITERIA:
            out[f"matched_{side}_{c}"] = out.get(f"matched_{side}_{c}", 0)
    return out.rename(columns={f"{rater}_a": "rater_a", f"{rater}_b": "rater_b"})


def _span_characters(s: pd.DataFrame, own: list[str]) -> pd.DataFrame:
    """One row per (item, rater, side, character position) marked by any of the rater's spans."""
    length = (s["end"] - s["start"]).clip(lower=0).to_numpy()
    idx = np.repeat(np.arange(len(s)), length)
    offset = np.arange(length.sum()) - np.repeat(np.cumsum(length) - length, length)
    chars = s.iloc[idx][own + ["side"]].reset_index(drop=True)
    chars["pos"] = s["start"].to_numpy()[idx] + offset
    return chars.drop_duplicates()


def span_agreement(matches: pd.DataFrame, weights: np.ndarray | None = None) -> pd.DataFrame:
    """Span agreement pooled over the rows of :func:`span_matches` (optionally under resample
    multiplicities ``weights``, B × rows, which gives B values per criterion).

    Per criterion of :data:`SPAN_CRITERIA` the *span F1*: (spans of a matched by b + spans of
    b matched by a) / (spans of a + spans of b), the harmonic mean of the two raters'
    precision and recall when pooled; and ``characters`` the Dice overlap of the marked
    characters, 2 · both / (a + b). Returns ``criterion, agreement`` (one row per criterion,
    or ``criterion, resample, agreement`` with ``weights``).

    Parameters
    ----------
    matches : DataFrame
        Rows of :func:`span_matches`.
    weights : numpy.ndarray, optional
        Multiplicities, B × rows.

    Returns
    -------
    DataFrame
        Per criterion F1 = (m_a + m_b) / (n_a + n_b), m the matched and n the marked spans of each
        rater, and characters = 2 · both / (a + b) (Dice).

    References
    ----------
    Dice, L. R. (1945). Measures of the amount of ecologic association between species. Ecology
    26(3), 297–302; Kocmi, T. et al. (2024). Error span annotation. WMT.

    Examples
    --------
    >>> m = pd.DataFrame({"spans_a": [2], "spans_b": [1], "chars_a": [10], "chars_b": [5], "chars_both": [5],
    ...                   **{f"matched_{s}_{c}": [1] for s in "ab" for c in SPAN_CRITERIA}})
    >>> span_agreement(m).round(3).values.tolist()  # (1 + 1) / 3 and 2 · 5 / 15
    [['overlap', 0.667], ['overlap+category', 0.667], ['overlap+category+severity', 0.667], ['characters', 0.667]]
    """
    w = np.ones((1, len(matches))) if weights is None else np.asarray(weights, dtype=float)
    total = w @ (matches["spans_a"] + matches["spans_b"]).to_numpy(dtype=float)
    rows = {}
    with np.errstate(invalid="ignore", divide="ignore"):
        for c in SPAN_CRITERIA:
            rows[c] = w @ (matches[f"matched_a_{c}"] + matches[f"matched_b_{c}"]).to_numpy(dtype=float) / total
        rows["characters"] = 2 * (w @ matches["chars_both"].to_numpy(dtype=float)) / (
            w @ (matches["chars_a"] + matches["chars_b"]).to_numpy(dtype=float))
    if weights is None:
        return pd.DataFrame({"criterion": list(rows), "agreement": [float(v[0]) for v in rows.values()]})
    return pd.DataFrame([{"criterion": c, "resample": b, "agreement": float(v[b])} for c, v in rows.items()
                         for b in range(w.shape[0])])


def oneway_icc(data) -> tuple[float, float]:
    """One-way random-effects ICC(1,1) and ICC(1,k) of a complete units × k array (each unit
    rated by its own k raters): with MSB and MSW the between- and within-unit mean squares,
    ICC(1,1) = (MSB − MSW) / (MSB + (k − 1) MSW) and ICC(1,k) = (MSB − MSW) / MSB
    (Shrout & Fleiss 1979, Table 1, Case 1; pingouin's ICC(1,1) and ICC(1,k)).

    Parameters
    ----------
    data : array_like
        Units × k, complete.

    Returns
    -------
    tuple of float
        (ICC(1,1), ICC(1,k)) as above.

    References
    ----------
    Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater
    reliability. Psychological Bulletin 86(2), 420–428.

    Examples
    --------
    >>> [round(v, 4) for v in oneway_icc([[1, 2], [3, 5], [6, 6]])]  # MSB 61/6, MSW 5/6: 56/66 and 56/61
    [0.8485, 0.918]
    """
    x = np.asarray(data, dtype=float)
    n, k = x.shape
    if n < 2 or k < 2:
        return float("nan"), float("nan")
    means = x.mean(axis=1)
    msb = k * ((means - x.mean()) ** 2).sum() / (n - 1)
    msw = ((x - means[:, None]) ** 2).sum() / (n * (k - 1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return float((msb - msw) / (msb + (k - 1) * msw)), float((msb - msw) / msb)


def oneway_icc_by_cluster(data, clusters: Sequence, ci: float = 95.0) -> pd.DataFrame:
    """:func:`oneway_icc` with delete-one-cluster jackknife t intervals
    (:func:`~helpers.core.statistics.stats.jackknife_t_interval`, G − 1 degrees of freedom), the interval
    that holds when units are nested in few clusters (segments in documents). Returns
    ``statistic, estimate, jackknife_ci_low, jackknife_ci_high, n_units, n_clusters``.

    Parameters
    ----------
    data : array_like
        Units × k, complete.
    clusters : sequence
        One cluster label per unit.
    ci : float, default 95.0
        Coverage in percent.

    Returns
    -------
    DataFrame
        One row per statistic (ICC(1,1), ICC(1,k)): the estimate and θ̂ ∓ t_{G−1} · SE_J, SE_J the
        delete-one-cluster jackknife standard error.

    References
    ----------
    Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater
    reliability. Psychological Bulletin 86(2), 420–428.
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, Eq. 11.5.
    """
    x = np.asarray(data, dtype=float)
    labels = pd.factorize(pd.Series(list(clusters), dtype=object))[0]
    full = oneway_icc(x)
    loo = np.array([oneway_icc(x[labels != g]) for g in range(labels.max() + 1)])
    rows = []
    for i, name in enumerate(("ICC(1,1)", "ICC(1,k)")):
        low, high = jackknife_t_interval(full[i], loo[:, i], ci)
        rows.append({"statistic": name, "estimate": full[i], "jackknife_ci_low": low,
                     "jackknife_ci_high": min(high, 1.0), "n_units": len(x), "n_clusters": int(labels.max() + 1)})
    return pd.DataFrame(rows)
