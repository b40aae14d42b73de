"""The statistics every study shares: :mod:`~helpers.core.statistics.stats` (resampling,
intervals, paired tests, correlations), :mod:`~helpers.core.statistics.agreement` (agreement of
k ≥ 2 raters), :mod:`~helpers.core.statistics.schemes` (MQM weighting schemes as cited YAML,
``schemes/*.yml``) and :mod:`~helpers.core.statistics.scoring` (rater, segment and system scores)."""
