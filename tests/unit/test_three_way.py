"""The three-way merges of a note or tags saved over a change made elsewhere meanwhile
(``storage.files.three_way``): base is what the editor opened with, mine what it saved, theirs
what the disk holds now."""

from __future__ import annotations

from storage.files.three_way import merge_note, merge_tags


def test_tags_unchanged_elsewhere_are_saved_as_given_in_the_users_order() -> None:
    merged = merge_tags(("a", "b"), ("b", "a", "c"), ("a", "b"))
    assert (merged.tags, merged.added, merged.removed) == (("b", "a", "c"), (), ())


def test_tags_removed_elsewhere_stay_out_and_those_added_stay_in() -> None:
    """theirs' order, then what the user added; what the user took out stays out."""
    merged = merge_tags(("a", "b", "c"), ("a", "b", "c", "mine"), ("new", "c", "a"))
    assert merged.tags == ("new", "c", "a", "mine")
    assert (merged.added, merged.removed) == (("new",), ("b",))
    merged = merge_tags(("a", "b"), ("b", "x"), ("a", "b", "y"))
    assert merged.tags == ("b", "y", "x")
    assert (merged.added, merged.removed) == (("y",), ())


def test_a_tag_added_on_both_sides_is_one_and_not_said() -> None:
    merged = merge_tags(("a",), ("a", "x"), ("x", "a"))
    assert (merged.tags, merged.added, merged.removed) == (("x", "a"), (), ())


def test_tags_without_those_added_elsewhere_are_never_more_than_the_users() -> None:
    merged = merge_tags(("a", "b"), ("a", "b", "c"), ("b", "d", "e"))
    assert merged.tags == ("b", "d", "e", "c")
    assert merged.without_added == ("b", "c")


def test_a_note_unchanged_elsewhere_is_saved_as_typed() -> None:
    merged = merge_note("a\nb", "b\na  ", "a\nb")
    assert (merged.note, merged.added, merged.removed) == ("b\na  ", (), ())


def test_note_lines_each_side_deleted_stay_deleted_and_new_ones_stay_where_written() -> None:
    base = "one\ntwo\nthree\nfour"
    mine = "one\nmine after one\ntwo\nthree"  # four deleted, a line written after one
    theirs = "one\nthree\nfour\ntheirs at the end"  # two deleted, a line appended
    merged = merge_note(base, mine, theirs)
    assert merged.note == "one\nmine after one\nthree\ntheirs at the end"
    assert (merged.added, merged.removed) == (("theirs at the end",), ("two",))
    assert merged.without_added == "one\nmine after one\nthree"


def test_a_note_line_edited_on_both_sides_keeps_both_theirs_first() -> None:
    merged = merge_note("a\nb\nc", "a\nb, mine\nc", "a\nb, theirs\nc")
    assert merged.note == "a\nb, theirs\nb, mine\nc"
    assert (merged.added, merged.removed) == (("b, theirs",), ())


def test_a_note_line_edited_here_and_deleted_elsewhere_keeps_the_edit() -> None:
    merged = merge_note("a\nb\nc", "a\nb, mine\nc", "a\nc")
    assert merged.note == "a\nb, mine\nc"
    assert (merged.added, merged.removed) == ((), ())


def test_lines_both_sides_appended_alike_are_written_once() -> None:
    merged = merge_note("a", "a\nsame\nmine", "a\nsame")
    assert merged.note == "a\nsame\nmine"
    assert (merged.added, merged.removed) == ((), ())


def test_a_note_cleared_elsewhere_and_saved_unedited_stays_cleared() -> None:
    merged = merge_note("a\n\nb", "a\n\nb", "")
    assert (merged.note, merged.added, merged.removed) == ("", (), ("a", "b"))


def test_a_line_both_sides_wrote_stays_when_what_was_added_elsewhere_is_left_out() -> None:
    """Past the note's cap with what was added elsewhere, the note is saved without it
    (``without_added``): a line the user wrote that the other writer wrote too was left out
    with it, and the user's line was gone from the note saved."""
    long = "x" * 200
    merged = merge_note("a", "a\nsame\nmine", f"a\nsame\n{long}")
    assert merged.note == f"a\nsame\n{long}\nmine"
    assert merged.added == (long,)
    assert merged.without_added == "a\nsame\nmine"


def test_a_line_written_twice_here_and_once_elsewhere_stays_twice() -> None:
    merged = merge_note("a", "a\nTODO\nx\nTODO", "a\nTODO")
    assert merged.note == "a\nTODO\nx\nTODO"
    assert merged.without_added == "a\nTODO\nx\nTODO"


def test_characters_that_only_python_breaks_lines_at_stay_in_their_line() -> None:
    """A form feed, U+2028 or U+0085 inside a line (text copied from a PDF) was taken for a
    line break by the merge, and written back as one: the note's text changed."""
    for odd in ("\x0c", "\x1c", "\x1e", "\x85", "\u2028", "\u2029"):
        base = f"page one{odd}page two"
        merged = merge_note(base, f"{base}\nmine", f"{base}\ntheirs")
        assert merged.note == f"{base}\ntheirs\nmine", repr(odd)


def test_a_long_note_of_like_lines_merges_in_moments() -> None:
    """A note within its cap (100,000 characters) of many like lines (a pasted table, a
    checklist) took the merge minutes (difflib matches lines a pair at a time), all of them
    with the library's lock held: every other command waited and timed out. The lines both
    versions begin and end with are set aside first, and a middle too long to match line
    by line is one change: the merge keeps both sides' lines all the same."""
    import time

    base = "\n".join(["x", "y"] * 10_000)
    mine = "\n".join(["y", "x"] * 10_000)
    theirs = base + "\nappended"
    started = time.process_time()  # CPU time: a guard against a quadratic merge
    merged = merge_note(base, mine, theirs)
    assert time.process_time() - started < 5
    assert merged.note == mine + "\nappended" and merged.added == ("appended",)
    paragraphs = [line for i in range(3_000) for line in (f"paragraph {i}", "")]
    base = "\n".join(paragraphs)
    edited = [*paragraphs]
    edited[3_000] = "edited"
    started = time.process_time()
    merged = merge_note(base, "\n".join(edited), base + "\nappended")
    assert time.process_time() - started < 1
    assert merged.note == "\n".join(edited) + "\nappended"
