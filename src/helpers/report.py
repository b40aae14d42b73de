"""What a rendered page tells its reader about its data and its comparisons.

Every study page states where its numbers come from in a visible box: released data
(with the files read), the reader's own annotations, or a seeded simulation. The box is
plain HTML with inline styles, so it renders the same in JupyterLab and in the book.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from pathlib import Path

import pandas as pd
from IPython.display import HTML

_STYLES = {
    "released": ("#e8f4ea", "#2e7d32", "Real data: the study's released annotations"),
    "own": ("#e8eef8", "#1f4e9a", "Real data: annotations supplied as notebook parameters"),
    "simulated": ("#fff4e0", "#b45f06", "SIMULATED DATA: not the study's annotations"),
}


def data_note(kind: str, files: Iterable[str | Path] = (), detail: str = "") -> HTML:
    """A coloured box naming the kind of data a page shows and the files it read."""
    if kind not in _STYLES:
        raise ValueError(f"kind must be one of {sorted(_STYLES)}")
    bg, fg, title = _STYLES[kind]
    items = "".join(f"<li><code>{escape(Path(f).name)}</code></li>" for f in files)
    body = f"<p style='margin:.3em 0'>{detail}</p>" if detail else ""
    return HTML(
        f"<div class='data-note data-{kind}' style='background:{bg};border-left:6px solid {fg};"
        f"padding:.6em 1em;margin:1em 0'><strong style='color:{fg}'>{title}</strong>{body}"
        f"{'<ul style=margin:.3em 0>' + items + '</ul>' if items else ''}</div>"
    )


def comparison_summary(comparison: pd.DataFrame, label: str) -> HTML:
    """One line: how many published cells the recomputation matches at printed precision."""
    n, ok = len(comparison), int(comparison["match"].sum())
    colour = "#2e7d32" if ok == n else "#b00020"
    return HTML(f"<p><strong style='color:{colour}'>{label}: {ok} of {n} published cells reproduced "
                f"to the printed precision.</strong></p>")


def style_comparison(wide: pd.DataFrame, comparison: pd.DataFrame, decimals: int = 3):
    """Style a :func:`helpers.compare.side_by_side` table, marking differences beyond rounding."""
    bad = comparison.loc[~comparison["match"]]
    keys = [c for c in comparison.columns if c not in ("column", "published", "recomputed", "difference", "match")]

    def colour(frame):
        out = pd.DataFrame("", index=frame.index, columns=frame.columns)
        for _, row in bad.iterrows():
            idx = tuple(row[k] for k in keys) if len(keys) > 1 else row[keys[0]]
            out.loc[idx, (row["column"], "recomputed")] = "background-color:#fbe3e6"
        return out

    return wide.style.format(precision=decimals, na_rep="NA").apply(colour, axis=None)
