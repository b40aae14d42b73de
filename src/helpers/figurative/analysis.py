"""Do idiom segments draw more MQM errors? The building blocks of chapter 10.

Three ZH→EN data sets of Google's expert MQM release (``helpers.core.formats.mqm.GOOGLE_MQM_REPO``):

* ``newstest2021``: per-segment MQM scores (``*.avg_seg_scores.tsv``) of 15 systems; the
  file has no texts, its ``seg_id`` is the 1-based line of WMT21's source file
  (the registry's ``newstest2021`` ``source``), and it gives no documents, so each segment is its own
  cluster unless a document column is supplied;
* ``ted``: the raw error rows (the registry's ``ted`` ``mqm``) with the source text;
* ``wmt23``: the three-rater file (the registry's ``generaltest2023`` ``mqm``), raw rows with the source,
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
4. :func:`helpers.figurative.error_spans.span_overlap`: of the source-side error spans in segments with an idiom, the
   share that overlaps an idiom, against the chance rate (the idiom's share of the
   source's characters, as a span of the same length placed uniformly would overlap).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from helpers.core import paths
from helpers.core.errors import InputError
from helpers.core.formats import annotations as ann
from helpers.core.formats import mqm, testsets, texts
from helpers.core.statistics import scoring, stats
from helpers.core.statistics.schemes import load_scheme

from . import design, idioms

#: The registered test sets (:mod:`helpers.core.formats.testsets`) each data set's released files come from.
TESTSETS = {"newstest2021": "newstest2021", "ted": "ted", "wmt23": "generaltest2023"}
DATASETS = ("newstest2021", "ted", "wmt23")


def released(dataset: str, kind: str) -> Path:
    """The fetched file of ``kind`` of one of :data:`DATASETS`, as the registry of test sets names it.

    Parameters
    ----------
    dataset : str
        ``newstest2021``, ``ted`` or ``wmt23``.
    kind : str
        ``source``, ``mqm`` or ``mqm_scores`` (:meth:`helpers.core.formats.testsets.TestSet.file`).

    Returns
    -------
    Path
        The local copy (FileNotFoundError with the fetch command when it is not there).

    References
    ----------
    Freitag, M. et al. (2021). Experts, errors, and context: a large-scale study of human evaluation
    for machine translation. TACL 9 (the MQM data).
    """
    return testsets.get(TESTSETS[dataset]).file(kind)


def read_lines(path) -> pd.Series:
    """A one-sentence-per-line text file (:func:`helpers.core.formats.texts.read_lines`, the one
    reader) as a Series indexed by the 1-based line number.

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
    path = paths.resolve_input(path)
    lines = texts.read_lines(path)
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
    n21 = read_lines(released("newstest2021", "source"))
    n23 = read_lines(released("wmt23", "source"))
    ted = mqm.read_mqm(released("ted", "mqm"), columns=["doc", "doc_seg_id", "source"])
    ted = ted.assign(source=ann.clean_text(ted["source"])).drop_duplicates(["doc", "doc_seg_id"])
    parts = [
        pd.DataFrame(
            {"dataset": "newstest2021", "text_id": [f"newstest2021:{i}" for i in n21.index], "source": n21.to_numpy()}
        ),
        pd.DataFrame({"dataset": "wmt23", "text_id": [f"wmt23:{i}" for i in n23.index], "source": n23.to_numpy()}),
        pd.DataFrame(
            {
                "dataset": "ted",
                "text_id": "ted:" + ted["doc"] + ":" + ted["doc_seg_id"].astype(str),
                "source": ted["source"].to_numpy(),
            }
        ),
    ]
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


