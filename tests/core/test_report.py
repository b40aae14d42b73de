"""Readable tables and published comparisons."""

from __future__ import annotations

import pandas as pd

from helpers.core import published, report


def test_table_merges_intervals_selects_and_relabels_without_touching_the_frame():
    frame = pd.DataFrame({"system": ["X"], "d": [0.5], "ci_low": [-0.25], "ci_high": [1.0], "n": [3.0]})
    html = report.table(frame, decimals=2, intervals={"95% CI": ("ci_low", "ci_high")},
                        columns=["system", "d", "95% CI"], labels={"d": "difference"}).to_html()
    assert "[-0.25, 1.00]" in html and "difference" in html and ">n<" not in html
    assert list(frame.columns) == ["system", "d", "ci_low", "ci_high", "n"]


def test_beside_is_long_and_survives_a_key_called_statistic():
    mine = pd.DataFrame({"statistic": ["pearson_r", "median_sd"], "value": [0.3, 0.9], "p_value": [0.2, None]})
    pub = pd.DataFrame({"statistic": ["pearson_r", "median_sd"], "value": ["0.397", "0.935"], "p_value": ["0.083", "NA"]})
    wide = published.beside_published(mine, pub, ["statistic"], "this run")
    html = report.beside(wide).data
    assert "<details>" in html and "quantity" in html and "0.397" in html and "0.300" in html


def test_published_comparison_shows_only_differing_cells_openly():
    rec = pd.DataFrame({"system": ["X", "Y"], "a": [0.5, 0.7]})
    pub = pd.DataFrame({"system": ["X", "Y"], "a": ["0.5", "0.9"]})
    html = report.published_comparison(published.compare_with_published(rec, pub, ["system"]), "Table 9").data
    assert "1 of 2 published cells" in html and "Cells that differ" in html
    assert html.index("Cells that differ") < html.index("<details>")


def test_paper_values_stay_beside_a_run_on_other_systems():
    """A class's systems are not the paper's: rows cannot pair, so the paper's values stand
    per system beside the class's per system (not a column of NA), and the page says why."""
    pub = pd.DataFrame({"system": ["GoogleMT", "GPT-5.4"], "error": ["MIS", "MIS"], "alpha": ["0.055", "NA"]})
    mine = pd.DataFrame({"system": ["sysA", "sysB"], "error": ["MIS", "MIS"], "alpha": [0.25, -0.5], "n": [4, 4]})
    wide = published.beside_published(mine, pub, ["system", "error"], "this run")
    assert list(wide.columns) == ["GoogleMT (published)", "GPT-5.4 (published)", "sysA (this run)", "sysB (this run)"]
    assert wide.index.tolist() == [("MIS", "alpha")] and wide.iloc[0, 0] == 0.055 and pd.isna(wide.iloc[0, 1])
    assert wide.iloc[0, 2:].tolist() == [0.25, -0.5]
    html = report.paper_beside("Table 9", mine, pub, ["system", "error"], "this run").data
    assert "This run's systems are not the paper's (here sysA, sysB; in the paper GoogleMT, GPT-5.4)" in html
    assert "0.055" in html and "0.250" in html and "-0.500" in html
    assert "Paper Table 9: published beside “this run”" in html and "the this run" not in html
    same = report.paper_beside("Table 9", mine.assign(system=["GoogleMT", "GPT-5.4"]), pub, ["system", "error"],
                               "simulated").data
    assert "not the paper's" not in same and "0.055" in same and "0.250" in same


def test_a_data_box_detail_is_a_section_of_the_chapters_words():
    own = report.Provenance.worded("own", "09_metrics", ["ref.txt"])
    assert own.files == ("ref.txt",) and own.kind == "own"
    assert own.detail == "Reference, system outputs and human scores passed to this notebook as papermill parameters."
    released = report.Provenance.worded("released", "10_figurative")
    assert released.detail.startswith("Google's expert MQM ratings of ZH→EN (google/wmt-mqm-human-evaluation")
    assert "(<code>data/authored/idiom_sample.csv</code>), sha256-verified by <code>.venv/bin/python" in released.detail
    assert released.detail in released.note().data
