"""The results writer: a chapter's files appear together, only when the chapter completed."""

from __future__ import annotations

import base64
import os

import pandas as pd
import plotly.graph_objects as go
import pytest

from helpers.core.book.results import Results, discard_partials


def test_files_appear_only_on_commit(tmp_path):
    results = Results(tmp_path, "01_x")
    frame = results.table(pd.DataFrame({"a": [1, 2]}), "t")
    assert frame["a"].tolist() == [1, 2]
    shown = results.show(go.Figure(go.Scatter(x=[0, 1], y=[0, 1])), "f")
    bundle = shown._repr_mimebundle_()
    assert "text/html" in bundle  # the interactive figure, for the page
    # and, for the printable edition, the very PNG saved as the static twin
    assert base64.b64decode(bundle["image/png"]) == (results.staging / "f.png").read_bytes()
    assert not (tmp_path / "01_x").exists()  # staged, not published
    out = results.commit()
    assert out == tmp_path / "01_x"
    assert sorted(p.name for p in out.iterdir()) == ["f.png", "f.svg", "t.csv"]
    assert (out / "t.csv").read_text().splitlines() == ["a", "1", "2"]
    assert not list(tmp_path.glob(".01_x*"))
    with pytest.raises(RuntimeError, match="already committed"):
        results.table(frame, "again")


def test_a_failed_run_leaves_the_earlier_set_untouched(tmp_path):
    first = Results(tmp_path, "01_x")
    first.table(pd.DataFrame({"a": [1]}), "t")
    first.table(pd.DataFrame({"b": [1]}), "only_in_first")
    first.commit()
    failed = Results(tmp_path, "01_x")
    failed.table(pd.DataFrame({"a": [99]}), "t")  # the run dies before commit()
    assert (tmp_path / "01_x" / "t.csv").read_text().splitlines() == ["a", "1"]
    discard_partials(tmp_path, "01_x", keep_alive=False)  # what the runner does after a failure
    assert not list(tmp_path.glob(".01_x*"))
    second = Results(tmp_path, "01_x")
    second.table(pd.DataFrame({"a": [2]}), "t")
    second.commit()
    assert sorted(p.name for p in (tmp_path / "01_x").iterdir()) == ["t.csv"]  # a complete new set, nothing mixed


def test_staging_folders_of_dead_runs_are_cleaned(tmp_path):
    stale = tmp_path / ".01_x.partial-999999999-deadbeef"
    stale.mkdir(parents=True)
    (stale / "t.csv").write_text("half")
    alive = tmp_path / f".01_x.partial-{os.getppid()}-cafe"  # a running process: kept
    alive.mkdir()
    Results(tmp_path, "01_x")
    assert not stale.exists() and alive.exists()


def test_findings_are_staged_with_their_section_first(tmp_path):
    results = Results(tmp_path, "09_x")
    frame = pd.DataFrame(
        {
            "quantity": ["a", "b"],
            "group": ["", ""],
            "value": [1.0, None],
            "ci_low": [None] * 2,
            "ci_high": [None] * 2,
            "p": [None] * 2,
            "text": ["", "key"],
            "section": ["data", "end"],
        }
    )
    first = results.findings(frame)
    assert list(first.columns[:2]) == ["section", "quantity"] and first["section"].tolist() == ["data", "end"]
    results.findings(frame.drop(columns="section"))  # one section: "findings"
    saved = pd.read_csv(results.staging / "findings.csv", keep_default_na=False)
    assert list(saved.columns) == ["section", "quantity", "group", "value", "ci_low", "ci_high", "p", "text"]
    assert saved["section"].tolist() == ["findings", "findings"]
    assert "section" in frame.columns  # the frame given is not changed
