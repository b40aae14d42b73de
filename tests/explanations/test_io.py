"""Unit tests of helpers.explanations.io: the authored benchmark and the long ratings file (read, located errors, forms export)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from helpers import explanations as ex
from helpers.core.errors import InputError
from helpers.core.statistics import agreement as ag


@pytest.fixture(scope="module")
def benchmark():
    return ex.load_benchmark()


def test_authored_benchmark_composition(benchmark):
    assert len(benchmark) == 100 and benchmark["item_id"].is_unique and benchmark["metaphor"].is_unique
    assert benchmark["design"].value_counts().to_dict() == {"targeted": 60, "mixed": 25, "reference": 15}
    fails = benchmark[list(ex.DIMENSIONS)] == 0
    targeted = benchmark["design"] == "targeted"
    assert (fails[targeted].sum(axis=1) == 1).all()
    assert fails[targeted].sum().tolist() == [10] * 6
    assert fails[benchmark["design"] == "reference"].sum().sum() == 0
    assert fails[benchmark["design"] == "mixed"].sum(axis=1).between(2, 4).all()
    words = benchmark["explanation"].str.split().str.len()
    assert words.between(15, 35).all()


def _long_csv(tmp_path, rows, name="r.csv"):
    path = tmp_path / name
    pd.DataFrame(rows, columns=["item_id", "rater", "dimension", "score"]).to_csv(path, index=False)
    return path


def test_read_long_ratings_and_missing_data(tmp_path, benchmark):
    path = _long_csv(
        tmp_path,
        [
            ["E001", "r1", "Mapping", 4],
            ["E001", "r2", "mapping", "5"],
            ["E002", "r1", "Overall", 2],
            ["E002", "r2", "Overall", ""],
        ],
    )
    ratings = ex.read_ratings(path, benchmark)
    assert len(ratings) == 3  # the empty cell is a missing rating, not a zero
    assert ratings["metaphor"].iloc[0] == benchmark.set_index("item_id").loc["E001", "metaphor"]
    matrix = ag.rating_matrix(ratings[ratings["dimension"] == "overall"], "score", rater="rater", item="item_id")
    assert matrix.loc["E002", "r1"] == 2 and np.isnan(matrix.loc["E002"].get("r2", np.nan))


@pytest.mark.parametrize(
    "row, message",
    [
        (["E001", "r1", "Mapping", 6], r"row 2, column 'score': value '6': score must be an integer from 1 to 5"),
        (["E001", "r1", "Mapping", "good"], r"column 'score': value 'good'"),
        (["E001", "r1", "Clarity", 3], r"row 2, column 'dimension': value 'Clarity': unknown dimension"),
    ],
)
def test_bad_ratings_are_located(tmp_path, row, message):
    with pytest.raises(InputError, match=message):
        ex.read_ratings(_long_csv(tmp_path, [row]))


def test_duplicate_rating(tmp_path):
    path = _long_csv(tmp_path, [["E001", "r1", "Mapping", 4], ["E001", "r1", "MP", 3]])
    with pytest.raises(InputError, match="row 3.*a second rating of item E001 by rater r1 on mapping"):
        ex.read_ratings(path)


def test_forms_export(tmp_path, benchmark):
    path = tmp_path / "forms.csv"
    pd.DataFrame(
        {
            "Timestamp": ["t1", "t2"],
            "Email Address": ["a@x", "b@x"],
            "E001. a clean bill of health [Mapping]": ["4", "5 - very good"],
            "E001. a clean bill of health [Overall quality]": ["3", ""],
        }
    ).to_csv(path, index=False)
    ratings = ex.read_ratings(path, benchmark)
    assert sorted(ratings[["rater", "dimension", "score"]].astype(str).values.tolist()) == [
        ["a@x", "mapping", "4"],
        ["a@x", "overall", "3"],
        ["b@x", "mapping", "5"],
    ]
    bad = tmp_path / "bad.csv"
    pd.DataFrame({"Name": ["a"], "E001 [Clarity]": ["3"]}).to_csv(bad, index=False)
    with pytest.raises(InputError, match=r"row 1, column 'E001 \[Clarity\]': value 'Clarity'"):
        ex.read_ratings(bad)
