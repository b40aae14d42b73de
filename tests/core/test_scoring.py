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

from helpers.core import paths
from helpers.core.errors import InputError
from helpers.core.formats import annotations as ann
from helpers.core.formats import mqm
from helpers.core.statistics import schemes, scoring

from .mqm_quirks import PER_100_CHARS
from .mqm_quirks import ROWS as ROWS_quirks
from .mqm_quirks import write as write_quirks
from .mqm_small import EXPECTED, _three_rater_frame, run_cli, small, write
from .mqm_small import ROWS as ROWS_mqm


def frame(rows) -> pd.DataFrame:
    """rows: (system, doc, seg, rater, category, severity); line = 2 + position."""
    out = pd.DataFrame(rows, columns=["system", "doc", "doc_seg_id", "rater", "category", "severity"])
    out["global_seg_id"] = pd.array([100 + int(s) for s in out["doc_seg_id"]], dtype="Int64")
    out["line"] = range(2, len(out) + 2)
    return out


# A and B on segments 1-2 of doc d (raters r1, r2); C only on segment 1 (rater r3).
ROWS = [
    ("A", "d", 1, "r1", "Accuracy/Mistranslation", "Major"),  # 5
    ("A", "d", 1, "r1", "Fluency/Punctuation", "Minor"),  # 0.1   -> r1: 5.1, 2 errors
    ("A", "d", 1, "r2", "No-error", "No-error"),  # r2: 0, 0 errors
    ("A", "d", 2, "r1", "Style/Awkward", "Minor"),  # 1
    ("A", "d", 2, "r1", "Found", "HOTW-test"),  # left out -> r1: 1, 1 error
    ("A", "d", 2, "r2", "Style/Awkward", "Major"),  # r2: 5
    ("B", "d", 1, "r1", "Non-translation!", "Major"),  # 25
    ("B", "d", 1, "r2", "Accuracy/Omission", "Minor"),  # 1
    ("B", "d", 2, "r1", "No-error", "No-error"),  # 0
    ("B", "d", 2, "r2", "Missed", "HOTW-test"),  # HOTW only: rated, penalty 0
    ("C", "d", 1, "r3", "Accuracy/Omission", "Minor"),  # 1
]


def test_rater_scores_by_hand():
    r = scoring.rater_scores(frame(ROWS))
    assert list(r.columns) == ["system", "doc", "doc_seg_id", "global_seg_id", "rater", "penalty", "errors"]
    assert r[["system", "doc_seg_id", "rater"]].values.tolist() == [
        ["A", 1, "r1"],
        ["A", 1, "r2"],
        ["A", 2, "r1"],
        ["A", 2, "r2"],
        ["B", 1, "r1"],
        ["B", 1, "r2"],
        ["B", 2, "r1"],
        ["B", 2, "r2"],
        ["C", 1, "r3"],
    ]
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
    assert scoring.segment_counts(r) == scoring.SegmentCounts(kept=1, dropped=1)
    assert str(common["raters"].dtype) == "Int64" and common.index.tolist() == [0, 1, 2]
    every = scoring.system_scores(r, common=False)
    assert every["system"].tolist() == ["C", "A", "B"]
    assert every["score"].tolist() == pytest.approx([1.0, 2.775, 6.5]) and every["segments"].tolist() == [1, 2, 2]
    assert scoring.segment_counts(r, common=False) == scoring.SegmentCounts(kept=2, dropped=0)
    assert scoring.segment_counts(seg) == scoring.SegmentCounts(kept=1, dropped=1)  # segment-level input too
    from_segments = scoring.system_scores(seg, common=False)  # segment-level input: no raters known
    assert from_segments["score"].tolist() == pytest.approx([1.0, 2.775, 6.5])
    assert from_segments["raters"].isna().all() and str(from_segments["raters"].dtype) == "Int64"


