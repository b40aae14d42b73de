"""Robustness of MT quality estimation (QE) to homophone perturbations (Qian et al., W-NUT 2025, §4.4).

The perturbations (Method 1: homophones in the source; Method 2: better translations),
the robustness tables computed from a model's predictions (Tables 5–7 layout), and the
percentage-change arithmetic of the paper's Tables 5–6 checked against its raw Tables 9–10.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..core import paths
from ..core.errors import InputError
from .homophones import replace_spans
from .qe_data import source_key


def pct_change(value: float, reference: float) -> float:
    """Percentage change of ``value`` relative to ``reference``: (value − reference) / |reference| × 100."""
    if reference == 0:
        return float("nan")
    return (value - reference) / abs(reference) * 100


def check_percent_changes(raw: pd.DataFrame | None = None, printed: pd.DataFrame | None = None,
                          decimals: int = 2, raw_decimals: int = 4) -> pd.DataFrame:
    """Recompute Tables 5–6 (percent change vs G0) from Tables 9–10 and compare with print.

    Returns ``model, group, metric, raw, g0, pct_change_computed, pct_change_printed, diff,
    low, high, follows``. The raw correlations are printed to ``raw_decimals`` places, so the
    true percentage lies in [low, high], the range obtained with each raw value moved by half
    a unit of its last digit; ``follows`` is False when the printed percentage (± half a
    unit of its own last digit) falls outside that range: it cannot come from Tables 9–10.
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
        rows.append({"model": p["model"], "group": p["group"], "metric": p["metric"], "raw": v, "g0": ref,
                     "pct_change_computed": computed, "pct_change_printed": shown, "diff": shown - computed,
                     "low": low, "high": high, "follows": bool(low - tol <= shown <= high + tol)})
    return pd.DataFrame(rows)


def slang_instances(data: pd.DataFrame, train: pd.DataFrame, instances: str = "held_out") -> pd.DataFrame:
    """The posts the perturbations are applied to: those containing a slang word, once per
    source, numbered ``instance``. ``"held_out"``: only dev/test posts whose source is not in
    ``train`` (the models never saw them); ``"all"``: every post (including training posts)."""
    from .homophones import SLANG

    pool = data[data["split"] != "train"] if instances == "held_out" else data
    if instances == "held_out":
        pool = pool[~pool["source"].isin(train["source"])]
    chosen = pool[pool["source"].str.contains("|".join(SLANG))].drop_duplicates("source").reset_index(drop=True)
    chosen["instance"] = range(len(chosen))
    return chosen


def predict_groups(models: dict, groups: dict) -> pd.DataFrame:
    """``instance, group, model, predicted`` for every model on every perturbation group."""
    frames = []
    for name, model in models.items():
        for group, frame in groups.items():
            frames.append(pd.DataFrame({"instance": frame["instance"].to_numpy(), "group": group, "model": name,
                                        "predicted": model.predict(frame)}))
    return pd.concat(frames, ignore_index=True)


def perturb_sources(sources: pd.Series, homophones: Mapping[str, list[str]], k: int) -> pd.DataFrame:
    """Method 1 group M1G<k>: every slang word replaced by its k-th homophone (1-based).

    Returns ``source, perturbed, n_replacements`` aligned with ``sources``.
    """
    mapping = {w: h[k - 1] for w, h in homophones.items() if len(h) >= k}
    done = [replace_spans(s, mapping) for s in sources]
    return pd.DataFrame({"source": sources.to_numpy(), "perturbed": [d[0] for d in done],
                         "n_replacements": [len(d[1]) for d in done]}, index=sources.index)


def perturbation_groups(posts: pd.DataFrame, homophones: Mapping[str, list[str]], post_edits: pd.DataFrame,
                        corrected: pd.DataFrame | None = None, k_max: int = 5) -> dict[str, pd.DataFrame]:
    """The paper's groups for ``posts`` (``instance, source, mt, score``; sources unsegmented):

    * ``G0``: the posts as they are;
    * ``M1G1``…``M1G<k_max>``: every slang word replaced by its k-th homophone (:func:`perturb_sources`);
    * ``M2G2``: the MT replaced by the post-edited reference (``post_edits``: source, post_edit),
      for the posts that have a non-empty one;
    * ``M2G1``: the MT replaced by a slang-only correction, when ``corrected`` (source, mt) is given.
    """
    groups = {"G0": posts}
    for k in range(1, k_max + 1):
        groups[f"M1G{k}"] = posts.assign(source=perturb_sources(posts["source"], homophones, k)["perturbed"])
    edits = post_edits.assign(source=post_edits["source"].map(source_key)).drop_duplicates("source")
    with_edit = posts.merge(edits[["source", "post_edit"]], on="source", how="inner")
    with_edit = with_edit[with_edit["post_edit"].str.strip() != ""]
    groups["M2G2"] = with_edit.assign(mt=with_edit["post_edit"]).drop(columns="post_edit")
    if corrected is not None:
        fixed = corrected.assign(source=corrected["source"].map(source_key))[["source", "mt"]]
        groups["M2G1"] = posts.drop(columns="mt").merge(fixed, on="source", how="inner")
    return groups


