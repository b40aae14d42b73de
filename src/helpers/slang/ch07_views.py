"""Chapter 07's tables laid out for reading (the penalty rules, the model comparison, Tables 5–6
and the stability statistics) and the labels of the model comparison's evaluations."""

from __future__ import annotations

import pandas as pd

from ..core.book import formatting

#: Labels of the model comparison's evaluations: models are chosen on dev, test is reported once.
DEV, TEST = "re-split dev", "re-split test"


def score_rule_table(summary: dict) -> pd.DataFrame:
    """The two penalty rules side by side (:func:`helpers.slang.qe_data.score_check` with the
    sheet): % of lines whose score implies exactly the rule's penalty, and the mean and
    population SD of the rule's penalty over the sheet rows, against the ones the scores imply."""
    return pd.DataFrame(
        [
            {
                "penalty": "number of errors × weight of the first listed severity",
                "lines reproduced (%)": summary["identical_penalty_share_released"],
                "mean": summary["released_rule_mean"],
                "SD": summary["released_rule_sd"],
            },
            {
                "penalty": "sum of the errors' penalties (minor 1, major 5, critical 10)",
                "lines reproduced (%)": summary["identical_penalty_share"],
                "mean": summary["sum_rule_mean"],
                "SD": summary["sum_rule_sd"],
            },
            {
                "penalty": "implied by the released scores",
                "lines reproduced (%)": float("nan"),
                "mean": summary["implied_mean"],
                "SD": summary["implied_sd"],
            },
        ]
    )


def comparison_view(comparison: pd.DataFrame | None) -> pd.DataFrame:
    """The comparison as one row per model on the re-split test; when the comparison also
    scored the re-split dev set, its ρ (``dev_rho``) orders the rows (models are chosen on dev),
    else the test ρ does (empty when there is none)."""
    columns = ["kind", "model", "rho", "pearson", "n", "seconds", "cpu_seconds"]
    if comparison is None or comparison.empty:
        return pd.DataFrame(columns=columns)
    on = comparison["evaluated_on"] if "evaluated_on" in comparison else pd.Series(TEST, index=comparison.index)
    view = comparison[on == TEST][columns]
    if (on == DEV).any():
        dev = comparison[on == DEV].set_index("model")["rho"]
        view = view.assign(dev_rho=view["model"].map(dev))
        return view.sort_values("dev_rho", ascending=False).reset_index(drop=True)
    return view.sort_values("rho", ascending=False).reset_index(drop=True)


def method1_view(method1: pd.DataFrame) -> pd.DataFrame:
    """Tables 5–6 layout: one row per group, per model ρ and r (G0) or, for M1G*, their paired
    change against G0 with its bootstrap interval and, in brackets, the paper's % change
    (shown without an interval: a ratio to a noisy G0 correlation has none worth reading)."""
    rows = []
    for group, g in method1.groupby("group", sort=False):
        row = {"group": group}
        for _, r in g.iterrows():
            for metric in ("rho", "r"):
                key = f"{r['model']}: {'ρ' if metric == 'rho' else 'r'}"
                percent = formatting.number(r[f"{metric}_pct_change"], 1, sign=True) + "%"
                if group == "G0":
                    row[key] = formatting.number(r[metric], 3)
                elif f"{metric}_change" in r:
                    row[key] = (
                        formatting.number(r[f"{metric}_change"], 3, sign=True)
                        + " "
                        + formatting.interval(r[f"{metric}_change_low"], r[f"{metric}_change_high"], 3, sign=True)
                        + f" ({percent})"
                    )
                else:
                    row[key] = percent
        rows.append(row)
    return pd.DataFrame(rows)


#: The stability statistics of the stability table, with their labels and decimals.
STABILITY_COLUMNS = {
    "G0_rho": ("G0 ρ (accuracy)", 2),
    "mean_rho_change": ("mean Δρ over M1", 3),
    "relative_shift": ("homophone |shift| (SD)", 2),
    "signed_relative_shift": ("homophone shift, signed (SD)", 2),
    "abs_shift_to_error": ("homophone |shift| / RMSE", 2),
    "swap_relative_shift": ("SWAP |shift| (SD)", 2),
    "homophone_to_swap": ("homophone / SWAP", 2),
    "M2G2_share_increased": ("M2G2 rises (%)", 0),
}


def stability_view(intervals: pd.DataFrame, verdicts: pd.DataFrame, phrase=None) -> pd.DataFrame:
    """Each statistic of :func:`helpers.slang.robustness.stability_intervals` with its
    interval, and the verdict (its key, or ``phrase("beside_verdict", key)``, its short phrase
    in the words file's verdicts table, with ``phrase`` the words'
    :meth:`~helpers.core.book.findings.Words.verdict`): one row per statistic, one column per
    evaluation and model (so that four models fit the text column)."""
    columns = {}
    keys = [c for c in ("split", "model") if c in intervals.columns]
    for key, g in intervals.groupby(keys, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        t = g.set_index("statistic")
        column = {"posts": str(int(t.loc["G0_rho", "n"]))}
        for stat, (label, decimals) in STABILITY_COLUMNS.items():
            if stat not in t.index:
                column[label] = "NA"
                continue
            value, low, high = t.loc[stat, ["value", "ci_low", "ci_high"]]
            column[label] = formatting.number(value, decimals) + (
                "" if pd.isna(low) else " " + formatting.interval(low, high, decimals)
            )
        v = verdicts
        for k, val in zip(keys, key):
            v = v[v[k] == val]
        verdict = v["verdict"].iloc[0] if len(v) else ""
        column["verdict"] = phrase("beside_verdict", verdict) if phrase and verdict else verdict
        columns[" · ".join(map(str, key))] = column
    return pd.DataFrame(columns).rename_axis("statistic").reset_index()
