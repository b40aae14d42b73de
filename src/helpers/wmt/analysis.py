"""Chapter 08's analyses of WMT expert MQM data (Freitag et al. 2021), built on core.

* :func:`weight_sweep` is the README's "which Major weight?" analysis: rank stability and
  discrimination under segment and document resampling, Major weights 1–10 beside HOPE's
  and MetaHOPE's schemes;
* :func:`scheme_agreement` compares the raters' agreement under several schemes, paired;
* :func:`scheme_weights` and :func:`scheme_rankings` show how the ``mqm`` and ``marot``
  weightings weigh the file's categories and how far that moves the system ranking.

The README's tables recomputed are :mod:`helpers.wmt.readme_tables`; the per-category and span
views are :mod:`helpers.wmt.categories_and_spans`; the system tests, the certainty they claim and
the WMT24 ESA ranking are :mod:`helpers.wmt.systems`.

The statistics themselves live in :mod:`helpers.core.statistics.stats` and :mod:`helpers.core.statistics.agreement`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.formats import annotations as ann
from ..core.formats.mqm import THREE_RATER_FILE
from ..core.statistics import agreement as ag
from ..core.statistics import raters, scoring, stats
from ..core.statistics.schemes import Rule, Scheme, load_scheme, weight_table

#: Schemes compared with the WMT weights (helpers/core/statistics/schemes/*.yml).
COMPARED = ("mqm", "hope", "metahope")


# --------------------------------------------------------------------------- weights


def major_weight_scheme(weight: float) -> Scheme:
    """The published MQM scheme with Major errors weighing ``weight`` (Minor stays 1, Minor
    Fluency/Punctuation 0.1, Non-translation 25, Neutral 0): the README's sweep over Major
    weights 1–10."""
    base = load_scheme("mqm")
    rules = tuple(Rule(r.name, r.pattern, float(weight)) if r.name == "Major" else r for r in base.rules)
    return Scheme(f"mqm-major-{weight:g}", f"MQM, Major = {weight:g}", base.citation, rules, base.source)


def major_to_minor(scheme: Scheme) -> float:
    """How many Minor errors one Major error weighs in ``scheme`` (where it places on the
    Major-weight axis: HOPE 4, MetaHOPE 3, MQM 5).

    ratio = w(Major, Accuracy/Mistranslation) / w(Minor, Accuracy/Mistranslation), both
    weights read from the scheme's rules (:meth:`helpers.core.statistics.schemes.Scheme.weight_of`).

    Parameters
    ----------
    scheme
        A weighting scheme (:func:`helpers.core.statistics.schemes.load_scheme`, :func:`major_weight_scheme`).

    Returns
    -------
    float
        The Major : Minor ratio.

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. and Macherey, W. (2021).
    Experts, errors, and context: a large-scale study of human evaluation for machine
    translation. TACL 9, 1460–1474, section 3 (MQM: Major 5, Minor 1). Gladkoff, S. and
    Han, L. (2022). HOPE: a task-oriented and human-centric evaluation framework using
    professional post-editing towards more effective MT evaluation. LREC 2022, 13–21 (HOPE:
    Major 4, Minor 1). Liang, J. and Han, L. (2026). MetaHOPE: metaphor translation
    evaluation framework investigating open-source LLMs and state-of-the-art neural
    translation models, section 3 (MetaHOPE: Major 6, Minor 2).
    """
    return scheme.weight_of("Major", "Accuracy/Mistranslation") / scheme.weight_of("Minor", "Accuracy/Mistranslation")


@dataclass(frozen=True)
class SegmentMatrix:
    """:func:`segment_matrix`: segments × systems of segment scores, and each segment's document."""

    wide: pd.DataFrame  # index (doc, doc_seg_id), one column per system
    docs: np.ndarray  # the document of each row of ``wide``


