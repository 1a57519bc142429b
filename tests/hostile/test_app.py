"""Every screen of the app on a hostile library: no control character from the data is drawn.

Each test opens one screen (the main one walked paper by paper on every tab, then each
dialog) and reads what the screen's compositor would hand the driver: every strip of the
screen, segment by segment. A segment holding a forbidden character is a leak, reported with
the widget that drew it. A last test runs the real app in a pseudo-terminal and looks for the
hostile sequences in the bytes the terminal received.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.css.query import NoMatches
from textual.errors import NoWidget
from textual.pilot import Pilot
from textual.widgets import Input

from benchmarks._pty import spawn
from storage import Library
from tests.hostile.conftest import write_hostile_lists
from tests.hostile.hostile import HOSTILE, leaks
from tests.tui.helpers import make_app, one_paper_list, ready, settled, wait_for
from tui.app import PapersApp
from tui.commands import BY_ID
from tui.paths import shown

SIZE = (120, 36)


def drawn_leaks(app: PapersApp) -> dict[str, set[str]]:
    """Forbidden characters in what the current screen draws, by the widget that drew them."""
    compositor = app.screen._compositor
    found: dict[str, set[str]] = {}
    for y, strip in enumerate(compositor.render_strips()):
        x = 0
        for segment in strip:
            bad = leaks(segment.text)
            if bad and segment.control is None:
                try:
                    widget = type(compositor.get_widget_at(x, y)[0]).__name__
                except NoWidget:
                    widget = "(no widget)"
                found.setdefault(widget, set()).update(bad)
            x += segment.cell_length
    return found


async def walk_main_screen(pilot: Pilot[None], app: PapersApp) -> dict[str, set[str]]:
    """Every tab, every paper under the cursor (so the pane shows each), the pane focused."""
    found: dict[str, set[str]] = {}

    def look() -> None:
        for widget, bad in drawn_leaks(app).items():
            found.setdefault(widget, set()).update(bad)

    for tab in "12345":
        await pilot.press(tab)
        for _ in range(len(app.papers) if tab == "5" else 3):
            look()
            # The action of `j` (a key press waits ~60 ms for the screen to settle; the move
            # shows its paper in the same frame anyway).
            await app.main_screen.run_action(BY_ID["down"].action)
            await pilot.pause(0)
        await pilot.press("g", "l", "J")
        look()
        await pilot.press("h")
    return found


async def test_the_main_screen(hostile_home: Path) -> None:
    app = make_app(hostile_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert await walk_main_screen(pilot, app) == {}


async def open_similar(pilot: Pilot[None]) -> None:
    await pilot.press("5", "m")


async def open_topics(pilot: Pilot[None]) -> None:
    await pilot.press("1", "T")


async def open_bulk(pilot: Pilot[None]) -> None:
    await pilot.press("5", "space", "j", "space", "D")


async def open_palette(pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+p", *"star")


async def failed_import(pilot: Pilot[None]) -> None:
    await pilot.press("a")
    await pilot.pause(0.1)
    field = pilot.app.screen.query_one("#import-path", Input)
    field.value = f"/nowhere/{HOSTILE['OSC 52 clipboard']}{HOSTILE['8-bit CSI']}.jsonl"
    await pilot.press("enter")
    status = pilot.app.screen.query_one("#import-status")
    await wait_for(pilot, lambda: "Not imported" in str(status.render()))


def keys(*pressed: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def press(pilot: Pilot[None]) -> None:
        await pilot.press(*pressed)

    return press


#: Each screen over the main one, and how to open it on a hostile paper (tab 5: every paper;
#: the first ones have hostile notes and tags).
SCREENS: dict[str, Callable[[Pilot[None]], Awaitable[None]]] = {
    "help": keys("question_mark"),
    "stats": keys("S"),
    "similar papers": open_similar,
    "topics": open_topics,
    "note editor": keys("5", "n"),
    "tags prompt": keys("5", "t"),
    "export dialog": keys("5", "e"),
    "import dialog, failed": failed_import,
    "bulk decision": open_bulk,
    "command palette": open_palette,
}


@pytest.mark.parametrize("screen", list(SCREENS))
async def test_each_screen(screen: str, hostile_home: Path) -> None:
    app = make_app(hostile_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        main = app.screen
        await SCREENS[screen](pilot)
        await wait_for(pilot, lambda: app.screen is not main)
        await pilot.pause(0.3)  # workers (similarity, topics) fill the screen
        assert drawn_leaks(app) == {}


@pytest.mark.parametrize("hidden", ["clear screen", "8-bit CSI", "a newline", "a tab"])
async def test_a_file_name_completed_into_a_path_field(
    hidden: str, hostile_home: Path, tmp_path: Path
) -> None:
    """The field shows the name's printable form, and Enter imports the real file."""
    text = {"a newline": "\n", "a tab": "\t"}.get(hidden) or HOSTILE[hidden]
    folder = tmp_path / f"lists {text}"
    folder.mkdir()
    one_paper_list(folder / f"only {text}.jsonl", "Completed", "We introduce HIDDEN, found by Tab.")
    (tmp_path / "other").mkdir()  # so that the folder's name too is completed from a prefix
    app = make_app(hostile_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        before = len(app.papers)
        await pilot.press("a")
        await pilot.pause(0.1)
        field = app.screen.query_one("#import-path", Input)
        field.value = f"{tmp_path}/l"
        field.cursor_position = len(field.value)
        await pilot.press("tab")
        await pilot.press("o", "tab")
        await pilot.pause(0.1)
        assert field.value == f"{tmp_path}/{shown(folder.name)}/{shown(f'only {text}.jsonl')}"
        assert leaks(field.value) == []
        assert drawn_leaks(app) == {}
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app.papers) == before + 1)
        assert drawn_leaks(app) == {}


