"""What a rendered page tells its reader: where the data come from, tables that read well,
comparisons with the published tables (a chapter's findings: :mod:`~helpers.core.book.findings`).

* :class:`Provenance` says whether a page shows released data, the reader's own
  annotations or a seeded simulation, and renders the coloured box every study page
  shows (plain HTML with inline styles: the same in JupyterLab and in the book).
* :func:`table` formats a frame for reading: no index, each column by its role
  (:data:`ROLES`: p-values, intervals, shares, counts), other numbers to a fixed precision
  (never ``-0.000``), headers under the labels the studies register
  (:func:`register_labels`), long text wrapped, never truncated.
* :func:`published_comparison` shows a recomputation against a published table
  compactly: "n of N cells match", the differing cells, the full comparison folded away.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

import numpy as np
import pandas as pd
from IPython.display import HTML

from . import formatting, pages

#: The data box's background and accent colour by kind of data (its words: ``core/book/pages/report.md``).
_STYLES = {"released": ("#e8f4ea", "#2e7d32"), "own": ("#e8eef8", "#1f4e9a"), "simulated": ("#fff4e0", "#b45f06")}


def _words():
    """The words and HTML of this module's displays, ``core/book/pages/report.md``."""
    return pages.words("core", "report")


def data_note(kind: str, files: Iterable[str | Path] = (), detail: str = "") -> HTML:
    """A coloured box naming the kind of data a page shows and the files it read."""
    if kind not in _STYLES:
        raise ValueError(f"kind must be one of {sorted(_STYLES)}")
    background, colour = _STYLES[kind]
    items = "".join(f"<li><code>{escape(Path(f).name)}</code></li>" for f in files)
    return HTML(_words().fill("data_box", kind=kind, background=background, colour=colour, detail=detail, files=items))


@dataclass(frozen=True)
class Provenance:
    """Where a chapter's data come from: ``released``, ``own`` or ``simulated``."""

    kind: str
    files: tuple[str, ...] = ()
    detail: str = ""

    def __post_init__(self):
        if self.kind not in _STYLES:
            raise ValueError(f"kind must be one of {sorted(_STYLES)}")

    @classmethod
    def worded(cls, kind: str, chapter: str, files: Iterable[str | Path] = ()) -> "Provenance":
        """A provenance whose detail is the section ``box_<kind>`` of the chapter's words file
        (``notebooks/words/<chapter>.md``): the data box's words live with the chapter's others."""
        from .findings import Words

        return cls(kind, tuple(str(f) for f in files), Words(chapter).text(f"box_{kind}"))

    @property
    def simulated(self) -> bool:
        return self.kind == "simulated"

    @property
    def released(self) -> bool:
        return self.kind == "released"

    @property
    def label(self) -> str:
        """How this run's numbers are labelled beside published ones."""
        return "simulated" if self.simulated else "this run"

    def note(self) -> HTML:
        """The coloured data box of the page."""
        return data_note(self.kind, self.files, self.detail)


@dataclass(frozen=True)
class ChapterData:
    """Base of every chapter's loaded data: the data come with their :class:`Provenance`."""

    provenance: Provenance

    @property
    def simulated(self) -> bool:
        return self.provenance.simulated


