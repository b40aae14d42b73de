"""Data acquisition: verified, atomic, never silently falling back; the download path tested
against a real HTTP server on 127.0.0.1 (random free port, bounded in time)."""

from __future__ import annotations

import hashlib
import http.server
import os
import socket
import stat
import threading
import urllib.parse
from pathlib import Path

import pytest
import yaml

from helpers import __main__ as cli
from helpers.core import paths
from helpers.core.formats import fetch

REPO = "owner/repo"
REPO_DIR = "owner__repo"
COMMIT = "c0ffee" * 6 + "abcd"
FILES = {
    "a.txt": b"alpha\n",
    "sub/b.csv": b"x,y\n1,2\n",
    "Word Alignment Doc.docx.pdf": b"%PDF-1.4 with a space in the name\n",
    "数据/词频.json": '{"尼": 3}\n'.encode(),
}


def _sources(tmp_path: Path, files: dict[str, bytes]) -> Path:
    entries = [
        {"path": rel, "sha256": hashlib.sha256(content).hexdigest(), "size": len(content)}
        for rel, content in files.items()
    ]
    path = tmp_path / "sources.yml"
    path.write_text(
        yaml.safe_dump(
            {
                "repositories": [
                    {"repo": REPO, "commit": COMMIT, "licence": "CC0", "citation": "Someone (2026)", "files": entries}
                ]
            },
            allow_unicode=True,
        ),
        encoding="utf-8",
    )
    return path


class _Upstream(http.server.BaseHTTPRequestHandler):
    """Serves FILES in the raw.githubusercontent.com layout; ``behaviour`` maps a path to a failure."""

    behaviour: dict = {}
    served: list = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        path = urllib.parse.unquote(self.path)
        self.served.append(path)
        prefix = f"/{REPO}/{COMMIT}/"
        rel = path[len(prefix) :] if path.startswith(prefix) else None
        mode = self.behaviour.get(rel)
        if rel not in FILES or mode == "404":
            self.send_error(404, "Not Found")
            return
        body = FILES[rel]
        if mode == "corrupt":
            body = b"X" + body[1:]
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if mode == "truncated":  # promise the whole file, send half, hang up
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.wfile.write(body)

    def log_message(self, *args):  # keep the test output clean
        pass


@pytest.fixture
def upstream():
    """A real HTTP server on 127.0.0.1 at a free port, stopped after the test."""
    _Upstream.behaviour, _Upstream.served = {}, []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Upstream)
    server.timeout = 5
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield {"url": f"http://127.0.0.1:{server.server_address[1]}", "handler": _Upstream}
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def setup(tmp_path, monkeypatch):
    """sources.yml for FILES, a mirror holding them, an empty target folder, no env overrides."""
    mirror = tmp_path / "mirror"
    for rel, content in FILES.items():
        p = mirror / REPO_DIR / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(content)
    for var in ("HELPERS_DATA_MIRROR", "HELPERS_DATA_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    return {"mirror": mirror, "sources": _sources(tmp_path, FILES), "dest": tmp_path / "raw"}


def _fetch(setup, **kwargs):
    return fetch.fetch_all(dest_root=setup["dest"], sources_yml=setup["sources"], progress=False, timeout=5, **kwargs)


def _leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob("*.part")] if root.exists() else []


def test_urls_encode_every_segment():
    src = fetch.SourceFile("o/r", "c" * 40, "d/Word Alignment Doc.docx.pdf", "0" * 64, 1, "L", "C")
    assert src.url() == f"https://raw.githubusercontent.com/o/r/{'c' * 40}/d/Word%20Alignment%20Doc.docx.pdf"
    cjk = fetch.SourceFile("o/r", "c1", "数据/词频.json", "0" * 64, 1, "L", "C")
    assert cjk.url("http://127.0.0.1:9/") == "http://127.0.0.1:9/o/r/c1/%E6%95%B0%E6%8D%AE/%E8%AF%8D%E9%A2%91.json"
    assert src.local_relpath == Path("o__r/d/Word Alignment Doc.docx.pdf")


def test_downloads_names_with_spaces_and_cjk_and_verifies(setup, upstream):
    done = _fetch(setup, base_url=upstream["url"])
    assert set(done) == {f"{REPO_DIR}/{rel}" for rel in FILES}
    for rel, content in FILES.items():
        target = setup["dest"] / REPO_DIR / rel
        assert target.read_bytes() == content
        mode = stat.S_IMODE(target.stat().st_mode)
        assert mode == 0o666 & ~_umask(), oct(mode)  # the usual permissions, not mkstemp's 0600
    assert f"/{REPO}/{COMMIT}/Word Alignment Doc.docx.pdf" in upstream["handler"].served
    again = _fetch(setup, base_url=upstream["url"])
    assert set(again.values()) == {"present"} and len(upstream["handler"].served) == len(FILES)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize(
    "mode, reason", [("404", "HTTP 404"), ("truncated", "truncated"), ("corrupt", "checksum mismatch")]
)
def test_bad_downloads_are_refused_and_a_good_copy_kept(setup, upstream, mode, reason):
    _fetch(setup, base_url=upstream["url"])
    target = setup["dest"] / REPO_DIR / "a.txt"
    target.write_bytes(b"my older copy\n")  # present but not the pinned file: fetch must try to replace it
    upstream["handler"].behaviour = {"a.txt": mode}
    with pytest.raises(fetch.FetchError) as err:
        _fetch(setup, base_url=upstream["url"])
    message = str(err.value)
    assert "1 of 4 data files could not be obtained" in message and f"{REPO_DIR}/a.txt" in message
    assert reason in message and upstream["url"] in message
    assert target.read_bytes() == b"my older copy\n"  # never replaced by bad bytes
    assert _leftovers(setup["dest"]) == []


