"""The model that matches the design (helpers.figurative.design), piece by piece, against
independent computations: explicit resampled datasets refitted with numpy, every permutation of
a small design enumerated, noise-free tables whose contrasts are known exactly."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.core.statistics import stats
from helpers.figurative import design


def _simulated(effect: float, seed: int = 3, documents: int = 40) -> pd.DataFrame:
    """``documents`` documents of 6 segments rated by 4 systems; in every third document two idiom
    segments; penalty = 1 + effect·idiom + 0.5·log(chars) + system shift + document shift + segment
    shift (shared by all systems) + noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(documents):
        shift = rng.normal(0, 1.0)
        for s in range(6):
            idiom, chars, seg_shift = d % 3 == 0 and s < 2, int(rng.integers(20, 120)), rng.normal(0, 1.0)
            for k, system in enumerate("ABCD"):
                score = 1 + effect * idiom + 0.5 * np.log(chars) + 0.3 * k + shift + seg_shift + rng.normal(0, 0.5)
                rows.append(
                    {
                        "system": system,
                        "doc": f"d{d}",
                        "segment": f"d{d}:{s}",
                        "source_chars": chars,
                        "score": score,
                        "idiom": idiom,
                    }
                )
    return pd.DataFrame(rows)


def test_a_known_effect_is_recovered_within_its_interval_and_detected():
    got = design.idiom_effect(_simulated(2.0), n_boot=400).iloc[0]
    assert got["ci_low"] < 2.0 < got["ci_high"] and got["ci_low"] > 0 and got["mdd_80"] < 2.0
    assert got["perm_p"] < 0.05 and got["estimable"]
    assert (got["rows"], got["segments"], got["idiom_segments"], got["documents"]) == (960, 240, 28, 40)


def test_no_effect_gives_an_interval_around_zero():
    got = design.idiom_effect(_simulated(0.0, seed=4), n_boot=400).iloc[0]
    assert got["ci_low"] < 0 < got["ci_high"] and got["perm_p"] > 0.05


def test_below_the_minimum_a_set_is_not_estimable():
    table = _simulated(1.0)
    got = design.idiom_effect(table, n_boot=50, min_segments=29).iloc[0]  # 28 idiom segments
    assert not got["estimable"] and np.isnan(got["estimate"]) and got["idiom_segments"] == 28
    assert design.idiom_effect(table, n_boot=50, min_segments=28).iloc[0]["estimable"]


def test_the_bootstrap_refits_resampled_documents_with_all_their_segments_and_systems():
    table = _simulated(1.0, documents=9)
    x, y = design.design(table)
    b, coef = design.cluster_ols(x, y, table["doc"], table["idiom"].to_numpy(), n_boot=3, seed=7)
    assert b == pytest.approx(np.linalg.lstsq(x, y, rcond=None)[0][1])
    labels = design.codes(table["doc"])
    weights = stats.resample(labels.max() + 1, 3, seed=7)
    for row, value in zip(weights, coef):  # the same resample as an explicit dataset of repeated documents
        keep = np.concatenate([np.flatnonzero(labels == g).repeat(1) for g in range(len(row)) for _ in range(row[g])])
        refit = np.linalg.lstsq(x[keep], y[keep], rcond=None)[0][1]
        assert value == pytest.approx(refit, rel=1e-6, abs=1e-6)


def test_the_permutation_p_matches_every_assignment_enumerated():
    # 6 segments × 2 systems, 2 segments flagged: 15 assignments of the flag, each refitted by lstsq
    rng = np.random.default_rng(0)
    segments = np.repeat(np.arange(6), 2)
    systems = np.tile(["a", "b"], 6)
    chars = rng.integers(5, 40, 6)[segments]
    flag = np.isin(segments, [0, 1])
    table = pd.DataFrame(
        {
            "segment": segments.astype(str),
            "system": systems,
            "source_chars": chars,
            "idiom": flag,
            "score": 0.8 * flag + rng.normal(0, 1, 12) + np.log(chars),
        }
    )
    x, y = design.design(table)
    observed = abs(np.linalg.lstsq(x, y, rcond=None)[0][1])
    hits = 0
    for chosen in itertools.combinations(range(6), 2):
        xx = x.copy()
        xx[:, 1] = np.isin(segments, chosen)
        hits += abs(np.linalg.lstsq(xx, y, rcond=None)[0][1]) >= observed - 1e-12
    exact = hits / 15
    assert design.permutation_p(x, y, table["segment"], 20000, seed=1) == pytest.approx(exact, abs=0.015)


def test_class_contrasts_are_exact_on_a_noise_free_table():
    effects = {"idiom": 3.0, "mwe": 1.0, "ne_only": 0.5, "none": 0.0}
    rows = []
    for i in range(40):
        cls = list(effects)[i % 4]
        for k, system in enumerate("AB"):
            rows.append(
                {
                    "segment": str(i),
                    "doc": f"d{i // 2}",
                    "system": system,
                    "source_chars": 10 + i,
                    "mwe_class": cls,
                    "score": effects[cls] + 0.7 * k,
                }
            )
    got = design.class_contrast(pd.DataFrame(rows), n_boot=50).set_index("contrast")
    assert got.loc["idiom − mwe", "estimate"] == pytest.approx(2.0)
    assert got.loc["idiom − none", "estimate"] == pytest.approx(3.0)
    assert got.loc["mwe − ne_only", "estimate"] == pytest.approx(0.5)
    assert got.loc["idiom − mwe", "ci_low"] == pytest.approx(2.0) and got.loc["idiom − mwe", "se"] < 1e-6
    assert got.loc["idiom − mwe", ["segments_a", "segments_b"]].tolist() == [10, 10]


def test_a_group_contrast_recovers_a_known_interaction():
    table = _simulated(1.0)
    table.loc[(table["system"] == "A") & table["idiom"], "score"] += 2.0  # A pays 2 more on idioms
    got = design.group_contrast(table, ["A"], n_boot=300, min_segments=10).iloc[0]
    assert got["ci_low"] < 2.0 < got["ci_high"] and got["estimable"] and got["group_systems"] == "A"
    none = design.group_contrast(table, ["Z"], n_boot=50, min_segments=10).iloc[0]
    assert np.isnan(none["estimate"]) and none["group_systems"] == "" and not none["estimable"]


def test_pooled_effect_is_in_standard_deviations_and_shuffles_within_sets():
    a, b = _simulated(2.0, seed=1), _simulated(2.0, seed=2)
    b["score"] *= 10  # the same data in other units: standardising makes the sets comparable
    pooled = design.pooled_effect(pd.concat([a.assign(dataset="a"), b.assign(dataset="b")]), n_boot=200).iloc[0]
    one = design.idiom_effect(design.standardised(a.assign(dataset="a")), n_boot=200).iloc[0]
    assert pooled["sets"] == 2 and pooled["ci_low"] < one["estimate"] < pooled["ci_high"]


def test_a_missing_column_is_named():
    with pytest.raises(InputError, match="source_chars"):
        design.idiom_effect(_simulated(1.0).drop(columns="source_chars"))
