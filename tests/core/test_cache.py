"""The one cache: entries keyed by version and inputs, atomic writes, a corrupted entry
recomputed, and two processes that need the same missing entry computing it once."""

from __future__ import annotations

import json
import multiprocessing
import pickle
import time

import pytest

from helpers.core import cache


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _slow_square(log: str, x: int) -> int:
    """The work: noted in ``log`` once per call, slow enough that a second process arrives while it runs."""
    with open(log, "a") as fh:
        fh.write("computed\n")
    time.sleep(0.5)
    return x * x


def _ask(log: str, x: int, out) -> None:
    out.put(cache.cached("demo", 1, [x], lambda: _slow_square(log, x)))


def test_two_processes_needing_the_same_entry_compute_it_once(cache_dir, tmp_path):
    log = str(tmp_path / "calls.log")
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    workers = [ctx.Process(target=_ask, args=(log, 7, out)) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(30)
    assert [w.exitcode for w in workers] == [0, 0]
    assert sorted(out.get(timeout=5) for _ in workers) == [49, 49]
    assert open(log).read().splitlines() == ["computed"]  # the second process read what the first wrote
    # a different key is not held up by the lock of another and is computed on its own
    assert cache.cached("demo", 1, [8], lambda: _slow_square(log, 8)) == 64
    assert open(log).read().splitlines() == ["computed", "computed"]


def test_entry_is_reused_and_described_and_a_new_version_recomputes(cache_dir, tmp_path):
    calls = []
    compute = lambda: calls.append(1) or {"a": 1}  # noqa: E731
    assert cache.cached("demo", 1, ["x"], compute, describe="three posts") == {"a": 1}
    assert cache.cached("demo", 1, ["x"], compute) == {"a": 1} and len(calls) == 1
    (entry,) = (cache_dir / "demo").glob("*.pkl")
    assert entry.stem == cache.key("demo", 1, ["x"])[:24]
    meta = json.loads(entry.with_suffix(".json").read_text())
    assert {k: meta[k] for k in ("name", "version", "describe", "format")} == {
        "name": "demo",
        "version": 1,
        "describe": "three posts",
        "format": "pickle",
    }
    cache.cached("demo", 2, ["x"], compute)
    assert len(calls) == 2
    assert not list((cache_dir / "demo").glob("*.part"))  # no temporary file left behind


def test_a_corrupted_entry_is_computed_again(cache_dir):
    assert cache.cached("demo", 1, [3], lambda: 9) == 9
    (entry,) = (cache_dir / "demo").glob("*.pkl")
    entry.write_bytes(b"not a pickle")
    assert cache.cached("demo", 1, [3], lambda: 10) == 10
    assert cache.cached("demo", 1, [3], lambda: 11) == 10


def test_a_value_that_cannot_be_stored_leaves_no_entry_sidecar_or_temporary_file(cache_dir):
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        cache.cached("demo", 1, [4], lambda: lambda: 4)  # a lambda does not pickle
    assert sorted(p.suffix for p in (cache_dir / "demo").iterdir()) == [".lock"]  # only the entry's lock file
    assert cache.cached("demo", 1, [4], lambda: 16) == 16  # and the entry is computed again
    assert sorted(p.suffix for p in (cache_dir / "demo").iterdir()) == [".json", ".lock", ".pkl"]
