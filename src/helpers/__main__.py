"""``python -m helpers``: the command line (:mod:`helpers.core.cli`) with every study's subcommands."""

import sys

from .core import cli


def main(argv: list[str] | None = None) -> int:
    """``python -m helpers ...``; returns the exit status. ``mqm`` is a core command and
    skips importing the studies (whose imports cost seconds)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["mqm"]:
        return cli.main(argv)
    return cli.main(argv, _studies())


def _studies():
    from .explanations import commands as explanations_commands
    from .metahope import commands as metahope_commands
    from .slang import commands as slang_commands

    return (metahope_commands, explanations_commands, slang_commands)


if __name__ == "__main__":
    sys.exit(main())
