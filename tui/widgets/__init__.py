"""Widgets of papers-tui: the paper list (Line API) and the paper detail."""
