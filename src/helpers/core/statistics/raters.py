"""What raters do beyond agreeing: severity bias between two raters, rater bias among k, error-span
agreement, and the intraclass correlations (ICC(1) per item, by cluster, and Shrout and Fleiss'
table). Split from :mod:`~helpers.core.statistics.agreement`, which holds α, κ, r and their
bootstrap.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .stats import jackknife_t_interval, paired_permutation_test


def severity_bias(
    paired: pd.DataFrame,
    x: str,
    y: str,
    by: str = "system",
    clusters: str | None = None,
    n_perm: int = 10000,
    seed: int = 0,
) -> pd.DataFrame:
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
        row = {
            by: key,
            "n_items": len(g),
            f"mean_{x}": g[x].mean(),
            f"mean_{y}": g[y].mean(),
            "mean_difference": d.mean(),
            f"share_{y}_higher": (d > 0).mean() * 100,
            f"share_{x}_higher": (d < 0).mean() * 100,
            "share_equal": (d == 0).mean() * 100,
            "wilcoxon_W": np.nan,
            "p_value": np.nan,
            "rank_biserial": np.nan,
        }
        if (d != 0).any():
            w = pg.wilcoxon(g[y], g[x], alternative="two-sided")
            row.update(
                wilcoxon_W=float(w["W_val"].iloc[0]),
                p_value=float(w["p_val"].iloc[0]),
                rank_biserial=float(w["RBC"].iloc[0]),
            )
        if clusters is not None:
            row["n_clusters"] = int(g[clusters].nunique())
            row["p_cluster_permutation"] = paired_permutation_test(g[y], g[x], n_perm, seed, g[clusters])
        rows.append(row)
    return pd.DataFrame(rows)


def icc_table(
    scores: pd.DataFrame, by: str | Sequence[str], value: str, rater: str = "annotator", item: str = "item"
) -> pd.DataFrame:
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
        res = pg.intraclass_corr(data=data, targets=item, raters=rater, ratings=value, nan_policy="omit").set_index(
            "Type"
        )
        row = {**dict(zip(by, key)), "n_items": int(data[item].nunique()), "n_raters": int(data[rater].nunique())}
        for name, kind in (("icc2_1", "ICC(A,1)"), ("icc2_k", "ICC(A,k)")):  # pingouin 0.7's names
            row[name] = float(res.loc[kind, "ICC"])
            row[f"{name}_ci_low"], row[f"{name}_ci_high"] = (float(v) for v in res.loc[kind, "CI95"])
        rows.append(row)
    return pd.DataFrame(rows)


def rater_bias(
    scores: pd.DataFrame,
    value: str,
    rater: str = "annotator",
    item: str | Sequence[str] = "item",
    clusters: str | None = None,
    ci: float = 95.0,
) -> pd.DataFrame:
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
        rows.append(
            {
                "rater": name,
                "n_items": len(g),
                "n_clusters": int(pd.Series(labels).nunique()),
                "mean_rater": g[value].mean(),
                "mean_others": g["others"].mean(),
                "bias": g["difference"].mean(),
                "ci_low": low,
                "ci_high": high,
            }
        )
    return pd.DataFrame(
        rows, columns=["rater", "n_items", "n_clusters", "mean_rater", "mean_others", "bias", "ci_low", "ci_high"]
    )


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
        out = out.merge(
            counts.rename(f"spans_{side}").rename_axis(item + [me]).reset_index(), how="left", on=item + [me]
        )
        out = out.merge(
            char_counts.rename(f"chars_{side}").rename_axis(item + [me]).reset_index(), how="left", on=item + [me]
        )
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
        rows["characters"] = (
            2
            * (w @ matches["chars_both"].to_numpy(dtype=float))
            / (w @ (matches["chars_a"] + matches["chars_b"]).to_numpy(dtype=float))
        )
    if weights is None:
        return pd.DataFrame({"criterion": list(rows), "agreement": [float(v[0]) for v in rows.values()]})
    return pd.DataFrame(
        [{"criterion": c, "resample": b, "agreement": float(v[b])} for c, v in rows.items() for b in range(w.shape[0])]
    )


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
        rows.append(
            {
                "statistic": name,
                "estimate": full[i],
                "jackknife_ci_low": low,
                "jackknife_ci_high": min(high, 1.0),
                "n_units": len(x),
                "n_clusters": int(labels.max() + 1),
            }
        )
    return pd.DataFrame(rows)
