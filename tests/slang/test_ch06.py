"""Chapter 6's module (helpers.slang.ch06): its parameter check, its data summary, and its findings
recomputed from small hand-made result CSVs, with the words that state them
(notebooks/words/06_homophones.md); answers known by hand."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pandas as pd
import pytest
from scipy.stats import spearmanr

from helpers.core.book.findings import Words
from helpers.core.errors import InputError
from helpers.slang import candidates as hc
from helpers.slang import ch06, ch06_findings, correlations

WORDS = Words("06_homophones")
SI = "self-information"


def _value(frame: pd.DataFrame, quantity: str, group: str = "") -> float:
    row = frame[(frame["quantity"] == quantity) & (frame["group"] == group)]
    assert len(row) == 1, (quantity, group)
    return row["value"].iloc[0]


def _write(folder, name, frame):
    frame.to_csv(folder / f"{name}.csv", index=False)


def _summary(folder, **values):
    """A ``data_summary.csv``: the paper's 25 ratings and top 2 unless ``values`` say otherwise."""
    info = {
        "posts": 100,
        "published_ratings": 1,
        "ratings": 25,
        "rated_words": 5,
        "workbooks": None,
        "same_as_released": 1,
        "top_k": 2,
        "train_posts": 80,
        **values,
    }
    texts = {"ratings_file": info.pop("ratings_file", ""), "perturbation_source": info.pop("source", "paper_table8")}
    rows = [(q, v, "") for q, v in info.items()] + [(q, None, t) for q, t in texts.items()]
    _write(folder, "data_summary", pd.DataFrame(rows, columns=["quantity", "value", "text"]))


def test_setup_checks_ratings_and_every_parameter(tmp_path):
    path = tmp_path / "ratings.csv"
    pd.DataFrame(
        {"word": ["尼玛", "尼玛", "劳资"], "candidate": ["尼玛", "泥马", "牢籍"], "avg_score": [1.0, 2.5, 3.0]}
    ).to_csv(path, index=False)
    with pytest.raises(InputError) as err:
        ch06.setup(ratings_file=str(path))
    message = str(err.value)
    assert err.value.parameter == "ratings_file" and err.value.row == 4 and err.value.value == "牢籍"
    assert "1 rated candidate(s) are not among the generated candidates: 牢籍 (劳资, row 4)" in message
    with pytest.raises(InputError, match=r"parameter 'hf_model'"):
        ch06.setup(hf_model=str(tmp_path / "none"))
    with pytest.raises(InputError, match=r"parameter 'lm_ladder\[1\]': value 'kn-9'"):
        ch06.setup(lm_ladder=["kn-2", "kn-9"])
    with pytest.raises(InputError, match=r"parameter 'lm_ladder'.*names a model twice"):
        ch06.setup(lm_ladder=["kn-2", "kn-2"])
    with pytest.raises(InputError, match=r"parameter 'gpt_steps'"):
        ch06.setup(gpt_steps=0)
    for posts in (99, 27_767, 2.5):  # at least 100, at most the 27,766 training posts, a whole number
        with pytest.raises(InputError, match=r"parameter 'classifier_posts'"):
            ch06.setup(classifier_posts=posts)
    assert ch06.setup(classifier_posts=27_766).classifier_posts == 27_766


def test_within_word_and_word_levels_from_the_saved_tables(tmp_path):
    """a: mean 2, b: 15, c: 4 bits; b sits 15 − (2 + 4)/2 = +12 above the others."""
    scores = pd.DataFrame(
        {
            "word": list("aaabbc"),
            "candidate": ["a1", "a2", "a3", "b1", "b2", "c1"],
            "I_no_context": [1.0, 2, 3, 10, 20, 4],
        }
    )
    ratings = pd.DataFrame({"word": list("aab"), "candidate": ["a1", "a3", "b1"], "avg_score": [1.0, 2, 3]})
    _write(tmp_path, "word_levels", correlations.word_levels(scores, ratings))
    _write(tmp_path, "homophone_spearman_within_word", pd.DataFrame(columns=["method", "context"]))
    _write(tmp_path, "homophone_spearman_by_word", pd.DataFrame(columns=["method", "context", "word", "rho"]))
    within = ch06.findings(tmp_path, "within_word")
    assert _value(within, "highest_word") == pytest.approx(15.0)
    assert WORDS.text("within_word", within) == (
        "- Before any ranking the words sit at different heights: over all their candidates, b forms carry 15.0 bits "
        "on average, +12.0 bits against the mean of the other words. A pooled ρ counts such differences between "
        "words together with the ranking within each word; the within-word test keeps each word's ratings with its "
        "own candidates."
    )


