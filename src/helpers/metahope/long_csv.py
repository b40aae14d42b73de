"""The long CSV interchange format of MetaHOPE annotations: one row per (item, system,
annotator, category) with its severity, written by :func:`to_long` and read back by
:func:`read_long` into the tidy frame (:data:`helpers.metahope.tidy_frame.TIDY_COLUMNS`)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ..core.errors import InputError
from .tidy_frame import CATEGORIES, TIDY_COLUMNS
from .workbooks import clean_sentence, parse_severity

LONG_COLUMNS = ["item", "system", "annotator", "category", "severity"]
LONG_OPTIONAL = ["sentence", "metaphor", "pos", "translation"]


def to_long(tidy: pd.DataFrame) -> pd.DataFrame:
    """The interchange long format: one row per (item, system, annotator, category)."""
    cols = LONG_COLUMNS[:4] + [c for c in LONG_OPTIONAL if c in tidy.columns] + ["severity"]
    out = tidy[cols].copy()
    out["category"] = out["category"].astype(str)
    return out


def read_long(path: str | os.PathLike) -> pd.DataFrame:
    """Read a long-format CSV (``item, system, annotator, category, severity`` + optional
    ``sentence, metaphor, pos, translation``) into the tidy frame.

    Categories an annotator did not list for an (item, system) they rated are 0; an
    (item, system) an annotator has no row for at all is an error (not a silent 0).
    Errors name the file, the CSV line, the column and the value.
    """
    path = Path(path)
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in LONG_COLUMNS if c not in raw.columns]
    if missing:
        raise InputError(f"missing column(s) {missing}; the long format needs {LONG_COLUMNS}", file=path, row=1)
    records = []
    for i, r in raw.iterrows():
        line = i + 2
        if r["category"].strip() not in CATEGORIES:
            raise InputError(
                f"category must be one of {', '.join(CATEGORIES)}",
                file=path,
                row=line,
                column="category",
                value=r["category"],
            )
        for col in ("item", "system", "annotator"):
            if not r[col].strip():
                raise InputError(f"{col} is empty", file=path, row=line, column=col, value=r[col])
        rec = {c: r[c].strip() for c in ("item", "system", "annotator", "category")}
        rec["severity"] = parse_severity(r["severity"], file=path, row=line, column="severity")
        rec["_line"] = line
        for c in LONG_OPTIONAL:
            rec[c] = r[c] if c in raw.columns else ""
        records.append(rec)
    if not records:
        raise InputError("the file has a header but no rows", file=path, row=1)
    df = pd.DataFrame.from_records(records)
    dup = df.duplicated(["item", "system", "annotator", "category"], keep=False)
    if dup.any():
        first = df[dup].iloc[0]
        raise InputError(
            "the same (item, system, annotator, category) appears twice",
            file=path,
            row=int(first["_line"]),
            column="item",
            value=first["item"],
        )
    return long_to_tidy(df.drop(columns="_line"), path)


def long_to_tidy(df: pd.DataFrame, source) -> pd.DataFrame:
    """Complete missing categories with 0, refuse missing (item, system, annotator) units,
    and add ``position`` in first-seen item order."""
    order = {item: k for k, item in enumerate(dict.fromkeys(df["item"]))}
    systems, annotators = list(dict.fromkeys(df["system"])), list(dict.fromkeys(df["annotator"]))
    have = set(zip(df["item"], df["system"], df["annotator"]))
    for item in order:
        for system in systems:
            for annotator in annotators:
                if (item, system, annotator) not in have:
                    raise InputError(
                        f"annotator {annotator!r} has no row for item {item!r} and system {system!r} "
                        "(give at least one row, with severity 0 if there is no error)",
                        file=source,
                        column="item",
                        value=item,
                    )
    info = df.drop_duplicates("item").set_index("item")
    full = pd.MultiIndex.from_product(
        [list(order), systems, annotators, list(CATEGORIES)], names=["item", "system", "annotator", "category"]
    )
    sev = df.set_index(["item", "system", "annotator", "category"])["severity"].reindex(full, fill_value=0)
    out = sev.reset_index()
    out["position"] = out["item"].map(order)
    for c in LONG_OPTIONAL:
        out[c] = out["item"].map(info[c]) if c in info.columns else ""
    trans = df.drop_duplicates(["item", "system"]).set_index(["item", "system"])["translation"]
    out["translation"] = [trans.get((i, s), "") for i, s in zip(out["item"], out["system"])]
    out["sentence"] = out["sentence"].map(clean_sentence)
    out["row"] = out["position"] + 2
    out["category"] = pd.Categorical(out["category"], categories=list(CATEGORIES), ordered=True)
    return out[TIDY_COLUMNS]
