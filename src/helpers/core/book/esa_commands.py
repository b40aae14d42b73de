"""``.venv/bin/python -m helpers esa {scores,agreement} FILE...``: quick answers on ESA files (WMT24/WMT25).

``scores`` writes one row per language pair and system, ``lp, system, segments, raters,
score, score_by_domain``: the mean ESA score (0-100, higher is better) over the segments
rated, and the organisers' ranking score (the mean over domains of the per-domain means),
after the organisers' filters; it prints how many rows each filter dropped.
``agreement`` writes interval Krippendorff's α and ICCs of the scores where a segment has
ratings by two or more raters, per pair, or says that no segment has. FILE is a WMT24 ESA
CSV (``esa_generalMT2024_wave*.csv``; several waves may be given), the WMT24 JSONL or
WMT25's per-segment JSONL (:mod:`helpers.core.formats.esa`). Both call the library functions the
chapters use.

Why a sibling of ``mqm`` and not ``mqm scores`` on ESA files: an ESA file carries a
score per segment, so none of ``mqm``'s options (``--weights``, ``--pool-pairings``,
``--raters-per-segment``) applies, its scale runs the other way (higher is better), one
file holds several language pairs, and the organisers' filters are its own.
"""

from __future__ import annotations

from pathlib import Path

from . import pages
from .mqm_commands import add_resampling, write_csv


def add_commands(sub) -> None:
    """Add ``esa scores`` and ``esa agreement`` to the top-level subparsers ``sub``."""
    h = pages.texts("core", "commands")  # the help of every command: core/book/pages/commands.yml
    p = sub.add_parser("esa", help=h["esa"]["help"], description=__doc__.split("\n\n")[1].replace("\n", " "))
    kinds = p.add_subparsers(dest="kind", required=True)
    hs = h["esa scores"]
    s = kinds.add_parser("scores", help=hs["help"], description=hs["description"])
    _common(s)
    s.add_argument("--clusters", action="store_true", help=hs["--clusters"])
    s.add_argument("--segments", metavar="FILE", help=hs["--segments"])
    s.set_defaults(handler=_scores)
    a = kinds.add_parser("agreement", help=h["esa agreement"]["help"], description=h["esa agreement"]["description"])
    _common(a)
    add_resampling(a, "alpha's interval")
    a.set_defaults(handler=_agreement)


def _common(p) -> None:
    h = pages.texts("core", "commands")["esa files"]
    p.add_argument("files", nargs="+", metavar="FILE", help=h["files"])
    p.add_argument("--lp", help=h["--lp"])
    p.add_argument("--out", help=h["--out"])


def _kept(args):
    """The ratings after the organisers' filters, with one line per pair on what was dropped."""
    from ..errors import InputError
    from ..formats import esa

    ratings = esa.read_many([Path(f) for f in args.files])
    if args.lp:
        if args.lp not in set(ratings["lp"]):
            raise InputError(
                f"no ratings of this pair (the files hold {', '.join(sorted(set(ratings['lp'])))})",
                parameter="lp",
                value=args.lp,
            )
        ratings = ratings[ratings["lp"] == args.lp].reset_index(drop=True)
    kept, counts = esa.organisers_filter(ratings)
    names = ", ".join(Path(f).name for f in args.files)
    for lp, group in counts.groupby("lp", sort=True):
        n_kept = int((kept["lp"] == lp).sum())
        drops = "; ".join(f"{r.filter} {r.dropped}" for r in group.itertuples())
        print(f"{names} {lp}: {n_kept} of {n_kept + int(group['dropped'].sum())} rows kept; dropped: {drops}")
    if kept.empty:
        raise InputError("no rating is left after the organisers' filters", file=names)
    return kept


def _scores(args) -> int:
    from ..formats import esa, esa_rankings

    kept = _kept(args)
    table = esa_rankings.human_ranking(kept) if args.clusters else esa.system_scores(kept)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    write_csv(table, args.out)
    if args.segments:
        write_csv(esa.segment_scores(kept), args.segments)
    return 0


def _agreement(args) -> int:
    import pandas as pd

    from ..statistics import scoring

    kept = _kept(args)
    parts = []
    for lp, group in kept.groupby("lp", sort=True):
        raters = group.groupby(["system", "doc", "line_id"])["rater"].transform("nunique")
        if (raters < 2).all():
            print(pages.texts("core", "commands")["esa agreement"]["notes"]["no_pairs"].format(lp=lp, n=len(group)))
            continue
        frame = group.rename(columns={"line_id": "doc_seg_id", "score": "penalty"})
        table = scoring.score_agreement(frame, n_boot=args.n_boot, seed=args.seed)
        parts.append(table.assign(lp=lp)[["lp", *scoring.AGREEMENT_COLUMNS]])
    if not parts:
        print("nothing to write")
        return 0
    table = pd.concat(parts, ignore_index=True)
    print(pages.texts("core", "commands")["agreement"]["units"])
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    write_csv(table, args.out)
    return 0


__all__ = ["add_commands"]
