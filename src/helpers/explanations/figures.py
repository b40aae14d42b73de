"""Figures of the explanation chapters, interactive (plotly); :func:`helpers.core.book.plots.static` draws
their twins for print.

:data:`COLOURS` registers the dimensions' and the evaluator baselines' colours with
:func:`helpers.core.book.plots.register_colours` when this module is imported.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..core.book.plots import colour, register_colours
from .analysis import Clusters, ClusterStability
from .bounded_scale import BoundedNull, latent_means, rounded_scale_moments

#: The explanation chapters' colours: the six dimensions and Overall, the evaluator and its baselines.
COLOURS = {
    "non_circularity": "#66c2a5",
    "origin": "#fc8d62",
    "mapping": "#8da0cb",
    "emergence": "#e78ac3",
    "accessibility": "#a6d854",
    "purpose": "#ffd92f",
    "overall": "#555555",
    "evaluator": "#1f77b4",
    "training mean": "#aaaaaa",
    "similarity only": "#ff7f0e",
}
register_colours(COLOURS)


def dendrogram(clusters: Clusters, title: str | None = None, threshold: float | None = None) -> go.Figure:
    """Interactive dendrogram of :func:`helpers.explanations.analysis.cluster_dimensions` (distance 1 − ρ),
    with the cut as a dashed line."""
    import plotly.figure_factory as ff
    from scipy.spatial.distance import squareform

    fig = ff.create_dendrogram(
        np.clip(1 - clusters.rho.to_numpy(), 0, None),
        labels=list(clusters.rho.index),
        distfun=lambda m: squareform(m, checks=False),
        linkagefun=lambda _: clusters.linkage,
    )
    if threshold is not None:
        fig.add_hline(y=threshold, line_dash="dash", line_color="grey", annotation_text=f"cut {threshold:.2f}")
    fig.update_layout(title=title, height=380, yaxis_title="1 − Spearman ρ")
    return fig


def stability_bars(stability: ClusterStability, title: str | None = None) -> go.Figure:
    """Per dimension: the share of item resamples (and of simulated seeds) in which it is an
    independent axis at the cut."""
    table = stability.table
    fig = go.Figure(
        go.Bar(
            x=table["dimension"],
            y=table["independent_share_bootstrap"],
            name="item resamples",
            marker_color=[colour(d) for d in table["dimension"]],
            hovertemplate="%{x}: alone in %{y:.0%} of item resamples<extra></extra>",
        )
    )
    if stability.n_seeds:
        fig.add_trace(
            go.Bar(
                x=table["dimension"],
                y=table["independent_share_seeds"],
                name="simulated seeds",
                marker={"color": [colour(d) for d in table["dimension"]], "pattern_shape": "/"},
                opacity=0.7,
                hovertemplate="%{x}: alone in %{y:.0%} of seeds<extra></extra>",
            )
        )
    fig.update_layout(
        title=title,
        barmode="group",
        yaxis={"title": "share: an independent axis", "range": [0, 1.05], "tickformat": ".0%"},
        height=380,
    )
    return fig


def _null_curve(null: BoundedNull | None, lo: float, hi: float):
    if null is None:
        return None
    xs = np.linspace(max(lo, 1.01), min(hi, 4.99), 80)
    cuts = getattr(null, "cuts", None)
    return xs, rounded_scale_moments(latent_means(xs, null.latent_sd, cuts=cuts), null.latent_sd, cuts=cuts)[1]


def mean_sd_scatter(
    item_stats: pd.DataFrame, dimension: str = "overall", title: str | None = None, null: BoundedNull | None = None
) -> go.Figure:
    """Per item: mean score against the raters' SD, with a quadratic fit (paper Figure 1) and,
    given ``null``, the SD that constant latent noise produces on the bounded scale."""
    sub = item_stats[item_stats["dimension"] == dimension]
    fig = go.Figure(
        go.Scatter(
            x=sub["mean"],
            y=sub["sd"],
            mode="markers",
            name="items",
            marker={"color": colour(dimension)},
            customdata=np.stack([sub["item_id"], sub["metaphor"]], axis=-1),
            hovertemplate="%{customdata[0]}: %{customdata[1]}<br>mean %{x:.2f}, SD %{y:.2f}<extra></extra>",
        )
    )
    coef = np.polyfit(sub["mean"], sub["sd"], 2)
    xs = np.linspace(sub["mean"].min(), sub["mean"].max(), 50)
    fig.add_trace(
        go.Scatter(
            x=xs, y=np.polyval(coef, xs), mode="lines", name="quadratic fit", hoverinfo="skip", line={"color": "grey"}
        )
    )
    curve = _null_curve(null, sub["mean"].min(), sub["mean"].max())
    if curve is not None:
        fig.add_trace(
            go.Scatter(
                x=curve[0],
                y=curve[1],
                mode="lines",
                hoverinfo="skip",
                name=f"bounded scale, constant latent SD {null.latent_sd:.2f}",
                line={"color": "black", "dash": "dash"},
            )
        )
    fig.update_layout(
        title=title, xaxis_title=f"mean {dimension}", yaxis_title=f"SD of {dimension} across raters", height=420
    )
    return fig


def null_histogram(null: BoundedNull, title: str | None = None) -> go.Figure:
    """The quadratic term of each bounded-scale null replicate, with the observed one."""
    fig = go.Figure(
        go.Histogram(
            x=null.null_quadratics,
            nbinsx=40,
            name="null replicates",
            marker_color=colour("training mean"),
            hovertemplate="b2 %{x}<br>%{y} replicates<extra></extra>",
        )
    )
    fig.add_vline(
        x=null.observed, line_color=colour("overall"), line_width=3, annotation_text=f"observed {null.observed:+.3f}"
    )
    fig.add_vline(x=0, line_color="grey", line_dash="dot")
    fig.update_layout(
        title=title,
        xaxis_title="quadratic term b2 of SD on mean (negative: a hump)",
        yaxis_title="replicates",
        height=360,
        showlegend=False,
    )
    return fig


def rater_bars(profile: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Each rater's leniency (mean deviation from the item means) with the SD of the deviations."""
    fig = go.Figure(
        go.Bar(
            x=profile["rater"],
            y=profile["leniency"],
            marker_color=colour("overall"),
            error_y={"type": "data", "array": profile["deviation_sd"]},
            customdata=profile[["mean_score", "n_items"]].to_numpy(),
            hovertemplate="%{x}: leniency %{y:+.2f}<br>mean score %{customdata[0]:.2f} over "
            "%{customdata[1]} items<extra></extra>",
        )
    )
    fig.update_layout(title=title, yaxis_title="mean deviation from item mean", height=380)
    return fig


MAE_SERIES = (
    ("test_mae", "evaluator"),
    ("mean_baseline_mae", "training mean"),
    ("similarity_baseline_mae", "similarity only"),
)


def mae_bars(mae: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Held-out MAE per score: the evaluator against the two baselines."""
    fig = go.Figure()
    for column, name in MAE_SERIES:
        fig.add_trace(
            go.Bar(
                x=mae["score"],
                y=mae[column],
                name=name,
                marker_color=colour(name),
                hovertemplate=f"{name}: %{{y:.3f}}<extra>%{{x}}</extra>",
            )
        )
    fig.update_layout(barmode="group", title=title, yaxis_title="held-out MAE", height=400)
    return fig
