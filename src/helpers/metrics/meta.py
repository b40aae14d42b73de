"""Meta-evaluation of automatic metrics against human judgements, the mt-metrics-eval way.

Do a metric's scores order translations as expert annotators do? This module answers with
the statistics of WMT's metrics task, as google-research/mt-metrics-eval (``stats.py``,
``tau_optimization.py``) defines them:

* **system level** (:func:`pearson`, :func:`kendall_tau_b`, :func:`pairwise_accuracy`): one
  human and one metric score per system;
* **segment level**, *flattened* (one correlation over every rated (system, segment) cell)
  and *grouped by item* (one correlation per segment across the systems that translated
  it, averaged over segments: mt-metrics-eval's ``average_by="item"``), plus the
  tie-calibrated pairwise accuracy acc_eq (:func:`tie_calibrated_accuracy`, Deutsch et al.
  2023), WMT 2023's main segment-level statistic;
* **intervals** by a seeded bootstrap of segments or of whole documents
  (:func:`helpers.core.statistics.stats.resample`), every statistic recomputed on each resample;
* **is metric A better than metric B?** the paired permutation test PERM-BOTH (Deutsch et
  al. 2021; :func:`perm_both`, :func:`compare_metrics`).

Inputs are tidy frames. Human scores: ``system, segment, score`` (optionally ``doc``);
a row whose ``segment`` is empty is a system score (e.g. WMT's crowd DA system scores).
Metric scores: ``system, segment, metric, score`` (optionally ``doc``), a metric's own
system scores (e.g. corpus BLEU) in rows whose ``segment`` is empty. ``segment`` is the
segment's number (the 1-based line of the test set); the two sides are joined on it.

Orientation: MQM penalties are lower-is-better (``human_higher_is_better=False``, the
default) and most metrics higher-is-better; TER is not (``lower_is_better``, default
:data:`LOWER_IS_BETTER`). Both sides are turned higher-is-better (negated where lower is
better) before any statistic, so a metric that agrees with the humans always gets a
positive correlation and an accuracy above chance. Tie thresholds (epsilon) keep the
metric's own units.

Cells, systems and segments present on one side only are counted and reported in the
``unmatched`` frame of :func:`meta_evaluate`, never silently dropped.

References
----------
Freitag, M., Rei, R., Mathur, N., Lo, C., Stewart, C., Avramidis, E., Kocmi, T., Foster, G.,
Lavie, A. & Martins, A. (2023). Results of WMT23 Metrics Shared Task. WMT 2023.
Kocmi, T., Federmann, C., Grundkiewicz, R., Junczys-Dowmunt, M., Matsushita, H. & Menezes, A.
(2021). To Ship or Not to Ship: An Extensive Evaluation of Automatic Metrics for Machine
Translation. WMT 2021. arXiv:2107.10821.
Deutsch, D., Dror, R. & Roth, D. (2021). A Statistical Analysis of Summarization Evaluation
Metrics Using Resampling Methods. TACL 9. arXiv:2104.00054.
Deutsch, D., Foster, G. & Freitag, M. (2023). Ties Matter: Meta-Evaluating Modern Metrics
with Pairwise Accuracy and Tie Calibration. EMNLP 2023. arXiv:2305.14324.
Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika 33(3).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from ..core.statistics.correlation import kendall_tau_rows, pearson, pearson_rows
from ..core.statistics.stats import percentile_interval, resample
from .correlations import (
    TIE_TOLERANCE,
    _accuracy_rows,
    _item_values,
    _tie_calibrated_rows,
    _tie_pairs,
    _weighted_item_mean,
    snap_ties,
)
from .scores import LOWER_IS_BETTER  # metrics whose scores are lower-is-better by default (edit rates)

#: Columns of :func:`meta_evaluate`'s table (the ``metrics meta`` CSV).
COLUMNS = ["level", "metric", "statistic", "estimate", "ci_low", "ci_high", "n"]
#: Columns of :func:`meta_evaluate`'s ``unmatched`` frame.
UNMATCHED_COLUMNS = ["metric", "only_in", "what", "n", "examples"]
#: Statistics of each level, in the order of the table.
SYSTEM_STATISTICS = ("pearson", "kendall_tau_b", "pairwise_accuracy")
SEGMENT_STATISTICS = (
    "pearson_flat",
    "kendall_tau_b_flat",
    "pearson_item",
    "kendall_tau_b_item",
    "acc_eq_item",
    "acc_eq_epsilon_item",
)
#: How a metric's system scores are made (:func:`system_level_scores`).
SEGMENT_CHOICES = ("given", "all", "rated")
HUMAN = "human"


class MetaEvaluation(NamedTuple):
    """What :func:`meta_evaluate` returns: the statistics (``COLUMNS``), what was on one side only
    (``UNMATCHED_COLUMNS``) and a sentence for each statistic left undefined for too few units."""

    table: pd.DataFrame
    unmatched: pd.DataFrame
    notes: tuple = ()


#: No correlation is computed from fewer systems (system level), cells (flat) or items (grouped by item), nor
#: grouped by item when no item has this many systems: with two, every correlation is ±1 and every interval
#: [1, 1] (issue 42).
MIN_UNITS = 3


def tie_calibrated_accuracy_weighted(
    human, metric, weights, tolerance: float = TIE_TOLERANCE, clusters=None, exact: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`helpers.metrics.correlations.tie_calibrated_accuracy` under each row of item ``weights``
    (B, items): the item-averaged acc_eq and its ε with each item counted as often as its weight says (a
    bootstrap resample, or 0/1 to restrict the items to a group), the threshold searched afresh per row as
    in :func:`meta_evaluate`'s intervals (chapter 10 passes it as its accuracy).

    Parameters
    ----------
    human, metric : array_like
        Items × systems scores, both higher-is-better (NaN: not scored).
    weights : array_like
        (B, items) non-negative item weights.
    tolerance : float, default :data:`helpers.metrics.correlations.TIE_TOLERANCE`
        Ties (:func:`helpers.metrics.correlations.snap_ties`; 0: exact, as mt-metrics-eval).
    clusters : array_like, optional
        One label per item such that items of a label share their weight in every row (the documents of
        a cluster bootstrap, split by any 0/1 mask applied): the weighted sums are then taken per cluster,
        B × clusters instead of B × items (the same values up to rounding, ~1e-16).
    exact : int, default 0
        The first ``exact`` rows are estimates: every threshold tried, as for a single row (the others,
        resamples, search :data:`helpers.metrics.correlations.RESAMPLE_THRESHOLDS` candidates), so an
        estimate and its resamples share one sort of the pairs.

    Returns
    -------
    tuple of numpy.ndarray
        (acc_eq per row, ε per row); NaN for a row whose weighted items have no pair.

    References
    ----------
    Deutsch, Foster & Freitag (2023), Ties Matter, §4-5, arXiv:2305.14324.

    Examples
    --------
    >>> acc, eps = tie_calibrated_accuracy_weighted([[1, 1, 2], [1, 2, 3]], [[0.5, 0.6, 2.0], [3, 2, 1]],
    ...                                             [[1, 0], [0, 1]])
    >>> acc.round(3).tolist()  # item 1 alone: 3 of 3 with ε = 0.1; item 2 alone: 0 of 3
    [1.0, 0.0]
    """
    h, m = np.atleast_2d(np.asarray(human, dtype=float)), np.atleast_2d(np.asarray(metric, dtype=float))
    if h.shape != m.shape:
        raise ValueError(f"human scores have shape {h.shape}, metric scores {m.shape}")
    h, m = snap_ties(h.ravel(), tolerance).reshape(h.shape), snap_ties(m.ravel(), tolerance).reshape(m.shape)
    return _tie_calibrated_rows(_tie_pairs(h, m), np.atleast_2d(np.asarray(weights, dtype=float)), clusters, exact)


