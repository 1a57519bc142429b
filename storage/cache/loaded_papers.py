"""``LoadedPapers``: the papers of one version of ``papers.json``, read only as far as asked.

Opened from a valid ``papers.cache`` it reads nothing but the cache's header until asked:
the ids (for ``papers mark``), a few papers by row (a search's hits), the papers chunk by chunk
in list order (``papers list | head``), one field of every paper (``papers stats``), or all of
them (the app). Opened from a parse of the JSON it holds every paper already.

A cache block found damaged mid-way is never believed: the papers are read again from the
JSON, which is the same version (else the reader raises ``PapersChangedError``), and the answer
goes on from there.
"""

from __future__ import annotations

import operator
import threading
import zlib
from collections import OrderedDict
from collections.abc import (
    Callable,
    Collection,
    Iterable,
    Iterator,
    Mapping,
    MutableSequence,
    Sequence,
)
from pathlib import Path
from typing import Any, TypeVar, cast, overload

from storage.cache.content_key import papers_version, record
from storage.cache.papers_cache import (
    PAPERS_CACHE_FILE,
    DamagedCacheError,
    PapersCache,
    PapersCacheReader,
    write_papers_cache,
)
from storage.errors import LibraryError
from storage.files.atomic import FileContent, FileSignature
from storage.files.papers_file import (
    FIELDS,
    SCHEMA,
    PapersFile,
    documents_in_order,
    paper_row,
    row_of_doc,
)
from storage.models import Paper, Status

#: Reads ``papers.json`` again: its papers in list order, and the version they are.
Reparse = Callable[[], tuple[list[Paper], FileSignature | None]]
_Arg = TypeVar("_Arg")
_Found = TypeVar("_Found")
#: Chunks of papers kept decoded for random access (a search's hits, phrase checks).
_CHUNKS_KEPT = 32


def open_papers(papers_file: PapersFile, home: Path) -> LoadedPapers:
    """The papers of the current ``papers.json``: from ``papers.cache`` (read as far as asked)
    when it was made from this very content, else parsed, and cached for the next start."""
    path = home / PAPERS_CACHE_FILE

    def parse() -> tuple[list[Paper], FileSignature | None, FileContent | None, dict[str, Any]]:
        papers, sig, lists = papers_file.parse()
        known = papers_file.known_content()  # hashed as it was parsed
        content = known[1] if known is not None and known[0].signature == sig else None
        if known is not None and content is not None:
            record(home, known)
            rows = PapersCache([paper_row(p) for p in papers], lists)
            write_papers_cache(path, content, SCHEMA, FIELDS, rows)
        return papers, sig, content, lists

    def reparse() -> tuple[list[Paper], FileSignature | None]:
        papers, sig, _, _ = parse()
        return papers, sig

    found = papers_version(papers_file, home)
    if found is not None:
        (at, content), recorded = found
        reader = PapersCacheReader.open(path, content, SCHEMA, FIELDS)
        if reader is not None:  # a cache is written only from a file that parsed
            if not recorded:
                record(home, (at, content))
            return LoadedPapers(at.signature, content, reader.lists, reparse, reader=reader)
    papers, sig, parsed, lists = parse()
    return LoadedPapers(sig, parsed, lists, reparse, papers=papers)


