"""Every sentence a page shows lives in its words file (issue 36): no notebook code cell displays
a sentence of its own with ``Markdown(...)``; it shows a words section with ``words.say(...)``, so a
lecturer edits every sentence of a page in ``notebooks/words/<notebook>.md``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
OWN_MARKDOWN = re.compile(r"\bMarkdown\(")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_code_cell_writes_its_own_sentence(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    own = [
        n
        for n, cell in enumerate(cells)
        if cell["cell_type"] == "code" and OWN_MARKDOWN.search("".join(cell["source"]))
    ]
    assert not own, f"{path.name}: code cells {own} display Markdown of their own; move the sentence to a words section"
