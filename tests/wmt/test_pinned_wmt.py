"""Chapter 08's statistics pinned on a small annotation frame worked out by hand (issue 21):
the Major-weight schemes whole, top-level categories, segment matrices and rankings, category
presence and penalties, error spans, α per weighting against the krippendorff package, the
one-way ICC by the ANOVA formula, and the document-resampled standard errors."""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pytest

from helpers.core.schemes import load_scheme
from helpers.wmt import analysis as wa


def frame(rows) -> pd.DataFrame:
    """rows: (system, doc, seg, rater, category, severity[, target_start, target_end])."""
    full = [tuple(r) + (None, None)[: 8 - len(r)] for r in rows]
    out = pd.DataFrame(full, columns=["system", "doc", "doc_seg_id", "rater", "category", "severity",
                                      "target_start", "target_end"])
    for c in ("target_start", "target_end"):
        out[c] = out[c].astype("Int64")
    out["source_start"] = out["source_end"] = pd.array([pd.NA] * len(out), dtype="Int64")
    out["global_seg_id"] = pd.array([pd.NA] * len(out), dtype="Int64")
    out["line"] = range(2, len(out) + 2)
    return out


# systems A, B; doc d1 segments 1, 2 and doc d2 segment 1; raters r1, r2 everywhere; C only on d1/1
ROWS = [
    ("A", "d1", 1, "r1", "Accuracy/Mistranslation", "Major", 0, 3),   # 5
    ("A", "d1", 1, "r2", "Accuracy/Omission", "Minor", 1, 3),         # 1
    ("A", "d1", 2, "r1", "No-error", "No-error"),
    ("A", "d1", 2, "r2", "Fluency/Punctuation", "Minor"),             # 0.1, no span
    ("A", "d2", 1, "r1", "Fluency/Grammar", "Minor", 4, 6),           # 1
    ("A", "d2", 1, "r2", "Found", "HOTW-test"),                       # rated, 0
    ("B", "d1", 1, "r1", "Non-translation!", "Major"),                # 25
    ("B", "d1", 1, "r2", "Accuracy/Mistranslation", "Major", 2, 5),   # 5
    ("B", "d1", 2, "r1", "Source issue", "Minor"),                    # 1
    ("B", "d1", 2, "r2", "No-error", "No-error"),
    ("B", "d2", 1, "r1", "Style/Awkward", "Minor"),                   # 1
    ("B", "d2", 1, "r2", "Style/Awkward", "Major"),                   # 5
    ("C", "d1", 1, "r1", "Style/Awkward", "Minor"),                   # 1 (C has one segment only)
]


def test_major_weight_scheme_is_the_mqm_table_with_one_weight_changed():
    s = wa.major_weight_scheme(7)
    assert [(r.name, r.pattern, r.weight) for r in s.rules] == [
        ("Non-trans", "non.translation", 25), ("Neutral", "^neutral:", 0), ("Punct", "^minor:fluency/punctuation", 0.1),
        ("Minor", "^minor:", 1), ("Major", "^major:", 7)]
    assert (s.name, s.title) == ("mqm-major-7", "MQM, Major = 7")
    assert s.citation == load_scheme("mqm").citation and s.source == "schemes/mqm.yml"
    assert wa.major_weight_scheme(2.5).name == "mqm-major-2.5"
    assert [wa.major_to_minor(load_scheme(n)) for n in ("mqm", "marot", "hope", "metahope")] == [5, 5, 4, 3]
    assert wa.major_to_minor(wa.major_weight_scheme(7)) == 7


def test_top_level_categories():
    got = wa.top_level(pd.Series(["Accuracy/Mistranslation", "Non-translation!", "Source issue", "Source error",
                                  " Style / Awkward", "Other", "source/x"]))
    assert got.tolist() == ["Accuracy", "Non-translation", "Source", "Source", "Style", "Other", "Source"]


