"""Chapters 1–2's findings frames and their words: hand-made tables, every branch of a sentence.

Each findings function is called on a small table whose verdicts are known by construction
(an interval above, below or across 0), and the chapter's
words file is rendered from the frame it returns.
"""

from __future__ import annotations

import pandas as pd

from helpers.core.findings import Words
from helpers.core.stats import FEW_CLUSTERS
from helpers.metahope import chapters


def _effect(rows):
    """A :func:`helpers.core.agreement.bootstrap_difference` table as chapter 1 renames it."""
    return pd.DataFrame(rows, columns=["system", "metric", "linear (MetaHOPE)", "exponential (HOPE)", "difference",
                                       "cluster_ci_low", "cluster_ci_high", "jackknife_ci_low", "jackknife_ci_high"])


def test_weighting_verdicts_read_the_t_interval_and_kappa_only_where_it_excludes_zero():
    effect = _effect([
        ("S1", "alpha", 0.50, 0.30, 0.20, 0.15, 0.25, 0.05, 0.35),  # t interval above 0: linear
        ("S2", "alpha", 0.30, 0.50, -0.20, -0.25, -0.15, -0.35, -0.05),  # below 0: exponential
        ("S3", "alpha", 0.40, 0.39, 0.01, 0.001, 0.02, -0.10, 0.12),  # percentile excludes 0, t does not
        ("S1", "weighted_kappa", 0.6, 0.7, -0.10, -0.2, -0.05, -0.15, -0.02),
        ("S2", "weighted_kappa", 0.6, 0.6, 0.00, -0.1, 0.1, -0.2, 0.2),
    ])
    found = chapters.weighting(effect)
    verdicts = found[found["quantity"] == "difference"].set_index("group")["verdict"]
    assert verdicts.to_dict() == {"S1": "linear", "S2": "exponential", "S3": "neither"}
    kappa = found[found["quantity"] == "kappa"]
    assert kappa["group"].tolist() == ["S1"] and kappa["text"].tolist() == ["exponential"]
    text = Words("01_metahope_pilot_v1", shared=chapters.SHARED_WORDS).text("weighting", found)
    assert "**S1**: α 0.500 linear vs 0.300 exponential, difference +0.200 (jackknife t [+0.050, +0.350], percentile [+0.150, +0.250]): higher with linear weights" in text
    assert "S3" in text and text.count("not distinguishable") == 1 and text.count("higher with") == 2
    assert "for S1, an interval that excludes 0 and favours the exponential weights" in text
    assert "Caveat" in text
    quiet = Words("01_metahope_pilot_v1", shared=chapters.SHARED_WORDS).text("weighting", chapters.weighting(effect[effect["metric"] == "alpha"]))
    assert "κ" not in quiet.split("agreement (α on SEGS) is")[1] and "Caveat" not in quiet


def test_comparison_summary_gives_each_verdict_its_sentence():
    rows = []
    for pair, verdict, p, holm in (("a", "difference", 0.01, 0.03), ("b", "suggestive, not significant after Holm",
                                                                       0.04, 0.08), ("c", "no evidence", 0.5, 0.9)):
        rows.append({"direction": "EN→ZH", "annotator": "A", "system_a": pair, "system_b": "z", "n_items": 30,
                     "n_clusters": 12, "mean_difference": 1.0, "cluster_t_ci_low": 0.2, "cluster_t_ci_high": 1.8,
                     "cluster_ci_low": 0.3, "cluster_ci_high": 1.7, "family_t_ci_low": -0.1, "family_t_ci_high": 2.1,
                     "family_ci_low": 0.1, "family_ci_high": 1.9, "p_cluster_permutation": p, "p_cluster_holm": holm,
                     "verdict": verdict, "cluster_mdd_80_adjusted": 2.5})
    comparison = pd.DataFrame(rows)
    found = chapters.comparison_summary(comparison)
    text = Words("02_metahope_directions", shared=chapters.SHARED_WORDS).text("comparison", found)
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(lines) == 3 and "simultaneous 98.3%" in lines[0]
    assert lines[0].endswith("a difference (cluster p = 0.010, Holm p = 0.030).")
    assert "suggestive, not significant after Holm over 3 pairs (cluster p = 0.040, Holm p = 0.080)" in lines[1]
    assert "no evidence of a difference (cluster p = 0.500); with 12 sentences only differences of about 2.5" in lines[2]
    # every simultaneous percentile interval excludes 0 where the t interval does not
    assert "The simultaneous percentile interval excludes 0 where the t interval does not for EN→ZH A a − z" in text
    few = Words("02_metahope_directions", shared=chapters.SHARED_WORDS).text("few_clusters", chapters.few_clusters(comparison["n_clusters"]))
    assert few.startswith("> **Few clusters: G = 12 sentences.**")
    enough = chapters.few_clusters([FEW_CLUSTERS, FEW_CLUSTERS + 5])
    assert Words("02_metahope_directions", shared=chapters.SHARED_WORDS).text("few_clusters", enough) == ""
