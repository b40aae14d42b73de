"""``.venv/bin/python -m helpers metrics meta``: do a metric's scores agree with the human judgements?

``--human HUMANFILE`` is any MQM file the book reads (a Marot/WMT annotation TSV, plain,
``.gz`` or ``.tar.gz``, scored per segment with ``--weights`` as ``mqm scores`` does; or a
per-segment ``*.avg_seg_scores.tsv``), or a CSV ``system, segment, score`` (optionally
``doc``; a row with an empty ``segment`` is a system score). ``--metrics`` is a CSV
``system, segment, metric, score`` such as ``metrics score`` writes. The two are joined by
segment number (an MQM file's ``seg_id``, the 1-based line of the test set); systems and
(system, segment) cells present on one side only are counted and printed. ``--out`` gets
one row per metric and statistic: ``level, metric, statistic, estimate, ci_low, ci_high,
n`` (:func:`helpers.metrics.meta.meta_evaluate`, the function the chapter calls).
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pandas as pd

from ..core.book import pages
from ..core.errors import InputError
from .scores import LOWER_IS_BETTER

HUMAN_COLUMNS = ["system", "segment", "score"]
METRIC_COLUMNS = ["system", "segment", "metric", "score"]


def add_meta_command(group) -> None:
    """Add ``meta`` to the ``metrics`` subcommand group ``group`` (an argparse subparsers object)."""
    h = pages.texts("metrics", "commands")["meta"]  # the help: metrics/pages/commands.yml
    p = group.add_parser("meta", help=h["help"], description=__doc__.split("\n\n")[1].replace("\n", " "))
    p.add_argument("--human", required=True, metavar="HUMANFILE", help=h["--human"])
    p.add_argument("--metrics", required=True, metavar="SCORES.csv", help=h["--metrics"])
    p.add_argument("--level", choices=["system", "segment", "both"], default="both")
    p.add_argument("--out", required=True, metavar="META.csv", help=h["--out"])
    p.add_argument("--segments", choices=["given", "all", "rated"], default="given", help=h["--segments"])
    p.add_argument("--resample", choices=["segment", "doc"], default="segment", help=h["--resample"])
    p.add_argument("--n-boot", type=int, default=1000, help=h["--n-boot"])
    p.add_argument("--seed", type=int, default=0, help=pages.texts("core", "commands")["resampling"]["--seed"])
    p.add_argument("--weights", default=None, metavar="mqm|marot|hope|metahope|FILE.yml",
                   help=h["--weights"].format(weights=pages.texts("core", "commands")["mqm file"]["--weights"]))
    p.add_argument("--human-higher-is-better", action="store_true", help=h["--human-higher-is-better"])
    lower = ",".join(sorted(LOWER_IS_BETTER))
    p.add_argument("--lower-is-better", default=lower, metavar="M1,M2", help=h["--lower-is-better"].format(default=lower))
    p.set_defaults(handler=_meta)


def read_score_csv(path, columns: list[str]) -> pd.DataFrame:
    """Read a score CSV with ``columns`` (plus an optional ``doc``), checked row by row.

    ``segment`` is a positive integer or empty (a system score); ``score`` a finite number;
    ``system`` (and ``metric``) not empty; no key (system, segment[, metric]) twice. Any
    problem is an :class:`~helpers.core.errors.InputError` naming the file, the row (the
    file's line number), the column and the value.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError("no such file", file=path)
    if path.stat().st_size == 0:
        raise InputError("is empty", file=path, expected=f"a CSV with columns {', '.join(columns)}")
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except (pd.errors.ParserError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError(f"cannot be read as CSV ({str(exc).splitlines()[0]})", file=path) from None
    raw.columns = [str(c).strip() for c in raw.columns]
    missing = [c for c in columns if c not in raw.columns]
    if missing:
        raise InputError(f"lacks column(s) {', '.join(missing)}", file=path, row=1,
                         value=", ".join(raw.columns)[:120], expected=f"columns {', '.join(columns)}")
    if raw.empty:
        raise InputError("has a header but no scores", file=path)
    keep = columns + (["doc"] if "doc" in raw.columns else [])
    raw = raw[keep].apply(lambda col: col.str.strip())
    for at, row in enumerate(raw.itertuples(index=False), start=2):
        row = row._asdict()
        for name in ("system", "metric"):
            if name in row and not row[name]:
                raise InputError(f"{name} is empty", file=path, row=at, column=name, value=row[name])
        seg = row["segment"]
        if seg and not (seg.isdigit() and int(seg) > 0):
            raise InputError("segment must be a positive integer (the 1-based line) or empty for a system score",
                             file=path, row=at, column="segment", value=seg)
        try:
            score = float(row["score"])
        except ValueError:
            score = math.nan
        if not math.isfinite(score):
            raise InputError("score must be a finite number", file=path, row=at, column="score", value=row["score"])
    key = [c for c in columns if c != "score"]
    dup = raw.duplicated(key)
    if dup.any():
        at = int(dup.to_numpy().nonzero()[0][0])
        raise InputError(f"repeats {', '.join(key)} of an earlier row", file=path, row=at + 2, column=key[-1],
                         value=" / ".join(raw.iloc[at][key]), expected="one score per " + ", ".join(key))
    out = raw.copy()
    out["segment"] = pd.to_numeric(out["segment"].replace("", None)).astype("Float64").astype(float)
    out["score"] = out["score"].astype(float)
    return out


def read_human(path, weights: str | None = None) -> pd.DataFrame:
    """Human scores ``system, segment, score`` (and ``doc`` where known) from any MQM file the
    book reads or from a ``system, segment, score`` CSV (see the module's text). An MQM
    file's segment is its ``seg_id`` (``global_seg_id``); its score the segment's penalty
    averaged over its raters (:func:`helpers.core.statistics.scoring.segment_scores`), lower is better."""
    from ..core.formats import annotations as ann
    from ..core.formats import mqm
    from ..core.statistics import scoring

    path = Path(path)
    if not path.is_file():
        raise InputError("no such file", file=path)
    if path.stat().st_size == 0:
        raise InputError("is empty", file=path, expected="an MQM file or a CSV system, segment, score")
    if path.suffix.lower() == ".csv":
        return read_score_csv(path, HUMAN_COLUMNS)
    if mqm.is_segment_score_file(path):
        if weights not in (None, "mqm"):
            raise InputError("a per-segment score file is scored already (with the published MQM weights), so "
                             "--weights does not apply", file=path, parameter="weights", value=weights)
        seg = mqm.read_segment_scores(path)
    else:
        frame = mqm.read_mqm(path, columns=ann.SCORING_COLUMNS)
        seg = scoring.segment_scores(scoring.rater_scores(frame, weights or "mqm", file=path))
    out = seg.rename(columns={"global_seg_id": "segment"})[["system", "segment", "score", "doc"]]
    out["segment"] = out["segment"].astype(float)
    return out


def _meta(args) -> int:
    from ..core import paths
    from . import meta

    human = read_human(args.human, args.weights)
    scores = read_score_csv(args.metrics, METRIC_COLUMNS)
    if args.n_boot < 0:
        raise InputError("must be 0 or more", parameter="--n-boot", value=args.n_boot)
    lower = [m.strip() for m in args.lower_is_better.split(",") if m.strip()]
    try:
        result = meta.meta_evaluate(human, scores, level=args.level, segments=args.segments,
                                    resample_by=args.resample, n_boot=args.n_boot, seed=args.seed,
                                    human_higher_is_better=args.human_higher_is_better, lower_is_better=lower)
    except ValueError as exc:  # e.g. a metric called 'human'
        raise InputError(str(exc), file=args.metrics) from None
    notes = pages.texts("metrics", "commands")["meta"]["notes"]  # metrics/pages/commands.yml
    for r in result.unmatched.itertuples(index=False):
        side = "human scores" if r.only_in == "human" else "metric scores"
        print(notes["only_system" if r.what == "system" else "only_segment"].format(
            metric=r.metric, n=r.n, side=side, examples=r.examples))
    print(result.table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    fixed = result.table[(result.table["level"] == "system") & result.table["ci_low"].isna()
                         & result.table["estimate"].notna()]["metric"].unique()
    if args.n_boot and len(fixed):
        print(notes["no_interval"].format(metrics=", ".join(fixed)))
    target = Path(args.out)
    paths.atomic_write(target, lambda tmp: result.table.to_csv(tmp, index=False))
    print(f"written: {target}")
    return 0


__all__ = ["add_meta_command", "read_human", "read_score_csv", "HUMAN_COLUMNS", "METRIC_COLUMNS"]
