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
    rows = chapters.pilot_v2_setup(annotations=str(back), unfinished="drop_rows", projection=False).load()
    assert sorted(rows.tidy["annotator"].unique()) == ["S01", "S02", "S03", "S04", "S05", "S06"]
    assert rows.tidy["item"].unique().tolist() == ["s1_3", "s2_5"]  # s2_9, s3_2 left out for everyone
    students = chapters.pilot_v2_setup(annotations=str(back), unfinished="drop_students", projection=False).load()
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
    assert pages == [f"feedback_S0{k}.html" for k in (1, 2, 3, 5, 6)] + ["index.html"]
    page = (out / "feedback_S02.md").read_text(encoding="utf-8")
    assert not any(f"S0{k}" in page for k in (1, 3, 5, 6)) and "classmate 4" in page
    overview = (out / "index.html").read_text(encoding="utf-8")
    assert "left out student S04" in overview and 'href="feedback_S06.html">S06</a>' in overview


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


def test_each_page_says_what_was_left_out_and_names_no_one_else(week, tmp_path):
    """drop_rows: S04's rows 4-5 (items s2_9, s3_2) go for everyone; S04 reads that they
    were theirs, the others that two items went for the whole class, and no page names,
    or links to, any other student."""
    _, back = week
    (back / "metahope_S07.csv").unlink()
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    out = tmp_path / "feedback"
    assert cli.main(["feedback", "metahope", "--annotations", str(back), "--out", str(out), "--n-boot", "50",
                     "--unfinished", "drop_rows"]) == 0
    students = ["S01", "S02", "S03", "S04", "S05", "S06"]
    for student in students:
        for suffix in (".md", ".html"):
            page = (out / f"feedback_{student}{suffix}").read_text(encoding="utf-8")
            assert not any(other in page for other in students if other != student), (student, suffix)
            assert "Over 4 (metaphor, system) pairs" in page or suffix == ".html"  # 2 items x 2 systems
    s04 = (out / "feedback_S04.md").read_text(encoding="utf-8")
    assert "rows 4-5 of your workbook (items s2_9, s3_2) were not marked done" in s04
    s02 = (out / "feedback_S02.md").read_text(encoding="utf-8")
    assert "2 items (s2_9, s3_2) are left out for the whole class because a classmate had not marked them done" in s02


def test_a_projected_chapter_shows_codes_and_keeps_the_key_apart(week, tmp_path):
    """On a class's workbooks the chapters show students as "student k", numbered in a random
    order; the key (the same in every chapter run into one results folder) is the lecturer's."""
    import pandas as pd

    _, back = week
    (back / "metahope_S07.csv").unlink()
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    results = tmp_path / "results"
    data = chapters.pilot_v2_setup(annotations=str(back), unfinished="drop_students", results_dir=str(results)).load()
    students = ["S01", "S02", "S03", "S04", "S05", "S06"]
    shown = list(dict.fromkeys(data.tidy["annotator"]))
    assert len(shown) == 5 and set(shown) < {f"student {k}" for k in range(1, 7)}  # S04, left out, has a code too
    seen = " ".join([*map(str, data.tidy.astype(str).to_numpy().ravel()), data.provenance.detail,
                     *data.provenance.files])
    assert not any(s in seen for s in students)
    assert "left out student" in data.provenance.detail  # S04, by code
    key = pd.read_csv(results / "student_key.csv")
    assert sorted(key["student"]) == students and list(key["code"]) == [f"student {k}" for k in range(1, 7)]
    code = dict(zip(key["student"], key["code"]))
    assert [code[s] for s in students] != [f"student {k}" for k in range(1, 7)]  # not the roster's order (1 in 720)
    again = chapters.pilot_v1_setup(annotator_files=str(back), unfinished="drop_students",
                                    results_dir=str(results)).load()
    assert dict(zip(pd.read_csv(results / "student_key.csv")["student"], pd.read_csv(
        results / "student_key.csv")["code"])) == code  # chapter 1 reuses the codes
    assert set(again.tidy["annotator"]) == {code[s] for s in students if s != "S04"}
    assert again.penalty_annotator == code["S01"]
    named = chapters.pilot_v2_setup(annotations=str(back), unfinished="drop_students", projection=False).load()
    assert set(named.tidy["annotator"]) == set(students) - {"S04"}
    tidy, _ = chapters.directions_setup(en_zh_files=str(back), unfinished="drop_students",
                                        results_dir=str(results)).load()  # ZH→EN: the released sheet's annotator
    assert set(tidy["annotator"]) == {code[s] for s in students if s != "S04"} | {"ZH1"}
    assert sorted(pd.read_csv(results / "student_key.csv")["student"]) == students  # not ZH1, who is no student


@pytest.mark.slow  # executes chapter 3
def test_the_projected_chapter_page_names_no_student(week, tmp_path):
    """Chapter 3 on the class's workbooks, as the course page runs it: neither the page nor
    its tables name a student or their file; the key is beside the results, not on the page."""
    import pandas as pd

    from helpers.core import execution, paths

    _, back = week
    (back / "metahope_S07.csv").unlink()
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    results = tmp_path / "results"
    out = execution.execute_notebook(paths.project_root() / "notebooks" / "03_metahope_pilot_v2.ipynb",
                                     tmp_path / "03.ipynb", parameters={
                                         "annotations": str(back), "results_dir": str(results),
                                         "unfinished": "drop_students", "n_seeds": 2})
    page = out.read_text(encoding="utf-8")
    tables = " ".join(p.read_text(encoding="utf-8") for p in (results / "03_metahope_pilot_v2").glob("*.csv"))
    students = [f"S0{k}" for k in range(1, 7)]
    assert not [s for s in students if s in page or s in tables]
    assert "student 1" in tables or "student 2" in tables
    key = pd.read_csv(results / "student_key.csv")
    assert sorted(key["student"]) == students  # the names are in the key only, none on the page (above)
