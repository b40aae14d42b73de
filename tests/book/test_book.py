"""End to end: the book built from the fetched data, its result tables, and its live heatmap."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from conftest import student_edition_strings
from helpers.core.formats import published as cp

pytestmark = pytest.mark.slow

TABLES = {
    "table1_agreement": (
        ["system"],
        ["system", "alpha", "weighted_kappa", "pearson_r", "exact_agreement", "total_a", "total_b"],
    ),
    "table2_sentence_penalties": (["system"], ["system", "IMP", "RAM", "MIS", "STL", "PRF", "SEGS", "per_sentence"]),
    "table3_metaphor_penalties": (
        ["system"],
        ["system", "IMP", "RAM", "MIS", "STL", "PRF", "SEGS", "per_sentence", "per_metaphor", "ratio_m_s"],
    ),
    "table6_per_error_agreement": (
        ["system", "error"],
        ["system", "error", "alpha", "weighted_kappa", "pearson_r", "exact_agreement"],
    ),
}


@pytest.mark.parametrize("table", sorted(TABLES))
def test_notebook_01_reproduces_published_table(built_book, table):
    keys, columns = TABLES[table]
    path = built_book["results"] / "01_metahope_pilot_v1" / f"{table}.csv"
    result = pd.read_csv(path)
    assert list(result.columns) == columns  # the published tables' layout: nothing appended
    assert list(dict.fromkeys(result["system"])) == ["GoogleMT", "GPT-5.4", "Hunyuan-LLM-7B"]
    comparison = cp.compare_with_published(result, cp.read_published("metahope_pilot_v1", table), keys)
    assert comparison["match"].all(), comparison.loc[~comparison["match"]].to_string()


CHAPTERS = [
    "01_metahope_pilot_v1",
    "02_metahope_directions",
    "03_metahope_pilot_v2",
    "04_explanation_judgements",
    "05_explanation_evaluator",
    "06_homophones",
    "07_qe_robustness",
    "08_wmt_mqm",
    "09_metrics",
    "10_figurative",
]


def _pages(html):
    return sorted(p for p in html.rglob("*.html") if "_static" not in p.parts and p.name not in ("genindex.html",))


def test_rendered_pages_load_plotly_only_where_there_is_a_figure(built_book):
    html = built_book["html"]
    for page in _pages(html):
        text = page.read_text(encoding="utf-8")
        has_figure = 'class="plotly-graph-div"' in text
        loads = re.search(r'<script[^>]*src="[^"]*plotly\.min\.js', text)
        assert bool(loads) == has_figure, page.name
        if loads:
            assert "defer" in loads.group(0), page.name  # never blocks the text
        assert "cdn.plot.ly" not in text and "THEBE_JS_URL = " not in text.replace("const THEBE_JS_URL = ", "", 1)
    assert (html / "_static" / "plotly.min.js").stat().st_size > 1_000_000
    assert not (built_book["stage"] / "_static" / "plotly.min.js").exists()
    for doc in ("index.html", "book/rerun.html", "book/data.html", "book/glossary.html", "book/bibliography.html"):
        assert (html / doc).exists(), doc
    page = (html / "notebooks" / "01_metahope_pilot_v1.html").read_text(encoding="utf-8")
    assert (
        "Real data: the study&#39;s released annotations" in page
        or "Real data: the study's released annotations" in page
    )


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_chapter_reads_like_a_chapter(built_book, chapter):
    """Learning goals, a findings section with content, exercises with solutions, citations, one figure per static
    twin, and no truncated tables."""
    page = (built_book["html"] / "notebooks" / f"{chapter}.html").read_text(encoding="utf-8")
    assert "Learning goals" in page
    found = re.search(r'<section id="what-this-chapter-found">(.*?)</section>', page, re.S)
    assert found and found.group(1).count("<li>") >= 3, "the findings section lists the run's results"
    assert page.count('class="admonition exercise') >= 3 or page.count("exercise admonition") >= 3
    assert "Solution to" in page
    assert "bibliography.html#" in page  # cited in full on the bibliography page
    assert not re.search(r"\.\.\.</td>", page), "a table cell was cut off"
    stage = json.loads((built_book["stage"] / "notebooks" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    outputs = [o.get("data", {}) for c in stage["cells"] for o in c.get("outputs", [])]
    figures = [o for o in outputs if "application/vnd.plotly.v1+json" in o]
    shown_png = [o for o in outputs if "image/png" in o and o not in figures]
    assert shown_png == [], "static twins are saved for print, not shown again in the page"
    assert figures and all("image/png" in o for o in figures), "each figure's output carries its twin for print"
    assert page.count('class="plotly-graph-div"') == len(figures) and "data:image/png" not in page


def test_solution_cells_run_and_state_what_they_compute(built_book):
    """Every code cell inside a solution executed without error and printed its answer."""
    for chapter in CHAPTERS:
        cells = json.loads((built_book["stage"] / "notebooks" / f"{chapter}.ipynb").read_text())["cells"]
        inside, seen = False, 0
        for cell in cells:
            text = "".join(cell["source"])
            if cell["cell_type"] == "markdown" and "{solution-start}" in text:
                inside = True
            elif cell["cell_type"] == "markdown" and "{solution-end}" in text:
                inside = False
            elif inside and cell["cell_type"] == "code":
                seen += 1
                outputs = cell.get("outputs", [])
                assert not [o for o in outputs if o.get("output_type") == "error"], (chapter, text[:80])
                assert any(o.get("output_type") in ("stream", "execute_result", "display_data") for o in outputs), (
                    chapter,
                    "a computational solution shows its answer",
                    text[:80],
                )
        assert seen >= 1, f"{chapter} has no computational solution"


def test_student_edition_has_no_solution_anywhere(built_book):
    from helpers.core import paths
    from helpers.core.book import build

    student = build.render(built_book["html"].parent, edition="student")
    everything = "".join(
        p.read_text(encoding="utf-8", errors="ignore")
        for p in student.rglob("*")
        if p.is_file() and p.suffix in (".html", ".js", ".txt", ".json", ".ipynb", ".md")
    )
    assert "solution-start" not in everything
    for text in student_edition_strings(built_book["html"]):
        assert text not in everything, text
    assert not (student / "_sources").exists()
    # nor the explanation items' answer key: their page is left out, and with it the CSV it offers for download
    key_row = re.compile(r">E002<.{0,2000}?>targeted<", re.S)  # an item's row with its designed failure
    assert key_row.search((built_book["html"] / "book" / "explanation_items.html").read_text(encoding="utf-8"))
    assert not (student / "book" / "explanation_items.html").exists()
    assert not list(student.rglob("metaphor_explanations.csv")) and not key_row.search(everything)
    assert "(instructor edition)" in (student / "book" / "course.html").read_text(encoding="utf-8")
    # the download links carry the student edition of every chapter's notebook, nothing else
    import nbformat

    from helpers.core.book import editions

    downloads = sorted(student.rglob("*.ipynb"))
    assert sorted(p.name for p in downloads) == [f"{c}.ipynb" for c in CHAPTERS]
    intro = (student / "book" / "intro.html").read_text(encoding="utf-8")
    for path in downloads:
        assert f'href="../{path.relative_to(student).as_posix()}"' in intro, path.name
        source = nbformat.read(paths.project_root() / "notebooks" / path.name, as_version=4)
        assert nbformat.read(path, as_version=4).cells == editions.student_notebook(source).cells
    chapter = (student / "notebooks" / "01_metahope_pilot_v1.html").read_text(encoding="utf-8")
    assert "ex-01-one-category" in chapter or "Exercise" in chapter  # the exercises stay


def test_findings_follow_the_data(tmp_path, two_annotators):
    """Chapter 1 re-run on a tiny own-data class: its findings are recomputed, not the released run's words."""
    from helpers.core import paths
    from helpers.core.book import execution

    out = execution.execute_notebook(
        paths.project_root() / "notebooks" / "01_metahope_pilot_v1.ipynb",
        tmp_path / "own.ipynb",
        parameters={
            "annotator_files": {k: str(v) for k, v in two_annotators.items()},
            "n_sentences": None,
            "n_boot": 200,
            "results_dir": str(tmp_path / "res"),
        },
    )
    cells = json.loads(out.read_text(encoding="utf-8"))["cells"]
    index = next(i for i, c in enumerate(cells) if "What this chapter found" in "".join(c["source"]))
    findings = "".join(
        "".join(o["data"].get("text/markdown", "")) for o in cells[index + 1].get("outputs", []) if "data" in o
    )
    assert "The 3 metaphors come from 2 sentences" in findings
    assert "published cells" not in findings and "65" not in findings


