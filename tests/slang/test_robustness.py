"""Unit tests of helpers.slang.robustness (chapter 7): percent changes, bootstrap correlations, the
robustness, method-2 and stability tables, the verdicts and the shifts by word, on hand-made cases."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import pearsonr, spearmanr

from helpers.core.errors import InputError
from helpers.core.statistics import stats
from helpers.slang import perturbations as pt
from helpers.slang import robustness as rb

from .toy_predictions import _toy_predictions


def _indices(n: int, n_boot: int, seed: int) -> np.ndarray:
    """The item indices of each bootstrap resample of ``stats.resample`` (row b: item i as often as drawn)."""
    return np.array([np.repeat(np.arange(n), w) for w in stats.resample(n, n_boot, seed)])


# --------------------------------------------------------------------------- chapter 7: robustness statistics


def test_percent_change_check_on_a_hand_made_table():
    raw = pd.DataFrame(
        {
            "model": "m",
            "group": ["G0", "M1G1", "G0", "M1G1"],
            "metric": ["rho", "rho", "r", "r"],
            "value": [0.2, 0.1, 0.5, 0.25],
        }
    )
    printed = pd.DataFrame(
        {
            "model": "m",
            "group": "M1G1",
            "metric": ["rho", "rho", "rho", "r"],
            "pct_change_printed": [-50.0, -49.96, -49.95, -49.0],
        }
    )
    out = rb.check_percent_changes(raw, printed)
    assert out.columns.tolist() == [
        "model",
        "group",
        "metric",
        "raw",
        "g0",
        "pct_change_computed",
        "pct_change_printed",
        "diff",
        "low",
        "high",
        "follows",
    ]
    # raw values ± 0.00005: the change lies in [(0.09995 − 0.20005)/0.20005, (0.10005 − 0.19995)/0.19995] × 100
    low, high = (0.09995 - 0.20005) / 0.20005 * 100, (0.10005 - 0.19995) / 0.19995 * 100
    assert out["low"].tolist()[:3] == pytest.approx([low] * 3) and out["high"].tolist()[:3] == pytest.approx([high] * 3)
    assert out["pct_change_computed"].tolist() == pytest.approx([-50.0] * 4)
    assert out["raw"].tolist() == [0.1, 0.1, 0.1, 0.25] and out["g0"].tolist() == [0.2, 0.2, 0.2, 0.5]
    assert out["diff"].tolist() == pytest.approx([0.0, 0.04, 0.05, 1.0])
    # printed to 2 places (± 0.005): -49.96 can come from high = -49.9625, -49.95 cannot; -49 is far off
    assert out["follows"].tolist() == [True, True, False, False]
    assert rb.check_percent_changes(raw, printed, decimals=1)["follows"].tolist() == [True, True, True, False]
    # raw values to 3 places: ± 0.0005, the range widens to [-50.37, -49.63]
    wide = rb.check_percent_changes(raw, printed, raw_decimals=3)
    assert wide["high"].iloc[0] == pytest.approx((0.1005 - 0.1995) / 0.1995 * 100)
    assert wide["follows"].tolist() == [True, True, True, False]
    with pytest.raises(InputError, match="no raw value for m M2G2 rho") as err:
        rb.check_percent_changes(raw, printed.assign(group="M2G2"))
    assert err.value.file == "Tables 9-10"
    # half a unit of a 2-place print is 0.005: -49.958 lies 0.0045 above high = -49.9625 and still follows
    assert rb.check_percent_changes(raw, printed.iloc[:1].assign(pct_change_printed=-49.958))["follows"].item()


def test_percent_change_check_at_the_edge_of_its_range():
    # raw values to 12 places: the range is -50 within 4e-10; -49.995 is exactly half a 2-place unit above it,
    # which the check lets through (the 1e-9 margin absorbs the floating-point residue), -49.9949 is not
    raw = pd.DataFrame({"model": "m", "group": ["G0", "M1G1"], "metric": "rho", "value": [0.2, 0.1]})
    printed = pd.DataFrame(
        {"model": "m", "group": "M1G1", "metric": "rho", "pct_change_printed": [-49.995, -49.9949, -50.005, -50.0051]}
    )
    out = rb.check_percent_changes(raw, printed, raw_decimals=12)
    assert out["high"].iloc[0] - out["low"].iloc[0] < 1e-9
    assert out["follows"].tolist() == [True, False, True, False]


def test_pct_change_of_a_zero_reference_and_share_of_ties():
    assert np.isnan(rb.pct_change(0.3, 0.0))
    assert rb.share_increased([1.0, 2.0, 3.0], [1.0, 2.5, 2.0]) == pytest.approx(100 / 3)  # a tie does not rise


def test_boot_correlations_are_nan_without_spread():
    index = np.array([[0, 0, 0], [0, 1, 2], [1, 2, 2]])
    h, p = np.array([1.0, 2.0, 4.0]), np.array([3.0, 1.0, 2.0])
    rho, r = rb.boot_correlations(h, p, index)
    assert np.isnan(rho[0]) and np.isnan(r[0])
    assert rho[1] == pytest.approx(spearmanr(h, p).statistic) and r[1] == pytest.approx(pearsonr(h, p).statistic)
    assert rho[2] == pytest.approx(spearmanr(h[[1, 2, 2]], p[[1, 2, 2]]).statistic)
    assert r[2] == pytest.approx(pearsonr(h[[1, 2, 2]], p[[1, 2, 2]]).statistic)
    # scores on a small scale: Σx²·Σy² far below 1, the correlation is still defined (and scale-free)
    small_h, small_p = h / 100, p / 1000
    rho, r = rb.boot_correlations(small_h, small_p, index)
    assert r[1] == pytest.approx(pearsonr(h, p).statistic) and r[2] == pytest.approx(
        pearsonr(h[[1, 2, 2]], p[[1, 2, 2]]).statistic
    )
    # two posts: centred ranks ±0.5, Σx² = 0.5
    rho2, r2 = rb.boot_correlations([1.0, 2.0], [2.0, 1.0], np.array([[0, 1]]))
    assert rho2.tolist() == [-1.0] and r2.tolist() == [-1.0]


def _random_predictions(n: int = 16, seed: int = 5):
    """Models b and a (b first; a = b − 1) on n posts whose instance labels are not in sorted order."""
    rng = np.random.default_rng(seed)
    human = pd.Series(rng.normal(size=n), index=rng.permutation(n) + 100)  # instances 100…, shuffled
    g0 = human.to_numpy() + rng.normal(0, 1, n)
    groups = {
        "G0": g0,
        "M1G1": g0 + rng.normal(0.1, 0.3, n),
        "M1G2": g0 + rng.normal(-0.05, 0.3, n),
        "SWAP": g0 + rng.normal(0, 1.5, n),
    }
    frames = [
        pd.DataFrame({"model": m, "group": g, "instance": human.index, "predicted": v + k})
        for k, m in ((1, "b"), (0, "a"))
        for g, v in groups.items()
    ]
    m2 = rng.normal(0.2, 0.5, n)[:10]  # M2G2: the first 10 posts
    frames += [
        pd.DataFrame({"model": m, "group": "M2G2", "instance": human.index[:10], "predicted": g0[:10] + k + m2})
        for k, m in ((1, "b"), (0, "a"))
    ]
    return pd.concat(frames, ignore_index=True), human


@pytest.mark.parametrize("seed", [4, None])
def test_robustness_table_intervals_against_scipy_on_the_same_resamples(seed):
    preds, human = _random_predictions()
    preds = preds[(preds["model"] == "a") & preds["group"].isin(["G0", "M1G1", "M2G2"])]
    kwargs = {} if seed is None else {"seed": seed}  # the default seed is 0
    seed = 0 if seed is None else seed
    table = rb.robustness_table(preds, human, n_boot=80, ci=90, **kwargs).set_index("group")
    h = human.to_numpy()
    for group in ("M1G1", "M2G2"):
        g = preds[preds["group"] == group]
        inst = g["instance"].to_numpy()
        hi, pi = human.loc[inst].to_numpy(), g["predicted"].to_numpy()
        bi = preds[preds["group"] == "G0"].set_index("instance").loc[inst, "predicted"].to_numpy()
        row = table.loc[group]
        assert row["n"] == len(inst)
        assert row["r"] == pytest.approx(pearsonr(hi, pi).statistic)
        assert row["r_pct_change"] == pytest.approx(
            (pearsonr(hi, pi).statistic - pearsonr(h, preds[preds["group"] == "G0"]["predicted"]).statistic)
            / abs(pearsonr(h, preds[preds["group"] == "G0"]["predicted"]).statistic)
            * 100
        )
        rho_pct, r_pct, d_rho, d_r = [], [], [], []
        for idx in _indices(len(inst), 80, seed):
            rho0, r0 = spearmanr(hi[idx], bi[idx]).statistic, pearsonr(hi[idx], bi[idx]).statistic
            rho1, r1 = spearmanr(hi[idx], pi[idx]).statistic, pearsonr(hi[idx], pi[idx]).statistic
            rho_pct.append((rho1 - rho0) / abs(rho0) * 100)
            r_pct.append((r1 - r0) / abs(r0) * 100)
            d_rho.append(rho1 - rho0)
            d_r.append(r1 - r0)
        for name, values in (
            ("rho_pct_change", rho_pct),
            ("r_pct_change", r_pct),
            ("rho_change", d_rho),
            ("r_change", d_r),
        ):
            assert (row[f"{name}_low"], row[f"{name}_high"]) == pytest.approx(tuple(np.percentile(values, [5, 95])))
        assert row["r_change"] == pytest.approx(pearsonr(hi, pi).statistic - pearsonr(hi, bi).statistic)
        assert row["rho_change"] == pytest.approx(spearmanr(hi, pi).statistic - spearmanr(hi, bi).statistic)


def test_robustness_table_order_defaults_and_a_zero_g0_correlation():
    import warnings

    # ρ(G0) = 0 exactly: ranks 2, 4, 1, 3 against 1, 2, 3, 4 (Σd² = 10 = n(n² − 1)/6)
    human = pd.Series([1.0, 2.0, 3.0, 4.0])
    preds = pd.concat(
        [
            pd.DataFrame({"model": m, "group": g, "instance": range(4), "predicted": v})
            for m in ("b", "a")
            for g, v in (
                ("G0", [2.0, 4, 1, 3]),
                ("M1G2", [1.0, 2, 3, 4]),
                ("M1G1", [1.0, 3, 2, 4]),
                ("M1G3", [2.0, 4, 1, 3]),
            )
        ]
    )
    plain = rb.robustness_table(preds, human)  # no resamples by default
    assert plain.columns.tolist() == ["model", "group", "n", "rho", "r", "rho_pct_change", "r_pct_change"]
    assert plain[["model", "group"]].values.tolist() == [
        ["b", "G0"],
        ["b", "M1G2"],
        ["b", "M1G1"],
        ["b", "M1G3"],
        ["a", "G0"],
        ["a", "M1G2"],
        ["a", "M1G1"],
        ["a", "M1G3"],
    ]  # in the order they come in
    assert plain["rho"].tolist() == pytest.approx([0.0, 1.0, 0.8, 0.0] * 2) and plain["rho_pct_change"].isna().all()
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="(divide by zero|invalid value) encountered")
        table = rb.robustness_table(preds, human, n_boot=60)  # seed 0 by default
    h = human.to_numpy()
    g0 = np.array([2.0, 4, 1, 3])
    # M1G3 repeats G0: where ρ(G0) is 0 in a resample its change is 0 / 0, left out like the undefined ones
    for (_, row), v in zip(table.iloc[[1, 2, 3, 5, 6, 7]].iterrows(), ([1.0, 2, 3, 4], [1.0, 3, 2, 4], g0) * 2):
        v = np.array(v)
        d, pct = [], []
        for idx in _indices(4, 60, 0):
            if np.ptp(h[idx]) == 0:  # a resample of one post repeated: ρ undefined
                continue
            r0, r1 = spearmanr(h[idx], g0[idx]).statistic, spearmanr(h[idx], v[idx]).statistic
            d.append(r1 - r0)
            if r0 != 0:
                pct.append((r1 - r0) / abs(r0) * 100)
        assert (row["rho_change_low"], row["rho_change_high"]) == pytest.approx(tuple(np.percentile(d, [2.5, 97.5])))
        assert (
            (row["rho_pct_change_low"], row["rho_pct_change_high"])
            == pytest.approx(tuple(np.percentile(pct, [2.5, 97.5])), nan_ok=True)
            if pct
            else np.isnan(row["rho_pct_change_low"])
        )


def test_stability_intervals_every_statistic_against_numpy_on_the_same_resamples():
    preds, human = _random_predictions()
    n_boot, seed = 60, 2
    out = rb.stability_intervals(preds, human, n_boot=n_boot, seed=seed, ci=90)
    assert out["model"].unique().tolist() == ["b", "a"]  # in the order the models come in
    a = out[out["model"] == "a"].set_index("statistic")
    assert a.index.tolist() == [
        "G0_rho",
        "mean_abs_rho_change",
        "mean_rho_change",
        "mean_abs_shift",
        "prediction_sd",
        "relative_shift",
        "signed_relative_shift",
        "swap_relative_shift",
        "homophone_to_swap",
        "rmse",
        "abs_shift_to_error",
        "signed_shift_to_error",
        "M2G2_share_increased",
    ]
    # the posts in the order they come in (the resamples draw positions)
    p = preds[preds["model"] == "a"].pivot(index="instance", columns="group", values="predicted").loc[human.index]
    h, g0 = human.to_numpy(), p["G0"].to_numpy()
    m1 = p[["M1G1", "M1G2"]].to_numpy()
    swap = np.abs(p["SWAP"].to_numpy() - g0)
    shift, signed = np.abs(m1 - g0[:, None]).mean(axis=1), (m1 - g0[:, None]).mean(axis=1)
    rho0 = spearmanr(h, g0).statistic
    rho_g = [spearmanr(h, m1[:, k]).statistic for k in range(2)]
    sd, rmse = g0.std(), math.sqrt(((g0 - h) ** 2).mean())
    point = {
        "G0_rho": rho0,
        "mean_abs_rho_change": np.mean([abs((r - rho0) / abs(rho0) * 100) for r in rho_g]),
        "mean_rho_change": np.mean([r - rho0 for r in rho_g]),
        "mean_abs_shift": shift.mean(),
        "prediction_sd": sd,
        "relative_shift": shift.mean() / sd,
        "signed_relative_shift": signed.mean() / sd,
        "swap_relative_shift": swap.mean() / sd,
        "homophone_to_swap": shift.mean() / swap.mean(),
        "rmse": rmse,
        "abs_shift_to_error": shift.mean() / rmse,
        "signed_shift_to_error": signed.mean() / rmse,
    }
    boot = {k: [] for k in point if k != "mean_abs_rho_change"}
    for idx in _indices(len(h), n_boot, seed):
        r0 = spearmanr(h[idx], g0[idx]).statistic
        s_b, sd_b, e_b = shift[idx].mean(), g0[idx].std(), math.sqrt(((g0 - h)[idx] ** 2).mean())
        for k, v in {
            "G0_rho": r0,
            "mean_rho_change": np.mean([spearmanr(h[idx], m1[idx, j]).statistic - r0 for j in range(2)]),
            "mean_abs_shift": s_b,
            "prediction_sd": sd_b,
            "relative_shift": s_b / sd_b,
            "signed_relative_shift": signed[idx].mean() / sd_b,
            "swap_relative_shift": swap[idx].mean() / sd_b,
            "homophone_to_swap": s_b / swap[idx].mean(),
            "rmse": e_b,
            "abs_shift_to_error": s_b / e_b,
            "signed_shift_to_error": signed[idx].mean() / e_b,
        }.items():
            boot[k].append(v)
    for k, v in point.items():
        assert a.loc[k, "value"] == pytest.approx(v), k
        if k == "mean_abs_rho_change":
            assert a.loc[k, ["ci_low", "ci_high"]].isna().all()
        else:
            assert (a.loc[k, "ci_low"], a.loc[k, "ci_high"]) == pytest.approx(tuple(np.percentile(boot[k], [5, 95]))), k
    up = (p["M2G2"].iloc[:10].to_numpy() > g0[:10]).astype(float)
    shares = [up[idx].mean() * 100 for idx in _indices(10, n_boot, seed)]
    assert a.loc["M2G2_share_increased", "value"] == pytest.approx(up.mean() * 100)
    assert (a.loc["M2G2_share_increased", "ci_low"], a.loc["M2G2_share_increased", "ci_high"]) == pytest.approx(
        tuple(np.percentile(shares, [5, 95]))
    )
    assert a.loc["M2G2_share_increased", "n"] == 10 and (a.drop(index="M2G2_share_increased")["n"] == 16).all()
    # model b is model a shifted by 1: ranks, shifts and spread stay, the error against the human scores moves
    b = out[out["model"] == "b"].set_index("statistic")
    same = [k for k in a.index if k not in ("rmse", "abs_shift_to_error", "signed_shift_to_error")]
    assert b.loc[same, "value"].tolist() == pytest.approx(a.loc[same, "value"].tolist())
    rmse_b = math.sqrt(((g0 + 1 - h) ** 2).mean())
    assert b.loc["rmse", "value"] == pytest.approx(rmse_b) and rmse_b != pytest.approx(rmse)
    assert b.loc["abs_shift_to_error", "value"] == pytest.approx(shift.mean() / rmse_b)


def test_stability_intervals_of_a_model_without_perturbations():
    preds, human = _random_predictions(n=8)
    only = preds[(preds["model"] == "a") & preds["group"].isin(["G0", "SWAP"])]
    out = rb.stability_intervals(only, human, n_boot=20).set_index("statistic")
    assert out.index.tolist() == ["G0_rho", "prediction_sd", "swap_relative_shift", "rmse"]
    g0 = only[only["group"] == "G0"]["predicted"].to_numpy()
    swap = only[only["group"] == "SWAP"]["predicted"].to_numpy()
    assert out.loc["swap_relative_shift", "value"] == pytest.approx(np.abs(swap - g0).mean() / g0.std())


def test_stability_intervals_of_a_model_with_constant_predictions():
    """A model that gives every post the same score (SD 0) and homophones that raise it by 0.5: the ratios to
    its spread are inf or NaN (0 / 0), with no warning and no ZeroDivisionError; it reads as not reacting to
    the source."""
    import warnings

    human = pd.Series([0.0, 1.0, 2.0, 3.0])
    preds = pd.concat(
        [
            pd.DataFrame({"model": "flat", "group": g, "instance": range(4), "predicted": v})
            for g, v in (("G0", 1.0), ("M1G1", 1.5), ("M1G2", 1.5), ("SWAP", 1.0))
        ]
    )
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="(divide by zero|invalid value) encountered")
        out = rb.stability_intervals(preds, human, n_boot=20).set_index("statistic")
    assert out.loc["prediction_sd", "value"] == 0.0 and out.loc["mean_abs_shift", "value"] == 0.5
    assert out.loc["relative_shift", "value"] == np.inf and out.loc["signed_relative_shift", "value"] == np.inf
    assert np.isnan(out.loc["swap_relative_shift", "value"]) and out.loc["homophone_to_swap", "value"] == np.inf
    assert out.loc[["relative_shift", "swap_relative_shift"], ["ci_low", "ci_high"]].isna().all().all()
    # RMSE √((1 + 0 + 1 + 4) / 4): the shift to error ratio is finite
    assert out.loc["abs_shift_to_error", "value"] == pytest.approx(0.5 / math.sqrt(6 / 4))
    assert rb.stability_verdicts(out.reset_index().assign(model="flat")).iloc[0]["verdict"] == "not_reacting"
    # a perfect model (RMSE 0) whose homophones move it: inf, no warning
    exact = pd.concat(
        [
            pd.DataFrame({"model": "exact", "group": g, "instance": range(4), "predicted": human + d})
            for g, d in (("G0", 0.0), ("M1G1", 0.5))
        ]
    )
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="(divide by zero|invalid value) encountered")
        out = rb.stability_intervals(exact, human, n_boot=20).set_index("statistic")
    assert out.loc["rmse", "value"] == 0.0 and out.loc["abs_shift_to_error", "value"] == np.inf
    # ... and one whose homophones do not move it: 0 / 0
    still = exact.assign(predicted=np.tile(human.to_numpy(), 2))
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="(divide by zero|invalid value) encountered")
        out = rb.stability_intervals(still, human, n_boot=20).set_index("statistic")
    assert np.isnan(out.loc["abs_shift_to_error", "value"]) and np.isnan(out.loc["signed_shift_to_error", "value"])


def test_stability_intervals_post_edit_ties_interval_level_and_no_rows():
    human = pd.Series(np.arange(8.0))
    g0 = np.array([0.0, 1, 2, 3, 4, 5, 6, 7])
    m2 = g0 + np.array([1.0, 0, 1, 0, -1, 1, 0, 1])  # 4 rise, 3 equal (not a rise), 1 falls
    preds = pd.concat(
        [
            pd.DataFrame({"model": "m", "group": "G0", "instance": range(8), "predicted": g0}),
            pd.DataFrame({"model": "m", "group": "M2G2", "instance": range(8), "predicted": m2}),
        ]
    )
    out = rb.stability_intervals(preds, human, n_boot=50, seed=1, ci=50).set_index("statistic")
    up = np.array([1.0, 0, 1, 0, 0, 1, 0, 1])
    shares = [up[idx].mean() * 100 for idx in _indices(8, 50, 1)]
    assert out.loc["M2G2_share_increased", "value"] == 50.0
    assert tuple(out.loc["M2G2_share_increased", ["ci_low", "ci_high"]]) == pytest.approx(
        tuple(np.percentile(shares, [25, 75]))
    )
    empty = rb.stability_intervals(preds.iloc[:0], human)
    assert empty.empty and empty.columns.tolist() == ["model", "statistic", "value", "ci_low", "ci_high", "n"]


def _verdict_rows(model, values: dict) -> list[dict]:
    return [
        {"model": model, "statistic": k, "value": v[0], "ci_low": v[1], "ci_high": v[2], "n": 20}
        for k, v in values.items()
    ]


def test_stability_verdicts_every_branch_by_hand():
    iv = pd.DataFrame(
        _verdict_rows(
            "a",
            {
                "G0_rho": (0.4, 0.2, 0.6),
                "swap_relative_shift": (0.8, 0.5, 1.1),
                "homophone_to_swap": (0.7, 0.6, 0.9),
                "abs_shift_to_error": (0.3, 0.2, 0.4),
                "signed_relative_shift": (0.2, 0.1, 0.3),
                "M2G2_share_increased": (50.0, 40.0, 60.0),
            },
        )
        + _verdict_rows(
            "b",
            {
                "G0_rho": (0.3, 0.1, 0.5),
                "swap_relative_shift": (0.8, 0.5, 1.1),
                "homophone_to_swap": (0.45, 0.4, 0.5),
                "abs_shift_to_error": (0.08, 0.05, 0.1),
                "signed_relative_shift": (0.0, -0.1, 0.1),
                "M2G2_share_increased": (30.0, 20.0, 49.0),
            },
        )
        + _verdict_rows("c", {"G0_rho": (0.5, 0.3, 0.7)})
        + _verdict_rows(
            "d",
            {
                "G0_rho": (0.2, 0.0, 0.4),
                "swap_relative_shift": (0.3, 0.1, 0.5),
                "homophone_to_swap": (0.1, 0.05, 0.2),
                "abs_shift_to_error": (0.015, 0.01, 0.02),
                "M2G2_share_increased": (60.0, 50.0, 70.0),
            },
        )
        + _verdict_rows(
            "e",
            {
                "G0_rho": (0.2, 0.1, 0.4),
                "swap_relative_shift": (0.2, 0.0999, 0.3),
                "M2G2_share_increased": (60.0, 51.0, 70.0),
            },
        )
    )
    out = rb.stability_verdicts(iv)
    assert out.columns.tolist() == [
        "model",
        "ranks_posts",
        "reads_source",
        "homophones",
        "better_mt",
        "verdict",
        "homophone_shift",
        "signed_shift",
    ]
    v = out.set_index("model")
    assert v["ranks_posts"].tolist() == [True, True, True, False, True]  # d: its G0 ρ interval starts at 0
    assert v["reads_source"].tolist() == [True, True, None, True, False]  # d at 0.1 reads; e at 0.0999 does not
    # keys; the words file (notebooks/words/07_qe_robustness.md, '## verdicts') gives their phrases
    assert v["homophones"].tolist() == ["half_or_more", "unclear", "unknown", "much_smaller", "unknown"]
    assert v["homophone_shift"].tolist() == [
        "beyond tolerance",
        "not clearly within tolerance",
        "unknown",
        "within tolerance",
        "unknown",
    ]
    assert v["signed_shift"].tolist() == ["up", "no clear direction", "unknown", "unknown", "unknown"]
    assert v["better_mt"].tolist() == ["no clear change", "falls", "unknown", "no clear change", "rises"]
    assert v["verdict"].tolist() == ["not_shown", "not_shown", "not_shown", "not_shown", "not_reacting"]
    loose = rb.stability_verdicts(iv, tolerance=0.5).set_index("model").loc["a"]
    assert (loose["homophone_shift"], loose["verdict"]) == ("within tolerance", "robust")
    assert rb.stability_verdicts(iv, tolerance=0.4).set_index("model").loc["a", "homophone_shift"] == (
        "not clearly within tolerance"
    )  # upper bound 0.4 is not below 0.4; lower bound 0.2 is below it


def test_stability_intervals_defaults_on_the_same_resamples():
    preds, human = _random_predictions(n=10)
    out = rb.stability_intervals(preds[preds["model"] == "a"], human).set_index("statistic")  # 2000 resamples, seed 0
    p = preds[preds["model"] == "a"].pivot(index="instance", columns="group", values="predicted").loc[human.index]
    g0 = p["G0"].to_numpy()
    shift = np.abs(p[["M1G1", "M1G2"]].to_numpy() - g0[:, None]).mean(axis=1)
    idx = _indices(10, 2000, 0)
    for name, boot in (("mean_abs_shift", shift[idx].mean(axis=1)), ("prediction_sd", g0[idx].std(axis=1))):
        assert tuple(out.loc[name, ["ci_low", "ci_high"]]) == pytest.approx(tuple(np.percentile(boot, [2.5, 97.5])))


def test_verdict_boundaries_two_shortcomings_and_no_rows():
    iv = pd.DataFrame(
        _verdict_rows(
            "z",
            {
                "G0_rho": (0.1, -0.1, 0.3),
                "swap_relative_shift": (0.8, 0.5, 1.1),
                "homophone_to_swap": (0.7, 0.5, 0.9),
                "abs_shift_to_error": (0.2, 0.1, 0.3),
                "M2G2_share_increased": (40.0, 30.0, 50.0),
            },
        )
        + _verdict_rows("y", {"G0_rho": (0.4, 0.2, 0.6), "swap_relative_shift": (0.8, 0.5, 1.1)})
    )
    out = rb.stability_verdicts(iv)
    assert out["model"].tolist() == ["z", "y"]  # in the order the models come in
    z = out.iloc[0]
    # the lower bounds 0.5 and 0.1 reach the ratio and the tolerance; an upper bound of exactly 50 % is not below it
    assert (z["homophones"], z["homophone_shift"], z["better_mt"], z["verdict"]) == (
        "half_or_more",
        "beyond tolerance",
        "no clear change",
        "not_shown",
    )
    assert rb.stability_verdicts(iv.iloc[:0]).columns.tolist() == out.columns.tolist()


def test_shift_by_word_intervals_on_the_same_resamples():
    # G0 0, 1, 2, 3, 4 (population SD √2); M1 means of the shifts +1, −1, +2, 0, (none for post 4: dropped)
    posts = pd.DataFrame({"instance": range(5), "source": ["尼玛a", "尼玛卧槽", "b卧槽", "c尼玛", "尼玛d"]})
    g0 = [0.0, 1, 2, 3, 4]
    preds = pd.concat(
        [
            pd.DataFrame({"model": "m", "group": "G0", "instance": range(5), "predicted": g0}),
            pd.DataFrame({"model": "m", "group": "M1G1", "instance": range(4), "predicted": [0.0, 1, 5, 3]}),
            pd.DataFrame({"model": "m", "group": "M1G2", "instance": range(4), "predicted": [2.0, -1, 3, 3]}),
            pd.DataFrame({"model": "z", "group": "G0", "instance": range(5), "predicted": g0}),
        ]
    )
    preds = pd.concat([preds[preds["model"] == "z"], preds[preds["model"] == "m"]])  # z (no M1 group) first
    sd = math.sqrt(2.0)
    values = {"尼玛": np.array([1.0, -1.0, 0.0]) / sd, "卧槽": np.array([-1.0, 2.0]) / sd}
    for kwargs, (n_boot, seed, pct) in (
        ({"n_boot": 40, "seed": 3, "ci": 80}, (40, 3, [10, 90])),
        ({}, (2000, 0, [2.5, 97.5])),
    ):
        out = rb.shift_by_word(preds, posts, **kwargs)
        assert out["model"].tolist() == ["m", "m"] and out["word"].tolist() == ["尼玛", "卧槽"]  # SLANG order; z: no M1
        for _, row in out.iterrows():
            x = values[row["word"]]
            means = [x[idx].mean() for idx in _indices(len(x), n_boot, seed)]
            assert row["n_posts"] == len(x) and row["signed_relative_shift"] == pytest.approx(x.mean())
            assert (row["ci_low"], row["ci_high"]) == pytest.approx(tuple(np.percentile(means, pct)))
    none = rb.shift_by_word(preds[preds["model"] == "z"], posts)
    assert none.empty and none.columns.tolist() == [
        "model",
        "word",
        "n_posts",
        "signed_relative_shift",
        "ci_low",
        "ci_high",
    ]


def test_shift_by_word_default_resamples():
    # eight posts with 尼玛, G0 predictions 0, 2, …, 14 (population SD 2·√5.25 = √21), M1 shifts drawn once
    # from a normal distribution (so that the resampled means hardly tie and every resample counts)
    posts = pd.DataFrame({"instance": range(8), "source": ["尼玛"] * 8})
    g0 = np.arange(8) * 2.0
    shift = np.random.default_rng(11).normal(size=8)
    preds = pd.concat(
        [
            pd.DataFrame({"model": "m", "group": "G0", "instance": range(8), "predicted": g0}),
            pd.DataFrame({"model": "m", "group": "M1G1", "instance": range(8), "predicted": g0 + shift}),
        ]
    )
    row = rb.shift_by_word(preds, posts).iloc[0]  # 2000 resamples, seed 0, 95 %
    x = shift / math.sqrt(21)
    means = x[_indices(8, 2000, 0)].mean(axis=1)
    assert row["signed_relative_shift"] == pytest.approx(x.mean())
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(tuple(np.percentile(means, [2.5, 97.5])), rel=1e-12)


def test_shift_by_word_resamples_the_posts_in_their_order_and_keeps_model_order():
    # instances 3, 1, 2, 0 (not sorted): the resamples draw positions in that order
    posts = pd.DataFrame({"instance": [3, 1, 2, 0], "source": ["尼玛a", "尼玛b", "尼玛c", "尼玛d"]})
    g0 = {3: 0.0, 1: 1.0, 2: 2.0, 0: 4.0}
    m1 = {3: 1.0, 1: 0.0, 2: 5.0, 0: 4.5}
    preds = pd.concat(
        [
            pd.DataFrame({"model": m, "group": g, "instance": list(v), "predicted": [x + k for x in v.values()]})
            for k, m in ((0.0, "n"), (1.0, "m"))
            for g, v in (("G0", g0), ("M1G1", m1))
        ]
    )
    out = rb.shift_by_word(preds, posts, n_boot=30, seed=2)
    assert out["model"].tolist() == ["n", "m"]
    sd = np.std(list(g0.values()))
    x = np.array([m1[i] - g0[i] for i in (3, 1, 2, 0)]) / sd
    means = [x[idx].mean() for idx in _indices(4, 30, 2)]
    assert tuple(out.iloc[0][["ci_low", "ci_high"]]) == pytest.approx(tuple(np.percentile(means, [2.5, 97.5])))


def test_method2_and_stability_tables_of_two_models():
    preds = pd.DataFrame(
        {
            "model": ["b"] * 6 + ["a"] * 6,
            "instance": [0, 1, 2] * 4,
            "group": (["G0"] * 3 + ["M2G1"] * 3) * 2,
            "predicted": [5.0, 5, 5, 6, 4, 5, 0, 1, 2, 1, 1, 1],
        }
    )
    preds = pd.concat(
        [preds, pd.DataFrame({"model": "b", "instance": [0, 2], "group": "M2G2", "predicted": [6.0, 6.0]})],
        ignore_index=True,
    )
    m2 = rb.method2_table(preds)
    # a, M2G1: 0 -> 1 rises, 1 -> 1 stays, 2 -> 1 falls: 1 of 3; b, M2G1: 5 -> 6, 5 -> 4, 5 -> 5: 1 of 3; b, M2G2: 2 of 2
    # in the order the models and groups come in (b before a)
    assert m2.to_dict("records") == [
        {"model": "b", "group": "M2G1", "n": 3, "share_increased": pytest.approx(100 / 3)},
        {"model": "a", "group": "M2G1", "n": 3, "share_increased": pytest.approx(100 / 3)},
        {"model": "b", "group": "M2G2", "n": 2, "share_increased": 100.0},
    ]
    assert rb.method2_table(preds[preds["group"] == "G0"]).columns.tolist() == [
        "model",
        "group",
        "n",
        "share_increased",
    ]
    robust = pd.DataFrame(
        {
            "model": ["b", "b", "b", "a", "a", "a"],
            "group": ["G0", "M1G1", "M1G2"] * 2,
            "rho": [0.3, 0.3, 0.3, 0.5, 0.4, 0.6],
            "rho_pct_change": [0.0, 0.0, -10.0, 0.0, -20.0, 20.0],
            "r_pct_change": [0.0, 5.0, 5.0, 0.0, 10.0, -30.0],
        }
    )
    shifts = pd.DataFrame(
        {
            "model": ["a", "a", "b", "b", "a"],
            "group": ["M1G1", "M1G2", "M1G1", "M1G1", "M2G1"],
            "shift": [-1.0, 3.0, 0.5, -0.5, 100.0],
        }
    )
    table = rb.stability_table(robust, shifts, m2)
    assert table["model"].tolist() == ["b", "a"]
    table = table.set_index("model")
    assert table["mean_abs_rho_change"].tolist() == [5.0, 20.0] and table["mean_abs_r_change"].tolist() == [5.0, 20.0]
    assert table["mean_abs_shift"].tolist() == [0.5, 2.0]  # M2G1's shift is not Method 1
    assert table["G0_rho"].tolist() == [0.3, 0.5]
    assert table["M2G1_share_increased"].tolist() == pytest.approx([100 / 3, 100 / 3])
    assert np.isnan(table.loc["a", "M2G2_share_increased"]) and table.loc["b", "M2G2_share_increased"] == 100.0


def test_score_shifts_match_each_model_and_instance():
    preds = pd.DataFrame(
        {
            "model": ["a", "a", "b", "b", "b", "a"],
            "group": ["G0", "G0", "G0", "G0", "M1G1", "M1G1"],
            "instance": [0, 1, 0, 1, 1, 0],
            "predicted": [1.0, 2.0, 10.0, 20.0, 25.0, 4.0],
        }
    )
    out = rb.score_shifts(preds)
    assert out[["model", "instance", "shift"]].values.tolist() == [["b", 1, 5.0], ["a", 0, 3.0]]
    assert "predicted" in out.columns and len(preds) == 6  # the input is left alone


def test_swap_sources_of_a_single_post_and_the_default_seed():
    one = pd.DataFrame({"instance": [0], "source": ["a"], "mt": ["x"]})
    assert rb.swap_sources(one)["source"].tolist() == ["a"]
    two = pd.DataFrame({"instance": [0, 1], "source": ["a", "b"], "mt": ["x", "y"]})
    assert rb.swap_sources(two, seed=4)["source"].tolist() == ["b", "a"]  # the only derangement of two
    posts = pd.DataFrame({"instance": range(4), "source": list("abcd"), "mt": list("wxyz")})
    # the first draw of default_rng(0) without a fixed point
    rng = np.random.default_rng(0)
    order = rng.permutation(4)
    while (order == np.arange(4)).any():
        order = rng.permutation(4)
    assert rb.swap_sources(posts)["source"].tolist() == list(np.array(list("abcd"))[order])


def test_pct_change_by_hand():
    assert rb.pct_change(0.2523, 0.2617) == pytest.approx(-3.5919, abs=1e-4)
    assert rb.pct_change(-0.0625, 0.1984) == pytest.approx(-131.502, abs=1e-3)
    assert rb.pct_change(0.5, -0.25) == pytest.approx(300.0)  # relative to |reference|


def test_paper_tables_5_6_against_9_10():
    check = rb.check_percent_changes()
    assert len(check) == 90
    flagged = check[~check["follows"]].set_index(["model", "group", "metric"])
    # the first cell of Table 5 follows from Table 9 (hand-checked above)
    assert check.iloc[0]["follows"]
    # Mixtral r, M1G1: (-0.0625 - 0.1984) / 0.1984 = -131.50%; with both raw values anywhere within their
    # rounding (+-0.00005) the change lies in [-131.535, -131.469], so the printed -131.45% cannot follow.
    row = flagged.loc[("Mixtral-8x7B", "M1G1", "r")]
    assert row["pct_change_computed"] == pytest.approx(-131.502, abs=1e-3)
    assert row["low"] == pytest.approx((-0.06255 - 0.19835) / 0.19835 * 100, abs=1e-6)
    assert row["high"] == pytest.approx((-0.06245 - 0.19845) / 0.19845 * 100, abs=1e-6)
    # FT-COMETKIWI r, M1G1 differs from the rounded recomputation (-6.135%) only within rounding
    assert ("FT-COMETKIWI", "M1G1", "r") not in flagged.index


def test_perturb_sources_every_occurrence_and_nothing_else():
    sources = pd.Series(["卧槽卧槽", "劳资不干了", "没有俚语"])
    out = pt.perturb_sources(sources, {"卧槽": ["我操", "我艹"], "劳资": ["老子", "老资"]}, k=2)
    assert out["perturbed"].tolist() == ["我艹我艹", "老资不干了", "没有俚语"]
    assert out["n_replacements"].tolist() == [2, 1, 0]


def test_share_increased():
    assert rb.share_increased([1, 2, 3, 4], [2, 2, 1, 5]) == 50.0


def test_robustness_table_and_shifts_by_hand():
    human = pd.Series([1.0, 2.0, 3.0, 4.0])
    preds = pd.concat(
        [
            pd.DataFrame({"instance": range(4), "group": "G0", "model": "m", "predicted": [1.0, 2.0, 3.0, 4.0]}),
            pd.DataFrame({"instance": range(4), "group": "M1G1", "model": "m", "predicted": [2.0, 1.0, 3.0, 4.0]}),
        ]
    )
    table = rb.robustness_table(preds, human).set_index("group")
    assert table.loc["G0", "rho"] == pytest.approx(1.0) and table.loc["M1G1", "rho"] == pytest.approx(0.8)
    assert table.loc["M1G1", "rho_pct_change"] == pytest.approx(-20.0)
    shifts = rb.score_shifts(preds)
    assert shifts["shift"].tolist() == [1.0, -1.0, 0.0, 0.0]


def test_method2_and_stability_tables_by_hand():
    preds = pd.DataFrame(
        {
            "instance": [0, 1, 0, 1, 0, 1],
            "group": ["G0", "G0", "M1G1", "M1G1", "M2G2", "M2G2"],
            "model": "m",
            "predicted": [0.0, 1.0, 0.5, 1.0, 1.0, 0.5],
        }
    )
    m2 = rb.method2_table(preds)
    assert m2.to_dict("records") == [{"model": "m", "group": "M2G2", "n": 2, "share_increased": 50.0}]
    robust = pd.DataFrame(
        {
            "model": ["m", "m"],
            "group": ["G0", "M1G1"],
            "n": 2,
            "rho": [0.5, 0.4],
            "r": [0.5, 0.6],
            "rho_pct_change": [0.0, -20.0],
            "r_pct_change": [0.0, 20.0],
        }
    )
    table = rb.stability_table(robust, rb.score_shifts(preds), m2).set_index("model")
    assert table.loc["m", "mean_abs_rho_change"] == 20.0 and table.loc["m", "mean_abs_shift"] == 0.25
    assert table.loc["m", "G0_rho"] == 0.5 and table.loc["m", "M2G2_share_increased"] == 50.0


def test_perturbation_groups():
    posts = pd.DataFrame(
        {"instance": [0, 1], "source": ["卧槽好累", "劳资走了"], "mt": ["wow tired", "I left"], "score": [0.1, 0.2]}
    )
    edits = pd.DataFrame({"source": ["卧槽 好累", "劳资走了"], "post_edit": ["damn, so tired", " "]})
    fixes = pd.DataFrame({"source": ["劳资走了"], "mt": ["I'm off"]})
    groups = pt.perturbation_groups(posts, {"卧槽": ["我操", "我艹"], "劳资": ["老子", "老资"]}, edits, fixes, k_max=2)
    assert list(groups) == ["G0", "M1G1", "M1G2", "M2G2", "M2G1"]
    assert groups["M1G2"]["source"].tolist() == ["我艹好累", "老资走了"]
    assert groups["M1G1"]["mt"].tolist() == posts["mt"].tolist()  # Method 1 leaves the MT alone
    assert groups["M2G2"][["instance", "mt"]].values.tolist() == [[0, "damn, so tired"]]  # empty post-edit skipped
    assert groups["M2G1"][["instance", "mt"]].values.tolist() == [[1, "I'm off"]]


def test_boot_correlations_match_scipy_on_a_resample():
    rng = np.random.default_rng(1)
    h, p = rng.normal(size=12), rng.normal(size=12)
    w = np.array([np.bincount(rng.integers(0, 12, 12), minlength=12) for _ in range(3)])
    index = rb.boot_index(w)
    rho, r = rb.boot_correlations(h, p, index)
    for b in range(3):
        assert rho[b] == pytest.approx(spearmanr(h[index[b]], p[index[b]]).statistic)
        assert r[b] == pytest.approx(pearsonr(h[index[b]], p[index[b]]).statistic)


def test_stability_intervals_and_verdicts_by_hand():
    preds, human = _toy_predictions()
    iv = rb.stability_intervals(preds, human, n_boot=200, seed=0).set_index(["model", "statistic"])
    # reader: |shift| 0.1 on every post; G0 = 0.25, 0.75, 2.25, 2.75, 4.25, 4.75: SD = sqrt(16.375 / 6), RMSE 0.25
    sd = np.sqrt(16.375 / 6)
    assert iv.loc[("reader", "mean_abs_shift"), "value"] == pytest.approx(0.1)
    assert iv.loc[("reader", "prediction_sd"), "value"] == pytest.approx(sd)
    assert iv.loc[("reader", "relative_shift"), "value"] == pytest.approx(0.1 / sd)
    assert iv.loc[("reader", "homophone_to_swap"), "value"] == pytest.approx(0.1 / 3.0)
    assert iv.loc[("reader", "signed_relative_shift"), "value"] == pytest.approx(0.0)  # +0.1 and -0.1 cancel
    assert iv.loc[("reader", "rmse"), "value"] == pytest.approx(0.25)
    assert iv.loc[("reader", "abs_shift_to_error"), ["value", "ci_low", "ci_high"]].tolist() == pytest.approx([0.4] * 3)
    assert iv.loc[("reader", "G0_rho"), "value"] == pytest.approx(1.0)
    assert iv.loc[("reader", "mean_abs_rho_change"), "value"] == pytest.approx(0.0)
    assert iv.loc[("reader", "mean_abs_rho_change"), ["ci_low", "ci_high"]].isna().all()  # no valid interval
    assert iv.loc[("reader", "mean_rho_change"), ["value", "ci_low", "ci_high"]].tolist() == pytest.approx([0.0] * 3)
    assert iv.loc[("reader", "M2G2_share_increased"), "value"] == 100.0
    assert iv.loc[("blind", "mean_abs_shift"), "value"] == 0.0
    assert iv.loc[("blind", "swap_relative_shift"), "ci_high"] == 0.0
    assert iv.loc[("blind", "M2G2_share_increased"), "value"] == 0.0
    low, high = iv.loc[("reader", "mean_abs_shift"), ["ci_low", "ci_high"]]
    assert low == pytest.approx(0.1) and high == pytest.approx(0.1)  # every post shifts by 0.1
    verdicts = rb.stability_verdicts(iv.reset_index()).set_index("model")
    assert verdicts.loc["blind", "verdict"] == "not_reacting"
    # 0.1 / 0.25 = 0.4 of its own error: beyond the tolerance 0.1, although 30 times less than a new source
    assert verdicts.loc["reader", "homophones"] == "much_smaller"
    assert verdicts.loc["reader", "homophone_shift"] == "beyond tolerance"
    assert verdicts.loc["reader", "signed_shift"] == "no clear direction"
    assert verdicts.loc["reader", "verdict"] == "not_shown"  # ranks and reads the source, but beyond tolerance
    assert verdicts.loc["reader", "better_mt"] == "rises" and verdicts.loc["blind", "better_mt"] == "falls"
    small = rb.stability_verdicts(rb.stability_intervals(*_toy_predictions(shift=0.01), n_boot=50)).set_index("model")
    assert small.loc["reader", "verdict"] == "robust"  # 0.01 / 0.25 = 0.04 of its own error
    assert small.loc["reader", "homophone_shift"] == "within tolerance" and small.loc["reader", "better_mt"] == "rises"


def test_robustness_table_intervals_are_paired():
    preds, human = _toy_predictions()
    table = rb.robustness_table(preds[preds["group"].isin(["G0", "M1G1", "M1G2"])], human, n_boot=100, seed=0)
    g0 = table[table["group"] == "G0"]
    assert (g0[["rho_pct_change_low", "rho_pct_change_high"]] == 0).all().all()
    assert (g0[["rho_change", "rho_change_low", "rho_change_high"]] == 0).all().all()
    reader = table[(table["model"] == "reader") & (table["group"] == "M1G1")].iloc[0]
    assert reader["rho_pct_change_low"] == 0 and reader["rho_pct_change_high"] == 0  # ranks unchanged in every resample
    assert reader[["rho_change", "rho_change_low", "rho_change_high"]].tolist() == [0, 0, 0]
    assert list(table.columns[:7]) == ["model", "group", "n", "rho", "r", "rho_pct_change", "r_pct_change"]


def test_paired_delta_rho_interval_matches_scipy_on_the_same_resamples():
    """Δρ of a perturbed group against G0: the percentile interval of scipy's ρ(group) − ρ(G0)
    computed on the very posts of each resample (the same draws for both)."""
    rng = np.random.default_rng(7)
    n, n_boot = 30, 400
    human = pd.Series(rng.normal(size=n))
    g0 = human.to_numpy() + rng.normal(0, 1, n)
    g1 = g0 + rng.normal(0, 0.5, n)
    preds = pd.concat(
        [
            pd.DataFrame({"model": "m", "group": g, "instance": range(n), "predicted": v})
            for g, v in (("G0", g0), ("M1G1", g1))
        ],
        ignore_index=True,
    )
    row = rb.robustness_table(preds, human, n_boot=n_boot, seed=3).set_index("group").loc["M1G1"]
    index = rb.boot_index(stats.resample(n, n_boot, 3))
    h = human.to_numpy()
    deltas = [spearmanr(h[i], g1[i]).statistic - spearmanr(h[i], g0[i]).statistic for i in index]
    assert row["rho_change"] == pytest.approx(spearmanr(h, g1).statistic - spearmanr(h, g0).statistic)
    assert (row["rho_change_low"], row["rho_change_high"]) == pytest.approx(tuple(np.percentile(deltas, [2.5, 97.5])))


def test_shift_by_word_averages_the_posts_of_each_word():
    # G0 predictions 0, 1, 2, 3 (SD sqrt(1.25)); M1 shifts +1, −1, +2, 0; 尼玛 in posts 0, 1, 3, 卧槽 in 1 and 2
    posts = pd.DataFrame({"instance": range(4), "source": ["尼玛a", "尼玛卧槽", "b卧槽", "c尼玛"]})
    preds = pd.concat(
        [
            pd.DataFrame({"model": "m", "group": "G0", "instance": range(4), "predicted": [0.0, 1, 2, 3]}),
            pd.DataFrame({"model": "m", "group": "M1G1", "instance": range(4), "predicted": [1.0, 0, 4, 3]}),
        ]
    )
    out = rb.shift_by_word(preds, posts, n_boot=50).set_index("word")
    sd = np.sqrt(1.25)
    assert out.loc["尼玛", "n_posts"] == 3 and out.loc["尼玛", "signed_relative_shift"] == pytest.approx(0 / 3 / sd)
    assert out.loc["卧槽", "n_posts"] == 2 and out.loc["卧槽", "signed_relative_shift"] == pytest.approx(0.5 / sd)
    assert "特么" not in out.index


def test_swap_sources_is_a_seeded_derangement():
    posts = pd.DataFrame({"instance": range(5), "source": list("abcde"), "mt": list("vwxyz")})
    out = rb.swap_sources(posts, seed=1)
    assert sorted(out["source"]) == list("abcde") and (out["source"] != posts["source"]).all()
    assert out["mt"].tolist() == posts["mt"].tolist()
    assert rb.swap_sources(posts, seed=1)["source"].tolist() == out["source"].tolist()


def test_verdict_reads_the_shift_against_the_models_own_error():
    iv = pd.DataFrame(
        {
            "model": "m",
            "statistic": [
                "G0_rho",
                "swap_relative_shift",
                "homophone_to_swap",
                "abs_shift_to_error",
                "signed_relative_shift",
            ],
            "value": [0.32, 2.3, 0.08, 0.05, -0.11],
            "ci_low": [0.05, 1.9, 0.06, 0.04, -0.17],
            "ci_high": [0.55, 3.0, 0.10, 0.06, -0.06],
            "n": 51,
        }
    )
    row = rb.stability_verdicts(iv).iloc[0]
    assert row["homophone_shift"] == "within tolerance" and row["signed_shift"] == "down" and row["reads_source"]
    assert row["verdict"] == "robust" and row["ranks_posts"]
    iv.loc[3, ["value", "ci_low", "ci_high"]] = [0.12, 0.08, 0.16]  # straddles the tolerance
    row = rb.stability_verdicts(iv).iloc[0]
    assert row["homophone_shift"] == "not clearly within tolerance" and row["verdict"] == "not_shown"
    assert rb.stability_verdicts(iv, tolerance=0.2).iloc[0]["verdict"] == "robust"
    iv.loc[0, "ci_low"] = -0.1
    row = rb.stability_verdicts(iv, tolerance=0.2).iloc[0]
    assert row["verdict"] == "not_shown" and not row["ranks_posts"]
