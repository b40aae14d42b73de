"""Chapter 10 true on any file, and clear on bad input (issue 41, point 8).

The chapter runs on small hand-made files of the four forms it reads, rated for four systems
under new names: its page names those systems and their count, no LLM of the default
``llm_systems`` and nothing of WMT23's released data; named as ``llm_systems``, two of them get
the LLM comparison. A source without Chinese and a file without its ``source`` column are refused
with a message naming the file (and the column). The sentences below are written for this test.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.figurative import ch10

#: Four systems under names none of the released sets uses, none of them in ch10.LLM_SYSTEMS.
SYSTEMS = ("Heron-MT", "Ibis-NMT", "Kite-LM", "Lark-LM")
#: One idiom each (found by the default detector, the Xinhua list), written for this test.
IDIOM_SOURCES = [
    "他做事总是半途而废，计划一个也没完成。",
    "这次搬家顺便清理旧物，可谓一举两得。",
    "两位老人在公园里一见如故，聊了一下午。",
    "听完师傅的解释，小王恍然大悟。",
    "街口那家面馆的生意蒸蒸日上。",
    "村民们齐心协力修好了那座木桥。",
    "推销员把产品说得天花乱坠，顾客却不买账。",
    "比赛的结果完全出乎意料。",
    "新来的厨师做菜总是画龙点睛。",
    "遇到困难时他从不临阵脱逃。",
]
#: No idiom in any detector, written for this test.
PLAIN_SOURCES = [
    "今天下午三点在二楼开会。",
    "这条河的水比去年清了很多。",
    "我妹妹明年九月上大学。",
    "火车站附近新开了一家书店。",
    "请把窗户关上，外面有点冷。",
    "他每天早上六点起床跑步。",
    "这台电脑的屏幕有点小。",
    "周末我们打算去超市买菜。",
    "图书馆的开放时间延长到晚上十点。",
    "小区里的路灯昨天修好了。",
]
ENGLISH_SOURCES = [
    "The meeting starts at three in the afternoon.",
    "The river is much cleaner than last year.",
    "He gave up halfway, as he always does.",
    "Both old men became friends at first sight.",
]
#: The WMT23 three-rater file's header (google/wmt-mqm-human-evaluation, generalMT2023).
WMT23_HEADER = ["system", "doc", "docSegId", "globalSegId", "rater", "source", "target", "category", "severity"]


def _sources() -> list[str]:
    """Idiom and plain sources interleaved, so every two-segment document may hold either."""
    return [s for pair in zip(IDIOM_SOURCES, PLAIN_SOURCES, strict=True) for s in pair]


def _penalty(source: str, k: int, rng) -> int:
    """Errors of one rating: more on idiom sources, more for later systems."""
    return int(rng.poisson(1.2 if source in IDIOM_SOURCES else 0.5) + (k % 2))


def write_mqm(path, sources, systems=SYSTEMS, raters=("r1", "r2", "r3"), seed=0, header=WMT23_HEADER):
    """An MQM error file in WMT23's form (one row per error, a ``No-error`` row for a rating without
    one, the error span ``<v>…</v>`` in the source for omissions, a JSON ``metadata`` column);
    documents of two segments."""
    rng = np.random.default_rng(seed)
    lines = ["\t".join([*header, "metadata"])]
    for k, system in enumerate(systems):
        for i, source in enumerate(sources):
            doc = f"story{i // 2}:zh-en"
            for rater in raters:
                base = {"system": system, "doc": doc, "docSegId": str(i % 2 + 1), "globalSegId": str(i + 1)}
                base |= {"rater": rater, "source": source, "target": f"Sentence {i} by {system}."}
                n = _penalty(source, k, rng)
                rows = [base | {"category": "No-error", "severity": "no-error"}] if n == 0 else []
                for e in range(n):
                    omission = e == 0 and source in IDIOM_SOURCES
                    row = base | {"severity": "Major" if rng.random() < 0.4 else "Minor"}
                    if omission:
                        row |= {"source": "<v>" + source[:4] + "</v>" + source[4:], "category": "Accuracy/Omission"}
                    else:
                        row |= {"target": f"<v>Sentence</v> {i} by {system}.", "category": "Fluency/Grammar"}
                    rows.append(row)
                for row in rows:
                    meta = json.dumps({"timestamp": int(rng.integers(1e9)), "note": "x" * 40})
                    lines.append("\t".join([*(row[c] for c in header), meta]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_newstest(folder, sources, systems=SYSTEMS, seed=1):
    """A per-segment score file (``system mqm_avg_score seg_id``, the negated mean penalty) and its
    source, one segment per line."""
    rng = np.random.default_rng(seed)
    source = folder / "news.zh"
    source.write_text("\n".join(sources) + "\n", encoding="utf-8")
    rows = ["system mqm_avg_score seg_id"]
    for k, system in enumerate(systems):
        rows += [f"{system}\t{-_penalty(s, k, rng):.1f} {i + 1}" for i, s in enumerate(sources)]
    scores = folder / "news.avg_seg_scores.tsv"
    scores.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return scores, source


def write_mtme(folder, sources, systems=SYSTEMS, seed=2):
    """A ZH→EN set in mt-metrics-eval's layout: sources, reference A, outputs, documents (two
    domains), negated MQM segment scores, one reference-based and one QE metric."""
    rng = np.random.default_rng(seed)
    lp = "zh-en"
    n = len(sources)
    files = {
        f"sources/{lp}.txt": sources,
        f"references/{lp}.refA.txt": [f"Reference sentence {i}." for i in range(n)],
        f"documents/{lp}.docs": [f"{('news', 'social')[i // 10]}\tdoc{i // 2}" for i in range(n)],
    }
    mqm, ref_metric, qe_metric = [], [], []
    for k, system in enumerate(systems):
        files[f"system-outputs/{lp}/{system}.txt"] = [f"Output sentence {i} of {system}." for i in range(n)]
        for s in sources:
            p = _penalty(s, k, rng)
            mqm.append(f"{system}\t{-p:.1f}")
            ref_metric.append(f"{system}\t{-p + rng.normal(0, 1):.4f}")
            qe_metric.append(f"{system}\t{rng.normal(0, 1):.4f}")
    files[f"human-scores/{lp}.mqm.seg.score"] = mqm
    files[f"metric-scores/{lp}/Tiny-refA.seg.score"] = ref_metric
    files[f"metric-scores/{lp}/TinyQE-src.seg.score"] = qe_metric
    for name, lines in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def own_files(tmp_path, sources=None) -> dict:
    """The chapter's four data parameters, each a small hand-made file of its form."""
    sources = _sources() if sources is None else sources
    news, news_source = write_newstest(tmp_path, sources)
    return {
        "wmt22": str(write_mtme(tmp_path / "wmt22", sources)),
        "newstest2021": str(news),
        "newstest2021_source": str(news_source),
        "ted": str(write_mqm(tmp_path / "ted.tsv", sources, raters=("r1",), seed=3)),
        "wmt23": str(write_mqm(tmp_path / "renamed4.tsv", sources, seed=4)),
    }


