"""papers-tui's storage layer: models, importers, the TinyDB library, search, similar papers,
export and sync between devices.

Nothing here imports Textual (a test checks it), so scripts can use it on their own.
"""

from storage.errors import LibraryError
from storage.library import Library
from storage.models import ImportReport, Paper, Status

__all__ = ["ImportReport", "Library", "LibraryError", "Paper", "Status"]
