"""MQM scoring on hand-computed cases, the weighting schemes, agreement against reference
implementations, and the ``python -m helpers mqm`` command line."""

from __future__ import annotations

import subprocess
import sys

import krippendorff
import numpy as np
import pandas as pd
import pytest

from helpers import __main__ as cli
from helpers.core import annotations as ann
from helpers.core import mqm, schemes, scoring
from helpers.core.errors import InputError

HEADER = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]
# Hand-computed below, per scheme: A/B systems, segments 1-2 of doc d rated by r1 and r2,
# segment 3 only for A (so it is dropped from the common-segment scores).
ROWS = [
    ["A", "d", 1, 1, "r1", "s", "t", "Accuracy/Mistranslation", "Major"],   # mqm 5    marot 5
    ["A", "d", 1, 1, "r1", "s", "t", "Fluency/Punctuation", "Minor"],       # mqm 0.1  marot 0.1
    ["A", "d", 1, 1, "r2", "s", "t", "Style/Awkward", "minor"],             # mqm 1    marot 1
    ["A", "d", 2, 2, "r1", "s", "t", "No-error", "No-error"],               # 0
    ["A", "d", 2, 2, "r2", "s", "t", "Non-translation!", "Major"],          # 25
    ["A", "d", 3, 3, "r1", "s", "t", "Accuracy/Omission", "Major"],         # 5 (segment only A has)
    ["B", "d", 1, 1, "r1", "s", "t", "Source error", "Major"],              # mqm 5    marot 0
    ["B", "d", 1, 1, "r2", "s", "t", "Style/Awkward", "Neutral"],           # 0
    ["B", "d", 1, 1, "r2", "s", "t", "Found", "HOTW-test"],                 # left out
    ["B", "d", 2, 2, "r1", "s", "t", "Accuracy/Creative Reinterpretation", "Minor"],  # mqm 0  marot 0
    ["B", "d", 2, 2, "r2", "s", "t", "No-error", "No-error"],               # 0
]
#: system -> score: A = mean(seg1 (5.1 + 1)/2 = 3.05, seg2 (0 + 25)/2 = 12.5) = 7.775 under both;
#: B = mean((5 + 0)/2, (0 + 0)/2) = 1.25 under mqm (Source error by severity, Creative Reinterpretation
#: 0), 0 under marot (Source, Creative weigh 0).
EXPECTED = {"mqm": {"A": 7.775, "B": 1.25}, "marot": {"A": 7.775, "B": 0.0}}


def write(path, rows, header=HEADER):
    path.write_text("".join("\t".join(map(str, r)) + "\n" for r in [header] + rows), encoding="utf-8")
    return path


@pytest.fixture
def small(tmp_path):
    return write(tmp_path / "small.tsv", ROWS)


@pytest.mark.parametrize("scheme", ["mqm", "marot"])
def test_system_scores_hand_computed(small, scheme):
    ratings = scoring.rater_scores(mqm.read_mqm(small), scheme)
    table = scoring.system_scores(ratings)
    assert list(table.columns) == scoring.SYSTEM_COLUMNS
    assert dict(zip(table["system"], table["score"])) == pytest.approx(EXPECTED[scheme])
    assert table["segments"].tolist() == [2, 2] and table["raters"].tolist() == [2, 2]
    assert table.attrs == {"segments_kept": 2, "segments_dropped": 1}


def test_all_segments_and_rater_level_scores(small):
    ratings = scoring.rater_scores(mqm.read_mqm(small), "mqm")
    b1 = ratings[(ratings["system"] == "B") & (ratings["doc_seg_id"] == 1)].set_index("rater")
    assert b1["penalty"].to_dict() == {"r1": 5.0, "r2": 0.0}  # r2's HOTW row adds nothing but r2 rated it
    assert b1["errors"].to_dict() == {"r1": 1, "r2": 1}  # the Neutral row is an error mark, HOTW is not
    every = scoring.system_scores(ratings, common=False).set_index("system")["score"]
    assert every["A"] == pytest.approx((3.05 + 12.5 + 5) / 3)