def segment_matrix(frame: pd.DataFrame, scheme) -> SegmentMatrix:
    """Segments × systems of segment scores (mean over raters) on the segments every system
    has, and the document of each segment.

    score(system, segment) = (1 / R) · Σ_r Σ_e w(e), over the R raters r of the segment and
    the errors e that r marked in the system's translation, w(e) the scheme's weight
    (:func:`helpers.core.statistics.scoring.segment_scores`); segments some system lacks are dropped
    (:func:`helpers.core.statistics.scoring.common_segments`).

    Parameters
    ----------
    frame
        Error rows of one MQM file (:func:`helpers.core.formats.mqm.read_mqm`).
    scheme
        Scheme name or :class:`~helpers.core.statistics.schemes.Scheme`.

    Returns
    -------
    SegmentMatrix
        ``wide``: index (doc, doc_seg_id), one column per system; ``docs``: the document of
        each row.

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. and Macherey, W. (2021).
    Experts, errors, and context: a large-scale study of human evaluation for machine
    translation. TACL 9, 1460–1474, section 3 (a segment's score is the sum of its error
    weights, averaged over raters).
    """
    seg = scoring.segment_scores(scoring.rater_scores(frame, scheme))
    seg = seg[scoring.common_segments(seg).to_numpy()]
    wide = seg.pivot_table(index=["doc", "doc_seg_id"], columns="system", values="score", aggfunc="first")
    return SegmentMatrix(wide, wide.index.get_level_values("doc").to_numpy())


