"""Chapters 1–3 on foreign MQM data (WMT/Marot categories, 3 of N raters per segment).

The hand-made files below are small enough to check every number by hand: the tidy frame
a WMT file becomes (items = segments, the file's top-level categories, severities = the
scheme's weights summed), missing raters kept missing, agreement on the units each rater
pair shares, and the chapters' parameter checks and loaders.
"""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pytest

from helpers.core import agreement as ag
from helpers.core.errors import InputError
from helpers.metahope import ch01, ch03, chapter_common, load, mqm_format, scoring, tidy_frame

HEADER = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata\n"
#: WMT 2020–21 header: the same positional columns under other names (no metadata column).
HEADER_2021 = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"

# One system, four segments (items 1–4), raters A, B, C, each segment rated by two or three.
# SEGS under the metahope scheme (Minor 2, Major 6):
#        seg1  seg2  seg3  seg4
#   A      0     2     6     -
#   B      0     2     -     6
#   C      -     4     6     6
ROWS = [
    ("X", "d1", 1, "A", "No-error", "No-error"),
    ("X", "d1", 1, "B", "No-error", "No-error"),
    ("X", "d1", 2, "A", "Fluency/Grammar", "Minor"),
    ("X", "d1", 2, "B", "Accuracy/Mistranslation", "minor"),
    ("X", "d1", 2, "C", "Fluency/Punctuation", "Minor"),
    ("X", "d1", 2, "C", "Accuracy/Mistranslation", "Minor"),
    ("X", "d2", 1, "A", "Accuracy/Omission", "Major"),
    ("X", "d2", 1, "C", "Accuracy/Mistranslation", "Major"),
    ("X", "d2", 1, "C", "Other", "HOTW-test"),  # a quality check: weighs nothing
    ("X", "d2", 2, "B", "Non-translation!", "Major"),
    ("X", "d2", 2, "C", "Style/Awkward", "MAJOR"),
]
SEGS = {"A": [0, 2, 6, np.nan], "B": [0, 2, np.nan, 6], "C": [np.nan, 4, 6, 6]}


