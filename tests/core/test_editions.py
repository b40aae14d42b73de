"""The student edition of the notebooks: every exercise, no solution (text or code) of any chapter."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from helpers.core.book import editions
from helpers.core.book.editions import SolutionMarkupError, student_notebook

md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell


def _nb(*cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    return nb


def test_both_kinds_of_solution_go_and_everything_else_stays():
    nb = _nb(
        md(
            "# Title\n\n```{exercise}\n:label: e1\nQuestion one?\n```\n\n```{solution} e1\n:class: dropdown\n\n"
            "Answer one.\n```\n\n```{exercise}\n:label: e2\nQuestion two?\n```"
        ),
        md("```{solution-start} e2\n:class: dropdown\n```\n\nGated text."),
        code("secret = 2"),
        md(
            "```{solution-end}\n```\n\n```{exercise}\n:label: e3\nQuestion three, with code:\n\n"
            "```python\nx = 1\n```\n```"
        ),
        md(":::{solution} e3\nColon-fenced answer.\n:::"),
        md("````{note}\nA note.\n```{solution} e3\nNested answer.\n```\n````"),
        code("after = 1"),
    )
    out = student_notebook(nb)
    assert [c.cell_type for c in out.cells] == ["markdown", "markdown", "markdown", "code"]
    assert out.cells[0].source == (
        "# Title\n\n```{exercise}\n:label: e1\nQuestion one?\n```\n\n```{exercise}\n:label: e2\nQuestion two?\n```"
    )
    # the code block inside the exercise neither closes it nor is taken for a directive
    assert out.cells[1].source == "```{exercise}\n:label: e3\nQuestion three, with code:\n\n```python\nx = 1\n```\n```"
    assert out.cells[2].source == "````{note}\nA note.\n````"
    assert out.cells[3].source == "after = 1"
    assert len(nb.cells) == 7 and "Answer one." in nb.cells[0].source  # the source notebook is not changed


@pytest.mark.parametrize(
    "cells, message",
    [
        ([md("```{solution-start} e\n```"), code("x = 1")], "cell 1: a solution-start without its solution-end"),
        ([md("text"), md("```{solution-end}\n```")], "cell 2: a solution-end without its solution-start"),
    ],
)
def test_a_broken_gate_is_named(cells, message):
    with pytest.raises(SolutionMarkupError, match=message) as err:
        student_notebook(_nb(*cells), "nb.ipynb")
    assert "nb.ipynb" in str(err.value)


# Solutions read from the sources independently of helpers.core.book.editions: the notebook as one text
# (cells in order), a `solution` block up to the first line of three backticks, a gated solution up
# to its solution-end.
_BLOCK = re.compile(r"^```\{solution\}.*?^```[ \t]*$", re.M | re.S)
_GATED = re.compile(r"^```\{solution-start\}.*?^```\{solution-end\}[^\n]*\n```[ \t]*$", re.M | re.S)


def _as_text(nb) -> str:
    return "\n".join(c.source for c in nb.cells)


def _solutions(text: str) -> list[str]:
    return _BLOCK.findall(text) + _GATED.findall(text)


@pytest.mark.parametrize("source", editions.source_notebooks(), ids=lambda p: p.stem)
def test_no_solution_text_or_code_reaches_the_student_notebook(source):
    nb = nbformat.read(source, as_version=4)
    text = _as_text(nb)
    solutions = _solutions(text)
    exercises = re.findall(r"^```\{exercise\}\n:label: (\S+)", text, re.M)
    assert len(exercises) >= 3 and len(solutions) == len(exercises), (exercises, len(solutions))
    outside = _GATED.sub("", _BLOCK.sub("", text))
    student = _as_text(student_notebook(nb, source.name))
    checked = 0
    for solution in solutions:
        for line in solution.splitlines():
            line = line.strip()
            if len(line) >= 20 and line not in outside:  # a line of the solution's own
                assert line not in student, (source.name, line)
                checked += 1
    assert checked >= len(solutions)
    assert "{solution" not in student
    for label in exercises:  # every exercise stays
        assert f":label: {label}" in student
    # the code of every gated solution is gone, every other code cell stays
    gated_code = [
        c.source
        for c in nb.cells
        if c.cell_type == "code" and c.source in "".join(_GATED.findall("\n".join(c.source for c in nb.cells)))
    ]
    kept_code = [c.source for c in student_notebook(nb).cells if c.cell_type == "code"]
    assert gated_code and kept_code == [
        c.source for c in nb.cells if c.cell_type == "code" and c.source not in gated_code
    ]


def _names(source: str, kind) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    local = (
        {
            a.arg
            for n in ast.walk(tree)
            if isinstance(n, (ast.Lambda, ast.FunctionDef))
            for a in (*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs)
        }
        if kind is ast.Load
        else set()
    )
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, kind)} - local | (
        {
            a.asname or a.name.split(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, (ast.Import, ast.ImportFrom))
            for a in n.names
        }
        if kind is ast.Store
        else set()
    )


@pytest.mark.parametrize("source", editions.source_notebooks(), ids=lambda p: p.stem)
def test_the_student_notebook_does_not_need_a_removed_solution(source):
    """No cell left in the student edition reads a name that only a removed solution cell defines."""
    nb = nbformat.read(source, as_version=4)
    kept = [c for c in student_notebook(nb).cells if c.cell_type == "code"]
    defined = set().union(*(_names(c.source, ast.Store) for c in kept))
    removed = [c for c in nb.cells if c.cell_type == "code" and c.source not in [k.source for k in kept]]
    only_in_solutions = set().union(*(_names(c.source, ast.Store) for c in removed)) - defined
    for cell in kept:
        assert not _names(cell.source, ast.Load) & only_in_solutions, (source.name, cell.source[:80])


def test_the_edition_folder_is_written_once_and_a_students_edits_are_kept(tmp_path):
    sources = editions.source_notebooks()[:2]
    first = editions.write_student_edition(tmp_path, sources)
    assert set(first.values()) == {"written"}
    for src in sources:
        written = nbformat.read(tmp_path / src.name, as_version=4)
        assert _as_text(written) == _as_text(student_notebook(nbformat.read(src, as_version=4)))
    assert set(editions.write_student_edition(tmp_path, sources).values()) == {"unchanged"}
    edited = tmp_path / sources[0].name
    edited.write_text(edited.read_text().replace("## Exercises", "## Exercises (my notes)"))
    again = editions.write_student_edition(tmp_path, sources)
    assert again[sources[0].name].startswith("kept") and "my notes" in edited.read_text()
    assert editions.write_student_edition(tmp_path, sources, keep_edited=False)[sources[0].name] == "written"
    assert "my notes" not in edited.read_text()


def test_cli_writes_the_student_notebooks(tmp_path, capsys):
    from helpers import __main__ as cli

    assert cli.main(["student-notebooks", "--output", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"student edition of the notebooks (exercises, no solutions): {tmp_path}" in out
    assert sorted(p.name for p in tmp_path.glob("*.ipynb")) == [p.name for p in editions.source_notebooks()]


# The student routes: the lab's folder and the kit. Each is built in a copy of the project that also
# holds a classmate's sheet, results, runs, feedback and an instructor book, and must hold no line of
# any solution and none of those files.
CLASSMATE = "metahope_ana"


def _solution_lines() -> list[str]:
    """Every line of 20 characters or more that only a solution of some notebook holds (not the rest of
    the notebooks, not the package: an import line a solution shares with ``helpers`` is no solution)."""
    package = "\n".join(
        p.read_text(encoding="utf-8") for p in (editions.paths.project_root() / "src" / "helpers").rglob("*.py")
    )
    lines = set()
    for source in editions.source_notebooks():
        text = _as_text(nbformat.read(source, as_version=4))
        outside = _GATED.sub("", _BLOCK.sub("", text))
        lines |= {
            line.strip()
            for s in _solutions(text)
            for line in s.splitlines()
            if len(line.strip()) >= 20 and line.strip() not in outside and line.strip() not in package
        }
    assert len(lines) > 100
    return sorted(lines)


@pytest.fixture
def project_copy(tmp_path, monkeypatch):
    """A copy of what the student routes can read from the project, beside a class's private files."""
    import shutil

    root, copy = editions.paths.project_root(), tmp_path / "project"
    for folder in ("src", "notebooks", "book", "data"):
        shutil.copytree(root / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__", "raw", "*.egg-info"))
    for name in ("Makefile", "pyproject.toml", "requirements.txt", "README.md", "_toc.yml", "_config.yml"):
        shutil.copy2(root / name, copy / name)
    for private in (
        f"class/returned/{CLASSMATE}.xlsx",
        f"class/feedback/{CLASSMATE}.html",
        "results/01_metahope_pilot_v1/table1_agreement.csv",
        "runs/01_metahope_pilot_v1-x.ipynb",
        "_build/html/index.html",
        "_build/stage/notebooks/01_metahope_pilot_v1.ipynb",
    ):
        (copy / private).parent.mkdir(parents=True, exist_ok=True)
        (copy / private).write_text(f"{CLASSMATE}: private", encoding="utf-8")
    monkeypatch.setenv("HELPERS_PROJECT_ROOT", str(copy))
    return copy


def _assert_student_only(files: dict[str, str]):
    """``files``: each file of a student route, by name, with its text."""
    assert not [n for n in files if CLASSMATE in n or n.split("/")[0] in ("class", "results", "runs", "_build")]
    everything = "\n".join(files.values())
    assert CLASSMATE not in everything
    assert not [n for n, text in files.items() if n.endswith(".ipynb") and "{solution" in text]
    leaked = [line for line in _solution_lines() if line in everything]
    assert not leaked, leaked[:5]


def test_the_student_lab_is_rooted_at_the_student_notebooks_and_holds_nothing_else(project_copy):
    """make lab-student roots JupyterLab at the folder it writes the edition into: every file under it
    (all the file browser reaches) is a student notebook."""
    import shlex
    import shutil
    import subprocess

    if not shutil.which("make"):
        pytest.skip("make is not installed")
    shown = subprocess.run(
        ["make", "-n", "-f", str(editions.paths.project_root() / "Makefile"), "lab-student"],
        cwd=project_copy,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lab = shlex.split(next(line for line in shown.splitlines() if re.search(r"/jupyter lab\b", line)))
    roots = [arg.split("=", 1)[1] for arg in lab if arg.startswith("--ServerApp.root_dir=")]
    assert roots == [str(project_copy / "_build" / "student" / "notebooks")]
    root = Path(roots[0])
    write = shlex.split(next(line for line in shown.splitlines() if "student-notebooks" in line))
    assert write[write.index("--output") + 1] == str(root)  # the edition is written where the server is rooted
    editions.write_student_edition(root)
    files = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in root.rglob("*") if p.is_file()}
    assert sorted(n for n in files if n.endswith(".ipynb")) == [p.name for p in editions.source_notebooks()]
    assert set(files) - {editions.MANIFEST} == {n for n in files if n.endswith(".ipynb")}
    _assert_student_only(files)


def test_the_student_kit_holds_the_student_notebooks_and_what_runs_them_only(project_copy, tmp_path):
    import zipfile

    from helpers import __main__ as cli

    book = project_copy / "_build" / "student" / "html"  # a student book built by make book-student
    book.mkdir(parents=True)
    (book / "index.html").write_text("<p>student edition</p>", encoding="utf-8")
    assert cli.main(["student-kit", "--out", str(tmp_path / "kit.zip")]) == 0
    with zipfile.ZipFile(tmp_path / "kit.zip") as kit:
        files = {n: kit.read(n).decode("utf-8", errors="ignore") for n in kit.namelist()}
    notebooks = sorted(n for n in files if n.startswith("notebooks/") and n.endswith(".ipynb"))
    assert notebooks == [f"notebooks/{p.name}" for p in editions.source_notebooks()]
    for name in notebooks:  # the student edition, exercises kept
        source = nbformat.read(project_copy / name, as_version=4)
        assert nbformat.reads(files[name], as_version=4).cells == student_notebook(source).cells
    # what runs them: the package, its install files, the notebooks' words, the book's data; the student book
    for needed in (
        "README.md",
        "Makefile",
        "pyproject.toml",
        "requirements.txt",
        "_toc.yml",
        "data/sources.yml",
        "src/helpers/__init__.py",
        "src/helpers/core/book/editions.py",
        "notebooks/words/metahope.md",
        "data/published/metahope_pilot_v1/table1_agreement.csv",
        "html/index.html",
    ):
        assert needed in files, needed
    assert "make lab" in files["README.md"] and "html/index.html" in files["README.md"]
    _assert_student_only(files)
    # the explanation items' answer key (their designed pass/fail) only when asked for, once a class has rated them
    key = "data/authored/metaphor_explanations.csv"
    assert key not in files and key in files["README.md"]
    assert not [n for n, text in files.items() if "E002,a whirlwind romance" in text]
    assert cli.main(["student-kit", "--out", str(tmp_path / "key.zip"), "--with-answer-key"]) == 0
    with zipfile.ZipFile(tmp_path / "key.zip") as kit:
        assert set(kit.namelist()) - set(files) == {key, "data/authored/idiom_sample.csv"}  # chapter 10's key too
