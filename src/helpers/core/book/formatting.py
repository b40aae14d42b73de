"""How the book prints a number: one place for every chapter's numbers, intervals, p-values
and shares, so that a p-value reads the same on every page.

* :func:`number`: fixed decimals, whole numbers as integers, never ``-0.00``, NaN as ``NA``;
* :func:`interval`: ``[low, high]`` in the same style;
* :func:`p_value`: ``p = 0.032``, ``p < 0.001`` (three decimals: APA 7th ed. §6.36 reports
  exact p-values to two or three decimals and values below .001 as ``< .001``; the book keeps
  the leading zero, as its tables do);
* :func:`percent`: a share (0–1) as ``45%``.
"""

from __future__ import annotations

import math

import numpy as np

#: The smallest p-value printed as a number; below it the book prints ``p < 0.001``.
SMALLEST_P = 0.001


def _missing(value) -> bool:
    return value is None or (isinstance(value, (float, np.floating)) and math.isnan(value))


def number(value, decimals: int = 2, sign: bool = False) -> str:
    """``value`` to ``decimals`` places (``sign``: always with ``+``/``−`` sign), whole numbers
    (int, or ``decimals == 0``) without decimals, thousands from 10 000 on spaced, NaN as ``NA``.

    Examples
    --------
    >>> number(0.12345), number(-0.0001, 3), number(7), number(12345), number(0.5, 1, sign=True), number(float("nan"))
    ('0.12', '0.000', '7', '12 345', '+0.5', 'NA')
    """
    if _missing(value):
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
    if _missing(low) or _missing(high):
        return "NA"
    return f"[{number(low, decimals, sign)}, {number(high, decimals, sign)}]"


def p_value(p, decimals: int = 3) -> str:
    """A p-value as the book states it: ``p = 0.032``, or ``p < 0.001`` below :data:`SMALLEST_P`.

    Examples
    --------
    >>> p_value(0.03215), p_value(0.00002), p_value(1.0), p_value(float("nan"))
    ('p = 0.032', 'p < 0.001', 'p = 1.000', 'p = NA')
    """
    if _missing(p):
        return "p = NA"
    if p < SMALLEST_P:
        return f"p < {SMALLEST_P:.{decimals}f}"
    return f"p = {p:.{decimals}f}"


def percent(share, decimals: int = 0) -> str:
    """A share between 0 and 1 as a percentage: ``0.456`` → ``46%``.

    Examples
    --------
    >>> percent(0.456), percent(0.5, 1), percent(float("nan"))
    ('46%', '50.0%', 'NA')
    """
    if _missing(share):
        return "NA"
    return f"{number(100 * float(share), decimals)}%"