def test_directions_chapter_runs_on_a_small_class(tmp_path, two_annotators):
    """Chapter 2 on three items per direction, solutions included: the totals are the fixture's hand-known ones."""
    from helpers.core import paths
    from helpers.core.book import execution

    execution.execute_notebook(
        paths.project_root() / "notebooks" / "02_metahope_directions.ipynb",
        tmp_path / "own.ipynb",
        parameters={
            "en_zh_files": {k: str(v) for k, v in two_annotators.items()},
            "zh_en_files": {"C": str(two_annotators["B"])},
            "n_perm": 200,
            "n_boot": 200,
            "results_dir": str(tmp_path / "res"),
        },
    )
    profile = pd.read_csv(tmp_path / "res" / "02_metahope_directions" / "error_profile.csv")
    segs = profile.set_index(["direction", "system", "annotator"])["SEGS"].to_dict()
    assert segs == {
        ("EN→ZH", "GoogleMT", "A"): 4,
        ("EN→ZH", "GoogleMT", "B"): 16,
        ("EN→ZH", "GPT-5.4", "A"): 2,
        ("EN→ZH", "GPT-5.4", "B"): 2,
        ("ZH→EN", "GoogleMT", "C"): 16,
        ("ZH→EN", "GPT-5.4", "C"): 2,
    }
    assert (profile["n_items"] == 3).all()


