"""Data acquisition: verified, atomic, never silently falling back."""

from __future__ import annotations

import hashlib
import urllib.error
from pathlib import Path

import pytest
import yaml

from helpers import fetch, paths

REPO_DIR = "owner__repo"


@pytest.fixture
def setup(tmp_path, monkeypatch):
    """A sources.yml for two files, a mirror holding them, and an empty target folder."""
    mirror = tmp_path / "mirror"
    files = {"a.txt": b"alpha\n", "sub/b.csv": b"x,y\n1,2\n"}
    entries = []
    for rel, content in files.items():
        p = mirror / REPO_DIR / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(content)
        entries.append({"path": rel, "sha256": hashlib.sha256(content).hexdigest(), "size": len(content)})
    sources = tmp_path / "sources.yml"
    sources.write_text(yaml.safe_dump({"repositories": [{
        "repo": "owner/repo", "commit": "0" * 40, "licence": "CC0", "citation": "Someone (2026)", "files": entries,
    }]}))

    def no_network(*args, **kwargs):
        raise urllib.error.URLError("network unreachable (test)")

    monkeypatch.setattr(fetch.urllib.request, "urlopen", no_network)
    monkeypatch.delenv("HELPERS_DATA_MIRROR", raising=False)
    return {"mirror": mirror, "sources": sources, "dest": tmp_path / "raw", "files": files}


def test_copies_from_mirror_then_skips_valid_files(setup):
    done = fetch.fetch_all(mirror=setup["mirror"], dest_root=setup["dest"], sources_yml=setup["sources"], progress=False)
    assert all(origin.startswith(str(setup["mirror"])) for origin in done.values())
    for rel, content in setup["files"].items():
        assert (setup["dest"] / REPO_DIR / rel).read_bytes() == content
    again = fetch.fetch_all(mirror=setup["mirror"], dest_root=setup["dest"], sources_yml=setup["sources"], progress=False)
    assert set(again.values()) == {"present"}


def test_mirror_from_environment(setup, monkeypatch):
    monkeypatch.setenv("HELPERS_DATA_MIRROR", str(setup["mirror"]))
    fetch.fetch_all(dest_root=setup["dest"], sources_yml=setup["sources"], progress=False)
    assert (setup["dest"] / REPO_DIR / "a.txt").exists()


def test_checksum_mismatch_is_refused_and_existing_copy_kept(setup):
    fetch.fetch_all(mirror=setup["mirror"], dest_root=setup["dest"], sources_yml=setup["sources"], progress=False)
    good = setup["dest"] / REPO_DIR / "a.txt"
    # a stale local copy and a corrupted mirror: the stale copy must not be replaced by bad bytes
    good.write_bytes(b"old but mine\n")
    (setup["mirror"] / REPO_DIR / "a.txt").write_bytes(b"tampered\n")
    with pytest.raises(fetch.FetchError, match=r"a.txt.*checksum mismatch.*Refused"):
        fetch.fetch_all(mirror=setup["mirror"], dest_root=setup["dest"], sources_yml=setup["sources"], progress=False)
    assert good.read_bytes() == b"old but mine\n"
    assert not list(good.parent.glob("*.part"))


def test_nothing_written_when_mirror_file_is_bad(setup):
    (setup["mirror"] / REPO_DIR / "sub" / "b.csv").write_bytes(b"evil\n")
    with pytest.raises(fetch.FetchError):
        fetch.fetch_all(mirror=setup["mirror"], dest_root=setup["dest"], sources_yml=setup["sources"], progress=False)
    target = setup["dest"] / REPO_DIR / "sub"
    assert not (target / "b.csv").exists() and not list(target.glob(".*part"))


def test_no_network_no_mirror_names_missing_files_and_remedies(setup):
    with pytest.raises(fetch.FetchError) as err:
        fetch.fetch_all(dest_root=setup["dest"], sources_yml=setup["sources"], progress=False)
    msg = str(err.value)
    assert "2 of 2 files" in msg
    assert "owner__repo/a.txt" in msg and "owner__repo/sub/b.csv" in msg
    assert "--mirror" in msg and "HELPERS_DATA_MIRROR" in msg
    assert not (setup["dest"] / REPO_DIR / "a.txt").exists()


def test_missing_mirror_folder_is_an_error(setup, tmp_path):
    with pytest.raises(fetch.FetchError, match="mirror folder .* does not exist"):
        fetch.fetch_all(mirror=tmp_path / "nowhere", dest_root=setup["dest"], sources_yml=setup["sources"], progress=False)


def test_interrupted_transfer_leaves_no_file(setup, monkeypatch):
    def broken_copy(fh, source, mirror, timeout):
        fh.write(b"half")
        raise OSError("connection reset (test)")

    monkeypatch.setattr(fetch, "_copy_to", broken_copy)
    with pytest.raises(fetch.FetchError, match="connection reset"):
        fetch.fetch_all(mirror=setup["mirror"], dest_root=setup["dest"], sources_yml=setup["sources"], progress=False)
    assert [p for p in setup["dest"].rglob("*") if p.is_file()] == []


def test_download_url_is_pinned_raw_url():
    src = fetch.SourceFile("o/r", "c" * 40, "d/f.xlsx", "0" * 64, 1, "L", "C")
    assert src.url == f"https://raw.githubusercontent.com/o/r/{'c' * 40}/d/f.xlsx"
    assert src.local_relpath == Path("o__r/d/f.xlsx")


def test_project_sources_list_every_shared_dataset_file():
    sources = fetch.load_sources()
    assert len(sources) == 49
    assert {s.repo for s in sources} == {"aaronlifenghan/MetaHOPE", "shenbinqian/MTL4QE", "shenbinqian/homo_gen",
                                          "surrey-nlp/HADQAET"}
    assert all(len(s.sha256) == 64 and len(s.commit) == 40 and s.licence and s.citation for s in sources)


def test_fetched_release_files_are_verified():
    """`make test` fetches first: every file must now be in data/raw with its checksum."""
    root = paths.raw_data_dir()
    bad = [str(s.local_relpath) for s in fetch.load_sources() if not fetch.is_valid(root / s.local_relpath, s)]
    assert bad == [], f"missing or corrupted after fetch: {bad}"
