"""What ``papers fetch`` is given: ``SOURCE:ARGUMENT`` words, short venue names, arXiv ids.

``openreview:ICLR.cc/2025/Conference``, ``paperlists:iclr2025``, ``arxiv:cat:cs.LG``; a short
name (``iclr2025``, ``ICLR 2025``, ``iclr-2025``, ``iclr25``, ``ICLR'25``, ``ICLR 2025
Conference``, ``2025 ICLR``: any year of the venues in ``VENUE_PATTERNS``, and the names a
``config.toml`` adds under ``[venues]``) stands for its OpenReview venue, as does a venue id
without ``openreview:``
(``ICLR.cc/2025/Conference``), and the address of the venue's page on openreview.net as a
browser shows it (``https://openreview.net/group?id=ICLR.cc/2025/Conference``); a venue id's
trailing slashes are no part of it (``…/Conference/``, copied from an address bar). A bare arXiv
id (``2501.01234``), or a paper's page on arxiv.org (``https://arxiv.org/abs/2501.01234v2``),
joins the arXiv ids before it, so ``arxiv:2501.01234 2406.00001`` is one fetch.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from storage.fetch.errors import FetchError

#: Short names by venue: the name's letters, then a year, give the OpenReview venue id.
VENUE_PATTERNS: tuple[tuple[str, str], ...] = (
    ("iclr", "ICLR.cc/{year}/Conference"),
    ("neurips", "NeurIPS.cc/{year}/Conference"),
    ("icml", "ICML.cc/{year}/Conference"),
    ("colm", "colmweb.org/COLM/{year}/Conference"),
    ("corl", "robot-learning.org/CoRL/{year}/Conference"),
    ("uai", "auai.org/UAI/{year}/Conference"),
    ("aistats", "aistats.org/AISTATS/{year}/Conference"),
    ("midl", "MIDL.io/{year}/Conference"),
    ("lod", "LOD/{year}/Conference"),
)
#: Venue ids that the patterns do not give: ICLR 2017, on OpenReview's first API, spelt its
#: id in lower case.
OWN_VENUE_IDS: Mapping[str, str] = {"iclr2017": "ICLR.cc/2017/conference"}
#: Paper Copilot's names for venues whose lists it files under another name than ours: NeurIPS's
#: are ``nips/nips2024.json`` (papercopilot/paperlists, "NeurIPS(NIPS)").
PAPERLISTS_NAMES: Mapping[str, str] = {"neurips": "nips"}
#: The short names help texts and errors give as examples.
EXAMPLES = ("iclr2025", "neurips2024", "icml2025", "colm2025")
#: The sources a word may name before its colon.
SOURCE_NAMES = ("openreview", "paperlists", "arxiv")

#: A short name as people write it: ``iclr2025``, ``ICLR 2025``, ``iclr-2025``, ``iclr25``,
#: ``ICLR'25`` (or with a typographer's ``’``, as papers and slides print it).
_SHORT = re.compile(r"([a-z]+)[\s_'’-]*(\d{4}|\d{2})")
#: Paper Copilot's list names: a conference's folder (letters, digits: ``3dv``), its year.
_PAPERLISTS_SHORT = re.compile(r"([a-z0-9]*[a-z])[\s_-]*(\d{4})")
#: An OpenReview venue id written without ``openreview:`` (``ICLR.cc/2025/Conference``): a
#: domain, then parts of which one is a year; a path to a file seldom looks so.
_BARE_VENUE_ID = re.compile(r"[A-Za-z][\w-]*(?:\.[\w-]+)+(?:/[\w.@~+-]+)*/\d{4}(?:/[\w.@~+-]+)*")
#: A new-style arXiv id (2501.01234, with a version or not) or an old-style one (hep-th/9901001).
ARXIV_ID = re.compile(r"(?:arxiv:)?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z-]+)?/\d{7})(v\d+)?", re.I)
_VENUE_ID = re.compile(r"[\w.@~+-]+(?:/[\w.@~+-]+)*")
#: An address on openreview.net, with its scheme or without (as a browser shows it).
_OPENREVIEW_PAGE = re.compile(r"(?:https?://)?(?:www\.)?openreview\.net(?:[/?#]|$)", re.I)
#: The pages of a venue on openreview.net, and the query parameter that names it: its home
#: (``/group?id=``) and its list of submissions (``/submissions?venue=``).
_VENUE_PAGES = {"/group": "id", "/submissions": "venue"}
#: An address on arxiv.org, and the path of a paper's page there (its abstract, PDF or HTML):
#: ``https://arxiv.org/abs/2501.01234v2``, ``arxiv.org/pdf/2501.01234.pdf``.
_ARXIV_PAGE = re.compile(r"(?:https?://)?(?:www\.|export\.)?arxiv\.org(?:[/?#]|$)", re.I)
_ARXIV_PAPER_PATH = re.compile(
    r"/(?:abs|pdf|html)/(\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z-]+)?/\d{7})(v\d+)?(?:\.pdf)?/?", re.I
)
_MAX_ARGUMENT = 2000


@dataclass(frozen=True, slots=True)
class Wanted:
    """One fetch: a source's name and what it is asked for, and the words the user wrote."""

    source: str
    argument: str
    said: str


