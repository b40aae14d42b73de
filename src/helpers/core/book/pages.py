"""The words of the handouts a study writes (feedback pages, workbook guides), kept beside the study.

Like a chapter's sentences (``notebooks/words/``), the texts a lecturer hands out live in
files, not in Python, so they can be reworded without reading code. Each study keeps them in
its ``pages/`` folder (``src/helpers/<study>/pages/``; ``core/book/pages/`` for the pages every kit
shares):

* ``<name>.md``: a page template, in the format of a words file (``## section`` templates whose
  fields name quantities, ``[[ ]]`` optional parts, a ``## verdicts`` table; see
  :mod:`helpers.core.book.findings`), filled from a :class:`~helpers.core.book.findings.Findings` frame
  with :func:`page`;
* ``<name>.yml``: texts read with :func:`texts`: a workbook's guide (the rubric, the scale, the
  steps), the help of a study's commands and the notes they print, the student kit's README;
* frames used as they are, from :func:`folder`: ``core/book/pages/handout.html`` (the HTML page around
  a handout, ``$title`` and ``$body`` filled by :func:`helpers.core.classroom.html_page`) and
  ``core/book/pages/standalone_page.html.j2`` (the nbconvert template of ``run --html`` pages).

A chapter's own words stay in ``notebooks/words/``. ``tools/prose.py`` counts what is left in
the Python.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

if TYPE_CHECKING:  # pandas and the words machinery load only when a page is filled, not for --help
    import pandas as pd

    from .findings import Words

PACKAGE = Path(__file__).resolve().parents[2]
#: The pages every kit shares, beside this module (``core/book/pages/``), named ``"core"``.
CORE_PAGES = Path(__file__).resolve().with_name("pages")


def folder(study: str) -> Path:
    """The ``pages/`` folder of ``study`` (a subpackage name such as ``"metahope"``, or ``"core"``
    for :data:`CORE_PAGES`)."""
    return CORE_PAGES if study == "core" else PACKAGE / study / "pages"


@cache
def words(study: str, name: str) -> Words:
    """The page templates ``<study>/pages/<name>.md`` (read once per process)."""
    from .findings import Words

    return Words(name, folder(study))


def page(study: str, name: str, section: str, findings: pd.DataFrame) -> str:
    """Section ``section`` of ``<study>/pages/<name>.md`` filled from ``findings``, as Markdown
    ending in a newline (a page, or the part of one, ready to write)."""
    return words(study, name).text(section, findings) + "\n"


@cache
def _load(path: Path) -> dict:
    with path.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def texts(study: str, name: str) -> dict:
    """The texts of ``<study>/pages/<name>.yml`` (a mapping; read once per process)."""
    path = folder(study) / f"{name}.yml"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: the texts {name!r} of {study} are missing")
    return _load(path)
