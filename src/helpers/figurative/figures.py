"""Chapter 10's figures, each an interactive plotly figure (its static twin:
:func:`helpers.core.book.plots.static`).

* :func:`system_effects` the idiom effect per system with its interval (LLM-based systems marked);
* :func:`categories` the penalty by MQM category of idiom and other segments;
* :func:`span_overlap` how often a source-side error span overlaps an idiom, against chance;
* :func:`metric_gaps` what each metric misses on idiom segments.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

LLM, OTHER, IDIOM, PLAIN = "#b5361c", "#1f4e9a", "#c9a227", "#7a7a7a"


def _effects(table: pd.DataFrame) -> pd.DataFrame:
    t = table.dropna(subset=["estimate"]).copy()
    t["label"] = t["dataset"] + " · " + t["system"]
    t["below"], t["above"] = t["estimate"] - t["ci_low"], t["ci_high"] - t["estimate"]
    return t.iloc[::-1]


def system_effects(table: pd.DataFrame, title: str = "") -> go.Figure:
    """The idiom effect of each system (:func:`helpers.figurative.design.system_effects`), one row
    per (data set, system), with its document-bootstrap interval; LLM-based systems in red."""
    t = _effects(table)
    fig = go.Figure()
    for llm, part in t.groupby("llm", sort=False):
        fig.add_trace(
            go.Scatter(
                x=part["estimate"],
                y=part["label"],
                mode="markers",
                name="named LLM-based" if llm else "other systems",
                marker={"size": 9, "color": LLM if llm else OTHER},
                error_x={"type": "data", "symmetric": False, "array": part["above"], "arrayminus": part["below"]},
                customdata=np.column_stack([part["ci_low"], part["ci_high"], part["idiom_segments"]]),
                hovertemplate="%{y}: %{x:+.2f} [%{customdata[0]:.2f}, %{customdata[1]:.2f}], "
                "%{customdata[2]} idiom segments<extra></extra>",
            )
        )
    fig.add_vline(x=0, line_dash="dot", line_color="#888")
    fig.update_layout(
        title=title,
        xaxis_title="idiom − other segments, MQM penalty (controlled for length)",
        height=max(360, 22 * len(t) + 120),
        margin={"l": 230, "r": 30, "t": 60, "b": 50},
    )
    return fig


def _categories(table: pd.DataFrame) -> pd.DataFrame:
    t = table[(table["idiom_mean"] > 0) | (table["other_mean"] > 0)].copy()
    t["label"] = t["dataset"] + " · " + t["category"]
    return t


def categories(table: pd.DataFrame, title: str = "") -> go.Figure:
    """Mean penalty per MQM category of idiom and other segments
    (:func:`helpers.figurative.analysis.category_effects`); hovering gives the controlled effect."""
    t = _categories(table)
    custom = np.column_stack([t["estimate"], t["ci_low"], t["ci_high"]])
    fig = go.Figure(
        [
            go.Bar(
                y=t["label"],
                x=t["idiom_mean"],
                orientation="h",
                name="idiom segments",
                marker_color=IDIOM,
                customdata=custom,
                hovertemplate="%{y}: %{x:.2f}; controlled effect %{customdata[0]:+.2f} "
                "[%{customdata[1]:.2f}, %{customdata[2]:.2f}]<extra></extra>",
            ),
            go.Bar(
                y=t["label"],
                x=t["other_mean"],
                orientation="h",
                name="other segments",
                marker_color=PLAIN,
                hovertemplate="%{y}: %{x:.2f}<extra></extra>",
            ),
        ]
    )
    fig.update_layout(
        title=title,
        barmode="group",
        xaxis_title="mean MQM penalty per segment and system",
        yaxis={"autorange": "reversed"},
        height=max(360, 34 * len(t) + 120),
        margin={"l": 230, "r": 30, "t": 60, "b": 50},
    )
    return fig


def span_overlap(summary: pd.DataFrame, title: str = "") -> go.Figure:
    """Share of WMT23's source-side error spans in idiom segments that overlap an idiom, beside the
    share a span of the same length placed at random would overlap
    (:func:`helpers.figurative.error_spans.overlap_summary`); the interval is the difference's."""
    r = summary.iloc[0]
    fig = go.Figure(
        go.Bar(
            x=["observed", "chance"],
            y=[r["observed"], r["chance"]],
            marker_color=[IDIOM, PLAIN],
            error_y={
                "type": "data",
                "symmetric": False,
                "array": [r["ci_high"] - r["difference"], 0],
                "arrayminus": [r["difference"] - r["ci_low"], 0],
            },
            hovertemplate="%{x}: %{y:.2f}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        yaxis_title=f"share of the {int(r['spans'])} source spans on an idiom",
        height=380,
        margin={"l": 70, "r": 30, "t": 60, "b": 50},
    )
    return fig


def metric_gaps(residuals: pd.DataFrame, accuracy: pd.DataFrame, title: str = "") -> go.Figure:
    """Per metric: the idiom penalty it leaves unexplained (:func:`helpers.figurative.metric_gaps.residual_effects`,
    x) against its accuracy on idiom minus other segments (:func:`~helpers.figurative.metric_gaps.accuracy_by_group`,
    y), both with their intervals; reference-based metrics in blue, QE in red; the dotted line is the effect
    without any metric."""
    r = residuals[residuals["metric"] != "(none)"].set_index("metric")
    a = accuracy[accuracy["group"] == "difference"].set_index("metric")
    t = r.join(a, rsuffix="_acc", how="inner").reset_index()
    fig = go.Figure()
    for kind, part in t.groupby("kind", sort=True):
        fig.add_trace(
            go.Scatter(
                x=part["estimate"],
                y=part["estimate_acc"],
                mode="markers",
                name="QE" if kind == "qe" else "reference-based",
                text=part["metric"],
                marker={"size": 9, "color": LLM if kind == "qe" else OTHER},
                error_x={
                    "type": "data",
                    "symmetric": False,
                    "array": part["ci_high"] - part["estimate"],
                    "arrayminus": part["estimate"] - part["ci_low"],
                    "thickness": 0.6,
                },
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": part["ci_high_acc"] - part["estimate_acc"],
                    "arrayminus": part["estimate_acc"] - part["ci_low_acc"],
                    "thickness": 0.6,
                },
                hovertemplate="%{text}: unexplained %{x:+.2f}, accuracy difference %{y:+.3f}<extra></extra>",
            )
        )
    base = residuals.loc[residuals["metric"] == "(none)", "estimate"]
    if len(base):
        fig.add_vline(x=float(base.iloc[0]), line_dash="dot", line_color="#888")
    fig.add_hline(y=0, line_dash="dot", line_color="#888")
    fig.update_layout(
        title=title,
        xaxis_title="idiom penalty left after controlling for the metric (MQM points)",
        yaxis_title="accuracy, idiom − other segments",
        height=460,
        margin={"l": 70, "r": 30, "t": 60, "b": 50},
    )
    return fig
