"""What chapter 09 needs besides the statistics: checked parameters, data with provenance, analysis steps.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks
every parameter before any work and raises :class:`~helpers.core.errors.InputError` naming
the parameter. ``setup.load()`` returns :class:`Data`: the texts, the expert MQM
segment scores joined to them by line, the published system scores and the other human
protocol's system scores, with their :class:`~helpers.core.book.report.Provenance`. The steps
(:func:`reproduction`, :func:`metric_scores`, :func:`protocol_ranks`; for the seeds' post-edits
:func:`post_edit_rates`, :func:`edit_rate_agreement`, :func:`missed_errors`) take that box and return
tidy frames, which the chapter saves as its result CSVs (:func:`system_lines_choice`,
:func:`published_neural`, :func:`post_edits`, :func:`seeds_agreement` and :func:`description`
too). :func:`findings` reads those CSVs back by their public names and returns every number the
page states (defined in :mod:`helpers.metrics.ch09_findings`, importable from here), so the findings
can be recomputed and tested from ``results/09_metrics/*.csv`` alone; the sentences are ``notebooks/words/09_metrics.md``. The meta-evaluation statistics are
:mod:`helpers.metrics.meta`, the figures :mod:`helpers.metrics.figures`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from ..core import params
from ..core.book.report import ChapterData, Provenance
from ..core.errors import InputError
from ..core.statistics.resampling import bootstrap_interval
from . import data as wmt
from . import files, scores
from .ch09_findings import FINDINGS_INPUTS as FINDINGS_INPUTS  # the chapter's surface, defined beside findings
from .ch09_findings import findings as findings

CHAPTER = "09_metrics"  # its words file: notebooks/words/09_metrics.md (the data box reads it too)
#: The language pair of the released test sets (the ``language_pair`` parameter names that of own files).
RELEASED_PAIR = "ZH→EN"


@dataclass(frozen=True)
class Data(ChapterData):
    texts: pd.DataFrame = None  # system, segment, source, reference, hypothesis (every line)
    human: pd.DataFrame = None  # system, segment, score (expert MQM penalty, lower is better; rated segments)
    published: pd.DataFrame = None  # system, metric, score (published BLEU/chrF; empty for own data)
    protocol: pd.DataFrame = None  # system, score: the other human protocol (DA / DA+SQM), higher is better
    protocol_name: str = ""
    testset: str = ""


@dataclass(frozen=True)
class Setup:
    """Chapter 09's checked parameters (see the chapter's parameters cell)."""

    testset: str
    reference: Path | None
    hypotheses: dict[str, Path] | None
    human: Path | None
    metrics: tuple[str, ...]
    n_boot: int
    seed: int
    language_pair: str = RELEASED_PAIR
    n_perm: int = 1000
    post_edit_rows: int | None = 150
    systems: tuple[str, ...] | None = None
    outside: tuple[Path, ...] = ()  # metric files computed elsewhere (system, segment, score[, metric])
    wmt22: bool = True
    wmt22_n_boot: int = 100
    wmt22_n_perm: int = 500

    @property
    def released(self) -> bool:
        return self.reference is None

    def load(self) -> Data:
        """The data box: WMT's released files for ``testset``, or the files given as parameters."""
        if not self.released:
            texts = files.read_texts(self.reference, self.hypotheses)
            human = files.read_human(self.human)[["system", "segment", "score"]]
            language_warnings(texts, self, target_language(self.language_pair))  # each warns
            named = tuple(str(p) for p in [self.reference, *self.hypotheses.values(), self.human])
            return Data(
                Provenance.worded("own", CHAPTER, named),
                texts=texts,
                human=human,
                published=pd.DataFrame(columns=["system", "metric", "score"]),
                protocol=pd.DataFrame(columns=["system", "score"]),
                testset="own files",
                protocol_name="",
            )
        texts = wmt.texts(self.testset, list(self.systems) if self.systems else None)
        if self.testset == "newstest2021":
            human = wmt.mqm_newstest2021()
            da = wmt.da_newstest2021()
            protocol, name = da.rename(columns={"z": "score"})[["system", "score"]], "crowd DA (z)"
        else:
            human = wmt.mqm_generaltest2023()[["system", "segment", "score"]]
            sqm = wmt.dasqm_generaltest2023()
            protocol, name = sqm.rename(columns={"raw": "score"})[["system", "score"]], "DA+SQM"
        published = wmt.published_automatic(self.testset)
        published = published[published["system"].isin(texts["system"].unique())].reset_index(drop=True)
        return Data(
            Provenance.worded("released", CHAPTER),
            texts=texts,
            human=human,
            published=published,
            protocol=protocol,
            protocol_name=name,
            testset=self.testset,
        )


