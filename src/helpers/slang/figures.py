"""Figures of the slang chapters, interactive (plotly); :func:`helpers.core.book.plots.static` draws
their twins for print.

Chapter 6 (homophones, Qian et al. 2025):

* :func:`ratings_scatter`: each method's score against the
  human rating, one colour per slang word with a per-word trend line, so that the ranking
  *within* a word (what a pick() function must get right) is seen apart from the
  differences *between* words that a pooled Spearman ρ also counts;
* :func:`candidate_space`: every Algorithm 1 candidate of one
  word placed by its frequency sum F (Algorithm 2) and its self-information I (Eq. 1), with
  the human-rated candidates and each method's top k marked;
* :func:`ladder_figure`: each language model of the ladder by
  its held-out perplexity against its ρ with the ratings, the paper's Tables 2–3 beside.

Chinese labels in static figures use the CJK font registered by :mod:`helpers.core.book.plots`;
:data:`COLOURS` registers the chapters' colours with :func:`helpers.core.book.plots.register_colours`
and :data:`LABELS` their tables' column labels when this module is imported.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..core.book.plots import colour, register_colours
from ..core.book.report import register_labels

#: The slang chapters' colours. The five slang words take Okabe-Ito hues (hash-chosen fallbacks
#: would give two of them one colour); the QE models Paul Tol's muted hues (colour-blind safe).
COLOURS = {
    "尼玛": "#0072b2",
    "特么": "#e69f00",
    "卧槽": "#009e73",
    "草泥马": "#cc79a7",
    "劳资": "#d55e00",
    # homophone scoring methods (top-k lists)
    "percentile (Algorithm 2)": "#000000",
    "percentile (Algorithm 2 as printed: P[1:k], least frequent)": "#a6761d",
    "self-information, most probable": "#1b7837",
    "self-information, most informative": "#762a83",
    # QE models
    "features+ridge": "#332288",
    "USE multilingual v3 (frozen)+ridge": "#cc6677",
    "multilingual-e5-small (frozen)+ridge": "#44aa99",
    "all-MiniLM-L6-v2 (frozen)+ridge": "#999933",
    "transformer (all-MiniLM-L6-v2)": "#aa4499",
}
register_colours(COLOURS)

#: The slang chapters' display labels of their result columns, shown by :func:`helpers.core.book.report.table`.
LABELS = {
    "pooled_rho": "pooled ρ",
    "pooled_p": "pooled p",
    "mean_within_word_rho": "mean ρ within words",
    "p_within_word": "p within words",
    "heldout_perplexity": "perplexity",
    "parameters": "size (n-grams, listed words or weights)",
    "pypinyin_reading": "pypinyin",
    "n_posts": "posts",
    "signed_relative_shift": "signed shift (SD)",
}
register_labels(LABELS)

#: Axis labels of the score columns of :func:`helpers.slang.candidates.score_candidates`.
SCORE_LABELS = {
    "percentile": "percentile (Algorithm 2)",
    "released_score": "released per-character percentile",
    "I_no_context": "self-information without context (bits)",
    "I_context": "self-information with context (bits)",
    "F": "F = Σ D(c) (character frequency sum)",
}
#: Marker of each top-k list in :func:`candidate_space` (a plotly symbol).
TOP_MARKERS = {
    "percentile (Algorithm 2)": "square-open",
    "percentile (Algorithm 2 as printed: P[1:k], least frequent)": "diamond-open",
    "self-information, most probable": "triangle-up-open",
    "self-information, most informative": "triangle-down-open",
}


def _rated(scores: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    return ratings[["word", "candidate", "avg_score"]].merge(scores, on=["word", "candidate"], how="inner")


def _trend(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    if len(x) < 2 or np.ptp(x) == 0:
        return None
    slope, intercept = np.polyfit(x, y, 1)
    xs = np.array([x.min(), x.max()])
    return xs, intercept + slope * xs


def _rho_label(by_word: pd.DataFrame | None, column_method: tuple[str, str], word: str) -> str:
    if by_word is None:
        return ""
    method, context = column_method
    row = by_word[(by_word["method"] == method) & (by_word["context"] == context) & (by_word["word"] == word)]
    return "" if row.empty or pd.isna(row["rho"].iloc[0]) else f"ρ = {row['rho'].iloc[0]:+.2f}"


def ratings_scatter(
    scores: pd.DataFrame,
    ratings: pd.DataFrame,
    columns: Sequence[str] = ("percentile", "I_no_context"),
    by_word: pd.DataFrame | None = None,
    title: str | None = None,
) -> go.Figure:
    """Each score in ``columns`` (one panel each) against the human rating of the rated
    candidates, coloured per slang word, with a least-squares line per word. ``by_word``
    (:func:`helpers.slang.correlations.spearman_by_word`) adds each word's ρ to the hover text."""
    from .correlations import METHOD_COLUMNS

    rated = _rated(scores, ratings)
    fig = make_subplots(
        rows=1,
        cols=len(columns),
        shared_yaxes=True,
        horizontal_spacing=0.06,
        subplot_titles=[SCORE_LABELS.get(c, c) for c in columns],
    )
    for k, column in enumerate(columns, start=1):
        for word, g in rated.groupby("word", sort=False):
            rho = _rho_label(by_word, METHOD_COLUMNS.get(column, (column, "")), word)
            fig.add_trace(
                go.Scatter(
                    x=g[column],
                    y=g["avg_score"],
                    mode="markers",
                    name=word,
                    legendgroup=word,
                    showlegend=k == 1,
                    marker={"color": colour(word), "size": 9},
                    customdata=g[["candidate"]].to_numpy(),
                    hovertemplate=f"{word} → %{{customdata[0]}}<br>{column} %{{x:.2f}}<br>rating %{{y:.2f}}"
                    f"<br>{rho}<extra></extra>",
                ),
                row=1,
                col=k,
            )
            line = _trend(g[column].to_numpy(dtype=float), g["avg_score"].to_numpy(dtype=float))
            if line is not None:
                fig.add_trace(
                    go.Scatter(
                        x=line[0],
                        y=line[1],
                        mode="lines",
                        legendgroup=word,
                        showlegend=False,
                        line={"color": colour(word), "dash": "dot"},
                        hoverinfo="skip",
                    ),
                    row=1,
                    col=k,
                )
        fig.update_xaxes(title_text=SCORE_LABELS.get(column, column), row=1, col=k)
    fig.update_yaxes(title_text="human rating (mean, 1–5)", row=1, col=1)
    fig.update_layout(title=title, height=430, legend_title_text="slang word", margin={"t": 90})
    return fig


