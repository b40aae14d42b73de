"""The colour registry: core keeps the mechanism, each study registers its own colours, and the
book's figures keep the colours they had when core held one palette for every study."""

from __future__ import annotations

import ast
import importlib
import zlib
from pathlib import Path

import pytest

from helpers.core import plots

# The palette core/plots.py held before each study registered its own (commit bde6950), copied
# here as the independently known colours the figures must keep.
OLD_PALETTE = {
    "metahope": {
        "IMP": "#4c72b0", "RAM": "#dd8452", "MIS": "#c44e52", "STL": "#8172b3", "PRF": "#55a868",
        "GoogleMT": "#1b9e77", "GPT-5.4": "#d95f02", "Hunyuan-LLM-7B": "#7570b3",
    },
    "explanations": {
        "non_circularity": "#66c2a5", "origin": "#fc8d62", "mapping": "#8da0cb", "emergence": "#e78ac3",
        "accessibility": "#a6d854", "purpose": "#ffd92f", "overall": "#555555",
        "evaluator": "#1f77b4", "training mean": "#aaaaaa", "similarity only": "#ff7f0e",
    },
    "slang": {
        "尼玛": "#0072b2", "特么": "#e69f00", "卧槽": "#009e73", "草泥马": "#cc79a7", "劳资": "#d55e00",
        "percentile (Algorithm 2)": "#000000",
        "percentile (Algorithm 2 as printed: P[1:k], least frequent)": "#a6761d",
        "self-information, most probable": "#1b7837", "self-information, most informative": "#762a83",
        "features+ridge": "#332288", "USE multilingual v3 (frozen)+ridge": "#cc6677",
        "multilingual-e5-small (frozen)+ridge": "#44aa99", "all-MiniLM-L6-v2 (frozen)+ridge": "#999933",
        "transformer (all-MiniLM-L6-v2)": "#aa4499",
    },
    # chapter 08 had no entry: its two lines took the fallback cycle's colours by the hash of
    # their names, which the registry now writes down
    "wmt": {"resample segments": "#8c564b", "resample documents": "#2ca02c"},
}
FALLBACK = ("#17becf", "#bcbd22", "#e377c2", "#8c564b", "#9467bd", "#2ca02c", "#d62728", "#ff7f0e", "#1f77b4")


@pytest.mark.parametrize("study", sorted(OLD_PALETTE))
def test_each_study_registers_the_colours_its_figures_had(study):
    module = importlib.import_module(f"helpers.{study}.figures")
    assert OLD_PALETTE[study].items() <= module.COLOURS.items()  # new figures may register new labels
    for label, expected in OLD_PALETTE[study].items():
        assert plots.colour(label) == expected, label


def test_wmt_colours_are_what_the_fallback_gave_them():
    for label, expected in OLD_PALETTE["wmt"].items():
        assert FALLBACK[zlib.crc32(label.encode()) % len(FALLBACK)] == expected


def test_core_plots_names_no_study_label():
    source = Path(plots.__file__).read_text(encoding="utf-8")
    constants = {n.value for n in ast.walk(ast.parse(source))
                 if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    for study, labels in OLD_PALETTE.items():
        for label in labels:
            assert label not in constants, f"core/plots.py holds {study}'s label {label!r}"
            # labels that cannot be an ordinary word of the module must not appear anywhere in it
            if len(label) > 8 or not label.isascii():
                assert label not in source, f"core/plots.py mentions {study}'s label {label!r}"
            assert f'"{label}"' not in source and f"'{label}'" not in source, label


def test_unregistered_label_gets_a_stable_fallback_colour():
    name = "a system no study registered"
    assert name not in plots.registered_colours()
    assert plots.colour(name) == FALLBACK[zlib.crc32(name.encode()) % len(FALLBACK)]


def test_a_label_cannot_take_a_second_colour(monkeypatch):
    monkeypatch.setattr(plots, "_REGISTRY", {})
    plots.register_colours({"x": "#010203"})
    plots.register_colours({"x": "#010203"})  # the same again (a reloaded module) is fine
    with pytest.raises(ValueError, match="already registered as '#010203'"):
        plots.register_colours({"x": "#030201"})
    with pytest.raises(ValueError, match="'#rrggbb'"):
        plots.register_colours({"y": "blue"})
    assert plots.registered_colours() == {"x": "#010203"}
