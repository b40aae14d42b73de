"""Hand-made cases shared by the tests of :mod:`helpers.wmt.analysis` (test_wmt_analysis.py) and
of :mod:`helpers.wmt.ch08` (test_ch08.py): each table and each sentence of the chapter is checked on
the same small case, its numbers worked out by hand in the docstrings."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core import annotations as ann


def _curve(alphas: dict, metahope=0.9, hope=0.05) -> pd.DataFrame:
    """A hand-made :func:`~helpers.wmt.analysis.major_weight_agreement` table: α per Major weight,
    and the two MetaHOPE-family schemes at their ratios 3 and 4 (values that break any
    monotone curve, to show they are not part of it)."""
    rows = [{"scheme": f"mqm-major-{w:g}", "major_to_minor": float(w), "alpha": a} for w, a in alphas.items()]
    rows += [{"scheme": "hope", "major_to_minor": 4.0, "alpha": hope},
             {"scheme": "metahope", "major_to_minor": 3.0, "alpha": metahope}]
    return pd.DataFrame(rows)


def _mqm_frame() -> pd.DataFrame:
    """Two systems, two segments each, one rater. A: a Major "Source error" on segment 1 and
    a Minor Fluency/Grammar on segment 2. B: two Minor Style/Awkward on segment 1, nothing on 2.
    By hand: mqm (Source error by severity) A = (5 + 1) / 2 = 3, B = 2 / 2 = 1, so B first;
    marot (any source problem 0) A = (0 + 1) / 2 = 0.5, B = 1, so A first."""
    rows = [("A", 1, "Source error", "Major"), ("A", 2, "Fluency/Grammar", "Minor"),
            ("B", 1, "Style/Awkward", "Minor"), ("B", 1, "Style/Awkward", "Minor"),
            ("B", 2, ann.NO_ERROR, ann.NO_ERROR)]
    return ann.conform(pd.DataFrame([{"system": s, "doc": "d", "doc_seg_id": seg, "global_seg_id": seg, "rater": "r1",
                                      "source": "s", "target": "t", "category": c, "severity": v, "line": k + 2}
                                     for k, (s, seg, c, v) in enumerate(rows)]))


def _kept() -> pd.DataFrame:
    """Three systems on the same four segments of one domain, one rating each, after filters.
    ESA means by hand: X (90, 80, 70, 60) 75, Y (50, 40, 30, 20) 35, refA (95, 85, 75, 65) 80."""
    scores = {"X": [90, 80, 70, 60], "Y": [50, 40, 30, 20], "refA": [95, 85, 75, 65]}
    rows = [{"lp": "en-cs", "system": s, "doc": "test-en-news_1", "line_id": i, "domain": "news", "rater": f"r{i}",
             "segment_type": "TGT", "score": float(v), "spans": "[]", "start_time": 0.0, "end_time": 1.0,
             "file": "w.csv", "line": i} for s, vs in scores.items() for i, v in enumerate(vs)]
    return pd.DataFrame(rows)


@pytest.fixture
def ratio_table():
    """:func:`_curve`: a hand-made α-by-ratio table from ``{Major weight: α}``."""
    return _curve


@pytest.fixture
def hand_mqm() -> pd.DataFrame:
    """:func:`_mqm_frame`."""
    return _mqm_frame()


@pytest.fixture
def hand_esa() -> pd.DataFrame:
    """:func:`_kept`."""
    return _kept()
