"""The files a researcher passes to chapter 09 and its commands: texts, human scores, metric scores.

* :func:`read_texts`: a reference and system outputs, one segment per line (``metrics score``, the
  chapter's ``reference``/``hypotheses``);
* :func:`read_human`: any MQM file the book reads or a CSV ``system, segment, score`` (``metrics meta
  --human``, the chapter's ``human``), joined to lines by ``source`` where the file numbers only its
  rated segments (:func:`check_segment_join` refuses that join otherwise);
* :func:`read_metric_files`: metric scores as ``metrics score`` writes them, or a metric computed
  elsewhere in the documented form ``system, segment, score`` (``metrics meta --metrics``, the
  chapter's ``metrics`` entries that are files).

Every problem is an :class:`~helpers.core.errors.InputError` naming the file, row, column and value.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.errors import InputError
from ..core.formats.texts import align_to_lines, read_lines

HUMAN_COLUMNS = ["system", "segment", "score"]
METRIC_COLUMNS = ["system", "segment", "metric", "score"]


def read_texts(ref, hyps: dict, src=None):
    """The ``texts`` frame of :func:`helpers.metrics.scores.score_texts` from text files.

    Every file (``ref``, each of ``hyps`` and ``src`` when given) must have as many lines as
    the reference; the error names the file and both counts.

    Returns
    -------
    DataFrame
        ``system, segment, reference, hypothesis`` (and ``source``), ``segment`` 1-based.
    """
    reference = read_lines(ref)
    n = len(reference)

    def aligned(path) -> list[str]:
        lines = read_lines(path)
        if len(lines) != n:
            raise InputError(
                f"has {len(lines)} lines but the reference {ref} has {n}",
                file=path,
                expected="one line per reference line",
            )
        return lines

    source = aligned(src) if src is not None else None
    frames = []
    for name, path in hyps.items():
        lines = aligned(path)
        frame = pd.DataFrame(
            {"system": name, "segment": np.arange(1, n + 1), "reference": reference, "hypothesis": lines}
        )
        if source is not None:
            frame.insert(2, "source", source)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def read_metric_files(paths: str) -> pd.DataFrame:
    """Metric scores ``system, segment, metric, score`` from one or more comma-separated CSV files.

    A file with a ``metric`` column may hold several metrics; a file in the documented form of a
    metric computed elsewhere, ``system, segment, score`` (optionally ``doc``), holds one, named
    after the file (``my_metric.csv`` -> ``my_metric``). Each file is checked by
    :func:`read_score_csv`; a metric named in two files is an error naming the second.
    """
    frames, seen = [], {}
    for item in [p.strip() for p in str(paths).split(",") if p.strip()]:
        path = Path(item)
        frame = read_score_csv(path, METRIC_COLUMNS, optional=("metric",))
        if "metric" not in frame.columns:
            frame.insert(2, "metric", path.stem)
        for name in frame["metric"].unique():
            if name in seen:
                raise InputError(
                    f"gives metric {name!r}, which {seen[name]} gives too",
                    file=path,
                    column="metric",
                    value=name,
                    expected="each metric in one file",
                )
            seen[name] = path
        frames.append(frame)
    if not frames:
        raise InputError("names no file", parameter="--metrics", value=paths, expected="FILE.csv[,FILE.csv...]")
    return pd.concat(frames, ignore_index=True)


def read_score_csv(path, columns: list[str], optional: tuple[str, ...] = ()) -> pd.DataFrame:
    """Read a score CSV with ``columns`` (plus an optional ``doc``), checked row by row.

    ``optional`` names columns of ``columns`` the file may lack (then they are not in the result).

    ``segment`` is a positive integer or empty (a system score); ``score`` a finite number;
    ``system`` (and ``metric``) not empty; no key (system, segment[, metric]) twice. Any
    problem is an :class:`~helpers.core.errors.InputError` naming the file, the row (the
    file's line number), the column and the value.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError("no such file", file=path)
    if path.stat().st_size == 0:
        raise InputError("is empty", file=path, expected=f"a CSV with columns {', '.join(columns)}")
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except (pd.errors.ParserError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError(f"cannot be read as CSV ({str(exc).splitlines()[0]})", file=path) from None
    raw.columns = [str(c).strip() for c in raw.columns]
    columns = [c for c in columns if c in raw.columns or c not in optional]
    missing = [c for c in columns if c not in raw.columns]
    if missing:
        raise InputError(
            f"lacks column(s) {', '.join(missing)}",
            file=path,
            row=1,
            value=", ".join(raw.columns)[:120],
            expected=f"columns {', '.join(columns)}",
        )
    if raw.empty:
        raise InputError("has a header but no scores", file=path)
    keep = columns + (["doc"] if "doc" in raw.columns else [])
    raw = raw[keep].apply(lambda col: col.str.strip())
    for at, row in enumerate(raw.itertuples(index=False), start=2):
        row = row._asdict()
        for name in ("system", "metric"):
            if name in row and not row[name]:
                raise InputError(f"{name} is empty", file=path, row=at, column=name, value=row[name])
        seg = row["segment"]
        if seg and not (seg.isdigit() and int(seg) > 0):
            raise InputError(
                "segment must be a positive integer (the 1-based line) or empty for a system score",
                file=path,
                row=at,
                column="segment",
                value=seg,
            )
        try:
            score = float(row["score"])
        except ValueError:
            score = math.nan
        if not math.isfinite(score):
            raise InputError("score must be a finite number", file=path, row=at, column="score", value=row["score"])
    key = [c for c in columns if c != "score"]
    dup = raw.duplicated(key)
    if dup.any():
        at = int(dup.to_numpy().nonzero()[0][0])
        raise InputError(
            f"repeats {', '.join(key)} of an earlier row",
            file=path,
            row=at + 2,
            column=key[-1],
            value=" / ".join(raw.iloc[at][key]),
            expected="one score per " + ", ".join(key),
        )
    out = raw.copy()
    out["segment"] = pd.to_numeric(out["segment"].replace("", None)).astype("Float64").astype(float)
    out["score"] = out["score"].astype(float)
    return out


def read_human(path, weights: str | None = None, source=None) -> pd.DataFrame:
    """Human scores ``system, segment, score`` (and ``doc`` where known) from any MQM file the
    book reads or from a ``system, segment, score`` CSV (see the module's text). An MQM
    file's segment is its ``seg_id`` (``global_seg_id``); its score the segment's penalty
    averaged over its raters (:func:`helpers.core.statistics.scoring.segment_scores`), lower is better.

    ``source``: the test set's source file, one segment per line. An MQM annotation file's
    documents are then mapped to its lines by their source text
    (:func:`helpers.core.formats.texts.align_to_lines`) and ``segment`` is the line: WMT 2022+ files
    number only their rated segments (``globalSegId`` 1-377 in WMT23's ZH-EN file), which are no
    lines of the text files the metrics scored."""
    from ..core.formats import annotations as ann
    from ..core.formats import mqm
    from ..core.statistics import scoring

    path = Path(path)
    if not path.is_file():
        raise InputError("no such file", file=path)
    if path.stat().st_size == 0:
        raise InputError("is empty", file=path, expected="an MQM file or a CSV system, segment, score")
    tsv = path.suffix.lower() != ".csv" and not mqm.is_segment_score_file(path)
    if source is not None and not tsv:
        raise InputError(
            "has no source text to align by: --source applies to an MQM annotation file (TSV)",
            file=path,
            parameter="--source",
            value=str(source),
        )
    if path.suffix.lower() == ".csv":
        return read_score_csv(path, HUMAN_COLUMNS)
    if not tsv:
        if weights not in (None, "mqm"):
            raise InputError(
                "a per-segment score file is scored already (with the published MQM weights), so "
                "--weights does not apply",
                file=path,
                parameter="weights",
                value=weights,
            )
        seg = mqm.read_segment_scores(path)
    else:
        frame = mqm.read_mqm(path, columns=ann.SCORING_COLUMNS + (["source"] if source is not None else []))
        seg = scoring.segment_scores(scoring.rater_scores(frame, weights or "mqm", file=path))
        if source is not None:
            lines = align_to_lines(frame, read_lines(source), file=path)
            seg = seg.merge(lines, on=["doc", "doc_seg_id"], how="left", validate="many_to_one")
            return seg.assign(segment=seg["segment"].astype(float))[["system", "segment", "score", "doc"]]
    out = seg.rename(columns={"global_seg_id": "segment"})[["system", "segment", "score", "doc"]]
    out["segment"] = out["segment"].astype(float)
    return out


def check_segment_join(human: pd.DataFrame, scores: pd.DataFrame, human_file) -> None:
    """Refuse an MQM file whose segment numbers cannot be the lines the metric scores count.

    A file that numbers its rated segments densely 1..n while the metric scores go past line n
    numbers the rated segments themselves (WMT23's ZH-EN file: 1-377 for lines 488-1238 of
    ``generaltest2023.zh-en.src.zh``); joined by number, every pair would be wrong and the
    command would still exit 0. The error names the file and the fix (``--source``).
    """
    rated = np.unique(human["segment"].dropna().to_numpy())
    beyond = scores["segment"].dropna()
    if not len(rated) or beyond.empty:
        return
    dense = rated[0] == 1 and rated[-1] == len(rated)
    if dense and beyond.max() > rated[-1]:
        raise InputError(
            f"numbers its {len(rated)} rated segments 1-{len(rated)}, while the metric scores run to "
            f"line {int(beyond.max())}: its numbers are not lines of the test set, and a join by "
            "number would pair wrong segments",
            file=human_file,
            column="globalSegId",
            expected="--source SRC.txt (the source file the metrics scored: documents are aligned to "
            "its lines by their source text), or a CSV system, segment, score whose segment is the line",
        )


def mtme_set(directory, lp: str):
    """An mt-metrics-eval directory's language pair (:func:`helpers.core.formats.mtme.read_mtme`), with the
    registry's reading options when ``directory`` is a registered test set's (WMT22's copy keeps its system-level
    human scores in ``human-score_sd``)."""
    from ..core.formats import mtme, testsets

    options = {}
    for name in testsets.NAMES:
        ts = testsets.get(name)
        if ts.layout == "mtme":
            try:
                registered = ts.file("directory").resolve()
            except FileNotFoundError:
                continue
            if registered == Path(directory).resolve():
                options = dict(ts.options)
    return mtme.read_mtme(directory, lp, **options)


def mtme_scores(es, human: str = "mqm", metrics=None, references: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Human and metric segment scores of an mt-metrics-eval set as :func:`helpers.metrics.meta.meta_evaluate`
    reads them: ``system, segment, score, doc`` and ``system, segment, metric, score, doc``.

    ``human``: the human score name (``mqm``; ``es.human_names()`` lists them); ``metrics``: metric names
    as the files name them (``COMET-22-refA``; default every segment-level metric file of the pair).
    Human references scored as systems (``refA``, ``refB``: the names of ``references/``) are left out,
    as in mt-metrics-eval's ``GetCorrelations(include_human=False)``, unless ``references``; a metric
    never scores the reference it uses, so that one stays human-only and is reported as unmatched.
    ``None`` cells are dropped; ``doc`` is the segment's document (its resampling cluster). Scores keep
    the files' orientation: in mt-metrics-eval's layout every score is higher-is-better (MQM as a
    negative penalty).
    """
    from ..core.errors import InputError as _InputError

    segments = es.segments().set_index("segment")["cluster"]
    drop = set() if references else set(es.references)

    def tidy(frame: pd.DataFrame) -> pd.DataFrame:
        frame = frame[~frame["system"].isin(drop) & frame["score"].notna()].copy()
        frame["doc"] = frame["segment"].map(segments).astype(str)
        frame["segment"] = frame["segment"].astype(float)
        return frame

    try:
        h = tidy(es.human(human, "seg"))
        names = es.metric_names("seg") if metrics is None else list(metrics)
        frames = [tidy(es.metric(name, "seg")).assign(metric=name) for name in names]
    except ValueError as exc:
        raise _InputError(str(exc), file=es.directory) from None
    m = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=METRIC_COLUMNS + ["doc"])
    return h[["system", "segment", "score", "doc"]], m[["system", "segment", "metric", "score", "doc"]]


__all__ = [
    "mtme_set",
    "mtme_scores",
    "HUMAN_COLUMNS",
    "METRIC_COLUMNS",
    "read_texts",
    "read_metric_files",
    "read_score_csv",
    "read_human",
    "check_segment_join",
]
