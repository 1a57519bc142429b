"""The signs macOS's Option types with the digits (``¡™£¢∞§¶•ªº``) are typed into text fields,
and Esc and a digit sent at once is still Esc then the digit.

A UK keyboard types ``£``, a Spanish one ``º ª ¡``, a German one ``§``: typed into the search
box, each left it and showed a tab (``£``: Read), since the app took it for Esc and a digit,
which Textual reads as that sign (tmux sends Esc then 3 typed within its escape-time at once,
and WezTerm macOS's Option+3 so). The app's terminal now reads Esc and a digit as alt and the
digit (``tui.terminal``), as the kitty keyboard protocol reports Alt+digit, which did nothing:
both are Esc then the digit (the tab) but in a dialog's field, where the digit is typed. On the
list a sign still shows its digit's tab (``tests/tui/test_typed_burst.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from textual import constants
from textual._xterm_parser import XTermParser  # what the terminal driver reads keys with

from tests.tui.helpers import make_app, opened, ready, wait_for
from tests.tui.test_search_word_keys import terminal_keys
from tui.keys import character_key
from tui.terminal import lenient_decoder

SIGNS = "¡™£¢∞§¶•ªº"
ROOT = Path(__file__).resolve().parents[2]


def keys(sent: str) -> list[tuple[str, str | None]]:
    return [(event.key, event.character) for event in terminal_keys(sent)]


def test_the_terminal_reads_esc_and_a_digit_as_alt_and_a_sign_as_itself() -> None:
    assert keys("\x1b2") == [("alt+2", None)]
    assert keys("\x1b3j") == [("alt+3", None), ("j", "j")]
    assert keys("£") == [("pound_sign", "£")]
    assert keys("\x1b[50;3u") == [("alt+2", None)]  # the kitty protocol's Alt+2
    assert keys(SIGNS) == [(character_key(sign), sign) for sign in SIGNS]


def test_esc_then_a_digit_in_the_next_read_is_alt_and_the_digit_within_the_escape_delay() -> None:
    """Esc then 2 typed quickly outside tmux come in two reads: Textual's parser holds the
    ESC for its escape delay, and read the pair as ``™`` too; after the delay they are two
    keys, Esc and 2."""
    decode = lenient_decoder("utf-8")().decode
    parser = XTermParser()
    read = [*parser.feed(decode(b"\x1b")), *parser.feed(decode(b"2")), *parser.feed("")]
    assert [(e.key, e.character) for e in read] == [("alt+2", None)]
    decode = lenient_decoder("utf-8")().decode
    parser = XTermParser()
    read = [*parser.feed(decode(b"\x1b"))]
    time.sleep(constants.ESCAPE_DELAY + 0.02)
    read += [*parser.tick(), *parser.feed(decode(b"2")), *parser.feed("")]
    assert [(e.key, e.character) for e in read] == [("escape", "\x1b"), ("2", "2")]


def test_esc_then_a_digit_read_late_is_esc_then_the_digit() -> None:
    """The input thread late (the app's thread holding the interpreter): the 2 typed within
    the escape delay is read after it, before the parser's tick gave the Esc out; the parser
    read the pair as ``™``, which the search box typed (it left it for the Starred tab)."""
    decode = lenient_decoder("utf-8")().decode
    parser = XTermParser()
    read = [*parser.feed(decode(b"\x1b")), *parser.tick()]
    time.sleep(constants.ESCAPE_DELAY + 0.02)
    read += [*parser.feed(decode(b"2")), *parser.tick(), *parser.feed("")]
    assert [(e.key, e.character) for e in read] == [("escape", "\x1b"), ("2", "2")]


def test_without_the_kitty_protocol_esc_and_a_digit_are_stand_ins() -> None:
    """Textual reads no kitty report then: the decoder left ESC 2 as it is, which Textual
    reads as ``™``; it gives it, and ESC ^H (Alt+Backspace), as the stand-ins the app takes for
    alt+2 and alt+backspace (``tests/tui/test_keys_without_kitty.py``)."""
    from tui.stand_ins import STAND_IN

    code = (
        "from tui.terminal import lenient_decoder\n"
        "print(repr(lenient_decoder('utf-8')().decode(b'\\x1b2\\x1b\\x08', final=True)))"
    )
    env = {**os.environ, "TEXTUAL_DISABLE_KITTY_KEY": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == repr(STAND_IN["alt+2"] + STAND_IN["alt+backspace"])


async def test_the_signs_are_typed_into_the_search_box_and_the_note_editor(
    seeded_home: Path,
) -> None:
    from textual.widgets import TextArea

    from tui.screens.dialogs import NoteEditor

    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        box = screen.search_box
        await pilot.press("slash", *"cost ")
        for event in terminal_keys(SIGNS):
            app.post_message(event)
        await wait_for(pilot, lambda: box.value == f"cost {SIGNS}")
        assert app.focused is box and screen.view.tab == "inbox"
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.focused is screen.paper_list)
        await pilot.pause(0.5)  # (a key right after leaving the box is held back)
        editor = await opened(pilot, "n", NoteEditor)
        for event in terminal_keys(SIGNS):
            app.post_message(event)
        area = editor.query_one(TextArea)
        await wait_for(pilot, lambda: area.text == SIGNS)
        assert app.screen is editor and screen.view.tab == "inbox"


async def test_alt_and_a_digit_shows_the_tab_and_types_the_digit_in_a_dialog(
    seeded_home: Path,
) -> None:
    """The kitty protocol's Alt+2 on the list shows the Starred tab, as Alt+2 (ESC 2) does
    elsewhere, and in the search box leaves it for the Read tab, the search kept; in the tag
    prompt ESC 3 types 3 (it typed ``£``), the prompt open."""
    from textual.widgets import Input

    from tui.screens.dialogs import TextPrompt

    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        prompt = await opened(pilot, "t", TextPrompt)
        for event in terminal_keys("\x1b3"):
            app.post_message(event)
        field = prompt.query_one(Input)
        await wait_for(pilot, lambda: field.value == "3")
        assert app.screen is prompt and screen.view.tab == "inbox"
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        for event in terminal_keys("\x1b[50;3u"):
            app.post_message(event)
        await wait_for(pilot, lambda: screen.view.tab == "starred")
        await pilot.press("slash", *"graph")
        await wait_for(pilot, lambda: screen.view.query == "graph")
        for event in terminal_keys("\x1b[51;3u"):
            app.post_message(event)
        await wait_for(pilot, lambda: screen.view.tab == "read")
        assert app.focused is screen.paper_list and screen.search_box.value == "graph"
