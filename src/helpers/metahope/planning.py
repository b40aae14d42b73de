"""How many sentences and raters does a MetaHOPE study need? (issue 35, item 7)

A study of ``n`` sentences rated by ``k`` raters is imitated by drawing ``n`` sentences with
replacement from real data and keeping ``k`` of each sentence's raters. Repeated
``n_sims`` times, the spread of an estimate over the imitated studies is what its interval
would be in such a study. The assumptions, which the chapter states:

* the sentences of the data stand for those a study would draw (new sentences behave like
  these; with replacement, so a study may be larger than the data);
* raters are interchangeable: a study with ``k`` raters is ``k`` of the raters of each
  sentence, chosen at random;
* a system difference is the mean over sentences of the paired difference of the two
  systems' penalties (each the mean over the ``k`` raters), tested with a paired t test at
  level 0.05; power to separate two systems by a margin δ is the share of imitated studies
  that reject no difference when the true difference is δ (the sentence differences are
  shifted to have mean δ; their spread stays that of the data);
* α is interval Krippendorff's α of the sentence penalties, pooled over the systems.

:func:`rating_array` turns rater-level scores (WMT's MQM file, the MetaHOPE pilots) into a
sentences × systems × raters array; :func:`plan` imitates the studies.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from ..core.statistics import stats
from ..core.statistics.agreement import interval_alpha_weighted

#: Study sizes and rater numbers a plan reads by default.
SENTENCES = (20, 50, 100, 200, 400)
RATERS = (1, 2, 3)
#: Columns of :func:`plan`.
COLUMNS = [
    "data",
    "sentences",
    "raters",
    "alpha",
    "alpha_width",
    "difference_width",
    "difference_width_min",
    "difference_width_max",
    "margin",
    "power",
]


def rating_array(
    scores: pd.DataFrame, unit, value: str = "penalty", rater: str = "rater", system: str = "system"
) -> tuple[np.ndarray, list[str]]:
    """A sentences × systems × raters array of ``value`` and the systems' names.

    ``unit`` names the column(s) of a sentence. The raters of each (sentence, system) fill
    the last axis in the order of their names; every (sentence, system) needs the same
    number of raters (a ``ValueError`` names the first that has not)."""
    unit = [unit] if isinstance(unit, str) else list(unit)
    counts = scores.groupby(unit + [system], sort=False).size()
    k = int(counts.max())
    if (counts != k).any() or len(counts) != scores[unit].drop_duplicates().shape[0] * scores[system].nunique():
        short = counts[counts != k]
        where = short.index[0] if len(short) else "some sentence"
        raise ValueError(f"every sentence needs {k} raters for every system; {where} has fewer")
    systems = list(dict.fromkeys(scores[system]))
    s = scores.sort_values(unit + [system, rater])
    s = s.assign(_slot=s.groupby(unit + [system], sort=False).cumcount())
    wide = s.pivot_table(index=unit, columns=[system, "_slot"], values=value, aggfunc="first", sort=False)
    wide = wide.reindex(columns=pd.MultiIndex.from_product([systems, range(k)]))
    return wide.to_numpy(float).reshape(len(wide), len(systems), k), systems


def plan(
    array: np.ndarray,
    data: str,
    sentences=SENTENCES,
    raters=RATERS,
    margins=(2.0,),
    n_sims: int = 500,
    seed: int = 0,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Imitated studies of every size in ``sentences`` × ``raters`` (up to the raters the data
    have), drawn from ``array`` (:func:`rating_array`). One row per size and margin:

    * ``alpha``, ``alpha_width``: the median α and the width of its 95 % interval (2.5th to
      97.5th percentile over the imitated studies; NaN with one rater);
    * ``difference_width``: the width of the 95 % interval of a system difference, the
      median over all pairs of systems (``_min``, ``_max`` the narrowest and widest pair);
    * ``power``: the share of imitated studies whose paired t test separates two systems
      that truly differ by ``margin`` points per sentence, the mean over all pairs.

    Parameters
    ----------
    array : numpy.ndarray
        Sentences × systems × raters (:func:`rating_array`).
    data : str
        Name of the data set, copied into ``data``.
    sentences : sequence of int
        Study sizes n.
    raters : sequence of int
        Rater numbers k.
    margins : sequence of float
        True system differences δ at which power is read.
    n_sims : int
        Imitated studies per size.
    seed : int
        Seed of the draws.
    alpha : float
        Level of the paired t test.

    Returns
    -------
    pandas.DataFrame
        :data:`COLUMNS`. In an imitated study d_i is the difference of two systems' rater-mean
        penalties on sentence i, d̄ = (1/n) Σ d_i and s² = Σ (d_i − d̄)² / (n − 1); power is the share
        of studies with |(d̄ − E d̄ + δ) / (s / √n)| > t_{1−alpha/2, n−1}; widths are 97.5th − 2.5th
        percentiles over the studies; α is interval Krippendorff's α, 1 − D_o / D_e.

    References
    ----------
    Card, D., Henderson, P., Khandelwal, U., Jia, R., Mahowald, K. & Jurafsky, D. (2020). With
    little power comes great responsibility. EMNLP (power of NLP comparisons by simulation).
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap, ch. 13 (the percentile
    interval).
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. University of Pennsylvania.
    """
    n_units, n_systems, k_all = array.shape
    pairs = list(combinations(range(n_systems), 2))
    rows = []
    rng = np.random.default_rng(seed)
    for n in sentences:
        crit = student_t.ppf(1 - alpha / 2, n - 1)
        for k in [k for k in raters if k <= k_all]:
            # every draw is a sentence and a set of k of its raters, both at random: the population
            # is every (sentence, rater set), each equally likely
            parts = [array[:, :, list(subset)] for subset in combinations(range(k_all), k)]
            w = stats.resample(n_units * len(parts), n_sims, rng, size=n).astype(float)  # (B, units × sets)
            means = np.concatenate([part.mean(axis=2) for part in parts])  # (units × sets, systems)
            d = np.stack([means[:, a] - means[:, b] for a, b in pairs], axis=1)  # (units × sets, pairs)
            diffs = w @ d / n  # (B, pairs)
            sds = np.sqrt(np.maximum(w @ d**2 / n - diffs**2, 0) * n / (n - 1))
            alphas = np.full(n_sims, np.nan)
            if k >= 2:  # every drawn (sentence, system) a unit of k values
                units = np.concatenate([part.reshape(n_units * n_systems, k) for part in parts])
                alphas = interval_alpha_weighted(units, np.repeat(w, n_systems, axis=1))
            low, high = np.nanpercentile(diffs, [2.5, 97.5], axis=0)
            width = high - low
            centred = diffs - np.nanmean(diffs, axis=0)  # the sampling error of each study's difference
            a_low, a_high = np.nanpercentile(alphas, [2.5, 97.5]) if k >= 2 else (np.nan, np.nan)
            for margin in margins:
                with np.errstate(invalid="ignore", divide="ignore"):
                    t = (centred + margin) / (sds / np.sqrt(n))
                power = float(np.nanmean(np.abs(t) > crit))
                rows.append(
                    {
                        "data": data,
                        "sentences": n,
                        "raters": k,
                        "alpha": float(np.nanmedian(alphas)) if k >= 2 else np.nan,
                        "alpha_width": a_high - a_low,
                        "difference_width": float(np.median(width)),
                        "difference_width_min": float(width.min()),
                        "difference_width_max": float(width.max()),
                        "margin": float(margin),
                        "power": power,
                    }
                )
    return pd.DataFrame(rows, columns=COLUMNS)


