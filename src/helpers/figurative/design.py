"""The idiom effect with uncertainty that matches how MQM data is collected.

Every source segment is rated once per system: a data set of S segments and K systems has
about S·K rows, but only S independent sources, and segments of one document share topic and
style. So an interval must move whole segments, with all their systems, and whole documents.
Two analyses do, and are reported side by side:

* a **document-cluster bootstrap** (:func:`cluster_ols`): the least-squares coefficient of the
  idiom flag in ``penalty ~ idiom + log(source characters) + system [+ domain]``, its percentile
  interval from resampling whole documents (each with every segment and every system's rating);
  a file without documents makes each segment its own cluster;
* a **segment-level permutation test** (:func:`permutation_p`): the idiom flags are shuffled
  among the segments (a segment keeps its penalties for all systems), the coefficient refitted;
  its two-sided p-value checks the bootstrap interval without assuming anything about documents.

The minimum detectable difference at 80 % power, (z₀.₉₇₅ + z₀.₈) · SE, SE the bootstrap
standard deviation, says what a null result excludes. A data set with fewer than
:data:`MIN_IDIOM_SEGMENTS` idiom segments is **not estimable**: no estimate is reported and
nothing is concluded from it (one or two segments make an "effect" the quirk of a sentence).

The mixed model the chapter used before (a random intercept per document, one row per system
and segment treated as independent within a document) understated the uncertainty: it gave
WMT23 a standard error of 0.39 where a segment-level analysis gives about 1.1.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import norm

from helpers.core.errors import InputError
from helpers.core.statistics import stats
from helpers.core.statistics.regression import bootstrap_fits, cluster_ols, cross_products

#: Fewer idiom segments than this in a data set: not estimable.
MIN_IDIOM_SEGMENTS = 20
#: z₀.₉₇₅ + z₀.₈: the minimum detectable difference at 80 % power is this times the SE.
POWER_FACTOR = float(norm.ppf(0.975) + norm.ppf(0.8))
#: Columns of :func:`idiom_effect`'s result.
EFFECT_COLUMNS = [
    "method",
    "estimate",
    "se",
    "ci_low",
    "ci_high",
    "mdd_80",
    "perm_p",
    "rows",
    "segments",
    "idiom_segments",
    "documents",
    "few_clusters",
    "estimable",
]


def design(table: pd.DataFrame, flags=("idiom",), covariates=()) -> tuple[np.ndarray, np.ndarray]:
    """Design matrix of ``score ~ flags + log(source_chars) [+ covariates] + C(system) [+ C(domain)]``
    (treatment coding; the domain only when the table has more than one), and the response.

    >>> t = pd.DataFrame({"idiom": [True, False], "source_chars": [1, 1], "system": ["a", "a"], "score": [2.0, 1.0]})
    >>> design(t)[0].tolist()
    [[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    """
    cols = [np.ones(len(table))] + [table[f].to_numpy(dtype=float) for f in flags]
    cols.append(np.log(table["source_chars"].clip(lower=1).to_numpy(dtype=float)))
    cols += [table[c].to_numpy(dtype=float) for c in covariates]
    for factor in ("system", "domain"):
        if factor in table.columns:
            levels = sorted(table[factor].dropna().unique())
            cols += [(table[factor] == v).to_numpy(dtype=float) for v in levels[1:]]
    return np.column_stack(cols), table["score"].to_numpy(dtype=float)


def codes(labels) -> np.ndarray:
    """:func:`helpers.core.statistics.stats.cluster_labels` of a column (read as a plain object array, which is
    many times faster than iterating a pandas string column)."""
    return stats.cluster_labels(np.asarray(labels, dtype=object))


def summary(estimate: float, resampled: np.ndarray, ci: float = 95.0) -> dict:
    """``estimate, se, ci_low, ci_high, mdd_80`` of a coefficient and its resampled values."""
    low, high = stats.percentile_interval(resampled, ci)
    se = float(np.std(resampled, ddof=1)) if len(resampled) > 1 else float("nan")
    return {"estimate": float(estimate), "se": se, "ci_low": low, "ci_high": high, "mdd_80": POWER_FACTOR * se}


def permutation_p(
    x: np.ndarray, y: np.ndarray, segments, n_perm: int, seed: int, column: int = 1, strata=None
) -> float:
    """Two-sided p-value of the coefficient ``column`` (a per-segment 0/1 flag) when the flags are
    shuffled among segments (within ``strata`` when given), every row of a segment moving together.

    Each shuffle's coefficient is the Frisch–Waugh–Lovell refit, computed on segment sums: with Z
    the other columns, r_y = (I − Z(Z'Z)⁻¹Z')y and F the shuffled flag per row,
    β = F'r_y / (F'F − (Z'F)'(Z'Z)⁻¹(Z'F)); F'r_y, F'F and Z'F are sums over segments of
    a_s = Σ r_y, n_s = rows and C_s = Σ Z, so a shuffle costs O(segments · columns).

    Parameters
    ----------
    x, y : numpy.ndarray
        Design and response (:func:`design`).
    segments : sequence
        Segment label of each row.
    n_perm : int
        Shuffles.
    seed : int
        Seed of the shuffles.
    column : int, default 1
        The flag's column in ``x``.
    strata : sequence, optional
        Stratum of each row (constant within a segment): flags are shuffled within strata.

    Returns
    -------
    float
        p = (1 + #{b : |β_b| ≥ |β̂|}) / (B + 1); NaN when the flag does not vary.

    References
    ----------
    Good, P. (2005). Permutation, Parametric and Bootstrap Tests of Hypotheses, 3rd ed., ch. 3.
    Phipson, B. & Smyth, G. K. (2010). Permutation p-values should never be zero. SAGMB 9(1).
    """
    seg = codes(segments)
    flag = pd.Series(x[:, column]).groupby(seg).first().to_numpy()
    if flag.min() == flag.max():
        return float("nan")
    z = np.delete(x, column, axis=1)
    inverse = np.linalg.pinv(z.T @ z)
    ry = y - z @ (inverse @ (z.T @ y))
    n_seg = flag.size
    a = np.bincount(seg, weights=ry, minlength=n_seg)
    rows = np.bincount(seg, minlength=n_seg).astype(float)
    c = np.zeros((n_seg, z.shape[1]))
    np.add.at(c, seg, z)

    def beta(f):  # f: (segments, b); Z'F = C'f, F'(I − Z(Z'Z)⁻¹Z')F = n'f − (C'f)'(Z'Z)⁻¹(C'f)
        zf = c.T @ f
        return (a @ f) / (rows @ f - (zf * (inverse @ zf)).sum(0))

    observed = beta(flag[:, None])[0]
    groups = (
        np.zeros(n_seg, dtype=int)
        if strata is None
        else codes(pd.Series(np.asarray(strata)).groupby(seg).first().to_numpy())
    )
    rng = np.random.default_rng(seed)
    shuffled = np.repeat(flag[:, None], n_perm, axis=1)
    for g in np.unique(groups):
        idx = np.flatnonzero(groups == g)
        shuffled[idx] = rng.permuted(shuffled[idx], axis=0)
    hits = int((np.abs(beta(shuffled)) >= abs(observed) - 1e-12).sum())
    return (1 + hits) / (n_perm + 1)


def idiom_effect(
    table: pd.DataFrame,
    flag: str = "idiom",
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 95.0,
    n_perm: int | None = None,
    min_segments: int = MIN_IDIOM_SEGMENTS,
    strata=None,
    covariates=(),
) -> pd.DataFrame:
    """The penalty difference of segments with ``flag`` against the others, controlled for source
    length, system (and domain), with a document-cluster bootstrap interval, a segment-level
    permutation p-value and the minimum detectable difference.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per rated (system, segment): ``system, doc, segment, source_chars, score`` and
        the boolean ``flag`` (optionally ``domain``).
    flag : str, default "idiom"
        The column that marks the segments compared.
    n_boot, seed, ci : int, int, float
        Document resamples, their seed, the interval level in percent.
    n_perm : int, optional
        Segment shuffles for the permutation test (default ``n_boot``; 0 skips it).
    min_segments : int
        Fewer flagged (or unflagged) segments than this: not estimable, estimate NaN.
    strata : str, optional
        A column within which the permutation shuffles (e.g. ``dataset`` when pooling).
    covariates : sequence of str
        Further columns controlled for (e.g. a metric's score: the effect it does not see).

    Returns
    -------
    pandas.DataFrame
        One row, :data:`EFFECT_COLUMNS` (``method`` ``cluster_bootstrap``).

    Notes
    -----
    β in score_si = α + β · flag_i + γ · log(chars_i) + δ_s [+ η_domain] + e_si;
    mdd_80 = (z_0.975 + z_0.8) · SE(β̂), SE the standard deviation of the resampled β.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, ch. 2.
    """
    missing = [c for c in ("system", "doc", "segment", "source_chars", "score", flag) if c not in table.columns]
    if missing:
        raise InputError("missing column(s) " + ", ".join(missing), value=list(table.columns))
    table = table.dropna(subset=["score", *covariates]).reset_index(drop=True)
    marked = table[flag].astype(bool)
    n_flag, n_other = table.loc[marked, "segment"].nunique(), table.loc[~marked, "segment"].nunique()
    nan = float("nan")
    row = {
        "method": "cluster_bootstrap",
        "estimate": nan,
        "se": nan,
        "ci_low": nan,
        "ci_high": nan,
        "mdd_80": nan,
        "perm_p": nan,
        "rows": len(table),
        "segments": table["segment"].nunique(),
        "idiom_segments": n_flag,
        "documents": table["doc"].nunique(),
        "few_clusters": table.loc[marked, "doc"].nunique() < stats.FEW_CLUSTERS,
        "estimable": bool(min(n_flag, n_other) >= min_segments),
    }
    if row["estimable"]:
        x, y = design(table.assign(**{flag: marked}), (flag,), covariates)
        b, coef = cluster_ols(x, y, table["doc"], marked.to_numpy(), n_boot, seed)
        n_perm = n_boot if n_perm is None else n_perm
        p = (
            permutation_p(x, y, table["segment"], n_perm, seed, strata=None if strata is None else table[strata])
            if n_perm
            else nan
        )
        row.update(summary(b, coef, ci), perm_p=p)
    return pd.DataFrame([row], columns=EFFECT_COLUMNS)


def standardised(tables: pd.DataFrame) -> pd.DataFrame:
    """Rows of several data sets made poolable: ``score`` divided by its data set's standard
    deviation, and ``system``, ``doc``, ``segment``, ``domain`` prefixed with the data set, so each
    set keeps its own system and domain effects and its own clusters.

    >>> t = pd.DataFrame({"dataset": ["a", "a", "b", "b"], "score": [0.0, 2.0, 0.0, 4.0], "system": "s",
    ...                   "doc": "d", "segment": ["1", "2", "1", "2"]})
    >>> standardised(t)["score"].round(3).tolist()
    [0.0, 1.414, 0.0, 1.414]
    """
    out = tables.copy()
    out["score"] = out["score"] / out.groupby("dataset")["score"].transform("std")
    for c in ("system", "doc", "segment"):
        out[c] = out["dataset"] + ":" + out[c].astype(str)
    out["domain"] = out["dataset"] + ":" + (out["domain"].astype(str) if "domain" in out.columns else "")
    return out


def pooled_effect(tables: pd.DataFrame, flag: str = "idiom", **kwargs) -> pd.DataFrame:
    """:func:`idiom_effect` on several data sets at once (:func:`standardised` penalties, set and
    domain fixed effects, documents of every set resampled, flags shuffled within sets): the idiom
    effect in standard deviations of the penalty, one row with ``sets`` (how many were pooled).

    Parameters
    ----------
    tables : DataFrame
        :func:`idiom_effect`'s rows of several data sets, with ``dataset``.
    flag : str
        The column compared.
    **kwargs
        Passed to :func:`idiom_effect`.

    Returns
    -------
    DataFrame
        One row, ``sets`` and :data:`EFFECT_COLUMNS`.

    Notes
    -----
    score*_si = score_si / sd(score of its set); β as in :func:`idiom_effect` with set-prefixed
    systems and domains.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    got = idiom_effect(standardised(tables), flag=flag, strata="dataset", **kwargs)
    got.insert(0, "sets", tables["dataset"].nunique())
    return got


def system_effects(
    table: pd.DataFrame,
    llm=(),
    flag: str = "idiom",
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 95.0,
    min_segments: int = MIN_IDIOM_SEGMENTS,
) -> pd.DataFrame:
    """The idiom effect of each system of each data set: :func:`idiom_effect` (document-cluster
    bootstrap, no permutation) on that system's rows alone.

    Parameters
    ----------
    table : DataFrame
        Rows of one or more data sets (``dataset`` column).
    llm : collection of str
        The LLM-based systems (marked in ``llm``).
    flag : str
        The column compared.
    n_boot, seed, ci
        Document resamples, their seed, coverage in percent.
    min_segments : int
        As in :func:`idiom_effect`.

    Returns
    -------
    pandas.DataFrame
        ``dataset, system, llm`` and :data:`EFFECT_COLUMNS`.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    out = effects_by(
        table, ["dataset", "system"], flag=flag, n_boot=n_boot, seed=seed, ci=ci, n_perm=0, min_segments=min_segments
    )
    out.insert(2, "llm", out["system"].isin(set(llm)))
    return out


def effects_by(table: pd.DataFrame, keys: list[str], extra=None, **kwargs) -> pd.DataFrame:
    """:func:`idiom_effect` on each group of ``table`` by ``keys``: the key columns, the columns
    ``extra(part)`` returns (a dict), then :data:`EFFECT_COLUMNS`; empty with those columns when
    ``table`` has no row."""
    frames = []
    for values, part in table.groupby(keys, sort=True):
        got = idiom_effect(part, **kwargs)
        head = dict(zip(keys, values)) | (extra(part) if extra else {})
        frames.append(pd.concat([pd.DataFrame([head]), got], axis=1))
    if frames:
        return pd.concat(frames, ignore_index=True)
    return pd.DataFrame(columns=keys + list(extra(table) if extra else {}) + EFFECT_COLUMNS)


def group_contrast(
    table: pd.DataFrame,
    groups: list[str],
    flag: str = "idiom",
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 95.0,
    min_segments: int = MIN_IDIOM_SEGMENTS,
) -> pd.DataFrame:
    """Is the idiom effect different for the rows of ``groups`` (e.g. LLM-based systems, or the
    human references) than for the others? The coefficient of ``flag · group`` added to
    :func:`design`, with a document-cluster bootstrap interval and the minimum detectable difference.

    Parameters
    ----------
    table : DataFrame
        Rows of one data set.
    groups : list of str
        The systems of the group.
    flag : str
        The column compared.
    n_boot, seed, ci
        Document resamples, their seed, coverage in percent.
    min_segments : int
        Fewer flagged segments: not estimable.

    Returns
    -------
    pandas.DataFrame
        One row ``group_systems, other_systems, estimate, se, ci_low, ci_high, mdd_80,
        idiom_segments, documents, estimable``; NaN when not estimable, or the data set has no
        system of the group or none outside it.

    Notes
    -----
    estimate = β̂ of flag · group in score = α + β₁ · flag + β · flag · group + γ · log(chars) + δ_s + e.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    table = table.dropna(subset=["score"]).reset_index(drop=True)
    member = table["system"].isin(list(groups)).to_numpy()
    marked = table[flag].astype(bool).to_numpy()
    n_flag = int(table.loc[marked, "segment"].nunique())
    nan = float("nan")
    out = {
        "group_systems": ", ".join(sorted(table.loc[member, "system"].unique())),
        "other_systems": int(table.loc[~member, "system"].nunique()),
        "estimate": nan,
        "se": nan,
        "ci_low": nan,
        "ci_high": nan,
        "mdd_80": nan,
        "idiom_segments": n_flag,
        "documents": table["doc"].nunique(),
        "estimable": bool(n_flag >= min_segments),
    }
    if member.any() and (~member).any() and out["estimable"] and not marked.all():
        x, y = design(table.assign(**{flag: marked}), (flag,))
        x = np.column_stack([x, x[:, 1] * member])
        b, coef = cluster_ols(x, y, table["doc"], marked, n_boot, seed, column=x.shape[1] - 1)
        out.update(summary(b, coef, ci))
    else:
        out["estimable"] = False
    return pd.DataFrame([out])


def class_contrast(
    table: pd.DataFrame,
    classes=("idiom", "mwe", "ne_only"),
    reference: str = "none",
    column: str = "mwe_class",
    n_boot: int = 1000,
    seed: int = 0,
    ci: float = 95.0,
) -> pd.DataFrame:
    """Penalty of each class of segment against ``reference`` in one model (:func:`design` with one
    dummy per class), controlled for length, system and domain; document-cluster bootstrap; and
    each pair of classes (``idiom − mwe`` is the contrast of figurativeness against multiword-ness).

    Parameters
    ----------
    table : DataFrame
        Rows with ``column`` (one class per segment).
    classes : sequence of str
        The classes with a dummy.
    reference : str
        The class without one.
    column : str
        The class column.
    n_boot, seed, ci
        Document resamples, their seed, coverage in percent.

    Returns
    -------
    pandas.DataFrame
        ``contrast`` (``idiom − none``, …, ``idiom − mwe``, …), ``estimate, se, ci_low, ci_high,
        mdd_80, segments_a, segments_b``.

    Notes
    -----
    score = α + Σ_c β_c · [class = c] + γ · log(chars) + δ_s + η_domain + e; a pair's contrast is β_a − β_b.

    References
    ----------
    Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2008). Bootstrap-based improvements for
    inference with clustered errors. Review of Economics and Statistics 90(3), 414–427.
    """
    table = table.dropna(subset=["score"]).reset_index(drop=True)
    dummies = {c: (table[column] == c).to_numpy() for c in classes}
    x, y = design(table.assign(**dummies), tuple(classes))
    full, coef, _ = bootstrap_fits(*cross_products(x, y, codes(table["doc"])), n_boot, seed)
    count = table.groupby(column)["segment"].nunique()
    names = list(classes) + [reference]
    index = {c: k + 1 for k, c in enumerate(classes)}
    rows = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            est = full[index[first]] - (full[index[second]] if second in index else 0.0)
            boot = coef[:, index[first]] - (coef[:, index[second]] if second in index else 0.0)
            rows.append(
                {
                    "contrast": f"{first} − {second}",
                    **summary(est, boot[np.isfinite(boot)], ci),
                    "segments_a": int(count.get(first, 0)),
                    "segments_b": int(count.get(second, 0)),
                }
            )
    return pd.DataFrame(rows)
