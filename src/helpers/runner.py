"""Execute the book's notebooks with papermill and render the Jupyter Book.

``python -m helpers build`` stages the book under ``_build/stage`` (config, toc, the
markdown chapters and *executed copies* of the notebooks; the sources in ``notebooks/``
are never written), then runs ``jupyter-book build`` on the stage, giving ``_build/html``.

A notebook is re-executed only when its cache key changed: the sha256 of the notebook
source, its parameters, the ``helpers`` package sources, ``data/sources.yml``,
``data/published`` and ``requirements.txt``. Staged files are rewritten only when their
content changed, so Sphinx's own incremental build stays warm.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import papermill as pm
import yaml

from . import paths
from .plots import install_plotly_js


class NotebookFailed(RuntimeError):
    """A notebook raised while executing; the message names the notebook and the cell."""


def toc_entries(toc_file: Path | None = None) -> list[str]:
    """Document paths (without suffix) in ``_toc.yml`` order, root first."""
    toc = yaml.safe_load(Path(toc_file or paths.project_root() / "_toc.yml").read_text(encoding="utf-8"))
    entries = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                entries.append(node["file"])
            for key in ("chapters", "sections", "parts"):
                for child in node.get(key, []) or []:
                    walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk({k: v for k, v in toc.items() if k in ("chapters", "parts")})
    return entries


def toc_notebooks(root: Path | None = None) -> list[Path]:
    """The notebooks the table of contents lists, as source paths."""
    root = root or paths.project_root()
    return [root / f"{e}.ipynb" for e in toc_entries(root / "_toc.yml") if (root / f"{e}.ipynb").exists()]


def _hash_tree(h, folder: Path, pattern: str) -> None:
    for f in sorted(folder.rglob(pattern)):
        if "__pycache__" in f.parts or not f.is_file():
            continue
        h.update(str(f.relative_to(folder)).encode())
        h.update(f.read_bytes())


def cache_key(notebook: Path, parameters: dict | None = None) -> str:
    """sha256 over everything that can change a notebook's output (see module docstring)."""
    root = paths.project_root()
    h = hashlib.sha256()
    h.update(notebook.read_bytes())
    h.update(json.dumps(parameters or {}, sort_keys=True, default=str).encode())
    _hash_tree(h, root / "src" / "helpers", "*.py")
    _hash_tree(h, root / "data" / "published", "*")
    for f in ("data/sources.yml", "requirements.txt"):
        if (root / f).exists():
            h.update((root / f).read_bytes())
    return h.hexdigest()


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


def execute_notebook(
    notebook: str | os.PathLike,
    output: str | os.PathLike,
    parameters: dict | None = None,
    progress: bool = False,
    kernel_name: str | None = None,
) -> Path:
    """Run ``notebook`` with papermill into ``output`` (never onto the source itself).

    The kernel's working directory is the project root, so relative paths in parameters
    mean the same thing as in ``make book``. Raises :class:`NotebookFailed` naming the
    notebook and the failing cell.
    """
    src = Path(notebook).resolve()
    out = Path(output).resolve()
    if out == src:
        raise ValueError(f"refusing to write the executed notebook over its source {src}")
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        pm.execute_notebook(
            str(src), str(out), parameters=parameters or {}, cwd=str(paths.project_root()),
            progress_bar=progress, kernel_name=kernel_name, request_save_on_cell_execute=False,
        )
    except Exception as exc:  # papermill raises PapermillExecutionError and friends
        raise NotebookFailed(_failure_message(src, out, exc)) from exc
    return out


def _copy_if_changed(src: Path, dest: Path) -> None:
    if dest.exists() and dest.read_bytes() == src.read_bytes():
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dest)


def stage_book(stage: Path, root: Path) -> None:
    """Copy config, toc and markdown chapters into ``stage`` (content-compared)."""
    for name in ("_config.yml", "_toc.yml"):
        _copy_if_changed(root / name, stage / name)
    for f in (root / "book").rglob("*"):
        if f.is_file():
            rel = f.relative_to(root / "book")
            # book/_static/* is the book's static folder; Jupyter Book loads every .js/.css in it
            dest = stage / rel if rel.parts[0] == "_static" else stage / "book" / rel
            _copy_if_changed(f, dest)
    install_plotly_js(stage / "_static")


def build(
    jobs: int = 1,
    output_dir: str | os.PathLike | None = None,
    parameters: dict | None = None,
    force: bool = False,
    html: bool = True,
) -> Path:
    """Execute every notebook in ``_toc.yml`` (cached) and render the book.

    Everything goes below ``<output_dir>/_build`` (default: the project root): ``stage/``
    (the book with executed notebooks), ``cache/`` (execution keys) and ``html/``.
    ``parameters`` are passed to every notebook (e.g. ``{"results_dir": ...}``).
    Independent notebooks run ``jobs`` at a time. Returns the html folder.
    """
    root = paths.project_root()
    os.environ.setdefault("TQDM_DISABLE", "1")  # progress bars would be printed into the pages
    build_dir = (Path(output_dir).resolve() if output_dir else root) / "_build"
    stage = build_dir / "stage"
    stage_book(stage, root)
    notebooks = toc_notebooks(root)

    def run(nb: Path) -> str:
        dest = stage / nb.relative_to(root)
        key_file = build_dir / "cache" / f"{nb.stem}.key"
        key = cache_key(nb, parameters)
        if not force and dest.exists() and key_file.exists() and key_file.read_text() == key:
            return f"{nb.name}: unchanged since its last run, executed copy kept"
        tmp = dest.with_name(f".{dest.stem}.running.ipynb")
        execute_notebook(nb, tmp, parameters=parameters)
        os.replace(tmp, dest)
        key_file.parent.mkdir(parents=True, exist_ok=True)
        key_file.write_text(key)
        return f"{nb.name}: executed"

    errors = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(run, nb) for nb in notebooks]
        for fut in futures:
            try:
                print(fut.result(), flush=True)
            except NotebookFailed as exc:
                errors.append(str(exc))
    if errors:
        raise NotebookFailed("\n".join(errors))
    if html:
        jupyter_book = Path(sys.executable).with_name("jupyter-book")
        # jupyter-book writes to <path-output>/_build/html
        subprocess.run([str(jupyter_book), "build", str(stage), "--path-output", str(build_dir.parent)], check=True)
    return build_dir / "html"
