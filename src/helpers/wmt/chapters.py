"""What chapter 08 needs besides the analyses: checked parameters, data with provenance, findings.

The chapter calls :func:`wmt_mqm_setup` in the cell right after its parameters cell; it
checks every parameter before any work and raises
:class:`~helpers.core.errors.InputError` naming the parameter. ``load()`` reads the MQM
files (cached under ``.cache/wmt-mqm-read`` keyed by the files' sha256: reading the
three-rater archive with its texts is the slowest step) and returns them with their
:class:`~helpers.core.report.Provenance`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..core import annotations as ann
from ..core import cache, mqm, params, paths
from ..core.errors import InputError
from ..core.findings import Findings
from ..core.report import ChapterData, Provenance
from ..core.stats import FEW_CLUSTERS
from .analysis import (COVERAGE_FLOOR, REPO, TABLES, TED_FILE, THREE_RATER_FILE, certainty_verdict, language_pair, pair_names,
                       tables_for)

MQM_SUFFIXES = (".tsv", ".txt", ".gz", ".tgz", ".tar")
RELEASED_DETAIL = ("Google's expert MQM ratings of WMT submissions (google/wmt-mqm-human-evaluation at the "
                   "pinned commit, Apache-2.0), Chinese to English, sha256-verified by "
                   "<code>python -m helpers fetch</code>.")
OWN_DETAIL = "MQM files passed to this notebook as papermill parameters."


@dataclass(frozen=True)
class WmtData(ChapterData):
    errors: pd.DataFrame = None  # the annotations for the weight and system analyses (scoring columns)
    multi: pd.DataFrame = None  # the multi-rated annotations, with spans, for the agreement sections
    errors_name: str = ""
    multi_name: str = ""
    tables: dict | None = None  # README tables about the files read: {table: (csv, file, kind)} (analysis.reproduce)
    files: dict | None = None  # each table's file -> the local file
    pairs: tuple = ()  # language pair of the errors file and of the multi-rated file, e.g. ("zh", "en") or None
    pool_pairings: bool = True


@dataclass(frozen=True)
class WmtSetup:
    """Chapter 08's checked parameters (see the chapter's parameters cell)."""

    annotations: Path | None
    multi_rated: Path | None
    major_weights: tuple[float, ...]
    n_boot: int
    n_trials: int
    alpha: float
    seed: int
    pool_pairings: bool
    language_pair: tuple[str, str] | None = None  # given as a parameter; None: read from each file's name

    @property
    def released(self) -> bool:
        return self.annotations is None and self.multi_rated is None

    def load(self) -> WmtData:
        errors_path = self.annotations or paths.released_file(REPO, TED_FILE)
        multi_path = self.multi_rated or (self.annotations if self.annotations else
                                          paths.released_file(REPO, THREE_RATER_FILE))
        errors = _read(errors_path, "annotations", ann.SCORING_COLUMNS, self.pool_pairings)
        multi = _read(multi_path, "multi_rated", None, self.pool_pairings)
        per_unit = multi[multi["severity"] != ann.HOTW].groupby(["system", "doc", "doc_seg_id"])["rater"].nunique()
        if (per_unit >= 2).sum() == 0:
            raise InputError("no segment of this file has two or more raters, so rater agreement cannot be measured",
                             parameter="multi_rated", file=multi_path)
        if errors["system"].nunique() < 2:
            raise InputError("has one system; comparing systems needs two or more", parameter="annotations",
                             file=errors_path)
        files = sorted({str(errors_path), str(multi_path)})
        if self.released:
            tables, local = TABLES, {rel: paths.released_file(REPO, rel) for _, rel, _ in TABLES.values()}
            files = sorted(set(files) | {str(p) for p in local.values()})
            provenance = Provenance("released", tuple(files), RELEASED_DETAIL)
        else:
            tables = tables_for(errors_path, multi_path)  # the README tables about these files, by file name
            local = {f: f for _, f, _ in tables.values()}
            provenance = Provenance("own", tuple(files), OWN_DETAIL)
        pairs = tuple(self.language_pair or language_pair(p) for p in (errors_path, multi_path))
        return WmtData(provenance, errors=errors, multi=multi, errors_name=Path(errors_path).name,
                       multi_name=Path(multi_path).name, tables=tables or None, files=local, pairs=pairs,
                       pool_pairings=self.pool_pairings)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _read(path: Path, parameter: str, columns, pool: bool) -> pd.DataFrame:
    """An MQM file read once per content (cached), with its pairings pooled when asked."""
    def read():
        return mqm.read_mqm(path, columns=columns)

    try:
        frame = cache.cached("wmt-mqm-read", 1, [_sha256(path), columns], read,
                             describe=f"{Path(path).name} read as annotations")
    except InputError as exc:
        raise exc.located(parameter=parameter) from None
    return ann.pool_pairings(frame) if pool else frame


def _mqm_file(name: str, value) -> Path | None:
    if value is None:
        return None
    return params.existing_file(name, value, MQM_SUFFIXES)


def _language_pair(value) -> tuple[str, str] | None:
    """The ``language_pair`` parameter: None, or ``"zh-en"`` / ``"zhen"`` as two codes."""
    if value is None:
        return None
    pair = language_pair(str(value))
    if pair is None:
        raise InputError("must name two language codes, source then target", parameter="language_pair",
                         value=value, expected="e.g. 'en-de' or 'zh-en'; None reads it from the file name")
    return pair


def wmt_mqm_setup(annotations=None, multi_rated=None, major_weights=tuple(range(1, 11)), n_boot=1000, n_trials=10000,
                  alpha=0.05, seed=0, pool_pairings=True, language_pair=None, results_dir="results") -> WmtSetup:
    """Check chapter 08's parameters before any work (each problem names its parameter)."""
    if not isinstance(major_weights, (list, tuple)) or not major_weights:
        raise InputError("must be a list of Major weights", parameter="major_weights", value=major_weights,
                         expected="e.g. [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]")
    weights = tuple(params.number("major_weights", w, minimum=0) for w in major_weights)
    params.text("results_dir", str(results_dir))
    return WmtSetup(annotations=_mqm_file("annotations", annotations),
                    multi_rated=_mqm_file("multi_rated", multi_rated), major_weights=weights,
                    n_boot=params.integer("n_boot", n_boot, minimum=100),
                    n_trials=params.integer("n_trials", n_trials, minimum=100),
                    alpha=params.number("alpha", alpha, minimum=0.0001, maximum=0.5),
                    seed=params.integer("seed", seed, minimum=0),
                    pool_pairings=params.boolean("pool_pairings", pool_pairings),
                    language_pair=_language_pair(language_pair))


