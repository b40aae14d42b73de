"""Chapter 07's findings, recomputed from its saved result CSVs (:data:`~helpers.slang.ch07.FINDINGS_INPUTS`)
alone, section by section; :mod:`helpers.slang.ch07` re-exports :func:`findings`."""

from __future__ import annotations

import pandas as pd

from ..core import params
from ..core.book.findings import COLUMNS, Findings
from ..core.book.results import read_saved
from ..core.statistics.stats import spearman_interval
from .ch07_views import TEST, comparison_view

#: A signed homophone shift smaller than this (in SD of the model's predictions) is negligible.
NEGLIGIBLE_SHIFT = 0.05
#: A change of Spearman ρ smaller than this when the target changes is "little".
LITTLE_CHANGE = 0.03


#: The words sections :func:`findings` fills, in the order of the page.
SECTIONS = (
    "alignment",
    "post_edits",
    "score_rule",
    "selection_rule",
    "leakage",
    "comparison",
    "selection",
    "target",
    "instances",
    "method1_released",
    "stability",
    "tables_5_6",
    "findings",
)
#: The stability statistics (:func:`helpers.slang.robustness.stability_intervals`) the
#: words state, by the name of their quantity.
STABILITY_QUANTITIES = {
    "posts": "G0_rho",
    "g0_rho": "G0_rho",
    "mean_rho_change": "mean_rho_change",
    "homophone_shift": "relative_shift",
    "shift_to_error": "abs_shift_to_error",
    "swap_shift": "swap_relative_shift",
    "signed_shift": "signed_relative_shift",
    "m2g2_rises": "M2G2_share_increased",
}


class _Tables(dict):
    """The result CSVs of one folder, read once each on first use."""

    def __init__(self, folder):
        super().__init__()
        self.folder = folder

    def __missing__(self, name):
        self[name] = read_saved(self.folder, name)
        return self[name]

    def summary(self, quantity: str, column: str = "value"):
        d = self["data_summary"]
        row = d[d["quantity"] == quantity] if len(d) else d
        return row[column].iloc[0] if len(row) and pd.notna(row[column].iloc[0]) else None


def _alignment(t: _Tables) -> Findings:
    found = Findings()
    for name in ("split_lines", "aligned", "annotated_rows", "annotated_not_in_splits", "sources_in_several_splits"):
        found.add(name, t.summary(name))
    return found.add("mismatched_rows", t.summary("mismatched_rows"), text=t.summary("mismatched_rows", "text") or "")


def _post_edits(t: _Tables) -> Findings:
    return (
        Findings()
        .add("post_edit_rows", t.summary("post_edit_rows"))
        .add("post_edited", t.summary("post_edited"))
        .add("lines_with_post_edit", t.summary("lines_with_post_edit"))
    )


def _score_rule(t: _Tables) -> Findings:
    """The released rule and the lines it mis-weights (``score_check``, ``score_patterns``)."""
    found = Findings()
    names = (
        "sheet_rows",
        "released_rule_mean",
        "released_rule_sd",
        "released_rule_share",
        "lines",
        "released_rule_share_any_row",
        "implied_mean",
        "implied_sd",
        "identical_penalty_share",
        "mixed_severity_lines",
        "mixed_severity_sheet_rows",
    )
    if t["score_check"].empty:
        for name in (
            *names,
            "others",
            "others_from_other_row",
            "mixed_share",
            "misweighted",
            "misweighted_sum",
            "misweighted_lines",
        ):
            found.add(name)
        return found
    summary = t["score_check"].iloc[0]
    for name in names:
        found.add(name, summary[name])
    (
        found.add("others", round(summary["lines"] * (100 - summary["released_rule_share"]) / 100))
        .add("others_from_other_row", summary["released_rule_share_any_row"] == 100)
        .add("mixed_share", summary["mixed_severity_lines"] / summary["lines"])
    )
    patterns = t["score_patterns"]
    examples = (
        patterns[patterns["sheet_penalty"] != patterns["released_rule_penalty"]].head(4) if len(patterns) else patterns
    )
    for r in examples.itertuples():
        (
            found.add("misweighted", r.released_rule_penalty, group=r.severities)
            .add("misweighted_sum", r.sheet_penalty, group=r.severities)
            .add("misweighted_lines", r.lines, group=r.severities)
        )
    if examples.empty:
        found.add("misweighted").add("misweighted_sum").add("misweighted_lines")
    return found


