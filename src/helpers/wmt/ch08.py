"""Chapter 08 (WMT expert MQM and ESA): checked parameters, the data boxes, their descriptions, findings.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks every
parameter before any work and raises :class:`~helpers.core.errors.InputError` naming the
parameter. ``setup.load()`` reads the MQM files (cached under ``.cache/wmt-mqm-read`` keyed by
the files' sha256: reading the three-rater archive with its texts is the slowest step) and
returns :class:`Data` with its :class:`~helpers.core.book.report.Provenance`; ``setup.load_esa()``
returns section 6's :class:`EsaData`. :func:`description` and :func:`esa_description` describe
the two boxes (saved as ``data_summary.csv`` and ``esa_summary.csv``). The analyses are
:mod:`helpers.wmt.analysis`; :func:`findings` (:mod:`helpers.wmt.ch08_findings`, imported here)
reads the chapter's saved tables back by their public names (:data:`FINDINGS_INPUTS`) and
returns every number the page states, so the findings can be recomputed and tested from
``results/08_wmt_mqm/*.csv`` alone; the sentences and the verdicts' phrases are
``notebooks/words/08_wmt_mqm.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..core import cache, params, paths
from ..core.book.findings import Findings
from ..core.book.report import ChapterData, Provenance
from ..core.errors import InputError
from ..core.formats import annotations as ann
from ..core.formats import esa, esa_rankings, mqm, testsets
from .analysis import THREE_RATER_FILE
from .categories_and_spans import span_coverage
from .ch08_findings import FINDINGS_INPUTS, PAIRS_SHOWN, findings, ratio_findings
from .ch08_saved import _listing, _span
from .readme_tables import REPO, TABLES, TED_FILE, language_pair, pair_names, tables_for

MQM_SUFFIXES = (".tsv", ".txt", ".gz", ".tgz", ".tar")
RELEASED_DETAIL = (
    "Google's expert MQM ratings of WMT submissions (google/wmt-mqm-human-evaluation at the "
    "pinned commit, Apache-2.0), Chinese to English, sha256-verified by "
    "<code>.venv/bin/python -m helpers fetch</code>."
)
OWN_DETAIL = "MQM files passed to this notebook as papermill parameters."
#: The mirrored WMT24 release (data/sources.yml): the ESA waves and the organisers' automatic ranking.
ESA_REPO, ESA_FILES = testsets.get("wmt24-esa").files["esa"]
AUTORANK_FILE = testsets.get("wmt24-esa").relpath("autorank_report")
ESA_SUFFIXES = (".csv", ".jsonl")
ESA_RELEASED_DETAIL = (
    "The WMT24 organisers' ESA ratings, waves 2 and 3 (wmt-conference/wmt24-news-systems at the "
    "pinned commit; no licence file upstream), and their <em>automatic</em> preliminary ranking "
    "<code>report/generated_report.tex</code>, sha256-verified by <code>.venv/bin/python -m helpers fetch</code>."
)
ESA_OWN_DETAIL = "ESA files passed to this notebook as papermill parameters (<code>esa_files</code>)."


@dataclass(frozen=True)
class Data(ChapterData):
    """Chapter 08's MQM data box (:meth:`Setup.load`): the two files read, their names and pairs."""

    errors: pd.DataFrame = None  # the annotations for the weight and system analyses (scoring columns)
    multi: pd.DataFrame = None  # the multi-rated annotations, with spans, for the agreement sections
    errors_name: str = ""
    multi_name: str = ""
    tables: dict | None = (
        None  # README tables about the files read: {table: (csv, file, kind)} (readme_tables.reproduce)
    )
    files: dict | None = None  # each table's file -> the local file
    pairs: tuple = ()  # language pair of the errors file and of the multi-rated file, e.g. ("zh", "en") or None
    pool_pairings: bool = True


@dataclass(frozen=True)
class EsaData(ChapterData):
    """Section 6's ESA data (:meth:`Setup.load_esa`)."""

    lp: str = ""
    ratings: pd.DataFrame = None  # every rating of the pair, as read
    kept: pd.DataFrame = None  # the ratings after the organisers' filters
    counts: pd.DataFrame = None  # lp, filter, dropped
    autorank: pd.DataFrame = None  # the organisers' automatic ranking of the pair (may be empty)
    files: tuple = ()
    report: str = ""


