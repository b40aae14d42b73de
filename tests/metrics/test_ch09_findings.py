"""Chapter 09's findings recomputed from its saved result CSVs alone, and the chapter run end to end on
a small hand-made English→German test set (issue 33; issue 36's shape)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from helpers.metrics import ch09


def _write(folder, name, frame):
    frame.to_csv(folder / f"{name}.csv", index=False)


@pytest.fixture
def saved(tmp_path):
    """A small results folder: 3 systems, 2 metrics, hand-chosen numbers."""
    _write(
        tmp_path,
        "data_summary",
        pd.DataFrame(
            [
                ("pair", None, "EN→DE"),
                ("testset", None, "own files"),
                ("released", 0, ""),
                ("systems", 3, "A, B, C"),
                ("lines", 20, ""),
                ("rated_segments", 18, ""),
                ("protocol", None, ""),
                ("metrics", 2, "bleu, chrf"),
                ("post_edit_rows", 20, ""),
            ],
            columns=["quantity", "value", "text"],
        ),
    )
    _write(tmp_path, "reproduction", pd.DataFrame(columns=["system", "metric", "published", "computed", "difference"]))
    _write(
        tmp_path,
        "meta_evaluation",
        pd.DataFrame(
            {
                "level": ["system", "system", "segment", "segment", "system", "system", "segment", "segment"],
                "metric": ["bleu"] * 4 + ["chrf"] * 4,
                "statistic": ["pearson", "pairwise_accuracy", "pearson_flat", "pearson_item"] * 2,
                "estimate": [0.5, 2 / 3, 0.3, 0.1, 0.9, 1.0, 0.4, 0.2],
                "ci_low": [0.1, 0.3, 0.2, 0.0, 0.6, 0.6, 0.3, 0.1],
                "ci_high": [0.8, 1.0, 0.4, 0.2, 1.0, 1.0, 0.5, 0.3],
                "n": [3, 3, 54, 18, 3, 3, 54, 18],
            }
        ),
    )
    _write(
        tmp_path,
        "metric_comparison",
        pd.DataFrame(
            {
                "level": "system",
                "statistic": "pearson",
                "metric_a": ["bleu", "chrf"],
                "metric_b": ["chrf", "bleu"],
                "delta": [-0.4, 0.4],
                "p": [0.97, 0.03],
            }
        ),
    )
    _write(
        tmp_path,
        "segment_choice",
        pd.DataFrame(
            {
                "metric": ["bleu", "chrf"],
                "statistic": ["pearson", "pearson"],
                "all": [0.5, 0.9],
                "rated": [0.45, 0.9],
                "difference": [-0.05, 0.0],
            }
        ),
    )
    _write(
        tmp_path,
        "unmatched",
        pd.DataFrame(
            {
                "metric": ["bleu", "bleu"],
                "only_in": ["human", "human"],
                "what": ["system", "cell"],
                "n": [1, 2],
                "examples": ["D", "A #3; B #3"],
            }
        ),
    )
    _write(
        tmp_path,
        "protocol_ranks",
        pd.DataFrame(
            {
                "system": ["B", "A", "C"],
                "mqm": [0.5, 2.0, 5.5],
                "mqm_rank": [1.0, 2.0, 3.0],
                "protocol": [None] * 3,
                "protocol_rank": [None] * 3,
                "bleu": [20.0, 30.0, 10.0],
                "bleu_rank": [2.0, 1.0, 3.0],
                "rank_shift": [None] * 3,
            }
        ),
    )
    _write(
        tmp_path,
        "edit_rate_agreement",
        pd.DataFrame(
            {
                "data": ["MetaHOPE", "MetaHOPE", "HADQAET", "HADQAET"],
                "statistic": ["pearson", "rho"] * 2,
                "estimate": [0.2, 0.25, 0.3, 0.35],
                "ci_low": [0.0, 0.05, 0.1, 0.15],
                "ci_high": [0.4, 0.45, 0.5, 0.55],
                "n": [57, 57, 20, 20],
            }
        ),
    )
    _write(
        tmp_path,
        "missed_errors",
        pd.DataFrame(
            {
                "statistic": ["missed", "blind", "missed_gap", "hter_error", "hter_clean"],
                "estimate": [0.25, 0.625, -0.375, 80.0, 60.0],
                "ci_low": [0.1, 0.4, -0.6, 70.0, 50.0],
                "ci_high": [0.4, 0.8, -0.1, 90.0, 70.0],
                "n": [12, 8, 12, 12, 8],
            }
        ),
    )
    return tmp_path


def test_findings_are_recomputed_from_the_saved_csvs(saved):
    f = ch09.findings(saved)
    one = f[f["group"] == ""].set_index("quantity")
    assert one.loc["pair", "text"] == "EN→DE" and one.loc["systems", "value"] == 3
    # nothing published: not applicable, so the reproduction sentences drop out
    assert pd.isna(one.loc["reproduced", "value"]) and one.loc["reproduced", "text"] == ""
    # chrF has the higher system-level r (0.9 > 0.5) and PERM-BOTH separates it from BLEU (p 0.03 < 0.05)
    assert one.loc["system_top", "text"] == "chrf" and one.loc["system_top", "value"] == 0.9
    assert one.loc["system_top", "p"] == 0.03 and one.loc["system_top", "runner_up"] == "bleu"
    assert pd.isna(one.loc["system_tied", "value"]) and one.loc["system_tied", "text"] == ""
    assert one.loc["significant_pairs", "value"] == 1 and one.loc["significant_pairs", "text"] == "2"
    # the largest |rated - all| is BLEU's 0.05; its system r interval [0.1, 0.8] has half-width 0.35: noise
    assert one.loc["choice_difference", "value"] == pytest.approx(0.05) and one.loc["choice_matters", "value"] == 0
    assert one.loc["choice_noise", "value"] == pytest.approx(0.35)
    assert one.loc["human_only_systems", "value"] == 1 and one.loc["human_only_cells", "value"] == 2
    assert one.loc["metric_only_systems", "value"] == 0
    # no second protocol: not applicable; BLEU ranks B (experts' first) second: 1 place below
    assert one.loc["protocol", "text"] == "" and pd.isna(one.loc["protocol_tau", "value"])
    assert one.loc["bleu_undervalues", "text"] == "B" and one.loc["bleu_undervalues", "value"] == 1
    assert one.loc["bleu_tau", "value"] == pytest.approx(1 / 3)  # ranks (1,2,3) vs (2,1,3): 2 concordant, 1 not
    assert one.loc["missed", "value"] == 0.25 and one.loc["missed", "n"] == 12
    assert one.loc["errors_seen", "value"] == 1  # the gap's interval [-0.6, -0.1] lies below 0
    rho = f[f["quantity"] == "hter_rho"].set_index("group")
    assert rho.loc["HADQAET", "value"] == 0.35 and rho.loc["MetaHOPE", "ci_low"] == 0.05
    r = f[f["quantity"] == "system_r"].set_index("group")
    assert r["value"].to_dict() == {"bleu": 0.5, "chrf": 0.9}


def test_the_words_render_from_the_findings(saved):
    from helpers.core import Words

    text = Words("09_metrics").text("findings", ch09.findings(saved))
    assert "On EN→DE (3 systems), chrf agrees best" in text
    assert "Own files (EN→DE) have no published scores" in text and "**Reproduced.**" not in text
    assert "**Two protocols.**" not in text  # no second protocol in this run
    assert "HADQAET: 0.35 [0.15, 0.55] (20 translations)" in text


def test_an_empty_folder_gives_every_quantity_not_applicable(tmp_path):
    f = ch09.findings(tmp_path)
    assert {"pair", "system_top", "system_tied", "protocol_tau", "missed", "gold_verbatim"} <= set(f["quantity"])
    assert f["value"].isna().sum() >= 10


def test_system_lines_choice_by_hand(tmp_path, monkeypatch):
    """Three systems on two lines, only line 1 rated. Pooled over both lines chrF orders the
    systems A > B > C; over line 1 alone B's line equals the reference and comes first."""
    from helpers.core.book.report import Provenance
    from helpers.metrics import scores

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    ref = ["the cat sat on the mat", "a dog barked at night"]
    hyps = {"A": ["the cat sat on a mat", "a dog barked at night"], "B": ref[:1] + ["dog"], "C": ["cat mat", "dog"]}
    texts = pd.DataFrame(
        [
            {"system": s, "segment": i + 1, "reference": r, "hypothesis": h}
            for s, lines in hyps.items()
            for i, (h, r) in enumerate(zip(lines, ref))
        ]
    )
    human = pd.DataFrame({"system": ["A", "B", "C"], "segment": [1, 1, 1], "score": [1.0, 0.0, 5.0]})
    box = ch09.Data(Provenance("own"), texts=texts, human=human)
    scored = scores.system_scores(texts, ["chrf"])
    given = pd.DataFrame({"system": ["A", "B", "C"], "segment": pd.NA, "metric": "comet", "score": [0.5, 0.9, 0.1]})
    got = ch09.system_lines_choice(box, scored, given).set_index(["metric", "statistic"])
    assert got.loc[("chrf", "kendall_tau_b"), "all"] == pytest.approx(1 / 3)  # A>B>C against the experts' B>A>C
    assert got.loc[("chrf", "kendall_tau_b"), "rated"] == pytest.approx(1.0)
    assert got.loc[("chrf", "kendall_tau_b"), "difference"] == pytest.approx(2 / 3)
    assert got.loc[("comet", "kendall_tau_b"), "all"] == pytest.approx(1.0)
    assert pd.isna(got.loc[("comet", "kendall_tau_b"), "rated"])


