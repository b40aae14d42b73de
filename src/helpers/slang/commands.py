"""Command-line subcommands of this study (added to ``python -m helpers`` by ``helpers/__main__.py``)."""

from __future__ import annotations


def add_commands(groups: dict) -> None:
    """None yet."""
