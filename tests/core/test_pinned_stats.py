"""Every statistic of helpers.core.stats pinned to a value obtained independently: by hand, from
printed normal/t tables, by brute force, or with statsmodels/scipy (issue 21: the mutants that
survived the older tests are the cases below)."""

from __future__ import annotations

import itertools
import math
import statistics

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm, t as t_dist
from statsmodels.stats.multitest import multipletests

from helpers.core import stats

Z975, Z80, Z995 = 1.959964, 0.841621, 2.575829  # standard normal quantiles (printed tables)


def brute_force_p(d, clusters=None) -> float:
    """Two-sided sign-flip p by enumerating every sign vector (the definition, no shortcuts)."""
    d = [float(v) for v in d]
    labels = list(range(len(d))) if clusters is None else list(clusters)
    units = list(dict.fromkeys(labels))
    observed = abs(sum(d) / len(d))
    hits = total = 0
    for signs in itertools.product((1, -1), repeat=len(units)):
        s = dict(zip(units, signs))
        total += 1
        hits += abs(sum(s[lab] * v for lab, v in zip(labels, d)) / len(d)) >= observed - 1e-12
    return hits / total


# --------------------------------------------------------------------------- resample


def test_resample_default_seed_is_zero_and_clusters_are_all_drawn_whole():
    assert (stats.resample(6, 50) == stats.resample(6, 50, seed=0)).all()
    c = stats.resample(6, 400, seed=3, clusters=["a", "a", "b", "b", "c", "c"])
    assert (c.sum(axis=1) == 6).all()  # 3 equal clusters of 2: every resample has 6 items
    per_cluster = c[:, [0, 2, 4]]
    assert (per_cluster.sum(axis=1) == 3).all()
    assert all((per_cluster[:, j] > 0).any() for j in range(3))  # every cluster can be drawn
    # each cluster is drawn 3 · 1/3 = 1 time on average
    assert per_cluster.mean(axis=0) == pytest.approx([1, 1, 1], abs=0.15)


def test_resample_refuses_a_wrong_number_of_cluster_labels():
    with pytest.raises(ValueError, match="clusters has 2 labels for 3 items"):
        stats.resample(3, 2, clusters=["a", "b"])
    with pytest.raises(ValueError, match="clusters has 2 labels for 3 items"):
        stats.cluster_robust_se([1, 2, 3], ["a", "b"])


# --------------------------------------------------------------------------- percentile interval


def test_percentile_interval_quantiles_by_hand():
    s = np.arange(101.0)  # the p-th percentile of 0..100 is p (linear interpolation)
    assert stats.percentile_interval(s) == pytest.approx((2.5, 97.5))
    assert stats.percentile_interval(s, 90) == pytest.approx((5.0, 95.0))
    assert stats.percentile_interval(s, 50) == pytest.approx((25.0, 75.0))
    assert stats.percentile_interval([np.nan, 3.0, np.nan]) == (3.0, 3.0)  # one sample left


def test_percentile_interval_of_nothing_is_nan():
    for empty in ([], [np.nan, np.nan]):
        low, high = stats.percentile_interval(empty)
        assert math.isnan(low) and math.isnan(high)


# --------------------------------------------------------------------------- few clusters


def test_cluster_robust_se_two_clusters_by_hand():
    # mean 3, residuals −2, 0 | −1, 3: sums −2, 2; SE = √(2/1 · 8) / 4 = 1
    assert stats.cluster_robust_se([1, 3, 2, 6], ["a", "a", "b", "b"]) == (pytest.approx(1.0), 2)
    # t_{1, .975} = 12.706 (printed t table)
    low, high = stats.cluster_t_interval([1, 3, 2, 6], ["a", "a", "b", "b"])
    assert (low, high) == (pytest.approx(3 - 12.7062, abs=1e-3), pytest.approx(3 + 12.7062, abs=1e-3))
    # (t_{1, .975} + t_{1, .8}) · SE = (12.706 + 1.376) · 1
    assert stats.cluster_mdd_80([1, 3, 2, 6], ["a", "a", "b", "b"]) == pytest.approx(12.7062 + 1.3764, abs=1e-3)


def test_one_cluster_gives_nan_everywhere():
    se, g = stats.cluster_robust_se([1.0, 2.0], ["a", "a"])
    assert math.isnan(se) and g == 1
    assert all(math.isnan(v) for v in stats.cluster_t_interval([1.0, 2.0], ["a", "a"]))
    assert math.isnan(stats.cluster_mdd_80([1.0, 2.0], ["a", "a"]))


def test_jackknife_weights_are_integer_multiplicities():
    w = stats.jackknife_weights(["s1", "s2", "s1"])
    assert w.dtype.kind == "i"
    assert w.tolist() == [[0, 1, 0], [1, 0, 1]]


