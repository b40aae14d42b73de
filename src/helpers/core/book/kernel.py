"""The Jupyter kernels that execute the book's notebooks: a quiet kernel manager for
unattended runs (:func:`kernel_manager_class`, its kernels forked by
:mod:`~helpers.core.book.prefork` where they can be) and the cores each of several parallel
kernels may use (:func:`share_cores`).
"""

from __future__ import annotations

import contextlib
import os


def kernel_manager_class():
    """A kernel manager for unattended runs, quiet because nothing goes wrong at the source.

    * ipykernel 7 warns on every start that its TCP sockets are unencrypted; jupyter_client
      can give the kernel CurveZMQ keys but does not by default. This manager asks for
      them (or, where pyzmq lacks libsodium, uses local IPC sockets in the temp folder).
    * jupyter_client sends SIGINT before every shutdown, even to an idle kernel; when it
      lands while the kernel is finishing papermill's last request, the kernel logs
      "KeyboardInterrupt caught in kernel" (and a busy kernel a ZMQ traceback). Shutdown is
      a shutdown request (then SIGTERM after a grace period), so that interrupt is skipped.
      An interrupt that a user or a timeout asks for still goes through.
    * From a process's second kernel on, a kernel is forked from a warm kernel server where it
      can be (:mod:`helpers.core.book.prefork`), which saves each later kernel its seconds of imports.
    """
    import tempfile
    import uuid

    import zmq
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    class BatchKernelManager(AsyncKernelManager):
        @default("transport_encryption")
        def _default_transport_encryption(self):
            return "auto" if zmq.has("curve") else "disabled"

        @default("transport")
        def _default_transport(self):
            return "tcp" if zmq.has("curve") else "ipc"

        @default("ip")
        def _default_ip(self):
            if self.transport == "ipc":  # jupyter_client's default "kernel-ipc" would land in the kernel's cwd
                return os.path.join(tempfile.gettempdir(), f"kernel-{uuid.uuid4().hex}-ipc")
            return super()._ip_default()

        async def _async_launch_kernel(self, kernel_cmd: list[str], **kw) -> None:
            from . import prefork

            process = prefork.launch(kernel_cmd, env=kw.get("env"), cwd=kw.get("cwd"))
            if process is None:
                return await super()._async_launch_kernel(kernel_cmd, **kw)
            provisioner = self.provisioner  # a LocalProvisioner; its Popen is replaced by the forked child
            provisioner.process, provisioner.pid, provisioner.pgid = process, process.pid, process.pid
            provisioner.cwd = kw.get("cwd") or os.getcwd()
            self._reconcile_connection_info(provisioner.connection_info)

        async def _async_interrupt_kernel(self) -> None:
            if self.shutting_down:
                return
            await super()._async_interrupt_kernel()

    return BatchKernelManager


THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def share_cores(jobs: int):
    """While it is open, each of ``jobs`` parallel kernels gets its share of the cores
    (numerical libraries otherwise start one thread per core in every kernel, and ``jobs``
    kernels fight over them: chapter 7 took 74 s instead of 46 s in a two-kernel build).
    Kernels inherit this process's environment; a value the user set is kept, and the
    environment is restored on exit. BLAS sums depend on the thread count, so a number
    can differ from a one-kernel run in its last digits (up to 1e-5 seen in chapter 7's
    score shifts), as it does between machines. No library sets its own thread count above
    this share: the two that fix one run on a single thread, the smallest share there is
    (chapter 7's USE encoder, ``helpers.slang.qe_models.USE_THREADS``, where a fixed count
    also keeps the cached embeddings the same for every share; chapter 6's transformers,
    ``helpers.slang.language_models.one_thread``); everything else follows these variables."""
    per_kernel = str(max(1, (os.cpu_count() or 1) // max(1, jobs)))
    added = [name for name in THREAD_VARIABLES if jobs > 1 and name not in os.environ]
    os.environ.update({name: per_kernel for name in added})
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)