def test_scored_segments_by_hand():
    """The segment scores of ROWS (mean of the raters' penalties): A 1 (5.1 + 0)/2 = 2.55, A 2 (1 + 5)/2
    = 3, B 1 (25 + 1)/2 = 13, B 2 (0 + 0)/2 = 0, C 1 (one rater) 1. Common: only segment 1 has all three
    systems, so A 2.55, B 13, C 1, each the system score system_scores gives."""
    r = scoring.rater_scores(frame(ROWS))
    common = scoring.scored_segments(r)
    assert list(common.columns) == scoring.SEGMENT_COLUMNS
    assert common.values.tolist() == [["A", "d", 1, 2, 2.55], ["B", "d", 1, 2, 13.0], ["C", "d", 1, 1, 1.0]]
    every = scoring.scored_segments(r, common=False)
    assert every[["system", "segment", "n_raters"]].values.tolist() == [
        ["A", 1, 2],
        ["A", 2, 2],
        ["B", 1, 2],
        ["B", 2, 2],
        ["C", 1, 1],
    ]
    assert every["score"].tolist() == pytest.approx([2.55, 3.0, 13.0, 0.0, 1.0])
    assert every.groupby("system")["score"].mean().tolist() == pytest.approx([2.775, 6.5, 1.0])


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
    with pytest.raises(
        InputError, match=r"system 'A', document 'd', segment 2 has 1 rater\(s\); the design needs 2"
    ) as e:
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
                rows.append(
                    {
                        "system": "S" if u % 2 else "T",
                        "doc": docs[u] if docs else f"d{u // 2}",
                        "doc_seg_id": u,
                        "global_seg_id": u,
                        "rater": rater,
                        "penalty": v,
                        "errors": 1,
                    }
                )
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
        (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n), abs=1e-12
    )
    assert overall.loc["ICC(A,k)", "estimate"] == pytest.approx((msr - mse) / (msr + (msc - mse) / n), abs=1e-12)
    # Shrout & Fleiss 1979 Table 4: ICC(1,1) = .17, ICC(2,1) = .29, ICC(1,4) = .44, ICC(2,4) = .62
    assert [round(overall.loc[s, "estimate"], 2) for s in ("ICC(1,1)", "ICC(A,1)", "ICC(1,k)", "ICC(A,k)")] == [
        0.17,
        0.29,
        0.44,
        0.62,
    ]
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
    alpha = krippendorff.alpha(
        reliability_data=np.array([[1, 4, 3, 7, 2], [2, 6, 3, 5, 4], [np.nan] * 4 + [9]]),
        level_of_measurement="interval",
    )
    assert table.loc["alpha", "estimate"] == pytest.approx(alpha, abs=1e-12)


def test_alpha_interval_resamples_whole_documents():
    # one document: every bootstrap draw takes all its units, so the interval is the estimate itself
    table = scoring.score_agreement(_ratings(X, docs=["d"] * 6), n_boot=50, seed=3).set_index(["scope", "statistic"])
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
        scoring.score_agreement(r, ci=96.0)
    )


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


@pytest.mark.parametrize("scheme", ["mqm", "marot"])
def test_system_scores_hand_computed(small, scheme):
    ratings = scoring.rater_scores(mqm.read_mqm(small), scheme)
    table = scoring.system_scores(ratings)
    assert list(table.columns) == scoring.SYSTEM_COLUMNS
    assert dict(zip(table["system"], table["score"])) == pytest.approx(EXPECTED[scheme])
    assert table["segments"].tolist() == [2, 2] and table["raters"].tolist() == [2, 2]
    assert scoring.segment_counts(ratings) == scoring.SegmentCounts(kept=2, dropped=1)


def test_all_segments_and_rater_level_scores(small):
    ratings = scoring.rater_scores(mqm.read_mqm(small), "mqm")
    b1 = ratings[(ratings["system"] == "B") & (ratings["doc_seg_id"] == 1)].set_index("rater")
    assert b1["penalty"].to_dict() == {"r1": 5.0, "r2": 0.0}  # r2's HOTW row adds nothing but r2 rated it
    assert b1["errors"].to_dict() == {"r1": 1, "r2": 1}  # the Neutral row is an error mark, HOTW is not
    every = scoring.system_scores(ratings, common=False).set_index("system")["score"]
    assert every["A"] == pytest.approx((3.05 + 12.5 + 5) / 3)


def test_uncovered_annotation_is_an_error_naming_it_and_where(tmp_path):
    path = write(tmp_path / "n.tsv", ROWS_mqm)
    frame = mqm.read_mqm(path)
    with pytest.raises(InputError) as err:
        scoring.rater_scores(frame, "hope", file=path)
    e = err.value
    assert "Neutral" in str(e) and "Style/Awkward" in str(e) and e.row == 9 and e.file == path


