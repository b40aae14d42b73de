"""Chapter 08's analyses of WMT expert MQM data (Freitag et al. 2021), built on core.

* :func:`reproduce` recomputes the README's system tables and says which rounding rule
  gives each printed value;
* :func:`weight_sweep` is the README's "which Major weight?" analysis: rank stability and
  discrimination under segment and document resampling, Major weights 1–10 beside HOPE's
  and MetaHOPE's schemes;
* :func:`scheme_agreement` compares the raters' agreement under several schemes, paired;
* :func:`category_presence`, :func:`error_spans` and :func:`category_penalties` prepare the
  per-category and span views;
* :func:`system_tests` runs Marot's approximate randomisation over segments and over
  documents, with Holm and mt-metrics-eval's significance clusters;
* :func:`scheme_weights` and :func:`scheme_rankings` show how the ``mqm`` and ``marot``
  weightings weigh the file's categories and how far that moves the system ranking;
* :func:`esa_ranking` sets the human ESA ranking of WMT24 (:mod:`helpers.core.formats.esa`) beside the
  organisers' automatic one, each system marked with its kind (:func:`system_kind`).

The statistics themselves live in :mod:`helpers.core.statistics.stats` and :mod:`helpers.core.statistics.agreement`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd

from ..core.statistics import agreement as ag
from ..core.formats import annotations as ann
from ..core.formats import published
from ..core.statistics import scoring, stats
from ..core.formats import esa
from ..core.formats.mqm import GOOGLE_MQM_REPO, THREE_RATER_FILE
from ..core.statistics.schemes import Rule, Scheme, load_scheme, weight_table

#: The mirrored release and its files (data/sources.yml).
REPO = GOOGLE_MQM_REPO
TED_FILE = "ted/zhen/mqm_ted_zhen.tsv"
#: README table -> (published CSV under data/published/wmt_mqm/, file in the release, kind of file).
TABLES = {
    "TED ZH→EN": ("ted_zhen", TED_FILE, "errors"),
    "newstest2020 ZH→EN": ("newstest2020_zhen", "newstest2020/zhen/mqm_newstest2020_zhen.avg_seg_scores.tsv",
                           "segments"),
    "newstest2021 ZH→EN": ("newstest2021_zhen", "newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv",
                           "segments"),
}
#: Every README table whose file the README names -> (published CSV, that file's name). The
#: chapter compares a table when the file it reads has this name, whatever the language pair.
README_TABLES = {
    "TED ZH→EN": ("ted_zhen", "mqm_ted_zhen.tsv"),
    "newstest2020 ZH→EN": ("newstest2020_zhen", "mqm_newstest2020_zhen.tsv"),
    "newstest2021 ZH→EN": ("newstest2021_zhen", "mqm_newstest2021_zhen.tsv"),
    "TED EN→DE": ("ted_ende", "mqm_ted_ende.tsv"),
    "newstest2020 EN→DE": ("newstest2020_ende", "mqm_newstest2020_ende.tsv"),
    "newstest2021 EN→DE": ("newstest2021_ende", "mqm_newstest2021_ende.tsv"),
}
#: Language codes of WMT's MQM files and their English names (for :func:`language_pair`).
LANGUAGES = {"en": "English", "de": "German", "zh": "Chinese", "ru": "Russian", "ja": "Japanese", "cs": "Czech",
             "uk": "Ukrainian", "he": "Hebrew", "hr": "Croatian", "pl": "Polish", "fr": "French", "es": "Spanish",
             "is": "Icelandic", "hi": "Hindi", "ko": "Korean", "ar": "Arabic", "it": "Italian", "pt": "Portuguese",
             "nl": "Dutch", "tr": "Turkish", "et": "Estonian", "lt": "Lithuanian", "lv": "Latvian", "fi": "Finnish",
             "ro": "Romanian", "ps": "Pashto", "km": "Khmer", "ta": "Tamil", "gu": "Gujarati", "kk": "Kazakh",
             "sr": "Serbian", "bho": "Bhojpuri", "mas": "Maasai", "liv": "Livonian", "sah": "Yakut", "xh": "Xhosa",
             "sw": "Swahili", "id": "Indonesian", "th": "Thai", "vi": "Vietnamese", "bn": "Bengali", "mr": "Marathi",
             "fa": "Persian", "hu": "Hungarian", "sk": "Slovak", "sl": "Slovenian", "bg": "Bulgarian", "el": "Greek",
             "da": "Danish", "sv": "Swedish", "no": "Norwegian", "ca": "Catalan", "eu": "Basque", "gl": "Galician"}
#: Schemes compared with the WMT weights (helpers/core/statistics/schemes/*.yml).
COMPARED = ("mqm", "hope", "metahope")


# --------------------------------------------------------------------------- 1. reproduce


def language_pair(path) -> tuple[str, str] | None:
    """Source and target language codes named by an MQM file's path, or None.

    Google's and WMT's files name the pair in the file name (``mqm_ted_zhen.tsv``,
    ``wmt24_en-de.jsonl``: two known codes of :data:`LANGUAGES`, together or joined by ``-``,
    between non-letters) or as a folder of their own (``generalMT2023/ende/…``, ``en-zh/…``).
    The file name is read first, then the folders from the innermost out.

    >>> language_pair("generalMT2023/zhen/sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz")
    ('zh', 'en')
    >>> language_pair("ratings/en-de/batch.tsv"), language_pair("test_it_es0/my_ratings.tsv")
    (('en', 'de'), None)
    """
    import re

    codes = "|".join(sorted(LANGUAGES, key=len, reverse=True))
    within = re.compile(rf"(?<![a-z])({codes})-?({codes})(?![a-z])")
    whole = re.compile(rf"({codes})-?({codes})")
    parts = str(path).replace("\\", "/").lower().split("/")
    for m in within.finditer(parts[-1]):
        if m.group(1) != m.group(2):
            return m.group(1), m.group(2)
    for part in reversed(parts[:-1]):
        m = whole.fullmatch(part)
        if m and m.group(1) != m.group(2):
            return m.group(1), m.group(2)
    return None


def pair_names(pair: tuple[str, str] | None) -> tuple[str, str]:
    """``("Chinese→English", "ZH→EN")`` for ``("zh", "en")``; an unnamed pair for None."""
    if pair is None:
        return "a language pair the file name does not give", "?→?"
    src, tgt = pair
    return f"{LANGUAGES.get(src, src)}→{LANGUAGES.get(tgt, tgt)}", f"{src.upper()}→{tgt.upper()}"


def tables_for(*files) -> dict:
    """The README tables (:data:`README_TABLES`) about the given files, matched by file name:
    ``{table: (published CSV, local file, "errors")}`` for :func:`reproduce` (an error-row
    file, scored with the ``mqm`` scheme). Empty when no table is about these files."""
    out = {}
    for f in files:
        if f is None:
            continue
        for table, (csv, name) in README_TABLES.items():
            if str(f).replace("\\", "/").split("/")[-1] == name and table not in out:
                out[table] = (csv, f, "errors")
    return out


def _places(printed: str) -> int:
    return len(printed.split(".")[1]) if "." in printed else 0


#: Ways a table could have been rounded to its printed precision (value -> text).
ROUNDINGS = {
    "half-up once": lambda v, d: str(Decimal(repr(v)).quantize(Decimal(1).scaleb(-d), ROUND_HALF_UP)),
    "3 decimals, then half-up": lambda v, d: str(Decimal(repr(v)).quantize(Decimal("0.001"), ROUND_HALF_UP)
                                                 .quantize(Decimal(1).scaleb(-d), ROUND_HALF_UP)),
    "3 decimals, then binary float %.Nf": lambda v, d: f"{round(v, 3):.{d}f}",
}


def reproduce(files: dict, tables: dict | None = None) -> pd.DataFrame:
    """Every README table of ``tables`` (default :data:`TABLES`, the mirrored ZH→EN files;
    :func:`tables_for` gives those about other files) recomputed beside the printed values.

    A printed system the file lacks (under its file name or its README name) is a row with
    no recomputed value, matched by no rule. TED is scored from its raw error rows with the
    ``mqm`` scheme (Source error weighed by severity: only that gives the released
    per-segment scores), the newstest tables from the released per-segment scores. A
    system's score is the mean over segments of the mean over raters:

        score = (1 / N) · Σ_s (1 / R_s) · Σ_r Σ_e w(e)

    over the system's N segments s, the R_s raters r of segment s and the errors e that r
    marked there, w(e) the scheme's weight of e's severity and category; difference =
    recomputed − published.

    Parameters
    ----------
    files
        The release path of each table's file -> the local file to read.
    tables
        README table -> (published CSV, release path, ``"errors"`` or ``"segments"``);
        default :data:`TABLES`.

    Returns
    -------
    DataFrame
        ``table, system, published, recomputed, difference`` and one ``match: <rule>`` column
        per rounding rule of :data:`ROUNDINGS` (does the rule turn the recomputed value into
        the printed text?); one row per printed system.

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. and Macherey, W. (2021).
    Experts, errors, and context: a large-scale study of human evaluation for machine
    translation. TACL 9, 1460–1474, section 3 (MQM weights and scores); the README of
    github.com/google/wmt-mqm-human-evaluation (the printed system tables).
    """
    from ..core.formats import mqm

    rows = []
    for table, (csv, rel, kind) in (TABLES if tables is None else tables).items():
        pub = published.read_published("wmt_mqm", csv)
        if kind == "errors":
            frame = mqm.read_mqm(files[rel], columns=ann.SCORING_COLUMNS)
            ours = scoring.system_scores(scoring.rater_scores(frame, "mqm"))
        else:
            ours = scoring.system_scores(mqm.read_segment_scores(files[rel]))
        value = dict(zip(ours["system"], ours["score"]))
        for _, p in pub.iterrows():
            v = value.get(p["file_system"], value.get(p["system"]))
            v = float("nan") if v is None else float(v)
            row = {"table": table, "system": p["system"], "published": p["score"], "recomputed": v,
                   "difference": v - float(p["score"])}
            for name, fn in ROUNDINGS.items():
                row[f"match: {name}"] = bool(np.isfinite(v)) and fn(v, _places(p["score"])) == p["score"]
            rows.append(row)
    return pd.DataFrame(rows)


def rounding_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per README table and rounding rule, how many printed values the rule reproduces.

    For table t and rule r: reproduced(t, r) = Σ_i match_r(i) over the printed values i of t
    (``match: <r>`` of :func:`reproduce`, True counting 1), beside values(t), their number.

    Parameters
    ----------
    table
        :func:`reproduce`'s table.

    Returns
    -------
    DataFrame
        ``table, values`` and one column per rounding rule (the rule's name without
        ``match: ``), holding reproduced(t, r); one row per README table.

    References
    ----------
    The README of github.com/google/wmt-mqm-human-evaluation (the printed system tables whose
    rounding is checked).
    """
    rules = [c for c in table.columns if c.startswith("match: ")]
    out = table.groupby("table", sort=False)[rules].sum().astype(int)
    out.columns = [c.removeprefix("match: ") for c in rules]
    out.insert(0, "values", table.groupby("table", sort=False).size())
    return out.reset_index()


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


