"""Search as you type over a library: typo tolerant, prefix aware, field weighted, with qualifiers.

The index is an inverted index built once per library load (``SearchIndex(papers)``) and extended
by ``add`` after an import. Each query word is first matched against the *vocabulary* (exact,
prefix, or within a small edit distance, scored by rapidfuzz), never against whole documents; the
postings of the matching index words are then accumulated with numpy into per-paper scores.

Ranking, in order of precedence:

1. how many query words a paper matches (all words beat some);
2. a bonus when the query names the paper's method (``ParaSolver``) or, typed in order, is a
   phrase of its title;
3. the sum over query words of ``quality * idf * field_score``: ``quality`` is 1 for an exact
   word, less for a completion of a prefix or a typo; ``idf`` is BM25's inverse document
   frequency; ``field_score`` adds a BM25-saturated term frequency per field, weighted title 3,
   method name 2.5, authors 2, abstract 1.

Query syntax (see ``parse_query``): free words; ``"exact phrase"`` (required, and its last word
is a prefix while the quote is open); ``-word`` and ``-"phrase"`` exclude; and qualifiers as on
GitHub, each negatable with a leading ``-``, all case-insensitive:

- ``is:inbox|read|skipped|starred`` (also ``new``, ``skip``, ``star``, or any prefix: ``is:st``);
- ``has:code``: the paper links a GitHub repository;
- ``status:oral|spotlight|poster``: the venue status starts with the value;
- ``author:NAME``: each word matches a word of one author's name (exactly, by prefix or typo);
- ``list:NAME`` / ``tag:NAME``: the value is part of one of the paper's lists / tags.

A value that is not one of ``is:``'s or ``has:``'s, and an unknown key (``foo:bar``), are free
text; a key with no value yet (``is:`` while typing) filters nothing.
"""

from __future__ import annotations

import bisect
import math
import re
import threading
import unicodedata
from array import array
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import repeat
from typing import Final

import numpy as np
import numpy.typing as npt
from rapidfuzz import process
from rapidfuzz.distance import OSA

from storage.gc_pause import collector_paused
from storage.models import Paper, Status

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Field names, in the order of their bit in a posting's field mask.
FIELDS: Final[tuple[str, ...]] = ("title", "name", "authors", "abstract")
_AUTHORS = FIELDS.index("authors")
#: The fields (indices) set in each 4-bit field mask.
_FIELDS_OF_MASK: Final = tuple(tuple(f for f in range(4) if bits >> f & 1) for bits in range(16))
_FIELD_WEIGHTS: Final = np.array([3.0, 2.5, 2.0, 1.0], dtype=np.float64)
#: BM25 length normalisation per field: titles and names are short and even, abstracts are not.
_FIELD_B: Final = np.array([0.5, 0.2, 0.3, 0.75], dtype=np.float64)
_K1: Final = 1.2
#: Papers whose postings are built at a time (bounds the build's temporary memory).
_BUILD_CHUNK: Final = 2048

#: Match quality of an index word for a query word, by how it matched.
_EXACT: Final = 1.0
_PREFIX_TYPING: Final = 0.9
_PREFIX_DONE: Final = 0.7
_TYPO: Final = (1.0, 0.7, 0.5)
_TYPO_PREFIX: Final = (0.9, 0.55, 0.4)
#: At most this many completions of a prefix, the most frequent first (by prefix length 1, 2, 3+).
_PREFIX_CAP: Final = (16, 32, 64)
_TYPO_CAP: Final = 48

#: Ranking tiers: the number of query words matched comes first, then bonuses, then relevance.
_TIER: Final = 1e6
_NAME_BONUS: Final = 1000.0
_PHRASE_BONUS: Final = 500.0
_PHRASE_RERANK: Final = 50

_CACHE_SIZE: Final = 32
_MAX_DEAD_SHARE: Final = 0.25
_MAX_SEGMENTS: Final = 8

QUALIFIER_KEYS: Final[frozenset[str]] = frozenset({"is", "has", "status", "author", "list", "tag"})
_STATUS_WORDS: Final[dict[str, Status]] = {
    "inbox": Status.INBOX,
    "new": Status.INBOX,
    "read": Status.READ,
    "skipped": Status.SKIPPED,
    "skip": Status.SKIPPED,
    "starred": Status.STARRED,
    "star": Status.STARRED,
}

# --------------------------------------------------------------------------- text


_GREEK_NAMES: Final = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu "
    "xi omicron pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega"
)
_GREEK: Final[frozenset[str]] = frozenset(_GREEK_NAMES.split())
_LATEX_COMMAND = re.compile(r"\\([A-Za-z]+)")
_WORD = re.compile(r"[^\W_]+")
#: ASCII text: every character but letters and digits becomes a space (faster than a regex).
_ASCII_SPACES: Final = str.maketrans({chr(i): " " for i in range(128) if not chr(i).isalnum()})
_COMPOUND = re.compile(r"[^\W_]+(?:[-\u2010][^\W_]+)+")
_WORD_OR_COMPOUND = re.compile(r"[^\W_]+(?:[-\u2010\u2011][^\W_]+)*")
_HYPHEN = re.compile(r"[-\u2010\u2011]")
_COMBINING = re.compile(r"[\u0300-\u036f]")
_CAMEL = re.compile(r"(?<![^\W_])[A-Z]?[a-z]+(?:[A-Z][a-z]+)+(?![^\W_])")
_CAMEL_PART = re.compile(r"[A-Z]?[a-z]+")
_NAME_PREFIX = re.compile(r"^\s*([^\s:][^:]{0,40}?)\s*:\s+\S")


def _latex_word(match: re.Match[str]) -> str:
    command = match.group(1)
    return command if command.lower() in _GREEK else ""


def _strip_latex(text: str) -> str:
    """Drop LaTeX commands, braces and dollars, keeping Greek letter names (``$\\tau$`` → tau)."""
    if "\\" not in text and "{" not in text and "$" not in text:
        return text
    text = _LATEX_COMMAND.sub(_latex_word, text)
    return text.replace("{", "").replace("}", "").replace("$", "")


def normalize(text: str) -> str:
    """NFKC, case folding and accents dropped: the form in which words are compared."""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKC", text).casefold()
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", _COMBINING.sub("", decomposed))


def _word_key(word: str) -> str:
    """The index word for a normalised word or hyphenated compound: hyphens dropped."""
    return _HYPHEN.sub("", word)


def tokenize(text: str, camel_case: bool = False) -> list[str]:
    """The index words of a text.

    Words are runs of letters and digits. A hyphenated compound (``ORW-CFM-W2``) gives its parts
    and the parts joined (``orwcfmw2``); with ``camel_case``, ``ParaSolver`` also gives ``para``
    and ``solver``.
    """
    words, extra = _split_words(text, camel_case)
    words.extend(extra)
    return words


def _split_words(text: str, camel_case: bool) -> tuple[list[str], list[str]]:
    """The words of a text in order, and the extra index words (joined compounds, camel parts)."""
    clean = _strip_latex(text)
    norm = normalize(clean)
    words = norm.translate(_ASCII_SPACES).split() if norm.isascii() else _WORD.findall(norm)
    extra: list[str] = []
    if "-" in norm or "\u2010" in norm:
        # Only the whitespace-separated pieces with a hyphen can hold a compound: scanning
        # those alone is several times faster than running the compound pattern over the text.
        pieces = " ".join(x for x in norm.split() if "-" in x or "\u2010" in x)
        extra.extend(_HYPHEN.sub("", compound) for compound in _COMPOUND.findall(pieces))
    if camel_case:
        for word in _CAMEL.findall(clean):
            extra.extend(p.lower() for p in _CAMEL_PART.findall(word) if len(p) >= 3)
    return words, extra


