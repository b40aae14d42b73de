"""Robustness of MT quality estimation (QE) to homophone perturbations (Qian et al., W-NUT 2025, §4.4).

The robustness tables computed from a model's predictions (Tables 5–7 layout), and the
percentage-change arithmetic of the paper's Tables 5–6 checked against its raw Tables 9–10, the
source-swap control and the stability statistics; the perturbations themselves and the probe that
runs models over them are :mod:`helpers.slang.perturbations`.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..core import paths
from ..core.errors import InputError
from ..core.statistics import stats
from ..core.statistics.correlation import pearson_rows


def pct_change(value: float, reference: float) -> float:
    """Percentage change of ``value`` relative to ``reference``: (value − reference) / |reference| × 100.

    Parameters
    ----------
    value : float
        The perturbed group's statistic.
    reference : float
        The same statistic on G0.

    Returns
    -------
    float
        (value − reference) / |reference| × 100; NaN when reference = 0.

    References
    ----------
    Qian et al. (2025). Automatically Generating Chinese Homophone Words to Probe Machine
    Translation Estimation Systems. W-NUT, §5.2 and Tables 5–6 (percentage changes against G0).
    """
    if reference == 0:
        return float("nan")
    return (value - reference) / abs(reference) * 100


def check_percent_changes(
    raw: pd.DataFrame | None = None, printed: pd.DataFrame | None = None, decimals: int = 2, raw_decimals: int = 4
) -> pd.DataFrame:
    """Recompute Tables 5–6 (percent change vs G0) from Tables 9–10 and compare with print.

    Returns ``model, group, metric, raw, g0, pct_change_computed, pct_change_printed, diff,
    low, high, follows``. The raw correlations are printed to ``raw_decimals`` places, so the
    true percentage lies in [low, high], the range obtained with each raw value moved by half
    a unit of its last digit; ``follows`` is False when the printed percentage (± half a
    unit of its own last digit) falls outside that range: it cannot come from Tables 9–10.

    Parameters
    ----------
    raw : pandas.DataFrame, optional
        Tables 9–10 as ``model, group, metric, value`` (the published file when omitted).
    printed : pandas.DataFrame, optional
        Tables 5–6 as ``model, group, metric, pct_change_printed`` (the published file when omitted).
    decimals : int
        Decimal places of the printed percentages.
    raw_decimals : int
        Decimal places of the raw correlations.

    Returns
    -------
    pandas.DataFrame
        One row per printed percentage: computed = :func:`pct_change` (raw, g0); with h = 0.5 ·
        10^(−raw_decimals), [low, high] = the range of pct_change(raw ± h, g0 ± h) over the four
        corners; follows = low − t ≤ printed ≤ high + t with t = 0.5 · 10^(−decimals).

    References
    ----------
    Qian et al. (2025). W-NUT, Tables 5–6 (percentage changes) and Tables 9–10 (raw correlations).
    """
    folder = paths.published_dir() / "qe_robustness"
    raw = raw if raw is not None else pd.read_csv(folder / "tables9_10_raw_correlations.csv")
    printed = printed if printed is not None else pd.read_csv(folder / "tables5_6_printed_pct_change.csv")
    g0 = raw[raw["group"] == "G0"].set_index(["model", "metric"])["value"]
    rows = []
    for _, p in printed.iterrows():
        value = raw[(raw["model"] == p["model"]) & (raw["group"] == p["group"]) & (raw["metric"] == p["metric"])]
        if len(value) != 1:
            raise InputError(f"no raw value for {p['model']} {p['group']} {p['metric']}", file="Tables 9-10")
        v, ref = float(value["value"].iloc[0]), float(g0[(p["model"], p["metric"])])
        computed = pct_change(v, ref)
        h = 0.5 * 10**-raw_decimals
        corners = [pct_change(v + dv, ref + dr) for dv in (-h, h) for dr in (-h, h)]
        low, high = min(corners), max(corners)
        shown = float(p["pct_change_printed"])
        tol = 0.5 * 10**-decimals + 1e-9
        rows.append(
            {
                "model": p["model"],
                "group": p["group"],
                "metric": p["metric"],
                "raw": v,
                "g0": ref,
                "pct_change_computed": computed,
                "pct_change_printed": shown,
                "diff": shown - computed,
                "low": low,
                "high": high,
                "follows": bool(low - tol <= shown <= high + tol),
            }
        )
    return pd.DataFrame(rows)


def share_increased(before: np.ndarray, after: np.ndarray) -> float:
    """Percent of instances whose predicted score rose (paper Table 7).

    Parameters
    ----------
    before : array_like
        Predicted scores on G0.
    after : array_like
        Predicted scores of the same instances in the perturbed group.

    Returns
    -------
    float
        100 · (1/n) Σ_i [after_i > before_i].

    References
    ----------
    Qian et al. (2025). W-NUT, §4.4.2 and Table 7.
    """
    before, after = np.asarray(before, float), np.asarray(after, float)
    return float(np.mean(after > before) * 100)


def boot_index(weights: np.ndarray) -> np.ndarray:
    """Bootstrap multiplicities (B, n) of :func:`helpers.core.statistics.stats.resample` as item indices
    (B, n): row b lists item i as often as it is drawn in resample b.

    Examples
    --------
    >>> boot_index(np.array([[2, 0, 1], [0, 3, 0]])).tolist()
    [[0, 0, 2], [1, 1, 1]]
    """
    w = np.asarray(weights, dtype=int)
    b, n = w.shape
    return np.repeat(np.tile(np.arange(n), b), w.ravel()).reshape(b, n)


def boot_correlations(human, predicted, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Spearman ρ and Pearson r of ``human`` and ``predicted`` in every bootstrap resample
    (``index`` from :func:`boot_index`); NaN where a resample has no spread.

    Parameters
    ----------
    human : array_like
        Human scores, one per item.
    predicted : array_like
        Predicted scores of the same items.
    index : numpy.ndarray
        (B, n) item indices of the resamples (:func:`boot_index`).

    Returns
    -------
    tuple of numpy.ndarray
        (ρ_b, r_b) for b = 1…B: r = Σ (x − x̄)(y − ȳ) / √(Σ (x − x̄)² Σ (y − ȳ)²) on resample b,
        ρ the same on the resample's ranks (ties averaged).

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 6 (bootstrap
    replications of a statistic).
    Spearman, C. (1904). American Journal of Psychology 15(1), 72–101.
    """
    from scipy.stats import rankdata

    h, p = np.asarray(human, float)[index], np.asarray(predicted, float)[index]
    return pearson_rows(rankdata(h, axis=1), rankdata(p, axis=1)), pearson_rows(h, p)


