"""Record mt-metrics-eval's own values on the WMT22 ZH-EN copy (tests/metrics/data/mtme_wmt22_reference.csv).

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
average_by none and item, KendallWithTiesOpt acc23 average_by item sample_rate 1.0); K > 0 also runs
CompareMetrics (PERM-BOTH, np.random.seed(0)) at system level.
"""

import os
import sys

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
rows = []
include_human = {"no_human": False, "with_refB": True}[only_setting]
corrs = data.GetCorrelations(evs, only_level, {"refA"}, set(), include_human, False, "mqm", False)
for metric, c in corrs.items():
    if only_metrics and metric not in only_metrics:
        continue
    if only_level == "sys":
        agree, pairs = stats.Agreement(c.gold_scores, c.metric_scores)
        rows.append((metric, "pairwise_accuracy", float(agree) / pairs))
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
        rows += [(metric, "acc_eq_item", float(acc)), (metric, "acc_eq_epsilon_item", float(eps))]
    for stat, (fn, avg) in fns.items():
        wrap = stats.AverageCorrelation(fn, c.num_sys, average_by=avg, filter_nones=c.none_count)
        rows.append((metric, stat, float(wrap(c.gold_scores, c.metric_scores)[0])))
frame = pd.DataFrame(rows, columns=["metric", "statistic", "value"]).assign(
    setting=only_setting, level=only_level, n_systems=next(iter(corrs.values())).num_sys
)
frame.to_csv(os.path.join(out, f"values_{only_setting}_{only_level}.csv"), index=False, float_format="%.17g")
if k and only_level == "sys":
    np.random.seed(0)
    ranked, _, _, _ = data.CompareMetrics(
        corrs, scipy.stats.pearsonr, "none", k=k, psd=stats.PermutationSigDiffParams(block_size=k)
    )
    pd.DataFrame([(m, v, r) for m, (v, r) in ranked.items()], columns=["metric", "pearson", "cluster"]).to_csv(
        os.path.join(out, f"clusters_{only_setting}.csv"), index=False, float_format="%.17g"
    )
