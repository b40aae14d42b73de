"""End to end: the book built from the fetched data, its result tables, and its live heatmap."""

from __future__ import annotations

import os

import pandas as pd
import pytest
from conftest import chromium_path

from helpers.core import published as cp

pytestmark = pytest.mark.slow

TABLES = {
    "table1_agreement": (["system"], ["system", "alpha", "weighted_kappa", "pearson_r", "exact_agreement",
                                      "total_a", "total_b"]),
    "table2_sentence_penalties": (["system"], ["system", "IMP", "RAM", "MIS", "STL", "PRF", "SEGS", "per_sentence"]),
    "table3_metaphor_penalties": (["system"], ["system", "IMP", "RAM", "MIS", "STL", "PRF", "SEGS", "per_sentence",
                                               "per_metaphor", "ratio_m_s"]),
    "table6_per_error_agreement": (["system", "error"], ["system", "error", "alpha", "weighted_kappa", "pearson_r",
                                                         "exact_agreement"]),
}


@pytest.mark.parametrize("table", sorted(TABLES))
def test_notebook_01_reproduces_published_table(built_book, table):
    keys, columns = TABLES[table]
    path = built_book["results"] / "01_metahope_pilot_v1" / f"{table}.csv"
    result = pd.read_csv(path)
    assert list(result.columns) == columns
    assert list(dict.fromkeys(result["system"])) == ["GoogleMT", "GPT-5.4", "Hunyuan-LLM-7B"]
    comparison = cp.compare_with_published(result, cp.read_published("metahope_pilot_v1", table), keys)
    assert comparison["match"].all(), comparison.loc[~comparison["match"]].to_string()


def test_rendered_pages_and_offline_plotly(built_book):
    html = built_book["html"]
    page = (html / "notebooks" / "01_metahope_pilot_v1.html").read_text(encoding="utf-8")
    assert "Real data: the study&#39;s released annotations" in page or "Real data: the study's released annotations" in page
    assert "_static/plotly.min.js" in page and "cdn.plot.ly" not in page
    assert (html / "_static" / "plotly.min.js").stat().st_size > 1_000_000
    for doc in ("index.html", "book/rerun.html", "book/data.html"):
        assert (html / doc).exists(), doc


@pytest.mark.browser
def test_heatmap_is_live_in_headless_chromium(built_book):
    browser_exe = chromium_path()
    if browser_exe is None:
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail("REQUIRE_BROWSER is set but Chromium is missing: apt-get install chromium chromium-driver")
        pytest.skip("Chromium not installed (apt-get install chromium chromium-driver)")
    from playwright.sync_api import sync_playwright

    page_url = (built_book["html"] / "notebooks" / "01_metahope_pilot_v1.html").resolve().as_uri()
    outside = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_exe, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 900})
            page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("file:", "data:", "blob:")) else None)
            page.goto(page_url)
            page.wait_for_function("() => window.Plotly && document.querySelectorAll('.js-plotly-plot').length >= 2",
                                   timeout=20_000)
            heatmap = page.locator(".js-plotly-plot").first
            heatmap.scroll_into_view_if_needed()
            trace_type = page.evaluate("() => document.querySelector('.js-plotly-plot').data[0].type")
            assert trace_type == "heatmap"
            assert page.locator(".js-plotly-plot").first.locator("g.hm image").count() == 1  # the drawn heatmap
            box = heatmap.locator(".nsewdrag").first.bounding_box()
            # the MIS column (3rd of 5) of the first row (GoogleMT), Table 6 alpha 0.484
            page.mouse.move(box["x"] + box["width"] * 2.5 / 5, box["y"] + box["height"] * 0.5 / 3)
            page.wait_for_selector(".hoverlayer .hovertext", timeout=5_000)
            hover = " ".join(page.locator(".hoverlayer .hovertext").all_text_contents())
        finally:
            browser.close()
    assert "GoogleMT" in hover and "MIS" in hover and "0.484" in hover
    assert outside == [], f"the page requested resources from outside: {outside}"


