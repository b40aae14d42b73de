"""The package's layout shows the book: studies import core, never each other; core imports no study."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import helpers

PACKAGE = Path(helpers.__file__).parent
STUDIES = ("metahope", "explanations", "slang", "wmt", "metrics", "figurative")


def _imports(path: Path) -> set[str]:
    """Top-level helpers subpackages a module imports (absolute or relative)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]  # e.g. ("helpers", "metahope")
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[: len(package) - node.level + 1])
                names = [".".join(base + ([node.module] if node.module else []))]
                if not node.module:
                    names = [".".join(base + [a.name]) for a in node.names]
            else:
                names = [node.module or ""]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "helpers" and len(parts) > 1:
                found.add(parts[1])
    return found


@pytest.mark.parametrize("part", ("core",) + STUDIES)
def test_import_rule(part):
    for path in sorted((PACKAGE / part).rglob("*.py")):
        used = _imports(path) - {part}
        allowed = set() if part == "core" else {"core"}
        assert used <= allowed, f"{path.relative_to(PACKAGE)} imports helpers.{sorted(used - allowed)}"


def test_the_rule_checker_sees_relative_and_absolute_imports(tmp_path, monkeypatch):
    fake = PACKAGE / "slang" / "_probe_for_test.py"
    fake.write_text("from ..metahope import io\nimport helpers.explanations.io\nfrom . import homophones\n")
    try:
        assert _imports(fake) == {"metahope", "explanations", "slang"}
    finally:
        fake.unlink()


@pytest.mark.parametrize("part", STUDIES)
def test_each_study_says_its_chapters_and_exports_its_names(part):
    module = importlib.import_module(f"helpers.{part}")
    assert "Chapter" in module.__doc__ and module.__all__
    for name in module.__all__:
        assert hasattr(module, name), f"helpers.{part}.__all__ names {name}, which it lacks"


#: Words the package docstring's vocabulary replaces, in the parameters of helpers.core.
OFF_VOCABULARY = re.compile(
    r"^(annotators?|coders?|judges?|item_ids?|instances?|units?|spearman\w*|p_values?|pvalues?"
    r"|p_val|\w+_col)$"
)


def test_core_parameters_use_the_one_vocabulary():
    assert all(word in helpers.__doc__ for word in ("``rater``", "``item``", "``rho``", "``p``"))
    off = []
    for path in sorted((PACKAGE / "core").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                a = node.args
                off += [
                    f"{path.name}:{node.lineno} {node.name}({x.arg})"
                    for x in a.posonlyargs + a.args + a.kwonlyargs
                    if OFF_VOCABULARY.match(x.arg)
                ]
    assert not off, off


def test_no_results_hide_in_dataframe_attrs():
    """pandas drops ``DataFrame.attrs`` silently on many operations, so no function hands a result
    through them: counts and notes are explicit returns (issue part 2: no ``.attrs``)."""
    found = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\.attrs\b", line)
    ]
    assert not found, found


def test_the_test_layout_mirrors_the_package():
    """tests/<package>/ for each of helpers' packages, tests/book/ for what spans the whole book;
    no test file outside them (issue 17: the test layout mirrors src/helpers/)."""
    tests = Path(__file__).resolve().parents[1]
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    folders = {p.name for p in tests.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))}
    assert folders == packages | {"book"}
    assert not list(tests.glob("test_*.py"))


