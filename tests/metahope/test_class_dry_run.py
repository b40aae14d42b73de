"""A lecturer's week 1-2 with a small class, as the course page runs it: blank templates in
one folder, returned sheets in another, and every kind of trouble a real class returns."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest
from openpyxl import load_workbook

from helpers import __main__ as cli
from helpers import metahope as mh
from helpers.core.errors import InputError
from helpers.metahope import ch01, ch02, ch03

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
    assert (
        cli.main(
            [
                "template",
                "metahope",
                "--items",
                str(items),
                "--systems",
                "sysA,sysB",
                "--annotators",
                "8",
                "--out",
                str(blank),
            ]
        )
        == 0
    )
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
    assert out.splitlines() == [
        "ignored ~$metahope_S01.xlsx: an Excel lock file (the workbook was open when the folder was copied)"
    ]
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
    setup = ch03.setup(annotations=str(back))
    with pytest.raises(InputError, match=r"student 'S04': 2 of 4 rows are not marked done: rows 4-5"):
        setup.load()
    rows = ch03.setup(annotations=str(back), unfinished="drop_rows", projection=False).load()
    assert sorted(rows.tidy["annotator"].unique()) == ["S01", "S02", "S03", "S04", "S05", "S06"]
    assert rows.tidy["item"].unique().tolist() == ["s1_3", "s2_5"]  # s2_9, s3_2 left out for everyone
    students = ch03.setup(annotations=str(back), unfinished="drop_students", projection=False).load()
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
    assert (
        cli.main(
            [
                "feedback",
                "metahope",
                "--annotations",
                str(back),
                "--out",
                str(out),
                "--n-boot",
                "100",
                "--unfinished",
                "drop_students",
            ]
        )
        == 1
    )  # S05's two cells still need fixing
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    assert (
        cli.main(
            [
                "feedback",
                "metahope",
                "--annotations",
                str(back),
                "--out",
                str(out),
                "--n-boot",
                "100",
                "--unfinished",
                "drop_students",
            ]
        )
        == 0
    )
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
    assert "option --class-list" in capsys.readouterr().err


def _off_the_list(blank) -> str:  # how the check says to take a student off a class list that is a folder
    return f"move their blank workbook out of {blank}, or give --class-list as the names of those who should return one"


def _resaved_from_csv(source, path, cells=None):
    """What a lecturer gets by opening a student's .csv in Excel and saving it as .xlsx: the
    annotation table alone, on a sheet named after the file, with no Guidelines sheet and
    so no Student: field."""
    from openpyxl import Workbook

    _fill(source, cells or {})
    rows = [
        [None if isinstance(v, str) and v.startswith("=") else v for v in r]
        for r in load_workbook(source)["Annotation"].iter_rows(values_only=True)
    ]
    wb = Workbook()
    wb.active.title = path.stem
    for r in rows:
        wb.active.append(r)
    wb.save(path)
    source.unlink()
    return path


def test_a_csv_resaved_as_xlsx_is_read_under_the_name_its_file_implies_and_said_so(week, capsys):
    blank, back = week
    (back / "metahope_S07.csv").unlink()
    _resaved_from_csv(
        shutil.copy(blank / "metahope_S07.xlsx", back / "S07.xlsx"), back / "metahope_S07.xlsx", {"G3": 2, **DONE}
    )
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    assert cli.main(["check", "metahope", str(back), "--class-list", str(blank), "--unfinished", "drop_students"]) == 1
    out, err = capsys.readouterr()
    assert (
        "metahope_S07.xlsx has no Student: field (a .csv re-saved as .xlsx, or not made from the template?); "
        "read as student 'S07', the name its file name implies"
    ) in out.splitlines()
    assert err.splitlines() == [
        "error: option --class-list: student 'S08' is on the class list but returned no "
        f"workbook (expected their workbook in the folder; or, if they are not to return one, {_off_the_list(blank)})"
    ]
    loaded = mh.load_class(back, unfinished="drop_students")
    assert "S07" in loaded.students and "metahope_S07" not in loaded.students
    assert any("metahope_S07.xlsx has no Student: field" in n for n in loaded.notes)  # the chapter's data box too
    segs = mh.segment_scores(loaded.tidy).set_index(["annotator", "item", "system"])["SEGS"]
    assert segs[("S07", "s2_5", "sysA")] == 2


def test_a_resaved_csv_beside_its_students_workbook_is_a_duplicate(week):
    blank, back = week
    shutil.copy(back / "metahope_S06 (1).xlsx", back / "copy.xlsx")
    _resaved_from_csv(back / "copy.xlsx", back / "metahope_S06.xlsx")
    with pytest.raises(InputError) as err:
        mh.load_class(back, unfinished="drop_students")
    assert (
        "metahope_S06.xlsx: value 'S06': student 'S06' also has the workbook metahope_S06 (1).xlsx; keep one of the two"
    ) in str(err.value)


def test_check_names_a_returned_student_who_is_not_on_the_class_list(week, capsys):
    blank, back = week
    (back / "metahope_S07.csv").unlink()
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    wb = load_workbook(back / "metahope_S03.xlsx")
    wb["Guidelines"]["B1"] = "S3"  # a typo in the Student: field
    wb.save(back / "metahope_S03.xlsx")
    assert cli.main(["check", "metahope", str(back), "--class-list", str(blank), "--unfinished", "drop_rows"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "error: option --class-list: student 'S03' is on the class list but returned no workbook (expected their "
        f"workbook in the folder; or, if they are not to return one, {_off_the_list(blank)})",
        "error: option --class-list: student 'S07' is on the class list but returned no workbook (expected their "
        f"workbook in the folder; or, if they are not to return one, {_off_the_list(blank)})",
        "error: option --class-list: student 'S08' is on the class list but returned no workbook (expected their "
        f"workbook in the folder; or, if they are not to return one, {_off_the_list(blank)})",
        f"error: {back / 'metahope_S03.xlsx'}: student 'S3' returned this workbook but is "
        "not on the class list (expected the name as on the class list (a typo in the Student: field, or a file name "
        "that does not say whose it is?), or their name added to the list)",
    ]
    assert (
        cli.main(
            ["check", "metahope", str(back), "--class-list", "S01,S02,S3,S04,S05,S06", "--unfinished", "drop_rows"]
        )
        == 0
    )  # names typed as a list are held to the class the same way


def test_an_old_and_a_corrected_copy_are_reported_with_the_old_copys_errors(week, capsys):
    blank, back = week
    (back / "metahope_S07.csv").unlink()
    shutil.copy(back / "metahope_S05.xlsx", back / "metahope_S05 corrected.xlsx")
    _fill(back / "metahope_S05 corrected.xlsx", {"H2": 6, "P4": 4})  # the old copy keeps 'severe' and 5
    assert cli.main(["check", "metahope", str(back), "--unfinished", "drop_rows"]) == 1
    err = capsys.readouterr().err
    assert "metahope_S05.xlsx, sheet 'Annotation', row 2, column 'MIS (sysA)', cell H2: value 'severe'" in err
    assert "metahope_S05.xlsx, sheet 'Annotation', row 4, column 'STL (sysB)', cell P4: value 5" in err
    assert (
        f"error: {back / 'metahope_S05.xlsx'}: value 'S05': student 'S05' also has the workbook "
        "metahope_S05 corrected.xlsx; keep one of the two"
    ) in err


def test_each_page_says_what_was_left_out_and_names_no_one_else(week, tmp_path):
    """drop_rows: S04's rows 4-5 (items s2_9, s3_2) go for everyone; S04 reads that they
    were theirs, the others that two items went for the whole class, and no page names,
    or links to, any other student."""
    _, back = week
    (back / "metahope_S07.csv").unlink()
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    out = tmp_path / "feedback"
    assert (
        cli.main(
            [
                "feedback",
                "metahope",
                "--annotations",
                str(back),
                "--out",
                str(out),
                "--n-boot",
                "50",
                "--unfinished",
                "drop_rows",
            ]
        )
        == 0
    )
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
    data = ch03.setup(annotations=str(back), unfinished="drop_students", results_dir=str(results)).load()
    students = ["S01", "S02", "S03", "S04", "S05", "S06"]
    shown = list(dict.fromkeys(data.tidy["annotator"]))
    assert len(shown) == 5 and set(shown) < {f"student {k}" for k in range(1, 7)}  # S04, left out, has a code too
    seen = " ".join(
        [*map(str, data.tidy.astype(str).to_numpy().ravel()), data.provenance.detail, *data.provenance.files]
    )
    assert not any(s in seen for s in students)
    assert "left out student" in data.provenance.detail  # S04, by code
    key = pd.read_csv(results / "student_key.csv")
    assert sorted(key["student"]) == students and list(key["code"]) == [f"student {k}" for k in range(1, 7)]
    code = dict(zip(key["student"], key["code"]))
    assert [code[s] for s in students] != [f"student {k}" for k in range(1, 7)]  # not the roster's order (1 in 720)
    again = ch01.setup(annotator_files=str(back), unfinished="drop_students", results_dir=str(results)).load()
    assert (
        dict(zip(pd.read_csv(results / "student_key.csv")["student"], pd.read_csv(results / "student_key.csv")["code"]))
        == code
    )  # chapter 1 reuses the codes
    assert list(again.tidy["annotator"].unique()) == [code["S01"], code["S02"]]  # the first two, coded
    assert again.penalty_annotator == code["S01"]
    named = ch03.setup(annotations=str(back), unfinished="drop_students", projection=False).load()
    assert set(named.tidy["annotator"]) == set(students) - {"S04"}
    tidy = (
        ch02.setup(en_zh_files=str(back), unfinished="drop_students", results_dir=str(results)).load().tidy
    )  # ZH→EN: the released sheet's annotator
    assert set(tidy["annotator"]) == {code[s] for s in students if s != "S04"} | {"ZH1"}
    assert sorted(pd.read_csv(results / "student_key.csv")["student"]) == students  # not ZH1, who is no student


def _page_text(notebook) -> str:
    """What a reader of the executed notebook sees: its sources and every text output, without the
    base64 of the figures' static PNG twins (random letters there can spell "S01")."""
    import json

    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    parts = ["".join(c["source"]) for c in cells]
    for c in cells:
        for o in c.get("outputs", []):
            parts.append("".join(o.get("text", "")))
            for mime, value in o.get("data", {}).items():
                if not mime.startswith("image/"):
                    parts.append(value if isinstance(value, str) else "".join(value))
    return "\n".join(parts)


