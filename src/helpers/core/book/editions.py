"""Editions of the notebooks: the sources (instructor) and a student edition without solutions.

The notebooks write their exercises with sphinx-exercise, in MyST markdown cells:

* a ``solution`` directive (a fenced block ```` ```{solution} ex-label ```` … ```` ``` ````),
  which can share a markdown cell with the exercise above and below it;
* a gated solution: a ``solution-start`` directive, then anything (markdown, code cells
  that the book executes), then a ``solution-end`` directive, possibly in the middle of a
  markdown cell whose rest is the next exercise.

:func:`student_notebook` removes both kinds, the text and the code, and keeps everything
else of the notebook (the exercises included). It is the notebook counterpart of the
book's Sphinx transform (``book/_ext/editions.py``), which removes the same directives
from the rendered pages; :data:`SOLUTION_DIRECTIVES` names them for both.
:func:`write_student_edition` writes the edition of ``notebooks/*.ipynb`` into a folder
(``_build/student/notebooks``, the root of ``make lab-student``); :func:`write_student_kit`
writes it into a zip with what runs it (``make student-kit``), to hand out instead of the
repository.

Fences follow CommonMark as MyST reads them: a fence opens with three or more backticks,
tildes or (MyST's ``colon_fence``) colons and closes with a line of at least as many of the
same character and nothing else; a code block inside a directive is kept verbatim.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
from pathlib import Path

import nbformat

from .. import paths
from . import pages

#: sphinx-exercise's solution directives: a whole solution, and the two gates of a gated one.
SOLUTION, SOLUTION_START, SOLUTION_END = "solution", "solution-start", "solution-end"
SOLUTION_DIRECTIVES = (SOLUTION, SOLUTION_START, SOLUTION_END)

_OPEN = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,}|:{3,})\s*(?:\{(?P<name>[^}\s]+)\})?")


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(line) - len(line.lstrip(" ")) <= 3 and len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def _fence_end(lines: list[str], start: int, fence: str) -> int:
    """Index of the line closing the fence opened at ``start`` (the last line if it never closes,
    as CommonMark closes an open fence at the end of the document)."""
    for j in range(start + 1, len(lines)):
        if _closes(lines[j], fence):
            return j
    return len(lines) - 1


class SolutionMarkupError(ValueError):
    """A gated solution that is never closed, or closed without having been opened."""


def _strip_lines(lines: list[str], gated: bool, where: str) -> tuple[list[str], bool]:
    """Remove solutions from one markdown cell's lines; ``gated``: the cell starts inside a
    gated solution. Returns the kept lines and whether the cell ends inside one."""
    kept: list[str] = []
    i = 0
    while i < len(lines):
        opened = _OPEN.match(lines[i])
        if not opened:
            if not gated:
                kept.append(lines[i])
            i += 1
            continue
        end = _fence_end(lines, i, opened["fence"])
        name = opened["name"]
        if name == SOLUTION_END:
            if not gated:
                raise SolutionMarkupError(f"{where}: a solution-end without its solution-start")
            gated = False
        elif gated or name == SOLUTION:
            pass  # the block belongs to a solution: dropped whole
        elif name == SOLUTION_START:
            gated = True
        elif name:  # another directive: its body can hold a solution of its own
            inner, inner_gated = _strip_lines(lines[i + 1 : end], False, where)
            if inner_gated:
                raise SolutionMarkupError(f"{where}: a solution-start inside a {name} directive is never closed")
            kept += [lines[i], *inner] + ([lines[end]] if end > i and _closes(lines[end], opened["fence"]) else [])
        else:  # a code block: verbatim
            kept += lines[i : end + 1]
        i = end + 1
    return kept, gated


def student_notebook(nb: nbformat.NotebookNode, name: str = "notebook") -> nbformat.NotebookNode:
    """A copy of ``nb`` without any solution: ``solution`` blocks and everything between a
    ``solution-start`` and its ``solution-end`` (text and code cells) are removed, markdown
    cells left empty are dropped, every other cell is kept as it is.

    Raises :class:`SolutionMarkupError` (naming ``name`` and the cell) for a gate left open
    or closed twice: the book's transform would leave such a solution in the page too."""
    out = copy.deepcopy(nb)
    cells, gated, opened_at = [], False, None
    for index, cell in enumerate(nb.cells, start=1):
        if cell.cell_type == "code":
            if not gated:
                cells.append(copy.deepcopy(cell))
            continue
        was_gated = gated
        lines, gated = _strip_lines(cell.source.splitlines(), gated, f"{name}, cell {index}")
        if gated and not was_gated:
            opened_at = index
        text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")  # no gap where a solution was
        if text.strip():
            kept = copy.deepcopy(cell)
            kept.source = text
            cells.append(kept)
    if gated:
        raise SolutionMarkupError(f"{name}, cell {opened_at}: a solution-start without its solution-end")
    out.cells = cells
    return out


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_folder() -> Path:
    """Where ``make lab-student`` finds the student edition: ``_build/student/notebooks``."""
    return paths.project_root() / "_build" / "student" / "notebooks"


