"""Unit tests of helpers.core.book.cli: ``helpers run`` from another folder, its refusals and error lines, its
parameter values and where a run without results_dir writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import helpers_command
from helpers import __main__ as cli
from helpers.core import paths
from helpers.core.book.cli import parse_value
from helpers.core.errors import InputError

from .notebooks import _notebook


@pytest.mark.slow  # executes a notebook
def test_cli_run_relative_paths_from_another_folder_and_error_lines(tmp_path, monkeypatch, capfd):
    """`python -m helpers run` from a class folder: relative inputs are read there; a failure is one
    `error:` line per problem, exit status 1, and no kernel noise."""
    nb = _notebook(
        tmp_path / "nb.ipynb",
        ["from helpers.core import paths\nprint('READ', paths.resolve_input(sheet).read_text())"],
        "sheet = 'x.txt'  # a file",
    )
    work = tmp_path / "class"
    work.mkdir()
    (work / "mine.txt").write_text("hello from the class folder")
    code, _, err = helpers_command(
        monkeypatch, capfd, work, ["run", nb, "-p", "sheet", "mine.txt", "--output", "out.ipynb"]
    )
    assert code == 0, err
    assert "hello from the class folder" in (work / "out.ipynb").read_text()
    assert "without encryption" not in err and "KeyboardInterrupt" not in err
    code, _, err = helpers_command(
        monkeypatch, capfd, work, ["run", nb, "-p", "sheet", "nothere.txt", "--output", "out.ipynb"]
    )
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
    code = cli.main(
        [
            "run",
            "notebooks/01_metahope_pilot_v1.ipynb",
            "-p",
            "annotator_files",
            "{A: a.xlsx, A: b.xlsx}",
            "--output",
            "/tmp/never.ipynb",
        ]
    )
    err_text = capsys.readouterr().err
    assert code == 1 and err_text.startswith("error: parameter 'annotator_files': value 'A': a mapping repeats a key")
    assert not Path("/tmp/never.ipynb").exists()


@pytest.mark.slow  # executes a notebook
def test_a_rerun_without_results_dir_leaves_the_books_results_alone(tmp_path, monkeypatch, capfd):
    """`helpers run` without -p results_dir writes into a folder named after the run and says where; the
    results/ folder the default "results" would mean (the book's, or the class folder's) keeps its files."""
    cells = [
        "from helpers.core import Results\nimport pandas as pd\nresults = Results(results_dir, 'nb')",
        "results.table(pd.DataFrame({'v': [x]}), 'table')",
        "results.commit()",
    ]
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


@pytest.mark.slow  # executes a notebook
def test_a_failed_run_leaves_no_empty_results_folder_and_keeps_earlier_results(tmp_path, monkeypatch, capfd):
    """A `helpers run` that fails after its chapter opened its results leaves the failed copy and
    nothing else: no empty `runs/<name>_results/`; an earlier good run's results there stay."""
    cells = [
        "from helpers.core import Results\nimport pandas as pd\nresults = Results(results_dir, 'nb')",
        "assert x < 10, 'x too large'\nresults.table(pd.DataFrame({'v': [x]}), 'table')",
        "results.commit()",
    ]
    nb = _notebook(tmp_path / "nb.ipynb", cells, "x = 1  # a number\nresults_dir = 'results'  # where")
    work = tmp_path / "class"
    work.mkdir()
    code, _, err = helpers_command(monkeypatch, capfd, work, ["run", nb, "-p", "x", "50", "--output", "runs/a.ipynb"])
    assert code == 1 and "x too large" in err
    assert sorted(p.name for p in (work / "runs").iterdir()) == ["a.failed.ipynb"]
    code, _, err = helpers_command(monkeypatch, capfd, work, ["run", nb, "-p", "x", "3", "--output", "runs/b.ipynb"])
    assert code == 0, err
    code, _, err = helpers_command(monkeypatch, capfd, work, ["run", nb, "-p", "x", "60", "--output", "runs/b.ipynb"])
    assert code == 1 and "x too large" in err
    kept = work / "runs" / "b_results"
    assert [p.name for p in kept.iterdir()] == ["nb"]  # no staging folder either
    assert (kept / "nb" / "table.csv").read_text().splitlines() == ["v", "3"]
