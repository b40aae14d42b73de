"""Chapter 06's findings, recomputed from its saved result CSVs (:data:`~helpers.slang.ch06.FINDINGS_INPUTS`)
section by section; :mod:`helpers.slang.ch06` re-exports :func:`findings`."""

from __future__ import annotations

from html import escape
from pathlib import Path

import pandas as pd

from ..core import params
from ..core.book import formatting
from ..core.book.findings import COLUMNS, Findings
from ..core.book.results import read_saved
from ..core.formats.published import read_published
from ..core.statistics import stats
from . import candidates as hc
from . import correlations
from . import homophone_data as hd
from . import language_models as lm

#: Candidates Algorithm 1 made in the paper (§3.1); its Tables 2–3 correlate all of them.
PAPER_CANDIDATES = 172
#: The level of the chapter's verdicts on within-word tests.
LEVEL = 0.05


#: The sections :func:`findings` fills, in the page's order (``ladder_direction`` twice: this run's ladder and,
#: when the run saved one, the committed measured one, told apart by the ``ladder`` column).
SECTIONS = (
    "data",
    "frequencies",
    "candidates",
    "direction",
    "within_word",
    "coverage",
    "ladder_direction",
    "limit",
    "measured_ladder",
    "algorithm2",
    "overlap",
    "perturbation",
    "emotion",
    "findings",
)


class _Saved:
    """The saved result CSVs of one run, each read once when first asked for."""

    def __init__(self, folder):
        self.folder, self._tables = Path(folder), {}

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._tables:
            self._tables[name] = read_saved(self.folder, name)
        return self._tables[name]

    def info(self, quantity: str, column: str = "value"):
        """A value (or text) of ``data_summary.csv``; None when missing or empty."""
        d = self["data_summary"]
        rows = d[d["quantity"] == quantity] if not d.empty else d
        if rows.empty or pd.isna(rows[column].iloc[0]):
            return None
        return rows[column].iloc[0]

    def notes(self) -> list[str]:
        d = self["data_summary"]
        return [] if d.empty else d.loc[d["quantity"] == "note", "text"].dropna().astype(str).tolist()

    def published_ratings(self) -> bool | None:
        """Whether the ratings are the paper's; None when the run's data summary does not say."""
        published = self.info("published_ratings")
        return None if published is None else bool(published)

    def missing(self, *names: str) -> bool:
        """Whether any of the tables ``names`` is missing or empty in this run."""
        return any(self[name].empty for name in names)


def _absent(found: Findings, *quantities: str, **extra) -> Findings:
    """``quantities`` as not applicable in this run: the words' sentences naming them are left out."""
    for quantity in quantities:
        found.add(quantity, **extra)
    return found


def _none(*quantities: str) -> pd.DataFrame:
    """A section whose tables this run did not save: every quantity there, none applicable."""
    return _absent(Findings(), *quantities).frame()


def _listed(names, values) -> str:
    """Names with a signed value each, as a list: "尼玛 +0.90, 草泥马 -0.53"."""
    return ", ".join(f"{n} {formatting.number(v, 2, sign=True)}" for n, v in zip(names, values))


def _label(method: str, context: str) -> str:
    return method if context == "n/a" else f"{method} ({context} context)"


def _chance(p: float) -> str:
    """The key of a within-word test's verdict: beyond chance (p < :data:`LEVEL`), within it, or untested."""
    return "untested" if pd.isna(p) else "beyond" if p < LEVEL else "within"


def _picked(frame: pd.DataFrame, *quantities: str) -> pd.DataFrame:
    """The rows of a section's findings naming ``quantities`` (every one must be there)."""
    missing = set(quantities) - set(frame["quantity"])
    if missing:
        raise KeyError(f"no quantity {', '.join(sorted(missing))} in these findings")
    return frame[frame["quantity"].isin(quantities)]


