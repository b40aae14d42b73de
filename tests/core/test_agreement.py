"""Agreement statistics against hand-computed cases and reference implementations."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import pearsonr
from sklearn.metrics import cohen_kappa_score

import krippendorff
from helpers.core import agreement as ag
from helpers.core.stats import resample


def test_weighted_kappa_by_hand():
    # O: mean squared position difference = (0+1+0+1)/4 = 0.5; E: var 0.6875 + 0.6875 + 0 = 1.375
    assert ag.weighted_kappa([0, 1, 2, 2], [0, 2, 2, 1]) == pytest.approx(1 - 0.5 / 1.375)  # 7/11


def test_weighted_kappa_labels_change_the_weights():
    # on the severity scale, 10 and 4 are positions 5 and 2: O = 9/2, E = 6.25 + 1 + 2.25 -> 10/19
    assert ag.weighted_kappa([0, 10], [0, 4], labels=[0, 2, 4, 6, 8, 10]) == pytest.approx(10 / 19)
    # on the observed values (0, 4, 10) they are positions 2 and 1: O = 1/2, E = 1 + .25 + .25 -> 2/3
    assert ag.weighted_kappa([0, 10], [0, 4]) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="not among the labels"):
        ag.weighted_kappa([0, 3], [0, 4], labels=[0, 2, 4])


@pytest.mark.parametrize("seed", range(5))
def test_weighted_kappa_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.choice([0, 2, 4, 6, 8, 10], 40), rng.choice([0, 2, 4, 6, 8, 10], 40)
    labels = [0, 2, 4, 6, 8, 10]
    assert ag.weighted_kappa(a, b, labels) == pytest.approx(cohen_kappa_score(a, b, weights="quadratic", labels=labels))
    assert ag.weighted_kappa(a, b) == pytest.approx(cohen_kappa_score(a, b, weights="quadratic"))


def test_interval_alpha_by_hand_and_against_package():
    a, b = [1, 2, 3], [1, 2, 4]
    # N = 6, sum of squared deviations 41/6, sum of squared pair differences 1 -> 1 - 5/41
    assert ag.krippendorff_alpha([a, b]) == pytest.approx(36 / 41)
    assert ag.interval_alpha_weighted(np.array([a, b], dtype=float).T, np.ones((1, 3)))[0] == pytest.approx(36 / 41)
    rng = np.random.default_rng(1)
    data = rng.choice([0, 2, 4, 6, 8, 10], size=(3, 30)).astype(float)
    assert ag.interval_alpha_weighted(data.T, np.ones((1, 30)))[0] == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="interval"))


def test_weighted_alpha_equals_alpha_of_the_resampled_data_with_missing_values():
    """Multiplicities w give the α of the data with unit u repeated w_u times (Krippendorff's
    missing-data formula), checked against the krippendorff package on explicit resamples."""
    data = np.array(KRIPPENDORFF_2011, dtype=float).T  # units x coders
    w = resample(len(data), 20, seed=5)
    got = ag.interval_alpha_weighted(data, w)
    for k in range(20):
        repeated = np.repeat(data, w[k], axis=0)
        assert got[k] == pytest.approx(krippendorff.alpha(reliability_data=repeated.T, level_of_measurement="interval"))


def test_alpha_undefined_with_one_value():
    assert np.isnan(ag.krippendorff_alpha([[0, 0, 0], [0, 0, 0]]))


def test_pearson_and_exact_agreement():
    assert np.isnan(ag.pearson_r([0, 0, 0], [0, 2, 4]))
    assert ag.pearson_r([1, 2, 3, 5], [2, 1, 4, 4]) == pytest.approx(pearsonr([1, 2, 3, 5], [2, 1, 4, 4])[0])
    assert ag.exact_agreement([1, 2, 3], [1, 2, 4]) == pytest.approx(200 / 3)
    assert ag.exact_agreement([1, 2, 3], [1, 2, 3], [1, 0, 3]) == pytest.approx(200 / 3)


def _long(values: dict[str, list]) -> pd.DataFrame:
    return pd.DataFrame([
        {"group": "g", "item": i, "annotator": r, "score": v}
        for r, vals in values.items() for i, v in enumerate(vals)
    ])


def test_agreement_two_and_three_raters():
    two = ag.agreement(_long({"A": [1, 2, 3], "B": [1, 2, 4]}), by="group", value="score", totals=True).iloc[0]
    assert two["alpha"] == pytest.approx(36 / 41)
    assert (two["total_a"], two["total_b"]) == (6, 7)
    three = _long({"A": [0, 2, 4, 4], "B": [0, 2, 4, 2], "C": [2, 2, 4, 4]})
    row = ag.agreement(three, by="group", value="score").iloc[0]
    pairs = [([0, 2, 4, 4], [0, 2, 4, 2]), ([0, 2, 4, 4], [2, 2, 4, 4]), ([0, 2, 4, 2], [2, 2, 4, 4])]
    labels = [0, 2, 4]
    assert row["weighted_kappa"] == pytest.approx(np.mean([ag.weighted_kappa(x, y, labels) for x, y in pairs]))
    assert row["exact_agreement"] == pytest.approx(50.0)  # items 1 and 2 only
    assert row["alpha"] == pytest.approx(krippendorff.alpha(
        reliability_data=np.array([[0, 2, 4, 4], [0, 2, 4, 2], [2, 2, 4, 4]], float), level_of_measurement="interval"))


def test_agreement_columns_are_fixed_and_missing_ratings_allowed():
    df = _long({"A": [1, 2, 3], "B": [1, 2, 4]}).iloc[:-1]  # B did not rate item 3
    table = ag.agreement(df, by="group", value="score")
    assert list(table.columns) == ["group", *ag.COLUMNS]
    assert table.iloc[0]["n_items"] == 2 and table.iloc[0]["exact_agreement"] == 100.0


def test_bootstrap_refuses_missing_ratings():
    df = _long({"A": [1, 2, 3], "B": [1, 2, 4]}).iloc[:-1]
    with pytest.raises(ValueError, match="two raters who rated every item"):
        ag.bootstrap_agreement(df, by="group", value="score", n_boot=10)


def test_bootstrap_is_seeded_and_matches_reference_per_resample():
    rng = np.random.default_rng(7)
    a = rng.choice([0, 2, 4, 6], 25).astype(float)
    b = np.clip(a + rng.choice([-2, 0, 2], 25), 0, 6)
    s1 = ag.bootstrap_samples(a, b, resample(25, 50, 3))
    s2 = ag.bootstrap_samples(a, b, resample(25, 50, 3))
    pd.testing.assert_frame_equal(s1, s2)
    idx = np.random.default_rng(3).integers(0, 25, size=(50, 25))  # the draws behind resample(25, 50, 3)
    for k in (0, 17, 49):
        x, y = a[idx[k]], b[idx[k]]
        assert s1.loc[k, "alpha"] == pytest.approx(krippendorff.alpha(np.vstack([x, y]), level_of_measurement="interval"))
        labels = np.unique(np.concatenate([a, b]))
        assert s1.loc[k, "weighted_kappa"] == pytest.approx(cohen_kappa_score(x, y, weights="quadratic", labels=labels))
        assert s1.loc[k, "exact_agreement"] == pytest.approx((x == y).mean() * 100)


def test_bootstrap_agreement_and_paired_difference():
    df = _long({"A": [0, 2, 4, 6, 0, 2, 8, 0], "B": [0, 4, 4, 6, 2, 2, 8, 0]})
    ci = ag.bootstrap_agreement(df, by="group", value="score", n_boot=300, seed=1).set_index("metric")
    assert (ci["ci_low"] <= ci["estimate"]).all() and (ci["estimate"] <= ci["ci_high"]).all()
    assert ci.loc["exact_agreement", "estimate"] == pytest.approx(75.0)
    same = ag.bootstrap_difference(df, df, by="group", value="score", n_boot=200, seed=1)
    assert (same[["difference", "ci_low", "ci_high"]].abs().max() == 0).all()


def test_severity_bias_counts_and_test():
    paired = pd.DataFrame({"system": ["s"] * 6, "A": [0, 0, 2, 4, 0, 2], "B": [2, 4, 2, 8, 6, 0]})
    row = ag.severity_bias(paired, "A", "B").iloc[0]
    assert row["mean_difference"] == pytest.approx(14 / 6)
    assert (row["share_B_higher"], row["share_A_higher"], row["share_equal"]) == pytest.approx((400 / 6, 100 / 6, 100 / 6))
    assert 0 < row["p_value"] < 1


# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 coders x 12 units
# with missing values (None). Published: nominal .743, ordinal .815, interval .849.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


@pytest.mark.parametrize("level, published", [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)])
def test_krippendorff_2011_worked_example(level, published):
    data = np.array(KRIPPENDORFF_2011, dtype=float)
    assert round(ag.krippendorff_alpha(data, level=level), 3) == published


def test_k_rater_agreement_on_krippendorff_example():
    long = pd.DataFrame([{"g": 1, "item": u, "annotator": c, "v": v}
                         for c, row in enumerate(KRIPPENDORFF_2011) for u, v in enumerate(row) if v is not None])
    row = ag.agreement(long, by="g", value="v", level="ordinal").iloc[0]
    assert round(row["alpha"], 3) == 0.815
    # unit 12 has a single rating and is not counted; of the other 11, units 2, 6 and 8 (1-based) disagree
    # -> 8 of 11 agree
    assert row["n_items"] == 11 and row["exact_agreement"] == pytest.approx(800 / 11)
    assert row["presence_agreement"] == pytest.approx(100.0)  # every value is > 0


def test_shrout_fleiss_1979_icc():
    # Shrout & Fleiss (1979), Table 2: 6 targets x 4 judges; published ICC(2,1) = .29, ICC(2,4) = .62
    ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    long = pd.DataFrame([{"g": 1, "item": t, "annotator": j, "v": v}
                         for t, row in enumerate(ratings) for j, v in enumerate(row)])
    row = ag.icc_table(long, by="g", value="v").iloc[0]
    assert round(row["icc2_1"], 2) == 0.29 and round(row["icc2_k"], 2) == 0.62
    assert row["icc2_1_ci_low"] < row["icc2_1"] < row["icc2_1_ci_high"]


def test_cluster_intervals_reduce_to_item_intervals_for_singleton_clusters_and_widen_for_nested_items():
    df = _long({"A": [0, 2, 4, 6, 0, 2, 8, 0, 4, 6], "B": [0, 4, 4, 6, 2, 2, 8, 0, 2, 6]})
    single = ag.bootstrap_agreement(df.assign(sentence=df["item"]), by="group", value="score", n_boot=400, seed=2,
                                    clusters="sentence")
    np.testing.assert_allclose(single["cluster_ci_low"], single["ci_low"])
    np.testing.assert_allclose(single["cluster_ci_high"], single["ci_high"])
    # five sentences of two metaphors; within a sentence both are agreed on, or both not: the items of a
    # sentence are positively correlated, so resampling sentences moves exact agreement more
    alike = _long({"A": [0, 2, 4, 6, 0, 2, 8, 0, 4, 6], "B": [0, 2, 6, 8, 0, 2, 6, 2, 4, 6]})
    nested = ag.bootstrap_agreement(alike.assign(sentence=alike["item"] // 2), by="group", value="score",
                                    n_boot=400, seed=2, clusters="sentence").set_index("metric")
    width = nested["ci_high"] - nested["ci_low"]
    cluster_width = nested["cluster_ci_high"] - nested["cluster_ci_low"]
    assert nested.loc["exact_agreement", "estimate"] == 60.0
    assert cluster_width["exact_agreement"] > width["exact_agreement"]
    diff = ag.bootstrap_difference(df.assign(sentence=df["item"] // 2), df.assign(sentence=df["item"] // 2),
                                   by="group", value="score", n_boot=100, seed=1, clusters="sentence")
    assert (diff[["difference", "ci_low", "ci_high", "cluster_ci_low", "cluster_ci_high"]].abs().max() == 0).all()


def test_jackknife_interval_of_alpha_uses_leave_one_sentence_out_alpha_from_krippendorff():
    """The jackknife t interval by sentence: α̂ ± t_{G−1} · SE_J, with each leave-one-out α computed
    here independently by the krippendorff package on the remaining items."""
    from scipy.stats import t as student_t

    a = [0, 2, 4, 6, 0, 2, 8, 0, 4, 6, 2, 2]
    b = [0, 4, 4, 6, 2, 2, 8, 0, 2, 6, 0, 4]
    sentence = [0, 0, 1, 1, 2, 2, 3, 3, 3, 4, 5, 5]
    df = _long({"A": a, "B": b})
    df["sentence"] = df["item"].map(dict(enumerate(sentence)))
    out = ag.bootstrap_agreement(df, by="group", value="score", n_boot=100, seed=0, clusters="sentence")
    row = out.set_index("metric").loc["alpha"]
    full = krippendorff.alpha(np.array([a, b], dtype=float), level_of_measurement="interval")
    loo = np.array([krippendorff.alpha(np.array([[x for x, s in zip(r, sentence) if s != g] for r in (a, b)], float),
                                       level_of_measurement="interval") for g in range(6)])
    half = student_t.ppf(0.975, 5) * np.sqrt(5 / 6 * ((loo - loo.mean()) ** 2).sum())
    assert (row["jackknife_ci_low"], min(row["jackknife_ci_high"], 1.0)) == pytest.approx(
        (full - half, min(full + half, 1.0)), rel=1e-9)
    same = ag.bootstrap_difference(df, df, by="group", value="score", n_boot=50, seed=1, clusters="sentence")
    assert (same[["jackknife_ci_low", "jackknife_ci_high"]].abs().max() == 0).all()


def test_severity_bias_sentence_test_flips_whole_sentences():
    # B − A = (2, 4 | 0, 4 | 6, −2): sentence sums 6, 4, 4, observed |mean| 14/6; the 8 sentence flips give
    # |±6 ± 4 ± 4| = 14, 6, 6, 2 (twice each): only 2 of 8 reach 14 -> p = 0.25
    paired = pd.DataFrame({"system": ["s"] * 6, "A": [0, 0, 2, 4, 0, 2], "B": [2, 4, 2, 8, 6, 0],
                           "sentence": [1, 1, 2, 2, 3, 3]})
    row = ag.severity_bias(paired, "A", "B", clusters="sentence").iloc[0]
    assert row["n_clusters"] == 3 and row["p_cluster_permutation"] == pytest.approx(0.25)


# ------------------------------------------------------------------- reading α (issue 35, item 3)

def test_alpha_reading_follows_krippendorffs_thresholds_at_their_boundaries():
    # Krippendorff (2004 §12.4; 2011): rely on α ≥ .800; .667 ≤ α < .800 tentative conclusions only; below, none
    assert (ag.ALPHA_RELIABLE, ag.ALPHA_TENTATIVE) == (0.800, 0.667)
    assert ag.alpha_reading(1.0) == ag.alpha_reading(0.800) == "reliable"
    assert ag.alpha_reading(0.7999) == ag.alpha_reading(0.667) == "tentative conclusions only"
    assert ag.alpha_reading(0.6669) == ag.alpha_reading(0.0) == ag.alpha_reading(-0.3) == "too low for conclusions"
    assert ag.alpha_reading(float("nan")) == "undefined"
    assert set(map(ag.alpha_reading, (0.9, 0.7, 0.1, float("nan")))) == set(ag.ALPHA_READINGS)


# Level words of other conventions (Landis & Koch 1977 for κ: slight, fair, moderate, substantial, almost
# perfect; Cicchetti 1994: poor, fair, good, excellent) and the thresholds themselves typed into the words
_FOREIGN_LEVEL = re.compile(r"\b(slight(ly)?|fair(ly)?|moderate(ly)?|substantial(ly)?|almost perfect|poor(ly)?|"
                            r"excellent)\b|0\.667|0\.8(00)?\b", re.IGNORECASE)


_ROOT = Path(__file__).parents[2]


def _prose(path: Path) -> str:
    """A words file, or the markdown cells of a notebook: the sentences a chapter's page says."""
    if path.suffix != ".ipynb":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


@pytest.mark.parametrize("page", sorted((_ROOT / "notebooks" / "words").glob("*.md")) + sorted(
    (_ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.name)
def test_words_about_alpha_use_only_the_readings_of_alpha_reading(page):
    # every sentence that reads an agreement level says it through alpha_reading (a {x.text} filled from it) or
    # the thresholds it exports; a level word of another convention, or a threshold typed in, fails
    text = _prose(page)
    offending = [line for line in text.splitlines()
                 if re.search(r"α|agree|reliab", line, re.IGNORECASE) and _FOREIGN_LEVEL.search(line)]
    assert offending == []