def split_metrics(metrics) -> tuple[list[str], tuple[Path, ...]]:
    """The ``metrics`` parameter split into names computed here and files of outside metrics (an entry that
    ends in ``.csv`` or names an existing file; it must exist: :func:`helpers.core.params.existing_file`)."""
    items = [m.strip() for m in metrics.split(",")] if isinstance(metrics, str) else [str(m) for m in metrics]
    names, found = [], []
    for item in (i for i in items if i):
        if item.lower().endswith(".csv") or Path(item).is_file():
            found.append(params.existing_file("metrics", item))
        else:
            names.append(item)
    if not names and not found:
        raise InputError("names no metric", parameter="metrics", value=metrics, expected=", ".join(scores.METRICS))
    return names, tuple(found)


def outside_scores(box: Data, setup: Setup) -> pd.DataFrame:
    """The outside metric files of ``setup`` as score rows of the run's systems (``system, segment, metric,
    score``; :func:`helpers.metrics.files.read_metric_files`), empty when there are none."""
    if not setup.outside:
        return pd.DataFrame(columns=scores.COLUMNS)
    rows = files.read_metric_files(",".join(str(p) for p in setup.outside))
    rows = rows[rows["system"].isin(box.texts["system"].unique())]
    return rows.assign(segment=rows["segment"].astype("Int64"))[scores.COLUMNS].reset_index(drop=True)


def target_language(pair: str | None) -> str:
    """The target language's code of a pair written ``zh-en``, ``zh→en``, ``ZH→EN`` or ``zh_en``; "" if none.

    Examples
    --------
    >>> target_language("ZH→EN"), target_language("en-de"), target_language("the given files' language pair")
    ('en', 'de', '')
    """
    import re

    found = re.fullmatch(r"\s*([A-Za-z]{2,3})\s*(?:→|->|-|_)\s*([A-Za-z]{2,3})\s*", pair or "")
    return found.group(2).lower() if found else ""


def language_warnings(texts: pd.DataFrame, setup: Setup, language: str) -> list[str]:
    """The reference and each output file of ``setup`` whose letters are mostly not in the script of
    ``language``, each warned about (:func:`helpers.metrics.scores.check_script`; issue 42: the source
    passed as the reference scored BLEU 0.26 without a word)."""
    first = texts.drop_duplicates("segment")
    out = [scores.check_script(first["reference"].tolist(), language, setup.reference)]
    for name, path in (setup.hypotheses or {}).items():
        out.append(scores.check_script(texts.loc[texts["system"] == name, "hypothesis"].tolist(), language, path))
    return [w for w in out if w]