def _selection_rule(t: _Tables) -> Findings:
    """Which selection rule comes closest to the paper's Table 1 (``slang_counts``): per rule the
    total and the sum of absolute differences per word from the paper."""
    counts = t["slang_counts"]
    found = Findings()
    if counts.empty:
        return found.add("paper_total").add("rule_total").add("rule_distance").add("closest").add("exact")
    rules = [c for c in counts.columns if c not in ("word", "paper")]
    distance = {r: int((counts[r] - counts["paper"]).abs().sum()) for r in rules}
    best = min(distance, key=distance.get)
    found.add("paper_total", int(counts["paper"].sum()))
    for r in rules:
        found.add("rule_total", int(counts[r].sum()), group=r).add("rule_distance", distance[r], group=r)
    return found.add("closest", distance[best], text=best).add("exact", distance[best] == 0)


def _leakage(t: _Tables) -> Findings:
    """What the released split leaks and what the re-split does instead (``split_sizes``): the
    test lines whose source is also in train, the re-split's sizes and the repeated identical
    lines it keeps once (released lines minus re-split lines)."""
    sizes = t["split_sizes"]
    found = Findings()
    if sizes.empty:
        for name in (
            "leaked",
            "test_lines",
            "leaked_share",
            "identical",
            "clean_lines",
            "seed",
            "resplit_train",
            "resplit_dev",
            "resplit_test",
            "duplicates",
        ):
            found.add(name)
        return found
    lines = sizes[sizes["evaluation"] == "released split"].set_index("split")["lines"]
    resplit = sizes[sizes["evaluation"] == "re-split"].set_index("split")["lines"]
    leaked = int(lines["test"] - lines["test, posts not in train"])
    duplicates = int(lines[["train", "dev", "test"]].sum() - resplit.sum())
    return (
        found.add("leaked", leaked)
        .add("test_lines", int(lines["test"]))
        .add("leaked_share", leaked / lines["test"])
        .add("identical", t.summary("identical"))
        .add("clean_lines", int(lines["test, posts not in train"]))
        .add("seed", t.summary("resplit_seed"))
        .add("resplit_train", int(resplit["train"]))
        .add("resplit_dev", int(resplit["dev"]))
        .add("resplit_test", int(resplit["test"]))
        .add("duplicates", duplicates)
    )


def _comparison(t: _Tables) -> Findings:
    """Where the model comparison comes from and what it decides (``model_comparison``, its
    record): the ``best`` model of :func:`comparison_view`'s order, every model's test ρ and
    seconds, and without dev scores the gap of the two most accurate on test against the
    half-width of the approximate 95% interval of a ρ on its lines (``gap_inside``)."""
    record = t["model_comparison_record"]
    items = record.set_index("item") if len(record) else pd.DataFrame(columns=["group", "value", "text"])

    def item(name, column):
        return items.loc[name, column] if name in items.index and pd.notna(items.loc[name, column]) else None

    measured_now = bool(item("measured_now", "value"))
    found = Findings().add(
        "models", text=", ".join(f"`{k}`" for k in (t.summary("qe_models", "text") or "").split(", ") if k)
    )
    view = comparison_view(t["model_comparison"] if len(t["model_comparison"]) else None)
    recorded = len(record) > 0  # without the run's record, whether a comparison was measured is not known
    found.add("measured", len(view) > 0 if recorded else None)
    found.add("measured_now", len(view) > 0 and measured_now if recorded else None)
    committed = len(view) > 0 and not measured_now
    for name, unknown in (("date", "date unknown"), ("machine", "machine unknown"), ("command", "command unknown")):
        found.add(name, text=(item(name, "text") or unknown) if committed else "")
    found.add("ranked_on_dev", "dev_rho" in view if len(view) else None)
    if len(view):
        best = view.iloc[0]
        (
            found.add("best", best["rho"], text=best["model"])
            .add("best_pearson", best["pearson"])
            .add("best_seconds", best["seconds"])
        )
        for r in view.itertuples():
            found.add("model_rho", r.rho, group=r.model).add("model_seconds", r.seconds, group=r.model)
    else:
        found.add("best").add("best_pearson").add("best_seconds").add("model_rho").add("model_seconds")
    chapter = record[record["item"] == "chapter_seconds"] if len(record) and committed else record.iloc[:0]
    found.add("budget", item("budget_seconds", "value"))
    found.add(
        "chapter_timing", text=(item("chapter_timing", "text") or "measured with /usr/bin/time") if len(chapter) else ""
    )
    for r in chapter.itertuples():
        found.add("chapter_seconds", r.value, group=r.group)
    if not len(chapter):
        found.add("chapter_seconds")
    if len(view) >= 2 and "dev_rho" not in view:
        first, second = view.iloc[0], view.iloc[1]
        lo, hi = spearman_interval(first["rho"], int(first["n"]))
        gap, halfwidth = first["rho"] - second["rho"], (hi - lo) / 2
        (
            found.add("test_first", first["rho"], text=first["model"])
            .add("test_second", second["rho"], text=second["model"])
            .add("test_gap", gap)
            .add("halfwidth", halfwidth)
            .add("test_n", int(first["n"]))
            .add("gap_inside", gap < halfwidth)
        )
    else:
        for name in ("test_first", "test_second", "test_gap", "halfwidth", "test_n", "gap_inside"):
            found.add(name)
    return found


