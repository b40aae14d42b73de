"""What chapter 10 needs besides the statistics: checked parameters, data with provenance, steps, findings.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks every
parameter before any work and raises :class:`~helpers.core.errors.InputError` naming the
parameter. ``setup.load()`` returns :class:`Data`: WMT22 ZH→EN (the chapter's main set, an
mt-metrics-eval copy with Song & Xu's gold labels, :mod:`helpers.figurative.wmt22` and
:mod:`helpers.figurative.gold`), the MQM rows of TED and WMT23, and one segment table of the
four sets (penalty, idiom flag and every detector's flag per system and segment), with its
:class:`~helpers.core.book.report.Provenance`. The steps take that box and return tidy frames, which
the chapter saves as its result CSVs; :func:`findings` reads them back by their public names
(:data:`FINDINGS_INPUTS`) and returns every number the page states, section by section
(:mod:`helpers.figurative.page`); the sentences are ``notebooks/words/10_figurative.md``. The
statistics are :mod:`helpers.figurative.design`, :mod:`~helpers.figurative.analysis` and
:mod:`~helpers.figurative.metric_gaps`, the figures :mod:`helpers.figurative.figures`.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import cache, params, paths
from ..core.book.findings import Words
from ..core.book.report import ChapterData, Provenance
from ..core.errors import InputError
from ..core.formats import annotations as ann
from ..core.formats import mqm, testsets
from . import analysis, design, error_spans, gold, idioms, metric_gaps, page, template, wmt22

CHAPTER = "10_figurative"  # its words file: notebooks/words/10_figurative.md (the data box reads it too)
#: The default of the ``llm_systems`` parameter: WMT23's two LLM-based systems (GPT-4 prompted with five
#: examples; Lan-BridgeMT, built on an LLM). A file whose systems have other names needs its own list.
LLM_SYSTEMS = ("GPT4-5shot", "Lan-BridgeMT")
#: The columns an MQM error file given for ``ted`` or ``wmt23`` must name when it has a header.
MQM_COLUMNS = ("system", "doc", "rater", "source", "target", "category", "severity")
#: The gallery's segments and systems per segment.
GALLERY_SEGMENTS, GALLERY_SYSTEMS = 4, 3
#: The book's own metrics on WMT22, by chapter 09's sacrebleu functions (``helpers.metrics.scores``).
BOOK_METRICS = {"bleu": "BLEU (book)", "chrf": "chrF (book)"}
MIN_IDIOM_SEGMENTS = design.MIN_IDIOM_SEGMENTS
#: What the ``idiom`` flag of WMT22 means when the gold labels are read.
GOLD_FLAG = "gold:idiom"


@dataclass(frozen=True)
class Data(ChapterData):
    rows: dict = None  # dataset -> MQM annotation rows (ted, wmt23)
    segments: pd.DataFrame = None  # every set's rated (system, segment): score, idiom flag, det_<detector> flags
    wmt22: object = None  # the mt-metrics-eval set (helpers.core.formats.mtme.MtmeSet)
    classes: pd.DataFrame = None  # gold.segment_classes of WMT22's sources (None without labels)
    files: dict = None  # dataset -> the file read
    idiom_by: dict = None  # dataset -> what its idiom flag is (the detector, or gold:idiom)


@dataclass(frozen=True)
class Setup:
    """Chapter 10's checked parameters (see the chapter's parameters cell)."""

    newstest2021: Path | None
    newstest2021_source: Path | None
    ted: Path | None
    wmt23: Path | None
    wmt22: Path | None
    wmt22_labels: Path | None
    detector: str
    llm_systems: tuple
    min_idiom_segments: int
    n_boot: int
    seed: int

    @property
    def released(self) -> bool:
        return all(
            f is None
            for f in (self.newstest2021, self.newstest2021_source, self.ted, self.wmt23, self.wmt22, self.wmt22_labels)
        )

    def load(self) -> Data:
        """The data box: the released files, or those given as parameters in their place."""
        files = {
            "wmt22": str(self.wmt22 or testsets.get("wmt22").relpath("directory")),
            "newstest2021": str(self.newstest2021 or testsets.get("newstest2021").relpath("mqm_scores")),
            "ted": str(self.ted or testsets.get("ted").relpath("mqm")),
            "wmt23": str(self.wmt23 or testsets.get("generaltest2023").relpath("mqm")),
        }
        rows = {d: read_mqm(getattr(self, d) or analysis.released(d, "mqm")) for d in ("ted", "wmt23")}
        for d in ("ted", "wmt23"):
            analysis.require_source(rows[d], getattr(self, d) or files[d])
        es = wmt22_set(self.wmt22)
        labels = self.wmt22_labels or (testsets.get("wmt22").file("mwe_labels") if self.wmt22 is None else None)
        classes = gold_classes(labels, len(es.sources)) if labels is not None else None
        table = wmt22.segment_table(es, classes, self.detector)
        idiom_by = {"wmt22": GOLD_FLAG if classes is not None else self.detector}
        if classes is not None:
            table["idiom"] = table["gold_idiom"].astype(bool)
        tables = [
            table,
            analysis.segment_table("newstest2021", self.newstest2021, self.newstest2021_source, self.detector),
        ]
        tables += [analysis.segment_table(d, detector=self.detector, rows=rows[d]) for d in ("ted", "wmt23")]
        for d in ("newstest2021", "ted", "wmt23"):
            idiom_by[d] = self.detector
        segments = analysis.flag_all(pd.concat(tables, ignore_index=True))
        segments["human"] = segments["human"].fillna(False).astype(bool)
        given = [
            str(p)
            for p in (self.wmt22, self.wmt22_labels, self.newstest2021, self.newstest2021_source, self.ted, self.wmt23)
            if p is not None
        ]
        provenance = (
            Provenance.worded("released", CHAPTER) if self.released else Provenance.worded("own", CHAPTER, given)
        )
        return Data(provenance, rows=rows, segments=segments, wmt22=es, classes=classes, files=files, idiom_by=idiom_by)


def read_mqm(path: Path) -> pd.DataFrame:
    """An MQM file's rows, read once per content: cached under ``.cache/wmt-mqm-read`` with the key
    chapter 08 uses, so the two chapters share the entry (reading the three-rater archive is slow)."""
    from ..core.formats.fetch import sha256_of

    return cache.cached(
        "wmt-mqm-read",
        1,
        [sha256_of(path), None],
        lambda: mqm.read_mqm(path),
        describe=f"{Path(path).name} read as annotations",
    )


def wmt22_set(directory):
    """WMT22 ZH→EN as an mt-metrics-eval set: the registered copy, or ``directory`` in that layout."""
    from ..core.formats import mtme

    return testsets.get("wmt22").load() if directory is None else mtme.read_mtme(directory, lp="zh-en")


def gold_classes(path, segments: int) -> pd.DataFrame:
    """:func:`helpers.figurative.gold.segment_classes` of a labels file, which must label as many
    sources as the set has (an :class:`InputError` naming the file otherwise)."""
    labels = gold.read_labels(path)
    if labels["segment"].nunique() != segments:
        raise InputError(
            "labels a different number of sources than the set has",
            file=path,
            value=labels["segment"].nunique(),
            expected=f"{segments} entries, one per source line",
        )
    return gold.segment_classes(labels, segments)


def check_mqm_header(name: str, path: Path) -> None:
    """A plain-text MQM file whose first line is a header must name every column of
    :data:`MQM_COLUMNS`; a missing one is named (the reader is positional: without the check a
    file without its ``source`` column fails later on a severity that is really a category)."""
    if path.suffix not in (".tsv", ".txt"):
        return
    with open(path, encoding="utf-8-sig", errors="replace") as fh:
        header = fh.readline().rstrip("\n").split("\t")
    if header and header[0].strip().lower() == "system":
        names = {h.strip().lower() for h in header}
        missing = [c for c in MQM_COLUMNS if c not in names]
        if missing:
            raise InputError(
                "missing column(s) " + ", ".join(missing),
                parameter=name,
                file=path,
                expected="a header " + ", ".join(MQM_COLUMNS) + " (in this order, with doc ids between)",
            )


def setup(
    newstest2021=None,
    newstest2021_source=None,
    ted=None,
    wmt23=None,
    wmt22=None,
    wmt22_labels=None,
    detector="xinhua",
    llm_systems=LLM_SYSTEMS,
    min_idiom_segments=MIN_IDIOM_SEGMENTS,
    n_boot=1000,
    seed=0,
    results_dir="results",
) -> Setup:
    """Check chapter 10's parameters before any work (each problem names its parameter).

    ``wmt22`` (a folder in mt-metrics-eval's layout, ZH→EN) with ``wmt22_labels`` (Song & Xu's
    ``all.json`` form; without it an own ``wmt22`` is flagged by ``detector``), ``newstest2021``
    (an ``*.avg_seg_scores.tsv``) with ``newstest2021_source`` (both or neither), ``ted`` and
    ``wmt23`` (MQM TSVs with the source) replace the released files. ``detector``: one of
    :data:`helpers.figurative.idioms.DETECTORS`; ``llm_systems``: the systems counted as LLM-based
    (default :data:`LLM_SYSTEMS`); ``min_idiom_segments``: below it a set is not estimable.
    """
    if (newstest2021 is None) != (newstest2021_source is None):
        missing = "newstest2021_source" if newstest2021_source is None else "newstest2021"
        raise InputError(
            "is needed with the other of newstest2021, newstest2021_source", parameter=missing, expected="a file"
        )
    params.text("results_dir", str(results_dir))

    def file(name, value):
        return params.existing_file(name, value) if value is not None else None

    for name, value in (("ted", ted), ("wmt23", wmt23)):
        if value is not None:
            check_mqm_header(name, params.existing_file(name, value))
    if wmt22 is not None and not Path(wmt22).is_dir():
        raise InputError(
            "no such folder",
            parameter="wmt22",
            value=str(wmt22),
            expected="a folder in mt-metrics-eval's layout (sources/, system-outputs/, human-scores/)",
        )
    if isinstance(llm_systems, str) or not all(isinstance(s, str) for s in llm_systems):
        raise InputError(
            "must be a list of system names",
            parameter="llm_systems",
            value=llm_systems,
            expected="e.g. [GPT4-5shot, Lan-BridgeMT]",
        )
    return Setup(
        newstest2021=file("newstest2021", newstest2021),
        newstest2021_source=file("newstest2021_source", newstest2021_source),
        ted=file("ted", ted),
        wmt23=file("wmt23", wmt23),
        wmt22=Path(wmt22) if wmt22 is not None else None,
        wmt22_labels=file("wmt22_labels", wmt22_labels),
        detector=params.choice("detector", detector, list(idioms.DETECTORS)),
        llm_systems=tuple(llm_systems),
        min_idiom_segments=params.integer("min_idiom_segments", min_idiom_segments, minimum=2),
        n_boot=params.integer("n_boot", n_boot, minimum=100),
        seed=params.integer("seed", seed, minimum=0),
    )


# --------------------------------------------------------------------------- steps
def analysed(box: Data, dataset: str | None = None) -> pd.DataFrame:
    """The rows the idiom analyses use: machine translations (WMT22's rated references left out)."""
    s = box.segments[~box.segments["human"]]
    return s if dataset is None else s[s["dataset"] == dataset]


def description(box: Data, setup: Setup) -> pd.DataFrame:
    """The run's data per data set (``data_summary.csv``): ``dataset, file, detector, idiom_by,
    systems, system_names, human_systems, segments, documents, domains, rows, idiom_segments,
    idiom_documents, estimable, min_idiom_segments, llm_systems`` (the last two: the parameters)."""
    out = []
    for dataset, part in box.segments.groupby("dataset", sort=False):
        mt = part[~part["human"]]
        idiom = mt[mt["idiom"]]
        n_idiom = idiom["segment"].nunique()
        out.append(
            {
                "dataset": dataset,
                "file": box.files[dataset],
                "detector": setup.detector,
                "idiom_by": box.idiom_by[dataset],
                "systems": mt["system"].nunique(),
                "system_names": "; ".join(sorted(mt["system"].unique())),
                "human_systems": "; ".join(sorted(part.loc[part["human"], "system"].unique())),
                "segments": mt["segment"].nunique(),
                "documents": mt["doc"].nunique(),
                "domains": mt["domain"].fillna("").replace("", np.nan).nunique(),
                "rows": len(mt),
                "idiom_segments": n_idiom,
                "idiom_documents": idiom["doc"].nunique(),
                "estimable": bool(min(n_idiom, mt["segment"].nunique() - n_idiom) >= setup.min_idiom_segments),
                "min_idiom_segments": setup.min_idiom_segments,
                "llm_systems": ", ".join(setup.llm_systems),
            }
        )
    return pd.DataFrame(out)


def detector_precision() -> pd.DataFrame:
    """Each detector's precision on the authored sample (figurative use), and how many of PSUCMC's
    metaphor words it finds: :func:`helpers.figurative.idioms.precision_table` with
    ``psucmc_words, psucmc_found``; empty where the sample's labels are held back (the student kit
    before the class activity), which the page says."""
    if not (paths.project_root() / idioms.SAMPLE_FILE).is_file():  # the student kit holds the labels back
        return pd.DataFrame(columns=[*idioms.PRECISION_COLUMNS, "psucmc_words", "psucmc_found"])
    table = idioms.precision_table(idioms.read_sample())
    found = {d: idioms.psucmc_coverage(detector=d)["found"] for d in table["detector"]}
    table["psucmc_words"] = [len(found[d]) for d in table["detector"]]
    table["psucmc_found"] = [int(found[d].sum()) for d in table["detector"]]
    return table


def labeller_agreement() -> pd.DataFrame:
    """How far the authored sample's two labellers agree (``label`` A, ``label_b`` B, labelled blind by
    the data card's rule): :func:`helpers.figurative.template.agreement` (Cohen's κ) with each one's
    count of figurative matches; empty where the labels are held back or the sample has one labeller."""
    columns = ["items", "agreement", "kappa", "figurative_a", "figurative_b", "a_only", "b_only"]
    if not (paths.project_root() / idioms.SAMPLE_FILE).is_file():
        return pd.DataFrame(columns=columns)
    sample = idioms.read_sample()
    if "label_b" not in sample.columns:
        return pd.DataFrame(columns=columns)
    b = sample[["sample_id", "label_b"]].rename(columns={"sample_id": "item", "label_b": "label"})
    a, b_fig = sample["label"].eq("figurative"), sample["label_b"].eq("figurative")
    row = template.agreement(b, sample[["sample_id", "label"]])
    row.update(
        figurative_a=int(a.sum()),
        figurative_b=int(b_fig.sum()),
        a_only=int((a & ~b_fig).sum()),
        b_only=int((b_fig & ~a).sum()),
    )
    return pd.DataFrame([row], columns=columns)


def detector_gold(box: Data) -> pd.DataFrame:
    """Each detector against Song & Xu's gold on WMT22 (:func:`helpers.figurative.gold.detector_scores`);
    empty without labels."""
    if box.classes is None:
        return pd.DataFrame(columns=gold.SCORE_COLUMNS)
    sources = pd.Series(box.wmt22.sources, index=range(1, len(box.wmt22.sources) + 1))
    return gold.detector_scores(sources, box.classes)


def penalty_means(box: Data) -> pd.DataFrame:
    """Mean MQM penalty of idiom and other segments per data set, uncontrolled:
    ``dataset, idiom, cells, segments, mean_score``."""
    return (
        analysed(box)
        .groupby(["dataset", "idiom"], sort=False)
        .agg(cells=("score", "size"), segments=("segment", "nunique"), mean_score=("score", "mean"))
        .reset_index()
    )


def _flags(box: Data, dataset: str) -> dict:
    """The flags compared on a data set: its idiom flag (gold on WMT22), the other gold definition,
    and every detector: name -> column."""
    out = {box.idiom_by[dataset]: "idiom"}
    if dataset == "wmt22" and box.classes is not None:
        out["gold:idi"] = "gold_idi"
    out.update({d: f"det_{d}" for d in idioms.DETECTORS if d != box.idiom_by[dataset]})
    return out


def effects(box: Data, setup: Setup, progress=None) -> pd.DataFrame:
    """The controlled idiom effect per data set and flag (:func:`helpers.figurative.design.idiom_effect`:
    document-cluster bootstrap, MDD, not estimable below ``min_idiom_segments``; the segment-level
    permutation test for each set's own flag and WMT22's chengyu gold), and pooled over the estimable sets with their own idiom flag
    (:func:`~helpers.figurative.design.pooled_effect`, in standard deviations of each set's penalty):
    ``dataset, detector`` and :data:`~helpers.figurative.design.EFFECT_COLUMNS`."""
    frames, pooled = [], []
    jobs = [(d, name, column) for d in box.segments["dataset"].unique() for name, column in _flags(box, d).items()]
    for dataset, name, column in progress(jobs) if progress else jobs:
        part = analysed(box, dataset)
        got = design.idiom_effect(
            part,
            flag=column,
            n_boot=setup.n_boot,
            seed=setup.seed,
            n_perm=None if column in ("idiom", "gold_idi") else 0,
            min_segments=setup.min_idiom_segments,
        )
        if column == "idiom" and bool(got["estimable"].iloc[0]):
            pooled.append(part)
        frames.append(got.assign(dataset=dataset, detector=name))
    if len(pooled) > 1:
        frames.append(
            design.pooled_effect(
                pd.concat(pooled, ignore_index=True),
                n_boot=setup.n_boot,
                seed=setup.seed,
                min_segments=setup.min_idiom_segments,
            ).assign(dataset="pooled", detector="each set's own")
        )
    out = pd.concat(frames, ignore_index=True)
    return (
        out[["dataset", "detector", "sets"] + design.EFFECT_COLUMNS]
        if "sets" in out
        else out.assign(sets=np.nan)[["dataset", "detector", "sets"] + design.EFFECT_COLUMNS]
    )


def mwe_contrast(box: Data, setup: Setup) -> pd.DataFrame:
    """Figurativeness or multiword-ness: :func:`helpers.figurative.design.class_contrast` of WMT22's
    idiom, non-figurative multiword, named-entity-only and plain segments; empty without labels."""
    if box.classes is None:
        return pd.DataFrame(
            columns=["contrast", "estimate", "se", "ci_low", "ci_high", "mdd_80", "segments_a", "segments_b"]
        )
    return design.class_contrast(analysed(box, "wmt22"), n_boot=setup.n_boot, seed=setup.seed)


def per_system(box: Data, setup: Setup) -> pd.DataFrame:
    """The idiom effect per system (:func:`helpers.figurative.design.system_effects`) of every data set;
    a set below ``min_idiom_segments`` gives rows that are not estimable."""
    return design.system_effects(
        analysed(box),
        llm=setup.llm_systems,
        n_boot=setup.n_boot,
        seed=setup.seed,
        min_segments=setup.min_idiom_segments,
    )


def llm_versus_others(box: Data, setup: Setup) -> pd.DataFrame:
    """The LLM-based systems' idiom effect minus the others' (:func:`helpers.figurative.design.group_contrast`)
    per data set: ``dataset, llm_systems`` (those of ``setup.llm_systems`` the set has, empty when none),
    ``other_systems, estimate, se, ci_low, ci_high, mdd_80, idiom_segments, documents, estimable``."""
    frames = [
        design.group_contrast(
            part, list(setup.llm_systems), n_boot=setup.n_boot, seed=setup.seed, min_segments=setup.min_idiom_segments
        ).assign(dataset=d)
        for d, part in analysed(box).groupby("dataset", sort=False)
    ]
    out = pd.concat(frames, ignore_index=True).rename(columns={"group_systems": "llm_systems"})
    return out[["dataset"] + [c for c in out.columns if c != "dataset"]]


def human_translations(box: Data, setup: Setup) -> pd.DataFrame:
    """Do idioms cost human translations too? On WMT22 (its references are MQM-rated): the idiom
    effect of the human translations alone, of the machine translations alone, and the difference
    (:func:`helpers.figurative.design.group_contrast` on both): ``group`` (``human``, ``mt``,
    ``difference``), ``systems, estimate, se, ci_low, ci_high, mdd_80, idiom_segments, estimable``."""
    part = box.segments[box.segments["dataset"] == "wmt22"]
    humans = sorted(part.loc[part["human"], "system"].unique())
    rows = []
    for group, rows_ in (("human", part[part["human"]]), ("mt", part[~part["human"]])):
        got = design.idiom_effect(
            rows_, n_boot=setup.n_boot, seed=setup.seed, n_perm=0, min_segments=setup.min_idiom_segments
        ).iloc[0]
        rows.append(
            {
                "group": group,
                "systems": "; ".join(sorted(rows_["system"].unique())),
                **{c: got[c] for c in ("estimate", "se", "ci_low", "ci_high", "mdd_80", "idiom_segments", "estimable")},
            }
        )
    diff = design.group_contrast(
        part, humans, n_boot=setup.n_boot, seed=setup.seed, min_segments=setup.min_idiom_segments
    ).iloc[0]
    rows.append(
        {
            "group": "difference",
            "systems": diff["group_systems"],
            **{c: diff[c] for c in ("estimate", "se", "ci_low", "ci_high", "mdd_80", "idiom_segments", "estimable")},
        }
    )
    return pd.DataFrame(rows)


def metric_table(box: Data, own_scores) -> pd.DataFrame:
    """WMT22's metric scores of the rated machine translations, with the book's own BLEU and chrF
    (``own_scores(es)``: chapter 09's :func:`helpers.metrics.wmt22.own_scores`, ``system, segment, metric,
    score, doc`` of every rated output against reference A, cached once for both chapters under
    ``.cache/wmt22_own_scores``), kept for the systems analysed here: ``metric, system, segment, score``.
    The published files' scores are cached under ``.cache/figurative-metric-files`` by their contents."""
    from ..core.formats.fetch import sha256_of

    systems = sorted(analysed(box, "wmt22")["system"].unique())
    files = [box.wmt22.metric_files[n, "seg"] for n in box.wmt22.metric_names(level="seg")]
    published = cache.cached(  # 31 files parsed line by line: read once per content
        "figurative-metric-files",
        1,
        [[(Path(f).name, sha256_of(f)) for f in files], systems],
        lambda: wmt22.metric_table(box.wmt22, systems),
        describe=f"{len(files)} WMT22 segment-level metric files read",
    )
    own = own_scores(box.wmt22).dropna(subset=["segment"])
    own = own[own["system"].isin(systems) & own["metric"].isin(list(BOOK_METRICS))]
    own = own.assign(
        order=own["metric"].map({m: k for k, m in enumerate(BOOK_METRICS)}),
        metric=own["metric"].map(BOOK_METRICS),
        segment=own["segment"].astype(int),
    ).sort_values(["order", "system", "segment"], kind="stable")  # metric by metric, systems sorted, in order
    own = own.assign(segment=own["segment"].astype(str))
    return pd.concat([published, own[["metric", "system", "segment", "score"]]], ignore_index=True)


def metric_residuals(box: Data, metrics: pd.DataFrame, setup: Setup, progress=None) -> pd.DataFrame:
    """:func:`helpers.figurative.metric_gaps.residual_effects` on WMT22's machine translations
    (not estimable below ``min_idiom_segments``, as every other step)."""
    return metric_gaps.residual_effects(
        analysed(box, "wmt22"),
        metrics,
        n_boot=setup.n_boot,
        seed=setup.seed,
        progress=progress,
        min_segments=setup.min_idiom_segments,
    )


def metric_accuracy(box: Data, metrics: pd.DataFrame, accuracy, setup: Setup, progress=None) -> pd.DataFrame:
    """:func:`helpers.figurative.metric_gaps.accuracy_by_group` on WMT22's machine translations, cached
    under ``.cache/figurative-accuracy`` by its inputs (the threshold search of a thousand resamples
    per metric and group is the chapter's slowest step)."""
    cells = analysed(box, "wmt22")[["system", "segment", "doc", "score", "idiom"]]

    def compute():
        return metric_gaps.accuracy_by_group(
            cells, metrics, accuracy, n_boot=setup.n_boot, seed=setup.seed, progress=progress
        )

    return cache.cached("figurative-accuracy", 2, [cells, metrics, setup.n_boot, setup.seed], compute)


def hadqaet_tags(posts: pd.DataFrame, setup: Setup) -> pd.DataFrame:
    """HADQAET's source-side word tags on idiom tokens against the others, posts as clusters
    (:func:`helpers.figurative.analysis.token_tags` with the chapter's detector); ``posts`` as
    chapter 07 reads them (``helpers.slang.qe_data.load_split``, every split)."""
    return analysis.token_tags(posts, setup.detector, n_boot=setup.n_boot, seed=setup.seed)


def categories(box: Data, setup: Setup) -> pd.DataFrame:
    """:func:`helpers.figurative.analysis.category_effects` of TED and WMT23 (the files with error
    categories) that are estimable."""
    s = analysed(box)
    enough = s[s["idiom"]].groupby("dataset")["segment"].nunique()
    keep = [d for d in box.rows if enough.get(d, 0) >= setup.min_idiom_segments]
    if not keep:
        return analysis.category_effects(pd.DataFrame(columns=["dataset", "category", "segment", "score", "idiom"]))
    cats = pd.concat(
        [analysis.category_table(box.rows[d], setup.detector).assign(dataset=d) for d in keep], ignore_index=True
    )
    return analysis.category_effects(cats, n_boot=setup.n_boot, seed=setup.seed)


def spans(box: Data, detector: str) -> pd.DataFrame:
    """WMT23's source-side error spans in idiom segments (:func:`helpers.figurative.error_spans.span_overlap`)."""
    return error_spans.span_overlap(box.rows["wmt23"], detector)


def rater_agreement(box: Data, detector: str, n_boot: int, seed: int) -> pd.DataFrame:
    """α on idiom and other segments of WMT23's three-rater file
    (:func:`helpers.figurative.analysis.agreement_by_idiom`)."""
    return analysis.agreement_by_idiom(box.rows["wmt23"], detector, n_boot=n_boot, seed=seed)


# --------------------------------------------------------------------------- the gallery
def gallery(box: Data, detector: str, segments: int = GALLERY_SEGMENTS, systems: int = GALLERY_SYSTEMS) -> pd.DataFrame:
    """A few WMT23 idiom segments to read: for each, the best, a middle and the worst system.

    The segments are those with an idiom where the raters marked the most source-side error
    spans on an idiom (ties: most errors), first ``segments`` of them. One row per error (or one
    row with empty error columns for a translation without error): ``segment, source, idioms``
    (the matches, ``|``-separated), ``system, score, target`` (clean), ``rater, category,
    severity, span`` (the marked text) and ``side`` (``source`` or ``target``).
    """
    rows = box.rows["wmt23"]
    seg = box.segments[(box.segments["dataset"] == "wmt23") & box.segments["idiom"]]
    columns = [
        "segment",
        "source",
        "idioms",
        "system",
        "score",
        "target",
        "rater",
        "category",
        "severity",
        "span",
        "side",
    ]
    if seg.empty:
        return pd.DataFrame(columns=columns)
    sp = error_spans.span_overlap(rows, detector)
    on_idiom = sp[sp["overlap"]].assign(segment=lambda f: f["doc"] + ":" + f["doc_seg_id"].astype(str))
    rank = (
        seg.groupby("segment")
        .agg(errors=("score", "sum"))
        .join(on_idiom.groupby("segment").size().rename("on_idiom"))
        .fillna(0)
    )
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
            base = {
                "segment": key,
                "source": source,
                "idioms": "|".join(found),
                "system": p.system,
                "score": p.score,
                "target": target,
            }
            errors = r[~r["severity"].isin([ann.NO_ERROR, ann.HOTW])]
            if errors.empty:
                out.append(base | {"rater": "", "category": "", "severity": "", "span": "", "side": ""})
            for e in errors.itertuples(index=False):
                side = "source" if pd.notna(e.source_start) and e.source_end > e.source_start else "target"
                text = ann.clean_text(pd.Series([e.source if side == "source" else e.target])).iloc[0]
                a, b = (e.source_start, e.source_end) if side == "source" else (e.target_start, e.target_end)
                span = text[int(a) : int(b)] if pd.notna(a) and pd.notna(b) else ""
                out.append(
                    base
                    | {"rater": e.rater, "category": e.category, "severity": e.severity, "span": span, "side": side}
                )
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
            covered[start : start + len(part)] = True
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
            listed = "".join(
                say(
                    "gallery_error",
                    severity=html.escape(e.severity),
                    category=html.escape(e.category),
                    rater=html.escape(e.rater),
                    side=str(e.side),
                    span=html.escape(e.span) or "—",
                )
                for e in errors.itertuples()
            )
            items.append(
                say(
                    "gallery_system",
                    system=html.escape(system),
                    penalty=part["score"].iloc[0],
                    target=_marked(part["target"].iloc[0], spans),
                    errors=say("gallery_errors", listed=listed) if listed else say("gallery_no_error"),
                )
            )
        blocks.append(
            say(
                "gallery_segment",
                segment=html.escape(key),
                source=_marked(seg["source"].iloc[0], found),
                systems="".join(items),
            )
        )
    return "".join(blocks)


# --------------------------------------------------------------------------- findings
#: The result files :func:`findings` reads (``results/10_figurative/<name>.csv``).
FINDINGS_INPUTS = page.INPUTS


def findings(folder, section: str | None = None) -> pd.DataFrame:
    """Chapter 10's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone
    (:func:`helpers.figurative.page.findings`).

    Parameters
    ----------
    folder
        The chapter's result folder (``results/10_figurative``, or the run's staging folder).
    section
        One section of the words (:data:`helpers.figurative.page.SECTIONS`), or None: every
        section's, each row with its ``section`` (``findings.csv``).

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS` plus extra columns some quantities use.
    """
    return page.findings(folder, section)


__all__ = [
    "Data",
    "Setup",
    "setup",
    "description",
    "findings",
    "gallery",
    "gallery_html",
    "FINDINGS_INPUTS",
    "LLM_SYSTEMS",
    "MIN_IDIOM_SEGMENTS",
]