def test_segment_matrix_and_rankings_on_the_common_segments():
    wide, docs = wa.segment_matrix(frame(ROWS), "mqm")
    # only d1/1 is scored for A, B and C: A (5 + 1)/2 = 3, B (25 + 5)/2 = 15, C 1
    assert wide.index.tolist() == [("d1", 1)] and docs.tolist() == ["d1"]
    assert wide.loc[("d1", 1)].to_dict() == {"A": 3.0, "B": 15.0, "C": 1.0}
    ab = frame([r for r in ROWS if r[0] != "C"])
    wide, docs = wa.segment_matrix(ab, "mqm")
    assert docs.tolist() == ["d1", "d1", "d2"]
    assert wide["A"].tolist() == [3.0, 0.05, 0.5] and wide["B"].tolist() == [15.0, 0.5, 3.0]
    r = wa.rankings(ab, ["mqm", "hope", wa.major_weight_scheme(1)])
    assert list(r.columns) == ["system", "mqm", "hope", "mqm-major-1"]
    assert r.values.tolist() == [["A", 1, 1, 1], ["B", 2, 2, 2]]


def test_category_presence_by_hand():
    p = wa.category_presence(frame(ROWS))
    assert sorted(p["category"].unique()) == ["Accuracy", "Fluency", "Non-translation", "Source", "Style"]
    # 12 ratings x 5 categories (A d2/1 r2 has only a HOTW row: not a rating here)
    assert len(p) == 12 * 5
    got = p[p["present"] == 1].sort_values(["unit", "rater", "category"])[["unit", "rater", "category"]]
    assert got.values.tolist() == [
        ["A | d1 | 1", "r1", "Accuracy"], ["A | d1 | 1", "r2", "Accuracy"], ["A | d1 | 2", "r2", "Fluency"],
        ["A | d2 | 1", "r1", "Fluency"], ["B | d1 | 1", "r1", "Non-translation"], ["B | d1 | 1", "r2", "Accuracy"],
        ["B | d1 | 2", "r1", "Source"], ["B | d2 | 1", "r1", "Style"], ["B | d2 | 1", "r2", "Style"],
        ["C | d1 | 1", "r1", "Style"]]
    assert list(p.columns) == ["unit", "doc", "rater", "category", "present"]
    assert p.loc[p["unit"] == "B | d2 | 1", "doc"].unique().tolist() == ["d2"]


