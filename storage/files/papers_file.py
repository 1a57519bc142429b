"""``papers.json``: the imported papers, their lists and the papers removed (for an undo).

This module alone reads and writes the file. Its TinyDB tables:

``papers``   one document per paper (``paper_to_doc``), keyed by the paper id read as
             hexadecimal; written on import, removal, undo of a removal, and sync only, so
             that a keystroke never rewrites this, the large file;
``lists``    the imported lists in import order: name, the files each started at, size;
``removed``  papers taken out, under the token of their removal (``removed_papers``);
``renamed``  ids of schema 1 and the ids they became (``migrations``).

Every change is one ``PapersChange`` (``PapersFile.change()``): under the HOME lock, the file
read again first, written once, atomically (``atomic.AtomicJSONStorage``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Any

from storage.files.atomic import (
    AtomicJSONStorage,
    ChangingTables,
    FileContent,
    FileSignature,
    FileStamp,
    ScratchTables,
    Tables,
    signature,
)
from storage.files.locks import HomeLock
from storage.files.migrations import migrate_papers, renamed_ids
from storage.files.removed_papers import (
    REMOVED_TABLE,
    forget_unreferenced,
    list_sizes,
    put_back,
    take_out,
)
from storage.files.triage_model import doc_id, now
from storage.models import Paper, Removal

PAPERS_FILE = "papers.json"
SCHEMA = 2

#: A paper's fields as stored, in the order ``Paper(*row)`` takes them.
FIELDS = (
    "id", "title", "abstract", "authors", "github", "url", "keywords",
    "venue_status", "list", "position", "title_derived", "name", "lists", "venue", "extra",
)  # fmt: skip

#: A paper's fields, in ``FIELDS`` order (what ``Paper(*row)`` takes).
paper_row = attrgetter(*FIELDS)


def paper_to_doc(paper: Paper) -> dict[str, Any]:
    """A paper as stored in ``papers.json``: its ``FIELDS`` in order, the tuples as lists.

    Written out rather than looped over ``FIELDS`` (a field name tested, an attribute got by
    name): an import stores every paper it adds, 0.70 s of CPU for 100,000 papers, 0.15 s so.
    """
    return {
        "id": paper.id, "title": paper.title, "abstract": paper.abstract,
        "authors": list(paper.authors), "github": list(paper.github), "url": paper.url,
        "keywords": list(paper.keywords), "venue_status": paper.venue_status,
        "list": paper.list, "position": paper.position, "title_derived": paper.title_derived,
        "name": paper.name, "lists": list(paper.lists), "venue": paper.venue,
        "extra": list(paper.extra),
    }  # fmt: skip


def paper_from_doc(doc: Mapping[str, Any]) -> Paper:
    """A paper read back from ``papers.json`` (fields it lacks take their defaults).

    Positional and without a dict of keywords: opening 12,000 papers runs this 12,000 times
    before the first paint (half the time of the keyword version).
    """
    return Paper(*row_of_doc(doc))


def row_of_doc(doc: Mapping[str, Any]) -> tuple[Any, ...]:
    """``paper_row(paper_from_doc(doc))`` without the paper: what ``papers.cache`` keeps of a
    document (half the time: 0.29 s for 100,000 documents, against 0.62 s through a paper)."""
    get = doc.get
    return (
        doc["id"], doc["title"], doc["abstract"], tuple(get("authors", ())),
        tuple(get("github", ())), get("url", ""), tuple(get("keywords", ())),
        get("venue_status", ""), get("list", ""), get("position", 0),
        get("title_derived", False), get("name", ""), tuple(get("lists", ())),
        get("venue", ""), tuple(map(tuple, get("extra", ()))),
    )  # fmt: skip


def real_title(doc: Mapping[str, Any]) -> str:
    """A stored paper's title when it is a real one ("" when derived from the abstract)."""
    return "" if doc.get("title_derived", False) else str(doc["title"])


@dataclass(frozen=True, slots=True)
class ListInfo:
    """A list imported into the library."""

    name: str
    order: int
    sources: tuple[str, ...]
    size: int
    #: When the list was made or last took a file new to it (a re-import of its files leaves
    #: it, so that one that changes nothing writes nothing).
    imported_at: float


def lists_from(table: Mapping[str, Any]) -> list[ListInfo]:
    """The ``lists`` table as ``ListInfo``, in import order."""
    infos = [
        ListInfo(d["name"], int(k), tuple(d.get("sources", ())), d.get("size", 0), d.get("at", 0.0))
        for k, d in table.items()
    ]
    return sorted(infos, key=lambda i: i.order)


def papers_in_order(tables: Tables) -> list[Paper]:
    """The papers of parsed ``papers.json`` tables in list order: lists in import order, then
    position in the list."""
    return [paper_from_doc(doc) for doc in documents_in_order(tables)]


