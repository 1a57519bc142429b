"""Writers: papers as Markdown, CSV, JSON, BibTeX, CSL-JSON or RIS, and the file they go to.

- ``registry``: the formats, declared once (``EXPORTERS``), and ``export`` that writes one
  (``export_pieces``: in pieces, for a file of any size);
- ``exporter``: what a format declares (``Exporter``) and the options every writer is given;
- ``markdown``, ``csv_table``, ``json_array``, ``bibtex``, ``csl_json``, ``ris``: one module
  per format;
- ``tex``: text as BibTeX holds it (ASCII, LaTeX escapes, balanced braces);
- ``selection``: the papers an export takes (by status; the reading queue with what was read
  from it: ``reading_list``), headings, groups, records;
- ``destination``: ``write_export``, the one export-to-file flow of the CLI and the app.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storage.export.bibtex import bib_escape, bibtex_key, to_bibtex
    from storage.export.csv_table import CSV_COLUMNS, to_csv
    from storage.export.destination import write_export
    from storage.export.exporter import Exporter, ExportOptions
    from storage.export.json_array import to_json
    from storage.export.markdown import md_escape, md_escape_line, md_url, to_markdown
    from storage.export.registry import (
        EXPORTERS,
        FORMATS,
        SUFFIXES,
        export,
        export_formats,
        export_pieces,
        exporter_named,
        formats_heeding,
    )
    from storage.export.selection import (
        GROUPINGS,
        groups,
        heading_for,
        heading_of,
        in_queue_order,
        paper_record,
        read_from_queue,
        reading_list,
        select,
        statuses_for,
    )
    from storage.files.batches import in_batches  # the pieces joined as they are written

#: The module each name of the package comes from. A module is imported when one of its names
#: is first asked for (``__getattr__``): a command that reads only ``storage.export.names`` (the
#: CLI's arguments: ``papers import`` among them) starts without the exporters and the readers
#: they lean on (80 ms of ``papers import``'s start).
_FROM = {
    "storage.export.bibtex": ("bib_escape", "bibtex_key", "to_bibtex"),
    "storage.export.csv_table": ("CSV_COLUMNS", "to_csv"),
    "storage.export.destination": ("write_export",),
    "storage.export.exporter": ("ExportOptions", "Exporter"),
    "storage.export.json_array": ("to_json",),
    "storage.export.markdown": ("md_escape", "md_escape_line", "md_url", "to_markdown"),
    "storage.export.registry": (
        "EXPORTERS",
        "FORMATS",
        "SUFFIXES",
        "export",
        "export_formats",
        "export_pieces",
        "exporter_named",
        "formats_heeding",
    ),
    "storage.export.selection": (
        "GROUPINGS",
        "groups",
        "heading_for",
        "heading_of",
        "in_queue_order",
        "paper_record",
        "read_from_queue",
        "reading_list",
        "select",
        "statuses_for",
    ),
    "storage.files.batches": ("in_batches",),
}
_MODULE_OF = {name: module for module, names in _FROM.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # asked once
    return value


__all__ = [
    "CSV_COLUMNS",
    "EXPORTERS",
    "FORMATS",
    "GROUPINGS",
    "SUFFIXES",
    "ExportOptions",
    "Exporter",
    "bib_escape",
    "bibtex_key",
    "export",
    "export_formats",
    "export_pieces",
    "exporter_named",
    "formats_heeding",
    "groups",
    "heading_for",
    "heading_of",
    "in_batches",
    "in_queue_order",
    "md_escape",
    "md_escape_line",
    "md_url",
    "paper_record",
    "read_from_queue",
    "reading_list",
    "select",
    "statuses_for",
    "to_bibtex",
    "to_csv",
    "to_json",
    "to_markdown",
    "write_export",
]
