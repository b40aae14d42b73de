"""Figures: interactive plotly (offline) with static seaborn/matplotlib twins for print.

Offline rendering: :func:`show` emits a figure as an HTML ``<div>`` that calls
``Plotly.newPlot`` *without* embedding or fetching plotly.js. The book build copies the
plotly.js bundled with the installed ``plotly`` package into the book's ``_static/``
folder and loads it on every page (``_config.yml``), so pages stay interactive with no
network. In JupyterLab the same output also carries plotly's own mimetype, which the
``jupyterlab-plotly`` extension renders.
"""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import seaborn as sns
from plotly.subplots import make_subplots

from . import paths

PLOTLY_JS = "plotly.min.js"


def plotly_js_path() -> Path:
    """The plotly.js bundle shipped inside the installed ``plotly`` package."""
    import plotly

    return Path(plotly.__file__).parent / "package_data" / PLOTLY_JS


def install_plotly_js(static_dir: str | Path) -> Path:
    """Copy plotly.js into a book's ``_static`` folder (skipped when already identical)."""
    src = plotly_js_path()
    dest = Path(static_dir) / PLOTLY_JS
    dest.parent.mkdir(parents=True, exist_ok=True)
    if not dest.exists() or dest.stat().st_size != src.stat().st_size:
        shutil.copyfile(src, dest)
    return dest


class _PlotlyOutput:
    """Rich-display wrapper: HTML div for the book, plotly mimetype for JupyterLab."""

    def __init__(self, fig: go.Figure):
        self.fig = fig

    def _repr_mimebundle_(self, include=None, exclude=None):
        div_id = f"fig-{uuid.uuid4().hex[:12]}"
        html = self.fig.to_html(full_html=False, include_plotlyjs=False, div_id=div_id,
                                config={"displaylogo": False, "responsive": True})
        return {"application/vnd.plotly.v1+json": json.loads(self.fig.to_json()), "text/html": html,
                "text/plain": f"<plotly figure {div_id}>"}


def show(fig: go.Figure) -> _PlotlyOutput:
    """Return a displayable wrapper of ``fig`` (make it the last expression of a cell)."""
    return _PlotlyOutput(fig)


def agreement_heatmap(table: pd.DataFrame, row: str = "system", column: str = "error",
                      metric: str = "alpha", title: str | None = None) -> go.Figure:
    """Interactive heatmap of one agreement metric (rows × columns), diverging around 0.

    Hovering a cell shows row, column and the value to three decimals.
    """
    grid = table.pivot_table(index=row, columns=column, values=metric, sort=False, dropna=False)
    z = grid.to_numpy(dtype=float)
    text = [["NA" if np.isnan(v) else f"{v:.3f}" for v in r] for r in z]
    limit = max(0.1, float(np.nanmax(np.abs(z)))) if np.isfinite(z).any() else 1.0
    fig = go.Figure(
        go.Heatmap(
            z=z, x=list(grid.columns), y=list(grid.index), text=text, texttemplate="%{text}",
            colorscale="RdBu", zmid=0, zmin=-limit, zmax=limit, colorbar={"title": metric},
            hovertemplate=f"{row}: %{{y}}<br>{column}: %{{x}}<br>{metric} = %{{z:.3f}}<extra></extra>",
        )
    )
    fig.update_layout(title=title, yaxis={"autorange": "reversed"}, height=320 + 30 * len(grid.index),
                      margin={"l": 140, "r": 40, "t": 60, "b": 50})
    return fig


def agreement_heatmap_static(table: pd.DataFrame, row: str = "system", column: str = "error",
                             metric: str = "alpha", title: str | None = None):
    """Static seaborn twin of :func:`agreement_heatmap` (for print and PDF)."""
    grid = table.pivot_table(index=row, columns=column, values=metric, sort=False, dropna=False)
    limit = max(0.1, float(np.nanmax(np.abs(grid.to_numpy(dtype=float)))))
    fig, ax = plt.subplots(figsize=(1.2 * grid.shape[1] + 2.5, 0.6 * grid.shape[0] + 1.5))
    sns.heatmap(grid, annot=True, fmt=".3f", cmap="RdBu", center=0, vmin=-limit, vmax=limit,
                cbar_kws={"label": metric}, ax=ax)
    ax.set_title(title or "")
    ax.set_xlabel(column)
    ax.set_ylabel(row)
    fig.tight_layout()
    return fig


