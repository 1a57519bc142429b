"""Derive a short title for a paper that only comes with an abstract.

A plain-text paper list gives abstracts without titles. The app still needs something short to
show in the paper list, so this package reads the abstract and builds one:

* when the abstract introduces a named method, benchmark, dataset or model ("we propose
  ParaSolver, a hierarchical parallel sampling technique that ..."), the title is that name
  followed by the phrase the abstract itself uses to describe it (``ParaSolver: hierarchical
  parallel sampling technique``, ``HELMET: How to Evaluate Long-context Models Effectively and
  Thoroughly``, ``CollabEdit: non-destructive collaborative knowledge editing framework``);
* otherwise it is the main contribution clause ("We present the first comprehensive finite-time
  global convergence analysis of ..." -> ``Finite-time global convergence analysis of ...``).

Titles never exceed :data:`MAX_TITLE_LENGTH` characters and are never empty for a non-blank
abstract. LaTeX, Markdown and URLs are stripped. Everything is plain ``re`` work: no regular
expression here can backtrack catastrophically, and very long inputs are cut to their first
``names.MAX_SCAN_CHARS`` characters before any analysis.

One module per step, in the order they run:

- ``clean``: the abstract as plain text on one line (LaTeX and Markdown through the display
  converter, links and URLs dropped);
- ``sentences``: sentences, and what each says (introducing verbs, name-like tokens, "we");
- ``tokens``: how much a token looks like a coined name, and the field's common vocabulary;
- ``acronyms``: "Long Form (ACR)" definitions (Schwartz & Hearst);
- ``cues``: how strongly the context of one occurrence says the name is introduced there;
- ``names``: candidates, the best of them, the repositories' hint (:func:`find_introduced_name`);
- ``phrases``: the abstract's own description of the name, or its main contribution;
- ``fit``: a phrase cut to fit a title, at a clause boundary;
- ``derive``: the title itself (:func:`derive_title`).
"""

from __future__ import annotations

from storage.sources.titles.clean import clean_text
from storage.sources.titles.derive import DerivedTitle, derive_title
from storage.sources.titles.fit import MAX_TITLE_LENGTH
from storage.sources.titles.names import find_introduced_name

__all__ = [
    "MAX_TITLE_LENGTH",
    "DerivedTitle",
    "clean_text",
    "derive_title",
    "find_introduced_name",
]
