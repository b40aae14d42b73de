"""`make lab` and `make lab-student`: JupyterLab rooted at the project and opening on the notebooks, or rooted at
the student edition with nothing else reachable; also as root."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from helpers.core import paths

ROOT = paths.project_root()


def _lab_command(*make_args: str) -> list[str]:
    """The `jupyter lab` line that `make lab` would run (make -n prints it without running anything)."""
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    shown = subprocess.run(["make", "-n", *make_args], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    line = next(line for line in shown.splitlines() if re.search(r"/jupyter lab\b", line))
    words = shlex.split(line)
    return [w for w in words if not re.match(r"^[A-Z_]+=", w)]  # without the environment set in front


def _lab_environment(*make_args: str) -> dict[str, str]:
    """The variables that `make lab` sets in front of `jupyter lab`."""
    shown = subprocess.run(["make", "-n", *make_args], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    line = next(line for line in shown.splitlines() if re.search(r"/jupyter lab\b", line))
    return dict(w.split("=", 1) for w in shlex.split(line) if re.match(r"^[A-Z_]+=", w))


def test_the_flags_follow_the_edition_and_the_user():
    instructor, student = _lab_command("lab"), _lab_command("lab-student")
    assert f"--ServerApp.root_dir={ROOT}" in instructor and "--ContentsManager.preferred_dir=notebooks" in instructor
    # the student lab: rooted at the folder of the student edition, so notebooks/, class/ and results/ are out
    # of reach, and without a terminal
    assert f"--ServerApp.root_dir={ROOT / '_build' / 'student' / 'notebooks'}" in student
    assert "--ServerApp.terminals_enabled=False" in student
    # and the results of a notebook run there are written there, not into the book's results/
    assert _lab_environment("lab-student") == {"HELPERS_CALLER_CWD": str(ROOT / "_build" / "student" / "notebooks")}
    assert _lab_environment("lab") == {}
    assert ("--allow-root" in instructor) == ("--allow-root" in student) == (os.getuid() == 0)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode("utf-8")


def _start(args: list[str], runtime: Path):
    """JupyterLab with ``args`` on a free port; returns the process, its address and its token."""
    port, token = _free_port(), "test-token"
    jupyter = str(Path(sys.executable).with_name("jupyter"))  # the environment running the tests
    lab = subprocess.Popen(
        [
            jupyter,
            "lab",
            *args,
            "--no-browser",
            f"--port={port}",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.runtime_dir={runtime}",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(120):
        if lab.poll() is not None:
            pytest.fail(f"JupyterLab did not start: {lab.stderr.read()[-2000:]}")
        try:
            _get(f"{base}/api/contents/?token={token}")
            return lab, base, token
        except OSError:
            time.sleep(0.5)
    lab.terminate()
    pytest.fail("JupyterLab did not answer within a minute")


def test_the_lab_starts_reaches_class_results_and_opens_on_the_notebooks(tmp_path):
    command = _lab_command("lab")
    assert command[1] == "lab"
    lab, base, token = _start(command[2:], tmp_path)
    try:
        listing = json.loads(_get(f"{base}/api/contents/?token={token}"))
        names = {item["name"] for item in listing["content"]}
        assert {"notebooks", "src", "_toc.yml"} <= names  # rooted at the project: class-results/, runs/ reachable
        page = _get(f"{base}/lab?token={token}")
        config = json.loads(
            re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S).group(1)
        )
        assert config["preferredPath"].strip("/") == "notebooks"
    finally:
        lab.terminate()
        lab.wait(timeout=30)


def test_the_student_lab_reaches_the_student_notebooks_only(tmp_path):
    """The student lab's server, rooted at a written student edition: its file browser lists the student notebooks
    and nothing else, cannot go up to the project, and has no terminal."""
    import urllib.error

    from helpers.core.book import editions

    command = _lab_command("lab-student")
    folder = tmp_path / "student"
    editions.write_student_edition(folder)
    args = [f"--ServerApp.root_dir={folder}" if a.startswith("--ServerApp.root_dir=") else a for a in command[2:]]
    lab, base, token = _start(args, tmp_path / "runtime")
    try:
        listing = json.loads(_get(f"{base}/api/contents/?token={token}"))
        assert sorted(item["name"] for item in listing["content"]) == [p.name for p in editions.source_notebooks()]
        for outside in ("..", "../..", f"..%2F..%2F..%2F{ROOT.name}", "%2E%2E/notebooks"):
            with pytest.raises(urllib.error.HTTPError):
                _get(f"{base}/api/contents/{outside}?token={token}")
        with pytest.raises(urllib.error.HTTPError):
            _get(f"{base}/api/terminals?token={token}")
    finally:
        lab.terminate()
        lab.wait(timeout=30)
