"""Ratings of metaphor explanations on six dimensions plus Overall (Naveriani et al. 2026): input.

The study rated 100 explanations × 16 raters × 7 scores (1–5 Likert): Non-Circularity,
Origin & Cultural Accuracy, Mapping, Emergence, Accessibility, Purpose and Overall. Its
ratings are not public; the book carries an authored benchmark with a designed pass/fail
profile per dimension (``data/authored/metaphor_explanations.csv``) and
:func:`simulate_ratings`, and every function here runs unchanged on real ratings.

Ratings are tidy: one row per (item_id, rater, dimension) with an integer ``score``;
a rater who skipped an item simply has no row (missing data, never dropped silently).
"""

from __future__ import annotations

import os
import re


import pandas as pd

from ..core import paths
from ..core.errors import InputError

DIMENSIONS: tuple[str, ...] = ("non_circularity", "origin", "mapping", "emergence", "accessibility", "purpose")
SCORES: tuple[str, ...] = DIMENSIONS + ("overall",)
LABELS = {
    "non_circularity": "Non-Circularity", "origin": "Origin & Cultural Accuracy", "mapping": "Mapping",
    "emergence": "Emergence", "accessibility": "Accessibility", "purpose": "Purpose", "overall": "Overall",
}
SHORT = {"non_circularity": "NC", "origin": "OR", "mapping": "MP", "emergence": "EM", "accessibility": "AC",
         "purpose": "PU", "overall": "OV"}
BENCHMARK_FILE = "data/authored/metaphor_explanations.csv"
RATING_COLUMNS = ["item_id", "metaphor", "explanation", "rater", "dimension", "score"]


def _dimension_key(text) -> str | None:
    """'Mapping', 'mapping', 'MP', 'Origin and Cultural Accuracy' -> key; None if unknown."""
    t = re.sub(r"[^a-z]", "", str(text).lower())
    for key in SCORES:
        forms = {re.sub(r"[^a-z]", "", key), re.sub(r"[^a-z]", "", LABELS[key].lower()), SHORT[key].lower()}
        if t in forms:
            return key
    if t in ("originandculturalaccuracy", "overallquality"):
        return "origin" if t.startswith("origin") else "overall"
    return None


def _score(value, file, row, column) -> int:
    """A 1–5 rating (numbers, numeric text, or text starting with the number such as '4 - good')."""
    m = re.match(r"^\s*(\d+(?:\.0+)?)\b", str(value))
    if m is None or not 1 <= float(m.group(1)) <= 5:
        raise InputError(file=file, problem="score must be an integer from 1 to 5", row=row, column=column, value=value)
    return int(float(m.group(1)))


def load_benchmark(path: str | os.PathLike | None = None) -> pd.DataFrame:
    """The authored benchmark: one row per item with metaphor, explanation and the designed
    pass (1) / fail (0) of each dimension."""
    path = paths.resolve_input(path or BENCHMARK_FILE)
    bench = pd.read_csv(path, dtype={"violates": str}, keep_default_na=False)
    missing = [c for c in ["item_id", "metaphor", "explanation", "design", *DIMENSIONS] if c not in bench.columns]
    if missing:
        raise InputError(file=path, problem=f"missing column(s) {missing}", row=1)
    for d in DIMENSIONS:
        bad = bench.index[~bench[d].isin([0, 1])]
        if len(bad):
            raise InputError(file=path, problem="designed pass/fail must be 0 or 1", row=int(bad[0]) + 2, column=d,
                               value=bench.loc[bad[0], d])
    return bench


