"""The explanation-rating teaching kit: blank workbooks, reading them back, feedback per student,
and chapter 4 run on filled-in workbooks."""

from __future__ import annotations

from io import StringIO

import numpy as np
import pandas as pd
import pytest
from openpyxl import load_workbook

from helpers import explanations as ex
from helpers.__main__ import main
from helpers.core.errors import InputError
from helpers.core.params import person_names
from helpers.explanations import ch04, ch05, io, template
from helpers.explanations import feedback as fb

PAPER_DEFINITIONS = (  # Naveriani et al. 2026, Table 1: the Guide sheet must not copy them
    "avoids restating the metaphor in equivalent figurative terms",
    "captures relevant cultural, historical, or contextual background",
    "identifies the conceptual relation between source and target domains",
    "captures the non-literal meaning that arises from the metaphor",
    "is understandable to the intended audience",
    "clarifies why the metaphor is communicatively effective",
)


@pytest.fixture(scope="module")
def benchmark():
    return ex.load_benchmark()


@pytest.fixture
def items_csv(tmp_path, benchmark):
    path = tmp_path / "items.csv"
    benchmark.head(6).to_csv(path, index=False)  # with the design columns, which must not reach the workbook
    return path


DONE_COLUMN = len(io.TEXT_COLUMNS) + len(ex.SCORES) + 1  # K


def fill(
    path, scores: dict[str, dict[str, int]] | None = None, ratings: pd.DataFrame | None = None, rater=None, done=True
):
    """Write scores into a template: ``scores[item][dimension]`` or a rater's tidy ratings;
    every item row is marked done unless ``done`` is False."""
    wb = load_workbook(path)
    ws = wb[io.RATINGS_SHEET]
    if ratings is not None:
        scores = (
            ratings[ratings["rater"] == rater]
            .pivot_table(index="item_id", columns="dimension", values="score", observed=True)
            .to_dict("index")
        )
    for row in range(io.HEADER_ROW + 1, ws.max_row + 1):
        item = ws.cell(row, 1).value
        for k, d in enumerate(ex.SCORES):
            if item in scores and d in scores[item]:
                ws.cell(row, len(io.TEXT_COLUMNS) + 1 + k, int(scores[item][d]))
        if done and item:
            ws.cell(row, DONE_COLUMN, "done")
    wb.save(path)
    return path


def filled_class(tmp_path, items_path, names=("ana", "ben", "cleo"), seed=7, benchmark=None):
    files = template.write_templates(items_path, ",".join(names), tmp_path / "class")
    bench = benchmark if benchmark is not None else ex.load_benchmark()
    items = pd.read_csv(items_path)["item_id"]
    sim = ex.simulate_ratings(bench[bench["item_id"].isin(items)], n_raters=len(names), seed=seed)
    for k, f in enumerate(files):
        fill(f, ratings=sim, rater=f"R{k + 1:02d}")
    return files, sim


# --------------------------------------------------------------------------- the template


def test_template_layout(tmp_path, items_csv):
    files = template.write_templates(items_csv, "ana,ben", tmp_path / "out")
    assert [f.name for f in files] == ["explanations_ana.xlsx", "explanations_ben.xlsx"]
    wb = load_workbook(files[0])
    assert wb.sheetnames == ["Ratings", "Guide"]
    ws = wb["Ratings"]
    assert ws["A1"].value == "Student:" and ws["B1"].value == "ana"
    header = [c.value for c in ws[io.HEADER_ROW]]
    assert header == [
        "item_id",
        "metaphor",
        "explanation",
        "Non-Circularity",
        "Origin & Cultural Accuracy",
        "Mapping",
        "Emergence",
        "Accessibility",
        "Purpose",
        "Overall",
        "done",
    ]
    assert [ws.cell(r, 1).value for r in range(4, 10)] == pd.read_csv(items_csv)["item_id"].tolist()
    assert ws["C4"].alignment.wrap_text
    assert all(ws.cell(r, c).value is None for r in range(4, 10) for c in range(4, 11))
    texts = " ".join(str(c.value) for row in ws.iter_rows() for c in row if c.value is not None)
    assert "targeted" not in texts and "reference" not in texts  # no answer key
    validation = ws.data_validations.dataValidation[0]
    assert validation.type == "list" and validation.formula1 == '"1,2,3,4,5"'
    assert str(validation.sqref) == "D4:J9"
    done = ws.data_validations.dataValidation[1]
    assert done.formula1 == '"done"' and str(done.sqref) == "K4:K9"
    guide = " ".join(str(c.value) for row in wb["Guide"].iter_rows() for c in row if c.value is not None)
    assert all(label in guide for label in ex.LABELS.values())
    assert not any(d.lower() in guide.lower() for d in PAPER_DEFINITIONS)