def cache_after_change(
    papers_file: PapersFile,
    home: Path,
    before: FileContent | None,
    changed: Collection[str],
    *,
    whole_from: int | None = None,
) -> bool:
    """Write ``papers.cache`` of ``papers.json`` as this process just changed it, from the
    version of content ``before``, changing the papers ``changed``: the chunks that hold the
    same papers as the cache of ``before`` are copied from it as they are (an import of 1,000
    papers into 100,000 makes a handful of chunks, not 391), the rest made from the documents.
    Without a cache of ``before`` (a first import), a file of ``whole_from`` papers or more
    has its cache made whole from the documents (``_cache_whole``). False (nothing written)
    when there is no cache of ``before`` (nor one made whole) or the file is not the one
    written; True, nothing written, when the change wrote nothing (the cache is already the
    file's)."""
    known = papers_file.known_content()
    if known is None or papers_file.signature() != known[0].signature:
        return False
    path = home / PAPERS_CACHE_FILE
    old = None if before is None else PapersCacheReader.open(path, before, SCHEMA, FIELDS)
    if old is None:
        return whole_from is not None and _cache_whole(papers_file, path, known[1], whole_from)
    if known[1] == before:  # the change wrote nothing (an import that changed no paper)
        old.close()
        return True
    try:
        tables = papers_file.load()  # the tables just written: not read again
        docs = documents_in_order(tables)
        size, reused = old.chunk_rows, 0
        for chunk in range(min(old.count, len(docs)) // size):
            start = chunk * size
            ids = old.column("id", chunk)
            if any(
                pid in changed or doc["id"] != pid
                for doc, pid in zip(docs[start : start + size], ids, strict=True)
            ):
                break
            reused += 1
        rows = [row_of_doc(doc) for doc in docs[reused * size :]]
        lists = tables.get("lists", {})
        write_papers_cache(path, known[1], SCHEMA, FIELDS, PapersCache(rows, lists, old, reused))
        return True
    except (DamagedCacheError, LibraryError, KeyError, TypeError, ValueError):
        return False  # read from the JSON by the next reader instead
    finally:
        old.close()


def _cache_whole(papers_file: PapersFile, path: Path, content: FileContent, least: int) -> bool:
    """Write ``papers.cache`` of ``papers.json`` of ``content`` from the documents just written,
    when they are ``least`` papers or more; False (nothing written) otherwise.

    What ``open_papers`` writes after parsing the file, without the parse's papers: the row
    of a document is that of the paper made of it (``row_of_doc``). The first import of
    100,000 papers made them all (0.6 s of CPU) only to write their rows, and let them go to
    read them back from the cache (the library's ``_derive``); the papers are read from the
    cache as they are asked for instead.
    """
    try:
        tables = papers_file.load()  # the tables just written: not read again
        if len(tables.get("papers", {})) < least:
            return False
        rows = [row_of_doc(doc) for doc in documents_in_order(tables)]
        lists = tables.get("lists", {})
        write_papers_cache(path, content, SCHEMA, FIELDS, PapersCache(rows, lists))
        return True
    except (LibraryError, KeyError, TypeError, ValueError):
        return False  # read from the JSON by the next reader instead


class PapersChangedError(LibraryError):
    """``papers.json`` changed while a command was reading it through a damaged cache."""


class LoadedPapers:
    """The papers of one version of ``papers.json``, from a cache or from a parse."""

    def __init__(
        self,
        sig: FileSignature | None,
        content: FileContent | None,
        lists: dict[str, Any],
        reparse: Reparse,
        *,
        papers: list[Paper] | None = None,
        reader: PapersCacheReader | None = None,
    ) -> None:
        if (papers is None) == (reader is None):
            raise ValueError("give the papers or a cache reader, one of them")
        #: The version of ``papers.json`` these papers are (to tell whether it changed since).
        self.sig = sig
        #: What that version holds (what derived files are named by; None: not known).
        self.content = content
        #: The lists table of ``papers.json``.
        self.lists = lists
        self._reparse = reparse
        self._papers = papers
        self._reader = reader
        self._lock = threading.RLock()
        self._ids: list[str] | None = None
        self._rows: dict[str, int] | None = None
        #: Chunks read field by field, for papers by row (each made when asked for): the
        #: columns of each read so far (a phrase check reads a few of them).
        self._decoded: OrderedDict[int, dict[str, list[Any]]] = OrderedDict()

    @property
    def from_cache(self) -> bool:
        """True while the papers are read from the cache (not all of them in memory)."""
        return self._papers is None

    def __len__(self) -> int:
        reader = self._reader
        if reader is not None:
            return reader.count
        return len(self._papers or ())

    # ----------------------------------------------------------------- ids

    def holds(self, papers: Sequence[Paper]) -> bool:
        """True when ``papers`` are this version's papers as ``all`` read them, the very objects
        (a reader checks so that what it derives from them is of this version)."""
        mine = self._papers
        return (
            mine is not None and len(mine) == len(papers) and all(map(operator.is_, mine, papers))
        )

    def ids(self) -> list[str]:
        """Every paper id, in list order."""
        with self._lock:
            if self._ids is None:
                self._ids = self.column("id")
            return self._ids

    def row_of(self, paper_id: str) -> int | None:
        """The place in the list of the paper with this id, if there is one."""
        with self._lock:
            if self._rows is None:
                ids = self.ids()
                self._rows = dict(zip(ids, range(len(ids)), strict=True))
            return self._rows.get(paper_id)

    # ----------------------------------------------------------------- papers

    def all(self) -> list[Paper]:
        """Every paper, in list order (read once, then kept)."""
        with self._lock:
            if self._papers is None:
                papers: list[Paper] = []
                for chunk in self.chunks():
                    papers.extend(chunk)
                if self._papers is None:  # not read again from the JSON meanwhile
                    self._papers = papers
                self._close_reader()
            return self._papers

    def chunks(self) -> Iterator[list[Paper]]:
        """The papers in list order, a chunk at a time (a reader that stops early reads no more)."""
        done = 0
        while done < len(self):
            papers = self._papers
            if papers is not None:
                yield papers[done:]
                return
            reader = self._reader
            assert reader is not None
            chunk = done // reader.chunk_rows
            found = self._read(_chunk_papers, reader, chunk)
            if found is None:
                continue  # read again from the JSON: go on from ``done`` in the full list
            yield found
            done += len(found)

    def selected(
        self, statuses: Mapping[str, Status], wanted: frozenset[Status]
    ) -> Iterator[list[Paper]]:
        """The papers in one of the ``wanted`` states (absent from ``statuses``: the Inbox), in
        list order, a chunk at a time; without the Inbox, only the decided papers are read."""
        if Status.INBOX in wanted:
            for chunk in self.chunks():
                yield [p for p in chunk if statuses.get(p.id, Status.INBOX) in wanted]
            return
        rows = sorted(
            row
            for pid, status in statuses.items()
            if status in wanted and (row := self.row_of(pid)) is not None
        )
        for start in range(0, len(rows), _CHUNKS_KEPT * 64):
            yield self.papers_at(rows[start : start + _CHUNKS_KEPT * 64])

    def paper(self, paper_id: str) -> Paper:
        """The paper with this id; ``KeyError`` when there is none."""
        row = self.row_of(paper_id)
        if row is None:
            raise KeyError(paper_id)
        return self.at(row)

    def at(self, row: int) -> Paper:
        """The paper at place ``row`` of the list."""
        while True:
            papers = self._papers
            if papers is not None:
                return papers[row]
            reader = self._reader
            assert reader is not None
            if not 0 <= row < reader.count:
                raise IndexError(row)
            chunk, offset = divmod(row, reader.chunk_rows)
            columns = self._read(self._decoded_chunk, reader, chunk)
            if columns is not None:
                return Paper(*(column[offset] for column in columns))

    def papers_at(self, rows: Iterable[int]) -> list[Paper]:
        """The papers at these places of the list, in the order given: each chunk they are
        in is read once, in the order of the list, whatever the order of ``rows`` (the 94,321
        hits of a search of 100,000 papers, in the order of their ranks, took 67 s read one
        at a time, a chunk read again for most of them)."""
        wanted = list(rows)
        while True:
            papers = self._papers
            if papers is not None:
                return [papers[row] for row in wanted]
            reader = self._reader
            assert reader is not None
            places: dict[int, list[int]] = {}
            for place, row in enumerate(wanted):
                if not 0 <= row < reader.count:
                    raise IndexError(row)
                places.setdefault(row // reader.chunk_rows, []).append(place)
            found: list[Paper | None] = [None] * len(wanted)
            for chunk in sorted(places):
                columns = self._read(self._decoded_chunk, reader, chunk)
                if columns is None:
                    break  # a damaged block: every paper from the JSON, and again
                for place in places[chunk]:
                    offset = wanted[place] % reader.chunk_rows
                    found[place] = Paper(*(column[offset] for column in columns))
            else:
                return cast(list[Paper], found)

    def fields_at(self, rows: Sequence[int], fields: Sequence[str]) -> list[tuple[Any, ...]]:
        """Some fields of the papers at these places of the list, in the order given: as
        ``papers_at``, each chunk read once, and of each chunk only those fields' columns
        (a phrase check reads a paper's texts, not its links, ids and facts)."""
        while True:
            papers = self._papers
            if papers is not None:
                return [tuple(getattr(papers[row], f) for f in fields) for row in rows]
            reader = self._reader
            assert reader is not None
            places: dict[int, list[int]] = {}
            for place, row in enumerate(rows):
                if not 0 <= row < reader.count:
                    raise IndexError(row)
                places.setdefault(row // reader.chunk_rows, []).append(place)
            found: list[tuple[Any, ...]] = [()] * len(rows)
            for chunk in sorted(places):
                columns = self._read(self._chunk_columns, reader, (chunk, tuple(fields)))
                if columns is None:
                    break  # a damaged block: every paper from the JSON, and again
                for place in places[chunk]:
                    offset = rows[place] % reader.chunk_rows
                    found[place] = tuple(column[offset] for column in columns)
            else:
                return found

    def column(self, field: str) -> list[Any]:
        """One field of every paper, in list order (``stats`` reads ``list`` and
        ``venue_status`` of 100,000 papers without making them)."""
        while True:
            papers = self._papers
            if papers is not None:
                return [getattr(p, field) for p in papers]
            reader = self._reader
            assert reader is not None
            found = self._read(_whole_column, reader, field)
            if found is not None:
                return found

    def sequence(self) -> PaperSequence:
        """The papers as a sequence read as far as it is indexed (for a search index)."""
        return PaperSequence(self)

    def close(self) -> None:
        """Let go of the cache file (papers already read stay)."""
        with self._lock:
            self._close_reader()

    # ----------------------------------------------------------------- reading

    def _decoded_chunk(self, reader: PapersCacheReader, chunk: int) -> list[list[Any]]:
        return self._chunk_columns(reader, (chunk, reader.fields))

    def _chunk_columns(
        self, reader: PapersCacheReader, asked: tuple[int, tuple[str, ...]]
    ) -> list[list[Any]]:
        """The columns of these fields of a chunk, each read once while the chunk is kept."""
        chunk, fields = asked
        with self._lock:
            found = self._decoded.get(chunk)
            if found is not None:
                self._decoded.move_to_end(chunk)
            missing = [f for f in fields if found is None or f not in found]
        read = {field: reader.column(field, chunk) for field in missing}
        with self._lock:
            columns = self._decoded.setdefault(chunk, {})
            columns.update(read)
            self._decoded.move_to_end(chunk)
            if len(self._decoded) > _CHUNKS_KEPT:
                self._decoded.popitem(last=False)
            return [columns[field] for field in fields]

    def _read(
        self,
        read: Callable[[PapersCacheReader, _Arg], _Found],
        reader: PapersCacheReader,
        arg: _Arg,
    ) -> _Found | None:
        """``read(reader, arg)``; None when a damaged block made the papers come from the JSON
        instead (the caller then reads them from the full list)."""
        try:
            return read(reader, arg)
        except DamagedCacheError:
            with self._lock:
                if self._papers is None:
                    papers, sig = self._reparse()
                    if sig != self.sig:
                        raise PapersChangedError(
                            "papers.json changed while it was being read; run the command again"
                        ) from None
                    self._papers = papers
                self._close_reader()
            return None

    def _close_reader(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        self._decoded.clear()


def _chunk_papers(reader: PapersCacheReader, chunk: int) -> list[Paper]:
    return [Paper(*row) for row in reader.rows(chunk)]


def _whole_column(reader: PapersCacheReader, field: str) -> list[Any]:
    values: list[Any] = []
    for chunk in range(reader.chunks):
        values.extend(reader.column(field, chunk))
    return values


def ids_of(papers: Sequence[Paper]) -> list[str]:
    """The ids of ``papers``, in order (a ``PaperSequence``'s without making its papers)."""
    if isinstance(papers, PaperSequence):
        return list(papers.ids())
    return [paper.id for paper in papers]


def ids_checksum(ids: Sequence[str]) -> tuple[int, int]:
    """How many ids, and their checksum: what a file derived from papers keeps to know them
    again (the ids themselves are the papers')."""
    return len(ids), zlib.crc32("\n".join(ids).encode())


class PaperSequence(MutableSequence[Paper]):
    """``LoadedPapers`` as a sequence by place in the list, read on first access.

    A search index loaded from disk holds its papers so. Changing the sequence (an index that
    grows) first makes it a list of every paper: from then on it is that list.
    """

    def __init__(self, loaded: LoadedPapers) -> None:
        self._loaded = loaded
        self._changed: list[Paper] | None = None

    def __len__(self) -> int:
        return len(self._loaded) if self._changed is None else len(self._changed)

    @overload
    def __getitem__(self, index: int) -> Paper: ...

    @overload
    def __getitem__(self, index: slice) -> MutableSequence[Paper]: ...

    def __getitem__(self, index: int | slice) -> Paper | MutableSequence[Paper]:
        if self._changed is not None:
            return self._changed[index]
        if isinstance(index, slice):
            return self._loaded.papers_at(range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        return self._loaded.at(index)

    def items(self, indices: Sequence[int]) -> list[Paper]:
        """The papers at these places, in the order given, each chunk of the cache read once
        (``LoadedPapers.papers_at``)."""
        if self._changed is not None:
            return [self._changed[i] for i in indices]
        return self._loaded.papers_at(indices)

    def __iter__(self) -> Iterator[Paper]:
        if self._changed is not None:
            yield from self._changed
            return
        for chunk in self._loaded.chunks():
            yield from chunk

    def fields_at(self, indices: Sequence[int], fields: Sequence[str]) -> list[tuple[Any, ...]]:
        """Some fields of the papers at these places (``LoadedPapers.fields_at``)."""
        if self._changed is not None:
            papers = self._changed
            return [tuple(getattr(papers[i], f) for f in fields) for i in indices]
        return self._loaded.fields_at(indices, fields)

    def ids(self) -> Sequence[str]:
        """The papers' ids, in order, without making the papers."""
        if self._changed is not None:
            return [p.id for p in self._changed]
        return self._loaded.ids()

    def column(self, field: str) -> Sequence[Any]:
        """One field of every paper, in order, without making the papers (the search index's
        ``rating:`` and ``area:`` read ``extra`` so)."""
        if self._changed is not None:
            return [getattr(p, field) for p in self._changed]
        return self._loaded.column(field)

    def _as_list(self) -> list[Paper]:
        if self._changed is None:
            self._changed = list(self._loaded.all())
        return self._changed

    @overload
    def __setitem__(self, index: int, value: Paper) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: Iterable[Paper]) -> None: ...

    def __setitem__(self, index: int | slice, value: Paper | Iterable[Paper]) -> None:
        self._as_list()[index] = value  # type: ignore[index,assignment]

    def __delitem__(self, index: int | slice) -> None:
        del self._as_list()[index]

    def insert(self, index: int, value: Paper) -> None:
        self._as_list().insert(index, value)
