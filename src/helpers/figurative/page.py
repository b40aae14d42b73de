"""Chapter 10's findings, section by section, recomputed from its saved result CSVs alone.

:func:`findings` reads the tables :data:`INPUTS` (``results/10_figurative/<name>.csv``) and
returns every number the page states, one frame per words section (:data:`SECTIONS`) of
``notebooks/words/10_figurative.md``, as chapter 08 does. Every quantity is always present; one
whose table is missing or empty is not applicable (its sentence drops out of the words).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from helpers.core.book.findings import Findings
from helpers.core.book.results import read_saved
from helpers.core.errors import InputError
from helpers.core.statistics.stats import FEW_CLUSTERS

#: The result files the findings read.
INPUTS = (
    "data_summary",
    "detector_precision",
    "idiom_sample_agreement",
    "detector_gold",
    "penalty_means",
    "idiom_effects",
    "mwe_contrast",
    "system_effects",
    "llm_contrast",
    "human_translations",
    "metric_residuals",
    "metric_accuracy",
    "category_effects",
    "span_overlap",
    "span_summary",
    "rater_agreement",
    "token_tags",
)


#: A category with errors in fewer idiom (or other) segments than this is left out of the category findings.
MIN_ERROR_SEGMENTS = 5


def _excludes(low: float, high: float) -> int | None:
    """1 when an interval lies wholly on one side of zero, 0 when it covers zero, None without one."""
    if pd.isna(low) or pd.isna(high):
        return None
    return int(low > 0 or high < 0)


def _rows(t: dict, name: str) -> pd.DataFrame:
    frame = t.get(name)
    return frame if frame is not None else pd.DataFrame()


def _data(t: dict) -> Findings:
    f, d = Findings(), _rows(t, "data_summary")
    f.add("detector", text=d["detector"].iloc[0] if not d.empty else "")
    for _, r in d.iterrows():
        where = (
            f"in {r['idiom_documents']:g} of {r['documents']:g} documents"
            if r["documents"] < r["segments"]
            else "and the file names no documents, so each segment is its own cluster"
        )
        f.add(
            "dataset",
            r["idiom_segments"],
            group=r["dataset"],
            text=r["file"],
            segments=r["segments"],
            systems=r["systems"],
            names=r["system_names"],
            documents=r["documents"],
            where=where,
            idiom_by=r["idiom_by"],
        )
        if isinstance(r["human_systems"], str) and r["human_systems"]:
            f.add("humans", 1, group=r["dataset"], text=r["human_systems"])
    if d.empty or not d["human_systems"].fillna("").astype(bool).any():
        f.add("humans")
    if d.empty:
        f.add("dataset")
    low = d[~d["estimable"].astype(bool)] if not d.empty else d
    f.add(
        "not_estimable",
        len(low) if not d.empty else None,
        text=", ".join(low["dataset"]) if len(low) else "",
        minimum=d["min_idiom_segments"].iloc[0] if not d.empty else np.nan,
    )
    return f


def _detector(t: dict) -> Findings:
    f, p, g = Findings(), _rows(t, "detector_precision"), _rows(t, "detector_gold")
    d = _rows(t, "data_summary")
    detector = d["detector"].iloc[0] if not d.empty else ""
    for _, r in p.iterrows():
        f.add(
            "precision",
            r["precision"],
            group=r["detector"],
            ci=(r["precision_low"], r["precision_high"]),
            kept=r["kept"],
            recall=r["recall"],
            psucmc_found=r["psucmc_found"],
            psucmc_words=r["psucmc_words"],
            precision_b=r.get("precision_b", np.nan),
            b_low=r.get("precision_b_low", np.nan),
            b_high=r.get("precision_b_high", np.nan),
        )
    if p.empty:
        f.add("precision")
    a = _rows(t, "idiom_sample_agreement")
    f.add(
        "labellers",
        a["kappa"].iloc[0] if len(a) else None,
        **{c: (a[c].iloc[0] if len(a) else np.nan) for c in ("items", "agreement", "a_only", "b_only")},
    )
    f.add("sample_absent", 1 if p.empty and not g.empty else None)
    for _, r in g.iterrows():
        f.add(
            "gold_precision",
            r["precision"],
            group=f"{r['detector']}, {r['gold']}",
            ci=(r["precision_low"], r["precision_high"]),
            flagged=r["flagged"],
            gold_segments=r["gold_segments"],
            recall=r["recall"],
            recall_low=r["recall_low"],
            recall_high=r["recall_high"],
        )
    if g.empty:
        f.add("gold_precision")
    own = g[g["detector"] == detector] if not g.empty else g
    for _, r in own.iterrows():
        f.add(
            "own_precision",
            r["precision"],
            group=r["gold"],
            ci=(r["precision_low"], r["precision_high"]),
            text=detector,
            recall=r["recall"],
            recall_low=r["recall_low"],
            recall_high=r["recall_high"],
            gold_segments=r["gold_segments"],
            flagged=r["flagged"],
        )
    if own.empty:
        f.add("own_precision", text="")
    # whether this run's WMT22 set has hand labels (not applicable in a folder without any result)
    f.add("gold_labels", int(len(own) > 0) if any(v is not None for v in t.values()) else None)
    f.add(
        "gold_segments",
        own.loc[own["gold"] == "idi", "gold_segments"].iloc[0] if len(own) else None,
        text=str(int(own.loc[own["gold"] == "idiom", "gold_segments"].iloc[0])) if len(own) else "",
    )
    if len(own):
        idi, any_ = (
            own.set_index("gold").reindex(["idi", "idiom"]).iloc[0],
            own.set_index("gold").reindex(["idi", "idiom"]).iloc[1],
        )
        f.add(
            "detector_gold",
            idi["precision"],
            ci=(idi["precision_low"], idi["precision_high"]),
            text=detector,
            recall=idi["recall"],
            idiom_precision=any_["precision"],
            idiom_recall=any_["recall"],
        )
    else:
        f.add("detector_gold")
    sample = p[p["detector"] == detector] if not p.empty else p
    f.add(
        "sample_precision",
        sample["precision"].iloc[0] if len(sample) else None,
        ci=(sample["precision_low"].iloc[0], sample["precision_high"].iloc[0]) if len(sample) else None,
        text=detector,
        precision_b=sample["precision_b"].iloc[0] if len(sample) and "precision_b" in sample else np.nan,
    )
    f.add(
        "psucmc_found",
        sample["psucmc_found"].iloc[0] if len(sample) else None,
        text=str(sample["psucmc_words"].iloc[0]) if len(sample) else "",
    )
    return f


def _main(e: pd.DataFrame) -> pd.DataFrame:
    """Each data set's own-flag rows (the first flag listed per set) and the pooled row."""
    if e.empty:
        return e
    return e.drop_duplicates("dataset", keep="first")


