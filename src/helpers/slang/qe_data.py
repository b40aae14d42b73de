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
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import cache, paths
from ..core.errors import InputError

HADQAET_REPO = "surrey-nlp/HADQAET"
MTL4QE_REPO = "shenbinqian/MTL4QE"
SEVERITIES = ("Minor", "Major", "Critical")
#: Penalty per error severity (MQM-style weights minor 1, major 5, critical 10). The released
#: ``scores.txt`` are *not* the z-scored sum of these penalties but (number of errors) × (weight
#: of the first listed severity), z-scored over the sheet rows with the sign flipped: see
#: :func:`released_penalty` and :func:`score_check`.
SEVERITY_WEIGHTS = {"None": 0, "Minor": 1, "Major": 5, "Critical": 10}


SHEETS_VERSION = 1


def read_sheet(path, sheet: int = 0) -> pd.DataFrame:
    """Sheet ``sheet`` (by position) of the workbook at ``path``, every cell as text, blanks as "".

    openpyxl parses a workbook's whole shared-string table whatever sheet is asked for, and the
    released HADQAET sheets keep their rich text: 4-6 s per read. All sheets are therefore read
    at once and cached (``xlsx-sheets``), keyed by the file's bytes, so the two sheets of
    ``annotated_dataset.xlsx`` cost one parse and a re-run none."""
    path = Path(path)
    sheets = cache.cached(
        "xlsx-sheets",
        SHEETS_VERSION,
        [path.read_bytes()],
        lambda: list(pd.read_excel(path, sheet_name=None, dtype=str, keep_default_na=False).values()),
        describe=path.name,
    )
    if sheet >= len(sheets):
        raise InputError(f"the workbook has {len(sheets)} sheet(s); sheet {sheet + 1} is read here", file=path)
    return sheets[sheet].copy()


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
    raw = read_sheet(path, 0)
    missing = {"source", "MT", "emotion_labels", "error_types", "error_severity"} - set(raw.columns)
    if missing:
        raise InputError(f"missing column(s) {sorted(missing)}", file=path, row=1)
    rows = []
    for i, r in raw.iterrows():
        types, sev = _split_list(r["error_types"]), _split_list(r["error_severity"])
        bad = [s for s in sev if s not in SEVERITIES]
        if bad:
            raise InputError(
                f"severities are {', '.join(SEVERITIES)} or None",
                file=path,
                row=i + 2,
                column="error_severity",
                value=r["error_severity"],
            )
        if len(types) != len(sev) and on_mismatch == "raise":
            raise InputError(
                f"{len(types)} error types but {len(sev)} severities ({r['error_severity']!r})",
                file=path,
                row=i + 2,
                column="error_types",
                value=r["error_types"],
            )
        rows.append(
            {
                "row": i + 2,
                "source": r["source"],
                "mt": r["MT"],
                "emotion": r["emotion_labels"],
                "error_types": types,
                "error_severities": sev,
                "count_mismatch": len(types) != len(sev),
            }
        )
    return pd.DataFrame(rows)


def load_highlights(path=None) -> pd.DataFrame:
    """Sheet2 of ``annotated_dataset.xlsx``: the highlighted error words (source, target),
    non-breaking spaces stripped."""
    path = path or paths.released_file(HADQAET_REPO, "data/annotated_dataset.xlsx")
    raw = read_sheet(path, 1)
    clean = lambda s: " ".join(str(s).replace("\xa0", " ").split())  # noqa: E731
    return pd.DataFrame({"keywords_source": raw.iloc[:, 0].map(clean), "keywords_target": raw.iloc[:, 1].map(clean)})


