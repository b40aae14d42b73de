"""HADQAET and its MTL4QE split: loaders, alignment and checks (Qian et al. 2024; 2025).

HADQAET (surrey-nlp/HADQAET) holds Weibo posts machine-translated into English with
emotion-related error annotations (types and severities), post-edits and inter/intra
annotator sheets; MTL4QE (shenbinqian/MTL4QE) holds the train/dev/test split with
segmented sources, tokenised MT, z-scored sentence scores and word tags. Every loader
validates what it reads and raises :class:`~helpers.core.errors.InputError` naming the
file, row, column and value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import paths
from ..core.errors import InputError

HADQAET_REPO = "surrey-nlp/HADQAET"
MTL4QE_REPO = "shenbinqian/MTL4QE"
SEVERITIES = ("Minor", "Major", "Critical")
#: Penalty per error severity (MQM-style weights minor 1, major 5, critical 10); the released
#: ``scores.txt`` are these penalties z-normalised with the sign flipped (see notebook 07).
SEVERITY_WEIGHTS = {"None": 0, "Minor": 1, "Major": 5, "Critical": 10}


def _split_list(value) -> list[str]:
    text = "" if value is None else str(value).strip()
    return [] if text in ("", "None") else [v.strip() for v in text.split(";")]


def load_annotated(path=None, on_mismatch: str = "record") -> pd.DataFrame:
    """HADQAET ``annotated_dataset.xlsx`` Sheet1: ``row, source, mt, emotion, error_types,
    error_severities`` (lists).

    An unknown severity raises :class:`InputError` naming the file, row, column and value.
    A row whose number of error types differs from its number of severities (the released
    sheet has such rows) is kept as it is and flagged in the column ``count_mismatch`` with
    ``on_mismatch="record"``, or raises with ``"raise"``; the severities are what the score
    uses."""
    path = path or paths.released_file(HADQAET_REPO, "data/annotated_dataset.xlsx")
    raw = pd.read_excel(path, sheet_name=0, dtype=str, keep_default_na=False)
    missing = {"source", "MT", "emotion_labels", "error_types", "error_severity"} - set(raw.columns)
    if missing:
        raise InputError(f"missing column(s) {sorted(missing)}", file=path, row=1)
    rows = []
    for i, r in raw.iterrows():
        types, sev = _split_list(r["error_types"]), _split_list(r["error_severity"])
        bad = [s for s in sev if s not in SEVERITIES]
        if bad:
            raise InputError(f"severities are {', '.join(SEVERITIES)} or None", file=path, row=i + 2,
                             column="error_severity", value=r["error_severity"])
        if len(types) != len(sev) and on_mismatch == "raise":
            raise InputError(f"{len(types)} error types but {len(sev)} severities ({r['error_severity']!r})",
                             file=path, row=i + 2, column="error_types", value=r["error_types"])
        rows.append({"row": i + 2, "source": r["source"], "mt": r["MT"], "emotion": r["emotion_labels"],
                     "error_types": types, "error_severities": sev, "count_mismatch": len(types) != len(sev)})
    return pd.DataFrame(rows)


def load_highlights(path=None) -> pd.DataFrame:
    """Sheet2 of ``annotated_dataset.xlsx``: the highlighted error words (source, target),
    non-breaking spaces stripped."""
    path = path or paths.released_file(HADQAET_REPO, "data/annotated_dataset.xlsx")
    raw = pd.read_excel(path, sheet_name=1, dtype=str, keep_default_na=False)
    clean = lambda s: " ".join(str(s).replace("\xa0", " ").split())  # noqa: E731
    return pd.DataFrame({"keywords_source": raw.iloc[:, 0].map(clean), "keywords_target": raw.iloc[:, 1].map(clean)})


def load_post_edits(path=None) -> pd.DataFrame:
    """``post-edits70p.xlsx``: source, mt, emotion, errors and the post-edited reference."""
    path = path or paths.released_file(HADQAET_REPO, "data/post-edits70p.xlsx")
    raw = pd.read_excel(path, dtype=str, keep_default_na=False)
    if "post-edit" not in raw.columns:
        raise InputError("no 'post-edit' column", file=path, row=1, value=list(raw.columns))
    return pd.DataFrame({"source": raw["source"], "mt": raw["MT"], "post_edit": raw["post-edit"]})


def load_split(split: str, root=None) -> pd.DataFrame:
    """One MTL4QE split of HADQAET: tokenised source and MT, z-scored sentence score,
    word-level OK/BAD tags and emotion label; line counts and tag counts are checked."""
    def read(name):
        path = Path(root) / split / name if root else paths.released_file(MTL4QE_REPO, f"data/HADQAET/{split}/{name}")
        lines = path.read_text(encoding="utf-8").split("\n")
        return path, lines[:-1] if lines and lines[-1] == "" else lines

    files = {k: read(n) for k, n in [("source", "source.txt"), ("mt", "mt.txt"), ("score", "scores.txt"),
                                      ("source_tags", "source_tags.txt"), ("mt_tags", "mt_tags.txt"),
                                      ("emotion", f"{split}.emotion_labels")]}
    n = {k: len(v[1]) for k, v in files.items()}
    if len(set(n.values())) != 1:
        raise InputError(f"the files of split {split!r} have different line counts {n}",
                         file=files["source"][0].parent)
    frame = pd.DataFrame({k: v[1] for k, v in files.items()})
    for i, r in frame.iterrows():
        if len(r["source"].split()) != len(r["source_tags"].split()):
            raise InputError(f"{len(r['source_tags'].split())} tags for {len(r['source'].split())} source tokens",
                             file=files["source_tags"][0], row=i + 1)
    frame["score"] = frame["score"].astype(float)
    frame["emotion"] = frame["emotion"].astype(int)
    frame.insert(0, "split", split)
    frame.insert(1, "line", range(1, len(frame) + 1))
    return frame


def source_key(text: str) -> str:
    """Source text without any whitespace: the MTL4QE splits are word-segmented, the sheet is not."""
    return re.sub(r"\s+", "", str(text))


def align(splits: pd.DataFrame, annotated: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """Attach each split line to the annotated row with the same source (whitespace removed).

    Returns the merged frame and a report: lines aligned, annotated rows never aligned, and
    sources that occur in more than one split (possible train/test overlap).
    """
    s = splits.assign(key=splits["source"].map(source_key))
    a = annotated.assign(key=annotated["source"].map(source_key))
    first = a.drop_duplicates("key")
    merged = s.merge(first.drop(columns=["source", "mt"]), on="key", how="left", indicator=True)
    in_splits = s.groupby("key")["split"].nunique()
    report = {
        "split_lines": len(s), "aligned": int((merged["_merge"] == "both").sum()),
        "annotated_rows": len(a), "annotated_duplicate_sources": int(a["key"].duplicated().sum()),
        "annotated_not_in_splits": int((~a["key"].isin(s["key"])).sum()),
        "sources_in_several_splits": int((in_splits > 1).sum()),
    }
    return merged.drop(columns="_merge"), report


def severity_penalty(severities: list[str], weights: Mapping[str, float] = SEVERITY_WEIGHTS) -> float:
    """Sum of the error penalties of one instance (no error = 0)."""
    return float(sum(weights[s] for s in severities))


def slang_counts(annotated: pd.DataFrame, highlights: pd.DataFrame, words: list[str]) -> pd.DataFrame:
    """How many instances contain each slang word under different selection rules: in the
    post; in the post of an instance with at least one error; among the jieba tokens of the
    post (with and without an error); in the highlighted source words of Sheet2."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokens = annotated["source"].map(lambda s: set(jieba.lcut(str(s))))
    has_error = annotated["error_severities"].map(len) > 0
    rows = []
    for w in words:
        in_post = annotated["source"].str.contains(w, regex=False)
        in_tokens = tokens.map(lambda t, w=w: w in t)
        rows.append({"word": w, "in_post": int(in_post.sum()), "in_post_with_error": int((in_post & has_error).sum()),
                     "jieba_token": int(in_tokens.sum()), "jieba_token_with_error": int((in_tokens & has_error).sum()),
                     "highlighted": int(highlights["keywords_source"].str.contains(w, regex=False).sum())})
    return pd.DataFrame(rows)


