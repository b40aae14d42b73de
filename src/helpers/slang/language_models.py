"""Language models for self-information (Qian et al., W-NUT 2025, Eq. 1: I(x) = −log2 P(x)).

Every model is a :class:`Scorer`: ``log2prob(text, context)`` is log2 P(text | context),
``log2probs`` the same for many texts after one context. The ladder of chapter 6:

* :class:`KneserNeyLM`: character n-grams with interpolated Kneser–Ney smoothing, trained
  here (orders 1–6; one count at the highest order gives every lower order, :meth:`KneserNeyLM.lower`).
* :class:`WordUnigramScorer`: word unigram probabilities from a list counted on corpora far
  larger than the Weibo text (:func:`wordfreq_scorer`, :func:`jieba_scorer`); a word missing
  from the list falls back to its dictionary pieces and finally its characters.
* :class:`CharGPTScorer`: a small causal transformer (GPT-2 architecture, character
  vocabulary) trained here by :func:`train_char_gpt`, seeded and cached by its inputs.
* :class:`CausalLMScorer` and :class:`MaskedLMScorer`: any Hugging Face checkpoint.

:func:`perplexity` is the per-character perplexity of a scorer on held-out text, the
yardstick that says which model of the ladder is the better language model;
:func:`helpers.slang.ladder.ladder_scores` trains each rung of the ladder and scores the homophone
candidates under it (cached per rung); :func:`helpers.slang.ladder.word_list_coverage` counts how
the word lists found them.
"""

from __future__ import annotations

import functools
import math
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..core import cache


class Scorer:
    """Log2-probability of a text, optionally after a left context (one interface for all LMs)."""

    name = "scorer"
    parameters: int | None = None  # trainable parameters, where the model has them

    def log2prob(self, text: str, context: str = "") -> float:  # pragma: no cover - interface
        raise NotImplementedError

    def log2probs(self, texts: Sequence[str], context: str = "") -> list[float]:
        """log2 P(text | context) of each text (a model may batch them)."""
        return [self.log2prob(t, context) for t in texts]

    def self_information(self, text: str, context: str = "") -> float:
        """I(x) = −log2 P(x | context) (paper Eq. 1)."""
        return -self.log2prob(text, context)


def perplexity(scorer: Scorer, texts: Sequence[str]) -> float:
    """Per-character perplexity 2^(−Σ log2 P(text) / Σ characters) of ``texts``, each scored
    on its own from the start (no context, no end symbol). Per character, so that models
    with different vocabularies (characters, words, sub-word tokens) share one scale: a
    uniform model over V characters has perplexity V.

    Parameters
    ----------
    scorer : Scorer
        Language model giving log2 P(text).
    texts : sequence of str
        The held-out texts (:func:`heldout_texts`).

    Returns
    -------
    float
        PP = 2^(−Σ_t log2 P(t) / Σ_t |t|), |t| the number of characters of text t.

    References
    ----------
    Jurafsky, D. & Martin, J. H. Speech and Language Processing, 3rd ed. draft, ch. 3 (N-gram
    language models: perplexity as the inverse probability normalised by length).

    Examples
    --------
    >>> class Uniform(Scorer):
    ...     def log2prob(self, text, context=""):
    ...         return -len(text) * math.log2(50)
    >>> round(perplexity(Uniform(), ["abc", "de"]), 6)
    50.0
    """
    texts = list(texts)
    chars = sum(len(t) for t in texts)
    if not chars:
        raise ValueError("perplexity needs at least one character of text")
    chunks = [texts[k : k + 64] for k in range(0, len(texts), 64)]
    bits = -sum(sum(scorer.log2probs(c)) for c in tqdm(chunks, desc=f"perplexity {scorer.name}", leave=False))
    return float(2 ** (bits / chars))


def heldout_texts(posts: Iterable[str], n: int = 300, max_chars: int = 60) -> list[str]:
    """The held-out text every model is measured on: the first ``n`` posts, each cut to
    ``max_chars`` characters (so a transformer's context window holds each whole)."""
    return [p[:max_chars] for p in list(posts)[:n] if p.strip()]


