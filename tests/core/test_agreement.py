"""Agreement statistics against hand-computed cases and reference implementations."""

from __future__ import annotations

import json
import math
import re
import warnings
from fractions import Fraction
from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd
import pingouin as pg
import pytest
from scipy.stats import pearsonr, wilcoxon
from scipy.stats import t as student_t
from sklearn.metrics import cohen_kappa_score

from helpers.core.statistics import agreement as ag
from helpers.core.statistics import raters, stats
from helpers.core.statistics.correlation import pearson
from helpers.core.statistics.stats import jackknife_weights, resample


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
        krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    )


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
    assert np.isnan(pearson([0, 0, 0], [0, 2, 4]))
    assert pearson([1, 2, 3, 5], [2, 1, 4, 4]) == pytest.approx(pearsonr([1, 2, 3, 5], [2, 1, 4, 4])[0])
    assert ag.exact_agreement([1, 2, 3], [1, 2, 4]) == pytest.approx(200 / 3)
    assert ag.exact_agreement([1, 2, 3], [1, 2, 3], [1, 0, 3]) == pytest.approx(200 / 3)


def _long(values: dict[str, list]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"group": "g", "item": i, "annotator": r, "score": v}
            for r, vals in values.items()
            for i, v in enumerate(vals)
        ]
    )


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
    assert row["alpha"] == pytest.approx(
        krippendorff.alpha(
            reliability_data=np.array([[0, 2, 4, 4], [0, 2, 4, 2], [2, 2, 4, 4]], float),
            level_of_measurement="interval",
        )
    )


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
        assert s1.loc[k, "alpha"] == pytest.approx(
            krippendorff.alpha(np.vstack([x, y]), level_of_measurement="interval")
        )
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
    row = raters.severity_bias(paired, "A", "B").iloc[0]
    assert row["mean_difference"] == pytest.approx(14 / 6)
    assert (row["share_B_higher"], row["share_A_higher"], row["share_equal"]) == pytest.approx(
        (400 / 6, 100 / 6, 100 / 6)
    )
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
    long = pd.DataFrame(
        [
            {"g": 1, "item": u, "annotator": c, "v": v}
            for c, row in enumerate(KRIPPENDORFF_2011)
            for u, v in enumerate(row)
            if v is not None
        ]
    )
    row = ag.agreement(long, by="g", value="v", level="ordinal").iloc[0]
    assert round(row["alpha"], 3) == 0.815
    # unit 12 has a single rating and is not counted; of the other 11, units 2, 6 and 8 (1-based) disagree
    # -> 8 of 11 agree
    assert row["n_items"] == 11 and row["exact_agreement"] == pytest.approx(800 / 11)
    assert row["presence_agreement"] == pytest.approx(100.0)  # every value is > 0


def test_shrout_fleiss_1979_icc():
    # Shrout & Fleiss (1979), Table 2: 6 targets x 4 judges; published ICC(2,1) = .29, ICC(2,4) = .62
    ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    long = pd.DataFrame(
        [{"g": 1, "item": t, "annotator": j, "v": v} for t, row in enumerate(ratings) for j, v in enumerate(row)]
    )
    row = raters.icc_table(long, by="g", value="v").iloc[0]
    assert round(row["icc2_1"], 2) == 0.29 and round(row["icc2_k"], 2) == 0.62
    assert row["icc2_1_ci_low"] < row["icc2_1"] < row["icc2_1_ci_high"]