def read_ratings(path: str | os.PathLike, benchmark: pd.DataFrame | None = None) -> pd.DataFrame:
    """Read ratings in the long layout or as a wide Google-Forms export.

    * long: columns ``item_id, rater, dimension, score`` (``metaphor``, ``explanation``
      optional; taken from ``benchmark`` when missing);
    * wide: one row per rater, a rater column (``rater``, ``Name``, ``Email Address`` or
      ``Username``; else the row number) and one column per rating headed
      ``<item_id> … [<dimension>]``, the way Forms exports a grid question.

    Errors name the file, the row (as in a spreadsheet: header = row 1), the column and
    the value: scores outside 1–5, unknown dimensions, duplicate ratings.
    """
    path = paths.resolve_input(path)
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    if {"item_id", "rater", "dimension", "score"} <= set(raw.columns):
        records = []
        for i, r in raw.iterrows():
            row = i + 2
            if not r["score"].strip():
                continue  # an empty cell is a missing rating
            key = _dimension_key(r["dimension"])
            if key is None:
                raise InputError(file=path, problem=f"unknown dimension (expected one of {', '.join(LABELS.values())})",
                                   row=row, column="dimension", value=r["dimension"])
            for col in ("item_id", "rater"):
                if not r[col].strip():
                    raise InputError(file=path, problem=f"{col} is empty", row=row, column=col, value=r[col])
            records.append({"item_id": r["item_id"].strip(), "rater": r["rater"].strip(), "dimension": key,
                            "score": _score(r["score"], path, row, "score"), "_row": row,
                            "metaphor": r.get("metaphor", ""), "explanation": r.get("explanation", "")})
        long = pd.DataFrame.from_records(records)
    else:
        long = _read_wide(raw, path)
    dup = long.duplicated(["item_id", "rater", "dimension"], keep="first")
    if dup.any():
        first = long[dup].iloc[0]
        raise InputError(file=path, problem=f"a second rating of item {first['item_id']} by rater {first['rater']} on "
                           f"{first['dimension']}", row=int(first["_row"]), value=first["item_id"])
    return _attach_texts(long.drop(columns="_row"), benchmark, path)


def _read_wide(raw: pd.DataFrame, path) -> pd.DataFrame:
    header = re.compile(r"^\s*(?P<item>[^\s\[\].]+)[^\[]*\[(?P<dim>[^\]]+)\]\s*$")
    rater_col = next((c for c in ("rater", "Name", "Email Address", "Username") if c in raw.columns), None)
    rating_cols = {}
    for col in raw.columns:
        m = header.match(col)
        if m:
            key = _dimension_key(m.group("dim"))
            if key is None:
                raise InputError(file=path, problem="unknown dimension in the column header", row=1, column=col,
                                   value=m.group("dim"))
            rating_cols[col] = (m.group("item"), key)
    if not rating_cols:
        raise InputError(file=path, problem="neither the long layout (item_id, rater, dimension, score) nor Forms-style "
                           "columns '<item_id> ... [<dimension>]' were found", row=1)
    records = []
    for i, r in raw.iterrows():
        rater = r[rater_col].strip() if rater_col else f"rater{i + 1}"
        for col, (item, key) in rating_cols.items():
            if r[col].strip():
                records.append({"item_id": item, "rater": rater, "dimension": key,
                                "score": _score(r[col], path, i + 2, col), "_row": i + 2,
                                "metaphor": "", "explanation": ""})
    return pd.DataFrame.from_records(records)


def _attach_texts(long: pd.DataFrame, benchmark: pd.DataFrame | None, source) -> pd.DataFrame:
    if benchmark is not None:
        texts = benchmark.set_index("item_id")[["metaphor", "explanation"]]
        have = long["metaphor"].astype(str).str.strip() != ""
        long.loc[~have, "metaphor"] = long.loc[~have, "item_id"].map(texts["metaphor"]).fillna("")
        have = long["explanation"].astype(str).str.strip() != ""
        long.loc[~have, "explanation"] = long.loc[~have, "item_id"].map(texts["explanation"]).fillna("")
    long["dimension"] = pd.Categorical(long["dimension"], categories=list(SCORES), ordered=True)
    long = long[RATING_COLUMNS].reset_index(drop=True)
    long.attrs["source"] = str(source)
    return long