def self_information_table(
    cands_by_word: Mapping[str, Sequence[str]], scorer: Scorer, contexts: Mapping[str, Sequence[str]] | None = None
) -> pd.DataFrame:
    """I(x) of every candidate: without context, and with context when ``contexts`` gives,
    per slang word, posts containing it (I = mean over posts of −log2 P(candidate | the
    post's text left of the slang)).

    Parameters
    ----------
    cands_by_word : mapping of str to sequence of str
        Each slang word's candidates.
    scorer : Scorer
        Language model giving log2 P(text | context).
    contexts : mapping of str to sequence of str, optional
        Posts per slang word; a post not containing the word is skipped.

    Returns
    -------
    pandas.DataFrame
        ``word, candidate, scorer, I_no_context`` (and ``I_context, n_contexts``):
        I(x) = −log2 P(x) and I_context(x) = (1/m) Σ_j −log2 P(x | left_j) over the m posts' texts
        left of the slang word.

    References
    ----------
    Qian et al. (2025). Automatically Generating Chinese Homophone Words to Probe Machine
    Translation Estimation Systems. W-NUT, §4.1, Eq. 1.
    Shannon, C. E. (1948). A mathematical theory of communication. Bell System Technical
    Journal 27, 379–423 and 623–656.
    """
    rows = []
    for word, cands in cands_by_word.items():
        posts = list((contexts or {}).get(word, []))
        lefts = [p[: p.index(word)] for p in posts if word in p]
        cands = list(cands)
        alone = scorer.log2probs(cands)
        after = np.array([scorer.log2probs(cands, left) for left in tqdm(lefts, desc=f"scoring {word}", leave=False)])
        for k, cand in enumerate(cands):
            row = {"word": word, "candidate": cand, "scorer": scorer.name, "I_no_context": -alone[k]}
            if lefts:
                row["I_context"] = float(np.mean(-after[:, k]))
                row["n_contexts"] = len(lefts)
            rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- Kneser–Ney


