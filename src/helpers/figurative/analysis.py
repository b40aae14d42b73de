"""Do idiom segments draw more MQM errors? The building blocks of chapter 10.

Three ZH→EN data sets of Google's expert MQM release (``helpers.core.mqm.GOOGLE_MQM_REPO``):

* ``newstest2021``: per-segment MQM scores (``*.avg_seg_scores.tsv``) of 15 systems; the
  file has no texts, its ``seg_id`` is the 1-based line of WMT21's source file
  (:data:`NEWSTEST2021_SOURCE`), and it gives no documents, so each segment is its own
  cluster unless a document column is supplied;
* ``ted``: the raw error rows (:data:`TED_FILE`) with the source text;
* ``wmt23``: the three-rater file (``mqm.THREE_RATER_FILE``), raw rows with the source,
  error spans marked ``<v>…</v>`` in the source or the target.

The steps, each DataFrame in, tidy DataFrame out:

1. :func:`segment_table`: one row per (system, segment) with the MQM penalty (mean over
   raters), the source, its length in characters, and the idiom flag of a detector
   (:func:`flag_idioms`);
2. :func:`idiom_effect`: the penalty difference idiom − other segments, controlled for
   source length and system, segments nested in documents: a statsmodels mixed model
   (random intercept per document) and a document-cluster bootstrap of the same OLS
   coefficient, with the minimum detectable difference at 80 % power;
3. :func:`span_overlap`: of the source-side error spans in segments with an idiom, the
   share that overlaps an idiom, against the chance rate (the idiom's share of the
   source's characters, as a span of the same length placed uniformly would overlap).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from helpers.core import annotations as ann
from helpers.core import mqm, paths, scoring, stats
from helpers.core.errors import InputError

from . import idioms

REPO = mqm.GOOGLE_MQM_REPO
NEWSTEST2021_SCORES = "newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv"
TED_FILE = "ted/zhen/mqm_ted_zhen.tsv"
THREE_RATER_FILE = mqm.THREE_RATER_FILE
NEWSTEST2021_SOURCE = ("wmt-conference/wmt21-news-systems", "txt/sources/newstest2021.zh-en.src.zh")
WMT23_SOURCE = ("wmt-conference/wmt23-news-systems", "txt/sources/generaltest2023.zh-en.src.zh")
DATASETS = ("newstest2021", "ted", "wmt23")


def read_lines(path) -> pd.Series:
    """A one-sentence-per-line text file as a Series indexed by the 1-based line number."""
    path = paths.resolve_input(path) if not isinstance(path, tuple) else paths.released_file(*path)
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    return pd.Series(lines, index=pd.RangeIndex(1, len(lines) + 1), name="source")


def source_pool() -> pd.DataFrame:
    """Every Chinese source of the three data sets: ``dataset, text_id, source``.

    ``text_id`` is ``newstest2021:LINE``, ``wmt23:LINE`` (lines of the WMT source files) and
    ``ted:DOC:SEG`` (the TED errors file's segments, texts without span markers). The pool
    the authored idiom sample is drawn from.
    """
    n21 = read_lines(NEWSTEST2021_SOURCE)
    n23 = read_lines(WMT23_SOURCE)
    ted = mqm.read_mqm(paths.released_file(REPO, TED_FILE), columns=["doc", "doc_seg_id", "source"])
    ted = ted.assign(source=ann.clean_text(ted["source"])).drop_duplicates(["doc", "doc_seg_id"])
    parts = [pd.DataFrame({"dataset": "newstest2021", "text_id": [f"newstest2021:{i}" for i in n21.index],
                           "source": n21.to_numpy()}),
             pd.DataFrame({"dataset": "wmt23", "text_id": [f"wmt23:{i}" for i in n23.index], "source": n23.to_numpy()}),
             pd.DataFrame({"dataset": "ted", "text_id": "ted:" + ted["doc"] + ":" + ted["doc_seg_id"].astype(str),
                           "source": ted["source"].to_numpy()})]
    return pd.concat(parts, ignore_index=True)