def _restated(frame: pd.DataFrame, quantities, **where) -> pd.DataFrame:
    """The rows of an earlier section's findings that a later section states again (its
    numbers are computed once); ``where``: extra columns to match (e.g. ``evaluation=...``)."""
    rows = frame[frame["quantity"].isin(list(quantities))]
    for column, value in where.items():
        rows = rows[rows[column] == value] if column in rows else rows.iloc[:0]
    return rows


def _joined(*frames: pd.DataFrame) -> pd.DataFrame:
    """Findings frames one after another, the standard columns first."""
    frame = pd.concat([f for f in frames if len(f)], ignore_index=True)
    return frame[COLUMNS + [c for c in frame.columns if c not in COLUMNS]]


def _selection(t: _Tables) -> pd.DataFrame:
    """The models of this run on the re-split dev set, in the order of dev, with test beside it
    (``qe_models_resplit_dev``, ``qe_models_resplit``), and what the comparison can decide."""
    dev, test = t["qe_models_resplit_dev"], t["qe_models_resplit"]
    found = Findings()
    if dev.empty:
        found.add("dev_lines").add("dev_rho").add("test_rho")
    else:
        dev, test = dev.set_index("model"), test.set_index("model")
        found.add("dev_lines", int(dev["n"].iloc[0]))
        for m in dev["rho"].sort_values(ascending=False).index:
            found.add("dev_rho", dev.loc[m, "rho"], group=m).add("test_rho", test.loc[m, "rho"], group=m)
    return _joined(
        found.frame(),
        _restated(
            _comparison(t).frame(), ("test_first", "test_second", "test_gap", "halfwidth", "test_n", "gap_inside")
        ),
    )


def _target(t: _Tables) -> Findings:
    """What training on the sum of penalties changes (``qe_models_corrected_target``): per model
    and evaluation (group; columns ``model``, ``evaluation``) its ρ trained and scored on the
    released scores and on the sum of penalties, and their difference."""
    check = t["score_check"]
    found = (
        Findings()
        .add("lines", t.summary("target_lines"))
        .add("targets_rho", t.summary("targets_rho"))
        .add("mixed_severity_lines", check["mixed_severity_lines"].iloc[0] if len(check) else None)
    )
    corrected = t["qe_models_corrected_target"]
    if corrected.empty:
        return found.add("released_target_rho").add("sum_target_rho").add("target_change")
    same = corrected[corrected["trained_on"] == corrected["evaluated_against"]]
    for (split, model, label), g in same.groupby(["split", "model", "evaluated_on"], sort=False):
        old = g[g["trained_on"] == "released scores"]["rho"].iloc[0]
        new = g[g["trained_on"] == "sum of penalties"]["rho"].iloc[0]
        where = {"group": f"{model}, {label}", "model": model, "evaluation": split}
        (
            found.add("released_target_rho", old, **where)
            .add("sum_target_rho", new, **where)
            .add("target_change", new - old, **where)
        )
    return found