def _effect(t: dict) -> Findings:
    f, m, e = Findings(), _rows(t, "penalty_means"), _rows(t, "idiom_effects")
    if not m.empty:
        wide = m.pivot_table(index="dataset", columns="idiom", values="mean_score", sort=False)
        for dataset, r in wide.iterrows():
            idiom_mean, other_mean = r.get(True, np.nan), r.get(False, np.nan)
            f.add(
                "raw_difference",
                idiom_mean - other_mean if pd.notna(idiom_mean) else None,
                group=dataset,
                idiom_mean=idiom_mean,
                other_mean=other_mean,
            )
    else:
        f.add("raw_difference")
    main = _main(e)
    sets = main[main["dataset"] != "pooled"] if not main.empty else main
    fit = sets[sets["estimable"].astype(bool)] if not sets.empty else sets
    for _, r in fit.iterrows():
        f.add(
            "effect",
            r["estimate"],
            group=r["dataset"],
            ci=(r["ci_low"], r["ci_high"]),
            p=r["perm_p"],
            mdd=r["mdd_80"],
            idiom_segments=r["idiom_segments"],
            text=r["detector"],
            bound=max(abs(r["ci_low"]), abs(r["ci_high"])),
        )
        f.add("effect_excludes_zero", _excludes(r["ci_low"], r["ci_high"]), group=r["dataset"])
        # the bootstrap interval and the segment-level permutation test tell different stories
        f.add(
            "effect_disagree",
            int(bool(_excludes(r["ci_low"], r["ci_high"])) != bool(r["perm_p"] < 0.05))
            if pd.notna(r["perm_p"])
            else None,
            group=r["dataset"],
        )
        f.add("effect_few", int(bool(r["few_clusters"])), group=r["dataset"], text=str(FEW_CLUSTERS))
    if fit.empty:
        f.add("effect").add("effect_excludes_zero").add("effect_disagree").add("effect_few")
    skip = sets[~sets["estimable"].astype(bool)] if not sets.empty else sets
    for _, r in skip.iterrows():
        f.add("not_estimated", r["idiom_segments"], group=r["dataset"], text=r["detector"])
    if skip.empty:
        f.add("not_estimated")
    pooled = main[main["dataset"] == "pooled"] if not main.empty else main
    if len(pooled) and pd.notna(pooled["estimate"].iloc[0]):
        r = pooled.iloc[0]
        f.add(
            "pooled",
            r["estimate"],
            ci=(r["ci_low"], r["ci_high"]),
            p=r["perm_p"],
            mdd=r["mdd_80"],
            sets=r["sets"],
            idiom_segments=r["idiom_segments"],
        )
    else:
        f.add("pooled")
    others = e[~e.index.isin(main.index)] if not e.empty else e
    others = others[others["estimable"].astype(bool)] if not others.empty else others
    for _, r in others.iterrows():
        f.add(
            "detector_effect",
            r["estimate"],
            group=f"{r['dataset']}, {r['detector']}",
            ci=(r["ci_low"], r["ci_high"]),
            p=r["perm_p"],
            idiom_segments=r["idiom_segments"],
        )
    if others.empty:
        f.add("detector_effect")
    est = e[e["estimable"].astype(bool) & (e["dataset"] != "pooled")] if not e.empty else e
    flips = (
        sum(int(len(np.sign(part["estimate"]).unique()) > 1) for _, part in est.groupby("dataset"))
        if not est.empty
        else None
    )
    f.add("sign_flips", flips)
    return f


