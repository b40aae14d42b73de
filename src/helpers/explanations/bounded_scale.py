"""Chapter 4's disagreement read against a bounded scale: what the spread of 1–5 ratings would be
by rounding alone (:func:`rounded_scale_moments`, :func:`latent_means`, :func:`quadratic_term`),
the null of no extra disagreement (:func:`bounded_scale_null`), and how far the answer moves with
shifted or fitted thresholds (:func:`fit_cutpoints`, :func:`threshold_sensitivity`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as st

from ..core.statistics.stats import percentile_interval


def rounded_scale_moments(latent_mean, latent_sd: float, low: int = 1, high: int = 5, cuts=None):
    """Mean and SD of a rating clip(round(μ + σZ), low, high) with Z standard normal.

    ``cuts`` (the ``high − low`` thresholds between adjacent levels on the latent scale)
    replaces rounding's k + ½ by other thresholds: the rating is the number of thresholds
    below μ + σZ, plus ``low``.

    A rater whose latent judgement of an item is normal with mean μ and SD σ gives the
    integer nearest to it, clipped to the scale. Near the ends of the scale the clipping
    removes spread, so the *observed* SD shrinks there although σ is the same everywhere.
    ``latent_mean`` may be an array; returns two arrays of its shape.

    Parameters
    ----------
    latent_mean : float or array_like
        μ.
    latent_sd : float
        σ.
    low, high : int
        Ends of the scale.
    cuts : sequence of float, optional
        Thresholds c_1 < … < c_{high−low} (default k + ½).

    Returns
    -------
    tuple of numpy.ndarray
        (mean, sd): with P(level j) = Φ((c_j − μ) / σ) − Φ((c_{j−1} − μ) / σ), c_0 = −∞, c_last = ∞,
        mean = Σ_j j P(j) and sd = √(Σ_j j² P(j) − mean²).

    References
    ----------
    Liddell, T. M. & Kruschke, J. K. (2018). Analyzing ordinal data with metric models: what could
    possibly go wrong? Journal of Experimental Social Psychology 79, 328–348.

    Examples
    --------
    μ = 3, σ = 1: P(1) = Φ(−1.5) = 0.0668, P(2) = Φ(−0.5) − Φ(−1.5) = 0.2417, P(3) = 0.3829,
    symmetric around 3, so the mean is 3 and the variance 2·(4·0.0668 + 1·0.2417) = 1.0178.

    >>> m, sd = rounded_scale_moments(3.0, 1.0)
    >>> round(float(m), 3), round(float(sd), 3)
    (3.0, 1.009)
    >>> m, sd = rounded_scale_moments(12.0, 1.0)  # far above the scale: always 5, no spread
    >>> round(float(m), 3), round(float(sd), 3)
    (5.0, 0.0)
    """
    p = _level_probabilities(np.asarray(latent_mean, dtype=float), latent_sd, low, high, cuts)
    levels = np.arange(low, high + 1, dtype=float)
    mean = p @ levels
    var = p @ levels**2 - mean**2
    return mean, np.sqrt(np.clip(var, 0, None))


def rounding_cuts(low: int = 1, high: int = 5) -> np.ndarray:
    """The thresholds of rounding to the nearest level: low + ½, …, high − ½."""
    return np.arange(low, high, dtype=float) + 0.5


def _level_probabilities(mu: np.ndarray, sigma: float, low: int, high: int, cuts=None) -> np.ndarray:
    cuts = rounding_cuts(low, high) if cuts is None else np.asarray(cuts, dtype=float)
    cdf = st.norm.cdf((cuts - mu[..., None]) / sigma)
    pad = np.zeros(cdf.shape[:-1] + (1,))
    return np.diff(np.concatenate([pad, cdf, pad + 1], axis=-1), axis=-1)


def latent_means(observed_means, latent_sd: float, low: int = 1, high: int = 5, cuts=None) -> np.ndarray:
    """For each observed item mean, the latent mean μ whose rounded-and-clipped expectation
    equals it (given the latent SD); the inverse of :func:`rounded_scale_moments`' mean.

    Parameters
    ----------
    observed_means : array_like
        Observed item means.
    latent_sd : float
        σ.
    low, high : int
        Ends of the scale.
    cuts : sequence of float, optional
        Thresholds on the latent scale.

    Returns
    -------
    numpy.ndarray
        μ with E[rating | μ, σ] = observed mean, by linear interpolation on a grid of
        :func:`rounded_scale_moments` (the expectation rises with μ).

    References
    ----------
    Liddell, T. M. & Kruschke, J. K. (2018). Journal of Experimental Social Psychology 79, 328–348.

    Examples
    --------
    >>> mu = latent_means([3.0, 1.5], 1.0)
    >>> round(float(mu[0]), 3), round(float(rounded_scale_moments(mu[1], 1.0)[0]), 3)
    (3.0, 1.5)
    """
    edges = rounding_cuts(low, high) if cuts is None else np.asarray(cuts, dtype=float)
    grid = np.linspace(edges[0] - 1.5 - 6 * latent_sd, edges[-1] + 1.5 + 6 * latent_sd, 6001)
    expected, _ = rounded_scale_moments(grid, latent_sd, low, high, cuts)
    return np.interp(np.asarray(observed_means, dtype=float), expected, grid)


def quadratic_term(means, sds) -> np.ndarray:
    """b2 of the least-squares fit sd = b0 + b1·m + b2·m² (m centred), for one set of items
    or for a stack of replicates at once (arrays of shape (..., n_items)). b2 < 0 is a hump
    of disagreement in the middle of the scale (b2 does not depend on the centring).

    Parameters
    ----------
    means : array_like
        Item means, shape (..., n_items).
    sds : array_like
        Item SDs, same shape.

    Returns
    -------
    numpy.ndarray
        b2 of (b0, b1, b2) = (XᵀX)⁻¹Xᵀ sd with rows X = [1, m − m̄, (m − m̄)²].

    References
    ----------
    Naveriani et al. (2026), appendix A.1 (the U-shaped pattern tested here by its quadratic term).

    Examples
    --------
    >>> m = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    >>> float(quadratic_term(m, 1 - 0.25 * (m - 3) ** 2).round(6))
    -0.25
    """
    m = np.asarray(means, dtype=float)
    c = m - m.mean(axis=-1, keepdims=True)
    x = np.stack([np.ones_like(c), c, c**2], axis=-1)
    xtx = np.einsum("...ij,...ik->...jk", x, x)
    xty = np.einsum("...ij,...i->...j", x, np.asarray(sds, dtype=float))
    return np.linalg.solve(xtx, xty[..., None])[..., 2, 0]


@dataclass(frozen=True)
class BoundedNull:
    """The disagreement hump tested against the bounded scale (:func:`bounded_scale_null`)."""

    summary: pd.DataFrame  # one row: the observed term, the null's mean and 95% interval, p
    buckets: pd.DataFrame  # bucket, n_items, mean_sd, null_expected_sd, sd_ratio
    items: pd.DataFrame  # item_id, mean, sd, n, latent_mean, null_expected_sd, sd_ratio
    null_quadratics: np.ndarray  # b2 of each null replicate
    latent_sd: float
    observed: float
    p_value: float
    cuts: tuple | None = None  # thresholds on the latent scale; None: rounding (k + ½)

    @property
    def null_mean(self) -> float:
        return float(self.null_quadratics.mean())

    @property
    def beyond_null(self) -> bool:
        """A hump stronger than the bounded scale produces (b2 below the null, p < .05)."""
        return self.observed < self.null_mean and self.p_value < 0.05


def bounded_scale_null(
    item_stats: pd.DataFrame,
    dimension: str = "overall",
    n_null: int = 1000,
    seed: int = 0,
    edges: Sequence[float] = (1, 2, 2.5, 3, 3.5, 4, 5.01),
    low: int = 1,
    high: int = 5,
    cuts: Sequence[float] | None = None,
) -> BoundedNull:
    """Is the hump of disagreement more than a bounded 1–5 scale produces by itself?

    The paper (Figure 1, appendix A.1) reads agreement at both ends of the quality scale and
    disagreement in the middle as a property of the explanations. But ratings are rounded
    and clipped to 1–5: an item whose raters all lean towards 5 cannot spread above 5, so
    its SD is small even when the raters are as uncertain as about any other item.

    The null model: every rater's latent judgement of every item is normal with the item's
    own latent mean and **one** latent SD σ, then rounded and clipped. For each item the
    latent mean is chosen so that the expected rating equals the observed item mean
    (:func:`latent_means`); σ so that the mean expected within-item variance equals the
    observed mean within-item variance (the pooled SD). ``n_null`` replicates draw as many
    ratings per item as it has, and each gets the same quadratic fit as the data
    (:func:`quadratic_term`). Reported: the observed b2, the null's mean and 95% interval,
    and a two-sided Monte Carlo p-value (2 × the smaller tail share, +1 correction).

    Also a dispersion measure normalised to the bound: each item's observed SD over the SD
    the null expects at its mean (``sd_ratio``); about 1 everywhere means no excess
    disagreement anywhere on the scale.

    ``cuts`` replaces the rounding thresholds (k + ½) by others, e.g. those fitted by
    :func:`fit_cutpoints`; :func:`threshold_sensitivity` compares the readings. The summary
    names them in ``thresholds``.

    Parameters
    ----------
    item_stats : pandas.DataFrame
        :func:`item_statistics`.
    dimension : str
        The score read.
    n_null : int
        Replicates of the null model.
    seed : int
        Seed of the replicates.
    edges : sequence of float
        Bucket edges of the item means.
    low, high : int
        Ends of the scale.
    cuts : sequence of float, optional
        Thresholds on the latent scale (default k + ½).

    Returns
    -------
    BoundedNull
        The observed b2 (:func:`quadratic_term`), the null's b2 per replicate, and
        p = min(1, 2 · min(1 + #{b2_null ≤ b2}, 1 + #{b2_null ≥ b2}) / (n_null + 1)).

    References
    ----------
    Naveriani et al. (2026), appendix A.1 and Figure 2.
    Davison, A. C. & Hinkley, D. V. (1997). Bootstrap Methods and their Application, ch. 4 (Monte
    Carlo tests).
    Liddell, T. M. & Kruschke, J. K. (2018). Journal of Experimental Social Psychology 79, 328–348.
    """
    sub = item_stats[(item_stats["dimension"] == dimension) & (item_stats["n"] >= 2)].dropna(subset=["sd"])
    means, sds = sub["mean"].to_numpy(float), sub["sd"].to_numpy(float)
    n = sub["n"].to_numpy(int)
    sigma = _fit_latent_sd(means, sds, low, high, cuts)
    mu = latent_means(means, sigma, low, high, cuts)
    _, expected_sd = rounded_scale_moments(mu, sigma, low, high, cuts)

    rng = np.random.default_rng(seed)
    cdf = np.cumsum(_level_probabilities(mu, sigma, low, high, cuts), axis=-1)[:, :-1]  # items × (levels − 1)
    width = int(n.max())
    draws = low + (rng.random((n_null, len(mu), width))[..., None] > cdf[None, :, None, :]).sum(axis=-1)
    mask = np.arange(width)[None, :] < n[:, None]  # items with fewer raters use their first n draws
    total = np.where(mask, draws, 0).sum(axis=-1)
    rep_means = total / n
    rep_var = (np.where(mask, (draws - rep_means[..., None]) ** 2, 0).sum(axis=-1)) / (n - 1)
    null = quadratic_term(rep_means, np.sqrt(rep_var))
    observed = float(quadratic_term(means, sds))
    below, above = (null <= observed).sum(), (null >= observed).sum()
    p = float(min(1.0, 2 * min(below + 1, above + 1) / (n_null + 1)))
    low_ci, high_ci = percentile_interval(null)

    import statsmodels.api as sm

    centred = means - means.mean()
    ols = sm.OLS(sds, sm.add_constant(np.column_stack([centred, centred**2]))).fit()
    summary = pd.DataFrame(
        [
            {
                "dimension": dimension,
                "observed_quadratic": observed,
                "ols_p_value": float(ols.pvalues[2]),
                "null_mean": float(null.mean()),
                "null_ci_low": low_ci,
                "null_ci_high": high_ci,
                "p_value": p,
                "latent_sd": sigma,
                "pooled_sd": float(np.sqrt(np.mean(sds**2))),
                "n_items": len(sub),
                "n_null": n_null,
                "thresholds": ", ".join(f"{c:.2f}" for c in (rounding_cuts(low, high) if cuts is None else cuts)),
            }
        ]
    )
    items = pd.DataFrame(
        {
            "item_id": sub["item_id"].to_numpy(),
            "mean": means,
            "sd": sds,
            "n": n,
            "latent_mean": mu,
            "null_expected_sd": expected_sd,
        }
    )
    items["sd_ratio"] = items["sd"] / items["null_expected_sd"].where(items["null_expected_sd"] > 0)
    items["bucket"] = pd.cut(items["mean"], bins=list(edges), right=False)
    buckets = (
        items.groupby("bucket", observed=False)
        .agg(n_items=("sd", "size"), mean_sd=("sd", "mean"), null_expected_sd=("null_expected_sd", "mean"))
        .reset_index()
    )
    buckets["sd_ratio"] = buckets["mean_sd"] / buckets["null_expected_sd"]
    buckets["bucket"] = buckets["bucket"].astype(str)
    return BoundedNull(
        summary,
        buckets,
        items.drop(columns="bucket"),
        null,
        sigma,
        observed,
        p,
        None if cuts is None else tuple(float(c) for c in cuts),
    )


def _fit_latent_sd(means: np.ndarray, sds: np.ndarray, low: int, high: int, cuts=None) -> float:
    """The one latent SD whose mean expected within-item variance (at every item's own latent
    mean) equals the observed mean within-item variance; bisection (it rises with σ)."""
    target = float(np.mean(sds**2))
    lo, hi = 0.02, 10.0
    for _ in range(50):
        mid = (lo + hi) / 2
        _, sd = rounded_scale_moments(latent_means(means, mid, low, high, cuts), mid, low, high, cuts)
        lo, hi = (mid, hi) if np.mean(sd**2) < target else (lo, mid)
    return (lo + hi) / 2


def fit_cutpoints(ratings: pd.DataFrame, dimension: str = "overall", low: int = 1, high: int = 5) -> np.ndarray:
    """Thresholds of the rating scale estimated from the ratings: an ordered-probit
    (cumulative-link) model with one latent mean per item and **one** latent SD for all,
    P(rating ≤ k | item i) = Φ(c_k − μ_i) (Agresti 2010, §5; Liddell & Kruschke 2018), fitted
    by maximum likelihood on the item × level counts (L-BFGS-B with the analytic gradient).

    Location and scale of the latent axis are not identified, so the fitted thresholds are
    returned mapped linearly onto the rating scale with the first at ``low + ½`` and the last
    at ``high − ½``: only the spacing of the inner thresholds is estimated, which is all the
    bounded-scale null can use (it refits σ and the item means itself). Equal spacing means
    rounding fits the ratings.

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, rater, dimension, score``.
    dimension : str
        The score read.
    low, high : int
        Ends of the scale.

    Returns
    -------
    numpy.ndarray
        The high − low thresholds, maximising Σ_i Σ_k n_ik log(Φ(c_k − μ_i) − Φ(c_{k−1} − μ_i)) and
        mapped linearly so that the first is low + ½ and the last high − ½.

    References
    ----------
    Agresti, A. (2010). Analysis of Ordinal Categorical Data, 2nd ed., ch. 5 (cumulative link
    models).
    Liddell, T. M. & Kruschke, J. K. (2018). Journal of Experimental Social Psychology 79, 328–348.
    """
    from scipy.optimize import minimize

    sub = ratings[ratings["dimension"] == dimension]
    levels = np.arange(low, high + 1)
    counts = pd.crosstab(sub["item_id"], sub["score"].astype(int)).reindex(columns=levels, fill_value=0).to_numpy(float)
    n_items, k = counts.shape[0], len(levels) - 1

    def unpack(theta):
        mu, steps = theta[:n_items], np.exp(theta[n_items:])
        return mu, np.concatenate([[0.0], np.cumsum(steps)])

    def negloglik(theta):
        mu, c = unpack(theta)
        z = c[None, :] - mu[:, None]  # items × k
        cdf = np.concatenate([np.zeros((n_items, 1)), st.norm.cdf(z), np.ones((n_items, 1))], axis=1)
        pdf = np.concatenate([np.zeros((n_items, 1)), st.norm.pdf(z), np.zeros((n_items, 1))], axis=1)
        prob = np.clip(np.diff(cdf, axis=1), 1e-300, None)
        w = counts / prob
        grad_mu = (w * -(pdf[:, 1:] - pdf[:, :-1])).sum(axis=1)
        grad_c = (w[:, :-1] * pdf[:, 1:-1] - w[:, 1:] * pdf[:, 1:-1]).sum(axis=0)  # d/dc_j
        grad_steps = np.array([grad_c[j:].sum() for j in range(1, k)]) * np.exp(theta[n_items:])
        return -float((counts * np.log(prob)).sum()), -np.concatenate([grad_mu, grad_steps])

    start = np.concatenate([np.zeros(n_items), np.zeros(k - 1)])
    bounds = [(-12.0, 12.0)] * n_items + [(-6.0, 3.0)] * (k - 1)
    fit = minimize(negloglik, start, jac=True, method="L-BFGS-B", bounds=bounds, options={"maxiter": 2000})
    _, c = unpack(fit.x)
    return low + 0.5 + (c - c[0]) / (c[-1] - c[0]) * (high - low - 1)


def threshold_sensitivity(
    item_stats: pd.DataFrame,
    ratings: pd.DataFrame | None = None,
    dimension: str = "overall",
    n_null: int = 1000,
    seed: int = 0,
    shift: float = 0.25,
    low: int = 1,
    high: int = 5,
) -> pd.DataFrame:
    """How much the bounded-scale null's verdict depends on its thresholds.

    :func:`bounded_scale_null` with rounding's thresholds (k + ½), with the outer two moved
    inwards and outwards by ``shift`` (end categories narrower or wider than the inner ones)
    and, given ``ratings``, with the thresholds :func:`fit_cutpoints` estimates from them. One
    row per variant: ``thresholds_from, thresholds`` and the null's summary columns.

    Parameters
    ----------
    item_stats : pandas.DataFrame
        :func:`item_statistics`.
    ratings : pandas.DataFrame, optional
        Long ratings, for the fitted thresholds.
    dimension : str
        The score read.
    n_null : int
        Replicates of each null model.
    seed : int
        Seed of the replicates.
    shift : float
        How far the outer thresholds move.
    low, high : int
        Ends of the scale.

    Returns
    -------
    pandas.DataFrame
        One row per variant of the thresholds with :func:`bounded_scale_null`'s summary.

    References
    ----------
    Liddell, T. M. & Kruschke, J. K. (2018). Journal of Experimental Social Psychology 79, 328–348.
    """
    base = rounding_cuts(low, high)
    narrower, wider = base.copy(), base.copy()
    narrower[[0, -1]] += [shift, -shift]
    wider[[0, -1]] += [-shift, shift]
    variants = {
        "rounding (k + ½)": None,
        f"end categories narrower (outer thresholds ∓{shift:g})": narrower,
        f"end categories wider (outer thresholds ±{shift:g})": wider,
    }
    if ratings is not None:
        variants["fitted (ordered probit, one latent SD)"] = fit_cutpoints(ratings, dimension, low, high)
    rows = [
        bounded_scale_null(item_stats, dimension, n_null, seed, low=low, high=high, cuts=cuts).summary.assign(
            thresholds_from=name
        )
        for name, cuts in variants.items()
    ]
    out = pd.concat(rows, ignore_index=True)
    return out[
        ["thresholds_from", "thresholds"] + [c for c in out.columns if c not in ("thresholds_from", "thresholds")]
    ]