def load_post_edits(path=None) -> pd.DataFrame:
    """``post-edits70p.xlsx``: source, mt, emotion, errors and the post-edited reference."""
    path = path or paths.released_file(HADQAET_REPO, "data/post-edits70p.xlsx")
    raw = read_sheet(path, 0)
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

    files = {
        k: read(n)
        for k, n in [
            ("source", "source.txt"),
            ("mt", "mt.txt"),
            ("score", "scores.txt"),
            ("source_tags", "source_tags.txt"),
            ("mt_tags", "mt_tags.txt"),
            ("emotion", f"{split}.emotion_labels"),
        ]
    }
    n = {k: len(v[1]) for k, v in files.items()}
    if len(set(n.values())) != 1:
        raise InputError(f"the files of split {split!r} have different line counts {n}", file=files["source"][0].parent)
    frame = pd.DataFrame({k: v[1] for k, v in files.items()})
    for i, r in frame.iterrows():
        if len(r["source"].split()) != len(r["source_tags"].split()):
            raise InputError(
                f"{len(r['source_tags'].split())} tags for {len(r['source'].split())} source tokens",
                file=files["source_tags"][0],
                row=i + 1,
            )
    frame["score"] = frame["score"].astype(float)
    frame["emotion"] = frame["emotion"].astype(int)
    frame.insert(0, "split", split)
    frame.insert(1, "line", range(1, len(frame) + 1))
    return frame


def source_key(text: str) -> str:
    """Source text without any whitespace: the MTL4QE splits are word-segmented, the sheet is not."""
    return re.sub(r"\s+", "", str(text))


@dataclass(frozen=True)
class Alignment:
    """What :func:`align` found: split lines and how many were aligned, annotated rows (with
    repeated sources, and never aligned), and sources in more than one split."""

    split_lines: int
    aligned: int
    annotated_rows: int
    annotated_duplicate_sources: int
    annotated_not_in_splits: int
    sources_in_several_splits: int

    def frame(self) -> pd.DataFrame:
        """``what, count``: one row per count."""
        names = [f.name for f in fields(self)]
        return pd.DataFrame({"what": names, "count": [getattr(self, n) for n in names]})


def align(splits: pd.DataFrame, annotated: pd.DataFrame) -> tuple[pd.DataFrame, Alignment]:
    """Attach each split line to the annotated row with the same source (whitespace removed).

    Returns the merged frame and an :class:`Alignment`: lines aligned, annotated rows never
    aligned, and sources that occur in more than one split (possible train/test overlap).
    """
    s = splits.assign(key=splits["source"].map(source_key))
    a = annotated.assign(key=annotated["source"].map(source_key))
    first = a.drop_duplicates("key")
    merged = s.merge(first.drop(columns=["source", "mt"]), on="key", how="left", indicator=True)
    in_splits = s.groupby("key")["split"].nunique()
    report = Alignment(
        split_lines=len(s),
        aligned=int((merged["_merge"] == "both").sum()),
        annotated_rows=len(a),
        annotated_duplicate_sources=int(a["key"].duplicated().sum()),
        annotated_not_in_splits=int((~a["key"].isin(s["key"])).sum()),
        sources_in_several_splits=int((in_splits > 1).sum()),
    )
    return merged.drop(columns="_merge"), report


def severity_penalty(severities: list[str], weights: Mapping[str, float] = SEVERITY_WEIGHTS) -> float:
    """Sum of the error penalties of one instance (no error = 0): the usual MQM-style penalty
    (Freitag et al. 2021) with HADQAET's weights minor 1, major 5, critical 10.

    Examples
    --------
    >>> severity_penalty(["Major", "Critical"]), severity_penalty(["Critical", "Minor"]), severity_penalty([])
    (15.0, 11.0, 0.0)
    """
    return float(sum(weights[s] for s in severities))


def released_penalty(severities: list[str], weights: Mapping[str, float] = SEVERITY_WEIGHTS) -> float:
    """The penalty the released MTL4QE ``scores.txt`` were built from: (number of errors) ×
    (weight of the *first* listed severity). It equals :func:`severity_penalty` when every
    error of an instance has the same severity and mis-weights the mixed ones.

    Examples
    --------
    >>> released_penalty(["Major", "Critical"])  # 2 errors × 5; the sum is 15
    10.0
    >>> released_penalty(["Critical", "Minor"])  # 2 errors × 10; the sum is 11
    20.0
    >>> released_penalty(["Major", "Major"]), released_penalty([])
    (10.0, 0.0)
    """
    return float(len(severities) * weights[severities[0]]) if severities else 0.0


