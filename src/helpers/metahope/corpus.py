"""The metaphor corpora behind the pilots: each annotated metaphor's type (issue 35, item 6).

The MetaHOPE release carries the corpus rows the pilot sentences were drawn from, one row
per metaphor-related word (MRW):

* ``VUAMC_news_pilot20.csv`` (EN→ZH, the VU Amsterdam Metaphor Corpus, news register):
  ``type`` (``met`` an indirect MRW, ``impl`` implicit, ``lit`` direct) and ``DELMET``
  (1 when the metaphor is deliberate);
* ``PSUCMC_news_pilot20.csv`` (ZH→EN, the PSU Chinese Metaphor Corpus, news): ``type``
  (``indir`` / ``dir``) and ``subtype`` (``conv`` conventional; ``cont``, ``pers``,
  ``widlii`` the other codes of the corpus).

:func:`join_types` finds every annotated MRW's corpus row. The item ids of the sheets
cannot be trusted for this (in the EN→ZH sheets some ids name another sentence or another
word), so the join goes by what the annotator saw: the item's document (its id without the
last two numbers), the sentence (the same set of words; the sheets reorder words of some
sentences) and the word itself; the word index in the id only decides between two
occurrences of one word in the sentence. An item that finds no row, or two, keeps its row
with ``matched`` False and the reason in ``note``: nothing is dropped silently.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import paths
from ..core.errors import InputError
from .release import METAHOPE_REPO

#: The released corpus files, by the direction whose source sentences they hold.
CORPUS_FILES = {"EN→ZH": "VUAMC_news_pilot20.csv", "ZH→EN": "PSUCMC_news_pilot20.csv"}
#: Corpus type codes -> plain words.
TYPE_NAMES = {"met": "indirect", "indir": "indirect", "lit": "direct", "dir": "direct", "impl": "implicit"}
SUBTYPE_NAMES = {"conv": "conventional", "cont": "cont", "pers": "personification", "widlii": "WIDLII"}
#: Columns of :func:`join_types`.
COLUMNS = [
    "direction",
    "item",
    "sentence",
    "metaphor",
    "matched",
    "note",
    "corpus_sentence",
    "corpus_word",
    "word_index",
    "id_agrees",
    "metaphor_type",
    "subtype",
    "deliberate",
    "conventional",
]
_TOKEN = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]")


def corpus_file(direction: str) -> Path:
    """The released corpus file of ``direction`` (fetched by ``.venv/bin/python -m helpers fetch``)."""
    return paths.released_file(METAHOPE_REPO, CORPUS_FILES[direction])


def _need(frame: pd.DataFrame, columns, file) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(f"corpus file lacks the column(s) {', '.join(missing)}", file=file, row=1)


def read_corpus(direction: str, path: str | os.PathLike | None = None) -> pd.DataFrame:
    """One direction's corpus rows in one layout: ``doc, corpus_sentence, sentence, word,
    word_index, metaphor_type, subtype, deliberate, conventional`` (``deliberate`` is known
    for VUAMC only, ``subtype`` and ``conventional`` for PSUCMC only; unknown is NA)."""
    file = Path(path) if path is not None else corpus_file(direction)
    raw = pd.read_csv(file, encoding="utf-8-sig", dtype=str, keep_default_na=False)
    if direction == "EN→ZH":
        _need(raw, ["docid", "sentence_id", "sentence", "word", "windex", "type", "DELMET"], file)
        bad = raw[~raw["DELMET"].isin(["0", "1"])]
        if len(bad):
            r = bad.index[0]
            raise InputError("DELMET must be 0 or 1", file=file, row=r + 2, column="DELMET", value=bad.at[r, "DELMET"])
        out = pd.DataFrame(
            {
                "doc": raw["docid"],
                "corpus_sentence": raw["sentence_id"],
                "sentence": raw["sentence"],
                "word": raw["word"],
                "word_index": raw["windex"],
                "type": raw["type"],
                "subtype": pd.NA,
                "deliberate": raw["DELMET"].eq("1").astype("boolean"),
            }
        )
    else:
        _need(raw, ["seg_id", "sen_id", "word_id", "token", "type", "subtype", "sentence"], file)
        out = pd.DataFrame(
            {
                "doc": raw["seg_id"],
                "corpus_sentence": raw["seg_id"] + "_" + raw["sen_id"],
                "sentence": raw["sentence"],
                "word": raw["token"],
                "word_index": raw["word_id"],
                "type": raw["type"],
                "subtype": raw["subtype"].map(lambda s: SUBTYPE_NAMES.get(s, s) if s else pd.NA),
                "deliberate": pd.array([pd.NA] * len(raw), dtype="boolean"),
            }
        )
    unknown = sorted(set(out["type"]) - set(TYPE_NAMES))
    if unknown:
        r = int(np.argmax(out["type"].isin(unknown)))
        raise InputError(
            f"unknown metaphor type (known: {', '.join(sorted(TYPE_NAMES))})",
            file=file,
            row=r + 2,
            column="type",
            value=unknown[0],
        )
    out["metaphor_type"] = out.pop("type").map(TYPE_NAMES)
    out["conventional"] = (
        out["subtype"].eq("conventional").astype("boolean")
        if direction == "ZH→EN"
        else pd.array([pd.NA] * len(out), dtype="boolean")
    )
    out["word_index"] = pd.to_numeric(out["word_index"], errors="coerce")
    return out


def _tokens(text: str) -> frozenset:
    """The words of a sentence (English) or its characters (Chinese), order ignored."""
    return frozenset(_TOKEN.findall(str(text).lower()))


def _word(text: str) -> str:
    """A word compared without case, spaces, '+' or punctuation ("Set + up" = "set up")."""
    return re.sub(r"[\W_]+", "", str(text).lower())


def _one(item: pd.Series, corpus: pd.DataFrame) -> dict:
    """The corpus row of one annotated item, or the reason there is none."""
    doc, _, index = str(item["item"]).rsplit("_", 2) if str(item["item"]).count("_") >= 2 else ("", "", "")
    rows = corpus[corpus["doc"] == doc]
    if rows.empty:
        return {"note": f"document {doc!r} is not in the corpus file"}
    words = _tokens(item["sentence"])
    same = rows[rows["sentence"].map(_tokens) == words]
    if same.empty:
        return {"note": "sentence not found in its document"}
    hits = same[same["word"].map(_word) == _word(item["metaphor"])]
    if hits.empty:
        return {"note": "word not found in the sentence"}
    if len(hits) > 1:
        by_index = hits[hits["word_index"] == pd.to_numeric(index, errors="coerce")]
        if len(by_index) != 1:
            return {"note": f"word occurs {len(hits)} times in the sentence and the id's word index names none"}
        hits = by_index
    hit = hits.iloc[0]
    return {
        "matched": True,
        "note": "found by sentence and word",
        "corpus_word": hit["word"],
        "id_agrees": pd.to_numeric(index, errors="coerce") == hit["word_index"],
        **{
            c: hit[c]
            for c in ("corpus_sentence", "word_index", "metaphor_type", "subtype", "deliberate", "conventional")
        },
    }


def join_types(tidy: pd.DataFrame, corpora: dict | None = None) -> pd.DataFrame:
    """Every annotated MRW of ``tidy`` (columns ``direction, item, sentence, metaphor``) with
    its corpus row: one row per (direction, item), columns :data:`COLUMNS`. ``corpora`` maps a
    direction to its corpus frame (:func:`read_corpus`); by default the released files of
    the directions present are read. A direction without a corpus file leaves its items
    unmatched.
    """
    items = tidy.drop_duplicates(["direction", "item"])[["direction", "item", "sentence", "metaphor"]]
    if corpora is None:
        corpora = {d: read_corpus(d) for d in items["direction"].unique() if d in CORPUS_FILES}
    rows = []
    for _, item in items.iterrows():
        corpus = corpora.get(item["direction"])
        found = _one(item, corpus) if corpus is not None else {"note": "no corpus file for this direction"}
        rows.append({**item.to_dict(), "matched": False, **found})
    out = pd.DataFrame(rows).reindex(columns=COLUMNS)
    out["matched"] = out["matched"].astype(bool)
    for c in ("deliberate", "conventional"):
        out[c] = out[c].astype("boolean")
    return out.reset_index(drop=True)


#: Columns of :func:`type_comparison`.
COMPARISON_COLUMNS = [
    "direction",
    "contrast",
    "group_a",
    "group_b",
    "measure",
    "n_a",
    "n_b",
    "sentences_a",
    "sentences_b",
    "mean_a",
    "mean_b",
    "difference",
    "ci_low",
    "ci_high",
    "empty_share",
    "mdd_80",
    "df",
]
#: The contrasts chapter 2 reads: (direction, column, name of the True side, name of the False side).
CONTRASTS = (
    ("EN→ZH", "deliberate", "deliberate", "not deliberate"),
    ("ZH→EN", "conventional", "conventional", "other subtypes"),
    ("EN→ZH", "indirect", "indirect", "implicit or direct"),
    ("ZH→EN", "indirect", "indirect", "direct"),
)


def type_units(segs: pd.DataFrame, types: pd.DataFrame) -> pd.DataFrame:
    """One row per matched metaphor: its sentence, types, ``penalty`` (SEGS averaged over the
    systems and annotators) and ``error_rate`` (the share of its (system, annotator) ratings
    with any error), from ``segs`` (:func:`~helpers.metahope.ch02.segments_by_direction`)."""
    per = (
        segs.assign(error=segs["SEGS"] > 0)
        .groupby(["direction", "item"], sort=False)
        .agg(penalty=("SEGS", "mean"), error_rate=("error", "mean"), ratings=("SEGS", "size"))
        .reset_index()
    )
    matched = types[types["matched"]].assign(indirect=lambda t: t["metaphor_type"].eq("indirect").astype("boolean"))
    return per.merge(matched, on=["direction", "item"])


def type_comparison(units: pd.DataFrame, n_boot: int = 2000, seed: int = 2026, alpha: float = 0.05) -> pd.DataFrame:
    """Do error rates or penalties differ by metaphor type? For each contrast of
    :data:`CONTRASTS` with metaphors on both sides, and each measure (``error_rate``,
    ``penalty``): the two group means, their difference (True side − False side), its
    standard error from a sentence-cluster bootstrap (:func:`helpers.core.statistics.stats.resample`;
    resamples in which a side has no metaphor are left out and counted in ``empty_share``),
    the 95 % interval difference ± t · SE and ``mdd_80``, the difference the design would
    detect with 80 % power at level ``alpha``, (t_{1−α/2} + t_{0.8}) · SE, both with ``df``
    = G − 2 degrees of freedom for G sentences (t rather than normal quantiles, and no
    percentile interval, because G is small: :data:`helpers.core.statistics.stats.FEW_CLUSTERS`). A
    side drawn from fewer than two sentences gets no interval: resampling one sentence says
    nothing about other sentences.
    """
    from scipy.stats import t as student_t

    from ..core.statistics import stats

    rows = []
    for direction, column, yes, no in CONTRASTS:
        if column not in units:
            continue
        u = units[(units["direction"] == direction) & units[column].notna()].reset_index(drop=True)
        side = u[column].astype(bool).to_numpy()
        if u.empty or side.all() or not side.any():
            continue
        w = stats.resample(len(u), n_boot, seed, clusters=u["corpus_sentence"])
        sentences = (u.loc[side, "corpus_sentence"].nunique(), u.loc[~side, "corpus_sentence"].nunique())
        for measure in ("error_rate", "penalty"):
            v = u[measure].to_numpy(float)
            with np.errstate(invalid="ignore", divide="ignore"):
                a = (w[:, side] @ v[side]) / w[:, side].sum(axis=1)
                b = (w[:, ~side] @ v[~side]) / w[:, ~side].sum(axis=1)
            d = a - b
            ok = min(sentences) >= 2
            df = max(u["corpus_sentence"].nunique() - 2, 1)
            se = float(np.nanstd(d, ddof=1)) if ok else np.nan
            difference = v[side].mean() - v[~side].mean()
            half = student_t.ppf(1 - alpha / 2, df) * se
            rows.append(
                {
                    "direction": direction,
                    "contrast": column,
                    "group_a": yes,
                    "group_b": no,
                    "measure": measure,
                    "n_a": int(side.sum()),
                    "n_b": int((~side).sum()),
                    "sentences_a": sentences[0],
                    "sentences_b": sentences[1],
                    "mean_a": v[side].mean(),
                    "mean_b": v[~side].mean(),
                    "difference": difference,
                    "ci_low": difference - half,
                    "ci_high": difference + half,
                    "empty_share": float(np.isnan(d).mean()),
                    "mdd_80": (student_t.ppf(1 - alpha / 2, df) + student_t.ppf(0.8, df)) * se,
                    "df": df,
                }
            )
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS)
