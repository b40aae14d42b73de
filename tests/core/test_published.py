"""Comparison with published tables at their printed precision."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.core.formats import published as cp


def _published(**cols):
    return pd.DataFrame({"system": ["X"], **{k: [v] for k, v in cols.items()}}, dtype=str)


def test_match_within_half_a_printed_unit():
    rec = pd.DataFrame({"system": ["X"], "ratio": [0.9375], "pct": [76.923], "total": [22.0], "r": [np.nan]})
    out = cp.compare_with_published(rec, _published(ratio="0.938", pct="76.9", total="22", r="NA"), ["system"])
    assert out["match"].all()
    assert out.set_index("column").loc["ratio", "difference"] == pytest.approx(-0.0005)


def test_mismatch_detected():
    rec = pd.DataFrame({"system": ["X"], "ratio": [0.9376], "per": [1.143], "r": [0.2]})
    out = cp.compare_with_published(rec, _published(ratio="0.937", per="1.2", r="NA"), ["system"]).set_index("column")
    assert not out.loc["ratio", "match"] and not out.loc["per", "match"] and not out.loc["r", "match"]


def test_rows_must_correspond():
    rec = pd.DataFrame({"system": ["Y"], "a": [1.0]})
    with pytest.raises(ValueError, match="rows differ"):
        cp.compare_with_published(rec, _published(a="1"), ["system"])