#: The two ways of turning an instance's severities into a penalty.
PENALTY_RULES = {"released": released_penalty, "sum": severity_penalty}


def mixed_severities(severities: list[str]) -> bool:
    """True when an instance lists errors of different severities: the only instances on which
    :func:`released_penalty` and :func:`severity_penalty` differ.

    Examples
    --------
    >>> mixed_severities(["Major", "Critical"]), mixed_severities(["Minor", "Minor"]), mixed_severities([])
    (True, False, False)
    """
    return len(set(severities)) > 1


def penalty_scores(severities: pd.Series, reference: pd.Series, rule: str = "released") -> pd.Series:
    """Sentence scores as MTL4QE made them: the penalty of each instance under ``rule``
    (``"released"`` or ``"sum"``, :data:`PENALTY_RULES`), minus the mean penalty of the
    ``reference`` instances (all sheet rows), divided by their population SD, sign flipped
    (higher = better). ``severities`` and ``reference`` hold lists of severities.

    Examples
    --------
    >>> ref = pd.Series([[], ["Minor"], ["Major", "Critical"]])  # released penalties 0, 1, 10
    >>> penalty_scores(ref, ref).round(4).tolist()  # mean 11/3, population SD 4.4969
    [0.8154, 0.593, -1.4084]
    """
    f = PENALTY_RULES[rule]
    ref = reference.map(f)
    return (ref.mean() - severities.map(f)) / ref.std(ddof=0)


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
        rows.append(
            {
                "word": w,
                "in_post": int(in_post.sum()),
                "in_post_with_error": int((in_post & has_error).sum()),
                "jieba_token": int(in_tokens.sum()),
                "jieba_token_with_error": int((in_tokens & has_error).sum()),
                "highlighted": int(highlights["keywords_source"].str.contains(w, regex=False).sum()),
            }
        )
    return pd.DataFrame(rows)


def score_check(merged: pd.DataFrame, annotated: pd.DataFrame | None = None) -> tuple[dict, pd.DataFrame]:
    """How the released z-scored ``score`` follows from the error severities.

    Fits score = a + b · penalty (sum of penalties) by least squares over the aligned lines,
    and reads the penalty implied by each score, ``(max score − score) / step`` with ``step``
    the gap between the two highest score values (one minor error). Returns a summary (slope,
    intercept, implied mean and SD of the penalties, share of lines whose implied penalty
    equals the sheet's sum) and the most frequent mismatching severity patterns, each with the
    penalty :func:`released_penalty` gives it.

    With ``annotated`` (all sheet rows) the summary goes on with the rule that built the
    scores: ``sheet_rows``; ``released_rule_mean`` and ``released_rule_sd`` (the mean and
    population SD of :func:`released_penalty` over the sheet rows, which equal the implied
    ones); ``released_rule_share`` (% of lines whose score is exactly
    :func:`penalty_scores` with that rule); ``released_rule_share_any_row`` (also counting a
    line whose source occurs twice in the sheet and whose score follows from the other row);
    ``identical_penalty_share_released`` (as ``identical_penalty_share`` for the released
    rule); ``sum_rule_share`` (% of lines whose score is the z-scored sum, with the sum's own
    mean and SD); ``sum_rule_mean``, ``sum_rule_sd``; ``mixed_severity_lines`` and
    ``mixed_severity_sheet_rows`` (instances whose errors have different severities: the
    only ones the two rules score differently).
    """
    pen = merged["error_severities"].map(severity_penalty)
    values = np.sort(merged["score"].unique())
    step = values[-1] - values[-2]
    implied = ((values[-1] - merged["score"]) / step).round(3)
    slope, intercept = np.polyfit(pen, merged["score"], 1)
    summary = {
        "lines": len(merged),
        "step_per_penalty_point": float(step),
        "implied_sd": float(1 / step),
        "implied_mean": float(values[-1] / step),
        "slope": float(slope),
        "intercept": float(intercept),
        "identical_penalty_share": float((implied == pen).mean() * 100),
        "sheet_penalty_mean": float(pen.mean()),
        "sheet_penalty_sd": float(pen.std(ddof=0)),
    }
    released = merged["error_severities"].map(released_penalty)
    mism = pd.DataFrame(
        {
            "severities": merged["error_severities"].map("; ".join),
            "sheet_penalty": pen,
            "implied_penalty": implied,
            "released_rule_penalty": released,
        }
    )[implied != pen]
    patterns = (
        mism.groupby(["severities", "sheet_penalty", "implied_penalty", "released_rule_penalty"])
        .size()
        .rename("lines")
        .sort_values(ascending=False)
        .reset_index()
    )
    if annotated is not None:
        sheet = annotated["error_severities"]
        rel, total = sheet.map(released_penalty), sheet.map(severity_penalty)
        follows = np.isclose(penalty_scores(merged["error_severities"], sheet, "released"), merged["score"], atol=1e-6)
        any_row = follows | _follows_other_row(merged, annotated)
        summary.update(
            {
                "sheet_rows": len(annotated),
                "released_rule_mean": float(rel.mean()),
                "released_rule_sd": float(rel.std(ddof=0)),
                "released_rule_share": float(follows.mean() * 100),
                "released_rule_share_any_row": float(any_row.mean() * 100),
                "identical_penalty_share_released": float((implied == released).mean() * 100),
                "sum_rule_share": float(
                    np.isclose(
                        penalty_scores(merged["error_severities"], sheet, "sum"), merged["score"], atol=1e-6
                    ).mean()
                    * 100
                ),
                "sum_rule_mean": float(total.mean()),
                "sum_rule_sd": float(total.std(ddof=0)),
                "mixed_severity_lines": int(merged["error_severities"].map(mixed_severities).sum()),
                "mixed_severity_sheet_rows": int(sheet.map(mixed_severities).sum()),
            }
        )
    return summary, patterns


