"""``python -m helpers mqm {scores,agreement} FILE``: quick answers on an MQM/Marot TSV.

``scores`` writes one row per system, ``system, segments, raters, score``: the mean over
segments of the segment penalty averaged over its raters, lower is better (the published
WMT tables' convention; :func:`helpers.core.scoring.system_scores`), on the segments
rated for every system (it says how many it dropped). ``agreement`` writes interval
Krippendorff's α and ICCs of the raters' segment penalties, overall and per system
(:func:`helpers.core.scoring.score_agreement`). FILE is a Marot/WMT annotation TSV
(plain, .gz or .tar.gz) or, for ``scores``, a per-segment score file
(``*.avg_seg_scores.tsv``). Both call the library functions the notebooks use.
"""

from __future__ import annotations

from pathlib import Path

WEIGHTS_HELP = ("weighting scheme: mqm (the published WMT tables; default), marot (Marot's defaults), hope "
                "(exponential), metahope (linear), or a YAML file with name, citation and rules")


def add_commands(sub) -> None:
    """Add ``mqm scores`` and ``mqm agreement`` to the top-level subparsers ``sub``."""
    p = sub.add_parser("mqm", help="score and check MQM/Marot TSV files (WMT expert MQM, Marot exports)",
                       description=__doc__.split("\n\n")[1].replace("\n", " "))
    kinds = p.add_subparsers(dest="kind", required=True)
    s = kinds.add_parser("scores", help="system scores (system, segments, raters, score), lower is better",
                         description="One row per system: system, segments, raters, score = the mean over segments "
                         "of the per-segment penalty averaged over that segment's raters (the published WMT tables' "
                         "convention), on the segments rated for every system.")
    _common(s)
    s.add_argument("--all-segments", action="store_true",
                   help="use every rated segment, not only those rated for every system (as Marot itself does)")
    s.set_defaults(handler=_scores)
    a = kinds.add_parser("agreement", help="Krippendorff's alpha and ICC of the raters' segment penalties",
                         description="Interval Krippendorff's alpha (document-bootstrap interval) and one-way ICCs "
                         "(pingouin) on the raters' segment penalties, overall and per system; a unit is one "
                         "(system, segment) rated by two or more raters. Columns scope, statistic, estimate, ci_low, "
                         "ci_high, n.")
    _common(a)
    a.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples for alpha's interval")
    a.add_argument("--seed", type=int, default=0, help="seed of the resamples")
    a.set_defaults(handler=_agreement)


def _common(p) -> None:
    p.add_argument("file", help="MQM/Marot TSV (.tsv, .tsv.gz, .tar.gz) or a per-segment score file")
    p.add_argument("--weights", default=None, metavar="mqm|marot|hope|metahope|FILE.yml", help=WEIGHTS_HELP)
    p.add_argument("--out", help="CSV to write (nothing is written when the input is refused)")
    p.add_argument("--raters-per-segment", metavar="K|all",
                   help="refuse the file unless every (system, segment) has K raters (or every rater)")
    p.add_argument("--pool-pairings", action="store_true",
                   help="pool side-by-side pairings (X_with_Y -> X) instead of keeping each pairing a system; a "
                   "rater keeps one rating per segment (the mean over the pairings they rated it in)")


def _ratings(args):
    from . import annotations as ann
    from . import mqm, scoring
    from .errors import InputError

    path = Path(args.file)
    if mqm.is_segment_score_file(path):
        if args.weights not in (None, "mqm"):
            raise InputError("a per-segment score file is scored already (with the published MQM weights), so "
                             "--weights does not apply", file=path, parameter="weights", value=args.weights)
        if args.raters_per_segment:
            raise InputError("a per-segment score file does not name raters", file=path,
                             parameter="raters-per-segment", value=args.raters_per_segment)
        return mqm.read_segment_scores(path), path
    frame = mqm.read_mqm(path, columns=ann.SCORING_COLUMNS)
    if args.pool_pairings:
        frame = ann.pool_pairings(frame)
    if args.raters_per_segment:
        spec = args.raters_per_segment
        if spec != "all" and not spec.isdigit():
            raise InputError("must be a number of raters or 'all'", parameter="raters-per-segment", value=spec)
        scoring.check_raters(frame, spec if spec == "all" else int(spec), file=path)
    return scoring.rater_scores(frame, args.weights or "mqm", file=path), path


def _write(frame, out) -> None:
    if not out:
        return
    from . import paths

    target = Path(out)
    paths.atomic_write(target, lambda tmp: frame.to_csv(tmp, index=False))
    print(f"written: {target}")


def _scores(args) -> int:
    from . import scoring

    ratings, path = _ratings(args)
    table = scoring.system_scores(ratings, common=not args.all_segments)
    kept, dropped = table.attrs["segments_kept"], table.attrs["segments_dropped"]
    rule = "every rated segment" if args.all_segments else "segments rated for every system"
    print(f"{path.name}: {len(table)} systems, {kept} {rule}; {dropped} segment(s) dropped")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    _write(table, args.out)
    return 0


def _agreement(args) -> int:
    import pandas as pd

    from . import annotations as ann
    from . import scoring
    from .errors import InputError

    ratings, path = _ratings(args)
    if "rater" not in ratings.columns:
        raise InputError("a per-segment score file has no raters, so there is no agreement to measure", file=path)
    table = scoring.score_agreement(ratings, n_boot=args.n_boot, seed=args.seed, file=path)
    paired = (ann.split_pairing(pd.Series(ratings["system"].unique()))["partner"] != "").any()
    pairings = ("pairings pooled under each system (--pool-pairings, as chapter 08 does by default)"
                if args.pool_pairings else "pairings kept apart (X_with_Y is a system of its own; "
                "--pool-pairings pools them as chapter 08 does by default)" if paired else "no side-by-side pairings")
    print(f"{path.name}: units = (system, segment) with two or more raters; weights {args.weights or 'mqm'}; "
          f"{pairings}")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    _write(table, args.out)
    return 0


__all__ = ["add_commands"]
