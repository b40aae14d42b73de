"""Homophone rating kit: sheets made by the CLI, filled in, read back and averaged, wrong
entries located; chapter 6 run end to end on a class's workbooks."""

from __future__ import annotations

from collections import Counter

import pandas as pd
import pytest
from openpyxl import load_workbook

from conftest import BOOK_TEST_PARAMETERS
from helpers import __main__ as cli
from helpers.core.errors import InputError
from helpers.slang import candidates as hc
from helpers.slang import ch06
from helpers.slang import homophone_data as hd
from helpers.slang import template as kit


@pytest.fixture(scope="module")
def cands():
    """Algorithm 1's candidates of the five words, as chapter 6 makes them by default."""
    d = hd.char_frequencies(hd.load_smp2020()["text"])
    return {w: hc.candidates(w, d, threshold=100, roots=roots) for w, roots in hd.SLANG_ROOTS.items()}


@pytest.fixture
def sheets(tmp_path):
    out = tmp_path / "sheets"
    code = cli.main(
        [
            "template",
            "homophones",
            "--words",
            "尼玛,特么",
            "--per-word",
            "6",
            "--raters",
            "ana,ben",
            "--out",
            str(out),
            "--seed",
            "3",
        ]
    )
    assert code == 0
    return {"ana": out / "homophones_ana.xlsx", "ben": out / "homophones_ben.xlsx"}


def _rows(path):
    ws = load_workbook(path)["Ratings"]
    return [[c.value for c in row] for row in ws.iter_rows(min_row=2)]


def _fill(path, ratings: dict, done: bool = True):
    """Write ``{candidate: rating}`` into the rating column (D) of a sheet and mark every
    row done (E) unless ``done`` is False (an empty rating in a done row: cannot judge)."""
    wb = load_workbook(path)
    ws = wb["Ratings"]
    for row in ws.iter_rows(min_row=2):
        if row[2].value in ratings:
            row[3].value = ratings[row[2].value]
        if done:
            row[4].value = "done"
    wb.save(path)


def _set(path, cell: str, value):
    wb = load_workbook(path)
    wb["Ratings"][cell] = value
    wb.save(path)


def test_template_layout_sample_and_order(sheets, cands):
    wb = load_workbook(sheets["ana"])
    assert wb.sheetnames == ["Ratings", "Instructions"]
    ws = wb["Ratings"]
    assert [c.value for c in ws[1]] == list(kit.RATING_HEADER)
    validation = ws.data_validations.dataValidation[0]
    assert validation.formula1 == '"1,2,3,4,5"' and str(validation.sqref) == "D2:D13"
    done = ws.data_validations.dataValidation[1]
    assert done.formula1 == '"done"' and str(done.sqref) == "E2:E13"
    assert [wb["Instructions"]["A1"].value, wb["Instructions"]["B1"].value] == ["Student:", "ana"]
    ana, ben = _rows(sheets["ana"]), _rows(sheets["ben"])
    assert len(ana) == 12 and Counter(r[1] for r in ana) == {"尼玛": 6, "特么": 6}
    assert all(r[2] in cands[r[1]] and r[2] != r[1] for r in ana)  # generated candidates, never the slang word
    assert all(r[3] is None for r in ana)  # no rating, no score, no method shown
    # the same items under the same ids for every rater, each in its own order, both words mixed
    assert sorted(map(tuple, (r[:3] for r in ana))) == sorted(map(tuple, (r[:3] for r in ben)))
    assert [r[0] for r in ana] != [r[0] for r in ben]
    assert {r[1] for r in ana[:6]} == {"尼玛", "特么"} or {r[1] for r in ana[6:]} == {"尼玛", "特么"}
    guide = " ".join(str(c.value) for row in wb["Instructions"].iter_rows() for c in row if c.value)
    assert "stand-in" in guide and "1 to 5" in guide and "ana" in guide


