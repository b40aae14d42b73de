"""``.venv/bin/python -m helpers mqm {scores,agreement} FILE``: quick answers on an MQM/Marot TSV.

``scores`` writes one row per system, ``system, segments, raters, score``: the mean over
segments of the segment penalty averaged over its raters, lower is better (the published
WMT tables' convention; :func:`helpers.core.statistics.scoring.system_scores`), on the segments
rated for every system (it says how many it dropped); per 100 source characters as
Marot's scoring unit (``--per-100-chars``), with document-bootstrap intervals (``--ci``),
and the segment scores behind it (``--segments FILE``). Every run says how each category
and severity in the file was weighted, and what the reader dropped. ``agreement`` writes interval
Krippendorff's α and ICCs of the raters' segment penalties, overall and per system
(:func:`helpers.core.statistics.scoring.score_agreement`). FILE is a Marot/WMT annotation TSV
(plain, .gz or .tar.gz) or, for ``scores``, a per-segment score file
(``*.avg_seg_scores.tsv``). Both call the library functions the notebooks use.
"""

from __future__ import annotations

from pathlib import Path

from . import pages


def add_commands(sub) -> None:
    """Add ``mqm scores`` and ``mqm agreement`` to the top-level subparsers ``sub``."""
    h = pages.texts("core", "commands")  # the help of every command: core/book/pages/commands.yml
    p = sub.add_parser("mqm", help=h["mqm"]["help"], description=__doc__.split("\n\n")[1].replace("\n", " "))
    kinds = p.add_subparsers(dest="kind", required=True)
    hs = h["mqm scores"]
    s = kinds.add_parser("scores", help=hs["help"], description=hs["description"])
    _common(s)
    s.add_argument("--all-segments", action="store_true", help=hs["--all-segments"])
    s.add_argument("--per-100-chars", action="store_true", help=hs["--per-100-chars"])
    s.add_argument("--ci", action="store_true", help=hs["--ci"])
    s.add_argument("--ci-level", type=float, default=95.0, metavar="PERCENT", help=hs["--ci-level"])
    add_resampling(s, "--ci")
    s.add_argument("--segments", metavar="FILE", help=hs["--segments"])
    s.set_defaults(handler=_scores)
    a = kinds.add_parser("agreement", help=h["mqm agreement"]["help"], description=h["mqm agreement"]["description"])
    _common(a)
    add_resampling(a, "alpha's interval")
    a.set_defaults(handler=_agreement)


def add_resampling(parser, what: str) -> None:
    """``--n-boot`` and ``--seed``, the bootstrap options of every scoring command (``what``:
    the interval they serve)."""
    h = pages.texts("core", "commands")["resampling"]
    parser.add_argument("--n-boot", type=int, default=1000, help=h["--n-boot"].format(what=what))
    parser.add_argument("--seed", type=int, default=0, help=h["--seed"])


def _common(p) -> None:
    h = pages.texts("core", "commands")["mqm file"]
    p.add_argument("file", help=h["file"])
    p.add_argument("--weights", default=None, metavar="mqm|marot|hope|metahope|FILE.yml", help=h["--weights"])
    p.add_argument("--out", help=h["--out"])
    p.add_argument("--raters-per-segment", metavar="K|all", help=h["--raters-per-segment"])
    p.add_argument("--pool-pairings", action="store_true", help=h["--pool-pairings"])


