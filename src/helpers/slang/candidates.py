"""Homophone candidates and their selection (Qian et al., W-NUT 2025, Algorithms 1–2, Eq. 1, pick()).

* Candidates (Algorithm 1): Latinize a slang word with ``pypinyin`` (every reading of a
  polyphonic character), de-Latinize each syllable to every character with that reading
  (pypinyin's character dictionary), keep characters more frequent than a threshold in the
  character-frequency dictionary D, concatenate (:func:`candidates`).
* Percentile baseline (Algorithm 2, Hiruncharoenvate et al. 2015): F_h = Σ D(c) over the
  candidate's characters, sort ascending, percentile = rank / n × 100
  (:func:`percentile_scores`), and the released per-character score.
* Self-information (Eq. 1): I(x) = −log2 P(x) of every candidate under one scorer of
  :mod:`helpers.slang.language_models`, without and with context (:func:`score_candidates`).
* pick(): each method's top k (:func:`top_homophones`), Algorithm 2 in both of its readings,
  and the homophones chosen to perturb posts (:func:`homophone_lists`).
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence

import pandas as pd

from ..core import cache, paths
from .homophone_data import HOMO_REPO, SLANG, SLANG_ROOTS, published_candidates
from .language_models import Scorer, self_information_table

#: Algorithm 2's top-k in the chapter's reading (the most frequent candidates) and as printed.
PERCENTILE_TOP = "percentile (Algorithm 2)"
PERCENTILE_AS_PRINTED = "percentile (Algorithm 2 as printed: P[1:k], least frequent)"


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


@functools.cache
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

    return cache.cached(
        "pinyin-inventory",
        INVENTORY_VERSION,
        [pypinyin.__version__, tone, heteronym],
        build,
        describe=f"pypinyin {pypinyin.__version__}, tone={tone}, heteronym={heteronym}",
    )


def candidates(
    word: str,
    freq: Mapping[str, int],
    threshold: int = 100,
    tone: bool = False,
    heteronym: bool = False,
    roots: Sequence | None = None,
    inventory: Mapping[str, set[str]] | None = None,
) -> list[str]:
    """Algorithm 1: all concatenations of same-sounding characters, each character more
    frequent than ``threshold`` in D (the paper: 100), sorted.

    ``roots`` are the syllables to de-Latinize (one string or list of strings per
    character); default: :func:`latinize` of the word. ``heteronym`` lists polyphonic
    characters under all their readings (in the roots and in the inventory); the released
    lists correspond to default readings only. The original word is kept when it passes.

    Parameters
    ----------
    word : str
        The slang word.
    freq : mapping of str to int
        Character-frequency dictionary D.
    threshold : int
        A character is kept when D(c) > threshold.
    tone : bool
        Match syllables with their tones.
    heteronym : bool
        Use every reading of a polyphonic character.
    roots : sequence, optional
        The syllables to de-Latinize, one string or list of strings per character.
    inventory : mapping of str to set of str, optional
        Syllable → characters with that reading (:func:`syllable_inventory`).

    Returns
    -------
    list of str
        C_w = sorted(c_1 c_2 … c_m for c_i in S_i), the Cartesian product of the sets
        S_i = {c : reading(c) ∈ roots_i and D(c) > threshold}.

    References
    ----------
    Qian et al. (2025). Automatically Generating Chinese Homophone Words to Probe Machine
    Translation Estimation Systems. W-NUT, §4.1, Algorithm 1.
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