def weight_sweep(
    frame: pd.DataFrame,
    major_weights=range(1, 11),
    schemes=("hope", "metahope"),
    n_boot: int = 1000,
    seed: int = 0,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Rank stability and discrimination per weighting, under segment and document resampling.

    For every Major weight (:func:`major_weight_scheme`) and every named scheme the segment
    scores are recomputed and the systems ranked; ``n_boot`` resamples of segments, and the
    same number of resamples of whole documents (:func:`helpers.core.statistics.stats.resample`, the
    same draws for every weighting, so the rows are paired) give
    :func:`helpers.core.statistics.stats.ranking_stability`. Stability is Kendall's τ-b between the
    ranking of the full data and that of a resample, averaged over resamples; discrimination
    is the share of system pairs whose mean difference d_ab keeps its sign in at least
    1 − alpha/2 of the resamples (the percentile interval of d_ab excludes 0).

    Parameters
    ----------
    frame
        Error rows of one MQM file (:func:`helpers.core.formats.mqm.read_mqm`).
    major_weights
        The Major weights swept (Minor 1, Minor punctuation 0.1, Non-translation 25 fixed).
    schemes
        Named schemes (``helpers/core/statistics/schemes/*.yml``) placed on the same axis.
    n_boot, seed
        Resamples of each kind, and their seed.
    alpha
        The discrimination threshold above.

    Returns
    -------
    DataFrame
        ``scheme, major_to_minor, resampling, tau_mean, tau_low, share_significant,
        n_resamples, n_segments, n_documents``; one row per weighting and resampling unit.

    References
    ----------
    Freitag et al. (2021), *Experts, Errors, and Context*, TACL 9, and the release
    README of google/wmt-mqm-human-evaluation (the stability-against-discrimination choice of
    Major = 5); Kendall (1945), *The treatment of ties in ranking problems*, Biometrika 33 (τ-b).
    """
    weightings = [major_weight_scheme(w) for w in major_weights] + [load_scheme(s) for s in schemes]
    rows, draws = [], None
    for scheme in weightings:
        matrix = segment_matrix(frame, scheme)
        wide, docs = matrix.wide, matrix.docs
        if draws is None:
            draws = {
                "segments": stats.resample(len(wide), n_boot, seed),
                "documents": stats.resample(len(wide), n_boot, seed, clusters=docs),
            }
        for how, w in draws.items():
            res = stats.ranking_stability(wide.to_numpy(dtype=float), w, alpha)
            rows.append(
                {
                    "scheme": scheme.name,
                    "major_to_minor": major_to_minor(scheme),
                    "resampling": how,
                    **res,
                    "n_segments": len(wide),
                    "n_documents": int(pd.Series(docs).nunique()),
                }
            )
    return pd.DataFrame(rows)


def rankings(frame: pd.DataFrame, schemes) -> pd.DataFrame:
    """Each system's rank under each scheme (1 = best: the lowest mean MQM penalty).

    rank(a) = 1 + #{systems b : score(b) < score(a)}, with score(a) = (1 / N) · Σ_s
    score(a, s) the mean over the N segments every system has of a's segment score
    (:func:`segment_matrix`): tied systems share the best rank.

    Parameters
    ----------
    frame
        Error rows of one MQM file.
    schemes
        Scheme names or :class:`~helpers.core.statistics.schemes.Scheme` objects.

    Returns
    -------
    DataFrame
        ``system, <scheme>…``: ranks by the mean over the segments every system has of the
        segment score (:func:`segment_matrix`), ties sharing the best rank, sorted by the first.

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. and Macherey, W. (2021).
    Experts, errors, and context: a large-scale study of human evaluation for machine
    translation. TACL 9, 1460–1474, section 3 (systems ranked by their mean MQM score,
    lower is better).
    """
    out = {}
    for s in schemes:
        scheme = s if isinstance(s, Scheme) else load_scheme(s)
        wide = segment_matrix(frame, scheme).wide
        out[scheme.name] = wide.mean().rank(method="min").astype(int)
    return pd.DataFrame(out).rename_axis("system").reset_index().sort_values(list(out)[0], kind="stable")


# --------------------------------------------------------------------------- agreement


@dataclass(frozen=True)
class SchemeAgreement:
    """:func:`scheme_agreement`: α per scheme and the schemes' paired differences."""

    levels: pd.DataFrame
    differences: pd.DataFrame


def scheme_agreement(
    frame: pd.DataFrame, schemes=COMPARED, n_boot: int = 1000, seed: int = 0, ci: float = 95.0
) -> SchemeAgreement:
    """Interval α of the raters' segment penalties under each scheme, and their paired differences.

    Units are (system, segment) with two or more raters; every scheme sees the same units
    and the same ``n_boot`` resamples of whole documents. α = 1 − D_o / D_e with the interval
    metric δ(c, k) = (c − k)² (observed over expected disagreement). For two schemes x and y,
    d = α_x − α_y; its delete-one-document jackknife standard error is
    SE = sqrt((G − 1) / G · Σ_g (d_(g) − d̄)²) over the G documents, t = d / SE has G − 1
    degrees of freedom (the few-cluster interval), and p = 2 · P(T_(G−1) ≥ |t|); Holm's
    correction runs over the pairs of schemes.

    Parameters
    ----------
    frame
        Error rows of a multi-rated MQM file.
    schemes
        The schemes compared (default :data:`COMPARED`).
    n_boot, seed
        Document resamples for the percentile intervals, and their seed.
    ci
        Confidence level of the intervals, in percent.

    Returns
    -------
    SchemeAgreement
        ``levels``: ``scheme, alpha, ci_low, ci_high, jackknife_ci_low, jackknife_ci_high,
        n_units, n_documents``; ``differences``, per pair of schemes: ``scheme_x, scheme_y,
        alpha_x, alpha_y, difference, ci_low, ci_high`` (percentile, documents resampled),
        ``jackknife_ci_low, jackknife_ci_high, p, p_holm`` and the
        :func:`helpers.core.statistics.stats.verdict`.

    References
    ----------
    Krippendorff (2011), *Computing Krippendorff's alpha-reliability*, Annenberg School for
    Communication, sections on the interval metric; Efron and Tibshirani (1993), *An
    Introduction to the Bootstrap*, chapters 11 (jackknife) and 13 (percentile intervals);
    Cameron and Miller (2015), *A practitioner's guide to cluster-robust inference*, Journal of
    Human Resources 50(2), section VI (few clusters, t with G − 1 degrees of freedom); Holm
    (1979), *A simple sequentially rejective multiple test procedure*, Scandinavian Journal of
    Statistics 6.
    """
    from scipy.stats import t as student_t

    mats = {}
    for s in schemes:
        r = scoring.rater_scores(frame, s)
        wide = r.pivot_table(index=scoring.UNIT, columns="rater", values="penalty", aggfunc="first")
        mats[s] = wide[wide.notna().sum(axis=1) >= 2]
    index = mats[schemes[0]].index
    docs = index.get_level_values("doc").to_numpy()
    boot = stats.resample(len(index), n_boot, seed, clusters=docs)
    jack = stats.jackknife_weights(docs)
    g = int(pd.Series(docs).nunique())
    est, bs, jk = {}, {}, {}
    for s, wide in mats.items():
        data = wide.reindex(index).to_numpy(dtype=float)
        est[s] = ag.krippendorff_alpha(data.T)  # closed form: fast
        bs[s], jk[s] = ag.interval_alpha_weighted(data, boot), ag.interval_alpha_weighted(data, jack)
    levels = []
    for s in schemes:
        low, high = stats.percentile_interval(bs[s], ci)
        jlow, jhigh = stats.jackknife_t_interval(est[s], jk[s], ci)
        levels.append(
            {
                "scheme": s,
                "alpha": est[s],
                "ci_low": low,
                "ci_high": high,
                "jackknife_ci_low": jlow,
                "jackknife_ci_high": min(jhigh, 1.0),
                "n_units": len(index),
                "n_documents": g,
            }
        )
    diffs = []
    for i, x in enumerate(schemes):
        for y in schemes[i + 1 :]:
            d = est[x] - est[y]
            low, high = stats.percentile_interval(bs[x] - bs[y], ci)
            jlow, jhigh = stats.jackknife_t_interval(d, jk[x] - jk[y], ci)
            loo = jk[x] - jk[y]
            se = np.sqrt((g - 1) / g * ((loo - loo.mean()) ** 2).sum())
            p = float(2 * student_t.sf(abs(d) / se, g - 1)) if se > 0 else float("nan")
            diffs.append(
                {
                    "scheme_x": x,
                    "scheme_y": y,
                    "alpha_x": est[x],
                    "alpha_y": est[y],
                    "difference": d,
                    "ci_low": low,
                    "ci_high": high,
                    "jackknife_ci_low": jlow,
                    "jackknife_ci_high": jhigh,
                    "p": p,
                }
            )
    diffs = pd.DataFrame(diffs)
    diffs["p_holm"] = stats.holm(diffs["p"].to_numpy())
    diffs["verdict"] = [stats.verdict(p, q, 1 - ci / 100) for p, q in zip(diffs["p"], diffs["p_holm"])]
    return SchemeAgreement(pd.DataFrame(levels), diffs)


def major_weight_agreement(
    frame: pd.DataFrame, major_weights=range(1, 11), schemes=("hope", "metahope")
) -> pd.DataFrame:
    """Interval α of the raters' segment penalties for each Major weight and scheme (the
    agreement side of the weight question).

    α = 1 − D_o / D_e with the interval metric (c − k)², on the (system, segment) units with
    two or more raters. Multiplying every weight by one number leaves α unchanged, so on MQM's
    two severities a scheme is placed by its Major : Minor ratio alone (:func:`major_to_minor`).

    Parameters
    ----------
    frame
        Error rows of a multi-rated MQM file.
    major_weights
        The Major weights swept (:func:`major_weight_scheme`).
    schemes
        Named schemes placed on the same axis.

    Returns
    -------
    DataFrame
        ``scheme, major_to_minor, alpha`` (``alpha_by_weight.csv``).

    References
    ----------
    Krippendorff (2011), *Computing Krippendorff's alpha-reliability*, Annenberg School for
    Communication.
    """
    rows = []
    for scheme in [major_weight_scheme(w) for w in major_weights] + [load_scheme(s) for s in schemes]:
        r = scoring.rater_scores(frame, scheme)
        wide = r.pivot_table(index=scoring.UNIT, columns="rater", values="penalty", aggfunc="first")
        wide = wide[wide.notna().sum(axis=1) >= 2]
        rows.append(
            {
                "scheme": scheme.name,
                "major_to_minor": major_to_minor(scheme),
                "alpha": ag.krippendorff_alpha(wide.to_numpy(dtype=float).T),
            }
        )
    return pd.DataFrame(rows)


#: How α moves along the Major:Minor ratio (:func:`ratio_curve`): at every step up, down, not at all, or both ways.
RATIO_DIRECTIONS = ("rises", "falls", "flat", "mixed")


def ratio_curve(weight_alpha: pd.DataFrame, tol: float = 1e-9) -> pd.DataFrame:
    """What :func:`major_weight_agreement` shows about the Major:Minor ratio, as one tidy row.

    Only the swept ``mqm-major-*`` rows count (the published scheme with one Major weight, so
    they differ in nothing else); ``direction`` is one of :data:`RATIO_DIRECTIONS`: ``rises``
    when no step from one ratio to the next lowers α by more than ``tol`` and some step raises
    it, ``falls`` the mirror image, ``flat`` when no step moves it, ``mixed`` otherwise (and
    with fewer than two ratios). Spearman's ρ of α against the ratio (the Pearson correlation
    of their ranks, ties at their mean rank; scipy; NaN when α or the ratio is constant) says
    how close to monotone a ``mixed`` curve is. The points are one data set scored ten ways,
    not samples, so no interval is attached to the curve's shape.

    Parameters
    ----------
    weight_alpha
        :func:`major_weight_agreement`'s table.
    tol
        A step of α smaller than this is no step.

    Returns
    -------
    DataFrame
        One row: ``n_ratios, ratio_low, alpha_low, ratio_high, alpha_high, rho, direction``.

    References
    ----------
    Spearman (1904), *The proof and measurement of association between two things*, American
    Journal of Psychology 15.
    """
    from scipy import stats as st

    curve = weight_alpha[weight_alpha["scheme"].str.startswith("mqm-major-")].sort_values("major_to_minor")
    curve = curve[curve["alpha"].notna()]
    steps = np.diff(curve["alpha"].to_numpy(dtype=float))
    if len(curve) < 2:
        direction = "mixed"
    elif (np.abs(steps) <= tol).all():
        direction = "flat"
    elif (steps >= -tol).all():
        direction = "rises"
    elif (steps <= tol).all():
        direction = "falls"
    else:
        direction = "mixed"
    constant = len(curve) < 2 or np.ptp(curve["alpha"]) <= tol
    rho = float("nan") if constant else float(st.spearmanr(curve["major_to_minor"], curve["alpha"]).statistic)
    low, high = (curve.iloc[0], curve.iloc[-1]) if len(curve) else (None, None)
    return pd.DataFrame(
        [
            {
                "n_ratios": len(curve),
                "ratio_low": np.nan if low is None else float(low["major_to_minor"]),
                "alpha_low": np.nan if low is None else float(low["alpha"]),
                "ratio_high": np.nan if high is None else float(high["major_to_minor"]),
                "alpha_high": np.nan if high is None else float(high["alpha"]),
                "rho": rho,
                "direction": direction,
            }
        ]
    )


def icc_by_documents(frame: pd.DataFrame, scheme="mqm", ci: float = 95.0) -> pd.DataFrame:
    """One-way ICC(1,1) and ICC(1,k) of the raters' segment penalties with delete-one-document
    jackknife t intervals (:func:`helpers.core.statistics.raters.oneway_icc_by_cluster`).

    On the units with the most common number k of raters (each unit has its own k raters, so
    the one-way model): ICC(1,1) = (MSB − MSW) / (MSB + (k − 1) · MSW), the reliability of one
    rater's score, and ICC(1,k) = (MSB − MSW) / MSB, that of the mean of k raters, with MSB and
    MSW the between-unit and within-unit mean squares. The interval is the jackknife t
    interval over documents, G − 1 degrees of freedom.

    Parameters
    ----------
    frame
        Error rows of a multi-rated MQM file.
    scheme
        The weighting of the segment penalties.
    ci
        Confidence level, in percent.

    Returns
    -------
    DataFrame
        ``statistic, raters_per_unit, estimate, jackknife_ci_low, jackknife_ci_high, n_units,
        n_clusters`` (``icc_by_documents.csv``).

    References
    ----------
    Shrout and Fleiss (1979), *Intraclass correlations: uses in assessing rater reliability*,
    Psychological Bulletin 86(2), case 1; McGraw and Wong (1996), *Forming inferences about
    some intraclass correlation coefficients*, Psychological Methods 1(1).
    """
    r = scoring.rater_scores(frame, scheme)
    counts = r.groupby(scoring.UNIT, sort=False)["rater"].transform("nunique")
    k = int(counts[counts >= 2].mode().iloc[0])
    r = r[counts == k].sort_values(scoring.UNIT + ["rater"])
    r = r.assign(slot=r.groupby(scoring.UNIT, sort=False).cumcount())
    wide = r.pivot_table(index=scoring.UNIT, columns="slot", values="penalty", aggfunc="first")
    out = raters.oneway_icc_by_cluster(wide.to_numpy(dtype=float), wide.index.get_level_values("doc"), ci)
    out.insert(1, "raters_per_unit", k)
    return out


# --------------------------------------------------------------------------- the weighting choice

#: The two reference weightings the chapter sets side by side (``helpers/core/statistics/schemes/*.yml``).
REFERENCE_SCHEMES = ("mqm", "marot")


def source_by_severity_scheme() -> Scheme:
    """The ``mqm`` scheme without its 2022+ ``Source issue`` rule, so that a "Source issue"
    is weighted by its severity like any other error: the book's default before Marot's
    and the WMT24 organisers' weight 0 was adopted."""
    base = load_scheme("mqm")
    rules = tuple(r for r in base.rules if r.name != "Source issue")
    return Scheme("mqm-source-by-severity", "MQM, Source issue by severity", base.citation, rules, base.source)


def compared_schemes(frame: pd.DataFrame) -> list:
    """The weightings whose rankings section 2 compares: :data:`REFERENCE_SCHEMES`, and
    :func:`source_by_severity_scheme` when the file has an error the ``Source issue`` rule
    weighs (otherwise it is the ``mqm`` scheme itself)."""
    rules = set(weight_table(frame, "mqm")["rule"])
    return list(REFERENCE_SCHEMES) + ([source_by_severity_scheme()] if "Source issue" in rules else [])


def scheme_weights(frame: pd.DataFrame, schemes=REFERENCE_SCHEMES) -> pd.DataFrame:
    """How each scheme weighs every (category, severity) present in ``frame``: ``category,
    severity, n`` and one ``weight_<scheme>`` column per scheme
    (:func:`helpers.core.statistics.schemes.weight_table`), in the first scheme's order, ``differs``
    True where the weights are not all equal. ``No-error`` and ``HOTW-test`` rows are
    left out: no scheme weighs them."""
    out = None
    for s in schemes:
        scheme = s if isinstance(s, Scheme) else load_scheme(s)
        t = weight_table(frame, scheme)
        t = t[~t["severity"].isin([ann.NO_ERROR, ann.HOTW])]
        t = t[["category", "severity", "n", "weight"]].rename(columns={"weight": f"weight_{scheme.name}"})
        out = t if out is None else out.merge(t, on=["category", "severity", "n"], how="outer", sort=False)
    weights = out[[c for c in out.columns if c.startswith("weight_")]]
    out["differs"] = weights.nunique(axis=1) > 1
    return out.reset_index(drop=True)


def scheme_rankings(frame: pd.DataFrame, schemes=REFERENCE_SCHEMES) -> pd.DataFrame:
    """Each system's score (mean segment penalty, lower is better) and rank under each
    scheme, and how far its rank moves from the first scheme's.

    score_s(a) = (1 / N) · Σ_seg score_s(a, seg) over the N segments every system has
    (:func:`segment_matrix`); rank_s(a) = 1 + #{systems b : score_s(b) < score_s(a)}
    (:func:`rankings`); shift_s(a) = rank_s(a) − rank_first(a) (positive: ranked lower).

    Parameters
    ----------
    frame
        Error rows of one MQM file.
    schemes
        Scheme names or :class:`~helpers.core.statistics.schemes.Scheme` objects, the first the reference
        (default :data:`REFERENCE_SCHEMES`).

    Returns
    -------
    DataFrame
        ``system, score_<s>, rank_<s>, …, shift_<s>`` for every further scheme, best first
        under the first scheme.

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. and Macherey, W. (2021).
    Experts, errors, and context: a large-scale study of human evaluation for machine
    translation. TACL 9, 1460–1474, section 3 (the ``mqm`` weights);
    google-research/google-research, marot/marot.js, mqmDefaultWeights (the ``marot`` weights).
    """
    names, scores = [], {}
    for s in schemes:
        scheme = s if isinstance(s, Scheme) else load_scheme(s)
        names.append(scheme.name)
        wide = segment_matrix(frame, scheme).wide
        scores[scheme.name] = wide.mean()
    ranks = rankings(frame, schemes).set_index("system")
    out = pd.DataFrame(index=ranks.index)
    for n in names:
        out[f"score_{n}"] = scores[n]
        out[f"rank_{n}"] = ranks[n]
    for n in names[1:]:
        out[f"shift_{n}"] = ranks[n] - ranks[names[0]]
    return out.sort_values([f"rank_{names[0]}", f"score_{names[0]}"], kind="stable").rename_axis("system").reset_index()


__all__ = [
    "THREE_RATER_FILE",
    "COMPARED",
    "major_weight_scheme",
    "major_to_minor",
    "SegmentMatrix",
    "segment_matrix",
    "weight_sweep",
    "rankings",
    "SchemeAgreement",
    "scheme_agreement",
    "major_weight_agreement",
    "icc_by_documents",
    "REFERENCE_SCHEMES",
    "source_by_severity_scheme",
    "compared_schemes",
    "scheme_weights",
    "scheme_rankings",
]
