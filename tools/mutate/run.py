#!/usr/bin/env python3
"""`make mutate`: mutation testing of the statistics and the scoring code, one module at a time.

For each module of :data:`MODULES` a scratch copy of the project (``.mutate/<name>/``: ``src/``,
the module's own unit tests, ``tests/conftest.py``) is made and ``mutmut run`` mutates that one
module there, running only the module's own test files (mutmut then runs, per mutant, only the
tests that reach the mutated function). Survivors that are equivalent to the original (listed
with their reason in ``tools/mutate/equivalent.yml``, matched by function and mutated line) are
left out of the kill rate. Writes ``bench/mutate.csv`` (one row per module: mutants, killed,
survived, equivalent, no tests, timeouts, kill rate, seconds) and ``bench/mutate_survivors.txt``
(the diff of every survivor that is not on the equivalent list; the sections of modules not run
this time are kept), which ``make bench`` reads.

    python tools/mutate/run.py                 # every module
    python tools/mutate/run.py stats agreement # some
    python tools/mutate/run.py --report        # re-read the last runs, no mutation
    python tools/mutate/run.py --survivors stats  # the last run's real survivors again, current tests
    python tools/mutate/run.py --recheck-timeouts language_models  # the last run's timeouts, not forked

After every ``mutmut run`` (full or ``--survivors``) each mutant mutmut reports as a timeout is run
again in a fresh ``python -m pytest`` process (:func:`recheck_timeouts`): mutmut's timeout is a
CPU-time limit in a child forked from a process that has already run the tests, and such a child
can hang in torch's OpenMP threads (see :func:`mutmut`) on a mutant that only changes how a
progress bar looks. Only a mutant that still outlasts the wall-clock limit stays a timeout.

Not part of ``make test`` or CI; the choice of mutmut is measured in tools/mutate/README.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / ".mutate"
BENCH = ROOT / "bench"
EQUIVALENT = Path(__file__).with_name("equivalent.yml")

#: name -> (module file, its own unit tests, functions to mutate (mutmut name globs; None = all)).
MODULES: dict[str, tuple[str, list[str], list[str] | None]] = {
    # each module's own test file holds its pinned cases too (issue 36); stats and agreement also run each
    # other's file, which holds the statistics chapter 08 added to core (rater bias, span agreement, the
    # one-way ICC use the cluster resampling of stats)
    # (stats.py itself only gathers the names of the statistics families since issue 40: each family is mutated)
    **{
        f"stats_{family}": (
            f"src/helpers/core/statistics/{family}.py",
            ["tests/core/test_stats.py", "tests/core/test_correlation.py", "tests/core/test_agreement.py"],
            None,
        )
        for family in ("resampling", "intervals", "paired", "rankings", "correlation", "regression")
    },
    "agreement": (
        "src/helpers/core/statistics/agreement.py",
        ["tests/core/test_agreement.py", "tests/core/test_stats.py"],
        None,
    ),
    "raters": (
        "src/helpers/core/statistics/raters.py",
        ["tests/core/test_agreement.py", "tests/core/test_stats.py"],
        None,
    ),
    "mqm_scoring": (
        "src/helpers/core/statistics/scoring.py",
        ["tests/core/test_scoring.py", "tests/core/test_schemes.py", "tests/core/test_mqm_commands.py"],
        None,
    ),
    "schemes": (
        "src/helpers/core/statistics/schemes.py",
        ["tests/core/test_schemes.py", "tests/core/test_scoring.py", "tests/core/test_mqm_commands.py"],
        None,
    ),
    "annotations": (
        "src/helpers/core/formats/annotations.py",
        [
            "tests/core/test_annotations.py",
            "tests/core/test_mqm.py",
            "tests/core/test_scoring.py",
            "tests/core/test_schemes.py",
            "tests/core/test_mqm_commands.py",
        ],
        None,
    ),
    "metahope_scoring": (
        "src/helpers/metahope/scoring.py",
        ["tests/metahope/test_scoring.py", "tests/metahope/test_mqm_format.py", "tests/metahope/test_severity.py"],
        None,
    ),
    # the severity scale and its weights (apply_weights moved here from scoring.py: issue 36's io <-> scoring circle)
    "metahope_severity": (
        "src/helpers/metahope/severity.py",
        ["tests/metahope/test_severity.py", "tests/metahope/test_scoring.py"],
        None,
    ),
    # the rating statistics of the explanations study (not its figures or file handling)
    "explanations_analysis": (
        "src/helpers/explanations/analysis.py",
        ["tests/explanations/test_analysis.py", "tests/explanations/test_simulate.py"],
        [
            "*x_reliability_table*",
            "*x_item_means*",
            "*x_spearman_table*",
            "*x_spearman_pairs*",
            "*x_standardized_regression*",
            "*x_item_statistics*",
            "*x_rater_profile*",
            "*x_design_contrast*",
            "*x_significance_mark*",
        ],
    ),
    # the WMT MQM chapter's statistics: weight sweeps, scheme agreement, ICC by documents and system
    # tests (not the reproduction of the published tables' printed digits)
    "wmt_analysis": (
        "src/helpers/wmt/analysis.py",
        ["tests/wmt/test_analysis.py"],
        [
            "*x_major_weight_scheme*",
            "*x_major_to_minor*",
            "*x_segment_matrix*",
            "*x_weight_sweep*",
            "*x_rankings*",
            "*x_scheme_agreement*",
            "*x_major_weight_agreement*",
            "*x_icc_by_documents*",
            "*x_system_tests*",
            "*x_certainty_overstatement*",
        ],
    ),
    # the WMT MQM chapter's per-category and span views: category presence and its agreement, error
    # spans and their agreement, penalties per category
    "wmt_categories_and_spans": (
        "src/helpers/wmt/categories_and_spans.py",
        ["tests/wmt/test_analysis.py"],
        [
            "*x_top_level*",
            "*x__errors*",
            "*x_category_presence*",
            "*x_presence_agreement*",
            "*x_error_spans*",
            "*x_span_table*",
            "*x_category_penalties*",
        ],
    ),
    # the homophone study (chapter 6): Algorithm 1's candidates, Algorithm 2's percentiles and the released
    # per-character score, the top-k picks and their ratings; the rating correlations (pooled, per word, within
    # word, per ladder rung); the language models' self-information and perplexity (Kneser-Ney, word unigrams)
    "homophone_candidates": (
        "src/helpers/slang/candidates.py",
        ["tests/slang/test_candidates.py"],
        [
            "*x_candidates__*",
            "*x_percentile_scores*",
            "*x_per_character_percentile*",
            "*x_top_homophones*",
            "*x_top_ratings*",
        ],
    ),
    "homophone_correlations": (
        "src/helpers/slang/correlations.py",
        ["tests/slang/test_correlations.py", "tests/slang/test_language_models.py"],
        [
            "*x__merged*",
            "*x__methods*",
            "*x_human_correlations*",
            "*x_spearman_by_word*",
            "*x_within_word_correlations*",
            "*x__word_jackknife*",
            "*x_ladder_correlations*",
            "*x_word_levels*",
            "*x_resolution*",
        ],
    ),
    # (not test_correlations.py: its chapter-value test trains a Kneser-Ney model on all Weibo posts for every
    # mutant, 2.5 s or a timeout each; the models' arithmetic is pinned on tiny texts in the two files below)
    "language_models": (
        "src/helpers/slang/language_models.py",
        ["tests/slang/test_language_models.py"],
        [
            "*x_perplexity*",
            "*x_self_information_table*",
            "*ǁScorerǁself_information*",
            "*ǁKneserNeyLMǁ*",
            "*ǁWordUnigramScorerǁ*",
        ],
    ),
    # chapter 7: the QE robustness statistics (not the perturbations' text handling, the probe's plumbing or
    # figures) and the rule that turned error severities into the released scores
    "qe_robustness": (
        "src/helpers/slang/robustness.py",
        ["tests/slang/test_robustness.py"],
        [
            "*x_pct_change*",
            "*x_check_percent_changes*",
            "*x_share_increased*",
            "*x_boot_index*",
            "*x_boot_correlations*",
            "*x_robustness_table*",
            "*x_score_shifts*",
            "*x_method2_table*",
            "*x_stability_table*",
            "*x_swap_sources*",
            "*x_stability_intervals*",
            "*x_stability_verdicts*",
            "*x_shift_by_word*",
        ],
    ),
    "qe_scores": (
        "src/helpers/slang/qe_data.py",
        ["tests/slang/test_qe_data.py"],
        [
            "*x_severity_penalty*",
            "*x_released_penalty*",
            "*x_mixed_severities*",
            "*x_penalty_scores*",
            "*x_score_check*",
            "*x__follows_other_row*",
        ],
    ),
}
#: mutmut's exit codes it reports as "timeout" (SIGXCPU as seen by the parent, its own wall limit, ...).
TIMEOUT_CODES = {-24, 24, 152, 255, 36}
#: The re-check's wall-clock limit per mutant: this many times the tests' recorded duration, plus GRACE
#: seconds (a fresh pytest imports pandas, scipy, torch before the first test).
RECHECK_FACTOR, RECHECK_GRACE = 10, 60
#: The options mutmut runs pytest with (mutmut.runners.harness and the setup.cfg of :func:`prepare`).
PYTEST_ARGS = [
    "--rootdir=.",
    "--tb=native",
    "-x",
    "-q",
    "-p",
    "no:randomly",
    "-p",
    "no:random-order",
    "-p",
    "no:cacheprovider",
    "-m",
    "not slow and not browser",
]
FIELDS = [
    "module",
    "file",
    "mutants",
    "killed",
    "survived",
    "equivalent",
    "no_tests",
    "timeout",
    "other",
    "kill_rate",
    "seconds",
    "finished",
]


def mutmut(cwd: Path, *args: str, capture: bool = True) -> subprocess.CompletedProcess:
    """Run the venv's mutmut in ``cwd`` (the scratch copy; mutmut puts its ``mutants/src`` first).

    With one OpenMP thread: mutmut forks each mutant's test run from a process that has already run
    the tests, and a child forked after torch started its OpenMP threads can hang (GNU OpenMP is not
    fork-safe); language_models' tests that run a transformer then ended as "timeouts"."""
    exe = Path(sys.executable).with_name("mutmut")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # mutmut sets the path itself
    env.setdefault("OMP_NUM_THREADS", "1")
    return subprocess.run(
        [str(exe), *args],
        cwd=cwd,
        env=env,
        text=True,
        check=False,
        stdout=subprocess.PIPE if capture else None,
        stderr=subprocess.STDOUT if capture else None,
    )