RESULT_COLUMNS = {
    "02_metahope_directions/error_profile.csv": ["direction", "system", "annotator", "n_items", "IMP", "RAM", "MIS",
                                                 "STL", "PRF", "SEGS", "items_with_error", "mean_penalty"],
    "02_metahope_directions/system_comparison.csv": ["direction", "annotator", "system_a", "system_b", "n_items",
                                                     "mean_a", "mean_b", "mean_difference", "ci_low", "ci_high",
                                                     "cohen_dz", "rank_biserial", "p_permutation", "p_holm", "mdd_80"],
    "03_metahope_pilot_v2/agreement_by_system.csv": ["system", "n_items", "n_raters", "ordinal_alpha",
                                                     "mean_weighted_kappa", "exact_score_agreement",
                                                     "exact_presence_agreement"],
    "03_metahope_pilot_v2/agreement_by_error.csv": ["error", "n_items", "n_raters", "ordinal_alpha",
                                                    "mean_weighted_kappa", "exact_score_agreement",
                                                    "exact_presence_agreement"],
    "03_metahope_pilot_v2/sentence_icc.csv": ["system", "n_items", "n_raters", "ordinal_alpha", "mean_weighted_kappa",
                                              "exact_score_agreement", "exact_presence_agreement", "icc2_1",
                                              "icc2_1_ci_low", "icc2_1_ci_high", "icc2_k", "icc2_k_ci_low",
                                              "icc2_k_ci_high"],
}


@pytest.mark.parametrize("name", sorted(RESULT_COLUMNS))
def test_result_files_of_chapters_2_and_3(built_book, name):
    table = pd.read_csv(built_book["results"] / name)
    assert list(table.columns) == RESULT_COLUMNS[name]
    assert len(table) >= 3 and table.select_dtypes("number").notna().any().all()


def test_directions_profile_matches_chapter_1_totals(built_book):
    """Chapter 2's EN->ZH totals are chapter 1's A/B totals (paper Table 1), found independently."""
    profile = pd.read_csv(built_book["results"] / "02_metahope_directions" / "error_profile.csv")
    en = profile[profile["direction"] == "EN→ZH"].pivot_table(index="system", columns="annotator", values="SEGS")
    published = cp.read_published("metahope_pilot_v1", "table1_agreement").set_index("system")
    for system in en.index:
        assert en.loc[system, "A"] == float(published.loc[system, "total_a"])
        assert en.loc[system, "B"] == float(published.loc[system, "total_b"])


def test_simulation_banner_exactly_on_simulated_pages(built_book):
    pages = {name: (built_book["html"] / "notebooks" / f"{name}.html").read_text(encoding="utf-8")
             for name in ("01_metahope_pilot_v1", "02_metahope_directions", "03_metahope_pilot_v2")}
    assert "SIMULATED DATA" in pages["03_metahope_pilot_v2"]
    assert "SIMULATED DATA" not in pages["01_metahope_pilot_v1"]
    assert "SIMULATED DATA" not in pages["02_metahope_directions"]


def test_pilot_v2_on_real_sheets_has_no_banner_and_needs_no_released_file(tmp_path, monkeypatch):
    """Given annotations, chapter 3 analyses them, shows no simulation box, and runs even where
    the released data were never fetched (the Table 12 item then says so)."""
    from helpers import metahope as mh
    from helpers.core import runner
    from helpers.metahope import simulate as sim

    truth = mh.read_workbook(mh.pilot_zh_en_file(), "truth")
    sheets = tmp_path / "class.csv"
    mh.to_long(sim.simulate_annotations(truth, sim.DEFAULT_PANEL[:3], seed=1)).to_csv(sheets, index=False)
    monkeypatch.setenv("HELPERS_RAW_DATA", str(tmp_path / "no-data-here"))
    out = runner.execute_notebook(runner.paths.project_root() / "notebooks" / "03_metahope_pilot_v2.ipynb",
                                  tmp_path / "run.ipynb",
                                  parameters={"annotations": str(sheets), "results_dir": str(tmp_path / "res")})
    text = out.read_text(encoding="utf-8")
    assert "data-simulated" not in text and "data-own" in text
    assert "has not been fetched" in text
    table = pd.read_csv(tmp_path / "res" / "03_metahope_pilot_v2" / "agreement_by_system.csv")
    assert table["n_raters"].tolist() == [3, 3, 3]
    assert not (tmp_path / "res" / "03_metahope_pilot_v2" / "sentence_icc.csv").exists()


