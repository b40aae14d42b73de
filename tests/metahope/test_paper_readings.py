"""What the book says the MetaHOPE paper claims (issue 35, items 4 and 5): Ratio (M/S) is a ratio
of two separately scored totals, not a share; the paper's "ordered penalty levels"; the model the
paper's appendix names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from helpers.core.book.findings import Words
from helpers.metahope import chapter_common

ROOT = Path(__file__).parents[2]


def _markdown(notebook: str) -> str:
    cells = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def _chapter_1_texts() -> dict[str, str]:
    return {
        "glossary": (ROOT / "book" / "glossary.md").read_text(encoding="utf-8"),
        "chapter 1": _markdown("01_metahope_pilot_v1.ipynb"),
        "chapter 1 words": (ROOT / "notebooks" / "words" / "01_metahope_pilot_v1.md").read_text(encoding="utf-8"),
    }


def test_ratio_m_s_is_not_called_the_share_of_the_penalty_that_metaphors_cause():
    # EPM > EPS in three cells of the released data (chapter 1 shows them): a share cannot exceed its whole
    share = re.compile(r"share of (a system's|the) penalty", re.IGNORECASE)
    assert {name: share.findall(text) for name, text in _chapter_1_texts().items()} == {
        "glossary": [],
        "chapter 1": [],
        "chapter 1 words": [],
    }
    assert "can exceed 1" in _chapter_1_texts()["glossary"]


def test_the_paper_is_quoted_as_ordered_penalty_levels_not_as_saying_ordinal():
    # paper §4.2.1: the severities are treated "as ordered penalty levels (0, 2, 4, 6, 8, 10)"
    says_ordinal = re.compile(r"(paper|§4\.2\.1)[^.]{0,40}\bsays?\b[^.]{0,60}\bordinal\b", re.IGNORECASE)
    texts = {
        **_chapter_1_texts(),
        "agreement": (ROOT / "src/helpers/core/statistics/agreement.py").read_text(encoding="utf-8"),
    }
    assert {name: says_ordinal.findall(text) for name, text in texts.items()} == {name: [] for name in texts}
    assert "ordered penalty levels" in texts["chapter 1"] and "ordered penalty levels" in texts["chapter 1 words"]


def test_chapter_1_names_the_model_as_the_papers_appendix_does():
    # appendix: "Hunyuan-MT-7B", a model made for translation; the tables' label Hunyuan-LLM-7B stays the system's
    page = _markdown("01_metahope_pilot_v1.ipynb")
    assert "Hunyuan-MT-7B" in page and "built for translation" in page and "not a clean contrast of NMT" in page
