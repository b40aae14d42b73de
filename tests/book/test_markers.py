"""Markers are honest: a test not marked ``slow`` cannot execute a notebook (tests/conftest.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import _GUARD, NotebookRunInFastTest, runs_notebooks


@pytest.mark.parametrize(
    "command, expected",
    [
        ([sys.executable, "-m", "ipykernel_launcher", "-f", "/tmp/kernel-1.json"], True),  # what jupyter_client starts
        ([sys.executable, "-m", "helpers", "run", "notebooks/01_metahope_pilot_v1.ipynb"], True),
        (f"{sys.executable} -m helpers build --jobs 2", True),
        (["/venv/bin/papermill", "in.ipynb", "out.ipynb"], True),
        (["jupyter-book", "build", "."], True),
        (
            [
                sys.executable,
                "-c",
                "import sys, helpers; from jupyter_book.cli.main import main; sys.exit(main())",
                "build",
                "stage",
            ],
            True,
        ),
        (["jupyter", "nbconvert", "--to", "notebook", "--execute", "x.ipynb"], True),
        ([sys.executable, "-m", "helpers", "mqm", "scores", "x.tsv"], False),
        ([sys.executable, "-m", "helpers", "--help"], False),
        (["jupyter", "lab", "--no-browser"], False),
        (["make", "-n", "lab"], False),
    ],
)
def test_the_guard_knows_a_notebook_run(command, expected):
    assert runs_notebooks(command) is expected


def test_a_fast_test_that_starts_a_kernel_is_stopped_before_the_process_starts():
    with pytest.raises(NotebookRunInFastTest, match="test_markers.py::test_a_fast_test.*is not marked slow"):
        subprocess.Popen([sys.executable, "-m", "ipykernel_launcher", "--version"])
    _GUARD["seen"].clear()  # seen and refused on purpose: the autouse check must not fail this test
    assert subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True, text=True).stdout == "42\n"
