"""Paired system comparison: permutation test, Holm correction, effect sizes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import stats


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
    assert stats._rank_biserial(np.array([1.0, 2, -3, 0])) == pytest.approx(0.0)
    assert stats._rank_biserial(np.array([1.0, 2, 3])) == pytest.approx(1.0)


def test_compare_systems_table():
    scores = pd.DataFrame({"item": list(range(6)) * 3, "system": ["a"] * 6 + ["b"] * 6 + ["c"] * 6,
                           "SEGS": [0, 2, 4, 0, 2, 6] + [0, 2, 4, 0, 2, 6] + [4, 6, 8, 4, 6, 10]})
    out = stats.compare_systems(scores, n_perm=2000, n_boot=500, seed=0).set_index(["system_a", "system_b"])
    assert list(out.index) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert out.loc[("a", "b"), "mean_difference"] == 0 and out.loc[("a", "b"), "p_permutation"] == 1.0
    assert out.loc[("a", "c"), "mean_difference"] == -4
    # six equal differences: exact test gives 2/64 for a constant shift
    assert out.loc[("a", "c"), "p_permutation"] == pytest.approx(2 / 64)
    assert (out["p_holm"] >= out["p_permutation"]).all()
