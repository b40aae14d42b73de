"""A chapter's findings: the numbers it states, as a tidy frame, and the sentences that state them.

The two live apart, so that a lecturer can reword a sentence without reading Python and a
reader can find every number a page states in ``results/<chapter>/findings.csv``.

**Numbers.** A study's findings function returns a tidy frame built with :class:`Findings`,
one row per stated quantity (and per group, e.g. per system): columns
``quantity, group, value, ci_low, ci_high, p, text`` (``text`` holds a name, a list or a
verdict phrase chosen from a small lookup next to the findings function).

**Sentences.** ``notebooks/words/<chapter>.md`` holds the chapter's sentences under
``## section`` headings. Each paragraph or list item is a template whose fields name
quantities of the section's frame (Python format fields):

* ``{alpha}`` the value (2 decimals, whole numbers as integers), ``{alpha:.3f}``,
  ``{share:.0%}`` (a share or probability, printed by :func:`helpers.core.book.formatting.percent`:
  ``>99%``, never ``100%``, for 0.9956), ``{diff:+.3f}`` any format;
* ``{alpha.ci}`` the interval ``[low, high]`` (``{alpha.ci:.3f}``, ``{alpha.ci:+.3f}``),
  ``{alpha.p}`` the p-value as the book prints it (``p = 0.032``, ``p < 0.001``),
  ``{alpha.text}``, ``{alpha.low}``, ``{alpha.high}``, ``{alpha.value}`` and any extra column;
* ``{group}``: the group the sentence is about;
* ``{flag:if}`` / ``{flag:unless}`` print nothing, and keep their paragraph (or ``[[ ]]``
  part) only if the quantity is true (non-zero) / false (zero): ``[[{matters:if}, so the
  weight matters]]`` is how a yes/no finding chooses its phrase in the words file.

**Verdicts.** A findings function states a verdict as a short key in ``text`` (``"linear"``,
``"beyond"``); the words file's ``## verdicts`` section is a Markdown table ``| quantity | key |
phrase |`` that turns each key into its phrase, and ``{weighting.verdict}`` prints it. A key the
table lacks is an error naming the words file, quantity and key. :meth:`Words.verdict` gives a
phrase to Python (a figure title, say).

**Includes and wrapping.** A line ``{include:section}`` stands for that section's text, so a
passage several sections state alike is written once. Lines may be wrapped anywhere: the lines
of a paragraph or list item are joined with a space (a Markdown table row, and a line ending
in a backslash, a hard line break, stay lines).

A paragraph whose quantities come per group is repeated once per group (in the frame's
order). A quantity that is *not applicable* in this run (its row has no value and no text)
drops the paragraph, or only the optional part ``[[ ... ]]`` that names it: that is how a
sentence branches on the data. A field naming a quantity the frame does not have at all is
an error naming the words file and section, so a typo never silently drops a sentence.
HTML comments (``<!-- -->``) and the text before the first section are notes for the
editor and are not shown.

:class:`Words` renders a section (:meth:`Words.say`) and keeps every frame it rendered;
:meth:`Words.said` returns them as one frame for ``findings.csv``.
"""

from __future__ import annotations

import math
import re
import string
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .. import paths
from . import formatting

