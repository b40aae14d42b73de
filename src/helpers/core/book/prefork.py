"""Kernels forked from a process that has already imported the book's libraries.

Before a chapter's first line of work, its kernel spends about 5 CPU-seconds starting:
ipykernel itself (about 1 s) and the chapter's imports (pandas, scipy.stats, matplotlib,
plotly and the study's helpers, about 4 s). A command that runs several notebooks
(``.venv/bin/python -m helpers build``, a classroom re-run, a test session) pays that for each one.

A *kernel server* pays it once per command. It is started when a process asks for its
second kernel (the first is started the usual way, so that a command that runs one notebook,
``.venv/bin/python -m helpers run``, costs what it did), or for the first inside :func:`many_kernels`
(a build with several notebooks to execute says so). It imports :data:`PRELOAD`, then forks
one child for each ``python -m MODULE …`` asked of it. The child takes the caller's environment,
working directory and standard output and error, starts a new session (as jupyter_client's
own launcher does) and runs the module as ``python -m`` would. What the child computes is
what a fresh interpreter computes; only the imports are already done.

* **When the server is not used.** The server is used only where ``fork`` is (POSIX) and
  ``$HELPERS_KERNEL_FORK`` is not ``0``. A server is kept per interpreter and per value of
  the variables that Python and the preloaded libraries read when they are imported
  (:data:`IMPORT_TIME_VARIABLES`, such as ``PYTHONPATH`` and the BLAS thread counts), so
  a kernel never inherits imports made under another setting. A server that cannot start
  (an interpreter without the book's packages) is not tried again; its kernels are started
  the usual way.
* **Lifetime.** The server lives as long as the process that started it. When that process
  exits, even when it is killed, the server's end of a pipe closes. The server then ends
  the kernels still running, as a kernel started the usual way would end itself on seeing
  its parent gone.
* **What differs from a fresh interpreter.** The kernels of one server share its string-hash
  seed (``PYTHONHASHSEED``, random per server unless set); numpy's global generator is
  reseeded in each child, as :mod:`random` reseeds itself. A module-level value a preloaded
  library computed from the environment on import is the server's: that is why the server
  is chosen by :data:`IMPORT_TIME_VARIABLES`, and why it sets ``JPY_PARENT_PID`` and
  ``MPLBACKEND`` before its imports as ipykernel would.
* **Measured** (2 cores): a notebook with chapter 1's import cell ran in 6.2 s from a
  started kernel and in 0.9 s from a forked one. The test build of the book (8 chapters,
  2 at a time, cold cache) took 107 s wall and 175 user CPU-s before the server, 90 s and
  147 with it, and wrote the same result CSVs (apart from the language-model ladder's
  wall-clock columns, which differ on every run). Forking the build's first kernel too
  (:func:`many_kernels`) took the machine's CPU for that build from 169 and 161 CPU-s to
  159 and 149 (two runs each, back to back).
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

#: Imported once by each kernel server: what every chapter's kernel imports anyway.
PRELOAD = (
    "ipykernel.kernelapp",
    "IPython.display",
    "numpy",
    "pandas",
    "scipy.stats",
    "matplotlib.pyplot",
    "plotly.graph_objects",
    "seaborn",
    "sklearn.linear_model",
    "helpers.core.book.report",
    "helpers.core.book.plots",
    "helpers.core.formats.published",
    "helpers.core.statistics.agreement",
    "helpers.metahope.ch01",
    "helpers.metahope.ch02",
    "helpers.metahope.ch03",
    "helpers.metahope.figures",
    "helpers.explanations.ch04",
    "helpers.explanations.ch05",
    "helpers.explanations.figures",
    "helpers.slang.ch06",
    "helpers.slang.ch07",
    "helpers.slang.figures",
    "helpers.wmt.ch08",
    "helpers.wmt.figures",
)

#: The environment that decides what an import does; a server serves one set of values.
IMPORT_TIME_VARIABLES = (
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONHASHSEED",
    "PYTHONNOUSERSITE",
    "PYTHONSAFEPATH",
    "PYTHONWARNINGS",
    "PYTHONDONTWRITEBYTECODE",
    "VIRTUAL_ENV",
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "MPLBACKEND",
    "MPLCONFIGDIR",
)

_HEADER = struct.Struct("!Q")
_servers: dict[tuple, "KernelServer"] = {}
_unavailable: set[tuple] = set()
_asked: collections.Counter = collections.Counter()
_lock = threading.Lock()
_many = 0  # open many_kernels() blocks


@contextlib.contextmanager
def many_kernels():
    """While open, a process's first kernel is forked from a server too: the caller knows
    that more kernels follow, so the server that the second would start serves the first, and
    the first kernel's own imports (5-7 CPU-s in a chapter) are saved."""
    global _many
    with _lock:
        _many += 1
    try:
        yield
    finally:
        with _lock:
            _many -= 1


