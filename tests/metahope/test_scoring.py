"""MetaHOPE scoring (helpers.metahope.scoring), by hand on small sheets, and its pinned cases
(issue 21) on tidy frames built in memory."""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pytest

from helpers.core.statistics import agreement as ag
from helpers.metahope import load, scoring, severity
from helpers.metahope.tidy_frame import CATEGORIES

from .tidy_cases import GIVEN, ITEMS, tidy
from .wmt_file import SEGS, wmt


def test_pos_classes():
    assert [
        scoring.pos_class(t) for t in ["N", "V", "AJ", "AV", "V+AV", "N+N", "n", "vn", "vg", "a", "d", "i", "PR", None]
    ] == [
        "noun",
        "verb",
        "adjective-adverb",
        "adjective-adverb",
        "verb",
        "noun",
        "noun",
        "noun",
        "verb",
        "adjective-adverb",
        "adjective-adverb",
        "other",
        "other",
        "other",
    ]


def test_normalise_pos_keeps_tag_and_applies_overrides(two_annotators):
    tidy = scoring.normalise_pos(load.load_study(two_annotators), {"i1": "noun"})
    classes = tidy.drop_duplicates("item").set_index("item")[["pos", "pos_class"]]
    assert classes.to_dict("index") == {
        "i1": {"pos": "V", "pos_class": "noun"},
        "i2": {"pos": "AJ", "pos_class": "adjective-adverb"},
        "i3": {"pos": "N", "pos_class": "noun"},
    }
    with pytest.raises(ValueError, match="overrides"):
        scoring.normalise_pos(tidy, {"i1": "idiom"})


def test_error_profile_by_hand(two_annotators):
    prof = scoring.error_profile(load.load_study(two_annotators), by=["system", "annotator"]).set_index(
        ["system", "annotator"]
    )
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
        "GoogleMT", "per_sentence"
    ] == pytest.approx(4.0)
    with pytest.raises(ValueError, match="one annotator"):
        scoring.penalty_summary(study)


def test_metaphor_share():
    epm = pd.DataFrame({"system": ["X", "Y"], "SEGS": [3, 0]})
    eps = pd.DataFrame({"system": ["X", "Y"], "SEGS": [4, 5]})
    assert scoring.metaphor_share(epm, eps)["ratio_m_s"].tolist() == [0.75, 0.0]


def _tidy(rows, annotator="A"):
    """Tidy MetaHOPE rows from (sentence, item, category, severity) for one system X."""
    cats = ["IMP", "RAM", "MIS", "STL", "PRF"]
    out = [
        {
            "item": item,
            "sentence": sentence,
            "system": "X",
            "annotator": annotator,
            "category": c,
            "severity": sev if c == cat else 0,
        }
        for sentence, item, cat, sev in rows
        for c in cats
    ]
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
    assert (segs["sentences_penalised"], segs["sentences_metaphor_higher"], segs["sentences_sentence_higher"]) == (
        2,
        1,
        1,
    )
    # leave out s1: 0/4 = 0, leave out s2: 4/2 = 2; SE_J = sqrt(1/2 · (1 + 1)) = 1, t with 1 df
    half = t.ppf(0.975, 1)
    assert (segs["jackknife_ci_low"], segs["jackknife_ci_high"]) == pytest.approx((4 / 6 - half, 4 / 6 + half))
    # two sentences resampled: (s1, s1) 8/4, (s1, s2) 4/6, (s2, s2) 0/8; the interval's ends are among them
    assert {round(segs["ci_low"], 6), round(segs["ci_high"], 6)} <= {0.0, round(4 / 6, 6), 2.0}


def test_unrated_units_are_missing_in_the_segment_scores_never_zero(wmt):
    segs = scoring.segment_scores(load.load_class(str(wmt)).tidy)
    assert len(segs) == 9
    wide = ag.rating_matrix(segs, "SEGS").reindex(index=["d1|1", "d1|2", "d2|1", "d2|2"], columns=list("ABC"))
    expected = pd.DataFrame(SEGS, index=wide.index)
    pd.testing.assert_frame_equal(wide, expected, check_names=False, check_dtype=False)


