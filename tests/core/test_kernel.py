"""Unit tests of helpers.core.book.kernel: parallel kernels share the cores, and the environment is restored."""

from __future__ import annotations

import os

from helpers.core.book import kernel


def test_parallel_kernels_share_the_cores_and_the_environment_is_restored(monkeypatch):
    for name in kernel.THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")  # the user's choice is kept
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    with kernel.share_cores(2):
        assert os.environ["OMP_NUM_THREADS"] == "4" and os.environ["OPENBLAS_NUM_THREADS"] == "4"
        assert os.environ["MKL_NUM_THREADS"] == "3"
    assert "OMP_NUM_THREADS" not in os.environ and os.environ["MKL_NUM_THREADS"] == "3"
    with kernel.share_cores(1):
        assert "OMP_NUM_THREADS" not in os.environ  # one kernel keeps every core
