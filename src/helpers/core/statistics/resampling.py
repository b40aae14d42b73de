"""Resampling: the book's one bootstrap and what turns its draws into statistics.

* :func:`resample` is the book's one bootstrap: seeded, vectorised, over items or over
  clusters of items (e.g. metaphors nested in sentences). It returns *multiplicities*
  (how often each item is drawn in each resample), so a statistic is computed for all
  resamples at once as a weighted statistic (:func:`weighted_mean`), or per resample by
  :func:`bootstrap_interval`;
* :func:`percentile_interval` the percentile interval of the resampled values;
* :func:`cluster_labels` the integer cluster codes the cluster bootstrap draws, and
  :func:`jackknife_weights` the leave-one-cluster-out weights.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def resample(
    n_items: int, n_boot: int, seed=0, clusters: Sequence | None = None, size: int | None = None
) -> np.ndarray:
    """Bootstrap multiplicities, shape (n_boot, n_items): how often each item is drawn.

    Without ``clusters`` items are drawn with replacement (Efron's bootstrap). With
    ``clusters`` (one label per item) whole clusters are drawn with replacement and every
    item of a drawn cluster comes along: the cluster bootstrap, right when items are
    nested (several metaphors of one sentence share its context, so they are not
    independent). The draws depend only on ``(n_items, n_boot, seed, clusters)``, so two
    analyses of the same items see the same resamples and their difference is paired.
    ``seed`` may also be a ``numpy.random.Generator``. ``size`` draws that many items (or
    clusters) per resample instead of as many as there are: a study of another size drawn
    from the same population (:mod:`helpers.metahope.planning`).

    Parameters
    ----------
    n_items : int
        Number of items n.
    n_boot : int
        Number of resamples B.
    seed : int or numpy.random.Generator, default 0
        Seed of the draws (or the generator itself).
    clusters : sequence, optional
        One cluster label per item; whole clusters are drawn (cluster bootstrap).
    size : int, optional
        Items (or clusters) drawn per resample; default as many as there are.

    Returns
    -------
    numpy.ndarray
        Integer multiplicities, shape (B, n): w[b, i] is how often item i is drawn in resample b,
        so a weighted statistic sum_i w[b, i] · x_i / sum_i w[b, i] is the statistic of resample b.

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, ch. 6 (the bootstrap of a
    mean). Davison, A. C. & Hinkley, D. V. (1997). Bootstrap Methods and their Application, §3.8
    (resampling whole clusters of a two-stage design).

    Examples
    --------
    >>> w = resample(4, 3, seed=1)
    >>> w.shape, w.sum(axis=1).tolist()
    ((3, 4), [4, 4, 4])
    >>> c = resample(4, 5, seed=1, clusters=["s1", "s1", "s2", "s2"])
    >>> bool((c[:, 0] == c[:, 1]).all() and (c[:, 2] == c[:, 3]).all())
    True
    >>> resample(4, 2, seed=1, size=10).sum(axis=1).tolist()
    [10, 10]
    """
    rng = _rng(seed)
    if clusters is None:
        draws = rng.integers(0, n_items, size=(n_boot, n_items if size is None else size))
        offsets = (np.arange(n_boot) * n_items)[:, None]
        return np.bincount((draws + offsets).ravel(), minlength=n_boot * n_items).reshape(n_boot, n_items)
    labels = cluster_labels(clusters, n_items)
    n_clusters = labels.max() + 1
    draws = rng.integers(0, n_clusters, size=(n_boot, n_clusters if size is None else size))
    offsets = (np.arange(n_boot) * n_clusters)[:, None]
    per_cluster = np.bincount((draws + offsets).ravel(), minlength=n_boot * n_clusters).reshape(n_boot, n_clusters)
    return per_cluster[:, labels]


def percentile_interval(samples, ci: float = 95.0) -> tuple[float, float]:
    """Percentile interval of bootstrap ``samples`` (NaN samples ignored; NaN if none left).

    Parameters
    ----------
    samples : array_like
        Bootstrap replicates of a statistic.
    ci : float, default 95.0
        Coverage in percent.

    Returns
    -------
    tuple of float
        (low, high) = the (100 − ci)/2 and 100 − (100 − ci)/2 percentiles of the replicates.

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §13.3 (the percentile interval).
    """
    s = np.asarray(samples, dtype=float)
    s = s[~np.isnan(s)]
    if s.size == 0:
        return float("nan"), float("nan")
    lo = (100 - ci) / 2
    return float(np.percentile(s, lo)), float(np.percentile(s, 100 - lo))


def weighted_mean(values, weights: np.ndarray) -> np.ndarray:
    """Mean of ``values`` (n,) under each row of ``weights`` (B, n); values of shape (n, k)
    give (B, k), k variables at once.

    Parameters
    ----------
    values : array_like
        Shape (n,) or (n, k).
    weights : numpy.ndarray
        Multiplicities, shape (B, n) (:func:`resample`, :func:`jackknife_weights`).

    Returns
    -------
    numpy.ndarray
        Shape (B,) or (B, k): mean_b = sum_i w[b, i] · x_i / sum_i w[b, i].

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §6.2 (a bootstrap replicate
    as the statistic of the resample, here written with multiplicities).
    """
    w, v = np.asarray(weights, dtype=float), np.asarray(values, dtype=float)
    total = w.sum(axis=1)
    return w @ v / (total[:, None] if v.ndim == 2 else total)


def cluster_labels(clusters, n: int | None = None) -> np.ndarray:
    """Integer cluster codes 0…G−1 in order of first appearance, for every function here
    that resamples, flips or leaves out whole clusters. A missing label (None, NaN) is
    refused: it would silently join another cluster or never be left out.

    Parameters
    ----------
    clusters : sequence
        One label per item.
    n : int, optional
        Expected number of items (checked).

    Returns
    -------
    numpy.ndarray
        Integer codes 0 … G − 1, the first label seen coded 0.

    References
    ----------
    Cameron, A. C. & Miller, D. L. (2015). A practitioner's guide to cluster-robust inference.
    Journal of Human Resources 50(2), §II (clusters: the groups whose errors may correlate).

    Examples
    --------
    >>> cluster_labels(["s2", "s1", "s2"]).tolist()
    [0, 1, 0]
    >>> cluster_labels(["s1", None])
    Traceback (most recent call last):
    ...
    ValueError: cluster label of item 2 is missing (every item needs its cluster, e.g. its sentence)
    """
    labels = pd.factorize(pd.Series(list(clusters), dtype=object))[0]
    if (labels < 0).any():
        raise ValueError(
            f"cluster label of item {int(np.argmax(labels < 0)) + 1} is missing (every item needs its "
            "cluster, e.g. its sentence)"
        )
    if n is not None and len(labels) != n:
        raise ValueError(f"clusters has {len(labels)} labels for {n} items")
    return labels


def jackknife_weights(clusters: Sequence) -> np.ndarray:
    """Delete-one-cluster multiplicities, shape (G, n): row g leaves out every item of cluster g.

    Like :func:`resample`'s multiplicities, so any weighted statistic of this module or of
    :mod:`helpers.core.statistics.agreement` yields its G leave-one-cluster-out values at once.

    Parameters
    ----------
    clusters : sequence
        One cluster label per item.

    Returns
    -------
    numpy.ndarray
        Shape (G, n): w[g, i] = 0 if item i is in cluster g, else 1.

    References
    ----------
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §11.2 (the jackknife);
    Cameron, A. C. & Miller, D. L. (2015), §VI.B (leaving out one cluster at a time).

    Examples
    --------
    >>> jackknife_weights(["s1", "s1", "s2"]).tolist()
    [[0, 0, 1], [1, 1, 0]]
    """
    labels = cluster_labels(clusters)
    return (labels[None, :] != np.arange(labels.max() + 1)[:, None]).astype(int)


def bootstrap_interval(
    statistic, n: int, n_boot: int, seed=0, clusters: Sequence | None = None, ci: float = 95.0
) -> tuple[float, float]:
    """Percentile interval of ``statistic(index)`` over bootstrap resamples of n rows, for a
    statistic that has no weighted form: each resample's drawn rows (:func:`resample`, whole
    ``clusters`` when given) are passed as an index array, a row drawn twice appearing twice.

    Parameters
    ----------
    statistic : callable
        Takes an integer index array into the n rows, returns a number (NaN where undefined).
    n : int
        Number of rows.
    n_boot : int
        Number of resamples B.
    seed : int or numpy.random.Generator
        Seed of the resamples.
    clusters : sequence, optional
        One cluster label per row (the cluster bootstrap).
    ci : float, default 95
        Level of the interval, in percent.

    Returns
    -------
    tuple of float
        :func:`percentile_interval` of θ*_b = statistic(rows drawn in resample b), b = 1…B.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 13 (the percentile
    interval).

    Examples
    --------
    >>> values = np.array([1.0, 2.0, 3.0, 4.0])
    >>> low, high = bootstrap_interval(lambda i: values[i].mean(), 4, 200, seed=0)
    >>> 1.0 <= low < high <= 4.0
    True
    """
    weights = resample(n, n_boot, seed=seed, clusters=clusters)
    rows = np.arange(n)
    return percentile_interval([statistic(np.repeat(rows, w)) for w in weights], ci)