def test_cluster_intervals_reduce_to_item_intervals_for_singleton_clusters_and_widen_for_nested_items():
    df = _long({"A": [0, 2, 4, 6, 0, 2, 8, 0, 4, 6], "B": [0, 4, 4, 6, 2, 2, 8, 0, 2, 6]})
    single = ag.bootstrap_agreement(
        df.assign(sentence=df["item"]), by="group", value="score", n_boot=400, seed=2, clusters="sentence"
    )
    np.testing.assert_allclose(single["cluster_ci_low"], single["ci_low"])
    np.testing.assert_allclose(single["cluster_ci_high"], single["ci_high"])
    # five sentences of two metaphors; within a sentence both are agreed on, or both not: the items of a
    # sentence are positively correlated, so resampling sentences moves exact agreement more
    alike = _long({"A": [0, 2, 4, 6, 0, 2, 8, 0, 4, 6], "B": [0, 2, 6, 8, 0, 2, 6, 2, 4, 6]})
    nested = ag.bootstrap_agreement(
        alike.assign(sentence=alike["item"] // 2), by="group", value="score", n_boot=400, seed=2, clusters="sentence"
    ).set_index("metric")
    width = nested["ci_high"] - nested["ci_low"]
    cluster_width = nested["cluster_ci_high"] - nested["cluster_ci_low"]
    assert nested.loc["exact_agreement", "estimate"] == 60.0
    assert cluster_width["exact_agreement"] > width["exact_agreement"]
    diff = ag.bootstrap_difference(
        df.assign(sentence=df["item"] // 2),
        df.assign(sentence=df["item"] // 2),
        by="group",
        value="score",
        n_boot=100,
        seed=1,
        clusters="sentence",
    )
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
    loo = np.array(
        [
            krippendorff.alpha(
                np.array([[x for x, s in zip(r, sentence) if s != g] for r in (a, b)], float),
                level_of_measurement="interval",
            )
            for g in range(6)
        ]
    )
    half = student_t.ppf(0.975, 5) * np.sqrt(5 / 6 * ((loo - loo.mean()) ** 2).sum())
    assert (row["jackknife_ci_low"], min(row["jackknife_ci_high"], 1.0)) == pytest.approx(
        (full - half, min(full + half, 1.0)), rel=1e-9
    )
    same = ag.bootstrap_difference(df, df, by="group", value="score", n_boot=50, seed=1, clusters="sentence")
    assert (same[["jackknife_ci_low", "jackknife_ci_high"]].abs().max() == 0).all()


def test_severity_bias_sentence_test_flips_whole_sentences():
    # B − A = (2, 4 | 0, 4 | 6, −2): sentence sums 6, 4, 4, observed |mean| 14/6; the 8 sentence flips give
    # |±6 ± 4 ± 4| = 14, 6, 6, 2 (twice each): only 2 of 8 reach 14 -> p = 0.25
    paired = pd.DataFrame(
        {"system": ["s"] * 6, "A": [0, 0, 2, 4, 0, 2], "B": [2, 4, 2, 8, 6, 0], "sentence": [1, 1, 2, 2, 3, 3]}
    )
    row = raters.severity_bias(paired, "A", "B", clusters="sentence").iloc[0]
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
_FOREIGN_LEVEL = re.compile(
    r"\b(slight(ly)?|fair(ly)?|moderate(ly)?|substantial(ly)?|almost perfect|poor(ly)?|"
    r"excellent)\b|0\.667|0\.8(00)?\b",
    re.IGNORECASE,
)


_ROOT = Path(__file__).parents[2]


def _prose(path: Path) -> str:
    """A words file, or the markdown cells of a notebook: the sentences a chapter's page says."""
    if path.suffix != ".ipynb":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


@pytest.mark.parametrize(
    "page",
    sorted((_ROOT / "notebooks" / "words").glob("*.md")) + sorted((_ROOT / "notebooks").glob("*.ipynb")),
    ids=lambda p: p.name,
)
def test_words_about_alpha_use_only_the_readings_of_alpha_reading(page):
    # every sentence that reads an agreement level says it through alpha_reading (a {x.text} filled from it) or
    # the thresholds it exports; a level word of another convention, or a threshold typed in, fails
    text = _prose(page)
    offending = [
        line
        for line in text.splitlines()
        if re.search(r"α|agree|reliab", line, re.IGNORECASE) and _FOREIGN_LEVEL.search(line)
    ]
    assert offending == []


A = [0, 2, 4, 4, 6, 8, 0, 10]


B = [0, 4, 4, 2, 6, 10, 0, 8]


C = [2, 2, 4, 4, 6, 8, 0, 0]


def tidy(*raters, names=("B_rater", "A_rater", "C_rater"), group="Z"):
    """Raters named out of alphabetical order, items numbered from 1; a second group "Y"."""
    rows = [
        {"g": g, "annotator": names[k], "item": f"i{i}", "v": v + (g == "Y"), "s": f"s{i // 2}"}
        for g in (group, "Y")
        for k, r in enumerate(raters)
        for i, v in enumerate(r)
    ]
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
    assert z["weighted_kappa"] == pytest.approx(
        np.mean([cohen_kappa_score(p, q, weights="quadratic", labels=labels) for p, q in pairs])
    )
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
    assert out["alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal", value_domain=labels)
    )
    assert out["weighted_kappa"] == pytest.approx(cohen_kappa_score(A, B, weights="quadratic", labels=labels))
    with_observed = ag.agreement(tidy(A, B), by="g", value="v", level="ordinal").iloc[0]
    assert with_observed["weighted_kappa"] == pytest.approx(cohen_kappa_score(A, B, weights="quadratic"))


def test_agreement_with_other_column_names_and_pairs_rating_two_items_only():
    frame = pd.DataFrame(
        {"who": ["r1", "r1", "r2", "r2", "r3"], "unit": [1, 2, 1, 2, 3], "x": [1, 3, 2, 3, 5], "sys": "S"}
    )
    out = ag.agreement(frame, by=["sys"], value="x", rater="who", item="unit").iloc[0]
    assert out["n_items"] == 2 and out["n_raters"] == 3  # unit 3 has one rating
    assert out["weighted_kappa"] == pytest.approx(
        cohen_kappa_score([1, 3], [2, 3], weights="quadratic", labels=[1, 2, 3, 5])
    )
    assert out["pearson_r"] == pytest.approx(1.0)
    assert ag.rating_matrix(frame, "x", "who", "unit").shape == (3, 3)


def test_two_shared_items_are_enough_for_a_pair():
    m = np.array([[0.0, 1.0], [2.0, 2.0]])
    stats = ag._statistics(m, None, "interval")
    assert stats["weighted_kappa"] == pytest.approx(
        cohen_kappa_score([0, 2], [1, 2], weights="quadratic", labels=[0, 1, 2])
    )


def test_undefined_statistics_are_nan_and_constant_kappa_is_zero():
    assert math.isnan(pearson([1, 1, 1], [1, 2, 3])) and math.isnan(pearson([1, 2, 3], [2, 2, 2]))
    assert pearson([1, 2, 4], [1, 3, 3]) == pytest.approx(pearsonr([1, 2, 4], [1, 3, 3])[0])
    assert ag.weighted_kappa([2, 2], [2, 2]) == 0.0  # documented: no expected disagreement -> 0
    assert ag.weighted_kappa([1, 2], [2, 1]) == pytest.approx(cohen_kappa_score([1, 2], [2, 1], weights="quadratic"))
    assert ag.weighted_kappa([0, 1, 2], [0, 1, 2]) == 1.0
    assert math.isnan(ag.krippendorff_alpha([[3, 3], [3, 3]]))
    assert ag.krippendorff_alpha([[1, 2], [1, 2]]) == 1.0  # two values are enough
    assert ag.krippendorff_alpha([[1, 2, 3], [1, 2, 4]], level="nominal") == pytest.approx(
        krippendorff.alpha(reliability_data=[[1, 2, 3], [1, 2, 4]], level_of_measurement="nominal")
    )
    assert ag.exact_agreement([1, 2, 3], [1, 2, 0], [1, 0, 3]) == pytest.approx(100 / 3)
    assert ag.exact_agreement([1, 2], [5, 2], [5, 2]) == 50.0


def test_interval_alpha_weighted_undefined_without_variation():
    assert math.isnan(ag.interval_alpha_weighted(np.array([[2.0, 2.0], [2.0, 2.0]]), np.ones((1, 2)))[0])
    data = np.array([[1.0, 2.0], [3.0, 3.0], [np.nan, 1.0]])  # the third unit has one value: not pairable
    assert ag.interval_alpha_weighted(data, np.array([[1, 1, 5]]))[0] == pytest.approx(
        krippendorff.alpha(reliability_data=data[:2].T, level_of_measurement="interval")
    )


def test_bootstrap_samples_per_resample_against_the_references():
    a, b = np.array(A, dtype=float), np.array(B, dtype=float)
    w = resample(8, 15, seed=4)
    got = ag.bootstrap_samples(a, b, w)
    labels = np.unique(np.r_[a, b])
    for k in range(15):
        ra, rb = np.repeat(a, w[k]), np.repeat(b, w[k])
        assert got["weighted_kappa"][k] == pytest.approx(
            cohen_kappa_score(ra, rb, weights="quadratic", labels=labels), abs=1e-9
        )
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
    assert list(out.columns) == [
        "g",
        "metric",
        "estimate",
        "ci_low",
        "ci_high",
        "n_boot",
        "n_undefined",
        "cluster_ci_low",
        "cluster_ci_high",
        "jackknife_ci_low",
        "jackknife_ci_high",
    ]
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
            tuple(np.nanpercentile(nested[metric], [5, 95]))
        )
        loo = jack[metric].to_numpy()
        se = math.sqrt(3 / 4 * ((loo - loo.mean()) ** 2).sum())
        lo, hi = ag.BOUNDS[metric]
        t = 2.353363  # t_{3, .95}
        assert (row["jackknife_ci_low"], row["jackknife_ci_high"]) == pytest.approx(
            (max(full[metric] - t * se, lo), min(full[metric] + t * se, hi)), abs=1e-5
        )
        assert row["n_boot"] == 200 and row["n_undefined"] == int(items[metric].isna().sum())
    assert ag.BOUNDS == {
        "alpha": (-np.inf, 1.0),
        "weighted_kappa": (-1.0, 1.0),
        "pearson_r": (-1.0, 1.0),
        "exact_agreement": (0.0, 100.0),
        "presence_agreement": (0.0, 100.0),
    }


def test_bootstrap_agreement_defaults_and_fixed_labels():
    frame = tidy(A, B).rename(columns={"annotator": "who", "item": "unit"})
    frame = frame[frame["g"] == "Z"]
    out = ag.bootstrap_agreement(frame, by=["g"], value="v", rater="who", item="unit", labels=[0, 2, 4, 6, 8, 10, 12])
    row = out[(out["g"] == "Z") & (out["metric"] == "weighted_kappa")].iloc[0]
    samples = ag.bootstrap_samples(
        np.array(A, float), np.array(B, float), resample(8, 2000, 0), labels=[0, 2, 4, 6, 8, 10, 12]
    )
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(
        tuple(np.percentile(samples["weighted_kappa"], [2.5, 97.5]))
    )
    assert row["estimate"] == pytest.approx(
        cohen_kappa_score(A, B, weights="quadratic", labels=[0, 2, 4, 6, 8, 10, 12])
    )
    assert row["n_boot"] == 2000


def test_bootstrap_difference_every_column():
    x, y = tidy(A, B), tidy(A, C)
    out = ag.bootstrap_difference(x, y, by="g", value="v", n_boot=150, seed=2, ci=80, clusters="s")
    assert list(out.columns) == [
        "g",
        "metric",
        "x",
        "y",
        "difference",
        "ci_low",
        "ci_high",
        "cluster_ci_low",
        "cluster_ci_high",
        "jackknife_ci_low",
        "jackknife_ci_high",
    ]
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
                tuple(np.nanpercentile(d[metric], [10, 90]))
            )
    w = jackknife_weights(clusters)
    d = ag.bootstrap_samples(a, b, w) - ag.bootstrap_samples(a, c, w)
    for metric in d.columns:
        assert z.loc[metric, "x"] == pytest.approx(fx[metric]) and z.loc[metric, "y"] == pytest.approx(fy[metric])
        assert z.loc[metric, "difference"] == pytest.approx(fx[metric] - fy[metric])
        loo = d[metric].to_numpy()
        se = math.sqrt(3 / 4 * ((loo - loo.mean()) ** 2).sum())
        assert z.loc[metric, "jackknife_ci_high"] == pytest.approx(fx[metric] - fy[metric] + 1.637744 * se, abs=1e-5)
    # defaults: 2000 draws, seed 0, 95 %
    plain = ag.bootstrap_difference(
        x.rename(columns={"annotator": "r", "item": "u"}),
        y.rename(columns={"annotator": "r", "item": "u"}),
        by=["g"],
        value="v",
        rater="r",
        item="u",
    ).set_index(["g", "metric"])
    w = resample(8, 2000, 0)
    d = ag.bootstrap_samples(a, b, w) - ag.bootstrap_samples(a, c, w)
    assert plain.loc[("Z", "alpha"), "ci_low"] == pytest.approx(np.percentile(d["alpha"], 2.5))
    assert plain.loc[("Z", "weighted_kappa"), "x"] == pytest.approx(fx["weighted_kappa"])
    with pytest.raises(ValueError, match=r"group \('Z',\): both scorings need the same items"):
        ag.bootstrap_difference(x, y.assign(item=y["item"] + "x"), by="g", value="v")


