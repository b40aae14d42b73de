"""MetaHOPE's command-line subcommands (added to ``python -m helpers`` by ``helpers/__main__.py``)."""

from __future__ import annotations

from ..core import paths


def _template(args) -> int:
    from .template import write_templates

    for written in write_templates(paths.resolve_input(args.items), args.systems.split(","), args.annotators,
                                   args.out):
        print(written)
    return 0


def _feedback(args) -> int:
    from .feedback import write_feedback
    from .io import load_annotations

    spec = _annotation_spec(args.annotations)
    for written in write_feedback(load_annotations(spec), args.out, n_boot=args.n_boot):
        print(written)
    return 0


def _annotation_spec(values: list[str]):
    """Workbooks (or a folder of them) -> {name: path}; one .csv / .tsv -> that file."""
    from pathlib import Path

    from ..core.errors import InputError

    found = []
    for v in values:
        p = paths.resolve_input(v)
        found += sorted(p.glob("*.xlsx")) if p.is_dir() else [p]
    if len(found) == 1 and found[0].suffix.lower() in (".csv", ".tsv", ".txt"):
        return found[0]
    sheets = [p for p in found if p.suffix.lower() in (".xlsx", ".xlsm")]
    if len(sheets) != len(found) or len(sheets) < 3:
        raise InputError("give the class's workbooks (at least three), a folder holding them, or one long .csv / MQM "
                         ".tsv", parameter="--annotations", value=[str(Path(p)) for p in found])
    return [str(p) for p in sheets]


def add_commands(groups: dict) -> None:
    """``template metahope`` and ``feedback metahope``."""
    f = groups["feedback"].add_parser("metahope", help="one page per student from a class's MetaHOPE sheets")
    f.add_argument("--annotations", nargs="+", required=True,
                   help="the returned workbooks (or a folder of them), or one long .csv / MQM .tsv")
    f.add_argument("--out", required=True, help="folder for <student>.html and index.html")
    f.add_argument("--n-boot", type=int, default=2000, help="bootstrap resamples for the bias interval")
    f.set_defaults(handler=_feedback)
    t = groups["template"].add_parser("metahope", help="MetaHOPE error-annotation workbooks")
    t.add_argument("--items", required=True, help="items CSV (word_id, sentence, word, pos, one column per "
                   "system) or a workbook in the released layout")
    t.add_argument("--systems", required=True, help="comma-separated system columns, e.g. A,B,C")
    t.add_argument("--annotators", required=True, help="a number (names A, B, ...) or comma-separated names")
    t.add_argument("--out", required=True, help="folder for metahope_<annotator>.xlsx")
    t.set_defaults(handler=_template)
