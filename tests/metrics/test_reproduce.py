"""Chapter 09 reproduces WMT's published BLEU and chrF with sacrebleu's defaults (issue 33, item 1).

The published values are pinned here as printed in the organisers' ``scores/automatic-scores.tsv``
(wmt21-news-systems f41750d, wmt23-news-systems 99b5b9d; ZH→EN, reference A), not read from the
file, so that a changed loader, reference or metric cannot move both sides at once. Corpus scores
of the 18 systems are computed once for the module (about 15 s on 2 shared cores).
"""

from __future__ import annotations

import pytest

from helpers.metrics import data, scores

PUBLISHED = {
    "newstest2021": {
        "Borderline": (33.41007280859089, 61.71761372233924),
        "DIDI-NLP": (32.541398724404395, 61.656643577291284),
        "Facebook-AI": (32.07210175727858, 60.414810725663436),
        "IIE-MT": (31.659766887116536, 60.92381796940344),
        "MiSS": (32.55910163311742, 61.30348603470481),
        "NiuTrans": (31.886362375762502, 61.06967700959216),
        "Online-W": (28.541821095761524, 57.53058778768374),
        "SMU": (32.21001951454555, 60.862264346505846),
    },
    "generaltest2023": {
        "GPT4-5shot": (26.761240160026357, 53.13325383986711),
        "HW-TSC": (33.646667487349845, 57.471511200218494),
        "IOL_Research": (27.197841906773448, 52.3998248404048),
        "Lan-BridgeMT": (27.28197880043087, 53.07752516190259),
        "NLLB_Greedy": (20.48595538496908, 46.099501038876056),
        "NLLB_MBR_BLEU": (19.784277726673775, 45.845277523236575),
        "ONLINE-A": (28.28809104003381, 53.44013241308827),
        "ONLINE-B": (33.54021318816901, 57.453103963534765),
        "ONLINE-M": (23.544836662971935, 49.72209400047806),
        "ONLINE-W": (26.37621803375653, 52.508012142460935),
    },
}


@pytest.fixture(scope="module")
def computed():
    out = {}
    for testset in PUBLISHED:
        table = scores.system_scores(data.texts(testset), ["bleu", "chrf"])
        out[testset] = table.pivot(index="system", columns="metric", values="score")
    return out


@pytest.mark.parametrize("testset", list(PUBLISHED))
def test_sacrebleu_defaults_reproduce_every_published_system_score(computed, testset):
    got = computed[testset]
    assert sorted(got.index) == sorted(PUBLISHED[testset])
    for system, (bleu, chrf) in PUBLISHED[testset].items():
        assert got.loc[system, "bleu"] == pytest.approx(bleu, abs=1e-9), system
        assert got.loc[system, "chrf"] == pytest.approx(chrf, abs=1e-9), system


@pytest.mark.parametrize("testset", list(PUBLISHED))
def test_the_published_table_is_read_as_printed(testset):
    table = data.published_automatic(testset).pivot(index="system", columns="metric", values="score")
    for system, (bleu, chrf) in PUBLISHED[testset].items():
        assert (table.loc[system, "bleu"], table.loc[system, "chrf"]) == (bleu, chrf)
