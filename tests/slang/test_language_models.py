"""The language-model ladder of chapter 6: each scorer on tiny hand-made text with known probabilities."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from helpers.slang import ladder, language_models
from helpers.slang import language_models as lm

from .length_scorer import LengthScorer


class Uniform(lm.Scorer):
    """Every character has probability 1 / V."""

    def __init__(self, v: int):
        self.v, self.name = v, f"uniform-{v}"

    def log2prob(self, text, context=""):
        return -len(text) * math.log2(self.v)


def test_perplexity_of_a_uniform_model_is_its_vocabulary_size():
    assert lm.perplexity(Uniform(37), ["你好", "世界和平", "a"]) == pytest.approx(37.0)
    with pytest.raises(ValueError):
        lm.perplexity(Uniform(3), [""])


def test_kneser_ney_trigram_by_hand():
    # "aab": padded <s> <s> a a b </s>; trigrams (<s><s>a) (<s>aa) (aab) (ab</s>), each once
    kn = lm.KneserNeyLM(order=3, discount=0.5).fit(["aab"])
    # unigram continuation counts (distinct left neighbours of the bigram types <s>a, aa, ab, b</s>):
    # a: {<s>, a} = 2, b: {a} = 1, </s>: {b} = 1, over 4 bigram types and 3 distinct unigram types; V = 4
    p1 = {"a": (2 - 0.5) / 4 + 0.5 * 3 / 4 / 4, "b": (1 - 0.5) / 4 + 0.5 * 3 / 4 / 4}
    # bigram level after "a", continuation counts: (a,a) from {<s>} 1, (a,b) from {a} 1: total 2, types 2
    p2_b = (1 - 0.5) / 2 + 0.5 * 2 / 2 * p1["b"]
    # trigram level after "aa": c(aab) = 1, total 1, types 1
    assert kn.prob("b", ["a", "a"]) == pytest.approx((1 - 0.5) / 1 + 0.5 * 1 / 1 * p2_b)
    # an unseen trigram history "ba" falls back to the bigram level after "a"
    assert kn.prob("b", ["b", "a"]) == pytest.approx(p2_b)


@pytest.mark.parametrize("order", [1, 2, 3])
def test_a_lower_order_from_one_count_equals_a_direct_fit(order):
    texts = ["你妈的今天", "今天你好", "他妈的", "aab", "今天你好"]  # a repeated text: raw counts above 1
    direct, derived = lm.KneserNeyLM(order).fit(texts), lm.KneserNeyLM(4).fit(texts).lower(order)
    assert max(direct.counts[order].values()) >= 2 and len(derived.counts) == order + 1
    assert derived.counts == direct.counts and derived.vocab == direct.vocab
    assert derived.context_total == direct.context_total and derived.context_types == direct.context_types
    assert derived.log2prob("妈的", "今天") == pytest.approx(direct.log2prob("妈的", "今天"))


def test_packed_keys_and_groups_beyond_int64_match_the_int64_path_and_by_hand():
    """Rows of codes are packed base b, the first code the most significant, and grouped by
    sorting the packed key; where b^k would overflow int64 (a large vocabulary at a high
    order) Python integers and a column-wise lexsort take over and give the same answer."""
    from helpers.slang.language_models import _group_rows, _packed

    rows = np.array([[2, 0, 1], [0, 1, 1], [2, 0, 1], [0, 1, 0], [0, 1, 1]], dtype=np.int32)
    assert _packed(rows, 3) == [2 * 9 + 1, 1 * 3 + 1, 19, 3, 4]
    assert _packed(rows, 2**40) == [2 * 2**80 + 1, 2**40 + 1, 2 * 2**80 + 1, 2**40, 2**40 + 1]
    for base in (3, 2**40):  # 3^3 fits int64, (2^40)^3 does not
        distinct, counts = _group_rows(rows, base)
        assert distinct.tolist() == [[0, 1, 0], [0, 1, 1], [2, 0, 1]] and counts.tolist() == [1, 2, 2]
        distinct, sums = _group_rows(rows[:, 1:], base, weights=np.array([5, 1, 2, 3, 4]))
        assert distinct.tolist() == [[0, 1], [1, 0], [1, 1]] and sums.tolist() == [7, 3, 5]
    distinct, counts = _group_rows(rows[:, :0], 3)
    assert distinct.shape == (1, 0) and counts.tolist() == [5]


def test_a_vocabulary_too_large_for_int64_keys_gives_the_same_lower_orders():
    """1,500 characters at order 6: 1,503^6 > 2^63, so the top level takes the Python-integer
    path; the order-2 model derived from it still equals a direct order-2 fit (int64 path)."""
    chars = [chr(0x4E00 + i) for i in range(1500)]
    texts = ["".join(chars[i : i + 7]) for i in range(0, 1500, 3)] + ["".join(chars[::-50])]
    six = lm.KneserNeyLM(6).fit(texts)
    assert len(six.symbols) ** 6 > 2**63
    direct, derived = lm.KneserNeyLM(2).fit(texts), six.lower(2)
    assert derived.counts == direct.counts and derived.context_total == direct.context_total
    assert derived.context_types == direct.context_types
    assert sum(six.prob(w, list(texts[3][:5])) for w in six.vocab) == pytest.approx(1.0)
    assert six.key(["<s>", chars[0]]) == six.code["<s>"] * len(six.symbols) + 0


def test_a_pickled_kneser_ney_model_keeps_only_its_top_counts_and_scores_the_same():
    """The cache pickles a model as its highest-order counts and symbols; loading derives the
    levels again, equal to the fitted ones."""
    import pickle

    kn = lm.KneserNeyLM(order=3, discount=0.5).fit(["aab", "ba", "aab"])
    state = kn.__getstate__()
    assert set(state) == {"order", "d", "name", "symbols", "grams", "gram_counts"}
    assert state["symbols"] == ["a", "b", "</s>", "<unk>", "<s>"]
    assert state["gram_counts"].sum() == 4 + 3 + 4  # len(text) + 1 windows per text
    back = pickle.loads(pickle.dumps(kn))
    assert (back.order, back.d, back.name, back.vocab) == (3, 0.5, "char-3gram-KN", ["a", "b", "</s>", "<unk>"])
    assert back.counts == kn.counts and back.context_types == kn.context_types
    assert back.context_total == kn.context_total
    assert back.log2prob("ab", "a") == kn.log2prob("ab", "a")


def test_word_unigram_model_against_a_hand_made_list():
    words = lm.WordUnigramScorer({"你妈": 2, "你": 4, "妈": 2}, name="toy")  # total 8
    assert words.log2prob("你妈") == pytest.approx(math.log2(2 / 8))  # a listed word
    assert words.log2prob("妈你") == pytest.approx(math.log2(2 / 8) + math.log2(4 / 8))  # its characters
    assert words.log2prob("猫") == pytest.approx(math.log2(2 / 8 / 2))  # unlisted: half the smallest probability
    assert words.log2prob("你妈", "a context") == words.log2prob("你妈")  # a unigram model has no context
    cover = words.coverage(["你妈", "妈你", "猫"]).set_index("text")
    assert cover["found"].to_dict() == {"你妈": "word", "妈你": "characters", "猫": "characters"}
    assert cover["unknown_characters"].to_dict() == {"你妈": 0, "妈你": 0, "猫": 1}
    assert lm.perplexity(words, ["你妈"]) == pytest.approx(2.0)  # 2 bits over 2 characters


def test_jieba_list_agrees_with_jieba_itself():
    import jieba

    jieba.dt.check_initialized()
    scorer = lm.jieba_scorer()
    for word in ("老子", "草泥马", "我们"):
        assert scorer.p[word] == pytest.approx(jieba.dt.FREQ[word] / jieba.dt.total)


def test_wordfreq_list_is_its_frequency_table():
    import wordfreq

    table = wordfreq.get_frequency_dict("zh", wordlist="large")
    scorer = lm.wordfreq_scorer()
    assert scorer.p["尼玛"] == pytest.approx(table["尼玛"] / sum(table.values()))
    assert "Wikipedia" in scorer.source and "CC BY-SA 4.0" in scorer.source


TOY = ["你好世界", "世界你好", "你好你好"] * 20


SHAPE = {"n_embd": 16, "n_layer": 1, "n_head": 2}


def test_transformer_trains_on_a_toy_corpus_and_its_cache_follows_its_inputs(tmp_path, monkeypatch):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path))
    args = {"shape": SHAPE, "steps": 40, "batch_size": 8, "window": 8, "lr": 1e-2, "min_count": 1}
    model = lm.train_char_gpt(TOY, **args)
    assert model.vocab[:3] == [lm.PAD, lm.BOS_TOKEN, lm.UNK_TOKEN] and len(model.vocab) == 3 + 4
    # four characters: a uniform model scores 7 (the vocabulary); the trained one learned the toy language
    assert lm.perplexity(model, ["你好世界", "世界你好"]) < 3.0
    entries = lambda: sorted(p.name for p in (tmp_path / "char-gpt").glob("*.pt"))  # noqa: E731
    assert len(entries()) == 1
    again = lm.train_char_gpt(TOY, **args)
    assert len(entries()) == 1 and again.training == model.training  # read from the cache, not retrained
    lm.train_char_gpt(TOY, **{**args, "seed": 1})
    lm.train_char_gpt(TOY[:-1], **args)
    lm.train_char_gpt(TOY, **{**args, "steps": 41})
    assert len(entries()) == 4  # seed, texts and steps each make a new key


def test_transformer_scores_are_the_model_own_log_probabilities(tmp_path, monkeypatch):
    import torch

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path))
    model = lm.train_char_gpt(TOY, shape=SHAPE, steps=5, batch_size=4, window=8, min_count=1)
    ids = [model.index[lm.BOS_TOKEN]] + model.encode("世界" + "你好")
    with torch.no_grad():
        logp = torch.log_softmax(model.model(torch.tensor([ids])).logits[0], -1)
    expected = sum(float(logp[k - 1, ids[k]]) for k in (3, 4)) / math.log(2)  # 你好 after <bos> 世界
    assert model.log2prob("你好", "世界") == pytest.approx(expected, rel=1e-5)
    batch = model.log2probs(["你好", "世", "好好好"], "世界")  # padded batch = one text at a time
    assert batch == pytest.approx([model.log2prob(t, "世界") for t in ["你好", "世", "好好好"]], rel=1e-5)


def test_transformer_with_zero_weights_has_the_uniform_perplexity(tmp_path, monkeypatch):
    import torch

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path))
    model = lm.train_char_gpt(TOY, shape=SHAPE, steps=1, batch_size=2, window=8, min_count=1)
    with torch.no_grad():
        for p in model.model.parameters():
            p.zero_()
    assert lm.perplexity(model, ["你好世界", "好"]) == pytest.approx(len(model.vocab), rel=1e-5)


def test_hf_checkpoint_perplexity_on_a_tiny_model(tmp_path):
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    tok, n = _char_tokenizer(tmp_path / "gpt", "你妈尼玛他的好")
    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config(vocab_size=n, n_positions=32, n_embd=16, n_layer=1, n_head=2))
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()
    model.save_pretrained(tmp_path / "gpt")
    scorer = lm.CausalLMScorer(tmp_path / "gpt")
    # no BOS token: the first token of each text is counted as certain, the rest are uniform over n
    texts = ["他的你妈", "尼玛"]
    assert lm.perplexity(scorer, texts) == pytest.approx(n ** ((3 + 1) / 6), rel=1e-5)
    scores, models = ladder.ladder_scores(
        ["kn-2"],
        ["你妈的", "他的好"],
        texts,
        {"尼玛": ["你妈", "尼玛"]},
        {},
        hf_model=str(tmp_path / "gpt"),
        use_cache=False,
    )
    assert models["rung"].tolist() == ["kn-2", "hf:gpt"]
    assert models.set_index("rung").loc["hf:gpt", "heldout_perplexity"] == pytest.approx(n ** (4 / 6), rel=1e-5)
    assert set(scores["rung"]) == {"kn-2", "hf:gpt"} and len(scores) == 4


@pytest.fixture
def tiny_lm():
    return lm.KneserNeyLM(order=2, discount=0.75).fit(["abab", "abc"])


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
    model = lm.KneserNeyLM(order=3).fit(["你妈的今天", "今天你好", "他妈的"])
    for ctx in ["", "你", "你妈", "今天", "没见过"]:
        assert sum(model.prob(w, list(ctx)) for w in model.vocab) == pytest.approx(1.0)


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
    GPT2LMHeadModel(GPT2Config(vocab_size=n, n_positions=32, n_embd=16, n_layer=1, n_head=2)).save_pretrained(
        tmp_path / "gpt"
    )
    scorer = lm.CausalLMScorer(tmp_path / "gpt")
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
    BertForMaskedLM(
        BertConfig(
            vocab_size=n,
            hidden_size=16,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=32,
            max_position_embeddings=32,
        )
    ).save_pretrained(tmp_path / "bert")
    scorer = lm.MaskedLMScorer(tmp_path / "bert")
    ids = tok("尼玛", add_special_tokens=False)["input_ids"]
    total = 0.0
    for k in range(2):
        seq = [tok.cls_token_id] + list(ids) + [tok.sep_token_id]
        seq[1 + k] = tok.mask_token_id
        with torch.no_grad():
            logits = scorer.model(torch.tensor([seq])).logits[0]
        total += float(torch.log_softmax(logits, -1)[1 + k, ids[k]]) / math.log(2)
    assert scorer.log2prob("尼玛") == pytest.approx(total, rel=1e-5)


def test_word_list_coverage_counts_how_each_list_found_the_candidates():
    """wordfreq finds x whole and y in pieces, jieba x whole and y in characters; only x is rated;
    the Kneser–Ney rung (no ``found``) is not a word list."""
    scores = pd.DataFrame(
        {
            "rung": ["wordfreq", "wordfreq", "jieba", "jieba", "kn-2", "kn-2"],
            "word": "w",
            "candidate": ["x", "y"] * 3,
            "found": ["word", "pieces", "word", "characters", None, None],
        }
    )
    ratings = pd.DataFrame({"word": ["w"], "candidate": ["x"], "avg_score": [3.0]})
    got = ladder.word_list_coverage(scores, ratings)
    assert list(got.columns) == ["rung", "candidates", "found", "n", "rated"]
    assert got.values.tolist() == [
        ["wordfreq", 2, "word", 1, 1],
        ["wordfreq", 2, "pieces", 1, 0],
        ["jieba", 2, "word", 1, 1],
        ["jieba", 2, "characters", 1, 0],
    ]
    assert ladder.word_list_coverage(scores.drop(columns="found"), ratings).empty


# --------------------------------------------------------------------------- chapter 6: language models


def test_kneser_ney_unigram_by_hand_and_its_defaults():
    from helpers.slang import language_models as lm

    kn = lm.KneserNeyLM()
    assert (kn.order, kn.d, kn.name) == (3, 0.75, "char-3gram-KN")
    with pytest.raises(ValueError, match=r"^order must be >= 1$"):
        lm.KneserNeyLM(order=0)
    # order 1 on "aab": counts a 2, b 1, </s> 1 (4 tokens, 3 types); V = a, b, </s>, <unk>
    # P(w) = max(c − 0.5, 0) / 4 + 0.5 · 3 / 4 · 1/4
    uni = lm.KneserNeyLM(order=1, discount=0.5).fit(["aab"])
    assert uni.name == "char-1gram-KN" and uni.vocab == ["a", "b", "</s>", "<unk>"]
    p = {"a": 1.5 / 4 + 0.09375, "b": 0.5 / 4 + 0.09375, "</s>": 0.5 / 4 + 0.09375, "<unk>": 0.09375}
    for w, expected in p.items():
        assert uni.prob(w) == pytest.approx(expected)
    assert sum(p.values()) == pytest.approx(1.0)
    assert uni.prob("z") == pytest.approx(0.09375) and uni.prob("a", ["b", "b"]) == pytest.approx(p["a"])
    assert uni.log2prob("ab", "zz") == pytest.approx(math.log2(p["a"]) + math.log2(p["b"]))
    assert uni.self_information("ab") == pytest.approx(-math.log2(p["a"] * p["b"]))
    assert uni.log2probs(["a", "bb"]) == pytest.approx([math.log2(p["a"]), 2 * math.log2(p["b"])])
    tri = lm.KneserNeyLM(order=3).fit(["aab"])
    for bad in (0, 4):
        with pytest.raises(ValueError, match="order must be 1-3"):
            tri.lower(bad)
    assert tri.lower(1).name == "char-1gram-KN" and tri.lower(2).d == 0.75
    half = lm.KneserNeyLM(order=3, discount=0.5).fit(["aab", "ba"])
    same = half.lower(3)  # its own order is allowed: the same model
    assert same.d == 0.5 and same.counts == half.counts and same.prob("b", ["a", "a"]) == half.prob("b", ["a", "a"])
    assert half.lower(2).d == 0.5


def test_kneser_ney_bigram_log2prob_after_a_context_by_hand():
    from helpers.slang import language_models as lm

    # order 2, d = 0.5 on "ab": bigrams (<s>a) (ab) (b</s>); unigram continuation counts a 1, b 1, </s> 1 over 3
    # bigram types; V = a, b, </s>, <unk> (4): P1(w) = (1 − 0.5)/3 + 0.5 · 3/3 · 1/4 = 1/6 + 1/8
    kn = lm.KneserNeyLM(order=2, discount=0.5).fit(["ab"])
    p1 = 1 / 6 + 1 / 8
    # after a: c(ab) = 1, c(a·) = 1, one type: P(b|a) = 0.5 + 0.5 · P1(b); P(a|a) = 0.5 · P1(a)
    assert kn.prob("b", ["a"]) == pytest.approx(0.5 + 0.5 * p1)
    assert kn.prob("a", ["a"]) == pytest.approx(0.5 * p1)
    assert kn.prob("a") == pytest.approx(0.5 + 0.5 * p1)  # after <s>
    # "ba" after the context "a": P(b|a) · P(a|b), P(a|b) = 0.5 · P1(a) (b was followed only by </s>)
    assert kn.log2prob("ba", "a") == pytest.approx(math.log2((0.5 + 0.5 * p1) * 0.5 * p1))
    assert kn.self_information("ba", "a") == pytest.approx(-math.log2((0.5 + 0.5 * p1) * 0.5 * p1))
    assert kn.self_information("a") == pytest.approx(-math.log2(0.5 + 0.5 * p1))  # no context: after <s>


@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_kneser_ney_distributions_sum_to_one(order):
    """Interpolated Kneser-Ney is a distribution over the vocabulary (characters, </s>, <unk>) after any
    history: seen, unseen, shorter than the order, or made of unknown characters."""
    from helpers.slang import language_models as lm

    kn = lm.KneserNeyLM(order=order, discount=0.6).fit(["你妈的今天", "今天你好", "他妈的", "aab", "ba"])
    for context in ["", "你", "你妈", "今天你", "a", "ab", "zz", "没见过"]:
        assert sum(kn.prob(w, list(context)) for w in kn.vocab) == pytest.approx(1.0), context


def test_kneser_ney_four_gram_after_a_context_by_hand():
    """Order 4 on "ab", d = 0.5: every level's history is a suffix of the last three symbols.

    Padded: <s> <s> <s> a b </s>; V = a, b, </s>, <unk> (uniform 1/4). Each 4-gram, and each
    continuation 3-, 2- and 1-gram, occurs once; each history seen has one type and total 1,
    except the unigram level (3 types, total 3). P(b | a) climbs the levels:
    k=1: 0.5/3 + 0.5·3/3·1/4 = 7/24; k=2 (a): 0.5 + 0.5·7/24 = 31/48; k=3 (<s> a): 79/96;
    k=4 (<s> <s> a): 175/192. P(a | <s><s><s>) is the same by symmetry. P(b | <s><s><s>):
    b never follows <s>, so k=2..4 only halve 7/24: 7/192."""
    from helpers.slang import language_models as lm

    kn = lm.KneserNeyLM(order=4, discount=0.5).fit(["ab"])
    assert kn.prob("b", ["a"]) == pytest.approx(175 / 192)
    assert kn.prob("a") == pytest.approx(175 / 192) and kn.prob("b") == pytest.approx(7 / 192)
    assert kn.log2prob("b", "a") == pytest.approx(math.log2(175 / 192))
    assert kn.log2prob("ab") == pytest.approx(2 * math.log2(175 / 192))  # no context: <s> padding
    assert kn.log2prob("b") == pytest.approx(math.log2(7 / 192))


def test_word_unigram_pieces_of_a_longer_text_by_hand():
    from helpers.slang import language_models as lm

    # jieba's dictionary cuts 我们的猫 into 我们 / 的 / 猫 and 我们今天 into 我们 / 今天 (checked with jieba 0.42)
    words = lm.WordUnigramScorer({"我们": 4, "的": 2, "我": 1, "们": 1})  # total 8; floor 1/8 / 2
    assert words.tokens("我们的猫") == [("我们", "piece"), ("的", "character"), ("猫", "unknown")]
    assert words.tokens("我们今天") == [("我们", "piece"), ("今", "unknown"), ("天", "unknown")]
    assert words.log2prob("我们的猫") == pytest.approx(math.log2(4 / 8) + math.log2(2 / 8) + math.log2(1 / 16))
    cover = words.coverage(["我们的猫", "的"])
    assert cover.to_dict("records") == [
        {"text": "我们的猫", "found": "pieces", "unknown_characters": 1},
        {"text": "的", "found": "word", "unknown_characters": 0},
    ]
    assert words.coverage([]).columns.tolist() == ["text", "found", "unknown_characters"]


def test_word_unigram_zero_counts_pieces_and_empty_lists():
    from helpers.slang import language_models as lm

    words = lm.WordUnigramScorer({"你": 3, "妈": 1, "猫": 0}, source="hand")
    assert (words.name, words.source) == ("word-unigram", "hand")
    assert words.log2prob("猫") == pytest.approx(math.log2(0.25 / 2))  # a zero count is not listed: the floor
    assert words.tokens("猫") == [("猫", "unknown")] and words.tokens("你") == [("你", "word")]
    with pytest.raises(ValueError, match=r"^the frequency list is empty$"):
        lm.WordUnigramScorer({"a": 0})
    with pytest.raises(ValueError, match=r"^perplexity needs at least one character of text$"):
        lm.perplexity(words, [])
    # without a source the scorer names none (the two list scorers pass WORD_LISTS' text)
    assert (lm.WordUnigramScorer({"a": 1}).name, lm.WordUnigramScorer({"a": 1}).source) == ("word-unigram", "")


def test_word_unigram_characters_of_an_unlisted_piece_by_hand():
    """A piece jieba cuts out that the list lacks is scored by its characters: each listed one
    as a character, the others as unknown (the floor)."""
    from helpers.slang import language_models as lm

    # jieba's dictionary cuts 我们今天 into 我们 / 今天 (checked with jieba 0.42); 今天 is not listed
    words = lm.WordUnigramScorer({"我们": 2, "今": 2})  # total 4; floor 2/4 / 2 = 1/4
    assert words.tokens("我们今天") == [("我们", "piece"), ("今", "character"), ("天", "unknown")]
    assert words.log2prob("我们今天") == pytest.approx(-1 - 1 - 2)
    assert words.coverage(["我们今天"]).to_dict("records") == [
        {"text": "我们今天", "found": "pieces", "unknown_characters": 1}
    ]


def test_perplexity_over_more_texts_than_one_batch():
    from helpers.slang import language_models as lm

    words = lm.WordUnigramScorer({"a": 1, "b": 3})
    texts = ["a"] * 50 + ["bb"] * 50  # 50 · 2 bits + 100 · log2(4/3) bits over 150 characters
    bits = 50 * 2 + 100 * math.log2(4 / 3)
    assert lm.perplexity(words, texts) == pytest.approx(2 ** (bits / 150))


def test_self_information_table_by_hand():
    posts = ["今天尼玛好累", "哎尼玛", "这句没有那个词"]  # left contexts "今天" (2) and "哎" (1); the third has no 尼玛
    table = language_models.self_information_table({"尼玛": ["泥马", "你妈"]}, LengthScorer(), {"尼玛": posts})
    assert table["candidate"].tolist() == ["泥马", "你妈"] and set(table["scorer"]) == {"length"}
    assert table["I_no_context"].tolist() == [2, 2]  # two characters, no context
    assert table["I_context"].tolist() == [3.5, 3.5]  # mean of 2 + 2 and 2 + 1
    assert table["n_contexts"].tolist() == [2, 2]
    assert "I_context" not in language_models.self_information_table({"尼玛": ["泥马"]}, LengthScorer()).columns
