"""The one Pearson, Kendall, bootstrap interval, Wilson interval and cluster-bootstrap OLS of
helpers.core.statistics (issue 40), against scipy/statsmodels and cases worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau, pearsonr

from helpers.core.statistics import correlation, intervals, regression, resampling


def test_pearson_against_scipy_and_by_hand():
    # x = 1..4, y = (1, 3, 2, 4): Σ dx dy = 4, Σ dx² = Σ dy² = 5 -> r = 0.8
    assert correlation.pearson([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8, abs=1e-15)
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(2, 30))
    assert correlation.pearson(x, y) == pytest.approx(pearsonr(x, y).statistic, abs=1e-14)
    rows_x, rows_y = rng.normal(size=(2, 5, 12))
    assert correlation.pearson_rows(rows_x, rows_y) == pytest.approx(
        [pearsonr(a, b).statistic for a, b in zip(rows_x, rows_y)], abs=1e-14
    )


def test_pearson_edge_cases_constant_short_and_nan():
    assert math.isnan(correlation.pearson([2, 2, 2], [1, 2, 3]))  # constant: the denominator is 0
    assert math.isnan(correlation.pearson([0.1] * 3, [1, 2, 3]))  # constant although the mean has rounding
    assert math.isnan(correlation.pearson([1], [2]))  # fewer than two pairs
    assert correlation.pearson([1, 2], [5, 3]) == -1.0  # two distinct points lie on a line
    assert math.isnan(correlation.pearson([1, np.nan, 3], [1, 2, 3]))
    # one row constant, the other not: NaN only where undefined
    r = correlation.pearson_rows([[1, 2, 3], [4, 4, 4]], [3, 1, 2])
    assert r[0] == pytest.approx(-0.5) and math.isnan(r[1])


def test_kendall_tau_b_against_scipy_and_by_hand_with_ties():
    # x = (1, 2, 2, 3), y = (1, 1, 2, 3): 6 pairs, C = 4, D = 0, one tie in each -> 4 / √(5·5) = 0.8
    assert correlation.kendall_tau_b([1, 2, 2, 3], [1, 1, 2, 3]) == pytest.approx(0.8)
    rng = np.random.default_rng(2)
    for _ in range(5):
        x, y = rng.integers(0, 4, size=(2, 15))
        assert correlation.kendall_tau_b(x, y) == pytest.approx(kendalltau(x, y, variant="b").statistic, abs=1e-12)
    assert math.isnan(correlation.kendall_tau_b([2, 2, 2], [1, 2, 3]))
    assert math.isnan(correlation.kendall_tau_b([1], [1]))
    # a reference against resampled rows, and rows against rows, by the same function
    assert correlation.kendall_tau_rows([1, 2, 3], [[1, 2, 3], [3, 2, 1]]).tolist() == [1.0, -1.0]
    assert correlation.kendall_tau_rows([[1, 2, 3], [1, 2, 3]], [[1, 2, 3], [3, 2, 1]]).tolist() == [1.0, -1.0]


def test_bootstrap_interval_is_the_percentile_interval_of_the_resampled_rows():
    values = np.array([1.0, 5.0, 2.0, 8.0, 3.0])
    low, high = resampling.bootstrap_interval(lambda i: values[i].mean(), 5, 300, seed=4)
    weights = resampling.resample(5, 300, seed=4)
    by_hand = np.percentile([(w * values).sum() / w.sum() for w in weights], [2.5, 97.5])
    assert (low, high) == pytest.approx(tuple(by_hand))
    # clusters: rows 0-1 and 2-4 drawn whole
    clusters = ["a", "a", "b", "b", "b"]
    seen = []
    resampling.bootstrap_interval(lambda i: seen.append(sorted(i.tolist())) or 0.0, 5, 20, seed=0, clusters=clusters)
    assert all(set(s) <= {0, 1, 2, 3, 4} and s.count(0) == s.count(1) and s.count(2) == s.count(4) for s in seen)


def test_wilson_interval_against_statsmodels_and_by_hand():
    from statsmodels.stats.proportion import proportion_confint

    for k, n in ((0, 10), (3, 10), (10, 10), (17, 40)):
        assert intervals.wilson_interval(k, n) == pytest.approx(proportion_confint(k, n, alpha=0.05, method="wilson"))
    # k = 0, n = 10, z = 1.95996: the upper bound z² / (n + z²) = 3.8415 / 13.8415
    assert intervals.wilson_interval(0, 10)[1] == pytest.approx(1.959964**2 / (10 + 1.959964**2), abs=1e-6)
    assert all(math.isnan(v) for v in intervals.wilson_interval(0, 0))


def test_cluster_ols_estimate_is_statsmodels_ols_and_drops_resamples_without_both_groups():
    import statsmodels.api as sm

    rng = np.random.default_rng(3)
    docs = np.repeat(np.arange(8), 5)
    flag = (rng.random(40) < 0.4).astype(float)
    length = rng.normal(size=40)
    y = 1.0 + 0.5 * flag + 0.2 * length + rng.normal(size=40)
    x = np.column_stack([np.ones(40), flag, length])
    estimate, boot = regression.cluster_ols(x, y, docs, flag, 200, seed=0)
    assert estimate == pytest.approx(sm.OLS(y, x).fit().params[1], abs=1e-10)
    # each kept resample is the OLS of the drawn documents, each as often as drawn
    weights = resampling.resample(8, 200, seed=0)
    labels = resampling.cluster_labels(pd.Series(docs))
    first = np.repeat(np.arange(40), weights[0][labels])
    assert boot[0] == pytest.approx(sm.OLS(y[first], x[first]).fit().params[1], abs=1e-6)
    # a flag constant in every document can be constant in a resample: such resamples are dropped
    one_doc = (docs == 0).astype(float)
    _, kept = regression.cluster_ols(np.column_stack([np.ones(40), one_doc]), y, docs, one_doc, 200, seed=0)
    drawn = resampling.resample(8, 200, seed=0)[:, 0]
    assert len(kept) == int(((drawn > 0) & (drawn < 8)).sum())
