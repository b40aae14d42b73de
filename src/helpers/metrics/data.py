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
  documents are mapped to lines of the source file by their source text (:func:`align_to_lines`).
* **TED ZH→EN** (Google's ``mqm_ted_zhen.tsv``): the outputs are in the MQM file itself; its
  ``ref`` and ``refB`` are rated human translations and serve as each other's reference
  (:func:`ted`).

* **The seeds' post-edits** (issue 33, item 5): HADQAET's post-edited Google translations of
  Weibo posts with their emotion-error penalties (:func:`hadqaet_post_edits`), and MetaHOPE's
  pilot sentences with annotator A's penalties and the human gold standard
  (:func:`metahope_post_edits`); the edit rate of the MT against the post-edit is TER
  (HTER) from :mod:`helpers.metrics.scores`.

Every loader returns a tidy DataFrame; ``segment`` is always the 1-based line number of the
test set's text files, ``system`` the WMT name.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.formats import mqm
from ..core import paths
from ..core.statistics import scoring
from ..core.errors import InputError

WMT21 = "wmt-conference/wmt21-news-systems"
WMT23 = "wmt-conference/wmt23-news-systems"
GOOGLE_MQM = "google/wmt-mqm-human-evaluation"

#: The two WMT test sets of the chapter: where their text files are and which systems have an output.
TESTSETS = {
    "newstest2021": {
        "repo": WMT21, "prefix": "newstest2021.zh-en", "source": "src.zh", "reference": "ref.A.en", "ref_metric": "A",
        "systems": ["Borderline", "DIDI-NLP", "Facebook-AI", "IIE-MT", "MiSS", "NiuTrans", "Online-W", "SMU"],
    },
    "generaltest2023": {
        "repo": WMT23, "prefix": "generaltest2023.zh-en", "source": "src.zh", "reference": "ref.refA.en",
        "ref_metric": "refA",
        "systems": ["GPT4-5shot", "HW-TSC", "IOL_Research", "Lan-BridgeMT", "NLLB_Greedy", "NLLB_MBR_BLEU",
                    "ONLINE-A", "ONLINE-B", "ONLINE-M", "ONLINE-W"],
    },
}
MQM_NEWSTEST2021 = "newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv"
MQM_GENERALTEST2023 = "generalMT2023/zhen/sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz"
MQM_TED = "ted/zhen/mqm_ted_zhen.tsv"
_MARKUP = re.compile(r"</?v>")
_SPACE = re.compile(r"\s+")


def read_lines(path: str | os.PathLike) -> list[str]:
    """The lines of a UTF-8 text file, one segment per line, without their line ends.

    A file that ends with a line end has no empty last segment. An empty file (no line at
    all) is an :class:`~helpers.core.errors.InputError` naming the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "hyp.txt"
    >>> _ = p.write_text("a cat\\n\\nthe dog\\n", encoding="utf-8")
    >>> read_lines(p)
    ['a cat', '', 'the dog']
    """
    path = Path(path)
    if not path.exists():
        raise InputError("does not exist", file=path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"is not UTF-8 text (byte {exc.start})", file=path) from None
    if not text:
        raise InputError("is empty", file=path, expected="one segment per line")
    return text.removesuffix("\n").split("\n")


def _texts_path(testset: str, kind: str, system: str | None = None) -> Path:
    spec = TESTSETS[testset]
    if kind == "hyp":
        return paths.released_file(spec["repo"], f"txt/system-outputs/{spec['prefix']}.hyp.{system}.en")
    folder = "sources" if kind == "source" else "references"
    return paths.released_file(spec["repo"], f"txt/{folder}/{spec['prefix']}.{spec[kind]}")


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
        raise InputError("is not a test set of chapter 09", parameter="testset", value=testset,
                         expected=" or ".join(TESTSETS))
    source = read_lines(_texts_path(testset, "source"))
    reference = read_lines(_texts_path(testset, "reference"))
    frames = []
    for system in systems or TESTSETS[testset]["systems"]:
        hyp = read_lines(_texts_path(testset, "hyp", system))
        frames.append(pd.DataFrame({"system": system, "segment": np.arange(1, len(hyp) + 1), "source": source,
                                    "reference": reference, "hypothesis": hyp}))
    return pd.concat(frames, ignore_index=True)


def published_automatic(testset: str = "newstest2021") -> pd.DataFrame:
    """The organisers' published BLEU and chrF against reference A (``scores/automatic-scores.tsv``).

    Returns
    -------
    DataFrame
        ``system, metric, score`` (``metric`` ``bleu`` or ``chrf``) for the ZH→EN systems of
        :data:`TESTSETS`, the scores as printed (full float precision).
    """
    spec = TESTSETS[testset]
    table = pd.read_csv(paths.released_file(spec["repo"], "scores/automatic-scores.tsv"), sep="\t")
    table = table[(table["pair"] == "zh-en") & table["system"].isin(spec["systems"])]
    wanted = {f"bleu-{spec['ref_metric']}": "bleu", f"chrf-{spec['ref_metric']}": "chrf"}
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
        path = paths.released_file(WMT21, f"scores/COMET/zh-en/COMET_newstest2021_ref-{ref}.tsv")
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
    name = "ad-sys-scores-zh-en.csv" if level == "system" else "ad-seg-scores-zh-en.csv"
    frame = pd.read_csv(paths.released_file(WMT21, f"humaneval/newstest2021-toen/{name}"), sep=r"\s+")
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
    path = paths.released_file(WMT23, "humaneval/DA+SQM/WMT23.results.txt")
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
    frame = mqm.read_segment_scores(paths.released_file(GOOGLE_MQM, MQM_NEWSTEST2021))
    return frame.rename(columns={"doc_seg_id": "segment"})[["system", "segment", "score"]]


def _squeeze(text: str) -> str:
    """A segment's text for matching: the MQM span markup ``<v>…</v>`` and all whitespace removed."""
    return _SPACE.sub("", _MARKUP.sub("", text))


def align_to_lines(segments: pd.DataFrame, source_lines: list[str], file=None) -> pd.DataFrame:
    """Map an MQM file's ``(doc, doc_seg_id)`` to 1-based lines of the test set's source file.

    WMT's text files hold each document as a block of consecutive lines, so segment ``k`` of a
    document sits on line ``start + k - 1``. ``start`` is found by matching the segments' source
    text to the lines, with the MQM span markup (``<v>``) and all whitespace removed (Google's
    WMT23 MQM file drops the spaces the source file keeps between Chinese and Latin text): the
    start where the most of the document's segments match; a segment that does not match at its
    document's start is an error, so no segment is paired with a wrong line.

    Parameters
    ----------
    segments : DataFrame
        ``doc, doc_seg_id, source`` (one row per segment or more).
    source_lines : list of str
        The test set's source file, one segment per line.

    Returns
    -------
    DataFrame
        ``doc, doc_seg_id, segment``, one row per distinct ``(doc, doc_seg_id)``.
    """
    unique = segments.drop_duplicates(["doc", "doc_seg_id"])[["doc", "doc_seg_id", "source"]]
    squeezed = [_squeeze(s) for s in source_lines]
    where: dict[str, list[int]] = {}
    for i, s in enumerate(squeezed, start=1):
        where.setdefault(s, []).append(i)
    rows = []
    for doc, part in unique.groupby("doc", sort=False):
        starts = pd.Series([line - k for s, k in zip(part["source"].map(_squeeze), part["doc_seg_id"])
                            for line in where.get(s, [])], dtype="int64")
        if starts.empty:
            raise InputError("no segment of the document matches a line of the source file", file=file,
                             column="doc", value=doc)
        start = int(starts.value_counts().index[0])
        for s, k in zip(part["source"].map(_squeeze), part["doc_seg_id"]):
            line = start + int(k)
            if not 1 <= line <= len(squeezed) or squeezed[line - 1] != s:
                raise InputError(f"segment {k} does not match line {line} of the source file, where the "
                                 "document's other segments are", file=file, column="doc", value=doc)
            rows.append({"doc": doc, "doc_seg_id": int(k), "segment": line})
    return pd.DataFrame(rows)


def mqm_generaltest2023(scheme: str = "mqm") -> pd.DataFrame:
    """Google's three-rater expert MQM of generaltest2023 ZH→EN, per segment, on the text files' lines.

    Each rating's penalty is weighted with ``scheme`` (the WMT weights by default;
    :func:`helpers.core.statistics.scoring.rater_scores`) and averaged over the segment's raters; the
    segment is mapped to its line of ``generaltest2023.zh-en.src.zh`` by :func:`align_to_lines`.

    Returns
    -------
    DataFrame
        ``system, doc, segment, score`` (score: MQM penalty, lower is better).
    """
    path = paths.released_file(GOOGLE_MQM, MQM_GENERALTEST2023)
    ratings = mqm.read_mqm(path)
    segs = scoring.segment_scores(scoring.rater_scores(ratings, scheme, file=path))
    lines = align_to_lines(ratings, read_lines(_texts_path("generaltest2023", "source")), file=path)
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
    path = paths.released_file(GOOGLE_MQM, MQM_TED)
    ratings = mqm.read_mqm(path)
    segs = scoring.segment_scores(scoring.rater_scores(ratings, scheme, file=path))
    clean = ratings.drop_duplicates(["system", "global_seg_id"]).assign(
        source=lambda f: f["source"].str.replace(_MARKUP, "", regex=True),
        hypothesis=lambda f: f["target"].str.replace(_MARKUP, "", regex=True))
    by_system = clean.set_index(["system", "global_seg_id"])["hypothesis"]
    refs = clean[clean["system"].isin(["ref", "refB"])]
    ref_of = {s: by_system.xs(s, level="system") for s in refs["system"].unique()}
    reference = [ref_of["refB" if s == "ref" else "ref"].get(g) for s, g in zip(clean["system"], clean["global_seg_id"])]
    out = pd.DataFrame({"system": clean["system"].to_numpy(), "doc": clean["doc"].to_numpy(),
                        "segment": clean["global_seg_id"].astype("int64").to_numpy(),
                        "source": clean["source"].to_numpy(), "reference": reference,
                        "hypothesis": clean["hypothesis"].to_numpy()})
    out = out.dropna(subset=["reference"]).sort_values(["system", "segment"]).reset_index(drop=True)
    scores = segs.rename(columns={"global_seg_id": "segment"})[["system", "doc", "segment", "score"]]
    return out, scores.assign(segment=scores["segment"].astype("int64"))


# --------------------------------------------------------------------------- the seeds' post-edits
def hadqaet_post_edits(path=None) -> pd.DataFrame:
    """HADQAET's post-edited Weibo translations with their emotion-error annotations (Qian et al. 2023; 2024).

    ``post-edits70p.xlsx`` (surrey-nlp/HADQAET) holds 4,038 Google Translate outputs of
    emotion-loaded Weibo posts, each annotated for errors in carrying the emotion over (type
    and severity, ``;``-separated) and, for 2,952 of them, a professional post-edit. The
    penalty weighs each error by its severity as the QE chapter does
    (:data:`helpers.slang.qe_data.SEVERITY_WEIGHTS`: Minor 1, Major 5, Critical 10).

    Returns
    -------
    DataFrame
        ``row, source, mt, post_edit, emotion, errors, penalty`` for the rows with a post-edit;
        ``row`` the sheet's row, ``errors`` the number of annotated emotion errors.
    """
    from ..slang import qe_data

    path = Path(path) if path else paths.released_file(qe_data.HADQAET_REPO, "data/post-edits70p.xlsx")
    raw = qe_data.read_sheet(path, 0)
    missing = [c for c in ("source", "MT", "emotion_labels", "error_severity", "post-edit") if c not in raw.columns]
    if missing:
        raise InputError(f"has no column {missing[0]!r}", file=path, row=1)
    rows = []
    for i, r in raw.iterrows():
        sev = [s.strip() for s in str(r["error_severity"]).split(";") if s.strip() not in ("", "None")]
        unknown = [s for s in sev if s not in qe_data.SEVERITY_WEIGHTS]
        if unknown:
            raise InputError("severities are Minor, Major, Critical or None", file=path, row=i + 2,
                             column="error_severity", value=r["error_severity"])
        if str(r["post-edit"]).strip():
            rows.append({"row": i + 2, "source": r["source"], "mt": r["MT"], "post_edit": r["post-edit"],
                         "emotion": r["emotion_labels"], "errors": len(sev),
                         "penalty": float(sum(qe_data.SEVERITY_WEIGHTS[s] for s in sev))})
    return pd.DataFrame(rows)


def metahope_post_edits(path=None, annotator: str = "A") -> pd.DataFrame:
    """MetaHOPE's EN→ZH pilot: each system's sentence translation, its human gold standard and its penalty.

    Annotator A's workbook (aaronlifenghan/MetaHOPE; Liang and Han 2026) rates, per metaphor
    item, each system's translation of the item's sentence on five categories (0–10 each) and
    gives a human gold-standard translation of the sentence (column ``Human Gold Standard``,
    filled on one row of a sentence). The penalty of a (sentence, system) is the sum of its
    items' severities (:func:`helpers.metahope.workbooks.read_workbook`).

    Returns
    -------
    DataFrame
        ``sentence, system, translation, post_edit, penalty, items`` for the sentences with a
        gold standard; targets are Chinese (score them with ``target="zh"``).
    """
    from ..metahope import release, workbooks

    path = Path(path) if path else release.pilot_v1_files()[annotator]
    tidy = workbooks.read_workbook(path, annotator)
    wide = pd.read_excel(path, dtype=str)
    if "Human Gold Standard" not in wide.columns:
        raise InputError("has no column 'Human Gold Standard'", file=path, row=1)
    gold = (pd.DataFrame({"row": np.arange(len(wide)) + 2, "post_edit": wide["Human Gold Standard"]})
            .dropna(subset=["post_edit"]))
    gold = gold.merge(tidy[["row", "sentence"]].drop_duplicates(), on="row")
    gold = gold.assign(post_edit=gold["post_edit"].str.strip()).drop_duplicates("sentence")[["sentence", "post_edit"]]
    per = (tidy.groupby(["sentence", "system"], sort=False)
           .agg(translation=("translation", "first"), penalty=("severity", "sum"), items=("item", "nunique"))
           .reset_index())
    out = per.merge(gold, on="sentence", how="inner")
    out["penalty"] = out["penalty"].astype(float)
    return out[["sentence", "system", "translation", "post_edit", "penalty", "items"]]
