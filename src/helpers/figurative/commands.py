"""Chapter 10's command: ``.venv/bin/python -m helpers template idioms --pairs N|names --out DIR`` (the pairs'
labelling workbooks, :mod:`helpers.figurative.template`)."""

from __future__ import annotations

from ..core.book import pages
from ..core.classroom import PEOPLE_HELP


def _template(args) -> int:
    from .template import write_workbooks

    for written in write_workbooks(args.pairs, args.out, n=args.items, seed=args.seed):
        print(written)
    return 0


def add_commands(groups: dict) -> None:
    """``template idioms``."""
    h = pages.texts("figurative", "commands")  # the help: figurative/pages/commands.yml
    t = groups["template"].add_parser("idioms", help=h["template"]["help"])
    t.add_argument("--pairs", required=True, help=PEOPLE_HELP)
    t.add_argument("--items", type=int, default=40, help=h["template"]["--items"])
    t.add_argument("--out", required=True, help=h["template"]["--out"])
    t.add_argument("--seed", type=int, default=0, help=h["template"]["--seed"])
    t.set_defaults(handler=_template)
