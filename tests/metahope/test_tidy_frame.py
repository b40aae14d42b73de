"""The tidy annotation frame and its queries (helpers.metahope.tidy_frame), on frames built by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.metahope import tidy_frame


def _units(rated):
    """A tidy frame with one MIS row per (item, system, annotator) in ``rated``."""
    return pd.DataFrame(
        [{"item": i, "system": s, "annotator": a, "category": "MIS", "severity": 2} for i, s, a in rated]
    )


# items 1-3 of system X: A rates 1, 2, 3; B rates 1, 2; C rates 3 only
RATED = [("1", "X", "A"), ("1", "X", "B"), ("2", "X", "A"), ("2", "X", "B"), ("3", "X", "A"), ("3", "X", "C")]


def test_category_order_and_what_the_data_are():
    metahope = pd.DataFrame({"category": ["MIS", "IMP", "PRF"]})
    assert tidy_frame.category_order(metahope) == ["IMP", "RAM", "MIS", "STL", "PRF"]  # the paper's order
    assert tidy_frame.is_metahope(metahope) and tidy_frame.severity_labels(metahope) == (0, 2, 4, 6, 8, 10)
    foreign = pd.DataFrame({"category": pd.Categorical(["Style", "Accuracy"], categories=["Accuracy", "Style"])})
    assert tidy_frame.category_order(foreign) == ["Accuracy", "Style"]  # a categorical keeps its own order
    assert not tidy_frame.is_metahope(foreign) and tidy_frame.severity_labels(foreign) is None
    plain = pd.DataFrame({"category": ["Style", "Accuracy", "Style"]})
    assert tidy_frame.category_order(plain) == ["Style", "Accuracy"]  # else in order of appearance


def test_shared_units_counts_the_units_each_pair_rated():
    shared = tidy_frame.shared_units(_units(RATED))
    assert list(shared.index) == ["A", "B", "C"]
    # diagonal: A 3, B 2, C 1; A-B share items 1 and 2, A-C item 3, B-C none
    assert shared.to_numpy().tolist() == [[3, 2, 1], [2, 2, 0], [1, 0, 1]]


def test_two_raters_takes_the_pair_sharing_most_and_only_their_shared_units():
    pair, names = tidy_frame.two_raters(_units(RATED))
    assert names == ["A", "B"] and sorted(set(pair["item"])) == ["1", "2"] and len(pair) == 4
    pair, names = tidy_frame.two_raters(_units(RATED), raters=["C", "A"])
    assert names == ["C", "A"] and set(pair["item"]) == {"3"} and len(pair) == 2
    with pytest.raises(InputError, match="B and C share no rated unit"):
        tidy_frame.two_raters(_units(RATED), raters=["B", "C"])
    with pytest.raises(InputError, match=r"parameter 'raters': value 'D': is not one of the annotators"):
        tidy_frame.two_raters(_units(RATED), raters=["A", "D"])
    with pytest.raises(InputError, match=r"has 1 annotator\(s\) \['A'\]"):
        tidy_frame.two_raters(_units(RATED[:1]))
