"""Chapter 08's statistics on small cases with known answers (helpers.core.stats/agreement)."""

from __future__ import annotations

from itertools import product

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from helpers.core import agreement as ag
from helpers.core import stats


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
    p = np.array([[1, .20, .01, .01, .001],
                  [0, 1, .30, .02, .001],
                  [0, 0, 1, .30, .04],
                  [0, 0, 0, 1, .03],
                  [0, 0, 0, 0, 1]])
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


def test_rater_bias_three_raters_with_document_clusters():
    s = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3], "doc": ["x"] * 6 + ["y"] * 3,
                      "annotator": list("ABC") * 3, "v": [3, 0, 0, 6, 3, 0, 1, 1, 1]})
    got = ag.rater_bias(s, "v", clusters="doc").set_index("rater")
    # A: 3 − 0, 6 − 1.5, 1 − 1 -> mean 2.5; C: 0 − 1.5, 0 − 4.5, 0 -> −2
    assert got.loc["A", "bias"] == pytest.approx(2.5) and got.loc["C", "bias"] == pytest.approx(-2.0)
    assert got.loc["A", "n_clusters"] == 2
    low, high = stats.cluster_t_interval([3, 4.5, 0], ["x", "x", "y"])
    assert (got.loc["A", "ci_low"], got.loc["A", "ci_high"]) == pytest.approx((low, high))


def _spans():
    unit = {"system": "s", "doc": "d", "doc_seg_id": 1}
    rows = [("A", "target", 0, 5, "Accuracy", "Major"), ("A", "target", 10, 12, "Fluency", "Minor"),
            ("B", "target", 3, 8, "Accuracy", "Minor"), ("B", "target", 20, 25, "Style", "Minor"),
            ("B", "source", 0, 4, "Accuracy", "Minor")]
    spans = pd.DataFrame([{**unit, "rater": r, "side": sd, "start": a, "end": b, "category": c, "severity": v}
                          for r, sd, a, b, c, v in rows])
    rated = pd.DataFrame([{**unit, "rater": r} for r in "ABC"])
    return spans, rated


def test_span_agreement_on_hand_made_spans():
    spans, rated = _spans()
    m = ag.span_matches(spans, rated, ["system", "doc", "doc_seg_id"]).set_index(["rater_a", "rater_b"])
    ab = m.loc[("A", "B")]
    assert (ab["spans_a"], ab["spans_b"]) == (2, 3)
    # A[0,5) overlaps B[3,8) (same side, same category, other severity); nothing else overlaps
    assert (ab["matched_a_overlap"], ab["matched_b_overlap"]) == (1, 1)
    assert (ab["matched_a_overlap+category"], ab["matched_b_overlap+category"]) == (1, 1)
    assert (ab["matched_a_overlap+category+severity"], ab["matched_b_overlap+category+severity"]) == (0, 0)
    # characters: A marks 0-4 and 10-11 (7), B 3-7, 20-24 and source 0-3 (14); both: 3, 4
    assert (ab["chars_a"], ab["chars_b"], ab["chars_both"]) == (7, 14, 2)
    ac = m.loc[("A", "C")]  # C rated the segment and marked nothing
    assert (ac["spans_a"], ac["spans_b"], ac["matched_a_overlap"]) == (2, 0, 0)
    table = ag.span_agreement(m.reset_index()).set_index("criterion")["agreement"]
    # spans: A–B 5 spans, 2 matched; A–C 2, none; B–C 3, none -> 2 / 10
    assert table["overlap"] == pytest.approx(2 / 10) and table["overlap+category+severity"] == 0
    assert table["characters"] == pytest.approx(2 * 2 / (7 + 14 + 7 + 14))


def test_span_agreement_resamples_as_weights():
    spans, rated = _spans()
    m = ag.span_matches(spans, rated, ["system", "doc", "doc_seg_id"])
    twice = ag.span_agreement(m, np.array([[2, 0, 0]]))  # only the A–B pair, twice
    assert twice.set_index("criterion").loc["overlap", "agreement"] == pytest.approx(2 / 5)


def test_oneway_icc_is_pingouins_icc1():
    import pingouin as pg

    rng = np.random.default_rng(5)
    data = rng.normal(0, 1, (30, 1)) + rng.normal(0, 0.7, (30, 3))
    long = pd.DataFrame([{"unit": u, "slot": k, "v": data[u, k]} for u in range(30) for k in range(3)])
    res = pg.intraclass_corr(long, targets="unit", raters="slot", ratings="v").set_index("Type")
    assert ag.oneway_icc(data) == pytest.approx((res.loc["ICC(1,1)", "ICC"], res.loc["ICC(1,k)", "ICC"]))


def test_oneway_icc_by_cluster_leaves_documents_out():
    data = np.array([[1, 2], [3, 5], [6, 6], [2, 2], [7, 5], [4, 4.5]])
    docs = ["a", "a", "b", "b", "c", "c"]
    got = ag.oneway_icc_by_cluster(data, docs).set_index("statistic")
    loo = [ag.oneway_icc(data[[i for i, d in enumerate(docs) if d != g]])[0] for g in "abc"]
    low, high = stats.jackknife_t_interval(ag.oneway_icc(data)[0], loo)
    assert got.loc["ICC(1,1)", "jackknife_ci_low"] == pytest.approx(low)
    assert got.loc["ICC(1,1)", "jackknife_ci_high"] == pytest.approx(min(high, 1.0))
    assert got.loc["ICC(1,1)", "n_clusters"] == 3
