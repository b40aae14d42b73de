"""Unit tests of helpers.core.statistics.stats: paired system comparison (permutation test, Holm correction,
effect sizes), resampling and cluster bootstraps, approximate randomisation, significance clusters
and rank stability; the pinned cases (issue 21) worked out by hand or against scipy/pingouin."""

from __future__ import annotations

import itertools
import math
import statistics
from itertools import product

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau, norm, ttest_rel
from scipy.stats import t as t_dist
from statsmodels.stats.multitest import multipletests

from helpers.core.statistics import correlation, stats


def test_exact_permutation_by_hand():
    # d = (1, 2, 3): of the 8 sign patterns only (+,+,+) and (-,-,-) reach |mean| = 2 -> p = 2/8
    assert stats.paired_permutation_test([1, 2, 3], [0, 0, 0]) == pytest.approx(0.25)
    assert stats.paired_permutation_test([1, 1], [1, 1]) == 1.0


def test_monte_carlo_permutation_is_seeded_and_close_to_exact():
    rng = np.random.default_rng(0)
    x, y = rng.normal(1, 1, 20), rng.normal(0, 1, 20)
    p1 = stats.paired_permutation_test(x, y, n_perm=4000, seed=1)
    assert p1 == stats.paired_permutation_test(x, y, n_perm=4000, seed=1)
    assert 0 < p1 < 0.05


def test_holm_by_hand():
    # sorted 0.01, 0.03, 0.04 -> 0.03, 0.06, max(0.06, 0.04) = 0.06
    assert stats.holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])


def test_rank_biserial_by_hand():
    # d = (+1, +2, -3, 0): ranks of |d| without zeros 1, 2, 3 -> (1 + 2 - 3) / 6 = 0
    assert stats.rank_biserial(np.array([1.0, 2, -3, 0])) == pytest.approx(0.0)
    assert stats.rank_biserial(np.array([1.0, 2, 3])) == pytest.approx(1.0)


def test_compare_systems_table():
    scores = pd.DataFrame(
        {
            "item": list(range(6)) * 3,
            "system": ["a"] * 6 + ["b"] * 6 + ["c"] * 6,
            "SEGS": [0, 2, 4, 0, 2, 6] + [0, 2, 4, 0, 2, 6] + [4, 6, 8, 4, 6, 10],
        }
    )
    out = stats.compare_pairs(scores, value="SEGS", n_perm=2000, n_boot=500, seed=0).set_index(["system_a", "system_b"])
    assert list(out.index) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert out.loc[("a", "b"), "mean_difference"] == 0 and out.loc[("a", "b"), "p_permutation"] == 1.0
    assert out.loc[("a", "c"), "mean_difference"] == -4
    # six equal differences: exact test gives 2/64 for a constant shift
    assert out.loc[("a", "c"), "p_permutation"] == pytest.approx(2 / 64)
    assert (out["p_holm"] >= out["p_permutation"]).all()


def test_resample_multiplicities_match_index_draws():
    w = stats.resample(7, 30, seed=4)
    idx = np.random.default_rng(4).integers(0, 7, size=(30, 7))
    assert (w == np.array([np.bincount(row, minlength=7) for row in idx])).all()


def test_cluster_bootstrap_keeps_clusters_whole_and_widens_the_interval():
    """Metaphors nested in sentences: items of one sentence move together. With a strong
    sentence effect the cluster interval of a mean is wider than the item interval."""
    clusters = np.repeat(np.arange(8), 4)  # 8 sentences x 4 metaphors
    w = stats.resample(32, 500, seed=1, clusters=clusters)
    assert (w.reshape(500, 8, 4) == w.reshape(500, 8, 4)[:, :, :1]).all()
    assert (w.sum(axis=1) % 4 == 0).all()
    values = np.repeat(np.array([0, 10, 0, 10, 0, 10, 0, 10.0]), 4) + np.tile([0, 0.1, 0.2, 0.3], 8)
    item = np.subtract(*stats.percentile_interval(stats.weighted_mean(values, stats.resample(32, 2000, 2)))[::-1])
    cluster = np.subtract(
        *stats.percentile_interval(stats.weighted_mean(values, stats.resample(32, 2000, 2, clusters=clusters)))[::-1]
    )
    assert cluster > 1.5 * item


def test_cluster_permutation_flips_whole_clusters():
    # differences (3, 3 | -1, -1): cluster sums 6 and -2, observed mean 1; the 4 cluster flips give
    # |(±6 ± 2) / 4| = 1, 1, 2, 2, all >= 1 -> p = 1 (item flips would give p = 4/16)
    assert stats.paired_permutation_test([3, 3, -1, -1], [0, 0, 0, 0], clusters=["a", "a", "b", "b"]) == 1.0
    # (2, 2 | 2, 2): sums 4, 4; flips give |±4 ± 4|/4 = 2, 0, 0, 2 -> p = 2/4
    assert stats.paired_permutation_test([2, 2, 2, 2], [0, 0, 0, 0], clusters=["a", "a", "b", "b"]) == 0.5


def test_compare_pairs_adds_cluster_family_columns_and_a_verdict():
    rng = np.random.default_rng(3)
    sentences = np.repeat(np.arange(12), 3)  # 36 metaphors in 12 sentences
    shift = np.repeat(rng.normal(0, 3, 12), 3)  # a strong sentence effect on the a - b difference
    a = 5 + rng.normal(0, 1, 36)
    scores = pd.DataFrame(
        {
            "item": np.tile(np.arange(36), 3),
            "sentence": np.tile(sentences, 3),
            "system": np.repeat(["a", "b", "c"], 36),
            "SEGS": np.concatenate([a + 0.8, a - shift * 0.0 + shift, a + 10]),
        }
    )
    out = stats.compare_pairs(scores, value="SEGS", n_perm=2000, n_boot=1000, seed=0, clusters="sentence")
    plain = stats.compare_pairs(scores, value="SEGS", n_perm=2000, n_boot=1000, seed=0)
    pd.testing.assert_frame_equal(out[plain.columns], plain)  # the contract columns are unchanged
    ab = out.set_index(["system_a", "system_b"]).loc[("a", "b")]
    assert ab["n_clusters"] == 12
    assert ab["cluster_ci_high"] - ab["cluster_ci_low"] > ab["ci_high"] - ab["ci_low"]  # nesting widens it
    assert ab["family_ci_high"] - ab["family_ci_low"] > ab["cluster_ci_high"] - ab["cluster_ci_low"]  # 98.3 %
    assert ab["mdd_80_adjusted"] > ab["mdd_80"]
    ac = out.set_index(["system_a", "system_b"]).loc[("a", "c")]
    assert ac["verdict"] == "difference" and ac["p_cluster_holm"] <= 3 * ac["p_cluster_permutation"] + 1e-12
    assert ab["cluster_mdd_80_adjusted"] > ab["cluster_mdd_80"]
    assert (
        ab["family_t_ci_low"]
        < ab["cluster_t_ci_low"]
        < ab["mean_difference"]
        < ab["cluster_t_ci_high"]
        < ab["family_t_ci_high"]
    )


