"""MQM files in and out, read as Marot reads them.

The reference implementation of the format is Marot (google-research/google-research,
``marot/marot.js``, ``addData``); the data are Google's expert MQM ratings of WMT
submissions (github.com/google/wmt-mqm-human-evaluation; Freitag et al. 2021). The rules:

* **Positional columns.** ``system, doc, docSegId, globalSegId, rater, source, target,
  category, severity[, metadata]``: a line needs at least 9 tab-separated fields, a 10th
  is metadata (JSON; before May 2022 a plain note), further fields are ignored. The WMT
  2020–21 files name the third and fourth columns ``doc_id`` (the segment's number in its
  document) and ``seg_id`` (the global segment id) and may have a 10th ``comment``
  column; being positional, they read the same way.
* **Headers** are recognised by their content (first fields ``system``, ``doc``) and
  skipped wherever they recur, so concatenated files read; Marot's own export ends its
  header with an extra ``# Documentation: …`` cell. Blank lines are skipped.
* **No quoting** (``csv.QUOTE_NONE``): targets start with unescaped quotes.
* **A UTF-8 byte-order mark** at the start of a file is skipped (a browser's ``FileReader``
  drops it before Marot sees the text).
* **Metadata-only rows** (rater, category and severity all empty: Marot's rows that carry
  only references or automatic metrics for a segment, ``marot/README.md``) are read and
  counted, and rate nothing, as in Marot (``mqmAddSegmentAggregations`` skips a row
  without a rater).
* **The canary document**: WMT24's files start with a document named ``canary`` (a test
  string, not a translation); the organisers' reader drops it (wmt24-news-systems
  ``humeval/tools.py``, ``load_data``: ``doc_id != 'canary'``) and so does this one,
  counting its rows.
* **Severities** in any case (``major``, ``Minor``, ``critical``, ``Neutral``), written
  back in the canonical spelling of :data:`~helpers.core.formats.annotations.SEVERITIES`.
* ``.gz`` and ``.tar.gz`` files are read directly (every file of an archive, in name
  order), streamed in chunks so a 1.6 GB file does not have to fit in memory twice.

:func:`read_mqm` returns the frame; :func:`read_mqm_file` returns it with what was dropped
(an :class:`MqmFile`: ``dropped`` counts the rows, ``canary`` and ``metadata_only``, and
``notes`` says it in sentences, :func:`reader_notes`), so that a command can report it.

The per-segment score files (``*.avg_seg_scores.tsv``: whitespace-separated
``system mqm_avg_score seg_id``, ``None`` for a segment not rated) are read by
:func:`read_segment_scores`. Anything else wrong is one
:class:`~helpers.core.errors.InputError` naming the file, line, column and value.
"""

from __future__ import annotations

import csv
import gzip
import io
import os
import re
import tarfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..errors import InputError
from . import annotations as ann
from . import esa, testsets

#: Marot's column names, in its order (``marot.js`` ``saveData``), as :func:`write_mqm_tsv` writes them.
MAROT_COLUMNS = [
    "system",
    "doc",
    "docSegId",
    "globalSegId",
    "rater",
    "source",
    "target",
    "category",
    "severity",
    "metadata",
]
#: Google's expert MQM release (data/sources.yml) and its three-rater WMT 2023 ZH→EN file, which chapter 08
#: analyses and chapter 3 plans a study from.
GOOGLE_MQM_REPO, THREE_RATER_FILE = testsets.get("generaltest2023").files["mqm"]
#: Header of the per-segment score files of the WMT releases.
SEGMENT_SCORE_HEADER = ["system", "mqm_avg_score", "seg_id"]
_MAX_FIELDS = 12
_CHUNK_ROWS = 250_000
_PAD = b"\t" * (_MAX_FIELDS - 1) + b"\n"
_TEXT_COLUMNS = {"system", "doc", "rater", "source", "target", "category", "severity", "metadata"}
_MODEL_OF_FIELD = {
    0: "system",
    1: "doc",
    2: "doc_seg_id",
    3: "global_seg_id",
    4: "rater",
    5: "source",
    6: "target",
    7: "category",
    8: "severity",
    9: "metadata",
}
_INTEGER = re.compile(r"\s*[+-]?\d+\s*")
_BOM = b"\xef\xbb\xbf"
#: Name of WMT24's canary document (a test string the organisers' reader drops).
CANARY_DOC = "canary"


