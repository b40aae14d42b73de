"""Robustness of MT quality estimation (QE) to homophone perturbations (Qian et al., W-NUT 2025, §4.4).

This module holds the parts of the QE-robustness study that do not need a trained QE model:
the percentage-change arithmetic of the paper's Tables 5–6, checked against its raw
Tables 9–10, and the perturbation of source texts (Method 1).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from . import paths


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
            raise ValueError(f"no raw value for {p['model']} {p['group']} {p['metric']}")
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


def replace_spans(text: str, replacements: Mapping[str, str]) -> tuple[str, list[tuple[int, int, str, str]]]:
    """Replace every occurrence of each key in ``text`` (longest keys first, left to right,
    no overlaps, no rewriting of inserted text).

    Returns the new text and the list of edits ``(start, end, old, new)`` with offsets in
    the *original* text, so word-level tags can be realigned.
    """
    keys = sorted(replacements, key=len, reverse=True)
    edits, out, i = [], [], 0
    while i < len(text):
        match = next((k for k in keys if k and text.startswith(k, i)), None)
        if match is None:
            out.append(text[i])
            i += 1
            continue
        edits.append((i, i + len(match), match, replacements[match]))
        out.append(replacements[match])
        i += len(match)
    return "".join(out), edits


def perturb_sources(sources: pd.Series, homophones: Mapping[str, list[str]], k: int) -> pd.DataFrame:
    """Method 1 group M1G<k>: every slang word replaced by its k-th homophone (1-based).

    Returns ``source, perturbed, n_replacements`` aligned with ``sources``.
    """
    mapping = {w: h[k - 1] for w, h in homophones.items() if len(h) >= k}
    done = [replace_spans(s, mapping) for s in sources]
    return pd.DataFrame({"source": sources.to_numpy(), "perturbed": [d[0] for d in done],
                         "n_replacements": [len(d[1]) for d in done]}, index=sources.index)


def share_increased(before: np.ndarray, after: np.ndarray) -> float:
    """Percent of instances whose predicted score rose (paper Table 7)."""
    before, after = np.asarray(before, float), np.asarray(after, float)
    return float(np.mean(after > before) * 100)