def _run(tmp_path, **parameters) -> tuple[list, str, object]:
    """Chapter 10 through papermill on :func:`own_files`: the executed cells, every Markdown output, the results."""
    from helpers.core import paths
    from helpers.core.book import execution

    out = execution.execute_notebook(
        paths.project_root() / "notebooks" / "10_figurative.ipynb",
        tmp_path / "run.ipynb",
        parameters=own_files(tmp_path)
        | {"min_idiom_segments": 5, "n_boot": 100, "results_dir": str(tmp_path / "res")}
        | parameters,
    )
    cells = json.loads(out.read_text(encoding="utf-8"))["cells"]
    shown = "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in cells for o in c.get("outputs", []))
    return cells, shown, tmp_path / "res" / "10_figurative"


def _found(cells) -> str:
    """The Markdown under "What this chapter found"."""
    index = next(i for i, c in enumerate(cells) if "## What this chapter found" in "".join(c["source"]))
    return "".join("".join(o.get("data", {}).get("text/markdown", "")) for o in cells[index + 1]["outputs"])


@pytest.mark.slow
def test_a_renamed_four_system_file_is_reported_as_such(tmp_path):
    """Four sets of four renamed systems, the default ``llm_systems``: every sentence names those four
    systems and their count, says that no system of ``llm_systems`` is present, and nothing of WMT23's
    released data (10 systems, GPT4-5shot); the findings state the detector, its measured precision
    (Wilson, by statsmodels) and what each set excludes; the metric steps keep ``min_idiom_segments``."""
    import re

    from statsmodels.stats.proportion import proportion_confint

    cells, shown, res = _run(tmp_path)
    html = "\n".join("".join(o.get("data", {}).get("text/html", "")) for c in cells for o in c.get("outputs", []))
    assert "data-own" in html and "data-released" not in html
    summary = pd.read_csv(res / "data_summary.csv")
    assert summary["dataset"].tolist() == ["wmt22", "newstest2021", "ted", "wmt23"]
    assert summary["systems"].tolist() == [4] * 4 and set(summary["system_names"]) == {"; ".join(SYSTEMS)}
    assert shown.count(f"4 systems rated ({'; '.join(SYSTEMS)})") == 4
    assert re.findall(r"(\d+) systems rated", shown) == ["4"] * 4
    assert set(pd.read_csv(res / "system_effects.csv")["system"]) == set(SYSTEMS)
    absent = "none of the systems named as LLM-based (`llm_systems`: GPT4-5shot, Lan-BridgeMT) is in this set"
    for dataset in summary["dataset"]:
        assert f"- {dataset}: {absent}, so it has no LLM comparison." in shown
    rest = shown.replace(absent, "")
    assert "GPT4-5shot" not in rest and "Lan-BridgeMT" not in rest and "10 systems" not in shown
    assert "LLM-based systems (" not in shown and pd.read_csv(res / "llm_contrast.csv")["estimate"].isna().all()
    found = _found(cells)
    # the detector and its measured precision: figurative matches of the authored sample, Wilson interval
    p = pd.read_csv(res / "detector_precision.csv").set_index("detector").loc["xinhua"]
    low, high = proportion_confint(p["figurative"], p["kept"], method="wilson")
    assert p["precision"] == pytest.approx(p["figurative"] / p["kept"])
    assert (p["precision_low"], p["precision_high"]) == pytest.approx((low, high))
    assert (
        f"No set of this run has hand labels: every set's flag is the detector `xinhua`; of its matches in the "
        f"authored sample {p['precision']:.2f} [{low:.2f}, {high:.2f}] are used figuratively" in found
    )
    # what each set excludes, from its own interval
    effects = pd.read_csv(res / "idiom_effects.csv")
    own = effects[effects["detector"] == "xinhua"].set_index("dataset")
    assert own["estimable"].all() and own["idiom_segments"].tolist() == [10] * 4
    for dataset, r in own.iterrows():
        if r["ci_low"] > 0 or r["ci_high"] < 0:
            said = f"this set places it between {r['ci_low']:+.1f} and {r['ci_high']:+.1f} points"
        else:
            said = f"this set excludes idiom penalties above {r['ci_high']:+.1f} and below {r['ci_low']:+.1f} points"
        assert f"  - {dataset}: {r['estimate']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}] MQM points" in found
        assert said in found.split(f"  - {dataset}: ")[1].split("\n")[0]
    # min_idiom_segments holds for the metric steps too: 10 idiom segments of 20 are enough for every metric
    residuals = pd.read_csv(res / "metric_residuals.csv")
    assert set(residuals["metric"]) == {"(none)", "Tiny-refA", "TinyQE-src", "BLEU (book)", "chrF (book)"}
    assert "**Which metrics miss idioms.**" in found
    saved = pd.read_csv(res / "findings.csv")
    assert saved["quantity"].tolist() == ch10.findings(res)["quantity"].tolist()