def method_name(paper: Paper) -> str:
    """The paper's method name, or the ``NAME`` of a ``NAME: what it does`` title."""
    if paper.name:
        return paper.name
    match = _NAME_PREFIX.match(paper.title)
    if not match:
        return ""
    name = match.group(1).strip()
    return name if len(name.split()) <= 3 else ""


def _query_words(text: str) -> list[str]:
    """Normalised words of query text; compounds keep their hyphens (``orw-cfm-w2``)."""
    return [_HYPHEN.sub("-", w) for w in _WORD_OR_COMPOUND.findall(normalize(text))]


def max_typos(word: str) -> int:
    """Edits forgiven in a word: none up to 3 characters, 1 up to 7, 2 from 8."""
    n = len(word)
    return 0 if n <= 3 else 1 if n <= 7 else 2


def highlight_spans(text: str, terms: Iterable[str]) -> list[tuple[int, int]]:
    """Character spans of ``text`` whose words are among ``terms`` (index words of a hit).

    Works on any form of the text (raw or display), so the app can highlight what it shows.
    """
    wanted = set(terms)
    if not wanted:
        return []
    spans: list[tuple[int, int]] = []
    for match in _WORD_OR_COMPOUND.finditer(text):
        chunk = match.group()
        start = match.start()
        hyphenated = "-" in chunk or "\u2010" in chunk or "\u2011" in chunk
        if hyphenated and _word_key(normalize(chunk)) in wanted:
            spans.append((start, match.end()))
            continue
        for part in _WORD.finditer(chunk):
            word = part.group()
            if normalize(word) in wanted:
                spans.append((start + part.start(), start + part.end()))
                continue
            for sub in _CAMEL_PART.finditer(word):
                if len(sub.group()) >= 3 and sub.group().lower() in wanted and sub.group() != word:
                    spans.append(
                        (start + part.start() + sub.start(), start + part.start() + sub.end())
                    )
    return spans


# --------------------------------------------------------------------------- queries


@dataclass(frozen=True, slots=True)
class Qualifier:
    """A ``key:value`` filter of a query, such as ``is:starred``; ``negated`` for ``-key:value``."""

    key: str
    value: str
    negated: bool = False


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


_CHUNK = re.compile(
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
            qualifier = _qualifier(key.lower(), value, negated)
            if qualifier is not None:
                qualifiers.append(qualifier)
                continue
            if not value.strip() and key.lower() in QUALIFIER_KEYS:
                continue  # "is:" being typed: no filter yet
            chunk = f"{key} {value}"
        elif match.group("phrase") is not None:
            phrase = " ".join(_WORD.findall(normalize(match.group("phrase"))))
            if phrase:
                (excluded_phrases if negated else phrases).append(phrase)
                open_phrase = last and not match.group("close") and not negated
            continue
        else:
            chunk = match.group("word")
        found = _query_words(chunk)
        if negated:
            excluded.extend(found)
        elif found:
            words.extend(found)
            typing = last and text[-1:].strip() != "" and _WORD.search(text[-1]) is not None
    return Query(
        words=tuple(words),
        excluded=tuple(excluded),
        phrases=tuple(phrases),
        excluded_phrases=tuple(excluded_phrases),
        qualifiers=tuple(qualifiers),
        typing=typing,
        open_phrase=open_phrase,
    )


def _qualifier(key: str, value: str, negated: bool) -> Qualifier | None:
    """The qualifier for ``key:value``, or None when it is not one (then it is free text)."""
    if key not in QUALIFIER_KEYS:
        return None
    norm = " ".join(normalize(value).split())
    if not norm:
        return None
    if key == "is" and not _statuses_for(norm):
        return None
    if key == "has" and not "code".startswith(norm):
        return None
    return Qualifier(key, norm, negated)


def _as_status(value: Status | str) -> Status:
    """A triage state from a stored value; anything unreadable counts as the inbox."""
    if isinstance(value, Status):
        return value
    try:
        return Status.parse(value)
    except ValueError:
        return Status.INBOX


def _statuses_for(value: str) -> frozenset[Status]:
    """Triage states named by an ``is:`` value or a prefix of one (``is:st`` is starred)."""
    return frozenset(s for word, s in _STATUS_WORDS.items() if word.startswith(value))


# --------------------------------------------------------------------------- hits


class SearchHit(tuple[str, float, "_Words", int]):
    """One paper found: its id, its score (higher is better) and the index words it matched.

    ``matched`` and ``fields`` are worked out when first read, for a block of hits at a time,
    so that a search returning every paper stays cheap: read them for the papers you show.
    Immutable; a tuple underneath, because a search may return 100,000 of them and a tuple is
    the cheapest object Python makes (use the named properties, not the items).
    """

    __slots__ = ()

    def __new__(
        cls,
        paper_id: str,
        score: float,
        matched: frozenset[str] = frozenset(),
        fields: Mapping[str, frozenset[str]] | None = None,
    ) -> SearchHit:
        return tuple.__new__(cls, (paper_id, score, _KnownWords(matched, dict(fields or {})), 0))

    @property
    def paper_id(self) -> str:
        """The id of the paper found."""
        return self[0]

    @property
    def score(self) -> float:
        """How well it matched: higher is better (0 for a query of filters only)."""
        return self[1]

    @property
    def matched(self) -> frozenset[str]:
        """Index words that matched (normalised), for highlighting."""
        return self[2].words(self[3])[0]

    @property
    def fields(self) -> Mapping[str, frozenset[str]]:
        """Field name ("title", "name", "authors", "abstract") -> the matched words there."""
        return self[2].words(self[3])[1]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SearchHit):
            return NotImplemented
        return (self.paper_id, self.score, self.matched, dict(self.fields)) == (
            other.paper_id,
            other.score,
            other.matched,
            dict(other.fields),
        )

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((self.paper_id, self.score))

    def __repr__(self) -> str:
        return f"SearchHit({self.paper_id!r}, {self.score!r}, matched={set(self.matched)!r})"


class _Words:
    """Where a hit's matched words come from."""

    def words(self, row: int) -> tuple[frozenset[str], Mapping[str, frozenset[str]]]:
        """The matched words of the ``row``-th hit of a search, and the fields they are in."""
        raise NotImplementedError


class _NoWords(_Words):
    """No words matched (a query of filters only)."""

    _EMPTY: Final[tuple[frozenset[str], Mapping[str, frozenset[str]]]] = (frozenset(), {})

    def words(self, row: int) -> tuple[frozenset[str], Mapping[str, frozenset[str]]]:
        return self._EMPTY


_NO_WORDS: Final = _NoWords()


class _KnownWords(_Words):
    """Matched words given outright (a hit made by hand)."""

    def __init__(self, matched: frozenset[str], fields: Mapping[str, frozenset[str]]) -> None:
        self._found = (matched, fields)

    def words(self, row: int) -> tuple[frozenset[str], Mapping[str, frozenset[str]]]:
        return self._found


