"""The plotting base: offline plotly figures, static twins for print, one colour map.

Offline rendering: :func:`show` emits a figure as an HTML ``<div>`` that calls
``Plotly.newPlot`` *without* embedding or fetching plotly.js; the book publishes the
plotly.js bundled with the installed ``plotly`` package and loads it, deferred, only on
pages that hold a figure (``book/_ext/book_assets.py``). In JupyterLab the same
output also carries plotly's own mimetype, which the ``jupyterlab-plotly`` extension
renders.

Every figure of the book is drawn once, as an interactive plotly figure shown in the page;
:func:`static` draws its matplotlib twin from it, which
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
# One renderer draws the print version of every figure from its plotly figure. Kaleido (plotly's
# own exporter) is not used: it drives a headless Chrome, which the machines that build the book
# do not have at run time. Hover text, which print cannot show, is left out.

_DASH = {"solid": "-", "dot": ":", "dash": "--", "longdash": "--", "dashdot": "-.", "longdashdot": "-."}
_SYMBOL = {
    "circle": "o",
    "square": "s",
    "diamond": "D",
    "star": "*",
    "triangle-up": "^",
    "triangle-down": "v",
    "triangle-left": "<",
    "triangle-right": ">",
    "cross": "P",
    "x": "X",
    "pentagon": "p",
    "hexagon": "h",
}
_HATCH = {"/": "//", "\\": "\\\\", "x": "xx", "-": "--", "|": "||", "+": "++", ".": ".."}
_TEXT_POSITION = {"top": ((0, 5), "bottom"), "bottom": ((0, -5), "top"), "middle": ((0, 0), "center")}
_TEXT_SIDE = {"left": (-5, "right"), "right": (5, "left"), "center": (0, "center")}
_FIELD = re.compile(r"%\{(\w+)(?:\[(\d+)\])?(?::([^}]*))?\}")
_PX = 0.72  # points per plotly pixel (plotly draws at 100 px per inch in print)


def _rgb(value):
    """A plotly colour (``#rrggbb``, ``rgb()``, ``rgba()`` or a CSS name) as matplotlib reads it."""
    if value is None:
        return None
    text = str(value).strip()
    found = re.fullmatch(r"rgba?\(([^)]*)\)", text)
    if found:
        parts = [float(p) for p in found.group(1).split(",")]
        return (*[p / 255 for p in parts[:3]], *parts[3:4])
    return text


def _colormap(scale):
    from matplotlib.colors import LinearSegmentedColormap

    return LinearSegmentedColormap.from_list("plotly", [(float(at), _rgb(c)) for at, c in scale])


def _plain(text) -> str:
    """Plotly's rich text as plain text (``<br>`` a new line, other tags dropped)."""
    return re.sub(r"<[^>]+>", "", re.sub(r"<br\s*/?>", "\n", str(text or "")))


def _numeric(values) -> bool:
    return all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool) for v in values)


def _template(template: str, point: dict) -> str:
    """Fill a plotly text template (``%{z:.2f}``, ``%{text}``, ``%{customdata[0]}``) for one point."""

    def fill(m):
        value = point.get(m.group(1))
        if m.group(2) is not None and value is not None:
            value = value[int(m.group(2))]
        if value is None or (isinstance(value, float) and np.isnan(value)):
            return ""
        try:
            return format(value, m.group(3) or "")
        except (TypeError, ValueError):
            return str(value)

    return _FIELD.sub(fill, template)


def _array(values) -> list:
    return [] if values is None else list(values)


class _Axis:
    """One plotly axis drawn by matplotlib: categories become positions 0, 1, … in plotly's order."""

    def __init__(self, spec, values: list):
        self.spec, self.cells = spec, False
        order = list(spec.categoryarray) if spec.categoryorder == "array" and spec.categoryarray is not None else []
        seen = [v for v in values if v is not None]
        self.categorical = spec.type == "category" or (bool(seen) and not _numeric(seen))
        self.categories = list(dict.fromkeys([*map(str, order), *(str(v) for v in seen)])) if self.categorical else []

    def at(self, values) -> np.ndarray:
        values = _array(values)
        if self.categorical:
            return np.array([self.categories.index(str(v)) if v is not None else np.nan for v in values], dtype=float)
        return np.array([np.nan if v is None else v for v in values], dtype=float)


