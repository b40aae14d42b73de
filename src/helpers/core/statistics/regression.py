"""Regression with clustered errors: :func:`cluster_ols`, the OLS coefficients of a linear
model and their document-cluster bootstrap, from per-cluster cross-products.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .resampling import cluster_labels, resample


def cluster_ols(x: np.ndarray, y: np.ndarray, docs, flag: np.ndarray, n_boot: int, seed: int,
                column: int = 1) -> tuple[float, np.ndarray]:
    """The OLS coefficient ``column`` of ``y ~ x`` and its values over document-cluster bootstrap
    resamples (:func:`~helpers.core.statistics.resampling.resample`), from per-document cross-products
    (X'WX = Σ_g w_g X_g'X_g), so a thousand resamples cost one pass. Resamples in which
    ``flag`` (e.g. the idiom flag) is all true or all false leave the coefficient undefined
    and are dropped.

    Parameters
    ----------
    x : numpy.ndarray
        Design matrix, n × p.
    y : numpy.ndarray
        Response, n.
    docs : sequence
        One document label per row (the clusters resampled).
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
        (β̂_column of β̂ = (X'X)⁻¹ X'y, its B resampled values (X'WX)⁻¹ X'Wy, W = diag(w_b)).

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    labels = cluster_labels(pd.Series(docs))
    g = labels.max() + 1
    xtx = np.zeros((g, x.shape[1], x.shape[1]))
    np.add.at(xtx, labels, np.einsum("ni,nj->nij", x, x))
    xty = np.zeros((g, x.shape[1]))
    np.add.at(xty, labels, x * y[:, None])
    full = np.linalg.lstsq(xtx.sum(0), xty.sum(0), rcond=None)[0]
    weights = resample(g, n_boot, seed=seed)
    a = np.einsum("bg,gij->bij", weights, xtx) + 1e-9 * np.eye(x.shape[1])
    coef = np.linalg.solve(a, np.einsum("bg,gi->bi", weights, xty)[..., None])[..., 0][:, column]
    flag = pd.Series(np.asarray(flag, dtype=bool))
    defined = np.isfinite(coef) & (weights @ flag.groupby(labels).any().to_numpy() > 0) & \
        (weights @ (~flag.groupby(labels).all()).to_numpy() > 0)
    return float(full[column]), coef[defined]
