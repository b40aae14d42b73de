"""Made-up QE predictions with a known shift and error, shared by test_robustness.py and test_figures.py."""

from __future__ import annotations

import pandas as pd


def _toy_predictions(shift: float = 0.1, error: float = 0.25):
    """Two models on 6 posts: 'reader' ranks the posts (its G0 misses each human score by
    ± ``error``, so its RMSE is ``error``) and moves by ± ``shift`` for homophones and by ±3 for
    a swapped source; 'blind' gives the same score whatever the source."""
    human = pd.Series([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    rows = []
    for i, h in enumerate(human):
        g0 = h + (error if i % 2 == 0 else -error)
        rows += [
            ("reader", "G0", i, g0),
            ("reader", "M1G1", i, g0 + shift),
            ("reader", "M1G2", i, g0 - shift),
            ("reader", "SWAP", i, g0 + (3.0 if i % 2 else -3.0)),
            ("reader", "M2G2", i, g0 + 1.0),
            ("blind", "G0", i, 0.5 * (i % 3)),
            ("blind", "M1G1", i, 0.5 * (i % 3)),
            ("blind", "M1G2", i, 0.5 * (i % 3)),
            ("blind", "SWAP", i, 0.5 * (i % 3)),
            ("blind", "M2G2", i, 0.5 * (i % 3) - 0.1),
        ]
    return pd.DataFrame(rows, columns=["model", "group", "instance", "predicted"]), human