#: The word OpenReview's venue ids end in, which users type after a venue's name and year.
_CONFERENCE = re.compile(r"(?:^|[\s_-]+)conference$")
#: A year before a venue's name (``2025 ICLR``, ``2025-iclr``), as folders and slides name it.
_YEAR_FIRST = re.compile(r"(\d{4})[\s_-]*([a-z][a-z0-9]*)")


def _as_written(word: str) -> str:
    """A venue's name and year as ``_SHORT`` and ``_PAPERLISTS_SHORT`` read them: folded,
    the word ``Conference`` after them left out (``ICLR 2025 Conference``), a year before the
    name put after it (``2025 ICLR``)."""
    text = " ".join(word.casefold().split())
    stripped = _CONFERENCE.sub("", text)
    text = (
        stripped if stripped and stripped != text and any(c.isdigit() for c in stripped) else text
    )
    year_first = _YEAR_FIRST.fullmatch(text)
    return f"{year_first[2]} {year_first[1]}" if year_first else text


def short_name(word: str) -> str | None:
    """The OpenReview venue id a short name stands for (``iclr2025`` → ``ICLR.cc/2025/…``;
    ``ICLR 2025 Conference`` and ``2025 ICLR`` too: ``_as_written``)."""
    match = _SHORT.fullmatch(_as_written(word))
    if match is None:
        return None
    year = match[2] if len(match[2]) == 4 else f"20{match[2]}"
    if f"{match[1]}{year}" in OWN_VENUE_IDS:
        return OWN_VENUE_IDS[f"{match[1]}{year}"]
    for prefix, template in VENUE_PATTERNS:
        if match[1] == prefix:
            return template.format(year=year)
    return None


def joined_words(words: Sequence[str]) -> list[str]:
    """``words`` with a venue's name and its year made one (``ICLR`` ``2025`` → ``ICLR
    2025``; ``2025`` ``ICLR`` → ``2025 ICLR``), and the word ``Conference`` after them
    (``ICLR 2025 Conference``), as a shell or the import dialog splits what the user typed."""
    joined: list[str] = []
    for word in words:
        last = joined[-1].strip() if joined else ""
        here = word.strip()
        year_and_name = (re.fullmatch(r"\d{4}", here) and _venue_prefix(last)) or (
            re.fullmatch(r"\d{4}", last) and _venue_prefix(here)
        )
        conference = here.casefold() == "conference" and short_name(last) is not None
        if year_and_name or conference:
            joined[-1] = f"{last} {here}"
        else:
            joined.append(word)
    return joined