def _data(t: _Saved) -> pd.DataFrame:
    """What the chapter reads (section ``data``, the sentence of its data box, which is HTML:
    file names and notes come escaped): the posts, and whose ratings, from how many
    workbooks, with the notes on students, rows and files left out."""
    published = t.published_ratings()
    return (
        Findings()
        .add("posts", t.info("posts"))
        .add("published_ratings", published)
        .add("ratings", t.info("ratings"))
        .add("workbooks", t.info("workbooks"))
        .add("ratings_file", text="" if published else escape(str(t.info("ratings_file", "text") or "")))
        .add("notes", text=" ".join(f"{escape(n)}." for n in t.notes()))
        .frame()
    )


def _frequencies(t: _Saved) -> pd.DataFrame:
    """Whether the posts, read the way the released counts were made, give the published D
    exactly (section ``frequencies``)."""
    same = t.info("same_as_released")
    return Findings().add("same_as_released", None if same is None else bool(same)).frame()


def _candidates(t: _Saved) -> pd.DataFrame:
    """How many candidates Algorithm 1 made, against the paper's and the released lists
    (section ``candidates``; :func:`~helpers.slang.candidates.candidate_summary`'s table)."""
    if t.missing("candidates"):
        return _none("candidates", "paper_candidates", "identical", "lists")
    table = t["candidates"]
    return (
        Findings()
        .add("candidates", int(table["candidates"].sum()))
        .add("paper_candidates", PAPER_CANDIDATES)
        .add("identical", int(table["identical"].sum()))
        .add("lists", len(table))
        .frame()
    )


def _direction(t: _Saved) -> pd.DataFrame:
    """Which way self-information's pooled ρ points (section ``direction``): the key
    ``negative`` or ``positive`` in every context, else ``mixed`` (the words' verdicts)."""
    if t.missing("homophone_spearman"):
        return _none("scorer", "direction")
    pooled = t["homophone_spearman"]
    si = pooled[pooled["method"] == "self-information"]
    if si.empty:  # no self-information row: no direction to state
        return _none("scorer", "direction")
    way = "negative" if (si["rho"] < 0).all() else "positive" if (si["rho"] > 0).all() else "mixed"
    return Findings().add("scorer", text=si["scorer"].iloc[0] if len(si) else "").add("direction", text=way).frame()


def _within_word(t: _Saved) -> pd.DataFrame:
    """Pooled against within-word ρ per method (group; section ``within_word``), from the
    within-word summary, its per-word ρ and the word levels
    (:func:`~helpers.slang.correlations.word_levels`) of the word whose self-information sits highest."""
    summary, by_word, levels = t["homophone_spearman_within_word"], t["homophone_spearman_by_word"], t["word_levels"]
    found = Findings()
    for _, row in summary.iterrows():
        label = _label(row["method"], row["context"])
        words = by_word[(by_word["method"] == row["method"]) & (by_word["context"] == row["context"])].dropna(
            subset=["rho"]
        )
        tested = pd.notna(row["mean_within_word_rho"])
        (
            found.add("pooled_rho", row["pooled_rho"], group=label)
            .add("per_word", len(words), group=label, text=_listed(words["word"], words["rho"]))
            .add("within_rho", row["mean_within_word_rho"], p=row["p_within_word"], group=label)
            .add("exact", bool(row["exact"]) if tested else None, group=label)
            .add("permutations", row["n_permutations"] if tested else None, group=label)
        )
    if summary.empty:
        _absent(found, "pooled_rho", "per_word", "within_rho", "exact", "permutations")
    own = levels[(levels["candidates"] == "all") & (levels["column"] == "I_no_context")] if not levels.empty else levels
    if len(own):
        top = own.loc[own["above_others"].idxmax()]
        found.add("highest_word", top["mean"], text=top["word"], above_others=top["above_others"])
    else:
        found.add("highest_word")
    return found.frame()


