"""The agreement statistics (helpers.metrics.correlations) on small hand-computed cases, against scipy
and against their definitions."""

import itertools

import numpy as np
import pytest
from scipy.stats import kendalltau, pearsonr

from helpers.core.statistics.correlation import kendall_tau_b, pearson
from helpers.metrics import correlations


def test_pearson_by_hand_and_against_scipy():
    # centred x = (−1.5, −.5, .5, 1.5), y = (−1.5, .5, −.5, 1.5): Σxy = 4, Σx² = Σy² = 5
    assert pearson([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=30), rng.normal(size=30)
    assert pearson(x, y) == pytest.approx(pearsonr(x, y).statistic, abs=1e-12)
    assert np.isnan(pearson([1, 1, 1], [1, 2, 3]))  # constant: undefined, as mt-metrics-eval


def test_kendall_tau_b_with_ties_by_hand_and_against_scipy():
    # pairs: (1,2) tied in y, (2,3) tied in x, the other 4 concordant: 4 / √(5 · 5)
    assert kendall_tau_b([1, 2, 2, 3], [1, 1, 2, 3]) == pytest.approx(0.8)
    rng = np.random.default_rng(4)
    x, y = rng.integers(0, 4, 25), rng.integers(0, 5, 25)  # many ties
    assert kendall_tau_b(x, y) == pytest.approx(kendalltau(x, y, variant="b").statistic, abs=1e-12)
    assert np.isnan(kendall_tau_b([2, 2, 2], [1, 2, 3]))


def test_pairwise_accuracy_by_hand():
    assert correlations.pairwise_accuracy([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(5 / 6)  # one pair swapped
    assert correlations.pairwise_accuracy([1, 1, 2], [0, 0, 1]) == 1.0  # a tie on both sides agrees
    assert correlations.pairwise_accuracy([1, 1, 2], [0, 0.5, 1]) == pytest.approx(2 / 3)  # a tie on one side does not


def test_tie_calibration_by_hand():
    # item 1: humans tie A, B (metric gap 0.2); item 2: humans tie A, B (metric gap 0.1); the rest concordant.
    # ε = 0: 2/3 and 2/3; ε = 0.1: 2/3 and 3/3; ε = 0.2: 3/3 and 3/3 (= 1); ε = 0.8 breaks item 1's (B, C).
    human = [[0, 0, 1], [1, 1, 3]]
    metric = [[0.0, 0.2, 1.0], [1.0, 1.1, 3.0]]
    acc, eps = correlations.tie_calibrated_accuracy(human, metric)
    assert acc == pytest.approx(1.0)
    assert eps == pytest.approx(0.2)
    # without human ties no threshold helps: ε stays 0 (the smallest of the best)
    assert correlations.tie_calibrated_accuracy([[1, 2, 3]], [[1, 2, 3]]) == (1.0, 0.0)
    # an item with one system scored has no pair and leaves the mean
    acc2, _ = correlations.tie_calibrated_accuracy([[0, 0, 1], [5, np.nan, np.nan]], [[0.0, 0.2, 1.0], [1, 2, 3]])
    assert acc2 == pytest.approx(1.0)


def brute_force_acc_eq(human, metric):
    """acc_eq straight from its definition: every candidate ε, every item, every pair."""
    human, metric = np.asarray(human, float), np.asarray(metric, float)
    diffs = {0.0}
    for h, m in zip(human, metric):
        ok = ~np.isnan(h) & ~np.isnan(m)
        diffs |= {abs(a - b) for a, b in itertools.combinations(m[ok], 2)}
    best = (-1.0, None)
    for eps in sorted(diffs):
        accs = []
        for h, m in zip(human, metric):
            ok = ~np.isnan(h) & ~np.isnan(m)
            right = total = 0
            for (h1, m1), (h2, m2) in itertools.combinations(zip(h[ok], m[ok]), 2):
                total += 1
                m_tie, h_tie = abs(m1 - m2) <= eps, h1 == h2
                right += (m_tie and h_tie) or (not m_tie and not h_tie and (h1 - h2) * (m1 - m2) > 0)
            if total:
                accs.append(right / total)
        if np.mean(accs) > best[0] + 1e-12:
            best = (float(np.mean(accs)), eps)
    return best


def test_tie_calibration_matches_its_definition_on_random_items():
    rng = np.random.default_rng(5)
    human = rng.integers(0, 4, (12, 5)).astype(float)  # MQM-like: many ties
    metric = np.round(human + rng.normal(0, 1.0, human.shape), 1)
    human[0, :4] = np.nan  # one system only: no pair
    metric[3, 2] = np.nan
    acc, eps = correlations.tie_calibrated_accuracy(human, metric)
    ref_acc, ref_eps = brute_force_acc_eq(human, metric)
    assert acc == pytest.approx(ref_acc)
    assert eps == pytest.approx(ref_eps)


# --------------------------------------------------------------------------- meta_evaluate


def test_scores_equal_but_for_rounding_are_ties():
    """Issue 42: means of raters' penalties were tested for ties by exact equality, so a tie such as
    (0.1 + 0.2) against 0.3 was counted as an order."""
    human, metric = [0.1 + 0.2, 0.3, 1.0], [0.5, 0.5, 2.0]  # the humans tie the first two, as the metric does
    assert correlations.pairwise_accuracy(human, metric) == 1.0  # all three pairs agree
    assert correlations.pairwise_accuracy(human, metric, tolerance=0) == pytest.approx(2 / 3)  # the old count
    assert kendall_tau_b(human, metric, tolerance=correlations.TIE_TOLERANCE) == pytest.approx(
        1.0
    )  # C = 2, D = 0, one tie on both sides
    assert correlations.tie_calibrated_accuracy([human], [metric]) == (1.0, 0.0)
    assert correlations.tie_calibrated_accuracy([human], [metric], tolerance=0)[0] == pytest.approx(2 / 3)
    # a real difference is never snapped: 1e-6 apart on a scale of 1
    assert correlations.pairwise_accuracy([0.3, 0.300001, 1.0], metric) == pytest.approx(2 / 3)


def test_snap_ties_joins_runs_and_keeps_nan():
    got = correlations.snap_ties([[np.nan, 3.0, 3.0 + 1e-14, 2.0], [1.0, 1.0 + 2e-10, 1.0 + 4e-10, 5.0]])
    assert np.isnan(got[0, 0]) and got[0, 1] == got[0, 2] == 3.0 and got[0, 3] == 2.0
    assert got[1, 0] == got[1, 1] == got[1, 2] == 1.0  # a run of steps each below 1e-9 x 5 joins whole


def test_the_best_threshold_of_a_resample_is_the_first_within_rounding_of_the_best():
    """Near-equal maxima (a BLAS product's last digits, which follow the thread count) resolve to the smallest
    threshold, not to whichever rounded highest; real differences still decide, and an all-NaN row gives 0."""
    from helpers.metrics.correlations import _first_best

    curve = np.array(
        [
            [0.5, 0.7 - 1e-16, 0.7, 0.6],  # equal up to rounding: the first
            [0.5, 0.7 - 1e-9, 0.7, 0.6],  # a real difference: the larger
            [np.nan, 0.4, 0.4, np.nan],
            [np.nan, np.nan, np.nan, np.nan],
        ]
    )
    assert _first_best(curve).tolist() == [1, 2, 1, 0]
