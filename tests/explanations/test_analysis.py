"""Ratings of metaphor explanations: loading, simulation, reliability, structure, disagreement."""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from scipy import stats as st

from helpers import explanations as ex
from helpers.explanations import analysis as an
from helpers.explanations import bounded_scale
from helpers.explanations.io import DIMENSIONS, SCORES


@pytest.fixture(scope="module")
def benchmark():
    return ex.load_benchmark()


def test_reliability_on_shrout_fleiss_example():
    data = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    ratings = pd.DataFrame(
        [
            {
                "item_id": f"t{t}",
                "rater": f"j{j}",
                "dimension": "mapping",
                "score": v,
                "metaphor": "",
                "explanation": "",
            }
            for t, row in enumerate(data)
            for j, v in enumerate(row)
        ]
    )
    rel = ex.reliability_table(ratings, n_boot=50).iloc[0]
    assert round(rel["icc2_1"], 2) == 0.29 and round(rel["icc2_k"], 2) == 0.62
    assert rel["alpha"] == pytest.approx(krippendorff.alpha(np.array(data, float).T, level_of_measurement="interval"))
    assert rel["alpha_ci_low"] <= rel["alpha"] <= rel["alpha_ci_high"]


def _two_dim_ratings(x, y, dims=("mapping", "emergence")):
    rows = []
    for k, (a, b) in enumerate(zip(x, y)):
        rows += [
            {"item_id": f"i{k}", "rater": "r", "dimension": dims[0], "score": a},
            {"item_id": f"i{k}", "rater": "r", "dimension": dims[1], "score": b},
        ]
    df = pd.DataFrame(rows).assign(metaphor="", explanation="")
    df["dimension"] = pd.Categorical(df["dimension"], categories=list(ex.SCORES))
    return df


def test_spearman_against_scipy():
    x, y = [1, 2, 3, 4, 5, 2, 3], [2, 1, 4, 3, 5, 2, 5]
    table = ex.spearman_table(_two_dim_ratings(x, y), dimensions=("mapping", "emergence"))
    rho = table[(table["dimension_a"] == "mapping") & (table["dimension_b"] == "emergence")].iloc[0]
    ref = st.spearmanr(x, y)
    assert rho["rho"] == pytest.approx(ref.statistic) and rho["p_value"] == pytest.approx(ref.pvalue)


def test_clusters_from_a_known_correlation_matrix():
    rho = {("mapping", "emergence"): 0.9, ("mapping", "origin"): 0.0, ("emergence", "origin"): 0.1}
    rows = []
    for a in ("mapping", "emergence", "origin"):
        for b in ("mapping", "emergence", "origin"):
            r = 1.0 if a == b else rho.get((a, b), rho.get((b, a)))
            rows.append({"dimension_a": a, "dimension_b": b, "rho": r})
    clusters = ex.cluster_dimensions(pd.DataFrame(rows), threshold=0.5).table.set_index("dimension")
    assert clusters.loc["mapping", "cluster"] == clusters.loc["emergence", "cluster"]
    assert clusters.loc["origin", "role"] == "independent axis"
    assert clusters.loc["mapping", "role"] == "shared cluster"


def test_standardized_regression_matches_least_squares(benchmark):
    ratings = ex.simulate_ratings(benchmark, n_raters=4, seed=3)
    reg = ex.standardized_regression(ratings).table.set_index("predictor")
    wide = ex.wide_ratings(ratings)
    cols = list(ex.DIMENSIONS) + ["overall"]
    z = (wide[cols] - wide[cols].mean()) / wide[cols].std(ddof=1)
    x = np.column_stack([np.ones(len(z)), z[list(ex.DIMENSIONS)]])
    beta = np.linalg.lstsq(x, z["overall"], rcond=None)[0][1:]
    assert reg["beta"].to_numpy() == pytest.approx(beta)
    # VIF_j = 1 / (1 - R^2 of predictor j on the others)
    others = [d for d in ex.DIMENSIONS if d != "mapping"]
    xo = np.column_stack([np.ones(len(z)), z[others]])
    resid = z["mapping"] - xo @ np.linalg.lstsq(xo, z["mapping"], rcond=None)[0]
    r2 = 1 - (resid**2).sum() / ((z["mapping"] - z["mapping"].mean()) ** 2).sum()
    assert reg.loc["mapping", "vif"] == pytest.approx(1 / (1 - r2))


def test_disagreement_hump_detected():
    means = np.linspace(1, 5, 41)
    stats_ = pd.DataFrame(
        {
            "item_id": [f"i{k}" for k in range(41)],
            "dimension": "overall",
            "mean": means,
            "sd": 1.2 - 0.25 * (means - 3) ** 2 + 0.01 * np.sin(means),
            "n": 16,
        }
    )
    table = ex.disagreement_by_quality(stats_)
    assert table.quadratic < 0 and table.quadratic_p < 0.05
    assert table.buckets["n_items"].sum() == 41


def test_design_contrast(benchmark):
    ratings = ex.simulate_ratings(benchmark, seed=1)
    contrast = ex.design_contrast(ratings, benchmark).set_index("dimension")
    assert (contrast["difference"] > 0).all()
    assert contrast.loc["mapping", "n_fail"] == int((benchmark["mapping"] == 0).sum())


def test_rater_profile_leniency():
    df = pd.DataFrame(
        {
            "item_id": ["a", "a", "b", "b"],
            "rater": ["x", "y", "x", "y"],
            "dimension": "overall",
            "score": [4, 2, 5, 3],
            "metaphor": "",
            "explanation": "",
        }
    )
    prof = ex.rater_profile(df).set_index("rater")
    assert prof.loc["x", "leniency"] == 1.0 and prof.loc["y", "leniency"] == -1.0


