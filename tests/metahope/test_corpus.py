"""Metaphor types from the released corpus files, joined to the pilots' error sheets (issue 35, item 6)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.metahope import ch02, corpus


def _corpus(rows):
    """A corpus frame in :func:`corpus.read_corpus`'s layout."""
    out = pd.DataFrame(
        rows,
        columns=[
            "doc",
            "corpus_sentence",
            "sentence",
            "word",
            "word_index",
            "metaphor_type",
            "subtype",
            "deliberate",
            "conventional",
        ],
    )
    return out.astype({"deliberate": "boolean", "conventional": "boolean"})


def test_join_goes_by_sentence_and_word_not_by_the_item_id():
    c = _corpus(
        [
            ("d1", "d1_1", "Prices climb, prices fall.", "climb", 2, "indirect", pd.NA, True, pd.NA),
            ("d1", "d1_1", "Prices climb, prices fall.", "fall", 4, "indirect", pd.NA, False, pd.NA),
            ("d1", "d1_2", "The market fell.", "fell", 3, "indirect", pd.NA, False, pd.NA),
            ("d1", "d1_3", "It fell and fell.", "fell", 2, "indirect", pd.NA, False, pd.NA),
            ("d1", "d1_3", "It fell and fell.", "fell", 4, "direct", pd.NA, True, pd.NA),
        ]
    )
    tidy = pd.DataFrame(
        {
            "direction": "EN→ZH",
            "item": ["d1_9_4", "d1_9_9", "d1_2_3", "d2_1_1", "d1_3_4", "d1_3_7"],
            "sentence": [
                "fall, prices climb Prices.",
                "Prices climb, prices fall.",
                "The market fell.",
                "The market fell.",
                "It fell and fell.",
                "It fell and fell.",
            ],
            "metaphor": ["Climb", "fall", "rose", "fell", "fell", "fell"],
        }
    )
    got = corpus.join_types(tidy, {"EN→ZH": c}).set_index("item")
    # reordered words and a wrong id still find the row; the word decides, not the index
    assert got.loc["d1_9_4", ["matched", "corpus_word", "deliberate"]].tolist() == [True, "climb", True]
    assert got.loc["d1_9_9", "corpus_word"] == "fall"
    assert got.loc["d1_2_3", "note"] == "word not found in the sentence"
    assert got.loc["d2_1_1", "note"] == "document 'd2' is not in the corpus file"
    # a word twice in the sentence: the id's word index decides, and says so when it cannot
    assert got.loc["d1_3_4", ["matched", "metaphor_type"]].tolist() == [True, "direct"]
    assert got.loc["d1_3_7", "note"] == "word occurs 2 times in the sentence and the id's word index names none"
    assert got["matched"].sum() == 3
    assert got.loc["d1_9_4", "id_agrees"] == False and got.loc["d1_3_4", "id_agrees"] == True  # noqa: E712


def test_every_released_metaphor_finds_its_corpus_row():
    tidy = ch02.setup().load().tidy
    types = corpus.join_types(tidy)
    counts = types.groupby("direction")["matched"].agg(["sum", "size"])
    assert counts.to_dict("index") == {"EN→ZH": {"sum": 65, "size": 65}, "ZH→EN": {"sum": 32, "size": 32}}
    en = types[types["direction"] == "EN→ZH"]
    assert sorted(en.loc[en["deliberate"].astype(bool), "metaphor"]) == ["machinery", "spanner", "throws"]
    assert en["corpus_sentence"].nunique() == 21 and (en["metaphor_type"] == "indirect").all()
    # 8 EN→ZH ids carry another word's index (e.g. spanner's id says word 7, the corpus has it at 9)
    wrong = en.loc[~en["id_agrees"].astype(bool), "metaphor"]
    assert sorted(wrong) == ["asking", "headed", "reverse", "set up", "sought", "spanner", "throws", "turn"]
    zh = types[types["direction"] == "ZH→EN"]
    assert zh["subtype"].value_counts().to_dict() == {"conventional": 24, "cont": 5, "personification": 1, "WIDLII": 1}
    assert zh["metaphor_type"].value_counts().to_dict() == {"indirect": 31, "direct": 1}


def test_a_corpus_file_with_a_bad_flag_is_named(tmp_path):
    f = tmp_path / "v.csv"
    f.write_text(
        "docid,sentence_id,sentence,word,windex,type,DELMET\nd,d_1,A b.,b,2,met,0\nd,d_1,A b.,A,1,met,yes\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as e:
        corpus.read_corpus("EN→ZH", f)
    assert (e.value.row, e.value.column, e.value.value) == (3, "DELMET", "yes")


def _units(a_values, b_values, per_sentence=1):
    """Metaphors of the ZH→EN contrast, ``per_sentence`` to a sentence, each side its own sentences."""
    rows = [
        (f"{side}{i // per_sentence}", side == "a", v)
        for side, vals in (("a", a_values), ("b", b_values))
        for i, v in enumerate(vals)
    ]
    u = pd.DataFrame(rows, columns=["corpus_sentence", "conventional", "penalty"])
    return u.assign(
        direction="ZH→EN", item=[f"i{i}" for i in range(len(u))], error_rate=(u["penalty"] > 0) * 1.0, indirect=pd.NA
    )


def test_type_comparison_difference_interval_and_detectable_difference():
    rng = np.random.default_rng(1)
    a, b = rng.normal(5, 2, 400), rng.normal(3, 2, 400)
    out = corpus.type_comparison(_units(a, b), n_boot=2000, seed=3).set_index("measure").loc["penalty"]
    assert out["difference"] == pytest.approx(a.mean() - b.mean())
    se = np.sqrt(a.var(ddof=1) / 400 + b.var(ddof=1) / 400)  # independent sentences: the textbook standard error
    assert out["ci_high"] - out["ci_low"] == pytest.approx(2 * 1.96 * se, rel=0.1)
    assert out["mdd_80"] == pytest.approx(2.8016 * se, rel=0.1) and out["df"] == 798
    few = corpus.type_comparison(_units(a[:6], b[:6]), n_boot=2000, seed=3).set_index("measure").loc["penalty"]
    se_few = (few["ci_high"] - few["ci_low"]) / 2 / 2.228  # t with 12 − 2 sentences' degrees of freedom
    assert few["mdd_80"] == pytest.approx((2.228 + 0.879) * se_few, rel=1e-3)
    # four metaphors to a sentence that share its penalty: the sentences, not the metaphors, count
    nested = (
        corpus.type_comparison(
            _units(np.repeat(a[:100], 4), np.repeat(b[:100], 4), per_sentence=4), n_boot=2000, seed=3
        )
        .set_index("measure")
        .loc["penalty"]
    )
    assert nested["mdd_80"] == pytest.approx(2 * out["mdd_80"], rel=0.15)
    assert (nested["sentences_a"], nested["n_a"]) == (100, 400)


def test_a_type_seen_in_one_sentence_gets_no_interval():
    out = corpus.type_comparison(
        _units([4, 6, 2], [0, 2, 4, 0]).assign(corpus_sentence=["a0", "a0", "a0", "b0", "b1", "b2", "b3"]), n_boot=200
    )
    assert out["ci_low"].isna().all() and out["mdd_80"].isna().all() and (out["sentences_a"] == 1).all()
    assert out.set_index("measure").loc["penalty", "difference"] == pytest.approx(4 - 1.5)
