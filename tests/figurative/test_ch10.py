"""Chapter 10: its steps on simulated or hand-computed cases, bad input refused by name, the findings
recomputed from hand-made result CSVs, and the words they fill."""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.figurative import analysis, ch10, design, idioms


def _simulated(effects: dict[str, float], seed: int = 5, documents: int = 60) -> pd.DataFrame:
    """``documents`` documents of 5 segments rated by the systems of ``effects`` (system → its idiom
    effect); every third document has two idiom segments."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(documents):
        shift = rng.normal(0, 1.0)
        for s in range(5):
            idiom = d % 3 == 0 and s < 2
            chars = int(rng.integers(20, 120))
            for k, (system, effect) in enumerate(effects.items()):
                score = 1 + effect * idiom + 0.5 * np.log(chars) + 0.3 * k + shift + rng.normal(0, 0.8)
                rows.append(
                    {
                        "dataset": "sim",
                        "system": system,
                        "doc": f"d{d}",
                        "segment": f"d{d}:{s}",
                        "source_chars": chars,
                        "score": score,
                        "idiom": idiom,
                    }
                )
    return pd.DataFrame(rows)


def test_per_system_effects_mark_the_named_llm_systems_only():
    table = _simulated({"MyLLM": 3.0, "NMT-A": 0.0, "NMT-B": 0.0})
    got = design.system_effects(table, llm=["MyLLM"], n_boot=400).set_index("system")
    assert got.loc["MyLLM", "ci_low"] < 3.0 < got.loc["MyLLM", "ci_high"] and got.loc["MyLLM", "ci_low"] > 0
    assert got["llm"].to_dict() == {"MyLLM": True, "NMT-A": False, "NMT-B": False}
    assert not design.system_effects(table, n_boot=50)["llm"].any()  # nothing named, nothing marked


def _rated(source: str, doc: str, seg: int, penalties: dict[str, float]) -> list[dict]:
    """MQM rows of one (system S, segment) rated by each rater with one error of the given weight
    (5 Major, 1 Minor, 0 No-error)."""
    severity = {5.0: "Major", 1.0: "Minor", 0.0: "No-error"}
    return [
        {
            "system": "S",
            "doc": doc,
            "doc_seg_id": seg,
            "global_seg_id": seg,
            "rater": r,
            "source": source,
            "target": "x",
            "category": "No-error" if p == 0 else "Accuracy/Mistranslation",
            "severity": severity[p],
            "line": seg,
        }
        for r, p in penalties.items()
    ]


def test_alpha_by_idiom_matches_krippendorff_on_each_group():
    idiom_src, plain_src = "他们只会守株待兔。", "今天天气很好。"
    raters = {
        "idiom": [(5, 5, 1), (0, 1, 0), (5, 0, 5), (1, 1, 1)],
        "plain": [(5, 5, 5), (0, 0, 1), (1, 1, 1), (5, 1, 5), (0, 0, 0)],
    }
    rows = []
    for k, ps in enumerate(raters["idiom"]):
        rows += _rated(idiom_src, f"i{k}", k + 1, dict(zip(("a", "b", "c"), map(float, ps))))
    for k, ps in enumerate(raters["plain"]):
        rows += _rated(plain_src, f"p{k}", k + 10, dict(zip(("a", "b", "c"), map(float, ps))))
    got = analysis.agreement_by_idiom(pd.DataFrame(rows), n_boot=200).set_index("group")
    for group in ("idiom", "other"):
        data = np.array(raters["idiom" if group == "idiom" else "plain"], dtype=float).T
        assert got.loc[group, "estimate"] == pytest.approx(
            krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
        )
    difference = got.loc["idiom", "estimate"] - got.loc["other", "estimate"]
    assert got.loc["difference", "estimate"] == pytest.approx(difference)
    assert got["units"].tolist() == [4, 5, 9] and got["documents"].tolist() == [4, 5, 9]
    assert got.loc["difference", "ci_low"] <= got.loc["difference", "estimate"] <= got.loc["difference", "ci_high"]


def test_gallery_marks_overlapping_spans_once():
    assert ch10._marked("不要画蛇添足了", ["画蛇添足", "添足了"]) == "不要<mark>画蛇添足了</mark>"


def test_gallery_html_is_filled_from_the_words_file():
    row = {"segment": "d1#3", "idioms": "画蛇添足|", "source": "别画蛇添足", "rater": "r1"}
    table = pd.DataFrame(
        [
            {
                **row,
                "system": "A<1>",
                "score": 5.0,
                "target": "no snake legs",
                "category": "Accuracy",
                "severity": "Major",
                "side": "target",
                "span": "snake",
            },
            {
                **row,
                "system": "A<1>",
                "score": 5.0,
                "target": "no snake legs",
                "category": "Style",
                "severity": "Minor",
                "side": "source",
                "span": "",
            },
            {
                **row,
                "system": "B",
                "score": 0.0,
                "target": "do not overdo it",
                "category": "",
                "severity": "",
                "side": "",
                "span": "",
            },
        ]
    )
    box = "<div style='border-left:4px solid #c9a227;padding:.3em 1em;margin:1em 0'>"
    assert ch10.gallery_html(table) == (
        f"{box}<p><code>d1#3</code>: 别<mark>画蛇添足</mark></p>"
        "<p><strong>A&lt;1&gt;</strong> (penalty 5.0): no <mark>snake</mark> legs</p>"
        "<ul><li>Major Accuracy (r1, target): «snake»</li><li>Minor Style (r1, source): «—»</li></ul>"
        "<p><strong>B</strong> (penalty 0.0): do not overdo it</p><p><em>no error marked</em></p></div>"
    )
    assert ch10.gallery_html(table.iloc[:0]) == "<p><em>No WMT23 segment with an idiom in this run.</em></p>"


def test_setup_checks_its_parameters(tmp_path):
    with pytest.raises(InputError, match="detector"):
        ch10.setup(detector="loose")
    with pytest.raises(InputError, match="newstest2021_source"):
        ch10.setup(newstest2021=str(tmp_path))
    with pytest.raises(InputError, match="n_boot"):
        ch10.setup(n_boot=5)
    with pytest.raises(InputError, match="llm_systems"):
        ch10.setup(llm_systems="GPT4-5shot")
    with pytest.raises(InputError, match="wmt22"):
        ch10.setup(wmt22=str(tmp_path / "nowhere"))


def test_a_file_without_its_source_column_is_refused_naming_the_column(tmp_path):
    bad = tmp_path / "wmt23.tsv"
    bad.write_text(
        "system\tdoc\tdoc_id\tseg_id\trater\ttarget\tcategory\tseverity\n"
        "A\td1\t1\t1\tr1\tSome text.\tNo-error\tno-error\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as err:
        ch10.setup(wmt23=str(bad))
    assert "missing column(s) source" in str(err.value) and "wmt23.tsv" in str(err.value)
    assert len(str(err.value)) < 300


def test_a_source_without_chinese_is_refused_naming_the_file(tmp_path):
    english = tmp_path / "english.tsv"
    english.write_text(
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
        "A\td1\t1\t1\tr1\tThe cat sat down.\tLe chat.\tNo-error\tno-error\n",
        encoding="utf-8",
    )
    setup = ch10.setup(wmt23=str(english))
    with pytest.raises(InputError) as err:
        setup.load()  # the own files are checked before the released sets are read
    assert "english.tsv" in str(err.value) and "0 of 1 sources hold a Chinese character" in str(err.value)
    with pytest.raises(InputError, match="src.txt"):
        idioms.require_chinese(pd.Series(["Only English here.", "And here."]), file="src.txt")
    with pytest.raises(InputError, match="1 of 3 sources"):  # an English file with an untranslated word
        idioms.require_chinese(pd.Series(["English.", "More English.", "未翻译"]), file="mostly_english.txt")
    idioms.require_chinese(pd.Series(["一点中文.", "中文", "English."]), file="mixed.txt")  # 2 of 3 pass


def test_labels_for_another_number_of_sources_are_refused(tmp_path):
    path = tmp_path / "all.json"
    path.write_text('[{"index": 0, "property": "", "categories": []}]', encoding="utf-8")
    with pytest.raises(InputError, match="all.json"):
        ch10.gold_classes(path, 2)


# --------------------------------------------------------------------------- findings from saved CSVs
def _write(folder, name, frame):
    frame.to_csv(folder / f"{name}.csv", index=False)


def _effect(**values) -> dict:
    row = {
        "method": "cluster_bootstrap",
        "estimate": 1.0,
        "se": 0.3,
        "ci_low": 0.4,
        "ci_high": 1.6,
        "mdd_80": 0.84,
        "perm_p": 0.01,
        "rows": 300,
        "segments": 100,
        "idiom_segments": 30,
        "documents": 20,
        "few_clusters": True,
        "estimable": True,
    }
    return row | values


@pytest.fixture
def saved(tmp_path):
    """A results folder with hand-chosen numbers: WMT22-like set with gold, one small set, one without effect."""
    _write(
        tmp_path,
        "data_summary",
        pd.DataFrame(
            {
                "dataset": ["w", "a", "b"],
                "file": ["w/", "a.tsv", "b.tsv"],
                "detector": "xinhua",
                "idiom_by": ["gold:idiom", "xinhua", "xinhua"],
                "systems": [4, 3, 2],
                "system_names": ["P; Q; R; S", "X; Y; Z", "U; V"],
                "human_systems": ["refA", "", ""],
                "segments": [200, 100, 50],
                "documents": [20, 20, 50],
                "domains": [2, 0, 0],
                "rows": [800, 300, 100],
                "idiom_segments": [40, 5, 25],
                "idiom_documents": [12, 4, 20],
                "estimable": [True, False, True],
                "min_idiom_segments": 20,
                "llm_systems": "MyLLM",
            }
        ),
    )
    _write(
        tmp_path,
        "detector_precision",
        pd.DataFrame(
            {
                "detector": ["raw", "xinhua"],
                "kept": [10, 4],
                "figurative": [2, 3],
                "precision": [0.2, 0.75],
                "precision_low": [0.05, 0.3],
                "precision_high": [0.5, 0.95],
                "recall": [1.0, 1.0],
                "psucmc_words": [94, 94],
                "psucmc_found": [1, 0],
                "figurative_b": [1, 2],
                "precision_b": [0.1, 0.5],
                "precision_b_low": [0.02, 0.15],
                "precision_b_high": [0.4, 0.85],
            }
        ),
    )
    _write(
        tmp_path,
        "idiom_sample_agreement",
        pd.DataFrame(
            {"items": [10], "agreement": [0.9], "kappa": [0.6], "figurative_a": [2], "figurative_b": [1]}
            | {"a_only": [1], "b_only": [0]}
        ),
    )
    _write(
        tmp_path,
        "detector_gold",
        pd.DataFrame(
            {
                "detector": ["xinhua", "xinhua"],
                "gold": ["idi", "idiom"],
                "segments": 200,
                "gold_segments": [30, 40],
                "flagged": [20, 20],
                "true_positives": [18, 19],
                "precision": [0.9, 0.95],
                "precision_low": [0.7, 0.76],
                "precision_high": [0.97, 0.99],
                "recall": [0.6, 0.475],
                "recall_low": [0.42, 0.33],
                "recall_high": [0.75, 0.62],
            }
        ),
    )
    _write(
        tmp_path,
        "penalty_means",
        pd.DataFrame(
            {
                "dataset": ["w", "w"],
                "idiom": [False, True],
                "cells": [640, 160],
                "segments": [160, 40],
                "mean_score": [2.0, 3.5],
            }
        ),
    )
    eff = pd.DataFrame(
        [
            _effect(estimate=1.5, ci_low=0.5, ci_high=2.5, perm_p=0.002, idiom_segments=40)
            | {"dataset": "w", "detector": "gold:idiom", "sets": np.nan},
            _effect(estimate=-0.2, ci_low=-0.8, ci_high=0.4) | {"dataset": "w", "detector": "raw", "sets": np.nan},
            _effect(estimate=np.nan, ci_low=np.nan, ci_high=np.nan, estimable=False, idiom_segments=5)
            | {"dataset": "a", "detector": "xinhua", "sets": np.nan},
            _effect(estimate=0.1, ci_low=-0.9, ci_high=1.1, mdd_80=1.4, idiom_segments=25)
            | {"dataset": "b", "detector": "xinhua", "sets": np.nan},
            _effect(estimate=0.3, ci_low=0.1, ci_high=0.5, mdd_80=0.2)
            | {"dataset": "pooled", "detector": "each set's own", "sets": 2},
        ]
    )
    _write(tmp_path, "idiom_effects", eff[["dataset", "detector", "sets"] + design.EFFECT_COLUMNS])
    _write(
        tmp_path,
        "mwe_contrast",
        pd.DataFrame(
            {
                "contrast": ["idiom − mwe", "mwe − none"],
                "estimate": [1.8, -0.2],
                "se": [0.4, 0.2],
                "ci_low": [1.0, -0.6],
                "ci_high": [2.6, 0.2],
                "mdd_80": [1.1, 0.6],
                "segments_a": [40, 60],
                "segments_b": [60, 50],
            }
        ),
    )
    _write(
        tmp_path,
        "human_translations",
        pd.DataFrame(
            {
                "group": ["human", "mt", "difference"],
                "systems": ["refA", "P; Q", "refA"],
                "estimate": [0.5, 1.5, -1.0],
                "se": [0.2, 0.3, 0.3],
                "ci_low": [0.1, 0.9, -1.6],
                "ci_high": [0.9, 2.1, -0.4],
                "mdd_80": [0.6, 0.8, 0.8],
                "idiom_segments": 40,
                "estimable": True,
            }
        ),
    )
    _write(
        tmp_path,
        "metric_residuals",
        pd.DataFrame(
            [
                _effect(estimate=1.5) | {"metric": "(none)", "kind": ""},
                _effect(estimate=0.2, ci_low=-0.3, ci_high=0.7) | {"metric": "Good-refA", "kind": "reference"},
                _effect(estimate=1.4, ci_low=0.6, ci_high=2.2) | {"metric": "Blind-src", "kind": "qe"},
            ]
        ),
    )
    _write(
        tmp_path,
        "metric_accuracy",
        pd.DataFrame(
            {
                "metric": ["Good-refA"] * 3 + ["Blind-src"] * 3,
                "kind": ["reference"] * 3 + ["qe"] * 3,
                "group": ["idiom", "other", "difference"] * 2,
                "estimate": [0.6, 0.6, 0.0, 0.5, 0.6, -0.1],
                "ci_low": [0.5, 0.55, -0.05, 0.4, 0.55, -0.2],
                "ci_high": [0.7, 0.65, 0.05, 0.6, 0.65, -0.02],
                "p": [np.nan, np.nan, 0.9, np.nan, np.nan, 0.01],
                "segments": [40, 160, 200, 40, 160, 200],
            }
        ),
    )
    cols = design.EFFECT_COLUMNS
    _write(
        tmp_path,
        "category_effects",
        pd.DataFrame(
            [
                ["b", "Accuracy", 2.0, 1.0, 12, 30] + list(_effect(estimate=0.9, ci_low=0.2, ci_high=1.3).values()),
                ["b", "Terminology", 0.003, 0.1, 1, 9]
                + list(_effect(estimate=-0.1, ci_low=-0.2, ci_high=-0.01).values()),
                ["b", "Fluency", 0.4, 0.5, 8, 20] + list(_effect(estimate=-0.1, ci_low=-0.3, ci_high=0.1).values()),
            ],
            columns=["dataset", "category", "idiom_mean", "other_mean", "idiom_error_segments", "other_error_segments"]
            + cols,
        ),
    )
    _write(
        tmp_path,
        "span_overlap",
        pd.DataFrame(
            {
                "system": ["A", "A", "B"],
                "doc": ["d1", "d1", "d2"],
                "doc_seg_id": [1, 1, 3],
                "rater": ["r1", "r2", "r1"],
                "span_start": [2, 2, 0],
                "span_end": [6, 6, 3],
                "overlap": [True, True, False],
            }
        ),
    )
    _write(
        tmp_path,
        "span_summary",
        pd.DataFrame(
            [
                {
                    "spans": 3,
                    "documents": 2,
                    "observed": 0.67,
                    "chance": 0.2,
                    "share": 0.1,
                    "difference": 0.47,
                    "ci_low": -0.1,
                    "ci_high": 0.9,
                    "ratio": 3.3,
                }
            ]
        ),
    )
    sys_rows = [
        ["b", "X", False] + list(_effect(estimate=2.0, ci_low=1.2, ci_high=2.8).values()),
        ["b", "MyLLM", True] + list(_effect(estimate=-0.5, ci_low=-1.3, ci_high=0.3).values()),
    ]
    _write(tmp_path, "system_effects", pd.DataFrame(sys_rows, columns=["dataset", "system", "llm"] + cols))
    _write(
        tmp_path,
        "llm_contrast",
        pd.DataFrame(
            [
                {
                    "dataset": "b",
                    "llm_systems": "MyLLM",
                    "other_systems": 1,
                    "estimate": -2.5,
                    "se": 0.6,
                    "ci_low": -3.7,
                    "ci_high": -1.3,
                    "mdd_80": 1.7,
                    "idiom_segments": 25,
                    "documents": 20,
                    "estimable": True,
                },
                {
                    "dataset": "w",
                    "llm_systems": "",
                    "other_systems": 4,
                    "estimate": np.nan,
                    "se": np.nan,
                    "ci_low": np.nan,
                    "ci_high": np.nan,
                    "mdd_80": np.nan,
                    "idiom_segments": 40,
                    "documents": 20,
                    "estimable": False,
                },
            ]
        ),
    )
    _write(
        tmp_path,
        "rater_agreement",
        pd.DataFrame(
            {
                "group": ["idiom", "other", "difference"],
                "estimate": [0.3, 0.5, -0.2],
                "ci_low": [0.1, 0.4, -0.4],
                "ci_high": [0.5, 0.6, 0.05],
                "units": [20, 80, 100],
                "documents": [5, 20, 20],
            }
        ),
    )
    _write(
        tmp_path,
        "token_tags",
        pd.DataFrame(
            {
                "scope": ["all"] * 3 + ["idiom_posts"] * 3,
                "group": ["idiom", "other", "difference"] * 2,
                "estimate": [0.2, 0.15, 0.05, 0.2, 0.1, 0.1],
                "ci_low": [0.1, 0.14, -0.01, 0.1, 0.08, 0.02],
                "ci_high": [0.3, 0.16, 0.11, 0.3, 0.12, 0.2],
                "tokens": [50, 950, 1000, 50, 300, 350],
                "posts": [30, 200, 200, 30, 30, 30],
            }
        ),
    )
    return tmp_path


def test_findings_are_recomputed_from_the_saved_tables(saved):
    f = ch10.findings(saved).drop_duplicates(["quantity", "group"]).set_index(["quantity", "group"])
    assert f.loc[("detector", ""), "text"] == "xinhua"
    assert f.loc[("not_estimable", ""), "text"] == "a" and f.loc[("not_estimable", ""), "minimum"] == 20
    assert f.loc[("humans", "w"), "text"] == "refA"
    assert f.loc[("own_precision", "idi"), "value"] == 0.9 and f.loc[("gold_segments", ""), "value"] == 30
    assert f.loc[("raw_difference", "w"), "value"] == pytest.approx(1.5)
    assert f.loc[("effect", "w"), "value"] == 1.5 and f.loc[("effect", "w"), "p"] == 0.002
    assert f.loc[("effect", "w"), "text"] == "gold:idiom" and f.loc[("effect_excludes_zero", "w"), "value"] == 1
    assert f.loc[("effect_excludes_zero", "b"), "value"] == 0
    assert ("effect", "a") not in f.index and f.loc[("not_estimated", "a"), "value"] == 5  # nothing from a
    assert f.loc[("pooled", ""), "value"] == 0.3 and f.loc[("pooled", ""), "sets"] == 2
    assert f.loc[("sign_flips", ""), "value"] == 1  # w: +1.5 gold, -0.2 raw
    assert f.loc[("figurative", ""), "value"] == 1.8 and f.loc[("figurative_excludes", ""), "value"] == 1
    assert f.loc[("multiword_excludes", ""), "value"] == 0
    assert f.loc[("difference_effect", ""), "value"] == -1.0
    assert f.loc[("residual_least", ""), "text"] == "Good-refA" and f.loc[("residual_most", ""), "text"] == "Blind-src"
    assert f.loc[("residual_excluding_zero", ""), "value"] == 1 and f.loc[("accuracy_lower", ""), "value"] == 1
    # Terminology: an error in one idiom segment only, left out (its interval is made of zeros)
    assert (
        f.loc[("categories_excluding_zero", ""), "value"] == 1
        and f.loc[("categories_excluding_zero", ""), "text"] == "2"
    )
    assert f.loc[("span_observed", ""), "distinct"] == 2 and f.loc[("span_observed", ""), "segments"] == 2
    assert f.loc[("system_high", "b"), "text"] == "X" and f.loc[("llm_difference", "b"), "value"] == -2.5
    assert f.loc[("llm_absent", "w"), "text"] == "MyLLM"
    assert f.loc[("alpha_difference", ""), "value"] == -0.2 and f.loc[("alpha_lower", ""), "value"] == 0
    assert f.loc[("tags_all_differs", ""), "value"] == 0 and f.loc[("tags_idiom_posts_differs", ""), "value"] == 1
    assert f.loc[("tags_idiom_posts_idiom", ""), "posts"] == 30


def test_the_words_render_from_the_findings(saved):
    from helpers.core import Words

    words = Words("10_figurative")
    data = words.text("data", ch10.findings(saved, "data"))
    assert "- w: 40 of 200 segments have an idiom by `gold:idiom`, in 12 of 20 documents; 4 systems rated" in data
    assert "(P; Q; R; S)" in data and "Not estimable, so nothing is concluded from it: a." in data
    assert "6 of 50" not in data and "b: 25 of 50 segments have an idiom by `xinhua`, and the file names no" in data
    systems = words.text("systems", ch10.findings(saved, "systems"))
    assert "`llm_systems`: MyLLM) is in this set" in systems and "(MyLLM) minus the others' is -2.50" in systems
    text = words.text("findings", ch10.findings(saved, "findings"))
    assert "- a: not estimable (5 idiom segments); nothing is concluded from it." in text
    assert "w: +1.50 [+0.50, +2.50] MQM points (p = 0.002)" in text
    assert "no effect shown: this set excludes idiom penalties above +1.1 and below -0.9 points" in text
    assert (
        "w: +1.50 [+0.50, +2.50] MQM points (p = 0.002); the idiom penalty is not zero: this set places it "
        "between +0.5 and +2.5 points" in text
    )
    assert "The penalty goes with the idioms" in text
    assert "detector\n`xinhua`" not in text and "whose precision against those labels is 0.90 [0.70, 0.97]" in text
    assert "are used figuratively by labeller A, 0.50 by labeller B (κ 0.60)" in text
    detector = words.text("detector", ch10.findings(saved, "detector"))
    assert "They agree on 90% of them (Cohen's κ 0.60); 1 are figurative for A alone and 0 for B alone." in detector
    assert "- `xinhua`: precision 0.75 [0.30, 0.95] (B: 0.50 [0.15, 0.85]), keeping 4 matches" in detector


def test_without_an_estimable_wmt22_no_metric_finding_is_stated(saved):
    """WMT22 below ``min_idiom_segments``: the residuals hold only the not-estimable ``(none)`` row. Its
    metrics' accuracy is not stated either (it was, and the summary's per-kind lines hung under the
    previous bullet), and the hand labels' absence is said instead of dropping the idiom-flag bullet."""
    from helpers.core import Words

    row = _effect(estimate=np.nan, ci_low=np.nan, ci_high=np.nan, estimable=False, idiom_segments=5)
    _write(saved, "metric_residuals", pd.DataFrame([row | {"metric": "(none)", "kind": ""}]))
    words = Words("10_figurative")
    metrics = words.text("metrics", ch10.findings(saved, "metrics"))
    assert "Good-refA" not in metrics and "Tie-calibrated" not in metrics
    text = words.text("findings", ch10.findings(saved, "findings"))
    assert "metrics: mean accuracy difference" not in text and "**Which metrics miss idioms.**" not in text
    assert "**More errors?**" in text and "**A second kind of evidence.**" in text
    _write(saved, "detector_gold", pd.read_csv(saved / "detector_gold.csv").iloc[:0])
    text = words.text("findings", ch10.findings(saved, "findings"))
    assert "No set of this run has hand labels: every set's flag is the detector `xinhua`; of its matches in" in text
    detector = words.text("detector", ch10.findings(saved, "detector"))
    assert "No set of this run has Song & Xu's labels" in detector and "Against Song & Xu's" not in detector


