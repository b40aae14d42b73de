"""Chapter 07's module: its parameter checks, the committed comparison, and the findings
recomputed from hand-made result CSVs (every number checked against a value worked out by hand)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from helpers.core import Words
from helpers.core.errors import InputError
from helpers.slang import ch07, ch07_findings, ch07_views
from helpers.slang import robustness as rb


def test_setup_checks_the_model_parameters():
    assert ch07.setup().qe_models == ("features", "use")
    with pytest.raises(InputError, match=r"parameter 'qe_models\[1\]': value 'xlmr'"):
        ch07.setup(qe_models=["features", "xlmr"])
    with pytest.raises(InputError, match="names a model twice"):
        ch07.setup(qe_models=["features", "features"])
    with pytest.raises(InputError, match="non-empty list"):
        ch07.setup(compare_models=[])
    with pytest.raises(InputError, match=r"parameter 'n_boot'"):
        ch07.setup(n_boot=10)
    settings = ch07.setup(epochs=2, max_length=64).settings
    assert settings.epochs == 2 and settings.max_length == 64 and settings.device == "auto"


def test_homophones_file_needs_five_per_word(tmp_path):
    path = tmp_path / "h.csv"
    pd.DataFrame({"word": ["尼玛"] * 2, "candidate": ["泥马", "你妈"]}).to_csv(path, index=False)
    with pytest.raises(InputError, match=r"lists only 2 homophone\(s\) of 尼玛; Method 1 needs 5"):
        ch07.setup(homophones_file=str(path))
    with pytest.raises(InputError, match=r"parameter 'instances': value 'some'"):
        ch07.setup(instances="some")


def test_measured_comparison_is_committed_with_its_record():
    measured = ch07.measured_comparison()
    assert measured.table is not None, "data/measured/qe_model_comparison.csv is missing"
    assert list(measured.table.columns) == [
        "kind",
        "model",
        "evaluated_on",
        "rho",
        "pearson",
        "n",
        "seconds",
        "cpu_seconds",
    ]
    assert {"command", "date", "machine"} <= set(measured.record)
    assert measured.record["command"].startswith("python tools/measure_qe_models.py")
    assert "features" in set(measured.table["kind"])
    record = ch07.comparison_record(measured, measured_now=False).set_index(["item", "group"])
    assert record.loc[("measured_now", ""), "value"] == 0 and record.loc[("budget_seconds", ""), "value"] == 90
    assert record.loc[("chapter_seconds", "[features]"), "value"] == 33.2
    now = ch07.comparison_record(measured, measured_now=True)  # measured in this run: no committed record
    assert set(now["item"]) == {"measured_now", "budget_seconds"}


def _save(folder, name, frame):
    pd.DataFrame(frame).to_csv(folder / f"{name}.csv", index=False)


def _interval_rows(split, model, **stats):
    return [
        {"model": model, "statistic": k, "value": v[0], "ci_low": v[1], "ci_high": v[2], "n": v[3], "split": split}
        for k, v in stats.items()
    ]


@pytest.fixture
def saved(tmp_path):
    """A small chapter run's result CSVs, written by hand."""
    _save(
        tmp_path,
        "data_summary",
        {
            "quantity": [
                "split_lines",
                "aligned",
                "annotated_rows",
                "annotated_not_in_splits",
                "sources_in_several_splits",
                "mismatched_rows",
                "post_edit_rows",
                "post_edited",
                "lines_with_post_edit",
                "identical",
                "target_lines",
                "targets_rho",
                "resplit_seed",
                "instances",
                "m2g1",
                "qe_models",
                "n_boot",
                "seed",
            ],
            "value": [50, 48, 60, 12, 3, 2, 30, 28, 20, 4, 48, 0.9, 7, None, 0, 1, 200, 0],
            "text": ["", "", "", "", "", "5, 9", "", "", "", "", "", "", "", "held_out", "", "reader", "", ""],
        },
    )
    _save(
        tmp_path,
        "score_check",
        [
            {
                "sheet_rows": 10,
                "released_rule_mean": 3.0,
                "released_rule_sd": 2.0,
                "released_rule_share": 90.0,
                "lines": 10,
                "released_rule_share_any_row": 100.0,
                "implied_mean": 3.0,
                "implied_sd": 2.0,
                "identical_penalty_share": 80.0,
                "mixed_severity_lines": 2,
                "mixed_severity_sheet_rows": 2,
            }
        ],
    )
    _save(
        tmp_path,
        "score_patterns",
        {
            "severities": ["Minor", "Critical; Minor"],
            "sheet_penalty": [1.0, 11.0],
            "implied_penalty": [1.0, 20.0],
            "released_rule_penalty": [1.0, 20.0],
            "lines": [5, 1],
        },
    )
    _save(tmp_path, "slang_counts", {"word": ["尼玛", "草泥马"], "rule a": [9, 5], "rule b": [12, 7], "paper": [10, 5]})
    _save(
        tmp_path,
        "split_sizes",
        {
            "evaluation": ["released split"] * 4 + ["re-split"] * 3,
            "split": ["train", "dev", "test", "test, posts not in train", "train", "dev", "test"],
            "lines": [20, 10, 10, 6, 19, 9, 9],
            "sources": [18, 9, 9, 6, 17, 9, 9],
            "sources_also_in_train": [0, 3, 4, 0, 0, 0, 0],
        },
    )
    _save(
        tmp_path,
        "model_comparison",
        {
            "kind": ["use", "features"],
            "model": ["USE+ridge", "features+ridge"],
            "evaluated_on": ["re-split test"] * 2,
            "rho": [0.39, 0.41],
            "pearson": [0.38, 0.44],
            "n": [929, 929],
            "seconds": [24.8, 2.5],
            "cpu_seconds": [46.0, 2.7],
        },
    )
    _save(
        tmp_path,
        "model_comparison_record",
        {
            "item": [
                "measured_now",
                "date",
                "machine",
                "command",
                "budget_seconds",
                "chapter_timing",
                "chapter_seconds",
            ],
            "group": ["", "", "", "", "", "", "[reader]"],
            "value": [0, None, None, None, 90.0, None, 40.0],
            "text": ["", "2026-11-30", "a laptop", "python tools/measure_qe_models.py", "", "by hand", ""],
        },
    )
    _save(
        tmp_path,
        "qe_models",
        {
            "model": ["reader"] * 2,
            "evaluated_on": ["test (as released)", "test, posts not in train"],
            "rho": [0.3, 0.5],
            "rho_p": [0.1, 0.1],
            "pearson": [0.3, 0.5],
            "pearson_p": [0.1, 0.1],
            "n": [10, 6],
        },
    )
    _save(
        tmp_path,
        "qe_models_resplit",
        {
            "model": ["reader"],
            "evaluated_on": ["re-split test"],
            "rho": [0.4],
            "rho_p": [0.1],
            "pearson": [0.4],
            "pearson_p": [0.1],
            "n": [9],
        },
    )
    _save(
        tmp_path,
        "qe_models_resplit_dev",
        {
            "model": ["reader"],
            "evaluated_on": ["re-split dev"],
            "rho": [0.35],
            "rho_p": [0.1],
            "pearson": [0.3],
            "pearson_p": [0.1],
            "n": [9],
        },
    )
    _save(
        tmp_path,
        "qe_models_corrected_target",
        {
            "split": "re-split",
            "model": "reader",
            "trained_on": ["released scores", "released scores", "sum of penalties", "sum of penalties"],
            "evaluated_against": ["released scores", "sum of penalties", "released scores", "sum of penalties"],
            "evaluated_on": "re-split test",
            "rho": [0.4, 0.3, 0.45, 0.5],
            "pearson": [0.4, 0.3, 0.45, 0.5],
            "n": 9,
        },
    )
    _save(
        tmp_path,
        "perturbed_posts",
        {
            "evaluation": ["re-split"] * 3,
            "word": ["all", "尼玛", "草泥马"],
            "posts": [8, 6, 2],
            "post_edited": [7, 5, 2],
        },
    )
    _save(
        tmp_path,
        "stability_intervals",
        _interval_rows(
            "re-split",
            "reader",
            G0_rho=(0.5, 0.2, 0.7, 8),
            mean_rho_change=(-0.01, -0.03, 0.01, 8),
            relative_shift=(0.09, 0.07, 0.11, 8),
            abs_shift_to_error=(0.04, 0.03, 0.05, 8),
            swap_relative_shift=(1.2, 0.9, 1.5, 8),
            signed_relative_shift=(0.08, 0.06, 0.10, 8),
            M2G2_share_increased=(75.0, 60.0, 90.0, 8),
        ),
    )
    _save(
        tmp_path,
        "stability_verdicts",
        {
            "model": ["reader"],
            "ranks_posts": [True],
            "reads_source": [True],
            "homophones": ["much_smaller"],
            "better_mt": ["rises"],
            "verdict": ["robust"],
            "homophone_shift": ["within tolerance"],
            "signed_shift": ["up"],
            "split": ["re-split"],
        },
    )
    _save(
        tmp_path,
        "homophone_shift_by_word",
        {
            "model": ["reader"] * 2,
            "word": ["尼玛", "草泥马"],
            "n_posts": [6, 2],
            "signed_relative_shift": [0.1, 0.02],
            "ci_low": [0.05, -0.01],
            "ci_high": [0.15, 0.05],
            "split": "re-split",
        },
    )
    _save(
        tmp_path,
        "paper_tables_5_6_check",
        {
            "model": ["a", "a", "b"],
            "group": "M1G1",
            "metric": "rho",
            "raw": [0.5, 0.4, 0.3],
            "g0": 0.5,
            "pct_change_computed": [0, -20, -40],
            "pct_change_printed": [0, -20, -35],
            "diff": [0, 0, 5],
        },
    )
    _save(
        tmp_path,
        "paper_tables_5_6_flagged",
        {
            "model": ["b"],
            "group": "M1G1",
            "metric": "rho",
            "raw": [0.3],
            "g0": 0.5,
            "pct_change_computed": [-40],
            "low": [-40.2],
            "high": [-39.8],
            "pct_change_printed": [-35],
        },
    )
    return tmp_path


