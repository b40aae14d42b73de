"""The classroom commands as a lecturer who does not program meets them: their help says what
they write, their errors name what the lecturer types there, and nothing needs make or bash."""

from __future__ import annotations

import re

import pytest

from conftest import helpers_command
from helpers import __main__
from helpers.core.book import cli

ITEMS = (
    "word_id,sentence,word,pos,sysA,sysB\n"
    "s1_3,Rumours swirled around the boardroom.,swirled,V,谣言在董事会里打转。,董事会里流言四起。\n"
    "s2_5,The new manager is a breath of fresh air.,breath,N,新经理是一口新鲜空气。,新经理带来一股清风。\n"
)


def _option_help(kind: str, option: str) -> str:
    """The help text of ``template KIND``'s ``option``."""
    parser = cli.build_parser(__main__._studies())
    sub = next(a for a in parser._actions if a.dest == "command").choices["template"]
    kit = next(a for a in sub._actions if a.dest == "kind").choices[kind]
    return next(a.help for a in kit._actions if option in a.option_strings)


def test_every_template_says_the_student_names_it_writes(tmp_path, monkeypatch, capfd):
    """A count of students gives S01, S02 … in every kit; the help of each kit says so."""
    from helpers import explanations as ex

    (tmp_path / "items.csv").write_text(ITEMS, encoding="utf-8")
    ex.load_benchmark().head(3).to_csv(tmp_path / "items3.csv", index=False)
    for argv in (
        ["template", "metahope", "--items", "items.csv", "--systems", "sysA,sysB", "--annotators", "2", "--out", "m"],
        ["template", "explanations", "--items", "items3.csv", "--raters", "2", "--out", "x"],
    ):
        code, out, err = helpers_command(monkeypatch, capfd, tmp_path, argv)
        assert code == 0, err
    written = sorted(p.stem.split("_")[-1] for p in (tmp_path / "m").glob("*.xlsx"))
    assert written == sorted(p.stem.split("_")[-1] for p in (tmp_path / "x").glob("*.xlsx")) == ["S01", "S02"]
    for kind, option in (("metahope", "--annotators"), ("explanations", "--raters"), ("homophones", "--raters")):
        named = re.search(r"named ([^.)]*)", _option_help(kind, option))
        assert named and named.group(1).startswith("S01, S02"), (kind, _option_help(kind, option))


def _class(tmp_path, monkeypatch, capfd, n: int = 4, unfinished: int = 1, name: str = "class"):
    """A MetaHOPE class of ``n`` in ``tmp_path/name``: blanks handed out, every sheet returned
    filled in and marked done, except the last ``unfinished`` row of student S02."""
    from openpyxl import load_workbook

    (tmp_path / "items.csv").write_text(ITEMS, encoding="utf-8")
    code, _, err = helpers_command(
        monkeypatch,
        capfd,
        tmp_path,
        [
            "template",
            "metahope",
            "--items",
            "items.csv",
            "--systems",
            "sysA,sysB",
            "--annotators",
            str(n),
            "--out",
            f"{name}/blank",
        ],
    )
    assert code == 0, err
    (tmp_path / name / "returned").mkdir()
    for k, blank in enumerate(sorted((tmp_path / name / "blank").glob("*.xlsx"))):
        wb = load_workbook(blank)
        ws = wb["Annotation"]
        header = [c.value for c in ws[1]]
        mis, done = header.index("MIS") + 1, header.index("done") + 1
        for r in range(2, ws.max_row + 1):
            ws.cell(r, mis, [0, 2, 4, 6][(k + r) % 4])
            if not (blank.stem.endswith("S02") and r > ws.max_row - unfinished):
                ws.cell(r, done, "done")
        wb.save(tmp_path / name / "returned" / blank.name)
    return tmp_path / name


def test_a_command_names_the_options_typed_there_and_a_chapter_its_parameters(tmp_path, monkeypatch, capfd):
    """``check`` and ``feedback`` say ``--unfinished drop_rows`` and ``argument FOLDER``; the
    same class read as a chapter reads it says ``-p unfinished drop_rows``."""
    from helpers.core.errors import InputError
    from helpers.metahope.load import load_class

    folder = _class(tmp_path, monkeypatch, capfd)
    for argv in (
        ["check", "metahope", "class/returned"],
        ["feedback", "metahope", "--annotations", "class/returned", "--out", "class/feedback"],
    ):
        code, out, err = helpers_command(monkeypatch, capfd, tmp_path, argv)
        assert code == 1 and "student 'S02': 1 of 2 rows are not marked done" in err, err
        assert "run with --unfinished drop_rows (leave those rows out) or --unfinished drop_students" in err, err
        assert "unfinished =" not in err and "-p unfinished" not in err, err
    code, out, err = helpers_command(monkeypatch, capfd, tmp_path, ["check", "metahope", "class/gone"])
    assert code == 1 and err.startswith("error: argument FOLDER: value 'class/gone'"), err
    with pytest.raises(InputError) as chapter:
        load_class(folder / "returned")
    assert "run with -p unfinished drop_rows (leave those rows out) or -p unfinished drop_students" in str(
        chapter.value
    )
    assert "--unfinished" not in str(chapter.value)


