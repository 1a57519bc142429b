"""Step 1 of an import: every record read, cleaned into a candidate paper, outside any lock."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple

from storage.errors import SourceError
from storage.importing import Progress
from storage.importing.identity import id_of_placeholder, id_of_title, is_placeholder_title
from storage.models import Decision, ImportReport, Paper

if TYPE_CHECKING:  # the readers load when a list is read: opening a library needs none
    from storage.sources.papers import Catalog
    from storage.sources.records import ReadResult, RecordStream, SourceRecord


@dataclass(frozen=True, slots=True)
class Candidate:
    """A record of the import, cleaned into a paper, before it is matched with the library.

    The paper has the id its text gives it (``id_of_abstract``, or ``id_of_title`` for a paper
    known by its title and first author): the one it keeps unless matching says otherwise.
    """

    paper: Paper
    #: The file it came from (a list remembers where each of its files starts).
    source: str
    #: Whether its abstract has an identity (``abstract_identity``); else it is known by its
    #: title. The identity itself is made again in the rare case it is needed (a paper that
    #: shares its abstract with another): 100,000 of them would hold 100 MB.
    by_abstract: bool
    decision: Decision | None
    #: Where the record is in its file (``SourceRecord.number``), for the report.
    number: int = 0


def _real_title(title: str, derived: bool) -> str:
    """The title a paper is matched by: none when derived, or a placeholder ("withdrawn")."""
    return "" if derived or is_placeholder_title(title) else title


class _Placed(NamedTuple):
    """A record of the import and its place: its lists, its position, the file it came from."""

    record: SourceRecord
    lists: tuple[str, ...]
    position: int
    source: str


def candidate(
    record: SourceRecord,
    list_name: str,
    lists: tuple[str, ...],
    position: int,
    source: str,
    abstract_id: str | None,
) -> Candidate:
    """A record cleaned into a paper (its id still to be matched with the library's);
    ``abstract_id`` is that of its abstract (``storage.importing.abstract_ids``), None for none."""
    from storage.sources.papers import build_paper  # the title deriver loads when used

    if abstract_id is not None:
        paper = build_paper(record, list_name, position, abstract_id, lists)
    else:
        paper = build_paper(record, list_name, position, "0" * 12, lists)
        title = _real_title(paper.title, paper.title_derived)
        if title:
            paper = replace(paper, id=id_of_title(title, paper.authors))
        else:  # a placeholder ("withdrawn"): known by its link and authors
            paper = replace(paper, id=id_of_placeholder(paper.title, paper.url, paper.authors))
    return Candidate(paper, source, abstract_id is not None, record.decision, record.number)


#: Streams of this many bytes in all (some 10,000 papers) are worth a second process for the
#: ids of their abstracts (``storage.importing.abstract_ids``), which takes a fraction of a
#: second to start.
SECOND_PROCESS_BYTES = 16 * 1024**2
#: As many records read whole (a fetched venue, a BibTeX or CSV file) are worth it too: the
#: ids of 11,672 fetched notes took 0.53 s of a fetch's 2.3 s in this process alone.
SECOND_PROCESS_RECORDS = 8_000


def gather(
    sources: Sequence[ReadResult | RecordStream],
    catalog: Catalog | None,
    list_name: str | None,
    report: ImportReport,
    progress: Progress | None = None,
) -> list[Candidate]:
    """Every record of ``sources`` cleaned into a candidate, in order (step 1); the records
    that could not be used go to ``report.errors``, the lists met to ``report.lists``.

    A record takes the lists it names (our exports), else ``list_name``, else its file's list;
    its position counts within its file and first list. ``SourceError`` when no record is
    usable.
    """
    from storage.importing.abstract_ids import BATCH, with_ids
    from storage.sources.records import RecordStream

    streamed = sum(s.size for s in sources if isinstance(s, RecordStream))
    held = sum(len(s.records) for s in sources if not isinstance(s, RecordStream))
    placed = _placed(sources, catalog, list_name, report, progress)
    batches = iter(lambda: list(islice(placed, BATCH)), [])
    candidates: list[Candidate] = []
    found = with_ids(
        batches,
        lambda batch: [p.record.abstract for p in batch],
        second_process=streamed >= SECOND_PROCESS_BYTES or held >= SECOND_PROCESS_RECORDS,
    )
    for batch, ids in found:
        for (record, lists, position, source), pid in zip(batch, ids, strict=True):
            candidates.append(candidate(record, lists[0], lists, position, source, pid))
    if not candidates:
        first = f": {report.errors[0]}" if report.errors else ""
        where = f"{sources[0].source}: " if len(sources) == 1 and not report.errors else ""
        raise SourceError(f"{where}no papers found to import{first}")
    return candidates


def _placed(
    sources: Sequence[ReadResult | RecordStream],
    catalog: Catalog | None,
    list_name: str | None,
    report: ImportReport,
    progress: Progress | None,
) -> Iterator[_Placed]:
    """The records of ``sources`` (enriched from the catalog) in their places (see ``gather``)."""
    from storage.sources.papers import enrich

    total = sum(source.expected() for source in sources) if progress is not None else 0
    done = 0
    kept: dict[tuple[str, ...], tuple[str, ...]] = {}  # the lists as named, as kept (caps)
    for result in sources:
        before = done
        positions: dict[str, int] = {}  # within the file, by list; the file's place is added
        short: list[int] = []  # the records whose abstract was too short to keep
        for record in result.records:
            if record.short_abstract:
                short.append(record.number)
            if progress is not None and done % 200 == 199:
                progress(done + 1, total)
            done += 1
            entry = catalog.find(record) if catalog else None
            record = record if entry is None else enrich(record, entry)
            lists = record.lists if record.lists and not list_name else ()
            lists = lists or (list_name or result.list_name,)
            if lists not in kept:
                kept[lists] = _lists_kept(lists, report)
            lists = kept[lists]
            position = positions.get(lists[0], 0)
            positions[lists[0]] = position + 1
            yield _Placed(record, lists, position, result.source)
        report.errors.extend(result.errors)  # a stream's, once it is read
        report.unlisted += result.unlisted
        report.warnings.extend(result.warnings)
        if short:
            report.warnings.append(_short_abstracts(result.source, short))
        report.containers += result.containers
        report.read += done - before + len(result.errors) + result.unlisted + result.containers
    if progress is not None:
        progress(done, done)  # every record read (a file's lines, counted ahead, may be more)


def _lists_kept(lists: tuple[str, ...], report: ImportReport) -> tuple[str, ...]:
    """``lists`` as the library keeps them (``caps.list_named``), each new one in the report,
    and a name cut said once."""
    from storage.caps import MAX_LIST_NAME_CHARS, list_named
    from storage.text.words import NAME_CHARACTERS, shortened

    kept = [list_named(name) for name in lists]
    for name, named in zip(lists, kept, strict=True):
        if named not in report.lists:
            report.lists.append(named)
            if named != name:
                report.warnings.append(
                    f"a list's name of {len(name):,} characters is kept as its first "
                    f"{MAX_LIST_NAME_CHARS - 1:,} and …: {shortened(name, NAME_CHARACTERS)}"
                )
    return tuple(dict.fromkeys(kept))


def _short_abstracts(source: str, numbers: list[int]) -> str:
    """The report's line for the records of ``source`` whose abstract was too short to keep."""
    from storage.text.words import count

    known = [n for n in numbers if n > 0]
    shown = ", ".join(f"{n:,}" for n in known[:5]) + (", …" if len(known) > 5 else "")
    where = f" (record{'s' if len(known) > 1 else ''} {shown})" if known else ""
    return (
        f"{source}: {count(len(numbers), 'abstract')} of fewer than 20 letters or digits left"
        f" out as too short to be abstracts{where}: the papers are kept, known by their titles"
    )
