"""Chapter 8's first step: the WMT MQM README's system tables recomputed from the files read
(:func:`reproduce`, any language pair named in the file name, :func:`language_pair`), and how
the printed values were rounded (:func:`rounding_summary`).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd

from ..core.formats import annotations as ann
from ..core.formats import published, testsets
from ..core.formats.mqm import GOOGLE_MQM_REPO
from ..core.statistics import scoring

#: The mirrored release and its files (data/sources.yml).
REPO = GOOGLE_MQM_REPO

TED_FILE = testsets.get("ted").relpath("mqm")

#: README table -> (published CSV under data/published/wmt_mqm/, file in the release, kind of file).
TABLES = {
    "TED ZH→EN": ("ted_zhen", TED_FILE, "errors"),
    "newstest2020 ZH→EN": (
        "newstest2020_zhen",
        testsets.get("newstest2020").relpath("mqm_scores"),
        "segments",
    ),
    "newstest2021 ZH→EN": (
        "newstest2021_zhen",
        testsets.get("newstest2021").relpath("mqm_scores"),
        "segments",
    ),
}

#: Every README table whose file the README names -> (published CSV, that file's name). The
#: chapter compares a table when the file it reads has this name, whatever the language pair.
README_TABLES = {
    "TED ZH→EN": ("ted_zhen", "mqm_ted_zhen.tsv"),
    "newstest2020 ZH→EN": ("newstest2020_zhen", "mqm_newstest2020_zhen.tsv"),
    "newstest2021 ZH→EN": ("newstest2021_zhen", "mqm_newstest2021_zhen.tsv"),
    "TED EN→DE": ("ted_ende", "mqm_ted_ende.tsv"),
    "newstest2020 EN→DE": ("newstest2020_ende", "mqm_newstest2020_ende.tsv"),
    "newstest2021 EN→DE": ("newstest2021_ende", "mqm_newstest2021_ende.tsv"),
}

#: Language codes of WMT's MQM files and their English names (for :func:`language_pair`).
LANGUAGES = {
    "en": "English",
    "de": "German",
    "zh": "Chinese",
    "ru": "Russian",
    "ja": "Japanese",
    "cs": "Czech",
    "uk": "Ukrainian",
    "he": "Hebrew",
    "hr": "Croatian",
    "pl": "Polish",
    "fr": "French",
    "es": "Spanish",
    "is": "Icelandic",
    "hi": "Hindi",
    "ko": "Korean",
    "ar": "Arabic",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
    "tr": "Turkish",
    "et": "Estonian",
    "lt": "Lithuanian",
    "lv": "Latvian",
    "fi": "Finnish",
    "ro": "Romanian",
    "ps": "Pashto",
    "km": "Khmer",
    "ta": "Tamil",
    "gu": "Gujarati",
    "kk": "Kazakh",
    "sr": "Serbian",
    "bho": "Bhojpuri",
    "mas": "Maasai",
    "liv": "Livonian",
    "sah": "Yakut",
    "xh": "Xhosa",
    "sw": "Swahili",
    "id": "Indonesian",
    "th": "Thai",
    "vi": "Vietnamese",
    "bn": "Bengali",
    "mr": "Marathi",
    "fa": "Persian",
    "hu": "Hungarian",
    "sk": "Slovak",
    "sl": "Slovenian",
    "bg": "Bulgarian",
    "el": "Greek",
    "da": "Danish",
    "sv": "Swedish",
    "no": "Norwegian",
    "ca": "Catalan",
    "eu": "Basque",
    "gl": "Galician",
}


def language_pair(path) -> tuple[str, str] | None:
    """Source and target language codes named by an MQM file's path, or None.

    Google's and WMT's files name the pair in the file name (``mqm_ted_zhen.tsv``,
    ``wmt24_en-de.jsonl``: two known codes of :data:`LANGUAGES`, together or joined by ``-``,
    between non-letters) or as a folder of their own (``generalMT2023/ende/…``, ``en-zh/…``).
    The file name is read first, then the folders from the innermost out.

    >>> language_pair("generalMT2023/zhen/sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz")
    ('zh', 'en')
    >>> language_pair("ratings/en-de/batch.tsv"), language_pair("test_it_es0/my_ratings.tsv")
    (('en', 'de'), None)
    """
    import re

    codes = "|".join(sorted(LANGUAGES, key=len, reverse=True))
    within = re.compile(rf"(?<![a-z])({codes})-?({codes})(?![a-z])")
    whole = re.compile(rf"({codes})-?({codes})")
    parts = str(path).replace("\\", "/").lower().split("/")
    for m in within.finditer(parts[-1]):
        if m.group(1) != m.group(2):
            return m.group(1), m.group(2)
    for part in reversed(parts[:-1]):
        m = whole.fullmatch(part)
        if m and m.group(1) != m.group(2):
            return m.group(1), m.group(2)
    return None


def pair_names(pair: tuple[str, str] | None) -> tuple[str, str]:
    """``("Chinese→English", "ZH→EN")`` for ``("zh", "en")``; an unnamed pair for None."""
    if pair is None:
        return "a language pair the file name does not give", "?→?"
    src, tgt = pair
    return f"{LANGUAGES.get(src, src)}→{LANGUAGES.get(tgt, tgt)}", f"{src.upper()}→{tgt.upper()}"


def tables_for(*files) -> dict:
    """The README tables (:data:`README_TABLES`) about the given files, matched by file name:
    ``{table: (published CSV, local file, "errors")}`` for :func:`reproduce` (an error-row
    file, scored with the ``mqm`` scheme). Empty when no table is about these files."""
    out = {}
    for f in files:
        if f is None:
            continue
        for table, (csv, name) in README_TABLES.items():
            if str(f).replace("\\", "/").split("/")[-1] == name and table not in out:
                out[table] = (csv, f, "errors")
    return out


def _places(printed: str) -> int:
    return len(printed.split(".")[1]) if "." in printed else 0


#: Ways a table could have been rounded to its printed precision (value -> text).
ROUNDINGS = {
    "half-up once": lambda v, d: str(Decimal(repr(v)).quantize(Decimal(1).scaleb(-d), ROUND_HALF_UP)),
    "3 decimals, then half-up": lambda v, d: str(
        Decimal(repr(v)).quantize(Decimal("0.001"), ROUND_HALF_UP).quantize(Decimal(1).scaleb(-d), ROUND_HALF_UP)
    ),
    "3 decimals, then binary float %.Nf": lambda v, d: f"{round(v, 3):.{d}f}",
}


def reproduce(files: dict, tables: dict | None = None) -> pd.DataFrame:
    """Every README table of ``tables`` (default :data:`TABLES`, the mirrored ZH→EN files;
    :func:`tables_for` gives those about other files) recomputed beside the printed values.

    A printed system the file lacks (under its file name or its README name) is a row with
    no recomputed value, matched by no rule. TED is scored from its raw error rows with the
    ``mqm`` scheme (Source error weighed by severity: only that gives the released
    per-segment scores), the newstest tables from the released per-segment scores. A
    system's score is the mean over segments of the mean over raters:

        score = (1 / N) · Σ_s (1 / R_s) · Σ_r Σ_e w(e)

    over the system's N segments s, the R_s raters r of segment s and the errors e that r
    marked there, w(e) the scheme's weight of e's severity and category; difference =
    recomputed − published.

    Parameters
    ----------
    files
        The release path of each table's file -> the local file to read.
    tables
        README table -> (published CSV, release path, ``"errors"`` or ``"segments"``);
        default :data:`TABLES`.

    Returns
    -------
    DataFrame
        ``table, system, published, recomputed, difference`` and one ``match: <rule>`` column
        per rounding rule of :data:`ROUNDINGS` (does the rule turn the recomputed value into
        the printed text?); one row per printed system.

    References
    ----------
    Freitag, M., Foster, G., Grangier, D., Ratnakar, V., Tan, Q. and Macherey, W. (2021).
    Experts, errors, and context: a large-scale study of human evaluation for machine
    translation. TACL 9, 1460–1474, section 3 (MQM weights and scores); the README of
    github.com/google/wmt-mqm-human-evaluation (the printed system tables).
    """
    from ..core.formats import mqm

    rows = []
    for table, (csv, rel, kind) in (TABLES if tables is None else tables).items():
        pub = published.read_published("wmt_mqm", csv)
        if kind == "errors":
            frame = mqm.read_mqm(files[rel], columns=ann.SCORING_COLUMNS)
            ours = scoring.system_scores(scoring.rater_scores(frame, "mqm"))
        else:
            ours = scoring.system_scores(mqm.read_segment_scores(files[rel]))
        value = dict(zip(ours["system"], ours["score"]))
        for _, p in pub.iterrows():
            v = value.get(p["file_system"], value.get(p["system"]))
            v = float("nan") if v is None else float(v)
            row = {
                "table": table,
                "system": p["system"],
                "published": p["score"],
                "recomputed": v,
                "difference": v - float(p["score"]),
            }
            for name, fn in ROUNDINGS.items():
                row[f"match: {name}"] = bool(np.isfinite(v)) and fn(v, _places(p["score"])) == p["score"]
            rows.append(row)
    return pd.DataFrame(rows)


def rounding_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per README table and rounding rule, how many printed values the rule reproduces.

    For table t and rule r: reproduced(t, r) = Σ_i match_r(i) over the printed values i of t
    (``match: <r>`` of :func:`reproduce`, True counting 1), beside values(t), their number.

    Parameters
    ----------
    table
        :func:`reproduce`'s table.

    Returns
    -------
    DataFrame
        ``table, values`` and one column per rounding rule (the rule's name without
        ``match: ``), holding reproduced(t, r); one row per README table.

    References
    ----------
    The README of github.com/google/wmt-mqm-human-evaluation (the printed system tables whose
    rounding is checked).
    """
    rules = [c for c in table.columns if c.startswith("match: ")]
    out = table.groupby("table", sort=False)[rules].sum().astype(int)
    out.columns = [c.removeprefix("match: ") for c in rules]
    out.insert(0, "values", table.groupby("table", sort=False).size())
    return out.reset_index()
