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

The metrics (:data:`REGISTRY`, one :class:`Metric` each: direction, sacrebleu settings, default):

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

All metrics but ``ter`` are higher-is-better (:data:`LOWER_IS_BETTER`). The defaults
(:data:`DEFAULT_METRICS`, of the chapter and of ``metrics score``) are the cheap ones: TER costs
about 30 ms a sentence (its shift search in pure Python), the embedding needs the encoder.

**How sacrebleu's numbers are computed here, and why** (issue 42, item 6). sacrebleu computes a
segment's *sufficient statistics* (BLEU: lengths and n-gram matches; chrF: character and word
n-gram counts; TER: edits and reference length) and turns them into a score; a system score
pools the statistics of its segments. Bare sacrebleu, asked for sentence and corpus scores of
10 systems, extracts every reference's n-grams 20 times and every hypothesis's twice. Here each
metric's statistics are extracted once per (reference, distinct hypothesis), with sacrebleu's own
methods (:func:`_statistics`), and both the sentence scores and the corpus score are computed
from them by sacrebleu's own ``_compute_score_from_stats`` / ``_aggregate_and_compute``: the
same code on the same integers, so the scores are bit-identical (every segment of 2 newstest2021
systems, every line, and their corpus scores, compared in ``tests/metrics/test_scores_sacrebleu.py``).
References are processed one at a time (all systems' hypotheses of a segment together), so no
table of every reference's n-grams is held: sacrebleu's ``corpus_score`` builds one (the peak of
a bare run), this does not.

Measured with ``tools/bench.py --metrics-only`` (the ``make bench`` row) on 2026-12-07, WMT23
ZH→EN generaltest2023, 10 systems × 1,976 segments, sentence and corpus BLEU and chrF, written as
a CSV, an empty cache; whole process (wall, CPU = user + system, peak RSS), best of 2 runs (the
"before" row: 1 run). The 2 cores were shared with other jobs (load average 12–15), so the wall
times are several times what an idle machine gives; CPU seconds are the steadier measure. The
two tables were identical, line for line.

=================================================  ======  ======  =======
run                                                wall s  CPU s   peak MB
=================================================  ======  ======  =======
bare sacrebleu (``BARE_SACREBLEU`` in the bench)   179.0   41.2    190
``metrics score`` before (each level on its own)   134.4   46.5    323
``metrics score`` (statistics once, this module)   64.4    11.0    116
=================================================  ======  ======  =======

Of the 116 MB, about 70 MB are pandas and numpy, imported by any ``.venv/bin/python -m helpers metrics``
command (which no longer imports the other studies: scikit-learn, scipy and openpyxl cost
4 CPU-s and 120 MB more). Of bare sacrebleu's 190 MB, 94 MB are the table of every reference's
character n-grams that chrF's ``corpus_score`` builds (33 MB: the interpreter with sacrebleu).

Multiprocessing over systems was not chosen: the single process already takes a quarter of bare
sacrebleu's CPU time, a second worker would hold a second interpreter with sacrebleu and pandas
(at least 70 MB more, against a 1.5× memory budget), and the 2 cores are shared with the other
kernels (``helpers.core.book.kernel`` gives each its share). A vectorised n-gram count of our own
was not needed either: sacrebleu's own extraction, done once, keeps bit-identity by
construction.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core import cache
from ..core.errors import InputError


@dataclass(frozen=True)
class Metric:
    """One metric of the book: its name, which way is better, how sacrebleu computes it, and
    whether the chapter and ``metrics score`` compute it when no metric is named.

    ``sacrebleu`` names the class of ``sacrebleu.metrics`` (None: not a sacrebleu metric);
    ``options`` are its keyword arguments at both levels, ``sentence`` the extra ones for
    segment scores, ``chinese`` the extra ones for a Chinese target (:data:`CJK_TARGETS`).
    """

    name: str
    label: str
    higher_is_better: bool
    default: bool
    sacrebleu: str | None
    options: Mapping = field(default_factory=dict)
    sentence: Mapping = field(default_factory=dict)
    chinese: Mapping = field(default_factory=dict)
    system: str = "sacrebleu's corpus score: the segments' statistics pooled"


#: Every metric computed here, once, in the order the chapter shows them.
REGISTRY: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("bleu", "BLEU", True, True, "BLEU", sentence={"effective_order": True}, chinese={"tokenize": "zh"}),
        Metric("chrf", "chrF", True, True, "CHRF"),
        Metric("chrfpp", "chrF++", True, True, "CHRF", options={"word_order": 2}),
        # sacrebleu splits CJK characters only when normalising
        Metric(
            "ter",
            "TER",
            False,
            False,
            "TER",
            chinese={"normalized": True, "asian_support": True},
            system="total edits over total reference words (sacrebleu's corpus score)",
        ),
        Metric("embed", "MiniLM cosine", True, False, None, system="the mean of the segment cosines"),
    )
}
#: Metric names, in the order the chapter shows them.
METRICS = tuple(REGISTRY)
#: What the chapter and ``metrics score`` compute when no metric is named.
DEFAULT_METRICS = tuple(name for name, m in REGISTRY.items() if m.default)
#: Metrics where a lower score is better.
LOWER_IS_BETTER = frozenset(name for name, m in REGISTRY.items() if not m.higher_is_better)
#: The tidy columns of every score table (system rows have ``segment`` NA).
COLUMNS = ["system", "segment", "metric", "score"]


