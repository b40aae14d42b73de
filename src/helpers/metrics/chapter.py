"""What chapter 09 needs besides the statistics: checked parameters, data with provenance, analysis steps.

The chapter calls :func:`metrics_setup` in the cell right after its parameters cell; it checks
every parameter before any work and raises :class:`~helpers.core.errors.InputError` naming
the parameter. ``setup.load()`` returns :class:`MetricsData`: the texts, the expert MQM
segment scores joined to them by line, the published system scores and the other human
protocol's system scores, with their :class:`~helpers.core.report.Provenance`. The steps
(:func:`reproduction`, :func:`metric_scores`, :func:`protocol_ranks`; for the seeds' post-edits
:func:`post_edit_rates`, :func:`edit_rate_agreement`, :func:`missed_errors`) take that box and return
tidy frames, which the chapter saves as its result CSVs. The meta-evaluation statistics are
:mod:`helpers.metrics.meta`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from ..core import params
from ..core.errors import InputError
from ..core.report import ChapterData, Provenance
from . import data as wmt
from . import scores

RELEASED_DETAIL = ("WMT's ZH→EN test sets and submissions (wmt-conference/wmt21-news-systems and wmt23-news-systems "
                   "at the pinned commits), their published BLEU/chrF/COMET and crowd human scores, and Google's "
                   "expert MQM ratings (google/wmt-mqm-human-evaluation, Apache-2.0), sha256-verified by "
                   "<code>python -m helpers fetch</code>.")
OWN_DETAIL = "Reference, system outputs and human scores passed to this notebook as papermill parameters."
#: The chapter's default metrics: TER is one parameter away (sacrebleu's TER costs ~30 ms a sentence, see
#: :mod:`helpers.metrics.scores`: 151 s cold for 650 x 8 segments; the chapter's budget is 60 s).
DEFAULT_METRICS = ("bleu", "chrf", "chrfpp", "embed")


@dataclass(frozen=True)
class MetricsData(ChapterData):
    texts: pd.DataFrame = None  # system, segment, source, reference, hypothesis (every line)
    human: pd.DataFrame = None  # system, segment, score (expert MQM penalty, lower is better; rated segments)
    published: pd.DataFrame = None  # system, metric, score (published BLEU/chrF; empty for own data)
    protocol: pd.DataFrame = None  # system, score: the other human protocol (DA / DA+SQM), higher is better
    protocol_name: str = ""
    testset: str = ""


@dataclass(frozen=True)
class MetricsSetup:
    """Chapter 09's checked parameters (see the chapter's parameters cell)."""

    testset: str
    reference: Path | None
    hypotheses: dict[str, Path] | None
    human: Path | None
    metrics: tuple[str, ...]
    n_boot: int
    seed: int

    @property
    def released(self) -> bool:
        return self.reference is None

    def load(self) -> MetricsData:
        """The data box: WMT's released files for ``testset``, or the files given as parameters."""
        if not self.released:
            from .commands import read_texts
            from .meta_command import read_human

            texts = read_texts(self.reference, self.hypotheses)
            human = read_human(self.human)[["system", "segment", "score"]]
            files = tuple(str(p) for p in [self.reference, *self.hypotheses.values(), self.human])
            return MetricsData(Provenance("own", files, OWN_DETAIL), texts=texts, human=human,
                               published=pd.DataFrame(columns=["system", "metric", "score"]),
                               protocol=pd.DataFrame(columns=["system", "score"]), testset="own files")
        texts = wmt.texts(self.testset)
        if self.testset == "newstest2021":
            human = wmt.mqm_newstest2021()
            da = wmt.da_newstest2021()
            protocol, name = da.rename(columns={"z": "score"})[["system", "score"]], "crowd DA (z)"
        else:
            human = wmt.mqm_generaltest2023()[["system", "segment", "score"]]
            sqm = wmt.dasqm_generaltest2023()
            protocol, name = sqm.rename(columns={"raw": "score"})[["system", "score"]], "DA+SQM"
        return MetricsData(Provenance("released", (), RELEASED_DETAIL), texts=texts, human=human,
                           published=wmt.published_automatic(self.testset), protocol=protocol, protocol_name=name,
                           testset=self.testset)


