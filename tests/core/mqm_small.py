"""A small WMT-layout MQM file (two systems, two raters, a segment rated for one system only) with its
scores worked out by hand, shared by test_scoring.py and test_mqm_commands.py."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import __main__ as cli
from helpers.core.formats import mqm

HEADER = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]


# Hand-computed below, per scheme: A/B systems, segments 1-2 of doc d rated by r1 and r2,
# segment 3 only for A (so it is dropped from the common-segment scores).
ROWS = [
    ["A", "d", 1, 1, "r1", "s", "t", "Accuracy/Mistranslation", "Major"],  # mqm 5    marot 5
    ["A", "d", 1, 1, "r1", "s", "t", "Fluency/Punctuation", "Minor"],  # mqm 0.1  marot 0.1
    ["A", "d", 1, 1, "r2", "s", "t", "Style/Awkward", "minor"],  # mqm 1    marot 1
    ["A", "d", 2, 2, "r1", "s", "t", "No-error", "No-error"],  # 0
    ["A", "d", 2, 2, "r2", "s", "t", "Non-translation!", "Major"],  # 25
    ["A", "d", 3, 3, "r1", "s", "t", "Accuracy/Omission", "Major"],  # 5 (segment only A has)
    ["B", "d", 1, 1, "r1", "s", "t", "Source error", "Major"],  # mqm 5    marot 0
    ["B", "d", 1, 1, "r2", "s", "t", "Style/Awkward", "Neutral"],  # 0
    ["B", "d", 1, 1, "r2", "s", "t", "Found", "HOTW-test"],  # left out
    ["B", "d", 2, 2, "r1", "s", "t", "Accuracy/Creative Reinterpretation", "Minor"],  # mqm 0  marot 0
    ["B", "d", 2, 2, "r2", "s", "t", "No-error", "No-error"],  # 0
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


# --------------------------------------------------------------------------- command line


def run_cli(capsys, *args):
    code = cli.main(["mqm", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err
