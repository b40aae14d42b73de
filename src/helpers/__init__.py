"""Helpers for the executable book on evaluating figurative and emotional language in MT.

Notebooks stay thin: loading, statistics, plotting and running live here.

Modules
-------
paths      where the project, its data and its results live
fetch      download or copy the upstream data listed in ``data/sources.yml``, verified by sha256
metahope   MetaHOPE annotation workbooks -> tidy frames, penalty scoring (Liang & Han 2026)
agreement  inter-annotator agreement: Krippendorff's alpha, weighted kappa, r, bootstrap CIs
compare    recomputed tables side by side with published ones
plots      interactive plotly figures (offline) with static seaborn twins
runner     papermill execution of the notebooks and the Jupyter Book build
"""

__version__ = "0.1.0"