def test_verdict_reads_the_cluster_test_on_hand_made_p_values():
    # Holm survives -> difference; raw p < .05 only -> suggestive; neither -> no evidence (the
    # EN→ZH annotator B case of issue 19: p = 0.079 with an interval excluding 0 is no evidence)
    assert stats.verdict(0.004, 0.012) == "difference"
    assert stats.verdict(0.019, 0.058) == "suggestive, not significant after Holm"
    assert stats.verdict(0.079, 0.238) == "no evidence"
    assert stats.verdict(0.05, 0.05) == "no evidence"  # strict inequality at alpha
    assert stats.verdict(0.02, 0.06, alpha=0.1) == "difference"


def test_cluster_t_interval_matches_statsmodels_cluster_robust_ols():
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(5)
    labels = np.repeat(np.arange(9), rng.integers(1, 6, 9))
    x = rng.normal(0, 1, 9)[labels] + rng.normal(0.3, 1, labels.size)
    fit = sm.OLS(x, np.ones_like(x)).fit(cov_type="cluster", cov_kwds={"groups": labels}, use_t=True)
    for level in (95.0, 100 - 5 / 3):
        assert stats.cluster_t_interval(x, labels, level) == pytest.approx(
            tuple(fit.conf_int(alpha=1 - level / 100)[0]), rel=1e-10
        )
    assert stats.cluster_robust_se(x, labels)[0] == pytest.approx(float(fit.bse[0]), rel=1e-10)


def test_cluster_t_interval_by_hand():
    # (1, 3 | 2, 4 | 5, 7): mean 11/3; residual sums −10/3, −4/3, 14/3 -> Σ² = 312/9;
    # SE = √(3/2 · 312/9) / 6 = √52 / 6; t_{2, .975} = 4.302653
    half = 4.302652729911275 * np.sqrt(52) / 6
    low, high = stats.cluster_t_interval([1, 3, 2, 4, 5, 7], list("aabbcc"))
    assert (low, high) == pytest.approx((11 / 3 - half, 11 / 3 + half), rel=1e-9)


def test_cluster_mdd_by_hand():
    # same data: SE = √52 / 6; (t_{2, .975} + t_{2, .8}) = 4.302653 + 1.060660
    se = np.sqrt(52) / 6
    assert stats.cluster_mdd_80([1, 3, 2, 4, 5, 7], list("aabbcc")) == pytest.approx(
        (4.302653 + 1.060660) * se, rel=1e-6
    )
    # one item per cluster: SE = sd/√n · √(n/(n−1)) · √((n−1)/n) = sd/√n with t instead of z
    d = np.array([1.0, -2, 4, 0, 3])
    expected = (2.776445 + 0.940965) * d.std(ddof=1) / np.sqrt(5)
    assert stats.cluster_mdd_80(d, range(5)) == pytest.approx(expected, rel=1e-6)


def test_jackknife_equals_cluster_robust_se_for_a_mean_with_equal_clusters():
    rng = np.random.default_rng(2)
    labels = np.repeat(np.arange(7), 3)
    x = rng.normal(0, 1, 21)
    w = stats.jackknife_weights(labels)
    assert w.shape == (7, 21) and (w.sum(axis=1) == 18).all()
    loo = stats.weighted_mean(x, w)
    assert stats.jackknife_t_interval(x.mean(), loo) == pytest.approx(stats.cluster_t_interval(x, labels), rel=1e-10)
    assert np.isnan(stats.jackknife_t_interval(0.0, [1.0, np.nan])).all()


def test_few_cluster_intervals_hold_their_coverage_with_20_clusters():
    """Nested data, 20 clusters of 1–6 items (like the pilots' 20–21 sentences), cluster and
    item effects of equal size, true mean 0: over 2000 replicates the cluster-robust t and the
    jackknife t cover 0 in at least 93 % of the replicates (nominal 95 %; Monte Carlo SE 0.5
    points), the percentile cluster bootstrap less often than either."""
    rng = np.random.default_rng(0)
    sizes = rng.integers(1, 7, 20)
    labels = np.repeat(np.arange(20), sizes)
    reps = 2000
    x = rng.normal(0, 1, (reps, 20))[:, labels] + rng.normal(0, 1, (reps, labels.size))
    t_hits = [stats.cluster_t_interval(row, labels) for row in x]
    t_cover = np.mean([low <= 0 <= high for low, high in t_hits])
    jack = stats.weighted_mean(x.T, stats.jackknife_weights(labels))  # (20 clusters, reps)
    j_cover = np.mean(
        [
            low <= 0 <= high
            for low, high in (stats.jackknife_t_interval(m, loo) for m, loo in zip(x.mean(axis=1), jack.T))
        ]
    )
    boot = stats.weighted_mean(x.T, stats.resample(labels.size, 1000, 1, labels))  # (1000, reps)
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    p_cover = np.mean((low <= 0) & (0 <= high))
    assert t_cover >= 0.93 and j_cover >= 0.93
    assert p_cover < min(t_cover, j_cover)


def test_cluster_labels_refuse_a_missing_label():
    """A NaN cluster would silently join another cluster in the bootstrap, never be left out
    by the jackknife, and break the cluster-robust SE: every one of them refuses it."""
    clusters = ["a", "a", None, "b"]
    for call in (
        lambda: stats.resample(4, 2, 0, clusters),
        lambda: stats.jackknife_weights(clusters),
        lambda: stats.cluster_robust_se([1.0, 2.0, 3.0, 4.0], clusters),
        lambda: stats.paired_permutation_test([1, 2, 3, 4], [0, 0, 0, 0], clusters=clusters),
    ):
        with pytest.raises(ValueError, match="cluster label of item 3 is missing"):
            call()


