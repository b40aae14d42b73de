"""Chapter 08's findings (:func:`findings`), recomputed from its saved result tables alone: every
section of the words but section 6's ESA ones (:mod:`helpers.wmt.ch08_esa_findings`)."""

from __future__ import annotations

import pandas as pd

from ..core.book.findings import Findings
from ..core.errors import InputError
from ..core.statistics.agreement import alpha_reading
from ..core.statistics.stats import FEW_CLUSTERS
from .analysis import ratio_curve
from .ch08_esa_findings import ESA_CLOSING, _esa, _esa_closing, _esa_data
from .ch08_saved import FINDINGS_INPUTS, _listing, _saved, _summary
from .systems import COVERAGE_FLOOR, certainty_verdict, smallest_possible_p

#: The rows of ``system_pairs.csv`` the page's table shows (the file holds every pair).
PAIRS_SHOWN = 20
#: The README-table rounding rule the chapter reads (:func:`~helpers.wmt.readme_tables.reproduce`).
ROUNDING_RULE = "match: 3 decimals, then half-up"


def _data(t: dict) -> Findings:
    """Section ``data``: the data box's per-file rows of ``data_summary.csv``."""
    found = Findings()
    for r in t["data_summary"].query("group != ''").itertuples(index=False):
        found.add(r.quantity, None if pd.isna(r.value) else r.value, group=r.group, text=r.text)
    return found


def _last(column: pd.Series):
    """The last cell of ``column`` (the multi-rated file's row of the data summary), or None
    when the summary has no such row."""
    return column.iloc[-1] if len(column) else None


def _files(t: dict) -> tuple[str, str]:
    """The names of the errors file and of the multi-rated file (the same when one serves both)."""
    names = t["data_summary"].query("quantity == 'file'")["text"]
    return names.iloc[0], names.iloc[-1]


def _reproduce(t: dict) -> Findings:
    """Section ``reproduce``: which README tables the run compares and how many printed values it
    reproduces, or that no table is about its files; ``released`` is yes on the mirrored files."""
    found = Findings().add("released", _summary(t["data_summary"], "released"))
    reproduced = t["reproduced"]
    if reproduced is None:
        names = sorted({f"`{n}`" for n in _files(t)})
        return found.add("nothing", text=" or ".join(names)).add("tables").add("reproduced").add("printed")
    return (
        found.add("nothing")
        .add("tables", text=_listing(list(dict.fromkeys(reproduced["table"]))))
        .add("reproduced", int(reproduced[ROUNDING_RULE].sum()))
        .add("printed", len(reproduced))
    )


def _schemes(t: dict) -> Findings:
    """Section ``schemes``: how many (category, severity) pairs the schemes weigh differently (one
    row per such pair) and how many systems change rank (``scheme_weights``, ``scheme_rankings``)."""
    weights, ranked = t["scheme_weights"], t["scheme_rankings"]
    found = Findings()
    names = [c[len("rank_") :] for c in ranked.columns if c.startswith("rank_")]
    found.add("file", text=_files(t)[0]).add("schemes", text=_listing([f"`{n}`" for n in names]))
    found.add("pairs", len(weights)).add("differing", int(weights["differs"].sum()))
    found.add("differing_rows", int(weights.loc[weights["differs"], "n"].sum()))
    for _, r in weights[weights["differs"]].iterrows():
        found.add(
            "pair_weights",
            r["n"],
            group=f"{r['category']} ({r['severity']})",
            text=", ".join(f"`{n}` {r[f'weight_{n}']:g}" for n in names),
        )
    if not weights["differs"].any():
        found.add("pair_weights")  # none: the list is left out
    shifts = [c for c in ranked.columns if c.startswith("shift_")]
    moved = ranked[shifts].ne(0).any(axis=1) if shifts else pd.Series(False, index=ranked.index)
    found.add("systems", len(ranked)).add("moved", int(moved.sum()))
    if moved.any():
        size = ranked[shifts].abs().max(axis=1)
        r = ranked.loc[size.idxmax()]
        other = max(shifts, key=lambda c: abs(r[c]))[len("shift_") :]
        found.add(
            "top_mover",
            int(size.max()),
            text=r["system"],
            first=names[0],
            other=other,
            rank_first=int(r[f"rank_{names[0]}"]),
            rank_other=int(r[f"rank_{other}"]),
        )
    else:
        found.add("top_mover")
    return found


def _weights(t: dict) -> Findings:
    """Section ``weights``: the file the α-by-weighting table is about."""
    return Findings().add("multi_file", text=_files(t)[1])


