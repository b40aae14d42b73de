"""Shared machinery of the book; imports no study. Laid out by role:

* :mod:`~helpers.core.statistics`: the statistics every study shares:
  :mod:`~helpers.core.statistics.stats` (the bootstrap, paired tests, within-group
  correlations), :mod:`~helpers.core.statistics.agreement` (inter-annotator agreement for
  k ≥ 2 raters), :mod:`~helpers.core.statistics.schemes` (weighting schemes as cited YAML) and
  :mod:`~helpers.core.statistics.scoring` (rater, segment and system scores and their agreement);
* :mod:`~helpers.core.formats`: the files the book reads: :mod:`~helpers.core.formats.annotations`
  the one model of error annotations (MQM/Marot files and MetaHOPE workbooks alike),
  :mod:`~helpers.core.formats.mqm` Marot/WMT MQM TSV in and out, :mod:`~helpers.core.formats.esa`
  WMT24/25 ESA, :mod:`~helpers.core.formats.published` recomputed vs published tables,
  :mod:`~helpers.core.formats.measured` the measurements in ``data/measured/``,
  :mod:`~helpers.core.formats.fetch` the verified data download;
* :mod:`~helpers.core.book`: the machinery that builds the book and runs its chapters:
  :mod:`~helpers.core.book.cli` ``.venv/bin/python -m helpers`` (:mod:`~helpers.core.book.mqm_commands`,
  :mod:`~helpers.core.book.esa_commands`), :mod:`~helpers.core.book.kernel` the kernels,
  :mod:`~helpers.core.book.prefork` kernels forked from a warm process,
  :mod:`~helpers.core.book.execution` one notebook's papermill run, :mod:`~helpers.core.book.build`
  the book build, :mod:`~helpers.core.book.results` the atomic results writer,
  :mod:`~helpers.core.book.report` data boxes, readable tables, :mod:`~helpers.core.book.findings`
  each chapter's findings frame and the words that state it (``notebooks/words/<chapter>.md``),
  :mod:`~helpers.core.book.formatting` how every number prints, :mod:`~helpers.core.book.plots`
  offline plotly, static twins, the colour registry each study fills,
  :mod:`~helpers.core.book.pages` the words of handouts, :mod:`~helpers.core.book.editions` the
  student edition, :mod:`~helpers.core.book.export` standalone HTML pages;
* :mod:`~helpers.core.classroom`: a class's returned workbooks (students, unfinished rows,
  feedback privacy) and :mod:`~helpers.core.classroom.workbook` what the kits' blank workbooks share;
* here: :mod:`~helpers.core.errors` the one input-error type; :mod:`~helpers.core.paths` where the
  project, its data and results live; :mod:`~helpers.core.params` the parameter checks;
  :mod:`~helpers.core.cache` the one cache; :mod:`~helpers.core.encoder` transformer checkpoints,
  pooling, batching.
"""

from .errors import InputError

__all__ = ["InputError", "Provenance", "Results", "Words"]


def __getattr__(name: str):
    """``Provenance``, ``Results`` and ``Words`` are imported when first used, so that a command that
    needs neither (``.venv/bin/python -m helpers mqm``) does not pay for IPython and plotting (PEP 562)."""
    if name == "Provenance":
        from .book.report import Provenance

        return Provenance
    if name == "Results":
        from .book.results import Results

        return Results
    if name == "Words":
        from .book.findings import Words

        return Words
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
