"""Ratings of metaphor explanations on six dimensions plus Overall (Naveriani et al.).

The study rated 100 explanations × 16 raters × 7 scores (1–5 Likert): Non-Circularity,
Origin & Cultural Accuracy, Mapping, Emergence, Accessibility, Purpose and Overall. Its
ratings are not public; the book carries an authored benchmark with a designed pass/fail
profile per dimension (``data/authored/metaphor_explanations.csv``) and
:func:`simulate_ratings`, and every function here runs unchanged on real ratings.

Ratings are tidy: one row per (item_id, rater, dimension) with an integer ``score``;
a rater who skipped an item simply has no row (missing data, never dropped silently).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as st
from tqdm import tqdm

from . import paths
from .agreement import icc_table, krippendorff_alpha

DIMENSIONS: tuple[str, ...] = ("non_circularity", "origin", "mapping", "emergence", "accessibility", "purpose")
SCORES: tuple[str, ...] = DIMENSIONS + ("overall",)
LABELS = {
    "non_circularity": "Non-Circularity", "origin": "Origin & Cultural Accuracy", "mapping": "Mapping",
    "emergence": "Emergence", "accessibility": "Accessibility", "purpose": "Purpose", "overall": "Overall",
}
SHORT = {"non_circularity": "NC", "origin": "OR", "mapping": "MP", "emergence": "EM", "accessibility": "AC",
         "purpose": "PU", "overall": "OV"}
BENCHMARK_FILE = "data/authored/metaphor_explanations.csv"
RATING_COLUMNS = ["item_id", "metaphor", "explanation", "rater", "dimension", "score"]


class RatingsError(ValueError):
    """Bad ratings input, located to file, row, column and value."""

    def __init__(self, file, problem, row=None, column=None, value=None):
        self.file, self.row, self.column, self.value = file, row, column, value
        where = [str(file)] + ([f"row {row}"] if row is not None else []) + (
            [f"column {column!r}"] if column is not None else [])
        super().__init__(", ".join(where) + (f": value {value!r}" if value is not None else "") + f": {problem}")


def _dimension_key(text) -> str | None:
    """'Mapping', 'mapping', 'MP', 'Origin and Cultural Accuracy' -> key; None if unknown."""
    t = re.sub(r"[^a-z]", "", str(text).lower())
    for key in SCORES:
        forms = {re.sub(r"[^a-z]", "", key), re.sub(r"[^a-z]", "", LABELS[key].lower()), SHORT[key].lower()}
        if t in forms:
            return key
    if t in ("originandculturalaccuracy", "overallquality"):
        return "origin" if t.startswith("origin") else "overall"
    return None


def _score(value, file, row, column) -> int:
    """A 1–5 rating (numbers, numeric text, or text starting with the number such as '4 - good')."""
    m = re.match(r"^\s*(\d+(?:\.0+)?)\b", str(value))
    if m is None or not 1 <= float(m.group(1)) <= 5:
        raise RatingsError(file, "score must be an integer from 1 to 5", row=row, column=column, value=value)
    return int(float(m.group(1)))


def load_benchmark(path: str | os.PathLike | None = None) -> pd.DataFrame:
    """The authored benchmark: one row per item with metaphor, explanation and the designed
    pass (1) / fail (0) of each dimension."""
    path = paths.resolve_input(path or BENCHMARK_FILE)
    bench = pd.read_csv(path, dtype={"violates": str}, keep_default_na=False)
    missing = [c for c in ["item_id", "metaphor", "explanation", "design", *DIMENSIONS] if c not in bench.columns]
    if missing:
        raise RatingsError(path, f"missing column(s) {missing}", row=1)
    for d in DIMENSIONS:
        bad = bench.index[~bench[d].isin([0, 1])]
        if len(bad):
            raise RatingsError(path, "designed pass/fail must be 0 or 1", row=int(bad[0]) + 2, column=d,
                               value=bench.loc[bad[0], d])
    return bench


def read_ratings(path: str | os.PathLike, benchmark: pd.DataFrame | None = None) -> pd.DataFrame:
    """Read ratings in the long layout or as a wide Google-Forms export.

    * long: columns ``item_id, rater, dimension, score`` (``metaphor``, ``explanation``
      optional; taken from ``benchmark`` when missing);
    * wide: one row per rater, a rater column (``rater``, ``Name``, ``Email Address`` or
      ``Username``; else the row number) and one column per rating headed
      ``<item_id> … [<dimension>]``, the way Forms exports a grid question.

    Errors name the file, the row (as in a spreadsheet: header = row 1), the column and
    the value: scores outside 1–5, unknown dimensions, duplicate ratings.
    """
    path = paths.resolve_input(path)
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    if {"item_id", "rater", "dimension", "score"} <= set(raw.columns):
        records = []
        for i, r in raw.iterrows():
            row = i + 2
            if not r["score"].strip():
                continue  # an empty cell is a missing rating
            key = _dimension_key(r["dimension"])
            if key is None:
                raise RatingsError(path, f"unknown dimension (expected one of {', '.join(LABELS.values())})",
                                   row=row, column="dimension", value=r["dimension"])
            for col in ("item_id", "rater"):
                if not r[col].strip():
                    raise RatingsError(path, f"{col} is empty", row=row, column=col, value=r[col])
            records.append({"item_id": r["item_id"].strip(), "rater": r["rater"].strip(), "dimension": key,
                            "score": _score(r["score"], path, row, "score"), "_row": row,
                            "metaphor": r.get("metaphor", ""), "explanation": r.get("explanation", "")})
        long = pd.DataFrame.from_records(records)
    else:
        long = _read_wide(raw, path)
    dup = long.duplicated(["item_id", "rater", "dimension"], keep="first")
    if dup.any():
        first = long[dup].iloc[0]
        raise RatingsError(path, f"a second rating of item {first['item_id']} by rater {first['rater']} on "
                           f"{first['dimension']}", row=int(first["_row"]), value=first["item_id"])
    return _attach_texts(long.drop(columns="_row"), benchmark, path)


def _read_wide(raw: pd.DataFrame, path) -> pd.DataFrame:
    header = re.compile(r"^\s*(?P<item>[^\s\[\].]+)[^\[]*\[(?P<dim>[^\]]+)\]\s*$")
    rater_col = next((c for c in ("rater", "Name", "Email Address", "Username") if c in raw.columns), None)
    rating_cols = {}
    for col in raw.columns:
        m = header.match(col)
        if m:
            key = _dimension_key(m.group("dim"))
            if key is None:
                raise RatingsError(path, "unknown dimension in the column header", row=1, column=col,
                                   value=m.group("dim"))
            rating_cols[col] = (m.group("item"), key)
    if not rating_cols:
        raise RatingsError(path, "neither the long layout (item_id, rater, dimension, score) nor Forms-style "
                           "columns '<item_id> ... [<dimension>]' were found", row=1)
    records = []
    for i, r in raw.iterrows():
        rater = r[rater_col].strip() if rater_col else f"rater{i + 1}"
        for col, (item, key) in rating_cols.items():
            if r[col].strip():
                records.append({"item_id": item, "rater": rater, "dimension": key,
                                "score": _score(r[col], path, i + 2, col), "_row": i + 2,
                                "metaphor": "", "explanation": ""})
    return pd.DataFrame.from_records(records)


def _attach_texts(long: pd.DataFrame, benchmark: pd.DataFrame | None, source) -> pd.DataFrame:
    if benchmark is not None:
        texts = benchmark.set_index("item_id")[["metaphor", "explanation"]]
        have = long["metaphor"].astype(str).str.strip() != ""
        long.loc[~have, "metaphor"] = long.loc[~have, "item_id"].map(texts["metaphor"]).fillna("")
        have = long["explanation"].astype(str).str.strip() != ""
        long.loc[~have, "explanation"] = long.loc[~have, "item_id"].map(texts["explanation"]).fillna("")
    long["dimension"] = pd.Categorical(long["dimension"], categories=list(SCORES), ordered=True)
    long = long[RATING_COLUMNS].reset_index(drop=True)
    long.attrs["source"] = str(source)
    return long


# --------------------------------------------------------------------------- simulation


@dataclass(frozen=True)
class RatingModel:
    """Knobs of :func:`simulate_ratings` (scores on the 1–5 scale).

    Latent quality of item i on dimension d = ``pass_level`` or ``fail_level`` (from the
    design) + ``loading[d]`` × g_i + item noise (sd ``item_sd``), where g_i is a shared
    "general quality" of the item (the designed pass rate of mapping, emergence and
    purpose, centred, plus noise of sd ``general_sd``). A rater perceives it with their
    leniency (sd ``leniency_sd``), an overall impression of the item that also loads on
    the dimensions (the halo, sd ``halo_sd``) and noise of sd ``noise[d]`` (dimensions
    differ in difficulty); the loadings make mapping, emergence, purpose (and less so
    accessibility) correlate while non-circularity and origin stay apart. Overall is the
    weighted mean of the rater's six perceptions before the halo (``overall_weights``),
    plus ``overall_halo`` × the impression and noise ``overall_noise``. Scores are
    rounded and clipped to 1–5. The defaults were calibrated as notebook 04 describes.
    """

    pass_level: float = 4.1
    fail_level: float = 1.9
    item_sd: float = 0.35
    general_sd: float = 1.0
    halo_sd: float = 1.3
    leniency_sd: float = 0.3
    loading: Mapping[str, float] = field(default_factory=lambda: {
        "non_circularity": 0.0, "origin": 0.0, "mapping": 0.9, "emergence": 1.0, "accessibility": 0.5,
        "purpose": 1.0})
    noise: Mapping[str, float] = field(default_factory=lambda: {
        "non_circularity": 1.05, "origin": 0.95, "mapping": 0.45, "emergence": 0.3, "accessibility": 0.8,
        "purpose": 0.35})
    overall_weights: Mapping[str, float] = field(default_factory=lambda: {
        "non_circularity": 0.08, "origin": 0.04, "mapping": 0.12, "emergence": 0.4, "accessibility": 0.08,
        "purpose": 0.28})
    overall_noise: float = 0.45
    overall_halo: float = 0.6

    @classmethod
    def from_parameters(cls, values: Mapping | None) -> "RatingModel":
        """A model from a (partial) mapping of knob values, as papermill passes them."""
        if not values:
            return cls()
        base = asdict(cls())
        unknown = set(values) - set(base)
        if unknown:
            raise ValueError(f"unknown rating-model knob(s) {sorted(unknown)}; known: {sorted(base)}")
        for key in ("loading", "noise", "overall_weights"):
            if key in values:
                extra = set(values[key]) - set(DIMENSIONS)
                if extra:
                    raise ValueError(f"{key}: unknown dimension(s) {sorted(extra)}")
                base[key] = {**base[key], **values[key]}
        return cls(**{**base, **{k: v for k, v in values.items() if k not in ("loading", "noise", "overall_weights")}})


def simulate_ratings(benchmark: pd.DataFrame, n_raters: int = 16, seed: int = 42,
                     model: RatingModel | None = None) -> pd.DataFrame:
    """Seeded ratings of every benchmark item by ``n_raters`` raters on the 7 scores.

    Returns the tidy ratings frame with ``attrs["simulated"] = True`` and the model used.
    """
    model = model or RatingModel()
    rng = np.random.default_rng(seed)
    n = len(bench := benchmark.reset_index(drop=True))
    design = bench[list(DIMENSIONS)].to_numpy(dtype=float)  # items × 6, 1 = pass
    shared = design[:, [DIMENSIONS.index(d) for d in ("mapping", "emergence", "purpose")]].mean(axis=1)
    g = (shared - shared.mean()) + model.general_sd * rng.standard_normal(n)
    loading = np.array([model.loading[d] for d in DIMENSIONS])
    latent = np.where(design == 1, model.pass_level, model.fail_level) + g[:, None] * loading
    latent += model.item_sd * rng.standard_normal((n, len(DIMENSIONS)))
    noise = np.array([model.noise[d] for d in DIMENSIONS])
    weights = np.array([model.overall_weights[d] for d in DIMENSIONS])
    weights = weights / weights.sum()
    leniency = model.leniency_sd * rng.standard_normal(n_raters)
    impression = model.halo_sd * rng.standard_normal((n_raters, n))  # a rater's overall impression of an item
    own = latent[None] + leniency[:, None, None] + noise * rng.standard_normal((n_raters, n, len(DIMENSIONS)))
    perceived = own + impression[..., None] * loading
    overall = own @ weights + model.overall_halo * impression + model.overall_noise * rng.standard_normal((n_raters, n))
    scores = np.clip(np.rint(np.concatenate([perceived, overall[..., None]], axis=2)), 1, 5).astype(int)
    raters = [f"R{k + 1:02d}" for k in range(n_raters)]
    frame = pd.DataFrame({
        "item_id": np.tile(np.repeat(bench["item_id"].to_numpy(), len(SCORES)), n_raters),
        "rater": np.repeat(raters, n * len(SCORES)),
        "dimension": np.tile(list(SCORES), n * n_raters),
        "score": scores.reshape(-1),
    })
    frame["metaphor"] = frame["item_id"].map(bench.set_index("item_id")["metaphor"])
    frame["explanation"] = frame["item_id"].map(bench.set_index("item_id")["explanation"])
    frame["dimension"] = pd.Categorical(frame["dimension"], categories=list(SCORES), ordered=True)
    frame = frame[RATING_COLUMNS]
    frame.attrs.update(simulated=True, seed=seed, model=asdict(model), n_raters=n_raters)
    return frame


# --------------------------------------------------------------------------- reliability and structure


def rating_matrix(ratings: pd.DataFrame, dimension: str) -> pd.DataFrame:
    """Items × raters scores of one dimension (NaN where a rater skipped an item)."""
    sub = ratings[ratings["dimension"] == dimension]
    return sub.pivot_table(index="item_id", columns="rater", values="score", aggfunc="first", sort=False)


def reliability_table(ratings: pd.DataFrame, n_boot: int = 300, seed: int = 0) -> pd.DataFrame:
    """Per dimension: interval Krippendorff's α with an item-bootstrap 95% CI, ICC(2,1) and
    ICC(2,k) with pingouin's 95% CIs (paper Table 2)."""
    rows = []
    rng = np.random.default_rng(seed)
    for d in tqdm([d for d in SCORES if (ratings["dimension"] == d).any()], desc="reliability", leave=False):
        m = rating_matrix(ratings, d).to_numpy(dtype=float)
        alpha = krippendorff_alpha(m.T, level="interval")
        idx = rng.integers(0, m.shape[0], size=(n_boot, m.shape[0]))
        boot = np.array([krippendorff_alpha(m[i].T, level="interval") for i in idx])
        icc = icc_table(ratings[ratings["dimension"] == d].assign(g=d), by="g", value="score", rater="rater",
                        item="item_id").iloc[0]
        rows.append({"dimension": d, "alpha": alpha, "alpha_ci_low": np.nanpercentile(boot, 2.5),
                     "alpha_ci_high": np.nanpercentile(boot, 97.5), "icc2_1": icc["icc2_1"],
                     "icc2_1_ci_low": icc["icc2_1_ci_low"], "icc2_1_ci_high": icc["icc2_1_ci_high"],
                     "icc2_k": icc["icc2_k"], "icc2_k_ci_low": icc["icc2_k_ci_low"],
                     "icc2_k_ci_high": icc["icc2_k_ci_high"], "n_items": m.shape[0], "n_raters": m.shape[1]})
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


