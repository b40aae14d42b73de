"""Text substitution: replace slang words by their homophones in a post (chapters 6 and 7).

:func:`replace_spans` replaces every occurrence in one left-to-right pass and returns the
edits with their offsets in the original text (chapter 7 realigns word-level tags with
them); :func:`substitute` is the same without the offsets (chapter 6's emotion check).
"""

from __future__ import annotations

from collections.abc import Mapping


def replace_spans(text: str, replacements: Mapping[str, str]) -> tuple[str, list[tuple[int, int, str, str]]]:
    """Replace every occurrence of each key in ``text`` (longest keys first, left to right,
    no overlaps, no rewriting of inserted text).

    Returns the new text and the list of edits ``(start, end, old, new)`` with offsets in
    the *original* text, so word-level tags can be realigned.
    """
    keys = sorted(replacements, key=len, reverse=True)
    edits, out, i = [], [], 0
    while i < len(text):
        match = next((k for k in keys if k and text.startswith(k, i)), None)
        if match is None:
            out.append(text[i])
            i += 1
            continue
        edits.append((i, i + len(match), match, replacements[match]))
        out.append(replacements[match])
        i += len(match)
    return "".join(out), edits


def substitute(text: str, replacements: Mapping[str, str]) -> str:
    """Replace every occurrence of each key by its value, longest keys first, in one pass
    (a replacement is never itself rewritten): :func:`replace_spans` without the offsets.

    Examples
    --------
    >>> substitute("草泥马和尼玛", {"草泥马": "曹尼玛", "尼玛": "泥马"})
    '曹尼玛和泥马'
    """
    return replace_spans(text, replacements)[0]
