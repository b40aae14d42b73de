"""Chapter 08's figures, each an interactive plotly figure (:meth:`helpers.core.Results.show` shows
it offline and saves its static twin, drawn by :func:`helpers.core.book.plots.static`).
:data:`COLOURS` registers the chapter's colours when this module is imported."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..core.book import plots

#: Chapter 08's colours: one per resampling of the weight sweep (:func:`helpers.wmt.analysis.weight_sweep`).
COLOURS = {
    "resample segments": "#8c564b",
    "resample documents": "#2ca02c",
    # section 6: the kinds of system (helpers.wmt.systems.system_kind)
    "ESA LLM": "#d62728",
    "ESA online": "#1f77b4",
    "ESA submission": "#7f7f7f",
    "ESA human": "#2ca02c",
}
plots.register_colours(COLOURS)


def _grid(penalties: pd.DataFrame, value: str) -> pd.DataFrame:
    order = penalties.groupby("system")["penalty"].sum().sort_values().index
    cats = penalties.groupby("category")["penalty"].sum().sort_values(ascending=False).index
    return penalties.pivot_table(index="system", columns="category", values=value, aggfunc="first").reindex(
        index=order, columns=cats
    )


def category_heatmap(penalties: pd.DataFrame, title: str = "") -> go.Figure:
    """Systems (best first) × top-level categories, coloured by penalty per segment; hovering a
    cell shows the penalty and how many errors of that category the system got
    (:func:`helpers.wmt.categories_and_spans.category_penalties`)."""
    z, n = _grid(penalties, "penalty"), _grid(penalties, "count")
    counts = n.fillna(0).astype(int).to_numpy()
    fig = go.Figure(
        go.Heatmap(
            z=z.to_numpy(),
            x=list(z.columns),
            y=list(z.index),
            customdata=counts,
            colorscale="Reds",
            colorbar={"title": "penalty / segment"},
            texttemplate="%{z:.2f}",
            hovertemplate="%{y}<br>%{x}<br>penalty per segment %{z:.3f}<br>errors marked %{customdata}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        yaxis={"autorange": "reversed"},
        height=300 + 26 * len(z.index),
        margin={"l": 140, "r": 40, "t": 60, "b": 90},
    )
    return fig


def _sweep_parts(sweep: pd.DataFrame, metric: str):
    for how, g in sweep.groupby("resampling", sort=False):
        line = g[g["scheme"].str.startswith("mqm-major-")].sort_values("major_to_minor")
        named = g[~g["scheme"].str.startswith("mqm-major-")]
        yield how, line, named


_MARKERS = {"hope": "diamond", "metahope": "star"}


def stability_curve(sweep: pd.DataFrame, metric: str = "tau_mean", title: str = "") -> go.Figure:
    """Rank stability (``metric`` of :func:`helpers.wmt.analysis.weight_sweep`) against the
    Major weight (in Minor errors), one line per resampling; HOPE and MetaHOPE as markers at
    their own Major-to-Minor ratio."""
    fig = go.Figure()
    for how, line, named in _sweep_parts(sweep, metric):
        colour = plots.colour(f"resample {how}")
        fig.add_trace(
            go.Scatter(
                x=line["major_to_minor"],
                y=line[metric],
                mode="lines+markers",
                name=f"MQM weights, {how} resampled",
                line={"color": colour},
                hovertemplate=f"Major = %{{x}}<br>{metric} %{{y:.3f}}<extra>{how}</extra>",
            )
        )
        for _, r in named.iterrows():
            symbol = _MARKERS.get(r["scheme"], "square")
            fig.add_trace(
                go.Scatter(
                    x=[r["major_to_minor"]],
                    y=[r[metric]],
                    mode="markers",
                    name=f"{r['scheme']}, {how}",
                    marker={"symbol": symbol, "size": 12, "color": colour},
                    hovertemplate=f"{r['scheme']}<br>Major/Minor %{{x}}<br>{metric} %{{y:.3f}}<extra>{how}</extra>",
                )
            )
    fig.add_vline(x=5, line_dash="dot", line_color="#888", annotation_text="WMT: Major = 5")
    fig.update_layout(
        title=title,
        xaxis_title="Major weight (Minor = 1)",
        yaxis_title=metric.replace("_", " "),
        height=420,
        margin={"l": 60, "r": 30, "t": 60, "b": 50},
    )
    return fig


def bias_forest(bias: pd.DataFrame, title: str = "") -> go.Figure:
    """Each rater's bias with its interval, 0 marked: the model's rater terms
    (:func:`helpers.wmt.rater_bias.rater_effects`) or the raw differences from the co-raters
    (:func:`helpers.core.statistics.raters.rater_bias`), both with ``rater, bias, ci_low, ci_high,
    n_items, n_clusters``."""
    b = bias.sort_values("bias")
    fig = go.Figure(
        go.Scatter(
            x=b["bias"],
            y=b["rater"],
            mode="markers",
            marker={"size": 10, "color": "#1f4e9a"},
            error_x={
                "type": "data",
                "symmetric": False,
                "array": b["ci_high"] - b["bias"],
                "arrayminus": b["bias"] - b["ci_low"],
            },
            customdata=np.column_stack([b["ci_low"], b["ci_high"], b["n_items"], b["n_clusters"]]),
            hovertemplate="%{y}: %{x:.2f} [%{customdata[0]:.2f}, %{customdata[1]:.2f}]<br>%{customdata[2]} segments, "
            "%{customdata[3]} documents<extra></extra>",
        )
    )
    fig.add_vline(x=0, line_dash="dot", line_color="#888")
    fig.update_layout(
        title=title,
        xaxis_title="rater bias (penalty per segment)",
        height=260 + 28 * len(b),
        margin={"l": 90, "r": 30, "t": 60, "b": 50},
    )
    return fig


def _slopes(ranking: pd.DataFrame) -> pd.DataFrame:
    """The systems both rankings rank, with their kind's colour and a label naming the human cluster."""
    both = ranking.dropna(subset=["auto_rank"]).copy()
    both["colour"] = [plots.colour(f"ESA {k}") for k in both["kind"]]
    both["label"] = [f"{s} (cluster {c})" for s, c in zip(both["system"], both["cluster"])]
    both["right"] = both.groupby("auto_rank")["system"].transform(" = ".join)  # ties share a rank and a label
    both.loc[both.duplicated("auto_rank"), "right"] = ""
    return both


