#!/usr/bin/env python3
"""Measure the routes to a PDF of the built book, behind the choice in ``helpers.core.book.pdf``.

After ``make book``, times each route on the executed notebooks of ``_build/stage`` and reads each
PDF back (pages, images, embedded fonts, Chinese characters extractable; with pypdf, as
``tests/book/test_pdf.py`` does):

* ``singlehtml + Chromium`` (chosen): ``helpers.core.book.pdf.build_pdf`` (render and print);
* ``jupyter-book pdfhtml``: ``jupyter-book build --builder pdfhtml`` as it is (its playwright
  launches playwright's own Chromium), then its printing step (``jupyter_book.pdf.html_to_pdf``)
  on the same one-page book with the system Chromium put in;
* ``jupyter-book pdflatex``: ``jupyter-book build --builder pdflatex`` with XeLaTeX and xeCJK set
  to the same Noto Sans SC file (pdflatex itself cannot typeset Chinese) and Latin Modern for the rest, when ``xelatex`` is there,
  with Sphinx's own LaTeX class: Jupyter Book's class (sphinx-jupyterbook-latex) loads ``bbm.sty``,
  which Debian ships only in texlive-fonts-extra (1.4 GB installed), and stopped there.

Writes ``data/measured/pdf_routes.csv``: route, seconds, megabytes, pages, images, cjk_font_embedded,
chinese_characters, outcome, pages_printed. Usage: ``.venv/bin/python tools/measure_pdf_routes.py
[--only PAGE ...]`` (``--only``: a partial book, as ``helpers pdf --only``, to
``data/measured/pdf_routes_partial.csv``).
"""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "book")]

from test_pdf import read_pdf  # noqa: E402 (after the path set-up above); the test's reader: one way of reading a PDF back

from helpers.core.book import pdf  # noqa: E402

JUPYTER_BOOK = [sys.executable, "-c", "import sys, helpers; from jupyter_book.cli.main import main; sys.exit(main())"]


def facts(path: Path | None) -> dict:
    if path is None or not path.exists():
        return {"megabytes": "", "pages": "", "images": "", "cjk_font_embedded": "", "chinese_characters": ""}
    read = read_pdf(path)
    cjk = [
        embedded
        for name, embedded in read["fonts"].items()
        if "NotoSansSC" in name or "CJK" in name or "Fandol" in name
    ]
    return {
        "megabytes": round(path.stat().st_size / 1e6, 1),
        "pages": read["pages"],
        "images": read["images"],
        "cjk_font_embedded": bool(cjk) and all(cjk),
        "chinese_characters": len(re.findall(r"[\u4e00-\u9fff]", read["text"])),
    }


def chosen(build_dir: Path, entries: list[str] | None) -> dict:
    started = time.monotonic()
    printed = pdf.build_pdf("instructor", output_dir=build_dir.parent, entries=entries)
    return {
        "route": "singlehtml + Chromium (chosen)",
        "seconds": round(time.monotonic() - started),
        **facts(printed.pdf),
        "outcome": f"render {printed.render_seconds:.0f} s, print {printed.print_seconds:.0f} s",
    }