def _value(found, quantity, group=""):
    rows = found[(found["quantity"] == quantity) & (found["group"] == group)]
    assert len(rows) == 1, (quantity, group, len(rows))
    return rows.iloc[0]["value"] if not pd.isna(rows.iloc[0]["value"]) else rows.iloc[0]["text"]


def test_findings_are_recomputed_from_the_saved_csvs(saved):
    found = ch07.findings(saved)
    assert list(found.columns[:8]) == ["quantity", "group", "value", "ci_low", "ci_high", "p", "text", "section"]
    assert list(dict.fromkeys(found["section"])) == list(ch07_findings.SECTIONS)
    section = {name: found[found["section"] == name] for name in ch07_findings.SECTIONS}
    assert _value(section["alignment"], "mismatched_rows") == 2
    assert section["alignment"].set_index("quantity").loc["mismatched_rows", "text"] == "5, 9"
    assert _value(section["post_edits"], "lines_with_post_edit") == 20
    # 90% of 10 lines follow the released rule: 1 other; 2 of 10 lines mixed; "Minor" is weighted alike by both rules
    rule = section["score_rule"]
    assert _value(rule, "others") == 1 and _value(rule, "mixed_share") == 0.2 and _value(rule, "others_from_other_row")
    assert set(rule.loc[rule["quantity"] == "misweighted", "group"]) == {"Critical; Minor"}
    # rule a: |9-10| + |5-5| = 1; rule b: 2 + 2 = 4
    sel = section["selection_rule"]
    assert _value(sel, "rule_distance", "rule a") == 1 and _value(sel, "rule_distance", "rule b") == 4
    assert _value(sel, "closest") == 1 and sel.set_index("quantity").loc["closest", "text"] == "rule a"
    assert _value(sel, "exact") == 0 and _value(sel, "paper_total") == 15 and _value(sel, "rule_total", "rule b") == 19
    # 10 released test lines, 6 of them not in train: 4 leaked; 40 released lines, 37 in the re-split: 3 repeated
    leak = section["leakage"]
    assert _value(leak, "leaked") == 4 and _value(leak, "leaked_share") == 0.4 and _value(leak, "duplicates") == 3
    assert _value(leak, "identical") == 4 and _value(leak, "seed") == 7 and _value(leak, "resplit_test") == 9
    # the committed comparison has no dev scores: ordered on test, 0.41 before 0.39
    cmp = section["comparison"]
    assert cmp.set_index("quantity").loc["best", "text"] == "features+ridge" and _value(cmp, "best") == 0.41
    assert _value(cmp, "ranked_on_dev") == 0 and _value(cmp, "test_gap") == pytest.approx(0.02)
    assert _value(cmp, "gap_inside") == 1  # Fisher z of a rho on 929 lines: about +-0.06
    assert _value(cmp, "chapter_seconds", "[reader]") == 40 and _value(cmp, "models") == "`reader`"
    assert _value(section["selection"], "dev_rho", "reader") == 0.35
    # trained on the sum of penalties: 0.5 against 0.4 on the released scores
    target = section["target"]
    assert _value(target, "target_change", "reader, re-split test") == pytest.approx(0.1)
    assert _value(target, "targets_rho") == 0.9 and _value(target, "mixed_severity_lines") == 2
    inst = section["instances"]
    assert _value(inst, "posts", "re-split") == 8 and _value(inst, "word_posts", "re-split, 草泥马") == 2
    assert _value(inst, "m2g1") == 0 and _value(inst, "selection") == "held_out"
    stab = section["stability"]
    group = "re-split, reader"
    assert _value(stab, "posts", group) == 8 and _value(stab, "m2g2_posts", group) == 8
    assert _value(stab, "shift_raises", group) == 1 and _value(stab, "shift_size", group) == 0.08
    assert _value(stab, "verdict", group) == "robust" and _value(stab, "pushed_up", group) == 1
    assert _value(stab, "word_shift", "re-split, reader, 尼玛") == 0.1
    t56 = section["tables_5_6"]
    assert (_value(t56, "follow"), _value(t56, "printed"), _value(t56, "not_following")) == (2, 3, 1)
    # released test 0.3, its posts not in train 0.5, re-split test 0.4
    fin = section["findings"]
    assert _value(fin, "released_minus_clean", "reader") == pytest.approx(-0.2)
    assert _value(fin, "released_minus_resplit", "reader") == pytest.approx(-0.1)
    z, se = math.atanh(0.4), math.sqrt(1.06 / (9 - 3))  # the approximate interval of a Spearman rho (Fisher z)
    low, high = fin[(fin["quantity"] == "resplit_rho")][["ci_low", "ci_high"]].iloc[0]
    assert (low, high) == pytest.approx((math.tanh(z - 1.959964 * se), math.tanh(z + 1.959964 * se)), abs=1e-4)
    assert _value(fin, "robust") == 1 and _value(fin, "both") == 1 and _value(fin, "changes_little", "reader") == 0
    assert _value(fin, "other_models") == 1 and _value(fin, "other_rho", "USE+ridge") == 0.39


