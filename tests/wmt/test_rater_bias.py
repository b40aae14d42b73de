"""Rater bias from a model with a term per unit and per rater (:mod:`helpers.wmt.rater_bias`), against
statsmodels' regression with a dummy per unit and a sum-coded rater term, and against the raw bias it replaces."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from scipy.stats import t as t_dist

from helpers.core.statistics.raters import rater_bias
from helpers.wmt.rater_bias import COLUMNS, rater_effects


def _ratings(seed=3):
    """Six documents of four segments; raters A–D, two or three per segment, a lenient/severe mix."""
    rng = np.random.default_rng(seed)
    true = {"A": -1.0, "B": 0.5, "C": 3.0, "D": -2.5}
    rows = []
    for doc in range(6):
        for seg in range(4):
            level = rng.normal(5, 2)
            raters = rng.choice(list(true), size=2 + (seg % 2), replace=False)
            for r in raters:
                rows.append(
                    {
                        "system": "S",
                        "doc": f"d{doc}",
                        "doc_seg_id": seg,
                        "rater": r,
                        "penalty": level + true[r] + rng.normal(0, 1),
                    }
                )
    rows.append({"system": "S", "doc": "d0", "doc_seg_id": 99, "rater": "A", "penalty": 50.0})  # rated once: left out
    return pd.DataFrame(rows)


def test_rater_effects_are_the_sum_coded_terms_of_the_dummy_regression_with_cluster_robust_errors():
    ratings = _ratings()
    out = rater_effects(ratings).set_index("rater")
    assert list(out.reset_index().columns) == COLUMNS
    shared = ratings[ratings["doc_seg_id"] != 99].assign(unit=lambda f: f["doc"] + "/" + f["doc_seg_id"].astype(str))
    full = smf.ols("penalty ~ C(unit) + C(rater, Sum)", data=shared).fit(
        cov_type="cluster", cov_kwds={"groups": pd.factorize(shared["doc"])[0], "use_correction": False}
    )
    names = [n for n in full.params.index if n.startswith("C(rater")]
    b = full.params[names].to_numpy()
    expected = dict(zip("ABC", b)) | {"D": -b.sum()}
    assert out["bias"].to_dict() == pytest.approx(expected)
    assert out["bias"].sum() == pytest.approx(0, abs=1e-9)
    g = 6
    cov = full.cov_params().loc[names, names].to_numpy() * g / (g - 1)  # CR1 with the items nested in clusters
    contrast = np.vstack([np.eye(3), -np.ones(3)])
    se = np.sqrt(np.diag(contrast @ cov @ contrast.T))
    assert out["se"].to_numpy() == pytest.approx(se)
    half = t_dist.ppf(0.975, g - 1) * se
    assert out["ci_low"].to_numpy() == pytest.approx(out["bias"].to_numpy() - half)
    assert out["ci_high"].to_numpy() == pytest.approx(out["bias"].to_numpy() + half)
    counts = shared.groupby("rater")
    assert out["n_items"].to_dict() == counts.size().to_dict()
    assert out["n_clusters"].to_dict() == counts["doc"].nunique().to_dict()


def test_the_model_removes_the_co_rater_confound_that_the_raw_bias_carries():
    # issue 43: R1 scores exactly like R2 and R3, but shares most segments with the severe R4 (+6);
    # the raw bias (penalty minus the co-raters' mean) calls R1 lenient, the model does not
    rows = []
    for seg in range(40):
        level = seg % 7
        panel = ["R1", "R4"] if seg < 30 else ["R1", "R2", "R3"]
        if seg >= 30 or seg % 3 == 0:
            panel = panel + ["R2"] if "R2" not in panel else panel
        for r in panel:
            rows.append(
                {
                    "system": "S",
                    "doc": f"d{seg // 4}",
                    "doc_seg_id": seg,
                    "rater": r,
                    "penalty": level + (6.0 if r == "R4" else 0.0),
                }
            )
    ratings = pd.DataFrame(rows)
    raw = rater_bias(ratings, "penalty", rater="rater", item=["system", "doc", "doc_seg_id"]).set_index("rater")
    model = rater_effects(ratings).set_index("rater")
    assert raw.loc["R1", "bias"] < -2
    # exact data: every rater but R4 at the same level, R4 six above; sum to zero: −1.5 each, R4 +4.5
    assert model["bias"].to_dict() == pytest.approx({"R1": -1.5, "R2": -1.5, "R3": -1.5, "R4": 4.5})


def test_fewer_than_two_raters_on_a_unit_gives_an_empty_table():
    lone = pd.DataFrame({"system": "S", "doc": ["d"] * 2, "doc_seg_id": [1, 2], "rater": ["A", "B"], "penalty": [1, 2]})
    assert rater_effects(lone).empty and list(rater_effects(lone).columns) == COLUMNS
