"""helpers.core.agreement pinned column by column: hand-computed cases and the reference
libraries (krippendorff, scikit-learn, scipy, pingouin), for the mutants the older tests let
through (issue 21)."""

from __future__ import annotations

import math

import krippendorff
import numpy as np
import pandas as pd
import pingouin as pg
import pytest
from scipy.stats import pearsonr, wilcoxon
from sklearn.metrics import cohen_kappa_score

from helpers.core import agreement as ag
from helpers.core.stats import jackknife_weights, resample

A = [0, 2, 4, 4, 6, 8, 0, 10]
B = [0, 4, 4, 2, 6, 10, 0, 8]
C = [2, 2, 4, 4, 6, 8, 0, 0]


def tidy(*raters, names=("B_rater", "A_rater", "C_rater"), group="Z"):
    """Raters named out of alphabetical order, items numbered from 1; a second group "Y"."""
    rows = [{"g": g, "annotator": names[k], "item": f"i{i}", "v": v + (g == "Y"), "s": f"s{i // 2}"}
            for g in (group, "Y") for k, r in enumerate(raters) for i, v in enumerate(r)]
    return pd.DataFrame(rows)


def test_agreement_every_column_against_the_references():
    out = ag.agreement(tidy(A, B, C), by="g", value="v", totals=True)
    assert list(out["g"]) == ["Z", "Y"]  # groups in order of appearance
    assert list(out.columns) == ["g", *ag.COLUMNS, "total_b_rater", "total_a_rater", "total_c_rater"]
    z = out.iloc[0]
    data = np.array([A, B, C], dtype=float)
    labels = np.unique(data)
    assert z["n_items"] == 8 and z["n_raters"] == 3
    assert z["alpha"] == pytest.approx(krippendorff.alpha(reliability_data=data, level_of_measurement="interval"))
    pairs = [(A, B), (A, C), (B, C)]
    assert z["weighted_kappa"] == pytest.approx(np.mean([cohen_kappa_score(p, q, weights="quadratic", labels=labels)
                                                         for p, q in pairs]))
    assert z["pearson_r"] == pytest.approx(np.mean([pearsonr(p, q)[0] for p, q in pairs]))
    assert z["exact_agreement"] == pytest.approx(100 * 3 / 8)  # items 3, 5, 7 (0-based 2, 4, 6)
    assert z["presence_agreement"] == pytest.approx(100 * 6 / 8)  # items 1 (0, 0, 2) and 8 (10, 8, 0) split
    assert (z["total_b_rater"], z["total_a_rater"], z["total_c_rater"]) == (sum(A), sum(B), sum(C))
    y = out.iloc[1]
    assert y["total_b_rater"] == sum(A) + 8
    assert y["presence_agreement"] == 100.0  # every value > 0 in group Y


def test_agreement_ordinal_level_uses_the_labels_as_value_domain():
    labels = [0, 2, 4, 6, 8, 10, 12]  # 12 never used: it changes ordinal α's expected disagreement
    frame = tidy(A, B)
    out = ag.agreement(frame[frame["g"] == "Z"], by="g", value="v", level="ordinal", labels=labels).iloc[0]
    data = np.array([A, B], dtype=float)
    assert out["alpha"] == pytest.approx(krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal",
                                                            value_domain=labels))
    assert out["weighted_kappa"] == pytest.approx(cohen_kappa_score(A, B, weights="quadratic", labels=labels))
    with_observed = ag.agreement(tidy(A, B), by="g", value="v", level="ordinal").iloc[0]
    assert with_observed["weighted_kappa"] == pytest.approx(cohen_kappa_score(A, B, weights="quadratic"))


def test_agreement_with_other_column_names_and_pairs_rating_two_items_only():
    frame = pd.DataFrame({"who": ["r1", "r1", "r2", "r2", "r3"], "unit": [1, 2, 1, 2, 3], "x": [1, 3, 2, 3, 5],
                          "sys": "S"})
    out = ag.agreement(frame, by=["sys"], value="x", rater="who", item="unit").iloc[0]
    assert out["n_items"] == 2 and out["n_raters"] == 3  # unit 3 has one rating
    assert out["weighted_kappa"] == pytest.approx(cohen_kappa_score([1, 3], [2, 3], weights="quadratic",
                                                                    labels=[1, 2, 3, 5]))
    assert out["pearson_r"] == pytest.approx(1.0)
    assert ag.rating_matrix(frame, "x", "who", "unit").shape == (3, 3)


