"""Conferences and journals by name: ``ICLR 2025`` recognised in a list name or a source's
venue field, and written back the way references cite it.

A small table of the venues research lists come from. ``find_venue`` reads a venue and its
year out of free text (``iclr2025``, ``ICLR 2025 论文列表``, ``ICLR.cc/2025/Conference``,
``International Conference on Learning Representations``); exporters cite it in full
(``International Conference on Learning Representations (ICLR)``, 2025).

Pure standard library and total: every function takes any string, in linear time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from storage.sources.decisions import DESK_REJECTED, REJECTED, UNDER_REVIEW, WITHDRAWN

__all__ = [
    "KNOWN_VENUES", "Venue", "VenueFound", "cased_venue", "find_venue", "find_year",
    "names_workshop", "status_of_venueid", "venue_text",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Venue:
    """A conference or journal: its short name, its full name, and whether it is a journal."""

    short: str
    full: str
    journal: bool = False

    @property
    def citation(self) -> str:
        """The name as references cite it: ``International Conference on … (ICLR)``."""
        return f"{self.full} ({self.short})"


#: The venues recognised, most cited first. Aliases are other ways lists write the short name.
KNOWN_VENUES: Final[tuple[tuple[Venue, tuple[str, ...]], ...]] = (
    (Venue("ICLR", "International Conference on Learning Representations"), ()),
    # OpenReview names it "Thirty-seventh Conference on Neural Information Processing Systems",
    # Semantic Scholar "Neural Information Processing Systems"
    (
        Venue("NeurIPS", "Advances in Neural Information Processing Systems"),
        ("nips", "Neural Information Processing Systems"),
    ),
    (Venue("ICML", "International Conference on Machine Learning"), ()),
    (
        Venue("CVPR", "IEEE/CVF Conference on Computer Vision and Pattern Recognition"),
        ("Computer Vision and Pattern Recognition",),  # Semantic Scholar's name
    ),
    (Venue("ICCV", "IEEE/CVF International Conference on Computer Vision"), ()),
    (Venue("ECCV", "European Conference on Computer Vision"), ()),
    (Venue("ACL", "Annual Meeting of the Association for Computational Linguistics"), ()),
    (Venue("EMNLP", "Conference on Empirical Methods in Natural Language Processing"), ()),
    (
        Venue(
            "NAACL",
            "Conference of the North American Chapter of the Association for "
            "Computational Linguistics",
        ),
        ("North American Chapter of the Association for Computational Linguistics",),
    ),
    (Venue("AAAI", "AAAI Conference on Artificial Intelligence"), ()),
    (Venue("IJCAI", "International Joint Conference on Artificial Intelligence"), ()),
    (Venue("KDD", "ACM SIGKDD Conference on Knowledge Discovery and Data Mining"), ("sigkdd",)),
    (Venue("AISTATS", "International Conference on Artificial Intelligence and Statistics"), ()),
    (Venue("UAI", "Conference on Uncertainty in Artificial Intelligence"), ()),
    (Venue("COLT", "Conference on Learning Theory"), ()),
    (Venue("CoRL", "Conference on Robot Learning"), ()),
    (Venue("COLM", "Conference on Language Modeling"), ()),
    (Venue("WACV", "IEEE/CVF Winter Conference on Applications of Computer Vision"), ()),
    (Venue("ICRA", "IEEE International Conference on Robotics and Automation"), ()),
    (
        Venue(
            "SIGIR",
            "International ACM SIGIR Conference on Research and Development in "
            "Information Retrieval",
        ),
        (),
    ),  # fmt: skip
    (Venue("WWW", "The ACM Web Conference"), ("thewebconf",)),
    (Venue("TMLR", "Transactions on Machine Learning Research", journal=True), ()),
    (Venue("JMLR", "Journal of Machine Learning Research", journal=True), ()),
    (
        Venue(
            "TPAMI", "IEEE Transactions on Pattern Analysis and Machine Intelligence", journal=True
        ),
        ("pami",),
    ),
)

_BY_NAME: Final[dict[str, Venue]] = {}
for _venue, _aliases in KNOWN_VENUES:
    for _name in (_venue.short, *_aliases):
        _BY_NAME[" ".join(_name.casefold().split())] = _venue
    _BY_NAME[" ".join(_venue.full.casefold().split())] = _venue

# A short name as a word of its own or glued to a year (``iclr2025``); full names as words.
_NAME_RE: Final = re.compile(
    r"(?<![^\W\d_])("
    + "|".join(re.escape(n) for n in sorted(_BY_NAME, key=len, reverse=True))
    + r")(?![^\W\d_])",
    re.IGNORECASE,
)
# A year of our era, not part of a longer number: ``iclr2025`` and ``2025-01`` both give 2025.
_YEAR_RE: Final = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")
#: Longer than this, a text is no venue name (only its start is looked at).
_MAX_CHARS: Final = 300


@dataclass(frozen=True, slots=True)
class VenueFound:
    """What a text says of a venue: a known one (or None) and a year (or None)."""

    venue: Venue | None
    year: int | None

    @property
    def text(self) -> str:
        """``ICLR 2025``, ``ICLR``, or "" for a text that names no known venue."""
        if self.venue is None:
            return ""
        return f"{self.venue.short} {self.year}" if self.year else self.venue.short


#: Words of venues whose capitals are their own, as a venue written all in lower case gets
#: them back: the known venues' short names, and a few names and publishers' acronyms.
_OWN_CASE: Final = {
    w.casefold(): w
    for w in (
        *(v.short for v, _ in KNOWN_VENUES),
        "arXiv", "bioRxiv", "medRxiv", "ChemRxiv", "CoRR", "SSRN", "eLife", "PLOS", "IEEE",
        "ACM", "SIAM", "IEEE/CVF", "USENIX", "VLDB", "SIGGRAPH", "SIGMOD", "PNAS", "NIPS", "npj",
    )
}  # fmt: skip
#: A web address (``meltdownattack.com``, ``https://…``): no venue name to capitalise.
_ADDRESS: Final = re.compile(r"\s*(?:\w+://|[\w-]+(?:\.[\w-]+)+(?:[/\s]|$))")
_LETTERS: Final = re.compile(r"[^\W\d_]+(?:/[^\W\d_]+)?")
#: The first letter or digit of a text.
_FIRST: Final = re.compile(r"[^\W_]")


def _own_case(word: str) -> str:
    """A lower-case word (or two joined by a slash, ``acm/ieee``) with its own capitals."""
    found = _OWN_CASE.get(word)
    if found is None and "/" in word:
        return "/".join(_OWN_CASE.get(part, part) for part in word.split("/"))
    return word if found is None else found


def cased_venue(text: str) -> str:
    """A venue written entirely in lower case as people write it (Google Scholar's
    ``journal={nature}``, ``science``, ``neural computation``): the words whose capitals are
    their own given them (``_OWN_CASE``: ``icml``, ``arxiv preprint arxiv:1706.03762``: ``ICML``,
    ``arXiv preprint arXiv:1706.03762``), and its first letter a capital otherwise
    (``Nature``, ``Neural computation``: Scholar's sentence case of its other venues). A venue
    with a capital anywhere is as written (``Advances in neural information processing
    systems``, ``arXiv preprint arXiv:1706.03762``): its case is its source's choice; and so is
    one that starts with a web address (DBLP's ``meltdownattack.com``), lower case as written.
    One that starts with a number (``1st workshop on …``) gets no capital (``1St`` was made of
    it); a pair of words joined by a slash is read word by word (``acm/ieee``: ``ACM/IEEE``)."""
    if any(map(str.isupper, text)) or not any(map(str.islower, text)) or _ADDRESS.match(text):
        return text
    cased = _LETTERS.sub(lambda m: _own_case(m.group()), text)
    first = _FIRST.search(cased)
    if first is None or not first.group().isalpha():
        return cased  # (``1st workshop on …``: a number first, no letter to make a capital)
    word = _LETTERS.match(cased, first.start())
    if word is None or any(map(str.isupper, word.group())) or word.group() in _OWN_CASE:
        return cased  # (its first word's case is its own: ``arXiv``, ``IEEE``, ``npj``)
    letter = first.group()
    capital = letter.upper() if len(letter.upper()) == 1 else letter  # (``ß``: no capital)
    return cased[: first.start()] + capital + cased[first.start() + 1 :]


def find_year(text: str) -> int | None:
    """The first year (1950–2099) in ``text`` that is not part of a longer number."""
    match = _YEAR_RE.search(text[:_MAX_CHARS])
    return int(match.group(1)) if match else None


def find_venue(text: str) -> VenueFound:
    """The known venue and year ``text`` names (``iclr2025``, ``ICLR.cc/2025/Conference``)."""
    head = " ".join(text[:_MAX_CHARS].split())
    match = _NAME_RE.search(head.replace("_", " "))
    venue = _BY_NAME.get(" ".join(match.group(1).casefold().split())) if match else None
    return VenueFound(venue, find_year(head))


#: The year of the first edition of the venues whose name OpenReview writes with its edition
#: (``The Twelfth International Conference on Learning Representations``, ``Thirty-seventh
#: Conference on Neural Information Processing Systems``, ``Forty-first International
#: Conference on Machine Learning``, ``First Conference on Language Modeling``, ``the 10th
#: Conference on Robot Learning``), each held once a year since.
_FIRST_EDITION: Final = {"ICLR": 2013, "NeurIPS": 1987, "ICML": 1984, "COLM": 2024, "CoRL": 2017}
_UNITS: Final = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
    "seventeenth", "eighteenth", "nineteenth",
)  # fmt: skip
_TENS: Final = {"twent": 20, "thirt": 30, "fort": 40, "fift": 50, "sixt": 60}
_EDITION: Final = re.compile(
    r"\b(?:(?P<digits>\d{1,2})(?:st|nd|rd|th)"
    r"|(?:(?P<tens>twent|thirt|fort|fift|sixt)(?:ieth|y[\s-]+(?P<unit>[a-z]+)))"
    r"|(?P<word>[a-z]+))\s+(?:annual\s+)?(?:international\s+)?conference\b",
    re.IGNORECASE,
)
#: A venue OpenReview names for a paper still under review: ``Submitted to The Twelfth …``.
_SUBMITTED: Final = re.compile(r"\s*submitted\s+to\b", re.IGNORECASE)


def _edition_year(text: str, venue: Venue) -> int | None:
    """The year of the edition of ``venue`` that ``text`` names by its number, or None."""
    first = _FIRST_EDITION.get(venue.short)
    match = _EDITION.search(text[:_MAX_CHARS]) if first is not None else None
    if first is None or match is None:
        return None
    if match["digits"]:
        number = int(match["digits"])
    elif match["tens"]:
        unit = (match["unit"] or "").casefold()
        more = _UNITS.index(unit) + 1 if unit in _UNITS[:9] else 0 if not unit else None
        number = _TENS[match["tens"].casefold()] + more if more is not None else 0
    else:
        word = match["word"].casefold()
        number = _UNITS.index(word) + 1 if word in _UNITS else 0
    return first + number - 1 if number > 0 else None


#: A venue that names a workshop (``ICLR 2024 Workshop ME-FoMo``, ``NeurIPS 2023 Workshop:
#: Temporal Graph Learning``, OpenReview's ``ICLR.cc/2024/Workshop/ME-FoMo``).
_WORKSHOP: Final = re.compile(r"(?<![^\W_])workshops?(?![^\W_])", re.IGNORECASE)
#: The presentation a venue's text may end with, as OpenReview's venues do.
_PRESENTED: Final = re.compile(r"\s+(?:oral|poster|spotlight|spotlight poster)$", re.IGNORECASE)


def names_workshop(text: str) -> bool:
    """Whether ``text`` names a workshop (``workshop`` or ``workshops`` as a word of its own)."""
    return _WORKSHOP.search(text[:_MAX_CHARS]) is not None


def venue_text(stated: str, *hints: str) -> str:
    """A paper's venue, from a source's venue field (``stated``) and other texts (the year
    field, the list name): a known venue as ``ICLR 2025``, its year from whichever text has
    one, else the year of the edition its name numbers (``The Twelfth International
    Conference on Learning Representations``: 2024), which a submission's name (``Submitted to
    The Twelfth …``, cited by OpenReview with the year it was submitted in) holds to first;
    a workshop of a known venue stated (``ICLR 2024 Workshop on …``) as written; otherwise
    ``stated`` as written (on one line, at most 200 characters), or ""."""
    texts = (stated, *hints)
    if names_workshop(stated) and find_venue(stated).venue is not None:
        # a workshop of a known conference is no paper of its proceedings: as written, but
        # for the presentation it may end with (``ICLR 2024 Workshop ME-FoMo Poster``)
        return _PRESENTED.sub("", " ".join(stated[:_MAX_CHARS].split()))[:200]
    for text in texts:
        found = find_venue(text)
        if found.venue is not None:
            edition = _edition_year(text, found.venue)
            if edition is not None and _SUBMITTED.match(text):
                return VenueFound(found.venue, edition).text  # the year stated is its submission's
            years = (y for t in (text, *texts) if (y := find_year(t)) is not None)
            return VenueFound(found.venue, next(years, edition)).text
    return " ".join(stated[:_MAX_CHARS].split())[:200]


#: OpenReview's ``venueid`` suffixes for the papers a venue did not accept (or not yet), as
#: statuses in the words of its fetch (``storage.sources.decisions``).
_VENUEID_STATUSES: Final = {
    "rejected_submission": REJECTED,
    "withdrawn_submission": WITHDRAWN,
    "desk_rejected_submission": DESK_REJECTED,
    "submission": UNDER_REVIEW,
}


def status_of_venueid(venueid: str) -> str:
    """The decision an OpenReview ``venueid`` says: ``ICLR.cc/2025/Conference/Rejected_Submission``
    → ``Rejected``, ``…/Withdrawn_Submission`` → ``Withdrawn``, ``…/Desk_Rejected_Submission``
    → ``Desk rejected``, ``…/Submission`` → ``Under review``; any other
    ``…/Something_Submission`` in words; "" for an accepted paper's (``ICLR.cc/2025/Conference``:
    its ``venue`` says Oral, Spotlight or Poster)."""
    last = venueid.strip().rstrip("/").rsplit("/", 1)[-1][:_MAX_CHARS]
    key = last.casefold()
    if key in _VENUEID_STATUSES:
        return _VENUEID_STATUSES[key]
    if key.endswith("_submission"):
        return " ".join(w.capitalize() for w in last[: -len("_submission")].split("_") if w)
    return ""
