"""The explanation study's command-line subcommands (added to ``python -m helpers`` by ``helpers/__main__.py``).

* ``template explanations --items ITEMS.csv --raters N|names --out DIR``: one rating
  workbook per rater (:mod:`helpers.explanations.template`);
* ``feedback explanations --ratings PATH --out DIR``: one feedback page per student
  (:mod:`helpers.explanations.feedback`) from a folder of returned workbooks, a list of
  them, or a long ratings CSV.
"""

from __future__ import annotations

from ..core.classroom import PEOPLE_HELP, add_check_command, add_unfinished_option


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
    for written in write_pages(feedback, paths.resolve_output(args.out), show_names=args.show_names, notes=loaded.notes,
                               left_out=loaded.left_out):
        print(written)
    return 0


def _check(files, unfinished, args):
    from .io import read_workbooks

    loaded = read_workbooks(files, unfinished=unfinished)
    return list(loaded.ratings["rater"].unique()), loaded.ratings["item_id"].nunique(), loaded.notes


def add_commands(groups: dict) -> None:
    """``template explanations``, ``feedback explanations`` and ``check explanations``."""
    from .io import KIT_PREFIX, sheet_student

    add_check_command(groups, "explanations", "explanation rating", _check, sheet_student, KIT_PREFIX,
                      chapter=("notebooks/04_explanation_judgements.ipynb", "ratings_file"), feedback="--ratings")
    t = groups["template"].add_parser("explanations", help="metaphor-explanation rating workbooks (1–5 on six "
                                      "dimensions and Overall)")
    t.add_argument("--items", required=True, help="items table, .csv (UTF-8 or GBK) or .xlsx (first sheet), "
                   "with item_id, metaphor, explanation (e.g. data/authored/metaphor_explanations.csv; other columns "
                   "are not copied)")
    t.add_argument("--raters", required=True, help=PEOPLE_HELP)
    t.add_argument("--out", required=True, help="folder for explanations_<rater>.xlsx")
    t.set_defaults(handler=_template)

    f = groups["feedback"].add_parser("explanations", help="one Markdown feedback page per student from a class's "
                                      "explanation ratings")
    f.add_argument("--ratings", required=True, help="a folder of returned workbooks, workbooks separated by commas, "
                   "or a long CSV (item_id, rater, dimension, score)")
    f.add_argument("--out", required=True, help="folder for feedback_<rater>.html (and .md), the lecturer's "
                   "index.html and class_summary.csv")
    f.add_argument("--score", default="overall", choices=["non_circularity", "origin", "mapping", "emergence",
                                                          "accessibility", "purpose", "overall"],
                   help="the score on which students' agreement is computed (default: overall)")
    f.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples of the items for the leniency "
                   "interval")
    f.add_argument("--seed", type=int, default=0, help="seed of the bootstrap")
    f.add_argument("--show-names", action="store_true", help="name classmates on each student's page (default: "
                   "classmate 1 ... n, numbered in a random order on each page; the lecturer's index.html always "
                   "has the names)")
    add_unfinished_option(f)
    f.set_defaults(handler=_feedback)
