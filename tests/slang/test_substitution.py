"""Unit tests of helpers.slang.substitution: span replacement with overlapping words and offsets."""

from __future__ import annotations

from helpers.slang import substitution


def test_replace_spans_overlapping_words_and_offsets():
    text = "草泥马！尼玛，草泥马"
    new, edits = substitution.replace_spans(text, {"草泥马": "艹泥马", "尼玛": "你妈", "泥马": "XX"})
    assert new == "艹泥马！你妈，艹泥马"
    assert edits == [(0, 3, "草泥马", "艹泥马"), (4, 6, "尼玛", "你妈"), (7, 10, "草泥马", "艹泥马")]
    assert all(text[s:e] == old for s, e, old, _ in edits)
    same, none = substitution.replace_spans("今天天气好", {"尼玛": "你妈"})
    assert same == "今天天气好" and none == []
