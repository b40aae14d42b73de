"""Chapter 09: do automatic metrics see what expert annotators see? Metric meta-evaluation on WMT data.

* :mod:`~helpers.metrics.data` the WMT test sets, outputs, published scores and human judgements;
  :mod:`~helpers.metrics.files` a researcher's own texts, human scores and metric score files;
* :mod:`~helpers.metrics.scores` the metrics (sacrebleu's BLEU, chrF, chrF++, TER; an embedding
  similarity) and the script check of a reference or output file;
* :mod:`~helpers.metrics.correlations` the agreement statistics on arrays, :mod:`~helpers.metrics.meta`
  the meta-evaluation tables, :mod:`~helpers.metrics.significance` PERM-BOTH and the significance
  clusters of metrics;
* :mod:`~helpers.metrics.ch09` the chapter's steps, :mod:`~helpers.metrics.ch09_findings` its findings
  (importable from ``ch09``), :mod:`~helpers.metrics.figures` its figures; :mod:`~helpers.metrics.commands` and :mod:`~helpers.metrics.meta_command` the command line
  ``.venv/bin/python -m helpers metrics ...``.
"""

from ..core.statistics.correlation import kendall_tau_b, pearson
from .correlations import pairwise_accuracy, snap_ties, tie_calibrated_accuracy
from .meta import meta_evaluate, segment_choice, system_level_scores
from .significance import compare_metrics, metric_clusters, perm_both

__all__ = [
    "kendall_tau_b",
    "pairwise_accuracy",
    "pearson",
    "snap_ties",
    "tie_calibrated_accuracy",
    "meta_evaluate",
    "segment_choice",
    "system_level_scores",
    "compare_metrics",
    "metric_clusters",
    "perm_both",
]