def test_two_shared_items_are_enough_for_a_pair():
    m = np.array([[0.0, 1.0], [2.0, 2.0]])
    stats = ag._statistics(m, None, "interval")
    assert stats["weighted_kappa"] == pytest.approx(cohen_kappa_score([0, 2], [1, 2], weights="quadratic",
                                                                      labels=[0, 1, 2]))


def test_undefined_statistics_are_nan_and_constant_kappa_is_zero():
    assert math.isnan(ag.pearson_r([1, 1, 1], [1, 2, 3])) and math.isnan(ag.pearson_r([1, 2, 3], [2, 2, 2]))
    assert ag.pearson_r([1, 2, 4], [1, 3, 3]) == pytest.approx(pearsonr([1, 2, 4], [1, 3, 3])[0])
    assert ag.weighted_kappa([2, 2], [2, 2]) == 0.0  # documented: no expected disagreement -> 0
    assert ag.weighted_kappa([1, 2], [2, 1]) == pytest.approx(cohen_kappa_score([1, 2], [2, 1], weights="quadratic"))
    assert ag.weighted_kappa([0, 1, 2], [0, 1, 2]) == 1.0
    assert math.isnan(ag.krippendorff_alpha([[3, 3], [3, 3]]))
    assert ag.krippendorff_alpha([[1, 2], [1, 2]]) == 1.0  # two values are enough
    assert ag.krippendorff_alpha([[1, 2, 3], [1, 2, 4]], level="nominal") == pytest.approx(
        krippendorff.alpha(reliability_data=[[1, 2, 3], [1, 2, 4]], level_of_measurement="nominal"))
    assert ag.exact_agreement([1, 2, 3], [1, 2, 0], [1, 0, 3]) == pytest.approx(100 / 3)
    assert ag.exact_agreement([1, 2], [5, 2], [5, 2]) == 50.0


def test_interval_alpha_weighted_undefined_without_variation():
    assert math.isnan(ag.interval_alpha_weighted(np.array([[2.0, 2.0], [2.0, 2.0]]), np.ones((1, 2)))[0])
    data = np.array([[1.0, 2.0], [3.0, 3.0], [np.nan, 1.0]])  # the third unit has one value: not pairable
    assert ag.interval_alpha_weighted(data, np.array([[1, 1, 5]]))[0] == pytest.approx(
        krippendorff.alpha(reliability_data=data[:2].T, level_of_measurement="interval"))


def test_bootstrap_samples_per_resample_against_the_references():
    a, b = np.array(A, dtype=float), np.array(B, dtype=float)
    w = resample(8, 15, seed=4)
    got = ag.bootstrap_samples(a, b, w)
    labels = np.unique(np.r_[a, b])
    for k in range(15):
        ra, rb = np.repeat(a, w[k]), np.repeat(b, w[k])
        assert got["weighted_kappa"][k] == pytest.approx(
            cohen_kappa_score(ra, rb, weights="quadratic", labels=labels), abs=1e-9)
        r = pearsonr(ra, rb)[0] if ra.std() > 0 and rb.std() > 0 else np.nan
        assert got["pearson_r"][k] == pytest.approx(r, nan_ok=True)
        assert got["exact_agreement"][k] == pytest.approx(100 * np.mean(ra == rb))
    const = ag.bootstrap_samples(np.array([1.0, 1.0, 2.0]), np.array([1.0, 3.0, 2.0]), np.array([[1, 1, 0], [0, 2, 1]]))
    assert math.isnan(const["pearson_r"][0]) and not math.isnan(const["pearson_r"][1])
    const_b = ag.bootstrap_samples(np.array([1.0, 3.0, 2.0]), np.array([1.0, 1.0, 2.0]), np.array([[1, 1, 0]]))
    assert math.isnan(const_b["pearson_r"][0])