def robustness_table(
    predictions: pd.DataFrame, human: pd.Series, n_boot: int = 0, seed: int = 0, ci: float = 95.0
) -> pd.DataFrame:
    """Per model and group: Spearman ρ and Pearson r of the predictions with the human
    scores of the same instances, and their percentage change relative to G0 (paper
    Tables 5–6 and 9–10).

    ``predictions`` has ``instance, group, model, predicted``; ``human`` is indexed by instance.
    With ``n_boot`` > 0 the columns ``rho_pct_change_low, rho_pct_change_high,
    r_pct_change_low, r_pct_change_high`` follow: percentile intervals over bootstrap
    resamples of the posts (:func:`helpers.core.statistics.stats.resample`), the same resample for G0 and
    the group, so that the change is paired. Groups whose posts differ from G0's (M2G2 covers
    only the posts with a post-edit) are resampled among their own posts. Then the paired
    changes themselves, ``rho_change`` (ρ − ρ of G0), ``rho_change_low, rho_change_high``,
    ``r_change, r_change_low, r_change_high``: a difference of two correlations on the same
    resampled posts has a well-behaved percentile interval, while a ratio to a G0 ρ near 0 does
    not (chapter 7 reads these).

    Parameters
    ----------
    predictions : pandas.DataFrame
        ``instance, group, model, predicted``.
    human : pandas.Series
        Human scores indexed by instance.
    n_boot : int
        Bootstrap resamples of the posts (0: no intervals).
    seed : int
        Seed of the resamples.
    ci : float
        Level of the percentile intervals, in percent.

    Returns
    -------
    pandas.DataFrame
        ``model, group, n, rho, r, rho_pct_change, r_pct_change`` and the interval columns above:
        pct_change = (ρ_g − ρ_G0) / |ρ_G0| × 100, change = ρ_g − ρ_G0 (likewise for r); each interval
        is the (α/2, 1 − α/2) percentile of the statistic over the paired resamples.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.4.1, Tables 5–6 and 9–10.
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 13 (the percentile
    interval).
    """
    from scipy.stats import pearsonr, spearmanr

    rows = []
    for (model, group), g in predictions.groupby(["model", "group"], sort=False):
        h = human.loc[g["instance"]].to_numpy()
        rows.append(
            {
                "model": model,
                "group": group,
                "n": len(g),
                "rho": float(spearmanr(h, g["predicted"]).statistic),
                "r": float(pearsonr(h, g["predicted"]).statistic),
            }
        )
    out = pd.DataFrame(rows)
    g0 = out[out["group"] == "G0"].set_index("model")
    out["rho_pct_change"] = [pct_change(r, g0.loc[m, "rho"]) for m, r in zip(out["model"], out["rho"])]
    out["r_pct_change"] = [pct_change(r, g0.loc[m, "r"]) for m, r in zip(out["model"], out["r"])]
    if n_boot:
        bounds, changes = [], []
        for (model, _group), g in predictions.groupby(["model", "group"], sort=False):
            base = predictions[(predictions["model"] == model) & (predictions["group"] == "G0")].set_index("instance")
            inst = g["instance"].to_numpy()
            index = boot_index(stats.resample(len(inst), n_boot, seed))
            h = human.loc[inst].to_numpy()
            rho0, r0 = boot_correlations(h, base.loc[inst, "predicted"].to_numpy(), index)
            rho, r = boot_correlations(h, g["predicted"].to_numpy(), index)
            with np.errstate(invalid="ignore", divide="ignore"):
                d_rho, d_r = (rho - rho0) / np.abs(rho0) * 100, (r - r0) / np.abs(r0) * 100
            d_rho[~np.isfinite(d_rho)], d_r[~np.isfinite(d_r)] = np.nan, np.nan
            bounds.append([*stats.percentile_interval(d_rho, ci), *stats.percentile_interval(d_r, ci)])
            b0 = base.loc[inst, "predicted"].to_numpy()
            point = (
                spearmanr(h, g["predicted"]).statistic - spearmanr(h, b0).statistic,
                pearsonr(h, g["predicted"]).statistic - pearsonr(h, b0).statistic,
            )
            changes.append(
                [point[0], *stats.percentile_interval(rho - rho0, ci), point[1], *stats.percentile_interval(r - r0, ci)]
            )
        out[["rho_pct_change_low", "rho_pct_change_high", "r_pct_change_low", "r_pct_change_high"]] = bounds
        out[["rho_change", "rho_change_low", "rho_change_high", "r_change", "r_change_low", "r_change_high"]] = (
            np.array(changes, dtype=float)
        )
    return out