def metrics_setup(testset="newstest2021", reference=None, hypotheses=None, human=None, metrics=DEFAULT_METRICS,
                  n_boot=1000, seed=0, results_dir="results") -> MetricsSetup:
    """Check chapter 09's parameters before any work (each problem names its parameter).

    ``reference``, ``hypotheses`` (``{NAME: FILE}``) and ``human`` (an MQM file or a
    ``system, segment, score`` CSV) replace WMT's files; all three or none.
    """
    params.choice("testset", testset, list(wmt.TESTSETS))
    given = [reference is not None, hypotheses is not None, human is not None]
    if any(given) and not all(given):
        missing = [n for n, g in zip(("reference", "hypotheses", "human"), given) if not g][0]
        raise InputError("is needed with the other two of reference, hypotheses, human", parameter=missing,
                         expected="a file")
    params.text("results_dir", str(results_dir))
    return MetricsSetup(
        testset=testset,
        reference=params.existing_file("reference", reference) if reference is not None else None,
        hypotheses=params.named_files("hypotheses", hypotheses, minimum=2) if hypotheses is not None else None,
        human=params.existing_file("human", human) if human is not None else None,
        metrics=tuple(scores.parse_metrics(metrics)),
        n_boot=params.integer("n_boot", n_boot, minimum=100), seed=params.integer("seed", seed, minimum=0))


def reproduction(box: MetricsData) -> pd.DataFrame:
    """Published BLEU and chrF beside sacrebleu's, per system: ``system, metric, published, computed, difference``.

    Computed with sacrebleu's defaults on every line (:func:`helpers.metrics.scores.system_scores`);
    ``difference`` is computed minus published (0 to the printed precision when reproduced).
    """
    if box.published.empty:
        return pd.DataFrame(columns=["system", "metric", "published", "computed", "difference"])
    computed = scores.system_scores(box.texts, ["bleu", "chrf"])[["system", "metric", "score"]]
    out = box.published.rename(columns={"score": "published"}).merge(
        computed.rename(columns={"score": "computed"}), on=["system", "metric"], how="outer")
    out["difference"] = out["computed"] - out["published"]
    return out.sort_values(["metric", "published"], ascending=[True, False]).reset_index(drop=True)


def metric_scores(box: MetricsData, metrics=DEFAULT_METRICS, system_lines: str = "all") -> pd.DataFrame:
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


def protocol_ranks(box: MetricsData) -> pd.DataFrame:
    """Each system's rank under expert MQM, the other human protocol and BLEU.

    Returns
    -------
    DataFrame
        ``system, mqm, mqm_rank, protocol, protocol_rank, bleu, bleu_rank, rank_shift`` for the
        systems with an output; rank 1 is best (MQM: lowest mean penalty over the segments rated
        for every system, :func:`helpers.core.scoring.system_scores`' convention; the protocol and
        BLEU: highest score); ties share their mean rank; ``rank_shift`` is protocol rank minus
        MQM rank.
    """
    systems = box.texts["system"].unique()
    human = box.human[box.human["system"].isin(systems)]
    common = human.groupby("segment")["system"].transform("nunique") == len(systems)
    mqm = human[common].groupby("system")["score"].mean()
    protocol = box.protocol.set_index("system")["score"].reindex(systems)
    bleu = scores.system_scores(box.texts, ["bleu"]).set_index("system")["score"].reindex(systems)
    out = pd.DataFrame({"system": systems, "mqm": mqm.reindex(systems).to_numpy(), "protocol": protocol.to_numpy(),
                        "bleu": bleu.to_numpy()})
    out["mqm_rank"] = rankdata(out["mqm"], nan_policy="omit")
    out["protocol_rank"] = rankdata(-out["protocol"], nan_policy="omit")
    out["bleu_rank"] = rankdata(-out["bleu"], nan_policy="omit")
    out["rank_shift"] = out["protocol_rank"] - out["mqm_rank"]
    cols = ["system", "mqm", "mqm_rank", "protocol", "protocol_rank", "bleu", "bleu_rank", "rank_shift"]
    return out[cols].sort_values("mqm_rank").reset_index(drop=True)


