"""Which automatic metrics miss what the experts see on idiom segments?

Two questions per metric, on the (system, segment) cells of machine translations that both the
experts (MQM) and the metric scored:

1. :func:`residual_effects`: the idiom effect on the MQM penalty that remains once the metric's
   score is controlled for (:func:`helpers.figurative.design.idiom_effect` with the metric as a
   covariate). A metric that saw every idiom error would leave nothing; what remains is the
   penalty the experts give idiom segments and the metric does not.
2. :func:`accuracy_by_group`: the metric's segment-level agreement with the experts on idiom
   segments against the other segments, as tie-calibrated pairwise accuracy averaged over
   segments (chapter 09's statistic, passed in as ``accuracy``), with a paired document
   bootstrap of the difference.

Reference-based metrics compare the output with reference A (so the human translations are
left out of both questions); quality-estimation (QE) metrics read only the source, which is
where the idiom is.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from helpers.core.statistics import stats

from . import design

#: How a metric file's name says its kind (mt-metrics-eval's naming: ``NAME-refA``, ``NAME-src``).
QE_SUFFIX = "-src"
ACCURACY_COLUMNS = ["metric", "kind", "group", "estimate", "ci_low", "ci_high", "p", "segments"]


def kind(metric: str) -> str:
    """``qe`` for a metric scored from the source alone (``…-src``), else ``reference``.

    >>> kind("COMETKiwi-src"), kind("BLEU-refA"), kind("chrF (book)")
    ('qe', 'reference', 'reference')
    """
    return "qe" if metric.endswith(QE_SUFFIX) else "reference"


def residual_effects(
    table: pd.DataFrame,
    metrics: pd.DataFrame,
    flag: str = "idiom",
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 95.0,
    progress=None,
    min_segments: int = design.MIN_IDIOM_SEGMENTS,
) -> pd.DataFrame:
    """The idiom effect on the MQM penalty with and without each metric's score controlled for.

    Parameters
    ----------
    table : DataFrame
        Penalty rows of one data set (:func:`helpers.figurative.design.idiom_effect`'s input).
    metrics : DataFrame
        ``metric, system, segment, score`` (``segment`` as in ``table``).
    flag : str
        The column compared.
    n_boot, seed, ci
        Document resamples, their seed, coverage in percent.
    progress : callable, optional
        Wraps the iteration over metrics (e.g. ``tqdm``).
    min_segments : int
        Fewer flagged (or unflagged) segments: not estimable, and only the ``(none)`` row is returned.

    Returns
    -------
    DataFrame
        ``metric, kind`` and :data:`helpers.figurative.design.EFFECT_COLUMNS`; the first row,
        metric ``(none)``, is the effect without any metric, on the same cells as each metric's
        row (cells every metric scored).

    Notes
    -----
    β_m in penalty = α + β_m · idiom + θ · metric_m + γ · log(chars) + δ_s + η_domain + e;
    the smaller |β_m| against β without a metric, the more of the idiom penalty the metric sees.

    References
    ----------
    Freitag, M. et al. (2022). Results of the WMT22 Metrics Shared Task (the metric scores).
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    wide = metrics.pivot_table(index=["system", "segment"], columns="metric", values="score", aggfunc="first")
    names = list(wide.columns)
    cells = table.merge(wide.reset_index(), on=["system", "segment"], how="inner")
    cells = cells.dropna(subset=names + ["score"]).reset_index(drop=True)
    marked = cells[flag].astype(bool)
    base = design.idiom_effect(cells, flag=flag, n_boot=n_boot, seed=seed, ci=ci, n_perm=0, min_segments=min_segments)
    base.insert(0, "kind", "")
    base.insert(0, "metric", "(none)")
    frames = [base]
    if not bool(base["estimable"].iloc[0]):
        return base
    x, y = design.design(cells.assign(**{flag: marked}), (flag,))
    labels = design.codes(cells["doc"])
    xtx, xty = design.cross_products(x, y, labels)
    for name in progress(names) if progress else names:
        m = cells[name].to_numpy(dtype=float)
        xm = np.column_stack([np.bincount(labels, weights=col * m, minlength=xtx.shape[0]) for col in x.T])
        mm, my = np.bincount(labels, weights=m * m), np.bincount(labels, weights=m * y)
        full_xtx = np.block([[xtx, xm[:, :, None]], [xm[:, None, :], mm[:, None, None]]])
        full_xty = np.concatenate([xty, my[:, None]], axis=1)
        full, coef, _ = design.bootstrap_fits(full_xtx, full_xty, n_boot, seed)
        row = base.iloc[0].to_dict() | design.summary(full[1], coef[np.isfinite(coef[:, 1]), 1], ci)
        frames.append(pd.DataFrame([row | {"metric": name, "kind": kind(name)}]))
    return pd.concat(frames, ignore_index=True)


def grids(table: pd.DataFrame, metrics: pd.DataFrame) -> tuple[pd.Index, list, np.ndarray, dict]:
    """Items (segments) × systems matrices of the experts' scores (negated penalty, higher is better)
    and of each metric, on the cells both scored.

    Parameters
    ----------
    table : DataFrame
        Penalty rows (``system, segment, score``).
    metrics : DataFrame
        ``metric, system, segment, score``.

    Returns
    -------
    tuple
        (segments, systems, human matrix, {metric: matrix}); NaN where a cell is not scored.

    References
    ----------
    Freitag, M. et al. (2022). Results of the WMT22 Metrics Shared Task (segment-level, grouped by item).
    """
    human = -table.pivot_table(index="segment", columns="system", values="score", aggfunc="first")
    grids_ = {}
    for name, part in metrics.groupby("metric", sort=False):
        m = part.pivot_table(index="segment", columns="system", values="score", aggfunc="first")
        grids_[name] = m.reindex(index=human.index, columns=human.columns).to_numpy(dtype=float)
    return human.index, list(human.columns), human.to_numpy(dtype=float), grids_


def accuracy_by_group(
    table: pd.DataFrame,
    metrics: pd.DataFrame,
    accuracy: Callable,
    flag: str = "idiom",
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 95.0,
    progress=None,
) -> pd.DataFrame:
    """Tie-calibrated pairwise accuracy of each metric on idiom segments and on the others, and the
    difference with a paired document-bootstrap interval and p-value.

    Parameters
    ----------
    table : DataFrame
        Penalty rows of one data set with ``doc`` and the boolean ``flag``.
    metrics : DataFrame
        ``metric, system, segment, score`` (higher is better).
    accuracy : callable
        ``accuracy(human, metric, weights, clusters=None, exact=0) -> (acc, eps)`` per row of item weights,
        the first ``exact`` rows estimates (every threshold tried), the sums of the others taken per
        cluster of items that share their weights (here: a document's segments of one group): chapter
        09's :func:`helpers.metrics.meta.tie_calibrated_accuracy_weighted`.
    flag : str
        The column that splits the segments.
    n_boot, seed, ci
        Document resamples (every segment of a drawn document, in both groups at once), their
        seed, coverage in percent.
    progress : callable, optional
        Wraps the iteration over metrics.

    Returns
    -------
    DataFrame
        :data:`ACCURACY_COLUMNS`: rows ``group`` ``idiom``, ``other`` and ``difference``
        (idiom − other, with the bootstrap p-value) per metric.

    Notes
    -----
    acc_g = acc_eq over the segments of group g (ε searched per group); difference = acc_idiom −
    acc_other; p = 2 · min(share of resampled differences ≤ 0, share ≥ 0), at least 1/B.

    References
    ----------
    Deutsch, Foster & Freitag (2023), Ties Matter, arXiv:2305.14324.
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §16.4 (bootstrap tests).
    """
    segments, _, human, by_metric = grids(table, metrics)
    first = table.drop_duplicates("segment").set_index("segment")
    marked = first[flag].reindex(segments).astype(bool).to_numpy()
    docs = first["doc"].reindex(segments).to_numpy()
    weights = stats.resample(len(segments), n_boot, seed=seed, clusters=docs)
    groups = np.stack([marked, ~marked]).astype(float)
    both = np.concatenate([groups, weights * marked, weights * ~marked])  # one call: the pairs sorted once
    parts = pd.Series(docs).astype(str).str.cat(pd.Series(marked).astype(str), sep="|").to_numpy()  # share a weight
    rows = []
    for name in progress(list(by_metric)) if progress else by_metric:
        acc = accuracy(human, by_metric[name], both, clusters=parts, exact=2)[0]
        est = {"idiom": float(acc[0]), "other": float(acc[1])}
        boot = {"idiom": acc[2 : n_boot + 2], "other": acc[n_boot + 2 :]}
        diff = boot["idiom"] - boot["other"]
        diff = diff[np.isfinite(diff)]
        p = (
            min(1.0, max(2 * min((diff <= 0).mean(), (diff >= 0).mean()), 1 / max(len(diff), 1)))
            if len(diff)
            else float("nan")
        )
        for group, count in (("idiom", int(marked.sum())), ("other", int((~marked).sum()))):
            low, high = stats.percentile_interval(boot[group], ci)
            rows.append((name, kind(name), group, est[group], low, high, float("nan"), count))
        low, high = stats.percentile_interval(diff, ci)
        rows.append((name, kind(name), "difference", est["idiom"] - est["other"], low, high, p, len(segments)))
    return pd.DataFrame(rows, columns=ACCURACY_COLUMNS)