@pytest.mark.slow  # executes chapter 3
def test_the_projected_chapter_page_names_no_student(week, tmp_path):
    """Chapter 3 on the class's workbooks, as the course page runs it: neither the page nor
    its tables name a student or their file; the key is beside the results, not on the page."""
    import pandas as pd

    from helpers.core import paths
    from helpers.core.book import execution

    _, back = week
    (back / "metahope_S07.csv").unlink()
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    results = tmp_path / "results"
    out = execution.execute_notebook(
        paths.project_root() / "notebooks" / "03_metahope_pilot_v2.ipynb",
        tmp_path / "03.ipynb",
        parameters={"annotations": str(back), "results_dir": str(results), "unfinished": "drop_students", "n_seeds": 2},
    )
    page = _page_text(out)
    tables = " ".join(p.read_text(encoding="utf-8") for p in (results / "03_metahope_pilot_v2").glob("*.csv"))
    students = [f"S0{k}" for k in range(1, 7)]
    assert not [s for s in students if s in page or s in tables]
    assert "student 1" in tables or "student 2" in tables
    key = pd.read_csv(results / "student_key.csv")
    assert sorted(key["student"]) == students  # the names are in the key only, none on the page (above)


def test_chapter_1_compares_two_students_of_a_larger_class(week, tmp_path):
    import pandas as pd

    """Chapter 1 is a two-annotator chapter: of a class folder it compares the first two
    students in class order, or the pair ``raters`` names, and says so in the data box."""
    _, back = week
    (back / "metahope_S07.csv").unlink()
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    data = ch01.setup(annotator_files=str(back), unfinished="drop_students", projection=False).load()
    assert list(data.tidy["annotator"].unique()) == ["S01", "S02"] and data.penalty_annotator == "S01"
    box = data.provenance.detail
    assert (
        "compares two annotators, <strong>S01</strong> and <strong>S02</strong> (the first two in class order)" in box
    )
    assert "The data hold 5 annotators" in box and "chapter 3 reads all 5 together" in box
    chosen = ch01.setup(
        annotator_files=str(back), unfinished="drop_students", raters=["S03", "S06"], projection=False
    ).load()
    assert list(chosen.tidy["annotator"].unique()) == ["S03", "S06"] and chosen.penalty_annotator == "S03"
    assert "(given as <code>raters</code>)" in chosen.provenance.detail
    segs = mh.segment_scores(chosen.tidy).set_index(["annotator", "item", "system"])["SEGS"]
    assert segs[("S06", "s2_5", "sysA")] == 4 and segs[("S03", "s3_2", "sysB")] == 8 and segs.sum() == 16
    with pytest.raises(InputError, match=r"parameter 'raters': value 'S09': is not among the annotators"):
        ch01.setup(annotator_files=str(back), raters=["S01", "S09"])
    with pytest.raises(InputError, match=r"parameter 'penalty_annotator': value 'S05': is not among the two"):
        ch01.setup(annotator_files=str(back), raters=["S03", "S06"], penalty_annotator="S05")
    with pytest.raises(InputError, match=r"parameter 'raters': value 'S04': is not one of the annotators"):
        ch01.setup(annotator_files=str(back), unfinished="drop_students", raters=["S04", "S01"]).load()
    with pytest.raises(InputError, match=r"parameter 'annotator_files'.*names 1 workbook\(s\); it needs at least 2"):
        ch01.setup(annotator_files=[str(back / "metahope_S01.xlsx")])
    coded = ch01.setup(
        annotator_files=str(back),
        unfinished="drop_students",
        raters=["S03", "S06"],
        results_dir=str(tmp_path / "results"),
    ).load()  # projected, as on a class's page
    key = pd.read_csv(tmp_path / "results" / "student_key.csv").set_index("student")["code"]
    assert list(coded.tidy["annotator"].unique()) == [key["S03"], key["S06"]] == [coded.penalty_annotator, key["S06"]]
    assert not any(f"S0{k}" in coded.provenance.detail for k in range(1, 9))


