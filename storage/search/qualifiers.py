"""Search qualifiers (``is:starred``, ``author:bengio``), each declared once.

A ``QualifierKind`` says everything about one key: the value people type, a line of help, an
example, which values it takes (another value makes ``key:value`` plain text), which papers
it selects, and what a search that finds nothing says when no paper of the library has its
field (``rating:>6`` without ratings: ``none_found.py``). Parsing (``parse_query``),
filtering (``filters.py``), the app's search hint, the help of ``papers search`` and the
README's list of qualifiers all read ``QUALIFIERS``: to add a qualifier, add one entry there.

Qualifiers are written as on GitHub, case-insensitive, and any of them is negated by a leading
``-`` (``-is:read``). A key with no value yet (``is:`` while typing) filters nothing, and its
note says the values it takes.

Nothing here needs numpy: the CLI builds its help from this module without loading the index.
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

from storage.models import Paper, Status
from storage.text.normalize import fold

if TYPE_CHECKING:
    from storage.search.postings import BoolArray


@dataclass(frozen=True, slots=True)
class Qualifier:
    """A ``key:value`` filter of a query, such as ``is:starred``; ``negated`` for ``-key:value``."""

    key: str
    value: str
    negated: bool = False


class PaperFacts(Protocol):
    """What a qualifier may ask about the indexed papers; each answer is a mask over them."""

    def with_status(self, wanted: frozenset[Status]) -> BoolArray:
        """Papers in one of the wanted triage states."""
        ...

    def with_code(self) -> BoolArray:
        """Papers that link a GitHub repository."""
        ...

    def with_note(self) -> BoolArray:
        """Papers with a note."""
        ...

    def with_venue(self, accepts: Callable[[str], bool]) -> BoolArray:
        """Papers with a venue status (folded: ``oral``) that ``accepts`` takes."""
        ...

    def in_lists(self, accepts: Callable[[tuple[str, ...]], bool]) -> BoolArray:
        """Papers whose list names (folded) ``accepts`` takes."""
        ...

    def tagged(self, accepts: Callable[[Sequence[str]], bool]) -> BoolArray:
        """Papers whose tags (as the user wrote them) ``accepts`` takes; untagged papers never."""
        ...

    def by_author(self, name: str, *, highlight: bool) -> BoolArray:
        """Papers with one author whose name has every word of ``name`` (that word, else
        words it begins, else a typo away: ``Vocabulary.author_words``); with ``highlight``,
        the hits mark the author words matched."""
        ...

    def in_field(self, field: str, text: str, *, highlight: bool) -> BoolArray:
        """Papers whose ``field`` ("title", "abstract") has the word of ``text`` (exactly, as a
        prefix, or a typo away) or, for several words, has them in a row; with ``highlight``,
        the hits mark the words matched there."""
        ...

    def with_number(self, field: str, test: NumberTest) -> BoolArray:
        """Papers whose extra field ``field`` (``rating``, ``citations``) is a number ``test``
        passes; papers without it never do."""
        ...

    def with_area(self, accepts: Callable[[str], bool]) -> BoolArray:
        """Papers whose primary area (folded) ``accepts`` takes; papers without one: ""."""
        ...

    def where(self, accepts: Callable[[Paper], bool]) -> BoolArray:
        """Papers that ``accepts`` takes, one by one (for a qualifier on any other field)."""
        ...

    def in_pdf(self, text: str) -> BoolArray:
        """Papers whose downloaded PDF's text has the words of ``text`` in a row (the last as
        a prefix); none when no PDF text is at hand."""
        ...


class HeldFields(Protocol):
    """What a search that found nothing asks of the library to say why (``none_found.py``)."""

    def held(self, field: str, has: Callable[[Paper], bool] | None = None) -> bool:
        """Whether any paper of the library has ``field``: one the index keeps ("status",
        "list", "rating", "citations", "area"), a tag ("tag"), a downloaded PDF's text
        ("pdf"), or, with ``has``, what ``has`` finds in a paper (a look at each paper until
        one has it)."""
        ...


class PdfTextSearch(Protocol):
    """The text of the downloaded PDFs, as a search asks it (``storage.cache.pdf_text``)."""

    def papers_with(self, value: str) -> Collection[str]:
        """The ids of the papers whose PDF has the words of ``value`` in a row."""
        ...

    def has_texts(self) -> bool:
        """Whether any downloaded PDF has a text to search."""
        ...


def _any_value(value: str) -> bool:
    return True


def _no_value(value: str) -> bool:
    return False


def _lacks_nothing(facts: HeldFields, qualifier: Qualifier) -> str:
    return ""


def _lacking(
    field: str, lacks: str, has: Callable[[Paper], bool] | None = None
) -> Callable[[HeldFields, Qualifier], str]:
    """The note of a key whose ``field`` no paper of the library has: "no paper in this
    library " and ``lacks`` ("has a rating (…)"); "" when some paper has it."""

    def lacking(facts: HeldFields, qualifier: Qualifier) -> str:
        return "" if facts.held(field, has) else f"no paper in this library {lacks}"

    return lacking


