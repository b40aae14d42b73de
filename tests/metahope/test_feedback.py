"""Feedback pages for a MetaHOPE class, checked by hand on a three-student fixture."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers import __main__ as cli
from helpers import metahope as mh
from helpers.metahope.feedback import student_feedback

# one system X, metaphors i1, i2 in sentence s1 and i3 in s2
ROWS = [  # annotator, item, sentence, category, severity
    ("A", "i1", "s1", "MIS", 4), ("A", "i3", "s2", "PRF", 2),
    ("B", "i1", "s1", "MIS", 8), ("B", "i2", "s1", "RAM", 6), ("B", "i3", "s2", "PRF", 2),
    ("C", "i1", "s1", "MIS", 4), ("C", "i2", "s1", "STL", 2),
]


@pytest.fixture
def class_csv(tmp_path):
    rows = []
    for annotator in "ABC":
        for item, sentence in (("i1", "s1"), ("i2", "s1"), ("i3", "s2")):
            hits = [r for r in ROWS if r[0] == annotator and r[1] == item]
            for _, _, _, category, severity in hits or [(annotator, item, sentence, "MIS", 0)]:
                rows.append({"item": item, "system": "X", "annotator": annotator, "category": category,
                             "severity": severity, "sentence": sentence, "metaphor": f"m-{item}"})
    path = tmp_path / "class.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_bias_peers_deviations_and_categories_by_hand(class_csv):
    fb = student_feedback(mh.read_long(class_csv), "B", n_boot=400, seed=1)
    # consensus = median of A and C: i1 (4, 4) -> 4, i2 (0, 2) -> 1, i3 (2, 0) -> 1; B - consensus = 4, 5, 1
    assert fb.bias["mean_difference"] == pytest.approx(10 / 3) and fb.bias["share_higher"] == 100.0
    # resampling the two sentences: means 4.5 (s1 s1), 10/3 (s1 s2), 1 (s2 s2): the interval lies in [1, 4.5]
    assert 1 <= fb.bias["ci_low"] <= fb.bias["ci_high"] <= 4.5
    peers = fb.peers.set_index("classmate")  # classmates are numbered in class order, never named
    assert list(peers.index) == ["classmate 1", "classmate 2"]
    assert peers.loc["classmate 1", "exact_agreement"] == pytest.approx(100 / 3)  # A: only i3 (2 = 2)
    assert list(fb.deviations["item"]) == ["i2", "i1", "i3"] and list(fb.deviations["difference"]) == [5, 4, 1]
    assert fb.deviations.iloc[0]["class_scores"] == "classmate 1 0, you 6, classmate 2 2"
    named = student_feedback(mh.read_long(class_csv), "B", n_boot=50, seed=1, show_names=True)
    assert named.deviations.iloc[0]["class_scores"] == "A 0, you 6, C 2" and list(named.peers["classmate"]) == ["A", "C"]
    shares = fb.categories.set_index("category")
    assert shares.loc["MIS", "own_share"] == pytest.approx(8 / 16) and shares.loc["MIS", "class_share"] == pytest.approx(16 / 28)


def test_cli_writes_one_page_per_student(class_csv, tmp_path):
    out = tmp_path / "feedback"
    assert cli.main(["feedback", "metahope", "--annotations", str(class_csv), "--out", str(out), "--n-boot", "200"]) == 0
    assert sorted(p.name for p in out.glob("*.html")) == ["A.html", "B.html", "C.html", "index.html"]
    page = (out / "B.md").read_text(encoding="utf-8")
    assert "+3.33 points" in page and "penalise **more**" in page
    assert "| A |" not in page and "| C |" not in page and "| classmate 1 |" in page
    overview = (out / "index.html").read_text(encoding="utf-8")  # the lecturer's page keeps the names
    assert all(f'href="{s}.html">{s}</a>' in overview for s in "ABC") and "+3.33" in overview


def test_feedback_needs_a_class(class_csv, tmp_path, capsys):
    with pytest.raises(ValueError, match="at least three annotators"):
        student_feedback(mh.read_long(class_csv).query("annotator != 'C'"), "A")
    code = cli.main(["feedback", "metahope", "--annotations", str(tmp_path / "x.xlsx"), str(tmp_path / "y.xlsx"),
                     "--out", str(tmp_path / "o")])
    assert code == 1 and capsys.readouterr().err.startswith("error:")
