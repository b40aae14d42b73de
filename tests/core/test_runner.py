"""Notebook runner and command line: sources untouched, failures named and kept apart, nothing mixed."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import nbformat
import pytest
from conftest import helpers_command

from helpers import __main__ as cli
from helpers.core import build, execution, kernel, paths
from helpers.core.cli import parse_value
from helpers.core.errors import InputError


def _notebook(path: Path, cells: list[str], parameters: str = "x = 1  # a number") -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(parameters, metadata={"tags": ["parameters"]})]
    nb.cells += [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def test_toc_lists_notebook_01():
    assert build.toc_entries()[0] == "book/intro"
    assert paths.project_root() / "notebooks" / "01_metahope_pilot_v1.ipynb" in build.toc_notebooks()


def test_every_toc_notebook_has_one_parameters_cell_and_no_outputs():
    for nb_path in build.toc_notebooks():
        nb = json.loads(nb_path.read_text())
        tagged = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
        assert len(tagged) == 1, nb_path
        ids = [c.get("id") for c in nb["cells"]]  # without ids nbformat invents new ones on every read
        assert None not in ids and len(set(ids)) == len(ids), nb_path
        assert not any(c.get("outputs") or c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code")


def test_every_parameter_says_what_it_means():
    """papermill --help-notebook lists every parameter with its inline comment as help."""
    from papermill.translators import PythonTranslator

    for nb_path in build.toc_notebooks():
        nb = nbformat.read(nb_path, as_version=4)
        cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
        names = [line.split("=")[0].strip() for line in cell.source.splitlines()
                 if line.strip() and not line.startswith((" ", "#"))]
        found = {p.name: p.help for p in PythonTranslator.inspect(cell)}
        assert list(found) == names, (nb_path.name, names, list(found))
        assert all(len(h) > 10 for h in found.values()), (nb_path.name, found)


def test_every_chapter_checks_its_parameters_right_after_the_parameters_cell():
    for nb_path in build.toc_notebooks():
        nb = nbformat.read(nb_path, as_version=4)
        index = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
        check = nb.cells[index + 1].source
        found = re.search(r"\b(ch\d\d\.setup|\w+_setup)\(", check)  # chNN.setup (issue 36's shape) or *_setup
        assert found and "Results(" in check, nb_path.name
        assert found.start() < check.index("Results(")  # checked before anything is written


def test_cache_key_depends_on_notebook_and_parameters(tmp_path):
    nb = _notebook(tmp_path / "n.ipynb", ["y = x + 1"])
    k1 = build.cache_key(nb, {"x": 1})
    assert build.cache_key(nb, {"x": 1}) == k1
    assert build.cache_key(nb, {"x": 2}) != k1
    _notebook(nb, ["y = x + 2"])
    assert build.cache_key(nb, {"x": 1}) != k1


@pytest.mark.slow  # executes a notebook
def test_execute_injects_parameters_and_keeps_source(tmp_path):
    nb = _notebook(tmp_path / "n.ipynb", ["print(x * 7)"])
    before = nb.read_bytes()
    out = execution.execute_notebook(nb, tmp_path / "out" / "n.ipynb", parameters={"x": 6})
    assert nb.read_bytes() == before
    assert "42" in out.read_text()
    with pytest.raises(ValueError, match="refusing"):
        execution.execute_notebook(nb, nb)


def test_a_misspelt_parameter_is_refused_before_the_kernel_starts(tmp_path):
    """papermill only warns about a parameter the notebook lacks and runs on the defaults."""
    nb = _notebook(tmp_path / "n.ipynb", ["print(x)"])
    with pytest.raises(InputError) as err:
        execution.execute_notebook(nb, tmp_path / "out.ipynb", parameters={"x": 1, "n_bot": 2000})
    assert err.value.parameter == "n_bot" and "is not a parameter of n.ipynb" in str(err.value)
    assert "one of x" in str(err.value)
    assert not (tmp_path / "out.ipynb").exists()
    with pytest.raises(InputError, match=r"parameter 'allow_empty_sheets': was replaced by unfinished"):
        execution.execute_notebook(nb, tmp_path / "out.ipynb", parameters={"allow_empty_sheets": True})


@pytest.mark.slow  # executes a notebook
def test_failure_names_cell_keeps_good_copy_and_writes_a_failed_one(tmp_path, capfd):
    good = _notebook(tmp_path / "work.ipynb", ["y = 1", "print('good run', x)"])
    out = tmp_path / "runs" / "work.ipynb"
    execution.execute_notebook(good, out, parameters={"x": 5})
    assert "good run" in out.read_text()
    _notebook(good, ["y = 1", "raise ValueError('sheet row 7 is wrong')"])
    with pytest.raises(execution.NotebookFailed) as err:
        execution.execute_notebook(good, out, parameters={"x": 5})
    msg = str(err.value)
    assert "work.ipynb" in msg and "cell 3 of the source" in msg and "ValueError: sheet row 7 is wrong" in msg
    failed = tmp_path / "runs" / "work.failed.ipynb"
    assert str(failed) in msg and "sheet row 7 is wrong" in failed.read_text()
    assert "good run" in out.read_text()  # the earlier good copy is kept
    assert not list((tmp_path / "runs").glob(".*running*"))
    noise = capfd.readouterr()
    assert "KeyboardInterrupt" not in noise.err and "without encryption" not in noise.err


@pytest.mark.slow  # executes a notebook
def test_a_failed_chapter_leaves_the_earlier_results_and_no_half_set(tmp_path):
    cells = ["from helpers.core import Results\nimport pandas as pd\nresults = Results(results_dir, 'nb')",
             "results.table(pd.DataFrame({'v': [x]}), 'first')",
             "assert x < 10, 'x too large'\nresults.table(pd.DataFrame({'v': [x]}), 'second')",
             "results.commit()"]
    nb = _notebook(tmp_path / "nb.ipynb", cells, "x = 1  # a number\nresults_dir = 'results'  # where")
    res = tmp_path / "res"
    execution.execute_notebook(nb, tmp_path / "ok.ipynb", parameters={"x": 1, "results_dir": str(res)})
    assert sorted(p.name for p in (res / "nb").iterdir()) == ["first.csv", "second.csv"]
    with pytest.raises(execution.NotebookFailed, match="x too large"):
        execution.execute_notebook(nb, tmp_path / "bad.ipynb", parameters={"x": 50, "results_dir": str(res)})
    assert (res / "nb" / "first.csv").read_text().splitlines() == ["v", "1"]  # untouched, not the failed run's 50
    assert [p.name for p in res.iterdir()] == ["nb"]  # no staging folder left behind


@pytest.mark.slow  # executes a notebook
def test_cli_run_relative_paths_from_another_folder_and_error_lines(tmp_path, monkeypatch, capfd):
    """`python -m helpers run` from a class folder: relative inputs are read there; a failure is one
    `error:` line per problem, exit status 1, and no kernel noise."""
    nb = _notebook(tmp_path / "nb.ipynb",
                   ["from helpers.core import paths\nprint('READ', paths.resolve_input(sheet).read_text())"],
                   "sheet = 'x.txt'  # a file")
    work = tmp_path / "class"
    work.mkdir()
    (work / "mine.txt").write_text("hello from the class folder")
    code, _, err = helpers_command(monkeypatch, capfd, work,
                                  ["run", nb, "-p", "sheet", "mine.txt", "--output", "out.ipynb"])
    assert code == 0, err
    assert "hello from the class folder" in (work / "out.ipynb").read_text()
    assert "without encryption" not in err and "KeyboardInterrupt" not in err
    code, _, err = helpers_command(monkeypatch, capfd, work,
                                  ["run", nb, "-p", "sheet", "nothere.txt", "--output", "out.ipynb"])
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 1 and len(errors) == 1 and "nothere.txt" in errors[0] and "Traceback" not in err
    assert (work / "out.failed.ipynb").exists() and "hello from the class folder" in (work / "out.ipynb").read_text()


def test_cli_run_refuses_output_in_notebooks(capsys):
    code = cli.main(["run", "notebooks/01_metahope_pilot_v1.ipynb", "--output", "notebooks/copy.ipynb"])
    assert code == 2 and "sources stay untouched" in capsys.readouterr().err
    assert not (paths.project_root() / "notebooks" / "copy.ipynb").exists()


def test_cli_parameter_values_are_yaml_and_repeated_keys_refused(capsys):
    assert parse_value("n", "3") == 3
    assert parse_value("files", "{A: a.xlsx, B: b.xlsx}") == {"A": "a.xlsx", "B": "b.xlsx"}
    assert parse_value("x", "null") is None
    with pytest.raises(InputError) as err:
        parse_value("annotator_files", "{A: a.xlsx, A: b.xlsx}")
    assert err.value.parameter == "annotator_files" and err.value.value == "A"
    code = cli.main(["run", "notebooks/01_metahope_pilot_v1.ipynb", "-p", "annotator_files", "{A: a.xlsx, A: b.xlsx}",
                     "--output", "/tmp/never.ipynb"])
    err_text = capsys.readouterr().err
    assert code == 1 and err_text.startswith("error: parameter 'annotator_files': value 'A': a mapping repeats a key")
    assert not Path("/tmp/never.ipynb").exists()


def test_build_refuses_a_parameter_no_chapter_has(tmp_path):
    with pytest.raises(InputError, match="is a parameter of no notebook") as err:
        build.execute_all(tmp_path, {"n_bot": 2000})
    assert err.value.parameter == "n_bot" and "n_boot" in err.value.expected
    assert not (tmp_path / "stage").exists()


def test_a_build_forks_every_kernel_only_when_several_notebooks_are_to_run(tmp_path, monkeypatch):
    """Two or more notebooks to execute: the whole run is one :func:`prefork.many_kernels` block
    (the first kernel forked too); one notebook left to run, or none, is started the usual way."""
    from helpers.core import prefork

    seen = []

    def executed(nb, dest, parameters):
        seen.append((nb.name, prefork._many))
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text("{}")

    monkeypatch.setattr(build, "execute_notebook", executed)
    notebooks = build.toc_notebooks(paths.project_root())
    build.execute_all(tmp_path, jobs=2)
    assert sorted(seen) == sorted((nb.name, 1) for nb in notebooks)
    seen.clear()
    (tmp_path / "cache" / f"{notebooks[0].stem}.key").write_text("stale")
    build.execute_all(tmp_path, jobs=2)
    assert seen == [(notebooks[0].name, 0)] and prefork._many == 0


def test_parallel_kernels_share_the_cores_and_the_environment_is_restored(monkeypatch):
    for name in kernel.THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")  # the user's choice is kept
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    with kernel.share_cores(2):
        assert os.environ["OMP_NUM_THREADS"] == "4" and os.environ["OPENBLAS_NUM_THREADS"] == "4"
        assert os.environ["MKL_NUM_THREADS"] == "3"
    assert "OMP_NUM_THREADS" not in os.environ and os.environ["MKL_NUM_THREADS"] == "3"
    with kernel.share_cores(1):
        assert "OMP_NUM_THREADS" not in os.environ  # one kernel keeps every core


def test_render_key_follows_the_staged_files_and_the_edition(tmp_path):
    stage = tmp_path / "stage"
    (stage / "notebooks").mkdir(parents=True)
    (stage / "_config.yml").write_text("title: t\n")
    (stage / "notebooks" / "01.ipynb").write_text("{}")
    key = build.render_key(stage, "instructor")
    assert build.render_key(stage, "instructor") == key
    assert build.render_key(stage, "student") != key
    (stage / "_config_student.yml").write_text("written by the student render itself\n")
    assert build.render_key(stage, "instructor") == key
    (stage / "notebooks" / "01.ipynb").write_text('{"cells": []}')
    assert build.render_key(stage, "instructor") != key


def test_parameter_names_are_papermills():
    """Read without papermill, the names are the ones papermill itself finds, for every chapter."""
    import papermill as pm

    for nb in build.toc_notebooks():
        assert execution.notebook_parameters(nb) == list(pm.inspect_notebook(str(nb))), nb.name


def test_student_render_key_follows_what_the_student_edition_changes(tmp_path, monkeypatch):
    stage = tmp_path / "stage"
    stage.mkdir()
    (stage / "_config.yml").write_text("title: t\n")
    key = build.render_key(stage, "student")
    monkeypatch.setitem(build.STUDENT_OVERRIDES, "html_copy_source", True)
    assert build.render_key(stage, "student") != key


@pytest.mark.slow  # executes a notebook
def test_a_rerun_without_results_dir_leaves_the_books_results_alone(tmp_path, monkeypatch, capfd):
    """`helpers run` without -p results_dir writes into a folder named after the run and says where; the
    results/ folder the default "results" would mean (the book's, or the class folder's) keeps its files."""
    cells = ["from helpers.core import Results\nimport pandas as pd\nresults = Results(results_dir, 'nb')",
             "results.table(pd.DataFrame({'v': [x]}), 'table')", "results.commit()"]
    nb = _notebook(tmp_path / "nb.ipynb", cells, "x = 1  # a number\nresults_dir = 'results'  # where")
    work = tmp_path / "class"
    (work / "results" / "nb").mkdir(parents=True)
    book_table = work / "results" / "nb" / "table.csv"
    book_table.write_text("v\n1\n")
    os.utime(book_table, (1_000_000_000, 1_000_000_000))

    def run(*args):
        code, out, err = helpers_command(monkeypatch, capfd, work, ["run", nb, *args])
        assert code == 0, err
        return [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("result tables: ")]

    said = run("-p", "x", "300", "--output", "runs/threshold.ipynb")
    assert said == [str(work / "runs" / "threshold_results" / "nb")]
    assert (Path(said[0]) / "table.csv").read_text().splitlines() == ["v", "300"]
    assert book_table.read_text() == "v\n1\n" and book_table.stat().st_mtime == 1_000_000_000
    assert sorted(p.name for p in (work / "results").iterdir()) == ["nb"]
    # an explicit results_dir is honoured, and named too
    assert run("-p", "x", "7", "-p", "results_dir", "mine", "--output", "runs/b.ipynb") == [str(work / "mine" / "nb")]
    assert (work / "mine" / "nb" / "table.csv").read_text().splitlines() == ["v", "7"]


def test_every_chapter_takes_a_results_dir():
    """The default of `helpers run` (a folder named after the run) reaches every chapter only through this parameter."""
    for nb in build.toc_notebooks():
        assert "results_dir" in execution.notebook_parameters(nb), nb.name


def test_student_render_key_follows_the_student_notebooks_it_links(tmp_path):
    stage = tmp_path / "stage"
    stage.mkdir()
    (stage / "_config.yml").write_text("title: t\n")
    downloads = tmp_path / "student" / "downloads"
    downloads.mkdir(parents=True)
    (downloads / "01.ipynb").write_text("{}")
    key, instructor = build.render_key(stage, "student"), build.render_key(stage, "instructor")
    (downloads / "01.ipynb").write_text('{"cells": []}')
    assert build.render_key(stage, "student") != key
    assert build.render_key(stage, "instructor") == instructor
