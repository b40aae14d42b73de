"""Which metrics miss idioms (helpers.figurative.metric_gaps), against independent computations:
the residual effect as an ordinary fit with the metric as a covariate, and each group's accuracy as
chapter 09's statistic on that group's segments alone."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.figurative import design, metric_gaps
from helpers.metrics import correlations, meta


def _cells(seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """30 documents × 4 segments × 5 systems; idiom segments get +2 from the experts; metric ``sees``
    tracks the penalty including the idiom part, ``blind`` tracks it without."""
    rng = np.random.default_rng(seed)
    rows, metrics = [], []
    for d in range(30):
        for s in range(4):
            idiom, chars = s == 0, int(rng.integers(10, 80))
            for system in "ABCDE":
                base = rng.normal(3, 1)
                score = base + 2.0 * idiom + rng.normal(0, 0.3)
                key = {"system": system, "segment": f"{d}:{s}"}
                rows.append(key | {"doc": f"d{d}", "source_chars": chars, "score": score, "idiom": idiom})
                metrics += [
                    key | {"metric": "sees-refA", "score": -score + rng.normal(0, 0.1)},
                    key | {"metric": "blind-src", "score": -base + rng.normal(0, 0.1)},
                ]
    return pd.DataFrame(rows), pd.DataFrame(metrics)


def test_residual_effect_is_the_effect_with_the_metric_as_a_covariate():
    table, metrics = _cells()
    got = metric_gaps.residual_effects(table, metrics, n_boot=200).set_index("metric")
    for name in ("sees-refA", "blind-src"):
        cells = table.merge(
            metrics[metrics["metric"] == name][["system", "segment", "score"]].rename(columns={"score": "m"}),
            on=["system", "segment"],
        )
        alone = design.idiom_effect(cells, covariates=("m",), n_boot=200, n_perm=0).iloc[0]
        assert got.loc[name, ["estimate", "ci_low", "ci_high"]].tolist() == pytest.approx(
            [alone["estimate"], alone["ci_low"], alone["ci_high"]]
        )
    assert abs(got.loc["sees-refA", "estimate"]) < 0.3  # it sees the idiom penalty
    assert got.loc["blind-src", "ci_low"] > 1.5  # it leaves the experts' +2 unexplained
    assert got.loc["(none)", "estimate"] == pytest.approx(2.0, abs=0.3)
    assert got.loc[["sees-refA", "blind-src"], "kind"].tolist() == ["reference", "qe"]


def test_each_groups_accuracy_is_chapter_09s_on_its_segments_alone():
    table, metrics = _cells(1)
    got = metric_gaps.accuracy_by_group(table, metrics, meta.tie_calibrated_accuracy_weighted, n_boot=100)
    got = got[got["metric"] == "sees-refA"].set_index("group")
    segments, _, human, grids = metric_gaps.grids(table, metrics)
    idiom = np.array([s.endswith(":0") for s in segments])
    for group, mask in (("idiom", idiom), ("other", ~idiom)):
        expected = correlations.tie_calibrated_accuracy(human[mask], grids["sees-refA"][mask])[0]
        assert got.loc[group, "estimate"] == pytest.approx(expected)
        assert got.loc[group, "segments"] == mask.sum()
    assert got.loc["difference", "estimate"] == pytest.approx(
        got.loc["idiom", "estimate"] - got.loc["other", "estimate"]
    )
    assert 0 < got.loc["difference", "p"] <= 1


def test_metric_kind_is_read_from_the_file_name():
    assert [metric_gaps.kind(n) for n in ("COMETKiwi-src", "COMET-22-refA", "BLEU (book)")] == [
        "qe",
        "reference",
        "reference",
    ]