@contextmanager
def _streams(path: Path) -> Iterator[Iterator[tuple[str, object]]]:
    """``(label, binary stream)`` of each file in ``path`` (a plain, ``.gz`` or ``.tar.gz``
    file), one after the other; an archive is read in one streaming pass, in its order."""
    name = path.name.lower()
    if name.endswith((".tar.gz", ".tgz", ".tar")):
        try:
            tar = tarfile.open(path, "r|*")
        except (tarfile.TarError, OSError) as exc:
            raise InputError(f"cannot be opened as a tar archive ({exc})", file=path) from None

        def members():
            found = False
            for m in tar:
                if m.isfile() and not Path(m.name).name.startswith("._"):
                    found = True
                    yield f"{path}:{m.name}", _skip_bom(tar.extractfile(m))
            if not found:
                raise InputError("the archive holds no file", file=path)

        with tar:
            yield members()
    elif name.endswith(".gz"):
        with gzip.open(path, "rb") as fh:
            yield iter([(str(path), _skip_bom(fh))])
    else:
        with open(path, "rb") as fh:
            yield iter([(str(path), _skip_bom(fh))])


def _skip_bom(fh):
    """``fh`` (a binary stream) past a leading UTF-8 byte-order mark, buffered so that it
    can be peeked at."""
    if not hasattr(fh, "peek"):
        fh = io.BufferedReader(fh)
    if fh.peek(3)[:3] == _BOM:
        fh.read(3)
    return fh


def _first_line(fh) -> str:
    head = fh.peek(65536)[:65536] if hasattr(fh, "peek") else b""
    for raw in head.split(b"\n"):
        if raw.strip():
            return raw.decode("utf-8", errors="replace")
    return ""


def is_segment_score_file(path: str | os.PathLike) -> bool:
    """True when the first non-blank line is ``system mqm_avg_score seg_id`` (whitespace-separated)."""
    path = _existing(path)
    with _streams(path) as streams:
        return _first_line(next(streams)[1]).split() == SEGMENT_SCORE_HEADER


def _existing(path) -> Path:
    path = Path(path)
    if not path.is_file():
        raise InputError("no such file", file=path)
    return path


def read_mqm(path: str | os.PathLike, columns: list[str] | None = None, chunksize: int = _CHUNK_ROWS) -> pd.DataFrame:
    """Read an MQM/Marot TSV (plain, ``.gz`` or ``.tar.gz``) into the annotation frame
    (:mod:`helpers.core.formats.annotations`).

    ``columns`` picks the model columns to keep (default all; scoring needs only
    :data:`~helpers.core.formats.annotations.SCORING_COLUMNS`, which skips the texts and metadata
    that make up most of a file). The file is parsed ``chunksize`` lines at a time, so only
    the kept columns of a large file are ever held in memory. The
    rules are the module's; a row that breaks one is an
    :class:`~helpers.core.errors.InputError` naming the file, line, column and value.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.tsv").write_text("system\\tdoc\\tdoc_id\\tseg_id\\trater\\tsource\\ttarget\\tcategory\\tseverity\\n"
    ...                            "s1\\td\\t1\\t7\\tr1\\t源\\tA <v>cat</v>.\\tAccuracy/Mistranslation\\tmajor\\n")
    >>> f = read_mqm(d / "a.tsv")
    >>> f[["system", "doc_seg_id", "global_seg_id", "severity", "target_start", "target_end", "line"]].values.tolist()
    [['s1', 1, 7, 'Major', 2, 5, 2]]
    """
    return read_mqm_file(path, columns, chunksize).frame


@dataclass(frozen=True)
class MqmFile:
    """An MQM/Marot file as :func:`read_mqm_file` read it.

    ``frame`` is the annotation frame (:func:`read_mqm`); ``dropped`` counts the rows the
    reader set aside, ``{"canary": n, "metadata_only": m}`` (the canary document's rows are
    not in ``frame``; metadata-only rows are, and rate nothing).
    """

    frame: pd.DataFrame
    dropped: dict[str, int]

    @property
    def notes(self) -> list[str]:
        """Sentences saying what was dropped (:func:`reader_notes`)."""
        return reader_notes(self.dropped)


