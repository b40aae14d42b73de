"""The handouts' words live in the studies' pages/ folders (helpers.core.book.pages), not in Python:
a page template is filled like a chapter's words, and the workbook texts match the kits' codes."""

from __future__ import annotations

import pytest

from helpers.core import classroom
from helpers.core.book import pages
from helpers.core.book.findings import Findings
from helpers.explanations import feedback as ex_feedback
from helpers.explanations.io import SCORES
from helpers.metahope.severity import SEVERITY_LEVELS
from helpers.metahope.tidy_frame import CATEGORIES
from helpers.slang.template import RATING_LEVELS


def _metahope_page(left_out: str, low: float, high: float) -> str:
    found = (
        Findings()
        .add("student", text="ana")
        .add("left_out", text=left_out)
        .add("n_items", 4.0)
        .add("mean_difference", 0.5, ci=(low, high), text="more" if low > 0 else "in line")
        .add("share_higher", 75.0)
        .add("share_lower", 25.0)
        .add("peers", text="| classmate 1 | 0.50 | 0.40 | 50% |")
        .add("deviations", text="| i1 | X | m | 4 | 2 | you 4 |")
        .add("categories", text="| MIS | 100% | 50% |")
    )
    return pages.page("metahope", "feedback", "page", found.frame())


def test_a_feedback_page_is_filled_from_its_template():
    page = _metahope_page("", 0.25, 0.75)
    lines = page.split("\n")
    assert lines[:2] == ["# MetaHOPE feedback for ana", ""]  # nothing left out: no paragraph for it
    assert lines[2] == (
        "Over 4 (metaphor, system) pairs your SEGS differed from the median of your classmates by "
        "**+0.50 points** on average (95% interval [+0.25, +0.75], sentences resampled): you "
        "penalise **more** than the rest of the class (the interval lies above 0). You scored 75% "
        "of the pairs higher and 25% lower than the class."
    )
    assert (
        "| classmate | α (interval scale) | κ (quadratic) | exact agreement |\n|---|---|---|---|\n"
        "| classmate 1 | 0.50 | 0.40 | 50% |\n" in page
    )
    assert page.endswith("or of its severity?\n") and "\n\n\n" not in page
    told = _metahope_page("**Left out of this page:** x.", -0.25, 0.75).split("\n")
    assert told[2] == "**Left out of this page:** x." and "**in line** with the rest" in told[4]


def test_verdicts_come_from_the_pages_table():
    assert ex_feedback.verdict(0.1, 0.4) == pages.words("explanations", "feedback").verdict("leniency", "generous")
    with pytest.raises(KeyError, match="leniency"):
        pages.words("explanations", "feedback").verdict("leniency", "lenient")


def test_the_left_out_paragraph_and_the_overview_are_core_pages(tmp_path):
    left = classroom.LeftOut({"ben": {"s2_5": 3}}, ("s2_5",))
    assert left.told("ben") == (
        "**Left out of this page:** rows 3 of your workbook (item s2_5) were not marked done, "
        "so they are not counted here, for anyone in the class."
    )
    index = classroom.write_overview(
        tmp_path, "T", ["student", "bias"], ["| ana | +1 |"], show_names=True, notes=["n1"]
    ).read_text(encoding="utf-8")
    assert "<h1>T: the lecturer's overview</h1>" in index and "names the classmates by name.</p>" in index
    assert "<p>Left out of this feedback:</p>\n<ul>\n<li>n1</li>" in index
    bare = classroom.write_overview(tmp_path, "T", ["student"], [], show_names=False).read_text(encoding="utf-8")
    assert "Left out" not in bare and "never by name." in bare and bare.startswith("<!doctype html><html><head>")


def test_workbook_texts_match_the_kits_codes():
    mh = pages.texts("metahope", "workbook")
    assert [c["code"] for c in mh["categories"]] == list(CATEGORIES)
    assert [s["points"] for s in mh["severities"]] == list(SEVERITY_LEVELS)
    assert all(isinstance(s, str) and s for s in mh["steps"])
    ex = pages.texts("explanations", "workbook")
    assert [s["key"] for s in ex["scores"]] == list(SCORES) and [s["rating"] for s in ex["scale"]] == [1, 2, 3, 4, 5]
    assert ex["title"].format(rater="ana") == "How to rate the explanations (sheet for ana)"
    sl = pages.texts("slang", "workbook")
    assert sorted(r["rating"] for r in sl["ratings"]) == list(RATING_LEVELS)


def test_missing_texts_name_the_file():
    with pytest.raises(FileNotFoundError, match=r"metahope/pages/nothing\.yml"):
        pages.texts("metahope", "nothing")