@pytest.mark.slow  # reads four small sets and fits their bootstraps: about 10 s
def test_two_renamed_systems_named_as_llm_systems_get_the_llm_comparison(tmp_path):
    """``llm_systems`` set to two of the renamed systems: every set compares them with the other two, and the
    estimate is the idiom × LLM coefficient of an ordinary least-squares fit (statsmodels) of the hand-made
    newstest2021 penalties."""
    import statsmodels.formula.api as smf

    from helpers.core import Words

    files = own_files(tmp_path)
    llm = ["Kite-LM", "Lark-LM"]
    setup = ch10.setup(**files, llm_systems=llm, min_idiom_segments=5, n_boot=100)
    box = setup.load()
    folder = tmp_path / "res"
    folder.mkdir()
    ch10.description(box, setup).to_csv(folder / "data_summary.csv", index=False)
    ch10.per_system(box, setup).to_csv(folder / "system_effects.csv", index=False)
    contrast = ch10.llm_versus_others(box, setup)
    contrast.to_csv(folder / "llm_contrast.csv", index=False)
    assert contrast["llm_systems"].tolist() == ["Kite-LM, Lark-LM"] * 4 and contrast["estimable"].all()
    assert contrast["other_systems"].tolist() == [2] * 4
    text = Words("10_figurative").text("systems", ch10.findings(folder, "systems"))
    for r in contrast.itertuples():
        said = f"- {r.dataset}: the idiom effect of the LLM-based systems (Kite-LM, Lark-LM) minus the others' is"
        assert f"{said} {r.estimate:+.2f} [{r.ci_low:+.2f}, {r.ci_high:+.2f}]" in text
    assert "none of the systems named" not in text and "GPT4-5shot" not in text
    # newstest2021 by hand: the score file's penalties, the source's characters, the idiom sentences
    scores = pd.read_csv(files["newstest2021"], sep=r"\s+")
    sources = _sources()
    fit = pd.DataFrame(
        {
            "score": -scores["mqm_avg_score"],
            "system": scores["system"],
            "idiom": [float(sources[i - 1] in IDIOM_SOURCES) for i in scores["seg_id"]],
            "llm": scores["system"].isin(llm).astype(float),
            "chars": [len(sources[i - 1]) for i in scores["seg_id"]],
        }
    )
    ols = smf.ols("score ~ idiom + idiom:llm + np.log(chars) + C(system)", data=fit).fit()
    got = contrast.set_index("dataset").loc["newstest2021", "estimate"]
    assert got == pytest.approx(ols.params["idiom:llm"])


