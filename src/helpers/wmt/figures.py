"""Chapter 08's figures, each an interactive plotly figure with a static matplotlib twin
(:mod:`helpers.core.plots` shows the first offline; :class:`helpers.core.Results` saves the second).
:data:`COLOURS` registers the chapter's colours when this module is imported."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..core import plots

#: Chapter 08's colours: one per resampling of the weight sweep (:func:`helpers.wmt.analysis.weight_sweep`).
COLOURS = {"resample segments": "#8c564b", "resample documents": "#2ca02c",
           # section 6: the kinds of system (helpers.wmt.analysis.system_kind)
           "ESA LLM": "#d62728", "ESA online": "#1f77b4", "ESA submission": "#7f7f7f", "ESA human": "#2ca02c"}
plots.register_colours(COLOURS)


def _grid(penalties: pd.DataFrame, value: str) -> pd.DataFrame:
    order = penalties.groupby("system")["penalty"].sum().sort_values().index
    cats = penalties.groupby("category")["penalty"].sum().sort_values(ascending=False).index
    return penalties.pivot_table(index="system", columns="category", values=value, aggfunc="first"
                                 ).reindex(index=order, columns=cats)


def category_heatmap(penalties: pd.DataFrame, title: str = "") -> go.Figure:
    """Systems (best first) × top-level categories, coloured by penalty per segment; hovering a
    cell shows the penalty and how many errors of that category the system got
    (:func:`helpers.wmt.analysis.category_penalties`)."""
    z, n = _grid(penalties, "penalty"), _grid(penalties, "count")
    counts = n.fillna(0).astype(int).to_numpy()
    fig = go.Figure(go.Heatmap(
        z=z.to_numpy(), x=list(z.columns), y=list(z.index), customdata=counts, colorscale="Reds",
        colorbar={"title": "penalty / segment"}, texttemplate="%{z:.2f}",
        hovertemplate="%{y}<br>%{x}<br>penalty per segment %{z:.3f}<br>errors marked %{customdata}<extra></extra>"))
    fig.update_layout(title=title, yaxis={"autorange": "reversed"}, height=300 + 26 * len(z.index),
                      margin={"l": 140, "r": 40, "t": 60, "b": 90})
    return fig


def category_heatmap_static(penalties: pd.DataFrame, title: str = ""):
    """Static twin of :func:`category_heatmap` (cells show the penalty; errors counted below it)."""
    import seaborn as sns

    z, n = _grid(penalties, "penalty"), _grid(penalties, "count")
    labels = np.array([[("" if np.isnan(p) else f"{p:.2f}\n({int(c)})") for p, c in zip(pr, cr)]
                       for pr, cr in zip(z.to_numpy(), n.fillna(0).to_numpy())])
    fig, ax = plt.subplots(figsize=(1.1 * z.shape[1] + 3, 0.5 * z.shape[0] + 2))
    sns.heatmap(z, annot=labels, fmt="", cmap="Reds", cbar_kws={"label": "penalty per segment"}, ax=ax,
                annot_kws={"fontsize": 7})
    ax.set_title(title)
    ax.set_xlabel("category (errors marked in brackets)")
    ax.set_ylabel("system")
    fig.tight_layout()
    return fig


def _sweep_parts(sweep: pd.DataFrame, metric: str):
    for how, g in sweep.groupby("resampling", sort=False):
        line = g[g["scheme"].str.startswith("mqm-major-")].sort_values("major_to_minor")
        named = g[~g["scheme"].str.startswith("mqm-major-")]
        yield how, line, named


_MARKERS = {"hope": ("diamond", "D"), "metahope": ("star", "*")}


def stability_curve(sweep: pd.DataFrame, metric: str = "tau_mean", title: str = "") -> go.Figure:
    """Rank stability (``metric`` of :func:`helpers.wmt.analysis.weight_sweep`) against the
    Major weight (in Minor errors), one line per resampling; HOPE and MetaHOPE as markers at
    their own Major-to-Minor ratio."""
    fig = go.Figure()
    for how, line, named in _sweep_parts(sweep, metric):
        colour = plots.colour(f"resample {how}")
        fig.add_trace(go.Scatter(x=line["major_to_minor"], y=line[metric], mode="lines+markers",
                                 name=f"MQM weights, {how} resampled", line={"color": colour},
                                 hovertemplate=f"Major = %{{x}}<br>{metric} %{{y:.3f}}<extra>{how}</extra>"))
        for _, r in named.iterrows():
            symbol = _MARKERS.get(r["scheme"], ("square", "s"))[0]
            fig.add_trace(go.Scatter(x=[r["major_to_minor"]], y=[r[metric]], mode="markers", name=f"{r['scheme']}, {how}",
                                     marker={"symbol": symbol, "size": 12, "color": colour},
                                     hovertemplate=f"{r['scheme']}<br>Major/Minor %{{x}}<br>{metric} %{{y:.3f}}"
                                                   f"<extra>{how}</extra>"))
    fig.add_vline(x=5, line_dash="dot", line_color="#888", annotation_text="WMT: Major = 5")
    fig.update_layout(title=title, xaxis_title="Major weight (Minor = 1)", yaxis_title=metric.replace("_", " "),
                      height=420, margin={"l": 60, "r": 30, "t": 60, "b": 50})
    return fig


def stability_curve_static(sweep: pd.DataFrame, metric: str = "tau_mean", title: str = ""):
    """Static twin of :func:`stability_curve`."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for how, line, named in _sweep_parts(sweep, metric):
        colour = plots.colour(f"resample {how}")
        ax.plot(line["major_to_minor"], line[metric], "o-", color=colour, label=f"MQM weights, {how} resampled")
        for _, r in named.iterrows():
            ax.plot(r["major_to_minor"], r[metric], _MARKERS.get(r["scheme"], ("square", "s"))[1], color=colour,
                    markersize=10, label=f"{r['scheme']}, {how}")
    ax.axvline(5, ls=":", color="#888")
    ax.set_xlabel("Major weight (Minor = 1)")
    ax.set_ylabel(metric.replace("_", " "))
    ax.set_title(title)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def bias_forest(bias: pd.DataFrame, title: str = "") -> go.Figure:
    """Each rater's bias (:func:`helpers.core.agreement.rater_bias`) with its interval, 0 marked."""
    b = bias.sort_values("bias")
    fig = go.Figure(go.Scatter(
        x=b["bias"], y=b["rater"], mode="markers", marker={"size": 10, "color": "#1f4e9a"},
        error_x={"type": "data", "symmetric": False, "array": b["ci_high"] - b["bias"],
                 "arrayminus": b["bias"] - b["ci_low"]},
        customdata=np.column_stack([b["ci_low"], b["ci_high"], b["n_items"], b["n_clusters"]]),
        hovertemplate="%{y}: %{x:.2f} [%{customdata[0]:.2f}, %{customdata[1]:.2f}]<br>%{customdata[2]} segments, "
                      "%{customdata[3]} documents<extra></extra>"))
    fig.add_vline(x=0, line_dash="dot", line_color="#888")
    fig.update_layout(title=title, xaxis_title="penalty minus the other raters' mean (per segment)",
                      height=260 + 28 * len(b), margin={"l": 90, "r": 30, "t": 60, "b": 50})
    return fig


