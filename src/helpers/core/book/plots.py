"""The plotting base: offline plotly figures, static twins for print, one colour map.

Offline rendering: :func:`show` emits a figure as an HTML ``<div>`` that calls
``Plotly.newPlot`` *without* embedding or fetching plotly.js; the book publishes the
plotly.js bundled with the installed ``plotly`` package and loads it, deferred, only on
pages that hold a figure (``book/_ext/book_assets.py``). In JupyterLab the same
output also carries plotly's own mimetype, which the ``jupyterlab-plotly`` extension
renders.

Every figure of the book is drawn once, as an interactive plotly figure shown in the page;
:func:`static` draws its matplotlib twin from it (with the drawers of
:mod:`helpers.core.book.static_drawing`), which
:meth:`~helpers.core.book.results.Results.show` saves for print.
:func:`colour` gives every error category, system, dimension and model one colour across
the whole book. Core knows no study's labels: each study registers its own with
:func:`register_colours` when its ``figures`` module is imported, and a label nobody
registered gets a stable colour from a fallback cycle. :func:`titled` puts the SIMULATED
label into a figure's title.

Chinese text in static figures (chapters 6 and 7) needs a CJK font that matplotlib can
find on every machine the book is built on, without root. Compared on 2026-11-30:

=========================  ===========  ==========  =============================  ==========================
package (PyPI)             wheel        installed   font, licence                  notes
=========================  ===========  ==========  =============================  ==========================
pylopdf-fonts-zh-cn 0.1.1  17.1 MB      20.0 MB     Noto Sans SC + Serif SC, OFL   chosen: right licence
                                                                                   label, simplified glyphs
cvttf-notosanscjk-regular  27.4 MB      32.9 MB     Noto Sans CJK TC (twice), OFL  labelled MIT, traditional
mplfonts 0.0.11            85 MB        107 MB      several                        bundles proprietary SimHei
Debian fonts-noto-cjk      56.5 MB      91 MB       Noto Sans CJK, OFL             needs root (apt)
=========================  ===========  ==========  =============================  ==========================

:func:`use_cjk_font` registers the font's file with matplotlib (an apt-installed font is
not seen by matplotlib's cached font list) and puts it after DejaVu Sans in
``font.family``, so Latin text keeps its face and Chinese glyphs fall back to Noto Sans
SC. It runs when this module is imported.
"""

from __future__ import annotations

import base64
import json
import re
import uuid
import zlib
from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import plotly.graph_objects as go

from . import static_drawing as drawing

#: Fonts that can show Chinese text, for plotly (the reader's browser picks the first it has).
CJK_FONT_STACK = (
    "Noto Sans CJK SC, Source Han Sans SC, WenQuanYi Micro Hei, Microsoft YaHei, PingFang SC, "
    "Hiragino Sans GB, SimHei, Arial Unicode MS, sans-serif"
)

#: The registered colours: label -> hex colour (filled by :func:`register_colours`).
_REGISTRY: dict[str, str] = {}
_HEX = re.compile(r"#[0-9a-fA-F]{6}")
_FALLBACK = ("#17becf", "#bcbd22", "#e377c2", "#8c564b", "#9467bd", "#2ca02c", "#d62728", "#ff7f0e", "#1f77b4")


def use_cjk_font() -> str | None:
    """Register Noto Sans SC (package ``pylopdf-fonts-zh-cn``) for static figures; returns its
    family name, or None when the package is missing (Chinese glyphs then show as boxes)."""
    from matplotlib import font_manager

    try:
        from pylopdf_fonts_zh_cn import sans_path
    except ImportError:
        return None
    path = str(sans_path())
    font_manager.fontManager.addfont(path)
    family = font_manager.FontProperties(fname=path).get_name()
    plt.rcParams["font.family"] = ["DejaVu Sans", family]
    return family


CJK_FAMILY = use_cjk_font()


def register_colours(mapping: Mapping[str, str]) -> None:
    """Give each label of ``mapping`` its colour in every figure of the book.

    A study calls this from its ``figures`` module, so the colours hold as soon as the
    study can draw. Registering a label again with the same colour does nothing (a module
    reloaded); a label another study already holds with another colour is an error, so two
    studies cannot silently paint one label two ways. Colours are matplotlib colour specs
    that plotly also reads (``#rrggbb``).

    Examples
    --------
    >>> register_colours({"doctest label": "#123456"})
    >>> colour("doctest label")
    '#123456'
    >>> register_colours({"doctest label": "#654321"})
    Traceback (most recent call last):
    ...
    ValueError: colour of 'doctest label' is already registered as '#123456', not '#654321'
    """
    for label, value in mapping.items():
        text, value = str(label), str(value)
        if not _HEX.fullmatch(value):
            raise ValueError(f"colour of {text!r} must be '#rrggbb', got {value!r}")
        held = _REGISTRY.get(text)
        if held is not None and held.lower() != value.lower():
            raise ValueError(f"colour of {text!r} is already registered as {held!r}, not {value!r}")
        _REGISTRY[text] = value


