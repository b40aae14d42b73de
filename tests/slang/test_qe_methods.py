"""Chapter 7 methods: how the released scores were built, the leakage-free re-split, and
stability read with accuracy (bootstrap intervals over posts). Hand-made cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import pearsonr, spearmanr

from helpers.core import stats
from helpers.slang import qe_data
from helpers.slang import robustness as rb


def test_released_rule_against_the_sum_by_hand():
    # number of errors x weight of the first listed severity; the sum weighs every error
    cases = {("Major", "Critical"): (10, 15), ("Critical", "Minor"): (20, 11), ("Minor", "Minor"): (2, 2),
             ("Critical", "Major", "Critical"): (30, 25), (): (0, 0), ("Minor",): (1, 1)}
    for severities, (released, total) in cases.items():
        assert qe_data.released_penalty(list(severities)) == released
        assert qe_data.severity_penalty(list(severities)) == total
        assert qe_data.mixed_severities(list(severities)) == (released != total)


def _sheet_and_lines():
    sheet = pd.DataFrame({"source": ["a", "b", "c", "d", "e", "f"],
                          "error_severities": [[], ["Minor"], ["Major"], ["Critical"], ["Major", "Critical"],
                                               ["Critical", "Minor"]]})
    released = sheet["error_severities"].map(qe_data.released_penalty)  # 0, 1, 5, 10, 10, 20
    z = (released.mean() - released) / released.std(ddof=0)
    lines = sheet.assign(score=z)
    return sheet, lines


def test_score_check_finds_the_released_rule():
    sheet, lines = _sheet_and_lines()
    summary, patterns = qe_data.score_check(lines, sheet)
    assert summary["released_rule_share"] == 100.0 and summary["released_rule_share_any_row"] == 100.0
    assert summary["identical_penalty_share_released"] == 100.0
    # the two mixed rows are the ones the sum scores differently: 4 of 6 lines keep their penalty
    assert summary["identical_penalty_share"] == pytest.approx(400 / 6)
    assert summary["mixed_severity_lines"] == 2 and summary["mixed_severity_sheet_rows"] == 2
    assert summary["released_rule_mean"] == pytest.approx(46 / 6)
    assert summary["implied_mean"] == pytest.approx(46 / 6) and summary["implied_sd"] == pytest.approx(
        np.std([0, 1, 5, 10, 10, 20]))
    assert summary["sum_rule_mean"] == pytest.approx(42 / 6) and summary["sum_rule_share"] < 100
    assert set(patterns["severities"]) == {"Major; Critical", "Critical; Minor"}
    row = patterns.set_index("severities").loc["Critical; Minor"]
    assert (row["sheet_penalty"], row["implied_penalty"], row["released_rule_penalty"]) == (11, 20, 20)
    first = list(summary)[:9]  # the published columns of score_check.csv come first, in their order
    assert first == ["lines", "step_per_penalty_point", "implied_sd", "implied_mean", "slope", "intercept",
                     "identical_penalty_share", "sheet_penalty_mean", "sheet_penalty_sd"]


def test_with_targets_takes_the_sheet_row_the_score_came_from():
    sheet, lines = _sheet_and_lines()
    # the sheet annotates source "b" a second time, differently; align() takes the first row
    sheet2 = pd.concat([sheet, pd.DataFrame({"source": ["b"], "error_severities": [["Critical"]]})],
                       ignore_index=True)
    rel = sheet2["error_severities"].map(qe_data.released_penalty)
    score_b = (rel.mean() - 10) / rel.std(ddof=0)  # the line of "b" was scored from its second row
    merged = pd.DataFrame({"source": ["b", "e", "a"], "error_severities": [["Minor"], ["Major", "Critical"], []],
                           "score": [score_b, (rel.mean() - 10) / rel.std(ddof=0), rel.mean() / rel.std(ddof=0)]})
    summary, _ = qe_data.score_check(merged, sheet2)
    assert summary["released_rule_share"] == pytest.approx(200 / 3)
    assert summary["released_rule_share_any_row"] == 100.0
    out = qe_data.with_targets(merged, sheet2)
    assert out["error_severities"].tolist() == [["Critical"], ["Major", "Critical"], []]
    np.testing.assert_allclose(out["score_released_rule"], merged["score"])
    total = sheet2["error_severities"].map(qe_data.severity_penalty)
    np.testing.assert_allclose(out["score_sum"], (total.mean() - np.array([10, 15, 0])) / total.std(ddof=0))


def test_model_splits_target():
    splits = pd.DataFrame({"split": ["train", "test"], "source": ["尼玛 好", "天 啊"], "mt": ["do n't", "ok ."],
                           "score": [1.0, 2.0], "score_sum": [3.0, 4.0]})
    train, _, test, clean = qe_data.model_splits(splits, target="score_sum")
    assert train["score"].tolist() == [3.0] and test["mt"].tolist() == ["ok."] and len(clean) == 1


def test_grouped_resplit_keeps_sources_together():
    rng = np.random.default_rng(0)
    sources = [f"s{i}" for i in rng.integers(0, 300, 1000)]
    lines = pd.DataFrame({"split": rng.choice(["train", "dev", "test"], 1000, p=[0.72, 0.08, 0.2]),
                          "source": sources, "mt": [f"m{s}" for s in sources], "score": rng.normal(size=1000)})
    out = qe_data.grouped_resplit(lines, seed=3)
    assert out.groupby("source")["split"].nunique().max() == 1
    assert len(out) == len(lines.drop_duplicates(["source", "mt", "score"]))
    shares = out["split"].value_counts(normalize=True)
    wanted = lines["split"].value_counts(normalize=True)
    for s in ("train", "dev", "test"):
        assert abs(shares[s] - wanted[s]) < 0.03
    again = qe_data.grouped_resplit(lines, seed=3)
    assert again["split"].tolist() == out["split"].tolist()  # seeded
    assert qe_data.grouped_resplit(lines, seed=4)["split"].tolist() != out["split"].tolist()
    assert set(out["released_split"]) == {"train", "dev", "test"}
    sizes = qe_data.split_sizes({s: out[out["split"] == s] for s in ("train", "dev", "test")})
    assert sizes["sources_also_in_train"].tolist() == [0, 0, 0]


def test_split_sizes_counts_leaked_sources():
    train = pd.DataFrame({"source": ["a", "b", "b"]})
    test = pd.DataFrame({"source": ["b", "c", "c"]})
    sizes = qe_data.split_sizes({"train": train, "test": test})
    assert sizes.to_dict("records") == [{"split": "train", "lines": 3, "sources": 2, "sources_also_in_train": 0},
                                        {"split": "test", "lines": 3, "sources": 2, "sources_also_in_train": 1}]


def test_boot_correlations_match_scipy_on_a_resample():
    rng = np.random.default_rng(1)
    h, p = rng.normal(size=12), rng.normal(size=12)
    w = np.array([np.bincount(rng.integers(0, 12, 12), minlength=12) for _ in range(3)])
    index = rb.boot_index(w)
    rho, r = rb.boot_correlations(h, p, index)
    for b in range(3):
        assert rho[b] == pytest.approx(spearmanr(h[index[b]], p[index[b]]).statistic)
        assert r[b] == pytest.approx(pearsonr(h[index[b]], p[index[b]]).statistic)


def _toy_predictions(shift: float = 0.1, error: float = 0.25):
    """Two models on 6 posts: 'reader' ranks the posts (its G0 misses each human score by
    ± ``error``, so its RMSE is ``error``) and moves by ± ``shift`` for homophones and by ±3 for
    a swapped source; 'blind' gives the same score whatever the source."""
    human = pd.Series([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    rows = []
    for i, h in enumerate(human):
        g0 = h + (error if i % 2 == 0 else -error)
        rows += [("reader", "G0", i, g0), ("reader", "M1G1", i, g0 + shift), ("reader", "M1G2", i, g0 - shift),
                 ("reader", "SWAP", i, g0 + (3.0 if i % 2 else -3.0)), ("reader", "M2G2", i, g0 + 1.0),
                 ("blind", "G0", i, 0.5 * (i % 3)), ("blind", "M1G1", i, 0.5 * (i % 3)),
                 ("blind", "M1G2", i, 0.5 * (i % 3)), ("blind", "SWAP", i, 0.5 * (i % 3)),
                 ("blind", "M2G2", i, 0.5 * (i % 3) - 0.1)]
    return pd.DataFrame(rows, columns=["model", "group", "instance", "predicted"]), human


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
    preds = pd.concat([pd.DataFrame({"model": "m", "group": g, "instance": range(n), "predicted": v})
                       for g, v in (("G0", g0), ("M1G1", g1))], ignore_index=True)
    row = rb.robustness_table(preds, human, n_boot=n_boot, seed=3).set_index("group").loc["M1G1"]
    index = rb.boot_index(stats.resample(n, n_boot, 3))
    h = human.to_numpy()
    deltas = [spearmanr(h[i], g1[i]).statistic - spearmanr(h[i], g0[i]).statistic for i in index]
    assert row["rho_change"] == pytest.approx(spearmanr(h, g1).statistic - spearmanr(h, g0).statistic)
    assert (row["rho_change_low"], row["rho_change_high"]) == pytest.approx(tuple(np.percentile(deltas, [2.5, 97.5])))


def test_shift_by_word_averages_the_posts_of_each_word():
    # G0 predictions 0, 1, 2, 3 (SD sqrt(1.25)); M1 shifts +1, −1, +2, 0; 尼玛 in posts 0, 1, 3, 卧槽 in 1 and 2
    posts = pd.DataFrame({"instance": range(4), "source": ["尼玛a", "尼玛卧槽", "b卧槽", "c尼玛"]})
    preds = pd.concat([pd.DataFrame({"model": "m", "group": "G0", "instance": range(4), "predicted": [0., 1, 2, 3]}),
                       pd.DataFrame({"model": "m", "group": "M1G1", "instance": range(4), "predicted": [1., 0, 4, 3]})])
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
    iv = pd.DataFrame({"model": "m", "statistic": ["G0_rho", "swap_relative_shift", "homophone_to_swap",
                                                  "abs_shift_to_error", "signed_relative_shift"],
                       "value": [0.32, 2.3, 0.08, 0.05, -0.11], "ci_low": [0.05, 1.9, 0.06, 0.04, -0.17],
                       "ci_high": [0.55, 3.0, 0.10, 0.06, -0.06], "n": 51})
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


def test_shift_figures_in_units_of_each_models_spread():
    import matplotlib.pyplot as plt

    from helpers.core import plots
    from helpers.slang import figures

    preds, _ = _toy_predictions()
    shifts = rb.score_shifts(preds)
    spread = preds[preds["group"] == "G0"].groupby("model")["predicted"].std(ddof=0)
    fig = figures.shift_figure(shifts, spread, "toy")
    assert [t.name for t in fig.data] == ["reader", "blind"]
    reader = fig.data[0]
    assert list(dict.fromkeys(reader.x)) == ["M1G1", "M1G2", "M2G2 (post-edit)", "SWAP (another post's source)"]
    np.testing.assert_allclose(sorted(set(np.round(reader.y[:12], 6))), sorted({round(0.1 / spread["reader"], 6),
                                                                               round(-0.1 / spread["reader"], 6)}))
    assert fig.data[0].marker.color != fig.data[1].marker.color
    static = plots.static(fig)
    assert static.axes[0].get_title() == "toy"
    plt.close(static)
