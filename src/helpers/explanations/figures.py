"""Figures of the explanation chapters: interactive (plotly) with static twins for print."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import seaborn as sns

from ..core.plots import colour
from .analysis import Clusters


def dendrogram(clusters: Clusters, title: str | None = None) -> go.Figure:
    """Interactive dendrogram of :func:`helpers.explanations.analysis.cluster_dimensions` (distance 1 − ρ)."""
    import plotly.figure_factory as ff
    from scipy.spatial.distance import squareform

    fig = ff.create_dendrogram(np.clip(1 - clusters.rho.to_numpy(), 0, None), labels=list(clusters.rho.index),
                               distfun=lambda m: squareform(m, checks=False), linkagefun=lambda _: clusters.linkage)
    fig.update_layout(title=title, height=380, yaxis_title="1 − Spearman ρ")
    return fig


def dendrogram_static(clusters: Clusters, title: str | None = None):
    """Static twin of :func:`dendrogram`."""
    from scipy.cluster.hierarchy import dendrogram as scipy_dendrogram

    fig, ax = plt.subplots(figsize=(7, 3.5))
    scipy_dendrogram(clusters.linkage, labels=list(clusters.rho.index), ax=ax)
    ax.set(title=title or "", ylabel="1 − Spearman ρ")
    fig.tight_layout()
    return fig


def mean_sd_scatter(item_stats: pd.DataFrame, dimension: str = "overall", title: str | None = None) -> go.Figure:
    """Per item: mean score against the raters' SD, with a quadratic fit (paper Figure 1)."""
    sub = item_stats[item_stats["dimension"] == dimension]
    fig = go.Figure(go.Scatter(
        x=sub["mean"], y=sub["sd"], mode="markers", name="items", marker={"color": colour(dimension)},
        customdata=np.stack([sub["item_id"], sub["metaphor"]], axis=-1),
        hovertemplate="%{customdata[0]}: %{customdata[1]}<br>mean %{x:.2f}, SD %{y:.2f}<extra></extra>"))
    coef = np.polyfit(sub["mean"], sub["sd"], 2)
    xs = np.linspace(sub["mean"].min(), sub["mean"].max(), 50)
    fig.add_trace(go.Scatter(x=xs, y=np.polyval(coef, xs), mode="lines", name="quadratic fit", hoverinfo="skip",
                             line={"color": "grey"}))
    fig.update_layout(title=title, xaxis_title=f"mean {dimension}", yaxis_title=f"SD of {dimension} across raters",
                      height=420)
    return fig


def mean_sd_static(item_stats: pd.DataFrame, dimension: str = "overall", title: str | None = None):
    """Static twin of :func:`mean_sd_scatter`."""
    sub = item_stats[item_stats["dimension"] == dimension]
    fig, ax = plt.subplots(figsize=(6, 4))
    sns.regplot(x=sub["mean"], y=sub["sd"], order=2, ax=ax, scatter_kws={"s": 15, "color": colour(dimension)},
                line_kws={"color": "grey"})
    ax.set(title=title or "", xlabel=f"mean {dimension}", ylabel=f"SD of {dimension}")
    fig.tight_layout()
    return fig


def rater_bars(profile: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Each rater's leniency (mean deviation from the item means) with the SD of the deviations."""
    fig = go.Figure(go.Bar(x=profile["rater"], y=profile["leniency"], marker_color=colour("overall"),
                           error_y={"type": "data", "array": profile["deviation_sd"]},
                           customdata=profile[["mean_score", "n_items"]].to_numpy(),
                           hovertemplate="%{x}: leniency %{y:+.2f}<br>mean score %{customdata[0]:.2f} over "
                                         "%{customdata[1]} items<extra></extra>"))
    fig.update_layout(title=title, yaxis_title="mean deviation from item mean", height=380)
    return fig


def rater_bars_static(profile: pd.DataFrame, title: str | None = None):
    """Static twin of :func:`rater_bars`."""
    fig, ax = plt.subplots(figsize=(max(5, 0.45 * len(profile)), 3.5))
    ax.bar(profile["rater"], profile["leniency"], yerr=profile["deviation_sd"], color=colour("overall"), capsize=2)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set(title=title or "", ylabel="mean deviation from item mean")
    ax.tick_params(axis="x", labelrotation=90)
    fig.tight_layout()
    return fig


MAE_SERIES = (("test_mae", "evaluator"), ("mean_baseline_mae", "training mean"),
              ("similarity_baseline_mae", "similarity only"))


def mae_bars(mae: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Held-out MAE per score: the evaluator against the two baselines."""
    fig = go.Figure()
    for column, name in MAE_SERIES:
        fig.add_trace(go.Bar(x=mae["score"], y=mae[column], name=name, marker_color=colour(name),
                             hovertemplate=f"{name}: %{{y:.3f}}<extra>%{{x}}</extra>"))
    fig.update_layout(barmode="group", title=title, yaxis_title="held-out MAE", height=400)
    return fig


def mae_bars_static(mae: pd.DataFrame, title: str | None = None):
    """Static twin of :func:`mae_bars`."""
    fig, ax = plt.subplots(figsize=(8, 3.8))
    width = 0.8 / len(MAE_SERIES)
    x = np.arange(len(mae))
    for k, (column, name) in enumerate(MAE_SERIES):
        ax.bar(x + (k - 1) * width, mae[column], width, label=name, color=colour(name))
    ax.set_xticks(x, mae["score"], rotation=30, ha="right")
    ax.set(title=title or "", ylabel="held-out MAE")
    ax.legend()
    fig.tight_layout()
    return fig