def test_jackknife_t_interval_two_clusters_by_hand_and_undefined_cases():
    # SE_J = √(1/2 · ((1 − 2)² + (3 − 2)²)) = 1; t_{1, .975} = 12.706
    low, high = stats.jackknife_t_interval(2.0, [1.0, 3.0])
    assert (low, high) == (pytest.approx(2 - 12.7062, abs=1e-3), pytest.approx(2 + 12.7062, abs=1e-3))
    # t_{2, .95} = 2.920 at 90 %
    low, high = stats.jackknife_t_interval(2.0, [1.0, 2.0, 3.0], ci=90)
    assert high - 2 == pytest.approx(2.9200 * math.sqrt(4 / 3), abs=1e-3)
    for est, loo in ((2.0, [1.0, np.nan, 3.0]), (np.nan, [1.0, 2.0]), (2.0, [1.0])):
        assert all(math.isnan(v) for v in stats.jackknife_t_interval(est, loo))


# --------------------------------------------------------------------------- paired tests


@pytest.mark.parametrize("k", [3, 16])
def test_exact_permutation_p_equals_brute_force(k):
    rng = np.random.default_rng(k)
    x, y = rng.integers(0, 5, k), rng.integers(0, 5, k)
    if not np.any(x - y):
        x[0] += 1
    assert stats.paired_permutation_test(x, y) == pytest.approx(brute_force_p(x - y))


def test_sixteen_units_are_enumerated_exactly():
    # 16 positive unit differences: only the two all-equal sign vectors reach the observed mean
    assert stats.paired_permutation_test(np.ones(16), np.zeros(16)) == 2 / 2**16


def test_monte_carlo_p_counts_the_observed_statistic_once():
    # 17 units (> 16: Monte Carlo). No random flip of 17 ones reaches |mean| = 1 except all-equal
    # signs (chance 2/2^17 per draw; none among these seeded draws), so p = (0 + 1)/(n_perm + 1)
    assert stats.paired_permutation_test(np.ones(17), np.zeros(17), n_perm=99) == 1 / 100
    assert stats.paired_permutation_test(np.ones(20), np.zeros(20), n_perm=199) == 1 / 200
    # the default is 10000 draws with seed 0
    d = np.r_[np.ones(12), -np.ones(8)] * np.arange(1, 21)
    assert stats.paired_permutation_test(d, np.zeros(20)) == stats.paired_permutation_test(
        d, np.zeros(20), n_perm=10000, seed=0)


def test_monte_carlo_p_is_one_when_the_mean_difference_is_zero():
    d = np.array([1.0, -1.0] * 10)  # mean 0: every flip is at least as extreme
    assert stats.paired_permutation_test(d, np.zeros(20), n_perm=50) == 1.0


def test_monte_carlo_p_is_close_to_the_exact_binomial_count():
    # 18 differences of ±1 with 14 positive: |mean| ≥ 10/18 when at least 14 or at most 4 signs are +:
    # p = 2 · Σ_{j≥14} C(18, j) / 2^18
    d = np.r_[np.ones(14), -np.ones(4)]
    exact = 2 * sum(math.comb(18, j) for j in range(14, 19)) / 2**18
    assert stats.paired_permutation_test(d, np.zeros(18), n_perm=20000, seed=1) == pytest.approx(exact, abs=0.004)


def test_cluster_permutation_equals_brute_force_over_clusters():
    d = np.array([2.0, 1.0, -1.0, 3.0, 0.5, 2.5])
    clusters = ["a", "a", "b", "b", "c", "c"]
    assert stats.paired_permutation_test(d, np.zeros(6), clusters=clusters) == pytest.approx(
        brute_force_p(d, clusters))


def test_holm_against_statsmodels_including_the_cap_at_one():
    for p in ([0.01, 0.04, 0.03], [0.6, 0.7], [0.2, 0.5, 0.01, 0.4]):
        assert stats.holm(p) == pytest.approx(multipletests(p, method="holm")[1])
    assert stats.holm([0.6, 0.7]).tolist() == [1.0, 1.0]


def test_rank_biserial_by_hand():
    assert stats.rank_biserial([0.5, -1.0]) == pytest.approx((1 - 2) / 3)  # ranks 1, 2
    assert stats.rank_biserial([2.0]) == 1.0
    assert stats.rank_biserial([0, 0]) == 0.0
    assert stats.rank_biserial([0, -0.25, 3, 3]) == pytest.approx((2.5 + 2.5 - 1) / 6)  # zero dropped, ties


