"""Chapter 09's data: WMT test sets, their system outputs, published scores and human judgements.

Everything is read from the fetched upstream files (``data/sources.yml``; ``.venv/bin/python -m helpers
fetch``), never from a copy in the repository:

* **newstest2021 ZH→EN** (wmt-conference/wmt21-news-systems; Akhbardeh et al. 2021): sources,
  reference A, the outputs of the 8 submissions that Google's expert MQM rated and that have an
  output under their own name; the published BLEU/chrF (``scores/automatic-scores.tsv``) and
  COMET (``scores/COMET/zh-en/``, against reference A and B) system scores; WMT21's crowd
  source-based DA (``humaneval/newstest2021-toen/``, system and segment scores). The expert MQM
  segment scores are Google's ``mqm_newstest2021_zhen.avg_seg_scores.tsv`` (Freitag et al. 2021),
  650 rated segments per system, whose ``seg_id`` is the 1-based line of the text files
  (:func:`mqm_newstest2021`; how that was checked is in its docstring and
  ``tests/metrics/test_data.py``).
* **generaltest2023 ZH→EN** (wmt-conference/wmt23-news-systems; Kocmi et al. 2023): sources,
  reference A, the outputs of the 10 systems of Google's three-rater MQM file, the published
  BLEU/chrF and the DA+SQM results (``humaneval/DA+SQM/WMT23.results.txt``). The MQM file's
  documents are mapped to lines of the source file by their source text
  (:func:`helpers.core.formats.texts.align_to_lines`).
* **TED ZH→EN** (Google's ``mqm_ted_zhen.tsv``): the outputs are in the MQM file itself; its
  ``ref`` and ``refB`` are rated human translations and serve as each other's reference
  (:func:`ted`).

The seeds' post-edits are read by their own study packages (HADQAET:
:func:`helpers.slang.qe_data.hadqaet_post_edits`; MetaHOPE: :func:`helpers.metahope.workbooks.gold_standards`)
and passed to :func:`helpers.metrics.ch09.post_edits` by the chapter.

Every loader returns a tidy DataFrame; ``segment`` is always the 1-based line number of the
test set's text files, ``system`` the WMT name.
"""

from __future__ import annotations

import ast
import re

import numpy as np
import pandas as pd

from ..core.errors import InputError
from ..core.formats import mqm, testsets
from ..core.formats.texts import align_to_lines, read_lines
from ..core.statistics import scoring

#: The WMT test sets of the chapter (their files, systems and joins: :mod:`helpers.core.formats.testsets`).
TESTSETS = ("newstest2021", "generaltest2023")
_MARKUP = re.compile(r"</?v>")  # MQM span markup in the TED file's texts


def systems_of(testset: str) -> tuple[str, ...]:
    """The registered systems with an output of one of :data:`TESTSETS`."""
    return testsets.get(testset).systems