def _venue_prefix(word: str) -> bool:
    """Whether ``word`` is the name of a venue of ``VENUE_PATTERNS`` (``ICLR``)."""
    return any(word.casefold() == prefix for prefix, _ in VENUE_PATTERNS)


def known_names(names: Mapping[str, str]) -> str:
    """The short names for an error: examples, the patterns, and the config's own."""
    patterns = ", ".join(f"{prefix}YYYY" for prefix, _ in VENUE_PATTERNS)
    text = f"{', '.join(EXAMPLES)} (any year: {patterns})"
    if names:
        text += "; from config.toml: " + ", ".join(sorted(names)[:20])
    return text


def wanted_sources(words: Sequence[str], names: Mapping[str, str]) -> list[Wanted]:
    """The fetches ``words`` ask for, in order, each once (``iclr2025 "ICLR 2025"`` is one
    venue: fetched twice, its papers were each "the same paper twice in the import");
    ``FetchError`` for a word that names none."""
    found: list[Wanted] = []
    asked: set[tuple[str, str]] = set()
    for word in joined_words(words):
        wanted = _wanted(word.strip(), names, depth=0)
        if (wanted.source, wanted.argument) in asked:
            continue
        asked.add((wanted.source, wanted.argument))
        last = found[-1] if found else None
        if (
            last is not None
            and wanted.source == last.source == "arxiv"
            and arxiv_ids(last.argument)
            and arxiv_ids(wanted.argument)
        ):
            found[-1] = Wanted("arxiv", f"{last.argument} {wanted.argument}", last.said)
            continue
        found.append(wanted)
    return found


def is_source(word: str, names: Mapping[str, str]) -> bool:
    """Whether ``word`` names something to fetch (the import dialog and ``--catalog`` ask)."""
    try:
        _wanted(word.strip(), names, depth=0)
    except FetchError:
        return False
    return True


def _wanted(word: str, names: Mapping[str, str], depth: int) -> Wanted:
    if not word:
        raise FetchError("an empty source name")
    if len(word) > _MAX_ARGUMENT:
        raise FetchError(f"a source of {len(word):,} characters is too long")
    if _OPENREVIEW_PAGE.match(word):
        return Wanted("openreview", _checked("openreview", word), word)
    if _ARXIV_PAGE.match(word):
        return Wanted("arxiv", _arxiv_page_id(word), word)
    head, colon, rest = word.partition(":")
    if colon and head.casefold() in SOURCE_NAMES:
        return Wanted(head.casefold(), _checked(head.casefold(), rest.strip()), word)
    if ARXIV_ID.fullmatch(word):
        return Wanted("arxiv", word, word)
    alias = names.get(word.casefold())
    if alias is not None and depth < 3:
        target = alias if ":" in alias.partition("/")[0] else f"openreview:{alias}"
        found = _wanted(target, names, depth + 1)
        return Wanted(found.source, found.argument, word)
    venue = short_name(word)
    if venue is not None:
        return Wanted("openreview", venue, word)
    if _BARE_VENUE_ID.fullmatch(venue_id := word.rstrip("/")):
        return Wanted("openreview", _venue_of(venue_id), word)
    raise FetchError(
        f"{word[:80]!r} is not something to fetch: write openreview:VENUE_ID, paperlists:iclr2025, "
        f"arxiv:QUERY, an arXiv id, or a short name ({known_names(names)})"
    )


def _checked(source: str, argument: str) -> str:
    if source == "openreview":
        argument = _venue_id(argument)
    if not argument:
        raise FetchError(f"{source}: say what to fetch after the colon")
    if any(ord(c) < 32 or ord(c) == 127 for c in argument):
        raise FetchError(f"{source}: {argument[:80]!r} holds control characters")
    if source == "openreview" and "/" not in argument and (venue := short_name(argument)):
        return venue  # openreview:iclr2025
    if source == "openreview" and not _VENUE_ID.fullmatch(argument):
        raise FetchError(
            f"openreview: {argument[:80]!r} is not a venue id (ICLR.cc/2025/Conference)"
        )
    if source == "paperlists":
        return paperlists_name(argument)
    if source == "arxiv" and _ARXIV_PAGE.match(argument):
        return _arxiv_page_id(argument)  # arxiv:https://arxiv.org/abs/…
    return argument


