"""MetaHOPE scoring pinned on a small tidy frame whose every number is worked out by hand
(issue 21): SEGS (paper Eq. 1), the Tables 2/3 totals, the weighting tables whole, error profiles,
the anatomy of a disagreement and the team's disputed units."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.metahope import scoring, severity
from helpers.metahope.tidy_frame import CATEGORIES

# Annotator a, systems in workbook order Y then X, items i1 and i2 in sentence s1, i3 in s2:
#   Y: i1 MIS 4 | i2 none       | i3 STL 6 + PRF 2   -> SEGS 4, 0, 8  (total 12)
#   X: i1 IMP 10 | i2 RAM 2     | i3 MIS 4           -> SEGS 10, 2, 4 (total 16)
GIVEN = {("Y", "i1", "MIS"): 4, ("Y", "i3", "STL"): 6, ("Y", "i3", "PRF"): 2,
         ("X", "i1", "IMP"): 10, ("X", "i2", "RAM"): 2, ("X", "i3", "MIS"): 4}
ITEMS = {"i1": (0, "s1", "grasp", "V"), "i2": (1, "s1", "deep", "AJ"), "i3": (2, "s2", "bridge", "N")}


def tidy(given=GIVEN, annotator="a") -> pd.DataFrame:
    rows = [{"item": item, "position": pos, "sentence": sent, "metaphor": word, "pos": tag, "system": system,
             "annotator": annotator, "category": cat, "severity": given.get((system, item, cat), 0)}
            for system in ("Y", "X") for item, (pos, sent, word, tag) in ITEMS.items() for cat in CATEGORIES]
    out = pd.DataFrame(rows)
    out["category"] = pd.Categorical(out["category"], categories=list(CATEGORIES))
    return out


def test_weight_tables_whole():
    # Liang & Han 2026 §3: the level is the penalty; Gladkoff & Han 2022: 1, 2, 4, 8, 16
    assert severity.WEIGHTS["metahope"] == {0: 0, 2: 2, 4: 4, 6: 6, 8: 8, 10: 10}
    assert severity.WEIGHTS["hope"] == {0: 0, 2: 1, 4: 2, 6: 4, 8: 8, 10: 16}
    # WEIGHTS is filled at import; read the schemes again the way it does
    assert severity._level_weights("hope") == {0: 0, 2: 1, 4: 2, 6: 4, 8: 8, 10: 16}
    assert severity._level_weights("metahope") == {0: 0, 2: 2, 4: 4, 6: 6, 8: 8, 10: 10}


def test_apply_weights_hope_and_custom():
    t = severity.apply_weights(tidy(), "hope")
    got = t[t["severity"] > 0].set_index(["system", "item", "category"])["penalty"].to_dict()
    assert got == {("Y", "i1", "MIS"): 2.0, ("Y", "i3", "STL"): 4.0, ("Y", "i3", "PRF"): 1.0,
                   ("X", "i1", "IMP"): 16.0, ("X", "i2", "RAM"): 1.0, ("X", "i3", "MIS"): 2.0}
    assert t["penalty"].dtype == float and set(t["scheme"]) == {"hope"}
    custom = severity.apply_weights(tidy(), {lvl: lvl * 10 for lvl in (0, 2, 4, 6, 8, 10)})
    assert custom["penalty"].sum() == 280.0 and set(custom["scheme"]) == {"custom"}
    assert severity.apply_weights(tidy())["penalty"].sum() == 28.0  # metahope by default
    with pytest.raises(ValueError, match=r"lacks penalties for severity levels \[8, 10\]"):
        severity.apply_weights(tidy(), {0: 0, 2: 1, 4: 2, 6: 3})


def test_segment_scores_eq1_by_hand():
    s = scoring.segment_scores(tidy())
    assert list(s.columns) == ["item", "position", "sentence", "metaphor", "pos", "system", "annotator",
                               *CATEGORIES, "SEGS"]
    assert s[["system", "item", "SEGS"]].values.tolist() == [
        ["Y", "i1", 4], ["Y", "i2", 0], ["Y", "i3", 8], ["X", "i1", 10], ["X", "i2", 2], ["X", "i3", 4]]
    assert s.loc[2, list(CATEGORIES)].tolist() == [0, 0, 0, 6, 2]
    assert s.index.tolist() == list(range(6)) and s.columns.name is None
    weighted = scoring.segment_scores(severity.apply_weights(tidy(), "hope"), value="penalty")
    assert weighted["SEGS"].tolist() == [2, 0, 5, 16, 1, 2]


def test_segment_scores_of_sparse_and_repeated_categories():
    # a foreign MQM frame: only the categories marked, two MIS errors in one unit; annotators a, b
    cats = pd.Categorical(["MIS", "MIS", "STL", "MIS"], categories=list(CATEGORIES))
    t = pd.DataFrame({"item": ["i2", "i2", "i1", "i1"], "position": [1, 1, 0, 0], "sentence": "s", "metaphor": "m",
                      "pos": "N", "system": "X", "annotator": ["b", "b", "b", "a"], "category": cats,
                      "severity": [2, 4, 6, 2]})
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
        ["Y", "i1", 4, 4], ["Y", "i2", 0, 2], ["Y", "i3", 8, 8], ["X", "i1", 10, 10], ["X", "i2", 2, 2],
        ["X", "i3", 4, 4]]
    hope = scoring.paired_segments(severity.apply_weights(both, "hope"), value="penalty")
    assert hope["a"].tolist() == [2, 0, 5, 16, 1, 2] and hope["b"].tolist() == [2, 1, 5, 16, 1, 2]


@pytest.mark.parametrize("tag, cls", [("V+AV", "verb"), ("N+N", "noun"), (" AJ ", "adjective-adverb"),
                                      ("vn", "noun"), ("d", "adjective-adverb"), ("i", "other"),
                                      ("XYZ+N", "other"), (None, "other"), ("  ", "other"), (float("nan"), "other")])
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
        "verb", "adjective-adverb", "noun"]
    assert "pos_class" not in tidy().columns
    with pytest.raises(ValueError, match=r"must be one of \['adjective-adverb', 'noun', 'other', 'verb'\]; "
                                         r"got \{'i1': 'Verb'\}"):
        scoring.normalise_pos(tidy(), {"i1": "Verb", "i2": "noun"})


def test_error_profile_by_hand():
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
    assert two[["system", "annotator", "SEGS"]].values.tolist() == [["Y", "a", 12], ["Y", "b", 12], ["X", "a", 16],
                                                                     ["X", "b", 16]]


def test_disagreement_anatomy_by_hand():
    # annotators listed c, a, b (not sorted); b's STL 1 is a HOPE-weighted minor error (penalty 1)
    # one row per (annotator, category) of the categories used; RAM and PRF nobody wrote down
    ex = pd.DataFrame({"annotator": list("cccaaabbb"), "category": ["IMP", "MIS", "STL"] * 3,
                       "severity": [0, 0, 0, 0, 4, 0, 0, 2, 1]})
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
    ag = pd.DataFrame({"system": ["X"], "n_items": [3], "n_raters": [2], "alpha": [0.5], "weighted_kappa": [0.4],
                       "pearson_r": [0.3], "exact_agreement": [0.2], "presence_agreement": [0.1], "total_a": [7],
                       "extra": [1]})
    v1 = scoring.pilot_v1_layout(ag, ["system"])
    assert list(v1.columns) == ["system", "alpha", "weighted_kappa", "pearson_r", "exact_agreement", "total_a"]
    v2 = scoring.pilot_v2_layout(ag, ["system"])
    assert v2.iloc[0].to_dict() == {"system": "X", "n_items": 3, "n_raters": 2, "ordinal_alpha": 0.5,
                                    "mean_weighted_kappa": 0.4, "exact_score_agreement": 0.2,
                                    "exact_presence_agreement": 0.1}


def _units(severities, annotators=("a", "b", "c")):
    items = [f"i{k + 1}" for k in range(len(severities))]
    rows = [{"item": item, "position": k, "sentence": "s", "metaphor": f"m{k + 1}", "pos": "N", "system": "X",
             "annotator": a, "category": "MIS", "severity": sev}
            for k, (item, sevs) in enumerate(zip(items, severities)) for a, sev in zip(annotators, sevs)]
    return pd.DataFrame(rows)


def test_disputed_items_ranking_by_hand():
    # the docstring's example: ranges 8 and 2
    d = scoring.disputed_items(_units([(0, 8, 2), (2, 2, 4)]))
    assert d[["item", "range", "flagged", "a", "b", "c"]].values.tolist() == [
        ["i1", 8, "2 of 3", 0, 8, 2], ["i2", 2, "3 of 3", 2, 2, 4]]
    assert d["sd"].tolist() == pytest.approx([np.std([0, 8, 2], ddof=1), np.std([2, 2, 4], ddof=1)])
    assert list(d.columns) == ["item", "system", "metaphor", "sentence", "range", "sd", "flagged", "a", "b", "c"]
    assert d.columns.name is None
    # equal ranges: the split team (flagged share nearest 1/2) first; then the larger SD
    tie = scoring.disputed_items(_units([(4, 4, 8), (0, 0, 4), (0, 4, 4, 4), (4, 8, 6)],
                                        annotators=("a", "b", "c", "d")))
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
    s = pd.DataFrame({"direction": ["EN→ZH"] * 4 + ["ZH→EN"] * 3, "item": ["i2"] * 4 + ["j1"] * 3, "sentence": "s",
                      "system": ["X", "X", "Y", "Y", "X", "X", "X"], "annotator": ["a", "b", "a", "b", "a", "b", "c"],
                      "SEGS": [2, 6, 0, 1, 3, 6, 9]})
    s = pd.concat([s, pd.DataFrame({"direction": ["EN→ZH"] * 2, "item": ["i1"] * 2, "sentence": "s",
                                    "system": ["Y", "Y"], "annotator": ["a", "b"], "SEGS": [4, 4]})],
                  ignore_index=True)
    out = scoring.team_scores(s)
    # in order of appearance (not sorted: i2 before i1, ZH→EN last)
    assert out[["direction", "item", "system", "annotator", "SEGS"]].values.tolist() == [
        ["EN→ZH", "i2", "X", "team of 2", 4.0], ["EN→ZH", "i2", "Y", "team of 2", 0.5],
        ["ZH→EN", "j1", "X", "team of 3", 6.0], ["EN→ZH", "i1", "Y", "team of 2", 4.0]]
    assert list(out.columns) == ["direction", "item", "sentence", "system", "SEGS", "annotator"]
    pooled = scoring.team_scores(s, by=())
    assert pooled["annotator"].tolist() == ["team of 3"] * 4
    cat = s.assign(direction=pd.Categorical(s["direction"], categories=["EN→ZH", "ZH→EN", "unused"]))
    assert len(scoring.team_scores(cat)) == 4  # an unused direction adds no rows


# --------------------------------------------------------------------------- the category maps whole


def test_categories_and_severity_scale_whole_against_the_paper():
    from helpers.metahope import mqm_format, severity, tidy_frame, workbooks

    # Liang & Han 2026 §3: "Impact (IMP) ... Required Adaptation is Missing (RAM) ... Mistranslation (MIS)
    # ... Style (STL) ... Proofreading Error (PRF)", summed in this order into SEGS (§4, Table 1)
    assert tidy_frame.CATEGORIES == ("IMP", "RAM", "MIS", "STL", "PRF")
    # appendix I.3 "Severity Scale (updated)": 0 no error, 2 Minor, 4 Moderate, 6 Major, 8 Severe, 10 Critical
    assert severity.SEVERITY_LEVELS == (0, 2, 4, 6, 8, 10)
    assert severity.SEVERITY_NAMES == {0: "none", 2: "minor", 4: "moderate", 6: "major", 8: "severe", 10: "critical"}
    assert mqm_format._LEVEL_OF_SEVERITY == {"Minor": 2, "Moderate": 4, "Major": 6, "Severe": 8, "Critical": 10}
    # the workbooks' column headers and the names the paper prints (abstract, Tables 1-3)
    assert workbooks.SYSTEM_NAMES == {"Google_translate": "GoogleMT", "GPT_5.4": "GPT-5.4", "hunyuan_7b": "Hunyuan-LLM-7B"}


def test_pos_classes_whole_against_the_tag_sets():
    # VUAMC's word classes (N noun, V verb, AJ adjective, AV adverb) and the PKU tag set of PSUCMC, each tag
    # by its PKU meaning: n 名词, ng 名语素, nr 人名, ns 地名, nt 机构团体, nz 其他专名, vn 名动词, an 名形词,
    # f 方位词, s 处所词, t 时间词, j 简称略语 (nominal); v 动词, vg 动语素, vd 副动词, vi 不及物动词,
    # vl 动词性惯用语, vx 形式动词 (verbal); a 形容词, ag 形语素, ad 副形词, d 副词, dg 副语素, b 区别词,
    # z 状态词 (adjectival or adverbial)
    noun = "n ng nr ns nt nz vn an f s t j N".split()
    verb = "v vg vd vi vl vx V".split()
    modifier = "a ag ad d dg b z AJ AV".split()
    expected = {**dict.fromkeys(noun, "noun"), **dict.fromkeys(verb, "verb"),
                **dict.fromkeys(modifier, "adjective-adverb")}
    assert scoring.POS_CLASSES == expected


# --------------------------------------------------------------------------- the simulation's team statistics


def test_team_statistics_against_the_krippendorff_package():
    import krippendorff

    from helpers.metahope import simulate

    # two annotators, one system, four items:
    #   a: i1 MIS 4 | i2 none  | i3 STL 2 | i4 MIS 6 + PRF 2   -> SEGS 4, 0, 2, 8
    #   b: i1 MIS 4 | i2 IMP 2 | i3 none  | i4 MIS 8          -> SEGS 4, 2, 0, 8
    given = {"a": {("i1", "MIS"): 4, ("i3", "STL"): 2, ("i4", "MIS"): 6, ("i4", "PRF"): 2},
             "b": {("i1", "MIS"): 4, ("i2", "IMP"): 2, ("i4", "MIS"): 8}}
    rows = [{"item": i, "system": "X", "annotator": who, "category": c, "severity": g.get((i, c), 0)}
            for who, g in given.items() for i in ("i1", "i2", "i3", "i4") for c in CATEGORIES]
    t = pd.DataFrame(rows)
    got = simulate.team_statistics(t).set_index("system").loc["X"]
    segs = [[4, 0, 2, 8], [4, 2, 0, 8]]
    assert got["segs_alpha"] == pytest.approx(krippendorff.alpha(reliability_data=segs, level_of_measurement="ordinal",
                                                                 value_domain=[0, 2, 4, 8]))
    # an error on both sheets for i1 and i4, on one only for i2 and i3: 2 of 4 units agree
    assert got["presence_agreement"] == 50.0
    # per category (RAM is all zeros: α undefined, left out of the mean)
    per_cat = {"IMP": [[0, 0, 0, 0], [0, 2, 0, 0]], "MIS": [[4, 0, 0, 6], [4, 0, 0, 8]],
               "STL": [[0, 0, 2, 0], [0, 0, 0, 0]], "PRF": [[0, 0, 0, 2], [0, 0, 0, 0]]}
    ref = [krippendorff.alpha(reliability_data=m, level_of_measurement="ordinal", value_domain=list(range(0, 11, 2)))
           for m in per_cat.values()]
    assert got["category_alpha"] == pytest.approx(np.mean(ref))
    pooled = simulate.team_statistics(t, by=None, statistics=["presence_agreement"])
    assert pooled.columns.tolist() == ["group", "presence_agreement"] and pooled.iloc[0].tolist() == ["all", 50.0]


def test_calibration_table_by_hand():
    from helpers.metahope import ch03

    study = pd.DataFrame({"seed": [0, 0, 1, 1, 2, 2], "system": ["B", "A"] * 3,
                          "segs_alpha": [0.1, 0.3, 0.2, 0.5, 0.6, 0.4], "presence_agreement": [20, 40, 30, 50, 10, 45]})
    published = pd.DataFrame({"system": ["A", "B"], "ordinal_alpha": ["0.22", "0.16"],
                              "exact_presence_agreement": ["47", "16"]})
    t = ch03.calibration_table(study, published).set_index("system")
    assert t.index.tolist() == ["B", "A"]  # the study's order
    # B: α 0.1, 0.2, 0.6 -> mean 0.3; presence 20, 30, 10 -> mean 20.  A: α 0.3, 0.5, 0.4; presence 40, 50, 45
    assert t.loc["B", ["alpha_mean", "alpha_min", "alpha_max"]].tolist() == pytest.approx([0.3, 0.1, 0.6])
    assert t.loc["A", ["alpha_mean", "alpha_min", "alpha_max"]].tolist() == pytest.approx([0.4, 0.3, 0.5])
    assert t.loc["B", ["presence_mean", "presence_min", "presence_max", "teams"]].tolist() == [20, 10, 30, 3]
    assert t.loc["A", ["presence_mean", "presence_min", "presence_max", "teams"]].tolist() == [45, 40, 50, 3]
    assert t.loc["A", ["published_alpha", "published_presence"]].tolist() == [0.22, 47.0]
    assert t.loc["B", ["published_alpha", "published_presence"]].tolist() == [0.16, 16.0]


def test_mqm_top_categories_whole_against_the_wmt_release():
    from helpers.metahope import mqm_format

    # google/wmt-mqm-human-evaluation README: "the standard top-level categories Accuracy, Fluency,
    # Terminology, Style, and Locale" (spelled "Locale convention" in the files) and "a special
    # Non-translation error"; the released files add Other, Source error (TED ZH-EN) and Source issue
    # (generalMT2023 ZH-EN). These are every top level of those files apart from No-error and the HOTW
    # test rows (Found, Missed), counted 2026-12-01 on the mirrored files.
    assert mqm_format.MQM_TOP_CATEGORIES == ("Accuracy", "Fluency", "Terminology", "Style", "Locale convention",
                                             "Other", "Non-translation", "Source error", "Source issue")
    got = mqm_format.top_category(pd.Series(["Accuracy/Mistranslation", "Non-translation!", " Style/Awkward", "Other"]))
    assert got.tolist() == ["Accuracy", "Non-translation", "Style", "Other"]


@pytest.mark.parametrize("categorical", [False, True])
def test_disagreement_anatomy_of_categories_not_written_down(categorical):
    # b wrote only MIS 1 (no IMP row): an unwritten category is 0, whether or not the column is
    # categorical, and b's total of 1 is a detected error
    ex = pd.DataFrame({"annotator": list("ccaab"), "category": ["IMP", "MIS", "IMP", "MIS", "MIS"],
                       "severity": [0, 2, 0, 4, 1]})
    if categorical:
        ex["category"] = pd.Categorical(ex["category"], categories=list(CATEGORIES))
    s = scoring.disagreement_anatomy(ex).scores
    assert s["annotator"].tolist() == ["c", "a", "b"]
    assert s[list(CATEGORIES)].values.tolist() == [[0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 1, 0, 0]]
    assert (s[list(CATEGORIES)].dtypes == "int64").all()
    assert s["total"].tolist() == [2, 4, 1] and s["detected"].tolist() == [True, True, True]


def test_disagreement_anatomy_has_no_row_for_an_annotator_of_another_item():
    # a categorical annotator column (the class's whole list) with d absent from this example
    ex = pd.DataFrame({"annotator": pd.Categorical(list("aabb"), categories=list("abd")),
                       "category": ["MIS", "STL"] * 2, "severity": [4, 0, 0, 2]})
    out = scoring.disagreement_anatomy(ex)
    assert out.scores["annotator"].tolist() == ["a", "b"]
    assert out.categories.set_index("category")["annotators_using_it"].to_dict() == {
        "IMP": 0, "RAM": 0, "MIS": 1, "STL": 1, "PRF": 0}


def test_error_profile_of_a_sparse_frame_keeps_integer_sums():
    # one row per error written (and an IMP 0 where an item has none), categories as plain strings:
    #   Y: i1 MIS 4 | i2 none | i3 MIS 2      X: i1 IMP 10 | i2 RAM 2 | i3 MIS 4      STL, PRF unused
    rows = [("Y", "i1", "IMP", 0), ("Y", "i1", "MIS", 4), ("Y", "i2", "IMP", 0), ("Y", "i3", "IMP", 0),
            ("Y", "i3", "MIS", 2), ("X", "i1", "IMP", 10), ("X", "i2", "RAM", 2), ("X", "i3", "MIS", 4)]
    sparse = pd.DataFrame([{"item": i, "position": ITEMS[i][0], "sentence": ITEMS[i][1], "metaphor": ITEMS[i][2],
                            "pos": ITEMS[i][3], "system": s, "annotator": "a", "category": c, "severity": v}
                           for s, i, c, v in rows])
    p = scoring.error_profile(sparse, by="system")
    assert list(p.columns) == ["system", "n_items", *CATEGORIES, "SEGS", "items_with_error", "mean_penalty"]
    assert p[["system", "n_items", *CATEGORIES, "SEGS"]].values.tolist() == [["Y", 3, 0, 0, 6, 0, 0, 6],
                                                                           ["X", 3, 10, 2, 4, 0, 0, 16]]
    assert (p[[*CATEGORIES, "SEGS"]].dtypes == "int64").all()
    assert p["items_with_error"].tolist() == pytest.approx([200 / 3, 100.0])
    assert p["mean_penalty"].tolist() == pytest.approx([2.0, 16 / 3])


def test_paired_segments_columns_have_no_name():
    w = scoring.paired_segments(tidy())
    assert w.columns.name is None and list(w.columns)[-1] == "a"