def test_rater_names():
    assert person_names(2) == ["S01", "S02"] and person_names("3") == ["S01", "S02", "S03"]
    assert person_names(" ana , ben ") == ["ana", "ben"]
    with pytest.raises(InputError, match="names must differ"):
        person_names("ana,ana")
    with pytest.raises(InputError, match="option --raters"):
        person_names(0)
    with pytest.raises(InputError, match="cannot be used in a file name"):
        person_names("ana,b/en")


def test_template_command(tmp_path, items_csv, capsys):
    assert (
        main(["template", "explanations", "--items", str(items_csv), "--raters", "2", "--out", str(tmp_path / "cli")])
        == 0
    )
    assert sorted(p.name for p in (tmp_path / "cli").iterdir()) == ["explanations_S01.xlsx", "explanations_S02.xlsx"]
    bad = tmp_path / "bad.csv"
    pd.DataFrame({"item_id": ["a"], "metaphor": ["m"]}).to_csv(bad, index=False)
    assert main(["template", "explanations", "--items", str(bad), "--raters", "2", "--out", str(tmp_path / "x")]) == 1
    assert "missing column(s) ['explanation']" in capsys.readouterr().err


# --------------------------------------------------------------------------- reading returned workbooks


def test_filled_workbooks_read_back(tmp_path, items_csv, benchmark):
    files, sim = filled_class(tmp_path, items_csv, benchmark=benchmark)
    loaded = ex.load_ratings(tmp_path / "class", benchmark)
    got = loaded.ratings
    assert list(got.columns) == ex.RATING_COLUMNS and len(got) == 3 * 6 * 7
    assert sorted(got["rater"].unique()) == ["ana", "ben", "cleo"]
    expected = sim.assign(rater=sim["rater"].map({"R01": "ana", "R02": "ben", "R03": "cleo"}))
    key = ["rater", "item_id", "dimension"]
    merged = got.astype({"dimension": str}).merge(expected.astype({"dimension": str}), on=key, suffixes=("", "_sim"))
    assert len(merged) == len(got) and (merged["score"] == merged["score_sim"]).all()
    assert (merged["explanation"] == merged["explanation_sim"]).all()
    # a list of workbooks reads the same; a blank cell is a missing rating
    wb = load_workbook(files[0])
    wb["Ratings"]["E5"] = None
    wb.save(files[0])
    again = ex.load_ratings([str(f) for f in files], benchmark).ratings
    assert len(again) == len(got) - 1


@pytest.mark.parametrize("value, shown", [(6, "6"), ("good", "'good'"), (3.5, "3.5"), (0, "0")])
def test_wrong_entries_are_located(tmp_path, items_csv, value, shown):
    files, _ = filled_class(tmp_path, items_csv)
    wb = load_workbook(files[1])
    wb["Ratings"]["F5"] = value
    wb.save(files[1])
    with pytest.raises(InputError) as err:
        ex.load_ratings(tmp_path / "class")
    assert str(err.value) == (
        f"{files[1]}, sheet 'Ratings', row 5, column 'Mapping', cell F5: value {shown}: score must "
        "be a whole number from 1 to 5 (or empty)"
    )


