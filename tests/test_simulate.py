"""The annotator simulation: seeded, interpretable knobs with known limiting cases."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core import agreement as ag
from helpers import metahope as mh
from helpers.metahope import simulate as sim


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
        "IMP": 0, "RAM": 8, "MIS": 10, "STL": 4, "PRF": 4}
    moved = sim.simulate_annotations(truth, [sim.Annotator("m", threshold=1, confusion=1.0, noise=0)], seed=0)
    nonzero = moved[moved["severity"] > 0]
    # every IMP/MIS/STL/PRF error leaves its category; RAM stays
    assert set(zip(nonzero["item"], nonzero["category"].astype(str))).isdisjoint(
        {("i1", "MIS"), ("i1", "STL"), ("i3", "PRF")})
    assert ("i2", "RAM") in set(zip(nonzero["item"], nonzero["category"].astype(str)))
    alarms = sim.simulate_annotations(truth, [sim.Annotator("f", threshold=1, bias=2, confusion=0, noise=0)], seed=0)
    # with the threshold below the bias every clean (item, system) gets one false alarm of severity 2
    clean_units = mh.segment_scores(truth).query("SEGS == 0")[["item", "system"]]
    flagged = mh.segment_scores(alarms).merge(clean_units)
    assert (flagged["SEGS"] == 2).all() and len(flagged) == 3


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


def test_sweep_changes_one_knob(truth):
    panel = [sim.Annotator("a", noise=0, threshold=1), sim.Annotator("b", noise=0, threshold=1)]
    sweep = sim.agreement_sweep(truth, panel, "threshold", [1, 11], lambda f: f["severity"].sum(), seed=0)
    assert sweep["metric"].tolist() == [2 * truth["severity"].sum(), 0]
