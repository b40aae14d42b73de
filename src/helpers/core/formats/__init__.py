"""The file formats the book reads: error annotations (:mod:`~helpers.core.formats.annotations`),
MQM/Marot TSVs (:mod:`~helpers.core.formats.mqm`), ESA files (:mod:`~helpers.core.formats.esa`),
published and measured tables, and the verified download of the data
(:mod:`~helpers.core.formats.fetch`)."""
