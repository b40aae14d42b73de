"""Fetch the upstream data listed in ``data/sources.yml``, verified by sha256.

Each file comes either from a mirror folder laid out as ``OWNER__REPO/PATH`` (``--mirror``
or ``$HELPERS_DATA_MIRROR``) or from its pinned upstream URL
``https://raw.githubusercontent.com/OWNER/REPO/COMMIT/PATH`` (every path segment
percent-encoded, so names with spaces or CJK characters work). ``--base-url`` (or
``$HELPERS_DATA_BASE_URL``) replaces ``https://raw.githubusercontent.com`` by another server
laid out the same way, e.g. a local copy or a test server.

A file is written under a temporary name next to its destination and renamed only after
its size and checksum matched, so a bad, truncated or interrupted transfer never replaces
a good copy and leaves nothing behind. Files already present and valid are left alone.
Every failure (bad URL, DNS, refused connection, timeout, HTTP error, truncated body,
wrong checksum) is collected; at the end one :class:`FetchError` names every file not
obtained, what was tried for it, and how to supply it. There is no fallback to anything else.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import shutil
import socket
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import yaml
from tqdm import tqdm

from .. import paths

DEFAULT_BASE_URL = "https://raw.githubusercontent.com"


class FetchError(RuntimeError):
    """One or more files could not be obtained or failed their checksum.

    ``failures`` lists ``(file, reason)`` for each file not obtained and ``remedy`` says how
    to supply them; the message holds both."""

    def __init__(self, message: str, failures: list[tuple[str, str]] | None = None, remedy: str = ""):
        super().__init__(message)
        self.failures = failures or []
        self.remedy = remedy


@dataclass(frozen=True)
class SourceFile:
    """One upstream file: where it comes from, what it must hash to, whose it is."""

    repo: str
    commit: str
    path: str
    sha256: str
    size: int
    licence: str
    citation: str

    def url(self, base_url: str | None = None) -> str:
        """Download URL below ``base_url`` (default raw.githubusercontent.com), every segment encoded.

        Examples
        --------
        >>> SourceFile("o/r", "c1", "d/Word Doc.pdf", "", 0, "", "").url()
        'https://raw.githubusercontent.com/o/r/c1/d/Word%20Doc.pdf'
        >>> SourceFile("o/r", "c1", "词频.json", "", 0, "", "").url("http://127.0.0.1:8000/")
        'http://127.0.0.1:8000/o/r/c1/%E8%AF%8D%E9%A2%91.json'
        """
        base = (base_url or DEFAULT_BASE_URL).rstrip("/")
        segments = [*self.repo.split("/"), self.commit, *self.path.split("/")]
        return base + "/" + "/".join(urllib.parse.quote(s, safe="") for s in segments)

    @property
    def local_relpath(self) -> Path:
        """Path below ``data/raw`` (and below a mirror folder)."""
        return Path(self.repo.replace("/", "__")) / self.path


def load_sources(sources_yml: str | os.PathLike | None = None) -> list[SourceFile]:
    """Read ``data/sources.yml`` into one :class:`SourceFile` per upstream file."""
    path = Path(sources_yml) if sources_yml else paths.sources_file()
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    out = []
    for i, repo in enumerate(spec.get("repositories", [])):
        for key in ("repo", "commit", "licence", "citation", "files"):
            if key not in repo:
                raise FetchError(f"{path}: repositories[{i}] lacks {key!r}")
        for j, f in enumerate(repo["files"]):
            for key in ("path", "sha256", "size"):
                if key not in f:
                    raise FetchError(f"{path}: repositories[{i}].files[{j}] lacks {key!r}")
            out.append(
                SourceFile(
                    repo=repo["repo"],
                    commit=str(repo["commit"]),
                    path=str(f["path"]),
                    sha256=str(f["sha256"]).lower(),
                    size=int(f["size"]),
                    licence=repo["licence"],
                    citation=repo["citation"],
                )
            )
    return out


def sha256_of(path: str | os.PathLike) -> str:
    """Hex sha256 of a file, read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def is_valid(path: Path, source: SourceFile) -> bool:
    """True when ``path`` exists with the expected size and sha256."""
    return path.is_file() and path.stat().st_size == source.size and sha256_of(path) == source.sha256