def test_blank_template_missing_item_and_duplicate_name(tmp_path, items_csv, benchmark):
    files, _ = filled_class(tmp_path, items_csv)
    blank = template.write_templates(items_csv, "dora", tmp_path / "class")[0]
    with pytest.raises(
        InputError,
        match=r"explanations_dora.xlsx, sheet 'Ratings', column 'done': student 'dora': "
        r"nothing is marked done \(a blank template",
    ):
        ex.load_ratings(tmp_path / "class")
    for choice in ("drop_rows", "drop_students"):
        loaded = ex.load_ratings(tmp_path / "class", unfinished=choice)
        assert loaded.notes == ("left out student dora (explanations_dora.xlsx): nothing is marked done",)
        assert loaded.ratings["rater"].nunique() == 3 and str(blank) not in loaded.files
    blank.unlink()

    wb = load_workbook(files[2])
    wb["Ratings"].delete_rows(6)  # the third item
    wb.save(files[2])
    third = pd.read_csv(items_csv)["item_id"].iloc[2]
    with pytest.raises(
        InputError,
        match=rf"explanations_cleo.xlsx, sheet 'Ratings', column 'item_id': value "
        rf"'{third}': item {third} is missing from this sheet",
    ):
        ex.load_ratings(tmp_path / "class")

    wb = load_workbook(files[0])
    wb["Ratings"]["A7"] = wb["Ratings"]["A4"].value
    wb.save(files[0])
    with pytest.raises(InputError, match=r"row 7, column 'item_id', cell A7: .* appears twice \(first in row 4\)"):
        ex.load_ratings(files[0])


def test_duplicate_rater_names_and_foreign_files(tmp_path, items_csv):
    files, _ = filled_class(tmp_path, items_csv)
    wb = load_workbook(files[2])
    wb["Ratings"]["B1"] = "ana"
    wb.save(files[2])
    with pytest.raises(
        InputError,
        match=r"explanations_cleo.xlsx: value 'ana': student 'ana' also has the workbook "
        r"explanations_ana.xlsx",
    ):
        ex.load_ratings(tmp_path / "class")
    wb["Ratings"].title = "Sheet1"
    wb.save(files[2])
    with pytest.raises(InputError, match=r"has no sheet 'Ratings' \(it has \['Sheet1', 'Guide'\]\)"):
        ex.load_ratings(files[2])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="empty: holds no .xlsx workbook"):
        ex.load_ratings(tmp_path / "empty")


def test_chapter_setup_checks_workbooks(tmp_path, items_csv, benchmark):
    files, _ = filled_class(tmp_path, items_csv)
    setup = ch04.setup(ratings_file=str(tmp_path / "class"), results_dir=str(tmp_path / "res"))
    data = setup.load()
    assert not data.simulated and data.truth is None and data.provenance.kind == "own"
    assert data.ratings["rater"].nunique() == 3
    # a class's workbooks: the page shows codes, the key is the lecturer's (chapters 4 and 5 share it)
    assert set(data.ratings["rater"]) == {"student 1", "student 2", "student 3"}
    seen = " ".join([*data.ratings.astype(str).to_numpy().ravel(), *data.provenance.files, data.provenance.detail])
    assert not any(name in seen for name in ("ana", "ben", "cleo"))
    key = pd.read_csv(tmp_path / "res" / "student_key.csv")
    assert sorted(key["student"]) == ["ana", "ben", "cleo"]
    named = ch04.setup(ratings_file=str(tmp_path / "class"), projection=False).load()
    assert set(named.ratings["rater"]) == {"ana", "ben", "cleo"}
    wb = load_workbook(files[0])
    wb["Ratings"]["D4"] = 7
    wb.save(files[0])
    with pytest.raises(
        InputError,
        match=r"parameter 'ratings_file', .*explanations_ana.xlsx, sheet 'Ratings', row 4, "
        r"column 'Non-Circularity', cell D4: value 7",
    ) as err:
        ch04.setup(ratings_file=[str(f) for f in files])
    assert err.value.cell == "D4" and err.value.sheet == "Ratings"
    with pytest.raises(InputError, match=r"parameter 'ratings_file\[0\]'.*wrong kind of file"):
        ch04.setup(ratings_file=[str(items_csv)])
    with pytest.raises(InputError, match=r"parameter 'unfinished': value 'yes': is not one of the allowed values"):
        ch04.setup(ratings_file=str(tmp_path / "class"), unfinished="yes")
    # a workbook of items that are not in the benchmark
    own = tmp_path / "own.csv"
    pd.DataFrame({"item_id": ["X1", "X2"], "metaphor": ["m1", "m2"], "explanation": ["e1", "e2"]}).to_csv(
        own, index=False
    )
    for f in template.write_templates(own, "a,b", tmp_path / "foreign"):
        fill(f, {"X1": {d: 3 for d in ex.SCORES}, "X2": {d: 4 for d in ex.SCORES}})
    with pytest.raises(
        InputError,
        match=r"explanations_a.xlsx, sheet 'Ratings', column 'item_id': value 'X1': 2 "
        r"rated item\(s\) are not in the benchmark",
    ):
        ch04.setup(ratings_file=str(tmp_path / "foreign"))