def weight_sweep(frame: pd.DataFrame, major_weights=range(1, 11), schemes=("hope", "metahope"), n_boot: int = 1000,
                 seed: int = 0, alpha: float = 0.05) -> pd.DataFrame:
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
            draws = {"segments": stats.resample(len(wide), n_boot, seed),
                     "documents": stats.resample(len(wide), n_boot, seed, clusters=docs)}
        for how, w in draws.items():
            res = stats.ranking_stability(wide.to_numpy(dtype=float), w, alpha)
            rows.append({"scheme": scheme.name, "major_to_minor": major_to_minor(scheme), "resampling": how, **res,
                         "n_segments": len(wide), "n_documents": int(pd.Series(docs).nunique())})
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


def scheme_agreement(frame: pd.DataFrame, schemes=COMPARED, n_boot: int = 1000, seed: int = 0,
                     ci: float = 95.0) -> SchemeAgreement:
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
        levels.append({"scheme": s, "alpha": est[s], "ci_low": low, "ci_high": high, "jackknife_ci_low": jlow,
                       "jackknife_ci_high": min(jhigh, 1.0), "n_units": len(index), "n_documents": g})
    diffs = []
    for i, x in enumerate(schemes):
        for y in schemes[i + 1:]:
            d = est[x] - est[y]
            low, high = stats.percentile_interval(bs[x] - bs[y], ci)
            jlow, jhigh = stats.jackknife_t_interval(d, jk[x] - jk[y], ci)
            loo = jk[x] - jk[y]
            se = np.sqrt((g - 1) / g * ((loo - loo.mean()) ** 2).sum())
            p = float(2 * student_t.sf(abs(d) / se, g - 1)) if se > 0 else float("nan")
            diffs.append({"scheme_x": x, "scheme_y": y, "alpha_x": est[x], "alpha_y": est[y], "difference": d,
                          "ci_low": low, "ci_high": high, "jackknife_ci_low": jlow, "jackknife_ci_high": jhigh, "p": p})
    diffs = pd.DataFrame(diffs)
    diffs["p_holm"] = stats.holm(diffs["p"].to_numpy())
    diffs["verdict"] = [stats.verdict(p, q, 1 - ci / 100) for p, q in zip(diffs["p"], diffs["p_holm"])]
    return SchemeAgreement(pd.DataFrame(levels), diffs)