def _trace_values(trace, letter: str) -> list:
    values = _array(getattr(trace, letter, None))
    if trace.type == "heatmap":
        n = len(trace.z[0]) if letter == "x" else len(trace.z)
        return [str(v) for v in values] if values else [str(i) for i in range(n)]
    if trace.type == "histogram":
        return values if letter == "x" else []
    return values


class _Panel:
    """One subplot: its matplotlib axes and its two plotly axes."""

    def __init__(self, ax, x: _Axis, y: _Axis):
        self.ax, self.x, self.y = ax, x, y

    def transform(self, xref: str, yref: str):
        from matplotlib.transforms import blended_transform_factory

        def pick(ref, data, axes):
            return axes if ref == "paper" or ref.endswith("domain") else data

        ax = self.ax
        return blended_transform_factory(pick(xref, ax.transData, ax.transAxes), pick(yref, ax.transData, ax.transAxes))


def _layout_panels(fig: go.Figure, canvas):
    """A matplotlib axes for each (x, y) axis pair the traces use, placed on a grid by the plotly domains."""
    layout = fig.layout
    pairs = list(dict.fromkeys((t.xaxis or "x", t.yaxis or "y") for t in fig.data)) or [("x", "y")]

    def spec(name):
        return layout[name[0] + "axis" + name[1:]]

    def domain(name):
        return tuple(spec(name).domain or (0, 1))

    xs = sorted({domain(x) for x, _ in pairs})
    ys = sorted({domain(y) for _, y in pairs}, reverse=True)
    grid = canvas.add_gridspec(
        len(ys), len(xs), width_ratios=[b - a for a, b in xs], height_ratios=[b - a for a, b in ys]
    )
    axes = {}
    for x, y in pairs:
        values = {"x": [], "y": []}
        for t in fig.data:
            if (t.xaxis or "x", t.yaxis or "y") == (x, y):
                for letter in values:
                    values[letter] += _trace_values(t, letter)
        ax = canvas.add_subplot(grid[ys.index(domain(y)), xs.index(domain(x))])
        axes[(x, y)] = _Panel(ax, _Axis(spec(x), values["x"]), _Axis(spec(y), values["y"]))
    for (x, y), panel in axes.items():
        for letter, name in (("x", x), ("y", y)):
            matches = spec(name).matches
            other = next((p for (a, b), p in axes.items() if (a if letter == "x" else b) == matches), None)
            if other is not None and other is not panel:
                getattr(panel.ax, f"share{letter}")(other.ax)
    return axes


def _colour_of(trace, k: int, colorway) -> object:
    marker = getattr(trace, "marker", None)
    line = getattr(trace, "line", None)
    for value in (getattr(line, "color", None), getattr(marker, "color", None)):
        if value is not None and isinstance(value, str):
            return _rgb(value)
    return _rgb(colorway[k % len(colorway)])


def _errors(spec, n: int):
    """(minus, plus) error lengths of a plotly ``error_x``/``error_y``, or None."""
    if spec is None or spec.visible is False or (spec.array is None and spec.value is None):
        return None
    plus = np.full(n, float(spec.value or 0)) if spec.array is None else np.asarray(spec.array, dtype=float)
    symmetric = spec.symmetric if spec.symmetric is not None else spec.arrayminus is None
    minus = plus if symmetric or spec.arrayminus is None else np.asarray(spec.arrayminus, dtype=float)
    return np.nan_to_num(minus), np.nan_to_num(plus)