def test_a_users_yaml_scheme(tmp_path, small):
    yml = tmp_path / "mine.yml"
    yml.write_text(
        "name: flat\ncitation: my lab's convention\nrules:\n"
        "  - {name: any, pattern: '^(minor|major|neutral|critical):', weight: 1}\n"
        "  - {name: nontrans, pattern: 'non.translation', weight: 3}\n"
    )
    table = scoring.system_scores(scoring.rater_scores(mqm.read_mqm(small), str(yml)))
    # A: seg1 (2 + 1)/2, seg2 (0 + 1)/2 ('major:non-translation!' hits the first rule) -> 1.0; B: (1+1)/2, (1+0)/2
    assert dict(zip(table["system"], table["score"])) == pytest.approx({"A": 1.0, "B": 0.75})
    bad = tmp_path / "bad.yml"
    bad.write_text("name: x\nrules: [{pattern: 'minor:', weight: -1}]\n")
    with pytest.raises(InputError, match="lacks \\['citation'\\]"):
        schemes.load_scheme(str(bad))
    bad.write_text("name: x\ncitation: c\nrules: [{pattern: 'minor:', weight: -1}]\n")
    with pytest.raises(InputError, match="weight must be a number >= 0"):
        schemes.load_scheme(str(bad))
    with pytest.raises(InputError, match="neither a built-in"):
        schemes.load_scheme("nonesuch")


def test_check_raters(small):
    frame = mqm.read_mqm(small)
    with pytest.raises(InputError) as err:
        scoring.check_raters(frame, "all", file=small)
    assert err.value.value == "r2" and err.value.row == 7 and err.value.column == "rater"  # A, segment 3
    with pytest.raises(InputError, match="has 1 rater"):
        scoring.check_raters(frame, 2, file=small)
    scoring.check_raters(frame[frame["doc_seg_id"] < 3], "all")
    scoring.check_raters(frame[frame["doc_seg_id"] < 3], 2)


def test_alpha_equals_the_krippendorff_package_and_icc_the_anova_formula(tmp_path):
    path = write(tmp_path / "three.tsv", _three_rater_frame())
    ratings = scoring.rater_scores(mqm.read_mqm(path), "mqm")
    table = scoring.score_agreement(ratings, n_boot=200, seed=1)
    assert list(table.columns) == scoring.AGREEMENT_COLUMNS
    wide = ratings.pivot_table(index=["system", "doc", "doc_seg_id"], columns="rater", values="penalty")
    alpha = krippendorff.alpha(reliability_data=wide.to_numpy().T, level_of_measurement="interval")
    row = table[(table["scope"] == "overall") & (table["statistic"] == "alpha")].iloc[0]
    assert row["estimate"] == pytest.approx(alpha, abs=1e-12) and row["n"] == 60
    assert row["ci_low"] < row["estimate"] < row["ci_high"]
    # ICC(1,1) = (MSB - MSW) / (MSB + (k - 1) MSW), one-way ANOVA over units (Shrout & Fleiss 1979)
    values = np.sort(np.where(np.isnan(wide.to_numpy()), np.inf, wide.to_numpy()), axis=1)[:, :3]
    n, k = values.shape
    msb = k * ((values.mean(axis=1) - values.mean()) ** 2).sum() / (n - 1)
    msw = ((values - values.mean(axis=1, keepdims=True)) ** 2).sum() / (n * (k - 1))
    icc = table[(table["scope"] == "overall") & (table["statistic"] == "ICC(1,1)")].iloc[0]
    assert icc["estimate"] == pytest.approx((msb - msw) / (msb + (k - 1) * msw), abs=1e-9)
    per_system = table[table["scope"] == "S1"].set_index("statistic")
    assert set(per_system.index) == {"alpha", "ICC(1,1)", "ICC(1,k)"} and (per_system["n"] == 30).all()


def test_agreement_needs_two_raters(tmp_path):
    path = write(tmp_path / "one.tsv", [r for r in ROWS_mqm if r[4] == "r1"])
    with pytest.raises(InputError, match="no segment has two or more raters"):
        scoring.score_agreement(scoring.rater_scores(mqm.read_mqm(path), "mqm"))