# --------------------------------------------------------------------------- corrections: item-level inference


def _ratings_from_matrix(scores: dict[str, np.ndarray]) -> pd.DataFrame:
    """Tidy ratings from {dimension: items × raters array}."""
    rows = []
    for d, m in scores.items():
        for i in range(m.shape[0]):
            for j in range(m.shape[1]):
                rows.append({"item_id": f"i{i:03d}", "rater": f"r{j}", "dimension": d, "score": m[i, j]})
    df = pd.DataFrame(rows).assign(metaphor="", explanation="")
    df["dimension"] = pd.Categorical(df["dimension"], categories=list(ex.SCORES))
    return df


def test_spearman_on_item_means_by_hand():
    # two raters, four items: item means of mapping 1.5, 2.5, 3.5, 4.5 and of emergence 2, 1, 4, 3
    mapping = np.array([[1, 2], [2, 3], [3, 4], [4, 5]])
    emergence = np.array([[2, 2], [1, 1], [4, 4], [3, 3]])
    table = ex.spearman_table(
        _ratings_from_matrix({"mapping": mapping, "emergence": emergence}), dimensions=("mapping", "emergence")
    )
    row = table[(table["dimension_a"] == "mapping") & (table["dimension_b"] == "emergence")].iloc[0]
    ref = st.spearmanr([1.5, 2.5, 3.5, 4.5], [2, 1, 4, 3])
    assert row["rho_items"] == pytest.approx(0.6) == pytest.approx(ref.statistic)  # 1 − 6·4 / (4·15)
    assert row["p_items"] == pytest.approx(ref.pvalue) and row["n_items"] == 4 and row["n"] == 8
    assert list(table.columns[:6]) == ["dimension_a", "dimension_b", "rho", "p_value", "mark", "n"]
    assert ex.spearman_pairs(table)[["dimension_a", "dimension_b"]].values.tolist() == [["mapping", "emergence"]]


def test_item_level_p_values_hold_their_level_where_rating_level_ones_do_not():
    # origin and mapping are independent qualities of the items (true ρ = 0); each of 10 raters
    # sees them with noise. Across 40 such data sets a test at .05 should reject about 5% of the time.
    naive = items = 0
    for k in range(40):
        rng = np.random.default_rng(k)
        origin = np.clip(np.rint(3 + rng.normal(size=(60, 1)) + 0.7 * rng.normal(size=(60, 10))), 1, 5)
        mapping = np.clip(np.rint(3 + rng.normal(size=(60, 1)) + 0.7 * rng.normal(size=(60, 10))), 1, 5)
        row = ex.spearman_table(
            _ratings_from_matrix({"origin": origin, "mapping": mapping}), dimensions=("origin", "mapping")
        ).iloc[1]
        naive += row["p_value"] < 0.05
        items += row["p_items"] < 0.05
        assert (row["mark"] != "") == (row["p_value"] < 0.05) and (row["mark_items"] != "") == (row["p_items"] < 0.05)
    assert naive >= 12  # 600 "independent" ratings: far too many false alarms
    assert items <= 6  # 60 items: about the nominal 5%


def test_clustered_standard_errors_match_the_sandwich_by_hand(benchmark):
    ratings = ex.simulate_ratings(benchmark, n_raters=4, seed=3)
    reg = ex.standardized_regression(ratings)
    wide = ex.wide_ratings(ratings)
    cols = list(ex.DIMENSIONS) + ["overall"]
    z = (wide[cols] - wide[cols].mean()) / wide[cols].std(ddof=1)
    x = np.column_stack([np.ones(len(z)), z[list(ex.DIMENSIONS)]])
    y = z["overall"].to_numpy()
    b = np.linalg.lstsq(x, y, rcond=None)[0]
    u = y - x @ b
    groups = pd.factorize(wide["item_id"])[0]
    n, k, g = len(y), x.shape[1], groups.max() + 1
    bread = np.linalg.inv(x.T @ x)
    scores = np.array([x[groups == c].T @ u[groups == c] for c in range(g)])
    v = g / (g - 1) * (n - 1) / (n - k) * bread @ (scores.T @ scores) @ bread
    se = np.sqrt(np.diag(v))[1:]
    table = reg.table.set_index("predictor")
    assert table["se_cluster"].to_numpy() == pytest.approx(se)
    p = 2 * st.t.sf(np.abs(b[1:] / se), g - 1)
    assert table["p_cluster"].to_numpy() == pytest.approx(p)
    half = st.t.ppf(0.95, g - 1) * se
    assert table["ci90_cluster_high"].to_numpy() == pytest.approx(b[1:] + half)
    assert reg.n_items == 100
    assert list(reg.table.columns[:8]) == ["predictor", "beta", "se", "t", "p_value", "ci90_low", "ci90_high", "vif"]


# --------------------------------------------------------------------------- corrections: the bounded scale


def test_rounded_scale_moments_against_monte_carlo():
    rng = np.random.default_rng(1)
    for mu, sigma in [(1.3, 0.8), (3.0, 1.2), (4.6, 0.5)]:
        draws = np.clip(np.rint(mu + sigma * rng.standard_normal(400_000)), 1, 5)
        mean, sd = ex.rounded_scale_moments(mu, sigma)
        assert float(mean) == pytest.approx(draws.mean(), abs=0.01)
        assert float(sd) == pytest.approx(draws.std(), abs=0.01)
    targets = np.array([1.2, 2.0, 3.7, 4.9])
    mu = ex.latent_means(targets, 0.9)
    assert ex.rounded_scale_moments(mu, 0.9)[0] == pytest.approx(targets, abs=1e-4)