def setup(
    testset="newstest2021",
    systems=None,
    reference=None,
    hypotheses=None,
    human=None,
    language_pair=None,
    metrics=scores.DEFAULT_METRICS,
    n_boot=1000,
    n_perm=1000,
    post_edit_rows=150,
    seed=0,
    results_dir="results",
    wmt22=None,
    wmt22_n_boot=100,
    wmt22_n_perm=500,
) -> Setup:
    """Check chapter 09's parameters before any work (each problem names its parameter).

    ``reference``, ``hypotheses`` (``{NAME: FILE}``) and ``human`` (an MQM file or a
    ``system, segment, score`` CSV) replace WMT's files; all three or none. ``systems``: a
    subset (two or more) of the WMT test set's systems (default: all). ``language_pair``
    names their pair in the page (default: "the given files'"). ``post_edit_rows``: how many
    HADQAET post-edits (a seeded sample) get an HTER; ``None`` scores all 2,952 (155 s cold).
    ``metrics`` names metrics computed here and files of metrics computed elsewhere
    (``[bleu, my.csv]``: a CSV ``system, segment, score`` named after its file, or with a ``metric``
    column; :func:`helpers.metrics.files.read_metric_files`). ``wmt22``: run the WMT22 section (``None``: only
    with WMT's files, not on own files, whose page speaks of their own pair)
    (:mod:`helpers.metrics.wmt22`) with ``wmt22_n_boot`` resamples and ``wmt22_n_perm`` permutations.
    """
    computed, outside = split_metrics(metrics)
    params.choice("testset", testset, list(wmt.TESTSETS))
    given = [reference is not None, hypotheses is not None, human is not None]
    if any(given) and not all(given):
        missing = [n for n, g in zip(("reference", "hypotheses", "human"), given) if not g][0]
        raise InputError(
            "is needed with the other two of reference, hypotheses, human", parameter=missing, expected="a file"
        )
    params.text("results_dir", str(results_dir))
    if systems is not None:
        if isinstance(systems, str) or len(systems) < 2:
            raise InputError(
                "must list two or more systems", parameter="systems", value=systems, expected="e.g. ['NiuTrans', 'SMU']"
            )
        for name in systems:
            params.member("systems", name, wmt.systems_of(testset), f"systems of {testset}")
    return Setup(
        testset=testset,
        reference=params.existing_file("reference", reference) if reference is not None else None,
        hypotheses=params.named_files("hypotheses", hypotheses, minimum=2) if hypotheses is not None else None,
        human=params.existing_file("human", human) if human is not None else None,
        metrics=tuple(scores.parse_metrics(computed)) if computed else (),
        outside=outside,
        n_boot=params.integer("n_boot", n_boot, minimum=100),
        seed=params.integer("seed", seed, minimum=0),
        language_pair=(
            params.text("language_pair", language_pair)
            if language_pair is not None
            else RELEASED_PAIR
            if reference is None
            else "the given files' language pair"
        ),
        n_perm=params.integer("n_perm", n_perm, minimum=100),
        post_edit_rows=None if post_edit_rows is None else params.integer("post_edit_rows", post_edit_rows, minimum=20),
        systems=tuple(systems) if systems is not None else None,
        wmt22=params.boolean("wmt22", wmt22) if wmt22 is not None else reference is None,
        wmt22_n_boot=params.integer("wmt22_n_boot", wmt22_n_boot, minimum=0),
        wmt22_n_perm=params.integer("wmt22_n_perm", wmt22_n_perm, minimum=100),
    )


def reproduction(box: Data, scored: pd.DataFrame | None = None) -> pd.DataFrame:
    """Published BLEU and chrF beside sacrebleu's, per system: ``system, metric, published, computed, difference``.

    Computed with sacrebleu's defaults on every line (:func:`helpers.metrics.scores.system_scores`),
    or taken from the system rows of ``scored`` (:func:`metric_scores` with ``system_lines="all"``)
    when it has them; ``difference`` is computed minus published (0 to the printed precision when
    reproduced).
    """
    if box.published.empty:
        return pd.DataFrame(columns=["system", "metric", "published", "computed", "difference"])
    computed = _system_rows(box, scored, ["bleu", "chrf"])
    out = box.published.rename(columns={"score": "published"}).merge(
        computed.rename(columns={"score": "computed"}), on=["system", "metric"], how="outer"
    )
    out["difference"] = out["computed"] - out["published"]
    return out.sort_values(["metric", "published"], ascending=[True, False]).reset_index(drop=True)


def metric_scores(box: Data, metrics=scores.DEFAULT_METRICS, system_lines: str = "all") -> pd.DataFrame:
    """The chapter's score table: ``system, segment, metric, score``.

    Segment rows are computed on the segments the experts rated for that system only (the
    segment-level meta-evaluation needs no others). System rows (``segment`` NA) pool each
    system's ``system_lines``: ``"all"`` its every line, as WMT scores systems (and as the
    published BLEU/chrF are computed), or ``"rated"`` only the lines the experts rated.

    Cost, measured on the project's 2 shared cores (newstest2021, 8 systems): BLEU, chrF and
    chrF++ take seconds either way; for the 650 rated segments of 8 systems (5,200 hypotheses,
    650 references) the embedding took 156 s and TER 151 s cold, nothing once cached. With ``system_lines="all"`` the embedding and TER also run on the 1,298
    unrated lines of each system (about three times the cost, once).
    """
    params.choice("system_lines", system_lines, ["all", "rated"])
    rated = box.texts.merge(box.human[["system", "segment"]].drop_duplicates(), on=["system", "segment"])
    systems = scores.system_scores(box.texts if system_lines == "all" else rated, metrics)
    return pd.concat([systems, scores.segment_scores(rated, metrics)], ignore_index=True)