# --------------------------------------------------------------------------- feedback per student


@pytest.fixture
def small_class():
    """Three students, three items, Overall and Mapping (values chosen for hand computation).

    Overall:  i1 A5 B3 C4 (mean 4)   i2 A4 B2 C3 (mean 3)   i3 A3 B1 C5 (mean 3)
    Mapping:  i1 A4 B4 C4 (mean 4)   i2 A2 B3 C4 (mean 3)   i3 A5 B1 C3 (mean 3)
    """
    overall = {"i1": (5, 3, 4), "i2": (4, 2, 3), "i3": (3, 1, 5)}
    mapping = {"i1": (4, 4, 4), "i2": (2, 3, 4), "i3": (5, 1, 3)}
    rows = [
        {"item_id": i, "rater": r, "dimension": d, "score": s, "metaphor": f"m {i}", "explanation": f"e {i}"}
        for d, table in (("overall", overall), ("mapping", mapping))
        for i, scores in table.items()
        for r, s in zip("ABC", scores)
    ]
    return pd.DataFrame(rows)


def test_feedback_values_by_hand(small_class):
    f = fb.class_feedback(small_class, n_boot=400, seed=1, top=2)
    s = f.students.set_index("rater")
    # against the mean of the two others, a deviation is 3/2 of the deviation from the class mean:
    # A: overall +1 +1 0, mapping 0 −1 +2 (from the class mean) -> x 1.5 -> mean 0.75, SD 1.5 sqrt(5.5 / 5)
    assert s.loc["A", "leniency"] == pytest.approx(0.75)
    assert s.loc["A", "consistency"] == pytest.approx(1.5 * np.sqrt(1.1))
    # B: −1 −1 −2, 0 0 −2 -> mean −1.5, SD 1.5 sqrt(4 / 5); C: 0 0 +2, 0 +1 0 -> mean 0.75, SD 1.5 sqrt(3.5 / 5)
    assert s.loc["B", "leniency"] == pytest.approx(-1.5) and s.loc["B", "consistency"] == pytest.approx(
        1.5 * np.sqrt(0.8)
    )
    assert s.loc["C", "leniency"] == pytest.approx(0.75) and s.loc["C", "consistency"] == pytest.approx(
        1.5 * np.sqrt(0.7)
    )
    assert (s["leniency_ci_low"] <= s["leniency"]).all() and (s["leniency"] <= s["leniency_ci_high"]).all()
    # every resample of A's items averages the per-item deviations 1.5/2, 0/2, 3/2: within [0, 1.5]
    assert 0 <= s.loc["A", "leniency_ci_low"] and s.loc["A", "leniency_ci_high"] <= 1.5
    by = f.by_score.set_index(["rater", "dimension"])["leniency"]
    assert by[("A", "overall")] == pytest.approx(1.0) and by[("A", "mapping")] == pytest.approx(0.5)
    # Overall: A (5, 4, 3) and B (3, 2, 1) same order, ρ = 1; A and C (4, 3, 5): ranks d = 1, 1, −2, ρ = 1 − 36/24
    pairs = f.pairs.set_index(["rater", "classmate"])["rho"]
    assert pairs[("A", "B")] == pytest.approx(1.0) and pairs[("B", "A")] == pytest.approx(1.0)
    assert pairs[("A", "C")] == pytest.approx(-0.5) and pairs[("C", "B")] == pytest.approx(-0.5)
    assert s.loc["A", "mean_agreement"] == pytest.approx(0.25) and s.loc["C", "mean_agreement"] == pytest.approx(-0.5)
    # largest deviations: A's is Mapping of i3 (5 against the others' 1 and 3, mean 2; class mean 3)
    top = f.deviations[(f.deviations["rater"] == "A") & (f.deviations["rank"] == 1)].iloc[0]
    assert (top["item_id"], top["dimension"], top["score"], top["class_mean"], top["deviation"]) == (
        "i3",
        "mapping",
        5,
        3.0,
        3.0,
    )
    assert [top[f"count_{v}"] for v in range(1, 6)] == [1, 0, 1, 0, 1]
    assert (f.deviations.groupby("rater").size() == 2).all()