def documents_in_order(tables: Tables) -> list[dict[str, Any]]:
    """The paper documents of parsed ``papers.json`` tables in list order (as
    ``papers_in_order``, without making the papers)."""
    order = {info.name: info.order for info in lists_from(tables.get("lists", {}))}
    docs = list(tables.get("papers", {}).values())
    last = len(order)
    docs.sort(
        key=lambda d: order.get(d.get("list", ""), last) * 1_000_000_000 + d.get("position", 0)
    )
    return docs


class PapersFile:
    """``papers.json`` in a HOME: read it, or change it in one ``PapersChange``."""

    def __init__(self, home: Path, lock: HomeLock) -> None:
        self.path = home / PAPERS_FILE
        self._store = AtomicJSONStorage(
            self.path,
            lock=lock,
            kind="papers",
            schema=SCHEMA,
            migrate=migrate_papers,
            digest=True,  # derived files are named by content: a copied HOME keeps them
        )

    # -- reading ------------------------------------------------------------------------
    def signature(self) -> FileSignature | None:
        """The version of the file on disk (None: there is none yet)."""
        return signature(self.path)

    def known_content(self) -> tuple[FileStamp, FileContent] | None:
        """The stamp and content of the version this process last read or wrote (hashed as
        it was), whether or not it is still the file on disk."""
        return self._store.known_content()

    def load(self) -> Tables:
        """The file's tables (the last parse when it has not changed); ``DamagedFileError``
        when it does not parse."""
        return self._store.load() or {}

    def parse(self) -> tuple[list[Paper], FileSignature | None, dict[str, Any]]:
        """The papers in list order, the version of the file they are, and its lists table.

        The parsed file is let go afterwards: the papers hold what is needed, and the parse
        would double the memory for as long as the library is open.
        """
        found, sig = self._store.load_signed()
        tables = found or {}
        papers = papers_in_order(tables)
        lists: dict[str, Any] = tables.get("lists", {})
        self._store.forget()
        return papers, sig, lists

    def writes(self) -> int:
        """How many times the file was written (``atomic.writes_of``; 0 for none)."""
        return self._store.writes()

    def forget(self) -> None:
        """Let go of the parsed file (the next read parses it again): at 100,000 papers its
        documents hold some 350 MB, which what is derived after an import can use instead."""
        self._store.forget()

    def documents(self) -> dict[str, dict[str, Any]]:
        """Every stored paper document, by paper id (the form sync sends between devices; read
        only: they are the parse's own)."""
        table = self.load().get("papers", {})
        return {doc["id"]: doc for doc in table.values() if isinstance(doc.get("id"), str)}

    def lists_taken_out(self) -> set[str]:
        """The names of the lists removals here took out that an undo can still put back
        (``removed_papers``): what this library took out itself, lately."""
        names: set[str] = set()
        for payload in self.load().get(REMOVED_TABLE, {}).values():
            lists = payload.get("lists") if isinstance(payload, dict) else None
            for doc in lists.values() if isinstance(lists, dict) else ():
                if isinstance(doc, dict) and isinstance(doc.get("name"), str):
                    names.add(doc["name"])
        return names

    def renamed_ids(self) -> dict[str, str]:
        """Old id → new id of the papers schema 1 had (``triage.json``'s migration follows)."""
        try:
            return renamed_ids(self.load())
        except (OSError, ValueError):  # a damaged papers.json is said when the papers are read
            return {}

    def changed_since(self, version: FileSignature | None) -> bool:
        """True when the file is not ``version`` (nor a version already found damaged)."""
        return self._store.changed_since(version)

    def changed_on_disk(self) -> bool:
        """True when the file is not the version this process last read or wrote."""
        return self._store.changed_on_disk()

    def read_before_change(self) -> None:
        """Parse the file now, outside any lock (an import reads it while it cleans records;
        the change then parses it again only if another process wrote it meanwhile)."""
        self._store.load()

    # -- changing -----------------------------------------------------------------------
    @contextmanager
    def change(self) -> Iterator[PapersChange]:
        """One change of the file: locked, read again first, written once at the end (not at
        all if nothing changed, nor if the block raises)."""
        with self._store.transaction():
            change = PapersChange(self._store)
            yield change
            change.finish()

    @contextmanager
    def dry_change(self) -> Iterator[PapersChange]:
        """A change made on a copy of the tables in memory: nothing is written (a dry run)."""
        change = PapersChange(ScratchTables(self.load()))
        yield change
        change.finish()


