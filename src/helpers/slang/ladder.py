"""Chapter 6's ladder of language models: which rungs there are (Kneser–Ney orders, word lists,
character transformers, any ``hf_model``, :data:`LADDER_RUNGS`), each rung trained or loaded and
scored on the same held-out posts and candidates (:func:`ladder_scores`), and how much of the
candidates a word list covers (:func:`word_list_coverage`). The scorers are
:mod:`helpers.slang.language_models`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd
from tqdm import tqdm

from ..core import cache
from .language_models import (
    GPT_SIZES,
    CausalLMScorer,
    KneserNeyLM,
    MaskedLMScorer,
    WordUnigramScorer,
    jieba_scorer,
    perplexity,
    self_information_table,
    train_char_gpt,
    wordfreq_scorer,
)

#: Rungs of the ladder: Kneser–Ney orders, word unigram lists, character transformers
#: (:data:`GPT_SIZES`); ``hf:<folder>`` is added for ``hf_model``.
KN_RUNGS = {f"kn-{k}": k for k in range(2, 7)}

WORD_RUNGS = ("wordfreq", "jieba")

LADDER_RUNGS = (*KN_RUNGS, *WORD_RUNGS, *GPT_SIZES)

DEFAULT_LADDER = ("kn-2", "kn-3", "kn-4", "kn-5", "wordfreq", "jieba", "gpt-0.1M", "gpt-0.3M", "gpt-1M")

#: The measured comparison (``data/measured/lm_ladder_comparison.csv``): every rung, the 5 M transformer too.
MEASURED_LADDER = ("kn-2", "kn-3", "kn-4", "kn-5", "wordfreq", "jieba", *GPT_SIZES)

LADDER_VERSION = 1  # bump when a rung is scored differently

FAMILIES = {
    "kn": "Kneser–Ney n-gram",
    "wordfreq": "word unigram",
    "jieba": "word unigram",
    "gpt": "character transformer",
    "hf": "Hugging Face checkpoint",
}


def rung_family(rung: str) -> str:
    """The family of a rung name (``kn-3`` → Kneser–Ney n-gram, ``gpt-1M`` → character transformer …)."""
    return FAMILIES[rung.split("-")[0].split(":")[0]]


def ladder_scores(
    rungs: Sequence[str],
    train_texts: Sequence[str],
    heldout: Sequence[str],
    cands_by_word: Mapping[str, Sequence[str]],
    contexts: Mapping[str, Sequence[str]] | None = None,
    gpt_steps: int = 60,
    seed: int = 0,
    hf_model: str | None = None,
    hf_kind: str = "causal",
    use_cache: bool = True,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Self-information of every candidate under each rung of the ladder, and each rung's
    held-out perplexity (:func:`perplexity`, per character).

    Kneser–Ney rungs are trained on ``train_texts`` (one count at the highest order asked
    for gives the lower orders); transformer rungs are trained on them for ``gpt_steps``
    steps (seeded by ``seed``); word rungs need no training. Each rung's result is cached
    under ``lm-ladder`` keyed by the rung, the texts, the held-out text, the candidates,
    the contexts and the settings, so a warm run trains and scores nothing.

    Returns ``scores`` (``rung, scorer, word, candidate, I_no_context, I_context,
    n_contexts``, and ``found`` for word rungs: word / pieces / characters) and ``models``
    (``rung, scorer, family, parameters, heldout_perplexity, heldout_characters,
    train_seconds, score_seconds, computed``; ``computed`` is False for a rung read from
    the cache, whose seconds are those of the run that made it).

    Parameters
    ----------
    rungs : sequence of str
        Rung names (``kn-3``, ``gpt-1M``, word-list rungs, …; :data:`FAMILIES`).
    train_texts : sequence of str
        Texts the trainable rungs learn from.
    heldout : sequence of str
        Texts of the held-out perplexity.
    cands_by_word : mapping of str to sequence of str
        Each slang word's candidates.
    contexts : mapping of str to sequence of str, optional
        Posts per slang word, for the self-information in context.
    gpt_steps : int
        Training steps of the transformer rungs.
    seed : int
        Seed of the transformer rungs.
    hf_model : str, optional
        A Hugging Face model for the ``hf`` rung.
    hf_kind : str
        ``causal`` or ``masked``.
    use_cache : bool
        Read and write each rung's result in the cache.

    Returns
    -------
    tuple of pandas.DataFrame
        ``(scores, models)`` as above: I(x) = −log2 P(x) per rung (:func:`self_information_table`)
        and PP = 2^(−Σ log2 P(t) / Σ |t|) on ``heldout`` (:func:`perplexity`).

    References
    ----------
    Qian et al. (2025). W-NUT, §4.1, Eq. 1 (self-information).
    Chen, S. F. & Goodman, J. (1999). An empirical study of smoothing techniques for language
    modeling. Computer Speech & Language 13(4), 359–394 (interpolated Kneser–Ney).
    """
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
            return wordfreq_scorer(), time.perf_counter() - started
        if rung == "jieba":
            return jieba_scorer(), time.perf_counter() - started
        if rung in GPT_SIZES:
            model = train_char_gpt(train_texts, rung, steps=gpt_steps, seed=seed, use_cache=use_cache)
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
            if isinstance(scorer, WordUnigramScorer):
                table["found"] = scorer.coverage(table["candidate"].tolist())["found"].to_numpy()
            ppl = perplexity(scorer, heldout)
            parameters = getattr(scorer, "parameters", None)
            if isinstance(scorer, KneserNeyLM):
                parameters = sum(len(c) for c in scorer.counts[1:])  # stored n-gram counts
            elif isinstance(scorer, WordUnigramScorer):
                parameters = len(scorer.p)  # listed words
            return {
                "scores": table,
                "info": {
                    "scorer": scorer.name,
                    "family": rung_family(rung),
                    "parameters": parameters,
                    "heldout_perplexity": ppl,
                    "heldout_characters": sum(map(len, heldout)),
                    "train_seconds": train_seconds,
                    "score_seconds": time.perf_counter() - started,
                },
            }

        inputs = [rung, heldout, cands, contexts]
        if rung in KN_RUNGS or rung in GPT_SIZES:
            inputs += [train_texts, gpt_steps if rung in GPT_SIZES else None, seed if rung in GPT_SIZES else None]
        if rung.startswith("hf:"):
            inputs += [cache.file_identity(hf_model), hf_kind]
        stored = cache.cached(
            "lm-ladder",
            LADDER_VERSION,
            inputs,
            compute,
            use_cache=use_cache,
            describe=f"{rung}: {sum(map(len, cands.values()))} candidates, {len(heldout)} held-out texts",
        )
        score_frames.append(stored["scores"].drop(columns="scorer").assign(rung=rung, scorer=stored["info"]["scorer"]))
        rows.append({"rung": rung, **stored["info"], "computed": bool(computed)})
    scores = pd.concat(score_frames, ignore_index=True)
    first = ["rung", "scorer", "word", "candidate"]
    return scores[first + [c for c in scores.columns if c not in first]], pd.DataFrame(rows)


