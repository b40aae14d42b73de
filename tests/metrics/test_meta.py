"""Meta-evaluation statistics (helpers.metrics.meta) on small hand-computed cases and against
scipy, and the ``metrics meta`` command on good and bad files."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau, pearsonr

from helpers.metrics import meta

from .grids import frames


def estimate(table, level, metric, statistic):
    row = table[(table.level == level) & (table.metric == metric) & (table.statistic == statistic)]
    assert len(row) == 1
    return row.iloc[0]


# --------------------------------------------------------------------------- statistics on vectors


def test_segment_level_flat_and_grouped_by_item():
    # penalties (lower is better); the metric is higher-is-better
    human = [[0, 1, 2], [0, 1, 2], [1, 1, 1], [0, 5, np.nan]]
    metric = [[9, 8, 7], [7, 8, 9], [1, 2, 3], [4, 3, 6]]
    h, m = frames(human, {"m": metric})
    table = meta.meta_evaluate(h, m, level="segment", n_boot=0).table
    # grouped by item: +1 (item 1), −1 (item 2), item 3 constant for the humans: left out, item 4 two systems: +1
    assert estimate(table, "segment", "m", "pearson_item").estimate == pytest.approx(1 / 3)
    assert estimate(table, "segment", "m", "kendall_tau_b_item").estimate == pytest.approx(1 / 3)
    assert estimate(table, "segment", "m", "pearson_item").n == 3
    # flattened: scipy on the 11 cells scored on both sides, the penalties negated
    cells = [(-hv, mv) for hr, mr in zip(human, metric) for hv, mv in zip(hr, mr) if not np.isnan(hv)]
    x, y = np.array(cells).T
    assert estimate(table, "segment", "m", "pearson_flat").estimate == pytest.approx(pearsonr(x, y).statistic)
    assert estimate(table, "segment", "m", "kendall_tau_b_flat").estimate == pytest.approx(kendalltau(x, y).statistic)
    assert estimate(table, "segment", "m", "kendall_tau_b_flat").n == 11
    assert list(table.columns) == meta.COLUMNS


def test_system_level_statistics_and_orientation():
    # 4 systems × 2 segments; penalties: system means 0.5, 1.5, 2.5, 3.5
    human = [[0, 1, 2, 3], [1, 2, 3, 4]]
    good = [[90, 80, 70, 60], [80, 70, 60, 50]]  # higher is better, perfect order
    ter = [[0.1, 0.2, 0.3, 0.4], [0.1, 0.3, 0.2, 0.5]]  # an edit rate: lower is better
    h, m = frames(human, {"good": good, "ter": ter})
    table = meta.meta_evaluate(h, m, level="system", n_boot=0).table
    assert estimate(table, "system", "good", "pearson").estimate == pytest.approx(1.0)
    assert estimate(table, "system", "good", "pairwise_accuracy").estimate == 1.0
    # TER system means 0.1, 0.25, 0.25, 0.45: one tie among 6 pairs; τ_b = 5 / √(6 · 5)
    assert estimate(table, "system", "ter", "kendall_tau_b").estimate == pytest.approx(5 / np.sqrt(30))
    assert estimate(table, "system", "ter", "pairwise_accuracy").estimate == pytest.approx(5 / 6)
    assert estimate(table, "system", "ter", "pearson").estimate == pytest.approx(
        pearsonr([0.5, 1.5, 2.5, 3.5], [0.1, 0.25, 0.25, 0.45]).statistic
    )
    assert estimate(table, "system", "ter", "pearson").n == 4


def test_system_rows_are_used_when_given_and_the_choice_of_segments_is_reported():
    h, m = frames([[0, 1, 2], [np.nan, np.nan, np.nan]], {"x": [[3, 2, 1], [1, 2, 3]]})
    rows = pd.DataFrame({"system": ["S0", "S1", "S2"], "segment": np.nan, "metric": "x", "score": [1.0, 2.0, 3.0]})
    m = pd.concat([m, rows])
    given = meta.meta_evaluate(h, m, level="system", n_boot=50).table
    assert estimate(given, "system", "x", "kendall_tau_b").estimate == pytest.approx(-1.0)  # the system rows
    assert np.isnan(estimate(given, "system", "x", "kendall_tau_b").ci_low)  # a system row cannot be resampled
    rated = meta.meta_evaluate(h, m, level="system", segments="rated", n_boot=0).table
    assert estimate(rated, "system", "x", "kendall_tau_b").estimate == pytest.approx(1.0)  # segment 1 only
    scores = meta.system_level_scores(h, m, segments="all")
    assert scores.query("metric == 'x'")["score"].tolist() == [2.0, 2.0, 2.0]
    assert set(scores["source"]) == {"mean of rated segments", "mean of all segments"}
    choice = meta.segment_choice(h, m).set_index("statistic")
    assert np.isnan(choice.loc["kendall_tau_b", "all"])  # all three systems tie on all segments
    assert choice.loc["kendall_tau_b", "rated"] == pytest.approx(1.0)


def test_human_system_rows_higher_is_better():
    h = pd.DataFrame({"system": ["A", "B", "C"], "segment": np.nan, "score": [70.0, 60.0, 50.0]})  # DA
    m = pd.DataFrame(
        {"system": list("ABC") * 2, "segment": [1] * 3 + [2] * 3, "metric": "chrf", "score": [50, 40, 30, 52, 41, 33]}
    )
    table = meta.meta_evaluate(h, m, level="system", n_boot=0, human_higher_is_better=True).table
    assert estimate(table, "system", "chrf", "pairwise_accuracy").estimate == 1.0


def test_one_sided_systems_and_cells_are_counted_not_dropped_silently():
    h, m = frames([[0, 1, 2], [1, np.nan, 0]], {"x": [[3, 2, 1], [np.nan, 5, 6]]})
    m = pd.concat([m, pd.DataFrame({"system": ["extra"], "segment": [1.0], "metric": ["x"], "score": [1.0]})])
    result = meta.meta_evaluate(h, m, n_boot=0)
    u = result.unmatched.set_index(["only_in", "what"])
    assert list(result.unmatched.columns) == meta.UNMATCHED_COLUMNS
    assert u.loc[("metric", "system"), "n"] == 1 and u.loc[("metric", "system"), "examples"] == "extra"
    assert u.loc[("human", "segment"), "n"] == 1  # S0 segment 2 rated, no metric score
    assert u.loc[("metric", "segment"), "n"] == 2  # S1 segment 2 and extra segment 1
    assert estimate(result.table, "segment", "x", "pearson_flat").n == 4


def test_a_score_given_twice_is_refused_with_its_row_named():
    h, m = frames([[0, 1, 2], [1, 2, 0]], {"x": [[3, 2, 1], [4, 5, 6]], "y": [[1, 2, 3], [6, 5, 4]]})
    # the same (system, segment, metric) twice, with another metric's cell of that system and segment between
    twice = pd.concat([m, m[(m.metric == "y") & (m.system == "S1") & (m.segment == 2)]], ignore_index=True)
    with pytest.raises(
        ValueError, match=r"metric scores give system 'S1', segment \S*2\.0\S*, metric 'y' more than once"
    ):
        meta.meta_evaluate(h, twice, n_boot=0)
    # a metric's own system row twice
    rows = pd.DataFrame({"system": ["S0", "S0"], "segment": [np.nan] * 2, "metric": ["x"] * 2, "score": [1.0, 2.0]})
    with pytest.raises(ValueError, match=r"system 'S0', segment \S*nan\S*, metric 'x' more than once"):
        meta.meta_evaluate(h, pd.concat([m, rows], ignore_index=True), n_boot=0)
    # the same cell for two metrics is no repetition
    assert len(meta.meta_evaluate(h, m, n_boot=0).table)


def test_bootstrap_is_seeded_and_resamples_whole_documents():
    rng = np.random.default_rng(6)
    human = rng.integers(0, 5, (20, 4)).astype(float)
    metric = -human + rng.normal(0, 1, human.shape)
    h, m = frames(human, {"x": metric})
    one = meta.meta_evaluate(h, m, n_boot=200, seed=1).table
    two = meta.meta_evaluate(h, m, n_boot=200, seed=1).table
    pd.testing.assert_frame_equal(one, two)
    est = estimate(one, "segment", "x", "pearson_flat")
    assert est.ci_low < est.estimate < est.ci_high
    # a single document: every document resample is the whole test set, so the interval is the estimate
    h1, m1 = h.assign(doc="d1"), m.assign(doc="d1")
    doc = meta.meta_evaluate(h1, m1, n_boot=50, resample_by="doc").table
    for stat in ("pearson_item", "acc_eq_item", "pearson_flat"):
        r = estimate(doc, "segment", "x", stat)
        assert r.ci_low == pytest.approx(r.estimate) and r.ci_high == pytest.approx(r.estimate)


def test_point_only_statistics_keep_their_estimate_and_leave_the_others_resamples_unchanged():
    rng = np.random.default_rng(6)
    human = rng.integers(0, 5, (20, 4)).astype(float)
    h, m = frames(human, {"x": -human + rng.normal(0, 1, human.shape)})
    full = meta.meta_evaluate(h, m, n_boot=200, seed=1).table
    part = meta.meta_evaluate(h, m, n_boot=200, seed=1, point_only=["kendall_tau_b_flat", "pearson"]).table
    costly = (part.statistic == "kendall_tau_b_flat") | (part.statistic == "pearson")
    assert costly.sum() == 2 and part.loc[costly, ["ci_low", "ci_high"]].isna().all().all()
    assert full.loc[costly, ["ci_low", "ci_high"]].notna().all().all()
    pd.testing.assert_frame_equal(part[~costly], full[~costly])  # the same resamples for every other statistic
    pd.testing.assert_frame_equal(part.drop(columns=["ci_low", "ci_high"]), full.drop(columns=["ci_low", "ci_high"]))


# --------------------------------------------------------------------------- PERM-BOTH


def test_every_statistic_matches_mt_metrics_eval_on_a_small_test_set():
    """6 systems × 40 segments, MQM-like ties, 15 % of the human scores missing. The expected
    values were computed with google-research/mt-metrics-eval (commit 68a481a, stats.py:
    AverageCorrelation with pearsonr / KendallVariants(variant="b"), average_by "none" and
    "item"; KendallWithTiesOpt(variant="acc23", average_by="item", sample_rate=1); system level
    pearsonr, KendallVariants, Agreement) on the same arrays, gold packed system by system."""
    rng = np.random.default_rng(11)
    n_sys, n_seg = 6, 40
    human = rng.integers(0, 6, (n_seg, n_sys)).astype(float) * -1.0
    metric = np.round(human + rng.normal(0, 1.5, human.shape) + np.arange(n_sys) * 0.3, 2)
    human[rng.random(human.shape) < 0.15] = np.nan
    h, m = frames(-human, {"x": metric})  # penalties in the file, as MQM gives them
    t = meta.meta_evaluate(h, m, n_boot=0).table.set_index(["level", "statistic"])["estimate"]
    expected = {
        ("segment", "pearson_flat"): 0.7935239520885753,
        ("segment", "kendall_tau_b_flat"): 0.6460930691735661,
        ("segment", "pearson_item"): 0.8133563026078547,
        ("segment", "kendall_tau_b_item"): 0.6606152261757477,
        ("segment", "acc_eq_item"): 0.7266666666666667,
        ("segment", "acc_eq_epsilon_item"): 0.29,
        ("system", "pearson"): 0.9032081119141937,
        ("system", "kendall_tau_b"): 0.2,
        ("system", "pairwise_accuracy"): 0.6,
    }
    for key, value in expected.items():
        assert t[key] == pytest.approx(value, abs=1e-12), key


def test_rated_segments_need_human_segment_scores():
    h = pd.DataFrame({"system": ["A", "B"], "segment": np.nan, "score": [70.0, 60.0]})
    m = pd.DataFrame({"system": ["A", "B"], "segment": [1, 1], "metric": "chrf", "score": [50.0, 40.0]})
    with pytest.raises(ValueError, match="segments='rated' needs human segment scores"):
        meta.meta_evaluate(h, m, level="system", segments="rated", n_boot=0, human_higher_is_better=True)


def test_fewer_than_three_systems_give_no_correlation_and_say_so():
    """Issue 42: two systems gave "r = 1.000 [1.000, 1.000]" and a best metric."""
    human, scores = frames(
        [[1.0, 2.0], [3.0, 1.0], [2.0, 2.5], [0.0, 1.0]], {"m": [[5.0, 4.0], [1.0, 2.0], [3.0, 2.0], [4.0, 4.5]]}
    )
    result = meta.meta_evaluate(human, scores, segments="all", n_boot=50)
    system = result.table[result.table["level"] == "system"]
    assert system["estimate"].isna().all() and system["ci_low"].isna().all() and (system["n"] == 2).all()
    item = result.table[result.table["statistic"] == "pearson_item"]
    assert item["estimate"].isna().all()  # every segment has two systems: each r is +-1
    assert not np.isnan(estimate(result.table, "segment", "m", "pearson_flat").estimate)  # 8 cells: defined
    assert any("2 system(s)" in note and "fewer than 3" in note for note in result.notes)


def test_weighted_acc_eq_is_acc_eq_on_the_items_repeated_by_their_weights():
    from helpers.metrics.correlations import tie_calibrated_accuracy
    from helpers.metrics.meta import tie_calibrated_accuracy_weighted

    rng = np.random.default_rng(4)
    human, metric = rng.integers(0, 4, (6, 5)).astype(float), rng.normal(size=(6, 5)).round(1)
    weights = np.array([[2, 1, 0, 0, 1, 3], [0, 0, 1, 1, 1, 0]])
    acc, eps = tie_calibrated_accuracy_weighted(human, metric, weights)
    for row, a, e in zip(weights, acc, eps):
        keep = np.repeat(np.arange(6), row)
        assert (a, e) == pytest.approx(tie_calibrated_accuracy(human[keep], metric[keep]))


def test_weighted_acc_eq_by_clusters_and_exact_rows_is_acc_eq_on_the_repeated_items():
    """Sums taken per cluster (items sharing a weight in every row) and estimate rows searched over
    every threshold give what the items repeated by their weights give (tie_calibrated_accuracy)."""
    from helpers.core.statistics import stats
    from helpers.metrics.correlations import RESAMPLE_THRESHOLDS, tie_calibrated_accuracy
    from helpers.metrics.meta import tie_calibrated_accuracy_weighted

    rng = np.random.default_rng(5)
    human, metric = rng.integers(0, 4, (12, 5)).astype(float), rng.normal(size=(12, 5)).round(2)
    docs = np.repeat(["a", "b", "c", "d"], 3)
    mask = np.array([1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1], dtype=bool)
    draws = stats.resample(12, 40, seed=1, clusters=docs) * mask
    weights = np.concatenate([mask[None, :].astype(float), draws])
    parts = [f"{d}|{m}" for d, m in zip(docs, mask)]
    acc, eps = tie_calibrated_accuracy_weighted(human, metric, weights, clusters=parts, exact=1)
    assert (acc[0], eps[0]) == pytest.approx(tie_calibrated_accuracy(human[mask], metric[mask]), abs=1e-15)
    assert 5 * 4 // 2 * 12 < RESAMPLE_THRESHOLDS  # every threshold is a candidate: resamples are exact too
    for row, a in zip(draws, acc[1:]):  # (ε: the smallest of a plateau, which rounding may pick otherwise)
        keep = np.repeat(np.arange(12), row.astype(int))
        assert a == pytest.approx(tie_calibrated_accuracy(human[keep], metric[keep])[0], abs=1e-12)
    with pytest.raises(ValueError, match="differ within a cluster"):
        tie_calibrated_accuracy_weighted(human, metric, draws, clusters=docs)
