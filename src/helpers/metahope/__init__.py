"""MetaHOPE: metaphor-translation error annotation (Liang & Han 2026). Chapters 1–3 and the classroom kit.

* :mod:`~helpers.metahope.io` workbooks, long CSV and MQM TSV in, tidy frames out;
* :mod:`~helpers.metahope.severity` the severity scale (levels, names) and its weighting schemes;
* :mod:`~helpers.metahope.scoring` SEGS, penalty tables (Tables 2–3), error profiles, POS;
* :mod:`~helpers.metahope.simulate` a seeded panel of simulated annotators (chapter 3);
* :mod:`~helpers.metahope.template` blank workbooks for a class;
* :mod:`~helpers.metahope.corpus` each annotated metaphor's type, from the corpora the pilots drew on;
* :mod:`~helpers.metahope.planning` how many sentences and raters a study needs, from real ratings;
* :mod:`~helpers.metahope.figures` the chapters' figures;
* :mod:`~helpers.metahope.ch01`, :mod:`~helpers.metahope.ch02` chapters 1 and 2: parameter check, data box,
  findings read back from the chapter's result CSVs;
* :mod:`~helpers.metahope.chapters` chapter 3's parameter check and data loader, and what the chapters share.
"""

from .io import (ClassAnnotations, load_class, category_order, from_mqm, is_metahope, severity_labels, CATEGORIES, LONG_COLUMNS, MQM_COLUMNS, SYSTEM_NAMES, TIDY_COLUMNS, clean_sentence,
                 load_annotations, load_study, parse_severity, pilot_v1_files, pilot_v1_sentence_file,
                 pilot_zh_en_file, read_long, read_mqm_tsv, read_sheet, read_workbook, to_long, write_mqm_tsv)
from .scoring import (POS_CLASSES, count_sentences, disagreement_anatomy, disputed_items,
                      error_profile, team_scores,
                      metaphor_share, normalise_pos, paired_segments, penalty_by_sentence, penalty_summary,
                      pilot_v1_layout, ratio_m_s,
                      pilot_v2_layout, pos_class, segment_scores)
from .severity import SEVERITY_LEVELS, SEVERITY_NAMES, WEIGHTS, apply_weights
from .simulate import DEFAULT_PANEL, Annotator, panel_from_records, panel_table, simulate_annotations, sentence_units
from .template import write_templates

__all__ = [
    "ClassAnnotations", "load_class", "category_order", "from_mqm", "is_metahope", "severity_labels",
    "CATEGORIES", "LONG_COLUMNS", "MQM_COLUMNS", "SEVERITY_LEVELS", "SEVERITY_NAMES", "SYSTEM_NAMES", "TIDY_COLUMNS", "clean_sentence",
    "load_annotations", "load_study", "parse_severity", "pilot_v1_files", "pilot_v1_sentence_file",
    "pilot_zh_en_file", "read_long", "read_mqm_tsv", "read_sheet", "read_workbook", "to_long", "write_mqm_tsv",
    "POS_CLASSES", "WEIGHTS", "apply_weights", "count_sentences", "disagreement_anatomy", "disputed_items",
    "error_profile", "team_scores",
    "metaphor_share", "normalise_pos", "paired_segments", "penalty_by_sentence", "penalty_summary",
    "pilot_v1_layout", "pilot_v2_layout", "ratio_m_s",
    "pos_class", "segment_scores",
    "DEFAULT_PANEL", "Annotator", "panel_from_records", "panel_table", "simulate_annotations", "sentence_units",
    "write_templates",
]
