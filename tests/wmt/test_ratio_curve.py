"""Chapter 08 on two severity levels: a weighting scheme is a Major:Minor ratio, so the chapter
reads the curve of α over that ratio (issue 35, item 1), never a verdict on linear against
exponential weights."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

from helpers.core.findings import Findings, Words
from helpers.wmt import analysis, ch08


def _curve(alphas: dict, metahope=0.9, hope=0.05) -> pd.DataFrame:
    """A hand-made :func:`~helpers.wmt.analysis.major_weight_agreement` table: α per Major weight,
    and the two MetaHOPE-family schemes at their ratios 3 and 4 (values that break any
    monotone curve, to show they are not part of it)."""
    rows = [{"scheme": f"mqm-major-{w:g}", "major_to_minor": float(w), "alpha": a} for w, a in alphas.items()]
    rows += [{"scheme": "hope", "major_to_minor": 4.0, "alpha": hope},
             {"scheme": "metahope", "major_to_minor": 3.0, "alpha": metahope}]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("alphas, direction, rho", [
    # ties in α ranked 2.5: ρ = Pearson((1, 2, 3, 4), (1, 2.5, 2.5, 4)) = 4.5 / √(5 · 4.5) = 3 / √10
    ({1: 0.1, 2: 0.2, 3: 0.2, 4: 0.4}, "rises", 3 / math.sqrt(10)),
    ({10: 0.3, 1: 0.5, 5: 0.4}, "falls", -1.0),  # given out of order: sorted by the ratio first
    ({1: 0.3, 2: 0.3, 3: 0.3}, "flat", math.nan),  # constant α: ρ undefined
    ({1: 0.3, 2: 0.5, 3: 0.4}, "mixed", 0.5),  # ranks (1, 3, 2): ρ = 1 − 6 · 2 / (3 · 8) = 0.5
])
def test_ratio_curve_reads_the_direction_of_alpha_over_the_swept_ratios_only(alphas, direction, rho):
    row = analysis.ratio_curve(_curve(alphas)).iloc[0]
    assert row["direction"] == direction
    assert row["n_ratios"] == len(alphas)
    assert (math.isnan(row["rho"]) if math.isnan(rho) else row["rho"] == pytest.approx(rho))
    low, high = min(alphas), max(alphas)
    assert (row["ratio_low"], row["alpha_low"], row["ratio_high"], row["alpha_high"]) == (
        low, alphas[low], high, alphas[high])


def _render(found: Findings) -> str:
    """Chapter 08's closing findings with only ``found``'s quantities applying: every other
    quantity the section names is present but not applicable, so its sentence drops."""
    words = Words("08_wmt_mqm")
    named = set(re.findall(r"\{(\w+)", words.sections["findings"].text)) - {"group"}
    for q in sorted(named - set(found.frame()["quantity"])):
        found.add(q)
    return words.text("findings", found.frame())


def _findings_text(weight_alpha: pd.DataFrame) -> str:
    """The closing findings with the ratio quantities and the file's name applying."""
    return _render(ch08.ratio_findings(Findings().add("multi_file", text="three.tsv"), weight_alpha))


@pytest.mark.parametrize("alphas, said", [
    ({1: 0.306, 3: 0.434, 5: 0.457, 10: 0.478}, "α **rises** with the ratio at every step (Spearman ρ = 1.00), "
                                                 "from 0.306 to 0.478"),
    ({1: 0.5, 5: 0.4, 10: 0.3}, "α **falls** as the ratio grows, at every step (Spearman ρ = -1.00), from 0.500 "
                                "to 0.300"),
    ({1: 0.4, 5: 0.4, 10: 0.4}, "α does **not change** with the ratio, from 0.400 to 0.400"),
])
def test_chapter_08_words_read_the_ratio_curve_not_linear_against_exponential(alphas, said):
    text = _findings_text(_curve(alphas, metahope=0.25, hope=0.125))
    assert said in text
    assert "What `three.tsv` can test is the curve of α over that ratio" in text
    assert f"from Major = 1 to 10 ({len(alphas)} weights)" in text
    assert "(MetaHOPE 3, HOPE 4, MQM 5)" in text and "MetaHOPE's α is 0.250 and HOPE's 0.125" in text
    # the verdict says what two levels cannot show, and where the claim is tested
    assert "say nothing about MetaHOPE's claim" in text and "chapter 1 tests that claim" in text
    # no verdict on linear against exponential weights from two-level data
    assert "opposite of the claim" not in text and not re.search(r"linear weights give", text)
    phrases = [v for (q, _), v in Words("08_wmt_mqm").verdicts.items() if q == "ratio_curve"]
    assert len(phrases) == 4 and not any("linear weights give" in v or "opposite of the claim" in v for v in phrases)


def test_chapter_08_reads_alpha_on_krippendorffs_convention():
    # the α sentence says the level through helpers.core.agreement.alpha_reading (issue 35, item 3)
    from helpers.core.agreement import alpha_reading

    text = _render(Findings().add("multi_file", text="three.tsv")
                   .add("alpha", 0.457, ci=(0.41, 0.50), text=alpha_reading(0.457), n_units=120, n_documents=8)
                   .add("alpha_command", text="mqm agreement three.tsv"))
    assert ("interval α of the segment penalties is 0.457 with MQM weights (documents resampled [0.41, 0.50], "
            "120 rated units, 8 documents); on Krippendorff's reading of α that is **too low for conclusions**;"
            ) in text
