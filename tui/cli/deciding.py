"""Commands that change decisions: ``mark``, ``undo``, ``redo``, ``note``, ``tag``."""

from __future__ import annotations

import argparse

from storage import Library, Status
from storage.models import StepDone
from tui.cli.common import Parser, Subparsers, UsageError, open_library
from tui.cli.ids import STDIN_HELP, ids_and_library, one_from_stdin, one_id_and_library
from tui.cli.output import complain, kept_or_not_changed, print_changes, say, say_kept
from tui.cli.removing import say_removal


def add_mark(sub: Subparsers, common: Parser) -> None:
    """``papers mark ID… STATUS``, ``papers undo``, ``papers redo``."""
    p = sub.add_parser(
        "mark",
        parents=[common],
        help="set the status of papers (one undo step)",
        # argparse writes one list argument as "ID... STATUS [ID... STATUS ...]": one group it is
        usage="%(prog)s [-h] [--home DIR] ID [ID ...] STATUS",
        epilog="From a search: papers search QUERY | papers mark - read",
    )
    p.add_argument(
        "args",
        nargs="+",
        metavar="ID... STATUS",
        help=f"paper ids or unique prefixes ({STDIN_HELP}), then inbox|read|skipped|starred",
    )
    p.set_defaults(run=cmd_mark, reports=True)

    for name, doc in (
        ("undo", "undo the latest decision or removal"),
        ("redo", "redo the latest undone decision or removal"),
    ):
        p = sub.add_parser(name, parents=[common], help=doc)
        p.set_defaults(run=cmd_undo if name == "undo" else cmd_redo, reports=True)


def add_note(sub: Subparsers, common: Parser) -> None:
    """``papers note ID TEXT…``, ``papers tag ID TAG…``."""
    p = sub.add_parser("note", parents=[common], help="set or clear the note of a paper")
    p.add_argument(
        "id", metavar="ID", help=f"a paper id (or unique prefix); {one_from_stdin('note')}"
    )
    # default=[]: else argparse counts a "*" positional as required ("required: ID, TEXT")
    p.add_argument(
        "text", nargs="*", default=[], metavar="TEXT", help="the note (nothing clears it)"
    )
    p.add_argument(
        "-a", "--append", action="store_true",
        help="add TEXT to the note on a line of its own, instead of replacing it",
    )  # fmt: skip
    p.set_defaults(run=cmd_note, reports=True)
    p.dash_words = True  # papers note ID -then more: words of the note (see ``Parser``)

    p = sub.add_parser("tag", parents=[common], help="set the tags of a paper")
    p.add_argument(
        "id", metavar="ID", help=f"a paper id (or unique prefix); {one_from_stdin('tag')}"
    )
    p.add_argument(
        "tags",
        nargs="*",
        default=[],
        metavar="TAG",
        help="the tags (#name is name; nothing clears them)",
    )
    p.set_defaults(run=cmd_tag, reports=True)
    p.dash_words = True  # papers tag ID -negative: a tag


