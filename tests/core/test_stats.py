"""Paired system comparison: permutation test, Holm correction, effect sizes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.core import stats


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
    scores = pd.DataFrame({"item": list(range(6)) * 3, "system": ["a"] * 6 + ["b"] * 6 + ["c"] * 6,
                           "SEGS": [0, 2, 4, 0, 2, 6] + [0, 2, 4, 0, 2, 6] + [4, 6, 8, 4, 6, 10]})
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
    cluster = np.subtract(*stats.percentile_interval(
        stats.weighted_mean(values, stats.resample(32, 2000, 2, clusters=clusters)))[::-1])
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
    scores = pd.DataFrame({"item": np.tile(np.arange(36), 3), "sentence": np.tile(sentences, 3),
                           "system": np.repeat(["a", "b", "c"], 36),
                           "SEGS": np.concatenate([a + 0.8, a - shift * 0.0 + shift, a + 10])})
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
    assert (ab["family_t_ci_low"] < ab["cluster_t_ci_low"] < ab["mean_difference"] < ab["cluster_t_ci_high"]
            < ab["family_t_ci_high"])


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
            tuple(fit.conf_int(alpha=1 - level / 100)[0]), rel=1e-10)
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
    assert stats.cluster_mdd_80([1, 3, 2, 4, 5, 7], list("aabbcc")) == pytest.approx((4.302653 + 1.060660) * se,
                                                                                     rel=1e-6)
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
    j_cover = np.mean([low <= 0 <= high for low, high in
                       (stats.jackknife_t_interval(m, loo) for m, loo in zip(x.mean(axis=1), jack.T))])
    boot = stats.weighted_mean(x.T, stats.resample(labels.size, 1000, 1, labels))  # (1000, reps)
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    p_cover = np.mean((low <= 0) & (0 <= high))
    assert t_cover >= 0.93 and j_cover >= 0.93
    assert p_cover < min(t_cover, j_cover)


def test_cluster_labels_refuse_a_missing_label():
    """A NaN cluster would silently join another cluster in the bootstrap, never be left out
    by the jackknife, and break the cluster-robust SE: every one of them refuses it."""
    clusters = ["a", "a", None, "b"]
    for call in (lambda: stats.resample(4, 2, 0, clusters), lambda: stats.jackknife_weights(clusters),
                 lambda: stats.cluster_robust_se([1.0, 2.0, 3.0, 4.0], clusters),
                 lambda: stats.paired_permutation_test([1, 2, 3, 4], [0, 0, 0, 0], clusters=clusters)):
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
    per_group = [[spearmanr(a, b[list(p)]).statistic for p in itertools.permutations(range(len(b)))]
                 for a, b in parts]
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
    monkeypatch.setattr(stats, "MAX_EXACT_GROUP", 3)  # force sampling
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
