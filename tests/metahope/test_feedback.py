"""Feedback pages for a MetaHOPE class, checked by hand on a three-student fixture."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers import __main__ as cli
from helpers import metahope as mh
from helpers.metahope import feedback as mh_fb
from helpers.metahope.feedback import student_feedback

# one system X, metaphors i1, i2 in sentence s1 and i3 in s2
ROWS = [  # annotator, item, sentence, category, severity
    ("A", "i1", "s1", "MIS", 4),
    ("A", "i3", "s2", "PRF", 2),
    ("B", "i1", "s1", "MIS", 8),
    ("B", "i2", "s1", "RAM", 6),
    ("B", "i3", "s2", "PRF", 2),
    ("C", "i1", "s1", "MIS", 4),
    ("C", "i2", "s1", "STL", 2),
]


@pytest.fixture
def class_csv(tmp_path):
    rows = []
    for annotator in "ABC":
        for item, sentence in (("i1", "s1"), ("i2", "s1"), ("i3", "s2")):
            hits = [r for r in ROWS if r[0] == annotator and r[1] == item]
            for _, _, _, category, severity in hits or [(annotator, item, sentence, "MIS", 0)]:
                rows.append(
                    {
                        "item": item,
                        "system": "X",
                        "annotator": annotator,
                        "category": category,
                        "severity": severity,
                        "sentence": sentence,
                        "metaphor": f"m-{item}",
                    }
                )
    path = tmp_path / "class.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_bias_peers_deviations_and_categories_by_hand(class_csv):
    fb = student_feedback(mh.read_long(class_csv), "B", n_boot=400, seed=1)
    # consensus = median of A and C: i1 (4, 4) -> 4, i2 (0, 2) -> 1, i3 (2, 0) -> 1; B - consensus = 4, 5, 1
    assert fb.bias["mean_difference"] == pytest.approx(10 / 3) and fb.bias["share_higher"] == 100.0
    # resampling the two sentences: means 4.5 (s1 s1), 10/3 (s1 s2), 1 (s2 s2): the interval lies in [1, 4.5]
    assert 1 <= fb.bias["ci_low"] <= fb.bias["ci_high"] <= 4.5
    peers = fb.peers.set_index("classmate")  # classmates are numbered, never named, "you" comes first
    assert sorted(peers.index) == ["classmate 1", "classmate 2"]
    assert list(fb.deviations["item"]) == ["i2", "i1", "i3"] and list(fb.deviations["difference"]) == [5, 4, 1]
    scores = fb.deviations.iloc[0]["class_scores"]  # i2: A 0, B 6, C 2
    assert scores.startswith("you 6, classmate ")
    a = next(part.rsplit(" ", 1)[0] for part in scores.split(", ") if part.endswith(" 0"))  # A's label on this page
    assert peers.loc[a, "exact_agreement"] == pytest.approx(100 / 3)  # A: only i3 (2 = 2)
    named = student_feedback(mh.read_long(class_csv), "B", n_boot=50, seed=1, show_names=True)
    assert named.deviations.iloc[0]["class_scores"] == "you 6, A 0, C 2"
    assert list(named.peers["classmate"]) == ["A", "C"]
    shares = fb.categories.set_index("category")
    assert shares.loc["MIS", "own_share"] == pytest.approx(8 / 16) and shares.loc[
        "MIS", "class_share"
    ] == pytest.approx(16 / 28)


def test_cli_writes_one_page_per_student(class_csv, tmp_path):
    out = tmp_path / "feedback"
    assert (
        cli.main(["feedback", "metahope", "--annotations", str(class_csv), "--out", str(out), "--n-boot", "200"]) == 0
    )
    assert sorted(p.name for p in out.glob("*.html")) == [
        "feedback_A.html",
        "feedback_B.html",
        "feedback_C.html",
        "index.html",
    ]
    page = (out / "feedback_B.md").read_text(encoding="utf-8")
    assert "+3.33 points" in page and "penalise **more**" in page
    assert "| A |" not in page and "| C |" not in page and "| classmate 1 |" in page
    overview = (out / "index.html").read_text(encoding="utf-8")  # the lecturer's page keeps the names
    assert all(f'href="feedback_{s}.html">{s}</a>' in overview for s in "ABC") and "+3.33" in overview


def test_feedback_needs_a_class(class_csv, tmp_path, capsys):
    with pytest.raises(ValueError, match="at least three annotators"):
        student_feedback(mh.read_long(class_csv).query("annotator != 'C'"), "A")
    code = cli.main(
        [
            "feedback",
            "metahope",
            "--annotations",
            str(tmp_path / "x.xlsx"),
            str(tmp_path / "y.xlsx"),
            "--out",
            str(tmp_path / "o"),
        ]
    )
    assert code == 1 and capsys.readouterr().err.startswith("error:")


def _labels_in_order(page: str, scores: dict) -> tuple[str, list[str]]:
    """The "everyone" cell of a page's first deviation, decoded: who is first, and which
    student each "classmate k" is (k = 1, 2, ...), by the score only that student gave."""
    cell = next(line for line in page.splitlines() if line.startswith("| i1 |")).split(" | ")[-1].strip(" |")
    parts = [p.rsplit(" ", 1) for p in cell.split(", ")]
    by_score = {v: s for s, v in scores.items()}
    named = {label: by_score[int(v)] for label, v in parts if label != "you"}
    return parts[0][0], [named[f"classmate {k}"] for k in range(1, len(named) + 1)]


def test_classmate_numbers_do_not_follow_the_class_list(tmp_path):
    """With "classmate k" in class-list order and "you" left out, the roster decodes every
    classmate; the numbering is drawn for each page and "you" comes first."""
    scores = dict(zip("ABCDEF", (0, 2, 4, 6, 8, 10)))  # on i1 each student gave a severity nobody else gave
    rows = [
        {
            "item": item,
            "system": "X",
            "annotator": a,
            "category": "MIS",
            "severity": v if item == "i1" else 2,
            "sentence": f"s-{item}",
            "metaphor": f"m-{item}",
        }
        for a, v in scores.items()
        for item in ("i1", "i2")
    ]
    path = tmp_path / "class.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    out = tmp_path / "fb"
    assert cli.main(["feedback", "metahope", "--annotations", str(path), "--out", str(out), "--n-boot", "20"]) == 0
    in_roster_order = []
    for student in scores:
        page = (out / f"feedback_{student}.md").read_text(encoding="utf-8")
        first, order = _labels_in_order(page, scores)
        assert first == "you" and sorted(order) == sorted(set(scores) - {student})
        in_roster_order.append(order == [s for s in scores if s != student])
    assert not all(in_roster_order)  # by chance on one page in 120, never on all six


def test_a_student_is_told_what_was_left_out_of_their_data(tmp_path):
    """Under drop_rows a student whose rows were left out reads which, on their own page;
    the others read how many items went for the whole class; no page names a classmate."""
    from helpers.core import classroom

    rows = [
        {
            "item": i,
            "system": "X",
            "annotator": a,
            "category": "MIS",
            "severity": v,
            "sentence": f"s-{i}",
            "metaphor": f"m-{i}",
        }
        for a, vs in {"ana": (2, 4), "ben": (0, 6), "chen": (4, 4)}.items()
        for i, v in zip(("i1", "i2"), vs)
    ]
    tidy = mh.read_long(_csv(tmp_path, rows))
    left = classroom.LeftOut({"ben": {"i3": 4, "i4": 5}}, ("i3", "i4"))
    mh_fb.write_feedback(tidy, tmp_path / "fb", n_boot=20, left_out=left)
    ben = (tmp_path / "fb" / "feedback_ben.md").read_text(encoding="utf-8")
    assert "rows 4-5 of your workbook (items i3, i4) were not marked done" in ben
    ana = (tmp_path / "fb" / "feedback_ana.md").read_text(encoding="utf-8")
    assert "2 items (i3, i4) are left out for the whole class" in ana
    for student, page in (("ben", ben), ("ana", ana)):
        assert not any(other in page for other in {"ana", "ben", "chen"} - {student})


def _csv(tmp_path, rows):
    path = tmp_path / "long.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path