def test_presence_agreement_by_hand():
    presence = wa.category_presence(frame([r for r in ROWS if r[0] != "C"]))
    out = wa.presence_agreement(presence).set_index("category")
    # Style: units B d2/1 both mark it (1, 1); the other four two-rater units neither: 5 units, all agree
    assert out.loc["Style", "n_units"] == 5 and out.loc["Style", "exact_agreement"] == 100.0
    assert out.loc["Style", "marked_percent"] == pytest.approx(20.0)
    # Accuracy: A d1/1 (1, 1), B d1/1 (0, 1), others (0, 0): α from the krippendorff package
    data = np.array([[1, 0, 0, 0, 0], [1, 1, 0, 0, 0]], dtype=float)
    assert out.loc["Accuracy", "nominal_alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
    assert out.loc["Accuracy", "marked_percent"] == pytest.approx(30.0)
    assert out.loc["Accuracy", "exact_agreement"] == pytest.approx(80.0)
    # of the 10 ratings of two-rater units: Accuracy 3, Style 2, Fluency, Non-translation, Source 1 each
    assert out["marked_percent"].to_dict() == pytest.approx({"Accuracy": 30.0, "Style": 20.0, "Fluency": 10.0,
                                                             "Non-translation": 10.0, "Source": 10.0})
    assert out.index.tolist()[:2] == ["Accuracy", "Style"] and (out["n_raters"] == 2).all()


def test_error_spans_by_hand():
    s = wa.error_spans(frame(ROWS))
    assert s[["system", "doc", "doc_seg_id", "rater", "side", "start", "end", "category", "severity"]].values.tolist() == [
        ["A", "d1", 1, "r1", "target", 0, 3, "Accuracy", "Major"], ["A", "d1", 1, "r2", "target", 1, 3, "Accuracy", "Minor"],
        ["A", "d2", 1, "r1", "target", 4, 6, "Fluency", "Minor"], ["B", "d1", 1, "r2", "target", 2, 5, "Accuracy", "Major"]]
    assert s.attrs == {"without_span": 6, "errors": 10}


def test_category_penalties_by_hand():
    p = wa.category_penalties(frame([r for r in ROWS if r[0] != "C"])).set_index(["system", "category"])
    # A has 5 ratings (its HOTW-only rating of d2/1 is not one here, unlike in scoring.rater_scores):
    # Accuracy 5 + 1, Fluency 0.1 + 1; B has 6: Non-translation 25, Accuracy 5, Source 1, Style 1 + 5
    assert p["penalty"].to_dict() == pytest.approx({("A", "Accuracy"): 6 / 5, ("A", "Fluency"): 1.1 / 5,
                                                    ("B", "Accuracy"): 5 / 6, ("B", "Non-translation"): 25 / 6,
                                                    ("B", "Source"): 1 / 6, ("B", "Style"): 1.0})
    assert p["count"].to_dict() == {("A", "Accuracy"): 2, ("A", "Fluency"): 2, ("B", "Accuracy"): 1,
                                    ("B", "Non-translation"): 1, ("B", "Source"): 1, ("B", "Style"): 2}


def test_major_weight_agreement_is_the_krippendorff_alpha_of_each_weighting():
    ab = frame([r for r in ROWS if r[0] != "C"])
    out = wa.major_weight_agreement(ab, major_weights=[1, 5], schemes=("hope",))
    assert out[["scheme", "major_to_minor"]].values.tolist() == [["mqm-major-1", 1.0], ["mqm-major-5", 5.0],
                                                                 ["hope", 4.0]]
    # units (A, B x d1/1, d1/2, d2/1), raters r1, r2; Major = 5
    r1 = [5, 0, 1, 25, 1, 1]
    r2 = [1, 0.1, 0, 5, 0, 5]
    alpha = krippendorff.alpha(reliability_data=np.array([r1, r2]), level_of_measurement="interval")
    assert out.loc[1, "alpha"] == pytest.approx(alpha, abs=1e-12)


def test_icc_by_documents_estimate_is_the_anova_formula():
    ab = frame([r for r in ROWS if r[0] != "C"])
    out = wa.icc_by_documents(ab)
    x = np.array([[5, 1], [0, 0.1], [1, 0], [25, 5], [1, 0], [1, 5]], dtype=float)
    n, k = x.shape
    msb = k * ((x.mean(axis=1) - x.mean()) ** 2).sum() / (n - 1)
    msw = ((x - x.mean(axis=1, keepdims=True)) ** 2).sum() / (n * (k - 1))
    row = out.set_index("statistic").loc["ICC(1,1)"]
    assert row["estimate"] == pytest.approx((msb - msw) / (msb + (k - 1) * msw), abs=1e-12)
    assert (out["raters_per_unit"] == 2).all()


def test_certainty_overstatement_of_one_document_is_zero():
    wide = pd.DataFrame({"A": [1.0, 2.0, 4.0], "B": [0.0, 2.0, 1.0], "C": [3.0, 3.0, 3.0]})
    out = wa.certainty_overstatement(wide, ["d", "d", "d"], n_boot=200, seed=1)
    assert out[["system_a", "system_b"]].values.tolist() == [["A", "B"], ["A", "C"], ["B", "C"]]
    # resampling the one document always draws all three segments: no spread at all
    assert out["se_documents"].tolist() == pytest.approx([0, 0, 0], abs=1e-12)
    assert (out["se_segments"] > 0).all() and out["ratio"].tolist() == pytest.approx([0, 0, 0], abs=1e-12)
