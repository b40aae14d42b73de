"""The colour registry: core keeps the mechanism, each study registers its own colours, and the
book's figures keep the colours they had when core held one palette for every study."""

from __future__ import annotations

import ast
import importlib
import zlib
from pathlib import Path

import pytest

from helpers.core.book import plots

# The palette core/book/plots.py held before each study registered its own (commit bde6950), copied
# here as the independently known colours the figures must keep.
OLD_PALETTE = {
    "metahope": {
        "IMP": "#4c72b0",
        "RAM": "#dd8452",
        "MIS": "#c44e52",
        "STL": "#8172b3",
        "PRF": "#55a868",
        "GoogleMT": "#1b9e77",
        "GPT-5.4": "#d95f02",
        "Hunyuan-LLM-7B": "#7570b3",
    },
    "explanations": {
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
    },
    "slang": {
        "尼玛": "#0072b2",
        "特么": "#e69f00",
        "卧槽": "#009e73",
        "草泥马": "#cc79a7",
        "劳资": "#d55e00",
        "percentile (Algorithm 2)": "#000000",
        "percentile (Algorithm 2 as printed: P[1:k], least frequent)": "#a6761d",
        "self-information, most probable": "#1b7837",
        "self-information, most informative": "#762a83",
        "features+ridge": "#332288",
        "USE multilingual v3 (frozen)+ridge": "#cc6677",
        "multilingual-e5-small (frozen)+ridge": "#44aa99",
        "all-MiniLM-L6-v2 (frozen)+ridge": "#999933",
        "transformer (all-MiniLM-L6-v2)": "#aa4499",
    },
    # chapter 08 had no entry: its two lines took the fallback cycle's colours by the hash of
    # their names, which the registry now writes down
    "wmt": {"resample segments": "#8c564b", "resample documents": "#2ca02c"},
}
FALLBACK = ("#17becf", "#bcbd22", "#e377c2", "#8c564b", "#9467bd", "#2ca02c", "#d62728", "#ff7f0e", "#1f77b4")


@pytest.mark.parametrize("study", sorted(OLD_PALETTE))
def test_each_study_registers_the_colours_its_figures_had(study):
    module = importlib.import_module(f"helpers.{study}.figures")
    assert OLD_PALETTE[study].items() <= module.COLOURS.items()  # new figures may register new labels
    for label, expected in OLD_PALETTE[study].items():
        assert plots.colour(label) == expected, label


def test_wmt_colours_are_what_the_fallback_gave_them():
    for label, expected in OLD_PALETTE["wmt"].items():
        assert FALLBACK[zlib.crc32(label.encode()) % len(FALLBACK)] == expected


def test_core_plots_names_no_study_label():
    source = Path(plots.__file__).read_text(encoding="utf-8")
    constants = {
        n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }
    for study, labels in OLD_PALETTE.items():
        for label in labels:
            assert label not in constants, f"core/book/plots.py holds {study}'s label {label!r}"
            # labels that cannot be an ordinary word of the module must not appear anywhere in it
            if len(label) > 8 or not label.isascii():
                assert label not in source, f"core/book/plots.py mentions {study}'s label {label!r}"
            assert f'"{label}"' not in source and f"'{label}'" not in source, label


def test_unregistered_label_gets_a_stable_fallback_colour():
    name = "a system no study registered"
    assert name not in plots.registered_colours()
    assert plots.colour(name) == FALLBACK[zlib.crc32(name.encode()) % len(FALLBACK)]


def test_a_label_cannot_take_a_second_colour(monkeypatch):
    monkeypatch.setattr(plots, "_REGISTRY", {})
    plots.register_colours({"x": "#010203"})
    plots.register_colours({"x": "#010203"})  # the same again (a reloaded module) is fine
    with pytest.raises(ValueError, match="already registered as '#010203'"):
        plots.register_colours({"x": "#030201"})
    with pytest.raises(ValueError, match="'#rrggbb'"):
        plots.register_colours({"y": "blue"})
    assert plots.registered_colours() == {"x": "#010203"}


# --------------------------------------------------------------------------- the static twin
# Small hand-made plotly figures: the twin must hold the same points, bars and cells, the same
# titles and the same (registered) colours as the figure it is drawn from.


def _twin(fig):
    import matplotlib.pyplot as plt

    twin = plots.static(fig)
    plt.close(twin)
    return twin


def _points(ax):
    return [c for c in ax.collections if type(c).__name__ == "PathCollection"]