def candidate_summary(
    cands_by_word: Mapping[str, Sequence[str]], freq: Mapping[str, int], threshold: int = 100, heteronym: bool = False
) -> pd.DataFrame:
    """Per slang word: its roots, pypinyin's reading, how many candidates Algorithm 1 made,
    how they compare with the released list, and how many a tone-aware or an all-readings
    de-Latinization would make.

    Parameters
    ----------
    cands_by_word : mapping of str to sequence of str
        Each slang word's candidates (:func:`candidates`).
    freq : mapping of str to int
        Character-frequency dictionary D.
    threshold : int
        Frequency threshold of Algorithm 1.
    heteronym : bool
        Whether the tone-aware count uses every reading of a polyphonic character.

    Returns
    -------
    pandas.DataFrame
        ``word, roots, pypinyin_reading, candidates, released, shared, identical, tone_aware,
        all_readings``: counts |C_w|, |released|, |C_w ∩ released|, and |C_w| under the other
        two de-Latinizations.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.1, Algorithm 1.
    """
    rows = []
    for word, found in cands_by_word.items():
        roots = SLANG_ROOTS[word]
        released = published_candidates(word)
        rows.append(
            {
                "word": word,
                "roots": " ".join(roots),
                "pypinyin_reading": " ".join("/".join(r) for r in latinize(word)),
                "candidates": len(found),
                "released": len(released),
                "shared": len(set(found) & set(released)),
                "identical": set(found) == set(released),
                "tone_aware": len(
                    candidates(
                        word,
                        freq,
                        threshold=threshold,
                        tone=True,
                        heteronym=heteronym,
                        roots=[readings(c, True, heteronym) for c in word],
                    )
                ),
                "all_readings": len(candidates(word, freq, threshold=threshold, heteronym=True, roots=roots)),
            }
        )
    return pd.DataFrame(rows)


def percentile_scores(cands: Sequence[str], freq: Mapping[str, int]) -> pd.DataFrame:
    """Algorithm 2 as the paper defines it: F_h = Σ D(c), candidates sorted by F_h ascending
    (ties keep their order), percentile = position (1…n) / n × 100. The chapter's top k
    are the highest percentiles; Algorithm 2 as printed takes the first k after the
    ascending sort (both in :func:`top_homophones`).

    Parameters
    ----------
    cands : sequence of str
        One slang word's candidates.
    freq : mapping of str to int
        Character-frequency dictionary D.

    Returns
    -------
    pandas.DataFrame
        ``candidate, F, percentile`` sorted by percentile, highest first:
        F_h = Σ_i D(c_h^i) and percentile_h = position of h in the ascending sort by F / n × 100.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.1, Algorithm 2.
    Hiruncharoenvate, C., Lin, Z. & Gilbert, E. (2015). Algorithmically bypassing censorship on
    Sina Weibo with nondeterministic homophone substitutions. ICWSM (the baseline it follows).
    """
    f = [sum(freq.get(c, 0) for c in h) for h in cands]
    order = sorted(range(len(cands)), key=lambda i: f[i])
    pos = {i: k + 1 for k, i in enumerate(order)}
    out = pd.DataFrame(
        {"candidate": list(cands), "F": f, "percentile": [pos[i] / len(cands) * 100 for i in range(len(cands))]}
    )
    return out.sort_values("percentile", ascending=False).reset_index(drop=True)


def per_character_percentile(cands: Sequence[str], freq: Mapping[str, int]) -> pd.DataFrame:
    """The score found in the released ``freq_error_words_homo.txt``: for each character
    position, the rank of the character's frequency among that position's alternatives
    divided by their number × 100, summed over positions (not Algorithm 2 as printed).

    Characters of equal frequency are ranked by descending code point. (The only tie among
    the five words is 嘛/麻; ordering them through a Python set, as before, made the score
    change from run to run. This order reproduces the released file for all 172
    candidates.)

    Parameters
    ----------
    cands : sequence of str
        One slang word's candidates, all of one length.
    freq : mapping of str to int
        Character-frequency dictionary D.

    Returns
    -------
    pandas.DataFrame
        ``candidate, score``: score_h = Σ_j rank_j(c_h^j) / n_j × 100, rank_j the position (1…n_j)
        of the character's frequency among the n_j characters found at position j.

    References
    ----------
    Qian et al. (2025). W-NUT, released code and ``freq_candidates/freq_error_words_homo.txt``
    (this score; Algorithm 2 of §4.1 is :func:`percentile_scores`).
    """
    columns = list(zip(*cands))
    ranks = []
    for col in columns:
        options = sorted(set(col), key=lambda c: (freq.get(c, 0), -ord(c)))
        ranks.append({c: (k + 1) / len(options) * 100 for k, c in enumerate(options)})
    return pd.DataFrame({"candidate": list(cands), "score": [sum(r[c] for r, c in zip(ranks, h)) for h in cands]})