RESULT_COLUMNS = {
    "02_metahope_directions/error_profile.csv": [
        "direction",
        "system",
        "annotator",
        "n_items",
        "IMP",
        "RAM",
        "MIS",
        "STL",
        "PRF",
        "SEGS",
        "items_with_error",
        "mean_penalty",
    ],
    "02_metahope_directions/system_comparison.csv": [
        "direction",
        "annotator",
        "system_a",
        "system_b",
        "n_items",
        "mean_a",
        "mean_b",
        "mean_difference",
        "ci_low",
        "ci_high",
        "cohen_dz",
        "rank_biserial",
        "p_permutation",
        "p_holm",
        "mdd_80",
    ],
    "02_metahope_directions/metaphor_types.csv": [
        "direction",
        "item",
        "sentence",
        "metaphor",
        "matched",
        "note",
        "corpus_sentence",
        "corpus_word",
        "word_index",
        "id_agrees",
        "metaphor_type",
        "subtype",
        "deliberate",
        "conventional",
    ],
    "02_metahope_directions/type_comparison.csv": [
        "direction",
        "contrast",
        "group_a",
        "group_b",
        "measure",
        "n_a",
        "n_b",
        "sentences_a",
        "sentences_b",
        "mean_a",
        "mean_b",
        "difference",
        "ci_low",
        "ci_high",
        "empty_share",
        "mdd_80",
        "df",
    ],
    "03_metahope_pilot_v2/study_plan.csv": [
        "data",
        "sentences",
        "raters",
        "alpha",
        "alpha_width",
        "difference_width",
        "difference_width_min",
        "difference_width_max",
        "margin",
        "power",
    ],
    "03_metahope_pilot_v2/agreement_by_system.csv": [
        "system",
        "n_items",
        "n_raters",
        "ordinal_alpha",
        "mean_weighted_kappa",
        "exact_score_agreement",
        "exact_presence_agreement",
    ],
    "03_metahope_pilot_v2/agreement_by_error.csv": [
        "error",
        "n_items",
        "n_raters",
        "ordinal_alpha",
        "mean_weighted_kappa",
        "exact_score_agreement",
        "exact_presence_agreement",
    ],
    "03_metahope_pilot_v2/sentence_icc.csv": [
        "system",
        "n_items",
        "n_raters",
        "ordinal_alpha",
        "mean_weighted_kappa",
        "exact_score_agreement",
        "exact_presence_agreement",
        "icc2_1",
        "icc2_1_ci_low",
        "icc2_1_ci_high",
        "icc2_k",
        "icc2_k_ci_low",
        "icc2_k_ci_high",
    ],
}


