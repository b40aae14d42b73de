"""Command-line subcommands of this study (added to ``.venv/bin/python -m helpers`` by ``helpers/__main__.py``).

``.venv/bin/python -m helpers template homophones --words 尼玛,特么 --per-word 8 --raters 12 --out DIR``
writes one rating workbook per student (:func:`helpers.slang.template.write_rating_sheets`):
for each chosen slang word, ``--per-word`` of Algorithm 1's candidates drawn at random
(seeded), all shuffled together, with a 1–5 dropdown and an instructions sheet. Chapter 6
reads the returned workbooks through its ``ratings_file`` parameter (a folder or a list).
"""

from __future__ import annotations

from ..core.book import pages
from ..core.classroom import PEOPLE_HELP, add_check_command


def _template(args) -> int:
    from ..core.errors import InputError
    from . import candidates as hc
    from . import homophone_data as hd
    from . import template as kit

    words = [w.strip() for w in args.words.split(",") if w.strip()] if args.words else list(hd.SLANG)
    if not words:
        raise InputError("names no slang word", parameter="--words", value=args.words, expected=" or ".join(hd.SLANG))
    unknown = [w for w in words if w not in hd.SLANG]
    if unknown:
        raise InputError(
            "is not one of the slang words", parameter="--words", value=unknown[0], expected=" or ".join(hd.SLANG)
        )
    if args.per_word < 1:
        raise InputError("must be at least 1", parameter="--per-word", value=args.per_word)
    freq = hd.char_frequencies(hd.load_smp2020()["text"])
    inventory = hc.syllable_inventory()
    cands = {
        w: hc.candidates(w, freq, threshold=args.threshold, roots=hd.SLANG_ROOTS[w], inventory=inventory) for w in words
    }
    for written in kit.write_rating_sheets(cands, words, args.per_word, args.raters, args.out, seed=args.seed):
        print(written)
    return 0


def _check(files, unfinished, args):
    from . import candidates as hc
    from . import homophone_data as hd
    from . import template as kit

    freq = hd.char_frequencies(hd.load_smp2020()["text"])
    inventory = hc.syllable_inventory()
    cands = {
        w: hc.candidates(w, freq, threshold=args.threshold, roots=roots, inventory=inventory)
        for w, roots in hd.SLANG_ROOTS.items()
    }
    loaded = kit.read_class_ratings(files, cands, unfinished)
    return list(loaded.students), len(loaded.ratings), loaded.notes


def add_commands(groups: dict) -> None:
    """``template homophones`` and ``check homophones``."""
    from .template import KIT_PREFIX, rating_sheet_student

    c = add_check_command(
        groups,
        "homophones",
        "homophone rating",
        _check,
        rating_sheet_student,
        KIT_PREFIX,
        chapter=("notebooks/06_homophones.ipynb", "ratings_file"),
    )
    h = pages.texts("slang", "commands")  # the help: slang/pages/commands.yml
    c.add_argument("--threshold", type=int, default=100, help=h["check"]["--threshold"])
    t = groups["template"].add_parser("homophones", help=h["template"]["help"])
    t.add_argument("--words", default=None, help=h["template"]["--words"])
    t.add_argument("--per-word", type=int, required=True, help=h["template"]["--per-word"])
    t.add_argument("--raters", required=True, help=PEOPLE_HELP)
    t.add_argument("--out", required=True, help=h["template"]["--out"])
    t.add_argument("--seed", type=int, default=0, help=h["template"]["--seed"])
    t.add_argument("--threshold", type=int, default=100, help=h["template"]["--threshold"])
    t.set_defaults(handler=_template)
