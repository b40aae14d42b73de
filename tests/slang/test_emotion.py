"""The emotion check (helpers.slang.emotion): substitution, the classifier pipeline and its warm-started grid."""

from __future__ import annotations

import numpy as np
import pandas as pd

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
        pipe.named_steps["tfidf"].transform(data[:90]["text"]), data[:90]["label"])
    assert (chosen.predict(x) == scratch.predict(x)).all()
    assert np.abs(chosen.coef_ - scratch.coef_).max() < 0.05 * np.abs(scratch.coef_).max()