def description(data: WmtData) -> pd.DataFrame:
    """What the two files hold (section ``data`` of the chapter's words): per file (group
    ``weights`` for the errors file, ``agreement`` for the multi-rated one, ``weights and
    agreement`` when one file serves both) its name, language
    pair (``language_pair`` or the file's name), systems, segments, documents, raters, raters
    per (system, segment) and rows; and whether side-by-side pairings were pooled."""
    found = Findings()
    pairs = data.pairs or (None, None)
    files = [("weights", data.errors, data.errors_name), ("agreement", data.multi, data.multi_name)]
    if data.errors_name == data.multi_name and len(data.errors) == len(data.multi):
        files, pairs = [("weights and agreement", data.multi, data.multi_name)], pairs[1:]  # one file serves both
    for (group, frame, name), pair in zip(files, pairs):
        ratings = frame[frame["severity"] != ann.HOTW].groupby(["system", "doc", "doc_seg_id"])["rater"].nunique()
        paired = int((frame["pairing"] != "").any()) if "pairing" in frame.columns else 0
        (found.add("file", group=group, text=name)
         .add("pair", group=group, text=pair_names(pair)[0])
         .add("pooled", paired, group=group)
         .add("systems", frame["system"].nunique(), group=group)
         .add("segments", len(frame[["doc", "doc_seg_id"]].drop_duplicates()), group=group)
         .add("documents", frame["doc"].nunique(), group=group)
         .add("raters", frame["rater"].nunique(), group=group)
         .add("raters_per_unit", text=_span(ratings.min(), ratings.max()), group=group)
         .add("rows", len(frame), group=group))
    return found.frame()


def _span(low, high) -> str:
    return f"{low}" if low == high else f"{low}–{high}"


def _listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def agreement_command(data: WmtData) -> str:
    """The ``mqm agreement`` command that gives the chapter's α on the same units (same
    file, MQM weights, the chapter's pairing option; ``--pool-pairings`` only when the file
    has pairings to pool)."""
    paired = "pairing" in data.multi.columns and bool((data.multi["pairing"] != "").any())
    pool = " --pool-pairings" if data.pool_pairings and paired else ""
    return f".venv/bin/python -m helpers mqm agreement {data.multi_name}{pool}"


#: What the standard-error ratio says about segment-level certainty (analysis.certainty_verdict).
CERTAINTY_VERDICTS = {
    "overstated": "segment-level certainty is **overstated**",
    "about right": "segment-level certainty is about right here",
    "understated": "segment-level intervals are, if anything, the wider ones here",
}