def copy_tests(name: str) -> None:
    """The module's own unit tests and ``tests/conftest.py``, as they are now, into its scratch project,
    with the other test files of their folders (a test may import helpers from one; only the listed
    files are selected to run)."""
    work = WORK / name
    folders = {Path(t).parent for t in MODULES[name][1]}
    helpers = [str(f.relative_to(ROOT)) for d in sorted(folders) for f in sorted((ROOT / d).glob("*.py"))]
    for t in dict.fromkeys(["tests/conftest.py", *MODULES[name][1], *helpers]):
        if (ROOT / t).exists():
            (work / t).parent.mkdir(parents=True, exist_ok=True)  # tests/<package>/
            shutil.copy2(ROOT / t, work / t)


def prepare(name: str) -> Path:
    """A fresh scratch project for one module: src/, its tests, conftest, mutmut's setup.cfg."""
    path, tests, _ = MODULES[name]
    work = WORK / name
    shutil.rmtree(work, ignore_errors=True)
    (work / "tests").mkdir(parents=True)
    shutil.copytree(ROOT / "src", work / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    copy_tests(name)
    if (ROOT / "data").exists():
        (work / "data").symlink_to(ROOT / "data")
    (work / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'
        'filterwarnings = ["ignore::DeprecationWarning"]\n'
        'markers = ["slow: notebooks", "browser: chromium"]\n'
    )
    selection = "\n".join(f"    {t}" for t in tests if (ROOT / t).exists())
    (work / "setup.cfg").write_text(
        f"[mutmut]\nsource_paths=src\nonly_mutate={path}\n"
        f"pytest_add_cli_args_test_selection=\n{selection}\n"
        "pytest_add_cli_args=\n    -p\n    no:cacheprovider\n    -m\n"
        "    not slow and not browser\n"
    )
    return work


def load_equivalents() -> list[dict]:
    import yaml

    if not EQUIVALENT.exists():
        return []
    return yaml.safe_load(EQUIVALENT.read_text(encoding="utf-8")) or []


#: Run inside a scratch project: the diff of each mutant named on stdin (one mutmut import for
#: all of them; ``mutmut show`` per survivor costs a process start and a config load each).
_DIFFS = """
import json, sys
from mutmut.__main__ import find_mutant, get_diff_for_mutant
print(json.dumps({n: get_diff_for_mutant(n, path=find_mutant(n).path) for n in json.load(sys.stdin)}))
"""


def diffs_of(work: Path, mutants: list[str]) -> dict[str, str]:
    """The changed lines (``-`` original, ``+`` mutant) of each mutant."""
    import json

    if not mutants:
        return {}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [sys.executable, "-c", _DIFFS],
        cwd=work,
        env=env,
        input=json.dumps(mutants),
        text=True,
        capture_output=True,
        check=True,
    )
    return {
        name: "\n".join(line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---")))
        for name, diff in json.loads(proc.stdout).items()
    }


def is_equivalent(mutant: str, diff: str, equivalents: list[dict]) -> dict | None:
    """The entry of the equivalent list that covers this survivor: its ``function`` (a glob of
    mutmut's ``module.x_function`` name) matches, and its ``added`` text is the mutated line
    (whitespace-insensitive) or its ``added_regex`` is found in it."""
    function = re.sub(r"__mutmut_\d+$", "", mutant)
    added = " ".join(" ".join(line[1:] for line in diff.splitlines() if line.startswith("+")).split())
    from fnmatch import fnmatch

    for e in equivalents:
        if not fnmatch(function, f"*{e['function']}"):
            continue
        if "added" in e and " ".join(str(e["added"]).split()) == added:
            return e
        if "added_regex" in e and re.search(e["added_regex"], added):
            return e
    return None


def statuses(name: str) -> dict[str, str]:
    """mutmut's status of every mutant of the module's selected functions in its last run."""
    res = mutmut(WORK / name, "results", "--all", "true").stdout
    status = {}
    for line in res.splitlines():
        m = re.match(r"\s*(\S+__mutmut_\d+): (.+)$", line)
        if m:
            status[m.group(1)] = m.group(2).strip()
    globs = MODULES[name][2]
    if globs:
        from fnmatch import fnmatch

        status = {k: v for k, v in status.items() if any(fnmatch(k, g) for g in globs)}
    return status


def real_survivors(name: str, equivalents: list[dict]) -> list[str]:
    """The survivors (and mutants no test reached) of the last run that are not on the equivalent list."""
    status = statuses(name)
    left = [m for m, st in sorted(status.items()) if st in ("survived", "no tests")]
    diffs = diffs_of(WORK / name, left)
    return [m for m in left if status[m] == "no tests" or not is_equivalent(m, diffs[m], equivalents)]


def recheck_timeouts(name: str) -> dict[str, int]:
    """Run each mutant of the last run that mutmut reports as a timeout again, in a fresh (not
    forked) ``python -m pytest`` in the scratch project's ``mutants/`` folder with
    ``MUTANT_UNDER_TEST`` set, on the tests mutmut maps to the mutated function
    (``mutmut-stats.json``'s ``tests_by_mangled_function_name``) and with mutmut's pytest options,
    under a wall-clock limit of :data:`RECHECK_FACTOR` × those tests' recorded duration +
    :data:`RECHECK_GRACE` s. Tests fail: killed (exit code 1 written into mutmut's ``.meta``);
    tests pass: survived (0: reported, and matched against ``equivalent.yml``, like any survivor);
    over the limit: a timeout still (mutmut's code kept). Each outcome, with mutmut's code, the
    limit, the time taken and pytest's last lines, is kept in ``.mutate/<name>/timeouts.json``.
    Returns the counts of the three outcomes."""
    mutants_dir = WORK / name / "mutants"
    meta_path = mutants_dir / (MODULES[name][0] + ".meta")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    stats = json.loads((mutants_dir / "mutmut-stats.json").read_text(encoding="utf-8"))
    log_path = WORK / name / "timeouts.json"
    log = json.loads(log_path.read_text(encoding="utf-8")) if log_path.exists() else {}
    timed_out = [m for m, st in sorted(statuses(name).items()) if st == "timeout"]
    counts = {"killed": 0, "survived": 0, "timeout": 0}
    if timed_out:
        print(f"[mutate] {name}: re-checking {len(timed_out)} timeouts in fresh pytest processes", flush=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for k, mutant in enumerate(timed_out, 1):
        tests = sorted(stats["tests_by_mangled_function_name"].get(mutant.partition("__mutmut_")[0], []))
        recorded = sum(stats["duration_by_test"].get(t, 0.0) for t in tests)
        limit = RECHECK_FACTOR * recorded + RECHECK_GRACE
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "pytest", *PYTEST_ARGS, *tests],
            cwd=mutants_dir,
            env={**env, "PYTHONPATH": "src", "MUTANT_UNDER_TEST": mutant},
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            out, _ = proc.communicate(timeout=limit)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # pytest and anything it started
            out, _ = proc.communicate()
            code = None
        seconds = time.monotonic() - started
        outcome = "timeout" if code is None else "survived" if code == 0 else "killed"
        if code is not None and code not in (0, 1):
            print(f"[mutate] {mutant}: pytest exited with {code}, counted as killed (as mutmut does)", flush=True)
        counts[outcome] += 1
        log[mutant] = {
            "mutmut_exit_code": meta["exit_code_by_key"][mutant],
            "tests": len(tests),
            "recorded_s": round(recorded, 2),
            "limit_s": round(limit),
            "seconds": round(seconds, 1),
            "pytest_exit_code": code,
            "outcome": outcome,
            "last_lines": out.splitlines()[-3:],
        }
        if outcome != "timeout":
            meta["exit_code_by_key"][mutant] = 0 if outcome == "survived" else 1
        meta_path.write_text(
            json.dumps(meta, indent=4), encoding="utf-8"
        )  # after each: an interrupted re-check keeps its work
        log_path.write_text(json.dumps(log, indent=1, ensure_ascii=False), encoding="utf-8")
        print(
            f"[mutate] {name}: {k}/{len(timed_out)} {mutant.rsplit('.', 1)[-1]}: {outcome} "
            f"({seconds:.0f} s, limit {limit:.0f} s)",
            flush=True,
        )
    if timed_out:
        print(
            f"[mutate] {name}: timeouts re-checked: {counts['killed']} killed, {counts['survived']} survived, "
            f"{counts['timeout']} still over the limit",
            flush=True,
        )
    return counts


def summarise(name: str, seconds: float | None, equivalents: list[dict], survivors_out: list[str]) -> dict:
    work = WORK / name
    status = statuses(name)
    counts = {"killed": 0, "survived": 0, "equivalent": 0, "no_tests": 0, "timeout": 0, "other": 0}
    diffs = diffs_of(work, [m for m, st in sorted(status.items()) if st in ("survived", "no tests")])
    for mutant, st in sorted(status.items()):
        if st == "killed":
            counts["killed"] += 1
        elif st == "survived":
            if is_equivalent(mutant, diffs[mutant], equivalents):
                counts["equivalent"] += 1
            else:
                counts["survived"] += 1
                survivors_out.append(f"== {name}: {mutant}\n{diffs[mutant]}\n")
        elif st == "no tests":
            counts["no_tests"] += 1
            survivors_out.append(f"== {name}: {mutant} (no test reaches it)\n{diffs[mutant]}\n")
        elif st == "timeout":
            counts["timeout"] += 1  # still over the wall limit after recheck_timeouts: it makes the tests hang, caught
        else:
            counts["other"] += 1
    counted = counts["killed"] + counts["timeout"] + counts["survived"] + counts["no_tests"]
    rate = (counts["killed"] + counts["timeout"]) / counted * 100 if counted else float("nan")
    return {
        "module": name,
        "file": MODULES[name][0],
        "mutants": len(status),
        **counts,
        "kill_rate": round(rate, 1),
        "seconds": round(seconds) if seconds is not None else "",
        "finished": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
    }


def previous() -> dict[str, dict]:
    path = BENCH / "mutate.csv"
    if not path.exists():
        return {}
    with open(path, newline="", encoding="utf-8") as fh:
        return {r["module"]: r for r in csv.DictReader(fh)}


def write_survivors(survivors: list[str], names: list[str]) -> None:
    """``bench/mutate_survivors.txt``: this run's survivors of the modules in ``names``, the other
    modules' sections kept as the file had them (entries start with ``== <module>: ``), all in
    :data:`MODULES` order."""
    path = BENCH / "mutate_survivors.txt"
    sections: dict[str, list[str]] = {}
    if path.exists():
        for entry in re.split(r"(?m)^(?=== )", path.read_text(encoding="utf-8")):
            m = re.match(r"== (\S+): ", entry)
            if m and m.group(1) not in names:
                sections.setdefault(m.group(1), []).append(entry)
    for entry in survivors:
        sections.setdefault(re.match(r"== (\S+): ", entry).group(1), []).append(entry)
    order = [*MODULES, *(n for n in sections if n not in MODULES)]
    path.write_text("".join(e for n in order for e in sections.get(n, [])), encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modules", nargs="*", help=f"default: all of {', '.join(MODULES)}")
    ap.add_argument("--report", action="store_true", help="re-read the last runs without mutating")
    ap.add_argument(
        "--survivors",
        action="store_true",
        help="run only the last run's real survivors again, with the tests as they are now "
        "(the module's source must be unchanged)",
    )
    ap.add_argument(
        "--recheck-timeouts",
        action="store_true",
        help="only re-check the last run's timeouts in fresh, non-forked pytest processes (done "
        "after every mutmut run anyway)",
    )
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", 2)))
    args = ap.parse_args(argv)
    names = args.modules or list(MODULES)
    unknown = [n for n in names if n not in MODULES]
    if unknown:
        ap.error(f"unknown module(s) {unknown}; known: {', '.join(MODULES)}")
    equivalents = load_equivalents()
    rows, survivors, summarised = previous(), [], []
    for name in names:
        seconds = None
        if args.survivors:
            work = WORK / name
            path = MODULES[name][0]
            if not (work / "mutants").exists():
                ap.error(f"{name} has no last run to take the survivors from")
            if (ROOT / path).read_bytes() != (work / path).read_bytes():
                ap.error(f"{path} changed since {name}'s last run: run it again in full")
            left = real_survivors(name, equivalents)
            print(f"[mutate] {name}: {len(left)} survivors again, with the current tests", flush=True)
            if left:  # the tests and the rest of src/ as they are now (the module itself is unchanged)
                for f in (ROOT / "src").rglob("*"):
                    rel = f.relative_to(ROOT)
                    if f.is_file() and "__pycache__" not in rel.parts and rel != Path(path):
                        for target in (work / rel, work / "mutants" / rel):  # mutmut runs its mutants/ copy
                            target.parent.mkdir(parents=True, exist_ok=True)
                            shutil.copy2(f, target)
                copy_tests(name)
                started = time.monotonic()
                mutmut(work, "run", "--max-children", str(args.jobs), *left, capture=False)
                recheck_timeouts(name)
                print(f"[mutate] {name}: survivors re-run in {time.monotonic() - started:.0f} s", flush=True)
        elif args.recheck_timeouts:
            if not (WORK / name / "mutants").exists():
                ap.error(f"{name} has no last run to re-check")
            recheck_timeouts(name)
        elif not args.report:
            work = prepare(name)
            print(f"[mutate] {name}: {MODULES[name][0]} with {', '.join(MODULES[name][1])}", flush=True)
            started = time.monotonic()
            globs = MODULES[name][2] or []
            proc = mutmut(work, "run", "--max-children", str(args.jobs), *globs, capture=False)
            if proc.returncode != 0:
                print(f"[mutate] {name}: mutmut exited with {proc.returncode}", file=sys.stderr)
            recheck_timeouts(name)
            seconds = time.monotonic() - started  # the re-check included
        elif not (WORK / name / "mutants").exists():
            continue
        row = summarise(name, seconds, equivalents, survivors)
        if (args.report or args.survivors or args.recheck_timeouts) and name in rows:  # the seconds of the full run
            row["seconds"] = rows[name].get("seconds", "")
        rows[name] = row
        summarised.append(name)
        print(
            f"[mutate] {name}: {row['mutants']} mutants, {row['killed']} killed, {row['survived']} survived, "
            f"{row['equivalent']} equivalent, {row['no_tests']} without a test, {row['timeout']} timeouts: kill rate {row['kill_rate']} %",
            flush=True,
        )
    BENCH.mkdir(exist_ok=True)
    with open(BENCH / "mutate.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS, lineterminator="\n")  # LF, as committed
        w.writeheader()
        for name in MODULES:
            if name in rows:
                w.writerow({k: rows[name].get(k, "") for k in FIELDS})
    write_survivors(survivors, summarised)  # a module without a last run keeps its section
    return 0


if __name__ == "__main__":
    sys.exit(main())
