"""Executing one notebook with papermill (``.venv/bin/python -m helpers run``).

:func:`execute_notebook` runs a notebook into an executed copy, never onto its source:
the copy is written under a temporary name and moved to its place only when the notebook
completed; a failed run's copy is kept as ``<name>.failed.ipynb`` (traceback inside), an
earlier good copy is left as it was, and :class:`NotebookFailed` names the notebook and
the failing cell. Parameters are checked against the notebook's ``parameters`` cell first
(:func:`notebook_parameters`, :func:`check_parameter_names`).
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

from .. import paths
from ..errors import InputError
from .kernel import kernel_manager_class
from .results import discard_run, missing_folders


class NotebookFailed(RuntimeError):
    """A notebook raised while executing; the message names the notebook and the cell."""


def _failure_message(notebook: Path, output: Path, exc: Exception) -> str:
    """Name the notebook and the failing cell (index, first source line, error)."""
    cell_info = ""
    try:
        nb = json.loads(output.read_text(encoding="utf-8"))
        added = {"injected-parameters", "papermill-error-cell-tag"}  # cells papermill inserts
        source_cells = [c for c in nb["cells"] if not added & set(c.get("metadata", {}).get("tags", []))]
        for i, cell in enumerate(source_cells, start=1):
            errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
            if errors:
                first = "".join(cell.get("source", "")).strip().splitlines()
                cell_info = f" in cell {i} of the source notebook (counting from 1)"
                if first:
                    cell_info += f", starting {first[0][:80]!r}"
                cell_info += f": {errors[0].get('ename')}: {errors[0].get('evalue')}"
                break
    except (OSError, ValueError, KeyError):
        pass
    if not cell_info:
        cell_info = f": {type(exc).__name__}: {exc}"
    return f"notebook {notebook.name} failed{cell_info}. The executed copy with the traceback is {output}"


def failed_name(output: Path) -> Path:
    """Where the executed copy of a failed run is kept: ``<stem>.failed.ipynb`` beside ``output``."""
    return output.with_name(f"{output.stem}.failed{output.suffix}")


def _quiet_papermill() -> None:
    """papermill logs each kernel start and cell at INFO; the terminal shows tqdm and errors only."""
    for name in ("papermill", "traitlets", "nbclient"):
        logging.getLogger(name).setLevel(logging.WARNING)


def notebook_parameters(notebook: str | os.PathLike) -> list[str]:
    """Names of the variables assigned in ``notebook``'s cell tagged ``parameters``, in order.

    Read from the notebook's JSON with :mod:`ast` (what ``papermill.inspect_notebook``
    reports, without importing papermill: its import pulls in jsonschema's format checkers,
    about 5 s, which a warm ``make book`` would otherwise spend doing nothing else)."""
    import ast

    cells = json.loads(Path(notebook).read_text(encoding="utf-8")).get("cells", [])
    names: list[str] = []
    for cell in cells:
        if cell.get("cell_type") == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            for node in ast.parse(source).body:
                targets = (
                    node.targets
                    if isinstance(node, ast.Assign)
                    else ([node.target] if isinstance(node, ast.AnnAssign) else [])
                )
                names += [t.id for t in targets if isinstance(t, ast.Name) and t.id not in names]
    return names


#: Parameters that were replaced, with what replaced them (named when an old one is passed).
RENAMED_PARAMETERS = {
    "allow_empty_sheets": "unfinished ('drop_rows' or 'drop_students' leave unfinished or blank sheets out; nothing "
    "is counted as 'no error' silently any more)",
    "allow_blank_sheets": "unfinished ('drop_rows' or 'drop_students')",
}


def check_parameter_names(notebook: str | os.PathLike, parameters: dict | None) -> None:
    """Refuse a parameter the notebook does not have (papermill would only warn and run on
    the defaults, so a misspelt ``-p n_bot 2000`` would go unnoticed); a replaced one is
    refused with the name of what replaced it."""
    known = notebook_parameters(notebook)
    for name in parameters or {}:
        if name in RENAMED_PARAMETERS and name not in known:
            raise InputError(f"was replaced by {RENAMED_PARAMETERS[name]}", parameter=name)
        if name not in known:
            raise InputError(
                f"is not a parameter of {Path(notebook).name}", parameter=name, expected=f"one of {', '.join(known)}"
            )


def run_results_dir(output: str | os.PathLike) -> Path:
    """Where ``.venv/bin/python -m helpers run`` writes a run's result tables when no ``results_dir``
    is given: ``<output without .ipynb>_results`` beside the executed copy, a folder named
    after the run, so that a re-run never replaces the book's ``results/`` (the book build
    passes its own ``results_dir``)."""
    out = Path(output)
    return out.with_name(f"{out.stem}_results")


def execute_notebook(
    notebook: str | os.PathLike,
    output: str | os.PathLike,
    parameters: dict | None = None,
    progress: bool = False,
    kernel_name: str | None = None,
) -> Path:
    """Run ``notebook`` with papermill into ``output`` (never onto the source itself).

    The executed copy is written to a temporary name and moved to ``output`` only on
    success, so an earlier good copy survives a failed run; the failed copy goes to
    :func:`failed_name` (``<stem>.failed.ipynb``) with the traceback in it. Staged result
    files of a failed or interrupted run are discarded, and so is a results folder it created
    that is left empty (``runs/<name>_results/``); an earlier run's results stay. The kernel's working directory is the project
    root; relative paths in parameters are resolved against the folder the command was
    started from first (``$HELPERS_CALLER_CWD``), then the project root. Raises
    :class:`NotebookFailed` naming the notebook and the failing cell.
    """
    import papermill as pm

    src = Path(notebook).resolve()
    out = Path(output).resolve()
    if out == src:
        raise ValueError(f"refusing to write the executed notebook over its source {src}")
    check_parameter_names(src, parameters)
    results_dir = (parameters or {}).get("results_dir", "results")
    created = missing_folders(results_dir)  # removed again if the run does not complete and leaves them empty
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.stem}.running-{os.getpid()}-{time.monotonic_ns()}{out.suffix}")
    os.environ.setdefault("HELPERS_CALLER_CWD", os.getcwd())
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    _quiet_papermill()
    try:
        pm.execute_notebook(
            str(src),
            str(tmp),
            parameters=parameters or {},
            cwd=str(paths.project_root()),
            progress_bar=progress,
            kernel_name=kernel_name,
            request_save_on_cell_execute=False,
            kernel_manager_class=kernel_manager_class(),
        )
    except BaseException as exc:  # papermill raises PapermillExecutionError and friends; Ctrl-C a KeyboardInterrupt
        discard_run(results_dir, src.stem, created)
        if not isinstance(exc, Exception):
            tmp.unlink(missing_ok=True)  # interrupted: no half-written copy is left
            raise
        failed = failed_name(out)
        if tmp.exists():
            os.replace(tmp, failed)
        raise NotebookFailed(_failure_message(src, failed, exc)) from None
    os.replace(tmp, out)
    failed_name(out).unlink(missing_ok=True)
    return out
