"""The reading queue from the shell: ``papers queue`` (and ``move``, ``sort``), ``papers next``."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path

from storage.queue import SORTS, queue_empty, sort_named
from storage.text.words import count
from tui.cli.common import Parser, Subparsers, open_library
from tui.cli.ids import one_from_stdin, one_id_and_library
from tui.cli.output import complain, print_papers, say, write_json

#: How papers are starred from the shell: what an empty queue's sentence names.
STAR = "papers mark ID starred"


def add_queue(sub: Subparsers, common: Parser) -> None:
    """``papers queue [--json]``, ``papers queue move ID --to N|top|bottom``,
    ``papers queue sort NAME``, ``papers next``."""
    p = sub.add_parser(
        "queue",
        parents=[common],
        help="the reading queue: starred papers in your order (move, sort)",
        description="The reading queue: the starred papers, head first, in the order you give.",
    )
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=cmd_queue)
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser)
    move = actions.add_parser(
        "move", parents=[common], help="move a paper to a place in the queue (one undo step)"
    )
    move.add_argument(
        "id",
        metavar="ID",
        help=f"a starred paper's id (or unique prefix); {one_from_stdin('queue move')}",
    )
    move.add_argument(
        "--to", required=True, metavar="N|top|bottom", type=_place, help="1 is the head"
    )
    move.set_defaults(run=cmd_queue_move, reports=True)
    names = ", ".join(s.name for s in SORTS)
    sort = actions.add_parser(
        "sort",
        parents=[common],
        help=f"sort the queue once ({names}; one undo step)",
        description="Sort the queue once; later moves and new stars keep their places.",
        epilog="; ".join(f"{s.name}: {s.label}" for s in SORTS),
    )
    sort.add_argument("name", metavar="NAME", choices=[s.name for s in SORTS], help=names)
    sort.set_defaults(run=cmd_queue_sort, reports=True)
    # argparse writes a command's subcommands as required ("ACTION ..."): without one, the
    # queue is listed (set once the subcommands have their prog, which is made of the usage)
    p.usage = "%(prog)s [-h] [--home DIR] [--json] [ACTION ...]"

    p = sub.add_parser(
        "next",
        parents=[common],
        help="the head of the reading queue, one line (exit 1 when it is empty)",
    )
    p.add_argument("--json", action="store_true", help="print the paper as a JSON object")
    p.set_defaults(run=cmd_next)


def _place(text: str) -> int | str:
    word = text.strip().lower()
    if word in ("top", "bottom", "head", "end", "first", "last"):
        return "top" if word in ("top", "head", "first") else "bottom"
    try:
        value = int(word)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a place: {text!r} (a number, top or bottom)"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError("places start at 1 (the head)")
    return value


def cmd_queue(args: argparse.Namespace) -> int:
    library = open_library(args)
    triage = library.triage()
    ids = library.queue()
    loaded = library.loaded_papers()
    rows = [row for pid in ids if (row := loaded.row_of(pid)) is not None]
    # each chunk of papers.cache read once, whatever the queue's order (``papers_at``)
    papers = loaded.papers_at(rows) if len(rows) == len(ids) else [library.paper(i) for i in ids]
    if args.json:  # with each local copy, as ``papers next --json`` gives the head's
        from tui.config import library_pdfs

        copies = library_pdfs(library.home).copies()
        print_papers(papers, triage, True, lambda paper: {"pdf_path": _path(copies, paper.id)})
        return 0
    if not papers:  # said on stderr: a pipe of the queue's ids (papers queue | …) gets none
        complain(queue_empty(STAR))
        return 0
    width = len(str(len(papers)))
    for place, paper in enumerate(papers, start=1):
        venue = f" ({paper.venue_status})" if paper.venue_status else ""
        say(f"{place:>{width}}  {paper.id}  {paper.display_title}{venue}")
    return 0


def cmd_queue_move(args: argparse.Namespace) -> int:
    given, library = one_id_and_library(args, args.id, "queue move")
    pid = library.resolve_id(given)
    moves = library.move_in_queue(pid, args.to)
    queue = library.queue()
    place = queue.index(pid) + 1
    title = library.paper(pid).display_title
    where = f"#{place} of {len(queue):,}"
    if isinstance(args.to, int) and args.to > len(queue):  # (said: it was quietly the last)
        where += f", the last place (there is no #{args.to:,})"
    say(f"{pid}  {'moved to' if moves else 'already at'} {where}  {title}")
    return 0


def cmd_queue_sort(args: argparse.Namespace) -> int:
    library = open_library(args)
    sort = sort_named(args.name)
    before = library.queue()
    if not before:  # (it said "Sorted 0 papers")
        complain(queue_empty(STAR))
        return 0
    if sort.known is not None:  # as the app says it: "0 papers moved" said nothing of why
        facts = library.sort_facts(before, library.triage(), likeness=sort.needs_likeness)
        unsorted = sort.unsorted(before, facts)
        if unsorted is not None:
            say(unsorted)
            return 0
    # the papers given new places, the fewest that give the order (``storage.queue.
    # reordered``): what ``papers undo`` says it moves back (it said 704 for 703 moved)
    moved = len(library.sort_queue(sort.name))
    after = library.queue()
    undo = " (papers undo puts them back)" if moved else ""
    named = sort.named  # "by venue status" ("…: orals: 0 moved")
    say(f"Sorted {count(len(after), 'paper')} {named}: {count(moved, 'paper')} moved{undo}")
    return 0


def cmd_next(args: argparse.Namespace) -> int:
    library = open_library(args)
    ids = library.queue()
    if not ids:  # one line on stderr, as ``papers queue`` says it, and exit code 1
        complain(queue_empty(STAR))
        return 1
    paper = library.paper(ids[0])
    if args.json:  # with its local copy, to open it (``xdg-open "$(… | jq -r .pdf_path)"``)
        from tui.config import library_pdfs

        copies = library_pdfs(library.home).copies()
        from storage.export.selection import paper_record  # (not at every command's start)

        record = paper_record(paper, library.triage())
        write_json({**record, "waiting": len(ids), "pdf_path": _path(copies, paper.id)})
        return 0
    say(f"{paper.id}  {paper.display_title}")
    return 0


def _path(copies: Mapping[str, Path], paper_id: str) -> str | None:
    """The ``pdf_path`` of a paper's record: its local copy (None: it has none)."""
    copy = copies.get(paper_id)
    return str(copy) if copy is not None else None