def test_agreement_with_missing_raters_uses_the_units_each_pair_shares(wmt):
    segs = scoring.segment_scores(load.load_class(str(wmt)).tidy)
    got = ag.agreement(segs, by="system", value="SEGS").iloc[0]
    # By hand. κ on the positions of the observed values 0, 2, 4, 6 (0, 1, 2, 3):
    #   A–B share seg1, seg2: (0, 1) vs (0, 1), identical: κ = 1;
    #   A–C share seg2, seg3: (1, 3) vs (2, 3): mean (x−y)² = 0.5, var x = 1, var y = 0.25, (x̄−ȳ)² = 0.25,
    #   κ = 1 − 0.5/1.5 = 2/3; B–C share seg2, seg4: the same values, κ = 2/3. Mean 7/9.
    assert got["weighted_kappa"] == pytest.approx(7 / 9)
    # r is 1 on each pair's two shared units
    assert got["pearson_r"] == pytest.approx(1.0)
    # all four segments have ≥ 2 ratings; every rater agrees on seg1, seg3, seg4, not on seg2 (2, 2, 4)
    assert got["n_items"] == 4 and got["exact_agreement"] == 75.0 and got["presence_agreement"] == 100.0
    # α against the reference implementation on the raters × units array with the gaps
    ref = krippendorff.alpha(reliability_data=np.array([SEGS[r] for r in "ABC"]), level_of_measurement="interval")
    assert got["alpha"] == pytest.approx(ref)


def test_segment_scores_eq1_by_hand():
    s = scoring.segment_scores(tidy())
    assert list(s.columns) == [
        "item",
        "position",
        "sentence",
        "metaphor",
        "pos",
        "system",
        "annotator",
        *CATEGORIES,
        "SEGS",
    ]
    assert s[["system", "item", "SEGS"]].values.tolist() == [
        ["Y", "i1", 4],
        ["Y", "i2", 0],
        ["Y", "i3", 8],
        ["X", "i1", 10],
        ["X", "i2", 2],
        ["X", "i3", 4],
    ]
    assert s.loc[2, list(CATEGORIES)].tolist() == [0, 0, 0, 6, 2]
    assert s.index.tolist() == list(range(6)) and s.columns.name is None
    weighted = scoring.segment_scores(severity.apply_weights(tidy(), "hope"), value="penalty")
    assert weighted["SEGS"].tolist() == [2, 0, 5, 16, 1, 2]


def test_segment_scores_of_sparse_and_repeated_categories():
    # a foreign MQM frame: only the categories marked, two MIS errors in one unit; annotators a, b
    cats = pd.Categorical(["MIS", "MIS", "STL", "MIS"], categories=list(CATEGORIES))
    t = pd.DataFrame(
        {
            "item": ["i2", "i2", "i1", "i1"],
            "position": [1, 1, 0, 0],
            "sentence": "s",
            "metaphor": "m",
            "pos": "N",
            "system": "X",
            "annotator": ["b", "b", "b", "a"],
            "category": cats,
            "severity": [2, 4, 6, 2],
        }
    )
    s = scoring.segment_scores(t)
    assert s[["annotator", "item"]].values.tolist() == [["a", "i1"], ["b", "i1"], ["b", "i2"]]
    assert s[list(CATEGORIES)].values.tolist() == [[0, 0, 2, 0, 0], [0, 0, 0, 6, 0], [0, 0, 6, 0, 0]]
    assert s["SEGS"].tolist() == [2, 6, 6]
    p = scoring.error_profile(t, by=["system"])
    assert p[list(CATEGORIES)].values.tolist() == [[0, 0, 8, 6, 0]] and p.columns.name is None
    assert p[["n_items", "SEGS"]].values.tolist() == [[2, 14]]
    per_item = scoring.error_profile(t, by="item")
    assert per_item[["item", "n_items", "SEGS"]].values.tolist() == [["i2", 1, 6], ["i1", 1, 8]]


