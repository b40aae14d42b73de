"""``.venv/bin/python -m helpers``: the command line (:mod:`helpers.core.book.cli`) with every study's subcommands."""

import sys

from .core.book import cli

#: Commands of :mod:`helpers.core.book.cli` that need no study: they skip importing the studies (scipy,
#: scikit-learn and the rest: 3 s, and more on a fresh venv that still compiles them; ``make
#: book`` and ``make test`` start with ``fetch``).
CORE_ONLY = ("mqm", "fetch", "cache")


def main(argv: list[str] | None = None) -> int:
    """``.venv/bin/python -m helpers ...``; returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] and argv[0] in CORE_ONLY:
        return cli.main(argv)
    return cli.main(argv, _studies(argv[0] if argv[:1] and argv[0] in OWN_GROUP else None))


#: Command groups that one study fills alone: ``metrics ...`` imports only the metrics study (its
#: ``metrics score`` is timed against bare sacrebleu in ``make bench``; the other studies' imports
#: cost 4 CPU-s and 120 MB).
OWN_GROUP = ("metrics",)


def _studies(group: str | None = None):
    from .metrics import commands as metrics_commands

    if group == "metrics":
        return (metrics_commands,)
    from .explanations import commands as explanations_commands
    from .figurative import commands as figurative_commands
    from .metahope import commands as metahope_commands
    from .slang import commands as slang_commands

    return (metahope_commands, explanations_commands, slang_commands, metrics_commands, figurative_commands)


if __name__ == "__main__":
    sys.exit(main())
