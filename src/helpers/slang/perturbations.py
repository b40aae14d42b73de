"""The perturbations of §4.4 (Qian et al., W-NUT 2025) and the probe that runs QE models over them.

The posts to perturb, Method 1's homophone groups and Method 2's better translations, every
model's predictions on each group, and :func:`probe`, which computes the robustness tables of
:mod:`helpers.slang.robustness` from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from .qe_data import source_key
from .robustness import (
    method2_table,
    robustness_table,
    score_shifts,
    shift_by_word,
    stability_intervals,
    stability_table,
    stability_verdicts,
    swap_sources,
)
from .substitution import replace_spans


def slang_instances(data: pd.DataFrame, train: pd.DataFrame, instances: str = "held_out") -> pd.DataFrame:
    """The posts the perturbations are applied to: those containing a slang word, once per
    source, numbered ``instance``. ``"held_out"``: only dev/test posts whose source is not in
    ``train`` (the models never saw them); ``"all"``: every post (including training posts)."""
    from .homophone_data import SLANG

    pool = data[data["split"] != "train"] if instances == "held_out" else data
    if instances == "held_out":
        pool = pool[~pool["source"].isin(train["source"])]
    chosen = pool[pool["source"].str.contains("|".join(SLANG))].drop_duplicates("source").reset_index(drop=True)
    chosen["instance"] = range(len(chosen))
    return chosen


def predict_groups(models: dict, groups: dict) -> pd.DataFrame:
    """``instance, group, model, predicted`` for every model on every perturbation group."""
    frames = []
    for name, model in models.items():
        for group, frame in groups.items():
            frames.append(
                pd.DataFrame(
                    {
                        "instance": frame["instance"].to_numpy(),
                        "group": group,
                        "model": name,
                        "predicted": model.predict(frame),
                    }
                )
            )
    return pd.concat(frames, ignore_index=True)


def perturb_sources(sources: pd.Series, homophones: Mapping[str, list[str]], k: int) -> pd.DataFrame:
    """Method 1 group M1G<k>: every slang word replaced by its k-th homophone (1-based).

    Returns ``source, perturbed, n_replacements`` aligned with ``sources``.
    """
    mapping = {w: h[k - 1] for w, h in homophones.items() if len(h) >= k}
    done = [replace_spans(s, mapping) for s in sources]
    return pd.DataFrame(
        {"source": sources.to_numpy(), "perturbed": [d[0] for d in done], "n_replacements": [len(d[1]) for d in done]},
        index=sources.index,
    )


def perturbation_groups(
    posts: pd.DataFrame,
    homophones: Mapping[str, list[str]],
    post_edits: pd.DataFrame,
    corrected: pd.DataFrame | None = None,
    k_max: int = 5,
) -> dict[str, pd.DataFrame]:
    """The paper's groups for ``posts`` (``instance, source, mt, score``; sources unsegmented):

    * ``G0``: the posts as they are;
    * ``M1G1``…``M1G<k_max>``: every slang word replaced by its k-th homophone (:func:`perturb_sources`);
    * ``M2G2``: the MT replaced by the post-edited reference (``post_edits``: source, post_edit),
      for the posts that have a non-empty one;
    * ``M2G1``: the MT replaced by a slang-only correction, when ``corrected`` (source, mt) is given.
    """
    groups = {"G0": posts}
    for k in range(1, k_max + 1):
        groups[f"M1G{k}"] = posts.assign(source=perturb_sources(posts["source"], homophones, k)["perturbed"])
    edits = post_edits.assign(source=post_edits["source"].map(source_key)).drop_duplicates("source")
    with_edit = posts.merge(edits[["source", "post_edit"]], on="source", how="inner")
    with_edit = with_edit[with_edit["post_edit"].str.strip() != ""]
    groups["M2G2"] = with_edit.assign(mt=with_edit["post_edit"]).drop(columns="post_edit")
    if corrected is not None:
        fixed = corrected.assign(source=corrected["source"].map(source_key))[["source", "mt"]]
        groups["M2G1"] = posts.drop(columns="mt").merge(fixed, on="source", how="inner")
    return groups


@dataclass(frozen=True)
class Probe:
    """Everything :func:`probe` computes for one set of models and posts."""

    posts: pd.DataFrame  # instance, source, mt, score … of the perturbed posts
    groups: dict  # group name -> frame (G0, M1G1…, M2G2, M2G1 if given, SWAP)
    predictions: pd.DataFrame  # instance, group, model, predicted (every group)
    method1: pd.DataFrame  # robustness_table of G0 and M1G* (Tables 5–6, 9–10 layout), with intervals
    shifts: pd.DataFrame  # score_shifts of the M1 and M2 groups (no SWAP)
    method2: pd.DataFrame  # method2_table (Table 7 layout)
    stability: pd.DataFrame  # stability_table
    intervals: pd.DataFrame  # stability_intervals (with SWAP)
    verdicts: pd.DataFrame  # stability_verdicts
    by_word: pd.DataFrame  # shift_by_word


def probe(
    models: dict,
    posts: pd.DataFrame,
    homophones: Mapping[str, list[str]],
    post_edits: pd.DataFrame,
    corrected: pd.DataFrame | None = None,
    n_boot: int = 2000,
    seed: int = 0,
) -> Probe:
    """Method 1 and Method 2 of §4.4 and the source-swap control on ``posts`` (from
    :func:`slang_instances`) for every fitted model of ``models`` (``{name: model}``), with the
    tables of :func:`robustness_table`, :func:`score_shifts`, :func:`method2_table`,
    :func:`stability_table`, :func:`stability_intervals`, :func:`stability_verdicts` and
    :func:`shift_by_word` (``n_boot`` bootstrap resamples of the posts, ``seed``).

    Parameters
    ----------
    models : dict
        ``{name: fitted model}``.
    posts : pandas.DataFrame
        The posts to perturb (:func:`slang_instances`).
    homophones : mapping of str to list of str
        The homophones of each slang word, in rank order.
    post_edits : pandas.DataFrame
        ``source, post_edit``.
    corrected : pandas.DataFrame, optional
        ``source, mt`` with only the slang corrected (group M2G1).
    n_boot : int
        Bootstrap resamples of the posts.
    seed : int
        Seed of the resamples and of the source swap.

    Returns
    -------
    Probe
        The tables listed above, each with the formula of its function.

    References
    ----------
    Qian et al. (2025). W-NUT, §4.4.1 (Method 1) and §4.4.2 (Method 2).
    """
    groups = perturbation_groups(posts, homophones, post_edits, corrected)
    groups["SWAP"] = swap_sources(posts, seed)
    for model in models.values():  # an encoder model embeds all new texts in one call
        if hasattr(model, "embed_all"):
            model.embed_all(*groups.values())
    predictions = predict_groups(models, groups)
    human = posts.set_index("instance")["score"]
    method1 = robustness_table(predictions[predictions["group"].str.startswith(("G0", "M1"))], human, n_boot, seed)
    shifts = score_shifts(predictions[predictions["group"] != "SWAP"])
    method2 = method2_table(predictions)
    stability = stability_table(method1, shifts, method2)
    intervals = stability_intervals(predictions, human, n_boot, seed)
    by_word = shift_by_word(predictions[predictions["group"].str.startswith(("G0", "M1"))], posts, n_boot, seed)
    return Probe(
        posts,
        groups,
        predictions,
        method1,
        shifts,
        method2,
        stability,
        intervals,
        stability_verdicts(intervals),
        by_word,
    )