@dataclass(frozen=True, slots=True)
class QualifierKind:
    """One qualifier key, declared once: syntax, help, the values it takes, what it selects."""

    #: The key before the colon, lower case (``is``).
    key: str
    #: The value as help texts show it (``STATE``, ``NAME``, or the one value, ``code``).
    value: str
    #: What the qualifier keeps, in one line of help.
    help: str
    #: A query using it, as the help shows it (``is:starred``).
    example: str
    #: Which papers a qualifier of this key keeps (the query's ``negated`` is applied after).
    select: Callable[[PaperFacts, Qualifier], BoolArray]
    #: Whether a (folded, non-empty) value is one of this key's; otherwise ``key:value`` is text.
    accepts: Callable[[str], bool] = _any_value
    #: How the app's one-line search hint shows it; empty to leave it out (the box is narrow).
    hint: str = ""
    #: The values it takes, as a note on a value it does not take says them ("" for any).
    takes: str = ""
    #: Whether a value it does not take may be the start of one still being typed (``>``).
    starts: Callable[[str], bool] = _no_value
    #: Why no paper can match it, said when a search finds nothing and it alone matches no
    #: paper: what no paper of the library has ("no paper in this library has a rating
    #: (ratings come with …)"); "" when some paper has the field, only not this value.
    lacking: Callable[[HeldFields, Qualifier], str] = _lacks_nothing

    @property
    def syntax(self) -> str:
        """``key:VALUE``, as help texts list it."""
        return f"{self.key}:{self.value}"


#: The words ``is:`` takes, and the triage state each names.
STATUS_WORDS: Final[Mapping[str, Status]] = {
    "inbox": Status.INBOX,
    "new": Status.INBOX,
    "read": Status.READ,
    "skipped": Status.SKIPPED,
    "skip": Status.SKIPPED,
    "starred": Status.STARRED,
    "star": Status.STARRED,
}


def statuses_for(value: str) -> frozenset[Status]:
    """Triage states named by an ``is:`` value or a prefix of one (``is:st`` is starred)."""
    return frozenset(s for word, s in STATUS_WORDS.items() if word.startswith(value))


def _venue_status(value: str) -> Callable[[str], bool]:
    """What ``status:VALUE`` takes of a folded venue status: one with a word that starts with
    it (``rejected`` takes "Desk rejected", ``oral`` "Accept (Oral)"), or for ``accepted``
    (``accept``…) any status of an accepted paper: a venue fetched with ``--all`` names its
    accepted papers Oral, Spotlight or Poster, never "accepted"."""
    if len(value) >= 6 and "accepted".startswith(value):
        from storage.sources.citation import not_published
        from storage.sources.decisions import says_no_decision

        return lambda venue: (
            not (not_published(venue) or venue.startswith("workshop") or says_no_decision(venue))
        )
    at_a_word = re.compile(rf"(?:^|(?<=\W)){re.escape(value)}")
    return lambda venue: at_a_word.search(venue) is not None