def test_twin_scatter_keeps_points_colours_error_bars_and_titles():
    import matplotlib.colors as mc
    import plotly.graph_objects as go

    plots.register_colours({"twin test system": "#123abc"})
    fig = go.Figure(
        go.Scatter(
            x=[1, 2, 3],
            y=[0.5, 0.7, 0.2],
            mode="markers",
            name="twin test system",
            marker={"color": plots.colour("twin test system")},
            error_y={"type": "data", "array": [0.1, 0.2, 0.1]},
        )
    )
    fig.add_trace(go.Scatter(x=[1, 3], y=[0, 1], mode="lines", name="fit", line={"color": "grey", "dash": "dot"}))
    fig.update_layout(title="A title", xaxis_title="the x", yaxis_title="the y")
    ax = _twin(fig).axes[0]
    (markers,) = _points(ax)
    assert markers.get_offsets().tolist() == [[1, 0.5], [2, 0.7], [3, 0.2]]
    assert mc.to_hex(markers.get_facecolor()[0]) == "#123abc"
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("A title", "the x", "the y")
    (line,) = [ln for ln in ax.lines if ln.get_linestyle() == ":"]
    assert line.get_xdata().tolist() == [1, 3] and mc.to_hex(line.get_color()) == "#808080"
    bars = [c for c in ax.collections if type(c).__name__ == "LineCollection"]
    ends = [v for seg in bars[0].get_segments() for v in seg[:, 1]]
    assert ends == pytest.approx([0.4, 0.6, 0.5, 0.9, 0.1, 0.3])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["twin test system", "fit"]


def test_twin_bars_grouped_stacked_and_horizontal():
    import matplotlib.colors as mc
    import plotly.graph_objects as go

    grouped = go.Figure(
        [
            go.Bar(x=["a", "b", "c"], y=[1, 2, 3], name="one", marker_color="#ff0000"),
            go.Bar(x=["a", "b", "c"], y=[3, 2, 1], name="two", marker_color="#0000ff"),
        ]
    )
    ax = _twin(grouped).axes[0]
    assert len(ax.patches) == 6
    assert [round(p.get_height()) for p in ax.patches] == [1, 2, 3, 3, 2, 1]
    assert {mc.to_hex(p.get_facecolor()) for p in ax.patches[:3]} == {"#ff0000"}
    assert ax.patches[0].get_x() < ax.patches[3].get_x() < 0.5  # side by side within category a
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    stacked = _twin(grouped.update_layout(barmode="stack")).axes[0]
    assert [p.get_y() for p in stacked.patches[3:]] == [1, 2, 3]  # the second trace sits on the first
    flat = go.Figure(go.Bar(y=["top", "bottom"], x=[2.0, 5.0], orientation="h"))
    flat.update_layout(yaxis={"autorange": "reversed"}, xaxis_title="penalty")
    ax = _twin(flat).axes[0]
    assert [p.get_width() for p in ax.patches] == [2.0, 5.0] and ax.yaxis_inverted()
    assert ax.get_xlabel() == "penalty"


def test_twin_heatmap_keeps_every_cell_its_label_and_its_colour_bar():
    import pandas as pd

    table = pd.DataFrame(
        {"system": ["A", "A", "B", "B"], "error": ["x", "y", "x", "y"], "alpha": [0.5, -0.25, 0.125, float("nan")]}
    )
    twin = _twin(plots.heatmap(table, "system", "error", "alpha", title="α", decimals=2))
    ax, bar = twin.axes
    assert ax.images[0].get_array().shape == (2, 2)
    assert sorted(t.get_text() for t in ax.texts) == sorted(["0.50", "-0.25", "0.12", "NA"])
    assert bar.get_ylabel() == "alpha" and ax.get_title() == "α" and ax.yaxis_inverted()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A", "B"]


def test_twin_subplots_have_their_titles_axes_and_lines():
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2, subplot_titles=["left", "right"], shared_yaxes=True)
    fig.add_trace(go.Scatter(x=[1, 2], y=[1, 2], mode="markers"), row=1, col=1)
    fig.add_trace(go.Scatter(x=[1, 2, 3], y=[3, 2, 1], mode="markers"), row=1, col=2)
    fig.add_hline(y=0.5, line_dash="dash", row=1, col=2)
    fig.update_xaxes(title_text="log x", type="log", row=1, col=2)
    fig.update_layout(title="both")
    twin = _twin(fig)
    left, right = twin.axes
    assert (left.get_title(), right.get_title(), twin._suptitle.get_text()) == ("left", "right", "both")
    assert [len(_points(ax)[0].get_offsets()) for ax in (left, right)] == [2, 3]
    assert right.get_xscale() == "log" and right.get_xlabel() == "log x"
    assert [ln.get_ydata().tolist() for ln in right.lines] == [[0.5, 0.5]] and not left.lines


def test_twin_box_and_histogram():
    import numpy as np
    import plotly.graph_objects as go

    box = go.Figure(
        [go.Box(x=["g1"] * 4 + ["g2"] * 4, y=np.arange(8.0), name=m, boxpoints="all") for m in ("m1", "m2")]
    ).update_layout(boxmode="group")
    ax = _twin(box).axes[0]
    assert len(ax.patches) == 4  # a box per group and model
    assert sum(len(c.get_offsets()) for c in _points(ax)) == 16  # and every point
    hist = go.Figure(go.Histogram(x=np.linspace(0, 1, 50), nbinsx=10))
    assert len(_twin(hist).axes[0].patches) == 10


def test_twin_refuses_a_trace_it_cannot_draw():
    import plotly.graph_objects as go

    with pytest.raises(ValueError, match="pie"):
        plots.static(go.Figure(go.Pie(values=[1, 2])))
