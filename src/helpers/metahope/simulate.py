"""A seeded simulation of several annotators applying MetaHOPE to the same items.

The pilot-v2 per-annotator sheets are not public, so the pilot-v2 chapter runs by default
on annotations made here. The model is deliberately simple and every knob means one thing:

* the **truth** is a real annotation (by default the released ZH→EN pilot sheet): the
  categories and severities it records are taken as the errors actually present;
* each simulated annotator perceives a present error at ``severity + bias + noise·z``
  (z standard normal); every (item, system) the truth found clean offers one chance of a
  false alarm, perceived at ``bias + noise·z`` in a random category;
* an error is recorded when the perceived severity reaches the annotator's ``threshold``
  (the *detection threshold* of appendix J), rounded to the scale 2…10;
* with probability ``confusion`` an error of IMP, MIS, STL or PRF is filed under one of
  the other three (the *category boundary* problem of appendix J); RAM is kept apart
  because the paper reports it as comparatively recognisable;
* two errors landing in the same category keep the higher severity.

Nothing here is fitted to the paper's tables; the chapter shows the published values
beside the simulated ones only as "published".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields

import numpy as np
import pandas as pd

from ..core.errors import InputError
from .io import CATEGORIES

CONFUSABLE = ("IMP", "MIS", "STL", "PRF")


@dataclass(frozen=True)
class Annotator:
    """One simulated annotator's habits (severity units are the 0–10 MetaHOPE scale)."""

    name: str
    threshold: float = 3.0  # perceived severity needed to record an error
    bias: float = 0.0  # added to every perceived severity: > 0 harsh, < 0 lenient
    confusion: float = 0.2  # probability of filing an IMP/MIS/STL/PRF error under another of the four
    noise: float = 1.5  # standard deviation of perception noise

    def __post_init__(self):
        if not 0 <= self.confusion <= 1:
            raise InputError(f"annotator {self.name}: confusion must be a probability", parameter="panel",
                             value=self.confusion, expected="a number from 0 to 1")
        if self.noise < 0:
            raise InputError(f"annotator {self.name}: noise must be >= 0", parameter="panel", value=self.noise)


#: Five annotators who differ the way appendix J describes: one strict and harsh, one
#: lenient, one who mixes categories up, and so on. Interpretable defaults, not estimates.
DEFAULT_PANEL: tuple[Annotator, ...] = (
    Annotator("S1", threshold=3.0, bias=0.0, confusion=0.15, noise=2.0),
    Annotator("S2", threshold=5.0, bias=-1.0, confusion=0.25, noise=2.5),
    Annotator("S3", threshold=2.5, bias=2.0, confusion=0.35, noise=3.0),
    Annotator("S4", threshold=4.0, bias=1.0, confusion=0.20, noise=2.5),
    Annotator("S5", threshold=3.5, bias=-0.5, confusion=0.40, noise=2.5),
)


def panel_from_records(records: Iterable[dict] | None) -> tuple[Annotator, ...]:
    """Annotators from plain dicts (a papermill parameter); ``None`` gives :data:`DEFAULT_PANEL`.

    Each dict needs a ``name`` and may set ``threshold``, ``bias``, ``confusion`` and
    ``noise``; names must differ and agreement needs at least two annotators.
    """
    if records is None:
        return DEFAULT_PANEL
    known = {f.name for f in fields(Annotator)}
    if not isinstance(records, (list, tuple)):
        raise InputError("must be a list of annotators", parameter="panel", value=records,
                         expected="[{name: S1, threshold: 3, bias: 0, confusion: 0.2, noise: 1.5}, ...]")
    panel = []
    for k, r in enumerate(records, start=1):
        if not isinstance(r, Mapping) or "name" not in r:
            raise InputError(f"annotator {k} must be a mapping with a name", parameter="panel", value=r,
                             expected="{name: S1, threshold: 3, ...}")
        unknown = sorted(set(r) - known)
        if unknown:
            raise InputError(f"annotator {k}: unknown knob(s) {unknown}", parameter="panel", value=dict(r),
                             expected=f"keys among {sorted(known)}")
        for key, value in r.items():
            if key != "name" and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise InputError(f"annotator {k}: {key} must be a number", parameter="panel", value=value)
        panel.append(Annotator(**{**dict(r), "name": str(r["name"])}))
    names = [a.name for a in panel]
    if len(set(names)) != len(names):
        raise InputError("annotator names must differ", parameter="panel", value=names)
    if len(panel) < 2:
        raise InputError("agreement needs at least two annotators", parameter="panel", value=names)
    return tuple(panel)


def panel_table(panel: Sequence[Annotator]) -> pd.DataFrame:
    """The panel's knobs as a table (one row per annotator)."""
    return pd.DataFrame([asdict(a) for a in panel])


