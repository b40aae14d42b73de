"""MetaHOPE's severity scale: the levels a cell may hold, their names, and the penalty each
weighting scheme gives them.

:mod:`helpers.metahope.workbooks` reads severities on this scale and :mod:`helpers.metahope.scoring`
sums their penalties; both import the scale from here, so neither imports the other.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd

from ..core.statistics.schemes import load_scheme

#: Allowed severity entries (paper §3 and appendix I.3): 0 no error, 2 minor … 10 critical.
SEVERITY_LEVELS: tuple[int, ...] = (0, 2, 4, 6, 8, 10)
SEVERITY_NAMES = {0: "none", 2: "minor", 4: "moderate", 6: "major", 8: "severe", 10: "critical"}


def blank(value) -> bool:
    """Whether a cell holds nothing: None, NaN, or text that is only white space.

    Examples
    --------
    >>> blank(None), blank("  "), blank(float("nan")), blank(0), blank("n")
    (True, True, True, False, False)
    """
    return (
        value is None
        or (isinstance(value, str) and not value.strip())
        or (isinstance(value, float) and math.isnan(value))
    )


def _level_weights(name: str) -> dict[int, float]:
    """Penalty per MetaHOPE severity level from the core weighting scheme ``name``
    (``helpers/core/statistics/schemes/<name>.yml``, the one place the weights are written down)."""
    scheme = load_scheme(name)
    return {lvl: 0 if lvl == 0 else scheme.weight_of(SEVERITY_NAMES[lvl].capitalize()) for lvl in SEVERITY_LEVELS}


#: Penalty per severity level. MetaHOPE keeps the level as the penalty (linear, paper §3):
#: 2, 4, 6, 8, 10; HOPE (Gladkoff & Han 2022) uses exponential penalties 1, 2, 4, 8, 16 for
#: minor … critical. Read from the core schemes ``metahope`` and ``hope``.
WEIGHTS: dict[str, dict[int, float]] = {name: _level_weights(name) for name in ("metahope", "hope")}


def apply_weights(tidy: pd.DataFrame, scheme: str | Mapping[int, float] = "metahope") -> pd.DataFrame:
    """Add a ``penalty`` column mapping each severity level to its penalty.

    ``scheme`` is ``"metahope"`` (linear 2, 4, 6, 8, 10; paper §3), ``"hope"``
    (exponential 1, 2, 4, 8, 16 for minor … critical; Gladkoff & Han 2022) or a mapping
    from every level in :data:`SEVERITY_LEVELS` to a penalty.
    """
    weights = WEIGHTS[scheme] if isinstance(scheme, str) else dict(scheme)
    missing = set(SEVERITY_LEVELS) - set(weights)
    if missing:
        raise ValueError(f"weighting scheme lacks penalties for severity levels {sorted(missing)}")
    out = tidy.copy()
    out["penalty"] = out["severity"].map(weights).astype(float)
    out["scheme"] = scheme if isinstance(scheme, str) else "custom"
    return out
