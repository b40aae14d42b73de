"""A seeded simulation of several annotators applying MetaHOPE to the same items.

The pilot-v2 per-annotator sheets are not public, so the pilot-v2 chapter runs by default
on annotations made here. Every knob means one thing an annotation team can recognise
(appendix J of the MetaHOPE paper names detection, category and severity as the places
where annotators part ways):

* the **truth** is a real annotation (by default the released ZH→EN pilot sheet): the
  categories and severities it records are taken as the errors actually present;
* **detection**: an annotator overlooks a present error with probability ``miss``; errors
  also differ in how easy they are to see (a subtlety drawn once per error and shared by
  the whole team, spread ``subtlety_sd`` on the log-odds scale), so some errors are
  missed by many and others by few;
* **false alarms**: on any (item, system) the annotator records, with probability
  ``false_alarm``, an error the truth does not have, in a random category, perceived at
  the moderate level 4;
* **severity**: a detected error is perceived at ``severity + bias + noise·z`` (z
  standard normal) and recorded when that reaches the annotator's ``threshold`` (the
  detection threshold of appendix J), rounded to the scale 2…10;
* **category**: with probability ``confusion`` an IMP, MIS, STL or PRF error is filed
  under one of the other three (RAM is kept apart because the paper reports it as
  comparatively recognisable); two errors landing in the same category keep the higher
  severity.

:data:`DEFAULT_PANEL` was calibrated by hand (chapter 3 recomputes the check) so that,
over seeds 0–9, ordinal α on SEGS per system lies in the range the paper's Table 7
reports (0.16–0.22, give or take seed noise) and the exact presence agreement in its
range (16–47 %); nothing else was fitted to the paper's tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields

import numpy as np
import pandas as pd

from ..core.errors import InputError
from .tidy_frame import CATEGORIES

CONFUSABLE = ("IMP", "MIS", "STL", "PRF")


ALARM_LEVEL = 4.0  # perceived severity of a false alarm before bias and noise
SUBTLETY_SD = 1.0  # spread of how easy errors are to see (log-odds of a miss), shared by the team


@dataclass(frozen=True)
class Annotator:
    """One simulated annotator's habits (severity units are the 0–10 MetaHOPE scale)."""

    name: str
    threshold: float = 3.0  # perceived severity needed to record an error
    bias: float = 0.0  # added to every perceived severity: > 0 harsh, < 0 lenient
    confusion: float = 0.2  # probability of filing an IMP/MIS/STL/PRF error under another of the four
    noise: float = 1.5  # standard deviation of perception noise
    miss: float = 0.0  # probability of overlooking a present error (of average subtlety)
    false_alarm: float = 0.0  # probability of recording an error the truth lacks, per (item, system)

    def __post_init__(self):
        for knob in ("confusion", "miss", "false_alarm"):
            value = getattr(self, knob)
            if not 0 <= value <= 1:
                raise InputError(
                    f"annotator {self.name}: {knob} must be a probability",
                    parameter="panel",
                    value=value,
                    expected="a number from 0 to 1",
                )
        if self.noise < 0:
            raise InputError(f"annotator {self.name}: noise must be >= 0", parameter="panel", value=self.noise)


