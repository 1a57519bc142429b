"""Step 2 of an import: candidates matched with the library's papers and with each other."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from storage.caps import MAX_LISTS
from storage.files.papers_file import real_title
from storage.files.triage_model import doc_id
from storage.importing.author_keys import authors_compatible, family_key
from storage.importing.authority import OTHER, overruled, rank
from storage.importing.gather import Candidate
from storage.importing.identity import (
    abstract_identity,
    id_of_title,
    id_with_title,
    is_placeholder_title,
    title_match_key,
    titles_compatible,
)
from storage.importing.page_keys import doi_key, page_key
from storage.models import Decision, ExtraValue, ImportReport, Merge, Paper
from storage.sources.authors import ET_AL, FAMILY_TIE, last_first, no_author
from storage.sources.bibtex_dialects import mendeley_unescaped
from storage.sources.citation import canonical_extra
from storage.sources.fields import merge_extra
from storage.sources.links import unique_links
from storage.sources.venues import find_year
from storage.text.sanitize import REPLACEMENT, SHOWN

#: What a control character is shown as (``␛``, ``�``): Markdown's export shows them so.
_STAND_INS: Final = frozenset(SHOWN.values()) | {REPLACEMENT}


def _reads_alike(old: str, new: str) -> bool:
    """Whether two texts of a field read the same (our exports write the display form of a
    title, LaTeX as Unicode, ``ﬁ`` as ``fi``): then the text the library holds is kept.

    Control characters are not read, however an export wrote them: kept (CSV, RIS), shown
    (Markdown's ``␛``, ``�`` for an override), left out (BibTeX's ASCII), or a NUL, which no
    text file holds, as U+FFFD."""
    if old == new:
        return True
    from storage.text.latex import to_unicode  # only when the texts differ

    def shown(text: str) -> str:  # invisible format characters (U+200B) are not written
        kept = "".join(
            c
            for c in unicodedata.normalize("NFKC", to_unicode(text))
            if c.isprintable() and c not in _STAND_INS
        )
        return " ".join(kept.split())  # (one left out between spaces leaves two)

    return shown(old) == shown(new)


def _same_authors(old: tuple[str, ...], new: tuple[str, ...]) -> bool:
    """Whether ``new`` names the authors ``old`` does: read alike, one by one; a list that
    does not end in ``ET_AL`` where ``old`` does is the same list, from a source that has no
    way to say "and others" (RIS: re-importing our RIS export keeps it). An empty ``new``
    keeps ``old`` unless ``old`` names no one (Scopus's ``[No author name available]``, which
    an older version stored as an author)."""
    if not new:
        return not old or not all(map(no_author, old))
    if old and old[-1] == ET_AL and new[-1] != ET_AL:
        old = old[:-1]
    return len(new) == len(old) and all(map(_same_name, old, new))


def _same_name(old: str, new: str) -> bool:
    """Whether ``new`` is the name ``old``, read alike, or in the form readers give a name
    written ``Last, First`` (``last_first``). A JSON list's ``O'Brien, Zoë`` is kept as
    written (changing it would change a title-only paper's id: ``García López, José`` is
    keyed ``garcialopez``, ``José García López`` ``lopez``); our RIS export writes it as RIS
    says, ``Last, First``, and every reader of RIS gives it back ``Zoë O'Brien``."""
    return _reads_alike(old, new) or ("," in old and _reads_alike(last_first(old), new))


def _ties(old: Paper, new: Paper) -> bool:
    """Whether ``new`` names ``old``'s authors word for word, tying a family name of two words
    that ``old`` does not (``storage.sources.authors.FAMILY_TIE``: a list that wrote the name
    whole, the same paper's BibTeX that writes it apart): the split is kept."""
    pairs = list(zip(old.authors, new.authors, strict=False))
    return (
        len(old.authors) == len(new.authors)
        and any(FAMILY_TIE in n and FAMILY_TIE not in o for o, n in pairs)
        and all(o.split() == n.split() for o, n in pairs)
    )


def _case_lost(old: str, new: str) -> bool:
    """Whether ``new`` is the title ``old`` in fewer capitals: Google Scholar's sentence case
    (``Bert: Pre-training of deep…`` for ``BERT: Pre-training of Deep…``), which says less.
    A title without a small letter (a catalog's in capitals) says nothing of case: it is
    replaced by one in its case, and never replaces one."""
    if old == new or " ".join(old.split()).casefold() != " ".join(new.split()).casefold():
        return False
    if not any(map(str.islower, old)):
        return False
    if not any(map(str.islower, new)):
        return True
    return sum(map(str.isupper, new)) < sum(map(str.isupper, old))


