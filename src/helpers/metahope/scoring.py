"""MetaHOPE scoring: penalties, segment scores, summaries and profiles (Liang & Han 2026).

A tidy annotation frame (:mod:`helpers.metahope.tidy_frame`) becomes the paper's quantities:
SEGS = IMP + RAM + MIS + STL + PRF per item (Eq. 1), the penalty totals per system of
Tables 2 and 3 (EPS, EPM and their ratio), error profiles by system, direction and part
of speech (RQ-2), and the anatomy of one disagreement (Table 12).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from .severity import blank
from .tidy_frame import category_order


def segment_scores(tidy: pd.DataFrame, value: str = "severity") -> pd.DataFrame:
    """One row per (item, system, annotator) rated, with the category scores and their sum.

    ``SEGS = IMP + RAM + MIS + STL + PRF`` (paper Eq. 1); the categories are the data's
    (:func:`~helpers.metahope.tidy_frame.category_order`: MetaHOPE's five, or a foreign MQM file's
    top-level categories). A unit nobody rated has no row (never a 0). ``value`` is the column summed:
    ``"severity"`` (raw levels, = MetaHOPE penalties) or ``"penalty"`` after
    :func:`~helpers.metahope.severity.apply_weights`.

    Parameters
    ----------
    tidy : pandas.DataFrame
        Tidy annotations, one row per (item, system, annotator, category).
    value : str
        Column summed: ``"severity"`` or ``"penalty"``.

    Returns
    -------
    pandas.DataFrame
        One row per rated (item, system, annotator): the category sums and
        SEGS = IMP + RAM + MIS + STL + PRF (or the sum of the data's categories).

    References
    ----------
    Liang & Han (2026). MetaHOPE: Metaphor Translation Evaluation Framework, §4.2.1 (SEGS as the
    sum of the five category scores of a metaphor instance).
    """
    keys = ["item", "position", "sentence", "metaphor", "pos", "system", "annotator"]
    cats = category_order(tidy)
    # observed=True: no rows for unused categories of a categorical key (a unit nobody rated); a
    # category a rated unit lacks is 0, and the reindex puts back every category column
    wide = tidy.pivot_table(index=keys, columns="category", values=value, aggfunc="sum", observed=True, fill_value=0)
    wide = wide.reindex(columns=cats, fill_value=0).reset_index()
    wide.columns.name = None
    wide["SEGS"] = wide[cats].sum(axis=1)
    return _in_system_order(wide, tidy, ["annotator", "system", "position"])


def count_sentences(tidy: pd.DataFrame) -> int:
    """Number of distinct source sentences among the items (after :func:`clean_sentence`).

    Parameters
    ----------
    tidy : pandas.DataFrame
        Tidy annotations with ``sentence``.

    Returns
    -------
    int
        |{sentence}|, the number of distinct sentences.

    References
    ----------
    Liang & Han (2026). MetaHOPE, §4.2.2 (EPS is counted per sentence).
    """
    return int(tidy["sentence"].nunique())


def penalty_summary(tidy: pd.DataFrame, n_sentences: int | None = None, value: str = "severity") -> pd.DataFrame:
    """Total penalty per system and category for one annotator (paper Tables 2 and 3).

    Returns ``system, <categories…>, SEGS, per_sentence, per_metaphor`` (MetaHOPE's IMP,
    RAM, MIS, STL, PRF; a foreign file's own categories) where
    ``per_sentence = SEGS / n_sentences`` and ``per_metaphor = SEGS / number of MRW items``.
    ``n_sentences`` defaults to :func:`count_sentences`.

    Parameters
    ----------
    tidy : pandas.DataFrame
        One annotator's tidy annotations.
    n_sentences : int, optional
        Number of sentences (default: :func:`count_sentences`).
    value : str
        Column summed: ``"severity"`` or ``"penalty"``.

    Returns
    -------
    pandas.DataFrame
        Per system: Σ over items of each category and of SEGS, SEGS / n_sentences and
        SEGS / n_items.

    References
    ----------
    Liang & Han (2026). MetaHOPE, §4.2.2 and Tables 2–3 (EPS and EPM).
    """
    annotators = tidy["annotator"].unique()
    if len(annotators) != 1:
        raise ValueError(f"penalty_summary takes one annotator's sheet; got {list(annotators)}")
    n_items = tidy["item"].nunique()
    n_sent = count_sentences(tidy) if n_sentences is None else int(n_sentences)
    scores = segment_scores(tidy, value=value)
    order = list(tidy["system"].unique())
    out = scores.groupby("system", sort=False)[category_order(tidy) + ["SEGS"]].sum().reindex(order).reset_index()
    out["per_sentence"] = out["SEGS"] / n_sent
    out["per_metaphor"] = out["SEGS"] / n_items
    return out


def metaphor_share(epm: pd.DataFrame, eps: pd.DataFrame) -> pd.DataFrame:
    """Add ``ratio_m_s`` = EPM / EPS per system (paper §4.2.2, Table 3 "Ratio (M/S)"): the
    metaphor-level penalty points over the sentence-level ones. Not a share of one total in
    the other: the two come from separate annotation passes, which can score an error
    differently (or one sheet not at all), and an error may be entered on several metaphors,
    so the ratio can exceed 1 (:func:`ratio_m_s`, :func:`metaphor_excess`).

    Parameters
    ----------
    epm : pandas.DataFrame
        :func:`penalty_summary` of the metaphor sheet (EPM).
    eps : pandas.DataFrame
        :func:`penalty_summary` of the sentence sheet (EPS).

    Returns
    -------
    pandas.DataFrame
        ``epm`` with ``ratio_m_s`` = SEGS_EPM / SEGS_EPS per system.

    References
    ----------
    Liang & Han (2026). MetaHOPE, §4.2.2 and Table 3 (Ratio M/S = EPM / EPS).
    """
    ratio = epm.set_index("system")["SEGS"] / eps.set_index("system")["SEGS"]
    out = epm.copy()
    out["ratio_m_s"] = out["system"].map(ratio)
    return out


def penalty_by_sentence(metaphors: pd.DataFrame, sentences: pd.DataFrame, value: str = "severity") -> pd.DataFrame:
    """Metaphor-level against sentence-level penalty, sentence by sentence (Ratio M/S taken apart).

    ``metaphors`` is one annotator's tidy metaphor sheet, ``sentences`` the tidy full-sentence
    sheet (:func:`~helpers.metahope.workbooks.read_workbook`). Returns one row per (sentence, system,
    category), categories in the data's order: ``epm`` (the penalties of the sentence's
    metaphors, summed: a sentence error attached to three metaphors would count three times),
    ``eps`` (the sentence's own penalty), ``n_metaphors`` and ``metaphors_penalised`` (how many
    of them carry points in the category: :func:`metaphor_excess` reads it). A sentence or system that one
    sheet lacks counts 0 there, so the sums per system are Tables 3 and 2.

    Parameters
    ----------
    metaphors : pandas.DataFrame
        One annotator's tidy metaphor sheet.
    sentences : pandas.DataFrame
        The tidy full-sentence sheet.
    value : str
        Column summed: ``"severity"`` or ``"penalty"``.

    Returns
    -------
    pandas.DataFrame
        ``sentence, system, category, epm, eps, n_metaphors, metaphors_penalised``: epm = Σ over the
        sentence's metaphors of their penalty in the category, eps = the sentence's own penalty,
        ``metaphors_penalised`` the metaphors whose penalty in the category is above 0.

    References
    ----------
    Liang & Han (2026). MetaHOPE, §4.2.2 and Tables 2–3.
    """
    keys = ["sentence", "system", "category"]
    epm = metaphors.groupby(keys, sort=False, observed=True)[value].sum().rename("epm")
    eps = sentences.groupby(keys, sort=False, observed=True)[value].sum().rename("eps")
    out = pd.concat([epm, eps], axis=1).fillna(0).reset_index()
    counts = metaphors.groupby("sentence", sort=False)["item"].nunique()
    out["n_metaphors"] = out["sentence"].map(counts).fillna(0).astype(int)
    scored = metaphors[metaphors[value] > 0].groupby(keys, sort=False, observed=True)["item"].nunique()
    out["metaphors_penalised"] = pd.MultiIndex.from_frame(out[keys]).map(scored.to_dict()).fillna(0).astype(int)
    cats, systems = category_order(metaphors), list(dict.fromkeys([*metaphors["system"], *sentences["system"]]))
    order = {"system": {v: i for i, v in enumerate(systems)}, "category": {v: i for i, v in enumerate(cats)}}
    return out.sort_values(
        ["system", "category", "sentence"], key=lambda c: c.map(order[c.name]) if c.name in order else c, kind="stable"
    ).reset_index(drop=True)


def ratio_m_s(by_sentence: pd.DataFrame, n_boot: int = 2000, seed=0, ci: float = 95.0) -> pd.DataFrame:
    """Ratio (M/S) = EPM / EPS per system and category, and for their sum (``category`` "SEGS").

    From :func:`penalty_by_sentence`. One row per (system, category) with ``epm``, ``eps``,
    ``ratio_m_s`` (NaN when ``eps`` is 0), ``epm_exceeds_eps`` (the metaphors carry more
    points than the sentences: impossible for a share), ``n_sentences``, the sentences with
    any penalty in either sheet (``sentences_penalised``) and those on which the metaphors carry more (``sentences_metaphor_higher``) or fewer
    (``sentences_sentence_higher``) points. The sentence is the unit of resampling (its
    metaphors share one translation): ``ci_low``, ``ci_high`` the percentile interval of the
    ratio over ``n_boot`` sentence resamples (:func:`~helpers.core.statistics.stats.resample`), and
    ``jackknife_ci_low``, ``jackknife_ci_high`` the delete-one-sentence jackknife t interval
    that holds with about 20 sentences (:func:`~helpers.core.statistics.stats.jackknife_t_interval`).

    Parameters
    ----------
    by_sentence : pandas.DataFrame
        :func:`penalty_by_sentence`.
    n_boot : int
        Bootstrap resamples of the sentences.
    seed : int
        Seed of the resamples.
    ci : float
        Level of the intervals, in percent.

    Returns
    -------
    pandas.DataFrame
        One row per (system, category): ratio = Σ_s epm_s / Σ_s eps_s over the sentences s; the
        percentile interval of the ratio over sentence resamples, and the jackknife interval
        ratio ± t_{S−1} · √((S − 1)/S · Σ_s (ratio_(s) − ratio_(·))²), ratio_(s) without sentence s.

    References
    ----------
    Liang & Han (2026). MetaHOPE, §4.2.2 and Table 3 (Ratio M/S).
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 11 (the jackknife)
    and ch. 13 (the percentile interval).
    """
    import numpy as np

    from ..core.statistics.stats import jackknife_t_interval, jackknife_weights, percentile_interval, resample

    total = by_sentence.groupby(["sentence", "system"], sort=False)[["epm", "eps"]].sum().reset_index()
    frame = pd.concat([by_sentence, total.assign(category="SEGS")], ignore_index=True)
    systems = list(dict.fromkeys(by_sentence["system"]))
    cats = list(dict.fromkeys(by_sentence["category"])) + ["SEGS"]
    sentences = list(dict.fromkeys(by_sentence["sentence"]))
    wide = frame.pivot_table(
        index="sentence",
        columns=["system", "category"],
        values=["epm", "eps"],
        aggfunc="sum",
        fill_value=0,
        observed=True,
    ).reindex(sentences)
    columns = pd.MultiIndex.from_product([systems, cats])
    epm = wide["epm"].reindex(columns=columns, fill_value=0).to_numpy(float)
    eps = wide["eps"].reindex(columns=columns, fill_value=0).to_numpy(float)

    def ratios(weights: np.ndarray) -> np.ndarray:
        num, den = weights @ epm, weights @ eps
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)

    boot = ratios(resample(len(sentences), n_boot, seed=seed))
    loo = ratios(jackknife_weights(sentences))
    estimate = ratios(np.ones((1, len(sentences))))[0]
    rows = []
    for j, (system, category) in enumerate(columns):
        low, high = percentile_interval(boot[:, j], ci)
        jlow, jhigh = jackknife_t_interval(estimate[j], loo[:, j], ci)
        rows.append(
            {
                "system": system,
                "category": category,
                "epm": epm[:, j].sum(),
                "eps": eps[:, j].sum(),
                "ratio_m_s": estimate[j],
                "epm_exceeds_eps": bool(epm[:, j].sum() > eps[:, j].sum()),
                "n_sentences": len(sentences),
                "sentences_penalised": int(((epm[:, j] > 0) | (eps[:, j] > 0)).sum()),
                "sentences_metaphor_higher": int((epm[:, j] > eps[:, j]).sum()),
                "sentences_sentence_higher": int((epm[:, j] < eps[:, j]).sum()),
                "ci_low": low,
                "ci_high": high,
                "jackknife_ci_low": jlow,
                "jackknife_ci_high": jhigh,
            }
        )
    return pd.DataFrame(rows)


#: Why the metaphors of a sentence carry more points than the sentence in a category
#: (:func:`metaphor_excess`): points on several metaphors; one metaphor, the sentence sheet none;
#: one metaphor scored higher than the sentence.
EXCESS_CAUSES = ("several_metaphors", "sentence_unscored", "scored_higher")


def metaphor_excess(by_sentence: pd.DataFrame) -> pd.DataFrame:
    """The sentences where the metaphors carry more points than the sentence, and why (Ratio M/S > 1 taken apart).

    From :func:`penalty_by_sentence`: one row per (system, category, sentence) with epm > eps,
    its ``excess`` = epm − eps, and ``cause`` (:data:`EXCESS_CAUSES`): ``several_metaphors``
    when more than one metaphor of the sentence carries points in the category (an error of
    the sentence may be entered on each), otherwise the two sheets scored the one metaphor's
    error differently: ``sentence_unscored`` when the sentence sheet has no points in the
    category, ``scored_higher`` when it has fewer. Rows in :func:`penalty_by_sentence`'s order.

    Parameters
    ----------
    by_sentence : pandas.DataFrame
        :func:`penalty_by_sentence`.

    Returns
    -------
    pandas.DataFrame
        ``system, category, sentence, epm, eps, excess, metaphors_penalised, cause``.

    References
    ----------
    Liang & Han (2026). MetaHOPE, §4.2.2 and Tables 2–3 (EPM and EPS scored on separate sheets).
    """
    import numpy as np

    rows = by_sentence[by_sentence["epm"] > by_sentence["eps"]]
    cause = np.select([rows["metaphors_penalised"] > 1, rows["eps"] == 0], list(EXCESS_CAUSES[:2]), EXCESS_CAUSES[2])
    out = rows.assign(excess=rows["epm"] - rows["eps"], cause=cause)
    return out[["system", "category", "sentence", "epm", "eps", "excess", "metaphors_penalised", "cause"]].reset_index(
        drop=True
    )


def paired_segments(tidy: pd.DataFrame, value: str = "severity") -> pd.DataFrame:
    """SEGS of every item with one column per annotator (for severity-bias plots and tests),
    with the item's ``sentence`` for tests that respect the nesting.

    Parameters
    ----------
    tidy : pandas.DataFrame
        Tidy annotations.
    value : str
        Column summed: ``"severity"`` or ``"penalty"``.

    Returns
    -------
    pandas.DataFrame
        One row per (system, item) with ``sentence`` and each annotator's SEGS (:func:`segment_scores`).

    References
    ----------
    Liang & Han (2026). MetaHOPE, §4.2.1 (segment-level scores compared between annotators).
    """
    scores = segment_scores(tidy, value=value)
    wide = scores.pivot_table(
        index=["system", "position", "item", "metaphor", "pos", "sentence"],
        columns="annotator",
        values="SEGS",
        aggfunc="sum",
    ).reset_index()
    wide.columns.name = None
    return _in_system_order(wide, tidy, ["system", "position"])


def _in_system_order(frame: pd.DataFrame, tidy: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Sort ``frame`` by ``by``, systems in the order the workbook lists them."""
    order = {s: i for i, s in enumerate(tidy["system"].unique())}
    return frame.sort_values(by, key=lambda col: col.map(order) if col.name == "system" else col).reset_index(drop=True)


# --------------------------------------------------------------------------- parts of speech

#: Paper appendix D.1 keeps metaphorically used nouns, verbs, adjectives and adverbs and
#: normalises corpus-specific tags into three classes. These are the default mappings of
#: the tags found in VUAMC (N, V, AJ, AV, combined tags such as "V+AV") and PSUCMC (PKU /
#: ICTCLAS tags such as n, v, a, vn, vg, i). The paper decided doubtful cases by the word's
#: syntactic function in context; tags whose function varies (idioms ``i``, fixed
#: expressions ``l``) map to "other" until an override says otherwise.
POS_CLASSES: dict[str, str] = {
    # English (VUAMC)
    "N": "noun",
    "V": "verb",
    "AJ": "adjective-adverb",
    "AV": "adjective-adverb",
    # Chinese (PSUCMC, PKU tag set)
    "n": "noun",
    "ng": "noun",
    "nr": "noun",
    "ns": "noun",
    "nt": "noun",
    "nz": "noun",
    "vn": "noun",
    "an": "noun",
    "f": "noun",
    "s": "noun",
    "t": "noun",
    "j": "noun",
    "v": "verb",
    "vg": "verb",
    "vd": "verb",
    "vi": "verb",
    "vl": "verb",
    "vx": "verb",
    "a": "adjective-adverb",
    "ag": "adjective-adverb",
    "ad": "adjective-adverb",
    "d": "adjective-adverb",
    "dg": "adjective-adverb",
    "b": "adjective-adverb",
    "z": "adjective-adverb",
}


def pos_class(tag) -> str:
    """Normalised class of one POS tag (see :data:`POS_CLASSES`).

    Combined English tags take the class of their first part ("V+AV" -> verb, "N+N" -> noun).
    Unknown tags give "other".
    """
    if blank(tag):
        return "other"
    tag = str(tag).strip()
    head = tag.split("+")[0].strip()
    return POS_CLASSES.get(tag, POS_CLASSES.get(head, "other"))


def normalise_pos(tidy: pd.DataFrame, overrides: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Add ``pos_class`` (noun / verb / adjective-adverb / other) beside the original ``pos``.

    ``overrides`` maps item ids to a class, for the decisions appendix D.1 makes by
    syntactic function in context (e.g. an idiom used as a predicate -> verb).
    """
    allowed = {"noun", "verb", "adjective-adverb", "other"}
    bad = {k: v for k, v in (overrides or {}).items() if v not in allowed}
    if bad:
        raise ValueError(f"POS overrides must be one of {sorted(allowed)}; got {bad}")
    out = tidy.copy()
    out["pos_class"] = out["pos"].map(pos_class)
    if overrides:
        hit = out["item"].isin(list(overrides))
        out.loc[hit, "pos_class"] = out.loc[hit, "item"].map(overrides)
    return out


# --------------------------------------------------------------------------- error profiles


def error_profile(
    tidy: pd.DataFrame, by: str | list[str] = ("system", "annotator"), value: str = "severity"
) -> pd.DataFrame:
    """How often and how badly each group errs (paper RQ-2).

    One row per group of ``by`` with ``n_items``, the summed penalty per category, their
    total ``SEGS``, ``items_with_error`` (percent of items with any non-zero category) and
    ``mean_penalty`` (SEGS per item, i.e. per metaphor). ``by`` may include ``direction``
    or ``pos_class`` when those columns exist.

    Parameters
    ----------
    tidy : pandas.DataFrame
        Tidy annotations.
    by : str or list of str
        Grouping columns.
    value : str
        Column summed: ``"severity"`` or ``"penalty"``.

    Returns
    -------
    pandas.DataFrame
        Per group: n_items, Σ of each category and SEGS, items_with_error =
        100 · |{items with SEGS > 0}| / n_items and mean_penalty = SEGS / n_items.

    References
    ----------
    Liang & Han (2026). MetaHOPE, §1 (RQ-2: frequency and severity of errors across systems)
    and §4.2.2.
    """
    by = [by] if isinstance(by, str) else list(by)
    keys = ["item"] + [k for k in by if k != "item"]
    cats = category_order(tidy)
    wide = tidy.pivot_table(
        index=keys, columns="category", values=value, aggfunc="sum", observed=True, sort=False, fill_value=0
    )
    wide = wide.reindex(columns=cats, fill_value=0).reset_index()
    wide.columns.name = None
    wide["SEGS"] = wide[cats].sum(axis=1)
    grouped = wide.groupby(by, sort=False, observed=True)
    out = grouped[cats + ["SEGS"]].sum()
    out.insert(0, "n_items", grouped.size())
    out["items_with_error"] = grouped["SEGS"].apply(lambda s: (s > 0).mean() * 100)
    out["mean_penalty"] = out["SEGS"] / out["n_items"]
    return out.reset_index()


def profile_categories(profile: pd.DataFrame) -> list[str]:
    """The category columns of an :func:`error_profile` table, in
    order: those between ``n_items`` and ``SEGS`` (MetaHOPE's five, or a file's own)."""
    cols = list(profile.columns)
    return cols[cols.index("n_items") + 1 : cols.index("SEGS")]


@dataclass(frozen=True)
class Anatomy:
    """One unit's disagreement taken apart (:func:`disagreement_anatomy`)."""

    scores: pd.DataFrame  # annotator × category, with total and detected
    pairwise: pd.DataFrame  # annotator × annotator: total_difference, categories_disagreeing
    categories: pd.DataFrame  # category, annotators_using_it, severities_given


def disagreement_anatomy(example: pd.DataFrame) -> Anatomy:
    """Where annotators of one item part ways: detection, category and severity.

    ``example`` has one row per (annotator, category) with ``severity``. Returns an
    :class:`Anatomy`: ``scores`` (annotator × category with totals and whether any error was detected),
    ``pairwise`` (annotator × annotator: |difference of totals|, and the number of
    categories on which they disagree whether there is an error) and ``categories``
    (per category: how many annotators used it and the severities they gave).

    Parameters
    ----------
    example : pandas.DataFrame
        One row per (annotator, category) with ``severity``.

    Returns
    -------
    Anatomy
        ``scores`` (total = Σ categories, detected = total > 0), ``pairwise`` (|total_a − total_b| and
        the number of categories where exactly one of a, b gives a non-zero severity) and ``categories``.

    References
    ----------
    Liang & Han (2026). MetaHOPE, appendix I.6.1 and Table 12 (one disagreement taken apart).
    """
    # a category an annotator wrote nothing for is 0 (fill_value), whether or not the column is
    # categorical; the reindex puts back every category nobody used
    wide = example.pivot_table(
        index="annotator", columns="category", values="severity", aggfunc="sum", observed=True, sort=False, fill_value=0
    ).reindex(columns=category_order(example), fill_value=0)
    wide.columns = [str(c) for c in wide.columns]
    scores = wide.copy()
    scores["total"] = wide.sum(axis=1)
    scores["detected"] = scores["total"] > 0
    names = list(wide.index)
    flags = wide > 0
    total_gap = pd.DataFrame(
        [[abs(scores.loc[a, "total"] - scores.loc[b, "total"]) for b in names] for a in names],
        index=names,
        columns=names,
    )
    category_gap = pd.DataFrame(
        [[int((flags.loc[a] != flags.loc[b]).sum()) for b in names] for a in names], index=names, columns=names
    )
    pairwise = pd.concat({"total_difference": total_gap, "categories_disagreeing": category_gap}, axis=1)
    categories = pd.DataFrame(
        {
            "annotators_using_it": flags.sum(axis=0),
            "severities_given": [
                ", ".join(f"{a}={int(wide.loc[a, c])}" for a in names if wide.loc[a, c] > 0) for c in wide.columns
            ],
        }
    )
    return Anatomy(scores.reset_index(), pairwise, categories.rename_axis("category").reset_index())


# --------------------------------------------------------------------------- the papers' table layouts

#: Columns of MetaHOPE Tables 1 and 6 (pilot v1, two annotators).
PILOT_V1_METRICS = ["alpha", "weighted_kappa", "pearson_r", "exact_agreement"]
#: :func:`helpers.core.statistics.agreement.agreement` columns -> the names of MetaHOPE Tables 7–11 (pilot v2).
PILOT_V2_NAMES = {
    "alpha": "ordinal_alpha",
    "weighted_kappa": "mean_weighted_kappa",
    "exact_agreement": "exact_score_agreement",
    "presence_agreement": "exact_presence_agreement",
}


def pilot_v1_layout(agreement: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """An :func:`~helpers.core.statistics.agreement.agreement` table in the layout of Tables 1 and 6:
    ``by…, alpha, weighted_kappa, pearson_r, exact_agreement`` (and ``total_<annotator>``)."""
    totals = [c for c in agreement.columns if c.startswith("total_")]
    return agreement[list(by) + PILOT_V1_METRICS + totals]


def pilot_v2_layout(agreement: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """An :func:`~helpers.core.statistics.agreement.agreement` table (ordinal α) in the layout of Tables
    7–11: ``by…, n_items, n_raters, ordinal_alpha, mean_weighted_kappa,
    exact_score_agreement, exact_presence_agreement``."""
    return agreement[list(by) + ["n_items", "n_raters", *PILOT_V2_NAMES]].rename(columns=PILOT_V2_NAMES)


def disputed_items(tidy: pd.DataFrame, top: int = 5) -> pd.DataFrame:
    """The (metaphor, system) units a team disagreed on most, with every annotator's SEGS.

    Ranked by the range of SEGS over the annotators (max − min), then by the share of
    annotators who saw any error nearest one half (a split team), then by the SD. Returns
    ``item, system, metaphor, sentence, range, sd, flagged`` (annotators with SEGS > 0, of
    how many) and one column per annotator, the ``top`` units first: the class's own
    Table 12 candidates (paper §4.2 reads one such unit).

    Parameters
    ----------
    tidy : pandas.DataFrame
        Tidy annotations.
    top : int
        How many units to return.

    Returns
    -------
    pandas.DataFrame
        The units ranked by range = max − min of SEGS over the annotators, then by |flagged / k − 1/2|
        (k annotators who rated the unit), then by the sample SD (ddof 1).

    References
    ----------
    Liang & Han (2026). MetaHOPE, appendix I.6 (examples of major disagreement) and Table 12.

    Examples
    --------
    >>> t = pd.DataFrame({"item": ["i1"] * 3 + ["i2"] * 3, "position": [0] * 3 + [1] * 3, "sentence": "s",
    ...                   "metaphor": ["m1"] * 3 + ["m2"] * 3, "pos": "N", "system": "X",
    ...                   "annotator": ["a", "b", "c"] * 2, "category": "MIS", "severity": [0, 8, 2, 2, 2, 4]})
    >>> disputed_items(t)[["item", "range", "flagged", "a", "b", "c"]].values.tolist()
    [['i1', 8, '2 of 3', 0, 8, 2], ['i2', 2, '3 of 3', 2, 2, 4]]
    """
    segs = segment_scores(tidy)
    wide = segs.pivot_table(
        index=["item", "system", "metaphor", "sentence"],
        columns="annotator",
        values="SEGS",
        aggfunc="first",
        sort=False,
    )
    wide = wide[list(dict.fromkeys(segs["annotator"]))]
    k = wide.notna().sum(axis=1)  # the annotators who rated the unit (WMT: 3 of N)
    flagged = (wide > 0).sum(axis=1)
    stats = pd.DataFrame(
        {
            "range": wide.max(axis=1) - wide.min(axis=1),
            "sd": wide.std(axis=1, ddof=1),
            "_split": (flagged / k - 0.5).abs(),
            "flagged": flagged.astype(str) + " of " + k.astype(str),
        },
        index=wide.index,
    )
    out = pd.concat([stats, wide], axis=1).reset_index()
    out = out.sort_values(["range", "_split", "sd"], ascending=[False, True, False], kind="stable").head(top)
    out.columns.name = None
    return out.drop(columns="_split").reset_index(drop=True)


def team_scores(segs: pd.DataFrame, by: Sequence[str] = ("direction",)) -> pd.DataFrame:
    """A team's SEGS per metaphor and system: the mean over its annotators, under the
    annotator name ``team of k``, so that one system comparison reads what the team as a
    whole saw (a class verdict) instead of one verdict per annotator.

    Parameters
    ----------
    segs : pandas.DataFrame
        :func:`segment_scores` with ``direction`` (or the columns of ``by``).
    by : sequence of str
        Columns that set the team.

    Returns
    -------
    pandas.DataFrame
        One row per (by…, item, sentence, system): SEGS = (1/k) Σ_a SEGS_a over its k annotators,
        annotator ``team of k``.

    References
    ----------
    Liang & Han (2026). MetaHOPE, §4.2.1 (SEGS per metaphor instance).

    Examples
    --------
    >>> s = pd.DataFrame({"direction": "EN→ZH", "item": ["i1", "i1", "i1", "i1"], "sentence": "s",
    ...                   "system": ["X", "X", "Y", "Y"], "annotator": ["a", "b", "a", "b"], "SEGS": [2, 6, 0, 1]})
    >>> team_scores(s)[["system", "annotator", "SEGS"]].values.tolist()
    [['X', 'team of 2', 4.0], ['Y', 'team of 2', 0.5]]
    """
    keys = [*by, "item", "sentence", "system"]
    out = (
        segs.groupby(keys, sort=False, observed=True)
        .agg(SEGS=("SEGS", "mean"), k=("annotator", "nunique"))
        .reset_index()
    )
    size = out.groupby(list(by), sort=False)["k"].transform("max") if by else out["k"].max()
    out["annotator"] = "team of " + size.astype(str)
    return out.drop(columns="k")
