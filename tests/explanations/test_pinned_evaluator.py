"""The automatic evaluator's metrics pinned on numbers worked out by hand or by the textbook
formula (issue 21): the item targets, the disagreement-vs-error table (paper Tables 6 and 11),
and run_evaluator's MAE table on embeddings made up in the test (no encoder, no download): ridge
stage 1 by its closed form, the training-mean baseline by hand, a similarity baseline that is exact."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from helpers.core import encoder
from helpers.explanations import evaluator as ev
from helpers.explanations.io import SCORES


def test_item_targets_by_hand():
    rows = [("a", "r1", "overall", 4), ("a", "r2", "overall", 2), ("a", "r1", "origin", 5), ("a", "r2", "origin", 3),
            ("b", "r1", "overall", 3), ("b", "r2", "overall", 3), ("b", "r3", "overall", 5), ("b", "r1", "origin", 1)]
    long = pd.DataFrame(rows, columns=["item_id", "rater", "dimension", "score"])
    long = pd.concat([long, pd.DataFrame([(i, "r1", d, 3) for i in "ab" for d in SCORES if d not in ("overall",
                                                                                                        "origin")],
                                         columns=long.columns)])
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
    assert t.index.tolist() == ["pearson_r", "spearman_rho", "within_one_sd_percent", "median_sd",
                                "mean_error_high_disagreement", "mean_error_low_disagreement", "mann_whitney_u",
                                "welch_t"]
    # Pearson: centred SD (−.3, −.1, .1, .3), centred error (−.35, .05, −.15, .45): Σxy = .22, Σx² = .2,
    # Σy² = .35, r = .22/√.07; p from t = r√(2/(1 − r²)) on 2 df
    r = 0.22 / np.sqrt(0.07)
    assert t.loc["pearson_r", "value"] == pytest.approx(r)
    assert t.loc["pearson_r", "p_value"] == pytest.approx(2 * sps.t.sf(r * np.sqrt(2 / (1 - r**2)), 2))
    # Spearman: error ranks 1, 3, 2, 4; Σd² = 2; ρ = 1 − 6·2/(4·15) = 0.8; p from the same t on 2 df
    assert t.loc["spearman_rho", "value"] == pytest.approx(0.8)
    assert t.loc["spearman_rho", "p_value"] == pytest.approx(2 * sps.t.sf(0.8 * np.sqrt(2 / 0.36), 2))
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
    out = pd.DataFrame({"item_id": [f"i{k}" for k in range(10)], "metaphor": [f"m{k}" for k in range(10)],
                        "explanation": [f"x{k}" for k in range(10)], "overall_sd": np.linspace(0.3, 1.2, 10)})
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
    monkeypatch.setattr(ev, "GradientBoostingRegressor",
                        lambda n_estimators, random_state: GradientBoostingRegressor(n_estimators=5,
                                                                                     random_state=random_state))


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
    assert mae.loc["overall (stage 2)", "test_mae"] == pytest.approx((pred["predicted_overall"]
                                                                     - pred["human_overall"]).abs().mean())
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
    assert t.columns.tolist() == ["ratings", "split_seed", "n_held_out", "judge_mae", "mean_baseline_mae",
                                  "stage1_overall_mae", "difference"]
    row = t.iloc[0]
    assert (row["ratings"], row["split_seed"], row["n_held_out"]) == ("made up", 4, 3)
    # split seed 4's held-out metaphors; the training mean's and stage 1's Overall errors on them
    train, test = ev.split_by_metaphor(items, 3, 4)
    overall = Y[:, SCORES.index("overall")]
    assert row["mean_baseline_mae"] == pytest.approx(np.abs(overall[train].mean() - overall[test]).mean())
    stage1 = _ridge(PAIR[train], Y[train], PAIR[test], 10.0)[:, SCORES.index("overall")]
    assert row["stage1_overall_mae"] == pytest.approx(np.abs(stage1 - overall[test]).mean())
    assert row["difference"] == pytest.approx(row["judge_mae"] - row["mean_baseline_mae"])
