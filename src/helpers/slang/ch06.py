"""What chapter 06 (Chinese homophone slang) needs besides the methods: checked parameters,
data with provenance, the chapter's views and its findings.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks every
parameter before any work (types, files, their columns, checkpoint folders, and for a ratings
file that every rated candidate is one Algorithm 1 generates) and raises
:class:`~helpers.core.errors.InputError` naming what is wrong. ``setup.load()`` returns
:class:`Data`: the SMP2020-EWECT posts, the character-frequency dictionary D rebuilt from them,
Algorithm 1's candidates and the human ratings, with their
:class:`~helpers.core.book.report.Provenance`. :func:`description` is the run's data-summary table.
The analysis steps are the study's method modules (:mod:`~helpers.slang.candidates`,
:mod:`~helpers.slang.correlations`, :mod:`~helpers.slang.language_models`,
:mod:`~helpers.slang.emotion`); :func:`ladder_inputs` gives the ladder its texts, and
:func:`by_word_view` and :func:`ladder_view` shape two tables for reading. :func:`findings`
reads the saved result CSVs back by their public names (:data:`FINDINGS_INPUTS`) and returns
every number the page states, section by section, so the findings can be recomputed and tested
from ``results/06_homophones/*.csv`` alone; the sentences are ``notebooks/words/06_homophones.md``.
The committed measurement of the whole ladder is ``tools/measure_lm_ladder.py``'s; the chapter
saves it with its record among its results (:func:`measured_ladder`, :func:`measured_ladder_record`),
so that :func:`findings` reads the run's folder only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from html import escape
from pathlib import Path

import pandas as pd

from ..core import classroom, params, paths
from ..core.book import formatting
from ..core.book.findings import COLUMNS, Findings
from ..core.book.report import ChapterData, Provenance
from ..core.book.results import read_saved
from ..core.errors import InputError
from ..core.formats import measured as measurements
from ..core.formats.published import read_published
from ..core.statistics import stats
from . import candidates as hc
from . import correlations, emotion, ladder
from . import homophone_data as hd
from . import language_models as lm
from . import template as kit

PERTURBATION_SOURCES = (
    "paper_table8",
    hc.PERCENTILE_TOP,
    hc.PERCENTILE_AS_PRINTED,
    "self-information, most probable",
    "self-information, most informative",
)
#: Candidates Algorithm 1 made in the paper (§3.1); its Tables 2–3 correlate all of them.
PAPER_CANDIDATES = 172
#: The level of the chapter's verdicts on within-word tests.
LEVEL = 0.05


@dataclass(frozen=True)
class Data(ChapterData):
    posts: pd.DataFrame = None  # SMP2020-EWECT: split, label, text
    frequencies: dict = None  # D rebuilt from the posts
    candidates: dict = None  # slang word -> Algorithm 1 candidates
    ratings: pd.DataFrame = None  # word, candidate, avg_score
    ratings_are_table8: bool = True


@dataclass(frozen=True)
class Setup:
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
    lm_ladder: tuple = ladder.DEFAULT_LADDER  # rungs of the language-model ladder
    gpt_steps: int = 60  # training steps of each transformer rung
    classifier_posts: int | None = None  # training posts of the emotion classifier (None: all)
    n_workbooks: int = 0  # workbooks whose ratings count (ratings_files lists their folder when projected)

    def load(self) -> Data:
        """The data box: the released posts and D, the candidates and the ratings (the paper's Table 8,
        or the ``ratings_file``)."""
        files = [
            paths.released_file(hd.HOMO_REPO, f)
            for f in ("SMP2020/train.tsv", "SMP2020/dev.tsv", "SMP2020/test.tsv", "weibo_char_freq.json")
        ]
        table8 = self.ratings is None
        ratings = (
            read_published("homophones", "table8_human_top5").astype({"avg_score": float}) if table8 else self.ratings
        )
        files += list(self.ratings_files)
        return Data(
            Provenance("released" if table8 else "own", tuple(map(str, files))),
            self.posts,
            self.frequencies,
            self.candidates,
            ratings,
            table8,
        )


def ratings_sources(name: str, value) -> tuple[str, list]:
    """What a ratings parameter names: ``("csv", [file])``, or ``("workbooks", [files])`` for
    one .xlsx, a folder of them (every ``*.xlsx`` in it) or a list of them."""
    if isinstance(value, (list, tuple)):
        if not value:
            raise InputError("is an empty list", parameter=name, value=list(value), expected="one or more .xlsx files")
        return "workbooks", [params.existing_file(f"{name}[{k}]", v, suffixes=(".xlsx",)) for k, v in enumerate(value)]
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise InputError(
            "must be a CSV file, a folder of workbooks or a list of workbooks", parameter=name, value=value
        )
    try:
        path = paths.resolve_input(value)
    except FileNotFoundError as exc:
        raise InputError(f"not found ({exc})", parameter=name, value=str(value)) from None
    if path.is_dir():
        return "workbooks", list(classroom.gather(path, name, strict=False).files)
    if path.suffix.lower() == ".xlsx":
        return "workbooks", [path]
    return "csv", [params.existing_file(name, value)]


def read_ratings(
    name: str, path, candidates: dict, unfinished: str = "stop", projection=False, results_dir="results"
) -> kit.ClassRatings:
    """Human ratings checked against the generated candidates: every word must be one of
    the five slang words and every candidate one Algorithm 1 made.

    ``path`` is a CSV ``word, candidate, avg_score`` (one average per candidate), or the
    class's returned workbooks of ``.venv/bin/python -m helpers template homophones`` (a folder, one
    .xlsx or a list of them), averaged over the raters of each candidate
    (:func:`helpers.slang.template.read_class_ratings`; adds ``n_raters``; ``unfinished``
    says what rows not marked done mean; ``projection`` whether the notes and files name the
    students, see :meth:`helpers.slang.template.ClassRatings.for_page`). Every wrong entry
    raises :class:`InputError` naming the parameter, workbook, sheet, cell and value."""
    kind, files = ratings_sources(name, path)
    if kind == "workbooks":
        folder = classroom.gather(path, name, strict=False)
        try:
            loaded = kit.read_class_ratings(
                files, candidates, unfinished, folder.notes(), folder.unusable, folder.mentioned()
            )
        except InputError as exc:
            raise exc.located(parameter=name) from None
        return loaded.for_page(projection, results_dir)
    path = params.csv_with_columns(name, files[0], ["word", "candidate", "avg_score"])
    ratings = pd.read_csv(path, dtype={"word": str, "candidate": str})
    for i, r in ratings.iterrows():
        if r["word"] not in candidates:
            raise InputError(
                "is not one of the five slang words",
                parameter=name,
                file=path,
                row=i + 2,
                column="word",
                value=r["word"],
                expected=" or ".join(candidates),
            )
        if pd.isna(r["avg_score"]):
            raise InputError("rating is empty", parameter=name, file=path, row=i + 2, column="avg_score", value="")
    unmatched = [
        (i + 2, w, c)
        for i, (w, c) in enumerate(zip(ratings["word"], ratings["candidate"]))
        if c not in set(candidates[w])
    ]
    if unmatched:
        line, word, cand = unmatched[0]
        listed = ", ".join(f"{c} ({w}, row {n})" for n, w, c in unmatched[:8])
        raise InputError(
            f"{len(unmatched)} rated candidate(s) are not among the generated candidates: {listed}",
            parameter=name,
            file=path,
            row=line,
            column="candidate",
            value=cand,
            expected=f"a candidate Algorithm 1 generates for {word}",
        )
    dup = ratings.duplicated(["word", "candidate"], keep=False)
    if dup.any():
        i = ratings.index[dup][0]
        raise InputError(
            "the same (word, candidate) is rated twice; give one average per candidate",
            parameter=name,
            file=path,
            row=int(i) + 2,
            column="candidate",
            value=ratings.loc[i, "candidate"],
        )
    return kit.ClassRatings(ratings, (str(path),))


def setup(
    threshold=100,
    heteronym=False,
    kn_order=3,
    hf_model=None,
    hf_kind="causal",
    context_posts=30,
    ratings_file=None,
    perturbation_source="paper_table8",
    top_k=5,
    c_grid=(2.0, 8.0, 32.0),
    focus_word="尼玛",
    n_perm=10000,
    seed=0,
    results_dir="results",
    unfinished="stop",
    lm_ladder=ladder.DEFAULT_LADDER,
    gpt_steps=60,
    classifier_posts=None,
    projection=None,
) -> Setup:
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
    lm_ladder = params.choices("lm_ladder", lm_ladder, ladder.LADDER_RUNGS)
    gpt_steps = params.integer("gpt_steps", gpt_steps, minimum=1, maximum=100_000)
    posts = hd.load_smp2020()
    if classifier_posts is not None:
        classifier_posts = params.integer(
            "classifier_posts", classifier_posts, minimum=100, maximum=int((posts["split"] == "train").sum())
        )
    freq = hd.char_frequencies(posts["text"])
    inventory = hc.syllable_inventory(tone=False, heteronym=heteronym)
    cands = {
        w: hc.candidates(w, freq, threshold=threshold, heteronym=heteronym, roots=roots, inventory=inventory)
        for w, roots in hd.SLANG_ROOTS.items()
    }
    unfinished = classroom.unfinished_choice(unfinished)
    projection = None if projection is None else params.boolean("projection", projection)
    loaded = (
        None
        if ratings_file is None
        else read_ratings("ratings_file", ratings_file, cands, unfinished, projection, results_dir)
    )
    return Setup(
        threshold,
        heteronym,
        kn_order,
        model,
        hf_kind,
        context_posts,
        None if loaded is None else loaded.ratings,
        None if ratings_file is None else str(ratings_file),
        perturbation_source,
        top_k,
        grid,
        posts,
        freq,
        cands,
        focus_word,
        n_perm,
        seed,
        () if loaded is None else loaded.files,
        () if loaded is None else loaded.notes,
        lm_ladder,
        gpt_steps,
        classifier_posts,
        0 if loaded is None else len(loaded.students) or len(loaded.files),
    )


def description(box: Data, setup: Setup) -> pd.DataFrame:
    """The run's data in one table (``data_summary.csv``): ``quantity, value, text``.

    The posts; whose ratings (``published_ratings``: the paper's Table 8), how many and of how
    many slang words, from how many workbooks and which ``ratings_file``, with one ``note`` row
    per student, row or file left out of the class's ratings; whether the posts, read the way
    the released counts were made (pandas' default CSV quoting, spaces removed), give the
    published D exactly (``same_as_released``); the ``top_k``, the ``perturbation_source`` of
    the emotion check and how many posts the emotion classifier is fitted on (``train_posts``,
    :func:`~helpers.slang.emotion.training_posts`).
    """
    own = not box.ratings_are_table8
    train = box.posts[box.posts["split"] == "train"]
    same = hd.released_reading_frequencies() == hd.published_frequencies()
    rows = [
        ("posts", len(box.posts), ""),
        ("published_ratings", int(box.ratings_are_table8), ""),
        ("ratings", len(box.ratings), ""),
        ("rated_words", box.ratings["word"].nunique(), ""),
        ("workbooks", setup.n_workbooks if own and "n_raters" in box.ratings else None, ""),
        ("ratings_file", None, str(setup.ratings_file) if own else ""),
        *(("note", None, note) for note in setup.ratings_notes),
        ("same_as_released", int(same), ""),
        ("top_k", setup.top_k, ""),
        ("perturbation_source", None, setup.perturbation_source),
        ("train_posts", len(emotion.training_posts(train, setup.classifier_posts, seed=setup.seed)), ""),
    ]
    return pd.DataFrame(rows, columns=["quantity", "value", "text"])


@dataclass(frozen=True)
class LadderInputs:
    """What every rung of the ladder is trained and measured on: the training posts, the
    held-out text (the first 300 dev posts, each cut to 60 characters) and the left
    contexts of self-information with context (dev/test posts with the slang)."""

    train_texts: list
    heldout: list
    contexts: dict


def ladder_inputs(setup: Setup) -> LadderInputs:
    """The ladder's :class:`LadderInputs` from chapter 6's posts."""
    posts = setup.posts
    return LadderInputs(
        posts.loc[posts["split"] == "train", "text"].tolist(),
        lm.heldout_texts(posts.loc[posts["split"] == "dev", "text"]),
        hd.slang_contexts(posts[posts["split"] != "train"], setup.context_posts),
    )


# --------------------------------------------------------------------------- views for reading


def by_word_view(by_word: pd.DataFrame) -> pd.DataFrame:
    """Per-word ρ as a compact grid: one row per method and context, one column per word,
    cells "ρ (permutation p)"."""
    cell = [
        ("NA" if pd.isna(r) else f"{formatting.number(r, 2, sign=True)} (p {formatting.number(p)})")
        for r, p in zip(by_word["rho"], by_word["p_permutation"])
    ]
    grid = by_word.assign(cell=cell).pivot_table(
        index=["method", "context"], columns="word", values="cell", aggfunc="first", sort=False
    )
    grid.columns.name = None
    return grid.reset_index()


def _with_interval(rows: pd.DataFrame, value: str, low: str, high: str) -> list[str]:
    """Cells "+0.12 [−0.30, +0.50]" of a signed value and its interval."""
    return [
        f"{formatting.number(v, 2, sign=True)} {formatting.interval(lo, hi, 2, sign=True)}"
        for v, lo, hi in zip(rows[value], rows[low], rows[high])
    ]


def ladder_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The ladder as one row per rung and context, ordered by held-out perplexity, cells
    ready to read: ρ with their intervals and the within-word p."""
    rows = summary.sort_values(["context", "heldout_perplexity"], ascending=[False, True])
    return pd.DataFrame(
        {
            "rung": rows["rung"],
            "family": rows["family"],
            "context": rows["context"],
            "parameters": rows["parameters"],
            "perplexity": rows["heldout_perplexity"].round(1),
            "pooled ρ [word jackknife]": _with_interval(
                rows, "pooled_rho", "pooled_jackknife_ci_low", "pooled_jackknife_ci_high"
            ),
            "mean within-word ρ [t over words]": _with_interval(
                rows, "mean_within_word_rho", "within_ci_low", "within_ci_high"
            ),
            "p within words": rows["p_within_word"].round(3),
        }
    ).reset_index(drop=True)


# --------------------------------------------------------------------------- findings, from the saved CSVs

#: The result files :func:`findings` reads (``results/06_homophones/<name>.csv``).
FINDINGS_INPUTS = (
    "data_summary",
    "candidates",
    "homophone_spearman",
    "homophone_spearman_by_word",
    "homophone_spearman_within_word",
    "word_levels",
    "lm_word_list_coverage",
    "lm_ladder",
    "lm_ladder_measured",
    "lm_ladder_measured_record",
    "top_homophones",
    "top_ratings",
    "emotion_classifier",
    "emotion_consistency",
)
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


#: The committed measurement of the whole ladder (``data/measured/<name>.csv`` and ``.yml``),
#: made by ``tools/measure_lm_ladder.py``.
MEASURED = "lm_ladder_comparison"


def measured_ladder() -> pd.DataFrame:
    """The committed measured ladder (:data:`MEASURED`), as
    :func:`~helpers.slang.correlations.ladder_correlations`' summary with seconds; empty when
    none is committed. The chapter saves it as ``lm_ladder_measured.csv``."""
    table = measurements.read(MEASURED)[0]
    return table if table is not None else pd.DataFrame()


def measured_ladder_record() -> pd.DataFrame:
    """The committed ladder comparison's record (``data/measured/<MEASURED>.yml``), as the
    chapter saves it (``lm_ladder_measured_record.csv``): ``item, group, value, text`` with
    ``committed`` (1 or 0), and when one is, its ``date``, ``machine``, ``command``,
    ``chapter_seconds``, load averages ``load_before`` and ``load_after`` and ``gpt_steps``."""
    table, record = measurements.read(MEASURED)
    committed = table is not None and len(table) > 0
    rows = [("committed", "", int(committed), "")]
    if committed:
        rows += [
            (name, "", None, str(record[name]))
            for name in ("date", "machine", "command", "chapter_seconds")
            if record.get(name)
        ]
        for name in ("before", "after"):
            load = record.get(f"load_average_{name}")
            if load:
                rows.append(
                    (
                        f"load_{name}",
                        "",
                        None,
                        ", ".join(map(str, load)) if isinstance(load, (list, tuple)) else str(load),
                    )
                )
        steps = (record.get("settings") or {}).get("gpt_steps")
        if steps is not None:
            rows.append(("gpt_steps", "", float(steps), ""))
    return pd.DataFrame(rows, columns=["item", "group", "value", "text"])


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
    """Chapter 6's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone,
    the committed measured ladder included as the run saved it (:func:`measured_ladder`,
    :func:`measured_ladder_record`). Every quantity is always present; one whose table is
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
