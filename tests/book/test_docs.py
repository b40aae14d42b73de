"""The docs say what the book is and give commands that work as typed: one command form,
``.venv/bin/python -m helpers``, everywhere a user reads one (issue 43, point 10), and an
introduction that names every chapter and study package the book has."""

from __future__ import annotations

import argparse
import re

from helpers.core import paths
from helpers.core.book import build

ROOT = paths.project_root()

#: ``python -m helpers`` not preceded by an interpreter's path (``.venv/bin/``, ``$(BIN)/``,
#: Windows' ``.venv\Scripts\``): outside an activated venv it is another Python, without the book.
BARE = re.compile(r"(?<![/\\\w.$])python -m helpers")


def doc_files() -> list:
    """Every file a user reads a command in: the README, the book's pages, the chapters and their
    words, the package's pages, docstrings and messages, the tools, the data lists."""
    files = [
        ROOT / "README.md",
        ROOT / "_config.yml",
        ROOT / "data" / "sources.yml",
        ROOT / "data" / "measured" / "README.md",
    ]
    for pattern in (
        "book/*.md",
        "notebooks/*.ipynb",
        "notebooks/words/*.md",
        "src/helpers/**/*.py",
        "src/helpers/**/pages/*",
        "tools/**/*.py",
        "tools/**/*.md",
    ):
        files += sorted(ROOT.glob(pattern))
    return [f for f in files if f.is_file()]


def test_bare_pattern_tells_the_forms_apart():
    assert BARE.findall("run `python -m helpers run X`, then python -m helpers fetch") == ["python -m helpers"] * 2
    for written in (
        ".venv/bin/python -m helpers run",
        "$(BIN)/python -m helpers build",
        r".venv\Scripts\python -m helpers fetch",
        "/usr/bin/python -m helpers",
    ):
        assert not BARE.search(written), written


def test_every_command_in_the_docs_names_the_projects_interpreter():
    files = doc_files()
    assert len(files) > 100 and ROOT / "book" / "rerun.md" in files
    bare = {f.relative_to(ROOT).as_posix(): len(BARE.findall(f.read_text(encoding="utf-8"))) for f in files}
    assert {name: n for name, n in bare.items() if n} == {}


def test_every_command_help_names_the_projects_interpreter():
    from helpers.__main__ import _studies
    from helpers.core.book import cli

    def helps(parser):
        yield parser.format_help()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from helps(sub)

    texts = list(helps(cli.build_parser(_studies())))
    assert len(texts) > 15 and all(".venv/bin/python -m helpers" in t for t in texts)
    assert not [t for t in texts if BARE.search(t)]


def test_the_intro_names_every_chapter_and_study_package():
    """No count that goes stale ("three studies" in a ten-chapter book): the table links every
    chapter, and the package list gives every study package with the chapters it holds."""
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    for nb in build.toc_notebooks():
        assert f"{{doc}}`../notebooks/{nb.stem}`" in intro, nb.stem
    said = {
        m[1]: set(range(int(m[2]), int(m[3] or m[2]) + 1))
        for m in re.finditer(r"`helpers\.(\w+)` \((?:chapters )?(\d+)(?:–(\d+))?\)", intro)
    }
    packages = {
        p.name: {int(c.stem[2:]) for c in p.glob("ch[0-9][0-9].py")}
        for p in sorted((ROOT / "src" / "helpers").iterdir())
        if p.is_dir() and p.name != "core" and (p / "__init__.py").exists()
    }
    assert said == packages
    for page in ("intro.md", "course.md"):
        text = (ROOT / "book" / page).read_text(encoding="utf-8")
        counts = re.findall(
            r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|\d+) (?:studies|chapters)\b", text
        )
        assert counts == [], page