def test_every_section_reads_from_the_saved_csvs_in_the_words(saved):
    words = Words("07_qe_robustness")
    text = {name: words.text(name, ch07.findings(saved, name)) for name in ch07_findings.SECTIONS}
    assert "rows 5, 9" in text["alignment"]
    assert "**4 of the 10 released test lines (40%) have a source" in text["leakage"]
    assert "“Critical; Minor” gets 20 instead of 11 (1 lines)" in text["score_rule"]
    assert "`python tools/measure_qe_models.py`" in text["comparison"]
    assert (
        "reader, re-split test: Spearman 0.400 when trained and scored on the released scores, 0.500" in text["target"]
    )
    assert "2 of 3 printed percentages follow" in text["tables_5_6"]
    reading = (
        "robust to homophones: ranks the posts and reads the source, and homophones move its scores by 0.04 "
        "[0.03, 0.05] of its own error (RMSE; tolerance 0.1), systematically up by 0.08 [0.06, 0.10] SD; "
        "its score rises with the post-edited MT."
    )
    assert f"Reading: {reading}" in text["stability"] and f"Verdict: {reading}" in text["findings"]
    assert "robust to homophones: reader" in text["findings"] and "the two differ by -0.200" in text["findings"]
    with pytest.raises(InputError, match="parameter 'section'"):
        ch07.findings(saved, "conclusions")


