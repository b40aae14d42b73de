"""Robustness of MT quality estimation (QE) to homophone perturbations (Qian et al., W-NUT 2025, §4.4).

This module holds the parts of the QE-robustness study that do not need a trained QE model:
the percentage-change arithmetic of the paper's Tables 5–6, checked against its raw
Tables 9–10, and the perturbation of source texts (Method 1).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from . import paths


def pct_change(value: float, reference: float) -> float:
    """Percentage change of ``value`` relative to ``reference``: (value − reference) / |reference| × 100."""
    if reference == 0:
        return float("nan")
    return (value - reference) / abs(reference) * 100


def check_percent_changes(raw: pd.DataFrame | None = None, printed: pd.DataFrame | None = None,
                          decimals: int = 2, raw_decimals: int = 4) -> pd.DataFrame:
    """Recompute Tables 5–6 (percent change vs G0) from Tables 9–10 and compare with print.

    Returns ``model, group, metric, raw, g0, pct_change_computed, pct_change_printed, diff,
    low, high, follows``. The raw correlations are printed to ``raw_decimals`` places, so the
    true percentage lies in [low, high], the range obtained with each raw value moved by half
    a unit of its last digit; ``follows`` is False when the printed percentage (± half a
    unit of its own last digit) falls outside that range: it cannot come from Tables 9–10.
    """
    folder = paths.published_dir() / "qe_robustness"
    raw = raw if raw is not None else pd.read_csv(folder / "tables9_10_raw_correlations.csv")
    printed = printed if printed is not None else pd.read_csv(folder / "tables5_6_printed_pct_change.csv")
    g0 = raw[raw["group"] == "G0"].set_index(["model", "metric"])["value"]
    rows = []
    for _, p in printed.iterrows():
        value = raw[(raw["model"] == p["model"]) & (raw["group"] == p["group"]) & (raw["metric"] == p["metric"])]
        if len(value) != 1:
            raise ValueError(f"no raw value for {p['model']} {p['group']} {p['metric']}")
        v, ref = float(value["value"].iloc[0]), float(g0[(p["model"], p["metric"])])
        computed = pct_change(v, ref)
        h = 0.5 * 10**-raw_decimals
        corners = [pct_change(v + dv, ref + dr) for dv in (-h, h) for dr in (-h, h)]
        low, high = min(corners), max(corners)
        shown = float(p["pct_change_printed"])
        tol = 0.5 * 10**-decimals + 1e-9
        rows.append({"model": p["model"], "group": p["group"], "metric": p["metric"], "raw": v, "g0": ref,
                     "pct_change_computed": computed, "pct_change_printed": shown, "diff": shown - computed,
                     "low": low, "high": high, "follows": bool(low - tol <= shown <= high + tol)})
    return pd.DataFrame(rows)


def replace_spans(text: str, replacements: Mapping[str, str]) -> tuple[str, list[tuple[int, int, str, str]]]:
    """Replace every occurrence of each key in ``text`` (longest keys first, left to right,
    no overlaps, no rewriting of inserted text).

    Returns the new text and the list of edits ``(start, end, old, new)`` with offsets in
    the *original* text, so word-level tags can be realigned.
    """
    keys = sorted(replacements, key=len, reverse=True)
    edits, out, i = [], [], 0
    while i < len(text):
        match = next((k for k in keys if k and text.startswith(k, i)), None)
        if match is None:
            out.append(text[i])
            i += 1
            continue
        edits.append((i, i + len(match), match, replacements[match]))
        out.append(replacements[match])
        i += len(match)
    return "".join(out), edits


def perturb_sources(sources: pd.Series, homophones: Mapping[str, list[str]], k: int) -> pd.DataFrame:
    """Method 1 group M1G<k>: every slang word replaced by its k-th homophone (1-based).

    Returns ``source, perturbed, n_replacements`` aligned with ``sources``.
    """
    mapping = {w: h[k - 1] for w, h in homophones.items() if len(h) >= k}
    done = [replace_spans(s, mapping) for s in sources]
    return pd.DataFrame({"source": sources.to_numpy(), "perturbed": [d[0] for d in done],
                         "n_replacements": [len(d[1]) for d in done]}, index=sources.index)


def perturbation_groups(posts: pd.DataFrame, homophones: Mapping[str, list[str]], post_edits: pd.DataFrame,
                        corrected: pd.DataFrame | None = None, k_max: int = 5) -> dict[str, pd.DataFrame]:
    """The paper's groups for ``posts`` (``instance, source, mt, score``; sources unsegmented):

    * ``G0``: the posts as they are;
    * ``M1G1``…``M1G<k_max>``: every slang word replaced by its k-th homophone (:func:`perturb_sources`);
    * ``M2G2``: the MT replaced by the post-edited reference (``post_edits``: source, post_edit),
      for the posts that have a non-empty one;
    * ``M2G1``: the MT replaced by a slang-only correction, when ``corrected`` (source, mt) is given.
    """
    groups = {"G0": posts}
    for k in range(1, k_max + 1):
        groups[f"M1G{k}"] = posts.assign(source=perturb_sources(posts["source"], homophones, k)["perturbed"])
    edits = post_edits.assign(source=post_edits["source"].map(source_key)).drop_duplicates("source")
    with_edit = posts.merge(edits[["source", "post_edit"]], on="source", how="inner")
    with_edit = with_edit[with_edit["post_edit"].str.strip() != ""]
    groups["M2G2"] = with_edit.assign(mt=with_edit["post_edit"]).drop(columns="post_edit")
    if corrected is not None:
        fixed = corrected.assign(source=corrected["source"].map(source_key))[["source", "mt"]]
        groups["M2G1"] = posts.drop(columns="mt").merge(fixed, on="source", how="inner")
    return groups


def share_increased(before: np.ndarray, after: np.ndarray) -> float:
    """Percent of instances whose predicted score rose (paper Table 7)."""
    before, after = np.asarray(before, float), np.asarray(after, float)
    return float(np.mean(after > before) * 100)


# --------------------------------------------------------------------------- HADQAET data

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

    An unknown severity raises ValueError naming the file, row, column and value. A row
    whose number of error types differs from its number of severities (the released sheet
    has such rows) is kept as it is and listed in ``attrs["problems"]`` with ``on_mismatch
    ="record"``, or raises with ``"raise"``; the severities are what the score uses."""
    path = path or paths.released_file(HADQAET_REPO, "data/annotated_dataset.xlsx")
    raw = pd.read_excel(path, sheet_name=0, dtype=str, keep_default_na=False)
    missing = {"source", "MT", "emotion_labels", "error_types", "error_severity"} - set(raw.columns)
    if missing:
        raise ValueError(f"{path}: missing column(s) {sorted(missing)}")
    rows, problems = [], []
    for i, r in raw.iterrows():
        types, sev = _split_list(r["error_types"]), _split_list(r["error_severity"])
        bad = [s for s in sev if s not in SEVERITIES]
        if bad:
            raise ValueError(f"{path}, row {i + 2}, column 'error_severity': value {r['error_severity']!r}: "
                             f"severities are {', '.join(SEVERITIES)} or None")
        if len(types) != len(sev):
            message = (f"{path}, row {i + 2}, column 'error_types': value {r['error_types']!r}: "
                       f"{len(types)} error types but {len(sev)} severities ({r['error_severity']!r})")
            if on_mismatch == "raise":
                raise ValueError(message)
            problems.append(message)
        rows.append({"row": i + 2, "source": r["source"], "mt": r["MT"], "emotion": r["emotion_labels"],
                     "error_types": types, "error_severities": sev})
    out = pd.DataFrame(rows)
    out.attrs["problems"] = problems
    return out


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
        raise ValueError(f"{path}: no 'post-edit' column")
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
        raise ValueError(f"{split}: files have different line counts {n}")
    frame = pd.DataFrame({k: v[1] for k, v in files.items()})
    for i, r in frame.iterrows():
        if len(r["source"].split()) != len(r["source_tags"].split()):
            raise ValueError(f"{files['source_tags'][0]}, line {i + 1}: {len(r['source_tags'].split())} tags for "
                             f"{len(r['source'].split())} source tokens")
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