# --------------------------------------------------------------------------- the data, aligned


@dataclass
class _Aligned:
    """Both sides on one grid: items (segment numbers) × systems, oriented higher-is-better."""

    systems: list
    items: np.ndarray  # segment numbers
    clusters: np.ndarray  # document (or the segment itself) of each item
    human: np.ndarray  # (items, systems), NaN where not rated
    human_system: pd.Series  # human system rows (may be empty)
    metrics: dict  # name -> (items, systems) array
    metric_system: dict  # name -> Series of system rows
    signs: dict  # name (and HUMAN) -> +1 / −1 applied
    tolerance: float = TIE_TOLERANCE  # ties: :func:`helpers.metrics.correlations.snap_ties`


def _check(frame: pd.DataFrame, columns: list[str], what: str, duplicates: bool = True) -> pd.DataFrame:
    """``frame`` with ``columns`` typed; a repeated (system, segment[, metric]) refused unless ``duplicates`` is
    False (then the caller checks: :func:`_align` does it on its grids, without hashing every row's strings)."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what} scores lack column(s) {', '.join(missing)} (need {', '.join(columns)})")
    out = frame.copy()
    out["system"] = out["system"].astype(str)
    out["segment"] = pd.to_numeric(out["segment"], errors="raise").astype("Float64").astype(float)
    out["score"] = pd.to_numeric(out["score"], errors="raise").astype(float)
    if duplicates:
        _refuse_duplicates(out, ["system", "segment"] + (["metric"] if "metric" in columns else []), what)
    return out


def _refuse_duplicates(frame: pd.DataFrame, key: list[str], what: str) -> None:
    """A ValueError naming the first row of ``frame`` whose ``key`` another row repeats."""
    dup = frame.duplicated(key, keep=False)
    if dup.any():
        first = frame[dup].iloc[0]
        raise ValueError(f"{what} scores give {', '.join(f'{k} {first[k]!r}' for k in key)} more than once")


def _align(
    human: pd.DataFrame,
    metrics: pd.DataFrame,
    human_higher_is_better: bool,
    lower_is_better: Iterable[str],
    tolerance: float = TIE_TOLERANCE,
) -> _Aligned:
    h = _check(human, ["system", "segment", "score"], "human")
    m = _check(metrics, ["system", "segment", "metric", "score"], "metric", duplicates=False)
    m["metric"] = m["metric"].astype(str)
    if (m["metric"] == HUMAN).any():
        raise ValueError(f"a metric may not be called {HUMAN!r} (the name of the human scores)")
    lower = set(lower_is_better)
    signs = {HUMAN: 1.0 if human_higher_is_better else -1.0}
    signs.update({name: -1.0 if name in lower else 1.0 for name in m["metric"].unique()})
    h_seg, m_seg = h[h["segment"].notna()], m[m["segment"].notna()]
    systems = sorted(set(h["system"].unique()) | set(m["system"].unique()))
    items = np.unique(np.concatenate([h_seg["segment"].to_numpy(dtype=float), m_seg["segment"].to_numpy(dtype=float)]))
    system_index = pd.Index(systems)

    def grid(rows: pd.DataFrame, sign: float) -> np.ndarray:
        out = np.full((items.size, len(systems)), np.nan)
        at = np.searchsorted(items, rows["segment"].to_numpy(dtype=float)), system_index.get_indexer(rows["system"])
        if np.bincount(at[0] * len(systems) + at[1]).max(initial=0) > 1:  # a cell given twice
            _refuse_duplicates(m, ["system", "segment", "metric"], "metric")
        out[at] = snap_ties(sign * rows["score"].to_numpy(), tolerance)  # one scale: the whole grid
        return out

    docs = {}
    for side in (m_seg, h_seg):  # the human file's documents win where both name one
        if "doc" in side.columns:
            named = side.loc[side["doc"].notna() & (side["doc"].astype(str) != ""), ["segment", "doc"]]
            named = named.drop_duplicates("segment", keep="last")  # as a dict built row by row keeps the last
            docs.update(dict(zip(named["segment"], named["doc"].astype(str))))
    clusters = np.array([f"doc {docs[s]}" if s in docs else f"segment {s:g}" for s in items], dtype=object)

    def system_rows(rows: pd.DataFrame, sign: float) -> pd.Series:
        return pd.Series(
            snap_ties(sign * rows["score"].to_numpy(), tolerance), index=rows["system"].to_numpy(), dtype=float
        )

    h_sys = system_rows(h[h["segment"].isna()], signs[HUMAN])
    metric_grids, metric_sys = {}, {}
    for name, rows in m.groupby("metric", sort=False):
        seg = rows[rows["segment"].notna()]
        if rows.loc[rows["segment"].isna(), "system"].duplicated().any():  # a system row given twice
            _refuse_duplicates(m, ["system", "segment", "metric"], "metric")
        metric_grids[name] = grid(seg, signs[name])
        metric_sys[name] = system_rows(rows[rows["segment"].isna()], signs[name])
    return _Aligned(
        systems, items, clusters, grid(h_seg, signs[HUMAN]), h_sys, metric_grids, metric_sys, signs, tolerance
    )


def _unmatched(a: _Aligned, human: pd.DataFrame, metrics: pd.DataFrame) -> pd.DataFrame:
    rows = []
    h_systems = set(human["system"].astype(str).unique())
    pairs = metrics[["metric", "system"]].drop_duplicates()
    m_systems = pairs.groupby(pairs["metric"].astype(str), sort=False)["system"].agg(lambda s: set(s.astype(str)))

    def add(metric, only_in, what, n, examples):
        if n:
            rows.append({"metric": metric, "only_in": only_in, "what": what, "n": n, "examples": "; ".join(examples)})

    for name, grid in a.metrics.items():
        systems = m_systems.get(name, set())
        for only_in, names in (("human", sorted(h_systems - systems)), ("metric", sorted(systems - h_systems))):
            add(name, only_in, "system", len(names), map(str, names[:5]))
        for only_in, mask in (
            ("human", ~np.isnan(a.human) & np.isnan(grid)),
            ("metric", np.isnan(a.human) & ~np.isnan(grid)),
        ):
            item, system = np.nonzero(mask)  # only the first five cells are named
            add(
                name,
                only_in,
                "segment",
                item.size,
                [f"{a.systems[s]} #{a.items[i]:g}" for i, s in zip(item[:5], system[:5])],
            )
    return pd.DataFrame(rows, columns=UNMATCHED_COLUMNS)


# --------------------------------------------------------------------------- system level


def _human_system(a: _Aligned, weights: np.ndarray | None) -> tuple[np.ndarray, bool]:
    """Human system scores (B, systems) and whether they can be resampled (no system rows)."""
    if len(a.human_system):
        fixed = a.human_system.reindex(a.systems).to_numpy(dtype=float)
        return fixed[None, :], False
    return _segment_means(a.human, ~np.isnan(a.human), weights), True


def _segment_means(grid: np.ndarray, mask: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    w = np.ones((1, grid.shape[0])) if weights is None else np.atleast_2d(weights)
    values = np.where(mask, grid, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (w @ values) / (w @ mask.astype(float))


def _metric_system(a: _Aligned, name: str, segments: str, weights: np.ndarray | None) -> tuple[np.ndarray, bool, str]:
    """A metric's system scores (B, systems), whether they follow a resample, and their source."""
    if segments not in SEGMENT_CHOICES:
        raise ValueError(f"segments must be one of {', '.join(SEGMENT_CHOICES)}, not {segments!r}")
    grid, given = a.metrics[name], a.metric_system[name]
    if segments == "given" and len(given):
        return given.reindex(a.systems).to_numpy(dtype=float)[None, :], False, "system rows"
    if segments == "rated":
        if np.isnan(a.human).all():
            raise ValueError("segments='rated' needs human segment scores; the human scores here are system scores")
        return _segment_means(grid, ~np.isnan(grid) & ~np.isnan(a.human), weights), True, "mean of rated segments"
    return _segment_means(grid, ~np.isnan(grid), weights), True, "mean of all segments"