@dataclass(frozen=True)
class Setup:
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
    esa_files: tuple[Path, ...] | None = None  # None: the mirrored WMT24 waves 2 and 3
    esa_lp: str | None = "en-zh"  # the ESA pair of section 6; None: the files' only pair
    esa_report: Path | None = None  # None: the mirrored report/generated_report.tex

    @property
    def released(self) -> bool:
        return self.annotations is None and self.multi_rated is None

    def load(self) -> Data:
        """The MQM data box: the ``annotations`` and ``multi_rated`` files (by default the mirrored
        TED error rows and the WMT 2023 three-rater file), each checked for what its sections need."""
        errors_path = self.annotations or paths.released_file(REPO, TED_FILE)
        multi_path = self.multi_rated or (
            self.annotations if self.annotations else paths.released_file(REPO, THREE_RATER_FILE)
        )
        errors = _read(errors_path, "annotations", ann.SCORING_COLUMNS, self.pool_pairings)
        multi = _read(multi_path, "multi_rated", None, self.pool_pairings)
        per_unit = multi[multi["severity"] != ann.HOTW].groupby(["system", "doc", "doc_seg_id"])["rater"].nunique()
        if (per_unit >= 2).sum() == 0:
            raise InputError(
                "no segment of this file has two or more raters, so rater agreement cannot be measured",
                parameter="multi_rated",
                file=multi_path,
            )
        if errors["system"].nunique() < 2:
            raise InputError(
                "has one system; comparing systems needs two or more", parameter="annotations", file=errors_path
            )
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
        return Data(
            provenance,
            errors=errors,
            multi=multi,
            errors_name=Path(errors_path).name,
            multi_name=Path(multi_path).name,
            tables=tables or None,
            files=local,
            pairs=pairs,
            pool_pairings=self.pool_pairings,
        )

    def load_esa(self) -> EsaData:
        """Section 6's data: the ESA ratings of ``esa_lp`` after the organisers' filters,
        what each filter dropped, and the organisers' automatic ranking of that pair."""
        files = _esa_paths(self.esa_files)
        report = self.esa_report or paths.released_file(ESA_REPO, AUTORANK_FILE)
        ratings = _esa_ratings(files)
        lp = _esa_pair(ratings, self.esa_lp)
        ratings = ratings[ratings["lp"] == lp].reset_index(drop=True)
        kept, counts = esa.organisers_filter(ratings)
        if kept["system"].nunique() < 2:
            raise InputError("fewer than two systems are left after the organisers' filters", parameter="esa_files")
        try:
            autorank = esa_rankings.read_autorank(report)
        except InputError as exc:
            raise exc.located(parameter="esa_report") from None
        kind = "own" if self.esa_files else "released"
        provenance = Provenance(
            kind, tuple(str(f) for f in (*files, report)), ESA_OWN_DETAIL if self.esa_files else ESA_RELEASED_DETAIL
        )
        return EsaData(
            provenance,
            lp=lp,
            ratings=ratings,
            kept=kept,
            counts=counts,
            autorank=autorank[autorank["lp"] == lp].reset_index(drop=True),
            files=tuple(Path(f).name for f in files),
            report=Path(report).name,
        )


def _read(path: Path, parameter: str, columns, pool: bool) -> pd.DataFrame:
    """An MQM file read once per content (cached), with its pairings pooled when asked."""
    from ..core.formats.fetch import sha256_of  # the fetcher's file hash, imported only when a file is read

    def read():
        return mqm.read_mqm(path, columns=columns)

    try:
        frame = cache.cached(
            "wmt-mqm-read", 1, [sha256_of(path), columns], read, describe=f"{Path(path).name} read as annotations"
        )
    except InputError as exc:
        raise exc.located(parameter=parameter) from None
    return ann.pool_pairings(frame) if pool else frame


def _esa_paths(files: tuple[Path, ...] | None) -> tuple[Path, ...]:
    """The ESA files of section 6: those given, or the mirrored WMT24 waves 2 and 3."""
    return files or tuple(paths.released_file(ESA_REPO, f) for f in ESA_FILES)


def _esa_ratings(files: tuple[Path, ...]) -> pd.DataFrame:
    """The ESA files read once per content (cached: :func:`setup` reads them to check ``esa_lp``,
    :meth:`Setup.load_esa` again)."""
    from ..core.formats.fetch import sha256_of  # the fetcher's file hash, imported only when a file is read

    try:
        return cache.cached(
            "wmt-esa-read", 1, [sha256_of(f) for f in files], lambda: esa.read_many(files), describe="ESA files read"
        )
    except InputError as exc:
        raise exc.located(parameter="esa_files") from None