def test_a_folder_without_results_states_nothing(tmp_path):
    """Without result files every quantity is there and none is stated: no committed default (the
    90 s budget), no module constant (the tolerances) and no "not measured" without the run's record."""
    found = ch07.findings(tmp_path)
    assert list(dict.fromkeys(found["section"])) == list(ch07_findings.SECTIONS)
    stated = found[found["value"].notna() | (found["text"] != "")]
    assert stated.empty, stated["quantity"].tolist()
    for section in ch07_findings.SECTIONS:  # every quantity the words name is there
        Words("07_qe_robustness").text(section, ch07.findings(tmp_path, section))
    for name in ("budget", "measured", "measured_now", "tolerance", "not_reading", "robust", "beside_verdict"):
        assert name in set(found["quantity"]), name


def test_the_budget_and_the_tolerances_come_from_the_run_s_tables(saved):
    record = pd.read_csv(saved / "model_comparison_record.csv", keep_default_na=False)
    record.loc[record["item"] == "budget_seconds", "value"] = "120.0"
    _save(saved, "model_comparison_record", record)
    assert _value(ch07.findings(saved, "comparison"), "budget") == 120
    stability = ch07.findings(saved, "stability")
    assert (_value(stability, "tolerance"), _value(stability, "not_reading")) == (rb.TOLERANCE, rb.NOT_READING)
    (saved / "stability_intervals.csv").unlink()
    stability = ch07.findings(saved, "stability")
    assert stability.set_index("quantity").loc[["tolerance", "not_reading"], "value"].isna().all()


