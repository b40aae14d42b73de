"""Chinese homophone generation by self-information (Qian et al., W-NUT 2025).

* Candidates (Algorithm 1): Latinize a slang word with ``pypinyin`` (every reading of a
  polyphonic character), de-Latinize each syllable to every character with that reading
  (pypinyin's character dictionary), keep characters more frequent than a threshold in a
  character-frequency dictionary D built from the SMP2020-EWECT Weibo corpus, concatenate.
* Percentile baseline (Algorithm 2, Hiruncharoenvate et al. 2015): F_h = Σ D(c) over the
  candidate's characters, sort ascending, percentile = rank / n × 100.
* Self-information (Eq. 1): I(x) = −log2 P(x) under a language model; the scorers share one
  interface (:class:`Scorer`) and live in :mod:`helpers.slang.language_models` (Kneser–Ney
  n-grams, word unigram lists, small character transformers trained here, any Hugging Face
  checkpoint); :func:`ladder_scores` scores the candidates under each of several.
* Agreement with people (Tables 2–3, 8): Spearman ρ pooled over all words as the paper
  computes it (:func:`human_correlations`), per word (:func:`spearman_by_word`) and as a
  mean within-word ρ with a within-word permutation test (:func:`within_word_correlations`).
* pick(): each method's top k (:func:`top_homophones`), Algorithm 2 in both of its readings.
* Rating sheets for a class (:func:`write_rating_sheets`, :func:`read_class_ratings`):
  Algorithm 1 candidates drawn at random, rated 1–5, averaged per candidate.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..core import cache, classroom, params, paths
from ..core.errors import InputError, raise_all
from . import language_models as lm
from .language_models import (  # noqa: F401  (the scorers live in language_models; kept importable from here)
    KN_VERSION, CausalLMScorer, KneserNeyLM, MaskedLMScorer, Scorer, train_kn)

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


INVENTORY_VERSION = 1  # bump when the de-Latinization table is built differently


def syllable_inventory(tone: bool = False, heteronym: bool = False) -> dict[str, frozenset[str]]:
    """De-Latinization table: every character of pypinyin's dictionary under its default
    reading, or under all its readings with ``heteronym`` (polyphonic characters then
    appear under several syllables).

    Building it reads 40 000 characters (about 3 s), so it is kept in memory and in the
    cache (:mod:`helpers.core.cache`, keyed by the pypinyin version and the settings)."""
    return dict(_inventory(bool(tone), bool(heteronym)))


@functools.lru_cache(maxsize=None)
def _inventory(tone: bool, heteronym: bool) -> dict[str, frozenset[str]]:
    import pypinyin

    def build() -> dict[str, frozenset[str]]:
        from pypinyin.pinyin_dict import pinyin_dict

        inventory: dict[str, set[str]] = defaultdict(set)
        for code in pinyin_dict:
            char = chr(code)
            for r in readings(char, tone, heteronym):
                inventory[r].add(char)
        return {r: frozenset(chars) for r, chars in inventory.items()}

    return cache.cached("pinyin-inventory", INVENTORY_VERSION, [pypinyin.__version__, tone, heteronym], build,
                        describe=f"pypinyin {pypinyin.__version__}, tone={tone}, heteronym={heteronym}")


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
    (ties keep their order), percentile = position (1…n) / n × 100. The chapter's top k
    are the highest percentiles; Algorithm 2 as printed takes the first k after the
    ascending sort (both in :func:`top_homophones`)."""
    f = [sum(freq.get(c, 0) for c in h) for h in cands]
    order = sorted(range(len(cands)), key=lambda i: f[i])
    pos = {i: k + 1 for k, i in enumerate(order)}
    out = pd.DataFrame({"candidate": list(cands), "F": f, "percentile": [pos[i] / len(cands) * 100 for i in range(len(cands))]})
    return out.sort_values("percentile", ascending=False).reset_index(drop=True)


def per_character_percentile(cands: Sequence[str], freq: Mapping[str, int]) -> pd.DataFrame:
    """The score found in the released ``freq_error_words_homo.txt``: for each character
    position, the rank of the character's frequency among that position's alternatives
    divided by their number × 100, summed over positions (not Algorithm 2 as printed).

    Characters of equal frequency are ranked by descending code point. (The only tie among
    the five words is 嘛/麻; ordering them through a Python set, as before, made the score
    change from run to run. This order reproduces the released file for all 172
    candidates.)"""
    columns = list(zip(*cands))
    ranks = []
    for col in columns:
        options = sorted(set(col), key=lambda c: (freq.get(c, 0), -ord(c)))
        ranks.append({c: (k + 1) / len(options) * 100 for k, c in enumerate(options)})
    return pd.DataFrame({"candidate": list(cands),
                         "score": [sum(r[c] for r, c in zip(ranks, h)) for h in cands]})


def published_per_character_scores() -> pd.DataFrame:
    """The released ``freq_candidates/freq_error_words_homo.txt`` (one Python list of
    ``(candidate, score)`` pairs per slang word and line) as ``candidate, score``."""
    import ast

    text = paths.released_file(HOMO_REPO, "freq_candidates/freq_error_words_homo.txt").read_text(encoding="utf-8")
    pairs = [p for line in text.splitlines() if line.strip() for p in ast.literal_eval(line)]
    return pd.DataFrame(pairs, columns=["candidate", "score"])


# --------------------------------------------------------------------------- language models


def self_information_table(cands_by_word: Mapping[str, Sequence[str]], scorer: Scorer,
                           contexts: Mapping[str, Sequence[str]] | None = None) -> pd.DataFrame:
    """I(x) of every candidate: without context, and with context when ``contexts`` gives,
    per slang word, posts containing it (I = mean over posts of −log2 P(candidate | the
    post's text left of the slang))."""
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


# --------------------------------------------------------------------------- the ladder of language models