def major_weight_agreement(frame: pd.DataFrame, major_weights=range(1, 11), schemes=("hope", "metahope")
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
        rows.append({"scheme": scheme.name, "major_to_minor": major_to_minor(scheme),
                     "alpha": ag.krippendorff_alpha(wide.to_numpy(dtype=float).T)})
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
    return pd.DataFrame([{"n_ratios": len(curve),
                          "ratio_low": np.nan if low is None else float(low["major_to_minor"]),
                          "alpha_low": np.nan if low is None else float(low["alpha"]),
                          "ratio_high": np.nan if high is None else float(high["major_to_minor"]),
                          "alpha_high": np.nan if high is None else float(high["alpha"]),
                          "rho": rho, "direction": direction}])


def icc_by_documents(frame: pd.DataFrame, scheme="mqm", ci: float = 95.0) -> pd.DataFrame:
    """One-way ICC(1,1) and ICC(1,k) of the raters' segment penalties with delete-one-document
    jackknife t intervals (:func:`helpers.core.statistics.agreement.oneway_icc_by_cluster`).

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
    out = ag.oneway_icc_by_cluster(wide.to_numpy(dtype=float), wide.index.get_level_values("doc"), ci)
    out.insert(1, "raters_per_unit", k)
    return out


top_level = ann.top_level  # in helpers.core.formats.annotations, shared with helpers.figurative


def _errors(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[~frame["severity"].isin([ann.NO_ERROR, ann.HOTW])].assign(top=lambda f: top_level(f["category"]))


def category_presence(frame: pd.DataFrame) -> pd.DataFrame:
    """For every rating (system, segment, rater) and top-level category: did the rater mark
    an error of that category (1) or not (0)? Columns ``unit, doc, rater, category, present``."""
    ratings = ann.rated_segments(frame[frame["severity"] != ann.HOTW])
    errs = _errors(frame)
    cats = sorted(errs["top"].unique())
    marked = errs.groupby(scoring.UNIT + ["rater", "top"]).size().rename("n").reset_index()
    grid = ratings.merge(pd.DataFrame({"top": cats}), how="cross")
    grid = grid.merge(marked, how="left", on=scoring.UNIT + ["rater", "top"])
    unit = grid["system"].astype(str) + " | " + grid["doc"].astype(str) + " | " + grid["doc_seg_id"].astype(str)
    return pd.DataFrame({"unit": unit, "doc": grid["doc"], "rater": grid["rater"], "category": grid["top"],
                         "present": grid["n"].notna().astype(int)})


def presence_agreement(presence: pd.DataFrame) -> pd.DataFrame:
    """Agreement on the presence of each top-level category (:func:`category_presence`).

    Per category, on the units with two or more raters: nominal α on the 0/1 presence, Cohen's
    κ = (p_o − p_e) / (1 − p_e) averaged over rater pairs, exact agreement (the share of units
    where all raters agree, %), and how often the category is marked.

    Parameters
    ----------
    presence
        :func:`category_presence`'s table.

    Returns
    -------
    DataFrame
        ``category, n_units, n_raters, marked_percent, nominal_alpha, kappa,
        exact_agreement``, the most marked category first (``presence_agreement.csv``).

    References
    ----------
    Krippendorff (2011), *Computing Krippendorff's alpha-reliability* (nominal metric); Cohen
    (1960), *A coefficient of agreement for nominal scales*, Educational and Psychological
    Measurement 20(1).
    """
    counts = presence.groupby("unit")["rater"].transform("nunique")
    multi = presence[counts >= 2]
    table = ag.agreement(multi, by="category", value="present", rater="rater", item="unit", labels=[0, 1],
                         level="nominal")
    share = multi.groupby("category")["present"].mean().mul(100).rename("marked_percent")
    out = table.merge(share.reset_index(), on="category")
    return out[["category", "n_items", "n_raters", "marked_percent", "alpha", "weighted_kappa", "exact_agreement"]
               ].rename(columns={"alpha": "nominal_alpha", "weighted_kappa": "kappa", "n_items": "n_units"}
                        ).sort_values("marked_percent", ascending=False).reset_index(drop=True)


def error_spans(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per error with a ``<v>…</v>`` span: ``system, doc, doc_seg_id, rater, side,
    start, end, category`` (top level), ``severity``; errors without a span are left out
    (:func:`span_coverage` counts them)."""
    errs = _errors(frame)
    parts = []
    for side in ("target", "source"):
        has = errs[f"{side}_start"].notna()
        part = errs[has]
        parts.append(pd.DataFrame({**{c: part[c] for c in scoring.UNIT + ["rater"]}, "side": side,
                                   "start": part[f"{side}_start"].astype(int), "end": part[f"{side}_end"].astype(int),
                                   "category": part["top"], "severity": part["severity"]}))
    return pd.concat(parts, ignore_index=True)


def span_coverage(frame: pd.DataFrame) -> pd.DataFrame:
    """How many errors of ``frame`` carry a span: one row ``errors, without_span`` (errors marked
    on neither the target nor the source, which :func:`error_spans` leaves out)."""
    errs = _errors(frame)
    return pd.DataFrame({"errors": [len(errs)],
                         "without_span": [int((errs["target_start"].isna() & errs["source_start"].isna()).sum())]})


@dataclass(frozen=True)
class SpanAgreement:
    """:func:`span_table`: the pooled span agreement and each rater pair's matches."""

    table: pd.DataFrame  # criterion, agreement, ci_low, ci_high, rater_pairs, spans
    matches: pd.DataFrame  # one row per rater pair of a segment (helpers.core.statistics.agreement.span_matches)


def span_table(frame: pd.DataFrame, n_boot: int = 1000, seed: int = 0, ci: float = 95.0) -> SpanAgreement:
    """Span agreement of every rater pair (:func:`helpers.core.statistics.agreement.span_matches`), pooled,
    with percentile intervals resampling whole documents.

    A rater's span is matched when a co-rater of the same segment marked an overlapping span
    on the same side (optionally of the same top-level category, and severity). Pooled over
    all pairs, span F1 = (matched spans of a + matched spans of b) / (spans of a + spans of
    b), and the character Dice coefficient = 2 |A ∩ B| / (|A| + |B|) over the marked
    characters.

    Parameters
    ----------
    frame
        Error rows of a multi-rated MQM file with spans.
    n_boot, seed
        Document resamples, and their seed.
    ci
        Confidence level, in percent.

    Returns
    -------
    SpanAgreement
        ``table``: ``criterion, agreement, ci_low, ci_high, rater_pairs, spans``
        (``span_agreement.csv``); ``matches``: one row per rater pair of a segment.

    References
    ----------
    Dice (1945), *Measures of the amount of ecologic association between species*, Ecology
    26(3); Efron and Tibshirani (1993), *An Introduction to the Bootstrap*, chapter 13.
    """
    rated = ann.rated_segments(frame[frame["severity"] != ann.HOTW])
    matches = ag.span_matches(error_spans(frame), rated, scoring.UNIT)
    full = ag.span_agreement(matches)
    boot = ag.span_agreement(matches, stats.resample(len(matches), n_boot, seed, clusters=matches["doc"]))
    bounds = boot.groupby("criterion", sort=False)["agreement"].apply(lambda s: stats.percentile_interval(s, ci))
    full["ci_low"] = [bounds[c][0] for c in full["criterion"]]
    full["ci_high"] = [bounds[c][1] for c in full["criterion"]]
    full["rater_pairs"] = len(matches)
    full["spans"] = int((matches["spans_a"] + matches["spans_b"]).sum())
    return SpanAgreement(full, matches)


def category_penalties(frame: pd.DataFrame, scheme="mqm") -> pd.DataFrame:
    """Per system and top-level category, the MQM penalty per segment and the number of errors.

    penalty = (sum of the category's error weights over the system's ratings) / (number of
    the system's ratings), so the categories of a system add up to its score; ``count`` is
    the number of errors of the category marked in the system's ratings.

    Parameters
    ----------
    frame
        Error rows of one MQM file.
    scheme
        The weighting scheme.

    Returns
    -------
    DataFrame
        ``system, category, penalty, count`` (``category_penalties.csv``).

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. and Macherey, W. (2021).
    Experts, errors, and context: a large-scale study of human evaluation for machine
    translation. TACL 9, 1460–1474, section 3 (the MQM weights and error categories).
    """
    sch = load_scheme(scheme)
    errs = _errors(frame)
    errs = errs.assign(weight=sch.weights(errs).to_numpy())
    ratings = ann.rated_segments(frame[frame["severity"] != ann.HOTW])
    per_system = ratings.groupby("system").size().rename("ratings")
    agg = errs.groupby(["system", "top"]).agg(weight=("weight", "sum"), count=("weight", "size")).reset_index()
    agg = agg.merge(per_system.reset_index(), on="system")
    return pd.DataFrame({"system": agg["system"], "category": agg["top"], "penalty": agg["weight"] / agg["ratings"],
                         "count": agg["count"].astype(int)})


# --------------------------------------------------------------------------- systems


@dataclass(frozen=True)
class SystemTests:
    """:func:`system_tests`: the pairs' tests and the systems' significance clusters."""

    pairs: pd.DataFrame
    clusters: pd.DataFrame


def system_tests(wide: pd.DataFrame, docs, n_trials: int = 10000, seed: int = 0, alpha: float = 0.05
                 ) -> SystemTests:
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
    return pd.DataFrame({"system_a": [cols[k] for k in i], "system_b": [cols[k] for k in j], "se_segments": se_s,
                         "se_documents": se_d, "ratio": ratio})


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
    return 2.0 ** -units if 2 ** units <= n_trials else 1 / (n_trials + 1)


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
    return CertaintyVerdict(median, float(r.min()), float(r.max()), coverage, pairs_below=int((cover < floor).sum()),
                            pairs=len(r), verdict=verdict)


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


# --------------------------------------------------------------------------- ESA (WMT24)

#: The WMT24 organisers' own LLM translations, beside the submitted systems (Kocmi et al. 2024,
#: the findings paper's list of the systems the organisers added: eight LLMs and four online
#: systems). A submitted system's architecture is not in the ratings or the report, so it is
#: called a "submission" here, whatever model it is built on.
LLM_BASELINES = ("GPT-4", "Claude-3.5", "Gemini-1.5-Pro", "CommandR-plus", "Aya23", "Llama3-70B", "Mistral-Large",
                 "Phi-3-Medium")
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
ESA_RANKING_COLUMNS = ["lp", "system", "kind", "segments", "raters", "score", "score_by_domain", "rank_low", "rank_high",
                       "cluster", "human_rank", "autorank", "auto_rank", "rank_shift"]


def esa_ranking(kept: pd.DataFrame, autorank: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """The human ESA ranking of each language pair beside the organisers' automatic one.

    The human ranking, its rank ranges and significance clusters are
    :func:`helpers.core.formats.esa.human_ranking` (the mean over domains of each domain's mean ESA
    score; Wilcoxon signed-rank tests per domain combined by Stouffer's method); the automatic
    ranking is read from the organisers' report (:func:`helpers.core.formats.esa.compare_rankings`).
    rank_shift = automatic rank − human rank, over the systems both rank (positive: the
    automatic ranking places the system lower than the humans do).

    Parameters
    ----------
    kept
        ESA ratings after the organisers' filters (:func:`helpers.core.formats.esa.organisers_filter`).
    autorank
        The organisers' automatic ranking (:func:`helpers.core.formats.esa.read_autorank`).
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
    human = esa.human_ranking(kept, alpha=alpha)
    both = esa.compare_rankings(human, autorank)
    out = human.merge(both.drop(columns=["score_by_domain", "cluster"]), on=["lp", "system"], how="left")
    out["kind"] = out["system"].map(system_kind)
    return out[ESA_RANKING_COLUMNS]


__all__ = ["REPO", "TED_FILE", "THREE_RATER_FILE", "TABLES", "README_TABLES", "LANGUAGES", "language_pair",
           "pair_names", "tables_for", "COVERAGE_FLOOR", "CertaintyVerdict", "certainty_verdict",
           "smallest_possible_p", "COMPARED", "ROUNDINGS", "reproduce", "rounding_summary", "major_weight_scheme",
           "major_to_minor", "SegmentMatrix", "segment_matrix", "weight_sweep", "rankings", "SchemeAgreement",
           "scheme_agreement", "major_weight_agreement", "icc_by_documents", "top_level", "category_presence",
           "presence_agreement", "error_spans", "span_coverage", "SpanAgreement", "span_table", "category_penalties",
           "SystemTests", "system_tests", "certainty_overstatement", "REFERENCE_SCHEMES", "source_by_severity_scheme",
           "compared_schemes", "scheme_weights", "scheme_rankings", "LLM_BASELINES", "SYSTEM_KINDS", "system_kind",
           "ESA_RANKING_COLUMNS", "esa_ranking"]