def merge_paper(old: Paper, new: Paper) -> Paper:
    """The stored paper after importing ``new`` over ``old``: metadata updated, place kept.

    A real title beats a derived one; empty fields never wipe known ones, nor does a text that
    reads the same (the display form our exports write: ``_reads_alike``), nor a title in
    fewer capitals (``_case_lost``); links, lists and
    extra fields are merged; the paper keeps its first list and, within that list, takes its
    new position; an abstract fills a paper known by its title alone.
    """
    keep_title = (
        (new.title_derived and not old.title_derived)
        or not new.title
        or (new.title_derived == old.title_derived and _reads_alike(old.title, new.title))
        # the title derived here, come back alone (our Markdown export, without abstracts) as
        # a title like any other; one with the abstract may be a catalog's real title, the same
        or (old.title_derived and not new.abstract and _reads_alike(old.title, new.title))
        or (not old.title_derived and not new.title_derived and _case_lost(old.title, new.title))
    )
    same_list = new.list == old.list
    same_abstract = not new.abstract or _reads_alike(old.abstract, new.abstract)
    same_authors = _same_authors(old.authors, new.authors)
    merged = replace(
        old,
        title=old.title if keep_title else new.title,
        title_derived=old.title_derived if keep_title else new.title_derived,
        name=old.name if keep_title else (new.name or old.name),
        abstract=old.abstract if same_abstract else new.abstract,
        authors=old.authors if same_authors and not _ties(old, new) else new.authors,
        github=unique_links(old.github + new.github),
        url=new.url or old.url,
        keywords=new.keywords or old.keywords,
        venue_status=new.venue_status or old.venue_status,
        position=new.position if same_list else old.position,
        lists=tuple(dict.fromkeys(old.lists + new.lists))[:MAX_LISTS],
        venue=new.venue or old.venue,
        extra=_merged_extra(old, new),
    )
    if merged.extra == old.extra:
        return merged
    # facts the merged paper's other fields now tell are not kept twice (a rejected paper's
    # @misc and year, read back from our export, are what its status and venue say)
    return replace(merged, extra=canonical_extra(merged))


#: The facts of where and when a version of a paper appeared (its citation's).
_PUBLICATION: Final = frozenset(
    {"entry_type", "year", "month", "date", "journal", "booktitle", "publisher", "volume", "issue",
     "pages", "series", "editors"}
)  # fmt: skip


def _merged_extra(old: Paper, new: Paper) -> tuple[tuple[str, ExtraValue], ...]:
    """The extra fields of ``old`` and ``new``: the newer value of each, but for the facts of
    where and when the paper appeared when their year contradicts the venue the merged paper
    keeps (a preprint and its published version, "ICLR 2015" and the preprint's 2014, in
    either order): those are then the facts of the record whose venue is kept, the other's
    left out (a year its venue names is not kept apart: ``canonical_extra``)."""
    extra = merge_extra(old.extra, new.extra)
    venue = new.venue or old.venue
    year = find_year(venue) if venue else None
    stated = dict(extra).get("year")
    if year is None or not isinstance(stated, int) or stated == year:
        return extra
    kept = new if new.venue else old
    others = tuple(item for item in extra if item[0] not in _PUBLICATION)
    return merge_extra(others, tuple(item for item in kept.extra if item[0] in _PUBLICATION))


@dataclass(slots=True)
class Incoming:
    """A paper of the import, matched: what is stored, where it came from, its decision."""

    paper: Paper
    source: str
    decision: Decision | None
    #: The record it came from is in the report already (merged into a stored paper under
    #: another form, or kept apart): ``store`` does not count it again.
    counted: bool = False
    #: The highest rank of its records (``storage.importing.authority``).
    authority: int = OTHER
    #: The records a more authoritative one overruled: (their source, what differed).
    overruled: list[tuple[str, list[str]]] = field(default_factory=list)


def _real_title(title: str, derived: bool) -> str:
    """The title a paper is matched by: none when derived, or a placeholder ("withdrawn")."""
    return "" if derived or is_placeholder_title(title) else title


