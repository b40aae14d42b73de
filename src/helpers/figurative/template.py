"""The class activity of chapter 10: pairs label idiom matches blind (the teaching kit).

``.venv/bin/python -m helpers template idioms --pairs N|names --out DIR [--items 40]`` draws ``--items`` of
the authored sample's matches (:func:`helpers.figurative.analysis.sample_matches`, recomputed from
the released sources, so the handout never needs the labels) and writes one workbook per pair:

* sheet ``Labels``: ``item, dataset, context, idiom`` (the match in 【】 with its context), a
  ``label`` dropdown (figurative, literal), a ``done`` column and a comment column, rows in the
  pair's own order;
* sheet ``Instructions``: the ``Student:`` field (the pair's name), the task and the labelling
  rule (their words: ``pages/workbook.yml``).

The book's own labels (``data/authored/idiom_sample.csv``) are the answer key: the student kit
carries them only with ``--with-answer-key`` (:mod:`helpers.core.book.editions`). Returned workbooks are
read by :func:`read_labels`, and :func:`agreement` gives Cohen's κ of each pair with the key.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from helpers.core import params
from helpers.core.book import pages
from helpers.core.classroom import workbook
from helpers.core.errors import InputError

from . import analysis, idioms

SHEET, INSTRUCTIONS = "Labels", "Instructions"
KIT_PREFIX = "idioms_"
HEADER = ("item", "dataset", "context", "label", "done", "comment")


def label_items(n: int = 40, seed: int = 0) -> pd.DataFrame:
    """``n`` of the authored sample's matches (ids ``I001`` … as in the sample), drawn with ``seed``,
    without their labels: ``sample_id, dataset, context``."""
    matches = analysis.sample_matches(analysis.source_pool())
    if not 1 <= n <= len(matches):
        raise InputError(
            "is not a number of sample rows", parameter="--items", value=n, expected=f"1 to {len(matches)}"
        )
    picked = np.sort(np.random.default_rng(seed).choice(len(matches), n, replace=False))
    return matches.iloc[picked][["sample_id", "dataset", "context"]].reset_index(drop=True)


def write_workbook(items: pd.DataFrame, pair: str, path: str | os.PathLike, seed: int = 0) -> Path:
    """One pair's workbook (sheet ``Labels`` in the pair's own order, sheet ``Instructions``)."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = SHEET
    ws.append(list(HEADER))
    workbook.style_header(ws[1])
    guide = pages.texts("figurative", "workbook")
    dv = workbook.list_validation(ws, idioms.LABELS, "Label", guide["validation"])
    done = workbook.done_validation(ws)
    order = np.random.default_rng(seed).permutation(len(items))
    workbook.item_rows(
        ws,
        [
            [items.iloc[i]["sample_id"], items.iloc[i]["dataset"], items.iloc[i]["context"], None, None, None]
            for i in order
        ],
        {"D": dv, "E": done},
        (8, 12, 70, 12, 8, 40),
    )
    workbook.write_guide(
        wb.create_sheet(INSTRUCTIONS),
        guide["title"],
        [
            workbook.GuideSection(rows=[("Task", guide["task"])], bold_first=True),
            workbook.GuideSection(("Step", "What to do"), list(enumerate(guide["steps"], start=1))),
        ],
        {"A": 8, "B": 100},
        student=pair,
    )
    return workbook.save(wb, path)


def write_workbooks(pairs: str | int, out_dir: str | os.PathLike, n: int = 40, seed: int = 0) -> list[Path]:
    """``idioms_<pair>.xlsx`` for every pair in ``out_dir`` (the same rows, each in its own order)."""
    items = label_items(n, seed)
    return [
        write_workbook(items, name, Path(out_dir) / f"{KIT_PREFIX}{name}.xlsx", seed=seed * 1000 + k + 1)
        for k, name in enumerate(params.person_names(pairs))
    ]


def read_labels(path: str | os.PathLike) -> pd.DataFrame:
    """A returned workbook's finished rows: ``item, label`` (rows marked done); a label that is not
    one of :data:`helpers.figurative.idioms.LABELS` is an error naming the file, row and value."""
    sheet = pd.read_excel(path, sheet_name=SHEET, dtype=str)
    missing = [c for c in ("item", "label", "done") if c not in sheet.columns]
    if missing:
        raise InputError("missing column(s) " + ", ".join(missing), file=path, sheet=SHEET)
    done = sheet["done"].fillna("").str.strip().str.lower() == "done"
    labels = sheet["label"].fillna("").str.strip().str.lower()
    bad = done & ~labels.isin(idioms.LABELS)
    if bad.any():
        at = int(np.flatnonzero(bad.to_numpy())[0])
        raise InputError(
            "label must be figurative or literal",
            file=path,
            sheet=SHEET,
            row=at + 2,
            column="label",
            value=sheet["label"].iloc[at],
        )
    return pd.DataFrame({"item": sheet.loc[done, "item"].to_numpy(), "label": labels[done].to_numpy()})


def agreement(labels: pd.DataFrame, key: pd.DataFrame) -> dict:
    """Cohen's κ of a pair's ``labels`` with the answer ``key`` (``sample_id, label``) on the items
    both hold, with the raw agreement and how many items.

    Notes
    -----
    κ = (p_o − p_e) / (1 − p_e), p_o the share of items labelled alike, p_e the agreement expected
    from the two sides' label shares (scikit-learn's ``cohen_kappa_score``).

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and Psychological
    Measurement 20(1), 37–46.
    """
    from sklearn.metrics import cohen_kappa_score

    both = labels.merge(key.rename(columns={"sample_id": "item", "label": "key"}), on="item")
    if both.empty:
        return {"items": 0, "agreement": float("nan"), "kappa": float("nan")}
    same = float((both["label"] == both["key"]).mean())
    kappa = (
        float(cohen_kappa_score(both["label"], both["key"], labels=list(idioms.LABELS)))
        if both["label"].nunique() + both["key"].nunique() > 2
        else float("nan")
    )
    return {"items": len(both), "agreement": same, "kappa": kappa}