class KneserNeyLM(Scorer):
    """Character n-gram language model with interpolated Kneser–Ney smoothing (Chen & Goodman 1999).

    Highest order: P(w|h) = max(c(hw) − d, 0)/c(h) + d·N1+(h•)/c(h) · P(w|h'); lower orders
    use continuation counts N1+(•h'w); the unigram level interpolates with the uniform
    distribution over the vocabulary (characters seen in training, ``</s>`` and ``<unk>``),
    so every character has a probability and P(•|h) sums to 1. Sentences start with
    ``order − 1`` ``<s>`` symbols.

    The n-grams are counted with numpy and kept in one dict per level, keyed by the symbol
    codes packed into one integer (:meth:`key`): ``counts[k][key(gram)]``,
    ``context_types[k][key(h)]``, ``context_total[k][key(h)]``.
    """

    BOS, EOS, UNK = "<s>", "</s>", "<unk>"

    def __init__(self, order: int = 3, discount: float = 0.75):
        if order < 1:
            raise ValueError("order must be >= 1")
        self.order, self.d = order, discount
        self.name = f"char-{order}gram-KN"

    def fit(self, texts: Iterable[str]) -> "KneserNeyLM":
        """Count every n-gram window of the padded sentences (``order − 1`` ``<s>``, the
        characters, ``</s>``) at the highest order; :meth:`_levels` derives the rest."""
        texts = list(texts)
        chars = sorted(set("".join(texts)))
        symbols = chars + [self.EOS, self.UNK, self.BOS]
        grams = _windows(texts, chars, self.order, eos=len(chars), bos=len(chars) + 2)
        unique, counts = _group_rows(grams, len(symbols))
        return self._levels(unique, counts, symbols)

    def _levels(self, grams: np.ndarray, counts: np.ndarray, symbols: Sequence[str]) -> "KneserNeyLM":
        """Every level's counts from the distinct highest-order n-grams (rows of symbol codes
        into ``symbols``, which ends with ``</s>``, ``<unk>``, ``<s>``) and their raw counts.

        Lower levels hold continuation counts: a k-gram's count is the number of distinct
        (k+1)-grams it ends. ``context_types[k][h]`` is the number of distinct k-grams after
        the history h; ``context_total[k][h]`` their summed counts (raw at the top level; at a
        lower level the number of distinct (k+1)-grams with h in the middle)."""
        n = self.order
        self.symbols, self.grams, self.gram_counts = list(symbols), grams, counts
        self.vocab = self.symbols[:-1]  # the characters, </s>, <unk>: every outcome a level predicts
        self.code = {symbol: i for i, symbol in enumerate(self.symbols)}
        base = len(self.symbols)

        def keyed(rows: np.ndarray, values: np.ndarray) -> dict:
            return dict(zip(_packed(rows, base), values.tolist()))

        distinct = [None] * (n + 1)
        distinct[n] = grams
        self.counts = [{} for _ in range(n + 1)]
        self.counts[n] = keyed(grams, counts)
        for k in range(n - 1, 0, -1):
            distinct[k], continuation = _group_rows(distinct[k + 1][:, 1:], base)
            self.counts[k] = keyed(distinct[k], continuation)
        self.context_types = [{}] + [keyed(*_group_rows(distinct[k][:, :-1], base)) for k in range(1, n + 1)]
        self.context_total = [{}] + [keyed(*_group_rows(distinct[k + 1][:, 1:-1], base)) for k in range(1, n)]
        self.context_total.append(keyed(*_group_rows(grams[:, :-1], base, weights=counts)))
        return self

    def key(self, symbols: Sequence[str]) -> int:
        """The dict key of an n-gram or a history (a sequence of symbols): its codes in base
        ``len(self.symbols)``, the first the most significant; a symbol never seen is ``<unk>``."""
        out = 0
        for code in self._codes(symbols):
            out = out * len(self.symbols) + code
        return out

    def __getstate__(self) -> dict:
        """Pickled (the cache) as the highest-order counts alone; the levels are derived on loading."""
        return {
            "order": self.order,
            "d": self.d,
            "name": self.name,
            "symbols": self.symbols,
            "grams": self.grams,
            "gram_counts": self.gram_counts,
        }

    def __setstate__(self, state: dict) -> None:
        self.order, self.d, self.name = state["order"], state["d"], state["name"]
        self._levels(state["grams"], state["gram_counts"], state["symbols"])

    def lower(self, order: int) -> "KneserNeyLM":
        """The model of a lower ``order`` on the same texts, without counting them again: the
        raw (order)-gram counts are the raw (order+1)-gram counts summed over their first
        symbol (with ``order`` − 1 ``<s>`` of padding instead of ``order``, every window is
        the same but one ``<s>`` shorter)."""
        if not 1 <= order <= self.order:
            raise ValueError(f"order must be 1-{self.order}")
        cut = self.order - order
        grams, counts = _group_rows(self.grams[:, cut:], len(self.symbols), weights=self.gram_counts)
        return KneserNeyLM(order, self.d)._levels(grams, counts, self.symbols)

    def _prob(self, w: int, history: Sequence[int]) -> float:
        """P(w | history) in symbol codes; ``history`` ends with the last ``order − 1`` codes.
        A symbol never seen has the code of ``<unk>`` (:meth:`_codes`), which is counted at no
        level, so it gets the back-off probability of an unseen character."""
        base, d = len(self.symbols), self.d
        p, h, scale = 1.0 / len(self.vocab), 0, 1
        for k in range(1, self.order + 1):
            if k > 1:  # the history grows by one older symbol: its most significant digit
                h += history[len(history) - (k - 1)] * scale
                scale *= base
            total = self.context_total[k].get(h, 0)
            if total == 0:
                continue  # unseen history: keep the lower-order estimate
            c = self.counts[k].get(h * base + w, 0)
            p = max(c - d, 0) / total + d * self.context_types[k][h] / total * p
        return p

    def _codes(self, symbols: Iterable[str]) -> list[int]:
        unk = self.code[self.UNK]
        return [self.code.get(symbol, unk) for symbol in symbols]

    def prob(self, w: str, context: Sequence[str] = ()) -> float:
        """P(w | the last order − 1 symbols of ``context``), ``<s>``-padded."""
        return self._prob(self._codes([w])[0], self._codes([self.BOS] * (self.order - 1) + list(context)))

    def log2prob(self, text: str, context: str = "") -> float:
        """log2 P(text | context) as a character sequence following ``context`` (no end symbol)."""
        seq = self._codes([self.BOS] * (self.order - 1) + list(context))
        total = 0.0
        for w in self._codes(text):
            total += math.log2(self._prob(w, seq))
            seq.append(w)
        return total