def _sheet_rows_by_source(annotated: pd.DataFrame) -> dict[str, list[list[str]]]:
    rows: dict[str, list[list[str]]] = {}
    for key, sev in zip(annotated["source"].map(source_key), annotated["error_severities"]):
        rows.setdefault(key, []).append(sev)
    return rows


def _follows_other_row(merged: pd.DataFrame, annotated: pd.DataFrame) -> np.ndarray:
    """Per line: does the released rule, applied to *some* sheet row with the same source, give its score?"""
    sheet = annotated["error_severities"]
    rel = sheet.map(released_penalty)
    mean, sd = rel.mean(), rel.std(ddof=0)
    rows = _sheet_rows_by_source(annotated)
    key = merged["source"].map(source_key)
    return np.array(
        [
            any(abs((mean - released_penalty(sev)) / sd - score) < 1e-6 for sev in rows.get(k, []))
            for k, score in zip(key, merged["score"])
        ]
    )


def with_targets(merged: pd.DataFrame, annotated: pd.DataFrame) -> pd.DataFrame:
    """``merged`` with the severities of the sheet row each score was built from, and two targets.

    A source that occurs twice in the sheet with different annotations is aligned to its first
    row by :func:`align`; here each line takes the row whose severities give its released score
    under :func:`released_penalty` (the first row when none does). Added columns:
    ``score_released_rule`` (the released rule, z-scored over the sheet rows: equal to
    ``score`` wherever a row reproduces it) and ``score_sum`` (the sum of penalties, z-scored
    the same way over the sheet rows: the usual MQM-style target).
    """
    sheet = annotated["error_severities"]
    rel = sheet.map(released_penalty)
    mean, sd = rel.mean(), rel.std(ddof=0)
    rows = _sheet_rows_by_source(annotated)
    chosen = []
    for k, sev, score in zip(merged["source"].map(source_key), merged["error_severities"], merged["score"]):
        match = [s for s in rows.get(k, []) if abs((mean - released_penalty(s)) / sd - score) < 1e-6]
        chosen.append(match[0] if match else sev)
    out = merged.assign(error_severities=chosen)
    return out.assign(
        score_released_rule=penalty_scores(out["error_severities"], sheet, "released"),
        score_sum=penalty_scores(out["error_severities"], sheet, "sum"),
    )