#: What ``has:`` asks of the papers, by the word it takes (a prefix, or a plural, will do).
HAS_WORDS: Final[Mapping[str, Callable[[PaperFacts], BoolArray]]] = {
    "code": lambda facts: facts.with_code(),
    "note": lambda facts: facts.with_note(),
}


def has_word(value: str) -> str | None:
    """The ``has:`` word a value names (``has:n`` and ``has:notes`` name ``note``), if any."""
    return next((w for w in HAS_WORDS if w.startswith(value) or value == f"{w}s"), None)


def _has(facts: PaperFacts, qualifier: Qualifier) -> BoolArray:
    return HAS_WORDS[has_word(qualifier.value) or ""](facts)


def _has_a_word(value: str) -> bool:
    return any(c.isalnum() for c in value)


def _in_field(field: str) -> Callable[[PaperFacts, Qualifier], BoolArray]:
    def select(facts: PaperFacts, qualifier: Qualifier) -> BoolArray:
        # A negated field word is not what the user is looking at: it is not marked.
        return facts.in_field(field, qualifier.value, highlight=not qualifier.negated)

    return select


_NUMBER_TEST: Final = re.compile(
    r"(?P<op>>=|<=|>|<|=)?(?P<a>-?\d+(?:\.\d+)?)(?:\.\.(?P<b>-?\d+(?:\.\d+)?))?"
)


@dataclass(frozen=True, slots=True)
class NumberTest:
    """What a number qualifier asks: ``low`` to ``high`` (each bound included or not)."""

    low: float = -math.inf
    high: float = math.inf
    low_included: bool = True
    high_included: bool = True

    def __call__(self, n: float) -> bool:
        above = n >= self.low if self.low_included else n > self.low
        below = n <= self.high if self.high_included else n < self.high
        return above and below


def number_test(value: str) -> NumberTest | None:
    """What ``>6``, ``>=6.5``, ``<4``, ``5..7`` or ``6`` asks of a number (a range's bounds in
    either order: ``7..5`` is ``5..7``); None for no such."""
    match = _NUMBER_TEST.fullmatch(value.replace(" ", ""))
    if match is None or (match["op"] and match["b"]):
        return None
    a = float(match["a"])
    if match["b"]:
        b = float(match["b"])
        return NumberTest(min(a, b), max(a, b))
    tests = {
        ">": NumberTest(low=a, low_included=False), ">=": NumberTest(low=a),
        "<": NumberTest(high=a, high_included=False), "<=": NumberTest(high=a),
        "=": NumberTest(a, a), "": NumberTest(a, a),
    }  # fmt: skip
    return tests[match["op"] or ""]


#: The number tests a number qualifier takes, as a note says them (with examples of its own).
_NUMBERS: Final = "a number: >6, >=6.5, <4, 5..7 or 6"
_COUNTS: Final = "a number: >100, <10, 10..50 or 0"
_YEARS: Final = "a year: >=2024, <2020, 2020..2024 or 2025"
#: The start of a number test being typed (``>``, ``>=6.``, ``5..``).
_NUMBER_START: Final = re.compile(r"(?:[<>]=?|=)?-?(?:\d+(?:\.\d*)?(?:\.-?\d*(?:\.\d*)?)?)?")


def _starts_a_number(value: str) -> bool:
    return _NUMBER_START.fullmatch(value) is not None


def _by_number(field: str) -> Callable[[PaperFacts, Qualifier], BoolArray]:
    """Papers whose extra field ``field`` (a number) passes the qualifier's test; papers
    without the field never do."""

    def select(facts: PaperFacts, qualifier: Qualifier) -> BoolArray:
        return facts.with_number(field, number_test(qualifier.value) or NumberTest(1, 0))

    return select


def _year_passes(value: str) -> Callable[[Paper], bool]:
    from storage.sources.citation import year_of

    test = number_test(value) or (lambda n: False)
    return lambda paper: (year := year_of(paper)) is not None and test(float(year))


def _venue_texts(paper: Paper) -> list[str]:
    texts = [paper.venue]
    for name in ("journal", "booktitle", "publisher"):
        value = paper.fact(name)
        if isinstance(value, str):
            texts.append(value)
    return texts