def _esa_pair(ratings: pd.DataFrame, lp: str | None) -> str:
    """The ``esa_lp`` the ESA ratings hold (None: their only pair), else an error naming the pairs they hold."""
    held = sorted(ratings["lp"].unique())
    if lp is None and len(held) > 1:
        raise InputError(
            f"the ESA files hold several language pairs ({', '.join(held)}); name one",
            parameter="esa_lp",
            expected="e.g. 'en-zh'",
        )
    lp = lp or held[0]
    if lp not in held:
        raise InputError(
            f"no ESA ratings of this pair (the files hold {', '.join(held)})",
            parameter="esa_lp",
            value=lp,
            expected=" or ".join(held),
        )
    return lp


def _mqm_file(name: str, value) -> Path | None:
    if value is None:
        return None
    if Path(str(value)).suffix.lower() in ESA_SUFFIXES:  # an ESA file where an MQM file belongs
        raise InputError(
            f"is not an MQM/Marot TSV ({Path(str(value)).suffix}): ESA ratings (.csv, .jsonl) go to "
            "esa_files, section 6",
            parameter=name,
            value=str(value),
            expected=f"{' or '.join(MQM_SUFFIXES)}; or -p esa_files {value}",
        )
    return params.existing_file(name, value, MQM_SUFFIXES)


def _language_pair(value) -> tuple[str, str] | None:
    """The ``language_pair`` parameter: None, or ``"zh-en"`` / ``"zhen"`` as two codes."""
    if value is None:
        return None
    pair = language_pair(str(value))
    if pair is None:
        raise InputError(
            "must name two language codes, source then target",
            parameter="language_pair",
            value=value,
            expected="e.g. 'en-de' or 'zh-en'; None reads it from the file name",
        )
    return pair


def _esa_files(value) -> tuple[Path, ...] | None:
    """The ``esa_files`` parameter: None, one path or a list of paths of ESA files."""
    if value is None:
        return None
    values = [value] if isinstance(value, (str, Path)) else value
    if not isinstance(values, (list, tuple)) or not values:
        raise InputError(
            "must be an ESA file or a list of them",
            parameter="esa_files",
            value=value,
            expected="e.g. ['esa_generalMT2024_wave2.csv', 'esa_generalMT2024_wave3.csv']; None: the "
            "mirrored WMT24 waves 2 and 3",
        )
    return tuple(params.existing_file("esa_files", v, ESA_SUFFIXES) for v in values)


def _esa_lp(value) -> str | None:
    """The ``esa_lp`` parameter: None or a pair written as the ESA files write it (``en-zh``)."""
    if value is None:
        return None
    pair = language_pair(str(value))
    if pair is None:
        raise InputError(
            "must name two language codes, source then target",
            parameter="esa_lp",
            value=value,
            expected="e.g. 'en-zh'; None: the ESA files' only pair",
        )
    return "-".join(pair)


def setup(
    annotations=None,
    multi_rated=None,
    major_weights=tuple(range(1, 11)),
    n_boot=1000,
    n_trials=10000,
    alpha=0.05,
    seed=0,
    pool_pairings=True,
    language_pair=None,
    esa_files=None,
    esa_lp="en-zh",
    esa_report=None,
    results_dir="results",
) -> Setup:
    """Check chapter 08's parameters before any work (each problem names its parameter)."""
    if not isinstance(major_weights, (list, tuple)) or not major_weights:
        raise InputError(
            "must be a list of Major weights",
            parameter="major_weights",
            value=major_weights,
            expected="e.g. [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]",
        )
    weights = tuple(params.number("major_weights", w, minimum=0) for w in major_weights)
    params.text("results_dir", str(results_dir))
    checked = Setup(
        annotations=_mqm_file("annotations", annotations),
        multi_rated=_mqm_file("multi_rated", multi_rated),
        major_weights=weights,
        n_boot=params.integer("n_boot", n_boot, minimum=100),
        n_trials=params.integer("n_trials", n_trials, minimum=100),
        alpha=params.number("alpha", alpha, minimum=0.0001, maximum=0.5),
        seed=params.integer("seed", seed, minimum=0),
        pool_pairings=params.boolean("pool_pairings", pool_pairings),
        language_pair=_language_pair(language_pair),
        esa_files=_esa_files(esa_files),
        esa_lp=_esa_lp(esa_lp),
        esa_report=None if esa_report is None else params.existing_file("esa_report", esa_report, (".tex",)),
    )
    _esa_pair(_esa_ratings(_esa_paths(checked.esa_files)), checked.esa_lp)  # section 6's pair, before any work
    return checked