def robustness_table(predictions: pd.DataFrame, human: pd.Series) -> pd.DataFrame:
    """Per model and group: Spearman ρ and Pearson r of the predictions with the human
    scores of the same instances, and their percentage change relative to G0.

    ``predictions`` has ``instance, group, model, predicted``; ``human`` is indexed by instance.
    """
    from scipy.stats import pearsonr, spearmanr

    rows = []
    for (model, group), g in predictions.groupby(["model", "group"], sort=False):
        h = human.loc[g["instance"]].to_numpy()
        rows.append({"model": model, "group": group, "n": len(g),
                     "rho": float(spearmanr(h, g["predicted"]).statistic),
                     "r": float(pearsonr(h, g["predicted"]).statistic)})
    out = pd.DataFrame(rows)
    g0 = out[out["group"] == "G0"].set_index("model")
    out["rho_pct_change"] = [pct_change(r, g0.loc[m, "rho"]) for m, r in zip(out["model"], out["rho"])]
    out["r_pct_change"] = [pct_change(r, g0.loc[m, "r"]) for m, r in zip(out["model"], out["r"])]
    return out


def score_shifts(predictions: pd.DataFrame) -> pd.DataFrame:
    """Each instance's predicted score in every group minus its G0 prediction (per model)."""
    base = predictions[predictions["group"] == "G0"].set_index(["model", "instance"])["predicted"]
    out = predictions[predictions["group"] != "G0"].copy()
    out["shift"] = out["predicted"].to_numpy() - base.loc[list(zip(out["model"], out["instance"]))].to_numpy()
    return out