def test_bootstrap_agreement_every_column():
    frame = tidy(A, B)
    out = ag.bootstrap_agreement(frame, by="g", value="v", n_boot=200, seed=3, ci=90, clusters="s")
    assert list(out.columns) == ["g", "metric", "estimate", "ci_low", "ci_high", "n_boot", "n_undefined",
                                 "cluster_ci_low", "cluster_ci_high", "jackknife_ci_low", "jackknife_ci_high"]
    z = out[out["g"] == "Z"].set_index("metric")
    assert list(out["g"].unique()) == ["Z", "Y"]
    a, b = np.array(A, dtype=float), np.array(B, dtype=float)
    clusters = [f"s{i // 2}" for i in range(8)]
    items = ag.bootstrap_samples(a, b, resample(8, 200, 3))
    nested = ag.bootstrap_samples(a, b, resample(8, 200, 3, clusters))
    jack = ag.bootstrap_samples(a, b, jackknife_weights(clusters))
    full = ag.agreement(frame[frame["g"] == "Z"], by="g", value="v").iloc[0]
    for metric in ("alpha", "weighted_kappa", "pearson_r", "exact_agreement"):
        row = z.loc[metric]
        assert row["estimate"] == pytest.approx(full[metric])
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(tuple(np.nanpercentile(items[metric], [5, 95])))
        assert (row["cluster_ci_low"], row["cluster_ci_high"]) == pytest.approx(
            tuple(np.nanpercentile(nested[metric], [5, 95])))
        loo = jack[metric].to_numpy()
        se = math.sqrt(3 / 4 * ((loo - loo.mean()) ** 2).sum())
        lo, hi = ag.BOUNDS[metric]
        t = 2.353363  # t_{3, .95}
        assert (row["jackknife_ci_low"], row["jackknife_ci_high"]) == pytest.approx(
            (max(full[metric] - t * se, lo), min(full[metric] + t * se, hi)), abs=1e-5)
        assert row["n_boot"] == 200 and row["n_undefined"] == int(items[metric].isna().sum())
    assert ag.BOUNDS == {"alpha": (-np.inf, 1.0), "weighted_kappa": (-1.0, 1.0), "pearson_r": (-1.0, 1.0),
                         "exact_agreement": (0.0, 100.0), "presence_agreement": (0.0, 100.0)}


def test_bootstrap_agreement_defaults_and_fixed_labels():
    frame = tidy(A, B).rename(columns={"annotator": "who", "item": "unit"})
    frame = frame[frame["g"] == "Z"]
    out = ag.bootstrap_agreement(frame, by=["g"], value="v", rater="who", item="unit", labels=[0, 2, 4, 6, 8, 10, 12])
    row = out[(out["g"] == "Z") & (out["metric"] == "weighted_kappa")].iloc[0]
    samples = ag.bootstrap_samples(np.array(A, float), np.array(B, float), resample(8, 2000, 0),
                                   labels=[0, 2, 4, 6, 8, 10, 12])
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(tuple(np.percentile(samples["weighted_kappa"], [2.5, 97.5])))
    assert row["estimate"] == pytest.approx(cohen_kappa_score(A, B, weights="quadratic", labels=[0, 2, 4, 6, 8, 10, 12]))
    assert row["n_boot"] == 2000


def test_bootstrap_difference_every_column():
    x, y = tidy(A, B), tidy(A, C)
    out = ag.bootstrap_difference(x, y, by="g", value="v", n_boot=150, seed=2, ci=80, clusters="s")
    assert list(out.columns) == ["g", "metric", "x", "y", "difference", "ci_low", "ci_high", "cluster_ci_low",
                                 "cluster_ci_high", "jackknife_ci_low", "jackknife_ci_high"]
    assert list(out["g"].unique()) == ["Z", "Y"]
    z = out[out["g"] == "Z"].set_index("metric")
    a, b, c = (np.array(v, dtype=float) for v in (A, B, C))
    clusters = [f"s{i // 2}" for i in range(8)]
    fx = ag.agreement(x[x["g"] == "Z"], by="g", value="v").iloc[0]
    fy = ag.agreement(y[y["g"] == "Z"], by="g", value="v").iloc[0]
    for prefix, w in (("", resample(8, 150, 2)), ("cluster_", resample(8, 150, 2, clusters))):
        d = ag.bootstrap_samples(a, b, w) - ag.bootstrap_samples(a, c, w)
        for metric in d.columns:
            assert (z.loc[metric, f"{prefix}ci_low"], z.loc[metric, f"{prefix}ci_high"]) == pytest.approx(
                tuple(np.nanpercentile(d[metric], [10, 90])))
    w = jackknife_weights(clusters)
    d = ag.bootstrap_samples(a, b, w) - ag.bootstrap_samples(a, c, w)
    for metric in d.columns:
        assert z.loc[metric, "x"] == pytest.approx(fx[metric]) and z.loc[metric, "y"] == pytest.approx(fy[metric])
        assert z.loc[metric, "difference"] == pytest.approx(fx[metric] - fy[metric])
        loo = d[metric].to_numpy()
        se = math.sqrt(3 / 4 * ((loo - loo.mean()) ** 2).sum())
        assert z.loc[metric, "jackknife_ci_high"] == pytest.approx(fx[metric] - fy[metric] + 1.637744 * se, abs=1e-5)
    # defaults: 2000 draws, seed 0, 95 %
    plain = ag.bootstrap_difference(x.rename(columns={"annotator": "r", "item": "u"}),
                                    y.rename(columns={"annotator": "r", "item": "u"}), by=["g"], value="v",
                                    rater="r", item="u").set_index(["g", "metric"])
    w = resample(8, 2000, 0)
    d = ag.bootstrap_samples(a, b, w) - ag.bootstrap_samples(a, c, w)
    assert plain.loc[("Z", "alpha"), "ci_low"] == pytest.approx(np.percentile(d["alpha"], 2.5))
    assert plain.loc[("Z", "weighted_kappa"), "x"] == pytest.approx(fx["weighted_kappa"])
    with pytest.raises(ValueError, match=r"group \('Z',\): both scorings need the same items"):
        ag.bootstrap_difference(x, y.assign(item=y["item"] + "x"), by="g", value="v")