def _bounded_items(latent_sd, seed, n_items=100, n_raters=16):
    rng = np.random.default_rng(seed)
    mu = rng.uniform(0.8, 5.2, n_items)
    sd = latent_sd(mu) if callable(latent_sd) else np.full(n_items, latent_sd)
    scores = np.clip(np.rint(mu[:, None] + sd[:, None] * rng.standard_normal((n_items, n_raters))), 1, 5)
    return pd.DataFrame(
        {
            "item_id": [f"i{k}" for k in range(n_items)],
            "dimension": "overall",
            "mean": scores.mean(axis=1),
            "sd": scores.std(axis=1, ddof=1),
            "n": n_raters,
        }
    )


def test_bounded_scale_null_does_not_reject_its_own_data():
    stats_ = _bounded_items(1.0, seed=5)
    naive = ex.disagreement_by_quality(stats_)
    assert naive.hump  # against 0, the bounded scale alone "shows" the hump ...
    null = ex.bounded_scale_null(stats_, n_null=500, seed=0)
    assert null.p_value > 0.05 and not null.beyond_null  # ... against the bounded-scale null it does not
    s = null.summary.iloc[0]
    assert s["null_ci_low"] <= s["observed_quadratic"] <= s["null_ci_high"]
    assert null.latent_sd == pytest.approx(1.0, abs=0.1)
    assert null.buckets["sd_ratio"].between(0.8, 1.2).all()
    # calibration: over 20 data sets drawn from the null, few rejections at .05
    rejections = sum(
        ex.bounded_scale_null(_bounded_items(0.9, seed=100 + k), n_null=199, seed=k).p_value < 0.05 for k in range(20)
    )
    assert rejections <= 3


def test_bounded_scale_null_rejects_a_genuine_latent_hump():
    # latent SD 0.3 at the ends of the scale, 1.5 in the middle: real extra disagreement
    stats_ = _bounded_items(lambda mu: 0.3 + 1.2 * np.exp(-((mu - 3.0) ** 2) / 0.8), seed=7)
    null = ex.bounded_scale_null(stats_, n_null=500, seed=0)
    assert null.beyond_null and null.p_value < 0.01
    assert null.observed < null.summary.iloc[0]["null_ci_low"]
    middle = null.buckets.set_index("bucket").loc["[3.0, 3.5)", "sd_ratio"]
    assert middle > 1.1


# --------------------------------------------------------------------------- corrections: cluster stability


def _factor_ratings(seed, n_items=80, n_raters=10, borderline=0.45):
    """mapping and emergence share a strong factor, origin none; accessibility a middling one."""
    rng = np.random.default_rng(seed)
    factor = rng.normal(size=(n_items, 1)) + rng.normal(size=(n_items, n_raters))
    dims = {"mapping": 1.0, "emergence": 1.0, "origin": 0.0, "accessibility": borderline}
    return _ratings_from_matrix(
        {
            d: np.clip(np.rint(3 + w * factor + 0.5 * rng.normal(size=(n_items, n_raters))), 1, 5)
            for d, w in dims.items()
        }
    )


def test_weighted_spearman_matrices_equal_scipy_on_repeated_rows():
    from helpers.core.statistics.stats import resample

    ratings = _factor_ratings(1)
    dims = ("mapping", "emergence", "origin", "accessibility")
    w = resample(80, 3, seed=2)
    mats = ex.spearman_matrices(ratings, w, dims)
    wide = ex.wide_ratings(ratings)
    items = pd.factorize(wide["item_id"])[0]
    for b in range(3):
        repeated = wide.loc[np.repeat(np.arange(len(wide)), w[b][items]), list(dims)]
        assert mats[b] == pytest.approx(st.spearmanr(repeated).statistic)
    assert ex.spearman_matrices(ratings, None, dims)[0] == pytest.approx(st.spearmanr(wide[list(dims)]).statistic)


def test_cluster_stability_on_a_constructed_structure():
    dims = ("mapping", "emergence", "origin", "accessibility")
    ratings = _factor_ratings(3)
    stab = ex.cluster_stability(
        ratings,
        threshold=0.6,
        n_boot=100,
        seed=0,
        dimensions=dims,
        seed_replicates=[_factor_ratings(10 + k) for k in range(5)],
    )
    t = stab.table.set_index("dimension")
    assert t.loc["origin", "independent_share_bootstrap"] == 1.0 and t.loc["origin", "independent_share_seeds"] == 1.0
    assert t.loc["mapping", "independent_share_bootstrap"] == 0.0 and t.loc["emergence", "independent_share_seeds"] == 0
    pairs = stab.pairs.set_index(["dimension_a", "dimension_b"])
    assert pairs.loc[("mapping", "emergence"), "share_bootstrap"] == 1.0
    assert pairs.loc[("mapping", "origin"), "share_bootstrap"] == 0.0
    # the merge distance of each dimension is that of the observed dendrogram
    rho = ex.spearman_matrices(ratings, None, dims)[0]
    assert t.loc["mapping", "merge_distance"] == pytest.approx(1 - rho[0, 1])
    # a cut just below and just above accessibility's merge distance flips its observed role
    d = t.loc["accessibility", "merge_distance"]
    below = ex.cluster_stability(ratings, threshold=d - 0.01, n_boot=20, dimensions=dims).table.set_index("dimension")
    above = ex.cluster_stability(ratings, threshold=d + 0.01, n_boot=20, dimensions=dims).table.set_index("dimension")
    assert below.loc["accessibility", "independent_observed"] and not above.loc["accessibility", "independent_observed"]
    without = ex.cluster_stability(ratings, threshold=0.6, n_boot=20, dimensions=dims)
    assert without.n_seeds == 0 and without.table["independent_share_seeds"].isna().all()