def _draw_scatter(panel: _Panel, trace, colour_, offset: float, cmap_default):
    ax = panel.ax
    x = panel.x.at(trace.x if trace.x is not None else range(len(trace.y)))
    y = panel.y.at(trace.y if trace.y is not None else range(len(trace.x)))
    if panel.x.categorical and not panel.y.categorical:
        x = x + offset
    elif panel.y.categorical:
        y = y + offset
    mode = trace.mode or ("lines+markers" if len(x) < 20 else "lines")
    alpha = trace.opacity if trace.opacity is not None else 1.0
    handle = {"color": colour_, "linestyle": "none", "marker": None}
    if "lines" in mode:
        dash = _DASH.get(trace.line.dash or "solid", "-")
        ax.plot(x, y, color=colour_, linestyle=dash, linewidth=(trace.line.width or 2) * _PX, alpha=alpha)
        handle["linestyle"] = dash
    errors = [_errors(trace.error_x, len(x)), _errors(trace.error_y, len(y))]
    if any(e is not None for e in errors):
        ax.errorbar(
            x, y, xerr=errors[0], yerr=errors[1], fmt="none", ecolor=colour_, elinewidth=0.8, capsize=2, alpha=alpha
        )
    if "markers" in mode:
        marker = trace.marker
        symbol = str(marker.symbol or "circle")
        hollow = symbol.endswith("-open")
        shape = _SYMBOL.get(symbol.removesuffix("-open"), "o")
        size = np.asarray(marker.size if marker.size is not None else 6, dtype=float) * _PX
        colours = _array(marker.color) if isinstance(marker.color, (list, tuple, np.ndarray)) else []
        kw = {
            "marker": shape,
            "s": size**2,
            "alpha": marker.opacity if marker.opacity is not None else alpha,
            "linewidths": (marker.line.width or (1.5 if hollow else 0)) * _PX,
            "zorder": 3,
        }
        if colours and _numeric(colours):
            cmap = _colormap(marker.colorscale or cmap_default)
            points = ax.scatter(x, y, c=colours, cmap=cmap, vmin=marker.cmin, vmax=marker.cmax, **kw)
            colour_ = cmap(0.5)  # the legend shows the middle of the scale
            if marker.showscale or marker.colorbar.to_plotly_json():
                ax.figure.colorbar(points, ax=ax, label=_plain(marker.colorbar.title.text), shrink=0.6)
        else:
            face = [_rgb(c) for c in colours] if colours else colour_
            if hollow:
                ax.scatter(x, y, facecolors="none", edgecolors=face, **kw)
            else:
                ax.scatter(x, y, color=face, **kw)
        handle.update(marker=shape, markerfacecolor="none" if hollow else colour_, markeredgecolor=colour_)
    if "text" in mode and trace.text is not None:
        texts = [trace.text] * len(x) if isinstance(trace.text, str) else _array(trace.text)
        places = trace.textposition
        places = [places] * len(x) if places is None or isinstance(places, str) else _array(places)
        font = trace.textfont
        for xi, yi, text, place in zip(x, y, texts, places):
            vertical, side = (place or "middle center").split(" ")
            (dx, dy), va = _TEXT_POSITION[vertical]
            shift, ha = _TEXT_SIDE[side]
            ax.annotate(
                _plain(text),
                (xi, yi),
                xytext=(dx + shift, dy),
                textcoords="offset points",
                ha=ha,
                va=va,
                fontsize=(font.size or 10) * 0.75,
                color=_rgb(font.color) or "#222222",
            )
    return handle


def _draw_bar(panel: _Panel, trace, colour_, offset: float, width: float, base: dict):
    horizontal = trace.orientation == "h"
    along, value = (trace.y, trace.x) if horizontal else (trace.x, trace.y)
    axis = panel.y if horizontal else panel.x
    at = axis.at(along if along is not None else range(len(value))) + offset
    size = np.nan_to_num(np.asarray(value, dtype=float))
    bottom = np.array([base.get(p, 0.0) for p in at])
    colours = trace.marker.color
    face = [_rgb(c) for c in colours] if isinstance(colours, (list, tuple, np.ndarray)) else colour_
    pattern = trace.marker.pattern.shape
    hatch = _HATCH.get(pattern) if isinstance(pattern, str) else None
    alpha = trace.opacity if trace.opacity is not None else 1.0
    errors = _errors(trace.error_x if horizontal else trace.error_y, len(size))
    err = None if errors is None else np.vstack(errors)
    draw = panel.ax.barh if horizontal else panel.ax.bar
    kw = {"xerr" if horizontal else "yerr": err, "left" if horizontal else "bottom": bottom}
    draw(
        at,
        size,
        width,
        color=face,
        hatch=hatch,
        alpha=alpha,
        edgecolor="white" if hatch is None else "black",
        linewidth=0.5,
        error_kw={"capsize": 3, "elinewidth": 0.8},
        **kw,
    )
    for p, s in zip(at, size):
        base[p] = base.get(p, 0.0) + s
    first = face[0] if isinstance(face, list) and face else face
    return {"patch": True, "facecolor": first, "hatch": hatch, "alpha": alpha}


