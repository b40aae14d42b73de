"""The automatic evaluator: splits without leakage, a tiny model trained in the test, the packaged encoder."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from scipy import stats as st

from helpers import explanations as ex
from helpers.core import encoder
from helpers.explanations import evaluator as ev
from helpers.explanations.io import SCORES


@pytest.fixture
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def items():
    bench = ex.load_benchmark()
    return ev.item_targets(ex.simulate_ratings(bench, seed=42))


def test_split_and_folds_keep_metaphors_apart(items):
    train, test = ev.split_by_metaphor(items, n_test=20, seed=42)
    assert len(test) == 20 and len(train) == 80
    assert not set(items["metaphor"].iloc[train]) & set(items["metaphor"].iloc[test])
    groups = items["metaphor"].to_numpy()[train]
    for fit_idx, val_idx in ev.grouped_folds(groups, 5):
        assert not set(groups[fit_idx]) & set(groups[val_idx])
    # same metaphor twice: both copies land on the same side
    doubled = pd.concat([items.iloc[:30], items.iloc[:30].assign(item_id=lambda d: d["item_id"] + "b")])
    tr, te = ev.split_by_metaphor(doubled, n_test=5, seed=0)
    assert not set(doubled["metaphor"].iloc[tr]) & set(doubled["metaphor"].iloc[te])


def test_held_out_metaphors_follow_the_data_unless_n_test_is_given(items):
    """By default a fifth of the metaphors: the paper's 20 of 100 (the same split as before),
    4 of a class's 20; an explicit n_test is kept, and one that leaves fewer than two metaphors
    to train on (the grouped folds of stage 2 need two) is an error naming n_test."""
    from helpers.core.errors import InputError

    assert ev.EvaluatorConfig().n_test is None
    train, test = ev.split_by_metaphor(items, seed=42)
    assert len(test) == 20 and len(train) == 80
    np.testing.assert_array_equal(test, ev.split_by_metaphor(items, n_test=20, seed=42)[1])
    twenty = items.iloc[:20]
    train, test = ev.split_by_metaphor(twenty, seed=42)
    assert len(test) == 4 and len(train) == 16
    assert len(ev.split_by_metaphor(twenty, n_test=6, seed=42)[1]) == 6
    assert [ev.held_out_metaphors(n) for n in (4, 7, 12, 13, 23, 100, 1000)] == [2, 2, 2, 3, 5, 20, 200]
    for n_test in (19, 20, 25):
        with pytest.raises(InputError, match=f"cannot hold out {n_test} of 20 metaphors") as err:
            ev.split_by_metaphor(twenty, n_test=n_test)
        assert err.value.parameter == "n_test" and "at most 18" in str(err.value)
    with pytest.raises(InputError, match="3 metaphor") as err:
        ev.split_by_metaphor(items.iloc[:3])
    assert err.value.parameter == "n_test"
    with pytest.raises(InputError, match=r"cannot hold out 2 of 2 .*expected ratings of at least 4 metaphors"):
        ev.split_by_metaphor(items.iloc[:2], n_test=2)


def _tiny_bert(folder):
    """A 2-layer BERT with random weights and a small word-piece vocabulary, built here."""
    from transformers import BertConfig, BertModel, BertTokenizer

    words = sorted(
        {
            w.strip(".,;:!?\"'()").lower()
            for t in ex.load_benchmark()[["metaphor", "explanation"]].to_numpy().ravel()
            for w in t.split()
        }
        - {""}
    )
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + words[:400]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizer(str(folder / "vocab.txt")).save_pretrained(folder)
    config = BertConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=160,
    )
    BertModel(config).save_pretrained(folder)
    return folder


def test_finetune_pipeline_on_a_tiny_model(tmp_path, isolated_cache, items):
    model = _tiny_bert(tmp_path / "tiny")
    small = items.iloc[:30].reset_index(drop=True)
    cfg = ev.EvaluatorConfig(
        mode="finetune", model_path=str(model), epochs=1, batch_size=8, n_test=6, n_folds=3, max_length=64
    )
    out = ev.run_evaluator(small, cfg)
    assert list(out["mae"]["score"]) == list(ex.SCORES) + ["overall (stage 2)"]
    assert out["mae"][["test_mae", "mean_baseline_mae", "similarity_baseline_mae"]].notna().all().all()
    assert len(out["predictions"]) == 6 and len(out["weights"]) == 6 and len(out["stage2_cv"]) == 3
    assert out["weights"]["weight"].sum() == pytest.approx(1.0)
    held = set(out["split"].query("set == 'held-out'")["metaphor"])
    assert held == set(out["predictions"]["metaphor"])
    cached = list((isolated_cache / "evaluator-finetune").glob("*.pt"))
    assert len(cached) == 1 + 3  # the full training part and the three folds
    again = ev.run_evaluator(small, cfg)  # weights come from the cache: same predictions
    np.testing.assert_allclose(again["predictions"]["predicted_overall"], out["predictions"]["predicted_overall"])


def test_frozen_packaged_encoder_beats_the_mean_baseline(items, monkeypatch):
    # the suite's shared cache: the test build's chapter 5, the class run and the replicates embed
    # the same 100 texts, so MiniLM embeds them once
    out = ev.run_evaluator(items, ev.EvaluatorConfig())
    stage1 = out["mae"][out["mae"]["score"].isin(ex.SCORES)]
    assert stage1["test_mae"].mean() < stage1["mean_baseline_mae"].mean()
    assert (stage1["train_mae"] < stage1["mean_baseline_mae"]).all()
    # the embeddings are cached: a second run reads them and loads no model
    from helpers.core import encoder

    monkeypatch.setattr(encoder, "frozen", lambda *a, **k: pytest.fail("embedded again instead of reading the cache"))
    again = ev.run_evaluator(items, ev.EvaluatorConfig())
    pd.testing.assert_frame_equal(again["mae"], out["mae"])
    # the stage-2 inputs: out-of-fold on the training part, full-model on the held-out part
    s1 = out["stage1"]
    assert len(s1) == len(items) and set(s1["set"]) == {"train", "held-out"}
    held = s1[s1["set"] == "held-out"].set_index("item_id")
    mae = out["mae"].set_index("score")
    assert (held["predicted_overall"] - held["overall"]).abs().mean() == pytest.approx(mae.loc["overall", "test_mae"])
    # the judge against the baselines, paired on the same held-out items
    versus = ev.judge_vs_baselines(out, n_boot=500, seed=0).set_index("other")
    assert versus.loc["training mean", "judge_mae"] == pytest.approx(mae.loc["overall (stage 2)", "test_mae"])
    assert versus.loc["training mean", "other_mae"] == pytest.approx(mae.loc["overall (stage 2)", "mean_baseline_mae"])
    assert versus.loc["stage 1 overall", "other_mae"] == pytest.approx(mae.loc["overall", "test_mae"])
    for _, row in versus.iterrows():
        assert row["difference"] == pytest.approx(row["judge_mae"] - row["other_mae"])
        assert row["ci_low"] <= row["difference"] <= row["ci_high"] and row["n_items"] == 20


def test_judge_vs_baselines_by_hand():
    # three held-out items with human Overall 2, 3, 4; training mean 3; judge predicts 2, 4, 4; stage 1 predicts 3, 3, 3
    stage1 = pd.DataFrame(
        {
            "item_id": ["t1", "t2", "h1", "h2", "h3"],
            "set": ["train", "train", "held-out", "held-out", "held-out"],
            "overall": [2.0, 4.0, 2.0, 3.0, 4.0],
            "predicted_overall": [0, 0, 3.0, 3.0, 3.0],
        }
    )
    predictions = pd.DataFrame({"item_id": ["h1", "h2", "h3"], "predicted_overall": [2.0, 4.0, 4.0]})
    versus = ev.judge_vs_baselines({"stage1": stage1, "predictions": predictions}, n_boot=200).set_index("other")
    # judge errors 0, 1, 0 (MAE 1/3); training mean errors 1, 0, 1 (MAE 2/3); stage-1 errors 1, 0, 1
    assert versus.loc["training mean", "judge_mae"] == pytest.approx(1 / 3)
    assert versus.loc["training mean", "other_mae"] == pytest.approx(2 / 3)
    assert versus.loc["stage 1 overall", "difference"] == pytest.approx(-1 / 3)


def test_disagreement_vs_error_against_scipy():
    rng = np.random.default_rng(0)
    pred = pd.DataFrame({"human_sd": rng.uniform(0.3, 1.5, 20), "error": rng.uniform(0, 1.2, 20)})
    table = ev.disagreement_vs_error(pred).set_index("statistic")
    assert table.loc["pearson_r", "value"] == pytest.approx(st.pearsonr(pred["human_sd"], pred["error"]).statistic)
    high = pred.loc[pred["human_sd"] > pred["human_sd"].median(), "error"]
    low = pred.loc[pred["human_sd"] <= pred["human_sd"].median(), "error"]
    assert table.loc["mann_whitney_u", "value"] == st.mannwhitneyu(high, low).statistic
    assert table.loc["welch_t", "p_value"] == pytest.approx(st.ttest_ind(high, low, equal_var=False).pvalue)
    assert table.loc["within_one_sd_percent", "value"] == pytest.approx(
        (pred["error"] <= pred["human_sd"]).mean() * 100
    )


def test_disagreement_on_a_few_held_out_items_is_nan_without_warnings():
    """A class's 4 held-out items, all with the same human SD: no correlation and an empty half
    of the median split, NaN without a warning on the page (the sentence: tests/explanations/test_ch05.py)."""
    import warnings

    same_sd = pd.DataFrame({"human_sd": [0.5] * 4, "error": [0.1, 0.4, 0.2, 0.9]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = ev.disagreement_vs_error(same_sd).set_index("statistic")
    assert table.loc[["pearson_r", "mann_whitney_u", "welch_t", "mean_error_high_disagreement"], "value"].isna().all()
    assert table.loc["mean_error_low_disagreement", "value"] == pytest.approx(0.4)


def test_config_rejects_unknown_mode():
    with pytest.raises(ValueError, match="not a known mode"):
        ev.EvaluatorConfig(mode="zero-shot")


def test_judge_replicates_repeat_run_evaluator_on_each_split_and_rating_set(items, tmp_path):
    """Each row is run_evaluator with that split seed on that rating set (recomputed here), and
    the wording counts the rows where the judge is worse."""
    from helpers.core.book.findings import Words
    from helpers.explanations import ch05

    bench = ex.load_benchmark()
    sets = {"a": items, "b": ev.item_targets(ex.simulate_ratings(bench, seed=7))}
    table = ev.judge_replicates(sets, ev.EvaluatorConfig(), split_seeds=[3, 5])
    assert list(zip(table["ratings"], table["split_seed"])) == [("a", 3), ("a", 5), ("b", 3), ("b", 5)]
    one = ev.run_evaluator(sets["b"], ev.EvaluatorConfig(seed=5))["mae"].set_index("score").loc["overall (stage 2)"]
    row = table.iloc[3]
    assert row["judge_mae"] == pytest.approx(one["test_mae"]) and row["n_held_out"] == 20
    assert row["difference"] == pytest.approx(one["test_mae"] - one["mean_baseline_mae"])
    worse = int((table["difference"] > 0).sum())
    summary = pd.DataFrame({"quantity": ["simulated"], "value": [1], "text": [""]})
    summary.to_csv(tmp_path / "data_summary.csv", index=False)
    table.to_csv(tmp_path / "judge_vs_baseline_replicates.csv", index=False)
    found = ch05.findings(tmp_path).set_index("quantity")
    assert found.loc[["fits", "splits", "rating_sets", "judge_worse"], "value"].tolist() == [4, 2, 2, worse]
    assert found.loc["difference_median", "value"] == pytest.approx(table["difference"].median())
    text = Words("05_explanation_evaluator").text("replicates", found.reset_index())
    assert f"exceeds the training mean's in {worse} of 4" in text
    assert "2 metaphor-grouped splits × 2 simulated rating sets" in text
    table[table["ratings"] == "a"].to_csv(tmp_path / "judge_vs_baseline_replicates.csv", index=False)
    assert "simulated rating sets" not in Words("05_explanation_evaluator").text("replicates", ch05.findings(tmp_path))


def test_item_targets_by_hand():
    rows = [
        ("a", "r1", "overall", 4),
        ("a", "r2", "overall", 2),
        ("a", "r1", "origin", 5),
        ("a", "r2", "origin", 3),
        ("b", "r1", "overall", 3),
        ("b", "r2", "overall", 3),
        ("b", "r3", "overall", 5),
        ("b", "r1", "origin", 1),
    ]
    long = pd.DataFrame(rows, columns=["item_id", "rater", "dimension", "score"])
    long = pd.concat(
        [
            long,
            pd.DataFrame(
                [(i, "r1", d, 3) for i in "ab" for d in SCORES if d not in ("overall", "origin")], columns=long.columns
            ),
        ]
    )
    long["metaphor"], long["explanation"] = "m-" + long["item_id"], "e-" + long["item_id"]
    t = ev.item_targets(long).set_index("item_id")
    assert list(t.columns) == ["metaphor", "explanation", *SCORES, "overall_sd"]
    # a: overall 4, 2 -> mean 3, SD √2; origin 5, 3 -> 4.  b: overall 3, 3, 5 -> mean 11/3, SD √(4/3); origin 1
    assert t.loc["a", ["overall", "origin", "overall_sd"]].tolist() == pytest.approx([3.0, 4.0, np.sqrt(2)])
    assert t.loc["b", ["overall", "origin", "overall_sd"]].tolist() == pytest.approx([11 / 3, 1.0, np.sqrt(4 / 3)])
    assert t.loc["b", "metaphor"] == "m-b" and t.loc["a", "mapping"] == 3.0


def test_disagreement_vs_error_by_hand():
    pred = pd.DataFrame({"human_sd": [0.2, 0.4, 0.6, 0.8], "error": [0.1, 0.5, 0.3, 0.9]})
    t = ev.disagreement_vs_error(pred).set_index("statistic")
    assert t.index.tolist() == [
        "pearson_r",
        "rho",
        "within_one_sd_percent",
        "median_sd",
        "mean_error_high_disagreement",
        "mean_error_low_disagreement",
        "mann_whitney_u",
        "welch_t",
    ]
    # Pearson: centred SD (−.3, −.1, .1, .3), centred error (−.35, .05, −.15, .45): Σxy = .22, Σx² = .2,
    # Σy² = .35, r = .22/√.07; p from t = r√(2/(1 − r²)) on 2 df
    r = 0.22 / np.sqrt(0.07)
    assert t.loc["pearson_r", "value"] == pytest.approx(r)
    assert t.loc["pearson_r", "p_value"] == pytest.approx(2 * sps.t.sf(r * np.sqrt(2 / (1 - r**2)), 2))
    # Spearman: error ranks 1, 3, 2, 4; Σd² = 2; ρ = 1 − 6·2/(4·15) = 0.8; p from the same t on 2 df
    assert t.loc["rho", "value"] == pytest.approx(0.8)
    assert t.loc["rho", "p_value"] == pytest.approx(2 * sps.t.sf(0.8 * np.sqrt(2 / 0.36), 2))
    # error ≤ SD for items 1 and 3: 50 %; median SD 0.5; high (SD > .5) errors .3, .9, low .1, .5
    assert t.loc["within_one_sd_percent", "value"] == 50.0 and t.loc["median_sd", "value"] == pytest.approx(0.5)
    assert t.loc["mean_error_high_disagreement", ["value", "n"]].tolist() == pytest.approx([0.6, 2])
    assert t.loc["mean_error_low_disagreement", ["value", "n"]].tolist() == pytest.approx([0.3, 2])
    # U = #(high > low) = (.3 > .1) + (.9 > .1) + (.9 > .5) = 3; exact null of U for 2 + 2 is 0..4 with
    # counts 1, 1, 2, 1, 1 of 6, so p = 2 · P(U ≥ 3) = 2 · 2/6
    assert t.loc["mann_whitney_u", "value"] == 3.0 and t.loc["mann_whitney_u", "p_value"] == pytest.approx(2 / 3)
    # Welch: variances .18 and .08, SE = √(.09 + .04), t = .3/√.13, df = .13²/(.09² + .04²)
    welch_t, df = 0.3 / np.sqrt(0.13), 0.13**2 / (0.09**2 + 0.04**2)
    assert t.loc["welch_t", "value"] == pytest.approx(welch_t)
    assert t.loc["welch_t", "p_value"] == pytest.approx(2 * sps.t.sf(welch_t, df))
    assert t["n"].tolist() == [4, 4, 4, 4, 2, 2, 4, 4]


# --------------------------------------------------------------------------- run_evaluator on made-up embeddings

THETA = np.linspace(0.2, 1.4, 10)  # one angle per item; cosine similarity of metaphor and explanation = cos θ


COS = np.cos(THETA)


# every score is affine in cos θ, so the similarity baseline (a linear fit on the cosine) is exact
Y = np.column_stack([1 + 0.3 * k + (2 + 0.5 * k) * COS for k in range(len(SCORES))])


# the pair embedding stage 1 regresses on: two features that are not collinear with the targets
PAIR = np.column_stack([COS, np.sin(3 * THETA)])


def _items() -> pd.DataFrame:
    out = pd.DataFrame(
        {
            "item_id": [f"i{k}" for k in range(10)],
            "metaphor": [f"m{k}" for k in range(10)],
            "explanation": [f"x{k}" for k in range(10)],
            "overall_sd": np.linspace(0.3, 1.2, 10),
        }
    )
    return out.join(pd.DataFrame(Y, columns=list(SCORES)))


def _fake_embed(texts, pairs=None, model_path=None, max_length=128, **_):
    k = [int(str(t)[1:]) for t in texts]
    if pairs is not None:
        return PAIR[k]
    if str(texts.iloc[0] if hasattr(texts, "iloc") else texts[0]).startswith("m"):
        return np.tile([1.0, 0.0], (len(k), 1))
    return np.column_stack([np.cos(THETA[k]), np.sin(THETA[k])])


def _ridge(x_train, y_train, x_new, alpha):
    """Ridge with an unpenalised intercept, closed form: β = (XcᵀXc + αI)⁻¹ Xcᵀ yc, b0 = ȳ − x̄β."""
    xm, ym = x_train.mean(axis=0), y_train.mean(axis=0)
    xc = x_train - xm
    beta = np.linalg.solve(xc.T @ xc + alpha * np.eye(x_train.shape[1]), xc.T @ (y_train - ym))
    return (x_new - xm) @ beta + ym


@pytest.fixture
def made_up(monkeypatch):
    """Made-up embeddings, and a stage-2 judge of 5 trees instead of 200 (these tests pin stage 1 and
    the baselines; the judge's own numbers are only checked against the predictions it returns)."""
    from sklearn.ensemble import GradientBoostingRegressor

    monkeypatch.setattr(encoder, "embed", _fake_embed)
    monkeypatch.setattr(
        ev,
        "GradientBoostingRegressor",
        lambda n_estimators, random_state: GradientBoostingRegressor(n_estimators=5, random_state=random_state),
    )


def test_run_evaluator_mae_table_on_made_up_embeddings(made_up):
    cfg = ev.EvaluatorConfig(n_test=3, n_folds=2, seed=1)
    out = ev.run_evaluator(_items(), cfg)
    held = out["split"]["set"].eq("held-out").to_numpy()
    train, test = np.flatnonzero(~held), np.flatnonzero(held)
    assert len(test) == 3
    mae = out["mae"].set_index("score")
    assert mae.index.tolist() == [*SCORES, "overall (stage 2)"]
    # the training-mean baseline: |ȳ_train − y| averaged over the held-out items
    mean_mae = np.abs(Y[train].mean(axis=0) - Y[test]).mean(axis=0)
    assert mae["mean_baseline_mae"].tolist() == pytest.approx([*mean_mae, mean_mae[-1]])
    # the similarity baseline: every score is affine in the cosine, so it predicts them exactly
    assert mae["similarity_baseline_mae"].max() == pytest.approx(0.0, abs=1e-9)
    # stage 1: ridge (α = 10) on the pair embedding, by the closed form
    fit_train = _ridge(PAIR[train], Y[train], PAIR[train], 10.0)
    fit_test = _ridge(PAIR[train], Y[train], PAIR[test], 10.0)
    stage1 = mae.loc[list(SCORES)]
    assert stage1["train_mae"].tolist() == pytest.approx(np.abs(fit_train - Y[train]).mean(axis=0))
    assert stage1["test_mae"].tolist() == pytest.approx(np.abs(fit_test - Y[test]).mean(axis=0))
    r2 = 1 - ((fit_test - Y[test]) ** 2).sum(axis=0) / ((Y[test] - Y[test].mean(axis=0)) ** 2).sum(axis=0)
    assert stage1["test_r2"].tolist() == pytest.approx(r2)
    assert stage1["delta"].tolist() == pytest.approx((stage1["test_mae"] - stage1["train_mae"]).tolist())
    # the judge's row: its MAE is that of the predictions it returns, it has no training MAE
    pred = out["predictions"]
    assert mae.loc["overall (stage 2)", "test_mae"] == pytest.approx(
        (pred["predicted_overall"] - pred["human_overall"]).abs().mean()
    )
    assert np.isnan(mae.loc["overall (stage 2)", "train_mae"])
    # the stage-1 table: held-out rows carry the full training fit
    s1 = out["stage1"].set_index("item_id")
    ids = [f"i{k}" for k in test]
    np.testing.assert_allclose(s1.loc[ids, [f"predicted_{s}" for s in SCORES]].to_numpy(), fit_test)
    assert len(out["stage2_cv"]) == 2 and out["weights"]["weight"].sum() == pytest.approx(1.0)


def test_judge_replicates_rows_by_hand(made_up, monkeypatch, tmp_path):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path))
    items = _items()
    t = ev.judge_replicates({"made up": items}, ev.EvaluatorConfig(n_test=3, n_folds=2), split_seeds=[4])
    assert t.columns.tolist() == [
        "ratings",
        "split_seed",
        "n_held_out",
        "judge_mae",
        "mean_baseline_mae",
        "stage1_overall_mae",
        "difference",
    ]
    row = t.iloc[0]
    assert (row["ratings"], row["split_seed"], row["n_held_out"]) == ("made up", 4, 3)
    # split seed 4's held-out metaphors; the training mean's and stage 1's Overall errors on them
    train, test = ev.split_by_metaphor(items, 3, 4)
    overall = Y[:, SCORES.index("overall")]
    assert row["mean_baseline_mae"] == pytest.approx(np.abs(overall[train].mean() - overall[test]).mean())
    stage1 = _ridge(PAIR[train], Y[train], PAIR[test], 10.0)[:, SCORES.index("overall")]
    assert row["stage1_overall_mae"] == pytest.approx(np.abs(stage1 - overall[test]).mean())
    assert row["difference"] == pytest.approx(row["judge_mae"] - row["mean_baseline_mae"])
