"""The book's HTML assets (a local Sphinx extension; Sphinx 7.4, jupyter-book 1.0.x).

* plotly.js only where a figure needs it. The plotly.min.js bundled with the installed
  ``plotly`` package is published as ``_static/plotly.min.js`` from a folder outside the
  book's own ``_static`` (Jupyter Book loads every ``.js`` under ``_static`` on every
  page), and a page whose body holds a plotly figure gets it as a *deferred* script, so
  the text never waits for 4.8 MB of JavaScript. Nothing comes from a CDN.
* Each inline script once. Sphinx 7.4 emits an inline script registered after the builder
  started twice; sphinx-thebe's ``const THEBE_JS_URL`` then throws "Identifier
  'THEBE_JS_URL' has already been declared" on every page (fixed upstream in Sphinx 8.2,
  which jupyter-book 1.x cannot use). Repeated scripts are dropped per page.
* The one-page book (``singlehtml``) gets every html node visitor (:func:`_html_visitors_for_singlehtml`).
* ``html_context.default_mode`` is set in ``_config.yml`` (pydata-sphinx-theme otherwise
  logs "Got invalid theme mode" on a first visit).
"""

from __future__ import annotations

import shutil
from pathlib import Path

PLOTLY_JS = "plotly.min.js"
FIGURE_MARK = 'class="plotly-graph-div"'


def _publish_plotly(app) -> None:
    if app.builder.format != "html":
        return
    import plotly

    source = Path(plotly.__file__).parent / "package_data" / PLOTLY_JS
    folder = Path(app.doctreedir).parent / "plotly_static"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / PLOTLY_JS
    if not target.exists() or target.stat().st_size != source.stat().st_size:
        shutil.copyfile(source, target)
    app.config.html_static_path.append(str(folder))


def _plotly_on_figure_pages(app, pagename, templatename, context, doctree) -> None:
    if FIGURE_MARK in context.get("body", ""):
        app.add_js_file(PLOTLY_JS, loading_method="defer")


def _scripts_once(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if not isinstance(scripts, list):
        return
    seen, kept = set(), []
    for js in scripts:
        attributes = getattr(js, "attributes", {}) or {}
        # an inline script is stored once with filename None and once with "": the same script
        key = (getattr(js, "filename", js) or "", getattr(js, "priority", None), tuple(sorted(attributes.items())))
        if key not in seen:
            seen.add(key)
            kept.append(js)
    scripts[:] = kept


def _html_visitors_for_singlehtml(app) -> None:
    """The one-page book (``singlehtml``, printed by ``helpers.core.book.pdf``) draws every node the
    pages draw. Sphinx 7.4 looks a node's visitors up by builder name and falls back to the
    format ("html") only when no extension registered any under that name; one did for
    ``singlehtml``, so myst-nb's hidden-code cells (registered for "html") had none there and the
    build failed ("departing unknown node type: HideCodeCellNode"). Each builder of the html
    format gets the html visitors it lacks."""
    handlers = app.registry.translation_handlers
    name = app.builder.name
    if app.builder.format == "html" and name != "html" and name in handlers:
        for node, visitors in handlers.get("html", {}).items():
            handlers[name].setdefault(node, visitors)


def setup(app):
    app.connect("builder-inited", _html_visitors_for_singlehtml)
    app.connect("builder-inited", _publish_plotly)
    app.connect("html-page-context", _plotly_on_figure_pages)
    app.connect("html-page-context", _scripts_once, priority=900)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
