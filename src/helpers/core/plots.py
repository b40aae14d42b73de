"""The plotting base: offline plotly figures, static twins for print, one colour map.

Offline rendering: :func:`show` emits a figure as an HTML ``<div>`` that calls
``Plotly.newPlot`` *without* embedding or fetching plotly.js; the book build copies the
plotly.js bundled with the installed ``plotly`` package into the book and loads it only
on pages that hold a figure (see :mod:`helpers.core.runner`). In JupyterLab the same
output also carries plotly's own mimetype, which the ``jupyterlab-plotly`` extension
renders.

Every figure of the book comes as an interactive plotly figure, shown in the page, and a
static matplotlib/seaborn twin saved for print by :class:`~helpers.core.results.Results`.
:func:`colour` gives every error category, system, dimension and model one colour across
the whole book; :func:`titled` puts the SIMULATED label into a figure's title.
"""

from __future__ import annotations

import json
import shutil
import uuid
import zlib
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import seaborn as sns

PLOTLY_JS = "plotly.min.js"
#: Fonts that can show Chinese text, for plotly (the reader's browser picks the first it has).
CJK_FONT_STACK = ("Noto Sans CJK SC, Source Han Sans SC, WenQuanYi Micro Hei, Microsoft YaHei, PingFang SC, "
                  "Hiragino Sans GB, SimHei, Arial Unicode MS, sans-serif")

#: One colour per thing the book plots, the same on every page (colour-blind-safe hues).
PALETTE: dict[str, str] = {
    # MetaHOPE error categories
    "IMP": "#4c72b0", "RAM": "#dd8452", "MIS": "#c44e52", "STL": "#8172b3", "PRF": "#55a868",
    # MT systems
    "GoogleMT": "#1b9e77", "GPT-5.4": "#d95f02", "Hunyuan-LLM-7B": "#7570b3",
    # explanation dimensions and Overall
    "non_circularity": "#66c2a5", "origin": "#fc8d62", "mapping": "#8da0cb", "emergence": "#e78ac3",
    "accessibility": "#a6d854", "purpose": "#ffd92f", "overall": "#555555",
    # evaluator baselines
    "evaluator": "#1f77b4", "training mean": "#aaaaaa", "similarity only": "#ff7f0e",
}
_FALLBACK = ("#17becf", "#bcbd22", "#e377c2", "#8c564b", "#9467bd", "#2ca02c", "#d62728", "#ff7f0e", "#1f77b4")


def colour(name) -> str:
    """The book's colour for ``name`` (a category, system, dimension, model …).

    Unknown names get a colour from a fallback palette chosen by a stable hash of the
    name, so the same name has the same colour in every figure and every run.

    Examples
    --------
    >>> colour("MIS")
    '#c44e52'
    >>> colour("my system") == colour("my system")
    True
    """
    text = str(name)
    return PALETTE.get(text) or _FALLBACK[zlib.crc32(text.encode()) % len(_FALLBACK)]


def titled(title: str | None, simulated: bool) -> str:
    """``title`` with the SIMULATED label in front when the data are simulated."""
    title = title or ""
    return f"SIMULATED: {title}" if simulated else title


def plotly_js_path() -> Path:
    """The plotly.js bundle shipped inside the installed ``plotly`` package."""
    import plotly

    return Path(plotly.__file__).parent / "package_data" / PLOTLY_JS


def install_plotly_js(folder: str | Path) -> Path:
    """Copy plotly.js into ``folder`` (skipped when already identical)."""
    src = plotly_js_path()
    dest = Path(folder) / PLOTLY_JS
    dest.parent.mkdir(parents=True, exist_ok=True)
    if not dest.exists() or dest.stat().st_size != src.stat().st_size:
        shutil.copyfile(src, dest)
    return dest


class PlotlyOutput:
    """Rich-display wrapper: HTML div for the book, plotly mimetype for JupyterLab."""

    def __init__(self, fig: go.Figure):
        self.fig = fig

    def _repr_mimebundle_(self, include=None, exclude=None):
        div_id = f"fig-{uuid.uuid4().hex[:12]}"
        html = self.fig.to_html(full_html=False, include_plotlyjs=False, div_id=div_id,
                                config={"displaylogo": False, "responsive": True})
        return {"application/vnd.plotly.v1+json": json.loads(self.fig.to_json()), "text/html": html,
                "text/plain": f"<plotly figure {div_id}>"}


def show(fig: go.Figure) -> PlotlyOutput:
    """Return a displayable wrapper of ``fig`` (make it the last expression of a cell)."""
    fig.update_layout(font_family=f"Open Sans, Verdana, Arial, {CJK_FONT_STACK}")
    return PlotlyOutput(fig)


def _limit(z: np.ndarray) -> float:
    return max(0.1, float(np.nanmax(np.abs(z)))) if np.isfinite(z).any() else 1.0


def heatmap(table: pd.DataFrame, row: str, column: str, metric: str, title: str | None = None,
            decimals: int = 3) -> go.Figure:
    """Interactive heatmap of one metric (rows × columns), diverging around 0.

    Hovering a cell shows row, column and the value; NaN cells are labelled NA.
    """
    grid = table.pivot_table(index=row, columns=column, values=metric, sort=False, dropna=False)
    z = grid.to_numpy(dtype=float)
    text = [["NA" if np.isnan(v) else f"{v:.{decimals}f}" for v in r] for r in z]
    limit = _limit(z)
    fig = go.Figure(go.Heatmap(
        z=z, x=[str(c) for c in grid.columns], y=[str(i) for i in grid.index], text=text, texttemplate="%{text}",
        colorscale="RdBu", zmid=0, zmin=-limit, zmax=limit, colorbar={"title": metric},
        hovertemplate=f"{row}: %{{y}}<br>{column}: %{{x}}<br>{metric} = %{{z:.{decimals}f}}<extra></extra>"))
    fig.update_layout(title=title, yaxis={"autorange": "reversed"}, height=320 + 30 * len(grid.index),
                      margin={"l": 140, "r": 40, "t": 60, "b": 50})
    return fig


def heatmap_static(table: pd.DataFrame, row: str, column: str, metric: str, title: str | None = None,
                   decimals: int = 3):
    """Static seaborn twin of :func:`heatmap` (for print and PDF)."""
    grid = table.pivot_table(index=row, columns=column, values=metric, sort=False, dropna=False)
    limit = _limit(grid.to_numpy(dtype=float))
    fig, ax = plt.subplots(figsize=(1.2 * grid.shape[1] + 2.5, 0.6 * grid.shape[0] + 1.5))
    sns.heatmap(grid, annot=True, fmt=f".{decimals}f", cmap="RdBu", center=0, vmin=-limit, vmax=limit,
                cbar_kws={"label": metric}, ax=ax)
    ax.set_title(title or "")
    ax.set_xlabel(column)
    ax.set_ylabel(row)
    fig.tight_layout()
    return fig