def _draw_heatmap(panel: _Panel, trace, cmap_default):
    ax = panel.ax
    z = np.asarray(trace.z, dtype=float)
    scale = trace.colorscale or cmap_default
    low, high = trace.zmin, trace.zmax
    if low is None or high is None:
        if trace.zmid is not None:
            reach = float(np.nanmax(np.abs(z - trace.zmid))) if np.isfinite(z).any() else 1.0
            low, high = trace.zmid - reach, trace.zmid + reach
        else:
            low, high = np.nanmin(z), np.nanmax(z)
    cols, rows = panel.x.at(_trace_values(trace, "x")), panel.y.at(_trace_values(trace, "y"))
    panel.x.cells = panel.y.cells = True
    grid = np.full((len(panel.y.categories), len(panel.x.categories)), np.nan)
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            grid[int(r), int(c)] = z[i, j]
    cmap = _colormap(scale)
    image = ax.imshow(
        grid,
        cmap=cmap,
        vmin=low,
        vmax=high,
        aspect="auto",
        origin="lower",
        interpolation="nearest",
        extent=(-0.5, grid.shape[1] - 0.5, -0.5, grid.shape[0] - 0.5),
    )
    if trace.texttemplate:
        text = np.asarray(trace.text, dtype=object) if trace.text is not None else None
        for i, r in enumerate(rows):
            for j, c in enumerate(cols):
                value = z[i, j]
                label = _template(
                    trace.texttemplate,
                    {
                        "z": value,
                        "x": trace.x[j] if trace.x is not None else j,
                        "y": trace.y[i] if trace.y is not None else i,
                        "text": None if text is None else text[i][j],
                    },
                )
                at = (value - low) / (high - low) if high > low else 0.5
                shade = np.mean(cmap(at)[:3]) if np.isfinite(value) else 1.0  # light cells take black text
                ax.text(c, r, label, ha="center", va="center", fontsize=8, color="white" if shade < 0.5 else "black")
    if trace.showscale is not False:
        ax.figure.colorbar(image, ax=ax, label=_plain(trace.colorbar.title.text))
    return None


def _draw_histogram(panel: _Panel, trace, colour_):
    values = np.asarray(trace.x, dtype=float)
    colours = trace.marker.color
    panel.ax.hist(
        values[np.isfinite(values)],
        bins=trace.nbinsx or "auto",
        color=_rgb(colours) or colour_,
        alpha=trace.opacity if trace.opacity is not None else 1.0,
        edgecolor="white",
        linewidth=0.5,
    )
    return {"patch": True, "facecolor": _rgb(colours) or colour_}


def _draw_box(panel: _Panel, trace, colour_, offset: float, width: float):
    x = panel.x.at(trace.x if trace.x is not None else [trace.name] * len(trace.y))
    y = np.asarray(trace.y, dtype=float)
    at = sorted(set(x[np.isfinite(x)]))
    groups = [y[(x == p) & np.isfinite(y)] for p in at]
    parts = panel.ax.boxplot(
        groups,
        positions=[p + offset for p in at],
        widths=width * 0.8,
        patch_artist=True,
        showfliers=trace.boxpoints != "all",
        manage_ticks=False,
    )
    for box in parts["boxes"]:
        box.set(facecolor=colour_, alpha=0.35, edgecolor=colour_)
    for part in ("whiskers", "caps", "medians"):
        for line in parts[part]:
            line.set(color=colour_)
    if trace.boxpoints == "all":
        jitter = np.random.default_rng(0).uniform(-1, 1, len(y)) * (trace.jitter or 0) * width * 0.4
        panel.ax.scatter(
            x + offset + jitter, y, s=(((trace.marker.size or 6) * _PX) ** 2), color=colour_, zorder=3, linewidths=0
        )
    return {"patch": True, "facecolor": colour_, "alpha": 0.6}


