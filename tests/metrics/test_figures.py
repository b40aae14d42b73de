"""Chapter 09's figures: each interactive figure draws from a small hand-made table."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from helpers.core.book import plots
from helpers.metrics import figures


def test_correlation_bars_never_go_negative():
    """A degenerate bootstrap can give an interval that misses its estimate (here chrF's
    [0.7, 0.9] around 0.6) or none at all; the bars are then 0 on that side, not an error."""
    table = pd.DataFrame(
        {
            "level": "system",
            "metric": ["bleu", "chrf", "ter"],
            "statistic": "pearson",
            "estimate": [0.5, 0.6, 0.4],
            "ci_low": [0.2, 0.7, np.nan],
            "ci_high": [0.8, 0.9, np.nan],
            "n": 3,
        }
    )
    fig = figures.correlations(table)
    bars = {t.name: (list(t.error_x.arrayminus), list(t.error_x.array)) for t in fig.data}
    assert np.allclose(bars["bleu"], [[0.3], [0.3]])
    assert np.allclose(bars["chrf"], [[0.0], [0.3]]) and np.allclose(bars["ter"], [[0.0], [0.0]])
    twin = plots.static(fig)
    markers = [c for c in twin.axes[0].collections if type(c).__name__ == "PathCollection"]
    assert sum(len(c.get_offsets()) for c in markers) == 3  # one marker per metric
    plt.close(twin)


def test_system_figures_name_every_system():
    ranks = pd.DataFrame(
        {
            "system": ["A", "B", "C"],
            "mqm": [0.5, 2.0, 5.5],
            "mqm_rank": [1.0, 2.0, 3.0],
            "protocol": [30.0, 10.0, 20.0],
            "protocol_rank": [1.0, 3.0, 2.0],
            "bleu": [20.0, 30.0, 10.0],
            "bleu_rank": [2.0, 1.0, 3.0],
            "rank_shift": [0.0, 1.0, -1.0],
        }
    )
    scatter = figures.system_scatter(ranks)
    assert list(scatter.data[0].text) == ["A", "B", "C"]
    lines = figures.rank_disagreement(ranks, "DA")
    assert [t.name for t in lines.data] == ["A", "B", "C"] and list(lines.data[1].y) == [2.0, 3.0, 1.0]
    assert list(lines.data[0].x) == ["expert MQM", "DA", "BLEU"]
    no_protocol = figures.rank_disagreement(ranks.assign(protocol_rank=np.nan), "")
    assert list(no_protocol.data[0].x) == ["expert MQM", "BLEU"]
