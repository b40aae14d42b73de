"""Agreement of the homophone scores with human ratings (Qian et al., W-NUT 2025, Tables 2–3 and 8).

* :func:`human_correlations`: Spearman ρ of each method's score with the ratings, pooled
  over all words as the paper computes it;
* :func:`spearman_by_word` and :func:`within_word_correlations`: per word, and as a mean
  within-word ρ with a within-word permutation test
  (:func:`helpers.core.statistics.stats.within_group_permutation_test`) and a word-jackknife interval;
* :func:`ladder_correlations`: the same for every rung of the language-model ladder
  (:func:`helpers.slang.ladder.ladder_scores`);
* :func:`word_levels`: how far apart the words' scores sit before any ranking;
* :func:`resolution`: the smallest difference in ρ these ratings can tell apart.
"""

from __future__ import annotations

import pandas as pd

from ..core.statistics.stats import (
    jackknife_t_interval,
    mean_rho_interval,
    spearman_defined,
    spearman_interval,
    within_group_permutation_test,
)

METHOD_COLUMNS = {  # score column -> (method, context)
    "percentile": ("percentile (Algorithm 2)", "n/a"),
    "released_score": ("released per-character percentile", "n/a"),
    "I_no_context": ("self-information", "without"),
    "I_context": ("self-information", "with"),
}


