"""WMT's plain-text releases: one segment per line, and how other files join to those lines.

WMT publishes each test set as parallel text files (``sources/``, ``references/``,
``system-outputs/``; the ``txt/`` folders of wmt-conference/wmt21-news-systems and
wmt23-news-systems, and mt-metrics-eval's layout, :mod:`helpers.core.formats.mtme`): line ``i``
of each file is segment ``i``. :func:`read_lines` is the book's one reader of such files;
:func:`align_to_lines` maps an MQM file's ``(doc, doc_seg_id)`` to those lines where the MQM
file does not give the line (Google's WMT23 three-rater file).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pandas as pd

from ..errors import InputError

_MARKUP = re.compile(r"</?v>")
_SPACE = re.compile(r"\s+")


def read_lines(path: str | os.PathLike) -> list[str]:
    """The lines of a UTF-8 text file, one segment per line, without their line ends.

    A file that ends with a line end has no empty last segment. An empty file (no line at
    all) is an :class:`~helpers.core.errors.InputError` naming the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "hyp.txt"
    >>> _ = p.write_text("a cat\\n\\nthe dog\\n", encoding="utf-8")
    >>> read_lines(p)
    ['a cat', '', 'the dog']
    """
    path = Path(path)
    if not path.exists():
        raise InputError("does not exist", file=path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"is not UTF-8 text (byte {exc.start})", file=path) from None
    if not text:
        raise InputError("is empty", file=path, expected="one segment per line")
    return text.removesuffix("\n").split("\n")


def squeeze(text: str) -> str:
    """A segment's text for matching: the MQM span markup ``<v>…</v>`` and all whitespace removed."""
    return _SPACE.sub("", _MARKUP.sub("", text))


def align_to_lines(segments: pd.DataFrame, source_lines: list[str], file=None) -> pd.DataFrame:
    """Map an MQM file's ``(doc, doc_seg_id)`` to 1-based lines of the test set's source file.

    WMT's text files hold each document as a block of consecutive lines, so segment ``k`` of a
    document sits on line ``start + k - 1``. ``start`` is found by matching the segments' source
    text to the lines, with the MQM span markup (``<v>``) and all whitespace removed (Google's
    WMT23 MQM file drops the spaces the source file keeps between Chinese and Latin text): the
    start where the most of the document's segments match; a segment that does not match at its
    document's start is an error, so no segment is paired with a wrong line.

    Parameters
    ----------
    segments : DataFrame
        ``doc, doc_seg_id, source`` (one row per segment or more).
    source_lines : list of str
        The test set's source file, one segment per line.

    Returns
    -------
    DataFrame
        ``doc, doc_seg_id, segment``, one row per distinct ``(doc, doc_seg_id)``.
    """
    unique = segments.drop_duplicates(["doc", "doc_seg_id"])[["doc", "doc_seg_id", "source"]]
    squeezed = [squeeze(s) for s in source_lines]
    where: dict[str, list[int]] = {}
    for i, s in enumerate(squeezed, start=1):
        where.setdefault(s, []).append(i)
    rows = []
    for doc, part in unique.groupby("doc", sort=False):
        starts = pd.Series(
            [line - k for s, k in zip(part["source"].map(squeeze), part["doc_seg_id"]) for line in where.get(s, [])],
            dtype="int64",
        )
        if starts.empty:
            raise InputError(
                "no segment of the document matches a line of the source file", file=file, column="doc", value=doc
            )
        start = int(starts.value_counts().index[0])
        for s, k in zip(part["source"].map(squeeze), part["doc_seg_id"]):
            line = start + int(k)
            if not 1 <= line <= len(squeezed) or squeezed[line - 1] != s:
                raise InputError(
                    f"segment {k} does not match line {line} of the source file, where the "
                    "document's other segments are",
                    file=file,
                    column="doc",
                    value=doc,
                )
            rows.append({"doc": doc, "doc_seg_id": int(k), "segment": line})
    return pd.DataFrame(rows)