# --------------------------------------------------------------------------- within-group correlations


def _brute_force_p(x, y, groups):
    """Mean within-group Spearman ρ over every combination of within-group orders (reference)."""
    import itertools

    from scipy.stats import spearmanr

    frame = pd.DataFrame({"x": x, "y": y, "g": groups})
    parts = [(g["x"].to_numpy(), g["y"].to_numpy()) for _, g in frame.groupby("g", sort=False)]
    observed = np.mean([spearmanr(a, b).statistic for a, b in parts])
    per_group = [[spearmanr(a, b[list(p)]).statistic for p in itertools.permutations(range(len(b)))] for a, b in parts]
    means = np.array([np.mean(c) for c in itertools.product(*per_group)])
    return observed, float(np.mean(np.abs(means) >= abs(observed) - 1e-9)), len(means)


def test_within_word_permutation_p_by_hand():
    # two words of three, ranks agreeing perfectly: |mean ρ| = 1 only for (1, 1) and (−1, −1) of 6 × 6 orders
    test = stats.within_group_permutation_test([1, 2, 3, 10, 20, 30], [2, 3, 4, 1, 5, 9], list("aaabbb"))
    assert test.statistic == pytest.approx(1.0) and test.p_value == pytest.approx(2 / 36)
    assert test.exact and test.n_permutations == 36 and test.n_groups == 2 and test.n_items == 6
    # one word of five in perfect order: 2 of 120 orders reach |ρ| = 1
    assert stats.within_group_permutation_test(range(5), range(5), ["w"] * 5).p_value == pytest.approx(2 / 120)
    # opposite orders in two words cancel: mean 0, every order is at least as extreme
    assert stats.within_group_permutation_test([1, 2, 3, 1, 2, 3], [1, 2, 3, 3, 2, 1], list("aaabbb")).p_value == 1.0


def test_within_word_permutation_matches_brute_force_with_ties():
    x = [3.0, 1.0, 2.0, 5.0, 0.5, 7.0, 7.0, 1.0, 2.0]
    y = [4.0, 4.0, 2.5, 1.0, 3.0, 5.0, 2.0, 2.0, 1.0]  # ties in both variables
    groups = ["a", "a", "a", "a", "b", "b", "b", "b", "b"]
    observed, p, count = _brute_force_p(x, y, groups)
    test = stats.within_group_permutation_test(x, y, groups)
    assert test.exact and test.n_permutations == count == 24 * 120
    assert test.statistic == pytest.approx(observed) and test.p_value == pytest.approx(p)


def test_within_word_permutation_monte_carlo_is_seeded_and_close(monkeypatch):
    x = [3.0, 1.0, 2.0, 5.0, 0.5, 7.0, 6.0, 1.0, 2.0]
    y = [4.0, 4.0, 2.5, 1.0, 3.0, 5.0, 2.0, 2.5, 1.0]
    groups = list("aaaabbbbb")
    exact = stats.within_group_permutation_test(x, y, groups)
    monkeypatch.setattr(correlation, "MAX_EXACT_GROUP", 3)  # force sampling
    first = stats.within_group_permutation_test(x, y, groups, n_perm=20000, seed=7)
    assert not first.exact and first.n_permutations == 20000
    assert first == stats.within_group_permutation_test(x, y, groups, n_perm=20000, seed=7)
    assert first.statistic == pytest.approx(exact.statistic)
    assert first.p_value == pytest.approx(exact.p_value, abs=0.015)


def test_within_word_permutation_skips_words_without_a_rho():
    # word c has constant ratings, word d only two candidates: both left out
    test = stats.within_group_permutation_test([1, 2, 3, 1, 2, 3, 1, 2], [1, 2, 3, 4, 4, 4, 1, 2], list("aaacccdd"))
    assert test.n_groups == 1 and test.n_items == 3 and test.p_value == pytest.approx(2 / 6)
    empty = stats.within_group_permutation_test([1, 2], [2, 1], ["a", "a"])
    assert empty.n_groups == 0 and np.isnan(empty.statistic)


def test_spearman_interval_by_hand():
    lo, hi = stats.spearman_interval(0.5, 28)
    assert lo == pytest.approx(np.tanh(np.arctanh(0.5) - 1.959964 * np.sqrt(1.06 / 25)), abs=1e-6)
    assert hi == pytest.approx(np.tanh(np.arctanh(0.5) + 1.959964 * np.sqrt(1.06 / 25)), abs=1e-6)
    assert all(np.isnan(v) for v in stats.spearman_interval(0.5, 3))


def test_mean_rho_interval_by_hand():
    # ρ = .2, .4, .6: mean .4, SD .2, t(2; .975) = 4.302653 -> .4 ± 4.302653 · .2 / √3
    lo, hi = stats.mean_rho_interval([0.2, 0.4, float("nan"), 0.6])  # the NaN is left out
    half = 4.302653 * 0.2 / np.sqrt(3)
    assert (lo, hi) == (pytest.approx(0.4 - half, abs=1e-6), pytest.approx(0.4 + half, abs=1e-6))
    assert stats.mean_rho_interval([0.9, 1.0])[1] == 1.0  # cut to [−1, 1]
    assert all(np.isnan(v) for v in stats.mean_rho_interval([0.5, float("nan")]))


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
        d, np.zeros(20), n_perm=10000, seed=0
    )


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
    assert stats.paired_permutation_test(d, np.zeros(6), clusters=clusters) == pytest.approx(brute_force_p(d, clusters))


def test_holm_against_statsmodels_including_the_cap_at_one():
    for p in ([0.01, 0.04, 0.03], [0.6, 0.7], [0.2, 0.5, 0.01, 0.4]):
        assert stats.holm(p) == pytest.approx(multipletests(p, method="holm")[1])
    assert stats.holm([0.6, 0.7]).tolist() == [1.0, 1.0]


def test_rank_biserial_by_hand_with_ties_and_zeros():
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
        math.tanh((Z995 + z90) / 7), abs=1e-5
    )
    assert stats.detectable_correlation(4) == pytest.approx(math.tanh(Z975 + Z80), abs=1e-5)
    assert math.isnan(stats.detectable_correlation(3))


# --------------------------------------------------------------------------- compare_pairs, every column


