"""How people judge metaphor explanations: reliability, structure, drivers, disagreement.

The analyses of Naveriani et al. (2026, §3): per-dimension reliability (Table 2),
correlations and clustering of the dimensions (Table 3), what drives Overall (Tables 4
and 9), where raters disagree (Figures 1–3), each rater's habits, and (for the book's
authored benchmark) whether ratings follow the designed pass/fail of each dimension.
All take the tidy ratings of :mod:`helpers.explanations.io` and return DataFrames or
small frozen dataclasses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as st
from tqdm import tqdm

from ..core.agreement import icc_table, interval_alpha_weighted, krippendorff_alpha
from ..core.stats import percentile_interval, resample
from .io import DIMENSIONS, SCORES


def rating_matrix(ratings: pd.DataFrame, dimension: str) -> pd.DataFrame:
    """Items × raters scores of one dimension (NaN where a rater skipped an item)."""
    sub = ratings[ratings["dimension"] == dimension]
    return sub.pivot_table(index="item_id", columns="rater", values="score", aggfunc="first", sort=False)


def reliability_table(ratings: pd.DataFrame, n_boot: int = 300, seed: int = 0) -> pd.DataFrame:
    """Per dimension: interval Krippendorff's α with an item-bootstrap 95% CI, ICC(2,1) and
    ICC(2,k) with pingouin's 95% CIs (paper Table 2).

    The resamples of successive dimensions continue one seeded random stream."""
    rows = []
    rng = np.random.default_rng(seed)
    for d in tqdm([d for d in SCORES if (ratings["dimension"] == d).any()], desc="reliability", leave=False):
        m = rating_matrix(ratings, d).to_numpy(dtype=float)
        alpha = krippendorff_alpha(m.T, level="interval")
        boot = interval_alpha_weighted(m, resample(m.shape[0], n_boot, rng))
        low, high = percentile_interval(boot)
        icc = icc_table(ratings[ratings["dimension"] == d].assign(g=d), by="g", value="score", rater="rater",
                        item="item_id").iloc[0]
        rows.append({"dimension": d, "alpha": alpha, "alpha_ci_low": low, "alpha_ci_high": high,
                     "icc2_1": icc["icc2_1"], "icc2_1_ci_low": icc["icc2_1_ci_low"],
                     "icc2_1_ci_high": icc["icc2_1_ci_high"], "icc2_k": icc["icc2_k"],
                     "icc2_k_ci_low": icc["icc2_k_ci_low"], "icc2_k_ci_high": icc["icc2_k_ci_high"],
                     "n_items": m.shape[0], "n_raters": m.shape[1]})
    return pd.DataFrame(rows)


def wide_ratings(ratings: pd.DataFrame) -> pd.DataFrame:
    """One row per (item_id, rater) with a column per score; rows with any missing score dropped."""
    wide = ratings.pivot_table(index=["item_id", "rater"], columns="dimension", values="score", aggfunc="first",
                               observed=True, sort=False)
    wide.columns = [str(c) for c in wide.columns]
    return wide.dropna().reset_index()


def spearman_table(ratings: pd.DataFrame, dimensions: Sequence[str] = DIMENSIONS) -> pd.DataFrame:
    """Pairwise Spearman ρ between dimensions over individual ratings (item × rater), with
    p-values and the paper's marks (* p < .05, ** p < .0001)."""
    wide = wide_ratings(ratings)
    rows = []
    for a in dimensions:
        for b in dimensions:
            rho, p = (1.0, 0.0) if a == b else st.spearmanr(wide[a], wide[b])
            mark = "**" if p < 1e-4 else "*" if p < 0.05 else ""
            rows.append({"dimension_a": a, "dimension_b": b, "rho": float(rho), "p_value": float(p), "mark": mark,
                         "n": len(wide)})
    return pd.DataFrame(rows)


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
    out = pd.DataFrame({"dimension": dims, "cluster": labels,
                        "order": [int(np.where(order == i)[0][0]) for i in range(len(dims))]})
    out["role"] = np.where(out["cluster"].map(sizes) > 1, "shared cluster", "independent axis")
    return Clusters(out.sort_values("order").reset_index(drop=True), rho, z)


