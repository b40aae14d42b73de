"""mt-metrics-eval's data layout, read for any language pair.

WMT's metrics task ships every year's test sets in one directory layout (Freitag et al. 2021,
2022, 2023; google-research/mt-metrics-eval, its README "Data"), which this module reads
without the package itself::

    sources/<lp>.txt                              one source segment per line
    references/<lp>.<ref>.txt                     one file per reference (refA, refB, …)
    system-outputs/<lp>/<system>.txt              one file per system (references may appear too)
    documents/<lp>.docs                           "<domain>\\t<document>" per segment (optional)
    human-scores/<lp>.<name>.<level>.score        human scores, e.g. zh-en.mqm.seg.score
    metric-scores/<lp>/<metric>-<ref>.<level>.score   metric scores, e.g. COMET-22-refA.seg.score

A ``.score`` file has one tab-separated row per score: ``system score`` (levels ``sys`` and
``seg``), ``domain system score`` (``domain``) or ``system score`` per document in document
order (``doc``). At segment level the rows come in one block per system, the segments in
order, so a file holds a whole number of blocks of ``len(sources)`` rows. ``None`` marks a
cell that was not scored (e.g. an output the experts did not rate). Everything is checked as it
is read: a wrong row count, a system whose rows are not one block, or a score that is neither a
number nor ``None`` is an :class:`~helpers.core.errors.InputError` naming the file, line and
value, so a misaligned file never pairs a score with the wrong segment.

In the book ``segment`` is the 1-based line number of the source file (line ``i`` of every
file is segment ``i``), as for WMT's ``txt`` releases (:mod:`helpers.core.formats.texts`).

Song & Xu (2024) copy WMT22's metric scores into ``metric-scores/<lp>_ref/`` and
``metric-scores/<lp>_qe/`` and the system- and domain-level human scores into
``human-score_sd/``; the reader takes extra folders for such copies (``human_dirs``,
``metric_dirs``), and by default also reads every ``metric-scores/<lp>_*`` folder.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import InputError
from .texts import read_lines

#: The score levels of the layout and the columns a level's table has before ``score``.
LEVELS = {
    "sys": ("system",),
    "domain": ("domain", "system"),
    "doc": ("system", "document"),
    "seg": ("system", "segment"),
}
#: ``<name>.<level>.score`` (human scores after ``<lp>.``, metric scores as they stand).
_SCORE_FILE = re.compile(r"^(?P<name>.+)\.(?P<level>sys|domain|doc|seg)\.score$")


@dataclass(frozen=True)
class MtmeSet:
    """One language pair of an mt-metrics-eval directory: texts, documents and score files.

    Built by :func:`read_mtme`; the texts are read at once, score files when asked for.
    """

    directory: Path
    lp: str
    sources: tuple[str, ...]
    references: dict
    outputs: dict
    documents: pd.DataFrame | None
    human_files: dict = field(repr=False)  # (name, level) -> Path
    metric_files: dict = field(repr=False)  # (name, level) -> Path
    notes: tuple[str, ...] = ()

    @property
    def source_language(self) -> str:
        return self.lp.split("-")[0]

    @property
    def target_language(self) -> str:
        return self.lp.split("-")[1]

    @property
    def systems(self) -> list[str]:
        """The systems with an output file, in name order (references that appear as outputs included)."""
        return sorted(self.outputs)

    def human_names(self, level: str = "seg") -> list[str]:
        """The human score files of ``level``, by name (``mqm``, ``wmt-z``, …)."""
        return sorted(name for name, lev in self.human_files if lev == level)

    def metric_names(self, level: str = "seg") -> list[str]:
        """The metric score files of ``level``, named as the files name them (``COMET-22-refA``)."""
        return sorted(name for name, lev in self.metric_files if lev == level)

    def human(self, name: str = "mqm", level: str = "seg") -> pd.DataFrame:
        """A human score file as a tidy table (see :func:`read_scores`); ``None`` cells are NaN."""
        return self._scores(self.human_files, "human score", name, level)

    def metric(self, name: str, level: str = "seg") -> pd.DataFrame:
        """A metric score file as a tidy table (see :func:`read_scores`); ``None`` cells are NaN."""
        return self._scores(self.metric_files, "metric", name, level)

    def _scores(self, files: dict, kind: str, name: str, level: str) -> pd.DataFrame:
        _check_level(level)
        if (name, level) not in files:
            known = sorted(n for n, lev in files if lev == level)
            raise ValueError(
                f"no {kind} file {name!r} at level {level!r} in {self.directory} for {self.lp}; "
                f"choose one of {', '.join(known) or '(none)'}"
            )
        return read_scores(
            files[name, level],
            level,
            n_segments=len(self.sources),
            n_documents=None if self.documents is None else self.documents["document"].nunique(),
        )

    def segments(self) -> pd.DataFrame:
        """One row per segment: ``segment, source, domain, document, cluster``.

        ``cluster`` is the unit that resampling and clustered errors treat as independent: the
        document, or the segment itself when the directory has no ``documents/`` file (then
        :attr:`notes` says so, and the page should too).
        """
        frame = pd.DataFrame({"segment": range(1, len(self.sources) + 1), "source": list(self.sources)})
        if self.documents is None:
            frame["domain"], frame["document"] = pd.NA, pd.NA
            frame["cluster"] = frame["segment"].astype(str)
        else:
            frame = frame.merge(self.documents, on="segment", how="left", validate="one_to_one")
            frame["cluster"] = frame["document"]
        return frame

    def texts(self, systems: list[str] | None = None, reference: str = "refA") -> pd.DataFrame:
        """Source, reference and output, one row per (system, segment): ``system, segment, source,
        reference, hypothesis``; ``systems`` defaults to every output except ``reference`` itself."""
        if reference not in self.references:
            raise ValueError(
                f"no reference {reference!r} in {self.directory} for {self.lp}; "
                f"choose one of {', '.join(sorted(self.references))}"
            )
        wanted = systems if systems is not None else [s for s in self.systems if s != reference]
        unknown = [s for s in wanted if s not in self.outputs]
        if unknown:
            raise ValueError(
                f"no output of system {unknown[0]!r} in {self.directory} for {self.lp}; "
                f"choose among {', '.join(self.systems)}"
            )
        n = len(self.sources)
        frames = [
            pd.DataFrame(
                {
                    "system": s,
                    "segment": range(1, n + 1),
                    "source": list(self.sources),
                    "reference": list(self.references[reference]),
                    "hypothesis": list(self.outputs[s]),
                }
            )
            for s in wanted
        ]
        return (
            pd.concat(frames, ignore_index=True)
            if frames
            else pd.DataFrame(columns=["system", "segment", "source", "reference", "hypothesis"])
        )


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"level {level!r} is not one of {', '.join(LEVELS)}")


def _lines_of(path: Path, n: int, what: str) -> tuple[str, ...]:
    lines = read_lines(path)
    if len(lines) != n:
        raise InputError(
            f"has {len(lines)} lines where the source has {n}", file=path, expected=f"one {what} per source segment"
        )
    return tuple(lines)


def _parse_score(text: str, path: Path, line: int) -> float:
    """A score cell: a finite or infinite float, or ``None`` (not scored) as NaN."""
    if text == "None":
        return math.nan
    try:
        return float(text)
    except ValueError:
        raise InputError("is neither a number nor None", file=path, row=line, value=text) from None


def read_scores(path, level: str, n_segments: int | None = None, n_documents: int | None = None) -> pd.DataFrame:
    """One ``.score`` file of mt-metrics-eval's layout as a tidy table.

    Parameters
    ----------
    path : path-like
        The file: tab-separated rows ``system score`` (``sys``, ``seg``, ``doc``) or
        ``domain system score`` (``domain``).
    level : {"sys", "domain", "doc", "seg"}
    n_segments, n_documents : int, optional
        The number of source segments (documents): segment- (document-) level files must hold
        whole blocks of that many rows, one block per system.

    Returns
    -------
    DataFrame
        ``sys``: ``system, score``; ``domain``: ``domain, system, score``; ``doc``: ``system,
        document, score`` (``document`` the 1-based position in document order); ``seg``:
        ``system, segment, score`` (``segment`` the 1-based line). ``score`` is NaN where the
        file says ``None``.

    Raises
    ------
    InputError
        A row with the wrong number of fields, a score that is neither a number nor ``None``,
        a row count that is not a multiple of the segments (documents), or a system whose rows
        are not one contiguous block; each names the file, the line and the value.
    """
    _check_level(level)
    path = Path(path)
    keys = LEVELS[level]
    width = 3 if level == "domain" else 2
    rows = []
    for number, text in enumerate(read_lines(path), start=1):
        fields = text.split("\t")
        if len(fields) != width:
            raise InputError(
                f"has {len(fields)} tab-separated fields where a {level}-level score row has {width}",
                file=path,
                row=number,
                value=text,
            )
        rows.append((*fields[:-1], _parse_score(fields[-1].strip(), path, number)))
    if level in ("seg", "doc"):
        block = n_segments if level == "seg" else n_documents
        rows = _numbered_blocks(rows, block, path, "segment" if level == "seg" else "document")
        return pd.DataFrame(rows, columns=[*keys, "score"])
    return pd.DataFrame(rows, columns=[*keys, "score"])


def _numbered_blocks(rows: list[tuple], block: int | None, path: Path, what: str) -> list[tuple]:
    """Number each system's rows 1…``block``, checking the blocks are whole and contiguous."""
    if block is None:
        counts: dict[str, int] = {}
        for system, _ in rows:
            counts[system] = counts.get(system, 0) + 1
        block = next(iter(counts.values()), 0)
    if block <= 0 or len(rows) % block:
        raise InputError(
            f"has {len(rows)} rows, not a multiple of the {block} {what}s",
            file=path,
            expected=f"one block of {block} rows per system",
        )
    out, seen = [], set()
    for start in range(0, len(rows), block):
        system = rows[start][0]
        if system in seen:
            raise InputError(
                f"system {system!r} has a second block of rows",
                file=path,
                row=start + 1,
                value=system,
                expected=f"one block of {block} rows per system",
            )
        seen.add(system)
        for k in range(block):
            name, score = rows[start + k]
            if name != system:
                raise InputError(
                    f"is inside the block of system {system!r}",
                    file=path,
                    row=start + k + 1,
                    value=name,
                    expected=f"{block} consecutive rows per system, {what}s in order",
                )
            out.append((system, k + 1, score))
    return out