def test_feedback_pages_and_command(tmp_path, small_class, capsys):
    f = fb.class_feedback(small_class, n_boot=200)
    written = fb.write_pages(f, tmp_path / "pages")
    assert sorted(p.name for p in written) == [
        "class_summary.csv",
        "feedback_A.html",
        "feedback_B.html",
        "feedback_C.html",
        "index.html",
    ]
    page = (tmp_path / "pages" / "feedback_A.md").read_text(encoding="utf-8")
    # B (ρ 1.00) and C (ρ −0.50), numbered in an order drawn for the page
    assert "feedback for A" in page and "**+0.75**" in page and "| 3 | 1.00 |\n| classmate " in page
    assert {"| classmate 1 | 3 |", "| classmate 2 | 3 |"} <= set(line[:19] for line in page.splitlines())
    assert "| B |" not in page and "| C |" not in page
    assert "<td>classmate 1</td>" in (tmp_path / "pages" / "feedback_A.html").read_text(encoding="utf-8")
    named = fb.write_pages(f, tmp_path / "named", show_names=True)[1].with_suffix(".md").read_text(encoding="utf-8")
    assert "| B | 3 | 1.00 |" in named
    assert 'href="feedback_C.html">C</a>' in (tmp_path / "pages" / "index.html").read_text(encoding="utf-8")
    assert "| i3 | m i3 | e i3 | Mapping | 5 | 3.00 | 1 / 0 / 1 / 0 / 1 |" in page
    csv = tmp_path / "class.csv"
    small_class.drop(columns=["metaphor", "explanation"]).to_csv(csv, index=False)
    assert (
        main(["feedback", "explanations", "--ratings", str(csv), "--out", str(tmp_path / "cli"), "--n-boot", "100"])
        == 0
    )
    summary = pd.read_csv(tmp_path / "cli" / "class_summary.csv").set_index("rater")
    assert summary.loc["B", "leniency"] == pytest.approx(-1.5)
    assert main(["feedback", "explanations", "--ratings", str(tmp_path / "none"), "--out", str(tmp_path / "x")]) == 1
    assert "not found" in capsys.readouterr().err


def test_feedback_command_on_workbooks(tmp_path, items_csv):
    filled_class(tmp_path, items_csv)
    assert main(["feedback", "explanations", "--ratings", str(tmp_path / "class"), "--out", str(tmp_path / "fb")]) == 0
    page = (tmp_path / "fb" / "feedback_ben.md").read_text(encoding="utf-8")
    assert "the class has 3 raters" in page and "You rated 6 explanations (42 ratings)" in page


# --------------------------------------------------------------------------- template -> fill -> chapter 4