def source_notebooks() -> list[Path]:
    """The sources of both editions: ``notebooks/*.ipynb``."""
    return sorted((paths.project_root() / "notebooks").glob("*.ipynb"))


MANIFEST = ".edition.json"


def write_student_edition(
    dest: str | os.PathLike | None = None, notebooks: list[Path] | None = None, keep_edited: bool = True
) -> dict[str, str]:
    """Write the student edition of ``notebooks`` (default: :func:`source_notebooks`) into
    ``dest`` (default: :func:`default_folder`); returns ``{notebook name: what happened}``.

    A file is rewritten only when its content changes. With ``keep_edited`` a copy that was
    changed after it was written here (a student's work in JupyterLab; recorded by digest
    in ``dest/.edition.json``) is kept, not overwritten; without it every copy is rewritten
    (the book's downloads, which nobody edits)."""
    folder = Path(dest) if dest else default_folder()
    folder.mkdir(parents=True, exist_ok=True)
    manifest_file = folder / MANIFEST
    try:
        manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    done = {}
    for src in notebooks if notebooks is not None else source_notebooks():
        text = nbformat.writes(student_notebook(nbformat.read(src, as_version=4), src.name)) + "\n"
        target = folder / src.name
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current == text:
            done[src.name] = "unchanged"
        elif current is not None and keep_edited and _digest(current) != manifest.get(src.name):
            done[src.name] = "kept: edited since it was written (delete it to get the current edition)"
            continue
        else:
            paths.atomic_write(target, text)
            done[src.name] = "written"
        manifest[src.name] = _digest(text)
    manifest_file.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    return done


#: What the student kit takes from the project, besides the student edition of the notebooks:
#: the package and the files that install and run it, the notebooks' words and the data the
#: book ships (the released data is fetched by ``make data``). A list of what goes in, never of
#: what stays out: ``notebooks/`` (solutions), ``class/`` (classmates' sheets), ``results/``,
#: ``runs/``, feedback and ``_build/html`` are not in it, whatever else the project holds.
KIT_FILES = (
    "Makefile",
    "pyproject.toml",
    "requirements.txt",
    "_toc.yml",
    "data/sources.yml",
    "data/authored/README.md",
)
KIT_FOLDERS = ("src/helpers", "notebooks/words", "data/measured", "data/published")
#: The answer key of the explanation items (which dimensions each explanation was written to
#: fail), which chapters 4 and 5 compare ratings with: in the kit only when asked for, so that
#: a class can rate the items before anyone sees it. The labelled idiom sample of
#: ``helpers.figurative`` (``idiom_sample.csv``) is an answer key too: chapter 10's class activity
#: has pairs label its matches blind, so it comes only with the same flag.
ANSWER_KEY = "data/authored"


def write_student_kit(
    out: str | os.PathLike, root: str | os.PathLike | None = None, answer_key: bool = False
) -> tuple[Path, list[str]]:
    """Write the student kit, a zip to hand out instead of the repository: the student edition
    of ``notebooks/*.ipynb`` (:func:`student_notebook`), :data:`KIT_FILES` and :data:`KIT_FOLDERS`
    of the project at ``root`` (default: :func:`paths.project_root`), with ``answer_key`` also
    :data:`ANSWER_KEY`, a README saying how to run it (its words: ``core/book/pages/student_kit.yml``)
    and, when ``make book-student`` has built it, the student book (``_build/student/html``) as
    ``html/``. Returns the zip's path and the names it holds."""
    import zipfile

    root = Path(root).resolve() if root else paths.project_root()
    files: dict[str, Path] = {name: root / name for name in KIT_FILES if (root / name).is_file()}
    for folder in KIT_FOLDERS + ((ANSWER_KEY,) if answer_key else ()):
        files.update(
            {
                f.relative_to(root).as_posix(): f
                for f in sorted((root / folder).rglob("*"))
                if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc"
            }
        )
    book = root / "_build" / "student" / "html"
    has_book = (book / "index.html").is_file()
    if has_book:
        files.update({"html/" + f.relative_to(book).as_posix(): f for f in sorted(book.rglob("*")) if f.is_file()})
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)

    def write(tmp: Path) -> None:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as kit:
            words = pages.texts("core", "student_kit")  # the README's words: core/book/pages/student_kit.yml
            kit.writestr(
                "README.md",
                words["readme"].format(
                    key="" if answer_key else words["no_key"], book=words["book"] if has_book else ""
                ),
            )
            for src in sorted((root / "notebooks").glob("*.ipynb")):
                nb = student_notebook(nbformat.read(src, as_version=4), src.name)
                kit.writestr(f"notebooks/{src.name}", nbformat.writes(nb) + "\n")
            for name, path in sorted(files.items()):
                kit.write(path, name)

    paths.atomic_write(out, write)
    with zipfile.ZipFile(out) as kit:
        return out, kit.namelist()