class _TitleIndex:
    """Title key (``title_match_key``) → the ids of the known papers of that title, the first
    indexed first (two works may share a title: LeCun's "Deep learning" and Goodfellow's)."""

    def __init__(self) -> None:
        self._first: dict[str, str] = {}
        self._more: dict[str, list[str]] = {}  # the rare title held by several papers

    def add(self, tkey: str, pid: str) -> None:
        first = self._first.setdefault(tkey, pid)
        if first != pid:
            more = self._more.setdefault(tkey, [])
            if pid not in more:
                more.append(pid)

    def ids(self, tkey: str) -> list[str]:
        first = self._first.get(tkey)
        return [] if first is None else [first, *self._more.get(tkey, ())]


class _Known:
    """The papers an import matches against: the library's (``PapersChange.stored``, the
    documents of ``papers.json``) and its own.

    Titles are indexed only when a lookup by title needs them (a record without an abstract,
    or an abstract new to a library holding papers without one): an import of new papers
    with abstracts computes no title key (the titles it holds are looked up as they are:
    ``holding``).
    """

    def __init__(self, stored: Mapping[str, Mapping[str, Any]]) -> None:
        self.stored = stored
        self.incoming: dict[str, Incoming] = {}
        self._titles = _TitleIndex()  # every titled paper
        self._derived: dict[str, str] = {}  # title key → id, titles derived from abstracts
        self._untitled = _TitleIndex()  # papers without an abstract
        self._pending: list[tuple[str, str, bool]] = []  # (title, id, has abstract) to index
        self._pending_derived: list[tuple[str, str]] = []  # (derived title, id) to index
        self._stored_indexed = False
        self._without_abstract = sum(1 for doc in stored.values() if not doc["abstract"])
        self._pages: dict[str, str] | None = None  # page key → id, the library's papers
        self._dois: dict[str, list[str]] | None = None  # DOI key → ids, the library's papers
        self._incoming_dois: dict[str, list[str]] = {}  # DOI key → ids, the import's papers
        self._held: _TitleIndex | None = None  # title as held → ids, stored with an abstract

    def by_page(self, url: str) -> str | None:
        """The library's paper whose link is the page ``url`` is (``page_key``: an OpenReview
        forum, an arXiv abstract), or None. Indexed at the first ask."""
        if not url or not self.stored:
            return None
        key = page_key(url)
        if not key:
            return None
        if self._pages is None:
            self._pages = {}
            for doc in self.stored.values():
                found = page_key(doc.get("url") or "")
                if found:
                    self._pages.setdefault(found, doc["id"])
        return self._pages.get(key)

    def by_doi(self, paper: Paper, title: str) -> str | None:
        """The known paper (the library's, then the import's) of ``paper``'s DOI, however
        written (``doi_key``), whose title is compatible with ``title``: a DOI several papers
        are given (their proceedings') joins none of another title, nor, without a real title
        on both sides to compare, any (a record known by its abstract alone). The library's
        DOIs are indexed at the first ask."""
        key = _doi_key_of(paper.fact("doi"), paper.url)
        if not key or not title:
            return None
        if self._dois is None:
            self._dois = {}
            for doc in self.stored.values():
                doi = next((pair[1] for pair in doc.get("extra") or () if pair[0] == "doi"), "")
                found = _doi_key_of(doi, doc.get("url") or "")
                if found:
                    self._dois.setdefault(found, []).append(doc["id"])
        for pid in [*self._dois.get(key, ()), *self._incoming_dois.get(key, ())]:
            known = self.get(pid)
            if known is not None and known[0] and titles_compatible(known[0], title):
                return pid
        return None

    def holding(self, title: str) -> list[str]:
        """The library's papers with an abstract whose real title is ``title``, as held.
        Indexed at the first ask by the titles themselves (the strings ``papers.json`` gave:
        no key worked out, 0.11 s for 100,000 papers where their title keys take 0.6 s)."""
        if self._held is None:
            self._held = _TitleIndex()
            for doc in self.stored.values():
                if doc["abstract"] and not doc.get("title_derived", False):
                    self._held.add(str(doc["title"]), doc["id"])
        return self._held.ids(title)

    def same_page(self, pid: str, url: str) -> bool:
        """Whether the library's paper ``pid`` has the page ``url`` is as its link."""
        doc = self.stored.get(str(doc_id(pid)))
        key = page_key(url)
        return bool(key) and doc is not None and page_key(doc.get("url") or "") == key

    def get(self, pid: str) -> tuple[str, str] | None:
        """(real title, abstract) of a known paper, or None."""
        found = self.incoming.get(pid)
        if found is not None:
            p = found.paper
            return _real_title(p.title, p.title_derived), p.abstract
        doc = self.stored.get(str(doc_id(pid)))
        if doc is None:
            return None
        return real_title(doc), doc["abstract"]

    def authors(self, pid: str) -> Sequence[str]:
        """The authors of a known paper (none for an unknown one)."""
        found = self.incoming.get(pid)
        if found is not None:
            return found.paper.authors
        doc = self.stored.get(str(doc_id(pid)))
        return () if doc is None else doc.get("authors") or ()

    def _index(self) -> None:
        if not self._stored_indexed:
            self._stored_indexed = True
            for doc in self.stored.values():
                title = real_title(doc)
                if title:
                    self._pending.append((title, doc["id"], bool(doc["abstract"])))
                elif doc.get("title"):
                    self._pending_derived.append((str(doc["title"]), doc["id"]))
        for title, pid, has_abstract in self._pending:
            tkey = title_match_key(title)
            self._titles.add(tkey, pid)
            if not has_abstract:
                self._untitled.add(tkey, pid)
        self._pending.clear()
        for title, pid in self._pending_derived:
            self._derived.setdefault(title_match_key(title), pid)
        self._pending_derived.clear()

    def by_title(
        self, title: str, authors: Sequence[str], abstract: str | None = None
    ) -> tuple[str | None, str | None]:
        """A known paper of this title whose first author may be that of ``authors``
        (``authors_compatible``), and, when there is none, the first paper of this title
        another first author's (else None). With an ``abstract``, only papers known without
        one (or that took this one in this import) are looked at."""
        if abstract is not None and not self._without_abstract:
            return None, None
        self._index()
        index = self._titles if abstract is None else self._untitled
        other = None
        for pid in index.ids(title_match_key(title)):
            if abstract is not None and not _may_take(self.get(pid), abstract):
                continue  # it took another abstract in this import: another paper
            if authors_compatible(self.authors(pid), authors):
                return pid, None
            other = other or pid
        return None, other

    def by_derived_title(self, title: str, authors: Sequence[str]) -> str | None:
        """A known paper whose title, derived from its abstract, is this one: a record of
        ours (a Markdown export without abstracts) names such a paper by it."""
        self._index()
        pid = self._derived.get(title_match_key(title))
        return pid if pid is not None and authors_compatible(self.authors(pid), authors) else None

    def add(self, entry: Incoming) -> None:
        """Record a paper of the import (its title indexed for the records after it)."""
        paper = entry.paper
        self.incoming[paper.id] = entry
        key = _doi_key_of(paper.fact("doi"), paper.url)
        if key and paper.id not in self._incoming_dois.get(key, ()):
            self._incoming_dois.setdefault(key, []).append(paper.id)
        title = _real_title(paper.title, paper.title_derived)
        if title:
            self._pending.append((title, paper.id, bool(paper.abstract)))
            self._without_abstract += not paper.abstract
        elif paper.title_derived and paper.title:
            self._pending_derived.append((paper.title, paper.id))