def _spans(t: dict) -> Findings:
    """Section ``spans``: the multi-rated file's errors without a span, left out of span agreement."""
    d = t["data_summary"]
    return Findings().add("errors", _summary(d, "errors")).add("without_span", _summary(d, "without_span"))


def _separated(pairs: pd.DataFrame, alpha: float, column: str) -> int:
    return int((pairs[column] < alpha).sum())


def _systems(t: dict) -> Findings:
    """Section ``systems``: pairs separated after Holm over segments and documents, and the
    standard-error ratios of ``certainty_segments_vs_documents`` (median and range)."""
    pairs, ratio, alpha = (
        t["system_pairs"],
        t["certainty_segments_vs_documents"]["ratio"],
        _summary(t["data_summary"], "alpha"),
    )
    return (
        Findings()
        .add("system_pairs", len(pairs))
        .add("separated_by_segments", _separated(pairs, alpha, "p_segments_holm"))
        .add("separated_by_documents", _separated(pairs, alpha, "p_documents_holm"))
        .add("se_ratio", ratio.median(), ci=(ratio.min(), ratio.max()))
        .add("pairs_shown", min(PAIRS_SHOWN, len(pairs)))
        .add("pairs_cut", int(len(pairs) > PAIRS_SHOWN))
    )


def _systems_multi(t: dict) -> Findings:
    """Section ``systems_multi``: the multi-rated file's units of the system tests."""
    pairs = t["system_pairs_multi_rated"]
    found = Findings().add("multi_file", text=_files(t)[1])
    if not len(pairs):
        return found.add("multi_segments").add("multi_documents")
    return found.add("multi_segments", int(pairs["n_items"].iloc[0])).add(
        "multi_documents", int(pairs["n_documents"].iloc[0])
    )


def _oriented(diffs: pd.DataFrame, x: str, y: str) -> pd.Series | None:
    """The row x − y of :func:`~helpers.wmt.analysis.scheme_agreement`'s differences, turned
    round (difference and interval negated) when the table holds y − x."""
    d = diffs.set_index(["scheme_x", "scheme_y"])
    if (x, y) in d.index:
        return d.loc[(x, y)]
    if (y, x) in d.index:
        r = d.loc[(y, x)].copy()
        r["difference"] = -r["difference"]
        r["jackknife_ci_low"], r["jackknife_ci_high"] = -r["jackknife_ci_high"], -r["jackknife_ci_low"]
        return r
    return None


def ratio_findings(found: Findings, weight_alpha: pd.DataFrame | None) -> Findings:
    """Add to ``found`` what two severity levels let the chapter say about weighting schemes:
    :func:`~helpers.wmt.analysis.ratio_curve` of ``weight_alpha`` (``alpha_by_weight.csv``),
    its direction as the verdict key of ``ratio_curve``, and where MetaHOPE and HOPE sit on the
    ratio axis with their α; none applies without ``weight_alpha``."""
    if weight_alpha is not None and len(weight_alpha):
        curve = ratio_curve(weight_alpha).iloc[0]
        found.add("ratio_curve", int(curve["n_ratios"]), text=curve["direction"])
        for q in ("ratio_rho", "ratio_low", "alpha_low", "ratio_high", "alpha_high"):
            found.add(q, curve["rho" if q == "ratio_rho" else q])
        placed = weight_alpha.set_index("scheme")
        for name in ("metahope", "hope"):
            found.add(f"{name}_ratio", placed.loc[name, "major_to_minor"] if name in placed.index else None)
            found.add(f"{name}_alpha", placed.loc[name, "alpha"] if name in placed.index else None)
    else:
        for q in (
            "ratio_curve",
            "ratio_rho",
            "ratio_low",
            "alpha_low",
            "ratio_high",
            "alpha_high",
            "metahope_ratio",
            "metahope_alpha",
            "hope_ratio",
            "hope_alpha",
        ):
            found.add(q)
    return found


