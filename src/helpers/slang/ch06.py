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
(in :mod:`helpers.slang.ch06_findings`, re-exported here)
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

import pandas as pd

from ..core import classroom, params, paths
from ..core.book import formatting
from ..core.book.report import ChapterData, Provenance
from ..core.errors import InputError
from ..core.formats import measured as measurements
from ..core.formats.published import read_published
from . import candidates as hc
from . import emotion, ladder
from . import homophone_data as hd
from . import language_models as lm
from . import template as kit
from .ch06_findings import findings as findings

PERTURBATION_SOURCES = (
    "paper_table8",
    hc.PERCENTILE_TOP,
    hc.PERCENTILE_AS_PRINTED,
    "self-information, most probable",
    "self-information, most informative",
)


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


# --------------------------------------------------------------------------- the committed measured ladder

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