def _ordinal_ratings(cuts, n_items=12, n_raters=150, sigma=0.8, seed=0):
    rng = np.random.default_rng(seed)
    mu = rng.uniform(1.2, 4.8, n_items)
    latent = mu[:, None] + rng.normal(0, sigma, (n_items, n_raters))
    score = 1 + (latent[..., None] > np.asarray(cuts)).sum(axis=-1)
    ids = np.repeat([f"i{k}" for k in range(n_items)], n_raters)
    return pd.DataFrame(
        {"item_id": ids, "dimension": "overall", "score": score.ravel(), "metaphor": ids, "explanation": ids}
    )


def test_fitted_cutpoints_match_statsmodels_ordered_probit_and_recover_the_truth():
    from statsmodels.miscmodels.ordinal_model import OrderedModel

    from helpers.explanations import analysis as an

    true = np.array([1.3, 2.7, 3.4, 4.6])
    ratings = _ordinal_ratings(true)
    mine = bounded_scale.fit_cutpoints(ratings)
    dummies = pd.get_dummies(ratings["item_id"], drop_first=True).astype(float).to_numpy()
    model = OrderedModel(ratings["score"].to_numpy(), dummies, distr="probit")
    fit = model.fit(method="bfgs", disp=False, maxiter=5000)
    c = model.transform_threshold_params(fit.params)[1:-1]
    reference = 1.5 + (c - c[0]) / (c[-1] - c[0]) * 3
    np.testing.assert_allclose(mine, reference, atol=2e-3)
    # mapped the same way (first threshold at 1.5, last at 4.5) the truth is 1.5, 2.77, 3.41, 4.5: recovered
    np.testing.assert_allclose(mine, 1.5 + (true - true[0]) / (true[-1] - true[0]) * 3, atol=0.12)


def test_threshold_sensitivity_reports_each_variant_of_the_null():
    from helpers.explanations import analysis as an

    ratings = _ordinal_ratings(bounded_scale.rounding_cuts(), n_items=30, n_raters=12, seed=1)
    stats_ = an.item_statistics(ratings)
    table = bounded_scale.threshold_sensitivity(stats_, ratings, n_null=199, seed=0)
    assert list(table["thresholds"].iloc[:3]) == [
        "1.50, 2.50, 3.50, 4.50",
        "1.75, 2.50, 3.50, 4.25",
        "1.25, 2.50, 3.50, 4.75",
    ]
    plain = bounded_scale.bounded_scale_null(stats_, n_null=199, seed=0).summary.iloc[0]
    assert table.iloc[0]["p_value"] == plain["p_value"] and table.iloc[0]["null_mean"] == plain["null_mean"]
    assert (
        table["thresholds_from"].iloc[-1].startswith("fitted")
        and (table["observed_quadratic"] == plain["observed_quadratic"]).all()
    )


def ratings(scores: dict[str, np.ndarray], items=None, raters=None) -> pd.DataFrame:
    """Tidy ratings from {dimension: items x raters matrix} (NaN = not rated)."""
    rows = []
    for dim, m in scores.items():
        m = np.asarray(m, dtype=float)
        its = items or [f"i{k}" for k in range(m.shape[0])]
        rs = raters or [f"r{j}" for j in range(m.shape[1])]
        for i, item in enumerate(its):
            for j, rater in enumerate(rs):
                if not np.isnan(m[i, j]):
                    rows.append(
                        {
                            "item_id": item,
                            "rater": rater,
                            "dimension": dim,
                            "score": m[i, j],
                            "metaphor": f"m-{item}",
                            "explanation": f"e-{item}",
                        }
                    )
    return pd.DataFrame(rows)


@pytest.mark.parametrize("p, mark", [(0.00009, "**"), (1e-4, "*"), (0.0499, "*"), (0.05, ""), (0.7, "")])
def test_significance_marks_at_their_bounds(p, mark):
    assert an.significance_mark(p) == mark


def test_item_means_and_statistics_by_hand():
    r = ratings(
        {"overall": [[4, 5, np.nan], [2, 2, 5]], "origin": [[1, 3, 2], [np.nan, np.nan, np.nan]]},
        items=["a", "b"],
        raters=["x", "y", "z"],
    )
    m = an.item_means(r, ["origin", "overall"])
    assert list(m.columns) == ["origin", "overall"] and m.index.tolist() == ["a"]  # b lacks origin
    assert m.loc["a"].tolist() == [2.0, 4.5]
    assert an.item_means(r, ["overall"])["overall"].tolist() == [4.5, 3.0]
    s = an.item_statistics(r).set_index(["item_id", "dimension"])
    assert s.loc[("b", "overall"), ["mean", "sd", "n"]].tolist() == pytest.approx([3.0, np.sqrt(3), 3])
    assert s.loc[("a", "overall"), ["mean", "sd", "n"]].tolist() == pytest.approx([4.5, np.sqrt(0.5), 2])
    assert s.loc[("a", "origin"), ["metaphor", "explanation"]].tolist() == ["m-a", "e-a"]
    assert list(an.item_statistics(r).columns) == ["item_id", "dimension", "mean", "sd", "n", "metaphor", "explanation"]


def test_rater_profile_by_hand():
    r = ratings({"overall": [[4, 5, 3], [2, 2, 5]], "origin": [[1, 1, 1], [1, 1, 1]]}, raters=["x", "y", "z"])
    p = an.rater_profile(r)
    # item means 4 and 3: deviations x (0, -1), y (1, -1), z (-1, 2)
    assert p["rater"].tolist() == ["x", "y", "z"]
    assert p["n_items"].tolist() == [2, 2, 2]
    assert p["mean_score"].tolist() == [3.0, 3.5, 4.0]
    assert p["leniency"].tolist() == pytest.approx([-0.5, 0.0, 0.5])
    assert p["deviation_sd"].tolist() == pytest.approx([np.sqrt(0.5), np.sqrt(2), np.sqrt(4.5)])
    assert an.rater_profile(r, "origin")["leniency"].tolist() == [0.0, 0.0, 0.0]


