"""Chapter 03 (helpers.metahope.ch03): its parameter checks, its steps and its findings, recomputed
from small hand-made result CSVs whose numbers are known by construction."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.book.findings import Findings, Words
from helpers.core.errors import InputError
from helpers.metahope import ch03, chapter_common, scoring


def _words() -> Words:
    return Words(ch03.CHAPTER, shared=chapter_common.SHARED_WORDS)


def _write(folder, **tables):
    for name, rows in tables.items():
        pd.DataFrame(rows).to_csv(folder / f"{name}.csv", index=False)


def _common(folder, simulated: bool):
    """The tables every run writes: data summary, Tables 7 and 8, the Table 12 unit's anatomy."""
    _write(
        folder,
        data_summary={
            "quantity": ["items", "units", "systems", "annotators", "simulated", "metahope"],
            "value": [4, None, 3, 3, int(simulated), int(simulated)],
            "text": ["", "metaphor items", "", "A, B, C", "", ""],
        },
        agreement_by_system={
            "system": ["A", "B", "C"],
            "ordinal_alpha": [0.85, 0.70, 0.10],
            "exact_presence_agreement": [50.0, 25.0, 75.0],
        },
        agreement_by_error={
            "error": ["IMP", "MIS", "PRF"],
            "ordinal_alpha": [0.5, 0.1, 0.9],
            "exact_score_agreement": [80.0, 60.0, 95.0],
        },
        # A: MIS 4; B: MIS 2 + STL 2; C: nothing
        disagreement_anatomy={
            "annotator": ["A", "B", "C"],
            "IMP": [0, 0, 0],
            "RAM": [0, 0, 0],
            "MIS": [4, 2, 0],
            "STL": [0, 2, 0],
            "PRF": [0, 0, 0],
            "total": [4, 4, 0],
            "detected": [True, True, False],
        },
    )


