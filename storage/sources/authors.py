"""Authors' names: one flat form in the library, split again for each export.

The library keeps each author as the name reads (``Jan van der Berg``, ``John Smith Jr.``,
``Google DeepMind``), and a list its source cut short ends in ``ET_AL``. A family name of more
than one word that its source wrote apart (BibTeX's and RIS's ``Stender Clausen, Jørgen``,
CSL's ``family``) has its words tied by ``FAMILY_TIE``, a no-break space (``Jørgen
Stender\u00a0Clausen``): it reads as a space (shown, searched, and read for an id as the name
always was), and the exports take the tied words for the family name. Readers make that form
from what their format gives (``flat_name``: ``Smith, John, Jr.`` is ``John Smith Jr.``);
exporters split it again (``name_parts``), since each format wants the family name apart:
particles (``van der``) go with the family name, a suffix (``Jr.``, ``III``) stays apart, and an
organization (``is_organization``) is not split at all, so that no export writes
``Berg, Jan van der``, ``Jr., John Smith`` or ``DeepMind, Google``.

Pure standard library and total: every function takes any string.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from itertools import islice
from typing import Final

__all__ = [
    "ET_AL",
    "FAMILY_TIE",
    "MAX_AUTHORS",
    "NameParts",
    "ended_with_et_al",
    "flat_name",
    "is_et_al",
    "is_organization",
    "is_suffix",
    "last_first",
    "name_parts",
    "names_of",
    "no_author",
    "parted",
    "plain_name",
    "retied",
    "spaced",
    "tied_families",
]

#: The last "author" of a list its source cut short: BibTeX's ``and others``, CSL's final
#: ``{"literal": "others"}``, Google Scholar's ``…``. Kept so that an export does not cite the
#: first authors as if they were all.
ET_AL: Final = "et al."


#: What ties the words of a family name of more than one word in the library's form (see the
#: module): a no-break space, which every text comparison reads as a space.
FAMILY_TIE: Final = "\u00a0"
#: Whitespace that is no ``FAMILY_TIE``: where a tied name's words are parted.
_LOOSE: Final = re.compile(r"[^\S\u00a0]+")
#: The most words a family name is tied of (more is no one's family name).
_MAX_TIED: Final = 4


#: Authors a record keeps (a collaboration's paper lists a few thousand).
MAX_AUTHORS: Final = 5000
_ET_AL_WORDS: Final = frozenset({"others", "et al", "et al.", "et. al.", "etal", "…", "..."})
#: What the last name of a list cut short ends in (Google Scholar's ``J Uszkoreit…``, a
#: text field's ``Ann Lee et al.``).
_CUT: Final = re.compile(r"\s*(?:…|\.\.\.|\bet\.? al\.?)\s*$", re.IGNORECASE)
#: How a name ends, without its trailing spaces (``\s`` is what ``str.rstrip`` strips), when
#: ``_CUT`` may find it cut short: ``…``, ``...``, or ``al`` with a dot or not, in any case
#: (no letter but ``A`` and ``L`` is ``a`` and ``l`` to ``re.IGNORECASE``). A name that ends
#: otherwise is not searched: the search tries every character of every author (0.21 s of
#: CPU for the 460,000 authors of 100,000 papers; ``names_of`` a fifth faster so).
_CUT_ENDS: Final = ("al", "aL", "Al", "AL", "al.", "aL.", "Al.", "AL.", "…", "...")

#: Lower-case words that belong to the family name before it (``van der Berg``, ``de la
#: Cruz``, ``von Neumann``, ``dos Santos``, ``ten Brink``): the family name is not ``Berg``.
PARTICLES: Final = frozenset(
    {"van", "von", "der", "den", "de", "del", "della", "da", "das", "dos", "do", "di", "du",
     "des", "la", "le", "lo", "ten", "ter", "te", "zu", "zur", "op"}
)  # fmt: skip
#: Generational suffixes, written after the name (``John Smith Jr.``), not a given name; the
#: ordinals are how PubMed writes ``II``, ``III``, ``IV`` (``Smith JA 3rd``, ``2nd``, ``4th``).
_SUFFIXES: Final = frozenset(
    {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "2nd", "3rd", "4th", "5th"}
)

#: Words that make an author an organization (``Google Research``, ``The Gemini Team``,
#: ``ATLAS Collaboration``, ``Meta AI``, ``Google DeepMind``), written whole, not as a first
#: and a last name. The companies named are the ones whose names papers list as authors; a
#: person's name holds none of them.
_ORGANIZATION: Final = re.compile(
    r"\b(?:research|team|labs?|laborator(?:y|ies)|group|institute|institution|university|"
    r"college|consortium|collaboration|inc|ltd|llc|gmbh|corporation|corp|company|foundation|"
    r"project|committee|council|association|society|organi[sz]ation|cent(?:er|re)|department|"
    r"academy|agency|initiative|alliance|authors|contributors|developers|workshop)\b\.?$|"
    r"^the\s|[@&]|\b(?:research|team|group|institute|university|consortium|collaboration)\b|"
    r"\b(?:google|deepmind|openai|microsoft|nvidia|anthropic|hugging\s*face|deepseek|alibaba|"
    r"baidu|tencent|bytedance|huawei|salesforce|ibm)\b|"
    r"(?-i:\sAI$)",  # "Meta AI", not a person whose family name is Ai
    re.IGNORECASE,
)


def is_organization(name: str) -> bool:
    """Whether an author is an organization (``_ORGANIZATION``): exporters write its name
    whole (BibTeX ``{Google Research}``, RIS and CSL-JSON without a given name), not as a
    person's first and last names ("Research, Google")."""
    return len(name.split()) > 1 and _ORGANIZATION.search(name) is not None


