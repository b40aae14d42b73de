"""Chapter 6's findings frames (helpers.slang.chapters) and the words that state them
(notebooks/words/06_homophones.md), on small tables whose answers are known by hand."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy.stats import spearmanr

from helpers.core.findings import Words
from helpers.slang import chapters
from helpers.slang import candidates as hc

WORDS = Words("06_homophones")


def _value(frame: pd.DataFrame, quantity: str, group: str = "") -> float:
    row = frame[(frame["quantity"] == quantity) & (frame["group"] == group)]
    assert len(row) == 1, (quantity, group)
    return row["value"].iloc[0]


def test_word_levels_by_hand():
    """a: mean 2, b: 15, c: 4; a sits 2 − (15 + 4)/2 = −7.5 from the others, b +12, c −4.5;
    rated (a1, a3, b1): a 2 − 10 = −8, b +8."""
    scores = pd.DataFrame({"word": list("aaabbc"), "candidate": ["a1", "a2", "a3", "b1", "b2", "c1"],
                           "I_no_context": [1.0, 2, 3, 10, 20, 4]})
    ratings = pd.DataFrame({"word": list("aab"), "candidate": ["a1", "a3", "b1"], "avg_score": [1.0, 2, 3]})
    levels = chapters.word_levels(scores, ratings).set_index(["candidates", "word"])
    assert set(levels["column"]) == {"I_no_context"}
    assert levels.loc[("all", "a"), "above_others"] == pytest.approx(-7.5)
    assert levels.loc[("all", "b"), "above_others"] == pytest.approx(12.0)
    assert levels.loc[("all", "c"), "above_others"] == pytest.approx(-4.5)
    assert levels.loc[("rated", "a"), "mean"] == pytest.approx(2.0) and levels.loc[("rated", "a"), "n"] == 2
    assert levels.loc[("rated", "b"), "above_others"] == pytest.approx(8.0)
    within = chapters.within_word(pd.DataFrame(columns=["method", "context"]), pd.DataFrame(columns=["method"]),
                                  chapters.word_levels(scores, ratings))
    assert WORDS.text("within_word", within) == (
        "- Before any ranking the words sit at different heights: over all their candidates, b forms carry 15.0 bits "
        "on average, +12.0 bits against the mean of the other words. A pooled ρ counts such differences between "
        "words together with the ranking within each word; the within-word test keeps each word's ratings with its "
        "own candidates.")


def _toy_top():
    """Algorithm 2 on one word (the docstring of top_homophones): the chapter's reading picks a, c,
    the printed one b, c; they share c."""
    scores = pd.DataFrame({"word": "w", "candidate": ["a", "b", "c", "w"], "F": [5, 1, 3, 9],
                           "percentile": [100.0, 33.3, 66.7, 0.0]})
    return hc.top_homophones(scores, k=2)


def test_algorithm2_readings_share_and_fare_by_hand():
    top = _toy_top()
    ratings = pd.DataFrame({"word": ["w", "w"], "candidate": ["a", "b"], "avg_score": [4.0, 2.0]})
    found = chapters.algorithm2_readings(top, hc.top_ratings(top, ratings), 2)
    assert _value(found, "shared") == 1 and _value(found, "picks") == 2
    assert _value(found, "printed_mean") == 2.0 and _value(found, "chapter_mean") == 4.0
    text = WORDS.text("algorithm2", found)
    assert "The two readings share 1 of 2 picks." in text
    assert "As printed, 1 of its 2 picks are rated (mean rating 2.00); in the chapter's reading, 1 of its 2" in text
    none = chapters.algorithm2_readings(top, hc.top_ratings(top, ratings.iloc[:0]), 2)
    assert "As printed, 0 of its 2 picks are rated; in the chapter's reading, 0 of its 2 picks are rated." \
        in WORDS.text("algorithm2", none)


def _ladder(rows):
    return pd.DataFrame(rows, columns=["rung", "context", "heldout_perplexity", "mean_within_word_rho",
                                       "p_within_word"]).assign(n=25)


def test_ladder_direction_same_or_changing_with_the_model():
    ladder = _ladder([("kn-2", "without", 30.0, -0.1, 0.5), ("kn-3", "without", 20.0, -0.2, 0.01),
                      ("kn-4", "without", 10.0, -0.3, 0.2),
                      ("kn-2", "with", 30.0, 0.2, 0.5), ("kn-3", "with", 20.0, -0.1, 0.5),
                      ("kn-4", "with", 10.0, 0.05, 0.5)])
    found = chapters.ladder_direction(ladder)
    assert _value(found, "trend", "without") == pytest.approx(spearmanr([10, 20, 30], [-0.3, -0.2, -0.1]).statistic)
    assert _value(found, "same", "without") == 1 and _value(found, "same", "with") == 0
    text = WORDS.text("ladder_direction", found)
    without, with_ = text.split("\n\n")
    assert without.startswith("Self-information without context: the direction is **the same for every one of the "
                              "3 scorers**, negative: the ratings lean towards the candidates each model finds")
    assert "1 of 3 are distinguishable from chance at the 5% level" in without and "tests: kn-3 -0.20)" in without
    assert "kn-4 (10), has mean within-word ρ -0.30; across the rungs, the Spearman correlation of perplexity " \
           "with that ρ is +1.00 (descriptive: the rungs share the same 25 ratings" in without
    assert with_.startswith("Self-information with context: the direction **changes with the model**: negative for "
                            "kn-3 -0.10; positive for kn-4 +0.05, kn-2 +0.20. 0 of 3")
    two = chapters.ladder_direction(ladder[ladder["rung"] != "kn-4"])
    assert "Spearman correlation" not in WORDS.text("ladder_direction", two)  # two rungs: no trend


def test_rating_limit_follows_the_ratings():
    published = WORDS.text("limit", chapters.rating_limit(25, True))
    assert "with 25 rated candidates a Spearman ρ near 0 has a 95% interval of ±0.41" in published
    assert f"172 rated candidates would bring the interval to ±{chapters.resolution(172):.2f}." in published
    own = WORDS.text("limit", chapters.rating_limit(11, False))
    assert own.endswith("cannot be separated on the class's ratings.") and "172" not in own


def test_direction_and_emotion_change_from_the_tables():
    spearman = pd.DataFrame({"method": ["self-information"] * 2, "rho": [-0.3, 0.1]})
    assert "is mixed." in WORDS.text("direction", chapters.direction(spearman, "kn"))
    assert "*more probable*" in WORDS.text("direction", chapters.direction(spearman.assign(rho=[-0.3, -0.1]), "kn"))
    consistency = pd.DataFrame({"group": ["G0", "G1", "G2"], "same_label": [0.7, 0.6, 0.65],
                                "same_as_original": [1.0, 0.8, 0.9], "n": 20})
    text = WORDS.text("emotion", chapters.emotion_change(consistency, "paper_table8"))
    assert text == ("Replacing the slang changes the predicted emotion of 10%–20% of these posts (G1–G2); agreement "
                    "with the gold label moves from 0.700 (G0) to 0.600–0.650.")


def _summary(lean: float, p: float) -> pd.DataFrame:
    row = {"pooled_rho": 0.2, "pooled_p": 0.3, "mean_within_word_rho": lean, "p_within_word": p, "n": 25,
           "n_words": 5, "exact": True, "n_permutations": 120 ** 5, "pooled_jackknife_ci_low": -0.1,
           "pooled_jackknife_ci_high": 0.5}
    return pd.DataFrame([{"method": hc.PERCENTILE_TOP, "context": "n/a", **row},
                         {"method": "self-information", "context": "without", **row}])


def test_findings_follow_the_data():
    """The closing findings are computed from this run's tables: flip the within-word ρ and
    its p, and the verdicts flip."""
    from helpers.slang.chapters import HomophoneData

    scores = pd.DataFrame({"word": list("aaabbb"), "candidate": list("uvwxyz"), "percentile": [1.0, 2, 3, 4, 5, 6],
                           "I_no_context": [3.0, 2, 1, 6, 5, 4]})
    ratings = pd.DataFrame({"word": list("aaabbb"), "candidate": list("uvwxyz"), "avg_score": [1.0, 2, 3, 2, 3, 4]})
    by_word = pd.DataFrame({"method": [hc.PERCENTILE_TOP] * 2 + ["self-information"] * 2,
                            "context": ["n/a"] * 2 + ["without"] * 2, "word": list("abab"),
                            "rho": [1.0, 1.0, -1.0, -1.0]})
    data = HomophoneData(None, ratings=ratings, ratings_are_table8=False)
    candidates = chapters.candidate_counts(pd.DataFrame({"candidates": [3, 3], "identical": [True, False]}))
    top = _toy_top()
    algorithm2 = chapters.algorithm2_readings(top, hc.top_ratings(top, ratings), 2)
    emotion = chapters.emotion_change(pd.DataFrame({"group": ["G0", "G1"], "same_label": [0.7, 0.6],
                                                    "same_as_original": [1.0, 0.75], "n": 20}), "paper_table8")
    classifier = pd.DataFrame({"metric": ["macro_f1"], "value": [0.61]})

    def findings(lean, p):
        return chapters.homophones_findings(candidates, _summary(lean, p), by_word, chapters.word_levels(scores, ratings),
                                            data, algorithm2, chapters.rating_limit(6, False), classifier, emotion)

    probable = WORDS.text("findings", findings(-0.4, 0.01))
    informative = WORDS.text("findings", findings(0.3, 0.2))
    assert "- Algorithm 1 rebuilt 6 candidates (the paper: 172); 1 of 2 candidate lists equal the released ones." \
        in probable
    assert "6 rated candidates of 2 slang word(s) from the ratings given as `ratings_file`" in probable
    assert "**more probable** (lower I)" in probable and "tendency" not in probable
    assert "the ranking within words is unlikely to be chance (p < 0.05)" in probable
    assert "**more informative** (higher I), as the paper proposes, but only as a tendency: 25 rated" in informative
    assert "not distinguishable from chance at the 5% level" in informative
    assert "within the words ρ runs from -1.00 (a) to -1.00 (a), negative in 2 of 2 words" in probable
    gap = f"{0.2 - (-0.4):+.2f}"
    assert f"  - self-information (without context): +0.20 pooled against -0.40 within (gap {gap})" in probable
    assert "Across a ladder" not in probable  # no ladder in this run
    assert "The emotion classifier reaches macro-F1 0.610" in probable and "of 25%–25% of them (G1–G1)" in probable
    fewer = chapters.homophones_findings(candidates, _summary(-0.4, 0.01), by_word, chapters.word_levels(scores, ratings),
                                         data, algorithm2, chapters.rating_limit(6, False), classifier, emotion,
                                         train_posts=4000)
    assert _value(fewer, "train_posts") == 4000
    assert "The emotion classifier, fitted on 4,000 training posts, reaches macro-F1 0.610" in WORDS.text("findings", fewer)
    frame = findings(-0.4, 0.01)
    assert _value(frame, "gap", "self-information (without context)") == pytest.approx(0.6)
    assert math.isnan(_value(frame, "rungs"))


def test_measured_ladder_note_with_and_without_a_record():
    table = pd.DataFrame({"n": [25]})
    record = {"date": "2026-12-01 10:05", "machine": "x86_64", "load_average_before": [1.5, 2.0, 2.5],
              "command": "python -c ...", "settings": {"gpt_steps": 400}}
    text = WORDS.text("measured_ladder", chapters.measured_ladder(table, record))
    assert text.startswith("**Measured, not recomputed in this run**: 2026-12-01 10:05, x86_64, with `python -c ...`: "
                           "every rung cold, transformers trained for 400 steps, on the paper's 25 ratings.")
    assert "load average" not in text and "The whole chapter took" not in text  # not in this record
    assert WORDS.text("measured_ladder", chapters.measured_ladder(None, {})).startswith(
        "No measured ladder comparison is committed")


def test_the_data_box_names_whose_ratings_and_escapes_file_names():
    from types import SimpleNamespace

    from helpers.slang.chapters import HomophoneData

    posts = pd.DataFrame({"text": ["a", "b", "c"]})
    table8 = HomophoneData(None, posts=posts, ratings=pd.DataFrame({"word": ["w"] * 25}), ratings_are_table8=True)
    none = SimpleNamespace(ratings_files=(), n_workbooks=0, ratings_file=None, ratings_notes=())
    assert WORDS.text("data", chapters.data_description(table8, none)).endswith(
        "Human ratings: the paper's Table 8 (25 items), entered by hand.")
    own = HomophoneData(None, posts=posts, ratings=pd.DataFrame({"word": ["w"] * 11, "n_raters": 2}),
                        ratings_are_table8=False)
    setup = SimpleNamespace(ratings_files=("a.xlsx", "b.xlsx"), n_workbooks=2, ratings_file="sheets<1>",
                            ratings_notes=("left out student S04 (S04.xlsx)",))
    text = WORDS.text("data", chapters.data_description(own, setup))
    assert text.startswith("3 SMP2020-EWECT Weibo posts")
    assert text.endswith("Human ratings: 11 rated candidates from 2 workbook(s), averaged over the raters of each "
                         "candidate (<code>sheets&lt;1&gt;</code>). left out student S04 (S04.xlsx).")
