"""The words of a text as the index sees them, and the words of a query.

Words are runs of letters and digits, folded (``storage.text.normalize.fold``: ``Lévy`` reads
``levy``). Two kinds of *extra* index words help half-remembered names: a hyphenated compound
also gives its parts joined (``ORW-CFM-W2`` → ``orwcfmw2``), and a camelCase title word its
parts (``ParaSolver`` → ``para``, ``solver``).

LaTeX is read as it is shown, through the one converter (``storage.text.latex``): ``$\\ell_2$``
reads ``l2``, ``M\\"uller`` reads ``muller``. Greek letters are read by their names, written in
LaTeX or not, in papers and in queries alike: ``tau`` finds ``$\\tau$`` and ``τ-bench`` finds
``$\\tau$-bench``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

from storage.models import Paper
from storage.text.latex import to_unicode
from storage.text.line_breaks import joined_at_hyphens
from storage.text.normalize import fold as normalize
from storage.text.symbols import GREEK

__all__ = [
    "WORD",
    "folded",
    "index_text",
    "max_typos",
    "method_name",
    "normalize",
    "query_words",
    "split_words",
    "tokenize",
    "word_text",
    "word_key",
    "written_as_name",
]

#: A word: a run of letters and digits.
WORD: Final = re.compile(r"[^\W_]+")
#: ASCII text: every character but letters and digits becomes a space (faster than a regex).
_ASCII_SPACES: Final = str.maketrans({chr(i): " " for i in range(128) if not chr(i).isalnum()})
#: The word a build puts after each text of a paper (``storage.paper_words``), which
#: ``word_text`` never leaves in a text.
MARK: Final = b"\x01"
#: ASCII whitespace as ``str.split`` sees it, each made a space (for ``bytes.find``).
_SPACE_BYTES: Final = bytes(32 if chr(b).isspace() else b for b in range(256))
_COMPOUND: Final = re.compile(r"[^\W_]+(?:[-\u2010][^\W_]+)+")
_WORD_OR_COMPOUND: Final = re.compile(r"[^\W_]+(?:[-\u2010\u2011][^\W_]+)*")
_HYPHEN: Final = re.compile(r"[-\u2010\u2011]")
_CAMEL: Final = re.compile(r"(?<![^\W_])[A-Z]?[a-z]+(?:[A-Z][a-z]+)+(?![^\W_])")
_CAMEL_PART: Final = re.compile(r"[A-Z]?[a-z]+")
_NAME_PREFIX: Final = re.compile(r"^\s*([^\s:][^:]{0,40}?)\s*:\s+\S")
_GREEK_LETTER: Final = re.compile("[\u0370-\u03ff]")
#: LaTeX in running text: inline math (``$`` after and before a non-space, not a price like
#: ``$5 and $6``), a command with its brace arguments, an accent or escape (``\\"u``, ``\\%``).
_LATEX: Final = re.compile(
    r"\$(?=[^\s$])[^$\n]{0,300}?(?<=[^\s$])\$(?!\d)"
    r"|\\[A-Za-z]+\*?(?:\{[^{}\n]{0,300}\})*"
    r"|\\[^A-Za-z\s](?:\{[A-Za-z]?\}|[A-Za-z])?"
)


def _greek_names() -> dict[str, str]:
    """The name of each Greek letter, as written (``Σ`` → ``Sigma``) and folded (``σ`` →
    ``sigma``); the first name of a letter wins (``ε`` is ``epsilon``, not ``varepsilon``)."""
    names: dict[str, str] = {}
    for name, letter in GREEK.items():
        names.setdefault(unicodedata.normalize("NFKC", letter), name)
        names.setdefault(normalize(letter), name.lower())
    return names


_GREEK_NAME: Final = _greek_names()


def _spell(letter: re.Match[str]) -> str:
    return _GREEK_NAME.get(letter.group(), letter.group())


def _spelled(text: str) -> str:
    """Greek letters by their names (``τ-bench`` → ``tau-bench``)."""
    if text.isascii() or not _GREEK_LETTER.search(text):
        return text
    return _GREEK_LETTER.sub(_spell, text)


@lru_cache(maxsize=4096)
def _unicode(latex: str) -> str:
    """One piece of LaTeX as the index reads it: as ``to_unicode`` shows it, in compatibility
    form (``ℓ₂`` reads ``l2``), Greek letters by name, anything but letters and digits a space.

    What is left is ASCII wherever the piece was, so the text keeps the fast ASCII path of
    ``split_words``; its case is kept, for camelCase names. Pieces repeat (``$\\times$``).
    """
    compatible = _spelled(unicodedata.normalize("NFKC", to_unicode(latex)))
    return "".join(c if c.isalnum() else " " for c in compatible)


def forget_pieces() -> None:
    """Let go of the LaTeX pieces read so far (``_unicode``'s): a build lets go of them as it
    ends, as its entries, made among its many short-lived strings, would keep the memory those
    took from going back to the system. (Kept from chunk to chunk, they are read a third as
    often: 1,729 pieces converted for the abstracts of 12,000 papers, 5,223 when let go after
    each chunk.)"""
    _unicode.cache_clear()


def _as_unicode(latex: re.Match[str]) -> str:
    return _unicode(latex.group())


def index_text(text: str) -> str:
    """The text the index reads, case kept: its LaTeX pieces converted (``_unicode``), braces
    dropped (``{$\\tau$}-bench`` → ``tau-bench``), a word a line's end broke at its hyphen
    joined up again, as the paper pane shows it (``joined_at_hyphens``: ``at-⏎tention`` reads
    as ``at-tention`` written on one line, a compound, its parts and the parts joined).

    Only the pieces go through the converter, not the whole text: the same words, several times
    faster (it would rewrite every Markdown mark and entity of an abstract, which tokenising
    drops anyway).
    """
    text = joined_at_hyphens(text)
    if "\\" not in text and "{" not in text and "$" not in text:
        return text
    text = _LATEX.sub(_as_unicode, text)
    return text.replace("{", "").replace("}", "")


def folded(text: str) -> str:
    """A text as the index compares it: LaTeX converted, folded, Greek letters by name."""
    return _spelled(normalize(index_text(text)))


def word_key(word: str) -> str:
    """The index word for a normalised word or hyphenated compound: hyphens dropped."""
    return _HYPHEN.sub("", word)


def written_as_name(word: str, text: str) -> bool:
    """Whether a text writes the index word ``word`` as a name: with a capital past its first
    letter (``LAVA``, ``SMoE``, ``CoED``; ``F-SAT`` for ``fsat``), as a slip of the hand is
    not written (``langauge``, ``Psuedo``)."""
    for compound in _WORD_OR_COMPOUND.finditer(index_text(text)):
        parts = _HYPHEN.split(compound.group())
        if len(parts) == 1 or folded("".join(parts)) != word:
            parts = [part for part in parts if folded(part) == word]
        if any(letter.isupper() for part in parts for letter in part[1:]):
            return True
    return False


def tokenize(text: str, camel_case: bool = False) -> list[str]:
    """The index words of a text.

    Words are runs of letters and digits. A hyphenated compound (``ORW-CFM-W2``) gives its parts
    and the parts joined (``orwcfmw2``); with ``camel_case``, ``ParaSolver`` also gives ``para``
    and ``solver``.
    """
    words, extra = split_words(text, camel_case)
    words.extend(extra)
    return words


def split_words(text: str, camel_case: bool) -> tuple[list[str], list[str]]:
    """The words of a text in order, and the extra index words (joined compounds, camel parts)."""
    clean = index_text(text)
    norm = _spelled(normalize(clean))
    words = norm.translate(_ASCII_SPACES).split() if norm.isascii() else WORD.findall(norm)
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


def word_text(text: str, camel_case: bool = False) -> tuple[str, str]:
    """``split_words`` as two texts, the words (``text_words``) and the extra words, that
    ``storage.paper_words`` cuts into exactly those words: a build cuts the texts of thousands
    of papers at once, without a Python string per word.
    """
    clean = index_text(text)
    norm = _spelled(normalize(clean))
    words = _in_order(norm)
    extra: list[str] = []
    if "-" in norm or "\u2010" in norm:
        # the compounds joined, then their hyphens (and only theirs) dropped in one pass
        joined = " ".join(_COMPOUND.findall(_pieces(norm)))
        if joined:
            extra.append(joined.replace("-", "").replace("\u2010", ""))
    if camel_case:
        for word in _CAMEL.findall(clean):
            extra.extend(p.lower() for p in _CAMEL_PART.findall(word) if len(p) >= 3)
    return words, " ".join(extra)


def text_words(text: str) -> str:
    """The words of a text in order (``split_words``'s first), as a text that
    ``storage.paper_words.RAW_BYTES`` cuts into them, its punctuation kept where it ends a
    phrase (what the similarity reads)."""
    return _in_order(_spelled(normalize(index_text(text))))


#: A character of a text with other than ASCII that is neither a letter nor a digit: it ends
#: a phrase, as ASCII punctuation does (a dash, a curly quote, an arrow, ``×``).
_NON_ASCII_SIGN: Final = re.compile(r"[^\x00-\x7f\w]+")


def _in_order(norm: str) -> str:
    """A folded text as ``RAW_BYTES`` cuts it: the ``MARK`` character it may hold made a space,
    and, beyond ASCII, each run of characters that are no letters or digits made a phrase end
    (the table sees only their bytes, which it keeps)."""
    if "\x01" in norm:
        norm = norm.replace("\x01", " ")
    if norm.isascii():
        return norm
    return _NON_ASCII_SIGN.sub(" \x03 ", norm)


def _pieces(norm: str) -> str:
    """The whitespace-separated pieces of ``norm`` that hold a hyphen, joined by spaces: where
    a compound can be (found by ``bytes.find`` from hyphen to hyphen in ASCII text, rather
    than by splitting all of it into words)."""
    if not norm.isascii():
        return " ".join(x for x in norm.split() if "-" in x or "\u2010" in x)
    data = norm.encode("ascii").translate(_SPACE_BYTES)
    found: list[bytes] = []
    at = data.find(b"-")
    while at >= 0:
        start = data.rfind(b" ", 0, at) + 1
        end = data.find(b" ", at)
        end = len(data) if end < 0 else end
        found.append(data[start:end])
        at = data.find(b"-", end)
    return b" ".join(found).decode("ascii")


def method_name(paper: Paper) -> str:
    """The paper's method name, or the ``NAME`` of a ``NAME: what it does`` title."""
    if paper.name:
        return paper.name
    match = _NAME_PREFIX.match(paper.title)
    if not match:
        return ""
    name = match.group(1).strip()
    return name if len(name.split()) <= 3 else ""


def query_words(text: str) -> list[str]:
    """Words of query text, read as the index reads papers; compounds keep their hyphens
    (``orw-cfm-w2``)."""
    return [_HYPHEN.sub("-", w) for w in _WORD_OR_COMPOUND.findall(folded(text))]


def max_typos(word: str) -> int:
    """Edits forgiven in a word: none up to 3 characters, 1 up to 7, 2 from 8."""
    n = len(word)
    return 0 if n <= 3 else 1 if n <= 7 else 2