def test_reproduction_and_ranks_reuse_the_score_table():
    """Given the chapter's score table, neither step scores the texts again: the BLEU they
    report is the table's, here a marker value no text could produce."""
    from helpers.core.book.report import Provenance

    texts = pd.DataFrame(
        {"system": ["A", "B"], "segment": [1, 1], "reference": ["x y", "x y"], "hypothesis": ["x y", "y"]}
    )
    box = ch09.Data(
        Provenance("own"),
        texts=texts,
        human=pd.DataFrame({"system": ["A", "B"], "segment": [1, 1], "score": [0.0, 1.0]}),
        protocol=pd.DataFrame(columns=["system", "score"]),
        published=pd.DataFrame({"system": ["A"], "metric": ["bleu"], "score": [123.0]}),
    )
    scored = pd.DataFrame(
        {
            "system": ["A", "B", "A", "B"],
            "segment": pd.NA,
            "metric": ["bleu", "bleu", "chrf", "chrf"],
            "score": [123.0, 7.0, 1.0, 2.0],
        }
    )
    rep = ch09.reproduction(box, scored).set_index(["system", "metric"])
    assert rep.loc[("A", "bleu"), "computed"] == 123.0 and rep.loc[("A", "bleu"), "difference"] == 0.0
    ranks = ch09.protocol_ranks(box, scored).set_index("system")
    assert ranks.loc["B", "bleu"] == 7.0