def _closing(t: dict) -> Findings:
    """Section ``findings``: the chapter's closing findings, every number from its saved tables."""
    d = t["data_summary"]
    alpha, n_trials = _summary(d, "alpha"), int(_summary(d, "n_trials"))
    errors_name, multi_name = _files(t)
    found = Findings()
    found.add("errors_file", text=errors_name).add("multi_file", text=multi_name)
    reproduced = t["reproduced"]
    if reproduced is not None:
        found.add("reproduced", int(reproduced[ROUNDING_RULE].sum())).add("printed", len(reproduced))
        found.add("tables", text=_listing(list(dict.fromkeys(reproduced["table"]))))
        found.add("nothing_to_reproduce")
        off = reproduced[~reproduced[ROUNDING_RULE]]
        found.add("exceptions", len(off))
        for r in off.itertuples():
            found.add("exception", r.recomputed, group=f"{r.table} {r.system}", text=str(r.published))
        if off.empty:
            found.add("exception")  # none: the words' list of exceptions is left out
    else:
        found.add("reproduced").add("printed").add("exceptions").add("exception").add("tables")
        found.add("nothing_to_reproduce", text=" or ".join(sorted({f"`{errors_name}`", f"`{multi_name}`"})))

    sweep = t["weight_sweep"]
    seg = sweep[sweep["resampling"] == "segments"].set_index("scheme")
    doc = sweep[sweep["resampling"] == "documents"].set_index("scheme")
    mqm_rows = seg[seg.index.str.startswith("mqm-major-")]
    best = mqm_rows["tau_mean"].idxmax()
    five = "mqm-major-5" if "mqm-major-5" in seg.index else best
    spread = mqm_rows["tau_mean"].max() - mqm_rows["tau_mean"].min()
    resampling_matters = abs(seg.loc[five, "tau_mean"] - doc.loc[five, "tau_mean"]) > spread
    (
        found.add("best_major", seg.loc[best, "major_to_minor"])
        .add("best_tau", seg.loc[best, "tau_mean"])
        .add("major5_tau", seg.loc[five, "tau_mean"])
        .add("major5_separated", seg.loc[five, "share_significant"])
        .add("tau_lowest", mqm_rows["tau_mean"].min())
        .add("tau_highest", mqm_rows["tau_mean"].max())
        .add("hope_tau", seg.loc["hope", "tau_mean"])
        .add("metahope_tau", seg.loc["metahope", "tau_mean"])
        .add("n_documents", int(sweep["n_documents"].iloc[0]))
        .add("documents_tau", doc.loc[five, "tau_mean"])
        .add("documents_separated", doc.loc[five, "share_significant"])
        .add("resampling_matters", bool(resampling_matters))
    )

    lv = t["alpha_by_scheme"].set_index("scheme")
    found.add(
        "alpha",
        lv.loc["mqm", "alpha"],
        ci=(lv.loc["mqm", "ci_low"], lv.loc["mqm", "ci_high"]),
        text=alpha_reading(lv.loc["mqm", "alpha"]),
        n_units=int(lv.loc["mqm", "n_units"]),
        n_documents=int(lv.loc["mqm", "n_documents"]),
    )
    # the mqm agreement command on the same units: --pool-pairings where the chapter pooled pairings
    # (not applicable when no per-file row of the data summary says whether it pooled)
    pooled = _last(d[(d["quantity"] == "pooled") & (d["group"] != "")]["value"])
    found.add(
        "alpha_command",
        text=None
        if pooled is None
        else f".venv/bin/python -m helpers mqm agreement {multi_name}" + (" --pool-pairings" if pooled else ""),
    )
    icc = t["icc_by_documents"]
    for r in icc.itertuples() if icc is not None else ():
        found.add("icc", r.estimate, group=r.statistic, ci=(r.jackknife_ci_low, r.jackknife_ci_high))
    found.add("raters_per_unit", None if icc is None else int(icc["raters_per_unit"].iloc[0]))
    if icc is None:
        found.add("icc")

    presence = t["presence_agreement"]
    if len(presence):
        top = presence.iloc[0]
        found.add("top_category", top["nominal_alpha"], text=top["category"], marked=top["marked_percent"] / 100)
        for r in presence.iloc[1:4].itertuples():
            found.add("category_alpha", r.nominal_alpha, group=r.category)
    else:
        found.add("top_category").add("category_alpha")

    sp = t["span_agreement"].set_index("criterion")
    (
        found.add("spans_compared", int(sp["spans"].iloc[0]))
        .add("span_overlap", sp.loc["overlap", "agreement"])
        .add("span_category", sp.loc["overlap+category", "agreement"])
        .add("span_severity", sp.loc["overlap+category+severity", "agreement"])
        .add("span_dice", sp.loc["characters", "agreement"])
    )

    _bias(found, t["rater_effects"], t["rater_bias"])

    for x, y in (("metahope", "hope"), ("metahope", "mqm"), ("hope", "mqm")):  # points on the ratio curve
        r = _oriented(t["scheme_differences"], x, y)
        if r is not None:
            found.add(
                "scheme_difference",
                r["difference"],
                group=f"{x} − {y}",
                ci=(r["jackknife_ci_low"], r["jackknife_ci_high"]),
                text=r["verdict"],
            )
    ratio_findings(found, t["alpha_by_weight"])

    pairs = t["system_pairs"]
    g = int(pairs["n_documents"].iloc[0]) if len(pairs) else 0
    verdict = certainty_verdict(t["certainty_segments_vs_documents"]["ratio"])
    (
        found.add("system_pairs", len(pairs))
        .add("separated_by_segments", _separated(pairs, alpha, "p_segments_holm"))
        .add("separated_by_documents", _separated(pairs, alpha, "p_documents_holm"))
        .add("pair_documents", g)
        .add("smallest_p", smallest_possible_p(g, n_trials) if g else None)
        .add("se_ratio", verdict.median, ci=(verdict.low, verdict.high), text=verdict.verdict)
        .add("segment_coverage", verdict.coverage)
        .add("coverage_floor", COVERAGE_FLOOR)
        .add("pairs_below_floor", verdict.pairs_below)
        .add("few_documents", g < FEW_CLUSTERS)
        .add("few_clusters", FEW_CLUSTERS)
    )
    _esa_closing(found, t)
    pairs_multi = t["system_pairs_multi_rated"]
    if pairs_multi is not None and len(pairs_multi):
        (
            found.add("multi_documents", int(pairs_multi["n_documents"].iloc[0]))
            .add("multi_raters_per_unit", text=_last(d.query("quantity == 'raters_per_unit'")["text"]))
            .add("multi_pairs", len(pairs_multi))
            .add("multi_by_segments", _separated(pairs_multi, alpha, "p_segments_holm"))
            .add("multi_by_documents", _separated(pairs_multi, alpha, "p_documents_holm"))
        )
    else:
        for q in ("multi_documents", "multi_raters_per_unit", "multi_pairs", "multi_by_segments", "multi_by_documents"):
            found.add(q)
    return found


