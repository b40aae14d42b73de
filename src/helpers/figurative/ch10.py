"""What chapter 10 needs besides the statistics: checked parameters, data with provenance, steps, findings.

The chapter calls :func:`setup` in the cell right after its parameters cell; it
checks every parameter before any work and raises :class:`~helpers.core.errors.InputError`
naming the parameter. ``setup.load()`` returns :class:`Data`: the MQM rows of TED
and WMT23, the segment table of the three data sets (penalty and idiom flag per system and
segment, :func:`helpers.figurative.analysis.segment_table`) and, for the released
newstest2021, the system outputs and reference by line (for sentence chrF), with their
:class:`~helpers.core.book.report.Provenance`. The steps take that box and return tidy frames,
which the chapter saves as its result CSVs; :func:`findings` reads them back by their public
names (:data:`FINDINGS_INPUTS`) and returns every number the page states, so the findings can
be recomputed and tested from ``results/10_figurative/*.csv`` alone; the sentences are
``notebooks/words/10_figurative.md``. The statistics are :mod:`helpers.figurative.analysis`,
the figures :mod:`helpers.figurative.figures`.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.formats import annotations as ann
from ..core.formats import mqm
from ..core import params, paths
from ..core.errors import InputError
from ..core.book.findings import Findings, Words
from ..core.book.report import ChapterData, Provenance
from ..core.book.results import read_saved
from ..core.statistics.stats import FEW_CLUSTERS
from . import analysis, idioms

CHAPTER = "10_figurative"  # its words file: notebooks/words/10_figurative.md (the data box reads it too)
WMT21 = "wmt-conference/wmt21-news-systems"
#: Fewer idiom segments than this in a data set: its per-system effects are not estimated (one or two
#: segments make a "per-system effect" the quirk of a sentence).
MIN_IDIOM_SEGMENTS = 5
#: The gallery's segments and systems per segment.
GALLERY_SEGMENTS, GALLERY_SYSTEMS = 4, 3


@dataclass(frozen=True)
class Data(ChapterData):
    rows: dict = None  # dataset -> MQM annotation rows (ted, wmt23)
    segments: pd.DataFrame = None  # analysis.segment_table of every data set, one frame
    texts: pd.DataFrame = None  # newstest2021: system, segment, hypothesis, reference (released only; else empty)
    files: dict = None  # dataset -> the file read


@dataclass(frozen=True)
class Setup:
    """Chapter 10's checked parameters (see the chapter's parameters cell)."""

    newstest2021: Path | None
    newstest2021_source: Path | None
    ted: Path | None
    wmt23: Path | None
    detector: str
    n_boot: int
    seed: int

    @property
    def released(self) -> bool:
        return all(f is None for f in (self.newstest2021, self.newstest2021_source, self.ted, self.wmt23))

    def load(self) -> Data:
        """The data box: the released files, or those given as parameters in their place."""
        files = {"newstest2021": self.newstest2021 or analysis.NEWSTEST2021_SCORES,
                 "ted": self.ted or analysis.TED_FILE, "wmt23": self.wmt23 or analysis.THREE_RATER_FILE}
        rows = {d: mqm.read_mqm(self.ted or paths.released_file(analysis.REPO, analysis.TED_FILE)) if d == "ted" else
                mqm.read_mqm(self.wmt23 or paths.released_file(analysis.REPO, analysis.THREE_RATER_FILE))
                for d in ("ted", "wmt23")}
        tables = [analysis.segment_table("newstest2021", self.newstest2021, self.newstest2021_source, self.detector)]
        tables += [analysis.segment_table(d, detector=self.detector, rows=rows[d]) for d in ("ted", "wmt23")]
        segments = pd.concat(tables, ignore_index=True)
        texts = newstest2021_texts(segments["system"][segments["dataset"] == "newstest2021"].unique()) \
            if self.newstest2021 is None and self.newstest2021_source is None else pd.DataFrame()
        given = [str(p) for p in (self.newstest2021, self.newstest2021_source, self.ted, self.wmt23) if p is not None]
        provenance = Provenance.worded("released", CHAPTER) if self.released else \
            Provenance.worded("own", CHAPTER, given)
        return Data(provenance, rows=rows, segments=segments, texts=texts,
                              files={k: str(v) for k, v in files.items()})


def setup(newstest2021=None, newstest2021_source=None, ted=None, wmt23=None, detector="filtered",
                     n_boot=1000, seed=0, results_dir="results") -> Setup:
    """Check chapter 10's parameters before any work (each problem names its parameter).

    ``newstest2021`` (an ``*.avg_seg_scores.tsv``) with ``newstest2021_source`` (its Chinese
    source, one segment per line; both or neither), ``ted`` and ``wmt23`` (MQM TSVs with the
    source, span markers ``<v>…</v>``) replace Google's released files; any of them may be
    given alone. ``detector``: one of :data:`helpers.figurative.idioms.DETECTORS`.
    """
    if (newstest2021 is None) != (newstest2021_source is None):
        missing = "newstest2021_source" if newstest2021_source is None else "newstest2021"
        raise InputError("is needed with the other of newstest2021, newstest2021_source", parameter=missing,
                         expected="a file")
    params.text("results_dir", str(results_dir))

    def file(name, value):
        return params.existing_file(name, value) if value is not None else None

    return Setup(
        newstest2021=file("newstest2021", newstest2021), newstest2021_source=file("newstest2021_source",
                                                                                  newstest2021_source),
        ted=file("ted", ted), wmt23=file("wmt23", wmt23), detector=params.choice("detector", detector,
                                                                                   list(idioms.DETECTORS)),
        n_boot=params.integer("n_boot", n_boot, minimum=100), seed=params.integer("seed", seed, minimum=0))


def newstest2021_texts(systems) -> pd.DataFrame:
    """WMT21's reference A and the outputs of those of ``systems`` that have an output file under
    their name, by line: ``system, segment, hypothesis, reference`` (``segment`` the 1-based
    line as a string, the key of :func:`helpers.figurative.analysis.segment_table`)."""
    prefix = "txt/{}/newstest2021.zh-en.{}"
    reference = analysis.read_lines((WMT21, prefix.format("references", "ref.A.en")))
    frames = []
    for system in sorted(systems):
        rel = prefix.format("system-outputs", f"hyp.{system}.en")
        if not (paths.raw_data_dir() / WMT21.replace("/", "__") / rel).exists():
            continue  # the MQM file's metric systems and human references have no output file under that name
        hyp = analysis.read_lines((WMT21, rel))
        frames.append(pd.DataFrame({"system": system, "segment": hyp.index.astype(str), "hypothesis": hyp.to_numpy(),
                                    "reference": reference.reindex(hyp.index).to_numpy()}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["system", "segment", "hypothesis", "reference"])


# --------------------------------------------------------------------------- steps
def description(box: Data, detector: str) -> pd.DataFrame:
    """The run's data per data set (``data_summary.csv``): ``dataset, file, detector, systems,
    segments, documents, rows, idiom_segments, idiom_documents``."""
    out = []
    for dataset, part in box.segments.groupby("dataset", sort=False):
        idiom = part[part["idiom"]]
        out.append({"dataset": dataset, "file": box.files[dataset], "detector": detector,
                    "systems": part["system"].nunique(),
                    "segments": part["segment"].nunique(), "documents": part["doc"].nunique(), "rows": len(part),
                    "idiom_segments": idiom["segment"].nunique(), "idiom_documents": idiom["doc"].nunique()})
    return pd.DataFrame(out)


def detector_precision() -> pd.DataFrame:
    """Each detector's precision on the authored sample, and how many of PSUCMC's metaphor words it
    finds: :func:`helpers.figurative.idioms.precision_table` with ``psucmc_words, psucmc_found``."""
    table = idioms.precision_table(idioms.read_sample())
    found = {d: idioms.psucmc_coverage(detector=d)["found"] for d in table["detector"]}
    table["psucmc_words"] = [len(found[d]) for d in table["detector"]]
    table["psucmc_found"] = [int(found[d].sum()) for d in table["detector"]]
    return table


def penalty_means(box: Data) -> pd.DataFrame:
    """Mean MQM penalty of idiom and other segments per data set, uncontrolled:
    ``dataset, idiom, cells, segments, mean_score``."""
    s = box.segments
    return s.groupby(["dataset", "idiom"], sort=False).agg(
        cells=("score", "size"), segments=("segment", "nunique"), mean_score=("score", "mean")).reset_index()


def effects(box: Data, detector: str, n_boot: int, seed: int) -> pd.DataFrame:
    """The controlled idiom effect per data set (:func:`helpers.figurative.analysis.idiom_effect`)
    with the chapter's detector (mixed model and bootstrap) and with the other detectors
    (bootstrap): ``dataset, detector`` and :data:`~helpers.figurative.analysis.EFFECT_COLUMNS`."""
    frames = []
    for dataset, part in box.segments.groupby("dataset", sort=False):
        for d in idioms.DETECTORS:
            table = part if d == detector else analysis.flag_idioms(
                part.drop(columns=["source_chars", "idioms", "idiom"]), d)
            methods = ("mixed", "cluster_bootstrap") if d == detector else ("cluster_bootstrap",)
            got = analysis.idiom_effect(table, n_boot=n_boot, seed=seed, methods=methods)
            got.insert(0, "detector", d)
            got.insert(0, "dataset", dataset)
            frames.append(got)
    return pd.concat(frames, ignore_index=True)


def categories(box: Data, detector: str, n_boot: int, seed: int) -> pd.DataFrame:
    """:func:`helpers.figurative.analysis.category_effects` of TED and WMT23 (the files with error
    categories), those with at least :data:`MIN_IDIOM_SEGMENTS` idiom segments."""
    s = box.segments
    enough = s[s["idiom"]].groupby("dataset")["segment"].nunique()
    keep = [d for d in box.rows if enough.get(d, 0) >= MIN_IDIOM_SEGMENTS]
    if not keep:
        return analysis.category_effects(pd.DataFrame(columns=["dataset", "category", "score", "idiom"]))
    cats = pd.concat([analysis.category_table(box.rows[d], detector).assign(dataset=d) for d in keep],
                     ignore_index=True)
    return analysis.category_effects(cats, n_boot=n_boot, seed=seed)


def spans(box: Data, detector: str) -> pd.DataFrame:
    """WMT23's source-side error spans in idiom segments (:func:`helpers.figurative.analysis.span_overlap`)."""
    return analysis.span_overlap(box.rows["wmt23"], detector)


