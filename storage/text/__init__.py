"""Text as papers-tui reads, compares and shows it: one home for every text rule.

- ``normalize``: the forms in which text is compared (``fold``) and keyed (``key``);
- ``symbols``: the LaTeX symbol tables (Greek letters, operators, accents, math alphabets, scripts);
- ``latex``: the one LaTeX and Markdown to Unicode converter (``to_unicode``), for display;
- ``source_text``: display text written back as the converter's source (``literal``);
- ``line_breaks``: a word a line's end broke at its hyphen read whole, on screen and by the
  search index alike (``joined_at_hyphens``, ``shown_whole``);
- ``highlight``: where the words a search matched occur in a text (``highlight_spans``);
- ``sanitize``: text safe for a terminal, control characters made visible (``printable``);
- ``words``: numbers in sentences, the noun in the right number (``count``: "1 paper").

Pure standard library, total (no function raises on any string) and linear-time on hostile
input: every reader, the search index, similarity and the screen go through here.
"""
