"""One data model for error annotations: one row per marked error or ``No-error`` mark.

Every reader of human error annotations produces this frame: the MQM/Marot TSV reader
(:mod:`helpers.core.formats.mqm`) and the MetaHOPE workbooks (through
``helpers.metahope.mqm_format.to_annotations``). Its columns (:data:`COLUMNS`) follow Marot's data
model (google-research/google-research ``marot/marot.js``, the ``this.data`` comment):

=================  ==============================================================
``system``         the translation rated (a side-by-side pairing key such as
                   ``GPT4-5shot_with_refA`` is kept; :func:`pool_pairings` pools it)
``doc``            document
``doc_seg_id``     1-based segment number within ``doc`` (Marot's docSegId)
``global_seg_id``  an application-wide segment id (Marot's globalSegId; may be NA)
``rater``          who annotated
``source``         source text, error span marked ``<v>…</v>`` when on the source
``target``         the translation, error span marked ``<v>…</v>`` when on the target
``category``       error category as written (``Accuracy/Mistranslation``,
                   ``Non-translation!``, ``Source issue``, ``MIS`` …); ``No-error`` for
                   a segment the rater found clean; ``Found``/``Missed`` on a
                   ``HOTW-test`` row
``severity``       one of :data:`SEVERITIES`, in that spelling whatever the case read
``source_start``   character offsets of the ``<v>…</v>`` span in the source with the
``source_end``     markers removed (end exclusive; NA when the source has no span)
``target_start``   the same for the target
``target_end``
``metadata``       the row's metadata as JSON text ("" when none); :func:`parse_metadata`
                   parses it and carries a segment's ``segment`` entry forward
``line``           where the row came from (1-based line of its file; provenance only)
=================  ==============================================================

A segment is ``(doc, doc_seg_id)``; a rating unit is ``(system, doc, doc_seg_id, rater)``.
``HOTW-test`` rows (Marot's hands-on-the-wheel quality checks: an injected error the rater
``Found`` or ``Missed``) stay in the frame so they can be counted per rater
(:func:`hotw_counts`); every score leaves them out.
"""

from __future__ import annotations

import json
import re

import pandas as pd

#: Columns of the annotation frame, in order.
COLUMNS = [
    "system",
    "doc",
    "doc_seg_id",
    "global_seg_id",
    "rater",
    "source",
    "target",
    "category",
    "severity",
    "source_start",
    "source_end",
    "target_start",
    "target_end",
    "metadata",
    "line",
]
#: Columns scoring needs (the readers can skip the texts, which are most of a file's bytes).
SCORING_COLUMNS = ["system", "doc", "doc_seg_id", "global_seg_id", "rater", "category", "severity", "line"]
#: Severities in their canonical spelling. MQM's Neutral/Minor/Major/Critical (Freitag et al.
#: 2021 §3; Marot also knows Trivial), MetaHOPE's five levels minor … critical (Liang & Han
#: 2026 §3: minor, moderate, major, severe, critical), and the three marks that are not
#: error severities: ``No-error``, ``HOTW-test`` and a segment-level ``Non-translation``.
SEVERITIES = (
    "Neutral",
    "Trivial",
    "Minor",
    "Moderate",
    "Major",
    "Severe",
    "Critical",
    "No-error",
    "HOTW-test",
    "Non-translation",
)
NO_ERROR = "No-error"
HOTW = "HOTW-test"
#: Separator of a side-by-side pairing key in a system name (``GPT4-5shot_with_refA``).
PAIRING_SEPARATOR = "_with_"
_INT_COLUMNS = ("source_start", "source_end", "target_start", "target_end", "global_seg_id")


def empty(columns=None) -> pd.DataFrame:
    """An annotation frame with no rows (``columns`` defaults to :data:`COLUMNS`)."""
    columns = list(COLUMNS if columns is None else columns)
    frame = pd.DataFrame({c: pd.Series(dtype=object) for c in columns})
    return conform(frame)