def _instances(t: _Tables) -> Findings:
    """How many slang posts each evaluation perturbs, per slang word, how many have a post-edit
    (M2G2), and whether M2G1 runs (``perturbed_posts``, ``data_summary``)."""
    posts = t["perturbed_posts"]
    found = Findings().add("selection", text=t.summary("instances", "text") or "")
    every = posts[posts["word"] == "all"] if len(posts) else posts
    for r in every.itertuples():
        found.add("posts", r.posts, group=r.evaluation).add("post_edited", r.post_edited, group=r.evaluation)
    for r in every.itertuples():
        for w in posts.loc[(posts["evaluation"] == r.evaluation) & (posts["word"] != "all")].itertuples():
            found.add("word_posts", w.posts, group=f"{r.evaluation}, {w.word}")
    if every.empty:
        found.add("posts").add("post_edited").add("word_posts")
    m2g1 = t.summary("m2g1")
    return found.add("m2g1", None if m2g1 is None else bool(m2g1))


def _method1_released(t: _Tables) -> Findings:
    """How many posts the released split's Method 1 table is computed on (``perturbed_posts``)."""
    posts = t["perturbed_posts"]
    row = posts[(posts["evaluation"] == "released split") & (posts["word"] == "all")] if len(posts) else posts
    return Findings().add("posts", row["posts"].iloc[0] if len(row) else None)


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


def _reading(v: pd.Series) -> dict:
    """The parts of a verdict's sentence (``## verdict_reading`` of the words) as yes/no
    findings, from one row of :func:`helpers.slang.robustness.stability_verdicts`."""
    within = v["homophone_shift"] in ("within tolerance", "unknown")
    verdict = v["verdict"]
    rank = verdict == "not_shown" and not bool(v["ranks_posts"])
    size = verdict == "robust" or (verdict == "not_shown" and not within)
    pushed = size and v["signed_shift"] in ("up", "down")
    return {
        "not_reacting": verdict == "not_reacting",
        "reason_rank": rank,
        "reason_both": rank and size,
        "reason_size": size,
        "pushed_up": pushed and v["signed_shift"] == "up",
        "pushed_down": pushed and v["signed_shift"] == "down",
        "no_reason": verdict == "not_shown" and not rank and not size,
    }


#: The stability section's quantities read from a model's row of ``stability_verdicts.csv``.
_VERDICT = (
    "verdict",
    "better_mt",
    "not_reacting",
    "reason_rank",
    "reason_both",
    "reason_size",
    "pushed_up",
    "pushed_down",
    "no_reason",
)
#: The stability section's quantities per evaluation and model.
_STABILITY = (
    *STABILITY_QUANTITIES,
    "m2g2_posts",
    "shift_size",
    "shift_negligible",
    "shift_raises",
    "shift_lowers",
    "shift_unclear",
    "verdict",
    "better_mt",
    "not_reacting",
    "reason_rank",
    "reason_both",
    "reason_size",
    "pushed_up",
    "pushed_down",
    "no_reason",
)


def _absent(found: Findings, *quantities: str, **where) -> Findings:
    """``quantities`` as not applicable in this run (for the group of ``where``, if given): the
    words' sentences naming them are left out."""
    for quantity in quantities:
        found.add(quantity, **where)
    return found


