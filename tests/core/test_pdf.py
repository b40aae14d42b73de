"""The printable edition's parts that need no browser: the partial table of contents, the
refusals that name what is missing, and the font cut for print (helpers.core.book.pdf)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont

from helpers.core import paths
from helpers.core.book import build, pdf


def _stage(tmp_path: Path) -> Path:
    stage = tmp_path / "_build" / "stage"
    stage.mkdir(parents=True)
    shutil.copy(paths.project_root() / "_toc.yml", stage / "_toc.yml")
    shutil.copy(paths.project_root() / "_config.yml", stage / "_config.yml")
    return stage


def test_partial_toc_keeps_the_root_the_pages_asked_for_and_the_reference_pages(tmp_path):
    stage = _stage(tmp_path)
    path = pdf.partial_toc(stage, ["notebooks/01_metahope_pilot_v1"])
    assert build.toc_entries(path) == [
        "book/intro",
        "notebooks/01_metahope_pilot_v1",
        "book/glossary",
        "book/bibliography",
    ]
    assert yaml.safe_load(path.read_text())["format"] == "jb-book"
    with pytest.raises(pdf.MissingPiece, match="notebooks/99_none is not in the table of contents"):
        pdf.partial_toc(stage, ["notebooks/99_none"])


def test_the_student_edition_of_a_partial_toc_leaves_the_answer_key_out(tmp_path):
    stage = _stage(tmp_path)
    toc = pdf.partial_toc(stage, ["notebooks/05_explanation_evaluator", "book/explanation_items"])
    student = build.student_toc(stage, toc)
    assert student.name == "_toc_partial_student.yml"
    assert "book/explanation_items" not in build.toc_entries(student)
    assert "notebooks/05_explanation_evaluator" in build.toc_entries(student)


def test_a_book_not_executed_is_refused_naming_the_notebook_and_make_book(tmp_path):
    _stage(tmp_path)
    with pytest.raises(pdf.MissingPiece, match=r"no executed copy of notebooks/01_metahope_pilot_v1\.ipynb.*make book"):
        pdf.check_executed(tmp_path / "_build", ["notebooks/01_metahope_pilot_v1"])


def test_a_missing_chromium_is_named_with_its_package(monkeypatch, tmp_path):
    monkeypatch.setenv("CHROMIUM", str(tmp_path / "no-such-browser"))
    assert pdf.chromium_path() is None
    with pytest.raises(pdf.MissingPiece, match="apt-get install chromium"):
        pdf.require_chromium()
    monkeypatch.setenv("CHROMIUM", str(tmp_path))
    assert pdf.chromium_path() == str(tmp_path)


def test_a_missing_font_package_is_named(monkeypatch):
    import builtins

    real = builtins.__import__

    def refuse(name, *args, **kwargs):
        if name == "pylopdf_fonts_zh_cn":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    with pytest.raises(pdf.MissingPiece, match="pylopdf-fonts-zh-cn"):
        pdf.cjk_font()


def test_the_printable_font_holds_the_characters_used_with_the_same_outlines(tmp_path):
    """Cut for 成语 and a comma: TrueType outlines (glyf), only those characters' glyphs, and each
    glyph's bounding box and advance as in Noto Sans SC itself, within the 1-unit conversion tolerance."""
    source = pdf.cjk_font()
    out = pdf.printable_font(source, "成语，成", tmp_path / "cut.ttf")
    cut, original = TTFont(out), TTFont(source)
    assert "glyf" in cut and "CFF " not in cut and cut.sfntVersion == "\x00\x01\x00\x00"
    assert sorted(cut.getBestCmap()) == sorted(map(ord, "成语，"))
    # .notdef, the three characters and the forms GSUB can substitute for them (the vertical comma)
    assert len(cut.getGlyphOrder()) <= 6 < len(original.getGlyphOrder())
    for char in "成语，":
        boxes = []
        for font in (cut, original):
            name = font.getBestCmap()[ord(char)]
            glyphs = font.getGlyphSet()
            pen = BoundsPen(glyphs)
            glyphs[name].draw(pen)
            boxes.append((pen.bounds, font["hmtx"][name][0]))
        (cut_box, cut_advance), (box, advance) = boxes
        assert cut_advance == advance
        assert all(abs(a - b) <= 1.5 for a, b in zip(cut_box, box)), (char, cut_box, box)
    assert cut["name"].getDebugName(6) == "NotoSansSC-Regular"  # the name the PDF shows