def _documents(path: Path, n: int) -> pd.DataFrame:
    rows = []
    for number, text in enumerate(_lines_of(path, n, "document line"), start=1):
        fields = text.split("\t")
        if len(fields) != 2:
            raise InputError("is not '<domain><TAB><document>'", file=path, row=number, value=text)
        rows.append((number, fields[0], fields[1]))
    return pd.DataFrame(rows, columns=["segment", "domain", "document"])


def _score_files(folders: list[Path], prefix: str) -> dict:
    """``(name, level) -> path`` for the ``.score`` files in ``folders`` whose name starts with ``prefix``."""
    found: dict = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob(f"{prefix}*.score")):
            match = _SCORE_FILE.match(path.name[len(prefix) :])
            if match:
                found.setdefault((match["name"], match["level"]), path)
    return found


def read_mtme(
    directory, lp: str, human_dirs: tuple[str, ...] = ("human-scores",), metric_dirs: tuple[str, ...] | None = None
) -> MtmeSet:
    """Read language pair ``lp`` of an mt-metrics-eval directory.

    Parameters
    ----------
    directory : path-like
        The test set's directory (holding ``sources/``, ``references/``, ``system-outputs/``, …).
    lp : str
        The language pair as the files name it, e.g. ``"zh-en"``.
    human_dirs : tuple of str
        Folders (relative to ``directory``) with ``<lp>.<name>.<level>.score`` human score files.
    metric_dirs : tuple of str, optional
        Folders with ``<metric>-<ref>.<level>.score`` files; default ``metric-scores/<lp>`` and
        every ``metric-scores/<lp>_*`` folder.

    Returns
    -------
    MtmeSet
        The texts and documents read and checked; score files listed, read on demand.

    Raises
    ------
    InputError
        A missing source file, or a reference, output or documents file whose line count is
        not the source's (named with the file).
    """
    directory = Path(directory)
    if not re.fullmatch(r"[A-Za-z_]+-[A-Za-z_]+", lp):
        raise ValueError(f"language pair {lp!r} is not of the form 'zh-en'")
    source_path = directory / "sources" / f"{lp}.txt"
    if not source_path.exists():
        pairs = sorted(p.stem for p in (directory / "sources").glob("*.txt"))
        raise InputError(
            f"has no sources/{lp}.txt",
            file=directory,
            expected=f"a language pair of the directory: {', '.join(pairs) or 'none found'}",
        )
    sources = tuple(read_lines(source_path))
    n = len(sources)
    references = {
        p.name[len(lp) + 1 : -len(".txt")]: _lines_of(p, n, "reference segment")
        for p in sorted((directory / "references").glob(f"{lp}.*.txt"))
    }
    outputs = {
        p.stem: _lines_of(p, n, "output segment") for p in sorted((directory / "system-outputs" / lp).glob("*.txt"))
    }
    docs_path = directory / "documents" / f"{lp}.docs"
    notes = []
    documents = _documents(docs_path, n) if docs_path.exists() else None
    if documents is None:
        notes.append(f"{directory.name} has no documents/{lp}.docs: each segment is its own cluster.")
    if metric_dirs is None:
        base = directory / "metric-scores"
        folders = [base / lp, *sorted(p for p in base.glob(f"{lp}_*") if p.is_dir())]
    else:
        folders = [directory / d for d in metric_dirs]
    return MtmeSet(
        directory=directory,
        lp=lp,
        sources=sources,
        references=references,
        outputs=outputs,
        documents=documents,
        human_files=_score_files([directory / d for d in human_dirs], f"{lp}."),
        metric_files=_score_files(folders, ""),
        notes=tuple(notes),
    )
