"""Ratings of metaphor explanations: loading, simulation, reliability, structure, disagreement."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

import krippendorff
from helpers import explanations as ex
from helpers.core import agreement as ag
from helpers.core.agreement import krippendorff_alpha
from helpers.core.errors import InputError


@pytest.fixture(scope="module")
def benchmark():
    return ex.load_benchmark()


def test_authored_benchmark_composition(benchmark):
    assert len(benchmark) == 100 and benchmark["item_id"].is_unique and benchmark["metaphor"].is_unique
    assert benchmark["design"].value_counts().to_dict() == {"targeted": 60, "mixed": 25, "reference": 15}
    fails = (benchmark[list(ex.DIMENSIONS)] == 0)
    targeted = benchmark["design"] == "targeted"
    assert (fails[targeted].sum(axis=1) == 1).all()
    assert fails[targeted].sum().tolist() == [10] * 6
    assert fails[benchmark["design"] == "reference"].sum().sum() == 0
    assert fails[benchmark["design"] == "mixed"].sum(axis=1).between(2, 4).all()
    words = benchmark["explanation"].str.split().str.len()
    assert words.between(15, 35).all()


def _long_csv(tmp_path, rows, name="r.csv"):
    path = tmp_path / name
    pd.DataFrame(rows, columns=["item_id", "rater", "dimension", "score"]).to_csv(path, index=False)
    return path


def test_read_long_ratings_and_missing_data(tmp_path, benchmark):
    path = _long_csv(tmp_path, [["E001", "r1", "Mapping", 4], ["E001", "r2", "mapping", "5"],
                                ["E002", "r1", "Overall", 2], ["E002", "r2", "Overall", ""]])
    ratings = ex.read_ratings(path, benchmark)
    assert len(ratings) == 3  # the empty cell is a missing rating, not a zero
    assert ratings["metaphor"].iloc[0] == benchmark.set_index("item_id").loc["E001", "metaphor"]
    matrix = ag.rating_matrix(ratings[ratings["dimension"] == "overall"], "score", rater="rater", item="item_id")
    assert matrix.loc["E002", "r1"] == 2 and np.isnan(matrix.loc["E002"].get("r2", np.nan))


@pytest.mark.parametrize("row, message", [
    (["E001", "r1", "Mapping", 6], r"row 2, column 'score': value '6': score must be an integer from 1 to 5"),
    (["E001", "r1", "Mapping", "good"], r"column 'score': value 'good'"),
    (["E001", "r1", "Clarity", 3], r"row 2, column 'dimension': value 'Clarity': unknown dimension"),
])
def test_bad_ratings_are_located(tmp_path, row, message):
    with pytest.raises(InputError, match=message):
        ex.read_ratings(_long_csv(tmp_path, [row]))


def test_duplicate_rating(tmp_path):
    path = _long_csv(tmp_path, [["E001", "r1", "Mapping", 4], ["E001", "r1", "MP", 3]])
    with pytest.raises(InputError, match="row 3.*a second rating of item E001 by rater r1 on mapping"):
        ex.read_ratings(path)


def test_forms_export(tmp_path, benchmark):
    path = tmp_path / "forms.csv"
    pd.DataFrame({"Timestamp": ["t1", "t2"], "Email Address": ["a@x", "b@x"],
                  "E001. a clean bill of health [Mapping]": ["4", "5 - very good"],
                  "E001. a clean bill of health [Overall quality]": ["3", ""]}).to_csv(path, index=False)
    ratings = ex.read_ratings(path, benchmark)
    assert sorted(ratings[["rater", "dimension", "score"]].astype(str).values.tolist()) == [
        ["a@x", "mapping", "4"], ["a@x", "overall", "3"], ["b@x", "mapping", "5"]]
    bad = tmp_path / "bad.csv"
    pd.DataFrame({"Name": ["a"], "E001 [Clarity]": ["3"]}).to_csv(bad, index=False)
    with pytest.raises(InputError, match=r"row 1, column 'E001 \[Clarity\]': value 'Clarity'"):
        ex.read_ratings(bad)


def test_simulation_is_seeded_and_calibrated(benchmark):
    a = ex.simulate_ratings(benchmark, seed=42)
    pd.testing.assert_frame_equal(a, ex.simulate_ratings(benchmark, seed=42))
    assert not a.equals(ex.simulate_ratings(benchmark, seed=43))
    assert len(a) == 100 * 16 * 7 and a["score"].between(1, 5).all()
    for d in ex.SCORES:
        alpha = krippendorff_alpha(ag.rating_matrix(a[a["dimension"] == d], "score", rater="rater",
                                                    item="item_id").to_numpy(dtype=float).T)
        assert 0.35 <= alpha <= 0.60, (d, alpha)
    with pytest.raises(ValueError, match="unknown rating-model knob"):
        ex.RatingModel.from_parameters({"halo": 1})


def test_reliability_on_shrout_fleiss_example():
    data = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    ratings = pd.DataFrame([{"item_id": f"t{t}", "rater": f"j{j}", "dimension": "mapping", "score": v,
                             "metaphor": "", "explanation": ""} for t, row in enumerate(data) for j, v in enumerate(row)])
    rel = ex.reliability_table(ratings, n_boot=50).iloc[0]
    assert round(rel["icc2_1"], 2) == 0.29 and round(rel["icc2_k"], 2) == 0.62
    assert rel["alpha"] == pytest.approx(krippendorff.alpha(np.array(data, float).T, level_of_measurement="interval"))
    assert rel["alpha_ci_low"] <= rel["alpha"] <= rel["alpha_ci_high"]


def _two_dim_ratings(x, y, dims=("mapping", "emergence")):
    rows = []
    for k, (a, b) in enumerate(zip(x, y)):
        rows += [{"item_id": f"i{k}", "rater": "r", "dimension": dims[0], "score": a},
                 {"item_id": f"i{k}", "rater": "r", "dimension": dims[1], "score": b}]
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
    stats_ = pd.DataFrame({"item_id": [f"i{k}" for k in range(41)], "dimension": "overall", "mean": means,
                           "sd": 1.2 - 0.25 * (means - 3) ** 2 + 0.01 * np.sin(means), "n": 16})
    table = ex.disagreement_by_quality(stats_)
    assert table.quadratic < 0 and table.quadratic_p < 0.05
    assert table.buckets["n_items"].sum() == 41


def test_design_contrast(benchmark):
    ratings = ex.simulate_ratings(benchmark, seed=1)
    contrast = ex.design_contrast(ratings, benchmark).set_index("dimension")
    assert (contrast["difference"] > 0).all()
    assert contrast.loc["mapping", "n_fail"] == int((benchmark["mapping"] == 0).sum())


def test_rater_profile_leniency():
    df = pd.DataFrame({"item_id": ["a", "a", "b", "b"], "rater": ["x", "y", "x", "y"], "dimension": "overall",
                       "score": [4, 2, 5, 3], "metaphor": "", "explanation": ""})
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
    table = ex.spearman_table(_ratings_from_matrix({"mapping": mapping, "emergence": emergence}),
                              dimensions=("mapping", "emergence"))
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
        row = ex.spearman_table(_ratings_from_matrix({"origin": origin, "mapping": mapping}),
                                dimensions=("origin", "mapping")).iloc[1]
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
    return pd.DataFrame({"item_id": [f"i{k}" for k in range(n_items)], "dimension": "overall",
                         "mean": scores.mean(axis=1), "sd": scores.std(axis=1, ddof=1), "n": n_raters})


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
    rejections = sum(ex.bounded_scale_null(_bounded_items(0.9, seed=100 + k), n_null=199, seed=k).p_value < 0.05
                     for k in range(20))
    assert rejections <= 3


def test_bounded_scale_null_rejects_a_genuine_latent_hump():
    # latent SD 0.3 at the ends of the scale, 1.5 in the middle: real extra disagreement
    stats_ = _bounded_items(lambda mu: 0.3 + 1.2 * np.exp(-((mu - 3.0) ** 2) / 0.8), seed=7)
    null = ex.bounded_scale_null(stats_, n_null=500, seed=0)
    assert null.beyond_null and null.p_value < 0.01
    assert null.observed < null.summary.iloc[0]["null_ci_low"]
    middle = null.buckets.set_index("bucket").loc["[3.0, 3.5)", "sd_ratio"]
    assert middle > 1.1


def test_latent_simulation_has_no_hump(benchmark):
    latent = ex.simulate_ratings(benchmark, seed=42, bounded=False)
    bounded = ex.simulate_ratings(benchmark, seed=42)
    assert latent["score"].dtype.kind == "f"
    assert (np.clip(np.rint(latent["score"]), 1, 5).astype(int).to_numpy() == bounded["score"].to_numpy()).all()
    assert not ex.disagreement_by_quality(ex.item_statistics(latent)).hump
    assert ex.disagreement_by_quality(ex.item_statistics(bounded)).hump


# --------------------------------------------------------------------------- corrections: cluster stability


def _factor_ratings(seed, n_items=80, n_raters=10, borderline=0.45):
    """mapping and emergence share a strong factor, origin none; accessibility a middling one."""
    rng = np.random.default_rng(seed)
    factor = rng.normal(size=(n_items, 1)) + rng.normal(size=(n_items, n_raters))
    dims = {"mapping": 1.0, "emergence": 1.0, "origin": 0.0, "accessibility": borderline}
    return _ratings_from_matrix({d: np.clip(np.rint(3 + w * factor + 0.5 * rng.normal(size=(n_items, n_raters))), 1, 5)
                                 for d, w in dims.items()})


def test_weighted_spearman_matrices_equal_scipy_on_repeated_rows():
    from helpers.core.stats import resample

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
    stab = ex.cluster_stability(ratings, threshold=0.6, n_boot=100, seed=0, dimensions=dims,
                                seed_replicates=[_factor_ratings(10 + k) for k in range(5)])
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


def test_generating_values_follow_the_model():
    model = ex.RatingModel.from_parameters({"overall_weights": {"mapping": 0.0}, "pass_level": 4.5})
    truth = ex.generating_values(model).set_index("dimension")
    assert truth.loc["mapping", "overall_weight"] == 0.0
    assert truth["overall_weight"].sum() == pytest.approx(1.0)
    assert truth.loc["origin", "pass_level"] - truth.loc["origin", "fail_level"] == pytest.approx(2.6)
    assert list(truth.index) == list(ex.SCORES)


def _ordinal_ratings(cuts, n_items=12, n_raters=150, sigma=0.8, seed=0):
    rng = np.random.default_rng(seed)
    mu = rng.uniform(1.2, 4.8, n_items)
    latent = mu[:, None] + rng.normal(0, sigma, (n_items, n_raters))
    score = 1 + (latent[..., None] > np.asarray(cuts)).sum(axis=-1)
    ids = np.repeat([f"i{k}" for k in range(n_items)], n_raters)
    return pd.DataFrame({"item_id": ids, "dimension": "overall", "score": score.ravel(), "metaphor": ids,
                         "explanation": ids})


def test_fitted_cutpoints_match_statsmodels_ordered_probit_and_recover_the_truth():
    from statsmodels.miscmodels.ordinal_model import OrderedModel

    from helpers.explanations import analysis as an

    true = np.array([1.3, 2.7, 3.4, 4.6])
    ratings = _ordinal_ratings(true)
    mine = an.fit_cutpoints(ratings)
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

    ratings = _ordinal_ratings(an.rounding_cuts(), n_items=30, n_raters=12, seed=1)
    stats_ = an.item_statistics(ratings)
    table = an.threshold_sensitivity(stats_, ratings, n_null=199, seed=0)
    assert list(table["thresholds"].iloc[:3]) == ["1.50, 2.50, 3.50, 4.50", "1.75, 2.50, 3.50, 4.25",
                                                  "1.25, 2.50, 3.50, 4.75"]
    plain = an.bounded_scale_null(stats_, n_null=199, seed=0).summary.iloc[0]
    assert table.iloc[0]["p_value"] == plain["p_value"] and table.iloc[0]["null_mean"] == plain["null_mean"]
    assert table["thresholds_from"].iloc[-1].startswith("fitted") and (table["observed_quadratic"] ==
                                                                       plain["observed_quadratic"]).all()