def _coverage(t: _Saved) -> pd.DataFrame:
    """Per word-list rung (group): how many candidates, all and rated, the list has whole,
    how many fell back to listed pieces or to characters, and which corpora it counts
    (section ``coverage``; :func:`~helpers.slang.ladder.word_list_coverage`'s table)."""
    from importlib.metadata import version

    coverage = t["lm_word_list_coverage"]
    found = Findings()
    for rung, g in coverage.groupby("rung", sort=False) if not coverage.empty else ():
        n = g.set_index("found")
        found.add(
            "listed_of",
            int(g["candidates"].iloc[0]),
            group=rung,
            rated=int(g["rated"].sum()),
            text=lm.WORD_LISTS[rung].format(version=version(rung)),
        )
        for found_as in ("word", "pieces", "characters"):
            found.add(
                f"as_{found_as}", int(n["n"].get(found_as, 0)), group=rung, rated=int(n["rated"].get(found_as, 0))
            )
    if coverage.empty:
        _absent(found, "listed_of", "as_word", "as_pieces", "as_characters")
    return found.frame()


def _rungs(frame: pd.DataFrame) -> str:
    """Rungs with their mean within-word ρ, as a list: "kn-2 -0.10, jieba +0.20"."""
    return _listed(frame["rung"], frame["mean_within_word_rho"])


def _ladder_direction(summary: pd.DataFrame | None, ladder: str = "this run") -> pd.DataFrame:
    """The direction of the within-word ρ across the ladder, per context (group; section
    ``ladder_direction``): the same for every scorer or changing with the model, how many
    tests are beyond chance, the best model by held-out perplexity and the Spearman
    correlation of perplexity with the within-word ρ across the rungs (``summary``:
    :func:`~helpers.slang.correlations.ladder_correlations`; ``ladder`` names it in the
    ``ladder`` column, "this run" or "measured")."""
    from scipy.stats import spearmanr

    if summary is None or summary.empty:
        summary = pd.DataFrame(columns=["rung", "context", "n"])
    rungs = summary["rung"].nunique()
    found = Findings().add("rungs", rungs or None, ladder=ladder)
    found.add("ladder_ratings", int(summary["n"].iloc[0]) if rungs else None, ladder=ladder)
    contexts = 0
    for context, g in summary.groupby("context", sort=False):
        g = g.dropna(subset=["mean_within_word_rho"]).sort_values("heldout_perplexity")
        if not len(g):
            continue
        contexts += 1
        neg, pos = g[g["mean_within_word_rho"] < 0], g[g["mean_within_word_rho"] > 0]
        sig = g[g["p_within_word"] < LEVEL]
        best = g.iloc[0]
        trend = spearmanr(g["heldout_perplexity"], g["mean_within_word_rho"]).statistic if len(g) > 2 else None
        at = {"group": context, "ladder": ladder}
        (
            found.add("scorers", len(g), **at)
            .add("same", len(neg) == len(g) or len(pos) == len(g), **at)
            .add("all_negative", len(neg) == len(g), **at)
            .add("all_positive", len(pos) == len(g), **at)
            .add("negative_rungs", len(neg), text=_rungs(neg) or "none", **at)
            .add("positive_rungs", len(pos), text=_rungs(pos) or "none", **at)
            .add("significant", len(sig), **at)
            .add("significant_rungs", text=_rungs(sig), **at)
            .add("best", best["mean_within_word_rho"], text=best["rung"], perplexity=best["heldout_perplexity"], **at)
            .add("trend", trend, **at)
        )
    if not contexts:
        _absent(
            found,
            "scorers",
            "same",
            "all_negative",
            "all_positive",
            "negative_rungs",
            "positive_rungs",
            "significant",
            "significant_rungs",
            "best",
            "trend",
            ladder=ladder,
        )
    return found.frame()


def _limit(t: _Saved) -> pd.DataFrame:
    """What these ratings can separate: the half-width of one ρ's interval at this run's
    number of rated candidates (:func:`~helpers.slang.correlations.resolution`), and with the
    published ratings what rating every candidate would bring (section ``limit``)."""
    within = t["homophone_spearman_within_word"]
    n = int(within["n"].iloc[0]) if len(within) else t.info("ratings")
    if n is None:
        return _none("rated", "half", "published_ratings", "all_candidates", "all_half")
    n = int(n)
    return (
        Findings()
        .add("rated", n)
        .add("half", correlations.resolution(n))
        .add("published_ratings", t.published_ratings())
        .add("all_candidates", PAPER_CANDIDATES)
        .add("all_half", correlations.resolution(PAPER_CANDIDATES))
        .frame()
    )


