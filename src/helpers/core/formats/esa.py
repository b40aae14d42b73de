"""ESA files in: Error Span Annotation, the human evaluation of WMT24 and WMT25.

In ESA (Kocmi et al. 2024) a rater marks error spans in a translation, each ``minor`` or
``major``, and then gives the segment a score from 0 to 100 (higher is better). This module
reads the organisers' releases into one ratings frame (:data:`RATING_COLUMNS`, one row per
rating), applies the organisers' filters with a count of what each one dropped
(:func:`organisers_filter`), turns the spans into the book's annotation frame
(:func:`to_annotations`) and scores systems (:func:`system_scores`); the rankings built on
those scores are :mod:`helpers.core.formats.esa_rankings`.

Layouts read (:func:`read_esa` tells them apart by content):

* **WMT24 CSV** (``humeval/esa_generalMT2024_wave*.csv`` of wmt-conference/wmt24-news-systems):
  no header, 12 comma-separated fields whose names come from the organisers' loader
  (``humeval/tools.py``, ``load_data``): rater, system, segment id, segment type, source and
  target language (3-letter codes), score, document, a flag the organisers drop, the spans
  (JSON), start and end time (Unix seconds). The segment id is the 0-based line of the
  pair's ``txt/`` files, whose line 0 is the canary (the fixed files of 2024-11-29; the
  older ones were one line off). WMT25's Appraise export has the same 12 fields with the
  segment id written ``lp_#_domain_#_document_#_index`` (wmt25-general-mt,
  ``humeval/04-collect_humeval.py``); that form is read too.
* **WMT24 JSONL, one rating per line**, as the WMT24 README documents it (``langs``,
  ``line_id``, ``doc_id``, ``domain``, ``esa_spans``, ``esa_score``, ``system``,
  ``annotator``; ``merge_to_jsonl.py`` also writes ``times``). The organisers built it with
  their filters applied, so every row counts as a ``TGT`` row.
* **Per-segment JSONL** (one segment per line: ``doc_id`` = ``lp_#_domain_#_document_#_n``,
  ``src_text``, ``tgt_text``, ``scores``): WMT24's ``wmt24-genmt-humeval.jsonl``, where
  ``scores[system]`` is a list of ``{score, annotator, errors, times, protocol}``
  (``merge_to_jsonl.py``; ratings of another ``protocol`` are read and then dropped, counted,
  by :func:`organisers_filter`), and
  WMT25's ``wmt25-genmt-humeval.jsonl``, where ``scores[system]`` holds ``human1``,
  ``errors1``, ``annotator1`` (and ``…2`` for a second wave), one rating per wave
  (``04-collect_humeval.py``). Neither release documents more than its code writes: the
  WMT25 README says "Documentation todo", so fields beyond these are not read.

The organisers' filters (``tools.py`` ``load_data``; :data:`FILTERS`, in their order):
segment types other than ``TGT`` (``BAD``: a deliberately damaged translation, ``CHK``: a
check item), tutorial items (system name containing ``tutorial``), documents marked
``#incomplete`` (filler items) or ``#dup`` (a repeated item), the canary document, and a
rater's earlier rating of a segment they rated again (the latest ``end_time`` is kept).

What the mirrored WMT24 release allows one to check: ``report/generated_report.tex`` is the
organisers' *preliminary automatic* ranking (AutoRank from MetricX and CometKiwi), with a
mark on the systems chosen for human evaluation
(:func:`~helpers.core.formats.esa_rankings.read_autorank`); the human ranking itself is
printed in the findings paper, which is not among the mirrored files, and waves 0 and 1 of
the ratings are not mirrored either. So the ESA scores here are recomputed from waves 2-3
(English to Czech, Hindi, Japanese and Chinese), the rated systems are checked against the
report's marks (they agree for all four pairs, plus the human reference ``refA``), and the
human ranking is set beside the automatic one
(:func:`~helpers.core.formats.esa_rankings.compare_rankings`). The organisers also leave out
a pair whose systems average fewer than 100 ratings; every pair here has several hundred, so
that rule is not applied.

A span is ``{"start_i", "end_i", "severity"[, "error_type"]}`` with character offsets into
the translation, end exclusive; ``"missing"`` in place of both offsets marks content
missing from the translation (an omission), which has no place in the text. A few spans
have the severity ``undecided``: marked, but the rater never chose minor or major; they are
read and counted, and :func:`to_annotations` leaves them out (the score does not use spans).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from . import annotations as ann

#: The 12 fields of a WMT24 ESA CSV row, in order (named after the organisers' ``tools.py``).
CSV_FIELDS = [
    "rater",
    "system",
    "segment_id",
    "segment_type",
    "source_lang",
    "target_lang",
    "score",
    "doc",
    "flag",
    "spans",
    "start_time",
    "end_time",
]
#: Columns of the ratings frame :func:`read_esa` returns, one row per rating.
RATING_COLUMNS = [
    "lp",
    "system",
    "doc",
    "line_id",
    "domain",
    "rater",
    "segment_type",
    "score",
    "spans",
    "start_time",
    "end_time",
    "file",
    "line",
]
#: Segment types of the WMT24 files: ``TGT`` is a real item, ``BAD`` and ``CHK`` are quality control.
SEGMENT_TYPES = ("TGT", "BAD", "CHK")
#: The organisers' filters, in the order they apply them (:func:`organisers_filter`).
FILTERS = [
    "other protocol",
    "quality control (BAD/CHK)",
    "tutorial",
    "#incomplete",
    "#dup",
    "canary",
    "re-rated (earlier rating)",
]
#: Columns of :func:`system_scores` (the ``esa scores`` CSV).
SYSTEM_COLUMNS = ["lp", "system", "segments", "raters", "score", "score_by_domain"]
#: The ISO 639-3 codes of the WMT24 files and their 2-letter forms (``tools.py``, ``merge_to_jsonl.py``).
LANGUAGES = {
    "eng": "en",
    "ces": "cs",
    "hin": "hi",
    "zho": "zh",
    "jpn": "ja",
    "rus": "ru",
    "ukr": "uk",
    "deu": "de",
    "isl": "is",
    "spa": "es",
    "hrv": "hr",
    "plk": "pl",
}
SEVERITIES = {"minor": "Minor", "major": "Major"}
#: A span marked but left without a severity (11 spans of the WMT24 waves 2-3 files).
UNDECIDED = "undecided"
MISSING = "missing"
#: What the MQM reader says of an ESA file (:func:`looks_like_esa`).
NOT_MQM = (
    "this is an ESA file (Error Span Annotation, WMT24/WMT25: a 0-100 score and error spans per "
    "segment), not an MQM/Marot TSV; read it with `.venv/bin/python -m helpers esa scores FILE` or "
    "helpers.core.formats.esa.read_esa"
)
_DOMAIN = re.compile(r"^test-[a-z]{2,3}-([a-z]+)_")
_SOURCE_ID = "_#_"


def looks_like_esa(line: str) -> bool:
    """True when one line of a file is an ESA row in any layout :func:`read_esa` reads.

    The MQM reader calls it on a row it is about to refuse, so that an ESA file is named
    as one instead of failing on a missing field.

    >>> looks_like_esa('r1,GPT-4,12,TGT,eng,zho,88,test-en-news_a,False,[],1.0,2.0')
    True
    >>> looks_like_esa('{"langs": "en-zh", "line_id": 3, "esa_score": "70"}')
    True
    >>> looks_like_esa('sys\\tdoc\\t1\\t1\\tr1\\tsrc\\ttgt\\tAccuracy\\tMajor')
    False
    """
    line = line.lstrip("\ufeff").strip()
    if line.startswith("{"):
        try:
            row = json.loads(line)
        except ValueError:
            return False
        return isinstance(row, dict) and ("esa_score" in row or "scores" in row and "src_text" in row)
    fields = next(csv.reader([line]), [])
    return len(fields) == len(CSV_FIELDS) and fields[3] in SEGMENT_TYPES


def _domain(doc: str) -> str:
    """The WMT24 domain a document id names (``test-en-news_…`` -> ``news``; "" when it names none)."""
    hit = _DOMAIN.match(doc)
    return hit.group(1) if hit else ""


def _open_text(path: Path) -> str:
    if not path.is_file():
        raise InputError("no such file", file=path)
    try:
        return path.read_bytes().decode("utf-8-sig")  # a byte-order mark is dropped
    except UnicodeDecodeError as exc:
        raise InputError(f"is not UTF-8 text ({exc.reason})", file=path) from None


def read_esa(path: str | os.PathLike) -> pd.DataFrame:
    """Read an ESA file (any layout of the module docstring) into the ratings frame.

    One row per rating, columns :data:`RATING_COLUMNS`: ``lp`` (``en-zh``), ``system``,
    ``doc``, ``line_id`` (the segment's line in the pair's ``txt/`` files, or its index in
    the document for WMT25), ``domain``, ``rater``, ``segment_type``, ``score`` (0-100),
    ``spans`` (the error spans as JSON text, parsed and checked), ``start_time``,
    ``end_time``, ``file`` (the file's name: the organisers' wave) and ``line`` (1-based line
    of the file). Nothing is filtered: :func:`organisers_filter` does that and counts it.
    A row that breaks the format is an :class:`~helpers.core.errors.InputError` naming the
    file, line, column and value.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "w.csv").write_text('r1,GPT-4,5,TGT,eng,zho,71,test-en-news_a,False,'
    ...     '"[{""start_i"":0,""end_i"":2,""severity"":""major""}]",1.0,2.0\\n')
    >>> read_esa(d / "w.csv")[["lp", "system", "line_id", "domain", "score"]].values.tolist()
    [['en-zh', 'GPT-4', 5, 'news', 71.0]]
    """
    path = Path(path)
    text = _open_text(path)
    lines = [(i, s) for i, s in enumerate(text.splitlines(), start=1) if s.strip()]
    if not lines:
        raise InputError("is empty: an ESA file has one rating per line", file=path)
    if lines[0][1].lstrip().startswith("{"):
        rows = _read_jsonl(lines, path)
    else:
        rows = _read_csv(text, path)
    if not rows:
        raise InputError("holds no ratings", file=path)
    frame = pd.DataFrame(rows, columns=RATING_COLUMNS)
    frame["line_id"] = frame["line_id"].astype("int64")
    frame["score"] = frame["score"].astype(float)
    frame["start_time"] = frame["start_time"].astype(float)
    frame["end_time"] = frame["end_time"].astype(float)
    frame["line"] = frame["line"].astype("int64")
    return frame


def _spans(value, path: Path, line: int, column: str) -> str:
    """The spans checked and written back as compact JSON text."""
    try:
        spans = json.loads(value) if isinstance(value, str) else value
    except ValueError:
        raise InputError(
            "the error spans must be a JSON list", file=path, row=line, column=column, value=str(value)[:80]
        ) from None
    if spans is None:
        spans = []
    if not isinstance(spans, list) or not all(isinstance(s, dict) for s in spans):
        raise InputError(
            "the error spans must be a JSON list of objects", file=path, row=line, column=column, value=str(value)[:80]
        )
    for s in spans:
        severity = str(s.get("severity", "")).lower()
        if severity not in SEVERITIES and severity != UNDECIDED:
            raise InputError(
                "an ESA span's severity must be minor, major or undecided",
                file=path,
                row=line,
                column=column,
                value=s.get("severity"),
            )
        start, end = s.get("start_i"), s.get("end_i")
        if (start == MISSING) != (end == MISSING):
            raise InputError(
                'an omission has "missing" for both start_i and end_i',
                file=path,
                row=line,
                column=column,
                value=f"{start}, {end}",
            )
        if start != MISSING and not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end):
            raise InputError(
                'a span needs integer offsets start_i <= end_i (or "missing" for an omission)',
                file=path,
                row=line,
                column=column,
                value=f"{start}, {end}",
            )
    return json.dumps(spans, ensure_ascii=False, separators=(",", ":"))


def _score(value, path: Path, line: int, column: str) -> float:
    try:
        score = float(value)
    except (TypeError, ValueError):
        score = float("nan")
    if not 0 <= score <= 100:
        raise InputError(
            "the ESA score must be a number from 0 to 100", file=path, row=line, column=column, value=value
        )
    return score


def _time(value, path: Path, line: int, column: str) -> float:
    if value in (None, ""):
        return float("nan")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InputError(
            "a time must be a number of seconds", file=path, row=line, column=column, value=value
        ) from None


def _read_csv(text: str, path: Path) -> list[list]:
    rows = []
    reader = csv.reader(io.StringIO(text))
    start = 1
    for fields in reader:
        line, start = start, reader.line_num + 1
        if not fields or not any(f.strip() for f in fields):
            continue
        if len(fields) != len(CSV_FIELDS):
            raise InputError(
                f"an ESA row has {len(CSV_FIELDS)} comma-separated fields ({', '.join(CSV_FIELDS)}); "
                f"this one has {len(fields)}",
                file=path,
                row=line,
                value=",".join(fields)[:80],
            )
        f = dict(zip(CSV_FIELDS, fields))
        if f["segment_type"] not in SEGMENT_TYPES:
            raise InputError(
                f"the segment type must be one of {', '.join(SEGMENT_TYPES)}",
                file=path,
                row=line,
                column="segment_type",
                value=f["segment_type"],
            )
        for column in ("rater", "system", "doc"):
            if not f[column].strip():
                raise InputError(f"{column} is empty", file=path, row=line, column=column, value=f[column])
        if _SOURCE_ID in f["segment_id"]:  # WMT25: lp_#_domain_#_document_#_index
            parts = f["segment_id"].split(_SOURCE_ID)
            if len(parts) != 4 or not parts[3].isdigit():
                raise InputError(
                    "a WMT25 segment id is lp_#_domain_#_document_#_index",
                    file=path,
                    row=line,
                    column="segment_id",
                    value=f["segment_id"],
                )
            lp, domain, doc, line_id = parts[0], parts[1], _SOURCE_ID.join(parts[:3]), int(parts[3])
        else:
            langs = [LANGUAGES.get(f[c]) for c in ("source_lang", "target_lang")]
            for c, code in zip(("source_lang", "target_lang"), langs):
                if code is None:
                    raise InputError(
                        f"unknown language code (known: {', '.join(LANGUAGES)})",
                        file=path,
                        row=line,
                        column=c,
                        value=f[c],
                    )
            if not f["segment_id"].strip().isdigit():
                raise InputError(
                    "the segment id must be a line number (an integer >= 0)",
                    file=path,
                    row=line,
                    column="segment_id",
                    value=f["segment_id"],
                )
            lp, doc, line_id = f"{langs[0]}-{langs[1]}", f["doc"], int(f["segment_id"])
            domain = _domain(doc)
        rows.append(
            [
                lp,
                f["system"],
                doc,
                line_id,
                domain,
                f["rater"],
                f["segment_type"],
                _score(f["score"], path, line, "score"),
                _spans(f["spans"], path, line, "spans"),
                _time(f["start_time"], path, line, "start_time"),
                _time(f["end_time"], path, line, "end_time"),
                path.name,
                line,
            ]
        )
    return rows


def _json_line(text: str, path: Path, line: int) -> dict:
    try:
        row = json.loads(text)
    except ValueError as exc:
        raise InputError(f"is not a JSON object ({exc.msg})", file=path, row=line, value=text[:80]) from None
    if not isinstance(row, dict):
        raise InputError("is not a JSON object", file=path, row=line, value=text[:80])
    return row


def _need(row: dict, key: str, path: Path, line: int):
    if key not in row:
        raise InputError(f"the ESA JSONL row lacks {key!r}", file=path, row=line, column=key)
    return row[key]


def _read_jsonl(lines: list[tuple[int, str]], path: Path) -> list[list]:
    rows = []
    for line, text in lines:
        row = _json_line(text, path, line)
        if "scores" in row:
            rows.extend(_segment_rows(row, path, line))
            continue
        times = row.get("times") or [None, None]
        doc = str(_need(row, "doc_id", path, line))
        line_id = _need(row, "line_id", path, line)
        if not isinstance(line_id, int):
            raise InputError("line_id must be an integer", file=path, row=line, column="line_id", value=line_id)
        rows.append(
            [
                str(_need(row, "langs", path, line)),
                str(_need(row, "system", path, line)),
                doc,
                line_id,
                str(row.get("domain") or _domain(doc)),
                str(_need(row, "annotator", path, line)),
                "TGT",
                _score(_need(row, "esa_score", path, line), path, line, "esa_score"),
                _spans(_need(row, "esa_spans", path, line), path, line, "esa_spans"),
                _time(times[0], path, line, "times"),
                _time(times[-1], path, line, "times"),
                path.name,
                line,
            ]
        )
    return rows


def _segment_rows(row: dict, path: Path, line: int) -> list[list]:
    """The ratings of one per-segment JSONL line (WMT24 unified export or WMT25)."""
    key = str(_need(row, "doc_id", path, line))
    parts = key.split(_SOURCE_ID)
    if len(parts) != 4 or not parts[3].isdigit():
        raise InputError("doc_id must be lp_#_domain_#_document_#_n", file=path, row=line, column="doc_id", value=key)
    lp, domain, doc, line_id = parts[0], parts[1], parts[2], int(parts[3])
    scores = row["scores"]
    if not isinstance(scores, dict):
        raise InputError(
            "scores must map each system to its ratings", file=path, row=line, column="scores", value=str(scores)[:80]
        )
    out = []
    for system, ratings in scores.items():
        if isinstance(ratings, dict):  # WMT25: human1, errors1, annotator1 (one rating per wave)
            waves = sorted(k[len("human") :] for k in ratings if k.startswith("human"))
            ratings = [
                {
                    "score": ratings[f"human{w}"],
                    "errors": ratings.get(f"errors{w}", []),
                    "annotator": ratings.get(f"annotator{w}", f"wave{w}"),
                    "protocol": "ESA",
                }
                for w in waves
            ]
        for r in ratings:
            protocol = str(r.get("protocol", "ESA"))
            times = r.get("times") or [None, None]
            esa_rating = protocol == "ESA"
            score = _score(r.get("score"), path, line, "scores") if esa_rating else float(r.get("score", "nan"))
            out.append(
                [
                    lp,
                    str(system),
                    doc,
                    line_id,
                    domain,
                    str(r.get("annotator", "")),
                    "TGT" if esa_rating else protocol,
                    score,
                    _spans(r.get("errors", []), path, line, "scores"),
                    _time(times[0], path, line, "scores"),
                    _time(times[-1], path, line, "scores"),
                    path.name,
                    line,
                ]
            )
    return out


def read_many(paths) -> pd.DataFrame:
    """:func:`read_esa` of each file, concatenated (the organisers read waves 0-3 together)."""
    return pd.concat([read_esa(p) for p in paths], ignore_index=True)


def organisers_filter(ratings: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ratings the organisers score and a count of what each filter dropped.

    Filters in :data:`FILTERS` order, as ``tools.py`` ``load_data`` applies them (after a
    first one of this reader's: ratings of another protocol, such as the MQM ratings a
    per-segment JSONL may hold, whose ``segment_type`` is the protocol's name): keep
    ``TGT`` rows; drop tutorial items, ``#incomplete`` and ``#dup`` documents, the canary
    document; of a rater's several ratings of one segment (same pair, system, document,
    line) keep the one with the latest ``end_time`` (on a tie, the later line of the
    later file). The organisers' key also holds the wave (file), so a segment a rater
    rated in two waves would stay twice there; here it counts once (the WMT24 waves 2-3
    have no such segment). Returns ``(kept, counts)``, ``counts`` with columns ``lp, filter, dropped``
    (one row per pair and filter, zeros included).
    """
    masks = [
        ~ratings["segment_type"].isin(SEGMENT_TYPES),
        ratings["segment_type"] != "TGT",
        ratings["system"].str.contains("tutorial", regex=False),
        ratings["doc"].str.contains("#incomplete", regex=False),
        ratings["doc"].str.contains("#dup", regex=False),
        ratings["doc"] == "canary",
    ]
    dropped = np.zeros(len(ratings), dtype=object)
    alive = np.ones(len(ratings), dtype=bool)
    for name, mask in zip(FILTERS, masks):
        hit = alive & mask.to_numpy()
        dropped[hit] = name
        alive &= ~hit
    # positions, not index labels: ``dropped`` and ``alive`` are arrays over the rows in order
    order = ratings.assign(_file=pd.factorize(ratings["file"])[0], _position=np.arange(len(ratings)))[alive]
    order = order.sort_values(["end_time", "_file", "line"], kind="stable")
    latest = ~order.duplicated(["lp", "system", "doc", "line_id", "rater"], keep="last")
    earlier = order["_position"].to_numpy()[~latest.to_numpy()]
    dropped[earlier] = FILTERS[-1]
    alive[earlier] = False
    lps = sorted(ratings["lp"].unique())
    counts = pd.DataFrame({"lp": ratings["lp"], "filter": dropped})[~alive]
    counts = counts.groupby(["lp", "filter"]).size()
    table = pd.DataFrame(
        [{"lp": lp, "filter": f, "dropped": int(counts.get((lp, f), 0))} for lp in lps for f in FILTERS]
    )
    return ratings[alive].reset_index(drop=True), table


