"""MetaHOPE's command-line subcommands (added to ``python -m helpers`` by ``helpers/__main__.py``)."""

from __future__ import annotations

from ..core import paths


def _template(args) -> int:
    from .template import write_templates

    for written in write_templates(paths.resolve_input(args.items), args.systems.split(","), args.annotators,
                                   args.out):
        print(written)
    return 0


def add_commands(groups: dict) -> None:
    """``template metahope``."""
    t = groups["template"].add_parser("metahope", help="MetaHOPE error-annotation workbooks")
    t.add_argument("--items", required=True, help="items CSV (word_id, sentence, word, pos, one column per "
                   "system) or a workbook in the released layout")
    t.add_argument("--systems", required=True, help="comma-separated system columns, e.g. A,B,C")
    t.add_argument("--annotators", required=True, help="a number (names A, B, ...) or comma-separated names")
    t.add_argument("--out", required=True, help="folder for metahope_<annotator>.xlsx")
    t.set_defaults(handler=_template)