def bias_forest_static(bias: pd.DataFrame, title: str = ""):
    """Static twin of :func:`bias_forest`."""
    b = bias.sort_values("bias")
    fig, ax = plt.subplots(figsize=(6, 0.4 * len(b) + 1.5))
    y = np.arange(len(b))
    ax.errorbar(b["bias"], y, xerr=[b["bias"] - b["ci_low"], b["ci_high"] - b["bias"]], fmt="o", color="#1f4e9a")
    ax.axvline(0, ls=":", color="#888")
    ax.set_yticks(y, b["rater"])
    ax.set_xlabel("penalty minus the other raters' mean (per segment)")
    ax.set_title(title)
    fig.tight_layout()
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
    system both rank, coloured by kind (:func:`helpers.wmt.analysis.esa_ranking`); hovering
    shows the scores, the human significance cluster and the shift."""
    both = _slopes(ranking)
    fig = go.Figure()
    shown = set()
    for r in both.itertuples(index=False):
        fig.add_trace(go.Scatter(
            x=["human (ESA)", "automatic (AutoRank)"], y=[r.human_rank, r.auto_rank], mode="lines+markers+text",
            line={"color": r.colour}, name=r.kind, legendgroup=r.kind, showlegend=r.kind not in shown,
            text=[r.label, r.right], textposition=["middle left", "middle right"],
            hovertemplate=(f"{r.system} ({r.kind})<br>ESA {r.score_by_domain:.1f}, cluster {r.cluster}<br>"
                           f"AutoRank {r.autorank:.2f}<br>rank %{{y}}; shift {int(r.rank_shift):+d}<extra></extra>")))
        shown.add(r.kind)
    fig.update_layout(title=title, yaxis={"autorange": "reversed", "title": "rank (1 = best)", "dtick": 1},
                      height=260 + 30 * len(both), margin={"l": 200, "r": 160, "t": 60, "b": 40})
    return fig


def rank_slopes_static(ranking: pd.DataFrame, title: str = ""):
    """Static twin of :func:`rank_slopes`."""
    both = _slopes(ranking)
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(both) + 2))
    shown = set()
    for r in both.itertuples(index=False):
        ax.plot([0, 1], [r.human_rank, r.auto_rank], "o-", color=r.colour,
                label=None if r.kind in shown else r.kind)
        shown.add(r.kind)
        ax.text(-0.03, r.human_rank, r.label, ha="right", va="center", fontsize=7)
        ax.text(1.03, r.auto_rank, r.right, ha="left", va="center", fontsize=7)
    ax.set_xlim(-0.8, 1.8)
    ax.set_xticks([0, 1], ["human (ESA)", "automatic (AutoRank)"])
    ax.invert_yaxis()
    ax.set_ylabel("rank (1 = best)")
    ax.set_title(title)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=4)
    fig.tight_layout()
    return fig


__all__ = ["rank_slopes", "rank_slopes_static", "category_heatmap", "category_heatmap_static", "stability_curve", "stability_curve_static", "bias_forest",
           "bias_forest_static"]