@pytest.mark.parametrize(
    "change, reading",
    [
        # ranks the posts, but homophones move it by 0.12 of its error, beyond a tolerance of 0.1
        (
            {3: (0.12, 0.11, 0.16)},
            "not shown robust: homophones move its scores by 0.12 [0.11, 0.16] of its own error "
            "(RMSE; tolerance 0.1), systematically down by 0.11 [0.06, 0.17] SD.",
        ),
        ({0: (0.32, -0.1, 0.55)}, "not shown robust: does not rank these posts better than chance."),
        (
            {1: (0.05, 0.02, 0.08)},
            "stable by not reacting: a whole other source moves its score by less than 0.1 of its own spread.",
        ),
    ],
)
def test_a_verdict_key_reads_as_its_sentence(tmp_path, change, reading):
    iv = pd.DataFrame(
        {
            "model": "m",
            "statistic": [
                "G0_rho",
                "swap_relative_shift",
                "homophone_to_swap",
                "abs_shift_to_error",
                "signed_relative_shift",
                "mean_rho_change",
                "relative_shift",
            ],
            "value": [0.32, 2.3, 0.08, 0.05, -0.11, 0.01, 0.2],
            "ci_low": [0.05, 1.9, 0.06, 0.04, -0.17, -0.02, 0.1],
            "ci_high": [0.55, 3.0, 0.10, 0.06, -0.06, 0.03, 0.3],
            "n": 51,
        }
    )
    for row, (value, low, high) in change.items():
        iv.loc[row, ["value", "ci_low", "ci_high"]] = [value, low, high]
    _save(tmp_path, "stability_intervals", iv.assign(split="re-split"))
    _save(tmp_path, "stability_verdicts", rb.stability_verdicts(iv).assign(split="re-split"))
    text = Words("07_qe_robustness").text("stability", ch07.findings(tmp_path, "stability"))
    assert f"Reading: {reading}" in text