def test_spearman_by_hand_on_ratings_and_on_item_means():
    # every rater gives the item's value: origin ranks 1 2 3 4, mapping 2 1 4 3 -> Σd² = 4,
    # ρ = 1 − 6·4/(4·15) = 0.6 on items and on the 12 ratings (ties replicate the ranks linearly)
    origin, mapping = np.repeat([[1], [2], [3], [4]], 3, axis=1), np.repeat([[2], [1], [4], [3]], 3, axis=1)
    r = ratings({"origin": origin, "mapping": mapping})
    t = an.spearman_table(r, ("origin", "mapping"))
    assert t[["dimension_a", "dimension_b"]].values.tolist() == [
        ["origin", "origin"],
        ["origin", "mapping"],
        ["mapping", "origin"],
        ["mapping", "mapping"],
    ]
    row = t.iloc[1]
    assert row["rho"] == pytest.approx(0.6) and row["rho_items"] == pytest.approx(0.6)
    assert row["n"] == 12 and row["n_items"] == 4
    # p from t = ρ √((n − 2)/(1 − ρ²)) with n − 2 degrees of freedom: n = 4 gives exactly 0.4
    assert row["p_items"] == pytest.approx(0.4) and row["mark_items"] == ""
    t12 = 0.6 * np.sqrt(10 / 0.64)
    assert row["p_value"] == pytest.approx(2 * sps.t.sf(t12, 10)) and row["mark"] == "*"
    diag = t.iloc[0]
    assert (diag["rho"], diag["p_value"], diag["mark"], diag["rho_items"]) == (1.0, 0.0, "**", 1.0)
    pairs = an.spearman_pairs(t)
    assert pairs[["dimension_a", "dimension_b"]].values.tolist() == [["origin", "mapping"]]
    assert pairs.index.tolist() == [0]


def test_standardized_regression_against_the_textbook_formulas():
    rng = np.random.default_rng(4)
    n_items, k = 8, 3
    item = rng.normal(size=(n_items, 1))
    x1 = np.round(3 + item + rng.normal(size=(n_items, k)))
    x2 = np.round(3 + 0.5 * item + rng.normal(size=(n_items, k)))
    y = np.round(3 + 0.8 * x1 - 0.3 * x2 + rng.normal(size=(n_items, k)))
    res = an.standardized_regression(
        ratings({"origin": x1, "mapping": x2, "overall": y}), predictors=("origin", "mapping")
    )
    z = lambda a: (a.ravel() - a.mean()) / a.std(ddof=1)  # noqa: E731  (ratings in item-major order)
    X = np.column_stack([np.ones(n_items * k), z(x1), z(x2)])
    yy = z(y)
    beta, *_ = np.linalg.lstsq(X, yy, rcond=None)
    e = yy - X @ beta
    n, p = X.shape
    xtx_inv = np.linalg.inv(X.T @ X)
    se = np.sqrt(np.diag(xtx_inv) * (e @ e) / (n - p))
    groups = np.repeat(np.arange(n_items), k)
    meat = sum(np.outer(X[groups == g].T @ e[groups == g], X[groups == g].T @ e[groups == g]) for g in range(n_items))
    scale = n_items / (n_items - 1) * (n - 1) / (n - p)
    se_c = np.sqrt(np.diag(scale * xtx_inv @ meat @ xtx_inv))
    r12 = np.corrcoef(z(x1), z(x2))[0, 1]
    tab = res.table.set_index("predictor")
    assert tab["beta"].tolist() == pytest.approx(beta[1:], abs=1e-10)
    assert tab["se"].tolist() == pytest.approx(se[1:], abs=1e-10)
    assert tab["t"].tolist() == pytest.approx(beta[1:] / se[1:], abs=1e-8)
    assert tab["p_value"].tolist() == pytest.approx(2 * sps.t.sf(np.abs(beta[1:] / se[1:]), n - p), abs=1e-10)
    q = sps.t.ppf(0.95, n - p)
    assert tab["ci90_low"].tolist() == pytest.approx(beta[1:] - q * se[1:], abs=1e-10)
    assert tab["ci90_high"].tolist() == pytest.approx(beta[1:] + q * se[1:], abs=1e-10)
    assert tab["vif"].tolist() == pytest.approx([1 / (1 - r12**2)] * 2, abs=1e-10)
    assert tab["se_cluster"].tolist() == pytest.approx(se_c[1:], abs=1e-10)
    assert tab["t_cluster"].tolist() == pytest.approx(beta[1:] / se_c[1:], abs=1e-8)
    assert tab["p_cluster"].tolist() == pytest.approx(2 * sps.t.sf(np.abs(beta[1:] / se_c[1:]), n_items - 1), abs=1e-10)
    qc = sps.t.ppf(0.95, n_items - 1)
    assert tab["ci90_cluster_low"].tolist() == pytest.approx(beta[1:] - qc * se_c[1:], abs=1e-10)
    assert tab["ci90_cluster_high"].tolist() == pytest.approx(beta[1:] + qc * se_c[1:], abs=1e-10)
    assert res.r2 == pytest.approx(1 - (e @ e) / (yy @ yy), abs=1e-10)
    assert (res.n, res.n_items) == (24, 8)