@pytest.mark.slow  # executes a notebook
def test_chapter_4_runs_on_filled_workbooks(tmp_path, benchmark):
    from helpers.core import paths
    from helpers.core.book import execution

    items = tmp_path / "items.csv"
    benchmark.to_csv(items, index=False)
    filled_class(tmp_path, items, names=NAMES[:3], seed=11, benchmark=benchmark)
    out = execution.execute_notebook(
        paths.project_root() / "notebooks" / "04_explanation_judgements.ipynb",
        tmp_path / "run.ipynb",
        parameters={
            "ratings_file": str(tmp_path / "class"),
            "results_dir": str(tmp_path / "res"),
            "n_boot": 50,
            "n_null": 199,
        },
    )
    text = out.read_text(encoding="utf-8")
    assert "data-simulated" not in text and "data-own" in text and "SIMULATED" not in text
    # projected (the workbooks carry a Student: field): no student's name on the page or in its tables
    tables = " ".join(
        p.read_text(encoding="utf-8") for p in (tmp_path / "res" / "04_explanation_judgements").glob("*.csv")
    )
    assert not any(name in text or name in tables for name in NAMES[:3]) and "student 1" in tables
    assert sorted(pd.read_csv(tmp_path / "res" / "student_key.csv")["student"]) == sorted(NAMES[:3])
    assert "Recovered by construction" not in text
    folder = tmp_path / "res" / "04_explanation_judgements"
    reliability = pd.read_csv(folder / "reliability.csv")
    assert (reliability["n_raters"] == 3).all() and (reliability["n_items"] == 100).all()
    spearman = pd.read_csv(folder / "spearman.csv")
    assert list(spearman.columns) == [
        "dimension_a",
        "dimension_b",
        "rho",
        "p_value",
        "mark",
        "n",
        "rho_items",
        "p_items",
        "mark_items",
        "n_items",
    ]
    assert (spearman["n"] == 300).all() and (spearman["n_items"] == 100).all()
    regression = pd.read_csv(folder / "regression.csv")
    assert list(regression.columns)[8:] == [
        "se_cluster",
        "t_cluster",
        "p_cluster",
        "ci90_cluster_low",
        "ci90_cluster_high",
    ]
    stability = pd.read_csv(folder / "cluster_stability.csv")
    assert (stability["n_seeds"] == 0).all() and stability["independent_share_seeds"].isna().all()
    null = pd.read_csv(folder / "disagreement_null.csv")
    assert null.loc[0, "n_null"] == 199 and 0 < null.loc[0, "p_value"] <= 1
    assert not (folder / "simulator_truth.csv").exists()
    for name in (
        "design_contrast",
        "disagreement_by_quality",
        "disagreement_normalised",
        "cluster_comembership",
        "rater_profile",
        "within_item_sd",
        "dimension_clusters",
    ):
        assert (folder / f"{name}.csv").exists(), name
    # the findings follow this class's ratings, and the simulator's parts are left out
    findings = pd.read_csv(folder / "findings.csv")
    stated = findings[findings["section"] == "findings"].set_index("quantity")
    assert stated.loc["alpha_lowest", "value"] == pytest.approx(reliability["alpha"].min())
    assert stated.loc["alpha_lowest", "text"] == reliability.loc[reliability["alpha"].idxmin(), "dimension"]
    assert stated.loc["simulated", "value"] == 0 and pd.isna(stated.loc["generating_gap", "value"])
    assert "**Design.** Items designed to fail" in text and f"{reliability['alpha'].min():.2f} (" in text
    # findings.csv is the findings recomputed from the chapter's saved CSVs alone
    again = pd.read_csv(StringIO(ch04.findings(folder).to_csv(index=False)))
    pd.testing.assert_frame_equal(findings.drop(columns="section"), again)


