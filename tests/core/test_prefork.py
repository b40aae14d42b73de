"""Kernels forked from a warm kernel server (helpers/core/book/prefork.py): the child is what
``python -m MODULE`` started by jupyter_client would be, and the server ends with its owner."""

from __future__ import annotations

import asyncio
import collections
import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from conftest import _GUARD, NotebookRunInFastTest
from helpers.core.book import kernel, prefork

PROBE = """
import json, os, sys
print(json.dumps({"cwd": os.getcwd(), "argv": sys.argv[1:], "path0": sys.path[0], "ppid": os.getppid(),
                  "session": os.getsid(0), "pid": os.getpid(), "variable": os.environ.get("PROBE_VARIABLE"),
                  "preloaded": "colorsys" in sys.modules, "main": __name__}), flush=True)
print("to stderr", file=sys.stderr, flush=True)
if sys.argv[1:] == ["sleep"]:
    import time
    time.sleep(60)
sys.exit(int(sys.argv[1]) if sys.argv[1:] and sys.argv[1].isdigit() else 0)
"""


@pytest.fixture
def server(tmp_path):
    """A server that preloads only ``colorsys`` (a module nothing else here imports): cheap, and a
    child can tell it was preloaded."""
    started = prefork.KernelServer.start(sys.executable, dict(os.environ), preload=("colorsys",))
    assert started is not None
    yield started
    started.close()


def test_a_child_runs_its_module_in_the_callers_folder_environment_and_streams(server, tmp_path, capfd):
    (tmp_path / "probe.py").write_text(PROBE)
    capfd.readouterr()
    child = server.fork(["probe", "3", "x"], {**os.environ, "PROBE_VARIABLE": "set by the caller"}, str(tmp_path))
    assert child.wait(timeout=30) == 3 and child.poll() == 3
    out, err = capfd.readouterr()
    seen = json.loads(out)
    assert seen["cwd"] == str(tmp_path) and seen["path0"] == str(tmp_path)  # as ``python -m`` in that folder
    assert seen["argv"] == ["3", "x"] and seen["main"] == "__main__"
    assert seen["variable"] == "set by the caller"
    assert seen["ppid"] == server.process.pid and seen["pid"] == child.pid
    assert seen["session"] == child.pid  # its own session, as jupyter_client's launcher starts a kernel
    assert seen["preloaded"] is True
    assert err == "to stderr\n"


def test_a_signal_reaches_the_child_and_its_status_comes_back(server, tmp_path, capfd):
    (tmp_path / "probe.py").write_text(PROBE)
    child = server.fork(["probe", "sleep"], dict(os.environ), str(tmp_path))
    with pytest.raises(subprocess.TimeoutExpired):
        child.wait(timeout=0.5)
    assert child.poll() is None
    child.terminate()
    assert child.wait(timeout=30) == -signal.SIGTERM


def test_the_server_ends_its_children_when_its_owner_goes(tmp_path, capfd):
    (tmp_path / "probe.py").write_text(PROBE)
    server = prefork.KernelServer.start(sys.executable, dict(os.environ), preload=())
    child = server.fork(["probe", "sleep"], dict(os.environ), str(tmp_path))
    capfd.readouterr()
    server.process.stdin.close()  # what the owner's exit does to the pipe, even when it is killed
    assert child.wait(timeout=30) == -signal.SIGTERM
    assert server.process.wait(timeout=30) == 0
    server.close()
    assert not os.path.exists(server.folder)


def test_a_server_that_cannot_import_its_modules_is_none(capfd):
    assert prefork.KernelServer.start(sys.executable, dict(os.environ), preload=("no_such_module_here",)) is None
    assert "No module named 'no_such_module_here'" in capfd.readouterr().err


def test_only_a_python_dash_m_command_is_forked_and_the_switch_turns_it_off(monkeypatch):
    assert prefork.launch(["/bin/echo", "hello"]) is None
    monkeypatch.setenv("HELPERS_KERNEL_FORK", "0")
    assert not prefork.enabled()
    assert prefork.launch([sys.executable, "-m", "ipykernel_launcher", "-f", "x.json"]) is None


def test_a_server_serves_one_setting_of_the_import_time_variables(monkeypatch):
    """A kernel asked for under other BLAS thread counts (``share_cores``) or another
    ``PYTHONPATH`` gets another server: one that imported numpy under those values."""
    started = []
    monkeypatch.setattr(prefork, "_servers", {})
    monkeypatch.setattr(prefork, "_unavailable", set())
    monkeypatch.setattr(prefork, "_asked", collections.Counter())

    class Server:
        def __init__(self, env):
            self.env = env

        @classmethod
        def start(cls, python, env):
            started.append(env.get("OMP_NUM_THREADS"))
            return cls(env)

        def alive(self):
            return True

        def fork(self, argv, env, cwd):
            return self, env.get("PROBE_VARIABLE")

    monkeypatch.setattr(prefork, "KernelServer", Server)
    cmd = [sys.executable, "-m", "probe"]
    assert prefork.launch(cmd, {"PROBE_VARIABLE": "a"}) is None and started == []  # the first: the usual way
    first, _ = prefork.launch(cmd, {"PROBE_VARIABLE": "a"})
    again, variable = prefork.launch(cmd, {"PROBE_VARIABLE": "b"})  # a variable read at run time: same server
    assert prefork.launch(cmd, {"OMP_NUM_THREADS": "1"}) is None  # the first under these values
    threads, _ = prefork.launch(cmd, {"OMP_NUM_THREADS": "1"})
    assert again is first and variable == "b"
    assert threads is not first and started == [None, "1"]


