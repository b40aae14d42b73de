"""``.venv/bin/python -m helpers metrics score``: automatic metric scores of any system outputs (chapter 09).

``metrics score --ref REF --hyp NAME=FILE ... [--src SRC] [--metrics bleu,chrf,chrfpp,ter,embed]
[--chinese] --out scores.csv`` scores each hypothesis file against the reference file, line by line, with
the functions chapter 09 uses (:func:`helpers.metrics.scores.score_texts`). ``scores.csv`` has
the columns ``system, segment, metric, score``: first one row per system and metric with
``segment`` empty, then one row per segment, ``segment`` the 1-based line number. A file whose
line count differs from the reference's, an empty file or an unknown metric is one ``error:``
line naming the file (or the option) and nothing is written.

``metrics meta`` (the meta-evaluation against human scores) is added by
:mod:`helpers.metrics.meta_command`.
"""

from __future__ import annotations

from pathlib import Path

from ..core.book import pages
from ..core.errors import InputError
from . import scores


def _hypotheses(specs: list[str]) -> dict[str, Path]:
    """``NAME=FILE`` pairs in order; a missing ``=``, an empty name or a repeated name is an error."""
    out: dict[str, Path] = {}
    for spec in specs:
        name, sep, file = spec.partition("=")
        if not sep or not name.strip() or not file:
            raise InputError("must be NAME=FILE", parameter="--hyp", value=spec)
        if name.strip() in out:
            raise InputError("names a system twice", parameter="--hyp", value=name.strip(), expected="each name once")
        out[name.strip()] = Path(file)
    return out


def _score(args) -> int:
    import sys
    import warnings

    from ..core import paths
    from .files import read_texts

    metrics = scores.parse_metrics(args.metrics, parameter="--metrics")
    hyps = {name: paths.resolve_input(p) for name, p in _hypotheses(args.hyp).items()}
    ref = paths.resolve_input(args.ref)
    texts = read_texts(ref, hyps, paths.resolve_input(args.src) if args.src else None)
    target = "zh" if args.chinese else "en"
    files = {
        ref: texts["reference"].iloc[: len(texts) // len(hyps)],
        **{path: texts.loc[texts["system"] == name, "hypothesis"] for name, path in hyps.items()},
    }
    with warnings.catch_warnings(record=True) as caught:  # printed as one line each, not Python's form
        warnings.simplefilter("always", scores.ScriptWarning)
        for path, lines in files.items():
            scores.check_script(lines.tolist(), target, path)
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    table = scores.score_texts(texts, metrics, target=target)
    out = paths.resolve_output(args.out)
    paths.atomic_write(out, lambda tmp: table.to_csv(tmp, index=False))
    print(f"{len(hyps)} systems x {len(texts) // len(hyps)} segments, metrics {', '.join(metrics)}: {out}")
    return 0


def add_commands(groups: dict) -> None:
    """``metrics score`` (here) and ``metrics meta`` (:mod:`helpers.metrics.meta_command`) in ``groups["metrics"]``."""
    h = pages.texts("metrics", "commands")["score"]  # the help: metrics/pages/commands.yml
    s = groups["metrics"].add_parser("score", help=h["help"], description=__doc__.split("\n\n")[1].replace("\n", " "))
    s.add_argument("--ref", required=True, help=h["--ref"])
    s.add_argument("--hyp", required=True, action="append", metavar="NAME=FILE", help=h["--hyp"])
    s.add_argument("--src", help=h["--src"])
    default = ",".join(scores.DEFAULT_METRICS)
    s.add_argument(
        "--metrics",
        default=default,
        help=h["--metrics"].format(
            default=default, choices=", ".join(scores.METRICS), lower=", ".join(sorted(scores.LOWER_IS_BETTER))
        ),
    )
    s.add_argument("--chinese", action="store_true", help=h["--chinese"])
    s.add_argument("--out", required=True, help=h["--out"])
    s.set_defaults(handler=_score)
    from importlib.util import find_spec

    if find_spec(f"{__package__}.meta_command") is not None:  # written in parallel (issue 33): absent until merged
        from .meta_command import add_meta_command

        add_meta_command(groups["metrics"])
