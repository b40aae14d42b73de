"""MetaHOPE annotations as MQM/Marot TSV, and foreign MQM files as MetaHOPE's tidy frame.

:func:`to_annotations` and :func:`from_annotations` convert losslessly between the tidy
frame and the core annotation model (:mod:`helpers.core.formats.annotations`); :func:`from_mqm`
reads foreign MQM categories (WMT, Marot) under a weighting scheme; :func:`read_mqm`
picks the right one for a file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd

from ..core.errors import InputError
from ..core.formats import annotations as core_ann
from ..core.formats import mqm as core_mqm
from ..core.statistics import schemes as core_schemes
from .long_csv import long_to_tidy
from .severity import SEVERITY_NAMES
from .tidy_frame import CATEGORIES, TIDY_COLUMNS

#: The default weighting scheme that puts foreign MQM severities on MetaHOPE's linear scale
#: (``helpers/core/statistics/schemes/metahope.yml``: Minor 2, Major 6, Critical 10; paper §3).
MQM_SCHEME = "metahope"
#: Suffixes of an MQM/Marot file (``.tar.gz`` ends in ``.gz``).
MQM_SUFFIXES = (".tsv", ".txt", ".gz", ".tgz")
#: Marot's column names and order, the columns :func:`write_mqm_tsv` writes
#: (:data:`helpers.core.formats.mqm.MAROT_COLUMNS`).
MQM_COLUMNS = list(core_mqm.MAROT_COLUMNS)
_LEVEL_OF_SEVERITY = {name.capitalize(): level for level, name in SEVERITY_NAMES.items() if level}


def to_annotations(tidy: pd.DataFrame) -> pd.DataFrame:
    """The tidy frame as the core annotation model (:mod:`helpers.core.formats.annotations`): one row
    per error (a category with severity > 0), a ``No-error`` row for an (item, system,
    annotator) without any, so every rating is represented.

    ``doc`` is the item id up to its last ``_`` (VUAMC fragment + sentence, PSUCMC segment),
    ``doc_seg_id`` = ``global_seg_id`` = position + 1, ``severity`` the MetaHOPE level name
    (Minor, Moderate, Major, Severe, Critical; paper §3), ``source``/``target`` the sentence
    and translation, and ``metadata`` JSON with the item id, metaphor word, POS and workbook
    row, so :func:`from_annotations` gives the tidy frame back unchanged.
    """
    keys = ["item", "system", "annotator"]
    first = tidy.drop_duplicates(keys).reset_index(drop=True)
    errors = tidy[tidy["severity"] > 0]
    clean = first.merge(errors[keys].drop_duplicates(), on=keys, how="left", indicator=True)
    clean = first[(clean["_merge"] == "left_only").to_numpy()]
    rows = pd.concat([errors.assign(kind=1), clean.assign(kind=0)], ignore_index=True)
    order = {k: i for i, k in enumerate(zip(first["item"], first["system"], first["annotator"]))}
    rows["_order"] = [order[k] for k in zip(rows["item"], rows["system"], rows["annotator"])]
    rows = rows.sort_values(["_order", "kind", "category"], kind="stable").reset_index(drop=True)
    no_error = rows["kind"] == 0
    meta = [
        json.dumps({"item": str(i), "metaphor": str(m), "pos": str(p), "row": int(r)}, ensure_ascii=False)
        for i, m, p, r in zip(rows["item"], rows["metaphor"], rows["pos"], rows["row"])
    ]
    frame = pd.DataFrame(
        {
            "system": rows["system"].astype(str),
            "doc": rows["item"].astype(str).str.rsplit("_", n=1).str[0],
            "doc_seg_id": rows["position"].astype(int) + 1,
            "global_seg_id": rows["position"].astype(int) + 1,
            "rater": rows["annotator"].astype(str),
            "source": rows["sentence"].astype(str),
            "target": rows["translation"].astype(str),
            "category": rows["category"].astype(str).where(~no_error, core_ann.NO_ERROR),
            "severity": [
                core_ann.NO_ERROR if k == 0 else SEVERITY_NAMES[int(v)].capitalize()
                for k, v in zip(rows["kind"], rows["severity"])
            ],
            "source_start": pd.NA,
            "source_end": pd.NA,
            "target_start": pd.NA,
            "target_end": pd.NA,
            "metadata": meta,
            "line": 0,
        }
    )
    for col in ("source", "target"):  # TSV cannot hold tabs or line breaks inside a field
        frame[col] = frame[col].str.replace(r"[\t\r\n]+", " ", regex=True)
    return core_ann.conform(frame)


def from_annotations(frame: pd.DataFrame, source=None) -> pd.DataFrame:
    """Core annotations (:func:`helpers.core.formats.mqm.read_mqm`, :func:`to_annotations`) as the tidy frame.

    Categories must be MetaHOPE's (``IMP`` …; a prefix such as ``MetaHOPE/MIS`` is
    accepted) or ``No-error``, severities MetaHOPE's level names (Minor … Critical). Items
    come from ``metadata.item`` when present, else from ``doc`` + ``global_seg_id``. Every
    rater must have at least one row (an error or ``No-error``) for every item and system.
    Errors name ``source`` (the file) and the line.
    """
    if frame.empty:
        raise InputError("the file has a header but no rows", file=source, row=1)
    meta = core_ann.parse_metadata(frame)
    records = []
    for i, r in enumerate(frame.itertuples(index=False)):
        m = meta.iloc[i]
        line = int(r.line) if getattr(r, "line", 0) else None
        item = str(m.get("item") or f"{r.doc}_{r.global_seg_id}")
        category = str(r.category).strip().split("/")[-1]
        if r.category == core_ann.NO_ERROR:
            severity, category = 0, None
        elif category not in CATEGORIES:
            raise InputError(
                f"category must be one of {', '.join(CATEGORIES)} or No-error",
                file=source,
                row=line,
                column="category",
                value=r.category,
            )
        elif r.severity not in _LEVEL_OF_SEVERITY:
            raise InputError(
                "severity must be a MetaHOPE level",
                file=source,
                row=line,
                column="severity",
                value=r.severity,
                expected=", ".join(_LEVEL_OF_SEVERITY),
            )
        else:
            severity = _LEVEL_OF_SEVERITY[r.severity]
        base = {
            "item": item,
            "system": r.system,
            "annotator": r.rater,
            "sentence": r.source,
            "translation": r.target,
            "metaphor": m.get("metaphor", ""),
            "pos": m.get("pos", ""),
        }
        for c in [category] if category else list(CATEGORIES):
            records.append({**base, "category": c, "severity": severity if category else 0})
    df = pd.DataFrame.from_records(records)
    df = df.groupby(["item", "system", "annotator", "category"], sort=False, as_index=False).agg(
        severity=("severity", "max"),
        sentence=("sentence", "first"),
        translation=("translation", "first"),
        metaphor=("metaphor", "first"),
        pos=("pos", "first"),
    )
    out = long_to_tidy(df, source)
    # what to_annotations wrote down comes back: the workbook row and position of each item,
    # and the order of the ratings (first appearance of each item, system, annotator)
    rows = {
        str(m["item"]): (int(seg) - 1, int(m["row"]))
        for m, seg in zip(meta, frame["doc_seg_id"])
        if "item" in m and "row" in m
    }
    if rows and set(out["item"]) <= set(rows):
        out["position"] = out["item"].map(lambda i: rows[i][0]).astype("int64")
        out["row"] = out["item"].map(lambda i: rows[i][1]).astype("int64")
    seen = {}
    for i, r in enumerate(records):
        seen.setdefault((r["item"], r["system"], r["annotator"]), i)
    rank = [seen[k] for k in zip(out["item"], out["system"], out["annotator"])]
    return out.assign(_rank=rank).sort_values("_rank", kind="stable").drop(columns="_rank").reset_index(drop=True)


def write_mqm_tsv(tidy: pd.DataFrame, path: str | os.PathLike) -> Path:
    """Write the tidy frame as Marot TSV (:func:`to_annotations`, then
    :func:`helpers.core.formats.mqm.write_mqm_tsv`: Marot's header and column order), which Marot
    opens and :func:`read_mqm_tsv` reads back to the same tidy frame."""
    return core_mqm.write_mqm_tsv(to_annotations(tidy), path)


#: The top-level MQM categories in the order the WMT releases and Freitag et al. (2021,
#: Table 10) list them; a foreign file's categories come in this order, others after them
#: in order of first appearance.
MQM_TOP_CATEGORIES = (
    "Accuracy",
    "Fluency",
    "Terminology",
    "Style",
    "Locale convention",
    "Other",
    "Non-translation",
    "Source error",
    "Source issue",
)


def top_category(category: pd.Series) -> pd.Series:
    """The top-level MQM category of each annotation: the part before the first ``/``
    without a trailing ``!`` (``Accuracy/Mistranslation`` -> ``Accuracy``,
    ``Non-translation!`` -> ``Non-translation``)."""
    return category.astype(str).str.split("/", n=1).str[0].str.strip().str.rstrip("!").str.strip()


def is_metahope_annotations(frame: pd.DataFrame) -> bool:
    """Whether core annotations carry MetaHOPE's categories (``IMP`` …, also as ``MetaHOPE/MIS``):
    then :func:`from_annotations` reads them losslessly, else :func:`from_mqm` does. A file
    without any error is MetaHOPE's when its metadata names the items (:func:`to_annotations`)."""
    marks = frame["severity"].isin([core_ann.NO_ERROR, core_ann.HOTW])
    codes = frame.loc[~marks, "category"].astype(str).str.strip().str.split("/").str[-1]
    if codes.empty:
        return "metadata" in frame and bool(frame["metadata"].astype(str).str.contains('"item"', regex=False).any())
    return bool(codes.isin(CATEGORIES).any())


def from_mqm(frame: pd.DataFrame, scheme=MQM_SCHEME, source=None) -> pd.DataFrame:
    """Foreign MQM annotations (WMT/Marot categories) as the tidy frame of chapters 1–3.

    * an **item** is a segment ``doc|doc_seg_id`` (``position`` in order of first
      appearance, ``row`` the file line of its first row, ``sentence`` the source and
      ``translation`` the target without ``<v>`` markers; ``metaphor`` and ``pos`` are "");
    * a **category** is a top-level MQM category (:func:`top_category`), the set read from
      the data in :data:`MQM_TOP_CATEGORIES` order (:func:`category_order` gives it back);
    * a **severity** is the sum of the weights ``scheme`` gives the rater's errors of that
      category in that segment (default :data:`MQM_SCHEME`, MetaHOPE's linear levels; with
      ``"mqm"`` SEGS is the rater's MQM penalty of Freitag et al. 2021 §3). ``HOTW-test``
      rows weigh nothing, and an annotation the scheme does not cover is an error;
    * only units rated are rows: a rater who did not rate a (segment, system) has no row,
      so every pivot shows NaN there, never 0 (WMT rates each segment by 3 of N raters).
      A rated unit has every category, 0 where the rater marked none.

    Side-by-side pairing keys (``GPT4-5shot_with_refA``) are kept as separate systems.
    """
    core_ann.check_columns(frame)
    if frame.empty:
        raise InputError("the file has a header but no rows", file=source, row=1)
    weights = core_schemes.load_scheme(scheme).weights(frame, file=source).fillna(0.0)
    top = top_category(frame["category"])
    found = list(dict.fromkeys(top[~frame["severity"].isin([core_ann.NO_ERROR, core_ann.HOTW])]))
    cats = [c for c in MQM_TOP_CATEGORIES if c in found] + [c for c in found if c not in MQM_TOP_CATEGORIES]
    if not cats:
        cats = ["No-error"]  # nobody marked any error: one category of zeros keeps every unit
    segment = frame["doc"].astype(str) + "|" + frame["doc_seg_id"].astype(str)
    work = pd.DataFrame(
        {
            "item": segment,
            "system": frame["system"],
            "annotator": frame["rater"],
            "category": top,
            "weight": weights.to_numpy(),
            "line": frame["line"],
        }
    )
    for col, name in (("source", "sentence"), ("target", "translation")):
        work[name] = core_ann.clean_text(frame[col]) if col in frame.columns else ""
    order = {item: k for k, item in enumerate(dict.fromkeys(work["item"]))}
    units = work.drop_duplicates(["item", "system", "annotator"])[["item", "system", "annotator"]]
    grid = units.merge(pd.DataFrame({"category": cats}), how="cross")
    sums = (
        work[work["category"].isin(cats)]
        .groupby(["item", "system", "annotator", "category"], sort=False, as_index=False)["weight"]
        .sum()
    )
    out = grid.merge(sums, on=["item", "system", "annotator", "category"], how="left")
    out["severity"] = out.pop("weight").fillna(0.0).astype(float)
    first = work.drop_duplicates("item").set_index("item")
    out["position"] = out["item"].map(order).astype("int64")
    out["row"] = out["item"].map(first["line"]).astype("int64")
    out["sentence"] = out["item"].map(first["sentence"])
    trans = work.drop_duplicates(["item", "system"]).set_index(["item", "system"])["translation"]
    out["translation"] = trans.reindex(pd.MultiIndex.from_frame(out[["item", "system"]])).to_numpy()
    out["metaphor"] = ""
    out["pos"] = ""
    raters = {r: k for k, r in enumerate(dict.fromkeys(work["annotator"]))}
    systems = {s: k for k, s in enumerate(dict.fromkeys(work["system"]))}
    out = out.sort_values(
        ["annotator", "system", "position"],
        kind="stable",
        key=lambda c: c.map(raters if c.name == "annotator" else systems) if c.name in ("annotator", "system") else c,
    )
    out["category"] = pd.Categorical(out["category"], categories=cats, ordered=True)
    return out[TIDY_COLUMNS].reset_index(drop=True)


def read_mqm(path: str | os.PathLike, scheme=MQM_SCHEME) -> tuple[pd.DataFrame, pd.DataFrame]:
    """An MQM/Marot file (:func:`helpers.core.formats.mqm.read_mqm`) as ``(tidy, annotations)``:
    the tidy frame (:func:`from_annotations` for MetaHOPE categories, else :func:`from_mqm`
    under ``scheme``) and the core annotations it came from (to re-weight them)."""
    path = Path(path)
    frame = core_mqm.read_mqm(path)
    tidy = (
        from_annotations(frame, source=path) if is_metahope_annotations(frame) else from_mqm(frame, scheme, source=path)
    )
    return tidy, frame


def read_mqm_tsv(path: str | os.PathLike) -> pd.DataFrame:
    """Read an MQM/Marot TSV (:func:`helpers.core.formats.mqm.read_mqm`: Marot's positional columns,
    recurring headers, .gz/.tar.gz) into the tidy frame: MetaHOPE categories and severities
    through :func:`from_annotations`, any other MQM categories through :func:`from_mqm`."""
    return read_mqm(path)[0]
