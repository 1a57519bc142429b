"""Every format papers-tui writes, declared once, and ``export`` that writes through one.

To write a new format, add its module beside this one (a writer and its ``Exporter``: name,
label, suffix, description) and add the ``Exporter`` to ``EXPORTERS``: ``papers export
--format``, its help and the default file names all follow from the table.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from storage.export.bibtex import BIBTEX
from storage.export.csl_json import CSL_JSON
from storage.export.csv_table import CSV
from storage.export.exporter import Exporter, ExportOptions
from storage.export.json_array import JSON
from storage.export.markdown import MARKDOWN
from storage.export.names import export_formats as export_formats
from storage.export.ris import RIS
from storage.files.triage_file import TriageState
from storage.models import Paper

#: The output formats, in the order help texts name them; the first is the default.
EXPORTERS: tuple[Exporter, ...] = (MARKDOWN, CSV, JSON, BIBTEX, CSL_JSON, RIS)

FORMATS = tuple(exporter.name for exporter in EXPORTERS)
SUFFIXES = {exporter.name: exporter.suffix for exporter in EXPORTERS}


def exporter_named(name: str) -> Exporter:
    """The exporter of a ``--format`` name; ValueError for a name no exporter has."""
    for exporter in EXPORTERS:
        if exporter.name == name:
            return exporter
    raise ValueError(f"unknown format {name!r} (choose from {', '.join(FORMATS)})")


def formats_heeding(option: str) -> list[str]:
    """The ``--format`` names of the formats that heed ``option`` (a field of
    ``ExportOptions``: ``"group_by"``, ``"abstracts"``)."""
    return [exporter.name for exporter in EXPORTERS if option in exporter.heeds]


def export(
    papers: Sequence[Paper],
    triage: TriageState,
    fmt: str = "markdown",
    *,
    heading: str = "",
    group_by: str = "none",
    abstracts: bool = False,
) -> str:
    """The papers in format ``fmt`` (one of ``FORMATS``), as text (for the clipboard, or a
    file of a few papers: ``export_pieces`` writes one of any size)."""
    return "".join(
        export_pieces(papers, triage, fmt, heading=heading, group_by=group_by, abstracts=abstracts)
    )


def export_pieces(
    papers: Sequence[Paper],
    triage: TriageState,
    fmt: str = "markdown",
    *,
    heading: str = "",
    group_by: str = "none",
    abstracts: bool = False,
) -> Iterator[str]:
    """``export`` in pieces, made as they are asked for (to be written as they come: see
    ``storage.export.exporter.Writer``). ``ValueError`` at once for an unknown format."""
    options = ExportOptions(heading=heading, group_by=group_by, abstracts=abstracts)
    return iter(exporter_named(fmt).pieces(papers, triage, options))