def _frame():
    x = {"A": [3, 5, 4, 6, 2, 5], "B": [1, 4, 4, 3, 2, 1], "C": [2, 2, 5, 1, 3, 0]}
    # groups and items listed out of sorted order: the output keeps the order of appearance
    rows = [
        {"direction": g, "system": s, "item": f"{g}{9 - i}", "value": v + (g == "ZH"), "sentence": f"s{i // 2}"}
        for g in ("EN", "ZH")
        for s, vals in x.items()
        for i, v in enumerate(vals)
    ]
    return pd.DataFrame(rows), x


def test_compare_pairs_every_column_pinned():
    frame, x = _frame()
    frame = pd.concat([frame[frame["direction"] == "ZH"], frame[frame["direction"] == "EN"]])
    alpha, n_boot = 0.1, 300
    out = stats.compare_pairs(
        frame, "value", by="direction", clusters="sentence", alpha=alpha, n_boot=n_boot, n_perm=500, seed=2
    )
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
            tuple(np.percentile(nested, [lo, 100 - lo]))
        )
        se, _ = stats.cluster_robust_se(d, clusters)
        assert row["cluster_t_ci_high"] - mean == pytest.approx(2.919986 * se, abs=1e-5)  # t_{2, .95}
        assert row["family_t_ci_high"] - mean == pytest.approx(t_dist.ppf(1 - alpha / 6, 2) * se)
        assert row["cluster_mdd_80"] == pytest.approx((2.919986 + 1.060660) * se, abs=1e-5)  # t_{2,.95} + t_{2,.8}
        naive = ttest_rel(x[a], x[b]).confidence_interval(1 - alpha)  # scipy's paired t, items independent
        assert (row["t_ci_low"], row["t_ci_high"]) == pytest.approx((naive.low, naive.high))
        assert row["cluster_mdd_80_adjusted"] == pytest.approx((t_dist.ppf(1 - alpha / 6, 2) + 1.060660) * se, abs=1e-5)
        ps.append(row["p_cluster_permutation"])
    assert list(en["rank_biserial"]) == pytest.approx(
        [stats.rank_biserial([p - q for p, q in zip(x[a], x[b])]) for a, b in [("A", "B"), ("A", "C"), ("B", "C")]]
    )
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
    assert list(out.columns) == [
        "system_a",
        "system_b",
        "n_items",
        "mean_a",
        "mean_b",
        "mean_difference",
        "ci_low",
        "ci_high",
        "cohen_dz",
        "rank_biserial",
        "p_permutation",
        "p_holm",
        "mdd_80",
        "t_ci_low",
        "t_ci_high",
    ]
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
    frame = pd.DataFrame(
        {"system": ["A"] * 40 + ["B"] * 40, "item": list(range(40)) * 2, "value": np.r_[a, b], "sentence": clusters * 2}
    )
    row = stats.compare_pairs(frame, "value", clusters="sentence", n_boot=400, seed=5, alpha=0.1).iloc[0]
    d = a - b
    assert row["p_permutation"] == stats.paired_permutation_test(a, b, n_perm=10000, seed=5)
    assert row["p_cluster_permutation"] == stats.paired_permutation_test(a, b, n_perm=10000, seed=5, clusters=clusters)
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


def test_cluster_label_errors_name_the_item_and_the_reason():
    with pytest.raises(ValueError) as err:
        stats.cluster_labels(["s1", "s1", float("nan")])
    assert str(err.value) == ("cluster label of item 3 is missing (every item needs its cluster, e.g. its sentence)")


def test_cluster_permutation_refuses_a_wrong_number_of_labels():
    with pytest.raises(ValueError, match="clusters has 2 labels for 3 items"):
        stats.paired_permutation_test([1, 2, 3], [0, 0, 0], clusters=["a", "b"])
    with pytest.raises(ValueError, match="clusters has 4 labels for 3 items"):
        stats.paired_permutation_test([1, 2, 3], [0, 0, 0], clusters=["a", "b", "a", "b"])


def test_compare_pairs_verdict_reads_the_cluster_test_at_the_given_alpha():
    # 5 sentences of 2 items, A better on every item: the exact cluster test gives p = 2/2^5 = 1/16,
    # one pair so Holm leaves it; below alpha 0.1 (a difference), not below 0.05 (no evidence)
    frame = pd.DataFrame(
        {
            "system": ["A"] * 10 + ["B"] * 10,
            "item": list(range(10)) * 2,
            "value": [2.0] * 10 + [1.0] * 10,
            "sentence": [f"s{i // 2}" for i in range(10)] * 2,
        }
    )
    for alpha, want in ((0.1, "difference"), (0.05, "no evidence")):
        row = stats.compare_pairs(frame, "value", clusters="sentence", alpha=alpha, n_boot=50).iloc[0]
        assert row["p_cluster_permutation"] == pytest.approx(1 / 16) and row["p_cluster_holm"] == pytest.approx(1 / 16)
        assert row["verdict"] == want


# --------------------------------------------------------------------------- approximate randomisation


def test_approximate_randomization_every_pair_and_column_by_hand():
    # A = 0, 0, 0; B = 1, 1, −1 (mean 1/3); C = 2, 2, 2. One-sided p over all 2^3 swap patterns of the
    # per-item differences (worse minus better): B − A = (1, 1, −1), observed sum 1: (+,+,+) 1,
    # (+,+,−) 3, (+,−,−) 1, (−,+,−) 1 reach it: 4/8. C − A = (2, 2, 2) and C − B = (1, 1, 3): only
    # the unswapped pattern reaches the observed sum: 1/8.
    wide = pd.DataFrame({"C": [2.0, 2, 2], "A": [0.0, 0, 0], "B": [1.0, 1, -1]})
    got = stats.approximate_randomization(wide, n_trials=100)
    assert list(got.columns) == ["system_a", "system_b", "n_items", "n_units", "mean_a", "mean_b", "difference", "p"]
    assert got[["system_a", "system_b"]].values.tolist() == [["A", "B"], ["A", "C"], ["B", "C"]]
    assert got["n_items"].tolist() == [3, 3, 3] and got["n_units"].tolist() == [3, 3, 3]
    assert got["mean_a"].tolist() == pytest.approx([0, 0, 1 / 3])
    assert got["mean_b"].tolist() == pytest.approx([1 / 3, 2, 2])
    assert got["difference"].tolist() == pytest.approx([1 / 3, 2, 5 / 3])
    assert got["p"].tolist() == pytest.approx([4 / 8, 1 / 8, 1 / 8])
    # higher is better: C first; the differences are still mean_b − mean_a (now negative), and the
    # swap counts are those of better minus worse: C − B (1, 1, 3), C − A, B − A (1, 1, −1)
    up = stats.approximate_randomization(wide, n_trials=100, lower_better=False)
    assert up[["system_a", "system_b"]].values.tolist() == [["C", "B"], ["C", "A"], ["B", "A"]]
    assert up["difference"].tolist() == pytest.approx([-5 / 3, -2, -1 / 3])
    assert up["p"].tolist() == pytest.approx([1 / 8, 1 / 8, 4 / 8])


