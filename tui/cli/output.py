"""What the commands print about papers: one line each, or a JSON array."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import orjson

from storage import Library, Status
from storage.export import paper_record
from storage.models import Paper
from storage.triage import TriageSnapshot


def paper_line(paper: Paper, triage: TriageSnapshot) -> str:
    code = " [code]" if paper.github else ""
    venue = f" ({paper.venue_status})" if paper.venue_status else ""
    return f"{paper.id}  {triage.status(paper.id).value:<7}  {paper.display_title}{venue}{code}"


def print_papers(papers: Sequence[Paper], triage: TriageSnapshot, as_json: bool) -> None:
    if as_json:
        records = [paper_record(p, triage) for p in papers]
        sys.stdout.write(orjson.dumps(records, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        sys.stdout.write("".join(paper_line(p, triage) + "\n" for p in papers))


def print_changes(
    library: Library, changes: Sequence[tuple[str, Status, Status]], what: str
) -> int:
    if not changes:
        print(f"nothing to {what}")
        return 0
    for pid, old, new in changes:
        print(f"{pid}  {old.value} → {new.value}  {library.paper(pid).display_title}")
    return 0
