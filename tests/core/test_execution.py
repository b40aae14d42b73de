"""Unit tests of helpers.core.book.execution, the notebook runner: sources untouched, failures named and
kept apart, nothing mixed."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from helpers.core.book import build, execution
from helpers.core.errors import InputError

from .notebooks import _notebook


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
    cells = [
        "from helpers.core import Results\nimport pandas as pd\nresults = Results(results_dir, 'nb')",
        "results.table(pd.DataFrame({'v': [x]}), 'first')",
        "assert x < 10, 'x too large'\nresults.table(pd.DataFrame({'v': [x]}), 'second')",
        "results.commit()",
    ]
    nb = _notebook(tmp_path / "nb.ipynb", cells, "x = 1  # a number\nresults_dir = 'results'  # where")
    res = tmp_path / "res"
    execution.execute_notebook(nb, tmp_path / "ok.ipynb", parameters={"x": 1, "results_dir": str(res)})
    assert sorted(p.name for p in (res / "nb").iterdir()) == ["first.csv", "second.csv"]
    with pytest.raises(execution.NotebookFailed, match="x too large"):
        execution.execute_notebook(nb, tmp_path / "bad.ipynb", parameters={"x": 50, "results_dir": str(res)})
    assert (res / "nb" / "first.csv").read_text().splitlines() == ["v", "1"]  # untouched, not the failed run's 50
    assert [p.name for p in res.iterdir()] == ["nb"]  # no staging folder left behind


def test_parameter_names_are_papermills():
    """Read without papermill, the names are the ones papermill itself finds, for every chapter."""
    import papermill as pm

    for nb in build.toc_notebooks():
        assert execution.notebook_parameters(nb) == list(pm.inspect_notebook(str(nb))), nb.name


def test_every_chapter_takes_a_results_dir():
    """The default of `helpers run` (a folder named after the run) reaches every chapter only through this parameter."""
    for nb in build.toc_notebooks():
        assert "results_dir" in execution.notebook_parameters(nb), nb.name


def test_an_interrupted_run_leaves_no_results_folder_it_created(tmp_path, monkeypatch):
    """Ctrl-C during a run (papermill raises KeyboardInterrupt after the chapter opened its
    results): the staging folder and the results folders the run created go, the interrupt goes
    on, and no executed copy is left; a results folder that existed before stays."""
    import papermill

    from helpers.core import Results

    def interrupted(source, output, parameters, **kw):
        Results(parameters["results_dir"], "n").table(pd.DataFrame({"v": [1]}), "t")
        Path(output).write_text("half")
        raise KeyboardInterrupt

    monkeypatch.setattr(papermill, "execute_notebook", interrupted)
    nb = _notebook(tmp_path / "n.ipynb", ["print(x)"], "x = 1  # a number\nresults_dir = 'results'  # where")
    fresh = tmp_path / "runs" / "deep" / "n_results"
    with pytest.raises(KeyboardInterrupt):
        execution.execute_notebook(nb, tmp_path / "runs" / "n.ipynb", parameters={"results_dir": str(fresh)})
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == []
    kept = tmp_path / "kept"
    kept.mkdir()
    with pytest.raises(KeyboardInterrupt):
        execution.execute_notebook(nb, tmp_path / "runs" / "n.ipynb", parameters={"results_dir": str(kept)})
    assert kept.is_dir() and list(kept.iterdir()) == []
