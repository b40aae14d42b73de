"""Chapter 08's saved result tables as its findings read them back (:data:`FINDINGS_INPUTS`, with
their column types), and how the chapter writes a range or a list of names."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


def _span(low, high) -> str:
    return f"{low}" if low == high else f"{low}–{high}"


def _listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


#: The result files :func:`helpers.wmt.ch08.findings` reads (``results/08_wmt_mqm/<name>.csv``).
FINDINGS_INPUTS = (
    "data_summary",
    "reproduced",
    "scheme_weights",
    "scheme_rankings",
    "weight_sweep",
    "alpha_by_weight",
    "alpha_by_scheme",
    "scheme_differences",
    "icc_by_documents",
    "presence_agreement",
    "span_agreement",
    "rater_bias",
    "rater_effects",
    "system_pairs",
    "certainty_segments_vs_documents",
    "system_pairs_multi_rated",
    "esa_summary",
    "esa_rankings",
)
#: Columns read as written (names and printed values, not numbers) or as whole numbers that may be missing.
_TYPES = {
    "reproduced": {"table": str, "system": str, "published": str},
    "esa_rankings": {"human_rank": "Int64", "auto_rank": "Int64", "rank_shift": "Int64"},
    "rater_bias": {"rater": str},
    "rater_effects": {"rater": str},
    "scheme_rankings": {"system": str},
    "data_summary": {"quantity": str, "group": str, "text": str},
    "esa_summary": {"quantity": str, "group": str, "text": str},
}


def _saved(folder, name: str) -> pd.DataFrame | None:
    """``<folder>/<name>.csv`` as saved, or None when the run did not write it."""
    path = Path(folder) / f"{name}.csv"
    if not path.exists():
        return None
    if path.stat().st_size <= 1:  # a table without columns
        return pd.DataFrame()
    frame = pd.read_csv(path, dtype=_TYPES.get(name), float_precision="round_trip")
    if name.endswith("_summary"):  # a findings frame: "" where a quantity has no group or text
        frame[["group", "text"]] = frame[["group", "text"]].fillna("")
    return frame


def _summary(frame: pd.DataFrame | None, quantity: str, group: str = "", column: str = "value"):
    """One cell of a ``*_summary.csv`` (:func:`helpers.wmt.ch08.description`, :func:`helpers.wmt.ch08.esa_description`)."""
    rows = frame[(frame["quantity"] == quantity) & (frame["group"] == group)]
    return rows[column].iloc[0] if len(rows) else None


__all__ = ["FINDINGS_INPUTS"]
