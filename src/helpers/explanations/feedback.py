"""Feedback for each student of a class that rated metaphor explanations (the teaching kit).

``.venv/bin/python -m helpers feedback explanations --ratings PATH --out DIR`` reads a class's ratings
(a folder of the workbooks of ``.venv/bin/python -m helpers template explanations``, a list of them,
or a long CSV) and writes one Markdown page per student. :func:`class_feedback` computes
what the pages say, as tidy tables:

* **leniency**: the student's mean deviation from the mean of the *other* students on the
  same item and score (above 0: more generous than the class), with a 95% bootstrap interval over items
  (:func:`helpers.core.statistics.stats.resample`; all ratings of a drawn item come along);
* **consistency**: the SD of those deviations (small: a steady offset, large: sometimes
  far above, sometimes far below the class);
* **agreement** with each classmate: Spearman ρ of the two students' scores on one score
  (Overall by default) over the items both rated;
* the items (and scores) where the student deviated most, with the class's distribution.

The yardstick is the mean of the other students, so that a student's own rating never
pulls it towards them (the MetaHOPE feedback does the same with the others' median).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as st

from ..core import classroom, paths
from ..core.book import pages
from ..core.book.findings import Findings
from ..core.statistics.agreement import rating_matrix
from ..core.statistics.stats import percentile_interval, resample
from .io import LABELS, SCORES

LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Feedback:
    """A class's feedback tables (:func:`class_feedback`)."""

    students: pd.DataFrame  # rater, n_items, n_ratings, leniency, leniency_ci_low, leniency_ci_high, consistency, ...
    by_score: pd.DataFrame  # rater, dimension, n_ratings, leniency
    pairs: pd.DataFrame  # rater, classmate, n_items, rho (both orders)
    deviations: pd.DataFrame  # rater, rank, item_id, metaphor, explanation, dimension, score, class_mean, ...
    agreement_on: str


def class_feedback(
    ratings: pd.DataFrame, agreement_on: str = "overall", n_boot: int = 1000, seed: int = 0, top: int = 5
) -> Feedback:
    """Each student's leniency (with a bootstrap interval over items), consistency,
    agreement with each classmate and largest deviations (see the module docstring).

    Examples
    --------
    Two students, two items, Overall only: for A the others' mean is B's score, so A deviates
    +2 on both items (leniency +2, consistency 0) and B −2; their scores rank the items
    alike (ρ = 1).

    >>> r = pd.DataFrame({"item_id": ["i1", "i1", "i2", "i2"], "rater": ["A", "B", "A", "B"],
    ...                   "dimension": "overall", "score": [5, 3, 3, 1], "metaphor": "", "explanation": ""})
    >>> fb = class_feedback(r, n_boot=50)
    >>> fb.students[["rater", "leniency", "consistency"]].values.tolist()
    [['A', 2.0, 0.0], ['B', -2.0, 0.0]]
    >>> float(fb.pairs.iloc[0]["rho"])
    1.0
    """
    data = ratings.copy()
    data["dimension"] = data["dimension"].astype(str)
    cell = data.groupby(["item_id", "dimension"], sort=False)["score"]
    data["class_mean"] = cell.transform("mean")
    data["class_sd"] = cell.transform("std")
    data["class_n"] = cell.transform("size")
    others = (cell.transform("sum") - data["score"]) / (data["class_n"] - 1).where(data["class_n"] > 1)
    data["deviation"] = data["score"] - others
    counts = (
        data.groupby(["item_id", "dimension", "score"], sort=False)
        .size()
        .unstack("score")
        .reindex(columns=list(LEVELS))
        .fillna(0)
        .astype(int)
    )
    counts.columns = [f"count_{v}" for v in LEVELS]

    students = []
    rng = np.random.default_rng(seed)
    for rater, own in data.groupby("rater", sort=False):
        compared = own.dropna(subset=["deviation"])  # a rating nobody else gave has no others' mean
        per_item = compared.groupby("item_id", sort=False)["deviation"].agg(["sum", "size"])
        low = high = np.nan
        if len(per_item):
            boot = resample(len(per_item), n_boot, rng)
            low, high = percentile_interval(boot @ per_item["sum"].to_numpy() / (boot @ per_item["size"].to_numpy()))
        students.append(
            {
                "rater": rater,
                "n_items": len(own["item_id"].unique()),
                "n_ratings": len(own),
                "mean_score": own["score"].mean(),
                "leniency": compared["deviation"].mean(),
                "leniency_ci_low": low,
                "leniency_ci_high": high,
                "consistency": compared["deviation"].std(ddof=1) if len(compared) > 1 else np.nan,
            }
        )
    students = pd.DataFrame(students)

    by_score = (
        data.groupby(["rater", "dimension"], sort=False)["deviation"]
        .agg(n_ratings="size", leniency="mean")
        .reset_index()
    )
    by_score["order"] = by_score["dimension"].map({s: k for k, s in enumerate(SCORES)})
    by_score = by_score.sort_values(
        ["rater", "order"],
        key=lambda c: c.map({r: k for k, r in enumerate(students["rater"])}) if c.name == "rater" else c,
    ).drop(columns="order")

    wide = rating_matrix(data[data["dimension"] == agreement_on], "score", rater="rater", item="item_id")
    pairs = []
    for a in students["rater"]:
        for b in students["rater"]:
            if a == b:
                continue
            both = wide[[a, b]].dropna() if a in wide and b in wide else pd.DataFrame(columns=[a, b])
            rho = np.nan
            if len(both) >= 2 and both[a].nunique() > 1 and both[b].nunique() > 1:
                rho = round(float(st.spearmanr(both[a], both[b]).statistic), 12)
            pairs.append({"rater": a, "classmate": b, "n_items": len(both), "rho": rho})
    pairs = pd.DataFrame(pairs, columns=["rater", "classmate", "n_items", "rho"])
    agreement = pairs.groupby("rater")["rho"].mean()
    students["mean_agreement"] = students["rater"].map(agreement)

    data["abs_deviation"] = data["deviation"].abs()
    top_rows = (
        data.sort_values(["rater", "abs_deviation"], ascending=[True, False], kind="stable")
        .groupby("rater", sort=False)
        .head(top)
    )
    top_rows = top_rows.join(counts, on=["item_id", "dimension"])
    top_rows["rank"] = top_rows.groupby("rater").cumcount() + 1
    deviations = top_rows[
        [
            "rater",
            "rank",
            "item_id",
            "metaphor",
            "explanation",
            "dimension",
            "score",
            "class_mean",
            "class_sd",
            "class_n",
            "deviation",
            *counts.columns,
        ]
    ].reset_index(drop=True)
    return Feedback(students, by_score.reset_index(drop=True), pairs, deviations, agreement_on)


