"""Figurative language at scale: Chinese idioms in expert-rated WMT ZH→EN data. Chapter 10.

* :mod:`~helpers.figurative.idioms` the idiom detectors (jieba's ``i`` tag, ``filtered``,
  ``strict``), their precision on the authored sample, and the PSUCMC metaphor-word check;
* :mod:`~helpers.figurative.analysis` idiom flags joined to MQM segment penalties, the idiom
  effect (mixed model and document-cluster bootstrap, with the minimum detectable difference)
  and the overlap of source-side error spans with idioms against chance, per-system effects, the
  LLM contrast, rater agreement and chrF–human correlation on idiom vs other segments;
* :mod:`~helpers.figurative.ch10` the chapter's set-up, data box, steps, gallery and findings;
* :mod:`~helpers.figurative.figures` its figures.
"""

from .idioms import DETECTORS, find_idioms, precision_table, psucmc_coverage, read_sample

__all__ = ["DETECTORS", "find_idioms", "precision_table", "psucmc_coverage", "read_sample"]