def _stability(t: _Tables) -> Findings:
    """Stability read with accuracy, for every evaluation and model (group ``evaluation,
    model``): the statistics of :data:`STABILITY_QUANTITIES` with their intervals, the
    direction of the signed shift, the verdict (key in ``text``) with the parts of its
    sentence, and the signed shift per slang word (group ``evaluation, model, word``)."""
    from .robustness import NOT_READING, TOLERANCE

    found, stated_words = Findings(), False
    intervals, verdicts, by_word = t["stability_intervals"], t["stability_verdicts"], t["homophone_shift_by_word"]
    for (label, model), g in intervals.groupby(["split", "model"], sort=False) if len(intervals) else ():
        tt = g.set_index("statistic")
        where = {"group": f"{label}, {model}", "evaluation": label, "model": model}
        for name, stat in STABILITY_QUANTITIES.items():
            if stat not in tt.index:
                found.add(name, **where)
            elif name == "posts":
                found.add(name, int(tt.loc[stat, "n"]), **where)
            else:
                found.add(name, tt.loc[stat, "value"], ci=(tt.loc[stat, "ci_low"], tt.loc[stat, "ci_high"]), **where)
        found.add(
            "m2g2_posts",
            int(tt.loc["M2G2_share_increased", "n"]) if "M2G2_share_increased" in tt.index else None,
            **where,
        )
        flags, (size, size_ci) = _direction(tt)
        found.add("shift_size", size, ci=size_ci, **where)
        for name, flag in flags.items():
            found.add(name, flag, **where)
        v = verdicts[(verdicts["split"] == label) & (verdicts["model"] == model)] if len(verdicts) else verdicts
        if len(v):  # without its verdict row, the verdict and the parts of its sentence do not apply
            v = v.iloc[0]
            found.add("verdict", text=v["verdict"], **where).add("better_mt", text=v["better_mt"], **where)
            for name, flag in _reading(v).items():
                found.add(name, flag, **where)
        else:
            _absent(found, *_VERDICT, **where)
        words = by_word[(by_word["split"] == label) & (by_word["model"] == model)] if len(by_word) else by_word
        for r in words.itertuples():
            word = {"group": f"{label}, {model}, {r.word}", "evaluation": label, "model": model}
            (
                found.add("word_shift", r.signed_relative_shift, ci=(r.ci_low, r.ci_high), **word).add(
                    "word_shift_posts", r.n_posts, **word
                )
            )
            stated_words = True
    if not stated_words:  # no word table, or none of its rows under an evaluation of the intervals
        found.add("word_shift").add("word_shift_posts")
    if intervals.empty:  # no evaluation: every quantity there, none applicable (the yardsticks neither)
        return _absent(found, *_STABILITY, "tolerance", "not_reading")
    return found.add("tolerance", TOLERANCE).add("not_reading", NOT_READING)


def _tables_5_6(t: _Tables) -> Findings:
    """How many of the paper's printed percentage changes follow from its Tables 9–10
    (``paper_tables_5_6_check``, and the ones that do not, ``paper_tables_5_6_flagged``)."""
    printed, flagged = len(t["paper_tables_5_6_check"]), len(t["paper_tables_5_6_flagged"])
    if not printed:
        return Findings().add("follow").add("printed").add("not_following")
    return Findings().add("follow", printed - flagged).add("printed", printed).add("not_following", flagged)


#: The quantities of the stability section the closing findings restate for the headline evaluation.
_LEAD = (*_STABILITY, "word_shift", "word_shift_posts")