class _Explanation(_Words):
    """Which words each hit of one search matched, and where: worked out block by block.

    It keeps the index's arrays as they were at search time, so an ``add`` meanwhile does not
    change what a hit says.
    """

    _BLOCK: Final = 128

    def __init__(
        self,
        papers: list[Paper],
        segments: tuple[_Segment, ...],
        terms: list[str],
        slots: IntArray,
        tids: tuple[int, ...],
        author_terms: frozenset[str],
    ) -> None:
        self._papers = papers
        self._segments = segments
        self._terms = terms
        self._slots = slots
        self._tids = tids
        self._author_terms = author_terms
        self._done: dict[int, tuple[frozenset[str], Mapping[str, frozenset[str]]]] = {}

    def words(self, row: int) -> tuple[frozenset[str], Mapping[str, frozenset[str]]]:
        """The matched words of the ``row``-th hit, and the fields they are in."""
        found = self._done.get(row)
        if found is None:
            # Blocks grow with use: reading every hit costs a few passes over the postings.
            size = max(self._BLOCK, len(self._done))
            self._explain(row, min(row + size, len(self._slots)))
            found = self._done[row]
        return found

    def _explain(self, start: int, stop: int) -> None:
        slots = self._slots[start:stop]
        found: list[list[set[str]]] = [[set(), set(), set(), set()] for _ in range(len(slots))]
        order = np.argsort(slots, kind="stable")
        sorted_slots = slots[order]
        for tid in self._tids:
            term = self._terms[tid]
            for segment in self._segments:
                span, present = segment.postings(tid)
                if not present:
                    continue
                docs = segment.docs[span]
                at = docs.searchsorted(sorted_slots)
                np.minimum(at, len(docs) - 1, out=at)
                present_at = docs[at] == sorted_slots
                if not present_at.any():
                    continue
                rows = present_at.nonzero()[0]
                masks = segment.masks[span][at[rows]]
                for row, bits in zip(order[rows].tolist(), masks.tolist(), strict=True):
                    sets = found[row]
                    for f in _FIELDS_OF_MASK[bits]:
                        sets[f].add(term)
        for offset, slot in enumerate(slots.tolist()):
            per_field = found[offset]
            if self._author_terms:
                authors = tokenize("; ".join(self._papers[slot].authors))
                per_field[_AUTHORS].update(t for t in authors if t in self._author_terms)
            fields = {FIELDS[f]: frozenset(per_field[f]) for f in range(4) if per_field[f]}
            matched = frozenset().union(*fields.values()) if fields else frozenset()
            self._done[start + offset] = (matched, fields)


# --------------------------------------------------------------------------- the index


@dataclass(frozen=True, slots=True)
class _Segment:
    """Postings of a batch of papers, by term id (CSR): docs, field-weighted scores, field masks."""

    offsets: IntArray
    docs: npt.NDArray[np.int32]
    scores: npt.NDArray[np.float16]
    masks: npt.NDArray[np.uint8]

    def postings(self, tid: int) -> tuple[slice, bool]:
        """The slice of term ``tid``'s postings, and whether it has any."""
        if tid + 1 >= len(self.offsets):  # a word new since this segment was built
            return slice(0, 0), False
        lo, hi = int(self.offsets[tid]), int(self.offsets[tid + 1])
        return slice(lo, hi), hi > lo

    @property
    def nbytes(self) -> int:
        """Memory of the arrays."""
        return self.offsets.nbytes + self.docs.nbytes + self.scores.nbytes + self.masks.nbytes