def no_author(name: str) -> bool:
    """Whether ``name`` is Scopus's placeholder for a paper without authors (``[No author
    name available]``), no one's name."""
    return name.strip().casefold().startswith("[no author")


def is_et_al(name: str) -> bool:
    """Whether a name stands for the authors a list leaves out (``others``, ``et al.``)."""
    return " ".join(name.split()).casefold() in _ET_AL_WORDS


def is_suffix(word: str) -> bool:
    """Whether a word is a generational suffix (``Jr.``, ``III``), not a name."""
    return word.strip().strip(",").casefold() in _SUFFIXES


def ended_with_et_al(names: Iterable[str]) -> list[str]:
    """``names`` with what says "and others" (an ``others``, a name cut short with ``…``)
    made one ``ET_AL`` at their end: it stands for the authors after the last one named."""
    kept: list[str] = []
    cut = False
    for name in names:
        if is_et_al(name):
            cut = True
            continue
        shortened = _CUT.search(name) if name.rstrip().endswith(_CUT_ENDS) else None
        if shortened:
            cut, name = True, name[: shortened.start()]
        if name.strip():
            kept.append(name)
    return [*kept, ET_AL] if cut and kept else kept


def flat_name(last: str, first: str = "", suffix: str = "", *, suffix_in_first: bool = True) -> str:
    """A name its source wrote in parts, as the library keeps it: ``First Last Suffix``.

    RIS and EndNote write ``Last, First, Suffix``, BibTeX ``Last, Suffix, First``: when the
    first name is the suffix (``Smith, Jr.`` read from BibTeX's ``Smith, Jr., John`` in RIS's
    order, or the reverse), the two are swapped. Not ``suffix_in_first``: a suffix's word
    ending the first name is one of its given names (BibTeX's ``Lee, Ann {jr}``)."""
    if is_suffix(first) and not is_suffix(suffix):
        first, suffix = suffix, first
    given = first.split()
    if suffix_in_first and not suffix.strip() and len(given) > 1 and is_suffix(given[-1]):
        # PubMed's ``Kaelin, William G Jr``, ``Smith, John A 3rd``: a suffix after the given
        # names, no comma before it
        first, suffix = " ".join(given[:-1]), given[-1]
    first = " ".join(first.split())
    family = tied_family(last) if first else " ".join(last.split())
    return " ".join(p for p in (first, family, " ".join(suffix.split())) if p)