def registered_colours() -> dict[str, str]:
    """A copy of every registered label and its colour."""
    return dict(_REGISTRY)


def colour(name) -> str:
    """The book's colour for ``name`` (a category, system, dimension, model …).

    Registered names (:func:`register_colours`) get their colour; any other name gets one
    from a fallback cycle chosen by a stable hash of the name, so the same name has the same
    colour in every figure and every run.

    Examples
    --------
    >>> colour("my system") == colour("my system")
    True
    >>> colour("my system") in _FALLBACK
    True
    """
    text = str(name)
    return _REGISTRY.get(text) or _FALLBACK[zlib.crc32(text.encode()) % len(_FALLBACK)]


def titled(title: str | None, simulated: bool) -> str:
    """``title`` with the SIMULATED label in front when the data are simulated."""
    title = title or ""
    return f"SIMULATED: {title}" if simulated else title


# The book loads plotly.js deferred (book/_ext/book_assets.py), so a figure's inline script may
# run before the library: draw now if Plotly is there, else on DOMContentLoaded (deferred
# scripts have run by then), else when the plotly <script> element has loaded.
_WAIT_OPEN = "(function(){function draw(){"
_WAIT_CLOSE = (
    "}if(window.Plotly){draw();}"
    "else if(document.readyState==='loading'){document.addEventListener('DOMContentLoaded',draw,{once:true});}"
    "else{var s=document.querySelector('script[src*=\"plotly.min.js\"]');"
    "if(s){s.addEventListener('load',draw,{once:true});}}})();"
)
_FIGURE_SCRIPT = re.compile(r'<script(?: type="text/javascript")?>(\s*window\.PLOTLYENV=.*?)</script>', re.S)


def deferred_safe(html: str) -> str:
    """Wrap the one figure script of ``Figure.to_html(include_plotlyjs=False)`` so that it waits
    for a deferred plotly.js; raises if plotly's output no longer has exactly one such script."""
    out, n = _FIGURE_SCRIPT.subn(lambda m: f"<script>{_WAIT_OPEN}{m.group(1)}{_WAIT_CLOSE}</script>", html)
    if n != 1:
        raise ValueError(f"expected one plotly figure script in the figure HTML, found {n}")
    return out


class PlotlyOutput:
    """Rich-display wrapper: HTML div for the book, plotly mimetype for JupyterLab and, when
    given, the static twin as ``image/png`` for print (the printable edition's builder prefers
    it to the HTML div, ``_config.yml``; the HTML pages and JupyterLab never show it)."""

    def __init__(self, fig: go.Figure, png: bytes | None = None):
        self.fig, self.png = fig, png

    def _repr_mimebundle_(self, include=None, exclude=None):
        div_id = f"fig-{uuid.uuid4().hex[:12]}"
        html = deferred_safe(
            self.fig.to_html(
                full_html=False,
                include_plotlyjs=False,
                div_id=div_id,
                config={"displaylogo": False, "responsive": True},
            )
        )
        bundle = {
            "application/vnd.plotly.v1+json": json.loads(self.fig.to_json()),
            "text/html": html,
            "text/plain": f"<plotly figure {div_id}>",
        }
        if self.png is not None:
            bundle["image/png"] = base64.b64encode(self.png).decode("ascii")
        return bundle


def show(fig: go.Figure, png: bytes | None = None) -> PlotlyOutput:
    """Return a displayable wrapper of ``fig`` (make it the last expression of a cell); ``png``
    is its static twin, carried in the same output for the printable edition."""
    fig.update_layout(font_family=f"Open Sans, Verdana, Arial, {CJK_FONT_STACK}")
    return PlotlyOutput(fig, png)


def _limit(z: np.ndarray) -> float:
    return max(0.1, float(np.nanmax(np.abs(z)))) if np.isfinite(z).any() else 1.0


def heatmap(
    table: pd.DataFrame, row: str, column: str, metric: str, title: str | None = None, decimals: int = 3
) -> go.Figure:
    """Interactive heatmap of one metric (rows × columns), diverging around 0.

    Hovering a cell shows row, column and the value; NaN cells are labelled NA.
    """
    grid = table.pivot_table(index=row, columns=column, values=metric, sort=False, dropna=False)
    z = grid.to_numpy(dtype=float)
    text = [["NA" if np.isnan(v) else f"{v:.{decimals}f}" for v in r] for r in z]
    limit = _limit(z)
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=[str(c) for c in grid.columns],
            y=[str(i) for i in grid.index],
            text=text,
            texttemplate="%{text}",
            colorscale="RdBu",
            zmid=0,
            zmin=-limit,
            zmax=limit,
            colorbar={"title": metric},
            hovertemplate=f"{row}: %{{y}}<br>{column}: %{{x}}<br>{metric} = %{{z:.{decimals}f}}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title,
        yaxis={"autorange": "reversed"},
        height=320 + 30 * len(grid.index),
        margin={"l": 140, "r": 40, "t": 60, "b": 50},
    )
    return fig


