"""Chapter 04's module (:mod:`helpers.explanations.ch04`): its parameter checks, and its findings
recomputed from small result CSVs written by hand, every number worked out here."""

from __future__ import annotations

import math

import krippendorff
import pandas as pd
import pytest

from helpers.core.book.findings import Words
from helpers.core.errors import InputError
from helpers.explanations import ch04
from helpers.explanations.io import SCORES

WORDS = Words("04_explanation_judgements", shared=("explanations",))


def _summary(simulated=True, **changes):
    rows = {
        "simulated": int(simulated),
        "simulated_raters": 4,
        "seed": 7,
        "benchmark_items": 10,
        "skipped": 0,
        "items": 10,
        "raters": 4,
        "ratings": 280,
        "cluster_threshold": 0.6,
        "n_boot": 50,
        "n_null": 199,
        "n_seeds": 3,
        **changes,
    }
    return pd.DataFrame({"quantity": list(rows), "value": list(rows.values()), "text": ""})


def _tables(simulated=True) -> dict[str, pd.DataFrame]:
    """One small run of the chapter as its CSVs (three dimensions: origin, mapping, purpose)."""
    t = {
        "data_summary": _summary(simulated),
        "design_contrast": pd.DataFrame(
            {
                "dimension": ["origin", "mapping", "purpose"],
                "difference": [2.0, 0.5, 1.0],
                "p_value": [0.001, 0.2, 0.01],
            }
        ),
        "reliability": pd.DataFrame(
            {
                "dimension": ["origin", "mapping", "purpose"],
                "alpha": [0.4, 0.85, 0.6],
                "alpha_ci_low": [0.3, 0.8, 0.5],
                "alpha_ci_high": [0.5, 0.9, 0.7],
            }
        ),
        # every ordered pair, as spearman_table writes it; the findings keep origin < mapping < purpose
        "spearman": pd.DataFrame(
            {
                "dimension_a": ["origin", "mapping", "origin", "purpose", "mapping", "purpose", "origin"],
                "dimension_b": ["mapping", "origin", "purpose", "origin", "purpose", "mapping", "origin"],
                "rho": [0.3, 0.3, 0.1, 0.1, 0.8, 0.8, 1.0],
                "p_value": [0.01, 0.01, 0.4, 0.4, 0.001, 0.001, 0.0],
                "n": 40,
                "rho_items": [0.2, 0.2, 0.05, 0.05, 0.9, 0.9, 1.0],
                "p_items": [0.3, 0.3, 0.5, 0.5, 0.002, 0.002, 0.0],
                "n_items": 10,
            }
        ),
        "cluster_stability": pd.DataFrame(
            {
                "dimension": ["origin", "mapping", "purpose"],
                "merge_distance": [0.9, 0.2, 0.61],
                "independent_share_bootstrap": [0.95, 0.05, 0.5],
                "independent_share_seeds": [1.0, 0.0, 0.4],
                "n_boot": 50,
                "n_seeds": 3,
            }
        ),
        "regression": pd.DataFrame(
            {
                "predictor": ["origin", "mapping", "purpose"],
                "beta": [0.1, 0.5, 0.3],
                "se": [1.0, 2.0, 1.0],
                "p_value": [0.01, 0.01, 0.2],
                "vif": [1.1, 2.0, 1.5],
                "se_cluster": [1.5, 2.2, 1.0],
                "p_cluster": [0.2, 0.01, 0.3],
                "ci90_cluster_low": [0.0, 0.4, 0.1],
                "ci90_cluster_high": [0.2, 0.6, 0.5],
            }
        ),
        "regression_fit": pd.DataFrame({"r2": [0.7], "n_ratings": [40], "n_items": [10]}),
        "disagreement_null": pd.DataFrame(
            {
                "dimension": ["overall"],
                "observed_quadratic": [-0.16],
                "ols_p_value": [1e-9],
                "null_mean": [-0.15],
                "null_ci_low": [-0.18],
                "null_ci_high": [-0.12],
                "p_value": [0.6],
                "latent_sd": [0.9],
                "n_null": [199],
            }
        ),
        "disagreement_shape": pd.DataFrame(
            {"scores": ["observed", "latent"], "quadratic": [-0.16, 0.01], "quadratic_p": [1e-9, 0.7]}
        ),
        "disagreement_null_thresholds": pd.DataFrame(
            {
                "thresholds_from": ["rounding (k + ½)", "fitted (ordered probit, one latent SD)"],
                "thresholds": ["1.50, 2.50, 3.50, 4.50", "1.50, 2.46, 3.48, 4.50"],
                "p_value": [0.6, 0.03],
            }
        ),
    }
    if simulated:
        t["simulator_truth"] = pd.DataFrame(
            {
                "dimension": ["origin", "mapping", "purpose", "overall"],
                "loading": [0.0, 1.0, 0.5, 0.8],
                "noise": 1.0,
                "overall_weight": [0.2, 0.5, 0.3, math.nan],
                "pass_level": [4.1, 4.1, 4.1, math.nan],
                "fail_level": [1.9, 1.9, 1.9, math.nan],
            }
        )
    return t


