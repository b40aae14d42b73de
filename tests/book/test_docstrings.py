"""Every public statistic documents itself the numpydoc way: Parameters, Returns (with the formula
in plain text) and References (the paper or textbook section it implements), as pingouin does.

numpydoc is not a dependency, so a small parser reads the sections: a title line underlined
with dashes of the same length.
"""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

#: The modules of public statistics whose every public function is documented this way.
MODULES = tuple(
    f"helpers.core.statistics.{m}"
    for m in (
        "resampling",
        "intervals",
        "paired",
        "rankings",
        "correlation",
        "regression",
        "agreement",
        "raters",
        "scoring",
    )
) + (
    "helpers.metrics.meta",
    "helpers.metrics.correlations",
    "helpers.metrics.significance",
    "helpers.figurative.analysis",
    "helpers.figurative.error_spans",
    "helpers.slang.correlations",
)
#: Modules that mix statistics with readers, plumbing and display: every public function is
#: documented this way except the ones named here, which compute no statistic. A new public
#: function is held to the sections unless it is added to this list.
NOT_STATISTICS = {
    "helpers.figurative.idioms": (
        "dictionary",
        "reduplicated",
        "compositional",
        "keeps",
        "raw_matches",
        "find_idioms",
        "read_sample",
        "xinhua",
        "dictionary_matches",
        "require_chinese",
    ),
    "helpers.figurative.design": (
        "design",
        "codes",
        "cross_products",
        "bootstrap_fits",
        "summary",
        "standardised",
        "effects_by",
    ),
    "helpers.figurative.metric_gaps": ("kind",),
    "helpers.figurative.gold": (),
    "helpers.slang.candidates": (
        "readings",
        "latinize",
        "syllable_inventory",
        "published_per_character_scores",
        "top_lists",
        "homophone_lists",
    ),
    "helpers.slang.language_models": (
        "heldout_texts",
        "train_kn",
        "wordfreq_scorer",
        "jieba_frequencies",
        "jieba_scorer",
        "char_vocabulary",
        "train_char_gpt",
    ),
    "helpers.slang.ladder": ("rung_family",),
    "helpers.slang.qe_models": (
        "detokenize",
        "handmade_features",
        "embed_texts",
        "make_model",
        "fit_models",
        "cold_cache",
    ),
    "helpers.slang.robustness": (
        "boot_index",
        "swap_sources",
    ),
    "helpers.slang.perturbations": (
        "slang_instances",
        "predict_groups",
        "perturb_sources",
        "perturbation_groups",
    ),
    "helpers.metahope.scoring": (
        "pos_class",
        "normalise_pos",
        "profile_categories",
        "pilot_v1_layout",
        "pilot_v2_layout",
    ),
    "helpers.metahope.planning": ("rating_array", "wmt_array", "pilot_array"),
    "helpers.metrics.scores": ("parse_metrics", "read_external"),
    "helpers.core.formats.esa": (
        "looks_like_esa",
        "read_esa",
        "read_many",
        "organisers_filter",
        "to_annotations",
        "undecided_spans",
    ),
    "helpers.core.formats.esa_rankings": ("read_autorank",),
    "helpers.explanations.evaluator": ("held_out_metaphors", "split_by_metaphor", "grouped_folds"),
    "helpers.explanations.analysis": ("wide_ratings", "significance_mark", "spearman_pairs"),
    "helpers.explanations.bounded_scale": ("rounding_cuts",),
    "helpers.wmt.readme_tables": ("language_pair", "pair_names", "tables_for"),
    "helpers.wmt.analysis": (
        "major_weight_scheme",
        "source_by_severity_scheme",
        "compared_schemes",
        "scheme_weights",
    ),
    "helpers.wmt.categories_and_spans": (
        "category_presence",
        "error_spans",
        "span_coverage",
    ),
    "helpers.wmt.systems": ("system_kind",),
}
REQUIRED = ("Parameters", "Returns", "References")
#: numpydoc's order of the sections used here.
ORDER = ("Parameters", "Returns", "Notes", "References", "Examples")


def sections(doc: str) -> dict[str, str]:
    """The numpydoc sections of a docstring: {title: body}."""
    lines = inspect.cleandoc(doc or "").split("\n")
    found, title, underline = {}, None, -1
    for k, line in enumerate(lines):
        below = lines[k + 1] if k + 1 < len(lines) else ""
        if line.strip() and re.fullmatch(r"-{3,}", below.strip()) and len(below.strip()) == len(line.strip()):
            title, underline = line.strip(), k + 1
            found[title] = ""
        elif title is not None and k != underline:
            found[title] += line + "\n"
    return {t: body.strip() for t, body in found.items()}


def test_the_section_parser_on_a_hand_made_docstring():
    doc = """Mean.

    Parameters
    ----------
    x : array_like
        Values.

    Returns
    -------
    float
        sum(x) / n.

    Notes
    ---
    Not a section: its underline is shorter than its title.
    """
    assert sections(doc) == {
        "Parameters": "x : array_like\n    Values.",
        "Returns": "float\n    sum(x) / n.\n\nNotes\n---\nNot a section: its underline is shorter than its title.",
    }


def _public(module_name: str):
    module = importlib.import_module(module_name)
    return [
        (f"{module_name}.{name}", fn)
        for name, fn in vars(module).items()
        if inspect.isfunction(fn) and fn.__module__ == module_name and not name.startswith("_")
    ]


def _statistics():
    pairs = [pair for m in MODULES for pair in _public(m)]
    for m, skipped in NOT_STATISTICS.items():
        pairs += [(name, fn) for name, fn in _public(m) if name.rsplit(".", 1)[1] not in skipped]
    return pairs


def test_the_functions_named_as_no_statistics_exist():
    stale = [
        f"{m}.{name}"
        for m, skipped in NOT_STATISTICS.items()
        for name in skipped
        if not callable(getattr(importlib.import_module(m), name, None))
    ]
    assert not stale, f"NOT_STATISTICS names functions that are gone: {stale}"


@pytest.mark.parametrize("name, fn", _statistics(), ids=lambda v: v if isinstance(v, str) else "")
def test_public_statistics_have_parameters_returns_and_references(name, fn):
    found = sections(fn.__doc__)
    takes = bool(inspect.signature(fn).parameters)  # a function of no parameters has no Parameters section
    missing = [s for s in REQUIRED if not found.get(s) and (takes or s != "Parameters")]
    assert not missing, f"{name}: its docstring lacks {', '.join(missing)}"
    assert "$" not in fn.__doc__, f"{name}: write the formula in plain text, not TeX"
    titles = [t for t in found if t in ORDER]
    assert titles == sorted(titles, key=ORDER.index), f"{name}: sections out of numpydoc's order: {titles}"
