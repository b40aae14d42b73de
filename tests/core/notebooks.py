"""A small notebook with a parameters cell, written for the runner's tests (test_build.py,
test_execution.py, test_cli.py)."""

from __future__ import annotations

from pathlib import Path

import nbformat


def _notebook(path: Path, cells: list[str], parameters: str = "x = 1  # a number") -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(parameters, metadata={"tags": ["parameters"]})]
    nb.cells += [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path