def _windows(texts: Sequence[str], chars: Sequence[str], n: int, eos: int, bos: int) -> np.ndarray:
    """Every window of ``n`` symbols in the padded sentences ``<s>``×(n−1), the text's
    characters, ``</s>``: one row of symbol codes per window (a character's code is its
    place in the sorted ``chars``), ``len(text) + 1`` rows per text, none across two texts."""
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    points = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    codes = np.searchsorted(np.array([ord(c) for c in chars], dtype=np.uint32), points).astype(np.int32)
    sentence = lengths + n  # n − 1 <s>, the characters, </s>
    start = np.cumsum(sentence) - sentence
    stream = np.full(int(sentence.sum()), bos, dtype=np.int32)
    stream[np.arange(len(codes)) + np.repeat(start + n - 1 - (np.cumsum(lengths) - lengths), lengths)] = codes
    stream[start + n - 1 + lengths] = eos
    windows = lengths + 1
    first = np.arange(int(windows.sum())) + np.repeat(start - (np.cumsum(windows) - windows), windows)
    return np.stack([stream[first + j] for j in range(n)], axis=1)


def _int64_keys(rows: np.ndarray, base: int) -> np.ndarray | None:
    """Each row of symbol codes (below ``base``) as one int64 in base ``base``, the first code
    the most significant; None where base^k could overflow int64."""
    k = rows.shape[1]
    if base**k >= 2**63:
        return None
    return rows.astype(np.int64) @ (np.int64(base) ** np.arange(k - 1, -1, -1, dtype=np.int64))


def _packed(rows: np.ndarray, base: int) -> list[int]:
    """The rows as :func:`_int64_keys`, in Python integers beyond int64."""
    keys = _int64_keys(rows, base)
    if keys is not None:
        return keys.tolist()
    out = np.zeros(len(rows), dtype=object)
    for j in range(rows.shape[1]):
        out = out * base + rows[:, j].astype(object)
    return out.tolist()


