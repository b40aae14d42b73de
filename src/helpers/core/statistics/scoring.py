"""MQM-style scores of an annotation frame: per rating, per segment, per system; and the
raters' agreement on them.

Steps 1 and 2 are those of the published WMT tables and of Marot
(google-research/google-research ``marot/marot.js``, ``aggregateUnitStats``); step 3 is
the published tables' (Marot averages over each system's own rated segments, which is
``common=False``, ``--all-segments`` on the command line, and the same wherever every
system has the same segments):

1. a rater's penalty for a segment is the sum of the weights of their annotations of it
   (:func:`rater_scores`; the weights come from a :mod:`~helpers.core.statistics.schemes` scheme;
   ``HOTW-test`` rows add nothing, ``No-error`` adds 0);
2. a segment's score is the mean of its raters' penalties (:func:`segment_scores`);
3. a system's score is the mean over segments (:func:`system_scores`), lower is better,
   on the segments rated for every system (the others are counted and dropped); or, as
   Marot's "100 source characters" scoring unit does, the sum of the segment scores per
   100 characters of those segments' sources (``per_100_chars``).

Marot counts the severity ``Unrateable`` apart and scores nothing for it; here a row of
that severity is refused as an unknown severity (the mirrored releases hold none), so it
can never be scored as anything silently.

A rater whose only row for a segment is a ``HOTW-test`` row still counts as having rated
it with penalty 0, as in Marot (which opens a rater's entry for every row); in the WMT
releases every HOTW-test row sits beside the rater's real annotations of the segment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..errors import InputError
from ..formats import annotations as ann
from .schemes import Scheme, load_scheme

SEGMENT = ["doc", "doc_seg_id"]
UNIT = ["system", "doc", "doc_seg_id"]
#: Columns of :func:`system_scores` (the ``mqm scores`` CSV); ``ci_low``, ``ci_high`` follow
#: when an interval is asked for.
SYSTEM_COLUMNS = ["system", "segments", "raters", "score"]
#: Columns of :func:`scored_segments` (the ``mqm scores --segments`` CSV).
SEGMENT_COLUMNS = ["system", "doc", "segment", "n_raters", "score"]
_MARKERS = re.compile(r"</?v>")
#: Columns of :func:`score_agreement` (the ``mqm agreement`` CSV).
AGREEMENT_COLUMNS = ["scope", "statistic", "estimate", "ci_low", "ci_high", "n"]


def _groups(frame: pd.DataFrame, columns: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Group number of every row by ``columns`` (in order of first appearance) and the
    first row of each group: integer codes instead of a groupby on text keys (fast on a
    million rows)."""
    key = np.zeros(len(frame), dtype=np.int64)
    for col in columns:
        codes, uniques = pd.factorize(frame[col])
        key = key * (len(uniques) + 1) + codes
        key = pd.factorize(key)[0]  # keep the combined key small
    _, first = np.unique(key, return_index=True)
    return key, first


