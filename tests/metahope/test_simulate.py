"""The annotator simulation: seeded, interpretable knobs with known limiting cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import metahope as mh
from helpers.core.statistics import agreement as ag
from helpers.metahope import severity
from helpers.metahope import simulate as sim
from helpers.metahope.tidy_frame import CATEGORIES


@pytest.fixture
def truth(two_annotators):
    return mh.read_workbook(two_annotators["B"], "truth")


def test_perfect_annotators_return_the_truth(truth):
    panel = [sim.Annotator(n, threshold=1.0, bias=0.0, confusion=0.0, noise=0.0) for n in ("p", "q")]
    out = sim.simulate_annotations(truth, panel, seed=3)
    for name in ("p", "q"):
        got = out[out["annotator"] == name]["severity"].tolist()
        assert got == truth["severity"].tolist()
    segs = mh.segment_scores(out)
    assert ag.agreement(segs, by="system", value="SEGS")["exact_agreement"].tolist() == [100.0, 100.0]


def test_blind_annotator_records_nothing(truth):
    out = sim.simulate_annotations(truth, [sim.Annotator("x", threshold=11, noise=0.0)], seed=0)
    assert out["severity"].sum() == 0


def test_bias_shifts_severity_and_confusion_moves_categories(truth):
    harsh = sim.simulate_annotations(truth, [sim.Annotator("h", threshold=3, bias=2, confusion=0, noise=0)], seed=0)
    # B's MIS 8 -> 10, STL 2 -> 4, RAM 6 -> 8, PRF 2 -> 4; clean units are perceived at 2 < 3: no false alarm
    assert harsh.groupby("category", observed=True)["severity"].sum().to_dict() == {
        "IMP": 0,
        "RAM": 8,
        "MIS": 10,
        "STL": 4,
        "PRF": 4,
    }
    moved = sim.simulate_annotations(truth, [sim.Annotator("m", threshold=1, confusion=1.0, noise=0)], seed=0)
    sev = moved.assign(category=moved["category"].astype(str)).set_index(["item", "system", "category"])["severity"]
    # every IMP/MIS/STL/PRF error leaves its category (B: i1 Google MIS 8 + STL 2, i3 GPT PRF 2); RAM stays
    assert sev[("i1", "GoogleMT", "MIS")] != 8 and sev[("i1", "GoogleMT", "STL")] != 2
    assert sev[("i3", "GPT-5.4", "PRF")] == 0 and sev.loc[("i3", "GPT-5.4")].sum() == 2
    assert sev[("i2", "GoogleMT", "RAM")] == 6
    alarms = sim.simulate_annotations(
        truth, [sim.Annotator("f", threshold=1, confusion=0, noise=0, false_alarm=1.0)], seed=0
    )
    # a false alarm on every (item, system), perceived at the moderate level 4: each clean unit gets exactly 4
    clean_units = mh.segment_scores(truth).query("SEGS == 0")[["item", "system"]]
    flagged = mh.segment_scores(alarms).merge(clean_units)
    assert (flagged["SEGS"] == 4).all() and len(flagged) == 3


def test_misses_follow_the_miss_probability_and_are_shared_by_subtlety(truth):
    """With miss = 0.5 and no subtlety each error is found about half the time, independently
    (both annotators find it a quarter of the time); with a large subtlety the same errors are
    found, or missed, by the whole team."""
    big = pd.concat([truth.assign(item=truth["item"] + f"-{k}") for k in range(200)], ignore_index=True)
    keys = ["item", "system", "category"]
    errors = big.loc[big["severity"] > 0, keys].astype(str)
    panel = [sim.Annotator(n, threshold=1, noise=0, confusion=0, miss=0.5) for n in ("a", "b")]

    def found(out):
        wide = out.assign(category=out["category"].astype(str)).pivot_table(
            index=keys, columns="annotator", values="severity", observed=True
        )
        return wide.loc[pd.MultiIndex.from_frame(errors)] > 0

    independent = found(sim.simulate_annotations(big, panel, seed=1, subtlety_sd=0.0))
    assert independent.mean().between(0.45, 0.55).all()
    assert (independent["a"] & independent["b"]).mean() == pytest.approx(0.25, abs=0.05)
    shared = found(sim.simulate_annotations(big, panel, seed=1, subtlety_sd=6.0))
    assert (shared["a"] & shared["b"]).mean() > 0.4


def test_seeded_and_panel_from_records(truth):
    panel = sim.panel_from_records([{"name": "a", "noise": 2.0}, {"name": "b", "threshold": 2, "bias": 1}])
    a = sim.simulate_annotations(truth, panel, seed=11)
    b = sim.simulate_annotations(truth, panel, seed=11)
    pd.testing.assert_frame_equal(a, b)
    assert sim.panel_from_records(None) == sim.DEFAULT_PANEL
    with pytest.raises(ValueError, match="confusion must be a probability"):
        sim.Annotator("z", confusion=1.5)


def test_sentence_units_keep_the_worst_severity(truth):
    units = sim.sentence_units(truth)
    assert units["item"].unique().tolist() == ["sent-01", "sent-02"]
    google = units[(units["item"] == "sent-01") & (units["system"] == "GoogleMT")].set_index("category")["severity"]
    assert google.to_dict() == {"IMP": 0, "RAM": 6, "MIS": 8, "STL": 2, "PRF": 0}


def test_sweep_reads_the_statistic_each_knob_moves(truth):
    panel = [sim.Annotator("a", noise=0, threshold=1), sim.Annotator("b", noise=0, threshold=1)]
    # both annotators see exactly the truth at threshold 1 (presence agreement 100 %) and nothing at 11 (100 %:
    # both say "no error" everywhere); a threshold between splits them only when their perceptions differ
    sweep = sim.agreement_sweep(truth, panel, "threshold", [1, 11], seeds=[0, 1])
    assert sweep["statistic"].unique().tolist() == ["exact presence agreement (%)"]
    assert sweep["metric"].tolist() == [100.0, 100.0] and (sweep["n_seeds"] == 2).all()
    confusion = sim.agreement_sweep(truth, panel, "confusion", [0.0], seeds=[0])
    assert confusion["statistic"].iloc[0] == "mean ordinal α per category" and confusion["metric"].iloc[0] == 1.0
    with pytest.raises(ValueError, match="unknown knob"):
        sim.agreement_sweep(truth, panel, "bias", [1])


def test_team_statistics_match_the_agreement_function(truth):
    out = sim.simulate_annotations(truth, sim.DEFAULT_PANEL, seed=4)
    fast = sim.team_statistics(out).set_index("system")
    slow = ag.agreement(mh.segment_scores(out), by="system", value="SEGS", level="ordinal").set_index("system")
    pd.testing.assert_series_equal(fast["segs_alpha"], slow["alpha"], check_names=False)
    pd.testing.assert_series_equal(fast["presence_agreement"], slow["presence_agreement"], check_names=False)


def test_seed_summary_flags_orders_that_change_with_the_seed():
    study = pd.DataFrame(
        {
            "seed": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4],
            "system": ["x", "y"] * 5,
            "segs_alpha": [0.3, 0.1, 0.2, 0.25, 0.3, 0.1, 0.1, 0.2, 0.4, 0.1],
        }
    )
    row = sim.seed_summary(study).iloc[0]
    # x ahead in seeds 0, 2, 4: share 0.6 -> seed noise; mean difference (0.2 - 0.05 + 0.2 - 0.1 + 0.3) / 5
    assert row["share_a_ahead"] == 0.6 and row["seed_noise"] and row["mean_difference"] == pytest.approx(0.11)


# --------------------------------------------------------------------------- the simulation's team statistics


def test_team_statistics_against_the_krippendorff_package():
    import krippendorff

    from helpers.metahope import simulate

    # two annotators, one system, four items:
    #   a: i1 MIS 4 | i2 none  | i3 STL 2 | i4 MIS 6 + PRF 2   -> SEGS 4, 0, 2, 8
    #   b: i1 MIS 4 | i2 IMP 2 | i3 none  | i4 MIS 8          -> SEGS 4, 2, 0, 8
    given = {
        "a": {("i1", "MIS"): 4, ("i3", "STL"): 2, ("i4", "MIS"): 6, ("i4", "PRF"): 2},
        "b": {("i1", "MIS"): 4, ("i2", "IMP"): 2, ("i4", "MIS"): 8},
    }
    rows = [
        {"item": i, "system": "X", "annotator": who, "category": c, "severity": g.get((i, c), 0)}
        for who, g in given.items()
        for i in ("i1", "i2", "i3", "i4")
        for c in CATEGORIES
    ]
    t = pd.DataFrame(rows)
    got = simulate.team_statistics(t).set_index("system").loc["X"]
    segs = [[4, 0, 2, 8], [4, 2, 0, 8]]
    assert got["segs_alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=segs, level_of_measurement="ordinal", value_domain=[0, 2, 4, 8])
    )
    # an error on both sheets for i1 and i4, on one only for i2 and i3: 2 of 4 units agree
    assert got["presence_agreement"] == 50.0
    # per category (RAM is all zeros: α undefined, left out of the mean)
    per_cat = {
        "IMP": [[0, 0, 0, 0], [0, 2, 0, 0]],
        "MIS": [[4, 0, 0, 6], [4, 0, 0, 8]],
        "STL": [[0, 0, 2, 0], [0, 0, 0, 0]],
        "PRF": [[0, 0, 0, 2], [0, 0, 0, 0]],
    }
    ref = [
        krippendorff.alpha(reliability_data=m, level_of_measurement="ordinal", value_domain=list(range(0, 11, 2)))
        for m in per_cat.values()
    ]
    assert got["category_alpha"] == pytest.approx(np.mean(ref))
    pooled = simulate.team_statistics(t, by=None, statistics=["presence_agreement"])
    assert pooled.columns.tolist() == ["group", "presence_agreement"] and pooled.iloc[0].tolist() == ["all", 50.0]
