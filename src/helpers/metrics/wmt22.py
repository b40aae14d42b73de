"""Chapter 09's WMT22 ZH→EN section: the field's metrics against expert MQM, as WMT's metrics task asks.

WMT22's metrics task (Freitag et al. 2022) gave its Chinese→English submissions Google's expert MQM
and collected the segment scores of every participating metric; the mt-metrics-eval copy in the
registry (:func:`helpers.core.formats.testsets.get` ``("wmt22")``, florethsong/mtme-zh-mwe) holds 21
reference-based metrics against reference A and 10 QE metrics (``*-src``) for the 16 MQM-rated
outputs, among them two human translations (``refA``, ``refB``). This module reads them
(:func:`helpers.metrics.files.mtme_scores`), adds the book's own sacrebleu BLEU and chrF against
reference A (:func:`own_scores`) and any outside metric file, and meta-evaluates all of them:

* :func:`meta_evaluation`: the statistics of :func:`helpers.metrics.meta.meta_evaluate` at system level
  (the mean of each metric's segment scores, as the copy has no system-level metric files; the expert
  system score is the mean of the segment scores, equal to the copy's ``mqm.sys.score`` to 1e-14) and
  at segment level (flat and grouped by item, and the tie-calibrated accuracy of WMT23), in two
  settings: ``no_human`` (the human translations left out, mt-metrics-eval's default) and
  ``with_refB`` (reference B scored as a system; reference A is what the metrics compare with);
* :func:`clusters`: PERM-BOTH between every pair of metrics on system-level Pearson r and the
  significance clusters WMT's metrics task draws (:func:`helpers.metrics.significance.metric_clusters`).

Every estimate equals mt-metrics-eval's own code on these files (``tests/metrics/test_wmt22.py`` pins the
values it recorded). The intervals are this book's bootstrap of segments (mt-metrics-eval has none).
"""

from __future__ import annotations

import pandas as pd

from ..core import cache
from . import files, meta, scores
from .significance import compare_metrics, metric_clusters

#: The two settings of the systems compared: name -> (keep the human references?, systems left out).
SETTINGS = {"no_human": (False, ()), "with_refB": (True, ("refA",))}
#: The book's own metrics computed on the WMT22 texts (sacrebleu, against reference A).
OWN_METRICS = ("bleu", "chrf")
#: Statistics of the section, per level.
SYSTEM = ("pearson", "kendall_tau_b", "pairwise_accuracy")
SEGMENT = (
    "pearson_flat",
    "kendall_tau_b_flat",
    "pearson_item",
    "kendall_tau_b_item",
    "acc_eq_item",
    "acc_eq_epsilon_item",
)
#: Resampled only with ``flat_intervals`` (the flat Kendall τ of ~28,000 cells costs seconds per metric and
#: resample set): otherwise its interval is left empty.
COSTLY = ("kendall_tau_b_flat",)


def own_scores(es, metrics=OWN_METRICS, reference: str = "refA") -> pd.DataFrame:
    """The book's sacrebleu metrics on every rated output of ``es`` against ``reference``: ``system, segment,
    metric, score, doc`` (:func:`helpers.metrics.scores.segment_scores`; sentence BLEU with exp smoothing,
    sentence chrF), for the systems the experts rated (``reference`` itself excluded)."""
    human = es.human("mqm")
    rated = set(human.loc[human["score"].notna(), "system"])  # 16 of the 20 outputs have expert scores
    systems = [s for s in es.systems if s in rated and s != reference]
    texts = es.texts(systems=systems, reference=reference)
    # ~28,000 sentences x 2 metrics: cached under .cache/ by the texts, so a second run reads them back
    out = cache.cached(
        "wmt22_own_scores",
        1,
        (texts, list(metrics), scores.SCORES_VERSION),
        lambda: scores.segment_scores(texts, list(metrics), processes=None),  # two processes when the kernel may
    )
    clusters = es.segments().set_index("segment")["cluster"]
    out = out.assign(segment=out["segment"].astype(float), doc=out["segment"].astype(int).map(clusters).astype(str))
    return out[["system", "segment", "metric", "score", "doc"]]


