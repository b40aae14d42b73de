"""WMT expert MQM (Freitag et al. 2021): Chapter 08, MetaHOPE's questions on real multi-rated MQM
segments, in any language pair.

* :mod:`~helpers.wmt.analysis` the chapter's analyses (published tables reproduced, the Major
  weight sweep, agreement under several schemes, system tests);
* :mod:`~helpers.wmt.categories_and_spans` the per-category and span views (category presence
  and its agreement, error spans and their agreement, penalties per category);
* :mod:`~helpers.wmt.figures` the system × category heatmap, the rank-stability curve, the
  rater-bias forest plot and the human-against-automatic rank slopes of the ESA section, each interactive with a static twin;
* :mod:`~helpers.wmt.ch08` chapter 08's parameter check, data boxes and their descriptions, and its
  findings read from the saved result tables.
"""

from .analysis import (
    COMPARED,
    compared_schemes,
    icc_by_documents,
    major_weight_agreement,
    major_weight_scheme,
    rankings,
    scheme_agreement,
    scheme_rankings,
    scheme_weights,
    segment_matrix,
    weight_sweep,
)
from .categories_and_spans import (
    category_penalties,
    category_presence,
    error_spans,
    presence_agreement,
    span_table,
    top_level,
)
from .readme_tables import REPO, TABLES, reproduce, rounding_summary
from .systems import certainty_overstatement, esa_ranking, system_kind, system_tests

__all__ = [
    "COMPARED",
    "REPO",
    "TABLES",
    "compared_schemes",
    "esa_ranking",
    "scheme_rankings",
    "scheme_weights",
    "system_kind",
    "category_penalties",
    "category_presence",
    "certainty_overstatement",
    "error_spans",
    "icc_by_documents",
    "major_weight_agreement",
    "major_weight_scheme",
    "presence_agreement",
    "rankings",
    "reproduce",
    "rounding_summary",
    "scheme_agreement",
    "segment_matrix",
    "span_table",
    "system_tests",
    "top_level",
    "weight_sweep",
]