# --------------------------------------------------------------------------- the static twin
# One renderer draws the print version of every figure from its plotly figure; its parts (panels,
# one drawer per trace type, shapes, annotations, axes, legend) are helpers.core.book.static_drawing.


def static(fig: go.Figure):
    """The static (matplotlib) twin of a plotly figure, for print: drawn from the figure itself,
    so the interactive and the printed figure cannot drift apart.

    Draws the trace types the book uses: ``Scatter`` (markers, lines, text, error bars, open
    symbols, a colour scale), ``Bar`` (vertical or horizontal; grouped, stacked or overlaid;
    error bars, patterns), ``Heatmap`` (cells annotated by ``texttemplate``), ``Histogram`` and
    ``Box`` (grouped, with all points); subplots placed by their domains; axis titles, log and
    category axes, ranges, ``autorange="reversed"``, tick values and percent ticks; layout
    shapes (``add_hline``, ``add_vline``), annotations and subplot titles; the title and the
    legend. Colours are the figure's own (:func:`colour`), so registered colours hold in
    print; Chinese labels use the font :func:`use_cjk_font` registered. Hover text is left
    out. Kaleido, plotly's own image export, is not used: it needs a Chrome browser, which
    the machines that build the book do not have.

    Examples
    --------
    >>> twin = static(go.Figure(go.Bar(x=["a", "b"], y=[1, 2]), layout={"title": "t"}))
    >>> len(twin.axes[0].patches), twin.axes[0].get_title()
    (2, 't')
    >>> plt.close(twin)
    """
    unknown = sorted({t.type for t in fig.data} - {"scatter", "bar", "heatmap", "histogram", "box"})
    if unknown:
        raise ValueError(f"the static renderer cannot draw a {unknown[0]!r} trace")
    layout = fig.layout
    template = layout.template.layout
    colorway = layout.colorway or template.colorway or _FALLBACK
    cmap_default = (template.colorscale.sequential if template.colorscale else None) or "Viridis"
    if isinstance(cmap_default, str):
        cmap_default = go.Heatmap(colorscale=cmap_default).colorscale
    columns = len({t.xaxis or "x" for t in fig.data} or {"x"})

    def size(value, default):  # plotly pixels to inches; a figure-factory figure may say inf
        return (value if value and np.isfinite(value) else default) / 100

    canvas = plt.figure(figsize=(size(layout.width, max(700, 430 * columns)), size(layout.height, 450)))
    panels = drawing.layout_panels(fig, canvas)
    legend: dict[str, tuple] = {}
    groups: dict[tuple, list] = {}
    for trace in fig.data:
        key = (trace.xaxis or "x", trace.yaxis or "y", trace.type)
        groups.setdefault(key, []).append(trace)
    bases: dict[tuple, dict] = {}
    for k, trace in enumerate(fig.data):
        key = (trace.xaxis or "x", trace.yaxis or "y", trace.type)
        panel, colour_ = panels[key[:2]], drawing.colour_of(trace, k, colorway)
        siblings = groups[key]
        handle = None
        if trace.type == "scatter":
            shift = 0.0
            if layout.scattermode == "group":
                shift = (siblings.index(trace) - (len(siblings) - 1) / 2) * (0.6 / len(siblings))
            handle = drawing.draw_scatter(panel, trace, colour_, shift, cmap_default)
        elif trace.type == "bar":
            stacked = layout.barmode in ("stack", "relative")
            n = 1 if stacked or layout.barmode == "overlay" else len(siblings)
            width = 0.8 / n
            shift = 0.0 if n == 1 else (siblings.index(trace) - (n - 1) / 2) * width
            base = bases.setdefault(key, {}) if stacked else {}
            handle = drawing.draw_bar(panel, trace, colour_, shift, width, base)
        elif trace.type == "heatmap":
            handle = drawing.draw_heatmap(panel, trace, cmap_default)
        elif trace.type == "histogram":
            handle = drawing.draw_histogram(panel, trace, colour_)
        elif trace.type == "box":
            n = len(siblings) if layout.boxmode == "group" else 1
            width = 0.8 / n
            shift = 0.0 if n == 1 else (siblings.index(trace) - (n - 1) / 2) * width
            handle = drawing.draw_box(panel, trace, colour_, shift, width)
        name = trace.legendgroup or trace.name
        if handle is not None and trace.name and trace.showlegend is not False and name not in legend:
            legend[name] = (drawing.plain(trace.name), handle)
    for shape in layout.shapes:
        drawing.draw_shape(panels, shape)
    for note in layout.annotations:
        drawing.draw_annotation(panels, note, layout)
    for panel in panels.values():
        drawing.finish_axis(panel, "x")
        drawing.finish_axis(panel, "y")
    drawing.draw_legend(canvas, panels, legend, layout)
    title = drawing.plain(layout.title.text)
    if len(panels) == 1 and not next(iter(panels.values())).ax.get_title():
        next(iter(panels.values())).ax.set_title(title, fontsize=10)
    elif title:
        canvas.suptitle(title, fontsize=11)
    canvas.tight_layout()
    return canvas
