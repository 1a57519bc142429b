"""The plain domain objects of papers-tui: papers, triage states and import reports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import PurePath
from typing import TypeAlias

from storage.text.words import count, shortened

#: The value of an extra field: a number (a rating, a count) or a text (an area, a DOI).
ExtraValue: TypeAlias = str | int | float
#: A place in the reading queue: a number, or a path under another paper's place
#: (``storage.queue.order``): (number, paper id, number, …, number).
Place: TypeAlias = float | tuple[float | str, ...]


class Status(StrEnum):
    """The triage state of a paper: exactly one per paper."""

    INBOX = "inbox"
    READ = "read"
    SKIPPED = "skipped"
    STARRED = "starred"

    @classmethod
    def parse(cls, value: str | Status) -> Status:
        """Read a status from user input, accepting a few natural aliases ("skip", "star")."""
        if isinstance(value, Status):
            return value
        key = str(value).strip().casefold()
        found = _STATUS_ALIASES.get(key)
        if found is None:
            choices = ", ".join(s.value for s in cls)
            raise ValueError(f"unknown status {value!r} (choose from {choices})")
        return found


_STATUS_ALIASES: dict[str, Status] = {
    **{s.value: s for s in Status},
    "new": Status.INBOX,
    "skip": Status.SKIPPED,
    "star": Status.STARRED,
}


@dataclass(frozen=True, slots=True)
class Paper:
    """One paper of a list: what the source said, cleaned, with a stable id."""

    id: str
    title: str
    abstract: str
    authors: tuple[str, ...] = ()
    github: tuple[str, ...] = ()
    url: str = ""
    keywords: tuple[str, ...] = ()
    venue_status: str = ""
    list: str = ""
    position: int = 0
    #: True when the title was derived from the abstract (the source had none).
    title_derived: bool = False
    #: The method or benchmark name the paper introduces ("ParaSolver"), when one is found.
    name: str = ""
    #: Every list the paper appears in; ``list`` is the first of them.
    lists: tuple[str, ...] = ()
    #: The conference or journal and its year, as the source or the list name says it
    #: (``ICLR 2025``); "" when nothing says.
    venue: str = ""
    #: Further facts a list gave, as ``(name, value)`` pairs in the order of
    #: ``storage.sources.fields.EXTRA_FIELDS`` (``("rating", 6.5)``, ``("citations", 120)``).
    #: Pairs rather than a dict: a paper stays hashable and its fields plain data.
    extra: tuple[tuple[str, ExtraValue], ...] = ()

    @property
    def display_abstract(self) -> str:
        """The abstract with LaTeX turned into readable Unicode and whitespace normalised."""
        from storage.text.latex import to_unicode as display_text

        return display_text(self.abstract)

    @property
    def display_title(self) -> str:
        """The title with LaTeX turned into readable Unicode; no Markdown read into it: its
        ``__init__`` and ``*args`` are its characters (``to_unicode``'s ``markdown``)."""
        from storage.text.latex import to_unicode as display_text

        return display_text(self.title, markdown=False)

    def fact(self, name: str) -> ExtraValue | None:
        """The extra field ``name`` (``rating``, ``citations``, ``area``…), None when absent."""
        for key, value in self.extra:
            if key == name:
                return value
        return None


@dataclass(frozen=True, slots=True)
class RecordError:
    """A record of a source that could not be read, and why."""

    source: str
    record: int
    reason: str

    def __str__(self) -> str:
        return f"{self.source}: record {self.record}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Decision:
    """What a file says the user made of a paper (our own exports and libraries carry it)."""

    #: None when the file names no status: a note or tags alone (BibTeX's ``annote``, RIS's
    #: ``N1``) leave the paper's status as the library has it.
    status: Status | None = None
    note: str = ""
    tags: tuple[str, ...] = ()
    #: When the status was given (seconds since the epoch), when the file says.
    at: float | None = None
    #: Its place in the reading queue (``storage.queue``), when the file says: starred only.
    position: Place | None = None


@dataclass(frozen=True, slots=True)
class Merge:
    """A record an import found to be a paper met under another form (or kept apart), and why.

    ``paper_id`` is the paper the record joined (or, kept apart, the id it took); ``joined``
    the title of the paper it joined (or was kept apart from); ``source`` and ``record`` where
    the record is (its file, its number in it: 0 when not known).
    """

    paper_id: str
    title: str
    reason: str
    joined: str = ""
    source: str = ""
    record: int = 0

    def __str__(self) -> str:
        where = f"{self.source}: record {self.record}: " if self.source and self.record else ""
        shown = self.joined and self.joined != self.title
        joined = f" ({shortened(self.joined, 60)})" if shown else ""
        return f"{where}{self.title} → {self.paper_id}{joined}: {self.reason}"


@dataclass(frozen=True, slots=True)
class FailedFile:
    """A file of a folder that could not be read at all, and why (one line)."""

    path: str
    reason: str

    def __str__(self) -> str:
        return self.reason if self.reason.startswith(self.path) else f"{self.path}: {self.reason}"


@dataclass(slots=True)
class ImportReport:
    """What an import did with every record it read: each one is exactly one of

    - ``added``: a new paper;
    - ``updated``: a paper of the library, changed by it; ``skipped``: one it left unchanged;
    - ``merged``: taken as a paper met under another form (the same abstract written
      differently, a title-only record joining its paper, the same paper twice), naming the
      paper it joined and why;
    - ``apart``: a record sharing its abstract with a different paper, or its title and not
      its first author (``storage.importing.author_keys``), kept as a paper of its own;
    - refused (``errors``, and ``unlisted`` more past the cap of errors a file lists), with
      its position and the reason;
    - a BibTeX ``containers`` entry (a ``@proceedings`` others ``crossref``, an ``@xdata``),
      whose fields went to the entries citing it;

    and ``read`` counts them all (``accounted`` checks that they add up). Decisions carried by
    the file (our own exports, a library) are ``restored`` for papers still in the Inbox;
    ``differing`` counts those not taken because the library decided otherwise. ``failed``
    names the files of a folder that could not be read at all (the others were imported),
    ``passed`` those that are documents of other kinds (XML no reader takes: an SVG, a Maven
    POM), passed over; ``dry_run``: nothing was written.
    """

    added: int = 0
    updated: int = 0
    skipped: int = 0
    errors: list[RecordError] = field(default_factory=list)
    lists: list[str] = field(default_factory=list)
    merged: list[Merge] = field(default_factory=list)
    apart: list[Merge] = field(default_factory=list)
    restored: int = 0
    #: Papers whose decision the library has already, given the note or tags they lacked by
    #: the file (they were counted as decisions restored).
    filled: int = 0
    differing: int = 0
    read: int = 0
    containers: int = 0
    unlisted: int = 0
    failed: list[FailedFile] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)
    dry_run: bool = False
    #: What readers left out or could not follow, one line each (a macro past its budget, a
    #: ``crossref`` cycle, a library's damaged ``triage.json``).
    warnings: list[str] = field(default_factory=list)
    #: Decisions the files carried (restored, differing, or as the library has them already).
    carried: int = 0
    #: The files were as at an import that changed nothing, into the same papers: this is that
    #: import's report, the files not read again (``storage.importing.replay``).
    replayed: bool = False
    #: The papers stored whose record names an attachment, a local PDF (``file``), for the
    #: caller to make their copies (``storage.pdfs.attached``; a replayed report has none).
    attached: list[Paper] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.added + self.updated + self.skipped

    @property
    def refused(self) -> int:
        """Records that could not be used (listed in ``errors`` or only counted)."""
        return len(self.errors) + self.unlisted

    @property
    def accounted(self) -> int:
        """The records whose outcome the report gives: ``read`` when nothing was dropped."""
        return (
            self.added + self.updated + self.skipped + len(self.merged) + len(self.apart)
            + self.refused + self.containers
        )  # fmt: skip

    def summary(self) -> str:
        """One line for people: "3,703 added, 0 updated, 0 skipped (unchanged), 1 record error"
        (the words DESIGN.md gives the import's report), then what the records read became."""
        line = (
            f"{self.added:,} added, {self.updated:,} updated, {self.skipped:,} skipped (unchanged)"
        )
        if self.merged:
            line += f", {len(self.merged):,} merged"
        if self.apart:
            line += f", {len(self.apart):,} kept apart"
        if self.refused:
            line += f", {count(self.refused, 'record error')}"
        if self.containers:
            line += f", {count(self.containers, 'crossref or xdata container')}"
        if self.read:
            line += f" ({count(self.read, 'record')} read)"
        if self.restored:
            line += f", {count(self.restored, 'decision')} restored"
        if self.filled:
            line += f", notes or tags of {count(self.filled, 'paper')} taken from the file"
        if self.differing:
            line += (
                f", {count(self.differing, 'decision')} of the file "
                f"{'differs' if self.differing == 1 else 'differ'} from yours (kept yours)"
            )
        if self.failed:
            line += f", {count(len(self.failed), 'file')} not read"
        if self.passed:
            line += f", {count(len(self.passed), 'XML file')} of other kinds passed over"
        return line


