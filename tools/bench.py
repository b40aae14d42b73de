#!/usr/bin/env python3
"""`make bench`: time the book from fresh clones, the way a new user meets it.

Clones the current commit into a temporary folder and times, in that clone: the
environment set-up (`make setup`), the data fetch (`make data`), a cold `make book`
(chapters two at a time, then the render), a warm `make book` (nothing changed), `make pdf` and
`make pdf-student` (both PDFs then read back by `tests/book/test_pdf.py::test_whole_editions`), and
every chapter on its own with an empty model cache (`.venv/bin/python -m helpers run`), and the
two-at-a-time build again beside one competing CPU-bound process (:func:`contended_build`: every
chapter re-executed with an empty model cache; the process ends by itself), so that a chapter
that stalls when a core is busy shows here before users meet it. A second
fresh clone times `make test` end to end, set-up included. It also times
`.venv/bin/python -m helpers mqm scores` on the three-rater WMT 2023 file and on a generated
1,000,000-row file, each beside a bare pandas read-and-score of the same file measured in
the same run, and chapter 08's approximate randomisation over all pairs of the 15 TED systems
(10,000 trials) beside one bare sign-matrix product (wall seconds and peak memory; `--mqm-only` runs and prints just these, on
this checkout, with the venv's python), and `.venv/bin/python -m helpers metrics score` on WMT23 ZH-EN (10 systems, sentence and
corpus BLEU and chrF, empty cache) beside bare sacrebleu on the same work (wall, CPU, peak memory; the two tables must be
identical; `--metrics-only` prints just this row), and reports the kill rates of the last `make mutate`
(bench/mutate.csv; `--mutation-only` prints them). Writes `bench/results.csv`, `bench/mqm.csv` and `bench/results.md`, and puts
the table into README.md between the bench markers.
Only the standard library is used, so it runs before any set-up. Tests never assert wall
times; this is where they are measured.
"""

from __future__ import annotations

import csv
import os
import platform
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {
    "set-up": None,
    "chapter": 90,
    "make book (cold, incl. set-up)": 360,
    "make book (warm)": 10,
    "make pdf (after make book)": 120,
    "make pdf-student (after make book)": 120,
    "make test (fresh clone)": 240,
}


def run(cmd: list[str], cwd: Path, env: dict | None = None, label: str = "") -> float:
    """Run ``cmd`` and return its wall time in seconds; the output goes to a log beside the clone."""
    print(f"[bench] {label or ' '.join(cmd)} ...", flush=True)
    log = cwd.parent / "bench.log"
    started = time.monotonic()
    with open(log, "a", encoding="utf-8") as fh:
        fh.write(f"\n$ {' '.join(cmd)}\n")
        fh.flush()
        proc = subprocess.run(cmd, cwd=cwd, env={**os.environ, **(env or {})}, stdout=fh, stderr=subprocess.STDOUT)
    took = time.monotonic() - started
    print(f"[bench]   {took:.0f} s", flush=True)
    if proc.returncode != 0:
        sys.exit(f"[bench] failed: {' '.join(cmd)} (see {log})")
    return took


# --------------------------------------------------------------------------- contention

#: The competing process of the contended build: it keeps one core busy and ends by itself after
#: the seconds given (so nothing is left running if the bench dies), or when the build is done.
BUSY = "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end:\n    pass\n"
BUSY_SECONDS = 1200
#: A chapter beside one busy process may take this many times its quiet time: three CPU-bound
#: processes on two cores give each kernel two thirds of a core (1.5×); a kernel whose threads
#: wait on a busy core takes far longer (chapter 7's fit_models cell: 16.8 s quiet, 172.7 s, issue 43).
CONTENDED_FACTOR = 2.0
CONTENDED = "make book (cold chapters, beside one busy process)"


def busy_process(seconds: float) -> subprocess.Popen:
    """Start one CPU-bound process that stops by itself after ``seconds``."""
    return subprocess.Popen([sys.executable, "-c", BUSY, str(seconds)])


def chapter_seconds(build_dir: Path) -> dict[str, float]:
    """Each chapter's execution seconds in the last build (``<build_dir>/cache/<chapter>.seconds``)."""
    return {p.stem: float(p.read_text()) for p in sorted((build_dir / "cache").glob("*.seconds"))}