def _replace(files: dict, name: str, path) -> dict:
    return files | {name: str(path)}


def test_an_english_source_is_refused_naming_the_file(tmp_path):
    """English sources in any of the four forms stop the chapter with a message naming the file, before
    any analysis (the old chapter ran on and reported "0 of N segments have an idiom")."""
    files = own_files(tmp_path)
    english = ENGLISH_SOURCES * 5
    cases = {
        "wmt23": write_mqm(tmp_path / "english_wmt23.tsv", english),
        "ted": write_mqm(tmp_path / "english_ted.tsv", english, raters=("r1",)),
        "newstest2021_source": tmp_path / "english.en",
        "wmt22": write_mtme(tmp_path / "english_mtme", english),
    }
    cases["newstest2021_source"].write_text("\n".join(english) + "\n", encoding="utf-8")
    for name, path in cases.items():
        with pytest.raises(InputError) as err:
            ch10.setup(**_replace(files, name, path), min_idiom_segments=5, n_boot=100).load()
        message = str(err.value)
        assert str(path) in message and "0 of " in message and "hold a Chinese character" in message, message
        assert len(message) < 400


def test_a_wmt23_form_file_without_its_source_column_is_refused_naming_file_and_column(tmp_path):
    """WMT23's form with its JSON metadata column, the ``source`` column left out: the old chapter read the
    columns by position and failed with "unknown severity" and the metadata's JSON; now the file and the
    column are named, in a short message, for ``wmt23`` and ``ted`` alike."""
    header = [c for c in WMT23_HEADER if c != "source"]
    for name in ("wmt23", "ted"):
        path = write_mqm(tmp_path / f"{name}_no_source.tsv", _sources(), header=header)
        with pytest.raises(InputError) as err:
            ch10.setup(**{name: str(path)})
        message = str(err.value)
        assert f"parameter '{name}'" in message and str(path) in message, message
        assert "missing column(s) source" in message and "{" not in message and len(message) < 400


@pytest.mark.slow
def test_the_notebook_stops_on_bad_input_with_a_message_naming_the_file(tmp_path):
    """Through papermill, the message `helpers run` prints: the English WMT23-form file and the file
    without its ``source`` column stop the chapter in its first cells, named with the reason."""
    from helpers.core import paths
    from helpers.core.book import execution

    english = write_mqm(tmp_path / "english.tsv", ENGLISH_SOURCES * 5)
    header = [c for c in WMT23_HEADER if c != "source"]
    no_source = write_mqm(tmp_path / "no_source.tsv", _sources(), header=header)
    for path, reason in ((english, "hold a Chinese character"), (no_source, "missing column(s) source")):
        with pytest.raises(execution.NotebookFailed) as err:
            execution.execute_notebook(
                paths.project_root() / "notebooks" / "10_figurative.ipynb",
                tmp_path / f"{path.stem}.ipynb",
                parameters={"wmt23": str(path), "n_boot": 100, "results_dir": str(tmp_path / "res")},
            )
        message = str(err.value)
        assert "InputError" in message and str(path) in message and reason in message, message
        assert "unknown severity" not in message and "timestamp" not in message
