"""Search text read as a query: free words, phrases, exclusions and qualifiers.

Syntax: free words; ``"exact phrase"`` (required, and its last word is a prefix while the quote
is open); ``-word`` and ``-"phrase"`` exclude; ``key:value`` qualifiers (``qualifiers.py``),
each negatable with a leading ``-``. A value a qualifier does not take, and an unknown key
(``foo:bar``), are free text: nothing typed is an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from storage.search.qualifiers import QUALIFIER_KEYS, Qualifier, read_qualifier
from storage.search.text import WORD, folded, query_words


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: free words, exclusions, phrases and qualifiers, all normalised."""

    words: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    excluded_phrases: tuple[str, ...] = ()
    qualifiers: tuple[Qualifier, ...] = ()
    #: The last free word is still being typed (no space after it): match it as a prefix.
    typing: bool = False
    #: The last phrase has no closing quote yet: its last word is matched as a prefix.
    open_phrase: bool = False

    @property
    def is_empty(self) -> bool:
        """True when the query asks for nothing (every paper matches)."""
        return not (
            self.words or self.excluded or self.phrases or self.excluded_phrases or self.qualifiers
        )


_CHUNK: Final = re.compile(
    r"""(?P<neg>-?)(?:
        (?P<key>[A-Za-z]+):(?:"(?P<qval>[^"]*)"?|(?P<val>[^\s"]*))
      | "(?P<phrase>[^"]*)(?P<close>"?)
      | (?P<word>[^\s"]+)
    )""",
    re.VERBOSE,
)


def parse_query(text: str) -> Query:
    """Parse search text; unknown qualifiers (``foo:bar``) are free text, nothing is an error."""
    words: list[str] = []
    excluded: list[str] = []
    phrases: list[str] = []
    excluded_phrases: list[str] = []
    qualifiers: list[Qualifier] = []
    typing = open_phrase = False
    for match in _CHUNK.finditer(text):
        negated = bool(match.group("neg"))
        last = match.end() == len(text)
        typing = open_phrase = False
        key = match.group("key")
        if key is not None:
            value = match.group("qval")
            if value is None:
                value = match.group("val") or ""
            qualifier = read_qualifier(key.lower(), value, negated)
            if qualifier is not None:
                qualifiers.append(qualifier)
                continue
            if not value.strip() and key.lower() in QUALIFIER_KEYS:
                continue  # "is:" being typed: no filter yet
            chunk = f"{key} {value}"
        elif match.group("phrase") is not None:
            phrase = " ".join(WORD.findall(folded(match.group("phrase"))))
            if phrase:
                (excluded_phrases if negated else phrases).append(phrase)
                open_phrase = last and not match.group("close") and not negated
            continue
        else:
            chunk = match.group("word")
        found = query_words(chunk)
        if negated:
            excluded.extend(found)
        elif found:
            words.extend(found)
            typing = last and text[-1:].strip() != "" and WORD.search(text[-1]) is not None
    return Query(
        words=tuple(words),
        excluded=tuple(excluded),
        phrases=tuple(phrases),
        excluded_phrases=tuple(excluded_phrases),
        qualifiers=tuple(qualifiers),
        typing=typing,
        open_phrase=open_phrase,
    )