def _toy_top():
    """Algorithm 2 on one word (the docstring of top_homophones): the chapter's reading picks a, c,
    the printed one b, c; they share c."""
    scores = pd.DataFrame(
        {"word": "w", "candidate": ["a", "b", "c", "w"], "F": [5, 1, 3, 9], "percentile": [100.0, 33.3, 66.7, 0.0]}
    )
    return hc.top_homophones(scores, k=2)


def test_algorithm2_readings_share_and_fare_by_hand(tmp_path):
    top = _toy_top()
    ratings = pd.DataFrame({"word": ["w", "w"], "candidate": ["a", "b"], "avg_score": [4.0, 2.0]})
    _summary(tmp_path)
    _write(tmp_path, "top_homophones", top)
    _write(tmp_path, "top_ratings", hc.top_ratings(top, ratings))
    found = ch06.findings(tmp_path, "algorithm2")
    assert _value(found, "shared") == 1 and _value(found, "picks") == 2
    assert _value(found, "printed_mean") == 2.0 and _value(found, "chapter_mean") == 4.0
    text = WORDS.text("algorithm2", found)
    assert "The two readings share 1 of 2 picks." in text
    assert "As printed, 1 of its 2 picks are rated (mean rating 2.00); in the chapter's reading, 1 of its 2" in text
    _write(tmp_path, "top_ratings", hc.top_ratings(top, ratings.iloc[:0]))
    assert (
        "As printed, 0 of its 2 picks are rated; in the chapter's reading, 0 of its 2 picks are rated."
        in WORDS.text("algorithm2", ch06.findings(tmp_path, "algorithm2"))
    )


def _ladder(rows):
    return pd.DataFrame(
        rows, columns=["rung", "context", "heldout_perplexity", "mean_within_word_rho", "p_within_word"]
    ).assign(n=25)


def test_ladder_direction_same_or_changing_with_the_model(tmp_path):
    ladder = _ladder(
        [
            ("kn-2", "without", 30.0, -0.1, 0.5),
            ("kn-3", "without", 20.0, -0.2, 0.01),
            ("kn-4", "without", 10.0, -0.3, 0.2),
            ("kn-2", "with", 30.0, 0.2, 0.5),
            ("kn-3", "with", 20.0, -0.1, 0.5),
            ("kn-4", "with", 10.0, 0.05, 0.5),
        ]
    )
    _write(tmp_path, "lm_ladder", ladder)
    found = ch06.findings(tmp_path, "ladder_direction")
    assert _value(found, "trend", "without") == pytest.approx(spearmanr([10, 20, 30], [-0.3, -0.2, -0.1]).statistic)
    assert _value(found, "same", "without") == 1 and _value(found, "same", "with") == 0
    text = WORDS.text("ladder_direction", found)
    without, with_ = text.split("\n\n")
    assert without.startswith(
        "Self-information without context: the direction is **the same for every one of the "
        "3 scorers**, negative: the ratings lean towards the candidates each model finds"
    )
    assert "1 of 3 are distinguishable from chance at the 5% level" in without and "tests: kn-3 -0.20)" in without
    assert (
        "kn-4 (10), has mean within-word ρ -0.30; across the rungs, the Spearman correlation of perplexity "
        "with that ρ is +1.00 (descriptive: the rungs share the same 25 ratings" in without
    )
    assert with_.startswith(
        "Self-information with context: the direction **changes with the model**: negative for "
        "kn-3 -0.10; positive for kn-4 +0.05, kn-2 +0.20. 0 of 3"
    )
    _write(tmp_path, "lm_ladder", ladder[ladder["rung"] != "kn-4"])
    two = ch06.findings(tmp_path, "ladder_direction")
    assert "Spearman correlation" not in WORDS.text("ladder_direction", two)  # two rungs: no trend


