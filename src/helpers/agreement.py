"""Inter-annotator agreement on severity scores.

Conventions, chosen because they reproduce the MetaHOPE paper's Tables 1 and 6 exactly
(see notebook 01 for the evidence):

* Krippendorff's α via the ``krippendorff`` package, interval level by default
  (the paper's text says "ordinal", its printed numbers are interval α; both are offered).
* Cohen's κ with quadratic weights (Cohen 1968) on the *positions* of the values in a list
  of category labels, as ``sklearn.metrics.cohen_kappa_score(weights="quadratic")`` does.
  For single categories the labels are the severity scale 0…10; for summed SEGS scores,
  which have no fixed scale, the labels are the values observed by either rater.
* Pearson r, NaN when one rater is constant (the paper prints "NA").
* Exact agreement: percentage of items on which all raters gave the same score.

Input is a tidy frame with one row per (item, rater) and a value column; results are tidy
frames with one row per group.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import krippendorff
import numpy as np
import pandas as pd

METRICS = ("alpha", "weighted_kappa", "pearson_r", "exact_agreement")


def krippendorff_alpha(ratings, level: str = "interval", value_domain: Sequence | None = None) -> float:
    """Krippendorff's α for a (raters × units) array (NaN = missing).

    Returns NaN when fewer than two distinct values occur (α is undefined there; the
    ``krippendorff`` package raises instead).
    """
    data = np.asarray(ratings, dtype=float)
    if np.unique(data[~np.isnan(data)]).size < 2:
        return float("nan")
    kwargs = {"value_domain": list(value_domain)} if value_domain is not None and level != "interval" else {}
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement=level, **kwargs))


def weighted_kappa(a, b, labels: Sequence | None = None) -> float:
    """Quadratic-weighted Cohen's κ between two raters (Cohen 1968).

    κ = 1 − Σ w·O / Σ w·E with w_ij = (i − j)², i, j the positions of the two ratings in
    ``labels`` (default: the sorted values either rater used), O the observed and E the
    chance-expected joint proportions. Returns 0 when both raters are constant and agree
    on every item's value only by construction (E has no weight), as sklearn does.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if labels is None:
        labels = np.unique(np.concatenate([a, b]))
    labels = np.asarray(labels, dtype=float)
    index = {v: i for i, v in enumerate(labels)}
    try:
        x = np.array([index[v] for v in a], dtype=float)
        y = np.array([index[v] for v in b], dtype=float)
    except KeyError as exc:
        raise ValueError(f"rating {exc.args[0]} is not among the labels {labels.tolist()}") from None
    return float(_kappa_from_positions(x[None, :], y[None, :])[0])


def _kappa_from_positions(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Quadratic κ for rows of position arrays (n_samples × n_items), vectorised.

    With quadratic weights Σ w·O = mean((x − y)²) and Σ w·E = var(x) + var(y) + (x̄ − ȳ)²
    (population variances), so κ = 1 − mean((x − y)²) / (var x + var y + (x̄ − ȳ)²).
    """
    observed = ((x - y) ** 2).mean(axis=1)
    expected = x.var(axis=1) + y.var(axis=1) + (x.mean(axis=1) - y.mean(axis=1)) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = 1.0 - observed / expected
    kappa = np.where(expected == 0, 0.0, kappa)
    return np.where(np.abs(kappa) < 1e-12, 0.0, kappa)  # floating-point residue of an exact 0


def pearson_r(a, b) -> float:
    """Pearson correlation; NaN when either rater gave one value to every item."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.std() == 0 or b.std() == 0:
        return float("nan")
    return float(np.corrcoef(a, b)[0, 1])


def exact_agreement(*raters) -> float:
    """Percentage of items on which every rater gave the same value."""
    data = np.vstack([np.asarray(r, dtype=float) for r in raters])
    return float((data == data[0]).all(axis=0).mean() * 100)


def _wide(scores: pd.DataFrame, value: str, rater: str, item: str) -> pd.DataFrame:
    """Items × raters table of ``value``; raises when an item lacks a rater's score."""
    wide = scores.pivot_table(index=item, columns=rater, values=value, aggfunc="first", observed=True, sort=False)
    if wide.isna().any().any():
        missing = wide[wide.isna().any(axis=1)].index[:5].tolist()
        raise ValueError(f"items without a {value!r} from every {rater}: {missing}")
    return wide


def _agreement_of(data: np.ndarray, labels: Sequence | None, level: str) -> dict:
    """All statistics for one items × raters array (NaN = not rated).

    κ and r are means over rater pairs, each pair on the items both rated; exact
    agreements count the items rated by at least two raters.
    """
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
        "exact_presence_agreement": float(np.mean(same_presence) * 100) if same else np.nan,
    }


