"""Ratings of metaphor explanations: loading, simulation, reliability, structure, disagreement."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

import krippendorff
from helpers import explanations as ex
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
    matrix = ex.rating_matrix(ratings, "overall")
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
        alpha = krippendorff_alpha(ex.rating_matrix(a, d).to_numpy(dtype=float).T)
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
