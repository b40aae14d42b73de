"""One cache for expensive, deterministic work: trained models, embeddings, LM scores.

Every cached result lives in ``<cache dir>/<name>/<key>.<format>`` where ``name`` says what
it is (``embeddings``, ``kn-lm``, ``qe-transformer`` …) and ``key`` is the sha256 of the
function's *version* and *inputs* (data, settings, checkpoint identity). Bump a
function's version whenever its computation changes, and old entries are simply never
read again. Writes are atomic (temporary name, then rename), so an interrupted run never
leaves a truncated entry. Two processes that need the same missing entry at once (the two
chapters ``make book`` runs side by side, the workers of ``make test``) compute it once: the
second waits on the entry's lock file and then reads what the first wrote. A small JSON
sidecar records when and for what an entry was made, for ``.venv/bin/python -m helpers cache list``.

The folder is ``.cache/`` in the project (gitignored), or ``$HELPERS_CACHE_DIR``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pickle
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import numpy as np
import pandas as pd

from . import paths

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; two processes may then compute the same entry
    fcntl = None

T = TypeVar("T")
FORMATS = ("pickle", "npy", "torch")


def _feed(h, obj) -> None:
    """Feed ``obj`` into the hash ``h`` in a canonical, type-tagged form."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        h.update(f"{type(obj).__name__}:{obj!r};".encode())
    elif isinstance(obj, bytes):
        h.update(b"bytes:" + hashlib.sha256(obj).digest())
    elif isinstance(obj, pd.DataFrame):
        h.update(f"frame:{list(map(str, obj.columns))}:{len(obj)};".encode())
        h.update(pd.util.hash_pandas_object(obj, index=False).to_numpy().tobytes())
    elif isinstance(obj, pd.Series):
        h.update(f"series:{obj.name}:{len(obj)};".encode())
        h.update(pd.util.hash_pandas_object(obj, index=False).to_numpy().tobytes())
    elif isinstance(obj, np.ndarray):
        h.update(f"array:{obj.dtype}:{obj.shape};".encode())
        h.update(np.ascontiguousarray(obj).tobytes() if obj.dtype != object else repr(obj.tolist()).encode())
    elif isinstance(obj, Path):
        h.update(f"path:{obj};".encode())
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        h.update(f"dataclass:{type(obj).__name__};".encode())
        _feed(h, dataclasses.asdict(obj))
    elif isinstance(obj, Mapping):
        h.update(f"map:{len(obj)};".encode())
        for k in sorted(obj, key=str):
            _feed(h, str(k))
            _feed(h, obj[k])
    elif isinstance(obj, (list, tuple)) or (isinstance(obj, Iterable) and not isinstance(obj, (str, bytes))):
        items = list(obj)
        h.update(f"seq:{len(items)};".encode())
        for item in items:
            _feed(h, item)
    else:
        raise TypeError(f"cannot key a cache entry on a {type(obj).__name__}")


def key(*inputs) -> str:
    """Hex sha256 of ``inputs`` (strings, numbers, lists, dicts, dataclasses, arrays, frames).

    Equal inputs give equal keys; any change in value, type, order or shape changes it.

    Examples
    --------
    >>> key("embed", 1, {"b": 2, "a": [1, 2]}) == key("embed", 1, {"a": [1, 2], "b": 2})
    True
    >>> key("x", 1) == key("x", 1.0)
    False
    """
    h = hashlib.sha256()
    for obj in inputs:
        _feed(h, obj)
    return h.hexdigest()


def file_identity(folder: str | os.PathLike) -> str:
    """Identity of a model checkpoint folder: every file's name and size, and the content of
    its small text files (configs, vocabularies). Cheap, and changes when the checkpoint does."""
    folder = Path(folder)
    h = hashlib.sha256(str(folder.resolve()).encode())
    for f in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(str(f.relative_to(folder)).encode())
        h.update(str(f.stat().st_size).encode())
        if f.suffix in (".json", ".txt", ".model") and f.stat().st_size < 5_000_000:
            h.update(f.read_bytes())
    return h.hexdigest()


def root() -> Path:
    """The cache folder: ``$HELPERS_CACHE_DIR`` or ``<project>/.cache``."""
    env = os.environ.get("HELPERS_CACHE_DIR")
    return Path(env).resolve() if env else paths.cache_dir()


def _suffix(fmt: str) -> str:
    return {"pickle": ".pkl", "npy": ".npy", "torch": ".pt"}[fmt]


