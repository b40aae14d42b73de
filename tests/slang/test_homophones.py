"""Homophone generation: pinyin, Algorithm 1 and 2, the Kneser-Ney LM, HF scorers, emotion check."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from helpers.slang import emotion as em
from helpers.core import paths
from helpers.slang import candidates as hc
from helpers.slang import correlations
from helpers.slang import homophone_data as hd
from helpers.slang import language_models


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


def test_released_frequency_dictionary_is_reproduced_exactly():
    assert hd.released_reading_frequencies() == hd.published_frequencies()


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


@pytest.fixture
def tiny_lm():
    return language_models.KneserNeyLM(order=2, discount=0.75).fit(["abab", "abc"])


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
    lm = language_models.KneserNeyLM(order=3).fit(["你妈的今天", "今天你好", "他妈的"])
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
    scorer = language_models.CausalLMScorer(tmp_path / "gpt")
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
    scorer = language_models.MaskedLMScorer(tmp_path / "bert")
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
    for split in hd.SPLITS:
        (tmp_path / "SMP2020" / f"{split}.tsv").write_text("label\ttext_a\n1\t好\n", encoding="utf-8")
    assert len(hd.load_smp2020(root=tmp_path)) == 3
    (tmp_path / "SMP2020" / "dev.tsv").write_text("label\ttext_a\n1\t好\n9\t坏\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"dev.tsv, row 3, column 'label': value '9'"):
        hd.load_smp2020(root=tmp_path)


# --------------------------------------------------------------------------- per-word correlations


def _toy_scores():
    rng = np.random.default_rng(3)
    rows = [{"word": w, "candidate": f"{w}{k}", "F": int(rng.integers(10, 1000)), "percentile": float(rng.random()),
             "released_score": float(rng.random()), "I_no_context": float(rng.normal(20, 3))}
            for w in ("尼玛", "劳资") for k in range(6)]
    scores = pd.DataFrame(rows)
    ratings = scores[["word", "candidate"]].assign(avg_score=rng.integers(1, 6, len(scores)).astype(float))
    return scores, ratings


def test_per_word_rho_equals_scipy_and_pooled_is_kept():
    from scipy.stats import spearmanr

    scores, ratings = _toy_scores()
    by_word = correlations.spearman_by_word(scores, ratings, "toy")
    assert list(by_word.columns) == ["method", "scorer", "context", "word", "rho", "p", "p_permutation", "n"]
    for _, row in by_word.iterrows():
        column = {v[0] + v[1]: k for k, v in correlations.METHOD_COLUMNS.items()}[row["method"] + row["context"]]
        sub = scores.merge(ratings)[lambda d, w=row["word"]: d["word"] == w]
        expected = spearmanr(sub[column], sub["avg_score"])
        assert row["rho"] == pytest.approx(expected.statistic) and row["p"] == pytest.approx(expected.pvalue)
        assert row["n"] == 6 and 0 < row["p_permutation"] <= 1
    pooled = correlations.human_correlations(scores, ratings, "toy")
    assert list(pooled.columns) == ["method", "scorer", "context", "rho", "p", "n"]
    summary = correlations.within_word_correlations(scores, ratings, "toy")
    assert summary["pooled_rho"].tolist() == pytest.approx(pooled["rho"].tolist())
    means = by_word.groupby(["method", "context"], sort=False)["rho"].mean().to_numpy()
    assert summary["mean_within_word_rho"].to_numpy() == pytest.approx(means)
    assert (summary["n"] == 12).all() and (summary["n_words"] == 2).all() and summary["exact"].all()


def test_table8_per_word_rho_of_kneser_ney_self_information():
    """The chapter's per-word values: trigram KN self-information without context on the 25 Table-8 ratings."""
    posts = hd.load_smp2020()
    lm = language_models.train_kn(posts.loc[posts["split"] == "train", "text"].tolist(), order=3)
    ratings = pd.read_csv(paths.project_root() / "data/published/homophones/table8_human_top5.csv")
    scores = ratings[["word", "candidate"]].assign(I_no_context=[lm.self_information(c) for c in ratings["candidate"]])
    by_word = correlations.spearman_by_word(scores, ratings, lm.name).set_index("word")["rho"].round(2)
    assert by_word.to_dict() == {"尼玛": -0.30, "特么": -0.87, "卧槽": -0.63, "劳资": -0.50, "草泥马": 0.32}
    within = correlations.within_word_correlations(scores, ratings, lm.name).iloc[0]
    assert within["mean_within_word_rho"] == pytest.approx(by_word.mean(), abs=0.01)
    assert within["exact"] and within["n_permutations"] == 120 ** 5 and 0.05 < within["p_within_word"] < 0.1


# --------------------------------------------------------------------------- Algorithm 2's two readings


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


def test_warm_started_grid_matches_separate_fits(tmp_path, monkeypatch):
    """The regularisation path (each C starting from the previous fit) reaches the fits made from scratch."""
    from sklearn.linear_model import LogisticRegression

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    rng = np.random.default_rng(1)
    words = {0: "开心快乐好棒", 1: "生气讨厌烦死", 2: "难过伤心哭泣"}
    rows = [{"text": "".join(rng.choice(list(words[k] + "的了是我"), 7)), "label": k} for k in words for _ in range(40)]
    data = pd.DataFrame(rows).sample(frac=1, random_state=1).reset_index(drop=True)
    pipe, selection = em.train_classifier(data[:90], data[90:], c_grid=(8.0, 0.5, 2.0))
    assert selection["C"].tolist() == [0.5, 2.0, 8.0]  # fitted along increasing C
    chosen = pipe.named_steps["clf"]
    x = pipe.named_steps["tfidf"].transform(data["text"])
    scratch = LogisticRegression(C=chosen.C, solver="saga", max_iter=300, random_state=0).fit(
        pipe.named_steps["tfidf"].transform(data[:90]["text"]), data[:90]["label"])
    assert (chosen.predict(x) == scratch.predict(x)).all()
    assert np.abs(chosen.coef_ - scratch.coef_).max() < 0.05 * np.abs(scratch.coef_).max()


def test_pooled_rho_word_jackknife_interval_by_hand():
    """Delete-one-word jackknife of the pooled ρ: each leave-one-word-out ρ from scipy, then
    ρ̂ ± t_{G−1, .975} · √((G − 1)/G · Σ(ρ_(g) − mean)²), cut to [−1, 1]."""
    from scipy.stats import spearmanr
    from scipy.stats import t as student_t

    words = list("uuuvvvwwwxxx")
    s = pd.DataFrame({"word": words, "candidate": list("abcdefghijkl"),
                      "percentile": [1, 2, 3, 9, 8, 7, 4, 6, 5, 10, 12, 11]})
    r = pd.DataFrame({"word": words, "candidate": list("abcdefghijkl"),
                      "avg_score": [1, 3, 2, 5, 4, 6, 2, 2.5, 3, 4, 5, 4.5]})
    row = correlations.within_word_correlations(s, r, "toy").iloc[0]
    full = spearmanr(s["percentile"], r["avg_score"]).statistic
    loo = np.array([spearmanr(s.loc[s["word"] != w, "percentile"], r.loc[r["word"] != w, "avg_score"]).statistic
                    for w in "uvwx"])
    half = student_t.ppf(0.975, 3) * np.sqrt(3 / 4 * ((loo - loo.mean()) ** 2).sum())
    assert row["pooled_rho"] == pytest.approx(full)
    assert row["pooled_jackknife_ci_low"] == pytest.approx(max(full - half, -1.0))
    assert row["pooled_jackknife_ci_high"] == pytest.approx(min(full + half, 1.0))
