"""Whether two records known by their title alone name one paper's first author.

A title is no identity: Google Scholar gives "Deep learning" to LeCun, Bengio and Hinton's
Nature paper (2015) and to Goodfellow, Bengio and Courville's book (2016). Two records that
share a title and have no abstract are one paper unless their first authors are clearly two
people: each has a family name, written in one script, and neither's family name is a word
of the other's name. The same person is written many ways, and each is told apart here:

- ``Yann LeCun``, ``Y. LeCun``, ``LeCun, Yann``, ``LeCun Y`` (initials after the family name,
  as PubMed and Scopus write them): initials are no name, a comma puts the family name first;
- ``Jan van der Berg``, ``Van der Berg, Jan``: lower-case particles are no name, the family
  name is the last word left (``Berg``); a suffix (``Jr.``, ``III``) neither;
- ``Müller``, ``Muller``, ``Mueller``: accents, ``ue`` for ``ü``, ``ø`` for ``o``, case;
- ``Zhang San`` and ``San Zhang`` (a family name written first): the family name of one is a
  word of the other, so they may be one person;
- ``张三``, ``张 三``: a name in CJK characters is one word, its spaces aside, its family and
  given names in either order (``三 张``: CSL-JSON's names were read given name first before
  they were read in CSL's order); a name in another script than the other's (``张三``, ``San
  Zhang``) says nothing.

A record without authors (or only ``et al.``), or whose first author is initials alone,
says nothing either: it may be any paper of its title.

``family_key`` is what a title-only paper's id takes besides its title
(``storage.importing.identity.id_of_title``), so that two such papers get two ids whatever
order they come in, and on whichever device.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from storage.sources.authors import PARTICLES, is_et_al
from storage.text.normalize import LATIN_LETTERS, fold

__all__ = ["authors_compatible", "cjk", "family_key", "same_person"]

#: The suffixes that are no name here: those the readers knew when these keys first made
#: ids (``id_of_title``), kept as they were (PubMed's ``3rd`` a suffix for the exports since,
#: ``storage.sources.authors``, a word of the name here): a name read as before keeps the
#: id of its paper, which a library made before holds.
_SUFFIXES: Final = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
#: ``ue`` for ``ü`` (``Mueller``): folded to the letter without its accent.
_DIGRAPH: Final = re.compile(r"(?<=[aou])e")
_NOT_LETTER: Final = re.compile(r"[\W\d_]+")


def cjk(char: str) -> bool:
    """Han, kana, hangul: scripts whose names are written without spaces."""
    code = ord(char)
    return (
        0x3040 <= code <= 0x30FF  # hiragana, katakana
        or 0x3400 <= code <= 0x4DBF
        or 0x4E00 <= code <= 0x9FFF
        or 0xAC00 <= code <= 0xD7AF  # hangul
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x2FA1F
    )


def _script(name: str) -> str:
    """``latin``, ``cjk`` or ``other``: names are compared only within one script."""
    if name.isascii():  # most names
        return "latin"
    letters = [c for c in name if c.isalpha()]
    if any(cjk(c) for c in letters):
        return "cjk"
    if all(c.isascii() or unicodedata.name(c, "").startswith("LATIN") for c in letters):
        return "latin"
    return "other"


def _is_initials(word: str, alone: bool) -> bool:
    """``Y.``, ``J.-P.``, ``Y``; and, after a family name (``alone``: the name's other words
    have lower-case letters), ``JA`` as PubMed writes initials."""
    letters = [c for c in word if c.isalpha()]
    if len(letters) <= 1:
        return True
    if "." in word and all(len(piece) <= 1 for piece in re.split(r"[.\-‐]+", word)):
        return True
    return alone and len(letters) <= 3 and all(c.isupper() for c in letters)


def _folded(word: str) -> str:
    text = fold(word).translate(LATIN_LETTERS)
    return _DIGRAPH.sub("", _NOT_LETTER.sub("", text))


def _name_words(name: str) -> tuple[str, list[str]]:
    """A name's script and its words that are names (see the module), the family name last."""
    name = " ".join(name.split())
    if is_et_al(name):
        return "latin", []
    script = _script(name)
    if script == "cjk":
        whole = _folded(name)
        return script, [whole] if whole else []
    family_first = "," in name
    if family_first:  # "LeCun, Yann", "Smith, Jr., John": the family name, then the rest
        last, *rest = name.split(",")
        words = [*" ".join(rest).split(), *last.split()]
    else:
        words = name.split()
    words = [w for w in words if w.strip(",").casefold() not in _SUFFIXES and w not in PARTICLES]
    named = [w for w in words if any(c.islower() for c in w)]
    kept = []
    for place, word in enumerate(words):
        # PubMed's "LeCun Y", "Smith JA": upper-case initials after a name of lower case
        pubmed = not family_first and place == len(words) - 1 and bool(named) and word not in named
        if not _is_initials(word, pubmed):
            kept.append(_folded(word))
    return script, [w for w in kept if w]


def _first_author(authors: Sequence[str]) -> str:
    return next((a for a in authors if a.strip() and not is_et_al(a)), "")


def family_key(authors: Sequence[str]) -> str:
    """The first author's family name as compared (``LeCun, Yann`` → ``lecun``), "" when no
    first author has one (none, initials alone). A family name given before a comma is one
    word, however written (``Le Cun, Y.``, ``García López, José``: ``lecun``, as ``Y. LeCun``
    gives, ``garcialopez``, as ``José García-López`` gives)."""
    first = _first_author(authors)
    script, words = _name_words(first)
    if not words:
        return ""
    if script != "cjk" and "," in first:
        _, family = _name_words(first.split(",")[0])
        joined = "".join(family)
        if joined:
            return joined
    return words[-1]


def same_person(first: str, second: str) -> bool:
    """Whether two names may be one person's (see the module): True unless both say enough."""
    script, words = _name_words(first)
    other_script, other_words = _name_words(second)
    if not words or not other_words or script != other_script:
        return True
    if words[-1] in other_words or other_words[-1] in words:
        return True
    if script == "cjk" and len(words[0]) == len(other_words[0]) and words[0] in other_words[0] * 2:
        return True  # ``韓愈`` and ``愈 韓``: its parts in either order (CSL's, given first before)
    # a family name of two words written as one: "Le Cun, Y." and "Y. LeCun", "García López,
    # José" and "José García-López"
    return words[-1] in _joined_ends(other_words) or other_words[-1] in _joined_ends(words)


def _joined_ends(words: list[str]) -> set[str]:
    """The name's last words joined, from each word on: ``le cun`` → ``cun``, ``lecun``."""
    return {"".join(words[start:]) for start in range(len(words))}


def authors_compatible(first: Sequence[str], second: Sequence[str]) -> bool:
    """Whether two author lists may be one paper's: their first authors may be one person
    (a list without authors may be any paper's)."""
    return same_person(_first_author(first), _first_author(second))