def test_rating_limit_follows_the_ratings(tmp_path):
    _summary(tmp_path)
    _write(tmp_path, "homophone_spearman_within_word", pd.DataFrame({"method": [SI], "n": [25]}))
    published = WORDS.text("limit", ch06.findings(tmp_path, "limit"))
    assert "with 25 rated candidates a Spearman ρ near 0 has a 95% interval of ±0.41" in published
    assert f"172 rated candidates would bring the interval to ±{correlations.resolution(172):.2f}." in published
    _summary(tmp_path, published_ratings=0, ratings=11)
    _write(tmp_path, "homophone_spearman_within_word", pd.DataFrame({"method": [SI], "n": [11]}))
    own = WORDS.text("limit", ch06.findings(tmp_path, "limit"))
    assert own.endswith("cannot be separated on the class's ratings.") and "172" not in own


def test_direction_and_emotion_change_from_the_tables(tmp_path):
    _summary(tmp_path)
    spearman = pd.DataFrame(
        {
            "method": [SI] * 2 + [hc.PERCENTILE_TOP],
            "scorer": ["kn", "kn", "D"],
            "context": ["without", "with", "n/a"],
            "rho": [-0.3, 0.1, 0.5],
        }
    )
    _write(tmp_path, "homophone_spearman", spearman)
    direction = ch06.findings(tmp_path, "direction")
    assert direction.set_index("quantity").loc["direction", "text"] == "mixed"  # a key; the words phrase it
    assert "With the `kn` scorer the correlation of I with the ratings is mixed." in WORDS.text("direction", direction)
    _write(tmp_path, "homophone_spearman", spearman.assign(rho=[-0.3, -0.1, 0.5]))
    assert "*more probable*" in WORDS.text("direction", ch06.findings(tmp_path, "direction"))
    _write(tmp_path, "homophone_spearman", spearman[spearman["method"] != SI])  # no self-information row
    assert ch06.findings(tmp_path, "direction")[["value", "text"]].replace("", None).isna().all().all()
    _write(
        tmp_path,
        "emotion_consistency",
        pd.DataFrame(
            {"group": ["G0", "G1", "G2"], "same_label": [0.7, 0.6, 0.65], "same_as_original": [1.0, 0.8, 0.9], "n": 20}
        ),
    )
    text = WORDS.text("emotion", ch06.findings(tmp_path, "emotion"))
    assert text == (
        "Replacing the slang changes the predicted emotion of 10%–20% of these posts (G1–G2); agreement "
        "with the gold label moves from 0.700 (G0) to 0.600–0.650."
    )


def _within(lean: float, p: float) -> pd.DataFrame:
    row = {
        "pooled_rho": 0.2,
        "pooled_p": 0.3,
        "mean_within_word_rho": lean,
        "p_within_word": p,
        "n": 25,
        "n_words": 5,
        "exact": True,
        "n_permutations": 120**5,
        "pooled_jackknife_ci_low": -0.1,
        "pooled_jackknife_ci_high": 0.5,
    }
    return pd.DataFrame(
        [{"method": hc.PERCENTILE_TOP, "context": "n/a", **row}, {"method": SI, "context": "without", **row}]
    )


