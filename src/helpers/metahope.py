"""MetaHOPE annotation workbooks and penalty scoring (Liang & Han 2026, "MetaHOPE").

The released workbooks are *wide*: one row per metaphor-related word (MRW) with
``word_id, sentence, word|token, wordcat|POS`` and then, per MT system, a translation
column followed by the five error-category columns ``IMP RAM MIS STL PRF`` and their sum
``SEGS`` (pandas shows the repeated headers of the 2nd and 3rd system as ``IMP.1``, ``IMP.2``).
A cell holds a severity from the scale 0/2/4/6/8/10 (paper appendix I.3); a blank cell is 0.

:func:`read_workbook` turns one sheet into a tidy frame, one row per
(item, system, category), validating every cell; :func:`load_study` reads one workbook per
annotator and checks they list the same items in the same order. Every violation raises
:class:`AnnotationError`, which names the file, sheet, row, column (and cell) and value.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from . import paths

#: The five MetaHOPE error categories (paper §3): Impact, Required Adaptation Missing,
#: Mistranslation, Style, Proofreading.
CATEGORIES: tuple[str, ...] = ("IMP", "RAM", "MIS", "STL", "PRF")
#: Allowed severity entries (paper §3 and appendix I.3): 0 no error, 2 minor … 10 critical.
SEVERITY_LEVELS: tuple[int, ...] = (0, 2, 4, 6, 8, 10)
SEVERITY_NAMES = {0: "none", 2: "minor", 4: "moderate", 6: "major", 8: "severe", 10: "critical"}
#: Penalty per severity level. MetaHOPE keeps the level as the penalty (linear, paper §3);
#: HOPE (Gladkoff & Han 2022) uses exponential penalties 1, 2, 4, 8, 16 for minor … critical.
WEIGHTS: dict[str, dict[int, float]] = {
    "metahope": {0: 0, 2: 2, 4: 4, 6: 6, 8: 8, 10: 10},
    "hope": {0: 0, 2: 1, 4: 2, 6: 4, 8: 8, 10: 16},
}
#: Column headers of the released workbooks -> the system names the paper prints.
SYSTEM_NAMES = {"Google_translate": "GoogleMT", "GPT_5.4": "GPT-5.4", "hunyuan_7b": "Hunyuan-LLM-7B"}

_ID_HEADERS = (("word_id",), ("sentence",), ("word", "token"), ("wordcat", "pos"))
_BLOCK = CATEGORIES + ("SEGS",)
_SUFFIX = re.compile(r"\.\d+$")
#: Released pilot v1 (EN->ZH) files in aaronlifenghan/MetaHOPE.
METAHOPE_REPO = "aaronlifenghan/MetaHOPE"
PILOT_V1_FILES = {
    "A": "VUAMC_pilot20__translation_aligned_annotator-A.xlsx",
    "B": "VUAMC_pilot20__translation_aligned_annotated_annotator-B.xlsx",
}
PILOT_V1_SENTENCE_FILE = "Copy_VUAMC_pilot20__translation_aligned_with_full_sentence-level_error.xlsx"
#: Released ZH->EN pilot sheet (PSUCMC news, 32 MRWs): one annotator, not named in the paper.
PILOT_ZH_EN_FILE = "PSUCMC_pilot20__translation_aligned_annotated.xlsx"


class AnnotationError(ValueError):
    """Bad input in an annotation workbook, located to file, sheet, row, column and value."""

    def __init__(self, file, problem, *, sheet=None, row=None, column=None, cell=None, value=None):
        self.file, self.sheet, self.row, self.column, self.cell, self.value = file, sheet, row, column, cell, value
        where = [str(file)]
        if sheet is not None:
            where.append(f"sheet {sheet!r}")
        if row is not None:
            where.append(f"row {row}")
        if column is not None:
            where.append(f"column {column!r}")
        if cell is not None:
            where.append(f"cell {cell}")
        loc = ", ".join(where)
        val = "" if value is None and cell is None else f": value {value!r}"
        super().__init__(f"{loc}{val}: {problem}")


def _blank(v) -> bool:
    return v is None or (isinstance(v, str) and not v.strip()) or (isinstance(v, float) and math.isnan(v))


def parse_severity(value, **where) -> int:
    """One severity cell -> int in :data:`SEVERITY_LEVELS`; blank is 0.

    Numbers and numeric text ("4", "4.0") are accepted; anything else raises
    :class:`AnnotationError` with the location passed in ``where``.
    """
    if _blank(value):
        return 0
    number = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, (int, float, np.integer, np.floating)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            number = None
    if number is None or not number.is_integer() or int(number) not in SEVERITY_LEVELS:
        raise AnnotationError(
            problem=f"severity must be one of {', '.join(map(str, SEVERITY_LEVELS))} or blank", value=value, **where
        )
    return int(number)


def clean_sentence(text: str) -> str:
    """The source sentence without an annotator's note.

    Annotators sometimes appended a corrected reading after ``=>`` or a bracketed note
    after the final punctuation (e.g. ``"... next year. (feel bullish)"``); both are dropped
    so that the same sentence is recognised on every row.
    """
    s = str(text).split("=>")[0].strip()
    s = re.sub(r"(?<=[.!?\"”。！？])\s*\([^()]*\)\s*$", "", s)
    return s.strip()


def _header_blocks(headers: list, file, sheet) -> list[tuple[int, str]]:
    """Validate the header row; return (column index, system header) of each system block."""
    for i, allowed in enumerate(_ID_HEADERS):
        h = headers[i] if i < len(headers) else None
        if _blank(h) or str(h).strip().lower() not in allowed:
            raise AnnotationError(
                file, f"header must be {' or '.join(repr(a) for a in allowed)}",
                sheet=sheet, row=1, column=h, cell=f"{get_column_letter(i + 1)}1", value=h,
            )
    blocks, i = [], len(_ID_HEADERS)
    while i < len(headers):
        following = [_SUFFIX.sub("", str(h).strip()) if not _blank(h) else "" for h in headers[i + 1 : i + 7]]
        intended = sum(f.upper() in _BLOCK for f in following) >= 3
        if not intended:
            break
        for j, (got, want) in enumerate(zip(following + [""] * (6 - len(following)), _BLOCK)):
            if got != want:
                col = i + 2 + j
                raise AnnotationError(
                    file, f"expected the category header {want!r} after system column {headers[i]!r}",
                    sheet=sheet, row=1, column=got or None, cell=f"{get_column_letter(col)}1",
                    value=headers[col - 1] if col - 1 < len(headers) else None,
                )
        if _blank(headers[i]):
            raise AnnotationError(file, "system (translation) column has no header", sheet=sheet, row=1,
                                  cell=f"{get_column_letter(i + 1)}1", value=headers[i])
        blocks.append((i, str(headers[i]).strip()))
        i += 7
    if not blocks:
        raise AnnotationError(
            file, "no system block found: after word_id, sentence, word, wordcat each system needs a "
            "translation column followed by IMP RAM MIS STL PRF SEGS", sheet=sheet, row=1,
        )
    names = [b[1] for b in blocks]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise AnnotationError(file, f"system column {sorted(dup)[0]!r} appears twice", sheet=sheet, row=1)
    return blocks


def read_workbook(
    path: str | os.PathLike,
    annotator: str,
    sheet: str | None = None,
    system_names: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Read one wide MetaHOPE annotation sheet into a tidy frame.

    Returns one row per (item, system, category) with columns ``item, position, row,
    sentence, metaphor, pos, system, translation, annotator, category, severity``
    (``position`` is the item's order in the sheet, ``row`` its Excel row). Blank
    severity cells become 0. A filled-in ``SEGS`` cell must equal the sum of the five
    categories (paper Eq. 1). Rows that are entirely empty hold no annotation and are
    skipped; those between items are listed in ``df.attrs["skipped_rows"]``. ``system_names`` maps column headers to display names
    (default :data:`SYSTEM_NAMES`; unknown headers are kept as they are).
    """
    path = Path(path)
    names = dict(SYSTEM_NAMES if system_names is None else system_names)
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises several types for non-xlsx input
        raise AnnotationError(path, f"not a readable .xlsx workbook ({exc})") from exc
    try:
        if sheet is None:
            ws = wb.worksheets[0]
        elif sheet in wb.sheetnames:
            ws = wb[sheet]
        else:
            raise AnnotationError(path, f"no sheet {sheet!r} (sheets: {wb.sheetnames})")
        rows = list(ws.iter_rows(values_only=True))
    finally:
        wb.close()
    if not rows:
        raise AnnotationError(path, "sheet is empty", sheet=ws.title)
    headers = list(rows[0])
    blocks = _header_blocks(headers, path, ws.title)
    records, skipped, seen = [], [], {}
    for r, values in enumerate(rows[1:], start=2):
        values = list(values) + [None] * (len(headers) - len(values))
        if all(_blank(v) for v in values):
            skipped.append(r)
            continue
        item = values[0]
        if _blank(item):
            raise AnnotationError(path, "row has content but no word_id", sheet=ws.title, row=r,
                                  column=headers[0], cell=f"A{r}", value=item)
        item = str(item).strip()
        if item in seen:
            raise AnnotationError(path, f"duplicate word_id (first on row {seen[item]})", sheet=ws.title,
                                  row=r, column=headers[0], cell=f"A{r}", value=item)
        seen[item] = r
        position = len(seen) - 1
        sentence = "" if _blank(values[1]) else str(values[1])
        for col, header in blocks:
            system = names.get(header, header)
            severities = {}
            for k, cat in enumerate(CATEGORIES):
                c = col + 1 + k
                severities[cat] = parse_severity(
                    values[c], file=path, sheet=ws.title, row=r, column=f"{cat} ({header})",
                    cell=f"{get_column_letter(c + 1)}{r}",
                )
            segs_col = col + 1 + len(CATEGORIES)
            segs = values[segs_col]
            if not _blank(segs):
                total = sum(severities.values())
                try:
                    ok = float(segs) == total
                except (TypeError, ValueError):
                    ok = False
                if not ok:
                    raise AnnotationError(
                        path, f"SEGS must be blank or equal IMP+RAM+MIS+STL+PRF = {total} (paper Eq. 1)",
                        sheet=ws.title, row=r, column=f"SEGS ({header})",
                        cell=f"{get_column_letter(segs_col + 1)}{r}", value=segs,
                    )
            for cat, sev in severities.items():
                records.append(
                    {
                        "item": item, "position": position, "row": r,
                        "sentence": clean_sentence(sentence), "metaphor": values[2], "pos": values[3],
                        "system": system, "translation": values[col], "annotator": annotator,
                        "category": cat, "severity": sev,
                    }
                )
    if not records:
        raise AnnotationError(path, "no annotated rows", sheet=ws.title)
    last = max(r["row"] for r in records)
    skipped = [r for r in skipped if r < last]  # empty rows between items, not trailing ones
    df = pd.DataFrame.from_records(records)
    df["category"] = pd.Categorical(df["category"], categories=list(CATEGORIES), ordered=True)
    df.attrs.update(source=str(path), sheet=ws.title, skipped_rows=skipped)
    return df