def read_mqm_file(path: str | os.PathLike, columns: list[str] | None = None, chunksize: int = _CHUNK_ROWS) -> MqmFile:
    """:func:`read_mqm`, with the counts of what the reader dropped (an :class:`MqmFile`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.tsv").write_text("s1\\tcanary\\t1\\t1\\tr1\\tx\\tx\\tNo-error\\tNo-error\\n"
    ...                            "s1\\td\\t1\\t7\\tr1\\tx\\ty\\tNo-error\\tNo-error\\n")
    >>> read = read_mqm_file(d / "a.tsv")
    >>> len(read.frame), read.dropped
    (1, {'canary': 1, 'metadata_only': 0})
    """
    path = _existing(path)
    want = list(ann.COLUMNS if columns is None else columns)
    unknown = [c for c in want if c not in ann.COLUMNS]
    if unknown:
        raise ValueError(f"unknown annotation column(s) {unknown}")
    parts, dropped, text = [], {"canary": 0, "metadata_only": 0}, False
    with _streams(path) as streams:
        for label, fh in streams:
            first = _first_line(fh)
            text = text or bool(first.strip())
            if first.split() == SEGMENT_SCORE_HEADER:
                raise InputError(
                    "is a per-segment score file (system mqm_avg_score seg_id), not annotations; "
                    "read it with read_segment_scores",
                    file=label,
                    row=1,
                )
            parts.extend(_read_stream(fh, label, want, chunksize, dropped))
    frame = pd.concat(parts, ignore_index=True) if parts else ann.empty(want)
    notes = reader_notes(dropped)
    if frame.empty and not text:
        raise InputError("is empty: it holds no line of text", file=path)
    if frame.empty:
        raise InputError("holds no annotation rows" + (f" ({'; '.join(notes)})" if notes else ""), file=path)
    return MqmFile(frame, dropped)


def reader_notes(dropped: dict) -> list[str]:
    """Sentences saying what :func:`read_mqm_file` dropped (:attr:`MqmFile.dropped`)."""
    notes = []
    if dropped.get("canary"):
        notes.append(
            f"dropped {dropped['canary']} row(s) of the {CANARY_DOC!r} document (WMT24's test string, "
            "dropped by the organisers' reader too)"
        )
    if dropped.get("metadata_only"):
        notes.append(
            f"read {dropped['metadata_only']} metadata-only row(s) (no rater, category or severity: they "
            "carry references or metrics and rate nothing, as in Marot)"
        )
    return notes


class _Prefixed(io.RawIOBase):
    """A binary stream that yields ``prefix`` and then everything of ``fh``."""

    def __init__(self, prefix: bytes, fh):
        self.prefix, self.fh = prefix, fh

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.prefix:
            n = min(len(buffer), len(self.prefix))
            buffer[:n], self.prefix = self.prefix[:n], self.prefix[n:]
            return n
        return self.fh.readinto(buffer)


def _fields_for(want: list[str]) -> list[int]:
    """Which of the 12 positional fields the wanted model columns need (texts only when asked)."""
    fields = {0, 1, 2, 3, 4, 7, 8}
    if {"source", "source_start", "source_end"} & set(want):
        fields.add(5)
    if {"target", "target_start", "target_end"} & set(want):
        fields.add(6)
    if "metadata" in want:
        fields.add(9)
    return sorted(fields)