def test_severity_bias_every_column_against_scipy_and_by_hand():
    paired = pd.DataFrame(
        {
            "system": ["S2"] * 6 + ["S1"] * 3,
            "a": [1, 2, 3, 4, 5, 6, 1, 1, 1],
            "b": [2, 2, 5, 3, 9, 8, 1, 1, 1],
            "sentence": ["p", "p", "q", "q", "r", "r", "p", "q", "r"],
        }
    )
    out = raters.severity_bias(paired, "a", "b", clusters="sentence", n_perm=100, seed=1)
    assert list(out["system"]) == ["S2", "S1"]  # in order of appearance
    assert list(out.columns) == [
        "system",
        "n_items",
        "mean_a",
        "mean_b",
        "mean_difference",
        "share_b_higher",
        "share_a_higher",
        "share_equal",
        "wilcoxon_W",
        "p_value",
        "rank_biserial",
        "n_clusters",
        "p_cluster_permutation",
    ]
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
    plain = raters.severity_bias(paired.rename(columns={"system": "sys"}), "a", "b", by="sys")
    assert "n_clusters" not in plain.columns and list(plain["sys"]) == ["S2", "S1"]


SHROUT_FLEISS = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]


def test_icc_table_reproduces_shrout_fleiss_1979_table_2():
    rows = [
        {"g": "T", "item": i, "annotator": f"j{k}", "v": v}
        for i, r in enumerate(SHROUT_FLEISS)
        for k, v in enumerate(r)
    ]
    out = raters.icc_table(pd.DataFrame(rows), by="g", value="v")
    assert list(out.columns) == [
        "g",
        "n_items",
        "n_raters",
        "icc2_1",
        "icc2_1_ci_low",
        "icc2_1_ci_high",
        "icc2_k",
        "icc2_k_ci_low",
        "icc2_k_ci_high",
    ]
    row = out.iloc[0]
    assert (row["n_items"], row["n_raters"]) == (6, 4)
    assert round(row["icc2_1"], 2) == 0.29 and round(row["icc2_k"], 2) == 0.62  # Shrout & Fleiss 1979, Table 4
    ref = pg.intraclass_corr(data=pd.DataFrame(rows), targets="item", raters="annotator", ratings="v").set_index("Type")
    assert (row["icc2_1_ci_low"], row["icc2_1_ci_high"]) == pytest.approx(tuple(ref.loc["ICC(A,1)", "CI95"]))
    assert (row["icc2_k_ci_low"], row["icc2_k_ci_high"]) == pytest.approx(tuple(ref.loc["ICC(A,k)", "CI95"]))


