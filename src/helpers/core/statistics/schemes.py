"""Weighting schemes as data: named YAML files with their citations.

A scheme is an ordered list of rules ``{name, pattern, weight}``. The weight of an
annotation is that of the first rule whose ``pattern`` (a regular expression, Python
``re.search``) matches ``"severity:category"`` in lower case — exactly how Marot matches its
weights (google-research/google-research ``marot/marot.js``, ``mqmDefaultWeights`` and
``matchesMQMSplit``), so Marot's weight tables can be pasted in. ``No-error`` marks weigh 0
and ``HOTW-test`` rows are left out before any rule is tried (as Marot's
``addErrorStats`` does). An annotation that no rule matches is an
:class:`~helpers.core.errors.InputError` naming the severity, category and where it
occurs: a scheme never falls back to 0.

The built-in schemes (:data:`BUILT_IN`) live beside this module in ``schemes/*.yml``:
``mqm`` (the published WMT tables), ``marot`` (Marot's defaults), ``hope`` (exponential)
and ``metahope`` (linear). A user's own YAML file has the same keys.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ..formats import annotations as ann

SCHEME_DIR = Path(__file__).with_name("schemes")
#: Names of the built-in schemes; ``mqm`` is the default.
BUILT_IN = ("mqm", "marot", "hope", "metahope")


@dataclass(frozen=True)
class Rule:
    """One weight: ``pattern`` matched against ``"severity:category"`` (lower case)."""

    name: str
    pattern: str
    weight: float

    def matches(self, key: str) -> bool:
        return re.search(self.pattern, key, flags=re.IGNORECASE) is not None


@dataclass(frozen=True)
class Scheme:
    """A named, cited, ordered list of :class:`Rule`."""

    name: str
    title: str
    citation: str
    rules: tuple[Rule, ...]
    source: str = ""

    def rule_for(self, severity: str, category: str = "") -> Rule | None:
        """The first rule matching the annotation (None when none does)."""
        key = f"{str(severity).strip().lower()}:{str(category).strip().lower()}"
        return next((r for r in self.rules if r.matches(key)), None)

    def weight_of(self, severity: str, category: str = "") -> float:
        """The weight of one annotation; ``InputError`` when no rule covers it."""
        if severity == ann.NO_ERROR:
            return 0.0
        rule = self.rule_for(severity, category)
        if rule is None:
            raise InputError(
                f"weighting scheme {self.name!r} has no weight for severity {severity!r}, category {category!r}",
                value=f"{severity}:{category}",
                expected=f"a rule in {self.source or self.name} that matches it",
            )
        return float(rule.weight)

    def weights(self, frame: pd.DataFrame, file=None) -> pd.Series:
        """The weight of every row of an annotation frame (NaN for ``HOTW-test`` rows).

        Each distinct (severity, category) is matched once. An uncovered one is an error
        naming it, the first line it occurs on and ``file``.
        """
        hotw = (frame["severity"] == ann.HOTW).to_numpy()
        sev_codes, sevs = pd.factorize(frame["severity"])
        cat_codes, cats = pd.factorize(frame["category"])
        pair = pd.factorize(sev_codes.astype(np.int64) * (len(cats) + 1) + cat_codes)[0]
        first = np.unique(pair, return_index=True)[1]
        values = np.full(len(first), np.nan)
        for k, row in enumerate(first):
            if hotw[row]:
                continue
            sev, cat = sevs[sev_codes[row]], cats[cat_codes[row]]
            try:
                values[k] = self.weight_of(sev, cat)
            except InputError as exc:
                line = int(frame["line"].iloc[row]) if "line" in frame.columns else None
                raise exc.located(file=file, row=line, column="severity") from None
        return pd.Series(values[pair], index=frame.index)


#: Columns of :func:`weight_table`.
WEIGHT_COLUMNS = ["category", "severity", "weight", "n", "rule"]


def weight_table(frame: pd.DataFrame, scheme: str | os.PathLike | Scheme = "mqm", file=None) -> pd.DataFrame:
    """How ``scheme`` weighted each (category, severity) present in an annotation frame:
    ``category, severity, weight, n, rule`` (:data:`WEIGHT_COLUMNS`), one row per pair, in
    the order of the scheme's rules (then ``No-error``, then ``HOTW-test``), the most
    frequent first within a rule. ``n`` counts rows, ``rule`` names the rule that gave the
    weight (``No-error``; ``left out`` with weight NaN for ``HOTW-test`` rows). A pair no
    rule covers is the :class:`~helpers.core.errors.InputError` of :meth:`Scheme.weights`.

    >>> f = pd.DataFrame({"severity": ["Major", "Minor", "Minor"], "category": ["Source issue", "Style", "Style"]})
    >>> weight_table(f, "mqm").values.tolist()
    [['Source issue', 'Major', 0.0, 1, 'Source issue'], ['Style', 'Minor', 1.0, 2, 'Minor']]
    """
    scheme = load_scheme(scheme)
    pairs = frame.groupby(["category", "severity"], sort=False).size().rename("n").reset_index()
    order = {r.name: k for k, r in enumerate(scheme.rules)}
    rows = []
    for cat, sev, n in pairs.itertuples(index=False, name=None):
        if sev == ann.HOTW:
            rows.append((cat, sev, np.nan, n, "left out", len(order) + 1))
            continue
        if sev == ann.NO_ERROR:
            rows.append((cat, sev, 0.0, n, ann.NO_ERROR, len(order)))
            continue
        try:
            weight = scheme.weight_of(sev, cat)
        except InputError as exc:
            hit = (frame["severity"] == sev) & (frame["category"] == cat)
            line = int(frame.loc[hit, "line"].iloc[0]) if "line" in frame.columns else None
            raise exc.located(file=file, row=line, column="severity") from None
        rule = scheme.rule_for(sev, cat).name
        rows.append((cat, sev, weight, n, rule, order[rule]))
    out = pd.DataFrame(rows, columns=WEIGHT_COLUMNS + ["order"])
    out = out.sort_values(["order", "n", "category", "severity"], ascending=[True, False, True, True], kind="stable")
    return out[WEIGHT_COLUMNS].reset_index(drop=True).astype({"n": "int64"})


_BARE_SEVERITY = re.compile(r"\^?[a-z]+:")


def _singled_out(category: str, severity: str) -> bool:
    """Whether a reference weighting (``mqm`` or ``marot``) weighs this pair by a rule of its
    category rather than by its severity alone."""
    for name in ("mqm", "marot"):
        rule = _built_in(name).rule_for(severity, category)
        if rule is not None and not _BARE_SEVERITY.fullmatch(rule.pattern):
            return True
    return False


def weight_line(table: pd.DataFrame, name: str) -> str:
    """One line saying how a scheme weighted what a file holds, from :func:`weight_table`:
    per rule, its weight and what it covered (the severity when it covered many
    categories, else the category and its severities). A category that a reference
    weighting (``mqm``, ``marot``) weighs by a rule of its own (Non-translation, Minor
    Fluency/Punctuation, ``Source error``, ``Source issue``, Creative Reinterpretation) is
    always named with its weight, so a scheme choice that moves it is never silent.

    >>> t = pd.DataFrame({"category": ["Style", "Source error", "Source error", "Found"],
    ...                   "severity": ["Major", "Major", "Minor", "HOTW-test"], "weight": [5, 5, 1, np.nan],
    ...                   "n": [4, 2, 1, 3], "rule": ["Major", "Major", "Minor", "left out"]})
    >>> weight_line(t, "mqm")
    'weights (scheme mqm): Major 5, Source error (Major 5, Minor 1); 3 HOTW-test row(s) not scored'
    """
    scored = table[table["rule"] != "left out"].copy()
    named = [_singled_out(c, s) for c, s in zip(scored["category"], scored["severity"])]
    scored["item"] = np.where(named, "category: " + scored["category"], scored["rule"])
    items = []
    for item, group in scored.groupby("item", sort=False):
        sevs = list(dict.fromkeys(group["severity"]))
        weights = list(dict.fromkeys(group["weight"]))
        if item == ann.NO_ERROR:
            items.append(f"{ann.NO_ERROR} 0")
        elif not item.startswith("category: "):  # a rule of severities
            label = sevs[0] if len(sevs) == 1 else f"{item} ({', '.join(sevs)})"
            items.append(f"{label} {'/'.join(f'{w:g}' for w in weights)}")
        elif len(weights) == 1:
            items.append(f"{group['category'].iloc[0]} ({', '.join(sevs)}) {weights[0]:g}")
        else:
            items.append(
                f"{group['category'].iloc[0]} ("
                + ", ".join(f"{s} {w:g}" for s, w in zip(group["severity"], group["weight"]))
                + ")"
            )
    line = f"weights (scheme {name}): " + (", ".join(items) if items else "nothing to weigh")
    hotw = int(table.loc[table["rule"] == "left out", "n"].sum())
    return line + (f"; {hotw} HOTW-test row(s) not scored" if hotw else "")


def _from_mapping(data, source: str) -> Scheme:
    if not isinstance(data, dict):
        raise InputError("a weighting scheme is a mapping with name, citation and rules", file=source)
    missing = [k for k in ("name", "citation", "rules") if not data.get(k)]
    if missing:
        raise InputError(
            f"the weighting scheme lacks {missing}",
            file=source,
            expected="name, title, citation and rules [{name, pattern, weight}, ...]",
        )
    rules = []
    for i, raw in enumerate(data["rules"], start=1):
        if not isinstance(raw, dict) or not {"pattern", "weight"} <= set(raw):
            raise InputError("a rule needs a pattern and a weight", file=source, row=i, value=raw)
        try:
            re.compile(str(raw["pattern"]))
        except re.error as exc:
            raise InputError(
                f"the pattern is not a regular expression ({exc})",
                file=source,
                row=i,
                column="pattern",
                value=raw["pattern"],
            ) from None
        try:
            weight = float(raw["weight"])
        except (TypeError, ValueError):
            weight = -1.0
        if not weight >= 0:
            raise InputError(
                "the weight must be a number >= 0", file=source, row=i, column="weight", value=raw["weight"]
            )
        rules.append(Rule(str(raw.get("name", f"rule {i}")), str(raw["pattern"]), weight))
    return Scheme(
        str(data["name"]),
        str(data.get("title", data["name"])),
        " ".join(str(data["citation"]).split()),
        tuple(rules),
        source,
    )


@functools.cache
def _built_in(name: str) -> Scheme:
    return load_scheme(name)


def load_scheme(spec: str | os.PathLike | Scheme = "mqm") -> Scheme:
    """A built-in scheme by name (:data:`BUILT_IN`) or a user's YAML file (same keys)."""
    import yaml

    if isinstance(spec, Scheme):
        return spec
    text = str(spec)
    if text in BUILT_IN:
        path = SCHEME_DIR / f"{text}.yml"
    else:
        path = Path(text)
        if not path.is_file():
            raise InputError(
                "is neither a built-in weighting scheme nor a YAML file",
                parameter="weights",
                value=text,
                expected=", ".join(BUILT_IN) + " or FILE.yml",
            )
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise InputError(f"is not valid YAML ({exc})", file=path) from None
    return _from_mapping(data, str(path) if text not in BUILT_IN else f"schemes/{text}.yml")


__all__ = ["BUILT_IN", "WEIGHT_COLUMNS", "Rule", "Scheme", "load_scheme", "weight_line", "weight_table"]