def verdict(low: float, high: float) -> str:
    """Plain reading of a leniency interval (the ``## verdicts`` table of ``pages/feedback.md``).

    Examples
    --------
    >>> verdict(0.1, 0.5), verdict(-0.6, -0.2), verdict(-0.1, 0.3)
    ('more generous than the class', 'stricter than the class', 'in line with the class')
    """
    return pages.words("explanations", "feedback").verdict("leniency", _verdict_key(low, high))


def _verdict_key(low: float, high: float) -> str:
    """``generous`` (the interval lies above 0), ``strict`` (below 0) or ``in line``."""
    return "generous" if low > 0 else "strict" if high < 0 else "in line"


def _md_table(frame: pd.DataFrame, signed: tuple[str, ...] = ()) -> str:
    def fmt(v, column):
        if isinstance(v, (float, np.floating)):
            return "NA" if np.isnan(v) else f"{v:+.2f}" if column in signed else f"{v:.2f}"
        return str(v).replace("|", "\\|").replace("\n", " ")

    head = "| " + " | ".join(frame.columns) + " |\n|" + "---|" * len(frame.columns) + ("\n" if len(frame) else "")
    return head + "\n".join(
        "| " + " | ".join(fmt(v, c) for v, c in zip(row, frame.columns)) + " |" for row in frame.itertuples(index=False)
    )


def _deviations_table(dev: pd.DataFrame) -> str:
    """A student's largest deviations as shown on their page (one or more rows)."""
    return _md_table(
        pd.DataFrame(
            {
                "item": dev["item_id"],
                "metaphor": dev["metaphor"],
                "explanation": dev["explanation"],
                "score": dev["dimension"].map(LABELS).fillna(dev["dimension"]),
                "you": dev["score"].astype(int),
                "class mean (all)": dev["class_mean"],
                "class ratings (1 / 2 / 3 / 4 / 5)": dev[[f"count_{v}" for v in LEVELS]]
                .astype(int)
                .astype(str)
                .agg(" / ".join, axis=1),
            }
        )
    )


