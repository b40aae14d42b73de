"""Regression with clustered errors: the OLS coefficients of a linear model and their
document-cluster bootstrap, from per-cluster cross-products (:func:`cross_products`,
:func:`bootstrap_fits`, :func:`cluster_ols`), so a thousand resamples cost one pass.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .resampling import cluster_labels, resample


def cross_products(x: np.ndarray, y: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster cross-products of a design matrix and a response.

    Parameters
    ----------
    x : numpy.ndarray
        Design matrix, n × p.
    y : numpy.ndarray
        Response, n.
    labels : numpy.ndarray
        Integer cluster labels 0 … G − 1, one per row (:func:`~helpers.core.statistics.resampling.cluster_labels`).

    Returns
    -------
    tuple of numpy.ndarray
        (X_g'X_g for g = 0 … G − 1, shape (G, p, p); X_g'y_g, shape (G, p)).

    References
    ----------
    Cameron, A. C. & Miller, D. L. (2015). A practitioner's guide to cluster-robust inference.
    Journal of Human Resources 50(2), 317–372 (the per-cluster sums).
    """
    g = labels.max() + 1
    order = np.argsort(labels, kind="stable")
    bounds = np.r_[0, np.cumsum(np.bincount(labels, minlength=g))]
    xs, ys = x[order], y[order]
    xtx = np.stack([xs[a:b].T @ xs[a:b] for a, b in zip(bounds[:-1], bounds[1:])])
    xty = np.stack([xs[a:b].T @ ys[a:b] for a, b in zip(bounds[:-1], bounds[1:])])
    return xtx, xty


def bootstrap_fits(
    xtx: np.ndarray, xty: np.ndarray, n_boot: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The full OLS fit and every coefficient under each cluster resample, from :func:`cross_products`.

    Parameters
    ----------
    xtx, xty : numpy.ndarray
        Per-cluster X_g'X_g (G, p, p) and X_g'y_g (G, p).
    n_boot : int
        Resamples B (:func:`~helpers.core.statistics.resampling.resample` over the G clusters).
    seed : int
        Seed of the resamples.

    Returns
    -------
    tuple of numpy.ndarray
        (β̂ = (Σ_g X_g'X_g)⁻¹ Σ_g X_g'y_g, shape (p,); β_b = (Σ_g w_bg X_g'X_g + 10⁻⁹ I)⁻¹ Σ_g w_bg X_g'y_g,
        shape (B, p); the weights w, shape (B, G)).

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    full = np.linalg.lstsq(xtx.sum(0), xty.sum(0), rcond=None)[0]
    weights = resample(xtx.shape[0], n_boot, seed=seed)
    p = xtx.shape[1]
    a = (weights @ xtx.reshape(xtx.shape[0], p * p)).reshape(-1, p, p) + 1e-9 * np.eye(p)
    coef = np.linalg.solve(a, (weights @ xty)[..., None])[..., 0]
    return full, coef, weights


def cluster_ols(
    x: np.ndarray, y: np.ndarray, docs, flag: np.ndarray, n_boot: int, seed: int, column: int = 1
) -> tuple[float, np.ndarray]:
    """The OLS coefficient ``column`` of ``y ~ x`` and its values over document-cluster bootstrap
    resamples (:func:`~helpers.core.statistics.resampling.resample`), from per-document
    cross-products (X'WX = Σ_g w_g X_g'X_g). Resamples in which ``flag`` (e.g. the idiom flag) is
    all true or all false leave the coefficient undefined and are dropped, as are resamples whose
    coefficient is not finite.

    Parameters
    ----------
    x : numpy.ndarray
        Design matrix, n × p.
    y : numpy.ndarray
        Response, n.
    docs : sequence
        One document label per row (the clusters resampled; all rows of a segment share it).
    flag : numpy.ndarray
        A 0/1 column that must vary within a resample.
    n_boot : int
        Resamples.
    seed : int
        Seed of the resamples.
    column : int, default 1
        The coefficient returned.

    Returns
    -------
    tuple
        (β̂_column of β̂ = (X'X)⁻¹ X'y, its resampled values (X'WX)⁻¹ X'Wy, W = diag(w_b), where defined).

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    labels = cluster_labels(np.asarray(docs, dtype=object))
    full, coef, weights = bootstrap_fits(*cross_products(x, y, labels), n_boot, seed)
    coef = coef[:, column]
    flag = pd.Series(np.asarray(flag, dtype=bool))
    defined = (
        np.isfinite(coef)
        & (weights @ flag.groupby(labels).any().to_numpy() > 0)
        & (weights @ (~flag.groupby(labels).all()).to_numpy() > 0)
    )
    return float(full[column]), coef[defined]