#: Margins (points of penalty per sentence) at which :func:`study_plan` reads the power.
MARGINS = (1.0, 2.0, 4.0)


def wmt_array() -> np.ndarray:
    """WMT 2023 ZH→EN, three raters per segment (chapter 08's file), scored with MetaHOPE's
    weights (Minor 2, Major 6, Critical 10): segments × 10 systems × 3 raters."""
    from ..core import paths
    from ..core.formats import annotations as ann
    from ..core.formats import mqm
    from ..core.statistics import scoring

    frame = mqm.read_mqm(paths.released_file(mqm.GOOGLE_MQM_REPO, mqm.THREE_RATER_FILE), columns=ann.SCORING_COLUMNS)
    return rating_array(scoring.rater_scores(frame, "metahope"), ["doc", "doc_seg_id"])[0]


def pilot_array() -> np.ndarray:
    """The released EN→ZH pilot (annotators A and B): per sentence and system, each
    annotator's SEGS summed over the sentence's metaphors; sentences × 3 systems × 2 raters."""
    from . import release, workbooks
    from .scoring import segment_scores

    tidy = pd.concat([workbooks.read_workbook(f, a) for a, f in release.pilot_v1_files().items()], ignore_index=True)
    per = segment_scores(tidy).groupby(["sentence", "system", "annotator"], sort=False)["SEGS"].sum().reset_index()
    return rating_array(per, "sentence", value="SEGS", rater="annotator")[0]


def study_plan(n_sims: int = 500, seed: int = 0, sources: dict | None = None) -> pd.DataFrame:
    """:func:`plan` of each data set of ``sources`` ({name: function returning its array};
    default the WMT three-rater file and the EN→ZH pilot) at :data:`SENTENCES`,
    :data:`RATERS` and :data:`MARGINS`. A data set whose released file has not been fetched
    is left out (no rows at all when none has).

    Parameters
    ----------
    n_sims : int
        Imitated studies per size.
    seed : int
        Seed of the draws.
    sources : dict, optional
        ``{name: function returning a sentences × systems × raters array}``.

    Returns
    -------
    pandas.DataFrame
        :data:`COLUMNS`, the rows of :func:`plan` for each data set (formulas there).

    References
    ----------
    Card, D. et al. (2020). With little power comes great responsibility. EMNLP.
    Liang & Han (2026). MetaHOPE, §4.2 (the pilot) and Freitag, M. et al. (2021). Experts, errors,
    and context: a large-scale study of human evaluation for machine translation. TACL 9 (MQM).
    """
    if sources is None:
        sources = {"WMT 2023 ZH→EN (3 raters)": wmt_array, "MetaHOPE EN→ZH pilot (2 raters)": pilot_array}
    plans = []
    for data, load in sources.items():
        try:
            array = load()
        except FileNotFoundError:
            continue
        plans.append(plan(array, data, margins=MARGINS, n_sims=n_sims, seed=seed))
    return pd.concat(plans, ignore_index=True) if plans else pd.DataFrame(columns=COLUMNS)
