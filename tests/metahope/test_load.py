"""Loading a class's annotations in any format (helpers.metahope.load): every sheet against the union."""

from __future__ import annotations

import pandas as pd
import pytest

from conftest import row, write_workbook
from helpers.core.errors import InputError
from helpers.metahope import load, long_csv, mqm_format, tidy_frame

from .wmt_file import wmt


def test_load_study_compares_every_sheet_with_the_union(tmp_path, two_annotators):
    study = load.load_study(two_annotators)
    assert set(study["annotator"]) == {"A", "B"} and len(study) == 60
    # the same items in another order load (items are matched by id), in the first sheet's order
    swapped = write_workbook(
        tmp_path / "C.xlsx",
        [
            row("i2", "S one.", "deep", "AJ", google=(2, None, None, None, None)),
            row("i1", "S one.", "grasp", "V"),
            row("i3", "S two.", "bridge", "N"),
        ],
    )
    both = load.load_study({"A": two_annotators["A"], "C": swapped})
    assert both.drop_duplicates("item").sort_values("position")["item"].tolist() == ["i1", "i2", "i3"]
    # D lacks i3, which A and B have: the message names D, the item, and where it is
    short = write_workbook(
        tmp_path / "D.xlsx",
        [row("i1", "S one.", "grasp", "V", google=(2, None, None, None, None)), row("i2", "S one.", "deep", "AJ")],
    )
    with pytest.raises(InputError) as err:
        load.load_study({"A": two_annotators["A"], "D": short, "B": two_annotators["B"]})
    assert err.value.path.name == "D.xlsx" and err.value.column == "word_id"
    assert "item 'i3' is missing from this sheet (it is on row 4 of A.xlsx)" in str(err.value)
    # an extra item in the second sheet is reported on the first (which lacks it), not as "the second is wrong"
    extra = write_workbook(
        tmp_path / "E.xlsx",
        [
            row("i1", "S one.", "grasp", "V", google=(2, None, None, None, None)),
            row("i2", "S one.", "deep", "AJ"),
            row("i3", "S two.", "bridge", "N"),
            row("i4", "S two.", "span", "N"),
        ],
    )
    with pytest.raises(InputError, match=r"A.xlsx.*item 'i4' is missing from this sheet \(it is on row 5 of E.xlsx\)"):
        load.load_study({"A": two_annotators["A"], "E": extra})


def test_a_blank_released_layout_sheet_is_unfinished_never_zeros(tmp_path, two_annotators):
    blank = write_workbook(
        tmp_path / "blank.xlsx",
        [row("i1", "S one.", "grasp", "V"), row("i2", "S one.", "deep", "AJ"), row("i3", "S two.", "bridge", "N")],
    )
    with pytest.raises(
        InputError, match=r"blank.xlsx, sheet 'Sheet1': student 'Z': no severity was entered in any cell"
    ):
        load.load_study({"A": two_annotators["A"], "Z": blank})
    for choice in ("drop_rows", "drop_students"):  # both leave the sheet out; neither counts it as "no error"
        loaded = load.load_class({"A": two_annotators["A"], "B": two_annotators["B"], "Z": blank}, unfinished=choice)
        assert set(loaded.tidy["annotator"]) == {"A", "B"} and loaded.dropped_students == ("Z",)
        assert loaded.notes == ("left out student Z (blank.xlsx): nothing was entered",)


def test_a_missing_system_names_the_sheet(tmp_path, two_annotators):
    headers = ["word_id", "sentence", "word", "wordcat", "Google_translate", "IMP", "RAM", "MIS", "STL", "PRF", "SEGS"]
    one = write_workbook(
        tmp_path / "one.xlsx",
        [
            ["i1", "S one.", "grasp", "V", "x", 2, None, None, None, None, None],
            ["i2", "S one.", "deep", "AJ", "y"] + [None] * 6,
            ["i3", "S two.", "bridge", "N", "z"] + [None] * 6,
        ],
        headers=headers,
    )
    with pytest.raises(InputError, match=r"one.xlsx, sheet 'Sheet1', row 1: system 'GPT-5.4' is missing"):
        load.load_study({"A": two_annotators["A"], "S": one})


def test_load_annotations_dispatch(tmp_path, two_annotators):
    as_list = load.load_annotations([two_annotators["A"], two_annotators["B"]])
    assert set(as_list["annotator"]) == {"A", "B"}
    path = tmp_path / "long.csv"
    long_csv.to_long(as_list).to_csv(path, index=False)
    assert len(load.load_annotations(str(path))) == len(as_list)
    with pytest.raises(ValueError, match="one workbook is one annotator"):
        load.load_annotations(str(two_annotators["A"]))


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


def test_metahope_annotations_in_mqm_still_read_losslessly(tmp_path, two_annotators):
    tidy = load.load_study({k: str(v) for k, v in two_annotators.items()})
    path = mqm_format.write_mqm_tsv(tidy, tmp_path / "metahope.tsv")
    back = load.load_class(str(path))
    assert not back.foreign and tidy_frame.category_order(back.tidy) == list(tidy_frame.CATEGORIES)
    pd.testing.assert_frame_equal(back.tidy, tidy)