def test_approximate_randomization_of_nullable_integer_scores_gives_floats():
    # pandas' nullable Int64 (error counts): B − A = (2, 1, 1), every pattern but (+,+,+) falls short
    wide = pd.DataFrame({"A": pd.array([0, 0, 1], dtype="Int64"), "B": pd.array([2, 1, 2], dtype="Int64")})
    got = stats.approximate_randomization(wide, n_trials=100)
    num = ["mean_a", "mean_b", "difference", "p"]
    assert (got[num].dtypes == np.float64).all()
    assert got[num].iloc[0].tolist() == pytest.approx([1 / 3, 5 / 3, 4 / 3, 1 / 8])


def test_approximate_randomization_ties_keep_the_column_order():
    wide = pd.DataFrame({"A": [1.0, 1], "B": [2.0, 0], "C": [0.0, 0], "D": [1.0, -1]})  # means 1, 1, 0, 0
    got = stats.approximate_randomization(wide, n_trials=100)
    assert got[["system_a", "system_b"]].values.tolist() == [
        ["C", "D"],
        ["C", "A"],
        ["C", "B"],
        ["D", "A"],
        ["D", "B"],
        ["A", "B"],
    ]
    up = stats.approximate_randomization(wide, n_trials=100, lower_better=False)
    assert up[["system_a", "system_b"]].values.tolist() == [
        ["A", "B"],
        ["A", "C"],
        ["A", "D"],
        ["B", "C"],
        ["B", "D"],
        ["C", "D"],
    ]


def test_approximate_randomization_is_exact_while_all_patterns_fit_in_the_trials():
    # 6 units, B worse on each by 1: only the unswapped pattern reaches the observed difference
    wide = pd.DataFrame({"A": [0.0] * 6, "B": [1.0] * 6})
    for n_trials in (64, 100):  # 2^6 = 64 patterns fit: the exact p, 1/64
        assert stats.approximate_randomization(wide, n_trials=n_trials)["p"].iloc[0] == pytest.approx(1 / 64)
    # 63 < 64: 63 trials of 6 fair coins (1 keeps the unit); a trial reaches the observed difference
    # only when it keeps all six: p = (those trials + 1) / (63 + 1)
    coins = np.random.default_rng(5).integers(0, 2, size=(63, 6), dtype=np.int8)
    kept = int((coins == 1).all(axis=1).sum())
    got = stats.approximate_randomization(wide, n_trials=63, seed=5)["p"].iloc[0]
    assert got == pytest.approx((kept + 1) / 64)


def test_approximate_randomization_monte_carlo_defaults_count_the_seeded_swaps():
    # 14 units: 2^14 > 10000, so the default call draws 10000 trials with seed 0. Only the first item
    # differs (B worse by 1), so a trial reaches the observed difference exactly when it keeps that unit.
    wide = pd.DataFrame({"A": [0.0] * 14, "B": [1.0] + [0.0] * 13})
    coins = np.random.default_rng(0).integers(0, 2, size=(10000, 14), dtype=np.int8)
    kept = int((coins[:, 0] == 1).sum())
    row = stats.approximate_randomization(wide).iloc[0]
    assert row["n_units"] == 14 and row["difference"] == pytest.approx(1 / 14)
    assert row["p"] == pytest.approx((kept + 1) / 10001, rel=1e-12)
    assert 4800 < kept < 5200  # a fair coin: the count itself is close to half


def test_approximate_randomization_tolerance_is_relative_to_the_difference():
    # Scores in the hundreds, two documents of three segments. Summed per document, B − A is
    # 614.2 + 584.7 + 336.4 = 1535.3 and 293.6 + 543.2 + 604.4 = 1441.2, the observed mean
    # difference (1535.3 + 1441.2) / 6: only the unswapped pattern (+, +) of the 4 reaches it (exact
    # arithmetic), p = 1/4. In floating point the document sums miss the segment sum by ~1e-13:
    # within 1e-12 · |observed|, the tolerance at this size, not within 1e-12 / |observed|.
    wide = pd.DataFrame({"A": [5.8, 5.3, 3.6, 6.4, 6.8, 5.6], "B": [620.0, 590.0, 340.0, 300.0, 550.0, 610.0]})
    row = stats.approximate_randomization(wide, n_trials=100, clusters=["d1"] * 3 + ["d2"] * 3).iloc[0]
    assert row["n_units"] == 2 and row["difference"] == pytest.approx(2976.5 / 6)
    assert row["p"] == pytest.approx(1 / 4)


def test_approximate_randomization_refuses_a_wrong_number_of_cluster_labels():
    wide = pd.DataFrame({"A": [0.0, 1, 2], "B": [1.0, 1, 3]})
    with pytest.raises(ValueError, match="clusters has 4 labels for 3 items"):
        stats.approximate_randomization(wide, clusters=["a", "a", "b", "b"])


# --------------------------------------------------------------------------- significance clusters, τ rows


def test_significance_clusters_p_equal_to_alpha_is_significant():
    assert stats.significance_clusters([[1, 0.05], [0, 1]]) == [1, 2]  # p ≤ alpha opens a cluster
    assert stats.significance_clusters([[1, 0.05], [0, 1]], alpha=0.049) == [1, 1]


@pytest.mark.parametrize("p", [[0.1, 0.2], [[1, 0.1, 0.2], [0, 1, 0.3]]])
def test_significance_clusters_refuse_a_non_square_matrix(p):
    with pytest.raises(ValueError) as err:
        stats.significance_clusters(p)
    assert str(err.value) == "p must be a square matrix of p-values"


