"""Homophone candidates (helpers.slang.candidates): pinyin, Algorithm 1's candidates, Algorithm 2's
percentiles and the released per-character score, the top-k picks and the homophone lists."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.slang import candidates as hc
from helpers.slang import homophone_data as hd

from .length_scorer import LengthScorer


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


# --------------------------------------------------------------------------- chapter 6: candidates and picks


def test_algorithm_1_threshold_readings_and_order_by_hand():
    inventory = {"ni": {"你", "泥", "尼"}, "mi": {"米"}, "ma": {"妈", "马"}}
    freq = {"你": 500, "泥": 101, "尼": 100, "米": 300, "妈": 400, "马": 99}
    # position 1 (ni or mi): 你 500, 泥 101 pass, 尼 100 does not (more frequent than 100); position 2: 妈 only
    assert hc.candidates("尼玛", freq, roots=[["ni", "mi"], "ma"], inventory=inventory) == ["你妈", "泥妈", "米妈"]
    # at threshold 98 尼 (100) and 马 (99) pass too; sorted by code point: 你 4F60 < 尼 5C3C < 泥 6CE5 < 米 7C73
    assert hc.candidates("尼玛", freq, threshold=98, roots=[["ni", "mi"], "ma"], inventory=inventory) == [
        "你妈",
        "你马",
        "尼妈",
        "尼马",
        "泥妈",
        "泥马",
        "米妈",
        "米马",
    ]
    assert hc.candidates("尼玛", freq, threshold=101, roots=["ni", "ma"], inventory=inventory) == ["你妈"]
    # default roots: pypinyin's default readings of 尼玛, ni and ma
    assert hc.candidates("尼玛", freq, inventory=inventory) == ["你妈", "泥妈"]
    assert hc.candidates("尼玛", freq, roots=["zz", "ma"], inventory=inventory) == []  # no character reads zz
    assert hc.candidates("尼玛", {"你": 101}, roots=["ni", "ma"], inventory=inventory) == []  # D lacks 妈: count 0
    # at threshold 0 a character missing from D still fails (count 0): only 你 and 妈
    assert hc.candidates("尼玛", {"你": 1, "妈": 1}, threshold=0, roots=["ni", "ma"], inventory=inventory) == ["你妈"]
    # the given inventory is the one used: 你 read as "xx" exists only in this one
    assert hc.candidates("你", freq, roots=["xx"], inventory={"xx": {"你"}}) == ["你"]


def test_algorithm_1_default_roots_follow_tone_and_heteronym():
    # pypinyin: 劳资 is lao2 zi1; 草 is cao3 by default and also zao3 (a polyphone)
    inventory = {"lao2": {"劳"}, "zi1": {"资"}, "lao": {"捞"}, "zi": {"子"}, "cao": {"草"}, "zao": {"早"}}
    freq = {c: 1000 for c in "劳资捞子草早"}
    assert hc.candidates("劳资", freq, tone=True, inventory=inventory) == ["劳资"]
    assert hc.candidates("劳资", freq, inventory=inventory) == ["捞子"]
    assert hc.candidates("草", freq, inventory=inventory) == ["草"]  # default reading only
    assert hc.candidates("草", freq, heteronym=True, inventory=inventory) == ["早", "草"]  # 早 65E9 < 草 8349
    # without an inventory, pypinyin's: all readings put 草 under zao too, the default readings do not
    assert hc.candidates("草", {"草": 1000}, roots=["zao"], heteronym=True) == ["草"]
    assert hc.candidates("草", {"草": 1000}, roots=["zao"]) == []


def test_percentile_ties_keep_their_order_and_unknown_characters_count_zero():
    # F: ab 1+2 = 3, ba 3, cc 10, zz 0 (not in D); ascending, ties in input order: zz, ab, ba, cc -> 25, 50, 75, 100
    table = hc.percentile_scores(["ab", "ba", "cc", "zz"], {"a": 1, "b": 2, "c": 5})
    assert table["candidate"].tolist() == ["cc", "ba", "ab", "zz"]
    assert table["F"].tolist() == [10, 3, 3, 0]
    assert table["percentile"].tolist() == [100.0, 75.0, 50.0, 25.0]
    assert table.index.tolist() == [0, 1, 2, 3] and table.columns.tolist() == ["candidate", "F", "percentile"]


def test_per_character_percentile_with_a_tie_at_one_position():
    # position 1: c (1) < a (3) -> c 50, a 100; position 2: b and d both 2, descending code point first: d 50, b 100
    score = hc.per_character_percentile(["ab", "cb", "ad"], {"a": 3, "c": 1, "b": 2, "d": 2})
    assert score["candidate"].tolist() == ["ab", "cb", "ad"]
    assert score["score"].tolist() == [200.0, 150.0, 150.0]
    # a character missing from D counts 0, below a count of 1 whatever the code points: x (absent) < y (1)
    missing = hc.per_character_percentile(["x", "y"], {"y": 1}).set_index("candidate")["score"]
    assert missing.to_dict() == {"x": 50.0, "y": 100.0}


def _two_word_scores():
    return pd.DataFrame(
        {
            "word": ["w"] * 5 + ["v"] * 2,
            "candidate": ["a", "b", "c", "d", "w", "p", "q"],
            "percentile": [40.0, 20.0, 60.0, 80.0, 100.0, 50.0, 100.0],
            "I_no_context": [3.0, 1.0, 2.0, 2.0, 0.5, 1.0, 2.0],
            "I_context": [1.0, 3.0, 2.0, 4.0, 9.0, 2.0, 1.0],
        }
    )


def test_top_homophones_every_method_and_direction_by_hand():
    top = hc.top_homophones(_two_word_scores(), k=2)
    got = [tuple(r) for r in top[["word", "method", "context", "rank", "candidate", "score"]].itertuples(index=False)]
    pt, pp = hc.PERCENTILE_TOP, hc.PERCENTILE_AS_PRINTED
    inf, prob = "self-information, most informative", "self-information, most probable"
    # w (its own row left out): percentile high d 80, c 60; low b 20, a 40; I without: high a 3 then c 2 (c before
    # d, a tie in input order), low b 1, c 2; I with: high d 4, b 3, low a 1, c 2. v: two candidates.
    assert got == [
        ("w", pt, "n/a", 1, "d", 80.0),
        ("w", pt, "n/a", 2, "c", 60.0),
        ("w", pp, "n/a", 1, "b", 20.0),
        ("w", pp, "n/a", 2, "a", 40.0),
        ("w", inf, "without", 1, "a", 3.0),
        ("w", inf, "without", 2, "c", 2.0),
        ("w", prob, "without", 1, "b", 1.0),
        ("w", prob, "without", 2, "c", 2.0),
        ("w", inf, "with", 1, "d", 4.0),
        ("w", inf, "with", 2, "b", 3.0),
        ("w", prob, "with", 1, "a", 1.0),
        ("w", prob, "with", 2, "c", 2.0),
        ("v", pt, "n/a", 1, "q", 100.0),
        ("v", pt, "n/a", 2, "p", 50.0),
        ("v", pp, "n/a", 1, "p", 50.0),
        ("v", pp, "n/a", 2, "q", 100.0),
        ("v", inf, "without", 1, "q", 2.0),
        ("v", inf, "without", 2, "p", 1.0),
        ("v", prob, "without", 1, "p", 1.0),
        ("v", prob, "without", 2, "q", 2.0),
        ("v", inf, "with", 1, "p", 2.0),
        ("v", inf, "with", 2, "q", 1.0),
        ("v", prob, "with", 1, "q", 1.0),
        ("v", prob, "with", 2, "p", 2.0),
    ]
    kept = hc.top_homophones(_two_word_scores(), k=2, exclude_original=False)
    assert kept[(kept["word"] == "w") & (kept["method"] == pt)]["candidate"].tolist() == ["w", "d"]
    five = hc.top_homophones(_two_word_scores().drop(columns="I_context"))  # k = 5: every candidate but w
    assert len(five) == 4 * (4 + 2) and set(five["context"]) == {"n/a", "without"}
    # without the percentile column the self-information rankings are still made
    no_pct = hc.top_homophones(_two_word_scores().drop(columns="percentile"), k=1)
    assert no_pct["method"].tolist() == ["self-information, most informative", "self-information, most probable"] * 4


def test_top_homophones_default_k_and_stable_ties_on_many_candidates():
    # 40 candidates whose I takes the values 0, 1, 2 in turn: ties keep the input order (a stable sort)
    n = 40
    scores = pd.DataFrame(
        {
            "word": "w",
            "candidate": [f"c{i:02d}" for i in range(n)],
            "percentile": [float(i % 3) for i in range(n)],
            "I_no_context": [float(i % 3) for i in range(n)],
        }
    )
    top = hc.top_homophones(scores, k=n)
    informative = top[top["method"] == "self-information, most informative"]["candidate"].tolist()
    probable = top[top["method"] == "self-information, most probable"]["candidate"].tolist()
    by_value = {v: [f"c{i:02d}" for i in range(n) if i % 3 == v] for v in (0, 1, 2)}
    assert informative == by_value[2] + by_value[1] + by_value[0]
    assert probable == by_value[0] + by_value[1] + by_value[2]
    assert (top.groupby("method", sort=False).size() == n).all()
    assert (hc.top_homophones(scores).groupby("method", sort=False).size() == 5).all()  # k = 5 by default


def test_top_ratings_match_word_and_candidate():
    top = pd.DataFrame(
        {
            "word": ["w", "w", "w", "v"],
            "method": ["m1", "m1", "a2", "m1"],
            "context": ["n/a", "n/a", "without", "n/a"],
            "rank": [1, 2, 1, 1],
            "candidate": ["a", "b", "a", "x"],
        }
    )
    ratings = pd.DataFrame(
        {
            "word": ["w", "w", "v", "u"],
            "candidate": ["a", "b", "y", "a"],
            "avg_score": [4.0, 2.0, 5.0, 1.0],
            "n_raters": [3, 3, 3, 3],
        }
    )
    out = hc.top_ratings(top, ratings)
    # m1: a (4) and b (2) rated, v's x not (u's a belongs to another word): mean 3; a2: a only; in the order
    # the methods come in (m1 before a2)
    assert out.to_dict("records") == [
        {"method": "m1", "context": "n/a", "listed": 3, "rated": 2, "mean_rating": 3.0},
        {"method": "a2", "context": "without", "listed": 1, "rated": 1, "mean_rating": 4.0},
    ]


def test_score_candidates_by_hand():
    freq = {"泥": 5, "马": 3, "你": 9, "妈": 1}
    table = hc.score_candidates({"尼玛": ["泥马", "你妈"]}, freq, LengthScorer(), {"尼玛": ["哎尼玛"]})
    # Algorithm 2: F(泥马) = 5 + 3 = 8, F(你妈) = 9 + 1 = 10; ascending positions 1, 2 of 2 -> 50, 100
    assert table["F"].tolist() == [8, 10] and table["percentile"].tolist() == [50.0, 100.0]
    # released score: position 1 ranks 泥 (5) 1/2, 你 (9) 2/2; position 2 ranks 妈 (1) 1/2, 马 (3) 2/2
    assert table["released_score"].tolist() == [50.0 + 100.0, 100.0 + 50.0]
    assert table["I_no_context"].tolist() == [2, 2] and table["I_context"].tolist() == [3, 3]  # after "哎"
    assert table["word"].tolist() == ["尼玛", "尼玛"]


def test_candidate_summary_counts_against_the_released_list():
    from helpers.slang.homophone_data import published_candidates

    released = published_candidates("尼玛")
    found = released[:3] + ["乂乂"]  # three released candidates and one the list does not have
    row = hc.candidate_summary({"尼玛": found}, freq={}).iloc[0]
    assert row["roots"] == "ni ma" and row["pypinyin_reading"] == "ni ma"  # 尼 ní, 玛 mǎ without tones
    assert (row["candidates"], row["released"], row["shared"], row["identical"]) == (4, len(released), 3, False)
    assert (row["tone_aware"], row["all_readings"]) == (0, 0)  # no character is above the threshold of an empty D
    assert hc.candidate_summary({"尼玛": released}, freq={}).iloc[0]["identical"]