COLUMNS = ["quantity", "group", "value", "ci_low", "ci_high", "p", "text"]
_OPTIONAL = re.compile(r"\[\[(.*?)\]\]", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_SECTION = re.compile(r"^## +(\S+)\s*$", re.M)
_ITEM = re.compile(r"^(\s*)([-*]|\d+\.)\s")
_INCLUDE = re.compile(r"^\{include:(\w+)\}$", re.M)
_PERCENT = re.compile(r"\.(\d+)%")
VERDICTS = "verdicts"


class Findings:
    """Builder of a findings frame: ``Findings().add("alpha", 0.41, ci=(0.3, 0.5)).frame()``."""

    def __init__(self):
        self._rows: list[dict] = []

    def add(
        self, quantity: str, value=None, *, group: str = "", ci=None, p=None, text: str = "", **extra
    ) -> "Findings":
        """One stated quantity (per ``group``); ``value=None`` and no ``text``: not applicable."""
        if not quantity.isidentifier():
            raise ValueError(f"a quantity's name must be an identifier, not {quantity!r}")
        low, high = (None, None) if ci is None else ci
        self._rows.append(
            {
                "quantity": quantity,
                "group": "" if group is None else str(group),
                "value": _float(value),
                "ci_low": _float(low),
                "ci_high": _float(high),
                "p": _float(p),
                "text": "" if text is None else str(text),
                **extra,
            }
        )
        return self

    def frame(self) -> pd.DataFrame:
        """The tidy frame (standard columns first, then any extra ones)."""
        frame = pd.DataFrame(self._rows)
        if frame.empty:
            return pd.DataFrame(columns=COLUMNS)
        return frame[COLUMNS + [c for c in frame.columns if c not in COLUMNS]]


def _float(value) -> float:
    if value is None or (isinstance(value, str) and not value):
        return math.nan
    return float(value)


def _applicable(row: pd.Series) -> bool:
    text = row.get("text", "")
    return not pd.isna(row["value"]) or (isinstance(text, str) and text != "")


class _Interval:
    def __init__(self, low, high):
        self.low, self.high = low, high

    def __format__(self, spec: str) -> str:
        match = re.fullmatch(r"(\+?)\.?(\d*)f?", spec or "")
        if not match:
            raise ValueError(f"an interval takes a format like .3f or +.2f, not {spec!r}")
        return formatting.interval(self.low, self.high, int(match.group(2) or 2), sign=bool(match.group(1)))


def _plain(value, spec: str = "") -> str:
    """A number (or text) as a field without a format shows it: 2 decimals, whole numbers as integers."""
    if isinstance(value, str):
        return value
    if pd.isna(value):
        return "NA"
    if spec:
        share = _PERCENT.fullmatch(spec)
        if share:  # a share or probability: the book's one rule (never 100% below 1, never 0% above 0)
            return formatting.percent(value, int(share.group(1) or 0))
        return format(value, spec)
    whole = float(value).is_integer() and abs(value) < 1e12
    return formatting.number(int(value) if whole else value)


class _Value:
    def __init__(self, value):
        self.value = value

    def __format__(self, spec: str) -> str:
        return _plain(self.value, spec)


class _Quantity:
    """One row of a findings frame as a template field sees it."""

    def __init__(self, row: pd.Series, verdict=None):
        self._row = row
        self._verdict = verdict

    def __getattr__(self, name: str):
        row = self.__dict__["_row"]
        if name == "verdict":
            return self.__dict__["_verdict"](row["quantity"], row.get("text", ""))
        if name == "ci":
            return _Interval(row["ci_low"], row["ci_high"])
        if name == "p":
            return formatting.p_value(row["p"])
        column = {"low": "ci_low", "high": "ci_high"}.get(name, name)
        if column in row.index:
            return _Value(row[column])
        raise AttributeError(f"a quantity has no field {name!r} (columns: {', '.join(row.index)})")

    def __format__(self, spec: str) -> str:
        value, text = self._row["value"], self._row.get("text", "")
        if spec in _CONDITIONS:
            return ""
        if pd.isna(value):
            return str(text) if isinstance(text, str) and text else "NA"
        return _plain(value, spec)


_CONDITIONS = {"if": lambda v: not pd.isna(v) and v != 0, "unless": lambda v: not pd.isna(v) and v == 0}


def _conditions_hold(template: str, values: dict) -> bool:
    """Whether every ``{flag:if}`` / ``{flag:unless}`` field of ``template`` holds."""
    for _, field, spec, _ in string.Formatter().parse(template):
        if field and spec in _CONDITIONS:
            root = re.split(r"[.\[]", field, maxsplit=1)[0]
            if not _CONDITIONS[spec](values[root]._row["value"]):
                return False
    return True


def _fields(template: str) -> list[str]:
    """The quantities a template names (root of each format field), in order."""
    names = []
    for _, field, _, _ in string.Formatter().parse(template):
        if field:
            root = re.split(r"[.\[]", field, maxsplit=1)[0]
            if root not in names:
                names.append(root)
    return names


def _blocks(text: str) -> list[tuple[str, str]]:
    """The paragraphs and list items of a section, each with the separator that follows it."""
    blocks, current = [], []
    for line in text.split("\n"):
        if not line.strip():
            if current:
                blocks.append(["\n".join(current), "\n\n"])
                current = []
            elif blocks:
                blocks[-1][1] = "\n\n"
            continue
        if _ITEM.match(line) and current:
            blocks.append(["\n".join(current), "\n"])
            current = []
        if (
            current
            and not line.lstrip().startswith("|")
            and not current[-1].lstrip().startswith("|")
            and not current[-1].endswith("\\")
        ):
            current[-1] = current[-1] + " " + line.strip()  # a wrapped line continues its paragraph or item
            continue
        current.append(line)
    if current:
        blocks.append(["\n".join(current), "\n"])
    return [tuple(b) for b in blocks]


@dataclass(frozen=True)
class _Section:
    chapter: str
    name: str
    text: str
    file: Path


def _read_sections(chapter: str, file: Path) -> dict[str, _Section]:
    """The ``## name`` sections of a words file, without its editor's notes and comments."""
    if not file.is_file():
        raise FileNotFoundError(f"{file}: a words file of chapter {chapter} is missing")
    text = re.sub(r"[ \t]+$", "", _COMMENT.sub("", file.read_text(encoding="utf-8")), flags=re.M)
    parts = _SECTION.split(text)
    return {name: _Section(chapter, name, body.strip("\n"), file) for name, body in zip(parts[1::2], parts[2::2])}


def _verdict_table(section: _Section | None) -> dict[tuple[str, str], str]:
    """``{(quantity, key): phrase}`` from a ``## verdicts`` section's Markdown table."""
    if section is None:
        return {}
    table = {}
    for number, line in enumerate(section.text.splitlines(), 1):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.strip() or set(line.strip()) <= set("|-: ") or cells[:2] == ["quantity", "key"]:
            continue
        if len(cells) != 3 or not cells[0] or not cells[1]:
            raise ValueError(
                f"{section.file}, '## {VERDICTS}' line {number}: a row is | quantity | key | phrase |, "
                f"not {line.strip()!r}"
            )
        if (cells[0], cells[1]) in table:
            raise ValueError(
                f"{section.file}, '## {VERDICTS}' line {number}: quantity {cells[0]!r}, key {cells[1]!r} is given twice"
            )
        table[(cells[0], cells[1])] = cells[2]
    return table


class Words:
    """The sentences of one chapter (``notebooks/words/<chapter>.md``), filled from its findings.

    ``words = Words("08_wmt_mqm")``; ``words.say("findings", frame)`` returns the section as
    Markdown (shown the same in JupyterLab and in the book) and records the frame;
    ``words.said()`` is every recorded frame with its ``section``, for ``findings.csv``.
    ``shared`` names study-wide words files in the same folder (``Words("01_metahope_pilot_v1",
    shared=("metahope",))`` also reads ``metahope.md``) for a passage several chapters state
    alike; a section may live in one file only.
    """

    def __init__(self, chapter: str, directory: str | Path | None = None, shared: tuple[str, ...] = ()):
        self.chapter = chapter
        folder = Path(directory or paths.project_root() / "notebooks" / "words")
        self.file = folder / f"{chapter}.md"
        if not self.file.is_file():
            raise FileNotFoundError(f"{self.file}: the words of chapter {chapter} are missing")
        self.sections = {}
        for file in [folder / f"{name}.md" for name in shared] + [self.file]:
            for name, section in _read_sections(chapter, file).items():
                if name in self.sections:
                    raise ValueError(
                        f"section '## {name}' is in both {self.sections[name].file} and {file}: keep it in one of them"
                    )
                self.sections[name] = section
        self.verdicts = _verdict_table(self.sections.pop(VERDICTS, None))
        self._said: list[pd.DataFrame] = []

    def verdict(self, quantity: str, key) -> str:
        """The phrase the ``## verdicts`` table gives ``quantity``'s verdict ``key``."""
        try:
            return self.verdicts[(quantity, str(key))]
        except KeyError:
            known = sorted(k for q, k in self.verdicts if q == quantity)
            raise KeyError(
                f"{self.file}: the '## {VERDICTS}' table has no phrase for quantity {quantity!r}, key "
                f"{key!r} (its keys for {quantity!r}: {', '.join(known) or 'none'})"
            ) from None

    def _section_text(self, section: str, seen: tuple[str, ...] = ()) -> str:
        """A section's text with its ``{include:other}`` lines replaced by the other sections' text."""
        if section not in self.sections:
            where = f" (included by '## {seen[-1]}')" if seen else ""
            raise KeyError(f"{self.file}: no section '## {section}'{where} (sections: {', '.join(self.sections)})")
        if section in seen:
            raise ValueError(f"{self.file}: sections include each other in a circle: {' -> '.join(seen + (section,))}")
        return _INCLUDE.sub(lambda m: self._section_text(m.group(1), seen + (section,)), self.sections[section].text)

    def text(self, section: str, findings: pd.DataFrame | None = None) -> str:
        """The section's Markdown filled from ``findings`` (see the module docstring)."""
        if section not in self.sections:
            raise KeyError(f"{self.file}: no section '## {section}' (sections: {', '.join(self.sections)})")
        file = self.sections[section].file
        frame = pd.DataFrame(columns=COLUMNS) if findings is None else findings
        known = set(frame["quantity"])
        out = []
        for block, separator in _blocks(self._section_text(section)):
            unknown = [n for n in _fields(block) if n != "group" and n not in known]
            if unknown:
                raise KeyError(
                    f"{file}, section '{section}': no quantity {', '.join(map(repr, unknown))} in "
                    f"this section's findings (quantities: {', '.join(sorted(known)) or 'none'})"
                )
            rendered = [_fill(block, frame, group, self.verdict) for group in _groups(block, frame)]
            rendered = [r for r in rendered if r is not None]
            if rendered:
                joiner = "\n" if _ITEM.match(block) else "\n\n"
                out.append(joiner.join(rendered) + separator)
        return "".join(out).rstrip("\n")

    def fill(self, section: str, **fields) -> str:
        """:meth:`text` from named fields rather than a findings frame: a string is a quantity's
        text, anything else its value (``words.fill("gallery_system", system="A", penalty=5.0)``).
        For HTML and handouts built from a few values, not for a chapter's findings."""
        found = Findings()
        for name, value in fields.items():
            found.add(name, text=value) if isinstance(value, str) else found.add(name, value)
        return self.text(section, found.frame())

    def say(self, section: str, findings: pd.DataFrame | None = None):
        """:meth:`text` as displayable Markdown, the frame recorded for :meth:`said`."""
        from IPython.display import Markdown

        if findings is not None:
            self._said.append(findings.assign(section=section))
        return Markdown(self.text(section, findings))

    def said(self) -> pd.DataFrame:
        """Every findings frame rendered so far, ``section`` first: the chapter's ``findings.csv``."""
        if not self._said:
            return pd.DataFrame(columns=["section", *COLUMNS])
        frame = pd.concat(self._said, ignore_index=True)
        return frame[["section"] + [c for c in frame.columns if c != "section"]]


def _groups(block: str, frame: pd.DataFrame) -> list[str]:
    """The groups a block is repeated for: those of its grouped quantities (outside ``[[ ]]``)."""
    names = _fields(_OPTIONAL.sub("", block))
    rows = frame[frame["quantity"].isin(names) & (frame["group"] != "")]
    if rows.empty:
        return [""]
    groups = list(dict.fromkeys(rows["group"]))
    for name in rows["quantity"].unique():
        present = set(rows.loc[rows["quantity"] == name, "group"])
        groups = [g for g in groups if g in present]
    return groups


def _row(frame: pd.DataFrame, name: str, group: str) -> pd.Series | None:
    rows = frame[frame["quantity"] == name]
    if (rows["group"] != "").any():
        rows = rows[rows["group"] == group]
    if len(rows) > 1:
        raise ValueError(f"quantity {name!r} has {len(rows)} rows for group {group!r}; give each a group")
    return rows.iloc[0] if len(rows) else None


def _fill_part(template: str, frame: pd.DataFrame, group: str, verdict=None) -> str | None:
    values = {"group": group}
    for name in _fields(template):
        if name == "group":
            continue
        row = _row(frame, name, group)
        if row is None or not _applicable(row):
            return None
        values[name] = _Quantity(row, verdict)
    if not _conditions_hold(template, values):
        return None
    return string.Formatter().vformat(template, (), values)


def _fill(block: str, frame: pd.DataFrame, group: str, verdict=None) -> str | None:
    optional = []

    def keep(match):
        optional.append(_fill_part(match.group(1), frame, group, verdict) or "")
        return f"\0{len(optional) - 1}\0"

    main = _OPTIONAL.sub(keep, block)
    filled = _fill_part(main, frame, group, verdict)
    if filled is None:
        return None
    text = re.sub("\0(\\d+)\0", lambda m: optional[int(m.group(1))], filled)
    return None if not _ITEM.sub("", text).strip() else text  # nothing left but a list marker: dropped


__all__ = ["COLUMNS", "VERDICTS", "Findings", "Words"]
