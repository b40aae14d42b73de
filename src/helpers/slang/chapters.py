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

from ..core import params, paths
from ..core.errors import InputError
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

    def load(self) -> HomophoneData:
        files = [paths.released_file(hp.HOMO_REPO, f) for f in (
            "SMP2020/train.tsv", "SMP2020/dev.tsv", "SMP2020/test.tsv", "weibo_char_freq.json")]
        table8 = self.ratings is None
        ratings = read_published("homophones", "table8_human_top5").astype({"avg_score": float}) if table8 \
            else self.ratings
        raters = "" if table8 or "n_raters" not in ratings else (
            f" from {len(self.ratings_files)} workbook(s), averaged over the raters of each candidate")
        detail = (f"{len(self.posts)} SMP2020-EWECT Weibo posts (labels 0–5) and the released frequency dictionary and "
                  "candidate lists of shenbinqian/homo_gen (CC BY-SA 4.0). Human ratings: "
                  + ("the paper's Table 8 (25 items), entered by hand." if table8 else
                     f"{len(ratings)} rated candidates{raters} (<code>{self.ratings_file}</code>)."))
        files += list(self.ratings_files)
        return HomophoneData(Provenance("released" if table8 else "own", tuple(map(str, files)), detail), self.posts,
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
        books = sorted(p for p in path.glob("*.xlsx") if not p.name.startswith("~$"))
        if not books:
            raise InputError("the folder holds no .xlsx workbook", parameter=name, value=str(value),
                             expected="the returned rating workbooks")
        return "workbooks", books
    if path.suffix.lower() == ".xlsx":
        return "workbooks", [path]
    return "csv", [params.existing_file(name, value)]


def read_homophone_ratings(name: str, path, candidates: dict) -> pd.DataFrame:
    """Human ratings checked against the generated candidates: every word must be one of
    the five slang words and every candidate one Algorithm 1 made.

    ``path`` is a CSV ``word, candidate, avg_score`` (one average per candidate), or the
    class's returned workbooks of ``python -m helpers template homophones`` (a folder, one
    .xlsx or a list of them), averaged over the raters of each candidate
    (:func:`helpers.slang.homophones.read_rating_workbooks`; adds ``n_raters``). A wrong
    entry raises :class:`InputError` naming the parameter, workbook, sheet, cell and value."""
    kind, files = ratings_sources(name, path)
    if kind == "workbooks":
        try:
            return hp.read_rating_workbooks(files, candidates)
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
    return ratings


def homophones_setup(threshold=100, heteronym=False, kn_order=3, hf_model=None, hf_kind="causal",
                     context_posts=30, ratings_file=None, perturbation_source="paper_table8", top_k=5,
                     c_grid=(2.0, 8.0, 32.0), focus_word="尼玛", n_perm=10000, seed=0,
                     results_dir="results") -> HomophonesSetup:
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
    posts = hp.load_smp2020()
    freq = hp.char_frequencies(posts["text"])
    inventory = hp.syllable_inventory(tone=False, heteronym=heteronym)
    cands = {w: hp.candidates(w, freq, threshold=threshold, heteronym=heteronym, roots=roots, inventory=inventory)
             for w, roots in hp.SLANG_ROOTS.items()}
    ratings = None if ratings_file is None else read_homophone_ratings("ratings_file", ratings_file, cands)
    files = () if ratings_file is None else tuple(map(str, ratings_sources("ratings_file", ratings_file)[1]))
    return HomophonesSetup(threshold, heteronym, kn_order, model, hf_kind, context_posts, ratings,
                           None if ratings_file is None else str(ratings_file), perturbation_source, top_k, grid,
                           posts, freq, cands, focus_word, n_perm, seed, files)


def frequency_note(same_as_released: bool):
    """Why the published D differs from the posts' own character counts."""
    from IPython.display import Markdown

    return Markdown(
        "Read the way the released counts were made (pandas' default CSV quoting, spaces removed), the corpus gives "
        + ("**exactly** the published dictionary. " if same_as_released else "a dictionary that still differs. ")
        + "With default quoting a double quote inside a post opens a quoted field that runs into the next lines, so "
        "their tabs, newlines and label digits are counted as characters: that is where the published extra `\\t`, "
        "`\\n` and 0–5 come from. The book counts the posts as they are (quotes are characters); for Chinese "
        "characters the two dictionaries agree, so candidate filtering is unaffected.")


def candidate_note(candidate_table: pd.DataFrame):
    """How many candidates Algorithm 1 made, against the paper's 172 and the released lists."""
    from IPython.display import Markdown

    return Markdown(f"In total **{candidate_table['candidates'].sum()} candidates** (the paper: 172); "
                    f"{int(candidate_table['identical'].sum())} of {len(candidate_table)} lists are identical to the "
                    "released ones. `tone_aware` keeps only characters with the same tone as the slang's dictionary "
                    "reading; `all_readings` lists polyphonic characters under every reading.")


def direction_note(spearman: pd.DataFrame, scorer_name: str):
    """Which direction self-information correlates with the ratings."""
    from IPython.display import Markdown

    si = spearman[spearman["method"] == "self-information"]
    direction = ("negative: candidates the language model finds *more probable* (lower I) were rated higher"
                 if (si["rho"] < 0).all() else "positive: more informative candidates (higher I) were rated higher"
                 if (si["rho"] > 0).all() else "mixed")
    return Markdown(f"With the `{scorer_name}` scorer the correlation of I with the ratings is {direction}. The "
                    "paper reports positive ρ for its large models and states a preference for informative "
                    "candidates, so the top lists below show both directions.")


def overlap_note(top: pd.DataFrame, table8: pd.DataFrame, k: int):
    """How many of the paper's human top 5 each ranking puts in its own top k."""
    from IPython.display import Markdown

    lines = []
    for (method, context), g in top.groupby(["method", "context"], sort=False):
        hits = sum(len(set(g[g["word"] == w]["candidate"]) & set(table8[table8["word"] == w]["candidate"]))
                   for w in hp.SLANG)
        lines.append(f"* {method} ({context} context): {hits} of {len(table8)} of the paper's human top-5 are in its "
                     f"top {k}.")
    return Markdown("\n".join(lines))


def consistency_note(consistency: pd.DataFrame):
    """How often a homophone changes the predicted emotion."""
    from IPython.display import Markdown

    changed = 1 - consistency.loc[consistency["group"] != "G0", "same_as_original"]
    return Markdown(
        f"Replacing the slang changes the predicted emotion of {changed.min():.0%}–{changed.max():.0%} of these posts "
        f"(G1–G{len(changed)}); agreement with the gold label moves from {consistency.loc[0, 'same_label']:.3f} (G0) "
        f"to {consistency['same_label'].iloc[1:].min():.3f}–{consistency['same_label'].iloc[1:].max():.3f}.")


def _verdict(p: float) -> str:
    if pd.isna(p):
        return "cannot be tested here"
    return "unlikely to be chance (p < 0.05)" if p < 0.05 else "not distinguishable from chance at the 5% level"


def _test_kind(row) -> str:
    return (f"exact over {row['n_permutations']:.3g} permutations" if row["exact"]
            else f"{row['n_permutations']} seeded permutations")


def word_levels(scores: pd.DataFrame, column: str = "I_no_context") -> pd.DataFrame:
    """Mean score per slang word over all its candidates, and its distance from the mean of
    the other words (``word, candidates, mean, above_others``): how far apart the words sit
    before any candidate is ranked."""
    means = scores.groupby("word", sort=False)[column].agg(["size", "mean"])
    others = [(means["mean"].sum() - m) / (len(means) - 1) if len(means) > 1 else float("nan")
              for m in means["mean"]]
    return pd.DataFrame({"word": means.index, "candidates": means["size"].to_numpy(), "mean": means["mean"].to_numpy(),
                         "above_others": means["mean"].to_numpy() - others})


def within_word_note(summary: pd.DataFrame, by_word: pd.DataFrame, scores: pd.DataFrame):
    """Pooled against within-word ρ, in words, from this run's tables."""
    from IPython.display import Markdown

    lines = []
    for _, row in summary.iterrows():
        words = by_word[(by_word["method"] == row["method"]) & (by_word["context"] == row["context"])]
        per_word = ", ".join(f"{w} {r:+.2f}" for w, r in zip(words["word"], words["rho"]) if pd.notna(r))
        lines.append(f"* **{row['method']}** ({row['context']} context): pooled ρ = {row['pooled_rho']:+.2f}; "
                     f"within the words {per_word or 'not computable'}; mean {row['mean_within_word_rho']:+.2f}, "
                     f"within-word permutation p = {row['p_within_word']:.3f} ({_test_kind(row)}).")
    levels = word_levels(scores).sort_values("above_others")
    top = levels.iloc[-1]
    lines.append(f"* Before any ranking the words sit at different heights: over all their candidates, {top['word']} "
                 f"forms carry {top['mean']:.1f} bits on average, {top['above_others']:+.1f} bits against the mean of "
                 "the other words. A pooled ρ counts such differences between words together with the ranking "
                 "within each word; the within-word test keeps each word's ratings with its own candidates.")
    return Markdown("\n".join(lines))


def by_word_view(by_word: pd.DataFrame) -> pd.DataFrame:
    """Per-word ρ as a compact grid: one row per method and context, one column per word,
    cells "ρ (permutation p)"."""
    cell = [("NA" if pd.isna(r) else f"{r:+.2f} (p {p:.2f})") for r, p in zip(by_word["rho"], by_word["p_permutation"])]
    grid = by_word.assign(cell=cell).pivot_table(index=["method", "context"], columns="word", values="cell",
                                                 aggfunc="first", sort=False)
    grid.columns.name = None
    return grid.reset_index()


def algorithm2_note(top: pd.DataFrame, ratings: pd.DataFrame, k: int):
    """The two readings of Algorithm 2's top-k, compared on this run's candidates and ratings."""
    from IPython.display import Markdown

    literal = top[top["method"] == hp.PERCENTILE_AS_PRINTED]
    chapter = top[top["method"] == hp.PERCENTILE_TOP]
    shared = sum(len(set(literal.loc[literal["word"] == w, "candidate"]) & set(chapter.loc[chapter["word"] == w,
                                                                                          "candidate"]))
                 for w in chapter["word"].unique())
    fare = hp.top_ratings(top, ratings).set_index("method")

    def rated(method):
        r = fare.loc[method]
        r = r.iloc[0] if isinstance(r, pd.DataFrame) else r
        return (f"{int(r['rated'])} of its {int(r['listed'])} picks are rated"
                + (f" (mean rating {r['mean_rating']:.2f})" if r["rated"] else ""))

    return Markdown(
        f"Algorithm 2 sorts the candidates by F *ascending* and returns P[1:{k}]. Read literally (1-based, "
        f"inclusive) these are the **{k} least frequent** candidates; read with Python's slicing they would be "
        f"{k - 1} candidates starting from the second least frequent. Yet the percentile it computes gives the most "
        f"frequent candidate 100, and the baseline it cites ranks the most frequent forms first, so the chapter "
        f"takes the {k} **highest percentiles**. The two readings share {shared} of {len(chapter)} picks. "
        f"As printed, {rated(hp.PERCENTILE_AS_PRINTED)}; in the chapter's reading, {rated(hp.PERCENTILE_TOP)}.")


def homophones_findings(candidate_table: pd.DataFrame, summary: pd.DataFrame, by_word: pd.DataFrame,
                        scores: pd.DataFrame, top: pd.DataFrame, data: HomophoneData, k: int,
                        classifier_table: pd.DataFrame, consistency: pd.DataFrame, source: str) -> list[str]:
    """Chapter 6's closing findings, every number from this run."""
    from .homophones import spearman_interval

    lines = [f"Algorithm 1 rebuilt {candidate_table['candidates'].sum()} candidates (the paper: 172); "
             f"{int(candidate_table['identical'].sum())} of {len(candidate_table)} candidate lists equal the released "
             "ones."]
    ratings_from = "the paper's Table 8" if data.ratings_are_table8 else "the ratings given as `ratings_file`"
    lines.append(f"Human ratings: {len(data.ratings)} rated candidates of {data.ratings['word'].nunique()} slang "
                 f"word(s) from {ratings_from}.")
    for _, row in summary.iterrows():
        if row["method"] not in ("self-information", hp.PERCENTILE_TOP) or row["context"] == "with":
            continue
        words = by_word[(by_word["method"] == row["method"]) & (by_word["context"] == row["context"])
                        ].dropna(subset=["rho"])
        lo, hi = spearman_interval(row["pooled_rho"], int(row["n"]))
        spread = (f"within the words ρ runs from {words['rho'].min():+.2f} "
                  f"({words.loc[words['rho'].idxmin(), 'word']}) to {words['rho'].max():+.2f} "
                  f"({words.loc[words['rho'].idxmax(), 'word']}), negative in {int((words['rho'] < 0).sum())} of "
                  f"{len(words)} words" if len(words) else "no word has enough rated candidates for a ρ")
        lines.append(
            f"{row['method']} ({row['context']} context): pooled ρ = {row['pooled_rho']:+.2f} (approximate 95% CI "
            f"{lo:+.2f} to {hi:+.2f}); {spread}; mean within-word ρ = {row['mean_within_word_rho']:+.2f}, "
            f"within-word permutation p = {row['p_within_word']:.3f}: the ranking within words is "
            f"{_verdict(row['p_within_word'])}.")
    si = summary[(summary["method"] == "self-information") & (summary["context"] == "without")]
    if len(si) and pd.notna(si["mean_within_word_rho"].iloc[0]):
        sign = si["mean_within_word_rho"].iloc[0]
        lines.append("Within words, raters preferred the candidates the language model finds "
                     + ("**more probable** (lower I), the opposite of the paper's stated preference for informative "
                        "candidates." if sign < 0 else "**more informative** (higher I), as the paper proposes."))
    levels = word_levels(scores).sort_values("above_others")
    gap = abs(summary["pooled_rho"] - summary["mean_within_word_rho"])
    lines.append(f"Pooled and within-word ρ differ by up to {gap.max():.2f}: the words differ in level before any "
                 f"ranking ({levels.iloc[-1]['word']} candidates carry {levels.iloc[-1]['above_others']:+.1f} bits "
                 "against the other words' mean), and a pooled ρ such as the paper's 'Avg' counts those differences "
                 "too; a pick() function only has to rank one word's candidates, which the per-word values measure.")
    literal, chapter = (top[top["method"] == m] for m in (hp.PERCENTILE_AS_PRINTED, hp.PERCENTILE_TOP))
    shared = sum(len(set(literal.loc[literal["word"] == w, "candidate"])
                     & set(chapter.loc[chapter["word"] == w, "candidate"])) for w in chapter["word"].unique())
    fare = hp.top_ratings(top, data.ratings).set_index("method")
    lit, cha = fare.loc[hp.PERCENTILE_AS_PRINTED], fare.loc[hp.PERCENTILE_TOP]
    mean = lambda r: f"mean rating {r['mean_rating']:.2f}" if r["rated"] else "none rated"  # noqa: E731
    lines.append(f"Algorithm 2 is ambiguous: as printed (ascending sort, then P[1:{k}]) it picks the least frequent "
                 f"candidates, while its percentile favours the most frequent. The two top-{k} lists share {shared} "
                 f"of {len(chapter)} picks; {int(lit['rated'])} of the as-printed picks are rated ({mean(lit)}) "
                 f"against {int(cha['rated'])} of the other reading's ({mean(cha)}).")
    scores_ = classifier_table.set_index("metric")["value"]
    changed = 1 - consistency.loc[consistency["group"] != "G0", "same_as_original"]
    if len(changed):
        lines.append(f"The emotion classifier reaches macro-F1 {scores_['macro_f1']:.3f} on the test split; replacing "
                     f"the slang in the {int(consistency['n'].iloc[0])} slang test posts by the `{source}` homophones "
                     f"changes the predicted emotion of {changed.min():.0%}–{changed.max():.0%} of them (G1–G"
                     f"{len(changed)}).")
    return lines


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


def qe_setup(homophones_file=None, instances="held_out", epochs=1, added_chars=3000, model_path=None, m2g1_file=None,
             results_dir="results") -> QESetup:
    """Check chapter 7's parameters."""
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
    return QESetup(homophones, None if homophones_file is None else str(homophones_file), instances,
                   params.integer("epochs", epochs, minimum=1), params.integer("added_chars", added_chars, minimum=0),
                   path, corrected)


def alignment_note(alignment: dict, annotated: pd.DataFrame):
    """What the alignment of the split with the sheet found."""
    from IPython.display import Markdown

    mismatched = annotated.loc[annotated["count_mismatch"], "row"].tolist()
    return Markdown("\n".join([
        f"* All {alignment['aligned']} split lines find their post in the sheet; {alignment['annotated_not_in_splits']} "
        f"of the sheet's {alignment['annotated_rows']} rows are in no split.",
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


def instances_note(chosen: pd.DataFrame, groups: dict, setup: "QESetup"):
    """How many slang posts are perturbed, per word, and which Method-2 groups run."""
    from IPython.display import Markdown

    return Markdown(f"{len(chosen)} slang posts ({setup.instances}); per word: "
                    + ", ".join(f"{w} {int(chosen['source'].str.contains(w).sum())}" for w in hp.SLANG)
                    + f". {len(groups['M2G2'])} of them have a post-edited reference (M2G2). "
                    + ("M2G1 uses the corrected translations given." if setup.corrected is not None else
                       "M2G1 needs a translator's corrections of the slang only; none were given, so **M2G1 is not "
                       "run**."))


def stability_note(stability: pd.DataFrame, preds: pd.DataFrame, chosen: pd.DataFrame):
    """Which model changes least, read together with its accuracy."""
    from IPython.display import Markdown

    table = stability.set_index("model")
    steady = table["mean_abs_shift"].idxmin()
    spread = preds[preds["group"] == "G0"].groupby("model")["predicted"].std()
    return Markdown("\n".join([
        f"* On these {len(chosen)} posts, **{steady}** changes its scores least when the slang is replaced "
        f"(mean |shift| {table.loc[steady, 'mean_abs_shift']:.3f}, against a spread of its G0 predictions of "
        f"{spread[steady]:.3f}). Stability only means something together with accuracy: a model whose G0 "
        f"correlation is weak (here ρ = {table.loc[steady, 'G0_rho']:.2f}) is stable partly because it barely "
        "reacts to its input.",
        "* Share of posts whose score rises when the MT is replaced by the post-edit (M2G2): "
        + ", ".join(f"{m} {v:.1f}%" for m, v in table["M2G2_share_increased"].items()) + ".",
        f"* With {len(chosen)} posts, correlation changes of several percent are within noise; "
        "`instances = \"all\"` uses every slang post (about seven times more, but including posts the models were "
        "trained on).",
    ]))