def flag_all(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with one boolean column ``det_<detector>`` per detector of
    :data:`helpers.figurative.idioms.DETECTORS` (each source cut once for all of them).

    Parameters
    ----------
    table : DataFrame
        Rows with a clean ``source``.

    Returns
    -------
    DataFrame
        ``table`` and ``det_raw, det_filtered, det_strict, det_xinhua``.

    References
    ----------
    :mod:`helpers.figurative.idioms` (the detectors).
    """
    unique = pd.Series(table["source"].dropna().unique())
    found = idioms.find_idioms(unique, list(idioms.DETECTORS))
    out = table.copy()
    for name in idioms.DETECTORS:
        texts = set(unique[found.loc[found["detector"] == name, "text_id"].unique()])
        out[f"det_{name}"] = out["source"].isin(texts)
    return out


def require_source(rows: pd.DataFrame, file) -> None:
    """MQM rows must carry Chinese sources (:func:`helpers.figurative.idioms.require_chinese`).

    Parameters
    ----------
    rows : DataFrame
        MQM annotation rows.
    file : path or str
        The file they came from, named in the error.

    Returns
    -------
    None
        Raises :class:`~helpers.core.errors.InputError` naming ``file`` when the ``source`` column is
        missing or holds no Chinese character.

    References
    ----------
    Freitag, M. et al. (2021), the MQM files' columns (``helpers.core.formats.mqm``).
    """
    if "source" not in rows.columns or rows["source"].isna().all():
        raise InputError("missing column 'source'", file=file, expected="an MQM file with the source text")
    idioms.require_chinese(ann.clean_text(rows["source"].dropna().drop_duplicates()), file=file, column="source")


def _penalties(rows: pd.DataFrame) -> pd.DataFrame:
    """Segment penalties (mean over raters, MQM weights) of annotation rows with their source."""
    ratings = scoring.rater_scores(rows)
    segs = scoring.segment_scores(ratings)
    first = rows.drop_duplicates(["system", "doc", "doc_seg_id"])[["system", "doc", "doc_seg_id", "source"]]
    segs = segs.merge(
        first.assign(source=ann.clean_text(first["source"])),
        on=["system", "doc", "doc_seg_id"],
        how="left",
        validate="one_to_one",
    )
    return segs


def segment_table(
    dataset: str, path=None, source_path=None, detector: str = "filtered", rows: pd.DataFrame | None = None
) -> pd.DataFrame:
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
        scores = mqm.read_segment_scores(path or released("newstest2021", "mqm_scores"))
        source_path = source_path or released("newstest2021", "source")
        lines = read_lines(source_path)
        idioms.require_chinese(lines, file=source_path)
        seg = scores["global_seg_id"].astype("int64")
        beyond = ~seg.isin(lines.index)
        if beyond.any():
            raise InputError(
                "seg_id has no line in the source file",
                file=path,
                value=int(seg[beyond].iloc[0]),
                expected=f"1 to {len(lines)}",
            )
        table = pd.DataFrame(
            {
                "system": scores["system"],
                "doc": "seg" + seg.astype(str),
                "segment": seg.astype(str),
                "source": lines.loc[seg].to_numpy(),
                "score": scores["score"],
            }
        )
    elif dataset in ("ted", "wmt23"):
        rows = mqm.read_mqm(path or released(dataset, "mqm")) if rows is None else rows
        segs = _penalties(rows)
        table = pd.DataFrame(
            {
                "system": segs["system"],
                "doc": segs["doc"],
                "segment": segs["doc"] + ":" + segs["doc_seg_id"].astype(str),
                "source": segs["source"],
                "score": segs["score"],
            }
        )
    else:
        raise InputError("unknown data set", parameter="dataset", value=dataset, expected=" or ".join(DATASETS))
    table.insert(0, "dataset", dataset)
    return flag_idioms(table.reset_index(drop=True), detector)


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
    errors = errors.assign(
        category=ann.top_level(errors["category"]).to_numpy(),
        weight=load_scheme(scheme).weights(errors).fillna(0.0).to_numpy(),
    )
    summed = errors.groupby(unit + ["category"])["weight"].sum().rename("weight").reset_index()
    segments = rows.drop_duplicates(unit)[unit + ["source"]].merge(raters.reset_index(), on=unit)
    grid = segments.merge(pd.DataFrame({"category": sorted(summed["category"].unique())}), how="cross")
    grid = grid.merge(summed, on=unit + ["category"], how="left")
    out = pd.DataFrame(
        {
            "system": grid["system"],
            "doc": grid["doc"],
            "segment": grid["doc"] + ":" + grid["doc_seg_id"].astype(str),
            "category": grid["category"],
            "score": grid["weight"].fillna(0.0) / grid["raters"],
            "source": grid["source"],
        }
    )
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
    out["context"] = [
        s[max(0, a - 25) : a] + "【" + i + "】" + s[b : b + 25]
        for s, a, b, i in zip(source, out["start"], out["end"], out["idiom"])
    ]
    out["dataset"] = out["text_id"].str.split(":").str[0]
    out.insert(0, "sample_id", [f"I{i + 1:03d}" for i in range(n)])
    return out[["sample_id", "dataset", "text_id", "start", "end", "idiom", "context"]]


def category_effects(categories: pd.DataFrame, n_boot: int = 1000, seed: int = 0, ci: float = 95.0) -> pd.DataFrame:
    """The penalty by MQM category of idiom and other segments (:func:`category_table`'s rows,
    with a ``dataset`` column): the two means and the controlled idiom effect
    (:func:`helpers.figurative.design.idiom_effect`, no permutation) per data set and category.

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
        ``dataset, category, idiom_mean, other_mean, idiom_error_segments, other_error_segments`` (segments
        with an error of the category) and :data:`helpers.figurative.design.EFFECT_COLUMNS`.

    Notes
    -----
    idiom_mean and other_mean are the mean category penalties of the two groups of segments; the
    effect is the idiom coefficient on the category's penalties.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """

    def means(part):
        mean = part.groupby("idiom")["score"].mean()
        hit = part[part["score"] > 0].groupby("idiom")["segment"].nunique()
        return {
            "idiom_mean": mean.get(True, float("nan")),
            "other_mean": mean.get(False, float("nan")),
            "idiom_error_segments": int(hit.get(True, 0)),
            "other_error_segments": int(hit.get(False, 0)),
        }

    return design.effects_by(
        categories, ["dataset", "category"], extra=means, n_boot=n_boot, seed=seed, ci=ci, n_perm=0
    )


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


def agreement_by_idiom(
    rows: pd.DataFrame, detector: str = "filtered", n_boot: int = 1000, seed: int = 0, ci: float = 95.0
) -> pd.DataFrame:
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
    return _idiom_contrast(
        est, boot, idiom, ci, lambda mask: {"units": int(mask.sum()), "documents": len(set(docs[mask]))}
    )


def token_tags(
    posts: pd.DataFrame, detector: str = "xinhua", n_boot: int = 1000, seed: int = 0, ci: float = 95.0
) -> pd.DataFrame:
    """Are source tokens inside an idiom tagged as errors more often than other tokens?

    HADQAET's posts carry word-level OK/BAD tags on their (segmented) source. A token is an idiom
    token when it shares a character with a detector's match in the post's text (tokens joined
    without spaces). The share of BAD tags among idiom tokens and among the others, and the
    difference, with intervals that resample whole posts (a post's tokens are not independent;
    the same post text in two splits is one cluster). Two scopes: every post, and only the posts
    that hold an idiom (so a post's overall difficulty is held fixed).

    Parameters
    ----------
    posts : DataFrame
        ``source`` (space-separated tokens) and ``source_tags`` (one ``OK``/``BAD`` per token).
    detector : str
        The idiom detector.
    n_boot, seed, ci
        Post resamples, their seed, coverage in percent.

    Returns
    -------
    DataFrame
        ``scope`` (``all``, ``idiom_posts``), ``group`` (``idiom``, ``other``, ``difference``),
        ``estimate, ci_low, ci_high, tokens, posts``.

    Notes
    -----
    rate_g = Σ BAD_t / Σ 1 over the tokens t of group g; difference = rate_idiom − rate_other.

    References
    ----------
    Qian, S. et al. (2025). HADQAET (the word-level tags; via MTL4QE's splits).
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    missing = [c for c in ("source", "source_tags") if c not in posts.columns]
    if missing:
        raise InputError("missing column(s) " + ", ".join(missing), value=list(posts.columns))
    texts = posts["source"].astype(str).str.replace(" ", "", regex=False).reset_index(drop=True)
    idioms.require_chinese(texts, file="the posts' sources")
    found = idioms.find_idioms(texts, detector)
    spans = found.groupby("text_id")[["start", "end"]].apply(lambda g: list(zip(g["start"], g["end"]))).to_dict()
    post, inside, bad = [], [], []
    joined = texts.tolist()  # (indexing the Series once per token was most of this step's time)
    for i, (source, tags) in enumerate(zip(posts["source"], posts["source_tags"])):
        at, within = 0, spans.get(i, [])
        for token, tag in zip(str(source).split(), str(tags).split()):
            a, b = at, at + len(token)
            at = b
            post.append(joined[i])
            inside.append(any(s < b and e > a for s, e in within))
            bad.append(tag == "BAD")
    tokens = pd.DataFrame({"post": post, "idiom": inside, "bad": np.array(bad, dtype=float)})
    per_post = tokens.groupby(["post", "idiom"])["bad"].agg(["sum", "size"]).unstack(fill_value=0)
    per_post = per_post.reindex(columns=pd.MultiIndex.from_product([["sum", "size"], [False, True]]), fill_value=0)
    counts = {
        g: (per_post[("sum", flag)].to_numpy(dtype=float), per_post[("size", flag)].to_numpy(dtype=float))
        for g, flag in (("idiom", True), ("other", False))
    }
    rows = []
    for scope, keep in (("all", np.ones(len(per_post), dtype=bool)), ("idiom_posts", counts["idiom"][1] > 0)):
        if not (counts["idiom"][1][keep] > 0).any():
            continue
        weights = stats.resample(int(keep.sum()), n_boot, seed=seed)
        est, boot = {}, {}
        with np.errstate(invalid="ignore", divide="ignore"):
            for g, (k, n) in counts.items():
                est[g] = k[keep].sum() / n[keep].sum()
                boot[g] = (weights @ k[keep]) / (weights @ n[keep])
        est["difference"], boot["difference"] = est["idiom"] - est["other"], boot["idiom"] - boot["other"]
        for g in ("idiom", "other", "difference"):
            n_tok = counts[g][1][keep].sum() if g != "difference" else sum(c[1][keep].sum() for c in counts.values())
            n_post = int(((counts[g][1] > 0) & keep).sum()) if g != "difference" else int(keep.sum())
            low, high = stats.percentile_interval(boot[g][np.isfinite(boot[g])], ci)
            rows.append(
                {
                    "scope": scope,
                    "group": g,
                    "estimate": float(est[g]),
                    "ci_low": low,
                    "ci_high": high,
                    "tokens": int(n_tok),
                    "posts": n_post,
                }
            )
    return pd.DataFrame(rows, columns=["scope", "group", "estimate", "ci_low", "ci_high", "tokens", "posts"])