def _bias_points(paired: pd.DataFrame, x: str, y: str) -> pd.DataFrame:
    """Count items per (system, x, y) so overlapping points are drawn once, sized by count."""
    return (paired.groupby(["system", x, y], sort=False)
            .agg(n=("item", "size"), items=("metaphor", lambda s: ", ".join(map(str, s))))
            .reset_index())


def severity_bias_scatter(paired: pd.DataFrame, x: str = "A", y: str = "B", title: str | None = None) -> go.Figure:
    """Per system, each item's SEGS by rater ``x`` against rater ``y`` with the line y = x.

    Points above the line are items the second rater penalised more. Marker area grows
    with the number of items at the same point; hover lists the metaphor words.
    """
    points = _bias_points(paired, x, y)
    systems = list(dict.fromkeys(paired["system"]))
    top = float(max(paired[x].max(), paired[y].max(), 1)) * 1.08
    fig = make_subplots(rows=1, cols=len(systems), subplot_titles=systems, shared_yaxes=True)
    for k, system in enumerate(systems, start=1):
        p = points[points["system"] == system]
        fig.add_trace(go.Scatter(
            x=p[x], y=p[y], mode="markers", name=system, showlegend=False,
            marker={"size": 8 + 5 * np.sqrt(p["n"]), "opacity": 0.7},
            customdata=np.stack([p["n"], p["items"]], axis=-1),
            hovertemplate=f"{x} = %{{x}}, {y} = %{{y}}<br>%{{customdata[0]}} item(s): %{{customdata[1]}}<extra></extra>",
        ), row=1, col=k)
        fig.add_trace(go.Scatter(x=[0, top], y=[0, top], mode="lines", line={"dash": "dot", "color": "grey"},
                                 hoverinfo="skip", showlegend=False), row=1, col=k)
        fig.update_xaxes(title_text=f"SEGS by {x}", range=[-1, top], row=1, col=k)
    fig.update_yaxes(title_text=f"SEGS by {y}", range=[-1, top], row=1, col=1)
    fig.update_layout(title=title, height=420)
    return fig


def severity_bias_static(paired: pd.DataFrame, x: str = "A", y: str = "B", title: str | None = None):
    """Static twin of :func:`severity_bias_scatter`."""
    points = _bias_points(paired, x, y)
    systems = list(dict.fromkeys(paired["system"]))
    top = float(max(paired[x].max(), paired[y].max(), 1)) * 1.08
    fig, axes = plt.subplots(1, len(systems), figsize=(4 * len(systems), 4), sharey=True, squeeze=False)
    for ax, system in zip(axes[0], systems):
        p = points[points["system"] == system]
        ax.scatter(p[x], p[y], s=25 * p["n"], alpha=0.6)
        ax.plot([0, top], [0, top], ls=":", color="grey")
        ax.set(title=system, xlabel=f"SEGS by {x}", xlim=(-1, top), ylim=(-1, top))
    axes[0][0].set_ylabel(f"SEGS by {y}")
    fig.suptitle(title or "")
    fig.tight_layout()
    return fig


def save_static(fig, results_dir, notebook: str, name: str) -> list[Path]:
    """Save a static (matplotlib) figure as PNG and SVG next to the notebook's result tables."""
    folder = paths.resolve_output(results_dir) / notebook
    folder.mkdir(parents=True, exist_ok=True)
    out = [folder / f"{name}.png", folder / f"{name}.svg"]
    fig.savefig(out[0], dpi=200, bbox_inches="tight")
    fig.savefig(out[1], bbox_inches="tight")
    return out


def _per_item(profile: pd.DataFrame) -> pd.DataFrame:
    """Category penalties of :func:`helpers.metahope.error_profile` divided by the items."""
    from .metahope import CATEGORIES

    long = profile.melt(id_vars=[c for c in profile.columns if c not in CATEGORIES], value_vars=list(CATEGORIES),
                        var_name="category", value_name="penalty")
    long["per_item"] = long["penalty"] / long["n_items"]
    return long


