"""Unit tests of helpers.slang.figures."""

from __future__ import annotations

import numpy as np

from helpers.slang import robustness as rb

from .toy_predictions import _toy_predictions


def test_shift_figures_in_units_of_each_models_spread():
    import matplotlib.pyplot as plt

    from helpers.core.book import plots
    from helpers.slang import figures

    preds, _ = _toy_predictions()
    shifts = rb.score_shifts(preds)
    spread = preds[preds["group"] == "G0"].groupby("model")["predicted"].std(ddof=0)
    fig = figures.shift_figure(shifts, spread, "toy")
    assert [t.name for t in fig.data] == ["reader", "blind"]
    reader = fig.data[0]
    assert list(dict.fromkeys(reader.x)) == ["M1G1", "M1G2", "M2G2 (post-edit)", "SWAP (another post's source)"]
    np.testing.assert_allclose(
        sorted(set(np.round(reader.y[:12], 6))),
        sorted({round(0.1 / spread["reader"], 6), round(-0.1 / spread["reader"], 6)}),
    )
    assert fig.data[0].marker.color != fig.data[1].marker.color
    static = plots.static(fig)
    assert static.axes[0].get_title() == "toy"
    plt.close(static)