def file_names(paths: Sequence[str], shown: int | None = 3) -> str:
    """The names of ``paths`` for people, the first ``shown`` of them (None: every one):
    ``logo.xml, pom.xml and 2 more``."""
    names = [PurePath(path).name for path in paths[:shown]]
    more = len(paths) - len(names)
    return ", ".join(names) + (f" and {more:,} more" if more else "")


#: One change of one paper's status: (paper id, status before, status after).
Change = tuple[str, Status, Status]


@dataclass(frozen=True, slots=True)
class Removal:
    """What a removal took out of the library (or its undo put back)."""

    #: The papers taken out, in list order.
    ids: tuple[str, ...] = ()
    #: Their titles, in the same order (for messages).
    titles: tuple[str, ...] = ()
    #: The lists taken out.
    lists: tuple[str, ...] = ()
    #: Papers of a removed list that stay, being in another list too.
    kept: tuple[str, ...] = field(default=())

    def __bool__(self) -> bool:
        return bool(self.ids or self.lists)


@dataclass(frozen=True, slots=True)
class StepDone:
    """What an undo or redo did: the status changes, the papers put back or taken out, the
    papers moved in the reading queue."""

    changes: list[Change] = field(default_factory=list)
    #: Papers an undone removal put back.
    restored: Removal | None = None
    #: Papers a redone removal took out again.
    removed: Removal | None = None
    #: What an undo or redo of the queue's order moved: (paper, position before, after).
    moves: list[tuple[str, Place | None, Place | None]] = field(default_factory=list)
    #: The sort that made the queue's order undone or redone (its name; "": a move by hand).
    sort: str = ""