def _bias(found: Findings, model: pd.DataFrame | None, raw: pd.DataFrame | None) -> None:
    """The rater-bias quantities of section ``findings``: from the model with a term per unit and
    per rater (``rater_effects.csv``, :func:`~helpers.wmt.rater_bias.rater_effects`) the raters
    whose interval excludes 0, the most lenient and the most severe (every rater tied at the
    extreme, named together), and beside them the raw bias of the same raters (their penalty minus
    their co-raters' mean, ``rater_bias.csv``: ``lenient_raw``, ``severe_raw``), which depends on
    who the co-raters were. None applies without the model's table."""
    names = (
        "biased_raters",
        "raters",
        "most_lenient_bias",
        "most_severe_bias",
        "lenient_interval",
        "severe_interval",
        "lenient_raw",
        "severe_raw",
    )
    if model is None or not len(model):
        for q in names:
            found.add(q)
        return
    off = model[(model["ci_low"] > 0) | (model["ci_high"] < 0)]
    found.add("biased_raters", len(off)).add("raters", len(model))
    raw = raw.set_index("rater")["bias"] if raw is not None and len(raw) else pd.Series(dtype=float)
    for side, extreme in (("lenient", model["bias"].min()), ("severe", model["bias"].max())):
        tied = model[model["bias"] == extreme]
        r = tied.iloc[0]
        found.add(f"most_{side}_bias", extreme, ci=(r["ci_low"], r["ci_high"]), text=_listing(list(tied["rater"])))
        known = len(tied) == 1 and pd.notna(r["ci_low"]) and pd.notna(r["ci_high"])  # none with too few documents
        found.add(f"{side}_interval", extreme if known else None, ci=(r["ci_low"], r["ci_high"]))
        found.add(f"{side}_raw", raw.get(r["rater"]) if len(tied) == 1 else None)