def _read_stream(fh, label: str, want: list[str], chunksize: int, dropped: dict) -> list[pd.DataFrame]:
    """Parse ``fh`` ``chunksize`` lines at a time. The stream is prefixed with one line of 12
    empty fields, so that pandas' C parser accepts rows of 9, 10 or 11 fields together with
    ``usecols`` (which skips the texts and metadata when they are not wanted); that line is
    dropped again, and a row's index is its line number minus one. Fields after the 12th are
    ignored, as Marot ignores those after the 10th. Rows dropped are counted in ``dropped``."""
    names = {2: "docSegId", 3: "globalSegId", 9: "metadata"}  # what the file's header calls them
    out = []
    stream = io.BufferedReader(_Prefixed(_PAD, fh), 1 << 20)
    try:
        reader = pd.read_csv(
            stream,
            sep="\t",
            header=None,
            names=range(_MAX_FIELDS),
            usecols=_fields_for(want),
            quoting=csv.QUOTE_NONE,
            dtype=object,
            na_filter=False,
            skip_blank_lines=False,
            chunksize=chunksize,
            encoding="utf-8",
            encoding_errors="strict",
        )
        for chunk in reader:
            chunk.index = chunk.index - 1
            chunk = chunk[chunk.index >= 0]  # the padding line
            if chunk.empty:
                continue
            part = _chunk(chunk, label, want, names, dropped)
            if len(part):
                out.append(part)
    except pd.errors.ParserError as exc:
        raise InputError(f"cannot be read as tab-separated text ({exc})", file=label) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"is not UTF-8 text ({exc.reason})", file=label) from None
    return out


def _fail(problem: str, chunk: pd.DataFrame, bad, field: int, label: str, names: dict, **kw):
    """Raise for the first row flagged in ``bad``."""
    at = np.asarray(bad).nonzero()[0][0]
    row = chunk.iloc[at]
    column = names.get(field, MAROT_COLUMNS[field] if field < len(MAROT_COLUMNS) else f"field {field + 1}")
    raise InputError(problem, file=label, row=int(chunk.index[at]) + 1, column=column, value=row[field], **kw)


def _mapped(column: pd.Series, fn) -> np.ndarray:
    """``fn`` applied to each distinct value of ``column`` (few: systems, raters, categories …)."""
    codes, uniques = pd.factorize(column)
    return np.array([fn(u) for u in uniques], dtype=object)[codes] if len(uniques) else np.array([], dtype=object)


def _integers(column: pd.Series, blank_ok: bool) -> tuple[np.ndarray, np.ndarray]:
    """Values of a column of integer ids (float, NaN where blank) and a mask of the bad ones."""
    try:
        values = column.to_numpy().astype(np.int64).astype(float)  # the usual case: every id a plain integer
        return values, np.zeros(len(values), dtype=bool)
    except (ValueError, OverflowError):
        pass
    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)
    missing = np.isnan(values)
    bad = (~missing & (values != np.floor(values))) | (missing & ~(blank_ok & (_mapped(column, str.strip) == "")))
    return values, bad


