"""MetaHOPE scoring (helpers.metahope.scoring) and the severity weights, by hand on small sheets."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.metahope import load, scoring, severity


def test_pos_classes():
    assert [scoring.pos_class(t) for t in ["N", "V", "AJ", "AV", "V+AV", "N+N", "n", "vn", "vg", "a", "d", "i", "PR", None]] \
        == ["noun", "verb", "adjective-adverb", "adjective-adverb", "verb", "noun", "noun", "noun", "verb",
            "adjective-adverb", "adjective-adverb", "other", "other", "other"]


def test_normalise_pos_keeps_tag_and_applies_overrides(two_annotators):
    tidy = scoring.normalise_pos(load.load_study(two_annotators), {"i1": "noun"})
    classes = tidy.drop_duplicates("item").set_index("item")[["pos", "pos_class"]]
    assert classes.to_dict("index") == {"i1": {"pos": "V", "pos_class": "noun"},
                                        "i2": {"pos": "AJ", "pos_class": "adjective-adverb"},
                                        "i3": {"pos": "N", "pos_class": "noun"}}
    with pytest.raises(ValueError, match="overrides"):
        scoring.normalise_pos(tidy, {"i1": "idiom"})


def test_error_profile_by_hand(two_annotators):
    prof = scoring.error_profile(load.load_study(two_annotators), by=["system", "annotator"]).set_index(["system", "annotator"])
    b = prof.loc[("GoogleMT", "B")]
    # B on Google: i1 MIS 8 + STL 2, i2 RAM 6, i3 clean -> 16 points, 2 of 3 items with an error
    assert (b["n_items"], b["MIS"], b["STL"], b["RAM"], b["SEGS"]) == (3, 8, 2, 6, 16)
    assert b["items_with_error"] == pytest.approx(200 / 3) and b["mean_penalty"] == pytest.approx(16 / 3)
    assert prof.loc[("GPT-5.4", "A"), "items_with_error"] == pytest.approx(100 / 3)


def test_segment_scores_and_penalty_summary_by_hand(two_annotators):
    study = load.load_study(two_annotators)
    segs = scoring.segment_scores(study)
    b_google = segs[(segs["annotator"] == "B") & (segs["system"] == "GoogleMT")].set_index("item")["SEGS"]
    assert b_google.to_dict() == {"i1": 10, "i2": 6, "i3": 0}  # 8+2, 6, nothing
    summary = scoring.penalty_summary(study[study["annotator"] == "B"])
    google = summary.set_index("system").loc["GoogleMT"]
    # 16 points over 2 distinct sentences and 3 items
    assert (google["MIS"], google["STL"], google["RAM"], google["SEGS"]) == (8, 2, 6, 16)
    assert google["per_sentence"] == pytest.approx(8.0) and google["per_metaphor"] == pytest.approx(16 / 3)
    assert scoring.penalty_summary(study[study["annotator"] == "B"], n_sentences=4).set_index("system").loc[
        "GoogleMT", "per_sentence"] == pytest.approx(4.0)
    with pytest.raises(ValueError, match="one annotator"):
        scoring.penalty_summary(study)


def test_weights_hope_exponential(two_annotators):
    study = severity.apply_weights(load.load_study(two_annotators), "hope")
    segs = scoring.segment_scores(study, value="penalty")
    b = segs[(segs["annotator"] == "B") & (segs["system"] == "GoogleMT")].set_index("item")["SEGS"]
    assert b.to_dict() == {"i1": 8 + 1, "i2": 4, "i3": 0}  # severe 8 -> 8, minor 2 -> 1, major 6 -> 4
    with pytest.raises(ValueError, match="lacks penalties"):
        severity.apply_weights(study, {0: 0, 2: 1})


def test_metaphor_share():
    epm = pd.DataFrame({"system": ["X", "Y"], "SEGS": [3, 0]})
    eps = pd.DataFrame({"system": ["X", "Y"], "SEGS": [4, 5]})
    assert scoring.metaphor_share(epm, eps)["ratio_m_s"].tolist() == [0.75, 0.0]


def _tidy(rows, annotator="A"):
    """Tidy MetaHOPE rows from (sentence, item, category, severity) for one system X."""
    cats = ["IMP", "RAM", "MIS", "STL", "PRF"]
    out = [{"item": item, "sentence": sentence, "system": "X", "annotator": annotator, "category": c,
            "severity": sev if c == cat else 0} for sentence, item, cat, sev in rows for c in cats]
    return pd.DataFrame(out).assign(category=lambda f: pd.Categorical(f["category"], categories=cats))


def test_ratio_m_s_sentence_by_sentence_by_hand():
    from scipy.stats import t

    # s1 holds two metaphors and one PRF error worth 2 attached to both: 2 + 2 = 4 metaphor points against
    # the sentence sheet's 2; s2's metaphor is clean while its sentence has a MIS worth 4
    metaphors = _tidy([("s1", "m1", "PRF", 2), ("s1", "m2", "PRF", 2), ("s2", "m3", "MIS", 0)])
    sentences = _tidy([("s1", "m1", "PRF", 2), ("s2", "m3", "MIS", 4)])
    by_sentence = scoring.penalty_by_sentence(metaphors, sentences)
    prf = by_sentence[by_sentence["category"] == "PRF"].set_index("sentence")
    assert prf["epm"].to_dict() == {"s1": 4, "s2": 0} and prf["eps"].to_dict() == {"s1": 2, "s2": 0}
    assert prf["n_metaphors"].to_dict() == {"s1": 2, "s2": 1}
    out = scoring.ratio_m_s(by_sentence, n_boot=200, seed=1).set_index("category")
    assert out.loc["PRF", ["epm", "eps", "ratio_m_s"]].tolist() == [4, 2, 2.0] and out.loc["PRF", "epm_exceeds_eps"]
    assert out.loc["MIS", "ratio_m_s"] == 0.0 and not out.loc["MIS", "epm_exceeds_eps"]
    assert pd.isna(out.loc["IMP", "ratio_m_s"])  # 0 / 0
    segs = out.loc["SEGS"]
    assert segs["ratio_m_s"] == pytest.approx(4 / 6) and segs["n_sentences"] == 2
    assert (segs["sentences_penalised"], segs["sentences_metaphor_higher"], segs["sentences_sentence_higher"]) == (2, 1, 1)
    # leave out s1: 0/4 = 0, leave out s2: 4/2 = 2; SE_J = sqrt(1/2 · (1 + 1)) = 1, t with 1 df
    half = t.ppf(0.975, 1)
    assert (segs["jackknife_ci_low"], segs["jackknife_ci_high"]) == pytest.approx((4 / 6 - half, 4 / 6 + half))
    # two sentences resampled: (s1, s1) 8/4, (s1, s2) 4/6, (s2, s2) 0/8; the interval's ends are among them
    assert {round(segs["ci_low"], 6), round(segs["ci_high"], 6)} <= {0.0, round(4 / 6, 6), 2.0}