def test_penalty_summary_tables_2_and_3_by_hand():
    p = scoring.penalty_summary(tidy())
    assert p["system"].tolist() == ["Y", "X"]
    assert p[list(CATEGORIES)].values.tolist() == [[0, 0, 4, 6, 2], [10, 2, 4, 0, 0]]
    assert p["SEGS"].tolist() == [12, 16]
    assert p["per_sentence"].tolist() == [6.0, 8.0]  # two sentences
    assert p["per_metaphor"].tolist() == pytest.approx([4.0, 16 / 3])  # three MRW items
    assert scoring.penalty_summary(tidy(), n_sentences=4)["per_sentence"].tolist() == [3.0, 4.0]
    assert scoring.count_sentences(tidy()) == 2
    hope = scoring.penalty_summary(severity.apply_weights(tidy(), "hope"), value="penalty")
    assert hope["SEGS"].tolist() == [7, 19]  # Y 2 + 4 + 1; X 16 + 1 + 2
    both = pd.concat([tidy(), tidy(annotator="b")])
    with pytest.raises(ValueError, match=r"one annotator's sheet; got \['a', 'b'\]"):
        scoring.penalty_summary(both)


def test_metaphor_share_is_epm_over_eps():
    epm = pd.DataFrame({"system": ["Y", "X"], "SEGS": [12, 16]})
    eps = pd.DataFrame({"system": ["X", "Y"], "SEGS": [32, 48]})
    out = scoring.metaphor_share(epm, eps)
    assert out["ratio_m_s"].tolist() == [0.25, 0.5]
    assert "ratio_m_s" not in epm.columns


def test_paired_segments_one_column_per_annotator():
    other = dict(GIVEN) | {("Y", "i2", "IMP"): 2}
    both = pd.concat([tidy(), tidy(other, "b")], ignore_index=True)
    w = scoring.paired_segments(both)
    assert list(w.columns) == ["system", "position", "item", "metaphor", "pos", "sentence", "a", "b"]
    assert w[["system", "item", "a", "b"]].values.tolist() == [
        ["Y", "i1", 4, 4],
        ["Y", "i2", 0, 2],
        ["Y", "i3", 8, 8],
        ["X", "i1", 10, 10],
        ["X", "i2", 2, 2],
        ["X", "i3", 4, 4],
    ]
    hope = scoring.paired_segments(severity.apply_weights(both, "hope"), value="penalty")
    assert hope["a"].tolist() == [2, 0, 5, 16, 1, 2] and hope["b"].tolist() == [2, 1, 5, 16, 1, 2]


@pytest.mark.parametrize(
    "tag, cls",
    [
        ("V+AV", "verb"),
        ("N+N", "noun"),
        (" AJ ", "adjective-adverb"),
        ("vn", "noun"),
        ("d", "adjective-adverb"),
        ("i", "other"),
        ("XYZ+N", "other"),
        (None, "other"),
        ("  ", "other"),
        (float("nan"), "other"),
    ],
)
def test_pos_class(tag, cls):
    assert scoring.pos_class(tag) == cls


def test_pos_classes_cover_the_three_classes():
    assert set(scoring.POS_CLASSES.values()) == {"noun", "verb", "adjective-adverb"}
    assert [scoring.POS_CLASSES[t] for t in ("N", "V", "AJ", "AV")] == ["noun", "verb"] + ["adjective-adverb"] * 2


def test_normalise_pos_with_an_override():
    out = scoring.normalise_pos(tidy(), {"i2": "verb"})
    by_item = out.drop_duplicates("item").set_index("item")["pos_class"].to_dict()
    assert by_item == {"i1": "verb", "i2": "verb", "i3": "noun"}
    assert scoring.normalise_pos(tidy()).drop_duplicates("item")["pos_class"].tolist() == [
        "verb",
        "adjective-adverb",
        "noun",
    ]
    assert "pos_class" not in tidy().columns
    with pytest.raises(
        ValueError,
        match=r"must be one of \['adjective-adverb', 'noun', 'other', 'verb'\]; "
        r"got \{'i1': 'Verb'\}",
    ):
        scoring.normalise_pos(tidy(), {"i1": "Verb", "i2": "noun"})