def cmd_mark(args: argparse.Namespace) -> int:
    if len(args.args) < 2:
        raise UsageError("give one or more paper ids, then a status")
    *given, status_text = args.args
    try:
        status = Status.parse(status_text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    ids, library = ids_and_library(args, given)  # resolved from papers.cache's ids, not papers
    if status is Status.STARRED:
        from tui.config import library_config

        config = library_config(library.home)
        for problem in config.problems_of("queue"):  # where the stars join the queue
            complain(f"papers: note: {problem}")
        library.queue_top = config.queue_top
    changes = library.set_statuses(ids, status)
    changed = {pid for pid, _old, _new in changes}
    for pid in dict.fromkeys(library.resolve_id(i) for i in ids):
        paper = library.paper(pid)  # one chunk of papers.cache
        verb = f"{status.value:<7}" if pid in changed else f"already {status.value}"
        say(f"{pid}  {verb}  {paper.display_title}")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    from tui.memory import collector_paused

    library = open_library(args)
    with collector_paused():  # a removal's undo reads and writes every paper (see tui.memory)
        done = library.undo_step()
    return say_step(library, done, "undo")


def cmd_redo(args: argparse.Namespace) -> int:
    from tui.memory import collector_paused

    library = open_library(args)
    with collector_paused():  # as ``cmd_undo``
        done = library.redo_step()
    return say_step(library, done, "redo")


def say_step(library: Library, done: StepDone, what: str) -> int:
    """What an undo or redo did: the papers a removal's undo put back or its redo took out
    again, else the decisions it changed. Nothing to undo (or redo) is said on stderr with
    exit code 1, as ``git stash pop`` says there is no stash and ``papers next`` that the
    queue is empty: ``while papers undo; do :; done`` undoes everything, then stops (exit
    code 0 made it loop for ever)."""
    if not (done.restored or done.removed or done.moves or done.changes):
        complain(f"papers: nothing to {what}")
        return 1
    if done.restored:
        say_removal(done.restored, "Put back {}; `papers redo` takes {it} out again.")
    elif done.removed:
        say_removal(done.removed, "Removed {} again; `papers undo` puts {it} back.")
    elif done.moves:
        from storage.queue import sort_said
        from storage.text.words import count

        moved = "moved back" if what == "undo" else "moved again"
        sort = f" (the sort {sort_said(done.sort)})" if done.sort else ""
        say(f"{what}: {count(len(done.moves), 'paper')} {moved} in the reading queue{sort}")
        queue = library.queue()
        for pid, _old, _new in done.moves[:10]:
            if pid in queue:
                say(f"{pid}  #{queue.index(pid) + 1:<4} {library.paper(pid).display_title}")
    else:
        print_changes(library, done.changes)
    return 0


def cmd_note(args: argparse.Namespace) -> int:
    """Set, clear or (``--append``) add to a paper's note; a note replaced or cleared is
    printed, as no undo brings a note back."""
    pid, library = one_id_and_library(args, args.id, "note")
    text = " ".join(args.text).strip()
    if args.append and not text:
        raise UsageError("--append needs the TEXT to add")

    rounds: list[str] = []  # the notes printed: more than one when others changed it meanwhile

    def print_replaced(before: str) -> None:
        """The note replaced, printed (its only copy) before the change is written (again
        when another writer changed it while it was printed: ``copy_first``)."""
        if before and not args.append and text != before.strip():
            # ("note cleared" for a note given as "" or spaces too: it was "note saved")
            said = f"note {'saved' if text else 'cleared'}"
            if rounds:
                said = "the note changed meanwhile (another writer)"
            say_kept(f"{said}; the note it replaced, as it was:")
            rounds.append(before)
            say_kept(*before.splitlines())
            kept_or_not_changed(
                "the note is left as it was (the note it would replace is printed as its only "
                "copy, and could not be)"
            )

    before = library.set_note(pid, text, append=args.append, before_saving=print_replaced)
    if args.append:
        say("note saved (added to the note)" if before else "note saved")
    elif text == before.strip():
        say("note unchanged" if text else "no note to clear")
    elif not before:
        say("note saved")
    return 0


def cmd_tag(args: argparse.Namespace) -> int:
    """Set or (no TAG) clear a paper's tags; tags replaced or cleared are printed as they can
    be typed back, as no undo brings tags back (``papers undo`` undoes decisions: it undid the
    one before them, and "tags: none" left the tags gone unsaid)."""
    from storage.files.triage_model import typed_tags

    try:
        tags = typed_tags(args.tags)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    pid, library = one_id_and_library(args, args.id, "tag")

    rounds: list[tuple[str, ...]] = []  # (more than one: others changed them meanwhile)

    def print_replaced(before: tuple[str, ...]) -> None:
        """The tags replaced, printed (their only copy) before the change is written (again
        when another writer changed them while they were printed: ``copy_first``)."""
        if before and tags != before:
            said = f"tags: {', '.join(tags)}" if tags else "tags cleared"
            if rounds:
                said = "the tags changed meanwhile (another writer)"
            rounds.append(before)
            say_kept(f"{said}; the tags it replaced: {', '.join(before)}")
            kept_or_not_changed(
                "the tags are left as they were (the tags it would replace are printed as "
                "their only copy, and could not be)"
            )

    before = library.set_tags(pid, tags, before_saving=print_replaced)
    if tags == before:
        say(f"tags unchanged: {', '.join(tags)}" if tags else "no tags to clear")
    elif not before:
        say(f"tags: {', '.join(tags)}")
    return 0
