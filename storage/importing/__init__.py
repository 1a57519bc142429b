"""Importing: what readers read, matched with the papers already in the library, and stored.

An import runs in three steps, one module each:

1. ``gather``: every record cleaned into a paper (links, a title, a venue, the id its text
   gives it), outside any lock: this is the slow part, and it does not depend on the library.
   Files are read as they are cleaned (a large JSON Lines list line by line), so that memory
   holds the papers, not the records and the text they came from as well;
2. ``resolve``: under the lock, each candidate matched with the papers known (the library's
   and the import's own), by the rules of ``identity``: the same abstract and a compatible
   title, or, for a record without an abstract, the same title and a first author who may
   be the same person (``author_keys``). A match merges into the paper; a paper sharing its
   abstract with a different one gets an id that also takes its title. The report says what
   was merged, and why;
3. ``store``: the papers written to ``papers.json`` in one change (``PapersChange``), and the
   decisions the file carries (our own exports, a library) given to the papers still in the
   Inbox (``take_theirs``: to every paper) in one change of ``triage.json``.

``Library.import_results`` runs them.
"""

from __future__ import annotations

from collections.abc import Callable

#: Called with (records done, records in all) while an import runs.
Progress = Callable[[int, int], None]