class PapersChange:
    """The tables of ``papers.json`` inside one transaction, changed through paper-level calls.

    ``stored`` is the papers table as the transaction found it (by document key); changes go
    to a copy made when first needed, so readers of the last parse never see half a change.
    """

    def __init__(self, store: ChangingTables) -> None:
        self._store = store
        tables = store.read() or {}
        #: The version of the file the change started from (stamp and content), if known.
        self.before = store.known_content()
        #: The papers table as found (document key → document): read-only.
        self.stored: Mapping[str, Mapping[str, Any]] = tables.get("papers", {})
        #: Once the change is finished: the ids of the papers it added or changed (for what
        #: is derived from the papers: ``storage.cache.refresh``).
        self.changed: set[str] = set()
        self._papers: dict[str, Any] | None = None
        self._lists: dict[str, Any] | None = None
        self._lists_found: Mapping[str, Any] = tables.get("lists", {})

    @property
    def papers(self) -> dict[str, Any]:
        if self._papers is None:
            self._papers = self._store.writable_table("papers")
        return self._papers

    @property
    def lists(self) -> dict[str, Any]:
        if self._lists is None:
            self._lists = self._store.writable_table("lists")
        return self._lists

    # -- the papers ---------------------------------------------------------------------
    def known(self, paper_id: str) -> Mapping[str, Any] | None:
        """The stored document of a paper, if the file had it."""
        return self.stored.get(str(doc_id(paper_id)))

    def paper(self, paper_id: str) -> Paper | None:
        """The stored paper of this id, if the file had it."""
        doc = self.known(paper_id)
        return None if doc is None else paper_from_doc(doc)

    def put(self, paper: Paper) -> None:
        """Store ``paper`` (new, or replacing the stored one of its id)."""
        self.papers[str(doc_id(paper.id))] = paper_to_doc(paper)

    def put_documents(self, docs: Mapping[str, Mapping[str, Any]]) -> None:
        """Store paper documents as sync received them (by paper id); their lists are made
        as needed, after the lists already here."""
        papers, lists = self.papers, self.lists
        names = {doc.get("name") for doc in lists.values()}
        key = int(self._next_list_key())  # once: each new list takes the next (linear work)
        for pid, doc in docs.items():
            papers[str(doc_id(pid))] = dict(doc)
            for name in (doc["list"], *doc.get("lists", ())):
                if name not in names:
                    lists[str(key)] = {"name": name, "sources": {}, "at": round(now())}
                    names.add(name)
                    key += 1

    def _next_list_key(self) -> str:
        return str(max((int(k) for k in self.lists), default=0) + 1)

    def file_bases(self, files: Sequence[tuple[str, str, int]]) -> dict[tuple[str, str], int]:
        """Where each imported file's papers start in each list, recording new lists and files.

        ``files`` holds ``(list name, file, papers of that list in it)``. A list remembers the
        position each of its files starts at: re-importing a file keeps its place, and a new
        file of a list already here goes after the papers already there. The lists table is
        written only when a list or a file is new: re-importing a list's own files that change
        no paper writes nothing (papers.json and what is derived from it stay as they are).
        """

        def found() -> Mapping[str, Any]:
            return self._lists if self._lists is not None else self._lists_found

        by_name = {doc["name"]: key for key, doc in found().items()}
        next_free: dict[str, int] = {}
        for doc in self.stored.values():
            next_free[doc["list"]] = max(next_free.get(doc["list"], 0), doc["position"] + 1)
        bases: dict[tuple[str, str], int] = {}
        for name, source, count in files:
            if name not in by_name:
                by_name[name] = self._next_list_key()
                self.lists[by_name[name]] = {"name": name, "sources": {}, "at": round(now())}
            key = by_name[name]
            current = found()[key]
            sources = current.get("sources")
            sources = dict(sources) if isinstance(sources, dict) else {}
            if source not in sources:
                sources[source] = next_free.get(name, 0)
                next_free[name] = sources[source] + count
                self.lists[key] = {**current, "sources": sources, "at": round(now())}
            bases[(name, source)] = sources[source]
        return bases

    def list_files(self) -> dict[str, set[str]]:
        """Each list's name, and the files it was imported from (as the change found them)."""
        return {
            doc["name"]: set(doc.get("sources") or ())
            for doc in self._lists_found.values()
            if "name" in doc
        }

    def list_names(self) -> list[str]:
        """The lists' names, in import order."""
        return [info.name for info in lists_from(self._lists or self._lists_found)]

    # -- removals -----------------------------------------------------------------------
    def take_out(
        self,
        token: str,
        ids: Sequence[str],
        list_name: str | None,
        referenced: set[str],
    ) -> Removal:
        """Take out the papers ``ids`` (and, with ``list_name``, that list), kept under
        ``token`` for an undo; removals whose tokens are not ``referenced`` by an undo step
        any more are forgotten first."""
        removed = self._store.writable_table(REMOVED_TABLE)
        forget_unreferenced(removed, referenced)
        return take_out(self.papers, self.lists, removed, token, ids, list_name)

    def put_back(self, token: str) -> Removal:
        """Put back what the removal ``token`` took out."""
        return put_back(self.papers, self.lists, self._store.writable_table(REMOVED_TABLE), token)

    def finish(self) -> None:
        """Bring the lists' sizes in line with the papers (called when the change ends), and
        tell which papers changed: documents are replaced, never edited in place, so a
        document that is not the one found is new or changed."""
        if self._papers is not None:
            list_sizes(self._papers, self.lists)
            stored = self.stored
            self.changed = {
                doc["id"] for key, doc in self._papers.items() if stored.get(key) is not doc
            }