@pytest.fixture
def saved(tmp_path):
    """A whole results folder of a small run: two words of three candidates, every one rated; the
    percentile ranks both words in the order of the ratings (ρ = +1 in each), self-information in
    the reverse order (ρ = −1 in each)."""
    scores = pd.DataFrame(
        {
            "word": list("aaabbb"),
            "candidate": list("uvwxyz"),
            "percentile": [1.0, 2, 3, 4, 5, 6],
            "I_no_context": [3.0, 2, 1, 6, 5, 4],
        }
    )
    ratings = pd.DataFrame({"word": list("aaabbb"), "candidate": list("uvwxyz"), "avg_score": [1.0, 2, 3, 2, 3, 4]})
    _summary(tmp_path, published_ratings=0, ratings=6, rated_words=2, ratings_file="r.csv", train_posts=27_766)
    _write(tmp_path, "candidates", pd.DataFrame({"word": ["a", "b"], "candidates": [3, 3], "identical": [True, False]}))
    _write(tmp_path, "homophone_spearman_within_word", _within(-0.4, 0.01))
    _write(
        tmp_path,
        "homophone_spearman_by_word",
        pd.DataFrame(
            {
                "method": [hc.PERCENTILE_TOP] * 2 + [SI] * 2,
                "context": ["n/a"] * 2 + ["without"] * 2,
                "word": list("abab"),
                "rho": [1.0, 1.0, -1.0, -1.0],
            }
        ),
    )
    _write(tmp_path, "word_levels", correlations.word_levels(scores, ratings))
    top = _toy_top()
    _write(tmp_path, "top_homophones", top)
    _write(tmp_path, "top_ratings", hc.top_ratings(top, ratings))
    _write(
        tmp_path,
        "emotion_consistency",
        pd.DataFrame({"group": ["G0", "G1"], "same_label": [0.7, 0.6], "same_as_original": [1.0, 0.75], "n": 20}),
    )
    _write(tmp_path, "emotion_classifier", pd.DataFrame({"metric": ["accuracy", "macro_f1"], "value": [0.7, 0.61]}))
    return tmp_path


def test_findings_are_recomputed_from_the_saved_csvs(saved):
    """Every number of the closing findings, from the saved tables alone; flip the within-word ρ
    and its p, and the verdicts flip."""
    frame = ch06.findings(saved, "findings")
    assert _value(frame, "ratings") == 6 and _value(frame, "rated_words") == 2
    assert _value(frame, "candidates") == 6 and _value(frame, "identical") == 1 and _value(frame, "lists") == 2
    percentile = hc.PERCENTILE_TOP
    assert _value(frame, "word_rhos", percentile) == 2 and _value(frame, "negative_words", percentile) == 0
    assert _value(frame, "negative_words", "self-information (without context)") == 2
    # the gap of self-information: pooled +0.2 minus within −0.4
    assert _value(frame, "gap", "self-information (without context)") == pytest.approx(0.6)
    # rated levels of I: a 2, b 5 -> b is 3 bits from a, a −3 from b; the largest |distance| is a's (first of ties)
    assert abs(_value(frame, "far_word", "self-information (without context)")) == pytest.approx(3.0)
    units = frame[frame["quantity"] == "unit"].set_index("group")["text"]
    assert units.to_dict() == {percentile: "percentile", "self-information (without context)": "I_no_context"}
    # the Fisher interval of ρ = 0.2 from 25 pairs: tanh(atanh(0.2) ± 1.96 · √(1.06 / 22))
    z, half = math.atanh(0.2), 1.959963984540054 * math.sqrt(1.06 / 22)
    fisher = frame[(frame["quantity"] == "fisher") & (frame["group"] == percentile)].iloc[0]
    assert (fisher["ci_low"], fisher["ci_high"]) == pytest.approx((math.tanh(z - half), math.tanh(z + half)))
    assert _value(frame, "mean_within", percentile) == -0.4
    assert frame.set_index(["quantity", "group"]).loc[("mean_within", percentile), "text"] == "beyond"
    assert _value(frame, "lean_negative") == 1 and _value(frame, "lean_established") == 1
    assert _value(frame, "macro_f1") == 0.61 and _value(frame, "train_posts") == 27_766
    assert _value(frame, "changed_least") == pytest.approx(0.25) and _value(frame, "groups") == 1
    assert _value(frame, "rated") == 25 and math.isnan(_value(frame, "rungs"))  # no ladder in this run
    probable = WORDS.text("findings", frame)
    assert (
        "- Algorithm 1 rebuilt 6 candidates (the paper: 172); 1 of 2 candidate lists equal the released ones."
        in probable
    )
    assert "6 rated candidates of 2 slang word(s) from the ratings given as `ratings_file`" in probable
    assert "**more probable** (lower I)" in probable and "tendency" not in probable
    assert "the ranking within words is unlikely to be chance (p < 0.05)" in probable
    assert "within the words ρ runs from -1.00 (a) to -1.00 (a), negative in 2 of 2 words" in probable
    assert (
        "  - self-information (without context): +0.20 pooled against -0.40 within (gap +0.60); its rated a "
        "candidates sit -3.0 bits from the other words' mean." in probable
    )
    assert "Across a ladder" not in probable
    assert "The emotion classifier, fitted on 27,766 training posts, reaches macro-F1 0.610" in probable
    assert "of 25%–25% of them (G1–G1)" in probable
    _write(saved, "homophone_spearman_within_word", _within(0.3, 0.2))
    informative = WORDS.text("findings", ch06.findings(saved, "findings"))
    assert "**more informative** (higher I), as the paper proposes, but only as a tendency: 25 rated" in informative
    assert "not distinguishable from chance at the 5% level" in informative