def conform(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with the model's dtypes: texts as strings, ``doc_seg_id`` and ``line`` int64,
    span offsets and ``global_seg_id`` nullable ``Int64``; columns in :data:`COLUMNS` order."""
    out = frame[[c for c in COLUMNS if c in frame.columns]].copy()
    for col in out.columns:
        if col in _INT_COLUMNS:
            out[col] = out[col].astype("Int64")
        elif col in ("doc_seg_id", "line"):
            out[col] = out[col].astype("int64")
        else:
            out[col] = out[col].astype(str).astype(object)
    return out.reset_index(drop=True)


def span_offsets(text: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Start and end (exclusive) of the first ``<v>…</v>`` span of each text, counted in
    characters of the text with the markers removed; NA where a text has no span.

    Marot marks an error span with ``<v>`` and ``</v>`` in the source or target
    (``marot.js``, ``tokenizeLegacyAnnotations``); the offsets here are in characters
    instead of Marot's tokens, so they do not depend on a tokenizer.

    Examples
    --------
    >>> s, e = span_offsets(pd.Series(["a <v>bc</v> d", "none"]))
    >>> s.tolist(), e.tolist()
    ([2, <NA>], [4, <NA>])
    """
    text = text.astype(str)
    opened = text.str.find("<v>")
    closed = text.str.find("</v>")
    has = (opened >= 0) & (closed > opened)
    start = opened.where(has).astype("Int64")
    end = (closed - 3).where(has).astype("Int64")
    return start, end


def clean_text(text: pd.Series) -> pd.Series:
    """Texts with the ``<v>``/``</v>`` span markers removed."""
    return text.astype(str).str.replace(r"</?v>", "", regex=True)


def split_pairing(system: pd.Series) -> pd.DataFrame:
    """``base`` and ``partner`` of side-by-side system names (``X_with_Y`` -> ``X``, ``Y``;
    ``partner`` is "" for a name without a pairing key).

    WMT 2023's side-by-side MQM rated a system beside a partner; a system rated beside two
    partners appears as two names (``GPT4-5shot_with_refA``, ``GPT4-5shot_with_ONLINE-W``).

    >>> split_pairing(pd.Series(["GPT4_with_refA", "refA"])).values.tolist()
    [['GPT4', 'refA'], ['refA', '']]
    """
    parts = system.astype(str).str.split(PAIRING_SEPARATOR, n=1, expand=True, regex=False)
    if parts.shape[1] == 1:
        parts[1] = None
    return pd.DataFrame({"base": parts[0], "partner": parts[1].fillna("")}, index=system.index)


def pool_pairings(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with each system's pairings pooled under its base name.

    A pooled system's segment rated beside two partners then has the ratings of both
    pairings, and its score averages over all of them (the unit stays the segment). The
    rater stays the rater (pooling never multiplies raters); the partner goes to a
    ``pairing`` column, so that a rater who rated the segment in two pairings gave two
    ratings, which :func:`helpers.core.statistics.scoring.rater_scores` averages into that rater's one
    rating of the pooled segment.
    """
    out = frame.copy()
    parts = split_pairing(out["system"])
    out["system"] = parts["base"]
    out["pairing"] = parts["partner"]
    return out


def hotw_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """``HOTW-test`` results per rater: ``rater, found, missed, tests`` (Marot's "HOTW Test"
    column: injected errors the rater found or missed; ``marot.js`` ``addErrorStats``)."""
    hotw = frame[frame["severity"] == HOTW]
    cat = hotw["category"].str.strip().str.lower()
    out = pd.DataFrame({"rater": hotw["rater"], "found": cat == "found", "missed": cat == "missed"})
    out = out.groupby("rater", sort=True)[["found", "missed"]].sum().astype(int).reset_index()
    out["tests"] = out["found"] + out["missed"]
    return out


def _as_object(text: str) -> dict:
    """Marot's reading of a metadata cell: JSON, or (before May 2022) a plain note."""
    text = text.strip()
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {"note": text}
    return value if isinstance(value, dict) else {"note": text}


def parse_metadata(frame: pd.DataFrame) -> pd.Series:
    """The ``metadata`` column parsed (one dict per row), with a segment's ``segment`` entry
    carried forward to its rows that lack it.

    Marot writes the segment-level metadata (tokens, references, metrics) only on the
    first row of a (doc, docSegId, system) and reads it back into every row of it
    (``marot.js``, ``createDataIter`` and ``getFilteredTSVData``); text that is not JSON is
    a rater's note, as Marot reads data from before May 2022.
    """
    parsed = frame["metadata"].map(_as_object)
    keys = list(zip(frame["system"], frame["doc"], frame["doc_seg_id"]))
    current: dict = {}
    out = []
    for key, meta in zip(keys, parsed):
        if "segment" in meta:
            current[key] = meta["segment"]
        elif key in current:
            meta = {**meta, "segment": current[key]}
        out.append(meta)
    return pd.Series(out, index=frame.index, name="metadata")


def check_columns(frame: pd.DataFrame, columns=SCORING_COLUMNS) -> None:
    """Raise ``ValueError`` unless ``frame`` has ``columns`` (a programming error, not input)."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"not an annotation frame: missing column(s) {missing}")


def rated_segments(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per rating unit ``system, doc, doc_seg_id, rater`` present in the frame."""
    return frame[["system", "doc", "doc_seg_id", "rater"]].drop_duplicates().reset_index(drop=True)


def top_level(category: pd.Series) -> pd.Series:
    """MQM top-level category of each annotation: ``Accuracy/Mistranslation`` -> ``Accuracy``,
    ``Non-translation!`` -> ``Non-translation``, ``Source issue``/``Source error`` -> ``Source``."""
    head = category.astype(str).str.split("/", n=1).str[0].str.strip().str.rstrip("!")
    return head.mask(head.str.lower().str.startswith("source"), "Source")


_WS = re.compile(r"\s+")


def severity_key(value: str) -> str:
    """Lower-case, trimmed, inner blanks and underscores as ``-`` (``No_error`` -> ``no-error``)."""
    return _WS.sub("-", str(value).strip().lower()).replace("_", "-")


#: Lower-case keys (:func:`severity_key`) -> canonical severity.
SEVERITY_BY_KEY = {severity_key(s): s for s in SEVERITIES} | {"non-translation!": "Non-translation"}

__all__ = [
    "COLUMNS",
    "SCORING_COLUMNS",
    "SEVERITIES",
    "NO_ERROR",
    "HOTW",
    "empty",
    "conform",
    "span_offsets",
    "clean_text",
    "split_pairing",
    "pool_pairings",
    "hotw_counts",
    "parse_metadata",
    "rated_segments",
    "top_level",
    "severity_key",
]
