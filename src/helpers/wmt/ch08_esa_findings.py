"""Chapter 08's findings about section 6, the WMT24 ESA ranking: the sections ``esa_data`` and
``esa``, and the ESA part of the closing findings, each read from the saved result tables."""

from __future__ import annotations

import pandas as pd

from ..core.book.findings import Findings
from ..core.formats import esa_rankings
from .ch08_saved import _listing, _span, _summary
from .readme_tables import pair_names
from .systems import SYSTEM_KINDS

#: Section 6's quantities the closing findings restate, each as ``esa_<name>`` (:func:`_esa`).
ESA_CLOSING = (
    "pair",
    "systems",
    "clusters",
    "human_top",
    "compared",
    "tau",
    "same_top",
    "auto_top",
    "human_first",
    "undervalued",
    "overvalued",
    "chained",
    "no_autorank",
)


def _esa_closing(found: Findings, t: dict) -> None:
    """The closing findings' ESA part (section 6): :data:`ESA_CLOSING` read from :func:`_esa`,
    each renamed ``esa_<name>``; none applies when the run saved no ESA ranking."""
    if t["esa_rankings"] is None or t["esa_summary"] is None or not len(t["esa_rankings"]):
        for q in ESA_CLOSING:
            found.add(f"esa_{q}")
        return
    esa_found = _esa(t).frame()
    for q in ESA_CLOSING:
        rows = esa_found[esa_found["quantity"] == q]
        for r in rows.to_dict("records"):
            extra = {
                k: v
                for k, v in r.items()
                if k not in ("quantity", "group", "value", "ci_low", "ci_high", "p", "text")
                and not (isinstance(v, float) and pd.isna(v))
            }
            found.add(
                f"esa_{q}",
                None if pd.isna(r["value"]) else r["value"],
                group=r["group"],
                ci=(r["ci_low"], r["ci_high"]),
                p=r["p"],
                text=r["text"],
                **extra,
            )


def _esa_data(t: dict) -> Findings:
    """Section ``esa_data``: the rows of ``esa_summary.csv`` (:func:`helpers.wmt.ch08.esa_description`)."""
    found = Findings()
    for r in t["esa_summary"].itertuples(index=False):
        found.add(r.quantity, None if pd.isna(r.value) else r.value, group=r.group, text=r.text)
    return found


def _placed(rows: pd.DataFrame) -> str:
    """``GPT-4 (human 1, automatic 6) and refA (no automatic score)``: ranks among the systems both rank."""
    return _listing(
        [
            f"{r.system} (human {r.human_rank}, automatic {r.auto_rank})"
            if pd.notna(r.auto_rank)
            else f"{r.system} (no automatic score)"
            for r in rows.itertuples(index=False)
        ]
    )


def _chained(found: Findings, ranking: pd.DataFrame) -> None:
    """How far the organisers' clusters chain: a system joins the cluster of the one above it
    when that one does not differ from it significantly, so a cluster can hold systems
    significantly below others of the same cluster. From the ranking (best first) and its rank
    ranges: the systems significantly better than a system are rank_low − 1
    (:func:`helpers.core.formats.esa_rankings.human_ranking`), all scored at least as high; those beyond the
    systems of earlier clusters are in its own cluster. ``chained``: how many systems are
    significantly below one of their own cluster; per such cluster (group) ``chain_extreme``:
    the most systems of its own cluster one system is below, that system (every one tied
    named), its rank range, and the cluster's first system with its rank range."""
    ranking = ranking.reset_index(drop=True)
    sizes = ranking.groupby("cluster", sort=True)["system"].size()
    before = sizes.cumsum().shift(fill_value=0)
    within = ranking["rank_low"].astype(int) - 1 - ranking["cluster"].map(before).astype(int)
    below = ranking.assign(within=within)[within > 0]
    found.add("chained", len(below))
    for cluster, rows in below.groupby("cluster", sort=True):
        top = rows[rows["within"] == rows["within"].max()]
        first = ranking[ranking["cluster"] == cluster].iloc[0]
        found.add(
            "chain_extreme",
            int(rows["within"].max()),
            group=f"cluster {int(cluster)}",
            text=_listing(
                [
                    f"{r.system} (rank range {_span(int(r.rank_low), int(r.rank_high))})"
                    for r in top.itertuples(index=False)
                ]
            ),
            size=int(sizes[cluster]),
            first=first["system"],
            first_range=_span(int(first["rank_low"]), int(first["rank_high"])),
        )
    if below.empty:
        found.add("chain_extreme")


def _esa(t: dict) -> Findings:
    """Section ``esa``: from ``esa_rankings`` (:func:`~helpers.wmt.systems.esa_ranking`) and
    :func:`helpers.core.formats.esa_rankings.rank_agreement` of it: the pair (and whether it is MetaHOPE's own,
    English→Chinese), the human ranking's clusters and top, Kendall τ with the automatic
    ranking, the systems that move most either way, and each kind of system
    (:data:`~helpers.wmt.systems.SYSTEM_KINDS`)."""
    ranking = t["esa_rankings"]
    agreement = esa_rankings.rank_agreement(ranking)
    lp = ranking["lp"].iloc[0]
    found = Findings()
    pair = pair_names(tuple(lp.split("-")))[0]
    found.add("pair", text=pair).add("metahope_direction", int(lp == "en-zh"))
    found.add("systems", len(ranking)).add("clusters", int(ranking["cluster"].nunique()))
    top = ranking[ranking["cluster"] == 1]
    found.add("top_cluster", len(top), text=_listing(list(top["system"])))
    found.add("human_top", ranking["score_by_domain"].iloc[0], text=ranking["system"].iloc[0])
    both = ranking.dropna(subset=["auto_rank"])
    found.add("report", text=_summary(t["esa_summary"], "report", column="text"))
    if len(agreement) and len(both) >= 2:
        a = agreement.iloc[0]
        found.add("compared", int(a["systems"])).add("tau", a["kendall_tau"], p=a["p"])
        found.add("auto_top", text=_listing(list(both.loc[both["auto_rank"] == 1, "system"])))
        found.add("human_first", text=_listing(list(both.loc[both["human_rank"] == 1, "system"])))
        found.add("same_top", int(bool(a["same_top"]))).add("no_autorank")
        shift = both["rank_shift"].astype(float)
        for name, extreme, sign in (("undervalued", shift.max(), 1), ("overvalued", shift.min(), -1)):
            tied = both[shift == extreme]  # every system at the extreme, named together
            if sign * extreme > 0:  # the automatic ranking places them lower (higher) than the humans
                found.add(
                    name, abs(int(extreme)), text=_listing(list(tied["system"])), tied=len(tied), ranks=_placed(tied)
                )
            else:
                found.add(name)
    else:
        for q in ("compared", "tau", "auto_top", "human_first", "same_top", "undervalued", "overvalued"):
            found.add(q)
        found.add("no_autorank", text=pair)
    for kind in SYSTEM_KINDS:
        rows = ranking[ranking["kind"] == kind]
        if rows.empty:
            continue
        shifts = rows["rank_shift"].dropna().astype(float)
        found.add("kind", len(rows), group=kind, text=_placed(rows))
        found.add("kind_shift", shifts.mean() if len(shifts) else None, group=kind)
    _chained(found, ranking)
    ref = ranking[ranking["kind"] == "human"]
    if len(ref):
        position = int(ranking.index.get_loc(ref.index[0])) + 1
        found.add("reference", position, text=ref["system"].iloc[0], cluster=int(ref["cluster"].iloc[0]))
    else:
        found.add("reference")
    return found


__all__ = ["ESA_CLOSING"]