def _group_rows(rows: np.ndarray, base: int, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``rows`` (codes below ``base``), in lexicographic order, and for
    each how many rows it stands for, or the sum of their ``weights``."""
    if not len(rows):
        return rows, np.zeros(0, dtype=np.int64)
    if rows.shape[1] == 0:
        return rows[:1], np.array([len(rows) if weights is None else int(np.sum(weights))])
    keys = _int64_keys(rows, base)  # one packed key sorts ~5x faster than lexsort on k columns
    order = np.argsort(keys, kind="stable") if keys is not None else np.lexsort(rows.T[::-1])
    ordered = rows[order]
    first = np.flatnonzero(np.r_[True, (ordered[1:] != ordered[:-1]).any(axis=1)])
    if weights is None:
        return ordered[first], np.diff(np.r_[first, len(ordered)])
    return ordered[first], np.add.reduceat(np.asarray(weights)[order], first)


KN_VERSION = 2  # bump when the n-gram counting or smoothing changes


def train_kn(texts: Sequence[str], order: int = 3, discount: float = 0.75, use_cache: bool = True) -> KneserNeyLM:
    """Train (or load from the cache) a :class:`KneserNeyLM`; the key is the texts and settings."""
    texts = list(texts)
    return cache.cached(
        "kn-lm",
        KN_VERSION,
        [texts, order, discount],
        lambda: KneserNeyLM(order, discount).fit(texts),
        use_cache=use_cache,
        describe=f"{len(texts)} texts, order {order}",
    )


# --------------------------------------------------------------------------- word unigrams


class WordUnigramScorer(Scorer):
    """Word unigram self-information from a frequency list: P(text) = Π P(token), the
    context ignored (a unigram model has none, so I with context equals I without).

    Tokens: the whole text when the list has it; otherwise the pieces of jieba's
    dictionary-only segmentation (HMM off), each a listed word or, failing that, its
    characters; a character the list lacks gets half the smallest listed probability.
    Frequencies are normalised to sum to 1 over the list. :meth:`coverage` says, text by
    text, which of these happened.

    Examples
    --------
    >>> lm = WordUnigramScorer({"你妈": 2, "你": 4, "妈": 2}, name="toy")
    >>> lm.log2prob("你妈"), lm.log2prob("妈你")  # a listed word, then two characters
    (-2.0, -3.0)
    """

    def __init__(self, frequencies: Mapping[str, float], name: str = "word-unigram", source: str = ""):
        total = float(sum(frequencies.values()))
        if total <= 0:
            raise ValueError("the frequency list is empty")
        self.p = {w: f / total for w, f in frequencies.items() if f > 0}
        self.floor = min(self.p.values()) / 2
        self.name, self.source = name, source

    def tokens(self, text: str) -> list[tuple[str, str]]:
        """``(token, how)`` pairs: how ∈ word (the whole text), piece (a listed word of two or more
        characters inside it), character (a listed character), unknown (not listed)."""
        if text in self.p:
            return [(text, "word")]
        out = []
        for piece in _segment(text) if len(text) > 1 else [text]:
            if piece in self.p:
                out.append((piece, "piece" if len(piece) > 1 else "character"))
            else:
                out += [(c, "character" if c in self.p else "unknown") for c in piece]
        return out

    def log2prob(self, text: str, context: str = "") -> float:
        return float(sum(math.log2(self.p.get(t, self.floor)) for t, _ in self.tokens(text)))

    def coverage(self, texts: Sequence[str]) -> pd.DataFrame:
        """Per text: ``text, found`` (word / pieces / characters) and ``unknown_characters``
        (characters the list lacks, scored with the floor)."""
        rows = []
        for text in texts:
            kinds = [how for _, how in self.tokens(text)]
            found = "word" if kinds == ["word"] else "pieces" if "piece" in kinds else "characters"
            rows.append({"text": text, "found": found, "unknown_characters": kinds.count("unknown")})
        return pd.DataFrame(rows, columns=["text", "found", "unknown_characters"])


@functools.lru_cache(maxsize=1)
def _tokenizer():
    import jieba

    jieba.setLogLevel(60)
    return jieba


def _segment(text: str) -> list[str]:
    return [t for t in _tokenizer().cut(text, HMM=False) if t.strip()]


#: Where each word list comes from and under what terms (for the chapter's provenance).
WORD_LISTS = {
    "wordfreq": "wordfreq {version}, Chinese 'large' list: word frequencies combined from Wikipedia, OPUS "
    "OpenSubtitles 2018 and SUBTLEX-CH subtitles, NewsCrawl 2014 and GlobalVoices news, Google Books "
    "Ngrams 2012, OSCAR web text, Twitter and jieba's own word list (the data frozen in 2021; code Apache-2.0, "
    "data CC BY-SA 4.0, Google Books Ngrams and SUBTLEX under their own free-use terms)",
    "jieba": "jieba {version}'s dictionary dict.txt (about 350 000 words with counts; the jieba package is MIT "
    "licensed; the corpus the counts come from is not documented, wordfreq calls its provenance unknown)",
}


def wordfreq_scorer(wordlist: str = "large") -> WordUnigramScorer:
    """Word unigram model from ``wordfreq``'s Chinese list (see :data:`WORD_LISTS`)."""
    from importlib.metadata import version

    import wordfreq

    return WordUnigramScorer(
        wordfreq.get_frequency_dict("zh", wordlist=wordlist),
        name="wordfreq-unigram",
        source=WORD_LISTS["wordfreq"].format(version=version("wordfreq")),
    )


def jieba_frequencies() -> dict[str, int]:
    """jieba's dictionary as ``word -> count`` (the file shipped inside the package)."""
    import jieba

    counts = {}
    with open(Path(jieba.__file__).parent / "dict.txt", encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) >= 2:
                counts[parts[0]] = counts.get(parts[0], 0) + int(parts[1])
    return counts


def jieba_scorer() -> WordUnigramScorer:
    """Word unigram model from jieba's dictionary (see :data:`WORD_LISTS`)."""
    from importlib.metadata import version

    return WordUnigramScorer(
        jieba_frequencies(), name="jieba-unigram", source=WORD_LISTS["jieba"].format(version=version("jieba"))
    )


# --------------------------------------------------------------------------- small transformers

#: GPT-2 shapes of the transformer rungs (names by their approximate parameter count with
#: the chapter's vocabulary of about 3 800 characters; the tied embedding dominates the small ones).
GPT_SIZES = {
    "gpt-0.1M": {"n_embd": 24, "n_layer": 2, "n_head": 2},
    "gpt-0.3M": {"n_embd": 64, "n_layer": 2, "n_head": 2},
    "gpt-1M": {"n_embd": 128, "n_layer": 4, "n_head": 4},
    "gpt-5M": {"n_embd": 256, "n_layer": 6, "n_head": 4},
}
GPT_VERSION = 1  # bump when the vocabulary, the batching or the optimiser changes
PAD, BOS_TOKEN, UNK_TOKEN = "<pad>", "<bos>", "<unk>"


def char_vocabulary(texts: Iterable[str], min_count: int = 5) -> list[str]:
    """``<pad>, <bos>, <unk>`` and every character seen at least ``min_count`` times, most frequent first."""
    counts = Counter()
    for t in texts:
        counts.update(t)
    return [PAD, BOS_TOKEN, UNK_TOKEN] + [c for c, n in counts.most_common() if n >= min_count]


class CharGPTScorer(Scorer):
    """A causal transformer over characters: log2 P(text | context) = Σ log2 P(c_i | <bos>,
    context, c_<i), with the context cut from the left to fit the window; a character
    outside the vocabulary is scored as ``<unk>``."""

    def __init__(self, model, vocab: Sequence[str], name: str = "char-gpt"):
        self.model = model.eval()
        self.vocab = list(vocab)
        self.index = {c: i for i, c in enumerate(self.vocab)}
        self.window = model.config.n_positions
        self.parameters = int(sum(p.numel() for p in model.parameters()))
        self.name = name

    def encode(self, text: str) -> list[int]:
        unk = self.index[UNK_TOKEN]
        return [self.index.get(c, unk) for c in text]

    def log2probs(self, texts: Sequence[str], context: str = "") -> list[float]:
        import torch

        targets = [self.encode(t) for t in texts]
        longest = max((len(t) for t in targets), default=0)
        if longest >= self.window:
            raise ValueError(f"a text of {longest} characters does not fit the window of {self.window}")
        ctx = self.encode(context)[-(self.window - 1 - longest) :] if context else []
        prefix = [self.index[BOS_TOKEN]] + ctx
        rows = [prefix + t for t in targets]
        width = max(len(r) for r in rows)
        ids = torch.tensor([r + [0] * (width - len(r)) for r in rows])
        mask = torch.tensor([[1] * len(r) + [0] * (width - len(r)) for r in rows])
        # the output layer and its softmax only where a target character is predicted: over a
        # vocabulary of thousands of characters they were 2/3 of the time, spent mostly on the
        # context's positions (measured on chapter 6's candidates)
        row = torch.tensor([b for b, t in enumerate(targets) for _ in t], dtype=torch.long)
        position = torch.tensor([len(prefix) - 1 + i for t in targets for i in range(len(t))], dtype=torch.long)
        with torch.no_grad(), one_thread():
            hidden = self.model.transformer(input_ids=ids, attention_mask=mask).last_hidden_state
            logp = torch.log_softmax(self.model.lm_head(hidden[row, position]).float(), dim=-1)
        picked = logp[torch.arange(len(row)), torch.tensor([c for t in targets for c in t], dtype=torch.long)]
        return [float(piece.sum()) / math.log(2) for piece in torch.split(picked, [len(t) for t in targets])]

    def log2prob(self, text: str, context: str = "") -> float:
        return self.log2probs([text], context)[0]


def _gpt_model(vocab_size: int, shape: Mapping[str, int], window: int, seed: int):
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(seed)
    config = GPT2Config(
        vocab_size=vocab_size,
        n_positions=window,
        bos_token_id=1,
        eos_token_id=1,
        pad_token_id=0,
        resid_pdrop=0.0,
        embd_pdrop=0.0,
        attn_pdrop=0.0,
        **shape,
    )
    return GPT2LMHeadModel(config)


def _fit_gpt(
    texts: Sequence[str],
    shape: Mapping[str, int],
    steps: int,
    batch_size: int,
    window: int,
    lr: float,
    seed: int,
    min_count: int,
) -> dict:
    """Train one transformer: the posts joined by ``<bos>`` into one stream, random windows
    of ``window`` characters (seeded), next-character cross-entropy, AdamW with a linear
    warm-up over the first tenth of the steps and a linear decay to zero."""
    with one_thread():
        return _train_loop(texts, shape, steps, batch_size, window, lr, seed, min_count)


class one_thread:
    """Run torch on one thread inside the block: on two cores shared with other work, one
    thread trains a small model about three times faster than two that compete (measured)."""

    def __enter__(self):
        import torch

        self.before = torch.get_num_threads()
        torch.set_num_threads(1)

    def __exit__(self, *exc):
        import torch

        torch.set_num_threads(self.before)


def _train_loop(texts, shape, steps, batch_size, window, lr, seed, min_count) -> dict:
    import torch

    vocab = char_vocabulary(texts, min_count)
    index = {c: i for i, c in enumerate(vocab)}
    stream = []
    for t in texts:
        stream.append(1)
        stream += [index.get(c, 2) for c in t]
    stream = torch.tensor(stream)
    model = _gpt_model(len(vocab), shape, window, seed)
    model.train()
    generator = torch.Generator().manual_seed(seed)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    warm = max(1, steps // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / max(1, steps - warm)))
    )
    started, losses = time.perf_counter(), []
    for _ in tqdm(range(steps), desc=f"training a {shape['n_embd']}x{shape['n_layer']} transformer", leave=False):
        starts = torch.randint(0, len(stream) - window - 1, (batch_size,), generator=generator)
        batch = torch.stack([stream[s : s + window] for s in starts.tolist()])
        loss = model(input_ids=batch, labels=batch).loss
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        schedule.step()
        losses.append(loss.item())
    seconds = time.perf_counter() - started
    return {
        "state": {k: v.clone() for k, v in model.state_dict().items()},
        "vocab": vocab,
        "shape": dict(shape),
        "window": window,
        "seconds": seconds,
        "characters_seen": steps * batch_size * window,
        "final_loss": float(np.mean(losses[-10:])) if losses else float("nan"),
    }


def train_char_gpt(
    texts: Sequence[str],
    shape: str | Mapping[str, int] = "gpt-0.3M",
    steps: int = 60,
    batch_size: int = 16,
    window: int = 64,
    lr: float = 3e-3,
    seed: int = 0,
    min_count: int = 5,
    use_cache: bool = True,
) -> CharGPTScorer:
    """Train (or load from the cache) a character GPT-2 on ``texts``: the cache key is the
    texts, the shape (a name of :data:`GPT_SIZES` or ``n_embd, n_layer, n_head``), the
    steps, batch, window, learning rate, seed and vocabulary threshold, and the torch and
    transformers versions. The scorer's ``training`` holds the seconds the training took
    (when it ran, not when it was loaded) and the characters it saw."""
    import torch
    import transformers

    name = shape if isinstance(shape, str) else None
    dims = dict(GPT_SIZES[shape]) if isinstance(shape, str) else dict(shape)
    texts = list(texts)
    inputs = [texts, dims, steps, batch_size, window, lr, seed, min_count, torch.__version__, transformers.__version__]
    stored = cache.cached(
        "char-gpt",
        GPT_VERSION,
        inputs,
        lambda: _fit_gpt(texts, dims, steps, batch_size, window, lr, seed, min_count),
        fmt="torch",
        use_cache=use_cache,
        describe=f"{len(texts)} texts, {dims}, {steps} steps x {batch_size} x {window}",
    )
    model = _gpt_model(len(stored["vocab"]), stored["shape"], stored["window"], seed)
    model.load_state_dict(stored["state"])
    scorer = CharGPTScorer(model, stored["vocab"], name=name or f"char-gpt-{dims['n_embd']}x{dims['n_layer']}")
    scorer.training = {k: stored[k] for k in ("seconds", "characters_seen", "final_loss")}
    return scorer


# --------------------------------------------------------------------------- Hugging Face checkpoints


class CausalLMScorer(Scorer):
    """Any Hugging Face causal LM: log2 P(text | context) = Σ log2 P(token | previous tokens).

    The text's tokens are scored after the context's tokens (and the tokenizer's BOS token
    when it has one; otherwise the text's first token is conditioned on the context only,
    and with no context it is skipped and counted as certain). A GPU user passes e.g.
    ``CausalLMScorer("Qwen/Qwen1.5-7B", device="cuda")`` with the weights available locally.
    """

    def __init__(self, model_name_or_path, device: str = "cpu"):
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.tokenizer = AutoTokenizer.from_pretrained(model_name_or_path)
        self.model = AutoModelForCausalLM.from_pretrained(model_name_or_path).to(device).eval()
        self.device = device
        self.parameters = int(sum(p.numel() for p in self.model.parameters()))
        self.name = f"causal:{Path(str(model_name_or_path)).name}"

    def _ids(self, text: str) -> list[int]:
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def log2prob(self, text: str, context: str = "") -> float:
        import torch

        prefix = ([self.tokenizer.bos_token_id] if self.tokenizer.bos_token_id is not None else []) + (
            self._ids(context) if context else []
        )
        target = self._ids(text)
        ids = prefix + target
        with torch.no_grad():
            logits = self.model(torch.tensor([ids], device=self.device)).logits[0]
        logp = torch.log_softmax(logits.float(), dim=-1)
        total = 0.0
        for k in range(len(prefix), len(ids)):
            if k == 0:
                continue  # nothing to condition on
            total += float(logp[k - 1, ids[k]]) / math.log(2)
        return total


class MaskedLMScorer(Scorer):
    """Any Hugging Face masked LM: pseudo-log-likelihood (Salazar et al. 2020), masking each
    token of the text in turn with the context (and the rest of the text) visible.
    ``MaskedLMScorer("hfl/chinese-roberta-wwm-ext-large")`` is the paper's Chinese RoBERTa.
    Its :func:`perplexity` is a pseudo-perplexity, not comparable with a causal model's."""

    def __init__(self, model_name_or_path, device: str = "cpu"):
        from transformers import AutoModelForMaskedLM, AutoTokenizer

        self.tokenizer = AutoTokenizer.from_pretrained(model_name_or_path)
        self.model = AutoModelForMaskedLM.from_pretrained(model_name_or_path).to(device).eval()
        self.device = device
        self.parameters = int(sum(p.numel() for p in self.model.parameters()))
        self.name = f"masked:{Path(str(model_name_or_path)).name}"

    def log2prob(self, text: str, context: str = "") -> float:
        import torch

        tok = self.tokenizer
        ctx = tok(context, add_special_tokens=False)["input_ids"] if context else []
        target = tok(text, add_special_tokens=False)["input_ids"]
        ids = [tok.cls_token_id] + ctx + target + [tok.sep_token_id]
        start = 1 + len(ctx)
        batch = torch.tensor([ids] * len(target), device=self.device)
        for k in range(len(target)):
            batch[k, start + k] = tok.mask_token_id
        with torch.no_grad():
            logits = self.model(batch).logits
        logp = torch.log_softmax(logits.float(), dim=-1)
        return float(sum(logp[k, start + k, target[k]] for k in range(len(target)))) / math.log(2)
