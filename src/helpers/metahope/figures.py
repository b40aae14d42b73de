"""MetaHOPE figures, each interactive (plotly); :func:`helpers.core.book.plots.static` draws its twin
for print.

Colours come from :func:`helpers.core.book.plots.colour`, so an error category or a system has
the same colour in every figure of the book, interactive or static; :data:`COLOURS` registers
MetaHOPE's own and :data:`LABELS` its tables' column labels when this module is imported.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..core.book.plots import colour, register_colours
from ..core.book.report import register_labels
from .scoring import profile_categories

#: MetaHOPE's colours: the five error categories and the three MT systems (colour-blind-safe hues).
COLOURS = {
    "IMP": "#4c72b0",
    "RAM": "#dd8452",
    "MIS": "#c44e52",
    "STL": "#8172b3",
    "PRF": "#55a868",
    "GoogleMT": "#1b9e77",
    "GPT-5.4": "#d95f02",
    "Hunyuan-LLM-7B": "#7570b3",
}
register_colours(COLOURS)

#: MetaHOPE's display labels of its result columns, shown by :func:`helpers.core.book.report.table`.
LABELS = {
    "mean_difference": "difference",
    "n_items": "items",
    "ratio_m_s": "ratio M/S",
    "sentences_penalised": "sentences with points",
    "sentences_metaphor_higher": "metaphors higher",
    "sentences_sentence_higher": "sentence higher",
    "p_cluster_permutation": "sentence sign-flip p",
    "p_cluster_holm": "Holm p (sentences)",
    "items_with_error": "% with error",
    "group_a": "type",
    "group_b": "against",
    "n_a": "metaphors",
    "n_b": "metaphors against",
    "sentences_a": "sentences",
    "sentences_b": "sentences against",
    "ordinal_alpha": "ordinal α",
    "exact_presence_agreement": "presence (%)",
    "alpha_mean": "α (mean)",
    "presence_mean": "presence (%)",
    "published_alpha": "α paper",
    "published_presence": "presence paper",
    "alpha_width": "α interval width",
    "difference_width": "difference interval width",
}
register_labels(LABELS)


def _bias_points(paired: pd.DataFrame, x: str, y: str) -> pd.DataFrame:
    """Count items per (system, x, y) so overlapping points are drawn once, sized by count."""
    return (
        paired.groupby(["system", x, y], sort=False)
        .agg(n=("item", "size"), items=("metaphor", lambda s: ", ".join(map(str, s))))
        .reset_index()
    )


def severity_bias_scatter(paired: pd.DataFrame, x: str = "A", y: str = "B", title: str | None = None) -> go.Figure:
    """Per system, each item's SEGS by annotator ``x`` against annotator ``y`` with the line y = x.

    Points above the line are items the second annotator penalised more. Marker area grows
    with the number of items at the same point; hover lists the metaphor words.
    """
    points = _bias_points(paired, x, y)
    systems = list(dict.fromkeys(paired["system"]))
    top = float(max(paired[x].max(), paired[y].max(), 1)) * 1.08
    fig = make_subplots(rows=1, cols=len(systems), subplot_titles=systems, shared_yaxes=True)
    for k, system in enumerate(systems, start=1):
        p = points[points["system"] == system]
        fig.add_trace(
            go.Scatter(
                x=p[x],
                y=p[y],
                mode="markers",
                name=system,
                showlegend=False,
                marker={"size": 8 + 5 * np.sqrt(p["n"]), "opacity": 0.7, "color": colour(system)},
                customdata=np.stack([p["n"], p["items"]], axis=-1),
                hovertemplate=f"{x} = %{{x}}, {y} = %{{y}}<br>%{{customdata[0]}} item(s): %{{customdata[1]}}<extra></extra>",
            ),
            row=1,
            col=k,
        )
        fig.add_trace(
            go.Scatter(
                x=[0, top],
                y=[0, top],
                mode="lines",
                line={"dash": "dot", "color": "grey"},
                hoverinfo="skip",
                showlegend=False,
            ),
            row=1,
            col=k,
        )
        fig.update_xaxes(title_text=f"SEGS by {x}", range=[-1, top], row=1, col=k)
    fig.update_yaxes(title_text=f"SEGS by {y}", range=[-1, top], row=1, col=1)
    fig.update_layout(title=title, height=420)
    return fig


def _per_item(profile: pd.DataFrame) -> pd.DataFrame:
    """Category penalties of :func:`helpers.metahope.scoring.error_profile` divided by the items."""
    cats = profile_categories(profile)
    long = profile.melt(
        id_vars=[c for c in profile.columns if c not in cats],
        value_vars=cats,
        var_name="category",
        value_name="penalty",
    )
    long["per_item"] = long["penalty"] / long["n_items"]
    long["bar"] = long["system"] + (" · " + long["annotator"].astype(str) if "annotator" in long else "")
    return long


def error_profile_bars(profile: pd.DataFrame, panel: str = "direction", title: str | None = None) -> go.Figure:
    """Mean penalty per metaphor, stacked by error category, one bar per system (and
    annotator), one panel per value of ``panel``. Hover gives the category's points."""
    long = _per_item(profile)
    panels = list(dict.fromkeys(long[panel]))
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=panels, shared_yaxes=True)
    for k, p in enumerate(panels, start=1):
        sub = long[long[panel] == p]
        for cat in profile_categories(profile):
            c = sub[sub["category"] == cat]
            fig.add_trace(
                go.Bar(
                    x=c["bar"],
                    y=c["per_item"],
                    name=cat,
                    marker_color=colour(cat),
                    legendgroup=cat,
                    showlegend=k == 1,
                    customdata=np.stack([c["penalty"], c["n_items"]], axis=-1),
                    hovertemplate=f"{cat}: %{{y:.2f}} per metaphor<br>%{{customdata[0]}} points over "
                    "%{customdata[1]} items<extra>%{x}</extra>",
                ),
                row=1,
                col=k,
            )
    fig.update_layout(barmode="stack", title=title, height=460, legend_title_text="error")
    fig.update_yaxes(title_text="mean penalty per metaphor", row=1, col=1)
    return fig