def _write(path, rows=ROWS, header=HEADER, systems=("X",)):
    lines = [header]
    for system in systems:
        for k, (_, doc, seg, rater, cat, sev) in enumerate(rows):
            fields = [system, doc, str(seg), str(10 * (doc == "d2") + seg), rater, f"source {doc} {seg}",
                      f"\"target\" {system} {doc} {seg}", cat, sev]
            lines.append("\t".join(fields + ([""] if header == HEADER else [])) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def wmt(tmp_path):
    return _write(tmp_path / "mqm_small.tsv")


def test_a_wmt_file_becomes_the_tidy_frame_with_its_own_categories_and_weights(wmt):
    loaded = load.load_class(str(wmt))
    tidy = loaded.tidy
    assert loaded.foreign and loaded.annotations is not None
    assert list(tidy.columns) == tidy_frame.TIDY_COLUMNS
    # the file's top-level categories, in the MQM order; "Other" occurs only on a HOTW-test row
    assert tidy_frame.category_order(tidy) == ["Accuracy", "Fluency", "Style", "Non-translation"]
    assert tidy["item"].nunique() == 4 and set(tidy["item"]) == {"d1|1", "d1|2", "d2|1", "d2|2"}
    # 10 rated units (A: 3, B: 3, C: 3 ... C also d2|2) x 4 categories, no row for an unrated unit
    units = tidy.drop_duplicates(["item", "annotator"])
    assert len(units) == 9 and len(tidy) == 9 * 4
    assert not ((tidy["annotator"] == "C") & (tidy["item"] == "d1|1")).any()
    cell = tidy.set_index(["item", "annotator", "category"])["severity"]
    assert cell[("d1|2", "C", "Fluency")] == 2 and cell[("d1|2", "C", "Accuracy")] == 2  # punctuation is a Minor
    assert cell[("d2|1", "C", "Accuracy")] == 6  # the HOTW-test row adds nothing
    assert cell[("d2|2", "B", "Non-translation")] == 6  # metahope weighs severity, Major = 6
    assert cell[("d1|1", "A", "Accuracy")] == 0
    assert tidy.loc[tidy["item"] == "d1|1", "sentence"].iat[0] == "source d1 1"
    # the same annotations under the published MQM weights: punctuation 0.1, non-translation 25
    mqm = mqm_format.from_mqm(loaded.annotations, "mqm").set_index(["item", "annotator", "category"])["severity"]
    assert mqm[("d1|2", "C", "Fluency")] == pytest.approx(0.1)
    assert mqm[("d2|2", "B", "Non-translation")] == 25
    hope = loaded.weighted("hope").set_index(["item", "annotator", "category"])["penalty"]
    assert hope[("d2|1", "A", "Accuracy")] == 4 and hope[("d1|2", "A", "Fluency")] == 1


def test_unrated_units_are_missing_in_the_segment_scores_never_zero(wmt):
    segs = scoring.segment_scores(load.load_class(str(wmt)).tidy)
    assert len(segs) == 9
    wide = ag.rating_matrix(segs, "SEGS").reindex(index=["d1|1", "d1|2", "d2|1", "d2|2"], columns=list("ABC"))
    expected = pd.DataFrame(SEGS, index=wide.index)
    pd.testing.assert_frame_equal(wide, expected, check_names=False, check_dtype=False)


def test_agreement_with_missing_raters_uses_the_units_each_pair_shares(wmt):
    segs = scoring.segment_scores(load.load_class(str(wmt)).tidy)
    got = ag.agreement(segs, by="system", value="SEGS").iloc[0]
    # By hand. κ on the positions of the observed values 0, 2, 4, 6 (0, 1, 2, 3):
    #   A–B share seg1, seg2: (0, 1) vs (0, 1), identical: κ = 1;
    #   A–C share seg2, seg3: (1, 3) vs (2, 3): mean (x−y)² = 0.5, var x = 1, var y = 0.25, (x̄−ȳ)² = 0.25,
    #   κ = 1 − 0.5/1.5 = 2/3; B–C share seg2, seg4: the same values, κ = 2/3. Mean 7/9.
    assert got["weighted_kappa"] == pytest.approx(7 / 9)
    # r is 1 on each pair's two shared units
    assert got["pearson_r"] == pytest.approx(1.0)
    # all four segments have ≥ 2 ratings; every rater agrees on seg1, seg3, seg4, not on seg2 (2, 2, 4)
    assert got["n_items"] == 4 and got["exact_agreement"] == 75.0 and got["presence_agreement"] == 100.0
    # α against the reference implementation on the raters × units array with the gaps
    ref = krippendorff.alpha(reliability_data=np.array([SEGS[r] for r in "ABC"]), level_of_measurement="interval")
    assert got["alpha"] == pytest.approx(ref)


def test_chapter_3_setup_reads_a_wmt_2021_file_with_the_core_reader(tmp_path):
    path = _write(tmp_path / "mqm_2021.tsv", header=HEADER_2021)
    setup = ch03.setup(annotations=str(path))
    data = setup.load()
    assert not data.simulated and data.truth is None
    assert tidy_frame.category_order(data.tidy) == ["Accuracy", "Fluency", "Style", "Non-translation"]
    note = data.provenance.note().data
    assert "Foreign MQM data" in note and "2–3 of 3 raters" in note and "not shown" in note
    one = _write(tmp_path / "one.tsv", rows=[r for r in ROWS if r[3] == "A"])
    with pytest.raises(InputError, match=r"parameter 'annotations', .*one.tsv: has 1 annotator\(s\) \['A'\]"):
        ch03.setup(annotations=str(one))
    bad = tmp_path / "bad.tsv"
    bad.write_text(HEADER + "X\td1\tone\t1\tA\ts\tt\tAccuracy\tMinor\t\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        ch03.setup(annotations=str(bad))
    assert err.value.parameter == "annotations" and err.value.row == 2 and "one" in str(err.value)


def test_chapter_3_weighs_an_mqm_file_with_the_scheme_given(wmt, two_annotators):
    data = ch03.setup(annotations=str(wmt), weights="mqm").load()
    segs = ag.rating_matrix(scoring.segment_scores(data.tidy), "SEGS")
    # the published MQM weights: C's punctuation Minor 0.1 + Minor 1; B's non-translation 25
    assert segs.loc["d1|2", "C"] == pytest.approx(1.1) and segs.loc["d2|2", "B"] == 25
    assert ("<code>mqm</code> weights of the rater's errors in it (Non-trans 25, Neutral 0, Source issue 0, Creative 0, "
            "Punct 0.1, Minor 1, Major 5, Critical 5)") in data.provenance.detail
    with pytest.raises(InputError, match=r"parameter 'weights': value 'linear'"):
        ch03.setup(annotations=str(wmt), weights="linear")
    with pytest.raises(InputError, match=r"parameter 'weights'.*MetaHOPE annotations carry their own"):
        ch03.setup(annotations={k: str(v) for k, v in two_annotators.items()}, weights="mqm").load()


def test_chapter_3_reads_a_tar_gz_release_as_the_plain_file(tmp_path, wmt):
    import tarfile

    archive = tmp_path / "mqm_small.tsv.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(wmt, arcname="mqm_small.tsv")
    packed = ch03.setup(annotations=str(archive)).load().tidy
    plain = ch03.setup(annotations=str(wmt)).load().tidy
    pd.testing.assert_frame_equal(packed, plain)


def test_chapter_1_compares_two_raters_on_the_units_both_rated(wmt):
    setup = ch01.setup(annotator_files=str(wmt))
    assert setup.n_sentences is None and setup.compare_published is False and setup.sentence_file is None
    data = setup.load()
    # A–B, A–C and B–C share two segments each: the first pair in order of appearance is taken
    assert list(data.tidy["annotator"].unique()) == ["A", "B"] and data.penalty_annotator == "A"
    assert sorted(data.tidy["item"].unique()) == ["d1|1", "d1|2"]
    assert "<strong>A</strong> and <strong>B</strong>" in data.provenance.detail
    chosen = ch01.setup(annotator_files=str(wmt), raters=["C", "B"], penalty_annotator="C").load()
    assert sorted(chosen.tidy["item"].unique()) == ["d1|2", "d2|2"] and chosen.penalty_annotator == "C"
    paired = scoring.paired_segments(chosen.tidy)
    assert paired[["B", "C"]].to_numpy().tolist() == [[2, 4], [6, 6]]
    # the exponential re-weighting keeps the same units: B's Minor 1, C's two Minors 2; Majors 4
    hope = scoring.segment_scores(chosen.weighted("hope"), value="penalty")
    assert sorted(hope["SEGS"].tolist()) == [1, 2, 4, 4]
    with pytest.raises(InputError, match=r"parameter 'raters': value 'D': is not among the raters of the file"):
        ch01.setup(annotator_files=str(wmt), raters=["A", "D"])
    with pytest.raises(InputError, match=r"parameter 'compare_published'"):
        ch01.setup(annotator_files=str(wmt), compare_published=True)
    with pytest.raises(InputError, match=r"parameter 'raters': value 'C': is not among the annotators"):
        ch01.setup(raters=["A", "C"])  # the released sheets are A's and B's
    assert ch01.setup(raters=["B", "A"]).penalty_annotator == "A"  # whose sentence-level sheet it is


def test_a_file_with_one_rater_per_segment_is_refused(tmp_path):
    # like the TED ZH→EN file: several raters, but each segment rated by one of them
    rows = [("X", "d1", 1, "A", "No-error", "No-error"), ("X", "d1", 2, "B", "No-error", "No-error")]
    path = _write(tmp_path / "apart.tsv", rows=rows)
    with pytest.raises(InputError, match=r"parameter 'raters'.*A and B share no rated unit"):
        ch01.setup(annotator_files=str(path)).load()
    with pytest.raises(InputError, match=r"parameter 'annotations', .*apart.tsv: no \(item, system\) is rated by two"):
        ch03.setup(annotations=str(path)).load()


def test_metahope_annotations_in_mqm_still_read_losslessly(tmp_path, two_annotators):
    tidy = load.load_study({k: str(v) for k, v in two_annotators.items()})
    path = mqm_format.write_mqm_tsv(tidy, tmp_path / "metahope.tsv")
    back = load.load_class(str(path))
    assert not back.foreign and tidy_frame.category_order(back.tidy) == list(tidy_frame.CATEGORIES)
    pd.testing.assert_frame_equal(back.tidy, tidy)


@pytest.mark.slow
def test_chapter_3_runs_on_a_small_mqm_file_through_papermill(tmp_path):
    from helpers.core import execution, paths

    path = _write(tmp_path / "mqm_small.tsv", systems=("X", "Y"))
    results = tmp_path / "results"
    execution.execute_notebook(paths.project_root() / "notebooks" / "03_metahope_pilot_v2.ipynb", tmp_path / "03.ipynb",
                            parameters={"results_dir": str(results), "annotations": str(path)})
    folder = results / "03_metahope_pilot_v2"
    by_system = pd.read_csv(folder / "agreement_by_system.csv")
    assert by_system["system"].tolist() == ["X", "Y"]
    assert (by_system["n_items"] == 4).all() and (by_system["exact_score_agreement"] == 75.0).all()
    by_error = pd.read_csv(folder / "agreement_by_error.csv")
    assert by_error["error"].tolist() == ["Accuracy", "Fluency", "Style", "Non-translation"]
    assert not (folder / "seed_study.csv").exists() and not (folder / "simulation_sweeps.csv").exists()
    page = (tmp_path / "03.ipynb").read_text(encoding="utf-8")
    assert "Foreign MQM data" in page and "Real annotations: one team" in page


def test_the_papers_table_12_item_without_the_released_sheet_says_so(tmp_path, monkeypatch):
    """On simulated data chapter 3 reads the paper's five annotators (Table 12); where the
    released sheet was never fetched it says so instead of failing or inventing a sentence."""
    from helpers.core.findings import Words
    from helpers.core.report import Provenance

    monkeypatch.setenv("HELPERS_RAW_DATA", str(tmp_path / "no-data-here"))
    example = ch03.disagreement_example(ch03.Data(Provenance("simulated")))
    said = Words("03_metahope_pilot_v2", shared=chapter_common.SHARED_WORDS).text("example", example.description)
    assert "has not been fetched" in said and "**Source**" not in said and example.disputed is None
    totals = example.scores.groupby("annotator")["severity"].sum()
    assert totals.to_dict() == {"A": 10, "C": 2, "D": 0, "E": 12, "F": 2}  # the paper's Table 12 totals
