"""MQM scoring and its agreement statistics pinned on frames built in memory, every number
worked out by hand or by the textbook formula (issue 21): rater penalties and error counts, the
common-segment rule, ICC(1,1)/(1,k)/(A,1)/(A,k) by the ANOVA formulas (Shrout & Fleiss 1979;
McGraw & Wong 1996) with the F-based interval, α against the krippendorff package."""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from helpers.core import annotations as ann
from helpers.core import scoring
from helpers.core.errors import InputError


def frame(rows) -> pd.DataFrame:
    """rows: (system, doc, seg, rater, category, severity); line = 2 + position."""
    out = pd.DataFrame(rows, columns=["system", "doc", "doc_seg_id", "rater", "category", "severity"])
    out["global_seg_id"] = pd.array([100 + int(s) for s in out["doc_seg_id"]], dtype="Int64")
    out["line"] = range(2, len(out) + 2)
    return out


# A and B on segments 1-2 of doc d (raters r1, r2); C only on segment 1 (rater r3).
ROWS = [
    ("A", "d", 1, "r1", "Accuracy/Mistranslation", "Major"),   # 5
    ("A", "d", 1, "r1", "Fluency/Punctuation", "Minor"),       # 0.1   -> r1: 5.1, 2 errors
    ("A", "d", 1, "r2", "No-error", "No-error"),               # r2: 0, 0 errors
    ("A", "d", 2, "r1", "Style/Awkward", "Minor"),             # 1
    ("A", "d", 2, "r1", "Found", "HOTW-test"),                 # left out -> r1: 1, 1 error
    ("A", "d", 2, "r2", "Style/Awkward", "Major"),             # r2: 5
    ("B", "d", 1, "r1", "Non-translation!", "Major"),          # 25
    ("B", "d", 1, "r2", "Accuracy/Omission", "Minor"),         # 1
    ("B", "d", 2, "r1", "No-error", "No-error"),               # 0
    ("B", "d", 2, "r2", "Missed", "HOTW-test"),                # HOTW only: rated, penalty 0
    ("C", "d", 1, "r3", "Accuracy/Omission", "Minor"),         # 1
]


def test_rater_scores_by_hand():
    r = scoring.rater_scores(frame(ROWS))
    assert list(r.columns) == ["system", "doc", "doc_seg_id", "global_seg_id", "rater", "penalty", "errors"]
    assert r[["system", "doc_seg_id", "rater"]].values.tolist() == [
        ["A", 1, "r1"], ["A", 1, "r2"], ["A", 2, "r1"], ["A", 2, "r2"], ["B", 1, "r1"], ["B", 1, "r2"],
        ["B", 2, "r1"], ["B", 2, "r2"], ["C", 1, "r3"]]
    assert r["penalty"].tolist() == pytest.approx([5.1, 0, 1, 5, 25, 1, 0, 0, 1])
    assert r["errors"].tolist() == [2, 0, 1, 1, 1, 1, 0, 0, 1] and str(r["errors"].dtype) == "int64"
    assert r["global_seg_id"].tolist() == [101, 101, 102, 102, 101, 101, 102, 102, 101]
    hope = scoring.rater_scores(frame([("A", "d", 1, "r1", "X", "Severe"), ("A", "d", 1, "r1", "X", "Minor")]), "hope")
    assert hope["penalty"].tolist() == [9.0]


def test_segment_and_system_scores_common_and_all():
    r = scoring.rater_scores(frame(ROWS))
    seg = scoring.segment_scores(r)
    assert list(seg.columns) == ["system", "doc", "doc_seg_id", "global_seg_id", "raters", "score"]
    assert seg.index.tolist() == list(range(5))
    assert seg[["system", "doc_seg_id"]].values.tolist() == [["A", 1], ["A", 2], ["B", 1], ["B", 2], ["C", 1]]
    assert seg["score"].tolist() == pytest.approx([2.55, 3.0, 13.0, 0.0, 1.0])
    assert seg["raters"].tolist() == [2, 2, 2, 2, 1] and str(seg["raters"].dtype) == "Int64"
    assert scoring.common_segments(seg).tolist() == [True, False, True, False, True]
    shifted = seg.set_axis([10, 11, 12, 13, 14])
    assert scoring.common_segments(shifted).index.tolist() == [10, 11, 12, 13, 14]
    common = scoring.system_scores(r)
    # only segment 1 is scored for all three systems: C 1, A 2.55, B 13 (lower is better)
    assert common.values.tolist() == [["C", 1, 1, 1.0], ["A", 1, 2, 2.55], ["B", 1, 2, 13.0]]
    assert common.attrs == {"segments_kept": 1, "segments_dropped": 1}
    assert str(common["raters"].dtype) == "Int64" and common.index.tolist() == [0, 1, 2]
    every = scoring.system_scores(r, common=False)
    assert every["system"].tolist() == ["C", "A", "B"]
    assert every["score"].tolist() == pytest.approx([1.0, 2.775, 6.5]) and every["segments"].tolist() == [1, 2, 2]
    assert every.attrs == {"segments_kept": 2, "segments_dropped": 0}
    from_segments = scoring.system_scores(seg, common=False)  # segment-level input: no raters known
    assert from_segments["score"].tolist() == pytest.approx([1.0, 2.775, 6.5])
    assert from_segments["raters"].isna().all() and str(from_segments["raters"].dtype) == "Int64"