def _doi_key_of(doi: object, url: str) -> str:
    """``doi_key`` of a paper's ``doi`` fact (any value a file gave) and its link."""
    return doi_key(doi if isinstance(doi, str) else "", url)


def _may_take(found: tuple[str, str] | None, abstract: str) -> bool:
    """Whether a paper first known without an abstract (``found``: its title and abstract
    now) may take ``abstract``: it has none yet, or has taken the same in this import."""
    return (
        found is None
        or not found[1]
        or (abstract_identity(found[1]) == abstract_identity(abstract))
    )


#: ``_resolve_id``'s reason for a record kept apart (reported there).
_APART = "\x00apart"


def _as_known(known: _Known, pid: str, paper: Paper, title: str) -> bool:
    """Whether the known paper ``pid`` is the record ``paper`` (of real title ``title``)
    itself, as it was made (a file imported again): this title and these authors as written,
    and this id, or, for a paper known by its title alone, an id another title gave it
    (``<i>In vivo</i> study``, as read before its rich text was read as text). A record that
    reads otherwise (``LeCun, Y.`` for ``Yann LeCun``), or that joins a paper known by its
    abstract, is another form of it, said as merged."""
    found = known.get(pid)
    if found is None or found[0] != title or tuple(known.authors(pid)) != paper.authors:
        return False
    return pid == paper.id or not found[1]