@pytest.mark.parametrize("name", sorted(RESULT_COLUMNS))
def test_result_files_of_chapters_2_and_3(built_book, name):
    """The contract columns come first, in order; new statistics may only be appended."""
    table = pd.read_csv(built_book["results"] / name)
    assert list(table.columns[: len(RESULT_COLUMNS[name])]) == RESULT_COLUMNS[name]
    assert len(table) >= 3 and table[RESULT_COLUMNS[name]].select_dtypes("number").notna().any().all()


def test_directions_profile_matches_chapter_1_totals(built_book):
    """Chapter 2's EN->ZH totals are chapter 1's A/B totals (paper Table 1), found independently."""
    profile = pd.read_csv(built_book["results"] / "02_metahope_directions" / "error_profile.csv")
    en = profile[profile["direction"] == "EN→ZH"].pivot_table(index="system", columns="annotator", values="SEGS")
    published = cp.read_published("metahope_pilot_v1", "table1_agreement").set_index("system")
    for system in en.index:
        assert en.loc[system, "A"] == float(published.loc[system, "total_a"])
        assert en.loc[system, "B"] == float(published.loc[system, "total_b"])


def test_simulation_banner_exactly_on_simulated_pages(built_book):
    pages = {
        name: (built_book["html"] / "notebooks" / f"{name}.html").read_text(encoding="utf-8")
        for name in ("01_metahope_pilot_v1", "02_metahope_directions", "03_metahope_pilot_v2")
    }
    assert "SIMULATED DATA" in pages["03_metahope_pilot_v2"]
    assert "SIMULATED DATA" not in pages["01_metahope_pilot_v1"]
    assert "SIMULATED DATA" not in pages["02_metahope_directions"]


def test_pilot_v2_on_real_sheets_has_no_banner_and_needs_no_released_file(tmp_path, monkeypatch):
    """Given annotations, chapter 3 analyses them, shows no simulation box, and runs even where
    the released data were never fetched: its disagreement section takes the team's own most
    disputed unit apart instead of the paper's Table 12 item, so no released sheet is read."""
    from helpers import metahope as mh
    from helpers.core import paths
    from helpers.core.book import execution
    from helpers.metahope import simulate as sim

    truth = mh.read_workbook(mh.pilot_zh_en_file(), "truth")
    sheets = tmp_path / "class.csv"
    mh.to_long(sim.simulate_annotations(truth, sim.DEFAULT_PANEL[:3], seed=1)).to_csv(sheets, index=False)
    monkeypatch.setenv("HELPERS_RAW_DATA", str(tmp_path / "no-data-here"))
    out = execution.execute_notebook(
        paths.project_root() / "notebooks" / "03_metahope_pilot_v2.ipynb",
        tmp_path / "run.ipynb",
        parameters={"annotations": str(sheets), "results_dir": str(tmp_path / "res")},
    )
    text = out.read_text(encoding="utf-8")
    assert "data-simulated" not in text and "data-own" in text
    assert "has not been fetched" not in text and "The most disputed" in text
    disputed = pd.read_csv(tmp_path / "res" / "03_metahope_pilot_v2" / "disputed_items.csv")
    assert len(disputed) == 5 and disputed["range"].is_monotonic_decreasing
    table = pd.read_csv(tmp_path / "res" / "03_metahope_pilot_v2" / "agreement_by_system.csv")
    assert table["n_raters"].tolist() == [3, 3, 3]
    assert not (tmp_path / "res" / "03_metahope_pilot_v2" / "sentence_icc.csv").exists()


