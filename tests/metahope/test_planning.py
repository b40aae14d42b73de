"""Study planning from real ratings (issue 35, item 7): simulated populations with known answers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from helpers.core.book.findings import Words
from helpers.metahope import ch03, chapter_common, planning


def _population(n_units=2000, sd=4.0, gap=0.0, noise=1.0, seed=0):
    """Two systems: per sentence a true difference (mean ``gap``, spread ``sd``) and three
    raters who add independent noise."""
    rng = np.random.default_rng(seed)
    base = rng.normal(10, 3, n_units)
    d = rng.normal(gap, sd, n_units)
    d = d - d.mean() + gap
    truth = np.stack([base + d, base], axis=1)  # (units, systems)
    return truth[:, :, None] + rng.normal(0, noise, (n_units, 2, 3))


def test_difference_width_shrinks_as_one_over_root_n_and_matches_theory():
    arr = _population(noise=0.0)  # raters agree: only the sentences vary
    p = planning.plan(arr, "sim", sentences=(25, 100, 400), raters=(3,), n_sims=2000, seed=1).set_index("sentences")
    sd = (arr[:, 0, 0] - arr[:, 1, 0]).std()
    for n in (25, 100, 400):
        assert p.loc[n, "difference_width"] == pytest.approx(2 * 1.96 * sd / np.sqrt(n), rel=0.08)
    assert p.loc[25, "difference_width"] / p.loc[400, "difference_width"] == pytest.approx(4, rel=0.1)
    assert p["alpha"].round(6).eq(1).all()  # identical raters agree perfectly


def test_power_follows_the_paired_t_test():
    arr = _population(sd=4.0, noise=0.0)
    p = planning.plan(arr, "sim", sentences=(20, 50), raters=(3,), margins=(0.0, 2.0), n_sims=3000, seed=2)
    p = p.set_index(["sentences", "margin"])["power"]
    assert p[(20, 0.0)] == pytest.approx(0.05, abs=0.015)  # no difference: the test's level
    for n in (20, 50):  # normal approximation of the t test's power, effect 2 / 4 = 0.5 sd
        expected = norm.cdf(0.5 * np.sqrt(n) - 1.96)
        assert p[(n, 2.0)] == pytest.approx(expected, abs=0.05)


def test_more_raters_narrow_the_interval_when_they_disagree():
    arr = _population(sd=1.0, noise=3.0)
    p = planning.plan(arr, "sim", sentences=(100,), raters=(1, 2, 3), n_sims=1000, seed=3).set_index("raters")
    # a sentence's difference has variance sd² + 2 noise² / k
    for k in (1, 2, 3):
        assert p.loc[k, "difference_width"] == pytest.approx(2 * 1.96 * np.sqrt((1 + 2 * 9 / k) / 100), rel=0.1)
    assert np.isnan(p.loc[1, "alpha"]) and p.loc[3, "alpha_width"] < p.loc[2, "alpha_width"]


def test_rating_array_refuses_a_missing_rater():
    scores = pd.DataFrame(
        {
            "seg": [1, 1, 1, 1, 2, 2, 2],
            "system": ["X", "X", "Y", "Y", "X", "X", "Y"],
            "rater": ["a", "b", "a", "b", "a", "b", "a"],
            "penalty": [1, 2, 3, 4, 5, 6, 7],
        }
    )
    arr, systems = planning.rating_array(scores.iloc[:4], "seg")
    assert systems == ["X", "Y"] and arr.tolist() == [[[1, 2], [3, 4]]]
    with pytest.raises(ValueError, match="every sentence needs 2 raters"):
        planning.rating_array(scores, "seg")


def test_real_data_plan_and_its_words():
    plan = planning.study_plan(n_sims=100, seed=0)
    wmt = plan[(plan["data"].str.startswith("WMT")) & (plan["margin"] == 2)].set_index(["sentences", "raters"])
    assert planning.wmt_array().shape == (377, 10, 3) and planning.pilot_array().shape == (21, 3, 2)
    assert 0.35 < wmt.loc[(200, 3), "alpha"] < 0.5  # chapter 08's α at Major:Minor 3 is 0.434
    assert wmt.loc[(20, 3), "difference_width"] > 2.5 * wmt.loc[(200, 3), "difference_width"]
    text = Words("03_metahope_pilot_v2", shared=chapter_common.SHARED_WORDS).text("plan", ch03.plan_summary(plan))
    assert "200 sentences and 3 raters (the paper's planned test set)" in text
    assert "20 sentences (a pilot's size) and 2 raters" in text
    assert text.count("80% power at 2 points needs") == 5


def test_chapter_3_checks_n_plan_before_any_work():
    from helpers.core.errors import InputError

    assert ch03.setup(n_plan=40).n_plan == 40
    with pytest.raises(InputError, match="n_plan"):
        ch03.setup(n_plan=5)


def test_no_fetched_data_gives_no_plan_and_says_so():
    def missing():
        raise FileNotFoundError("not fetched")

    empty = planning.study_plan(n_sims=20, sources={"WMT": missing, "pilot": missing})
    assert empty.empty and list(empty.columns) == planning.COLUMNS
    text = Words("03_metahope_pilot_v2", shared=chapter_common.SHARED_WORDS).text("plan", ch03.plan_summary(empty))
    assert text.startswith("Neither the WMT file nor the released pilot has been fetched") and "power" not in text
