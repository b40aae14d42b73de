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
from ..core.report import ChapterData, Provenance
from ..core.stats import FEW_CLUSTERS
from .analysis import REPO, TABLES, TED_FILE, THREE_RATER_FILE

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
    release: dict | None = None  # release path -> local file, for the published tables (released data only)


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
        release = None
        if self.released:
            release = {rel: paths.released_file(REPO, rel) for _, rel, _ in TABLES.values()}
            files = sorted(set(files) | {str(p) for p in release.values()})
            provenance = Provenance("released", tuple(files), RELEASED_DETAIL)
        else:
            provenance = Provenance("own", tuple(files), OWN_DETAIL)
        return WmtData(provenance, errors=errors, multi=multi, errors_name=Path(errors_path).name,
                       multi_name=Path(multi_path).name, release=release)


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


def wmt_mqm_setup(annotations=None, multi_rated=None, major_weights=tuple(range(1, 11)), n_boot=1000, n_trials=10000,
                  alpha=0.05, seed=0, pool_pairings=True, results_dir="results") -> WmtSetup:
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
                    pool_pairings=params.boolean("pool_pairings", pool_pairings))


def describe(data: WmtData) -> str:
    """One paragraph on what the two files hold."""
    def part(frame, name):
        ratings = frame[frame["severity"] != ann.HOTW].groupby(["system", "doc", "doc_seg_id"])["rater"].nunique()
        return (f"`{name}`: {frame['system'].nunique()} systems, {frame[['doc', 'doc_seg_id']].drop_duplicates().shape[0]} "
                f"segments in {frame['doc'].nunique()} documents, {frame['rater'].nunique()} raters "
                f"({ratings.min()}–{ratings.max()} per system and segment), {len(frame)} rows")
    return part(data.errors, data.errors_name) + "; " + part(data.multi, data.multi_name) + "."


def _interval(low, high, d=2) -> str:
    return f"[{low:.{d}f}, {high:.{d}f}]"


