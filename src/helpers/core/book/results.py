"""A chapter's result files: written together, published only when the chapter completed.

``results = Results(results_dir, "01_metahope_pilot_v1")`` collects every table and figure a
chapter saves (:meth:`Results.show`: the interactive figure for the page, its static twin as PNG
and SVG) in a private staging folder (``<results_dir>/.01_metahope_pilot_v1.partial-<pid>/``).
The chapter's last cell calls :meth:`Results.commit`, which swaps the staged set into
``<results_dir>/<notebook>/`` in one rename. A run that fails before that leaves an earlier
complete set untouched and never a half-written one; stale staging folders of dead runs are
removed by the next run.

The file names and columns are a public contract (``results/<chapter>/*.csv``).
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import pandas as pd

from .. import paths

_PARTIAL = ".partial-"


def read_saved(folder, name: str, dtype=None) -> pd.DataFrame:
    """A table a chapter saved, ``<folder>/<name>.csv``, read back as it was written: only an
    empty cell is missing (a system named "NA" or a context "n/a" stays text), and floats
    round-trip exactly. An empty frame when the run did not write it, or wrote no columns.
    This is how every chapter's ``findings(folder)`` reads its result files."""
    path = Path(folder) / f"{name}.csv"
    if not path.exists() or path.stat().st_size <= 1:
        return pd.DataFrame()
    return pd.read_csv(path, keep_default_na=False, na_values=[""], float_precision="round_trip", dtype=dtype)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def discard_partials(results_dir: str | os.PathLike, notebook: str, keep_alive: bool = True) -> list[Path]:
    """Remove staging folders of ``notebook`` left by runs that did not complete.

    With ``keep_alive`` the staging folders of processes still running are kept."""
    base = paths.resolve_output(results_dir)
    removed = []
    if not base.is_dir():
        return removed
    for folder in base.glob(f".{notebook}{_PARTIAL}*"):
        pid = folder.name.rsplit(_PARTIAL, 1)[1].split("-")[0]
        if keep_alive and pid.isdigit() and int(pid) != os.getpid() and _alive(int(pid)):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def missing_folders(results_dir: str | os.PathLike) -> list[Path]:
    """The folders of ``results_dir`` (itself and its parents) that do not exist yet, deepest
    first: what a run that writes there would create."""
    folder, missing = paths.resolve_output(results_dir), []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def discard_run(results_dir: str | os.PathLike, notebook: str, created: list[Path]) -> None:
    """Clean up after a run of ``notebook`` that failed or was interrupted: its staging folders
    go, and so do the folders it created (``created``, from :func:`missing_folders` before the
    run) that are left empty. An earlier run's results, and any folder that holds something,
    stay."""
    discard_partials(results_dir, notebook, keep_alive=False)
    for folder in created:
        try:
            folder.rmdir()
        except OSError:  # not empty (or gone): it, and the folders above it, stay
            break


class Results:
    """Tables (CSV) and the static twins of figures (PNG + SVG) of one chapter run, published atomically."""

    def __init__(self, results_dir: str | os.PathLike, notebook: str):
        self.base = paths.resolve_output(results_dir)
        self.notebook = notebook
        self.final = self.base / notebook
        discard_partials(results_dir, notebook)
        self.staging = self.base / f".{notebook}{_PARTIAL}{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.staging.mkdir(parents=True)
        self.written: list[str] = []
        self.committed = False

    def table(self, frame: pd.DataFrame, name: str) -> pd.DataFrame:
        """Stage ``frame`` as ``<name>.csv`` (no index) and return it unchanged."""
        self._check_open()
        frame.to_csv(self.staging / f"{name}.csv", index=False)
        self.written.append(f"{name}.csv")
        return frame

    def show(self, fig, name: str):
        """Stage the static twin of the plotly figure ``fig`` (:func:`helpers.core.book.plots.static`)
        as ``<name>.png`` and ``<name>.svg`` for print, and return the interactive figure for
        the page (:func:`helpers.core.book.plots.show`), which carries the PNG twin for the printable
        edition (:mod:`helpers.core.book.pdf`): one call per figure, the last expression of its cell
        (or passed to ``display``)."""
        import matplotlib.pyplot as plt

        from . import plots

        self._check_open()
        twin = plots.static(fig)
        out = [self.staging / f"{name}.png", self.staging / f"{name}.svg"]
        twin.savefig(out[0], dpi=200, bbox_inches="tight")
        twin.savefig(out[1], bbox_inches="tight")
        plt.close(twin)
        self.written += [p.name for p in out]
        return plots.show(fig, png=out[0].read_bytes())

    def findings(self, frame: pd.DataFrame) -> pd.DataFrame:
        """Stage a chapter's findings (``chNN.findings(results.staging)``, every number its page
        states) as ``findings.csv``: ``section`` first (``findings`` where the frame names none),
        then the other columns in their order. Returns the staged frame."""
        frame = frame.copy()
        section = frame.pop("section") if "section" in frame.columns else "findings"
        frame.insert(0, "section", section)
        return self.table(frame, "findings")

    def commit(self) -> Path:
        """Publish the staged files as ``<results_dir>/<notebook>/`` (replacing an earlier set)."""
        self._check_open()
        old = self.base / f".{self.notebook}.old-{uuid.uuid4().hex[:8]}"
        if self.final.exists():
            os.replace(self.final, old)
        os.replace(self.staging, self.final)
        shutil.rmtree(old, ignore_errors=True)
        self.committed = True
        return self.final

    def _check_open(self) -> None:
        if self.committed:
            raise RuntimeError(f"results of {self.notebook} were already committed to {self.final}")

    def __repr__(self) -> str:
        state = "committed" if self.committed else f"{len(self.written)} file(s) staged"
        return f"Results({self.final}, {state})"
