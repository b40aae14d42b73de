"""The emotion check (helpers.slang.emotion): substitution, the classifier pipeline and its warm-started grid."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.slang import emotion as em


def test_substitute_longest_first_and_no_rewrites():
    text = "草泥马，尼玛！草泥马"
    out = em.substitute(text, {"草泥马": "艹泥马", "尼玛": "你妈", "泥马": "XX"})
    assert out == "艹泥马，你妈！艹泥马"
    assert em.substitute("尼玛尼玛", {"尼玛": "尼玛尼"}) == "尼玛尼尼玛尼"


def test_emotion_pipeline_on_a_small_split(tmp_path, monkeypatch):

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    rng = np.random.default_rng(0)
    words = {0: "开心快乐好", 1: "生气讨厌烦", 2: "难过伤心哭"}
    rows = [{"text": "".join(rng.choice(list(words[k]), 6)), "label": k} for k in words for _ in range(40)]
    data = pd.DataFrame(rows).sample(frac=1, random_state=0).reset_index(drop=True)
    pipe, selection = em.train_classifier(data[:80], data[80:100], c_grid=(1.0, 4.0))
    assert len(selection) == 2
    scores = em.evaluate(pipe, data[100:]).set_index("metric")
    assert scores.loc["macro_f1", "value"] > 0.9
    posts = pd.DataFrame({"text": ["生气生气讨厌", "开心好快乐"], "label": [1, 0]})
    table = em.consistency_table(pipe, posts, {"生气": ["开心", "伤心"]})
    assert list(table["group"]) == ["G0", "G1", "G2"] and table.loc[0, "same_as_original"] == 1.0
    assert list((tmp_path / "cache" / "emotion-classifier").glob("*.pkl"))


def test_warm_started_grid_matches_separate_fits(tmp_path, monkeypatch):
    """The regularisation path (each C starting from the previous fit) reaches the fits made from scratch."""
    from sklearn.linear_model import LogisticRegression

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    rng = np.random.default_rng(1)
    words = {0: "开心快乐好棒", 1: "生气讨厌烦死", 2: "难过伤心哭泣"}
    rows = [{"text": "".join(rng.choice(list(words[k] + "的了是我"), 7)), "label": k} for k in words for _ in range(40)]
    data = pd.DataFrame(rows).sample(frac=1, random_state=1).reset_index(drop=True)
    pipe, selection = em.train_classifier(data[:90], data[90:], c_grid=(8.0, 0.5, 2.0))
    assert selection["C"].tolist() == [0.5, 2.0, 8.0]  # fitted along increasing C
    chosen = pipe.named_steps["clf"]
    x = pipe.named_steps["tfidf"].transform(data["text"])
    scratch = LogisticRegression(C=chosen.C, solver="saga", max_iter=300, random_state=0).fit(
        pipe.named_steps["tfidf"].transform(data[:90]["text"]), data[:90]["label"]
    )
    assert (chosen.predict(x) == scratch.predict(x)).all()
    assert np.abs(chosen.coef_ - scratch.coef_).max() < 0.05 * np.abs(scratch.coef_).max()


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
