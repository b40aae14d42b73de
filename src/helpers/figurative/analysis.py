"""Do idiom segments draw more MQM errors? The building blocks of chapter 10.

Three ZH→EN data sets of Google's expert MQM release (``helpers.core.formats.mqm.GOOGLE_MQM_REPO``):

* ``newstest2021``: per-segment MQM scores (``*.avg_seg_scores.tsv``) of 15 systems; the
  file has no texts, its ``seg_id`` is the 1-based line of WMT21's source file
  (:data:`NEWSTEST2021_SOURCE`), and it gives no documents, so each segment is its own
  cluster unless a document column is supplied;
* ``ted``: the raw error rows (:data:`TED_FILE`) with the source text;
* ``wmt23``: the three-rater file (``mqm.THREE_RATER_FILE``), raw rows with the source,
  error spans marked ``<v>…</v>`` in the source or the target.

The steps, each DataFrame in, tidy DataFrame out:

1. :func:`segment_table`: one row per (system, segment) with the MQM penalty (mean over
   raters), the source, its length in characters, and the idiom flag of a detector
   (:func:`flag_idioms`);
2. :func:`idiom_effect`: the penalty difference idiom − other segments, controlled for
   source length and system, segments nested in documents: a statsmodels mixed model
   (random intercept per document) and a document-cluster bootstrap of the same OLS
   coefficient, with the minimum detectable difference at 80 % power;
3. :func:`category_table`: the same segments' penalties split by MQM top-level category
   (Accuracy, Fluency, Style, …), zero where a category has no error, for the penalty by
   category of idiom and other segments (TED and WMT23, the files with categories);
4. :func:`span_overlap`: of the source-side error spans in segments with an idiom, the
   share that overlaps an idiom, against the chance rate (the idiom's share of the
   source's characters, as a span of the same length placed uniformly would overlap).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy.stats import norm

from helpers.core.formats import annotations as ann
from helpers.core.formats import mqm
from helpers.core import paths
from helpers.core.statistics import scoring, stats
from helpers.core.errors import InputError
from helpers.core.statistics.schemes import load_scheme

from . import idioms

REPO = mqm.GOOGLE_MQM_REPO
NEWSTEST2021_SCORES = "newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv"
TED_FILE = "ted/zhen/mqm_ted_zhen.tsv"
THREE_RATER_FILE = mqm.THREE_RATER_FILE
NEWSTEST2021_SOURCE = ("wmt-conference/wmt21-news-systems", "txt/sources/newstest2021.zh-en.src.zh")
WMT23_SOURCE = ("wmt-conference/wmt23-news-systems", "txt/sources/generaltest2023.zh-en.src.zh")
DATASETS = ("newstest2021", "ted", "wmt23")


def read_lines(path) -> pd.Series:
    """A one-sentence-per-line text file as a Series indexed by the 1-based line number.

    Parameters
    ----------
    path : path
        A UTF-8 text file, one sentence per line.

    Returns
    -------
    Series
        line_k = the k-th line (k = 1, 2, …), without its newline.

    References
    ----------
    Akhbardeh, F. et al. (2021). Findings of the 2021 Conference on Machine Translation (WMT21)
    (the news test sets and submissions).
    """
    path = paths.resolve_input(path) if not isinstance(path, tuple) else paths.released_file(*path)
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    return pd.Series(lines, index=pd.RangeIndex(1, len(lines) + 1), name="source")


def source_pool() -> pd.DataFrame:
    """Every Chinese source of the three data sets: ``dataset, text_id, source``.

    ``text_id`` is ``newstest2021:LINE``, ``wmt23:LINE`` (lines of the WMT source files) and
    ``ted:DOC:SEG`` (the TED errors file's segments, texts without span markers). The pool
    the authored idiom sample is drawn from.

    Returns
    -------
    DataFrame
        ``dataset, text_id, source``, one row per distinct source text.

    References
    ----------
    Akhbardeh, F. et al. (2021). Findings of the 2021 Conference on Machine Translation (WMT21)
    (the news test sets and submissions).
    Freitag, M. et al. (2021). Experts, errors, and context: a large-scale study of human evaluation
    for machine translation. TACL 9 (the MQM data and scores).
    """
    n21 = read_lines(NEWSTEST2021_SOURCE)
    n23 = read_lines(WMT23_SOURCE)
    ted = mqm.read_mqm(paths.released_file(REPO, TED_FILE), columns=["doc", "doc_seg_id", "source"])
    ted = ted.assign(source=ann.clean_text(ted["source"])).drop_duplicates(["doc", "doc_seg_id"])
    parts = [pd.DataFrame({"dataset": "newstest2021", "text_id": [f"newstest2021:{i}" for i in n21.index],
                           "source": n21.to_numpy()}),
             pd.DataFrame({"dataset": "wmt23", "text_id": [f"wmt23:{i}" for i in n23.index], "source": n23.to_numpy()}),
             pd.DataFrame({"dataset": "ted", "text_id": "ted:" + ted["doc"] + ":" + ted["doc_seg_id"].astype(str),
                           "source": ted["source"].to_numpy()})]
    return pd.concat(parts, ignore_index=True)


def flag_idioms(segments: pd.DataFrame, detector: str = "filtered") -> pd.DataFrame:
    """``segments`` with the idiom flags of its ``source`` texts.

    Parameters
    ----------
    segments : pandas.DataFrame
        Any rows with a ``source`` column (Chinese text; ``<v>`` span markers are removed).
    detector : str
        One of :data:`helpers.figurative.idioms.DETECTORS`.

    Returns
    -------
    pandas.DataFrame
        ``segments`` with ``source_chars`` (characters of the clean source), ``idioms``
        (how many matches) and ``idiom`` (True when there is at least one).

    References
    ----------
    Sun, J. (2012). jieba, Chinese text segmentation (its dictionary's idiom tag ``i``); the
    detectors and their precision on the authored sample: :mod:`helpers.figurative.idioms`.
    """
    if "source" not in segments.columns:
        raise InputError("missing column 'source'", value=list(segments.columns))
    clean = ann.clean_text(segments["source"])
    unique = pd.Series(clean.unique())
    found = idioms.find_idioms(unique, detector)
    per_text = found.groupby("text_id").size()
    count = pd.Series(per_text.reindex(unique.index, fill_value=0).to_numpy(), index=unique.to_numpy())
    out = segments.copy()
    out["source_chars"] = clean.str.len().to_numpy()
    out["idioms"] = clean.map(count).to_numpy().astype("int64")
    out["idiom"] = out["idioms"] > 0
    return out


def _penalties(rows: pd.DataFrame) -> pd.DataFrame:
    """Segment penalties (mean over raters, MQM weights) of annotation rows with their source."""
    ratings = scoring.rater_scores(rows)
    segs = scoring.segment_scores(ratings)
    first = rows.drop_duplicates(["system", "doc", "doc_seg_id"])[["system", "doc", "doc_seg_id", "source"]]
    segs = segs.merge(first.assign(source=ann.clean_text(first["source"])), on=["system", "doc", "doc_seg_id"],
                      how="left", validate="one_to_one")
    return segs


def segment_table(dataset: str, path=None, source_path=None, detector: str = "filtered",
                  rows: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per rated (system, segment) of a data set: its MQM penalty and idiom flag.

    Parameters
    ----------
    dataset : str
        ``newstest2021`` (per-segment scores joined to the WMT21 source by line), ``ted``
        or ``wmt23`` (raw MQM rows with their sources, scored with the MQM weights of
        :mod:`helpers.core.statistics.scoring`).
    path, source_path : path, optional
        Another file of the same form (e.g. a small one); ``source_path`` is the source
        text file of ``newstest2021``. Default: the mirrored release files.
    detector : str
        The idiom detector (:func:`flag_idioms`).
    rows : pandas.DataFrame, optional
        For ``ted`` and ``wmt23``: the file's rows already read (:func:`helpers.core.formats.mqm.read_mqm`).

    Returns
    -------
    pandas.DataFrame
        ``dataset, system, doc, segment, source, source_chars, score, idioms, idiom``:
        ``score`` the penalty (higher is worse), ``doc`` the document (for
        ``newstest2021`` the segment itself: the score file names no documents),
        ``segment`` a key unique within the data set.

    References
    ----------
    Freitag, M. et al. (2021). Experts, errors, and context: a large-scale study of human evaluation
    for machine translation. TACL 9 (the MQM data and scores).
    Akhbardeh, F. et al. (2021). Findings of the 2021 Conference on Machine Translation (WMT21)
    (the news test sets and submissions).
    """
    if dataset == "newstest2021":
        scores = mqm.read_segment_scores(path or paths.released_file(REPO, NEWSTEST2021_SCORES))
        lines = read_lines(source_path or NEWSTEST2021_SOURCE)
        seg = scores["global_seg_id"].astype("int64")
        beyond = ~seg.isin(lines.index)
        if beyond.any():
            raise InputError("seg_id has no line in the source file", file=path, value=int(seg[beyond].iloc[0]),
                             expected=f"1 to {len(lines)}")
        table = pd.DataFrame({"system": scores["system"], "doc": "seg" + seg.astype(str),
                              "segment": seg.astype(str), "source": lines.loc[seg].to_numpy(),
                              "score": scores["score"]})
    elif dataset in ("ted", "wmt23"):
        default = TED_FILE if dataset == "ted" else THREE_RATER_FILE
        rows = mqm.read_mqm(path or paths.released_file(REPO, default)) if rows is None else rows
        segs = _penalties(rows)
        table = pd.DataFrame({"system": segs["system"], "doc": segs["doc"],
                              "segment": segs["doc"] + ":" + segs["doc_seg_id"].astype(str),
                              "source": segs["source"], "score": segs["score"]})
    else:
        raise InputError("unknown data set", parameter="dataset", value=dataset, expected=" or ".join(DATASETS))
    table.insert(0, "dataset", dataset)
    return flag_idioms(table.reset_index(drop=True), detector)


#: Columns of :func:`idiom_effect`'s result.
EFFECT_COLUMNS = ["method", "estimate", "se", "ci_low", "ci_high", "mdd_80", "rows", "segments", "idiom_segments",
                  "documents", "few_clusters"]


def _design(table: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Design matrix of ``score ~ idiom + log(source_chars) + C(system)`` (treatment coding)."""
    systems = sorted(table["system"].unique())
    cols = [np.ones(len(table)), table["idiom"].to_numpy(dtype=float),
            np.log(table["source_chars"].clip(lower=1).to_numpy(dtype=float))]
    cols += [(table["system"] == s).to_numpy(dtype=float) for s in systems[1:]]
    names = ["Intercept", "idiom", "log_chars"] + systems[1:]
    return np.column_stack(cols), table["score"].to_numpy(dtype=float), names


def idiom_effect(table: pd.DataFrame, n_boot: int = 1000, seed: int = 0, ci: float = 95.0,
                 methods=("mixed", "cluster_bootstrap")) -> pd.DataFrame:
    """The penalty difference idiom − other segments, controlled for source length and system.

    The model is ``score ~ idiom + log(source_chars) + system`` on one row per (system,
    segment), fitted two ways that both respect that segments are nested in documents:

    * ``mixed``: a linear mixed model with a random intercept per document (statsmodels
      ``MixedLM``, REML), its Wald interval;
    * ``cluster_bootstrap``: the ordinary least-squares coefficient with a percentile
      interval from resampling whole documents (:func:`helpers.core.statistics.stats.resample`), so
      every system's rating of a segment and every segment of a document move together.

    ``mdd_80`` is the minimum detectable difference, (z₀.₉₇₅ + z₀.₈) · SE: the true effect
    the analysis would detect four times in five at the 5 % level. A null result excludes
    effects larger than about ``mdd_80``, not smaller ones. ``few_clusters`` is True when
    fewer than :data:`helpers.core.statistics.stats.FEW_CLUSTERS` documents hold an idiom segment: the
    percentile bootstrap is then too narrow and large-sample intervals too optimistic
    (TED's five talks; every real data set here with the ``filtered`` detector), so a page
    says so beside the numbers.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`segment_table`'s rows (``system, doc, segment, source_chars, score, idiom``).
    n_boot, seed, ci : int, int, float
        Bootstrap resamples, their seed, the interval level in percent.
    methods : sequence of str
        Which of the two fits to run (the mixed model costs about a second on a data set; the
        per-system and per-category effects use the bootstrap alone).

    Returns
    -------
    pandas.DataFrame
        One row per method, :data:`EFFECT_COLUMNS`.

    Notes
    -----
    Both fits estimate β in score_si = α + β · idiom_i + γ · log(chars_i) + δ_s + u_d(i) + e_si;
    mdd_80 = (z_0.975 + z_0.8) · SE(β̂).

    References
    ----------
    Pinheiro, J. C. & Bates, D. M. (2000). Mixed-Effects Models in S and S-PLUS, ch. 2 (REML);
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, ch. 2.
    """
    import statsmodels.api as sm

    missing = [c for c in ("system", "doc", "segment", "source_chars", "score", "idiom") if c not in table.columns]
    if missing:
        raise InputError("missing column(s) " + ", ".join(missing), value=list(table.columns))
    table = table.dropna(subset=["score"]).reset_index(drop=True)
    x, y, _ = _design(table)
    z = norm.ppf(0.5 + ci / 200)
    power = norm.ppf(1 - 0.025) + norm.ppf(0.8)
    common = {"rows": len(table), "segments": table["segment"].nunique(),
              "idiom_segments": table.loc[table["idiom"], "segment"].nunique(), "documents": table["doc"].nunique(),
              "few_clusters": table.loc[table["idiom"], "doc"].nunique() < stats.FEW_CLUSTERS}
    rows = []
    if table["idiom"].nunique() < 2:
        nan = float("nan")
        return pd.DataFrame([{"method": m, "estimate": nan, "se": nan, "ci_low": nan, "ci_high": nan, "mdd_80": nan}
                             | common for m in methods], columns=EFFECT_COLUMNS)
    if "mixed" in methods:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # convergence chatter on tiny inputs; the estimate is reported as is
            fit = sm.MixedLM(y, x, groups=table["doc"].to_numpy()).fit(reml=True)
        b, se = float(fit.fe_params[1]), float(fit.bse_fe[1])
        rows.append({"method": "mixed", "estimate": b, "se": se, "ci_low": b - z * se, "ci_high": b + z * se,
                     "mdd_80": power * se})
    if "cluster_bootstrap" in methods:
        b, coef = cluster_ols(x, y, table["doc"], table["idiom"].to_numpy(), n_boot, seed)
        low, high = stats.percentile_interval(coef, ci)
        bse = float(np.std(coef, ddof=1))
        rows.append({"method": "cluster_bootstrap", "estimate": b, "se": bse, "ci_low": low, "ci_high": high,
                     "mdd_80": power * bse})
    return pd.DataFrame([r | common for r in rows], columns=EFFECT_COLUMNS)


def cluster_ols(x: np.ndarray, y: np.ndarray, docs, flag: np.ndarray, n_boot: int, seed: int,
                column: int = 1) -> tuple[float, np.ndarray]:
    """The OLS coefficient ``column`` of ``y ~ x`` and its values over document-cluster bootstrap
    resamples (:func:`helpers.core.statistics.stats.resample`), from per-document cross-products
    (X'WX = Σ_g w_g X_g'X_g), so a thousand resamples cost one pass. Resamples in which
    ``flag`` (e.g. the idiom flag) is all true or all false leave the coefficient undefined
    and are dropped.

    Parameters
    ----------
    x : numpy.ndarray
        Design matrix, n × p.
    y : numpy.ndarray
        Response, n.
    docs : sequence
        One document label per row (the clusters resampled).
    flag : numpy.ndarray
        A 0/1 column that must vary within a resample.
    n_boot : int
        Resamples.
    seed : int
        Seed of the resamples.
    column : int, default 1
        The coefficient returned.

    Returns
    -------
    tuple
        (β̂_column of β̂ = (X'X)⁻¹ X'y, its B resampled values (X'WX)⁻¹ X'Wy, W = diag(w_b)).

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    labels = stats.cluster_labels(pd.Series(docs))
    g = labels.max() + 1
    xtx = np.zeros((g, x.shape[1], x.shape[1]))
    np.add.at(xtx, labels, np.einsum("ni,nj->nij", x, x))
    xty = np.zeros((g, x.shape[1]))
    np.add.at(xty, labels, x * y[:, None])
    full = np.linalg.lstsq(xtx.sum(0), xty.sum(0), rcond=None)[0]
    weights = stats.resample(g, n_boot, seed=seed)
    a = np.einsum("bg,gij->bij", weights, xtx) + 1e-9 * np.eye(x.shape[1])
    coef = np.linalg.solve(a, np.einsum("bg,gi->bi", weights, xty)[..., None])[..., 0][:, column]
    flag = pd.Series(np.asarray(flag, dtype=bool))
    defined = np.isfinite(coef) & (weights @ flag.groupby(labels).any().to_numpy() > 0) & \
        (weights @ (~flag.groupby(labels).all()).to_numpy() > 0)
    return float(full[column]), coef[defined]


def chance_overlap(length: int, chars: int, intervals: list[tuple[int, int]]) -> float:
    """Probability that a span of ``length`` characters, its start drawn uniformly among the
    ``chars − length + 1`` places in a source of ``chars`` characters, overlaps one of
    ``intervals`` (``(start, end)``, end exclusive). For a one-character span it is the
    intervals' share of the characters.

    Parameters
    ----------
    length : int
        Span length L.
    chars : int
        Source length n.
    intervals : list of (int, int)
        Idiom intervals, end exclusive.

    Returns
    -------
    float
        P = #{starts t in 0 … n − L : [t, t + L) meets an interval} / (n − L + 1).

    References
    ----------
    Feller, W. (1968). An Introduction to Probability Theory and Its Applications, vol. 1, 3rd ed.,
    ch. I (equally likely outcomes).

    Examples
    --------
    >>> chance_overlap(1, 10, [(2, 6)])  # 4 of 10 characters
    0.4
    >>> chance_overlap(3, 10, [(2, 6)])  # starts 0…7: those 0…5 reach characters 2…5
    0.75
    """
    places = chars - length + 1
    if length < 1 or places < 1:
        return float("nan")
    starts = np.arange(places)
    hit = np.zeros(places, dtype=bool)
    for s, e in intervals:
        hit |= (starts < e) & (starts + length > s)
    return float(hit.mean())


def span_overlap(rows: pd.DataFrame, detector: str = "filtered") -> pd.DataFrame:
    """Source-side error spans in segments with an idiom: does each overlap an idiom?

    Parameters
    ----------
    rows : pandas.DataFrame
        MQM annotation rows (:func:`helpers.core.formats.mqm.read_mqm`) with ``source``,
        ``source_start`` and ``source_end`` (offsets of the ``<v>`` span in the clean
        source, NA where the error is marked in the target).
    detector : str
        The idiom detector.

    Returns
    -------
    pandas.DataFrame
        One row per non-empty source span whose segment has an idiom: ``system, doc,
        doc_seg_id, rater, category, severity, span_start, span_end, source_chars,
        idiom_chars, share`` (the idioms' share of the characters), ``chance``
        (:func:`chance_overlap` for the span's length) and ``overlap`` (True when the span
        shares a character with an idiom).

    References
    ----------
    Freitag, M. et al. (2021). Experts, errors, and context: a large-scale study of human evaluation
    for machine translation. TACL 9 (the MQM data and scores).
    Kocmi, T. et al. (2023). Findings of WMT23 (the three-rater MQM spans).
    """
    missing = [c for c in ("source", "source_start", "source_end") if c not in rows.columns]
    if missing:
        raise InputError("missing column(s) " + ", ".join(missing), value=list(rows.columns))
    spans = rows[rows["source_start"].notna() & (rows["source_end"] > rows["source_start"])].copy()
    spans["clean"] = ann.clean_text(spans["source"]).to_numpy()
    unique = pd.Series(spans["clean"].unique())
    found = idioms.find_idioms(unique, detector)
    where = {unique[i]: list(zip(g["start"], g["end"])) for i, g in found.groupby("text_id")}
    spans = spans[spans["clean"].isin(where)]
    out = []
    for r in spans.itertuples(index=False):
        intervals, a, b, n = where[r.clean], int(r.source_start), int(r.source_end), len(r.clean)
        covered = np.zeros(n, dtype=bool)
        for s, e in intervals:
            covered[s:e] = True
        out.append({"system": r.system, "doc": r.doc, "doc_seg_id": r.doc_seg_id, "rater": r.rater,
                    "category": r.category, "severity": r.severity, "span_start": a, "span_end": b,
                    "source_chars": n, "idiom_chars": int(covered.sum()), "share": covered.mean(),
                    "chance": chance_overlap(b - a, n, intervals), "overlap": bool(covered[a:b].any())})
    columns = ["system", "doc", "doc_seg_id", "rater", "category", "severity", "span_start", "span_end",
               "source_chars", "idiom_chars", "share", "chance", "overlap"]
    return pd.DataFrame(out, columns=columns)


def overlap_summary(spans: pd.DataFrame, n_boot: int = 1000, seed: int = 0, ci: float = 95.0) -> pd.DataFrame:
    """How often source spans overlap an idiom, against chance, with a document-resampled interval.

    Parameters
    ----------
    spans : pandas.DataFrame
        :func:`span_overlap`'s rows.
    n_boot, seed, ci : int, int, float
        Bootstrap resamples (whole documents), their seed, the interval level in percent.

    Returns
    -------
    pandas.DataFrame
        One row: ``spans, documents, observed`` (share of spans that overlap an idiom),
        ``chance`` (mean chance rate), ``share`` (mean character share of the idioms),
        ``difference`` (observed − chance) with ``ci_low``, ``ci_high``, and ``ratio``
        (observed / chance).

    Notes
    -----
    observed = (1/N) · sum_i overlap_i and chance = (1/N) · sum_i chance_i over the N spans;
    difference = observed − chance, its interval from resampling documents.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    Efron, B. & Tibshirani, R. (1993). An Introduction to the Bootstrap, §13.3.
    """
    nan = float("nan")
    if spans.empty:
        return pd.DataFrame([{"spans": 0, "documents": 0, "observed": nan, "chance": nan, "share": nan,
                              "difference": nan, "ci_low": nan, "ci_high": nan, "ratio": nan}])
    observed, chance = spans["overlap"].to_numpy(dtype=float), spans["chance"].to_numpy(dtype=float)
    weights = stats.resample(len(spans), n_boot, seed=seed, clusters=spans["doc"].to_numpy())
    diff = stats.weighted_mean(observed - chance, weights)
    low, high = stats.percentile_interval(diff, ci)
    return pd.DataFrame([{"spans": len(spans), "documents": spans["doc"].nunique(), "observed": observed.mean(),
                          "chance": chance.mean(), "share": spans["share"].mean(),
                          "difference": observed.mean() - chance.mean(), "ci_low": low, "ci_high": high,
                          "ratio": observed.mean() / chance.mean() if chance.mean() > 0 else nan}])


def category_table(rows: pd.DataFrame, detector: str = "filtered", scheme: str = "mqm") -> pd.DataFrame:
    """Segment penalties by MQM top-level category, with the segments' idiom flags.

    Parameters
    ----------
    rows : pandas.DataFrame
        MQM annotation rows with their ``source`` (:func:`helpers.core.formats.mqm.read_mqm`).
    detector : str
        The idiom detector (:func:`flag_idioms`).
    scheme : str
        The weighting scheme (:func:`helpers.core.statistics.schemes.load_scheme`).

    Returns
    -------
    pandas.DataFrame
        One row per (system, segment, top-level category): ``system, doc, segment,
        category, score`` (the category's weights summed per rater, averaged over the
        segment's raters; the categories of a segment add up to its score),
        ``source_chars, idioms, idiom``. Every segment has every category that occurs in
        ``rows``, with score 0 where it has none.

    References
    ----------
    Freitag, M. et al. (2021). Experts, errors, and context: a large-scale study of human evaluation
    for machine translation. TACL 9 (the MQM data and scores).
    Lommel, A., Uszkoreit, H. & Burchardt, A. (2014). Multidimensional Quality Metrics (MQM).
    Tradumàtica 12, 455–463 (the top-level categories).
    """
    rows = rows[rows["severity"] != ann.HOTW]
    unit = ["system", "doc", "doc_seg_id"]
    raters = rows.groupby(unit)["rater"].nunique().rename("raters")
    errors = rows[rows["severity"] != ann.NO_ERROR]
    errors = errors.assign(category=ann.top_level(errors["category"]).to_numpy(),
                           weight=load_scheme(scheme).weights(errors).fillna(0.0).to_numpy())
    summed = errors.groupby(unit + ["category"])["weight"].sum().rename("weight").reset_index()
    segments = rows.drop_duplicates(unit)[unit + ["source"]].merge(raters.reset_index(), on=unit)
    grid = segments.merge(pd.DataFrame({"category": sorted(summed["category"].unique())}), how="cross")
    grid = grid.merge(summed, on=unit + ["category"], how="left")
    out = pd.DataFrame({"system": grid["system"], "doc": grid["doc"],
                        "segment": grid["doc"] + ":" + grid["doc_seg_id"].astype(str), "category": grid["category"],
                        "score": grid["weight"].fillna(0.0) / grid["raters"], "source": grid["source"]})
    return flag_idioms(out, detector).drop(columns="source")


def sample_matches(pool: pd.DataFrame, n: int = 170, seed: int = 34) -> pd.DataFrame:
    """The draw behind the authored idiom sample: ``n`` raw-tag matches of the ``pool``'s
    sources (:func:`source_pool`), drawn without replacement with ``numpy``'s generator
    seeded ``seed``, in pool order; ``sample_id, dataset, text_id, start, end, idiom,
    context`` (the match in 【】 with up to 25 characters each side), unlabelled.

    Parameters
    ----------
    pool : DataFrame
        :func:`source_pool`'s rows.
    n : int, default 170
        Matches drawn.
    seed : int, default 34
        Seed of the draw.

    Returns
    -------
    DataFrame
        The n drawn matches, each with P(drawn) = n / N among the N matches of the pool.

    References
    ----------
    Cochran, W. G. (1977). Sampling Techniques, 3rd ed., ch. 2 (simple random sampling without
    replacement).
    """
    texts = pool.set_index("text_id")["source"]
    found = idioms.find_idioms(texts, "raw")
    picked = np.sort(np.random.default_rng(seed).choice(len(found), n, replace=False))
    out = found.iloc[picked].reset_index(drop=True)
    source = texts.loc[out["text_id"]].to_numpy()
    out["context"] = [s[max(0, a - 25):a] + "【" + i + "】" + s[b:b + 25]
                      for s, a, b, i in zip(source, out["start"], out["end"], out["idiom"])]
    out["dataset"] = out["text_id"].str.split(":").str[0]
    out.insert(0, "sample_id", [f"I{i + 1:03d}" for i in range(n)])
    return out[["sample_id", "dataset", "text_id", "start", "end", "idiom", "context"]]


#: WMT23's LLM-based systems (GPT-4 prompted with five examples; Lan-BridgeMT, built on an LLM); the others are
#: NMT and online systems.
LLM_SYSTEMS = ("GPT4-5shot", "Lan-BridgeMT")


def system_effects(table: pd.DataFrame, n_boot: int = 1000, seed: int = 0, ci: float = 95.0) -> pd.DataFrame:
    """The idiom effect of each system of each data set: :func:`idiom_effect` (document-cluster
    bootstrap, controlled for source length) on that system's rows alone.

    Parameters
    ----------
    table : DataFrame
        :func:`segment_table`'s rows of one or more data sets.
    n_boot : int, default 1000
        Document resamples.
    seed : int, default 0
        Seed of the resamples.
    ci : float, default 95.0
        Coverage in percent.

    Returns
    -------
    pandas.DataFrame
        ``dataset, system, llm`` (True for :data:`LLM_SYSTEMS`) and :data:`EFFECT_COLUMNS`.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    frames = []
    for (dataset, system), part in table.groupby(["dataset", "system"], sort=True):
        got = idiom_effect(part, n_boot=n_boot, seed=seed, ci=ci, methods=("cluster_bootstrap",))
        got.insert(0, "llm", system in LLM_SYSTEMS)
        got.insert(0, "system", system)
        got.insert(0, "dataset", dataset)
        frames.append(got)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["dataset", "system", "llm"] + EFFECT_COLUMNS)


def llm_contrast(table: pd.DataFrame, llm=LLM_SYSTEMS, n_boot: int = 1000, seed: int = 0,
                 ci: float = 95.0) -> pd.DataFrame:
    """Is the idiom penalty of the LLM-based systems different from the others'?

    The model ``score ~ idiom + log(source_chars) + system + idiom·llm`` on one data set's
    rows; the coefficient of ``idiom·llm`` is the LLM systems' idiom effect minus the other
    systems', with a document-cluster bootstrap interval (:func:`cluster_ols`) and the
    minimum detectable difference at 80 % power.

    Parameters
    ----------
    table : DataFrame
        :func:`segment_table`'s rows of one data set.
    llm : collection of str
        The LLM-based systems.
    n_boot : int, default 1000
        Document resamples.
    seed : int, default 0
        Seed of the resamples.
    ci : float, default 95.0
        Coverage in percent.

    Returns
    -------
    pandas.DataFrame
        One row ``llm_systems, other_systems, estimate, se, ci_low, ci_high, mdd_80,
        idiom_segments, documents``; NaN when the data set has no LLM system, no other
        system, or no idiom segment.

    Notes
    -----
    estimate = β̂ of idiom · llm in score = α + β₁ · idiom + β · idiom · llm + γ · log(chars) + δ_s + e;
    mdd_80 = (z_0.975 + z_0.8) · SE, SE the standard deviation of the resampled β.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, ch. 2.
    """
    table = table.dropna(subset=["score"]).reset_index(drop=True)
    is_llm = table["system"].isin(list(llm)).to_numpy()
    x, y, _ = _design(table)
    x = np.column_stack([x, x[:, 1] * is_llm])
    out = {"llm_systems": ", ".join(sorted(table.loc[is_llm, "system"].unique())),
           "other_systems": int(table.loc[~is_llm, "system"].nunique()), "estimate": float("nan"),
           "se": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"), "mdd_80": float("nan"),
           "idiom_segments": int(table.loc[table["idiom"], "segment"].nunique()), "documents": table["doc"].nunique()}
    if is_llm.any() and (~is_llm).any() and table["idiom"].nunique() == 2:
        b, coef = cluster_ols(x, y, table["doc"], table["idiom"].to_numpy(), n_boot, seed, column=x.shape[1] - 1)
        se = float(np.std(coef, ddof=1))
        low, high = stats.percentile_interval(coef, ci)
        out.update(estimate=b, se=se, ci_low=low, ci_high=high, mdd_80=(norm.ppf(0.975) + norm.ppf(0.8)) * se)
    return pd.DataFrame([out])


def category_effects(categories: pd.DataFrame, n_boot: int = 1000, seed: int = 0, ci: float = 95.0) -> pd.DataFrame:
    """The penalty by MQM category of idiom and other segments (:func:`category_table`'s rows,
    with a ``dataset`` column): the two means and the controlled idiom effect (document-cluster
    bootstrap, :func:`idiom_effect`) per data set and category.

    Parameters
    ----------
    categories : DataFrame
        :func:`category_table`'s rows with a ``dataset`` column.
    n_boot : int, default 1000
        Document resamples.
    seed : int, default 0
        Seed of the resamples.
    ci : float, default 95.0
        Coverage in percent.

    Returns
    -------
    pandas.DataFrame
        ``dataset, category, idiom_mean, other_mean`` and :data:`EFFECT_COLUMNS`.

    Notes
    -----
    idiom_mean and other_mean are the mean category penalties of the two groups of segments; the
    effect is :func:`idiom_effect`'s β on the category's penalties.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    frames = []
    for (dataset, category), part in categories.groupby(["dataset", "category"], sort=True):
        got = idiom_effect(part, n_boot=n_boot, seed=seed, ci=ci, methods=("cluster_bootstrap",))
        means = part.groupby("idiom")["score"].mean()
        got.insert(0, "other_mean", means.get(False, float("nan")))
        got.insert(0, "idiom_mean", means.get(True, float("nan")))
        got.insert(0, "category", category)
        got.insert(0, "dataset", dataset)
        frames.append(got)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["dataset", "category", "idiom_mean", "other_mean"] + EFFECT_COLUMNS)


def _idiom_contrast(est: dict, boot: dict, idiom: np.ndarray, ci: float, counts) -> pd.DataFrame:
    """Rows ``idiom``, ``other`` and ``difference`` (idiom − other): each statistic ``est`` with
    the percentile interval of its bootstrap values ``boot`` (non-finite resamples left out),
    and ``counts(mask)``, the columns that say what the row rests on."""
    est["difference"], boot["difference"] = est["idiom"] - est["other"], boot["idiom"] - boot["other"]
    out = []
    for name in ("idiom", "other", "difference"):
        mask = idiom if name == "idiom" else ~idiom if name == "other" else np.ones(len(idiom), dtype=bool)
        values = boot[name][np.isfinite(boot[name])]
        low, high = stats.percentile_interval(values, ci) if len(values) else (np.nan, np.nan)
        out.append({"group": name, "estimate": est[name], "ci_low": low, "ci_high": high, **counts(mask)})
    return pd.DataFrame(out)


def agreement_by_idiom(rows: pd.DataFrame, detector: str = "filtered", n_boot: int = 1000, seed: int = 0,
                       ci: float = 95.0) -> pd.DataFrame:
    """Do raters agree less on idiom segments? Interval Krippendorff's α of the raters' segment
    penalties (:func:`helpers.core.statistics.scoring.rater_scores`) on the (system, segment) units whose
    source has an idiom and on the others, and their difference.

    The intervals resample whole documents (every unit of a drawn document comes along, in
    both groups at once, so the difference is paired), through
    :func:`helpers.core.statistics.agreement.interval_alpha_weighted`.

    Parameters
    ----------
    rows : DataFrame
        MQM annotation rows with their sources.
    detector : str, default "filtered"
        The idiom detector.
    n_boot : int, default 1000
        Document resamples.
    seed : int, default 0
        Seed of the resamples.
    ci : float, default 95.0
        Coverage in percent.

    Returns
    -------
    pandas.DataFrame
        Rows ``group`` ``idiom``, ``other``, ``difference`` (idiom − other) with
        ``estimate, ci_low, ci_high, units, documents``; α is NaN for a group with no unit
        rated by two raters.

    Notes
    -----
    α = 1 − D_o / D_e with the interval difference δ² = (v − v')²; difference = α_idiom − α_other.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    from helpers.core.statistics.agreement import interval_alpha_weighted, krippendorff_alpha

    ratings = scoring.rater_scores(rows)
    unit = ["system", "doc", "doc_seg_id"]
    sources = rows.drop_duplicates(unit)[unit + ["source"]]
    flagged = flag_idioms(sources, detector).set_index(unit)["idiom"]
    wide = ratings.pivot_table(index=unit, columns="rater", values="penalty", aggfunc="first")
    wide = wide[wide.notna().sum(axis=1) >= 2]
    idiom = flagged.reindex(wide.index).fillna(False).to_numpy(dtype=bool)
    data = wide.to_numpy(dtype=float)
    docs = wide.index.get_level_values("doc").to_numpy()
    weights = stats.resample(len(wide), n_boot, seed=seed, clusters=docs)
    nan = float("nan")
    est, boot = {}, {}
    for name, mask in (("idiom", idiom), ("other", ~idiom)):
        if mask.sum() >= 2:
            est[name] = krippendorff_alpha(data[mask].T, level="interval")
            boot[name] = interval_alpha_weighted(data[mask], weights[:, mask])
        else:
            est[name], boot[name] = nan, np.full(n_boot, nan)
    return _idiom_contrast(est, boot, idiom, ci, lambda mask: {"units": int(mask.sum()),
                                                               "documents": len(set(docs[mask]))})


def sentence_chrf(hypotheses, references) -> np.ndarray:
    """Sentence chrF (sacrebleu's defaults: character 6-grams, β = 2) of each hypothesis
    against its reference.

    Parameters
    ----------
    hypotheses, references : sequence of str
        Paired sentences.

    Returns
    -------
    numpy.ndarray
        chrF_β = (1 + β²) · chrP · chrR / (β² · chrP + chrR) · 100 per sentence, β = 2, chrP and chrR
        the character n-gram precision and recall averaged over n = 1 … 6.

    References
    ----------
    Popović, M. (2015). chrF: character n-gram F-score for automatic MT evaluation. WMT.
    Post, M. (2018). A call for clarity in reporting BLEU scores. WMT (sacrebleu).
    """
    from sacrebleu.metrics import CHRF

    chrf = CHRF()
    return np.array([chrf.sentence_score(h, [r]).score for h, r in zip(hypotheses, references)])


def metric_agreement(scored: pd.DataFrame, metric: str = "chrf", n_boot: int = 1000, seed: int = 0,
                     ci: float = 95.0) -> pd.DataFrame:
    """Does the metric see the experts' penalties as well on idiom segments as on the others?

    Pearson's r between the metric and the negated MQM penalty (both higher = better) over the
    (system, segment) cells of idiom segments and of the others, and their difference; the
    intervals resample whole documents (both groups at once, so the difference is paired).

    Parameters
    ----------
    scored : pandas.DataFrame
        :func:`segment_table` rows with a column named ``metric``.

    Returns
    -------
    pandas.DataFrame
        Rows ``group`` ``idiom``, ``other``, ``difference`` (idiom − other) with ``metric,
        estimate, ci_low, ci_high, cells, segments``.

    Notes
    -----
    r = sum (m_i − m̄)(h_i − h̄) / sqrt(sum (m_i − m̄)² · sum (h_i − h̄)²), h the negated penalty;
    difference = r_idiom − r_other.

    References
    ----------
    Freitag, M. et al. (2023). Results of WMT23 Metrics Shared Task (segment-level Pearson r);
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    scored = scored.dropna(subset=["score", metric]).reset_index(drop=True)
    human, auto = -scored["score"].to_numpy(dtype=float), scored[metric].to_numpy(dtype=float)
    idiom = scored["idiom"].to_numpy(dtype=bool)
    weights = stats.resample(len(scored), n_boot, seed=seed, clusters=scored["doc"].to_numpy())

    def pearson(mask, w):
        w = w * mask
        total = w.sum(axis=-1, keepdims=True)
        mx, my = (w * auto).sum(-1, keepdims=True) / total, (w * human).sum(-1, keepdims=True) / total
        cov = (w * (auto - mx) * (human - my)).sum(-1)
        return cov / np.sqrt((w * (auto - mx) ** 2).sum(-1) * (w * (human - my) ** 2).sum(-1))

    nan = float("nan")
    est, boot = {}, {}
    with np.errstate(invalid="ignore", divide="ignore"):
        for name, mask in (("idiom", idiom), ("other", ~idiom)):
            est[name] = float(pearson(mask, np.ones((1, len(mask))))[0]) if mask.sum() > 2 else nan
            boot[name] = pearson(mask, weights) if mask.sum() > 2 else np.full(n_boot, nan)
    out = _idiom_contrast(est, boot, idiom, ci, lambda mask: {"cells": int(mask.sum()),
                                                              "segments": scored.loc[mask, "segment"].nunique()})
    out.insert(1, "metric", metric)
    return out
