"""Systems ranked and told apart: :func:`approximate_randomization` (Marot's test over
segments or documents), :func:`significance_clusters` (mt-metrics-eval's clusters of systems no
test separates) and :func:`ranking_stability` (Kendall's τ of resampled rankings).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .correlation import kendall_tau_rows, snap_ties
from .resampling import _rng, cluster_labels, weighted_mean


def approximate_randomization(
    scores: pd.DataFrame, n_trials: int = 10000, seed=0, clusters: Sequence | None = None, lower_better: bool = True
) -> pd.DataFrame:
    """Paired one-sided approximate randomisation for every pair of systems, all pairs at once.

    ``scores`` is items × systems (one column per system; items missing for a system are
    dropped). This is Marot's test (google-research/google-research
    ``marot/marot-sigtests.js``, ``runPAR``, which follows sacrebleu's paired approximate
    randomisation): for a pair with ``system_a`` better than ``system_b``, each trial swaps
    the two systems' scores of every item with probability ½ and recomputes the difference
    of their means; ``p = (c + 1) / (T + 1)`` with c the trials whose difference (``b`` minus
    ``a`` in the better-is-lower sense) reaches the observed one. A swap flips the sign of
    the item's difference, so a trial is a ±1 sign vector and all trials of all pairs are one
    product: signs (T × n) · differences (n × pairs). Where Marot declines to test (fewer
    than log2(T) units to swap) the test here is exact instead: all 2^k swap patterns of the
    k units are enumerated and p is the share reaching the observed difference (at least
    2^−k: with 5 documents no pair can have p below 1/32). Otherwise the trials are ``n_trials``
    rows of k fair coins, ``numpy.random.default_rng(seed).integers(0, 2, (n_trials, k),
    dtype=int8)``, 1 keeping and 0 swapping a unit. A trial counts when it comes within
    10^−12 · max(1, |observed|) of the observed difference (the floating-point residue of
    summing the same numbers in another order, relative to their size).

    With ``clusters`` (one label per item, e.g. its document) the swap is drawn per cluster,
    for every item of it together: the document-level test, right when the items of a
    document are not independent. Returns ``system_a, system_b, n_items, n_units, mean_a,
    mean_b, difference, p`` (``difference`` = mean_b − mean_a), pairs in the order of the
    systems' means (best first; systems with equal means keep their column order).

    Parameters
    ----------
    scores : DataFrame
        Items × systems.
    n_trials : int, default 10000
        Trials T when not every swap pattern is enumerated.
    seed : int or numpy.random.Generator, default 0
        Seed of the trials.
    clusters : sequence, optional
        One label per item; the swaps are drawn per cluster.
    lower_better : bool, default True
        Lower scores are better (MQM penalties); False for higher-is-better scores.

    Returns
    -------
    DataFrame
        One row per pair: p = (c + 1) / (T + 1), c = #{trials t : sum_i s_ti · d_i / n ≥ observed},
        with s_ti = ±1 and d_i the item's difference (the exact share over all 2^k patterns when
        2^k ≤ T).

    References
    ----------
    Riezler, S. & Maxwell, J. T. (2005). On some pitfalls in automatic evaluation and significance
    testing for MT. ACL Workshop on Intrinsic and Extrinsic Evaluation Measures for MT; Noreen, E. W.
    (1989). Computer-Intensive Methods for Testing Hypotheses, ch. 2.

    Examples
    --------
    >>> s = pd.DataFrame({"A": [0.0, 0, 0, 0, 0, 0], "B": [1.0, 1, 1, 1, 1, 1]})
    >>> approximate_randomization(s, n_trials=2000, seed=1)[["system_a", "system_b", "n_units", "p"]].round(2).values.tolist()
    [['A', 'B', 6, 0.02]]
    """
    wide = scores.dropna()
    means = wide.mean()
    order = list(means.sort_values(ascending=lower_better, kind="stable").index)
    sign = 1.0 if lower_better else -1.0
    values = wide[order].to_numpy(dtype=float) * sign
    n, m = values.shape
    ia, ib = np.triu_indices(m, k=1)
    diffs = values[:, ib] - values[:, ia]  # n × pairs: how much worse b is than a, per item
    if clusters is not None:
        labels = cluster_labels(clusters, len(scores))[scores.index.get_indexer(wide.index)]
        labels = pd.factorize(labels)[0]
        units = np.zeros((labels.max() + 1, diffs.shape[1]))
        np.add.at(units, labels, diffs)
    else:
        units = diffs
    k = units.shape[0]
    observed = diffs.sum(axis=0) / n
    if 2**k <= n_trials:  # every swap pattern: the exact test (Marot declines to test here)
        signs = 1 - 2 * ((np.arange(2**k)[:, None] >> np.arange(k)) & 1).astype(float)
    else:
        signs = _rng(seed).integers(0, 2, size=(n_trials, k), dtype=np.int8).astype(float) * 2 - 1
    trials = signs @ units / n
    count = (trials >= observed - 1e-12 * np.maximum(1.0, np.abs(observed))).sum(axis=0)
    p = count / len(signs) if 2**k <= n_trials else (count + 1) / (n_trials + 1)
    return pd.DataFrame(
        {
            "system_a": [order[i] for i in ia],
            "system_b": [order[j] for j in ib],
            "n_items": n,
            "n_units": k,
            "mean_a": means[order].to_numpy()[ia],
            "mean_b": means[order].to_numpy()[ib],
            "difference": observed * sign,
            "p": p,
        }
    )


def significance_clusters(p, alpha: float = 0.05) -> list[int]:
    """Ranks (significance clusters) of systems ordered best first, from their pairwise p-values.

    ``p[i][j]`` (i < j; only the upper triangle is read) is the p-value of "system j
    is worse than system i". The rule is mt-metrics-eval's (google-research/mt-metrics-eval,
    ``stats.py``, ``AssignRanks``): walking down the order, a system opens a new cluster
    (rank + 1) when it is significantly worse (p ≤ ``alpha``) than any system of the current
    cluster, i.e. any from the cluster's first member up to the one before it; otherwise it
    joins the current cluster. A rank-r system is thus not significantly worse than any other
    rank-r system that precedes it.

    Parameters
    ----------
    p : array_like
        Square matrix of pairwise p-values, systems ordered best first.
    alpha : float, default 0.05
        Level.

    Returns
    -------
    list of int
        The rank of each system: rank_j = rank_{j−1} + 1 if p[i][j] ≤ α for some i from the current
        cluster's first member to j − 1, else rank_{j−1}.

    References
    ----------
    Freitag, M. et al. (2021). Results of the WMT21 Metrics Shared Task (significance clusters), as
    implemented in google-research/mt-metrics-eval, stats.py, AssignRanks.

    Examples
    --------
    >>> p = [[1, .2, .01, .01], [0, 1, .3, .02], [0, 0, 1, .04], [0, 0, 0, 1]]
    >>> significance_clusters(p)  # C is worse than A: new cluster at C; D worse than C
    [1, 1, 2, 3]
    """
    p = np.asarray(p, dtype=float)
    if p.ndim != 2 or p.shape[0] != p.shape[1]:
        raise ValueError("p must be a square matrix of p-values")
    ranks, rank, start = [], 1, 0
    for j in range(p.shape[0]):
        if j > start and (p[start:j, j] <= alpha).any():
            rank, start = rank + 1, j
        ranks.append(rank)
    return ranks


def ranking_stability(values, weights: np.ndarray, alpha: float = 0.05) -> dict:
    """How stable a ranking of systems is under resampling of the items they were scored on.

    ``values`` is items × systems (lower is better or higher, it does not matter: τ and the
    sign tests are symmetric); ``weights`` are resample multiplicities (B × items,
    :func:`resample`, over items or clusters). For each resample the systems' means are
    recomputed. Returns ``tau_mean`` and ``tau_low`` (mean and 2.5th percentile of Kendall's
    τ-b between the full-data ranking and the resampled ones, :func:`kendall_tau_rows`) and
    ``share_significant``: the share of system pairs whose difference keeps its sign in at
    least 1 − ``alpha``/2 of the resamples (the percentile interval of the difference
    excludes 0), the "ability to discriminate" the WMT MQM README weighs against stability.

    Parameters
    ----------
    values : array_like
        Items × systems.
    weights : numpy.ndarray
        Resample multiplicities (B × items).
    alpha : float, default 0.05
        Level of the sign-stability criterion.

    Returns
    -------
    dict
        ``tau_mean`` and ``tau_low`` (mean and 2.5th percentile over b of τ_b(full means, means
        under w_b)), and ``share_significant``.

    References
    ----------
    Koehn, P. (2004). Statistical significance tests for machine translation evaluation. EMNLP
    (bootstrap resampling of the test set); Freitag, M. et al. (2021). Experts, errors, and context.
    TACL 9 (the stability of MQM rankings).
    """
    v = np.asarray(values, dtype=float)
    w = np.asarray(weights, dtype=float)
    # means equal in exact arithmetic are one value whatever order BLAS summed them in (its thread count
    # changed tau_mean in the fifth decimal): ties within TIE_TOLERANCE of the row's scale, as snap_ties
    full = snap_ties(v.mean(axis=0))
    boot = snap_ties(weighted_mean(v, w))
    tau = kendall_tau_rows(full, boot)
    i, j = np.triu_indices(v.shape[1], k=1)
    d = boot[:, i] - boot[:, j]
    kept = np.maximum((d > 0).mean(axis=0), (d < 0).mean(axis=0))
    return {
        "tau_mean": float(np.nanmean(tau)),
        "tau_low": float(np.nanpercentile(tau, 2.5)),
        "share_significant": float((kept >= 1 - alpha / 2).mean()),
        "n_resamples": int(w.shape[0]),
    }