def tied_family(last: str) -> str:
    """A family name as the library keeps it beside a given name: its particles (``van der``)
    spaced, its words after them tied (``FAMILY_TIE``) when more than one (``Stender
    Clausen``, ``Le Cun``, ``de la Cruz Ramírez``: ``Cruz`` and ``Ramírez`` tied)."""
    words = last.split()
    start = 0
    while start < len(words) - 1 and words[start] in PARTICLES:
        start += 1
    if not 2 <= len(words) - start <= _MAX_TIED:
        return " ".join(words)
    return " ".join([*words[:start], FAMILY_TIE.join(words[start:])])


def spaced(name: str) -> str:
    """``name`` with its whitespace made single spaces, its family name's tie kept: the
    no-break spaces within its last words (a suffix aside) after a given name, as
    ``tied_family`` ties them; anywhere else (a whole name tied) a space."""
    if FAMILY_TIE not in name:
        return " ".join(name.split())
    words = [" ".join(w.split()) for w in _LOOSE.split(name) if w.strip()]
    last = len(words) - 2 if len(words) > 2 and is_suffix(words[-1]) else len(words) - 1
    if last < 1 or len(words[last].split()) > _MAX_TIED or _holds_initial(words[last]):
        return " ".join(words)
    words[last] = FAMILY_TIE.join(words[last].split())
    return " ".join(words)


def plain_name(name: str) -> str:
    """``name`` as outputs for people and other programs write it (``papers list --json``, the
    JSON and CSV exports): its family name's tie (``FAMILY_TIE``) a plain space, which every
    reader, spreadsheet and ``grep`` takes for one; ``tied_families`` says which words were
    tied."""
    return name.replace(FAMILY_TIE, " ")


#: Words tied by ``FAMILY_TIE`` (``\S`` is no ``FAMILY_TIE``: Python's ``\s`` matches it).
_TIED: Final = re.compile(r"\S+(?:\u00a0\S+)+")


def tied_families(texts: Iterable[str]) -> list[str]:
    """The family names of more than one word that ``texts`` (names, or an ``editors`` text of
    names) tie, each once, in plain spaces (``García Márquez``): what an output that writes
    names plain (``plain_name``) carries beside them, so that our readers tie them again
    (``retied``) and a re-import keeps each family name whole."""
    found = (m.group().replace(FAMILY_TIE, " ") for t in texts for m in _TIED.finditer(t))
    return list(dict.fromkeys(found))


def retied(name: str, families: Iterable[str]) -> str:
    """``name`` with its family name tied again (``tied_family``) when its last words (a
    suffix aside) are one of ``families`` (``tied_families``) after a given name; as it is
    otherwise (a name already tied, one that holds none of them)."""
    if FAMILY_TIE in name:
        return name
    words = name.split()
    end = len(words) - 1 if len(words) > 2 and is_suffix(words[-1]) else len(words)
    for family in families:
        tied = family.split()
        start = end - len(tied)
        if len(tied) > 1 and start >= 1 and words[start:end] == tied:
            return " ".join([*words[:start], FAMILY_TIE.join(tied), *words[end:]])
    return name


#: Where an initial's letters part (``J.-P.``).
_INITIAL_PARTS: Final = re.compile(r"[.\-‐]+")


def _holds_initial(tied: str) -> bool:
    """Whether tied words hold an initial (``D.\u00a0Smith``, ``J.-P.\u00a0Roux``): a source's
    no-break space after an initial, as typesetting ties it (an HTML page's ``&nbsp;``), ties
    no family name."""
    for word in tied.split():
        letters = sum(c.isalpha() for c in word)
        if letters <= 1 or ("." in word and all(len(p) <= 1 for p in _INITIAL_PARTS.split(word))):
            return True
    return False