def _ratings(args, with_source: bool = False):
    """The ratings of ``args.file``, its path, and the lines to say first: what the reader
    dropped and how the scheme weighted each category and severity in the file."""
    from ..errors import InputError
    from ..formats import annotations as ann
    from ..formats import mqm
    from ..statistics import schemes, scoring

    path = Path(args.file)
    if mqm.is_segment_score_file(path):
        if args.weights not in (None, "mqm"):
            raise InputError(
                "a per-segment score file is scored already (with the published MQM weights), so "
                "--weights does not apply",
                file=path,
                parameter="weights",
                value=args.weights,
            )
        if args.raters_per_segment:
            raise InputError(
                "a per-segment score file does not name raters",
                file=path,
                parameter="raters-per-segment",
                value=args.raters_per_segment,
            )
        if with_source:
            raise InputError(
                "a per-segment score file has no source texts to count characters in",
                file=path,
                parameter="per-100-chars",
            )
        scored = pages.texts("core", "commands")["mqm file"]["notes"]["scored"]
        return mqm.read_segment_scores(path), path, [scored]
    read = mqm.read_mqm_file(path, columns=ann.SCORING_COLUMNS + (["source"] if with_source else []))
    frame = read.frame
    notes = [f"read: {note}" for note in read.notes]
    scheme = schemes.load_scheme(args.weights or "mqm")
    notes.append(schemes.weight_line(schemes.weight_table(frame, scheme, file=path), scheme.name))
    if args.pool_pairings:
        frame = ann.pool_pairings(frame)
    if args.raters_per_segment:
        spec = args.raters_per_segment
        if spec != "all" and not spec.isdigit():
            raise InputError("must be a number of raters or 'all'", parameter="raters-per-segment", value=spec)
        scoring.check_raters(frame, spec if spec == "all" else int(spec), file=path)
    return scoring.rater_scores(frame, scheme, file=path), path, notes


def write_csv(frame, out) -> None:
    """Write ``frame`` to the CSV ``out`` (all or nothing) and say so; nothing when ``out`` is empty."""
    if not out:
        return
    from .. import paths

    target = Path(out)
    paths.atomic_write(target, lambda tmp: frame.to_csv(tmp, index=False))
    print(f"written: {target}")


def _scores(args) -> int:
    from ..statistics import scoring

    ratings, path, notes = _ratings(args, with_source=args.per_100_chars)
    common = not args.all_segments
    table = scoring.system_scores(
        ratings,
        common=common,
        per_100_chars=args.per_100_chars,
        ci=args.ci_level if args.ci else None,
        n_boot=args.n_boot,
        seed=args.seed,
    )
    counts = scoring.segment_counts(ratings, common=common)
    kept, dropped = counts.kept, counts.dropped
    rule = "every rated segment" if args.all_segments else "segments rated for every system"
    unit = "; scores per 100 source characters" if args.per_100_chars else ""
    print(f"{path.name}: {len(table)} systems, {kept} {rule}; {dropped} segment(s) dropped{unit}")
    for line in notes:
        print(line)
    if args.ci:
        print(
            pages.texts("core", "commands")["mqm scores"]["notes"]["ci"].format(
                level=args.ci_level, n_boot=args.n_boot, seed=args.seed
            )
        )
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    write_csv(table, args.out)
    if args.segments:
        write_csv(scoring.scored_segments(ratings, common=common), args.segments)
    return 0


def _agreement(args) -> int:
    import pandas as pd

    from ..errors import InputError
    from ..formats import annotations as ann
    from ..statistics import scoring

    ratings, path, notes = _ratings(args)
    if "rater" not in ratings.columns:
        raise InputError("a per-segment score file has no raters, so there is no agreement to measure", file=path)
    table = scoring.score_agreement(ratings, n_boot=args.n_boot, seed=args.seed, file=path)
    paired = (ann.split_pairing(pd.Series(ratings["system"].unique()))["partner"] != "").any()
    h = pages.texts("core", "commands")  # the notes: core/book/pages/commands.yml
    notes_of = h["mqm agreement"]["notes"]
    pairings = notes_of["pooled" if args.pool_pairings else "apart" if paired else "unpaired"]
    print(
        notes_of["header"].format(
            file=path.name, units=h["agreement"]["units"], weights=args.weights or "mqm", pairings=pairings
        )
    )
    for line in notes:
        print(line)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    write_csv(table, args.out)
    return 0


__all__ = ["add_commands", "add_resampling", "write_csv"]