def test_the_student_kit_readme_keeps_its_lines():
    kit = pages.texts("core", "student_kit")
    readme = kit["readme"].format(key=kit["no_key"], book=kit["book"])
    assert "\n\n    make lab\n\n" in readme and "`.venv\\Scripts\\`" in readme  # a code block, one backslash each
    assert readme.endswith(
        "Put them into `data/authored/`.\n\nThe book itself, student edition, opens offline: `html/index.html`.\n"
    )


def test_the_data_box_and_the_paper_comparisons_take_their_words_from_core_pages():
    from helpers.core.book import report

    words = pages.words("core", "report")
    box = report.data_note("simulated", ["a/b.csv"], "made up").data
    assert box == (
        "<div class='data-note data-simulated' style='background:#fff4e0;border-left:6px solid #b45f06;"
        "padding:.6em 1em;margin:1em 0'><strong style='color:#b45f06'>"
        f"{words.verdict('kind', 'simulated')}</strong><p style='margin:.3em 0'>made up</p>"
        "<ul style=margin:.3em 0><li><code>b.csv</code></li></ul></div>"
    )
    assert report.data_note("own").data.endswith("notebook parameters</strong></div>")  # no detail, no files
    assert words.fill("published_head", colour="#2e7d32", label="T", ok=3, n=3) == (
        "<p><strong style='color:#2e7d32'>T: 3 of 3 published cells reproduced to the printed precision.</strong></p>"
    )


def _marked(texts):
    """A pages .yml's texts, every string between « and »."""
    if isinstance(texts, dict):
        return {key: _marked(value) for key, value in texts.items()}
    if isinstance(texts, list):
        return [_marked(value) for value in texts]
    return f"«{texts}»" if isinstance(texts, str) else texts


def test_every_command_help_comes_from_a_pages_file(monkeypatch):
    """The help of every command and option of ``python -m helpers`` (but argparse's own -h and the
    descriptions, which are module docstrings) is read from some ``<study>/pages/*.yml``: with
    every text of those files marked, every help is marked."""
    import argparse

    from helpers.__main__ import _studies
    from helpers.core.book import cli

    load = pages._load
    monkeypatch.setattr(pages, "_load", lambda path: _marked(load(path)))

    def helps(parser, path):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    yield f"{path} {choice.dest}", choice.help
                for name, sub in action.choices.items():
                    yield from helps(sub, f"{path} {name}")
            elif action.help and not isinstance(action, argparse._HelpAction):
                yield f"{path} {'/'.join(action.option_strings) or action.dest}", action.help

    found = dict(helps(cli.build_parser(_studies()), "helpers"))
    assert "helpers template explanations --items" in found and "helpers metrics meta --weights" in found
    assert classroom.PEOPLE_HELP.startswith("a number (students named ")  # read from the pages at import
    strays = {
        where: text
        for where, text in found.items()
        if not (text.startswith("«") and text.endswith("»")) and text != classroom.PEOPLE_HELP
    }
    assert strays == {}


def test_the_notes_a_command_prints_come_from_its_pages(monkeypatch, capsys):
    from helpers.core.book import cli

    notes = pages.texts("core", "commands")
    assert notes["run"]["notes"]["into_notebooks"] == (
        "error: executed copies are not written into notebooks/ (sources stay untouched)"
    )
    reworded = {**notes, "run": {**notes["run"], "notes": {"into_notebooks": "reworded"}}}
    monkeypatch.setattr(
        pages,
        "texts",
        lambda study, name: (
            reworded if (study, name) == ("core", "commands") else pages._load(pages.folder(study) / f"{name}.yml")
        ),
    )
    assert cli.main(["run", "notebooks/01_metahope_pilot_v1.ipynb", "--output", "notebooks/copy.ipynb"]) == 2
    assert capsys.readouterr().err == "reworded\n"  # the printed note is the page's, not a copy in the Python
    assert notes["mqm scores"]["notes"]["ci"].format(level=95.0, n_boot=200, seed=1) == (
        "ci: 95% percentile interval over 200 resamples of whole documents (seed 1)"
    )
    agreement = notes["mqm agreement"]["notes"]
    assert agreement["header"].format(
        file="a.tsv", units=notes["agreement"]["units"], weights="mqm", pairings=agreement["unpaired"]
    ) == ("a.tsv: units = (system, segment) with two or more raters; weights mqm; no side-by-side pairings")
    meta = pages.texts("metrics", "commands")["meta"]["notes"]
    assert meta["only_system"].format(metric="bleu", n=2, side="human scores", examples="A, B") == (
        "bleu: 2 system(s) only in the human scores, left out of every statistic (e.g. A, B)"
    )