def test_design_contrast_by_hand():
    means = {"a": 4, "b": 5, "c": 1, "d": 2, "e": 4}
    scores = {d: [[means[i]] * 2 for i in "abcde"] for d in DIMENSIONS}
    r = ratings(scores, items=list("abcde"))
    bench = pd.DataFrame({"item_id": list("abcde"), **{d: [1, 1, 0, 0, 0] for d in DIMENSIONS}})
    bench["origin"] = [1, 1, 1, 1, 1]  # nothing designed to fail: no test
    out = an.design_contrast(r, bench).set_index("dimension")
    assert out.index.tolist() == list(DIMENSIONS)
    row = out.loc["mapping"]
    # pass (4, 5) vs fail (1, 2, 4): U = (1 + 1 + ½) + 3 = 5.5
    assert row[["n_pass", "n_fail", "mean_pass", "mean_fail"]].tolist() == pytest.approx([2, 3, 4.5, 7 / 3])
    assert row["difference"] == pytest.approx(4.5 - 7 / 3) and row["mann_whitney_u"] == 5.5
    assert 0 < row["p_value"] < 1
    assert out.loc["origin", "n_fail"] == 0 and np.isnan(out.loc["origin", "mann_whitney_u"])
    assert np.isnan(out.loc["origin", "p_value"]) and np.isnan(out.loc["origin", "mean_fail"])


