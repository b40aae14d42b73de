"""POS normalisation, error profiles, the long and MQM TSV formats, and annotation dispatch."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers import metahope as mh
from helpers.core.errors import InputError


def test_pos_classes():
    assert [mh.pos_class(t) for t in ["N", "V", "AJ", "AV", "V+AV", "N+N", "n", "vn", "vg", "a", "d", "i", "PR", None]] \
        == ["noun", "verb", "adjective-adverb", "adjective-adverb", "verb", "noun", "noun", "noun", "verb",
            "adjective-adverb", "adjective-adverb", "other", "other", "other"]


def test_normalise_pos_keeps_tag_and_applies_overrides(two_annotators):
    tidy = mh.normalise_pos(mh.load_study(two_annotators), {"i1": "noun"})
    classes = tidy.drop_duplicates("item").set_index("item")[["pos", "pos_class"]]
    assert classes.to_dict("index") == {"i1": {"pos": "V", "pos_class": "noun"},
                                        "i2": {"pos": "AJ", "pos_class": "adjective-adverb"},
                                        "i3": {"pos": "N", "pos_class": "noun"}}
    with pytest.raises(ValueError, match="overrides"):
        mh.normalise_pos(tidy, {"i1": "idiom"})


def test_error_profile_by_hand(two_annotators):
    prof = mh.error_profile(mh.load_study(two_annotators), by=["system", "annotator"]).set_index(["system", "annotator"])
    b = prof.loc[("GoogleMT", "B")]
    # B on Google: i1 MIS 8 + STL 2, i2 RAM 6, i3 clean -> 16 points, 2 of 3 items with an error
    assert (b["n_items"], b["MIS"], b["STL"], b["RAM"], b["SEGS"]) == (3, 8, 2, 6, 16)
    assert b["items_with_error"] == pytest.approx(200 / 3) and b["mean_penalty"] == pytest.approx(16 / 3)
    assert prof.loc[("GPT-5.4", "A"), "items_with_error"] == pytest.approx(100 / 3)


def _comparable(df):
    cols = ["item", "system", "annotator", "category", "severity", "metaphor", "pos", "translation"]
    out = df[cols].copy()
    out["category"] = out["category"].astype(str)
    return out.sort_values(cols[:4]).reset_index(drop=True).astype(str)


def test_long_format_round_trip(tmp_path, two_annotators):
    tidy = mh.load_study(two_annotators)
    path = tmp_path / "long.csv"
    mh.to_long(tidy).to_csv(path, index=False)
    back = mh.read_long(path)
    pd.testing.assert_frame_equal(_comparable(back), _comparable(tidy))
    assert list(back.columns) == list(tidy.columns)


def test_long_format_errors(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("item,system,annotator,category,severity\ni1,s,A,MIS,4\ni1,s,A,MIZ,2\n")
    with pytest.raises(InputError, match=r"l.csv, row 3, column 'category': value 'MIZ'"):
        mh.read_long(path)
    path.write_text("item,system,annotator,category,severity\ni1,s,A,MIS,major\n")
    with pytest.raises(InputError, match=r"row 2, column 'severity': value 'major'"):
        mh.read_long(path)
    path.write_text("item,system,category,severity\ni1,s,MIS,2\n")
    with pytest.raises(InputError, match="missing column"):
        mh.read_long(path)


def test_mqm_tsv_round_trip(tmp_path, two_annotators):
    tidy = mh.load_study(two_annotators)
    path = mh.write_mqm_tsv(tidy, tmp_path / "mqm.tsv")
    raw = pd.read_csv(path, sep="\t")
    assert list(raw.columns[:10]) == mh.MQM_COLUMNS  # Marot's names; its export adds a documentation cell
    # B on Google i1: MIS severe and STL minor
    b = raw[(raw["rater"] == "B") & (raw["system"] == "GoogleMT") & (raw["docSegId"] == 1)]
    assert sorted(zip(b["category"], b["severity"])) == [("MIS", "Severe"), ("STL", "Minor")]
    assert (raw["category"] == "No-error").sum() == 12 - 5  # (3 items x 2 systems x 2 raters) - segments with errors
    back = mh.read_mqm_tsv(path)
    pd.testing.assert_frame_equal(_comparable(back), _comparable(tidy))


def test_load_annotations_dispatch(tmp_path, two_annotators):
    as_list = mh.load_annotations([two_annotators["A"], two_annotators["B"]])
    assert set(as_list["annotator"]) == {"A", "B"}
    path = tmp_path / "long.csv"
    mh.to_long(as_list).to_csv(path, index=False)
    assert len(mh.load_annotations(str(path))) == len(as_list)
    with pytest.raises(ValueError, match="one workbook is one annotator"):
        mh.load_annotations(str(two_annotators["A"]))