# --------------------------------------------------------------------------- the chapter on small files
IDIOM_SENTENCES = [
    "我们做事不能刻舟求剑。",
    "他总是守株待兔，等别人来帮忙。",
    "大雨让交通雪上加霜。",
    "这段说明画蛇添足，读者反而糊涂。",
    "发现问题后马上亡羊补牢。",
    "公司又一次守株待兔。",
]
PLAIN_SENTENCES = [
    "今天下午会议在三楼举行。",
    "这家商店周末营业到晚上九点。",
    "学生们正在图书馆复习功课。",
    "新的公交线路下个月开通。",
    "医院增加了两名儿科医生。",
    "城市的公园里种了很多树。",
    "他每天早上骑自行车上班。",
    "这本书一共有十二章。",
    "明天的气温比今天低。",
    "工厂去年的产量提高了。",
]


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
                    lines.append(
                        f"{system}\t{doc}\t{k % 2 + 1}\t{seg}\t{rater}\t{source}\tA fine sentence.\tNo-error\tno-error"
                    )
                    continue
                marked, target = source, "A <v>wrong</v> sentence."
                if spans and i < len(IDIOM_SENTENCES):
                    m = idioms.find_idioms(pd.Series([source]), "filtered").iloc[0]
                    marked = source[: m["start"]] + "<v>" + source[m["start"] : m["end"]] + "</v>" + source[m["end"] :]
                    target = "A wrong sentence."
                severity = "Major" if rng.random() < 0.5 else "Minor"
                category = "Accuracy/Mistranslation" if rng.random() < 0.6 else "Fluency/Grammar"
                lines.append(
                    f"{system}\t{doc}\t{k % 2 + 1}\t{seg}\t{rater}\t{marked}\t{target}\t{category}\t{severity}"
                )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_figures_and_their_static_twins_show_the_given_numbers():
    import matplotlib.pyplot as plt

    from helpers.core.book import plots
    from helpers.figurative import figures

    per_system = design.system_effects(
        _simulated({"GPT4-5shot": 3.0, "NMT-A": 0.0}, documents=15), llm=["GPT4-5shot"], n_boot=100, min_segments=5
    )
    fig = figures.system_effects(per_system)
    assert sorted(t.name for t in fig.data) == ["named LLM-based", "other systems"]
    assert sorted(x for t in fig.data for x in t.x) == sorted(per_system["estimate"])
    summary = pd.DataFrame(
        [
            {
                "spans": 12,
                "documents": 4,
                "observed": 0.5,
                "chance": 0.2,
                "share": 0.1,
                "difference": 0.3,
                "ci_low": 0.1,
                "ci_high": 0.5,
                "ratio": 2.5,
            }
        ]
    )
    assert list(figures.span_overlap(summary).data[0].y) == [0.5, 0.2]
    cats = pd.DataFrame(
        {
            "dataset": "a",
            "category": ["Accuracy", "Style"],
            "idiom_mean": [2.0, 0.0],
            "other_mean": [1.0, 0.0],
            "estimate": [0.9, 0.0],
            "ci_low": [0.2, 0.0],
            "ci_high": [1.3, 0.0],
        }
    )
    bars = figures.categories(cats).data
    assert list(bars[0].x) == [2.0] and list(bars[1].x) == [1.0]  # the all-zero category is left out
    twin = plots.static(figures.categories(cats))
    assert len(twin.axes[0].patches) == 2  # one idiom bar, one other bar
    plt.close(twin)
    res = pd.DataFrame(
        {
            "metric": ["(none)", "M-refA", "K-src"],
            "kind": ["", "reference", "qe"],
            "estimate": [1.5, 0.5, 1.2],
            "ci_low": [1.0, 0.1, 0.8],
            "ci_high": [2.0, 0.9, 1.6],
        }
    )
    acc = pd.DataFrame(
        {
            "metric": ["M-refA", "K-src"],
            "group": "difference",
            "estimate": [-0.01, -0.05],
            "ci_low": [-0.03, -0.08],
            "ci_high": [0.01, -0.02],
        }
    )
    gaps = figures.metric_gaps(res, acc)
    assert sorted(x for t in gaps.data for x in t.x) == [0.5, 1.2]


