"""A standalone HTML page of an executed notebook, for a lecturer to project or hand out.

``.venv/bin/python -m helpers run NOTEBOOK --html PAGE.html`` writes one self-contained file that
opens offline in any browser. Plain ``jupyter nbconvert --to html`` does not serve:
the book's figures are divs that call ``Plotly.newPlot`` without plotly.js (the book
serves it, :mod:`helpers.core.book.plots`), so its heatmaps stay empty ("Plotly is not
defined"), and the MyST markup of the book's pages (``{term}``, ``{cite:p}``, exercise
directives) is shown raw. This module uses nbconvert's JupyterLab template with:

* plotly.js inlined once in the page head (the copy bundled with the installed
  ``plotly`` package, ~4.8 MB); require.js, MathJax and mermaid, which the template
  would fetch from CDNs, left out (require.js would also make plotly.js register as an
  AMD module instead of ``window.Plotly``; the chapters use no formulas);
* MyST roles as readable text (:func:`plain_roles`): a glossary term or a link as its
  text, a citation as author and year from ``book/references.bib`` (the book's
  author_year style), a ``{doc}`` as the page's title;
* exercise and solution directives as quoted, titled blocks (:func:`plain_directives`),
  numbered as in the book ("Exercise 2", "Solution to Exercise 2");
* the cells the book hides hidden: ``remove-cell`` cells, the code of ``remove-input``
  and ``hide-input`` cells, ``remove-output`` outputs, and (as in the book,
  ``nb_output_stderr: remove``) what cells wrote to standard error;
* the cell papermill injects with the run's parameters left out (they may name students;
  the executed notebook keeps it).
"""

from __future__ import annotations

import copy
import os
import re
from functools import lru_cache
from pathlib import Path

import nbformat

from .. import paths
from . import pages
from .editions import SOLUTION, SOLUTION_END, SOLUTION_START

#: ``injected-parameters``: the values the run was given, which papermill writes into the executed notebook
#: (a projected page must not show the student names a lecturer typed, e.g. ``-p raters '[ana, ben]'``; the
#: executed notebook keeps them, and the page's data box says what was read).
HIDDEN_CELL = {"remove-cell", "injected-parameters"}
HIDDEN_INPUT, HIDDEN_OUTPUT = {"remove-input", "hide-input"}, {"remove-output"}

_ROLE = re.compile(r"\{(?P<role>[\w:.+-]+)\}`(?P<body>[^`]*)`")
_EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)


@lru_cache(maxsize=4)
def _bibliography(bib_file: str) -> dict[str, tuple[str, str]]:
    """``{key: (authors, year)}`` from a BibTeX file: "Liang and Han", "Naveriani et al."."""
    from pybtex.database import parse_file

    entries = {}
    for key, entry in parse_file(bib_file).entries.items():
        people = entry.persons.get("author") or entry.persons.get("editor") or []
        last = [re.sub(r"[{}]", "", " ".join(p.prelast_names + p.last_names)) for p in people]
        if not last:
            names = re.sub(r"[{}]", "", entry.fields.get("title", key))
        elif len(last) <= 2:
            names = " and ".join(last)
        else:
            names = f"{last[0]} et al."
        entries[key] = (names, entry.fields.get("year", "n.d."))
    return entries


def cite_text(keys: str, textual: bool, bib_file: str | os.PathLike | None = None) -> str:
    """A citation as the book prints it: ``{cite:p}`` "(Liang and Han, 2026)", ``{cite:t}``
    "Liang and Han (2026)"; several keys (comma-separated) joined with "; ". A key that is
    not in the bibliography is printed as it is.

    >>> cite_text("liang2026metahope", textual=False)
    '(Liang and Han, 2026)'
    """
    bib = _bibliography(str(bib_file or paths.project_root() / "book" / "references.bib"))
    found = [bib.get(k.strip(), (k.strip(), "")) for k in keys.split(",") if k.strip()]
    if textual:
        return "; ".join(f"{a} ({y})" if y else a for a, y in found)
    return "(" + "; ".join(f"{a}, {y}" if y else a for a, y in found) + ")"


def _doc_title(target: str, notebook_dir: Path) -> str:
    """The first heading of the page a ``{doc}`` role names, relative to the notebook's folder
    or to ``notebooks/`` (the target's last part if not found)."""
    for base in (notebook_dir, paths.project_root() / "notebooks"):
        for suffix in (".md", ".ipynb"):
            f = (base / target).with_suffix(suffix) if not target.endswith(suffix) else base / target
            if f.is_file():
                lines = (
                    "\n".join(c.source for c in nbformat.read(f, as_version=4).cells if c.cell_type == "markdown")
                    if suffix == ".ipynb"
                    else f.read_text(encoding="utf-8")
                ).splitlines()
                heading = next((line.lstrip("#").strip() for line in lines if line.startswith("# ")), None)
                if heading:
                    return heading
    return Path(target).name


def plain_roles(text: str, notebook_dir: Path | None = None) -> str:
    """Replace every MyST role in ``text`` by readable text (see the module docstring).

    >>> plain_roles("each {term}`metaphor-related word <MRW>` and {term}`HOPE`; see {ref}`ex-01`")
    'each metaphor-related word and HOPE; see ex-01'
    """

    def readable(m: re.Match) -> str:
        role, body = m["role"], m["body"]
        explicit = _EXPLICIT.match(body)
        if role.startswith("cite"):
            return cite_text(body, textual=role in ("cite:t", "cite:ts", "cite:alt"))
        if explicit and explicit["text"]:
            return explicit["text"]
        if role == "doc":
            return _doc_title(body, notebook_dir or paths.project_root())
        if role in ("math", "code", "samp", "kbd", "file"):
            return f"`{body}`"
        return body.lstrip("~!")

    return _ROLE.sub(readable, text)