def enabled() -> bool:
    """Forking is possible here and not switched off (``$HELPERS_KERNEL_FORK=0``)."""
    return hasattr(os, "fork") and hasattr(socket, "send_fds") and os.environ.get("HELPERS_KERNEL_FORK") != "0"


def launch(cmd: list[str], env: dict | None = None, cwd: str | None = None) -> "ForkedProcess | None":
    """Start ``cmd`` (``[python, "-m", module, *args]``) as a child of the kernel server for
    its interpreter and ``env``; ``None`` when the caller should start it the usual way: the
    first kernel a process asks for (the server is started with the second), another command,
    forking switched off, or no server possible for this interpreter (the first kernel is
    forked too inside :func:`many_kernels`)."""
    if not enabled() or len(cmd) < 3 or cmd[1] != "-m":
        return None
    env = dict(os.environ if env is None else env)
    cwd = os.fspath(cwd or os.getcwd())
    key = (cmd[0],) + tuple(env.get(name) for name in IMPORT_TIME_VARIABLES)
    with _lock:
        _asked[key] += 1
        if key in _unavailable or (_asked[key] == 1 and key not in _servers and not _many):
            return None  # a process that runs one notebook (``helpers run``) gains nothing from a server
        server = _servers.get(key)
        if server is None or not server.alive():  # none yet, a forked owner, or a server that died
            server = _servers[key] = KernelServer.start(cmd[0], env)
        if server is None:
            _unavailable.add(key)
            del _servers[key]
            return None
    return server.fork(cmd[2:], env, cwd)