def _resolve_id(known: _Known, cand: Candidate, report: ImportReport) -> tuple[str, str]:
    """The id a candidate takes, and why it joins a known paper ("" when nothing says;
    ``_APART`` for a record kept apart from a paper sharing its abstract, or its title and
    not its first author)."""
    paper = cand.paper
    title = _real_title(paper.title, paper.title_derived)
    if cand.by_abstract:
        pid = paper.id
        found = known.get(pid)
        if found is not None and not titles_compatible(found[0], title):
            if known.same_page(pid, paper.url):
                return pid, "the same page (its title revised)"
            identity = abstract_identity(paper.abstract)
            assert identity is not None  # as when the candidate was made
            apart = id_with_title(identity, title)
            if known.get(apart) is None:  # said once, when the paper is first met
                why = f"shares its abstract with {pid} ({found[0][:60]}), not its title"
                report.apart.append(
                    Merge(apart, paper.display_title, why, found[0], cand.source, cand.number)
                )
                return apart, _APART
            return apart, ""
        if found is not None:
            same = _reads_alike(found[1], paper.abstract)  # an export's display form too
            return pid, "" if same else "the same abstract, written differently"
        if title and (shown := _shown_as(known, title, paper.abstract)) is not None:
            return shown, ""
        if title:
            other, unlike = known.by_title(title, paper.authors, paper.abstract)
            if other is not None:
                return other, "the same title; the paper had no abstract"
            keyed = _keyed_by_title(known, title, paper.authors, paper.abstract)
            if keyed is not None:
                return keyed, ""
            noted = _noted_as(known, title, paper)
            if noted is not None:
                return noted, "the same title; its abstract was this record's note"
            if unlike is not None and not (known.by_page(paper.url) or known.by_doi(paper, title)):
                return pid, _kept_apart(known, unlike, cand, report)
        other = known.by_page(paper.url)
        if other is not None:
            return other, "the same page (its abstract revised)"
        other = known.by_doi(paper, title)
        if other is not None:
            return other, "the same DOI (its abstract written otherwise)"
        return pid, ""
    other, unlike = known.by_title(title, paper.authors)
    if other is not None and _as_known(known, other, paper, title):
        return other, ""  # the paper itself, as it was made (a file imported again)
    if other is not None:
        return other, "the same title; the record has no abstract"
    other = known.by_derived_title(title, paper.authors) if title else None
    if other is not None:
        return other, "the title derived from its abstract; the record has no abstract"
    other = known.by_page(paper.url)
    if other is not None:
        return other, "the same page (its title revised)"
    other = known.by_doi(paper, title)
    if other is not None:
        return other, "the same DOI (its title written otherwise)"
    if unlike is not None and known.get(paper.id) is None:
        return paper.id, _kept_apart(known, unlike, cand, report)
    return paper.id, ""


def _shown_as(known: _Known, title: str, abstract: str) -> str | None:
    """The library's paper of this title whose abstract, as shown, is ``abstract``: our
    export of a paper whose id reads its abstract as the converter first read it
    (``identity._as_first_read``: ``a\\textendash b``, ``self\\hyphen supervised``), which
    writes it as shown (``a–b``, ``self-supervised``), so that another id reads it. Or whose
    abstract is Mendeley's escaped text of ``abstract`` (``{\\$}``, ``$\\backslash$``), as
    the library took it before the BibTeX reader undid those escapes."""
    for pid in known.holding(title):
        found = known.get(pid)
        if found is None or found[1] == abstract:
            continue
        if _reads_alike(found[1], abstract) or mendeley_unescaped(found[1]) == abstract:
            return pid
    return None


def _noted_as(known: _Known, title: str, paper: Paper) -> str | None:
    """The library's paper of this title whose abstract is this record's note from its source:
    a RIS record with an ``AB`` and an ``N2``, stored when the first was taken for the abstract
    and read now with the one that reads as an abstract (``ris._abstract_of``), the other its
    note. Its id was made from the note: without this a file imported again gave each such
    paper a second copy, its decisions left on the first."""
    note = paper.fact("bib_note")
    if not isinstance(note, str) or not note.strip():
        return None
    wanted = " ".join(note.split())
    for pid in known.holding(title):
        found = known.get(pid)
        if found is not None and " ".join(found[1].split()) == wanted:
            return pid
    return None