def texts(testset: str = "newstest2021", systems: list[str] | None = None) -> pd.DataFrame:
    """Source, reference and every system's output, one row per (system, segment).

    Parameters
    ----------
    testset : {"newstest2021", "generaltest2023"}
    systems : list of str, optional
        A subset of the test set's systems (default: all of :data:`TESTSETS`).

    Returns
    -------
    DataFrame
        ``system, segment, source, reference, hypothesis``; ``segment`` the 1-based line.
    """
    if testset not in TESTSETS:
        raise InputError(
            "is not a test set of chapter 09", parameter="testset", value=testset, expected=" or ".join(TESTSETS)
        )
    ts = testsets.get(testset)
    source, reference = read_lines(ts.file("source")), read_lines(ts.file("reference"))
    frames = []
    for system in systems or ts.systems:
        hyp = read_lines(ts.file("output", system))
        frames.append(
            pd.DataFrame(
                {
                    "system": system,
                    "segment": np.arange(1, len(hyp) + 1),
                    "source": source,
                    "reference": reference,
                    "hypothesis": hyp,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def published_automatic(testset: str = "newstest2021") -> pd.DataFrame:
    """The organisers' published BLEU and chrF against reference A (``scores/automatic-scores.tsv``).

    Returns
    -------
    DataFrame
        ``system, metric, score`` (``metric`` ``bleu`` or ``chrf``) for the ZH→EN systems of
        :data:`TESTSETS`, the scores as printed (full float precision).
    """
    ts = testsets.get(testset)
    table = pd.read_csv(ts.file("automatic_scores"), sep="\t")
    table = table[(table["pair"] == "zh-en") & table["system"].isin(ts.systems)]
    ref = ts.options["reference_name"]
    wanted = {f"bleu-{ref}": "bleu", f"chrf-{ref}": "chrf"}
    table = table[table["metric"].isin(list(wanted))]
    out = table.assign(metric=table["metric"].map(wanted))[["system", "metric", "score"]]
    return out.sort_values(["metric", "system"]).reset_index(drop=True)


def published_comet() -> pd.DataFrame:
    """WMT21's published COMET system scores for ZH→EN, against reference A and reference B.

    Returns
    -------
    DataFrame
        ``system, reference, score`` (``reference`` ``A`` or ``B``), every system of the files
        (more than the 8 with outputs here), higher is better.
    """
    frames = []
    for ref in ("A", "B"):
        path = testsets.get("newstest2021").file(f"comet_ref{ref}")
        frame = pd.read_csv(path, sep="\t", header=None, names=["system", "score"])
        frames.append(frame.assign(reference=ref))
    return pd.concat(frames, ignore_index=True)[["system", "reference", "score"]]


def _da_system(name: pd.Series) -> pd.Series:
    """WMT21's DA files write ``NAME.ID`` (``XMU.17``): the name without the submission id."""
    return name.str.replace(r"\.\d+$", "", regex=True)


def da_newstest2021(level: str = "system") -> pd.DataFrame:
    """WMT21's crowd source-based direct assessment of ZH→EN (Akhbardeh et al. 2021, section 3).

    Parameters
    ----------
    level : {"system", "segment"}

    Returns
    -------
    DataFrame
        system level: ``system, raw, z, n`` (mean raw 0–100 score and mean standardised z score
        over ``n`` judgements); segment level: ``system, segment, raw, z, n`` with ``segment``
        the file's ``SID``, read as the 1-based line (it runs 1–1,948 like the text files). That
        reading cannot be confirmed as MQM's was: with one or two judgements per segment the DA
        scores correlate with neither MQM nor sentence chrF at any offset from -2 to 2 (|r| <
        0.06), so use them at system level. Higher is better.
    """
    kind = "da_system" if level == "system" else "da_segment"
    frame = pd.read_csv(testsets.get("newstest2021").file(kind), sep=r"\s+")
    out = pd.DataFrame({"system": _da_system(frame["SYS"])})
    if level != "system":
        out["segment"] = frame["SID"].astype("int64")
    out["raw"], out["z"], out["n"] = frame["RAW.SCR"], frame["Z.SCR"], frame["N"].astype("int64")
    return out


def dasqm_generaltest2023() -> pd.DataFrame:
    """WMT23's DA+SQM system scores for Chinese→English (Kocmi et al. 2023).

    Read from the ``[zho-->eng]`` block of ``humaneval/DA+SQM/WMT23.results.txt``, whose lines
    ``('NAME', n, z, raw, sqm)`` give per system the number of judgements, the mean z score,
    the mean raw 0–100 score (the published table's "Ave.") and the mean of the 1–6 SQM scale.

    Returns
    -------
    DataFrame
        ``system, n, z, raw, sqm``, best raw score first; ``Human-refA`` is the reference
        scored as a system.
    """
    path = testsets.get("generaltest2023").file("dasqm")
    rows, inside = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            inside = line.strip() == "[zho-->eng]"
        elif inside and re.match(r"^\d+\.\d+ \(", line):
            name, n, z, raw, sqm = ast.literal_eval(line.split(" ", 1)[1])
            rows.append({"system": name, "n": n, "z": z, "raw": raw, "sqm": sqm})
    if not rows:
        raise InputError("has no [zho-->eng] system scores", file=path)
    return pd.DataFrame(rows)


def mqm_newstest2021() -> pd.DataFrame:
    """Google's expert MQM segment scores of newstest2021 ZH→EN (Freitag et al. 2021).

    ``seg_id`` of ``mqm_newstest2021_zhen.avg_seg_scores.tsv`` runs 1–1,948 and is read as the
    1-based line of the WMT21 text files. Checked (``tests/metrics/test_data.py``): the file
    names every line once per system; and the sentence chrF of each system's output against
    reference A correlates with the MQM penalty most strongly (negatively) at that alignment,
    not one or two lines off — an off-by-one pairing would leave chance-level correlation.

    Returns
    -------
    DataFrame
        ``system, segment, score``: the rated segments only, ``score`` the MQM penalty averaged
        over raters (lower is better), every system of the file (also ``ref-A``, ``ref-B``,
        ``metricsystem1``–``5``, which have no output here).
    """
    frame = mqm.read_segment_scores(testsets.get("newstest2021").file("mqm_scores"))
    return frame.rename(columns={"doc_seg_id": "segment"})[["system", "segment", "score"]]


def mqm_generaltest2023(scheme: str = "mqm") -> pd.DataFrame:
    """Google's three-rater expert MQM of generaltest2023 ZH→EN, per segment, on the text files' lines.

    Each rating's penalty is weighted with ``scheme`` (the WMT weights by default;
    :func:`helpers.core.statistics.scoring.rater_scores`) and averaged over the segment's raters; the
    segment is mapped to its line of ``generaltest2023.zh-en.src.zh`` by
    :func:`helpers.core.formats.texts.align_to_lines`.

    Returns
    -------
    DataFrame
        ``system, doc, segment, score`` (score: MQM penalty, lower is better).
    """
    ts = testsets.get("generaltest2023")
    path = ts.file("mqm")
    ratings = mqm.read_mqm(path)
    segs = scoring.segment_scores(scoring.rater_scores(ratings, scheme, file=path))
    lines = align_to_lines(ratings, read_lines(ts.file("source")), file=path)
    out = segs.merge(lines, on=["doc", "doc_seg_id"], how="left", validate="many_to_one")
    return out[["system", "doc", "segment", "score"]]


def ted(scheme: str = "mqm") -> tuple[pd.DataFrame, pd.DataFrame]:
    """TED talks ZH→EN from Google's MQM file (Freitag et al. 2021): texts and MQM segment scores.

    The outputs are in the MQM file itself. ``ref`` and ``refB`` are rated human translations;
    each system is compared with ``ref``, and ``ref`` itself with ``refB``. ``segment`` is the
    file's global segment id (the TED set has no separate text files).

    Returns
    -------
    texts : DataFrame
        ``system, doc, segment, source, reference, hypothesis``.
    scores : DataFrame
        ``system, doc, segment, score`` (MQM penalty averaged over raters, lower is better).
    """
    path = testsets.get("ted").file("mqm")
    ratings = mqm.read_mqm(path)
    segs = scoring.segment_scores(scoring.rater_scores(ratings, scheme, file=path))
    clean = ratings.drop_duplicates(["system", "global_seg_id"]).assign(
        source=lambda f: f["source"].str.replace(_MARKUP, "", regex=True),
        hypothesis=lambda f: f["target"].str.replace(_MARKUP, "", regex=True),
    )
    by_system = clean.set_index(["system", "global_seg_id"])["hypothesis"]
    refs = clean[clean["system"].isin(["ref", "refB"])]
    ref_of = {s: by_system.xs(s, level="system") for s in refs["system"].unique()}
    reference = [
        ref_of["refB" if s == "ref" else "ref"].get(g) for s, g in zip(clean["system"], clean["global_seg_id"])
    ]
    out = pd.DataFrame(
        {
            "system": clean["system"].to_numpy(),
            "doc": clean["doc"].to_numpy(),
            "segment": clean["global_seg_id"].astype("int64").to_numpy(),
            "source": clean["source"].to_numpy(),
            "reference": reference,
            "hypothesis": clean["hypothesis"].to_numpy(),
        }
    )
    out = out.dropna(subset=["reference"]).sort_values(["system", "segment"]).reset_index(drop=True)
    scores = segs.rename(columns={"global_seg_id": "segment"})[["system", "doc", "segment", "score"]]
    return out, scores.assign(segment=scores["segment"].astype("int64"))