#: Chapter 09's result files (a public contract; README, "Chapter 09 on your own files").
RESULT_COLUMNS_METRICS = {
    "09_metrics/metric_scores.csv": ["system", "segment", "metric", "score"],
    "09_metrics/reproduction.csv": ["system", "metric", "published", "computed", "difference"],
    "09_metrics/meta_evaluation.csv": ["level", "metric", "statistic", "estimate", "ci_low", "ci_high", "n"],
    "09_metrics/segment_choice.csv": ["metric", "statistic", "all", "rated", "difference"],
    "09_metrics/metric_comparison.csv": ["level", "statistic", "metric_a", "metric_b", "delta", "p"],
    "09_metrics/wmt22_meta_evaluation.csv": [
        "setting",
        "level",
        "metric",
        "statistic",
        "estimate",
        "ci_low",
        "ci_high",
        "n",
    ],
    "09_metrics/wmt22_comparison.csv": ["setting", "metric_a", "metric_b", "delta", "p"],
    "09_metrics/wmt22_clusters.csv": ["setting", "metric", "estimate", "rank", "p_next"],
    "09_metrics/protocol_ranks.csv": [
        "system",
        "mqm",
        "mqm_rank",
        "protocol",
        "protocol_rank",
        "bleu",
        "bleu_rank",
        "rank_shift",
    ],
    "09_metrics/edit_rate_agreement.csv": ["data", "statistic", "estimate", "ci_low", "ci_high", "n"],
}


@pytest.mark.parametrize("name", sorted(RESULT_COLUMNS_METRICS))
def test_result_files_of_chapter_9(built_book, name):
    table = pd.read_csv(built_book["results"] / name)
    assert list(table.columns) == RESULT_COLUMNS_METRICS[name]
    assert len(table) >= 3


