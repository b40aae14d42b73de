"""Each chapter checks its parameters before any work: wrong values are named precisely."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers.core.errors import InputError
from helpers.explanations import chapters as ex_chapters
from helpers.metahope import chapters as mh_chapters


def test_explanation_ratings_are_checked_against_the_benchmark(tmp_path):
    path = tmp_path / "ratings.csv"
    pd.DataFrame({"item_id": ["E001", "X999"], "rater": ["r1", "r2"], "dimension": ["mapping", "mapping"],
                  "score": [3, 4]}).to_csv(path, index=False)
    with pytest.raises(InputError, match=r"ratings.csv, column 'item_id': value 'X999': 1 rated item\(s\) are not in "
                                         r"the benchmark") as err:
        ex_chapters.explanations_setup(ratings_file=str(path))
    assert err.value.parameter == "ratings_file"
    with pytest.raises(InputError, match=r"parameter 'model_path'.*not found"):
        ex_chapters.evaluator_config(model_path=str(tmp_path / "no-model"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no config.json"):
        ex_chapters.evaluator_config(model_path=str(tmp_path / "empty"))
    with pytest.raises(InputError, match=r"parameter 'mode': value 'zero-shot'"):
        ex_chapters.evaluator_config(mode="zero-shot")
    with pytest.raises(InputError, match=r"parameter 'rating_model'.*unknown rating-model knob"):
        ex_chapters.explanations_setup(rating_model={"halo": 2})


