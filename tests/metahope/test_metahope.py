"""MetaHOPE workbook loading, validation and scoring on small hand-made sheets."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import HEADERS, row, write_workbook

from helpers import metahope as mh
from helpers.core.errors import InputError


def test_read_workbook_tidy_and_blank_is_zero(two_annotators):
    df = mh.read_workbook(two_annotators["A"], "A")
    # 3 items x 2 systems x 5 categories
    assert len(df) == 30
    assert set(df["system"]) == {"GoogleMT", "GPT-5.4"}
    assert list(df.columns[:4]) == ["item", "position", "row", "sentence"]
    nonzero = df[df["severity"] > 0][["item", "system", "category", "severity"]]
    assert nonzero.astype(str).values.tolist() == [["i1", "GoogleMT", "MIS", "4"], ["i3", "GPT-5.4", "PRF", "2"]]
    assert df.loc[df["item"] == "i1", "row"].unique().tolist() == [2]
    assert df.loc[df["item"] == "i3", "translation"].iloc[-1] == "zh-i3-p"


@pytest.mark.parametrize("bad, problem", [
    (7, "severity must be one of 0, 2, 4, 6, 8, 10"),
    ("major", "severity must be one of"),
    (4.5, "severity must be one of"),
    (-2, "severity must be one of"),
])
def test_bad_severity_names_file_row_column_cell_value(tmp_path, bad, problem):
    path = write_workbook(tmp_path / "bad.xlsx", [
        row("i1", "S.", "w", "N"),
        row("i2", "S.", "w2", "V", gpt=(None, None, bad, None, None)),
    ])
    with pytest.raises(InputError) as err:
        mh.read_workbook(path, "A")
    msg = str(err.value)
    assert "bad.xlsx" in msg and "row 3" in msg and "MIS (GPT_5.4)" in msg
    # columns: A-D ids, E Google, F-J categories, K SEGS, L GPT, M IMP, N RAM, O MIS
    assert "cell O3" in msg and repr(bad) in msg and problem in msg
    assert err.value.row == 3 and err.value.value == bad


def test_category_header_typo(tmp_path):
    headers = list(HEADERS)
    headers[headers.index("MIS", 10)] = "MIZ"  # in the second system's block
    path = write_workbook(tmp_path / "typo.xlsx", [row("i1", "S.", "w", "N")], headers=headers)
    with pytest.raises(InputError) as err:
        mh.read_workbook(path, "A")
    msg = str(err.value)
    assert "typo.xlsx" in msg and "row 1" in msg and "cell O1" in msg and "'MIZ'" in msg and "'MIS'" in msg


def test_id_header_must_match(tmp_path):
    headers = list(HEADERS)
    headers[2] = "lemma"
    path = write_workbook(tmp_path / "h.xlsx", [row("i1", "S.", "w", "N")], headers=headers)
    with pytest.raises(InputError, match=r"cell C1: value 'lemma': header must be 'word' or 'token'"):
        mh.read_workbook(path, "A")


def test_segs_must_equal_sum(tmp_path):
    path = write_workbook(tmp_path / "s.xlsx", [row("i1", "S.", "w", "N", google=(2, None, 4, None, None), segs=(8, None))])
    with pytest.raises(InputError, match=r"row 2, column 'SEGS \(Google_translate\)', cell K2: value 8: SEGS must"):
        mh.read_workbook(path, "A")


def test_row_without_id_and_duplicate_id(tmp_path):
    path = write_workbook(tmp_path / "n.xlsx", [row("i1", "S.", "w", "N"), row(None, "S.", "w", "N")])
    with pytest.raises(InputError, match=r"row 3, column 'word_id', cell A3: value None: row has content but no word_id"):
        mh.read_workbook(path, "A")
    path = write_workbook(tmp_path / "d.xlsx", [row("i1", "S.", "w", "N"), row("i1", "S.", "w", "N")])
    with pytest.raises(InputError, match=r"row 3.*value 'i1': duplicate word_id \(first on row 2\)"):
        mh.read_workbook(path, "A")


def test_blank_rows_between_items_are_skipped_and_listed(tmp_path):
    path = write_workbook(tmp_path / "b.xlsx", [row("i1", "S.", "w", "N"), [None] * len(HEADERS), row("i2", "S.", "v", "V")])
    sheet = mh.read_sheet(path, "A")
    assert sheet.frame["item"].unique().tolist() == ["i1", "i2"]
    assert sheet.skipped_rows == (3,) and sheet.item_rows == {"i1": 2, "i2": 4}


def test_load_study_compares_every_sheet_with_the_union(tmp_path, two_annotators):
    study = mh.load_study(two_annotators)
    assert set(study["annotator"]) == {"A", "B"} and len(study) == 60
    # the same items in another order load (items are matched by id), in the first sheet's order
    swapped = write_workbook(tmp_path / "C.xlsx", [
        row("i2", "S one.", "deep", "AJ", google=(2, None, None, None, None)), row("i1", "S one.", "grasp", "V"),
        row("i3", "S two.", "bridge", "N")])
    both = mh.load_study({"A": two_annotators["A"], "C": swapped})
    assert both.drop_duplicates("item").sort_values("position")["item"].tolist() == ["i1", "i2", "i3"]
    # D lacks i3, which A and B have: the message names D, the item, and where it is
    short = write_workbook(tmp_path / "D.xlsx", [row("i1", "S one.", "grasp", "V", google=(2, None, None, None, None)),
                                                  row("i2", "S one.", "deep", "AJ")])
    with pytest.raises(InputError) as err:
        mh.load_study({"A": two_annotators["A"], "D": short, "B": two_annotators["B"]})
    assert err.value.path.name == "D.xlsx" and err.value.column == "word_id"
    assert "item 'i3' is missing from this sheet (it is on row 4 of A.xlsx)" in str(err.value)
    # an extra item in the second sheet is reported on the first (which lacks it), not as "the second is wrong"
    extra = write_workbook(tmp_path / "E.xlsx", [
        row("i1", "S one.", "grasp", "V", google=(2, None, None, None, None)), row("i2", "S one.", "deep", "AJ"),
        row("i3", "S two.", "bridge", "N"), row("i4", "S two.", "span", "N")])
    with pytest.raises(InputError, match=r"A.xlsx.*item 'i4' is missing from this sheet \(it is on row 5 of E.xlsx\)"):
        mh.load_study({"A": two_annotators["A"], "E": extra})


def test_a_blank_released_layout_sheet_is_unfinished_never_zeros(tmp_path, two_annotators):
    blank = write_workbook(tmp_path / "blank.xlsx", [row("i1", "S one.", "grasp", "V"), row("i2", "S one.", "deep", "AJ"),
                                                      row("i3", "S two.", "bridge", "N")])
    with pytest.raises(InputError, match=r"blank.xlsx, sheet 'Sheet1': student 'Z': no severity was entered in any cell"):
        mh.load_study({"A": two_annotators["A"], "Z": blank})
    for choice in ("drop_rows", "drop_students"):  # both leave the sheet out; neither counts it as "no error"
        loaded = mh.load_class({"A": two_annotators["A"], "B": two_annotators["B"], "Z": blank}, unfinished=choice)
        assert set(loaded.tidy["annotator"]) == {"A", "B"} and loaded.dropped_students == ("Z",)
        assert loaded.notes == ("left out student Z (blank.xlsx): nothing was entered",)


def test_a_missing_system_names_the_sheet(tmp_path, two_annotators):
    headers = ["word_id", "sentence", "word", "wordcat", "Google_translate", "IMP", "RAM", "MIS", "STL", "PRF", "SEGS"]
    one = write_workbook(tmp_path / "one.xlsx", [["i1", "S one.", "grasp", "V", "x", 2, None, None, None, None, None],
                                                 ["i2", "S one.", "deep", "AJ", "y"] + [None] * 6,
                                                 ["i3", "S two.", "bridge", "N", "z"] + [None] * 6], headers=headers)
    with pytest.raises(InputError, match=r"one.xlsx, sheet 'Sheet1', row 1: system 'GPT-5.4' is missing"):
        mh.load_study({"A": two_annotators["A"], "S": one})


def test_clean_sentence_drops_annotator_notes():
    assert mh.clean_sentence("A spanner in the works => A spanner in the works.") == "A spanner in the works"
    assert mh.clean_sentence("Prices will soar next year. (soar)") == "Prices will soar next year."
    assert mh.clean_sentence("He said (quietly) no.") == "He said (quietly) no."


def test_segment_scores_and_penalty_summary_by_hand(two_annotators):
    study = mh.load_study(two_annotators)
    segs = mh.segment_scores(study)
    b_google = segs[(segs["annotator"] == "B") & (segs["system"] == "GoogleMT")].set_index("item")["SEGS"]
    assert b_google.to_dict() == {"i1": 10, "i2": 6, "i3": 0}  # 8+2, 6, nothing
    summary = mh.penalty_summary(study[study["annotator"] == "B"])
    google = summary.set_index("system").loc["GoogleMT"]
    # 16 points over 2 distinct sentences and 3 items
    assert (google["MIS"], google["STL"], google["RAM"], google["SEGS"]) == (8, 2, 6, 16)
    assert google["per_sentence"] == pytest.approx(8.0) and google["per_metaphor"] == pytest.approx(16 / 3)
    assert mh.penalty_summary(study[study["annotator"] == "B"], n_sentences=4).set_index("system").loc[
        "GoogleMT", "per_sentence"] == pytest.approx(4.0)
    with pytest.raises(ValueError, match="one annotator"):
        mh.penalty_summary(study)


def test_weights_hope_exponential(two_annotators):
    study = mh.apply_weights(mh.load_study(two_annotators), "hope")
    segs = mh.segment_scores(study, value="penalty")
    b = segs[(segs["annotator"] == "B") & (segs["system"] == "GoogleMT")].set_index("item")["SEGS"]
    assert b.to_dict() == {"i1": 8 + 1, "i2": 4, "i3": 0}  # severe 8 -> 8, minor 2 -> 1, major 6 -> 4
    with pytest.raises(ValueError, match="lacks penalties"):
        mh.apply_weights(study, {0: 0, 2: 1})


def test_metaphor_share():
    epm = pd.DataFrame({"system": ["X", "Y"], "SEGS": [3, 0]})
    eps = pd.DataFrame({"system": ["X", "Y"], "SEGS": [4, 5]})
    assert mh.metaphor_share(epm, eps)["ratio_m_s"].tolist() == [0.75, 0.0]


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
    by_sentence = mh.penalty_by_sentence(metaphors, sentences)
    prf = by_sentence[by_sentence["category"] == "PRF"].set_index("sentence")
    assert prf["epm"].to_dict() == {"s1": 4, "s2": 0} and prf["eps"].to_dict() == {"s1": 2, "s2": 0}
    assert prf["n_metaphors"].to_dict() == {"s1": 2, "s2": 1}
    out = mh.ratio_m_s(by_sentence, n_boot=200, seed=1).set_index("category")
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