def metric(name: str, parameter: str = "metric") -> Metric:
    """The registry's entry of ``name``; any other name is refused with the known ones.

    Parameters
    ----------
    name : str
        A metric's name (:data:`METRICS`).
    parameter : str
        The parameter or option the name came from, for the error.

    Returns
    -------
    Metric
        Its direction, sacrebleu class and settings, and whether it is a default.

    Raises
    ------
    InputError
        (a ValueError) naming the value and the known metrics, as pingouin ends a method dispatch.

    References
    ----------
    Post, M. (2018). A call for clarity in reporting BLEU scores. WMT (sacrebleu's settings).

    Examples
    --------
    >>> metric("ter").higher_is_better
    False
    >>> metric("comet")
    Traceback (most recent call last):
    ...
    helpers.core.errors.InputError: parameter 'metric': value 'comet': is not a metric computed here (expected one of bleu, chrf, chrfpp, ter, embed; a metric computed elsewhere enters as a file system, segment, score)
    """
    if name not in REGISTRY:
        raise InputError(
            "is not a metric computed here",
            parameter=parameter,
            value=name,
            expected=f"one of {', '.join(METRICS)}; a metric computed elsewhere enters as a file "
            "system, segment, score",
        )
    return REGISTRY[name]


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
        metric(name, parameter)
    return items


#: Bump when a computation below changes: cached statistics are keyed by it (2: per-segment
#: sacrebleu statistics of every metric, was TER's edits only).
SCORES_VERSION = 2


#: Target languages whose text has no spaces between words: sacrebleu's own Chinese handling is used
#: (BLEU ``tokenize="zh"``, TER ``normalized=True, asian_support=True``: one character a word; chrF
#: works on characters anyway).
CJK_TARGETS = frozenset({"zh"})


def scorer(name: str, sentence: bool, target: str = "en"):
    """sacrebleu's metric object for ``name`` at segment (``sentence=True``) or system level.

    Parameters
    ----------
    name : str
        A sacrebleu metric of :data:`REGISTRY` (``embed`` is not one: ValueError).
    sentence : bool
        Segment-level settings (BLEU's ``effective_order``) when true.
    target : str
        The target language's code; those of :data:`CJK_TARGETS` switch on Chinese tokenisation.

    Returns
    -------
    sacrebleu.metrics.base.Metric
        ``BLEU``, ``CHRF`` or ``TER`` with the entry's ``options`` (+ ``sentence``, + ``chinese``).

    References
    ----------
    Post, M. (2018). A call for clarity in reporting BLEU scores. WMT (sacrebleu).
    """
    from sacrebleu import metrics as sb

    entry = metric(name)
    if entry.sacrebleu is None:
        raise ValueError(
            f"{name} is not a sacrebleu metric (sacrebleu computes "
            f"{', '.join(n for n, m in REGISTRY.items() if m.sacrebleu)})"
        )
    options = {
        **entry.options,
        **(entry.sentence if sentence else {}),
        **(entry.chinese if target in CJK_TARGETS else {}),
    }
    return getattr(sb, entry.sacrebleu)(**options)


def signature(name: str, sentence: bool = False, target: str = "en") -> str:
    """sacrebleu's reproducibility signature of a metric, one reference, as papers report it.

    Parameters
    ----------
    name, sentence, target
        As :func:`scorer`.

    Returns
    -------
    str
        E.g. ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0`` for system BLEU.

    References
    ----------
    Post, M. (2018). A call for clarity in reporting BLEU scores. WMT (the signature).

    Examples
    --------
    >>> signature("chrf").startswith("nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:")
    True
    """
    s = scorer(name, sentence, target)
    s.num_refs = 1  # what sacrebleu sets once it has seen the references: the book scores against one
    return s.get_signature().format()