@pytest.mark.slow
def test_chapter_runs_with_one_model_measured_now_and_its_findings_come_back_from_the_csvs(tmp_path):
    """The feature model alone, measured in this run: the page says so, and findings.csv is what
    :func:`ch07.findings` recomputes from the saved tables."""
    import json

    from helpers.core import paths
    from helpers.core.book import execution

    out = execution.execute_notebook(
        paths.project_root() / "notebooks" / "07_qe_robustness.ipynb",
        tmp_path / "run.ipynb",
        parameters={
            "qe_models": ["features"],
            "compare_models": ["features"],
            "n_boot": 100,
            "results_dir": str(tmp_path / "res"),
        },
    )
    cells = json.loads(out.read_text(encoding="utf-8"))["cells"]
    shown = "\n".join("".join(o.get("data", {}).get("text/markdown", "")) for c in cells for o in c.get("outputs", []))
    assert "**Measured in this run**" in shown and "Most accurate on the re-split dev (test beside it)" in shown
    res = tmp_path / "res" / "07_qe_robustness"
    comparison = pd.read_csv(res / "model_comparison.csv")
    assert set(comparison["evaluated_on"]) == {ch07_views.DEV, ch07_views.TEST} and "rho" in comparison
    saved = pd.read_csv(res / "findings.csv").fillna({"group": "", "text": ""})
    again = ch07.findings(res)
    keys = ["section", "quantity", "group"]
    assert saved[keys].values.tolist() == again[keys].values.tolist()
    pd.testing.assert_series_equal(saved["value"], again["value"], check_names=False)
    assert set(saved.loc[saved["quantity"] == "verdict", "text"]) <= {"robust", "not_shown", "not_reacting"}


@pytest.mark.parametrize("partial", ["no verdicts file", "verdicts of another evaluation", "no intervals"])
def test_stability_findings_of_partial_tables_leave_out_what_they_lack(saved, partial):
    """A folder with only part of the stability tables: every quantity is still there, none of
    what the missing rows would give is stated, and every section's words still render."""
    if partial == "no verdicts file":
        (saved / "stability_verdicts.csv").unlink()
    elif partial == "verdicts of another evaluation":
        verdicts = pd.read_csv(saved / "stability_verdicts.csv")
        _save(saved, "stability_verdicts", verdicts.assign(split="released split"))
    else:  # the intervals saved with their columns but no row; the shift per word still has rows
        _save(saved, "stability_intervals", pd.read_csv(saved / "stability_intervals.csv").iloc[0:0])
    stability = ch07.findings(saved, "stability")
    group = "" if partial == "no intervals" else "re-split, reader"
    for quantity in ("verdict", "better_mt", "not_reacting", "pushed_up", "no_reason"):
        assert _value(stability, quantity, group) == "", quantity  # there, and neither value nor text
    if partial == "no intervals":
        assert _value(stability, "word_shift") == "" and _value(stability, "word_shift_posts") == ""
    else:  # the intervals still give their numbers, and the words their shift per word
        assert _value(stability, "signed_shift", group) == 0.08
        assert _value(stability, "word_shift", "re-split, reader, 尼玛") == 0.1
    words = Words("07_qe_robustness")
    for section in ch07_findings.SECTIONS:
        words.text(section, ch07.findings(saved, section))
