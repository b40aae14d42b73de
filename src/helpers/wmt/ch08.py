"""Chapter 08 (WMT expert MQM and ESA): checked parameters, the data boxes, their descriptions, findings.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks every
parameter before any work and raises :class:`~helpers.core.errors.InputError` naming the
parameter. ``setup.load()`` reads the MQM files (cached under ``.cache/wmt-mqm-read`` keyed by
the files' sha256: reading the three-rater archive with its texts is the slowest step) and
returns :class:`Data` with its :class:`~helpers.core.book.report.Provenance`; ``setup.load_esa()``
returns section 6's :class:`EsaData`. :func:`description` and :func:`esa_description` describe
the two boxes (saved as ``data_summary.csv`` and ``esa_summary.csv``). The analyses are
:mod:`helpers.wmt.analysis`; :func:`findings` reads the chapter's saved tables back by their
public names (:data:`FINDINGS_INPUTS`) and returns every number the page states, so the
findings can be recomputed and tested from ``results/08_wmt_mqm/*.csv`` alone; the sentences
and the verdicts' phrases are ``notebooks/words/08_wmt_mqm.md``.
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
from ..core.formats import esa, mqm
from ..core.statistics.agreement import alpha_reading
from ..core.statistics.stats import FEW_CLUSTERS
from .analysis import THREE_RATER_FILE, ratio_curve, span_coverage
from .readme_tables import REPO, TABLES, TED_FILE, language_pair, pair_names, tables_for
from .systems import COVERAGE_FLOOR, SYSTEM_KINDS, certainty_verdict, smallest_possible_p

MQM_SUFFIXES = (".tsv", ".txt", ".gz", ".tgz", ".tar")
RELEASED_DETAIL = (
    "Google's expert MQM ratings of WMT submissions (google/wmt-mqm-human-evaluation at the "
    "pinned commit, Apache-2.0), Chinese to English, sha256-verified by "
    "<code>.venv/bin/python -m helpers fetch</code>."
)
OWN_DETAIL = "MQM files passed to this notebook as papermill parameters."
#: The mirrored WMT24 release (data/sources.yml): the ESA waves and the organisers' automatic ranking.
ESA_REPO = "wmt-conference/wmt24-news-systems"
ESA_FILES = ("humeval/esa_generalMT2024_wave2.csv", "humeval/esa_generalMT2024_wave3.csv")
AUTORANK_FILE = "report/generated_report.tex"
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
            autorank = esa.read_autorank(report)
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
    (:func:`~helpers.wmt.analysis.span_coverage`).

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


def _span(low, high) -> str:
    return f"{low}" if low == high else f"{low}–{high}"


def _listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# --------------------------------------------------------------------------- findings, from the saved tables

#: The result files :func:`findings` reads (``results/08_wmt_mqm/<name>.csv``).
FINDINGS_INPUTS = (
    "data_summary",
    "reproduced",
    "scheme_weights",
    "scheme_rankings",
    "weight_sweep",
    "alpha_by_weight",
    "alpha_by_scheme",
    "scheme_differences",
    "icc_by_documents",
    "presence_agreement",
    "span_agreement",
    "rater_bias",
    "rater_effects",
    "system_pairs",
    "certainty_segments_vs_documents",
    "system_pairs_multi_rated",
    "esa_summary",
    "esa_rankings",
)
#: Columns read as written (names and printed values, not numbers) or as whole numbers that may be missing.
_TYPES = {
    "reproduced": {"table": str, "system": str, "published": str},
    "esa_rankings": {"human_rank": "Int64", "auto_rank": "Int64", "rank_shift": "Int64"},
    "rater_bias": {"rater": str},
    "rater_effects": {"rater": str},
    "scheme_rankings": {"system": str},
    "data_summary": {"quantity": str, "group": str, "text": str},
    "esa_summary": {"quantity": str, "group": str, "text": str},
}
#: The rows of ``system_pairs.csv`` the page's table shows (the file holds every pair).
PAIRS_SHOWN = 20
#: The README-table rounding rule the chapter reads (:func:`~helpers.wmt.readme_tables.reproduce`).
ROUNDING_RULE = "match: 3 decimals, then half-up"


def _saved(folder, name: str) -> pd.DataFrame | None:
    """``<folder>/<name>.csv`` as saved, or None when the run did not write it."""
    path = Path(folder) / f"{name}.csv"
    if not path.exists():
        return None
    if path.stat().st_size <= 1:  # a table without columns
        return pd.DataFrame()
    frame = pd.read_csv(path, dtype=_TYPES.get(name), float_precision="round_trip")
    if name.endswith("_summary"):  # a findings frame: "" where a quantity has no group or text
        frame[["group", "text"]] = frame[["group", "text"]].fillna("")
    return frame


def _summary(frame: pd.DataFrame | None, quantity: str, group: str = "", column: str = "value"):
    """One cell of a ``*_summary.csv`` (:func:`description`, :func:`esa_description`)."""
    rows = frame[(frame["quantity"] == quantity) & (frame["group"] == group)]
    return rows[column].iloc[0] if len(rows) else None


def _last(column: pd.Series):
    """The last cell of ``column`` (the multi-rated file's row of the data summary), or None
    when the summary has no such row."""
    return column.iloc[-1] if len(column) else None


def _data(t: dict) -> Findings:
    """Section ``data``: the data box's per-file rows of ``data_summary.csv``."""
    found = Findings()
    for r in t["data_summary"].query("group != ''").itertuples(index=False):
        found.add(r.quantity, None if pd.isna(r.value) else r.value, group=r.group, text=r.text)
    return found


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


#: Section 6's quantities the closing findings restate, each as ``esa_<name>`` (:func:`_esa`).
ESA_CLOSING = (
    "pair",
    "systems",
    "clusters",
    "human_top",
    "compared",
    "tau",
    "same_top",
    "auto_top",
    "human_first",
    "undervalued",
    "overvalued",
    "chained",
    "no_autorank",
)


def _esa_closing(found: Findings, t: dict) -> None:
    """The closing findings' ESA part (section 6): :data:`ESA_CLOSING` read from :func:`_esa`,
    each renamed ``esa_<name>``; none applies when the run saved no ESA ranking."""
    if t["esa_rankings"] is None or t["esa_summary"] is None or not len(t["esa_rankings"]):
        for q in ESA_CLOSING:
            found.add(f"esa_{q}")
        return
    esa_found = _esa(t).frame()
    for q in ESA_CLOSING:
        rows = esa_found[esa_found["quantity"] == q]
        for r in rows.to_dict("records"):
            extra = {
                k: v
                for k, v in r.items()
                if k not in ("quantity", "group", "value", "ci_low", "ci_high", "p", "text")
                and not (isinstance(v, float) and pd.isna(v))
            }
            found.add(
                f"esa_{q}",
                None if pd.isna(r["value"]) else r["value"],
                group=r["group"],
                ci=(r["ci_low"], r["ci_high"]),
                p=r["p"],
                text=r["text"],
                **extra,
            )


def _esa_data(t: dict) -> Findings:
    """Section ``esa_data``: the rows of ``esa_summary.csv`` (:func:`esa_description`)."""
    found = Findings()
    for r in t["esa_summary"].itertuples(index=False):
        found.add(r.quantity, None if pd.isna(r.value) else r.value, group=r.group, text=r.text)
    return found


def _placed(rows: pd.DataFrame) -> str:
    """``GPT-4 (human 1, automatic 6) and refA (no automatic score)``: ranks among the systems both rank."""
    return _listing(
        [
            f"{r.system} (human {r.human_rank}, automatic {r.auto_rank})"
            if pd.notna(r.auto_rank)
            else f"{r.system} (no automatic score)"
            for r in rows.itertuples(index=False)
        ]
    )


def _chained(found: Findings, ranking: pd.DataFrame) -> None:
    """How far the organisers' clusters chain: a system joins the cluster of the one above it
    when that one does not differ from it significantly, so a cluster can hold systems
    significantly below others of the same cluster. From the ranking (best first) and its rank
    ranges: the systems significantly better than a system are rank_low − 1
    (:func:`helpers.core.formats.esa.human_ranking`), all scored at least as high; those beyond the
    systems of earlier clusters are in its own cluster. ``chained``: how many systems are
    significantly below one of their own cluster; per such cluster (group) ``chain_extreme``:
    the most systems of its own cluster one system is below, that system (every one tied
    named), its rank range, and the cluster's first system with its rank range."""
    ranking = ranking.reset_index(drop=True)
    sizes = ranking.groupby("cluster", sort=True)["system"].size()
    before = sizes.cumsum().shift(fill_value=0)
    within = ranking["rank_low"].astype(int) - 1 - ranking["cluster"].map(before).astype(int)
    below = ranking.assign(within=within)[within > 0]
    found.add("chained", len(below))
    for cluster, rows in below.groupby("cluster", sort=True):
        top = rows[rows["within"] == rows["within"].max()]
        first = ranking[ranking["cluster"] == cluster].iloc[0]
        found.add(
            "chain_extreme",
            int(rows["within"].max()),
            group=f"cluster {int(cluster)}",
            text=_listing(
                [
                    f"{r.system} (rank range {_span(int(r.rank_low), int(r.rank_high))})"
                    for r in top.itertuples(index=False)
                ]
            ),
            size=int(sizes[cluster]),
            first=first["system"],
            first_range=_span(int(first["rank_low"]), int(first["rank_high"])),
        )
    if below.empty:
        found.add("chain_extreme")


def _esa(t: dict) -> Findings:
    """Section ``esa``: from ``esa_rankings`` (:func:`~helpers.wmt.systems.esa_ranking`) and
    :func:`helpers.core.formats.esa.rank_agreement` of it: the pair (and whether it is MetaHOPE's own,
    English→Chinese), the human ranking's clusters and top, Kendall τ with the automatic
    ranking, the systems that move most either way, and each kind of system
    (:data:`~helpers.wmt.systems.SYSTEM_KINDS`)."""
    ranking = t["esa_rankings"]
    agreement = esa.rank_agreement(ranking)
    lp = ranking["lp"].iloc[0]
    found = Findings()
    pair = pair_names(tuple(lp.split("-")))[0]
    found.add("pair", text=pair).add("metahope_direction", int(lp == "en-zh"))
    found.add("systems", len(ranking)).add("clusters", int(ranking["cluster"].nunique()))
    top = ranking[ranking["cluster"] == 1]
    found.add("top_cluster", len(top), text=_listing(list(top["system"])))
    found.add("human_top", ranking["score_by_domain"].iloc[0], text=ranking["system"].iloc[0])
    both = ranking.dropna(subset=["auto_rank"])
    found.add("report", text=_summary(t["esa_summary"], "report", column="text"))
    if len(agreement) and len(both) >= 2:
        a = agreement.iloc[0]
        found.add("compared", int(a["systems"])).add("tau", a["kendall_tau"], p=a["p"])
        found.add("auto_top", text=_listing(list(both.loc[both["auto_rank"] == 1, "system"])))
        found.add("human_first", text=_listing(list(both.loc[both["human_rank"] == 1, "system"])))
        found.add("same_top", int(bool(a["same_top"]))).add("no_autorank")
        shift = both["rank_shift"].astype(float)
        for name, extreme, sign in (("undervalued", shift.max(), 1), ("overvalued", shift.min(), -1)):
            tied = both[shift == extreme]  # every system at the extreme, named together
            if sign * extreme > 0:  # the automatic ranking places them lower (higher) than the humans
                found.add(
                    name, abs(int(extreme)), text=_listing(list(tied["system"])), tied=len(tied), ranks=_placed(tied)
                )
            else:
                found.add(name)
    else:
        for q in ("compared", "tau", "auto_top", "human_first", "same_top", "undervalued", "overvalued"):
            found.add(q)
        found.add("no_autorank", text=pair)
    for kind in SYSTEM_KINDS:
        rows = ranking[ranking["kind"] == kind]
        if rows.empty:
            continue
        shifts = rows["rank_shift"].dropna().astype(float)
        found.add("kind", len(rows), group=kind, text=_placed(rows))
        found.add("kind_shift", shifts.mean() if len(shifts) else None, group=kind)
    _chained(found, ranking)
    ref = ranking[ranking["kind"] == "human"]
    if len(ref):
        position = int(ranking.index.get_loc(ref.index[0])) + 1
        found.add("reference", position, text=ref["system"].iloc[0], cluster=int(ref["cluster"].iloc[0]))
    else:
        found.add("reference")
    return found


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


__all__ = [
    "Data",
    "Setup",
    "EsaData",
    "setup",
    "description",
    "esa_description",
    "FINDINGS_INPUTS",
    "findings",
    "ratio_findings",
]