def share_increased(before: np.ndarray, after: np.ndarray) -> float:
    """Percent of instances whose predicted score rose (paper Table 7)."""
    before, after = np.asarray(before, float), np.asarray(after, float)
    return float(np.mean(after > before) * 100)


def robustness_table(predictions: pd.DataFrame, human: pd.Series) -> pd.DataFrame:
    """Per model and group: Spearman ρ and Pearson r of the predictions with the human
    scores of the same instances, and their percentage change relative to G0.

    ``predictions`` has ``instance, group, model, predicted``; ``human`` is indexed by instance.
    """
    from scipy.stats import pearsonr, spearmanr

    rows = []
    for (model, group), g in predictions.groupby(["model", "group"], sort=False):
        h = human.loc[g["instance"]].to_numpy()
        rows.append({"model": model, "group": group, "n": len(g),
                     "rho": float(spearmanr(h, g["predicted"]).statistic),
                     "r": float(pearsonr(h, g["predicted"]).statistic)})
    out = pd.DataFrame(rows)
    g0 = out[out["group"] == "G0"].set_index("model")
    out["rho_pct_change"] = [pct_change(r, g0.loc[m, "rho"]) for m, r in zip(out["model"], out["rho"])]
    out["r_pct_change"] = [pct_change(r, g0.loc[m, "r"]) for m, r in zip(out["model"], out["r"])]
    return out

def score_shifts(predictions: pd.DataFrame) -> pd.DataFrame:
    """Each instance's predicted score in every group minus its G0 prediction (per model)."""
    base = predictions[predictions["group"] == "G0"].set_index(["model", "instance"])["predicted"]
    out = predictions[predictions["group"] != "G0"].copy()
    out["shift"] = out["predicted"].to_numpy() - base.loc[list(zip(out["model"], out["instance"]))].to_numpy()
    return out

def method2_table(predictions: pd.DataFrame) -> pd.DataFrame:
    """Per model and Method-2 group (M2G1, M2G2): the percent of instances whose predicted
    score rose compared with their G0 prediction (paper Table 7)."""
    base = predictions[predictions["group"] == "G0"].set_index(["model", "instance"])["predicted"]
    rows = []
    for (model, group), g in predictions[predictions["group"].str.startswith("M2")].groupby(["model", "group"],
                                                                                          sort=False):
        before = base.loc[list(zip(g["model"], g["instance"]))].to_numpy()
        rows.append({"model": model, "group": group, "n": len(g),
                     "share_increased": share_increased(before, g["predicted"].to_numpy())})
    return pd.DataFrame(rows, columns=["model", "group", "n", "share_increased"])

def stability_table(robust: pd.DataFrame, shifts: pd.DataFrame, method2: pd.DataFrame) -> pd.DataFrame:
    """Per model: mean |% change| of ρ and r over the Method-1 groups, mean |score shift|
    under Method 1, the G0 correlation (stability means little without accuracy) and the
    Method-2 shares of rising scores."""
    m1 = robust[robust["group"].str.startswith("M1")]
    out = m1.groupby("model", sort=False).agg(mean_abs_rho_change=("rho_pct_change", lambda s: s.abs().mean()),
                                               mean_abs_r_change=("r_pct_change", lambda s: s.abs().mean()))
    out["mean_abs_shift"] = shifts[shifts["group"].str.startswith("M1")].groupby("model")["shift"].apply(
        lambda s: s.abs().mean())
    out["G0_rho"] = robust[robust["group"] == "G0"].set_index("model")["rho"]
    for group, g in method2.groupby("group"):
        out[f"{group}_share_increased"] = g.set_index("model")["share_increased"]
    return out.reset_index()