def score_shifts(predictions: pd.DataFrame) -> pd.DataFrame:
    """Each instance's predicted score in every group minus its G0 prediction (per model).

    Parameters
    ----------
    predictions : pandas.DataFrame
        ``instance, group, model, predicted``, G0 among the groups.

    Returns
    -------
    pandas.DataFrame
        The rows of the other groups with ``shift`` = predicted_g,i − predicted_G0,i.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.4 (each perturbed group is compared with G0).
    """
    base = predictions[predictions["group"] == "G0"].set_index(["model", "instance"])["predicted"]
    out = predictions[predictions["group"] != "G0"].copy()
    out["shift"] = out["predicted"].to_numpy() - base.loc[list(zip(out["model"], out["instance"]))].to_numpy()
    return out


def method2_table(predictions: pd.DataFrame) -> pd.DataFrame:
    """Per model and Method-2 group (M2G1, M2G2): the percent of instances whose predicted
    score rose compared with their G0 prediction (paper Table 7).

    Parameters
    ----------
    predictions : pandas.DataFrame
        ``instance, group, model, predicted``, G0 and the M2 groups among the groups.

    Returns
    -------
    pandas.DataFrame
        ``model, group, n, share_increased``: :func:`share_increased` of G0 and the group.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.4.2 and Table 7.
    """
    base = predictions[predictions["group"] == "G0"].set_index(["model", "instance"])["predicted"]
    rows = []
    for (model, group), g in predictions[predictions["group"].str.startswith("M2")].groupby(
        ["model", "group"], sort=False
    ):
        before = base.loc[list(zip(g["model"], g["instance"]))].to_numpy()
        rows.append(
            {
                "model": model,
                "group": group,
                "n": len(g),
                "share_increased": share_increased(before, g["predicted"].to_numpy()),
            }
        )
    return pd.DataFrame(rows, columns=["model", "group", "n", "share_increased"])


