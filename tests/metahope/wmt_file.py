"""A small WMT-layout MQM file (one system, four segments, raters A, B, C) with its MetaHOPE segment
scores worked out by hand, shared by test_mqm_chapters.py, test_load.py and test_scoring.py."""

from __future__ import annotations

import numpy as np
import pytest

HEADER = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata\n"


# One system, four segments (items 1–4), raters A, B, C, each segment rated by two or three.
# SEGS under the metahope scheme (Minor 2, Major 6):
#        seg1  seg2  seg3  seg4
#   A      0     2     6     -
#   B      0     2     -     6
#   C      -     4     6     6
ROWS = [
    ("X", "d1", 1, "A", "No-error", "No-error"),
    ("X", "d1", 1, "B", "No-error", "No-error"),
    ("X", "d1", 2, "A", "Fluency/Grammar", "Minor"),
    ("X", "d1", 2, "B", "Accuracy/Mistranslation", "minor"),
    ("X", "d1", 2, "C", "Fluency/Punctuation", "Minor"),
    ("X", "d1", 2, "C", "Accuracy/Mistranslation", "Minor"),
    ("X", "d2", 1, "A", "Accuracy/Omission", "Major"),
    ("X", "d2", 1, "C", "Accuracy/Mistranslation", "Major"),
    ("X", "d2", 1, "C", "Other", "HOTW-test"),  # a quality check: weighs nothing
    ("X", "d2", 2, "B", "Non-translation!", "Major"),
    ("X", "d2", 2, "C", "Style/Awkward", "MAJOR"),
]


SEGS = {"A": [0, 2, 6, np.nan], "B": [0, 2, np.nan, 6], "C": [np.nan, 4, 6, 6]}


def _write(path, rows=ROWS, header=HEADER, systems=("X",)):
    lines = [header]
    for system in systems:
        for _, doc, seg, rater, cat, sev in rows:
            fields = [
                system,
                doc,
                str(seg),
                str(10 * (doc == "d2") + seg),
                rater,
                f"source {doc} {seg}",
                f'"target" {system} {doc} {seg}',
                cat,
                sev,
            ]
            lines.append("\t".join(fields + ([""] if header == HEADER else [])) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def wmt(tmp_path):
    return _write(tmp_path / "mqm_small.tsv")
