"""Unit tests of helpers.core.book.mqm_commands: the ``mqm`` commands (scores, agreement, weights, export)
as a user runs them."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest

from helpers.core.formats import mqm
from helpers.core.statistics import scoring

from .mqm_quirks import ROWS as ROWS_quirks
from .mqm_quirks import SCORES
from .mqm_quirks import write as write_quirks
from .mqm_small import EXPECTED, ROWS, _three_rater_frame, run_cli, small, write


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


@pytest.mark.parametrize(
    "bad_row, extra, needle",
    [
        (["A", "d", 9, 9, "r1", "s", "t", "Accuracy"], [], "row 13, column 'severity'"),
        (["A", "d", 9, 9, "r1", "s", "t", "Accuracy", "Huge"], [], "row 13, column 'severity': value 'Huge'"),
        (["A", "d", "nine", 9, "r1", "s", "t", "Accuracy", "Major"], [], "row 13, column 'doc_id': value 'nine'"),
        ([], ["--raters-per-segment", "all"], "row 7, column 'rater': value 'r2'"),
        ([], ["--weights", "hope"], "row 9, column 'severity'"),
    ],
)
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


def test_cli_scores_imports_no_heavy_library(small):
    """`mqm scores` stays quick: neither the studies nor torch, plotly or transformers load."""
    code = (
        "import sys; from helpers.__main__ import main; main(['mqm', 'scores', sys.argv[1]]); "
        "heavy = [m for m in ('torch', 'plotly', 'transformers', 'sklearn', 'helpers.metahope', "
        "'helpers.explanations', 'helpers.slang', 'pingouin') if m in sys.modules]; print('HEAVY', heavy)"
    )
    done = subprocess.run([sys.executable, "-c", code, str(small)], capture_output=True, text=True)
    assert done.returncode == 0 and "HEAVY []" in done.stdout, done.stdout + done.stderr


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # pingouin: these units have equal means (MSB 0)
def test_agreement_on_a_system_too_small_for_an_icc(tmp_path, capsys):
    """A system with one doubly rated segment has no ICC: NaN rows, not a traceback, and
    the other rows are still written."""
    rows = [
        [
            s,
            "d",
            k,
            k,
            r,
            "s",
            "t",
            "Accuracy/Mistranslation" if (k + len(r)) % 2 else "No-error",
            "Major" if (k + len(r)) % 2 else "No-error",
        ]
        for s, n in (("A", 3), ("B", 1))
        for k in range(1, n + 1)
        for r in ("r1", "rr2")
    ]
    path = write(tmp_path / "tiny.tsv", rows)
    out = tmp_path / "ag.csv"
    code, _, err = run_cli(capsys, "agreement", path, "--out", out)
    assert code == 0, err
    table = pd.read_csv(out)
    b = table[(table["scope"] == "B") & table["statistic"].str.startswith("ICC")]
    assert len(b) and b["estimate"].isna().all() and (b["n"] == 1).all()


#: WMT24's files open with a 'canary' document (a test string); its rows read like any others.
CANARY = [
    ["A", "canary", 1, 1, "r1", "canary string", "canary string", "No-error", "No-error", ""],
    ["B", "canary", 1, 1, "r1", "canary string", "canary string", "Accuracy/Mistranslation", "Major", ""],
]


def test_the_canary_document_is_dropped_counted_and_reported(tmp_path, capsys):
    """The organisers' reader (wmt24-news-systems humeval/tools.py) drops doc == 'canary';
    read as a segment, it shifted every system score (B's by 5/4 here) and the segment count."""
    path = write_quirks(tmp_path / "c.tsv", CANARY + ROWS_quirks)
    read = mqm.read_mqm_file(path)
    frame = read.frame
    assert "canary" not in set(frame["doc"]) and len(frame) == len(ROWS_quirks)
    assert read.dropped == {"canary": 2, "metadata_only": 0}
    assert read.notes == [
        "dropped 2 row(s) of the 'canary' document (WMT24's test string, dropped by the organisers' reader too)"
    ]
    table = scoring.system_scores(scoring.rater_scores(frame))
    assert dict(zip(table["system"], table["score"])) == pytest.approx(SCORES)
    assert set(table["segments"]) == {3}
    code, out, _ = run_cli(capsys, "scores", path)
    assert code == 0 and "read: dropped 2 row(s) of the 'canary' document" in out
    assert "2 systems, 3 segments rated for every system" in out


def test_every_run_says_how_the_file_was_weighted(tmp_path, capsys):
    path = write_quirks(
        tmp_path / "w.tsv", ROWS_quirks + [["B", "d1", 2, 2, "r3", "defgh", "t", "Source error", "Minor", ""]]
    )
    code, out, _ = run_cli(capsys, "scores", path)
    assert code == 0
    assert (
        "weights (scheme mqm): Non-translation! (Major) 25, Source issue (Major) 0, Fluency/Punctuation (Minor) "
        "0.1, Minor 1, Source error (Minor) 1, Major 5, No-error 0"
    ) in out.splitlines()
    code, out, _ = run_cli(capsys, "scores", path, "--weights", "marot")
    assert (
        "weights (scheme marot): Fluency/Punctuation (Minor) 0.1, Source error (Minor) 0, Source issue (Major) 0, "
        "Non-translation! (Major) 25, Minor 1, Major 5, No-error 0"
    ) in out.splitlines()
    code, out, _ = run_cli(capsys, "agreement", path, "--n-boot", "10")
    assert code == 0 and any(line.startswith("weights (scheme mqm): ") for line in out.splitlines())


def test_a_segment_score_file_says_no_weights_applied(tmp_path, capsys):
    path = tmp_path / "s.avg_seg_scores.tsv"
    path.write_text("system mqm_avg_score seg_id\nA -1.5 1\n")
    code, out, _ = run_cli(capsys, "scores", path)
    assert code == 0 and "weights: none applied (the file gives its segments' scores)" in out


def test_no_interval_without_documents(tmp_path, capsys):
    """A per-segment score file names no documents: one 'document' would give a zero-width interval."""
    path = tmp_path / "s.avg_seg_scores.tsv"
    path.write_text("system mqm_avg_score seg_id\nA -1.5 1\nA -0.5 2\nB -1 1\nB -2 2\n")
    code, out, err = run_cli(capsys, "scores", path, "--ci")
    assert code != 0 and "an interval resamples whole documents, and these segments name none" in err


def test_segment_export(tmp_path, capsys):
    path = write_quirks(
        tmp_path / "e.tsv", ROWS_quirks + [["A", "d3", 1, 4, "r1", "x", "t", "Style/Awkward", "Major", ""]]
    )
    seg_csv = tmp_path / "seg.csv"
    code, out, _ = run_cli(capsys, "scores", path, "--segments", seg_csv)
    assert code == 0 and f"written: {seg_csv}" in out
    seg = pd.read_csv(seg_csv)
    assert list(seg.columns) == scoring.SEGMENT_COLUMNS == ["system", "doc", "segment", "n_raters", "score"]
    assert seg.values.tolist() == [
        ["A", "d1", 1, 2, 3.0],
        ["A", "d1", 2, 2, 0.05],
        ["A", "d2", 1, 2, 1.0],
        ["B", "d1", 1, 2, 2.5],
        ["B", "d1", 2, 2, 0.0],
        ["B", "d2", 1, 2, 15.0],
    ]
    assert seg.groupby("system")["score"].mean().to_dict() == pytest.approx(SCORES)  # d3 (A only) is not used
    code, out, _ = run_cli(capsys, "scores", path, "--all-segments", "--segments", seg_csv)
    assert len(pd.read_csv(seg_csv)) == 7
