"""Homophone generation: pinyin, Algorithm 1 and 2, the Kneser-Ney LM, HF scorers, emotion check."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from helpers.slang import emotion as em
from helpers.slang import homophones as hp


def test_pinyin_round_trip_on_known_words():
    assert hp.latinize("尼玛") == [["ni"], ["ma"]]
    assert hp.latinize("劳资", tone=True) == [["lao2"], ["zi1"]]
    assert "zao" in hp.latinize("草泥马")[0] and "cao" in hp.latinize("草泥马")[0]  # a polyphone: all readings
    inventory = hp.syllable_inventory()
    for word, roots in hp.SLANG_ROOTS.items():  # every character is found again under its reading
        assert all(c in inventory[r] for c, r in zip(word, roots) if hp.readings(c, heteronym=False) == [r])


def test_laozi_candidates_equal_the_released_list():
    published_d = hp.published_frequencies()
    found = hp.candidates("劳资", published_d, threshold=100, roots=hp.SLANG_ROOTS["劳资"])
    assert found == sorted(hp.published_candidates("劳资"))
    assert len(found) == 8


def test_all_released_lists_and_the_paper_total():
    d = hp.char_frequencies(hp.load_smp2020()["text"])
    total = 0
    for word, roots in hp.SLANG_ROOTS.items():
        found = hp.candidates(word, d, roots=roots)
        assert set(found) == set(hp.published_candidates(word)), word
        total += len(found)
    assert total == 172  # the paper's §4.1


def test_released_frequency_dictionary_is_reproduced_exactly():
    assert hp.released_reading_frequencies() == hp.published_frequencies()


def test_threshold_and_readings_on_a_tiny_dictionary():
    d = {"你": 500, "泥": 150, "尼": 90, "妈": 400, "马": 120}
    assert hp.candidates("尼玛", d, threshold=100, roots=["ni", "ma"]) == ["你妈", "你马", "泥妈", "泥马"]
    assert hp.candidates("尼玛", d, threshold=100, roots=["ni", "ma"], tone=True) == []  # no tone on the roots
    assert hp.candidates("尼玛", d, threshold=50, roots=["ni3", "ma1"], tone=True) == ["你妈"]


def test_percentile_algorithm_2_by_hand():
    d = {"a": 10, "b": 1, "c": 5}
    table = hp.percentile_scores(["ab", "cb", "bb", "ac"], d).set_index("candidate")
    # F: ab 11, cb 6, bb 2, ac 15 -> ascending bb, cb, ab, ac -> 25, 50, 75, 100
    assert table["F"].to_dict() == {"ac": 15, "ab": 11, "cb": 6, "bb": 2}
    assert table["percentile"].to_dict() == {"ac": 100.0, "ab": 75.0, "cb": 50.0, "bb": 25.0}
    released = hp.per_character_percentile(["ab", "cb", "bb", "ac"], d).set_index("candidate")["score"]
    # position 1: b < c < a -> 33.3, 66.7, 100; position 2: b < c -> 50, 100
    assert released["ac"] == pytest.approx(200.0) and released["bb"] == pytest.approx(100 / 3 + 50)


@pytest.fixture
def tiny_lm():
    return hp.KneserNeyLM(order=2, discount=0.75).fit(["abab", "abc"])


def test_kneser_ney_by_hand(tiny_lm):
    # continuation counts: a 2, b 1, c 1, </s> 2 over 6 bigram types; |V| = 5 (a b c </s> <unk>)
    p1 = {w: max(n - 0.75, 0) / 6 + 0.75 * 4 / 6 / 5 for w, n in {"a": 2, "b": 1, "c": 1}.items()}
    assert tiny_lm.prob("b", ["a"]) == pytest.approx((3 - 0.75) / 3 + 0.75 * 1 / 3 * p1["b"])
    assert tiny_lm.prob("a") == pytest.approx((2 - 0.75) / 2 + 0.75 * 1 / 2 * p1["a"])  # after <s>
    assert tiny_lm.prob("c", ["b"]) == pytest.approx((1 - 0.75) / 3 + 0.75 * 3 / 3 * p1["c"])
    assert tiny_lm.prob("zz", ["q"]) == pytest.approx(0.75 * 4 / 6 / 5)  # unknown after an unseen history
    assert tiny_lm.self_information("ab") == pytest.approx(-math.log2(tiny_lm.prob("a") * tiny_lm.prob("b", ["a"])))


@pytest.mark.parametrize("context", ["", "a", "b", "c", "unseen"])
def test_kneser_ney_sums_to_one(tiny_lm, context):
    assert sum(tiny_lm.prob(w, list(context)) for w in tiny_lm.vocab) == pytest.approx(1.0)


def test_kneser_ney_trigram_sums_to_one_on_chinese():
    lm = hp.KneserNeyLM(order=3).fit(["你妈的今天", "今天你好", "他妈的"])
    for ctx in ["", "你", "你妈", "今天", "没见过"]:
        assert sum(lm.prob(w, list(ctx)) for w in lm.vocab) == pytest.approx(1.0)


def _char_tokenizer(folder, chars):
    from transformers import BertTokenizer

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted(set(chars))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tok = BertTokenizer(str(folder / "vocab.txt"))
    tok.save_pretrained(folder)
    return tok, len(vocab)


def test_causal_scorer_on_a_tiny_model(tmp_path):
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    tok, n = _char_tokenizer(tmp_path / "gpt", "你妈尼玛他的好")
    torch.manual_seed(0)
    GPT2LMHeadModel(GPT2Config(vocab_size=n, n_positions=32, n_embd=16, n_layer=1, n_head=2)).save_pretrained(tmp_path / "gpt")
    scorer = hp.CausalLMScorer(tmp_path / "gpt")
    ids = tok("他的你妈", add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        logp = torch.log_softmax(scorer.model(torch.tensor([ids])).logits[0], -1)
    expected = sum(float(logp[k - 1, ids[k]]) for k in (2, 3)) / math.log(2)  # "你妈" after "他的"
    assert scorer.log2prob("你妈", "他的") == pytest.approx(expected, rel=1e-5)
    assert scorer.self_information("你妈", "他的") == pytest.approx(-expected, rel=1e-5)


def test_masked_scorer_pseudo_log_likelihood(tmp_path):
    import torch
    from transformers import BertConfig, BertForMaskedLM

    tok, n = _char_tokenizer(tmp_path / "bert", "你妈尼玛他的好")
    torch.manual_seed(0)
    BertForMaskedLM(BertConfig(vocab_size=n, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                               intermediate_size=32, max_position_embeddings=32)).save_pretrained(tmp_path / "bert")
    scorer = hp.MaskedLMScorer(tmp_path / "bert")
    ids = tok("尼玛", add_special_tokens=False)["input_ids"]
    total = 0.0
    for k in range(2):
        seq = [tok.cls_token_id] + list(ids) + [tok.sep_token_id]
        seq[1 + k] = tok.mask_token_id
        with torch.no_grad():
            logits = scorer.model(torch.tensor([seq])).logits[0]
        total += float(torch.log_softmax(logits, -1)[1 + k, ids[k]]) / math.log(2)
    assert scorer.log2prob("尼玛") == pytest.approx(total, rel=1e-5)


def test_substitute_longest_first_and_no_rewrites():
    text = "草泥马，尼玛！草泥马"
    out = em.substitute(text, {"草泥马": "艹泥马", "尼玛": "你妈", "泥马": "XX"})
    assert out == "艹泥马，你妈！艹泥马"
    assert em.substitute("尼玛尼玛", {"尼玛": "尼玛尼"}) == "尼玛尼尼玛尼"


def test_emotion_pipeline_on_a_small_split(tmp_path, monkeypatch):

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    rng = np.random.default_rng(0)
    words = {0: "开心快乐好", 1: "生气讨厌烦", 2: "难过伤心哭"}
    rows = [{"text": "".join(rng.choice(list(words[k]), 6)), "label": k} for k in words for _ in range(40)]
    data = pd.DataFrame(rows).sample(frac=1, random_state=0).reset_index(drop=True)
    pipe, selection = em.train_classifier(data[:80], data[80:100], c_grid=(1.0, 4.0))
    assert len(selection) == 2
    scores = em.evaluate(pipe, data[100:]).set_index("metric")
    assert scores.loc["macro_f1", "value"] > 0.9
    posts = pd.DataFrame({"text": ["生气生气讨厌", "开心好快乐"], "label": [1, 0]})
    table = em.consistency_table(pipe, posts, {"生气": ["开心", "伤心"]})
    assert list(table["group"]) == ["G0", "G1", "G2"] and table.loc[0, "same_as_original"] == 1.0
    assert list((tmp_path / "cache" / "emotion-classifier").glob("*.pkl"))


def test_smp2020_loader_validates(tmp_path):
    (tmp_path / "SMP2020").mkdir()
    for split in hp.SPLITS:
        (tmp_path / "SMP2020" / f"{split}.tsv").write_text("label\ttext_a\n1\t好\n", encoding="utf-8")
    assert len(hp.load_smp2020(root=tmp_path)) == 3
    (tmp_path / "SMP2020" / "dev.tsv").write_text("label\ttext_a\n1\t好\n9\t坏\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"dev.tsv, row 3, column 'label': value '9'"):
        hp.load_smp2020(root=tmp_path)
