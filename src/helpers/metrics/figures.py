"""Chapter 09's figures, each an interactive plotly figure (:meth:`helpers.core.Results.show` shows
it offline and saves its static twin, drawn by :func:`helpers.core.book.plots.static`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..core.book import plots

#: Chapter 09's colours, one per metric (a metric computed elsewhere takes the fallback cycle's).
COLOURS = {
    "metric bleu": "#1f4e9a",
    "metric chrf": "#d95f02",
    "metric chrfpp": "#1b9e77",
    "metric ter": "#7570b3",
    "metric embed": "#e7298a",
}
plots.register_colours(COLOURS)
#: The statistics the correlation figure shows, with their axis labels.
SHOWN = {
    "pearson": "system Pearson r",
    "kendall_tau_b": "system Kendall τ",
    "pearson_flat": "segment r (flat)",
    "pearson_item": "segment r (per item)",
    "acc_eq_item": "tie-calibrated accuracy",
}


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
        fig.add_trace(
            go.Scatter(
                x=part["estimate"],
                y=part["label"],
                mode="markers",
                name=metric,
                marker={"size": 10, "color": plots.colour(f"metric {metric}")},
                error_x={"type": "data", "symmetric": False, "array": part["above"], "arrayminus": part["below"]},
                customdata=np.column_stack([part["ci_low"], part["ci_high"], part["n"]]),
                hovertemplate=f"{metric}: "
                + "%{x:.3f} [%{customdata[0]:.3f}, %{customdata[1]:.3f}], n = %{customdata[2]}"
                "<extra></extra>",
            )
        )
    fig.add_vline(x=0, line_dash="dot", line_color="#888")
    fig.update_layout(
        title=title,
        xaxis_title="agreement with the human scores (both oriented higher = better)",
        scattermode="group",
        height=420,
        margin={"l": 170, "r": 30, "t": 60, "b": 50},
    )
    return fig


def system_scatter(ranks: pd.DataFrame, title: str = "") -> go.Figure:
    """BLEU (x) against the expert MQM penalty (y, best at the top) per system
    (:func:`helpers.metrics.ch09.protocol_ranks`); hovering names the system and its ranks."""
    r = ranks
    fig = go.Figure(
        go.Scatter(
            x=r["bleu"],
            y=r["mqm"],
            mode="markers",
            marker={"size": 11, "color": "#1f4e9a"},
            text=r["system"],
            customdata=np.column_stack([r["mqm_rank"], r["protocol_rank"], r["bleu_rank"]]),
            hovertemplate="%{text}<br>BLEU %{x:.2f} (rank %{customdata[2]})<br>MQM %{y:.2f} (rank %{customdata[0]})"
            "<br>other protocol's rank %{customdata[1]}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        xaxis_title="BLEU (higher is better)",
        yaxis={"title": "MQM penalty per segment (lower is better)", "autorange": "reversed"},
        height=440,
        margin={"l": 70, "r": 30, "t": 60, "b": 50},
    )
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
        fig.add_trace(
            go.Scatter(
                x=[label for _, label in cols],
                y=[getattr(r, c) for c, _ in cols],
                mode="lines+markers",
                name=r.system,
                hovertemplate=f"{r.system}: rank %{{y}} by %{{x}}<extra></extra>",
            )
        )
    fig.update_layout(
        title=title,
        yaxis={"autorange": "reversed", "title": "rank (1 = best)", "dtick": 1},
        height=260 + 25 * len(ranks),
        margin={"l": 60, "r": 160, "t": 60, "b": 40},
    )
    return fig