def _has_year(paper: Paper) -> bool:
    from storage.sources.citation import year_of

    return year_of(paper) is not None


def _names_venue(paper: Paper) -> bool:
    return any(text.strip() for text in _venue_texts(paper))


#: A triage state as the note of ``is:`` says it ("no paper in this library is starred").
_STATE_SAID: Final[Mapping[Status, str]] = {
    Status.INBOX: "in the Inbox",
    Status.READ: "read",
    Status.SKIPPED: "skipped",
    Status.STARRED: "starred",
}
#: What the note of ``has:`` says no paper does, by its word.
_HAS_SAID: Final[Mapping[str, str]] = {
    "code": "links code (a GitHub repository)",
    "note": "has a note",
}


def _lacks_state(facts: HeldFields, qualifier: Qualifier) -> str:
    # asked when is:STATE alone matches no paper: then no paper is in that state
    (state,) = statuses_for(qualifier.value)
    return f"no paper in this library is {_STATE_SAID[state]}"


def _lacks_has(facts: HeldFields, qualifier: Qualifier) -> str:
    # asked when has:WHAT alone matches no paper: then no paper has it
    return f"no paper in this library {_HAS_SAID[has_word(qualifier.value) or '']}"


def _by_tag(facts: PaperFacts, qualifier: Qualifier) -> BoolArray:
    # tags are kept with dashes for spaces ("to read" is stored "to-read"): asked alike; and
    # written #name on the screen, so tag:#toread asks for toread, as typing #toread tags it
    wanted = "-".join(qualifier.value.removeprefix("#").split())
    return facts.tagged(lambda tags: any(wanted in fold(t) for t in tags))


def _by_author(facts: PaperFacts, qualifier: Qualifier) -> BoolArray:
    # A negated author is not what the user is looking at: its words are not marked.
    return facts.by_author(qualifier.value, highlight=not qualifier.negated)