def test_mdd_80_from_normal_table():
    assert stats.mdd_80(2.0, 16) == pytest.approx((Z975 + Z80) * 2 / 4, abs=1e-5)
    assert stats.mdd_80(1.0, 2) == pytest.approx((Z975 + Z80) / math.sqrt(2), abs=1e-5)
    assert stats.mdd_80(3.0, 9, alpha=0.01) == pytest.approx(Z995 + Z80, abs=1e-5)
    assert math.isnan(stats.mdd_80(2.0, 1)) and math.isnan(stats.mdd_80(np.nan, 10))


def test_detectable_correlation_from_normal_table():
    assert stats.detectable_correlation(20) == pytest.approx(math.tanh((Z975 + Z80) / math.sqrt(17)), abs=1e-5)
    z90 = 1.281552
    assert stats.detectable_correlation(52, alpha=0.01, power=0.9) == pytest.approx(
        math.tanh((Z995 + z90) / 7), abs=1e-5)
    assert stats.detectable_correlation(4) == pytest.approx(math.tanh(Z975 + Z80), abs=1e-5)
    assert math.isnan(stats.detectable_correlation(3))


# --------------------------------------------------------------------------- compare_pairs, every column


def _frame():
    x = {"A": [3, 5, 4, 6, 2, 5], "B": [1, 4, 4, 3, 2, 1], "C": [2, 2, 5, 1, 3, 0]}
    # groups and items listed out of sorted order: the output keeps the order of appearance
    rows = [{"direction": g, "system": s, "item": f"{g}{9 - i}", "value": v + (g == "ZH"), "sentence": f"s{i // 2}"}
            for g in ("EN", "ZH") for s, vals in x.items() for i, v in enumerate(vals)]
    return pd.DataFrame(rows), x


def test_compare_pairs_every_column_pinned():
    frame, x = _frame()
    frame = pd.concat([frame[frame["direction"] == "ZH"], frame[frame["direction"] == "EN"]])
    alpha, n_boot = 0.1, 300
    out = stats.compare_pairs(frame, "value", by="direction", clusters="sentence", alpha=alpha, n_boot=n_boot,
                              n_perm=500, seed=2)
    assert list(out["direction"]) == ["ZH"] * 3 + ["EN"] * 3
    assert list(zip(out["system_a"], out["system_b"]))[:3] == [("A", "B"), ("A", "C"), ("B", "C")]
    en = out[out["direction"] == "EN"].reset_index(drop=True)
    clusters = ["s0", "s0", "s1", "s1", "s2", "s2"]
    ps = []
    for (_, row), (a, b) in zip(en.iterrows(), [("A", "B"), ("A", "C"), ("B", "C")]):
        d = [p - q for p, q in zip(x[a], x[b])]
        mean, sd = statistics.fmean(d), statistics.stdev(d)
        assert row["n_items"] == 6 and row["n_clusters"] == 3
        assert row["mean_a"] == pytest.approx(statistics.fmean(x[a]))
        assert row["mean_b"] == pytest.approx(statistics.fmean(x[b]))
        assert row["mean_difference"] == pytest.approx(mean)
        assert row["cohen_dz"] == pytest.approx(mean / sd)
        assert row["p_permutation"] == pytest.approx(brute_force_p(d))  # 6 items: exact
        assert row["p_cluster_permutation"] == pytest.approx(brute_force_p(d, clusters))
        assert row["mdd_80"] == pytest.approx(stats.mdd_80(sd, 6, alpha))
        assert row["mdd_80"] == pytest.approx((1.644854 + Z80) * sd / math.sqrt(6), abs=1e-5)
        assert row["mdd_80_adjusted"] == pytest.approx((norm.ppf(1 - alpha / 6) + Z80) * sd / math.sqrt(6))
        boot = stats.resample(6, n_boot, 2) @ np.array(d, dtype=float) / 6
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(tuple(np.percentile(boot, [5, 95])))
        nested = stats.resample(6, n_boot, 2, clusters) @ np.array(d, dtype=float) / 6
        assert (row["cluster_ci_low"], row["cluster_ci_high"]) == pytest.approx(tuple(np.percentile(nested, [5, 95])))
        lo = 100 * alpha / 3 / 2
        assert (row["family_ci_low"], row["family_ci_high"]) == pytest.approx(
            tuple(np.percentile(nested, [lo, 100 - lo])))
        se, _ = stats.cluster_robust_se(d, clusters)
        assert row["cluster_t_ci_high"] - mean == pytest.approx(2.919986 * se, abs=1e-5)  # t_{2, .95}
        assert row["family_t_ci_high"] - mean == pytest.approx(
            t_dist.ppf(1 - alpha / 6, 2) * se)
        assert row["cluster_mdd_80"] == pytest.approx((2.919986 + 1.060660) * se, abs=1e-5)  # t_{2,.95} + t_{2,.8}
        assert row["cluster_mdd_80_adjusted"] == pytest.approx(
            (t_dist.ppf(1 - alpha / 6, 2) + 1.060660) * se, abs=1e-5)
        ps.append(row["p_cluster_permutation"])
    assert list(en["rank_biserial"]) == pytest.approx([
        stats.rank_biserial([p - q for p, q in zip(x[a], x[b])]) for a, b in [("A", "B"), ("A", "C"), ("B", "C")]])
    assert list(en["p_holm"]) == pytest.approx(multipletests(list(en["p_permutation"]), method="holm")[1])
    assert list(en["p_cluster_holm"]) == pytest.approx(multipletests(ps, method="holm")[1])
    assert list(en["verdict"]) == [stats.verdict(p, q, alpha) for p, q in zip(ps, en["p_cluster_holm"])]
    # the ZH group adds 1 to every value: the same differences
    zh = out[out["direction"] == "ZH"].reset_index(drop=True)
    assert list(zh["mean_difference"]) == pytest.approx(list(en["mean_difference"]))
    assert list(zh["mean_a"]) == pytest.approx(list(en["mean_a"] + 1))


