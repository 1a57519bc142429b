"""Titles written in rich text, as read: ``YBa<inf>2</inf>Cu<inf>3</inf>O`` is ``YBa₂Cu₃O``.

CSL-JSON marks a title's italics, bold, small capitals and scripts with a few HTML elements
(``<i>``, ``<b>``, ``<sup>``, ``<sub>``, ``<span style="font-variant:small-caps;">``, ``<span
class="nocase">``: the CSL specification's "rich text"), and Zotero keeps a title so, whatever
it exports it to (RIS, CSV, its RDF and Web API JSON); Scopus writes its subscripts
``<inf>…</inf>`` (its CSV, RIS and BibTeX). Read as text, those titles showed their tags.

``plain_title`` gives the text those elements hold: a sub- or superscript in Unicode's script
characters when every character of it has one (``H₂O``, ``x²``), else as it is (``O7−z``), so
that it matches the same title from a source that wrote it plain (Crossref's titles are read
without their markup: ``storage.sources.csl_json.markup_free``). Only these elements, opened
and closed around text: ``a <b> c`` and ``x < y`` stay as they are. Linear in the text's length.

The readers of the formats that hold such titles call it (CSL-JSON, RIS, Zotero's and Scopus's
CSV rows, EndNote XML, Zotero RDF and Web API JSON, OpenAlex's works and a plain JSON list's
records, as APIs and scrapers write them; DBLP's XML, whose markup is elements, its rule for
scripts: ``script_text``), our own exports excepted; a plain text, Markdown or CSV list's
title is its text as written, ``<b>`` and all.
"""

from __future__ import annotations

import re
from typing import Final

from storage.text.symbols import SUBSCRIPTS, SUPERSCRIPTS

__all__ = ["plain_title", "script_text"]

#: One of the elements, around text that holds no other tag; its name is group 1.
_ELEMENT: Final = re.compile(
    r"<(i|b|em|strong|u|sc|sub|sup|inf|span)(?:\s[^<>]*)?>([^<>]*)</\1\s*>", re.IGNORECASE
)
#: How deep elements may sit inside one another (``<b><i>x</i></b>``): each pass opens one.
_MAX_DEPTH: Final = 4


def _script(match: re.Match[str]) -> str:
    return script_text(match.group(1), match.group(2))


def script_text(name: str, text: str) -> str:
    """The text of an element ``name`` as ``plain_title`` reads it: a ``sup``, ``sub`` or
    ``inf`` in Unicode's script characters when every character has one, else as it is (for
    a reader that meets the elements as elements: DBLP's XML)."""
    name = name.casefold()
    table = SUPERSCRIPTS if name == "sup" else SUBSCRIPTS if name in ("sub", "inf") else None
    if table is not None and text and all(c in table for c in text):
        return "".join(table[c] for c in text)
    return text


def plain_title(text: str) -> str:
    """``text`` without the rich-text elements of CSL and Scopus (see the module)."""
    for _ in range(_MAX_DEPTH):
        if "<" not in text:
            break
        text, made = _ELEMENT.subn(_script, text)
        if not made:
            break
    return text