def test_error_profile_by_hand_every_column():
    p = scoring.error_profile(tidy(), by="system")
    assert list(p.columns) == ["system", "n_items", *CATEGORIES, "SEGS", "items_with_error", "mean_penalty"]
    assert p["system"].tolist() == ["Y", "X"]
    assert p["n_items"].tolist() == [3, 3]
    assert p[list(CATEGORIES)].values.tolist() == [[0, 0, 4, 6, 2], [10, 2, 4, 0, 0]]
    assert p["items_with_error"].tolist() == pytest.approx([200 / 3, 100.0])  # Y: i1 and i3 of three
    assert p["mean_penalty"].tolist() == pytest.approx([4.0, 16 / 3])
    assert scoring.profile_categories(p) == list(CATEGORIES)
    # under HOPE weights X's i2 (RAM minor) has SEGS 1: still an item with an error
    hope = scoring.error_profile(severity.apply_weights(tidy(), "hope"), by="system", value="penalty")
    assert hope["items_with_error"].tolist() == pytest.approx([200 / 3, 100.0])
    assert hope["SEGS"].tolist() == [7, 19]
    # a system nobody rated (an unused category) has no row, not a row of zeros
    cat = tidy().assign(system=lambda f: pd.Categorical(f["system"], categories=["Y", "X", "unused"]))
    assert scoring.error_profile(cat, by="system")["system"].tolist() == ["Y", "X"]
    assert scoring.segment_scores(cat)["system"].tolist() == ["Y"] * 3 + ["X"] * 3
    two = scoring.error_profile(pd.concat([tidy(), tidy(annotator="b")], ignore_index=True))
    assert two[["system", "annotator", "SEGS"]].values.tolist() == [
        ["Y", "a", 12],
        ["Y", "b", 12],
        ["X", "a", 16],
        ["X", "b", 16],
    ]