# --------------------------------------------------------------------------- second pass (issue 21, mut2)


def no_warnings(fn, *args, **kwargs):
    """Call fn with every warning turned into an error: an undefined statistic is NaN (or the
    documented value) without numpy's 'invalid value' or 'divide by zero' on the way."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args, **kwargs)


def test_undefined_statistics_come_without_warnings():
    assert no_warnings(ag.weighted_kappa, [2, 2], [2, 2]) == 0.0  # E = 0: documented 0
    assert math.isnan(no_warnings(pearson, [1, 1, 1], [1, 2, 3]))
    assert math.isnan(no_warnings(pearson, [1, 2, 3], [2, 2, 2]))
    assert math.isnan(no_warnings(ag.interval_alpha_weighted, np.array([[2.0, 2.0], [2.0, 2.0]]), np.ones((1, 2)))[0])
    # MSB = MSW = 0: 0/0 for both; units of equal means: MSB = 0, MSW = 2 -> −2/2 and −2/0
    icc = no_warnings(raters.oneway_icc, [[1, 1], [1, 1]])
    assert math.isnan(icc[0]) and math.isnan(icc[1])
    assert no_warnings(raters.oneway_icc, [[1, 3], [3, 1]]) == (-1.0, -math.inf)
    # a constant rater (3) in a resample where the covariance's floating-point residue is not 0
    r = no_warnings(ag.bootstrap_samples, np.full(5, 3.0), np.array([0.0, 7, 0, 2, 4]), np.array([[1, 0, 2, 2, 2]]))
    assert math.isnan(r["pearson_r"][0]) and r["exact_agreement"][0] == 0.0
    # a resample where rater a is constant (1, 1) and the covariance is exactly 0: 0/0
    r = no_warnings(ag.bootstrap_samples, np.array([1.0, 1, 2]), np.array([1.0, 3, 2]), np.array([[1, 1, 0]]))
    assert math.isnan(r["pearson_r"][0]) and r["exact_agreement"][0] == 50.0
    nothing = pd.DataFrame(
        {
            "spans_a": [0],
            "spans_b": [0],
            "chars_a": [0],
            "chars_b": [0],
            "chars_both": [0],
            **{f"matched_{s}_{c}": [0] for s in "ab" for c in raters.SPAN_CRITERIA},
        }
    )
    assert no_warnings(raters.span_agreement, nothing)["agreement"].isna().all()
    # no item rated by two raters: every statistic undefined, n_items 0
    single = pd.DataFrame({"item": [1, 2], "annotator": ["A", "B"], "v": [1, 2], "g": "x"})
    row = no_warnings(ag.agreement, single, by="g", value="v").iloc[0]
    assert row["n_items"] == 0 and row[list(ag.METRICS)].isna().all()


def test_exact_zeros_are_zero_not_floating_point_residue():
    # κ: positions x = (0, 1, 1) and y = (0, 0, 0): O = 2/3, E = 2/9 + 0 + 4/9 -> 1 − 1 = 0 exactly
    mx, my = Fraction(2, 3), Fraction(0)
    e = (Fraction(2, 3) - mx**2) + (0 - my**2) + (mx - my) ** 2
    assert 1 - Fraction(2, 3) / e == 0
    assert ag.weighted_kappa([1, 3, 3], [1, 1, 1]) == 0.0
    # positions = values (labels 0…3): O = 17/5, E = var 6/5 + var 6/25 + (1 − 12/5)² = 17/5 -> 0;
    # the raw quotient is 1.1e-16
    assert 1 - Fraction(17, 5) / (Fraction(6, 5) + Fraction(6, 25) + Fraction(49, 25)) == 0
    assert ag.weighted_kappa([0, 3, 0, 1, 1], [2, 2, 2, 3, 3]) == 0.0
    # α of (2, 3, 3) and (0, 0, 3): D_o = 2·13/6, D_e = 2·(65/6)/5: both 13/3, α = 0 exactly;
    # the krippendorff package prints −2.2e-16 there, the closed form +1.1e-16 on the second case
    assert ag.krippendorff_alpha([[2, 3, 3], [0, 0, 3]]) == 0.0
    assert ag.krippendorff_alpha([[1, 1, 1], [1, 1, 3]]) == 0.0
    # every value 0.3: D_e is a residue (4e-17), not a variance: α undefined
    assert math.isnan(ag.interval_alpha_weighted(np.full((3, 2), 0.3), np.ones((1, 3)))[0])


def test_pearson_r_when_a_rater_has_standard_deviation_one():
    a, b = [0, 1, 2, 3], [1, 3, 1, 3]  # b: population sd exactly 1; cov 0.5, sd_a √1.25 -> r = 1/√5
    assert pearson(a, b) == pytest.approx(1 / math.sqrt(5))
    assert pearson(a, b) == pytest.approx(pearsonr(a, b)[0])


def test_oneway_icc_needs_two_units_and_two_raters():
    for data in ([[1, 2]], [[1], [2]]):
        assert all(math.isnan(v) for v in no_warnings(raters.oneway_icc, data))
    # two units: means 1.5, 4; MSB = 2·(1.25² + 1.25²)/1 = 6.25, MSW = 2.5/2 = 1.25 -> 5/7.5 and 5/6.25
    assert raters.oneway_icc([[1, 2], [3, 5]]) == pytest.approx((2 / 3, 0.8))  # (pingouin needs 5 values)


def _pingouin_icc1(data):
    long = pd.DataFrame([{"u": u, "k": k, "v": v} for u, r in enumerate(data) for k, v in enumerate(r)])
    res = pg.intraclass_corr(long, targets="u", raters="k", ratings="v").set_index("Type")
    return res.loc["ICC(1,1)", "ICC"], res.loc["ICC(1,k)", "ICC"]


def test_oneway_icc_by_cluster_both_rows_against_pingouin_and_student_t():
    data = [[1, 2], [3, 5], [6, 6], [2, 2], [7, 5], [4, 4.5]]
    docs = ["a", "a", "b", "b", "c", "c"]
    got = raters.oneway_icc_by_cluster(data, docs, ci=80)
    assert list(got.columns) == [
        "statistic",
        "estimate",
        "jackknife_ci_low",
        "jackknife_ci_high",
        "n_units",
        "n_clusters",
    ]
    assert list(got["statistic"]) == ["ICC(1,1)", "ICC(1,k)"]
    full = _pingouin_icc1(data)
    loo = np.array([_pingouin_icc1([r for r, d in zip(data, docs) if d != g]) for g in "abc"])
    t = student_t.ppf(0.9, 2)
    for i in range(2):
        row = got.iloc[i]
        se = math.sqrt(2 / 3 * ((loo[:, i] - loo[:, i].mean()) ** 2).sum())
        assert row["estimate"] == pytest.approx(full[i])
        assert row["jackknife_ci_low"] == pytest.approx(full[i] - t * se)
        assert row["jackknife_ci_high"] == pytest.approx(min(full[i] + t * se, 1.0))
        assert (row["n_units"], row["n_clusters"]) == (6, 3)


def _bias_frame():
    """Items (doc, seg); B listed before A; C alone on (d2, s2), so it has no item with others."""
    rows = [
        ("d1", "s1", "B", 1),
        ("d1", "s1", "A", 3),
        ("d1", "s2", "B", 2),
        ("d1", "s2", "A", 2),
        ("d2", "s1", "B", 0),
        ("d2", "s1", "A", 4),
        ("d2", "s2", "C", 5),
    ]
    frame = pd.DataFrame(rows, columns=["doc", "seg", "who", "v"])
    frame["who"] = pd.Categorical(frame["who"], categories=["A", "B", "C", "D"])  # D never rates
    return frame


def test_rater_bias_two_raters_items_of_two_columns_every_column():
    out = raters.rater_bias(_bias_frame(), "v", rater="who", item=["doc", "seg"], ci=80)
    assert list(out.columns) == [
        "rater",
        "n_items",
        "n_clusters",
        "mean_rater",
        "mean_others",
        "bias",
        "ci_low",
        "ci_high",
    ]
    assert list(out["rater"]) == ["A", "B"]  # sorted; C shares no item, D rated nothing
    a, b = out.iloc[0], out.iloc[1]
    # A − B on the three shared items: 2, 0, 4 (if seg alone were the item, s1 would pool d1 and d2)
    assert (a["n_items"], a["n_clusters"]) == (3, 3) and (b["n_items"], b["n_clusters"]) == (3, 3)
    assert (a["mean_rater"], a["mean_others"], a["bias"]) == pytest.approx((3.0, 1.0, 2.0))
    assert (b["mean_rater"], b["mean_others"], b["bias"]) == pytest.approx((1.0, 3.0, -2.0))
    # items as their own clusters: the ordinary t interval, sd 2, SE 2/√3, t_{2, .90}
    half = student_t.ppf(0.9, 2) * 2 / math.sqrt(3)
    assert (a["ci_low"], a["ci_high"]) == pytest.approx((2 - half, 2 + half))
    assert (b["ci_low"], b["ci_high"]) == pytest.approx((-2 - half, -2 + half))
    # documents as clusters, the cluster column among the item columns: A's sums 2 (d1) and 4 (d2)
    by_doc = raters.rater_bias(_bias_frame(), "v", rater="who", item=["doc", "seg"], clusters="doc").iloc[0]
    assert (by_doc["n_items"], by_doc["n_clusters"], by_doc["bias"]) == (3, 2, pytest.approx(2.0))
    # residuals per document: d1 (2 − 2) + (0 − 2) = −2, d2 4 − 2 = 2; SE² = 2/1 · 8/9, t_{1, .975}
    half = student_t.ppf(0.975, 1) * math.sqrt(2 * 8 / 9)
    assert (by_doc["ci_low"], by_doc["ci_high"]) == pytest.approx((2 - half, 2 + half))


def test_rater_bias_without_shared_items_is_an_empty_table_with_its_columns():
    out = raters.rater_bias(pd.DataFrame({"item": [1, 2], "annotator": ["A", "B"], "v": [1.0, 2.0]}), "v")
    assert len(out) == 0
    assert list(out.columns) == [
        "rater",
        "n_items",
        "n_clusters",
        "mean_rater",
        "mean_others",
        "bias",
        "ci_low",
        "ci_high",
    ]


def test_rating_matrix_defaults_and_unused_categories():
    frame = pd.DataFrame(
        {
            "item": ["i2", "i1", "i2", "i1"],
            "annotator": pd.Categorical(list("BBAA"), ["A", "B", "Z"]),
            "v": [1, 2, 3, 4],
        }
    )
    wide = ag.rating_matrix(frame, "v")
    assert list(wide.index) == ["i2", "i1"] and list(wide.columns) == ["B", "A"]  # order of appearance, no Z
    assert wide.loc["i1"].tolist() == [2, 4]
    assert all(pd.api.types.is_integer_dtype(t) for t in wide.dtypes)  # the ratings as given, not their means


def _categorical_groups(frame, column="g"):
    out = frame.copy()
    out[column] = pd.Categorical(out[column], categories=["never", *pd.unique(frame[column])])
    return out


def test_unused_group_categories_give_no_rows():
    frame = _categorical_groups(tidy(A, B))
    assert list(ag.agreement(frame, by="g", value="v")["g"]) == ["Z", "Y"]
    assert list(ag.bootstrap_agreement(frame, by="g", value="v", n_boot=20)["g"].unique()) == ["Z", "Y"]
    assert list(ag.bootstrap_difference(frame, frame, by="g", value="v", n_boot=20)["g"].unique()) == ["Z", "Y"]
    rows = [
        {"g": g, "item": i, "annotator": f"j{k}", "v": v}
        for g in ("T", "S")
        for i, r in enumerate(SHROUT_FLEISS)
        for k, v in enumerate(r)
    ]
    assert list(raters.icc_table(_categorical_groups(pd.DataFrame(rows)), by="g", value="v")["g"]) == ["T", "S"]


def test_agreement_kappa_labels_are_the_groups_values_or_the_given_scale():
    # A–B use 0, 1, 5 only; C uses 2: on the group's values (0, 1, 2, 5) 5 is position 3, not 2
    raters = {"A": [0, 1, 5, 5], "B": [0, 1, 5, 1], "C": [0, 2, 5, 5]}
    frame = pd.DataFrame(
        [{"g": "x", "item": i, "annotator": r, "v": v} for r, vals in raters.items() for i, v in enumerate(vals)]
    )
    pairs = [("A", "B"), ("A", "C"), ("B", "C")]
    observed = ag.agreement(frame, by="g", value="v").iloc[0]
    assert observed["weighted_kappa"] == pytest.approx(
        np.mean([cohen_kappa_score(raters[p], raters[q], weights="quadratic", labels=[0, 1, 2, 5]) for p, q in pairs])
    )
    scale = list(range(11))  # the severity scale 0…10: 5 is position 5
    given = ag.agreement(frame, by="g", value="v", labels=scale).iloc[0]
    assert given["weighted_kappa"] == pytest.approx(
        np.mean([cohen_kappa_score(raters[p], raters[q], weights="quadratic", labels=scale) for p, q in pairs])
    )
    assert given["weighted_kappa"] != pytest.approx(observed["weighted_kappa"])


def test_labels_order_the_scale_for_kappa_and_ordinal_alpha():
    # codes whose order is not numeric: 2 lies between 0 and 1 on this scale
    order = [0, 2, 1]
    a, b = [0, 2, 1, 1, 0, 2], [0, 1, 1, 2, 2, 2]
    frame = pd.DataFrame(
        [{"g": "x", "item": i, "annotator": r, "v": v} for r, vals in (("A", a), ("B", b)) for i, v in enumerate(vals)]
    )
    out = ag.agreement(frame, by="g", value="v", labels=order, level="ordinal").iloc[0]
    assert out["alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=[a, b], level_of_measurement="ordinal", value_domain=order)
    )
    assert out["alpha"] != pytest.approx(krippendorff.alpha(reliability_data=[a, b], level_of_measurement="ordinal"))
    assert out["weighted_kappa"] == pytest.approx(cohen_kappa_score(a, b, weights="quadratic", labels=order))
    assert ag.krippendorff_alpha([a, b], level="ordinal", value_domain=order) == pytest.approx(out["alpha"])


def test_agreement_on_a_nullable_integer_column_with_a_missing_rating():
    frame = pd.DataFrame(
        {
            "item": [1, 1, 2, 2, 3, 3, 4],
            "annotator": list("ABABABA"),
            "g": "x",
            "v": pd.array([1, 2, 3, 3, 4, pd.NA, 0], dtype="Int64"),
        }
    )
    row = ag.agreement(frame, by="g", value="v").iloc[0]
    # items 1 and 2 rated by both: (1, 2) and (3, 3)
    assert row["n_items"] == 2 and row["exact_agreement"] == 50.0
    assert row["alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=[[1, 3, 4, 0], [2, 3, np.nan, np.nan]], level_of_measurement="interval")
    )


def test_icc_table_groups_in_order_of_appearance_and_incomplete_items_dropped():
    rows = [
        {"system": s, "domain": "news", "item": i, "annotator": f"j{k}", "v": v + (s == "beta")}
        for s in ("zeta", "beta")
        for i, r in enumerate(SHROUT_FLEISS)
        for k, v in enumerate(r)
    ]
    rows.append({"system": "zeta", "domain": "news", "item": 99, "annotator": "j0", "v": 3})  # rated by one judge
    frame = pd.DataFrame(rows)
    one = raters.icc_table(frame, by="system", value="v")
    assert list(one["system"]) == ["zeta", "beta"]
    z = one.iloc[0]
    assert round(z["icc2_1"], 2) == 0.29 and round(z["icc2_k"], 2) == 0.62  # Shrout & Fleiss 1979 without item 99
    two = raters.icc_table(frame, by=["system", "domain"], value="v")
    assert two[["system", "domain"]].values.tolist() == [["zeta", "news"], ["beta", "news"]]
    assert two["icc2_1"].tolist() == pytest.approx(one["icc2_1"].tolist())


def test_bootstrap_refusals_name_the_group():
    full = tidy(A, B)
    gap = full.drop(index=3)  # group Z, rater B_rater, item i3
    with pytest.raises(ValueError, match=r"group \('Z',\) has \['B_rater', 'A_rater'\] with 1 missing ratings"):
        ag.bootstrap_agreement(gap, by="g", value="v", n_boot=5)
    with pytest.raises(ValueError, match=r"group \('Z',\) has \['B_rater', 'A_rater'\] with 1 missing"):
        ag.bootstrap_difference(gap, full, by="g", value="v", n_boot=5)
    with pytest.raises(ValueError, match=r"group \('Z',\) has \['B_rater', 'A_rater'\] with 1 missing"):
        ag.bootstrap_difference(full, gap, by="g", value="v", n_boot=5)


def test_bootstrap_agreement_with_a_scale_against_scikit_learn_per_resample():
    scale = [0, 2, 3, 4, 6, 8, 10]  # 3 is never used: positions of 4…10 move by one, κ changes
    frame = tidy(A, B)
    frame = frame[frame["g"] == "Z"]
    out = ag.bootstrap_agreement(frame, by="g", value="v", labels=scale, n_boot=40, seed=5, ci=90, clusters="s")
    row = out.set_index("metric").loc["weighted_kappa"]
    a, b = np.array(A), np.array(B)
    assert row["estimate"] == pytest.approx(cohen_kappa_score(A, B, weights="quadratic", labels=scale))
    assert row["estimate"] != pytest.approx(cohen_kappa_score(A, B, weights="quadratic"))

    def kappas(w):
        return [cohen_kappa_score(np.repeat(a, k), np.repeat(b, k), weights="quadratic", labels=scale) for k in w]

    clusters = [f"s{i // 2}" for i in range(8)]
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(tuple(np.percentile(kappas(resample(8, 40, 5)), [5, 95])))
    assert (row["cluster_ci_low"], row["cluster_ci_high"]) == pytest.approx(
        tuple(np.percentile(kappas(resample(8, 40, 5, clusters)), [5, 95]))
    )
    loo = np.array(kappas(jackknife_weights(clusters)))
    se = math.sqrt(3 / 4 * ((loo - loo.mean()) ** 2).sum())
    t = student_t.ppf(0.95, 3)
    assert (row["jackknife_ci_low"], row["jackknife_ci_high"]) == pytest.approx(
        (max(row["estimate"] - t * se, -1.0), min(row["estimate"] + t * se, 1.0))
    )


def test_severity_bias_monte_carlo_defaults():
    # 30 sentences, every difference +1: of the 2^30 sign patterns only all-plus and all-minus reach
    # |mean| = 1, so the 10000 default draws (almost surely) miss both and p = (0 + 1) / (10000 + 1)
    paired = pd.DataFrame({"system": "s", "a": 0.0, "b": 1.0, "sentence": np.arange(30)})
    row = raters.severity_bias(paired, "a", "b", clusters="sentence").iloc[0]
    assert row["n_clusters"] == 30 and row["p_cluster_permutation"] == pytest.approx(1 / 10001, rel=1e-9)
    # 18 sentences (Monte Carlo beyond 16): the seeded p is reproducible and near the exact one
    d = np.array([3, -1, 2, 2, -2, 1, 0, 4, -3, 1, 1, 2, -1, 3, 0, 2, -2, 1], dtype=float)
    mixed = pd.DataFrame({"system": "s", "a": 0.0, "b": d, "sentence": np.arange(18)})
    signs = 1 - 2 * ((np.arange(2**18)[:, None] >> np.arange(18)) & 1)
    exact = float((np.abs(signs @ d) >= abs(d.sum()) - 1e-9).mean())
    first = raters.severity_bias(mixed, "a", "b", clusters="sentence", n_perm=4000, seed=3).iloc[0]
    again = raters.severity_bias(mixed, "a", "b", clusters="sentence", n_perm=4000, seed=3).iloc[0]
    assert first["p_cluster_permutation"] == again["p_cluster_permutation"]
    assert first["p_cluster_permutation"] == pytest.approx(exact, abs=0.025)  # Monte Carlo SE ≈ 0.008


def _more_spans(dtype=int):
    item = {"system": "s", "doc": "d", "seg": 1}
    rows = [
        ("A", 0, 5, "Acc", "Major"),
        ("A", 3, 8, "Acc", "Major"),  # A's own spans overlap: 0…7 once
        ("A", 20, 22, "Flu", "Minor"),
        ("A", 30, 30, "Omi", "Major"),  # empty span: no character
        ("A", 62, 66, "Sty", "Minor"),
        ("A", 12, 10, "Flu", "Minor"),  # end before start: no character
        ("B", 4, 6, "Acc", "Major"),
        ("B", 22, 25, "Flu", "Minor"),  # touches A's [20, 22): no overlap
        ("B", 50, 55, "Acc", "Minor"),
        ("B", 60, 64, "Sty", "Major"),
    ]  # same category as A's, far away
    spans = pd.DataFrame(
        [
            {**item, "rater": r, "side": "target", "start": dtype(a), "end": dtype(b), "category": c, "severity": v}
            for r, a, b, c, v in rows
        ]
    )
    rated = pd.DataFrame([{**item, "rater": r} for r in "ABC"])
    return spans, rated


SPAN_COLUMNS = {
    "system",
    "doc",
    "seg",
    "rater_a",
    "rater_b",
    "spans_a",
    "spans_b",
    "chars_a",
    "chars_b",
    "chars_both",
    *(f"matched_{s}_{c}" for s in "ab" for c in raters.SPAN_CRITERIA),
}


@pytest.mark.parametrize("dtype", [int, float])
def test_span_matches_by_hand_overlapping_empty_and_touching_spans(dtype):
    spans, rated = _more_spans(dtype)
    m = raters.span_matches(spans, rated, ["system", "doc", "seg"])
    assert set(m.columns) == SPAN_COLUMNS and len(m.columns) == len(SPAN_COLUMNS)
    counts = [c for c in m.columns if c.startswith(("spans_", "chars_", "matched_"))]
    assert all(pd.api.types.is_integer_dtype(m[c]) for c in counts)
    m = m.set_index(["rater_a", "rater_b"])
    ab = m.loc[("A", "B")]
    assert (ab["spans_a"], ab["spans_b"]) == (6, 4)
    # A's [0,5) and [3,8) overlap B's [4,6) (each counted once for B); A's [62,66) overlaps B's [60,64)
    assert (ab["matched_a_overlap"], ab["matched_b_overlap"]) == (3, 2)
    assert (ab["matched_a_overlap+category"], ab["matched_b_overlap+category"]) == (3, 2)
    assert (ab["matched_a_overlap+category+severity"], ab["matched_b_overlap+category+severity"]) == (2, 1)
    # A: 0…7, 20, 21, 62…65 = 14; B: 4, 5, 22…24, 50…54, 60…63 = 14; both: 4, 5, 62, 63
    assert (ab["chars_a"], ab["chars_b"], ab["chars_both"]) == (14, 14, 4)
    bc = m.loc[("B", "C")]
    assert (bc["spans_a"], bc["spans_b"], bc["chars_a"], bc["chars_b"], bc["chars_both"]) == (4, 0, 14, 0, 0)
    assert all(bc[f"matched_{s}_{c}"] == 0 for s in "ab" for c in raters.SPAN_CRITERIA)


def test_span_matches_when_no_span_overlaps_another():
    spans, rated = _more_spans()
    apart = spans.iloc[[0, 8]]  # A [0,5) and B [50,55)
    m = raters.span_matches(apart, rated, ["system", "doc", "seg"]).set_index(["rater_a", "rater_b"])
    ab = m.loc[("A", "B")]
    assert (ab["spans_a"], ab["spans_b"], ab["chars_a"], ab["chars_b"], ab["chars_both"]) == (1, 1, 5, 5, 0)
    assert all(ab[f"matched_{s}_{c}"] == 0 for s in "ab" for c in raters.SPAN_CRITERIA)


def test_span_agreement_columns_with_and_without_resamples():
    spans, rated = _more_spans()
    m = raters.span_matches(spans, rated, ["system", "doc", "seg"])  # rows A–B, A–C, B–C
    plain = raters.span_agreement(m)
    assert list(plain.columns) == ["criterion", "agreement"] and len(plain) == 4
    # spans 10 + 6 + 4 = 20, matched 3 + 2 -> 5/20; characters 2·4 / (28 + 14 + 14)
    assert plain.set_index("criterion")["agreement"].tolist() == pytest.approx([5 / 20, 5 / 20, 3 / 20, 8 / 56])
    w = np.array([[1, 0, 0], [0, 2, 1]])
    got = raters.span_agreement(m, w)
    assert list(got.columns) == ["criterion", "resample", "agreement"]
    table = got.set_index(["criterion", "resample"])["agreement"]
    assert table[("overlap", 0)] == pytest.approx(5 / 10) and table[("overlap", 1)] == pytest.approx(0.0)
    assert table[("characters", 0)] == pytest.approx(8 / 28)


def test_span_characters_one_shared_character():
    item = {"system": "s", "doc": "d", "seg": 1}
    spans = pd.DataFrame(
        [
            {**item, "rater": r, "side": "target", "start": a, "end": b, "category": "Acc", "severity": "Minor"}
            for r, a, b in (("A", 2, 5), ("B", 4, 9))
        ]
    )
    rated = pd.DataFrame([{**item, "rater": r} for r in "AB"])
    ab = raters.span_matches(spans, rated, ["system", "doc", "seg"]).iloc[0]
    # A marks 2, 3, 4; B marks 4…8: character 4 is shared
    assert (ab["chars_a"], ab["chars_b"], ab["chars_both"]) == (3, 5, 1)
    assert raters.span_agreement(pd.DataFrame([ab])).set_index("criterion").loc["characters", "agreement"] == 2 / 8


def test_severity_bias_default_seed_is_0():
    # 18 sentences of one item each (Monte Carlo beyond 16): the default call draws its 10000 sign
    # patterns from numpy's default_rng(0), as paired_permutation_test documents; re-drawn here
    d = np.array([3, -1, 2, 2, -2, 1, 0, 4, -3, 1, 1, 2, -1, 3, 0, 2, -2, 1], dtype=float)
    paired = pd.DataFrame({"system": "s", "a": 0.0, "b": d, "sentence": np.arange(18)})

    def redrawn(seed):
        signs = np.random.default_rng(seed).choice([-1.0, 1.0], size=(10000, 18))
        hits = (np.abs(signs @ d / 18) >= abs(d.mean()) - 1e-12).sum()
        return (hits + 1) / 10001

    assert redrawn(0) != redrawn(1)  # the seed shows in p
    row = raters.severity_bias(paired, "a", "b", clusters="sentence").iloc[0]
    assert row["p_cluster_permutation"] == pytest.approx(redrawn(0), rel=1e-12)


def test_rater_bias_three_raters_with_document_clusters():
    s = pd.DataFrame(
        {
            "item": [1, 1, 1, 2, 2, 2, 3, 3, 3],
            "doc": ["x"] * 6 + ["y"] * 3,
            "annotator": list("ABC") * 3,
            "v": [3, 0, 0, 6, 3, 0, 1, 1, 1],
        }
    )
    got = raters.rater_bias(s, "v", clusters="doc").set_index("rater")
    # A: 3 − 0, 6 − 1.5, 1 − 1 -> mean 2.5; C: 0 − 1.5, 0 − 4.5, 0 -> −2
    assert got.loc["A", "bias"] == pytest.approx(2.5) and got.loc["C", "bias"] == pytest.approx(-2.0)
    assert got.loc["A", "n_clusters"] == 2
    low, high = stats.cluster_t_interval([3, 4.5, 0], ["x", "x", "y"])
    assert (got.loc["A", "ci_low"], got.loc["A", "ci_high"]) == pytest.approx((low, high))


def _spans():
    unit = {"system": "s", "doc": "d", "doc_seg_id": 1}
    rows = [
        ("A", "target", 0, 5, "Accuracy", "Major"),
        ("A", "target", 10, 12, "Fluency", "Minor"),
        ("B", "target", 3, 8, "Accuracy", "Minor"),
        ("B", "target", 20, 25, "Style", "Minor"),
        ("B", "source", 0, 4, "Accuracy", "Minor"),
    ]
    spans = pd.DataFrame(
        [
            {**unit, "rater": r, "side": sd, "start": a, "end": b, "category": c, "severity": v}
            for r, sd, a, b, c, v in rows
        ]
    )
    rated = pd.DataFrame([{**unit, "rater": r} for r in "ABC"])
    return spans, rated


def test_span_agreement_on_hand_made_spans():
    spans, rated = _spans()
    m = raters.span_matches(spans, rated, ["system", "doc", "doc_seg_id"]).set_index(["rater_a", "rater_b"])
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
    table = raters.span_agreement(m.reset_index()).set_index("criterion")["agreement"]
    # spans: A–B 5 spans, 2 matched; A–C 2, none; B–C 3, none -> 2 / 10
    assert table["overlap"] == pytest.approx(2 / 10) and table["overlap+category+severity"] == 0
    assert table["characters"] == pytest.approx(2 * 2 / (7 + 14 + 7 + 14))


def test_span_agreement_resamples_as_weights():
    spans, rated = _spans()
    m = raters.span_matches(spans, rated, ["system", "doc", "doc_seg_id"])
    twice = raters.span_agreement(m, np.array([[2, 0, 0]]))  # only the A–B pair, twice
    assert twice.set_index("criterion").loc["overlap", "agreement"] == pytest.approx(2 / 5)


def test_oneway_icc_is_pingouins_icc1():
    import pingouin as pg

    rng = np.random.default_rng(5)
    data = rng.normal(0, 1, (30, 1)) + rng.normal(0, 0.7, (30, 3))
    long = pd.DataFrame([{"unit": u, "slot": k, "v": data[u, k]} for u in range(30) for k in range(3)])
    res = pg.intraclass_corr(long, targets="unit", raters="slot", ratings="v").set_index("Type")
    assert raters.oneway_icc(data) == pytest.approx((res.loc["ICC(1,1)", "ICC"], res.loc["ICC(1,k)", "ICC"]))


def test_oneway_icc_by_cluster_leaves_documents_out():
    data = np.array([[1, 2], [3, 5], [6, 6], [2, 2], [7, 5], [4, 4.5]])
    docs = ["a", "a", "b", "b", "c", "c"]
    got = raters.oneway_icc_by_cluster(data, docs).set_index("statistic")
    loo = [raters.oneway_icc(data[[i for i, d in enumerate(docs) if d != g]])[0] for g in "abc"]
    low, high = stats.jackknife_t_interval(raters.oneway_icc(data)[0], loo)
    assert got.loc["ICC(1,1)", "jackknife_ci_low"] == pytest.approx(low)
    assert got.loc["ICC(1,1)", "jackknife_ci_high"] == pytest.approx(min(high, 1.0))
    assert got.loc["ICC(1,1)", "n_clusters"] == 3