def test_severity_bias_every_column_against_scipy_and_by_hand():
    paired = pd.DataFrame({"system": ["S2"] * 6 + ["S1"] * 3, "a": [1, 2, 3, 4, 5, 6, 1, 1, 1],
                           "b": [2, 2, 5, 3, 9, 8, 1, 1, 1], "sentence": ["p", "p", "q", "q", "r", "r", "p", "q", "r"]})
    out = ag.severity_bias(paired, "a", "b", clusters="sentence", n_perm=100, seed=1)
    assert list(out["system"]) == ["S2", "S1"]  # in order of appearance
    assert list(out.columns) == ["system", "n_items", "mean_a", "mean_b", "mean_difference", "share_b_higher",
                                 "share_a_higher", "share_equal", "wilcoxon_W", "p_value", "rank_biserial",
                                 "n_clusters", "p_cluster_permutation"]
    s2 = out.iloc[0]
    d = np.array([1, 0, 2, -1, 4, 2])
    assert s2["n_items"] == 6 and s2["mean_a"] == 3.5 and s2["mean_b"] == pytest.approx(29 / 6)
    assert s2["mean_difference"] == pytest.approx(d.mean())
    assert s2["share_b_higher"] == pytest.approx(400 / 6) and s2["share_a_higher"] == pytest.approx(100 / 6)
    assert s2["share_equal"] == pytest.approx(100 / 6)
    ref = wilcoxon(paired["b"][:6], paired["a"][:6])
    assert s2["p_value"] == pytest.approx(pg.wilcoxon(paired["b"][:6], paired["a"][:6])["p_val"].iloc[0])
    assert s2["wilcoxon_W"] == pytest.approx(ref.statistic)
    # nonzero |d| = 1, 2, 1, 4, 2 -> ranks 1.5, 3.5, 1.5, 5, 3.5; negative: 1.5 -> (13.5 − 1.5) / 15
    assert s2["rank_biserial"] == pytest.approx(12 / 15)
    assert s2["n_clusters"] == 3
    # 3 clusters: exact. Sums 1, 1, 6 of 6 items: |mean| = 8/6 reached by (+,+,+) and (−,−,−) only... and none else
    assert s2["p_cluster_permutation"] == pytest.approx(2 / 8)
    s1 = out.iloc[1]
    assert s1["share_equal"] == 100.0 and all(math.isnan(s1[c]) for c in ("wilcoxon_W", "p_value", "rank_biserial"))
    assert s1["p_cluster_permutation"] == 1.0
    plain = ag.severity_bias(paired.rename(columns={"system": "sys"}), "a", "b", by="sys")
    assert "n_clusters" not in plain.columns and list(plain["sys"]) == ["S2", "S1"]


SHROUT_FLEISS = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]


def test_icc_table_reproduces_shrout_fleiss_1979_table_2():
    rows = [{"g": "T", "item": i, "annotator": f"j{k}", "v": v} for i, r in enumerate(SHROUT_FLEISS)
            for k, v in enumerate(r)]
    out = ag.icc_table(pd.DataFrame(rows), by="g", value="v")
    assert list(out.columns) == ["g", "n_items", "n_raters", "icc2_1", "icc2_1_ci_low", "icc2_1_ci_high", "icc2_k",
                                 "icc2_k_ci_low", "icc2_k_ci_high"]
    row = out.iloc[0]
    assert (row["n_items"], row["n_raters"]) == (6, 4)
    assert round(row["icc2_1"], 2) == 0.29 and round(row["icc2_k"], 2) == 0.62  # Shrout & Fleiss 1979, Table 4
    ref = pg.intraclass_corr(data=pd.DataFrame(rows), targets="item", raters="annotator", ratings="v").set_index("Type")
    assert (row["icc2_1_ci_low"], row["icc2_1_ci_high"]) == pytest.approx(tuple(ref.loc["ICC(A,1)", "CI95"]))
    assert (row["icc2_k_ci_low"], row["icc2_k_ci_high"]) == pytest.approx(tuple(ref.loc["ICC(A,k)", "CI95"]))