def per_system(box: Data, n_boot: int, seed: int) -> pd.DataFrame:
    """The idiom effect per system (:func:`helpers.figurative.analysis.system_effects`) of the data sets
    with at least :data:`MIN_IDIOM_SEGMENTS` idiom segments."""
    s = box.segments
    enough = s[s["idiom"]].groupby("dataset")["segment"].nunique()
    keep = enough[enough >= MIN_IDIOM_SEGMENTS].index
    return analysis.system_effects(s[s["dataset"].isin(keep)], n_boot=n_boot, seed=seed)


def llm_versus_others(box: Data, n_boot: int, seed: int) -> pd.DataFrame:
    """:func:`helpers.figurative.analysis.llm_contrast` on each data set: ``dataset`` and its columns."""
    frames = [analysis.llm_contrast(part, n_boot=n_boot, seed=seed).assign(dataset=d)
              for d, part in box.segments.groupby("dataset", sort=False)]
    out = pd.concat(frames, ignore_index=True)
    return out[["dataset"] + [c for c in out.columns if c != "dataset"]]


def rater_agreement(box: Data, detector: str, n_boot: int, seed: int) -> pd.DataFrame:
    """α on idiom and other segments of WMT23's three-rater file
    (:func:`helpers.figurative.analysis.agreement_by_idiom`)."""
    return analysis.agreement_by_idiom(box.rows["wmt23"], detector, n_boot=n_boot, seed=seed)


