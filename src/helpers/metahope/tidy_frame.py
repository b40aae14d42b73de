"""The tidy annotation frame every MetaHOPE loader returns, and queries on it.

One row per (item, system, annotator, category) with columns :data:`TIDY_COLUMNS`;
``severity`` is a level of the scale 0/2/4/6/8/10 (paper appendix I.3) for MetaHOPE data,
a weighted sum for foreign MQM data (:func:`helpers.metahope.mqm_format.from_mqm`). The
readers live by format: :mod:`~helpers.metahope.workbooks`, :mod:`~helpers.metahope.long_csv`,
:mod:`~helpers.metahope.mqm_format`; :mod:`~helpers.metahope.load` picks one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.errors import InputError
from .severity import SEVERITY_LEVELS

#: The five MetaHOPE error categories (paper §3): Impact, Required Adaptation Missing,
#: Mistranslation, Style, Proofreading.
CATEGORIES: tuple[str, ...] = ("IMP", "RAM", "MIS", "STL", "PRF")
#: Columns of the tidy frame every loader returns.
TIDY_COLUMNS = [
    "item",
    "position",
    "row",
    "sentence",
    "metaphor",
    "pos",
    "system",
    "translation",
    "annotator",
    "category",
    "severity",
]


def category_order(tidy: pd.DataFrame) -> list[str]:
    """The categories of a tidy frame, in order: a categorical column's categories (every
    loader sets them: MetaHOPE's IMP … PRF, or the MQM categories of :func:`from_mqm`),
    else :data:`CATEGORIES` when the values are MetaHOPE's, else in order of appearance."""
    col = tidy["category"]
    if isinstance(col.dtype, pd.CategoricalDtype):
        return [str(c) for c in col.cat.categories]
    seen = list(dict.fromkeys(col.astype(str)))
    return list(CATEGORIES) if set(seen) <= set(CATEGORIES) else seen


def is_metahope(tidy: pd.DataFrame) -> bool:
    """Whether a tidy frame holds MetaHOPE annotations (categories IMP … PRF), the data the
    paper's tables describe; foreign MQM data (:func:`from_mqm`) is not compared with them."""
    return category_order(tidy) == list(CATEGORIES)


def severity_labels(tidy: pd.DataFrame):
    """The severity scale for κ and ordinal α on single categories: MetaHOPE's levels
    (:data:`SEVERITY_LEVELS`) for MetaHOPE data, None (the values observed) for foreign MQM
    data, whose category sums have no fixed scale."""
    return SEVERITY_LEVELS if is_metahope(tidy) else None


def shared_units(tidy: pd.DataFrame) -> pd.DataFrame:
    """Annotator × annotator: how many (item, system) units both rated (the diagonal: how
    many each rated), annotators in order of first appearance."""
    units = tidy.drop_duplicates(["item", "system", "annotator"])
    rated = pd.crosstab([units["item"], units["system"]], units["annotator"]).clip(upper=1)
    rated = rated[list(dict.fromkeys(units["annotator"]))]
    return rated.T @ rated


def two_raters(tidy: pd.DataFrame, raters=None, parameter: str = "raters") -> tuple[pd.DataFrame, list[str]]:
    """Two annotators' ratings of the (item, system) units both rated, and their names.

    Chapter 1's two-rater statistics (κ, bootstrap, severity bias) need the same items from
    both; in a WMT design (3 of N raters per segment) that is the units a pair shares.
    ``raters`` names the two; None takes the pair that shares the most units (first
    appearance breaks ties). Fewer than two annotators, an unknown name or a pair that
    shares no unit is an :class:`InputError` naming ``parameter``.
    """
    shared = shared_units(tidy)
    names = list(shared.index)
    if raters is None:
        if len(names) < 2:
            raise InputError(f"has {len(names)} annotator(s) {names}; agreement needs two", parameter=parameter)
        off = shared.to_numpy().copy()
        np.fill_diagonal(off, -1)
        i, j = np.unravel_index(int(np.argmax(off)), off.shape)
        raters = [names[min(i, j)], names[max(i, j)]]
    raters = [str(r) for r in raters]
    if len(raters) != 2 or raters[0] == raters[1]:
        raise InputError("must name two different annotators", parameter=parameter, value=raters)
    for r in raters:
        if r not in names:
            raise InputError("is not one of the annotators", parameter=parameter, value=r, expected=" or ".join(names))
    a, b = raters
    if shared.loc[a, b] == 0:
        raise InputError(
            f"{a} and {b} share no rated unit",
            parameter=parameter,
            value=raters,
            expected="two annotators who rated some of the same segments",
        )
    pair = tidy[tidy["annotator"].isin(raters)]
    count = pair.drop_duplicates(["item", "system", "annotator"]).groupby(["item", "system"]).size()
    both = count[count == 2].index
    keep = pd.MultiIndex.from_frame(pair[["item", "system"]]).isin(both)
    return pair[keep].reset_index(drop=True), raters