def test_findings_recomputed_from_the_saved_csvs_of_a_simulated_run(tmp_path):
    _common(tmp_path, simulated=True)
    _write(
        tmp_path,
        sentence_icc={"system": ["A"], "icc2_1": [0.4], "icc2_1_ci_low": [0.1], "icc2_1_ci_high": [0.7]},
        seed_study={"seed": [0, 0, 1, 1, 2, 2], "system": ["A", "B"] * 3, "segs_alpha": [0.2, 0.5, 0.4, 0.1, 0.3, 0.3]},
        seed_noise={
            "system_a": ["A", "A"],
            "system_b": ["B", "C"],
            "share_a_ahead": [1 / 3, 0.0],
            "seed_noise": [True, False],
        },
        simulation_sweeps={
            "knob": ["noise", "noise", "false_alarm", "false_alarm"],
            "value": [0.5, 6, 0, 0.4],
            "statistic": ["ordinal α on SEGS"] * 2 + ["exact presence agreement (%)"] * 2,
            "metric": [0.3, 0.1, 50.0, 40.0],
            "metric_min": [0.2, 0.05, 45.0, 30.0],
            "metric_max": [0.35, 0.15, 55.0, 48.0],
        },
    )
    found = ch03.findings(tmp_path, "findings")
    one = found[found["group"] == ""].set_index("quantity")
    per = found.set_index(["quantity", "group"])
    assert one.loc["simulated", "value"] == 1 and one.loc["units", "text"] == "metaphors"
    assert one.loc["sentence_level", "value"] == 1
    # Krippendorff's reading by key: 0.85 reliable, 0.70 tentative, 0.10 too low
    assert per.loc[("alpha", "A"), "text"] == "reliable" and per.loc[("alpha", "B"), "text"] == "tentative"
    assert per.loc[("alpha", "C"), "text"] == "too_low" and per.loc[("presence", "B"), "value"] == 25.0
    # categories: MIS lowest (0.1), PRF highest (0.9); exact agreement 60 to 95
    assert (one.loc["worst_category", "value"], one.loc["worst_category", "text"]) == (0.1, "MIS")
    assert (one.loc["best_category", "value"], one.loc["best_category", "text"]) == (0.9, "PRF")
    assert one.loc["exact", ["value", "ci_low", "ci_high"]].tolist() == [60.0, 60.0, 95.0]
    assert per.loc[("icc", "A"), ["value", "ci_low", "ci_high"]].tolist() == [0.4, 0.1, 0.7]
    # teams: A's α 0.2, 0.4, 0.3 -> 0.2 to 0.4; B's 0.5, 0.1, 0.3 -> 0.1 to 0.5
    assert one.loc["teams", "value"] == 3
    assert per.loc[("team_alpha", "A"), ["value", "ci_low", "ci_high"]].tolist() == [0.2, 0.2, 0.4]
    assert per.loc[("team_alpha", "B"), ["ci_low", "ci_high"]].tolist() == [0.1, 0.5]
    noisy, firm = per.loc[("noisy", "A · B")], per.loc[("firm", "A · C")]
    assert noisy["value"] == pytest.approx(1 / 3) and (noisy["ahead"], noisy["behind"]) == ("B", "A")
    assert firm["value"] == 1.0 and (firm["ahead"], firm["behind"]) == ("C", "A")
    # sweeps: first value, range over all points, the last value
    noise = per.loc[("sweep", "noise")]
    assert noise[["value", "ci_low", "ci_high", "start", "end", "last"]].tolist() == [0.3, 0.05, 0.35, 0.5, 6, 0.1]
    alarm = per.loc[("sweep_percent", "false_alarm")]
    assert (alarm["knob"], alarm["statistic"]) == ("false alarm", "exact presence agreement")
    assert alarm[["value", "ci_low", "ci_high", "last"]].tolist() == [50.0, 30.0, 55.0, 40.0]
    # the anatomy: 2 of 3 saw an error, in MIS and STL, totals 0 to 4
    assert one.loc[["detected", "annotators", "categories", "lowest_total", "highest_total"], "value"].tolist() == [
        2,
        3,
        2,
        0,
        4,
    ]
    text = _words().text("findings", found)
    assert "A: α 0.85 (reliable)" in text and "B: α 0.70 (tentative conclusions only)" in text
    assert "C: α 0.10 (too low for conclusions)" in text
    assert "The order of A and B changes with the team (the first is ahead in 33% of the 3 teams)" in text
    assert "Raising false alarm from 0 to 0.4 moves exact presence agreement from 50% to 40%" in text


def test_findings_of_own_foreign_data_leave_out_what_needs_the_simulation(tmp_path):
    _common(tmp_path, simulated=False)  # no seed study, sweeps or sentence level: a team's own MQM file
    found = ch03.findings(tmp_path, "findings")
    one = found[found["group"] == ""].set_index("quantity")
    assert one.loc["simulated", "value"] == 0 and one.loc["unit", "text"] == "segment"
    for name in ("teams", "team_alpha", "noisy", "firm", "sweep", "sweep_percent", "icc"):
        assert pd.isna(one.loc[name, "value"]), name
    text = _words().text("findings", found)
    assert "The annotators reach ordinal α" in text and "simulated teams" not in text and "Raising" not in text
    assert "In the most disputed unit, 2 of 3 annotators saw an error" in text and "in one segment." in text


def test_findings_inputs_are_the_chapters_public_csvs():
    assert set(ch03.FINDINGS_INPUTS) >= {
        "data_summary",
        "agreement_by_system",
        "agreement_by_error",
        "disagreement_anatomy",
    }


def test_description_says_what_the_data_are():
    from helpers.core.book.report import Provenance

    tidy = pd.DataFrame(
        {
            "item": ["i1", "i1", "i2"],
            "system": ["s", "t", "s"],
            "annotator": ["A", "B", "A"],
            "category": pd.Categorical(["MIS", "MIS", "IMP"], categories=["IMP", "RAM", "MIS", "STL", "PRF"]),
        }
    )
    found = ch03.description(ch03.Data(Provenance("own"), tidy)).set_index("quantity")
    assert found.loc[["items", "systems", "annotators", "simulated", "metahope"], "value"].tolist() == [2, 2, 2, 0, 1]
    assert found.loc["annotators", "text"] == "A, B" and found.loc["units", "text"] == "metaphor items"