async def test_notifications(hostile_home: Path, tmp_path: Path) -> None:
    # A config that names hostile keys: its warnings quote them.
    (hostile_home / "config.toml").write_text(
        '[keys]\nstar = "\\u001b]52;c;cHduZWQ=\\u0007"\nskip = "\\u009b2J"\n', encoding="utf-8"
    )
    app = make_app(hostile_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert len([n for n in app._notifications if n.title == "Config"]) == 2
        assert drawn_leaks(app) == {}
        # An import whose lists have hostile names: the notification names them.
        await pilot.press("a")
        await pilot.pause(0.1)
        field = app.screen.query_one("#import-path", Input)
        field.value = str(write_hostile_lists(tmp_path / "lists")[0].parent)
        await pilot.press("enter", "enter")  # a folder: imported at the second Enter
        await wait_for(pilot, lambda: any("Imported" in n.message for n in app._notifications))
        await settled(pilot)
        await pilot.pause(0.2)
        assert drawn_leaks(app) == {}


def real_papers() -> list[str]:
    script = Path(sys.executable).with_name("papers")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui"]


#: Bytes that only the data could have put in the app's output: Textual writes no 8-bit
#: controls, no bidi overrides, never resets the terminal, sets no title, reads no clipboard.
PAYLOADS = (
    b"\xc2\x9b",
    b"\xc2\x9d",
    "\u202e".encode(),
    "\u2066".encode(),
    b"\x1bc",
    b"\x1b]52;",
    b"\x1b]0;owned",
    b"\x1b[6n",
    b"\x1bP+q",
    b"\x7f",
    b"\x08",
)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_what_the_real_terminal_receives(hostile_home: Path) -> None:
    Library(hostile_home)  # the library opens
    terminal = spawn([*real_papers(), "--home", str(hostile_home)])
    try:
        terminal.wait_for(b"triaged", timeout=60)
        for key in (b"5", b"j" * 30, b"l", b"h", b"G", b"?", b"\x1b", b"S", b"\x1b", b"m"):
            terminal.type(key)
            terminal.quiet(0.05, timeout=2)
        terminal.quiet(0.2, timeout=3)  # the similar papers' worker paints them
    finally:
        terminal.close(quit_keys=None)
    screen = bytes(terminal.screen)
    found = [payload for payload in PAYLOADS if payload in screen]
    assert not found, found


def test_no_query_matches_are_left_unchecked() -> None:
    # The import dialog's ids are the ones the tests above use.
    from tui.screens.importer import ImportScreen

    source = Path(sys.modules[ImportScreen.__module__].__file__ or "").read_text()
    for needed in ('id="import-path"', 'id="import-status"'):
        assert needed in source
    assert NoMatches  # imported for the dialogs' queries
