"""Feedback for each student after a MetaHOPE annotation class.

A lecturer collects the class's workbooks and returns to every student one page: how
severe they are compared with the rest of the class (their bias against the consensus of
the others, with a bootstrap interval), how well they agree with each classmate, and the
metaphors where they deviated most, each shown with the whole class's scores. The
consensus for a student is the median SEGS of the *other* students, so a student's own
scores never pull the yardstick towards them.

``.venv/bin/python -m helpers feedback metahope --annotations SHEETS... --out DIR`` writes
``DIR/feedback_<student>.html`` (and ``.md``) plus the lecturer's overview ``DIR/index.html``.
A student's page names the classmates ``classmate 1 … n``, numbered in a random order
drawn for that page (``show_names`` for their names), and says what was left out of the
student's own data; the overview keeps the names.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import classroom, paths
from ..core.book import formatting, pages
from ..core.book.findings import Findings
from ..core.statistics.agreement import agreement
from ..core.statistics.stats import percentile_interval, resample, weighted_mean
from .scoring import segment_scores
from .tidy_frame import category_order


@dataclass(frozen=True)
class StudentFeedback:
    """One student's feedback (all tables tidy)."""

    student: str
    bias: pd.Series  # mean_difference, ci_low, ci_high, n_items, share_higher, share_lower
    peers: pd.DataFrame  # classmate, alpha, weighted_kappa, exact_agreement
    deviations: pd.DataFrame  # item, system, metaphor, own, consensus, difference, class_scores
    categories: pd.DataFrame  # category, own_share, class_share


def _scores(tidy: pd.DataFrame) -> pd.DataFrame:
    """SEGS per (item, system) × annotator, with the item's sentence and metaphor."""
    segs = segment_scores(tidy)
    return segs.pivot_table(
        index=["item", "system", "sentence", "metaphor"],
        columns="annotator",
        values="SEGS",
        aggfunc="first",
        sort=False,
    )


def student_feedback(
    tidy: pd.DataFrame,
    student: str,
    n_boot: int = 2000,
    seed: int = 0,
    top: int = 5,
    show_names: bool = False,
    label_seed=None,
) -> StudentFeedback:
    """The feedback of ``student`` from a class's tidy annotations (at least three annotators).

    * ``bias``: mean over (item, system) of the student's SEGS minus the median SEGS of the
      other students, with a 95% bootstrap interval resampling sentences (their metaphors
      together), and the shares of units scored higher and lower than that consensus;
    * ``peers``: interval α, quadratic κ and exact agreement on SEGS with each classmate;
    * ``deviations``: the ``top`` units with the largest |difference|, with every student's score;
    * ``categories``: the share of the student's penalty points per category beside the class's.

    Classmates are ``classmate 1 … n`` in an order drawn for this page
    (:func:`helpers.core.classroom.classmate_labels`, ``label_seed`` fixes it) unless
    ``show_names``; the student is "you", listed first.
    """
    wide = _scores(tidy)
    if student not in wide.columns:
        raise ValueError(f"no annotator {student!r}; annotators: {list(wide.columns)}")
    label = {student: "you", **classroom.classmate_labels(wide.columns, student, show_names, label_seed)}
    others = list(label)[1:]  # in label order, so no table lists them as the class list does
    if len(others) < 2:
        raise ValueError("feedback against a class consensus needs at least three annotators")
    own = wide[student].to_numpy(dtype=float)
    consensus = wide[others].median(axis=1).to_numpy(dtype=float)
    diff = own - consensus
    sentences = wide.index.get_level_values("sentence")
    low, high = percentile_interval(weighted_mean(diff, resample(len(diff), n_boot, seed, sentences)))
    bias = pd.Series(
        {
            "mean_difference": diff.mean(),
            "ci_low": low,
            "ci_high": high,
            "n_items": len(diff),
            "share_higher": float((diff > 0).mean() * 100),
            "share_lower": float((diff < 0).mean() * 100),
        }
    )
    segs = segment_scores(tidy).assign(unit=lambda d: d["item"] + " | " + d["system"], group="all")
    peers = []
    for other in others:
        pair = segs[segs["annotator"].isin([student, other])]
        a = agreement(pair, by="group", value="SEGS", item="unit").iloc[0]
        peers.append(
            {
                "classmate": label[other],
                "alpha": a["alpha"],
                "weighted_kappa": a["weighted_kappa"],
                "exact_agreement": a["exact_agreement"],
            }
        )
    order = np.argsort(-np.abs(diff), kind="stable")[:top]
    deviations = pd.DataFrame(
        {
            "item": wide.index.get_level_values("item")[order],
            "system": wide.index.get_level_values("system")[order],
            "metaphor": wide.index.get_level_values("metaphor")[order],
            "own": own[order],
            "consensus": consensus[order],
            "difference": diff[order],
            "class_scores": [
                ", ".join(f"{label[c]} {int(v)}" for c, v in wide.iloc[k][list(label)].items()) for k in order
            ],
        }
    )
    points = tidy.groupby(["annotator", "category"], observed=False)["severity"].sum().unstack()
    own_share = points.loc[student] / max(points.loc[student].sum(), 1)
    class_share = points.sum() / max(points.to_numpy().sum(), 1)
    cats = category_order(tidy)
    categories = pd.DataFrame(
        {
            "category": cats,
            "own_share": own_share.reindex(cats).to_numpy(),
            "class_share": class_share.reindex(cats).to_numpy(),
        }
    )
    return StudentFeedback(student, bias, pd.DataFrame(peers), deviations, categories)