def _system_rows(box: Data, scored: pd.DataFrame | None, metrics: list[str]) -> pd.DataFrame:
    """``system, metric, score`` on every line: from ``scored``'s system rows when it has all of
    ``metrics``, else computed (:func:`helpers.metrics.scores.system_scores`)."""
    if scored is not None:
        rows = scored[scored["segment"].isna() & scored["metric"].isin(metrics)]
        if set(rows["metric"]) == set(metrics):
            return rows[["system", "metric", "score"]]
    return scores.system_scores(box.texts, metrics)[["system", "metric", "score"]]


def system_lines_choice(box: Data, scored: pd.DataFrame, given: pd.DataFrame | None = None) -> pd.DataFrame:
    """Does it matter which lines make a metric's system score? ``metric, statistic, all, rated, difference``.

    The system-level statistics (:data:`helpers.metrics.meta.SYSTEM_STATISTICS`) with each
    metric's system score pooled over every line of the system's output (``scored``'s system
    rows, :func:`metric_scores`; as published) and over only the lines the experts rated
    (recomputed here); ``difference`` is rated minus all. Metrics of ``given`` (published
    system scores, e.g. :func:`published_neural`) have no lines to choose and only an ``all``
    value. The human system score is always the mean over the rated segments.
    """
    from . import meta

    metrics = [m for m in dict.fromkeys(scored["metric"]) if scored.loc[scored["metric"] == m, "segment"].isna().any()]
    rated = box.texts.merge(box.human[["system", "segment"]].drop_duplicates(), on=["system", "segment"])
    tables = {
        "all": pd.concat(
            [scored[scored["segment"].isna()]] + ([given] if given is not None else []), ignore_index=True
        ),
        "rated": scores.system_scores(rated, metrics),
    }
    out = None
    for name, table in tables.items():
        got = meta.meta_evaluate(
            box.human, table, level="system", segments="given", n_boot=100, statistics=list(meta.SYSTEM_STATISTICS)
        ).table
        got = got[["metric", "statistic", "estimate"]].rename(columns={"estimate": name})
        out = got if out is None else out.merge(got, on=["metric", "statistic"], how="left")
    out["difference"] = out["rated"] - out["all"]
    return out


#: The comparisons of :func:`metric_comparison`: (level, statistic), each on the numbers the page shows beside it.
COMPARED = (("system", "pearson"), ("segment", "pearson_flat"))


def metric_comparison(box: Data, scored: pd.DataFrame, n_perm: int = 1000, seed: int = 0) -> pd.DataFrame:
    """PERM-BOTH between every ordered pair of metrics (:func:`helpers.metrics.significance.compare_metrics`):
    ``level, statistic, metric_a, metric_b, delta, p`` for system-level Pearson and flat segment-level Pearson.

    The system scores are the means of the metrics' segment scores (``segments="all"``), the numbers of the
    meta-evaluation table beside it (issue 42: the comparison used corpus scores while the r values beside
    it were means of sentence scores; ``.venv/bin/python -m helpers metrics compare --segments all`` gives the same).
    """
    from .significance import compare_metrics

    frames = [
        compare_metrics(box.human, scored, statistic, level, n_perm=n_perm, seed=seed, segments="all").assign(
            level=level, statistic=statistic
        )
        for level, statistic in COMPARED
    ]
    out = pd.concat(frames, ignore_index=True)
    return out[["level", "statistic", "metric_a", "metric_b", "delta", "p"]]


def system_table(box: Data, scored: pd.DataFrame, given: pd.DataFrame | None = None) -> pd.DataFrame:
    """Section 2's table: one row per system with an output, its mean expert penalty (``human``) and each
    metric's system score as the meta-evaluation resamples it (the mean of its segment scores,
    :func:`helpers.metrics.meta.system_level_scores` with ``segments="all"``), then ``given`` system scores
    (published COMET) as given. Systems the experts rated without an output here (WMT21's references and
    ``metricsystem`` entries) have no metric score and no row (issue 42: seven all-NA rows)."""
    from . import meta

    systems = box.texts["system"].unique()
    long = meta.system_level_scores(box.human, scored, segments="all")
    wide = long[long["system"].isin(systems)].pivot_table(index="system", columns="metric", values="score")
    if given is not None and not given.empty:
        wide = wide.join(given.pivot_table(index="system", columns="metric", values="score"), how="left")
    metric_columns = [c for c in wide.columns if c != meta.HUMAN]
    wide = wide.dropna(how="all", subset=metric_columns) if metric_columns else wide.iloc[0:0]
    cols = [meta.HUMAN] + [c for c in dict.fromkeys(scored["metric"]) if c in wide.columns]
    cols += [c for c in wide.columns if c not in cols]
    return wide[cols].reset_index().sort_values(meta.HUMAN).reset_index(drop=True)


