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


def test_compare_metrics_reverse_pair_is_the_same_permutations_negated(perm_data):
    h, m = perm_data
    table = significance.compare_metrics(h, m, "pearson", "system", n_perm=200, seed=4, segments="all")
    for _, row in table.iterrows():
        alone = significance.perm_both(
            h, m, row["metric_a"], row["metric_b"], "pearson", "system", n_perm=200, seed=4, segments="all"
        )
        assert row["p"] == alone["p"] and row["delta"] == pytest.approx(alone["delta"], abs=1e-12)


def test_flat_pearson_permutations_against_a_plain_loop(perm_data):
    """The vectorised PERM-BOTH of flat Pearson against its definition: every cell's two z-scored metric
    scores swapped with probability 1/2 (the same draws), r by scipy."""
    from scipy.stats import pearsonr, zscore

    h, m = perm_data
    wide = h.merge(
        m.pivot_table(index=["system", "segment"], columns="metric", values="score").reset_index(),
        on=["system", "segment"],
    ).sort_values(["segment", "system"])
    got = significance.perm_both(h, m, "exact", "noise", "pearson_flat", "segment", n_perm=60, seed=5)
    human = -wide["score"].to_numpy()  # penalties: lower is better
    za, zb = zscore(wide["exact"].to_numpy()), zscore(wide["noise"].to_numpy())
    rng = np.random.default_rng(5)
    n_items, n_systems = wide["segment"].nunique(), wide["system"].nunique()
    delta = pearsonr(human, za)[0] - pearsonr(human, zb)[0]
    count = 0
    for _ in range(60):
        swap = (rng.random((n_items, n_systems)) < 0.5).ravel()  # items x systems, as the grid
        pa, pb = np.where(swap, zb, za), np.where(swap, za, zb)
        count += pearsonr(human, pa)[0] - pearsonr(human, pb)[0] >= delta - 1e-12
    assert got["delta"] == pytest.approx(delta, abs=1e-12) and got["p"] == (count + 1) / 61


def test_clusters_open_where_a_metric_of_the_cluster_is_better():
    """By hand: a > b (p .3, same cluster), a > c (p .01: c opens cluster 2), c > d (p .5), b > d (p .001)
    -- d is worse than no metric of c's cluster (only c), so it joins it; e is undefined and left out."""
    import pandas as pd

    est = pd.DataFrame({"metric": ["c", "a", "d", "b", "e"], "estimate": [0.5, 0.9, 0.4, 0.8, np.nan]})
    pairs = {("a", "b"): 0.3, ("a", "c"): 0.01, ("a", "d"): 0.01, ("b", "c"): 0.2, ("b", "d"): 0.001, ("c", "d"): 0.5}
    cmp = pd.DataFrame([(x, y, 0.0, p) for (x, y), p in pairs.items()], columns=["metric_a", "metric_b", "delta", "p"])
    got = significance.metric_clusters(est, cmp)
    assert got["metric"].tolist() == ["a", "b", "c", "d"] and got["rank"].tolist() == [1, 1, 2, 2]
    assert got["p_next"].tolist()[:3] == [0.3, 0.2, 0.5] and np.isnan(got["p_next"].iloc[-1])