def error_profile_bars(profile: pd.DataFrame, panel: str = "direction", title: str | None = None) -> go.Figure:
    """Mean penalty per metaphor, stacked by error category, one bar per system (and
    annotator), one panel per value of ``panel``. Hover gives the category's share."""
    long = _per_item(profile)
    panels = list(dict.fromkeys(long[panel]))
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=panels, shared_yaxes=True)
    colours = dict(zip(["IMP", "RAM", "MIS", "STL", "PRF"], ["#4c72b0", "#dd8452", "#c44e52", "#8172b3", "#55a868"]))
    label = long["system"] + (" · " + long["annotator"].astype(str) if "annotator" in long else "")
    long = long.assign(bar=label)
    for k, p in enumerate(panels, start=1):
        sub = long[long[panel] == p]
        for cat, colour in colours.items():
            c = sub[sub["category"] == cat]
            fig.add_trace(go.Bar(x=c["bar"], y=c["per_item"], name=cat, marker_color=colour, legendgroup=cat,
                                 showlegend=k == 1, customdata=np.stack([c["penalty"], c["n_items"]], axis=-1),
                                 hovertemplate=f"{cat}: %{{y:.2f}} per metaphor<br>%{{customdata[0]}} points over "
                                               "%{customdata[1]} items<extra>%{x}</extra>"), row=1, col=k)
    fig.update_layout(barmode="stack", title=title, height=460, legend_title_text="error")
    fig.update_yaxes(title_text="mean penalty per metaphor", row=1, col=1)
    return fig


def error_profile_static(profile: pd.DataFrame, panel: str = "direction", title: str | None = None):
    """Static twin of :func:`error_profile_bars`."""
    long = _per_item(profile)
    long["bar"] = long["system"] + (" · " + long["annotator"].astype(str) if "annotator" in long else "")
    panels = list(dict.fromkeys(long[panel]))
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4), sharey=True, squeeze=False)
    for ax, p in zip(axes[0], panels):
        table = long[long[panel] == p].pivot_table(index="bar", columns="category", values="per_item", sort=False)
        table[[c for c in ["IMP", "RAM", "MIS", "STL", "PRF"] if c in table]].plot.bar(stacked=True, ax=ax,
                                                                                      legend=ax is axes[0][-1])
        ax.set(title=p, xlabel="", ylabel="mean penalty per metaphor")
        ax.tick_params(axis="x", labelrotation=30)
    fig.suptitle(title or "")
    fig.tight_layout()
    return fig


def sweep_lines(sweeps: pd.DataFrame, metric_label: str, title: str | None = None) -> go.Figure:
    """One panel per simulation knob: the agreement metric as the knob changes."""
    knobs = list(dict.fromkeys(sweeps["knob"]))
    fig = make_subplots(rows=1, cols=len(knobs), subplot_titles=knobs, shared_yaxes=True)
    for k, knob in enumerate(knobs, start=1):
        s = sweeps[sweeps["knob"] == knob]
        fig.add_trace(go.Scatter(x=s["value"], y=s["metric"], mode="lines+markers", showlegend=False,
                                 hovertemplate=f"{knob} = %{{x}}<br>{metric_label} = %{{y:.3f}}<extra></extra>"),
                      row=1, col=k)
        fig.update_xaxes(title_text=knob, row=1, col=k)
    fig.update_yaxes(title_text=metric_label, row=1, col=1)
    fig.update_layout(title=title, height=380)
    return fig


def sweep_static(sweeps: pd.DataFrame, metric_label: str, title: str | None = None):
    """Static twin of :func:`sweep_lines`."""
    knobs = list(dict.fromkeys(sweeps["knob"]))
    fig, axes = plt.subplots(1, len(knobs), figsize=(4 * len(knobs), 3.5), sharey=True, squeeze=False)
    for ax, knob in zip(axes[0], knobs):
        s = sweeps[sweeps["knob"] == knob]
        ax.plot(s["value"], s["metric"], marker="o")
        ax.set(title=knob, xlabel=knob)
    axes[0][0].set_ylabel(metric_label)
    fig.suptitle(title or "")
    fig.tight_layout()
    return fig