def findings(data: WmtData, reproduced: pd.DataFrame | None, sweep: pd.DataFrame, agreement_levels: pd.DataFrame,
             scheme_diffs: pd.DataFrame, presence: pd.DataFrame, spans: pd.DataFrame, bias: pd.DataFrame,
             pairs: pd.DataFrame, certainty: pd.DataFrame, alpha: float, pairs_multi: pd.DataFrame | None = None,
             icc: pd.DataFrame | None = None) -> list[str]:
    """The chapter's closing list, every number from this run."""
    lines = []
    if reproduced is not None:
        rule = "match: 3 decimals, then half-up"
        ok = int(reproduced[rule].sum())
        off = reproduced[~reproduced[rule]]
        text = (f"**Reproduced.** {ok} of {len(reproduced)} printed system scores of the README's TED, newstest2020 and "
                "newstest2021 ZH→EN tables come out of the mirrored files when rounded to three decimals and then "
                "half-up to the printed precision")
        if len(off):
            text += ("; the exception" + ("s are " if len(off) > 1 else " is ")
                     + ", ".join(f"{r.table} {r.system} (printed {r.published}, recomputed {r.recomputed:.5f})"
                                 for r in off.itertuples()) + ", which no single rounding rule reconciles with the rest")
        lines.append(text + ".")
    seg = sweep[sweep["resampling"] == "segments"].set_index("scheme")
    doc = sweep[sweep["resampling"] == "documents"].set_index("scheme")
    mqm_rows = seg[seg.index.str.startswith("mqm-major-")]
    best = mqm_rows["tau_mean"].idxmax()
    five = "mqm-major-5" if "mqm-major-5" in seg.index else best
    n_docs = int(sweep["n_documents"].iloc[0])
    lines.append(
        f"**Which weights?** On `{data.errors_name}` the ranking is most stable under segment resampling with Major = "
        f"{seg.loc[best, 'major_to_minor']:g} (mean Kendall τ {seg.loc[best, 'tau_mean']:.3f}); Major = 5 gives "
        f"{seg.loc[five, 'tau_mean']:.3f} and separates {seg.loc[five, 'share_significant']:.0%} of system pairs; the "
        f"τ of all Major weights spans {mqm_rows['tau_mean'].min():.3f}–{mqm_rows['tau_mean'].max():.3f}, HOPE "
        f"{seg.loc['hope', 'tau_mean']:.3f}, MetaHOPE {seg.loc['metahope', 'tau_mean']:.3f}. Resampling the "
        f"{n_docs} documents instead, τ is {doc.loc[five, 'tau_mean']:.3f} and {doc.loc[five, 'share_significant']:.0%}"
        f" of pairs stay separated" + (": the weight matters far less than what is resampled."
        if abs(seg.loc[five, 'tau_mean'] - doc.loc[five, 'tau_mean']) > mqm_rows['tau_mean'].max() - mqm_rows['tau_mean'].min()
        else "."))
    lv = agreement_levels.set_index("scheme")
    lines.append(
        f"**Raters agree moderately.** On `{data.multi_name}` interval α of the segment penalties is "
        f"{lv.loc['mqm', 'alpha']:.3f} with MQM weights (documents resampled {_interval(lv.loc['mqm', 'ci_low'], lv.loc['mqm', 'ci_high'])},"
        f" {int(lv.loc['mqm', 'n_units'])} rated units, {int(lv.loc['mqm', 'n_documents'])} documents)"
        + ("" if icc is None else "; " + ", ".join(
            f"{r.statistic} {r.estimate:.3f} {_interval(r.jackknife_ci_low, r.jackknife_ci_high)}" for r in icc.itertuples())
           + f" (document jackknife): the mean of {int(icc['raters_per_unit'].iloc[0])} raters is far more reliable "
             "than one rater's score") + ".")
    if len(presence):
        top = presence.iloc[0]
        lines.append(f"**Presence per category.** The most marked category, {top['category']} ({top['marked_percent']:.0f} % "
                     f"of ratings), has nominal α {top['nominal_alpha']:.2f}; "
                     + ", ".join(f"{r.category} {r.nominal_alpha:.2f}" for r in presence.iloc[1:4].itertuples())
                     + (": raters agree less on *which* kind of error there is than on how bad a segment is."
                        if top["nominal_alpha"] < lv.loc["mqm", "alpha"] else "."))
    sp = spans.set_index("criterion")
    lines.append(f"**Spans.** Of the {int(sp['spans'].iloc[0])} spans two raters of a segment could compare, "
                 f"{sp.loc['overlap', 'agreement']:.0%} (span F1) overlap a span of the other rater, "
                 f"{sp.loc['overlap+category', 'agreement']:.0%} with the same top-level category and "
                 f"{sp.loc['overlap+category+severity', 'agreement']:.0%} with the same severity too; character Dice "
                 f"{sp.loc['characters', 'agreement']:.2f}.")
    off = bias[(bias["ci_low"] > 0) | (bias["ci_high"] < 0)]
    if len(bias):
        hi, lo = bias.loc[bias["bias"].idxmax()], bias.loc[bias["bias"].idxmin()]
        lines.append(f"**Rater bias.** {len(off)} of {len(bias)} raters score segments differently from their co-raters "
                     f"(interval excludes 0, documents as clusters): {hi['rater']} by {hi['bias']:+.2f} "
                     f"{_interval(hi['ci_low'], hi['ci_high'])}, {lo['rater']} by {lo['bias']:+.2f} per segment.")
    d = scheme_diffs.set_index(["scheme_x", "scheme_y"])
    def row(x, y):
        return d.loc[(x, y)] if (x, y) in d.index else None
    parts = []
    for x, y in (("metahope", "hope"), ("metahope", "mqm"), ("hope", "mqm")):
        r = row(x, y)
        sign = 1
        if r is None:
            r, sign = row(y, x), -1
        if r is None:
            continue
        diff = sign * r["difference"]
        low, high = sorted((sign * r["jackknife_ci_low"], sign * r["jackknife_ci_high"]))
        parts.append(f"{x} − {y} {diff:+.3f} {_interval(low, high, 3)} ({r['verdict']})")
    linear_better = all(
        (sign := (1 if (x, y) in d.index else -1)) and
        (sign * d.loc[(x, y) if sign == 1 else (y, x), "difference"] > 0) and
        d.loc[(x, y) if sign == 1 else (y, x), "verdict"] == "difference"
        for x, y in (("metahope", "hope"), ("metahope", "mqm")))
    linear_worse = all(
        (sign := (1 if (x, y) in d.index else -1)) and
        (sign * d.loc[(x, y) if sign == 1 else (y, x), "difference"] < 0) and
        d.loc[(x, y) if sign == 1 else (y, x), "verdict"] == "difference"
        for x, y in (("metahope", "hope"), ("metahope", "mqm")))
    verdict = ("MetaHOPE's linear weights give the raters **higher** agreement than both" if linear_better else
               "MetaHOPE's linear weights give **lower** agreement than HOPE's exponential and the MQM weights, the "
               "opposite of the claim" if linear_worse else
               "MetaHOPE's linear weights do **not** give higher agreement than both HOPE's exponential and the MQM "
               "weights")
    lines.append(f"**MetaHOPE's claim.** {verdict}: α differences " + "; ".join(parts)
                 + " (delete-one-document jackknife intervals, Holm over the three comparisons). On MQM's two "
                 "severities the schemes differ only in how many Minor errors a Major one weighs (MetaHOPE 3, HOPE 4, "
                 "MQM 5, and MQM's punctuation and non-translation exceptions), so this tests the ratio, not the "
                 "shape of a five-level scale.")
    n_pairs = len(pairs)
    seg_sig = int((pairs["p_segments_holm"] < alpha).sum())
    doc_sig = int((pairs["p_documents_holm"] < alpha).sum())
    g = int(pairs["n_documents"].iloc[0]) if n_pairs else 0
    few = f" (with {g} documents the smallest possible one-sided p is {2.0 ** -g:.3g})" if g and 2 ** g <= 1e6 else ""
    lines.append(f"**Which systems differ?** On `{data.errors_name}` Marot's test over segments separates {seg_sig} of "
                 f"{n_pairs} system pairs after Holm; the same test swapping whole documents separates {doc_sig}{few}. "
                 f"Resampling segments makes the pairs' standard errors {certainty['ratio'].median():.1f} times smaller "
                 "(median) than resampling documents: segment-level certainty is overstated"
                 + (f", and with {g} < {FEW_CLUSTERS} documents even the document-level intervals are optimistic."
                    if g < FEW_CLUSTERS else "."))
    if pairs_multi is not None and len(pairs_multi):
        gm = int(pairs_multi["n_documents"].iloc[0])
        k = data.multi[data.multi["severity"] != ann.HOTW].groupby(["system", "doc", "doc_seg_id"])["rater"].nunique()
        per = f"{k.min()}" if k.min() == k.max() else f"{k.min()}–{k.max()}"
        lines.append(f"On `{data.multi_name}` ({gm} documents, {per} raters per segment) the segment test separates "
                     f"{int((pairs_multi['p_segments_holm'] < alpha).sum())} of {len(pairs_multi)} pairs after Holm and "
                     f"the document test {int((pairs_multi['p_documents_holm'] < alpha).sum())}.")
    return lines


__all__ = ["WmtData", "WmtSetup", "wmt_mqm_setup", "describe", "findings"]
