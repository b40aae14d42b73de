"""The field's files: readers of every format the book reads, and the one registry of test sets.

Studies import these; these import no study.
"""