class ScriptWarning(UserWarning):
    """A text file whose letters are mostly not in the script of its stated language."""


#: Letters of each script (Unicode blocks; UAX #24 names the scripts).
SCRIPTS = {
    "Latin": "A-Za-z\u00c0-\u024f\u1e00-\u1eff",
    "Han": "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff",
    "Kana": "\u3040-\u30ff",
    "Hangul": "\u1100-\u11ff\uac00-\ud7af",
    "Cyrillic": "\u0400-\u04ff",
    "Greek": "\u0370-\u03ff",
    "Arabic": "\u0600-\u06ff",
    "Hebrew": "\u0590-\u05ff",
    "Devanagari": "\u0900-\u097f",
}
#: The script(s) a language is written in, for the languages of WMT's test sets.
LANGUAGE_SCRIPTS = {
    **{
        code: ("Latin",)
        for code in (
            "en",
            "de",
            "cs",
            "fr",
            "es",
            "pl",
            "is",
            "ha",
            "hr",
            "et",
            "fi",
            "lt",
            "lv",
            "ro",
            "tr",
            "it",
            "pt",
            "nl",
            "sv",
            "da",
            "no",
            "sk",
            "sl",
            "hu",
            "liv",
            "sah",
            "xh",
            "zu",
            "ms",
            "id",
            "vi",
        )
    },
    **{code: ("Cyrillic",) for code in ("ru", "uk", "bg", "sr", "kk")},
    "zh": ("Han",),
    "ja": ("Han", "Kana"),
    "ko": ("Hangul", "Han"),
    "el": ("Greek",),
    "ar": ("Arabic",),
    "fa": ("Arabic",),
    "ps": ("Arabic",),
    "he": ("Hebrew",),
    "hi": ("Devanagari",),
    "mr": ("Devanagari",),
}
_SCRIPT_PATTERNS = {name: re.compile(f"[{chars}]") for name, chars in SCRIPTS.items()}


def check_script(lines, language: str, file, minimum_letters: int = 20, share: float = 0.5) -> str | None:
    """Warn when a text file's letters are mostly not in the script of its language.

    A reference or system output in the wrong script (the Chinese source passed as an English
    reference, outputs of another direction) still gets scores, just meaningless ones: BLEU of
    the source against English outputs is about 0.3, not an error. This names the file.

    Parameters
    ----------
    lines : sequence of str
        The file's segments.
    language : str
        The language code the file should be in (:data:`LANGUAGE_SCRIPTS`; another code: no check).
    file : str or path
        Named in the warning.
    minimum_letters : int
        Fewer letters of any script than this: no check (too little to tell).
    share : float
        The warning is issued when fewer than this share of the letters are in the language's script(s).

    Returns
    -------
    str or None
        The warning's text (also issued as a :class:`ScriptWarning`), or None when the file
        looks right or cannot be checked. The share is count(letters of the language's
        scripts) / count(letters of any script in :data:`SCRIPTS`).

    References
    ----------
    Unicode Standard Annex #24, Unicode Script Property (the script names; the blocks here
    approximate them).

    Examples
    --------
    >>> check_script(["The cat sat on the mat."] * 3, "en", "ref.en") is None
    True
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     check_script(["猫坐在垫子上。今天天气很好。"] * 3, "en", "ref.en")
    'ref.en: 0% of its 36 letters are in the Latin script of en (most are Han): is it the right file (e.g. the source passed as a reference)?'
    """
    scripts = LANGUAGE_SCRIPTS.get(language)
    if scripts is None:
        return None
    text = "".join(lines)
    counts = {name: len(pattern.findall(text)) for name, pattern in _SCRIPT_PATTERNS.items()}
    letters = sum(counts.values())
    if letters < minimum_letters:
        return None
    found = sum(counts[name] for name in scripts) / letters
    if found >= share:
        return None
    most = max(counts, key=counts.get)
    message = (
        f"{file}: {found:.0%} of its {letters} letters are in the {'/'.join(scripts)} script of {language} "
        f"(most are {most}): is it the right file (e.g. the source passed as a reference)?"
    )
    warnings.warn(message, ScriptWarning, stacklevel=2)
    return message