def test_server_down_names_every_file_and_the_remedies(setup, upstream):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    with pytest.raises(fetch.FetchError) as err:
        _fetch(setup, base_url=dead)
    message = str(err.value)
    assert "4 of 4 data files could not be obtained" in message
    for rel in FILES:
        assert f"{REPO_DIR}/{rel}" in message
    assert "connection refused" in message and "--mirror" in message and "--base-url" in message
    assert "not in the mirror" not in message  # no mirror was given, so none is claimed to have been tried
    assert not setup["dest"].exists() or _leftovers(setup["dest"]) == []


def test_a_bad_url_is_named_not_a_traceback(setup):
    with pytest.raises(fetch.FetchError, match=r"(?s)4 of 4 data files .*invalid URL"):
        _fetch(setup, base_url="http://exa mple.invalid:99999")


def test_cli_prints_error_lines_and_exit_status_1(setup, upstream, capsys, monkeypatch):
    monkeypatch.setattr(paths, "sources_file", lambda: setup["sources"])
    upstream["handler"].behaviour = {"sub/b.csv": "404"}
    code = cli.main(["fetch", "--dest", str(setup["dest"]), "--base-url", upstream["url"], "--timeout", "5"])
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 1 and len(errors) == 1  # one error line per file not obtained
    assert (
        errors[0].startswith(f"error: {REPO_DIR}/sub/b.csv: download from {upstream['url']}")
        and "HTTP 404" in errors[0]
    )
    assert "1 of 4 data files could not be obtained. Supply them" in err and "Traceback" not in err
    monkeypatch.setenv("HELPERS_DATA_BASE_URL", upstream["url"])  # the documented environment variable
    upstream["handler"].behaviour = {}
    assert cli.main(["fetch", "--dest", str(setup["dest"])]) == 0


def test_copies_from_mirror_then_skips_valid_files(setup):
    done = _fetch(setup, mirror=setup["mirror"])
    assert all(origin.startswith(str(setup["mirror"])) for origin in done.values())
    for rel, content in FILES.items():
        assert (setup["dest"] / REPO_DIR / rel).read_bytes() == content
    assert set(_fetch(setup, mirror=setup["mirror"]).values()) == {"present"}


def test_mirror_from_environment(setup, monkeypatch):
    monkeypatch.setenv("HELPERS_DATA_MIRROR", str(setup["mirror"]))
    _fetch(setup)
    assert (setup["dest"] / REPO_DIR / "a.txt").exists()


def test_a_corrupted_mirror_copy_is_refused_and_the_network_not_claimed(setup):
    _fetch(setup, mirror=setup["mirror"])
    good = setup["dest"] / REPO_DIR / "a.txt"
    good.write_bytes(b"old but mine\n")
    (setup["mirror"] / REPO_DIR / "a.txt").write_bytes(b"tampered\n")
    with pytest.raises(fetch.FetchError) as err:
        _fetch(setup, mirror=setup["mirror"])
    assert "the mirror copy" in str(err.value) and "refused" in str(err.value)
    assert "download" not in str(err.value).split("Supply them")[0]
    assert good.read_bytes() == b"old but mine\n" and _leftovers(setup["dest"]) == []


def test_missing_mirror_folder_is_an_error(setup, tmp_path):
    with pytest.raises(fetch.FetchError, match="mirror folder .* does not exist"):
        _fetch(setup, mirror=tmp_path / "nowhere")


def test_project_sources_list_every_shared_dataset_file():
    sources = fetch.load_sources()
    assert len(sources) == 190
    assert {s.repo for s in sources} == {
        "aaronlifenghan/MetaHOPE",
        "shenbinqian/MTL4QE",
        "shenbinqian/homo_gen",
        "surrey-nlp/HADQAET",
        "google/wmt-mqm-human-evaluation",
        "wmt-conference/wmt21-news-systems",
        "wmt-conference/wmt23-news-systems",
        "wmt-conference/wmt24-news-systems",
        "florethsong/mtme-zh-mwe",
    }
    assert all(len(s.sha256) == 64 and len(s.commit) == 40 and s.licence and s.citation for s in sources)
    assert any(" " in s.path for s in sources)  # the file that once broke the first run


def test_fetched_release_files_are_verified():
    """`make test` fetches first: every file must now be in data/raw with its checksum."""
    root = paths.raw_data_dir()
    bad = [str(s.local_relpath) for s in fetch.load_sources() if not fetch.is_valid(root / s.local_relpath, s)]
    assert bad == [], f"missing or corrupted after fetch: {bad}"


def test_fetch_and_cache_commands_import_no_study(tmp_path):
    """``make book`` and ``make test`` start with ``fetch``: it loads no study, so no scipy,
    scikit-learn or torch (seconds, and more on a fresh venv that still compiles them)."""
    import subprocess
    import sys

    code = """
import contextlib, io, sys
from helpers.__main__ import main
with contextlib.redirect_stdout(io.StringIO()):
    with contextlib.suppress(SystemExit):
        main(["fetch", "--help"])
    status = main(["cache", "list"])
heavy = [m for m in ("scipy.stats", "sklearn", "torch", "helpers.metahope", "helpers.explanations", "helpers.slang")
         if m in sys.modules]
print("STATUS", status, "HEAVY", heavy)
"""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "HELPERS_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert "STATUS 0 HEAVY []" in done.stdout, done.stdout + done.stderr
