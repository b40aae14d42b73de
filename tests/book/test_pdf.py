"""The printable edition (helpers.core.book.pdf): read back with pypdf, the PDF holds each chapter's
title, its figures as images, an embedded CJK font with the Chinese text extractable, and in the
student edition no solution text.

``make test`` prints two chapters of the test book in the student edition (a partial book: the root
page, chapters 1 and 6 and the reference pages); ``make bench`` builds the whole PDFs with ``make pdf`` and
``make pdf-student`` and runs :func:`test_whole_editions` on them (``BOOK_PDF_BUILD`` names the
``_build`` folder that holds them; skipped without it).
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest

from conftest import chromium_path, student_edition_strings

pytestmark = [pytest.mark.slow, pytest.mark.browser]

CJK = re.compile(r"[\u4e00-\u9fff]{2,}")
#: Chapter 1 (its solutions are the strings the student edition must not hold) and chapter 6 (Chinese in
#: its tables and text; chapter 1 shows none).
CHAPTERS = ["notebooks/01_metahope_pilot_v1", "notebooks/06_homophones"]


def _compact(text: str) -> str:
    """Text without white space, so that a line broken on paper still matches, and with straight
    quotes (Sphinx prints "it's" as "it’s")."""
    return re.sub(r"\s+", "", text).translate(str.maketrans("‘’“”", "''\"\""))


def read_pdf(path: Path) -> dict:
    """What the checks need from a PDF, read with pypdf: the text of all pages, the images
    drawn (XObjects of subtype Image, also inside form XObjects) and every font with whether its
    file is embedded."""
    from pypdf import PdfReader

    reader = PdfReader(path)
    fonts, images, seen = {}, 0, set()

    def walk(resources):
        nonlocal images
        if not resources:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and font.get("/DescendantFonts"):
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            fonts[str(font.get("/BaseFont"))] = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        for ref in (resources.get("/XObject") or {}).values():
            key = getattr(ref, "idnum", None)
            obj = ref.get_object()
            if key in seen:
                continue
            seen.add(key)
            if obj.get("/Subtype") == "/Image":
                images += 1
            elif obj.get("/Subtype") == "/Form":
                walk(obj.get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    text = "\n".join(page.extract_text() or "" for page in reader.pages)

    def titles(items):
        for item in items:
            yield from (titles(item) if isinstance(item, list) else [item.title])

    return {
        "text": text,
        "images": images,
        "fonts": fonts,
        "pages": len(reader.pages),
        "outline": list(titles(reader.outline)),
    }


def _executed(stage: Path, entry: str, student: bool = False) -> dict:
    """The executed chapter; ``student``: its student edition (helpers.core.book.editions), what the
    student PDF prints of it."""
    import nbformat

    from helpers.core.book import editions

    nb = nbformat.read(stage / f"{entry}.ipynb", as_version=4)
    return editions.student_notebook(nb, entry) if student else nb


def chapter_title(stage: Path, entry: str) -> str:
    """The chapter's ``# `` heading in its notebook."""
    for cell in _executed(stage, entry)["cells"]:
        text = "".join(cell["source"]).strip()
        if cell["cell_type"] == "markdown" and text.startswith("# "):
            return text.splitlines()[0][2:].strip()
    raise AssertionError(f"{entry} has no title")


def figure_count(stage: Path, entry: str, student: bool = False) -> int:
    """How many interactive figures the executed chapter shows (plotly outputs)."""
    return sum(
        "application/vnd.plotly.v1+json" in o.get("data", {})
        for c in _executed(stage, entry, student)["cells"]
        for o in c.get("outputs", [])
    )