def test_the_two_labellers_agreement_on_the_authored_sample_by_hand():
    got = ch10.labeller_agreement().iloc[0]
    # 2 x 2 table read off the file: A figurative 37 (8 of them literal for B), B figurative 29, 170 items.
    # p_o = (29 + 133) / 170; p_e = (37 * 29 + 133 * 141) / 170² = 19,826 / 28,900; κ = (p_o − p_e) / (1 − p_e)
    p_o, p_e = 162 / 170, 19826 / 28900
    assert got["items"] == 170 and got["agreement"] == pytest.approx(p_o)
    assert got["kappa"] == pytest.approx((p_o - p_e) / (1 - p_e))
    assert got[["figurative_a", "figurative_b", "a_only", "b_only"]].tolist() == [37, 29, 8, 0]


def test_metric_table_takes_the_book_scores_from_chapter_09s_own_scores(tmp_path, monkeypatch):
    """The book's BLEU and chrF rows are chapter 09's own_scores (one cache entry for both chapters),
    kept for the machine translations chapter 10 analyses: sentence BLEU and chrF by sacrebleu itself."""
    import sacrebleu
    from tests.figurative.test_ch10_any_file import own_files

    from helpers.metrics.wmt22 import own_scores

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    setup = ch10.setup(**own_files(tmp_path), min_idiom_segments=5, n_boot=100, results_dir=str(tmp_path / "res"))
    box = setup.load()
    table = ch10.metric_table(box, own_scores)
    book = table[table["metric"].isin(ch10.BOOK_METRICS.values())]
    systems = sorted(ch10.analysed(box, "wmt22")["system"].unique())
    assert sorted(book["system"].unique()) == systems and len(book) == 2 * len(systems) * len(box.wmt22.sources)
    texts = box.wmt22.texts(systems=systems).assign(segment=lambda f: f["segment"].astype(str))
    merged = book.merge(texts, on=["system", "segment"], validate="many_to_one")
    for name, score in (("BLEU (book)", sacrebleu.sentence_bleu), ("chrF (book)", sacrebleu.sentence_chrf)):
        part = merged[merged["metric"] == name]
        expected = [score(h, [r]).score for h, r in zip(part["hypothesis"], part["reference"])]
        assert part["score"].tolist() == pytest.approx(expected, abs=1e-9)
    assert ch10.metric_table(box, own_scores).equals(table)  # read back from the cache, the same