def test_systems_parameter_is_checked():
    from helpers.core.errors import InputError

    with pytest.raises(InputError, match="parameter 'systems': value 'X'"):
        ch09.setup(systems=["X", "SMU"])
    with pytest.raises(InputError, match="parameter 'systems'.*two or more"):
        ch09.setup(systems=["SMU"])
    assert ch09.setup(systems=["SMU", "NiuTrans"]).systems == ("SMU", "NiuTrans")


GERMAN_REF = [f"Der Satz Nummer {i} ist kurz und klar." for i in range(1, 21)]


@pytest.mark.slow
def test_chapter_runs_on_own_english_german_files(tmp_path):
    """Twenty hand-made lines, three systems: the words name EN→DE and its counts, nothing of WMT's Chinese data."""
    from helpers.core import paths
    from helpers.core.book import execution

    ref = tmp_path / "ref.de"
    ref.write_text("\n".join(GERMAN_REF) + "\n", encoding="utf-8")
    outputs = {
        "good": GERMAN_REF,
        "fair": [s.replace("kurz", "knapp") for s in GERMAN_REF],
        "poor": [s.replace("ist kurz und klar", "war lang") for s in GERMAN_REF],
    }
    files = {}
    for name, lines in outputs.items():
        files[name] = str(tmp_path / f"{name}.de")
        (tmp_path / f"{name}.de").write_text("\n".join(lines) + "\n", encoding="utf-8")
    penalty = {"good": 0.0, "fair": 1.0, "poor": 5.0}
    human = pd.DataFrame(
        [{"system": s, "segment": i, "score": penalty[s] + (i % 3) * 0.5} for s in outputs for i in range(1, 19)]
    )  # lines 19-20 unrated
    human.to_csv(tmp_path / "mqm.csv", index=False)
    out = execution.execute_notebook(
        paths.project_root() / "notebooks" / "09_metrics.ipynb",
        tmp_path / "run.ipynb",
        parameters={
            "reference": str(ref),
            "hypotheses": files,
            "human": str(tmp_path / "mqm.csv"),
            "language_pair": "EN→DE",
            "n_boot": 100,
            "n_perm": 100,
            "post_edit_rows": 20,
            "results_dir": str(tmp_path / "res"),
        },
    )
    cells = json.loads(out.read_text(encoding="utf-8"))["cells"]
    shown = "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in cells for o in c.get("outputs", []))
    assert (
        "Test set: own files, EN→DE: 3 systems with an output (good, fair, poor), 20 lines each, 18 of them rated"
        in shown
    )
    assert "Chinese" not in shown and "ZH→EN" not in shown and "newstest" not in shown and "crowd" not in shown
    assert "**Reproduced.**" not in shown and "On EN→DE (3 systems)" in shown
    res = tmp_path / "res" / "09_metrics"
    assert pd.read_csv(res / "reproduction.csv").empty
    ranks = pd.read_csv(res / "protocol_ranks.csv").set_index("system")
    assert ranks["mqm_rank"].to_dict() == {"good": 1, "fair": 2, "poor": 3}
    assert ranks.loc["good", "bleu"] == pytest.approx(100.0)
    # the findings CSV is what findings() recomputes from the saved tables
    saved = pd.read_csv(res / "findings.csv")
    again = ch09.findings(res)
    assert saved["quantity"].tolist() == again["quantity"].tolist()
    assert list(saved.columns[:8]) == ["section", "quantity", "group", "value", "ci_low", "ci_high", "p", "text"]