def _shape(panels: dict, shape):
    """Draw one layout shape (a line from ``add_hline``/``add_vline``, or a rectangle)."""
    from matplotlib.patches import Rectangle

    panel = _panel_of(panels, shape.xref or "x", shape.yref or "y")
    if panel is None:
        return
    line = shape.line
    style = {
        "color": _rgb(line.color) or "#444444",
        "linestyle": _DASH.get(line.dash or "solid", "-"),
        "linewidth": (line.width or 2) * _PX,
    }
    transform = panel.transform(shape.xref or "x", shape.yref or "y")
    if shape.type == "line":
        panel.ax.plot([shape.x0, shape.x1], [shape.y0, shape.y1], transform=transform, zorder=1, **style)
    elif shape.type == "rect":
        panel.ax.add_patch(
            Rectangle(
                (shape.x0, shape.y0),
                shape.x1 - shape.x0,
                shape.y1 - shape.y0,
                transform=transform,
                facecolor=_rgb(shape.fillcolor) or "none",
                alpha=shape.opacity or 1,
                edgecolor=style["color"],
                zorder=0,
            )
        )


def _panel_of(panels: dict, xref: str, yref: str):
    x, y = xref.split(" ")[0], yref.split(" ")[0]
    if x == "paper" and y == "paper":
        return None
    return panels.get((x, y)) or next((p for (a, b), p in panels.items() if a == x or b == y), None)


def _annotation(panels: dict, note, layout) -> None:
    """A subplot title becomes its panel's title; any other annotation is written where plotly puts it."""
    text = _plain(note.text)
    if note.xref == "paper" and note.yref == "paper":
        for (x, y), panel in panels.items():
            dx, dy = layout[x[0] + "axis" + x[1:]].domain or (0, 1), layout[y[0] + "axis" + y[1:]].domain or (0, 1)
            if abs((dx[0] + dx[1]) / 2 - note.x) < 0.02 and abs(dy[1] - note.y) < 0.02:
                panel.ax.set_title(text, fontsize=9)
                return
        next(iter(panels.values())).ax.figure.text(note.x, note.y, text, fontsize=8)
        return
    panel = _panel_of(panels, note.xref or "x", note.yref or "y")
    if panel is None:
        return
    ha = {"left": "left", "right": "right"}.get(note.xanchor, "center")
    va = {"top": "top", "bottom": "bottom"}.get(note.yanchor, "center")
    x = panel.x.at([note.x])[0] if not (note.xref or "x").endswith(("domain", "paper")) else note.x
    y = panel.y.at([note.y])[0] if not (note.yref or "y").endswith(("domain", "paper")) else note.y
    panel.ax.text(
        x,
        y,
        text,
        ha=ha,
        va=va,
        fontsize=8,
        color="#444444",
        transform=panel.transform(note.xref or "x", note.yref or "y"),
    )