def cluster_dimensions(spearman: pd.DataFrame, threshold: float = 0.5) -> pd.DataFrame:
    """Average-linkage clustering of the dimensions on the distance 1 − ρ.

    Returns one row per dimension with its ``cluster`` (cut at ``threshold``) and its
    position in the dendrogram (``order``); a cluster of one dimension is an independent
    axis of judgement. The linkage matrix is in ``attrs["linkage"]``.
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
    out = pd.DataFrame({"dimension": dims, "cluster": labels, "order": [int(np.where(order == i)[0][0])
                                                                         for i in range(len(dims))]})
    out["role"] = np.where(out["cluster"].map(sizes) > 1, "shared cluster", "independent axis")
    out.attrs["linkage"] = z
    out.attrs["rho"] = rho
    return out.sort_values("order").reset_index(drop=True)


def standardized_regression(ratings: pd.DataFrame, target: str = "overall",
                            predictors: Sequence[str] = DIMENSIONS) -> pd.DataFrame:
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
    out = pd.DataFrame(rows)
    out.attrs.update(r2=fit.rsquared, n=int(fit.nobs))
    return out


# --------------------------------------------------------------------------- disagreement


def item_statistics(ratings: pd.DataFrame) -> pd.DataFrame:
    """Per item and score: mean, standard deviation (n − 1) and number of raters."""
    out = ratings.groupby(["item_id", "dimension"], observed=True, sort=False)["score"].agg(
        mean="mean", sd="std", n="count").reset_index()
    texts = ratings.drop_duplicates("item_id").set_index("item_id")[["metaphor", "explanation"]]
    return out.join(texts, on="item_id")


def disagreement_by_quality(item_stats: pd.DataFrame, dimension: str = "overall",
                            edges: Sequence[float] = (1, 2, 2.5, 3, 3.5, 4, 5.01)) -> pd.DataFrame:
    """Mean within-item SD per bucket of mean score (paper Figure 2), plus a quadratic test
    of U-shape in ``attrs``: SD = b0 + b1·mean + b2·mean², U-shaped if b2 > 0 with p < .05."""
    import statsmodels.api as sm

    sub = item_stats[item_stats["dimension"] == dimension].copy()
    sub["bucket"] = pd.cut(sub["mean"], bins=list(edges), right=False)
    table = sub.groupby("bucket", observed=False).agg(n_items=("sd", "size"), mean_sd=("sd", "mean")).reset_index()
    table["bucket"] = table["bucket"].astype(str)
    centred = sub["mean"] - sub["mean"].mean()
    fit = sm.OLS(sub["sd"], sm.add_constant(np.column_stack([centred, centred**2]))).fit()
    table.attrs.update(quadratic=float(fit.params.iloc[2]), quadratic_p=float(fit.pvalues.iloc[2]),
                       u_shaped=bool(fit.params.iloc[2] > 0 and fit.pvalues.iloc[2] < 0.05))
    return table


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
