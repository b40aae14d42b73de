"""Every chapter has one module, ``helpers.<study>.chNN``, with the same surface, and its
findings can be recomputed from the result CSVs it saved (issue 36).

The surface: ``setup`` (checks the parameters) returning a frozen ``Setup`` whose ``load()``
gives the chapter's frozen ``Data`` box (a :class:`~helpers.core.book.report.ChapterData`),
``description``, ``FINDINGS_INPUTS`` (the result files the findings read) and ``findings(folder)``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import math
import re
from pathlib import Path

import pandas as pd
import pytest

from helpers.core.book import build
from helpers.core.book.findings import COLUMNS
from helpers.core.book.report import ChapterData

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = [p.stem for p in build.toc_notebooks()]


def chapter_module(chapter: str):
    """The one module ``src/helpers/<study>/chNN.py`` of chapter ``NN_name``."""
    found = sorted((ROOT / "src" / "helpers").glob(f"*/ch{chapter[:2]}.py"))
    assert len(found) == 1, f"chapter {chapter}: {len(found)} modules ch{chapter[:2]}.py ({found})"
    return importlib.import_module(f"helpers.{found[0].parent.name}.ch{chapter[:2]}")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_chapter_module_has_the_same_surface(chapter):
    module = chapter_module(chapter)
    for name in ("setup", "description", "findings"):
        assert inspect.isfunction(getattr(module, name, None)), f"{module.__name__} has no function {name}"
    for name in ("Setup", "Data"):
        cls = getattr(module, name, None)
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, (
            f"{module.__name__}.{name} is not a frozen dataclass"
        )
    assert issubclass(module.Data, ChapterData), f"{module.__name__}.Data is not a ChapterData"
    assert callable(getattr(module.Setup, "load", None)), f"{module.__name__}.Setup has no load()"
    assert inspect.signature(module.setup).return_annotation in ("Setup", module.Setup)
    inputs = module.FINDINGS_INPUTS
    assert isinstance(inputs, tuple) and inputs and all(re.fullmatch(r"\w+", n) for n in inputs), inputs


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_notebook_imports_its_chapter_module_by_name(chapter):
    module = chapter_module(chapter)
    cells = json.loads((ROOT / "notebooks" / f"{chapter}.ipynb").read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    study, name = module.__name__.split(".")[1:]
    assert f"from helpers.{study} import {name}" in code, chapter
    assert f"{name}.findings(" in code and f"{name}.setup(" in code, chapter


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_findings_of_a_folder_without_results_are_all_not_applicable(chapter, tmp_path):
    """With no result file, every quantity is still there (so the words can name it) and none applies."""
    frame = chapter_module(chapter).findings(tmp_path)
    assert list(frame.columns[: len(COLUMNS)]) == COLUMNS
    assert len(frame) > 0
    stated = frame[frame["value"].notna() | (frame["text"].fillna("") != "")]
    assert stated.empty, f"{chapter}: stated without any result file: {stated['quantity'].tolist()}"


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


@pytest.mark.slow
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_findings_recomputed_from_the_saved_csvs_equal_the_page(built_book, chapter):
    """The built book's ``findings.csv`` (what the page stated) is what ``findings`` recomputes
    from the chapter's other result files alone."""
    folder = built_book["results"] / chapter
    module = chapter_module(chapter)
    saved = pd.read_csv(
        folder / "findings.csv", keep_default_na=False, na_values=[""], dtype={"group": str, "text": str}
    )
    assert set(module.FINDINGS_INPUTS) <= {p.stem for p in folder.glob("*.csv")}, chapter
    again = module.findings(folder)
    key = ["quantity", "group"]
    saved = saved.assign(group=saved["group"].fillna("").astype(str)).drop_duplicates(key).set_index(key)
    again = again.assign(group=again["group"].fillna("").astype(str)).drop_duplicates(key).set_index(key)
    missing = sorted(set(saved.index) - set(again.index))
    assert not missing, f"{chapter}: the page stated {missing[:5]}, which findings() does not recompute"
    for index, row in saved.iterrows():
        for column in ("value", "ci_low", "ci_high", "p"):
            assert _same(float(row[column]), float(again.loc[index, column])), (chapter, index, column)
        assert str(row["text"] if pd.notna(row["text"]) else "") == str(
            again.loc[index, "text"] if pd.notna(again.loc[index, "text"]) else ""
        ), (chapter, index, "text")
