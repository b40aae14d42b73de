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

from pathlib import Path

from ..core.book import pages
from ..core.errors import InputError
from .files import check_segment_join, read_human, read_metric_files
from .scores import LOWER_IS_BETTER


def _inputs(p, h) -> None:
    """The options saying where the human and metric scores come from (``meta`` and ``compare``)."""
    p.add_argument("--human", metavar="HUMANFILE|NAME", help=h["--human"])
    p.add_argument("--metrics", metavar="SCORES.csv[,MINE.csv]|M1,M2", help=h["--metrics"])
    p.add_argument("--mtme", metavar="DIR", help=h["--mtme"])
    p.add_argument("--lp", metavar="LP", help=h["--lp"])
    p.add_argument("--include-references", action="store_true", help=h["--include-references"])
    p.add_argument("--source", default=None, metavar="SRC.txt", help=h["--source"])
    p.add_argument("--segments", choices=["given", "all", "rated"], default="given", help=h["--segments"])
    p.add_argument("--seed", type=int, default=0, help=pages.texts("core", "commands")["resampling"]["--seed"])
    p.add_argument(
        "--weights",
        default=None,
        metavar="mqm|marot|hope|metahope|FILE.yml",
        help=h["--weights"].format(weights=pages.texts("core", "commands")["mqm file"]["--weights"]),
    )
    p.add_argument("--human-higher-is-better", action="store_true", help=h["--human-higher-is-better"])
    lower = ",".join(sorted(LOWER_IS_BETTER))
    p.add_argument(
        "--lower-is-better", default=None, metavar="M1,M2", help=h["--lower-is-better"].format(default=lower)
    )


def add_meta_command(group) -> None:
    """Add ``meta`` and ``compare`` to the ``metrics`` subcommand group ``group`` (an argparse subparsers object)."""
    texts = pages.texts("metrics", "commands")  # the help: metrics/pages/commands.yml
    h = texts["meta"]
    p = group.add_parser("meta", help=h["help"], description=__doc__.split("\n\n")[1].replace("\n", " "))
    _inputs(p, h)
    p.add_argument("--level", choices=["system", "segment", "both"], default="both")
    p.add_argument("--out", required=True, metavar="META.csv", help=h["--out"])
    p.add_argument("--resample", choices=["segment", "doc"], default="segment", help=h["--resample"])
    p.add_argument("--n-boot", type=int, default=1000, help=h["--n-boot"])
    p.set_defaults(handler=_meta)
    c = texts["compare"]
    q = group.add_parser("compare", help=c["help"], description=c["description"])
    _inputs(q, h)
    q.add_argument("--level", choices=["system", "segment"], default="system")
    q.add_argument("--statistic", default="pearson", help=c["--statistic"])
    q.add_argument("--n-perm", type=int, default=1000, help=c["--n-perm"])
    q.add_argument("--alpha", type=float, default=0.05, help=c["--alpha"])
    q.add_argument("--out", required=True, metavar="COMPARE.csv", help=c["--out"])
    q.add_argument("--clusters", metavar="CLUSTERS.csv", help=c["--clusters"])
    q.set_defaults(handler=_compare)