def test_the_draw_is_seeded_and_uniform(cands):
    first = kit.rating_items(cands, ["劳资", "卧槽"], 3, seed=11)
    assert first.equals(kit.rating_items(cands, ["劳资", "卧槽"], 3, seed=11))
    # no ranking is consulted: over many seeds every candidate of 劳资 (7 besides itself) is drawn about 3/7 of the time
    counts = Counter(c for s in range(700) for c in kit.rating_items(cands, ["劳资"], 3, seed=s)["candidate"])
    assert set(counts) == set(cands["劳资"]) - {"劳资"}
    assert all(abs(n / 700 - 3 / 7) < 0.07 for n in counts.values())
    with pytest.raises(InputError, match=r"劳资 has only 7 candidates besides itself"):
        kit.rating_items(cands, ["劳资"], 8)


def test_filled_workbooks_are_averaged_per_candidate(sheets, cands):
    items = [r[2] for r in sorted(_rows(sheets["ana"]))]
    _fill(sheets["ana"], {items[0]: 5, items[1]: 2, items[2]: "4"})
    _fill(sheets["ben"], {items[0]: 4, items[1]: 3.0})  # ben leaves items[2] empty
    ratings = ch06.read_ratings("ratings_file", str(sheets["ana"].parent), cands).ratings
    assert list(ratings.columns) == ["word", "candidate", "avg_score", "n_raters"]
    got = ratings.set_index("candidate")
    assert got.loc[items[0], "avg_score"] == 4.5 and got.loc[items[0], "n_raters"] == 2
    assert got.loc[items[1], "avg_score"] == 2.5 and got.loc[items[2], "avg_score"] == 4.0
    assert got.loc[items[2], "n_raters"] == 1 and len(ratings) == 3
    as_list = ch06.read_ratings("ratings_file", [str(sheets["ana"]), str(sheets["ben"])], cands)
    pd.testing.assert_frame_equal(as_list.ratings, ratings)


def test_unfinished_rows_and_renamed_copies(sheets, cands, tmp_path):
    items = [r[2] for r in sorted(_rows(sheets["ana"]))]
    _fill(sheets["ana"], {items[0]: 5, items[1]: 2})
    _fill(sheets["ben"], {items[0]: 3, items[1]: 1}, done=False)  # ben rated two rows but marked nothing done
    _set(sheets["ben"], "E2", "done")
    folder = str(sheets["ana"].parent)
    with pytest.raises(
        InputError,
        match=r"homophones_ben.xlsx, sheet 'Ratings', column 'done': student 'ben': 11 of 12 "
        r"rows are not marked done: rows 3-13",
    ):
        ch06.read_ratings("ratings_file", folder, cands)
    rows = ch06.read_ratings("ratings_file", folder, cands, unfinished="drop_rows")
    assert rows.notes == ("left out rows 3-13 of student ben (homophones_ben.xlsx): not marked done",)
    students = ch06.read_ratings("ratings_file", folder, cands, unfinished="drop_students")
    assert students.ratings["n_raters"].eq(1).all() and sorted(students.ratings["avg_score"]) == [2, 5]
    sheets["ben"].rename(sheets["ben"].with_name("ben_final (2).xlsx"))  # a renamed file keeps its student
    renamed = ch06.read_ratings("ratings_file", folder, cands, unfinished="drop_students")
    assert renamed.notes == ("left out student ben (ben_final (2).xlsx): rows 3-13 are not marked done",)
    # projected (chapter 6's default on a class's workbooks): the data box names neither student nor file
    shown = ch06.read_ratings(
        "ratings_file", folder, cands, unfinished="drop_students", projection=None, results_dir=str(tmp_path / "res")
    )
    key = pd.read_csv(tmp_path / "res" / "student_key.csv").set_index("student")["code"]
    assert sorted(key.index) == ["ana", "ben"]
    assert shown.notes == (f"left out {key['ben']} (a workbook): rows 3-13 are not marked done",)
    assert shown.files == (folder,) and not any(n in " ".join(shown.students) for n in ("ana", "ben"))
    # file names that carry real names (a course platform's bulk download), and an Excel lock file
    sheets["ana"].rename(sheets["ana"].with_name("Ana Real_1001.xlsx"))
    (sheets["ana"].parent / "~$Ben Real_1002.xlsx").write_bytes(b"lock")
    real = ch06.read_ratings(
        "ratings_file", folder, cands, unfinished="drop_students", projection=None, results_dir=str(tmp_path / "res")
    )
    assert not any("Real" in n or "ben_final" in n for n in real.notes), real.notes