def _measured(folder, table, committed=True, **record):
    """The committed ladder comparison as the chapter saves it: ``lm_ladder_measured.csv`` and its
    record ``lm_ladder_measured_record.csv`` (item, group, value, text)."""
    rows = [("committed", "", int(committed), "")] + [
        (k, "", v, "") if isinstance(v, (int, float)) else (k, "", None, v) for k, v in record.items()
    ]
    _write(folder, "lm_ladder_measured", table)
    _write(folder, "lm_ladder_measured_record", pd.DataFrame(rows, columns=["item", "group", "value", "text"]))


def test_every_section_in_the_page_s_order_for_findings_csv(saved):
    _write(
        saved,
        "homophone_spearman",
        pd.DataFrame({"method": [SI], "scorer": ["kn"], "context": ["without"], "rho": [-0.3]}),
    )
    _write(saved, "lm_word_list_coverage", pd.DataFrame(columns=["rung", "candidates", "found", "n", "rated"]))
    _write(saved, "lm_ladder", pd.DataFrame(columns=["rung", "context", "n"]))
    _measured(saved, pd.DataFrame(), committed=False)
    every = ch06.findings(saved)
    assert list(every.columns[:8]) == ["quantity", "group", "value", "ci_low", "ci_high", "p", "text", "section"]
    assert list(dict.fromkeys(every["section"])) == list(ch06_findings.SECTIONS)
    for section in ch06_findings.SECTIONS:  # each section's rows are what the words state in that section
        shown = every[every["section"] == section].drop(columns="section").dropna(axis=1, how="all")
        alone = ch06.findings(saved, section)
        stated = alone.dropna(axis=1, how="all")
        pd.testing.assert_frame_equal(shown[stated.columns].reset_index(drop=True), stated, check_dtype=False)
        WORDS.text(section, alone)  # every field the words name is there
    with pytest.raises(InputError, match="parameter 'section'"):
        ch06.findings(saved, "nowhere")
    # a measured ladder saved by the run is stated right after its record, as a second ladder_direction
    _measured(saved, _ladder([("kn-2", "without", 30.0, -0.1, 0.5)]))
    every = ch06.findings(saved)
    order = list(dict.fromkeys(zip(every["section"], every["ladder"].fillna(""))))
    at = order.index(("measured_ladder", ""))
    assert order[at + 1] == ("ladder_direction", "measured") and ("ladder_direction", "this run") in order[:at]