def _chunk(chunk: pd.DataFrame, label: str, want: list[str], names: dict, dropped: dict) -> pd.DataFrame:
    codes0, u0 = pd.factorize(chunk[0])
    codes1, u1 = pd.factorize(chunk[1])
    s0, s1 = (np.array([v.strip() for v in u], dtype=object) for u in (u0, u1))
    c0, c1 = s0[codes0], s1[codes1]
    blank = (c0 == "") & (c1 == "") & (chunk[8].to_numpy() == "")
    header = np.array([v.lower() == "system" for v in s0])[codes0] & np.array([v.lower() == "doc" for v in s1])[codes1]
    if header.any():
        first = chunk[header].iloc[0]
        names.update({f: first[f].strip() or names[f] for f in (2, 3, 9) if f in first.index})
    canary = np.array([v.lower() == CANARY_DOC for v in s1])[codes1]
    # A metadata-only row names its segment (system, doc, docSegId) and leaves rater, category
    # and severity empty; a line cut short (no docSegId either) is still "too few fields".
    rater = _mapped(chunk[4], str.strip)
    metadata_only = (
        (rater == "")
        & (_mapped(chunk[7], str.strip) == "")
        & (_mapped(chunk[8], str.strip) == "")
        & (c0 != "")
        & (c1 != "")
        & (_mapped(chunk[2], str.strip) != "")
        & ~(header | canary)
    )
    dropped["canary"] += int(canary.sum())
    dropped["metadata_only"] += int(metadata_only.sum())
    keep = ~(blank | header | canary | metadata_only)
    if not keep.all():
        chunk, c0, c1, rater = chunk[keep], c0[keep], c1[keep], rater[keep]
    if chunk.empty:
        return pd.DataFrame({c: pd.Series(dtype=object) for c in want})
    severity = _mapped(chunk[8], lambda v: ann.SEVERITY_BY_KEY.get(ann.severity_key(v)) if v.strip() else "")
    too_few = severity == ""
    if too_few.any():
        at = too_few.nonzero()[0][0]
        row = chunk.iloc[at]
        if esa.looks_like_esa(row[0]):  # an ESA line has no tab: all of it is the first field
            raise InputError(esa.NOT_MQM, file=label, row=int(chunk.index[at]) + 1)
        raise InputError(
            "the row has too few fields (or an empty severity): the 9th tab-separated field, the "
            "severity, is missing; Marot's format is system, doc, docSegId, globalSegId, rater, "
            "source, target, category, severity[, metadata]",
            file=label,
            row=int(chunk.index[at]) + 1,
            column="severity",
            value=row[8],
        )
    for field, name, values in ((0, "system", c0), (1, "doc", c1), (4, "rater", rater)):
        if (values == "").any():
            _fail(f"{name} is empty", chunk, values == "", field, label, names)
    seg, seg_bad = _integers(chunk[2], blank_ok=False)
    if seg_bad.any():
        _fail(
            "the segment id must be an integer (the segment's 1-based number in its document)",
            chunk,
            seg_bad,
            2,
            label,
            names,
        )
    glob, glob_bad = _integers(chunk[3], blank_ok=True)
    if glob_bad.any():
        _fail("the global segment id must be an integer (or empty)", chunk, glob_bad, 3, label, names)
    unknown = severity == None  # noqa: E711 (elementwise on an object array)
    if unknown.any():
        _fail(
            "unknown severity",
            chunk,
            unknown,
            8,
            label,
            names,
            expected=", ".join(ann.SEVERITIES) + " (any case)",
        )
    category = _mapped(chunk[7], lambda v: ann.NO_ERROR if ann.severity_key(v) == "no-error" else v.strip())
    mismatch = (category == ann.NO_ERROR) != (severity == ann.NO_ERROR)
    if mismatch.any():
        _fail("No-error must be both the category and the severity of a row", chunk, mismatch, 8, label, names)

    index = chunk.index
    cols = {
        "system": lambda: c0,
        "doc": lambda: c1,
        "doc_seg_id": lambda: seg.astype("int64"),
        "global_seg_id": lambda: pd.array(glob, dtype="Float64").astype("Int64"),
        "rater": lambda: rater,
        "source": lambda: chunk[5].to_numpy(copy=True),
        "target": lambda: chunk[6].to_numpy(copy=True),
        "category": lambda: category,
        "severity": lambda: severity,
        "metadata": lambda: chunk[9].to_numpy(copy=True),
        "line": lambda: index.to_numpy() + 1,
    }
    out = {name: cols[name]() for name in want if name in cols}
    for name in _TEXT_COLUMNS & set(out):  # object dtype, whatever pandas would infer
        out[name] = pd.Series(out[name], index=index, dtype=object)
    for side, field in (("source", 5), ("target", 6)):
        if f"{side}_start" in want or f"{side}_end" in want:
            out[f"{side}_start"], out[f"{side}_end"] = ann.span_offsets(chunk[field])  # Int64, NA where none
    return pd.DataFrame(out, index=index)[want]


