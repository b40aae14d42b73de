"""Rating correlations (helpers.slang.correlations): per word, pooled and within word, against scipy
and the chapter's Table 8 values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.core import paths
from helpers.slang import correlations
from helpers.slang import homophone_data as hd
from helpers.slang import language_models

def _toy_scores():
    rng = np.random.default_rng(3)
    rows = [{"word": w, "candidate": f"{w}{k}", "F": int(rng.integers(10, 1000)), "percentile": float(rng.random()),
             "released_score": float(rng.random()), "I_no_context": float(rng.normal(20, 3))}
            for w in ("尼玛", "劳资") for k in range(6)]
    scores = pd.DataFrame(rows)
    ratings = scores[["word", "candidate"]].assign(avg_score=rng.integers(1, 6, len(scores)).astype(float))
    return scores, ratings


def test_per_word_rho_equals_scipy_and_pooled_is_kept():
    from scipy.stats import spearmanr

    scores, ratings = _toy_scores()
    by_word = correlations.spearman_by_word(scores, ratings, "toy")
    assert list(by_word.columns) == ["method", "scorer", "context", "word", "rho", "p", "p_permutation", "n"]
    for _, row in by_word.iterrows():
        column = {v[0] + v[1]: k for k, v in correlations.METHOD_COLUMNS.items()}[row["method"] + row["context"]]
        sub = scores.merge(ratings)[lambda d, w=row["word"]: d["word"] == w]
        expected = spearmanr(sub[column], sub["avg_score"])
        assert row["rho"] == pytest.approx(expected.statistic) and row["p"] == pytest.approx(expected.pvalue)
        assert row["n"] == 6 and 0 < row["p_permutation"] <= 1
    pooled = correlations.human_correlations(scores, ratings, "toy")
    assert list(pooled.columns) == ["method", "scorer", "context", "rho", "p", "n"]
    summary = correlations.within_word_correlations(scores, ratings, "toy")
    assert summary["pooled_rho"].tolist() == pytest.approx(pooled["rho"].tolist())
    means = by_word.groupby(["method", "context"], sort=False)["rho"].mean().to_numpy()
    assert summary["mean_within_word_rho"].to_numpy() == pytest.approx(means)
    assert (summary["n"] == 12).all() and (summary["n_words"] == 2).all() and summary["exact"].all()


def test_table8_per_word_rho_of_kneser_ney_self_information():
    """The chapter's per-word values: trigram KN self-information without context on the 25 Table-8 ratings."""
    posts = hd.load_smp2020()
    lm = language_models.train_kn(posts.loc[posts["split"] == "train", "text"].tolist(), order=3)
    ratings = pd.read_csv(paths.project_root() / "data/published/homophones/table8_human_top5.csv")
    scores = ratings[["word", "candidate"]].assign(I_no_context=[lm.self_information(c) for c in ratings["candidate"]])
    by_word = correlations.spearman_by_word(scores, ratings, lm.name).set_index("word")["rho"].round(2)
    assert by_word.to_dict() == {"尼玛": -0.30, "特么": -0.87, "卧槽": -0.63, "劳资": -0.50, "草泥马": 0.32}
    within = correlations.within_word_correlations(scores, ratings, lm.name).iloc[0]
    assert within["mean_within_word_rho"] == pytest.approx(by_word.mean(), abs=0.01)
    assert within["exact"] and within["n_permutations"] == 120 ** 5 and 0.05 < within["p_within_word"] < 0.1


def test_pooled_rho_word_jackknife_interval_by_hand():
    """Delete-one-word jackknife of the pooled ρ: each leave-one-word-out ρ from scipy, then
    ρ̂ ± t_{G−1, .975} · √((G − 1)/G · Σ(ρ_(g) − mean)²), cut to [−1, 1]."""
    from scipy.stats import spearmanr
    from scipy.stats import t as student_t

    words = list("uuuvvvwwwxxx")
    s = pd.DataFrame({"word": words, "candidate": list("abcdefghijkl"),
                      "percentile": [1, 2, 3, 9, 8, 7, 4, 6, 5, 10, 12, 11]})
    r = pd.DataFrame({"word": words, "candidate": list("abcdefghijkl"),
                      "avg_score": [1, 3, 2, 5, 4, 6, 2, 2.5, 3, 4, 5, 4.5]})
    row = correlations.within_word_correlations(s, r, "toy").iloc[0]
    full = spearmanr(s["percentile"], r["avg_score"]).statistic
    loo = np.array([spearmanr(s.loc[s["word"] != w, "percentile"], r.loc[r["word"] != w, "avg_score"]).statistic
                    for w in "uvwx"])
    half = student_t.ppf(0.975, 3) * np.sqrt(3 / 4 * ((loo - loo.mean()) ** 2).sum())
    assert row["pooled_rho"] == pytest.approx(full)
    assert row["pooled_jackknife_ci_low"] == pytest.approx(max(full - half, -1.0))
    assert row["pooled_jackknife_ci_high"] == pytest.approx(min(full + half, 1.0))


def test_word_levels_by_hand():
    """a: mean 2, b: 15, c: 4; a sits 2 − (15 + 4)/2 = −7.5 from the others, b +12, c −4.5;
    rated (a1, a3, b1): a 2 − 10 = −8, b +8."""
    scores = pd.DataFrame({"word": list("aaabbc"), "candidate": ["a1", "a2", "a3", "b1", "b2", "c1"],
                           "I_no_context": [1.0, 2, 3, 10, 20, 4]})
    ratings = pd.DataFrame({"word": list("aab"), "candidate": ["a1", "a3", "b1"], "avg_score": [1.0, 2, 3]})
    levels = correlations.word_levels(scores, ratings).set_index(["candidates", "word"])
    assert set(levels["column"]) == {"I_no_context"}
    assert levels.loc[("all", "a"), "above_others"] == pytest.approx(-7.5)
    assert levels.loc[("all", "b"), "above_others"] == pytest.approx(12.0)
    assert levels.loc[("all", "c"), "above_others"] == pytest.approx(-4.5)
    assert levels.loc[("rated", "a"), "mean"] == pytest.approx(2.0) and levels.loc[("rated", "a"), "n"] == 2
    assert levels.loc[("rated", "b"), "above_others"] == pytest.approx(8.0)


def test_resolution_is_the_fisher_half_width_at_zero():
    import math

    # tanh(1.96 · √(1.06 / (n − 3))): 25 pairs ±0.41, 172 pairs ±0.15
    for n in (25, 172):
        assert correlations.resolution(n) == pytest.approx(math.tanh(1.959963984540054 * math.sqrt(1.06 / (n - 3))))
    assert correlations.resolution(100, level=0.5) < correlations.resolution(100)