def test_the_codes_a_projected_chapter_1_page_suggests_choose_the_pair(week, tmp_path):
    """A projected page suggests `-p raters "[student k, student j]"`: run into the same results
    folder, those codes name the students of the lecturer's key."""
    _, back = week
    (back / "metahope_S07.csv").unlink()
    _fill(back / "metahope_S05.xlsx", {"H2": 6, "P4": 4})
    results = str(tmp_path / "results")
    ch01.setup(annotator_files=str(back), unfinished="drop_students", results_dir=results).load()
    code = pd.read_csv(tmp_path / "results" / "student_key.csv").set_index("student")["code"]
    chosen = ch01.setup(
        annotator_files=str(back), unfinished="drop_students", results_dir=results, raters=[code["S03"], code["S06"]]
    ).load()
    assert list(chosen.tidy["annotator"].unique()) == [code["S03"], code["S06"]]


def test_two_students_who_would_share_a_feedback_page_are_refused(tmp_path):
    from helpers.metahope import feedback

    tidy = pd.DataFrame(
        {
            "item": ["i1"] * 3,
            "system": ["s"] * 3,
            "sentence": ["x"] * 3,
            "metaphor": ["m"] * 3,
            "annotator": ["Ana Li", "Ana.Li", "Ben"],
            "category": ["MIS"] * 3,
            "severity": [2, 4, 6],
        }
    )
    with pytest.raises(InputError, match=r"students 'Ana Li' and 'Ana.Li' would share the feedback page"):
        feedback.write_feedback(tidy, tmp_path / "fb", n_boot=10)
    assert not (tmp_path / "fb").exists()  # refused before any page was written
