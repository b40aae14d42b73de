"""Each chapter checks its parameters before any work: wrong values are named precisely."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import row, write_workbook

from helpers.core.errors import InputError
from helpers.metahope import chapters as mh_chapters
from helpers.slang import chapters as slang_chapters


def test_pilot_v1_needs_two_annotators_who_differ_and_a_known_penalty_annotator(tmp_path, two_annotators):
    with pytest.raises(InputError, match=r"parameter 'annotator_files'.*at least 2 entries") as err:
        mh_chapters.pilot_v1_setup(annotator_files={"A": str(two_annotators["A"])})
    assert err.value.parameter == "annotator_files"
    with pytest.raises(InputError, match=r"parameter 'penalty_annotator': value 'C': is not among the annotators"):
        mh_chapters.pilot_v1_setup(annotator_files={k: str(v) for k, v in two_annotators.items()},
                                   penalty_annotator="C")
    (tmp_path / "other").mkdir()
    copy = tmp_path / "other" / "A.xlsx"
    copy.write_bytes(two_annotators["A"].read_bytes())
    with pytest.raises(InputError, match=r"parameter 'annotator_files', .*other/A.xlsx: value 'A': student 'A' also "
                       r"has the workbook A.xlsx"):
        mh_chapters.pilot_v1_setup(annotator_files=[str(two_annotators["A"]), str(copy)])
    with pytest.raises(InputError, match=r"parameter 'annotator_files\[B\]'.*file not found"):
        mh_chapters.pilot_v1_setup(annotator_files={"A": str(two_annotators["A"]), "B": "nowhere.xlsx"})
    with pytest.raises(InputError, match=r"parameter 'n_boot': value 'many': must be a whole number"):
        mh_chapters.pilot_v1_setup(n_boot="many")
    setup = mh_chapters.pilot_v1_setup(annotator_files={k: str(v) for k, v in two_annotators.items()},
                                       penalty_annotator="B", n_sentences=None)
    assert not setup.released and setup.sentence_file is None and setup.compare_published is False


def test_a_bad_header_is_found_by_the_check_with_the_parameter_named(tmp_path, two_annotators):
    headers = ["word_id", "sentence", "lemma", "wordcat"]
    bad = write_workbook(tmp_path / "bad.xlsx", [row("i1", "S.", "w", "N")[:4]], headers=headers)
    with pytest.raises(InputError) as err:
        mh_chapters.pilot_v1_setup(annotator_files={"A": str(two_annotators["A"]), "B": str(bad)})
    assert err.value.parameter == "annotator_files[B]" and err.value.cell == "C1" and err.value.value == "lemma"
    assert str(err.value).startswith("parameter 'annotator_files[B]', ")


def test_pilot_v2_own_csv_needs_two_annotators_and_its_columns(tmp_path):
    one = tmp_path / "one.csv"
    pd.DataFrame({"item": ["i1"], "system": ["s"], "annotator": ["A"], "category": ["MIS"], "severity": [2]}).to_csv(
        one, index=False)
    with pytest.raises(InputError, match=r"parameter 'annotations', .*one.csv: has 1 annotator\(s\) \['A'\]"):
        mh_chapters.pilot_v2_setup(annotations=str(one))
    bad = tmp_path / "bad.csv"
    bad.write_text("item,system,category,severity\ni1,s,MIS,2\n")
    with pytest.raises(InputError, match=r"missing column\(s\) \['annotator'\]"):
        mh_chapters.pilot_v2_setup(annotations=str(bad))
    with pytest.raises(InputError, match=r"parameter 'panel': value \{'name': 'S1', 'treshold': 3\}: annotator 1: "
                                         r"unknown knob\(s\) \['treshold'\]"):
        mh_chapters.pilot_v2_setup(panel=[{"name": "S1", "treshold": 3}])
    with pytest.raises(InputError, match=r"parameter 'sentence_raters'.*out of range"):
        mh_chapters.pilot_v2_setup(sentence_raters=9)


def test_homophone_ratings_must_name_generated_candidates(tmp_path):
    path = tmp_path / "ratings.csv"
    pd.DataFrame({"word": ["尼玛", "尼玛", "劳资"], "candidate": ["尼玛", "泥马", "牢籍"],
                  "avg_score": [1.0, 2.5, 3.0]}).to_csv(path, index=False)
    with pytest.raises(InputError) as err:
        slang_chapters.homophones_setup(ratings_file=str(path))
    message = str(err.value)
    assert err.value.parameter == "ratings_file" and err.value.row == 4 and err.value.value == "牢籍"
    assert "1 rated candidate(s) are not among the generated candidates: 牢籍 (劳资, row 4)" in message
    with pytest.raises(InputError, match=r"parameter 'hf_model'"):
        slang_chapters.homophones_setup(hf_model=str(tmp_path / "none"))
    with pytest.raises(InputError, match=r"parameter 'lm_ladder\[1\]': value 'kn-9'"):
        slang_chapters.homophones_setup(lm_ladder=["kn-2", "kn-9"])
    with pytest.raises(InputError, match=r"parameter 'lm_ladder'.*names a model twice"):
        slang_chapters.homophones_setup(lm_ladder=["kn-2", "kn-2"])
    with pytest.raises(InputError, match=r"parameter 'gpt_steps'"):
        slang_chapters.homophones_setup(gpt_steps=0)
    for posts in (99, 27_767, 2.5):  # at least 100, at most the 27,766 training posts, a whole number
        with pytest.raises(InputError, match=r"parameter 'classifier_posts'"):
            slang_chapters.homophones_setup(classifier_posts=posts)
    assert slang_chapters.homophones_setup(classifier_posts=27_766).classifier_posts == 27_766


def test_qe_homophones_file_needs_five_per_word(tmp_path):
    path = tmp_path / "h.csv"
    pd.DataFrame({"word": ["尼玛"] * 2, "candidate": ["泥马", "你妈"]}).to_csv(path, index=False)
    with pytest.raises(InputError, match=r"lists only 2 homophone\(s\) of 尼玛; Method 1 needs 5"):
        slang_chapters.qe_setup(homophones_file=str(path))
    with pytest.raises(InputError, match=r"parameter 'instances': value 'some'"):
        slang_chapters.qe_setup(instances="some")
