"""Song & Xu's hand labels of Chinese multiword expressions in WMT22 ZH→EN: the gold standard
chapter 10 measures its idiom detectors against.

Song & Xu (2024) labelled every one of the 1,875 sources of the WMT22 metrics task's ZH→EN set
with 28 kinds of multiword expression (``all.json`` of github.com/florethsong/mtme-zh-mwe,
Apache-2.0; UTF-8 with a byte-order mark): one entry per source, ``index`` its 0-based line,
``categories`` a list of ``{start, end, value, category}``. The kinds fall into three groups
(:data:`IDIOM_KINDS`, :data:`MWE_KINDS`, anything else a named entity):

* idioms: four-character idioms (``IDI``, the 成语 form), noun- and verb-headed idioms
  (``NID``, ``VID``);
* non-figurative multiword expressions: light-verb constructions (``LVC.full``, ``LVC.cause``),
  multi-verb constructions (``MVC``), special constructions (``CON``), semi-compositional
  verb-particle constructions (``VPC.semi``) and separable words (``ION``);
* 19 kinds of named entity (person, organisation, date, …, terminology ``TER``).

Two gold definitions of "this source has an idiom" are used: ``idi`` (IDI alone: a form, the
chengyu) and ``idiom`` (IDI ∪ NID ∪ VID: any idiom). Neither is "figurative use": a chengyu
whose meaning is the sum of its parts is still an IDI.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from helpers.core.errors import InputError

from . import idioms

IDIOM_KINDS = frozenset({"IDI", "NID", "VID"})
MWE_KINDS = frozenset({"LVC.full", "LVC.cause", "MVC", "CON", "VPC.semi", "ION"})
#: The two gold definitions: name -> the kinds that make a source an idiom source.
GOLD = {"idi": frozenset({"IDI"}), "idiom": IDIOM_KINDS}
#: The four classes of :func:`segment_classes`, from most to least figurative.
CLASSES = ("idiom", "mwe", "ne_only", "none")
LABEL_COLUMNS = ["segment", "category", "value", "start", "end", "group"]
#: Columns of :func:`detector_scores` (``detector_gold.csv``).
SCORE_COLUMNS = [
    "detector",
    "gold",
    "segments",
    "gold_segments",
    "flagged",
    "true_positives",
    "precision",
    "precision_low",
    "precision_high",
    "recall",
    "recall_low",
    "recall_high",
]


def _group(category: str) -> str:
    return "idiom" if category in IDIOM_KINDS else "mwe" if category in MWE_KINDS else "ne"


def read_labels(path) -> pd.DataFrame:
    """Song & Xu's labels, one row per labelled expression.

    Parameters
    ----------
    path : path
        Their ``all.json`` (a JSON list; a byte-order mark is skipped).

    Returns
    -------
    DataFrame
        ``segment`` (1-based line, the book's segment number), ``category``, ``value``,
        ``start``, ``end`` (character offsets; a discontinuous expression's first start and
        last end), ``group`` (``idiom``, ``mwe`` or ``ne``); a source without any expression is one
        row with empty ``category`` and ``group``, so every entry's segment is there.

    References
    ----------
    Song, X. & Xu, H. (2024). Multiword expressions in the WMT22 ZH→EN metrics data
    (github.com/florethsong/mtme-zh-mwe, ``all.json``).
    """
    try:
        entries = json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError(f"not a readable JSON file ({err})", file=path) from None
    if not isinstance(entries, list):
        raise InputError("must hold a JSON list of entries", file=path, value=type(entries).__name__)
    rows = []
    for at, entry in enumerate(entries):
        if not isinstance(entry, dict) or "index" not in entry or "categories" not in entry:
            raise InputError("entry without index and categories", file=path, row=at, value=str(entry)[:80])
        for c in entry["categories"]:
            start, end = c.get("start"), c.get("end")
            start = min(start) if isinstance(start, list) else start
            end = max(end) if isinstance(end, list) else end
            value = "".join(c["value"]) if isinstance(c.get("value"), list) else c.get("value")
            rows.append((int(entry["index"]) + 1, c.get("category"), value, start, end, _group(c.get("category"))))
        if not entry["categories"]:  # a source without any expression is still a segment
            rows.append((int(entry["index"]) + 1, "", "", None, None, ""))
    return pd.DataFrame(rows, columns=LABEL_COLUMNS)


def segment_classes(labels: pd.DataFrame, segments: int | None = None) -> pd.DataFrame:
    """Per source segment: which gold kinds it holds, and its class for the contrast of
    figurativeness and multiword-ness.

    Parameters
    ----------
    labels : DataFrame
        :func:`read_labels`' rows.
    segments : int, optional
        Number of segments (default: the number of entries the file held, :func:`read_labels`' segments).

    Returns
    -------
    DataFrame
        ``segment, idi, idiom, mwe, ne`` (booleans: has an IDI; any idiom; a non-figurative
        multiword expression; a named entity) and ``mwe_class``: ``idiom`` when it has any idiom,
        else ``mwe`` when it has a non-figurative multiword expression, else ``ne_only`` with a
        named entity, else ``none``.

    References
    ----------
    Song, X. & Xu, H. (2024), the labels; the classes are this book's.
    """
    n = segments if segments is not None else labels["segment"].nunique()
    out = pd.DataFrame({"segment": range(1, n + 1)})
    has = lambda mask: out["segment"].isin(labels.loc[mask, "segment"])  # noqa: E731
    out["idi"] = has(labels["category"] == "IDI")
    out["idiom"] = has(labels["group"] == "idiom")
    out["mwe"] = has(labels["group"] == "mwe")
    out["ne"] = has(labels["group"] == "ne")
    out["mwe_class"] = "none"
    out.loc[out["ne"], "mwe_class"] = "ne_only"
    out.loc[out["mwe"], "mwe_class"] = "mwe"
    out.loc[out["idiom"], "mwe_class"] = "idiom"
    return out


def detector_scores(
    sources: pd.Series, classes: pd.DataFrame, detectors=idioms.DETECTORS, ci: float = 95.0
) -> pd.DataFrame:
    """Each detector's precision and recall against the gold, per segment, for both gold definitions.

    A segment counts as flagged when the detector finds at least one match in its source; it is a
    true positive when the gold says it holds an idiom (:data:`GOLD`).

    Parameters
    ----------
    sources : Series
        The source texts, indexed by segment number (as ``classes["segment"]``).
    classes : DataFrame
        :func:`segment_classes`' rows.
    detectors : sequence of str
        Among :data:`helpers.figurative.idioms.DETECTORS`.
    ci : float
        Level of the Wilson intervals, in percent.

    Returns
    -------
    DataFrame
        ``detector, gold, segments, gold_segments, flagged, true_positives, precision,
        precision_low, precision_high, recall, recall_low, recall_high``.

    Notes
    -----
    precision = TP / flagged, recall = TP / gold segments, each with its Wilson score interval.

    References
    ----------
    Manning, C. D., Raghavan, P. & Schütze, H. (2008). Introduction to Information Retrieval, §8.3.
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
    JASA 22(158), 209–212.
    """
    found = idioms.find_idioms(sources, list(detectors))
    rows = []
    for name in detectors:
        flagged = classes["segment"].isin(found.loc[found["detector"] == name, "text_id"])
        for gold in GOLD:
            truth = classes[gold]
            tp, n_flag, n_gold = int((flagged & truth).sum()), int(flagged.sum()), int(truth.sum())
            p_low, p_high = idioms.wilson_interval(tp, n_flag, ci)
            r_low, r_high = idioms.wilson_interval(tp, n_gold, ci)
            rows.append(
                {
                    "detector": name,
                    "gold": gold,
                    "segments": len(classes),
                    "gold_segments": n_gold,
                    "flagged": n_flag,
                    "true_positives": tp,
                    "precision": tp / n_flag if n_flag else float("nan"),
                    "precision_low": p_low,
                    "precision_high": p_high,
                    "recall": tp / n_gold if n_gold else float("nan"),
                    "recall_low": r_low,
                    "recall_high": r_high,
                }
            )
    return pd.DataFrame(rows, columns=SCORE_COLUMNS)