def agreement_table(
    scores: pd.DataFrame,
    by: str | Sequence[str],
    value: str,
    rater: str = "annotator",
    item: str = "item",
    labels: Sequence | None = None,
    level: str = "interval",
    totals: bool = False,
) -> pd.DataFrame:
    """Agreement per group of a tidy (item, rater, value) frame, every item rated by every rater.

    Returns ``by…, alpha, weighted_kappa, pearson_r, exact_agreement`` (percent) and, with
    ``totals=True``, ``total_<rater>`` columns with each rater's summed value (the columns
    of MetaHOPE Tables 1 and 6). With more than two raters, κ and r are means over rater
    pairs. ``labels`` are the κ categories (default: the values observed in the group);
    ``level`` is α's level of measurement.
    """
    by = [by] if isinstance(by, str) else list(by)
    rows = []
    for key, group in scores.groupby(by, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        wide = _wide(group, value, rater, item)
        stats = _agreement_of(wide.to_numpy(dtype=float), labels, level)
        row = {**dict(zip(by, key)), **{m: stats[m] for m in METRICS}}
        if totals:
            for name in wide.columns:
                row[f"total_{str(name).lower()}"] = float(wide[name].sum())
        rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- bootstrap


def resample_indices(n_items: int, n_boot: int, seed: int) -> np.ndarray:
    """(n_boot × n_items) item indices drawn with replacement.

    They depend only on ``(n_items, n_boot, seed)``, so two analyses of the same items
    (e.g. two weighting schemes) see the same resamples and their difference is paired.
    """
    return np.random.default_rng(seed).integers(0, n_items, size=(n_boot, n_items))


def _interval_alpha_rows(data: np.ndarray) -> np.ndarray:
    """Interval Krippendorff's α for complete data, vectorised over the first axis.

    ``data`` has shape (samples, raters m, units n). With every unit rated by all m raters,
    D_o = (1/N) Σ_u 2m/(m−1) Σ_i (v_ui − v̄_u)² and D_e = 2 Σ (v − v̄)² / (N − 1), N = m·n,
    and α = 1 − D_o / D_e (Krippendorff 2011, "Computing Krippendorff's alpha-reliability").
    """
    m, n = data.shape[1], data.shape[2]
    big_n = m * n
    within = ((data - data.mean(axis=1, keepdims=True)) ** 2).sum(axis=(1, 2))
    d_o = 2 * m / (m - 1) * within / big_n
    flat = data.reshape(data.shape[0], -1)
    d_e = 2 * ((flat - flat.mean(axis=1, keepdims=True)) ** 2).sum(axis=1) / (big_n - 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(d_e == 0, np.nan, 1 - d_o / d_e)


def _pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    xc = x - x.mean(axis=1, keepdims=True)
    yc = y - y.mean(axis=1, keepdims=True)
    den = np.sqrt((xc**2).sum(axis=1) * (yc**2).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den == 0, np.nan, (xc * yc).sum(axis=1) / den)


def bootstrap_samples(
    a, b, n_boot: int = 2000, seed: int = 0, labels: Sequence | None = None
) -> pd.DataFrame:
    """Item-level bootstrap of the two-rater metrics: one row per resample, one column per metric.

    α is interval α; κ uses the positions of the values in ``labels`` (default: the values
    observed in the full sample, kept fixed across resamples).
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    idx = resample_indices(a.size, n_boot, seed)
    xa, xb = a[idx], b[idx]
    if labels is None:
        labels = np.unique(np.concatenate([a, b]))
    pos = {v: i for i, v in enumerate(np.asarray(labels, dtype=float))}
    to_pos = np.vectorize(pos.__getitem__, otypes=[float])
    return pd.DataFrame(
        {
            "alpha": _interval_alpha_rows(np.stack([xa, xb], axis=1)),
            "weighted_kappa": _kappa_from_positions(to_pos(xa), to_pos(xb)),
            "pearson_r": _pearson_rows(xa, xb),
            "exact_agreement": (xa == xb).mean(axis=1) * 100,
        }
    )


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
) -> pd.DataFrame:
    """Percentile bootstrap CIs (items resampled with replacement) for two raters, per group.

    Returns tidy ``by…, metric, estimate, ci_low, ci_high, n_boot``; ``estimate`` is the
    full-sample value. Resamples where a metric is undefined (e.g. a constant rater for r)
    are dropped from that metric's interval and counted in ``n_undefined``.
    """
    by = [by] if isinstance(by, str) else list(by)
    lo, hi = (100 - ci) / 2, 100 - (100 - ci) / 2
    rows = []
    for key, group in scores.groupby(by, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        wide = _wide(group, value, rater, item)
        if wide.shape[1] != 2:
            raise ValueError(f"bootstrap_agreement takes two raters; group {key} has {list(wide.columns)}")
        a, b = (wide[c].to_numpy(dtype=float) for c in wide.columns)
        samples = bootstrap_samples(a, b, n_boot=n_boot, seed=seed, labels=labels)
        full = agreement_table(group, by=by, value=value, rater=rater, item=item, labels=labels).iloc[0]
        for metric in METRICS:
            s = samples[metric].dropna()
            rows.append(
                {**dict(zip(by, key)), "metric": metric, "estimate": full[metric],
                 "ci_low": np.percentile(s, lo) if len(s) else np.nan,
                 "ci_high": np.percentile(s, hi) if len(s) else np.nan,
                 "n_boot": n_boot, "n_undefined": int(samples[metric].isna().sum())}
            )
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
) -> pd.DataFrame:
    """Paired bootstrap of ``metric(x) − metric(y)`` for two scorings of the same items.

    Both scorings are resampled with the same item indices (:func:`resample_indices`),
    so the interval reflects the effect of the scoring alone. Returns tidy
    ``by…, metric, x, y, difference, ci_low, ci_high``; κ labels are each scoring's
    observed values, as in :func:`agreement_table`.
    """
    by = [by] if isinstance(by, str) else list(by)
    lo, hi = (100 - ci) / 2, 100 - (100 - ci) / 2
    groups_y = dict(iter(scores_y.groupby(by, sort=False, observed=True)))
    rows = []
    for key, gx in scores_x.groupby(by, sort=False, observed=True):
        gy = groups_y[key]
        wx, wy = _wide(gx, value, rater, item), _wide(gy, value, rater, item)
        if list(wx.index) != list(wy.index) or wx.shape[1] != 2:
            raise ValueError(f"group {key}: both scorings need the same items and two raters")
        sx = bootstrap_samples(*(wx[c].to_numpy(dtype=float) for c in wx.columns), n_boot=n_boot, seed=seed)
        sy = bootstrap_samples(*(wy[c].to_numpy(dtype=float) for c in wy.columns), n_boot=n_boot, seed=seed)
        fx = agreement_table(gx, by=by, value=value, rater=rater, item=item).iloc[0]
        fy = agreement_table(gy, by=by, value=value, rater=rater, item=item).iloc[0]
        key = key if isinstance(key, tuple) else (key,)
        for metric in METRICS:
            d = (sx[metric] - sy[metric]).dropna()
            rows.append({**dict(zip(by, key)), "metric": metric, "x": fx[metric], "y": fy[metric],
                         "difference": fx[metric] - fy[metric],
                         "ci_low": np.percentile(d, lo) if len(d) else np.nan,
                         "ci_high": np.percentile(d, hi) if len(d) else np.nan})
    return pd.DataFrame(rows)


def severity_bias(paired: pd.DataFrame, x: str, y: str, by: str = "system") -> pd.DataFrame:
    """Does rater ``y`` penalise more than rater ``x``? One row per group.

    ``paired`` has one row per item with a column per rater (e.g.
    :func:`helpers.metahope.paired_segments`). Returns the mean scores, the mean paired
    difference ``y − x``, the share of items each rater scored higher, and a two-sided
    Wilcoxon signed-rank test (pingouin) with its matched-pairs rank-biserial effect size
    (NaN when every difference is zero).
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
        rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- k raters (pilot v2)


def k_rater_agreement(
    scores: pd.DataFrame,
    by: str | Sequence[str],
    value: str,
    rater: str = "annotator",
    item: str = "item",
    labels: Sequence | None = None,
    level: str = "ordinal",
) -> pd.DataFrame:
    """Agreement among any number of raters (k ≥ 2), the columns of MetaHOPE Tables 7–11.

    Returns ``by…, n_items, n_raters, <level>_alpha, mean_weighted_kappa,
    exact_score_agreement, exact_presence_agreement``:

    * α at ``level`` (default ordinal) over all raters, missing ratings allowed;
    * the mean over rater pairs of quadratic-weighted κ, each pair on the items both rated
      (labels: ``labels`` or the values observed in the group);
    * exact score agreement: percent of items (rated by ≥ 2 raters) where every rating is equal;
    * exact presence agreement: the same for "any error" (value > 0) versus none.
    """
    by = [by] if isinstance(by, str) else list(by)
    rows = []
    for key, group in scores.groupby(by, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        wide = group.pivot_table(index=item, columns=rater, values=value, aggfunc="first", observed=True, sort=False)
        stats = _agreement_of(wide.to_numpy(dtype=float), labels, level)
        rows.append({**dict(zip(by, key)), "n_items": stats["n_items"], "n_raters": stats["n_raters"],
                     f"{level}_alpha": stats["alpha"], "mean_weighted_kappa": stats["weighted_kappa"],
                     "exact_score_agreement": stats["exact_agreement"],
                     "exact_presence_agreement": stats["exact_presence_agreement"]})
    return pd.DataFrame(rows)


def icc_table(scores: pd.DataFrame, by: str | Sequence[str], value: str, rater: str = "annotator",
              item: str = "item") -> pd.DataFrame:
    """Two-way random-effects ICCs per group with ``pingouin.intraclass_corr``.

    ICC(2,1) is the reliability of a single rater, ICC(2,k) of the mean of the k raters
    (Shrout & Fleiss 1979). Items not rated by every rater are dropped (pingouin's
    ``nan_policy="omit"``). Returns ``by…, n_items, n_raters, icc2_1, icc2_1_ci_low,
    icc2_1_ci_high, icc2_k, icc2_k_ci_low, icc2_k_ci_high``.
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
        # pingouin names them ICC(A,1)/ICC(A,k) (absolute agreement), older releases ICC2/ICC2k
        ci_col = "CI95" if "CI95" in res.columns else "CI95%"
        for name, kinds in (("icc2_1", ("ICC(A,1)", "ICC2")), ("icc2_k", ("ICC(A,k)", "ICC2k"))):
            kind = next(k for k in kinds if k in res.index)
            row[name] = float(res.loc[kind, "ICC"])
            row[f"{name}_ci_low"], row[f"{name}_ci_high"] = (float(v) for v in res.loc[kind, ci_col])
        rows.append(row)
    return pd.DataFrame(rows)
