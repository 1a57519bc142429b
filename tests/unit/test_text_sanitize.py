"""Screen-safe text (storage/text/sanitize.py): control characters shown, never obeyed."""

from __future__ import annotations

from storage.text.sanitize import printable, printable_block
from tui import text as tui_text


def test_control_characters_become_visible_symbols() -> None:
    assert printable("a\x1b[31mred") == "a␛[31mred"
    assert printable("del\x7f and \x00") == "del␡ and ␀"
    assert printable("c1 \x85 \x9b") == "c1 � �"
    assert printable("tab\tand\nnewline") == "tab and newline"


def test_blocks_keep_their_newlines() -> None:
    assert printable_block("one\n\ttwo\x07\nthree") == "one\n two␇\nthree"


def test_unicode_text_is_left_alone() -> None:
    text = "ℓ₂ · ParaSolver — “quoted” 漢字"
    assert printable(text) == text == printable_block(text)


def test_the_app_names_still_work() -> None:
    assert tui_text.printable is printable and tui_text.printable_block is printable_block
