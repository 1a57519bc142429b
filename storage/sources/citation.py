"""How a paper is cited, from the fields it has: its entry type, the journal or proceedings it
appeared in, its year and month, its arXiv id, DOI and PDF link.

One reading for every exporter (BibTeX, CSL-JSON, RIS), so that each writes what the library
knows (a journal is an ``@article{journal}``, a conference an ``@inproceedings{booktitle}``, an
arXiv preprint a ``@misc{eprint, archiveprefix}``), and for the readers: ``canonical_extra``
keeps of a record's reference fields only what cannot be told from its other fields (the
``booktitle`` our export writes for an ICLR paper, its year, the ``@inproceedings`` it makes),
so that importing our own export into the same library changes nothing.

Pure standard library and total: every function takes any paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from storage.models import ExtraValue, Paper
from storage.pdfs.links import pdf_url
from storage.sources.decisions import says_no_decision
from storage.sources.fields import edited_by
from storage.sources.venues import Venue, find_venue, find_year, names_workshop

__all__ = [
    "BIBTEX_TYPES",
    "CSL_TYPES",
    "FROM_CROSSREF",
    "FROM_CSL",
    "FROM_RIS",
    "PROCEEDINGS_GENRE",
    "RIS_TYPES",
    "Citation",
    "arxiv_id",
    "arxiv_key",
    "canonical_extra",
    "citation_of",
    "doi_of",
    "editors_only",
    "entry_type",
    "year_of",
]

#: Entry types BibTeX's standard styles or biblatex know, as written back; other names are
#: read as the type they stand for (``ALIASES``) or as ``misc``.
_TYPE_NAMES: Final = (
    "article book booklet inbook incollection inproceedings manual mastersthesis misc "
    "phdthesis proceedings techreport unpublished online software dataset report thesis "
    "patent collection mvbook mvcollection mvproceedings periodical reference "
    "inreference bookinbook suppbook suppcollection suppperiodical"
)
BIBTEX_TYPES: Final = frozenset(_TYPE_NAMES.split())
_TYPE_ALIASES: Final = {
    "conference": "inproceedings", "electronic": "online", "www": "online", "webpage": "online",
    "phdthesis": "phdthesis", "masterthesis": "mastersthesis", "standard": "manual",
    "artwork": "misc", "audio": "misc", "video": "misc", "music": "misc", "image": "misc",
    # Zotero's item types (its CSV's "Item Type"), Scopus's document types
    "journalarticle": "article", "conferencepaper": "inproceedings", "preprint": "misc",
    "booksection": "incollection",
    "manuscript": "unpublished", "computerprogram": "software", "document": "misc",
    "magazinearticle": "article", "newspaperarticle": "article", "blogpost": "online",
    "conference paper": "inproceedings", "review": "article", "book chapter": "incollection",
    "conference review": "inproceedings", "data paper": "article", "editorial": "article",
    "letter": "article", "note": "article", "short survey": "article", "erratum": "article",
}  # fmt: skip

_ARXIV_NEW: Final = r"\d{4}\.\d{4,5}"
_ARXIV_OLD: Final = r"[a-z][a-z-]+(?:\.[A-Za-z]{2})?/\d{7}"
_ARXIV_ID: Final = re.compile(rf"(?:{_ARXIV_NEW}|{_ARXIV_OLD})(?:v\d+)?")
_ARXIV_URL: Final = re.compile(
    rf"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/((?:{_ARXIV_NEW}|{_ARXIV_OLD})(?:v\d+)?)"
    r"(?:\.pdf)?/?(?:[?#].*)?$",
    re.IGNORECASE,
)
_ARXIV_DOI: Final = re.compile(rf"^10\.48550/arxiv\.({_ARXIV_NEW}|{_ARXIV_OLD})", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Citation:
    """What a reference to a paper says, from what the library knows of it."""

    #: The BibTeX entry type: ``article``, ``inproceedings``, ``misc``, ``book``, …
    kind: str
    journal: str = ""
    booktitle: str = ""
    #: A venue the library names but cannot tell a journal from a conference by (``@misc``'s
    #: ``howpublished``, CSL's ``container-title``).
    published: str = ""
    year: int | None = None
    month: int | None = None
    #: The full date, when a source gave one (``2024-05-17``).
    date: str = ""
    arxiv: str = ""
    primary_class: str = ""
    #: Another archive's name and id (``archiveprefix = {HAL}``), when it is not arXiv.
    archive: str = ""
    eprint: str = ""
    doi: str = ""
    #: The known venue (``ICLR``), when one is named.
    venue: Venue | None = None

    @property
    def day(self) -> int | None:
        """The day of the month, when ``date`` is the citation's own (its year and month): an
        arXiv paper its journal reference dates (NeurIPS 2020) has arXiv's date and no month,
        and that date, written as the publication's, gave it a month when read back."""
        found = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", self.date)
        if found and (int(found[1]), int(found[2])) == (self.year, self.month):
            return int(found[3])
        return None

    @property
    def container(self) -> str:
        """The journal, the proceedings, or the venue the paper appeared in ("" for none)."""
        return self.journal or self.booktitle or self.published