#: Chapter 10's result files (a public contract; README, "Chapter 10 on your own files").
RESULT_COLUMNS_FIGURATIVE = {
    "10_figurative/data_summary.csv": [
        "dataset",
        "file",
        "detector",
        "idiom_by",
        "systems",
        "system_names",
        "human_systems",
        "segments",
        "documents",
        "domains",
        "rows",
        "idiom_segments",
        "idiom_documents",
        "estimable",
        "min_idiom_segments",
        "llm_systems",
    ],
    "10_figurative/detector_precision.csv": [
        "detector",
        "kept",
        "figurative",
        "precision",
        "precision_low",
        "precision_high",
        "recall",
        "figurative_b",
        "precision_b",
        "precision_b_low",
        "precision_b_high",
        "psucmc_words",
        "psucmc_found",
    ],
    "10_figurative/idiom_sample_agreement.csv": [
        "items",
        "agreement",
        "kappa",
        "figurative_a",
        "figurative_b",
        "a_only",
        "b_only",
    ],
    "10_figurative/detector_gold.csv": [
        "detector",
        "gold",
        "segments",
        "gold_segments",
        "flagged",
        "true_positives",
        "precision",
        "precision_low",
        "precision_high",
        "recall",
        "recall_low",
        "recall_high",
    ],
    "10_figurative/penalty_means.csv": ["dataset", "idiom", "cells", "segments", "mean_score"],
    "10_figurative/idiom_effects.csv": [
        "dataset",
        "detector",
        "sets",
        "method",
        "estimate",
        "se",
        "ci_low",
        "ci_high",
        "mdd_80",
        "perm_p",
        "rows",
        "segments",
        "idiom_segments",
        "documents",
        "few_clusters",
        "estimable",
    ],
    "10_figurative/mwe_contrast.csv": [
        "contrast",
        "estimate",
        "se",
        "ci_low",
        "ci_high",
        "mdd_80",
        "segments_a",
        "segments_b",
    ],
    "10_figurative/category_effects.csv": [
        "dataset",
        "category",
        "idiom_mean",
        "other_mean",
        "idiom_error_segments",
        "other_error_segments",
        "method",
        "estimate",
        "se",
        "ci_low",
        "ci_high",
        "mdd_80",
        "perm_p",
        "rows",
        "segments",
        "idiom_segments",
        "documents",
        "few_clusters",
        "estimable",
    ],
    "10_figurative/system_effects.csv": [
        "dataset",
        "system",
        "llm",
        "method",
        "estimate",
        "se",
        "ci_low",
        "ci_high",
        "mdd_80",
        "perm_p",
        "rows",
        "segments",
        "idiom_segments",
        "documents",
        "few_clusters",
        "estimable",
    ],
    "10_figurative/human_translations.csv": [
        "group",
        "systems",
        "estimate",
        "se",
        "ci_low",
        "ci_high",
        "mdd_80",
        "idiom_segments",
        "estimable",
    ],
    "10_figurative/metric_residuals.csv": [
        "metric",
        "kind",
        "method",
        "estimate",
        "se",
        "ci_low",
        "ci_high",
        "mdd_80",
        "perm_p",
        "rows",
        "segments",
        "idiom_segments",
        "documents",
        "few_clusters",
        "estimable",
    ],
    "10_figurative/metric_accuracy.csv": ["metric", "kind", "group", "estimate", "ci_low", "ci_high", "p", "segments"],
    "10_figurative/token_tags.csv": ["scope", "group", "estimate", "ci_low", "ci_high", "tokens", "posts"],
    "10_figurative/rater_agreement.csv": ["group", "estimate", "ci_low", "ci_high", "units", "documents"],
}


ONE_ROW_FIGURATIVE = {"10_figurative/idiom_sample_agreement.csv"}


@pytest.mark.parametrize("name", sorted(RESULT_COLUMNS_FIGURATIVE))
def test_result_files_of_chapter_10(built_book, name):
    table = pd.read_csv(built_book["results"] / name)
    assert list(table.columns) == RESULT_COLUMNS_FIGURATIVE[name]
    if name in ONE_ROW_FIGURATIVE:
        assert len(table) == 1  # one pooled summary of the authored sample
    else:
        assert len(table) >= 3


RESULT_COLUMNS_EXPLANATIONS = {
    "04_explanation_judgements/reliability.csv": [
        "dimension",
        "alpha",
        "alpha_ci_low",
        "alpha_ci_high",
        "icc2_1",
        "icc2_1_ci_low",
        "icc2_1_ci_high",
        "icc2_k",
        "icc2_k_ci_low",
        "icc2_k_ci_high",
        "n_items",
        "n_raters",
    ],
    "04_explanation_judgements/spearman.csv": ["dimension_a", "dimension_b", "rho", "p_value", "mark", "n"],
    "04_explanation_judgements/regression.csv": [
        "predictor",
        "beta",
        "se",
        "t",
        "p_value",
        "ci90_low",
        "ci90_high",
        "vif",
    ],
    "05_explanation_evaluator/evaluator_mae.csv": [
        "score",
        "train_mae",
        "test_mae",
        "delta",
        "test_r2",
        "mean_baseline_mae",
        "similarity_baseline_mae",
    ],
    "05_explanation_evaluator/disagreement_vs_error.csv": ["statistic", "value", "p_value", "n"],
}