# --------------------------------------------------------------------------- the seeds' question
def post_edit_rates(frame: pd.DataFrame, mt: str = "mt", post_edit: str = "post_edit",
                    target: str = "en") -> pd.DataFrame:
    """``frame`` with ``hter``: the TER of each MT output against its own post-edit (HTER; Snover
    et al. 2006), in percent, by sacrebleu (:func:`helpers.metrics.scores.segment_scores`, cached).

    ``target="zh"`` for Chinese targets (MetaHOPE's EN→ZH pilot): one character a word.
    """
    texts = pd.DataFrame({"system": "mt", "segment": range(1, len(frame) + 1),
                          "hypothesis": frame[mt].astype(str).to_numpy(),
                          "reference": frame[post_edit].astype(str).to_numpy()})
    ter = scores.segment_scores(texts, ["ter"], target=target)["score"].to_numpy()
    return frame.assign(hter=ter)


def _bootstrap(statistic, n: int, n_boot: int, seed: int, clusters=None) -> tuple[float, float]:
    """Percentile interval of ``statistic(index)`` over bootstrap resamples of the n rows
    (whole clusters when ``clusters`` is given; :func:`helpers.core.stats.resample`)."""
    from ..core import stats

    weights = stats.resample(n, n_boot, seed=seed, clusters=clusters)
    rows = np.arange(n)
    return stats.percentile_interval([statistic(np.repeat(rows, w)) for w in weights])


def edit_rate_agreement(frame: pd.DataFrame, value: str = "penalty", n_boot: int = 1000, seed: int = 0,
                        clusters: str | None = None) -> pd.DataFrame:
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
    for name, fn in (("pearson", pearsonr), ("spearman", spearmanr)):
        def stat(idx, fn=fn):
            a, b = x[idx], y[idx]
            return float(fn(a, b)[0]) if np.ptp(a) > 0 and np.ptp(b) > 0 else float("nan")

        whole = stat(np.arange(len(x)))
        low, high = _bootstrap(stat, len(x), n_boot, seed, groups)
        rows.append({"statistic": name, "estimate": whole, "ci_low": low, "ci_high": high, "n": len(x)})
    return pd.DataFrame(rows)


def missed_errors(frame: pd.DataFrame, n_boot: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Are the annotated errors ones the edit rate misses? HADQAET's question (issue 33, item 5).

    ``missed`` is the share of the rows with at least one error whose HTER is no higher than
    the median HTER of the error-free rows: translations the post-editor changed no more than a
    typical clean one, though the annotator found an error. ``hter_error`` and ``hter_clean``
    are the mean HTER of the two groups. Bootstrap intervals resample the rows.

    Returns
    -------
    DataFrame
        ``statistic, estimate, ci_low, ci_high, n`` (``n``: rows with an error, for ``missed``).
    """
    hter, has_error = frame["hter"].to_numpy(dtype=float), (frame["errors"] > 0).to_numpy()

    def missed(idx):
        clean, err = hter[idx][~has_error[idx]], hter[idx][has_error[idx]]
        return float((err <= np.median(clean)).mean()) if len(clean) and len(err) else float("nan")

    def mean_of(flag):
        return lambda idx: float(hter[idx][has_error[idx] == flag].mean()) if (has_error[idx] == flag).any() \
            else float("nan")

    rows = []
    for name, stat, n in (("missed", missed, int(has_error.sum())), ("hter_error", mean_of(True), int(has_error.sum())),
                          ("hter_clean", mean_of(False), int((~has_error).sum()))):
        low, high = _bootstrap(stat, len(hter), n_boot, seed)
        rows.append({"statistic": name, "estimate": stat(np.arange(len(hter))), "ci_low": low, "ci_high": high,
                     "n": n})
    return pd.DataFrame(rows)
