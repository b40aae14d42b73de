"""How people judge metaphor explanations: reliability, structure, drivers, disagreement.

The analyses of Naveriani et al. (2026, §3): per-dimension reliability (Table 2),
correlations and clustering of the dimensions (Table 3), what drives Overall (Tables 4
and 9), where raters disagree (Figures 1–3), each rater's habits, and (for the book's
authored benchmark) whether ratings follow the designed pass/fail of each dimension.
All take the tidy ratings of :mod:`helpers.explanations.io` and return DataFrames or
small frozen dataclasses.

Three corrections to the paper's way of testing, each with its own function:

* the 1,600 ratings of 100 items are not 1,600 independent observations: Spearman ρ is
  also computed on item means (:func:`spearman_table`) and the regression's standard
  errors are also clustered by item (:func:`standardized_regression`);
* a hump of disagreement over mean quality is what a bounded 1–5 scale produces by
  itself; :func:`helpers.explanations.bounded_scale.bounded_scale_null` tests the hump against
  constant latent noise passed through the same rounding and clipping;
* a cut through a dendrogram is one draw; :func:`cluster_stability` says how often each
  dimension is an independent axis over item-bootstrap resamples (and simulated seeds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as st
from tqdm import tqdm

from ..core.statistics.agreement import interval_alpha_weighted, krippendorff_alpha, rating_matrix
from ..core.statistics.raters import icc_table
from ..core.statistics.stats import percentile_interval, resample
from .io import DIMENSIONS, SCORES


def reliability_table(ratings: pd.DataFrame, n_boot: int = 300, seed: int = 0) -> pd.DataFrame:
    """Per dimension: interval Krippendorff's α with an item-bootstrap 95% CI, ICC(2,1) and
    ICC(2,k) with pingouin's 95% CIs (paper Table 2).

    The resamples of successive dimensions continue one seeded random stream.

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, rater, dimension, score``.
    n_boot : int
        Item-bootstrap resamples of α.
    seed : int
        Seed of the resamples.

    Returns
    -------
    pandas.DataFrame
        One row per score: interval α = 1 − D_o / D_e with its percentile interval;
        ICC(2,1) = (MS_R − MS_E) / (MS_R + (k − 1) MS_E + k (MS_C − MS_E) / n) and
        ICC(2,k) = (MS_R − MS_E) / (MS_R + (MS_C − MS_E) / n), MS_R, MS_C, MS_E the mean squares of
        items, raters and error of the two-way ANOVA, n items and k raters.

    References
    ----------
    Naveriani et al. (2026). A Cognitively Motivated Multidimensional Framework for Evaluating
    Metaphor Explanations, §3.2 and Table 2.
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. University of Pennsylvania.
    Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater
    reliability. Psychological Bulletin 86(2), 420–428.
    """
    rows = []
    rng = np.random.default_rng(seed)
    for d in tqdm(
        [d for d in SCORES if (ratings["dimension"] == d).any()], desc="reliability", leave=False, disable=None
    ):
        m = rating_matrix(ratings[ratings["dimension"] == d], "score", rater="rater", item="item_id").to_numpy(float)
        alpha = krippendorff_alpha(m.T, level="interval")
        boot = interval_alpha_weighted(m, resample(m.shape[0], n_boot, rng))
        low, high = percentile_interval(boot)
        icc = icc_table(
            ratings[ratings["dimension"] == d].assign(g=d), by="g", value="score", rater="rater", item="item_id"
        ).iloc[0]
        rows.append(
            {
                "dimension": d,
                "alpha": alpha,
                "alpha_ci_low": low,
                "alpha_ci_high": high,
                "icc2_1": icc["icc2_1"],
                "icc2_1_ci_low": icc["icc2_1_ci_low"],
                "icc2_1_ci_high": icc["icc2_1_ci_high"],
                "icc2_k": icc["icc2_k"],
                "icc2_k_ci_low": icc["icc2_k_ci_low"],
                "icc2_k_ci_high": icc["icc2_k_ci_high"],
                "n_items": m.shape[0],
                "n_raters": m.shape[1],
            }
        )
    return pd.DataFrame(rows)


def wide_ratings(ratings: pd.DataFrame) -> pd.DataFrame:
    """One row per (item_id, rater) with a column per score; rows with any missing score dropped."""
    wide = ratings.pivot_table(
        index=["item_id", "rater"], columns="dimension", values="score", aggfunc="first", observed=True, sort=False
    )
    wide.columns = [str(c) for c in wide.columns]
    return wide.dropna().reset_index()


def significance_mark(p: float) -> str:
    """The paper's marks (Table 3): ``**`` for p < .0001, ``*`` for p < .05, else empty.

    Examples
    --------
    >>> significance_mark(0.00001), significance_mark(0.03), significance_mark(0.3)
    ('**', '*', '')
    """
    return "**" if p < 1e-4 else "*" if p < 0.05 else ""


def item_means(ratings: pd.DataFrame, dimensions: Sequence[str] = SCORES) -> pd.DataFrame:
    """Items × scores: each item's mean rating (over the raters who rated it); items lacking
    a score are dropped.

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, rater, dimension, score``.
    dimensions : sequence of str
        Scores to keep, in order.

    Returns
    -------
    pandas.DataFrame
        Items × scores: mean_{i,d} = (1/R_i) Σ_r score_{i,r,d} over the R_i raters of item i.

    References
    ----------
    Naveriani et al. (2026), §3.1 (100 items, 16 raters, a 1–5 scale).

    Examples
    --------
    >>> r = pd.DataFrame({"item_id": ["a", "a", "b"], "rater": ["x", "y", "x"], "dimension": "overall",
    ...                   "score": [4, 5, 2]})
    >>> item_means(r, ["overall"])["overall"].tolist()
    [4.5, 2.0]
    """
    means = ratings.pivot_table(
        index="item_id", columns="dimension", values="score", aggfunc="mean", observed=True, sort=False
    )
    means.columns = [str(c) for c in means.columns]
    return means[[d for d in dimensions if d in means.columns]].dropna()


def spearman_table(ratings: pd.DataFrame, dimensions: Sequence[str] = DIMENSIONS) -> pd.DataFrame:
    """Pairwise Spearman ρ between dimensions (paper Table 3), twice.

    ``rho``, ``p_value``, ``mark``, ``n``: over individual ratings (item × rater), as the
    paper computes them, with its marks (* p < .05, ** p < .0001). Those p-values treat
    16 ratings of one item as 16 independent observations, which they are not (they share
    the item), so they are too small. ``rho_items``, ``p_items``, ``mark_items``,
    ``n_items``: the same on item means (one observation per item), the unit that was
    sampled; these are the p-values and marks to report.

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, rater, dimension, score``.
    dimensions : sequence of str
        Dimensions to correlate.

    Returns
    -------
    pandas.DataFrame
        One row per ordered pair (a, b): ρ = Pearson r of the midranks of a and b, over the ratings
        and over the item means, with scipy's p (t with n − 2 degrees of freedom) and marks.

    References
    ----------
    Naveriani et al. (2026), §3.2 and Table 3.
    Spearman, C. (1904). American Journal of Psychology 15(1), 72–101.
    """
    wide = wide_ratings(ratings)
    means = item_means(ratings, dimensions)
    rows = []
    for a in dimensions:
        for b in dimensions:
            rho, p = (1.0, 0.0) if a == b else st.spearmanr(wide[a], wide[b])
            rho_i, p_i = (1.0, 0.0) if a == b else st.spearmanr(means[a], means[b])
            rows.append(
                {
                    "dimension_a": a,
                    "dimension_b": b,
                    "rho": float(rho),
                    "p_value": float(p),
                    "mark": significance_mark(p),
                    "n": len(wide),
                    "rho_items": float(rho_i),
                    "p_items": float(p_i),
                    "mark_items": significance_mark(p_i),
                    "n_items": len(means),
                }
            )
    return pd.DataFrame(rows)


def spearman_pairs(spearman: pd.DataFrame) -> pd.DataFrame:
    """Each pair of different dimensions once (a before b in the order of
    :data:`~helpers.explanations.io.SCORES`), from :func:`spearman_table`."""
    position = {d: k for k, d in enumerate(SCORES)}
    keep = spearman["dimension_a"].map(position) < spearman["dimension_b"].map(position)
    return spearman[keep].reset_index(drop=True)


@dataclass(frozen=True)
class Clusters:
    """Average-linkage clustering of the dimensions (:func:`cluster_dimensions`)."""

    table: pd.DataFrame  # dimension, cluster, order, role
    rho: pd.DataFrame  # the correlation matrix in dendrogram order of the input
    linkage: np.ndarray  # scipy linkage matrix on the distance 1 − ρ


def cluster_dimensions(spearman: pd.DataFrame, threshold: float = 0.5) -> Clusters:
    """Average-linkage clustering of the dimensions on the distance 1 − ρ.

    ``table`` has one row per dimension with its ``cluster`` (cut at ``threshold``) and
    its position in the dendrogram (``order``); a cluster of one dimension is an
    independent axis of judgement.

    Parameters
    ----------
    spearman : pandas.DataFrame
        :func:`spearman_table`.
    threshold : float
        Distance at which the dendrogram is cut.

    Returns
    -------
    Clusters
        ``table``, ``rho`` and ``linkage``: clusters joined at d(A, B) = (1 / (|A| |B|)) Σ_{a∈A, b∈B}
        (1 − ρ_ab), cut at ``threshold``.

    References
    ----------
    Naveriani et al. (2026), §3.2 and Table 3 (a shared cluster and two independent axes).
    Sokal, R. R. & Michener, C. D. (1958). A statistical method for evaluating systematic
    relationships. University of Kansas Science Bulletin 38, 1409–1438 (average linkage, UPGMA).
    """
    from scipy.cluster.hierarchy import fcluster, leaves_list, linkage
    from scipy.spatial.distance import squareform

    rho = spearman.pivot(index="dimension_a", columns="dimension_b", values="rho")
    dims = [d for d in SCORES if d in rho.index]
    rho = rho.loc[dims, dims]
    dist = squareform(np.clip(1 - rho.to_numpy(), 0, None), checks=False)
    z = linkage(dist, method="average")
    labels = fcluster(z, t=threshold, criterion="distance")
    order = leaves_list(z)
    sizes = pd.Series(labels).value_counts()
    out = pd.DataFrame(
        {"dimension": dims, "cluster": labels, "order": [int(np.where(order == i)[0][0]) for i in range(len(dims))]}
    )
    out["role"] = np.where(out["cluster"].map(sizes) > 1, "shared cluster", "independent axis")
    return Clusters(out.sort_values("order").reset_index(drop=True), rho, z)


@dataclass(frozen=True)
class Regression:
    """Standardised OLS of a target on the dimensions (:func:`standardized_regression`)."""

    table: pd.DataFrame  # predictor, beta, se, t, p_value, ci90_low, ci90_high, vif, then the item-clustered columns
    r2: float
    n: int
    n_items: int = 0  # clusters of the clustered standard errors


def standardized_regression(
    ratings: pd.DataFrame, target: str = "overall", predictors: Sequence[str] = DIMENSIONS
) -> Regression:
    """OLS of the standardised ``target`` on the standardised predictors over individual
    ratings (paper Tables 4 and 9): β, SE, t, p, 90% CI, and each predictor's variance
    inflation factor (large VIFs make signs unstable).

    ``se``, ``t``, ``p_value`` and ``ci90_*`` are the paper's, which assume independent
    ratings. Ratings of one item share it, so the columns that follow are the ones to
    report: ``se_cluster``, ``t_cluster``, ``p_cluster``, ``ci90_cluster_low``,
    ``ci90_cluster_high`` from the cluster-robust (sandwich) covariance with the items as
    clusters (statsmodels ``cov_type="cluster"``: small-sample factor
    G/(G − 1) · (N − 1)/(N − K), t reference with G − 1 degrees of freedom; Cameron and
    Miller 2015).

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, rater, dimension, score``.
    target : str
        The score predicted.
    predictors : sequence of str
        The scores predicting it.

    Returns
    -------
    Regression
        ``table``, ``r2``, ``n``, ``n_items``: β̂ = (XᵀX)⁻¹Xᵀy on z-scores, SE from σ̂²(XᵀX)⁻¹ (and from
        the item-clustered sandwich (XᵀX)⁻¹ (Σ_g X_gᵀ e_g e_gᵀ X_g) (XᵀX)⁻¹ with its small-sample
        factor), t = β̂ / SE, VIF_j = 1 / (1 − R_j²).

    References
    ----------
    Naveriani et al. (2026), §3.2, Table 4 and appendix A.4, Table 9.
    Cameron, A. C. & Miller, D. L. (2015). A practitioner's guide to cluster-robust inference.
    Journal of Human Resources 50(2), 317–372.
    """
    import statsmodels.api as sm
    from statsmodels.stats.outliers_influence import variance_inflation_factor

    wide = wide_ratings(ratings)
    cols = list(predictors) + [target]
    z = (wide[cols] - wide[cols].mean()) / wide[cols].std(ddof=1)
    x = sm.add_constant(z[list(predictors)])
    fit = sm.OLS(z[target], x).fit()
    ci = fit.conf_int(alpha=0.10)
    groups = pd.factorize(wide["item_id"])[0]
    clustered = sm.OLS(z[target], x).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
    ci_c = clustered.conf_int(alpha=0.10)
    rows = []
    for k, p in enumerate(predictors, start=1):
        rows.append(
            {
                "predictor": p,
                "beta": fit.params[p],
                "se": fit.bse[p],
                "t": fit.tvalues[p],
                "p_value": fit.pvalues[p],
                "ci90_low": ci.loc[p, 0],
                "ci90_high": ci.loc[p, 1],
                "vif": variance_inflation_factor(x.to_numpy(), k),
                "se_cluster": clustered.bse[p],
                "t_cluster": clustered.tvalues[p],
                "p_cluster": clustered.pvalues[p],
                "ci90_cluster_low": ci_c.loc[p, 0],
                "ci90_cluster_high": ci_c.loc[p, 1],
            }
        )
    return Regression(pd.DataFrame(rows), float(fit.rsquared), int(fit.nobs), int(groups.max() + 1))


# --------------------------------------------------------------------------- disagreement


def item_statistics(ratings: pd.DataFrame) -> pd.DataFrame:
    """Per item and score: mean, standard deviation (n − 1) and number of raters.

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, rater, dimension, score, metaphor, explanation``.

    Returns
    -------
    pandas.DataFrame
        ``item_id, dimension, mean, sd, n, metaphor, explanation``: sd = √(Σ (x − x̄)² / (n − 1)).

    References
    ----------
    Naveriani et al. (2026), appendix A.1–A.2 (disagreement as the within-item SD).
    """
    out = (
        ratings.groupby(["item_id", "dimension"], observed=True, sort=False)["score"]
        .agg(mean="mean", sd="std", n="count")
        .reset_index()
    )
    texts = ratings.drop_duplicates("item_id").set_index("item_id")[["metaphor", "explanation"]]
    return out.join(texts, on="item_id")


@dataclass(frozen=True)
class DisagreementShape:
    """Rater disagreement against quality (:func:`disagreement_by_quality`)."""

    buckets: pd.DataFrame  # bucket, n_items, mean_sd
    quadratic: float  # b2 of SD = b0 + b1·mean + b2·mean² (centred)
    quadratic_p: float

    @property
    def u_shaped(self) -> bool:
        """Disagreement lowest in the middle (b2 > 0, p < .05)."""
        return self.quadratic > 0 and self.quadratic_p < 0.05

    @property
    def hump(self) -> bool:
        """Disagreement highest in the middle (b2 < 0, p < .05): the paper's pattern. On a
        bounded scale this is expected even without any real effect (:func:`bounded_scale_null`)."""
        return self.quadratic < 0 and self.quadratic_p < 0.05


def disagreement_by_quality(
    item_stats: pd.DataFrame, dimension: str = "overall", edges: Sequence[float] = (1, 2, 2.5, 3, 3.5, 4, 5.01)
) -> DisagreementShape:
    """Mean within-item SD per bucket of mean score (paper Figure 2), and the quadratic term
    of SD = b0 + b1·mean + b2·mean² (mean centred): b2 < 0 is a hump in the middle.

    Parameters
    ----------
    item_stats : pandas.DataFrame
        :func:`item_statistics`.
    dimension : str
        The score read.
    edges : sequence of float
        Bucket edges of the item means (left-closed).

    Returns
    -------
    DisagreementShape
        ``buckets`` (mean SD per bucket) and b2 with its OLS p-value.

    References
    ----------
    Naveriani et al. (2026), appendix A.1 and Figure 2.
    """
    import statsmodels.api as sm

    sub = item_stats[item_stats["dimension"] == dimension].copy()
    sub["bucket"] = pd.cut(sub["mean"], bins=list(edges), right=False)
    table = sub.groupby("bucket", observed=False).agg(n_items=("sd", "size"), mean_sd=("sd", "mean")).reset_index()
    table["bucket"] = table["bucket"].astype(str)
    centred = sub["mean"] - sub["mean"].mean()
    fit = sm.OLS(sub["sd"], sm.add_constant(np.column_stack([centred, centred**2]))).fit()
    return DisagreementShape(table, float(fit.params.iloc[2]), float(fit.pvalues.iloc[2]))


def rater_profile(ratings: pd.DataFrame, dimension: str = "overall") -> pd.DataFrame:
    """Per rater: mean score, mean deviation from the item means (leniency), and the SD of
    those deviations (consistency).

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, rater, dimension, score``.
    dimension : str
        The score read.

    Returns
    -------
    pandas.DataFrame
        ``rater, n_items, mean_score, leniency, deviation_sd``: leniency = mean over the rater's items
        of (score − item mean), deviation_sd the SD (n − 1) of those deviations.

    References
    ----------
    Naveriani et al. (2026), §3.2 (disagreement between participants); the leniency of a rater as
    in Myford, C. M. & Wolfe, E. W. (2003). Detecting and measuring rater effects using
    many-facet Rasch measurement: Part I. Journal of Applied Measurement 4(4), 386–422.
    """
    sub = ratings[ratings["dimension"] == dimension]
    item_mean = sub.groupby("item_id")["score"].transform("mean")
    dev = sub.assign(deviation=sub["score"] - item_mean)
    return (
        dev.groupby("rater", sort=False)
        .agg(
            n_items=("score", "size"),
            mean_score=("score", "mean"),
            leniency=("deviation", "mean"),
            deviation_sd=("deviation", "std"),
        )
        .reset_index()
    )


def design_contrast(ratings: pd.DataFrame, benchmark: pd.DataFrame) -> pd.DataFrame:
    """Do raters see the designed failures? Per dimension: mean item score of items designed
    to pass vs to fail it, the difference, and a Mann–Whitney U test on the item means.

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, rater, dimension, score``.
    benchmark : pandas.DataFrame
        ``item_id`` and one 0/1 column per dimension (1: designed to pass).

    Returns
    -------
    pandas.DataFrame
        Per dimension: difference = mean_pass − mean_fail of the item means, and the two-sided
        Mann–Whitney U = Σ_{i∈pass} Σ_{j∈fail} ([x_i > x_j] + ½ [x_i = x_j]) with its p.

    References
    ----------
    Naveriani et al. (2026), appendix D.2 (reference explanations and targeted failures).
    Mann, H. B. & Whitney, D. R. (1947). Annals of Mathematical Statistics 18(1), 50–60.
    """
    means = item_statistics(ratings)
    rows = []
    for d in DIMENSIONS:
        sub = means[means["dimension"] == d].merge(benchmark[["item_id", d]], on="item_id")
        passed, failed = sub.loc[sub[d] == 1, "mean"], sub.loc[sub[d] == 0, "mean"]
        test = st.mannwhitneyu(passed, failed, alternative="two-sided") if len(passed) and len(failed) else None
        rows.append(
            {
                "dimension": d,
                "n_pass": len(passed),
                "n_fail": len(failed),
                "mean_pass": passed.mean(),
                "mean_fail": failed.mean(),
                "difference": passed.mean() - failed.mean(),
                "mann_whitney_u": test.statistic if test else np.nan,
                "p_value": test.pvalue if test else np.nan,
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- stability of the clusters


def spearman_matrices(
    ratings: pd.DataFrame, weights: np.ndarray | None = None, dimensions: Sequence[str] = DIMENSIONS
) -> np.ndarray:
    """Spearman ρ matrices between dimensions over individual ratings, for many item
    resamples at once: ``weights`` (B, n_items) are item multiplicities
    (:func:`helpers.core.statistics.stats.resample`, items in order of first appearance in
    :func:`wide_ratings`); None is the data themselves. Returns shape (B, d, d).

    A resample repeats all ratings of a drawn item; ranks are midranks of the resampled
    data (ties share the mean of their positions), so each matrix equals
    ``scipy.stats.spearmanr`` on the explicitly repeated rows.

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, rater, dimension, score``.
    weights : numpy.ndarray, optional
        (B, n_items) item multiplicities.
    dimensions : sequence of str
        The dimensions correlated.

    Returns
    -------
    numpy.ndarray
        (B, d, d): ρ_ab = Σ w (r_a − r̄_a)(r_b − r̄_b) / √(Σ w (r_a − r̄_a)² Σ w (r_b − r̄_b)²), r the
        midranks of the resampled ratings, w the multiplicities; undefined ρ is 0.

    References
    ----------
    Spearman, C. (1904). American Journal of Psychology 15(1), 72–101.
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 6.
    """
    wide = wide_ratings(ratings)
    items = pd.factorize(wide["item_id"])[0]
    w = np.ones((1, items.max() + 1)) if weights is None else np.asarray(weights, dtype=float)
    row_w = w[:, items]  # B × rows
    ranks = []
    for d in dimensions:
        codes, levels = pd.factorize(wide[d], sort=True)
        counts = row_w @ np.eye(len(levels))[codes]  # B × levels, weighted counts
        mid = np.cumsum(counts, axis=1) - counts + (counts + 1) / 2
        ranks.append(mid[:, codes])
    r = np.stack(ranks, axis=-1)  # B × rows × d
    total = row_w.sum(axis=1)
    centred = r - (np.einsum("bn,bnd->bd", row_w, r) / total[:, None])[:, None, :]
    cov = np.einsum("bn,bnd,bne->bde", row_w, centred, centred)
    sd = np.sqrt(np.einsum("bdd->bd", cov))
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = cov / (sd[:, :, None] * sd[:, None, :])
    return np.nan_to_num(rho, nan=0.0)


def cluster_roles(rho: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """Average-linkage clustering on 1 − ρ cut at ``threshold``, for each of K matrices
    (K, d, d): returns ``independent`` (K, d), True where a dimension is alone in its
    cluster, and ``together`` (K, d, d), True where two dimensions share a cluster.

    Parameters
    ----------
    rho : numpy.ndarray
        (K, d, d) correlation matrices.
    threshold : float
        Distance at which each dendrogram is cut.

    Returns
    -------
    tuple of numpy.ndarray
        (independent, together) of average-linkage clustering on 1 − ρ, as in
        :func:`cluster_dimensions`.

    References
    ----------
    Sokal, R. R. & Michener, C. D. (1958). University of Kansas Science Bulletin 38, 1409–1438.

    Examples
    --------
    Distances 0.1 (a–b), 1.0 (a–c), 0.9 (b–c): a and b join at 0.1, c joins them at the
    average 0.95, so a cut at 0.5 leaves c alone and a cut at 1.0 joins all three.

    >>> rho = np.array([[[1, 0.9, 0.0], [0.9, 1, 0.1], [0.0, 0.1, 1]]])
    >>> alone, together = cluster_roles(rho, 0.5)
    >>> alone.tolist(), bool(together[0, 0, 1])
    ([[False, False, True]], True)
    >>> cluster_roles(rho, 1.0)[0].tolist()
    [[False, False, False]]
    """
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import squareform

    k, d, _ = rho.shape
    labels = np.empty((k, d), dtype=int)
    for i in range(k):
        dist = squareform(np.clip(1 - rho[i], 0, None), checks=False)
        labels[i] = fcluster(linkage(dist, method="average"), t=threshold, criterion="distance")
    together = labels[:, :, None] == labels[:, None, :]
    return together.sum(axis=2) == 1, together


def merge_distances(linkage_matrix: np.ndarray, n_leaves: int) -> np.ndarray:
    """For each leaf of a scipy linkage, the distance at which it first joins another.

    Parameters
    ----------
    linkage_matrix : numpy.ndarray
        A scipy linkage matrix.
    n_leaves : int
        Number of leaves.

    Returns
    -------
    numpy.ndarray
        For leaf i, the height of the first merge that contains it.

    References
    ----------
    Sokal, R. R. & Michener, C. D. (1958). University of Kansas Science Bulletin 38, 1409–1438.

    Examples
    --------
    >>> z = np.array([[0, 1, 0.2, 2], [2, 3, 0.7, 3]])  # 0 and 1 join at 0.2, then 2 at 0.7
    >>> merge_distances(z, 3).tolist()
    [0.2, 0.2, 0.7]
    """
    out = np.full(n_leaves, np.nan)
    for a, b, dist, _ in linkage_matrix:
        for leaf in (int(a), int(b)):
            if leaf < n_leaves and np.isnan(out[leaf]):
                out[leaf] = dist
    return out


@dataclass(frozen=True)
class ClusterStability:
    """How often each dimension is an independent axis (:func:`cluster_stability`)."""

    table: pd.DataFrame  # dimension, merge_distance, independent_observed, independent_share_bootstrap, ...
    pairs: pd.DataFrame  # dimension_a, dimension_b, together_observed, share_bootstrap, share_seeds
    threshold: float
    n_boot: int
    n_seeds: int


def cluster_stability(
    ratings: pd.DataFrame,
    threshold: float = 0.6,
    n_boot: int = 300,
    seed: int = 0,
    seed_replicates: Sequence[pd.DataFrame] = (),
    dimensions: Sequence[str] = DIMENSIONS,
) -> ClusterStability:
    """The clustering of :func:`cluster_dimensions` over item-bootstrap resamples and, for
    simulated ratings, over other seeds of the simulation (``seed_replicates``: rating
    frames of the same design). The paper (§3.2, Table 3) reads "a shared cluster and two
    independent axes" from one clustering of one sample; this says how often each reading
    would come out again.

    A dimension that merges at distance 0.61 with a cut at 0.60 is an "independent axis" by
    0.01; another sample of items (or of raters) may put it in the shared cluster. Per
    dimension: the distance at which it first joins another (``merge_distance``), whether it
    is alone at the cut in the data (``independent_observed``), and the share of resamples
    (``independent_share_bootstrap``) and of seeds (``independent_share_seeds``, NaN
    without replicates) in which it is alone. ``pairs``: per pair of dimensions, the share
    in which they share a cluster. The resamples are :func:`helpers.core.statistics.stats.resample`
    draws of the items (all ratings of a drawn item come along).

    Parameters
    ----------
    ratings : pandas.DataFrame
        Long ratings: ``item_id, rater, dimension, score``.
    threshold : float
        Distance at which each dendrogram is cut.
    n_boot : int
        Item-bootstrap resamples.
    seed : int
        Seed of the resamples.
    seed_replicates : sequence of pandas.DataFrame
        Rating frames of the same design from other simulation seeds.
    dimensions : sequence of str
        The dimensions clustered.

    Returns
    -------
    ClusterStability
        ``table`` and ``pairs``: each share = (1/B) Σ_b [the role holds in resample b].

    References
    ----------
    Naveriani et al. (2026), §3.2 and Table 3.
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 6.
    """
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import squareform

    dims = list(dimensions)
    n_items = wide_ratings(ratings)["item_id"].nunique()
    observed = spearman_matrices(ratings, None, dims)
    boot = spearman_matrices(ratings, resample(n_items, n_boot, seed), dims)
    alone_obs, with_obs = cluster_roles(observed, threshold)
    alone_boot, with_boot = cluster_roles(boot, threshold)
    if len(seed_replicates):
        reps = np.concatenate([spearman_matrices(r, None, dims) for r in seed_replicates])
        alone_rep, with_rep = cluster_roles(reps, threshold)
        share_alone_rep, share_with_rep = alone_rep.mean(axis=0), with_rep.mean(axis=0)
    else:
        share_alone_rep = np.full(len(dims), np.nan)
        share_with_rep = np.full((len(dims), len(dims)), np.nan)
    z = linkage(squareform(np.clip(1 - observed[0], 0, None), checks=False), method="average")
    table = pd.DataFrame(
        {
            "dimension": dims,
            "merge_distance": merge_distances(z, len(dims)),
            "independent_observed": alone_obs[0],
            "independent_share_bootstrap": alone_boot.mean(axis=0),
            "independent_share_seeds": share_alone_rep,
            "n_boot": n_boot,
            "n_seeds": len(seed_replicates),
        }
    )
    pairs = pd.DataFrame(
        [
            {
                "dimension_a": a,
                "dimension_b": b,
                "together_observed": bool(with_obs[0, i, j]),
                "share_bootstrap": float(with_boot[:, i, j].mean()),
                "share_seeds": float(share_with_rep[i, j]),
            }
            for i, a in enumerate(dims)
            for j, b in enumerate(dims)
            if i < j
        ]
    )
    return ClusterStability(table, pairs, float(threshold), n_boot, len(seed_replicates))