def test_schemes_are_cited_data_and_cover_or_refuse():
    for name in schemes.BUILT_IN:
        s = schemes.load_scheme(name)
        assert s.name == name and s.citation and s.rules
    mqm_s, marot_s = schemes.load_scheme("mqm"), schemes.load_scheme("marot")
    assert mqm_s.weight_of("Minor", "Fluency/Punctuation") == 0.1
    assert mqm_s.weight_of("Major", "Fluency/Punctuation") == 5
    assert mqm_s.weight_of("Major", "Non-translation!") == 25 and mqm_s.weight_of("Neutral", "Style") == 0
    assert mqm_s.weight_of("Minor", "Source error") == 1 and mqm_s.weight_of("No-error", "No-error") == 0
    # the 2022+ categories as the files' own tooling, Marot and the WMT24 organisers weight them
    assert mqm_s.weight_of("Major", "Source issue") == 0 and mqm_s.weight_of("Minor", "Source issue") == 0
    assert mqm_s.weight_of("Major", "Accuracy/Creative Reinterpretation") == 0
    assert mqm_s.weight_of("Critical", "Accuracy/Mistranslation") == 5
    assert marot_s.weight_of("Critical", "Accuracy") == 5 and marot_s.weight_of("Major", "Source error") == 0
    assert marot_s.weight_of("Major", "Accuracy/Creative Reinterpretation") == 0
    assert marot_s.weight_of("Trivial", "Style") == 0.1
    with pytest.raises(InputError, match="'mqm' has no weight for severity 'Moderate'"):
        mqm_s.weight_of("Moderate", "Accuracy/Mistranslation")
    with pytest.raises(InputError, match="'hope' has no weight for severity 'Neutral'"):
        schemes.load_scheme("hope").weight_of("Neutral", "Style")


def test_metahope_and_hope_schemes_are_the_book_weights():
    """One source of truth: helpers.metahope.severity.WEIGHTS is read from the core schemes."""
    from helpers.metahope.severity import SEVERITY_NAMES, WEIGHTS

    assert WEIGHTS["metahope"] == {0: 0, 2: 2, 4: 4, 6: 6, 8: 8, 10: 10}  # linear, Liang & Han 2026 §3
    assert WEIGHTS["hope"] == {0: 0, 2: 1, 4: 2, 6: 4, 8: 8, 10: 16}  # exponential, Gladkoff & Han 2022
    for name in ("hope", "metahope"):
        s = schemes.load_scheme(name)
        assert {lvl: s.weight_of(SEVERITY_NAMES[lvl].capitalize()) for lvl in (2, 4, 6, 8, 10)} == {
            lvl: WEIGHTS[name][lvl] for lvl in (2, 4, 6, 8, 10)}


def test_uncovered_annotation_is_an_error_naming_it_and_where(tmp_path):
    path = write(tmp_path / "n.tsv", ROWS)
    frame = mqm.read_mqm(path)
    with pytest.raises(InputError) as err:
        scoring.rater_scores(frame, "hope", file=path)
    e = err.value
    assert "Neutral" in str(e) and "Style/Awkward" in str(e) and e.row == 9 and e.file == path


def test_a_users_yaml_scheme(tmp_path, small):
    yml = tmp_path / "mine.yml"
    yml.write_text("name: flat\ncitation: my lab's convention\nrules:\n"
                   "  - {name: any, pattern: '^(minor|major|neutral|critical):', weight: 1}\n"
                   "  - {name: nontrans, pattern: 'non.translation', weight: 3}\n")
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


def _three_rater_frame(seed=3, n_docs=6, per_doc=5):
    """A made-up design: 2 systems, each segment rated by 3 of 5 raters, penalties 0-10."""
    rng = np.random.default_rng(seed)
    rows = []
    for system in ("S1", "S2"):
        for d in range(n_docs):
            for seg in range(1, per_doc + 1):
                quality = rng.integers(0, 4)
                for rater in rng.choice([f"r{i}" for i in range(5)], size=3, replace=False):
                    n_major = max(0, quality + rng.integers(-1, 2))
                    rows += [[system, f"doc{d}", seg, 0, rater, "s", "t", "Accuracy/Mistranslation", "Major"]] * n_major
                    if n_major == 0:
                        rows.append([system, f"doc{d}", seg, 0, rater, "s", "t", "No-error", "No-error"])
    return rows


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
    path = write(tmp_path / "one.tsv", [r for r in ROWS if r[4] == "r1"])
    with pytest.raises(InputError, match="no segment has two or more raters"):
        scoring.score_agreement(scoring.rater_scores(mqm.read_mqm(path), "mqm"))


