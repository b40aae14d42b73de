"""A lecturer's week 1-2 with a small class, as the course page runs it: blank templates in
one folder, returned sheets in another, and every kind of trouble a real class returns."""

from __future__ import annotations

import shutil

import pytest
from openpyxl import load_workbook

from helpers import __main__ as cli
from helpers import metahope as mh
from helpers.core.errors import InputError
from helpers.metahope import chapters

ITEMS = """word_id,sentence,word,pos,sysA,sysB
s1_3,Rumours swirled around the boardroom.,swirled,V,谣言在董事会里打转。,董事会里流言四起。
s2_5,The new manager is a breath of fresh air.,breath,N,新经理是一口新鲜空气。,新经理带来了一股清风。
s2_9,The new manager is a breath of fresh air.,fresh,AJ,新经理是一口新鲜空气。,新经理带来了一股清风。
s3_2,Her words cut deep.,cut,V,她的话割得很深。,她的话深深刺痛了人。
"""
DONE = {f"S{r}": "done" for r in range(2, 6)}  # column S: done, rows 2-5


def _fill(path, cells):
    wb = load_workbook(path)
    for ref, value in cells.items():
        wb["Annotation"][ref] = value
    wb.save(path)


@pytest.fixture
def week(tmp_path):
    """Seven students. S01-S03 finish cleanly; S04 stops after two rows; S05 mistypes two
    cells; S06 returns a renamed copy; S07 saves as CSV; S08 returns nothing; Excel left a
    lock file of S01's sheet."""
    items = tmp_path / "items.csv"
    items.write_text(ITEMS, encoding="utf-8")
    blank, back = tmp_path / "blank", tmp_path / "returned"
    assert cli.main(["template", "metahope", "--items", str(items), "--systems", "sysA,sysB", "--annotators", "8",
                     "--out", str(blank)]) == 0
    back.mkdir()
    for k in range(1, 8):
        shutil.copy(blank / f"metahope_S0{k}.xlsx", back)
    _fill(back / "metahope_S01.xlsx", {"H2": 4, "N3": 2, **DONE})
    _fill(back / "metahope_S02.xlsx", {"H2": 6, "J4": 2, **DONE})
    _fill(back / "metahope_S03.xlsx", {"H2": 4, "O5": 8, **DONE})
    _fill(back / "metahope_S04.xlsx", {"H2": 2, "S2": "done", "S3": "done"})
    _fill(back / "metahope_S05.xlsx", {"H2": "severe", "P4": 5, **DONE})
    _fill(back / "metahope_S06.xlsx", {"I3": 4, **DONE})
    (back / "metahope_S06.xlsx").rename(back / "metahope_S06 (1).xlsx")
    (back / "metahope_S07.xlsx").rename(back / "metahope_S07.csv")
    (back / "~$metahope_S01.xlsx").write_bytes(b"lock")
    return blank, back


def test_check_lists_every_problem_once(week, capsys):
    blank, back = week
    assert cli.main(["check", "metahope", str(back), "--class-list", str(blank)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == ["ignored ~$metahope_S01.xlsx: an Excel lock file (the workbook was open when the "
                                "folder was copied)"]
    lines = err.splitlines()
    assert all(line.startswith("error: ") for line in lines)
    expected = [  # (what the line must name, in report order)
        "metahope_S07.csv: is not an .xlsx workbook",
        "student 'S07' is on the class list but returned no workbook",  # its CSV does not count as returned
        "student 'S08' is on the class list but returned no workbook",
        "metahope_S05.xlsx, sheet 'Annotation', row 2, column 'MIS (sysA)', cell H2: value 'severe'",
        "metahope_S05.xlsx, sheet 'Annotation', row 4, column 'STL (sysB)', cell P4: value 5",
        "metahope_S04.xlsx, sheet 'Annotation', column 'done': student 'S04': 2 of 4 rows are not marked done: "
        "rows 4-5",
    ]
    assert len(lines) == len(expected)
    for line, part in zip(lines, expected):
        assert part in line
    assert "S06" not in err  # the renamed copy is S06's, read under its own name


def test_the_chapter_refuses_until_the_lecturer_decides(week):
    _, back = week
    (back / "metahope_S07.csv").unlink()  # the lecturer asks S07 for the workbook itself
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})  # S05 corrects both cells
    setup = chapters.pilot_v2_setup(annotations=str(back))
    with pytest.raises(InputError, match=r"student 'S04': 2 of 4 rows are not marked done: rows 4-5"):
        setup.load()
    rows = chapters.pilot_v2_setup(annotations=str(back), unfinished="drop_rows").load()
    assert sorted(rows.tidy["annotator"].unique()) == ["S01", "S02", "S03", "S04", "S05", "S06"]
    assert rows.tidy["item"].unique().tolist() == ["s1_3", "s2_5"]  # s2_9, s3_2 left out for everyone
    students = chapters.pilot_v2_setup(annotations=str(back), unfinished="drop_students").load()
    assert "S04" not in set(students.tidy["annotator"]) and students.tidy["item"].nunique() == 4
    box = students.provenance.detail
    assert "left out student S04 (metahope_S04.xlsx): rows 4-5 are not marked done" in box
    assert "ignored ~$metahope_S01.xlsx" in box
    # what the students entered, under their own names; unfinished rows never became zeros
    segs = mh.segment_scores(students.tidy).set_index(["annotator", "item", "system"])["SEGS"]
    assert segs[("S06", "s2_5", "sysA")] == 4 and segs[("S03", "s3_2", "sysB")] == 8