def test_setup_own_csv_needs_two_annotators_and_its_columns(tmp_path):
    one = tmp_path / "one.csv"
    pd.DataFrame({"item": ["i1"], "system": ["s"], "annotator": ["A"], "category": ["MIS"], "severity": [2]}).to_csv(
        one, index=False
    )
    with pytest.raises(InputError, match=r"parameter 'annotations', .*one.csv: has 1 annotator\(s\) \['A'\]"):
        ch03.setup(annotations=str(one))
    bad = tmp_path / "bad.csv"
    bad.write_text("item,system,category,severity\ni1,s,MIS,2\n")
    with pytest.raises(InputError, match=r"missing column\(s\) \['annotator'\]"):
        ch03.setup(annotations=str(bad))
    with pytest.raises(
        InputError,
        match=r"parameter 'panel': value \{'name': 'S1', 'treshold': 3\}: annotator 1: "
        r"unknown knob\(s\) \['treshold'\]",
    ):
        ch03.setup(panel=[{"name": "S1", "treshold": 3}])
    with pytest.raises(InputError, match=r"parameter 'sentence_raters'.*out of range"):
        ch03.setup(sentence_raters=9)


def test_chapter_3_says_whose_scores_the_released_sheet_holds(monkeypatch):
    table12 = pd.DataFrame(
        {"annotator": ["A", "B"], "IMP": [0, 0], "RAM": [0, 0], "MIS": [8, 10], "STL": [0, 0], "PRF": [2, 0]}
    )
    released = pd.DataFrame({"category": ["IMP", "RAM", "MIS", "STL", "PRF"], "severity": [0, 0, 10, 0, 0]})
    monkeypatch.setattr(ch03, "_released_unit", lambda item, system: released)
    found = ch03.released_against_table12(table12).set_index("quantity")
    assert (found.loc["released_scores", "value"], found.loc["released_scores", "text"]) == (10, "MIS 10")
    assert found.loc["released_matches", "text"] == "B" and found.loc["released_unmatched", "value"] == 0
    found = ch03.released_against_table12(table12[table12["annotator"] == "A"])
    said = _words().text(
        "example",
        pd.concat(
            [
                found,
                Findings()
                .add("simulated", True)
                .add("missing_sheet", False)
                .add("sentence", text="S")
                .add("metaphor", text="m")
                .add("pos", text="v")
                .add("system", text="X")
                .add("translation", text="T")
                .add("disputed")
                .add("unit")
                .add("item")
                .frame(),
            ],
            ignore_index=True,
        ),
    )
    assert "records MIS 10 (total 10)" in said and "exactly these five scores: none" in said
    assert "not one of the pilot-v2 annotators' sheets" in said and "Human Gold Standard" in said


@pytest.mark.parametrize(
    "severities, category, severity",
    [
        (
            {"A": {"MIS": 4}, "B": {"MIS": 2, "STL": 2}, "C": {}},
            "filed under 2 categories, MIS (2), STL (1): the same problem",
            "totals range from 0 to 4; even the annotators who chose MIS gave 4, 2",
        ),
        ({"A": {"MIS": 4}, "B": {}, "C": {}}, "everyone who recorded an error filed it under MIS", "from 0 to 4."),
        ({"A": {}, "B": {}, "C": {}}, "nobody recorded an error, so there is no category", "from 0 to 0."),
    ],
)
def test_anatomy_summary_says_what_the_unit_shows(severities, category, severity):
    rows = [(a, c, severities[a].get(c, 0)) for a in severities for c in ("IMP", "RAM", "MIS", "STL", "PRF")]
    anatomy = scoring.disagreement_anatomy(pd.DataFrame(rows, columns=["annotator", "category", "severity"]))
    text = _words().text("anatomy", ch03.anatomy_summary(anatomy.scores))
    detected = sum(bool(s) for s in severities.values())
    assert f"**Detection**: {detected} of 3 annotators recorded an error" in text
    assert category in text and severity in text
    assert text.count("- **") == 3


