"""Rating correlations (helpers.slang.correlations): per word, pooled and within word, against scipy
and the chapter's Table 8 values."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm, spearmanr
from scipy.stats import t as student_t

from helpers.core import paths
from helpers.core.statistics import stats
from helpers.slang import correlations, language_models
from helpers.slang import homophone_data as hd
from helpers.slang import language_models as lm


def _toy_scores():
    rng = np.random.default_rng(3)
    rows = [
        {
            "word": w,
            "candidate": f"{w}{k}",
            "F": int(rng.integers(10, 1000)),
            "percentile": float(rng.random()),
            "released_score": float(rng.random()),
            "I_no_context": float(rng.normal(20, 3)),
        }
        for w in ("尼玛", "劳资")
        for k in range(6)
    ]
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
    assert within["exact"] and within["n_permutations"] == 120**5 and 0.05 < within["p_within_word"] < 0.1


def test_pooled_rho_word_jackknife_interval_by_hand():
    """Delete-one-word jackknife of the pooled ρ: each leave-one-word-out ρ from scipy, then
    ρ̂ ± t_{G−1, .975} · √((G − 1)/G · Σ(ρ_(g) − mean)²), cut to [−1, 1]."""
    from scipy.stats import spearmanr
    from scipy.stats import t as student_t

    words = list("uuuvvvwwwxxx")
    s = pd.DataFrame(
        {"word": words, "candidate": list("abcdefghijkl"), "percentile": [1, 2, 3, 9, 8, 7, 4, 6, 5, 10, 12, 11]}
    )
    r = pd.DataFrame(
        {"word": words, "candidate": list("abcdefghijkl"), "avg_score": [1, 3, 2, 5, 4, 6, 2, 2.5, 3, 4, 5, 4.5]}
    )
    row = correlations.within_word_correlations(s, r, "toy").iloc[0]
    full = spearmanr(s["percentile"], r["avg_score"]).statistic
    loo = np.array(
        [spearmanr(s.loc[s["word"] != w, "percentile"], r.loc[r["word"] != w, "avg_score"]).statistic for w in "uvwx"]
    )
    half = student_t.ppf(0.975, 3) * np.sqrt(3 / 4 * ((loo - loo.mean()) ** 2).sum())
    assert row["pooled_rho"] == pytest.approx(full)
    assert row["pooled_jackknife_ci_low"] == pytest.approx(max(full - half, -1.0))
    assert row["pooled_jackknife_ci_high"] == pytest.approx(min(full + half, 1.0))


def test_word_levels_by_hand():
    """a: mean 2, b: 15, c: 4; a sits 2 − (15 + 4)/2 = −7.5 from the others, b +12, c −4.5;
    rated (a1, a3, b1): a 2 − 10 = −8, b +8."""
    scores = pd.DataFrame(
        {
            "word": list("aaabbc"),
            "candidate": ["a1", "a2", "a3", "b1", "b2", "c1"],
            "I_no_context": [1.0, 2, 3, 10, 20, 4],
        }
    )
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


def test_ladder_correlations_on_a_hand_made_case():
    # two words, three candidates each; rung "x" ranks each word's ratings perfectly, rung "y" reverses them
    ratings = pd.DataFrame({"word": list("uuuvvv"), "candidate": list("abcdef"), "avg_score": [1, 2, 3, 1, 2, 3]})
    scores = pd.concat(
        [
            pd.DataFrame(
                {
                    "rung": "x",
                    "scorer": "x",
                    "word": list("uuuvvv"),
                    "candidate": list("abcdef"),
                    "I_no_context": [1.0, 2, 3, 4, 5, 6],
                }
            ),
            pd.DataFrame(
                {
                    "rung": "y",
                    "scorer": "y",
                    "word": list("uuuvvv"),
                    "candidate": list("abcdef"),
                    "I_no_context": [3.0, 2, 1, 6, 5, 4],
                }
            ),
        ]
    )
    models = pd.DataFrame(
        {
            "rung": ["x", "y"],
            "scorer": ["x", "y"],
            "family": "toy",
            "parameters": [1, 2],
            "heldout_perplexity": [10.0, 20.0],
        }
    )
    summary, by_word = correlations.ladder_correlations(scores, models, ratings)
    s = summary.set_index("rung")
    assert s.loc["x", "mean_within_word_rho"] == 1.0 and s.loc["y", "mean_within_word_rho"] == -1.0
    assert s.loc["x", "p_within_word"] == pytest.approx(2 / 36)  # 2 of the 6 x 6 within-word orders reach |1|
    assert by_word.groupby("rung")["rho"].apply(list).to_dict() == {"x": [1.0, 1.0], "y": [-1.0, -1.0]}
    # x: ranks 1-6 against ratings 1,2,3,1,2,3 -> pooled Spearman from scipy
    from scipy.stats import spearmanr

    assert s.loc["x", "pooled_rho"] == pytest.approx(spearmanr([1, 2, 3, 4, 5, 6], [1, 2, 3, 1, 2, 3]).statistic)


# --------------------------------------------------------------------------- chapter 6: correlations


def _rated():
    """Three words: u rated in its candidates' order, v with one candidate unrated and one rating without a
    candidate score, w with constant ratings (its within-word ρ is undefined)."""
    scores = pd.DataFrame(
        {
            "word": list("uuuvvvvwww"),
            "candidate": list("abcdefghij"),
            "percentile": [10.0, 20, 30, 40, 50, 60, 70, 80, 90, 95],
            "released_score": [3.0, 1, 2, 6, 5, 4, 9, 7, 8, 1],
            "I_no_context": [1.0, 2, 3, 4, 6, 5, 7, 8, 9, 10],
            "I_context": [2.0, 1, 3, 6, 5, 4, 8, 7, 9, 10],
        }
    )
    ratings = pd.DataFrame(
        {"word": list("uuuvvvwwwv"), "candidate": list("abcdefhijz"), "avg_score": [1.0, 2, 3, 2, 1, 3, 4, 4, 4, 5]}
    )
    return scores, ratings


def test_pooled_correlations_labels_and_values_against_scipy():
    scores, ratings = _rated()
    out = correlations.human_correlations(scores, ratings, "toy-lm")
    merged = scores.merge(ratings, on=["word", "candidate"])  # 9 candidates in both (g unrated, z unscored)
    assert out[["method", "scorer", "context"]].values.tolist() == [
        ["percentile (Algorithm 2)", "character frequency D", "n/a"],
        ["released per-character percentile", "character frequency D", "n/a"],
        ["self-information", "toy-lm", "without"],
        ["self-information", "toy-lm", "with"],
    ]
    for (_, row), column in zip(out.iterrows(), ["percentile", "released_score", "I_no_context", "I_context"]):
        ref = spearmanr(merged[column], merged["avg_score"])
        assert (row["rho"], row["p"], row["n"]) == (pytest.approx(ref.statistic), pytest.approx(ref.pvalue), 9)


def test_per_word_rho_undefined_words_and_exact_permutation_p():
    scores, ratings = _rated()
    by_word = correlations.spearman_by_word(scores, ratings, "toy-lm")
    pct = by_word[by_word["method"] == "percentile (Algorithm 2)"].set_index("word")
    assert pct.index.tolist() == ["u", "v", "w"] and pct["n"].tolist() == [3, 3, 3]
    # u: ρ = 1, reached in size by 2 of the 3! orders; v: percentile 40, 50, 60 against 2, 1, 3 -> ρ = 0.5,
    # which every order reaches in size (three distinct values give only ρ = ±1 and ±0.5): p = 1
    assert pct.loc["u", "rho"] == pytest.approx(1.0) and pct.loc["u", "p_permutation"] == pytest.approx(2 / 6)
    assert pct.loc["v", "rho"] == pytest.approx(0.5) and pct.loc["v", "p_permutation"] == pytest.approx(1.0)
    assert pct.loc["v", "p"] == pytest.approx(spearmanr([40, 50, 60], [2, 1, 3]).pvalue)
    assert pct.loc["w", ["rho", "p", "p_permutation"]].isna().all()  # constant ratings
    short = correlations.spearman_by_word(scores, ratings[ratings["candidate"] != "c"], "toy-lm")
    assert short.loc[short["word"] == "u", ["rho", "p", "p_permutation"]].isna().all().all()  # 2 candidates
    assert short.loc[short["word"] == "u", "n"].tolist() == [2, 2, 2, 2]


def test_within_word_summary_counts_the_words_it_uses():
    scores, ratings = _rated()
    row = correlations.within_word_correlations(scores, ratings, "toy-lm").iloc[0]
    merged = scores.merge(ratings, on=["word", "candidate"])
    assert row["pooled_rho"] == pytest.approx(spearmanr(merged["percentile"], merged["avg_score"]).statistic)
    # u (ρ 1) and v (ρ 0.5): mean 0.75; w's constant ratings leave it out; exact over the 6 x 6 orders,
    # the share of them whose |mean ρ| reaches 0.75 counted by enumeration below
    assert row["mean_within_word_rho"] == pytest.approx(0.75)
    assert (row["n"], row["n_words"], row["n_within_word"]) == (9, 2, 6)
    assert row["exact"] and row["n_permutations"] == 36
    rhos = [spearmanr([1, 2, 3], p).statistic for p in itertools.permutations([1, 2, 3])]
    hits = sum(abs((a + b) / 2) >= 0.75 - 1e-12 for a in rhos for b in rhos)
    assert row["p_within_word"] == pytest.approx(hits / 36)
    # three words: the word jackknife runs (u, v, w all in the pooled ρ)
    loo = [
        spearmanr(merged.loc[merged["word"] != w, "percentile"], merged.loc[merged["word"] != w, "avg_score"]).statistic
        for w in "uvw"
    ]
    half = student_t.ppf(0.975, 2) * math.sqrt(2 / 3 * sum((x - np.mean(loo)) ** 2 for x in loo))
    assert row["pooled_jackknife_ci_low"] == pytest.approx(max(row["pooled_rho"] - half, -1.0))
    assert row["pooled_jackknife_ci_high"] == pytest.approx(min(row["pooled_rho"] + half, 1.0))
    two = correlations.within_word_correlations(scores[scores["word"] != "w"], ratings, "toy-lm").iloc[0]
    assert np.isnan(two["pooled_jackknife_ci_low"]) and np.isnan(two["pooled_jackknife_ci_high"])  # 2 words


def test_ladder_intervals_by_hand():
    # three words of three candidates rated 1, 2, 3; rung y: u in order (ρ 1), v 1,3,2 and w 2,1,3 (ρ 0.5 each)
    words = list("uuuvvvwww")
    ratings = pd.DataFrame({"word": words, "candidate": list("abcdefghi"), "avg_score": [1.0, 2, 3] * 3})
    y = [1.0, 2, 3, 4, 6, 5, 8, 7, 9]
    scores = pd.concat(
        [
            pd.DataFrame({"rung": "y", "word": words, "candidate": list("abcdefghi"), "I_no_context": y}),
            pd.DataFrame({"rung": "x", "word": words, "candidate": list("abcdefghi"), "I_no_context": y[::-1]}),
        ]
    )
    models = pd.DataFrame(
        {
            "rung": ["x", "y"],
            "scorer": ["lm-x", "lm-y"],
            "family": ["f1", "f2"],
            "parameters": [10, 20],
            "heldout_perplexity": [30.0, 40.0],
        }
    )
    summary, by_word = correlations.ladder_correlations(scores, models, ratings, n_perm=100, seed=1)
    assert summary["rung"].tolist() == ["y", "x"]  # the order of the scores
    s = summary.iloc[0]
    assert (s["scorer"], s["family"], s["parameters"], s["heldout_perplexity"], s["context"]) == (
        "lm-y",
        "f2",
        20,
        40.0,
        "without",
    )
    rho = spearmanr(y, [1.0, 2, 3] * 3).statistic
    z, half = math.atanh(rho), norm.ppf(0.975) * math.sqrt(1.06 / 6)  # Fisher z, variance 1.06 / (n - 3)
    assert (s["pooled_ci_low"], s["pooled_ci_high"]) == (
        pytest.approx(math.tanh(z - half)),
        pytest.approx(math.tanh(z + half)),
    )
    # word ρ 1, 0.5, 0.5: mean 2/3, SD √(1/12), t_{2, .975} · SD / √3 = 0.717 -> [-0.050, 1.384], cut at 1
    t_half = student_t.ppf(0.975, 2) * math.sqrt(1 / 12) / math.sqrt(3)
    assert s["mean_within_word_rho"] == pytest.approx(2 / 3)
    assert (s["within_ci_low"], s["within_ci_high"]) == (pytest.approx(2 / 3 - t_half), 1.0)
    assert (s["n"], s["n_words"], s["n_permutations"]) == (9, 3, 216) and s["exact"]
    assert by_word.columns.tolist() == ["rung", "scorer", "context", "word", "rho", "p", "p_permutation", "n"]
    # rung x reverses the scores: u 9, 7, 8 -> ρ −0.5, v 5, 6, 4 -> −0.5, w 3, 2, 1 -> −1
    assert by_word[by_word["rung"] == "x"]["rho"].tolist() == pytest.approx([-0.5, -0.5, -1.0])
    assert by_word["scorer"].tolist() == ["lm-y"] * 3 + ["lm-x"] * 3 and by_word.index.tolist() == list(range(6))


def test_empty_and_undefined_correlation_tables_keep_their_columns():
    scores, ratings = _rated()
    none = scores[["word", "candidate"]]  # no method column at all
    assert correlations.human_correlations(none, ratings, "toy").columns.tolist() == [
        "method",
        "scorer",
        "context",
        "rho",
        "p",
        "n",
    ]
    assert correlations.spearman_by_word(none, ratings, "toy").columns.tolist() == [
        "method",
        "scorer",
        "context",
        "word",
        "rho",
        "p",
        "p_permutation",
        "n",
    ]
    flat = correlations.spearman_by_word(scores, ratings.assign(avg_score=3.0), "toy")  # every word undefined
    assert flat["rho"].dtype == float and flat["p_permutation"].dtype == float and flat["rho"].isna().all()


def test_per_word_rows_follow_the_order_of_the_ratings():
    scores, ratings = _rated()
    by_word = correlations.spearman_by_word(scores, ratings.iloc[::-1], "toy-lm")  # w's ratings come first
    assert by_word[by_word["context"] == "without"]["word"].tolist() == ["w", "v", "u"]
    within = correlations.within_word_correlations(scores, ratings, "toy-lm")
    assert within["scorer"].tolist() == ["character frequency D", "character frequency D", "toy-lm", "toy-lm"]


def test_word_jackknife_interval_is_cut_at_minus_one():
    words = list("uuuvvvwww")
    s = pd.DataFrame({"word": words, "candidate": list("abcdefghi"), "percentile": [5.0, 6, 3, 7, 4, 9, 8, 1, 2]})
    r = pd.DataFrame({"word": words, "candidate": list("abcdefghi"), "avg_score": [3.0, 4, 5, 4, 4, 3, 3, 5, 2]})
    row = correlations.within_word_correlations(s, r, "toy").iloc[0]
    full = spearmanr(s["percentile"], r["avg_score"]).statistic
    loo = np.array(
        [spearmanr(s.loc[s["word"] != w, "percentile"], r.loc[r["word"] != w, "avg_score"]).statistic for w in "uvw"]
    )
    half = student_t.ppf(0.975, 2) * math.sqrt(2 / 3 * ((loo - loo.mean()) ** 2).sum())
    assert full - half < -1 < full + half < 1  # the lower end is cut, the upper is not
    assert row["pooled_jackknife_ci_low"] == -1.0
    assert row["pooled_jackknife_ci_high"] == pytest.approx(full + half)


def _nine():
    """One word of nine candidates, more than MAX_EXACT_GROUP (8): the permutation test samples."""
    ratings = [5.0, 1, 3, 8, 2, 9, 4, 6, 7]
    scores = pd.DataFrame({"word": "u", "candidate": list("abcdefghi"), "I_no_context": np.arange(1.0, 10)})
    return scores, pd.DataFrame({"word": "u", "candidate": list("abcdefghi"), "avg_score": ratings})


def _exact_p_nine() -> tuple[float, float]:
    """ρ of 1…9 against the ratings' ranks (Σd² = 68: ρ = 1 − 6·68/720) and the share of all 9! orders of the
    ratings whose |ρ| reaches it."""
    x = np.arange(1, 10)
    y = np.array([5, 1, 3, 8, 2, 9, 4, 6, 7])
    rho = 1 - 6 * ((x - y) ** 2).sum() / 720
    perms = np.array(list(itertools.permutations(range(1, 10))), dtype=np.int16)
    rhos = 1 - 6 * ((perms - x) ** 2).sum(axis=1) / 720
    return rho, float(np.mean(np.abs(rhos) >= abs(rho) - 1e-9))


def test_sampled_permutation_p_of_a_large_word():
    scores, ratings = _nine()
    rho, exact = _exact_p_nine()
    assert rho == pytest.approx(1 - 408 / 720)
    row = correlations.spearman_by_word(scores, ratings, "lm").iloc[0]
    assert row["rho"] == pytest.approx(rho)
    # p = (hits + 1) / (n_perm + 1) with the default 10 000 permutations, close to the exact share
    assert row["p_permutation"] * 10001 == pytest.approx(round(row["p_permutation"] * 10001), abs=1e-6)
    assert row["p_permutation"] == pytest.approx(exact, abs=0.02)
    few = correlations.spearman_by_word(scores, ratings, "lm", n_perm=2000, seed=5).iloc[0]
    assert few["p_permutation"] * 2001 == pytest.approx(round(few["p_permutation"] * 2001), abs=1e-6)
    assert few["p_permutation"] == pytest.approx(exact, abs=0.04)
    within = correlations.within_word_correlations(scores, ratings, "lm").iloc[0]
    assert not within["exact"] and within["n_permutations"] == 10000
    assert within["p_within_word"] == pytest.approx(exact, abs=0.02)
    within = correlations.within_word_correlations(scores, ratings, "lm", n_perm=2000, seed=5).iloc[0]
    assert within["n_permutations"] == 2000 and within["p_within_word"] == pytest.approx(few["p_permutation"])
    # the draws are those of the within-word test (pinned in tests/core) with the given or default seed
    x, y = np.arange(1.0, 10), ratings["avg_score"].to_numpy()
    assert row["p_permutation"] == stats.within_group_permutation_test(x, y, ["u"] * 9, 10000, 0).p_value
    assert few["p_permutation"] == stats.within_group_permutation_test(x, y, ["u"] * 9, 2000, 5).p_value
    assert correlations.within_word_correlations(scores, ratings, "lm").iloc[0]["p_within_word"] == row["p_permutation"]


def test_ladder_passes_its_permutation_settings_on():
    scores, ratings = _nine()
    scores = scores.assign(rung="r")
    models = pd.DataFrame(
        {"rung": ["r"], "scorer": ["lm-r"], "family": ["f"], "parameters": [1], "heldout_perplexity": [2.0]}
    )
    x, y = np.arange(1.0, 10), ratings["avg_score"].to_numpy()
    for kwargs, (n_perm, seed) in (({}, (10000, 0)), ({"n_perm": 2000, "seed": 5}, (2000, 5))):
        summary, by_word = correlations.ladder_correlations(scores, models, ratings, **kwargs)
        p = stats.within_group_permutation_test(x, y, ["u"] * 9, n_perm, seed).p_value
        assert summary["n_permutations"].tolist() == [n_perm] and not summary["exact"].iloc[0]
        assert summary["p_within_word"].tolist() == [p] and by_word["p_permutation"].tolist() == [p]
    assert summary.columns.tolist() == [
        "rung",
        "scorer",
        "family",
        "parameters",
        "heldout_perplexity",
        "context",
        "pooled_rho",
        "pooled_p",
        "pooled_ci_low",
        "pooled_ci_high",
        "pooled_jackknife_ci_low",
        "pooled_jackknife_ci_high",
        "mean_within_word_rho",
        "p_within_word",
        "within_ci_low",
        "within_ci_high",
        "exact",
        "n_permutations",
        "n",
        "n_words",
    ]
    assert summary["pooled_p"].iloc[0] == pytest.approx(spearmanr(x, y).pvalue)
    assert summary[["pooled_jackknife_ci_low", "pooled_jackknife_ci_high"]].isna().all().all()  # one word
    assert by_word.index.tolist() == [0]
