"""With ``TEXTUAL_DISABLE_KITTY_KEY`` set, Textual reads no kitty key report, and the keys the
terminal's decoder gives as such (``tui.terminal.TerminalInput``) were left as the terminal
sent them, which Textual reads its own way: ESC 2 typed ``™`` into the search box instead of
leaving it for the Starred tab, and Alt+Backspace (ESC DEL, read as ctrl+w) deleted back to a
space (``foo-bar`` whole) instead of the word (``bar``). They are read as without the variable
now: the decoder gives each as a stand-in (``tui.stand_ins``) the app takes for the key.

The bytes go through the real decoder and Textual's real parser in a child process started
with the variable set (Textual reads it as it is imported), and the keys they give are posted
to the app as its driver posts them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual import events

from tests.tui.helpers import make_app, opened, ready, wait_for

ROOT = Path(__file__).resolve().parents[2]

_PARSE = """
import json, sys, time
from textual import constants, events
from textual._xterm_parser import XTermParser
from tui.terminal import lenient_decoder
assert constants.DISABLE_KITTY_KEY == (sys.argv[1] == "off")
decode, parser = lenient_decoder("utf-8")().decode, XTermParser()
read = []
for chunk in sys.argv[2:]:
    if chunk == "wait":  # the escape delay gone by, the parser's tick not yet run
        time.sleep(constants.ESCAPE_DELAY + 0.02)
        continue
    read += parser.feed(decode(chunk.encode()))
read += parser.feed("")
print(json.dumps([(e.key, e.character) for e in read if isinstance(e, events.Key)]))
"""


def parsed(kitty: bool, *reads: str) -> list[events.Key]:
    """The keys Textual's parser reads from ``reads`` (each one read of the terminal; "wait":
    the escape delay) through the app's decoder, with the kitty protocol on or off."""
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DISABLE_KITTY_KEY"}
    if not kitty:
        env["TEXTUAL_DISABLE_KITTY_KEY"] = "1"
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", _PARSE, "on" if kitty else "off", *reads],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return [events.Key(key, character) for key, character in json.loads(done.stdout)]


def taken(keys: list[events.Key]) -> list[tuple[str, str | None]]:
    """The keys as the app takes them (a stand-in as the key it stands for)."""
    from tui.stand_ins import stood_for

    return [(k.key, k.character) for k in map(stood_for, keys)]


@pytest.mark.parametrize(
    "reads",
    [
        ("\x1b2",),
        ("\x1b0j",),
        ("\x1b\x7f",),
        ("\x1b\x08",),
        ("\x1bf",),
        ("ab\x1b", "3"),  # Esc, then 3 in the next read, within the escape delay
        ("\x1b", "\x7f"),
        ("\x1b", "wait", "2"),  # … after it: Esc, then 2
        ("£™\ufdd2",),  # signs typed are signs; a noncharacter sent is no stand-in
    ],
)
def test_without_the_kitty_protocol_the_keys_are_read_as_with_it(reads: tuple[str, ...]) -> None:
    assert taken(parsed(False, *reads)) == taken(parsed(True, *reads))


def test_without_the_kitty_protocol_esc_2_and_esc_del_are_alt_2_and_alt_backspace() -> None:
    assert taken(parsed(False, "\x1b2", "\x1b\x7f")) == [
        ("alt+2", None),
        ("alt+backspace", None),
    ]
    assert taken(parsed(False, "£")) == [("pound_sign", "£")]
    # a noncharacter the terminal sends is none of the stand-ins, with the protocol or not
    for kitty in (False, True):
        assert taken(parsed(kitty, "\ufdd2")) == [("replacement_character", "\ufffd")]


async def test_without_the_kitty_protocol_the_search_box_takes_esc_2_and_alt_backspace(
    seeded_home: Path,
) -> None:
    """In the search box Alt+Backspace deletes the word (``bar``), ctrl+w back to a space, and
    ESC 2 leaves the box for the Starred tab, the search kept; in the tag prompt ESC 3 types 3."""
    from textual.widgets import Input

    from tui.screens.dialogs import TextPrompt

    alt_backspace, esc_2, esc_3 = (parsed(False, sent) for sent in ("\x1b\x7f", "\x1b2", "\x1b3"))
    app = make_app(seeded_home)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot)
        prompt = await opened(pilot, "t", TextPrompt)
        for event in esc_3:
            app.post_message(event)
        field = prompt.query_one(Input)
        await wait_for(pilot, lambda: field.value == "3")
        assert app.screen is prompt
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        box = screen.search_box
        await pilot.press("slash", *"graph foo-bar")
        await wait_for(pilot, lambda: box.value == "graph foo-bar")
        for event in alt_backspace:
            app.post_message(event)
        await wait_for(pilot, lambda: box.value == "graph foo-")
        await pilot.press("ctrl+w")
        await wait_for(pilot, lambda: box.value == "graph ")
        assert app.focused is box
        for event in esc_2:
            app.post_message(event)
        await wait_for(pilot, lambda: screen.view.tab == "starred")
        assert box.value == "graph " and app.focused is not box
