"""Reference-free sentence-level QE models trained on the HADQAET split (Qian et al. 2024).

Two families, both predicting the z-scored human score from (source, MT):

* :class:`FeatureQE`: a classical baseline, character n-gram TF-IDF of the source, word
  n-gram TF-IDF of the MT and hand-made features (lengths and their ratio, punctuation,
  emoji and bracketed emoticons, share of untranslated CJK characters in the MT, digits),
  with a ridge regression whose penalty is chosen on dev.
* :class:`TransformerQE`: MonoTransQuest-style, an encoder reading "source [SEP] MT" with
  a regression head on the mean-pooled output, fine-tuned with MSE and AdamW. The default
  encoder is the packaged all-MiniLM-L6-v2 whose English vocabulary lacks most Chinese
  characters, so the most frequent Chinese characters of the training sources are added
  as new tokens (their embeddings learned in fine-tuning); any Hugging Face checkpoint
  (e.g. XLM-R on a GPU) can be given instead. Weights are cached by data and settings.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.stats import pearsonr, spearmanr
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import Ridge
from sklearn.preprocessing import StandardScaler
from tqdm import tqdm

from ..core import cache, encoder

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
        rows.append([
            len(s), len(words), len(words) / max(len(s), 1),
            sum(c in "!！?？" for c in s), sum(c in "!?" for c in m),
            len(_EMOJI.findall(s)), len(_EMOJI.findall(m)),
            len(_CJK.findall(m)) / max(len(m), 1),
            sum(c.isdigit() for c in s) - sum(c.isdigit() for c in m),
        ])
    return np.asarray(rows, dtype=float)


class FeatureQE:
    """TF-IDF + hand-made features + ridge; ``fit`` chooses the ridge penalty on dev."""

    name = "features+ridge"

    def __init__(self, alphas=(1.0, 3.0, 10.0, 30.0)):
        self.alphas = tuple(alphas)

    def _matrix(self, source, mt, fit=False):
        if fit:
            self.src_vec = TfidfVectorizer(analyzer="char", ngram_range=(1, 2), min_df=2, max_features=50_000,
                                           sublinear_tf=True).fit(source)
            self.mt_vec = TfidfVectorizer(analyzer="word", ngram_range=(1, 2), min_df=2, max_features=50_000,
                                          sublinear_tf=True, lowercase=True).fit(mt)
            self.scaler = StandardScaler().fit(handmade_features(source, mt))
        return sparse.hstack([self.src_vec.transform(source), self.mt_vec.transform(mt),
                              sparse.csr_matrix(self.scaler.transform(handmade_features(source, mt)))]).tocsr()

    def fit(self, train: pd.DataFrame, dev: pd.DataFrame) -> "FeatureQE":
        x = self._matrix(train["source"], train["mt"], fit=True)
        xd = self._matrix(dev["source"], dev["mt"])
        self.selection = []
        best = None
        for a in self.alphas:
            model = Ridge(alpha=a).fit(x, train["score"])
            rho = spearmanr(dev["score"], model.predict(xd)).statistic
            self.selection.append({"alpha": a, "dev_spearman": rho})
            if best is None or rho > best[0]:
                best = (rho, model)
        self.model = best[1]
        return self

    def predict(self, frame: pd.DataFrame) -> np.ndarray:
        return self.model.predict(self._matrix(frame["source"], frame["mt"]))


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
        enc = self.tokenizer(list(frame["source"]), list(frame["mt"]), padding=True, truncation=True,
                             max_length=self.cfg.max_length, return_tensors="pt")
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
            lengths = [len(x) for x in self.tokenizer(list(train["source"]), list(train["mt"]), truncation=True,
                                                      max_length=self.cfg.max_length)["input_ids"]]
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

        inputs = [cache.file_identity(encoder.model_path_or_default(self.cfg.model_path)),
                  {k: v for k, v in self.cfg.__dict__.items() if k != "device"}, train[["source", "mt", "score"]]]
        self.net.load_state_dict(cache.cached("qe-transformer", TRAINING_VERSION, inputs, train_weights, fmt="torch",
                                              describe=f"{len(train)} pairs, {self.cfg.epochs} epoch(s)"))
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


def correlations(human, predicted) -> dict[str, float]:
    """Spearman ρ and Pearson r (with p-values) of predictions against human scores."""
    s, p = spearmanr(human, predicted), pearsonr(human, predicted)
    return {"spearman": float(s.statistic), "spearman_p": float(s.pvalue), "pearson": float(p.statistic),
            "pearson_p": float(p.pvalue), "n": len(human)}


def evaluate_models(models: dict, frames: dict) -> pd.DataFrame:
    """``model, evaluated_on, spearman, spearman_p, pearson, pearson_p, n`` for every model on
    every evaluation frame (``{label: frame with source, mt, score}``)."""
    rows = []
    for name, model in models.items():
        for label, frame in frames.items():
            rows.append({"model": name, "evaluated_on": label, **correlations(frame["score"], model.predict(frame))})
    return pd.DataFrame(rows)
