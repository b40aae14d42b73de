"""Homophone candidates (helpers.slang.candidates): pinyin, Algorithm 1's candidates, Algorithm 2's
percentiles and the released per-character score, the top-k picks and the homophone lists."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.slang import candidates as hc
from helpers.slang import homophone_data as hd

def test_pinyin_round_trip_on_known_words():
    assert hc.latinize("尼玛") == [["ni"], ["ma"]]
    assert hc.latinize("劳资", tone=True) == [["lao2"], ["zi1"]]
    assert "zao" in hc.latinize("草泥马")[0] and "cao" in hc.latinize("草泥马")[0]  # a polyphone: all readings
    inventory = hc.syllable_inventory()
    for word, roots in hd.SLANG_ROOTS.items():  # every character is found again under its reading
        assert all(c in inventory[r] for c, r in zip(word, roots) if hc.readings(c, heteronym=False) == [r])


def test_laozi_candidates_equal_the_released_list():
    published_d = hd.published_frequencies()
    found = hc.candidates("劳资", published_d, threshold=100, roots=hd.SLANG_ROOTS["劳资"])
    assert found == sorted(hd.published_candidates("劳资"))
    assert len(found) == 8


def test_all_released_lists_and_the_paper_total():
    d = hd.char_frequencies(hd.load_smp2020()["text"])
    total = 0
    for word, roots in hd.SLANG_ROOTS.items():
        found = hc.candidates(word, d, roots=roots)
        assert set(found) == set(hd.published_candidates(word)), word
        total += len(found)
    assert total == 172  # the paper's §4.1


def test_threshold_and_readings_on_a_tiny_dictionary():
    d = {"你": 500, "泥": 150, "尼": 90, "妈": 400, "马": 120}
    assert hc.candidates("尼玛", d, threshold=100, roots=["ni", "ma"]) == ["你妈", "你马", "泥妈", "泥马"]
    assert hc.candidates("尼玛", d, threshold=100, roots=["ni", "ma"], tone=True) == []  # no tone on the roots
    assert hc.candidates("尼玛", d, threshold=50, roots=["ni3", "ma1"], tone=True) == ["你妈"]


def test_percentile_algorithm_2_by_hand():
    d = {"a": 10, "b": 1, "c": 5}
    table = hc.percentile_scores(["ab", "cb", "bb", "ac"], d).set_index("candidate")
    # F: ab 11, cb 6, bb 2, ac 15 -> ascending bb, cb, ab, ac -> 25, 50, 75, 100
    assert table["F"].to_dict() == {"ac": 15, "ab": 11, "cb": 6, "bb": 2}
    assert table["percentile"].to_dict() == {"ac": 100.0, "ab": 75.0, "cb": 50.0, "bb": 25.0}
    released = hc.per_character_percentile(["ab", "cb", "bb", "ac"], d).set_index("candidate")["score"]
    # position 1: b < c < a -> 33.3, 66.7, 100; position 2: b < c -> 50, 100
    assert released["ac"] == pytest.approx(200.0) and released["bb"] == pytest.approx(100 / 3 + 50)


def test_algorithm_2_as_printed_picks_the_least_frequent():
    d = {"a": 10, "b": 1, "c": 5, "w": 3}
    cands = ["ab", "cb", "bb", "ac", "ww"]
    scores = hc.percentile_scores(cands, d).assign(word="ww")  # "ww" is the slang word itself
    top = hc.top_homophones(scores, k=2)
    assert list(top.columns) == ["word", "method", "context", "rank", "candidate", "score"]
    picks = top.groupby("method", sort=False)["candidate"].apply(list).to_dict()
    # F: ab 11, cb 6, bb 2, ac 15 (ww left out): highest first ac, ab; as printed (ascending) bb, cb
    assert picks == {hc.PERCENTILE_TOP: ["ac", "ab"], hc.PERCENTILE_AS_PRINTED: ["bb", "cb"]}
    assert (top["context"] == "n/a").all() and top["rank"].tolist() == [1, 2, 1, 2]


def test_homophone_lists_for_every_ranking_source():
    d = {"a": 10, "b": 1, "c": 5}
    scores = pd.concat([hc.percentile_scores(["ab", "cb", "bb", "ac"], d).assign(word=w) for w in hd.SLANG])
    scores["I_no_context"] = scores["F"] * 0.1
    top = hc.top_homophones(scores, k=2)
    for source in (hc.PERCENTILE_TOP, hc.PERCENTILE_AS_PRINTED, "self-information, most probable"):
        lists = hc.homophone_lists(source, top, pd.DataFrame(columns=["word", "candidate"]), 2)
        assert all(len(v) == 2 for v in lists.values()), source  # the percentile's context is "n/a"
    assert hc.homophone_lists(hc.PERCENTILE_AS_PRINTED, top, None, 2)["尼玛"] == ["bb", "cb"]


def test_released_per_character_scores_are_reproduced_deterministically():
    released = hc.published_per_character_scores().set_index("candidate")["score"]
    d = hd.char_frequencies(hd.load_smp2020()["text"])
    ours = pd.concat([hc.per_character_percentile(hd.published_candidates(w), d) for w in hd.SLANG])
    ours = ours.set_index("candidate")["score"]
    assert len(released) == 172 and set(released.index) == set(ours.index)
    assert (ours.reindex(released.index) - released).abs().max() == pytest.approx(0.0)
    # the tie 嘛/麻 (equal frequency) no longer depends on set order
    tie = hc.per_character_percentile(["泥嘛", "泥麻"], {"泥": 5, "嘛": 3, "麻": 3}).set_index("candidate")["score"]
    assert tie["泥麻"] < tie["泥嘛"]


def test_syllable_inventory_is_cached_and_unchanged(tmp_path, monkeypatch):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    hc._inventory.cache_clear()
    first = hc.syllable_inventory()
    assert list((tmp_path / "cache" / "pinyin-inventory").glob("*.pkl"))
    first["ni"] = frozenset()  # a caller's change does not leak into the next call
    hc._inventory.cache_clear()
    again = hc.syllable_inventory()
    assert "尼" in again["ni"] and "你" in again["ni"]