#: Rungs of the ladder: Kneser–Ney orders, word unigram lists, character transformers
#: (:data:`helpers.slang.language_models.GPT_SIZES`); ``hf:<folder>`` is added for ``hf_model``.
KN_RUNGS = {f"kn-{k}": k for k in range(2, 7)}
WORD_RUNGS = ("wordfreq", "jieba")
LADDER_RUNGS = (*KN_RUNGS, *WORD_RUNGS, *lm.GPT_SIZES)
DEFAULT_LADDER = ("kn-2", "kn-3", "kn-4", "kn-5", "wordfreq", "jieba", "gpt-0.1M", "gpt-0.3M", "gpt-1M")
#: The measured comparison (``data/measured/lm_ladder_comparison.csv``): every rung, the 5 M transformer too.
MEASURED_LADDER = ("kn-2", "kn-3", "kn-4", "kn-5", "wordfreq", "jieba", *lm.GPT_SIZES)
LADDER_VERSION = 1  # bump when a rung is scored differently
FAMILIES = {"kn": "Kneser–Ney n-gram", "wordfreq": "word unigram", "jieba": "word unigram",
            "gpt": "character transformer", "hf": "Hugging Face checkpoint"}


def rung_family(rung: str) -> str:
    """The family of a rung name (``kn-3`` → Kneser–Ney n-gram, ``gpt-1M`` → character transformer …)."""
    return FAMILIES[rung.split("-")[0].split(":")[0]]


