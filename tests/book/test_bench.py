"""tools/bench.py's contended build (issue 43): the busy process beside the build ends by itself,
is ended with the build, and the table flags a chapter that slows down more than contention
for the cores explains. Tried on a stand-in build of a fraction of a second, not on the book."""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
import time

from helpers.core import paths

_spec = importlib.util.spec_from_file_location("bench", paths.project_root() / "tools" / "bench.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def test_the_busy_process_keeps_a_core_busy_and_stops_by_itself():
    started = time.monotonic()
    busy = bench.busy_process(2)
    _, status, usage = os.wait4(busy.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and 2 <= time.monotonic() - started < 60
    assert usage.ru_utime > 0.1  # it spun, it did not sleep (a share of a core on a loaded machine)


def test_the_contended_build_runs_beside_a_busy_process_and_ends_it(tmp_path, monkeypatch):
    started = []
    monkeypatch.setattr(
        bench,
        "busy_process",
        lambda seconds: (
            started.append(bench.subprocess.Popen([sys.executable, "-c", bench.BUSY, str(seconds)])) or started[-1]
        ),
    )
    work = tmp_path / "clone"
    work.mkdir()
    # the stand-in build: what `helpers build` leaves of its chapters' times, and the model cache it was given
    build = (
        "import os, pathlib, time; time.sleep(0.5); c = pathlib.Path('_build/cache'); c.mkdir(parents=True); "
        "(c / '07_qe_robustness.seconds').write_text('172.7'); (c / '01_x.seconds').write_text('5.0'); "
        "pathlib.Path('cache_dir').write_text(os.environ['HELPERS_CACHE_DIR'])"
    )
    took, seconds = bench.contended_build(
        work, tmp_path / "empty-cache", busy_seconds=60, command=[sys.executable, "-c", build]
    )
    assert took >= 0.5 and seconds == {"01_x": 5.0, "07_qe_robustness": 172.7}
    assert (work / "cache_dir").read_text() == str(tmp_path / "empty-cache")
    assert len(started) == 1 and started[0].returncode == -signal.SIGKILL  # still busy when the build ended


def test_the_contention_table_flags_a_chapter_slowed_beyond_its_share():
    table = bench.contention_table(
        {"07_qe_robustness": 16.8, "01_x": 5.0, "only_quiet": 3.0}, {"07_qe_robustness": 172.7, "01_x": 7.0}
    )
    rows = table.splitlines()
    assert rows[2] == "| 01_x | 5 | 7 | 1.4 | ≤ 2× ✓ |"
    assert rows[3] == "| 07_qe_robustness | 17 | 173 | 10.3 | ≤ 2× ✗ |"
    assert len(rows) == 4


def test_the_mutation_table_marks_rows_of_moved_files_and_names_modules_not_yet_run(tmp_path):
    csv_file = tmp_path / "mutate.csv"
    header = "module,file,mutants,killed,survived,equivalent,no_tests,timeout,other,kill_rate,seconds,finished\n"
    csv_file.write_text(
        header
        + "stats,src/helpers/core/stats.py,10,8,1,1,0,0,0,88.9,1,2026-12-01 14:56\n"
        + "wmt_analysis,src/helpers/wmt/analysis.py,5,5,0,0,0,0,0,100.0,1,2026-12-01 16:05\n"
    )
    modules = {
        "stats_paired": "src/helpers/core/statistics/paired.py",
        "wmt_analysis": "src/helpers/wmt/analysis.py",
        "raters": "src/helpers/core/statistics/raters.py",
    }
    lines = bench.mutation_table(csv_file, modules).splitlines()
    assert lines[2].startswith("| src/helpers/core/stats.py (stale: now src/helpers/core/statistics/paired.py) | 10 |")
    assert lines[3].startswith("| src/helpers/wmt/analysis.py | 5 | 5 |")  # where it still lives: as it was
    assert lines[4] == "| all modules (target ≥ 90 %) | | 13 | | 1 | 92.9 % | |"  # 13 of 14 counted mutants
    assert "1 of its 2 rows name a file that has moved" in lines[-1]
    assert "not yet run: raters (src/helpers/core/statistics/raters.py), stats_paired (" in lines[-1]
    # a file of today's layout, every module run: no stale mark, no note
    csv_file.write_text(header + "wmt_analysis,src/helpers/wmt/analysis.py,5,5,0,0,0,0,0,100.0,1,2026-12-01 16:05\n")
    table = bench.mutation_table(csv_file, {"wmt_analysis": "src/helpers/wmt/analysis.py"})
    assert "stale" not in table and "not yet run" not in table