def _space(scores: pd.DataFrame, ratings: pd.DataFrame, word: str, y: str) -> pd.DataFrame:
    space = scores[scores["word"] == word][["candidate", "F", y]].copy()
    rated = ratings[ratings["word"] == word].set_index("candidate")["avg_score"]
    space["rating"] = space["candidate"].map(rated)
    return space


def candidate_space(
    scores: pd.DataFrame,
    ratings: pd.DataFrame,
    top: pd.DataFrame,
    word: str,
    y: str = "I_no_context",
    title: str | None = None,
) -> go.Figure:
    """Every candidate of ``word`` by F (log scale) and self-information ``y``: unrated ones
    grey, rated ones coloured by their rating, each method's top k (``top``, without-context
    lists for self-information) ringed with its own marker."""
    space = _space(scores, ratings, word, y)
    fig = go.Figure()
    plain = space[space["rating"].isna()]
    fig.add_trace(
        go.Scatter(
            x=plain["F"],
            y=plain[y],
            mode="markers+text",
            text=plain["candidate"],
            textposition="top center",
            textfont={"size": 10, "color": "#777777"},
            name="not rated",
            marker={"color": "#bbbbbb", "size": 7},
            hovertemplate="%{text}<br>F %{x}<br>I %{y:.2f} bits<extra>not rated</extra>",
        )
    )
    rated = space[space["rating"].notna()]
    fig.add_trace(
        go.Scatter(
            x=rated["F"],
            y=rated[y],
            mode="markers+text",
            text=rated["candidate"],
            textposition="top center",
            textfont={"size": 11},
            name="rated (colour: rating)",
            marker={
                "color": rated["rating"],
                "colorscale": "Viridis",
                "cmin": 1,
                "cmax": 5,
                "size": 11,
                "colorbar": {"title": "rating", "x": 1.02, "len": 0.55, "y": 0.25},
            },
            customdata=rated[["rating"]].to_numpy(),
            hovertemplate="%{text}<br>F %{x}<br>I %{y:.2f} bits<br>rating %{customdata[0]:.2f}<extra>rated</extra>",
        )
    )
    for method, symbol in TOP_MARKERS.items():
        chosen = top[(top["word"] == word) & (top["method"] == method) & top["context"].isin(["without", "n/a"])]
        points = space.set_index("candidate").loc[chosen["candidate"]].reset_index()
        if points.empty:
            continue
        fig.add_trace(
            go.Scatter(
                x=points["F"],
                y=points[y],
                mode="markers",
                name=f"top {len(points)}: {method}",
                marker={"symbol": symbol, "size": 19, "color": colour(method), "line": {"width": 2}},
                text=points["candidate"],
                hovertemplate=f"%{{text}}<extra>{method}</extra>",
            )
        )
    fig.update_xaxes(type="log", title_text=SCORE_LABELS["F"] + ", log scale")
    fig.update_yaxes(title_text=SCORE_LABELS.get(y, y))
    fig.update_layout(title=title, height=560, legend={"orientation": "h", "y": -0.18, "x": 0}, margin={"b": 150})
    return fig