@dataclass(frozen=True)
class Regression:
    """Standardised OLS of a target on the dimensions (:func:`standardized_regression`)."""

    table: pd.DataFrame  # predictor, beta, se, t, p_value, ci90_low, ci90_high, vif
    r2: float
    n: int


def standardized_regression(ratings: pd.DataFrame, target: str = "overall",
                            predictors: Sequence[str] = DIMENSIONS) -> Regression:
    """OLS of the standardised ``target`` on the standardised predictors over individual
    ratings (paper Tables 4 and 9): β, SE, t, p, 90% CI, and each predictor's variance
    inflation factor (large VIFs make signs unstable)."""
    import statsmodels.api as sm
    from statsmodels.stats.outliers_influence import variance_inflation_factor

    wide = wide_ratings(ratings)
    cols = list(predictors) + [target]
    z = (wide[cols] - wide[cols].mean()) / wide[cols].std(ddof=1)
    x = sm.add_constant(z[list(predictors)])
    fit = sm.OLS(z[target], x).fit()
    ci = fit.conf_int(alpha=0.10)
    rows = []
    for k, p in enumerate(predictors, start=1):
        rows.append({"predictor": p, "beta": fit.params[p], "se": fit.bse[p], "t": fit.tvalues[p],
                     "p_value": fit.pvalues[p], "ci90_low": ci.loc[p, 0], "ci90_high": ci.loc[p, 1],
                     "vif": variance_inflation_factor(x.to_numpy(), k)})
    return Regression(pd.DataFrame(rows), float(fit.rsquared), int(fit.nobs))


# --------------------------------------------------------------------------- disagreement


def item_statistics(ratings: pd.DataFrame) -> pd.DataFrame:
    """Per item and score: mean, standard deviation (n − 1) and number of raters."""
    out = ratings.groupby(["item_id", "dimension"], observed=True, sort=False)["score"].agg(
        mean="mean", sd="std", n="count").reset_index()
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


def disagreement_by_quality(item_stats: pd.DataFrame, dimension: str = "overall",
                            edges: Sequence[float] = (1, 2, 2.5, 3, 3.5, 4, 5.01)) -> DisagreementShape:
    """Mean within-item SD per bucket of mean score (paper Figure 2), and the quadratic term
    of SD = b0 + b1·mean + b2·mean² (mean centred): b2 < 0 is a hump in the middle."""
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
    those deviations (consistency)."""
    sub = ratings[ratings["dimension"] == dimension]
    item_mean = sub.groupby("item_id")["score"].transform("mean")
    dev = sub.assign(deviation=sub["score"] - item_mean)
    return dev.groupby("rater", sort=False).agg(n_items=("score", "size"), mean_score=("score", "mean"),
                                                leniency=("deviation", "mean"),
                                                deviation_sd=("deviation", "std")).reset_index()


def design_contrast(ratings: pd.DataFrame, benchmark: pd.DataFrame) -> pd.DataFrame:
    """Do raters see the designed failures? Per dimension: mean item score of items designed
    to pass vs to fail it, the difference, and a Mann–Whitney U test on the item means."""
    means = item_statistics(ratings)
    rows = []
    for d in DIMENSIONS:
        sub = means[means["dimension"] == d].merge(benchmark[["item_id", d]], on="item_id")
        passed, failed = sub.loc[sub[d] == 1, "mean"], sub.loc[sub[d] == 0, "mean"]
        test = st.mannwhitneyu(passed, failed, alternative="two-sided") if len(passed) and len(failed) else None
        rows.append({"dimension": d, "n_pass": len(passed), "n_fail": len(failed), "mean_pass": passed.mean(),
                     "mean_fail": failed.mean(), "difference": passed.mean() - failed.mean(),
                     "mann_whitney_u": test.statistic if test else np.nan, "p_value": test.pvalue if test else np.nan})
    return pd.DataFrame(rows)