#: Below this many segments sacrebleu's statistics are extracted in this process alone: a second process starts
#: an interpreter and imports sacrebleu first, which only a large set repays (WMT22's 28,125 translations, BLEU and
#: chrF: 16 CPU-s in one process; chapter 10 alone and cold took 58 s wall with two).
PARALLEL_MIN_SEGMENTS = 5000


def _processes(n_segments: int) -> int:
    """How many processes extract statistics: one below :data:`PARALLEL_MIN_SEGMENTS`, else this process's
    share of the cores: ``OMP_NUM_THREADS`` when set (a build of several kernels gives each its share,
    :func:`helpers.core.book.kernel.share_cores`), else the cores it may run on, at most 2 (this project's
    machine; more only splits the work finer)."""
    import os

    if n_segments < PARALLEL_MIN_SEGMENTS:
        return 1
    share = os.environ.get("OMP_NUM_THREADS", "")
    usable = (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    )  # macOS: no affinity
    cores = int(share) if share.isdigit() and int(share) > 0 else usable
    return max(1, min(2, cores))


def _group_statistics(name: str, target: str, groups: list[tuple[str, list[str]]]) -> list[list]:
    """sacrebleu's statistics of each reference's distinct hypotheses: ``groups`` is ``[(reference,
    [hypothesis, ...]), ...]``; the result has one list per group, one row per hypothesis (the steps of
    ``Metric._extract_corpus_statistics``: preprocess, the reference's n-grams once, each hypothesis's matches)."""
    s = scorer(name, sentence=True, target=target)
    out = []
    for ref, hyps in groups:
        info = s._extract_reference_info([s._preprocess_segment(ref)])
        out.append([s._compute_segment_statistics(s._preprocess_segment(h), info) for h in hyps])
    return out


def _statistics(
    name: str, hyps: list[str], refs: list[str], target: str = "en", processes: int | None = 1
) -> np.ndarray:
    """sacrebleu's per-segment statistics of each (hypothesis, reference) pair, one row each.

    Each distinct reference's n-grams are extracted once and each distinct hypothesis against it scored
    once (:func:`_group_statistics`). With ``processes`` > 1 (None: :func:`_processes`) every other
    reference goes to a second process: the same code on the same pairs, so the same numbers.
    """
    by_reference: dict[str, dict[str, list[int]]] = {}
    for row, (ref, hyp) in enumerate(zip(refs, hyps, strict=True)):
        by_reference.setdefault(ref, {}).setdefault(hyp, []).append(row)
    groups = [(ref, list(seen)) for ref, seen in by_reference.items()]
    n = _processes(len(hyps)) if processes is None else processes
    if n > 1 and len(groups) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        parts = [groups[i::n] for i in range(n)]
        # spawn: a fresh interpreter, safe beside a Jupyter kernel's threads (fork is not)
        with ProcessPoolExecutor(n - 1, mp_context=multiprocessing.get_context("spawn")) as pool:
            others = [pool.submit(_group_statistics, name, target, part) for part in parts[1:]]
            done = [_group_statistics(name, target, parts[0]), *(f.result() for f in others)]
        stats = [None] * len(groups)
        for i in range(n):
            stats[i::n] = done[i]
    else:
        stats = _group_statistics(name, target, groups)
    out: list = [None] * len(hyps)
    for (ref, seen), rows_of in zip(groups, stats, strict=True):
        for hyp, row_stats in zip(seen, rows_of, strict=True):
            for row in by_reference[ref][hyp]:
                out[row] = row_stats
    return np.array(out) if out else np.zeros((0, 1))


def _cached_statistics(
    name: str, hyps: list[str], refs: list[str], target: str = "en", processes: int | None = 1
) -> np.ndarray:
    """:func:`_statistics`, cached by the metric, its settings and the texts."""
    import sacrebleu

    # the metric's settings follow from name and target (REGISTRY); sacrebleu's version pins the rest
    inputs = [name, target in CJK_TARGETS, sacrebleu.__version__, hyps, refs]
    return cache.cached(
        "metric_scores",
        SCORES_VERSION,
        inputs,
        lambda: _statistics(name, hyps, refs, target, processes),
        fmt="npy",
        describe=f"{name} statistics of {len(hyps)} segments",
    )


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


