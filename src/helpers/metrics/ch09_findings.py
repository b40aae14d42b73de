"""Chapter 09's findings: every number its page states, recomputed from the saved result CSVs
(:data:`FINDINGS_INPUTS`) by one function per section of the words; :mod:`helpers.metrics.ch09` re-exports them."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..core.book.findings import Findings
from ..core.book.results import read_saved

#: A system-level interval wider than this is called wide in the findings.
WIDE_INTERVAL = 0.3
#: The best segment-level (flat) r this far below the best system-level r: "says less about single segments".
WEAKER_BY = 0.2
#: Level of every PERM-BOTH test the findings read (a ranking is stated only where one separates the metrics).
ALPHA = 0.05
#: The result files :func:`findings` reads (``results/09_metrics/<name>.csv``).
FINDINGS_INPUTS = (
    "data_summary",
    "reproduction",
    "meta_evaluation",
    "segment_choice",
    "metric_comparison",
    "protocol_ranks",
    "edit_rate_agreement",
    "missed_errors",
    "unmatched",
    "post_edit_rates",
    "wmt22_meta_evaluation",
    "wmt22_clusters",
)


def _info(t: dict, q: str, col: str = "value"):
    """A value (or text) of ``data_summary.csv``; None where it is missing."""
    d = t["data_summary"]
    if d.empty or q not in set(d["quantity"]):
        return None
    v = d.set_index("quantity").loc[q, col]
    return v if pd.notna(v) else None


def _data(t: dict) -> Findings:
    """Sections ``data`` and the closing list: what the run read."""
    f = Findings()
    f.add("pair", text=_info(t, "pair", "text")).add("testset", text=_info(t, "testset", "text"))
    f.add("released", _info(t, "released"))
    f.add("systems", _info(t, "systems"), text=_info(t, "systems", "text"))
    f.add("lines", _info(t, "lines")).add("rated_segments", _info(t, "rated_segments"))
    f.add("metrics", _info(t, "metrics"), text=_info(t, "metrics", "text"))
    return f.add("post_edit_rows", _info(t, "post_edit_rows"))


def _reproduce(t: dict) -> Findings:
    """Section ``reproduce``: published BLEU/chrF against sacrebleu's."""
    f = Findings()
    rep = t["reproduction"].dropna(subset=["published", "computed"]) if not t["reproduction"].empty else None
    if rep is None or rep.empty:
        return f.add("compared").add("reproduced").add("largest_difference")
    f.add("compared", len(rep)).add("reproduced", int((rep["difference"].abs() < 5e-7).sum()))
    return f.add("largest_difference", float(rep["difference"].abs().max()))


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ranking(f: Findings, prefix: str, estimates: pd.DataFrame, comparison: pd.DataFrame) -> None:
    """A tested ranking of metrics on one statistic (issue 42: "every best is tested").

    ``{prefix}_top``: the best metric, stated only when PERM-BOTH puts it alone in the first significance
    cluster (:func:`helpers.metrics.significance.metric_clusters`); ``{prefix}_tied``: otherwise the metrics
    of the first cluster, "indistinguishable at this size", with the p-values of the best over each of them
    as text and the smallest as ``p``. Neither applies without a comparison or with fewer than two metrics.
    """
    from .significance import metric_clusters

    est = estimates.dropna(subset=["estimate"])
    if comparison.empty or len(est) < 2:
        f.add(f"{prefix}_top").add(f"{prefix}_tied")
        return
    clusters = metric_clusters(est[["metric", "estimate"]], comparison, ALPHA)
    first = clusters[clusters["rank"] == 1]
    best = first["metric"].iloc[0]
    p = comparison.set_index(["metric_a", "metric_b"])["p"]
    if len(first) == 1:
        runner = clusters["metric"].iloc[1]
        f.add(f"{prefix}_top", first["estimate"].iloc[0], p=p.get((best, runner)), text=best, runner_up=runner)
        f.add(f"{prefix}_tied")
        return
    others = first["metric"].iloc[1:].tolist()
    values = [f"{best} over {m} p = {p.get((best, m), float('nan')):.2f}" for m in others]
    f.add(f"{prefix}_top")
    f.add(
        f"{prefix}_tied",
        max(p.get((best, m), float("nan")) for m in others),
        text=_listing(first["metric"].tolist()),
        tests="; ".join(values),
    )


