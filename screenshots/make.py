"""Regenerate the README's screenshots from the real app: ``python screenshots/make.py``.

Each SVG comes from the running app (``App.run_test`` + ``save_screenshot``), never drawn by
hand: on the real ICLR 2025 list when ``../shared/data`` is beside the checkout (the bundled
sample otherwise), with a few decisions, a note and a tag made first. The browser's views
(``browser.png``, ``phone.png``) are ``papers serve`` on the same library photographed by
headless Chromium (``benchmarks/_browser.py``); without Chromium or the web extra they are
left as they are, saying why.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from textual.widgets import Input

if __package__ in (None, ""):  # run as a script: benchmarks/ is beside this folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import _browser
from storage import Library
from tui.app import PapersApp, sample_files
from tui.screens.main import MainScreen

OUT = Path(__file__).resolve().parent
REAL_LIST = OUT.parents[1] / "shared" / "data" / "iclr2025.jsonl"


def make_home(folder: Path) -> Path:
    """The real list (or the sample) with a few decisions, a note and a tag."""
    home = folder / "home"
    library = Library(home)
    library.import_files([REAL_LIST] if REAL_LIST.is_file() else sample_files())
    ids = [p.id for p in library.papers()]
    library.set_status(ids[1], "starred")
    library.set_status(ids[3], "read")
    library.set_status(ids[4], "skipped")
    library.set_statuses(ids[10:14], "starred")
    library.set_note(ids[0], "Compare the dropout analysis with DropEdge; try on OGB.")
    library.set_tags(ids[0], ["graphs", "reading-group"])
    return home


async def shoot(
    home: Path, name: str, size: tuple[int, int], keys: Sequence[str] = (), theme: str = ""
) -> Path:
    """Run the app at ``size`` (in ``theme``), press ``keys``, save ``name``.svg."""
    app = PapersApp(Library(home))
    async with app.run_test(size=size) as pilot:
        while not (isinstance(app.screen, MainScreen) and app.main_screen.index is not None):
            await pilot.pause(0.02)
        if theme:
            app.theme = theme
        for field in app.query(Input):
            field.cursor_blink = False
        for key in keys:
            await pilot.press(key)
        for _ in range(50):  # let a search finish
            screen = app.main_screen
            if not screen.view.query or screen.view.hit_rows is not None:
                break
            await pilot.pause(0.02)
        await pilot.pause(0.2)
        path = OUT / f"{name}.svg"
        app.save_screenshot(filename=path.name, path=str(OUT))
    return path


def photograph_served(home: Path) -> list[Path]:
    """``papers serve`` on ``home`` in headless Chromium: a 120x36 page and a phone's."""
    why = _browser.missing()
    if why is not None:
        print(f"browser.png, phone.png left as they are: {why}", file=sys.stderr)
        return []
    served = _browser.serve(home)
    shots = []
    try:
        for name, size in (("browser", _browser.WINDOW), ("phone", _browser.PHONE)):
            with _browser.Browser(size=size) as browser:
                browser.open(served.url)
                browser.wait_for(lambda text: "Inbox · 1 / " in text, timeout=30)
                time.sleep(1.0)  # the fade-in of the page, the font
                shots.append(browser.screenshot(OUT / f"{name}.png"))
    finally:
        served.stop()
    return shots


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        home = make_home(Path(folder))
        shots = [
            await shoot(home, "main", (120, 36)),
            await shoot(home, "search", (120, 36), ["slash", *"difusion sampling", "escape"]),
            await shoot(home, "zoom", (120, 36), ["z"]),
            await shoot(home, "marked", (120, 36), ["space", "j", "j", "space", "j", "space", "M"]),
            await shoot(home, "narrow", (80, 24), ["j", "l", "space"]),
            await shoot(home, "help", (120, 36), ["question_mark"]),
            await shoot(home, "queue", (120, 36), ["2", "j", "right_square_bracket"]),
        ]
        shots += photograph_served(home)
        # last: the theme chosen is remembered in the library's folder
        shots.append(await shoot(home, "light", (120, 36), ["5"], theme="textual-light"))
    for shot in shots:
        print(f"wrote {shot.relative_to(OUT.parent)}", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())
