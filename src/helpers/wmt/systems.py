"""Chapter 8's systems: Marot's approximate randomisation over segments and documents with Holm
and mt-metrics-eval's significance clusters (:func:`system_tests`), how far segment-level tests
overstate certainty (:func:`certainty_overstatement`, :func:`certainty_verdict`), and WMT24
ESA's human ranking beside AutoRank (:func:`esa_ranking`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.formats import esa_rankings
from ..core.statistics import stats


@dataclass(frozen=True)
class SystemTests:
    """:func:`system_tests`: the pairs' tests and the systems' significance clusters."""

    pairs: pd.DataFrame
    clusters: pd.DataFrame


def system_tests(wide: pd.DataFrame, docs, n_trials: int = 10000, seed: int = 0, alpha: float = 0.05) -> SystemTests:
    """Which systems differ? Marot's paired approximate randomisation for every pair of systems,
    over segments and over documents, Holm's correction within each, and significance clusters.

    For a pair whose better system is a, the observed statistic is d = mean(b) − mean(a)
    (lower is better); each trial swaps a's and b's scores of every unit (segment, or whole
    document) with probability ½, and p = (c + 1) / (T + 1) with c the trials reaching d,
    or exact when all 2^k swap patterns are enumerated
    (:func:`helpers.core.statistics.stats.approximate_randomization`). The clusters are mt-metrics-eval's:
    down the ranking, a system starts a new cluster when it is significantly worse than any
    system of the current one (:func:`helpers.core.statistics.stats.significance_clusters`), from the raw
    and from the Holm-adjusted p-values.

    Parameters
    ----------
    wide
        Segments × systems of segment scores (:func:`segment_matrix`).
    docs
        The document of each row of ``wide``.
    n_trials, seed
        Randomisation trials per pair, and their seed.
    alpha
        Significance level of the clusters.

    Returns
    -------
    SystemTests
        ``pairs``: ``system_a, system_b, n_items, n_documents, mean_a, mean_b, difference,
        p_segments, p_segments_holm, p_documents, p_documents_holm``; ``clusters``: ``system,
        score, rank_segments, rank_segments_holm, rank_documents, rank_documents_holm``.

    References
    ----------
    Riezler and Maxwell (2005), *On some pitfalls in automatic evaluation and significance
    testing for MT*, ACL workshop on intrinsic and extrinsic evaluation measures; Marot
    (google-research/google-research, ``marot/marot-sigtests.js``); Holm (1979),
    Scandinavian Journal of Statistics 6; google-research/mt-metrics-eval (significance
    clusters).
    """
    seg = stats.approximate_randomization(wide, n_trials, seed)
    doc = stats.approximate_randomization(wide, n_trials, seed, clusters=docs)
    pairs = seg.rename(columns={"p": "p_segments"}).drop(columns="n_units")
    pairs.insert(3, "n_documents", int(doc["n_units"].iloc[0]) if len(doc) else 0)
    pairs["p_segments_holm"] = stats.holm(pairs["p_segments"].to_numpy())
    pairs["p_documents"] = doc["p"].to_numpy()
    pairs["p_documents_holm"] = stats.holm(pairs["p_documents"].to_numpy())
    order = list(dict.fromkeys(list(seg["system_a"]) + list(seg["system_b"])))
    if not order:
        order = list(wide.columns)
    pos = {s: i for i, s in enumerate(order)}
    ranks = pd.DataFrame({"system": order, "score": wide[order].mean().to_numpy()})
    for col in ("p_segments", "p_segments_holm", "p_documents", "p_documents_holm"):
        p = np.ones((len(order), len(order)))
        for a, b, v in zip(pairs["system_a"], pairs["system_b"], pairs[col]):
            p[pos[a], pos[b]] = v
        ranks["rank_" + col.removeprefix("p_")] = stats.significance_clusters(p, alpha)
    return SystemTests(pairs, ranks)


def certainty_overstatement(wide: pd.DataFrame, docs, n_boot: int = 1000, seed: int = 0) -> pd.DataFrame:
    """How much narrower resampling segments makes each pair's uncertainty than resampling
    documents.

    Per pair, the bootstrap standard error of the difference of the two systems' means when
    segments are resampled (SE_s) and when whole documents are (SE_d), on the same number of
    resamples, and ratio = SE_d / SE_s, the square root of the design effect of clustering
    segments in documents.

    Parameters
    ----------
    wide
        Segments × systems of segment scores (:func:`segment_matrix`).
    docs
        The document of each row of ``wide``.
    n_boot, seed
        Resamples of each kind, and their seed.

    Returns
    -------
    DataFrame
        ``system_a, system_b, se_segments, se_documents, ratio``
        (``certainty_segments_vs_documents.csv``).

    References
    ----------
    Kish (1965), *Survey Sampling*, Wiley (the design effect); Field and Welsh (2007),
    *Bootstrapping clustered data*, JRSS B 69(3).
    """
    values = wide.to_numpy(dtype=float)
    cols = list(wide.columns)
    w_seg = stats.resample(len(wide), n_boot, seed)
    w_doc = stats.resample(len(wide), n_boot, seed, clusters=docs)
    m_seg, m_doc = stats.weighted_mean(values, w_seg), stats.weighted_mean(values, w_doc)
    i, j = np.triu_indices(len(cols), k=1)
    se_s = (m_seg[:, i] - m_seg[:, j]).std(axis=0, ddof=1)
    se_d = (m_doc[:, i] - m_doc[:, j]).std(axis=0, ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = se_d / se_s
    return pd.DataFrame(
        {
            "system_a": [cols[k] for k in i],
            "system_b": [cols[k] for k in j],
            "se_segments": se_s,
            "se_documents": se_d,
            "ratio": ratio,
        }
    )


#: Coverage below which a nominal 95% interval from resampling segments counts as overstating
#: certainty (:func:`certainty_verdict`): a ratio of standard errors above about 1.19.
COVERAGE_FLOOR = 0.90


def smallest_possible_p(units: int, n_trials: int) -> float:
    """The smallest p-value :func:`helpers.core.statistics.stats.approximate_randomization` can give a pair
    whose scores are swapped in ``units`` units.

    p_min = 2^−units where the test enumerates every swap pattern (2^units ≤ ``n_trials``),
    else 1 / (``n_trials`` + 1), the Monte Carlo floor of p = (c + 1) / (T + 1).

    Parameters
    ----------
    units
        Units swapped (segments, or documents in the document-level test).
    n_trials
        Trials the test was run with.

    Returns
    -------
    float
        The smallest p the test can reach.

    References
    ----------
    Riezler and Maxwell (2005), *On some pitfalls in automatic evaluation and significance
    testing for MT*, ACL workshop on intrinsic and extrinsic evaluation measures.

    Examples
    --------
    >>> smallest_possible_p(5, 10_000), smallest_possible_p(15, 10_000)
    (0.03125, 9.999000099990002e-05)
    """
    return 2.0**-units if 2**units <= n_trials else 1 / (n_trials + 1)


@dataclass(frozen=True)
class CertaintyVerdict:
    """:func:`certainty_verdict`: the standard-error ratios read as a verdict."""

    median: float  # the median ratio (documents / segments)
    low: float  # the smallest ratio
    high: float  # the largest ratio
    coverage: float  # coverage of a segment interval at the median ratio
    pairs_below: int  # pairs whose own coverage is below the floor
    pairs: int
    verdict: str  # "overstated", "about right", "understated", or "none" without a pair


def certainty_verdict(ratio: pd.Series, level: float = 0.95, floor: float = COVERAGE_FLOOR) -> CertaintyVerdict:
    """Does resampling segments overstate certainty? Read from the standard-error ratios of
    :func:`certainty_overstatement` (documents / segments, one per system pair).

    A ``level`` interval built from segments (half-width z · SE_segments) covers the true
    difference, when documents are the real unit, with probability 2Φ(z / ratio) − 1. The
    verdict takes the median ratio: ``"overstated"`` when that coverage is below ``floor``
    (0.90 for 95%: the interval misses at least twice as often as it says), ``"understated"``
    when the ratio is below 1 (segment intervals are the wider ones), else ``"about right"``;
    ``"none"`` without a pair of systems.

    Parameters
    ----------
    ratio
        The ``ratio`` column of :func:`certainty_overstatement`.
    level
        Nominal level of the segment intervals.
    floor
        Coverage below which certainty counts as overstated.

    Returns
    -------
    CertaintyVerdict
        The median, smallest and largest ratio, the coverage at the median, the pairs below
        the floor, the pairs, and the verdict key (worded by chapter 08's words file).

    References
    ----------
    Kish (1965), *Survey Sampling*, Wiley (the design effect); Cameron and Miller (2015), Journal of Human
    Resources 50(2), section II (what clustering does to standard errors).
    """
    from scipy.stats import norm

    r = pd.Series(ratio, dtype=float).dropna()
    if r.empty:  # no pair of systems: nothing to judge
        return CertaintyVerdict(np.nan, np.nan, np.nan, np.nan, pairs_below=0, pairs=0, verdict="none")
    z = norm.ppf(0.5 + level / 2)
    cover = 2 * norm.cdf(z / r) - 1
    median = float(r.median())
    coverage = float(2 * norm.cdf(z / median) - 1)
    verdict = "overstated" if coverage < floor else "understated" if median < 1 else "about right"
    return CertaintyVerdict(
        median,
        float(r.min()),
        float(r.max()),
        coverage,
        pairs_below=int((cover < floor).sum()),
        pairs=len(r),
        verdict=verdict,
    )


#: The WMT24 organisers' own LLM translations, beside the submitted systems (Kocmi et al. 2024,
#: the findings paper's list of the systems the organisers added: eight LLMs and four online
#: systems). A submitted system's architecture is not in the ratings or the report, so it is
#: called a "submission" here, whatever model it is built on.
LLM_BASELINES = (
    "GPT-4",
    "Claude-3.5",
    "Gemini-1.5-Pro",
    "CommandR-plus",
    "Aya23",
    "Llama3-70B",
    "Mistral-Large",
    "Phi-3-Medium",
)

#: The kinds :func:`system_kind` gives, in the order the chapter lists them.
SYSTEM_KINDS = ("LLM", "online", "submission", "human")


def system_kind(system: str) -> str:
    """``LLM`` (one of :data:`LLM_BASELINES`), ``online`` (``ONLINE-*``: a commercial online
    system), ``human`` (a reference translation, ``ref*``) or ``submission`` (a participant's
    system).

    >>> [system_kind(s) for s in ("GPT-4", "ONLINE-B", "refA", "IKUN")]
    ['LLM', 'online', 'human', 'submission']
    """
    if system in LLM_BASELINES:
        return "LLM"
    if system.startswith("ONLINE-"):
        return "online"
    if system.startswith("ref"):
        return "human"
    return "submission"


#: Columns of :func:`esa_ranking` (``esa_rankings.csv``).
ESA_RANKING_COLUMNS = [
    "lp",
    "system",
    "kind",
    "segments",
    "raters",
    "score",
    "score_by_domain",
    "rank_low",
    "rank_high",
    "cluster",
    "human_rank",
    "autorank",
    "auto_rank",
    "rank_shift",
]


def esa_ranking(kept: pd.DataFrame, autorank: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """The human ESA ranking of each language pair beside the organisers' automatic one.

    The human ranking, its rank ranges and significance clusters are
    :func:`helpers.core.formats.esa_rankings.human_ranking` (the mean over domains of each domain's mean ESA
    score; Wilcoxon signed-rank tests per domain combined by Stouffer's method); the automatic
    ranking is read from the organisers' report (:func:`helpers.core.formats.esa_rankings.compare_rankings`).
    rank_shift = automatic rank − human rank, over the systems both rank (positive: the
    automatic ranking places the system lower than the humans do).

    Parameters
    ----------
    kept
        ESA ratings after the organisers' filters (:func:`helpers.core.formats.esa.organisers_filter`).
    autorank
        The organisers' automatic ranking (:func:`helpers.core.formats.esa_rankings.read_autorank`).
    alpha
        Significance level of the clusters.

    Returns
    -------
    DataFrame
        :data:`ESA_RANKING_COLUMNS` (``esa_rankings.csv``); ``kind`` is :func:`system_kind`.

    References
    ----------
    Kocmi et al. (2024), *Error Span Annotation: a balanced approach for human evaluation of
    machine translation*, WMT 2024; Kocmi et al. (2024), *Findings of the WMT24 general machine
    translation shared task*, section on the human evaluation.
    """
    human = esa_rankings.human_ranking(kept, alpha=alpha)
    both = esa_rankings.compare_rankings(human, autorank)
    out = human.merge(both.drop(columns=["score_by_domain", "cluster"]), on=["lp", "system"], how="left")
    out["kind"] = out["system"].map(system_kind)
    return out[ESA_RANKING_COLUMNS]