def _verdict(bias: pd.Series) -> str:
    """The verdict key the bias interval supports (its phrase: the ``## verdicts`` table of
    ``pages/feedback.md``)."""
    return "more" if bias["ci_low"] > 0 else "less" if bias["ci_high"] < 0 else "in line"


def _rows(frame: pd.DataFrame, cells) -> str:
    """Markdown table rows, one per row of ``frame``, of the cells ``cells(row)`` gives."""
    return "\n".join("| " + " | ".join(cells(r)) + " |" for _, r in frame.iterrows())


def feedback_markdown(fb: StudentFeedback, left_out: str = "") -> str:
    """The student's page as Markdown, the template ``pages/feedback.md`` filled in;
    ``left_out`` says what was left out of their data (:meth:`helpers.core.classroom.LeftOut.told`)."""
    b = fb.bias
    number = formatting.number
    found = (
        Findings()
        .add("student", text=fb.student)
        .add("left_out", text=left_out)
        .add("n_items", b["n_items"])
        .add("mean_difference", b["mean_difference"], ci=(b["ci_low"], b["ci_high"]), text=_verdict(b))
        .add("share_higher", b["share_higher"])
        .add("share_lower", b["share_lower"])
        .add(
            "peers",
            text=_rows(
                fb.peers,
                lambda r: [
                    r["classmate"],
                    number(r["alpha"]),
                    number(r["weighted_kappa"]),
                    f"{number(r['exact_agreement'], 0)}%",
                ],
            ),
        )
        .add(
            "deviations",
            text=_rows(
                fb.deviations,
                lambda r: [
                    str(r["item"]),
                    str(r["system"]),
                    str(r["metaphor"]),
                    f"{r['own']:g}",
                    f"{r['consensus']:g}",
                    r["class_scores"],
                ],
            ),
        )
        .add(
            "categories",
            text=_rows(
                fb.categories,
                lambda r: [
                    str(r["category"]),
                    formatting.percent(r["own_share"]),
                    formatting.percent(r["class_share"]),
                ],
            ),
        )
    )
    return pages.page("metahope", "feedback", "page", found.frame())


def write_feedback(
    tidy: pd.DataFrame,
    out_dir: str | os.PathLike,
    n_boot: int = 2000,
    seed: int = 0,
    show_names: bool = False,
    notes=(),
    left_out: classroom.LeftOut | None = None,
    label_seed=None,
) -> list[Path]:
    """One page per student (``feedback_<student>.html`` and ``.md``, the name the explanation
    kit's pages have too), each saying what was left out of that student's data
    (``left_out``, :attr:`helpers.metahope.load.ClassAnnotations.left_out`), and the
    lecturer's overview ``index.html`` (every student's bias with its interval, by name,
    and ``notes``: what the run left out). ``label_seed`` fixes each page's classmate
    numbering (default: a secret order per page)."""
    files = classroom.feedback_file_names(tidy["annotator"])  # refused before any page is written
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    left_out = left_out or classroom.LeftOut()
    written, rows = [], []
    for k, student in enumerate(files):
        fb = student_feedback(
            tidy,
            student,
            n_boot=n_boot,
            seed=seed,
            show_names=show_names,
            label_seed=None if label_seed is None else [label_seed, k],
        )
        text = feedback_markdown(fb, left_out.told(student))
        safe = files[student]
        paths.atomic_write(out / f"{safe}.md", text)
        paths.atomic_write(out / f"{safe}.html", classroom.html_page(text, f"Feedback for {student}"))
        written.append(out / f"{safe}.html")
        b = fb.bias
        rows.append(
            f"| [{student}]({safe}.html) | {b['mean_difference']:+.2f} | "
            f"{formatting.interval(b['ci_low'], b['ci_high'], sign=True)} | {_verdict(b)} |"
        )
    index = classroom.write_overview(
        out,
        "MetaHOPE feedback",
        ["student", "bias (SEGS points)", "95% interval", "penalises"],
        rows,
        show_names,
        notes,
    )
    return [index, *written]
