"""QE robustness arithmetic and perturbations."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers import qe


def test_pct_change_by_hand():
    assert qe.pct_change(0.2523, 0.2617) == pytest.approx(-3.5919, abs=1e-4)
    assert qe.pct_change(-0.0625, 0.1984) == pytest.approx(-131.502, abs=1e-3)
    assert qe.pct_change(0.5, -0.25) == pytest.approx(300.0)  # relative to |reference|


def test_paper_tables_5_6_against_9_10():
    check = qe.check_percent_changes()
    assert len(check) == 90
    flagged = check[~check["follows"]].set_index(["model", "group", "metric"])
    # the first cell of Table 5 follows from Table 9 (hand-checked above)
    assert check.iloc[0]["follows"]
    # Mixtral r, M1G1: (-0.0625 - 0.1984) / 0.1984 = -131.50%; with both raw values anywhere within their
    # rounding (+-0.00005) the change lies in [-131.535, -131.469], so the printed -131.45% cannot follow.
    row = flagged.loc[("Mixtral-8x7B", "M1G1", "r")]
    assert row["pct_change_computed"] == pytest.approx(-131.502, abs=1e-3)
    assert row["low"] == pytest.approx((-0.06255 - 0.19835) / 0.19835 * 100, abs=1e-6)
    assert row["high"] == pytest.approx((-0.06245 - 0.19845) / 0.19845 * 100, abs=1e-6)
    # FT-COMETKIWI r, M1G1 differs from the rounded recomputation (-6.135%) only within rounding
    assert ("FT-COMETKIWI", "M1G1", "r") not in flagged.index


def test_replace_spans_overlapping_words_and_offsets():
    text = "草泥马！尼玛，草泥马"
    new, edits = qe.replace_spans(text, {"草泥马": "艹泥马", "尼玛": "你妈", "泥马": "XX"})
    assert new == "艹泥马！你妈，艹泥马"
    assert edits == [(0, 3, "草泥马", "艹泥马"), (4, 6, "尼玛", "你妈"), (7, 10, "草泥马", "艹泥马")]
    assert all(text[s:e] == old for s, e, old, _ in edits)
    same, none = qe.replace_spans("今天天气好", {"尼玛": "你妈"})
    assert same == "今天天气好" and none == []


def test_perturb_sources_every_occurrence_and_nothing_else():
    sources = pd.Series(["卧槽卧槽", "劳资不干了", "没有俚语"])
    out = qe.perturb_sources(sources, {"卧槽": ["我操", "我艹"], "劳资": ["老子", "老资"]}, k=2)
    assert out["perturbed"].tolist() == ["我艹我艹", "老资不干了", "没有俚语"]
    assert out["n_replacements"].tolist() == [2, 1, 0]


def test_share_increased():
    assert qe.share_increased([1, 2, 3, 4], [2, 2, 1, 5]) == 50.0