def protocol_ranks(box: Data, scored: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each system's rank under expert MQM, the other human protocol and BLEU.

    Returns
    -------
    DataFrame
        ``system, mqm, mqm_rank, protocol, protocol_rank, bleu, bleu_rank, rank_shift`` for the
        systems with an output; rank 1 is best (MQM: lowest mean penalty over the segments rated
        for every system, :func:`helpers.core.statistics.scoring.system_scores`' convention; the protocol and
        BLEU: highest score); ties share their mean rank; ``rank_shift`` is protocol rank minus
        MQM rank. BLEU is taken from ``scored``'s system rows (all lines) when given.
    """
    systems = box.texts["system"].unique()
    human = box.human[box.human["system"].isin(systems)]
    common = human.groupby("segment")["system"].transform("nunique") == len(systems)
    mqm = human[common].groupby("system")["score"].mean()
    protocol = box.protocol.set_index("system")["score"].astype(float).reindex(systems)  # empty for own files
    bleu = _system_rows(box, scored, ["bleu"]).set_index("system")["score"].reindex(systems)
    out = pd.DataFrame(
        {
            "system": systems,
            "mqm": mqm.reindex(systems).to_numpy(),
            "protocol": protocol.to_numpy(),
            "bleu": bleu.to_numpy(),
        }
    )
    out["mqm_rank"] = rankdata(out["mqm"], nan_policy="omit")
    out["protocol_rank"] = rankdata(-out["protocol"], nan_policy="omit")
    out["bleu_rank"] = rankdata(-out["bleu"], nan_policy="omit")
    out["rank_shift"] = out["protocol_rank"] - out["mqm_rank"]
    cols = ["system", "mqm", "mqm_rank", "protocol", "protocol_rank", "bleu", "bleu_rank", "rank_shift"]
    return out[cols].sort_values("mqm_rank").reset_index(drop=True)


# --------------------------------------------------------------------------- the seeds' question
def post_edit_rates(
    frame: pd.DataFrame, mt: str = "mt", post_edit: str = "post_edit", target: str = "en"
) -> pd.DataFrame:
    """``frame`` with ``hter``: the TER of each MT output against its own post-edit (HTER; Snover
    et al. 2006), in percent, by sacrebleu (:func:`helpers.metrics.scores.segment_scores`, cached).

    ``target="zh"`` for Chinese targets (MetaHOPE's EN→ZH pilot): one character a word.
    """
    texts = pd.DataFrame(
        {
            "system": "mt",
            "segment": range(1, len(frame) + 1),
            "hypothesis": frame[mt].astype(str).to_numpy(),
            "reference": frame[post_edit].astype(str).to_numpy(),
        }
    )
    ter = scores.segment_scores(texts, ["ter"], target=target)["score"].to_numpy()
    return frame.assign(hter=ter)


def edit_rate_agreement(
    frame: pd.DataFrame, value: str = "penalty", n_boot: int = 1000, seed: int = 0, clusters: str | None = None
) -> pd.DataFrame:
    """How far the edit rate tracks the annotators' penalty: Pearson's r and Spearman's ρ of
    ``hter`` and ``value``, with bootstrap percentile intervals (rows resampled, or whole
    ``clusters``, e.g. a MetaHOPE sentence with its three systems).

    Returns
    -------
    DataFrame
        ``statistic, estimate, ci_low, ci_high, n``; NaN where a side is constant.
    """
    from scipy.stats import pearsonr, spearmanr

    x, y = frame["hter"].to_numpy(dtype=float), frame[value].to_numpy(dtype=float)
    groups = frame[clusters].to_numpy() if clusters else None
    rows = []
    for name, fn in (("pearson", pearsonr), ("rho", spearmanr)):

        def stat(idx, fn=fn):
            a, b = x[idx], y[idx]
            return float(fn(a, b)[0]) if np.ptp(a) > 0 and np.ptp(b) > 0 else float("nan")

        whole = stat(np.arange(len(x)))
        low, high = bootstrap_interval(stat, len(x), n_boot, seed, groups)
        rows.append({"statistic": name, "estimate": whole, "ci_low": low, "ci_high": high, "n": len(x)})
    return pd.DataFrame(rows)


def missed_errors(frame: pd.DataFrame, n_boot: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Are the annotated errors ones the edit rate misses? HADQAET's question (issue 33, item 5).

    ``missed`` is the share of the rows with at least one error whose HTER is no higher than
    the median HTER of the error-free rows: translations the post-editor changed no more than a
    typical clean one, though the annotator found an error. ``blind`` is what that share would
    be if HTER ignored the errors: the share of the error-free rows at or below their own
    median (one half only when no two rates tie; post-edit rates tie often, at 0 for an
    untouched translation). ``missed_gap`` = ``missed`` − ``blind``: below 0, rows with an
    error are edited more than the clean ones. ``hter_error`` and ``hter_clean`` are the mean
    HTER of the two groups. Bootstrap intervals resample the rows.

    Returns
    -------
    DataFrame
        ``statistic, estimate, ci_low, ci_high, n`` (``n``: rows with an error, for ``missed``
        and ``missed_gap``; error-free rows for ``blind``).
    """
    hter, has_error = frame["hter"].to_numpy(dtype=float), (frame["errors"] > 0).to_numpy()

    def missed(idx):
        clean, err = hter[idx][~has_error[idx]], hter[idx][has_error[idx]]
        return float((err <= np.median(clean)).mean()) if len(clean) and len(err) else float("nan")

    def blind(idx):
        clean = hter[idx][~has_error[idx]]
        return float((clean <= np.median(clean)).mean()) if len(clean) else float("nan")

    def gap(idx):
        return missed(idx) - blind(idx)

    def mean_of(flag):
        return lambda idx: (
            float(hter[idx][has_error[idx] == flag].mean()) if (has_error[idx] == flag).any() else float("nan")
        )

    rows = []
    n_error, n_clean = int(has_error.sum()), int((~has_error).sum())
    for name, stat, n in (
        ("missed", missed, n_error),
        ("blind", blind, n_clean),
        ("missed_gap", gap, n_error),
        ("hter_error", mean_of(True), n_error),
        ("hter_clean", mean_of(False), n_clean),
    ):
        low, high = bootstrap_interval(stat, len(hter), n_boot, seed)
        rows.append({"statistic": name, "estimate": stat(np.arange(len(hter))), "ci_low": low, "ci_high": high, "n": n})
    return pd.DataFrame(rows)


def published_neural(box: Data) -> pd.DataFrame:
    """The published COMET system scores of the run's systems, as given (WMT21 only):
    ``system, segment (NA), metric, score`` with metric ``comet_refA`` / ``comet_refB``."""
    if box.testset != "newstest2021":
        return pd.DataFrame(columns=scores.COLUMNS)
    comet = wmt.published_comet()
    comet = comet[comet["system"].isin(box.texts["system"].unique())]
    return pd.DataFrame(
        {
            "system": comet["system"],
            "segment": pd.NA,
            "metric": "comet_ref" + comet["reference"],
            "score": comet["score"],
        }
    ).reset_index(drop=True)


def post_edits(metahope: pd.DataFrame, hadqaet: pd.DataFrame, rows: int | None = 150, seed: int = 0) -> pd.DataFrame:
    """The seeds' post-edit data with their edit rates (:func:`post_edit_rates`), one frame.

    ``metahope``: MetaHOPE's pilot, every sentence and system with its one gold standard
    (:func:`helpers.metahope.workbooks.gold_standards`; Chinese target). ``hadqaet``: HADQAET's post-edits
    (:func:`helpers.slang.qe_data.hadqaet_post_edits`), of which a seeded sample of ``rows`` is scored
    (``None``: all 2,952; the edit rate costs ~50 ms a row cold, cached after). The chapter reads both with
    their study packages' readers and passes them here, so this package imports no other study.

    Returns
    -------
    DataFrame
        ``data, unit, cluster, hter, penalty, errors``: ``data`` is "MetaHOPE" or "HADQAET";
        ``unit`` the HADQAET row or ``sentence / system``; ``cluster`` the MetaHOPE sentence (its systems
        resampled together) or the HADQAET row; ``errors`` the number of annotated emotion errors (HADQAET;
        NA for MetaHOPE). ``hter`` is the TER against the post-edit: HTER for HADQAET, and for MetaHOPE HTER
        only for the system its gold standard was post-edited from (reference TER for the others).
    """
    mh = post_edit_rates(metahope, mt="translation", target="zh")
    hd = hadqaet
    if rows is not None and rows < len(hd):
        hd = hd.sample(rows, random_state=seed).sort_values("row")
    hd = post_edit_rates(hd)
    return pd.concat(
        [
            pd.DataFrame(
                {
                    "data": "MetaHOPE",
                    "unit": mh["sentence"].astype(str) + " / " + mh["system"],
                    "cluster": mh["sentence"].astype(str),
                    "hter": mh["hter"],
                    "penalty": mh["penalty"],
                    "errors": pd.NA,
                }
            ),
            pd.DataFrame(
                {
                    "data": "HADQAET",
                    "unit": hd["row"].astype(str),
                    "cluster": hd["row"].astype(str),
                    "hter": hd["hter"],
                    "penalty": hd["penalty"],
                    "errors": hd["errors"],
                }
            ),
        ],
        ignore_index=True,
    )


def seeds_agreement(rates: pd.DataFrame, n_boot: int = 1000, seed: int = 0) -> pd.DataFrame:
    """:func:`edit_rate_agreement` of each data set of :func:`post_edits`: ``data, statistic, estimate,
    ci_low, ci_high, n`` (MetaHOPE's sentences resampled whole, with their systems)."""
    frames = [
        edit_rate_agreement(part, n_boot=n_boot, seed=seed, clusters="cluster").assign(data=name)
        for name, part in rates.groupby("data", sort=False)
    ]
    out = pd.concat(frames, ignore_index=True)
    return out[["data", "statistic", "estimate", "ci_low", "ci_high", "n"]]


def description(box: Data, setup: Setup) -> pd.DataFrame:
    """The run's data in one table (``data_summary.csv``): ``quantity, value, text``."""
    systems = box.texts["system"].unique()
    rated = box.human[box.human["system"].isin(systems)]
    rows = [
        ("pair", None, setup.language_pair),
        ("testset", None, box.testset),
        ("released", int(setup.released), ""),
        ("systems", len(systems), ", ".join(systems)),
        ("lines", int(box.texts["segment"].nunique()), ""),
        ("rated_segments", int(rated["segment"].nunique()), ""),
        ("human_systems", int(box.human["system"].nunique()), ""),
        ("protocol", None, box.protocol_name),
        ("metrics", len(setup.metrics), ", ".join(setup.metrics)),
        ("n_boot", setup.n_boot, ""),
        ("post_edit_rows", setup.post_edit_rows, ""),
    ]
    return pd.DataFrame(rows, columns=["quantity", "value", "text"])


def wmt22_table(evaluation: pd.DataFrame, ranks: pd.DataFrame) -> pd.DataFrame:
    """Section 6's table, one row per metric, best system-level r first: ``metric, pearson, ci_low, ci_high,
    cluster, pearson_refB, cluster_refB, pearson_flat, kendall_tau_b_item, acc_eq_item`` (without the human
    translations unless the column says refB; clusters from :func:`helpers.metrics.wmt22.clusters`)."""
    no = evaluation[evaluation["setting"] == "no_human"]
    system = no[no["statistic"] == "pearson"].set_index("metric")[["estimate", "ci_low", "ci_high"]]
    out = system.rename(columns={"estimate": "pearson"})
    rank = ranks.pivot_table(index="metric", columns="setting", values="rank")
    out["cluster"] = rank.get("no_human")
    with_b = evaluation[(evaluation["setting"] == "with_refB") & (evaluation["statistic"] == "pearson")]
    out["pearson_refB"] = with_b.set_index("metric")["estimate"]
    out["cluster_refB"] = rank.get("with_refB")
    for stat in ("pearson_flat", "kendall_tau_b_item", "acc_eq_item"):
        out[stat] = no[no["statistic"] == stat].set_index("metric")["estimate"]
    return out.reset_index().sort_values("pearson", ascending=False).reset_index(drop=True)