def test_the_check_prints_the_next_commands_with_the_choice_made(tmp_path, monkeypatch, capfd):
    """The lecturer decides once: the check prints the chapter and feedback commands with
    ``--unfinished drop_rows`` carried, and the printed feedback command runs as printed."""
    import shlex
    import sys

    _class(tmp_path, monkeypatch, capfd)
    code, out, err = helpers_command(
        monkeypatch, capfd, tmp_path, ["check", "metahope", "class/returned", "--unfinished", "drop_rows"]
    )
    assert code == 0, err
    assert "left out item s2_5: not marked done by S02" in out
    lines = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    python = sys.executable
    assert lines == [
        f"{python} -m helpers run notebooks/03_metahope_pilot_v2.ipynb -p annotations class/returned "
        "-p results_dir class/results -p unfinished drop_rows",
        f"{python} -m helpers feedback metahope --annotations class/returned --out class/feedback "
        "--unfinished drop_rows",
    ], out
    code, out, err = helpers_command(monkeypatch, capfd, tmp_path, shlex.split(lines[1])[3:])
    assert code == 0, err
    assert list((tmp_path / "class" / "feedback").glob("*S02.html"))  # S02's page, whatever the kit names it


def test_a_class_list_folder_says_how_to_take_a_student_off(tmp_path, monkeypatch, capfd):
    """With a folder of blanks as the class list, the error says to move the blank out."""
    _class(tmp_path, monkeypatch, capfd)
    (tmp_path / "class" / "returned" / "metahope_S04.xlsx").unlink()
    code, out, err = helpers_command(
        monkeypatch, capfd, tmp_path, ["check", "metahope", "class/returned", "--class-list", "class/blank"]
    )
    assert code == 1
    assert "student 'S04' is on the class list but returned no workbook" in err
    assert "move their blank workbook out of class/blank" in err, err
    code, out, err = helpers_command(
        monkeypatch, capfd, tmp_path, ["check", "metahope", "class/returned", "--class-list", "S01,S02,S03,S04"]
    )
    assert "take their name out of --class-list" in err, err


def _windows_block() -> list[str]:
    """The native Windows set-up of book/rerun.md, one command a line."""
    from helpers.core import paths

    text = (paths.project_root() / "book" / "rerun.md").read_text(encoding="utf-8")
    assert "## On Windows" in text, "book/rerun.md has no route for a lecturer on Windows"
    section = text.split("## On Windows", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert block, "book/rerun.md: the Windows section gives its commands in a text block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_windows_route_needs_only_what_works_without_make(tmp_path, monkeypatch, capfd):
    """The native Windows route of book/rerun.md: a venv, pip on the pinned requirements, the
    package editable, then ``python -m helpers``. Checked here without a fresh install: the
    helpers commands it gives parse, the requirements are plain pins pip can install
    anywhere, the project installs editable, ``fetch`` runs without make, no command calls
    make or a shell, and a class folder with spaces in its name works."""
    import ast
    import shlex
    import tomllib

    from helpers.core import paths

    root = paths.project_root()
    steps = _windows_block()
    assert steps[0].startswith("py -3.11 -m venv .venv")
    assert any("pip install" in s and "-r requirements.txt" in s and "download.pytorch.org/whl/cpu" in s for s in steps)
    assert any("pip install" in s and "-e ." in s for s in steps)
    parser = cli.build_parser(__main__._studies())
    helpers_steps = [s for s in steps if s.startswith(".venv\\Scripts\\python -m helpers ")]
    assert [shlex.split(s, posix=False)[3] for s in helpers_steps] == ["fetch", "build"]
    for step in helpers_steps:
        parser.parse_args(shlex.split(step, posix=False)[3:])  # a wrong option would exit here
    # requirements.txt: NAME==VERSION lines only (no local path, URL or Linux-only build)
    pins = [line for line in (root / "requirements.txt").read_text().splitlines() if line and not line.startswith("#")]
    assert all(re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[0-9][A-Za-z0-9.]*", line) for line in pins), pins
    project = tomllib.loads((root / "pyproject.toml").read_text())
    assert project["build-system"]["requires"] and project["project"]["name"]
    # fetch without make: the released data is verified in place
    code, out, err = helpers_command(monkeypatch, capfd, root, ["fetch"])
    assert code == 0 and "files verified" in out, err
    # no command starts make or a shell: every process is this Python, given as a list
    for source in sorted((root / "src" / "helpers").rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and (
                    ast.unparse(node.func) in ("os.system", "os.popen") or ast.unparse(node.func.value) == "subprocess"
                )
            ):
                assert ast.unparse(node.func) not in ("os.system", "os.popen"), source
                assert not any(k.arg == "shell" for k in node.keywords), source
                assert not (node.args and isinstance(node.args[0], ast.Constant)), source
                assert not re.search(r"\b(make|bash|sh)\b['\"]", ast.unparse(node)), source
    # a class folder whose name has spaces: template, check, and the feedback command it prints
    _class(tmp_path, monkeypatch, capfd, name="class 2027")
    code, out, err = helpers_command(
        monkeypatch,
        capfd,
        tmp_path,
        [
            "check",
            "metahope",
            "class 2027/returned",
            "--class-list",
            "class 2027/blank",
            "--unfinished",
            "drop_students",
        ],
    )
    assert code == 0 and "left out student S02" in out, err
    feedback = next(line.strip() for line in out.splitlines() if " feedback metahope " in line)
    assert '--annotations "class 2027/returned" --out "class 2027/feedback" --unfinished drop_students' in feedback
    code, out, err = helpers_command(monkeypatch, capfd, tmp_path, shlex.split(feedback)[3:])
    assert code == 0, err
    assert (tmp_path / "class 2027" / "feedback" / "index.html").exists()
