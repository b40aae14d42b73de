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
page states, so the findings can be recomputed and tested from ``results/09_metrics/*.csv``
alone; the sentences are ``notebooks/words/09_metrics.md``. The meta-evaluation statistics are
:mod:`helpers.metrics.meta`, the figures :mod:`helpers.metrics.figures`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from ..core import params
from ..core.book.findings import Findings
from ..core.book.report import ChapterData, Provenance
from ..core.book.results import read_saved
from ..core.errors import InputError
from ..core.statistics.resampling import bootstrap_interval
from . import data as wmt
from . import files, scores

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


#: A system-level interval wider than this is called wide in the findings.
WIDE_INTERVAL = 0.3
#: The best segment-level (flat) r this far below the best system-level r: "says less about single segments".
WEAKER_BY = 0.2
#: Level of every PERM-BOTH test the findings read (a ranking is stated only where one separates the metrics).
ALPHA = 0.05
#: The result files :func:`findings` reads (``results/09_metrics/<name>.csv``).
FINDINGS_INPUTS = (
    "data_summary",
    "reproduction",
    "meta_evaluation",
    "segment_choice",
    "metric_comparison",
    "protocol_ranks",
    "edit_rate_agreement",
    "missed_errors",
    "unmatched",
    "post_edit_rates",
    "wmt22_meta_evaluation",
    "wmt22_clusters",
)


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


def _info(t: dict, q: str, col: str = "value"):
    """A value (or text) of ``data_summary.csv``; None where it is missing."""
    d = t["data_summary"]
    if d.empty or q not in set(d["quantity"]):
        return None
    v = d.set_index("quantity").loc[q, col]
    return v if pd.notna(v) else None


def _data(t: dict) -> Findings:
    """Sections ``data`` and the closing list: what the run read."""
    f = Findings()
    f.add("pair", text=_info(t, "pair", "text")).add("testset", text=_info(t, "testset", "text"))
    f.add("released", _info(t, "released"))
    f.add("systems", _info(t, "systems"), text=_info(t, "systems", "text"))
    f.add("lines", _info(t, "lines")).add("rated_segments", _info(t, "rated_segments"))
    f.add("metrics", _info(t, "metrics"), text=_info(t, "metrics", "text"))
    return f.add("post_edit_rows", _info(t, "post_edit_rows"))


def _reproduce(t: dict) -> Findings:
    """Section ``reproduce``: published BLEU/chrF against sacrebleu's."""
    f = Findings()
    rep = t["reproduction"].dropna(subset=["published", "computed"]) if not t["reproduction"].empty else None
    if rep is None or rep.empty:
        return f.add("compared").add("reproduced").add("largest_difference")
    f.add("compared", len(rep)).add("reproduced", int((rep["difference"].abs() < 5e-7).sum()))
    return f.add("largest_difference", float(rep["difference"].abs().max()))


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ranking(f: Findings, prefix: str, estimates: pd.DataFrame, comparison: pd.DataFrame) -> None:
    """A tested ranking of metrics on one statistic (issue 42: "every best is tested").

    ``{prefix}_top``: the best metric, stated only when PERM-BOTH puts it alone in the first significance
    cluster (:func:`helpers.metrics.significance.metric_clusters`); ``{prefix}_tied``: otherwise the metrics
    of the first cluster, "indistinguishable at this size", with the p-values of the best over each of them
    as text and the smallest as ``p``. Neither applies without a comparison or with fewer than two metrics.
    """
    from .significance import metric_clusters

    est = estimates.dropna(subset=["estimate"])
    if comparison.empty or len(est) < 2:
        f.add(f"{prefix}_top").add(f"{prefix}_tied")
        return
    clusters = metric_clusters(est[["metric", "estimate"]], comparison, ALPHA)
    first = clusters[clusters["rank"] == 1]
    best = first["metric"].iloc[0]
    p = comparison.set_index(["metric_a", "metric_b"])["p"]
    if len(first) == 1:
        runner = clusters["metric"].iloc[1]
        f.add(f"{prefix}_top", first["estimate"].iloc[0], p=p.get((best, runner)), text=best, runner_up=runner)
        f.add(f"{prefix}_tied")
        return
    others = first["metric"].iloc[1:].tolist()
    values = [f"{best} over {m} p = {p.get((best, m), float('nan')):.2f}" for m in others]
    f.add(f"{prefix}_top")
    f.add(
        f"{prefix}_tied",
        max(p.get((best, m), float("nan")) for m in others),
        text=_listing(first["metric"].tolist()),
        tests="; ".join(values),
    )


def _meta(t: dict) -> Findings:
    """Section ``meta`` and the closing list: each metric's agreement, and which ranking is tested."""
    from .meta import COLUMNS

    f = Findings()
    me = t["meta_evaluation"] if not t["meta_evaluation"].empty else pd.DataFrame(columns=COLUMNS)
    system_r = me[(me["level"] == "system") & (me["statistic"] == "pearson")]
    for _, r in system_r.iterrows():
        f.add("system_r", r["estimate"], group=r["metric"], ci=(r["ci_low"], r["ci_high"]), n=r["n"])
    if system_r.empty:
        f.add("system_r")
    for stat, name in (
        ("pairwise_accuracy", "system_accuracy"),
        ("pearson_item", "segment_r_item"),
        ("kendall_tau_b_flat", "segment_tau_flat"),
        ("acc_eq_item", "acc_eq"),
        ("pearson_flat", "segment_r_flat"),
    ):
        part = me[me["statistic"] == stat]
        for _, r in part.iterrows():
            f.add(name, r["estimate"], group=r["metric"], ci=(r["ci_low"], r["ci_high"]), n=r["n"])
        if part.empty:
            f.add(name)
    defined = system_r.dropna(subset=["estimate"])
    f.add(
        "too_few_systems",
        int(len(system_r) > 0 and defined.empty) if len(system_r) else None,
        text=str(int(system_r["n"].max())) if len(system_r) else "",
    )
    cmp = t["metric_comparison"]
    if cmp.empty:
        cmp = pd.DataFrame(columns=["level", "statistic", "metric_a", "metric_b", "delta", "p"])
    by = {level: cmp[cmp["level"] == level] for level in ("system", "segment")}
    _ranking(f, "system", defined[["metric", "estimate"]], by["system"][by["system"]["statistic"] == "pearson"])
    flat = me[me["statistic"] == "pearson_flat"]
    _ranking(f, "segment", flat[["metric", "estimate"]], by["segment"][by["segment"]["statistic"] == "pearson_flat"])
    if len(defined):
        top = defined.sort_values("estimate", ascending=False).iloc[0]
        f.add("wide_intervals", int(top["ci_high"] - top["ci_low"] > WIDE_INTERVAL))
        best_flat = flat["estimate"].max() if len(flat) else float("nan")
        f.add("segments_weaker", int(pd.notna(best_flat) and best_flat < top["estimate"] - WEAKER_BY))
        f.add("best_segment_r", best_flat)
    else:
        f.add("wide_intervals").add("segments_weaker").add("best_segment_r")
    system_cmp = by["system"]
    if not system_cmp.empty:
        f.add("significant_pairs", int((system_cmp["p"] < ALPHA).sum()), text=str(len(system_cmp)))
    else:
        f.add("significant_pairs")
    return f


def _choice(t: dict) -> Findings:
    """Section ``meta``'s choice of lines: judged against the resampling noise of the statistic it moves."""
    f = Findings()
    ch, me = t["segment_choice"], t["meta_evaluation"]
    ch = ch.dropna(subset=["difference"]) if not ch.empty else ch
    if ch.empty:
        return f.add("choice_difference").add("choice_matters").add("choice_noise")
    biggest = ch.loc[ch["difference"].abs().idxmax()]
    f.add("choice_difference", float(abs(biggest["difference"])), text=f"{biggest['metric']} {biggest['statistic']}")
    row = (
        me[(me["level"] == "system") & (me["metric"] == biggest["metric"]) & (me["statistic"] == biggest["statistic"])]
        if not me.empty
        else pd.DataFrame(columns=["ci_low", "ci_high"])
    )
    half = float((row["ci_high"] - row["ci_low"]).iloc[0] / 2) if len(row) else float("nan")
    if pd.isna(half):  # no interval to judge against: not applicable
        return f.add("choice_matters").add("choice_noise")
    # the choice matters when it moves the statistic by more than half its 95% bootstrap interval
    return f.add("choice_matters", int(abs(biggest["difference"]) > half)).add("choice_noise", half)


def _unmatched(t: dict, folder) -> Findings:
    """The closing list's ``Unmatched``: systems and cells on one side only (``unmatched.csv``)."""
    f = Findings()
    un = t["unmatched"]
    names = ("human_only_systems", "metric_only_systems", "human_only_cells", "metric_only_cells", "unmatched_any")
    if un.empty:  # a saved table without rows: nothing unmatched; no table at all: not applicable
        saved = (Path(folder) / "unmatched.csv").exists()
        for q in names:
            f.add(q, 0 if saved else None)
        return f
    cells = un[un["what"] != "system"].groupby("only_in")["n"].max()
    systems = un[un["what"] == "system"].groupby("only_in")["n"].max()
    f.add("human_only_systems", int(systems.get("human", 0))).add("metric_only_systems", int(systems.get("metric", 0)))
    f.add("human_only_cells", int(cells.get("human", 0))).add("metric_only_cells", int(cells.get("metric", 0)))
    return f.add("unmatched_any", int(un["n"].sum() > 0))


def _protocols(t: dict) -> Findings:
    """Section ``protocols``: the experts, the other human protocol and BLEU, rank by rank."""
    from scipy.stats import kendalltau

    f = Findings()
    pr = t["protocol_ranks"]
    has_protocol = not pr.empty and pr["protocol"].notna().any()
    f.add("protocol", text=_info(t, "protocol", "text") if has_protocol else None)
    if has_protocol:
        both = pr.dropna(subset=["protocol_rank", "mqm_rank"])
        tau = kendalltau(both["mqm_rank"], both["protocol_rank"])
        f.add("protocol_tau", tau.statistic, p=tau.pvalue, n=len(both))
        moved = both[both["rank_shift"] != 0]
        f.add("protocol_moved", len(moved), text=str(len(both)))
        for _, r in moved.reindex(moved["rank_shift"].abs().sort_values(ascending=False).index).iterrows():
            f.add(
                "protocol_shift",
                r["rank_shift"],
                group=r["system"],
                mqm_rank=r["mqm_rank"],
                protocol_rank=r["protocol_rank"],
            )
        if moved.empty:
            f.add("protocol_shift")
    else:
        f.add("protocol_tau").add("protocol_moved").add("protocol_shift")
    if pr.empty:
        return f.add("bleu_undervalues").add("bleu_tau")
    human = pr["mqm_rank"] if not has_protocol else pr[["mqm_rank", "protocol_rank"]].max(axis=1)
    gap = pr["bleu_rank"] - human  # BLEU rank below even the worse of the human ranks
    i = gap.idxmax()
    if gap[i] > 0:
        f.add(
            "bleu_undervalues",
            gap[i],
            text=pr.loc[i, "system"],
            bleu_rank=pr.loc[i, "bleu_rank"],
            mqm_rank=pr.loc[i, "mqm_rank"],
            protocol_rank=pr.loc[i, "protocol_rank"],
        )
    else:
        f.add("bleu_undervalues")  # BLEU ranks no system below the human rankings
    return f.add("bleu_tau", kendalltau(pr["mqm_rank"], pr["bleu_rank"]).statistic, n=len(pr))


def _seeds(t: dict) -> Findings:
    """Section ``seeds``: edit rates against the penalties, and what MetaHOPE's gold standard is."""
    f = Findings()
    ea = t["edit_rate_agreement"]
    part = ea[ea["statistic"] == "rho"] if not ea.empty else ea
    for _, r in part.iterrows():
        f.add("hter_rho", r["estimate"], group=r["data"], ci=(r["ci_low"], r["ci_high"]), n=r["n"])
    if part.empty:
        f.add("hter_rho")
    mi = t["missed_errors"].set_index("statistic") if not t["missed_errors"].empty else pd.DataFrame()
    for q in ("missed", "blind", "missed_gap", "hter_error", "hter_clean"):
        if q in mi.index:
            f.add(q, mi.loc[q, "estimate"], ci=(mi.loc[q, "ci_low"], mi.loc[q, "ci_high"]), n=mi.loc[q, "n"])
        else:
            f.add(q)
    # an edit rate blind to emotion errors would leave as many of them at or below the clean median as clean rows
    f.add("errors_seen", int(mi.loc["missed_gap", "ci_high"] < 0) if "missed_gap" in mi.index else None)
    rates = t["post_edit_rates"]
    mh = rates[rates["data"] == "MetaHOPE"] if not rates.empty else rates
    if mh.empty:
        return f.add("gold_verbatim").add("gold_closest")
    # a translation the gold standard copies word for word has edit rate 0; the system closest to the gold
    # standard per sentence is the likeliest one post-edited (the workbook does not record it)
    f.add("gold_verbatim", int((mh["hter"] == 0).sum()), text=str(len(mh)))
    system = mh["unit"].str.split(" / ", n=1).str[1]
    closest = mh.assign(system=system).sort_values("hter").groupby("cluster").head(1)["system"].value_counts()
    return f.add("gold_closest", int(closest.iloc[0]), text=closest.index[0], sentences=int(mh["cluster"].nunique()))


def _wmt22(t: dict) -> Findings:
    """Section ``wmt22``: the field's metrics against expert MQM on WMT22 ZH→EN, ranked only by tested clusters."""
    f = Findings()
    me, ranks = t["wmt22_meta_evaluation"], t["wmt22_clusters"]
    names = (
        "wmt22_metrics",
        "wmt22_first",
        "wmt22_clusters",
        "wmt22_bleu",
        "wmt22_own_bleu",
        "wmt22_refb_first",
        "wmt22_acc_eq_low",
        "wmt22_acc_eq_high",
    )
    if me.empty or ranks.empty:
        for q in names:
            f.add(q)
        return f
    no = ranks[ranks["setting"] == "no_human"]
    system = me[(me["setting"] == "no_human") & (me["statistic"] == "pearson")]
    f.add("wmt22_metrics", no["metric"].nunique(), n=int(system["n"].max()))
    first = no[no["rank"] == 1]
    f.add(
        "wmt22_first",
        len(first),
        text=_listing(first["metric"].tolist()),
        best_r=first["estimate"].max(),
        least_r=first["estimate"].min(),
    )
    f.add("wmt22_clusters", int(no["rank"].max()))
    for q, metric in (("wmt22_bleu", "BLEU-refA"), ("wmt22_own_bleu", "bleu")):
        row = no[no["metric"] == metric]
        f.add(q, row["estimate"].iloc[0] if len(row) else None, rank=row["rank"].iloc[0] if len(row) else None)
    refb = ranks[(ranks["setting"] == "with_refB") & (ranks["rank"] == 1)]
    f.add(
        "wmt22_refb_first",
        len(refb),
        text=_listing(refb["metric"].tolist()) if len(refb) else None,
        n=int(me[(me["setting"] == "with_refB") & (me["statistic"] == "pearson")]["n"].max()),
    )
    acc = me[(me["setting"] == "no_human") & (me["statistic"] == "acc_eq_item")].dropna(subset=["estimate"])
    if acc.empty:
        return f.add("wmt22_acc_eq_low").add("wmt22_acc_eq_high")
    low, high = acc.loc[acc["estimate"].idxmin()], acc.loc[acc["estimate"].idxmax()]
    f.add("wmt22_acc_eq_low", low["estimate"], ci=(low["ci_low"], low["ci_high"]))
    return f.add("wmt22_acc_eq_high", high["estimate"], ci=(high["ci_low"], high["ci_high"]))


def findings(folder) -> pd.DataFrame:
    """Chapter 09's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone.

    Every quantity is always present; one whose table is missing or empty is not applicable
    (its sentence drops out of the words). Quantities per metric or data set carry it as ``group``.
    One function per section of the words (:func:`_data`, :func:`_reproduce`, :func:`_meta`,
    :func:`_choice`, :func:`_unmatched`, :func:`_protocols`, :func:`_seeds`).

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS` plus extra columns some quantities use.
    """
    t = {name: read_saved(folder, name) for name in FINDINGS_INPUTS}
    parts = [_data(t), _reproduce(t), _meta(t), _choice(t), _unmatched(t, folder), _protocols(t), _seeds(t), _wmt22(t)]
    frames = [p.frame() for p in parts]
    return pd.concat([fr for fr in frames if not fr.empty], ignore_index=True)
