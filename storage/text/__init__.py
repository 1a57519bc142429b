"""Text as papers-tui reads, compares and shows it: one home for every text rule.

- ``normalize``: the forms in which text is compared (``fold``) and keyed (``key``);
- ``symbols``: the LaTeX symbol table (Greek letters and friends), written once.

Pure standard library, total (no function raises on any string) and linear-time on hostile
input: every reader, the search index, similarity and the screen go through here.
"""