def dendrogram(clusters: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Interactive dendrogram of :func:`helpers.explanations.cluster_dimensions` (distance 1 − ρ)."""
    import plotly.figure_factory as ff
    from scipy.spatial.distance import squareform

    rho = clusters.attrs["rho"]
    z = clusters.attrs["linkage"]
    fig = ff.create_dendrogram(np.clip(1 - rho.to_numpy(), 0, None), labels=list(rho.index),
                               distfun=lambda m: squareform(m, checks=False), linkagefun=lambda _: z)
    fig.update_layout(title=title, height=380, yaxis_title="1 − Spearman ρ")
    return fig


def dendrogram_static(clusters: pd.DataFrame, title: str | None = None):
    """Static twin of :func:`dendrogram`."""
    from scipy.cluster.hierarchy import dendrogram as scipy_dendrogram

    fig, ax = plt.subplots(figsize=(7, 3.5))
    scipy_dendrogram(clusters.attrs["linkage"], labels=list(clusters.attrs["rho"].index), ax=ax)
    ax.set(title=title or "", ylabel="1 − Spearman ρ")
    fig.tight_layout()
    return fig


def mean_sd_scatter(item_stats: pd.DataFrame, dimension: str = "overall", title: str | None = None) -> go.Figure:
    """Per item: mean score against the raters' SD, with a quadratic fit (paper Figure 1)."""
    sub = item_stats[item_stats["dimension"] == dimension]
    fig = go.Figure(go.Scatter(
        x=sub["mean"], y=sub["sd"], mode="markers", name="items", customdata=np.stack([sub["item_id"],
                                                                                       sub["metaphor"]], axis=-1),
        hovertemplate="%{customdata[0]}: %{customdata[1]}<br>mean %{x:.2f}, SD %{y:.2f}<extra></extra>"))
    coef = np.polyfit(sub["mean"], sub["sd"], 2)
    xs = np.linspace(sub["mean"].min(), sub["mean"].max(), 50)
    fig.add_trace(go.Scatter(x=xs, y=np.polyval(coef, xs), mode="lines", name="quadratic fit", hoverinfo="skip"))
    fig.update_layout(title=title, xaxis_title=f"mean {dimension}", yaxis_title=f"SD of {dimension} across raters",
                      height=420)
    return fig


def mean_sd_static(item_stats: pd.DataFrame, dimension: str = "overall", title: str | None = None):
    """Static twin of :func:`mean_sd_scatter`."""
    sub = item_stats[item_stats["dimension"] == dimension]
    fig, ax = plt.subplots(figsize=(6, 4))
    sns.regplot(x=sub["mean"], y=sub["sd"], order=2, ax=ax, scatter_kws={"s": 15})
    ax.set(title=title or "", xlabel=f"mean {dimension}", ylabel=f"SD of {dimension}")
    fig.tight_layout()
    return fig


def rater_bars(profile: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Each rater's leniency (mean deviation from the item means) with the SD of the deviations."""
    fig = go.Figure(go.Bar(x=profile["rater"], y=profile["leniency"],
                           error_y={"type": "data", "array": profile["deviation_sd"]},
                           customdata=profile[["mean_score", "n_items"]].to_numpy(),
                           hovertemplate="%{x}: leniency %{y:+.2f}<br>mean score %{customdata[0]:.2f} over "
                                         "%{customdata[1]} items<extra></extra>"))
    fig.update_layout(title=title, yaxis_title="mean deviation from item mean", height=380)
    return fig


def mae_bars(mae: pd.DataFrame, title: str | None = None) -> go.Figure:
    """Held-out MAE per score: the evaluator against the two baselines."""
    fig = go.Figure()
    for column, name in (("test_mae", "evaluator"), ("mean_baseline_mae", "training mean"),
                         ("similarity_baseline_mae", "similarity only")):
        fig.add_trace(go.Bar(x=mae["score"], y=mae[column], name=name,
                             hovertemplate=f"{name}: %{{y:.3f}}<extra>%{{x}}</extra>"))
    fig.update_layout(barmode="group", title=title, yaxis_title="held-out MAE", height=400)
    return fig
