"""Helpers of the executable book on evaluating figurative and emotional language in MT.

Notebooks stay thin: loading, statistics, models, figures and running live here, tested.
The package mirrors the book:

* :mod:`helpers.core`: shared machinery, used by every chapter and importing no study
  (paths, data fetch, notebook runner and CLI, errors, parameter checks, cache, results
  writer, agreement and paired statistics, published-table comparison, report boxes,
  plotting base, transformer encoders);
* :mod:`helpers.metahope`: MetaHOPE error annotation (chapters 1–3, the classroom kit);
* :mod:`helpers.explanations`: six-dimension metaphor explanations (chapters 4–5);
* :mod:`helpers.slang`: homophone slang, emotion and QE robustness (chapters 6–7);
* :mod:`helpers.wmt`: WMT expert MQM (chapter 8).

Studies import :mod:`helpers.core`, never each other (a test checks this).

One vocabulary, in function parameters and new columns:

* ``rater``: a person who judges (an annotator, a student, an MQM rater);
* ``item``: one judged unit (a metaphor in a system's output, an explanation, a segment);
  a parameter naming the column(s) that identify it is ``item``, too;
* ``rho``: Spearman's ρ;
* ``p``: a p-value (qualified by what adjusted or produced it: ``p_holm``, ``p_cluster``).

Columns of released data and of the result files (``results/<chapter>/*.csv``) keep the
names they were published with (e.g. MetaHOPE's ``annotator``, the explanations'
``item_id``, ``p_value``): they are a public contract.
Command line: ``.venv/bin/python -m helpers --help``.
"""

import sys

__version__ = "0.2.0"

# jsonschema, which nbformat imports (and so papermill, nbconvert and Jupyter Book), loads
# rfc3987_syntax when it is installed (jupyter-events pulls it in), and that package compiles a
# Lark grammar for the "iri" formats at import: 3.2 s of the start of every process here that
# runs or renders a notebook (measured: `import papermill` 4.1 s, 0.9 s without). Nothing here
# checks an IRI (nbformat's schema has none), so the package is marked absent, and jsonschema
# leaves those two formats unchecked, as it does wherever the package is not installed.
sys.modules.setdefault("rfc3987_syntax", None)