def load_study(
    files: Mapping[str, str | os.PathLike],
    sheet: str | None = None,
    system_names: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Read one workbook per annotator (``{"A": path, "B": path}``) into one tidy frame.

    Paths are resolved with :func:`helpers.paths.resolve_input`. All sheets must list the
    same items (``word_id``) in the same order and the same systems; the first
    difference raises :class:`AnnotationError` naming both files and the row.
    """
    if not files:
        raise ValueError("load_study needs at least one {annotator: workbook} entry")
    frames = []
    for annotator, f in files.items():
        frames.append(read_workbook(paths.resolve_input(f), str(annotator), sheet=sheet, system_names=system_names))
    ref = frames[0]
    ref_items = ref.drop_duplicates("item")[["item", "row"]].to_numpy().tolist()
    for other in frames[1:]:
        items = other.drop_duplicates("item")[["item", "row"]].to_numpy().tolist()
        for k in range(max(len(ref_items), len(items))):
            want = ref_items[k] if k < len(ref_items) else None
            got = items[k] if k < len(items) else None
            if want is None or got is None or want[0] != got[0]:
                row = got[1] if got else None
                problem = (
                    f"item {k + 1} should be {want[0]!r} as in {ref.attrs['source']} row {want[1]}"
                    if want else f"extra item not in {ref.attrs['source']}"
                )
                if got is None:
                    problem = f"sheet ends early: item {want[0]!r} (row {want[1]} of {ref.attrs['source']}) is missing"
                raise AnnotationError(other.attrs["source"], problem, sheet=other.attrs["sheet"], row=row,
                                      column="word_id", value=got[0] if got else None)
        if list(other["system"].unique()) != list(ref["system"].unique()):
            raise AnnotationError(
                other.attrs["source"],
                f"systems {list(other['system'].unique())} differ from {list(ref['system'].unique())} "
                f"in {ref.attrs['source']}", sheet=other.attrs["sheet"], row=1,
            )
    out = pd.concat(frames, ignore_index=True)
    out["category"] = pd.Categorical(out["category"], categories=list(CATEGORIES), ordered=True)
    out.attrs["sources"] = {f.attrs["source"]: f.attrs["skipped_rows"] for f in frames}
    return out


def pilot_v1_files() -> dict[str, Path]:
    """The released EN->ZH pilot v1 annotator sheets (A, B), fetched by ``python -m helpers fetch``."""
    return {a: paths.released_file(METAHOPE_REPO, f) for a, f in PILOT_V1_FILES.items()}


def pilot_zh_en_file() -> Path:
    """The released ZH->EN pilot sheet (one annotator), fetched by ``python -m helpers fetch``."""
    return paths.released_file(METAHOPE_REPO, PILOT_ZH_EN_FILE)


def pilot_v1_sentence_file() -> Path:
    """The released sheet with annotator A's full sentence-level errors (EPS, paper Table 2)."""
    return paths.released_file(METAHOPE_REPO, PILOT_V1_SENTENCE_FILE)


# --------------------------------------------------------------------------- scoring


def apply_weights(tidy: pd.DataFrame, scheme: str | Mapping[int, float] = "metahope") -> pd.DataFrame:
    """Add a ``penalty`` column mapping each severity level to its penalty.

    ``scheme`` is ``"metahope"`` (linear 2, 4, 6, 8, 10; paper §3), ``"hope"``
    (exponential 1, 2, 4, 8, 16 for minor … critical; Gladkoff & Han 2022) or a mapping
    from every level in :data:`SEVERITY_LEVELS` to a penalty.
    """
    weights = WEIGHTS[scheme] if isinstance(scheme, str) else dict(scheme)
    missing = set(SEVERITY_LEVELS) - set(weights)
    if missing:
        raise ValueError(f"weighting scheme lacks penalties for severity levels {sorted(missing)}")
    out = tidy.copy()
    out["penalty"] = out["severity"].map(weights).astype(float)
    out["scheme"] = scheme if isinstance(scheme, str) else "custom"
    return out


def segment_scores(tidy: pd.DataFrame, value: str = "severity") -> pd.DataFrame:
    """One row per (item, system, annotator) with the five category scores and their sum.

    ``SEGS = IMP + RAM + MIS + STL + PRF`` (paper Eq. 1). ``value`` is the column summed:
    ``"severity"`` (raw levels, = MetaHOPE penalties) or ``"penalty"`` after :func:`apply_weights`.
    """
    keys = ["item", "position", "sentence", "metaphor", "pos", "system", "annotator"]
    wide = tidy.pivot_table(index=keys, columns="category", values=value, aggfunc="sum", observed=False)
    wide = wide.reindex(columns=list(CATEGORIES), fill_value=0).reset_index()
    wide.columns.name = None
    wide["SEGS"] = wide[list(CATEGORIES)].sum(axis=1)
    return _in_system_order(wide, tidy, ["annotator", "system", "position"])


def count_sentences(tidy: pd.DataFrame) -> int:
    """Number of distinct source sentences among the items (after :func:`clean_sentence`)."""
    return int(tidy["sentence"].nunique())


def penalty_summary(tidy: pd.DataFrame, n_sentences: int | None = None, value: str = "severity") -> pd.DataFrame:
    """Total penalty per system and category for one annotator (paper Tables 2 and 3).

    Returns ``system, IMP, RAM, MIS, STL, PRF, SEGS, per_sentence, per_metaphor`` where
    ``per_sentence = SEGS / n_sentences`` and ``per_metaphor = SEGS / number of MRW items``.
    ``n_sentences`` defaults to :func:`count_sentences`.
    """
    annotators = tidy["annotator"].unique()
    if len(annotators) != 1:
        raise ValueError(f"penalty_summary takes one annotator's sheet; got {list(annotators)}")
    n_items = tidy["item"].nunique()
    n_sent = count_sentences(tidy) if n_sentences is None else int(n_sentences)
    scores = segment_scores(tidy, value=value)
    order = list(tidy["system"].unique())
    out = scores.groupby("system", sort=False)[list(CATEGORIES) + ["SEGS"]].sum().reindex(order).reset_index()
    out["per_sentence"] = out["SEGS"] / n_sent
    out["per_metaphor"] = out["SEGS"] / n_items
    return out


def metaphor_share(epm: pd.DataFrame, eps: pd.DataFrame) -> pd.DataFrame:
    """Add ``ratio_m_s`` = EPM / EPS per system: the share of the sentence-level penalty that
    falls on the metaphors (paper §4.2.2, Table 3 "Ratio (M/S)")."""
    ratio = epm.set_index("system")["SEGS"] / eps.set_index("system")["SEGS"]
    out = epm.copy()
    out["ratio_m_s"] = out["system"].map(ratio)
    return out


def paired_segments(tidy: pd.DataFrame, value: str = "severity") -> pd.DataFrame:
    """SEGS of every item with one column per annotator (for severity-bias plots)."""
    scores = segment_scores(tidy, value=value)
    wide = scores.pivot_table(index=["system", "position", "item", "metaphor", "pos"], columns="annotator",
                              values="SEGS", aggfunc="sum").reset_index()
    wide.columns.name = None
    return _in_system_order(wide, tidy, ["system", "position"])


def _in_system_order(frame: pd.DataFrame, tidy: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Sort ``frame`` by ``by``, systems in the order the workbook lists them."""
    order = {s: i for i, s in enumerate(tidy["system"].unique())}
    return frame.sort_values(by, key=lambda col: col.map(order) if col.name == "system" else col).reset_index(drop=True)


# --------------------------------------------------------------------------- parts of speech

#: Paper appendix D.1 keeps metaphorically used nouns, verbs, adjectives and adverbs and
#: normalises corpus-specific tags into three classes. These are the default mappings of
#: the tags found in VUAMC (N, V, AJ, AV, combined tags such as "V+AV") and PSUCMC (PKU /
#: ICTCLAS tags such as n, v, a, vn, vg, i). The paper decided doubtful cases by the word's
#: syntactic function in context; tags whose function varies (idioms ``i``, fixed
#: expressions ``l``) map to "other" until an override says otherwise.
POS_CLASSES: dict[str, str] = {
    # English (VUAMC)
    "N": "noun", "V": "verb", "AJ": "adjective-adverb", "AV": "adjective-adverb",
    # Chinese (PSUCMC, PKU tag set)
    "n": "noun", "ng": "noun", "nr": "noun", "ns": "noun", "nt": "noun", "nz": "noun", "vn": "noun",
    "an": "noun", "f": "noun", "s": "noun", "t": "noun", "j": "noun",
    "v": "verb", "vg": "verb", "vd": "verb", "vi": "verb", "vl": "verb", "vx": "verb",
    "a": "adjective-adverb", "ag": "adjective-adverb", "ad": "adjective-adverb", "d": "adjective-adverb",
    "dg": "adjective-adverb", "b": "adjective-adverb", "z": "adjective-adverb",
}


def pos_class(tag) -> str:
    """Normalised class of one POS tag (see :data:`POS_CLASSES`).

    Combined English tags take the class of their first part ("V+AV" -> verb, "N+N" -> noun).
    Unknown tags give "other".
    """
    if _blank(tag):
        return "other"
    tag = str(tag).strip()
    head = tag.split("+")[0].strip()
    return POS_CLASSES.get(tag, POS_CLASSES.get(head, "other"))


def normalise_pos(tidy: pd.DataFrame, overrides: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Add ``pos_class`` (noun / verb / adjective-adverb / other) beside the original ``pos``.

    ``overrides`` maps item ids to a class, for the decisions appendix D.1 makes by
    syntactic function in context (e.g. an idiom used as a predicate -> verb).
    """
    allowed = {"noun", "verb", "adjective-adverb", "other"}
    bad = {k: v for k, v in (overrides or {}).items() if v not in allowed}
    if bad:
        raise ValueError(f"POS overrides must be one of {sorted(allowed)}; got {bad}")
    out = tidy.copy()
    out["pos_class"] = out["pos"].map(pos_class)
    if overrides:
        hit = out["item"].isin(list(overrides))
        out.loc[hit, "pos_class"] = out.loc[hit, "item"].map(overrides)
    return out


# --------------------------------------------------------------------------- error profiles


def error_profile(tidy: pd.DataFrame, by: str | list[str] = ("system", "annotator"), value: str = "severity"
                  ) -> pd.DataFrame:
    """How often and how badly each group errs (paper RQ-2).

    One row per group of ``by`` with ``n_items``, the summed penalty per category, their
    total ``SEGS``, ``items_with_error`` (percent of items with any non-zero category) and
    ``mean_penalty`` (SEGS per item, i.e. per metaphor). ``by`` may include ``direction``
    or ``pos_class`` when those columns exist.
    """
    by = [by] if isinstance(by, str) else list(by)
    keys = ["item"] + [k for k in by if k != "item"]
    wide = tidy.pivot_table(index=keys, columns="category", values=value, aggfunc="sum", observed=False, sort=False)
    wide = wide.reindex(columns=list(CATEGORIES), fill_value=0).reset_index()
    wide.columns.name = None
    wide["SEGS"] = wide[list(CATEGORIES)].sum(axis=1)
    grouped = wide.groupby(by, sort=False, observed=True)
    out = grouped[list(CATEGORIES) + ["SEGS"]].sum()
    out.insert(0, "n_items", grouped.size())
    out["items_with_error"] = grouped["SEGS"].apply(lambda s: (s > 0).mean() * 100)
    out["mean_penalty"] = out["SEGS"] / out["n_items"]
    return out.reset_index()


# --------------------------------------------------------------------------- interchange formats

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
    ``sentence, metaphor, pos, translation``) into the tidy frame :func:`read_workbook` gives.

    Errors name the file, the CSV line, the column and the value.
    """
    path = Path(path)
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in LONG_COLUMNS if c not in raw.columns]
    if missing:
        raise AnnotationError(path, f"missing column(s) {missing}; the long format needs {LONG_COLUMNS}", row=1)
    records = []
    for i, r in raw.iterrows():
        line = i + 2
        if r["category"].strip() not in CATEGORIES:
            raise AnnotationError(path, f"category must be one of {', '.join(CATEGORIES)}", row=line,
                                  column="category", value=r["category"])
        for col in ("item", "system", "annotator"):
            if not r[col].strip():
                raise AnnotationError(path, f"{col} is empty", row=line, column=col, value=r[col])
        rec = {c: r[c].strip() for c in ("item", "system", "annotator", "category")}
        rec["severity"] = parse_severity(r["severity"], file=path, row=line, column="severity")
        for c in LONG_OPTIONAL:
            rec[c] = r[c] if c in raw.columns else ""
        records.append(rec)
    df = pd.DataFrame.from_records(records)
    dup = df.duplicated(["item", "system", "annotator", "category"], keep=False)
    if dup.any():
        first = df[dup].iloc[0]
        raise AnnotationError(path, "the same (item, system, annotator, category) appears twice",
                              row=int(df[dup].index[0]) + 2, column="item", value=first["item"])
    return _finish_long(df, path)


def _finish_long(df: pd.DataFrame, source) -> pd.DataFrame:
    """Complete missing categories with 0 and add ``position`` in first-seen item order."""
    order = {item: k for k, item in enumerate(dict.fromkeys(df["item"]))}
    info = df.drop_duplicates("item").set_index("item")
    full = pd.MultiIndex.from_product(
        [list(order), list(dict.fromkeys(df["system"])), list(dict.fromkeys(df["annotator"])), list(CATEGORIES)],
        names=["item", "system", "annotator", "category"])
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
    out = out[["item", "position", "row", "sentence", "metaphor", "pos", "system", "translation",
               "annotator", "category", "severity"]]
    out.attrs.update(source=str(source), sheet=None, skipped_rows=[])
    return out


MQM_COLUMNS = ["system", "doc", "doc_seg_id", "global_seg_id", "rater", "source", "target", "category",
               "severity", "metadata"]


def write_mqm_tsv(tidy: pd.DataFrame, path: str | os.PathLike) -> Path:
    """Write MQM/Marot-style TSV: one row per error (non-zero category), ``No-error`` rows
    for items a rater found clean, so every (item, system, rater) is represented.

    ``doc`` is the item id up to its last ``_`` (VUAMC fragment + sentence, PSUCMC
    segment), ``severity`` is the MetaHOPE level name, and ``metadata`` is JSON with the
    item id, metaphor word, POS and numeric severity, so nothing is lost on the way back.
    """
    import json

    path = Path(path)
    rows = []
    for (item, system, rater), g in tidy.groupby(["item", "system", "annotator"], sort=False, observed=True):
        first = g.iloc[0]
        base = {"system": system, "doc": str(item).rsplit("_", 1)[0], "doc_seg_id": int(first["position"]) + 1,
                "global_seg_id": int(first["position"]) + 1, "rater": rater, "source": first["sentence"],
                "target": first["translation"]}
        meta = {"item": item, "metaphor": first["metaphor"], "pos": first["pos"]}
        errors = g[g["severity"] > 0]
        if errors.empty:
            rows.append({**base, "category": "No-error", "severity": "No-error",
                         "metadata": json.dumps({**meta, "metahope_severity": 0}, ensure_ascii=False)})
        for _, e in errors.iterrows():
            rows.append({**base, "category": str(e["category"]), "severity": SEVERITY_NAMES[int(e["severity"])],
                         "metadata": json.dumps({**meta, "metahope_severity": int(e["severity"])}, ensure_ascii=False)})
    frame = pd.DataFrame(rows, columns=MQM_COLUMNS)
    for col in ("source", "target"):  # TSV cannot hold tabs or newlines inside a field
        frame[col] = frame[col].astype(str).str.replace(r"[\t\r\n]+", " ", regex=True)
    frame.to_csv(path, sep="\t", index=False)
    return path


def read_mqm_tsv(path: str | os.PathLike) -> pd.DataFrame:
    """Read MQM/Marot-style TSV into the tidy frame.

    Severity may be a MetaHOPE level name (minor … critical), a number on the 0–10 scale or
    ``No-error``; categories must be MetaHOPE's (``IMP`` …; a prefix such as
    ``MetaHOPE/MIS`` is accepted) or ``No-error``. Items come from ``metadata.item`` when
    present, else from ``doc`` + ``global_seg_id``.
    """
    import json

    path = Path(path)
    raw = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    missing = [c for c in MQM_COLUMNS[:9] if c not in raw.columns]
    if missing:
        raise AnnotationError(path, f"missing column(s) {missing}", row=1)
    by_name = {name: level for level, name in SEVERITY_NAMES.items()}
    records = []
    for i, r in raw.iterrows():
        line = i + 2
        meta = {}
        if r.get("metadata", "").strip():
            try:
                meta = json.loads(r["metadata"])
            except ValueError as exc:
                raise AnnotationError(path, "metadata is not JSON", row=line, column="metadata",
                                      value=r["metadata"]) from exc
        item = str(meta.get("item") or f"{r['doc']}_{r['global_seg_id']}")
        category = r["category"].strip().split("/")[-1]
        sev_text = r["severity"].strip()
        if category.lower() in ("no-error", "no_error") or sev_text.lower() in ("no-error", "no_error"):
            severity, category = 0, None
        elif category not in CATEGORIES:
            raise AnnotationError(path, f"category must be one of {', '.join(CATEGORIES)} or No-error", row=line,
                                  column="category", value=r["category"])
        elif sev_text.lower() in by_name:
            severity = by_name[sev_text.lower()]
        else:
            severity = parse_severity(sev_text, file=path, row=line, column="severity")
        base = {"item": item, "system": r["system"], "annotator": r["rater"], "sentence": r["source"],
                "translation": r["target"], "metaphor": meta.get("metaphor", ""), "pos": meta.get("pos", "")}
        cats = [category] if category else list(CATEGORIES)
        for c in cats:
            records.append({**base, "category": c, "severity": severity if category else 0})
    df = pd.DataFrame.from_records(records)
    df = df.groupby(["item", "system", "annotator", "category"], sort=False, as_index=False).agg(
        severity=("severity", "max"), sentence=("sentence", "first"), translation=("translation", "first"),
        metaphor=("metaphor", "first"), pos=("pos", "first"))
    return _finish_long(df, path)


def load_annotations(spec) -> pd.DataFrame:
    """Annotations from whatever a notebook parameter holds.

    * ``{annotator: workbook}`` or a list of workbooks (annotator = file name without
      suffix): :func:`load_study`;
    * a ``.csv`` path: the long format (:func:`read_long`);
    * a ``.tsv`` path: MQM/Marot-style TSV (:func:`read_mqm_tsv`).
    """
    if isinstance(spec, Mapping):
        return load_study(spec)
    if isinstance(spec, (list, tuple)):
        named = {Path(p).stem: p for p in spec}
        if len(named) != len(spec):
            raise ValueError(f"two workbooks share a file name, so annotators cannot be named by it: {spec}")
        return load_study(named)
    path = paths.resolve_input(spec)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return read_long(path)
    if suffix in (".tsv", ".txt"):
        return read_mqm_tsv(path)
    raise ValueError(f"{path}: pass one workbook per annotator as a list or mapping, or a long .csv / MQM .tsv file")


def disagreement_anatomy(example: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Where annotators of one item part ways: detection, category and severity.

    ``example`` has one row per (annotator, category) with ``severity``. Returns
    ``scores`` (annotator × category with totals and whether any error was detected),
    ``pairwise`` (annotator × annotator: |difference of totals|, and the number of
    categories on which they disagree whether there is an error) and ``categories``
    (per category: how many annotators used it and the severities they gave).
    """
    wide = example.pivot_table(index="annotator", columns="category", values="severity", aggfunc="sum",
                               observed=False, sort=False).reindex(columns=list(CATEGORIES), fill_value=0)
    wide.columns = [str(c) for c in wide.columns]
    scores = wide.copy()
    scores["total"] = wide.sum(axis=1)
    scores["detected"] = scores["total"] > 0
    names = list(wide.index)
    flags = wide > 0
    total_gap = pd.DataFrame([[abs(scores.loc[a, "total"] - scores.loc[b, "total"]) for b in names] for a in names],
                             index=names, columns=names)
    category_gap = pd.DataFrame([[int((flags.loc[a] != flags.loc[b]).sum()) for b in names] for a in names],
                                index=names, columns=names)
    pairwise = pd.concat({"total_difference": total_gap, "categories_disagreeing": category_gap}, axis=1)
    categories = pd.DataFrame({
        "annotators_using_it": flags.sum(axis=0),
        "severities_given": [", ".join(f"{a}={int(wide.loc[a, c])}" for a in names if wide.loc[a, c] > 0)
                             for c in wide.columns],
    })
    return {"scores": scores.reset_index(), "pairwise": pairwise, "categories": categories.rename_axis("category")
            .reset_index()}
