"""MetaHOPE: metaphor-translation error annotation (Liang & Han 2026). Chapters 1–3 and the classroom kit.

* :mod:`~helpers.metahope.load` annotations in whatever format a chapter is given, as
  :mod:`~helpers.metahope.tidy_frame` (the tidy frame and queries on it) through
  :mod:`~helpers.metahope.workbooks`, :mod:`~helpers.metahope.long_csv` or
  :mod:`~helpers.metahope.mqm_format`; :mod:`~helpers.metahope.release` names the released files;
* :mod:`~helpers.metahope.severity` the severity scale (levels, names) and its weighting schemes;
* :mod:`~helpers.metahope.scoring` SEGS, penalty tables (Tables 2–3), error profiles, POS;
* :mod:`~helpers.metahope.simulate` a seeded panel of simulated annotators (chapter 3);
* :mod:`~helpers.metahope.template` blank workbooks for a class;
* :mod:`~helpers.metahope.corpus` each annotated metaphor's type, from the corpora the pilots drew on;
* :mod:`~helpers.metahope.planning` how many sentences and raters a study needs, from real ratings;
* :mod:`~helpers.metahope.figures` the chapters' figures;
* :mod:`~helpers.metahope.ch01`, :mod:`~helpers.metahope.ch02`, :mod:`~helpers.metahope.ch03` chapters 1–3:
  parameter check, data box, steps and findings read back from the chapter's result CSVs;
* :mod:`~helpers.metahope.chapter_common` what chapters 1–3 have in common: their annotation parameter
  checks, the MQM data description, the projection of students, the few-clusters caveat.
"""

from .load import ClassAnnotations, load_annotations, load_class, load_study
from .long_csv import LONG_COLUMNS, read_long, to_long
from .mqm_format import MQM_COLUMNS, from_mqm, read_mqm_tsv, write_mqm_tsv
from .release import pilot_v1_files, pilot_v1_sentence_file, pilot_zh_en_file
from .scoring import (
    POS_CLASSES,
    count_sentences,
    disagreement_anatomy,
    disputed_items,
    error_profile,
    metaphor_share,
    normalise_pos,
    paired_segments,
    penalty_by_sentence,
    penalty_summary,
    pilot_v1_layout,
    pilot_v2_layout,
    pos_class,
    ratio_m_s,
    segment_scores,
    team_scores,
)
from .severity import SEVERITY_LEVELS, SEVERITY_NAMES, WEIGHTS, apply_weights
from .simulate import DEFAULT_PANEL, Annotator, panel_from_records, panel_table, sentence_units, simulate_annotations
from .template import write_templates
from .tidy_frame import CATEGORIES, TIDY_COLUMNS, category_order, is_metahope, severity_labels
from .workbooks import SYSTEM_NAMES, clean_sentence, parse_severity, read_sheet, read_workbook

__all__ = [
    "ClassAnnotations",
    "load_class",
    "category_order",
    "from_mqm",
    "is_metahope",
    "severity_labels",
    "CATEGORIES",
    "LONG_COLUMNS",
    "MQM_COLUMNS",
    "SEVERITY_LEVELS",
    "SEVERITY_NAMES",
    "SYSTEM_NAMES",
    "TIDY_COLUMNS",
    "clean_sentence",
    "load_annotations",
    "load_study",
    "parse_severity",
    "pilot_v1_files",
    "pilot_v1_sentence_file",
    "pilot_zh_en_file",
    "read_long",
    "read_mqm_tsv",
    "read_sheet",
    "read_workbook",
    "to_long",
    "write_mqm_tsv",
    "POS_CLASSES",
    "WEIGHTS",
    "apply_weights",
    "count_sentences",
    "disagreement_anatomy",
    "disputed_items",
    "error_profile",
    "team_scores",
    "metaphor_share",
    "normalise_pos",
    "paired_segments",
    "penalty_by_sentence",
    "penalty_summary",
    "pilot_v1_layout",
    "pilot_v2_layout",
    "ratio_m_s",
    "pos_class",
    "segment_scores",
    "DEFAULT_PANEL",
    "Annotator",
    "panel_from_records",
    "panel_table",
    "simulate_annotations",
    "sentence_units",
    "write_templates",
]
