"""papers.cache: a faster start, and never a stale or damaged view of papers.json."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import time
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage import Library, Paper, Status
from storage.cache import loaded_papers, papers_cache
from storage.cache.loaded_papers import LoadedPapers, PapersChangedError
from storage.cache.papers_cache import FORMAT, PAPERS_CACHE_FILE, PapersCache, write_papers_cache
from storage.errors import DamagedFileError, NewerFileError
from storage.files.atomic import file_content
from storage.files.papers_file import FIELDS as _PAPER_FIELDS
from storage.files.papers_file import SCHEMA as PAPERS_SCHEMA
from storage.files.papers_file import paper_row as _paper_row
from storage.files.papers_file import paper_to_doc
from storage.stats import LibraryStats


def opened(home: Path) -> tuple[Library, bool]:
    """A new Library on ``home`` with its papers read; whether it had to parse the JSON."""
    library = Library(home)
    library.papers()
    return library, not library.papers_file.changed_on_disk()  # it read papers.json


def test_the_next_open_reads_the_cache_and_sees_the_same(seeded_home: Path) -> None:
    (seeded_home / PAPERS_CACHE_FILE).unlink()  # made by the import
    first, parsed = opened(seeded_home)
    assert parsed and (seeded_home / PAPERS_CACHE_FILE).exists()
    second, parsed = opened(seeded_home)
    assert not parsed
    assert second.papers() == first.papers()
    assert second.lists() == first.lists()
    papers, version = second.versioned_papers()
    assert papers == first.papers() and not second.papers_changed_since(version)


def test_an_import_elsewhere_is_seen_not_the_old_cache(seeded_home: Path, tmp_path: Path) -> None:
    reader, _ = opened(seeded_home)
    _, version = reader.versioned_papers()
    extra = tmp_path / "more.txt"
    extra.write_text(
        "More papers\n\nWe study a new problem in depth and propose a method that solves it "
        "well; experiments on many benchmarks show large gains over strong baselines.\n",
        encoding="utf-8",
    )
    cached = (seeded_home / PAPERS_CACHE_FILE).read_bytes()
    Library(seeded_home).import_file(extra)
    assert (seeded_home / PAPERS_CACHE_FILE).read_bytes() != cached  # the import made a new one
    (seeded_home / PAPERS_CACHE_FILE).write_bytes(cached)  # as if made by an older version
    after, parsed = opened(seeded_home)
    assert parsed and len(after.papers()) == 39
    assert [info.name for info in after.lists()][-1] == "More papers"
    assert reader.papers_changed_since(version)
    assert len(reader.papers()) == 39
    assert not opened(seeded_home)[1]  # and the cache was made again


@pytest.mark.parametrize(
    "damage",
    [b"", b"papers-tui papers.cache\n", b"papers-tui papers.cache\n\0\0\0\0garbage", b"\x80" * 64],
)
def test_a_damaged_cache_is_ignored_and_made_again(seeded_home: Path, damage: bytes) -> None:
    expected = opened(seeded_home)[0].papers()
    (seeded_home / PAPERS_CACHE_FILE).write_bytes(damage)
    library, parsed = opened(seeded_home)
    assert parsed and library.papers() == expected
    assert not opened(seeded_home)[1]


def test_a_torn_cache_is_ignored(seeded_home: Path) -> None:
    expected = opened(seeded_home)[0].papers()
    path = seeded_home / PAPERS_CACHE_FILE
    path.write_bytes(path.read_bytes()[:-100])
    library, parsed = opened(seeded_home)
    assert parsed and library.papers() == expected


def test_a_damaged_papers_file_is_reported_despite_a_cache(seeded_home: Path) -> None:
    opened(seeded_home)
    (seeded_home / "papers.json").write_bytes(b'{"papers": {"1": ')
    with pytest.raises(DamagedFileError):
        Library(seeded_home).papers()


def test_no_cache_where_it_cannot_be_written(seeded_home: Path) -> None:
    (seeded_home / PAPERS_CACHE_FILE).unlink()
    (seeded_home / PAPERS_CACHE_FILE).mkdir()  # a folder in its place: writing it fails
    library, parsed = opened(seeded_home)
    assert parsed and len(library.papers()) == 38
    assert not list(seeded_home.glob(f".{PAPERS_CACHE_FILE}*"))  # no temporary file left


def test_a_cache_by_a_newer_reader_does_not_open_a_newer_file(seeded_home: Path) -> None:
    """A newer papers-tui's papers.json (and its cache) is refused, not read."""
    library, _ = opened(seeded_home)
    rows = [_paper_row(p) for p in library.papers()]
    papers_path = seeded_home / "papers.json"
    tables = json.loads(papers_path.read_text(encoding="utf-8"))
    tables["meta"]["1"]["schema"] = PAPERS_SCHEMA + 1
    papers_path.write_text(json.dumps(tables), encoding="utf-8")
    found = file_content(papers_path)
    assert found is not None
    write_papers_cache(
        seeded_home / PAPERS_CACHE_FILE,
        found[1],
        PAPERS_SCHEMA + 1,
        _PAPER_FIELDS,
        PapersCache(rows, tables["lists"]),
    )
    with pytest.raises(NewerFileError):
        Library(seeded_home).papers()