def _write(folder, tables):
    for name, frame in tables.items():
        frame.to_csv(folder / f"{name}.csv", index=False)
    return folder


def _rows(frame):
    return frame.set_index(["quantity", "group"])


def test_findings_recomputed_from_hand_made_result_csvs(tmp_path):
    found = ch04.findings(_write(tmp_path, _tables()))
    f = _rows(found)

    def value(q, g=""):
        return f.loc[(q, g), "value"]

    # reliability: lowest α origin 0.4 [0.3, 0.5], highest mapping 0.85; one of three reaches 0.8
    assert (value("alpha_lowest"), f.loc[("alpha_lowest", ""), "text"]) == (0.4, "origin")
    assert f.loc[("alpha_lowest", ""), ["ci_low", "ci_high"]].tolist() == [0.3, 0.5]
    assert (value("alpha_highest"), f.loc[("alpha_highest", ""), "text"]) == (0.85, "mapping")
    assert (value("reliable"), value("scores"), value("reliable_alpha")) == (1, 3, 0.8)
    # design: gaps 0.5 to 2.0, two of three with p < .05; the simulator's gap 4.1 − 1.9
    assert (value("gap_lowest"), value("gap_highest"), value("designed_significant"), value("dimensions")) == (
        0.5,
        2.0,
        2,
        3,
    )
    assert value("generating_gap") == pytest.approx(2.2)
    # Spearman: three pairs; origin–mapping significant on ratings (p .01) but not on item means (p .3)
    assert (value("pairs"), value("significant_ratings"), value("significant_items"), value("flipped")) == (3, 2, 1, 1)
    assert (value("n_ratings"), value("n_items")) == (40, 10)
    assert value("flip_ratings", "origin–mapping") == 0.3 and f.loc[("flip_items", "origin–mapping"), "p"] == 0.3
    # clusters: origin ≥ 0.9 alone, mapping ≤ 0.1, purpose in between (joins at 0.61 against the cut 0.6)
    assert f.loc[("independent_axes", ""), "text"] == "origin" and f.loc[("shared_axes", ""), "text"] == "mapping"
    assert (value("n_unstable"), value("unstable", "purpose"), value("merge_distance", "purpose")) == (1, 0.5, 0.61)
    assert (value("n_boot"), value("threshold"), value("stable"), value("unstable_seeds", "purpose")) == (
        50,
        0.6,
        0.9,
        0.4,
    )
    # recovered clusters in order of the generating loading: origin 0, purpose 0.5, mapping 1
    loading = found[found["quantity"] == "loading"]
    assert loading["group"].tolist() == ["origin", "purpose", "mapping"] and value("alone", "purpose") == 0.5
    # drivers: β mapping 0.5, purpose 0.3; origin and purpose not significant with clustered errors;
    # SE ratios 1.5, 1.1, 1.0; origin loses significance (p .01 naive, .2 clustered)
    assert (f.loc[("first_beta", ""), "text"], value("first_beta")) == ("mapping", 0.5)
    assert f.loc[("first_beta", ""), ["ci_low", "ci_high"]].tolist() == [0.4, 0.6]
    assert (f.loc[("second_beta", ""), "text"], value("second_beta")) == ("purpose", 0.3)
    assert (value("not_significant"), f.loc[("not_significant", ""), "text"]) == (2, "origin and purpose")
    assert (value("largest_vif"), value("predictors"), value("r2")) == (2.0, 3, 0.7)
    assert (value("se_ratio_lowest"), value("se_ratio_highest")) == (1.0, 1.5)
    assert (value("lost"), f.loc[("lost", ""), "text"]) == (1, "origin")
    # β ranks the dimensions as the weights 0.5, 0.3, 0.2 do
    assert f.loc[("top_betas", ""), "text"] == f.loc[("top_weights", ""), "text"] == "mapping, purpose and origin"
    assert (value("same_top"), value("same_order"), value("recovered_rho")) == (1, 1, 1.0)
    # the hump: −0.16 with p 1e-9 against 0, but the null's p is 0.6: like the bounded scale
    assert f.loc[("curvature", ""), "text"] == "hump" and value("quadratic") == -0.16
    assert (value("beyond_null"), value("like_null"), value("weaker_than_null")) == (0, 1, 0)
    assert (value("latent_quadratic"), f.loc[("latent_quadratic", ""), "p"]) == (0.01, 0.7)
    # thresholds: p from 0.03 to 0.6, so the reading depends on them
    assert (value("null_p_lowest"), value("null_p_highest"), value("thresholds_matter")) == (0.03, 0.6, 1)
    assert f.loc[("fitted_thresholds", ""), "text"] == "1.50, 2.46, 3.48, 4.50"
    # the provenance: the simulator's settings
    assert (value("simulated"), value("simulated_raters"), value("seed"), value("ratings")) == (1, 4, 7, 280)
    text = WORDS.text("findings", found)
    assert "Interval α ranges from 0.40 (origin, 95% CI [0.30, 0.50]) to 0.85 (mapping" in text
    assert "1 of 3 scores reach 0.800" in text and "on the fence at the cut 0.60" in text
    assert "the reading depends on the thresholds" in text
    shape = WORDS.text("shape", found)
    assert "disagreement peaks at intermediate quality (negative quadratic term)" in shape  # the verdicts table