def score_check(merged: pd.DataFrame) -> tuple[dict, pd.DataFrame]:
    """How the released z-scored ``score`` follows from the error severities.

    Fits score = a + b · penalty by least squares over the aligned lines, and reads the
    penalty implied by each score, ``(max score − score) / step`` with ``step`` the gap
    between the two highest score values (one minor error). Returns a summary (slope,
    intercept, implied mean and SD of the penalties, share of lines whose implied penalty
    equals the sheet's) and the most frequent mismatching severity patterns.
    """
    pen = merged["error_severities"].map(severity_penalty)
    values = np.sort(merged["score"].unique())
    step = values[-1] - values[-2]
    implied = ((values[-1] - merged["score"]) / step).round(3)
    slope, intercept = np.polyfit(pen, merged["score"], 1)
    summary = {"lines": len(merged), "step_per_penalty_point": float(step), "implied_sd": float(1 / step),
               "implied_mean": float(values[-1] / step), "slope": float(slope), "intercept": float(intercept),
               "identical_penalty_share": float((implied == pen).mean() * 100),
               "sheet_penalty_mean": float(pen.mean()), "sheet_penalty_sd": float(pen.std(ddof=0))}
    mism = pd.DataFrame({"severities": merged["error_severities"].map("; ".join), "sheet_penalty": pen,
                         "implied_penalty": implied})[implied != pen]
    patterns = (mism.groupby(["severities", "sheet_penalty", "implied_penalty"]).size().rename("lines")
                .sort_values(ascending=False).reset_index())
    return summary, patterns