def test_kendall_tau_rows_undefined_is_nan_without_a_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = stats.kendall_tau_rows([1, 2, 3], [[2, 2, 2], [1, 2, 3]])  # a constant resample
        flat = stats.kendall_tau_rows([1, 1, 1], [[1, 2, 3]])  # a constant reference
    assert math.isnan(got[0]) and got[1] == 1.0 and math.isnan(flat[0])


def test_kendall_tau_rows_of_unsigned_ranks_is_scipys():
    from scipy.stats import kendalltau

    ref = np.array([3, 1, 2], dtype=np.uint8)  # ranks as unsigned integers: no wrap-around in the differences
    samples = [[1, 2, 3], [3, 1, 2], [2, 3, 1]]
    want = [kendalltau([3, 1, 2], s).statistic for s in samples]  # −1/3, 1, −1/3
    assert stats.kendall_tau_rows(ref, samples).tolist() == pytest.approx(want)
    assert stats.kendall_tau_rows([3, 1, 2], np.array(samples, dtype=np.uint8)).tolist() == pytest.approx(want)
    assert want == pytest.approx([-1 / 3, 1, -1 / 3])


# --------------------------------------------------------------------------- ranking stability


def test_ranking_stability_every_value_by_hand():
    # three items × three systems, full means 1, 2, 5; four resamples: item 1, item 3, item 2, all
    values = np.array([[0.0, 3, 5], [0, 3, 5], [3, 0, 5]])
    w = np.array([[3, 0, 0], [0, 0, 3], [0, 3, 0], [1, 1, 1]])
    # resampled means (0, 3, 5), (3, 0, 5), (0, 3, 5), (1, 2, 5): τ-b with (1, 2, 5) is 1, 1/3, 1, 1
    res = stats.ranking_stability(values, w)
    assert set(res) == {"tau_mean", "tau_low", "share_significant", "n_resamples"}
    assert res["n_resamples"] == 4
    assert res["tau_mean"] == pytest.approx((3 + 1 / 3) / 4)
    # 2.5th percentile of 1/3, 1, 1, 1 (linear interpolation at position 3 · 0.025): 1/3 + 0.075 · 2/3
    assert res["tau_low"] == pytest.approx(1 / 3 + 0.05)
    # differences 1 − 2: −3, +3, −3, −1 (sign kept in 3/4); 1 − 3 and 2 − 3: always negative (4/4)
    for alpha, share in ((0.05, 2 / 3), (0.2, 2 / 3), (0.5, 1.0), (0.6, 1.0)):
        # kept ≥ 1 − alpha/2: 0.975, 0.9 (3/4 is not), 0.75 (3/4 is, at equality), 0.7
        assert stats.ranking_stability(values, w, alpha)["share_significant"] == pytest.approx(share)
    assert stats.ranking_stability(values, w, 0.4)["share_significant"] == pytest.approx(2 / 3)  # 0.8


def test_ranking_stability_ties_and_small_differences_by_hand():
    # four resamples, each one item drawn four times: the resampled means are the item's row
    values = np.array([[0.5, 0, 0.5], [0.5, 0, 0], [0.5, 0, 0], [0, 0.5, 0.5]])
    res = stats.ranking_stability(values, 4 * np.eye(4), alpha=0.5)  # kept ≥ 0.75
    # differences per resample: 1 − 2: +.5, +.5, +.5, −.5 (kept 3/4: significant); 1 − 3: 0, +.5,
    # +.5, −.5 (positive 2/4, negative 1/4: kept 1/2); 2 − 3: −.5, 0, 0, 0 (kept 1/4). A tie keeps no sign.
    assert res["share_significant"] == pytest.approx(1 / 3)
    # full means (.375, .125, .25); τ-b = 2/√(3 · 2) for the first three rows (two concordant
    # pairs, one tie in the resample), −2/√6 for the last
    assert res["tau_mean"] == pytest.approx(1 / math.sqrt(6))
    assert res["n_resamples"] == 4


# --------------------------------------------------------------------------- within-group correlation tests


def test_spearman_defined_needs_three_pairs_and_two_values_of_each():
    assert stats.spearman_defined(np.array([0.1, 0.2, 0.3]), np.array([0.3, 0.1, 0.2]))  # ranges below 1
    assert not stats.spearman_defined(np.array([1.0, 1, 1]), np.array([1.0, 2, 3]))
    assert not stats.spearman_defined(np.array([1.0, 2, 3]), np.array([2.0, 2, 2]))
    assert not stats.spearman_defined(np.array([1.0, 2]), np.array([2.0, 1]))


def test_within_group_test_without_a_defined_group():
    t = stats.within_group_permutation_test([1, 2, 1, 2, 3], [2, 1, 5, 5, 5], list("aabbb"))
    assert math.isnan(t.statistic) and math.isnan(t.p_value)
    assert (t.n_groups, t.n_items, t.exact, t.n_permutations) == (0, 0, False, 0)
    assert t.exact is False


def test_within_group_exact_p_of_five_groups_of_eight_is_not_rounded_away():
    # five groups of 8 in perfect order: |mean ρ| = 1 only for all identical or all reversed orders,
    # 2 of (8!)^5 ≈ 1.05·10^23 (beyond int64): p ≈ 1.9·10^-23, not 0
    x = list(range(8)) * 5
    t = stats.within_group_permutation_test(x, x, [g for g in "abcde" for _ in range(8)])
    assert t.exact is True and t.n_permutations == math.factorial(8) ** 5
    assert t.statistic == pytest.approx(1.0) and (t.n_groups, t.n_items) == (5, 40)
    assert t.p_value == pytest.approx(2 / math.factorial(8) ** 5, rel=1e-9)


def test_within_group_exact_p_of_all_permutations_is_one():
    # opposite orders in two words: mean ρ 0, every one of the 36 orders reaches it
    t = stats.within_group_permutation_test([1, 2, 3, 1, 2, 3], [1, 2, 3, 3, 2, 1], list("aaabbb"))
    assert t.p_value == 1.0 and t.n_permutations == 36