def test_inside_many_kernels_the_first_kernel_is_forked_too(monkeypatch):
    """A build with several notebooks to execute says so: its first kernel comes from the
    server as well; outside the block a process's first kernel is started the usual way again."""
    monkeypatch.setattr(prefork, "_servers", {})
    monkeypatch.setattr(prefork, "_unavailable", set())
    monkeypatch.setattr(prefork, "_asked", collections.Counter())

    class Server:
        @classmethod
        def start(cls, python, env):
            return cls()

        def alive(self):
            return True

        def fork(self, argv, env, cwd):
            return "forked"

    monkeypatch.setattr(prefork, "KernelServer", Server)
    with prefork.many_kernels():
        with prefork.many_kernels():  # blocks nest
            pass
        assert prefork.launch([sys.executable, "-m", "probe"], {"OMP_NUM_THREADS": "1"}) == "forked"
    assert prefork._many == 0
    assert prefork.launch([sys.executable, "-m", "probe"], {"OMP_NUM_THREADS": "2"}) is None


def test_a_fast_test_cannot_fork_a_kernel_either(server):
    with pytest.raises(NotebookRunInFastTest, match="test_a_fast_test_cannot_fork_a_kernel_either.*not marked slow"):
        server.fork(["ipykernel_launcher", "-f", "x.json"], dict(os.environ), os.getcwd())
    _GUARD["seen"].clear()  # refused on purpose


NOTEBOOK_PROBE = textwrap.dedent("""
    import json, os, sys
    print(json.dumps({"ppid": os.getppid(), "preloaded": "scipy.stats" in sys.modules,
                      "variable": os.environ.get("PROBE_VARIABLE"), "cwd": os.getcwd()}))
""")


@pytest.mark.slow
def test_the_books_kernels_fork_from_one_server_and_behave_as_started_ones(tmp_path, monkeypatch):
    """Three notebooks run in one process: the first kernel is started the usual way (this
    process's child); the next two are children of one server that had imported the
    chapters' libraries, and each sees the environment of its own start; an interrupt still
    reaches a busy forked kernel. Switched off, every kernel is this process's child."""
    import nbformat

    from helpers.core import paths
    from helpers.core.book import execution

    def run(name):
        nb = nbformat.v4.new_notebook(
            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
        )
        nb.cells = [nbformat.v4.new_code_cell(NOTEBOOK_PROBE)]
        source = tmp_path / f"{name}.ipynb"
        nbformat.write(nb, source)
        out = execution.execute_notebook(source, tmp_path / f"{name}.out.ipynb")
        return json.loads(nbformat.read(out, as_version=4).cells[0].outputs[0]["text"])

    monkeypatch.setattr(prefork, "_servers", {})
    monkeypatch.setattr(prefork, "_asked", collections.Counter())
    started = run("started")
    assert started["ppid"] == os.getpid() and not prefork._servers
    monkeypatch.setenv("PROBE_VARIABLE", "one")
    first = run("first")
    monkeypatch.setenv("PROBE_VARIABLE", "two")
    second = run("second")
    (server,) = prefork._servers.values()
    assert first["ppid"] == second["ppid"] == server.process.pid != os.getpid()
    assert first["preloaded"] and second["preloaded"]
    assert (first["variable"], second["variable"]) == ("one", "two")
    assert first["cwd"] == second["cwd"] == started["cwd"] == str(paths.project_root())

    async def interrupted():
        manager = kernel.kernel_manager_class()(kernel_name="python3")
        await manager.start_kernel(cwd=str(tmp_path))
        assert isinstance(manager.provisioner.process, prefork.ForkedProcess)
        client = manager.client()
        client.start_channels()
        await client.wait_for_ready(timeout=60)
        msg_id = client.execute("import time; time.sleep(60)")
        await asyncio.sleep(1)
        await manager.interrupt_kernel()
        reply = await client.get_shell_msg(timeout=30)
        client.stop_channels()
        await manager.shutdown_kernel()
        return reply, msg_id, manager

    reply, msg_id, manager = asyncio.run(interrupted())
    assert reply["parent_header"]["msg_id"] == msg_id
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
    assert not manager.has_kernel  # the provisioner waited for the forked child and let it go

    server.close()
    monkeypatch.setenv("HELPERS_KERNEL_FORK", "0")
    assert run("unforked")["ppid"] == os.getpid()


def test_a_pid_and_a_status_that_arrive_in_one_read_are_both_read():
    """A child that ends at once has its status sent right after its pid; under load both came
    in one read (``b'27444\\n3\\n'``) and the pid could not be read."""
    import socket

    ours, server_side = socket.socketpair()
    server_side.sendall(b"27444\n3\n")
    pid, pending = prefork._read_line(ours)
    assert (pid, pending) == (b"27444", b"3\n")
    child = prefork.ForkedProcess(int(pid), ours, pending)
    assert child.poll() == 3 and child.wait(timeout=0) == 3
    server_side.close()
