"""A merged note keeps its lines as they were written: trailing spaces (a Markdown line
break) and CRLF line endings. Lines are compared without them, so that an ending is no
conflict, but were written without them too: every line of a note merged in the app's editor
(``storage.files.three_way.merge_note``), and the line before a block a sync kept of this
device's (``storage.sync.both``), lost them though only one side, or neither, had changed it."""

from __future__ import annotations

from storage.files.three_way import merge_note
from storage.sync.both import both_texts, over_merge
from storage.sync.records import NOTE

BASE = "Key idea:  \r\nrank loss\r\nsee table 2"


def test_lines_only_one_side_changed_are_written_as_that_side_wrote_them() -> None:
    mine = BASE + "\r\nreproduce it  \r\nthen the appendix"
    theirs = BASE.replace("table 2", "table 3")
    merged = merge_note(BASE, mine, theirs)
    assert (
        merged.note
        == "Key idea:  \r\nrank loss\r\nsee table 3\r\nreproduce it  \r\nthen the appendix"
    )
    assert (merged.added, merged.removed) == (("see table 3",), ("see table 2",))
    assert merged.without_added == "Key idea:  \r\nrank loss\r\nreproduce it  \r\nthen the appendix"


def test_a_merge_keeps_each_sides_line_endings_and_spaces() -> None:
    """The other writer made the note CRLF (an editor on Windows) and added a line; the user
    added a Markdown line break and a line: each change is there, byte for byte."""
    merged = merge_note("a\nb", "a  \nb\nmine", "a\r\nb\r\ntheirs")
    assert merged.note == "a  \r\nb\r\ntheirs\r\nmine"
    merged = merge_note("a\r\nb", "a\nb\nmine", "a\r\nb\r\ntheirs")  # the user's LF, theirs CRLF
    assert merged.note == "a\nb\ntheirs\r\nmine"


def test_a_line_only_one_device_wrote_keeps_its_ending_before_a_block_sync_kept() -> None:
    """An edit made here over a merge cut short: the line before this device's block kept
    its CRLF and its trailing spaces (``rstrip`` took them)."""
    edited = over_merge(NOTE, "a  \r\nb\r\nc", "b\r\nc\r\nnew", "b\r\nc", ("laptop", 1))
    assert edited == "a  \r\nb\r\nc\r\nnew"
    edited = over_merge(NOTE, "theirs  \nmine", "mine\nmore", "mine", ("laptop", 1))
    assert edited == "theirs  \nmine\nmore"


def test_blocks_kept_both_keep_the_spaces_ending_their_last_line() -> None:
    """A note kept both before, its own text's last line ending in a Markdown line break."""
    lost = "mine  \r\nlast  \n\n--- also written on desk, 2026-01-01 10:00: kept by sync ---\nb  "
    kept = both_texts("theirs", lost, "laptop", 1_800_000_000_000)
    assert kept is not None
    assert "\nmine  \r\nlast  \n\n--- also written on desk" in kept