def sweep_lines(sweeps: pd.DataFrame, title: str | None = None) -> go.Figure:
    """One panel per simulation knob: the statistic that knob moves, as the knob changes
    (``sweeps``: ``knob, value, statistic, metric`` and optionally ``ci_low, ci_high``)."""
    knobs = list(dict.fromkeys(sweeps["knob"]))
    fig = make_subplots(rows=1, cols=len(knobs), subplot_titles=knobs)
    for k, knob in enumerate(knobs, start=1):
        s = sweeps[sweeps["knob"] == knob]
        label = s["statistic"].iloc[0] if "statistic" in s else "metric"
        error = None
        if {"ci_low", "ci_high"} <= set(s.columns):
            error = {
                "type": "data",
                "symmetric": False,
                "array": s["ci_high"] - s["metric"],
                "arrayminus": s["metric"] - s["ci_low"],
            }
        fig.add_trace(
            go.Scatter(
                x=s["value"],
                y=s["metric"],
                mode="lines+markers",
                showlegend=False,
                error_y=error,
                hovertemplate=f"{knob} = %{{x}}<br>{label} = %{{y:.3f}}<extra></extra>",
            ),
            row=1,
            col=k,
        )
        fig.update_xaxes(title_text=knob, row=1, col=k)
        fig.update_yaxes(title_text=label, row=1, col=k)
    fig.update_layout(title=title, height=400)
    return fig


_PLAN_PANELS = (
    ("alpha_width", "width of α's 95% interval"),
    ("difference_width", "width of a system difference's 95% interval"),
    ("power", "power to separate systems {margin:g} points apart"),
)
_PLAN_DASH = {1: "dot", 2: "dash", 3: "solid"}


def _plan_lines(plan: pd.DataFrame, margin: float):
    """(panel, data, raters, rows) of a study plan (:func:`helpers.metahope.planning.plan`) at ``margin``."""
    p = plan[plan["margin"] == margin]
    for i, (column, _) in enumerate(_PLAN_PANELS):
        for (data, k), g in p.groupby(["data", "raters"], sort=False):
            if g[column].notna().any():
                yield i, column, data, int(k), g


def study_plan_lines(plan: pd.DataFrame, margin: float = 2.0, title: str | None = None) -> go.Figure:
    """Interval widths and power against the number of sentences, one line per data set and
    number of raters (dotted 1, dashed 2, solid 3); hover gives every value."""
    titles = [t.format(margin=margin) for _, t in _PLAN_PANELS]
    fig = make_subplots(rows=1, cols=3, subplot_titles=titles)
    palette = dict(zip(plan["data"].unique(), ("#1b9e77", "#d95f02", "#7570b3")))
    for i, column, data, k, g in _plan_lines(plan, margin):
        fig.add_trace(
            go.Scatter(
                x=g["sentences"],
                y=g[column],
                mode="lines+markers",
                name=f"{data}, {k} rater(s)",
                legendgroup=f"{data}{k}",
                showlegend=i == 1,
                line={"color": palette[data], "dash": _PLAN_DASH.get(k, "solid")},
                hovertemplate=f"{data}, {k} rater(s)<br>%{{x}} sentences: %{{y:.3f}}<extra></extra>",
            ),
            row=1,
            col=i + 1,
        )
    fig.update_xaxes(type="log", title_text="sentences", tickvals=sorted(plan["sentences"].unique()))
    fig.update_layout(title=title, height=440, legend={"orientation": "h", "y": -0.25})
    return fig