def last_first(value: str) -> str:
    """A name written ``Last, First`` or ``Last, First, Suffix`` (RIS, EndNote, Zotero's and
    Scopus's CSV) as the library keeps it (``flat_name``); one without a comma (``Ann Lee``,
    an organization's) as it is, and so is an organization whose name holds a comma
    (``University of California, Berkeley``, which these formats write whole; EndNote with a
    comma after it, ``U.S. Department of Agriculture,``, left out)."""
    last, *rest = value.split(",")
    if not "".join(rest).strip():
        return " ".join(last.split())
    if _organization_first(last):  # (without EndNote's comma after a corporate author's name)
        return ", ".join(part for part in map(" ".join, map(str.split, value.split(","))) if part)
    return flat_name(last, rest[0], " ".join(rest[1:]))


def _organization_first(last: str) -> bool:
    """Whether what comes before a name's comma names an organization (``University of
    California``), not a person's family name: one of particles and a word is a person's,
    whatever the word (``Du Center``, ``De La Academy``: ``Marie Du Center``)."""
    if not is_organization(last):  # (one word, most names: at once)
        return False
    *before, _ = last.split()
    return not all(w.casefold() in PARTICLES for w in before)


@dataclass(frozen=True, slots=True)
class NameParts:
    """One author as the exports write it: a person's parts, or a ``literal`` name written
    whole (an organization, a single word, a name no part of which can be told)."""

    family: str = ""
    given: str = ""
    #: Lower-case words before the family name (``van der``): CSL's non-dropping particle.
    particle: str = ""
    suffix: str = ""
    literal: str = ""

    @property
    def last(self) -> str:
        """The family name with its particle (``van der Berg``)."""
        return f"{self.particle} {self.family}".strip()


def _without_suffix(words: list[str]) -> tuple[list[str], str]:
    """The words of a name and its suffix (``John Smith, Jr.`` → ``John Smith``, ``Jr.``)."""
    if len(words) > 1 and is_suffix(words[-1]):
        return [*words[:-2], words[-2].rstrip(",")], words[-1]
    return words, ""


def name_parts(name: str, whole: Collection[str] = ()) -> NameParts:
    """How an exporter writes a name the library holds (see the module); one of ``whole`` (a
    paper's ``literal_names``: its source wrote them whole, CSL's ``literal``, BibTeX's
    ``{Acme Widgets}``) as written, whatever its words."""
    words = name.split()
    if len(words) < 2 or is_organization(name) or (whole and name in whole):
        return NameParts(literal=" ".join(words))
    if "," in name and (written := _last_comma_first(name)) is not None:
        return written
    if FAMILY_TIE in name and (tied := _tied_parts(name)) is not None:
        return tied
    words, suffix = _without_suffix(words)
    if any("," in w or w.casefold() == "and" for w in words):  # not a person's parts: whole
        return NameParts(literal=" ".join(name.split()))
    start = len(words) - 1  # where the family name starts, its particles with it
    while start > 0 and words[start - 1] in PARTICLES:
        start -= 1
    return NameParts(
        family=words[-1],
        given=" ".join(words[:start]),
        particle=" ".join(words[start:-1]),
        suffix=suffix,
    )


def parted(name: str) -> bool:
    """Whether an exporter writes ``name`` as a person's parts (``name_parts``): a name its
    source wrote whole is kept among a paper's ``literal_names`` only then."""
    return not name_parts(name).literal


def _tied_parts(name: str) -> NameParts | None:
    """The parts of a name whose family name is tied (``Jørgen Stender\u00a0Clausen``: see
    the module), or None when its last words are not (a tie between given names alone)."""
    words, suffix = _without_suffix([w for w in _LOOSE.split(name) if w.strip()])
    if len(words) < 2 or FAMILY_TIE not in words[-1] or _holds_initial(words[-1]):
        return None
    family = words[-1].split()
    if any("," in w or w.casefold() == "and" for w in [*family, *words]):
        return None
    start = len(words) - 1
    while start > 0 and words[start - 1] in PARTICLES:
        start -= 1
    return NameParts(
        family=" ".join(family),
        given=" ".join(" ".join(words[:start]).split()),
        particle=" ".join(words[start:-1]),
        suffix=suffix,
    )