def _measured_ladder(t: _Saved) -> pd.DataFrame:
    """The committed ladder comparison as this run saved it (section ``measured_ladder``):
    whether one is committed, when, where and how it was measured, from
    ``lm_ladder_measured_record.csv``; its verdict is :func:`_ladder_direction` of
    ``lm_ladder_measured.csv``. Not applicable when the run saved no record."""
    names = (
        "measured",
        "ratings",
        "date",
        "machine",
        "command",
        "chapter_seconds",
        "load_before",
        "load_after",
        "gpt_steps",
    )
    if t.missing("lm_ladder_measured_record"):
        return _none(*names)
    record = t["lm_ladder_measured_record"].set_index("item")
    table = t["lm_ladder_measured"]

    def item(name, column):
        return record.loc[name, column] if name in record.index and pd.notna(record.loc[name, column]) else None

    measured = bool(item("committed", "value")) and len(table) > 0
    found = Findings().add("measured", measured).add("ratings", int(table["n"].iloc[0]) if measured else None)
    for name in ("date", "machine", "command", "chapter_seconds", "load_before", "load_after"):
        found.add(name, text=(item(name, "text") or "") if measured else "")
    return found.add("gpt_steps", item("gpt_steps", "value") if measured else None).frame()


def _algorithm2(t: _Saved) -> pd.DataFrame:
    """The two readings of Algorithm 2's top k compared on this run's candidates and ratings
    (section ``algorithm2``): picks they share, and per reading its rated picks and their
    mean rating (``top_ratings.csv``: :func:`~helpers.slang.candidates.top_ratings`)."""
    if t.missing("top_homophones", "top_ratings") or t.info("top_k") is None:
        return _none(
            "k",
            "k_minus_one",
            "shared",
            "picks",
            *(f"{name}_{part}" for name in ("printed", "chapter") for part in ("listed", "rated", "mean")),
        )
    top, k = t["top_homophones"], int(t.info("top_k"))
    literal = top[top["method"] == hc.PERCENTILE_AS_PRINTED]
    chapter = top[top["method"] == hc.PERCENTILE_TOP]
    shared = sum(
        len(set(literal.loc[literal["word"] == w, "candidate"]) & set(chapter.loc[chapter["word"] == w, "candidate"]))
        for w in chapter["word"].unique()
    )
    found = Findings().add("k", k).add("k_minus_one", k - 1).add("shared", shared).add("picks", len(chapter))
    fare = t["top_ratings"].drop_duplicates("method").set_index("method")
    for name, method in (("printed", hc.PERCENTILE_AS_PRINTED), ("chapter", hc.PERCENTILE_TOP)):
        r = fare.loc[method]
        (
            found.add(f"{name}_listed", int(r["listed"]))
            .add(f"{name}_rated", int(r["rated"]))
            .add(f"{name}_mean", r["mean_rating"] if r["rated"] else None)
        )
    return found.frame()


def _overlap(t: _Saved) -> pd.DataFrame:
    """Per ranking (group): how many of the paper's human top 5 (its Table 8) it puts in its own
    top k (section ``overlap``)."""
    if t.missing("top_homophones") or t.info("top_k") is None:
        return _none("paper_top", "k", "hits")
    top, k = t["top_homophones"], int(t.info("top_k"))
    table8 = read_published("homophones", "table8_human_top5")
    found = Findings().add("paper_top", len(table8)).add("k", k)
    for (method, context), g in top.groupby(["method", "context"], sort=False):
        hits = sum(
            len(set(g.loc[g["word"] == w, "candidate"]) & set(table8.loc[table8["word"] == w, "candidate"]))
            for w in hd.SLANG
        )
        found.add("hits", hits, group=_label(method, context))
    return found.frame()


