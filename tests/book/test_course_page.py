"""The commands of the course and classroom pages work as written, in the order a lecturer
meets them, on a fresh class folder: students' returns are simulated between the steps."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from openpyxl import load_workbook

from conftest import helpers_command
from helpers.core import paths

ROOT = paths.project_root()
PAGES = ("book/course.md", "book/classroom.md", "book/explanation_items.md")
PREFIX = ".venv/bin/python -m helpers "


def page_commands(page: str) -> list[str]:
    """Every ``.venv/bin/python -m helpers`` command of a page: lines of code blocks (with
    their continuation lines) and inline code spans, in page order."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for m in re.finditer(r"```(?:bash)?\n(.*?)```|`(\.venv/bin/python -m helpers [^`]+)`", text, re.S):
        if m.group(2):
            found.append((m.start(), " ".join(m.group(2).split())))
            continue
        block = re.sub(r"\\\n\s*", " ", m.group(1))
        found += [(m.start(), line.strip()) for line in block.splitlines() if line.strip().startswith(PREFIX)]
    return [c for _, c in sorted(found)]


def test_every_course_command_is_written_to_work_from_the_project_folder():
    """The course pages, and the chapters and their words that a lecturer projects, give every
    command with the project's interpreter (a bare ``python`` is not the venv's)."""
    projected = sorted(ROOT.glob("notebooks/*.ipynb")) + sorted(ROOT.glob("notebooks/words/*.md"))
    assert len(projected) >= 10
    for page in [*(ROOT / p for p in PAGES), *projected]:
        text = page.read_text(encoding="utf-8")
        bare = re.findall(r"(?<![/\w])python -m helpers", text)
        assert not bare, f"{page.name}: 'python -m helpers' without .venv/bin/ fails outside an activated venv"
    assert len(page_commands("book/course.md")) >= 10


def test_no_label_is_written_twice():
    """A label repeated across a line break or a colon ("Discussion: discussion:") is a slip."""
    for page in sorted((ROOT / "book").glob("*.md")):
        text = " ".join(page.read_text(encoding="utf-8").split())
        twice = re.findall(r"\b(\w+): \1:", text, re.I)
        assert not twice, f"{page.name}: {twice}"


#: More items of the week-1 list than the classroom page's example shows (the page's two rows
#: come first): one student's unfinished rows can then leave the class without emptying it.
MORE_ITEMS = (
    "s3_2,Her words cut deeper than any knife.,cut,V,她的话比任何刀都伤人。,她的话比刀割得更深。\n"
    "s4_6,The city never sleeps.,sleeps,V,这座城市从不睡觉。,这座城市彻夜不眠。\n"
    "s5_4,He drowned in paperwork all spring.,drowned,V,他整个春天淹没在文件里。,他整个春天都被文书工作淹没。\n"
    "s6_3,Prices climbed steadily through the year.,climbed,V,价格全年稳步攀升。,价格一年来持续上涨。\n"
)
#: The student who leaves rows unfinished, and how many (the last ones of the sheet).
UNFINISHED = ("S04", 2)


def _fill_metahope(folder: Path, seed: int) -> None:
    """Every student annotates every row (a severity here and there) and marks it done, except
    :data:`UNFINISHED`'s student, who leaves the last rows unmarked."""
    rng = np.random.default_rng(seed)
    for k, path in enumerate(sorted(folder.glob("metahope_*.xlsx"))):
        wb = load_workbook(path)
        ws = wb["Annotation"]
        header = [c.value for c in ws[1]]
        cats = [i for i, h in enumerate(header, start=1) if h in ("IMP", "RAM", "MIS", "STL", "PRF")]
        done = header.index("done") + 1
        for r in range(2, ws.max_row + 1):
            for c in cats:
                if rng.random() < 0.15 + 0.03 * k:
                    ws.cell(r, c, int(rng.choice([2, 4, 6, 8])))
            if not (path.stem.endswith(UNFINISHED[0]) and r > ws.max_row - UNFINISHED[1]):
                ws.cell(r, done, "done")
        wb.save(path)


def _fill_ratings(folder: Path, sheet: str, first_row: int, score_cols: list[int], done_col: int, seed: int):
    rng = np.random.default_rng(seed)
    for path in sorted(folder.glob("*.xlsx")):
        wb = load_workbook(path)
        ws = wb[sheet]
        for r in range(first_row, ws.max_row + 1):
            if ws.cell(r, 1).value:
                for c in score_cols:
                    ws.cell(r, c, int(rng.integers(1, 6)))
                ws.cell(r, done_col, "done")
        wb.save(path)


def _returned(cwd: Path, blank: str, returned: str) -> Path:
    """The students hand their sheets back: copies of the blank ones, filled in later."""
    src, dest = cwd / blank, cwd / returned
    dest.mkdir(parents=True, exist_ok=True)
    for f in src.glob("*.xlsx"):
        (dest / f.name).write_bytes(f.read_bytes())
    return dest


@pytest.mark.slow
def test_the_course_and_classroom_commands_run_as_written(tmp_path, monkeypatch, capfd):
    """Each command, split as a shell splits it, is ``python -m helpers`` with its arguments, run
    from a fresh project folder (:func:`conftest.helpers_command`: the same ``main``, in this
    process, without a fresh interpreter's imports per command)."""
    from helpers import explanations as ex

    cwd = tmp_path / "project"
    cwd.mkdir()
    os.symlink(ROOT / "notebooks", cwd / "notebooks")
    items = re.search(r"```text\n(word_id,.*?)```", (ROOT / "book/classroom.md").read_text(encoding="utf-8"), re.S)
    (cwd / "items.csv").write_text(items.group(1) + MORE_ITEMS, encoding="utf-8")
    ex.load_benchmark().head(20).to_csv(cwd / "items20.csv", index=False)
    (cwd / "ITEMS.csv").write_bytes((cwd / "items20.csv").read_bytes())

    commands = list(dict.fromkeys(c for page in PAGES[:2] for c in page_commands(page)))
    seen = set()
    for command in commands:
        args = shlex.split(command)
        assert args[:3] == [".venv/bin/python", "-m", "helpers"], (
            command
        )  # the project's interpreter, as make sets it up
        kind = (args[3], args[4]) if len(args) > 4 else (args[3],)
        # between handing out and collecting, the students work
        if kind == ("check", "metahope") and "metahope" not in seen:
            _fill_metahope(_returned(cwd, "class/blank", "class/returned"), seed=1)
            seen.add("metahope")
        if kind == ("check", "explanations") and "explanations" not in seen:
            n = len(ex.SCORES)
            _fill_ratings(
                _returned(cwd, "ratings/blank", "ratings/returned"), "Ratings", 4, list(range(4, 4 + n)), 4 + n, seed=2
            )
            seen.add("explanations")
        if kind == ("check", "homophones") and "homophones" not in seen:
            _fill_ratings(_returned(cwd, "homophones/blank", "homophones/returned"), "Ratings", 2, [4], 5, seed=3)
            seen.add("homophones")
        code, out, err = helpers_command(monkeypatch, capfd, cwd, args[3:])
        if kind == ("check", "metahope") and "--unfinished" not in args:
            # the first check lists the unfinished rows and the choices, as the lecturer types them
            assert code == 1 and f"student '{UNFINISHED[0]}': {UNFINISHED[1]} of 6 rows are not marked done" in err, err
            assert "--unfinished drop_rows" in err and "unfinished =" not in err, err
            continue
        assert code == 0, f"{command}\n{out[-2000:]}\n{err[-3000:]}"
        if kind == ("check", "metahope"):  # ... and the check with the choice prints the commands that carry it
            assert "-p unfinished drop_rows" in out and "--unfinished drop_rows" in out, out
        if "--html" in args:  # the page itself is opened in tests/book/test_browser.py
            assert f"standalone page: {(cwd / args[args.index('--html') + 1]).resolve()}" in out, command
    assert seen == {"metahope", "explanations", "homophones"}
    for page in ("feedback_S01.html", "feedback_S12.html", "index.html"):
        assert (cwd / "class" / "feedback" / page).exists()
    assert f"not marked done by {UNFINISHED[0]}" in (cwd / "class" / "feedback" / "index.html").read_text("utf-8")
    table7 = pd.read_csv(cwd / "class" / "results" / "03_metahope_pilot_v2" / "agreement_by_system.csv")
    assert list(table7["system"]) == ["sysA", "sysB"]
    disputed = pd.read_csv(cwd / "class" / "results" / "03_metahope_pilot_v2" / "disputed_items.csv")
    # projected by default on a class's workbooks: codes, not the students' names; the key is the lecturer's
    assert {f"student {k}" for k in range(1, 13)} <= set(disputed.columns)
    assert not any(f"S{k:02d}" in c for c in disputed.columns for k in range(1, 13))
    key = pd.read_csv(cwd / "class" / "results" / "student_key.csv")
    assert {f"S{k:02d}" for k in range(1, 13)} <= set(key["student"])  # other chapters run there may add theirs
    assert (cwd / "class" / "results" / "03_metahope_pilot_v2.html").stat().st_size > 100_000
    # week 5: chapter 5 on the class's 20 rated items holds out a fifth of them by itself (it
    # held out the paper's 20 and stopped, "cannot hold out 20 of 20 metaphors"); its exercise
    # solutions run on them too
    split = pd.read_csv(cwd / "ratings" / "results" / "05_explanation_evaluator" / "split.csv")
    assert len(split) == 20 and (split["set"] == "held-out").sum() == 4
    replicates = pd.read_csv(
        cwd / "ratings" / "results" / "05_explanation_evaluator" / "judge_vs_baseline_replicates.csv"
    )
    assert len(replicates) == 6 and (replicates["n_held_out"] == 4).all()
    page = (cwd / "ratings" / "results" / "05_explanation_evaluator.ipynb").read_text(encoding="utf-8")
    assert "4 of the 20 metaphors are held out: a fifth, the paper's share" in page
    assert "held-out MAE on Overall: linear judge" in page  # the linear-judge exercise's solution ran
    assert "MAEs move closer to the baseline" in page  # and the ridge exercise's
    assert not (ROOT / "class").exists()  # nothing was written into the project itself