def load_iaa(kind: str = "inter", path=None) -> pd.DataFrame:
    """HADQAET agreement sheets: ``inter`` (two annotators) or ``intra`` (one annotator twice).

    Returns ``source, mt, emotion, severities_1, severities_2, penalty_1, penalty_2``; an
    unknown severity raises :class:`InputError` naming the file, row, column and value."""
    if kind not in ("inter", "intra"):
        raise InputError("unknown agreement sheet", parameter="kind", value=kind, expected="'inter' or 'intra'")
    path = path or paths.released_file(HADQAET_REPO, f"IAA/{kind}-AA.xlsx")
    raw = read_sheet(path, 0)
    rows = []
    for i, r in raw.iterrows():
        sev = {}
        for col in ("error_severity", "error_severity_re"):
            sev[col] = _split_list(r[col])
            bad = [s for s in sev[col] if s not in SEVERITIES]
            if bad:
                raise InputError(
                    f"severities are {', '.join(SEVERITIES)} or None", file=path, row=i + 2, column=col, value=r[col]
                )
        rows.append(
            {
                "source": r["source"],
                "mt": r["MT"],
                "emotion": r["emotion_labels"],
                "severities_1": sev["error_severity"],
                "severities_2": sev["error_severity_re"],
                "penalty_1": severity_penalty(sev["error_severity"]),
                "penalty_2": severity_penalty(sev["error_severity_re"]),
            }
        )
    return pd.DataFrame(rows)


def annotation_agreement() -> pd.DataFrame:
    """Agreement of the HADQAET annotators on the error penalty of an instance: ``inter``
    (two annotators) and ``intra`` (one annotator twice), with the book's agreement
    statistics (:func:`helpers.core.statistics.agreement.agreement`) and ``n`` instances."""
    from ..core.statistics.agreement import agreement

    rows = []
    for kind in ("inter", "intra"):
        sheet = load_iaa(kind)
        long = pd.concat(
            [
                pd.DataFrame(
                    {"item": range(len(sheet)), "annotator": a, "penalty": sheet[f"penalty_{a}"], "kind": kind}
                )
                for a in (1, 2)
            ]
        )
        table = agreement(long, by="kind", value="penalty")
        rows.append(
            table[["kind", "alpha", "weighted_kappa", "pearson_r", "exact_agreement", "presence_agreement"]].assign(
                n=len(sheet)
            )
        )
    return pd.concat(rows, ignore_index=True)


