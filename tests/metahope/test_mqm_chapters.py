"""Chapters 1–3 on foreign MQM data (WMT/Marot categories, 3 of N raters per segment).

The hand-made files below are small enough to check every number by hand: the tidy frame
a WMT file becomes (items = segments, the file's top-level categories, severities = the
scheme's weights summed), missing raters kept missing, agreement on the units each rater
pair shares, and the chapters' parameter checks and loaders.
"""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.core.statistics import agreement as ag
from helpers.metahope import ch01, ch03, chapter_common, scoring, tidy_frame

from .wmt_file import HEADER, ROWS, SEGS, _write, wmt

#: WMT 2020–21 header: the same positional columns under other names (no metadata column).
HEADER_2021 = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


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
    assert (
        "<code>mqm</code> weights of the rater's errors in it (Non-trans 25, Neutral 0, Source issue 0, Creative 0, "
        "Punct 0.1, Minor 1, Major 5, Critical 5)"
    ) in data.provenance.detail
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


@pytest.mark.slow
def test_chapter_3_runs_on_a_small_mqm_file_through_papermill(tmp_path):
    from helpers.core import paths
    from helpers.core.book import execution

    path = _write(tmp_path / "mqm_small.tsv", systems=("X", "Y"))
    results = tmp_path / "results"
    execution.execute_notebook(
        paths.project_root() / "notebooks" / "03_metahope_pilot_v2.ipynb",
        tmp_path / "03.ipynb",
        parameters={"results_dir": str(results), "annotations": str(path)},
    )
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
    from helpers.core.book.findings import Words
    from helpers.core.book.report import Provenance

    monkeypatch.setenv("HELPERS_RAW_DATA", str(tmp_path / "no-data-here"))
    example = ch03.disagreement_example(ch03.Data(Provenance("simulated")))
    said = Words("03_metahope_pilot_v2", shared=chapter_common.SHARED_WORDS).text("example", example.description)
    assert "has not been fetched" in said and "**Source**" not in said and example.disputed is None
    totals = example.scores.groupby("annotator")["severity"].sum()
    assert totals.to_dict() == {"A": 10, "C": 2, "D": 0, "E": 12, "F": 2}  # the paper's Table 12 totals