def test_pool_pairings_in_scores(tmp_path):
    rows = [
        ["X_with_refA", "d", 1, 1, "r1", "s", "t", "Accuracy/Mistranslation", "Major"],
        ["X_with_ONLINE-W", "d", 1, 1, "r2", "s", "t", "No-error", "No-error"],
        ["refA_with_X", "d", 1, 1, "r3", "s", "t", "Style/Awkward", "Minor"],
    ]
    frame = mqm.read_mqm(write(tmp_path / "sxs.tsv", rows))
    kept = scoring.system_scores(scoring.rater_scores(frame, "mqm"))
    assert set(kept["system"]) == {"X_with_refA", "X_with_ONLINE-W", "refA_with_X"}
    pooled = scoring.system_scores(scoring.rater_scores(ann.pool_pairings(frame), "mqm")).set_index("system")
    assert pooled.loc["X", "score"] == 2.5 and pooled.loc["X", "raters"] == 2  # (5 + 0) / 2 raters
    # one rater in both pairings gave two ratings of the segment: (5 + 0) / 2, not 5 + 0 under one rating
    both = [
        ["X_with_refA", "d", 1, 1, "r1", "s", "t", "Accuracy/Mistranslation", "Major"],
        ["X_with_ONLINE-W", "d", 1, 1, "r1", "s", "t", "No-error", "No-error"],
    ]
    frame = mqm.read_mqm(write(tmp_path / "both.tsv", both))
    pooled = scoring.system_scores(scoring.rater_scores(ann.pool_pairings(frame), "mqm")).set_index("system")
    assert pooled.loc["X", "score"] == 2.5


#: Side-by-side pairings: two raters; r1 rated X's segment 1 beside Y and again beside Z.
SXS = [
    ["X_with_Y", "d", 1, 1, "r1", "s", "t", "Accuracy/Mistranslation", "Major"],  # r1 beside Y: 5
    ["X_with_Z", "d", 1, 1, "r1", "s", "t", "No-error", "No-error"],  # r1 beside Z: 0 -> r1 2.5
    ["X_with_Y", "d", 1, 1, "r2", "s", "t", "Style/Awkward", "Minor"],  # r2: 1
    ["X_with_Y", "e", 1, 2, "r1", "s", "t", "No-error", "No-error"],  # 0
    ["X_with_Y", "e", 1, 2, "r2", "s", "t", "Accuracy/Omission", "Major"],  # 5
    ["Y_with_X", "d", 1, 1, "r1", "s", "t", "Style/Awkward", "Minor"],  # 1
    ["Y_with_X", "d", 1, 1, "r2", "s", "t", "Style/Awkward", "Minor"],
    ["Y_with_X", "d", 1, 1, "r2", "s", "t", "Fluency/Grammar", "Minor"],  # 2
    ["Y_with_X", "e", 1, 2, "r1", "s", "t", "No-error", "No-error"],  # 0
    ["Y_with_X", "e", 1, 2, "r2", "s", "t", "Accuracy/Omission", "Major"],
]  # 5


def test_pooling_pairings_never_multiplies_raters(tmp_path, capsys):
    """Two raters stay two after pooling (not r1@Y, r1@Z, r2@Y, ...): a rater's ratings of one
    segment in two pairings are averaged, and α is the krippendorff package's on the 4 pooled
    units × 2 raters."""
    path = write(tmp_path / "sxs.tsv", SXS)
    pooled = ann.pool_pairings(mqm.read_mqm(path))
    assert pooled["rater"].nunique() == 2
    ratings = scoring.rater_scores(pooled, "mqm")
    assert len(ratings) == 8 and ratings["rater"].nunique() == 2
    by = ratings.set_index(["system", "doc", "rater"])["penalty"]
    assert by[("X", "d", "r1")] == 2.5 and by[("Y", "d", "r2")] == 2.0
    table = scoring.system_scores(ratings).set_index("system")
    assert table.loc["X", "raters"] == 2 and table.loc["X", "score"] == pytest.approx((2.5 + 1) / 2 / 2 + 5 / 2 / 2)
    expected = krippendorff.alpha(reliability_data=[[2.5, 0, 1, 0], [1, 5, 2, 5]], level_of_measurement="interval")
    out_csv = tmp_path / "agreement.csv"
    code, out, _ = run_cli(capsys, "agreement", path, "--pool-pairings", "--out", out_csv, "--n-boot", "100")
    row = pd.read_csv(out_csv).query("scope == 'overall' and statistic == 'alpha'").iloc[0]
    assert row["estimate"] == pytest.approx(expected) and row["n"] == 4
    assert "pairings pooled" in out
    code, out, _ = run_cli(capsys, "agreement", path, "--n-boot", "100")
    assert "pairings kept apart" in out
    code, out, _ = run_cli(capsys, "agreement", write(tmp_path / "plain.tsv", _three_rater_frame()), "--n-boot", "100")
    assert "no side-by-side pairings" in out


# --------------------------------------------------------------------------- Marot's and the organisers' features


