#!/usr/bin/env python3
"""Count the prose left in the package's Python: words belong in the words files.

A *prose string* is a string constant of six words or more (an implicit concatenation counts
as one string; an f-string counts by its literal parts, each replacement field read as a
space) that is neither a docstring (the first statement of a module, class or function) nor
an error message (an argument of a raised exception call, ``raise InputError(f"...")``, of an
exception built to be raised or collected later, ``problems.append(InputError("..."))``, or of
``warnings.warn``; or the value of a variable whose every use is inside such an argument). A
*word* is a run of non-blank characters holding a Latin letter (so a list of Chinese data, whose
characters Python also takes for letters, is not prose). The count is of source *lines*: each
line a prose string occupies counts once per file.

``python tools/prose.py`` prints the total and the count per file, largest first;
``python tools/prose.py --list FILE`` prints each prose line of that file. The budget (issue
36: at most 120 lines in the package, at most 10 in each chapter module ``chNN.py``) is
checked by ``tests/book/test_prose.py``. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "helpers"
MIN_WORDS = 6
_WORD = re.compile(r"\S*[A-Za-zÀ-ÖØ-öø-ɏ]\S*")  # Latin letters: ASCII, Latin-1 and Latin Extended-A/B


def _text(node: ast.AST) -> str | None:
    """The literal text of a string constant or f-string (fields as spaces); None for others."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else " " for part in node.values)
    return None


def words(text: str) -> int:
    """The number of words in ``text``: runs of non-blank characters holding a Latin letter."""
    return len(_WORD.findall(text))


def _docstrings(tree: ast.AST) -> set[int]:
    """``id`` of every docstring node: the first statement of a module, class or function."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and _text(body[0].value) is not None:
                found.add(id(body[0].value))
    return found


def _is_message_call(call: ast.Call) -> bool:
    """True for ``warnings.warn(...)`` (or a bare ``warn``) and for building an exception, a
    call of a name ending in ``Error``, ``Errors``, ``Exception`` or ``Warning``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "warn" or name.endswith(("Error", "Errors", "Exception", "Warning"))


def _messages(tree: ast.AST) -> set[int]:
    """``id`` of every node inside the arguments of a raised call, an exception's constructor or
    warnings.warn, and of the value of a variable used nowhere else (``what = "..."`` then
    ``raise InputError(f"... {what}")``: its text is part of the error message)."""
    calls = [node.exc for node in ast.walk(tree) if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)]
    calls += [node for node in ast.walk(tree) if isinstance(node, ast.Call) and _is_message_call(node)]
    found = set()
    for call in calls:
        for arg in list(call.args) + [keyword.value for keyword in call.keywords]:
            found.update(id(inner) for inner in ast.walk(arg))
    scopes = [tree] + [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in scopes:  # a variable is looked up in the function that assigns it (or the whole module)
        uses: dict[str, list[ast.Name]] = {}
        for node in ast.walk(scope):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                uses.setdefault(node.id, []).append(node)
        body = scope.body if scope is tree else list(ast.walk(scope))
        for node in body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                loads = uses.get(node.targets[0].id, [])
                if loads and all(id(load) in found for load in loads):
                    found.update(id(inner) for inner in ast.walk(node.value))
    return found


def prose_lines(source: str) -> list[int]:
    """Line numbers (1-based, sorted) that prose strings occupy in ``source``."""
    tree = ast.parse(source)
    skip = _docstrings(tree) | _messages(tree)
    lines: set[int] = set()
    inside_fstring = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in ast.walk(node)
        if part is not node
    }
    for node in ast.walk(tree):
        if id(node) in skip or id(node) in inside_fstring:
            continue
        text = _text(node)
        if text is not None and words(text) >= MIN_WORDS:
            lines.update(range(node.lineno, node.end_lineno + 1))
    return sorted(lines)


def count(package: Path = PACKAGE) -> dict[str, int]:
    """Prose lines per module of ``package`` (paths relative to it), largest first, zeros left out."""
    counts = {}
    for path in sorted(package.rglob("*.py")):
        n = len(prose_lines(path.read_text(encoding="utf-8")))
        if n:
            counts[path.relative_to(package).as_posix()] = n
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def main(argv: list[str] | None = None) -> int:
    """Print the total and the count per file, or (``--list FILE``) each prose line of one file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", metavar="FILE", type=Path, help="print each prose line of FILE")
    args = parser.parse_args(argv)
    if args.list:
        source = args.list.read_text(encoding="utf-8").splitlines()
        for number in prose_lines("\n".join(source)):
            print(f"{args.list}:{number}: {source[number - 1].strip()}")
        return 0
    counts = count()
    print(f"{sum(counts.values())} prose lines in src/helpers")
    for name, n in counts.items():
        print(f"{n:5d}  {name}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the output piped into head: stop quietly
        sys.stderr.close()
        sys.exit(0)
