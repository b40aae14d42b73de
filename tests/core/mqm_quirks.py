"""A Marot-layout MQM file for the readers' quirks (byte-order marks, the canary, metadata-only rows)
with its scores worked out by hand, shared by test_mqm.py, test_schemes.py, test_scoring.py and
test_mqm_commands.py."""

from __future__ import annotations

from helpers.core.formats import mqm
from helpers.core.statistics import scoring

from .mqm_small import run_cli

HEADER = ["system", "doc", "docSegId", "globalSegId", "rater", "source", "target", "category", "severity", "metadata"]


#: Two systems, documents d1 (segments 1, 2) and d2 (segment 1), raters r1 and r2. Penalties (mqm):
#: A: d1/1 r1 5 r2 1 -> 3; d1/2 r1 0 r2 0.1 -> 0.05; d2/1 r1 1 r2 1 -> 1.
#: B: d1/1 r1 0 (Source issue) r2 5 -> 2.5; d1/2 r1 0 r2 0 -> 0; d2/1 r1 5 r2 25 -> 15.
ROWS = [
    ["A", "d1", 1, 1, "r1", "ab<v>c</v>", "t", "Accuracy/Mistranslation", "Major", ""],
    ["A", "d1", 1, 1, "r2", "abc", "t", "Style/Awkward", "Minor", ""],
    ["A", "d1", 2, 2, "r1", "defgh", "t", "No-error", "No-error", ""],
    ["A", "d1", 2, 2, "r2", "defgh", "t", "Fluency/Punctuation", "Minor", ""],
    ["A", "d2", 1, 3, "r1", "ijklmnopqr", "t", "Fluency/Grammar", "Minor", ""],
    ["A", "d2", 1, 3, "r2", "ijklmnopqr", "t", "Style/Awkward", "Minor", ""],
    ["B", "d1", 1, 1, "r1", "abc", "t", "Source issue", "Major", ""],
    ["B", "d1", 1, 1, "r2", "abc", "t", "Accuracy/Omission", "Major", ""],
    ["B", "d1", 2, 2, "r1", "defgh", "t", "No-error", "No-error", ""],
    ["B", "d1", 2, 2, "r2", "defgh", "t", "No-error", "No-error", ""],
    ["B", "d2", 1, 3, "r1", "ijklmnopqr", "t", "Accuracy/Addition", "Major", ""],
    ["B", "d2", 1, 3, "r2", "ijklmnopqr", "t", "Non-translation!", "Major", ""],
]


#: mean over the three segments
SCORES = {"A": (3 + 0.05 + 1) / 3, "B": (2.5 + 0 + 15) / 3}


#: sum of segment scores over (3 + 5 + 10 source characters) / 100
PER_100_CHARS = {"A": (3 + 0.05 + 1) / 0.18, "B": (2.5 + 0 + 15) / 0.18}


def text(rows) -> str:
    return "".join("\t".join(map(str, r)) + "\n" for r in rows)


def write(path, rows, header=HEADER, prefix: bytes = b""):
    path.write_bytes(prefix + text([header] + rows).encode("utf-8"))
    return path


def scores_of(path, **kw) -> dict:
    table = scoring.system_scores(scoring.rater_scores(mqm.read_mqm(path), "mqm"), **kw)
    return dict(zip(table["system"], table["score"]))