def _contrast(t: dict) -> Findings:
    f, c = Findings(), _rows(t, "mwe_contrast")
    for _, r in c.iterrows():
        f.add(
            "contrast",
            r["estimate"],
            group=r["contrast"],
            ci=(r["ci_low"], r["ci_high"]),
            mdd=r["mdd_80"],
            segments_a=r["segments_a"],
            segments_b=r["segments_b"],
        )
    if c.empty:
        f.add("contrast")
    key = c.set_index("contrast") if not c.empty else c
    for name, label in (("figurative", "idiom − mwe"), ("multiword", "mwe − none")):
        if label in key.index:
            r = key.loc[label]
            f.add(name, r["estimate"], ci=(r["ci_low"], r["ci_high"]))
            f.add(f"{name}_excludes", _excludes(r["ci_low"], r["ci_high"]))
        else:
            f.add(name).add(f"{name}_excludes")
    return f


def _systems(t: dict) -> Findings:
    f, se, lc = Findings(), _rows(t, "system_effects"), _rows(t, "llm_contrast")
    d = _rows(t, "data_summary")
    se = se[se["estimable"].astype(bool)].dropna(subset=["estimate"]) if not se.empty else se
    for dataset, part in se.groupby("dataset", sort=False) if not se.empty else []:
        hi, lo = part.loc[part["estimate"].idxmax()], part.loc[part["estimate"].idxmin()]
        f.add(
            "system_range",
            hi["estimate"] - lo["estimate"],
            group=dataset,
            excluding_zero=int(((part["ci_low"] > 0) | (part["ci_high"] < 0)).sum()),
            systems=len(part),
            expected=0.05 * len(part),
        )
        f.add("system_high", hi["estimate"], group=dataset, text=hi["system"])
        f.add("system_low", lo["estimate"], group=dataset, text=lo["system"])
    if se.empty:
        f.add("system_range").add("system_high").add("system_low")
    named = d["llm_systems"].iloc[0] if not d.empty and isinstance(d["llm_systems"].iloc[0], str) else ""
    fit = lc[lc["estimable"].astype(bool)].dropna(subset=["estimate"]) if not lc.empty else lc
    for _, r in fit.iterrows():
        f.add(
            "llm_difference",
            r["estimate"],
            group=r["dataset"],
            ci=(r["ci_low"], r["ci_high"]),
            mdd=r["mdd_80"],
            text=r["llm_systems"],
        )
    if fit.empty:
        f.add("llm_difference")
    absent = lc[lc["llm_systems"].fillna("") == ""] if not lc.empty else lc
    for _, r in absent.iterrows():
        f.add("llm_absent", 1, group=r["dataset"], text=named)
    if absent.empty:
        f.add("llm_absent")
    return f


