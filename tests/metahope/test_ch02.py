"""Chapter 2's module (:mod:`helpers.metahope.ch02`): its parameter check, and its findings
recomputed from hand-made result CSVs whose every number is known by hand, rendered by the
chapter's words file (every branch of a sentence)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.core.book.findings import Words
from helpers.core.errors import InputError
from helpers.core.statistics.stats import FEW_CLUSTERS
from helpers.metahope import ch02, corpus
from helpers.metahope.chapter_common import SHARED_WORDS


def _words() -> Words:
    return Words("02_metahope_directions", shared=SHARED_WORDS)


def _save(folder, **tables):
    for name, frame in tables.items():
        frame.to_csv(folder / f"{name}.csv", index=False)


def _comparison(n_clusters=12):
    """``system_comparison.csv`` with one pair of each verdict (difference, suggestive, no evidence)."""
    rows = []
    for pair, verdict, p, holm, width, naive_p in (
        ("a", "difference", 0.01, 0.03, 1.0, 0.01),
        ("b", "suggestive, not significant after Holm", 0.04, 0.08, 2.0, 0.03),
        ("c", "no evidence", 0.5, 0.9, 3.0, 0.04),
    ):
        rows.append(
            {
                "direction": "EN→ZH",
                "annotator": "A",
                "system_a": pair,
                "system_b": "z",
                "n_items": 30,
                "n_clusters": n_clusters,
                "mean_difference": 1.0,
                "ci_low": 0.5,
                "ci_high": 0.5 + width,
                "cluster_t_ci_low": 0.2,
                "cluster_t_ci_high": 1.8,
                "cluster_ci_low": 0.3,
                "cluster_ci_high": 1.7,
                "family_t_ci_low": -0.1,
                "family_t_ci_high": 2.1,
                "family_ci_low": 0.1,
                "family_ci_high": 1.9,
                "p_cluster_permutation": p,
                "p_cluster_holm": holm,
                "verdict": verdict,
                "cluster_mdd_80_adjusted": 2.5 * width,
                "p_permutation": naive_p,
                "t_ci_low": 1.0 - width / 2 - 0.1,
                "t_ci_high": 1.0 + width / 2 + 0.1,
            }
        )
    return pd.DataFrame(rows)


def test_findings_are_recomputed_from_the_saved_tables(tmp_path):
    profile = pd.DataFrame(
        {
            "direction": "EN→ZH",
            "system": ["X", "Y"],
            "annotator": "A",
            "n_items": [10, 10],
            "IMP": [4, 0],
            "MIS": [6, 2],
            "SEGS": [10, 2],
            "items_with_error": [50.0, 10.0],
            "mean_penalty": [1.0, 0.2],
        }
    )
    by_pos = pd.DataFrame(
        {"direction": "EN→ZH", "system": "X", "annotator": "A", "pos_class": ["noun", "verb"], "n_items": [12, 3]}
    )
    team = pd.DataFrame(
        {
            "direction": "EN→ZH",
            "team": "team of 2",
            "system_a": ["X", "X"],
            "system_b": ["Y", "Z"],
            "mean_difference": [0.8, 0.1],
            "cluster_ci_low": [0.2, -0.3],
            "cluster_ci_high": [1.4, 0.5],
            "p_cluster_holm": [0.02, 0.6],
            "verdict": ["difference", "no evidence"],
            "data": "this run",
        }
    )
    _save(
        tmp_path,
        error_profile=profile,
        error_profile_by_pos=by_pos,
        system_comparison=_comparison(),
        team_comparison=team,
    )
    found = ch02.findings(tmp_path)
    assert not found.duplicated(["quantity", "group"]).any()
    q = found[found["group"] == ""].set_index("quantity")
    assert (q.loc["pairs", "value"], q.loc["comparisons", "value"]) == (3, 3)
    assert [q.loc[k, "value"] for k in ("differences", "suggestive", "no_evidence_count")] == [1, 1, 1]
    assert q.loc["mdd_range", ["value", "ci_low", "ci_high"]].tolist() == [2.5, 2.5, 7.5]
    # issue 43: t against t, like with like: cluster t width 1.6 against naive t widths 1.2, 2.2, 3.2
    assert q.loc["widening", ["value", "ci_low", "ci_high"]].tolist() == pytest.approx([1.6 / 2.2, 0.5, 1.6 / 1.2])
    assert q.loc["understated", "value"] == 1 and q.loc["naive_only", "value"] == 1
    flipped = found[found["quantity"].isin(["naive_p", "cluster_p"])].set_index("quantity")
    assert flipped.loc["naive_p", "group"] == "EN→ZH · A · c − z"
    assert (flipped.loc["naive_p", "p"], flipped.loc["cluster_p", "p"]) == (0.04, 0.5)
    assert q.loc["t_widening", "value"] == pytest.approx(2.2 / 1.8)
    assert (q.loc["percentile_exclude", "value"], q.loc["t_exclude", "value"]) == (3, 0)
    assert (q.loc["small_cells", "value"], q.loc["cells", "value"]) == (1, 2)
    assert q.loc["family_level", "value"] == pytest.approx(1 - 0.05 / 3)
    worst = found[found["quantity"] == "worst"].iloc[0]
    assert (worst["text"], worst["value"], worst["with_error"]) == ("X", 1.0, 50.0)
    top = found[found["quantity"] == "top_share"].iloc[0]
    assert (top["text"], top["value"]) == ("MIS", pytest.approx(8 / 12))
    team_rows = found[found["quantity"].isin(["team_pairs", "team_separated", "team_hit"])]
    assert team_rows.set_index("quantity")["value"].to_dict() == {"team_pairs": 2, "team_separated": 1, "team_hit": 0.8}
    text = _words().text("findings", found)
    assert "X has the highest mean penalty per metaphor (1.00) and Y the lowest (0.20); MIS carries 67%" in text
    assert (
        "1 of 3 establish a difference, 1 suggestive but not significant after the correction, 1 without "
        "evidence; with sentences as the units, the smallest reliably detectable difference is 2.5 to 7.5" in text
    )
    assert "does not understate" not in text and "1 of 2 cells of the part-of-speech profile" in text
    assert (
        "the sentence-cluster t interval is 0.50 to 1.33 times as wide as the naive one (median 0.73), wider in "
        "1 of 3 comparisons, so the naive reading understates the uncertainty there" in text
    )
    assert "EN→ZH · A · c − z: metaphors as independent p = 0.040, whole sentences p = 0.500" in text
    assert "separate 1 of 2 system pairs after Holm" in text and "EN→ZH · X − Y: +0.80 points" in text
    assert "this run, EN→ZH (team of 2): X − Z = +0.10" in _words().text("team", found)


def test_comparison_summary_gives_each_verdict_its_sentence(tmp_path):
    _save(tmp_path, system_comparison=_comparison())
    found = ch02.findings(tmp_path)
    text = _words().text("comparison", found)
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(lines) == 3 and "simultaneous 98.3%" in lines[0]
    assert lines[0].endswith("a difference (cluster p = 0.010, Holm p = 0.030).")
    assert "suggestive, not significant after Holm over 3 pairs (cluster p = 0.040, Holm p = 0.080)" in lines[1]
    assert (
        "no evidence of a difference (cluster p = 0.500); with 12 sentences only differences of about 7.5" in lines[2]
    )
    # every simultaneous percentile interval excludes 0 where the t interval does not
    assert "The simultaneous percentile interval excludes 0 where the t interval does not for EN→ZH A a − z" in text
    assert _words().text("few_clusters", found).startswith("> **Few clusters: G = 12 sentences.**")
    _save(tmp_path, system_comparison=_comparison(n_clusters=FEW_CLUSTERS))
    assert _words().text("few_clusters", ch02.findings(tmp_path)) == ""


def test_types_words_name_misses_and_say_what_one_sentence_cannot_show(tmp_path):
    types = pd.DataFrame(
        {
            "direction": ["EN→ZH", "EN→ZH"],
            "item": ["d_1_1", "d_1_2"],
            "metaphor": ["a", "b"],
            "matched": [True, False],
            "note": ["", "word not found in the sentence"],
            "id_agrees": [False, None],
        }
    )
    by_type = pd.DataFrame(
        [
            (
                "ZH→EN",
                "conventional",
                "conventional",
                "other subtypes",
                "penalty",
                10,
                5,
                8,
                4,
                3.0,
                4.0,
                -1.0,
                -3.0,
                1.0,
                0.0,
                2.5,
                10,
            ),
            (
                "EN→ZH",
                "deliberate",
                "deliberate",
                "not deliberate",
                "error_rate",
                3,
                60,
                1,
                20,
                0.5,
                0.2,
                0.3,
                np.nan,
                np.nan,
                0.3,
                np.nan,
                19,
            ),
        ],
        columns=corpus.COMPARISON_COLUMNS,
    )
    _save(tmp_path, metaphor_types=types, type_comparison=by_type)
    text = _words().text("types", ch02.findings(tmp_path))
    assert "EN→ZH: 1 of 2 annotated metaphors found their corpus row" in text
    assert "for 1 of them the word index in the item id names another word" in text
    assert "not found: b (d_1_2: word not found in the sentence)" in text
    assert (
        "**ZH→EN, mean penalty per metaphor**, conventional (10 metaphors in 8 sentences) vs other subtypes "
        "(5 in 4 sentences): difference -1.0, 95% interval by sentence [-3.0, +1.0]; a difference would need to "
        "be about 2.5"
    ) in text
    assert (
        "**EN→ZH, share of ratings with an error**, deliberate (3 metaphors in 1 sentence) vs not deliberate "
        "(60 in 20 sentences): difference +30.0 points, with no interval"
    ) in text
    assert "None of the 1 intervals excludes 0" in text and "No type contrast" not in text
    _save(tmp_path, type_comparison=pd.DataFrame(columns=corpus.COMPARISON_COLUMNS))
    quiet = _words().text("types", ch02.findings(tmp_path))
    assert "No type contrast has metaphors on both sides" in quiet and "intervals" not in quiet


def test_setup_checks_the_pos_overrides():
    with pytest.raises(InputError, match=r"parameter 'pos_overrides'.*must be a mapping"):
        ch02.setup(pos_overrides=["x"])
    with pytest.raises(InputError, match=r"parameter 'pos_overrides': value 'adverb'.*noun or verb"):
        ch02.setup(pos_overrides={"i1": "adverb"})
    setup = ch02.setup(pos_overrides={"i1": "verb"})
    assert setup.released and setup.pos_overrides == {"i1": "verb"}


def test_the_released_pilots_load_into_one_box_with_their_description():
    setup = ch02.setup()
    box = setup.load()
    assert box.provenance.kind == "released"
    summary = ch02.description(box, setup).set_index("direction")
    assert summary.loc["EN→ZH", ["annotators", "items", "sentences"]].tolist() == ["A, B", 65, 21]
    assert summary.loc["ZH→EN", ["annotators", "items", "sentences"]].tolist() == ["ZH1", 32, 20]


def test_every_section_renders_before_its_tables_are_saved(tmp_path):
    # the page says its sections as the run saves its tables: each finds all its quantities, not yet applicable
    found = ch02.findings(tmp_path)
    for section in ("profile", "few_clusters", "comparison", "team", "types", "findings"):
        assert "NA" not in _words().text(section, found)


def test_nothing_is_stated_without_result_files(tmp_path):
    """An empty folder: every quantity is there and none applies (no threshold, no "no contrast"); a
    type comparison saved without rows does say that no contrast was possible."""
    found = ch02.findings(tmp_path)
    assert {"few_clusters", "unit", "excluding", "with_interval", "no_contrast"} <= set(found["quantity"])
    assert found["value"].isna().all() and (found["text"] == "").all()
    _save(tmp_path, type_comparison=pd.DataFrame(columns=corpus.COMPARISON_COLUMNS))
    found = ch02.findings(tmp_path).set_index("quantity")
    assert found.loc["no_contrast", "value"] == 1 and found.loc["excluding", "value"] == 0
    assert found.loc["with_interval", "value"] == 0 and pd.isna(found.loc["type_difference", "value"])
