"""Copying a text too long to show: the note does not offer to select what it cannot show
whole, points to writing a file, and says when the text is more than terminals take by OSC 52."""

from __future__ import annotations

from pathlib import Path

from tests.tui.helpers import FakeClipboard, big_library, make_app, ready, wait_for
from tui.links import OSC52_LIMIT, osc52_size
from tui.screens.export import ExportScreen

NO_CLIPBOARD = "Pyperclip could not find a copy/paste mechanism for your system."


async def copied_note(home: Path) -> str:
    """``e`` then ``ctrl+y`` in the Inbox: the note that says what became of the copy."""
    app = make_app(home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen))
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: any(n.title == "Copy" for n in app._notifications))
        [note] = [n for n in app._notifications if n.title == "Copy"]
        assert app.clipboard  # sent by OSC 52 all the same
        assert osc52_size(app.clipboard) > 0
        return note.message


async def test_a_long_copy_points_to_a_file_not_to_selecting(
    tmp_path: Path, clipboard: FakeClipboard
) -> None:
    clipboard.fail = NO_CLIPBOARD
    big_library(tmp_path / "home", tmp_path, 60)
    message = await copied_note(tmp_path / "home")
    assert "select it here" not in message and "lines more" not in message
    assert "too long to select here" in message
    assert "e, then Enter, writes it to a file" in message
    assert "may not take" not in message  # well within what terminals take


async def test_a_copy_too_big_for_osc52_says_the_terminal_may_not_take_it(
    tmp_path: Path, clipboard: FakeClipboard
) -> None:
    clipboard.fail = NO_CLIPBOARD
    big_library(tmp_path / "home", tmp_path, 1500)
    message = await copied_note(tmp_path / "home")
    assert "select it here" not in message
    assert "the terminal may not take it" in message
    assert "e, then Enter, writes it to a file" in message


def test_the_osc52_size_is_that_of_the_sequence() -> None:
    assert osc52_size("abc") == 4  # base64
    assert osc52_size("é" * 3) == 8  # UTF-8 first
    assert OSC52_LIMIT == 100_000
