"""Where raters' source-side MQM error spans fall in segments with an idiom: each span's overlap
with the idioms (:func:`span_overlap`), the rate expected by chance (:func:`chance_overlap`) and the
two compared with a document-resampled interval (:func:`overlap_summary`); chapter 10's section on spans."""

from __future__ import annotations

import numpy as np
import pandas as pd

from helpers.core.errors import InputError
from helpers.core.formats import annotations as ann
from helpers.core.statistics import stats

from . import idioms


def chance_overlap(length: int, chars: int, intervals: list[tuple[int, int]]) -> float:
    """Probability that a span of ``length`` characters, its start drawn uniformly among the
    ``chars − length + 1`` places in a source of ``chars`` characters, overlaps one of
    ``intervals`` (``(start, end)``, end exclusive). For a one-character span it is the
    intervals' share of the characters.

    Parameters
    ----------
    length : int
        Span length L.
    chars : int
        Source length n.
    intervals : list of (int, int)
        Idiom intervals, end exclusive.

    Returns
    -------
    float
        P = #{starts t in 0 … n − L : [t, t + L) meets an interval} / (n − L + 1).

    References
    ----------
    Feller, W. (1968). An Introduction to Probability Theory and Its Applications, vol. 1, 3rd ed.,
    ch. I (equally likely outcomes).

    Examples
    --------
    >>> chance_overlap(1, 10, [(2, 6)])  # 4 of 10 characters
    0.4
    >>> chance_overlap(3, 10, [(2, 6)])  # starts 0…7: those 0…5 reach characters 2…5
    0.75
    """
    places = chars - length + 1
    if length < 1 or places < 1:
        return float("nan")
    starts = np.arange(places)
    hit = np.zeros(places, dtype=bool)
    for s, e in intervals:
        hit |= (starts < e) & (starts + length > s)
    return float(hit.mean())


def span_overlap(rows: pd.DataFrame, detector: str = "filtered") -> pd.DataFrame:
    """Source-side error spans in segments with an idiom: does each overlap an idiom?

    Parameters
    ----------
    rows : pandas.DataFrame
        MQM annotation rows (:func:`helpers.core.formats.mqm.read_mqm`) with ``source``,
        ``source_start`` and ``source_end`` (offsets of the ``<v>`` span in the clean
        source, NA where the error is marked in the target).
    detector : str
        The idiom detector.

    Returns
    -------
    pandas.DataFrame
        One row per non-empty source span whose segment has an idiom: ``system, doc,
        doc_seg_id, rater, category, severity, span_start, span_end, source_chars,
        idiom_chars, share`` (the idioms' share of the characters), ``chance``
        (:func:`chance_overlap` for the span's length) and ``overlap`` (True when the span
        shares a character with an idiom).

    References
    ----------
    Freitag, M. et al. (2021). Experts, errors, and context: a large-scale study of human evaluation
    for machine translation. TACL 9 (the MQM data and scores).
    Kocmi, T. et al. (2023). Findings of WMT23 (the three-rater MQM spans).
    """
    missing = [c for c in ("source", "source_start", "source_end") if c not in rows.columns]
    if missing:
        raise InputError("missing column(s) " + ", ".join(missing), value=list(rows.columns))
    spans = rows[rows["source_start"].notna() & (rows["source_end"] > rows["source_start"])].copy()
    spans["clean"] = ann.clean_text(spans["source"]).to_numpy()
    unique = pd.Series(spans["clean"].unique())
    found = idioms.find_idioms(unique, detector)
    where = {unique[i]: list(zip(g["start"], g["end"])) for i, g in found.groupby("text_id")}
    spans = spans[spans["clean"].isin(where)]
    out = []
    for r in spans.itertuples(index=False):
        intervals, a, b, n = where[r.clean], int(r.source_start), int(r.source_end), len(r.clean)
        covered = np.zeros(n, dtype=bool)
        for s, e in intervals:
            covered[s:e] = True
        out.append(
            {
                "system": r.system,
                "doc": r.doc,
                "doc_seg_id": r.doc_seg_id,
                "rater": r.rater,
                "category": r.category,
                "severity": r.severity,
                "span_start": a,
                "span_end": b,
                "source_chars": n,
                "idiom_chars": int(covered.sum()),
                "share": covered.mean(),
                "chance": chance_overlap(b - a, n, intervals),
                "overlap": bool(covered[a:b].any()),
            }
        )
    columns = [
        "system",
        "doc",
        "doc_seg_id",
        "rater",
        "category",
        "severity",
        "span_start",
        "span_end",
        "source_chars",
        "idiom_chars",
        "share",
        "chance",
        "overlap",
    ]
    return pd.DataFrame(out, columns=columns)


def overlap_summary(spans: pd.DataFrame, n_boot: int = 1000, seed: int = 0, ci: float = 95.0) -> pd.DataFrame:
    """How often source spans overlap an idiom, against chance, with a document-resampled interval.

    Parameters
    ----------
    spans : pandas.DataFrame
        :func:`span_overlap`'s rows.
    n_boot, seed, ci : int, int, float
        Bootstrap resamples (whole documents), their seed, the interval level in percent.

    Returns
    -------
    pandas.DataFrame
        One row: ``spans, documents, observed`` (share of spans that overlap an idiom),
        ``chance`` (mean chance rate), ``share`` (mean character share of the idioms),
        ``difference`` (observed − chance) with ``ci_low``, ``ci_high``, and ``ratio``
        (observed / chance).

    Notes
    -----
    observed = (1/N) · sum_i overlap_i and chance = (1/N) · sum_i chance_i over the N spans;
    difference = observed − chance, its interval from resampling documents.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §13.3.
    """
    nan = float("nan")
    if spans.empty:
        return pd.DataFrame(
            [
                {
                    "spans": 0,
                    "documents": 0,
                    "observed": nan,
                    "chance": nan,
                    "share": nan,
                    "difference": nan,
                    "ci_low": nan,
                    "ci_high": nan,
                    "ratio": nan,
                }
            ]
        )
    observed, chance = spans["overlap"].to_numpy(dtype=float), spans["chance"].to_numpy(dtype=float)
    weights = stats.resample(len(spans), n_boot, seed=seed, clusters=spans["doc"].to_numpy())
    diff = stats.weighted_mean(observed - chance, weights)
    low, high = stats.percentile_interval(diff, ci)
    return pd.DataFrame(
        [
            {
                "spans": len(spans),
                "documents": spans["doc"].nunique(),
                "observed": observed.mean(),
                "chance": chance.mean(),
                "share": spans["share"].mean(),
                "difference": observed.mean() - chance.mean(),
                "ci_low": low,
                "ci_high": high,
                "ratio": observed.mean() / chance.mean() if chance.mean() > 0 else nan,
            }
        ]
    )
