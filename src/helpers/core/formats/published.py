"""Recomputed tables side by side with the tables the papers print.

Published tables are entered as CSV under ``data/published/<study>/`` (citation in that
folder's README). They are read as text so that each cell's printed precision is known:
a recomputed value *matches* when it rounds to the printed value, i.e. when
``|recomputed − published| ≤ ½·10^−decimals``. ``NA`` in a published table matches an
undefined (NaN) recomputed value.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import paths
from ..errors import InputError


def read_published(study: str, table: str) -> pd.DataFrame:
    """Read ``data/published/<study>/<table>.csv`` as text (cells keep their printed form)."""
    path = paths.published_dir() / study / f"{table}.csv"
    if not path.exists():
        raise InputError("no such published table", file=path)
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _decimals(text: str) -> int | None:
    text = text.strip().rstrip("%")
    if text in ("", "NA"):
        return None
    return len(text.split(".")[1]) if "." in text else 0


def compare_with_published(recomputed: pd.DataFrame, published: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """Long table ``keys…, column, published, recomputed, difference, match``.

    Every non-key column of ``published`` is compared with the same column of
    ``recomputed`` (rows joined on ``keys``). A published row missing from the recomputed
    table, or the reverse, raises: nothing is dropped silently.
    """
    keys = list(keys)
    rec = recomputed.set_index(keys)
    pub = published.set_index(keys)
    missing = pub.index.difference(rec.index).tolist()
    extra = rec.index.difference(pub.index).tolist()
    if missing or extra:
        raise ValueError(f"rows differ: published only {missing}, recomputed only {extra}")
    rows = []
    for idx, prow in pub.iterrows():
        idx = idx if isinstance(idx, tuple) else (idx,)
        for column, text in prow.items():
            if column not in rec.columns:
                raise ValueError(f"recomputed table has no column {column!r}")
            value = rec.loc[idx if len(idx) > 1 else idx[0], column]
            value = float(value) if value is not None else np.nan
            decimals = _decimals(text)
            if decimals is None:
                pub_value, diff, match = np.nan, np.nan, bool(np.isnan(value))
            else:
                pub_value = float(text.strip().rstrip("%"))
                diff = value - pub_value
                match = bool(abs(diff) <= 0.5 * 10.0**-decimals + 1e-9)
            rows.append(
                {
                    **dict(zip(keys, idx)),
                    "column": column,
                    "published": pub_value,
                    "recomputed": value,
                    "difference": diff,
                    "match": match,
                }
            )
    return pd.DataFrame(rows)


def unpaired_keys(table: pd.DataFrame, published: pd.DataFrame, keys: Sequence[str]) -> list[str]:
    """The key columns whose values in ``table`` share none with the published table's
    (e.g. a class's systems sysA, sysB against the paper's GoogleMT, GPT-5.4, …): on those
    no row of this run pairs with a row of the paper."""
    return [k for k in keys if set(table[k].astype(str)).isdisjoint(published[k].astype(str))]


def beside_published(table: pd.DataFrame, published: pd.DataFrame, keys: Sequence[str], label: str) -> pd.DataFrame:
    """Published values next to this run's, column by column, *without* a difference or a
    match verdict: for runs on other data (e.g. a simulation), where agreement with the
    paper would mean nothing. Columns are (column, "published") and (column, ``label``).

    When no value of a key is shared (:func:`unpaired_keys`, e.g. other systems), rows
    cannot be paired; then each statistic is one row (per value of the other keys) with the
    paper's values, one column per value of the unpaired keys ("GoogleMT (published)"),
    beside this run's ("sysA (this run)"), so the paper's values stay a reference.
    """
    keys = list(keys)
    pub = published.set_index(keys).replace({"NA": np.nan}).astype(float)
    run = table.set_index(keys)
    apart = unpaired_keys(table, published, keys)
    if apart:
        statistic = next(n for n in ("statistic", "quantity", "column") if n not in keys)
        columns = {}
        for frame, tag in ((pub, "published"), (run, label)):
            long = frame[[c for c in pub.columns if c in frame.columns]].astype(float).stack(future_stack=True)
            long.index = long.index.set_names([*keys, statistic])
            for name, part in long.groupby(level=apart, sort=False):
                name = name if isinstance(name, tuple) else (name,)
                columns[f"{' / '.join(map(str, name))} ({tag})"] = part.droplevel(apart)
        return pd.DataFrame(columns)
    parts = {}
    for column in pub.columns:
        parts[(column, "published")] = pub[column]
        parts[(column, label)] = run[column].reindex(pub.index) if column in run.columns else np.nan
    return pd.DataFrame(parts)
