"""The long CSV interchange format (helpers.metahope.long_csv): round trip and errors."""

from __future__ import annotations

import pandas as pd
import pytest

from conftest import comparable_tidy
from helpers.core.errors import InputError
from helpers.metahope import load, long_csv


def test_long_format_round_trip(tmp_path, two_annotators):
    tidy = load.load_study(two_annotators)
    path = tmp_path / "long.csv"
    long_csv.to_long(tidy).to_csv(path, index=False)
    back = long_csv.read_long(path)
    pd.testing.assert_frame_equal(comparable_tidy(back), comparable_tidy(tidy))
    assert list(back.columns) == list(tidy.columns)


def test_long_format_errors(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("item,system,annotator,category,severity\ni1,s,A,MIS,4\ni1,s,A,MIZ,2\n")
    with pytest.raises(InputError, match=r"l.csv, row 3, column 'category': value 'MIZ'"):
        long_csv.read_long(path)
    path.write_text("item,system,annotator,category,severity\ni1,s,A,MIS,major\n")
    with pytest.raises(InputError, match=r"row 2, column 'severity': value 'major'"):
        long_csv.read_long(path)
    path.write_text("item,system,category,severity\ni1,s,MIS,2\n")
    with pytest.raises(InputError, match="missing column"):
        long_csv.read_long(path)
