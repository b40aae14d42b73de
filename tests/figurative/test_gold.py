"""Song & Xu's gold labels and the detectors measured against them (helpers.figurative.gold):
the counts and precision/recall recomputed here with plain Python, independently of pandas."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.core.formats import testsets
from helpers.figurative import gold, idioms


@pytest.fixture(scope="module")
def released():
    try:
        path = testsets.get("wmt22").file("mwe_labels")
        lines = list(testsets.get("wmt22").load().sources)
    except FileNotFoundError as err:
        pytest.skip(str(err))
    entries = json.loads(path.read_text(encoding="utf-8-sig"))
    return path, entries, lines


def _plain_gold(entries, kinds) -> set[int]:
    """1-based segments with an expression of one of ``kinds``, counted without pandas."""
    return {e["index"] + 1 for e in entries for c in e["categories"] if c["category"] in kinds}


def test_gold_counts_are_200_idi_and_351_any_idiom_sources(released):
    path, entries, _ = released
    classes = gold.segment_classes(gold.read_labels(path))
    assert len(classes) == len(entries) == 1875
    assert int(classes["idi"].sum()) == len(_plain_gold(entries, {"IDI"})) == 200
    assert int(classes["idiom"].sum()) == len(_plain_gold(entries, {"IDI", "NID", "VID"})) == 351
    # the classes partition the segments, idioms first
    assert classes["mwe_class"].value_counts().sum() == 1875
    assert (classes["mwe_class"] == "idiom").sum() == 351


def test_dictionary_detector_precision_and_recall_match_a_plain_count(released):
    path, entries, lines = released
    words = idioms.xinhua()
    flagged = {i + 1 for i, s in enumerate(lines) if any(s[k : k + 4] in words for k in range(len(s) - 3))}
    scores = gold.detector_scores(
        pd.Series(lines, index=range(1, len(lines) + 1)),
        gold.segment_classes(gold.read_labels(path)),
        detectors=["xinhua"],
    )
    for name, kinds in (("idi", {"IDI"}), ("idiom", {"IDI", "NID", "VID"})):
        truth = _plain_gold(entries, kinds)
        row = scores[scores["gold"] == name].iloc[0]
        assert row["flagged"] == len(flagged)
        assert row["true_positives"] == len(flagged & truth)
        assert row["precision"] == pytest.approx(len(flagged & truth) / len(flagged))
        assert row["recall"] == pytest.approx(len(flagged & truth) / len(truth))
        assert row["precision_low"] <= row["precision"] <= row["precision_high"]


def test_hand_made_labels_give_classes_and_scores(tmp_path):
    entries = [
        {"index": 0, "property": "mwe", "categories": [{"start": 1, "end": 5, "value": "刻舟求剑", "category": "IDI"}]},
        {
            "index": 1,
            "property": "mwe",
            "categories": [{"start": [0, 2], "end": [1, 3], "value": ["进", "行"], "category": "LVC.full"}],
        },
        {"index": 2, "property": "ne", "categories": [{"start": 0, "end": 2, "value": "北京", "category": "GPE"}]},
        {"index": 3, "property": "", "categories": []},
    ]
    path = tmp_path / "all.json"
    path.write_text("\ufeff" + json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    labels = gold.read_labels(path)
    assert labels.loc[1, ["start", "end", "value"]].tolist() == [0, 3, "进行"]
    classes = gold.segment_classes(labels)
    assert classes["mwe_class"].tolist() == ["idiom", "mwe", "ne_only", "none"]
    sources = pd.Series(["他刻舟求剑。", "进行雪上加霜", "北京", "无"], index=[1, 2, 3, 4])
    s = gold.detector_scores(sources, classes, detectors=["xinhua"])
    row = s[s["gold"] == "idi"].iloc[0]
    # flagged: segments 1 and 2 (雪上加霜 is in the dictionary, not in the gold): TP 1 of 2, recall 1 of 1
    assert (row["flagged"], row["true_positives"], row["precision"], row["recall"]) == (2, 1, 0.5, 1.0)


def test_a_file_that_is_not_the_label_list_is_refused_by_name(tmp_path):
    bad = tmp_path / "labels.json"
    bad.write_text('{"index": 0}', encoding="utf-8")
    with pytest.raises(InputError, match="labels.json"):
        gold.read_labels(bad)
    bad.write_text("not json", encoding="utf-8")
    with pytest.raises(InputError, match="labels.json"):
        gold.read_labels(bad)