def ladder_scores(rungs: Sequence[str], train_texts: Sequence[str], heldout: Sequence[str],
                  cands_by_word: Mapping[str, Sequence[str]], contexts: Mapping[str, Sequence[str]] | None = None,
                  gpt_steps: int = 60, seed: int = 0, hf_model: str | None = None, hf_kind: str = "causal",
                  use_cache: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Self-information of every candidate under each rung of the ladder, and each rung's
    held-out perplexity (:func:`helpers.slang.language_models.perplexity`, per character).

    Kneser–Ney rungs are trained on ``train_texts`` (one count at the highest order asked
    for gives the lower orders); transformer rungs are trained on them for ``gpt_steps``
    steps (seeded by ``seed``); word rungs need no training. Each rung's result is cached
    under ``lm-ladder`` keyed by the rung, the texts, the held-out text, the candidates,
    the contexts and the settings, so a warm run trains and scores nothing.

    Returns ``scores`` (``rung, scorer, word, candidate, I_no_context, I_context,
    n_contexts``, and ``found`` for word rungs: word / pieces / characters) and ``models``
    (``rung, scorer, family, parameters, heldout_perplexity, heldout_characters,
    train_seconds, score_seconds, computed``; ``computed`` is False for a rung read from
    the cache, whose seconds are those of the run that made it)."""
    train_texts, heldout = list(train_texts), list(heldout)
    cands = {w: list(c) for w, c in cands_by_word.items()}
    contexts = {w: list(c) for w, c in (contexts or {}).items()}
    rungs = list(rungs) + ([f"hf:{Path(hf_model).name}"] if hf_model else [])
    kn_orders = [KN_RUNGS[r] for r in rungs if r in KN_RUNGS]
    top: dict[str, object] = {}

    def kn_model(order: int):
        import time

        if "model" not in top:
            started = time.perf_counter()
            top["model"] = KneserNeyLM(max(kn_orders)).fit(train_texts)
            top["seconds"] = time.perf_counter() - started
        started = time.perf_counter()
        model = top["model"] if order == top["model"].order else top["model"].lower(order)
        seconds = time.perf_counter() - started + (top.pop("seconds", 0.0) if order == max(kn_orders) else 0.0)
        return model, seconds

    def build(rung: str):
        import time

        if rung in KN_RUNGS:
            return kn_model(KN_RUNGS[rung])
        started = time.perf_counter()
        if rung == "wordfreq":
            return lm.wordfreq_scorer(), time.perf_counter() - started
        if rung == "jieba":
            return lm.jieba_scorer(), time.perf_counter() - started
        if rung in lm.GPT_SIZES:
            model = lm.train_char_gpt(train_texts, rung, steps=gpt_steps, seed=seed, use_cache=use_cache)
            return model, model.training["seconds"]
        scorer = (CausalLMScorer if hf_kind == "causal" else MaskedLMScorer)(hf_model)
        return scorer, time.perf_counter() - started

    score_frames, rows = [], []
    for rung in tqdm(rungs, desc="language-model ladder", leave=False):
        computed = []

        def compute(rung=rung, computed=computed):
            import time

            computed.append(True)
            scorer, train_seconds = build(rung)
            started = time.perf_counter()
            table = self_information_table(cands, scorer, contexts)
            if isinstance(scorer, lm.WordUnigramScorer):
                table["found"] = scorer.coverage(table["candidate"].tolist())["found"].to_numpy()
            ppl = lm.perplexity(scorer, heldout)
            parameters = getattr(scorer, "parameters", None)
            if isinstance(scorer, KneserNeyLM):
                parameters = sum(len(c) for c in scorer.counts[1:])  # stored n-gram counts
            elif isinstance(scorer, lm.WordUnigramScorer):
                parameters = len(scorer.p)  # listed words
            return {"scores": table, "info": {
                "scorer": scorer.name, "family": rung_family(rung), "parameters": parameters,
                "heldout_perplexity": ppl, "heldout_characters": sum(map(len, heldout)),
                "train_seconds": train_seconds, "score_seconds": time.perf_counter() - started}}

        inputs = [rung, heldout, cands, contexts]
        if rung in KN_RUNGS or rung in lm.GPT_SIZES:
            inputs += [train_texts, gpt_steps if rung in lm.GPT_SIZES else None, seed if rung in lm.GPT_SIZES else None]
        if rung.startswith("hf:"):
            inputs += [cache.file_identity(hf_model), hf_kind]
        stored = cache.cached("lm-ladder", LADDER_VERSION, inputs, compute, use_cache=use_cache,
                              describe=f"{rung}: {sum(map(len, cands.values()))} candidates, {len(heldout)} held-out texts")
        score_frames.append(stored["scores"].drop(columns="scorer").assign(rung=rung, scorer=stored["info"]["scorer"]))
        rows.append({"rung": rung, **stored["info"], "computed": bool(computed)})
    scores = pd.concat(score_frames, ignore_index=True)
    first = ["rung", "scorer", "word", "candidate"]
    return scores[first + [c for c in scores.columns if c not in first]], pd.DataFrame(rows)


def _t_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """Mean ± t(G − 1) · SD / √G of per-word ρ, cut to [−1, 1]; NaN with fewer than 2 words."""
    from scipy.stats import t

    v = np.asarray([x for x in values if np.isfinite(x)], dtype=float)
    if len(v) < 2:
        return float("nan"), float("nan")
    half = t.ppf(0.5 + level / 2, len(v) - 1) * v.std(ddof=1) / np.sqrt(len(v))
    return max(float(v.mean() - half), -1.0), min(float(v.mean() + half), 1.0)


def ladder_correlations(scores: pd.DataFrame, models: pd.DataFrame, ratings: pd.DataFrame, n_perm: int = 10000,
                        seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per rung of :func:`ladder_scores` and context: the pooled ρ (the paper's Tables 2–3
    way) with its Fisher and word-jackknife intervals, the mean within-word ρ with its
    exact (or permutation) p (:func:`within_word_correlations`) and a t interval over the
    words' ρ, beside the rung's held-out perplexity. Returns ``summary`` (``rung, scorer,
    family, parameters, heldout_perplexity, context, pooled_rho, pooled_p,
    pooled_ci_low, pooled_ci_high, pooled_jackknife_ci_low, pooled_jackknife_ci_high,
    mean_within_word_rho, p_within_word, within_ci_low, within_ci_high, exact,
    n_permutations, n, n_words``) and ``by_word`` (``rung, scorer, context, word, rho, p,
    p_permutation, n``)."""
    summaries, words = [], []
    info = models.set_index("rung")
    for rung, frame in scores.groupby("rung", sort=False):
        name = info.loc[rung, "scorer"]
        per_word = spearman_by_word(frame, ratings, name, n_perm, seed)
        within = within_word_correlations(frame, ratings, name, n_perm, seed)
        for _, row in within.iterrows():
            w = per_word[per_word["context"] == row["context"]]
            low, high = spearman_interval(row["pooled_rho"], int(row["n"]))
            wl, wh = _t_interval(w["rho"])
            summaries.append({"rung": rung, "scorer": name, "family": info.loc[rung, "family"],
                              "parameters": info.loc[rung, "parameters"],
                              "heldout_perplexity": info.loc[rung, "heldout_perplexity"], "context": row["context"],
                              "pooled_rho": row["pooled_rho"], "pooled_p": row["pooled_p"], "pooled_ci_low": low,
                              "pooled_ci_high": high, "pooled_jackknife_ci_low": row["pooled_jackknife_ci_low"],
                              "pooled_jackknife_ci_high": row["pooled_jackknife_ci_high"],
                              "mean_within_word_rho": row["mean_within_word_rho"], "p_within_word": row["p_within_word"],
                              "within_ci_low": wl, "within_ci_high": wh, "exact": row["exact"],
                              "n_permutations": row["n_permutations"], "n": row["n"], "n_words": row["n_words"]})
        words.append(per_word.drop(columns="method").assign(rung=rung))
    by_word = pd.concat(words, ignore_index=True)
    return pd.DataFrame(summaries), by_word[["rung", "scorer", "context", "word", "rho", "p", "p_permutation", "n"]]


METHOD_COLUMNS = {  # score column -> (method, context)
    "percentile": ("percentile (Algorithm 2)", "n/a"),
    "released_score": ("released per-character percentile", "n/a"),
    "I_no_context": ("self-information", "without"),
    "I_context": ("self-information", "with"),
}
#: Algorithm 2's top-k in the chapter's reading (the most frequent candidates) and as printed.
PERCENTILE_TOP = "percentile (Algorithm 2)"
PERCENTILE_AS_PRINTED = "percentile (Algorithm 2 as printed: P[1:k], least frequent)"


def _merged(scores: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    return ratings[["word", "candidate", "avg_score"]].merge(scores, on=["word", "candidate"], how="inner")


def _methods(merged: pd.DataFrame, scorer: str):
    for column, (method, context) in METHOD_COLUMNS.items():
        if column in merged.columns:
            yield column, {"method": method, "scorer": scorer if column.startswith("I_") else "character frequency D",
                           "context": context}


def human_correlations(scores: pd.DataFrame, ratings: pd.DataFrame, scorer: str) -> pd.DataFrame:
    """Spearman ρ of each method's score with human ratings (``word, candidate, avg_score``),
    pooled over the candidates of all words present in both, as the paper's Tables 2–3 do.
    Returns ``method, scorer, context, rho, p, n``.

    The pooled ρ mixes two things: how each word's candidates are ranked, and how the
    words differ from one another (草泥马's three-character forms carry more bits than the
    two-character ones). :func:`spearman_by_word` and :func:`within_word_correlations`
    separate them."""
    from scipy.stats import spearmanr

    merged = _merged(scores, ratings)
    rows = []
    for column, labels in _methods(merged, scorer):
        res = spearmanr(merged[column], merged["avg_score"])
        rows.append({**labels, "rho": float(res.statistic), "p": float(res.pvalue), "n": len(merged)})
    return pd.DataFrame(rows, columns=["method", "scorer", "context", "rho", "p", "n"])


# --------------------------------------------------------------------------- within-word tests


@dataclass(frozen=True)
class WithinGroupTest:
    """A permutation test of the mean within-group Spearman ρ (:func:`within_group_permutation_test`)."""

    statistic: float  # mean over the groups of the within-group Spearman ρ
    p_value: float  # two-sided: share of permutations with |mean ρ| >= the observed one
    n_groups: int  # groups that entered the mean (at least 3 items, neither variable constant)
    n_items: int  # items in those groups
    exact: bool  # every permutation enumerated (True) or a seeded Monte Carlo sample (False)
    n_permutations: int  # permutations enumerated (the product of n_g!) or drawn


MAX_EXACT_GROUP = 8  # 8! = 40 320 permutations per group are enumerated; larger groups are sampled
_MAX_SUPPORT = 2_000_000  # distinct values of the exact null distribution before falling back to sampling


def _centred_ranks(values) -> np.ndarray:
    ranks = pd.Series(np.asarray(values, dtype=float)).rank().to_numpy()  # average ranks for ties
    return ranks - ranks.mean()


def _usable(x: np.ndarray, y: np.ndarray) -> bool:
    return len(x) >= 3 and np.ptp(x) > 0 and np.ptp(y) > 0


def within_group_permutation_test(x, y, groups, n_perm: int = 10000, seed=0) -> WithinGroupTest:
    """Is the mean within-group Spearman ρ of ``x`` and ``y`` larger in size than chance?

    The ratings ``y`` are permuted *within* each group (each slang word), so the words'
    different levels of ``x`` and ``y`` stay where they are and only the ranking of a
    word's own candidates is tested. The statistic is the unweighted mean over groups of
    Spearman's ρ (Pearson's r of average ranks, as :func:`scipy.stats.spearmanr`); groups
    with fewer than 3 items or a constant variable are left out (ρ is undefined there).

    Exact when every group has at most :data:`MAX_EXACT_GROUP` items: each group's n_g!
    permutations are enumerated and the groups' null distributions convolved (five words
    of five candidates: 120^5 ≈ 2.5·10^10 permutations, counted exactly). Otherwise
    ``n_perm`` seeded permutations per group, and p = (hits + 1) / (n_perm + 1).

    Examples
    --------
    Two groups of three whose ranks agree perfectly: each group's ρ is 1 for 1 of its 6
    orders, so |mean ρ| = 1 only when both groups are (1, 1) or (−1, −1): p = 2/36.

    >>> t = within_group_permutation_test([1, 2, 3, 1, 2, 3], [1, 2, 3, 5, 6, 7], list("aaabbb"))
    >>> t.statistic, round(t.p_value, 4), t.exact, t.n_permutations
    (1.0, 0.0556, True, 36)
    """
    frame = pd.DataFrame({"x": np.asarray(x, dtype=float), "y": np.asarray(y, dtype=float),
                          "g": pd.Series(list(groups), dtype=object)})
    parts = []
    for _, g in frame.groupby("g", sort=False):
        gx, gy = g["x"].to_numpy(), g["y"].to_numpy()
        if _usable(gx, gy):
            xc, yc = _centred_ranks(gx), _centred_ranks(gy)
            parts.append((xc, yc, float(np.sqrt((xc ** 2).sum() * (yc ** 2).sum()))))
    if not parts:
        return WithinGroupTest(float("nan"), float("nan"), 0, 0, False, 0)
    observed = sum(float(xc @ yc) / d for xc, yc, d in parts)  # the sum of the ρ; the mean is sum / G
    n_items = sum(len(xc) for xc, _, _ in parts)
    if all(len(xc) <= MAX_EXACT_GROUP for xc, _, _ in parts):
        values, probs = np.array([0.0]), np.array([1.0])
        for xc, yc, d in parts:
            perms = np.array(list(itertools.permutations(range(len(xc)))))
            rho, counts = np.unique(np.round(yc[perms] @ xc / d, 10), return_counts=True)
            values = (values[:, None] + rho[None, :]).ravel()
            probs = (probs[:, None] * (counts / counts.sum())[None, :]).ravel()
            values, inverse = np.unique(np.round(values, 9), return_inverse=True)
            probs = np.bincount(inverse.ravel(), weights=probs)
            if len(values) > _MAX_SUPPORT:
                break
        else:
            p = float(probs[np.abs(values) >= abs(observed) - 1e-9].sum())
            total = int(np.prod([math.factorial(len(xc)) for xc, _, _ in parts], dtype=object))
            return WithinGroupTest(observed / len(parts), min(round(p, 12), 1.0), len(parts), n_items, True, total)
    rng = np.random.default_rng(seed)
    sums = np.zeros(n_perm)
    for xc, yc, d in parts:
        perms = np.argsort(rng.random((n_perm, len(xc))), axis=1)
        sums += yc[perms] @ xc / d
    hits = int((np.abs(sums) >= abs(observed) - 1e-9).sum())
    return WithinGroupTest(observed / len(parts), (hits + 1) / (n_perm + 1), len(parts), n_items, False, n_perm)


def spearman_interval(rho: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Approximate confidence interval of a Spearman ρ from n pairs: Fisher's z with the
    variance 1.06 / (n − 3) of Fieller, Hartley and Pearson (1957). NaN for n ≤ 3.

    Examples
    --------
    >>> [round(v, 3) for v in spearman_interval(0.5, 28)]  # tanh(atanh(.5) ± 1.96 · √(1.06/25))
    [0.145, 0.741]
    """
    from scipy.stats import norm

    if n <= 3 or not np.isfinite(rho):
        return float("nan"), float("nan")
    z, half = np.arctanh(np.clip(rho, -0.999999, 0.999999)), norm.ppf(0.5 + level / 2) * np.sqrt(1.06 / (n - 3))
    return float(np.tanh(z - half)), float(np.tanh(z + half))


def spearman_by_word(scores: pd.DataFrame, ratings: pd.DataFrame, scorer: str, n_perm: int = 10000,
                     seed: int = 0) -> pd.DataFrame:
    """Spearman ρ of each method's score with the ratings *within* each slang word.

    Returns ``method, scorer, context, word, rho, p, p_permutation, n``: ``p`` is scipy's
    (a t approximation, poor for five candidates), ``p_permutation`` the two-sided
    permutation p of that word alone (exact up to :data:`MAX_EXACT_GROUP` candidates).
    ρ is NaN for a word with fewer than 3 rated candidates or constant ratings.

    Examples
    --------
    One word whose three candidates are rated in the order of their percentile: ρ = 1,
    which 2 of the 6 possible orders of the ratings reach in size.

    >>> s = pd.DataFrame({"word": "w", "candidate": list("abc"), "percentile": [10.0, 20.0, 30.0]})
    >>> r = pd.DataFrame({"word": "w", "candidate": list("abc"), "avg_score": [1.0, 2.5, 4.0]})
    >>> row = spearman_by_word(s, r, "toy").iloc[0]
    >>> row["method"], float(row["rho"]), round(float(row["p_permutation"]), 3), int(row["n"])
    ('percentile (Algorithm 2)', 1.0, 0.333, 3)
    """
    from scipy.stats import spearmanr

    merged = _merged(scores, ratings)
    rows = []
    for column, labels in _methods(merged, scorer):
        for word, g in merged.groupby("word", sort=False):
            x, y = g[column].to_numpy(dtype=float), g["avg_score"].to_numpy(dtype=float)
            if _usable(x, y):
                res = spearmanr(x, y)
                rho, p = float(res.statistic), float(res.pvalue)
                p_perm = within_group_permutation_test(x, y, [word] * len(g), n_perm, seed).p_value
            else:
                rho = p = p_perm = float("nan")
            rows.append({**labels, "word": word, "rho": rho, "p": p, "p_permutation": p_perm, "n": len(g)})
    return pd.DataFrame(rows, columns=["method", "scorer", "context", "word", "rho", "p", "p_permutation", "n"])


def within_word_correlations(scores: pd.DataFrame, ratings: pd.DataFrame, scorer: str, n_perm: int = 10000,
                             seed: int = 0) -> pd.DataFrame:
    """Per method: the pooled ρ (the paper's way) beside the mean within-word ρ and its
    within-word permutation test (:func:`within_group_permutation_test`).

    Returns ``method, scorer, context, pooled_rho, pooled_p, mean_within_word_rho,
    p_within_word, n`` (candidates in the pooled ρ), ``n_words, n_within_word`` (words and
    candidates in the within-word mean: words with at least 3 rated candidates and varying
    ratings), ``exact, n_permutations``, and ``pooled_jackknife_ci_low,
    pooled_jackknife_ci_high``: a 95 % interval of the pooled ρ that resamples *words*, not
    candidates (delete-one-word jackknife, t with words − 1 degrees of freedom,
    :func:`~helpers.core.stats.jackknife_t_interval`, cut to [−1, 1]). The candidates of one
    word share its level, so an interval that counts them as independent pairs
    (:func:`spearman_interval`) is too narrow.

    Examples
    --------
    Both words rank their candidates perfectly, but the word with the higher scores got
    the lower ratings: pooled, the ranks differ by 3 everywhere, ρ = 1 − 6·54/(6·35) =
    −0.543; within the words ρ = 1 and 1, and p = 2/36.

    >>> s = pd.DataFrame({"word": list("uuuvvv"), "candidate": list("abcdef"), "percentile": [1, 2, 3, 4, 5, 6]})
    >>> r = pd.DataFrame({"word": list("uuuvvv"), "candidate": list("abcdef"), "avg_score": [4, 5, 6, 1, 2, 3]})
    >>> row = within_word_correlations(s, r, "toy").iloc[0]
    >>> [round(float(row[c]), 4) for c in ("pooled_rho", "mean_within_word_rho", "p_within_word")]
    [-0.5429, 1.0, 0.0556]
    """
    pooled = human_correlations(scores, ratings, scorer)
    merged = _merged(scores, ratings)
    rows = []
    for (column, labels), (_, pool) in zip(_methods(merged, scorer), pooled.iterrows()):
        test = within_group_permutation_test(merged[column], merged["avg_score"], merged["word"], n_perm, seed)
        low, high = _word_jackknife(merged, column, pool["rho"])
        rows.append({**labels, "pooled_rho": pool["rho"], "pooled_p": pool["p"],
                     "mean_within_word_rho": test.statistic, "p_within_word": test.p_value,
                     "n": int(pool["n"]), "n_words": test.n_groups, "n_within_word": test.n_items, "exact": test.exact,
                     "n_permutations": test.n_permutations, "pooled_jackknife_ci_low": low,
                     "pooled_jackknife_ci_high": high})
    return pd.DataFrame(rows)


def _word_jackknife(merged: pd.DataFrame, column: str, rho: float) -> tuple[float, float]:
    """Delete-one-word jackknife t interval of the pooled Spearman ρ, cut to [−1, 1]."""
    from scipy.stats import spearmanr

    from ..core.stats import jackknife_t_interval

    words = list(dict.fromkeys(merged["word"]))
    if len(words) < 3:
        return float("nan"), float("nan")
    loo = [spearmanr(rest[column], rest["avg_score"]).statistic
           for rest in (merged[merged["word"] != w] for w in words)]
    low, high = jackknife_t_interval(rho, loo)
    return max(low, -1.0), min(high, 1.0)


# --------------------------------------------------------------------------- picking the top k


def top_homophones(scores: pd.DataFrame, k: int = 5, exclude_original: bool = True) -> pd.DataFrame:
    """The top-k candidates per word and method (Algorithm 2 and Eq. 1's ``pick()``).

    Algorithm 2 is ambiguous: it sorts the candidates by F *ascending* and then returns
    ``P[1:k]``, which read literally are the k **least** frequent candidates, while its
    percentile score makes the most frequent candidate score 100. Both readings are
    listed: ``percentile (Algorithm 2)`` (the highest percentiles, the chapter's reading)
    and :data:`PERCENTILE_AS_PRINTED` (the first k after the ascending sort). For
    self-information (without and with context) both directions: "most informative"
    (highest I, the paper's stated preference, §4.1) and "most probable" (lowest I). The
    original slang word is left out when ``exclude_original``. Ties keep the candidates'
    order in ``scores``.

    Examples
    --------
    >>> s = pd.DataFrame({"word": "w", "candidate": ["a", "b", "c", "w"], "F": [5, 1, 3, 9],
    ...                   "percentile": [100.0, 33.3, 66.7, 0.0]})
    >>> top = top_homophones(s, k=2)
    >>> top.groupby("method", sort=False)["candidate"].apply(list).to_dict()
    {'percentile (Algorithm 2)': ['a', 'c'], 'percentile (Algorithm 2 as printed: P[1:k], least frequent)': ['b', 'c']}
    """
    rankings = [("percentile", PERCENTILE_TOP, "n/a", False), ("percentile", PERCENTILE_AS_PRINTED, "n/a", True)]
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


def top_ratings(top: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """How each top-k list fares with the raters: per method and context, how many of its
    candidates were rated and their mean rating (``method, context, listed, rated,
    mean_rating``)."""
    merged = top.merge(ratings[["word", "candidate", "avg_score"]], on=["word", "candidate"], how="left")
    return (merged.groupby(["method", "context"], sort=False)
            .agg(listed=("candidate", "size"), rated=("avg_score", "count"), mean_rating=("avg_score", "mean"))
            .reset_index())


def top_lists(top: pd.DataFrame, table8: pd.DataFrame | None = None) -> pd.DataFrame:
    """The top lists compactly, for reading: one row per (method, context), one column per
    slang word holding its top k in rank order (and the paper's human top 5 as a last row)."""
    rows = []
    for (method, context), g in top.groupby(["method", "context"], sort=False):
        row = {"method": method, "context": context}
        for word, w in g.groupby("word", sort=False):
            row[word] = "、".join(w.sort_values("rank")["candidate"])
        rows.append(row)
    if table8 is not None:
        human = {"method": "human top 5 (paper Table 8)", "context": ""}
        for word, w in table8.groupby("word", sort=False):
            human[word] = "、".join(w["candidate"])
        rows.append(human)
    return pd.DataFrame(rows)


def homophone_lists(source: str, top: pd.DataFrame, table8: pd.DataFrame, k: int) -> dict[str, list[str]]:
    """The k homophones per slang word used to perturb posts: the paper's Table 8 or one of
    this run's rankings (self-information without context; the percentile has no context)."""
    if source == "paper_table8":
        return {w: table8[table8["word"] == w]["candidate"].tolist()[:k] for w in SLANG}
    chosen = top[(top["method"] == source) & top["context"].isin(["without", "n/a"])]
    return {w: chosen[chosen["word"] == w]["candidate"].tolist() for w in SLANG}


# --------------------------------------------------------------------------- rating sheets (teaching kit)

RATING_SHEET = "Ratings"
INSTRUCTIONS_SHEET = "Instructions"  # holds the Student: field
RATING_HEADER = ("item", "slang_word", "candidate", "rating", "done", "comment")
RATING_REQUIRED = RATING_HEADER[:4]  # workbooks written before the done column have the other two or only comment
RATING_LEVELS = (1, 2, 3, 4, 5)
RATING_GUIDE = [
    (5, "A full stand-in: a Weibo reader would take it for the slang word at once, and it feels as natural."),
    (4, "Clearly the slang word; it reads a little forced or unusual, but nobody would stumble."),
    (3, "Recognisable after a moment's thought; some readers would need time to accept it."),
    (2, "Only recognisable if you already know what it is meant to replace; it looks odd."),
    (1, "Not a stand-in: the link to the slang word is lost, or it reads as something else entirely."),
]
RATING_STEPS = [
    "Each row pairs a slang word (column B) with a written form that sounds like it (column C).",
    "Imagine the candidate in a Weibo post in place of the slang word. Would readers still get it, and would it "
    "feel like something people actually write?",
    "Give one rating from 1 to 5 in column D (the cell offers a dropdown). Judge the sound-alike only: whether the "
    "slang word itself is rude or polite does not matter.",
    "Rate every row on its own; the rows are in random order and no row is a model answer.",
    "Leave a cell empty if you cannot judge it (say why in the comment column) rather than guessing.",
    "When a row is finished, choose 'done' in column E. A row not marked done counts as not yet rated; an empty "
    "rating in a row marked done counts as 'cannot judge'.",
    "Do not look the candidates up and do not discuss them with other raters before you hand the sheet in.",
]


def rating_items(cands_by_word: Mapping[str, Sequence[str]], words: Sequence[str], per_word: int,
                 seed: int = 0) -> pd.DataFrame:
    """The candidates a class rates: for each of ``words``, ``per_word`` of Algorithm 1's
    candidates drawn uniformly without replacement (seeded; the slang word itself is never
    drawn, and no ranking method is consulted, so a human-rated or top-ranked candidate is
    in the sample only by chance). Returns ``word, candidate`` in drawing order.

    Examples
    --------
    >>> items = rating_items({"尼玛": ["尼玛", "你妈", "泥马", "你吗"]}, ["尼玛"], 2, seed=1)
    >>> len(items), "尼玛" in set(items["candidate"])
    (2, False)
    """
    unknown = [w for w in words if w not in cands_by_word]
    if unknown:
        raise InputError("is not one of the slang words", parameter="--words", value=unknown[0],
                         expected=" or ".join(cands_by_word))
    if len(set(words)) != len(words):
        raise InputError("a slang word is listed twice", parameter="--words", value=list(words))
    rng = np.random.default_rng(seed)
    rows = []
    for word in words:
        pool = [c for c in cands_by_word[word] if c != word]
        if per_word > len(pool):
            raise InputError(f"{word} has only {len(pool)} candidates besides itself", parameter="--per-word",
                             value=per_word, expected=f"at most {len(pool)} for {word}")
        rows += [{"word": word, "candidate": pool[i]} for i in rng.choice(len(pool), size=per_word, replace=False)]
    return pd.DataFrame(rows, columns=["word", "candidate"])


def write_rating_workbook(items: pd.DataFrame, rater: str, path: str | os.PathLike, seed: int = 0) -> Path:
    """One rater's workbook: sheet ``Ratings`` with the items (ids H001… in the order of
    ``items``, the same in every workbook) in this rater's own shuffled order (``seed``), a
    1–5 dropdown in the rating column and a ``done`` column, and sheet ``Instructions``
    with the ``Student:`` field (the run names the rater by it, whatever the file is called)."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.worksheet.datavalidation import DataValidation

    order = np.random.default_rng(seed).permutation(len(items))
    wb = Workbook()
    ws = wb.active
    ws.title = RATING_SHEET
    ws.append(list(RATING_HEADER))
    for cell in ws[1]:
        cell.font, cell.fill = Font(bold=True), PatternFill("solid", fgColor="DDE7F3")
    levels = ",".join(map(str, RATING_LEVELS))
    dv = DataValidation(type="list", formula1=f'"{levels}"', allow_blank=True, showErrorMessage=True,
                        errorTitle="Rating", error="Choose a whole number from 1 to 5, or leave the cell empty.")
    ws.add_data_validation(dv)
    done = DataValidation(type="list", formula1=f'"{classroom.DONE_HEADER}"', allow_blank=True, showErrorMessage=True,
                          errorTitle="Row finished?", error="Choose 'done' when the row is finished, or leave it empty.")
    ws.add_data_validation(done)
    for i in order:  # item ids follow the drawing order, so H001 is the same candidate in every workbook
        ws.append([f"H{i + 1:03d}", items.iloc[i]["word"], items.iloc[i]["candidate"], None, None, None])
    if len(items):
        dv.add(f"D2:D{len(items) + 1}")
        done.add(f"E2:E{len(items) + 1}")
    for col, width in zip("ABCDEF", (8, 12, 14, 10, 8, 40)):
        ws.column_dimensions[col].width = width
    ws.freeze_panes = "A2"
    guide = wb.create_sheet(INSTRUCTIONS_SHEET)
    guide.column_dimensions["A"].width = 8
    guide.column_dimensions["B"].width = 100
    guide.append([classroom.STUDENT_LABEL, rater])
    guide["A1"].font = Font(bold=True)
    guide["B1"].fill = PatternFill("solid", fgColor="FFF4E0")
    guide.append(["Homophone rating sheet"])
    guide["A2"].font = Font(bold=True, size=13)
    guide.append([])
    guide.append(["Task", "How natural and recognisable is each sound-alike as a stand-in for the slang word?"])
    guide.append([])
    guide.append(["Step", "What to do"])
    for k, text in enumerate(RATING_STEPS, start=1):
        guide.append([k, text])
    guide.append([])
    guide.append(["Rating", "Meaning"])
    for level, text in RATING_GUIDE:
        guide.append([level, text])
    for row in guide.iter_rows():
        for cell in row:
            cell.alignment = Alignment(wrap_text=True, vertical="top")
            if cell.value in ("Task", "Step", "What to do", "Rating", "Meaning"):
                cell.font = Font(bold=True)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


def write_rating_sheets(cands_by_word: Mapping[str, Sequence[str]], words: Sequence[str], per_word: int,
                        raters: str | int, out_dir: str | os.PathLike, seed: int = 0) -> list[Path]:
    """``homophones_<rater>.xlsx`` for every rater in ``out_dir``: the same sample of
    candidates (:func:`rating_items`), each rater's rows in a different order."""
    items = rating_items(cands_by_word, words, per_word, seed)
    out = Path(out_dir)
    return [write_rating_workbook(items, name, out / f"homophones_{name}.xlsx", seed=seed * 1000 + k + 1)
            for k, name in enumerate(params.person_names(raters))]


@dataclass(frozen=True)
class RatingSheet:
    """One returned homophone workbook: its rated rows and which rows are unfinished."""

    rater: str
    ratings: pd.DataFrame  # rater, word, candidate, rating (rated rows of finished rows)
    file: Path
    n_rows: int
    has_done_column: bool = False
    unfinished_rows: tuple[int, ...] = ()
    unfinished_ratings: pd.DataFrame | None = None  # ratings entered in rows not marked done
    item_rows: tuple[int, ...] = ()  # the Excel rows that hold a candidate

    def open_rows(self) -> list[int]:
        """Rows that count as not rated: not marked done; in a workbook without a done column,
        every row when nothing at all was rated."""
        if self.has_done_column:
            return list(self.unfinished_rows)
        return list(self.item_rows) if self.ratings.empty else []


def _rater_name(student: str | None, path: Path) -> str:
    """A rating workbook's student: its Student: field, else the file name without ``homophones_``."""
    return student or path.stem.removeprefix("homophones_")


def rating_sheet_student(path: str | os.PathLike) -> str:
    """The student of a returned rating workbook, named as :func:`read_rating_sheet` names them."""
    from openpyxl import load_workbook

    path = Path(path)
    try:
        wb = load_workbook(path, read_only=True)
    except Exception as exc:  # not a workbook, or a damaged one
        raise InputError(f"cannot be read as an .xlsx workbook ({type(exc).__name__})", file=path) from None
    try:
        return _rater_name(classroom.workbook_student(wb, INSTRUCTIONS_SHEET), path)
    finally:
        wb.close()


def read_rating_sheet(path: str | os.PathLike, cands_by_word: Mapping[str, Sequence[str]]) -> RatingSheet:
    """One returned workbook of :func:`write_rating_sheets`. The rater is the workbook's
    ``Student:`` field (else the file name without ``homophones_``).

    Every wrong header, unknown slang word, candidate Algorithm 1 does not make, rating
    outside 1–5, bad done mark or repeated row is reported at once
    (:class:`~helpers.core.errors.InputErrors`), each naming the workbook, sheet, row, cell
    and value."""
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter

    path = Path(path)
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # not a workbook, or a damaged one
        raise InputError(f"cannot be read as an .xlsx workbook ({type(exc).__name__})", file=path) from None
    try:
        if RATING_SHEET not in wb.sheetnames:
            raise InputError(f"has no sheet {RATING_SHEET!r}", file=path, value=wb.sheetnames,
                             expected="a workbook made by `python -m helpers template homophones`")
        rows = list(wb[RATING_SHEET].iter_rows(values_only=True))
        student = classroom.workbook_student(wb, INSTRUCTIONS_SHEET)
    finally:
        wb.close()
    header = [str(h).strip() if h is not None else None for h in (rows[0] if rows else ())]
    for k, name in enumerate(RATING_REQUIRED):
        got = header[k] if k < len(header) else None
        if got != name:
            raise InputError("the header row was changed", file=path, sheet=RATING_SHEET, row=1,
                             cell=f"{'ABCD'[k]}1", value=got, expected=", ".join(RATING_HEADER))
    done_at = next((k for k, h in enumerate(header) if h == classroom.DONE_HEADER), None)
    rater = _rater_name(student, path)
    out, early, seen, problems, unfinished, item_rows = [], [], {}, [], [], []
    for r, values in enumerate(rows[1:], start=2):
        values = tuple(values) + (None,) * (len(header) - len(values))
        _, word, cand, rating = values[:4]
        if word is None and cand is None and rating is None:
            continue
        item_rows.append(r)
        word, cand = str(word or "").strip(), str(cand or "").strip()
        if word not in cands_by_word:
            problems.append(InputError("is not one of the slang words", file=path, sheet=RATING_SHEET, row=r,
                                       column="slang_word", cell=f"B{r}", value=word,
                                       expected=" or ".join(cands_by_word)))
            continue
        if cand not in set(cands_by_word[word]):
            problems.append(InputError(f"is not a candidate Algorithm 1 generates for {word}", file=path,
                                       sheet=RATING_SHEET, row=r, column="candidate", cell=f"C{r}", value=cand))
            continue
        if (word, cand) in seen:
            problems.append(InputError(f"the same candidate is listed twice (first in row {seen[(word, cand)]})",
                                       file=path, sheet=RATING_SHEET, row=r, column="candidate", cell=f"C{r}",
                                       value=cand))
            continue
        seen[(word, cand)] = r
        try:
            score = params.whole_score(rating, RATING_LEVELS)
        except ValueError:
            problems.append(InputError("a rating must be a whole number from 1 to 5 (or empty)", file=path,
                                       sheet=RATING_SHEET, row=r, column="rating", cell=f"D{r}", value=rating))
            continue
        before = len(problems)
        finished = done_at is None or classroom.row_done(
            values[done_at], problems, file=path, sheet=RATING_SHEET, row=r, column=classroom.DONE_HEADER,
            cell=f"{get_column_letter(done_at + 1)}{r}")
        if len(problems) > before:  # a bad done mark: the row is reported, not read
            continue
        if not finished:
            unfinished.append(r)
        if score is not None:
            (out if finished else early).append({"rater": rater, "word": word, "candidate": cand, "rating": score})
    raise_all(problems)
    columns = ["rater", "word", "candidate", "rating"]
    return RatingSheet(rater, pd.DataFrame(out, columns=columns), path, len(item_rows), done_at is not None,
                       tuple(unfinished), pd.DataFrame(early, columns=columns), tuple(item_rows))


def read_rating_workbook(path: str | os.PathLike, cands_by_word: Mapping[str, Sequence[str]]) -> pd.DataFrame:
    """One returned workbook as ``rater, word, candidate, rating`` (rated rows that count;
    see :func:`read_rating_sheet`)."""
    return read_rating_sheet(path, cands_by_word).ratings


@dataclass(frozen=True)
class ClassRatings:
    """A class's homophone ratings averaged per candidate, and what was left out."""

    ratings: pd.DataFrame  # word, candidate, avg_score, n_raters
    files: tuple[str, ...]
    notes: tuple[str, ...] = ()
    students: tuple[str, ...] = ()


def read_class_ratings(paths_: Sequence[str | os.PathLike], cands_by_word: Mapping[str, Sequence[str]],
                       unfinished: str = "stop", notes: Sequence[str] = (),
                       unusable: Sequence[InputError] = ()) -> ClassRatings:
    """All returned workbooks, averaged per candidate (:func:`average_ratings`), every
    problem of every workbook at once: bad entries, two workbooks of the same student,
    unfinished rows. ``unfinished`` (:data:`helpers.core.classroom.UNFINISHED_CHOICES`):
    ``"stop"`` reports them, ``"drop_rows"`` leaves those rows of that student out,
    ``"drop_students"`` leaves out every student with one; a student who finished nothing
    is left out under both. ``unusable``: files of the class folder that are not
    workbooks, reported with the rest."""
    unfinished = classroom.unfinished_choice(unfinished)
    if not paths_ and not unusable:
        raise InputError("no workbook given", expected="one or more .xlsx files")
    sheets, problems = [], list(unusable)
    for p in paths_:
        try:
            sheets.append(read_rating_sheet(p, cands_by_word))
        except InputError as exc:
            problems.append(exc)
    problems += classroom.unique_students([(s.rater, s.file) for s in sheets])
    progress = [classroom.Progress(s.rater, s.file, RATING_SHEET, tuple(s.open_rows()), s.n_rows) for s in sheets]
    settled = classroom.settle_unfinished(progress, unfinished)
    raise_all([*problems, *settled.problems])
    kept_files = {p.file for p in settled.kept}
    kept = [s for s in sheets if s.file in kept_files]  # a sheet's unfinished rows are in s.unfinished_ratings
    out_notes = [*notes, *settled.notes]
    if not kept:
        raise InputError("no student is left once the unfinished workbooks are left out",
                         value=[str(s.file) for s in sheets])
    long = pd.concat([s.ratings for s in kept], ignore_index=True)
    if long.empty:
        raise InputError("no rating was entered in any finished row", expected="ratings 1-5 in column D")
    return ClassRatings(average_ratings(long), tuple(str(s.file) for s in kept), tuple(out_notes),
                        tuple(s.rater for s in kept))


def read_rating_workbooks(paths_: Sequence[str | os.PathLike], cands_by_word: Mapping[str, Sequence[str]],
                          unfinished: str = "stop") -> pd.DataFrame:
    """All returned workbooks, averaged per candidate: ``word, candidate, avg_score,
    n_raters`` (a candidate counts for the raters who rated it); see :func:`read_class_ratings`."""
    return read_class_ratings(paths_, cands_by_word, unfinished).ratings


def average_ratings(long: pd.DataFrame) -> pd.DataFrame:
    """``rater, word, candidate, rating`` -> ``word, candidate, avg_score, n_raters``.

    Examples
    --------
    >>> long = pd.DataFrame({"rater": ["a", "b", "a"], "word": "尼玛", "candidate": ["你妈", "你妈", "泥马"],
    ...                      "rating": [5, 4, 2]})
    >>> average_ratings(long).values.tolist()
    [['尼玛', '你妈', 4.5, 2], ['尼玛', '泥马', 2.0, 1]]
    """
    return (long.groupby(["word", "candidate"], sort=False)
            .agg(avg_score=("rating", "mean"), n_raters=("rating", "size")).reset_index())
