"""Building the book (``.venv/bin/python -m helpers build``): the table of contents, the staged
book, every notebook executed (cached), and the render with Jupyter Book.

The book is staged under ``_build/stage`` (config, toc, the markdown chapters and
*executed copies* of the notebooks; the sources in ``notebooks/`` are never written), then
``jupyter-book build`` runs on the stage, giving ``_build/html`` (the instructor edition)
or, with ``--edition student``, ``_build/student/html`` from the same executed notebooks
with every solution removed and without the instructor's pages (:data:`INSTRUCTOR_PAGES`); its
download links carry the student edition of the notebooks (:mod:`helpers.core.book.editions`,
written to ``_build/student/downloads``).

A notebook is re-executed (:func:`helpers.core.book.execution.execute_notebook`) only when its
cache key changed: the notebook source, its parameters, the ``helpers`` package sources,
``data/sources.yml``, ``data/published``, ``data/authored`` and ``requirements.txt``.
Staged files are rewritten only when their content changed, so Sphinx's own incremental
build stays warm.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import yaml

from .. import cache, paths
from ..errors import InputError
from . import editions, prefork
from .execution import NotebookFailed, execute_notebook, notebook_parameters
from .kernel import share_cores

#: What the student edition changes in ``_config.yml``: every solution removed at read time
#: (book/_ext/editions.py), and no copied sources or download button, which would carry the
#: notebooks with their solutions.
STUDENT_OVERRIDES = {"strip_solutions": True, "html_copy_source": False}

#: Pages of the instructor edition only, left out of the student edition's table of contents (so
#: neither the page nor what it offers to download is built there; a link to one becomes its title
#: as text, book/_ext/editions.py). ``book/explanation_items`` is the answer key of the authored
#: explanation items: the designed pass/fail of all 100 and the CSV that holds it.
INSTRUCTOR_PAGES = ("book/explanation_items",)


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


def _tree_files(folder: Path, pattern: str) -> list:
    return [
        (str(f.relative_to(folder)), f.read_bytes())
        for f in sorted(folder.rglob(pattern))
        if f.is_file() and "__pycache__" not in f.parts
    ]


def cache_key(notebook: Path, parameters: dict | None = None) -> str:
    """sha256 over everything that can change a notebook's output (see module docstring)."""
    root = paths.project_root()
    parts = [
        notebook.read_bytes(),
        json.dumps(parameters or {}, sort_keys=True, default=str),
        _tree_files(root / "src" / "helpers", "*.py"),
        _tree_files(root / "data" / "published", "*"),
        _tree_files(root / "data" / "authored", "*"),
    ]
    for f in ("data/sources.yml", "requirements.txt"):
        parts.append((root / f).read_bytes() if (root / f).exists() else b"")
    return cache.key(*parts)


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
        if f.is_file() and "__pycache__" not in f.parts:
            rel = f.relative_to(root / "book")
            # book/_static/* is the book's static folder; Jupyter Book loads every .js/.css in it
            dest = stage / rel if rel.parts[0] == "_static" else stage / "book" / rel
            _copy_if_changed(f, dest)
    # plotly.js is published by book/_ext/book_assets.py on figure pages only; an old copy in
    # _static would be loaded on every page
    (stage / "_static" / "plotly.min.js").unlink(missing_ok=True)
    shutil.rmtree(stage / "_static" / "vendor", ignore_errors=True)


def student_downloads(build_dir: Path) -> Path:
    """Write the student edition of the book's notebooks (:mod:`helpers.core.book.editions`) into
    ``build_dir/student/downloads``, the folder the student book's download links point to."""
    folder = build_dir / "student" / "downloads"
    editions.write_student_edition(folder, toc_notebooks(paths.project_root()), keep_edited=False)
    return folder


def student_toc(stage: Path, toc_file: Path | None = None) -> Path:
    """Write ``_toc_student.yml`` beside the staged ``_toc.yml`` (or ``<toc_file>_student.yml``
    beside ``toc_file``): the same table of contents without :data:`INSTRUCTOR_PAGES` (and
    without a part that only they made up)."""
    source = toc_file or stage / "_toc.yml"
    toc = yaml.safe_load(source.read_text(encoding="utf-8"))

    def keep(node):
        if isinstance(node, list):
            return [k for k in (keep(child) for child in node) if k is not None]
        if not isinstance(node, dict):
            return node
        if node.get("file") in INSTRUCTOR_PAGES:
            return None
        out = dict(node)
        for key in ("chapters", "sections", "parts"):
            if node.get(key):
                out[key] = keep(node[key])
                if not out[key] and "file" not in node:
                    return None  # a part whose every page was left out
        return out

    path = source.with_name(f"{source.stem}_student.yml")
    text = yaml.safe_dump(keep(toc), allow_unicode=True, sort_keys=False)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path