def test_reliability_table_against_krippendorff_and_the_anova_formulas():
    x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], dtype=float)
    t = an.reliability_table(ratings({"overall": x, "origin": x[:, ::-1] + 1}), n_boot=50)
    assert t["dimension"].tolist() == ["origin", "overall"]  # in the order of SCORES
    row = t.set_index("dimension").loc["overall"]
    assert row["alpha"] == pytest.approx(krippendorff.alpha(reliability_data=x.T, level_of_measurement="interval"))
    n, k = x.shape
    grand = x.mean()
    msr = k * ((x.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    msc = n * ((x.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    mse = ((x - x.mean(axis=1, keepdims=True) - x.mean(axis=0) + grand) ** 2).sum() / ((n - 1) * (k - 1))
    # Shrout & Fleiss 1979 Table 4: ICC(2,1) = .29, ICC(2,4) = .62 for these data
    assert row["icc2_1"] == pytest.approx((msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n))
    assert row["icc2_k"] == pytest.approx((msr - mse) / (msr + (msc - mse) / n))
    assert round(row["icc2_1"], 2) == 0.29 and round(row["icc2_k"], 2) == 0.62
    assert row["icc2_1_ci_low"] < row["icc2_1"] < row["icc2_1_ci_high"]
    assert row["alpha_ci_low"] <= row["alpha"] <= row["alpha_ci_high"]
    assert (row["n_items"], row["n_raters"]) == (6, 4)
    same = an.reliability_table(ratings({"overall": x, "origin": x[:, ::-1] + 1}), n_boot=50)
    assert same.equals(t)  # seeded
    assert set(SCORES) >= set(t["dimension"])


def test_orders_of_appearance_are_kept():
    r = ratings({"overall": [[4, 5, 3], [2, 2, 5]]}, items=["zb", "ya"], raters=["z", "x", "y"])
    assert an.item_means(r, ["overall"]).index.tolist() == ["zb", "ya"]
    assert an.item_statistics(r)["item_id"].tolist() == ["zb", "ya"]
    assert an.rater_profile(r)["rater"].tolist() == ["z", "x", "y"]
    cat = r.assign(dimension=pd.Categorical(r["dimension"], categories=["overall", "origin"]))
    assert an.item_means(cat, ["overall"])["overall"].tolist() == [4.0, 3.0]
    assert len(an.item_statistics(cat)) == 2  # no rows for the unused dimension


def test_spearman_table_takes_item_means_of_the_dimensions_asked_only():
    origin, mapping = np.repeat([[1], [2], [3], [4]], 3, axis=1), np.repeat([[2], [1], [4], [3]], 3, axis=1)
    overall = np.array([[1, 2, 3], [2, 3, 4], [3, 4, 5], [np.nan] * 3])  # item 4 has no overall
    t = an.spearman_table(ratings({"origin": origin, "mapping": mapping, "overall": overall}), ("origin", "mapping"))
    assert t["n_items"].tolist() == [4] * 4 and t.iloc[0]["p_items"] == 0.0
    pairs = an.spearman_pairs(t)
    assert list(pairs.columns) == list(t.columns)


def test_reliability_table_defaults_and_one_stream_over_dimensions():
    x = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], dtype=float)
    r = ratings({"overall": x, "origin": x})
    t = an.reliability_table(r)
    assert list(t.columns) == [
        "dimension",
        "alpha",
        "alpha_ci_low",
        "alpha_ci_high",
        "icc2_1",
        "icc2_1_ci_low",
        "icc2_1_ci_high",
        "icc2_k",
        "icc2_k_ci_low",
        "icc2_k_ci_high",
        "n_items",
        "n_raters",
    ]
    assert t.equals(an.reliability_table(r, n_boot=300, seed=0))
    assert not t.equals(an.reliability_table(r, n_boot=300, seed=1))
    assert not t.equals(an.reliability_table(r, n_boot=301, seed=0))
    # the same data in both dimensions: the second one's resamples continue the stream, so they differ
    assert t.loc[0, "alpha"] == t.loc[1, "alpha"]
    assert (t.loc[0, "alpha_ci_low"], t.loc[0, "alpha_ci_high"]) != (
        t.loc[1, "alpha_ci_low"],
        t.loc[1, "alpha_ci_high"],
    )


# --------------------------------------------------------------------------- the tables whole


def test_dimension_tables_whole_against_the_paper():
    from helpers.core import paths
    from helpers.explanations import ch04, ch05, io

    # Naveriani et al. Table 1 (six dimensions, this order) and Table 3's abbreviations NC OR MP EM AC PU;
    # Overall is the seventh score of §3.1 ("six dimensions and an overall quality score"), OV the book's own
    assert io.DIMENSIONS == ("non_circularity", "origin", "mapping", "emergence", "accessibility", "purpose")
    assert io.SCORES == io.DIMENSIONS + ("overall",)
    assert io.LABELS == {
        "non_circularity": "Non-Circularity",
        "origin": "Origin & Cultural Accuracy",
        "mapping": "Mapping",
        "emergence": "Emergence",
        "accessibility": "Accessibility",
        "purpose": "Purpose",
        "overall": "Overall",
    }
    assert io.SHORT == {
        "non_circularity": "NC",
        "origin": "OR",
        "mapping": "MP",
        "emergence": "EM",
        "accessibility": "AC",
        "purpose": "PU",
        "overall": "OV",
    }
    # Table 5, OVERALL QUALITY MAE 0.689; §3.2 "the conventional threshold for 'reliable' agreement (α 0.8)"
    assert ch05.paper_judge_mae() == 0.689 and ch04.RELIABLE_ALPHA == 0.8
    published = pd.read_csv(paths.published_dir() / "metaphor_explanations" / "table5_10_evaluator_mae.csv")
    assert published.set_index("score").loc["overall", "test_mae"] == ch05.paper_judge_mae()


# --------------------------------------------------------------------------- disagreement and the bounded scale

# five items, centred means c = −2 … 2 (means 1 … 5), SDs y = 0.5, 1.0, 1.2, 1.1, 0.4. With the design
# [1, c, c²]: Σc = Σc³ = 0, Σc² = 10, Σc⁴ = 34, so b1 = Σcy/10 = −0.1/10 = −0.01 and (b0, b2) solve
# [[5, 10], [10, 34]] (b0, b2) = (Σy, Σc²y) = (4.2, 5.7): b2 = (5·5.7 − 10·4.2)/70 = −13.5/70,
# b0 = (34·4.2 − 10·5.7)/70 = 85.8/70. Var(b2) = σ²·5/70 with σ² = RSS/(5 − 3).
SHAPE_SD = np.array([0.5, 1.0, 1.2, 1.1, 0.4])


def _shape_stats(means=(1.0, 2.0, 3.0, 4.0, 5.0), sds=SHAPE_SD, n=16):
    return pd.DataFrame(
        {
            "item_id": [f"i{k}" for k in range(len(means))],
            "dimension": "overall",
            "mean": list(means),
            "sd": list(sds),
            "n": n,
        }
    )


def _hand_b2_and_p():
    c = np.arange(-2.0, 3.0)
    b0, b1, b2 = 85.8 / 70, -0.01, -13.5 / 70
    rss = float(((SHAPE_SD - (b0 + b1 * c + b2 * c**2)) ** 2).sum())
    t = b2 / np.sqrt(rss / 2 * 5 / 70)
    return b2, 2 * sps.t.sf(abs(t), 2)


def test_disagreement_by_quality_by_hand():
    shape = an.disagreement_by_quality(_shape_stats())
    b2, p = _hand_b2_and_p()
    assert shape.quadratic == pytest.approx(b2) and shape.quadratic_p == pytest.approx(p)
    # buckets [1, 2), [2, 2.5), [2.5, 3), [3, 3.5), [3.5, 4), [4, 5.01): means 1 | 2 | – | 3 | – | 4, 5
    b = shape.buckets
    assert b["n_items"].tolist() == [1, 1, 0, 1, 0, 2]
    assert b["mean_sd"].tolist()[:2] == [0.5, 1.0] and b["mean_sd"].iloc[3] == 1.2
    assert b["mean_sd"].iloc[5] == pytest.approx(0.75) and b["mean_sd"].iloc[[2, 4]].isna().all()
    assert shape.hump == (p < 0.05) and not shape.u_shaped


def test_bounded_scale_null_observed_term_and_pooled_sd_by_hand():
    null = bounded_scale.bounded_scale_null(_shape_stats(), n_null=50, seed=0)
    s = null.summary.iloc[0]
    b2, p = _hand_b2_and_p()
    assert s["observed_quadratic"] == pytest.approx(b2) and null.observed == pytest.approx(b2)
    assert s["ols_p_value"] == pytest.approx(p)
    assert s["pooled_sd"] == pytest.approx(np.sqrt(np.mean(SHAPE_SD**2)))  # √(3.66/5)
    assert s["n_items"] == 5 and s["n_null"] == 50 and s["thresholds"] == "1.50, 2.50, 3.50, 4.50"
    assert len(null.null_quadratics) == 50


def test_bounded_scale_null_recovers_latent_sd_and_means_of_exact_moments():
    # items whose observed mean and SD are exactly those of clip(round(μ + Z), 1, 5), μ = 1.5, 2, 3, 4, 4.5:
    # P(level k) = Φ(k + ½ − μ) − Φ(k − ½ − μ) with the end levels open; the null must find σ = 1 and the μ
    mus = np.array([1.5, 2.0, 3.0, 4.0, 4.5])
    cuts = np.array([1.5, 2.5, 3.5, 4.5])
    cdf = np.column_stack([np.zeros(5), sps.norm.cdf(cuts[None, :] - mus[:, None]), np.ones(5)])
    prob = np.diff(cdf, axis=1)
    levels = np.arange(1, 6)
    mean = prob @ levels
    sd = np.sqrt(prob @ levels**2 - mean**2)
    assert mean[2] == pytest.approx(3.0) and mean[1] + mean[3] == pytest.approx(6.0)  # symmetric about 3
    null = bounded_scale.bounded_scale_null(_shape_stats(mean, sd), n_null=20, seed=0)
    assert null.latent_sd == pytest.approx(1.0, abs=1e-4)
    np.testing.assert_allclose(null.items["latent_mean"], mus, atol=2e-3)
    np.testing.assert_allclose(null.items["null_expected_sd"], sd, atol=1e-4)
    np.testing.assert_allclose(null.items["sd_ratio"], 1.0, atol=1e-4)


def test_rounding_cuts_and_the_threshold_variants():
    assert bounded_scale.rounding_cuts().tolist() == [1.5, 2.5, 3.5, 4.5]
    assert bounded_scale.rounding_cuts(0, 3).tolist() == [0.5, 1.5, 2.5]
    table = bounded_scale.threshold_sensitivity(_shape_stats(), n_null=20, seed=0)
    # outer thresholds 1.5 and 4.5 moved by 0.25 inwards (1.75, 4.25) and outwards (1.25, 4.75)
    assert table["thresholds"].tolist() == [
        "1.50, 2.50, 3.50, 4.50",
        "1.75, 2.50, 3.50, 4.25",
        "1.25, 2.50, 3.50, 4.75",
    ]
    assert table["observed_quadratic"].tolist() == pytest.approx([-13.5 / 70] * 3)


# --------------------------------------------------------------------------- clusters


def test_cluster_dimensions_average_linkage_by_hand():
    # distances 1 − ρ: mapping–emergence 0.1, mapping–origin 1.0, emergence–origin 0.9. Average linkage
    # merges mapping and emergence at 0.1, then origin at (1.0 + 0.9)/2 = 0.95
    rho = {("mapping", "emergence"): 0.9, ("mapping", "origin"): 0.0, ("emergence", "origin"): 0.1}
    rows = [
        {"dimension_a": a, "dimension_b": b, "rho": 1.0 if a == b else rho.get((a, b), rho.get((b, a)))}
        for a in ("mapping", "emergence", "origin")
        for b in ("mapping", "emergence", "origin")
    ]
    c = an.cluster_dimensions(pd.DataFrame(rows), threshold=0.5)
    # the dimensions in SCORES order: origin 0, mapping 1, emergence 2
    np.testing.assert_allclose(c.linkage, [[1, 2, 0.1, 2], [0, 3, 0.95, 3]])
    assert c.rho.index.tolist() == ["origin", "mapping", "emergence"]
    t = c.table.set_index("dimension")
    assert t.loc["origin", "role"] == "independent axis" and t.loc["mapping", "role"] == "shared cluster"
    assert t.loc["mapping", "cluster"] == t.loc["emergence", "cluster"] != t.loc["origin", "cluster"]
    assert sorted(t["order"]) == [0, 1, 2]
    one = an.cluster_dimensions(pd.DataFrame(rows), threshold=0.96).table  # above 0.95: one cluster
    assert set(one["role"]) == {"shared cluster"} and one["cluster"].nunique() == 1


# --------------------------------------------------------------------------- the chapters' own numbers


def _borderline_ratings(seed, n_items=12, n_raters=3):
    """mapping and emergence share a factor; origin shares half of it: its role depends on the sample."""
    rng = np.random.default_rng(seed)
    f = rng.normal(size=(n_items, 1)) + 0.5 * rng.normal(size=(n_items, n_raters))
    loads = {"origin": 0.5, "mapping": 1.0, "emergence": 1.0}
    return ratings(
        {d: np.clip(np.rint(3 + w * f + 0.6 * rng.normal(size=(n_items, n_raters))), 1, 5) for d, w in loads.items()}
    )


def _alone_and_together(rows: pd.DataFrame, dims, threshold):
    """Independent count: scipy's ρ on the rows, average linkage on 1 − ρ, cut at ``threshold``."""
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import squareform

    rho = sps.spearmanr(rows[list(dims)]).statistic
    labels = fcluster(
        linkage(squareform(np.clip(1 - rho, 0, None), checks=False), "average"), threshold, criterion="distance"
    )
    together = labels[:, None] == labels[None, :]
    return together.sum(axis=1) == 1, together


def test_cluster_stability_shares_against_scipy_resample_by_resample():
    from helpers.core.statistics.stats import resample

    dims, threshold, n_boot = ("origin", "mapping", "emergence"), 0.5, 20
    r = _borderline_ratings(0)
    reps = [_borderline_ratings(s) for s in (1, 2, 3, 4)]
    stab = an.cluster_stability(r, threshold=threshold, n_boot=n_boot, seed=3, seed_replicates=reps, dimensions=dims)
    wide = an.wide_ratings(r)
    items = pd.factorize(wide["item_id"])[0]
    # every resample repeats all ratings of each drawn item (core.statistics.stats.resample multiplicities)
    boot = [
        _alone_and_together(wide.loc[np.repeat(np.arange(len(wide)), w[items])], dims, threshold)
        for w in resample(items.max() + 1, n_boot, 3)
    ]
    seeds = [_alone_and_together(an.wide_ratings(x), dims, threshold) for x in reps]
    alone_obs, with_obs = _alone_and_together(wide, dims, threshold)
    t = stab.table.set_index("dimension")
    np.testing.assert_allclose(t.loc[list(dims), "independent_share_bootstrap"], np.mean([a for a, _ in boot], axis=0))
    np.testing.assert_allclose(t.loc[list(dims), "independent_share_seeds"], np.mean([a for a, _ in seeds], axis=0))
    assert t.loc[list(dims), "independent_observed"].tolist() == alone_obs.tolist()
    share = t.loc["origin", "independent_share_bootstrap"]
    assert 0 < share < 1  # a borderline dimension: the case the constructed test cannot see
    p = stab.pairs.set_index(["dimension_a", "dimension_b"])
    for (i, a), (j, b) in [((0, "origin"), (1, "mapping")), ((1, "mapping"), (2, "emergence"))]:
        assert p.loc[(a, b), "share_bootstrap"] == pytest.approx(np.mean([w[i, j] for _, w in boot]))
        assert p.loc[(a, b), "share_seeds"] == pytest.approx(np.mean([w[i, j] for _, w in seeds]))
        assert p.loc[(a, b), "together_observed"] == bool(with_obs[i, j])
