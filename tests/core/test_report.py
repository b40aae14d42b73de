"""Readable tables and published comparisons."""

from __future__ import annotations

import re
from html import unescape

import pandas as pd
import pytest

from helpers.core.book import report
from helpers.core.formats import published


def test_table_merges_intervals_selects_and_relabels_without_touching_the_frame():
    frame = pd.DataFrame({"system": ["X"], "d": [0.5], "ci_low": [-0.25], "ci_high": [1.0], "n": [3.0]})
    html = report.table(
        frame,
        decimals=2,
        intervals={"95% CI": ("ci_low", "ci_high")},
        columns=["system", "d", "95% CI"],
        labels={"d": "difference"},
    ).to_html()
    assert "[-0.25, 1.00]" in html and "difference" in html and ">n<" not in html
    assert list(frame.columns) == ["system", "d", "ci_low", "ci_high", "n"]


def test_beside_is_long_and_survives_a_key_called_statistic():
    mine = pd.DataFrame({"statistic": ["pearson_r", "median_sd"], "value": [0.3, 0.9], "p_value": [0.2, None]})
    pub = pd.DataFrame(
        {"statistic": ["pearson_r", "median_sd"], "value": ["0.397", "0.935"], "p_value": ["0.083", "NA"]}
    )
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
    same = report.paper_beside(
        "Table 9", mine.assign(system=["GoogleMT", "GPT-5.4"]), pub, ["system", "error"], "simulated"
    ).data
    assert "not the paper's" not in same and "0.055" in same and "0.250" in same


def _cells(styler) -> dict:
    """Header -> the cells it shows, read back from the rendered HTML."""
    html = styler.to_html()
    heads = [unescape(h).strip() for h in re.findall(r"<th [^>]*>(.*?)</th>", html)]
    rows = [
        [unescape(c).strip() for c in re.findall(r"<td [^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)[1:]
    ]
    return {h: [r[k] for r in rows] for k, h in enumerate(heads)}


def test_table_formats_each_column_by_its_role_and_leaves_the_frame_alone(tmp_path):
    frame = pd.DataFrame(
        {
            "system": ["X", "Y"],
            "p": [0.03215, 0.00002],
            "p_holm": [1.0, float("nan")],
            "pooled_p": [0.5, 0.0004],
            "share_B_higher": [0.456, 1.0],
            "marked_percent": [45.61, 3.0],
            "n": [12.0, 3.0],
            "n_units": [4, 5],
            "rho": [0.123456, -0.00001],
            "cluster_ci_low": [0.1, -0.2],
            "cluster_ci_high": [0.3, 0.25],
        }
    )
    frame.to_csv(tmp_path / "before.csv", index=False)
    cells = _cells(report.table(frame))
    assert cells["p"] == ["0.032", "< 0.001"]  # as the book prints p, 3 decimals
    assert cells["p holm"] == ["1.000", "NA"] and cells["pooled p"] == ["0.500", "< 0.001"]
    assert cells["share B higher"] == ["45.6%", "100.0%"]  # shares as percentages
    assert cells["marked percent"] == ["45.6%", "3.0%"]  # already in percent
    assert cells["n"] == ["12", "3"] and cells["n units"] == ["4", "5"]  # counts as integers
    assert cells["rho"] == ["0.123", "0.000"]  # the rest to decimals, never -0.000
    assert cells["cluster interval"] == ["[0.100, 0.300]", "[-0.200, 0.250]"]  # one interval column
    assert "cluster ci low" not in cells
    frame.to_csv(tmp_path / "after.csv", index=False)  # only the display changed
    assert (tmp_path / "before.csv").read_bytes() == (tmp_path / "after.csv").read_bytes()


def test_table_keeps_interval_columns_the_caller_asks_for():
    frame = pd.DataFrame({"d": [0.5], "ci_low": [0.1], "ci_high": [0.9], "null_ci_low": [-1.5], "null_ci_high": [1.5]})
    cells = _cells(report.table(frame, decimals=2, columns=["d", "interval", "null_ci_low", "null_ci_high"]))
    assert cells == {"d": ["0.50"], "interval": ["[0.10, 0.90]"], "null ci low": ["-1.50"], "null ci high": ["1.50"]}
    named = _cells(report.table(frame, decimals=1, intervals={"95% CI": ("ci_low", "ci_high")}))
    assert named["95% CI"] == ["[0.1, 0.9]"] and named["null interval"] == ["[-1.5, 1.5]"]


def test_registered_labels_head_the_columns_unless_the_table_names_its_own():
    report.register_labels({"test_weighted_kappa": "weighted κ", "test_other": "other"})
    report.register_labels({"test_weighted_kappa": "weighted κ"})  # again, the same: nothing happens
    frame = pd.DataFrame({"test_weighted_kappa": [0.5], "test_other": [1.5]})
    assert list(_cells(report.table(frame))) == ["weighted κ", "other"]
    assert list(_cells(report.table(frame, labels={"test_other": "mine"}))) == ["weighted κ", "mine"]
    with pytest.raises(ValueError, match="already labelled"):
        report.register_labels({"test_weighted_kappa": "kappa"})


def test_the_studies_register_their_labels_without_a_clash():
    import importlib

    for study in ("metahope", "explanations", "slang", "wmt", "metrics", "figurative"):
        importlib.import_module(f"helpers.{study}.figures")  # registering twice or together raises on a clash
    labels = report.registered_labels()
    assert labels["pooled_rho"] == "pooled ρ" and labels["p_cluster_holm"] == "Holm p (sentences)"


def test_a_data_box_detail_is_a_section_of_the_chapters_words():
    own = report.Provenance.worded("own", "09_metrics", ["ref.txt"])
    assert own.files == ("ref.txt",) and own.kind == "own"
    assert own.detail == "Reference, system outputs and human scores passed to this notebook as papermill parameters."
    released = report.Provenance.worded("released", "10_figurative")
    assert released.detail.startswith("WMT22 ZH→EN in mt-metrics-eval's layout with Song &amp; Xu's")
    assert "Google's expert MQM ratings of ZH→EN (google/wmt-mqm-human-evaluation" in released.detail
    assert "(<code>data/authored/idiom_sample.csv</code>), sha256-verified by <code>.venv/bin/python" in released.detail
    assert released.detail in released.note().data


def test_a_share_already_in_percent_prints_once_as_a_percentage():
    """`raters.severity_bias` and `robustness.share_increased` hold percentages under share_*
    names: a share above 1 is read as a percentage, and a table can name a column's role."""
    frame = pd.DataFrame({"share_B_higher": [45.0, 0.0], "share_increased": [0.5, 1.0], "share_x": [0.25, 1.0]})
    cells = _cells(report.table(frame, roles={"share_increased": "percent"}))
    assert cells["share B higher"] == ["45.0%", "0.0%"]  # not 4500%
    assert cells["share increased"] == ["0.5%", "1.0%"]  # named: percent, though every value is at most 1
    assert cells["share x"] == ["25.0%", "100.0%"]  # a share proper


def test_every_missing_value_prints_as_na_one_way():
    # issue 43: chapter 08's ESA table printed pandas' <NA> (nullable integers) beside NA (NaN)
    frame = pd.DataFrame(
        {"system": ["a", "b"], "auto_rank": pd.array([1, pd.NA], dtype="Int64"), "autorank": [1.5, float("nan")]}
    )
    html = report.table(frame).to_html()
    assert "&lt;NA&gt;" not in html and "<NA>" not in html and html.count(">NA<") == 2