@pytest.mark.parametrize("name", sorted(RESULT_COLUMNS_EXPLANATIONS))
def test_result_files_of_chapters_4_and_5(built_book, name):
    table = pd.read_csv(built_book["results"] / name)
    assert list(table.columns[: len(RESULT_COLUMNS_EXPLANATIONS[name])]) == RESULT_COLUMNS_EXPLANATIONS[name]
    assert len(table) >= 6


def test_explanation_pages_carry_the_simulation_banner(built_book):
    for name in ("04_explanation_judgements", "05_explanation_evaluator"):
        page = (built_book["html"] / "notebooks" / f"{name}.html").read_text(encoding="utf-8")
        assert "SIMULATED DATA" in page, name


def test_homophone_chapter_results(built_book):
    folder = built_book["results"] / "06_homophones"
    spearman = pd.read_csv(folder / "homophone_spearman.csv")
    assert list(spearman.columns[:6]) == ["method", "scorer", "context", "rho", "p", "n"]
    assert (spearman["n"] == 25).all()
    candidates = pd.read_csv(folder / "candidates.csv")
    assert candidates["candidates"].sum() == 172 and candidates["identical"].all()
    top = pd.read_csv(folder / "top_homophones.csv")
    assert set(top["word"]) == {"尼玛", "特么", "卧槽", "草泥马", "劳资"} and top["rank"].max() == 5
    consistency = pd.read_csv(folder / "emotion_consistency.csv")
    assert list(consistency["group"]) == ["G0", "G1", "G2", "G3", "G4", "G5"]
    classifier = pd.read_csv(folder / "emotion_classifier.csv").set_index("metric")
    assert 0.5 < classifier.loc["macro_f1", "value"] < 1
    ladder = pd.read_csv(folder / "lm_ladder.csv")
    from helpers.slang.ladder import DEFAULT_LADDER, rung_family

    rungs = built_book["parameters"]["lm_ladder"]  # the test build's shorter ladder: every family of the default
    assert set(rungs) <= set(DEFAULT_LADDER) and set(map(rung_family, rungs)) == set(map(rung_family, DEFAULT_LADDER))
    assert list(dict.fromkeys(ladder["rung"])) == rungs and set(ladder["context"]) == {"with", "without"}
    assert (ladder["n"] == 25).all() and ladder["p_within_word"].between(0, 1).all()
    assert (ladder["heldout_perplexity"] > 1).all()
    models = pd.read_csv(folder / "lm_ladder_models.csv")
    assert list(models["rung"]) == rungs
    coverage = pd.read_csv(folder / "lm_word_list_coverage.csv")
    assert coverage.groupby("rung")["n"].sum().to_dict() == {"jieba": 172, "wordfreq": 172}


def test_qe_robustness_chapter_results(built_book):
    folder = built_book["results"] / "07_qe_robustness"
    check = pd.read_csv(folder / "paper_tables_5_6_check.csv")
    assert list(check.columns) == [
        "model",
        "group",
        "metric",
        "raw",
        "g0",
        "pct_change_computed",
        "pct_change_printed",
        "diff",
    ]
    assert len(check) == 90
    models = pd.read_csv(folder / "qe_models.csv")
    assert set(models["evaluated_on"]) == {"test (as released)", "test, posts not in train"}
    assert len(models) == 2 * len(built_book["parameters"]["qe_models"])
    robust = pd.read_csv(folder / "robustness_method1.csv")
    assert set(robust["group"]) == {"G0", "M1G1", "M1G2", "M1G3", "M1G4", "M1G5"}
    assert (robust.loc[robust["group"] == "G0", "rho_pct_change"] == 0).all()
    counts = pd.read_csv(folder / "slang_counts.csv")
    assert counts["paper"].sum() == 167