def test_system_scores_break_ties_by_name():
    r = scoring.rater_scores(frame([("Z", "d", 1, "r1", "X", "Minor"), ("M", "d", 1, "r1", "X", "Minor")]))
    assert scoring.system_scores(r)["system"].tolist() == ["M", "Z"]


def test_check_raters_names_rater_unit_and_line():
    f = frame(ROWS[:10])  # A and B, both raters everywhere
    scoring.check_raters(f, "all")
    scoring.check_raters(f, 2)
    short = f.drop(index=[5]).reset_index(drop=True)  # A, segment 2 loses r2
    with pytest.raises(InputError, match=r"rater 'r2' has no row for system 'A', document 'd', segment 2") as e:
        scoring.check_raters(short, "all", file="x.tsv")
    assert e.value.row == 5 and e.value.value == "r2" and e.value.column == "rater"
    with pytest.raises(InputError, match=r"system 'A', document 'd', segment 2 has 1 rater\(s\); the design needs 2") as e:
        scoring.check_raters(short, "2")
    assert e.value.row == 5 and e.value.value == 1 and e.value.column == "rater"
    with pytest.raises(InputError) as e:
        scoring.check_raters(short, 2, file="x.tsv")
    assert str(e.value.file).endswith("x.tsv")
    # two short units: the first in the file is named, not the first in sorted order
    later = pd.concat([short[short["system"] == "B"], short[short["system"] == "A"]], ignore_index=True)
    later = later[~((later["system"] == "B") & (later["doc_seg_id"] == 1) & (later["rater"] == "r2"))]
    for design in ("all", 2):
        with pytest.raises(InputError, match=r"system 'B', document 'd', segment 1"):
            scoring.check_raters(later, design)
    with pytest.raises(InputError) as e:
        scoring.check_raters(short.drop(columns="line"), 2)
    assert e.value.row is None


def _ratings(matrix, raters=None, docs=None):
    """A rater_scores-like frame of a units x raters penalty matrix (NaN = not rated)."""
    matrix = np.asarray(matrix, dtype=float)
    rows = []
    for u, values in enumerate(matrix):
        for j, v in enumerate(values):
            if not np.isnan(v):
                rater = raters[u][j] if raters is not None else f"r{j}"
                rows.append({"system": "S" if u % 2 else "T", "doc": docs[u] if docs else f"d{u // 2}",
                             "doc_seg_id": u, "global_seg_id": u, "rater": rater, "penalty": v, "errors": 1})
    return pd.DataFrame(rows)