def test_nothing_is_stated_without_result_files(tmp_path):
    """An empty folder: every section's quantities are there, none applies (no crash, no constant)."""
    found = ch03.findings(tmp_path)
    assert set(found["section"]) == set(ch03.SECTIONS)
    assert {"items", "released_matches", "category_use", "no_data", "margin", "reliable_alpha", "alpha"} <= set(
        found["quantity"]
    )
    assert found["value"].isna().all() and (found["text"] == "").all()


def test_every_section_is_recomputed_from_its_saved_table(tmp_path):
    """The data box, the Table 12 unit, its anatomy and the plan come from their CSVs, like the closing section."""
    _common(tmp_path, simulated=True)
    _write(
        tmp_path,
        disagreement_example={
            "quantity": ["simulated", "metaphor", "released_matches"],
            "value": [1, None, 0],
            "text": ["", "做", "none"],
        },
    )
    plan = {
        "data": ["X"] * 4,
        "margin": [2.0] * 4,
        "sentences": [20, 200, 20, 200],
        "raters": [1, 1, 2, 2],
        "power": [0.3, 0.7, 0.5, 0.9],
        "alpha_width": [0.4, 0.2, 0.3, 0.1],
        "difference_width": [4.0, 2.0, 3.0, 1.0],
        "alpha": [0.5] * 4,
    }
    _write(tmp_path, study_plan=plan)
    found = ch03.findings(tmp_path)
    assert list(found["section"].unique()) == list(ch03.SECTIONS)
    data = ch03.findings(tmp_path, "data").set_index("quantity")
    assert data.loc["items", "value"] == 4 and data.loc["annotators", "text"] == "A, B, C"
    example = ch03.findings(tmp_path, "example").set_index("quantity")
    assert example.loc["metaphor", "text"] == "做" and example.loc["released_matches", "value"] == 0
    # anatomy: A MIS 4, B MIS 2 + STL 2, C nothing: 2 of 3 detected, MIS used by 2 (severities 4, 2), STL by 1
    anatomy = ch03.findings(tmp_path, "anatomy").set_index(["quantity", "group"])
    assert anatomy.loc[("detected", ""), "value"] == 2 and anatomy.loc[("none_recorded", ""), "text"] == "C"
    assert anatomy.loc[("category_use", "MIS"), "value"] == 2 and anatomy.loc[("category_use", "STL"), "value"] == 1
    assert (anatomy.loc[("top_category", ""), "text"], anatomy.loc[("top_category", ""), "severities"]) == (
        "MIS",
        "4, 2",
    )
    # the plan: at 200 sentences × 2 raters power 0.9, at 20 × 2 0.5; 80 % needs 200 with 2 raters, more than 200 with 1
    p = ch03.findings(tmp_path, "plan").set_index(["quantity", "group"])
    assert p.loc[("at_plan", "X"), ["value", "alpha_width", "difference_width"]].tolist() == [0.9, 0.1, 1.0]
    assert p.loc[("at_pilot", "X"), "value"] == 0.5 and p.loc[("no_data", ""), "value"] == 0
    assert p.loc[("needed", "X · 2"), "value"] == 200 and p.loc[("needed", "X · 1"), "text"] == "more than 200"
    # a plan saved empty (no data fetched) says so; no plan saved says nothing
    (tmp_path / "study_plan.csv").write_text("\n")
    assert ch03.findings(tmp_path, "plan").set_index("quantity").loc["no_data", "value"] == 1
    (tmp_path / "study_plan.csv").unlink()
    assert ch03.findings(tmp_path, "plan")["value"].isna().all()
    with pytest.raises(InputError, match="section"):
        ch03.findings(tmp_path, "nothing")