def _human(t: dict) -> Findings:
    f, h = Findings(), _rows(t, "human_translations")
    rows = h.set_index("group") if not h.empty else h
    for g in ("human", "mt", "difference"):
        if g in rows.index and bool(rows.loc[g, "estimable"]) and pd.notna(rows.loc[g, "estimate"]):
            r = rows.loc[g]
            f.add(
                f"{g}_effect",
                r["estimate"],
                ci=(r["ci_low"], r["ci_high"]),
                mdd=r["mdd_80"],
                text=r["systems"],
                excludes=_excludes(r["ci_low"], r["ci_high"]),
            )
        else:
            f.add(f"{g}_effect")
    return f


def _metrics(t: dict) -> Findings:
    f, r, a = Findings(), _rows(t, "metric_residuals"), _rows(t, "metric_accuracy")
    base = r[r["metric"] == "(none)"] if not r.empty else r
    f.add(
        "metric_base",
        base["estimate"].iloc[0] if len(base) else None,
        ci=(base["ci_low"].iloc[0], base["ci_high"].iloc[0]) if len(base) else None,
    )
    per = r[r["metric"] != "(none)"] if not r.empty else r
    for _, row in per.iterrows():
        f.add("residual", row["estimate"], group=row["metric"], ci=(row["ci_low"], row["ci_high"]), text=row["kind"])
    if per.empty:
        f.add("residual").add("residual_least").add("residual_most").add("residual_excluding_zero")
    else:
        least, most = per.loc[per["estimate"].idxmin()], per.loc[per["estimate"].idxmax()]
        f.add("residual_least", least["estimate"], ci=(least["ci_low"], least["ci_high"]), text=least["metric"])
        f.add("residual_most", most["estimate"], ci=(most["ci_low"], most["ci_high"]), text=most["metric"])
        f.add("residual_excluding_zero", int((per["ci_low"] > 0).sum()), text=str(len(per)))
    diff = a[a["group"] == "difference"] if not a.empty else a
    if per.empty:  # WMT22 not estimable (or no metric): nothing is concluded from its metrics either
        diff = diff.iloc[:0]
    for _, row in diff.iterrows():
        f.add(
            "accuracy_difference",
            row["estimate"],
            group=row["metric"],
            ci=(row["ci_low"], row["ci_high"]),
            p=row["p"],
            text=row["kind"],
        )
    if diff.empty:
        f.add("accuracy_difference").add("accuracy_lower").add("accuracy_by_kind")
    else:
        f.add(
            "accuracy_lower",
            int((diff["ci_high"] < 0).sum()),
            text=str(len(diff)),
            below_05=int((diff["p"] < 0.05).sum()),
            expected=0.05 * len(diff),
        )
        for kind, part in diff.groupby("kind"):
            f.add(
                "accuracy_by_kind",
                part["estimate"].mean(),
                group=kind,
                metrics=len(part),
                lower=int((part["ci_high"] < 0).sum()),
            )
    return f


def _categories(t: dict) -> Findings:
    f, c = Findings(), _rows(t, "category_effects")
    c = c.dropna(subset=["estimate"]) if not c.empty else c
    # a category in which only a few idiom segments (or other segments) have an error gives an interval made of
    # zeros: left out
    both = (
        c[(c["idiom_error_segments"] >= MIN_ERROR_SEGMENTS) & (c["other_error_segments"] >= MIN_ERROR_SEGMENTS)]
        if not c.empty
        else c
    )
    for _, r in both.iterrows():
        f.add(
            "category_effect",
            r["estimate"],
            group=f"{r['dataset']}, {r['category']}",
            ci=(r["ci_low"], r["ci_high"]),
            idiom_mean=r["idiom_mean"],
            other_mean=r["other_mean"],
        )
    if both.empty:
        f.add("category_effect").add("largest_category").add("categories_excluding_zero")
    else:
        big = both.loc[both["estimate"].abs().idxmax()]
        f.add(
            "largest_category",
            big["estimate"],
            ci=(big["ci_low"], big["ci_high"]),
            text=f"{big['category']} ({big['dataset']})",
        )
        f.add(
            "categories_excluding_zero",
            int(((both["ci_low"] > 0) | (both["ci_high"] < 0)).sum()),
            text=str(len(both)),
            left_out=len(c) - len(both),
            minimum=MIN_ERROR_SEGMENTS,
        )
    return f