def reproduction(data: WmtData, reproduced: pd.DataFrame | None) -> pd.DataFrame:
    """Section 1's sentences (section ``reproduce`` of the words): which README tables this run
    compares and how many printed values it reproduces, or that no table is about its files;
    ``released`` is yes on the mirrored ZH→EN files, whose known mismatches the words explain."""
    found = Findings()
    found.add("released", int(data.provenance.kind == "released"))
    if reproduced is None:
        names = sorted({f"`{data.errors_name}`", f"`{data.multi_name}`"})
        return (found.add("nothing", text=" or ".join(names)).add("tables").add("reproduced").add("printed")
                .frame())
    rule = "match: 3 decimals, then half-up"
    return (found.add("nothing").add("tables", text=_listing(list(dict.fromkeys(reproduced["table"]))))
            .add("reproduced", int(reproduced[rule].sum())).add("printed", len(reproduced)).frame())


#: MetaHOPE's claim against this run's three α differences (paper: linear weights agree more).
CLAIM_VERDICTS = {
    "higher": "MetaHOPE's linear weights give the raters **higher** agreement than both",
    "lower": ("MetaHOPE's linear weights give **lower** agreement than HOPE's exponential and the MQM weights, the "
              "opposite of the claim"),
    "neither": "MetaHOPE's linear weights do **not** give higher agreement than both HOPE's exponential and the MQM "
               "weights",
}

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


