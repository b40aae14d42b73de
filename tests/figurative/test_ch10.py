"""Chapter 10: the new analysis steps on simulated or hand-computed cases, the findings recomputed
from hand-made result CSVs, and the chapter run end to end on small hand-made MQM files whose
Chinese sources (written for this test) hold known idioms."""

from __future__ import annotations

import json

import krippendorff
import numpy as np
import pandas as pd
import pytest
from scipy.stats import pearsonr

from helpers.core.errors import InputError
from helpers.figurative import analysis, ch10, idioms


def _simulated(effects: dict[str, float], seed: int = 5, documents: int = 60) -> pd.DataFrame:
    """``documents`` documents of 5 segments rated by the systems of ``effects`` (system → its idiom
    effect); every third document has two idiom segments; penalty = 1 + effect·idiom +
    0.5·log(chars) + system shift + document shift + noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(documents):
        shift = rng.normal(0, 1.0)
        for s in range(5):
            idiom = d % 3 == 0 and s < 2
            chars = int(rng.integers(20, 120))
            for k, (system, effect) in enumerate(effects.items()):
                score = 1 + effect * idiom + 0.5 * np.log(chars) + 0.3 * k + shift + rng.normal(0, 0.8)
                rows.append({"dataset": "sim", "system": system, "doc": f"d{d}", "segment": f"d{d}:{s}",
                             "source_chars": chars, "score": score, "idiom": idiom})
    return pd.DataFrame(rows)


def test_per_system_effects_recover_each_systems_known_effect():
    table = _simulated({"GPT4-5shot": 3.0, "NMT-A": 0.0, "NMT-B": 0.0})
    got = analysis.system_effects(table, n_boot=400).set_index("system")
    assert got.loc["GPT4-5shot", "ci_low"] < 3.0 < got.loc["GPT4-5shot", "ci_high"]
    assert got.loc["GPT4-5shot", "ci_low"] > 0 and bool(got.loc["GPT4-5shot", "llm"])
    for system in ("NMT-A", "NMT-B"):
        assert got.loc[system, "ci_low"] < 0 < got.loc[system, "ci_high"] and not got.loc[system, "llm"]
    assert got["method"].eq("cluster_bootstrap").all() and got["idiom_segments"].eq(40).all()


def test_llm_contrast_recovers_a_known_difference_within_its_interval():
    table = _simulated({"GPT4-5shot": -1.0, "Lan-BridgeMT": -1.0, "NMT-A": 1.0, "NMT-B": 1.0})
    got = analysis.llm_contrast(table, n_boot=400).iloc[0]
    # LLM effect minus the others': -2. With 20 idiom documents the percentile bootstrap runs somewhat narrow
    # (over 30 simulated data sets the estimates' SD was 0.16, the mean bootstrap SE 0.13), so the check is
    # the estimate within three bootstrap SEs of the truth, and the difference detected.
    assert abs(got["estimate"] + 2.0) < 3 * got["se"] and got["ci_high"] < 0
    assert got["llm_systems"] == "GPT4-5shot, Lan-BridgeMT" and got["other_systems"] == 2
    assert got["mdd_80"] < 2.0
    # without an LLM system there is nothing to contrast
    assert np.isnan(analysis.llm_contrast(table[table["system"].str.startswith("NMT")], n_boot=50)["estimate"].iloc[0])


def _rated(source: str, doc: str, seg: int, penalties: dict[str, float]) -> list[dict]:
    """MQM rows of one (system S, segment) rated by each rater with one error of the given weight
    (5 Major, 1 Minor, 0 No-error)."""
    severity = {5.0: "Major", 1.0: "Minor", 0.0: "No-error"}
    return [{"system": "S", "doc": doc, "doc_seg_id": seg, "global_seg_id": seg, "rater": r, "source": source,
             "target": "x", "category": "No-error" if p == 0 else "Accuracy/Mistranslation",
             "severity": severity[p], "line": seg} for r, p in penalties.items()]


def test_alpha_by_idiom_matches_krippendorff_on_each_group():
    idiom_src, plain_src = "他们只会守株待兔。", "今天天气很好。"
    raters = {"idiom": [(5, 5, 1), (0, 1, 0), (5, 0, 5), (1, 1, 1)], "plain": [(5, 5, 5), (0, 0, 1), (1, 1, 1),
                                                                                (5, 1, 5), (0, 0, 0)]}
    rows = []
    for k, ps in enumerate(raters["idiom"]):
        rows += _rated(idiom_src, f"i{k}", k + 1, dict(zip(("a", "b", "c"), map(float, ps))))
    for k, ps in enumerate(raters["plain"]):
        rows += _rated(plain_src, f"p{k}", k + 10, dict(zip(("a", "b", "c"), map(float, ps))))
    got = analysis.agreement_by_idiom(pd.DataFrame(rows), n_boot=200).set_index("group")
    for group in ("idiom", "other"):
        data = np.array(raters["idiom" if group == "idiom" else "plain"], dtype=float).T
        assert got.loc[group, "estimate"] == pytest.approx(
            krippendorff.alpha(reliability_data=data, level_of_measurement="interval"))
    difference = got.loc["idiom", "estimate"] - got.loc["other", "estimate"]
    assert got.loc["difference", "estimate"] == pytest.approx(difference)
    assert got["units"].tolist() == [4, 5, 9] and got["documents"].tolist() == [4, 5, 9]
    assert got.loc["difference", "ci_low"] <= got.loc["difference", "estimate"] <= got.loc["difference", "ci_high"]


def test_metric_agreement_is_pearson_on_each_group():
    rng = np.random.default_rng(2)
    n = 60
    table = pd.DataFrame({"doc": [f"d{i // 3}" for i in range(n)], "segment": [str(i) for i in range(n)],
                          "score": rng.uniform(0, 10, n), "idiom": np.arange(n) % 4 == 0})
    table["chrf"] = 60 - 3 * table["score"] + rng.normal(0, np.where(table["idiom"], 20, 2))
    got = analysis.metric_agreement(table, n_boot=200).set_index("group")
    for group, mask in (("idiom", table["idiom"]), ("other", ~table["idiom"])):
        expected = pearsonr(table.loc[mask, "chrf"], -table.loc[mask, "score"])[0]
        assert got.loc[group, "estimate"] == pytest.approx(expected)
    assert got.loc["difference", "ci_high"] < 0  # the noisy idiom cells agree less, and the interval shows it
    assert got.loc["idiom", "cells"] == 15


def test_sentence_chrf_is_sacrebleus():
    from sacrebleu.metrics import CHRF

    assert analysis.sentence_chrf(["the cat sat"], ["the cat sat down"])[0] == pytest.approx(
        CHRF().sentence_score("the cat sat", ["the cat sat down"]).score)


def test_gallery_marks_overlapping_spans_once():
    assert ch10._marked("不要画蛇添足了", ["画蛇添足", "添足了"]) == "不要<mark>画蛇添足了</mark>"


def test_gallery_html_is_filled_from_the_words_file():
    row = {"segment": "d1#3", "idioms": "画蛇添足|", "source": "别画蛇添足", "rater": "r1"}
    table = pd.DataFrame([
        {**row, "system": "A<1>", "score": 5.0, "target": "no snake legs", "category": "Accuracy",
         "severity": "Major", "side": "target", "span": "snake"},
        {**row, "system": "A<1>", "score": 5.0, "target": "no snake legs", "category": "Style", "severity": "Minor",
         "side": "source", "span": ""},
        {**row, "system": "B", "score": 0.0, "target": "do not overdo it", "category": "", "severity": "",
         "side": "", "span": ""}])
    box = "<div style='border-left:4px solid #c9a227;padding:.3em 1em;margin:1em 0'>"
    assert ch10.gallery_html(table) == (
        f"{box}<p><code>d1#3</code>: 别<mark>画蛇添足</mark></p>"
        "<p><strong>A&lt;1&gt;</strong> (penalty 5.0): no <mark>snake</mark> legs</p>"
        "<ul><li>Major Accuracy (r1, target): «snake»</li><li>Minor Style (r1, source): «—»</li></ul>"
        "<p><strong>B</strong> (penalty 0.0): do not overdo it</p><p><em>no error marked</em></p></div>")
    assert ch10.gallery_html(table.iloc[:0]) == "<p><em>No WMT23 segment with an idiom in this run.</em></p>"


def test_setup_checks_its_parameters(tmp_path):
    with pytest.raises(InputError, match="detector"):
        ch10.setup(detector="loose")
    with pytest.raises(InputError, match="newstest2021_source"):
        ch10.setup(newstest2021=str(tmp_path))
    with pytest.raises(InputError, match="n_boot"):
        ch10.setup(n_boot=5)


# --------------------------------------------------------------------------- findings from saved CSVs
def _write(folder, name, frame):
    frame.to_csv(folder / f"{name}.csv", index=False)


@pytest.fixture
def saved(tmp_path):
    """A results folder with hand-chosen numbers: two data sets, one with an effect."""
    _write(tmp_path, "data_summary", pd.DataFrame(
        {"dataset": ["a", "b"], "file": ["a.tsv", "b.tsv"], "detector": "strict", "systems": [3, 4],
         "segments": [100, 50], "documents": [20, 50], "rows": [300, 200], "idiom_segments": [8, 6],
         "idiom_documents": [5, 4]}))
    _write(tmp_path, "detector_precision", pd.DataFrame(
        {"detector": ["raw", "strict"], "kept": [10, 4], "figurative": [2, 3], "precision": [0.2, 0.75],
         "precision_low": [0.05, 0.3], "precision_high": [0.5, 0.95], "recall": [1.0, 1.0],
         "psucmc_words": [94, 94], "psucmc_found": [1, 0]}))
    _write(tmp_path, "penalty_means", pd.DataFrame(
        {"dataset": ["a", "a", "b", "b"], "idiom": [False, True, False, True], "cells": [276, 24, 176, 24],
         "segments": [92, 8, 44, 6], "mean_score": [2.0, 3.5, 1.0, 1.0]}))
    cols = analysis.EFFECT_COLUMNS
    eff = pd.DataFrame([["a", "strict", "mixed", 1.2, 0.3, 0.6, 1.8, 0.84, 300, 100, 8, 20, True],
                        ["a", "strict", "cluster_bootstrap", 1.1, 0.3, 0.5, 1.7, 0.84, 300, 100, 8, 20, True],
                        ["a", "raw", "cluster_bootstrap", -0.2, 0.3, -0.8, 0.4, 0.84, 300, 100, 30, 20, True],
                        ["b", "strict", "mixed", 0.1, 0.5, -0.9, 1.1, 1.4, 200, 50, 6, 10, True]],
                       columns=["dataset", "detector"] + cols)
    _write(tmp_path, "idiom_effects", eff)
    _write(tmp_path, "category_effects", pd.DataFrame(
        [["a", "Accuracy", 2.0, 1.0, "cluster_bootstrap", 0.9, 0.2, 0.5, 1.3, 0.6, 300, 100, 8, 20, True],
         ["a", "Style", 0.0, 0.0, "cluster_bootstrap", 0.0, 0.0, 0.0, 0.0, 0.0, 300, 100, 8, 20, True],
         ["a", "Fluency", 0.4, 0.5, "cluster_bootstrap", -0.1, 0.1, -0.3, 0.1, 0.3, 300, 100, 8, 20, True]],
        columns=["dataset", "category", "idiom_mean", "other_mean"] + cols))
    _write(tmp_path, "span_summary", pd.DataFrame(
        [{"spans": 12, "documents": 4, "observed": 0.5, "chance": 0.2, "share": 0.1, "difference": 0.3,
          "ci_low": 0.1, "ci_high": 0.5, "ratio": 2.5}]))
    sys_rows = [["a", "X", False, "cluster_bootstrap", 2.0, 0.4, 1.2, 2.8, 1.1, 100, 100, 8, 20, True],
                ["a", "GPT4-5shot", True, "cluster_bootstrap", -0.5, 0.4, -1.3, 0.3, 1.1, 100, 100, 8, 20, True]]
    _write(tmp_path, "system_effects", pd.DataFrame(sys_rows, columns=["dataset", "system", "llm"] + cols))
    _write(tmp_path, "llm_contrast", pd.DataFrame(
        [{"dataset": "a", "llm_systems": "GPT4-5shot", "other_systems": 2, "estimate": -2.5, "se": 0.6,
          "ci_low": -3.7, "ci_high": -1.3, "mdd_80": 1.7, "idiom_segments": 8, "documents": 20}]))
    _write(tmp_path, "rater_agreement", pd.DataFrame(
        {"group": ["idiom", "other", "difference"], "estimate": [0.3, 0.5, -0.2], "ci_low": [0.1, 0.4, -0.4],
         "ci_high": [0.5, 0.6, 0.05], "units": [20, 80, 100], "documents": [5, 20, 20]}))
    _write(tmp_path, "metric_agreement", pd.DataFrame(columns=["group", "metric", "estimate", "ci_low", "ci_high",
                                                                "cells", "segments"]))
    return tmp_path


def test_findings_are_recomputed_from_the_saved_tables(saved):
    f = ch10.findings(saved).set_index(["quantity", "group"])
    assert f.loc[("detector", ""), "text"] == "strict"
    assert f.loc[("idiom_segments", ""), "value"] == 14 and f.loc[("idiom_segments", ""), "text"] == "150"
    assert f.loc[("psucmc_found", ""), "value"] == 0 and f.loc[("psucmc_found", ""), "text"] == "94"
    assert f.loc[("raw_difference", "a"), "value"] == pytest.approx(1.5)
    assert f.loc[("effect", "a"), "value"] == 1.2 and f.loc[("effect", "a"), "mdd"] == 0.84
    assert f.loc[("any_effect", ""), "value"] == 1  # a's interval lies above zero
    assert f.loc[("largest_mdd", ""), "value"] == 1.4 and f.loc[("smallest_mdd", ""), "value"] == 0.84
    assert f.loc[("sign_flips", ""), "value"] == 1  # a: +1.1 strict, -0.2 raw
    assert f.loc[("largest_category", ""), "text"] == "Accuracy (a)"  # Style (all zero) is left out
    assert f.loc[("categories_excluding_zero", ""), "value"] == 1 and f.loc[("categories_excluding_zero", ""),
                                                                             "text"] == "2"
    assert f.loc[("span_gathers", ""), "value"] == 1 and f.loc[("span_ratio", ""), "value"] == 2.5
    assert f.loc[("system_high", "a"), "text"] == "X" and f.loc[("system_low", "a"), "text"] == "GPT4-5shot"
    assert f.loc[("system_range", "a"), "value"] == pytest.approx(2.5)
    assert f.loc[("llm_difference", "a"), "value"] == -2.5
    assert f.loc[("alpha_difference", ""), "value"] == -0.2 and f.loc[("alpha_lower", ""), "value"] == 0
    # no metric scores (own files): the quantities are there, not applicable
    assert np.isnan(f.loc[("metric_r_idiom", ""), "value"]) and np.isnan(f.loc[("metric_differs", ""), "value"])


def test_the_words_render_from_the_findings(saved):
    from helpers.core import Words

    words = Words("10_figurative")
    text = words.text("findings", ch10.findings(saved))
    assert "`strict` flags 14 of 150 rated segments" in text and "0 of the 94 single-word metaphors" in text
    assert "At least one interval excludes zero" in text and "changes sign between detectors" in text
    assert "**Metrics.**" not in text  # not applicable without texts
    assert "+0.30 [+0.10, +0.50]" in text
    data = words.text("data", ch10.findings(saved))
    assert "8 of 100 segments have an idiom, in 5 of 20 documents" in data
    # b's file names no documents (newstest2021's score file): its 50 segments are 50 clusters, not documents
    assert "6 of 50 segments have an idiom, and the file names no documents" in data and "of 50 documents" not in data


# --------------------------------------------------------------------------- the chapter on small files
IDIOM_SENTENCES = ["我们做事不能刻舟求剑。", "他总是守株待兔，等别人来帮忙。", "大雨让交通雪上加霜。",
                   "这段说明画蛇添足，读者反而糊涂。", "发现问题后马上亡羊补牢。", "公司又一次守株待兔。"]
PLAIN_SENTENCES = ["今天下午会议在三楼举行。", "这家商店周末营业到晚上九点。", "学生们正在图书馆复习功课。",
                   "新的公交线路下个月开通。", "医院增加了两名儿科医生。", "城市的公园里种了很多树。",
                   "他每天早上骑自行车上班。", "这本书一共有十二章。", "明天的气温比今天低。", "工厂去年的产量提高了。"]


def _mqm_file(path, systems, raters, spans: bool, seed: int):
    """A small MQM TSV: 8 documents of 2 segments (6 idiom segments), every system rated by every rater;
    idiom segments draw more Major errors, marked on the idiom in the source when ``spans``."""
    rng = np.random.default_rng(seed)
    sources = IDIOM_SENTENCES + PLAIN_SENTENCES
    order = rng.permutation(len(sources))
    lines = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"]
    for k, i in enumerate(order):
        doc, seg = f"doc{k // 2}", k + 1
        source = sources[i]
        for system in systems:
            for rater in raters:
                error = rng.random() < (0.7 if i < len(IDIOM_SENTENCES) else 0.3)
                if not error:
                    lines.append(f"{system}\t{doc}\t{k % 2 + 1}\t{seg}\t{rater}\t{source}\tA fine sentence."
                                 "\tNo-error\tno-error")
                    continue
                marked, target = source, "A <v>wrong</v> sentence."
                if spans and i < len(IDIOM_SENTENCES):
                    m = idioms.find_idioms(pd.Series([source]), "filtered").iloc[0]
                    marked = source[:m["start"]] + "<v>" + source[m["start"]:m["end"]] + "</v>" + source[m["end"]:]
                    target = "A wrong sentence."
                severity = "Major" if rng.random() < 0.5 else "Minor"
                category = "Accuracy/Mistranslation" if rng.random() < 0.6 else "Fluency/Grammar"
                lines.append(f"{system}\t{doc}\t{k % 2 + 1}\t{seg}\t{rater}\t{marked}\t{target}\t{category}"
                             f"\t{severity}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
def test_chapter_runs_on_small_hand_made_files(tmp_path):
    from helpers.core.book import execution
    from helpers.core import paths

    src = tmp_path / "news.zh"
    src.write_text("\n".join(IDIOM_SENTENCES + PLAIN_SENTENCES) + "\n", encoding="utf-8")
    scores = ["system mqm_avg_score seg_id"] + [f"{s} {-(3.0 if i <= 6 else 1.0) - 0.5 * k} {i}"
                                                for k, s in enumerate(("sysA", "sysB", "sysC"))
                                                for i in range(1, 17)]
    (tmp_path / "news.tsv").write_text("\n".join(scores) + "\n", encoding="utf-8")
    _mqm_file(tmp_path / "ted.tsv", ["sysA", "sysB"], ["r1", "r2"], spans=False, seed=1)
    _mqm_file(tmp_path / "wmt23.tsv", ["GPT4-5shot", "sysA", "sysB"], ["r1", "r2", "r3"], spans=True, seed=2)
    out = execution.execute_notebook(
        paths.project_root() / "notebooks" / "10_figurative.ipynb", tmp_path / "run.ipynb",
        parameters={"newstest2021": str(tmp_path / "news.tsv"), "newstest2021_source": str(src),
                    "ted": str(tmp_path / "ted.tsv"), "wmt23": str(tmp_path / "wmt23.tsv"), "n_boot": 100,
                    "results_dir": str(tmp_path / "res")})
    cells = json.loads(out.read_text(encoding="utf-8"))["cells"]
    shown = "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in cells for o in c.get("outputs", []))
    html = "\n".join("".join(o.get("data", {}).get("text/html", "")) for c in cells for o in c.get("outputs", []))
    assert "`filtered` flags 18 of 48 rated segments" in shown  # 6 of 16 in each of the three files
    assert "- newstest2021: 6 of 16 segments have an idiom" in shown
    # every source span is on the idiom: observed 1.00, more than chance
    assert "- **On the idiom?** 1.00 of" in shown
    assert "**Metrics.**" not in shown  # own files: no texts for chrF
    assert "GPT4-5shot" in shown  # the LLM contrast on the WMT23 file
    assert "<mark>刻舟求剑</mark>" in html or "<mark>守株待兔</mark>" in html
    res = tmp_path / "res" / "10_figurative"
    effects = pd.read_csv(res / "idiom_effects.csv")
    main = effects[(effects["dataset"] == "newstest2021") & (effects["method"] == "mixed")].iloc[0]
    assert main["estimate"] == pytest.approx(2.0, abs=1e-6)  # idiom segments were scored 2 points worse
    saved = pd.read_csv(res / "findings.csv")
    assert saved["quantity"].tolist() == ch10.findings(res)["quantity"].tolist()
    assert list(saved.columns[:8]) == ["section", "quantity", "group", "value", "ci_low", "ci_high", "p", "text"]


def test_figures_and_their_static_twins_show_the_given_numbers():
    import matplotlib.pyplot as plt

    from helpers.core.book import plots
    from helpers.figurative import figures

    per_system = analysis.system_effects(_simulated({"GPT4-5shot": 3.0, "NMT-A": 0.0}, documents=15), n_boot=100)
    fig = figures.system_effects(per_system)
    assert sorted(t.name for t in fig.data) == ["LLM-based", "NMT, online, human"]
    assert sorted(x for t in fig.data for x in t.x) == sorted(per_system["estimate"])
    summary = pd.DataFrame([{"spans": 12, "documents": 4, "observed": 0.5, "chance": 0.2, "share": 0.1,
                             "difference": 0.3, "ci_low": 0.1, "ci_high": 0.5, "ratio": 2.5}])
    assert list(figures.span_overlap(summary).data[0].y) == [0.5, 0.2]
    cats = pd.DataFrame({"dataset": "a", "category": ["Accuracy", "Style"], "idiom_mean": [2.0, 0.0],
                         "other_mean": [1.0, 0.0], "estimate": [0.9, 0.0], "ci_low": [0.2, 0.0], "ci_high": [1.3, 0.0]})
    bars = figures.categories(cats).data
    assert list(bars[0].x) == [2.0] and list(bars[1].x) == [1.0]  # the all-zero category is left out
    twin = plots.static(figures.categories(cats))
    assert len(twin.axes[0].patches) == 2  # one idiom bar, one other bar
    plt.close(twin)
