"""Rater bias from a model with a term per rated unit and per rater (chapter 08, section 3).

A rater's raw bias (:func:`helpers.core.statistics.raters.rater_bias`: the rater's penalty minus the
mean of their co-raters on the same segment) depends on who the co-raters were: a rater who
shares most segments with a very severe colleague looks lenient even when they score like the
rest. :func:`rater_effects` removes that confound by fitting every rating at once,
penalty = unit + rater + error, so each rater's term is measured against all raters on the
segments each rated.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

#: Columns of :func:`rater_effects` (``rater_effects.csv``).
COLUMNS = ["rater", "n_items", "n_clusters", "bias", "se", "ci_low", "ci_high"]


def rater_effects(
    scores: pd.DataFrame,
    value: str = "penalty",
    rater: str = "rater",
    item: str | Sequence[str] = ("system", "doc", "doc_seg_id"),
    clusters: str = "doc",
    ci: float = 95.0,
) -> pd.DataFrame:
    """Each rater's bias as the rater's term of a two-way fixed-effects model, with a cluster-robust interval.

    The model is value_ri = u_i + b_r + e_ri over the ratings of the items (units) rated by two
    or more raters, with one term u_i per item and one b_r per rater under the sum-to-zero
    constraint Σ_r b_r = 0, so b_r is how much more (positive: severe) or less (negative:
    lenient) rater r scores than the average rater on the same item. It is fitted by ordinary
    least squares (statsmodels) after subtracting each item's mean from the value and from the
    rater contrasts (the within transformation: by the Frisch–Waugh–Lovell theorem the same b_r
    as the regression with a dummy per item). The standard errors are cluster-robust with
    ``clusters`` (the document) as clusters and the G/(G − 1) correction (items nested in
    clusters, so the item terms cost no degrees of freedom), and the interval is b_r ± t_{G−1} · SE.

    Parameters
    ----------
    scores : DataFrame
        One row per rating (:func:`helpers.core.statistics.scoring.rater_scores`).
    value, rater : str
        The rated value and the rater column.
    item : str or sequence of str
        The column(s) naming an item (a unit: system and segment).
    clusters : str
        The column grouping items (the document).
    ci : float, default 95.0
        Coverage of the interval in percent.

    Returns
    -------
    DataFrame
        :data:`COLUMNS`, one row per rater (sorted by name): the items the rater shares with
        another rater, their clusters, ``bias`` = b_r, its ``se`` and interval. Empty (with
        these columns) when fewer than two raters share an item.

    References
    ----------
    Wooldridge, J. M. (2010). Econometric Analysis of Cross Section and Panel Data, 2nd ed., §10.5
    (the within estimator). Cameron, A. C. & Miller, D. L. (2015). A practitioner's guide to
    cluster-robust inference, J. Human Resources 50(2), §III.B and §VI.C (fixed effects nested in
    clusters; t with G − 1 degrees of freedom). Freitag, M. et al. (2021). Experts, errors, and
    context. TACL 9 (rater behaviour in MQM).

    Examples
    --------
    >>> s = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "doc": ["a", "a", "b", "b", "c", "c"],
    ...                   "rater": list("ABABAC"), "v": [3, 1, 5, 1, 4, 4]})
    >>> rater_effects(s, "v", item="item")[["rater", "bias"]].round(3).values.tolist()  # b_A − b_B = 3, b_A = b_C
    [['A', 1.0], ['B', -2.0], ['C', 1.0]]
    """
    import statsmodels.api as sm
    from scipy.stats import t as student_t

    items = [item] if isinstance(item, str) else list(item)
    data = scores[items + [rater, value] + ([clusters] if clusters not in items else [])].dropna(subset=[value])
    unit = data.groupby(items, sort=False, observed=True).ngroup()
    shared = unit.map(unit.value_counts()) >= 2
    data, unit = data[shared], unit[shared]
    raters = sorted(data[rater].astype(str).unique())
    if len(raters) < 2:
        return pd.DataFrame(columns=COLUMNS)
    dummies = pd.get_dummies(data[rater].astype(str)).reindex(columns=raters, fill_value=0).astype(float)
    contrasts = dummies[raters[:-1]].sub(dummies[raters[-1]], axis=0)  # sum-to-zero coding
    y = data[value].astype(float)
    y_within = y - y.groupby(unit).transform("mean")
    x_within = contrasts - contrasts.groupby(unit).transform("mean")
    groups = pd.factorize(data[clusters])[0]
    g = int(groups.max()) + 1
    fit = sm.OLS(y_within.to_numpy(), x_within.to_numpy()).fit(
        cov_type="cluster", cov_kwds={"groups": groups, "use_correction": False}
    )
    to_raters = np.vstack([np.eye(len(raters) - 1), -np.ones(len(raters) - 1)])  # b_last = −Σ the others
    bias = to_raters @ fit.params
    cov = to_raters @ fit.cov_params() @ to_raters.T * g / max(g - 1, 1)
    se = np.sqrt(np.diag(cov))
    half = student_t.ppf(1 - (1 - ci / 100) / 2, g - 1) * se if g > 1 else np.full(len(raters), np.nan)
    rows = []
    for k, name in enumerate(raters):
        mine = (data[rater].astype(str) == name).to_numpy()
        rows.append(
            {
                "rater": name,
                "n_items": int(mine.sum()),
                "n_clusters": int(pd.Series(groups[mine]).nunique()),
                "bias": float(bias[k]),
                "se": float(se[k]),
                "ci_low": float(bias[k] - half[k]),
                "ci_high": float(bias[k] + half[k]),
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)