def _kept_apart(known: _Known, unlike: str, cand: Candidate, report: ImportReport) -> str:
    """Report a record kept apart from the paper ``unlike`` of its title, whose first author
    is another's (``authors_compatible``); ``_APART``, as ``_resolve_id`` says it."""
    paper = cand.paper
    joined = (known.get(unlike) or ("", ""))[0]
    theirs = next(iter(known.authors(unlike)), "")
    ours = paper.authors[0] if paper.authors else ""
    why = f"shares its title with {unlike} ({joined[:60]}), not its first author"
    why += f" ({ours[:40]}, not {theirs[:40]})"
    report.apart.append(Merge(paper.id, paper.display_title, why, joined, cand.source, cand.number))
    return _APART


def _keyed_by_title(known: _Known, title: str, authors: Sequence[str], abstract: str) -> str | None:
    """The stored paper first known by this title alone that has since taken this abstract:
    it keeps the id its title gave it (its decisions are under it), so the abstract's id finds
    nothing, and a record with both is that paper, not a new one. Two hashes (the id of the
    title with the first author's name, and of the title alone: a record without authors, or
    a library of before authors were taken), no index; failing them, the papers that hold
    this very title (``_Known.holding``): one whose id was given by a title it no longer
    holds, as one stored with its rich text (``<i>In vivo</i> study``) holds it read as text
    once the abstract came with it (``In vivo study``)."""
    if not known.stored:
        return None
    identity: list[str | None] = []  # worked out for the first paper found, if one is: most
    # records of an import into a library are new papers, and it costs what their ids did

    def took(pid: str) -> bool:
        found = known.get(pid)
        if found is None or not found[1]:
            return False
        if not identity:
            identity.append(abstract_identity(abstract))
        return abstract_identity(found[1]) == identity[0] and titles_compatible(found[0], title)

    hashed = dict.fromkeys((id_of_title(title, authors), id_of_title(title)))
    found = next((pid for pid in hashed if took(pid)), None)
    if found is None:  # the titles held are indexed only now
        found = next((pid for pid in known.holding(title) if took(pid)), None)
    return found


def _matched_after(cand: Candidate) -> int:
    """The rank of a candidate in matching: with an abstract, with a first author, without."""
    if cand.by_abstract:
        return 0
    return 1 if family_key(cand.paper.authors) else 2


def resolve(
    candidates: Sequence[Candidate],
    stored: Mapping[str, Mapping[str, Any]],
    report: ImportReport,
) -> dict[str, Incoming]:
    """Match the candidates with the library's papers and with each other (see the module).

    Records with an abstract are matched first, then those known by their title alone (those
    naming a first author first), so that a paper's id is the same whichever of the import's
    files came first (a BibTeX file of titles before or after the list of abstracts, a
    catalog of titles and links without authors); the papers keep the order the records
    came in.
    """
    known = _Known(stored)
    reordered = not all(c.by_abstract for c in candidates)
    first: dict[str, int] = {}  # paper id → the place of its first record (when reordered)
    order: Iterable[int] = range(len(candidates))
    if reordered:
        order = sorted(order, key=lambda i: _matched_after(candidates[i]))
    for place in order:
        cand = candidates[place]
        pid, reason = _resolve_id(known, cand, report)
        if reordered:
            first[pid] = min(first.get(pid, place), place)
        paper = cand.paper if cand.paper.id == pid else replace(cand.paper, id=pid)
        entry = known.incoming.get(pid)
        if entry is not None:  # twice in this import: one paper
            if reason or entry.paper.abstract != paper.abstract:
                why = reason or "the same abstract, written differently"
            else:
                why = "the same paper twice in the import"
            joined = entry.paper.display_title
            report.merged.append(
                Merge(pid, paper.display_title, why, joined, cand.source, cand.number)
            )
            theirs = rank(cand.source)
            paper, differ = overruled(entry.paper, entry.authority, paper, theirs)
            if differ:
                entry.overruled.append((cand.source, differ))
            entry.authority = max(entry.authority, theirs)
            entry.paper = merge_paper(entry.paper, replace(paper, position=entry.paper.position))
            entry.decision = cand.decision or entry.decision
            continue
        counted = bool(reason)
        if reason and reason != _APART:
            found = known.get(pid)
            joined = found[0] if found is not None else ""
            report.merged.append(
                Merge(pid, paper.display_title, reason, joined, cand.source, cand.number)
            )
        known.add(Incoming(paper, cand.source, cand.decision, counted, rank(cand.source)))
    if not reordered:
        return known.incoming
    return dict(sorted(known.incoming.items(), key=lambda item: first[item[0]]))