_SYSTEM_FUNCTIONS = {"pearson": pearson_rows, "kendall_tau_b": kendall_tau_rows, "pairwise_accuracy": _accuracy_rows}


def _system_rows(
    a: _Aligned, name: str, segments: str, weights, statistics=SYSTEM_STATISTICS
) -> tuple[dict, int, bool]:
    h, h_ok = _human_system(a, weights)
    m, m_ok, _ = _metric_system(a, name, segments, weights)
    point_h, _ = _human_system(a, None)
    point_m, _, _ = _metric_system(a, name, segments, None)
    keep = ~np.isnan(point_h[0]) & ~np.isnan(point_m[0])  # systems scored on both sides
    h = np.broadcast_to(h, (max(h.shape[0], m.shape[0]), h.shape[1]))[:, keep]
    m = np.broadcast_to(m, (h.shape[0], m.shape[1]))[:, keep]
    h, m = snap_ties(h, a.tolerance), snap_ties(m, a.tolerance)  # system means equal but for rounding tie
    return {s: _SYSTEM_FUNCTIONS[s](h, m) for s in statistics}, int(keep.sum()), h_ok and m_ok


# --------------------------------------------------------------------------- segment level


def _cells(a: _Aligned, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Flattened (human, metric, item) of the cells scored on both sides."""
    grid = a.metrics[name]
    item, system = np.nonzero(~np.isnan(a.human) & ~np.isnan(grid))
    return a.human[item, system], grid[item, system], item


def _weighted_pearson(x: np.ndarray, y: np.ndarray, item: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Pearson's r of the cells (x, y) when each cell counts as often as its item's weight:
    the moments are sums over items of per-item sums, so every resample costs one product."""
    n_items = weights.shape[1]
    sums = np.stack(
        [np.bincount(item, weights=v, minlength=n_items) for v in (np.ones_like(x), x, y, x * y, x * x, y * y)], axis=1
    )
    t, sx, sy, sxy, sxx, syy = (weights @ sums).T
    with np.errstate(invalid="ignore", divide="ignore"):
        cov, vx, vy = sxy - sx * sy / t, sxx - sx**2 / t, syy - sy**2 / t
        r = cov / np.sqrt(vx * vy)
    constant = (vx <= 1e-12 * np.maximum(sxx, 1.0)) | (vy <= 1e-12 * np.maximum(syy, 1.0))
    return np.where(constant, np.nan, np.clip(r, -1.0, 1.0))


def _segment_rows(
    a: _Aligned, name: str, weights: np.ndarray | None, statistics=SEGMENT_STATISTICS, shared: dict | None = None
) -> tuple[dict, dict]:
    """Each segment statistic under each row of item ``weights`` (None: the estimate), and its n.

    ``shared`` keeps what does not depend on ``weights`` (the cells, per-item correlations, acc_eq's sorted
    pairs) for the next call on the same metric: the estimate and its resamples then compute it once."""
    shared = {} if shared is None else shared

    def once(key, compute):
        if key not in shared:
            shared[key] = compute()
        return shared[key]

    h, m, item = once("cells", lambda: _cells(a, name))
    w = np.ones((1, a.items.size)) if weights is None else np.atleast_2d(weights)
    out, n = {}, {}
    for stat in statistics:
        if stat == "pearson_flat":
            if h.size < 2:
                out[stat] = np.full(w.shape[0], np.nan)
            else:  # the estimate exactly as scipy's pearsonr; resamples from per-item sums
                out[stat] = np.array([pearson(h, m)]) if weights is None else _weighted_pearson(h, m, item, w)
            n[stat] = h.size
        elif stat == "kendall_tau_b_flat":
            n[stat] = h.size
            values = []
            for row in w[:, item].astype(int):
                hh, mm = np.repeat(h, row), np.repeat(m, row)
                values.append(kendalltau(hh, mm).statistic if hh.size >= 2 else np.nan)
            out[stat] = np.asarray(values, dtype=float)
        elif stat in ("pearson_item", "kendall_tau_b_item"):
            per_item = once(stat, lambda stat=stat: _item_values(a.human, a.metrics[name], stat.removesuffix("_item")))
            out[stat] = _weighted_item_mean(per_item, w)
            n[stat] = int((~np.isnan(per_item)).sum())
        elif stat in ("acc_eq_item", "acc_eq_epsilon_item"):
            if "acc_eq_item" not in out:
                pairs = once("pairs", lambda: _tie_pairs(a.human, a.metrics[name]))
                out["acc_eq_item"], out["acc_eq_epsilon_item"] = _tie_calibrated_rows(pairs, w)
                n["acc_eq_item"] = n["acc_eq_epsilon_item"] = int((pairs.per_row > 0).sum())
        else:
            raise ValueError(f"unknown segment-level statistic {stat!r} (one of {', '.join(SEGMENT_STATISTICS)})")
    return {s: out[s] for s in statistics}, {s: n[s] for s in statistics}


# --------------------------------------------------------------------------- public frames


def meta_evaluate(
    human: pd.DataFrame,
    metrics: pd.DataFrame,
    level: str = "both",
    segments: str = "given",
    resample_by: str = "segment",
    n_boot: int = 1000,
    ci: float = 95.0,
    seed: int = 0,
    human_higher_is_better: bool = False,
    lower_is_better: Iterable[str] = LOWER_IS_BETTER,
    statistics: Iterable[str] | None = None,
    tie_tolerance: float = TIE_TOLERANCE,
    point_only: Iterable[str] = (),
) -> MetaEvaluation:
    """How well each metric agrees with the human scores, at system and/or segment level.

    Parameters
    ----------
    human : DataFrame
        ``system, segment, score`` (optionally ``doc``); rows with ``segment`` NaN are
        system scores and then are the human system scores (else a system's human score is
        the mean of its rated segments, the published MQM tables' convention).
    metrics : DataFrame
        ``system, segment, metric, score`` (optionally ``doc``); rows with ``segment`` NaN
        are the metric's own system scores (e.g. corpus BLEU).
    level : {"system", "segment", "both"}
    segments : {"given", "all", "rated"}
        Which scores make a metric's system score (:func:`system_level_scores`): its own
        system rows where the file has them, else the mean of all its segments ("given",
        what WMT's metrics task compares); the mean of all its segments ("all"); the mean of
        only the segments the humans rated for that system ("rated").
    resample_by : {"segment", "doc"}
        Bootstrap unit: segments, or whole documents (the ``doc`` column; a segment whose
        document is unknown is its own unit). Segments are resampled as items: a drawn
        segment brings every system's translation of it.
    n_boot, ci, seed
        Percentile bootstrap interval (:func:`helpers.core.statistics.stats.resample`, seeded). A
        system score that comes from a system row cannot be recomputed on a resample, so
        its system-level intervals are NaN (use ``segments="all"`` for intervals).
    human_higher_is_better : bool
        False for MQM penalties (default), True for DA or any higher-is-better score.
    lower_is_better : iterable of str
        Metrics whose scores are lower-is-better (default ``{"ter"}``).
    statistics : iterable of str, optional
        Only these statistics (default: all of :data:`SYSTEM_STATISTICS` and
        :data:`SEGMENT_STATISTICS`). The flattened Kendall τ is the costly one to resample
        (measured here: about 3 s per metric for 1,000 resamples of 10,000 cells,
        7 s for 20,000; every other statistic takes well under 1 s).
    tie_tolerance : float, default :data:`helpers.metrics.correlations.TIE_TOLERANCE`
        Scores within this share of a side's largest absolute score are tied
        (:func:`helpers.metrics.correlations.snap_ties`); 0 ties exact equalities only, as mt-metrics-eval.
    point_only : iterable of str, default ()
        Statistics given their estimate but not resampled (interval NaN), e.g. the flattened Kendall τ of
        ~28,000 cells, in the same call as the others (one alignment of the data, the same resamples).

    Returns
    -------
    MetaEvaluation
        ``table`` with :data:`COLUMNS`: statistics ``pearson``, ``kendall_tau_b``,
        ``pairwise_accuracy`` at level ``system`` (n = systems); ``pearson_flat``,
        ``kendall_tau_b_flat`` (n = cells), ``pearson_item``, ``kendall_tau_b_item`` (n =
        items with a defined correlation), ``acc_eq_item`` and ``acc_eq_epsilon_item`` (n =
        items with a pair) at level ``segment``; a statistic from fewer than :data:`MIN_UNITS` units is NaN
        and ``notes`` says so. ``unmatched`` with
        :data:`UNMATCHED_COLUMNS`: per metric, systems and (system, segment) cells present
        on one side only.

    Notes
    -----
    Flattened statistics pool every (system, segment) cell scored on both sides; grouped
    ones compute the correlation within each segment across its systems and average over
    segments, skipping a segment whose correlation is undefined (fewer than two systems, or
    constant scores on one side), as mt-metrics-eval does by default
    (``replace_nans_with_zeros=False``). Kendall's τ is τ_b (:func:`kendall_tau_b`).

    Intervals are percentile bootstrap intervals (Efron & Tibshirani 1993, §13.3): every
    statistic, and acc_eq's threshold search, is recomputed on each resample. Near ±1 a
    correlation's resamples fall mostly below it, so its percentile interval can sit just
    under the estimate.

    References
    ----------
    mt-metrics-eval ``stats.AverageCorrelation`` (flattened: ``average_by="none"``, grouped:
    ``"item"``) and ``tasks.WMT23`` (the statistics of the WMT 2023 metrics task); Freitag
    et al. (2023); Deutsch, Foster & Freitag (2023) for acc_eq; Kocmi et al. (2021) for
    pairwise accuracy.
    """
    if level not in ("system", "segment", "both"):
        raise ValueError(f"level must be system, segment or both, not {level!r}")
    if resample_by not in ("segment", "doc"):
        raise ValueError(f"resample_by must be segment or doc, not {resample_by!r}")
    wanted = set(SYSTEM_STATISTICS + SEGMENT_STATISTICS if statistics is None else statistics)
    point_only = set(point_only)
    unknown = wanted - set(SYSTEM_STATISTICS + SEGMENT_STATISTICS)
    if unknown:
        raise ValueError(
            f"unknown statistic(s) {', '.join(sorted(unknown))} (known: "
            f"{', '.join(SYSTEM_STATISTICS + SEGMENT_STATISTICS)})"
        )
    system_stats = tuple(s for s in SYSTEM_STATISTICS if s in wanted)
    segment_stats = tuple(s for s in SEGMENT_STATISTICS if s in wanted)
    a = _align(human, metrics, human_higher_is_better, lower_is_better, tie_tolerance)
    weights = (
        resample(a.items.size, n_boot, seed, a.clusters if resample_by == "doc" else None)
        if n_boot and a.items.size
        else None
    )
    rows, notes = [], []
    for name in a.metrics:
        if level in ("system", "both") and system_stats:
            point, n, _ = _system_rows(a, name, segments, None, system_stats)
            boot, _, resampled = (
                _system_rows(a, name, segments, weights, [s for s in system_stats if s not in point_only])
                if weights is not None
                else ({}, 0, False)
            )
            if n < MIN_UNITS:
                notes.append(
                    f"{name}: {n} system(s) scored on both sides; no system-level statistic from fewer than {MIN_UNITS}"
                )
            for stat in system_stats:
                low, high = percentile_interval(boot[stat], ci) if resampled and stat in boot else (np.nan, np.nan)
                estimate = float(point[stat][0])
                if n < MIN_UNITS:
                    estimate, low, high = np.nan, np.nan, np.nan
                rows.append(("system", name, stat, estimate, low, high, n))
        if level in ("segment", "both") and segment_stats:
            shared = {}  # the estimate and the resamples share the cells and sorted pairs
            point, n = _segment_rows(a, name, None, segment_stats, shared)
            resampled = [s for s in segment_stats if s not in point_only]
            boot = _segment_rows(a, name, weights, resampled, shared)[0] if weights is not None else {}
            widest = int((~np.isnan(a.human) & ~np.isnan(a.metrics[name])).sum(axis=1).max(initial=0))
            for stat in segment_stats:
                low, high = percentile_interval(boot[stat], ci) if stat in boot else (np.nan, np.nan)
                estimate = float(point[stat][0])
                too_few = n[stat] < MIN_UNITS or (stat.endswith("_item") and widest < MIN_UNITS)
                if too_few:
                    estimate, low, high = np.nan, np.nan, np.nan
                    notes.append(
                        f"{name}: {stat} not computed: {n[stat]} unit(s), at most {widest} system(s) in "
                        f"a segment (fewer than {MIN_UNITS})"
                    )
                rows.append(("segment", name, stat, estimate, low, high, n[stat]))
    table = pd.DataFrame(rows, columns=COLUMNS)
    return MetaEvaluation(table, _unmatched(a, human, metrics), tuple(notes))


def system_level_scores(
    human: pd.DataFrame,
    metrics: pd.DataFrame,
    segments: str = "given",
    human_higher_is_better: bool = False,
    lower_is_better: Iterable[str] = LOWER_IS_BETTER,
) -> pd.DataFrame:
    """System scores as :func:`meta_evaluate` correlates them: ``system, metric, score, segments, source``.

    The human scores come first as metric ``"human"``; ``score`` keeps each file's own
    orientation (MQM penalties stay positive, TER stays an edit rate); ``segments`` is how
    many segment scores made the mean (NA for a system row); ``source`` says which
    ("system rows", "mean of all segments", "mean of rated segments"; see
    :func:`meta_evaluate`'s ``segments``).

    Parameters
    ----------
    human : DataFrame
        ``system, segment, score`` (segment NaN: a system row).
    metrics : DataFrame
        ``system, segment, metric, score``.
    segments : {"given", "all", "rated"}
        Which scores make a metric's system score.
    human_higher_is_better : bool, default False
        Orientation of the human scores.
    lower_is_better : iterable of str
        Lower-is-better metrics.

    Returns
    -------
    DataFrame
        ``system, metric, score, segments, source``: score = (1/S) · sum_s score_s over the S
        segments used, or the file's own system row.

    References
    ----------
    Freitag, M. et al. (2023). Results of WMT23 Metrics Shared Task (system scores from segment
    scores); mt-metrics-eval, data.py (EvalSet: system- and segment-level scores).

    Examples
    --------
    >>> h = pd.DataFrame({"system": ["A", "A", "B"], "segment": [1, 2, 1], "score": [0.0, 2.0, 5.0]})
    >>> m = pd.DataFrame({"system": ["A", "A", "B", "B"], "segment": [1, 2, 1, 2], "metric": "chrf",
    ...                   "score": [60.0, 50.0, 40.0, 80.0]})
    >>> system_level_scores(h, m, segments="rated")[["system", "metric", "score", "segments"]].values.tolist()
    [['A', 'human', 1.0, 2], ['B', 'human', 5.0, 1], ['A', 'chrf', 55.0, 2], ['B', 'chrf', 40.0, 1]]
    """
    a = _align(human, metrics, human_higher_is_better, lower_is_better)
    frames = []
    h, _ = _human_system(a, None)
    counts = (~np.isnan(a.human)).sum(axis=0)
    source = "system rows" if len(a.human_system) else "mean of rated segments"
    frames.append(
        pd.DataFrame(
            {
                "system": a.systems,
                "metric": HUMAN,
                "score": a.signs[HUMAN] * h[0],
                "segments": pd.array(np.where(len(a.human_system), pd.NA, counts), dtype="Int64"),
                "source": source,
            }
        )
    )
    for name, grid in a.metrics.items():
        m, _, source = _metric_system(a, name, segments, None)
        mask = ~np.isnan(grid) & (~np.isnan(a.human) if source == "mean of rated segments" else True)
        counts = (
            pd.array(mask.sum(axis=0), dtype="Int64")
            if source != "system rows"
            else pd.array([pd.NA] * len(a.systems), dtype="Int64")
        )
        frames.append(
            pd.DataFrame(
                {
                    "system": a.systems,
                    "metric": name,
                    "score": a.signs[name] * m[0],
                    "segments": counts,
                    "source": source,
                }
            )
        )
    out = pd.concat(frames, ignore_index=True)
    return out[out["score"].notna()].reset_index(drop=True)


def segment_choice(
    human: pd.DataFrame,
    metrics: pd.DataFrame,
    human_higher_is_better: bool = False,
    lower_is_better: Iterable[str] = LOWER_IS_BETTER,
) -> pd.DataFrame:
    """Does it matter which segments make a metric's system score? ``metric, statistic, all, rated, difference``.

    Each system-level statistic with the metric's system scores from all its segments and
    from only the segments the humans rated for that system (``rated − all`` in
    ``difference``). Metrics given only as system rows have no segments to choose from and
    are left out.

    Parameters
    ----------
    human : DataFrame
        ``system, segment, score``.
    metrics : DataFrame
        ``system, segment, metric, score``.
    human_higher_is_better : bool, default False
        Orientation of the human scores.
    lower_is_better : iterable of str
        Lower-is-better metrics.

    Returns
    -------
    DataFrame
        ``metric, statistic, all, rated, difference`` with difference = stat(rated) − stat(all).

    References
    ----------
    Freitag, M. et al. (2023). Results of WMT23 Metrics Shared Task; Kocmi, T. et al. (2021).
    To ship or not to ship, §3, arXiv:2107.10821.

    Examples
    --------
    >>> h = pd.DataFrame({"system": list("AABBCC"), "segment": [1, 2] * 3, "score": [1, None, 2, None, 3, None]})
    >>> m = pd.DataFrame({"system": list("AABBCC"), "segment": [1, 2] * 3, "metric": "x",
    ...                   "score": [3, 0, 2, 5, 1, 9]})  # rated segment 1 agrees; segment 2 reverses the order
    >>> segment_choice(h.dropna(), m).query("statistic == 'kendall_tau_b'")[["all", "rated"]].values.tolist()
    [[-1.0, 1.0]]
    """
    a = _align(human, metrics, human_higher_is_better, lower_is_better)
    rows = []
    for name, grid in a.metrics.items():
        if np.isnan(grid).all():
            continue
        both = {choice: _system_rows(a, name, choice, None)[0] for choice in ("all", "rated")}
        for stat in SYSTEM_STATISTICS:
            r_all, r_rated = float(both["all"][stat][0]), float(both["rated"][stat][0])
            rows.append(
                {"metric": name, "statistic": stat, "all": r_all, "rated": r_rated, "difference": r_rated - r_all}
            )
    return pd.DataFrame(rows, columns=["metric", "statistic", "all", "rated", "difference"])


__all__ = [
    "COLUMNS",
    "UNMATCHED_COLUMNS",
    "LOWER_IS_BETTER",
    "SYSTEM_STATISTICS",
    "SEGMENT_STATISTICS",
    "MetaEvaluation",
    "MIN_UNITS",
    "meta_evaluate",
    "system_level_scores",
    "segment_choice",
    "tie_calibrated_accuracy_weighted",
]