@pytest.mark.slow
def test_chapter_5_runs_on_filled_workbooks(tmp_path, benchmark):
    """The evaluator chapter, solutions included, on a class's workbooks: trained on their mean ratings."""
    from helpers.core import paths
    from helpers.core.book import execution

    items = tmp_path / "items.csv"
    benchmark.to_csv(items, index=False)
    _, sim = filled_class(tmp_path, items, seed=11, benchmark=benchmark)
    out = execution.execute_notebook(
        paths.project_root() / "notebooks" / "05_explanation_evaluator.ipynb",
        tmp_path / "run.ipynb",
        parameters={"ratings_file": str(tmp_path / "class"), "results_dir": str(tmp_path / "res"), "n_splits": 2},
    )  # the repeated splits are not checked here
    text = out.read_text(encoding="utf-8")
    assert "data-own" in text and "SIMULATED" not in text
    folder = tmp_path / "res" / "05_explanation_evaluator"
    split = pd.read_csv(folder / "split.csv")
    assert len(split) == 100 and (split["set"] == "held-out").sum() == 20
    held = pd.read_csv(folder / "held_out_predictions.csv").set_index("item_id")
    class_mean = sim[sim["dimension"] == "overall"].groupby("item_id")["score"].mean()
    assert held["human_overall"].to_dict() == pytest.approx(class_mean.loc[held.index].to_dict())
    # findings.csv is the findings recomputed from the chapter's saved CSVs alone, for the class's ratings
    findings = pd.read_csv(folder / "findings.csv")
    again = pd.read_csv(StringIO(ch05.findings(folder).to_csv(index=False)))
    pd.testing.assert_frame_equal(findings.drop(columns="section"), again)
    stated = findings.set_index("quantity")
    assert stated.loc["simulated", "value"] == 0 and stated.loc["n_held_out", "value"] == 20
    assert pd.isna(stated.loc["rating_sets", "value"]) and stated.loc["fits", "value"] == 2


def test_items_page_lists_the_benchmark(benchmark):
    from helpers.core import paths

    page = (paths.project_root() / "book" / "explanation_items.md").read_text(encoding="utf-8")
    assert "{download}`metaphor_explanations.csv <../data/authored/metaphor_explanations.csv>`" in page
    rows = [line for line in page.splitlines() if line.startswith("| E")]
    listed = pd.DataFrame(
        [[c.strip().replace("\\|", "|") for c in r.strip("|").split(" | ")] for r in rows],
        columns=["item_id", "metaphor", "explanation", "design"],
    )
    pd.testing.assert_frame_equal(
        listed, benchmark[["item_id", "metaphor", "explanation", "design"]].astype(str), check_dtype=False
    )


def test_a_rating_nobody_else_gave_is_left_out_of_leniency():
    """A and B rate i1, i2 (A is 2 above B on both); A alone also rates i3. With no others'
    mean on i3, A's leniency is +2 and its interval [2, 2], not pulled towards 0 by i3."""
    r = pd.DataFrame(
        {
            "item_id": ["i1", "i1", "i2", "i2", "i3"],
            "rater": ["A", "B", "A", "B", "A"],
            "dimension": "overall",
            "score": [5, 3, 3, 1, 4],
            "metaphor": "",
            "explanation": "",
        }
    )
    a = fb.class_feedback(r, n_boot=50).students.set_index("rater").loc["A"]
    assert (a["leniency"], a["leniency_ci_low"], a["leniency_ci_high"]) == (2.0, 2.0, 2.0)
    assert (a["n_items"], a["n_ratings"]) == (3, 3)


def test_class_names_as_in_every_kit(tmp_path, items_csv):
    """The naming rule the three kits share (helpers.core.classroom.name_students): an old
    copy with errors beside the corrected one is reported as a duplicate with its errors;
    a workbook without its Student: field is read under the name its file implies, and said so."""
    import shutil

    files, _ = filled_class(tmp_path, items_csv)
    old = shutil.copy(files[0], files[0].with_name("explanations_ana (1).xlsx"))
    wb = load_workbook(old)
    wb["Ratings"]["D4"] = 7
    wb.save(old)
    with pytest.raises(InputError) as err:
        ex.load_ratings(tmp_path / "class")
    text = str(err.value)
    assert "explanations_ana (1).xlsx, sheet 'Ratings', row 4" in text and "value 7" in text
    assert "explanations_ana.xlsx: value 'ana': student 'ana' also has the workbook explanations_ana (1).xlsx" in text
    old.unlink()
    wb = load_workbook(files[2])
    wb["Ratings"]["A1"] = wb["Ratings"]["B1"] = None  # cleo's Student: field is gone
    wb.save(files[2])
    loaded = ex.load_ratings(tmp_path / "class")
    assert sorted(loaded.ratings["rater"].unique()) == ["ana", "ben", "cleo"]
    assert loaded.notes == (
        "explanations_cleo.xlsx has no Student: field (a .csv re-saved as .xlsx, or not made "
        "from the template?); read as student 'cleo', the name its file name implies",
    )