def _spans(t: dict) -> Findings:
    f, s, o = Findings(), _rows(t, "span_summary"), _rows(t, "span_overlap")
    if not s.empty and s["spans"].iloc[0] > 0:
        r = s.iloc[0]
        distinct = o.drop_duplicates(["system", "doc", "doc_seg_id", "span_start", "span_end"]) if not o.empty else o
        f.add(
            "span_observed",
            r["observed"],
            n=r["spans"],
            documents=r["documents"],
            distinct=len(distinct),
            segments=distinct[["doc", "doc_seg_id"]].drop_duplicates().shape[0] if len(distinct) else 0,
        )
        f.add("span_chance", r["chance"])
        f.add("span_difference", r["difference"], ci=(r["ci_low"], r["ci_high"]))
        f.add("span_gathers", _excludes(r["ci_low"], r["ci_high"]))
        f.add("span_ratio", r["ratio"])
    else:
        f.add("span_observed").add("span_chance").add("span_difference").add("span_gathers").add("span_ratio")
    return f


def _pair(f: Findings, table: pd.DataFrame, prefix: str, flag: str, counts: tuple[str, str]) -> None:
    """An idiom/other/difference table's findings: ``<prefix>_idiom``, ``_other``, ``_difference`` and ``flag``."""
    rows = table.set_index("group") if not table.empty else pd.DataFrame()
    for g in ("idiom", "other", "difference"):
        if g in rows.index and pd.notna(rows.loc[g, "estimate"]):
            f.add(
                f"{prefix}_{g}",
                rows.loc[g, "estimate"],
                ci=(rows.loc[g, "ci_low"], rows.loc[g, "ci_high"]),
                **{c: rows.loc[g, c] for c in counts},
            )
        else:
            f.add(f"{prefix}_{g}")
    f.add(
        flag,
        _excludes(rows.loc["difference", "ci_low"], rows.loc["difference", "ci_high"])
        if "difference" in rows.index
        else None,
    )


def _agreement(t: dict) -> Findings:
    f = Findings()
    _pair(f, _rows(t, "rater_agreement"), "alpha", "alpha_lower", ("units", "documents"))
    return f


def _tags(t: dict) -> Findings:
    f, g = Findings(), _rows(t, "token_tags")
    for scope in ("all", "idiom_posts"):
        part = g[g["scope"] == scope] if not g.empty else g
        if len(part):
            _pair(f, part, f"tags_{scope}", f"tags_{scope}_differs", ("tokens", "posts"))
        else:
            f.add(f"tags_{scope}_idiom").add(f"tags_{scope}_other").add(f"tags_{scope}_difference")
            f.add(f"tags_{scope}_differs")
    return f


def _summary(t: dict) -> Findings:
    """The closing section: the quantities of the others it restates."""
    f = Findings()
    for part in (_data(t), _detector(t), _effect(t), _contrast(t), _human(t), _metrics(t), _tags(t)):
        f._rows += part._rows  # noqa: SLF001 (one frame of the quantities restated)
    return f


#: Words section -> its findings.
SECTIONS = {
    "data": _data,
    "detector": _detector,
    "effect": _effect,
    "contrast": _contrast,
    "systems": _systems,
    "human": _human,
    "metrics": _metrics,
    "categories": _categories,
    "spans": _spans,
    "agreement": _agreement,
    "tags": _tags,
    "findings": _summary,
}


def findings(folder, section: str | None = None) -> pd.DataFrame:
    """Chapter 10's findings from its saved result CSVs (:data:`INPUTS`) alone.

    Parameters
    ----------
    folder
        The result folder.
    section
        One of :data:`SECTIONS`, or None: every section's, each row with its ``section``.

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS` plus extra columns some quantities use.
    """
    if section is not None and section not in SECTIONS:
        raise InputError(
            "is not a section of chapter 10's findings",
            parameter="section",
            value=section,
            expected=", ".join(SECTIONS),
        )
    t = {name: read_saved(folder, name) for name in INPUTS}
    t = {k: (v if v is not None and not v.empty else None) for k, v in t.items()}
    if section is not None:
        return SECTIONS[section](t).frame()
    return pd.concat([SECTIONS[name](t).frame().assign(section=name) for name in SECTIONS], ignore_index=True)