def test_a_power_near_one_prints_as_above_99_percent(tmp_path):
    # issue 43: the plan's power of 0.9956 was printed "100%"
    _common(tmp_path, simulated=True)
    plan = {
        "data": ["X"] * 2,
        "margin": [2.0] * 2,
        "sentences": [20, 200],
        "raters": [2, 2],
        "power": [0.004, 0.9956],
        "alpha_width": [0.3, 0.1],
        "difference_width": [3.0, 1.0],
        "alpha": [0.5] * 2,
    }
    _write(tmp_path, study_plan=plan)
    said = _words().text("plan", ch03.findings(tmp_path, "plan"))
    assert "power >99% to separate" in said and "power <1% at 2 points" in said
    assert "100%" not in said and " 0%" not in said


def test_the_teams_without_their_order_table_state_only_the_range_of_alpha(tmp_path):
    _common(tmp_path, simulated=True)
    _write(tmp_path, seed_study={"seed": [0, 0, 1, 1], "system": ["A", "B"] * 2, "segs_alpha": [0.2, 0.5, 0.4, 0.1]})
    per = ch03.findings(tmp_path, "findings").set_index(["quantity", "group"])
    assert per.loc[("team_alpha", "A"), ["value", "ci_low", "ci_high"]].tolist() == [0.2, 0.2, 0.4]
    assert pd.isna(per.loc[("noisy", ""), "value"]) and pd.isna(per.loc[("firm", ""), "value"])


def test_calibration_table_by_hand():
    from helpers.metahope import ch03

    study = pd.DataFrame(
        {
            "seed": [0, 0, 1, 1, 2, 2],
            "system": ["B", "A"] * 3,
            "segs_alpha": [0.1, 0.3, 0.2, 0.5, 0.6, 0.4],
            "presence_agreement": [20, 40, 30, 50, 10, 45],
        }
    )
    published = pd.DataFrame(
        {"system": ["A", "B"], "ordinal_alpha": ["0.22", "0.16"], "exact_presence_agreement": ["47", "16"]}
    )
    t = ch03.calibration_table(study, published).set_index("system")
    assert t.index.tolist() == ["B", "A"]  # the study's order
    # B: α 0.1, 0.2, 0.6 -> mean 0.3; presence 20, 30, 10 -> mean 20.  A: α 0.3, 0.5, 0.4; presence 40, 50, 45
    assert t.loc["B", ["alpha_mean", "alpha_min", "alpha_max"]].tolist() == pytest.approx([0.3, 0.1, 0.6])
    assert t.loc["A", ["alpha_mean", "alpha_min", "alpha_max"]].tolist() == pytest.approx([0.4, 0.3, 0.5])
    assert t.loc["B", ["presence_mean", "presence_min", "presence_max", "teams"]].tolist() == [20, 10, 30, 3]
    assert t.loc["A", ["presence_mean", "presence_min", "presence_max", "teams"]].tolist() == [45, 40, 50, 3]
    assert t.loc["A", ["published_alpha", "published_presence"]].tolist() == [0.22, 47.0]
    assert t.loc["B", ["published_alpha", "published_presence"]].tolist() == [0.16, 16.0]


def test_a_category_with_undefined_alpha_is_neither_best_nor_worst(tmp_path):
    _common(tmp_path, simulated=True)
    _write(
        tmp_path,
        agreement_by_error={
            "error": ["IMP", "MIS", "PRF"],
            "ordinal_alpha": [0.5, 0.1, None],
            "exact_score_agreement": [80.0, 60.0, 95.0],
        },
    )
    one = ch03.findings(tmp_path, "findings").query("group == ''").set_index("quantity")
    assert (one.loc["best_category", "text"], one.loc["worst_category", "text"]) == ("IMP", "MIS")
    _write(tmp_path, agreement_by_error={"error": ["IMP"], "ordinal_alpha": [None], "exact_score_agreement": [80.0]})
    one = ch03.findings(tmp_path, "findings").query("group == ''").set_index("quantity")
    assert pd.isna(one.loc["best_category", "value"]) and one.loc["best_category", "text"] == ""