def _emotion(t: _Saved) -> pd.DataFrame:
    """How often a homophone changes the predicted emotion (sections ``perturbation`` and
    ``emotion``; :func:`~helpers.slang.emotion.consistency_table`'s table, row G0 the
    original posts)."""
    if t.missing("emotion_consistency"):
        return _none("posts", "source", "groups", "changed_least", "changed_most", "gold_g0", "gold_least", "gold_most")
    consistency = t["emotion_consistency"]
    replaced = consistency[consistency["group"] != "G0"]
    changed = 1 - replaced["same_as_original"]
    g0 = consistency.loc[consistency["group"] == "G0", "same_label"]
    some = len(replaced) > 0
    return (
        Findings()
        .add("posts", int(consistency["n"].iloc[0]))
        .add("source", text=t.info("perturbation_source", "text"))
        .add("groups", len(replaced))
        .add("changed_least", changed.min() if some else None)
        .add("changed_most", changed.max() if some else None)
        .add("gold_g0", g0.iloc[0] if len(g0) else None)
        .add("gold_least", replaced["same_label"].min() if some else None)
        .add("gold_most", replaced["same_label"].max() if some else None)
        .frame()
    )


def _closing(t: _Saved) -> pd.DataFrame:
    """Chapter 6's closing findings (section ``findings``), every number from this run's
    tables: the sections :func:`_candidates`, :func:`_algorithm2`, :func:`_limit`,
    :func:`_emotion` and :func:`_ladder_direction` as they were stated, with the pooled and
    within-word ρ, the word levels and the emotion classifier's macro-F1."""
    summary, by_word, levels = t["homophone_spearman_within_word"], t["homophone_spearman_by_word"], t["word_levels"]
    found = Findings()
    found.add("ratings", t.info("ratings")).add("rated_words", t.info("rated_words"))
    summary = summary if len(summary) else pd.DataFrame(columns=["method", "context"])
    stated = summary[summary["method"].isin(("self-information", hc.PERCENTILE_TOP)) & (summary["context"] != "with")]
    if stated.empty:
        _absent(
            found,
            "pooled",
            "fisher",
            "word_rhos",
            "lowest_word_rho",
            "highest_word_rho",
            "negative_words",
            "mean_within",
        )
    for _, row in stated.iterrows():
        label = _label(row["method"], row["context"])
        words = by_word[(by_word["method"] == row["method"]) & (by_word["context"] == row["context"])].dropna(
            subset=["rho"]
        )
        (
            found.add(
                "pooled",
                row["pooled_rho"],
                group=label,
                ci=(row["pooled_jackknife_ci_low"], row["pooled_jackknife_ci_high"]),
                n_words=int(row["n_words"]),
                n=int(row["n"]),
            ).add(
                "fisher", row["pooled_rho"], group=label, ci=stats.spearman_interval(row["pooled_rho"], int(row["n"]))
            )
        )
        found.add("word_rhos", len(words), group=label)
        if len(words):
            lowest, highest = words.loc[words["rho"].idxmin()], words.loc[words["rho"].idxmax()]
            (
                found.add("lowest_word_rho", lowest["rho"], group=label, text=lowest["word"])
                .add("highest_word_rho", highest["rho"], group=label, text=highest["word"])
                .add("negative_words", int((words["rho"] < 0).sum()), group=label)
            )
        else:
            _absent(found, "lowest_word_rho", "highest_word_rho", "negative_words", group=label)
        found.add(
            "mean_within",
            row["mean_within_word_rho"],
            p=row["p_within_word"],
            group=label,
            text=_chance(row["p_within_word"]),
        )
    si = summary[(summary["method"] == "self-information") & (summary["context"] == "without")]
    if len(si) and pd.notna(si["mean_within_word_rho"].iloc[0]):
        lean, p = si["mean_within_word_rho"].iloc[0], si["p_within_word"].iloc[0]
        (
            found.add("lean", lean, p=p, n=int(si["n"].iloc[0]))
            .add("lean_negative", bool(lean < 0))
            .add("lean_established", bool(p < LEVEL))
        )
    else:
        _absent(found, "lean", "lean_negative", "lean_established")
    gaps = 0
    for column, (method, context) in correlations.METHOD_COLUMNS.items():
        row = summary[(summary["method"] == method) & (summary["context"] == context)]
        rated = levels[(levels["candidates"] == "rated") & (levels["column"] == column)] if not levels.empty else levels
        if not len(rated) or not len(row) or pd.isna(row["mean_within_word_rho"].iloc[0]):
            continue
        row, far = row.iloc[0], rated.loc[rated["above_others"].abs().idxmax()]
        label, gaps = _label(method, context), gaps + 1
        (
            found.add(
                "gap",
                row["pooled_rho"] - row["mean_within_word_rho"],
                group=label,
                pooled=row["pooled_rho"],
                within=row["mean_within_word_rho"],
            )
            .add("far_word", far["above_others"], group=label, text=far["word"])
            .add("unit", group=label, text=column)
        )
    if not gaps:
        _absent(found, "gap", "far_word", "unit")
    scores = t["emotion_classifier"].set_index("metric")["value"] if len(t["emotion_classifier"]) else {}
    found.add("macro_f1", scores.get("macro_f1")).add("train_posts", t.info("train_posts"))
    picked = [
        _candidates(t),
        _picked(
            _algorithm2(t), "k", "shared", "picks", "printed_rated", "printed_mean", "chapter_rated", "chapter_mean"
        ),
        _limit(t),
        _picked(_emotion(t), "posts", "source", "groups", "changed_least", "changed_most"),
        _ladder_direction(t["lm_ladder"]),
    ]
    return pd.concat([found.frame(), *picked], ignore_index=True)


