"""`make lab` and `make lab-student`: JupyterLab rooted at the project, opening on the chosen edition, also as root."""

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
    return shlex.split(line)


def test_the_flags_follow_the_edition_and_the_user():
    instructor, student = _lab_command("lab"), _lab_command("lab-student")
    assert f"--ServerApp.root_dir={ROOT}" in instructor and f"--ServerApp.root_dir={ROOT}" in student
    assert "--ContentsManager.preferred_dir=notebooks" in instructor
    assert "--ContentsManager.preferred_dir=_build/student/notebooks" in student
    assert ("--allow-root" in instructor) == (os.getuid() == 0)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode("utf-8")


def test_the_lab_starts_reaches_class_results_and_opens_on_the_notebooks(tmp_path):
    command = _lab_command("lab")
    port, token = _free_port(), "test-token"
    assert command[1] == "lab"
    jupyter = str(Path(sys.executable).with_name("jupyter"))  # the environment running the tests
    lab = subprocess.Popen([jupyter, "lab", *command[2:], "--no-browser", f"--port={port}",
                            f"--IdentityProvider.token={token}", f"--ServerApp.runtime_dir={tmp_path}"],
                           cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        base, listing = f"http://127.0.0.1:{port}", None
        for _ in range(120):
            if lab.poll() is not None:
                pytest.fail(f"JupyterLab did not start: {lab.stderr.read()[-2000:]}")
            try:
                listing = json.loads(_get(f"{base}/api/contents/?token={token}"))
                break
            except OSError:
                time.sleep(0.5)
        assert listing is not None, "JupyterLab did not answer within a minute"
        names = {item["name"] for item in listing["content"]}
        assert {"notebooks", "src", "_toc.yml"} <= names  # rooted at the project: class-results/, runs/ reachable
        page = _get(f"{base}/lab?token={token}")
        config = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                                      page, re.S).group(1))
        assert config["preferredPath"].strip("/") == "notebooks"
    finally:
        lab.terminate()
        lab.wait(timeout=30)