@dataclass(frozen=True, slots=True)
class _Expansion:
    """The index words a query word stands for, with their weight (quality times idf)."""

    tids: tuple[int, ...] = ()
    weights: tuple[float, ...] = ()
    #: How well each index word matches the query word (1 exact, less for a completion or typo).
    qualities: tuple[float, ...] = ()
    #: True for whole-word matches (exact or a typo), False for completions of a prefix.
    whole: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class _PhraseCheck:
    """A phrase a paper must have (``wanted``) or must not have, checked on its text."""

    words: tuple[str, ...]
    is_open: bool
    wanted: bool
    #: Papers that have all the phrase's words (others cannot have it), when known.
    candidates: BoolArray | None = field(default=None, compare=False, hash=False)
    pattern: re.Pattern[str] = field(init=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern", _phrase_pattern(self.words, self.is_open))

    @property
    def key(self) -> tuple[tuple[str, ...], bool]:
        """What the check looks for (whether wanted or not), to remember its answers by."""
        return self.words, self.is_open


def _phrase_pattern(words: Sequence[str], is_open: bool) -> re.Pattern[str]:
    """The words in a row, separated by anything but letters and digits.

    It starts with the first word itself, so that the regex engine can look for it as plain
    text (many times faster than starting with a look-behind); ``_has_phrase`` checks that the
    match begins a word.
    """
    tail = "" if is_open else r"(?![^\W_])"
    return re.compile(r"[\W_]+".join(re.escape(w) for w in words) + tail)


def _has_phrase(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` matches ``text`` at the start of a word."""
    for match in pattern.finditer(text):
        start = match.start()
        if start == 0 or not text[start - 1].isalnum():
            return True
    return False


@dataclass(frozen=True, slots=True)
class _WordScores:
    """Per-paper score of one query word, and its expansion."""

    scores: FloatArray
    expansion: _Expansion


class Ranking:
    """The papers one search found, best first: their ids at once, a ``SearchHit`` for the
    ones read.

    An app showing thousands of matches needs their ids for its list and a hit (matched
    words) only for the paper on screen: making 5,000 hits per keystroke costs more than the
    search, and leaves the collector 5,000 objects to walk.
    """

    __slots__ = ("_explanation", "_scores", "ids")

    def __init__(self, ids: list[str], scores: list[float], explanation: _Words) -> None:
        #: Paper ids, best first.
        self.ids = ids
        self._scores = scores
        self._explanation = explanation

    def __len__(self) -> int:
        return len(self.ids)

    def hit(self, row: int) -> SearchHit:
        """The ``row``-th paper found (0 is the best), as a hit."""
        return tuple.__new__(SearchHit, (self.ids[row], self._scores[row], self._explanation, row))

    def hits(self) -> list[SearchHit]:
        """Every paper found, as hits."""
        # Tuples made by ``tuple.__new__`` from ``map``: no Python code runs per hit.
        make = partial(tuple.__new__, SearchHit)
        rows = zip(self.ids, self._scores, repeat(self._explanation), range(len(self.ids)))
        with collector_paused():
            return list(map(make, rows))


class SearchIndex:
    """An inverted index over papers' titles, method names, authors and abstracts.

    Build it once per library load; ``add`` indexes imported papers without a rebuild.
    Safe to call from worker threads: queries and updates are serialised by a lock.
    """

    def __init__(self, papers: Sequence[Paper] = ()) -> None:
        self._lock = threading.RLock()
        self._reset()
        self.add(papers)

    # ----------------------------------------------------------------- building

    def _reset(self) -> None:
        """Empty the index."""
        self._papers: list[Paper] = []
        self._slot_by_id: dict[str, int] = {}
        #: Paper id of each slot, as an array so that a search picks thousands at once.
        self._ids: npt.NDArray[np.object_] = np.zeros(0, dtype=object)
        self._live: BoolArray = np.zeros(0, dtype=np.bool_)
        self._rank: IntArray = np.zeros(0, dtype=np.int64)
        self._next_rank = 0
        self._has_code: BoolArray = np.zeros(0, dtype=np.bool_)
        #: Venue status and lists of each paper, as codes into the distinct values.
        self._venue_code: npt.NDArray[np.int32] = np.zeros(0, dtype=np.int32)
        self._venues: dict[str, int] = {}
        self._lists_code: npt.NDArray[np.int32] = np.zeros(0, dtype=np.int32)
        self._list_sets: dict[tuple[str, ...], int] = {}
        self._name_slots: dict[str, list[int]] = {}
        #: Term ids of words found in authors' names (for ``author:``).
        self._author_tids: set[int] = set()
        self._vocab: dict[str, int] = {}
        self._terms: list[str] = []
        self._df: IntArray = np.zeros(0, dtype=np.int64)
        self._segments: list[_Segment] = []
        self._field_total = np.zeros(4, dtype=np.float64)
        self._sorted_terms: list[str] = []
        self._sorted_tids: IntArray = np.zeros(0, dtype=np.int64)
        #: Vocabulary by (length, position 0 or 1, letter there), for typo look-ups.
        self._typo_buckets: dict[tuple[int, int, str], tuple[list[str], IntArray]] = {}
        #: Title words of each paper, in order, as term ids (CSR), for the in-order bonus.
        self._title_offsets: IntArray = np.zeros(1, dtype=np.int64)
        self._title_tids: npt.NDArray[np.int32] = np.zeros(0, dtype=np.int32)
        self._live_count = 0
        self._prefix_tables: dict[tuple[int, str], tuple[list[str], list[int]]] = {}
        self._cache: OrderedDict[tuple[str, bool, bool], _WordScores] = OrderedDict()
        self._expansions: OrderedDict[tuple[str, bool, bool], _Expansion] = OrderedDict()
        self._phrase_answers: OrderedDict[tuple[tuple[str, ...], bool], dict[int, bool]] = (
            OrderedDict()
        )

    def add(self, papers: Sequence[Paper]) -> None:
        """Index new papers (appended in order) and re-index papers whose id is already known."""
        with self._lock:
            papers = list(papers)
            if not papers:
                return
            latest: dict[str, Paper] = {}
            for paper in papers:
                latest[paper.id] = paper
            first = len(self._papers)
            ranks: list[int] = []
            for paper in latest.values():
                old = self._slot_by_id.get(paper.id)
                if old is None:
                    ranks.append(self._next_rank)
                    self._next_rank += 1
                else:
                    ranks.append(int(self._rank[old]))
                    self._live[old] = False
            batch = list(latest.values())
            dead = (
                len(self._papers)
                - self._live_count
                + sum(1 for p in batch if p.id in self._slot_by_id)
            )
            if self._segments and (
                len(self._segments) >= _MAX_SEGMENTS
                or dead > _MAX_DEAD_SHARE * len(self._papers)
                or len(batch) >= self._live_count
            ):
                # Many segments, many stale slots, or an import as large as the library:
                # rebuild as one segment (the cost of a build, with coherent statistics).
                self._compact(batch, ranks)
                return
            self._index_batch(batch, ranks, first)

    def _compact(self, batch: list[Paper], ranks: list[int]) -> None:
        """Rebuild from the live papers and ``batch``, in list order, as one segment."""
        live = [
            (int(self._rank[slot]), paper)
            for slot, paper in enumerate(self._papers)
            if self._live[slot]
        ]
        live.extend(zip(ranks, batch, strict=True))
        live.sort(key=lambda pair: pair[0])
        next_rank = self._next_rank
        self._reset()
        self._next_rank = next_rank
        self._index_batch([p for _, p in live], [r for r, _ in live], 0)

    def _index_batch(self, batch: list[Paper], ranks: list[int], first: int) -> None:
        """Tokenise ``batch`` into a new segment of slots ``first`` onwards."""
        n = len(batch)
        vocab = self._vocab
        terms = self._terms
        known_terms = len(terms)
        # Term ids and counts go straight into compact arrays: a list of the words themselves
        # (millions of short strings at 12,000 papers) would cost ~300 MB at its peak.
        tid_array = array("i")
        freq_array = array("f")
        distinct: list[int] = []
        lengths: list[int] = []
        venue_codes: list[int] = []
        list_codes: list[int] = []
        title_array = array("i")
        title_lengths: list[int] = []
        author_words: set[str] = set()

        def tid_of(word: str) -> int:
            tid = vocab.get(word)
            if tid is None:
                tid = vocab[word] = len(terms)
                terms.append(word)
            return tid

        with collector_paused():  # many short-lived containers, no cycles among them
            for slot, paper in enumerate(batch, start=first):
                self._papers.append(paper)
                self._slot_by_id[paper.id] = slot
                venue = normalize(paper.venue_status).strip()
                venue_codes.append(self._venues.setdefault(venue, len(self._venues)))
                lists = tuple(normalize(x) for x in (paper.lists or (paper.list,)))
                list_codes.append(self._list_sets.setdefault(lists, len(self._list_sets)))
                name = method_name(paper)
                in_order, extra = _split_words(paper.title, camel_case=True)
                title_array.extend(map(tid_of, in_order))
                title_lengths.append(len(in_order))
                title_tokens = in_order + extra
                name_tokens = tokenize(name) if name else []
                author_tokens = tokenize("; ".join(paper.authors)) if paper.authors else []
                author_words.update(author_tokens)
                abstract_tokens = tokenize(paper.abstract)
                if paper.keywords:
                    abstract_tokens.extend(tokenize(" ".join(paper.keywords)))
                key = _word_key("".join(_query_words(name)))
                if key:
                    self._name_slots.setdefault(key, []).append(slot)
                for tokens in (title_tokens, name_tokens, author_tokens, abstract_tokens):
                    counts = Counter(tokens)
                    tid_array.extend(map(tid_of, counts))  # ids in order of first sight
                    freq_array.extend(counts.values())
                    distinct.append(len(counts))
                    lengths.append(len(tokens))
        new_terms = len(terms) - known_terms
        self._author_tids.update(vocab[w] for w in author_words)
        tids = np.frombuffer(tid_array, dtype=np.int32)  # a view: no copy of millions
        title_ids = np.frombuffer(title_array, dtype=np.int32).copy()
        self._title_tids = np.concatenate([self._title_tids, title_ids])
        self._title_offsets = np.concatenate(
            [self._title_offsets, self._title_offsets[-1] + np.cumsum(title_lengths)]
        )
        self._live = np.concatenate([self._live, np.ones(n, dtype=np.bool_)])
        new_ids = np.empty(n, dtype=object)
        new_ids[:] = [p.id for p in batch]
        self._ids = np.concatenate([self._ids, new_ids])
        self._rank = np.concatenate([self._rank, np.asarray(ranks, dtype=np.int64)])
        self._venue_code = np.concatenate(
            [self._venue_code, np.asarray(venue_codes, dtype=np.int32)]
        )
        self._lists_code = np.concatenate(
            [self._lists_code, np.asarray(list_codes, dtype=np.int32)]
        )
        self._has_code = np.concatenate(
            [self._has_code, np.asarray([bool(p.github) for p in batch], dtype=np.bool_)]
        )
        field_lengths = np.asarray(lengths, dtype=np.float64).reshape(n, 4)
        self._field_total += field_lengths.sum(axis=0)
        segment = self._build_segment(
            tids,
            np.frombuffer(freq_array, dtype=np.float32),
            np.asarray(distinct, dtype=np.int64),
            field_lengths,
            first,
        )
        del tids, tid_array, freq_array
        self._segments.append(segment)
        vocabulary = len(self._terms)
        df = np.zeros(vocabulary, dtype=np.int64)
        df[: len(self._df)] = self._df
        per_term = np.diff(segment.offsets)
        df[: len(per_term)] += per_term
        self._df = df
        if new_terms:
            self._index_vocabulary()
        self._live_count = int(self._live.sum())
        self._cache.clear()
        self._expansions.clear()
        self._phrase_answers.clear()

    def _build_segment(
        self,
        tids: npt.NDArray[np.int32],
        tf: npt.NDArray[np.float32],
        distinct: IntArray,
        field_lengths: npt.NDArray[np.float64],
        first: int,
    ) -> _Segment:
        """Fold (term, paper, field) frequencies into BM25 postings sorted by term, then paper.

        ``tids`` and ``tf`` list each field's distinct words, paper by paper, field by field;
        ``distinct`` says how many each (paper, field) has.

        Millions of entries at 12,000 papers: the work is done ``_BUILD_CHUNK`` papers at a
        time (each chunk's postings sorted by term), then the chunks' postings are merged.
        Done in one go, the temporary arrays took ~120 MB at 12,000 papers; by chunks ~20 MB.
        """
        n = field_lengths.shape[0]
        vocabulary = len(self._terms)
        average = np.maximum(self._field_total / max(len(self._papers), 1), 1.0)
        grid_norm = (_K1 * (1.0 - _FIELD_B + _FIELD_B * field_lengths / average)).astype(np.float32)
        weights = _FIELD_WEIGHTS.astype(np.float32)
        bits = np.array([1, 2, 4, 8], dtype=np.uint8)
        entry_end = np.cumsum(distinct)  # per (paper, field)
        #: Each chunk's postings, sorted by term: (terms, docs, scores, masks).
        chunks: list[tuple[npt.NDArray[np.generic], ...]] = []
        for start in range(0, n, _BUILD_CHUNK):
            stop = min(n, start + _BUILD_CHUNK)
            m = stop - start
            lo = int(entry_end[4 * start - 1]) if start else 0
            hi = int(entry_end[4 * stop - 1]) if stop else 0
            counts = distinct[4 * start : 4 * stop]
            tf_chunk = tf[lo:hi]
            scores = tf_chunk * np.float32(_K1 + 1.0)
            scores /= tf_chunk + np.repeat(grid_norm[start:stop].ravel(), counts)
            scores *= np.repeat(np.tile(weights, m), counts)
            term_doc = tids[lo:hi].astype(np.int64) * m
            term_doc += np.repeat(np.repeat(np.arange(m, dtype=np.int64), 4), counts)
            order = np.argsort(term_doc, kind="stable")
            term_doc = term_doc[order]
            if not len(term_doc):
                continue
            starts = np.flatnonzero(np.diff(term_doc)) + 1
            starts = np.concatenate([np.zeros(1, dtype=np.int64), starts])
            field_bit = np.repeat(np.tile(bits, m), counts)
            first_of = term_doc[starts]
            chunks.append(
                (
                    (first_of // m).astype(np.int32),
                    (first_of % m + start + first).astype(np.int32),
                    np.add.reduceat(scores[order], starts).astype(np.float16),
                    np.bitwise_or.reduceat(field_bit[order], starts),
                )
            )
            del scores, term_doc, order, starts, field_bit, first_of  # before the next chunk's
        # Merge: each chunk's postings go straight to their place (chunks hold ascending
        # papers, so each term's papers stay in order), without sorting them all again; each
        # chunk is let go once placed.
        per_term = [np.bincount(chunk[0], minlength=vocabulary) for chunk in chunks]
        offsets = np.zeros(vocabulary + 1, dtype=np.int64)
        if per_term:
            np.cumsum(np.sum(per_term, axis=0, dtype=np.int64), out=offsets[1:])
        total = int(offsets[-1])
        docs = np.empty(total, dtype=np.int32)
        scores16 = np.empty(total, dtype=np.float16)
        masks = np.empty(total, dtype=np.uint8)
        free = offsets[:-1].copy()  # each term's next free place
        chunks.reverse()
        per_term.reverse()
        while chunks:
            terms, chunk_docs, chunk_scores, chunk_masks = chunks.pop()
            count = per_term.pop()
            place = free[terms] + (np.arange(len(terms)) - (np.cumsum(count) - count)[terms])
            docs[place] = chunk_docs
            scores16[place] = chunk_scores
            masks[place] = chunk_masks
            free += count
        return _Segment(offsets=offsets, docs=docs, scores=scores16, masks=masks)

    def _index_vocabulary(self) -> None:
        """Sorted vocabulary (for prefixes) and vocabulary by length and first letters (typos)."""
        order = sorted(range(len(self._terms)), key=self._terms.__getitem__)
        self._sorted_terms = [self._terms[i] for i in order]
        self._sorted_tids = np.asarray(order, dtype=np.int64)
        buckets: dict[tuple[int, int, str], tuple[list[str], list[int]]] = {}
        for tid, term in enumerate(self._terms):
            for position in (0, 1) if len(term) > 1 else (0,):
                key = (len(term), position, term[position])
                words, ids = buckets.setdefault(key, ([], []))
                words.append(term)
                ids.append(tid)
        self._typo_buckets = {
            key: (words, np.asarray(ids, dtype=np.int64)) for key, (words, ids) in buckets.items()
        }
        self._prefix_tables = {}

    # ----------------------------------------------------------------- introspection

    def __len__(self) -> int:
        """Number of papers indexed."""
        return self._live_count

    def paper(self, paper_id: str) -> Paper | None:
        """The indexed paper with this id, if any."""
        with self._lock:
            slot = self._slot_by_id.get(paper_id)
            return None if slot is None else self._papers[slot]

    def papers(self) -> list[Paper]:
        """The indexed papers, in index (list) order."""
        with self._lock:
            slots = np.flatnonzero(self._live)
            order = slots[np.argsort(self._rank[slots], kind="stable")]
            return [self._papers[s] for s in order.tolist()]

    @property
    def vocabulary_size(self) -> int:
        """Number of distinct index words."""
        return len(self._terms)

    @property
    def postings(self) -> int:
        """Number of (word, paper) postings."""
        return sum(len(s.docs) for s in self._segments)

    def clear_caches(self) -> None:
        """Forget cached word matches, scores and phrase checks (rebuilt on demand)."""
        with self._lock:
            self._cache.clear()
            self._expansions.clear()
            self._phrase_answers.clear()

    def memory_bytes(self) -> int:
        """Approximate memory of the index itself (not of the papers): arrays and vocabulary."""
        arrays = sum(s.nbytes for s in self._segments)
        arrays += self._df.nbytes + self._rank.nbytes + self._live.nbytes + self._has_code.nbytes
        arrays += self._sorted_tids.nbytes
        arrays += sum(ids.nbytes + 8 * len(ids) for _, ids in self._typo_buckets.values())
        arrays += self._title_offsets.nbytes + self._title_tids.nbytes
        strings = sum(49 + len(t) for t in self._terms)
        dicts = 100 * len(self._vocab) + 100 * len(self._slot_by_id) + 8 * len(self._terms) * 2
        dicts += 60 * len(self._author_tids) + 100 * len(self._name_slots)
        cache = sum(entry.scores.nbytes for entry in self._cache.values())
        return arrays + strings + dicts + cache

    def highlight_terms(self, hit: SearchHit) -> frozenset[str]:
        """The index words to highlight for a hit (pass them to ``highlight_spans``)."""
        return hit.matched

    # ----------------------------------------------------------------- matching words

    def _idf(self, df: float) -> float:
        """BM25's inverse document frequency."""
        n = max(self._live_count, 1)
        df = min(max(df, 0.0), float(n))
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def _prefix_range(self, prefix: str) -> tuple[int, int]:
        lo = bisect.bisect_left(self._sorted_terms, prefix)
        hi = bisect.bisect_left(self._sorted_terms, prefix + "\U0010ffff", lo)
        return lo, hi

    def _prefix_table(self, length: int, first: str) -> tuple[list[str], list[int]]:
        """Vocabulary words starting with ``first``, cut to ``length`` characters, deduplicated.

        Cutting keeps the sorted order, so the words with the ``i``-th prefix are
        ``sorted_terms[starts[i]:starts[i + 1]]``. Built on first use, per length and letter.
        """
        table = self._prefix_tables.get((length, first))
        if table is None:
            lo, hi = self._prefix_range(first)
            heads = [t[:length] for t in self._sorted_terms[lo:hi]]
            at = [0] + [i for i in range(1, len(heads)) if heads[i] != heads[i - 1]]
            prefixes = [heads[i] for i in at] if heads else []
            starts = [lo + i for i in at] if heads else []
            starts.append(hi)
            table = (prefixes, starts)
            self._prefix_tables[(length, first)] = table
        return table

    def _top_by_df(self, tids: IntArray, cap: int) -> IntArray:
        if len(tids) <= cap:
            return tids
        keep = np.argpartition(-self._df[tids], cap - 1)[:cap]
        return tids[keep]

    def _expand(self, word: str, typing: bool, exact_only: bool) -> _Expansion:
        """Index words matching a query word (cached): exactly, as a completion, or with typos.

        Every inexact match of a word shares one idf, that of all of them together: the query
        word means one thing, and its rarest look-alike is not the likeliest.
        """
        key = (word, typing, exact_only)
        cached = self._expansions.get(key)
        if cached is not None:
            self._expansions.move_to_end(key)
            return cached
        found: dict[int, tuple[float, bool]] = {}
        exact_tid = self._vocab.get(word)
        if exact_tid is not None:
            found[exact_tid] = (_EXACT, True)
        if typing or (not exact_only and len(word) >= 4):
            self._add_completions(word, found, typing)
        typos = 0 if exact_only else max_typos(word)
        if typos and self._terms:
            self._add_typos(word, typos, found)
            if typing:
                self._add_typo_completions(word, typos, found)
        inexact = [t for t in found if t != exact_tid]
        shared = self._idf(float(self._df[inexact].sum())) if inexact else 0.0
        exact_idf = 0.0
        if exact_tid is not None:
            exact_idf = self._idf(float(self._df[exact_tid]))
            shared = min(shared, exact_idf)
        tids = tuple(found)
        expansion = _Expansion(
            tids=tids,
            weights=tuple(found[t][0] * (exact_idf if t == exact_tid else shared) for t in tids),
            qualities=tuple(found[t][0] for t in tids),
            whole=tuple(found[t][1] for t in tids),
        )
        self._expansions[key] = expansion
        if len(self._expansions) > 8 * _CACHE_SIZE:
            self._expansions.popitem(last=False)
        return expansion

    def _add_completions(
        self, word: str, found: dict[int, tuple[float, bool]], typing: bool
    ) -> None:
        lo, hi = self._prefix_range(word)
        if hi <= lo:
            return
        quality = _PREFIX_TYPING if typing else _PREFIX_DONE
        cap = _PREFIX_CAP[min(len(word), 3) - 1] if typing else _PREFIX_CAP[1]
        for tid in self._top_by_df(self._sorted_tids[lo:hi], cap).tolist():
            found.setdefault(tid, (quality, False))

    def _add_typos(self, word: str, typos: int, found: dict[int, tuple[float, bool]]) -> None:
        """Index words within ``typos`` edits (OSA: a swap of neighbours is one edit).

        Only words that keep the query's first or second letter in place, or shifted by one,
        are compared: this misses only slips that hit both of the first two letters, and it
        compares a few thousand words instead of the whole vocabulary.
        """
        keys = {(0, word[0]), (1, word[1]), (0, word[1]), (1, word[0])}
        best: dict[int, int] = {}
        for length in range(len(word) - typos, len(word) + typos + 1):
            for position, letter in keys:
                bucket = self._typo_buckets.get((length, position, letter))
                if bucket is None:
                    continue
                words, ids = bucket
                for _, distance, index in process.extract(
                    word, words, scorer=OSA.distance, score_cutoff=typos, limit=None
                ):
                    if distance > 0:
                        best[int(ids[index])] = int(distance)
        matches = sorted(best.items(), key=lambda m: (m[1], -int(self._df[m[0]])))
        for tid, distance in matches[:_TYPO_CAP]:
            found.setdefault(tid, (_TYPO[distance], True))

    def _add_typo_completions(
        self, word: str, typos: int, found: dict[int, tuple[float, bool]]
    ) -> None:
        """Completions of prefixes a few typos away from ``word`` (same first letter).

        Slips while typing rarely hit the first letter, and keeping it bounds the work to a
        slice of the vocabulary. They are kept only when far more frequent than the exact
        completions: ``multimo`` completes to ``multimodal``, not to ``multihop``.
        """
        ranges: list[tuple[int, int, int]] = []
        for length in range(max(len(word) - typos, 3), len(word) + typos + 1):
            prefixes, starts = self._prefix_table(length, word[0])
            for _, distance, index in process.extract(
                word, prefixes, scorer=OSA.distance, score_cutoff=typos, limit=None
            ):
                if distance > 0:
                    ranges.append((int(distance), starts[index], starts[index + 1]))
        if not ranges:
            return
        best = min(r[0] for r in ranges)
        pieces = [self._sorted_tids[lo:hi] for d, lo, hi in ranges if d == best]
        candidates = np.unique(np.concatenate(pieces))
        lo, hi = self._prefix_range(word)
        exact_df = int(self._df[self._sorted_tids[lo:hi]].sum())
        if int(self._df[candidates].sum()) <= 10 * exact_df:
            return
        for tid in self._top_by_df(candidates, _TYPO_CAP).tolist():
            found.setdefault(tid, (_TYPO_PREFIX[best], False))

    def _word_scores(self, word: str, typing: bool, exact_only: bool) -> _WordScores:
        """Per-paper scores of one query word (the best of its expansions), cached."""
        key = (word, typing, exact_only)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        expansion = self._expand(word, typing, exact_only)
        scores = np.zeros(len(self._papers), dtype=np.float32)
        for tid, weight in zip(expansion.tids, expansion.weights, strict=True):
            for segment in self._segments:
                span, present = segment.postings(tid)
                if not present:
                    continue
                docs = segment.docs[span]
                scores[docs] = np.maximum(scores[docs], segment.scores[span] * np.float32(weight))
        result = _WordScores(scores, expansion)
        self._cache[key] = result
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return result

    def _resolve(self, word: str, typing: bool) -> list[tuple[str, bool]]:
        """A compound stands for its joined form if the index knows it, else for its parts.

        Known means the joined form is an index word or, while typing, begins one: a typo of a
        joined form would be a guess on a guess, so ``state-space`` then finds "state space".
        """
        if "-" not in word:
            return [(word, typing)]
        joined = _word_key(word)
        lo, hi = self._prefix_range(joined)
        if joined in self._vocab or (typing and hi > lo):
            return [(joined, typing)]
        parts = [p for p in word.split("-") if p]
        return [(p, typing and i == len(parts) - 1) for i, p in enumerate(parts)]

    def _docs_with(self, tids: Iterable[int], field_bits: int = 0xFF) -> BoolArray:
        """Papers that contain any of the terms (in the given fields)."""
        mask = np.zeros(len(self._papers), dtype=np.bool_)
        for tid in tids:
            for segment in self._segments:
                span, present = segment.postings(tid)
                if not present:
                    continue
                docs = segment.docs[span]
                if field_bits != 0xFF:
                    docs = docs[(segment.masks[span] & field_bits) != 0]
                mask[docs] = True
        return mask

    # ----------------------------------------------------------------- filters

    def _filter(
        self,
        query: Query,
        statuses: Mapping[str, Status | str] | None,
        tags: Mapping[str, Sequence[str]] | None,
        author_terms: set[str],
    ) -> tuple[BoolArray, list[_PhraseCheck]]:
        """Papers the qualifiers, exclusions and phrases allow, and the phrase checks left to do.

        A phrase of several words narrows the papers to those with all its words here; whether
        the words are in a row is checked later, paper by paper, only as far as the results go.
        """
        mask = self._live.copy()
        checks: list[_PhraseCheck] = []
        for qualifier in query.qualifiers:
            selected = self._qualifier_mask(qualifier, statuses, tags, author_terms)
            if qualifier.negated:
                mask &= ~selected
            else:
                mask &= selected
        excluded = [w.split("-") for w in query.excluded]
        excluded += [p.split() for p in query.excluded_phrases]
        for parts in excluded:
            words = [w for w in parts if w]
            if not words:
                continue
            joined = self._vocab.get("".join(words))
            if joined is not None:
                mask &= ~self._docs_with([joined])
            if len(words) > 1:
                having = self._words_mask(words, False)
                checks.append(_PhraseCheck(tuple(words), False, False, having))
        for i, phrase in enumerate(query.phrases):
            words = phrase.split()
            is_open = query.open_phrase and i == len(query.phrases) - 1
            mask &= self._words_mask(words, is_open)
            if len(words) > 1:
                checks.append(_PhraseCheck(tuple(words), is_open, True))
        return mask, checks

    def _qualifier_mask(
        self,
        qualifier: Qualifier,
        statuses: Mapping[str, Status | str] | None,
        tags: Mapping[str, Sequence[str]] | None,
        author_terms: set[str],
    ) -> BoolArray:
        size = len(self._papers)
        key, value = qualifier.key, qualifier.value
        if key == "is":
            return self._status_mask(_statuses_for(value), statuses or {})
        if key == "has":
            return self._has_code.copy()
        if key == "status":
            codes = [c for v, c in self._venues.items() if v and v.startswith(value)]
            return np.isin(self._venue_code, codes)
        if key == "list":
            codes = [c for names, c in self._list_sets.items() if any(value in x for x in names)]
            return np.isin(self._lists_code, codes)
        if key == "tag":
            mask = np.zeros(size, dtype=np.bool_)
            for paper_id, paper_tags in (tags or {}).items():
                slot = self._slot_by_id.get(paper_id)
                if slot is not None and any(value in normalize(t) for t in paper_tags):
                    mask[slot] = True
            return mask
        # author: every word of the value matches a word of one author's name
        mask = np.ones(size, dtype=np.bool_)
        wanted: list[set[int]] = []
        for word in _query_words(value):
            joined = _word_key(word)
            parts = [joined] if joined in self._vocab or "-" not in word else word.split("-")
            for part in filter(None, parts):
                tids = self._author_words(part)
                wanted.append(set(tids))
                mask &= self._docs_with(tids, 1 << _AUTHORS)
                if not qualifier.negated:
                    author_terms.update(self._terms[t] for t in tids)
        if len(wanted) > 1:  # "yoshua bengio": the words must name the same author
            for slot in np.flatnonzero(mask).tolist():
                mask[slot] = any(
                    all(not wanted_ids.isdisjoint(ids) for wanted_ids in wanted)
                    for ids in self._author_name_ids(slot)
                )
        return mask

    def _author_name_ids(self, slot: int) -> list[set[int]]:
        """The term ids of each author of a paper, author by author."""
        vocab = self._vocab
        return [
            {vocab[t] for t in tokenize(author) if t in vocab}
            for author in self._papers[slot].authors
        ]

    def _author_words(self, word: str) -> list[int]:
        """Words of authors' names that are ``word``, begin with it, or are a typo away."""
        lo, hi = self._prefix_range(word)
        tids = [t for t in self._sorted_tids[lo:hi].tolist() if t in self._author_tids]
        typos = max_typos(word)
        if typos:
            near: dict[int, tuple[float, bool]] = {}
            self._add_typos(word, typos, near)
            tids.extend(t for t in near if t in self._author_tids)
        return tids

    def _status_mask(
        self, wanted: frozenset[Status], statuses: Mapping[str, Status | str]
    ) -> BoolArray:
        """Papers in one of the wanted triage states (papers absent from ``statuses``: inbox)."""
        mask = np.full(len(self._papers), Status.INBOX in wanted, dtype=np.bool_)
        if not statuses:
            return mask
        slots = np.fromiter(
            map(self._slot_by_id.get, statuses.keys(), repeat(-1)), np.int64, len(statuses)
        )
        chosen = np.fromiter(
            (_as_status(v) in wanted for v in statuses.values()), np.bool_, len(statuses)
        )
        known = slots >= 0
        mask[slots[known]] = chosen[known]
        return mask

    def _words_mask(self, words: Sequence[str], is_open: bool) -> BoolArray:
        """Papers with every one of the words (the last as a prefix when ``is_open``)."""
        mask = self._live.copy()
        for i, word in enumerate(words):
            if is_open and i == len(words) - 1:
                mask &= self._docs_with(self._expand(word, True, True).tids)
                continue
            tid = self._vocab.get(word)
            if tid is None:
                return np.zeros(len(self._papers), dtype=np.bool_)
            mask &= self._docs_with([tid])
        return mask

    def _passes(self, slot: int, checks: Sequence[_PhraseCheck]) -> bool:
        """Whether a paper has each wanted phrase and none of the unwanted ones.

        Answers are remembered per phrase, so typing on after a closing quote costs nothing.
        """
        for check in checks:
            if check.candidates is not None and not check.candidates[slot]:
                found = False
            else:
                answers = self._phrase_answers.get(check.key)
                if answers is None:
                    answers = self._phrase_answers[check.key] = {}
                    if len(self._phrase_answers) > _CACHE_SIZE:
                        self._phrase_answers.popitem(last=False)
                found_before = answers.get(slot)
                if found_before is None:
                    found_before = answers[slot] = self._has_phrase(slot, check)
                found = found_before
            if found != check.wanted:
                return False
        return True

    def _has_phrase(self, slot: int, check: _PhraseCheck) -> bool:
        """Whether the paper has the check's phrase in its title, name, authors or abstract."""
        paper = self._papers[slot]
        for text in (paper.title, paper.abstract, paper.name):
            if text and _has_phrase(check.pattern, normalize(_strip_latex(text))):
                return True
        return bool(paper.authors) and _has_phrase(
            check.pattern, normalize("; ".join(paper.authors))
        )

    def _ranked(
        self,
        candidates: IntArray,
        score: npt.NDArray[np.float64],
        limit: int | None,
        checks: Sequence[_PhraseCheck],
    ) -> IntArray:
        """Indices into ``candidates`` of the best ``limit`` that pass the phrase checks."""
        if not checks:
            return self._best(candidates, score, limit)
        kept: list[int] = []

        def scan(order: IntArray) -> bool:
            for i in order.tolist():
                if self._passes(int(candidates[i]), checks):
                    kept.append(i)
                    if limit is not None and len(kept) >= limit:
                        return True
            return False

        first = self._best(candidates, score, None if limit is None else 4 * limit + 16)
        if not scan(first) and limit is not None and len(first) < len(candidates):
            scan(self._best(candidates, score, None)[len(first) :])
        return np.asarray(kept, dtype=np.int64)

    # ----------------------------------------------------------------- searching

    def search(
        self,
        query: str | Query,
        limit: int | None = 20,
        statuses: Mapping[str, Status | str] | None = None,
        tags: Mapping[str, Sequence[str]] | None = None,
    ) -> list[SearchHit]:
        """Papers matching ``query``, best first (list order when only filters are given).

        ``statuses`` maps paper ids to triage states (absent ids are in the inbox) for ``is:``;
        ``tags`` maps paper ids to tags for ``tag:``. ``limit=None`` returns every match.
        """
        return self.rank(query, limit, statuses, tags).hits()

    def rank(
        self,
        query: str | Query,
        limit: int | None = 20,
        statuses: Mapping[str, Status | str] | None = None,
        tags: Mapping[str, Sequence[str]] | None = None,
    ) -> Ranking:
        """``search``, as a ``Ranking``: the ids at once, a hit only for the papers read."""
        parsed = parse_query(query) if isinstance(query, str) else query
        with self._lock:
            return self._search(parsed, limit, statuses, tags)

    def _search(
        self,
        query: Query,
        limit: int | None,
        statuses: Mapping[str, Status | str] | None,
        tags: Mapping[str, Sequence[str]] | None,
    ) -> Ranking:
        if limit is not None and limit <= 0 or not self._papers:
            return Ranking([], [], _NO_WORDS)
        author_terms: set[str] = set()
        mask, checks = self._filter(query, statuses, tags, author_terms)
        words: list[tuple[str, bool, bool]] = []
        for i, word in enumerate(query.words):
            typing = query.typing and i == len(query.words) - 1
            words.extend((w, t, False) for w, t in self._resolve(word, typing))
        for i, phrase in enumerate(query.phrases):
            is_open = query.open_phrase and i == len(query.phrases) - 1
            parts = phrase.split()
            words.extend((w, is_open and j == len(parts) - 1, True) for j, w in enumerate(parts))
        if not words:
            return self._filtered(mask, limit, author_terms, checks)
        scored = [self._word_scores(w, typing, exact) for w, typing, exact in words]
        total = np.zeros(len(self._papers), dtype=np.float64)
        covered = np.zeros(len(self._papers), dtype=np.int64)
        for entry in scored:
            total += entry.scores
            covered += entry.scores > 0
        candidates = np.flatnonzero(mask & (covered > 0))
        if not len(candidates):
            return Ranking([], [], _NO_WORDS)
        score = covered[candidates] * _TIER + total[candidates]
        score += self._name_bonus(words, scored, candidates)
        free = [(w, t) for w, t, exact in words if not exact]
        if len(free) >= 2:
            score += self._phrase_bonus(free, scored, candidates, score)
        order = self._ranked(candidates, score, limit, checks)
        return self._hits(candidates[order], score[order], scored, author_terms)

    def _name_bonus(
        self, words: list[tuple[str, bool, bool]], scored: list[_WordScores], candidates: IntArray
    ) -> npt.NDArray[np.float64]:
        """A bonus for papers whose method name the query says (or nearly says, or begins)."""
        result = np.zeros(len(candidates), dtype=np.float64)
        if not self._name_slots:
            return result
        bonus: dict[int, float] = {}

        def grant(key: str, amount: float) -> None:
            for slot in self._name_slots.get(key, ()):
                if amount > bonus.get(slot, 0.0):
                    bonus[slot] = amount

        if len(words) > 1:
            grant("".join(w for w, _, _ in words), _NAME_BONUS)
        for (word, typing, _), entry in zip(words, scored, strict=True):
            expansion = entry.expansion
            for tid, quality, whole in zip(
                expansion.tids, expansion.qualities, expansion.whole, strict=True
            ):
                term = self._terms[tid]
                if term == word:
                    grant(term, _NAME_BONUS)
                elif word in self._vocab:
                    continue  # a real word: the user did not mean a look-alike name
                elif whole:
                    grant(term, _NAME_BONUS * quality)
                elif typing and len(word) >= 0.75 * len(term):
                    grant(term, 0.5 * _NAME_BONUS * quality)
        if bonus:
            full = np.zeros(len(self._papers), dtype=np.float64)
            slots = np.fromiter(bonus.keys(), np.int64, len(bonus))
            full[slots] = np.fromiter(bonus.values(), np.float64, len(bonus))
            result = full[candidates]
        return result

    def _phrase_bonus(
        self,
        free: list[tuple[str, bool]],
        scored: list[_WordScores],
        candidates: IntArray,
        score: npt.NDArray[np.float64],
    ) -> npt.NDArray[np.float64]:
        """A bonus for the best papers whose title has the query's words in the order typed."""
        bonus = np.zeros(len(candidates), dtype=np.float64)
        accepted = [set(entry.expansion.tids) for entry in scored[: len(free)]]
        count = min(_PHRASE_RERANK, len(score))
        top = np.argpartition(-score, count - 1)[:count]
        best_tier = score.max() // _TIER
        offsets = self._title_offsets
        for index in top[score[top] // _TIER == best_tier].tolist():
            slot = int(candidates[index])
            title = self._title_tids[offsets[slot] : offsets[slot + 1]].tolist()
            if _has_run(title, accepted):
                bonus[index] = _PHRASE_BONUS
        return bonus

    def _best(
        self, candidates: IntArray, score: npt.NDArray[np.float64], limit: int | None
    ) -> IntArray:
        """Indices into ``candidates`` of the best ``limit``, by score then list order."""
        if limit is not None and limit < len(candidates):
            kth = np.partition(-score, limit - 1)[limit - 1]
            keep = np.flatnonzero(-score <= kth)
        else:
            keep = np.arange(len(candidates))
        order = keep[np.lexsort((self._rank[candidates[keep]], -score[keep]))]
        return order[:limit] if limit is not None else order

    def _filtered(
        self,
        mask: BoolArray,
        limit: int | None,
        author_terms: set[str],
        checks: Sequence[_PhraseCheck],
    ) -> Ranking:
        """Every paper the filters allow, in list order."""
        slots = np.flatnonzero(mask)
        slots = slots[np.argsort(self._rank[slots], kind="stable")]
        if checks:
            ranks = self._rank[slots].astype(np.float64)
            slots = slots[self._ranked(slots, -ranks, limit, checks)]
        if limit is not None:
            slots = slots[:limit]
        return self._hits(slots, np.zeros(len(slots)), (), author_terms)

    def _hits(
        self,
        slots: IntArray,
        scores: npt.NDArray[np.float64],
        scored: Sequence[_WordScores],
        author_terms: set[str],
    ) -> Ranking:
        """The papers in ``slots``, explained (matched words per field) when first read."""
        tids = tuple(dict.fromkeys(t for entry in scored for t in entry.expansion.tids))
        explanation: _Words = _NO_WORDS
        if tids or author_terms:
            explanation = _Explanation(
                self._papers,
                tuple(self._segments),
                self._terms,
                slots,
                tids,
                frozenset(author_terms),
            )
        return Ranking(self._ids[slots].tolist(), scores.tolist(), explanation)


def _has_run(tokens: list[int], accepted: list[set[int]]) -> bool:
    """True when some consecutive tokens match each accepted set in turn."""
    n = len(accepted)
    first, rest = accepted[0], accepted[1:]
    for start in range(len(tokens) - n + 1):
        if tokens[start] in first:
            for i, wanted in enumerate(rest, start=start + 1):
                if tokens[i] not in wanted:
                    break
            else:
                return True
    return False