def findings(folder, section: str | None = None, ladder: str = "this run") -> pd.DataFrame:
    """Chapter 6's findings, recomputed from its saved result CSVs (:data:`~helpers.slang.ch06.FINDINGS_INPUTS`) alone,
    the committed measured ladder included as the run saved it (:func:`~helpers.slang.ch06.measured_ladder`,
    :func:`~helpers.slang.ch06.measured_ladder_record`). Every quantity is always present; one whose table is
    missing or empty is not applicable (its sentence drops out of the words).

    ``section`` (one of :data:`SECTIONS`): that section's rows, for the words to state, read
    from the tables it needs only (so a section can be stated as soon as its tables are saved);
    ``ladder`` says which ladder ``ladder_direction`` is about: "this run" or "measured".
    Without a section: every section's rows in the page's order with their ``section``, the
    chapter's ``findings.csv``; ``ladder_direction`` is stated for this run's ladder and for
    the measured one when the run saved one (column ``ladder``). A verdict is a key in ``text`` (``direction``:
    negative, positive or mixed; ``mean_within``: beyond, within or untested; ``unit``: the
    score column), phrased by the words' ``## verdicts`` table.

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS` plus extra columns some quantities use.
    """
    t = _Saved(folder)
    if section is not None:
        params.choice("section", section, SECTIONS)
        params.choice("ladder", ladder, ("this run", "measured"))
        if section == "ladder_direction" and ladder == "measured":
            return _ladder_direction(t["lm_ladder_measured"], "measured")
        return _section(t, section)
    frames = []
    for name in SECTIONS:
        frames.append(_section(t, name).assign(section=name))
        if name == "measured_ladder" and not t.missing("lm_ladder_measured"):
            frames.append(_ladder_direction(t["lm_ladder_measured"], "measured").assign(section="ladder_direction"))
    frame = pd.concat(frames, ignore_index=True)
    return frame[COLUMNS + ["section"] + [c for c in frame.columns if c not in COLUMNS and c != "section"]]


def _section(t: _Saved, name: str) -> pd.DataFrame:
    """One section's rows (without the ``section`` column)."""
    if name == "measured_ladder":
        return _measured_ladder(t)
    if name == "ladder_direction":
        return _ladder_direction(t["lm_ladder"])
    return {
        "data": _data,
        "frequencies": _frequencies,
        "candidates": _candidates,
        "direction": _direction,
        "within_word": _within_word,
        "coverage": _coverage,
        "limit": _limit,
        "algorithm2": _algorithm2,
        "overlap": _overlap,
        "perturbation": _emotion,
        "emotion": _emotion,
        "findings": _closing,
    }[name](t)