def read_segment_scores(path: str | os.PathLike) -> pd.DataFrame:
    """Read a per-segment score file (``*.avg_seg_scores.tsv``) into segment scores.

    The WMT releases give, per system and global segment id, ``mqm_avg_score``: the
    segment's MQM penalty averaged over its raters and *negated*, or ``None`` where the
    segment was not rated; fields are separated by blanks or tabs. Returns one row per
    rated segment, ``system, doc, doc_seg_id, global_seg_id, raters, score`` with
    ``score`` the positive penalty (the published tables' sign), ``doc`` empty and
    ``doc_seg_id`` the global id (the files give no documents), ``raters`` NA (not given).
    """
    path = _existing(path)
    with _streams(path) as streams:
        label, fh = next(streams)
        first = _first_line(fh)
        if first.split() != SEGMENT_SCORE_HEADER:
            raise InputError(
                "is not a per-segment score file",
                file=label,
                row=1,
                value=first[:80],
                expected="the header 'system mqm_avg_score seg_id'",
            )
        try:
            raw = pd.read_csv(fh, sep=r"\s+", dtype=str, na_filter=False, encoding="utf-8")
        except pd.errors.ParserError as exc:
            raise InputError(f"cannot be read as whitespace-separated columns ({exc})", file=label) from None
        more = next(streams, None)
        if more is not None:  # never read only the first of several files
            raise InputError(
                "the archive holds more than one file",
                file=path,
                value=more[0],
                expected="one per-segment score file per archive",
            )
    score_txt = raw["mqm_avg_score"]
    rated = score_txt != "None"
    score = pd.to_numeric(score_txt.where(rated), errors="coerce")
    bad = rated & score.isna()
    if bad.any():
        at = bad.to_numpy().nonzero()[0][0]
        raise InputError(
            "mqm_avg_score must be a number or None",
            file=label,
            row=at + 2,
            column="mqm_avg_score",
            value=score_txt.iloc[at],
        )
    seg_ok = raw["seg_id"].str.fullmatch(_INTEGER)
    if not seg_ok.all():
        at = (~seg_ok).to_numpy().nonzero()[0][0]
        raise InputError(
            "seg_id must be an integer", file=label, row=at + 2, column="seg_id", value=raw["seg_id"].iloc[at]
        )
    seg = raw["seg_id"].astype("int64")
    out = pd.DataFrame(
        {
            "system": raw["system"].astype(object),
            "doc": "",
            "doc_seg_id": seg,
            "global_seg_id": seg.astype("Int64"),
            "raters": pd.array([pd.NA] * len(raw), dtype="Int64"),
            "score": -score,
        }
    )
    out = out[rated.to_numpy()].reset_index(drop=True)
    out["score"] = out["score"] + 0.0  # -0.0 -> 0.0
    return out


def write_mqm_tsv(frame: pd.DataFrame, path: str | os.PathLike) -> Path:
    """Write the annotation frame as Marot TSV: Marot's header and column order
    (:data:`MAROT_COLUMNS`, as ``marot.js`` ``saveData`` writes them), one row per frame row.

    ``source`` and ``target`` are written as they are (with their ``<v>…</v>`` spans),
    ``globalSegId`` empty when NA, ``metadata`` as its JSON text. :func:`read_mqm` reads the
    file back to the same frame (``line`` aside). The file is written atomically.
    """
    ann.check_columns(
        frame, [c for c in ann.COLUMNS if c not in ("source_start", "source_end", "target_start", "target_end", "line")]
    )
    path = Path(path)
    body = pd.DataFrame(
        {
            "system": frame["system"].astype(str),
            "doc": frame["doc"].astype(str),
            "docSegId": frame["doc_seg_id"].astype("int64").astype(str),
            "globalSegId": frame["global_seg_id"].astype("Int64").astype(str).replace("<NA>", ""),
            "rater": frame["rater"].astype(str),
            "source": frame["source"].astype(str),
            "target": frame["target"].astype(str),
            "category": frame["category"].astype(str),
            "severity": frame["severity"].astype(str),
            "metadata": frame["metadata"].astype(str),
        }
    )
    for col in body.columns:
        broken = body[col].str.contains(r"[\t\r\n]", regex=True)
        if broken.any():
            at = broken.to_numpy().nonzero()[0][0]
            raise InputError(
                "a tab or line break inside a field cannot be written as TSV",
                file=path,
                row=at + 2,
                column=col,
                value=body[col].iloc[at][:80],
            )
    header = (
        "\t".join(MAROT_COLUMNS) + "\t# Documentation: https://github.com/google-research/google-research/"
        "tree/master/marot\n"
    )
    text = header + "".join("\t".join(r) + "\n" for r in body.itertuples(index=False, name=None))
    return paths.atomic_write(path, text)


__all__ = [
    "MAROT_COLUMNS",
    "SEGMENT_SCORE_HEADER",
    "CANARY_DOC",
    "MqmFile",
    "read_mqm",
    "read_mqm_file",
    "reader_notes",
    "read_segment_scores",
    "is_segment_score_file",
    "write_mqm_tsv",
]