def _finish_axis(panel: _Panel, letter: str) -> None:
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    axis, ax = getattr(panel, letter), panel.ax
    spec = axis.spec
    setattr_ = getattr(ax, f"set_{letter}label")
    setattr_(_plain(spec.title.text))
    if spec.type == "log":
        getattr(ax, f"set_{letter}scale")("log")
    if spec.range is not None and None not in spec.range:
        low, high = (10 ** float(v) for v in spec.range) if spec.type == "log" else spec.range
        getattr(ax, f"set_{letter}lim")(low, high)
    if axis.categorical:
        names = [_plain(c) for c in axis.categories]
        inches = ax.get_position().width * ax.figure.get_figwidth()
        crowded = letter == "x" and max(map(len, names), default=0) * len(names) > 10 * inches  # ~10 characters an inch
        turn = {"rotation": 30, "ha": "right"} if crowded else {}
        getattr(ax, f"set_{letter}ticks")(range(len(names)), names, **turn)
        edge = 0.5 if axis.cells else 0.6  # heatmap cells fill the axis
        getattr(ax, f"set_{letter}lim")(-edge, len(axis.categories) - 1 + edge)
    if spec.tickvals is not None:
        labels = spec.ticktext if spec.ticktext is not None else [str(v) for v in spec.tickvals]
        getattr(ax, f"set_{letter}ticks")(list(spec.tickvals), [_plain(t) for t in labels])
        if spec.type == "log":
            getattr(ax, f"{letter}axis").set_minor_locator(plt.NullLocator())
    if spec.tickformat and spec.tickformat.endswith("%"):
        digits = re.search(r"\.(\d+)", spec.tickformat)
        getattr(ax, f"{letter}axis").set_major_formatter(PercentFormatter(1, int(digits.group(1)) if digits else None))
    if spec.dtick == 1 and not axis.categorical:
        getattr(ax, f"{letter}axis").set_major_locator(MaxNLocator(integer=True))
    if spec.autorange == "reversed":
        getattr(ax, f"invert_{letter}axis")()
    if spec.showticklabels is False:
        ax.tick_params(axis=letter, labelleft=False, labelbottom=False)


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
    panels = _layout_panels(fig, canvas)
    legend: dict[str, tuple] = {}
    groups: dict[tuple, list] = {}
    for trace in fig.data:
        key = (trace.xaxis or "x", trace.yaxis or "y", trace.type)
        groups.setdefault(key, []).append(trace)
    bases: dict[tuple, dict] = {}
    for k, trace in enumerate(fig.data):
        key = (trace.xaxis or "x", trace.yaxis or "y", trace.type)
        panel, colour_ = panels[key[:2]], _colour_of(trace, k, colorway)
        siblings = groups[key]
        handle = None
        if trace.type == "scatter":
            shift = 0.0
            if layout.scattermode == "group":
                shift = (siblings.index(trace) - (len(siblings) - 1) / 2) * (0.6 / len(siblings))
            handle = _draw_scatter(panel, trace, colour_, shift, cmap_default)
        elif trace.type == "bar":
            stacked = layout.barmode in ("stack", "relative")
            n = 1 if stacked or layout.barmode == "overlay" else len(siblings)
            width = 0.8 / n
            shift = 0.0 if n == 1 else (siblings.index(trace) - (n - 1) / 2) * width
            base = bases.setdefault(key, {}) if stacked else {}
            handle = _draw_bar(panel, trace, colour_, shift, width, base)
        elif trace.type == "heatmap":
            handle = _draw_heatmap(panel, trace, cmap_default)
        elif trace.type == "histogram":
            handle = _draw_histogram(panel, trace, colour_)
        elif trace.type == "box":
            n = len(siblings) if layout.boxmode == "group" else 1
            width = 0.8 / n
            shift = 0.0 if n == 1 else (siblings.index(trace) - (n - 1) / 2) * width
            handle = _draw_box(panel, trace, colour_, shift, width)
        name = trace.legendgroup or trace.name
        if handle is not None and trace.name and trace.showlegend is not False and name not in legend:
            legend[name] = (_plain(trace.name), handle)
    for shape in layout.shapes:
        _shape(panels, shape)
    for note in layout.annotations:
        _annotation(panels, note, layout)
    for panel in panels.values():
        _finish_axis(panel, "x")
        _finish_axis(panel, "y")
    _legend(canvas, panels, legend, layout)
    title = _plain(layout.title.text)
    if len(panels) == 1 and not next(iter(panels.values())).ax.get_title():
        next(iter(panels.values())).ax.set_title(title, fontsize=10)
    elif title:
        canvas.suptitle(title, fontsize=11)
    canvas.tight_layout()
    return canvas


def _legend(canvas, panels: dict, entries: dict, layout) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if layout.showlegend is False or not entries or (layout.showlegend is None and len(entries) < 2):
        return
    handles = []
    for label, h in entries.values():
        if h.get("patch"):
            handles.append(
                Patch(
                    facecolor=h["facecolor"],
                    hatch=h.get("hatch"),
                    alpha=h.get("alpha", 1),
                    edgecolor="black" if h.get("hatch") else h["facecolor"],
                    label=label,
                )
            )
        else:
            handles.append(
                Line2D(
                    [],
                    [],
                    color=h["color"],
                    linestyle=h["linestyle"],
                    marker=h["marker"],
                    markerfacecolor=h.get("markerfacecolor"),
                    markeredgecolor=h.get("markeredgecolor"),
                    label=label,
                )
            )
    title = _plain(layout.legend.title.text) or None
    if len(panels) == 1 and layout.legend.orientation != "h" and len(handles) <= 8:
        next(iter(panels.values())).ax.legend(handles=handles, title=title, fontsize=7, title_fontsize=7, loc="best")
    else:
        canvas.legend(
            handles=handles,
            title=title,
            fontsize=7,
            title_fontsize=7,
            loc="upper center",
            bbox_to_anchor=(0.5, 0),
            ncol=min(3, len(handles)),
            frameon=False,
        )
