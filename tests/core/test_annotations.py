"""The annotation data model pinned on small frames worked out by hand (issue 21): dtypes and
column order of :func:`conform`, span offsets, pairing keys, HOTW counts, metadata carry-forward."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.formats import annotations as ann


def _frame(**cols) -> pd.DataFrame:
    n = len(next(iter(cols.values())))
    base = {
        "system": ["s"] * n,
        "doc": ["d"] * n,
        "doc_seg_id": list(range(1, n + 1)),
        "rater": ["r"] * n,
        "category": ["Fluency"] * n,
        "severity": ["Minor"] * n,
        "metadata": [""] * n,
    }
    return pd.DataFrame({**base, **cols})


def test_empty_has_every_column_in_order_with_the_model_dtypes():
    e = ann.empty()
    assert list(e.columns) == ann.COLUMNS and len(e) == 0
    assert str(e["doc_seg_id"].dtype) == "int64" and str(e["line"].dtype) == "int64"
    assert all(str(e[c].dtype) == "Int64" for c in ("source_start", "target_end", "global_seg_id"))
    assert e["system"].dtype == object
    sub = ann.empty(["rater", "system"])
    assert list(sub.columns) == ["system", "rater"]  # model order, not the order asked


def test_conform_orders_columns_casts_and_renumbers():
    raw = pd.DataFrame(
        {"line": ["7", "9"], "extra": [1, 2], "system": [1, 2], "doc_seg_id": [3.0, 4.0], "target_start": [None, 5]},
        index=[10, 11],
    )
    out = ann.conform(raw)
    assert list(out.columns) == ["system", "doc_seg_id", "target_start", "line"]
    assert out.index.tolist() == [0, 1]
    assert out["system"].tolist() == ["1", "2"] and out["system"].dtype == object
    assert out["doc_seg_id"].tolist() == [3, 4] and str(out["doc_seg_id"].dtype) == "int64"
    assert out["line"].tolist() == [7, 9] and str(out["line"].dtype) == "int64"
    assert str(out["target_start"].dtype) == "Int64"
    assert out["target_start"].isna().tolist() == [True, False] and out["target_start"].iloc[1] == 5


def test_span_offsets_first_span_in_marker_free_characters():
    text = pd.Series(["<v>ab</v> c", "x <v>y</v> <v>zz</v>", "no </v> open", "</v> <v>late", "plain"])
    start, end = ann.span_offsets(text)
    # "<v>ab</v> c" -> "ab c": span 0:2; second text: first span only, "x y zz" -> 2:3
    assert start.tolist() == [0, 2, pd.NA, pd.NA, pd.NA]
    assert end.tolist() == [2, 3, pd.NA, pd.NA, pd.NA]
    assert str(start.dtype) == "Int64" and str(end.dtype) == "Int64"
    assert ann.clean_text(text).tolist() == ["ab c", "x y zz", "no  open", " late", "plain"]


def test_split_pairing_splits_at_the_first_key_only_and_keeps_the_index():
    s = pd.Series(["A_with_B", "A", "A_with_B_with_C"], index=[5, 6, 7])
    out = ann.split_pairing(s)
    assert out.index.tolist() == [5, 6, 7]
    assert out["base"].tolist() == ["A", "A", "A"]
    assert out["partner"].tolist() == ["B", "", "B_with_C"]
    none = ann.split_pairing(pd.Series(["x", "y"], index=[3, 4]))
    assert none.values.tolist() == [["x", ""], ["y", ""]] and none.index.tolist() == [3, 4]


def test_pool_pairings_keeps_the_raters_and_records_the_partner():
    f = _frame(system=["A_with_B", "A_with_C", "A"], rater=["r1", "r1", "r2"])
    out = ann.pool_pairings(f)
    assert out["system"].tolist() == ["A", "A", "A"]
    assert out["rater"].tolist() == ["r1", "r1", "r2"]  # pooling never multiplies raters
    assert out["pairing"].tolist() == ["B", "C", ""]
    assert f["system"].tolist() == ["A_with_B", "A_with_C", "A"] and "pairing" not in f  # the input is not changed


def test_hotw_counts_by_hand():
    f = _frame(
        rater=["zed", "amy", "zed", "zed", "amy"],
        severity=["HOTW-test"] * 4 + ["Minor"],
        category=["Found", " missed ", "FOUND", "Missed", "Found"],
    )
    out = ann.hotw_counts(f)
    assert out["rater"].tolist() == ["amy", "zed"]  # sorted by rater
    assert out["found"].tolist() == [0, 2] and out["missed"].tolist() == [1, 1] and out["tests"].tolist() == [1, 3]
    assert all(str(out[c].dtype) == "int64" for c in ("found", "missed", "tests"))


def test_parse_metadata_carries_the_segment_entry_per_system_doc_and_segment():
    f = _frame(
        system=["s", "s", "s", "s"],
        doc=["d1", "d1", "d2", "d1"],
        doc_seg_id=[1, 1, 1, 2],
        metadata=['{"segment": {"k": 1}}', '{"x": 2}', "", "[1, 2]"],
    )
    f.index = [4, 5, 6, 7]
    out = ann.parse_metadata(f)
    assert out.name == "metadata" and out.index.tolist() == [4, 5, 6, 7]
    # row 5 is the same (s, d1, 1) as row 4; row 6 is another doc, row 7 another segment
    assert out.tolist() == [{"segment": {"k": 1}}, {"x": 2, "segment": {"k": 1}}, {}, {"note": "[1, 2]"}]


def test_check_columns_names_the_missing_ones():
    ann.check_columns(_frame(line=[1], global_seg_id=[None]))  # complete: no error
    with pytest.raises(ValueError, match=r"missing column\(s\) \['global_seg_id', 'line'\]"):
        ann.check_columns(_frame(doc=["d"]))


def test_rated_segments_one_row_per_rating_unit():
    f = _frame(
        system=["A", "A", "A", "B"], doc=["d", "d", "e", "d"], doc_seg_id=[1, 1, 1, 1], rater=["r", "r", "r", "r"]
    )
    f.index = [9, 8, 7, 6]
    out = ann.rated_segments(f)
    assert list(out.columns) == ["system", "doc", "doc_seg_id", "rater"]
    assert out.index.tolist() == [0, 1, 2]
    assert out.values.tolist() == [["A", "d", 1, "r"], ["A", "e", 1, "r"], ["B", "d", 1, "r"]]


def test_severity_keys_of_every_spelling():
    assert ann.severity_key("  No_error ") == "no-error"
    assert ann.severity_key("HOTW  test") == "hotw-test"
    assert {k: ann.SEVERITY_BY_KEY[k] for k in ("minor", "non-translation!", "hotw-test", "no-error")} == {
        "minor": "Minor",
        "non-translation!": "Non-translation",
        "hotw-test": "HOTW-test",
        "no-error": "No-error",
    }
    assert len(ann.SEVERITY_BY_KEY) == len(ann.SEVERITIES) + 1


def test_the_severity_model_is_complete():
    assert ann.SEVERITIES == (
        "Neutral",
        "Trivial",
        "Minor",
        "Moderate",
        "Major",
        "Severe",
        "Critical",
        "No-error",
        "HOTW-test",
        "Non-translation",
    )
    assert ann.SEVERITY_BY_KEY == {
        "neutral": "Neutral",
        "trivial": "Trivial",
        "minor": "Minor",
        "moderate": "Moderate",
        "major": "Major",
        "severe": "Severe",
        "critical": "Critical",
        "no-error": "No-error",
        "hotw-test": "HOTW-test",
        "non-translation": "Non-translation",
        "non-translation!": "Non-translation",
    }
    assert ann.severity_key("  No_error ") == "no-error" and ann.severity_key("HOTW test") == "hotw-test"