#: What a name's word may hold besides letters: initials' dots, hyphens, apostrophes.
_NAME_MARKS: Final = re.compile("[.'’-]")


def _last_comma_first(name: str) -> NameParts | None:
    """The parts of one person a list's field wrote ``Last, First`` (``García López, José``,
    ``van der Berg, Jan``), ``Last, First, Suffix`` or ``Last, Suffix, First`` (``Smith, John,
    Jr.``, ``Smith, Jr., John``), as a JSON list's or a CSV's names come: None for a name that
    does not read so (``Lee, Jr.``, ``Ann Lee, Bo Park, Cy Doe``, a number among its words)."""
    pieces = [" ".join(piece.split()) for piece in name.split(",")]
    last, given, suffix = pieces[0], pieces[1], ""
    if len(pieces) == 3:
        if is_suffix(pieces[2]) and not is_suffix(pieces[1]):
            suffix = pieces[2]
        elif is_suffix(pieces[1]) and not is_suffix(pieces[2]):
            given, suffix = pieces[2], pieces[1]
        else:
            return None
    elif len(pieces) != 2:
        return None
    named = given.split()
    if not suffix and len(named) > 1 and is_suffix(named[-1]):  # ``Smith, John 3rd``
        given, suffix = " ".join(named[:-1]), named[-1]
    words = [*last.split(), *given.split()]
    if (
        not last
        or not _given_name(given)
        or not given[0].isupper()
        or len(last.split()) > 4
        or len(given.split()) > 4
        or any(not _NAME_MARKS.sub("", w).isalpha() for w in words)
        or any(w.casefold() == "and" for w in words)
        or _organization_first(last)
    ):
        return None
    family = last.split()
    start = 0  # its particles (``van der``) apart, as a name written whole has them
    while start < len(family) - 1 and family[start] in PARTICLES:
        start += 1
    return NameParts(
        family=" ".join(family[start:]),
        given=given,
        particle=" ".join(family[:start]),
        suffix=suffix,
    )


_AUTHOR_SPLIT = re.compile(r"\s*;\s*|\s*,\s*(?:and\s+)?|\s+and\s+|\s*\n\s*")


def names_of(value: str | Iterable[str] | None) -> tuple[str, ...]:
    """The people of an authors field, as the library keeps them (``Ann Lee``), in order (two
    people may share a name), at most ``MAX_AUTHORS``, "and others" one ``ET_AL`` last: a text
    (``Lee, Ann and Park, Bo``; ``Lee, Ann; Park, Bo``; ``Ann Lee, Bo Park``) or its names."""
    if value is None:
        return ()
    if isinstance(value, str):
        if "," in value and ";" not in value:
            people = _last_first_people(value)
            if people:
                return tuple(ended_with_et_al(people[:MAX_AUTHORS]))
        parts: Iterable[str] = value.split(";") if ";" in value else _AUTHOR_SPLIT.split(value)
        if ";" in value:  # ``Lee, Ann; Doe, Bob`` (Zotero's and Scopus's CSV): ``Ann Lee``
            parts = [p for p in parts if p.strip()]
            # an organization is as written (``University of California, Berkeley``)
            named = [not _organization_first(p.split(",")[0]) for p in parts]
            persons = [_suffix_off(p)[0] for p, person in zip(parts, named, strict=True) if person]
            if persons and all(p.count(",") == 1 and _given_name(p.split(",")[1]) for p in persons):
                parts = [  # ``Ann Lee``, ``Gabriel García Márquez`` (tied), ``John Smith Jr.``
                    last_first(p) if person else p for p, person in zip(parts, named, strict=True)
                ]
    else:
        parts = value
    names = (spaced(p) for p in parts if p and p.strip())
    # in order, repeats kept (two people may share a name); "and others" one ``ET_AL`` last
    return tuple(ended_with_et_al(islice(names, MAX_AUTHORS)))