RESULT_COLUMNS_EXPLANATIONS = {
    "04_explanation_judgements/reliability.csv": ["dimension", "alpha", "alpha_ci_low", "alpha_ci_high", "icc2_1",
                                                  "icc2_1_ci_low", "icc2_1_ci_high", "icc2_k", "icc2_k_ci_low",
                                                  "icc2_k_ci_high", "n_items", "n_raters"],
    "04_explanation_judgements/spearman.csv": ["dimension_a", "dimension_b", "rho", "p_value", "mark", "n"],
    "04_explanation_judgements/regression.csv": ["predictor", "beta", "se", "t", "p_value", "ci90_low", "ci90_high",
                                                 "vif"],
    "05_explanation_evaluator/evaluator_mae.csv": ["score", "train_mae", "test_mae", "delta", "test_r2",
                                                   "mean_baseline_mae", "similarity_baseline_mae"],
    "05_explanation_evaluator/disagreement_vs_error.csv": ["statistic", "value", "p_value", "n"],
}


@pytest.mark.parametrize("name", sorted(RESULT_COLUMNS_EXPLANATIONS))
def test_result_files_of_chapters_4_and_5(built_book, name):
    table = pd.read_csv(built_book["results"] / name)
    assert list(table.columns) == RESULT_COLUMNS_EXPLANATIONS[name]
    assert len(table) >= 6


def test_explanation_pages_carry_the_simulation_banner(built_book):
    for name in ("04_explanation_judgements", "05_explanation_evaluator"):
        page = (built_book["html"] / "notebooks" / f"{name}.html").read_text(encoding="utf-8")
        assert "SIMULATED DATA" in page, name


def test_homophone_chapter_results(built_book):
    folder = built_book["results"] / "06_homophones"
    spearman = pd.read_csv(folder / "homophone_spearman.csv")
    assert list(spearman.columns) == ["method", "scorer", "context", "rho", "p", "n"]
    assert (spearman["n"] == 25).all()
    candidates = pd.read_csv(folder / "candidates.csv")
    assert candidates["candidates"].sum() == 172 and candidates["identical"].all()
    top = pd.read_csv(folder / "top_homophones.csv")
    assert set(top["word"]) == {"尼玛", "特么", "卧槽", "草泥马", "劳资"} and top["rank"].max() == 5
    consistency = pd.read_csv(folder / "emotion_consistency.csv")
    assert list(consistency["group"]) == ["G0", "G1", "G2", "G3", "G4", "G5"]
    classifier = pd.read_csv(folder / "emotion_classifier.csv").set_index("metric")
    assert 0.5 < classifier.loc["macro_f1", "value"] < 1


def test_qe_robustness_chapter_results(built_book):
    folder = built_book["results"] / "07_qe_robustness"
    check = pd.read_csv(folder / "paper_tables_5_6_check.csv")
    assert list(check.columns) == ["model", "group", "metric", "raw", "g0", "pct_change_computed",
                                   "pct_change_printed", "diff"]
    assert len(check) == 90
    models = pd.read_csv(folder / "qe_models.csv")
    assert set(models["evaluated_on"]) == {"test (as released)", "test, posts not in train"} and len(models) == 4
    robust = pd.read_csv(folder / "robustness_method1.csv")
    assert set(robust["group"]) == {"G0", "M1G1", "M1G2", "M1G3", "M1G4", "M1G5"}
    assert (robust.loc[robust["group"] == "G0", "rho_pct_change"] == 0).all()
    counts = pd.read_csv(folder / "slang_counts.csv")
    assert counts["paper"].sum() == 167
