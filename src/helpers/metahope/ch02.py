"""Chapter 2 (MetaHOPE, both directions): checked parameters, data with provenance, steps, findings.

The chapter calls :func:`setup` in the cell right after its parameters cell; it checks every
parameter before any work and raises :class:`~helpers.core.errors.InputError` naming the
parameter. ``setup.load()`` returns :class:`Data`: the EN→ZH and ZH→EN annotations in one tidy
frame (with ``direction`` and ``pos_class``) and their :class:`~helpers.core.book.report.Provenance`.
The steps (:func:`segments_by_direction`, :func:`team_comparison`) return tidy frames that the
chapter saves beside the error profiles (:func:`helpers.metahope.scoring.error_profile`), the
system comparison (:func:`helpers.core.statistics.stats.compare_pairs`) and the metaphor types
(:mod:`helpers.metahope.corpus`). :func:`findings` reads those CSVs back by their public names
(:data:`FINDINGS_INPUTS`) and returns every number the page states, so the findings can be
recomputed and tested from ``results/02_metahope_directions/*.csv`` alone; the sentences are
``notebooks/words/02_metahope_directions.md`` (and the shared ``metahope.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..core import classroom, params
from ..core.book.findings import Findings
from ..core.book.report import ChapterData, Provenance
from ..core.book.results import read_saved
from ..core.errors import InputError
from ..core.statistics import stats
from . import load, release
from .chapter_common import (
    OWN_DETAIL,
    RELEASED_DETAIL,
    _class_note,
    _excludes_zero,
    _projection,
    _span,
    _workbooks,
    few_clusters,
)
from .scoring import count_sentences, normalise_pos, profile_categories, segment_scores, team_scores

#: The POS classes a ``pos_overrides`` entry may name.
POS_CLASSES = ("noun", "verb", "adjective-adverb", "other")


@dataclass(frozen=True)
class Data(ChapterData):
    tidy: pd.DataFrame = None  # both directions' annotations, with ``direction`` and ``pos_class``


@dataclass(frozen=True)
class Setup:
    """Chapter 2's checked parameters (see the chapter's parameters cell)."""

    en_zh: dict | list | None
    zh_en: dict | list | None
    pos_overrides: dict
    n_perm: int
    n_boot: int
    seed: int
    unfinished: str
    projection: bool | None = None  # students shown as codes (see helpers.metahope.ch01.Setup)
    results_dir: str = "results"

    @property
    def released(self) -> bool:
        return self.en_zh is None and self.zh_en is None

    def load(self) -> Data:
        """Both directions in one tidy frame with ``direction`` and ``pos_class``."""
        en_zh = release.pilot_v1_files() if self.en_zh is None else self.en_zh
        zh_en = {"ZH1": release.pilot_zh_en_file()} if self.zh_en is None else self.zh_en
        parts = {d: load.load_class(f, unfinished=self.unfinished) for d, f in (("EN→ZH", en_zh), ("ZH→EN", zh_en))}
        students = [p for p in parts.values() if p.named_by_field or self.projection]  # not the released annotators
        coded = classroom.projection(
            self.projection,
            bool(students),
            [n for p in students for n in p.names()],
            self.results_dir,
            [f for p in students for f in p.files],
        )  # one code per student
        parts = {d: p.projected(coded) for d, p in parts.items()}
        tidy = pd.concat([p.tidy.assign(direction=d) for d, p in parts.items()], ignore_index=True)
        tidy = normalise_pos(tidy, self.pos_overrides)
        files = coded.paths(f for spec in (en_zh, zh_en) for f in (spec.values() if isinstance(spec, dict) else spec))
        kind = "released" if self.released else "own"
        detail = RELEASED_DETAIL if self.released else OWN_DETAIL
        if not self.released and (self.en_zh is None or self.zh_en is None):
            detail = "Your annotations for one direction, the released workbooks for the other."
        notes = [f"{d}: {n}" for d, p in parts.items() for n in p.notes]
        return Data(Provenance(kind, files, _class_note(detail, notes)), tidy)


def setup(
    en_zh_files=None,
    zh_en_files=None,
    pos_overrides=None,
    n_perm=10000,
    n_boot=2000,
    seed=2026,
    results_dir="results",
    unfinished="stop",
    projection=None,
) -> Setup:
    """Check chapter 2's parameters (defaults as in the notebook's parameters cell; ``pos_overrides``
    is only read, never changed; ``projection`` as in :func:`helpers.metahope.ch01.setup`)."""
    en_zh = None if en_zh_files is None else _workbooks("en_zh_files", en_zh_files, minimum=1)
    zh_en = None if zh_en_files is None else _workbooks("zh_en_files", zh_en_files, minimum=1)
    overrides = pos_overrides or {}
    if not isinstance(overrides, dict):
        raise InputError("must be a mapping {item id: class}", parameter="pos_overrides", value=overrides)
    for item, cls in overrides.items():
        if cls not in POS_CLASSES:
            raise InputError(
                f"class of item {item!r} is not a POS class",
                parameter="pos_overrides",
                value=cls,
                expected=" or ".join(POS_CLASSES),
            )
    params.text("results_dir", str(results_dir))
    return Setup(
        en_zh,
        zh_en,
        dict(overrides),
        params.integer("n_perm", n_perm, minimum=100),
        params.integer("n_boot", n_boot, minimum=100),
        params.integer("seed", seed),
        classroom.unfinished_choice(unfinished),
        _projection(projection),
        str(results_dir),
    )


def description(box: Data, setup: Setup) -> pd.DataFrame:
    """What chapter 2 reads, per direction (``data_summary.csv``): ``direction, released,
    annotators, systems, items, sentences`` (``annotators`` and ``systems`` name them)."""
    rows = []
    for direction, part in box.tidy.groupby("direction", sort=False):
        rows.append(
            {
                "direction": direction,
                "released": int(setup.released),
                "annotators": ", ".join(map(str, part["annotator"].unique())),
                "systems": ", ".join(map(str, part["system"].unique())),
                "items": part["item"].nunique(),
                "sentences": count_sentences(part),
            }
        )
    return pd.DataFrame(rows)


def segments_by_direction(tidy: pd.DataFrame) -> pd.DataFrame:
    """SEGS per (direction, item, system, annotator): the unit chapter 2 compares systems on."""
    segs = segment_scores(tidy.drop(columns="pos_class", errors="ignore"))
    return segs.merge(
        tidy.drop_duplicates(["item", "annotator"])[["item", "annotator", "direction"]], on=["item", "annotator"]
    )


def team_comparison(segs: pd.DataFrame, n_perm: int, n_boot: int, seed: int, data: str) -> pd.DataFrame:
    """The systems compared on each direction's team mean (:func:`~helpers.metahope.scoring.team_scores`),
    with sentence clusters and Holm as in the per-annotator comparison; ``data`` labels the rows."""
    team = team_scores(segs)
    out = stats.compare_pairs(
        team, value="SEGS", by=["direction", "annotator"], n_perm=n_perm, n_boot=n_boot, seed=seed, clusters="sentence"
    )
    return out.rename(columns={"annotator": "team"}).assign(data=data)


def pilot_team_comparison(n_perm: int, n_boot: int, seed: int) -> pd.DataFrame | None:
    """The released pilots' team comparison, to stand beside a class's (None when the
    released workbooks have not been fetched)."""
    try:
        released = Setup(None, None, {}, n_perm, n_boot, seed, "stop").load().tidy
    except FileNotFoundError:
        return None
    return team_comparison(segments_by_direction(released), n_perm, n_boot, seed, "released pilot")


# --------------------------------------------------------------------------- findings
#: The result files :func:`findings` reads (``results/02_metahope_directions/<name>.csv``).
FINDINGS_INPUTS = (
    "error_profile",
    "error_profile_by_pos",
    "system_comparison",
    "team_comparison",
    "metaphor_types",
    "type_comparison",
)
#: :func:`helpers.core.statistics.stats.compare_pairs`' verdicts, and the yes/no quantity of each the words choose by.
VERDICT_FLAGS = {
    "difference": "is_difference",
    "suggestive, not significant after Holm": "is_suggestive",
    "no evidence": "no_evidence",
}


def findings(folder) -> pd.DataFrame:
    """Chapter 2's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone.

    Every number the page states: per direction and annotator the error profile (``worst``,
    ``best``, ``top_category``), per compared pair of systems the difference with its intervals
    and verdict (``difference``, ``is_difference``, ...), the few clusters (``clusters``,
    ``few``), the team's verdicts (``team_difference``), the metaphor types (``matched``,
    ``type_difference``) and the chapter's summary (``differences``, ``mdd_range``, ...). A
    quantity whose table is not saved (yet, or in this run) is not applicable.

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS` plus extra columns some quantities use.
    """
    t = {name: read_saved(folder, name) for name in FINDINGS_INPUTS}
    found = Findings()
    _profile(found, t["error_profile"])
    comparison = t["system_comparison"]
    few_clusters(found, comparison["n_clusters"] if not comparison.empty else [], unit="sentences", items="metaphors")
    _comparison(found, comparison)
    _team(found, t["team_comparison"])
    _types(found, t["metaphor_types"], t["type_comparison"])
    by_pos = t["error_profile_by_pos"]
    found.add("small_cells", int((by_pos["n_items"] < 10).sum()) if not by_pos.empty else None)
    found.add("cells", len(by_pos) if not by_pos.empty else None)
    return found.frame()


def _pilot(direction, annotator) -> dict:
    """The group and columns naming one pilot (direction, annotator) in a findings frame."""
    return {"group": f"{direction} · {annotator}", "direction": direction, "annotator": annotator}


def _profile(found: Findings, profile: pd.DataFrame) -> None:
    """Per direction and annotator (sections ``profile`` and ``findings``): the systems
    penalised most and least (mean penalty per metaphor, share of metaphors with an error) and
    the largest category (its share of all penalty points)."""
    if profile.empty:
        for q in ("worst", "best", "top_category", "highest", "lowest", "top_share"):
            found.add(q)
        return
    for (direction, annotator), g in profile.groupby(["direction", "annotator"], sort=False):
        g = g.sort_values("mean_penalty", ascending=False)
        worst, best = g.iloc[0], g.iloc[-1]
        top = g[profile_categories(profile)].sum()
        pilot = _pilot(direction, annotator)
        (
            found.add(
                "worst", worst["mean_penalty"], text=worst["system"], with_error=worst["items_with_error"], **pilot
            )
            .add("best", best["mean_penalty"], text=best["system"], with_error=best["items_with_error"], **pilot)
            .add("top_category", top.max() / top.sum(), text=top.idxmax(), **pilot)
            .add("highest", worst["mean_penalty"], text=worst["system"], **pilot)
            .add("lowest", best["mean_penalty"], text=best["system"], **pilot)
            .add("top_share", top.max() / top.sum(), text=top.idxmax(), **pilot)
        )


def _comparison(found: Findings, comparison: pd.DataFrame) -> None:
    """Per compared pair of systems (section ``comparison``): the difference with both
    intervals by sentence (percentile bootstrap and cluster-robust t with G − 1 degrees of
    freedom), each at 95 % and family-wise, the verdict read on the sentence-cluster test
    with Holm (flags ``is_difference``, ``is_suggestive``, ``no_evidence``) and the
    cluster-level minimum detectable difference; the pairs whose simultaneous percentile
    interval excludes 0 where the t interval does not; then the chapter's summary of the
    verdicts and widths (section ``findings``)."""
    per_pair = (
        "family_level",
        "pairs",
        "difference",
        "percentile",
        "family_t",
        "family_percentile",
        "holm",
        "sentences",
        "mdd",
        *VERDICT_FLAGS.values(),
        "n_items",
        "n_clusters",
        "t_disagrees",
        "comparisons",
        "differences",
        "suggestive",
        "no_evidence_count",
        "mdd_range",
        "t_widening",
        "percentile_exclude",
        "t_exclude",
        "widening",
        "understated",
        "naive_only",
        "naive_p",
        "cluster_p",
    )
    if comparison.empty:
        for q in per_pair:
            found.add(q)
        return
    m = int(comparison.groupby(["direction", "annotator"]).size().max())
    found.add("family_level", 1 - 0.05 / m).add("pairs", m)
    for _, r in comparison.iterrows():
        row = {
            "group": f"{r['direction']} · {r['annotator']} · {r['system_a']} − {r['system_b']}",
            "direction": r["direction"],
            "annotator": r["annotator"],
            "pair": f"{r['system_a']} − {r['system_b']}",
        }
        (
            found.add(
                "difference",
                r["mean_difference"],
                ci=(r["cluster_t_ci_low"], r["cluster_t_ci_high"]),
                p=r["p_cluster_permutation"],
                **row,
            )
            .add("percentile", r["mean_difference"], ci=(r["cluster_ci_low"], r["cluster_ci_high"]), **row)
            .add("family_t", r["mean_difference"], ci=(r["family_t_ci_low"], r["family_t_ci_high"]), **row)
            .add("family_percentile", r["mean_difference"], ci=(r["family_ci_low"], r["family_ci_high"]), **row)
            .add("holm", p=r["p_cluster_holm"], text="Holm", **row)
            .add("sentences", r["n_clusters"], **row)
            .add("mdd", r["cluster_mdd_80_adjusted"], **row)
        )
        for verdict, flag in VERDICT_FLAGS.items():
            found.add(flag, r["verdict"] == verdict, **row)
    n_items, n_clusters = comparison["n_items"], comparison["n_clusters"]
    found.add("n_items", text=_span(n_items.min(), n_items.max()), ci=(n_items.min(), n_items.max()))
    found.add("n_clusters", text=_span(n_clusters.min(), n_clusters.max()), ci=(n_clusters.min(), n_clusters.max()))
    disagree = comparison[
        _excludes_zero(comparison["family_ci_low"], comparison["family_ci_high"])
        & (comparison["family_t_ci_low"] <= 0)
        & (comparison["family_t_ci_high"] >= 0)
    ]
    found.add(
        "t_disagrees",
        len(disagree),
        text="; ".join(
            f"{r['direction']} {r['annotator']} {r['system_a']} − {r['system_b']}" for _, r in disagree.iterrows()
        ),
    )
    counts = comparison["verdict"].value_counts()
    mdd = comparison["cluster_mdd_80_adjusted"]
    (
        found.add("comparisons", len(comparison))
        .add("differences", counts.get("difference", 0))
        .add("suggestive", counts.get("suggestive, not significant after Holm", 0))
        .add("no_evidence_count", counts.get("no evidence", 0))
        .add("mdd_range", mdd.min(), ci=(mdd.min(), mdd.max()))
    )
    widen_t = (comparison["family_t_ci_high"] - comparison["family_t_ci_low"]) / (
        comparison["family_ci_high"] - comparison["family_ci_low"]
    )
    (
        found.add("t_widening", widen_t.min(), ci=(widen_t.min(), widen_t.max()))
        .add("percentile_exclude", int(_excludes_zero(comparison["family_ci_low"], comparison["family_ci_high"]).sum()))
        .add("t_exclude", int(_excludes_zero(comparison["family_t_ci_low"], comparison["family_t_ci_high"]).sum()))
    )
    _naive_against_cluster(found, comparison)


def _naive_against_cluster(found: Findings, comparison: pd.DataFrame, alpha: float = 0.05) -> None:
    """Items as independent against whole sentences, like with like (section ``findings``): the
    cluster-robust t interval's width over the naive paired t interval's (both Student's t:
    ``widening``, median with the range), in how many comparisons it is wider (``understated``),
    and per pair whose naive sign-flip p is below ``alpha`` while the sentence-cluster p is not
    (``naive_only``, their count; ``naive_p`` and ``cluster_p`` per pair). Without the naive t
    columns (a table saved before they existed) none applies."""
    if "t_ci_low" not in comparison or "p_permutation" not in comparison:
        found.add("widening").add("understated").add("naive_only").add("naive_p").add("cluster_p")
        return
    widen = (comparison["cluster_t_ci_high"] - comparison["cluster_t_ci_low"]) / (
        comparison["t_ci_high"] - comparison["t_ci_low"]
    )
    found.add("widening", widen.median(), ci=(widen.min(), widen.max())).add("understated", int((widen > 1).sum()))
    naive = comparison[(comparison["p_permutation"] < alpha) & ~(comparison["p_cluster_permutation"] < alpha)]
    found.add("naive_only", len(naive))
    for _, r in naive.iterrows():
        group = f"{r['direction']} · {r['annotator']} · {r['system_a']} − {r['system_b']}"
        found.add("naive_p", p=r["p_permutation"], group=group, text="naive").add(
            "cluster_p", p=r["p_cluster_permutation"], group=group, text="cluster"
        )
    if naive.empty:
        found.add("naive_p").add("cluster_p")


def _team(found: Findings, team: pd.DataFrame) -> None:
    """Per data, direction and pair (section ``team``): the team's verdict, read on the
    sentence-cluster test with Holm (the same rule as the per-annotator verdicts); then, for
    this run's data, per direction the pairs tested and separated after Holm (``team_pairs``,
    ``team_separated``), and each separated pair's difference (``team_hit``)."""
    if team.empty:
        for q in ("team_difference", "team_pairs", "team_separated", "team_hit"):
            found.add(q)
        return
    for _, r in team.iterrows():
        found.add(
            "team_difference",
            r["mean_difference"],
            ci=(r["cluster_ci_low"], r["cluster_ci_high"]),
            p=r["p_cluster_holm"],
            text=r["verdict"],
            group=f"{r['data']} · {r['direction']} · {r['team']} · {r['system_a']} − {r['system_b']}",
            data=r["data"],
            direction=r["direction"],
            team=r["team"],
            pair=f"{r['system_a']} − {r['system_b']}",
        )
    own = team[team["data"] == "this run"]
    for direction, g in own.groupby("direction", sort=False):
        hits = g[g["verdict"] == "difference"]
        (
            found.add("team_pairs", len(g), group=direction, team=g["team"].iloc[0]).add(
                "team_separated", len(hits), group=direction, team=g["team"].iloc[0]
            )
        )
        for _, r in hits.iterrows():
            found.add(
                "team_hit",
                r["mean_difference"],
                group=f"{direction} · {r['system_a']} − {r['system_b']}",
                direction=direction,
                pair=f"{r['system_a']} − {r['system_b']}",
            )
    if not (own["verdict"] == "difference").any():
        found.add("team_hit")


def _sentences(n: int) -> str:
    return f"{n} sentence" if n == 1 else f"{n} sentences"


def _types(found: Findings, types: pd.DataFrame, by_type: pd.DataFrame) -> None:
    """Metaphor types (section ``types``): per direction how many annotated metaphors found
    their corpus row (and which did not); per contrast and measure of ``by_type``
    (:func:`helpers.metahope.corpus.type_comparison`) the difference with its sentence-cluster
    interval and minimum detectable difference (the measure's key in ``type_difference``'s
    text, phrased by the words' verdicts table), or ``no_interval`` when a side comes from one
    sentence."""
    if types.empty:
        found.add("matched").add("unmatched").add("id_wrong")
    for direction, g in types.groupby("direction", sort=False) if not types.empty else ():
        missed = g[~g["matched"]]
        found.add(
            "matched",
            int(g["matched"].sum()),
            group=direction,
            direction=direction,
            items=len(g),
            text="; ".join(f"{r['metaphor']} ({r['item']}: {r['note']})" for _, r in missed.iterrows()),
        )
        found.add("unmatched", len(missed), group=direction, direction=direction)
        found.add(
            "id_wrong",
            int((g["matched"] & ~g["id_agrees"].fillna(True).astype(bool)).sum()),
            group=direction,
            direction=direction,
        )
    if by_type.columns.empty:  # not saved: no contrast is stated, not even that there is none
        for q in ("type_difference", "type_mdd", "no_interval", "excluding", "with_interval", "no_contrast"):
            found.add(q)
        return
    for _, r in by_type.iterrows():
        row = {
            "group": f"{r['direction']} · {r['group_a']} vs {r['group_b']} · {r['measure']}",
            "direction": r["direction"],
            "contrast": f"{r['group_a']} ({r['n_a']} metaphors in "
            f"{_sentences(r['sentences_a'])}) vs {r['group_b']} ({r['n_b']} in {_sentences(r['sentences_b'])})",
        }
        scale = 100 if r["measure"] == "error_rate" else 1
        found.add(
            "type_difference",
            r["difference"] * scale,
            ci=(r["ci_low"] * scale, r["ci_high"] * scale),
            text=r["measure"],
            unit=" points" if scale == 100 else "",
            **row,
        )
        found.add("type_mdd", r["mdd_80"] * scale, **row)
        found.add("no_interval", bool(pd.isna(r["ci_low"])), **row)
    excluding = int(_excludes_zero(by_type["ci_low"], by_type["ci_high"]).sum()) if len(by_type) else 0
    found.add("excluding", excluding).add("with_interval", int(by_type["ci_low"].notna().sum()) if len(by_type) else 0)
    found.add("no_contrast", by_type.empty)
    if by_type.empty:
        found.add("type_difference").add("type_mdd").add("no_interval")