#: What may follow a name's comma without being a given name (``Lee, Jr.``, ``Lee, PhD``).
_NOT_GIVEN = _SUFFIXES | {"phd", "md"}
_AND = re.compile(r"\s+and\s+")
#: One person written ``Last, First`` (``Lee, Ann``, ``van der Berg, J. A.``, ``O'Neil,
#: Mary-Kate``): a family name of one word (after its particles), a comma, then at most three
#: given names or initials, each capitalised. Two people are written ``Ann Lee, Bo Park``: a
#: family name alone before the comma is one person's.
_NAME_WORD = r"[^\W\d_][^\W\d_'’.-]*(?:['’-][^\W\d_]+)*\.?"
_PARTICLE_WORDS = r"(?:(?:van|von|de|der|den|da|di|du|del|della|la|le|ten|ter|dos|das)\s+)*"
# given names one after another: a space between them, or none after an initial's dot
_FIRST = rf"(?P<first>(?=[^\W\d_a-z]){_NAME_WORD}(?:(?:\s+|(?<=\.)){_NAME_WORD}){{0,2}})\s*$"
_LAST_FIRST = re.compile(rf"^\s*(?P<last>{_PARTICLE_WORDS}{_NAME_WORD})\s*,\s*{_FIRST}")
#: One person of several a text writes ``Last, First and Last, First`` (BibTeX's way), whose
#: family name may be of more words (``García Márquez, Gabriel and Lloyd Webber, Andrew``):
#: each of them written so, ``Ann Lee, Bo Park`` is no one's family name and given name.
_LAST_FIRST_OF_MANY = re.compile(
    rf"^\s*(?P<last>{_PARTICLE_WORDS}{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,{_MAX_TIED - 1}}})"
    rf"\s*,\s*{_FIRST}"
)


def _last_first_people(value: str) -> tuple[str, ...]:
    """``Lee, Ann`` or ``Lee, Ann and Park, Bo`` (BibTeX's way, in a list's text field) as
    ``Ann Lee``, ``Bo Park``: () unless each person is written ``Last, First`` (an
    organization's name, without a comma, among them as it is)."""
    people = []
    parts = _AND.split(value) if " and " in value else [value]
    # a family name of more words only among several people each written ``Last, First``
    pattern = _LAST_FIRST_OF_MANY if len(parts) > 1 else _LAST_FIRST
    for part in parts:
        if is_et_al(part) or ("," not in part and is_organization(part)):
            people.append(part)  # ``Lee, Ann and others``, ``Lee, Ann and Google Research``
            continue
        # ``Smith, Jones and Brown`` is three people: every one is ``Last, First`` or none
        part, suffix = _suffix_off(part)  # ``Smith, John, Jr.``, ``Smith, John 3rd``
        one = pattern.match(part) if part.count(",") == 1 and len(part) <= 200 else None
        if one is None or not _given_name(one["first"]) or _organization_first(one["last"]):
            return ()
        people.append(flat_name(one["last"], one["first"], suffix))  # (its family tied)
    return tuple(p for p in people if p)


def _suffix_off(name: str) -> tuple[str, str]:
    """A name written ``Last, First, Suffix`` or ``Last, First Suffix`` without its suffix,
    and the suffix ("" for none)."""
    before, _, word = name.rstrip().rpartition(" ")
    head = before.rstrip().removesuffix(",")
    if head.count(",") != 1 or not is_suffix(word):
        return name, ""
    return head, word


def _given_name(text: str) -> bool:
    """Whether what follows a name's comma is a given name (``Ann``), not a suffix (``Jr.``)."""
    return bool(text.strip()) and text.strip().casefold() not in _NOT_GIVEN