def segment_scores(kept: pd.DataFrame) -> pd.DataFrame:
    """One row per rated segment ``lp, system, doc, line_id, domain, ratings, score``: the
    mean of its ratings (the organisers average a segment's several ratings).

    Parameters
    ----------
    kept : pandas.DataFrame
        Ratings after :func:`organisers_filter`.

    Returns
    -------
    pandas.DataFrame
        ``lp, system, doc, line_id, domain, ratings, score``: score = (1/m) Σ_j esa_score_j over the
        segment's m ratings.

    References
    ----------
    Kocmi, T. et al. (2024). Error Span Annotation: a balanced approach for human evaluation of
    machine translation. WMT (the ESA score, 0–100).
    Kocmi, T. et al. (2024). Findings of the WMT24 general machine translation shared task. WMT.
    """
    key = ["lp", "system", "doc", "line_id", "domain"]
    out = kept.groupby(key, sort=True).agg(ratings=("score", "size"), score=("score", "mean")).reset_index()
    return out


def system_scores(kept: pd.DataFrame) -> pd.DataFrame:
    """System scores per pair, best first: ``lp, system, segments, raters, score, score_by_domain``.

    ``score`` is the mean over the system's rated segments of the segment score
    (:func:`segment_scores`); ``score_by_domain`` is the organisers' ranking score
    (``calculate_clusters.py``): the mean over domains of the per-domain mean, so each
    domain weighs the same whatever its number of segments. Higher is better.

    Parameters
    ----------
    kept : pandas.DataFrame
        Ratings after :func:`organisers_filter`.

    Returns
    -------
    pandas.DataFrame
        :data:`SYSTEM_COLUMNS`: score = mean of the segment scores; score_by_domain =
        (1/D) Σ_d (mean of the segment scores in domain d) over the system's D domains.

    References
    ----------
    Kocmi, T. et al. (2024). Findings of the WMT24 general machine translation shared task. WMT
    (the human ranking; the organisers' ``calculate_clusters.py``).
    """
    segments = segment_scores(kept)
    per_domain = segments.groupby(["lp", "system", "domain"])["score"].mean().groupby(["lp", "system"]).mean()
    out = segments.groupby(["lp", "system"]).agg(segments=("score", "size"), score=("score", "mean"))
    out["raters"] = kept.groupby(["lp", "system"])["rater"].nunique()
    out["score_by_domain"] = per_domain
    out = out.reset_index().sort_values(
        ["lp", "score_by_domain", "system"], ascending=[True, False, True], kind="stable"
    )
    return out[SYSTEM_COLUMNS].reset_index(drop=True)


