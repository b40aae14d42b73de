"""PERM-BOTH between metrics (helpers.metrics.significance) on small cases."""


import numpy as np
import pytest

from helpers.metrics import significance

from .grids import frames


@pytest.fixture
def perm_data():
    rng = np.random.default_rng(7)
    human = rng.integers(0, 6, (30, 6)).astype(float) + np.arange(6)  # penalties, systems differ
    exact = -human  # agrees with the humans perfectly
    noise = rng.normal(size=human.shape)
    return frames(human, {"exact": exact, "noise": noise, "copy": exact.copy()})


def test_perm_both_identical_metrics_give_p_one(perm_data):
    h, m = perm_data
    assert significance.perm_both(h, m, "exact", "copy", "pearson", "system", n_perm=200)["p"] == 1.0
    assert significance.perm_both(h, m, "exact", "copy", "kendall_tau_b_item", "segment", n_perm=30)["p"] == 1.0


def test_perm_both_finds_the_metric_that_equals_the_humans(perm_data):
    h, m = perm_data
    better = significance.perm_both(h, m, "exact", "noise", "pearson_flat", "segment", n_perm=200, seed=3)
    assert better["delta"] > 0.5
    assert better["p"] == pytest.approx(1 / 201)  # no permutation reaches δ
    worse = significance.perm_both(h, m, "noise", "exact", "pearson_flat", "segment", n_perm=200, seed=3)
    assert worse["p"] == 1.0
    again = significance.perm_both(h, m, "exact", "noise", "pearson_flat", "segment", n_perm=200, seed=3)
    assert again == better
    table = significance.compare_metrics(h, m, "pairwise_accuracy", "system", n_perm=100)
    assert len(table) == 6 and list(table.columns) == ["metric_a", "metric_b", "delta", "p"]


def test_perm_both_p_value_is_seeded_and_in_between_for_close_metrics():
    rng = np.random.default_rng(8)
    human = rng.normal(size=(15, 5))
    h, m = frames(human, {"a": -human + rng.normal(0, 2, human.shape), "b": -human + rng.normal(0, 2, human.shape)})
    p1 = significance.perm_both(h, m, "a", "b", "pearson_flat", "segment", n_perm=100, seed=1)["p"]
    p2 = significance.perm_both(h, m, "a", "b", "pearson_flat", "segment", n_perm=100, seed=1)["p"]
    assert p1 == p2 and 0.02 < p1 < 0.98