#: Every qualifier, in the order help texts list them.
QUALIFIERS: Final[tuple[QualifierKind, ...]] = (
    QualifierKind(
        key="is",
        value="STATE",
        help="the triage state: inbox, read, skipped or starred (also new, skip, star, a prefix)",
        example="is:starred",
        select=lambda facts, q: facts.with_status(statuses_for(q.value)),
        # one state: "is:s" (skipped or starred?) is said, as a value it does not take is,
        # but not while it may still be being typed (on its way to "is:starred")
        accepts=lambda value: len(statuses_for(value)) == 1,
        starts=lambda value: bool(statuses_for(value)),
        hint="is:starred",
        takes="inbox, read, skipped or starred",
        lacking=_lacks_state,
    ),
    QualifierKind(
        key="has",
        value="WHAT",
        help="code: the paper links a GitHub repository; note: you wrote a note on it",
        example="has:note",
        select=_has,
        accepts=lambda value: has_word(value) is not None,
        hint="has:code",
        takes="code or note",
        lacking=_lacks_has,
    ),
    QualifierKind(
        key="status",
        value="VENUE",
        help="a word of the venue status starts with VENUE (oral, spotlight, poster, "
        "rejected: desk rejected too); accepted: any status of an accepted paper (not "
        "rejected, withdrawn, submitted, under review, unknown, workshop)",
        example="status:oral",
        select=lambda facts, q: facts.with_venue(_venue_status(q.value)),
        hint="status:oral",
        lacking=_lacking(
            "status", "has a venue status, such as oral (`papers fetch VENUE` gives them)"
        ),
    ),
    QualifierKind(
        key="author",
        value="NAME",
        help="every word of NAME in one author's name (else names it begins, else a typo away)",
        example='author:"yoshua bengio"',
        select=_by_author,
        hint="author:NAME",
    ),
    QualifierKind(
        key="title",
        value="WORD",
        help="WORD in the title (as a prefix, or with a typo); quoted, words in a row there",
        example='title:"flow matching"',
        select=_in_field("title"),
        accepts=_has_a_word,
        takes="a word",
    ),
    QualifierKind(
        key="abstract",
        value="WORD",
        help="WORD in the abstract or keywords (as title: does)",
        example="abstract:benchmark",
        select=_in_field("abstract"),
        accepts=_has_a_word,
        takes="a word",
    ),
    QualifierKind(
        key="list",
        value="NAME",
        help="NAME is part of the name of a list the paper is in",
        example='list:"iclr 2025"',
        select=lambda facts, q: facts.in_lists(lambda names: any(q.value in n for n in names)),
        lacking=_lacking("list", "is in a list"),
    ),
    QualifierKind(
        key="tag",
        value="NAME",
        help="NAME is part of one of the paper's tags",
        example="tag:toread",
        select=_by_tag,
        hint="tag:X",
        lacking=_lacking("tag", "has a tag"),
    ),
    QualifierKind(
        key="rating",
        value="N",
        help="the average review rating a list gave: >6, >=6.5, <4, 5..7 or 6",
        example="rating:>6",
        select=_by_number("rating"),
        accepts=lambda value: number_test(value) is not None,
        takes=_NUMBERS,
        starts=_starts_a_number,
        lacking=_lacking(
            "rating", "has a rating (ratings come with `papers fetch VENUE --reviews`)"
        ),
    ),
    QualifierKind(
        key="citations",
        value="N",
        help="the citation count a list gave: >100, <10, 10..50 or 0",
        example="citations:>100",
        select=_by_number("citations"),
        accepts=lambda value: number_test(value) is not None,
        takes=_COUNTS,
        starts=_starts_a_number,
        lacking=_lacking(
            "citations", "has a citation count (a list that gives them, as Scopus exports do)"
        ),
    ),
    QualifierKind(
        key="year",
        value="N",
        help=(
            "the year the paper appeared: its reference's year, else its venue's or its "
            "paper list's (a reference file's name gives none)"
        ),
        example="year:>=2024",
        select=lambda facts, q: facts.where(_year_passes(q.value)),
        accepts=lambda value: number_test(value) is not None,
        takes=_YEARS,
        starts=_starts_a_number,
        lacking=_lacking(
            "year", "has a year (its reference's, or one in its venue's or list's name)", _has_year
        ),
    ),
    QualifierKind(
        key="venue",
        value="NAME",
        help="NAME is part of the venue, journal, proceedings or publisher the paper names",
        example="venue:neurips",
        select=lambda facts, q: facts.where(
            lambda paper: q.value in fold(" ".join(_venue_texts(paper)))
        ),
        lacking=_lacking("venue", "names a venue, journal, proceedings or publisher", _names_venue),
    ),
    QualifierKind(
        key="pdf",
        value="WORD",
        help=(
            "WORD in the text of the paper's downloaded PDF (papers pdf downloads them); "
            "quoted, words in a row there"
        ),
        example='pdf:"reward model"',
        select=lambda facts, q: facts.in_pdf(q.value),
        accepts=_has_a_word,
        takes="a word",
        lacking=_lacking("pdf", "has a downloaded PDF's text (`papers pdf` downloads them)"),
    ),
    QualifierKind(
        key="area",
        value="NAME",
        help="NAME is part of the paper's primary area, as its list gave it",
        example='area:"reinforcement learning"',
        select=lambda facts, q: facts.with_area(lambda area: q.value in area),
        lacking=_lacking("area", "has a primary area (`papers fetch paperlists:VENUE` gives them)"),
    ),
)

QUALIFIER_KEYS: Final[frozenset[str]] = frozenset(kind.key for kind in QUALIFIERS)
_BY_KEY: Final[Mapping[str, QualifierKind]] = {kind.key: kind for kind in QUALIFIERS}


def kind_of(qualifier: Qualifier) -> QualifierKind:
    """The declaration of a parsed qualifier's key."""
    return _BY_KEY[qualifier.key]


def read_qualifier(key: str, value: str, negated: bool) -> Qualifier | None:
    """The qualifier for ``key:value`` (``key`` lower case), or None when it is not one (then
    it is free text)."""
    kind = _BY_KEY.get(key)
    if kind is None:
        return None
    norm = " ".join(fold(value).split())
    if not norm or not kind.accepts(norm):
        return None
    return Qualifier(key, norm, negated)