def test_source_chars_count_as_marot_counts():
    """Marot's srcLen: the source with <v></v> removed, every character, JavaScript's length."""
    # by hand: "abc" 3; "a b" 3 (the space counts); "" 0; é 1 + 😀 2 (outside the BMP: a UTF-16 pair)
    got = scoring.source_chars(pd.Series(["ab<v>c</v>", "a b", "<v></v>", "é😀"]))
    assert got.tolist() == [3, 3, 0, 3]


def test_source_chars_equal_the_lengths_the_2023_file_records():
    """WMT 2023's file records num_source_chars in some rows' segment metadata (Marot's own count)."""
    path = paths.released_file(
        "google/wmt-mqm-human-evaluation", "generalMT2023/zhen/sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz"
    )
    frame = mqm.read_mqm(path, columns=["system", "doc", "doc_seg_id", "source", "metadata"])
    recorded = pd.Series([m.get("segment", {}).get("num_source_chars") for m in ann.parse_metadata(frame)])
    has = recorded.notna().to_numpy()
    assert has.sum() > 3000
    assert (scoring.source_chars(frame["source"][has]) == recorded[has].astype(int).to_numpy()).all()


def test_per_100_source_characters(tmp_path, capsys):
    path = write_quirks(tmp_path / "c.tsv", ROWS_quirks)
    frame = mqm.read_mqm(path)
    table = scoring.system_scores(scoring.rater_scores(frame), per_100_chars=True)
    assert dict(zip(table["system"], table["score"])) == pytest.approx(PER_100_CHARS)
    with pytest.raises(InputError, match="needs the source texts"):
        scoring.system_scores(scoring.rater_scores(frame.drop(columns="source")), per_100_chars=True)
    out_csv = tmp_path / "s.csv"
    code, out, _ = run_cli(capsys, "scores", path, "--per-100-chars", "--out", out_csv)
    assert code == 0 and "scores per 100 source characters" in out.splitlines()[0]
    written = pd.read_csv(out_csv)
    assert list(written.columns) == scoring.SYSTEM_COLUMNS
    assert dict(zip(written["system"], written["score"])) == pytest.approx(PER_100_CHARS)


def test_document_bootstrap_intervals(tmp_path, capsys):
    """Two documents of one segment each per system: a resample draws d1 twice, d2 twice, or
    both, so with many resamples the 95% interval runs from one document's score to the other's."""
    rows = [
        ["A", "d1", 1, 1, "r1", "s", "t", "Style/Awkward", "Minor", ""],
        ["A", "d2", 1, 2, "r1", "s", "t", "Accuracy/Omission", "Major", ""],
        ["B", "d1", 1, 1, "r1", "s", "t", "No-error", "No-error", ""],
        ["B", "d2", 1, 2, "r1", "s", "t", "No-error", "No-error", ""],
    ]
    path = write_quirks(tmp_path / "b.tsv", rows)
    ratings = scoring.rater_scores(mqm.read_mqm(path))
    table = scoring.system_scores(ratings, ci=95, n_boot=2000, seed=1).set_index("system")
    assert list(table.reset_index().columns) == scoring.SYSTEM_COLUMNS + ["ci_low", "ci_high"]
    assert table.loc["A", ["score", "ci_low", "ci_high"]].tolist() == pytest.approx([3.0, 1.0, 5.0])
    assert table.loc["B", ["score", "ci_low", "ci_high"]].tolist() == [0.0, 0.0, 0.0]
    again = scoring.system_scores(ratings, ci=90, n_boot=50, seed=7)
    assert again.equals(scoring.system_scores(ratings, ci=90, n_boot=50, seed=7))  # seeded
    out_csv = tmp_path / "ci.csv"
    code, out, _ = run_cli(capsys, "scores", "--ci", path, "--n-boot", "2000", "--seed", "1", "--out", out_csv)
    assert code == 0 and "ci: 95% percentile interval over 2000 resamples of whole documents (seed 1)" in out
    written = pd.read_csv(out_csv).set_index("system")
    assert written.loc["A", ["ci_low", "ci_high"]].tolist() == pytest.approx([1.0, 5.0])
    code, out, _ = run_cli(capsys, "scores", path, "--ci", "--ci-level", "40", "--n-boot", "2000", "--seed", "1")
    assert code == 0 and "ci: 40% percentile interval" in out  # 30th-70th percentile: 'both documents' (3) in 1/2
    line = next(r for r in out.splitlines() if r.strip().startswith("A "))
    assert line.split()[-2:] == ["3.000", "3.000"]
