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
    # the verdict follows the Holm-adjusted cluster p, with "suggestive" for raw p < .05 only
    for _, r in out.iterrows():
        unadjusted = r["p_cluster_permutation"] < 0.05 or r["cluster_ci_low"] > 0 or r["cluster_ci_high"] < 0
        expected = ("difference" if r["p_cluster_holm"] < 0.05 else
                    "suggestive, not significant after Holm" if unadjusted else "no evidence")
        assert r["verdict"] == expected