def test_feedback_for_the_class_names_no_classmate(week, tmp_path):
    _, back = week
    (back / "metahope_S07.csv").unlink()
    out = tmp_path / "feedback"
    assert cli.main(["feedback", "metahope", "--annotations", str(back), "--out", str(out), "--n-boot", "100",
                     "--unfinished", "drop_students"]) == 1  # S05's two cells still need fixing
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    assert cli.main(["feedback", "metahope", "--annotations", str(back), "--out", str(out), "--n-boot", "100",
                     "--unfinished", "drop_students"]) == 0
    pages = sorted(p.name for p in out.glob("*.html"))
    assert pages == ["S01.html", "S02.html", "S03.html", "S05.html", "S06.html", "index.html"]
    page = (out / "S02.md").read_text(encoding="utf-8")
    assert not any(f"S0{k}" in page for k in (1, 3, 5, 6)) and "classmate 4" in page
    overview = (out / "index.html").read_text(encoding="utf-8")
    assert "left out student S04" in overview and 'href="S06.html">S06</a>' in overview


def test_every_missing_file_of_a_list_is_named_at_once(week, tmp_path):
    _, back = week
    with pytest.raises(InputError) as err:
        mh.load_class([back / "metahope_S01.xlsx", tmp_path / "gone1.xlsx", tmp_path / "gone2.xlsx"])
    text = str(err.value)
    assert "gone1.xlsx" in text and "gone2.xlsx" in text and len(text.splitlines()) == 2


def test_a_class_list_given_as_a_file_is_refused(week, tmp_path, capsys):
    _, back = week
    roster = tmp_path / "roster.txt"
    roster.write_text("S01\nS02\n")
    assert cli.main(["check", "metahope", str(back), "--class-list", str(roster)]) == 1
    assert "parameter '--class-list'" in capsys.readouterr().err


def test_chapter_1_compares_two_students_of_a_larger_class(week):
    """Chapter 1 is a two-annotator chapter: of a class folder it compares the first two
    students in class order, or the pair ``raters`` names, and says so in the data box."""
    _, back = week
    (back / "metahope_S07.csv").unlink()
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    data = chapters.pilot_v1_setup(annotator_files=str(back), unfinished="drop_students").load()
    assert list(data.tidy["annotator"].unique()) == ["S01", "S02"] and data.penalty_annotator == "S01"
    box = data.provenance.detail
    assert "compares two annotators, <strong>S01</strong> and <strong>S02</strong> (the first two in class order)" in box
    assert "The data hold 5 annotators" in box and "chapter 3 reads all 5 together" in box
    chosen = chapters.pilot_v1_setup(annotator_files=str(back), unfinished="drop_students",
                                     raters=["S03", "S06"]).load()
    assert list(chosen.tidy["annotator"].unique()) == ["S03", "S06"] and chosen.penalty_annotator == "S03"
    assert "(given as <code>raters</code>)" in chosen.provenance.detail
    segs = mh.segment_scores(chosen.tidy).set_index(["annotator", "item", "system"])["SEGS"]
    assert segs[("S06", "s2_5", "sysA")] == 4 and segs[("S03", "s3_2", "sysB")] == 8 and segs.sum() == 16
    with pytest.raises(InputError, match=r"parameter 'raters': value 'S09': is not among the annotators"):
        chapters.pilot_v1_setup(annotator_files=str(back), raters=["S01", "S09"])
    with pytest.raises(InputError, match=r"parameter 'penalty_annotator': value 'S05': is not among the two"):
        chapters.pilot_v1_setup(annotator_files=str(back), raters=["S03", "S06"], penalty_annotator="S05")
    with pytest.raises(InputError, match=r"parameter 'raters': value 'S04': is not one of the annotators"):
        chapters.pilot_v1_setup(annotator_files=str(back), unfinished="drop_students", raters=["S04", "S01"]).load()
    with pytest.raises(InputError, match=r"parameter 'annotator_files'.*names 1 workbook\(s\); it needs at least 2"):
        chapters.pilot_v1_setup(annotator_files=[str(back / "metahope_S01.xlsx")])


def test_the_one_category_exercise_takes_a_row_the_run_has():
    import pandas as pd

    table6 = pd.DataFrame({"system": ["sysA", "sysA", "sysB"], "error": ["IMP", "RAM", "MIS"],
                           "alpha": [float("nan"), 0.2, 0.5]})
    assert chapters.one_category(table6, "sysB", "MIS") == ("sysB", "MIS")
    assert chapters.one_category(table6, "GPT-5.4", "MIS") == ("sysA", "RAM")  # the first row with an α
    assert chapters.one_category(table6.assign(alpha=float("nan")), "GPT-5.4", "MIS") == ("sysA", "IMP")
