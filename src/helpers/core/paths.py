"""Where the project, its data and its results live.

Relative paths given to notebooks as papermill parameters are resolved here: first
against the folder the user started the command from (``.venv/bin/python -m helpers run`` passes
it to the kernel as ``$HELPERS_CALLER_CWD``; plain papermill and JupyterLab use the
kernel's working directory), then against the project root. So a notebook behaves the
same whether it runs from the project root (``make book``, ``papermill``), from
``notebooks/`` (JupyterLab) or from a class folder elsewhere.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def project_root() -> Path:
    """The project folder: ``$HELPERS_PROJECT_ROOT``, else the checkout holding this package."""
    env = os.environ.get("HELPERS_PROJECT_ROOT")
    if env:
        return Path(env).resolve()
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "_toc.yml").exists() and (parent / "src" / "helpers").is_dir():
            return parent
    return Path.cwd().resolve()


def caller_dir() -> Path:
    """The folder relative paths are read from first: where the user started the command
    (``$HELPERS_CALLER_CWD``, set by ``.venv/bin/python -m helpers``); else the working directory,
    except inside the project (e.g. JupyterLab in ``notebooks/``), where it is the project root."""
    env = os.environ.get("HELPERS_CALLER_CWD")
    if env:
        return Path(env).resolve()
    cwd, root = Path.cwd().resolve(), project_root()
    return root if cwd == root or root in cwd.parents else cwd


def raw_data_dir() -> Path:
    """Folder the fetched upstream files land in: ``data/raw/OWNER__REPO/PATH`` (or ``$HELPERS_RAW_DATA``)."""
    env = os.environ.get("HELPERS_RAW_DATA")
    return Path(env).resolve() if env else project_root() / "data" / "raw"


def sources_file() -> Path:
    """The list of upstream files, with commits, checksums, licences and citations."""
    return project_root() / "data" / "sources.yml"


def published_dir() -> Path:
    """Tables printed in the papers, entered as CSV with their citation."""
    return project_root() / "data" / "published"


def cache_dir() -> Path:
    """Gitignored cache for expensive, deterministic work, keyed by its inputs."""
    return project_root() / ".cache"


def resolve_input(path: str | os.PathLike) -> Path:
    """Resolve an input path: absolute as is; relative first to :func:`caller_dir`, then to
    the project root.

    Raises FileNotFoundError naming every place looked at.
    """
    p = Path(path).expanduser()
    if p.is_absolute():
        candidates = [p]
    else:
        candidates = list(dict.fromkeys([caller_dir() / p, Path.cwd() / p, project_root() / p]))
    for c in candidates:
        if c.exists():
            return c.resolve()
    tried = ", ".join(str(c) for c in candidates)
    err = FileNotFoundError(
        f"input file {str(path)!r} not found (looked at: {tried}). "
        "Released data is fetched by `.venv/bin/python -m helpers fetch` (or `make data`)."
    )
    err.tried = candidates  # for messages that name the places without the fetch hint
    raise err


def resolve_output(path: str | os.PathLike) -> Path:
    """Resolve an output folder: absolute as is, else relative to :func:`caller_dir` (the
    folder the command was started from; the project root for ``make book``)."""
    p = Path(path).expanduser()
    return p if p.is_absolute() else caller_dir() / p


def released_file(repo: str, relpath: str) -> Path:
    """Path of a fetched upstream file, e.g. ``released_file("aaronlifenghan/MetaHOPE", "x.xlsx")``.

    Raises FileNotFoundError with the fetch command when it is not there: a notebook that
    asked for real data never falls back to anything else.
    """
    p = raw_data_dir() / repo.replace("/", "__") / relpath
    if not p.exists():
        raise FileNotFoundError(
            f"{p} is missing. Fetch the released data first: `.venv/bin/python -m helpers fetch` "
            "(add `--mirror DIR` or set HELPERS_DATA_MIRROR to copy from a local mirror)."
        )
    return p


def atomic_write(path: str | os.PathLike, write) -> Path:
    """Write ``path`` all or nothing: ``write(tmp)`` fills a temporary file beside it, which
    then replaces ``path`` in one step; if writing fails the temporary file is removed and
    an existing ``path`` is left as it was. ``write`` may also be text, written as UTF-8.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = atomic_write(p, "first")
    >>> def broken(tmp):
    ...     tmp.write_text("half")
    ...     raise OSError("disk full")
    >>> try:
    ...     atomic_write(p, broken)
    ... except OSError:
    ...     pass
    >>> p.read_text(), sorted(x.name for x in p.parent.iterdir())
    ('first', ['a.txt'])
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{time.monotonic_ns()}")
    try:
        if isinstance(write, str):
            tmp.write_text(write, encoding="utf-8")
        else:
            write(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path
