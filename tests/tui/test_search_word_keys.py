"""Readline's word keys in the search box: Alt+b and Alt+f move a word back and forward, Alt+d
deletes the word after the cursor, Alt+Backspace the word before it.

A terminal sends them as ESC and the key, which Textual reads as ctrl+left, ctrl+right, alt+d
and ctrl+w; one that speaks the kitty keyboard protocol (kitty, WezTerm, foot: Textual asks
for it) as alt+b, alt+f, alt+d, alt+backspace. Before: Alt+d left the search box (read as
Esc then d) and the d was "held back" with a warning; under the kitty protocol Alt+b and
Alt+f did nothing, Alt+d did nothing, and Alt+Backspace deleted the word after the cursor.
The keys are posted as Textual's own parser reads the terminal's bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual._xterm_parser import XTermParser  # what the terminal driver reads keys with

from tests.tui.helpers import make_app, messages, ready, wait_for

SIZE = (100, 30)
TEXT = "diffusion model sampler"

#: What each terminal sends for Alt+b, Alt+f, Alt+d, Alt+Backspace.
SENT = {
    "ESC": {"b": "\x1bb", "f": "\x1bf", "d": "\x1bd", "backspace": "\x1b\x7f"},
    "kitty": {
        "b": "\x1b[98;3u",
        "f": "\x1b[102;3u",
        "d": "\x1b[100;3u",
        "backspace": "\x1b[127;3u",
    },
}


def terminal_keys(sent: str) -> list[events.Key]:
    """The keys Textual reads from ``sent`` (an ESC alone with the next byte: the parser's
    end of input stands for its escape delay)."""
    parser = XTermParser()
    return [
        event for event in (*parser.feed(sent), *parser.feed("")) if isinstance(event, events.Key)
    ]


@pytest.mark.parametrize("terminal", sorted(SENT))
async def test_alt_word_keys_move_and_delete_words_in_the_search_box(
    seeded_home: Path, terminal: str
) -> None:
    sent = SENT[terminal]
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        box = screen.search_box

        async def alt(key: str) -> None:
            for event in terminal_keys(sent[key]):
                app.post_message(event)
            await pilot.pause(0.2)
            assert app.focused is box, f"Alt+{key} left the search box"

        await pilot.press("slash", *TEXT)
        await wait_for(pilot, lambda: box.value == TEXT)
        await alt("b")
        assert box.cursor_position == TEXT.index("sampler")
        await alt("b")
        assert box.cursor_position == TEXT.index("model")
        await pilot.press("home")
        await alt("f")  # as ctrl+right moves: to the next word's start
        assert box.cursor_position == TEXT.index("model")
        await alt("d")
        assert (box.value, box.cursor_position) == ("diffusion sampler", TEXT.index("model"))
        await pilot.press("end")
        await alt("backspace")
        assert box.value == "diffusion "
        await wait_for(pilot, lambda: screen.view.query == "diffusion")
        assert not any("Held back" in m for m in messages(app)), messages(app)


async def test_esc_alone_still_leaves_the_search_box_and_alt_j_still_moves(
    seeded_home: Path,
) -> None:
    """The word keys take nothing from Esc: Esc leaves the box (keeping the filter), and Esc
    and j read as one (alt+j) are still Esc then j."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("slash", *"graph")
        await wait_for(pilot, lambda: screen.view.query == "graph")
        for event in terminal_keys("\x1bj"):
            app.post_message(event)
        await wait_for(pilot, lambda: screen.paper_list.cursor == 1)
        assert app.focused is screen.paper_list and screen.search_box.value == "graph"
        await pilot.pause(0.5)  # (a key right after leaving the box is held back)
        await pilot.press("slash", "end", *"s")
        await wait_for(pilot, lambda: screen.view.query == "graphs")
        for event in terminal_keys("\x1b"):
            app.post_message(event)
        await wait_for(pilot, lambda: app.focused is screen.paper_list)
        assert screen.search_box.value == "graphs"