def _meta(t: dict) -> Findings:
    """Section ``meta`` and the closing list: each metric's agreement, and which ranking is tested."""
    from .meta import COLUMNS

    f = Findings()
    me = t["meta_evaluation"] if not t["meta_evaluation"].empty else pd.DataFrame(columns=COLUMNS)
    system_r = me[(me["level"] == "system") & (me["statistic"] == "pearson")]
    for _, r in system_r.iterrows():
        f.add("system_r", r["estimate"], group=r["metric"], ci=(r["ci_low"], r["ci_high"]), n=r["n"])
    if system_r.empty:
        f.add("system_r")
    for stat, name in (
        ("pairwise_accuracy", "system_accuracy"),
        ("pearson_item", "segment_r_item"),
        ("kendall_tau_b_flat", "segment_tau_flat"),
        ("acc_eq_item", "acc_eq"),
        ("pearson_flat", "segment_r_flat"),
    ):
        part = me[me["statistic"] == stat]
        for _, r in part.iterrows():
            f.add(name, r["estimate"], group=r["metric"], ci=(r["ci_low"], r["ci_high"]), n=r["n"])
        if part.empty:
            f.add(name)
    defined = system_r.dropna(subset=["estimate"])
    f.add(
        "too_few_systems",
        int(len(system_r) > 0 and defined.empty) if len(system_r) else None,
        text=str(int(system_r["n"].max())) if len(system_r) else "",
    )
    cmp = t["metric_comparison"]
    if cmp.empty:
        cmp = pd.DataFrame(columns=["level", "statistic", "metric_a", "metric_b", "delta", "p"])
    by = {level: cmp[cmp["level"] == level] for level in ("system", "segment")}
    _ranking(f, "system", defined[["metric", "estimate"]], by["system"][by["system"]["statistic"] == "pearson"])
    flat = me[me["statistic"] == "pearson_flat"]
    _ranking(f, "segment", flat[["metric", "estimate"]], by["segment"][by["segment"]["statistic"] == "pearson_flat"])
    if len(defined):
        top = defined.sort_values("estimate", ascending=False).iloc[0]
        f.add("wide_intervals", int(top["ci_high"] - top["ci_low"] > WIDE_INTERVAL))
        best_flat = flat["estimate"].max() if len(flat) else float("nan")
        f.add("segments_weaker", int(pd.notna(best_flat) and best_flat < top["estimate"] - WEAKER_BY))
        f.add("best_segment_r", best_flat)
    else:
        f.add("wide_intervals").add("segments_weaker").add("best_segment_r")
    system_cmp = by["system"]
    if not system_cmp.empty:
        f.add("significant_pairs", int((system_cmp["p"] < ALPHA).sum()), text=str(len(system_cmp)))
    else:
        f.add("significant_pairs")
    return f


def _choice(t: dict) -> Findings:
    """Section ``meta``'s choice of lines: judged against the resampling noise of the statistic it moves."""
    f = Findings()
    ch, me = t["segment_choice"], t["meta_evaluation"]
    ch = ch.dropna(subset=["difference"]) if not ch.empty else ch
    if ch.empty:
        return f.add("choice_difference").add("choice_matters").add("choice_noise")
    biggest = ch.loc[ch["difference"].abs().idxmax()]
    f.add("choice_difference", float(abs(biggest["difference"])), text=f"{biggest['metric']} {biggest['statistic']}")
    row = (
        me[(me["level"] == "system") & (me["metric"] == biggest["metric"]) & (me["statistic"] == biggest["statistic"])]
        if not me.empty
        else pd.DataFrame(columns=["ci_low", "ci_high"])
    )
    half = float((row["ci_high"] - row["ci_low"]).iloc[0] / 2) if len(row) else float("nan")
    if pd.isna(half):  # no interval to judge against: not applicable
        return f.add("choice_matters").add("choice_noise")
    # the choice matters when it moves the statistic by more than half its 95% bootstrap interval
    return f.add("choice_matters", int(abs(biggest["difference"]) > half)).add("choice_noise", half)


