"""MetaHOPE's command-line subcommands (added to ``.venv/bin/python -m helpers`` by ``helpers/__main__.py``)."""

from __future__ import annotations

from ..core import paths
from ..core.book import pages
from ..core.classroom import PEOPLE_HELP, add_check_command, add_show_names_option, add_unfinished_option


def _template(args) -> int:
    from .template import write_templates

    for written in write_templates(paths.resolve_input(args.items), args.systems.split(","), args.annotators, args.out):
        print(written)
    return 0


def _feedback(args) -> int:
    from ..core.errors import InputError
    from .feedback import write_feedback
    from .load import load_class

    loaded = load_class(_annotation_spec(args.annotations), unfinished=args.unfinished)
    for note in loaded.notes:
        print(note)
    if loaded.tidy["annotator"].nunique() < 3:
        raise InputError(
            f"feedback against a class needs at least three students; {loaded.tidy['annotator'].nunique()} are left",
            parameter="--annotations",
            value=list(loaded.tidy["annotator"].unique()),
        )
    for written in write_feedback(
        loaded.tidy,
        args.out,
        n_boot=args.n_boot,
        show_names=args.show_names,
        notes=loaded.notes,
        left_out=loaded.left_out,
    ):
        print(written)
    return 0


def _annotation_spec(values: list[str]):
    """One long .csv / MQM .tsv -> that file; otherwise the folders and workbooks as given."""
    if len(values) == 1 and paths.resolve_input(values[0]).suffix.lower() in (".csv", ".tsv", ".txt"):
        return values[0]
    return list(values)


def _student_field(path):
    from .workbooks import workbook_student

    return workbook_student(path)


def _check(files, unfinished, args):
    from .load import load_class

    loaded = load_class(files, unfinished=unfinished)
    return list(loaded.students), loaded.tidy["item"].nunique(), loaded.notes


def add_commands(groups: dict) -> None:
    """``template metahope``, ``feedback metahope`` and ``check metahope``."""
    from .workbooks import KIT_PREFIX

    add_check_command(
        groups,
        "metahope",
        "MetaHOPE annotation",
        _check,
        _student_field,
        KIT_PREFIX,
        chapter=("notebooks/03_metahope_pilot_v2.ipynb", "annotations"),
        feedback="--annotations",
    )
    h = pages.texts("metahope", "commands")  # the help: metahope/pages/commands.yml
    f = groups["feedback"].add_parser("metahope", help=h["feedback"]["help"])
    f.add_argument("--annotations", nargs="+", required=True, help=h["feedback"]["--annotations"])
    f.add_argument("--out", required=True, help=h["feedback"]["--out"])
    f.add_argument("--n-boot", type=int, default=2000, help=h["feedback"]["--n-boot"])
    add_show_names_option(f)
    add_unfinished_option(f)
    f.set_defaults(handler=_feedback)
    t = groups["template"].add_parser("metahope", help=h["template"]["help"])
    t.add_argument("--items", required=True, help=h["template"]["--items"])
    t.add_argument("--systems", required=True, help=h["template"]["--systems"])
    t.add_argument("--annotators", required=True, help=PEOPLE_HELP)
    t.add_argument("--out", required=True, help=h["template"]["--out"])
    t.set_defaults(handler=_template)
