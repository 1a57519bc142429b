"""The naive ``papers`` commands that ``benchmarks.cli`` times beside ours.

    python -m benchmarks.cli_naive HOME search|list|mark|similar|stats|export|import|derive [ARGS…]
    python -m benchmarks.cli_naive HOME export-all FORMAT FILE
    python -m benchmarks.cli_naive HOME list-json

Each loads every paper (``Library.papers()``, as every command did before the papers were read
in chunks) and, for ``search`` and ``similar``, builds the index, as every call did before it
was saved; ``import FILE`` reads the whole file at once and cleans it in this process alone,
as the import did before it read a large JSON Lines list line by line and shared the work with
a second process, and derives nothing but ``papers.cache`` (as before it made the indexes);
``derive`` makes every derived file from nothing (what an import that does not update them
leaves to do); ``export-all`` writes every paper in a format as ``papers export`` did before
it wrote its text in pieces: the text made whole, encoded, then written (``list-json``: the
JSON array of every paper so). A module of its own:
it imports no more than a ``papers`` command does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from storage import Library, Status
from storage.export import export, heading_for, paper_record, select, statuses_for
from storage.search import SearchIndex
from storage.stats import LibraryStats


def main(argv: Sequence[str]) -> int:
    """Run one naive command; its output is what the user would read (one line per paper)."""
    home, command, *rest = argv
    if command == "import":
        import storage.library

        storage.library.refresh_derived = lambda *args, **kwargs: None  # nothing derived
    library = Library(home)
    papers = library.papers()  # every paper made, as `open_library` did
    library.lists()
    triage = library.triage()
    out = sys.stdout
    try:
        if command == "search":
            hits = SearchIndex(papers).search(
                " ".join(rest), limit=20, statuses=triage.statuses, tags=triage.tags
            )
            by_id = {p.id: p for p in papers}
            out.write("".join(f"{h.paper_id}  {by_id[h.paper_id].display_title}\n" for h in hits))
        elif command == "list":
            out.write("".join(f"{p.id}  {p.display_title}\n" for p in papers))
        elif command == "mark":
            by_id = {p.id: p for p in papers}
            library.set_statuses([rest[0]], rest[1])
            out.write(f"{rest[0]}  {rest[1]}  {by_id[rest[0]].display_title}\n")
        elif command == "similar":
            from storage.similar import SimilarityIndex

            by_id = {p.id: p for p in papers}
            found = SimilarityIndex(papers).similar(rest[0], limit=10)
            out.write("".join(f"{n.paper_id}  {by_id[n.paper_id].display_title}\n" for n in found))
        elif command == "derive":
            from storage.cache.search_index import INDEX_FILE, save_index
            from storage.cache.similar_index import SIMILAR_FILE, save_similarity
            from storage.similar import SimilarityIndex

            (library.home / "papers.cache").unlink(missing_ok=True)
            library = Library(home)
            papers = library.papers()  # papers.cache made again
            content = library.loaded_papers().content
            assert content is not None
            save_index(library.home / INDEX_FILE, content, SearchIndex(papers))
            save_similarity(library.home / SIMILAR_FILE, content, SimilarityIndex(papers))
        elif command == "stats":
            stats = LibraryStats.compute(papers, triage.statuses, library.days(), date.today())
            out.write(f"{stats.triaged} / {stats.total}\n")
        elif command == "export":
            starred = select(papers, triage.statuses, frozenset({Status.STARRED}))
            out.write(export(starred, triage, "markdown"))
        elif command == "list-json":
            import orjson

            records = [paper_record(p, triage) for p in papers]
            out.write(orjson.dumps(records, option=orjson.OPT_INDENT_2).decode() + "\n")
        elif command == "export-all":
            fmt, target = rest
            chosen = select(papers, triage.statuses, statuses_for("all"), triage)
            text = export(chosen, triage, fmt, heading=heading_for(chosen, "All papers"))
            Path(target).write_bytes(text.encode("utf-8"))
        elif command == "import":
            from storage.sources.registry import read_source

            report = library.import_results([read_source(Path(rest[0]))])
            out.write(f"{report.summary()}\n")
        else:
            raise SystemExit(f"unknown command {command!r}")
        out.flush()
    except BrokenPipeError:  # `| head`: the reader left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