def to_annotations(kept: pd.DataFrame) -> pd.DataFrame:
    """The ratings as the book's annotation frame (:mod:`helpers.core.formats.annotations`).

    One row per error span, ``category`` ``ESA`` (``ESA/missing`` for an omission, which has
    no offsets), ``severity`` ``Minor`` or ``Major``, ``target_start``/``target_end`` the
    character offsets; a rating without spans is one ``No-error`` row. ``doc_seg_id`` and
    ``global_seg_id`` carry ``line_id`` (ESA names a segment by its line, not by its number
    within the document); ``system`` is the pair and system (``en-zh/GPT-4``) so that
    segments of different pairs stay apart; ``metadata`` holds the rating's ``esa_score``,
    ``lp`` and ``domain`` as JSON. Spans of severity ``undecided`` are left out;
    :func:`undecided_spans` counts them.
    """
    rows = []
    for r in kept.itertuples(index=False):
        meta = json.dumps({"esa_score": r.score, "lp": r.lp, "domain": r.domain}, ensure_ascii=False)
        base = {
            "system": f"{r.lp}/{r.system}",
            "doc": r.doc,
            "doc_seg_id": r.line_id,
            "global_seg_id": r.line_id,
            "rater": r.rater,
            "source": "",
            "target": "",
            "metadata": meta,
            "line": r.line,
            "source_start": pd.NA,
            "source_end": pd.NA,
        }
        spans = [s for s in json.loads(r.spans) if str(s["severity"]).lower() != UNDECIDED]
        if not spans:
            rows.append(
                base | {"category": ann.NO_ERROR, "severity": ann.NO_ERROR, "target_start": pd.NA, "target_end": pd.NA}
            )
        for s in spans:
            missing = s["start_i"] == MISSING
            rows.append(
                base
                | {
                    "category": "ESA/missing" if missing else "ESA",
                    "severity": SEVERITIES[str(s["severity"]).lower()],
                    "target_start": pd.NA if missing else s["start_i"],
                    "target_end": pd.NA if missing else s["end_i"],
                }
            )
    return ann.conform(pd.DataFrame(rows)) if rows else ann.empty()


def undecided_spans(kept: pd.DataFrame) -> int:
    """The number of error spans of severity ``undecided`` in the ratings ``kept`` (their
    ``spans`` JSON): the spans :func:`to_annotations` leaves out."""
    return sum(str(s["severity"]).lower() == UNDECIDED for spans in kept["spans"] for s in json.loads(spans))


__all__ = [
    "CSV_FIELDS",
    "RATING_COLUMNS",
    "SEGMENT_TYPES",
    "FILTERS",
    "SYSTEM_COLUMNS",
    "NOT_MQM",
    "looks_like_esa",
    "read_esa",
    "read_many",
    "organisers_filter",
    "segment_scores",
    "system_scores",
    "to_annotations",
    "undecided_spans",
]
