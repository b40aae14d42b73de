"""Chapter 05's module (:mod:`helpers.explanations.ch05`): its parameter checks, and its findings
recomputed from small result CSVs written by hand, every number worked out here."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from helpers.core.book.findings import Words
from helpers.core.errors import InputError
from helpers.explanations import ch04, ch05
from helpers.explanations import evaluator as ev

WORDS = Words("05_explanation_evaluator", shared=("explanations",))
DIMS = ["non_circularity", "origin", "mapping", "emergence", "accessibility", "purpose"]


def _summary(simulated=True, n_test=None):
    rows = [
        ("simulated", int(simulated), ""),
        ("simulated_raters", 16, ""),
        ("seed", 42, ""),
        ("benchmark_items", 100, ""),
        ("skipped", 0, ""),
        ("items", 100, ""),
        ("raters", 16, ""),
        ("ratings", 11200, ""),
        ("mode", None, "frozen"),
        ("encoder", None, "all-MiniLM-L6-v2"),
        ("packaged", 1, ""),
        ("n_test", n_test, ""),
        ("n_splits", 2, ""),
        ("n_rating_sets", 2, ""),
    ]
    return pd.DataFrame(rows, columns=["quantity", "value", "text"])


def _split(n_metaphors=100, n_held_out=20):
    return pd.DataFrame(
        {
            "item_id": [f"E{k}" for k in range(n_metaphors)],
            "metaphor": [f"m{k}" for k in range(n_metaphors)],
            "set": ["held-out"] * n_held_out + ["train"] * (n_metaphors - n_held_out),
        }
    )


def _tables(simulated=True) -> dict[str, pd.DataFrame]:
    scores = DIMS + ["overall", "overall (stage 2)"]
    t = {
        "data_summary": _summary(simulated),
        "split": _split(),
        "stage2_cv": pd.DataFrame({"fold": [1, 2], "mae": [0.6, 0.8]}),
        "evaluator_mae": pd.DataFrame(
            {
                "score": scores,
                "test_mae": [0.5, 0.7, 0.4, 0.6, 0.9, 0.3, 0.75, 0.9],
                "mean_baseline_mae": [0.6, 0.6, 0.8, 0.6, 0.7, 0.5, 0.7, 0.7],
                "similarity_baseline_mae": 0.8,
                "delta": [0.2, 0.3, 0.1, 0.25, 0.4, 0.15, 0.35, 0.5],
            }
        ),
        "judge_vs_baselines": pd.DataFrame(
            {
                "other": ["training mean", "stage 1 overall"],
                "judge_mae": 0.9,
                "other_mae": [0.7, 0.75],
                "difference": [0.2, 0.15],
                "ci_low": [0.05, -0.1],
                "ci_high": [0.35, 0.4],
                "n_items": 20,
            }
        ),
        "judge_vs_baseline_replicates": pd.DataFrame(
            {
                "ratings": ["seed 42", "seed 42", "seed 43", "seed 43"],
                "split_seed": [0, 1, 0, 1],
                "n_held_out": 20,
                "difference": [0.1, -0.05, 0.2, 0.3],
            }
        ),
        "disagreement_vs_error": pd.DataFrame(
            {"statistic": ["pearson_r", "rho"], "value": [0.3, 0.2], "p_value": [0.2, 0.4], "n": 20}
        ),
        "judge_weights": pd.DataFrame({"dimension": DIMS, "weight": [0.1, 0.05, 0.15, 0.4, 0.12, 0.18]}),
    }
    if simulated:
        t["simulator_truth"] = pd.DataFrame(
            {"dimension": DIMS + ["overall"], "overall_weight": [0.08, 0.04, 0.12, 0.4, 0.1, 0.26, np.nan]}
        )
    return t


def _write(folder, tables):
    for name, frame in tables.items():
        frame.to_csv(folder / f"{name}.csv", index=False)
    return folder


def test_findings_recomputed_from_hand_made_result_csvs(tmp_path):
    found = ch05.findings(_write(tmp_path, _tables()))
    f = found.set_index("quantity")
    assert not found.duplicated(["quantity", "group"]).any()

    def value(q):
        return f.loc[q, "value"]

    # the set-up: 100 metaphors, 20 held out (a fifth, the paper's 20 of 100); folds' MAE 0.6, 0.8
    assert (
        value("n_metaphors"),
        value("n_train"),
        value("n_held_out"),
        value("held_out_share"),
        value("paper_share"),
        value("stage2_cv_mae"),
    ) == (100, 80, 20, 1, 1, pytest.approx(0.7))
    # Fisher z: tanh((z.975 + z.80)/√(20 − 3))
    assert value("held_out_detectable_r") == pytest.approx(np.tanh((1.959964 + 0.841621) / np.sqrt(17)), abs=1e-6)
    assert (f.loc["mode", "text"], f.loc["encoder", "text"], value("packaged")) == ("frozen", "all-MiniLM-L6-v2", 1)
    # stage 1 beats the mean on non_circularity, mapping and purpose (3 of the 7 scores, 3 of the 6 dimensions);
    # the largest gain is mapping's (1 − 0.4/0.8 = 0.5; purpose 0.4, non_circularity 1/6)
    assert (value("better_scores"), f.loc["better_scores", "text"]) == (3, "non_circularity, mapping and purpose")
    assert (value("worse_scores"), value("n_scores"), value("better_dimensions"), value("n_dimensions")) == (4, 7, 3, 6)
    assert (f.loc["best_gain_mae", "text"], value("best_gain_mae"), value("best_gain_baseline")) == (
        "mapping",
        0.4,
        0.8,
    )
    # Δ over the seven scores 0.1–0.4 (stage 2's 0.5 is not one of them), the six dimensions too
    assert (value("delta_lowest"), value("delta_highest"), value("overfit_lowest"), value("overfit_highest")) == (
        0.1,
        0.4,
        0.1,
        0.4,
    )
    # the judge: 0.9 against the training mean's 0.7 and similarity's 0.8; difference 0.2 [0.05, 0.35]: worse
    assert (value("judge_mae"), value("mean_baseline_mae"), value("beats_mean"), value("beats_similarity")) == (
        0.9,
        0.7,
        0,
        0,
    )
    assert (value("constant_mae"), value("judge_difference"), value("held_out_items")) == (0.7, 0.2, 20)
    assert f.loc["judge_difference", ["ci_low", "ci_high"]].tolist() == [0.05, 0.35]
    assert f.loc["judge_verdict", "text"] == "worse" and value("stage1_overall_mae") == 0.75
    assert value("paper_judge_mae") == 0.689  # Naveriani et al. 2026, Table 5, Overall quality
    # the replicates: 3 of 4 fits worse (0.75: neither ≥ 0.8 nor ≤ 0.2), median of −0.05, 0.1, 0.2, 0.3 = 0.15
    assert (value("fits"), value("splits"), value("rating_sets"), value("judge_worse")) == (4, 2, 2, 3)
    assert (value("difference_lowest"), value("difference_highest"), value("difference_median")) == (
        -0.05,
        0.3,
        pytest.approx(0.15),
    )
    assert f.loc["replicate_reading", "text"] == "depends" and value("replicate_held_out") == 20
    # disagreement: r 0.3, p 0.2 over 20 items, not significant
    assert (
        value("disagreement_r"),
        f.loc["disagreement_r", "p"],
        value("disagreement_n"),
        value("disagreement_significant"),
        value("disagreement_undefined"),
    ) == (0.3, 0.2, 20, 0, 0)
    # the importances rank the dimensions as the simulator's weights do; emergence weighs most
    assert value("importance_rho") == pytest.approx(1.0) and f.loc["most_important", "text"] == "emergence"
    text = WORDS.text("findings", found)
    assert "on this split the judge is worse than a constant" in text
    assert "whether the judge beats a constant depends on the split and the ratings" in text
    assert "Spearman ρ = 1.00 against the simulator's Overall weights (most important: emergence)" in text


def test_real_ratings_have_no_rating_sets_and_no_simulator(tmp_path):
    tables = _tables(simulated=False)
    tables["judge_vs_baselines"] = tables["judge_vs_baselines"].assign(ci_low=-0.1)
    f = ch05.findings(_write(tmp_path, tables)).set_index("quantity")
    assert pd.isna(f.loc["rating_sets", "value"]) and f.loc["simulated_ratings", "value"] == 0
    assert pd.isna(f.loc["importance_rho", "value"]) and f.loc["judge_verdict", "text"] == "same"
    assert "not distinguishable from a constant" in WORDS.text("findings", f.reset_index())


@pytest.mark.parametrize(
    "differences, key",
    [
        ([0.1, 0.2], "always"),
        ([0.1] * 4 + [-0.1], "mostly worse"),
        ([-0.1] * 4 + [0.1], "mostly better"),
        ([0.1, -0.1], "depends"),
    ],
)
def test_the_replicate_reading_follows_the_share_of_worse_fits(tmp_path, differences, key):
    n = len(differences)
    _write(
        tmp_path,
        {
            "data_summary": _summary(),
            "judge_vs_baseline_replicates": pd.DataFrame(
                {"ratings": "seed 42", "split_seed": range(n), "n_held_out": 4, "difference": differences}
            ),
        },
    )
    found = ch05.findings(tmp_path)
    assert found.set_index("quantity").loc["replicate_reading", "text"] == key
    assert WORDS.verdict("replicate_reading", key) in WORDS.text("replicates", found)
    assert "simulated rating sets" not in WORDS.text("replicates", found)  # one rating set


def _setup_text(tmp_path, n_metaphors, n_test, given=None):
    _write(
        tmp_path,
        {
            "data_summary": _summary(n_test=given),
            "split": _split(n_metaphors, n_test),
            "stage2_cv": pd.DataFrame({"fold": [1], "mae": [0.5]}),
        },
    )
    return WORDS.text("setup", ch05.findings(tmp_path))


def test_the_setup_says_how_many_metaphors_are_held_out_and_why(tmp_path):
    """The sentence under the chapter's MAE table, for the book's 100 metaphors, a class's 20
    and an explicit n_test (split tables built by hand; the wording is the words file's)."""
    book = _setup_text(tmp_path, 100, 20)
    assert "80 training and 20 held-out metaphors" in book
    assert "20 of the 100 metaphors are held out, as in the paper." in book
    assert "|r| ≥ 0.59 with 80% power" in book  # tanh((1.960 + 0.842) / √17)
    assert "a fifth, the paper's share" in _setup_text(tmp_path, 20, 4)
    assert "6 of the 20 metaphors are held out, as `n_test` asks." in _setup_text(tmp_path, 20, 6, given=6)
    assert "|r|" not in _setup_text(tmp_path, 10, 2)  # two items detect no correlation at all


def test_disagreement_on_a_few_held_out_items_is_said(tmp_path):
    """A class's 4 held-out items, all with the same human SD: no correlation, and a sentence
    that says so; 2 held-out items: r = ±1, and no power sentence (no |r| is detectable)."""
    same_sd = pd.DataFrame({"human_sd": [0.5] * 4, "error": [0.1, 0.4, 0.2, 0.9]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = ev.disagreement_vs_error(same_sd)
    _write(tmp_path, {"disagreement_vs_error": table})
    assert WORDS.text("disagreement", ch05.findings(tmp_path)) == (
        "With 4 held-out metaphors the correlation of human disagreement and model error is undefined: their "
        "human SDs (or the model's errors) are all the same. The question needs a larger held-out set."
    )
    _write(
        tmp_path,
        {
            "disagreement_vs_error": ev.disagreement_vs_error(
                pd.DataFrame({"human_sd": [0.5, 1.0], "error": [0.3, 0.1]})
            )
        },
    )
    assert WORDS.text("disagreement", ch05.findings(tmp_path)) == (
        "With 2 held-out metaphors the correlation of human disagreement and model error is r = -1.000 (p = 1.000); "
        "it is not significant at .05, so the question needs a larger held-out set, as the paper also concludes."
    )


def test_the_paper_is_set_beside_the_run_judge_with_judge():
    mae = pd.DataFrame({"score": ["mapping", "overall", "overall (stage 2)"], "test_mae": [0.4, 0.7, 0.9]})
    weights = pd.DataFrame({"dimension": ["mapping"], "weight": [0.3]})
    mine = ch05.run_beside_paper(mae, weights)
    assert mine["score"].tolist() == ["mapping", "overall (stage 2)"] and mine["judge_weight"].tolist()[0] == 0.3
    paper = ch05.paper_beside_run(pd.DataFrame({"score": ["mapping", "overall"], "weight": [0.05, np.nan]}))
    assert paper["score"].tolist() == ["mapping", "overall (stage 2)"] and "judge_weight" in paper


def test_model_parameters_are_checked(tmp_path):
    assert ch05.evaluator_config().n_test is None
    with pytest.raises(InputError, match=r"parameter 'model_path'.*not found"):
        ch05.evaluator_config(model_path=str(tmp_path / "no-model"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no config.json"):
        ch05.evaluator_config(model_path=str(tmp_path / "empty"))
    with pytest.raises(InputError, match=r"parameter 'mode': value 'zero-shot'"):
        ch05.setup(mode="zero-shot")
    for name, value in (("n_splits", 0), ("n_rating_sets", 51), ("n_test", 1)):
        with pytest.raises(InputError) as err:
            ch05.setup(**{name: value})
        assert err.value.parameter == name


def test_description_states_the_model():
    setup = ch05.setup(n_raters=3, n_test=5)
    d = ch05.description(setup.load(), setup).set_index("quantity")
    assert (d.loc["mode", "text"], d.loc["encoder", "text"], d.loc["packaged", "value"], d.loc["n_test", "value"]) == (
        "frozen",
        "all-MiniLM-L6-v2",
        1,
        5,
    )
    assert d.loc["raters", "value"] == 3 and isinstance(setup.load(), ch04.Data)


def test_findings_of_an_empty_folder_state_nothing(tmp_path):
    """Before any table is saved every quantity is there (the words may name it) and none applies:
    the paper's judge is stated beside this run's, so only once this run's MAEs are saved."""
    found = ch05.findings(tmp_path)
    assert {"paper_judge_mae", "judge_verdict", "replicate_reading", "stage2_cv_mae"} <= set(found["quantity"])
    assert (found["value"].isna() & (found["text"] == "")).all()


def test_disagreement_power_by_hand(tmp_path):
    from helpers.explanations import ch05

    table = pd.DataFrame({"statistic": ["pearson_r", "rho"], "value": [0.3, 0.2], "p_value": [0.2, 0.4], "n": [20, 20]})
    table.to_csv(tmp_path / "disagreement_vs_error.csv", index=False)
    f = ch05.findings(tmp_path).set_index("quantity")
    assert f.loc["disagreement_r", ["value", "p"]].tolist() == [0.3, 0.2]
    assert f.loc["disagreement_n", "value"] == 20 and not f.loc["disagreement_significant", "value"]
    # Fisher z: tanh((z.975 + z.80)/√(20 − 3)) = tanh((1.959964 + 0.841621)/√17)
    assert f.loc["detectable_r", "value"] == pytest.approx(np.tanh((1.959964 + 0.841621) / np.sqrt(17)), abs=1e-6)
    table.assign(p_value=0.01).to_csv(tmp_path / "disagreement_vs_error.csv", index=False)
    assert ch05.findings(tmp_path).set_index("quantity").loc["disagreement_significant", "value"]