def model_splits(
    splits: pd.DataFrame, target: str = "score"
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """train, dev, test and the clean test (test posts whose source is not in train), each with
    the source unsegmented and the MT detokenised, as the QE models read them. ``target``
    names the column that becomes ``score`` (e.g. ``"score_sum"`` of :func:`with_targets`)."""
    from .qe_models import detokenize

    data = splits.assign(source=splits["source"].map(source_key), mt=splits["mt"].map(detokenize))
    if target != "score":
        data = data.assign(score=data[target])
    train, dev, test = (data[data["split"] == s] for s in ("train", "dev", "test"))
    return train, dev, test, test[~test["source"].isin(train["source"])]


def grouped_resplit(lines: pd.DataFrame, seed: int = 0, proportions: Mapping[str, float] | None = None) -> pd.DataFrame:
    """A leakage-free re-split: whole sources are assigned to train, dev or test, so that no
    source text is in two splits.

    ``lines`` has ``split, source, mt, score`` (sources unsegmented, as
    :func:`model_splits` gives them). Lines repeated with the same source, MT and score (the
    released split holds such copies, many across train and test) are kept once. The sources
    are shuffled with ``seed`` and cut into consecutive runs whose line counts follow
    ``proportions`` (default: the line shares of the released ``split`` column, 3,978 / 442 /
    1,107 for MTL4QE). Returns the kept lines with the new ``split`` and the old one as
    ``released_split``.

    Examples
    --------
    >>> lines = pd.DataFrame({"split": ["train"] * 6 + ["test"] * 2, "source": list("aabcdeaf"),
    ...                       "mt": list("xxyzuvxw"), "score": [1, 1, 2, 3, 4, 5, 1, 6]})
    >>> out = grouped_resplit(lines, seed=1)
    >>> len(out), int(out.groupby("source")["split"].nunique().max())  # the copies of "a" kept once
    (6, 1)
    """
    kept = lines.drop_duplicates(["source", "mt", "score"]).copy()
    if proportions is None:
        shares = lines["split"].value_counts(normalize=True)
        proportions = {s: float(shares.get(s, 0.0)) for s in ("train", "dev", "test")}
    names = [s for s, p in proportions.items() if p > 0]
    cuts = np.cumsum([proportions[s] for s in names]) / sum(proportions[s] for s in names) * len(kept)
    sizes = kept.groupby("source", sort=False).size()
    order = sizes.index[np.random.default_rng(seed).permutation(len(sizes))]
    ends = sizes.loc[order].cumsum()
    middle = ends - sizes.loc[order] / 2
    position = np.minimum(np.searchsorted(cuts, middle.to_numpy()), len(names) - 1)
    assigned = dict(zip(order, (names[k] for k in position)))
    kept["released_split"] = kept["split"]
    kept["split"] = kept["source"].map(assigned)
    return kept.reset_index(drop=True)


def split_sizes(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """``split, lines, sources, sources_also_in_train`` of ``{name: frame}`` given in order, the
    first being train: how many posts of each frame the models could have seen in training."""
    names = list(frames)
    train = set(frames[names[0]]["source"])
    return pd.DataFrame(
        [
            {
                "split": n,
                "lines": len(f),
                "sources": f["source"].nunique(),
                "sources_also_in_train": 0 if k == 0 else int(f["source"].drop_duplicates().isin(train).sum()),
            }
            for k, (n, f) in enumerate(frames.items())
        ]
    )


def hadqaet_post_edits(path=None) -> pd.DataFrame:
    """HADQAET's post-edited Weibo translations with their emotion-error annotations (Qian et al. 2023; 2024).

    ``post-edits70p.xlsx`` (surrey-nlp/HADQAET) holds 4,038 Google Translate outputs of
    emotion-loaded Weibo posts, each annotated for errors in carrying the emotion over (type
    and severity, ``;``-separated) and, for 2,952 of them, a professional post-edit. The
    penalty weighs each error by its severity as the QE chapter does
    (:data:`helpers.slang.SEVERITY_WEIGHTS`: Minor 1, Major 5, Critical 10).

    Returns
    -------
    DataFrame
        ``row, source, mt, post_edit, emotion, errors, penalty`` for the rows with a post-edit;
        ``row`` the sheet's row, ``errors`` the number of annotated emotion errors.
    """
    path = Path(path) if path else paths.released_file(HADQAET_REPO, "data/post-edits70p.xlsx")
    raw = read_sheet(path, 0)
    missing = [c for c in ("source", "MT", "emotion_labels", "error_severity", "post-edit") if c not in raw.columns]
    if missing:
        raise InputError(f"has no column {missing[0]!r}", file=path, row=1)
    rows = []
    for i, r in raw.iterrows():
        sev = [s.strip() for s in str(r["error_severity"]).split(";") if s.strip() not in ("", "None")]
        unknown = [s for s in sev if s not in SEVERITY_WEIGHTS]
        if unknown:
            raise InputError(
                "severities are Minor, Major, Critical or None",
                file=path,
                row=i + 2,
                column="error_severity",
                value=r["error_severity"],
            )
        if str(r["post-edit"]).strip():
            rows.append(
                {
                    "row": i + 2,
                    "source": r["source"],
                    "mt": r["MT"],
                    "post_edit": r["post-edit"],
                    "emotion": r["emotion_labels"],
                    "errors": len(sev),
                    "penalty": float(sum(SEVERITY_WEIGHTS[s] for s in sev)),
                }
            )
    return pd.DataFrame(rows)