def _unmatched(t: dict, folder) -> Findings:
    """The closing list's ``Unmatched``: systems and cells on one side only (``unmatched.csv``)."""
    f = Findings()
    un = t["unmatched"]
    names = ("human_only_systems", "metric_only_systems", "human_only_cells", "metric_only_cells", "unmatched_any")
    if un.empty:  # a saved table without rows: nothing unmatched; no table at all: not applicable
        saved = (Path(folder) / "unmatched.csv").exists()
        for q in names:
            f.add(q, 0 if saved else None)
        return f
    cells = un[un["what"] != "system"].groupby("only_in")["n"].max()
    systems = un[un["what"] == "system"].groupby("only_in")["n"].max()
    f.add("human_only_systems", int(systems.get("human", 0))).add("metric_only_systems", int(systems.get("metric", 0)))
    f.add("human_only_cells", int(cells.get("human", 0))).add("metric_only_cells", int(cells.get("metric", 0)))
    return f.add("unmatched_any", int(un["n"].sum() > 0))


def _protocols(t: dict) -> Findings:
    """Section ``protocols``: the experts, the other human protocol and BLEU, rank by rank."""
    from scipy.stats import kendalltau

    f = Findings()
    pr = t["protocol_ranks"]
    has_protocol = not pr.empty and pr["protocol"].notna().any()
    f.add("protocol", text=_info(t, "protocol", "text") if has_protocol else None)
    if has_protocol:
        both = pr.dropna(subset=["protocol_rank", "mqm_rank"])
        tau = kendalltau(both["mqm_rank"], both["protocol_rank"])
        f.add("protocol_tau", tau.statistic, p=tau.pvalue, n=len(both))
        moved = both[both["rank_shift"] != 0]
        f.add("protocol_moved", len(moved), text=str(len(both)))
        for _, r in moved.reindex(moved["rank_shift"].abs().sort_values(ascending=False).index).iterrows():
            f.add(
                "protocol_shift",
                r["rank_shift"],
                group=r["system"],
                mqm_rank=r["mqm_rank"],
                protocol_rank=r["protocol_rank"],
            )
        if moved.empty:
            f.add("protocol_shift")
    else:
        f.add("protocol_tau").add("protocol_moved").add("protocol_shift")
    if pr.empty:
        return f.add("bleu_undervalues").add("bleu_tau")
    human = pr["mqm_rank"] if not has_protocol else pr[["mqm_rank", "protocol_rank"]].max(axis=1)
    gap = pr["bleu_rank"] - human  # BLEU rank below even the worse of the human ranks
    i = gap.idxmax()
    if gap[i] > 0:
        f.add(
            "bleu_undervalues",
            gap[i],
            text=pr.loc[i, "system"],
            bleu_rank=pr.loc[i, "bleu_rank"],
            mqm_rank=pr.loc[i, "mqm_rank"],
            protocol_rank=pr.loc[i, "protocol_rank"],
        )
    else:
        f.add("bleu_undervalues")  # BLEU ranks no system below the human rankings
    return f.add("bleu_tau", kendalltau(pr["mqm_rank"], pr["bleu_rank"]).statistic, n=len(pr))


def _seeds(t: dict) -> Findings:
    """Section ``seeds``: edit rates against the penalties, and what MetaHOPE's gold standard is."""
    f = Findings()
    ea = t["edit_rate_agreement"]
    part = ea[ea["statistic"] == "rho"] if not ea.empty else ea
    for _, r in part.iterrows():
        f.add("hter_rho", r["estimate"], group=r["data"], ci=(r["ci_low"], r["ci_high"]), n=r["n"])
    if part.empty:
        f.add("hter_rho")
    mi = t["missed_errors"].set_index("statistic") if not t["missed_errors"].empty else pd.DataFrame()
    for q in ("missed", "blind", "missed_gap", "hter_error", "hter_clean"):
        if q in mi.index:
            f.add(q, mi.loc[q, "estimate"], ci=(mi.loc[q, "ci_low"], mi.loc[q, "ci_high"]), n=mi.loc[q, "n"])
        else:
            f.add(q)
    # an edit rate blind to emotion errors would leave as many of them at or below the clean median as clean rows
    f.add("errors_seen", int(mi.loc["missed_gap", "ci_high"] < 0) if "missed_gap" in mi.index else None)
    rates = t["post_edit_rates"]
    mh = rates[rates["data"] == "MetaHOPE"] if not rates.empty else rates
    if mh.empty:
        return f.add("gold_verbatim").add("gold_closest")
    # a translation the gold standard copies word for word has edit rate 0; the system closest to the gold
    # standard per sentence is the likeliest one post-edited (the workbook does not record it)
    f.add("gold_verbatim", int((mh["hter"] == 0).sum()), text=str(len(mh)))
    system = mh["unit"].str.split(" / ", n=1).str[1]
    closest = mh.assign(system=system).sort_values("hter").groupby("cluster").head(1)["system"].value_counts()
    return f.add("gold_closest", int(closest.iloc[0]), text=closest.index[0], sentences=int(mh["cluster"].nunique()))