def test_importing_helpers_spares_jsonschema_the_iri_grammar():
    """``import helpers`` marks rfc3987_syntax absent (helpers/__init__.py): jsonschema then skips
    the two IRI formats, and notebooks still validate."""
    code = (
        "import sys, helpers, nbformat, jsonschema; print(sys.modules['rfc3987_syntax'] is None, "
        "'iri' in jsonschema.FormatChecker().checkers); nbformat.validate(nbformat.v4.new_notebook())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]


def _module_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports, read with ast from every ``*.py`` under
    ``package``. Every import counts wherever it stands (module level, inside a function, under
    ``if TYPE_CHECKING``): each is a dependency a reader has to follow. ``__init__`` files are
    left out: they gather a package's names for its users, and importing ``pkg.mod`` always runs
    ``pkg/__init__``, so counting them would turn any two siblings into a circle."""
    root = package.parent
    modules = {
        ".".join(p.relative_to(root).with_suffix("").parts): p for p in package.rglob("*.py") if p.name != "__init__.py"
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        here = name.split(".")[:-1]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = (
                    ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
                    if node.level
                    else (node.module or "")
                )
                # from pkg import mod names a module; from mod import name names mod
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                continue
            for target in targets:
                while target and target not in modules and "." in target:  # import a.b.c.name -> a.b.c
                    target = target.rsplit(".", 1)[0]
                if target in modules and target != name:
                    found.add(target)
        graph[name] = found
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: each strongly connected set of two or more modules, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_circle_between_modules():
    """No two modules of helpers import each other, directly or round a longer loop (issue 36)."""
    assert _cycles(_module_graph(PACKAGE)) == []


def test_the_circle_finder_sees_function_level_and_type_checking_imports(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    for init in (pkg / "__init__.py", pkg / "sub" / "__init__.py"):
        init.write_text("from . import *\n")
    (pkg / "a.py").write_text("def f():\n    from .b import g\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.sub import c\n")
    (pkg / "sub" / "c.py").write_text("from .. import a\n")
    (pkg / "d.py").write_text("import pkg.a\nfrom .sub.c import name\n")
    graph = _module_graph(pkg)
    assert graph == {
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg.sub.c"},
        "pkg.sub.c": {"pkg.a"},
        "pkg.d": {"pkg.a", "pkg.sub.c"},
    }
    assert _cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]


def _short_aliases(notebook: Path) -> list[str]:
    """The import lines of a notebook's code cells that bind a helpers module (or name) to an
    alias shorter than its own name (``agreement as ag``, ``from helpers import metahope as mh``)."""
    import json

    found = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            continue
        lines = "".join(cell["source"]).splitlines()
        code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)  # IPython magics
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Import | ast.ImportFrom):
                module = (node.module or "") if isinstance(node, ast.ImportFrom) else ""
                if any(
                    f"{module}.{a.name}".lstrip(".").startswith("helpers")
                    and a.asname
                    and len(a.asname) < len(a.name.rsplit(".", 1)[-1])
                    for a in node.names
                ):
                    found.append(f"{notebook.name}: {ast.get_source_segment(code, node)}")
    return found


def test_notebooks_import_helpers_by_their_full_names():
    """A student follows ``scoring.segment_scores(...)`` to helpers/metahope/scoring.py; ``mh.``,
    ``hc.`` or ``ag.`` send them hunting (issue 36, item 6)."""
    notebooks = sorted((PACKAGE.parents[1] / "notebooks").glob("*.ipynb"))
    assert notebooks
    assert [line for nb in notebooks for line in _short_aliases(nb)] == []


def test_the_alias_check_sees_package_and_module_aliases(tmp_path):
    import json

    cells = [
        {
            "cell_type": "code",
            "source": [
                "%matplotlib inline\n",
                "from helpers import metahope as mh\n",
                "from helpers.core import agreement as ag, plots\n",
            ],
        },
        {
            "cell_type": "code",
            "source": [
                "import helpers.slang.qe_models\n",
                "import pandas as pd\n",
                "from helpers.wmt import analysis as wmt_analysis\n",
            ],
        },
        {"cell_type": "markdown", "source": ["from helpers import wmt as w\n"]},
    ]
    (tmp_path / "x.ipynb").write_text(json.dumps({"cells": cells}), encoding="utf-8")
    assert _short_aliases(tmp_path / "x.ipynb") == [
        "x.ipynb: from helpers import metahope as mh",
        "x.ipynb: from helpers.core import agreement as ag, plots",
    ]


ROOT = PACKAGE.parents[1]
#: The most lines a module of the package may hold (issue 40: rooms of a size a person can hold).
MAX_MODULE_LINES = 800


def _long_modules(package: Path, limit: int = MAX_MODULE_LINES) -> dict[str, int]:
    """Modules of ``package`` longer than ``limit`` lines: relative path -> line count."""
    counts = {
        path.relative_to(package).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(package.rglob("*.py"))
    }
    return {name: n for name, n in counts.items() if n > limit}


def test_no_module_is_longer_than_800_lines():
    assert _long_modules(PACKAGE) == {}


def test_the_length_check_counts_lines(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "short.py").write_text("x = 1\n" * 800)
    (tmp_path / "sub" / "long.py").write_text("x = 1\n" * 801)
    assert _long_modules(tmp_path) == {"sub/long.py": 801}


def test_one_version_string():
    """pyproject.toml declares no version of its own: setuptools reads ``helpers.__version__``
    (issue 40: the two had drifted apart, 0.1.0 and 0.2.0)."""
    import tomllib

    from setuptools.config.expand import read_attr

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert read_attr(attr, package_dir={"": "src"}, root_dir=ROOT) == helpers.__version__


def test_make_test_and_test_fast_run_the_formatter_check_first():
    """``make test`` and ``make test-fast`` start with ``$(RUFF_CHECK)``, which refuses
    unformatted code and lint findings (issue 40)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    check = re.search(r"^RUFF_CHECK = (.+)$", makefile, re.MULTILINE).group(1)
    assert "ruff format --check" in check and "ruff check" in check
    for target in ("test", "test-fast"):
        recipe = re.search(rf"^{re.escape(target)}:.*\n\t(.+)$", makefile, re.MULTILINE).group(1)
        assert recipe == "$(RUFF_CHECK)", target
    pinned = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    assert re.search(r"^ruff==\S+$", pinned, re.MULTILINE)


def test_no_mutable_default_arguments():
    """No function of the package takes a list, dict or set literal as a default: one object
    shared by every call (ruff's B006; ``pos_overrides={}`` was one)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                defaults = node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
                found += [
                    f"{path.relative_to(PACKAGE)}:{d.lineno}"
                    for d in defaults
                    if isinstance(d, ast.List | ast.Dict | ast.Set | ast.ListComp | ast.DictComp | ast.SetComp)
                ]
    assert found == []