#: How :func:`table` shows a column, by the role its name gives it, whatever the chapter
#: (``*`` stands for any text; the first role that matches wins; the CSV is never changed):
#:
#: ============  ==========================================  =======================================
#: role          column names                                shown as
#: ============  ==========================================  =======================================
#: interval      ``ci_low`` + ``ci_high``,                   one column ``[low, high]`` named
#:               ``*_ci_low`` + ``*_ci_high``                ``interval`` (``* interval``)
#: p-value       ``p``, ``p_value``, ``p_*``, ``*_p``,       as the book prints p
#:               ``*_p_value``                               (:func:`~helpers.core.book.formatting.p_value`:
#:                                                           ``0.032``, ``< 0.001``)
#: share         ``share``, ``share_*``, ``*_share``         a percentage (``0.456`` → ``45.6%``)
#: percent       ``pct``, ``percent``, ``pct_*``, ``*_pct``, a percentage of a value already in
#:               ``*_pct_*``, ``*_percent``                  percent (``45.6`` → ``45.6%``)
#: count         ``n``, ``n_*``, and columns holding only    an integer
#:               whole numbers
#: other         any other number                            ``decimals`` places, never ``-0.000``
#: ============  ==========================================  =======================================
#:
#: Percentages keep the precision of the rest: two fewer decimals than ``decimals``.
ROLES = (
    ("p-value", re.compile(r"p|p_value|p_.+|.+_p|.+_p_value")),
    ("share", re.compile(r"share|share_.+|.+_share")),
    ("percent", re.compile(r"pct|percent|pct_.+|.+_pct|.+_pct_.+|.+_percent")),
    ("count", re.compile(r"n|n_.+")),
)
_INTERVAL = re.compile(r"(?:(.+)_)?ci_low")

#: Display labels of result columns, registered by the studies (:func:`register_labels`).
_LABELS: dict[str, str] = {}


def register_labels(mapping: Mapping[str, str]) -> None:
    """Show each result column of ``mapping`` under its display label in every :func:`table`.

    A study calls this from its ``figures`` module, as it registers its colours
    (:func:`helpers.core.book.plots.register_colours`); a table's own ``labels`` win over these.
    Registering a column again with the same label does nothing; another label for a column
    already registered is an error, so two studies cannot show one column two ways.

    Examples
    --------
    >>> register_labels({"doctest_rho": "doctest ρ"})
    >>> "doctest ρ" in table(pd.DataFrame({"doctest_rho": [0.5]})).to_html()
    True
    >>> register_labels({"doctest_rho": "rho"})
    Traceback (most recent call last):
    ...
    ValueError: column 'doctest_rho' is already labelled 'doctest ρ', not 'rho'
    """
    for column, label in mapping.items():
        held = _LABELS.get(column)
        if held is not None and held != label:
            raise ValueError(f"column {column!r} is already labelled {held!r}, not {label!r}")
        _LABELS[str(column)] = str(label)


def registered_labels() -> dict[str, str]:
    """A copy of every registered column and its display label."""
    return dict(_LABELS)


def role(name: str) -> str | None:
    """The :data:`ROLES` role of a column name (``p-value``, ``share``, ``percent``, ``count``), or None.

    Examples
    --------
    >>> [role(c) for c in ("p", "p_holm", "pooled_p", "share_B_higher", "rho_pct_change", "n_items", "rho")]
    ['p-value', 'p-value', 'p-value', 'share', 'percent', 'count', None]
    """
    return next((r for r, pattern in ROLES if pattern.fullmatch(str(name))), None)


def _interval_pairs(frame: pd.DataFrame, named: dict | None, keep: Sequence[str]) -> dict:
    """The interval columns to merge: the caller's ``named`` pairs, then every other
    ``ci_low``/``ci_high`` pair whose columns the caller does not ask for by name (``keep``)."""
    pairs = dict(named or {})
    taken = {c for pair in pairs.values() for c in pair}
    for column in frame.columns:
        found = _INTERVAL.fullmatch(str(column))
        if not found:
            continue
        high = column[: -len("low")] + "high"
        if high in frame.columns and not {column, high} & (taken | set(keep)):
            pairs[f"{found.group(1).replace('_', ' ')} interval" if found.group(1) else "interval"] = (column, high)
    return pairs


def _integral(column: pd.Series) -> bool:
    values = pd.to_numeric(column, errors="coerce").dropna()
    return (
        column.dtype.kind in "fiu"
        and len(values) > 0
        and bool(((values % 1) == 0).all())
        and bool((values.abs() < 1e12).all())
    )