def metric_scores(box: Data) -> pd.DataFrame:
    """newstest2021's rated cells with sentence chrF (:func:`helpers.figurative.analysis.sentence_chrf`)
    for the systems with an output file; empty for own files (no texts)."""
    if box.texts.empty:
        return pd.DataFrame(columns=["system", "segment", "doc", "score", "idiom", "chrf"])
    s = box.segments[box.segments["dataset"] == "newstest2021"]
    cells = s.merge(box.texts, on=["system", "segment"], how="inner")
    cells["chrf"] = analysis.sentence_chrf(cells["hypothesis"], cells["reference"])
    return cells[["system", "segment", "doc", "score", "idiom", "chrf"]]


def metric_agreement(scored: pd.DataFrame, n_boot: int, seed: int) -> pd.DataFrame:
    """:func:`helpers.figurative.analysis.metric_agreement` of chrF, empty without scores."""
    if scored.empty:
        return pd.DataFrame(columns=["group", "metric", "estimate", "ci_low", "ci_high", "cells", "segments"])
    return analysis.metric_agreement(scored, "chrf", n_boot=n_boot, seed=seed)


# --------------------------------------------------------------------------- the gallery
def gallery(box: Data, detector: str, segments: int = GALLERY_SEGMENTS,
            systems: int = GALLERY_SYSTEMS) -> pd.DataFrame:
    """A few WMT23 idiom segments to read: for each, the best, a middle and the worst system.

    The segments are those with an idiom where the raters marked the most source-side error
    spans on an idiom (ties: most errors), first ``segments`` of them. One row per error (or one
    row with empty error columns for a translation without error): ``segment, source, idioms``
    (the matches, ``|``-separated), ``system, score, target`` (clean), ``rater, category,
    severity, span`` (the marked text) and ``side`` (``source`` or ``target``).
    """
    rows = box.rows["wmt23"]
    seg = box.segments[(box.segments["dataset"] == "wmt23") & box.segments["idiom"]]
    columns = ["segment", "source", "idioms", "system", "score", "target", "rater", "category", "severity", "span",
               "side"]
    if seg.empty:
        return pd.DataFrame(columns=columns)
    sp = analysis.span_overlap(rows, detector)
    on_idiom = sp[sp["overlap"]].assign(segment=lambda f: f["doc"] + ":" + f["doc_seg_id"].astype(str))
    rank = seg.groupby("segment").agg(errors=("score", "sum")).join(
        on_idiom.groupby("segment").size().rename("on_idiom")).fillna(0)
    chosen = rank.sort_values(["on_idiom", "errors"], ascending=False).index[:segments]
    rows = rows.assign(segment=rows["doc"] + ":" + rows["doc_seg_id"].astype(str))
    out = []
    for key in chosen:
        part = seg[seg["segment"] == key].sort_values("score")
        picks = part.iloc[np.unique(np.linspace(0, len(part) - 1, min(systems, len(part))).round().astype(int))]
        source = part["source"].iloc[0]
        found = idioms.find_idioms(pd.Series([source]), detector)["idiom"].tolist()
        for p in picks.itertuples(index=False):
            r = rows[(rows["segment"] == key) & (rows["system"] == p.system)]
            target = ann.clean_text(r["target"]).iloc[0] if len(r) else ""
            base = {"segment": key, "source": source, "idioms": "|".join(found), "system": p.system,
                    "score": p.score, "target": target}
            errors = r[~r["severity"].isin([ann.NO_ERROR, ann.HOTW])]
            if errors.empty:
                out.append(base | {"rater": "", "category": "", "severity": "", "span": "", "side": ""})
            for e in errors.itertuples(index=False):
                side = "source" if pd.notna(e.source_start) and e.source_end > e.source_start else "target"
                text = ann.clean_text(pd.Series([e.source if side == "source" else e.target])).iloc[0]
                a, b = (e.source_start, e.source_end) if side == "source" else (e.target_start, e.target_end)
                span = text[int(a):int(b)] if pd.notna(a) and pd.notna(b) else ""
                out.append(base | {"rater": e.rater, "category": e.category, "severity": e.severity, "span": span,
                                   "side": side})
    return pd.DataFrame(out, columns=columns)


