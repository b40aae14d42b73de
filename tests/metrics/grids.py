"""Score frames built from grids of human and metric scores, shared by test_meta.py and test_meta_command.py."""

import numpy as np
import pandas as pd


def frames(human_grid, metric_grids, systems=None):
    """Tidy frames from (segments, systems) grids; NaN = not scored."""
    human_grid = np.asarray(human_grid, dtype=float)
    systems = systems or [f"S{k}" for k in range(human_grid.shape[1])]
    rows = [
        (s, i + 1, human_grid[i, k])
        for i in range(human_grid.shape[0])
        for k, s in enumerate(systems)
        if not np.isnan(human_grid[i, k])
    ]
    human = pd.DataFrame(rows, columns=["system", "segment", "score"])
    mrows = []
    for name, grid in metric_grids.items():
        grid = np.asarray(grid, dtype=float)
        mrows += [
            (s, i + 1, name, grid[i, k])
            for i in range(grid.shape[0])
            for k, s in enumerate(systems)
            if not np.isnan(grid[i, k])
        ]
    return human, pd.DataFrame(mrows, columns=["system", "segment", "metric", "score"])