# --------------------------------------------------------------------------- chapter 7
# Chapter 7 (QE robustness, Qian et al. 2025, §4.4):
#
# * :func:`shift_figure`: each post's change of predicted score
#   relative to G0, per perturbation group and model, in units of the spread of the model's own
#   G0 predictions, with the source-swap control beside the homophone groups.

#: Order and readable names of the perturbation groups in chapter 7's figures.
GROUP_LABELS = {
    "M1G1": "M1G1",
    "M1G2": "M1G2",
    "M1G3": "M1G3",
    "M1G4": "M1G4",
    "M1G5": "M1G5",
    "M2G1": "M2G1 (slang fixed)",
    "M2G2": "M2G2 (post-edit)",
    "SWAP": "SWAP (another post's source)",
}


def _relative_shifts(shifts: pd.DataFrame, spread: pd.Series) -> tuple[pd.DataFrame, list[str]]:
    out = shifts.assign(relative=shifts["shift"] / shifts["model"].map(spread))
    order = [g for g in GROUP_LABELS if g in set(out["group"])]
    out = out[out["group"].isin(order)].assign(
        label=lambda f: f["group"].map(GROUP_LABELS), rank=lambda f: f["group"].map(order.index)
    )
    return out.sort_values("rank", kind="stable").drop(columns="rank"), order


def shift_figure(shifts: pd.DataFrame, spread: pd.Series, title: str | None = None) -> go.Figure:
    """Box and points of every post's shift (predicted − G0 prediction) divided by ``spread``
    (the SD of that model's G0 predictions), one box per model and group: a model whose boxes
    all hug 0, SWAP included, does not react to its source at all."""
    frame, order = _relative_shifts(shifts, spread)
    fig = go.Figure()
    for model, g in frame.groupby("model", sort=False):
        fig.add_trace(
            go.Box(
                x=g["label"],
                y=g["relative"],
                name=model,
                boxpoints="all",
                jitter=0.4,
                pointpos=0,
                marker={"color": colour(model), "size": 5},
                line={"color": colour(model)},
                customdata=np.stack([g["instance"], g["shift"]], axis=1),
                hovertemplate="post %{customdata[0]}<br>shift %{customdata[1]:.3f}<br>= %{y:.2f} SD<extra>"
                + model
                + "</extra>",
            )
        )
    fig.add_hline(y=0, line_dash="dot", line_color="grey")
    fig.update_layout(
        boxmode="group",
        title=title,
        height=460,
        legend={"orientation": "h", "y": -0.2},
        xaxis={"categoryorder": "array", "categoryarray": [GROUP_LABELS[g] for g in order]},
        yaxis_title="shift of the predicted score, in SDs of the model's G0 predictions",
        margin={"t": 70, "b": 120},
    )
    return fig


