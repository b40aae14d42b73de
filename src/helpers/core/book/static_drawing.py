"""The drawing behind :func:`helpers.core.book.plots.static`: a plotly figure's panels laid out on a
matplotlib canvas, one drawer per trace type, layout shapes, annotations, axes and the legend.

One renderer draws the print version of every figure from its plotly figure. Kaleido (plotly's
own exporter) is not used: it drives a headless Chrome, which the machines that build the book
do not have at run time. Hover text, which print cannot show, is left out.
"""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np
import plotly.graph_objects as go

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


def plain(text) -> str:
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


def layout_panels(fig: go.Figure, canvas):
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


def colour_of(trace, k: int, colorway) -> object:
    """A trace's own line or marker colour, else the ``k``-th of the colourway."""
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


def draw_scatter(panel: _Panel, trace, colour_, offset: float, cmap_default):
    """Draw a ``Scatter`` trace (markers, lines, text, error bars); its legend handle."""
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
                ax.figure.colorbar(points, ax=ax, label=plain(marker.colorbar.title.text), shrink=0.6)
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
                plain(text),
                (xi, yi),
                xytext=(dx + shift, dy),
                textcoords="offset points",
                ha=ha,
                va=va,
                fontsize=(font.size or 10) * 0.75,
                color=_rgb(font.color) or "#222222",
            )
    return handle


def draw_bar(panel: _Panel, trace, colour_, offset: float, width: float, base: dict):
    """Draw a ``Bar`` trace, vertical or horizontal, stacked on ``base``; its legend handle."""
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


def draw_heatmap(panel: _Panel, trace, cmap_default):
    """Draw a ``Heatmap`` trace: cells annotated by ``texttemplate``, a colour bar unless hidden; no legend handle."""
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
        ax.figure.colorbar(image, ax=ax, label=plain(trace.colorbar.title.text))
    return None


def draw_histogram(panel: _Panel, trace, colour_):
    """Draw a ``Histogram`` trace; its legend handle."""
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


def draw_box(panel: _Panel, trace, colour_, offset: float, width: float):
    """Draw a ``Box`` trace, one box per category, with its points; its legend handle."""
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


def draw_shape(panels: dict, shape):
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


def draw_annotation(panels: dict, note, layout) -> None:
    """A subplot title becomes its panel's title; any other annotation is written where plotly puts it."""
    text = plain(note.text)
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


def finish_axis(panel: _Panel, letter: str) -> None:
    """Give a panel's ``x`` or ``y`` axis its title, scale, range and ticks."""
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    axis, ax = getattr(panel, letter), panel.ax
    spec = axis.spec
    setattr_ = getattr(ax, f"set_{letter}label")
    setattr_(plain(spec.title.text))
    if spec.type == "log":
        getattr(ax, f"set_{letter}scale")("log")
    if spec.range is not None and None not in spec.range:
        low, high = (10 ** float(v) for v in spec.range) if spec.type == "log" else spec.range
        getattr(ax, f"set_{letter}lim")(low, high)
    if axis.categorical:
        names = [plain(c) for c in axis.categories]
        inches = ax.get_position().width * ax.figure.get_figwidth()
        crowded = letter == "x" and max(map(len, names), default=0) * len(names) > 10 * inches  # ~10 characters an inch
        turn = {"rotation": 30, "ha": "right"} if crowded else {}
        getattr(ax, f"set_{letter}ticks")(range(len(names)), names, **turn)
        edge = 0.5 if axis.cells else 0.6  # heatmap cells fill the axis
        getattr(ax, f"set_{letter}lim")(-edge, len(axis.categories) - 1 + edge)
    if spec.tickvals is not None:
        labels = spec.ticktext if spec.ticktext is not None else [str(v) for v in spec.tickvals]
        getattr(ax, f"set_{letter}ticks")(list(spec.tickvals), [plain(t) for t in labels])
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


def draw_legend(canvas, panels: dict, entries: dict, layout) -> None:
    """Draw the figure's legend from ``entries`` (label -> handle), where plotly would show one."""
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
    title = plain(layout.legend.title.text) or None
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