def _describe(exc: BaseException) -> str:
    """A short human reason for a network failure."""
    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}"
    if isinstance(exc, urllib.error.URLError):
        reason = exc.reason
        if isinstance(reason, socket.gaierror):
            return f"host not found ({reason})"
        if isinstance(reason, ConnectionRefusedError):
            return "connection refused"
        if isinstance(reason, (TimeoutError, socket.timeout)):
            return "timed out"
        return f"network error ({reason})"
    if isinstance(exc, http.client.IncompleteRead):
        return f"truncated response ({len(exc.partial)} bytes received, more expected)"
    if isinstance(exc, (TimeoutError, socket.timeout)):
        return "timed out"
    if isinstance(exc, http.client.InvalidURL):
        return f"invalid URL ({exc})"
    return f"{type(exc).__name__}: {exc}"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_verified(dest: Path, source: SourceFile, fill) -> None:
    """Write ``fill(fh)``'s bytes to a temporary file beside ``dest``; verify; then rename.

    Raises ValueError describing a size or checksum mismatch; the temporary file is
    always removed and ``dest`` is only ever replaced by verified bytes.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fill(fh)
            fh.flush()
            os.fsync(fh.fileno())
        size = tmp.stat().st_size
        if size != source.size:
            raise ValueError(f"{size} bytes instead of {source.size} (truncated or wrong file)")
        got = sha256_of(tmp)
        if got != source.sha256:
            raise ValueError(f"checksum mismatch (sha256 {got}, expected {source.sha256})")
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a shared class server needs the usual bits
        os.replace(tmp, dest)
    finally:
        if tmp.exists():
            tmp.unlink()


def fetch_file(
    source: SourceFile, dest_root: Path, mirror: Path | None = None, base_url: str | None = None, timeout: float = 60
) -> str:
    """Bring one file to ``dest_root / source.local_relpath``, atomically and verified.

    Returns ``"present"`` when a valid copy was already there, else where it came from.
    When the mirror holds the file only the mirror is used; otherwise the network. Raises
    :class:`FetchError` saying exactly what was tried and why it failed; an existing copy
    is kept and no temporary file is left.
    """
    dest = dest_root / source.local_relpath
    if is_valid(dest, source):
        return "present"
    if mirror is not None and (mirror / source.local_relpath).is_file():
        candidate = mirror / source.local_relpath

        def copy(fh):
            with open(candidate, "rb") as src:
                shutil.copyfileobj(src, fh)

        try:
            _write_verified(dest, source, copy)
        except (ValueError, OSError) as exc:
            raise FetchError(f"the mirror copy {candidate} was refused: {exc}; {dest} was left as it was") from None
        return str(candidate)
    url = source.url(base_url)
    tried = f"not in the mirror {mirror}; " if mirror is not None else ""

    def download(fh):
        with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 (pinned URL)
            shutil.copyfileobj(resp, fh)

    try:
        _write_verified(dest, source, download)
    except ValueError as exc:
        raise FetchError(f"{tried}downloaded from {url} but refused: {exc}; {dest} was left as it was") from None
    except Exception as exc:  # every network failure ends up here, named; never a traceback
        raise FetchError(f"{tried}download from {url} failed: {_describe(exc)}") from None
    return url


def fetch_all(
    mirror: str | os.PathLike | None = None,
    dest_root: str | os.PathLike | None = None,
    sources_yml: str | os.PathLike | None = None,
    only: str | None = None,
    base_url: str | None = None,
    timeout: float = 60,
    progress: bool = True,
) -> dict[str, str]:
    """Fetch every file of ``data/sources.yml`` (or of one repository with ``only="OWNER/REPO"``).

    ``mirror`` defaults to ``$HELPERS_DATA_MIRROR``, ``base_url`` to
    ``$HELPERS_DATA_BASE_URL`` (else raw.githubusercontent.com). Returns ``{relpath: origin}``.
    All failures are collected and raised together in one :class:`FetchError` that names
    each file, what was tried, and the ways to supply it.
    """
    if mirror is None:
        mirror = os.environ.get("HELPERS_DATA_MIRROR") or None
    if base_url is None:
        base_url = os.environ.get("HELPERS_DATA_BASE_URL") or None
    mirror_path = Path(mirror).resolve() if mirror else None
    if mirror_path is not None and not mirror_path.is_dir():
        raise FetchError(f"mirror folder {mirror_path} does not exist (from --mirror or HELPERS_DATA_MIRROR)")
    root = Path(dest_root) if dest_root else paths.raw_data_dir()
    sources = load_sources(sources_yml)
    if only:
        sources = [s for s in sources if s.repo == only]
        if not sources:
            raise FetchError(f"no repository {only!r} in {sources_yml or paths.sources_file()}")
    done: dict[str, str] = {}
    failures: list[tuple[str, str]] = []
    for source in tqdm(sources, desc="fetch", unit="file", disable=not progress):
        try:
            done[str(source.local_relpath)] = fetch_file(source, root, mirror_path, base_url, timeout)
        except FetchError as exc:
            failures.append((str(source.local_relpath), str(exc)))
    if failures:
        server = base_url or DEFAULT_BASE_URL
        remedy = (
            f"{len(failures)} of {len(sources)} data files could not be obtained. Supply them in one of these ways:\n"
            f"  * run again with network access to {server};\n"
            "  * pass --mirror DIR (or set HELPERS_DATA_MIRROR=DIR), DIR holding OWNER__REPO/PATH copies;\n"
            "  * pass --base-url URL (or set HELPERS_DATA_BASE_URL) for a server laid out as URL/OWNER/REPO/COMMIT/PATH;\n"
            f"  * or place each file yourself at {root}/OWNER__REPO/PATH (its sha256 must match data/sources.yml)."
        )
        raise FetchError(
            f"{len(failures)} of {len(sources)} data files could not be obtained:\n"
            + "\n".join(f"  - {f}: {reason}" for f, reason in failures)
            + "\n"
            + remedy,
            failures,
            remedy,
        )
    return done