#: Each section of the words, in the page's order: what states it, the tables it needs and its
#: quantities (each stated as not applicable where a table it needs is not in the folder).
_SECTIONS = {
    "data": (
        _data,
        ("data_summary",),
        ("file", "pair", "pooled", "systems", "segments", "documents", "raters", "raters_per_unit", "rows"),
    ),
    "reproduce": (_reproduce, ("data_summary",), ("released", "nothing", "tables", "reproduced", "printed")),
    "weights": (_weights, ("data_summary",), ("multi_file",)),
    "schemes": (
        _schemes,
        ("data_summary", "scheme_weights", "scheme_rankings"),
        ("file", "schemes", "pairs", "differing", "differing_rows", "pair_weights", "systems", "moved", "top_mover"),
    ),
    "spans": (_spans, ("data_summary",), ("errors", "without_span")),
    "systems": (
        _systems,
        ("data_summary", "system_pairs", "certainty_segments_vs_documents"),
        ("system_pairs", "separated_by_segments", "separated_by_documents", "se_ratio", "pairs_shown", "pairs_cut"),
    ),
    "systems_multi": (
        _systems_multi,
        ("data_summary", "system_pairs_multi_rated"),
        ("multi_file", "multi_segments", "multi_documents"),
    ),
    "esa_data": (
        _esa_data,
        ("esa_summary",),
        (
            "files",
            "pair",
            "read",
            "dropped",
            "kept",
            "systems",
            "segments",
            "documents",
            "raters",
            "ratings_per_segment",
            "report",
            "ranked",
            "ranked_rated",
        ),
    ),
    "esa": (
        _esa,
        ("esa_summary", "esa_rankings"),
        (
            "pair",
            "metahope_direction",
            "systems",
            "clusters",
            "top_cluster",
            "human_top",
            "report",
            "compared",
            "tau",
            "auto_top",
            "human_first",
            "same_top",
            "no_autorank",
            "undervalued",
            "overvalued",
            "kind",
            "kind_shift",
            "chained",
            "chain_extreme",
            "reference",
        ),
    ),
    "findings": (
        _closing,
        (
            "data_summary",
            "weight_sweep",
            "alpha_by_scheme",
            "span_agreement",
            "presence_agreement",
            "rater_bias",
            "scheme_differences",
            "system_pairs",
            "certainty_segments_vs_documents",
        ),
        (
            "errors_file",
            "multi_file",
            "reproduced",
            "printed",
            "tables",
            "nothing_to_reproduce",
            "exceptions",
            "exception",
            "best_major",
            "best_tau",
            "major5_tau",
            "major5_separated",
            "tau_lowest",
            "tau_highest",
            "hope_tau",
            "metahope_tau",
            "n_documents",
            "documents_tau",
            "documents_separated",
            "resampling_matters",
            "alpha",
            "alpha_command",
            "icc",
            "raters_per_unit",
            "top_category",
            "category_alpha",
            "spans_compared",
            "span_overlap",
            "span_category",
            "span_severity",
            "span_dice",
            "biased_raters",
            "raters",
            "most_lenient_bias",
            "most_severe_bias",
            "lenient_interval",
            "severe_interval",
            "lenient_raw",
            "severe_raw",
            "scheme_difference",
            "ratio_curve",
            "ratio_rho",
            "ratio_low",
            "alpha_low",
            "ratio_high",
            "alpha_high",
            "metahope_ratio",
            "metahope_alpha",
            "hope_ratio",
            "hope_alpha",
            "system_pairs",
            "separated_by_segments",
            "separated_by_documents",
            "pair_documents",
            "smallest_p",
            "se_ratio",
            "segment_coverage",
            "coverage_floor",
            "pairs_below_floor",
            "few_documents",
            "few_clusters",
            "multi_documents",
            "multi_raters_per_unit",
            "multi_pairs",
            "multi_by_segments",
            "multi_by_documents",
            *(f"esa_{q}" for q in ESA_CLOSING),
        ),
    ),
}


def _section(t: dict, name: str) -> pd.DataFrame:
    """One section's findings, or its quantities not applicable when a table it needs is missing."""
    build, needs, quantities = _SECTIONS[name]
    if all(t[n] is not None for n in needs):
        return build(t).frame()
    found = Findings()
    for q in quantities:
        found.add(q)
    return found.frame()


def findings(folder, section: str | None = None) -> pd.DataFrame:
    """Chapter 08's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone.

    Parameters
    ----------
    folder
        The chapter's result folder (``results/08_wmt_mqm``, or the run's staging folder).
    section
        One section of the words (``data``, ``reproduce``, ``weights``, ``schemes``, ``spans``,
        ``systems``, ``systems_multi``, ``esa_data``, ``esa``, ``findings``): only its quantities.
        None: every section's, each row with its ``section`` (``findings.csv``).

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS` plus extra columns some quantities use. Every
        quantity is always present; one whose table is missing is not applicable (its sentence
        drops out of the words). A verdict is a key in ``text``, worded by the ``## verdicts``
        table of ``notebooks/words/08_wmt_mqm.md``.
    """
    if section is not None and section not in _SECTIONS:
        raise InputError(
            "is not a section of chapter 08's findings",
            parameter="section",
            value=section,
            expected=", ".join(_SECTIONS),
        )
    t = {name: _saved(folder, name) for name in FINDINGS_INPUTS}
    if t["data_summary"] is not None and t["data_summary"].empty:  # no row: it names no file, as if missing
        t["data_summary"] = None
    if section is not None:
        return _section(t, section)
    return pd.concat([_section(t, name).assign(section=name) for name in _SECTIONS], ignore_index=True)


__all__ = ["FINDINGS_INPUTS", "PAIRS_SHOWN", "findings", "ratio_findings"]