def chinese_in_outputs(stage: Path, entry: str, student: bool = False) -> list[str]:
    """Runs of Chinese characters in the chapter's shown tables and text (not in its figures)."""
    found = []
    for cell in _executed(stage, entry, student)["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "application/vnd.plotly.v1+json" in data:
                continue
            for mime in ("text/html", "text/markdown"):
                found += CJK.findall(re.sub(r"<[^>]+>", " ", "".join(data.get(mime, ""))))
    return list(dict.fromkeys(found))


def check_pdf(facts: dict, stage: Path, entries: list[str], student: bool = False) -> None:
    """Every chapter's title, at least as many images as the chapters have figures, an
    embedded CJK font and the Chinese the chapters show, extractable (``student``: of the
    chapters' student edition)."""
    text = _compact(facts["text"])
    for entry in entries:
        assert _compact(chapter_title(stage, entry)) in text, entry
    figures = sum(figure_count(stage, e, student) for e in entries)
    assert figures >= 1 and facts["images"] >= figures, (facts["images"], figures)
    cjk_fonts = [name for name, embedded in facts["fonts"].items() if "NotoSansSC" in name or "CJK" in name]
    assert cjk_fonts and all(facts["fonts"][n] for n in cjk_fonts), facts["fonts"]
    assert all(embedded for embedded in facts["fonts"].values()), facts["fonts"]  # nothing left to the reader's fonts
    chinese = [c for e in entries for c in chinese_in_outputs(stage, e, student)]
    assert chinese, "the chapters printed show Chinese"
    assert sum(c in text for c in chinese) >= 0.9 * len(chinese), [c for c in chinese if c not in text][:10]
    assert "plotly-graph-div" not in facts["text"] and "Plotly.newPlot" not in facts["text"]


@pytest.fixture(scope="module")
def printed(built_book):
    """Chapters 1 and 6 of the test book printed in the student edition (the instructor edition is
    the same route with the solutions kept: make bench checks both whole PDFs)."""
    if chromium_path() is None:
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail("REQUIRE_BROWSER is set but Chromium is missing: apt-get install chromium")
        pytest.skip("Chromium not installed (apt-get install chromium)")
    from helpers.core.book import pdf

    return pdf.build_pdf("student", output_dir=built_book["html"].parent.parent, entries=CHAPTERS)


def test_one_chapter_prints_with_its_figures_and_chinese(built_book, printed):
    assert printed.pdf.parts[-3:] == ("partial", "student", "book.pdf")
    check_pdf(read_pdf(printed.pdf), built_book["stage"], CHAPTERS, student=True)


def test_student_pdf_has_no_solution(built_book, printed):
    student = _compact(read_pdf(printed.pdf)["text"])
    for s in student_edition_strings(built_book["html"]):
        assert _compact(html.unescape(s)) not in student, s


@pytest.mark.skipif(not os.environ.get("BOOK_PDF_BUILD"), reason="make bench: the whole PDFs")
def test_whole_editions():
    """The two PDFs of ``make pdf`` and ``make pdf-student`` (``$BOOK_PDF_BUILD/pdf/book.pdf``,
    ``$BOOK_PDF_BUILD/student/pdf/book.pdf``): every chapter of the table of contents, in order."""
    from helpers.core.book import build

    build_dir = Path(os.environ["BOOK_PDF_BUILD"])
    stage = build_dir / "stage"
    chapters = [e for e in build.toc_entries(stage / "_toc.yml") if (stage / f"{e}.ipynb").exists()]
    strings = [html.unescape(s) for s in student_edition_strings(build_dir / "html")]
    for edition in ("pdf", "student/pdf"):
        facts = read_pdf(build_dir / edition / "book.pdf")
        check_pdf(facts, stage, chapters, student=edition.startswith("student"))
        text = _compact(facts["text"])
        outline = [_compact(t) for t in facts["outline"]]
        at = [outline.index(_compact(chapter_title(stage, e))) for e in chapters]
        assert at == sorted(at), "chapters in the order of the table of contents"
        if edition.startswith("student"):
            assert not [s for s in strings if _compact(s) in text]
        else:  # the instructor edition prints every solution, unfolded
            assert all(_compact(s) in text for s in strings), [s for s in strings if _compact(s) not in text]