def stability_table(robust: pd.DataFrame, shifts: pd.DataFrame, method2: pd.DataFrame) -> pd.DataFrame:
    """Per model: mean |% change| of ρ and r over the Method-1 groups, mean |score shift|
    under Method 1, the G0 correlation (stability means little without accuracy) and the
    Method-2 shares of rising scores.

    Parameters
    ----------
    robust : pandas.DataFrame
        :func:`robustness_table` of G0 and the M1 groups.
    shifts : pandas.DataFrame
        :func:`score_shifts`.
    method2 : pandas.DataFrame
        :func:`method2_table`.

    Returns
    -------
    pandas.DataFrame
        Per model: mean_abs_rho_change = (1/K) Σ_k |pct_change ρ of M1G_k| (likewise for r),
        mean_abs_shift = mean over M1 rows of |shift|, ``G0_rho`` and ``<group>_share_increased``.

    References
    ----------
    Qian et al. (2025). W-NUT, §5.2, Tables 5–7.
    """
    m1 = robust[robust["group"].str.startswith("M1")]
    out = m1.groupby("model", sort=False).agg(
        mean_abs_rho_change=("rho_pct_change", lambda s: s.abs().mean()),
        mean_abs_r_change=("r_pct_change", lambda s: s.abs().mean()),
    )
    out["mean_abs_shift"] = (
        shifts[shifts["group"].str.startswith("M1")].groupby("model")["shift"].apply(lambda s: s.abs().mean())
    )
    out["G0_rho"] = robust[robust["group"] == "G0"].set_index("model")["rho"]
    for group, g in method2.groupby("group"):
        out[f"{group}_share_increased"] = g.set_index("model")["share_increased"]
    return out.reset_index()