def student_config(stage: Path) -> Path:
    """Write ``_config_student.yml`` beside the staged ``_config.yml``: the same book with
    :data:`STUDENT_OVERRIDES` (solutions stripped, no source copies, no download button) and
    its notebook downloads taken from :func:`student_downloads`."""
    config = yaml.safe_load((stage / "_config.yml").read_text(encoding="utf-8"))
    sphinx = config.setdefault("sphinx", {})
    sphinx.setdefault("config", {}).update(STUDENT_OVERRIDES)
    sphinx["config"]["student_notebooks"] = str(student_downloads(stage.parent))
    sphinx["config"]["instructor_pages"] = list(INSTRUCTOR_PAGES)
    sphinx["config"].setdefault("html_theme_options", {})["use_download_button"] = False
    sphinx["recursive_update"] = True  # merge the theme option into Jupyter Book's own
    config["title"] = f"{config.get('title', '')} (student edition)"
    path = stage / "_config_student.yml"
    text = yaml.safe_dump(config, allow_unicode=True, sort_keys=False)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path


def longest_first(notebooks: list[Path], cache_dir: Path) -> list[Path]:
    """The order in which to start the notebooks: the longest first (by the seconds their
    last run here took), so that with ``jobs`` > 1 no long chapter starts last and runs
    alone. Notebooks never run here go first, later chapters of the book before earlier
    ones (the model chapters come last in the book and take longest).

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "b.seconds").write_text("40.0"), (d / "c.seconds").write_text("5.0")
    >>> [p.name for p in longest_first([Path("a.ipynb"), Path("b.ipynb"), Path("c.ipynb"), Path("d.ipynb")], d)]
    ['d.ipynb', 'a.ipynb', 'b.ipynb', 'c.ipynb']
    """

    def seconds(nb: Path) -> float:
        try:
            return float((cache_dir / f"{nb.stem}.seconds").read_text())
        except (OSError, ValueError):
            return float("inf")

    position = {nb: k for k, nb in enumerate(notebooks)}
    return sorted(notebooks, key=lambda nb: (-seconds(nb), -position[nb]))


def execute_all(build_dir: Path, parameters: dict | None = None, jobs: int = 1, force: bool = False) -> None:
    """Execute every notebook of the table of contents into ``build_dir/stage`` (cached by key)."""
    root = paths.project_root()
    stage = build_dir / "stage"
    notebooks = toc_notebooks(root)

    accepted = {nb: notebook_parameters(nb) for nb in notebooks}
    for name in parameters or {}:
        if not any(name in names for names in accepted.values()):
            raise InputError(
                "is a parameter of no notebook in _toc.yml",
                parameter=name,
                expected=f"one of {', '.join(sorted(set().union(*accepted.values())))}",
            )

    own = {nb: {k: v for k, v in (parameters or {}).items() if k in accepted[nb]} for nb in notebooks}
    keys = {nb: cache_key(nb, own[nb]) for nb in notebooks}  # each chapter takes its own parameters

    def current(nb: Path) -> bool:
        key_file = build_dir / "cache" / f"{nb.stem}.key"
        return (
            not force
            and (stage / nb.relative_to(root)).exists()
            and key_file.exists()
            and key_file.read_text() == keys[nb]
        )

    def run(nb: Path) -> str:
        dest = stage / nb.relative_to(root)
        key_file = build_dir / "cache" / f"{nb.stem}.key"
        if current(nb):
            return f"{nb.name}: unchanged since its last run, executed copy kept"
        key = keys[nb]
        started = time.monotonic()
        execute_notebook(nb, dest, parameters=own[nb])
        took = time.monotonic() - started
        key_file.parent.mkdir(parents=True, exist_ok=True)
        key_file.write_text(key)
        key_file.with_suffix(".seconds").write_text(f"{took:.1f}")
        return f"{nb.name}: executed in {took:.0f} s"

    errors = []
    running: dict[str, float] = {}
    stop = threading.Event()

    def heartbeat():  # a long chapter never leaves the terminal silent
        while not stop.wait(20):
            now = time.monotonic()
            if running:
                print(
                    "  still running: " + ", ".join(f"{n} ({now - t:.0f} s)" for n, t in list(running.items())),
                    flush=True,
                )

    def tracked(nb: Path) -> str:
        running[nb.name] = time.monotonic()
        try:
            return run(nb)
        finally:
            running.pop(nb.name, None)

    print(f"executing {len(notebooks)} notebooks, {max(1, jobs)} at a time", flush=True)
    beat = threading.Thread(target=heartbeat, daemon=True)
    beat.start()
    try:
        several = sum(not current(nb) for nb in notebooks) > 1  # then every kernel is forked, the first too
        with (
            share_cores(jobs),
            prefork.many_kernels() if several else contextlib.nullcontext(),
            ThreadPoolExecutor(max_workers=max(1, jobs)) as pool,
        ):
            futures = {pool.submit(tracked, nb): nb for nb in longest_first(notebooks, build_dir / "cache")}
            for done, fut in enumerate(as_completed(futures), start=1):
                try:
                    print(f"[{done}/{len(notebooks)}] {fut.result()}", flush=True)
                except NotebookFailed as exc:
                    print(f"[{done}/{len(notebooks)}] {futures[fut].name}: FAILED", flush=True)
                    errors.append(str(exc))
    finally:
        stop.set()
    if errors:
        raise NotebookFailed("\n".join(errors))