def contended_build(
    work: Path, cache_dir: Path, busy_seconds: float = BUSY_SECONDS, command: list[str] | None = None
) -> tuple[float, dict[str, float]]:
    """Build again, every chapter executed two at a time as ``make book`` does with an empty
    model cache (``cache_dir``), then rendered, beside one busy process (:func:`busy_process`,
    ended with the build at the latest); the wall seconds of the build (its target:
    :data:`CONTENDED_FACTOR` times the quiet cold build's) and each chapter's seconds in it."""
    command = command or [str(work / ".venv/bin/python"), "-m", "helpers", "build", "--jobs", "2", "--force"]
    busy = busy_process(busy_seconds)
    try:
        took = run(
            command,
            work,
            env={"HELPERS_CACHE_DIR": str(cache_dir), "TQDM_DISABLE": "1"},
            label="chapters two at a time again, empty model cache, beside one busy process",
        )
    finally:
        busy.kill()
        busy.wait()
    return took, chapter_seconds(work / "_build")


def contention_table(quiet: dict[str, float], contended: dict[str, float]) -> str:
    """Markdown: each chapter's seconds in the quiet cold build and beside the busy process."""
    lines = ["| chapter, two at a time | quiet s | beside one busy process s | × | target |", "|---|---|---|---|---|"]
    for name in sorted(set(quiet) & set(contended)):
        ratio = contended[name] / quiet[name] if quiet[name] else float("inf")
        mark = f"≤ {CONTENDED_FACTOR:g}× " + ("✓" if ratio <= CONTENDED_FACTOR else "✗")
        lines.append(f"| {name} | {quiet[name]:.0f} | {contended[name]:.0f} | {ratio:.1f} | {mark} |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- mqm scores

MQM_FILE = (
    "google__wmt-mqm-human-evaluation/generalMT2023/zhen/sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz"
)
MQM_ROWS = 1_000_000
#: Targets of issue 22: (wall seconds, peak MB) per measured file.
MQM_TARGETS = {
    "three-rater WMT 2023 ZH-EN file (25,060 rows)": (1.5, None),
    "generated file (1,000,000 rows)": (10.0, 2048.0),
}
#: The floor: what pandas alone takes to read the same file and score it with Major 5 / Minor 1.
BARE_PANDAS = """
import csv, sys
import numpy as np, pandas as pd
d = pd.read_csv(sys.argv[1], sep="\\t", header=0, usecols=[0, 1, 2, 4, 7, 8], quoting=csv.QUOTE_NONE, dtype=object)
d.columns = ["system", "doc", "seg", "rater", "category", "severity"]
w = np.select([d["severity"] == "Major", d["severity"] == "Minor"], [5.0, 1.0], 0.0)
seg = d.assign(w=w).groupby(["system", "doc", "seg", "rater"])["w"].sum().groupby(level=[0, 1, 2]).mean()
print(seg.groupby(level=0).mean().sort_values().round(3).to_string())
"""


def measure(cmd: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MB) of one child process."""
    took, _, peak = measure_usage(cmd, env)
    return took, peak


def measure_usage(cmd: list[str], env: dict | None = None) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak resident memory (MB) of one child process."""
    started = time.monotonic()
    proc = subprocess.Popen(cmd, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.monotonic() - started
    if status != 0:
        sys.exit(f"[bench] failed: {' '.join(cmd)}: {proc.stderr.read().decode()[-2000:]}")
    return took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def mqm_files(raw: Path, into: Path) -> dict[str, Path]:
    """The three-rater TSV unpacked, and a 1,000,000-row file made of its rows repeated
    (each copy under new document names, so segments stay distinct)."""
    with tarfile.open(raw / MQM_FILE) as tar:
        member = next(m for m in tar.getmembers() if m.isfile())
        data = tar.extractfile(member).read()
    three = into / "three-rater.tsv"
    three.write_bytes(data)
    header, *rows = data.decode("utf-8").splitlines(keepends=True)
    big = into / "generated-1M.tsv"
    with open(big, "w", encoding="utf-8") as fh:
        fh.write(header)
        written, copy = 0, 0
        while written < MQM_ROWS:
            take = rows[: MQM_ROWS - written]
            fh.write("".join(_renamed(r, copy) for r in take))
            written += len(take)
            copy += 1
    return dict(zip(MQM_TARGETS, (three, big)))


def _renamed(row: str, copy: int) -> str:
    system, doc, rest = row.split("\t", 2)
    return f"{system}\tcopy{copy}:{doc}\t{rest}"


def mqm_bench(python: str, raw: Path, src: Path | None = None) -> list[dict]:
    """``mqm scores`` on each file beside the bare pandas floor, measured in this run."""
    env = {"PYTHONPATH": str(src)} if src else {}
    out = []
    with tempfile.TemporaryDirectory(prefix="mqm-bench-") as tmp:
        # made in a child process: a child's peak memory counts the pages it was forked with
        subprocess.run([sys.executable, __file__, "--make-mqm-files", str(raw), tmp], check=True)
        files = dict(zip(MQM_TARGETS, (Path(tmp) / "three-rater.tsv", Path(tmp) / "generated-1M.tsv")))
        for label, path in files.items():
            print(f"[bench] mqm scores, {label} ...", flush=True)
            measure([python, "-c", "import pandas"], env)  # warm the page cache for both
            seconds, peak = measure([python, "-m", "helpers", "mqm", "scores", str(path)], env)
            floor_s, floor_mb = measure([python, "-c", BARE_PANDAS, str(path)], env)
            target_s, target_mb = MQM_TARGETS[label]
            out.append(
                {
                    "step": f"mqm scores, {label}",
                    "seconds": round(seconds, 2),
                    "peak_mb": round(peak),
                    "bare_pandas_seconds": round(floor_s, 2),
                    "bare_pandas_peak_mb": round(floor_mb),
                    "times_bare_pandas": round(seconds / floor_s, 2),
                    "target_seconds": target_s,
                    "target_peak_mb": target_mb or "",
                    "within_target": seconds <= target_s and (target_mb is None or peak <= target_mb),
                    "size_mb": round(path.stat().st_size / 1e6),
                }
            )
            print(
                f"[bench]   {seconds:.2f} s, {peak:.0f} MB (bare pandas {floor_s:.2f} s, {floor_mb:.0f} MB)", flush=True
            )
    return out


def mqm_table(rows: list[dict]) -> str:
    lines = [
        "| mqm scores on | seconds | peak MB | bare pandas s | bare pandas MB | × bare pandas | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        target = f"≤ {r['target_seconds']} s" + (f", ≤ {r['target_peak_mb']:.0f} MB" if r["target_peak_mb"] else "")
        lines.append(
            f"| {r['step'].removeprefix('mqm scores, ')} ({r['size_mb']} MB) | {r['seconds']:.2f} | "
            f"{r['peak_mb']} | {r['bare_pandas_seconds']:.2f} | {r['bare_pandas_peak_mb']} | "
            f"{r['times_bare_pandas']:.2f} | {target} "
            f"{'✓' if r['within_target'] else '✗'} |"
        )
    return "\n".join(lines) + "\n"


def write_mqm_csv(rows: list[dict], out: Path) -> None:
    out.mkdir(exist_ok=True)
    with open(out / "mqm.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


# --------------------------------------------------------------------------- approximate randomisation

#: Target of issue 23: all pairs of the TED ZH-EN systems (15 × 529 segments), 10,000 trials, in seconds.
AR_TARGET = 1.0
#: Times helpers.core.statistics.stats.approximate_randomization and, as the floor, one bare numpy product of a
#: ±1 sign matrix with the pairs' differences; prints "helpers_seconds floor_seconds systems segments".
AR_SCRIPT = """
import sys, time
import numpy as np
from helpers.core.formats import annotations as ann, mqm
from helpers.core import paths
from helpers.core.statistics import stats
from helpers.wmt import analysis, readme_tables
frame = mqm.read_mqm(paths.released_file(readme_tables.REPO, readme_tables.TED_FILE), columns=ann.SCORING_COLUMNS)
wide = analysis.segment_matrix(frame, "mqm").wide
def best(fn):
    times = []
    for _ in range(3):
        t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
    return min(times)
ours = best(lambda: stats.approximate_randomization(wide, n_trials=10000, seed=0))
v = wide.to_numpy(dtype=float)
i, j = np.triu_indices(v.shape[1], k=1)
def floor():
    signs = np.random.default_rng(0).integers(0, 2, size=(10000, v.shape[0])) * 2.0 - 1
    return signs @ (v[:, j] - v[:, i])
print(ours, best(floor), v.shape[1], v.shape[0])
"""


def ar_bench(python: str, src: Path | None = None) -> dict:
    """Approximate randomisation over all TED system pairs beside the bare sign-matrix product."""
    env = {**os.environ, "TQDM_DISABLE": "1", **({"PYTHONPATH": str(src)} if src else {})}
    print("[bench] approximate randomisation, TED ZH-EN ...", flush=True)
    out = subprocess.run([python, "-c", AR_SCRIPT], env=env, capture_output=True, text=True, check=True).stdout
    ours, floor, systems, segments = out.split()
    return {
        "step": f"approximate randomisation, {systems} systems × {segments} segments, 10,000 trials",
        "seconds": round(float(ours), 3),
        "floor_seconds": round(float(floor), 3),
        "target_seconds": AR_TARGET,
    }


def ar_table(row: dict) -> str:
    mark = f"≤ {row['target_seconds']:g}" + (" ✓" if row["seconds"] <= row["target_seconds"] else " ✗")
    return (
        "| test | seconds | bare sign-matrix product s | target |\n|---|---|---|---|\n"
        f"| {row['step']} | {row['seconds']:.2f} | {row['floor_seconds']:.2f} | {mark} |\n"
    )


# --------------------------------------------------------------------------- metrics score

#: Issue 42, item 6: ``metrics score`` on WMT23 ZH-EN (10 systems, sentence and corpus BLEU and chrF)
#: at most bare sacrebleu's whole-process wall time, and at most this many times its peak memory.
METRICS_MEMORY_TARGET = 1.5
METRICS_TEXTS = "wmt-conference__wmt23-news-systems/txt"
#: The floor: sacrebleu alone, called as its documentation shows, on the same files, writing the same
#: table (``system, segment, metric, score``; system rows with an empty segment).
BARE_SACREBLEU = """
import csv, sys
from sacrebleu.metrics import BLEU, CHRF
ref_path, out, *hyps = sys.argv[1:]
def lines(p):
    with open(p, encoding="utf-8") as fh:
        return fh.read().removesuffix("\\n").split("\\n")
refs = lines(ref_path)
systems, segments = [], []
for spec in hyps:
    name, _, path = spec.partition("=")
    h = lines(path)
    for metric, sentence, corpus in (("bleu", BLEU(effective_order=True), BLEU()), ("chrf", CHRF(), CHRF())):
        systems.append((name, "", metric, repr(corpus.corpus_score(h, [refs]).score)))
        segments += [(name, i, metric, repr(sentence.sentence_score(x, [r]).score))
                     for i, (x, r) in enumerate(zip(h, refs), 1)]
with open(out, "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\\n")
    w.writerow(["system", "segment", "metric", "score"])
    w.writerows(systems + segments)
"""


def metrics_bench(python: str, raw: Path, src: Path | None = None, repeats: int = 2) -> dict:
    """``metrics score`` (empty cache) beside bare sacrebleu on WMT23 ZH-EN, alternately ``repeats``
    times (the best of each measure kept: the cores are shared); the two tables must be identical."""
    folder = raw / METRICS_TEXTS
    ref = folder / "references" / "generaltest2023.zh-en.ref.refA.en"
    hyps = sorted((folder / "system-outputs").glob("generaltest2023.zh-en.hyp.*.en"))
    specs = [f"{p.name.removeprefix('generaltest2023.zh-en.hyp.').removesuffix('.en')}={p}" for p in hyps]
    env = {"TQDM_DISABLE": "1", **({"PYTHONPATH": str(src)} if src else {})}
    ours, bare = [], []
    with tempfile.TemporaryDirectory(prefix="metrics-bench-") as tmp:
        measure([python, "-c", "import sacrebleu, pandas"], env)  # warm the page cache for both
        for k in range(repeats):
            print(f"[bench] metrics score, WMT23 ZH-EN, {len(specs)} systems, run {k + 1} ...", flush=True)
            cache = Path(tmp) / f"empty-cache-{k}"  # cold: the scores' cache starts empty every run
            ours.append(
                measure_usage(
                    [
                        python,
                        "-m",
                        "helpers",
                        "metrics",
                        "score",
                        "--ref",
                        str(ref),
                        *[a for s in specs for a in ("--hyp", s)],
                        "--metrics",
                        "bleu,chrf",
                        "--out",
                        str(Path(tmp) / "ours.csv"),
                    ],
                    {**env, "HELPERS_CACHE_DIR": str(cache)},
                )
            )
            bare.append(
                measure_usage([python, "-c", BARE_SACREBLEU, str(ref), str(Path(tmp) / "bare.csv"), *specs], env)
            )
            print(
                f"[bench]   ours {ours[-1][0]:.1f} s ({ours[-1][1]:.1f} CPU-s, {ours[-1][2]:.0f} MB), "
                f"bare sacrebleu {bare[-1][0]:.1f} s ({bare[-1][1]:.1f} CPU-s, {bare[-1][2]:.0f} MB)",
                flush=True,
            )
        read = [sorted((Path(tmp) / f).read_text(encoding="utf-8").splitlines()) for f in ("ours.csv", "bare.csv")]
    (wall, cpu, peak), (bare_wall, bare_cpu, bare_peak) = (
        [min(r[i] for r in runs) for i in range(3)] for runs in (ours, bare)
    )
    lines = len(ref.read_text(encoding="utf-8").removesuffix("\n").split("\n"))
    return {
        "step": f"metrics score, WMT23 ZH-EN, {len(specs)} systems × {lines:,} segments, "
        "sentence + corpus BLEU and chrF, empty cache",
        "seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "peak_mb": round(peak),
        "bare_seconds": round(bare_wall, 1),
        "bare_cpu_seconds": round(bare_cpu, 1),
        "bare_peak_mb": round(bare_peak),
        "identical": read[0] == read[1],
        "within_target": wall <= bare_wall and peak <= METRICS_MEMORY_TARGET * bare_peak and read[0] == read[1],
    }


def metrics_table(row: dict) -> str:
    mark = "✓" if row["within_target"] else "✗"
    return (
        "| metrics score on | seconds | CPU s | peak MB | bare sacrebleu s | CPU s | peak MB | scores | target |\n"
        "|---|---|---|---|---|---|---|---|---|\n"
        f"| {row['step'].removeprefix('metrics score, ')} | {row['seconds']:.1f} | {row['cpu_seconds']:.1f} | "
        f"{row['peak_mb']} | {row['bare_seconds']:.1f} | {row['bare_cpu_seconds']:.1f} | {row['bare_peak_mb']} | "
        f"{'identical' if row['identical'] else 'DIFFER'} | ≤ bare s, ≤ {METRICS_MEMORY_TARGET:g}× bare MB {mark} |\n"
    )


def mutated_modules() -> dict[str, str]:
    """What `make mutate` mutates now: module name -> its file (tools/mutate/run.py's ``MODULES``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("mutate_run", ROOT / "tools" / "mutate" / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    return {name: entry[0] for name, entry in run.MODULES.items()}


def mutation_table(path: Path = ROOT / "bench" / "mutate.csv", modules: dict[str, str] | None = None) -> str:
    """The kill rates of the last `make mutate` (bench/mutate.csv, tools/mutate/run.py); mutation is
    never run here (it takes the better part of an hour). A row whose file has moved or whose module
    `make mutate` no longer runs is marked stale with where that code lives now, and the modules `make
    mutate` runs that the file has no row for are named, so an old table is not read as today's."""
    if not path.exists():
        return "Mutation testing: no `make mutate` result yet (bench/mutate.csv).\n"
    modules = mutated_modules() if modules is None else modules
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    killed = sum(int(r["killed"]) + int(r["timeout"]) for r in rows)
    counted = killed + sum(int(r["survived"]) + int(r["no_tests"]) for r in rows)
    lines = [
        "| mutation testing (last `make mutate`) | mutants | killed | equivalent | survived | kill rate | run |",
        "|---|---|---|---|---|---|---|",
    ]
    stale = 0
    for r in rows:
        file = r["file"]
        now = modules.get(r["module"])
        if now is None or now != r["file"] or not (ROOT / r["file"]).exists():
            stale += 1
            same_name = {m: f for m, f in modules.items() if m == r["module"] or m.startswith(r["module"] + "_")}
            where = ", ".join(sorted(set(same_name.values()))) or "not mutated any more"
            file = f"{r['file']} (stale: now {where})"
        lines.append(
            f"| {file} | {r['mutants']} | {int(r['killed']) + int(r['timeout'])} | {r['equivalent']} | "
            f"{int(r['survived']) + int(r['no_tests'])} | {r['kill_rate']} % | {r['finished']} |"
        )
    total = f"{killed / counted * 100:.1f} %" if counted else "n/a"
    lines.append(f"| all modules (target ≥ 90 %) | | {killed} | | {counted - killed} | {total} | |")
    missing = sorted(set(modules) - {r["module"] for r in rows})
    if stale or missing:
        lines.append("")
        lines.append(
            f"bench/mutate.csv predates the current layout: {stale} of its {len(rows)} rows name a file that has "
            f"moved; not yet run: {', '.join(f'{m} ({modules[m]})' for m in missing) or 'none'}. "
            "`make mutate` measures them again."
        )
    return "\n".join(lines) + "\n"


def clone(into: Path) -> Path:
    target = into / "book"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True)
    return target


def machine(clone_dir: Path) -> str:
    cpu = ""
    if Path("/proc/cpuinfo").exists():
        found = re.search(r"model name\s*:\s*(.+)", Path("/proc/cpuinfo").read_text())
        cpu = found.group(1).strip() if found else ""
    mem = ""
    if Path("/proc/meminfo").exists():
        kb = int(re.search(r"MemTotal:\s*(\d+)", Path("/proc/meminfo").read_text()).group(1))
        mem = f"{kb / 1024 / 1024:.0f} GiB"
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=clone_dir, capture_output=True, text=True
    ).stdout.strip()  # the commit measured, not what HEAD is by the end
    return (
        f"{os.cpu_count()} cores ({cpu}), {mem}, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}, commit {commit}"
    )


def main() -> int:
    if sys.argv[1:2] == ["--make-mqm-files"]:
        mqm_files(Path(sys.argv[2]), Path(sys.argv[3]))
        return 0
    if "--mutation-only" in sys.argv[1:]:  # the last make mutate's kill rates, printed
        print(mutation_table())
        return 0
    if "--metrics-only" in sys.argv[1:]:  # just the metrics score row, on this checkout; printed, bench/ untouched
        print(metrics_table(metrics_bench(sys.executable, ROOT / "data" / "raw", src=ROOT / "src")))
        return 0
    if "--mqm-only" in sys.argv[1:]:  # just the mqm rows, on this checkout; printed, bench/ untouched
        print(mqm_table(mqm_bench(sys.executable, ROOT / "data" / "raw", src=ROOT / "src")))
        print(ar_table(ar_bench(sys.executable, src=ROOT / "src")))
        return 0
    mirror = ROOT.parent / "shared" / "datasets"
    make_vars = [f"MIRROR={mirror}"] if mirror.is_dir() else []
    rows = []
    targets = dict(TARGETS)
    with tempfile.TemporaryDirectory(prefix="book-bench-") as tmp:
        work = clone(Path(tmp))
        measured_on = machine(work)
        setup = run(["make", "setup"], work, label="set-up (venv + pinned requirements)")
        fetch = run(["make", "data", *make_vars], work, label="fetch and verify the data")
        rows += [("set-up", setup), ("fetch", fetch)]
        cold = run(["make", "book", *make_vars], work, label="make book, cold (2 chapters at a time + render)")
        rows.append(("make book (cold, after set-up and fetch)", cold))
        rows.append(("make book (cold, incl. set-up)", setup + fetch + cold))
        quiet = chapter_seconds(work / "_build")  # the cold build's, before the contended one rewrites them
        rows.append(("make book (warm)", run(["make", "book", *make_vars], work, label="make book, warm")))
        for target in ("pdf", "pdf-student"):  # the printable editions, from the executed notebooks
            rows.append(
                (f"make {target} (after make book)", run(["make", target, *make_vars], work, label=f"make {target}"))
            )
        rows.append(
            (
                "both PDFs read back (tests/book/test_pdf.py)",
                run(
                    [
                        str(work / ".venv/bin/python"),
                        "-m",
                        "pytest",
                        "-p",
                        "no:xdist",
                        "-q",
                        "tests/book/test_pdf.py::test_whole_editions",
                    ],
                    work,
                    env={"BOOK_PDF_BUILD": str(work / "_build")},
                    label="every chapter, figure and the Chinese in both PDFs, no solution in the student's",
                ),
            )
        )
        contended, busy = contended_build(work, Path(tmp) / "contended-cache")
        rows.append((CONTENDED, contended))
        targets[CONTENDED] = round(CONTENDED_FACTOR * cold)
        for nb in sorted((work / "notebooks").glob("[0-9][0-9]_*.ipynb")):  # every chapter, 10 and on too
            # a cache of its own, empty: no chapter reads what an earlier one computed (09 and 10 share one entry)
            env = {"HELPERS_CACHE_DIR": str(Path(tmp) / "empty-cache" / nb.stem)}
            took = run(
                [
                    str(work / ".venv/bin/python"),
                    "-m",
                    "helpers",
                    "run",
                    str(nb),
                    "-p",
                    "results_dir",
                    str(Path(tmp) / "results"),
                    "--output",
                    str(Path(tmp) / "runs" / nb.name),
                ],
                work,
                env={**env, "TQDM_DISABLE": "1"},
                label=f"chapter {nb.stem}, empty model cache",
            )
            rows.append((f"chapter {nb.stem}", took))
        second = Path(tmp) / "second"
        second.mkdir()
        test_clone = clone(second)
        rows.append(
            (
                "make test (fresh clone)",
                run(
                    ["make", "test", *make_vars],
                    test_clone,
                    env={"REQUIRE_BROWSER": os.environ.get("REQUIRE_BROWSER", "")},
                    label="make test on a second fresh clone",
                ),
            )
        )
        mqm_rows = mqm_bench(str(work / ".venv/bin/python"), work / "data" / "raw")
        ar_row = ar_bench(str(work / ".venv/bin/python"))
        metrics_row = metrics_bench(str(work / ".venv/bin/python"), work / "data" / "raw")
    out = ROOT / "bench"
    out.mkdir(exist_ok=True)
    with open(out / "results.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["step", "seconds", "target_seconds", "within_target"])
        for step, seconds in rows:
            target = targets.get("chapter" if step.startswith("chapter") else step)
            writer.writerow([step, round(seconds, 1), target or "", "" if target is None else seconds <= target])
    lines = [f"Measured by `make bench` on {measured_on}.", "", "| step | seconds | target |", "|---|---|---|"]
    for step, seconds in rows:
        target = targets.get("chapter" if step.startswith("chapter") else step)
        mark = "" if target is None else (f"≤ {target}" + (" ✓" if seconds <= target else " ✗"))
        lines.append(f"| {step} | {seconds:.0f} | {mark} |")
    write_mqm_csv(mqm_rows, out)
    table = (
        "\n".join(lines)
        + "\n\n"
        + contention_table(quiet, busy)
        + "\n"
        + mqm_table(mqm_rows)
        + "\n"
        + ar_table(ar_row)
        + "\n"
        + metrics_table(metrics_row)
        + "\n"
        + mutation_table()
    )
    (out / "results.md").write_text(table, encoding="utf-8")
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    block = re.compile(r"(<!-- bench:start -->\n).*?(<!-- bench:end -->)", re.S)
    if block.search(text):
        readme.write_text(block.sub(lambda m: m.group(1) + table + m.group(2), text), encoding="utf-8")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