def test_temporaries_of_killed_writers_are_swept(seeded_home: Path) -> None:
    old = seeded_home / f".{PAPERS_CACHE_FILE}.dead.tmp"
    fresh = seeded_home / f".{PAPERS_CACHE_FILE}.busy.tmp"
    for leftover in (old, fresh):
        leftover.write_bytes(b"half a cache")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    (seeded_home / PAPERS_CACHE_FILE).unlink()
    opened(seeded_home)  # writes the cache
    assert not old.exists()
    assert fresh.exists()  # may be another process writing right now


# -- reading in parts ---------------------------------------------------------------------------


@pytest.fixture
def chunked_home(seeded_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sample library with a cache of 4 papers a chunk (38 papers: 10 chunks)."""
    monkeypatch.setattr(papers_cache, "CHUNK_ROWS", 4)
    (seeded_home / PAPERS_CACHE_FILE).unlink()
    Library(seeded_home).papers()  # parses, and writes the cache in chunks of 4
    return seeded_home


def test_paper_fields_are_the_papers_fields_in_order() -> None:
    """A cached row is ``Paper(*row)``: the stored field list is the dataclass's."""
    assert tuple(f.name for f in dataclasses.fields(Paper)) == _PAPER_FIELDS


_TEXTS = st.text(st.characters(codec="utf-8"), max_size=12)
_PAPERS = st.builds(
    Paper,
    id=_TEXTS, title=_TEXTS, abstract=_TEXTS, authors=st.tuples(_TEXTS, _TEXTS),
    github=st.tuples(_TEXTS), url=_TEXTS, keywords=st.tuples() | st.tuples(_TEXTS),
    venue_status=_TEXTS, list=_TEXTS, position=st.integers(0, 10**9),
    title_derived=st.booleans(), name=_TEXTS, lists=st.tuples(_TEXTS), venue=_TEXTS,
    extra=st.tuples(st.tuples(_TEXTS, _TEXTS | st.integers() | st.floats(allow_nan=False))),
)  # fmt: skip


@settings(deadline=None)
@given(_PAPERS)
def test_a_paper_is_stored_as_its_fields_in_order(paper: Paper) -> None:
    """``paper_to_doc`` writes the fields out one by one: the document is still every field
    of ``FIELDS`` in order, each tuple a list (a field left out or reordered would change
    papers.json and every paper's bytes in it)."""
    general = {
        name: list(value) if isinstance(value, tuple) else value
        for name in _PAPER_FIELDS
        for value in (getattr(paper, name),)
    }
    doc = paper_to_doc(paper)
    assert list(doc) == list(general) and doc == general
    assert all(type(doc[name]) is type(general[name]) for name in general)
    assert json.dumps(doc) == json.dumps(general)


def test_a_cache_is_read_only_as_far_as_asked(chunked_home: Path) -> None:
    expected = Library(chunked_home).papers()
    library = Library(chunked_home)
    loaded = library.loaded_papers()
    assert loaded.from_cache and len(loaded) == 38
    assert next(loaded.chunks()) == expected[:4]
    assert loaded.ids() == [p.id for p in expected]
    assert library.resolve_id(expected[21].id[:8]) == expected[21].id
    assert library.paper(expected[21].id) == expected[21]
    assert loaded.papers_at([37, 0, 9]) == [expected[37], expected[0], expected[9]]
    assert loaded.column("list") == [p.list for p in expected]
    assert sorted(loaded._decoded) == [0, 2, 5, 9]  # the chunks of the papers read: no more
    assert loaded.from_cache and library.papers_file.changed_on_disk()  # JSON not parsed
    assert list(loaded.sequence()) == expected and loaded.sequence()[-1] == expected[-1]
    assert loaded.all() == expected and not loaded.from_cache


def test_the_decided_papers_are_read_alone(chunked_home: Path) -> None:
    library = Library(chunked_home)
    papers = library.papers()
    library.set_status(papers[30].id, Status.STARRED)
    library.set_status(papers[2].id, Status.STARRED)
    library.set_status(papers[3].id, Status.READ)
    statuses = library.statuses()
    fresh = Library(chunked_home).loaded_papers()
    found = [p for chunk in fresh.selected(statuses, frozenset({Status.STARRED})) for p in chunk]
    assert found == [papers[2], papers[30]]
    inbox = [p for c in fresh.selected(statuses, frozenset({Status.INBOX})) for p in c]
    assert inbox == [p for i, p in enumerate(papers) if i not in (2, 3, 30)]


def test_stats_from_the_cache_are_those_of_the_papers(chunked_home: Path) -> None:
    library = Library(chunked_home)
    papers = library.papers()
    library.set_status(papers[5].id, Status.SKIPPED)
    stats = Library(chunked_home).stats()
    triage = library.triage()
    days = library.days()
    expected = LibraryStats.compute(papers, triage.statuses, days, date.today())
    assert replace(stats, queue=None) == expected  # (the queue's figures: tests/unit/test_queue)
    assert stats.by_status[Status.SKIPPED] == 1 and stats.total == 38


def flip_byte(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_damaged_chunk_is_read_from_the_json_instead(chunked_home: Path) -> None:
    expected = Library(chunked_home).papers()
    flip_byte(chunked_home / PAPERS_CACHE_FILE, -5000)  # in a chunk near the end: the header holds
    library = Library(chunked_home)
    loaded = library.loaded_papers()
    assert loaded.from_cache  # the header is sound
    assert [p for chunk in loaded.chunks() for p in chunk] == expected
    assert not loaded.from_cache  # the rest came from papers.json
    assert library.papers() == expected
    assert not opened(chunked_home)[1]  # and the cache was made again


def test_a_damaged_chunk_after_an_import_elsewhere_is_an_error(chunked_home: Path) -> None:
    reader = Library(chunked_home)
    loaded = reader.loaded_papers()
    assert loaded.ids()
    flip_byte(chunked_home / PAPERS_CACHE_FILE, -5000)
    tables = json.loads((chunked_home / "papers.json").read_text(encoding="utf-8"))
    (chunked_home / "papers.json").write_text(json.dumps(tables), encoding="utf-8")
    with pytest.raises(PapersChangedError):
        loaded.all()


def test_a_cache_of_a_newer_format_is_not_used(seeded_home: Path) -> None:
    expected = Library(seeded_home).papers()
    path = seeded_home / PAPERS_CACHE_FILE
    now, newer = (b"papers.cache %d " % n for n in (FORMAT, FORMAT + 1))
    assert now in path.read_bytes()
    path.write_bytes(path.read_bytes().replace(now, newer, 1))
    library, parsed = opened(seeded_home)
    assert parsed and library.papers() == expected


def test_many_papers_by_row_read_each_chunk_once(chunked_home: Path) -> None:
    expected = Library(chunked_home).papers()
    rows = [*range(37, 0, -2), *range(0, 38, 2)]  # more rows than read one by one
    loaded = Library(chunked_home).loaded_papers()
    assert loaded.papers_at(rows) == [expected[row] for row in rows]
    assert loaded.from_cache and len(loaded._decoded) == 10  # each chunk read once
    flip_byte(chunked_home / PAPERS_CACHE_FILE, -5000)
    damaged = Library(chunked_home).loaded_papers()
    assert damaged.papers_at(rows) == [expected[row] for row in rows]
    assert not damaged.from_cache  # the damaged chunk sent it to papers.json


def test_rows_in_any_order_read_each_chunk_once_however_few_are_kept(
    chunked_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search's hits come in the order of their ranks, all over the list: each chunk is read
    once, not once a hit (94,321 hits of 100,000 papers: 67 s one by one, 2.2 s so)."""
    expected = Library(chunked_home).papers()
    monkeypatch.setattr(loaded_papers, "_CHUNKS_KEPT", 2)
    read: list[int] = []
    decoded = LoadedPapers._decoded_chunk

    def counted(self: LoadedPapers, reader: object, chunk: int) -> list[list[object]]:
        read.append(chunk)
        return decoded(self, reader, chunk)  # type: ignore[arg-type]

    monkeypatch.setattr(LoadedPapers, "_decoded_chunk", counted)
    rows = random.Random(5).sample(range(38), 38) * 2
    loaded = Library(chunked_home).loaded_papers()
    assert loaded.papers_at(rows) == [expected[row] for row in rows]
    assert sorted(read) == list(range(10))
    assert loaded.sequence().items(rows[:5]) == [expected[row] for row in rows[:5]]
    with pytest.raises(IndexError):
        loaded.papers_at([0, 38])


# -- written after a change ---------------------------------------------------------------------


def parsed_papers(home: Path) -> list[Paper]:
    """The papers as a parse of papers.json reads them (no cache)."""
    (home / PAPERS_CACHE_FILE).unlink()
    return Library(home).papers()


def reused_chunks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Records how many chunks each cache written after a change copied from the old one."""
    found: list[int] = []
    write = papers_cache.write_papers_cache

    def spy(*args: object, **kwargs: object) -> None:
        content = args[4]
        assert isinstance(content, PapersCache)
        found.append(content.reused)
        write(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(loaded_papers, "write_papers_cache", spy)
    return found


def test_an_import_copies_the_chunks_it_left_alone(
    chunked_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reused = reused_chunks(monkeypatch)
    extra = tmp_path / "more.txt"
    extra.write_text(
        "More\n\nWe study quokka optimisation in depth and propose a method that solves it "
        "well; experiments on many benchmarks show large gains over strong baselines.\n",
        encoding="utf-8",
    )
    library = Library(chunked_home)
    library.import_file(extra)
    assert reused == [9]  # 38 papers: 9 whole chunks of 4 kept, the last one made again
    cached = Library(chunked_home)
    assert cached.loaded_papers().from_cache
    assert cached.papers() == parsed_papers(chunked_home)


def more_papers(tmp_path: Path) -> Path:
    extra = tmp_path / "more.txt"
    extra.write_text(
        "More\n\nWe study quokka optimisation in depth and propose a method that solves it "
        "well; experiments on many benchmarks show large gains over strong baselines.\n",
        encoding="utf-8",
    )
    return extra


def test_chunks_copied_by_hand_where_the_kernel_cannot_copy_read_the_same(
    chunked_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chunks left alone are copied in the kernel (``os.copy_file_range``); a file system
    or kernel that refuses it gets them copied a piece at a time, the same bytes."""
    refused: list[int] = []

    def refuse(*args: object) -> int:
        refused.append(1)
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "copy_file_range", refuse, raising=False)
    reused = reused_chunks(monkeypatch)
    Library(chunked_home).import_file(more_papers(tmp_path))
    assert reused == [9] and refused == [1]
    cached = Library(chunked_home)
    assert cached.loaded_papers().from_cache
    assert cached.papers() == parsed_papers(chunked_home)


def test_a_damaged_chunk_of_the_older_cache_never_shows_after_an_import(
    chunked_home: Path, tmp_path: Path
) -> None:
    """Chunks are copied as they are, each with its checksum, unchecked on the way: a chunk
    damaged in the older cache is still found damaged when read (here the import read it
    first and made the cache again), and the papers are papers.json's."""
    path = chunked_home / PAPERS_CACHE_FILE
    found = file_content(chunked_home / "papers.json")
    assert found is not None
    reader = papers_cache.PapersCacheReader.open(path, found[1], PAPERS_SCHEMA, _PAPER_FIELDS)
    assert reader is not None
    body, _, blocks = reader.span(3)
    reader.close()
    offset, length, _ = blocks[2 * len(_PAPER_FIELDS) + _PAPER_FIELDS.index("abstract")]
    flip_byte(path, body + offset + length // 2)  # chunk 2's abstracts
    Library(chunked_home).import_file(more_papers(tmp_path))
    loaded = Library(chunked_home).loaded_papers()
    expected = parsed_papers(chunked_home)
    assert [p for chunk in loaded.chunks() for p in chunk] == expected


def test_a_change_in_the_middle_makes_the_chunks_from_there(
    chunked_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reused = reused_chunks(monkeypatch)
    library = Library(chunked_home)
    papers = library.papers()
    library.remove([papers[13].id])  # chunk 3
    library.undo()  # back in its place
    assert reused == [3, 3]
    for expected in (papers,):
        cached = Library(chunked_home)
        assert cached.loaded_papers().from_cache and cached.papers() == expected
    assert Library(chunked_home).papers() == parsed_papers(chunked_home)


def test_a_changed_paper_is_never_copied(
    chunked_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Re-importing a paper with a new title rewrites the chunk that holds it."""
    reused = reused_chunks(monkeypatch)
    papers = Library(chunked_home).papers()
    first = papers[0]
    again = tmp_path / "again.jsonl"
    record = {"title": "A New Title For An Old Paper", "abstract": first.abstract}
    again.write_text(json.dumps(record) + "\n", encoding="utf-8")
    Library(chunked_home).import_file(again, list_name=first.list)
    assert reused == [0]
    cached = Library(chunked_home)
    assert cached.paper(first.id).title == "A New Title For An Old Paper"
    assert cached.papers() == parsed_papers(chunked_home)


def test_a_first_large_import_caches_its_documents_without_a_parse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sample_files: list[Path]
) -> None:
    """A first import of ``LARGE`` papers or more (nothing to copy chunks from) writes the
    cache from the documents it just wrote: no paper is made from a parse of them (0.6 s of
    CPU at 100,000 papers), and the cache reads as the one a parse writes."""
    import storage.library
    from storage.files.papers_file import PapersFile

    monkeypatch.setattr(storage.library, "LARGE", 10)  # the 38 sample papers are large
    parses: list[Path] = []
    parse = PapersFile.parse

    def counted(self: PapersFile) -> tuple[list[Paper], object, dict[str, object]]:
        parses.append(self.path)
        return parse(self)

    monkeypatch.setattr(PapersFile, "parse", counted)
    home = tmp_path / "home"
    Library(home).import_files(sample_files)
    assert parses == []
    library = Library(home)
    loaded = library.loaded_papers()
    assert loaded.from_cache and len(loaded) == 38
    cached, lists = library.papers(), loaded.lists
    expected = parsed_papers(home)  # the cache deleted, papers.json parsed, the cache made
    assert parses and cached == expected  # (marshal's bytes differ by what is shared)
    assert lists == Library(home).loaded_papers().lists


def test_a_small_first_import_still_parses(tmp_path: Path, sample_files: list[Path]) -> None:
    """Under ``LARGE`` papers the import keeps the papers of its parse for what it derives."""
    library = Library(tmp_path / "home")
    library.import_files(sample_files)
    assert not library.loaded_papers().from_cache