NAMES = ("Aino", "Bram", "Cleo", "Dara", "Emil")


def test_pages_name_no_classmate_number_them_freshly_and_say_what_was_left_out(tmp_path, items_csv, benchmark):
    """drop_rows leaves out Bram's unfinished rows 5-6: his page says so (the others' pages
    have nothing left out). No page names or links another student, and the classmate
    numbers (decoded through each page's Spearman ρ) do not follow the class list."""
    files, _ = filled_class(tmp_path, items_csv, names=NAMES, seed=12, benchmark=benchmark)
    wb = load_workbook(files[1])
    for row in (5, 6):
        wb["Ratings"].cell(row, DONE_COLUMN).value = None
    wb.save(files[1])
    items = pd.read_csv(items_csv)["item_id"].tolist()
    out = tmp_path / "fb"
    assert (
        main(
            [
                "feedback",
                "explanations",
                "--ratings",
                str(tmp_path / "class"),
                "--out",
                str(out),
                "--unfinished",
                "drop_rows",
                "--n-boot",
                "50",
            ]
        )
        == 0
    )
    pages = {n: (out / f"feedback_{n}.md").read_text(encoding="utf-8") for n in NAMES}
    assert f"rows 5-6 of your workbook (explanations {items[1]}, {items[2]}) were not marked done" in pages["Bram"]
    assert all("Left out" not in pages[n] for n in NAMES if n != "Bram")
    for n in NAMES:
        html = (out / f"feedback_{n}.html").read_text(encoding="utf-8")
        assert not any(other in pages[n] or other in html for other in NAMES if other != n)
    pairs = fb.class_feedback(ex.load_ratings(tmp_path / "class", unfinished="drop_rows").ratings).pairs
    in_roster_order = []
    for n in NAMES:
        rho = pairs[pairs["rater"] == n].set_index("classmate")["rho"].round(2)
        assert rho.is_unique  # the fixture's ρ tell the classmates apart, so the page can be decoded
        who = {f"{v:.2f}": c for c, v in rho.items()}
        shown = dict(
            line.split(" | ")[0::2]
            for line in (row.strip("| ") for row in pages[n].splitlines())
            if line.startswith("classmate ")
        )
        order = [who[shown[f"classmate {k}"]] for k in range(1, len(NAMES))]
        in_roster_order.append(order == [c for c in NAMES if c != n])
    assert not all(in_roster_order)


def test_a_projected_page_names_no_file_that_carries_a_real_name(tmp_path, items_csv):
    """File names as a course platform's bulk download makes them carry the students' real
    names, which the Student: field (ana, ben, cleo) does not: a left-out student's
    workbook and an Excel lock file, both named in the notes, must not reach a projected page."""
    files, _ = filled_class(tmp_path, items_csv)
    real = {
        "ana": "Ana Real_1001_assignsubmission",
        "ben": "Ben Real_1002_assignsubmission",
        "cleo": "Cleo Real_1003_assignsubmission",
    }
    for f, name in zip(files, ("ana", "ben", "cleo")):
        f.rename(f.with_name(f"{real[name]}.xlsx"))
    wb = load_workbook(tmp_path / "class" / f"{real['cleo']}.xlsx")
    wb["Ratings"].cell(5, DONE_COLUMN).value = None  # cleo leaves a row unfinished: left out below
    wb.save(tmp_path / "class" / f"{real['cleo']}.xlsx")
    (tmp_path / "class" / f"~${real['ben']}.xlsx").write_bytes(b"lock")
    loaded = ex.load_ratings(tmp_path / "class", unfinished="drop_students")
    assert any("Cleo Real" in n for n in loaded.notes) and any("Ben Real" in n for n in loaded.notes)  # the lecturer's
    shown, coded = loaded.for_page(True, tmp_path / "results")
    page = " ".join([*shown.notes, *shown.files, *map(str, shown.ratings["rater"].unique())])
    assert coded and not any(word in page for word in ("Ana", "Ben", "Cleo", "ana", "ben", "cleo", "Real")), page
