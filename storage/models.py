"""The plain domain objects of papers-tui: papers, triage states and import reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


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

    @property
    def display_abstract(self) -> str:
        """The abstract with LaTeX turned into readable Unicode and whitespace normalised."""
        from storage.text.latex import to_unicode as display_text

        return display_text(self.abstract)

    @property
    def display_title(self) -> str:
        """The title with LaTeX turned into readable Unicode."""
        from storage.text.latex import to_unicode as display_text

        return display_text(self.title)


@dataclass(frozen=True, slots=True)
class RecordError:
    """A record of a source that could not be read, and why."""

    source: str
    record: int
    reason: str

    def __str__(self) -> str:
        return f"{self.source}: record {self.record}: {self.reason}"


@dataclass(slots=True)
class ImportReport:
    """What an import did: counts of papers added, updated and skipped, and record errors."""

    added: int = 0
    updated: int = 0
    skipped: int = 0
    errors: list[RecordError] = field(default_factory=list)
    lists: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.added + self.updated + self.skipped

    def summary(self) -> str:
        """One line for people: "3703 added, 0 updated, 0 skipped (unchanged), 1 error"."""
        line = f"{self.added} added, {self.updated} updated, {self.skipped} skipped (unchanged)"
        if self.errors:
            n = len(self.errors)
            line += f", {n} record error{'s' if n != 1 else ''}"
        return line
