"""The field's files, in one layer: readers of every format the book reads, and the one registry
of test sets.

* error annotations (:mod:`~helpers.core.formats.annotations`), MQM/Marot TSVs and
  ``avg_seg_scores`` (:mod:`~helpers.core.formats.mqm`), ESA CSV/JSONL
  (:mod:`~helpers.core.formats.esa`), WMT ``txt`` releases (:mod:`~helpers.core.formats.texts`),
  mt-metrics-eval's layout for any language pair (:mod:`~helpers.core.formats.mtme`);
* the registry of test sets: name, files, language pair, how segments join
  (:mod:`~helpers.core.formats.testsets`);
* published and measured tables, and the verified download of the data
  (:mod:`~helpers.core.formats.fetch`).

Studies import these; these import no study.
"""
