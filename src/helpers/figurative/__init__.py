"""Figurative language at scale: Chinese idioms in expert-rated WMT ZH→EN data. Chapter 10.

* :mod:`~helpers.figurative.idioms` the idiom detectors (the Xinhua list ``xinhua``, jieba's ``i``
  tag, ``filtered``, ``strict``), their precision on the authored sample, the PSUCMC check;
* :mod:`~helpers.figurative.gold` Song & Xu's WMT22 labels and the detectors measured against them;
* :mod:`~helpers.figurative.wmt22` WMT22 ZH→EN (mt-metrics-eval layout) as the chapter's rows;
* :mod:`~helpers.figurative.design` the idiom effect with a document-cluster bootstrap of whole
  segments, a segment-level permutation test and the MDD; pooled, class and group contrasts;
* :mod:`~helpers.figurative.metric_gaps` which metrics miss idioms;
* :mod:`~helpers.figurative.analysis` the older sets: flags joined to MQM penalties, penalties by
  category, rater agreement, HADQAET's word tags; :mod:`~helpers.figurative.error_spans` source
  spans on an idiom against chance;
* :mod:`~helpers.figurative.template` the class activity (pairs label matches blind);
* :mod:`~helpers.figurative.ch10` the chapter, :mod:`~helpers.figurative.page` its findings by
  section, :mod:`~helpers.figurative.figures` its figures.
"""

from .idioms import DETECTORS, find_idioms, precision_table, psucmc_coverage, read_sample

__all__ = ["DETECTORS", "find_idioms", "precision_table", "psucmc_coverage", "read_sample"]
