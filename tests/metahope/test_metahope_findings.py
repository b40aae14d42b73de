"""Chapters 1–3's findings frames and their words: hand-made tables, every branch of a sentence.

Each findings function is called on a small table whose verdicts are known by construction
(an interval above, below or across 0; one, several or no categories), and the chapter's
words file is rendered from the frame it returns.
"""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.findings import Words
from helpers.metahope import chapters, scoring


@pytest.mark.parametrize("severities, category, severity", [
    ({"A": {"MIS": 4}, "B": {"MIS": 2, "STL": 2}, "C": {}},
     "filed under 2 categories, MIS (2), STL (1): the same problem", "totals range from 0 to 4; even the annotators "
     "who chose MIS gave 4, 2"),
    ({"A": {"MIS": 4}, "B": {}, "C": {}}, "everyone who recorded an error filed it under MIS", "from 0 to 4."),
    ({"A": {}, "B": {}, "C": {}}, "nobody recorded an error, so there is no category", "from 0 to 0."),
])
def test_anatomy_summary_says_what_the_unit_shows(severities, category, severity):
    rows = [(a, c, severities[a].get(c, 0)) for a in severities for c in ("IMP", "RAM", "MIS", "STL", "PRF")]
    anatomy = scoring.disagreement_anatomy(pd.DataFrame(rows, columns=["annotator", "category", "severity"]))
    text = Words("03_metahope_pilot_v2", shared=chapters.SHARED_WORDS).text("anatomy", chapters.anatomy_summary(anatomy))
    detected = sum(bool(s) for s in severities.values())
    assert f"**Detection**: {detected} of 3 annotators recorded an error" in text
    assert category in text and severity in text
    assert text.count("- **") == 3
