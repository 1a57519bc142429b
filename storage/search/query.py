"""Search text read as a query: free words, phrases, exclusions and qualifiers.

Syntax: free words; ``"exact phrase"`` (required, and its last word is a prefix while the quote
is open); ``-word`` and ``-"phrase"`` exclude; ``key:value`` qualifiers (``qualifiers.py``),
each negatable with a leading ``-``; ``OR`` (upper case, as on GitHub and Google) between two
words or phrases makes them alternatives (``diffusion OR flow matching`` wants "matching" and
one of "diffusion" and "flow"). A value a qualifier does not take, an unknown key
(``foo:bar``), a lower-case "or" and an ``OR`` with nothing to join are free text or nothing:
nothing typed is an error.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Final

from storage.errors import LibraryError
from storage.search.qualifiers import (
    QUALIFIER_KEYS,
    Qualifier,
    empty_value_note,
    may_be_typing,
    read_qualifier,
    unread_note,
    values_hint,
)
from storage.search.text import WORD, folded, query_words

#: The hyphens that join the parts of a compound (``storage.search.text``'s).
_HYPHENS: Final = "-\u2010\u2011"
#: The word that joins two terms as alternatives.
OR: Final = "OR"
#: What an ``OR`` beside a qualifier does (nothing: ``status:oral OR status:spotlight`` wants
#: both), said as a query's unread words are.
OR_QUALIFIER_NOTE: Final = (
    "OR joins words and phrases, not qualifiers: beside one it joins nothing (both must hold)"
)
#: What a ``-`` with nothing after it does (nothing: ``-word`` leaves papers out).
LONE_DASH_NOTE: Final = "a lone - leaves nothing out (-word, no space)"


#: The longest query read, and the most terms (words, phrases, qualifiers, exclusions) taken
#: from it: a real query is a line of a few words; a megabyte of text is none (it once took a
#: search 68 s, and 200 qualifiers 5 s). Past them the query is cut, and says so (``cut``).
MAX_QUERY_CHARS: Final = 2000
MAX_QUERY_TERMS: Final = 50


class QueryTooBigError(LibraryError, ValueError):
    """A query past ``MAX_QUERY_CHARS`` or ``MAX_QUERY_TERMS`` (one line, naming the cap)."""


def query_problem(text: str) -> str:
    """Why ``text`` is too big to be a query ("" when it is not): what ``parse_query`` cuts."""
    if len(text) > MAX_QUERY_CHARS:
        return f"the query is {len(text):,} characters long (at most {MAX_QUERY_CHARS:,})"
    terms = sum(1 for _ in itertools.islice(_CHUNK.finditer(text), MAX_QUERY_TERMS + 1))
    if terms > MAX_QUERY_TERMS:
        return f"the query has more than {MAX_QUERY_TERMS} terms (at most {MAX_QUERY_TERMS})"
    return ""


def check_query(text: str) -> str:
    """``text`` when it is within the caps; ``QueryTooBigError`` otherwise."""
    problem = query_problem(text)
    if problem:
        raise QueryTooBigError(problem)
    return text


@dataclass(frozen=True, slots=True)
class Term:
    """One term typed: the positions of its words in ``Query.words`` (a chunk such as
    ``graph/neural`` gives two), or of its phrase in ``Query.phrases``."""

    words: tuple[int, ...] = ()
    phrase: int | None = None


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
    #: Terms joined by ``OR``, each group in the order typed: a paper needs one term of each
    #: group (its words and phrases are also in ``words`` and ``phrases``).
    either: tuple[tuple[Term, ...], ...] = ()
    #: Why the text was cut to the caps before it was read ("" when it was not).
    cut: str = ""
    #: A note for each ``key:value`` of a qualifier's key whose value it does not take, read
    #: as words (``is:skiped``: a typo that would otherwise find nothing in silence).
    unread: tuple[str, ...] = ()
    #: The last of ``unread`` ends the text and may be a value still being typed (``rating:>``).
    unread_typing: bool = False
    #: What is said instead of that last note while it is typed: the values a qualifier with
    #: none yet takes (``is: takes inbox, read, skipped or starred``), else "" (nothing).
    typing_note: str = ""

    def unread_notes(self, *, typed: bool = False) -> tuple[str, ...]:
        """``unread``; with ``typed``, one that may still be being typed is its
        ``typing_note`` (or nothing)."""
        if not (typed and self.unread_typing):
            return self.unread
        return self.unread[:-1] + ((self.typing_note,) if self.typing_note else ())

    def grouped(self) -> tuple[frozenset[int], frozenset[int]]:
        """The positions of the words, and of the phrases, that belong to an ``OR`` group."""
        terms = [term for group in self.either for term in group]
        words = frozenset(i for term in terms for i in term.words)
        phrases = frozenset(term.phrase for term in terms if term.phrase is not None)
        return words, phrases

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
    """Parse search text; unknown qualifiers (``foo:bar``) are free text, nothing is an error.

    Text past the caps is not read: the first ``MAX_QUERY_CHARS`` characters (up to a space),
    the first ``MAX_QUERY_TERMS`` terms; ``Query.cut`` says so."""
    cut = query_problem(text)
    if len(text) > MAX_QUERY_CHARS:
        head = text[:MAX_QUERY_CHARS]
        space = head.rfind(" ")
        text = head[:space] if space > 0 else head
    words: list[str] = []
    excluded: list[str] = []
    phrases: list[str] = []
    excluded_phrases: list[str] = []
    qualifiers: list[Qualifier] = []
    unread: list[str] = []
    unread_typing = False
    typing_note = ""
    groups = _Groups()
    typing = open_phrase = False
    after = ""  # what the chunk before was: "or", "qualifier" or ""
    for match in itertools.islice(_CHUNK.finditer(text), MAX_QUERY_TERMS):
        negated = bool(match.group("neg"))
        last = match.end() == len(text)
        typing = open_phrase = False
        key = match.group("key")
        before, after = after, ""
        if key is not None:
            value = match.group("qval")
            if value is None:
                value = match.group("val") or ""
            qualifier = read_qualifier(key.lower(), value, negated)
            if qualifier is not None:
                qualifiers.append(qualifier)
                groups.other()
                after = "qualifier"
                if before == "or" and OR_QUALIFIER_NOTE not in unread:
                    unread.append(OR_QUALIFIER_NOTE)
                continue
            if not value.strip() and key.lower() in QUALIFIER_KEYS:
                groups.other()  # "is:" being typed: no filter yet; left so, it is said
                unread.append(empty_value_note(key.lower()))
                unread_typing = last
                typing_note = values_hint(key.lower()) if last else ""  # what to type
                continue
            note = unread_note(key.lower(), value)
            if note:
                unread.append(note)
                unread_typing = last and may_be_typing(key.lower(), value)
            chunk = f"{key} {value}"
        elif match.group("phrase") is not None:
            phrase = " ".join(WORD.findall(folded(match.group("phrase"))))
            if phrase and not negated:
                groups.term(Term(phrase=len(phrases)))
                phrases.append(phrase)
                open_phrase = last and not match.group("close")
            else:
                groups.other()
                if phrase:
                    excluded_phrases.append(phrase)
            continue
        else:
            chunk = match.group("word")
            if chunk == "-":  # an exclusion yet to be typed, or a dash left alone
                groups.other()
                unread.append(LONE_DASH_NOTE)
                unread_typing = last
                continue
            if chunk == OR and not negated:
                groups.join()
                after = "or"
                if before == "qualifier" and OR_QUALIFIER_NOTE not in unread:
                    unread.append(OR_QUALIFIER_NOTE)
                continue
        found = query_words(chunk)
        if negated:
            excluded.extend(found)
            groups.other()
        elif found:
            groups.term(Term(words=tuple(range(len(words), len(words) + len(found)))))
            words.extend(found)
            # still typed: its last letter, or a hyphen (``state-of-``: a compound goes on)
            typing = last and (WORD.search(text[-1]) is not None or text[-1] in _HYPHENS)
        else:
            groups.other()
    return Query(
        words=tuple(words),
        excluded=tuple(excluded),
        phrases=tuple(phrases),
        excluded_phrases=tuple(excluded_phrases),
        qualifiers=tuple(qualifiers),
        typing=typing,
        open_phrase=open_phrase,
        either=groups.found(),
        cut=cut,
        unread=tuple(unread),
        unread_typing=unread_typing,
        typing_note=typing_note,
    )


class _Groups:
    """The ``OR`` groups of a query, as its chunks are read: an ``OR`` joins the term just before
    it to the term just after it; anything else between them (a qualifier, an exclusion, the
    end of the text) leaves it joining nothing."""

    def __init__(self) -> None:
        self._groups: list[list[Term]] = []
        self._previous: Term | None = None
        self._joining: Term | None = None

    def term(self, term: Term) -> None:
        """A word or phrase the query wants."""
        joining, self._joining, self._previous = self._joining, None, term
        if joining is None:
            return
        if self._groups and self._groups[-1][-1] is joining:
            self._groups[-1].append(term)
        else:
            self._groups.append([joining, term])

    def join(self) -> None:
        """An ``OR``: the previous term, if any, is joined to the next."""
        self._joining, self._previous = self._previous, None

    def other(self) -> None:
        """A chunk that is not a wanted term: it breaks any ``OR`` in progress."""
        self._joining = self._previous = None

    def found(self) -> tuple[tuple[Term, ...], ...]:
        """The groups, each in the order typed."""
        return tuple(tuple(group) for group in self._groups)
