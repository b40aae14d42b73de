"""The WMT24 ESA rankings: the organisers' automatic ranking read from their report, the human
ranking with their pairwise tests, rank ranges and clusters, and how far the two agree."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from .esa import _open_text, segment_scores, system_scores

#: Language names of the WMT24 report and their codes.
LANGUAGE_NAMES = {
    "English": "en",
    "Czech": "cs",
    "Ukrainian": "uk",
    "German": "de",
    "Spanish": "es",
    "Hindi": "hi",
    "Icelandic": "is",
    "Japanese": "ja",
    "Russian": "ru",
    "Chinese": "zh",
}
#: Columns of :func:`read_autorank`.
AUTORANK_COLUMNS = [
    "lp",
    "system",
    "autorank",
    "metricx",
    "cometkiwi",
    "track",
    "supports_lp",
    "withdrawn",
    "human_evaluated",
]
_ROW = re.compile(r"^(?:\\(?P<track>opentrack|closedtrack)\{)?(?P<body>.*?)\}?\s*\\\\\s*$")


def read_autorank(path: str | os.PathLike) -> pd.DataFrame:
    """The organisers' preliminary automatic ranking (``report/generated_report.tex`` of
    wmt24-news-systems; Kocmi et al. 2024, arXiv:2407.19884), one row per pair and system.

    Columns :data:`AUTORANK_COLUMNS`: ``autorank`` (lower is better: MetricX-23-XL and
    CometKiwi-DA-XL each rescaled to 1..number of systems, then averaged), ``metricx``,
    ``cometkiwi``, ``track`` (``open``, ``closed`` or "" for a constrained system),
    ``supports_lp`` (False where the report marks § : the model does not claim the
    language), ``withdrawn`` († : removed from human evaluation), ``human_evaluated`` (the
    report's check mark: chosen for the ESA evaluation). The report prints each pair twice,
    without and with the closed systems; the full table is read.
    """
    path = Path(path)
    text = _open_text(path)
    rows, lp, full = [], None, False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        hit = re.search(r"\\Large\{(\w+)-(\w+)\}", line)
        if hit:
            lp = f"{LANGUAGE_NAMES[hit.group(1)]}-{LANGUAGE_NAMES[hit.group(2)]}"
            full = False
            continue
        if line.startswith("\\caption"):
            full = "excluding" not in line
            if not full:  # the table just read left out the closed systems: forget it
                rows = [r for r in rows if r["lp"] != lp or r.get("_full")]
            else:
                for r in rows:
                    r["_full"] = True
            continue
        if lp is None or "&" not in line or line.startswith("\\bf"):
            continue
        m = _ROW.match(line)
        cells = [c.strip() for c in m.group("body").split("&")]
        if len(cells) != 5:
            raise InputError(
                "a ranking row has 5 cells (system, AutoRank, MetricX, CometKiwi, human evaluation)",
                file=path,
                row=number,
                value=line[:80],
            )
        name = cells[0]
        supports = "\\nonsupporting" not in name
        name = re.sub(r"\\nonsupporting\{(.*?)\}", r"\1", name)
        withdrawn = "\\dagger" in name
        name = name.replace("$\\dagger$", "").strip()
        rows.append(
            {
                "lp": lp,
                "system": name,
                "autorank": float(cells[1]),
                "metricx": float(cells[2]),
                "cometkiwi": float(cells[3]),
                "track": (m.group("track") or "").replace("track", ""),
                "supports_lp": supports,
                "withdrawn": withdrawn,
                "human_evaluated": "validated" in cells[4],
            }
        )
    out = pd.DataFrame(rows, columns=AUTORANK_COLUMNS + ["_full"])
    out = out[out["_full"].fillna(False).astype(bool)].drop(columns="_full")
    if out.empty:
        raise InputError("holds no ranking table", file=path)
    return out.drop_duplicates(["lp", "system"]).reset_index(drop=True)


def pairwise_pvalues(kept: pd.DataFrame) -> pd.DataFrame:
    """The organisers' test of one system against another, for every ordered pair of systems
    of each language pair: ``lp, system, other, segments, p``.

    As ``tools.py`` (``get_pvalues``, ``weighted_wilcoxon_signed_rank_test``) does it: on
    the segments both systems have, a two-sided Wilcoxon signed-rank test of the segment
    scores within each domain (``scipy.stats.wilcoxon``), the domains' p-values combined
    by Stouffer's method (z = Φ⁻¹(1 − p) summed over domains, divided by √domains), the
    combined p = 1 − Φ(z). (Combining two-sided p-values this way is the organisers'
    choice, kept as they made it.)

    Parameters
    ----------
    kept : pandas.DataFrame
        Ratings after :func:`~helpers.core.formats.esa.organisers_filter`.

    Returns
    -------
    pandas.DataFrame
        ``lp, system, other, segments, p``: per domain d a two-sided Wilcoxon signed-rank p_d on the
        paired segment scores; z = Σ_d Φ⁻¹(1 − p_d) / √D and p = 1 − Φ(z).

    References
    ----------
    Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin 1(6),
    80–83.
    Stouffer, S. A., Suchman, E. A., DeVinney, L. C., Star, S. A. & Williams, R. M. (1949). The
    American Soldier, vol. 1 (the combination of z scores).
    Kocmi, T. et al. (2024). Findings of the WMT24 general machine translation shared task. WMT.
    """
    from scipy import stats

    segments = segment_scores(kept)
    rows = []
    for lp, group in segments.groupby("lp", sort=True):
        wide = group.pivot_table(index=["doc", "line_id", "domain"], columns="system", values="score")
        systems = list(wide.columns)
        for i, a in enumerate(systems):
            for b in systems[i + 1 :]:
                both = wide[[a, b]].dropna()
                zs = []
                for _, part in both.groupby(level="domain"):
                    diff = (part[a] - part[b]).to_numpy()
                    p = stats.wilcoxon(diff, alternative="two-sided").pvalue if np.any(diff != 0) else 1.0
                    zs.append(stats.norm.ppf(1 - p))
                z = np.sum(zs) / np.sqrt(len(zs)) if zs else np.nan
                p = float(1 - stats.norm.cdf(z))  # a two-sided test: the same p either way round
                rows += [
                    {"lp": lp, "system": a, "other": b, "segments": len(both), "p": p},
                    {"lp": lp, "system": b, "other": a, "segments": len(both), "p": p},
                ]
    return pd.DataFrame(rows, columns=["lp", "system", "other", "segments", "p"])


def human_ranking(kept: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """System scores (:func:`~helpers.core.formats.esa.system_scores`) with the organisers' rank range and cluster.

    Columns :data:`~helpers.core.formats.esa.SYSTEM_COLUMNS` and ``rank_low``, ``rank_high``, ``cluster``. With p
    from :func:`pairwise_pvalues`, a significant difference (p < ``alpha``) is a win for
    the system with the higher ``score_by_domain`` and a loss for the other (a tie is a
    loss for both, as in ``get_ranks``); the best rank is 1 + losses, the worst the number
    of systems minus wins. Clusters
    (``get_clusters``): walking down the table by ``score_by_domain``, a new cluster starts
    after a system that no lower system reaches with p > ``alpha`` and that no system
    above it links past.

    Parameters
    ----------
    kept : pandas.DataFrame
        Ratings after :func:`~helpers.core.formats.esa.organisers_filter`.
    alpha : float
        Significance level of the pairwise tests.

    Returns
    -------
    pandas.DataFrame
        :data:`~helpers.core.formats.esa.SYSTEM_COLUMNS` with rank_low = 1 + losses, rank_high = number of systems − wins, and
        ``cluster`` as above.

    References
    ----------
    Kocmi, T. et al. (2024). Findings of the WMT24 general machine translation shared task. WMT
    (rank ranges and clusters; the organisers' ``get_ranks`` and ``get_clusters``).
    """
    table = system_scores(kept)
    pvalues = pairwise_pvalues(kept).set_index(["lp", "system", "other"])["p"]
    parts = []
    for lp, group in table.groupby("lp", sort=True):
        group = group.reset_index(drop=True)
        names, scores = list(group["system"]), dict(zip(group["system"], group["score_by_domain"]))
        low, high = [], []
        for a in names:
            wins = sum(pvalues[(lp, a, b)] < alpha and scores[a] > scores[b] for b in names if b != a)
            losses = sum(pvalues[(lp, a, b)] < alpha and not scores[a] > scores[b] for b in names if b != a)
            low.append(1 + losses)
            high.append(len(names) - wins)
        clusters, cluster, reach = [], 1, -1
        for i, a in enumerate(names):
            if reach <= i:
                reach = -1
            for j in range(i + 1, len(names)):
                if pvalues[(lp, a, names[j])] > alpha:
                    reach = max(reach, j)
            clusters.append(cluster)
            if reach == -1:
                cluster += 1
        parts.append(group.assign(rank_low=low, rank_high=high, cluster=clusters))
    return pd.concat(parts, ignore_index=True)


def compare_rankings(human: pd.DataFrame, autorank: pd.DataFrame) -> pd.DataFrame:
    """The human ranking (:func:`human_ranking`) beside the automatic one (:func:`read_autorank`):
    one row per system rated by humans, ``lp, system, score_by_domain, human_rank, cluster,
    autorank, auto_rank`` (ranks among the systems both rank; 1 is best; ties share the
    better rank) and ``rank_shift`` = ``auto_rank - human_rank``. A system without an
    automatic score (the human reference ``refA``) has NA there.

    Parameters
    ----------
    human : pandas.DataFrame
        :func:`human_ranking`.
    autorank : pandas.DataFrame
        :func:`read_autorank`.

    Returns
    -------
    pandas.DataFrame
        The columns above, rank_shift = auto_rank − human_rank (ranks with ties at the better rank).

    References
    ----------
    Kocmi, T. et al. (2024). Preliminary WMT24 ranking of general MT systems and LLMs.
    arXiv:2407.19884 (AutoRank).
    """
    out = human.merge(autorank[["lp", "system", "autorank"]], on=["lp", "system"], how="left")
    both = out["autorank"].notna()
    out["human_rank"] = pd.NA
    out["auto_rank"] = pd.NA
    for idx in out[both].groupby("lp").groups.values():
        out.loc[idx, "human_rank"] = out.loc[idx, "score_by_domain"].rank(ascending=False, method="min")
        out.loc[idx, "auto_rank"] = out.loc[idx, "autorank"].rank(ascending=True, method="min")
    out["human_rank"] = out["human_rank"].astype("Int64")
    out["auto_rank"] = out["auto_rank"].astype("Int64")
    out["rank_shift"] = out["auto_rank"] - out["human_rank"]
    if "cluster" not in out.columns:
        out["cluster"] = pd.array([pd.NA] * len(out), dtype="Int64")
    return out[["lp", "system", "score_by_domain", "human_rank", "cluster", "autorank", "auto_rank", "rank_shift"]]


def rank_agreement(compared: pd.DataFrame) -> pd.DataFrame:
    """How far the automatic ranking agrees with the human one, per pair: ``lp, systems,
    kendall_tau, p, same_top`` (``scipy.stats.kendalltau``, tau-b, on the systems both rank;
    ``same_top``: the two rankings put the same system first, ties aside).

    Parameters
    ----------
    compared : pandas.DataFrame
        :func:`compare_rankings`.

    Returns
    -------
    pandas.DataFrame
        ``lp, systems, kendall_tau, p, same_top``: τ_b = (P − Q) / √((P + Q + T_x)(P + Q + T_y)), P
        and Q the concordant and discordant pairs, T_x and T_y the pairs tied in one ranking only.

    References
    ----------
    Kendall, M. G. (1945). The treatment of ties in ranking problems. Biometrika 33(3), 239–251.
    """
    from scipy import stats

    rows = []
    for lp, group in compared.dropna(subset=["autorank"]).groupby("lp", sort=True):
        tau = stats.kendalltau(-group["score_by_domain"].astype(float), group["autorank"].astype(float))
        top_h = set(group.loc[group["human_rank"] == 1, "system"])
        top_a = set(group.loc[group["auto_rank"] == 1, "system"])
        rows.append(
            {
                "lp": lp,
                "systems": len(group),
                "kendall_tau": float(tau.statistic),
                "p": float(tau.pvalue),
                "same_top": bool(top_h & top_a),
            }
        )
    return pd.DataFrame(rows, columns=["lp", "systems", "kendall_tau", "p", "same_top"])


__all__ = [
    "LANGUAGE_NAMES",
    "AUTORANK_COLUMNS",
    "read_autorank",
    "pairwise_pvalues",
    "human_ranking",
    "compare_rankings",
    "rank_agreement",
]
