"""Each parameter's default is written twice, in the notebook's ``parameters`` cell (what
``python -m helpers run`` and the book use) and in the chapter function the notebook hands
it to (what a test or a script calling ``chNN.setup`` gets); the two must agree.

Read from the notebooks' JSON with :mod:`ast`, so no notebook runs. A parameter "flows into"
a chapter function when a code cell calls ``chNN.f(..., name=name)`` or passes ``name``
positionally; its default there (:func:`inspect.signature`) must equal the cell's literal.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import re
from pathlib import Path

import pytest

from helpers.core.book import execution

#: The names a notebook imports its chapter module by: ``chNN`` (issue 36's shape,
#: ``from helpers.metrics import ch09``) or a study's older ``chapters``.
CHAPTER_MODULES = re.compile(r"ch\d\d|chapters")
NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _cells(notebook: Path) -> list[dict]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [
        dict(c, source="".join(c["source"]) if isinstance(c["source"], list) else c["source"])
        for c in cells
        if c.get("cell_type") == "code"
    ]


def parameters_cell(notebook: Path) -> dict[str, object]:
    """Every ``name = literal`` of the cell tagged ``parameters``, evaluated as a literal."""
    cells = [c for c in _cells(notebook) if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(cells) == 1, f"{notebook.name}: {len(cells)} cells tagged parameters"
    values = {}
    for node in ast.parse(cells[0]["source"]).body:
        assert isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name), (
            f"{notebook.name}: the parameters cell holds something other than `name = literal` (line {node.lineno})"
        )
        values[node.targets[0].id] = ast.literal_eval(node.value)
    return values


def chapter_calls(notebook: Path) -> list[tuple[str, dict[str, str]]]:
    """``(function, {function parameter: notebook parameter})`` for each call of ``chNN.f``
    in the notebook's code whose arguments are plain notebook variables."""
    study = None
    calls = []
    for cell in _cells(notebook):
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            continue
        try:
            tree = ast.parse(cell["source"])
        except SyntaxError:  # IPython magics: no chapter call sits in such a cell
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("helpers.")
                and any(CHAPTER_MODULES.fullmatch(a.name) for a in node.names)
            ):
                study = next(f"{node.module}.{a.name}" for a in node.names if CHAPTER_MODULES.fullmatch(a.name))
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and CHAPTER_MODULES.fullmatch(node.func.value.id)
            ):
                passed = {k.arg: k.value.id for k in node.keywords if k.arg and isinstance(k.value, ast.Name)}
                passed.update({i: a.id for i, a in enumerate(node.args) if isinstance(a, ast.Name)})
                calls.append((node.func.attr, passed))
    assert study, f"{notebook.name} imports no study's chapters module"
    module = importlib.import_module(study)
    return [(getattr(module, name), passed) for name, passed in calls]


def _same(a, b) -> bool:
    """Equal and of one type (``1`` is not ``1.0``, ``None`` is not ``{}``); a list in the cell
    matches a tuple in Python, item by item."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_parameters_cell_and_chapter_functions_give_the_same_defaults(notebook):
    cell = parameters_cell(notebook)
    calls = chapter_calls(notebook)
    assert any(f.__name__ == "setup" or f.__name__.endswith("_setup") for f, _ in calls), (
        f"{notebook.name} calls no chapter set-up (chNN.setup)"
    )
    checked, wrong = set(), []
    for function, passed in calls:
        signature = inspect.signature(function)
        names = list(signature.parameters)
        for where, variable in passed.items():
            if variable not in cell:
                continue
            name = names[where] if isinstance(where, int) else where
            default = signature.parameters[name].default
            if default is inspect.Parameter.empty:
                continue  # required there: the notebook's value is the only default
            checked.add(variable)
            if not _same(cell[variable], default):
                wrong.append(f"{variable}: cell {cell[variable]!r}, {function.__name__}({name}={default!r})")
    assert not wrong, f"{notebook.name}: " + "; ".join(wrong)
    setups = [f for f, _ in calls if f.__name__ == "setup" or f.__name__.endswith("_setup")]
    for setup in setups:  # every setup parameter named like a notebook parameter was compared
        shared = {
            p
            for p, v in inspect.signature(setup).parameters.items()
            if p in cell and v.default is not inspect.Parameter.empty
        }
        assert shared <= checked, f"{notebook.name}: {sorted(shared - checked)} not passed to {setup.__name__} by name"


def test_the_comparison_sees_a_disagreement():
    assert not _same(2000, 1000) and not _same(None, {}) and not _same(1, 1.0) and not _same(True, 1)
    assert _same([2.0, 8.0], (2.0, 8.0)) and _same("stop", "stop") and _same(2e-5, 0.00002)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_parameters_cell_holds_a_replaced_name(notebook):
    assert not set(parameters_cell(notebook)) & set(execution.RENAMED_PARAMETERS)
    assert list(parameters_cell(notebook)) == execution.notebook_parameters(notebook)