# --------------------------------------------------------------------------- the data boxes described


def description(box: Data, setup: Setup) -> pd.DataFrame:
    """What the two MQM files hold, and the run's settings the findings need (``data_summary.csv``).

    Per file (group ``weights`` for the errors file, ``agreement`` for the multi-rated one,
    ``weights and agreement`` when one file serves both): its name, language pair
    (``language_pair`` or the file's name), systems, segments, documents, raters, raters per
    (system, segment), rows, and whether side-by-side pairings were pooled (``pooled``). Then,
    without a group: ``released`` (the mirrored files), the run's ``alpha`` and ``n_trials``,
    and the multi-rated file's ``errors`` and those ``without_span``
    (:func:`~helpers.wmt.categories_and_spans.span_coverage`).

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS`.
    """
    found = Findings()
    pairs = box.pairs or (None, None)
    files = [("weights", box.errors, box.errors_name), ("agreement", box.multi, box.multi_name)]
    if box.errors_name == box.multi_name and len(box.errors) == len(box.multi):
        files, pairs = [("weights and agreement", box.multi, box.multi_name)], pairs[1:]  # one file serves both
    for (group, frame, name), pair in zip(files, pairs):
        ratings = frame[frame["severity"] != ann.HOTW].groupby(["system", "doc", "doc_seg_id"])["rater"].nunique()
        paired = int((frame["pairing"] != "").any()) if "pairing" in frame.columns else 0
        (
            found.add("file", group=group, text=name)
            .add("pair", group=group, text=pair_names(pair)[0])
            .add("pooled", paired, group=group)
            .add("systems", frame["system"].nunique(), group=group)
            .add("segments", len(frame[["doc", "doc_seg_id"]].drop_duplicates()), group=group)
            .add("documents", frame["doc"].nunique(), group=group)
            .add("raters", frame["rater"].nunique(), group=group)
            .add("raters_per_unit", text=_span(ratings.min(), ratings.max()), group=group)
            .add("rows", len(frame), group=group)
        )
    spans = span_coverage(box.multi).iloc[0]
    (
        found.add("released", int(box.provenance.kind == "released"))
        .add("alpha", setup.alpha)
        .add("n_trials", setup.n_trials)
        .add("errors", int(spans["errors"]))
        .add("without_span", int(spans["without_span"]))
    )
    return found.frame()


def esa_description(box: EsaData) -> pd.DataFrame:
    """Section 6's data box (``esa_summary.csv``): the files, the pair, the rows read, what each
    of the organisers' filters dropped (per filter that dropped rows), what is left, and the
    automatic ranking's systems.

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS`.
    """
    found = Findings()
    kept = box.kept
    per_segment = kept.groupby(["system", "doc", "line_id"])["rater"].nunique()
    found.add("files", text=_listing([f"`{f}`" for f in box.files])).add(
        "pair", text=pair_names(tuple(box.lp.split("-")))[0]
    ).add("read", len(box.ratings))
    dropped = box.counts[box.counts["dropped"] > 0]
    for r in dropped.itertuples(index=False):
        found.add("dropped", r.dropped, group=r.filter)
    if dropped.empty:
        found.add("dropped")
    (
        found.add("kept", len(kept))
        .add("systems", kept["system"].nunique())
        .add("segments", len(kept[["doc", "line_id"]].drop_duplicates()))
        .add("documents", kept["doc"].nunique())
        .add("raters", kept["rater"].nunique())
        .add("ratings_per_segment", text=_span(per_segment.min(), per_segment.max()))
        .add("report", text=box.report)
        .add("ranked", len(box.autorank))
        .add("ranked_rated", int(box.autorank["system"].isin(set(kept["system"])).sum()))
    )
    return found.frame()


__all__ = [
    "Data",
    "Setup",
    "EsaData",
    "setup",
    "description",
    "esa_description",
    "FINDINGS_INPUTS",
    "PAIRS_SHOWN",
    "findings",
    "ratio_findings",
]
