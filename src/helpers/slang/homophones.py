"""Chinese homophone generation by self-information (Qian et al., W-NUT 2025).

* Candidates (Algorithm 1): Latinize a slang word with ``pypinyin`` (every reading of a
  polyphonic character), de-Latinize each syllable to every character with that reading
  (pypinyin's character dictionary), keep characters more frequent than a threshold in a
  character-frequency dictionary D built from the SMP2020-EWECT Weibo corpus, concatenate.
* Percentile baseline (Algorithm 2, Hiruncharoenvate et al. 2015): F_h = Σ D(c) over the
  candidate's characters, sort ascending, percentile = rank / n × 100.
* Self-information (Eq. 1): I(x) = −log2 P(x) under a language model; scorers share one
  interface (:class:`Scorer`): a character n-gram model with interpolated Kneser–Ney
  smoothing trained here (:class:`KneserNeyLM`), or any Hugging Face causal LM (sum of
  token log-probabilities) or masked LM (pseudo-log-likelihood).
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..core import cache, paths
from ..core.errors import InputError

HOMO_REPO = "shenbinqian/homo_gen"
#: The five slang words of the paper's Table 1 and the names of the released candidate lists.
SLANG = {"尼玛": "nima", "特么": "tama", "卧槽": "wocao", "草泥马": "caonima", "劳资": "laozi"}
#: How netizens say them: the roots of Algorithm 1 (the released lists' names). pypinyin reads
#: 特么 as "te me", its dictionary pronunciation, not the slang's "ta ma".
SLANG_ROOTS = {"尼玛": ("ni", "ma"), "特么": ("ta", "ma"), "卧槽": ("wo", "cao"), "草泥马": ("cao", "ni", "ma"),
               "劳资": ("lao", "zi")}
SPLITS = ("train", "dev", "test")


# --------------------------------------------------------------------------- data


def load_smp2020(splits: Sequence[str] = SPLITS, root: str | os.PathLike | None = None) -> pd.DataFrame:
    """SMP2020-EWECT posts as released with homo_gen: ``split, label (0–5), text``.

    Raises :class:`InputError` naming the file, line and value for a label outside 0–5 or an empty text.
    """
    frames = []
    for split in splits:
        path = Path(root) / "SMP2020" / f"{split}.tsv" if root else paths.released_file(HOMO_REPO, f"SMP2020/{split}.tsv")
        df = pd.read_csv(path, sep="\t", quoting=3, dtype=str, keep_default_na=False)
        if list(df.columns[:2]) != ["label", "text_a"]:
            raise InputError("expected the columns label, text_a", file=path, row=1, value=list(df.columns))
        bad = df.index[~df["label"].isin([str(k) for k in range(6)])]
        if len(bad):
            raise InputError("labels are 0-5", file=path, row=int(bad[0]) + 2, column="label",
                             value=df.loc[bad[0], "label"])
        empty = df.index[df["text_a"].str.strip() == ""]
        if len(empty):
            raise InputError("empty text", file=path, row=int(empty[0]) + 2, column="text_a", value="")
        frames.append(pd.DataFrame({"split": split, "label": df["label"].astype(int), "text": df["text_a"]}))
    return pd.concat(frames, ignore_index=True)


def char_frequencies(texts: Iterable[str]) -> dict[str, int]:
    """Character counts of a corpus (the dictionary D of Algorithm 1)."""
    counts = Counter()
    for t in texts:
        counts.update(t)
    return dict(counts.most_common())


def released_reading_frequencies(root: str | os.PathLike | None = None) -> dict[str, int]:
    """D exactly as the released ``weibo_char_freq.json`` was counted: the TSVs read with
    pandas' default CSV quoting, spaces removed. A double quote in a post then opens a
    quoted field that swallows the following lines (their tabs, newlines and label
    digits end up counted as characters), which is why the released counts of ``\\t``,
    ``\\n`` and 0–5 are higher than in the posts themselves."""
    counts = Counter()
    for split in SPLITS:
        path = Path(root) / "SMP2020" / f"{split}.tsv" if root else paths.released_file(HOMO_REPO, f"SMP2020/{split}.tsv")
        for text in pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)["text_a"]:
            counts.update(text.replace(" ", ""))
    return dict(counts.most_common())


def published_frequencies() -> dict[str, int]:
    """The released ``weibo_char_freq.json``."""
    return json.loads(paths.released_file(HOMO_REPO, "weibo_char_freq.json").read_text(encoding="utf-8"))


def compare_frequencies(ours: Mapping[str, int], theirs: Mapping[str, int], top: int = 10) -> dict[str, object]:
    """How a rebuilt D differs from the published one: coverage both ways, Spearman of the
    counts on shared characters, totals, and the ``top`` largest absolute differences."""
    from scipy.stats import spearmanr

    shared = sorted(set(ours) & set(theirs))
    diffs = pd.DataFrame({"char": list(set(ours) | set(theirs))})
    diffs["ours"] = diffs["char"].map(ours).fillna(0).astype(int)
    diffs["published"] = diffs["char"].map(theirs).fillna(0).astype(int)
    diffs["difference"] = diffs["ours"] - diffs["published"]
    diffs = diffs.reindex(diffs["difference"].abs().sort_values(ascending=False).index)
    return {
        "chars_ours": len(ours), "chars_published": len(theirs), "shared": len(shared),
        "only_ours": len(set(ours) - set(theirs)), "only_published": len(set(theirs) - set(ours)),
        "total_ours": int(sum(ours.values())), "total_published": int(sum(theirs.values())),
        "identical_counts": int(sum(ours[c] == theirs[c] for c in shared)),
        "spearman": float(spearmanr([ours[c] for c in shared], [theirs[c] for c in shared]).statistic),
        "largest_differences": diffs.head(top).reset_index(drop=True),
    }


def published_candidates(word: str) -> list[str]:
    """The released candidate list of one of the five slang words (``freq_candidates/<name>``)."""
    text = paths.released_file(HOMO_REPO, f"freq_candidates/{SLANG[word]}").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


# --------------------------------------------------------------------------- substitution


def replace_spans(text: str, replacements: Mapping[str, str]) -> tuple[str, list[tuple[int, int, str, str]]]:
    """Replace every occurrence of each key in ``text`` (longest keys first, left to right,
    no overlaps, no rewriting of inserted text).

    Returns the new text and the list of edits ``(start, end, old, new)`` with offsets in
    the *original* text, so word-level tags can be realigned.
    """
    keys = sorted(replacements, key=len, reverse=True)
    edits, out, i = [], [], 0
    while i < len(text):
        match = next((k for k in keys if k and text.startswith(k, i)), None)
        if match is None:
            out.append(text[i])
            i += 1
            continue
        edits.append((i, i + len(match), match, replacements[match]))
        out.append(replacements[match])
        i += len(match)
    return "".join(out), edits


def substitute(text: str, replacements: Mapping[str, str]) -> str:
    """Replace every occurrence of each key by its value, longest keys first, in one pass
    (a replacement is never itself rewritten): :func:`replace_spans` without the offsets.

    Examples
    --------
    >>> substitute("草泥马和尼玛", {"草泥马": "曹尼玛", "尼玛": "泥马"})
    '曹尼玛和泥马'
    """
    return replace_spans(text, replacements)[0]


# --------------------------------------------------------------------------- Algorithm 1


def readings(char: str, tone: bool = False, heteronym: bool = True) -> list[str]:
    """Pinyin readings of one character: all of them (``heteronym``) or the default one;
    with tone numbers when ``tone``."""
    from pypinyin import Style, pinyin

    style = Style.TONE3 if tone else Style.NORMAL
    return list(dict.fromkeys(pinyin(char, style=style, heteronym=heteronym, neutral_tone_with_five=True)[0]))


def latinize(word: str, tone: bool = False, heteronym: bool = True) -> list[list[str]]:
    """Algorithm 1's Latinize: the word's syllables, each with the readings of its character."""
    return [readings(c, tone, heteronym) for c in word]


def syllable_inventory(tone: bool = False, heteronym: bool = False) -> dict[str, set[str]]:
    """De-Latinization table: every character of pypinyin's dictionary under its default
    reading, or under all its readings with ``heteronym`` (polyphonic characters then
    appear under several syllables)."""
    from pypinyin.pinyin_dict import pinyin_dict

    inventory: dict[str, set[str]] = defaultdict(set)
    for code in pinyin_dict:
        char = chr(code)
        for r in readings(char, tone, heteronym):
            inventory[r].add(char)
    return dict(inventory)


def candidates(word: str, freq: Mapping[str, int], threshold: int = 100, tone: bool = False,
               heteronym: bool = False, roots: Sequence | None = None,
               inventory: Mapping[str, set[str]] | None = None) -> list[str]:
    """Algorithm 1: all concatenations of same-sounding characters, each character more
    frequent than ``threshold`` in D (the paper: 100), sorted.

    ``roots`` are the syllables to de-Latinize (one string or list of strings per
    character); default: :func:`latinize` of the word. ``heteronym`` lists polyphonic
    characters under all their readings (in the roots and in the inventory); the released
    lists correspond to default readings only. The original word is kept when it passes.
    """
    inventory = inventory if inventory is not None else syllable_inventory(tone, heteronym)
    if roots is None:
        roots = latinize(word, tone, heteronym)
    positions = []
    for options in roots:
        options = [options] if isinstance(options, str) else list(options)
        chars = set().union(*(inventory.get(r, set()) for r in options))
        positions.append(sorted(c for c in chars if freq.get(c, 0) > threshold))
    return sorted("".join(p) for p in itertools.product(*positions))


def candidate_summary(cands_by_word: Mapping[str, Sequence[str]], freq: Mapping[str, int], threshold: int = 100,
                      heteronym: bool = False) -> pd.DataFrame:
    """Per slang word: its roots, pypinyin's reading, how many candidates Algorithm 1 made,
    how they compare with the released list, and how many a tone-aware or an all-readings
    de-Latinization would make."""
    rows = []
    for word, found in cands_by_word.items():
        roots = SLANG_ROOTS[word]
        released = published_candidates(word)
        rows.append({
            "word": word, "roots": " ".join(roots),
            "pypinyin_reading": " ".join("/".join(r) for r in latinize(word)),
            "candidates": len(found), "released": len(released), "shared": len(set(found) & set(released)),
            "identical": set(found) == set(released),
            "tone_aware": len(candidates(word, freq, threshold=threshold, tone=True, heteronym=heteronym,
                                         roots=[readings(c, True, heteronym) for c in word])),
            "all_readings": len(candidates(word, freq, threshold=threshold, heteronym=True, roots=roots)),
        })
    return pd.DataFrame(rows)


def percentile_scores(cands: Sequence[str], freq: Mapping[str, int]) -> pd.DataFrame:
    """Algorithm 2 as the paper defines it: F_h = Σ D(c), candidates sorted by F_h ascending
    (ties keep their order), percentile = position (1…n) / n × 100; the top-k are the
    highest percentiles."""
    f = [sum(freq.get(c, 0) for c in h) for h in cands]
    order = sorted(range(len(cands)), key=lambda i: f[i])
    pos = {i: k + 1 for k, i in enumerate(order)}
    out = pd.DataFrame({"candidate": list(cands), "F": f, "percentile": [pos[i] / len(cands) * 100 for i in range(len(cands))]})
    return out.sort_values("percentile", ascending=False).reset_index(drop=True)


def per_character_percentile(cands: Sequence[str], freq: Mapping[str, int]) -> pd.DataFrame:
    """The score found in the released ``freq_error_words_homo.txt``: for each character
    position, the rank of the character's frequency among that position's alternatives
    divided by their number × 100, summed over positions (not Algorithm 2 as printed)."""
    columns = list(zip(*cands))
    ranks = []
    for col in columns:
        options = sorted(set(col), key=lambda c: freq.get(c, 0))
        ranks.append({c: (k + 1) / len(options) * 100 for k, c in enumerate(options)})
    return pd.DataFrame({"candidate": list(cands),
                         "score": [sum(r[c] for r, c in zip(ranks, h)) for h in cands]})


# --------------------------------------------------------------------------- language models


class Scorer:
    """Log2-probability of a text, optionally after a left context (one interface for all LMs)."""

    name = "scorer"

    def log2prob(self, text: str, context: str = "") -> float:  # pragma: no cover - interface
        raise NotImplementedError

    def self_information(self, text: str, context: str = "") -> float:
        """I(x) = −log2 P(x | context) (paper Eq. 1)."""
        return -self.log2prob(text, context)


class KneserNeyLM(Scorer):
    """Character n-gram language model with interpolated Kneser–Ney smoothing (Chen & Goodman 1999).

    Highest order: P(w|h) = max(c(hw) − d, 0)/c(h) + d·N1+(h•)/c(h) · P(w|h'); lower orders
    use continuation counts N1+(•h'w); the unigram level interpolates with the uniform
    distribution over the vocabulary (characters seen in training, ``</s>`` and ``<unk>``),
    so every character has a probability and P(•|h) sums to 1. Sentences start with
    ``order − 1`` ``<s>`` symbols.
    """

    BOS, EOS, UNK = "<s>", "</s>", "<unk>"

    def __init__(self, order: int = 3, discount: float = 0.75):
        if order < 1:
            raise ValueError("order must be >= 1")
        self.order, self.d = order, discount
        self.name = f"char-{order}gram-KN"

    def fit(self, texts: Iterable[str]) -> "KneserNeyLM":
        n = self.order
        counts = [Counter() for _ in range(n + 1)]  # counts[k][(h..., w)] of k-grams (highest order only)
        vocab = set()
        for t in tqdm(texts, desc="KN counts", leave=False):
            seq = [self.BOS] * (n - 1) + list(t) + [self.EOS]
            vocab.update(t)
            for i in range(n - 1, len(seq)):
                counts[n][tuple(seq[i - n + 1:i + 1])] += 1
        self.vocab = sorted(vocab) + [self.EOS, self.UNK]
        # continuation counts for the lower orders: number of distinct left extensions
        for k in range(n - 1, 0, -1):
            for gram in counts[k + 1]:
                counts[k][gram[1:]] += 1
        self.counts = counts
        self.context_total = [Counter() for _ in range(n + 1)]
        self.context_types = [Counter() for _ in range(n + 1)]
        for k in range(1, n + 1):
            for gram, c in counts[k].items():
                self.context_total[k][gram[:-1]] += c
                self.context_types[k][gram[:-1]] += 1
        return self

    def _prob(self, w: str, history: tuple) -> float:
        if (w,) not in self.counts[1] and w != self.EOS:
            w = self.UNK
        p = 1.0 / len(self.vocab)
        for k in range(1, self.order + 1):
            h = history[len(history) - (k - 1):] if k > 1 else ()
            total = self.context_total[k].get(h, 0)
            if total == 0:
                continue  # unseen history: keep the lower-order estimate
            c = self.counts[k].get(h + (w,), 0)
            p = max(c - self.d, 0) / total + self.d * self.context_types[k][h] / total * p
        return p

    def prob(self, w: str, context: Sequence[str] = ()) -> float:
        """P(w | the last order − 1 symbols of ``context``), ``<s>``-padded."""
        history = tuple([self.BOS] * (self.order - 1) + list(context))[-(self.order - 1):] if self.order > 1 else ()
        return self._prob(w, history)

    def log2prob(self, text: str, context: str = "") -> float:
        """log2 P(text | context) as a character sequence following ``context`` (no end symbol)."""
        seq = list(context)
        total = 0.0
        for ch in text:
            total += math.log2(self.prob(ch, seq))
            seq.append(ch)
        return total


KN_VERSION = 1  # bump when the n-gram counting or smoothing changes


def train_kn(texts: Sequence[str], order: int = 3, discount: float = 0.75, use_cache: bool = True) -> KneserNeyLM:
    """Train (or load from the cache) a :class:`KneserNeyLM`; the key is the texts and settings."""
    texts = list(texts)
    return cache.cached("kn-lm", KN_VERSION, [texts, order, discount],
                        lambda: KneserNeyLM(order, discount).fit(texts), use_cache=use_cache,
                        describe=f"{len(texts)} texts, order {order}")


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
        self.name = f"causal:{Path(str(model_name_or_path)).name}"

    def _ids(self, text: str) -> list[int]:
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def log2prob(self, text: str, context: str = "") -> float:
        import torch

        prefix = ([self.tokenizer.bos_token_id] if self.tokenizer.bos_token_id is not None else []) + (
            self._ids(context) if context else [])
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
    ``MaskedLMScorer("hfl/chinese-roberta-wwm-ext-large")`` is the paper's Chinese RoBERTa."""

    def __init__(self, model_name_or_path, device: str = "cpu"):
        from transformers import AutoModelForMaskedLM, AutoTokenizer

        self.tokenizer = AutoTokenizer.from_pretrained(model_name_or_path)
        self.model = AutoModelForMaskedLM.from_pretrained(model_name_or_path).to(device).eval()
        self.device = device
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


def self_information_table(cands_by_word: Mapping[str, Sequence[str]], scorer: Scorer,
                           contexts: Mapping[str, Sequence[str]] | None = None) -> pd.DataFrame:
    """I(x) of every candidate: without context, and with context when ``contexts`` gives,
    per slang word, posts containing it (I = mean over posts of −log2 P(candidate | the
    post's text left of the slang))."""
    rows = []
    for word, cands in cands_by_word.items():
        posts = list((contexts or {}).get(word, []))
        lefts = [p[: p.index(word)] for p in posts if word in p]
        for cand in tqdm(cands, desc=f"scoring {word}", leave=False):
            row = {"word": word, "candidate": cand, "scorer": scorer.name,
                   "I_no_context": scorer.self_information(cand)}
            if lefts:
                row["I_context"] = float(np.mean([scorer.self_information(cand, left) for left in lefts]))
                row["n_contexts"] = len(lefts)
            rows.append(row)
    return pd.DataFrame(rows)


def score_candidates(cands_by_word: Mapping[str, Sequence[str]], freq: Mapping[str, int], scorer: Scorer,
                     contexts: Mapping[str, Sequence[str]] | None = None) -> pd.DataFrame:
    """One row per (word, candidate): Algorithm 2's F and percentile, the released
    per-character score, and self-information without and with context."""
    frames = []
    for word, cands in cands_by_word.items():
        pct = percentile_scores(cands, freq).set_index("candidate")
        rel = per_character_percentile(cands, freq).set_index("candidate")["score"]
        si = self_information_table({word: cands}, scorer, contexts).set_index("candidate")
        frame = pd.DataFrame({"word": word, "candidate": list(cands)})
        frame["F"] = frame["candidate"].map(pct["F"])
        frame["percentile"] = frame["candidate"].map(pct["percentile"])
        frame["released_score"] = frame["candidate"].map(rel)
        frame["I_no_context"] = frame["candidate"].map(si["I_no_context"])
        if "I_context" in si.columns:
            frame["I_context"] = frame["candidate"].map(si["I_context"])
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def slang_contexts(posts: pd.DataFrame, per_word: int) -> dict[str, list[str]]:
    """Up to ``per_word`` posts containing each slang word (in corpus order): the left
    contexts of self-information with context."""
    return {w: posts.loc[posts["text"].str.contains(w, regex=False), "text"].head(per_word).tolist() for w in SLANG}


METHOD_COLUMNS = {  # score column -> (method, context)
    "percentile": ("percentile (Algorithm 2)", "n/a"),
    "released_score": ("released per-character percentile", "n/a"),
    "I_no_context": ("self-information", "without"),
    "I_context": ("self-information", "with"),
}


def human_correlations(scores: pd.DataFrame, ratings: pd.DataFrame, scorer: str) -> pd.DataFrame:
    """Spearman ρ of each method's score with human ratings (``word, candidate, avg_score``),
    over the candidates present in both. Returns ``method, scorer, context, rho, p, n``."""
    from scipy.stats import spearmanr

    merged = ratings.merge(scores, on=["word", "candidate"], how="inner")
    rows = []
    for column, (method, context) in METHOD_COLUMNS.items():
        if column not in merged.columns:
            continue
        res = spearmanr(merged[column], merged["avg_score"])
        rows.append({"method": method, "scorer": scorer if column.startswith("I_") else "character frequency D",
                     "context": context, "rho": float(res.statistic), "p": float(res.pvalue), "n": len(merged)})
    return pd.DataFrame(rows)


def top_homophones(scores: pd.DataFrame, k: int = 5, exclude_original: bool = True) -> pd.DataFrame:
    """The top-k candidates per word and method: the highest percentile (Algorithm 2), and
    for self-information (without and with context) both directions: "most informative"
    (highest I, the paper's stated preference, §4.1) and "most probable" (lowest I). The
    original slang word is left out when ``exclude_original``."""
    rankings = [("percentile", "percentile (Algorithm 2)", "n/a", False)]
    for column, context in (("I_no_context", "without"), ("I_context", "with")):
        rankings += [(column, "self-information, most informative", context, False),
                     (column, "self-information, most probable", context, True)]
    rows = []
    for word, group in scores.groupby("word", sort=False):
        g = group[group["candidate"] != word] if exclude_original else group
        for column, method, context, ascending in rankings:
            if column not in g.columns:
                continue
            best = g.sort_values(column, ascending=ascending, kind="stable").head(k)
            for rank, (_, r) in enumerate(best.iterrows(), start=1):
                rows.append({"word": word, "method": method, "context": context, "rank": rank,
                             "candidate": r["candidate"], "score": r[column]})
    return pd.DataFrame(rows)


def top_view(top: pd.DataFrame, table8: pd.DataFrame) -> pd.DataFrame:
    """The top lists side by side (word, rank × method, context) with the paper's human top 5."""
    view = top.pivot_table(index=["word", "rank"], columns=["method", "context"], values="candidate",
                           aggfunc="first", sort=False)
    view[("human top 5 (paper Table 8)", "")] = [
        table8[table8["word"] == w]["candidate"].iloc[r - 1] if r <= (table8["word"] == w).sum() else ""
        for w, r in view.index]
    return view


def homophone_lists(source: str, top: pd.DataFrame, table8: pd.DataFrame, k: int) -> dict[str, list[str]]:
    """The k homophones per slang word used to perturb posts: the paper's Table 8 or one of
    this run's rankings (without context)."""
    if source == "paper_table8":
        return {w: table8[table8["word"] == w]["candidate"].tolist()[:k] for w in SLANG}
    chosen = top[(top["method"] == source) & (top["context"] == "without")]
    return {w: chosen[chosen["word"] == w]["candidate"].tolist() for w in SLANG}