# --------------------------------------------------------------------------- command line


def run_cli(capsys, *args):
    code = cli.main(["mqm", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_scores_writes_the_table(capsys, small, tmp_path):
    out_csv = tmp_path / "res" / "scores.csv"
    code, out, err = run_cli(capsys, "scores", small, "--weights", "marot", "--out", out_csv)
    assert code == 0 and err == ""
    assert "1 segment(s) dropped" in out
    table = pd.read_csv(out_csv)
    assert list(table.columns) == ["system", "segments", "raters", "score"]
    assert dict(zip(table["system"], table["score"])) == pytest.approx(EXPECTED["marot"])


def test_cli_agreement_writes_the_table(capsys, tmp_path):
    path = write(tmp_path / "three.tsv", _three_rater_frame())
    out_csv = tmp_path / "agreement.csv"
    code, out, err = run_cli(capsys, "agreement", path, "--out", out_csv, "--n-boot", "100")
    assert code == 0
    table = pd.read_csv(out_csv)
    assert list(table.columns) == scoring.AGREEMENT_COLUMNS and set(table["scope"]) == {"overall", "S1", "S2"}


@pytest.mark.parametrize("bad_row, extra, needle", [
    (["A", "d", 9, 9, "r1", "s", "t", "Accuracy"], [], "row 13, column 'severity'"),
    (["A", "d", 9, 9, "r1", "s", "t", "Accuracy", "Huge"], [], "row 13, column 'severity': value 'Huge'"),
    (["A", "d", "nine", 9, "r1", "s", "t", "Accuracy", "Major"], [], "row 13, column 'doc_id': value 'nine'"),
    ([], ["--raters-per-segment", "all"], "row 7, column 'rater': value 'r2'"),
    ([], ["--weights", "hope"], "row 9, column 'severity'"),
])
def test_cli_bad_input_is_one_error_line_and_nothing_written(capsys, tmp_path, bad_row, extra, needle):
    path = write(tmp_path / "bad.tsv", ROWS + ([bad_row] if bad_row else []))
    out_csv = tmp_path / "never.csv"
    code, out, err = run_cli(capsys, "scores", path, "--out", out_csv, *extra)
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]
    assert str(path) in lines[0] and "Traceback" not in err and not out_csv.exists()


def test_cli_refuses_weights_on_a_segment_score_file(capsys, tmp_path):
    path = tmp_path / "s.avg_seg_scores.tsv"
    path.write_text("system mqm_avg_score seg_id\nA -1 1\nB None 1\nB -2 2\nA -3 2\n")
    code, out, err = run_cli(capsys, "scores", path)
    assert code == 0 and "1 segment(s) dropped" in out  # segment 1 has no score for B
    code, out, err = run_cli(capsys, "scores", path, "--weights", "marot")
    assert code == 1 and err.count("error:") == 1 and "--weights does not apply" in err


def test_cli_in_a_real_process_help_and_error():
    env_cmd = [sys.executable, "-m", "helpers", "mqm"]
    helped = subprocess.run(env_cmd + ["--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "scores" in helped.stdout and "agreement" in helped.stdout
    failed = subprocess.run(env_cmd + ["scores", "/nonexistent/file.tsv"], capture_output=True, text=True)
    assert failed.returncode == 1 and failed.stderr.startswith("error: ") and "Traceback" not in failed.stderr
    assert len(failed.stderr.strip().splitlines()) == 1


def test_pool_pairings_in_scores(tmp_path):
    rows = [["X_with_refA", "d", 1, 1, "r1", "s", "t", "Accuracy/Mistranslation", "Major"],
            ["X_with_ONLINE-W", "d", 1, 1, "r2", "s", "t", "No-error", "No-error"],
            ["refA_with_X", "d", 1, 1, "r3", "s", "t", "Style/Awkward", "Minor"]]
    frame = mqm.read_mqm(write(tmp_path / "sxs.tsv", rows))
    kept = scoring.system_scores(scoring.rater_scores(frame, "mqm"))
    assert set(kept["system"]) == {"X_with_refA", "X_with_ONLINE-W", "refA_with_X"}
    pooled = scoring.system_scores(scoring.rater_scores(ann.pool_pairings(frame), "mqm")).set_index("system")
    assert pooled.loc["X", "score"] == 2.5 and pooled.loc["X", "raters"] == 2  # (5 + 0) / 2 raters
    # one rater in both pairings gave two ratings of the segment: (5 + 0) / 2, not 5 + 0 under one rating
    both = [["X_with_refA", "d", 1, 1, "r1", "s", "t", "Accuracy/Mistranslation", "Major"],
            ["X_with_ONLINE-W", "d", 1, 1, "r1", "s", "t", "No-error", "No-error"]]
    frame = mqm.read_mqm(write(tmp_path / "both.tsv", both))
    pooled = scoring.system_scores(scoring.rater_scores(ann.pool_pairings(frame), "mqm")).set_index("system")
    assert pooled.loc["X", "score"] == 2.5


#: Side-by-side pairings: two raters; r1 rated X's segment 1 beside Y and again beside Z.
SXS = [["X_with_Y", "d", 1, 1, "r1", "s", "t", "Accuracy/Mistranslation", "Major"],  # r1 beside Y: 5
       ["X_with_Z", "d", 1, 1, "r1", "s", "t", "No-error", "No-error"],                # r1 beside Z: 0 -> r1 2.5
       ["X_with_Y", "d", 1, 1, "r2", "s", "t", "Style/Awkward", "Minor"],              # r2: 1
       ["X_with_Y", "e", 1, 2, "r1", "s", "t", "No-error", "No-error"],                # 0
       ["X_with_Y", "e", 1, 2, "r2", "s", "t", "Accuracy/Omission", "Major"],          # 5
       ["Y_with_X", "d", 1, 1, "r1", "s", "t", "Style/Awkward", "Minor"],              # 1
       ["Y_with_X", "d", 1, 1, "r2", "s", "t", "Style/Awkward", "Minor"],
       ["Y_with_X", "d", 1, 1, "r2", "s", "t", "Fluency/Grammar", "Minor"],            # 2
       ["Y_with_X", "e", 1, 2, "r1", "s", "t", "No-error", "No-error"],                # 0
       ["Y_with_X", "e", 1, 2, "r2", "s", "t", "Accuracy/Omission", "Major"]]          # 5


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


def test_cli_scores_imports_no_heavy_library(small):
    """`mqm scores` stays quick: neither the studies nor torch, plotly or transformers load."""
    code = ("import sys; from helpers.__main__ import main; main(['mqm', 'scores', sys.argv[1]]); "
            "heavy = [m for m in ('torch', 'plotly', 'transformers', 'sklearn', 'helpers.metahope', "
            "'helpers.explanations', 'helpers.slang', 'pingouin') if m in sys.modules]; print('HEAVY', heavy)")
    done = subprocess.run([sys.executable, "-c", code, str(small)], capture_output=True, text=True)
    assert done.returncode == 0 and "HEAVY []" in done.stdout, done.stdout + done.stderr


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # pingouin: these units have equal means (MSB 0)
def test_agreement_on_a_system_too_small_for_an_icc(tmp_path, capsys):
    """A system with one doubly rated segment has no ICC: NaN rows, not a traceback, and
    the other rows are still written."""
    rows = [[s, "d", k, k, r, "s", "t", "Accuracy/Mistranslation" if (k + len(r)) % 2 else "No-error",
             "Major" if (k + len(r)) % 2 else "No-error"] for s, n in (("A", 3), ("B", 1))
            for k in range(1, n + 1) for r in ("r1", "rr2")]
    path = write(tmp_path / "tiny.tsv", rows)
    out = tmp_path / "ag.csv"
    code, _, err = run_cli(capsys, "agreement", path, "--out", out)
    assert code == 0, err
    table = pd.read_csv(out)
    b = table[(table["scope"] == "B") & table["statistic"].str.startswith("ICC")]
    assert len(b) and b["estimate"].isna().all() and (b["n"] == 1).all()
