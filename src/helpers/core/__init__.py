"""Shared machinery of the book; imports no study.

Used by every chapter:

* :mod:`~helpers.core.paths` where the project, its data and results live;
  :mod:`~helpers.core.fetch` the verified data download; :mod:`~helpers.core.kernel` the
  kernels, :mod:`~helpers.core.prefork` kernels forked from a warm process,
  :mod:`~helpers.core.execution` one notebook's papermill run,
  :mod:`~helpers.core.build` the book build, :mod:`~helpers.core.cli` ``.venv/bin/python -m helpers``;
* :mod:`~helpers.core.errors` the one input-error type; :mod:`~helpers.core.params` the
  parameter checks; :mod:`~helpers.core.cache` the one cache;
  :mod:`~helpers.core.results` the atomic results writer;
* :mod:`~helpers.core.annotations` the one model of error annotations (MQM/Marot files and
  MetaHOPE workbooks alike); :mod:`~helpers.core.mqm` Marot/WMT MQM TSV in and out;
  :mod:`~helpers.core.schemes` weighting schemes as cited YAML; :mod:`~helpers.core.scoring`
  rater, segment and system scores and their agreement (``.venv/bin/python -m helpers mqm``,
  :mod:`~helpers.core.mqm_commands`);
* :mod:`~helpers.core.agreement` inter-annotator agreement for k ≥ 2 raters;
  :mod:`~helpers.core.stats` the bootstrap, paired tests and within-group correlations;
  :mod:`~helpers.core.published` recomputed vs published tables;
  :mod:`~helpers.core.report` data boxes, readable tables;
  :mod:`~helpers.core.findings` each chapter's findings frame and the words that state it
  (``notebooks/words/<chapter>.md``); :mod:`~helpers.core.formatting` how every number prints;
  :mod:`~helpers.core.plots` offline plotly, static twins, the colour registry each study fills;
  :mod:`~helpers.core.encoder` transformer checkpoints, pooling, batching;
  :mod:`~helpers.core.workbook` what the classroom kits' blank workbooks share.
"""

from .errors import InputError

__all__ = ["InputError", "Provenance", "Results", "Words"]


def __getattr__(name: str):
    """``Provenance``, ``Results`` and ``Words`` are imported when first used, so that a command that
    needs neither (``.venv/bin/python -m helpers mqm``) does not pay for IPython and plotting (PEP 562)."""
    if name == "Provenance":
        from .report import Provenance

        return Provenance
    if name == "Results":
        from .results import Results

        return Results
    if name == "Words":
        from .findings import Words

        return Words
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
