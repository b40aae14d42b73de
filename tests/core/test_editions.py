"""The student edition of the notebooks: every exercise, no solution (text or code) of any chapter."""

from __future__ import annotations

import ast
import re

import nbformat
import pytest

from helpers.core import editions
from helpers.core.editions import SolutionMarkupError, student_notebook

md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell


def _nb(*cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    return nb


def test_both_kinds_of_solution_go_and_everything_else_stays():
    nb = _nb(
        md("# Title\n\n```{exercise}\n:label: e1\nQuestion one?\n```\n\n```{solution} e1\n:class: dropdown\n\n"
           "Answer one.\n```\n\n```{exercise}\n:label: e2\nQuestion two?\n```"),
        md("```{solution-start} e2\n:class: dropdown\n```\n\nGated text."),
        code("secret = 2"),
        md("```{solution-end}\n```\n\n```{exercise}\n:label: e3\nQuestion three, with code:\n\n"
           "```python\nx = 1\n```\n```"),
        md(":::{solution} e3\nColon-fenced answer.\n:::"),
        md("````{note}\nA note.\n```{solution} e3\nNested answer.\n```\n````"),
        code("after = 1"),
    )
    out = student_notebook(nb)
    assert [c.cell_type for c in out.cells] == ["markdown", "markdown", "markdown", "code"]
    assert out.cells[0].source == ("# Title\n\n```{exercise}\n:label: e1\nQuestion one?\n```\n\n"
                                   "```{exercise}\n:label: e2\nQuestion two?\n```")
    # the code block inside the exercise neither closes it nor is taken for a directive
    assert out.cells[1].source == "```{exercise}\n:label: e3\nQuestion three, with code:\n\n```python\nx = 1\n```\n```"
    assert out.cells[2].source == "````{note}\nA note.\n````"
    assert out.cells[3].source == "after = 1"
    assert len(nb.cells) == 7 and "Answer one." in nb.cells[0].source  # the source notebook is not changed


@pytest.mark.parametrize("cells, message", [
    ([md("```{solution-start} e\n```"), code("x = 1")], "cell 1: a solution-start without its solution-end"),
    ([md("text"), md("```{solution-end}\n```")], "cell 2: a solution-end without its solution-start"),
])
def test_a_broken_gate_is_named(cells, message):
    with pytest.raises(SolutionMarkupError, match=message) as err:
        student_notebook(_nb(*cells), "nb.ipynb")
    assert "nb.ipynb" in str(err.value)


# Solutions read from the sources independently of helpers.core.editions: the notebook as one text
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
    gated_code = [c.source for c in nb.cells if c.cell_type == "code" and c.source in "".join(_GATED.findall(
        "\n".join(c.source for c in nb.cells)))]
    kept_code = [c.source for c in student_notebook(nb).cells if c.cell_type == "code"]
    assert gated_code and kept_code == [c.source for c in nb.cells if c.cell_type == "code" and c.source not in gated_code]


def _names(source: str, kind) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    local = {a.arg for n in ast.walk(tree) if isinstance(n, (ast.Lambda, ast.FunctionDef))
             for a in (*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs)} if kind is ast.Load else set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, kind)} - local | (
        {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
         for a in n.names} if kind is ast.Store else set())


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
