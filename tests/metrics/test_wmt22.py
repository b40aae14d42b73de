"""Chapter 09's WMT22 ZH→EN section (helpers.metrics.wmt22) against mt-metrics-eval's own code.

``data/mtme_wmt22_reference.csv`` holds the values mt-metrics-eval (google-research/mt-metrics-eval at
68a481a) computes on the registry's WMT22 copy, recorded by ``tools/mtme_wmt22_reference.py`` (its header
says the command): every statistic of the section's system and segment levels for all 31 metric files in
both settings. The book's statistics on the same files must equal them to 1e-9 (the recorded values differ
from a rerun by ~1e-16, the summation order of systems), with exact ties (``tie_tolerance=0``) as
mt-metrics-eval tests them.

``data/mtme_wmt22_clusters.csv`` and ``data/mtme_wmt22_pvalues.csv`` hold mt-metrics-eval's PERM-BOTH
(``CompareMetrics``, np.random.seed(0), k permutations per pair) at system level. The book draws its own
permutations, so its p-values are other Monte Carlo estimates of the same p-values: they must agree
within 4 binomial standard errors of the difference of two estimates (plus the book's +1 correction),
and the clusters wherever no decision at 0.05 lies within that noise.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers.core.formats import testsets
from helpers.metrics import correlations, files, meta, significance, wmt22

REFERENCE = Path(__file__).parent / "data" / "mtme_wmt22_reference.csv"
CLUSTERS = Path(__file__).parent / "data" / "mtme_wmt22_clusters.csv"
PVALUES = Path(__file__).parent / "data" / "mtme_wmt22_pvalues.csv"


@pytest.fixture(scope="module")
def wmt22_set():
    """Every score file of the copy read once: (human, metric scores) with the human translations."""
    return files.mtme_scores(testsets.get("wmt22").load(), "mqm", references=True)


def _ours(es, setting: str, level: str, metrics=None) -> pd.DataFrame:
    human, scores = wmt22.in_setting(*es, setting)
    scores = scores[scores["metric"].isin(metrics)] if metrics else scores
    return meta.meta_evaluate(
        human,
        scores,
        level="system" if level == "sys" else "segment",
        segments="all",
        n_boot=0,
        human_higher_is_better=True,
        lower_is_better=(),
        tie_tolerance=0,
    ).table


@pytest.mark.parametrize("setting", ["no_human", "with_refB"])
def test_system_level_equals_mt_metrics_eval_on_every_metric(wmt22_set, setting):
    ref = pd.read_csv(REFERENCE, comment="#").query("setting == @setting and level == 'sys'")
    assert ref["metric"].nunique() == 31  # every metric file of the copy
    got = ref.merge(_ours(wmt22_set, setting, "sys"), on=["metric", "statistic"], how="left")
    assert got["estimate"].notna().all()
    assert (got["estimate"] - got["value"]).abs().max() < 1e-9
    assert (got["n"] == got["n_systems"]).all()  # 14 systems without the human translations, 15 with refB


def _accuracy_curve(es, setting: str, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """The book's item-averaged acc_eq at every candidate threshold (0 and each distinct |m_i - m_j|) of one
    metric, exact ties: (thresholds, accuracies)."""
    human, scores = wmt22.in_setting(*es, setting)
    a = meta._align(human, scores[scores["metric"] == metric], True, (), tolerance=0)
    pairs = correlations._tie_pairs(a.human, a.metrics[metric])
    thresholds = np.r_[0.0, pairs.diff[pairs.last]]
    counts = correlations._tie_calibrated_counts(pairs, thresholds)
    return thresholds, correlations._tie_calibrated_curve(pairs, np.ones((1, a.human.shape[0])), counts)[0]


@pytest.mark.parametrize("setting", ["no_human", "with_refB"])
def test_segment_level_equals_mt_metrics_eval_on_every_metric(wmt22_set, setting):
    """Every statistic of :data:`helpers.metrics.wmt22.SEGMENT` has its mt-metrics-eval counterpart (the
    threshold ``acc_eq_epsilon_item`` is KendallWithTiesOpt's best_threshold): all 31 metrics, to 1e-9.

    The threshold is a value only where one threshold maximises the accuracy: where several reach the same
    accuracy up to rounding (1e-16), mt-metrics-eval returns whichever its running sums round highest and the
    book the smallest, so there both must be maximisers of the book's accuracy curve (to 1e-12)."""
    ref = pd.read_csv(REFERENCE, comment="#").query("setting == @setting and level == 'seg'")
    assert ref["metric"].nunique() == 31
    assert set(ref["statistic"]) == set(wmt22.SEGMENT)
    got = ref.merge(_ours(wmt22_set, setting, "seg"), on=["metric", "statistic"], how="left")
    assert got["estimate"].notna().all()
    diff = (got["estimate"] - got["value"]).abs()
    value = got["statistic"] != "acc_eq_epsilon_item"
    assert diff[value].max() < 1e-9, got[value].assign(d=diff).sort_values("d").tail()
    for _, row in got[~value & (diff >= 1e-9)].iterrows():
        thresholds, curve = _accuracy_curve(wmt22_set, setting, row["metric"])
        for eps in (row["value"], row["estimate"]):
            at = np.searchsorted(thresholds, eps - 1e-12)
            assert abs(thresholds[at] - eps) < 1e-9 and curve[at] > curve.max() - 1e-12, (row["metric"], eps)


@pytest.fixture(scope="module")
def wmt22_clusters(wmt22_set):
    """The book's PERM-BOTH and clusters on system-level Pearson r, with as many permutations as
    mt-metrics-eval's recorded run."""
    k = int(pd.read_csv(CLUSTERS, comment="#")["k"].iloc[0])
    return (k, *wmt22.clusters(wmt22_set, n_perm=k, seed=0))


def _resampling_tolerance(p: pd.Series, k_theirs: int, k_ours: int) -> pd.Series:
    """4 standard errors of the difference of two independent Monte Carlo estimates of one p-value (binomial
    SE sqrt(p(1 - p) / k) for each, p their mean but at least 1/k), plus the book's +1 in numerator and
    denominator (at most 1/(k + 1))."""
    q = p.clip(lower=1 / min(k_theirs, k_ours), upper=1 - 1 / min(k_theirs, k_ours))
    se = np.sqrt(q * (1 - q) / k_theirs + q * (1 - q) / k_ours)
    return 4 * se + 1 / (k_ours + 1)


@pytest.mark.parametrize("setting", ["no_human", "with_refB"])
def test_perm_both_p_values_agree_with_mt_metrics_eval_within_resampling_noise(wmt22_clusters, setting):
    """mt-metrics-eval's CompareMetrics p-values (np.random.seed(0)) against the book's (its own generator):
    the same null and test, so they differ only by Monte Carlo noise."""
    k, comparison, _ = wmt22_clusters
    theirs = pd.read_csv(PVALUES, comment="#").query("setting == @setting")
    assert len(theirs) == 31 * 30 // 2
    got = theirs.merge(comparison.query("setting == @setting"), on=["metric_a", "metric_b"], how="left")
    assert got["p_y"].notna().all()
    tolerance = _resampling_tolerance((got["p_x"] + got["p_y"]) / 2, int(theirs["k"].iloc[0]), k)
    assert ((got["p_y"] - got["p_x"]).abs() <= tolerance).all(), got[(got["p_y"] - got["p_x"]).abs() > tolerance]


@pytest.mark.parametrize("setting", ["no_human", "with_refB"])
def test_clusters_equal_mt_metrics_eval_up_to_decisions_within_resampling_noise(wmt22_clusters, setting):
    """The order of metrics is mt-metrics-eval's, and the clustering rule on its own p-values gives its clusters
    exactly. The book's clusters differ from its only through pairs whose decision at 0.05 differs between the two
    Monte Carlo runs while their p-values agree within resampling noise: with mt-metrics-eval's p at those pairs
    (and the book's everywhere else) the rule gives mt-metrics-eval's clusters."""
    k, comparison, ranks = wmt22_clusters
    theirs = pd.read_csv(CLUSTERS, comment="#").query("setting == @setting").reset_index(drop=True)
    ours = ranks.query("setting == @setting").reset_index(drop=True)
    assert ours["metric"].tolist() == theirs["metric"].tolist()
    assert (ours["estimate"] - theirs["pearson"]).abs().max() < 1e-9
    their_p = pd.read_csv(PVALUES, comment="#").query("setting == @setting")
    rule = significance.metric_clusters(theirs.rename(columns={"pearson": "estimate"}), their_p)
    assert rule["rank"].tolist() == theirs["cluster"].tolist()
    both = their_p.merge(comparison.query("setting == @setting"), on=["metric_a", "metric_b"], how="left")
    flipped = (both["p_x"] <= 0.05) != (both["p_y"] <= 0.05)
    tolerance = _resampling_tolerance((both["p_x"] + both["p_y"]) / 2, int(their_p["k"].iloc[0]), k)
    assert ((both["p_y"] - both["p_x"]).abs() <= tolerance)[flipped].all()
    patched = both.assign(p=both["p_y"].where(~flipped, both["p_x"]))
    assert (
        significance.metric_clusters(ours[["metric", "estimate"]], patched)["rank"].tolist()
        == theirs["cluster"].tolist()
    )
    if not flipped.any():
        assert ours["rank"].tolist() == theirs["cluster"].tolist()
