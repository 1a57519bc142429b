"""What an output format declares: its ``Exporter`` entry and the options every writer is given."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from storage.files.triage_file import TriageState
from storage.models import Paper


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """How the user asked for the papers; a format ignores what it has no use for."""

    #: The title of the export; "" lets the format make one from the papers.
    heading: str = ""
    #: Sections by one of ``GROUPINGS`` ("none": one run of papers).
    group_by: str = "none"
    #: Whether a format that lists papers for reading (Markdown) gives their abstracts too.
    abstracts: bool = False


#: The options of a plain export: a heading made from the papers, no groups.
DEFAULT_OPTIONS = ExportOptions()

#: Writes papers (in list order) with their triage state as the text of one format, in pieces
#: made one after the other (a heading, a paper's entry, a batch of rows), so that a file is
#: written as its text is made: an export of 100,000 papers is 160-200 MB of text, which held
#: whole (and copied to be encoded) took a CSV or CSL-JSON export past 1.3 GB
#: (``benchmarks.exports``).
Writer = Callable[[Sequence[Paper], TriageState, ExportOptions], Iterable[str]]


@dataclass(frozen=True, slots=True)
class Exporter:
    """One output format, declared once: its ``--format`` name, file suffix, writer."""

    #: The ``--format`` value: "markdown".
    name: str
    #: What people call it: "Markdown".
    label: str
    #: The suffix of the file it writes: ".md".
    suffix: str
    #: One line for help texts: what the output holds.
    description: str
    #: The text of some papers, in pieces.
    pieces: Writer
    #: The ``ExportOptions`` it heeds beyond the heading (``"group_by"``, ``"abstracts"``): one
    #: asked of a format that does not heed it is refused (``papers export --format csv
    #: --abstracts`` wrote the CSV as if it had not been asked), not ignored.
    heeds: frozenset[str] = frozenset()
