"""Automatic MT metrics and their meta-evaluation against human judgements (chapter 09)."""
