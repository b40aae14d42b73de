"""What chapters 6–7 need besides the methods: checked parameters and data with provenance.

``homophones_setup`` (chapter 6) and ``qe_setup`` (chapter 7) check every parameter
before any work (types, files, their columns, checkpoint folders, and for a ratings file
that every rated candidate is one Algorithm 1 generates) and raise
:class:`~helpers.core.errors.InputError` naming what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..core import params, paths
from ..core.errors import InputError
from ..core.published import read_published
from ..core.report import ChapterData, Provenance
from . import homophones as hp
from . import qe_data

PERTURBATION_SOURCES = ("paper_table8", "percentile (Algorithm 2)", "self-information, most probable",
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

    def load(self) -> HomophoneData:
        files = [paths.released_file(hp.HOMO_REPO, f) for f in (
            "SMP2020/train.tsv", "SMP2020/dev.tsv", "SMP2020/test.tsv", "weibo_char_freq.json")]
        table8 = self.ratings is None
        ratings = read_published("homophones", "table8_human_top5").astype({"avg_score": float}) if table8 \
            else self.ratings
        detail = (f"{len(self.posts)} SMP2020-EWECT Weibo posts (labels 0–5) and the released frequency dictionary and "
                  "candidate lists of shenbinqian/homo_gen (CC BY-SA 4.0). Human ratings: "
                  + ("the paper's Table 8 (25 items), entered by hand." if table8 else
                     f"{len(ratings)} ratings from <code>{self.ratings_file}</code>."))
        files += [] if table8 else [self.ratings_file]
        return HomophoneData(Provenance("released", tuple(map(str, files)), detail), self.posts, self.frequencies,
                             self.candidates, ratings, table8)


def read_homophone_ratings(name: str, path, candidates: dict) -> pd.DataFrame:
    """A ratings CSV ``word, candidate, avg_score`` checked against the generated candidates:
    every word must be one of the five slang words and every candidate one Algorithm 1 made."""
    path = params.csv_with_columns(name, path, ["word", "candidate", "avg_score"])
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
                     c_grid=(2.0, 8.0, 32.0), results_dir="results") -> HomophonesSetup:
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
    params.text("results_dir", str(results_dir))
    posts = hp.load_smp2020()
    freq = hp.char_frequencies(posts["text"])
    inventory = hp.syllable_inventory(tone=False, heteronym=heteronym)
    cands = {w: hp.candidates(w, freq, threshold=threshold, heteronym=heteronym, roots=roots, inventory=inventory)
             for w, roots in hp.SLANG_ROOTS.items()}
    ratings = None if ratings_file is None else read_homophone_ratings("ratings_file", ratings_file, cands)
    return HomophonesSetup(threshold, heteronym, kn_order, model, hf_kind, context_posts, ratings,
                           None if ratings_file is None else str(ratings_file), perturbation_source, top_k, grid,
                           posts, freq, cands)


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