def test_compare_pairs_defaults_and_without_groups():
    frame, x = _frame()
    en = frame[frame["direction"] == "EN"]
    out = stats.compare_pairs(en, "value")
    assert list(out.columns) == ["system_a", "system_b", "n_items", "mean_a", "mean_b", "mean_difference", "ci_low",
                                 "ci_high", "cohen_dz", "rank_biserial", "p_permutation", "p_holm", "mdd_80"]
    d = np.subtract(x["A"], x["B"]).astype(float)
    boot = stats.resample(6, 2000, 0) @ d / 6
    assert (out.loc[0, "ci_low"], out.loc[0, "ci_high"]) == pytest.approx(tuple(np.percentile(boot, [2.5, 97.5])))
    assert out.loc[0, "mdd_80"] == pytest.approx((Z975 + Z80) * statistics.stdev(d) / math.sqrt(6), abs=1e-5)
    assert stats.compare_pairs(en, "value", by=["direction"])["direction"].tolist() == ["EN"] * 3


def test_compare_pairs_constant_difference_has_no_effect_size():
    frame = pd.DataFrame({"system": ["A"] * 3 + ["B"] * 3, "item": [1, 2, 3] * 2, "value": [2, 3, 4, 1, 2, 3]})
    row = stats.compare_pairs(frame, "value").iloc[0]
    assert math.isnan(row["cohen_dz"]) and row["mean_difference"] == 1.0 and row["rank_biserial"] == 1.0


def test_compare_pairs_one_pair_many_clusters_monte_carlo():
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 10, 40).astype(float), rng.integers(0, 10, 40).astype(float)
    clusters = [f"s{i // 2}" for i in range(40)]  # 20 clusters: Monte Carlo sign flips
    frame = pd.DataFrame({"system": ["A"] * 40 + ["B"] * 40, "item": list(range(40)) * 2, "value": np.r_[a, b],
                          "sentence": clusters * 2})
    row = stats.compare_pairs(frame, "value", clusters="sentence", n_boot=400, seed=5, alpha=0.1).iloc[0]
    d = a - b
    assert row["p_permutation"] == stats.paired_permutation_test(a, b, n_perm=10000, seed=5)
    assert row["p_cluster_permutation"] == stats.paired_permutation_test(a, b, n_perm=10000, seed=5,
                                                                         clusters=clusters)
    nested = stats.resample(40, 400, 5, clusters) @ d / 40
    assert (row["family_ci_low"], row["family_ci_high"]) == pytest.approx(tuple(np.percentile(nested, [5, 95])))
    sd = statistics.stdev(d)
    assert row["mdd_80_adjusted"] == pytest.approx((1.644854 + Z80) * sd / math.sqrt(40), abs=1e-5)  # m = 1
    se, g = stats.cluster_robust_se(d, clusters)
    assert g == 20
    assert row["cluster_mdd_80_adjusted"] == pytest.approx((t_dist.ppf(0.95, 19) + t_dist.ppf(0.8, 19)) * se)


def test_compare_pairs_two_items_have_a_standard_deviation():
    frame = pd.DataFrame({"system": ["A", "A", "B", "B"], "item": [1, 2, 1, 2], "value": [3.0, 5.0, 1.0, 1.0]})
    row = stats.compare_pairs(frame, "value").iloc[0]
    assert row["cohen_dz"] == pytest.approx(3 / statistics.stdev([2, 4]))  # d = 2, 4
