"""Three-way merges of a note or a paper's tags saved by an editor that was open a while.

The app's note editor and tag prompt open on what the paper held then (the *base*); the user
saves *mine*; meanwhile the disk may have come to hold *theirs*: another window, ``papers
note``/``papers tag``, a script, a sync. What is written is theirs with the user's own edits
applied, so that neither side loses what it did:

- **tags**: theirs, without the tags the user took out (base − mine), then those the user
  added (mine − base) that theirs lacks; theirs' order, then the user's additions in the
  user's order.
- **a note**, line by line: each side's edits of the base are found by ``difflib`` (lines
  deleted, lines inserted before a line of the base). A line of the base stays when neither
  side deleted it; the lines either side inserted go where they were inserted, theirs first,
  then the user's (a line both sides inserted, once). A line edited on both sides is a line
  both deleted and each inserted anew: both new lines are kept, neither lost.

When theirs is the base (nothing happened elsewhere), mine is written as it is (the order of
tags the user gave, the lines as typed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher


@dataclass(frozen=True, slots=True)
class TagsMerged:
    """The tags to write, and what of them came from elsewhere."""

    tags: tuple[str, ...]
    #: Tags another writer added meanwhile, kept.
    added: tuple[str, ...] = ()
    #: Tags another writer took out meanwhile that the user left in: left out.
    removed: tuple[str, ...] = ()

    @property
    def without_added(self) -> tuple[str, ...]:
        """The tags without those added elsewhere (when with them they pass a cap): never
        more than the user saved, as every other tag is the user's."""
        return tuple(tag for tag in self.tags if tag not in self.added)


@dataclass(frozen=True, slots=True)
class NoteMerged:
    """The note to write, and the lines of it that came from elsewhere."""

    note: str
    #: Lines another writer added meanwhile, kept (blank ones not named).
    added: tuple[str, ...] = ()
    #: Lines of the base another writer deleted meanwhile that the user left: left out.
    removed: tuple[str, ...] = ()
    #: The note without the lines added elsewhere (when with them it passes its cap).
    without_added: str = ""


def merge_tags(base: Sequence[str], mine: Sequence[str], theirs: Sequence[str]) -> TagsMerged:
    """The tags ``mine`` (saved over ``base``) merged with ``theirs`` (on disk now)."""
    if list(theirs) == list(base):
        return TagsMerged(tuple(dict.fromkeys(mine)))
    taken_out = set(base) - set(mine)
    kept = [tag for tag in dict.fromkeys(theirs) if tag not in taken_out]
    given = [tag for tag in dict.fromkeys(mine) if tag not in base]
    added = tuple(tag for tag in dict.fromkeys(theirs) if tag not in base and tag not in mine)
    removed = tuple(tag for tag in dict.fromkeys(base) if tag in mine and tag not in theirs)
    return TagsMerged(tuple(dict.fromkeys([*kept, *given])), added, removed)


def merge_note(base: str, mine: str, theirs: str) -> NoteMerged:
    """The note ``mine`` (saved over ``base``) merged line by line with ``theirs`` (on disk
    now). Lines are compared without their trailing spaces (a CRLF's ``\r`` among them), and
    written as the side that wrote them has them: a line of the base neither side changed as
    the side that changed only its ending or trailing spaces has it (the user's first), every
    other line byte for byte (the merge wrote every line without them: a Markdown line break,
    a note pasted with Windows line endings, lost its own where another line changed)."""
    if theirs.strip() == base.strip():
        return NoteMerged(mine, without_added=mine)
    lines = _lines(base)
    my_deleted, my_inserted, my_kept = _edits(lines, _lines(mine))
    their_deleted, their_inserted, their_kept = _edits(lines, _lines(theirs))
    # a line both sides inserted is written once: theirs, each of its copies standing for one
    # of the user's (one written twice here and once there stays twice)
    theirs_left = Counter(_key(line) for block in their_inserted.values() for line in block)
    mine_new = {_key(line) for block in my_inserted.values() for line in block}
    merged: list[str] = []
    unadded: list[str] = []  # the user's lines, those both sides inserted among them
    for at in range(len(lines) + 1):
        mine_here = []
        for line in my_inserted.get(at, []):
            if theirs_left[_key(line)] > 0:
                theirs_left[_key(line)] -= 1
            else:
                mine_here.append(line)
        theirs_here = their_inserted.get(at, [])
        merged += [*theirs_here, *mine_here]
        unadded += [*(ln for ln in theirs_here if _key(ln) in mine_new), *mine_here]
        if at < len(lines) and at not in my_deleted and at not in their_deleted:
            line = _kept_line(lines[at], my_kept[at], their_kept[at])
            merged.append(line)
            unadded.append(line)
    added = [_key(ln) for block in their_inserted.values() for ln in block]
    removed = [_key(lines[at]) for at in sorted(their_deleted - my_deleted)]
    return NoteMerged(
        "\n".join(merged).strip(),
        tuple(dict.fromkeys(ln for ln in added if ln not in mine_new and ln.strip())),
        tuple(dict.fromkeys(ln for ln in removed if ln.strip())),
        "\n".join(unadded).strip(),
    )


