"""The idiom detectors on hand-made sentences, their precision on the authored sample, and
the PSUCMC metaphor-word check (helpers.figurative.idioms)."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.figurative import idioms


def _found(text: str, detector: str) -> list[str]:
    return idioms.find_idioms(pd.Series([text]), detector)["idiom"].tolist()


def test_raw_tag_catches_set_phrases_that_the_filtered_detector_drops():
    # sentences written for this test: a real idiom beside news set phrases jieba also tags `i`
    text = "今年以来，部长一再表示改革不能刻舟求剑。"
    assert _found(text, "raw") == ["今年以来", "一再表示", "刻舟求剑"]
    assert _found(text, "filtered") == ["刻舟求剑"]
    assert _found(text, "strict") == ["刻舟求剑"]


def test_offsets_and_text_ids_are_those_of_the_input():
    texts = pd.Series(["没有成语。", "公司情况雪上加霜"], index=["a", "b"])
    found = idioms.find_idioms(texts, "filtered")
    assert found.to_dict("records") == [
        {"text_id": "b", "start": 4, "end": 8, "idiom": "雪上加霜", "detector": "filtered"}
    ]
    assert texts["b"][4:8] == "雪上加霜"


@pytest.mark.parametrize(
    "phrase, raw, filtered, strict, xinhua",
    [
        ("无症状", True, False, False, False),  # three characters: a medical word
        ("来来回回", True, False, False, False),  # AABB reduplication
        ("同期相比", True, False, False, False),  # jieba's count-3 batch of set phrases
        ("前所未有", True, False, False, True),  # transparent: the stoplist, but a dictionary idiom
        ("空气污染", True, True, False, False),  # 空气 + 污染, both ordinary words
        ("守株待兔", True, True, True, True),  # an allusion
    ],
)
def test_each_rule_on_one_entry(phrase, raw, filtered, strict, xinhua):
    assert [idioms.keeps(phrase, d) for d in idioms.DETECTORS] == [raw, filtered, strict, xinhua]


def test_the_dictionary_detector_scans_without_segmenting():
    # 雪上加霜 is found wherever it stands; overlapping entries are all kept
    assert _found("公司情况雪上加霜", "xinhua") == ["雪上加霜"]
    assert len(idioms.xinhua()) == 29502 and all(len(w) == 4 for w in idioms.xinhua())


def test_stoplist_entries_are_four_character_i_entries():
    counts = dict(zip(idioms.dictionary()["idiom"], idioms.dictionary()["count"]))
    assert all(len(p) == 4 and counts.get(p, 0) > idioms.BATCH_COUNT for p in idioms.LITERAL_SET_PHRASES)
    assert len(idioms.dictionary()) == 25583


def test_unknown_detector_is_refused():
    with pytest.raises(InputError, match="detector"):
        idioms.keeps("刻舟求剑", "loose")


def test_precision_on_the_authored_sample_is_pinned():
    sample = idioms.read_sample()
    assert len(sample) == 170 and sample["label"].value_counts().to_dict() == {"literal": 133, "figurative": 37}
    table = idioms.precision_table(sample).set_index("detector")
    assert table["kept"].to_dict() == {"raw": 170, "filtered": 64, "strict": 52, "xinhua": 61}
    assert table["figurative"].to_dict() == {"raw": 37, "filtered": 31, "strict": 28, "xinhua": 28}
    assert table.loc["filtered", "precision"] == pytest.approx(31 / 64)
    # Wilson for 31 of 64 by hand: (p + z²/2n ± z√(p(1−p)/n + z²/4n²)) / (1 + z²/n) = (0.48526 ± 0.11893), z = 1.95996
    assert table.loc["filtered", ["precision_low", "precision_high"]].tolist() == pytest.approx(
        [0.3663, 0.6042], abs=1e-4
    )
    assert table.loc["strict", "recall"] == pytest.approx(28 / 37)
    # labeller B (blind, same rule): 29 figurative; counted here from the file, independently of precision_table
    assert sample["label_b"].value_counts().to_dict() == {"literal": 141, "figurative": 29}
    assert ((sample["label"] == "figurative") & (sample["label_b"] == "literal")).sum() == 8
    assert table["figurative_b"].to_dict() == {"raw": 29, "filtered": 23, "strict": 21, "xinhua": 21}
    assert table.loc["filtered", "precision_b"] == pytest.approx(23 / 64)


def test_precision_by_a_second_labeller_on_a_hand_made_sample():
    sample = pd.DataFrame(
        {
            "idiom": ["守株待兔", "守株待兔", "一再表示", "画蛇添足"],
            "label": ["figurative", "figurative", "literal", "figurative"],
            "label_b": ["figurative", "literal", "literal", "figurative"],
        }
    )
    table = idioms.precision_table(sample).set_index("detector")
    assert table.loc["raw", ["figurative", "figurative_b"]].tolist() == [3, 2]
    assert table.loc["raw", ["precision", "precision_b"]].tolist() == [0.75, 0.5]
    # Wilson 95% for 2 of 4 by hand: centre (0.5 + 1.9208/4) / (1 + 3.8415/4) = 0.5, half-width
    # 1.95996 * sqrt(0.0625 + 3.8415/64) / 1.96037 = 0.3506
    assert table.loc["raw", ["precision_b_low", "precision_b_high"]].tolist() == pytest.approx(
        [0.1500, 0.8500], abs=1e-4
    )
    one = idioms.precision_table(sample.drop(columns="label_b")).set_index("detector")
    assert one["precision_b"].isna().all() and one["precision"].notna().all()


def test_sample_matches_point_at_their_idiom_in_context():
    sample = idioms.read_sample()
    assert all(f"【{i}】" in c for i, c in zip(sample["idiom"], sample["context"]))
    assert sample["sample_id"].is_unique


def test_a_bad_label_names_file_row_and_value(tmp_path):
    bad = idioms.read_sample().head(3)
    bad.loc[1, "label"] = "maybe"
    path = tmp_path / "s.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(InputError) as err:
        idioms.read_sample(path)
    assert err.value.row == 3 and err.value.column == "label" and err.value.value == "maybe"
    bad.loc[1, "label"], bad.loc[2, "label_b"] = "literal", "unsure"
    bad.to_csv(path, index=False)
    with pytest.raises(InputError) as err:
        idioms.read_sample(path)
    assert err.value.row == 4 and err.value.column == "label_b" and err.value.value == "unsure"


def test_idioms_are_not_metaphor_words():
    words = pd.DataFrame({"token": ["插", "见缝插针"], "sentence": ["她见缝插针地学习。"] * 2})
    found = idioms.psucmc_coverage(words)
    assert found["found"].tolist() == [True, True]  # a one-character metaphor inside an idiom is found
    psucmc = idioms.psucmc_coverage()
    assert len(psucmc) == 94 and psucmc["found"].sum() == 0
    assert psucmc.drop_duplicates("sentence")["idioms"].map(len).sum() == 9
    assert idioms.psucmc_coverage(detector="raw").query("found")["token"].tolist() == ["深"]  # inside 深紫色
