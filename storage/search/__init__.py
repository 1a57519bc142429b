"""Search as you type over a library: typo tolerant, prefix aware, field weighted, with qualifiers.

``SearchIndex(papers)`` is an inverted index built once per library load and extended by
``add`` after an import. Each query word is first matched against the *vocabulary* (exact,
prefix, or within a small edit distance, scored by rapidfuzz), never against whole documents;
the postings of the matching index words are then accumulated with numpy into per-paper scores.

Where things are, one idea per module:

- ``text``: the words of a text and of a query (tokenising, compounds, camelCase, typos allowed);
- ``qualifiers``: every ``key:value`` qualifier declared once, and the help texts made from them;
- ``query``: search text read as a ``Query`` (``parse_query``);
- ``postings``, ``build``, ``table``, ``vocabulary``: what the index holds, and how it is built;
- ``filters``: qualifier masks, phrases and exclusions; ``ranking``: scores, bonuses, best-k;
- ``hits``: ``Ranking`` and ``SearchHit``, matched words explained lazily;
- ``index``: ``SearchIndex``, composing them behind one lock.

The index itself (numpy, rapidfuzz) is imported on first use, so that reading the qualifiers
(for a help text or a hint) costs no numerical library.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from storage.search.qualifiers import (
    QUALIFIER_KEYS,
    QUALIFIERS,
    Qualifier,
    QualifierKind,
    qualifier_help,
    qualifier_markdown,
    search_hint,
)
from storage.search.query import Query, parse_query
from storage.search.text import max_typos, method_name, normalize, tokenize

if TYPE_CHECKING:
    from storage.search.hits import Ranking, SearchHit
    from storage.search.index import SearchIndex

__all__ = [
    "QUALIFIERS",
    "QUALIFIER_KEYS",
    "Qualifier",
    "QualifierKind",
    "Query",
    "Ranking",
    "SearchHit",
    "SearchIndex",
    "max_typos",
    "method_name",
    "normalize",
    "parse_query",
    "qualifier_help",
    "qualifier_markdown",
    "search_hint",
    "tokenize",
]

#: Names whose modules load numpy, by the module that defines them.
_INDEX_NAMES = {
    "SearchIndex": "storage.search.index",
    "SearchHit": "storage.search.hits",
    "Ranking": "storage.search.hits",
}


def __getattr__(name: str) -> Any:
    """The index's names, imported when first asked for."""
    module = _INDEX_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