def rank_slopes(ranking: pd.DataFrame, title: str = "") -> go.Figure:
    """Human ESA rank (left) against the organisers' automatic rank (right), one line per
    system both rank, coloured by kind (:func:`helpers.wmt.systems.esa_ranking`); hovering
    shows the scores, the human significance cluster and the shift."""
    both = _slopes(ranking)
    fig = go.Figure()
    shown = set()
    for r in both.itertuples(index=False):
        fig.add_trace(
            go.Scatter(
                x=["human (ESA)", "automatic (AutoRank)"],
                y=[r.human_rank, r.auto_rank],
                mode="lines+markers+text",
                line={"color": r.colour},
                name=r.kind,
                legendgroup=r.kind,
                showlegend=r.kind not in shown,
                text=[r.label, r.right],
                textposition=["middle left", "middle right"],
                hovertemplate=(
                    f"{r.system} ({r.kind})<br>ESA {r.score_by_domain:.1f}, cluster {r.cluster}<br>"
                    f"AutoRank {r.autorank:.2f}<br>rank %{{y}}; shift {int(r.rank_shift):+d}<extra></extra>"
                ),
            )
        )
        shown.add(r.kind)
    fig.update_layout(
        title=title,
        yaxis={"autorange": "reversed", "title": "rank (1 = best)", "dtick": 1},
        height=260 + 30 * len(both),
        margin={"l": 200, "r": 160, "t": 60, "b": 40},
    )
    return fig


__all__ = ["rank_slopes", "category_heatmap", "stability_curve", "bias_forest"]
