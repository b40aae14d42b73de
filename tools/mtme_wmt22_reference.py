"""Record mt-metrics-eval's own values on the WMT22 ZH-EN copy (tests/metrics/data/mtme_wmt22_reference.csv and
tests/metrics/data/mtme_wmt22_clusters.csv).

Not part of the package and not run by the tests: it needs a checkout of google-research/mt-metrics-eval
(recorded at commit 68a481aea1a787392d55af8f76ac8ef40c5f4664) on PYTHONPATH, with stand-in modules for its
imports that these computations never call (apache_beam, dacite: empty packages), and a directory laid out
as mt-metrics-eval expects (ROOT/wmt22/...: the copy's sources, references, system-outputs, documents;
human-scores holding human-scores/zh-en.mqm.seg.score and human-score_sd/zh-en.mqm.*; metric-scores/zh-en
holding every file of metric-scores/zh-en_ref and zh-en_qe). The copy has no system-level metric files, so
each metric's system score is added as the mean of its segment scores (EvalSet.AddMetric), as this book does.

    PYTHONPATH=STUBS:MT_METRICS_EVAL python tools/mtme_wmt22_reference.py ROOT OUT K SETTING LEVEL [M1,M2,...]

SETTING ``no_human`` (GetCorrelations include_human=False) or ``with_refB`` (True; refA is the main
reference); LEVEL ``sys`` (pearsonr, kendalltau, Agreement / pairs) or ``seg`` (pearsonr and kendalltau with
average_by none and item, KendallWithTiesOpt acc23 average_by item sample_rate 1.0: its accuracy and its
optimal threshold). Values go to OUT/values_SETTING_LEVEL.csv one metric at a time (a metric already in the
file is skipped, so an interrupted segment-level run resumes; progress on stderr). K > 0 also runs
CompareMetrics (PERM-BOTH on system-level pearsonr, K permutations per pair without early stopping,
np.random.seed(0)) at system level: OUT/clusters_SETTING.csv (metric, pearson, cluster) and
OUT/pvalues_SETTING.csv (metric_a, metric_b, p: the significance matrix's entry for a ranked above b, the
p-value of the null that b's correlation is at least a's).
"""

import os
import sys
import time

import numpy as np
import pandas as pd
import scipy.stats
from mt_metrics_eval import data, stats

root, out, k, only_setting, only_level = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
only_metrics = sys.argv[6].split(",") if len(sys.argv) > 6 else None
evs = data.EvalSet("wmt22", "zh-en", read_stored_metric_scores=True, path=root, strict=True)
for name in sorted(evs.metric_names):
    base, refs = evs.ParseMetricName(name)
    evs.AddMetric(base, refs, "sys", {s: [float(np.mean(v))] for s, v in evs.Scores("seg", name).items()})
include_human = {"no_human": False, "with_refB": True}[only_setting]
corrs = data.GetCorrelations(evs, only_level, {"refA"}, set(), include_human, False, "mqm", False)
path = os.path.join(out, f"values_{only_setting}_{only_level}.csv")
done = set(pd.read_csv(path)["metric"]) if os.path.exists(path) else set()


def values(c) -> list[tuple[str, float]]:
    """mt-metrics-eval's statistics of one metric's Correlation object at the run's level."""
    rows = []
    if only_level == "sys":
        agree, pairs = stats.Agreement(c.gold_scores, c.metric_scores)
        rows.append(("pairwise_accuracy", float(agree) / pairs))
        fns = {"pearson": (scipy.stats.pearsonr, "none"), "kendall_tau_b": (scipy.stats.kendalltau, "none")}
    else:
        fns = {
            "pearson_flat": (scipy.stats.pearsonr, "none"),
            "kendall_tau_b_flat": (scipy.stats.kendalltau, "none"),
            "pearson_item": (scipy.stats.pearsonr, "item"),
            "kendall_tau_b_item": (scipy.stats.kendalltau, "item"),
        }
        acc, eps, _ = stats.KendallWithTiesOpt(
            c.gold_scores, c.metric_scores, variant="acc23", num_sys=c.num_sys, average_by="item", sample_rate=1.0
        )
        rows += [("acc_eq_item", float(acc)), ("acc_eq_epsilon_item", float(eps))]
    for stat, (fn, avg) in fns.items():
        wrap = stats.AverageCorrelation(fn, c.num_sys, average_by=avg, filter_nones=c.none_count)
        rows.append((stat, float(wrap(c.gold_scores, c.metric_scores)[0])))
    return rows


todo = [m for m in corrs if (not only_metrics or m in only_metrics) and m not in done]
for i, metric in enumerate(todo, start=1):
    start = time.time()
    c = corrs[metric]
    frame = pd.DataFrame(values(c), columns=["statistic", "value"]).assign(
        metric=metric, setting=only_setting, level=only_level, n_systems=c.num_sys
    )
    frame = frame[["metric", "statistic", "value", "setting", "level", "n_systems"]]
    frame.to_csv(path, mode="a", header=not os.path.exists(path), index=False, float_format="%.17g")
    print(f"{only_setting} {only_level} {i}/{len(todo)} {metric} {time.time() - start:.1f} s", file=sys.stderr)
if k and only_level == "sys":
    np.random.seed(0)
    ranked, matrix, _, _ = data.CompareMetrics(
        corrs, scipy.stats.pearsonr, "none", k=k, psd=stats.PermutationSigDiffParams(block_size=k)
    )
    pd.DataFrame([(m, v, r) for m, (v, r) in ranked.items()], columns=["metric", "pearson", "cluster"]).assign(
        k=k
    ).to_csv(os.path.join(out, f"clusters_{only_setting}.csv"), index=False, float_format="%.17g")
    names = list(ranked)
    pairs = [(names[i], names[j], matrix[i, j]) for i in range(len(names)) for j in range(i + 1, len(names))]
    pd.DataFrame(pairs, columns=["metric_a", "metric_b", "p"]).assign(k=k).to_csv(
        os.path.join(out, f"pvalues_{only_setting}.csv"), index=False, float_format="%.17g"
    )