def load_iaa(kind: str = "inter", path=None) -> pd.DataFrame:
    """HADQAET agreement sheets: ``inter`` (two annotators) or ``intra`` (one annotator twice).

    Returns ``source, mt, emotion, severities_1, severities_2, penalty_1, penalty_2``; an
    unknown severity raises :class:`InputError` naming the file, row, column and value."""
    if kind not in ("inter", "intra"):
        raise InputError("unknown agreement sheet", parameter="kind", value=kind, expected="'inter' or 'intra'")
    path = path or paths.released_file(HADQAET_REPO, f"IAA/{kind}-AA.xlsx")
    raw = pd.read_excel(path, sheet_name=0, dtype=str, keep_default_na=False)
    rows = []
    for i, r in raw.iterrows():
        sev = {}
        for col in ("error_severity", "error_severity_re"):
            sev[col] = _split_list(r[col])
            bad = [s for s in sev[col] if s not in SEVERITIES]
            if bad:
                raise InputError(f"severities are {', '.join(SEVERITIES)} or None", file=path, row=i + 2,
                                 column=col, value=r[col])
        rows.append({"source": r["source"], "mt": r["MT"], "emotion": r["emotion_labels"],
                     "severities_1": sev["error_severity"], "severities_2": sev["error_severity_re"],
                     "penalty_1": severity_penalty(sev["error_severity"]),
                     "penalty_2": severity_penalty(sev["error_severity_re"])})
    return pd.DataFrame(rows)


def annotation_agreement() -> pd.DataFrame:
    """Agreement of the HADQAET annotators on the error penalty of an instance: ``inter``
    (two annotators) and ``intra`` (one annotator twice), with the book's agreement
    statistics (:func:`helpers.core.agreement.agreement`) and ``n`` instances."""
    from ..core.agreement import agreement

    rows = []
    for kind in ("inter", "intra"):
        sheet = load_iaa(kind)
        long = pd.concat([pd.DataFrame({"item": range(len(sheet)), "annotator": a, "penalty": sheet[f"penalty_{a}"],
                                        "kind": kind}) for a in (1, 2)])
        table = agreement(long, by="kind", value="penalty")
        rows.append(table[["kind", "alpha", "weighted_kappa", "pearson_r", "exact_agreement",
                           "presence_agreement"]].assign(n=len(sheet)))
    return pd.concat(rows, ignore_index=True)


def model_splits(splits: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """train, dev, test and the clean test (test posts whose source is not in train), each with
    the source unsegmented and the MT detokenised, as the QE models read them."""
    from .qe_models import detokenize

    data = splits.assign(source=splits["source"].map(source_key), mt=splits["mt"].map(detokenize))
    train, dev, test = (data[data["split"] == s] for s in ("train", "dev", "test"))
    return train, dev, test, test[~test["source"].isin(train["source"])]