def _merged(scores: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    return ratings[["word", "candidate", "avg_score"]].merge(scores, on=["word", "candidate"], how="inner")


def _methods(merged: pd.DataFrame, scorer: str):
    for column, (method, context) in METHOD_COLUMNS.items():
        if column in merged.columns:
            yield (
                column,
                {
                    "method": method,
                    "scorer": scorer if column.startswith("I_") else "character frequency D",
                    "context": context,
                },
            )


def human_correlations(scores: pd.DataFrame, ratings: pd.DataFrame, scorer: str) -> pd.DataFrame:
    """Spearman ρ of each method's score with human ratings (``word, candidate, avg_score``),
    pooled over the candidates of all words present in both, as the paper's Tables 2–3 do.
    Returns ``method, scorer, context, rho, p, n``.

    The pooled ρ mixes two things: how each word's candidates are ranked, and how the
    words differ from one another (草泥马's three-character forms carry more bits than the
    two-character ones). :func:`spearman_by_word` and :func:`within_word_correlations`
    separate them.

    Parameters
    ----------
    scores : pandas.DataFrame
        ``word, candidate`` and score columns (:data:`METHOD_COLUMNS`).
    ratings : pandas.DataFrame
        ``word, candidate, avg_score``.
    scorer : str
        Name of the language model behind the self-information columns.

    Returns
    -------
    pandas.DataFrame
        ``method, scorer, context, rho, p, n``: ρ = 1 − 6 Σ d² / (n (n² − 1)) with d the rank
        differences (Pearson r of the ranks when there are ties), p scipy's t approximation.

    References
    ----------
    Qian et al. (2025). Automatically Generating Chinese Homophone Words to Probe Machine
    Translation Estimation Systems. W-NUT, §4.2 and Tables 2–3.
    Spearman, C. (1904). The proof and measurement of association between two things. American
    Journal of Psychology 15(1), 72–101.
    """
    from scipy.stats import spearmanr

    merged = _merged(scores, ratings)
    rows = []
    for column, labels in _methods(merged, scorer):
        res = spearmanr(merged[column], merged["avg_score"])
        rows.append({**labels, "rho": float(res.statistic), "p": float(res.pvalue), "n": len(merged)})
    return pd.DataFrame(rows, columns=["method", "scorer", "context", "rho", "p", "n"])


def spearman_by_word(
    scores: pd.DataFrame, ratings: pd.DataFrame, scorer: str, n_perm: int = 10000, seed: int = 0
) -> pd.DataFrame:
    """Spearman ρ of each method's score with the ratings *within* each slang word.

    Returns ``method, scorer, context, word, rho, p, p_permutation, n``: ``p`` is scipy's
    (a t approximation, poor for five candidates), ``p_permutation`` the two-sided
    permutation p of that word alone (exact up to :data:`~helpers.core.statistics.correlation.MAX_EXACT_GROUP` candidates).
    ρ is NaN for a word with fewer than 3 rated candidates or constant ratings.

    Parameters
    ----------
    scores : pandas.DataFrame
        ``word, candidate`` and score columns (:data:`METHOD_COLUMNS`).
    ratings : pandas.DataFrame
        ``word, candidate, avg_score``.
    scorer : str
        Name of the language model behind the self-information columns.
    n_perm : int
        Random permutations when a word has too many candidates for the exact test.
    seed : int
        Seed of the random permutations.

    Returns
    -------
    pandas.DataFrame
        One row per method and word; ρ as in :func:`human_correlations` over that word's
        candidates; p_permutation = share of the orders of the ratings whose |ρ| ≥ the observed |ρ|.

    References
    ----------
    Spearman, C. (1904). American Journal of Psychology 15(1), 72–101.
    Good, P. (2005). Permutation, Parametric and Bootstrap Tests of Hypotheses, 3rd ed.

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
            if spearman_defined(x, y):
                res = spearmanr(x, y)
                rho, p = float(res.statistic), float(res.pvalue)
                p_perm = within_group_permutation_test(x, y, [word] * len(g), n_perm, seed).p_value
            else:
                rho = p = p_perm = float("nan")
            rows.append({**labels, "word": word, "rho": rho, "p": p, "p_permutation": p_perm, "n": len(g)})
    return pd.DataFrame(rows, columns=["method", "scorer", "context", "word", "rho", "p", "p_permutation", "n"])


def within_word_correlations(
    scores: pd.DataFrame, ratings: pd.DataFrame, scorer: str, n_perm: int = 10000, seed: int = 0
) -> pd.DataFrame:
    """Per method: the pooled ρ (the paper's way) beside the mean within-word ρ and its
    within-word permutation test (:func:`~helpers.core.statistics.stats.within_group_permutation_test`).

    Returns ``method, scorer, context, pooled_rho, pooled_p, mean_within_word_rho,
    p_within_word, n`` (candidates in the pooled ρ), ``n_words, n_within_word`` (words and
    candidates in the within-word mean: words with at least 3 rated candidates and varying
    ratings), ``exact, n_permutations``, and ``pooled_jackknife_ci_low,
    pooled_jackknife_ci_high``: a 95 % interval of the pooled ρ that resamples *words*, not
    candidates (delete-one-word jackknife, t with words − 1 degrees of freedom,
    :func:`~helpers.core.statistics.stats.jackknife_t_interval`, cut to [−1, 1]). The candidates of one
    word share its level, so an interval that counts them as independent pairs
    (:func:`~helpers.core.statistics.stats.spearman_interval`) is too narrow.

    Parameters
    ----------
    scores : pandas.DataFrame
        ``word, candidate`` and score columns (:data:`METHOD_COLUMNS`).
    ratings : pandas.DataFrame
        ``word, candidate, avg_score``.
    scorer : str
        Name of the language model behind the self-information columns.
    n_perm : int
        Random permutations when the words have too many candidates for the exact test.
    seed : int
        Seed of the random permutations.

    Returns
    -------
    pandas.DataFrame
        One row per method, columns as above: mean_within_word_rho = (1/W) Σ_w ρ_w over the W
        words with a defined ρ; p_within_word the share of within-word permutations of the
        ratings whose mean ρ is at least as far from 0; the jackknife interval
        ρ̂ ± t_{W−1} · √((W − 1)/W · Σ_w (ρ_(w) − ρ̄_(·))²), ρ_(w) the pooled ρ without word w.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.2 and Tables 2–3 (the pooled ρ).
    Good, P. (2005). Permutation, Parametric and Bootstrap Tests of Hypotheses, 3rd ed.
    (permutations within blocks).
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 11 (the jackknife).

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
        rows.append(
            {
                **labels,
                "pooled_rho": pool["rho"],
                "pooled_p": pool["p"],
                "mean_within_word_rho": test.statistic,
                "p_within_word": test.p_value,
                "n": int(pool["n"]),
                "n_words": test.n_groups,
                "n_within_word": test.n_items,
                "exact": test.exact,
                "n_permutations": test.n_permutations,
                "pooled_jackknife_ci_low": low,
                "pooled_jackknife_ci_high": high,
            }
        )
    return pd.DataFrame(rows)


def _word_jackknife(merged: pd.DataFrame, column: str, rho: float) -> tuple[float, float]:
    """Delete-one-word jackknife t interval of the pooled Spearman ρ, cut to [−1, 1]."""
    from scipy.stats import spearmanr

    words = list(dict.fromkeys(merged["word"]))
    if len(words) < 3:
        return float("nan"), float("nan")
    loo = [
        spearmanr(rest[column], rest["avg_score"]).statistic for rest in (merged[merged["word"] != w] for w in words)
    ]
    low, high = jackknife_t_interval(rho, loo)
    return max(low, -1.0), min(high, 1.0)


def ladder_correlations(
    scores: pd.DataFrame, models: pd.DataFrame, ratings: pd.DataFrame, n_perm: int = 10000, seed: int = 0
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per rung of :func:`~helpers.slang.ladder.ladder_scores` and context: the pooled ρ (the paper's Tables 2–3
    way) with its Fisher and word-jackknife intervals, the mean within-word ρ with its
    exact (or permutation) p (:func:`within_word_correlations`) and a t interval over the
    words' ρ, beside the rung's held-out perplexity. Returns ``summary`` (``rung, scorer,
    family, parameters, heldout_perplexity, context, pooled_rho, pooled_p,
    pooled_ci_low, pooled_ci_high, pooled_jackknife_ci_low, pooled_jackknife_ci_high,
    mean_within_word_rho, p_within_word, within_ci_low, within_ci_high, exact,
    n_permutations, n, n_words``) and ``by_word`` (``rung, scorer, context, word, rho, p,
    p_permutation, n``).

    Parameters
    ----------
    scores : pandas.DataFrame
        The ladder's candidate scores, one ``rung`` column beside ``word, candidate`` and the score
        columns (:func:`helpers.slang.ladder.ladder_scores`).
    models : pandas.DataFrame
        One row per rung: ``rung, scorer, family, parameters, heldout_perplexity``.
    ratings : pandas.DataFrame
        ``word, candidate, avg_score``.
    n_perm : int
        Random permutations when the exact test is too large.
    seed : int
        Seed of the random permutations.

    Returns
    -------
    tuple of pandas.DataFrame
        ``(summary, by_word)`` as above. The Fisher interval is tanh(atanh(ρ) ± z_q · √(1.06 / (n − 3)));
        the within-word interval is mean ± t_{W−1} · sd / √W over the W words' ρ.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.2 and Tables 2–3.
    Fieller, E. C., Hartley, H. O. & Pearson, E. S. (1957). Tests for rank correlation
    coefficients. I. Biometrika 44(3/4), 470–481 (the variance 1.06 / (n − 3)).
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 11 (the jackknife).
    """
    summaries, words = [], []
    info = models.set_index("rung")
    for rung, frame in scores.groupby("rung", sort=False):
        name = info.loc[rung, "scorer"]
        per_word = spearman_by_word(frame, ratings, name, n_perm, seed)
        within = within_word_correlations(frame, ratings, name, n_perm, seed)
        for _, row in within.iterrows():
            w = per_word[per_word["context"] == row["context"]]
            low, high = spearman_interval(row["pooled_rho"], int(row["n"]))
            wl, wh = mean_rho_interval(w["rho"])
            summaries.append(
                {
                    "rung": rung,
                    "scorer": name,
                    "family": info.loc[rung, "family"],
                    "parameters": info.loc[rung, "parameters"],
                    "heldout_perplexity": info.loc[rung, "heldout_perplexity"],
                    "context": row["context"],
                    "pooled_rho": row["pooled_rho"],
                    "pooled_p": row["pooled_p"],
                    "pooled_ci_low": low,
                    "pooled_ci_high": high,
                    "pooled_jackknife_ci_low": row["pooled_jackknife_ci_low"],
                    "pooled_jackknife_ci_high": row["pooled_jackknife_ci_high"],
                    "mean_within_word_rho": row["mean_within_word_rho"],
                    "p_within_word": row["p_within_word"],
                    "within_ci_low": wl,
                    "within_ci_high": wh,
                    "exact": row["exact"],
                    "n_permutations": row["n_permutations"],
                    "n": row["n"],
                    "n_words": row["n_words"],
                }
            )
        words.append(per_word.drop(columns="method").assign(rung=rung))
    by_word = pd.concat(words, ignore_index=True)
    return pd.DataFrame(summaries), by_word[["rung", "scorer", "context", "word", "rho", "p", "p_permutation", "n"]]


def word_levels(scores: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """Mean score per slang word and its distance from the mean of the other words.

    For every score column of :data:`METHOD_COLUMNS`, over all candidates and over the rated
    ones: how far apart the words sit before any candidate is ranked, which a pooled ρ counts
    and a within-word ρ does not. ``above_others`` of word w is mean_w − (Σ_{v≠w} mean_v) / (W − 1)
    over the W words (NaN for a single word).

    Parameters
    ----------
    scores : DataFrame
        ``word, candidate`` and score columns (:func:`helpers.slang.candidates.score_candidates`).
    ratings : DataFrame
        ``word, candidate, avg_score``.

    Returns
    -------
    DataFrame
        ``candidates, column, word, n, mean, above_others`` (``candidates``: "all" or "rated").

    References
    ----------
    Qian et al. (2025). W-NUT, §4.1 (the scores) and §4.2 (the ratings); the level of a word is its
    arithmetic mean score, as above.

    Examples
    --------
    >>> s = pd.DataFrame({"word": list("aab"), "candidate": ["a1", "a2", "b1"], "I_no_context": [1.0, 3, 10]})
    >>> r = pd.DataFrame({"word": ["a"], "candidate": ["a1"], "avg_score": [2.0]})
    >>> word_levels(s, r)[["candidates", "word", "mean", "above_others"]].to_string(index=False)
    'candidates word  mean  above_others\\n       all    a   2.0          -8.0\\n       all    b  10.0           8.0\\n     rated    a   1.0           NaN'
    """
    rated = ratings[["word", "candidate"]].merge(scores, on=["word", "candidate"])
    rows = []
    for which, frame in (("all", scores), ("rated", rated)):
        for column in METHOD_COLUMNS:
            if column not in frame or frame.empty:
                continue
            means = frame.groupby("word", sort=False)[column].agg(["size", "mean"])
            total, words = means["mean"].sum(), len(means)
            for word, (n, mean) in means.iterrows():
                others = (total - mean) / (words - 1) if words > 1 else float("nan")
                rows.append(
                    {
                        "candidates": which,
                        "column": column,
                        "word": word,
                        "n": int(n),
                        "mean": mean,
                        "above_others": mean - others,
                    }
                )
    return pd.DataFrame(rows, columns=["candidates", "column", "word", "n", "mean", "above_others"])


def resolution(n: int, level: float = 0.95) -> float:
    """Half-width of the approximate interval of a Spearman ρ near 0 from ``n`` pairs.

    Two scorers whose ρ differ by less than this cannot be told apart on these ratings. With
    Fisher's z and the variance 1.06 / (n − 3) of Spearman's z (:func:`~helpers.core.statistics.stats.spearman_interval`),
    the half-width at ρ = 0 is tanh(z_q · √(1.06 / (n − 3))), z_q the normal quantile at (1 + level) / 2.

    Parameters
    ----------
    n : int
        Number of rated candidates (pairs).
    level : float
        Coverage of the interval.

    Returns
    -------
    float
        The upper end of the interval around ρ = 0.

    References
    ----------
    Fieller, E. C., Hartley, H. O., & Pearson, E. S. (1957). Tests for rank correlation
    coefficients. I. Biometrika, 44(3/4), 470–481.

    Examples
    --------
    >>> round(resolution(25), 2), round(resolution(172), 2)
    (0.41, 0.15)
    """
    return spearman_interval(0.0, n, level)[1]