def may_be_typing(key: str, value: str) -> bool:
    """Whether ``key:value``, a value ``key`` does not take, may be one still being typed
    (``rating:>``, ``year:20..``)."""
    kind = _BY_KEY.get(key)
    return kind is not None and bool(kind.starts(" ".join(fold(value).split())))


def unread_note(key: str, value: str) -> str:
    """Why ``key:value`` (``key`` lower case), which ``read_qualifier`` did not take, is read
    as words although ``key`` is a qualifier's (``is:skiped is read as words (is: takes
    inbox, read, skipped or starred)``); "" for no qualifier's key, or no value yet."""
    kind = _BY_KEY.get(key)
    if kind is None or not kind.takes or not " ".join(fold(value).split()):
        return ""
    return f"{key}:{value} is read as words ({key}: takes {kind.takes})"


def empty_value_note(key: str) -> str:
    """What ``key:`` (``key`` a qualifier's, lower case) with no value does, nothing, how it is
    written (``is: starred`` is two words) and what it takes, as ``unread_note`` says it:
    ``is: without a value filters nothing (is:STATE, no space; is: takes inbox, read, skipped
    or starred)``; a key that takes any name has only its ``NAME`` to say. The app's list
    border shows some 55 characters at 120 columns: what it cuts is the values, said last."""
    kind = _BY_KEY[key]
    takes = f"; {key}: takes {kind.takes}" if kind.takes else ""
    return f"{key}: without a value filters nothing ({key}:{kind.value}, no space{takes})"


def values_hint(key: str) -> str:
    """What ``key:`` with no value yet, still being typed, says: the values it takes (``is:
    takes inbox, read, skipped or starred``), the way to finish it; "" for a key that takes
    any name (nothing to say while it is typed)."""
    takes = _BY_KEY[key].takes
    return f"{key}: takes {takes}" if takes else ""


# --------------------------------------------------------------------------- help texts

#: The rest of the query syntax, as help texts say it after the qualifiers.
OTHER_SYNTAX: Final = (
    'a paper must match every word; "exact phrase" wants the words in a row; OR between two '
    'words or phrases wants either; -word and -"phrase" leave papers out; '
    "an unknown qualifier is plain text"
)


def search_hint() -> str:
    """The app's one-line search hint (the app puts its search key before it)."""
    shown = " ".join(kind.hint for kind in QUALIFIERS if kind.hint)
    return f'search: words (typos ok), "a phrase", {shown} -word'


def qualifier_help(width: int = 78) -> str:
    """The qualifiers for ``papers search --help``, ``width`` columns wide: one entry each,
    its example after a ``;`` (kept whole: it wraps as one word), then the rest of the syntax."""
    column = max(len(kind.syntax) for kind in QUALIFIERS) + 4
    lines = textwrap.wrap(
        "qualifiers (case-insensitive; negate any with a leading -, as in -is:read):",
        width,
        break_on_hyphens=False,
    )
    for kind in QUALIFIERS:
        text = kind.help
        if kind.example != kind.syntax:
            text += "; " + f"e.g. {kind.example}".replace(" ", "\0")
        entry = textwrap.wrap(
            text,
            max(width, column + 20),
            initial_indent=f"  {kind.syntax}".ljust(column),
            subsequent_indent=" " * column,
            break_on_hyphens=False,
            break_long_words=False,
        )
        lines += [line.replace("\0", " ") for line in entry]
    lines += textwrap.wrap(f"also: {OTHER_SYNTAX}", width, break_on_hyphens=False)
    return "\n".join(lines)


def qualifier_markdown() -> str:
    """The README's list of qualifiers (between its ``<!-- qualifiers -->`` markers)."""
    return "\n".join(
        f"- `{kind.syntax}`: {kind.help}"
        + (f"; e.g. `{kind.example}`" if kind.example != kind.syntax else "")
        for kind in QUALIFIERS
    )