@pytest.mark.parametrize(
    "value, problem",
    [(7, "whole number from 1 to 5"), ("good", "whole number from 1 to 5"), (3.5, "whole number from 1 to 5")],
)
def test_wrong_ratings_are_named_by_workbook_sheet_cell_and_value(sheets, cands, value, problem):
    _fill(sheets["ben"], {_rows(sheets["ben"])[0][2]: 3})
    _set(sheets["ana"], "D5", value)
    with pytest.raises(InputError) as err:
        ch06.read_ratings("ratings_file", str(sheets["ana"].parent), cands)
    e = err.value
    assert (e.parameter, e.sheet, e.row, e.cell, e.value) == ("ratings_file", "Ratings", 5, "D5", value)
    assert e.path.name == "homophones_ana.xlsx" and problem in str(e)
    assert str(e).startswith("parameter 'ratings_file', ") and "homophones_ana.xlsx, sheet 'Ratings', row 5" in str(e)


def test_other_wrong_entries(sheets, cands, tmp_path):
    folder = str(sheets["ana"].parent)
    _fill(sheets["ben"], {_rows(sheets["ben"])[0][2]: 3})
    with pytest.raises(
        InputError,
        match=r"homophones_ana.xlsx, sheet 'Ratings', column 'done': student 'ana': "
        r"nothing is marked done",
    ):
        ch06.read_ratings("ratings_file", folder, cands)
    _fill(sheets["ana"], {_rows(sheets["ana"])[0][2]: 3})
    _set(sheets["ana"], "C4", "牢籍")
    with pytest.raises(InputError, match=r"cell C4: value '牢籍': is not a candidate Algorithm 1 generates for"):
        ch06.read_ratings("ratings_file", folder, cands)
    _set(sheets["ana"], "C4", _rows(sheets["ana"])[0][2])
    _set(sheets["ana"], "B4", _rows(sheets["ana"])[0][1])
    with pytest.raises(InputError, match=r"cell C4: .*listed twice \(first in row 2\)"):
        ch06.read_ratings("ratings_file", folder, cands)
    _set(sheets["ana"], "B4", "他妈的")
    with pytest.raises(InputError, match=r"cell B4: value '他妈的': is not one of the slang words"):
        ch06.read_ratings("ratings_file", folder, cands)
    _set(sheets["ben"], "D1", "score")
    with pytest.raises(
        InputError,
        match=r"homophones_ben.xlsx, sheet 'Ratings', row 1, cell D1: value 'score': "
        r"the header row was changed",
    ):
        ch06.read_ratings("ratings_file", str(sheets["ben"]), cands)
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"parameter 'ratings_file'.*empty: holds no .xlsx workbook"):
        ch06.read_ratings("ratings_file", str(tmp_path / "empty"), cands)
    (tmp_path / "r.csv").write_text("word,candidate,avg_score\n尼玛,你妈,4\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"parameter 'ratings_file\[1\]'.*wrong kind of file"):
        ch06.read_ratings("ratings_file", [str(sheets["ana"]), str(tmp_path / "r.csv")], cands)
    csv = ch06.read_ratings("ratings_file", str(tmp_path / "r.csv"), cands)
    assert csv.ratings["avg_score"].tolist() == [4]


def test_cli_refuses_unknown_words(tmp_path, capsys):
    code = cli.main(
        ["template", "homophones", "--words", "尼玛,你好", "--per-word", "2", "--raters", "2", "--out", str(tmp_path)]
    )
    assert code == 1 and "value '你好': is not one of the slang words" in capsys.readouterr().err


@pytest.mark.slow
def test_chapter_6_runs_on_a_class_s_workbooks(sheets, tmp_path):
    from helpers.core import paths
    from helpers.core.book import execution

    items = sorted(_rows(sheets["ana"]))
    skipped = items[-1][2]  # nobody rates this one
    _fill(sheets["ana"], {r[2]: 1 + k % 5 for k, r in enumerate(items) if r[2] != skipped})
    _fill(sheets["ben"], {r[2]: 1 + (k * 3) % 5 for k, r in enumerate(items) if r[2] != skipped})
    results = tmp_path / "results"
    execution.execute_notebook(
        paths.project_root() / "notebooks" / "06_homophones.ipynb",
        tmp_path / "06.ipynb",
        parameters={
            "results_dir": str(results),
            "ratings_file": str(sheets["ana"].parent),
            # not checked here; as in the test build, whose cached models this run reuses
            "lm_ladder": BOOK_TEST_PARAMETERS["lm_ladder"],
            "c_grid": BOOK_TEST_PARAMETERS["c_grid"],
            "classifier_posts": BOOK_TEST_PARAMETERS["classifier_posts"],
            "gpt_steps": BOOK_TEST_PARAMETERS["gpt_steps"],
        },
    )
    folder = results / "06_homophones"
    spearman = pd.read_csv(folder / "homophone_spearman.csv")
    assert list(spearman.columns) == ["method", "scorer", "context", "rho", "p", "n"]
    assert (spearman["n"] == 11).all()  # the class's 11 rated candidates, not Table 8's 25
    by_word = pd.read_csv(folder / "homophone_spearman_by_word.csv")
    assert set(by_word["word"]) == {"尼玛", "特么"}
    assert by_word.groupby(["method", "context"])["n"].sum().eq(11).all()
    within = pd.read_csv(folder / "homophone_spearman_within_word.csv")
    assert (within["n_words"] == 2).all() and within["exact"].all()
    page = (tmp_path / "06.ipynb").read_text(encoding="utf-8")
    assert "Real data: annotations supplied as notebook parameters" in page and "2 workbook(s)" in page
    # projected (the workbooks carry a Student: field): the data box lists the folder, not the students' files
    assert "homophones_ana" not in page and "homophones_ben" not in page
    assert sorted(pd.read_csv(results / "student_key.csv")["student"]) == ["ana", "ben"]
    # the findings are the class's: stated from this run's tables and saved with them
    stated = pd.read_csv(folder / "findings.csv").query("section == 'findings'").set_index("quantity")
    assert stated.loc["ratings", "value"] == 11 and stated.loc["rated_words", "value"] == 2
    assert stated.loc["rated", "value"] == 11 and stated.loc["published_ratings", "value"] == 0
    assert "11 rated candidates of 2 slang word(s) from the ratings given as `ratings_file`" in page
    assert "with 11 rated candidates a Spearman ρ near 0" in page and "from the paper's Table 8" not in page


def test_an_old_copy_with_errors_beside_the_corrected_one(sheets, cands, capsys):
    items = [r[2] for r in sorted(_rows(sheets["ana"]))]
    _fill(sheets["ana"], {items[0]: 5})
    _fill(sheets["ben"], {items[0]: 3})
    old = sheets["ben"].with_name("homophones_ben old.xlsx")
    old.write_bytes(sheets["ben"].read_bytes())
    _set(old, "D2", 9)
    assert cli.main(["check", "homophones", str(sheets["ana"].parent), "--class-list", "ana,ben"]) == 1
    err = capsys.readouterr().err
    assert "homophones_ben old.xlsx, sheet 'Ratings', row 2, column 'rating', cell D2: value 9" in err
    assert "homophones_ben.xlsx: value 'ben': student 'ben' also has the workbook homophones_ben old.xlsx" in err