def _arxiv_page_id(address: str) -> str:
    """The arXiv id a paper's page on arxiv.org names, as the address bar shows it
    (``https://arxiv.org/abs/2501.01234v2`` → ``2501.01234v2``); FetchError for another page."""
    parts = urlsplit(address.strip() if "://" in address else f"https://{address.strip()}")
    found = _ARXIV_PAPER_PATH.fullmatch(parts.path)
    if found is None:
        raise FetchError(
            f"{address[:80]!r} is no paper's page on arXiv: give its address "
            "(https://arxiv.org/abs/2501.01234) or its id, or arxiv:QUERY"
        )
    return found[1] + (found[2] or "")


def _venue_id(argument: str) -> str:
    """The venue id an ``openreview:`` argument names: itself without trailing slashes or
    spaces (``ICLR.cc/2025/Conference/``, from an address bar), or the one the address of the
    venue's page gives (``https://openreview.net/group?id=ICLR.cc/2025/Conference#tab-…``);
    FetchError for another page of openreview.net (a paper's forum, a profile)."""
    if _OPENREVIEW_PAGE.match(argument):
        parts = urlsplit(argument if "://" in argument else f"https://{argument}")
        key = _VENUE_PAGES.get(parts.path.rstrip("/"))
        named = parse_qs(parts.query).get(key, []) if key else []
        if len(named) != 1 or not named[0].strip().strip("/").strip():  # (id=/: none)
            raise FetchError(
                f"{argument[:80]!r} is no venue's page on OpenReview: give the venue's "
                "(https://openreview.net/group?id=ICLR.cc/2025/Conference) or its id"
            )
        argument = named[0]
    return _venue_of(argument.strip().rstrip("/").rstrip())


def _venue_of(venue_id: str) -> str:
    """The venue an id names: an invitation's id (``ICLR.cc/2025/Conference/-/Submission``,
    as OpenReview's API documentation and scripts write it) names its venue, before ``/-/``."""
    return venue_id.partition("/-/")[0].rstrip("/") or venue_id


def known_spelling(venue_id: str) -> str | None:
    """The venue id a short name gives that ``venue_id`` spells in other letter cases
    (``iclr.cc/2025/conference`` → ``ICLR.cc/2025/Conference``): OpenReview's ids are
    case-sensitive, so an error can say which was meant. None when there is no such id."""
    year = re.search(r"/(\d{4})(?:/|$)", venue_id)
    if year is None:
        return None
    known = [t.format(year=year[1]) for _, t in VENUE_PATTERNS] + list(OWN_VENUE_IDS.values())
    folded = venue_id.casefold()
    return next((k for k in known if k.casefold() == folded and k != venue_id), None)


def paperlists_name(argument: str) -> str:
    """The name Paper Copilot gives a list (``neurips2024`` → ``nips2024``); FetchError for a
    word that is no list name."""
    match = _PAPERLISTS_SHORT.fullmatch(_as_written(argument))
    if match is None:
        raise FetchError(f"paperlists: {argument[:80]!r} is not a list name (iclr2025, nips2024)")
    return PAPERLISTS_NAMES.get(match[1], match[1]) + match[2]  # paperlists:ICLR 2025 too


def arxiv_ids(argument: str) -> list[str]:
    """The arXiv ids an argument lists (space- or comma-separated), or [] when it is a query."""
    parts = [p for p in re.split(r"[\s,]+", argument.strip()) if p]
    ids = []
    for part in parts:
        match = ARXIV_ID.fullmatch(part)
        if match is None:
            return []
        ids.append(match[1] + (match[2] or ""))
    return ids
