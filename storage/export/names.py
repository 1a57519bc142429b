"""The export formats' names, file suffixes and labels, and the Markdown export's groupings:
what the CLI's arguments offer, without the exporters.

Every ``papers`` command builds every command's arguments, ``export``'s too; importing the
exporters for them (BibTeX's, CSL-JSON's, the readers they lean on) took some 70 ms of the
start of ``papers list``, ``mark`` or ``search``, which export nothing. The exporters
themselves (``storage.export.registry``) are the truth: a test holds these to them.
"""

from __future__ import annotations

from typing import Final

#: The ``--format`` names, in the order help texts name them; the first is the default.
FORMATS: Final = ("markdown", "csv", "json", "bibtex", "csl-json", "ris")
#: Each format's file suffix (``-o queue.bib`` says BibTeX).
SUFFIXES: Final = {
    "markdown": ".md",
    "csv": ".csv",
    "json": ".json",
    "bibtex": ".bib",
    "csl-json": ".csl.json",
    "ris": ".ris",
}
#: The formats for people, in the same order.
LABELS: Final = ("Markdown", "CSV", "JSON", "BibTeX", "CSL-JSON", "RIS")
#: The Markdown export's sections (``--group-by``).
GROUPINGS: Final = ("none", "tag", "venue", "list")


def export_formats() -> str:
    """The formats for people, as help texts name them: ``Markdown, CSV, …, CSL-JSON or RIS``."""
    *others, last = LABELS
    return f"{', '.join(others)} or {last}"
