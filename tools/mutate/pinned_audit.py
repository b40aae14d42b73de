#!/usr/bin/env python3
"""Issue 21's pinning audit: which tests call each public statistic function.

Lists every public function of the statistics modules (:data:`MODULES`; for the chapter and
feedback modules only the functions that compute a number a chapter states) with whether its
docstring has an Example (run as a doctest: ``testpaths`` includes ``src/helpers``), the pinning
tests that call it (the test functions the inventory names; since issue 36 they live in each
module's own ``test_<module>.py``) and the other test files that do. Whether a call compares with
an independently obtained number cannot be read off the source: that judgement, with the source of
each expected value, is the inventory ``tools/mutate/PINNED.md``.

    python tools/mutate/pinned_audit.py            # table of every function
    python tools/mutate/pinned_audit.py --missing  # only those no pinned test or doctest reaches
    python tools/mutate/pinned_audit.py --check    # every function has a row in PINNED.md (exit 1 if not)
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "helpers"
INVENTORY = Path(__file__).with_name("PINNED.md")

#: module -> None (every public function computes a statistic, score, weight or metric) or the
#: functions of a chapter/feedback module that compute a number the chapter states
MODULES: dict[str, list[str] | None] = {
    **{
        f"core/statistics/{m}.py": None
        for m in (
            "agreement",
            "raters",
            "resampling",
            "intervals",
            "paired",
            "rankings",
            "correlation",
            "regression",
            "scoring",
            "schemes",
        )
    },
    "core/formats/annotations.py": ["span_offsets", "pool_pairings", "hotw_counts", "rated_segments", "severity_key"],
    "core/formats/published.py": ["compare_with_published"],
    "metahope/scoring.py": None,
    "metahope/simulate.py": ["team_statistics", "seed_summary", "agreement_sweep"],
    "metahope/ch01.py": ["findings"],
    "metahope/ch02.py": ["findings"],
    "metahope/chapter_common.py": ["few_clusters"],
    "metahope/ch03.py": ["calibration_table"],
    "metahope/feedback.py": ["student_feedback"],
    "explanations/analysis.py": None,
    "explanations/evaluator.py": [
        "item_targets",
        "run_evaluator",
        "judge_replicates",
        "disagreement_vs_error",
        "judge_vs_baselines",
    ],
    "explanations/ch04.py": ["calibration_band", "contrast_beside_truth", "findings"],
    "explanations/ch05.py": ["findings"],
    "explanations/feedback.py": ["class_feedback"],
    "slang/candidates.py": [
        "candidate_summary",
        "percentile_scores",
        "per_character_percentile",
        "score_candidates",
        "top_homophones",
        "top_ratings",
    ],
    "slang/correlations.py": None,
    "slang/robustness.py": [
        "pct_change",
        "share_increased",
        "boot_correlations",
        "robustness_table",
        "score_shifts",
        "method2_table",
        "stability_table",
        "stability_intervals",
        "stability_verdicts",
        "shift_by_word",
    ],
    "slang/qe_data.py": [
        "severity_penalty",
        "released_penalty",
        "mixed_severities",
        "penalty_scores",
        "score_check",
        "with_targets",
        "annotation_agreement",
        "split_sizes",
    ],
    "slang/qe_models.py": [
        "handmade_features",
        "ridge_on_dev",
        "pair_features",
        "correlations",
        "target_comparison",
        "evaluate_models",
    ],
    "slang/emotion.py": ["evaluate", "classifier_table", "consistency_table"],
    "slang/language_models.py": ["perplexity", "self_information_table"],
    "slang/ladder.py": ["ladder_scores"],
    "slang/ch06.py": ["findings"],
    "slang/template.py": ["average_ratings"],
    "wmt/analysis.py": None,
    "wmt/categories_and_spans.py": None,
}


def public_functions(path: Path, only: list[str] | None = None) -> dict[str, bool]:
    """The module-level public functions of ``path`` (all, or those of ``only``), each with
    whether its docstring has an Example (``>>>``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {
        n.name: ">>>" in (ast.get_docstring(n) or "")
        for n in tree.body
        if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")
    }
    if only is None:
        return found
    missing = sorted(set(only) - set(found))
    if missing:
        raise SystemExit(f"{path.relative_to(ROOT)} has no function(s) {missing}: update MODULES")
    return {name: found[name] for name in only}


def _pattern(name: str) -> re.Pattern:
    n = re.escape(name)
    return re.compile(rf"(?<!def )(?<![\w]){n}\s*\(|\.{n}\b|^\s*from\s.*import[^#\n]*\b{n}\b", re.M)


def test_functions(files: list[Path]) -> dict[str, str]:
    """``folder/file::test`` -> source of every top-level test function of ``files``."""
    out = {}
    for f in files:
        text = f.read_text(encoding="utf-8")
        for node in ast.parse(text).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out[f"{f.parent.name}/{f.stem}::{node.name}"] = ast.get_source_segment(text, node) or ""
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="only functions no pinned test or doctest reaches")
    parser.add_argument("--check", action="store_true", help="every function has a row in PINNED.md")
    args = parser.parse_args()
    tests = sorted((ROOT / "tests").rglob("test_*.py"))
    inventory = INVENTORY.read_text(encoding="utf-8") if INVENTORY.exists() else ""
    named = set(re.findall(r"`(test_\w+)`", inventory))
    pinned = {k: src for k, src in test_functions(tests).items() if k.split("::")[1] in named}
    others = {t: t.read_text(encoding="utf-8") for t in tests}
    absent = []
    if not args.check:
        print("| function | doctest | pinned tests | other test files |")
        print("|---|---|---|---|")
    for module, only in MODULES.items():
        for name, example in public_functions(SRC / module, only).items():
            label = f"{module[:-3].replace('/', '.')}.{name}"
            if args.check:
                if f"`{label}`" not in inventory:
                    absent.append(label)
                continue
            pat = _pattern(name)
            p = [t for t, src in pinned.items() if pat.search(src)]
            if args.missing and (p or example):
                continue
            o = [
                f"{f.parent.name}/{f.stem}"
                for f, src in others.items()
                if pat.search(src) and not any(k.startswith(f"{f.parent.name}/{f.stem}::") for k in p)
            ]
            print(f"| `{label}` | {'yes' if example else '–'} | {', '.join(p) or '–'} | {', '.join(o) or '–'} |")
    if absent:
        print(f"{len(absent)} function(s) without a row in {INVENTORY.name}: {', '.join(absent)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
