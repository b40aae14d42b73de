"""What chapter 6 needs besides the methods: checked parameters and data with provenance
(chapter 7's is :mod:`helpers.slang.ch07`, which shares a few helpers with it here).

``homophones_setup`` checks every parameter before any work (types, files, their columns,
checkpoint folders, and for a ratings file that every rated candidate is one Algorithm 1
generates) and raises :class:`~helpers.core.errors.InputError` naming what is wrong.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pandas as pd

from html import escape

from ..core import classroom, formatting, params, paths, stats
from ..core.errors import InputError
from ..core.findings import Findings
from ..core.published import read_published
from ..core.report import ChapterData, Provenance
from . import candidates as hc
from . import correlations
from . import homophone_data as hd
from . import language_models as lm
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


# --------------------------------------------------------------------------- shared by chapters 6 and 7


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


def _machine_record(started: str, load_before) -> dict:
    """Where and under what load a measurement in data/measured/ was made."""
    import platform

    return {"date": started, "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} "
                                        f"{platform.release()}, Python {platform.python_version()}",
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()]}


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