class ForkedProcess:
    """The child a kernel server forked, with the part of :class:`subprocess.Popen`'s
    interface that jupyter_client's provisioner uses. Its exit status comes from the server,
    its parent, over the connection that asked for it."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, conn: socket.socket, pending: bytes = b""):
        # ``pending``: bytes read with the pid line (the status of a child that ended at once)
        self.pid, self._conn, self._pending, self.returncode = pid, conn, pending, None

    def poll(self) -> int | None:
        if self.returncode is None and (self._pending or select.select([self._conn], [], [], 0)[0]):
            self._read_status()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            if not self._pending and not select.select([self._conn], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(f"forked process {self.pid}", timeout)
            self._read_status()
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def _read_status(self) -> None:
        data, _ = _read_line(self._conn, self._pending)
        self.returncode = int(data) if data else -signal.SIGKILL  # server gone: it ended its children
        self._conn.close()


class KernelServer:
    """One warm interpreter that forks kernels (see the module docstring); owned by the
    process that started it."""

    def __init__(self, process: subprocess.Popen, address: str, folder: str):
        self.process, self.address, self.folder, self.owner = process, address, folder, os.getpid()

    @classmethod
    def start(cls, python: str, env: dict, preload: tuple[str, ...] = PRELOAD) -> "KernelServer | None":
        """Start a server for ``python`` under ``env`` and wait until it has imported ``preload``;
        ``None`` if it exits first (its error went to this process's standard error). It
        runs in an empty folder of its own, so that no file where a kernel was asked for
        shadows a library it imports."""
        folder = tempfile.mkdtemp(prefix="helpers-kernels-")
        address = os.path.join(folder, "server")
        server_env = {k: v for k, v in env.items() if k != "JPY_PARENT_PID"}
        # ipykernel sets this default before a kernel's first import of matplotlib; the server imports it earlier
        server_env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
        process = subprocess.Popen(
            [python, "-m", "helpers.core.book.prefork", address, *preload],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=server_env,
            cwd=folder,
        )
        ready = process.stdout.readline() == b"ready\n"
        process.stdout.close()
        if not ready:
            process.wait()
            os.rmdir(folder)
            return None
        server = cls(process, address, folder)
        atexit.register(server.close)
        return server

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.process.poll() is None

    def fork(self, module_and_args: list[str], env: dict, cwd: str) -> ForkedProcess:
        """Ask the server for a child running ``python -m MODULE ARGS`` in ``cwd`` under ``env``,
        writing to this process's current standard output and error."""
        sys.audit(
            "helpers.core.book.prefork.fork", module_and_args
        )  # a process starts, as subprocess.Popen's event says
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(self.address)
        request = json.dumps({"argv": module_and_args, "env": env, "cwd": cwd}).encode()
        socket.send_fds(conn, [_HEADER.pack(len(request)) + request], [1, 2])
        pid, pending = _read_line(conn)
        return ForkedProcess(int(pid), conn, pending)

    def close(self) -> None:
        """End the server (it ends the children still running) and remove its socket's folder."""
        if self.owner != os.getpid():
            return
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        with contextlib.suppress(OSError):
            os.unlink(self.address)
        with contextlib.suppress(OSError):
            os.rmdir(self.folder)


def _read_line(conn: socket.socket, pending: bytes = b"") -> tuple[bytes, bytes]:
    """The next line from ``conn`` (after ``pending``, bytes already read) and the bytes that
    came after it: a child that ends at once has its status sent right after its pid, and
    both can arrive in one read (seen under load: ``b'27444\\n3\\n'``)."""
    data = pending
    while b"\n" not in data:
        chunk = conn.recv(64)
        if not chunk:
            break
        data += chunk
    line, _, rest = data.partition(b"\n")
    return line.strip(), rest


# ----------------------------------------------------------------------------- the server side


def serve(address: str, preload: tuple[str, ...]) -> None:
    """The server's main loop: import ``preload``, say ``ready``, fork a child for each
    request, and report each child's exit status to the connection that asked for it. It
    ends when its standard input (the owner's pipe) closes, and ends its children then
    (SIGTERM, and SIGKILL for any still running after 5 s)."""
    import importlib

    os.environ["JPY_PARENT_PID"] = str(os.getpid())  # ipykernel reads it on import: its kernels' parent is this
    for name in preload:
        importlib.import_module(name)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is for the owner; the owner's exit ends this
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen()
    os.write(1, b"ready\n")
    children: dict[int, socket.socket] = {}
    owner = sys.stdin.fileno()
    while True:
        readable = select.select([listener, owner], [], [], 0.1)[0]
        if owner in readable and not os.read(owner, 4096):
            break
        if listener in readable:
            conn = listener.accept()[0]
            pid = _fork_child(conn, listener)
            conn.sendall(f"{pid}\n".encode())
            children[pid] = conn
        _reap(children)
    listener.close()
    for signum, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        for pid in children:
            with contextlib.suppress(OSError):
                os.killpg(pid, signum)
        deadline = time.monotonic() + grace
        while children and time.monotonic() < deadline:
            time.sleep(0.02)
            _reap(children)


def _reap(children: dict[int, socket.socket]) -> None:
    while children:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            return
        conn = children.pop(pid, None)
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
            conn.close()


def _fork_child(conn: socket.socket, listener: socket.socket) -> int:
    """Read one request (length-prefixed JSON with the caller's stdout and stderr attached)
    and fork its child; the parent returns the child's pid, the child never returns."""
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 2)
    size = _HEADER.unpack(data[: _HEADER.size])[0]
    data = data[_HEADER.size :]
    while len(data) < size:
        data += conn.recv(size - len(data))
    request = json.loads(data)
    sys.stdout.flush()
    sys.stderr.flush()
    started, has_started = os.pipe()
    pid = os.fork()
    if pid:
        for fd in (*fds, has_started):
            os.close(fd)
        os.read(started, 1)  # the child is in its own session: a signal to its group reaches it
        os.close(started)
        return pid
    code = 1
    try:
        os.setsid()
        os.close(started)
        os.write(has_started, b"s")
        os.close(has_started)
        listener.close()
        conn.close()
        code = _run_child(request, fds)
    finally:
        os._exit(code)


def _run_child(request: dict, fds: list[int]) -> int:
    """In the child, already in its own session: become what ``python -m MODULE ARGS``
    started by jupyter_client's launcher would be (the caller's streams, environment and
    folder), and run it."""
    import atexit as child_atexit
    import runpy

    signal.signal(signal.SIGINT, signal.default_int_handler)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(fds[0], 1)
    os.dup2(fds[1], 2)
    for fd in (devnull, *fds):
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    os.environ["JPY_PARENT_PID"] = str(
        os.getppid()
    )  # the kernel ends itself when the server is gone, as read on import
    sys.path[0] = os.getcwd()  # what ``python -m`` puts first
    if (
        "numpy" in sys.modules
    ):  # a fresh interpreter's global generator is seeded anew (``random`` reseeds itself on fork)
        sys.modules["numpy"].random.seed()
    module, *args = request["argv"]
    sys.argv = [module, *args]
    code = 0
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    child_atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    return code


if __name__ == "__main__":
    serve(sys.argv[1], tuple(sys.argv[2:]))