def _scored(texts: pd.DataFrame, metrics, model_path, target: str, segments: bool = True, processes: int | None = 1):
    """Each metric's segment values (one array per metric, rows as ``texts``; None unless
    ``segments``) and system scores (``{system: score}``, systems in ``texts``' order).

    A sacrebleu metric's statistics are extracted once for all systems (:func:`_statistics`, cached);
    the segment scores are sacrebleu's ``_compute_score_from_stats`` of each row (its
    ``sentence_score``), the system score its ``_aggregate_and_compute`` of the system's rows (its
    ``corpus_score``). ``embed`` is scored system by system and its system score is the mean.
    """
    names = parse_metrics(metrics)
    hyps, refs = _texts_of(texts)
    rows = texts.groupby("system", sort=False).indices
    order = list(pd.unique(texts["system"]))
    values, systems = {}, {}
    for name in names:
        if REGISTRY[name].sacrebleu is None:  # embed, per system as its cache entries are keyed
            cosines = np.full(len(texts), np.nan)
            for system in order:
                at = rows[system]
                cosines[at] = _embedding_cosines([hyps[i] for i in at], [refs[i] for i in at], model_path)
            values[name] = cosines
            systems[name] = {system: float(np.nanmean(cosines[rows[system]])) for system in order}
            continue
        stats = _cached_statistics(name, hyps, refs, target, processes)
        if segments:
            sentence = scorer(name, sentence=True, target=target)
            values[name] = np.array(
                [sentence._compute_score_from_stats(row).score for row in stats.tolist()], dtype=float
            )
        corpus = scorer(name, sentence=False, target=target)
        systems[name] = {
            system: float(corpus._aggregate_and_compute(stats[rows[system]].tolist()).score) for system in order
        }
    return values, systems, order, rows


def _segment_rows(texts: pd.DataFrame, values: dict, order: list, rows: dict) -> pd.DataFrame:
    segment = texts["segment"].to_numpy()
    return _tidy(
        [
            pd.DataFrame({"system": system, "segment": segment[rows[system]], "metric": name, "score": v[rows[system]]})
            for name, v in values.items()
            for system in order
        ]
    )


def _system_rows(systems: dict, order: list) -> pd.DataFrame:
    records = [
        {"system": system, "segment": pd.NA, "metric": name, "score": by[system]}
        for system in order
        for name, by in systems.items()
    ]
    return _tidy([pd.DataFrame(records)] if records else [])


def segment_scores(
    texts: pd.DataFrame, metrics=DEFAULT_METRICS, model_path=None, target: str = "en", processes: int | None = 1
) -> pd.DataFrame:
    """Each metric on each segment: ``system, segment, metric, score``.

    Parameters
    ----------
    texts : DataFrame
        ``system, segment, reference, hypothesis`` (one row per system and segment;
        :func:`helpers.metrics.data.texts`).
    metrics : sequence of str
        Among :data:`METRICS` (default :data:`DEFAULT_METRICS`).
    model_path : path, optional
        Encoder checkpoint for ``embed`` (default: the packaged all-MiniLM-L6-v2).
    target : str
        The target language's code; ``"zh"`` switches on sacrebleu's Chinese tokenisation
        (:data:`CJK_TARGETS`). The embedding is English-only and meaningless for Chinese.
    processes : int or None, default 1
        Processes that extract sacrebleu's statistics; None: this kernel's share of the cores
        (:func:`_processes`), for a large set whose cold time matters (the chapters' WMT22 scores). Each
        extra process holds its own interpreter (measured on WMT23's 19,760 segments: 329 MB summed against 177 MB
        in one process, 1.7x bare sacrebleu's 190 MB), so the default stays one.

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
    values, _, order, rows = _scored(texts, metrics, model_path, target, processes=processes)
    return _segment_rows(texts, values, order, rows)


def system_scores(texts: pd.DataFrame, metrics=DEFAULT_METRICS, model_path=None, target: str = "en") -> pd.DataFrame:
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
        Among :data:`METRICS` (default :data:`DEFAULT_METRICS`).
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
    _, systems, order, _ = _scored(texts, metrics, model_path, target, segments=False)
    return _system_rows(systems, order)


def score_texts(texts: pd.DataFrame, metrics=DEFAULT_METRICS, model_path=None, target: str = "en") -> pd.DataFrame:
    """System rows then segment rows of every metric: the table ``metrics score`` writes.

    Parameters
    ----------
    texts : DataFrame
        ``system, segment, reference, hypothesis``.
    metrics : sequence of str
        Among :data:`METRICS` (default :data:`DEFAULT_METRICS`).
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
    values, systems, order, rows = _scored(texts, metrics, model_path, target)
    return pd.concat([_system_rows(systems, order), _segment_rows(texts, values, order, rows)], ignore_index=True)


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