def _findings(t: _Tables) -> pd.DataFrame:
    """Chapter 07's closing findings: restated from the earlier sections (computed once), the ρ
    of each model on the released test split, its posts not in train and the re-split test
    (with the approximate 95% interval), and the chapter's question: which models are robust to
    homophones, which raise their score for the post-edited MT, and which do both."""
    released, resplit = t["qe_models"], t["qe_models_resplit"]

    def corr(table, model, label):
        row = table[(table["model"] == model) & (table["evaluated_on"] == label)] if len(table) else table
        return (float(row["rho"].iloc[0]), int(row["n"].iloc[0])) if len(row) else (float("nan"), 0)

    found = Findings()
    for model in dict.fromkeys(released["model"]) if len(released) else ():
        (a, _), (b, _) = corr(released, model, "test (as released)"), corr(released, model, "test, posts not in train")
        c, n = corr(resplit, model, TEST)
        (
            found.add("released_rho", a, group=model)
            .add("clean_rho", b, group=model)
            .add("released_minus_clean", a - b, group=model)
            .add("resplit_rho", c, ci=spearman_interval(c, n), group=model)
            .add("resplit_lines", n, group=model)
            .add("released_minus_resplit", a - c, group=model)
        )
    if released.empty:
        _absent(
            found,
            "released_rho",
            "clean_rho",
            "released_minus_clean",
            "resplit_rho",
            "resplit_lines",
            "released_minus_resplit",
        )
    target = _target(t).frame()
    on_resplit = _restated(target, ("released_target_rho", "sum_target_rho", "target_change"), evaluation="re-split")
    on_resplit = on_resplit.assign(group=on_resplit["model"]) if len(on_resplit) else on_resplit
    changes = on_resplit[on_resplit["quantity"] == "target_change"]
    for r in changes.itertuples():
        found.add("changes_little", abs(r.value) < LITTLE_CHANGE, group=r.group)
    if changes.empty:
        found.add("changes_little").add("released_target_rho").add("sum_target_rho").add("target_change")

    stability = _stability(t).frame()
    verdicts = t["stability_verdicts"]
    headline = verdicts["split"].iloc[0] if len(verdicts) else ""
    lead = _restated(stability, _LEAD, evaluation=headline) if headline else _restated(stability, _LEAD)
    # the headline evaluation's verdicts without its intervals: what those would give does not apply
    lead = _joined(lead, _absent(Findings(), *(q for q in _LEAD if q not in set(lead["quantity"]))).frame())
    shared = _restated(stability, ("tolerance", "not_reading"))
    beside = (
        stability[
            (stability["evaluation"] != headline)
            & stability["quantity"].isin(["posts", "g0_rho", "homophone_shift", "signed_shift", "verdict"])
        ]
        if "evaluation" in stability
        else stability.iloc[:0]
    )
    beside = beside.assign(quantity="beside_" + beside["quantity"])
    if beside.empty:
        beside = Findings()
        for name in ("posts", "g0_rho", "homophone_shift", "signed_shift", "verdict"):
            beside.add(f"beside_{name}")
        beside = beside.frame()

    v = verdicts[verdicts["split"] == headline] if len(verdicts) else verdicts
    if len(v):
        robust = v[v["verdict"] == "robust"]["model"].tolist()
        rewards = v[v["better_mt"] == "rises"]["model"].tolist()
        both = [m for m in robust if m in rewards]
        (
            found.add("headline", text=headline)
            .add("n_models", len(v))
            .add("robust", len(robust), text=", ".join(robust) or "none")
            .add("rewards", len(rewards), text=", ".join(rewards) or "none")
            .add("both", len(both), text=", ".join(both) or "none")
        )
    else:
        found.add("headline").add("n_models").add("robust").add("rewards").add("both")

    comparison = _comparison(t).frame()
    shown = _restated(
        comparison,
        ("measured", "measured_now", "date", "ranked_on_dev", "best", "best_seconds", "test_gap", "gap_inside"),
    )
    best = comparison.loc[comparison["quantity"] == "best", "text"]
    others = comparison[comparison["quantity"].isin(["model_rho", "model_seconds"]) & ~comparison["group"].isin(best)]
    others = others.assign(
        quantity=others["quantity"].map({"model_rho": "other_rho", "model_seconds": "other_seconds"})
    )
    found.add("other_models", others["group"].nunique() if len(best) and best.iloc[0] else None)
    if others.empty:
        found.add("other_rho").add("other_seconds")
    score_rule = _score_rule(t).frame()
    return _joined(
        _restated(
            score_rule,
            (
                "sheet_rows",
                "released_rule_share",
                "lines",
                "released_rule_share_any_row",
                "others_from_other_row",
                "identical_penalty_share",
                "mixed_severity_lines",
                "mixed_share",
            ),
        ),
        _restated(_leakage(t).frame(), ("leaked", "test_lines")),
        found.frame(),
        on_resplit,
        lead,
        shared,
        beside,
        shown,
        others,
    )


_BUILDERS = {
    "alignment": _alignment,
    "post_edits": _post_edits,
    "score_rule": _score_rule,
    "selection_rule": _selection_rule,
    "leakage": _leakage,
    "comparison": _comparison,
    "selection": _selection,
    "target": _target,
    "instances": _instances,
    "method1_released": _method1_released,
    "stability": _stability,
    "tables_5_6": _tables_5_6,
    "findings": _findings,
}


def findings(folder, section: str | None = None) -> pd.DataFrame:
    """Chapter 07's findings, recomputed from its saved result CSVs (:data:`~helpers.slang.ch07.FINDINGS_INPUTS`) alone.

    Every words section of the chapter (:data:`SECTIONS`) has its findings, each quantity always
    present (one whose table is missing or empty is not applicable, and its sentence drops out
    of the words); ``section`` picks one section's, as the page states them while the chapter
    runs (a section needs only its own tables). Quantities per model, evaluation or slang word
    carry it as ``group``; a verdict is a key in ``text`` (the words' ``## verdicts`` table).

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS`, then ``section``, plus extra columns some quantities use.
    """
    names = SECTIONS if section is None else (params.choice("section", section, SECTIONS),)
    t = _Tables(folder)
    frames = []
    for name in names:
        frame = _BUILDERS[name](t)
        frame = frame.frame() if isinstance(frame, Findings) else frame
        frames.append(frame.assign(section=name))
    frame = pd.concat(frames, ignore_index=True)
    return frame[COLUMNS + ["section"] + [c for c in frame.columns if c not in COLUMNS and c != "section"]]
