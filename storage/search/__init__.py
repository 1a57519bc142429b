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
- ``filters``: qualifier masks, phrases and exclusions; ``matching``: which papers the words
  select (every word, ``OR`` groups, else the closest); ``ranking``: scores, bonuses, best-k;
- ``hits``: ``Ranking`` (with ``partial`` when no paper has every word) and ``SearchHit``,
  matched words explained lazily;
- ``none_found``: why a search found no paper (``Ranking.why_none``): a field no paper of the
  library has, a part of the query that matches none, parts with no paper in common;
- ``index``: ``SearchIndex``, composing them behind one lock;
- ``store``: the index on disk (``search.index`` beside ``papers.json``), memory-mapped and
  reused only while it matches the papers it was built from (``index_for``).

Every name is imported on first use, so that reading the qualifiers (for a help text or the
app's search hint, at start) costs neither the text rules nor numpy and rapidfuzz.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storage.search.hits import Ranking, SearchHit
    from storage.search.index import SearchIndex
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

#: The package's names, by the module that defines them.
_WHERE = {
    "SearchIndex": "storage.search.index",
    "SearchHit": "storage.search.hits",
    "Ranking": "storage.search.hits",
    "Query": "storage.search.query",
    "parse_query": "storage.search.query",
    **dict.fromkeys(["max_typos", "method_name", "normalize", "tokenize"], "storage.search.text"),
    **dict.fromkeys(
        [
            "QUALIFIER_KEYS",
            "QUALIFIERS",
            "Qualifier",
            "QualifierKind",
            "qualifier_help",
            "qualifier_markdown",
            "search_hint",
        ],
        "storage.search.qualifiers",
    ),
}


def __getattr__(name: str) -> Any:
    """A name of the package, imported when first asked for."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