def test_measured_ladder_note_from_the_run_s_saved_record(tmp_path):
    record = {
        "date": "2026-12-01 10:05",
        "machine": "x86_64",
        "command": "python tools/measure_lm_ladder.py",
        "gpt_steps": 400,
    }
    _measured(tmp_path, pd.DataFrame({"n": [25]}), **record)
    text = WORDS.text("measured_ladder", ch06.findings(tmp_path, "measured_ladder"))
    assert text.startswith(
        "**Measured, not recomputed in this run**: 2026-12-01 10:05, x86_64, with "
        "`python tools/measure_lm_ladder.py`: every rung cold, transformers trained for 400 steps, "
        "on the paper's 25 ratings."
    )
    assert "load average" not in text and "The whole chapter took" not in text  # not in this record
    _measured(
        tmp_path, _ladder([("kn-2", "without", 30.0, -0.1, 0.5), ("kn-3", "without", 20.0, -0.2, 0.01)]), **record
    )
    measured = ch06.findings(tmp_path, "ladder_direction", ladder="measured")
    assert (
        set(measured["ladder"]) == {"measured"} and _value(measured, "best", "without") == -0.2
    )  # kn-3: lower perplexity
    _measured(tmp_path, pd.DataFrame(), committed=False)
    assert math.isnan(_value(ch06.findings(tmp_path, "ladder_direction", ladder="measured"), "rungs"))
    assert WORDS.text("measured_ladder", ch06.findings(tmp_path, "measured_ladder")).startswith(
        "No measured ladder comparison is committed (`data/measured/lm_ladder_comparison.csv`); measure one with "
        "`.venv/bin/python tools/measure_lm_ladder.py --out data/measured`."
    )


def test_the_committed_ladder_is_saved_with_its_record():
    """The committed measurement (data/measured/lm_ladder_comparison.yml: 10 rungs, 400 steps,
    measured 2026-12-01 10:05) as the tables the chapter saves."""
    table = ch06.measured_ladder()
    assert table["rung"].nunique() == 10 and set(table["n"]) == {25}
    record = ch06.measured_ladder_record().set_index("item")
    assert record.loc["committed", "value"] == 1 and record.loc["gpt_steps", "value"] == 400
    assert record.loc["date", "text"] == "2026-12-01 10:05" and record.loc["load_before", "text"] == "5.36, 6.76, 5.52"


def test_a_folder_without_results_states_nothing(tmp_path):
    """Without result files every quantity is there and none is stated: not the paper's 172
    candidates, nor the committed measured ladder (data/measured), nor a False for a missing flag."""
    found = ch06.findings(tmp_path)
    assert list(dict.fromkeys(found["section"])) == list(ch06_findings.SECTIONS)
    stated = found[found["value"].notna() | (found["text"] != "")]
    assert stated.empty, stated["quantity"].tolist()
    for section in ch06_findings.SECTIONS:  # every quantity the words name is there
        WORDS.text(section, ch06.findings(tmp_path, section))
    for name in (
        "paper_candidates",
        "all_candidates",
        "paper_top",
        "measured",
        "published_ratings",
        "same_as_released",
        "macro_f1",
        "changed_least",
        "printed_mean",
    ):
        assert name in set(found["quantity"]), name


def test_the_paper_s_numbers_are_stated_only_beside_the_run_s(tmp_path):
    _write(tmp_path, "candidates", pd.DataFrame({"word": ["a"], "candidates": [3], "identical": [True]}))
    found = ch06.findings(tmp_path, "candidates")
    assert _value(found, "paper_candidates") == 172 and _value(found, "candidates") == 3
    (tmp_path / "candidates.csv").unlink()
    assert ch06.findings(tmp_path, "candidates")["value"].isna().all()