def _text(paper: Paper, name: str) -> str:
    value = paper.fact(name)
    return value.strip() if isinstance(value, str) else ""


def _number(paper: Paper, name: str) -> int | None:
    value = paper.fact(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def entry_type(name: str) -> str:
    """A source's entry type (``@Conference``, ``electronic``) as one of ``BIBTEX_TYPES``."""
    low = name.strip().casefold()
    low = _TYPE_ALIASES.get(low, low)
    return low if low in BIBTEX_TYPES else "misc"


#: CSL-JSON item types by BibTeX entry type, and back (``misc``: CSL's ``article``, the
#: type Zotero gives preprints, when the paper has an arXiv id, else ``document``; CSL has no
#: type for a volume of proceedings: a ``book`` whose ``genre`` says it, ``PROCEEDINGS_GENRE``).
CSL_TYPES: Final = {
    "article": "article-journal", "inproceedings": "paper-conference",
    "incollection": "chapter", "inbook": "chapter", "book": "book", "mvbook": "book",
    "bookinbook": "chapter", "proceedings": "book", "mvproceedings": "book",
    "collection": "book", "mvcollection": "book", "phdthesis": "thesis",
    "mastersthesis": "thesis", "thesis": "thesis", "techreport": "report", "report": "report",
    "manual": "report", "online": "webpage", "software": "software", "dataset": "dataset",
    "patent": "patent", "periodical": "periodical", "reference": "book",
    "inreference": "entry-encyclopedia", "unpublished": "manuscript", "booklet": "pamphlet",
    "suppbook": "chapter", "suppcollection": "chapter", "suppperiodical": "article-journal",
    "misc": "document",
}  # fmt: skip
#: The ``genre`` of a CSL ``book`` that is a volume of proceedings (our export's; a genre
#: naming proceedings is read as one).
PROCEEDINGS_GENRE: Final = "Conference proceedings"
FROM_CSL: Final = {
    "article-journal": "article", "article-magazine": "article", "article-newspaper": "article",
    "paper-conference": "inproceedings", "chapter": "incollection", "book": "book",
    "thesis": "phdthesis", "report": "techreport", "webpage": "online", "post-weblog": "online",
    "post": "online", "software": "software", "dataset": "dataset", "patent": "patent",
    "periodical": "periodical", "entry-encyclopedia": "inreference",
    "entry-dictionary": "inreference", "manuscript": "unpublished", "pamphlet": "booklet",
    "article": "misc", "document": "misc", "standard": "manual",
}  # fmt: skip
#: Crossref's work types (its REST API's ``type``) that CSL does not name, by BibTeX entry type.
FROM_CROSSREF: Final = {
    "journal-article": "article", "proceedings-article": "inproceedings",
    "book-chapter": "incollection", "book-section": "incollection", "book-part": "incollection",
    "book-track": "incollection", "reference-entry": "inreference", "monograph": "book",
    "edited-book": "collection", "reference-book": "book", "book-set": "book",
    "proceedings": "proceedings", "dissertation": "phdthesis", "report-component": "techreport",
    "posted-content": "misc", "journal-issue": "periodical", "journal": "periodical",
    "other": "misc", "component": "misc", "peer-review": "misc", "grant": "misc",
    "database": "dataset",
}  # fmt: skip
#: RIS ``TY`` types by BibTeX entry type, and back (a volume of proceedings is RIS's ``CONF``,
#: "conference proceeding", as EndNote's type of that name writes it: read back as one when it
#: names no authors and no proceedings it is in, ``storage.sources.ris``; else a paper's).
RIS_TYPES: Final = {
    "article": "JOUR", "inproceedings": "CONF", "incollection": "CHAP", "inbook": "CHAP",
    "bookinbook": "CHAP", "book": "BOOK", "mvbook": "BOOK", "proceedings": "CONF",
    "mvproceedings": "CONF", "collection": "EDBOOK", "mvcollection": "EDBOOK",
    "phdthesis": "THES", "mastersthesis": "THES", "thesis": "THES", "techreport": "RPRT",
    "report": "RPRT", "online": "ELEC", "software": "COMP", "dataset": "DATA", "patent": "PAT",
    "unpublished": "UNPB", "booklet": "PAMP", "manual": "STAND", "periodical": "JFULL",
    "inreference": "ENCYC", "reference": "BOOK", "misc": "GEN",
}  # fmt: skip
FROM_RIS: Final = {
    "JOUR": "article", "JFULL": "periodical", "MGZN": "article", "NEWS": "article",
    "EJOUR": "article", "CONF": "inproceedings", "CPAPER": "inproceedings",
    "CHAP": "incollection", "ECHAP": "incollection", "BOOK": "book", "EBOOK": "book",
    "EDBOOK": "collection", "THES": "phdthesis", "RPRT": "techreport", "ELEC": "online",
    "WEB": "online", "BLOG": "online", "COMP": "software", "DATA": "dataset", "PAT": "patent",
    "UNPB": "unpublished", "MANSCPT": "unpublished", "PAMP": "booklet", "STAND": "manual",
    "ENCYC": "inreference", "DICT": "inreference", "GEN": "misc",
}  # fmt: skip


_DOI_PREFIX: Final = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
_DOI: Final = re.compile(r"10\.\d+(?:\.\d+)*/\S+")


def doi_of(text: str) -> str:
    """``https://doi.org/10.1/x``, ``doi:10.1/x`` → ``10.1/x``; "" for no DOI."""
    if "10." not in text:  # every paper's link is asked at import: most are no DOI's
        return ""
    doi = _DOI_PREFIX.sub("", text.strip())
    return doi if _DOI.fullmatch(doi) else ""


def arxiv_id_of_url(url: str) -> str:
    """The arXiv id an arXiv page's or PDF's address names (``2403.01234v2``), "" for none."""
    match = _ARXIV_URL.match(url.strip())
    return match.group(1) if match else ""


#: An old-style id's subject class (``.GT`` of ``math.GT/0309136``) and its version.
_ARXIV_CLASS: Final = re.compile(r"^([a-z][a-z-]+)\.[A-Za-z-]+/", re.IGNORECASE)
_ARXIV_VERSION: Final = re.compile(r"v\d+$", re.IGNORECASE)


def arxiv_key(arxiv_id: str) -> str:
    """An arXiv id as arXiv knows the paper, for comparing two: case-folded, without
    ``arXiv:``, its version, or an old-style id's subject class, which is no part of the
    paper's id (``math.GT/0309136`` is arXiv's ``math/0309136``: its "identifier for
    services" page writes ``math.CA/0611800v2`` as ``arXiv:math/0611800v2``, and the API
    answers for it with that id)."""
    found = arxiv_id.strip().removeprefix("arXiv:").removeprefix("arxiv:")
    return _ARXIV_VERSION.sub("", _ARXIV_CLASS.sub(r"\1/", found)).casefold()


def _arxiv_from(paper: Paper) -> str:
    """The arXiv id a paper's link or DOI gives ("" for none)."""
    found = arxiv_id_of_url(paper.url)
    if found:
        return found
    match = _ARXIV_DOI.match(doi_of(_text(paper, "doi")))
    return match.group(1) if match else ""


def _is_arxiv(prefix: str, eprint: str) -> bool:
    return prefix.casefold() in ("", "arxiv") and _ARXIV_ID.fullmatch(eprint) is not None


def arxiv_id(paper: Paper) -> str:
    """The paper's arXiv id (``2403.01234v2``): its ``eprint``, else its link's or DOI's."""
    eprint = _text(paper, "eprint").removeprefix("arXiv:").removeprefix("arxiv:")
    if eprint and _is_arxiv(_text(paper, "archiveprefix"), eprint):
        return eprint
    return _arxiv_from(paper)


def _lists_named(paper: Paper) -> tuple[str, ...]:
    """The lists whose names may give a paper its venue and year: none for a reference that
    states its type (BibTeX, RIS, EndNote, CSL-JSON, Web of Science…), whose list is its
    file's name (``iclr2025-related-work.bib``, ``my-thesis-2019.ris``), not a venue's.
    ``canonical_extra`` keeps the type where dropping it would let a list name say more."""
    return () if _text(paper, "entry_type") else (paper.lists or (paper.list,))


def _known(paper: Paper, *, journal: str, booktitle: str) -> tuple[Venue | None, int | None]:
    """The known venue that published the paper, and a year its texts name. A workshop of one
    (``ICLR 2024 Workshop ME-FoMo``) is none: its papers are not in the conference's
    proceedings, and a list of its papers is not one of the conference's."""
    texts = (journal, booktitle, paper.venue, *_lists_named(paper))
    if any(names_workshop(t) for t in texts[:3] if t):
        venue = None
    else:
        venue = next((f.venue for t in texts if t and (f := find_venue(t)).venue is not None), None)
    year = next((y for t in texts if t and (y := find_year(t)) is not None), None)
    return venue, year


def _stated(paper: Paper, venue: Venue | None) -> str:
    """The venue a paper names (its ``venue``, without the year), when no known venue is it."""
    if venue is not None or not paper.venue:
        return ""
    return re.sub(r"\s*\(?\b(?:19|20)\d\d\)?$", "", paper.venue).strip(" ,")


def _derived_kind(journal: str, booktitle: str, venue: Venue | None) -> str:
    if journal or (venue is not None and venue.journal and not booktitle):
        return "article"
    if booktitle or venue is not None:
        return "inproceedings"
    return "misc"


#: Venue statuses of a paper its venue did not publish (OpenReview's and Paper Copilot's
#: words: "Reject", "Desk rejected", "Withdrawn", "Submitted", "Under review", "Decision
#: pending"; ours for a paper a refreshed fetch no longer found among the accepted ones,
#: "Left the accepted list (was Poster)": ``storage.importing.departed``), as a folded
#: status starts.
_NOT_PUBLISHED: Final = re.compile(
    r"(?:desk[ _-]?)?reject|withdr|submitted|under review|decision pending|active\b"
    r"|left the accepted list"
)


def not_published(venue_status: str) -> bool:
    """Whether a paper's venue status says its venue did not publish it (rejected, withdrawn,
    still under review), or that its source does not know (Paper Copilot's "Unknown":
    ``decisions.says_no_decision``): it is cited as OpenReview cites such a paper, ``@misc``
    with its year and link, never as a paper of the venue's proceedings."""
    folded = " ".join(venue_status.casefold().split())
    return _NOT_PUBLISHED.match(folded) is not None or says_no_decision(folded)


def citation_of(paper: Paper) -> Citation:
    """How ``paper`` is cited (see the module)."""
    journal, booktitle = _text(paper, "journal"), _text(paper, "booktitle")
    venue, venue_year = _known(paper, journal=journal, booktitle=booktitle)
    unpublished = not_published(paper.venue_status) and not journal and not booktitle
    if unpublished:
        venue = None  # submitted there, not published by it: its year stays, not its name
    kind = _text(paper, "entry_type") or _derived_kind(journal, booktitle, venue)
    if not unpublished and not journal and not booktitle and names_workshop(paper.venue):
        booktitle = paper.venue  # (``venue_text``: a workshop's as written)
        kind = kind if _text(paper, "entry_type") else "inproceedings"
    if venue is not None and not journal and not booktitle:
        if venue.journal and kind in ("article", "misc"):
            journal = venue.citation
            kind = "article"
        elif not venue.journal and kind in ("inproceedings", "misc"):
            booktitle = venue.citation
            kind = "inproceedings"
    eprint = _text(paper, "eprint")
    prefix = _text(paper, "archiveprefix")
    other_archive = bool(eprint) and not _is_arxiv(prefix, eprint.removeprefix("arXiv:"))
    return Citation(
        kind=kind,
        journal=journal,
        booktitle=booktitle,
        published="" if journal or booktitle or unpublished else _stated(paper, venue),
        year=_number(paper, "year") or venue_year,
        month=_number(paper, "month"),
        date=_text(paper, "date"),
        arxiv=arxiv_id(paper),
        primary_class=_text(paper, "primaryclass"),
        archive=prefix if other_archive else "",
        eprint=eprint if other_archive else "",
        doi=doi_of(_text(paper, "doi")),
        venue=venue,
    )


def editors_only(paper: Paper) -> bool:
    """Whether ``paper``'s people are its editors: a book or proceedings volume read with
    editors and no author, whose ``edited_by`` names its ``authors`` still (a later record
    of it that names authors makes them its authors again)."""
    named = paper.fact("edited_by")
    if not named or not isinstance(named, str):
        return False
    people = edited_by(paper.authors)  # (a family name's tie, ``FAMILY_TIE``, read as a space)
    return isinstance(people, str) and named.split() == people.split()


def year_of(paper: Paper) -> int | None:
    """The year ``citation_of`` gives, found faster (a search asks it of every paper, an
    export writes it for each)."""
    year = _number(paper, "year")
    if year is not None:
        return year
    texts = (_text(paper, "journal"), _text(paper, "booktitle")) if paper.extra else ()
    for text in (*texts, paper.venue, *_lists_named(paper)):
        if text and (found := find_year(text)) is not None:
            return found
    return None


def canonical_extra(paper: Paper) -> tuple[tuple[str, ExtraValue], ...]:
    """``paper.extra`` without the reference fields its other fields tell (see the module):
    an entry type its container makes, a year its venue names, a booktitle that is its known
    venue's name, an arXiv id its link holds, a PDF link its page gives."""
    if not any(name in _DERIVABLE for name, _ in paper.extra):
        return paper.extra
    facts = dict(paper.extra)
    if "doi" in facts and isinstance(facts["doi"], str):
        facts["doi"] = doi_of(facts["doi"]) or facts["doi"]
    if isinstance(facts.get("entry_type"), str):
        facts["entry_type"] = entry_type(str(facts["entry_type"]))
    if isinstance(facts.get("eprint"), str):
        facts["eprint"] = str(facts["eprint"]).removeprefix("arXiv:").removeprefix("arxiv:")
    bare = replace(paper, extra=tuple(facts.items()))

    def without(*names: str) -> Citation:
        return citation_of(replace(bare, extra=tuple(i for i in bare.extra if i[0] not in names)))

    # each citation made only for a fact the paper has (an OpenReview note has its PDF link
    # alone: making the three others cost 60 us a paper, 0.7 s of a fetch of 11,672)
    drop: set[str] = set()
    if facts.get("journal") or facts.get("booktitle"):
        plain = without("journal", "booktitle", "entry_type")
        for name in ("journal", "booktitle"):
            if facts.get(name) and facts[name] == getattr(plain, name):
                drop.add(name)
    # the type also says that the paper's lists are its file's name (``_lists_named``): it
    # goes only when it is all the citation would lose (not when a list's name would give a
    # reference with no year of its own one, or a venue)
    if "entry_type" in facts and without("entry_type") == citation_of(bare):
        drop.add("entry_type")
    if facts.get("year") is not None and facts["year"] == without("year").year:
        drop.add("year")
    eprint = facts.get("eprint")
    if isinstance(eprint, str) and eprint and eprint == _arxiv_from(bare):
        drop.add("eprint")
    prefix = facts.get("archiveprefix")
    if isinstance(prefix, str) and prefix.casefold() == "arxiv":
        drop.add("archiveprefix")
    no_pdf = replace(bare, extra=tuple(i for i in bare.extra if i[0] != "pdf"))
    if facts.get("pdf") and facts["pdf"] == pdf_url(no_pdf):
        drop.add("pdf")
    date = facts.get("date")
    if isinstance(date, str) and re.fullmatch(r"\d{4}(?:-\d{1,2})?", date):
        drop.add("date")  # the year and month say it
    return tuple((name, value) for name, value in facts.items() if name not in drop)


_DERIVABLE: Final = frozenset(
    {"doi", "entry_type", "eprint", "archiveprefix", "journal", "booktitle", "year", "pdf", "date"}
)
