"""When two records are one paper, and the id a paper gets.

Two records are one paper when they have the same abstract and compatible titles (a record
without a title, or with a title derived from its abstract, is compatible with any). "The
same abstract" is compared in a form that forgives how a source writes it — LaTeX or Unicode
(``$\\alpha$`` = ``α``), ligatures, case, spacing, punctuation — but not what it says: the
numbers and math operators it holds must be the same ("by 9.5%" is not "by 95%", ``α + β`` is
not ``α − β``). A placeholder ("The abstract of this paper is not available") is no abstract.

A paper's id is 12 hex characters of a hash:

- of its abstract's identity (``abstract_identity``), for a record with a real abstract;
- of its title (``title_key``), for a record without one (BibTeX, RIS, title-only catalogs),
  and of its first author's family name when it names one (``author_keys.family_key``): two
  works of one title (LeCun's "Deep learning" in Nature, Goodfellow's book) get two ids, in
  whichever order, on whichever device, they come;
- of both, for a paper that shares its abstract with a different paper already known
  (``id_with_title``): the two stay apart.

Changing anything here changes ids: ``storage.files.migrations`` moves existing libraries over.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from storage.importing.author_keys import family_key
from storage.text.normalize import key
from storage.text.rich_text import plain_title

__all__ = [
    "ID_LENGTH",
    "abstract_identity",
    "id_of_abstract",
    "id_of_title",
    "id_with_title",
    "is_placeholder",
    "says_no_abstract",
    "is_placeholder_title",
    "id_of_placeholder",
    "text_key",
    "title_key",
    "title_match_key",
    "titles_compatible",
]

ID_LENGTH: Final = 12
#: An abstract with fewer letters and digits than this is no abstract (a stray field).
MIN_ABSTRACT_ALNUM: Final = 20

# What a placeholder says, on text folded and reduced to words: a line about a missing
# abstract. Real abstracts are hundreds of characters, so only short texts are looked at.
_PLACEHOLDER: Final = re.compile(
    r"^(?:n a|na|tba|tbd|none|null|nan|todo|abstract|empty|missing|withdrawn)$"
    r"|\bno abstract\b|\babstract (?:is )?(?:not |un)available\b|\bnot available\b"
    r"|\bunavailable\b|\bcoming soon\b|\bplaceholder\b|\babstract (?:tba|tbd|pending|missing)\b"
    r"|\bto be (?:announced|added|provided|determined)\b"
)
_PLACEHOLDER_MAX_CHARS: Final = 160

# What must agree between two abstracts of one paper besides their words: numbers as written
# (with their decimal points), and math operators. A dash counts as a minus unless it joins
# two letters (``state-of-the-art``); a run of dashes is one (``--`` is LaTeX's ``–``); every
# kind of dash is the same minus (``-``, ``−``, ``–``), so ASCII and Unicode renderings of one
# text agree.
_LETTER = r"[^\W\d_]"
_DASH_CHAR = "[-‐‑‒–—−]"
_OPERATORS = "+±∓×÷=≠≈<>≤≥≪≫∝/%⁄"
# The pattern opens with the one class of characters a sign starts with, so that the engine
# skips from one to the next in C (the search of an abstract's text 1.6x faster than with a
# look-ahead over the words that are not all letters); what the sign is, and for a dash
# whether it counts, is then told by looking back at the character it took.
_SIGNS: Final = re.compile(
    rf"[\d{_OPERATORS}‐‑‒–—−-]"
    rf"(?:(?<=\d)\d*(?:[.,]\d+)*"  # a number, with its decimal points
    rf"|(?<=[{_OPERATORS}])"  # an operator
    # a run of dashes after no letter, or a run not followed by one
    rf"|(?<={_DASH_CHAR})(?<!{_LETTER}{_DASH_CHAR})(?<!{_DASH_CHAR}{_DASH_CHAR}){_DASH_CHAR}*+"
    rf"|(?<={_DASH_CHAR})(?<!{_DASH_CHAR}{_DASH_CHAR}){_DASH_CHAR}*+(?!{_LETTER}))"
)
#: ``_SIGNS`` for ASCII text, whose digits and letters are ASCII's: the engine tells them by a
#: table, not by each character's Unicode category (the signs of the 65,000 ASCII abstracts
#: of the 100,000 of ``benchmarks.import_speed``: 0.86 s of CPU, 0.64 s so).
_ASCII_SIGNS: Final = re.compile(_SIGNS.pattern, re.ASCII)
_DASH_RUN: Final = re.compile("-+")
_SAME_SIGN: Final = str.maketrans({"⁄": "/", **dict.fromkeys("‐‑‒–—−", "-")})

#: Titles of one paper differ little (a subtitle, a revision): this similar, in 0–100.
_TITLE_SIMILARITY: Final = 80


#: What makes an ASCII text read otherwise once made readable (``to_unicode``), beyond its
#: spaces: LaTeX, Markdown, entities, links, the control characters it drops (a tab, a line
#: end or a form feed is only a space).
_MARKUP_BYTES: Final = b"\\${}~_^*`&<" + bytes([*range(0x09), 0x0B, *range(0x0E, 0x20), 0x7F])
_MARKUP_TEXTS: Final = ("''", "](", "--", "www.")
#: The other ASCII bytes, which ``bytes.translate`` takes out (what is left is markup).
_PLAIN_BYTES: Final = bytes(b for b in range(128) if b not in _MARKUP_BYTES)


def _readable(text: str, *, first: bool = True) -> str:
    """``text`` as people read it, as far as its words and signs go: LaTeX, Markdown and
    entities turned into Unicode (``to_unicode``), so that a text and its display form, as our
    exports write it, read alike; its spaces as they come (``to_unicode``'s ``spaced``). For
    an id (``first``), the commands the converter once read otherwise read as they then did
    (``_as_first_named``).

    Neither ``key`` nor ``_signs`` sees spaces: how many there are, of which kind, where a
    text starts and ends. So ASCII text with none of the markup the converter reads (half the
    abstracts) is given as it is: the converter would only change its spaces (an abstract's
    identity a quarter faster); and the converter leaves the spaces of the other texts.
    """
    if (
        text.isascii()
        and not text.encode("ascii").translate(None, _PLAIN_BYTES)
        and not any(markup in text for markup in _MARKUP_TEXTS)
    ):
        return text
    from storage.text.latex import to_unicode

    if first and "\\" in text:  # (``_as_first_named``)
        text = _FIRST_NAMED.sub(_as_first_named, text)
    return to_unicode(text, spaced=False)


#: The commands the converter once read as names it did not know, and now as what TeX sets
#: (``\hyphen`` a hyphen, ``\slash`` a slash, ``\nobreakdash`` nothing): ``_as_first_named``.
_FIRST_NAMED: Final = re.compile(r"\\(hyphen|slash|nobreakdash)(?![A-Za-z])")


def _as_first_named(match: re.Match[str]) -> str:
    """``\\hyphen`` (``\\slash``, ``\\nobreakdash``) as the converter read it when ids were
    first given: a command it did not know, printed as its name (``self\\hyphen supervised``
    was ``selfhyphen supervised``; now ``self-supervised``, as TeX prints it). Written in
    capitals it is still no command the converter knows, and reads as it did, its case aside,
    which neither the key of a text nor its signs see: an id stays what it was, as with
    ``_as_first_read``."""
    return "\\" + match.group(1).upper()


def text_key(text: str) -> str:
    """Letters and digits of the readable text, folded: ``{$\\tau$}-Bench`` is ``τbench``."""
    return key(_readable(text))


def title_key(title: str) -> str:
    """The form a title-keyed id hashes (case, accents' forms, LaTeX and punctuation
    forgiven)."""
    return text_key(title)


def title_match_key(title: str) -> str:
    """The form titles are matched in: ``title_key`` of the title with its rich text read
    (``plain_title``), so that ``<i>In vivo</i> study``, as a library holds it from a version
    that kept the tags (or as a plain list writes it), is ``In vivo study`` as a reader of
    rich text now gives it; its commands as the converter reads them now (``Input\\slash
    Output`` is ``Input/Output``, as our exports write it). Ids keep ``title_key``: the papers
    of a library keep theirs."""
    return key(_readable(plain_title(title), first=False))


def is_placeholder(abstract: str) -> bool:
    """True for an abstract that only says there is none ("Abstract not available", "N/A")."""
    # A real abstract is told by its start: the words of a prefix, joined, are never longer
    # than those of the whole text, so no need to join the whole text's words (twice per
    # record on an import).
    head = abstract[: 2 * _PLACEHOLDER_MAX_CHARS]
    if len(head) > _PLACEHOLDER_MAX_CHARS and len(" ".join(head.split())) > _PLACEHOLDER_MAX_CHARS:
        return False
    text = " ".join(abstract.split())
    if len(text) > _PLACEHOLDER_MAX_CHARS:
        return False
    if sum(ch.isalnum() for ch in text) < MIN_ABSTRACT_ALNUM:
        return True
    return says_no_abstract(text)


def says_no_abstract(text: str) -> bool:
    """True for a short text whose words say there is no abstract ("No abstract available",
    "N/A", "TBD"), whatever its length: not a short text that is something else (a stray
    "Keynote talk."), which ``is_placeholder`` takes for none too, for its length alone."""
    if len(text) > 2 * _PLACEHOLDER_MAX_CHARS:
        return False
    words = " ".join(re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold()))
    return _PLACEHOLDER.search(words) is not None


# What a title says when a source has none: "withdrawn", "N/A", "TBD", "Untitled", "[Title]".
_PLACEHOLDER_TITLE: Final = re.compile(
    r"^(?:n a|na|tba|tbd|tbc|none|null|nan|todo|untitled|no title|title|placeholder|"
    r"anonymous|unknown|withdrawn|withdrawn submission|withdrawn paper|desk rejected|"
    r"deleted|removed|redacted|untitled (?:paper|document|submission))$"
)


def is_placeholder_title(title: str) -> bool:
    """True for a title that only says there is none: it names no paper, so two records
    sharing it are never one paper for that reason."""
    if len(title) > 40:  # every placeholder is short; most titles are not (asked per record)
        return False
    words = " ".join(re.findall(r"\w+", unicodedata.normalize("NFKC", title).casefold()))
    return not words or _PLACEHOLDER_TITLE.match(words) is not None


def _signs(text: str) -> str:
    """The numbers and operators of ``text``, in order (see ``_SIGNS``)."""
    found = (_ASCII_SIGNS if text.isascii() else _SIGNS).findall(text)
    return _DASH_RUN.sub("-", " ".join(found).translate(_SAME_SIGN))


def abstract_identity(abstract: str) -> str | None:
    """What two abstracts of one paper share: their words and their numbers and operators.

    None for no abstract (empty, a placeholder): such a record is known by its title. A text
    symbol's control word is read as it was when ids were first given (``_as_first_read``).
    """
    if not abstract or is_placeholder(abstract):
        return None
    if "\\text" in abstract:
        abstract = _as_first_read(abstract)
    readable = unicodedata.normalize("NFKC", _readable(abstract))
    return f"{key(readable)}\x1f{_signs(readable)}"


#: A text symbol's control word and the spaces that end it (``a\textendash b``).
_ENDED_BY_SPACE: Final = re.compile(r"\\(text[A-Za-z]+)(?=\s)")


def _as_first_read(abstract: str) -> str:
    """``abstract`` with a text symbol's control word followed by spaces (``a\\textendash b``)
    ended by ``{}``: the LaTeX converter once kept those spaces (``a– b``, a minus among the
    signs), and now reads them as TeX does (``a–b``). An id stays what it was, on every
    device: a library made before keeps its papers' ids, and a list imported anew elsewhere
    gives the same ones (a lookup of the earlier id at import kept the first but not the
    second: a sync then carried the paper twice)."""
    from storage.text.tex_commands import TEXT_SYMBOLS, more_symbols

    def ended(match: re.Match[str]) -> str:
        name = match.group(1)
        symbol = name in TEXT_SYMBOLS or name in more_symbols()
        return match.group() + "{}" if symbol else match.group()

    return _ENDED_BY_SPACE.sub(ended, abstract)


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:ID_LENGTH]


def id_of_abstract(identity: str) -> str:
    """The id of a paper known by its abstract (``abstract_identity``)."""
    return _hash(identity)


def id_of_title(title: str, authors: Sequence[str] = ()) -> str:
    """The id of a paper known by its title (a record without an abstract): its title and its
    first author's family name (``family_key``), or its title alone when it names no first
    author, the id every such paper had before (a library's papers keep it: matching finds
    them by title, ``storage.importing.resolve``)."""
    family = family_key(authors)
    if not family:
        return _hash("title\x1f" + title_key(title))
    return _hash(f"title\x1f{title_key(title)}\x1fauthor\x1f{family}")


def id_of_placeholder(title: str, url: str, authors: tuple[str, ...]) -> str:
    """The id of a record known by neither abstract nor title (its title a placeholder): its
    link and authors, so that two such records are one paper only when they agree."""
    return _hash("\x1f".join(("placeholder", title_key(title), url, *map(text_key, authors))))


def id_with_title(identity: str, title: str) -> str:
    """The id of a paper that shares its abstract with another paper: abstract and title."""
    return _hash(f"{identity}\x1ftitle\x1f{title_key(title)}")


def titles_compatible(first: str, second: str) -> bool:
    """Whether two titles (either "" for none) may be one paper's: either missing, the same
    words, one the start of the other (a subtitle dropped), or nearly the same words."""
    a, b = title_match_key(first), title_match_key(second)
    if not a or not b or a == b:
        return True
    if a.startswith(b) or b.startswith(a):
        return min(len(a), len(b)) >= 4
    from rapidfuzz import fuzz  # only when two titles differ: opening a library needs none

    return fuzz.ratio(a, b) >= _TITLE_SIMILARITY
