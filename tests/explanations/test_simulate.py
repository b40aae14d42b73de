"""Unit tests of helpers.explanations.simulate: the rating model, its seeded simulation and its generating values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import explanations as ex
from helpers.core.statistics import agreement as ag
from helpers.core.statistics.agreement import krippendorff_alpha


@pytest.fixture(scope="module")
def benchmark():
    return ex.load_benchmark()


def test_simulation_is_seeded_and_calibrated(benchmark):
    a = ex.simulate_ratings(benchmark, seed=42)
    pd.testing.assert_frame_equal(a, ex.simulate_ratings(benchmark, seed=42))
    assert not a.equals(ex.simulate_ratings(benchmark, seed=43))
    assert len(a) == 100 * 16 * 7 and a["score"].between(1, 5).all()
    for d in ex.SCORES:
        alpha = krippendorff_alpha(
            ag.rating_matrix(a[a["dimension"] == d], "score", rater="rater", item="item_id").to_numpy(dtype=float).T
        )
        assert 0.35 <= alpha <= 0.60, (d, alpha)
    with pytest.raises(ValueError, match="unknown rating-model knob"):
        ex.RatingModel.from_parameters({"halo": 1})


def test_latent_simulation_has_no_hump(benchmark):
    latent = ex.simulate_ratings(benchmark, seed=42, bounded=False)
    bounded = ex.simulate_ratings(benchmark, seed=42)
    assert latent["score"].dtype.kind == "f"
    assert (np.clip(np.rint(latent["score"]), 1, 5).astype(int).to_numpy() == bounded["score"].to_numpy()).all()
    assert not ex.disagreement_by_quality(ex.item_statistics(latent)).hump
    assert ex.disagreement_by_quality(ex.item_statistics(bounded)).hump


def test_generating_values_follow_the_model():
    model = ex.RatingModel.from_parameters({"overall_weights": {"mapping": 0.0}, "pass_level": 4.5})
    truth = ex.generating_values(model).set_index("dimension")
    assert truth.loc["mapping", "overall_weight"] == 0.0
    assert truth["overall_weight"].sum() == pytest.approx(1.0)
    assert truth.loc["origin", "pass_level"] - truth.loc["origin", "fail_level"] == pytest.approx(2.6)
    assert list(truth.index) == list(ex.SCORES)
