"""Simulated ratings of metaphor explanations (the book's stand-in for the unpublished ratings).

:class:`RatingModel` describes how simulated raters perceive an explanation's designed
quality; :func:`simulate_ratings` draws seeded ratings of every benchmark item in the tidy
layout of :mod:`helpers.explanations.io`, so every analysis runs unchanged on real ratings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from ..core.errors import InputError
from .io import DIMENSIONS, RATING_COLUMNS, SCORES


@dataclass(frozen=True)
class RatingModel:
    """Knobs of :func:`simulate_ratings` (scores on the 1–5 scale).

    Latent quality of item i on dimension d = ``pass_level`` or ``fail_level`` (from the
    design) + ``loading[d]`` × g_i + item noise (sd ``item_sd``), where g_i is a shared
    "general quality" of the item (the designed pass rate of mapping, emergence and
    purpose, centred, plus noise of sd ``general_sd``). A rater perceives it with their
    leniency (sd ``leniency_sd``), an overall impression of the item that also loads on
    the dimensions (the halo, sd ``halo_sd``) and noise of sd ``noise[d]`` (dimensions
    differ in difficulty); the loadings make mapping, emergence, purpose (and less so
    accessibility) correlate while non-circularity and origin stay apart. Overall is the
    weighted mean of the rater's six perceptions before the halo (``overall_weights``),
    plus ``overall_halo`` × the impression and noise ``overall_noise``. Scores are
    rounded and clipped to 1–5. The defaults were calibrated as notebook 04 describes.
    """

    pass_level: float = 4.1
    fail_level: float = 1.9
    item_sd: float = 0.35
    general_sd: float = 1.0
    halo_sd: float = 1.3
    leniency_sd: float = 0.3
    loading: Mapping[str, float] = field(
        default_factory=lambda: {
            "non_circularity": 0.0,
            "origin": 0.0,
            "mapping": 0.9,
            "emergence": 1.0,
            "accessibility": 0.5,
            "purpose": 1.0,
        }
    )
    noise: Mapping[str, float] = field(
        default_factory=lambda: {
            "non_circularity": 1.05,
            "origin": 0.95,
            "mapping": 0.45,
            "emergence": 0.3,
            "accessibility": 0.8,
            "purpose": 0.35,
        }
    )
    overall_weights: Mapping[str, float] = field(
        default_factory=lambda: {
            "non_circularity": 0.08,
            "origin": 0.04,
            "mapping": 0.12,
            "emergence": 0.4,
            "accessibility": 0.08,
            "purpose": 0.28,
        }
    )
    overall_noise: float = 0.45
    overall_halo: float = 0.6

    @classmethod
    def from_parameters(cls, values: Mapping | None) -> "RatingModel":
        """A model from a (partial) mapping of knob values, as papermill passes them."""
        if not values:
            return cls()
        base = asdict(cls())
        unknown = set(values) - set(base)
        if unknown:
            raise InputError(
                f"unknown rating-model knob(s) {sorted(unknown)}",
                parameter="rating_model",
                value=dict(values),
                expected=f"keys among {sorted(base)}",
            )
        for key in ("loading", "noise", "overall_weights"):
            if key in values:
                extra = set(values[key]) - set(DIMENSIONS)
                if extra:
                    raise InputError(
                        f"{key}: unknown dimension(s) {sorted(extra)}",
                        parameter="rating_model",
                        value=dict(values[key]),
                        expected=f"dimensions among {list(DIMENSIONS)}",
                    )
                base[key] = {**base[key], **values[key]}
        return cls(**{**base, **{k: v for k, v in values.items() if k not in ("loading", "noise", "overall_weights")}})


def simulate_ratings(
    benchmark: pd.DataFrame, n_raters: int = 16, seed: int = 42, model: RatingModel | None = None, bounded: bool = True
) -> pd.DataFrame:
    """Seeded ratings of every benchmark item by ``n_raters`` raters on the 7 scores.

    Returns the tidy ratings frame (:data:`~helpers.explanations.io.RATING_COLUMNS`). With
    ``bounded=False`` the same draws are returned *before* rounding and clipping to 1–5
    (real-valued latent scores): a teaching device that shows which patterns the bounded
    scale itself creates (chapter 4, the disagreement hump).
    """
    model = model or RatingModel()
    rng = np.random.default_rng(seed)
    n = len(bench := benchmark.reset_index(drop=True))
    design = bench[list(DIMENSIONS)].to_numpy(dtype=float)  # items × 6, 1 = pass
    shared = design[:, [DIMENSIONS.index(d) for d in ("mapping", "emergence", "purpose")]].mean(axis=1)
    g = (shared - shared.mean()) + model.general_sd * rng.standard_normal(n)
    loading = np.array([model.loading[d] for d in DIMENSIONS])
    latent = np.where(design == 1, model.pass_level, model.fail_level) + g[:, None] * loading
    latent += model.item_sd * rng.standard_normal((n, len(DIMENSIONS)))
    noise = np.array([model.noise[d] for d in DIMENSIONS])
    weights = np.array([model.overall_weights[d] for d in DIMENSIONS])
    weights = weights / weights.sum()
    leniency = model.leniency_sd * rng.standard_normal(n_raters)
    impression = model.halo_sd * rng.standard_normal((n_raters, n))  # a rater's overall impression of an item
    own = latent[None] + leniency[:, None, None] + noise * rng.standard_normal((n_raters, n, len(DIMENSIONS)))
    perceived = own + impression[..., None] * loading
    overall = own @ weights + model.overall_halo * impression + model.overall_noise * rng.standard_normal((n_raters, n))
    latent_scores = np.concatenate([perceived, overall[..., None]], axis=2)
    scores = np.clip(np.rint(latent_scores), 1, 5).astype(int) if bounded else latent_scores
    raters = [f"R{k + 1:02d}" for k in range(n_raters)]
    frame = pd.DataFrame(
        {
            "item_id": np.tile(np.repeat(bench["item_id"].to_numpy(), len(SCORES)), n_raters),
            "rater": np.repeat(raters, n * len(SCORES)),
            "dimension": np.tile(list(SCORES), n * n_raters),
            "score": scores.reshape(-1),
        }
    )
    frame["metaphor"] = frame["item_id"].map(bench.set_index("item_id")["metaphor"])
    frame["explanation"] = frame["item_id"].map(bench.set_index("item_id")["explanation"])
    frame["dimension"] = pd.Categorical(frame["dimension"], categories=list(SCORES), ordered=True)
    return frame[RATING_COLUMNS]


def generating_values(model: RatingModel | None = None) -> pd.DataFrame:
    """The simulator's truth per score: what an analysis of simulated ratings can recover.

    One row per dimension with its ``loading`` on the shared general quality and the halo,
    its rater ``noise`` (SD), its ``overall_weight`` (normalised to sum 1, the weights with
    which Overall is built) and the latent ``pass_level`` / ``fail_level`` of designed
    passes and failures; a last row ``overall`` carries the halo loading of Overall
    (``overall_halo``) as its loading and ``overall_noise`` as its noise. Chapter 4 sets
    these beside the estimates: a method that finds them has recovered structure that was
    put there by construction, which tests the method, not the people.

    Examples
    --------
    >>> truth = generating_values().set_index("dimension")
    >>> truth.loc["emergence", ["loading", "noise", "overall_weight"]].tolist()
    [1.0, 0.3, 0.4]
    >>> float(round(truth["overall_weight"].sum(), 6)), float(truth.loc["overall", "loading"])
    (1.0, 0.6)
    """
    model = model or RatingModel()
    total = sum(model.overall_weights[d] for d in DIMENSIONS)
    rows = [
        {
            "dimension": d,
            "loading": float(model.loading[d]),
            "noise": float(model.noise[d]),
            "overall_weight": float(model.overall_weights[d]) / total,
            "pass_level": model.pass_level,
            "fail_level": model.fail_level,
        }
        for d in DIMENSIONS
    ]
    rows.append(
        {
            "dimension": "overall",
            "loading": float(model.overall_halo),
            "noise": float(model.overall_noise),
            "overall_weight": np.nan,
            "pass_level": np.nan,
            "fail_level": np.nan,
        }
    )
    return pd.DataFrame(rows)
