"""Unit tests of helpers.metahope.severity: the severity scale, its weight tables and apply_weights, pinned by hand and against the paper."""

from __future__ import annotations

import pytest

from helpers.metahope import load, scoring, severity

from .tidy_cases import tidy


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
    assert got == {
        ("Y", "i1", "MIS"): 2.0,
        ("Y", "i3", "STL"): 4.0,
        ("Y", "i3", "PRF"): 1.0,
        ("X", "i1", "IMP"): 16.0,
        ("X", "i2", "RAM"): 1.0,
        ("X", "i3", "MIS"): 2.0,
    }
    assert t["penalty"].dtype == float and set(t["scheme"]) == {"hope"}
    custom = severity.apply_weights(tidy(), {lvl: lvl * 10 for lvl in (0, 2, 4, 6, 8, 10)})
    assert custom["penalty"].sum() == 280.0 and set(custom["scheme"]) == {"custom"}
    assert severity.apply_weights(tidy())["penalty"].sum() == 28.0  # metahope by default
    with pytest.raises(ValueError, match=r"lacks penalties for severity levels \[8, 10\]"):
        severity.apply_weights(tidy(), {0: 0, 2: 1, 4: 2, 6: 3})


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
    assert workbooks.SYSTEM_NAMES == {
        "Google_translate": "GoogleMT",
        "GPT_5.4": "GPT-5.4",
        "hunyuan_7b": "Hunyuan-LLM-7B",
    }


def test_weights_hope_exponential(two_annotators):
    study = severity.apply_weights(load.load_study(two_annotators), "hope")
    segs = scoring.segment_scores(study, value="penalty")
    b = segs[(segs["annotator"] == "B") & (segs["system"] == "GoogleMT")].set_index("item")["SEGS"]
    assert b.to_dict() == {"i1": 8 + 1, "i2": 4, "i3": 0}  # severe 8 -> 8, minor 2 -> 1, major 6 -> 4
    with pytest.raises(ValueError, match="lacks penalties"):
        severity.apply_weights(study, {0: 0, 2: 1})
