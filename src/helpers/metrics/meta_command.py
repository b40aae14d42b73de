"""``python -m helpers metrics meta``: do a metric's scores agree with the human judgements?

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

from pathlib import Path

from ..core import pages
from ..core.errors import InputError
from .files import check_segment_join, read_human, read_metric_files


def add_meta_command(group) -> None:
    """Add ``meta`` to the ``metrics`` subcommand group ``group`` (an argparse subparsers object)."""
    h = pages.texts("metrics", "commands")["meta"]  # the help: metrics/pages/commands.yml
    p = group.add_parser("meta", help=h["help"], description=__doc__.split("\n\n")[1].replace("\n", " "))
    p.add_argument("--human", required=True, metavar="HUMANFILE", help=h["--human"])
    p.add_argument("--metrics", required=True, metavar="SCORES.csv[,MINE.csv]", help=h["--metrics"])
    p.add_argument("--source", default=None, metavar="SRC.txt", help=h["--source"])
    p.add_argument("--level", choices=["system", "segment", "both"], default="both")
    p.add_argument("--out", required=True, metavar="META.csv", help=h["--out"])
    p.add_argument("--segments", choices=["given", "all", "rated"], default="given", help=h["--segments"])
    p.add_argument("--resample", choices=["segment", "doc"], default="segment", help=h["--resample"])
    p.add_argument("--n-boot", type=int, default=1000, help=h["--n-boot"])
    p.add_argument("--seed", type=int, default=0, help=pages.texts("core", "commands")["resampling"]["--seed"])
    p.add_argument("--weights", default=None, metavar="mqm|marot|hope|metahope|FILE.yml",
                   help=h["--weights"].format(weights=pages.texts("core", "commands")["mqm file"]["--weights"]))
    p.add_argument("--human-higher-is-better", action="store_true", help=h["--human-higher-is-better"])
    p.add_argument("--lower-is-better", default="ter", metavar="M1,M2", help=h["--lower-is-better"])
    p.set_defaults(handler=_meta)


def _meta(args) -> int:
    from ..core import paths
    from . import meta

    human = read_human(args.human, args.weights, args.source)
    scores = read_metric_files(args.metrics)
    if args.source is None and Path(args.human).suffix.lower() != ".csv":
        check_segment_join(human, scores, args.human)
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
    for note in result.notes:
        print(note)
    print(result.table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    fixed = result.table[(result.table["level"] == "system") & result.table["ci_low"].isna()
                         & result.table["estimate"].notna()]["metric"].unique()
    if args.n_boot and len(fixed):
        print(notes["no_interval"].format(metrics=", ".join(fixed)))
    target = Path(args.out)
    paths.atomic_write(target, lambda tmp: result.table.to_csv(tmp, index=False))
    print(f"written: {target}")
    return 0


__all__ = ["add_meta_command"]
