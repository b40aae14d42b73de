"""Chapter 09's WMT22 ZH→EN section (helpers.metrics.wmt22) against mt-metrics-eval's own code.

``data/mtme_wmt22_reference.csv`` holds the values mt-metrics-eval (google-research/mt-metrics-eval at
68a481a) computes on the registry's WMT22 copy, recorded by ``tools/mtme_wmt22_reference.py`` (its header
says the command). The book's statistics on the same files must equal them to 1e-9, with exact ties
(``tie_tolerance=0``) as mt-metrics-eval tests them.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from helpers.core.formats import testsets
from helpers.metrics import files, meta, wmt22

REFERENCE = Path(__file__).parent / "data" / "mtme_wmt22_reference.csv"


@pytest.fixture(scope="module")
def wmt22_set():
    """Every score file of the copy read once: (human, metric scores) with the human translations."""
    return files.mtme_scores(testsets.get("wmt22").load(), "mqm", references=True)


def _ours(es, setting: str, level: str, metrics=None) -> pd.DataFrame:
    human, scores = wmt22.in_setting(*es, setting)
    scores = scores[scores["metric"].isin(metrics)] if metrics else scores
    return meta.meta_evaluate(
        human,
        scores,
        level="system" if level == "sys" else "segment",
        segments="all",
        n_boot=0,
        human_higher_is_better=True,
        lower_is_better=(),
        tie_tolerance=0,
    ).table


@pytest.mark.parametrize("setting", ["no_human", "with_refB"])
def test_system_level_equals_mt_metrics_eval_on_every_metric(wmt22_set, setting):
    ref = pd.read_csv(REFERENCE, comment="#").query("setting == @setting and level == 'sys'")
    assert ref["metric"].nunique() == 31  # every metric file of the copy
    got = ref.merge(_ours(wmt22_set, setting, "sys"), on=["metric", "statistic"], how="left")
    assert got["estimate"].notna().all()
    assert (got["estimate"] - got["value"]).abs().max() < 1e-9
    assert (got["n"] == got["n_systems"]).all()  # 14 systems without the human translations, 15 with refB


def test_segment_level_equals_mt_metrics_eval(wmt22_set):
    ref = pd.read_csv(REFERENCE, comment="#").query("level == 'seg'")
    if ref.empty:
        pytest.skip("no segment-level values recorded")
    for setting, part in ref.groupby("setting"):
        got = part.merge(
            _ours(wmt22_set, setting, "seg", sorted(part["metric"].unique())), on=["metric", "statistic"], how="left"
        )
        assert got["estimate"].notna().all()
        assert (got["estimate"] - got["value"]).abs().max() < 1e-9, got.assign(d=got["estimate"] - got["value"])