def test_within_group_falls_back_to_sampling_above_the_support_limit(monkeypatch):
    # one group of three distinct values: ρ ∈ {−1, −1/2, 1/2, 1}, 4 distinct values; exact with a
    # limit of 4 (p = 2/6: the two orders with |ρ| = 1), sampled with a limit of 3
    args = ([1, 2, 3], [1, 2, 3], ["a"] * 3)
    monkeypatch.setattr(correlation, "_MAX_SUPPORT", 4)
    t = stats.within_group_permutation_test(*args, n_perm=99)
    assert t.exact is True and t.p_value == pytest.approx(2 / 6) and t.n_permutations == 6
    monkeypatch.setattr(correlation, "_MAX_SUPPORT", 3)
    t = stats.within_group_permutation_test(*args, n_perm=99)
    assert t.exact is False and t.n_permutations == 99 and 0 < t.p_value <= 1


Y_RHO_ZERO = [1, 3, 7, 9, 8, 6, 5, 4, 2]  # against 1…9: Σ d² = 120 = n(n² − 1)/12, so ρ = 0 exactly


def test_within_group_monte_carlo_p_is_one_when_the_observed_rho_is_zero():
    # 9 items (> MAX_EXACT_GROUP): sampled. |ρ| ≥ 0 for every permutation, so hits = n_perm and
    # p = (n_perm + 1) / (n_perm + 1); permutations with ρ exactly 0 count as reaching it
    t = stats.within_group_permutation_test(range(1, 10), Y_RHO_ZERO, ["w"] * 9, n_perm=500, seed=3)
    assert t.statistic == pytest.approx(0.0, abs=1e-15) and t.exact is False
    assert t.p_value == 1.0 and t.n_permutations == 500


def test_within_group_monte_carlo_defaults_when_nothing_reaches_the_observed():
    # two groups of 9 in perfect order: |mean ρ| = 1 needs both groups identical or both reversed,
    # chance 2/(9!)^2 ≈ 1.5·10^-11 per draw: none of the 10000 default draws, p = 1/10001
    x = list(range(9)) * 2
    t = stats.within_group_permutation_test(x, x, ["a"] * 9 + ["b"] * 9)
    assert (t.n_groups, t.n_items, t.n_permutations) == (2, 18, 10000) and t.exact is False
    assert t.p_value == pytest.approx(1 / 10001, rel=1e-12)


def _sampled_mean_rho_p(x, y, groups, n_perm, seed):
    """The documented Monte Carlo test rebuilt with scipy: per group in order of first appearance,
    permutations = argsort of rows of default_rng(seed).random((n_perm, n_g)); ρ = Pearson's r of
    scipy's average ranks; p = (permuted |mean ρ| reaching the observed one + 1) / (n_perm + 1)."""
    from scipy.stats import pearsonr, rankdata, spearmanr

    x, y, groups = np.asarray(x, dtype=float), np.asarray(y, dtype=float), list(groups)
    rng = np.random.default_rng(seed)
    observed, sums = 0.0, np.zeros(n_perm)
    labels = list(dict.fromkeys(groups))
    for label in labels:
        idx = [i for i, g in enumerate(groups) if g == label]
        gx, gy = x[idx], y[idx]
        observed += spearmanr(gx, gy).statistic
        perms = np.argsort(rng.random((n_perm, len(idx))), axis=1)
        ranks = rankdata(gy[perms], axis=1)
        sums += pearsonr(np.broadcast_to(rankdata(gx), ranks.shape), ranks, axis=1).statistic
    hits = int((np.abs(sums) >= abs(observed) - 1e-9).sum())
    return observed / len(labels), (hits + 1) / (n_perm + 1)


def test_within_group_monte_carlo_default_draws_rebuilt_with_scipy():
    # words listed out of sorted order ("b" first), 10 and 9 candidates with ties: sampled with the
    # default 10000 permutations and seed 0
    x = [3.0, 1, 4, 1, 5, 9, 2, 6, 5, 3, 2, 7, 1, 8, 2, 8, 1, 8, 2]
    y = [2.0, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5, 9, 0, 4, 5, 2, 3, 5]
    groups = ["b"] * 10 + ["a"] * 9
    t = stats.within_group_permutation_test(x, y, groups)
    statistic, p = _sampled_mean_rho_p(x, y, groups, 10000, 0)
    assert t.exact is False and t.n_permutations == 10000
    assert t.statistic == pytest.approx(statistic) and t.p_value == pytest.approx(p, rel=1e-12)
    assert 0.02 < p < 0.98  # a p that depends on the draws


def test_spearman_interval_at_four_pairs_and_at_perfect_correlation():
    z = math.atanh(0.5)
    half = Z975 * math.sqrt(1.06 / 1)  # n = 4: variance 1.06 / (4 − 3)
    assert stats.spearman_interval(0.5, 4) == (
        pytest.approx(math.tanh(z - half), abs=1e-6),
        pytest.approx(math.tanh(z + half), abs=1e-6),
    )
    # ρ = ±1 is taken as ±0.999999: a finite interval whose inner end is below 1 in size
    half = Z975 * math.sqrt(1.06 / 25)
    inner = math.tanh(math.atanh(0.999999) - half)  # ≈ 0.9999978
    lo, hi = stats.spearman_interval(1.0, 28)
    assert lo == pytest.approx(inner, abs=1e-9) and hi == pytest.approx(math.tanh(math.atanh(0.999999) + half))
    lo, hi = stats.spearman_interval(-1.0, 28)
    assert hi == pytest.approx(-inner, abs=1e-9) and lo == pytest.approx(-math.tanh(math.atanh(0.999999) + half))
    assert inner < 1 - 1e-6


def test_mean_rho_interval_is_cut_at_minus_one():
    # ρ = −.9, −1: mean −.95, SD .0707, t(1; .975) = 12.7062: −.95 ± 12.7062 · .070711 / √2
    lo, hi = stats.mean_rho_interval([-0.9, -1.0])
    assert lo == -1.0 and hi == pytest.approx(-0.95 + 12.7062 * math.sqrt(0.005) / math.sqrt(2), abs=1e-4)


def test_weighted_mean_by_hand_for_one_and_for_several_variables():
    # rows of weights: the plain mean (1+2+3)/3 = 2, all weight on the third value = 3, ends only (1+3)/2 = 2
    weights = np.array([[1, 1, 1], [0, 0, 2], [1, 0, 1]])
    assert stats.weighted_mean([1, 2, 3], weights).tolist() == [2.0, 3.0, 2.0]
    # two variables at once: the second column is ten times the first, so is its mean
    both = stats.weighted_mean([[1, 10], [2, 20], [3, 30]], weights)
    assert both.shape == (3, 2) and both.tolist() == [[2.0, 20.0], [3.0, 30.0], [2.0, 20.0]]


