"""``python -m helpers``: the command line (:mod:`helpers.core.cli`) with every study's subcommands."""

import sys

from .core import cli
from .explanations import commands as explanations_commands
from .metahope import commands as metahope_commands
from .slang import commands as slang_commands

STUDIES = (metahope_commands, explanations_commands, slang_commands)


def main(argv: list[str] | None = None) -> int:
    """``python -m helpers ...``; returns the exit status."""
    return cli.main(argv, STUDIES)


if __name__ == "__main__":
    sys.exit(main())
