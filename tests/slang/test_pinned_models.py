"""The model metrics of chapters 6 and 7 pinned on numbers worked out by hand (issue 21): the
emotion classifier's macro/weighted F1 and accuracy and Table 4's label consistency (§4.2), the
QE correlations (Spearman ρ, Pearson r and their p-values), the ridge penalty chosen on dev and
the hand-made QE features. Classifiers and QE models are stand-ins whose predictions the test
states, so nothing is trained."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from helpers.slang import emotion as em
from helpers.slang import qe_models as qm


class Lookup:
    """A stand-in classifier: the label of the first keyword in the text, else ``default``."""

    def __init__(self, keywords: dict, default):
        self.keywords, self.default = keywords, default

    def predict(self, texts):
        return np.array([next((v for k, v in self.keywords.items() if k in t), self.default) for t in texts])


def test_evaluate_by_hand():
    # gold 0 0 0 1 1 2, predicted 0 0 1 1 2 2:
    #   class 0: TP 2, FP 0, FN 1 -> P 1, R 2/3, F1 0.8;  class 1: TP 1, FP 1, FN 1 -> F1 0.5
    #   class 2: TP 1, FP 1, FN 0 -> P 1/2, R 1, F1 2/3;  supports 3, 2, 1
    test = pd.DataFrame({"text": ["a0", "a1", "a2", "b3", "b4", "c5"], "label": [0, 0, 0, 1, 1, 2]})
    pipe = Lookup({"a0": 0, "a1": 0, "a2": 1, "b3": 1, "b4": 2, "c5": 2}, -1)
    t = em.evaluate(pipe, test).set_index("metric")
    assert t.index.tolist() == ["macro_f1", "weighted_f1", "accuracy"] and set(t["n"]) == {6}
    assert t.loc["macro_f1", "value"] == pytest.approx((0.8 + 0.5 + 2 / 3) / 3)
    assert t.loc["weighted_f1", "value"] == pytest.approx((3 * 0.8 + 2 * 0.5 + 1 * 2 / 3) / 6)
    assert t.loc["accuracy", "value"] == pytest.approx(4 / 6)


def test_training_posts_all_or_a_seeded_draw_in_order():
    train = pd.DataFrame({"text": list("abcdefghij"), "label": [0, 1] * 5}, index=range(100, 110))
    assert em.training_posts(train) is train and em.training_posts(train, 10) is train  # all of them
    assert em.training_posts(train, 25) is train  # more than there are: all
    drawn = em.training_posts(train, 4, seed=3)
    assert len(drawn) == 4 and drawn["text"].is_unique and set(drawn["text"]) <= set("abcdefghij")
    assert list(drawn.index) == sorted(drawn.index)  # kept in the split's order
    pd.testing.assert_frame_equal(drawn, train.loc[drawn.index])  # rows unchanged
    pd.testing.assert_frame_equal(em.training_posts(train, 4, seed=3), drawn)  # the seed fixes the draw
    assert any(list(em.training_posts(train, 4, seed=s).index) != list(drawn.index) for s in range(4, 10))


def test_classifier_table_by_hand():
    selection = pd.DataFrame({"C": [2.0, 8.0, 32.0], "dev_macro_f1": [0.61, 0.64, 0.63]})
    scores = pd.DataFrame({"metric": ["macro_f1", "accuracy"], "value": [0.6, 0.7], "n": [10, 10]})
    t = em.classifier_table(selection, scores)
    assert t.columns.tolist() == ["metric", "C", "value"]
    assert t["metric"].tolist() == ["dev_macro_f1"] * 3 + ["macro_f1", "accuracy"]
    assert t["C"].tolist() == [2.0, 8.0, 32.0, 8.0, 8.0]  # the test rows carry the C of the best dev F1
    assert t["value"].tolist() == [0.61, 0.64, 0.63, 0.6, 0.7]


def test_consistency_table_by_hand():
    # the stand-in reads 开心 as 0 (joy), 生气 as 1 (anger), anything else as 2
    pipe = Lookup({"开心": 0, "生气": 1}, 2)
    posts = pd.DataFrame({"text": ["生气了", "开心", "好生气"], "label": [1, 0, 1]})
    t = em.consistency_table(pipe, posts, {"生气": ["开心", "伤心"]}).set_index("group")
    assert t.index.tolist() == ["G0", "G1", "G2"] and set(t["n"]) == {3}
    # G0: predictions 1, 0, 1 = gold: everything 1
    assert t.loc["G0", ["precision", "recall", "f1", "same_label", "same_as_original"]].tolist() == [1.0] * 5
    # G1 (生气 -> 开心): predictions 0, 0, 0. class 0: P 1/3, R 1, F1 1/2; class 1: P 0 (no prediction,
    # zero_division 0), R 0, F1 0. Weighted by gold supports 1 (class 0) and 2 (class 1)
    g1 = t.loc["G1"]
    assert [g1["precision"], g1["recall"], g1["f1"]] == pytest.approx([1 / 9, 1 / 3, 1 / 6])
    assert [g1["same_label"], g1["same_as_original"]] == pytest.approx([1 / 3, 1 / 3])
    # G2 (生气 -> 伤心): predictions 2, 0, 2. class 0: P = R = F1 = 1; class 1: 0; class 2 has no gold
    # support, so weight 0
    g2 = t.loc["G2"]
    assert [g2["precision"], g2["recall"], g2["f1"]] == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    assert [g2["same_label"], g2["same_as_original"]] == pytest.approx([1 / 3, 1 / 3])


# human 1 2 3 4 against predictions .1 .5 .3 .9: prediction ranks 1 3 2 4, Σd² = 2, ρ = 1 − 6·2/(4·15) = 0.8;
# centred human (−1.5, −.5, .5, 1.5), centred prediction (−.35, .05, −.15, .45): Σxy = 1.1, Σx² = 5, Σy² = .35,
# r = 1.1/√1.75. Both p-values from t = c·√(2/(1 − c²)) on 2 degrees of freedom
HUMAN, PREDICTED = [1.0, 2.0, 3.0, 4.0], [0.1, 0.5, 0.3, 0.9]
RHO, R = 0.8, 1.1 / np.sqrt(1.75)


def _t_p(c, n=4):
    return 2 * sps.t.sf(abs(c) * np.sqrt((n - 2) / (1 - c**2)), n - 2)


def test_qe_correlations_by_hand():
    c = qm.correlations(pd.Series(HUMAN), np.array(PREDICTED))
    assert c == pytest.approx({"rho": RHO, "rho_p": _t_p(RHO), "pearson": R, "pearson_p": _t_p(R), "n": 4})


class Fixed:
    """A stand-in QE model that returns the given predictions."""

    def __init__(self, predictions):
        self.predictions = np.asarray(predictions, dtype=float)

    def predict(self, frame):
        return self.predictions


def test_evaluate_models_and_target_comparison_by_hand():
    frame = pd.DataFrame({"source": list("abcd"), "mt": list("wxyz"), "score": HUMAN, "score_sum": HUMAN[::-1]})
    t = qm.evaluate_models({"m": Fixed(PREDICTED)}, {"test": frame})
    assert t.columns.tolist() == ["model", "evaluated_on", "rho", "rho_p", "pearson", "pearson_p", "n"]
    assert t.iloc[0][["rho", "pearson", "n"]].tolist() == pytest.approx([RHO, R, 4])
    # against the reversed target every correlation changes sign
    c = qm.target_comparison({"m": Fixed(PREDICTED)}, {"m": Fixed(PREDICTED)}, {"test": frame}, "as released")
    assert len(c) == 4 and set(c["split"]) == {"as released"}
    by = c.set_index(["trained_on", "evaluated_against"])
    assert by.loc[("released scores", "released scores"), ["rho", "pearson"]].tolist() == pytest.approx([RHO, R])
    assert by.loc[("sum of penalties", "sum of penalties"), ["rho", "pearson"]].tolist() == pytest.approx(
        [-RHO, -R])


def _ridge_coef(x, y, alpha):
    """Ridge with an unpenalised intercept, closed form: β = (XcᵀXc + αI)⁻¹ Xcᵀ yc."""
    xc = x - x.mean(axis=0)
    return np.linalg.solve(xc.T @ xc + alpha * np.eye(x.shape[1]), xc.T @ (y - y.mean()))


def test_ridge_on_dev_keeps_the_penalty_with_the_best_dev_spearman():
    # two features; the penalty shifts weight between them, so the dev ranking depends on it
    x = np.array([[0, 3], [1, 0], [2, 4], [3, 1], [4, 5], [5, 2.0]])
    y = x[:, 0] + 0.5 * x[:, 1]
    xd = np.array([[0, 5], [1, 3], [2, 1], [3, 0.0]])
    yd = np.array([4.0, 3.0, 2.0, 1.0])  # ranks with the second feature, against the first
    alphas = (0.01, 3.0, 300.0)
    dev = [sps.spearmanr(yd, xd @ _ridge_coef(x, y, a)).statistic for a in alphas]
    model, selection = qm.ridge_on_dev(x, y, xd, yd, alphas)
    assert [s["alpha"] for s in selection] == list(alphas)
    assert [s["dev_spearman"] for s in selection] == pytest.approx(dev)
    assert model.alpha == alphas[int(np.argmax(dev))]
    assert model.coef_ == pytest.approx(_ridge_coef(x, y, model.alpha))
    # one feature: ridge only shrinks the slope (17.5/(17.5 + α) with Σ(x − x̄)² = 17.5), so every penalty
    # ranks dev the same (here ρ = −1) and the tie keeps the first
    one = np.arange(6.0)[:, None]
    model, selection = qm.ridge_on_dev(one, one[:, 0], one[:4], yd, alphas=(1.0, 10.0))
    assert [s["dev_spearman"] for s in selection] == pytest.approx([-1.0, -1.0]) and model.alpha == 1.0
    assert model.coef_[0] == pytest.approx(17.5 / 18.5)


def test_handmade_features_by_hand():
    # source "你好!!😀 12" (8 characters: 你 好 ! ! 😀 space 1 2), MT "hello 你 ! 1" (4 words, 11 characters)
    f = qm.handmade_features(pd.Series(["你好!!😀 12"]), pd.Series(["hello 你 ! 1"]))
    assert f.shape == (1, 9)
    assert f[0].tolist() == pytest.approx([8, 4, 4 / 8,  # source length, MT words, words per source character
                                           2, 1,  # ! and ? in source (also full-width) and in MT
                                           1, 0,  # emoji in source, in MT
                                           1 / 11,  # CJK share of the MT's characters
                                           2 - 1])  # digits in source minus digits in MT


def test_table8_overlap_counts_the_paper_top_five_by_hand(tmp_path, monkeypatch):
    from helpers.slang import ch06

    table8 = pd.DataFrame({"word": ["尼玛", "尼玛", "卧槽", "劳资"], "candidate": ["你妈", "泥马", "我操", "老子"]})
    monkeypatch.setattr(ch06, "read_published", lambda study, name: table8)
    top = pd.DataFrame({"method": ["percentile"] * 4 + ["self-information"] * 3,
                        "context": ["n/a"] * 4 + ["left"] * 3,
                        "word": ["尼玛", "尼玛", "卧槽", "特么", "尼玛", "劳资", "劳资"],
                        "candidate": ["你妈", "拟麻", "我草", "他妈", "泥马", "老子", "老资"]})
    top.to_csv(tmp_path / "top_homophones.csv", index=False)
    pd.DataFrame({"quantity": ["top_k"], "value": [2], "text": [""]}).to_csv(tmp_path / "data_summary.csv", index=False)
    f = ch06.findings(tmp_path, "overlap").set_index(["quantity", "group"])["value"]
    assert f[("paper_top", "")] == 4 and f[("k", "")] == 2
    # percentile: only 你妈 (尼玛) is in the paper's lists (我草 is not 我操) -> 1; self-information: 泥马, 老子 -> 2
    assert f[("hits", "percentile")] == 1 and f[("hits", "self-information (left context)")] == 2
