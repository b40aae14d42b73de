"""The hand-made tidy frame of MetaHOPE annotations (two systems, three items) whose scores
test_scoring.py and test_severity.py work out by hand."""

from __future__ import annotations

import pandas as pd

from helpers.metahope import severity
from helpers.metahope.tidy_frame import CATEGORIES

# Annotator a, systems in workbook order Y then X, items i1 and i2 in sentence s1, i3 in s2:
#   Y: i1 MIS 4 | i2 none       | i3 STL 6 + PRF 2   -> SEGS 4, 0, 8  (total 12)
#   X: i1 IMP 10 | i2 RAM 2     | i3 MIS 4           -> SEGS 10, 2, 4 (total 16)
GIVEN = {
    ("Y", "i1", "MIS"): 4,
    ("Y", "i3", "STL"): 6,
    ("Y", "i3", "PRF"): 2,
    ("X", "i1", "IMP"): 10,
    ("X", "i2", "RAM"): 2,
    ("X", "i3", "MIS"): 4,
}


ITEMS = {"i1": (0, "s1", "grasp", "V"), "i2": (1, "s1", "deep", "AJ"), "i3": (2, "s2", "bridge", "N")}


def tidy(given=GIVEN, annotator="a") -> pd.DataFrame:
    rows = [
        {
            "item": item,
            "position": pos,
            "sentence": sent,
            "metaphor": word,
            "pos": tag,
            "system": system,
            "annotator": annotator,
            "category": cat,
            "severity": given.get((system, item, cat), 0),
        }
        for system in ("Y", "X")
        for item, (pos, sent, word, tag) in ITEMS.items()
        for cat in CATEGORIES
    ]
    out = pd.DataFrame(rows)
    out["category"] = pd.Categorical(out["category"], categories=list(CATEGORIES))
    return out