def published_per_character_scores() -> pd.DataFrame:
    """The released ``freq_candidates/freq_error_words_homo.txt`` (one Python list of
    ``(candidate, score)`` pairs per slang word and line) as ``candidate, score``."""
    import ast

    text = paths.released_file(HOMO_REPO, "freq_candidates/freq_error_words_homo.txt").read_text(encoding="utf-8")
    pairs = [p for line in text.splitlines() if line.strip() for p in ast.literal_eval(line)]
    return pd.DataFrame(pairs, columns=["candidate", "score"])


def score_candidates(
    cands_by_word: Mapping[str, Sequence[str]],
    freq: Mapping[str, int],
    scorer: Scorer,
    contexts: Mapping[str, Sequence[str]] | None = None,
) -> pd.DataFrame:
    """One row per (word, candidate): Algorithm 2's F and percentile, the released
    per-character score, and self-information without and with context.

    Parameters
    ----------
    cands_by_word : mapping of str to sequence of str
        Each slang word's candidates.
    freq : mapping of str to int
        Character-frequency dictionary D.
    scorer : Scorer
        Language model giving log-probabilities (:mod:`helpers.slang.language_models`).
    contexts : mapping of str to sequence of str, optional
        Posts per slang word, for the self-information in context.

    Returns
    -------
    pandas.DataFrame
        ``word, candidate, F, percentile, released_score, I_no_context`` (and ``I_context``):
        F and percentile of :func:`percentile_scores`, the score of :func:`per_character_percentile`,
        and I(x) = −log2 P(x) (:func:`helpers.slang.language_models.self_information_table`).

    References
    ----------
    Qian et al. (2025). W-NUT, §4.1, Algorithm 2 and Eq. 1.
    """
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

    Parameters
    ----------
    scores : pandas.DataFrame
        One row per (word, candidate) with ``percentile`` and/or ``I_no_context``, ``I_context``
        (:func:`score_candidates`).
    k : int
        How many candidates per list.
    exclude_original : bool
        Leave the slang word itself out.

    Returns
    -------
    pandas.DataFrame
        ``word, method, context, rank, candidate, score``: for each ranking, the first k of the
        candidates sorted by the score (descending, or ascending for the "as printed" and "most
        probable" lists), stable for ties.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.1, Algorithm 2 (W̃ ← P[1:k]) and Eq. 1.

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
        rankings += [
            (column, "self-information, most informative", context, False),
            (column, "self-information, most probable", context, True),
        ]
    rows = []
    for word, group in scores.groupby("word", sort=False):
        g = group[group["candidate"] != word] if exclude_original else group
        for column, method, context, ascending in rankings:
            if column not in g.columns:
                continue
            best = g.sort_values(column, ascending=ascending, kind="stable").head(k)
            for rank, (_, r) in enumerate(best.iterrows(), start=1):
                rows.append(
                    {
                        "word": word,
                        "method": method,
                        "context": context,
                        "rank": rank,
                        "candidate": r["candidate"],
                        "score": r[column],
                    }
                )
    return pd.DataFrame(rows)


def top_ratings(top: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """How each top-k list fares with the raters: per method and context, how many of its
    candidates were rated and their mean rating (``method, context, listed, rated,
    mean_rating``).

    Parameters
    ----------
    top : pandas.DataFrame
        The top-k lists (:func:`top_homophones`).
    ratings : pandas.DataFrame
        ``word, candidate, avg_score``.

    Returns
    -------
    pandas.DataFrame
        ``method, context, listed, rated, mean_rating``: mean_rating = Σ avg_score / rated over the
        listed candidates that were rated.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.2 (the human ratings from 1 to 5).
    """
    merged = top.merge(ratings[["word", "candidate", "avg_score"]], on=["word", "candidate"], how="left")
    return (
        merged.groupby(["method", "context"], sort=False)
        .agg(listed=("candidate", "size"), rated=("avg_score", "count"), mean_rating=("avg_score", "mean"))
        .reset_index()
    )


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
