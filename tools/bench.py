#!/usr/bin/env python3
"""`make bench`: time the book from fresh clones, the way a new user meets it.

Clones the current commit into a temporary folder and times, in that clone: the
environment set-up (`make setup`), the data fetch (`make data`), a cold `make book`
(chapters two at a time, then the render), a warm `make book` (nothing changed), and
every chapter on its own with an empty model cache (`python -m helpers run`). A second
fresh clone times `make test` end to end, set-up included. Writes `bench/results.csv`
and `bench/results.md`, and puts the table into README.md between the bench markers.
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
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"set-up": None, "chapter": 90, "make book (cold, incl. set-up)": 360, "make book (warm)": 10,
           "make test (fresh clone)": 300}


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
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone_dir, capture_output=True,
                            text=True).stdout.strip()  # the commit measured, not what HEAD is by the end
    return (f"{os.cpu_count()} cores ({cpu}), {mem}, Python {platform.python_version()}, "
            f"{time.strftime('%Y-%m-%d')}, commit {commit}")


def main() -> int:
    mirror = ROOT.parent / "shared" / "datasets"
    make_vars = [f"MIRROR={mirror}"] if mirror.is_dir() else []
    rows = []
    with tempfile.TemporaryDirectory(prefix="book-bench-") as tmp:
        work = clone(Path(tmp))
        measured_on = machine(work)
        setup = run(["make", "setup"], work, label="set-up (venv + pinned requirements)")
        fetch = run(["make", "data", *make_vars], work, label="fetch and verify the data")
        rows += [("set-up", setup), ("fetch", fetch)]
        cold = run(["make", "book", *make_vars], work, label="make book, cold (2 chapters at a time + render)")
        rows.append(("make book (cold, after set-up and fetch)", cold))
        rows.append(("make book (cold, incl. set-up)", setup + fetch + cold))
        rows.append(("make book (warm)", run(["make", "book", *make_vars], work, label="make book, warm")))
        env = {"HELPERS_CACHE_DIR": str(Path(tmp) / "empty-cache")}
        for nb in sorted((work / "notebooks").glob("0*.ipynb")):
            took = run([str(work / ".venv/bin/python"), "-m", "helpers", "run", str(nb), "-p", "results_dir",
                        str(Path(tmp) / "results"), "--output", str(Path(tmp) / "runs" / nb.name)], work,
                       env={**env, "TQDM_DISABLE": "1"}, label=f"chapter {nb.stem}, empty model cache")
            rows.append((f"chapter {nb.stem}", took))
        second = Path(tmp) / "second"
        second.mkdir()
        test_clone = clone(second)
        rows.append(("make test (fresh clone)", run(["make", "test", *make_vars], test_clone,
                                                    env={"REQUIRE_BROWSER": os.environ.get("REQUIRE_BROWSER", "")},
                                                    label="make test on a second fresh clone")))
    out = ROOT / "bench"
    out.mkdir(exist_ok=True)
    with open(out / "results.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["step", "seconds", "target_seconds", "within_target"])
        for step, seconds in rows:
            target = TARGETS.get("chapter" if step.startswith("chapter") else step)
            writer.writerow([step, round(seconds, 1), target or "", "" if target is None else seconds <= target])
    lines = [f"Measured by `make bench` on {measured_on}.", "", "| step | seconds | target |", "|---|---|---|"]
    for step, seconds in rows:
        target = TARGETS.get("chapter" if step.startswith("chapter") else step)
        mark = "" if target is None else (f"≤ {target}" + (" ✓" if seconds <= target else " ✗"))
        lines.append(f"| {step} | {seconds:.0f} | {mark} |")
    table = "\n".join(lines) + "\n"
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