def test_the_data_box_names_whose_ratings_and_escapes_file_names(tmp_path):
    posts = pd.DataFrame({"split": ["train", "train", "test"], "text": ["a", "b", "c"]})
    table8 = ch06.Data(None, posts=posts, ratings=pd.DataFrame({"word": ["w"] * 25}), ratings_are_table8=True)
    none = SimpleNamespace(
        ratings_files=(),
        n_workbooks=0,
        ratings_file=None,
        ratings_notes=(),
        top_k=5,
        perturbation_source="paper_table8",
        classifier_posts=None,
        seed=0,
    )
    summary = ch06.description(table8, none).set_index("quantity")
    assert summary.loc["posts", "value"] == 3 and summary.loc["train_posts", "value"] == 2
    assert summary.loc["same_as_released", "value"] == 1  # the released reading gives the published D
    _write(tmp_path, "data_summary", ch06.description(table8, none))
    assert WORDS.text("data", ch06.findings(tmp_path, "data")).endswith(
        "Human ratings: the paper's Table 8 (25 items), entered by hand."
    )
    own = ch06.Data(
        None, posts=posts, ratings=pd.DataFrame({"word": ["w"] * 11, "n_raters": 2}), ratings_are_table8=False
    )
    setup = SimpleNamespace(
        ratings_files=("a.xlsx", "b.xlsx"),
        n_workbooks=2,
        ratings_file="sheets<1>",
        ratings_notes=("left out student S04 (S04.xlsx)",),
        top_k=5,
        perturbation_source="paper_table8",
        classifier_posts=None,
        seed=0,
    )
    _write(tmp_path, "data_summary", ch06.description(own, setup))
    text = WORDS.text("data", ch06.findings(tmp_path, "data"))
    assert text.startswith("3 SMP2020-EWECT Weibo posts")
    assert text.endswith(
        "Human ratings: 11 rated candidates from 2 workbook(s), averaged over the raters of each "
        "candidate (<code>sheets&lt;1&gt;</code>). left out student S04 (S04.xlsx)."
    )


@pytest.mark.slow
def test_the_measurement_script_reproduces_the_committed_ladder(tmp_path):
    """``tools/measure_lm_ladder.py``, as its docstring and the page name it, on one rung (about 5 s
    cold): its record names the command that made it, and its numbers are the committed ones."""
    import subprocess
    import sys

    import yaml

    from helpers.core import paths

    root = paths.project_root()
    done = subprocess.run(
        [sys.executable, str(root / "tools" / "measure_lm_ladder.py"), "--rungs", "kn-2", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    record = yaml.safe_load((tmp_path / "lm_ladder_comparison.yml").read_text(encoding="utf-8"))
    assert record["command"].startswith("python tools/measure_lm_ladder.py --rungs kn-2 --gpt-steps 400")
    got = pd.read_csv(tmp_path / "lm_ladder_comparison.csv").set_index(["rung", "context"])
    committed = ch06.measured_ladder().set_index(["rung", "context"]).loc[got.index]
    for column in ("heldout_perplexity", "pooled_rho", "mean_within_word_rho", "p_within_word", "n"):
        assert got[column].tolist() == pytest.approx(committed[column].tolist()), column


def test_table8_overlap_counts_the_paper_top_five_by_hand(tmp_path, monkeypatch):
    table8 = pd.DataFrame({"word": ["尼玛", "尼玛", "卧槽", "劳资"], "candidate": ["你妈", "泥马", "我操", "老子"]})
    monkeypatch.setattr(ch06_findings, "read_published", lambda study, name: table8)
    top = pd.DataFrame(
        {
            "method": ["percentile"] * 4 + ["self-information"] * 3,
            "context": ["n/a"] * 4 + ["left"] * 3,
            "word": ["尼玛", "尼玛", "卧槽", "特么", "尼玛", "劳资", "劳资"],
            "candidate": ["你妈", "拟麻", "我草", "他妈", "泥马", "老子", "老资"],
        }
    )
    top.to_csv(tmp_path / "top_homophones.csv", index=False)
    pd.DataFrame({"quantity": ["top_k"], "value": [2], "text": [""]}).to_csv(tmp_path / "data_summary.csv", index=False)
    f = ch06.findings(tmp_path, "overlap").set_index(["quantity", "group"])["value"]
    assert f[("paper_top", "")] == 4 and f[("k", "")] == 2
    # percentile: only 你妈 (尼玛) is in the paper's lists (我草 is not 我操) -> 1; self-information: 泥马, 老子 -> 2
    assert f[("hits", "percentile")] == 1 and f[("hits", "self-information (left context)")] == 2