def simulate_annotations(truth: pd.DataFrame, panel: Sequence[Annotator] = DEFAULT_PANEL, seed: int = 0
                         ) -> pd.DataFrame:
    """Annotations of ``truth``'s items by every annotator of ``panel``, as a tidy frame.

    ``truth`` is a tidy frame of one annotator (item, system, category, severity, …).
    Each recorded error of the truth is perceived at ``severity + bias + noise·z``; each
    (item, system) the truth found clean offers one chance of a false alarm, perceived at
    ``bias + noise·z`` in a random category. Perceptions reaching the annotator's
    threshold are recorded (rounded to 2…10); IMP/MIS/STL/PRF errors move to another of
    the four with probability ``confusion``. The result has ``truth``'s columns, one block
    per simulated annotator.
    """
    if truth["annotator"].nunique() != 1:
        raise ValueError("the truth must be one annotator's sheet")
    rng = np.random.default_rng(seed)
    base = truth.drop(columns="annotator").copy()
    base["category"] = base["category"].astype(str)
    keys = ["item", "system"]
    present = base.loc[base["severity"] > 0, keys + ["category", "severity"]].reset_index(drop=True)
    clean = base.groupby(keys, sort=False)["severity"].sum()
    clean = clean[clean == 0].reset_index()[keys]
    frames = []
    for a in panel:
        # errors that are there
        z = rng.standard_normal(len(present))
        seen = present["severity"].to_numpy(dtype=float) + a.bias + a.noise * z
        cats = present["category"].to_numpy()
        swap = np.isin(cats, CONFUSABLE) & (rng.random(len(present)) < a.confusion)
        index = np.array([CONFUSABLE.index(c) if c in CONFUSABLE else 0 for c in cats], dtype=int)
        moved = np.array(CONFUSABLE)[(index + rng.integers(1, len(CONFUSABLE), size=len(present))) % len(CONFUSABLE)]
        found = present[keys].assign(category=np.where(swap, moved, cats), perceived=seen)
        # false alarms on clean units
        alarms = clean.assign(category=np.array(CATEGORIES)[rng.integers(0, len(CATEGORIES), size=len(clean))],
                              perceived=a.bias + a.noise * rng.standard_normal(len(clean)))
        events = pd.concat([found, alarms], ignore_index=True)
        events = events[events["perceived"] >= a.threshold]
        events = events.assign(severity=np.clip(2 * np.round(events["perceived"] / 2), 2, 10).astype(int))
        best = events.groupby(keys + ["category"], sort=False)["severity"].max()
        out = base.copy()
        out["severity"] = [int(best.get((i, s, c), 0)) for i, s, c in zip(out["item"], out["system"], out["category"])]
        out["annotator"] = a.name
        frames.append(out)
    result = pd.concat(frames, ignore_index=True)
    result["category"] = pd.Categorical(result["category"], categories=list(CATEGORIES), ordered=True)
    return result[list(truth.columns)]


def sentence_units(tidy: pd.DataFrame) -> pd.DataFrame:
    """Collapse metaphor items into their sentences: one unit per (sentence, system), each
    category keeping the highest severity among the sentence's items.

    Unit ids are ``sent-01``, ``sent-02``, … in order of first appearance.
    """
    sentences = list(dict.fromkeys(tidy["sentence"]))
    ids = {s: f"sent-{k + 1:02d}" for k, s in enumerate(sentences)}
    group = ["sentence", "system", "annotator", "category"]
    agg = tidy.groupby(group, sort=False, observed=True).agg(
        severity=("severity", "max"), translation=("translation", "first"), metaphor=("metaphor", ", ".join),
        pos=("pos", lambda s: "+".join(map(str, s)))).reset_index()
    agg["item"] = agg["sentence"].map(ids)
    agg["position"] = agg["sentence"].map(sentences.index)
    agg["row"] = agg["position"] + 2
    agg["category"] = pd.Categorical(agg["category"].astype(str), categories=list(CATEGORIES), ordered=True)
    return agg[[c for c in tidy.columns if c in agg.columns]]


def agreement_sweep(truth: pd.DataFrame, panel: Sequence[Annotator], knob: str, values: Sequence[float],
                    metric, seed: int = 0) -> pd.DataFrame:
    """Set ``knob`` to each of ``values`` for every annotator and record ``metric(simulated)``.

    ``metric`` takes a simulated tidy frame and returns a number (e.g. α on SEGS). Shows
    the teaching point of appendix J: which habit costs how much agreement.
    """
    if knob not in ("threshold", "bias", "confusion", "noise"):
        raise ValueError(f"unknown knob {knob!r}")
    rows = []
    for v in values:
        changed = [Annotator(**{**asdict(a), knob: v}) for a in panel]
        rows.append({"knob": knob, "value": v, "metric": metric(simulate_annotations(truth, changed, seed))})
    return pd.DataFrame(rows)