def test_real_ratings_leave_the_simulator_out(tmp_path):
    found = _rows(ch04.findings(_write(tmp_path, _tables(simulated=False))))
    for q in ("generating_gap", "loading", "alone", "top_betas", "recovered_rho", "seed", "simulated_raters"):
        assert pd.isna(found.loc[(q, ""), "value"]) and found.loc[(q, ""), "text"] == "", q
    text = WORDS.text("findings", found.reset_index())
    assert "Recovered by construction" not in text and "**Design.** Items designed to fail" in text


def test_findings_before_any_table_is_saved_are_all_not_applicable(tmp_path):
    """The chapter reads its findings after each step: with only the data summary saved every
    quantity is there, and only the ratings' are applicable."""
    _write(tmp_path, {"data_summary": _summary()})
    found = ch04.findings(tmp_path)
    applicable = found[found["value"].notna() | (found["text"] != "")]["quantity"].tolist()
    assert applicable == [
        "simulated",
        "simulated_raters",
        "seed",
        "benchmark_items",
        "skipped",
        "items",
        "raters",
        "ratings",
    ]
    assert {"alpha_lowest", "curvature", "threshold_p", "loading"} <= set(found["quantity"])
    assert WORDS.text("data", found).startswith("10 explanations, 4 raters, 280 ratings.")


@pytest.mark.parametrize(
    "quadratic, p, key, phrase",
    [
        (-0.2, 0.001, "hump", "disagreement peaks"),
        (0.2, 0.01, "dip", "disagreement is lowest"),
        (-0.2, 0.2, "flat", "no clear curvature"),
    ],
)
def test_the_curvature_is_a_key_the_words_phrase(tmp_path, quadratic, p, key, phrase):
    _write(
        tmp_path,
        {"disagreement_shape": pd.DataFrame({"scores": ["observed"], "quadratic": [quadratic], "quadratic_p": [p]})},
    )
    found = ch04.findings(tmp_path)
    assert found.set_index("quantity").loc["curvature", "text"] == key
    text = WORDS.text("shape", found)
    assert phrase in text and f"{quadratic:+.3f}" in text
    assert "bounded-scale null" not in text and "latent scores" not in text  # no null, no simulator: left out


@pytest.mark.parametrize(
    "observed, p, reading",
    [(-0.16, 0.6, "not distinguishable"), (-0.2, 0.01, "stronger than"), (-0.1, 0.01, "weaker than")],
)
def test_against_the_null_exactly_one_reading_holds(tmp_path, observed, p, reading):
    """The null's mean is −0.15: a term below it with p < .05 is a hump beyond the scale, above it weaker."""
    tables = _tables()
    tables["disagreement_null"] = tables["disagreement_null"].assign(observed_quadratic=observed, p_value=p)
    text = WORDS.text("shape", ch04.findings(_write(tmp_path, tables)))
    assert reading in text and "95% of 199 replicates between -0.180 and -0.120" in text
    assert sum(phrase in text for phrase in ("not distinguishable", "stronger than", "weaker than")) == 1


def test_clusters_sentence_with_no_independent_axis(tmp_path):
    tables = _tables()
    tables["cluster_stability"] = tables["cluster_stability"].assign(independent_share_bootstrap=0.5)
    text = WORDS.text("clusters", ch04.findings(_write(tmp_path, tables)))
    assert "item resamples: none." in text and "shared cluster in at least 90%: none." in text