def word_list_coverage(scores: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """For each word-list rung: how many candidates (all, and the rated ones) the list has
    whole, and how many fell back to dictionary pieces or to characters.

    Parameters
    ----------
    scores : DataFrame
        :func:`ladder_scores`' scores; the word-list rungs carry ``found`` ("word", "pieces"
        or "characters"), the other rungs NaN.
    ratings : DataFrame
        ``word, candidate, avg_score``.

    Returns
    -------
    DataFrame
        ``rung, candidates, found, n, rated``: per rung and way of being found, ``n`` candidates,
        ``rated`` of them rated; ``candidates`` the rung's total. Empty without word-list rungs.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.1 (the candidates) and §4.2 (the ratings); n and rated are
    counts of candidates per rung and way of being found.
    """
    if "found" not in scores:
        return pd.DataFrame(columns=["rung", "candidates", "found", "n", "rated"])
    words = scores.dropna(subset=["found"])
    rated = set(zip(ratings["word"], ratings["candidate"]))
    words = words.assign(rated=[(w, c) in rated for w, c in zip(words["word"], words["candidate"])])
    return (
        words.groupby(["rung", "found"], sort=False)
        .agg(n=("candidate", "size"), rated=("rated", "sum"))
        .reset_index()
        .assign(candidates=len(words) // max(words["rung"].nunique(), 1))[["rung", "candidates", "found", "n", "rated"]]
    )
