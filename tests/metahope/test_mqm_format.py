"""MetaHOPE annotations as MQM/Marot TSV (helpers.metahope.mqm_format): the core annotation model, without loss.

The released workbooks (pilot v1 EN->ZH, annotators A and B; the ZH->EN sheet) become
core annotations and come back as the identical tidy frame, in memory and through a Marot
TSV file, so everything chapters 1-3 compute from them is unchanged.
"""

from __future__ import annotations

import pandas as pd
import pytest

from conftest import comparable_tidy
from helpers.core.errors import InputError
from helpers.core.formats import mqm
from helpers.core.statistics import scoring
from helpers.metahope import load, mqm_format, release, severity, tidy_frame
from helpers.metahope.scoring import segment_scores as metahope_segments


@pytest.fixture(scope="module", params=["pilot_v1", "zh_en"])
def released(request):
    files = release.pilot_v1_files() if request.param == "pilot_v1" else {"A": release.pilot_zh_en_file()}
    return load.load_study(files)


def test_round_trip_in_memory_is_identical(released):
    pd.testing.assert_frame_equal(mqm_format.from_annotations(mqm_format.to_annotations(released)), released)


def test_round_trip_through_marot_tsv_is_identical(released, tmp_path):
    path = mqm_format.write_mqm_tsv(released, tmp_path / "metahope.tsv")
    assert path.read_text(encoding="utf-8").split("\n", 1)[0].split("\t")[:10] == mqm.MAROT_COLUMNS
    pd.testing.assert_frame_equal(mqm_format.read_mqm_tsv(path), released)
    assert list(load.load_annotations(str(path)).columns) == tidy_frame.TIDY_COLUMNS


def test_core_scores_with_the_metahope_scheme_are_the_segs_sums(released):
    """Per annotator and system, the core system score under the ``metahope`` scheme (linear,
    level = penalty) is the mean SEGS per item of helpers.metahope.scoring (paper Eq. 1)."""
    annotations = mqm_format.to_annotations(released)
    ratings = scoring.rater_scores(annotations, "metahope")
    segs = metahope_segments(released)
    for annotator, group in ratings.groupby("rater"):
        table = scoring.system_scores(group).set_index("system")["score"]
        expected = segs[segs["annotator"] == annotator].groupby("system")["SEGS"].mean()
        pd.testing.assert_series_equal(table.sort_index(), expected.astype(float).sort_index(), check_names=False)
    hope = scoring.rater_scores(annotations, "hope")["penalty"].sum()
    weighted = released["severity"].map({0: 0, 2: 1, 4: 2, 6: 4, 8: 8, 10: 16}).sum()
    assert hope == weighted


@pytest.mark.parametrize(
    "segment_columns, major", [("docSegId\tglobalSegId", "Major"), ("doc_seg_id\tglobal_seg_id", "major")]
)
def test_foreign_categories_are_refused_with_the_line(tmp_path, segment_columns, major):
    """Both spellings of the segment columns and of the severity: a category MetaHOPE does not
    have is refused, naming its row, column and value."""
    path = tmp_path / "x.tsv"
    path.write_text(
        f"system\tdoc\t{segment_columns}\trater\tsource\ttarget\tcategory\tseverity\tmetadata\n"
        f"s\td\t1\t1\tr1\tsrc\ttgt\tMetaHOPE/MIS\t{major}\t\n"
        "s\td\t2\t2\tr1\tsrc2\ttgt2\tNo-error\tNo-error\t\n"
        "s\td\t2\t2\tr2\tsrc2\ttgt2\tAccuracy/Omission\tMajor\t\n"
    )
    with pytest.raises(InputError, match=r"row 4, column 'category': value 'Accuracy/Omission'"):
        mqm_format.read_mqm_tsv(path)
    path.write_text(
        "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\n"
        "s\td\t1\t1\tr1\tsrc\ttgt\tMIS\tNeutral\n"
    )
    with pytest.raises(InputError, match=r"row 2, column 'severity': value 'Neutral'"):
        mqm_format.read_mqm_tsv(path)


def test_the_core_model_of_metahope_data_survives_marot_tsv(released, tmp_path):
    """The export re-read is the identical core frame (``line``, provenance, aside)."""
    annotations = mqm_format.to_annotations(released)
    back = mqm.read_mqm(mqm.write_mqm_tsv(annotations, tmp_path / "a.tsv"))
    pd.testing.assert_frame_equal(back.drop(columns="line"), annotations.drop(columns="line"))


def test_mqm_tsv_round_trip(tmp_path, two_annotators):
    tidy = load.load_study(two_annotators)
    path = mqm_format.write_mqm_tsv(tidy, tmp_path / "mqm.tsv")
    raw = pd.read_csv(path, sep="\t")
    assert list(raw.columns[:10]) == mqm_format.MQM_COLUMNS  # Marot's names; its export adds a documentation cell
    # B on Google i1: MIS severe and STL minor
    b = raw[(raw["rater"] == "B") & (raw["system"] == "GoogleMT") & (raw["docSegId"] == 1)]
    assert sorted(zip(b["category"], b["severity"])) == [("MIS", "Severe"), ("STL", "Minor")]
    assert (raw["category"] == "No-error").sum() == 12 - 5  # (3 items x 2 systems x 2 raters) - segments with errors
    back = mqm_format.read_mqm_tsv(path)
    pd.testing.assert_frame_equal(comparable_tidy(back), comparable_tidy(tidy))


def test_mqm_top_categories_whole_against_the_wmt_release():
    from helpers.metahope import mqm_format

    # google/wmt-mqm-human-evaluation README: "the standard top-level categories Accuracy, Fluency,
    # Terminology, Style, and Locale" (spelled "Locale convention" in the files) and "a special
    # Non-translation error"; the released files add Other, Source error (TED ZH-EN) and Source issue
    # (generalMT2023 ZH-EN). These are every top level of those files apart from No-error and the HOTW
    # test rows (Found, Missed), counted 2026-12-01 on the mirrored files.
    assert mqm_format.MQM_TOP_CATEGORIES == (
        "Accuracy",
        "Fluency",
        "Terminology",
        "Style",
        "Locale convention",
        "Other",
        "Non-translation",
        "Source error",
        "Source issue",
    )
    got = mqm_format.top_category(pd.Series(["Accuracy/Mistranslation", "Non-translation!", " Style/Awkward", "Other"]))
    assert got.tolist() == ["Accuracy", "Non-translation", "Style", "Other"]
