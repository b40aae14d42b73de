"""Chapter 09's figures, each an interactive plotly figure with a static matplotlib twin
(:mod:`helpers.core.plots` shows the first offline; :class:`helpers.core.Results` saves the second)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..core import plots

#: Chapter 09's colours, one per metric (a metric computed elsewhere takes the fallback cycle's).
COLOURS = {"metric bleu": "#1f4e9a", "metric chrf": "#d95f02", "metric chrfpp": "#1b9e77", "metric ter": "#7570b3",
           "metric embed": "#e7298a"}
plots.register_colours(COLOURS)
#: The statistics the correlation figure shows, with their axis labels.
SHOWN = {"pearson": "system Pearson r", "kendall_tau_b": "system Kendall τ", "pearson_flat": "segment r (flat)",
         "pearson_item": "segment r (per item)", "acc_eq_item": "tie-calibrated accuracy"}
_MARKERS = "osD^v"


def _correlations(table: pd.DataFrame) -> pd.DataFrame:
    """The shown statistics with their labels and error-bar lengths (0 where an interval is missing or,
    for a degenerate resample, does not hold the estimate)."""
    t = table[table["statistic"].isin(SHOWN)].copy()
    t["label"] = t["statistic"].map(SHOWN)
    t["above"] = (t["ci_high"] - t["estimate"]).clip(lower=0).fillna(0)
    t["below"] = (t["estimate"] - t["ci_low"]).clip(lower=0).fillna(0)
    return t


def correlations(table: pd.DataFrame, title: str = "") -> go.Figure:
    """Each metric's agreement with the human scores (:func:`helpers.metrics.meta.meta_evaluate`),
    one row per statistic, one marker per metric, with its bootstrap interval."""
    t = _correlations(table)
    fig = go.Figure()
    for metric, part in t.groupby("metric", sort=False):
        fig.add_trace(go.Scatter(
            x=part["estimate"], y=part["label"], mode="markers", name=metric,
            marker={"size": 10, "color": plots.colour(f"metric {metric}")},
            error_x={"type": "data", "symmetric": False, "array": part["above"], "arrayminus": part["below"]},
            customdata=np.column_stack([part["ci_low"], part["ci_high"], part["n"]]),
            hovertemplate=f"{metric}: " + "%{x:.3f} [%{customdata[0]:.3f}, %{customdata[1]:.3f}], n = %{customdata[2]}"
                          "<extra></extra>"))
    fig.add_vline(x=0, line_dash="dot", line_color="#888")
    fig.update_layout(title=title, xaxis_title="agreement with the human scores (both oriented higher = better)",
                      scattermode="group", height=420, margin={"l": 170, "r": 30, "t": 60, "b": 50})
    return fig


def correlations_static(table: pd.DataFrame, title: str = ""):
    """Static twin of :func:`correlations`."""
    t = _correlations(table)
    labels = list(dict.fromkeys(t["label"]))
    metrics = list(dict.fromkeys(t["metric"]))
    fig, ax = plt.subplots(figsize=(7, 0.7 * len(labels) + 1.5))
    for k, metric in enumerate(metrics):
        part = t[t["metric"] == metric]
        y = np.array([labels.index(v) for v in part["label"]]) + (k - (len(metrics) - 1) / 2) * 0.15
        ax.errorbar(part["estimate"], y, xerr=[part["below"], part["above"]],
                    fmt=_MARKERS[k % len(_MARKERS)], color=plots.colour(f"metric {metric}"), label=metric)
    ax.axvline(0, ls=":", color="#888")
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("agreement with the human scores (both oriented higher = better)")
    ax.set_title(title)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def system_scatter(ranks: pd.DataFrame, title: str = "") -> go.Figure:
    """BLEU (x) against the expert MQM penalty (y, best at the top) per system
    (:func:`helpers.metrics.ch09.protocol_ranks`); hovering names the system and its ranks."""
    r = ranks
    fig = go.Figure(go.Scatter(
        x=r["bleu"], y=r["mqm"], mode="markers", marker={"size": 11, "color": "#1f4e9a"}, text=r["system"],
        customdata=np.column_stack([r["mqm_rank"], r["protocol_rank"], r["bleu_rank"]]),
        hovertemplate="%{text}<br>BLEU %{x:.2f} (rank %{customdata[2]})<br>MQM %{y:.2f} (rank %{customdata[0]})"
                      "<br>other protocol's rank %{customdata[1]}<extra></extra>"))
    fig.update_layout(title=title, xaxis_title="BLEU (higher is better)",
                      yaxis={"title": "MQM penalty per segment (lower is better)", "autorange": "reversed"},
                      height=440, margin={"l": 70, "r": 30, "t": 60, "b": 50})
    return fig


def system_scatter_static(ranks: pd.DataFrame, title: str = ""):
    """Static twin of :func:`system_scatter` (system names written beside the points)."""
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.scatter(ranks["bleu"], ranks["mqm"], color="#1f4e9a")
    for r in ranks.itertuples(index=False):
        ax.annotate(r.system, (r.bleu, r.mqm), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.invert_yaxis()
    ax.set_xlabel("BLEU (higher is better)")
    ax.set_ylabel("MQM penalty per segment (lower is better)")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def _rank_columns(ranks: pd.DataFrame, protocol: str) -> list[tuple[str, str]]:
    cols = [("mqm_rank", "expert MQM")]
    if ranks["protocol_rank"].notna().any():
        cols.append(("protocol_rank", protocol or "other protocol"))
    return cols + [("bleu_rank", "BLEU")]


def rank_disagreement(ranks: pd.DataFrame, protocol: str = "", title: str = "") -> go.Figure:
    """Each system's rank under expert MQM, the other human protocol and BLEU (1 = best), one line a system."""
    cols = _rank_columns(ranks, protocol)
    fig = go.Figure()
    for r in ranks.itertuples(index=False):
        fig.add_trace(go.Scatter(x=[label for _, label in cols], y=[getattr(r, c) for c, _ in cols],
                                 mode="lines+markers", name=r.system,
                                 hovertemplate=f"{r.system}: rank %{{y}} by %{{x}}<extra></extra>"))
    fig.update_layout(title=title, yaxis={"autorange": "reversed", "title": "rank (1 = best)", "dtick": 1},
                      height=260 + 25 * len(ranks), margin={"l": 60, "r": 160, "t": 60, "b": 40})
    return fig


def rank_disagreement_static(ranks: pd.DataFrame, protocol: str = "", title: str = ""):
    """Static twin of :func:`rank_disagreement` (system names at the right end)."""
    cols = _rank_columns(ranks, protocol)
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(ranks) + 2.5))
    x = np.arange(len(cols))
    for r in ranks.itertuples(index=False):
        y = [getattr(r, c) for c, _ in cols]
        ax.plot(x, y, "o-")
        ax.text(x[-1] + 0.05, y[-1], r.system, va="center", fontsize=7)
    ax.set_xticks(x, [label for _, label in cols])
    ax.set_xlim(-0.2, len(cols) - 0.3)
    ax.invert_yaxis()
    ax.set_ylabel("rank (1 = best)")
    ax.set_title(title)
    fig.tight_layout()
    return fig
