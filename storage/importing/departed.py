"""Papers that left a fetched list: a refreshed fetch of a venue's accepted papers (not
``--max``) that no longer brings a paper it brought before as accepted. Its note was
withdrawn, desk rejected or moved after its acceptance; which of them the accepted papers
cannot say (``--all`` can), so the paper's venue status says it left (``Left the accepted list
(was Poster)``): the user sees it in the list, the pane and ``papers list``, and finds them
all with a search for ``left``. Nothing else changes: the paper stays in the library, in its
list, with the user's decision, notes and tags; the next record of it (``--all``, or the list
again once it is back) replaces that status like any other. A fetch of every submission
(``--all``) brings a withdrawn or rejected paper with that decision, which is its status then;
one it does not bring at all, not even so, is no longer listed by the venue: marked the same.
A ``--all`` whose source refused a part (OpenReview's 403 on the withdrawn submissions) marks
as without it, and its line says the decision could not be read, not that ``--all`` shows it.

An answer that lost most of the list at once (more than a quarter of it, and more than
``MIN_BROKEN`` papers) is taken for a broken one rather than as so many withdrawals: nothing
is marked, a warning says so; and so is one that brought none of the list's accepted papers as
accepted while ``--all`` brought others (an empty page of them), however few they are, a part
of it refused or not (the withdrawn papers' refusal says nothing of the accepted ones'). A
snapshot (Paper Copilot) marks no paper OpenReview holds: the venue's own record says more
(``authority``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from typing import Final

from storage.files.papers_file import PapersChange
from storage.importing.authority import NOT_ACCEPTED, SNAPSHOT, VENUE, held_rank, rank
from storage.models import ImportReport, Paper
from storage.sources.citation import not_published
from storage.sources.decisions import says_no_decision
from storage.text.words import NAME_CHARACTERS, shortened

#: How a venue status that left its list starts.
LEFT: Final = "Left the accepted list"
#: Papers missing at once that are always taken as withdrawals, however large a share.
MIN_BROKEN: Final = 5


def left_status(status: str) -> str:
    """The venue status of a paper that left the accepted list while ``status``."""
    return f"{LEFT} (was {status})"


def accepted(status: str) -> bool:
    """Whether a venue status is that of a paper accepted (as far as it says): not one
    decided against, nor one whose decision its source does not know (``Unknown``)."""
    return bool(status) and not (
        status in NOT_ACCEPTED
        or not_published(status)
        or status.startswith(LEFT)
        or says_no_decision(status)
    )


def mark_departed(
    change: PapersChange,
    present: Mapping[str, str],
    whole: Iterable[tuple[str, str, bool, str]],
    list_files: Mapping[str, Iterable[str]],
    report: ImportReport,
) -> None:
    """Mark the stored papers of each ``(source, list name, every submission, parts refused)``
    in ``whole`` (a result holding every accepted paper of its source, and with ``--all``
    every submission; ``--all`` asked but its source refused those parts, the withdrawn ones:
    no decision read, and not worth suggesting ``--all`` again) that the import did not bring
    (``present``: the ids it brought, and the venue status of each), as the module says, and
    say how many in ``report``."""
    for source, list_name, every_submission, refused in whole:
        names = {name for name, files in list_files.items() if source in files}
        if not names:
            continue  # a first fetch of it
        held = brought = 0  # its accepted papers stored; those the import brings as accepted
        gone: list[Paper] = []
        held_in: set[str] = set()  # the lists they are in
        gone_in: set[str] = set()
        for doc in change.stored.values():
            lists = names.intersection((doc["list"], *doc.get("lists", ())))
            if not lists or not accepted(str(doc.get("venue_status") or "")):
                continue  # (one that left was said so at the fetch it left)
            held += 1
            held_in.update(lists)
            if doc["id"] in present:
                brought += accepted(present[doc["id"]])
                continue
            paper = change.paper(doc["id"])
            if paper is None:
                continue
            if rank(source) == SNAPSHOT and held_rank(paper, list_files) == VENUE:
                continue  # OpenReview holds it: a snapshot's absence says less
            gone.append(paper)
            gone_in.update(lists)
        if not gone:
            continue
        papers = f"{len(gone):,} paper{'s' if len(gone) != 1 else ''}"
        one = len(gone) == 1
        # --all (whole, or with a part refused: an empty page of accepted papers is as
        # broken beside it) brought no accepted paper of them
        empty = (every_submission or bool(refused)) and not brought
        if empty or (len(gone) > MIN_BROKEN and 4 * len(gone) > held):
            where = _named(held_in, list_name)
            hint = "" if every_submission or refused else "; --all shows their decisions"
            report.warnings.append(
                f"{papers} of {held:,} in {where} {'is' if one else 'are'} missing from this "
                f"fetch of {source}{', which brought none of them as accepted' if empty else ''}"
                ": that looks like a broken answer rather than withdrawals; not marked (fetch "
                f"again later{hint})"
            )
            continue
        for paper in gone:
            change.put(replace(paper, venue_status=left_status(paper.venue_status)))
        where = _named(gone_in, list_name)
        report.warnings.append(
            f"{papers} of {where} {'is' if one else 'are'} no longer among its accepted papers "
            + _why_no_decision(every_submission, refused, one)
            + f": marked {LEFT!r} in the venue status; decisions, notes and tags kept"
        )


def _why_no_decision(every_submission: bool, refused: str, one: bool) -> str:
    """What the line of papers that left the accepted list says of their decision: that they
    are on no page of the submissions either (``--all``, whole), that the pages that would
    say it were refused (``--all``, in part), or that ``--all`` shows it."""
    if every_submission:
        return "nor among its other submissions"
    its = "its" if one else "their"
    if refused:
        return f"({its} decision could not be read: the {refused} submissions were refused)"
    return f"(--all shows {its} decision)"


def _named(lists: Collection[str], fetched_into: str) -> str:
    """The lists a line says papers are in: those of the source's lists they are in (a first
    fetch without ``--list``, a refresh into a list named now: the paper that left is in the
    first one only), the list fetched into among them first; each name cut as the reports
    cut one (a list named in 100,000 characters made a warning of 100,000)."""
    rest = sorted(set(lists) - {fetched_into})
    named = [fetched_into, *rest] if fetched_into in lists else rest
    return ", ".join(shortened(name, NAME_CHARACTERS) for name in named or [fetched_into])
