"""The released MetaHOPE pilot files (aaronlifenghan/MetaHOPE), fetched by ``.venv/bin/python -m helpers fetch``."""

from __future__ import annotations

from pathlib import Path

from ..core import paths

#: Released pilot v1 (EN->ZH) files in aaronlifenghan/MetaHOPE.
METAHOPE_REPO = "aaronlifenghan/MetaHOPE"
PILOT_V1_FILES = {
    "A": "VUAMC_pilot20__translation_aligned_annotator-A.xlsx",
    "B": "VUAMC_pilot20__translation_aligned_annotated_annotator-B.xlsx",
}
PILOT_V1_SENTENCE_FILE = "Copy_VUAMC_pilot20__translation_aligned_with_full_sentence-level_error.xlsx"
#: Released ZH->EN pilot sheet (PSUCMC news, 32 MRWs): one annotator, not named in the paper.
PILOT_ZH_EN_FILE = "PSUCMC_pilot20__translation_aligned_annotated.xlsx"


def pilot_v1_files() -> dict[str, Path]:
    """The released EN->ZH pilot v1 annotator sheets (A, B), fetched by ``.venv/bin/python -m helpers fetch``."""
    return {a: paths.released_file(METAHOPE_REPO, f) for a, f in PILOT_V1_FILES.items()}


def pilot_zh_en_file() -> Path:
    """The released ZH->EN pilot sheet (one annotator), fetched by ``.venv/bin/python -m helpers fetch``."""
    return paths.released_file(METAHOPE_REPO, PILOT_ZH_EN_FILE)


def pilot_v1_sentence_file() -> Path:
    """The released sheet with annotator A's full sentence-level errors (EPS, paper Table 2)."""
    return paths.released_file(METAHOPE_REPO, PILOT_V1_SENTENCE_FILE)