def scores_of(
    es, own: pd.DataFrame | None = None, outside: pd.DataFrame | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Expert MQM and every metric's segment scores of ``es``, read once: the 31 files, the book's own
    (``own``) and ``outside`` ones (``system, segment, metric, score``), human translations included
    (:func:`in_setting` picks the systems of a setting)."""
    human, metrics = files.mtme_scores(es, "mqm", references=True)
    extra = [f for f in (own, outside) if f is not None and len(f)]
    if extra:
        keep = set(human["system"])
        metrics = pd.concat([metrics, *[f[f["system"].isin(keep)] for f in extra]], ignore_index=True)
    return human, metrics


def in_setting(
    human: pd.DataFrame, metrics: pd.DataFrame, setting: str, references=("refA", "refB")
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The scores of one of :data:`SETTINGS`: without the human translations (``references``), or with every
    one but the reference the metrics compare with (refA)."""
    keep_references, left_out = SETTINGS[setting]
    drop = set(left_out) | (set() if keep_references else set(references))
    return human[~human["system"].isin(drop)], metrics[~metrics["system"].isin(drop)]


def meta_evaluation(
    scored: tuple[pd.DataFrame, pd.DataFrame], n_boot: int = 200, seed: int = 0, flat_intervals: bool = False
) -> pd.DataFrame:
    """Every metric of ``scored`` (:func:`scores_of`) against expert MQM in both :data:`SETTINGS`:
    ``setting`` then :data:`helpers.metrics.meta.COLUMNS`.

    System scores are the means of the segment scores (``segments="all"``); intervals are percentile
    intervals over ``n_boot`` resamples of segments (:func:`helpers.metrics.meta.meta_evaluate`), except
    for :data:`COSTLY` statistics unless ``flat_intervals``. Ties are equalities up to
    :data:`helpers.metrics.correlations.TIE_TOLERANCE`.
    """
    frames = []
    for setting in SETTINGS:
        human, metrics = in_setting(*scored, setting)
        table = meta.meta_evaluate(
            human,
            metrics,
            segments="all",
            n_boot=n_boot,
            seed=seed,
            human_higher_is_better=True,
            lower_is_better=(),
            statistics=SYSTEM + SEGMENT,
            point_only=() if flat_intervals else COSTLY,
        ).table
        order = {s: k for k, s in enumerate(SYSTEM + SEGMENT)}
        table = table.assign(_o=table["statistic"].map(order)).sort_values(["metric", "_o"], kind="stable")
        frames.append(table.drop(columns="_o").assign(setting=setting))
    out = pd.concat(frames, ignore_index=True)
    return out[["setting"] + meta.COLUMNS]


def clusters(
    scored: tuple[pd.DataFrame, pd.DataFrame], n_perm: int = 1000, seed: int = 0, alpha: float = 0.05
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """PERM-BOTH on system-level Pearson r between every pair of metrics of ``scored`` (:func:`scores_of`),
    and their significance clusters, in both :data:`SETTINGS`.

    Returns
    -------
    comparison : DataFrame
        ``setting, metric_a, metric_b, delta, p`` (:func:`helpers.metrics.significance.compare_metrics`).
    ranks : DataFrame
        ``setting, metric, estimate, rank, p_next`` (:func:`helpers.metrics.significance.metric_clusters`).
    """
    comparisons, ranks = [], []
    for setting in SETTINGS:
        human, metrics = in_setting(*scored, setting)
        options = {"segments": "all", "human_higher_is_better": True, "lower_is_better": ()}
        cmp = compare_metrics(human, metrics, "pearson", "system", n_perm=n_perm, seed=seed, **options)
        est = meta.meta_evaluate(human, metrics, level="system", n_boot=0, statistics=["pearson"], **options).table
        ranks.append(metric_clusters(est[["metric", "estimate"]], cmp, alpha).assign(setting=setting))
        comparisons.append(cmp.assign(setting=setting))
    comparison = pd.concat(comparisons, ignore_index=True)[["setting", "metric_a", "metric_b", "delta", "p"]]
    ranked = pd.concat(ranks, ignore_index=True)[["setting", "metric", "estimate", "rank", "p_next"]]
    return comparison, ranked


__all__ = ["SETTINGS", "OWN_METRICS", "own_scores", "scores_of", "in_setting", "meta_evaluation", "clusters"]
