"""Helpers of the executable book on evaluating figurative and emotional language in MT.

Notebooks stay thin: loading, statistics, models, figures and running live here, tested.
The package mirrors the book:

* :mod:`helpers.core`: shared machinery, used by every chapter and importing no study
  (paths, data fetch, notebook runner and CLI, errors, parameter checks, cache, results
  writer, agreement and paired statistics, published-table comparison, report boxes,
  plotting base, transformer encoders);
* :mod:`helpers.metahope`: MetaHOPE error annotation (chapters 1–3, the classroom kit);
* :mod:`helpers.explanations`: six-dimension metaphor explanations (chapters 4–5);
* :mod:`helpers.slang`: homophone slang, emotion and QE robustness (chapters 6–7).

Studies import :mod:`helpers.core`, never each other (a test checks this).
Command line: ``python -m helpers --help``.
"""

__version__ = "0.2.0"