def source_chars(source: pd.Series) -> np.ndarray:
    """Length of each source text as Marot counts it for its "100 source characters" scoring
    unit: every character, spaces included, with the ``<v>``/``</v>`` span markers removed,
    in UTF-16 code units (JavaScript's ``String.length``; google-research/google-research
    ``marot/marot.js``, ``mqmSetData``: ``srcLen``). A character outside the Basic
    Multilingual Plane (an emoji) counts 2, as in Marot.

    Parameters
    ----------
    source : Series
        Source texts.

    Returns
    -------
    numpy.ndarray
        chars_i = UTF-16 length of source_i without the <v>, </v> markers.

    References
    ----------
    google-research/google-research, marot/marot.js (Marot, the MQM viewer): mqmSetData, mqmAggregateSegStats.

    Examples
    --------
    >>> source_chars(pd.Series(["欧盟<v>峰会</v> ok", "😀"])).tolist()
    [7, 2]
    """
    return np.array([len(_MARKERS.sub("", str(t)).encode("utf-16-le")) // 2 for t in source], dtype=np.int64)


def rater_scores(frame: pd.DataFrame, scheme: str | Scheme = "mqm", file=None) -> pd.DataFrame:
    """One row per rating ``system, doc, doc_seg_id, global_seg_id, rater, penalty, errors``:
    the sum of the rater's weights for that segment and how many errors (rows other than
    ``No-error`` and ``HOTW-test``) they marked. When ``frame`` has the ``source`` texts, a
    column ``source_chars`` (:func:`source_chars` of the rating's first row) follows, for
    scoring per 100 source characters. On pooled pairings (a ``pairing`` column,
    :func:`helpers.core.formats.annotations.pool_pairings`) a rater who rated a segment in several
    pairings has one row, the mean of those ratings (so ``errors`` may be fractional).

    Parameters
    ----------
    frame : DataFrame
        MQM error rows (:func:`helpers.core.formats.mqm.read_mqm`).
    scheme : str or Scheme, default "mqm"
        Weighting scheme (:mod:`helpers.core.statistics.schemes`).
    file : path, optional
        The file the rows came from, for error messages.

    Returns
    -------
    DataFrame
        One row per (system, segment, rater): penalty = sum over the rater's error rows e of
        weight(category_e, severity_e).

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. & Macherey, W. (2021). Experts,
    errors, and context: a large-scale study of human evaluation for machine translation. TACL 9
    (MQM scoring: a segment's score is the sum of its error weights, averaged over raters).
    """
    ann.check_columns(frame)
    weights = load_scheme(scheme).weights(frame, file=file).fillna(0.0).to_numpy()
    is_error = (~frame["severity"].isin([ann.NO_ERROR, ann.HOTW])).to_numpy()
    paired = "pairing" in frame.columns  # pooled side-by-side pairings (annotations.pool_pairings)
    group, first = _groups(frame, UNIT + ["rater"] + (["pairing"] if paired else []))
    out = frame.iloc[first][UNIT + ["global_seg_id", "rater"]].reset_index(drop=True)
    out["penalty"] = np.bincount(group, weights=weights, minlength=len(first))
    out["errors"] = np.bincount(group, weights=is_error, minlength=len(first)).astype("int64")
    if "source" in frame.columns:
        out["source_chars"] = source_chars(frame["source"].iloc[first])
    if paired and out.duplicated(UNIT + ["rater"]).any():
        # a rater who rated the pooled segment in several pairings: the mean of those ratings
        chars = {"source_chars": ("source_chars", "first")} if "source_chars" in out.columns else {}
        out = out.groupby(UNIT + ["rater"], sort=False, as_index=False, dropna=False).agg(
            global_seg_id=("global_seg_id", "first"), penalty=("penalty", "mean"), errors=("errors", "mean"), **chars
        )
    return out


def check_raters(frame: pd.DataFrame, per_segment: int | str, file=None) -> None:
    """Refuse a frame whose segments lack raters the design requires.

    ``per_segment`` is ``"all"`` (every rater of the file rated every system's segment)
    or a number k (every (system, segment) has exactly k raters, e.g. WMT 2023's
    ``3ratingsPerSegment``). The error names the file, the first line of the segment,
    and the rater missing (or the number found).

    Parameters
    ----------
    frame : DataFrame
        MQM error rows.
    per_segment : int or "all"
        Raters each (system, segment) must have.
    file : path, optional
        The file, for the error message.

    Returns
    -------
    None
        Raises :class:`~helpers.core.errors.InputError` naming the first segment that breaks the design.

    References
    ----------
    Kocmi, T. et al. (2023). Findings of the 2023 Conference on Machine Translation (WMT23) (three
    MQM ratings per segment in the general task's ZH→EN test set).
    """
    units = frame.groupby(UNIT, sort=False)
    if per_segment == "all":
        everyone = sorted(frame["rater"].unique())
        have = units["rater"].agg(lambda r: set(r))
        for key, raters in have.items():
            missing = [r for r in everyone if r not in raters]
            if missing:
                line = _first_line(frame, key)
                raise InputError(
                    f"rater {missing[0]!r} has no row for system {key[0]!r}, document {key[1]!r}, "
                    f"segment {key[2]} (every rater must rate every segment)",
                    file=file,
                    row=line,
                    column="rater",
                    value=missing[0],
                )
        return
    k = int(per_segment)
    counts = units["rater"].nunique()
    bad = counts[counts != k]
    if len(bad):
        key = bad.index[0]
        raise InputError(
            f"system {key[0]!r}, document {key[1]!r}, segment {key[2]} has {bad.iloc[0]} rater(s); the "
            f"design needs {k}",
            file=file,
            row=_first_line(frame, key),
            column="rater",
            value=int(bad.iloc[0]),
        )


def _first_line(frame: pd.DataFrame, key) -> int | None:
    if "line" not in frame.columns:
        return None
    hit = (frame["system"] == key[0]) & (frame["doc"] == key[1]) & (frame["doc_seg_id"] == key[2])
    return int(frame.loc[hit, "line"].min())


def segment_scores(ratings: pd.DataFrame) -> pd.DataFrame:
    """One row per (system, segment): ``system, doc, doc_seg_id, global_seg_id, raters, score``,
    the mean of the segment's rater penalties (:func:`rater_scores`).

    Parameters
    ----------
    ratings : DataFrame
        Rater-level scores (:func:`rater_scores`).

    Returns
    -------
    DataFrame
        One row per (system, segment): score = (1/R) · sum_r penalty_r over its R raters.

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. & Macherey, W. (2021). Experts,
    errors, and context: a large-scale study of human evaluation for machine translation. TACL 9
    (MQM scoring: a segment's score is the sum of its error weights, averaged over raters).
    """
    return _segment_scores(ratings)[0]


def _segment_scores(ratings: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray]:
    """:func:`segment_scores` and, for every rating, the row of its segment score."""
    group, first = _groups(ratings, UNIT)
    carry = [c for c in ("source_chars",) if c in ratings.columns]
    out = ratings.iloc[first][UNIT + ["global_seg_id"] + carry].reset_index(drop=True)
    counts = np.bincount(group, minlength=len(first))  # one rating per (unit, rater)
    out["raters"] = pd.array(counts, dtype="Int64")
    out["score"] = np.bincount(group, weights=ratings["penalty"].to_numpy(dtype=float), minlength=len(first)) / counts
    out = out[UNIT + ["global_seg_id", "raters", "score"] + carry]
    return out, group


def common_segments(segments: pd.DataFrame) -> pd.Series:
    """Mask of the rows whose segment ``(doc, doc_seg_id)`` is scored for every system.

    Parameters
    ----------
    segments : DataFrame
        Segment-level scores with ``system``, ``doc`` and ``doc_seg_id``.

    Returns
    -------
    Series
        True where #{systems scoring the row's segment} equals the number of systems.

    References
    ----------
    Freitag, M. et al. (2021). Experts, errors, and context. TACL 9 (system scores compared on the
    segments every system was rated on).
    """
    n_systems = segments["system"].nunique()
    group, first = _groups(segments, SEGMENT)
    per_segment = np.bincount(group, minlength=len(first))  # systems scoring the segment (one row each)
    return pd.Series(per_segment[group] == n_systems, index=segments.index)


def _used(scores: pd.DataFrame, common: bool) -> tuple[pd.DataFrame, np.ndarray, np.ndarray | None, int]:
    """Segment scores, the mask of those used (all, or those of segments every system has),
    for every rating the row of its segment score (None for segment-level input), and the
    number of segments (doc, doc_seg_id) in all."""
    by_rater = "rater" in scores.columns
    segments, of_rating = _segment_scores(scores) if by_rater else (scores, None)
    n_all = len(segments[SEGMENT].drop_duplicates())
    keep = common_segments(segments).to_numpy() if common else np.ones(len(segments), dtype=bool)
    return segments, keep, of_rating, n_all


def scored_segments(scores: pd.DataFrame, common: bool = True) -> pd.DataFrame:
    """The segment scores a system score averages, ``system, doc, segment, n_raters, score``
    (:data:`SEGMENT_COLUMNS`; ``segment`` is the segment's number in its document, ``score``
    the mean of its raters' penalties): the ``mqm scores --segments`` export. The mean of a
    system's ``score`` is its :func:`system_scores` score.

    Parameters
    ----------
    scores : DataFrame
        Rater- or segment-level scores.
    common : bool, default True
        Keep only segments scored for every system.

    Returns
    -------
    DataFrame
        One row per (system, segment) used: score = mean of its raters' penalties.

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. & Macherey, W. (2021). Experts,
    errors, and context: a large-scale study of human evaluation for machine translation. TACL 9
    (MQM scoring: a segment's score is the sum of its error weights, averaged over raters).
    """
    segments, keep, _, _ = _used(scores, common)
    used = segments[keep]
    out = pd.DataFrame(
        {
            "system": used["system"].to_numpy(),
            "doc": used["doc"].to_numpy(),
            "segment": used["doc_seg_id"].to_numpy(),
            "n_raters": used["raters"].array,
            "score": used["score"].to_numpy(),
        }
    )
    return out.sort_values(["system", "doc", "segment"], kind="stable").reset_index(drop=True)


def system_scores(
    scores: pd.DataFrame,
    common: bool = True,
    per_100_chars: bool = False,
    ci: float | None = None,
    n_boot: int = 1000,
    seed: int = 0,
) -> pd.DataFrame:
    """System scores ``system, segments, raters, score`` (best first).

    ``scores`` is rater-level (:func:`rater_scores`) or segment-level
    (:func:`segment_scores`, :func:`~helpers.core.formats.mqm.read_segment_scores`). ``score`` is
    the mean over segments of the segment score (the mean over its raters): the
    published tables' convention. With ``common`` only segments scored for every system
    are used; :func:`segment_counts` counts the segments (doc, doc_seg_id) kept and
    dropped. ``raters`` is the number of distinct raters of the system's
    segments used (NA when the input does not name raters).

    ``per_100_chars`` scores as Marot's "100 source characters" unit does
    (``marot/marot.js``, ``mqmAggregateSegStats`` with ``mqmCharScoring``): the sum of the
    segment scores divided by the characters of those segments' sources over 100
    (:func:`source_chars`; needs ``source_chars``, i.e. ratings of a frame read with its
    ``source`` texts). With ``ci`` (e.g. 95), columns ``ci_low`` and ``ci_high`` follow: a
    percentile interval from ``n_boot`` resamples of whole documents (the segments of a
    document are not independent), the same documents for every system (seeded by
    ``seed``; :func:`helpers.core.statistics.stats.resample`).

    Parameters
    ----------
    scores : DataFrame
        Rater-level (:func:`rater_scores`) or segment-level scores.
    common : bool, default True
        Use only the segments scored for every system.
    per_100_chars : bool, default False
        Score per 100 source characters, as Marot does.
    ci : float, optional
        Coverage in percent of a document bootstrap interval.
    n_boot : int, default 1000
        Resamples of the interval.
    seed : int, default 0
        Seed of the resamples.

    Returns
    -------
    DataFrame
        One row per system, best first: score = (1/S) · sum_s score_s over its S segments, or with
        per_100_chars 100 · sum_s score_s / sum_s chars_s.

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. & Macherey, W. (2021). Experts,
    errors, and context: a large-scale study of human evaluation for machine translation. TACL 9
    (MQM scoring: a segment's score is the sum of its error weights, averaged over raters).
    google-research/google-research, marot/marot.js (Marot, the MQM viewer): mqmSetData, mqmAggregateSegStats.
    """
    segments, keep, of_rating, _ = _used(scores, common)
    used = segments[keep]
    if per_100_chars and "source_chars" not in used.columns:
        raise InputError(
            "scoring per 100 source characters needs the source texts",
            column="source",
            expected="ratings of a Marot/MQM file read with its source column",
        )
    per = used["source_chars"].to_numpy(dtype=float) / 100 if per_100_chars else np.ones(len(used))
    system_codes, first = _groups(used, ["system"])
    systems = pd.Index(used["system"].iloc[first].to_numpy())  # as a groupby key: pandas infers the dtype
    score = used["score"].to_numpy(dtype=float)
    total = np.bincount(system_codes, weights=score, minlength=len(systems))
    units = np.bincount(system_codes, weights=per, minlength=len(systems))
    out = pd.DataFrame(
        {"system": systems, "segments": np.bincount(system_codes, minlength=len(systems)), "score": total / units}
    )
    if of_rating is not None:
        kept = scores[keep[of_rating]]
        raters = kept.drop_duplicates(["system", "rater"]).groupby("system").size()
        out["raters"] = out["system"].map(raters).astype("Int64")
    else:
        out["raters"] = pd.array([pd.NA] * len(out), dtype="Int64")
    columns = list(SYSTEM_COLUMNS)
    if ci is not None:
        out["ci_low"], out["ci_high"] = _document_intervals(used, system_codes, len(systems), per, ci, n_boot, seed)
        columns += ["ci_low", "ci_high"]
    return out.sort_values(["score", "system"], kind="stable").reset_index(drop=True)[columns]


@dataclass(frozen=True)
class SegmentCounts:
    """How many segments (doc, doc_seg_id) a system score used and left out (:func:`segment_counts`)."""

    kept: int
    dropped: int


def segment_counts(scores: pd.DataFrame, common: bool = True) -> SegmentCounts:
    """The segments (doc, doc_seg_id) :func:`system_scores` uses, and those it leaves out.

    Parameters
    ----------
    scores : DataFrame
        Rater-level (:func:`rater_scores`) or segment-level scores, as given to :func:`system_scores`.
    common : bool, default True
        Count as kept only the segments scored for every system (:func:`common_segments`).

    Returns
    -------
    SegmentCounts
        ``kept`` = number of distinct (doc, doc_seg_id) used; ``dropped`` = number of distinct
        (doc, doc_seg_id) in ``scores`` − ``kept`` (0 when ``common`` is False).

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. & Macherey, W. (2021). Experts,
    errors, and context: a large-scale study of human evaluation for machine translation. TACL 9
    (system scores over the segments every system has).

    Examples
    --------
    >>> seg = pd.DataFrame({"system": ["A", "A", "B"], "doc": ["d", "d", "d"], "doc_seg_id": [1, 2, 1],
    ...                     "score": [1.0, 2.0, 3.0]})
    >>> segment_counts(seg)
    SegmentCounts(kept=1, dropped=1)
    """
    segments, keep, _, n_all = _used(scores, common)
    kept = len(segments[keep][SEGMENT].drop_duplicates())
    return SegmentCounts(kept, n_all - kept)


def _document_intervals(
    used: pd.DataFrame, system_codes: np.ndarray, n_systems: int, per: np.ndarray, ci: float, n_boot: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile intervals of every system's score under one set of document resamples."""
    from .stats import percentile_interval, resample

    doc_codes, docs = pd.factorize(used["doc"])
    if len(docs) == 1 and str(docs[0]).strip() == "":
        raise InputError(
            "an interval resamples whole documents, and these segments name none (a per-segment score "
            "file gives no documents)",
            column="doc",
            parameter="ci",
        )
    draws = resample(len(docs), n_boot, seed=seed).astype(float)  # (n_boot, documents): how often each is drawn
    cell = system_codes * len(docs) + doc_codes  # sums per (system, document), then weighted by the draws
    size = n_systems * len(docs)
    total = np.bincount(cell, weights=used["score"].to_numpy(dtype=float), minlength=size).reshape(n_systems, -1)
    units = np.bincount(cell, weights=per, minlength=size).reshape(n_systems, -1)
    with np.errstate(invalid="ignore", divide="ignore"):
        boot = (draws @ total.T) / (draws @ units.T)  # (n_boot, systems); NaN where no segment was drawn
    bounds = np.array([percentile_interval(boot[:, k], ci) for k in range(n_systems)]).reshape(n_systems, 2)
    return bounds[:, 0], bounds[:, 1]


# --------------------------------------------------------------------------- agreement


def _alpha_rows(ratings: pd.DataFrame, scope: str, n_boot: int, seed: int, ci: float) -> list[dict]:
    from .agreement import interval_alpha_weighted, krippendorff_alpha
    from .stats import percentile_interval, resample

    wide = ratings.pivot_table(index=UNIT, columns="rater", values="penalty", aggfunc="first")
    wide = wide[wide.notna().sum(axis=1) >= 2]
    if wide.empty:
        return []
    data = wide.to_numpy(dtype=float)
    estimate = krippendorff_alpha(data.T, level="interval")
    docs = [d for _, d, _ in wide.index]  # resample documents: all systems' units of a drawn document come along
    weights = resample(len(wide), n_boot, seed=seed, clusters=docs)
    low, high = percentile_interval(interval_alpha_weighted(data, weights), ci)
    return [
        {"scope": scope, "statistic": "alpha", "estimate": estimate, "ci_low": low, "ci_high": high, "n": len(wide)}
    ]


def _icc_rows(ratings: pd.DataFrame, scope: str) -> list[dict]:
    import pingouin as pg

    counts = ratings.groupby(UNIT, sort=False)["rater"].transform("nunique")
    multi = ratings[counts >= 2]
    if multi.empty:
        return []
    k = int(multi.groupby(UNIT, sort=False)["rater"].nunique().mode().iloc[0])
    multi = multi[multi.groupby(UNIT, sort=False)["rater"].transform("nunique") == k].copy()
    multi["unit"] = pd.factorize(pd.MultiIndex.from_frame(multi[UNIT]))[0]
    multi = multi.sort_values(["unit", "rater"])
    crossed = multi.groupby("unit")["rater"].agg(tuple).nunique() == 1
    # One-way models (ICC(1,1), ICC(1,k)) hold when each unit has its own k raters, as in the WMT
    # designs; the two-way absolute-agreement ones (ICC(A,1), ICC(A,k)) only when raters are crossed.
    multi["slot"] = multi["rater"] if crossed else multi.groupby("unit").cumcount().astype(str)
    kinds = ("ICC(1,1)", "ICC(1,k)", "ICC(A,1)", "ICC(A,k)") if crossed else ("ICC(1,1)", "ICC(1,k)")
    n = int(multi["unit"].nunique())
    if n < 2 or len(multi) < 5:  # pingouin needs 5 values; an ICC of one unit is undefined
        return [
            {"scope": scope, "statistic": kind, "estimate": np.nan, "ci_low": np.nan, "ci_high": np.nan, "n": n}
            for kind in kinds
        ]
    res = pg.intraclass_corr(data=multi, targets="unit", raters="slot", ratings="penalty").set_index("Type")
    return [
        {
            "scope": scope,
            "statistic": kind,
            "estimate": float(res.loc[kind, "ICC"]),
            "ci_low": float(res.loc[kind, "CI95"][0]),
            "ci_high": float(res.loc[kind, "CI95"][1]),
            "n": n,
        }
        for kind in kinds
    ]


def score_agreement(
    ratings: pd.DataFrame, n_boot: int = 1000, seed: int = 0, ci: float = 95.0, file=None
) -> pd.DataFrame:
    """Agreement of the raters' segment penalties (:func:`rater_scores`), overall and per system.

    A unit is one (system, segment) rated by two or more raters. Rows
    ``scope, statistic, estimate, ci_low, ci_high, n`` (:data:`AGREEMENT_COLUMNS`), scope
    ``overall`` or a system:

    * ``alpha``: interval Krippendorff's α (the ``krippendorff`` package) on the units ×
      raters matrix; interval: percentile bootstrap resampling whole documents (segments
      of a document are not independent), ``n_boot`` draws;
    * ``ICC(1,1)``, ``ICC(1,k)``: one-way random-effects ICCs (Shrout & Fleiss 1979; the
      names are pingouin's) via ``pingouin.intraclass_corr`` on the units with the most
      common number k of raters, raters as k positions (each unit may have its own
      raters); the two-way absolute-agreement ``ICC(A,1)``, ``ICC(A,k)`` (McGraw & Wong
      1996) too when every unit has the same raters. Their intervals are pingouin's
      F-based 95% ones (printed by pingouin to two decimals).

    ``n`` is the number of units. No unit with two raters is an error.

    Parameters
    ----------
    ratings : DataFrame
        Rater-level scores (:func:`rater_scores`).
    n_boot : int, default 1000
        Document resamples of α's interval.
    seed : int, default 0
        Seed of the resamples.
    ci : float, default 95.0
        Coverage in percent.
    file : path, optional
        The file, for the error message.

    Returns
    -------
    DataFrame
        Rows scope, statistic, estimate, ci_low, ci_high, n: α = 1 − D_o / D_e (interval), ICC(1,1) =
        (MSB − MSW) / (MSB + (k − 1) MSW), ICC(1,k) = (MSB − MSW) / MSB, and the two-way ICC(A,1),
        ICC(A,k) when every unit has the same raters.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Shrout, P. E. & Fleiss, J. L.
    (1979). Psychological Bulletin 86(2), 420–428, Table 1. McGraw, K. O. & Wong, S. P. (1996).
    Psychological Methods 1(1), 30–46.
    """
    rows = _alpha_rows(ratings, "overall", n_boot, seed, ci)
    if not rows:
        raise InputError(
            "no segment has two or more raters, so there is no agreement to measure", file=file, column="rater"
        )
    rows += _icc_rows(ratings, "overall")
    for system, group in ratings.groupby("system", sort=True):
        rows += _alpha_rows(group, str(system), n_boot, seed, ci) + _icc_rows(group, str(system))
    return pd.DataFrame(rows, columns=AGREEMENT_COLUMNS)


__all__ = [
    "rater_scores",
    "source_chars",
    "check_raters",
    "segment_scores",
    "common_segments",
    "scored_segments",
    "system_scores",
    "segment_counts",
    "SegmentCounts",
    "score_agreement",
    "SYSTEM_COLUMNS",
    "SEGMENT_COLUMNS",
    "AGREEMENT_COLUMNS",
]