def findings(data: WmtData, reproduced: pd.DataFrame | None, sweep: pd.DataFrame, agreement_levels: pd.DataFrame,
             scheme_diffs: pd.DataFrame, presence: pd.DataFrame, spans: pd.DataFrame, bias: pd.DataFrame,
             pairs: pd.DataFrame, certainty: pd.DataFrame, alpha: float, pairs_multi: pd.DataFrame | None = None,
             icc: pd.DataFrame | None = None) -> pd.DataFrame:
    """The chapter's closing findings as a tidy frame (section ``findings`` of its words),
    every number from this run's tables."""
    found = Findings()
    found.add("errors_file", text=data.errors_name).add("multi_file", text=data.multi_name)
    if reproduced is not None:
        rule = "match: 3 decimals, then half-up"
        found.add("reproduced", int(reproduced[rule].sum())).add("printed", len(reproduced))
        found.add("tables", text=_listing(list(dict.fromkeys(reproduced["table"]))))
        found.add("nothing_to_reproduce")
        off = reproduced[~reproduced[rule]]
        found.add("exceptions", len(off))
        for r in off.itertuples():
            found.add("exception", r.recomputed, group=f"{r.table} {r.system}", text=str(r.published))
        if off.empty:
            found.add("exception")  # none: the words' list of exceptions is left out
    else:
        found.add("reproduced").add("printed").add("exceptions").add("exception").add("tables")
        found.add("nothing_to_reproduce", text=" or ".join(sorted({f"`{data.errors_name}`", f"`{data.multi_name}`"})))

    seg = sweep[sweep["resampling"] == "segments"].set_index("scheme")
    doc = sweep[sweep["resampling"] == "documents"].set_index("scheme")
    mqm_rows = seg[seg.index.str.startswith("mqm-major-")]
    best = mqm_rows["tau_mean"].idxmax()
    five = "mqm-major-5" if "mqm-major-5" in seg.index else best
    spread = mqm_rows["tau_mean"].max() - mqm_rows["tau_mean"].min()
    resampling_matters = abs(seg.loc[five, "tau_mean"] - doc.loc[five, "tau_mean"]) > spread
    (found.add("best_major", seg.loc[best, "major_to_minor"]).add("best_tau", seg.loc[best, "tau_mean"])
     .add("major5_tau", seg.loc[five, "tau_mean"]).add("major5_separated", seg.loc[five, "share_significant"])
     .add("tau_lowest", mqm_rows["tau_mean"].min()).add("tau_highest", mqm_rows["tau_mean"].max())
     .add("hope_tau", seg.loc["hope", "tau_mean"]).add("metahope_tau", seg.loc["metahope", "tau_mean"])
     .add("n_documents", int(sweep["n_documents"].iloc[0]))
     .add("documents_tau", doc.loc[five, "tau_mean"]).add("documents_separated", doc.loc[five, "share_significant"])
     .add("resampling_matters", bool(resampling_matters)))

    lv = agreement_levels.set_index("scheme")
    found.add("alpha", lv.loc["mqm", "alpha"], ci=(lv.loc["mqm", "ci_low"], lv.loc["mqm", "ci_high"]),
              n_units=int(lv.loc["mqm", "n_units"]), n_documents=int(lv.loc["mqm", "n_documents"]))
    found.add("alpha_command", text=agreement_command(data))
    for r in (icc.itertuples() if icc is not None else ()):
        found.add("icc", r.estimate, group=r.statistic, ci=(r.jackknife_ci_low, r.jackknife_ci_high))
    found.add("raters_per_unit", None if icc is None else int(icc["raters_per_unit"].iloc[0]))
    if icc is None:
        found.add("icc")

    if len(presence):
        top = presence.iloc[0]
        found.add("top_category", top["nominal_alpha"], text=top["category"], marked=top["marked_percent"] / 100)
        for r in presence.iloc[1:4].itertuples():
            found.add("category_alpha", r.nominal_alpha, group=r.category)
        found.add("category_below_score", bool(top["nominal_alpha"] < lv.loc["mqm", "alpha"]))
    else:
        found.add("top_category").add("category_alpha").add("category_below_score")

    sp = spans.set_index("criterion")
    (found.add("spans_compared", int(sp["spans"].iloc[0]))
     .add("span_overlap", sp.loc["overlap", "agreement"])
     .add("span_category", sp.loc["overlap+category", "agreement"])
     .add("span_severity", sp.loc["overlap+category+severity", "agreement"])
     .add("span_dice", sp.loc["characters", "agreement"]))

    if len(bias):
        off = bias[(bias["ci_low"] > 0) | (bias["ci_high"] < 0)]
        # bias = the rater's penalty minus the co-raters' mean: the most severe rater has the largest
        severe, lenient = bias.loc[bias["bias"].idxmax()], bias.loc[bias["bias"].idxmin()]
        (found.add("biased_raters", len(off)).add("raters", len(bias))
         .add("most_lenient_bias", lenient["bias"], ci=(lenient["ci_low"], lenient["ci_high"]), text=lenient["rater"])
         .add("most_severe_bias", severe["bias"], ci=(severe["ci_low"], severe["ci_high"]), text=severe["rater"]))
        for name, r in (("lenient_interval", lenient), ("severe_interval", severe)):  # none with too few documents
            known = pd.notna(r["ci_low"]) and pd.notna(r["ci_high"])
            found.add(name, r["bias"] if known else None, ci=(r["ci_low"], r["ci_high"]))
    else:
        for q in ("biased_raters", "raters", "most_lenient_bias", "most_severe_bias", "lenient_interval",
                  "severe_interval"):
            found.add(q)

    compared = {}
    for x, y in (("metahope", "hope"), ("metahope", "mqm"), ("hope", "mqm")):
        r = _oriented(scheme_diffs, x, y)
        if r is not None:
            compared[(x, y)] = r
            found.add("scheme_difference", r["difference"], group=f"{x} − {y}",
                      ci=(r["jackknife_ci_low"], r["jackknife_ci_high"]), text=r["verdict"])
    linear = [compared.get(k) for k in (("metahope", "hope"), ("metahope", "mqm"))]
    shown = all(r is not None and r["verdict"] == "difference" for r in linear)
    claim = ("higher" if shown and all(r["difference"] > 0 for r in linear) else
             "lower" if shown and all(r["difference"] < 0 for r in linear) else "neither")
    found.add("claim", text=CLAIM_VERDICTS[claim], verdict=claim)

    g = int(pairs["n_documents"].iloc[0]) if len(pairs) else 0
    verdict = certainty_verdict(certainty["ratio"])
    (found.add("system_pairs", len(pairs))
     .add("separated_by_segments", int((pairs["p_segments_holm"] < alpha).sum()))
     .add("separated_by_documents", int((pairs["p_documents_holm"] < alpha).sum()))
     .add("pair_documents", g).add("smallest_p", 2.0 ** -g if g and 2 ** g <= 1e6 else None)
     .add("se_ratio", verdict["median"], ci=(verdict["low"], verdict["high"]), text=CERTAINTY_VERDICTS[verdict["verdict"]],
          verdict=verdict["verdict"])
     .add("segment_coverage", verdict["coverage"]).add("coverage_floor", COVERAGE_FLOOR)
     .add("pairs_below_floor", verdict["pairs_below"])
     .add("few_documents", g < FEW_CLUSTERS).add("few_clusters", FEW_CLUSTERS))
    if pairs_multi is not None and len(pairs_multi):
        k = data.multi[data.multi["severity"] != ann.HOTW].groupby(["system", "doc", "doc_seg_id"])["rater"].nunique()
        (found.add("multi_documents", int(pairs_multi["n_documents"].iloc[0]))
         .add("multi_raters_per_unit", text=_span(k.min(), k.max()))
         .add("multi_pairs", len(pairs_multi))
         .add("multi_by_segments", int((pairs_multi["p_segments_holm"] < alpha).sum()))
         .add("multi_by_documents", int((pairs_multi["p_documents_holm"] < alpha).sum())))
    else:
        for q in ("multi_documents", "multi_raters_per_unit", "multi_pairs", "multi_by_segments", "multi_by_documents"):
            found.add(q)
    return found.frame()


__all__ = ["WmtData", "WmtSetup", "wmt_mqm_setup", "description", "reproduction", "agreement_command", "findings",
           "CERTAINTY_VERDICTS"]
