"""Automatic metric scores per segment and per system, as tidy rows ``system, segment, metric, score``.

**Why sacrebleu** (Post 2018, "A Call for Clarity in Reporting BLEU Scores", WMT; pinned in
``requirements.in``): it is the implementation the WMT organisers used for their published
BLEU and chrF, and with its defaults it reproduces them exactly. Measured in
``tests/metrics/test_reproduce.py``: corpus BLEU and chrF of all 8 newstest2021 and all 10
generaltest2023 ZH→EN systems against reference A equal the published
``scores/automatic-scores.tsv`` to every printed digit (|difference| < 1e-9). A BLEU of our
own would have to re-implement the 13a tokenizer, the brevity penalty and the smoothing to
match, and every small difference would be a reason to doubt the chapter's reproduction;
sacrebleu also brings chrF++ (Popović 2017) and TER (Snover et al. 2006) with the same
conventions. Cost: sacrebleu 2.6.0 and three small pure-Python/C dependencies (portalocker,
colorama, lxml); Apache-2.0.

The metrics (:data:`METRICS`):

* ``bleu``: BLEU (Papineni et al. 2002). System level: sacrebleu's ``corpus_score``. Segment
  level: ``sentence_score`` with ``effective_order=True`` and sacrebleu's default ``exp``
  smoothing (Chen and Cherry 2014), its recommended sentence BLEU.
* ``chrf``: chrF (Popović 2015), character 6-grams, β = 2; ``chrfpp``: chrF++ (Popović 2017),
  with word 1–2-grams. Corpus statistics are pooled at system level, as sacrebleu does.
* ``ter``: translation edit rate (Snover et al. 2006), **lower is better**, 0–100+. System
  level: total edits over total reference words.
* ``embed``: cosine similarity of the mean-pooled all-MiniLM-L6-v2 embeddings of hypothesis and
  reference (:func:`helpers.core.encoder.embed`, cached under ``.cache/embeddings`` keyed by the
  texts). A weak stand-in for neural metrics such as COMET: a general sentence encoder, never
  trained on human judgements of translation. System level: the mean over segments.

All metrics but ``ter`` are higher-is-better (:data:`LOWER_IS_BETTER`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core import cache
from ..core.errors import InputError

#: Metric names, in the order the chapter shows them.
METRICS = ("bleu", "chrf", "chrfpp", "ter", "embed")
#: Metrics where a lower score is better.
LOWER_IS_BETTER = frozenset({"ter"})
#: The tidy columns of every score table (system rows have ``segment`` NA).
COLUMNS = ["system", "segment", "metric", "score"]


def parse_metrics(names, parameter: str = "metrics") -> list[str]:
    """A list of metric names from ``"bleu,chrf"`` or a list; an unknown name is an InputError.

    Examples
    --------
    >>> parse_metrics("bleu, ter")
    ['bleu', 'ter']
    >>> parse_metrics("bleu,comet")
    Traceback (most recent call last):
    ...
    helpers.core.errors.InputError: parameter 'metrics': value 'comet': is not a metric computed here (expected one of bleu, chrf, chrfpp, ter, embed; a metric computed elsewhere enters as a file system, segment, score)
    """
    items = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    items = [n for n in items if n]
    if not items:
        raise InputError("names no metric", parameter=parameter, value=names, expected=", ".join(METRICS))
    for name in items:
        if name not in METRICS:
            raise InputError("is not a metric computed here", parameter=parameter, value=name,
                             expected=f"one of {', '.join(METRICS)}; a metric computed elsewhere enters as a file "
                             "system, segment, score")
    return items


#: Bump when a computation below changes: cached segment scores are keyed by it.
SCORES_VERSION = 1


#: Target languages whose text has no spaces between words: sacrebleu's own Chinese handling is used
#: (BLEU ``tokenize="zh"``, TER ``normalized=True, asian_support=True``: one character a word; chrF
#: works on characters anyway).
CJK_TARGETS = frozenset({"zh"})


def _sacrebleu_metric(name: str, sentence: bool, target: str = "en"):
    from sacrebleu.metrics import BLEU, CHRF, TER

    cjk = target in CJK_TARGETS
    if name == "bleu":
        return BLEU(effective_order=sentence, **({"tokenize": "zh"} if cjk else {}))
    if name == "chrf":
        return CHRF()
    if name == "chrfpp":
        return CHRF(word_order=2)
    return TER(normalized=cjk, asian_support=cjk)  # sacrebleu splits CJK characters only when normalising


def _ter_from_edits(edits, ref_length) -> np.ndarray:
    """TER in percent from edits and reference length, as sacrebleu's ``TER._compute_score_from_stats``:
    an empty reference scores 100 against a non-empty hypothesis, 0 against an empty one."""
    edits, ref_length = np.asarray(edits, dtype=float), np.asarray(ref_length, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return 100 * np.where(ref_length > 0, edits / ref_length, (edits > 0).astype(float))


def _sentence_values(name: str, hyps: list[str], refs: list[str], model_path=None, target: str = "en") -> np.ndarray:
    """One metric's segment scores of aligned hypotheses and references, cached by their texts.

    TER is the costly one (sacrebleu's shift search in pure Python: about 30 ms per news
    sentence on this project's 2 shared cores, 151 s for newstest2021's 650 MQM-rated segments
    of 8 systems); its cache entry keeps the edits and reference lengths (two columns), from
    which the system score is pooled without a second pass.
    """
    if name == "embed":
        return _embedding_cosines(hyps, refs, model_path)
    scorer = _sacrebleu_metric(name, sentence=True, target=target)

    def compute() -> np.ndarray:
        if name == "ter":
            stats = [scorer.sentence_score(h, [r]) for h, r in zip(hyps, refs)]
            return np.array([[s.num_edits, s.ref_length] for s in stats], dtype=float).reshape(-1, 2)
        return np.array([scorer.sentence_score(h, [r]).score for h, r in zip(hyps, refs)], dtype=float)

    import sacrebleu

    # the metric's settings follow from name and target (_sacrebleu_metric); sacrebleu's version pins the rest
    inputs = [name, target in CJK_TARGETS, sacrebleu.__version__, hyps, refs]
    return cache.cached("metric_scores", SCORES_VERSION, inputs, compute, fmt="npy",
                        describe=f"{name} of {len(hyps)} segments")


def _embedding_cosines(hypotheses: list[str], references: list[str], model_path=None) -> np.ndarray:
    """Cosine similarity of each hypothesis's and reference's sentence embedding (each distinct
    reference embedded once; :func:`helpers.core.encoder.embed` caches both by their texts)."""
    from ..core import encoder

    h = encoder.embed(hypotheses, model_path=model_path)
    unique, where = np.unique(np.asarray(references, dtype=object), return_inverse=True)
    r = encoder.embed(list(unique), model_path=model_path)[where.ravel()]
    norms = np.linalg.norm(h, axis=1) * np.linalg.norm(r, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(norms > 0, (h * r).sum(axis=1) / norms, np.nan)


def _texts_of(part: pd.DataFrame) -> tuple[list[str], list[str]]:
    return part["hypothesis"].astype(str).tolist(), part["reference"].astype(str).tolist()


def segment_scores(texts: pd.DataFrame, metrics=METRICS, model_path=None, target: str = "en") -> pd.DataFrame:
    """Each metric on each segment: ``system, segment, metric, score``.

    Parameters
    ----------
    texts : DataFrame
        ``system, segment, reference, hypothesis`` (one row per system and segment;
        :func:`helpers.metrics.data.texts`).
    metrics : sequence of str
        Among :data:`METRICS`.
    model_path : path, optional
        Encoder checkpoint for ``embed`` (default: the packaged all-MiniLM-L6-v2).
    target : str
        The target language's code; ``"zh"`` switches on sacrebleu's Chinese tokenisation
        (:data:`CJK_TARGETS`). The embedding is English-only and meaningless for Chinese.

    Returns
    -------
    DataFrame
        ``system, segment, metric, score``, metric by metric, systems in ``texts``' order:
        BLEU = BP · exp(Σ_{n=1..4} ¼ log p_n), p_n the clipped n-gram precisions (smoothed, effective
        order), BP = min(1, exp(1 − r / c)) with reference length r and hypothesis length c;
        chrF = (1 + β²) · chrP · chrR / (β² · chrP + chrR), β = 2, over character 1–6-grams (chrF++
        adds word 1–2-grams); TER = 100 · edits / reference words; embed = u·v / (‖u‖ ‖v‖) of the
        mean-pooled embeddings.

    References
    ----------
    Papineni, K., Roukos, S., Ward, T. & Zhu, W.-J. (2002). BLEU: a method for automatic evaluation
    of machine translation. ACL.
    Chen, B. & Cherry, C. (2014). A systematic comparison of smoothing techniques for sentence-level
    BLEU. WMT.
    Popović, M. (2015). chrF: character n-gram F-score for automatic MT evaluation. WMT.
    Popović, M. (2017). chrF++: words helping character n-grams. WMT.
    Snover, M., Dorr, B., Schwartz, R., Micciulla, L. & Makhoul, J. (2006). A study of translation
    edit rate with targeted human annotation. AMTA.
    Post, M. (2018). A call for clarity in reporting BLEU scores. WMT (sacrebleu).
    """
    metrics = parse_metrics(metrics)
    frames = []
    for name in metrics:
        for system, part in texts.groupby("system", sort=False):
            values = _sentence_values(name, *_texts_of(part), model_path=model_path, target=target)
            if name == "ter":
                values = _ter_from_edits(values[:, 0], values[:, 1])
            frames.append(pd.DataFrame({"system": system, "segment": part["segment"].to_numpy(), "metric": name,
                                        "score": values}))
    return _tidy(frames)


def system_scores(texts: pd.DataFrame, metrics=METRICS, model_path=None, target: str = "en") -> pd.DataFrame:
    """Each metric on each system's whole output: ``system, segment (NA), metric, score``.

    BLEU, chrF and chrF++ pool their statistics over the system's segments (sacrebleu's
    ``corpus_score``, the published convention); TER pools the segments' edits over their
    reference words (what ``corpus_score`` computes, from the cached segment statistics);
    ``embed`` is the mean of the segment cosines.

    Parameters
    ----------
    texts : DataFrame
        ``system, segment, reference, hypothesis`` (one row per system and segment).
    metrics : sequence of str
        Among :data:`METRICS`.
    model_path : path, optional
        Encoder checkpoint for ``embed``.
    target : str
        The target language's code (``"zh"``: Chinese tokenisation).

    Returns
    -------
    DataFrame
        ``system, segment, metric, score`` with ``segment`` NA: BLEU and chrF of :func:`segment_scores`
        with the n-gram counts summed over the system's segments before the ratios; TER =
        100 · Σ edits / Σ reference words; embed = the mean of the segment cosines.

    References
    ----------
    Papineni, K. et al. (2002). BLEU. ACL (corpus-level counts).
    Popović, M. (2015, 2017). chrF and chrF++. WMT.
    Snover, M. et al. (2006). Translation edit rate. AMTA.
    Post, M. (2018). A call for clarity in reporting BLEU scores. WMT (sacrebleu).
    """
    metrics = parse_metrics(metrics)
    rows = []
    for system, part in texts.groupby("system", sort=False):
        hyps, refs = _texts_of(part)
        for name in metrics:
            if name == "ter":
                stats = _sentence_values(name, hyps, refs, target=target)
                value = float(_ter_from_edits(stats[:, 0].sum(), stats[:, 1].sum()))
            elif name == "embed":
                value = float(np.nanmean(_sentence_values(name, hyps, refs, model_path)))
            else:
                value = _sacrebleu_metric(name, sentence=False, target=target).corpus_score(hyps, [refs]).score
            rows.append({"system": system, "segment": pd.NA, "metric": name, "score": value})
    return _tidy([pd.DataFrame(rows)])


def score_texts(texts: pd.DataFrame, metrics=METRICS, model_path=None, target: str = "en") -> pd.DataFrame:
    """System rows then segment rows of every metric: the table ``metrics score`` writes.

    Parameters
    ----------
    texts : DataFrame
        ``system, segment, reference, hypothesis``.
    metrics : sequence of str
        Among :data:`METRICS`.
    model_path : path, optional
        Encoder checkpoint for ``embed``.
    target : str
        The target language's code.

    Returns
    -------
    DataFrame
        ``system, segment, metric, score``; system rows first, with ``segment`` NA.

    References
    ----------
    Those of :func:`system_scores` and :func:`segment_scores`, whose formulas apply.
    """
    return pd.concat([system_scores(texts, metrics, model_path, target),
                      segment_scores(texts, metrics, model_path, target)], ignore_index=True)


def read_external(path, metric: str | None = None) -> pd.DataFrame:
    """A metric computed elsewhere (COMET, MetricX, an LLM judge) as score rows.

    The file is a CSV with columns ``system, segment, score`` (optionally ``doc``, and
    ``metric`` when it holds several); a row with an empty ``segment`` is a system score.
    ``metric`` names the metric when the file has no ``metric`` column (default: the file's
    stem). A missing column or a score that is not a number is an InputError naming the file,
    row and column.

    Returns
    -------
    DataFrame
        ``system, segment, metric, score`` (plus ``doc`` when the file has it).
    """
    from pathlib import Path

    path = Path(path)
    if not path.exists():
        raise InputError("does not exist", file=path)
    frame = pd.read_csv(path, dtype={"system": str}, keep_default_na=True)
    missing = [c for c in ("system", "segment", "score") if c not in frame.columns]
    if missing:
        raise InputError(f"has no column {missing[0]!r}", file=path, expected="columns system, segment, score")
    for column in ("segment", "score"):
        values = pd.to_numeric(frame[column], errors="coerce")
        bad = values.isna() & frame[column].notna()
        if column == "score":
            bad = values.isna()
        if bad.any():
            at = int(np.flatnonzero(bad.to_numpy())[0])
            raise InputError("must be a number", file=path, row=at + 2, column=column, value=frame[column].iloc[at])
        frame[column] = values
    if "metric" not in frame.columns:
        frame["metric"] = metric or path.stem
    frame["segment"] = frame["segment"].astype("Int64")
    return frame[COLUMNS + (["doc"] if "doc" in frame.columns else [])]


def _tidy(frames: list[pd.DataFrame]) -> pd.DataFrame:
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
    out["segment"] = out["segment"].astype("Int64")
    out["score"] = out["score"].astype(float)
    return out[COLUMNS]
