"""Unit tests of helpers.slang.figures."""

from __future__ import annotations

import numpy as np
import pandas as pd

from helpers.slang import robustness as rb


def _toy_predictions(shift: float = 0.1, error: float = 0.25):
    """Two models on 6 posts: 'reader' ranks the posts (its G0 misses each human score by
    ± ``error``, so its RMSE is ``error``) and moves by ± ``shift`` for homophones and by ±3 for
    a swapped source; 'blind' gives the same score whatever the source."""
    human = pd.Series([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    rows = []
    for i, h in enumerate(human):
        g0 = h + (error if i % 2 == 0 else -error)
        rows += [("reader", "G0", i, g0), ("reader", "M1G1", i, g0 + shift), ("reader", "M1G2", i, g0 - shift),
                 ("reader", "SWAP", i, g0 + (3.0 if i % 2 else -3.0)), ("reader", "M2G2", i, g0 + 1.0),
                 ("blind", "G0", i, 0.5 * (i % 3)), ("blind", "M1G1", i, 0.5 * (i % 3)),
                 ("blind", "M1G2", i, 0.5 * (i % 3)), ("blind", "SWAP", i, 0.5 * (i % 3)),
                 ("blind", "M2G2", i, 0.5 * (i % 3) - 0.1)]
    return pd.DataFrame(rows, columns=["model", "group", "instance", "predicted"]), human


def test_shift_figures_in_units_of_each_models_spread():
    import matplotlib.pyplot as plt

    from helpers.core import plots
    from helpers.slang import figures

    preds, _ = _toy_predictions()
    shifts = rb.score_shifts(preds)
    spread = preds[preds["group"] == "G0"].groupby("model")["predicted"].std(ddof=0)
    fig = figures.shift_figure(shifts, spread, "toy")
    assert [t.name for t in fig.data] == ["reader", "blind"]
    reader = fig.data[0]
    assert list(dict.fromkeys(reader.x)) == ["M1G1", "M1G2", "M2G2 (post-edit)", "SWAP (another post's source)"]
    np.testing.assert_allclose(sorted(set(np.round(reader.y[:12], 6))), sorted({round(0.1 / spread["reader"], 6),
                                                                               round(-0.1 / spread["reader"], 6)}))
    assert fig.data[0].marker.color != fig.data[1].marker.color
    static = plots.static(fig)
    assert static.axes[0].get_title() == "toy"
    plt.close(static)
