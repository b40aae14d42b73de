"""The standalone HTML page of an executed notebook: offline plotly, readable MyST, hidden cells hidden."""

from __future__ import annotations

import re

import nbformat
import plotly.graph_objects as go

from helpers.core.book import export, plots


def test_roles_become_the_text_a_reader_sees():
    text = (
        "each {term}`metaphor-related word <MRW>` and {term}`HOPE` {cite:p}`liang2026metahope`; "
        "{cite:t}`naveriani2026explanations` rate items ({doc}`../book/explanation_items`); "
        "see {ref}`the exercise <ex-01>` and {ref}`ex-02`; two: {cite:p}`liang2026metahope,qian2025homophones`"
    )
    plain = export.plain_roles(text, export.paths.project_root() / "notebooks")
    heading = next(
        line[2:]
        for line in (export.paths.project_root() / "book" / "explanation_items.md")
        .read_text(encoding="utf-8")
        .splitlines()
        if line.startswith("# ")
    )
    assert plain == (
        "each metaphor-related word and HOPE (Liang and Han, 2026); "  # book/references.bib's authors
        f"Naveriani et al. (2026) rate items ({heading}); see the exercise and ex-02; "
        "two: (Liang and Han, 2026; Qian et al., 2025)"
    )
    assert export.cite_text("nosuchkey", textual=True) == "nosuchkey"


def test_exercises_and_solutions_are_titled_and_numbered_as_in_the_book():
    numbers = {}
    first = export.plain_directives(
        "## Exercises\n\n```{exercise}\n:label: e1\n\nWhy?\n```\n\n```{solution} e1\n:class: dropdown\n\nBecause.\n```",
        numbers,
    )
    assert first == ("## Exercises\n\n> **Exercise 1**\n>\n> Why?\n\n> **Solution to Exercise 1**\n>\n> Because.")
    gated = export.plain_directives(
        "```{exercise}\n:label: e2\nHow?\n```\n```{solution-start} e2\n:class: dropdown\n```\nLike this:", numbers
    )
    assert gated == "> **Exercise 2**\n>\n> How?\n\n**Solution to Exercise 2**\n\nLike this:"
    assert export.plain_directives("```{solution-end}\n```\nAfter.", numbers) == "***\n\nAfter."
    assert export.plain_directives("```{admonition} Careful\nText.\n```", numbers) == "> **Careful**\n>\n> Text."


def _executed(tmp_path):
    fig = go.Figure(go.Heatmap(z=[[0.25, 0.5], [0.75, 1.0]], x=["a", "b"], y=["r", "s"]))
    bundle = plots.show(fig)._repr_mimebundle_()
    out = lambda data: nbformat.v4.new_output("display_data", data=data)  # noqa: E731
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# A chapter\n\nThe {term}`MRW` count."),
        nbformat.v4.new_code_cell(
            "plumbing = 'SECRET_PLUMBING'",
            metadata={"tags": ["hide-input"]},
            outputs=[
                out({"text/markdown": "Found {term}`HOPE` in 3 rows."}),
                nbformat.v4.new_output("stream", name="stderr", text="NOISY_WARNING"),
            ],
        ),
        nbformat.v4.new_code_cell("plots.show(fig)", outputs=[out(bundle)]),
        nbformat.v4.new_code_cell("results.commit()  # REMOVED_CELL", metadata={"tags": ["remove-cell"]}),
        nbformat.v4.new_code_cell(
            "print('visible code')", outputs=[nbformat.v4.new_output("stream", name="stdout", text="VISIBLE_OUTPUT")]
        ),
    ]
    path = tmp_path / "executed.ipynb"
    nbformat.write(nb, path)
    return path


def test_the_page_is_standalone_and_shows_what_the_book_shows(tmp_path):
    page = export.notebook_html(_executed(tmp_path), tmp_path / "out" / "page.html")
    html = page.read_text(encoding="utf-8")
    assert "<title>A chapter</title>" in html
    assert re.findall(r"<script[^>]*\bsrc=", html) == []  # nothing fetched: no CDN, no require.js
    assert html.count("plotly.js v") >= 1 and "window.PLOTLYENV" in html and 'class="plotly-graph-div"' in html
    assert "{term}" not in html and "The MRW count." in html and "Found HOPE in 3 rows." in html
    assert "SECRET_PLUMBING" not in html and "REMOVED_CELL" not in html and "NOISY_WARNING" not in html
    assert "visible code" in html and "VISIBLE_OUTPUT" in html
    assert not list(page.parent.glob(".*tmp*"))


def test_the_projected_page_leaves_the_solutions_out_unless_asked(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "# A chapter\n\n```{exercise}\n:label: ex-a\n\nWhy is the sky blue?\n```\n\n"
            "```{solution} ex-a\n:class: dropdown\n\nRAYLEIGH_SCATTERING.\n```"
        ),
        nbformat.v4.new_markdown_cell("```{solution-start} ex-a\n:class: dropdown\n```\n\nGATED_TEXT"),
        nbformat.v4.new_code_cell(
            "print('GATED_CODE')", outputs=[nbformat.v4.new_output("stream", name="stdout", text="GATED_OUTPUT")]
        ),
        nbformat.v4.new_markdown_cell("```{solution-end}\n```"),
    ]
    path = tmp_path / "executed.ipynb"
    nbformat.write(nb, path)
    html = export.notebook_html(path, tmp_path / "class.html").read_text(encoding="utf-8")
    assert "Why is the sky blue?" in html and "Exercise 1" in html
    assert not any(
        s in html for s in ("RAYLEIGH_SCATTERING", "GATED_TEXT", "GATED_CODE", "GATED_OUTPUT", "Solution to")
    )
    full = export.notebook_html(path, tmp_path / "lecturer.html", solutions=True).read_text(encoding="utf-8")
    assert all(s in full for s in ("RAYLEIGH_SCATTERING", "GATED_TEXT", "GATED_OUTPUT", "Solution to Exercise 1"))
