"""Notebook runner: sources untouched, failures located, cache keyed by inputs."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from helpers import __main__ as cli
from helpers import paths, runner


def _notebook(path: Path, cells: list[str], parameters: str = "x = 1") -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(parameters, metadata={"tags": ["parameters"]})]
    nb.cells += [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def test_toc_lists_notebook_01():
    assert runner.toc_entries()[0] == "book/intro"
    assert paths.project_root() / "notebooks" / "01_metahope_pilot_v1.ipynb" in runner.toc_notebooks()


def test_every_toc_notebook_has_one_parameters_cell_and_no_outputs():
    for nb_path in runner.toc_notebooks():
        nb = json.loads(nb_path.read_text())
        tagged = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
        assert len(tagged) == 1, nb_path
        assert not any(c.get("outputs") or c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code")


def test_cache_key_depends_on_notebook_and_parameters(tmp_path):
    nb = _notebook(tmp_path / "n.ipynb", ["y = x + 1"])
    k1 = runner.cache_key(nb, {"x": 1})
    assert runner.cache_key(nb, {"x": 1}) == k1
    assert runner.cache_key(nb, {"x": 2}) != k1
    _notebook(nb, ["y = x + 2"])
    assert runner.cache_key(nb, {"x": 1}) != k1


def test_execute_injects_parameters_and_keeps_source(tmp_path):
    nb = _notebook(tmp_path / "n.ipynb", ["print(x * 7)"])
    before = nb.read_bytes()
    out = runner.execute_notebook(nb, tmp_path / "out" / "n.ipynb", parameters={"x": 6})
    assert nb.read_bytes() == before
    text = out.read_text()
    assert "42" in text
    with pytest.raises(ValueError, match="refusing"):
        runner.execute_notebook(nb, nb)


def test_failure_names_notebook_and_cell(tmp_path):
    nb = _notebook(tmp_path / "broken.ipynb", ["y = 1", "raise ValueError('sheet row 7 is wrong')"])
    with pytest.raises(runner.NotebookFailed) as err:
        runner.execute_notebook(nb, tmp_path / "out.ipynb")
    msg = str(err.value)
    assert "broken.ipynb" in msg and "cell 3 of the source" in msg and "ValueError: sheet row 7 is wrong" in msg


def test_cli_run_refuses_output_in_notebooks(capsys):
    code = cli.main(["run", "notebooks/01_metahope_pilot_v1.ipynb", "--output", "notebooks/copy.ipynb"])
    assert code == 2 and "sources stay untouched" in capsys.readouterr().err
    assert not (paths.project_root() / "notebooks" / "copy.ipynb").exists()


def test_cli_parameter_values_are_yaml():
    assert cli._parameter(["n", "3"]) == ("n", 3)
    assert cli._parameter(["files", "{A: a.xlsx, B: b.xlsx}"]) == ("files", {"A": "a.xlsx", "B": "b.xlsx"})
    assert cli._parameter(["x", "null"]) == ("x", None)