def _read_inputs(args):
    """``(human, scores, human_higher_is_better, lower_is_better, label)`` from the files or the
    mt-metrics-eval directory the options name; each misuse is one InputError naming the option."""
    if args.mtme:
        from .files import mtme_scores, mtme_set

        if not args.lp:
            raise InputError("is needed with --mtme", parameter="--lp", expected="a language pair such as zh-en")
        if args.source or args.weights:
            raise InputError(
                "applies to an MQM file, not to --mtme", parameter="--source" if args.source else "--weights"
            )
        es = mtme_set(args.mtme, args.lp)
        names = [m.strip() for m in args.metrics.split(",") if m.strip()] if args.metrics else None
        human, scores = mtme_scores(es, args.human or "mqm", names, references=args.include_references)
        for note in es.notes:
            print(note)
        lower = [m.strip() for m in (args.lower_is_better or "").split(",") if m.strip()]
        return human, scores, True, lower, str(args.mtme)  # mt-metrics-eval: every score higher-is-better
    if not args.human or not args.metrics:
        raise InputError(
            "is needed (or --mtme DIR --lp LP)",
            parameter="--human" if not args.human else "--metrics",
            expected="a file",
        )
    human = read_human(args.human, args.weights, args.source)
    scores = read_metric_files(args.metrics)
    if args.source is None and Path(args.human).suffix.lower() != ".csv":
        check_segment_join(human, scores, args.human)
    lower = [
        m.strip() for m in (args.lower_is_better if args.lower_is_better is not None else "ter").split(",") if m.strip()
    ]
    return human, scores, args.human_higher_is_better, lower, str(args.metrics)


def _meta(args) -> int:
    from ..core import paths
    from . import meta

    human, scores, higher, lower, label = _read_inputs(args)
    if args.n_boot < 0:
        raise InputError("must be 0 or more", parameter="--n-boot", value=args.n_boot)
    try:
        result = meta.meta_evaluate(
            human,
            scores,
            level=args.level,
            segments=args.segments,
            resample_by=args.resample,
            n_boot=args.n_boot,
            seed=args.seed,
            human_higher_is_better=higher,
            lower_is_better=lower,
        )
    except ValueError as exc:  # e.g. a metric called 'human'
        raise InputError(str(exc), file=label) from None
    notes = pages.texts("metrics", "commands")["meta"]["notes"]  # metrics/pages/commands.yml
    for r in result.unmatched.itertuples(index=False):
        side = "human scores" if r.only_in == "human" else "metric scores"
        print(
            notes["only_system" if r.what == "system" else "only_segment"].format(
                metric=r.metric, n=r.n, side=side, examples=r.examples
            )
        )
    for note in result.notes:
        print(note)
    print(result.table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    fixed = result.table[
        (result.table["level"] == "system") & result.table["ci_low"].isna() & result.table["estimate"].notna()
    ]["metric"].unique()
    if args.n_boot and len(fixed):
        print(notes["no_interval"].format(metrics=", ".join(fixed)))
    target = Path(args.out)
    paths.atomic_write(target, lambda tmp: result.table.to_csv(tmp, index=False))
    print(f"written: {target}")
    return 0


def _compare(args) -> int:
    from ..core import paths
    from . import meta
    from .significance import compare_metrics, metric_clusters

    human, scores, higher, lower, label = _read_inputs(args)
    if args.n_perm < 1:
        raise InputError("must be 1 or more", parameter="--n-perm", value=args.n_perm)
    options = {"segments": args.segments, "human_higher_is_better": higher, "lower_is_better": lower}
    try:
        table = compare_metrics(
            human, scores, args.statistic, args.level, n_perm=args.n_perm, seed=args.seed, **options
        )
        estimates = meta.meta_evaluate(
            human,
            scores,
            level=args.level,
            segments=args.segments,
            n_boot=0,
            human_higher_is_better=higher,
            lower_is_better=lower,
            statistics=[args.statistic],
        ).table
    except ValueError as exc:
        raise InputError(str(exc), file=label) from None
    table.insert(0, "statistic", args.statistic)
    table.insert(0, "level", args.level)
    clusters = metric_clusters(estimates[["metric", "estimate"]], table, args.alpha)
    print(clusters.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    target = Path(args.out)
    paths.atomic_write(target, lambda tmp: table.to_csv(tmp, index=False))
    if args.clusters:
        paths.atomic_write(Path(args.clusters), lambda tmp: clusters.to_csv(tmp, index=False))
    print(f"written: {target}" + (f", {args.clusters}" if args.clusters else ""))
    return 0


__all__ = ["add_meta_command"]
