#!/usr/bin/env python3
"""Issue 21's pinning audit: which test files call each public statistic function.

Lists every public function of the statistics modules (:data:`MODULES`) with the test files that
call it (``name(`` or ``module.name``), pinned files (``test_pinned_*.py``) first, and the
notebooks and helpers that reach it. Whether a call compares with an independently obtained
number cannot be read off the source: that judgement, with the source of each expected value, is
in ``tools/mutate/PINNED.md``; this script finds the functions no test calls at all.

    python tools/mutate/pinned_audit.py            # table of every function
    python tools/mutate/pinned_audit.py --missing  # only those no pinned test or doctest reaches
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "helpers"

#: the modules whose public functions compute a statistic, score, weight or evaluator metric
MODULES = [
    "core/agreement.py", "core/stats.py", "core/scoring.py", "core/schemes.py", "core/annotations.py",
    "metahope/scoring.py", "metahope/simulate.py",
    "explanations/analysis.py", "explanations/evaluator.py",
    "slang/candidates.py", "slang/correlations.py", "slang/robustness.py", "slang/qe_data.py",
    "slang/qe_models.py", "slang/emotion.py", "slang/language_models.py",
    "wmt/analysis.py",
]


def public_functions(path: Path) -> dict[str, bool]:
    """The module-level functions of ``path`` that do not start with ``_``, each with whether its
    docstring has an Example (``>>>``, run as a doctest: ``testpaths`` includes ``src/helpers``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name: ">>>" in (ast.get_docstring(n) or "") for n in tree.body
            if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}


def callers(name: str, files: list[Path]) -> list[str]:
    """Files (relative to the project root) that call ``name``, name it as an attribute or import it."""
    n = re.escape(name)
    pattern = re.compile(rf"(?<!def )(?<![\w]){n}\s*\(|\.{n}\b|^\s*from\s.*import[^#\n]*\b{n}\b", re.M)
    return [str(f.relative_to(ROOT)) for f in files if pattern.search(f.read_text(encoding="utf-8"))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="only functions neither a pinned test nor a doctest reaches")
    args = parser.parse_args()
    tests = sorted((ROOT / "tests").rglob("test_*.py"))
    pinned = [t for t in tests if t.name.startswith("test_pinned_")]
    others = [t for t in tests if t not in pinned]
    reach = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(SRC.rglob("*.py"))
    print("| function | doctest | pinned tests | other tests | reached from |")
    print("|---|---|---|---|---|")
    for module in MODULES:
        for name, example in public_functions(SRC / module).items():
            p, o = callers(name, pinned), callers(name, others)
            if args.missing and (p or example):
                continue
            used = [r for r in callers(name, reach) if not r.endswith(module)]
            short = lambda fs: ", ".join(Path(f).stem.removeprefix("test_") for f in fs) or "–"
            print(f"| `{module[:-3].replace('/', '.')}.{name}` | {'yes' if example else '–'} | {short(p)} | {short(o)} | {short(used)} |")


if __name__ == "__main__":
    main()
