"""``papers remove``: take papers, or a whole list, out of the library (one undo step)."""

from __future__ import annotations

import argparse

from storage.models import Removal
from storage.text.words import count, plural
from tui.cli.common import Parser, Subparsers, UsageError
from tui.cli.ids import STDIN_HELP, ids_and_library
from tui.cli.output import list_names, say

#: Papers a removal names one by one; past this it says how many more.
_SHOWN = 10


def add_remove(sub: Subparsers, common: Parser) -> None:
    """``papers remove ID…`` and ``papers remove --list NAME``."""
    p = sub.add_parser(
        "remove",
        parents=[common],
        help="take papers or a list out (one undo step; decisions kept in the history)",
        description="Take papers out of the library, or a whole list (its papers that are in "
        "another list too stay there). One step: `papers undo` puts everything back, "
        "decisions, notes and tags included.",
    )
    p.add_argument(
        "ids",
        nargs="*",
        default=[],
        metavar="ID",
        help=f"paper ids (or unique prefixes); {STDIN_HELP}",
    )
    p.add_argument("--list", dest="list_name", metavar="NAME", help="remove the list NAME")
    p.set_defaults(run=cmd_remove, reports=True)


def cmd_remove(args: argparse.Namespace) -> int:
    if bool(args.ids) == bool(args.list_name):
        raise UsageError("give paper ids, or --list NAME (one of them)")
    from tui.memory import collector_paused

    ids, library = ids_and_library(args, args.ids)
    name = args.list_name
    with collector_paused():  # every paper read and written again: 3.7 -> 2.4 s at 100,000
        removal = library.remove_list(name) if name else library.remove(ids)
    say_removal(removal, "Removed {}; `papers undo` puts {it} back.")
    return 0


def say_removal(removal: Removal, headline: str) -> None:
    """What a removal (or the undo or redo of one) took out or put back: ``headline`` with
    how many papers and which lists in its ``{}`` (and ``{it}``: "it" or "them"), then the
    first papers one a line."""
    n = len(removal.ids)
    what = count(n, "paper")
    if removal.lists:
        what += f" and the {plural(len(removal.lists), 'list')} {list_names(removal.lists)}"
    say(headline.format(what, it="it" if n == 1 and not removal.lists else "them"))
    from storage.text.latex import to_unicode

    shown = zip(removal.ids[:_SHOWN], removal.titles[:_SHOWN], strict=True)
    say(*(f"  {pid}  {to_unicode(title, markdown=False)}" for pid, title in shown))
    if n > _SHOWN:
        say(f"  … and {n - _SHOWN:,} more")
    if removal.kept:
        k = len(removal.kept)
        if k == 1:
            say("1 paper of the list stays: it is in another list too.")
        else:
            say(f"{count(k, 'paper')} of the list stay: they are in other lists too.")