def load_iaa(kind: str = "inter", path=None) -> pd.DataFrame:
    """HADQAET agreement sheets: ``inter`` (two annotators) or ``intra`` (one annotator twice).

    Returns ``source, mt, emotion, severities_1, severities_2, penalty_1, penalty_2``; an
    unknown severity raises ValueError naming the file, row, column and value."""
    if kind not in ("inter", "intra"):
        raise ValueError("kind must be 'inter' or 'intra'")
    path = path or paths.released_file(HADQAET_REPO, f"IAA/{kind}-AA.xlsx")
    raw = pd.read_excel(path, sheet_name=0, dtype=str, keep_default_na=False)
    rows = []
    for i, r in raw.iterrows():
        sev = {}
        for col in ("error_severity", "error_severity_re"):
            sev[col] = _split_list(r[col])
            bad = [s for s in sev[col] if s not in SEVERITIES]
            if bad:
                raise ValueError(f"{path}, row {i + 2}, column {col!r}: value {r[col]!r}: severities are "
                                 f"{', '.join(SEVERITIES)} or None")
        rows.append({"source": r["source"], "mt": r["MT"], "emotion": r["emotion_labels"],
                     "severities_1": sev["error_severity"], "severities_2": sev["error_severity_re"],
                     "penalty_1": severity_penalty(sev["error_severity"]),
                     "penalty_2": severity_penalty(sev["error_severity_re"])})
    return pd.DataFrame(rows)


def method2_table(predictions: pd.DataFrame) -> pd.DataFrame:
    """Per model and Method-2 group (M2G1, M2G2): the percent of instances whose predicted
    score rose compared with their G0 prediction (paper Table 7)."""
    base = predictions[predictions["group"] == "G0"].set_index(["model", "instance"])["predicted"]
    rows = []
    for (model, group), g in predictions[predictions["group"].str.startswith("M2")].groupby(["model", "group"],
                                                                                          sort=False):
        before = base.loc[list(zip(g["model"], g["instance"]))].to_numpy()
        rows.append({"model": model, "group": group, "n": len(g),
                     "share_increased": share_increased(before, g["predicted"].to_numpy())})
    return pd.DataFrame(rows, columns=["model", "group", "n", "share_increased"])


def stability_table(robust: pd.DataFrame, shifts: pd.DataFrame, method2: pd.DataFrame) -> pd.DataFrame:
    """Per model: mean |% change| of ρ and r over the Method-1 groups, mean |score shift|
    under Method 1, the G0 correlation (stability means little without accuracy) and the
    Method-2 shares of rising scores."""
    m1 = robust[robust["group"].str.startswith("M1")]
    out = m1.groupby("model", sort=False).agg(mean_abs_rho_change=("rho_pct_change", lambda s: s.abs().mean()),
                                               mean_abs_r_change=("r_pct_change", lambda s: s.abs().mean()))
    out["mean_abs_shift"] = shifts[shifts["group"].str.startswith("M1")].groupby("model")["shift"].apply(
        lambda s: s.abs().mean())
    out["G0_rho"] = robust[robust["group"] == "G0"].set_index("model")["rho"]
    for group, g in method2.groupby("group"):
        out[f"{group}_share_increased"] = g.set_index("model")["share_increased"]
    return out.reset_index()