def _wmt22(t: dict) -> Findings:
    """Section ``wmt22``: the field's metrics against expert MQM on WMT22 ZH→EN, ranked only by tested clusters."""
    f = Findings()
    me, ranks = t["wmt22_meta_evaluation"], t["wmt22_clusters"]
    names = (
        "wmt22_metrics",
        "wmt22_first",
        "wmt22_clusters",
        "wmt22_bleu",
        "wmt22_own_bleu",
        "wmt22_refb_first",
        "wmt22_acc_eq_low",
        "wmt22_acc_eq_high",
    )
    if me.empty or ranks.empty:
        for q in names:
            f.add(q)
        return f
    no = ranks[ranks["setting"] == "no_human"]
    system = me[(me["setting"] == "no_human") & (me["statistic"] == "pearson")]
    f.add("wmt22_metrics", no["metric"].nunique(), n=int(system["n"].max()))
    first = no[no["rank"] == 1]
    f.add(
        "wmt22_first",
        len(first),
        text=_listing(first["metric"].tolist()),
        best_r=first["estimate"].max(),
        least_r=first["estimate"].min(),
    )
    f.add("wmt22_clusters", int(no["rank"].max()))
    for q, metric in (("wmt22_bleu", "BLEU-refA"), ("wmt22_own_bleu", "bleu")):
        row = no[no["metric"] == metric]
        f.add(q, row["estimate"].iloc[0] if len(row) else None, rank=row["rank"].iloc[0] if len(row) else None)
    refb = ranks[(ranks["setting"] == "with_refB") & (ranks["rank"] == 1)]
    f.add(
        "wmt22_refb_first",
        len(refb),
        text=_listing(refb["metric"].tolist()) if len(refb) else None,
        n=int(me[(me["setting"] == "with_refB") & (me["statistic"] == "pearson")]["n"].max()),
    )
    acc = me[(me["setting"] == "no_human") & (me["statistic"] == "acc_eq_item")].dropna(subset=["estimate"])
    if acc.empty:
        return f.add("wmt22_acc_eq_low").add("wmt22_acc_eq_high")
    low, high = acc.loc[acc["estimate"].idxmin()], acc.loc[acc["estimate"].idxmax()]
    f.add("wmt22_acc_eq_low", low["estimate"], ci=(low["ci_low"], low["ci_high"]))
    return f.add("wmt22_acc_eq_high", high["estimate"], ci=(high["ci_low"], high["ci_high"]))


def findings(folder) -> pd.DataFrame:
    """Chapter 09's findings, recomputed from its saved result CSVs (:data:`FINDINGS_INPUTS`) alone.

    Every quantity is always present; one whose table is missing or empty is not applicable
    (its sentence drops out of the words). Quantities per metric or data set carry it as ``group``.
    One function per section of the words (:func:`_data`, :func:`_reproduce`, :func:`_meta`,
    :func:`_choice`, :func:`_unmatched`, :func:`_protocols`, :func:`_seeds`).

    Returns
    -------
    DataFrame
        :data:`helpers.core.book.findings.COLUMNS` plus extra columns some quantities use.
    """
    t = {name: read_saved(folder, name) for name in FINDINGS_INPUTS}
    parts = [_data(t), _reproduce(t), _meta(t), _choice(t), _unmatched(t, folder), _protocols(t), _seeds(t), _wmt22(t)]
    frames = [p.frame() for p in parts]
    return pd.concat([fr for fr in frames if not fr.empty], ignore_index=True)