def test_disagreement_anatomy_by_hand():
    # annotators listed c, a, b (not sorted); b's STL 1 is a HOPE-weighted minor error (penalty 1)
    # one row per (annotator, category) of the categories used; RAM and PRF nobody wrote down
    ex = pd.DataFrame(
        {"annotator": list("cccaaabbb"), "category": ["IMP", "MIS", "STL"] * 3, "severity": [0, 0, 0, 0, 4, 0, 0, 2, 1]}
    )
    out = scoring.disagreement_anatomy(ex)
    s = out.scores
    assert s["annotator"].tolist() == ["c", "a", "b"]
    assert list(s.columns) == ["annotator", *CATEGORIES, "total", "detected"]
    assert s[list(CATEGORIES)].values.tolist() == [[0, 0, 0, 0, 0], [0, 0, 4, 0, 0], [0, 0, 2, 1, 0]]
    assert s["total"].tolist() == [0, 4, 3]
    assert s["detected"].tolist() == [False, True, True]
    pw = out.pairwise
    assert list(pw.columns) == [(m, n) for m in ("total_difference", "categories_disagreeing") for n in "cab"]
    assert pw.index.tolist() == ["c", "a", "b"]
    assert pw["total_difference"].values.tolist() == [[0, 4, 3], [4, 0, 1], [3, 1, 0]]
    assert pw["categories_disagreeing"].values.tolist() == [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    c = out.categories.set_index("category")
    assert c["annotators_using_it"].to_dict() == {"IMP": 0, "RAM": 0, "MIS": 2, "STL": 1, "PRF": 0}
    assert c["severities_given"].to_dict() == {"IMP": "", "RAM": "", "MIS": "a=4, b=2", "STL": "b=1", "PRF": ""}


def test_pilot_layouts_select_and_rename():
    ag = pd.DataFrame(
        {
            "system": ["X"],
            "n_items": [3],
            "n_raters": [2],
            "alpha": [0.5],
            "weighted_kappa": [0.4],
            "pearson_r": [0.3],
            "exact_agreement": [0.2],
            "presence_agreement": [0.1],
            "total_a": [7],
            "extra": [1],
        }
    )
    v1 = scoring.pilot_v1_layout(ag, ["system"])
    assert list(v1.columns) == ["system", "alpha", "weighted_kappa", "pearson_r", "exact_agreement", "total_a"]
    v2 = scoring.pilot_v2_layout(ag, ["system"])
    assert v2.iloc[0].to_dict() == {
        "system": "X",
        "n_items": 3,
        "n_raters": 2,
        "ordinal_alpha": 0.5,
        "mean_weighted_kappa": 0.4,
        "exact_score_agreement": 0.2,
        "exact_presence_agreement": 0.1,
    }


def _units(severities, annotators=("a", "b", "c")):
    items = [f"i{k + 1}" for k in range(len(severities))]
    rows = [
        {
            "item": item,
            "position": k,
            "sentence": "s",
            "metaphor": f"m{k + 1}",
            "pos": "N",
            "system": "X",
            "annotator": a,
            "category": "MIS",
            "severity": sev,
        }
        for k, (item, sevs) in enumerate(zip(items, severities))
        for a, sev in zip(annotators, sevs)
    ]
    return pd.DataFrame(rows)


def test_disputed_items_ranking_by_hand():
    # the docstring's example: ranges 8 and 2
    d = scoring.disputed_items(_units([(0, 8, 2), (2, 2, 4)]))
    assert d[["item", "range", "flagged", "a", "b", "c"]].values.tolist() == [
        ["i1", 8, "2 of 3", 0, 8, 2],
        ["i2", 2, "3 of 3", 2, 2, 4],
    ]
    assert d["sd"].tolist() == pytest.approx([np.std([0, 8, 2], ddof=1), np.std([2, 2, 4], ddof=1)])
    assert list(d.columns) == ["item", "system", "metaphor", "sentence", "range", "sd", "flagged", "a", "b", "c"]
    assert d.columns.name is None
    # equal ranges: the split team (flagged share nearest 1/2) first; then the larger SD
    tie = scoring.disputed_items(
        _units([(4, 4, 8), (0, 0, 4), (0, 4, 4, 4), (4, 8, 6)], annotators=("a", "b", "c", "d"))
    )
    # i3 has 4 annotators; i1: 3 of 3 flagged, i2: 1 of 3, i3: 3 of 4, i4: 3 of 3;
    # i1 and i4 tie on range and split: SD of (4, 4, 8) = 2.31 > SD of (4, 8, 6) = 2
    assert tie["item"].tolist() == ["i2", "i3", "i1", "i4"]
    assert tie["flagged"].tolist() == ["1 of 3", "3 of 4", "3 of 3", "3 of 3"]
    assert scoring.disputed_items(_units([(0, 8, 2), (2, 2, 4), (0, 0, 2)]), top=2)["item"].tolist() == ["i1", "i3"]
    assert len(scoring.disputed_items(_units([(0, 2, 4)] * 6))) == 5  # five by default
    # same range 4: 2 of 3 flagged (share 0.67, 0.17 from a half) before 1 of 4 (0.25 from a half)
    split = scoring.disputed_items(_units([(0, 0, 0, 4), (0, 4, 4)], annotators=("a", "b", "c", "d")))
    assert split["item"].tolist() == ["i2", "i1"]
    # an SEGS of 1 (a HOPE minor penalty) is an error seen
    assert scoring.disputed_items(_units([(0, 1, 1)]))["flagged"].tolist() == ["2 of 3"]


def test_disputed_items_ties_keep_the_order_of_appearance():
    t = _units([(0, 4, 2), (0, 4, 2)])
    t["item"] = t["item"].map({"i1": "zz", "i2": "aa"})
    assert scoring.disputed_items(t)["item"].tolist() == ["zz", "aa"]


def test_team_scores_mean_over_annotators():
    s = pd.DataFrame(
        {
            "direction": ["EN→ZH"] * 4 + ["ZH→EN"] * 3,
            "item": ["i2"] * 4 + ["j1"] * 3,
            "sentence": "s",
            "system": ["X", "X", "Y", "Y", "X", "X", "X"],
            "annotator": ["a", "b", "a", "b", "a", "b", "c"],
            "SEGS": [2, 6, 0, 1, 3, 6, 9],
        }
    )
    s = pd.concat(
        [
            s,
            pd.DataFrame(
                {
                    "direction": ["EN→ZH"] * 2,
                    "item": ["i1"] * 2,
                    "sentence": "s",
                    "system": ["Y", "Y"],
                    "annotator": ["a", "b"],
                    "SEGS": [4, 4],
                }
            ),
        ],
        ignore_index=True,
    )
    out = scoring.team_scores(s)
    # in order of appearance (not sorted: i2 before i1, ZH→EN last)
    assert out[["direction", "item", "system", "annotator", "SEGS"]].values.tolist() == [
        ["EN→ZH", "i2", "X", "team of 2", 4.0],
        ["EN→ZH", "i2", "Y", "team of 2", 0.5],
        ["ZH→EN", "j1", "X", "team of 3", 6.0],
        ["EN→ZH", "i1", "Y", "team of 2", 4.0],
    ]
    assert list(out.columns) == ["direction", "item", "sentence", "system", "SEGS", "annotator"]
    pooled = scoring.team_scores(s, by=())
    assert pooled["annotator"].tolist() == ["team of 3"] * 4
    cat = s.assign(direction=pd.Categorical(s["direction"], categories=["EN→ZH", "ZH→EN", "unused"]))
    assert len(scoring.team_scores(cat)) == 4  # an unused direction adds no rows


def test_pos_classes_whole_against_the_tag_sets():
    # VUAMC's word classes (N noun, V verb, AJ adjective, AV adverb) and the PKU tag set of PSUCMC, each tag
    # by its PKU meaning: n 名词, ng 名语素, nr 人名, ns 地名, nt 机构团体, nz 其他专名, vn 名动词, an 名形词,
    # f 方位词, s 处所词, t 时间词, j 简称略语 (nominal); v 动词, vg 动语素, vd 副动词, vi 不及物动词,
    # vl 动词性惯用语, vx 形式动词 (verbal); a 形容词, ag 形语素, ad 副形词, d 副词, dg 副语素, b 区别词,
    # z 状态词 (adjectival or adverbial)
    noun = "n ng nr ns nt nz vn an f s t j N".split()
    verb = "v vg vd vi vl vx V".split()
    modifier = "a ag ad d dg b z AJ AV".split()
    expected = {
        **dict.fromkeys(noun, "noun"),
        **dict.fromkeys(verb, "verb"),
        **dict.fromkeys(modifier, "adjective-adverb"),
    }
    assert scoring.POS_CLASSES == expected


@pytest.mark.parametrize("categorical", [False, True])
def test_disagreement_anatomy_of_categories_not_written_down(categorical):
    # b wrote only MIS 1 (no IMP row): an unwritten category is 0, whether or not the column is
    # categorical, and b's total of 1 is a detected error
    ex = pd.DataFrame(
        {"annotator": list("ccaab"), "category": ["IMP", "MIS", "IMP", "MIS", "MIS"], "severity": [0, 2, 0, 4, 1]}
    )
    if categorical:
        ex["category"] = pd.Categorical(ex["category"], categories=list(CATEGORIES))
    s = scoring.disagreement_anatomy(ex).scores
    assert s["annotator"].tolist() == ["c", "a", "b"]
    assert s[list(CATEGORIES)].values.tolist() == [[0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 1, 0, 0]]
    assert (s[list(CATEGORIES)].dtypes == "int64").all()
    assert s["total"].tolist() == [2, 4, 1] and s["detected"].tolist() == [True, True, True]


def test_disagreement_anatomy_has_no_row_for_an_annotator_of_another_item():
    # a categorical annotator column (the class's whole list) with d absent from this example
    ex = pd.DataFrame(
        {
            "annotator": pd.Categorical(list("aabb"), categories=list("abd")),
            "category": ["MIS", "STL"] * 2,
            "severity": [4, 0, 0, 2],
        }
    )
    out = scoring.disagreement_anatomy(ex)
    assert out.scores["annotator"].tolist() == ["a", "b"]
    assert out.categories.set_index("category")["annotators_using_it"].to_dict() == {
        "IMP": 0,
        "RAM": 0,
        "MIS": 1,
        "STL": 1,
        "PRF": 0,
    }


def test_error_profile_of_a_sparse_frame_keeps_integer_sums():
    # one row per error written (and an IMP 0 where an item has none), categories as plain strings:
    #   Y: i1 MIS 4 | i2 none | i3 MIS 2      X: i1 IMP 10 | i2 RAM 2 | i3 MIS 4      STL, PRF unused
    rows = [
        ("Y", "i1", "IMP", 0),
        ("Y", "i1", "MIS", 4),
        ("Y", "i2", "IMP", 0),
        ("Y", "i3", "IMP", 0),
        ("Y", "i3", "MIS", 2),
        ("X", "i1", "IMP", 10),
        ("X", "i2", "RAM", 2),
        ("X", "i3", "MIS", 4),
    ]
    sparse = pd.DataFrame(
        [
            {
                "item": i,
                "position": ITEMS[i][0],
                "sentence": ITEMS[i][1],
                "metaphor": ITEMS[i][2],
                "pos": ITEMS[i][3],
                "system": s,
                "annotator": "a",
                "category": c,
                "severity": v,
            }
            for s, i, c, v in rows
        ]
    )
    p = scoring.error_profile(sparse, by="system")
    assert list(p.columns) == ["system", "n_items", *CATEGORIES, "SEGS", "items_with_error", "mean_penalty"]
    assert p[["system", "n_items", *CATEGORIES, "SEGS"]].values.tolist() == [
        ["Y", 3, 0, 0, 6, 0, 0, 6],
        ["X", 3, 10, 2, 4, 0, 0, 16],
    ]
    assert (p[[*CATEGORIES, "SEGS"]].dtypes == "int64").all()
    assert p["items_with_error"].tolist() == pytest.approx([200 / 3, 100.0])
    assert p["mean_penalty"].tolist() == pytest.approx([2.0, 16 / 3])


def test_paired_segments_columns_have_no_name():
    w = scoring.paired_segments(tidy())
    assert w.columns.name is None and list(w.columns)[-1] == "a"


def test_metaphor_excess_names_the_cause_of_each_sentence():
    # s1: one PRF error worth 2 entered on two metaphors, sentence 2 (several metaphors);
    # s2: one metaphor RAM 4, the sentence sheet no RAM (unscored); s3: one metaphor MIS 6, sentence MIS 2 (higher);
    # s4: one metaphor MIS 2, sentence MIS 4 (the sentence carries more: not listed)
    metaphors = _tidy(
        [
            ("s1", "m1", "PRF", 2),
            ("s1", "m2", "PRF", 2),
            ("s2", "m3", "RAM", 4),
            ("s2", "m4", "RAM", 0),
            ("s3", "m5", "MIS", 6),
            ("s4", "m6", "MIS", 2),
        ]
    )
    sentences = _tidy([("s1", "m1", "PRF", 2), ("s2", "m3", "IMP", 2), ("s3", "m5", "MIS", 2), ("s4", "m6", "MIS", 4)])
    by_sentence = scoring.penalty_by_sentence(metaphors, sentences)
    out = scoring.metaphor_excess(by_sentence).set_index("sentence")
    assert out["cause"].to_dict() == {"s1": "several_metaphors", "s2": "sentence_unscored", "s3": "scored_higher"}
    assert out["excess"].to_dict() == {"s1": 2, "s2": 4, "s3": 4}
    assert out["metaphors_penalised"].to_dict() == {"s1": 2, "s2": 1, "s3": 1}
    assert out["category"].to_dict() == {"s1": "PRF", "s2": "RAM", "s3": "MIS"}
