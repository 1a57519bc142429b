"""What an output format declares: its ``Exporter`` entry and the options every writer is given."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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

#: Writes papers (in list order) with their triage state as the text of one format.
Writer = Callable[[Sequence[Paper], TriageState, ExportOptions], str]


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
    write: Writer