def pdfhtml(build_dir: Path, work: Path, toc: list[str]) -> list[dict]:
    rows = []
    started = time.monotonic()
    proc = subprocess.run(
        [
            *JUPYTER_BOOK,
            "build",
            str(build_dir / "stage"),
            "--builder",
            "pdfhtml",
            *toc,
            "--path-output",
            str(work / "pdfhtml"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    out = work / "pdfhtml" / "_build" / "pdf" / "book.pdf"
    error = [
        line
        for line in (proc.stdout + proc.stderr).splitlines()
        if "Executable doesn't exist" in line or "Error" in line
    ]
    rows.append(
        {
            "route": "jupyter-book pdfhtml (as shipped)",
            "seconds": round(time.monotonic() - started),
            **facts(out if proc.returncode == 0 else None),
            "outcome": "ok"
            if proc.returncode == 0
            else f"failed: {(error or ['exit ' + str(proc.returncode)])[0][:160]}",
        }
    )
    single = work / "pdfhtml" / "_build" / "html"  # where jupyter-book's pdfhtml puts its singlehtml page
    if (single / "index.html").exists():
        single = pdf.root_page(single, build_dir / "stage")
        from playwright.async_api import BrowserType

        launch = BrowserType.launch

        async def system_launch(self, *args, **kwargs):  # the system Chromium, as the chosen route uses
            return await launch(self, *args, executable_path=pdf.require_chromium(), **kwargs)

        BrowserType.launch = system_launch
        from jupyter_book.pdf import html_to_pdf

        target = work / "pdfhtml-system.pdf"
        started = time.monotonic()
        html_to_pdf(str(single), str(target))
        BrowserType.launch = launch
        rows.append(
            {
                "route": "jupyter-book pdfhtml print step, system Chromium",
                "seconds": round(time.monotonic() - started),
                **facts(target),
                "outcome": "print only (the singlehtml render above not counted)",
            }
        )
    return rows


LATEX_CONFIG = """
latex:
  latex_engine: xelatex
  use_jupyterbook_latex: false
sphinx:
  config:
    latex_elements:
      fontpkg: ""
      preamble: |
        \\usepackage{{xeCJK}}
        \\setCJKmainfont[Path={folder}/]{{{name}}}
        \\setCJKsansfont[Path={folder}/]{{{name}}}
        \\setCJKmonofont[Path={folder}/]{{{name}}}
"""


def pdflatex(build_dir: Path, work: Path, toc: list[str]) -> dict:
    if shutil.which("xelatex") is None:
        return {
            "route": "jupyter-book pdflatex (XeLaTeX + xeCJK)",
            "seconds": "",
            **facts(None),
            "outcome": "not measured: xelatex not installed",
        }
    import yaml

    font = pdf.cjk_font()
    config = yaml.safe_load((build_dir / "stage" / "_config.yml").read_text(encoding="utf-8"))
    extra = yaml.safe_load(LATEX_CONFIG.format(folder=font.parent, name=font.name))
    config["latex"] = extra["latex"]
    config["sphinx"]["config"].update(extra["sphinx"]["config"])
    path = build_dir / "stage" / "_config_latex.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    started = time.monotonic()
    proc = subprocess.run(
        [
            *JUPYTER_BOOK,
            "build",
            str(build_dir / "stage"),
            "--builder",
            "pdflatex",
            "--config",
            str(path),
            *toc,
            "--path-output",
            str(work / "latex"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = round(time.monotonic() - started)
    found = sorted((work / "latex" / "_build" / "latex").glob("*.pdf"))
    log = (proc.stdout + proc.stderr).splitlines()
    errors = [line for line in log if line.startswith("!") or "Error" in line]
    outcome = "ok" if proc.returncode == 0 else f"failed: {(errors or ['exit ' + str(proc.returncode)])[0][:160]}"
    (work / "latex.log").write_text("\n".join(log), encoding="utf-8")
    return {
        "route": "jupyter-book pdflatex (XeLaTeX + xeCJK)",
        "seconds": seconds,
        **facts(found[0] if found else None),
        "outcome": outcome,
    }


def main(argv: list[str]) -> int:
    import os
    from datetime import UTC, datetime

    import yaml

    from helpers.core.formats import measured

    started, load = datetime.now(UTC).strftime("%Y-%m-%d %H:%M"), os.getloadavg()
    entries = argv[argv.index("--only") + 1 :] if "--only" in argv else None  # some pages, as helpers pdf --only
    build_dir = ROOT / "_build"
    pdf.check_executed(build_dir, entries)
    rows = [chosen(build_dir, entries)]
    toc = ["--toc", str(pdf.partial_toc(build_dir / "stage", entries))] if entries else []
    with tempfile.TemporaryDirectory(prefix="pdf-routes-") as tmp:
        work = Path(tmp)
        rows += pdfhtml(build_dir, work, toc)
        rows.append(pdflatex(build_dir, work, toc))
        keep = ROOT / "_build" / "pdf-routes"
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(work, keep, ignore=shutil.ignore_patterns("_build", "*.ipynb"), dirs_exist_ok=True)
        for found in work.rglob("*.pdf"):
            shutil.copyfile(found, keep / found.name)
    for row in rows:
        row["pages_printed"] = " ".join(entries) if entries else "the whole book"
    out = ROOT / "data" / "measured" / ("pdf_routes_partial.csv" if entries else "pdf_routes.csv")
    with out.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    record = {
        "what": "routes to a PDF of the built book: seconds (wall), size, pages, images, CJK font embedded, "
        "Chinese characters extractable; outcome",
        "command": " ".join(["python tools/measure_pdf_routes.py", *(["--only", *entries] if entries else [])]),
        **measured.machine_record(started, load),
    }
    out.with_suffix(".yml").write_text(yaml.safe_dump(record, sort_keys=False, allow_unicode=True), encoding="utf-8")
    print(out.read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