#: Five annotators who differ the way appendix J describes: one strict and lenient who
#: overlooks much (S2), one harsh who sees errors everywhere (S3), one who mixes categories
#: up (S5), and so on. Calibrated as the module docstring says; interpretable, not estimates.
DEFAULT_PANEL: tuple[Annotator, ...] = (
    Annotator("S1", threshold=3.0, bias=0.0, confusion=0.15, noise=3.0, miss=0.55, false_alarm=0.18),
    Annotator("S2", threshold=5.0, bias=-1.5, confusion=0.25, noise=3.0, miss=0.88, false_alarm=0.11),
    Annotator("S3", threshold=2.5, bias=3.0, confusion=0.35, noise=3.0, miss=0.48, false_alarm=0.29),
    Annotator("S4", threshold=4.0, bias=1.5, confusion=0.20, noise=3.0, miss=0.68, false_alarm=0.18),
    Annotator("S5", threshold=3.5, bias=-0.75, confusion=0.40, noise=3.0, miss=0.82, false_alarm=0.14),
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
        raise InputError(
            "must be a list of annotators",
            parameter="panel",
            value=records,
            expected="[{name: S1, threshold: 3, bias: 0, confusion: 0.2, noise: 1.5}, ...]",
        )
    panel = []
    for k, r in enumerate(records, start=1):
        if not isinstance(r, Mapping) or "name" not in r:
            raise InputError(
                f"annotator {k} must be a mapping with a name",
                parameter="panel",
                value=r,
                expected="{name: S1, threshold: 3, ...}",
            )
        unknown = sorted(set(r) - known)
        if unknown:
            raise InputError(
                f"annotator {k}: unknown knob(s) {unknown}",
                parameter="panel",
                value=dict(r),
                expected=f"keys among {sorted(known)}",
            )
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


def _logit(p: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return float(np.log(p / (1 - p)))


def simulate_annotations(
    truth: pd.DataFrame, panel: Sequence[Annotator] = None, seed: int = 0, subtlety_sd: float = SUBTLETY_SD
) -> pd.DataFrame:
    """Annotations of ``truth``'s items by every annotator of ``panel``, as a tidy frame.

    ``truth`` is a tidy frame of one annotator (item, system, category, severity, …). See
    the module docstring for the model. The result has ``truth``'s columns, one block per
    simulated annotator; the same ``seed`` gives the same annotations.
    """
    panel = DEFAULT_PANEL if panel is None else panel
    if truth["annotator"].nunique() != 1:
        raise ValueError("the truth must be one annotator's sheet")
    rng = np.random.default_rng(seed)
    base = truth.drop(columns="annotator").copy()
    base["category"] = base["category"].astype(str)
    keys = ["item", "system"]
    present = base.loc[base["severity"] > 0, keys + ["category", "severity"]].reset_index(drop=True)
    units = base.drop_duplicates(keys)[keys].reset_index(drop=True)
    subtlety = subtlety_sd * rng.standard_normal(len(present))  # one draw per error, shared by the team
    cats = present["category"].to_numpy()
    index = np.array([CONFUSABLE.index(c) if c in CONFUSABLE else 0 for c in cats], dtype=int)
    frames = []
    for a in panel:
        # detection: overlooked with a probability that depends on the annotator and the error
        p_miss = 1 / (1 + np.exp(-(_logit(a.miss) + subtlety))) if a.miss > 0 else np.zeros(len(present))
        detected = rng.random(len(present)) >= p_miss
        seen = present["severity"].to_numpy(dtype=float) + a.bias + a.noise * rng.standard_normal(len(present))
        swap = np.isin(cats, CONFUSABLE) & (rng.random(len(present)) < a.confusion)
        moved = np.array(CONFUSABLE)[(index + rng.integers(1, len(CONFUSABLE), size=len(present))) % len(CONFUSABLE)]
        found = present[keys].assign(category=np.where(swap, moved, cats), perceived=seen)[detected]
        # false alarms on any unit
        alarm = rng.random(len(units)) < a.false_alarm
        alarms = units.assign(
            category=np.array(CATEGORIES)[rng.integers(0, len(CATEGORIES), size=len(units))],
            perceived=ALARM_LEVEL + a.bias + a.noise * rng.standard_normal(len(units)),
        )[alarm]
        events = pd.concat([found, alarms], ignore_index=True)
        events = events[events["perceived"] >= a.threshold]
        events = events.assign(severity=np.clip(2 * np.round(events["perceived"] / 2), 2, 10).astype(int))
        best = (
            events.groupby(keys + ["category"], sort=False)["severity"].max().to_dict()
        )  # a dict: 10x faster to probe
        out = base.copy()
        out["severity"] = [int(best.get(k, 0)) for k in zip(out["item"], out["system"], out["category"])]
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
    agg = (
        tidy.groupby(group, sort=False, observed=True)
        .agg(
            severity=("severity", "max"),
            translation=("translation", "first"),
            metaphor=("metaphor", ", ".join),
            pos=("pos", lambda s: "+".join(map(str, s))),
        )
        .reset_index()
    )
    agg["item"] = agg["sentence"].map(ids)
    agg["position"] = agg["sentence"].map(sentences.index)
    agg["row"] = agg["position"] + 2
    agg["category"] = pd.Categorical(agg["category"].astype(str), categories=list(CATEGORIES), ordered=True)
    return agg[[c for c in tidy.columns if c in agg.columns]]


#: The statistic each knob can move (chapter 3's sweeps): confusion moves errors between
#: categories but leaves SEGS, their sum, unchanged, so it is read on per-category α;
#: detection knobs are read on whether annotators agree that there is an error at all.
SWEEP_STATISTICS = {
    "noise": "ordinal α on SEGS",
    "confusion": "mean ordinal α per category",
    "miss": "exact presence agreement (%)",
    "false_alarm": "exact presence agreement (%)",
    "threshold": "exact presence agreement (%)",
}


def _units(tidy: pd.DataFrame, by: str | None):
    """Per group: the units × annotators matrices of SEGS and of each category's severity."""
    frame = tidy.assign(
        unit=tidy["item"].astype(str) + " | " + tidy["system"].astype(str), group="all" if by is None else tidy[by]
    )
    for key, g in frame.groupby("group", sort=False, observed=True):
        wide = g.pivot_table(
            index="unit",
            columns=["annotator", "category"],
            values="severity",
            aggfunc="sum",
            observed=False,
            sort=False,
        )
        per_cat = {c: wide.xs(c, axis=1, level="category").to_numpy(dtype=float) for c in CATEGORIES}
        yield key, sum(per_cat.values()), per_cat


def team_statistics(
    tidy: pd.DataFrame,
    by: str | None = "system",
    statistics: Sequence[str] = ("segs_alpha", "presence_agreement", "category_alpha"),
) -> pd.DataFrame:
    """The statistics a sweep or a seed study reads, per ``by`` group (or pooled with
    ``by=None``, the unit then being (item, system)): ordinal α on SEGS (``segs_alpha``),
    exact presence agreement on SEGS in percent (``presence_agreement``), and the mean of
    the five per-category ordinal α (``category_alpha``); only the ``statistics`` asked for
    are computed (they are the same numbers as :func:`helpers.core.statistics.agreement.agreement`)."""
    from ..core.statistics.agreement import krippendorff_alpha

    rows = []
    for key, segs, per_cat in _units(tidy, by):
        row = {"system" if by else "group": key}
        if "segs_alpha" in statistics:
            row["segs_alpha"] = krippendorff_alpha(segs.T, level="ordinal", value_domain=np.unique(segs))
        if "presence_agreement" in statistics:
            present = segs > 0
            row["presence_agreement"] = float((present.all(axis=1) | ~present.any(axis=1)).mean() * 100)
        if "category_alpha" in statistics:
            row["category_alpha"] = float(
                np.nanmean(
                    [
                        krippendorff_alpha(m.T, level="ordinal", value_domain=list(range(0, 11, 2)))
                        for m in per_cat.values()
                    ]
                )
            )
        rows.append(row)
    return pd.DataFrame(rows)


def seed_study(truth: pd.DataFrame, panel: Sequence[Annotator], seeds: Sequence[int]) -> pd.DataFrame:
    """:func:`team_statistics` per system for the same panel under several seeds: how much of
    a difference between systems is the luck of one simulated team."""
    rows = [team_statistics(simulate_annotations(truth, panel, seed=s)).assign(seed=s) for s in seeds]
    return pd.concat(rows, ignore_index=True)


def seed_summary(study: pd.DataFrame, statistic: str = "segs_alpha") -> pd.DataFrame:
    """Per pair of systems: the mean difference of ``statistic`` over seeds and the share of
    seeds in which the first system is ahead. A share between 0.2 and 0.8 means the order of
    the two systems changes with the seed: that difference is seed noise."""
    wide = study.pivot(index="seed", columns="system", values=statistic)
    rows = []
    systems = list(dict.fromkeys(study["system"]))
    for i, a in enumerate(systems):
        for b in systems[i + 1 :]:
            diff = wide[a] - wide[b]
            ahead = float((diff > 0).mean())
            rows.append(
                {
                    "system_a": a,
                    "system_b": b,
                    "statistic": statistic,
                    "mean_difference": diff.mean(),
                    "min_difference": diff.min(),
                    "max_difference": diff.max(),
                    "share_a_ahead": ahead,
                    "n_seeds": len(diff),
                    "seed_noise": 0.2 <= ahead <= 0.8,
                }
            )
    return pd.DataFrame(rows)


def agreement_sweep(
    truth: pd.DataFrame, panel: Sequence[Annotator], knob: str, values: Sequence[float], seeds: Sequence[int] = (0,)
) -> pd.DataFrame:
    """Set ``knob`` to each of ``values`` for every annotator and read the statistic that knob
    can move (:data:`SWEEP_STATISTICS`), pooled over systems, averaged over ``seeds``.

    Returns ``knob, value, metric`` (the mean over seeds), then ``statistic``,
    ``metric_min``, ``metric_max`` and ``n_seeds``. Shows the teaching point of appendix J:
    which habit costs which kind of agreement.
    """
    if knob not in SWEEP_STATISTICS:
        raise ValueError(f"unknown knob {knob!r}; known: {sorted(SWEEP_STATISTICS)}")
    column = {
        "ordinal α on SEGS": "segs_alpha",
        "mean ordinal α per category": "category_alpha",
        "exact presence agreement (%)": "presence_agreement",
    }[SWEEP_STATISTICS[knob]]
    rows = []
    for v in values:
        changed = [Annotator(**{**asdict(a), knob: v}) for a in panel]
        got = [
            team_statistics(simulate_annotations(truth, changed, s), by=None, statistics=[column])[column].iloc[0]
            for s in seeds
        ]
        rows.append(
            {
                "knob": knob,
                "value": v,
                "metric": float(np.mean(got)),
                "statistic": SWEEP_STATISTICS[knob],
                "metric_min": float(np.min(got)),
                "metric_max": float(np.max(got)),
                "n_seeds": len(seeds),
            }
        )
    return pd.DataFrame(rows)
