"""The chapters that take a class's sheets and that the course page's commands do not run
(tests/book/test_course_page.py runs chapters 2, 3 and 5 on a class's sheets), run as a
lecturer types them, exercise solutions included, on a class whose students and systems are
not the paper's."""

from __future__ import annotations

import os
import re

import pandas as pd
import pytest
from test_course_page import _fill_metahope, _returned

from conftest import helpers_command
from helpers.core import paths

ROOT = paths.project_root()
# four metaphors of three sentences, translated by two systems that are not the paper's
ITEMS = """word_id,sentence,word,pos,DeepL,Qwen-MT
s1_3,Rumours swirled around the boardroom.,swirled,V,谣言在董事会里打转。,董事会里流言四起。
s2_5,The new manager is a breath of fresh air.,breath,N,新经理是一口新鲜空气。,新经理带来了一股清风。
s2_9,The new manager is a breath of fresh air.,fresh,AJ,新经理是一口新鲜空气。,新经理带来了一股清风。
s3_2,Prices soared last week.,soared,V,价格上周飙升。,上周价格飞涨。
"""
STUDENTS = "aiko,bela,cyrus,dagny"  # names the book's own examples do not use


def _run(monkeypatch, capfd, cwd, *args) -> str:
    code, out, err = helpers_command(monkeypatch, capfd, cwd, ["run", *args])
    assert code == 0, f"{args}\n{out[-2000:]}\n{err[-3000:]}"
    return out


@pytest.mark.slow
def test_chapter_1_runs_with_its_solutions_on_a_named_class(tmp_path, monkeypatch, capfd):
    """Chapter 1 on a class folder of four students (it compares the pair ``raters`` names;
    its MIS exercise once crashed on systems other than GPT-5.4). About 5 s: 4 items, 100
    resamples. Chapter 5 on a class's ratings is the course page's week-5 command."""
    cwd = tmp_path / "project"
    cwd.mkdir()
    os.symlink(ROOT / "notebooks", cwd / "notebooks")
    (cwd / "items.csv").write_text(ITEMS, encoding="utf-8")
    assert (
        helpers_command(
            monkeypatch,
            capfd,
            cwd,
            [
                "template",
                "metahope",
                "--items",
                "items.csv",
                "--systems",
                "DeepL,Qwen-MT",
                "--annotators",
                STUDENTS,
                "--out",
                "class/blank",
            ],
        )[0]
        == 0
    )
    _fill_metahope(_returned(cwd, "class/blank", "class/returned"), seed=4)

    _run(
        monkeypatch,
        capfd,
        cwd,
        "notebooks/01_metahope_pilot_v1.ipynb",
        "-p",
        "annotator_files",
        "class/returned",
        "-p",
        "raters",
        "[bela, dagny]",
        "-p",
        "n_sentences",
        "null",
        "-p",
        "n_boot",
        "100",
        "-p",
        "results_dir",
        "class/results",
        "--output",
        "class/results/01_metahope_pilot_v1.ipynb",
        "--html",
        "class/results/01_metahope_pilot_v1.html",
    )
    folder = cwd / "class" / "results" / "01_metahope_pilot_v1"
    assert pd.read_csv(folder / "table1_agreement.csv")["system"].tolist() == ["DeepL", "Qwen-MT"]
    # a class's workbooks are projected by default: the page and tables show codes, the key is the lecturer's
    code = pd.read_csv(cwd / "class" / "results" / "student_key.csv").set_index("student")["code"]
    assert sorted(code.index) == sorted(STUDENTS.split(","))
    bias = pd.read_csv(folder / "severity_bias.csv")
    assert {f"mean_{code['bela']}", f"mean_{code['dagny']}"} <= set(bias.columns) and (bias["n_items"] == 4).all()
    page = (cwd / "class" / "results" / "01_metahope_pilot_v1.ipynb").read_text(encoding="utf-8")
    assert (
        f"compares two annotators, <strong>{code['bela']}</strong> and <strong>{code['dagny']}</strong> (given as"
        in page
    )
    projected = (cwd / "class" / "results" / "01_metahope_pilot_v1.html").read_text(encoding="utf-8")
    for name in STUDENTS.split(","):  # not even the names the lecturer typed in -p raters
        assert not re.search(rf"\b{name}\b", projected), name
    assert "chapter 3 reads all 4 together" in page
    assert "the row of Table 6." in page  # the MIS exercise's solution ran, on a system of this class
    assert not (ROOT / "class").exists()
