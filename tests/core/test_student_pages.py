"""The student edition of the book leaves out the instructor's pages: the explanation items' answer key is
neither built nor linked there, and the course does not send students to it."""

from __future__ import annotations

import importlib.util
import re
from types import SimpleNamespace

import nbformat
import pandas as pd
import yaml
from sphinx import addnodes

from helpers.core import paths
from helpers.core.book import build

ROOT = paths.project_root()


def _answer_key_rows() -> list[re.Pattern]:
    """A page row that pairs an authored item with its designed pass/fail (read from the CSV itself)."""
    key = pd.read_csv(ROOT / "data" / "authored" / "metaphor_explanations.csv")
    return [re.compile(rf"\b{item}\b.*\b{design}\b") for item, design in zip(key["item_id"], key["design"])]


def _page_text(entry: str) -> str:
    for suffix in (".md", ".ipynb"):
        path = ROOT / f"{entry}{suffix}"
        if path.exists():
            if suffix == ".md":
                return path.read_text(encoding="utf-8")
            return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    raise FileNotFoundError(entry)


def test_the_student_toc_leaves_out_the_answer_key_and_keeps_every_other_page(tmp_path):
    (tmp_path / "_toc.yml").write_bytes((ROOT / "_toc.yml").read_bytes())
    student = build.toc_entries(build.student_toc(tmp_path))
    instructor = build.toc_entries(ROOT / "_toc.yml")
    assert "book/explanation_items" in instructor
    assert [e for e in instructor if e != "book/explanation_items"] == student
    rows = _answer_key_rows()
    assert any(row.search(_page_text("book/explanation_items")) for row in rows)  # the key is there...
    for entry in student:  # ...and on no page the student edition builds
        text = _page_text(entry)
        assert not [
            row.pattern for row in rows if any(row.search(line) for line in text.splitlines() if line.startswith("|"))
        ], entry
        assert "metaphor_explanations.csv>" not in text, f"{entry} offers the answer key for download"
    # the student edition's table of contents is still a book: the part that held the page keeps its chapters
    parts = yaml.safe_load((tmp_path / "_toc_student.yml").read_text(encoding="utf-8"))["parts"]
    assert [p["caption"] for p in parts] == [
        p["caption"] for p in yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["parts"]
    ]


def test_the_student_config_names_the_instructor_pages(tmp_path, monkeypatch):
    (tmp_path / "stage").mkdir()
    (tmp_path / "stage" / "_config.yml").write_bytes((ROOT / "_config.yml").read_bytes())
    monkeypatch.setattr(build, "student_downloads", lambda build_dir: build_dir / "student" / "downloads")
    config = yaml.safe_load(build.student_config(tmp_path / "stage").read_text(encoding="utf-8"))
    assert config["sphinx"]["config"]["instructor_pages"] == ["book/explanation_items"]


def _extension():
    spec = importlib.util.spec_from_file_location("book_editions", ROOT / "book" / "_ext" / "editions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_link_to_the_answer_key_becomes_text_in_the_student_edition():
    ext = _extension()
    env = SimpleNamespace(srcdir=str(ROOT))

    def resolve(strip: bool, refdoc: str, target: str, explicit: str = ""):
        app = SimpleNamespace(
            config=SimpleNamespace(strip_solutions=strip, instructor_pages=["book/explanation_items"])
        )
        node = addnodes.pending_xref("", reftype="doc", reftarget=target, refdoc=refdoc, refexplicit=bool(explicit))
        if explicit:
            node += addnodes.literal_emphasis(text=explicit)
        out = ext.instructor_page_reference(app, env, node, None)
        return None if out is None else out.astext()

    title = "The explanation items: a ready item list for a class (instructor edition)"
    assert resolve(True, "book/course", "explanation_items") == title
    assert resolve(True, "notebooks/04_explanation_judgements", "../book/explanation_items") == title
    assert resolve(True, "book/course", "/book/explanation_items") == title
    assert resolve(True, "book/course", "explanation_items", "the items") == "the items (instructor edition)"
    assert resolve(True, "book/course", "glossary") is None  # any other missing page: Sphinx's own warning
    assert resolve(False, "book/course", "explanation_items") is None  # the instructor edition links it


def test_the_course_sends_students_to_no_instructor_page():
    """No "Read" of the course page names a page the student edition leaves out."""
    course = (ROOT / "book" / "course.md").read_text(encoding="utf-8")
    reads = re.findall(r"^\* \*\*Read\*\*:(.*?)(?=^\* \*\*)", course, re.M | re.S)
    assert len(reads) == len(re.findall(r"^## ", course, re.M))  # one "Read" per week or class
    for read in reads:
        linked = re.findall(r"\{doc\}`(?:[^`<]*<)?([^`>]+)>?`", read)
        assert linked and not [d for d in linked if d.split("/")[-1] == "explanation_items"], read
