"""How the book prints a number: one place for every chapter's numbers, intervals, p-values
and shares, so that a p-value reads the same on every page.

* :func:`number`: fixed decimals, whole numbers as integers, never ``-0.00``, NaN as ``NA``;
* :func:`interval`: ``[low, high]`` in the same style;
* :func:`p_value`: ``p = 0.032``, ``p < 0.001`` (three decimals: APA 7th ed. §6.36 reports
  exact p-values to two or three decimals and values below .001 as ``< .001``; the book keeps
  the leading zero, as its tables do);
* :func:`percent`: a share or probability (0–1) as ``45%``; a value strictly between 0 and 1
  never prints as ``0%`` or ``100%`` (a power of 0.9956 is ``>99%``, a share of 0.003 ``<1%``),
  since those would claim an impossibility or a certainty the number does not hold.
"""

from __future__ import annotations

import math

import numpy as np

#: The smallest p-value printed as a number; below it the book prints ``p < 0.001``.
SMALLEST_P = 0.001


def is_missing(value) -> bool:
    """None, NaN and pandas' missing markers (``pd.NA``, ``NaT``): every one prints as ``NA``."""
    return (
        value is None
        or (isinstance(value, (float, np.floating)) and math.isnan(value))
        or type(value).__name__ in ("NAType", "NaTType")
    )


def number(value, decimals: int = 2, sign: bool = False) -> str:
    """``value`` to ``decimals`` places (``sign``: always with ``+``/``−`` sign), whole numbers
    (int, or ``decimals == 0``) without decimals, thousands from 10 000 on spaced, NaN as ``NA``.

    Examples
    --------
    >>> number(0.12345), number(-0.0001, 3), number(7), number(12345), number(0.5, 1, sign=True), number(float("nan"))
    ('0.12', '0.000', '7', '12 345', '+0.5', 'NA')
    >>> import pandas as pd; number(pd.NA)
    'NA'
    """
    if is_missing(value):
        return "NA"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    plus = "+" if sign else ""
    if isinstance(value, (int, np.integer)):
        text = f"{int(value):{plus},}"
        return text.replace(",", " ") if abs(int(value)) >= 10_000 else text.replace(",", "")
    value = float(value)
    text = f"{value:{plus}.{decimals}f}"
    if decimals == 0 and abs(value) >= 10_000:
        text = f"{value:{plus},.0f}".replace(",", " ")
    if float(text.replace(" ", "")) == 0:  # never "-0.00"
        text = f"{0.0:{plus}.{decimals}f}"
    return text


def interval(low, high, decimals: int = 2, sign: bool = False) -> str:
    """A confidence interval as ``[low, high]`` (``NA`` when either end is missing).

    Examples
    --------
    >>> interval(0.1234, 0.5), interval(-0.02, 0.031, 3, sign=True), interval(float("nan"), 1.0)
    ('[0.12, 0.50]', '[-0.020, +0.031]', 'NA')
    """
    if is_missing(low) or is_missing(high):
        return "NA"
    return f"[{number(low, decimals, sign)}, {number(high, decimals, sign)}]"


def p_value(p, decimals: int = 3) -> str:
    """A p-value as the book states it: ``p = 0.032``, or ``p < 0.001`` below :data:`SMALLEST_P`.

    Examples
    --------
    >>> p_value(0.03215), p_value(0.00002), p_value(1.0), p_value(float("nan"))
    ('p = 0.032', 'p < 0.001', 'p = 1.000', 'p = NA')
    """
    if is_missing(p):
        return "p = NA"
    if p < SMALLEST_P:
        return f"p < {SMALLEST_P:.{decimals}f}"
    return f"p = {p:.{decimals}f}"


def percent(share, decimals: int = 0) -> str:
    """A share or probability between 0 and 1 as a percentage: ``0.456`` → ``46%``.

    A value strictly between 0 and 1 that would round to 0 or 100 prints as ``<1%`` / ``>99%``
    (with ``decimals`` 1: ``<0.1%`` / ``>99.9%``): only exactly 0 and 1 print as ``0%`` and
    ``100%``. Values outside [0, 1] print as they are.

    Examples
    --------
    >>> percent(0.456), percent(0.5, 1), percent(float("nan")), percent(0.9956), percent(0.003), percent(1.0)
    ('46%', '50.0%', 'NA', '>99%', '<1%', '100%')
    >>> percent(0.9996, 1), percent(0.0004, 1), percent(0.0)
    ('>99.9%', '<0.1%', '0%')
    """
    if is_missing(share):
        return "NA"
    share = float(share)
    text = number(100 * share, decimals)
    step = 10.0**-decimals
    if 0 < share < 1 and float(text) >= 100:
        return f">{number(100 - step, decimals)}%"
    if 0 < share < 1 and float(text) <= 0:
        return f"<{number(step, decimals)}%"
    return f"{text}%"
