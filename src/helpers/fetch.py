"""Fetch the upstream data listed in ``data/sources.yml``, verified by sha256.

Each file comes either from a mirror folder laid out as ``OWNER__REPO/PATH`` (``--mirror``
or ``$HELPERS_DATA_MIRROR``) or from its pinned upstream URL
``https://raw.githubusercontent.com/OWNER/REPO/COMMIT/PATH``. It is written to a temporary
name next to its destination and renamed only after its checksum matched, so a bad or
interrupted transfer never replaces a good copy. Files already present and valid are left
alone. When a file cannot be had, the error names it and says how to supply it: there is
no fallback to anything else.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import yaml
from tqdm import tqdm

from . import paths

RAW_URL = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"


class FetchError(RuntimeError):
    """A file could not be obtained or failed its checksum."""


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

    @property
    def url(self) -> str:
        return RAW_URL.format(repo=self.repo, commit=self.commit, path=self.path)

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
                raise ValueError(f"{path}: repositories[{i}] lacks {key!r}")
        for j, f in enumerate(repo["files"]):
            for key in ("path", "sha256", "size"):
                if key not in f:
                    raise ValueError(f"{path}: repositories[{i}].files[{j}] lacks {key!r}")
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


def _copy_to(fh, source: SourceFile, mirror: Path | None, timeout: float) -> str:
    """Write the file's bytes to ``fh``; returns where they came from."""
    if mirror is not None:
        candidate = mirror / source.local_relpath
        if candidate.is_file():
            with open(candidate, "rb") as src:
                shutil.copyfileobj(src, fh)
            return str(candidate)
    with urllib.request.urlopen(source.url, timeout=timeout) as resp:  # noqa: S310 (pinned https URL)
        shutil.copyfileobj(resp, fh)
    return source.url


def fetch_file(source: SourceFile, dest_root: Path, mirror: Path | None = None, timeout: float = 60) -> str:
    """Bring one file to ``dest_root / source.local_relpath``, atomically and verified.

    Returns ``"present"`` when a valid copy was already there, else where it came from.
    Raises :class:`FetchError` on a checksum mismatch (the refused bytes are deleted and
    any existing copy is kept) or when neither the mirror nor the network has the file.
    """
    dest = dest_root / source.local_relpath
    if is_valid(dest, source):
        return "present"
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as fh:
            origin = _copy_to(fh, source, mirror, timeout)
            fh.flush()
            os.fsync(fh.fileno())
        got = sha256_of(tmp)
        if got != source.sha256 or tmp.stat().st_size != source.size:
            raise FetchError(
                f"{source.repo}/{source.path}: checksum mismatch for the copy from {origin} "
                f"(sha256 {got}, {tmp.stat().st_size} bytes; expected {source.sha256}, "
                f"{source.size} bytes). Refused; {dest} was left as it was."
            )
        os.replace(tmp, dest)
        return origin
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        raise FetchError(f"{source.repo}/{source.path}: could not be obtained ({exc})") from exc
    finally:
        if tmp.exists():
            tmp.unlink()


def fetch_all(
    mirror: str | os.PathLike | None = None,
    dest_root: str | os.PathLike | None = None,
    sources_yml: str | os.PathLike | None = None,
    only: str | None = None,
    timeout: float = 60,
    progress: bool = True,
) -> dict[str, str]:
    """Fetch every file of ``data/sources.yml`` (or of one repository with ``only="OWNER/REPO"``).

    ``mirror`` defaults to ``$HELPERS_DATA_MIRROR``. Returns ``{relpath: origin}``.
    All failures are collected and raised together in one :class:`FetchError` that names
    each file and the ways to supply it.
    """
    if mirror is None:
        mirror = os.environ.get("HELPERS_DATA_MIRROR") or None
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
    failures: list[str] = []
    for source in tqdm(sources, desc="fetch", unit="file", disable=not progress):
        try:
            done[str(source.local_relpath)] = fetch_file(source, root, mirror_path, timeout)
        except FetchError as exc:
            failures.append(f"  - {source.local_relpath}: {exc}")
    if failures:
        where = f"the mirror {mirror_path} or " if mirror_path else ""
        raise FetchError(
            f"{len(failures)} of {len(sources)} files could not be had from {where}the network:\n"
            + "\n".join(failures)
            + "\nSupply them in one of these ways:\n"
            "  * run with network access to raw.githubusercontent.com;\n"
            "  * pass --mirror DIR (or set HELPERS_DATA_MIRROR=DIR), DIR holding OWNER__REPO/PATH copies;\n"
            f"  * or place each file yourself at {root}/OWNER__REPO/PATH (its sha256 must match data/sources.yml)."
        )
    return done