def student_page(feedback: Feedback, rater: str, show_names: bool = False, left_out: str = "", label_seed=None) -> str:
    """One student's feedback page as Markdown; classmates are ``classmate 1 … n`` in an order
    drawn for this page (:func:`helpers.core.classroom.classmate_labels`; ``label_seed``
    fixes it) unless ``show_names``; ``left_out`` says what was left out of the student's
    data (:meth:`helpers.core.classroom.LeftOut.told`)."""
    s = feedback.students.set_index("rater").loc[rater]
    label = classroom.classmate_labels(feedback.students["rater"], rater, show_names, label_seed)
    by_score = (
        feedback.by_score[feedback.by_score["rater"] == rater]
        .assign(score=lambda d: d["dimension"].map(LABELS).fillna(d["dimension"]))[["score", "n_ratings", "leniency"]]
        .rename(columns={"n_ratings": "ratings", "leniency": "your leniency"})
    )
    rank = {name: k for k, name in enumerate(label)}  # label order first, so that ties do not follow the class list
    pairs = (
        feedback.pairs[feedback.pairs["rater"] == rater]
        .sort_values("classmate", key=lambda c: c.map(rank))
        .sort_values("rho", ascending=False, kind="stable")
        .assign(classmate=lambda d: d["classmate"].map(label))
    )
    dev = feedback.deviations[feedback.deviations["rater"] == rater]
    found = (
        Findings()
        .add("student", text=str(rater))
        .add("left_out", text=left_out)
        .add("n_items", s["n_items"])
        .add("n_ratings", s["n_ratings"])
        .add("n_class", len(feedback.students))
        .add(
            "leniency",
            s["leniency"],
            ci=(s["leniency_ci_low"], s["leniency_ci_high"]),
            text=_verdict_key(s["leniency_ci_low"], s["leniency_ci_high"]),
        )
        .add("consistency", s["consistency"])
        .add("median_consistency", feedback.students["consistency"].median())
        .add("agreement_on", text=LABELS.get(feedback.agreement_on, feedback.agreement_on))
        .add("by_score", text=_md_table(by_score, signed=("your leniency",)))
        .add(
            "pairs",
            text=_md_table(
                pairs[["classmate", "n_items", "rho"]].rename(columns={"n_items": "explanations", "rho": "Spearman ρ"})
            ),
        )
        .add("deviations", text=_deviations_table(dev) if len(dev) else "")
    )
    return pages.page("explanations", "feedback", "page", found.frame())


def write_pages(
    feedback: Feedback,
    out_dir: str | os.PathLike,
    show_names: bool = False,
    notes=(),
    left_out: classroom.LeftOut | None = None,
    label_seed=None,
) -> list[Path]:
    """Per student ``feedback_<rater>.html`` (the handout) and ``.md``, each saying what was
    left out of that student's data (``left_out``,
    :attr:`helpers.explanations.io.WorkbookRatings.left_out`); the lecturer's overview
    ``index.html`` (every student by name with leniency and interval, and ``notes``: what
    the run left out); ``class_summary.csv`` (the students table). ``label_seed`` fixes
    each page's classmate numbering (default: a secret order per page)."""
    files = classroom.feedback_file_names(feedback.students["rater"])  # refused before any page is written
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    left_out = left_out or classroom.LeftOut(unit="explanation")
    written, rows = [], []
    for k, rater in enumerate(feedback.students["rater"]):
        name = files[str(rater)]
        text = student_page(
            feedback, rater, show_names, left_out.told(rater), None if label_seed is None else [label_seed, k]
        )
        paths.atomic_write(out / f"{name}.md", text)
        paths.atomic_write(out / f"{name}.html", classroom.html_page(text, f"Feedback for {rater}"))
        written.append(out / f"{name}.html")
        s = feedback.students.set_index("rater").loc[rater]
        rows.append(
            f"| [{rater}]({name}.html) | {s['leniency']:+.2f} | [{s['leniency_ci_low']:+.2f}, "
            f"{s['leniency_ci_high']:+.2f}] | {verdict(s['leniency_ci_low'], s['leniency_ci_high'])} |"
        )
    index = classroom.write_overview(
        out, "Explanation ratings feedback", ["student", "leniency", "95% interval", "verdict"], rows, show_names, notes
    )
    summary = out / "class_summary.csv"
    feedback.students.to_csv(summary, index=False)
    return [index, *written, summary]
