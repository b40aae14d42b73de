"""Unit tests of helpers.core.book.build: the table of contents and its notebooks' parameters cells, the cache
and render keys, and when a build forks its kernels."""

from __future__ import annotations

import json
import re

import nbformat
import pytest

from helpers.core import paths
from helpers.core.book import build
from helpers.core.errors import InputError

from .notebooks import _notebook


def test_toc_lists_notebook_01():
    assert build.toc_entries()[0] == "book/intro"
    assert paths.project_root() / "notebooks" / "01_metahope_pilot_v1.ipynb" in build.toc_notebooks()


def test_every_toc_notebook_has_one_parameters_cell_and_no_outputs():
    for nb_path in build.toc_notebooks():
        nb = json.loads(nb_path.read_text())
        tagged = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
        assert len(tagged) == 1, nb_path
        ids = [c.get("id") for c in nb["cells"]]  # without ids nbformat invents new ones on every read
        assert None not in ids and len(set(ids)) == len(ids), nb_path
        assert not any(c.get("outputs") or c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code")


def test_every_parameter_says_what_it_means():
    """papermill --help-notebook lists every parameter with its inline comment as help."""
    from papermill.translators import PythonTranslator

    for nb_path in build.toc_notebooks():
        nb = nbformat.read(nb_path, as_version=4)
        cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
        names = [
            line.split("=")[0].strip()
            for line in cell.source.splitlines()
            if line.strip() and not line.startswith((" ", "#"))
        ]
        found = {p.name: p.help for p in PythonTranslator.inspect(cell)}
        assert list(found) == names, (nb_path.name, names, list(found))
        assert all(len(h) > 10 for h in found.values()), (nb_path.name, found)


def test_every_chapter_checks_its_parameters_right_after_the_parameters_cell():
    for nb_path in build.toc_notebooks():
        nb = nbformat.read(nb_path, as_version=4)
        index = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
        check = nb.cells[index + 1].source
        found = re.search(r"\b(ch\d\d\.setup|\w+_setup)\(", check)  # chNN.setup (issue 36's shape) or *_setup
        assert found and "Results(" in check, nb_path.name
        assert found.start() < check.index("Results(")  # checked before anything is written


def test_cache_key_depends_on_notebook_and_parameters(tmp_path):
    nb = _notebook(tmp_path / "n.ipynb", ["y = x + 1"])
    k1 = build.cache_key(nb, {"x": 1})
    assert build.cache_key(nb, {"x": 1}) == k1
    assert build.cache_key(nb, {"x": 2}) != k1
    _notebook(nb, ["y = x + 2"])
    assert build.cache_key(nb, {"x": 1}) != k1


def test_build_refuses_a_parameter_no_chapter_has(tmp_path):
    with pytest.raises(InputError, match="is a parameter of no notebook") as err:
        build.execute_all(tmp_path, {"n_bot": 2000})
    assert err.value.parameter == "n_bot" and "n_boot" in err.value.expected
    assert not (tmp_path / "stage").exists()


def test_a_build_forks_every_kernel_only_when_several_notebooks_are_to_run(tmp_path, monkeypatch):
    """Two or more notebooks to execute: the whole run is one :func:`prefork.many_kernels` block
    (the first kernel forked too); one notebook left to run, or none, is started the usual way."""
    from helpers.core.book import prefork

    seen = []

    def executed(nb, dest, parameters):
        seen.append((nb.name, prefork._many))
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text("{}")

    monkeypatch.setattr(build, "execute_notebook", executed)
    notebooks = build.toc_notebooks(paths.project_root())
    build.execute_all(tmp_path, jobs=2)
    assert sorted(seen) == sorted((nb.name, 1) for nb in notebooks)
    seen.clear()
    (tmp_path / "cache" / f"{notebooks[0].stem}.key").write_text("stale")
    build.execute_all(tmp_path, jobs=2)
    assert seen == [(notebooks[0].name, 0)] and prefork._many == 0


def test_render_key_follows_the_staged_files_and_the_edition(tmp_path):
    stage = tmp_path / "stage"
    (stage / "notebooks").mkdir(parents=True)
    (stage / "_config.yml").write_text("title: t\n")
    (stage / "notebooks" / "01.ipynb").write_text("{}")
    key = build.render_key(stage, "instructor")
    assert build.render_key(stage, "instructor") == key
    assert build.render_key(stage, "student") != key
    (stage / "_config_student.yml").write_text("written by the student render itself\n")
    assert build.render_key(stage, "instructor") == key
    (stage / "notebooks" / "01.ipynb").write_text('{"cells": []}')
    assert build.render_key(stage, "instructor") != key


def test_student_render_key_follows_what_the_student_edition_changes(tmp_path, monkeypatch):
    stage = tmp_path / "stage"
    stage.mkdir()
    (stage / "_config.yml").write_text("title: t\n")
    key = build.render_key(stage, "student")
    monkeypatch.setitem(build.STUDENT_OVERRIDES, "html_copy_source", True)
    assert build.render_key(stage, "student") != key


def test_student_render_key_follows_the_student_notebooks_it_links(tmp_path):
    stage = tmp_path / "stage"
    stage.mkdir()
    (stage / "_config.yml").write_text("title: t\n")
    downloads = tmp_path / "student" / "downloads"
    downloads.mkdir(parents=True)
    (downloads / "01.ipynb").write_text("{}")
    key, instructor = build.render_key(stage, "student"), build.render_key(stage, "instructor")
    (downloads / "01.ipynb").write_text('{"cells": []}')
    assert build.render_key(stage, "student") != key
    assert build.render_key(stage, "instructor") == instructor
