"""Screen-safe text (storage/text/sanitize.py): control characters shown, never obeyed."""

from __future__ import annotations

import orjson

from storage.text.sanitize import editable_block, json_safe, printable, printable_block
from tui import text as tui_text


def test_control_characters_become_visible_symbols() -> None:
    assert printable("a\x1b[31mred") == "a␛[31mred"
    assert printable("del\x7f and \x00") == "del␡ and ␀"
    assert printable("c1 \x85 \x9b") == "c1 � �"
    assert printable("tab\tand\nnewline") == "tab and newline"


def test_blocks_keep_their_newlines() -> None:
    assert printable_block("one\n\ttwo\x07\nthree") == "one\n two␇\nthree"
    # a Windows line end is a line end; a CR alone would send the cursor back over the line
    assert printable_block("one\r\ntwo\rthree\x07") == "one\ntwo␍three␇"


def test_an_edited_block_keeps_its_line_ends_and_tabs() -> None:
    # a note edited and saved back: only what steers the terminal changes
    assert editable_block("one\r\n\ttwo\x07\r\nthree\rfour") == "one\n\ttwo␇\nthree␍four"
    assert editable_block("a\u2028b\x0bc\x1bd") == "a b␋c␛d"


def test_unicode_text_is_left_alone() -> None:
    text = "ℓ₂ · ParaSolver — “quoted” 漢字"
    assert printable(text) == text == printable_block(text)


def test_the_app_names_still_work() -> None:
    assert tui_text.printable is printable and tui_text.printable_block is printable_block


def test_the_8bit_csi_and_bidirectional_overrides_become_visible() -> None:
    assert printable("\x9b2J") == "�2J"
    rlo = "invoice\u202egpj.exe"
    assert printable(rlo) == "invoice�gpj.exe" == printable_block(rlo)
    isolates = "".join(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
    assert printable(isolates) == "�" * 9


def test_directional_marks_of_ordinary_text_are_kept() -> None:
    text = "שלום\u200f (2025) \u200eabc \u061c"
    assert printable(text) == text


def test_line_and_paragraph_separators_are_spaces() -> None:
    assert printable("a\u2028b\u2029c") == "a b c"
    assert printable_block("a\u2028b\nc") == "a b\nc"


def test_json_keeps_its_data_and_loses_its_controls() -> None:
    values = ["\x1b]52;c;x\x07", "\x9b2J", "\u202e", "\x7f", "\u2028", "\r", "plain ℓ₂"]
    document = orjson.dumps({"v": values}, option=orjson.OPT_INDENT_2).decode()
    safe = json_safe(document)
    assert orjson.loads(safe) == {"v": values}
    assert all(ch in "\n" or ch.isprintable() for ch in safe)
    assert json_safe("[1, 2]\n") == "[1, 2]\n"