def _formatter(name: str, column: pd.Series, decimals: int, kind: str | None = None):
    """How one cell of column ``name`` prints, by its role (``kind``, else :data:`ROLES`). A
    ``share`` column holding a value above 1 holds percentages (a share cannot exceed 1), so it
    prints as one."""
    kind = kind or role(name)
    if kind == "share" and bool((pd.to_numeric(column, errors="coerce").abs() > 1).any()):
        kind = "percent"
    digits = max(decimals - 2, 0)
    show = {
        "p-value": lambda v: formatting.p_value(v).removeprefix("p = ").removeprefix("p "),
        "share": lambda v: formatting.percent(v, digits),
        "percent": lambda v: formatting.percent(float(v) / 100, digits),
        "count": lambda v: formatting.number(v, 0),
    }.get(kind)
    if show is None:
        places = 0 if _integral(column) else decimals
        show = lambda v: formatting.number(v, places)  # noqa: E731
    return lambda v: escape(
        show(v)
        if isinstance(v, (int, float, np.number, bool, np.bool_)) or v is None or formatting.is_missing(v)
        else str(v)
    )


def table(
    frame: pd.DataFrame,
    decimals: int = 3,
    wrap: Sequence[str] = (),
    index: bool = False,
    caption: str | None = None,
    intervals: dict | None = None,
    columns: Sequence[str] | None = None,
    labels: dict | None = None,
    roles: dict | None = None,
):
    """A frame formatted for reading: each column by its role (:data:`ROLES`: p-values as the
    book prints p, shares as percentages, counts as integers, interval pairs merged into one
    ``[low, high]`` column), other numbers to ``decimals`` places without ``-0.000``, NaN as
    NA, headers under their display labels (the study's :func:`register_labels`, then
    ``labels``) and able to wrap (``weighted_kappa`` shows as ``weighted kappa``), the
    ``wrap`` columns (long text) wrapped in a readable width, nothing truncated.

    ``intervals`` names merged interval pairs (``{"95% CI": ("ci_low", "ci_high")}`` shows
    ``[0.12, 0.48]`` in place of both; any pair, not only ``*ci_low``/``*ci_high``); the
    other ``ci_low``/``ci_high`` pairs merge under their default name unless ``columns``
    asks for one of their columns. ``columns`` keeps only those (after merging), ``labels``
    renames headers for display, ``roles`` gives a column its role where its name misleads
    (``{"share_increased": "percent"}``: a share already in percent). The frame itself is not
    changed (its CSV keeps every column).

    Examples
    --------
    >>> html = table(pd.DataFrame({"x": [-0.0001, 1.23456], "n_units": [3.0, 4.0]}), decimals=2).to_html()
    >>> "0.00" in html and "-0.00" not in html and "1.23" in html and ">3<" in html and "n units" in html
    True
    >>> f = pd.DataFrame({"d": [0.5], "ci_low": [-0.1234], "ci_high": [1.0], "p": [0.0004]})
    >>> html = table(f, decimals=2).to_html()
    >>> "[-0.12, 1.00]" in html and ">interval<" in html and "&lt; 0.001" in html
    True
    """
    frame = frame.copy()
    for name, (low, high) in _interval_pairs(frame, intervals, columns or ()).items():
        position = list(frame.columns).index(low)
        merged = [formatting.interval(a, b, decimals) for a, b in zip(frame[low], frame[high])]
        frame = frame.drop(columns=[low, high])
        frame.insert(position, name, merged)
    if columns is not None:
        frame = frame[list(columns)]
    formats = {c: _formatter(c, frame[c], decimals, (roles or {}).get(c)) for c in frame.columns}
    shown = {**{c: _LABELS[c] for c in frame.columns if c in _LABELS}, **(labels or {})}
    if shown:
        frame = frame.rename(columns=shown)
        formats = {shown.get(c, c): f for c, f in formats.items()}
        wrap = [shown.get(c, c) for c in wrap]
    styler = frame.style.format(formats)
    styler = styler.format_index(
        lambda c: escape(" ".join(map(str, c)) if isinstance(c, tuple) else str(c)).replace("_", " "), axis=1
    )
    if not index:
        styler = styler.hide(axis="index")
    if wrap:
        styler = styler.set_properties(
            subset=list(wrap),
            **{"white-space": "normal", "min-width": "7em", "max-width": "30em", "text-align": "left"},
        )
    styler = styler.set_table_attributes('class="book-table"')
    if caption:
        styler = styler.set_caption(caption)
    return styler


