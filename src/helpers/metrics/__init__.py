"""Chapter 09: do automatic metrics see what expert annotators see? Metric meta-evaluation on WMT data.

``data`` loads the test sets, outputs, published scores and human judgements; ``scores``
computes the metrics (sacrebleu's BLEU, chrF, chrF++, TER; an embedding similarity);
``meta`` the meta-evaluation statistics; ``chapter`` the chapter's steps; ``commands`` the
command line ``.venv/bin/python -m helpers metrics ...``.
"""
