"""Homophone slang and emotion in Chinese user-generated content (Qian et al. 2025). Chapters 6–7.

* :mod:`~helpers.slang.homophones` Algorithm 1 candidates, percentile and self-information
  scores, language models, substitution;
* :mod:`~helpers.slang.emotion` the emotion classifier and the label-consistency check;
* :mod:`~helpers.slang.qe_data` HADQAET and its MTL4QE split: loaders, alignment, checks;
* :mod:`~helpers.slang.qe_models` QE models trained here;
* :mod:`~helpers.slang.robustness` perturbations and robustness tables;
* :mod:`~helpers.slang.chapters` each chapter's parameter check and data loader.
"""

from .homophones import SLANG, SLANG_ROOTS, replace_spans, substitute

__all__ = ["SLANG", "SLANG_ROOTS", "replace_spans", "substitute"]