def _marked(text: str, parts) -> str:
    """``text`` HTML-escaped, every occurrence of each of ``parts`` in a ``<mark>`` (overlapping
    occurrences merged into one).

    >>> _marked("a <b> c", ["<b>", "b> c"])
    'a <mark>&lt;b&gt; c</mark>'
    """
    covered = np.zeros(len(text) + 1, dtype=bool)
    for part in {p for p in parts if p}:
        start = text.find(part)
        while start >= 0:
            covered[start:start + len(part)] = True
            start = text.find(part, start + 1)
    out, inside = [], False
    for i, ch in enumerate(text + " "):
        if covered[i] != inside:
            out.append("<mark>" if covered[i] else "</mark>")
            inside = covered[i]
        out.append(html.escape(ch) if i < len(text) else "")
    return "".join(out)


def gallery_html(table: pd.DataFrame) -> str:
    """:func:`gallery`'s rows as readable HTML: per segment the source with its idioms
    highlighted, then each system's translation (target spans highlighted) and its errors.
    The HTML around them is the words file's ``gallery_*`` sections."""
    say = Words(CHAPTER).fill
    if table.empty:
        return say("gallery_empty")
    blocks = []
    for key, seg in table.groupby("segment", sort=False):
        found = [i for i in seg["idioms"].iloc[0].split("|") if i]
        items = []
        for system, part in seg.groupby("system", sort=False):
            errors = part[part["category"] != ""]
            spans = errors.loc[errors["side"] == "target", "span"].tolist()
            listed = "".join(say("gallery_error", severity=html.escape(e.severity), category=html.escape(e.category),
                                 rater=html.escape(e.rater), side=str(e.side), span=html.escape(e.span) or "—")
                             for e in errors.itertuples())
            items.append(say("gallery_system", system=html.escape(system), penalty=part["score"].iloc[0],
                             target=_marked(part["target"].iloc[0], spans),
                             errors=say("gallery_errors", listed=listed) if listed else say("gallery_no_error")))
        blocks.append(say("gallery_segment", segment=html.escape(key), source=_marked(seg["source"].iloc[0], found),
                          systems="".join(items)))
    return "".join(blocks)