def test_skipped_notes_are_escaped_for_the_data_box(tmp_path):
    summary = _summary(simulated=False)
    summary.loc[summary["quantity"] == "skipped", ["value", "text"]] = [2, "<b>a.xlsx</b>: empty; b & c"]
    _write(tmp_path, {"data_summary": summary})
    text = WORDS.text("provenance", ch04.findings(tmp_path))
    assert "&lt;b&gt;a.xlsx&lt;/b&gt;: empty; b &amp; c." in text and "4 raters, 10 explanations" in text


def test_the_box_wraps_the_words_and_the_table():
    frame = pd.DataFrame({"dimension": ["origin"], "estimate": [0.5]})
    box = ch04.by_construction(WORDS, frame, "One <sentence>.\n\n- first\n- second").data
    assert box.startswith("<div class='by-construction'") and "Recovered by construction (simulated data)" in box
    assert "<p>One &lt;sentence&gt;.</p><ul><li>first</li><li>second</li></ul>" in box and "<table" in box
    assert ch04.by_construction(WORDS, None, "text") is None


def test_ratings_are_checked_against_the_benchmark(tmp_path):
    path = tmp_path / "ratings.csv"
    pd.DataFrame(
        {"item_id": ["E001", "X999"], "rater": ["r1", "r2"], "dimension": ["mapping", "mapping"], "score": [3, 4]}
    ).to_csv(path, index=False)
    with pytest.raises(
        InputError,
        match=r"ratings.csv, column 'item_id': value 'X999': 1 rated item\(s\) are not in "
        r"the benchmark",
    ) as err:
        ch04.setup(ratings_file=str(path))
    assert err.value.parameter == "ratings_file"
    with pytest.raises(InputError, match=r"parameter 'rating_model'.*unknown rating-model knob"):
        ch04.setup(rating_model={"halo": 2})


@pytest.mark.parametrize("name, value", [("cluster_threshold", 2.5), ("n_boot", 10), ("n_null", 50), ("n_seeds", -1)])
def test_setup_names_the_parameter_out_of_range(name, value):
    with pytest.raises(InputError) as err:
        ch04.setup(**{name: value})
    assert err.value.parameter == name


def test_description_states_the_ratings_and_the_resamples():
    setup = ch04.setup(n_raters=3, n_boot=40)
    box = setup.load()
    d = ch04.description(box, setup).set_index("quantity")["value"]
    assert (d["simulated"], d["simulated_raters"], d["raters"], d["items"]) == (1, 3, 3, 100)
    assert d["ratings"] == len(box.ratings) == 3 * 100 * 7 and (d["n_boot"], d["cluster_threshold"]) == (40, 0.6)


def test_contrast_beside_truth_by_hand():
    from helpers.explanations import ch04

    contrast = pd.DataFrame(
        {
            "dimension": ["origin", "mapping"],
            "mean_pass": [4.0, 3.5],
            "mean_fail": [2.0, 3.0],
            "difference": [2.0, 0.5],
            "u": [1, 2],
        }
    )
    truth = pd.DataFrame({"dimension": ["mapping", "origin"], "pass_level": [4.2, 4.4], "fail_level": [3.0, 1.8]})
    out = ch04.contrast_beside_truth(contrast, truth)
    assert out.columns.tolist() == ["dimension", "mean_pass", "mean_fail", "difference", "generating_gap"]
    assert out["generating_gap"].tolist() == pytest.approx([4.4 - 1.8, 4.2 - 3.0])
    assert ch04.contrast_beside_truth(contrast, None) is None


def test_calibration_band_against_the_krippendorff_package():
    from helpers.explanations import ch04
    from helpers.explanations.io import load_benchmark
    from helpers.explanations.simulate import RatingModel, simulate_ratings

    bench, model = load_benchmark(), RatingModel()
    band = ch04.calibration_band(bench, 4, model, seeds=[0, 1], low=0.0, high=0.9)
    assert band.index.tolist() == list(SCORES) and band.columns.tolist() == ["min", "max", "within 0.00–0.90"]
    ref = {}
    for seed in (0, 1):
        r = simulate_ratings(bench, 4, seed, model)
        for d in SCORES:
            m = r[r["dimension"] == d].pivot(index="rater", columns="item_id", values="score").to_numpy(dtype=float)
            ref.setdefault(d, []).append(krippendorff.alpha(reliability_data=m, level_of_measurement="interval"))
    for d in SCORES:
        assert band.loc[d, ["min", "max"]].tolist() == pytest.approx([min(ref[d]), max(ref[d])])
        assert band.loc[d, "within 0.00–0.90"] == (min(ref[d]) >= 0.0 and max(ref[d]) <= 0.9)