def _lines(note: str) -> list[str]:
    """The note's lines as written, each with the ``\r`` of its CRLF, the last too when the
    note's lines end so (it ends none: it takes the note's ending once a line follows it).
    Split at ``\n`` alone, not at the form feeds, U+2028… that ``str.splitlines`` breaks at
    too, which stay in their line (a merge wrote them back as line breaks)."""
    lines = note.strip().split("\n")
    ended = lines[:-1]
    if sum(line.endswith("\r") for line in ended) * 2 > len(ended):  # mostly CRLF
        lines[-1] += "\r"
    return lines


def _kept_line(base: str, mine: str, theirs: str) -> str:
    """A line of the base both sides kept (alike but for trailing spaces and endings), as
    the side that changed it has it: its text (trailing spaces), then its ending, each the
    user's where the user changed it."""
    text, ending = _split_ending(base)
    my_text, my_ending = _split_ending(mine)
    their_text, their_ending = _split_ending(theirs)
    return (my_text if my_text != text else their_text) + (
        my_ending if my_ending != ending else their_ending
    )


def _split_ending(line: str) -> tuple[str, str]:
    """A line's text and the ``\r`` of its CRLF ("" for a line ending in ``\n`` alone)."""
    return (line[:-1], "\r") if line.endswith("\r") else (line, "")


def _key(line: str) -> str:
    """A line as lines are compared: without its trailing spaces (and a CRLF's ``\r``)."""
    return line.rstrip()


#: The most pairs of lines ``difflib`` matches (the middle of two versions, their first and
#: last lines alike set aside): its time grows with their product, and a note within its cap
#: of 20,000 like lines took 35 s, the library's lock held. A middle past it is one change.
_MATCHED_AT_MOST = 4_000_000


def _edits(base: list[str], other: list[str]) -> tuple[set[int], dict[int, list[str]], list[str]]:
    """What ``other`` did to ``base`` (lines compared by ``_key``): the lines of ``base`` it
    deleted (by index), and the lines it inserted, by the index of the line of ``base`` they
    come before (its length: at the end); and each line of ``base`` as ``other`` has it (the
    line itself where ``other`` deleted it). A changed line is one deleted and one inserted in
    its place."""
    deleted: set[int] = set()
    inserted: dict[int, list[str]] = {}
    kept = list(base)
    keys, other_keys = [_key(line) for line in base], [_key(line) for line in other]
    most = min(len(base), len(other))
    head = 0
    while head < most and keys[head] == other_keys[head]:
        kept[head] = other[head]
        head += 1
    tail = 0
    while tail < most - head and keys[-1 - tail] == other_keys[-1 - tail]:
        kept[-1 - tail] = other[-1 - tail]
        tail += 1
    old, new = keys[head : len(base) - tail], other_keys[head : len(other) - tail]
    opcodes: Sequence[tuple[str, int, int, int, int]] = (
        [("replace", 0, len(old), 0, len(new))]
        if len(old) * len(new) > _MATCHED_AT_MOST
        else SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    )
    for op, b1, b2, o1, o2 in opcodes:
        if op == "equal":
            kept[head + b1 : head + b2] = other[head + o1 : head + o2]
        if op in ("delete", "replace"):
            deleted.update(range(head + b1, head + b2))
        if op in ("insert", "replace"):
            inserted.setdefault(head + b1, []).extend(other[head + o1 : head + o2])
    return deleted, inserted, kept
