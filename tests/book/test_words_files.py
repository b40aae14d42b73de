"""The words files a lecturer edits (notebooks/words/*.md) stay easy to edit (issue 36): lines are
wrapped, every `{include:...}` names a section, and every verdict key a findings function can
state has its phrase in the file's `## verdicts` table (checked where the keys are known: the
chapters' own tests render every section)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers.core.book import findings

WORDS = Path(__file__).resolve().parents[2] / "notebooks" / "words"
FILES = sorted(WORDS.glob("*.md"))
WIDTH = 120


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_words_lines_are_wrapped(path):
    long = [
        (n, len(line))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > WIDTH and not line.lstrip().startswith("|")
    ]  # a table row cannot wrap
    assert not long, f"{path.name}: lines longer than {WIDTH} characters (line, length): {long}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_include_names_a_section_of_the_chapter(path):
    shared = tuple(p.stem for p in FILES if not re.match(r"\d\d_", p.stem) and p != path)
    words = findings.Words(path.stem, WORDS, shared=shared if re.match(r"\d\d_", path.stem) else ())
    for name, section in words.sections.items():
        if section.file == path:
            words._section_text(name)  # raises, naming the file and section, for an unknown or circular include