def published_comparison(comparison: pd.DataFrame, label: str, decimals: int = 3) -> HTML:
    """A recomputation against a published table, compactly.

    ``comparison`` is :func:`helpers.core.formats.published.compare_with_published` output. Shows
    "label: n of N published cells reproduced", then only the cells that differ (if any),
    then the full comparison in a collapsible block.
    """
    n, ok = len(comparison), int(comparison["match"].sum())
    colour = "#2e7d32" if ok == n else "#b00020"
    words = _words()
    head = words.fill("published_head", colour=colour, label=escape(label), ok=ok, n=n)
    keys = [c for c in comparison.columns if c not in ("column", "published", "recomputed", "difference", "match")]
    shown = comparison.assign(match=comparison["match"].map({True: "yes", False: "no"}))
    differing = ""
    if ok < n:
        differing = words.fill("published_differ") + table(shown[~comparison["match"]], decimals).to_html()
    full = (
        words.fill("published_all", n=n, label=escape(label))
        + table(shown[keys + ["column", "published", "recomputed", "difference", "match"]], decimals).to_html()
        + "</details>"
    )
    return HTML(head + differing + full)


def beside(table_frame: pd.DataFrame, decimals: int = 3, summary: str = "Published values beside this run's") -> HTML:
    """A 'published | this run' table (:func:`helpers.core.formats.published.beside_published`) folded into
    a collapsible block, one row per (key, statistic) so that it stays narrow."""
    frame = table_frame
    if isinstance(frame.columns, pd.MultiIndex):
        frame = frame.stack(level=0, future_stack=True)
        taken = set(frame.index.names[:-1])
        frame.index = frame.index.set_names(
            [*frame.index.names[:-1], next(n for n in ("statistic", "quantity", "column") if n not in taken)]
        )
        frame = frame[
            [c for c in ("published",) if c in frame.columns] + [c for c in frame.columns if c != "published"]
        ]
    return HTML(
        f"<details><summary>{escape(summary)}</summary>" + table(frame.reset_index(), decimals).to_html() + "</details>"
    )


def paper_beside(
    name: str,
    table_frame: pd.DataFrame,
    published_table: pd.DataFrame,
    keys: Sequence[str],
    label: str,
    decimals: int = 3,
) -> HTML:
    """Paper table ``name`` beside this run's ``table_frame``, folded (:func:`beside` of
    :func:`helpers.core.formats.published.beside_published`; ``label`` heads this run's values).
    When this run's rows cannot be paired with the paper's (no shared system, say), a
    sentence says so openly above it: the paper's values are then a reference, not values
    the run could reproduce."""
    from ..formats.published import beside_published, unpaired_keys

    keys = list(keys)
    apart = unpaired_keys(table_frame, published_table, keys)
    said = "".join(
        _words().fill(
            "unpaired",
            key=escape(k),
            name=escape(name),
            here=escape(", ".join(map(str, table_frame[k].unique()))),
            there=escape(", ".join(map(str, published_table[k].unique()))),
        )
        for k in apart
    )
    return HTML(
        said
        + beside(
            beside_published(table_frame, published_table, keys, label),
            decimals,
            summary=f"Paper {name}: published beside “{label}”",
        ).data
    )