# --------------------------------------------------------------------------- findings
#: The result files :func:`findings` reads (``results/10_figurative/<name>.csv``).
FINDINGS_INPUTS = ("data_summary", "detector_precision", "penalty_means", "idiom_effects", "category_effects",
                   "span_summary", "system_effects", "llm_contrast", "rater_agreement", "metric_agreement")


def _excludes(ci_low: float, ci_high: float) -> int | None:
    """1 when an interval lies wholly on one side of zero, 0 when it covers zero, None without one."""
    if pd.isna(ci_low) or pd.isna(ci_high):
        return None
    return int(ci_low > 0 or ci_high < 0)


def findings(folder) -> pd.DataFrame:
    """Chapter 10's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone.

    Every quantity is always present; one whose table is missing or empty is not applicable (its
    sentence drops out of the words). Quantities per data set, detector, category or system carry
    it as ``group``. The chapter's detector is the one ``data_summary.csv`` names.

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS` plus extra columns some quantities use.
    """
    t = {name: read_saved(folder, name) for name in FINDINGS_INPUTS}
    f = Findings()
    d = t["data_summary"]
    detector = d["detector"].iloc[0] if not d.empty else ""
    f.add("detector", text=detector)
    for _, r in d.iterrows():
        where = (f"in {r['idiom_documents']:g} of {r['documents']:g} documents" if r["documents"] < r["segments"]
                 else "and the file names no documents, so each segment is its own cluster")
        f.add("dataset", r["idiom_segments"], group=r["dataset"], text=r["file"], segments=r["segments"],
              systems=r["systems"], documents=r["documents"], idiom_documents=r["idiom_documents"], where=where)
    if d.empty:
        f.add("dataset")
    f.add("idiom_segments", int(d["idiom_segments"].sum()) if not d.empty else None,
          text=str(int(d["segments"].sum())) if not d.empty else "")

    p = t["detector_precision"]
    for _, r in p.iterrows():
        f.add("precision", r["precision"], group=r["detector"], ci=(r["precision_low"], r["precision_high"]),
              kept=r["kept"], recall=r["recall"], psucmc_found=r["psucmc_found"], psucmc_words=r["psucmc_words"])
    if p.empty:
        f.add("precision")
    own = p[p["detector"] == detector] if not p.empty else p
    f.add("psucmc_found", own["psucmc_found"].iloc[0] if len(own) else None,
          text=str(own["psucmc_words"].iloc[0]) if len(own) else "")

    m = t["penalty_means"]
    if not m.empty:
        wide = m.pivot_table(index="dataset", columns="idiom", values="mean_score", sort=False)
        for dataset, r in wide.iterrows():
            idiom_mean, other_mean = r.get(True, np.nan), r.get(False, np.nan)
            f.add("raw_difference", idiom_mean - other_mean if pd.notna(idiom_mean) else None, group=dataset,
                  idiom_mean=idiom_mean, other_mean=other_mean)
    else:
        f.add("raw_difference")

    e = t["idiom_effects"]
    main = e[(e["detector"] == detector) & (e["method"] == "mixed")].dropna(subset=["estimate"]) if not e.empty else e
    for _, r in main.iterrows():
        f.add("effect", r["estimate"], group=r["dataset"], ci=(r["ci_low"], r["ci_high"]), mdd=r["mdd_80"],
              idiom_segments=r["idiom_segments"])
        f.add("few_clusters", int(bool(r["few_clusters"])), group=r["dataset"], text=str(FEW_CLUSTERS))
    if main.empty:
        f.add("effect").add("few_clusters")
    f.add("any_effect", int(bool((main["ci_low"] > 0).any() or (main["ci_high"] < 0).any()))
          if not main.empty else None)
    f.add("largest_mdd", float(main["mdd_80"].max()) if not main.empty else None)
    f.add("smallest_mdd", float(main["mdd_80"].min()) if not main.empty else None)
    boot = e[e["method"] == "cluster_bootstrap"].dropna(subset=["estimate"]) if not e.empty else e
    for _, r in boot.iterrows():
        f.add("detector_effect", r["estimate"], group=f"{r['dataset']}, {r['detector']}",
              ci=(r["ci_low"], r["ci_high"]), idiom_segments=r["idiom_segments"])
    if boot.empty:
        f.add("detector_effect")
    flips = 0
    if not boot.empty:
        for _, part in boot.groupby("dataset"):
            signs = np.sign(part["estimate"]).unique()
            flips += int(len(signs) > 1)
    f.add("sign_flips", flips if not boot.empty else None)

    c = t["category_effects"].dropna(subset=["estimate"]) if not t["category_effects"].empty else pd.DataFrame()
    if not c.empty:
        c = c[(c["idiom_mean"] > 0) | (c["other_mean"] > 0)]
        for _, r in c.iterrows():
            f.add("category_effect", r["estimate"], group=f"{r['dataset']}, {r['category']}",
                  ci=(r["ci_low"], r["ci_high"]), idiom_mean=r["idiom_mean"], other_mean=r["other_mean"])
        biggest = c.loc[c["estimate"].abs().idxmax()]
        f.add("largest_category", biggest["estimate"], ci=(biggest["ci_low"], biggest["ci_high"]),
              text=f"{biggest['category']} ({biggest['dataset']})")
        f.add("categories_excluding_zero", int(((c["ci_low"] > 0) | (c["ci_high"] < 0)).sum()), text=str(len(c)))
    else:
        f.add("category_effect").add("largest_category").add("categories_excluding_zero")

    s = t["span_summary"]
    if not s.empty and s["spans"].iloc[0] > 0:
        r = s.iloc[0]
        f.add("span_observed", r["observed"], n=r["spans"], documents=r["documents"])
        f.add("span_chance", r["chance"])
        f.add("span_difference", r["difference"], ci=(r["ci_low"], r["ci_high"]))
        f.add("span_gathers", _excludes(r["ci_low"], r["ci_high"]))
        f.add("span_ratio", r["ratio"])
    else:
        f.add("span_observed").add("span_chance").add("span_difference").add("span_gathers").add("span_ratio")

    se = t["system_effects"].dropna(subset=["estimate"]) if not t["system_effects"].empty else pd.DataFrame()
    for dataset, part in (se.groupby("dataset", sort=False) if not se.empty else []):
        hi, lo = part.loc[part["estimate"].idxmax()], part.loc[part["estimate"].idxmin()]
        f.add("system_range", hi["estimate"] - lo["estimate"], group=dataset,
              excluding_zero=int(((part["ci_low"] > 0) | (part["ci_high"] < 0)).sum()), systems=len(part))
        f.add("system_high", hi["estimate"], group=dataset, text=hi["system"])
        f.add("system_low", lo["estimate"], group=dataset, text=lo["system"])
    if se.empty:
        f.add("system_range").add("system_high").add("system_low")

    lc = t["llm_contrast"].dropna(subset=["estimate"]) if not t["llm_contrast"].empty else pd.DataFrame()
    for _, r in lc.iterrows():
        f.add("llm_difference", r["estimate"], group=r["dataset"], ci=(r["ci_low"], r["ci_high"]), mdd=r["mdd_80"],
              text=r["llm_systems"])
    if lc.empty:
        f.add("llm_difference")

    _contrast(f, t["rater_agreement"], "alpha", "alpha_lower", ("units", "documents"))
    _contrast(f, t["metric_agreement"], "metric_r", "metric_differs", ("cells", "segments"))
    return f.frame()


def _contrast(f, table: pd.DataFrame, prefix: str, flag: str, counts: tuple[str, str]) -> None:
    """The findings of an idiom/other/difference table (:func:`helpers.figurative.analysis`'s
    contrasts): ``<prefix>_idiom``, ``_other``, ``_difference`` with their intervals and
    ``counts``, and ``flag``, whether the difference's interval excludes 0."""
    rows = table.set_index("group") if not table.empty else pd.DataFrame()
    for g in ("idiom", "other", "difference"):
        if g in rows.index and pd.notna(rows.loc[g, "estimate"]):
            f.add(f"{prefix}_{g}", rows.loc[g, "estimate"], ci=(rows.loc[g, "ci_low"], rows.loc[g, "ci_high"]),
                  **{c: rows.loc[g, c] for c in counts})
        else:
            f.add(f"{prefix}_{g}")
    f.add(flag, _excludes(rows.loc["difference", "ci_low"], rows.loc["difference", "ci_high"])
          if "difference" in rows.index else None)


__all__ = ["Data", "Setup", "setup", "findings", "gallery", "gallery_html",
           "FINDINGS_INPUTS", "MIN_IDIOM_SEGMENTS"]