def _anova(x):
    n, k = x.shape
    grand = x.mean()
    msr = k * ((x.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    msc = n * ((x.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    msw = ((x - x.mean(axis=1, keepdims=True)) ** 2).sum() / (n * (k - 1))
    sse = ((x - x.mean(axis=1, keepdims=True) - x.mean(axis=0) + grand) ** 2).sum()
    mse = sse / ((n - 1) * (k - 1))
    return n, k, msr, msc, msw, mse


X = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], dtype=float)


def test_icc_forms_against_the_anova_formulas_crossed_raters():
    """Shrout & Fleiss's 6 x 4 example (Table 2): every unit has the same four raters."""
    table = scoring.score_agreement(_ratings(X), n_boot=20, seed=0).set_index(["scope", "statistic"])
    n, k, msr, msc, msw, mse = _anova(X)
    overall = table.loc["overall"]
    assert overall.loc["ICC(1,1)", "estimate"] == pytest.approx((msr - msw) / (msr + (k - 1) * msw), abs=1e-12)
    assert overall.loc["ICC(1,k)", "estimate"] == pytest.approx((msr - msw) / msr, abs=1e-12)
    assert overall.loc["ICC(A,1)", "estimate"] == pytest.approx(
        (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n), abs=1e-12)
    assert overall.loc["ICC(A,k)", "estimate"] == pytest.approx((msr - mse) / (msr + (msc - mse) / n), abs=1e-12)
    # Shrout & Fleiss 1979 Table 4: ICC(1,1) = .17, ICC(2,1) = .29, ICC(1,4) = .44, ICC(2,4) = .62
    assert [round(overall.loc[s, "estimate"], 2) for s in ("ICC(1,1)", "ICC(A,1)", "ICC(1,k)", "ICC(A,k)")] == [
        0.17, 0.29, 0.44, 0.62]
    # the F-based 95 % interval of ICC(1,1) (Shrout & Fleiss 1979, eq. for Case 1), to pingouin's two decimals
    f = msr / msw
    fl, fu = f / sps.f.ppf(0.975, n - 1, n * (k - 1)), f * sps.f.ppf(0.975, n * (k - 1), n - 1)
    assert overall.loc["ICC(1,1)", "ci_low"] == pytest.approx((fl - 1) / (fl + k - 1), abs=0.005)
    assert overall.loc["ICC(1,1)", "ci_high"] == pytest.approx((fu - 1) / (fu + k - 1), abs=0.005)
    assert (overall["n"] == 6).all()
    alpha = krippendorff.alpha(reliability_data=X.T, level_of_measurement="interval")
    assert overall.loc["alpha", "estimate"] == pytest.approx(alpha, abs=1e-12)
    # scopes: overall, then systems in sorted order, each with α and the four ICCs (3 units each)
    assert list(dict.fromkeys(table.index.get_level_values(0))) == ["overall", "S", "T"]
    assert table.loc["S"].index.tolist() == ["alpha", "ICC(1,1)", "ICC(1,k)", "ICC(A,1)", "ICC(A,k)"]
    assert (table.loc["S", "n"] == 3).all()


def test_icc_with_raters_nested_in_units_is_one_way_only():
    # each unit its own pair of raters; one unit with three raters is left out of the ICC (k = 2 is the mode)
    x = np.array([[1, 2, np.nan], [4, 6, np.nan], [3, 3, np.nan], [7, 5, np.nan], [2, 4, 9]])
    raters = [("a", "b", None), ("c", "d", None), ("e", "f", None), ("g", "h", None), ("i", "j", "k")]
    table = scoring.score_agreement(_ratings(x, raters), n_boot=20).set_index(["scope", "statistic"]).loc["overall"]
    assert table.index.tolist() == ["alpha", "ICC(1,1)", "ICC(1,k)"]
    n, k, msr, _, msw, _ = _anova(x[:4, :2])
    assert table.loc["ICC(1,1)", "estimate"] == pytest.approx((msr - msw) / (msr + (k - 1) * msw), abs=1e-12)
    assert table.loc["ICC(1,1)", "n"] == 4 and table.loc["alpha", "n"] == 5
    alpha = krippendorff.alpha(reliability_data=np.array([[1, 4, 3, 7, 2], [2, 6, 3, 5, 4], [np.nan] * 4 + [9]]),
                               level_of_measurement="interval")
    assert table.loc["alpha", "estimate"] == pytest.approx(alpha, abs=1e-12)


def test_alpha_interval_resamples_whole_documents():
    # one document: every bootstrap draw takes all its units, so the interval is the estimate itself
    table = scoring.score_agreement(_ratings(X, docs=["d"] * 6), n_boot=50, seed=3).set_index(
        ["scope", "statistic"])
    row = table.loc[("overall", "alpha")]
    assert row["ci_low"] == pytest.approx(row["estimate"], abs=1e-12)
    assert row["ci_high"] == pytest.approx(row["estimate"], abs=1e-12)


def test_agreement_of_a_unit_with_one_rater_only_is_an_error():
    with pytest.raises(InputError) as e:
        scoring.score_agreement(_ratings([[1.0, np.nan], [np.nan, 2.0]]), file="f.tsv")
    assert e.value.column == "rater" and str(e.value.file).endswith("f.tsv")
    assert str(e.value).endswith(": no segment has two or more raters, so there is no agreement to measure")


def test_agreement_defaults_and_seed():
    m = np.random.default_rng(2).integers(0, 10, (24, 3)).astype(float)
    r = _ratings(m, docs=[f"d{u}" for u in range(24)])  # 24 documents: the draws show in the interval
    default = scoring.score_agreement(r)
    assert default.equals(scoring.score_agreement(r, n_boot=1000, seed=0, ci=95.0))  # the documented defaults
    assert not default.equals(scoring.score_agreement(r, n_boot=1000, seed=1, ci=95.0))
    assert not default.equals(scoring.score_agreement(r, n_boot=1001)) and not default.equals(
        scoring.score_agreement(r, ci=96.0))


def test_icc_of_too_few_units_is_nan_and_two_units_are_enough():
    # _ratings puts even units in system T, odd ones in S: S has one unit with two raters (NaN
    # rows), T two units with the same three raters (6 values: pingouin's minimum is 5)
    m = np.array([[1.0, 4.0, 2.0], [2.0, 2.0, np.nan], [5.0, 3.0, 6.0]])
    table = scoring.score_agreement(_ratings(m), n_boot=20).set_index(["scope", "statistic"])
    s = table.loc["S"]
    assert s.index.tolist() == ["alpha", "ICC(1,1)", "ICC(1,k)", "ICC(A,1)", "ICC(A,k)"]
    assert s.drop(index="alpha")[["estimate", "ci_low", "ci_high"]].isna().all().all()
    assert (s.drop(index="alpha")["n"] == 1).all()
    n, k, msr, _, msw, _ = _anova(m[[0, 2]])
    t = table.loc["T"]
    assert t.loc["ICC(1,1)", "estimate"] == pytest.approx((msr - msw) / (msr + (k - 1) * msw), abs=1e-12)
    assert t.loc["ICC(1,1)", "n"] == 2


def test_hotw_rows_are_left_out_of_the_weights():
    w = scoring.load_scheme("mqm").weights(frame([("A", "d", 1, "r1", "Found", ann.HOTW)]))
    assert w.isna().all()
