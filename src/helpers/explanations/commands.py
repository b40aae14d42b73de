"""The explanation study's command-line subcommands (added to ``.venv/bin/python -m helpers`` by ``helpers/__main__.py``).

* ``template explanations --items ITEMS.csv --raters N|names --out DIR``: one rating
  workbook per rater (:mod:`helpers.explanations.template`);
* ``feedback explanations --ratings PATH --out DIR``: one feedback page per student
  (:mod:`helpers.explanations.feedback`) from a folder of returned workbooks, a list of
  them, or a long ratings CSV.
"""

from __future__ import annotations

from ..core.book import pages
from ..core.classroom import PEOPLE_HELP, add_check_command, add_show_names_option, add_unfinished_option


def _template(args) -> int:
    from .template import write_templates

    for written in write_templates(args.items, args.raters, args.out):
        print(written)
    return 0


def _feedback(args) -> int:
    from ..core import paths
    from .feedback import class_feedback, write_pages
    from .io import load_ratings

    source = [s.strip() for s in args.ratings.split(",")] if "," in args.ratings else args.ratings
    loaded = load_ratings(source, unfinished=args.unfinished)
    for note in loaded.notes:
        print(note)
    feedback = class_feedback(loaded.ratings, agreement_on=args.score, n_boot=args.n_boot, seed=args.seed)
    for written in write_pages(
        feedback,
        paths.resolve_output(args.out),
        show_names=args.show_names,
        notes=loaded.notes,
        left_out=loaded.left_out,
    ):
        print(written)
    return 0


def _check(files, unfinished, args):
    from .io import read_workbooks

    loaded = read_workbooks(files, unfinished=unfinished)
    return list(loaded.ratings["rater"].unique()), loaded.ratings["item_id"].nunique(), loaded.notes


def add_commands(groups: dict) -> None:
    """``template explanations``, ``feedback explanations`` and ``check explanations``."""
    from .io import KIT_PREFIX, sheet_student

    add_check_command(
        groups,
        "explanations",
        "explanation rating",
        _check,
        sheet_student,
        KIT_PREFIX,
        chapter=("notebooks/04_explanation_judgements.ipynb", "ratings_file"),
        feedback="--ratings",
    )
    h = pages.texts("explanations", "commands")  # the help: explanations/pages/commands.yml
    t = groups["template"].add_parser("explanations", help=h["template"]["help"])
    t.add_argument("--items", required=True, help=h["template"]["--items"])
    t.add_argument("--raters", required=True, help=PEOPLE_HELP)
    t.add_argument("--out", required=True, help=h["template"]["--out"])
    t.set_defaults(handler=_template)

    f = groups["feedback"].add_parser("explanations", help=h["feedback"]["help"])
    f.add_argument("--ratings", required=True, help=h["feedback"]["--ratings"])
    f.add_argument("--out", required=True, help=h["feedback"]["--out"])
    f.add_argument(
        "--score",
        default="overall",
        choices=["non_circularity", "origin", "mapping", "emergence", "accessibility", "purpose", "overall"],
        help=h["feedback"]["--score"],
    )
    f.add_argument("--n-boot", type=int, default=1000, help=h["feedback"]["--n-boot"])
    f.add_argument("--seed", type=int, default=0, help=h["feedback"]["--seed"])
    add_show_names_option(f)
    add_unfinished_option(f)
    f.set_defaults(handler=_feedback)