def _exact_one_sided(diffs: np.ndarray) -> float:
    """P(mean of randomly signed differences ≥ observed mean), all sign patterns enumerated."""
    obs = diffs.mean()
    hits = [np.dot(s, diffs) / len(diffs) >= obs - 1e-12 for s in product([-1, 1], repeat=len(diffs))]
    return float(np.mean(hits))


def test_approximate_randomization_matches_exact_enumeration():
    rng = np.random.default_rng(3)
    a, b = rng.normal(0, 1, 18), rng.normal(0.4, 1, 18)
    wide = pd.DataFrame({"A": a, "B": b})
    got = stats.approximate_randomization(wide, n_trials=40000, seed=1)
    row = got.iloc[0]
    better, worse = (a, b) if a.mean() < b.mean() else (b, a)
    assert row["mean_a"] == pytest.approx(better.mean())
    assert row["p"] == pytest.approx(_exact_one_sided(worse - better), abs=0.006)  # Monte Carlo error ≈ 0.0025


def test_approximate_randomization_small_samples_are_exact():
    wide = pd.DataFrame({"A": [0.0] * 6, "B": [1.0] * 6})
    assert stats.approximate_randomization(wide, n_trials=10000)["p"].iloc[0] == pytest.approx(1 / 64)


def test_document_cluster_test_on_nested_data():
    """Six segments in two documents: flipping documents leaves 4 patterns, 1 reaching the
    observed difference; segment-level it is 1 in 64. Clusters are summed before the flip."""
    wide = pd.DataFrame({"A": [0.0] * 6, "B": [1, 1, 1, 2, 2, 2]})
    docs = ["d1", "d1", "d1", "d2", "d2", "d2"]
    doc = stats.approximate_randomization(wide, n_trials=10000, clusters=docs).iloc[0]
    seg = stats.approximate_randomization(wide, n_trials=10000).iloc[0]
    assert doc["n_units"] == 2 and doc["p"] == pytest.approx(1 / 4)
    assert seg["n_units"] == 6 and seg["p"] == pytest.approx(1 / 64)
    # d1 = +3 and d2 = −1 summed per document: patterns (+,+) 2/6 and (+,−) 4/6 reach 2/6
    mixed = pd.DataFrame({"A": [0.0] * 6, "B": [1, 1, 1, 0, 0, -1]})
    assert stats.approximate_randomization(mixed, clusters=docs)["p"].iloc[0] == pytest.approx(2 / 4)


def test_approximate_randomization_orders_pairs_best_first_and_all_pairs_at_once():
    wide = pd.DataFrame({"C": [3.0, 3, 3, 4], "A": [0.0, 0, 1, 0], "B": [2.0, 1, 2, 2]})
    got = stats.approximate_randomization(wide, n_trials=100)
    assert got[["system_a", "system_b"]].values.tolist() == [["A", "B"], ["A", "C"], ["B", "C"]]
    assert (got["difference"] > 0).all()


def test_significance_clusters_follow_mt_metrics_eval_rule():
    """Hand-made p-values for five systems, best first. B is not worse than A: rank 1. C is
    worse than A (p .01) though not than B: a new cluster starts at C (rank 2). D is compared
    with C only (the cluster's start): p .3, rank 2 although D is worse than A and B. E is
    worse than D: rank 3."""
    p = np.array(
        [
            [1, 0.20, 0.01, 0.01, 0.001],
            [0, 1, 0.30, 0.02, 0.001],
            [0, 0, 1, 0.30, 0.04],
            [0, 0, 0, 1, 0.03],
            [0, 0, 0, 0, 1],
        ]
    )
    assert stats.significance_clusters(p) == [1, 1, 2, 2, 3]
    assert stats.significance_clusters(p, alpha=0.005) == [1, 1, 1, 1, 2]
    assert stats.significance_clusters(np.ones((3, 3))) == [1, 1, 1]


def test_kendall_tau_rows_is_scipys_tau_b_with_ties():
    rng = np.random.default_rng(0)
    ref = rng.integers(0, 4, 9).astype(float)
    samples = rng.integers(0, 4, (20, 9)).astype(float)
    got = stats.kendall_tau_rows(ref, samples)
    want = [kendalltau(ref, s).statistic for s in samples]
    assert np.allclose(got, want, equal_nan=True)


def test_rank_stability_on_a_made_up_ranking():
    rng = np.random.default_rng(1)
    far = np.column_stack([rng.normal(m, 0.1, 200) for m in (0, 5, 10)])  # three systems far apart
    w = stats.resample(200, 300, seed=0)
    res = stats.ranking_stability(far, w)
    assert res["tau_mean"] == 1.0 and res["share_significant"] == 1.0
    same = rng.normal(0, 1, (200, 3))  # three systems of one distribution: ranks are noise
    noisy = stats.ranking_stability(same, w)
    assert noisy["tau_mean"] < 0.9 and noisy["share_significant"] <= 1 / 3
    # one resample that swaps the first two systems: tau = 1/3 (two concordant pairs, one discordant)
    values = np.array([[0.0, 3, 5], [0, 3, 5], [3, 0, 5]])  # means 1, 2, 5; item 3 alone: 3, 0, 5
    one = stats.ranking_stability(values, np.array([[0, 0, 3]]))
    assert one["tau_mean"] == pytest.approx(1 / 3)


def test_ranking_stability_does_not_depend_on_the_blas_thread_count():
    """MQM-like segment scores (many exact ties) resampled 1000 times: the resampled means come from
    one matrix product, which BLAS sums in an order that depends on its thread count, so means equal in
    exact arithmetic differed by rounding and τ moved in the fifth decimal (chapter 08's weight sweep,
    built two chapters at a time or one). Ties within the tolerance make the result the same."""
    from threadpoolctl import threadpool_limits

    from helpers.core.statistics.rankings import ranking_stability
    from helpers.core.statistics.resampling import resample

    rng = np.random.default_rng(0)
    v = rng.choice([0, 0.1, 1, 5, 25], size=(529, 15), p=[0.5, 0.2, 0.2, 0.08, 0.02])
    w = resample(529, 1000, seed=0)
    got = []
    for threads in (1, 2):
        with threadpool_limits(threads):
            got.append(ranking_stability(v, w))
    assert got[0] == got[1]