def swap_sources(posts: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """The control group ``SWAP``: every post keeps its MT but gets the source of another post
    (a seeded derangement: no post keeps its own). A model that reads the source must change
    its score here; how far it moves is the yardstick for the homophone shifts.

    Examples
    --------
    >>> posts = pd.DataFrame({"instance": [0, 1, 2], "source": ["a", "b", "c"], "mt": ["x", "y", "z"]})
    >>> out = swap_sources(posts, seed=3)
    >>> sorted(out["source"]) == ["a", "b", "c"] and bool((out["source"] != posts["source"]).all())
    True
    """
    n = len(posts)
    if n < 2:
        return posts.copy()
    rng = np.random.default_rng(seed)
    while True:
        order = rng.permutation(n)
        if not (order == np.arange(n)).any():
            break
    return posts.assign(source=posts["source"].to_numpy()[order])


#: How :func:`stability_verdicts` reads a model's shifts.
NOT_READING = 0.1  # a swapped source moves the score by less than this (SD of its predictions): it barely reads it
ROBUST_RATIO = 0.5  # homophone |shift| below this share of the SWAP |shift| (reported, no longer decisive)
TOLERANCE = 0.1  # homophone |shift| below this share of the model's own RMSE: too small to matter for its scores


def stability_intervals(
    predictions: pd.DataFrame, human: pd.Series, n_boot: int = 2000, seed: int = 0, ci: float = 95.0
) -> pd.DataFrame:
    """Stability read together with accuracy, with bootstrap intervals over the posts.

    ``predictions`` (``instance, group, model, predicted``) holds G0, the Method-1 groups
    ``M1G*``, optionally ``M2G2`` and the control ``SWAP`` (:func:`swap_sources`); ``human``
    is indexed by instance. Per model, one row per statistic (``model, statistic, value,
    ci_low, ci_high, n``):

    * ``G0_rho``: Spearman ρ of the G0 predictions with the human scores (accuracy);
    * ``mean_abs_rho_change``: mean over M1G* of |% change of ρ| against G0 (the paper's
      "fluctuation", Tables 5–6), **without an interval** (``ci_low, ci_high`` NaN): the
      bootstrap of a mean of absolute ratios is biased upwards (every resample's noise adds to
      |change|, and a resampled G0 ρ near 0 inflates the ratio), so only a few percent of the
      resamples fall below the estimate and the percentile interval is not a confidence
      interval;
    * ``mean_rho_change``: mean over M1G* of ρ − ρ of G0 (signed), with a paired interval;
    * ``mean_abs_shift``: mean over posts and M1G* of |predicted − G0 prediction|;
    * ``prediction_sd``: the population SD of the model's own G0 predictions;
    * ``relative_shift``: ``mean_abs_shift / prediction_sd`` (a shift in units of the spread the
      model uses to tell posts apart);
    * ``signed_relative_shift``: the mean of (predicted − G0 prediction) / ``prediction_sd`` over
      posts and M1G*: whether homophones push the score one way (the MT is unchanged, so a
      systematic rise means the model scored the slang word itself, not the translation);
    * ``swap_relative_shift``: the same for ``SWAP`` (how much a model moves when the source is
      another post's: near 0 means it barely reads the source);
    * ``homophone_to_swap``: ``mean_abs_shift`` over the SWAP mean |shift|;
    * ``rmse``: root mean squared error of the G0 predictions against the human scores (the
      model's own error on these posts);
    * ``abs_shift_to_error``, ``signed_shift_to_error``: ``mean_abs_shift`` and the mean signed
      shift over ``rmse``, the absolute yardstick of :func:`stability_verdicts`;
    * ``M2G2_share_increased``: % of posts whose score rose with the post-edit as MT (Table 7),
      resampled among the posts that have one.

    Every statistic is recomputed on ``n_boot`` resamples of the posts
    (:func:`helpers.core.statistics.stats.resample`, the same draws for every group, so changes are
    paired); the interval is the percentile interval at ``ci`` %.

    Parameters
    ----------
    predictions : pandas.DataFrame
        ``instance, group, model, predicted``.
    human : pandas.Series
        Human scores indexed by instance.
    n_boot : int
        Bootstrap resamples of the posts.
    seed : int
        Seed of the resamples.
    ci : float
        Level of the percentile intervals, in percent.

    Returns
    -------
    pandas.DataFrame
        ``model, statistic, value, ci_low, ci_high, n``, the statistics above; with s_i the mean
        over M1G* of (predicted − G0 prediction) of post i and σ the population SD of the G0
        predictions: relative_shift = mean_i |…| / σ, signed_relative_shift = mean_i s_i / σ,
        rmse = √(mean_i (G0_i − human_i)²), abs_shift_to_error = mean_abs_shift / rmse.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.4 and §5.2 (the groups, the percentage changes, Table 7).
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 13 (the percentile
    interval).
    """
    rows = []
    for model, p in predictions.groupby("model", sort=False):
        wide = p.pivot_table(index="instance", columns="group", values="predicted", aggfunc="first", sort=False)
        base = wide["G0"].dropna()
        inst = base.index.to_numpy()
        n = len(inst)
        h = human.loc[inst].to_numpy(dtype=float)
        g0 = base.to_numpy(dtype=float)
        index = boot_index(stats.resample(n, n_boot, seed))
        m1 = [g for g in wide.columns if str(g).startswith("M1")]
        rho0, _ = boot_correlations(h, g0, index)
        from scipy.stats import spearmanr

        point = {"G0_rho": float(spearmanr(h, g0).statistic)}
        boot = {"G0_rho": rho0}
        if m1:
            shifts = np.abs(wide.loc[inst, m1].to_numpy(dtype=float) - g0[:, None])
            changes, deltas, deltas_b = [], [], []
            for g in m1:
                rho_g = float(spearmanr(h, wide.loc[inst, g]).statistic)
                changes.append(abs(pct_change(rho_g, point["G0_rho"])))
                deltas.append(rho_g - point["G0_rho"])
                rb_, _ = boot_correlations(h, wide.loc[inst, g].to_numpy(dtype=float), index)
                deltas_b.append(rb_ - rho0)
            point["mean_abs_rho_change"] = float(np.mean(changes))
            boot["mean_abs_rho_change"] = None  # no valid percentile interval (see the docstring)
            point["mean_rho_change"] = float(np.mean(deltas))
            with warnings.catch_warnings():  # a resample in which ρ is undefined in every group stays NaN
                warnings.simplefilter("ignore", RuntimeWarning)
                boot["mean_rho_change"] = np.nanmean(np.vstack(deltas_b), axis=0)
            per_post = shifts.mean(axis=1)
            point["mean_abs_shift"] = float(per_post.mean())
            boot["mean_abs_shift"] = per_post[index].mean(axis=1)
            signed = (wide.loc[inst, m1].to_numpy(dtype=float) - g0[:, None]).mean(axis=1)
        # numpy floats, so that a model with constant predictions (SD 0) or without error (RMSE 0) gets inf or NaN
        # ratios, as its resamples do, instead of a ZeroDivisionError
        point["prediction_sd"] = g0.std()
        boot["prediction_sd"] = g0[index].std(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            if m1:
                point["relative_shift"] = point["mean_abs_shift"] / point["prediction_sd"]
                boot["relative_shift"] = boot["mean_abs_shift"] / boot["prediction_sd"]
                point["signed_relative_shift"] = float(signed.mean()) / point["prediction_sd"]
                boot["signed_relative_shift"] = signed[index].mean(axis=1) / boot["prediction_sd"]
            if "SWAP" in wide.columns:
                swap = np.abs(wide.loc[inst, "SWAP"].to_numpy(dtype=float) - g0)
                point["swap_relative_shift"] = swap.mean() / point["prediction_sd"]
                boot["swap_relative_shift"] = swap[index].mean(axis=1) / boot["prediction_sd"]
                if m1:
                    point["homophone_to_swap"] = point["mean_abs_shift"] / swap.mean()
                    boot["homophone_to_swap"] = boot["mean_abs_shift"] / swap[index].mean(axis=1)
        point["rmse"] = np.sqrt(((g0 - h) ** 2).mean())
        boot["rmse"] = np.sqrt(((g0 - h)[index] ** 2).mean(axis=1))
        if m1:
            with np.errstate(invalid="ignore", divide="ignore"):
                point["abs_shift_to_error"] = point["mean_abs_shift"] / point["rmse"]
                boot["abs_shift_to_error"] = boot["mean_abs_shift"] / boot["rmse"]
                point["signed_shift_to_error"] = float(signed.mean()) / point["rmse"]
                boot["signed_shift_to_error"] = signed[index].mean(axis=1) / boot["rmse"]
        for name, value in point.items():
            if boot[name] is None:
                rows.append(
                    {
                        "model": model,
                        "statistic": name,
                        "value": float(value),
                        "ci_low": np.nan,
                        "ci_high": np.nan,
                        "n": n,
                    }
                )
                continue
            low, high = stats.percentile_interval(np.where(np.isfinite(boot[name]), boot[name], np.nan), ci)
            rows.append(
                {"model": model, "statistic": name, "value": float(value), "ci_low": low, "ci_high": high, "n": n}
            )
        if "M2G2" in wide.columns:
            edited = wide["M2G2"].dropna()
            up = (edited.to_numpy(dtype=float) > wide.loc[edited.index, "G0"].to_numpy(dtype=float)).astype(float)
            idx2 = boot_index(stats.resample(len(up), n_boot, seed))
            low, high = stats.percentile_interval(up[idx2].mean(axis=1) * 100, ci)
            rows.append(
                {
                    "model": model,
                    "statistic": "M2G2_share_increased",
                    "value": float(up.mean() * 100),
                    "ci_low": low,
                    "ci_high": high,
                    "n": len(up),
                }
            )
    return pd.DataFrame(rows, columns=["model", "statistic", "value", "ci_low", "ci_high", "n"])


def stability_verdicts(intervals: pd.DataFrame, tolerance: float = TOLERANCE) -> pd.DataFrame:
    """A reading of :func:`stability_intervals` per model, as keys (``model, ranks_posts,
    reads_source, homophones, better_mt, verdict, homophone_shift, signed_shift``); the words
    of chapter 07 (its ``## verdicts`` table) turn the keys into phrases.

    * ``ranks_posts``: the G0 ρ interval lies above 0;
    * ``reads_source``: a swapped source moves the score by at least :data:`NOT_READING` of the
      model's own spread (lower bound of ``swap_relative_shift``); unknown without SWAP;
    * ``homophones``: homophones against the SWAP control (reported, not decisive: a swapped
      source is an extreme perturbation, so a shift much smaller than a new source's is a weak
      standard): ``"much_smaller"`` when the upper bound of ``homophone_to_swap`` is below
      :data:`ROBUST_RATIO`, ``"half_or_more"`` when its lower bound is at or above it, else
      ``"unclear"``;
    * ``homophone_shift``: against an absolute tolerance, the model's own error:
      ``"within tolerance"`` when the upper bound of ``abs_shift_to_error`` (mean |shift| /
      RMSE) is below ``tolerance``, ``"beyond tolerance"`` when its lower bound is at or above
      it, else ``"not clearly within tolerance"``;
    * ``signed_shift``: ``"up"`` or ``"down"`` when the interval of ``signed_relative_shift``
      excludes 0 (homophones push the score one way although the MT is unchanged), else
      ``"no clear direction"``;
    * ``better_mt``: the M2G2 share interval above 50 % ("rises"), below ("falls") or around it
      ("no clear change");
    * ``verdict``: ``"not_reacting"`` (stable by not reacting) when the model does not read the
      source (then no homophone can move it, and its stability says nothing about robustness),
      ``"robust"`` (robust to homophones) when it ranks the posts, reads the source and
      homophones move its scores by less than ``tolerance`` of its own error, else
      ``"not_shown"`` (not shown robust).

    Parameters
    ----------
    intervals : pandas.DataFrame
        :func:`stability_intervals`.
    tolerance : float
        Largest mean |shift| / RMSE read as too small to matter.

    Returns
    -------
    pandas.DataFrame
        ``model, ranks_posts, reads_source, homophones, better_mt, verdict, homophone_shift,
        signed_shift``: each a comparison of an interval's bounds with a fixed threshold, as listed.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.4 (robust QE: scores of the perturbed groups close to G0's).

    Examples
    --------
    >>> iv = pd.DataFrame({"model": "m", "statistic": ["G0_rho", "swap_relative_shift", "homophone_to_swap"],
    ...                    "value": [0.3, 0.02, 0.9], "ci_low": [0.1, 0.01, 0.5], "ci_high": [0.5, 0.03, 1.2],
    ...                    "n": 24})
    >>> stability_verdicts(iv)["verdict"].iloc[0]
    'not_reacting'
    """
    rows = []
    for model, g in intervals.groupby("model", sort=False):
        t = g.set_index("statistic")

        def get(name, col, t=t):
            return float(t.loc[name, col]) if name in t.index else float("nan")

        ranks = get("G0_rho", "ci_low") > 0
        reads = None if "swap_relative_shift" not in t.index else get("swap_relative_shift", "ci_low") >= NOT_READING
        ratio_hi, ratio_lo = get("homophone_to_swap", "ci_high"), get("homophone_to_swap", "ci_low")
        homophones = (
            "unknown"
            if np.isnan(ratio_hi)
            else "much_smaller"
            if ratio_hi < ROBUST_RATIO
            else "half_or_more"
            if ratio_lo >= ROBUST_RATIO
            else "unclear"
        )
        err_lo, err_hi = (get("abs_shift_to_error", c) for c in ("ci_low", "ci_high"))
        shift = (
            "unknown"
            if np.isnan(err_hi)
            else "within tolerance"
            if err_hi < tolerance
            else "beyond tolerance"
            if err_lo >= tolerance
            else "not clearly within tolerance"
        )
        s_lo, s_hi = (get("signed_relative_shift", c) for c in ("ci_low", "ci_high"))
        signed = "unknown" if np.isnan(s_lo) else "up" if s_lo > 0 else "down" if s_hi < 0 else "no clear direction"
        lo, hi = get("M2G2_share_increased", "ci_low"), get("M2G2_share_increased", "ci_high")
        better = "unknown" if np.isnan(lo) else "rises" if lo > 50 else "falls" if hi < 50 else "no clear change"
        if reads is False:
            verdict = "not_reacting"
        elif ranks and reads and shift == "within tolerance":
            verdict = "robust"
        else:
            verdict = "not_shown"
        rows.append(
            {
                "model": model,
                "ranks_posts": bool(ranks),
                "reads_source": reads,
                "homophones": homophones,
                "better_mt": better,
                "verdict": verdict,
                "homophone_shift": shift,
                "signed_shift": signed,
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "model",
            "ranks_posts",
            "reads_source",
            "homophones",
            "better_mt",
            "verdict",
            "homophone_shift",
            "signed_shift",
        ],
    )


def shift_by_word(
    predictions: pd.DataFrame, posts: pd.DataFrame, n_boot: int = 2000, seed: int = 0, ci: float = 95.0
) -> pd.DataFrame:
    """The signed homophone shift per slang word: for every model and word, the posts whose
    source contains it, each post's mean over M1G* of (predicted − G0 prediction) in SDs of the
    model's G0 predictions (as ``signed_relative_shift``), averaged over those posts, with a
    percentile interval over ``n_boot`` resamples of them. A post with several slang words has
    all of them replaced in each group, so it counts under each of its words.

    Returns ``model, word, n_posts, signed_relative_shift, ci_low, ci_high``.

    Parameters
    ----------
    predictions : pandas.DataFrame
        ``instance, group, model, predicted``.
    posts : pandas.DataFrame
        ``instance, source`` of the posts.
    n_boot : int
        Bootstrap resamples of each word's posts.
    seed : int
        Seed of the resamples.
    ci : float
        Level of the percentile intervals, in percent.

    Returns
    -------
    pandas.DataFrame
        ``model, word, n_posts, signed_relative_shift, ci_low, ci_high``: (1/m) Σ_i s_i / σ over the
        m posts containing the word, s_i and σ as in :func:`stability_intervals`.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.4.1 (Method 1).
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 13 (the percentile
    interval).
    """
    from .homophone_data import SLANG

    rows = []
    for model, p in predictions.groupby("model", sort=False):
        wide = p.pivot_table(index="instance", columns="group", values="predicted", aggfunc="first", sort=False)
        m1 = [g for g in wide.columns if str(g).startswith("M1")]
        if not m1:
            continue
        g0 = wide["G0"]
        per_post = (wide[m1].sub(g0, axis=0).mean(axis=1) / g0.std(ddof=0)).dropna()
        source = posts.set_index("instance").loc[per_post.index, "source"]
        for word in SLANG:
            values = per_post[source.str.contains(word, regex=False).to_numpy()].to_numpy(dtype=float)
            if not len(values):
                continue
            boot = stats.weighted_mean(values, stats.resample(len(values), n_boot, seed))
            low, high = stats.percentile_interval(boot, ci)
            rows.append(
                {
                    "model": model,
                    "word": word,
                    "n_posts": len(values),
                    "signed_relative_shift": float(values.mean()),
                    "ci_low": low,
                    "ci_high": high,
                }
            )
    return pd.DataFrame(rows, columns=["model", "word", "n_posts", "signed_relative_shift", "ci_low", "ci_high"])
