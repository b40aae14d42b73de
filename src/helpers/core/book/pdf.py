"""The printable edition (``.venv/bin/python -m helpers pdf``, ``make pdf`` and ``make pdf-student``): the
book as one PDF, from the executed notebooks of the last build (nothing is executed again).

Route: Jupyter Book renders the staged book with Sphinx's ``singlehtml`` builder (every page of
the table of contents, in its order, on one HTML page), and headless Chromium prints that page
through playwright. In that builder each figure is its static twin: :meth:`Results.show
<helpers.core.book.results.Results.show>` puts the twin's PNG into the figure's output beside its
HTML div, and ``_config.yml`` ranks ``image/png`` before ``text/html`` for ``singlehtml`` only, so
no plotly box and no JavaScript reaches the paper. The print style sheet
(``core/book/pages/print.css``) hides the site's navigation, breaks the page before each page of the
book and sets A4; :data:`FIT_TABLES` opens the folded solutions and shrinks every table wider than
the text column to fit it; playwright adds page numbers and a PDF outline. Chinese is printed in
Noto Sans SC from the PyPI package ``pylopdf-fonts-zh-cn`` (the static figures' font, already a
requirement): the characters the page uses are cut from it with TrueType outlines
(:func:`printable_font`), which Chromium embeds as a named subset font. No system font and no
root are needed; headless Chromium on a machine without CJK fonts prints boxes otherwise.

The routes, measured on this project's 2 shared cores (load average about 10 from other jobs) on
2026-12-07 with ``tools/measure_pdf_routes.py`` (``data/measured/pdf_routes*.csv``); "chapter 8"
is the partial book of the root page, chapter 8 and the reference pages (``--only``):

==========================  ====================  ====================================  ======================================
route                       time, size            fidelity                              must be installed
==========================  ====================  ====================================  ======================================
singlehtml + Chromium       chapter 8: 44 s       every page in order, tables (wide     Debian ``chromium`` (as the browser
(chosen)                    (render 31, print     ones shrunk), static twins, Chinese   test); playwright and the font are
                            12), 1.7 MB, 24 pp.   in embedded Noto Sans SC, page        requirements already
                            whole book,           numbers, outline, solutions open
                            instructor: 123 s     (instructor)
                            (render 55, print
                            52), 10.7 MB, 148
                            pp., 27 figures;
                            student: 105 s
                            (render 43, print
                            50), 9.7 MB, 132 pp.
``jupyter-book build        fails offline         its ``html_to_pdf`` launches          playwright's own Chromium build
--builder pdfhtml``         (30 s, then "Execu-   playwright's bundled browser with no  (``playwright install chromium``: a
                            table doesn't         way to name another; its print step   download, not offline)
                            exist")               run with the system Chromium: 7 s,
                                                  0.7 MB, 20 pp., but unstyled, no
                                                  margins or page numbers, the site's
                                                  navigation printed, wide tables cut
                                                  at the edge, no CJK font of its own
``jupyter-book build        chapter 8: 39 s,      every result table lost: a table is   TeX Live: texlive-xetex,
--builder pdflatex``        0.6 MB, 40 pp.;       a pandas Styler, which has only an    texlive-lang-chinese (xeCJK),
(XeLaTeX + xeCJK, Sphinx's  latexmk reports       HTML form, and prints as "<pandas.io  texlive-latex-extra, latexmk: about
LaTeX class)                errors                ...Styler object at 0x...>" (the      400 MB; Jupyter Book's own class
                                                  data box, galleries: "<IPython...HTML also needs bbm.sty, only in
                                                  object>"); static twins and Chinese   texlive-fonts-extra (1.4 GB); pdflatex
                                                  print, but Greek (α) is missing, the  itself cannot set Chinese
                                                  intro's sections become chapters
                                                  with blank pages, wide tables run
                                                  past the margin
==========================  ====================  ====================================  ======================================

A missing piece (Chromium, the font package, playwright, an executed notebook) is a
:class:`MissingPiece` error naming it and how to get it.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from .. import paths
from . import build

#: Where the PDF of each edition is written, below ``_build``.
OUTPUT = {"instructor": Path("pdf") / "book.pdf", "student": Path("student") / "pdf" / "book.pdf"}

#: Where the student PDF is copied in each built HTML book, the course page's handout link.
HANDOUT = Path("pdf") / "book-student.pdf"

#: The reference pages every partial book keeps, so that its glossary terms and citations resolve.
REFERENCE_PAGES = ("book/glossary", "book/bibliography")

#: The printable width of an A4 page with :data:`MARGIN`, in CSS pixels (96 per inch): the
#: browser lays the page out at this width before the tables are fitted.
MARGIN = {"top": "16mm", "bottom": "18mm", "left": "15mm", "right": "15mm"}
TEXT_WIDTH_PX = round((210 - 30) / 25.4 * 96)

#: Run in the page before printing (``core/book/pages/print.js``): open every folded solution, then shrink
#: (CSS ``zoom``) each table wider than its column until it fits, no smaller than half size.
FIT_TABLES = Path(__file__).parent / "pages" / "print.js"

#: The page number at the foot of every page (playwright's footer template).
FOOTER = (
    '<div style="width:100%;font-size:8pt;text-align:center;color:#555;font-family:sans-serif">'
    '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
)


class MissingPiece(RuntimeError):
    """Something the printable edition needs is not on this machine; the message names it."""


@dataclass(frozen=True)
class Printed:
    """One printed edition: the PDF, its size, the seconds of each step and what was fitted."""

    pdf: Path
    render_seconds: float
    print_seconds: float
    tables_shrunk: int
    tables_overflowing: tuple[int, ...]

    @property
    def megabytes(self) -> float:
        return self.pdf.stat().st_size / 1e6


def chromium_path() -> str | None:
    """The Chromium that prints the book and that the browser test drives: ``$CHROMIUM`` when
    set, else Debian's ``chromium`` (or ``chromium-browser``) on the ``PATH``; None when none."""
    named = os.environ.get("CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None)
        if found:
            return found
    return None


def require_chromium() -> str:
    """:func:`chromium_path`, or a :class:`MissingPiece` naming the Debian package."""
    found = chromium_path()
    if found is None:
        raise MissingPiece(
            "Chromium is needed to print the PDF and was not found: apt-get install chromium "
            "(Debian; .ci/run does it), or set CHROMIUM to a Chromium or Chrome executable"
        )
    return found


def cjk_font() -> Path:
    """The OpenType file of Noto Sans SC that ``pylopdf-fonts-zh-cn`` ships (the static figures'
    font, :func:`helpers.core.book.plots.use_cjk_font`)."""
    try:
        from pylopdf_fonts_zh_cn import sans_path
    except ImportError:
        raise MissingPiece(
            "the PyPI package pylopdf-fonts-zh-cn (Noto Sans SC, for the Chinese text) is not "
            "installed: run make setup, or pip install -r requirements.txt"
        ) from None
    return Path(sans_path())


def printable_font(font: Path, text: str, out: Path) -> Path:
    """Write to ``out`` the glyphs of ``font`` that ``text`` uses, with TrueType outlines.

    Chromium's PDF writer (Skia) embeds a TrueType font as a named, subset CID font, but draws
    the glyphs of a CFF-flavoured OpenType font, such as Noto Sans SC, as one anonymous Type 3
    font per glyph range: printed, but no font a reader or ``pdffonts`` can name. So the
    characters the page uses are cut out of the font (fontTools' subsetter) and their cubic
    outlines turned into quadratic ones (fontTools' cu2qu, within 1 font unit): about 2 s for
    the few thousand characters of the book.
    """
    from fontTools import subset
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    options = subset.Options()
    options.name_IDs = ["*"]
    options.notdef_outline = True
    ttf = subset.load_font(str(font), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes={ord(c) for c in text})
    subsetter.subset(ttf)
    if "CFF " in ttf:
        order = ttf.getGlyphOrder()
        glyph_set = ttf.getGlyphSet()
        glyf = newTable("glyf")
        glyf.glyphOrder = order
        glyf.glyphs = {}
        for name in order:
            pen = TTGlyphPen(glyph_set)
            glyph_set[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
            glyf.glyphs[name] = pen.glyph()
        for glyph in glyf.glyphs.values():
            glyph.recalcBounds(glyf)
        ttf["loca"], ttf["glyf"] = newTable("loca"), glyf
        for table in ("CFF ", "VORG"):
            if table in ttf:
                del ttf[table]
        glyf.compile(ttf)
        for name, glyph in glyf.glyphs.items():  # left side bearings of the new outlines
            if hasattr(glyph, "xMin"):
                ttf["hmtx"][name] = (ttf["hmtx"][name][0], glyph.xMin)
        maxp = ttf["maxp"]
        maxp.tableVersion = 0x00010000
        for field in (
            "maxZones",
            "maxTwilightPoints",
            "maxStorage",
            "maxFunctionDefs",
            "maxInstructionDefs",
            "maxStackElements",
            "maxSizeOfInstructions",
            "maxComponentElements",
        ):
            setattr(maxp, field, 1 if field == "maxZones" else 0)
        maxp.recalc(ttf)  # points and contours of the new outlines
        ttf["post"].formatType = 3.0  # no glyph names
        ttf["head"].glyphDataFormat = 0
        ttf.sfntVersion = "\x00\x01\x00\x00"
    out.parent.mkdir(parents=True, exist_ok=True)
    ttf.save(str(out))
    return out


def print_css(font: Path) -> str:
    """The print style sheet (``core/book/pages/print.css``) with its CJK font read from ``font``."""
    sheet = (Path(__file__).parent / "pages" / "print.css").read_text(encoding="utf-8")
    return sheet.replace("CJK_FONT_URL", font.resolve().as_uri())


def partial_toc(stage: Path, entries: list[str]) -> Path:
    """Write ``_toc_partial.yml`` beside the staged ``_toc.yml``: the book's root page, ``entries``
    (document paths without suffix, e.g. ``notebooks/01_metahope_pilot_v1``) and
    :data:`REFERENCE_PAGES`. A quick print of some chapters (the test prints one)."""
    known = set(build.toc_entries(stage / "_toc.yml"))
    for entry in entries:
        if entry not in known:
            raise MissingPiece(f"{entry} is not in the table of contents (_toc.yml)")
    root = build.toc_entries(stage / "_toc.yml")[0]
    chapters = [{"file": e} for e in dict.fromkeys([*entries, *REFERENCE_PAGES]) if e != root]
    path = stage / "_toc_partial.yml"
    path.write_text(
        yaml.safe_dump({"format": "jb-book", "root": root, "chapters": chapters}, sort_keys=False), encoding="utf-8"
    )
    return path


def check_executed(build_dir: Path, entries: list[str] | None = None) -> None:
    """Refuse to print a book whose notebooks were not executed: each notebook of the table of
    contents (or of ``entries``) must have its executed copy in ``build_dir/stage``."""
    root = paths.project_root()
    stage = build_dir / "stage"
    wanted = {f"{e}.ipynb" for e in entries} if entries else None
    missing = [
        str(nb.relative_to(root))
        for nb in build.toc_notebooks(root)
        if (wanted is None or str(nb.relative_to(root)) in wanted) and not (stage / nb.relative_to(root)).exists()
    ]
    if missing or not (stage / "_config.yml").exists():
        raise MissingPiece(
            f"no executed copy of {', '.join(missing) or 'the book'} in {stage}: "
            "run make book (or .venv/bin/python -m helpers build) first; the PDF prints the executed notebooks"
        )


def print_pdf(html: Path, pdf: Path, chromium: str | None = None) -> tuple[float, dict]:
    """Print the one-page book ``html`` to ``pdf`` with headless Chromium (playwright): A4,
    :data:`MARGIN`, page numbers, a PDF outline from the headings, no request leaving the
    machine. Returns the seconds taken and what :data:`FIT_TABLES` reported."""
    chromium = chromium or require_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise MissingPiece("the PyPI package playwright is not installed: run make setup") from None
    font = cjk_font()
    started = time.monotonic()
    pdf.parent.mkdir(parents=True, exist_ok=True)
    partial = pdf.with_name(f".{pdf.name}.partial")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            page = browser.new_page(viewport={"width": TEXT_WIDTH_PX, "height": 1000})
            page.route(
                "**/*",
                lambda route: route.continue_() if route.request.url.startswith(("file:", "data:")) else route.abort(),
            )  # offline: nothing is fetched from elsewhere
            page.goto(html.resolve().as_uri(), wait_until="load")
            text = page.evaluate("() => document.body.textContent")  # hidden text (folded solutions) too
            page.add_style_tag(content=print_css(printable_font(font, text, pdf.with_name(".book-cjk.ttf"))))
            page.emulate_media(media="print")
            page.evaluate("() => document.fonts.ready.then(() => true)")
            fitted = page.evaluate(
                "\n".join(
                    line for line in FIT_TABLES.read_text(encoding="utf-8").splitlines() if not line.startswith("//")
                )
            )
            page.evaluate("() => document.fonts.ready.then(() => true)")
            page.pdf(
                path=str(partial),
                format="A4",
                margin=MARGIN,
                print_background=True,
                display_header_footer=True,
                header_template="<span></span>",
                footer_template=FOOTER,
                outline=True,
                tagged=True,
            )
        finally:
            browser.close()
    os.replace(partial, pdf)
    return time.monotonic() - started, fitted


def root_page(html: Path, stage: Path) -> Path:
    """The one-page book in the ``singlehtml`` folder ``html``: the root document's page (its
    ``index.html`` only redirects there). Sphinx writes the images' paths relative to the folder,
    as if the page were ``index.html``; Jupyter Book puts it at its document's path
    (``book/intro.html``), where ``_images/`` is not found. Those paths are corrected here."""
    root = build.toc_entries(stage / "_toc.yml")[0]
    page = html / f"{root}.html"
    up = "../" * (len(Path(root).parts) - 1)
    if up:
        text = page.read_text(encoding="utf-8")
        page.write_text(re.sub(r'(<img\b[^>]*?\bsrc=")_images/', rf"\g<1>{up}_images/", text), encoding="utf-8")
    return page


def handout(pdf: Path, build_dir: Path) -> list[Path]:
    """Copy the student PDF beside each built HTML book (instructor and student) as
    :data:`HANDOUT`, the file the course page links (``book/course.md``)."""
    copies = []
    for html in (build_dir / "html", build_dir / "student" / "html"):
        if html.is_dir():
            target = html / HANDOUT
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(pdf, target)
            copies.append(target)
    return copies


def build_pdf(
    edition: str = "instructor", output_dir: str | os.PathLike | None = None, entries: list[str] | None = None
) -> Printed:
    """Print the ``edition`` of the book built below ``<output_dir>/_build`` (default: the
    project root) to ``_build/pdf/book.pdf`` (instructor) or ``_build/student/pdf/book.pdf``
    (student: no solution, no answer key, as the student HTML). With ``entries`` only those
    pages (and the root and reference pages, :func:`partial_toc`) are printed, to
    ``_build/partial/<edition>/book.pdf``. The notebooks are not executed again
    (:func:`check_executed`)."""
    if edition not in OUTPUT:
        raise MissingPiece(f"edition must be one of {', '.join(OUTPUT)}, not {edition}")
    build_dir = (Path(output_dir).resolve() if output_dir else paths.project_root()) / "_build"
    check_executed(build_dir, entries)
    build.stage_book(build_dir / "stage", paths.project_root())  # the current pages (content-compared)
    chromium = require_chromium()  # before the render, which takes a minute
    cjk_font()
    started = time.monotonic()
    if edition == "student":
        build.student_downloads(build_dir)
    toc = partial_toc(build_dir / "stage", entries) if entries else None
    html = build.render(build_dir, edition, builder="singlehtml", toc=toc)
    rendered = time.monotonic() - started
    out = build_dir / ("partial" / Path(edition) / "book.pdf" if entries else OUTPUT[edition])
    page = root_page(html, build_dir / "stage")
    print(f"printing {page} with {chromium}", flush=True)
    seconds, fitted = print_pdf(page, out, chromium)
    if edition == "student" and not entries:
        handout(out, build_dir)
    return Printed(out, rendered, seconds, fitted["shrunk"], tuple(fitted["overflowing"]))
