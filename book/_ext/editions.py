"""Two editions of the book from one source (a local Sphinx extension).

The instructor edition shows every exercise's solution (collapsed); the student edition,
built with ``strip_solutions: true``, contains no solution at all: not its text, not its
code cells, not their outputs, not in the search index. Solutions are written with
sphinx-exercise, as ``solution`` directives or as gated ``solution-start`` /
``solution-end`` pairs that enclose executed code cells.

sphinx-exercise's own ``hide_solutions`` cannot do this: with gated solutions the HTML
writer fails ("unknown node type: solution_end_node", executablebooks/sphinx-exercise#89)
and the gated code cells would stay in the page. This transform runs right after
sphinx-exercise has merged each gated solution into one node and removes the node while
the pages are read, so nothing of it reaches the HTML, the search index or ``_images``.
The student configuration also turns off the copied sources and the download button,
which would otherwise carry the notebooks with their solutions.

Links that download a source notebook (``{download}`` of an ``.ipynb``) point, in the
student edition, to the notebook's student edition (``helpers.core.book.editions``: exercises
kept, solutions removed) in the folder ``student_notebooks``; a notebook not found there
becomes plain text: the source notebooks hold the solutions.

Pages of the instructor edition only (``instructor_pages``, set by
``helpers.core.book.build.INSTRUCTOR_PAGES``: the explanation items' answer key) are not in the
student edition's table of contents, so not built; a ``{doc}`` link to one becomes the page's
title as plain text, marked as in the instructor edition.

Pages can hold edition-specific text in ``{only} instructor`` / ``{only} student`` blocks.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from sphinx.transforms import SphinxTransform
from sphinx.util import logging

logger = logging.getLogger(__name__)


class RemoveSolutions(SphinxTransform):
    default_priority = 11  # sphinx_exercise's MergeGatedSolutions runs at 10

    def apply(self):
        if not self.config.strip_solutions:
            return
        from sphinx_exercise.nodes import solution_end_node, solution_node, solution_start_node

        registry = getattr(self.env, "sphinx_exercise_registry", {})
        for node in list(self.document.findall(solution_node)):
            registry.pop(node.get("label"), None)
            for name in node["names"]:
                self.document.nameids.pop(name, None)
                self.document.nametypes.pop(name, None)
            for node_id in node["ids"]:
                self.document.ids.pop(node_id, None)
            node.parent.remove(node)
        for node in list(self.document.findall(solution_start_node)) + list(self.document.findall(solution_end_node)):
            logger.warning(
                "a solution-start without its solution-end (or the reverse) was left in the page", location=node
            )
        from docutils import nodes as docnodes
        from sphinx import addnodes

        folder = Path(self.config.student_notebooks) if self.config.student_notebooks else None
        for ref in list(self.document.findall(addnodes.download_reference)):
            target = str(ref.get("reftarget", ""))
            if not target.endswith(".ipynb"):
                continue
            student = folder / Path(target).name if folder else None
            if student and student.is_file():
                # Sphinx reads a target starting with "/" relative to the source folder
                ref["reftarget"] = "/" + os.path.relpath(student, self.env.srcdir).replace(os.sep, "/")
            else:
                ref.replace_self(docnodes.literal(text=target.lstrip("./")))


def _page_title(srcdir, docname: str) -> str:
    """The first ``# `` heading of a markdown page (its docname if it has none)."""
    try:
        text = (Path(srcdir) / f"{docname}.md").read_text(encoding="utf-8")
    except OSError:
        return docname
    return next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), docname)


def instructor_page_reference(app, env, node, contnode):
    """In the student edition, a ``{doc}`` link to one of ``instructor_pages`` (not built there)
    becomes that page's title as text, "(instructor edition)" after it; any other missing
    reference is left to Sphinx's warning."""
    if not app.config.strip_solutions or node.get("reftype") != "doc":
        return None
    target = str(node.get("reftarget", ""))
    docname = (
        target.lstrip("/")
        if target.startswith("/")
        else posixpath.normpath(posixpath.join(posixpath.dirname(node.get("refdoc", "")), target))
    )
    if docname not in app.config.instructor_pages:
        return None
    from docutils import nodes as docnodes

    title = node.astext() if node.get("refexplicit") else _page_title(env.srcdir, docname)
    return docnodes.inline(text=f"{title} (instructor edition)")


def _edition_tag(app, config):
    app.tags.add("student" if config.strip_solutions else "instructor")


def setup(app):
    app.setup_extension("sphinx_exercise")
    app.add_config_value("strip_solutions", False, "env")
    app.add_config_value("student_notebooks", "", "env")  # folder of the student notebooks (downloads)
    app.add_config_value("instructor_pages", [], "env")  # docnames left out of the student edition
    app.connect("missing-reference", instructor_page_reference)
    app.add_transform(RemoveSolutions)
    app.connect("config-inited", _edition_tag)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
