"""WMT22 ZH→EN as chapter 10 reads it: expert MQM segment scores of every rated system, the
source, its document and domain, Song & Xu's gold labels and a detector's flags, one row per
rated (system, segment); the metrics' segment scores in the same keys.

The set comes in mt-metrics-eval's layout (:mod:`helpers.core.formats.mtme`): its MQM file holds
a negative penalty per segment (higher is better), which is negated here into the chapter's
convention (a penalty, higher is worse). It has segment scores only: no error rows, spans or
categories, so the span and category analyses stay with the older sets.
"""

from __future__ import annotations

import pandas as pd

from . import analysis, idioms

TABLE_COLUMNS = [
    "dataset",
    "system",
    "doc",
    "domain",
    "segment",
    "source",
    "source_chars",
    "score",
    "human",
    "idioms",
    "idiom",
    "gold_idi",
    "gold_idiom",
    "mwe_class",
]


def segment_table(
    es, classes: pd.DataFrame | None, detector: str, dataset: str = "wmt22", human: str = "mqm"
) -> pd.DataFrame:
    """One row per MQM-rated (system, segment) of an mt-metrics-eval set.

    Parameters
    ----------
    es : helpers.core.formats.mtme.MtmeSet
        The set (``sources``, ``documents``, ``references``, ``human(name)``, ``directory``).
    classes : DataFrame or None
        :func:`helpers.figurative.gold.segment_classes` of its sources (None: no gold; the gold
        columns are then NA).
    detector : str
        The idiom detector of ``idioms``/``idiom``.
    dataset : str
        The name in the ``dataset`` column.
    human : str
        The human score file (``mqm``).

    Returns
    -------
    DataFrame
        :data:`TABLE_COLUMNS`: ``score`` = −MQM (a penalty), ``segment`` the 1-based line as a
        string, ``doc`` the document (the segment itself when the set has none), ``human`` True
        for the set's references rated as systems.

    References
    ----------
    Freitag, M. et al. (2022). Results of the WMT22 Metrics Shared Task (the MQM segment scores).
    Song, X. & Xu, H. (2024) (the gold labels, :mod:`helpers.figurative.gold`).
    """
    sources = pd.Series(es.sources, index=range(1, len(es.sources) + 1))
    idioms.require_chinese(sources, file=f"{es.directory} (sources of {es.lp})")
    scores = es.human(human, level="seg").dropna(subset=["score"])
    seg = pd.DataFrame({"segment": sources.index, "source": sources.to_numpy()})
    docs = es.documents
    if docs is not None:
        seg = seg.merge(docs[["segment", "domain", "document"]], on="segment", how="left")
        seg["doc"] = seg["document"].astype(str)
    else:
        seg["doc"], seg["domain"] = "seg" + seg["segment"].astype(str), ""
    table = scores.merge(seg[["segment", "source", "doc", "domain"]], on="segment", how="left")
    table = pd.DataFrame(
        {
            "dataset": dataset,
            "system": table["system"],
            "doc": table["doc"],
            "domain": table["domain"],
            "segment": table["segment"].astype(str),
            "source": table["source"],
            "score": -table["score"].astype(float),
            "human": table["system"].isin(list(es.references)),
        }
    )
    table = analysis.flag_idioms(table, detector)
    if classes is not None:
        gold = classes.assign(segment=classes["segment"].astype(str)).rename(
            columns={"idi": "gold_idi", "idiom": "gold_idiom"}
        )[["segment", "gold_idi", "gold_idiom", "mwe_class"]]
        table = table.merge(gold, on="segment", how="left")
    else:
        table = table.assign(gold_idi=pd.NA, gold_idiom=pd.NA, mwe_class=pd.NA)
    return table[TABLE_COLUMNS]


def metric_table(es, systems, names=None, level: str = "seg") -> pd.DataFrame:
    """The metrics' segment scores of ``systems``: ``metric, system, segment, score`` (``segment`` a
    string, as in :func:`segment_table`), for ``names`` (default every metric file of the set).

    Parameters
    ----------
    es : helpers.core.formats.mtme.MtmeSet
        The set.
    systems : collection of str
        The systems kept.
    names : sequence of str, optional
        Metric names as the files name them.
    level : str
        ``seg``.

    Returns
    -------
    DataFrame
        ``metric, system, segment, score`` (higher is better, as mt-metrics-eval stores them).

    References
    ----------
    Freitag, M. et al. (2022). Results of the WMT22 Metrics Shared Task.
    """
    frames = []
    for name in names if names is not None else es.metric_names(level=level):
        m = es.metric(name, level=level)
        m = m[m["system"].isin(list(systems))]
        frames.append(
            pd.DataFrame(
                {
                    "metric": name,
                    "system": m["system"].to_numpy(),
                    "segment": m["segment"].astype(str).to_numpy(),
                    "score": m["score"].to_numpy(),
                }
            )
        )
    return (
        pd.concat(frames, ignore_index=True)
        if frames
        else pd.DataFrame(columns=["metric", "system", "segment", "score"])
    )