def _save(value, path: Path, fmt: str) -> None:
    if fmt == "npy":
        with open(path, "wb") as fh:
            np.save(fh, value)
    elif fmt == "torch":
        import torch

        torch.save(value, path)
    else:
        with open(path, "wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)


def _load(path: Path, fmt: str):
    if fmt == "npy":
        return np.load(path)
    if fmt == "torch":
        import torch

        return torch.load(path, map_location="cpu")
    with open(path, "rb") as fh:
        return pickle.load(fh)


def cached(
    name: str,
    version: int,
    inputs,
    compute: Callable[[], T],
    *,
    fmt: str = "pickle",
    use_cache: bool = True,
    describe: str = "",
) -> T:
    """Return ``compute()``, stored under ``<cache>/<name>/`` and keyed by ``version`` and ``inputs``.

    ``fmt`` is how the value is stored: ``"pickle"`` (models, tables), ``"npy"`` (one
    array) or ``"torch"`` (a state dict). With ``use_cache=False`` the value is computed
    and neither read nor written.

    Examples
    --------
    >>> import tempfile, os
    >>> os.environ["HELPERS_CACHE_DIR"] = tempfile.mkdtemp()
    >>> calls = []
    >>> def square():
    ...     calls.append(1)
    ...     return 12 ** 2
    >>> cached("demo", 1, [12], square), cached("demo", 1, [12], square), len(calls)
    (144, 144, 1)
    >>> _ = cached("demo", 2, [12], square); len(calls)  # a new version computes again
    2
    >>> del os.environ["HELPERS_CACHE_DIR"]
    """
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {FORMATS}")
    if not use_cache:
        return compute()
    folder = root() / name
    digest = key(name, version, inputs)[:24]
    path = folder / f"{digest}{_suffix(fmt)}"
    stored = _read(path, fmt)
    if stored is not _MISSING:
        return stored
    folder.mkdir(parents=True, exist_ok=True)
    with _entry_lock(folder / f".{digest}.lock"):
        stored = _read(path, fmt)  # another process may have written it while this one waited
        if stored is not _MISSING:
            return stored
        value = compute()
        _write(
            value,
            path,
            fmt,
            {
                "name": name,
                "version": version,
                "created": time.strftime("%Y-%m-%d %H:%M:%S"),
                "describe": describe,
                "format": fmt,
            },
        )
    return value


_MISSING = object()


def _read(path: Path, fmt: str):
    """The stored value, or ``_MISSING`` when there is none (a corrupted entry, e.g. written by
    another version of a library, is removed and counts as missing)."""
    if not path.exists():
        return _MISSING
    try:
        return _load(path, fmt)
    except Exception:
        path.unlink(missing_ok=True)
        return _MISSING


@contextmanager
def _entry_lock(lock: Path):
    """Hold an exclusive advisory lock on ``lock`` (released when the block ends or the
    process dies). An entry computed inside another one (a ladder rung inside the ladder) is
    locked in the order the code nests them, the same in every process, so two processes
    cannot wait on each other."""
    if fcntl is None:
        yield
        return
    with open(lock, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _write(value, path: Path, fmt: str, meta: dict) -> None:
    """Store ``value`` at ``path`` and ``meta`` in its JSON sidecar, each atomically (a temporary name,
    then rename): a reader never sees half of either."""
    _atomic(path, lambda tmp: _save(value, tmp, fmt))
    _atomic(path.with_suffix(".json"), lambda tmp: tmp.write_text(json.dumps(meta), encoding="utf-8"))


def _atomic(path: Path, write: Callable[[Path], object]) -> None:
    """``write`` a temporary file beside ``path``, then rename it to ``path`` (removed if ``write`` fails)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".part", dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def entries() -> pd.DataFrame:
    """One row per cache folder: ``name, entries, megabytes, newest``."""
    rows = []
    base = root()
    if base.is_dir():
        for folder in sorted(p for p in base.iterdir() if p.is_dir()):
            files = [f for f in folder.iterdir() if f.is_file() and f.suffix in (".pkl", ".npy", ".pt")]
            if not files:
                continue
            newest = max(f.stat().st_mtime for f in files)
            rows.append(
                {
                    "name": folder.name,
                    "entries": len(files),
                    "megabytes": round(sum(f.stat().st_size for f in files) / 1e6, 1),
                    "newest": time.strftime("%Y-%m-%d %H:%M", time.localtime(newest)),
                }
            )
    return pd.DataFrame(rows, columns=["name", "entries", "megabytes", "newest"])


def clear(names: Iterable[str] | None = None) -> list[str]:
    """Delete the named cache folders (all when ``names`` is empty); returns what was deleted."""
    base = root()
    if not base.is_dir():
        return []
    targets = [base / n for n in names] if names else [p for p in base.iterdir() if p.is_dir()]
    removed = []
    for t in targets:
        if t.is_dir():
            shutil.rmtree(t)
            removed.append(t.name)
    return removed