#: Marker colour of each family of the language-model ladder.
FAMILY_COLOURS = {
    "Kneser–Ney n-gram": "#1f77b4",
    "word unigram": "#2ca02c",
    "character transformer": "#d62728",
    "Hugging Face checkpoint": "#9467bd",
}
LADDER_MEASURES = {
    "mean_within_word_rho": ("within_ci_low", "within_ci_high", "mean within-word ρ"),
    "pooled_rho": ("pooled_jackknife_ci_low", "pooled_jackknife_ci_high", "pooled ρ"),
}


def _published_rho(published: pd.DataFrame) -> pd.DataFrame:
    """The self-information rows of the paper's Tables 2–3, ρ as numbers."""
    pub = published[published["method"] == "self_information"]
    return pub.assign(rho_avg=pd.to_numeric(pub["rho_avg"]))


def _ladder_rows(summary: pd.DataFrame, context: str) -> pd.DataFrame:
    return summary[summary["context"] == context].sort_values("heldout_perplexity")


def ladder_figure(
    summary: pd.DataFrame, published: pd.DataFrame, context: str = "without", title: str | None = None
) -> go.Figure:
    """Left: each rung of the ladder (:func:`helpers.slang.correlations.ladder_correlations`)
    by its held-out perplexity (log scale; better language models to the left) against its
    mean within-word ρ (filled, t interval over the words) and pooled ρ (open, word-jackknife
    interval), self-information ``context``. Right, for reference and not as a
    reproduction: the paper's pooled ρ of Tables 2–3 (172 candidates) in its models' order."""
    rows = _ladder_rows(summary, context)
    fig = make_subplots(
        rows=1,
        cols=2,
        column_widths=[0.68, 0.32],
        horizontal_spacing=0.09,
        subplot_titles=[
            f"this run: {len(rows)} language models, I {context} context",
            "published (Tables 2–3), for reference",
        ],
    )
    for family, g in rows.groupby("family", sort=False):
        for measure, (low, high, label) in LADDER_MEASURES.items():
            filled = measure == "mean_within_word_rho"
            fig.add_trace(
                go.Scatter(
                    x=g["heldout_perplexity"] * (1.0 if filled else 1.04),
                    y=g[measure],
                    mode="markers+text" if filled else "markers",
                    text=g["rung"] if filled else None,
                    textposition="top center",
                    name=f"{family}: {label}",
                    marker={
                        "color": FAMILY_COLOURS.get(family, "grey"),
                        "size": 10,
                        "symbol": "circle" if filled else "circle-open",
                    },
                    error_y={
                        "type": "data",
                        "symmetric": False,
                        "array": g[high] - g[measure],
                        "arrayminus": g[measure] - g[low],
                        "thickness": 1,
                        "width": 3,
                    },
                    customdata=g[["rung", "pooled_rho", "mean_within_word_rho", "p_within_word"]].to_numpy(),
                    hovertemplate="%{customdata[0]}<br>perplexity %{x:.0f}<br>pooled ρ %{customdata[1]:+.2f}"
                    "<br>mean within-word ρ %{customdata[2]:+.2f} (p %{customdata[3]:.3f})<extra></extra>",
                ),
                row=1,
                col=1,
            )
    fig.add_hline(y=0, line={"color": "grey", "width": 1}, row=1, col=1)
    pub = _published_rho(published)
    for ctx, g in pub.groupby("context", sort=False):
        fig.add_trace(
            go.Scatter(
                x=g["scorer"],
                y=g["rho_avg"],
                mode="lines+markers",
                name=f"paper, {ctx} context",
                marker={"color": "black", "symbol": "square" if ctx == context else "square-open"},
                line={"color": "black", "dash": "solid" if ctx == context else "dot"},
            ),
            row=1,
            col=2,
        )
    fig.add_hline(y=0, line={"color": "grey", "width": 1}, row=1, col=2)
    fig.update_xaxes(
        type="log", title_text="held-out perplexity per character (log; lower is a better model)", row=1, col=1
    )
    fig.update_xaxes(title_text="the paper's models", row=1, col=2)
    fig.update_yaxes(title_text="Spearman ρ with the human ratings", range=[-1.05, 1.05], row=1, col=1)
    fig.update_yaxes(range=[-1.05, 1.05], row=1, col=2)
    fig.update_layout(title=title, height=470, margin={"t": 90}, legend={"font": {"size": 10}})
    return fig