def test_unmatched_counts_read_the_keys_meta_evaluate_writes(saved):
    """Issue 42: cells with metric scores but no human score were always counted 0 (the findings looked up
    only_in "metrics" where meta_evaluate writes "metric")."""
    from helpers.metrics import meta

    human = pd.DataFrame({"system": ["A", "A", "B", "B"], "segment": [1, 2, 1, 2], "score": [1.0, 2.0, 3.0, 0.0]})
    scores = pd.DataFrame(
        {
            "system": ["A", "A", "A", "B", "B", "C"],
            "segment": [1, 2, 3, 1, 2, 1],
            "metric": "bleu",
            "score": [5.0, 4.0, 3.0, 2.0, 1.0, 9.0],
        }
    )
    unmatched = meta.meta_evaluate(human, scores, n_boot=0).unmatched  # A #3 and C #1 have no human score
    _write(saved, "unmatched", unmatched)
    one = ch09.findings(saved).query("group == ''").set_index("quantity")
    assert one.loc["metric_only_systems", "value"] == 1  # C
    assert one.loc["metric_only_cells", "value"] == 2  # A #3, C #1
    assert one.loc["human_only_cells", "value"] == 0 and one.loc["unmatched_any", "value"] == 1


def test_a_ranking_is_stated_only_where_perm_both_separates_the_metrics(saved):
    """Issue 42: "chrfpp agrees best ... chrf least" ranked r values within 0.027 with every p >= 0.17."""
    _write(
        saved,
        "metric_comparison",
        pd.DataFrame(
            {
                "level": "system",
                "statistic": "pearson",
                "metric_a": ["bleu", "chrf"],
                "metric_b": ["chrf", "bleu"],
                "delta": [-0.4, 0.4],
                "p": [0.83, 0.17],
            }
        ),
    )
    one = ch09.findings(saved).query("group == ''").set_index("quantity")
    assert pd.isna(one.loc["system_top", "value"]) and one.loc["system_top", "text"] == ""  # no best stated
    assert one.loc["system_tied", "text"] == "chrf and bleu" and one.loc["system_tied", "value"] == 0.17
    assert one.loc["system_tied", "tests"] == "chrf over bleu p = 0.17"
    assert one.loc["significant_pairs", "value"] == 0


def test_two_systems_state_no_correlation(saved):
    me = pd.read_csv(saved / "meta_evaluation.csv")
    me.loc[me["level"] == "system", ["estimate", "ci_low", "ci_high"]] = float("nan")
    me.loc[me["level"] == "system", "n"] = 2
    _write(saved, "meta_evaluation", me)
    one = ch09.findings(saved).query("group == ''").set_index("quantity")
    assert one.loc["too_few_systems", "value"] == 1 and one.loc["too_few_systems", "text"] == "2"
    assert pd.isna(one.loc["system_top", "value"]) and pd.isna(one.loc["system_tied", "value"])
