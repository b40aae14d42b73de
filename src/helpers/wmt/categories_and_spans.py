"""Chapter 08's per-category and span views of WMT expert MQM data: which top-level categories each
rater marked and how far raters agree on them, the error spans and their agreement, and each
system's penalty per category."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..core.formats import annotations as ann
from ..core.statistics import agreement as ag
from ..core.statistics import raters, scoring, stats
from ..core.statistics.schemes import load_scheme

top_level = ann.top_level  # in helpers.core.formats.annotations, shared with helpers.figurative


def _errors(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[~frame["severity"].isin([ann.NO_ERROR, ann.HOTW])].assign(top=lambda f: top_level(f["category"]))


def category_presence(frame: pd.DataFrame) -> pd.DataFrame:
    """For every rating (system, segment, rater) and top-level category: did the rater mark
    an error of that category (1) or not (0)? Columns ``unit, doc, rater, category, present``."""
    ratings = ann.rated_segments(frame[frame["severity"] != ann.HOTW])
    errs = _errors(frame)
    cats = sorted(errs["top"].unique())
    marked = errs.groupby(scoring.UNIT + ["rater", "top"]).size().rename("n").reset_index()
    grid = ratings.merge(pd.DataFrame({"top": cats}), how="cross")
    grid = grid.merge(marked, how="left", on=scoring.UNIT + ["rater", "top"])
    unit = grid["system"].astype(str) + " | " + grid["doc"].astype(str) + " | " + grid["doc_seg_id"].astype(str)
    return pd.DataFrame(
        {
            "unit": unit,
            "doc": grid["doc"],
            "rater": grid["rater"],
            "category": grid["top"],
            "present": grid["n"].notna().astype(int),
        }
    )


def presence_agreement(presence: pd.DataFrame) -> pd.DataFrame:
    """Agreement on the presence of each top-level category (:func:`category_presence`).

    Per category, on the units with two or more raters: nominal α on the 0/1 presence, Cohen's
    κ = (p_o − p_e) / (1 − p_e) averaged over rater pairs, exact agreement (the share of units
    where all raters agree, %), and how often the category is marked.

    Parameters
    ----------
    presence
        :func:`category_presence`'s table.

    Returns
    -------
    DataFrame
        ``category, n_units, n_raters, marked_percent, nominal_alpha, kappa,
        exact_agreement``, the most marked category first (``presence_agreement.csv``).

    References
    ----------
    Krippendorff (2011), *Computing Krippendorff's alpha-reliability* (nominal metric); Cohen
    (1960), *A coefficient of agreement for nominal scales*, Educational and Psychological
    Measurement 20(1).
    """
    counts = presence.groupby("unit")["rater"].transform("nunique")
    multi = presence[counts >= 2]
    table = ag.agreement(
        multi, by="category", value="present", rater="rater", item="unit", labels=[0, 1], level="nominal"
    )
    share = multi.groupby("category")["present"].mean().mul(100).rename("marked_percent")
    out = table.merge(share.reset_index(), on="category")
    return (
        out[["category", "n_items", "n_raters", "marked_percent", "alpha", "weighted_kappa", "exact_agreement"]]
        .rename(columns={"alpha": "nominal_alpha", "weighted_kappa": "kappa", "n_items": "n_units"})
        .sort_values("marked_percent", ascending=False)
        .reset_index(drop=True)
    )


def error_spans(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per error with a ``<v>…</v>`` span: ``system, doc, doc_seg_id, rater, side,
    start, end, category`` (top level), ``severity``; errors without a span are left out
    (:func:`span_coverage` counts them)."""
    errs = _errors(frame)
    parts = []
    for side in ("target", "source"):
        has = errs[f"{side}_start"].notna()
        part = errs[has]
        parts.append(
            pd.DataFrame(
                {
                    **{c: part[c] for c in scoring.UNIT + ["rater"]},
                    "side": side,
                    "start": part[f"{side}_start"].astype(int),
                    "end": part[f"{side}_end"].astype(int),
                    "category": part["top"],
                    "severity": part["severity"],
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def span_coverage(frame: pd.DataFrame) -> pd.DataFrame:
    """How many errors of ``frame`` carry a span: one row ``errors, without_span`` (errors marked
    on neither the target nor the source, which :func:`error_spans` leaves out)."""
    errs = _errors(frame)
    return pd.DataFrame(
        {
            "errors": [len(errs)],
            "without_span": [int((errs["target_start"].isna() & errs["source_start"].isna()).sum())],
        }
    )


@dataclass(frozen=True)
class SpanAgreement:
    """:func:`span_table`: the pooled span agreement and each rater pair's matches."""

    table: pd.DataFrame  # criterion, agreement, ci_low, ci_high, rater_pairs, spans
    matches: pd.DataFrame  # one row per rater pair of a segment (helpers.core.statistics.raters.span_matches)


def span_table(frame: pd.DataFrame, n_boot: int = 1000, seed: int = 0, ci: float = 95.0) -> SpanAgreement:
    """Span agreement of every rater pair (:func:`helpers.core.statistics.raters.span_matches`), pooled,
    with percentile intervals resampling whole documents.

    A rater's span is matched when a co-rater of the same segment marked an overlapping span
    on the same side (optionally of the same top-level category, and severity). Pooled over
    all pairs, span F1 = (matched spans of a + matched spans of b) / (spans of a + spans of
    b), and the character Dice coefficient = 2 |A ∩ B| / (|A| + |B|) over the marked
    characters.

    Parameters
    ----------
    frame
        Error rows of a multi-rated MQM file with spans.
    n_boot, seed
        Document resamples, and their seed.
    ci
        Confidence level, in percent.

    Returns
    -------
    SpanAgreement
        ``table``: ``criterion, agreement, ci_low, ci_high, rater_pairs, spans``
        (``span_agreement.csv``); ``matches``: one row per rater pair of a segment.

    References
    ----------
    Dice (1945), *Measures of the amount of ecologic association between species*, Ecology
    26(3); Efron and Tibshirani (1993), *An Introduction to the Bootstrap*, chapter 13.
    """
    rated = ann.rated_segments(frame[frame["severity"] != ann.HOTW])
    matches = raters.span_matches(error_spans(frame), rated, scoring.UNIT)
    full = raters.span_agreement(matches)
    boot = raters.span_agreement(matches, stats.resample(len(matches), n_boot, seed, clusters=matches["doc"]))
    bounds = boot.groupby("criterion", sort=False)["agreement"].apply(lambda s: stats.percentile_interval(s, ci))
    full["ci_low"] = [bounds[c][0] for c in full["criterion"]]
    full["ci_high"] = [bounds[c][1] for c in full["criterion"]]
    full["rater_pairs"] = len(matches)
    full["spans"] = int((matches["spans_a"] + matches["spans_b"]).sum())
    return SpanAgreement(full, matches)


def category_penalties(frame: pd.DataFrame, scheme="mqm") -> pd.DataFrame:
    """Per system and top-level category, the MQM penalty per segment and the number of errors.

    penalty = (sum of the category's error weights over the system's ratings) / (number of
    the system's ratings), so the categories of a system add up to its score; ``count`` is
    the number of errors of the category marked in the system's ratings.

    Parameters
    ----------
    frame
        Error rows of one MQM file.
    scheme
        The weighting scheme.

    Returns
    -------
    DataFrame
        ``system, category, penalty, count`` (``category_penalties.csv``).

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. and Macherey, W. (2021).
    Experts, errors, and context: a large-scale study of human evaluation for machine
    translation. TACL 9, 1460–1474, section 3 (the MQM weights and error categories).
    """
    sch = load_scheme(scheme)
    errs = _errors(frame)
    errs = errs.assign(weight=sch.weights(errs).to_numpy())
    ratings = ann.rated_segments(frame[frame["severity"] != ann.HOTW])
    per_system = ratings.groupby("system").size().rename("ratings")
    agg = errs.groupby(["system", "top"]).agg(weight=("weight", "sum"), count=("weight", "size")).reset_index()
    agg = agg.merge(per_system.reset_index(), on="system")
    return pd.DataFrame(
        {
            "system": agg["system"],
            "category": agg["top"],
            "penalty": agg["weight"] / agg["ratings"],
            "count": agg["count"].astype(int),
        }
    )


__all__ = [
    "top_level",
    "category_presence",
    "presence_agreement",
    "error_spans",
    "span_coverage",
    "SpanAgreement",
    "span_table",
    "category_penalties",
]
