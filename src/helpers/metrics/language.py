"""Is a text file written in the script of the language it should be in? (issue 42)

A reference or system output in the wrong language still gets a metric score: the Chinese
source passed as the English reference scored BLEU 0.26 without a word. :func:`script_warning`
reads the letters of a file's lines, finds the script most of them are written in (the first
word of each letter's Unicode name: ``LATIN``, ``CJK``, ``CYRILLIC``, ...) and returns a
sentence naming the file when that is not the script of the target language
(:data:`SCRIPTS`); ``metrics score`` and chapter 09 print it.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable

#: The script(s) each language is written in, by ISO 639-1 code (Unicode name prefixes of its letters).
SCRIPTS = {
    "zh": {"CJK"}, "ja": {"CJK", "HIRAGANA", "KATAKANA"}, "ko": {"HANGUL", "CJK"},
    "ru": {"CYRILLIC"}, "uk": {"CYRILLIC"}, "be": {"CYRILLIC"}, "bg": {"CYRILLIC"}, "sah": {"CYRILLIC"},
    "ar": {"ARABIC"}, "fa": {"ARABIC"}, "he": {"HEBREW"}, "el": {"GREEK"}, "hi": {"DEVANAGARI"},
    "th": {"THAI"},
}
#: Languages not in :data:`SCRIPTS` are written in Latin letters.
DEFAULT_SCRIPT = {"LATIN"}
#: At most this many letters of a file are read (enough to tell a script; a WMT test set has ~10^5).
SAMPLE_LETTERS = 20000


def dominant_script(lines: Iterable[str]) -> tuple[str | None, float]:
    """The script most letters of ``lines`` are written in, and its share of the letters.

    Parameters
    ----------
    lines : iterable of str
        The text, e.g. a file's lines.

    Returns
    -------
    tuple
        (script, share): the first word of the Unicode name of the most frequent letters'
        script (``"LATIN"``, ``"CJK"``, ...) and their share of the first
        :data:`SAMPLE_LETTERS` letters; (None, 0.0) for a text without letters.

    Examples
    --------
    >>> dominant_script(["你好, world"])  # 2 CJK letters, 5 Latin
    ('LATIN', 0.7142857142857143)
    """
    counts: Counter = Counter()
    seen = 0
    for line in lines:
        for ch in line:
            if unicodedata.category(ch).startswith("L"):
                counts[unicodedata.name(ch, "UNKNOWN").split()[0]] += 1
                seen += 1
        if seen >= SAMPLE_LETTERS:
            break
    if not seen:
        return None, 0.0
    script, n = counts.most_common(1)[0]
    return script, n / seen


def script_warning(lines: Iterable[str], language: str, file) -> str | None:
    """A warning naming ``file`` when most of its letters are not in the script of ``language``.

    Parameters
    ----------
    lines : iterable of str
        The file's lines.
    language : str
        ISO 639-1 code of the language the file should be in (``"en"``, ``"zh"``); a pair's
        target, e.g. ``"de"`` of ``en-de``.
    file : str or path
        Named in the warning.

    Returns
    -------
    str or None
        The warning, or None when the script matches, the file has no letters, or ``language``
        is empty.

    Examples
    --------
    >>> script_warning(["这是中文。"], "en", "ref.en")
    "ref.en: most letters (100%) are CJK, not the script of 'en' (LATIN): is it the right file?"
    >>> script_warning(["This is English."], "en", "ref.en") is None
    True
    """
    if not language:
        return None
    expected = SCRIPTS.get(language.strip().lower(), DEFAULT_SCRIPT)
    script, share = dominant_script(lines)
    if script is None or script in expected:
        return None
    return (f"{file}: most letters ({share:.0%}) are {script}, not the script of {language!r} "
            f"({', '.join(sorted(expected))}): is it the right file?")


def target_language(pair: str | None) -> str:
    """The target language's code of a pair written ``zh-en``, ``zh→en``, ``ZH→EN`` or ``zh_en``; "" if none.

    Examples
    --------
    >>> target_language("ZH→EN"), target_language("en-de"), target_language("the given files' language pair")
    ('en', 'de', '')
    """
    import re

    found = re.fullmatch(r"\s*([A-Za-z]{2,3})\s*(?:→|->|-|_)\s*([A-Za-z]{2,3})\s*", pair or "")
    return found.group(2).lower() if found else ""


__all__ = ["SCRIPTS", "dominant_script", "script_warning", "target_language"]