_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|:{3,}|~{3,})\{(?P<name>[^}\s]+)\}\s*(?P<arg>.*)$")


def plain_directives(text: str, numbers: dict[str, int]) -> str:
    """Exercise and solution directives (and admonitions) as quoted markdown blocks with a
    bold title; ``numbers`` maps exercise labels to their number and is filled as
    exercises are met (the book numbers them in order)."""
    lines, out, i = text.splitlines(), [], 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not (
            lines[j].strip() and set(lines[j].strip()) == {m["fence"][0]} and len(lines[j].strip()) >= len(m["fence"])
        ):
            j += 1
        body = lines[i + 1 : j]
        options = {}
        while body and body[0].startswith(":") and ":" in body[0][1:]:
            name, _, value = body.pop(0)[1:].partition(":")
            options[name.strip()] = value.strip()
        name, arg = m["name"], m["arg"].strip()
        if name == "exercise":
            label = options.get("label", "")
            numbers[label] = len(numbers) + 1
            title = f"Exercise {numbers[label]}" + (f" ({arg})" if arg else "")
        elif name in (SOLUTION, SOLUTION_START):
            title = f"Solution to Exercise {numbers[arg]}" if arg in numbers else "Solution"
        elif name == SOLUTION_END:
            out += ["", "***", ""]  # the end of a gated solution
            i = j + 1
            continue
        else:  # an admonition: {note}, {admonition} Title, …
            title = arg if name == "admonition" and arg else name.capitalize()
        inner = plain_directives("\n".join(body), numbers).strip("\n")
        if name == SOLUTION_START:  # the solution runs on over the next cells, up to its solution-end
            out += ["", f"**{title}**", ""]
        else:  # blank lines around the quote: a line right after it would continue it
            out += ["", f"> **{title}**", ">"] + [f"> {line}" if line else ">" for line in inner.splitlines()] + [""]
        i = j + 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip("\n")


def page_notebook(nb: nbformat.NotebookNode, notebook_dir: Path | None = None) -> nbformat.NotebookNode:
    """The notebook as the page shows it: hidden cells, inputs and outputs removed, MyST
    markup in markdown cells and markdown outputs made readable."""
    out = copy.deepcopy(nb)
    numbers: dict[str, int] = {}
    cells = []
    for cell in out.cells:
        tags = set(cell.get("metadata", {}).get("tags", []))
        if tags & HIDDEN_CELL:
            continue
        if cell.cell_type == "markdown":
            cell.source = plain_directives(plain_roles(cell.source, notebook_dir), numbers)
        elif cell.cell_type == "code":
            if tags & HIDDEN_INPUT:  # what nbconvert's TagRemovePreprocessor marks, its templates honour
                cell.metadata["transient"] = {"remove_source": True}
            outputs = [] if tags & HIDDEN_OUTPUT else cell.get("outputs", [])
            cell.outputs = [o for o in outputs if not (o.get("output_type") == "stream" and o.get("name") == "stderr")]
            for o in cell.outputs:
                if "text/markdown" in o.get("data", {}):
                    o["data"]["text/markdown"] = plain_roles(o["data"]["text/markdown"], notebook_dir)
            if tags & HIDDEN_INPUT and not cell.outputs:
                continue
        cells.append(cell)
    out.cells = cells
    return out


def notebook_html(
    executed: str | os.PathLike,
    page: str | os.PathLike,
    source_dir: str | os.PathLike | None = None,
    solutions: bool = False,
) -> Path:
    """Write ``page``, a standalone HTML page of the executed notebook ``executed`` (see the
    module docstring); ``source_dir`` is the folder ``{doc}`` targets are relative to (the
    source notebook's). The page is what a lecturer projects to a class, so the exercises'
    solutions (text, code and output) are left out unless ``solutions``
    (:func:`helpers.core.book.editions.student_notebook`). Written atomically; returns the page's path."""
    import jinja2
    import plotly
    from nbconvert import HTMLExporter

    from .editions import student_notebook

    executed, page = Path(executed), Path(page)
    nb = nbformat.read(executed, as_version=4)
    if not solutions:
        nb = student_notebook(nb, executed.name)
    nb = page_notebook(nb, Path(source_dir) if source_dir else None)
    exporter = HTMLExporter(
        template_name="lab",
        extra_loaders=[jinja2.FileSystemLoader(pages.folder("core"))],
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )
    exporter.template_file = (
        "standalone_page.html.j2"  # core/book/pages/: plotly inline, no MathJax or mermaid from a CDN
    )
    plotly_js = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text(encoding="utf-8")
    title = next(
        (
            line[2:].strip()
            for c in nb.cells
            if c.cell_type == "markdown"
            for line in c.source.splitlines()
            if line.startswith("# ")
        ),
        executed.stem,
    )
    nb.metadata["title"] = title
    body, _ = exporter.from_notebook_node(nb, resources={"plotly_js": plotly_js})
    return paths.atomic_write(page, body)