def render_key(stage: Path, edition: str) -> str:
    """A digest of everything a render reads: every staged file (pages, executed notebooks,
    configuration, the book's Sphinx extensions), the edition (with what the student edition
    changes in the configuration) and the Jupyter Book version."""
    from importlib.metadata import version

    overrides = (
        json.dumps([STUDENT_OVERRIDES, INSTRUCTOR_PAGES], sort_keys=True, default=str) if edition == "student" else ""
    )
    digest = hashlib.sha256(f"{edition}\0{overrides}\0{version('jupyter-book')}".encode())
    files = [
        p
        for p in stage.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and not (p.parent == stage and p.name.startswith(("_config_", "_toc_")))
    ]  # written per edition
    if edition == "student":  # the notebooks its download links carry
        files += [p for p in (stage.parent / "student" / "downloads").glob("*.ipynb")]
    for f in sorted(files):
        digest.update(os.path.relpath(f, stage).encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()


def render(build_dir: Path, edition: str = "instructor", builder: str = "html", toc: Path | None = None) -> Path:
    """Render the staged book with Jupyter Book; returns the output folder of the edition,
    ``<builder>/`` in ``build_dir`` (instructor) or ``build_dir/student`` (student). ``builder``
    ``singlehtml`` gives the one-page book that :mod:`helpers.core.book.pdf` prints; ``toc``, a table
    of contents other than the staged ``_toc.yml`` (some pages only), renders into
    ``build_dir/partial/<edition>/<builder>`` and leaves the whole book's output alone."""
    stage = build_dir / "stage"
    # the jupyter-book command, started after `import helpers` (which spares it the IRI grammar)
    jupyter_book = [
        sys.executable,
        "-c",
        "import sys, helpers; from jupyter_book.cli.main import main; sys.exit(main())",
    ]
    cmd = [*jupyter_book, "build", str(stage), "--builder", builder]
    if edition == "student":
        cmd += ["--config", str(student_config(stage)), "--toc", str(student_toc(stage, toc))]
    elif toc is not None:
        cmd += ["--toc", str(toc)]
    own_folder = edition == "student" or toc is not None
    if own_folder:
        target = build_dir / "partial" / edition if toc is not None else build_dir / "student"
        shutil.rmtree(target / "_build", ignore_errors=True)  # a clean folder: no stale page or search entry
        cmd += ["--path-output", str(target)]
        out = target / "_build" / builder
    else:
        cmd += ["--path-output", str(build_dir.parent)]
        out = build_dir / builder
    print(f"rendering the {edition} edition (jupyter-book, {builder})", flush=True)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise NotebookFailed(f"jupyter-book build failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    if own_folder:
        final = target / builder
        shutil.rmtree(final, ignore_errors=True)
        os.replace(out, final)
        shutil.rmtree(target / "_build", ignore_errors=True)  # its jupyter_execute copies hold the solutions
        out = final
    return out


def build(
    jobs: int = 1,
    output_dir: str | os.PathLike | None = None,
    parameters: dict | None = None,
    force: bool = False,
    html: bool = True,
    edition: str = "instructor",
) -> Path:
    """Execute every notebook in ``_toc.yml`` (cached) and render the book.

    Everything goes below ``<output_dir>/_build`` (default: the project root): ``stage/``
    (the book with executed notebooks), ``cache/`` (execution keys), ``html/`` (the
    instructor edition) and ``student/html/`` (the student edition). ``parameters`` go to
    every notebook that has them (e.g. ``{"results_dir": ...}``); a name no notebook has is
    an :class:`InputError`. Independent notebooks run
    ``jobs`` at a time. Returns the html folder of the edition.
    """
    root = paths.project_root()
    os.environ.setdefault("TQDM_DISABLE", "1")  # progress bars would be printed into the pages
    build_dir = (Path(output_dir).resolve() if output_dir else root) / "_build"
    stage_book(build_dir / "stage", root)
    execute_all(build_dir, parameters, jobs, force)
    if not html:
        return build_dir / "html"
    key_file = build_dir / "cache" / f"render-{edition}.key"
    if edition == "student":
        student_downloads(build_dir)
    key = render_key(build_dir / "stage", edition)
    out = build_dir / ("student" if edition == "student" else "") / "html"
    if not force and (out / "index.html").exists() and key_file.exists() and key_file.read_text() == key:
        print(f"the {edition} edition is up to date (nothing staged changed since its last render)", flush=True)
        return out
    out = render(build_dir, edition)
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_text(key)
    return out
