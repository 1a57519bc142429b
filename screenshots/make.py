"""Regenerate the README's screenshots from the real app: ``python screenshots/make.py``.

Each SVG comes from the running app (``App.run_test`` + ``save_screenshot``) on the bundled
sample with a few decisions made, never drawn by hand.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from textual.widgets import Input

from storage import Library
from tui.app import PapersApp, sample_files
from tui.screens.main import MainScreen

OUT = Path(__file__).resolve().parent


def sample_home(folder: Path) -> Path:
    """The bundled sample with a few decisions, a note and a tag."""
    home = folder / "home"
    library = Library(home)
    library.import_files(sample_files())
    ids = [p.id for p in library.papers()]
    library.set_status(ids[1], "starred")
    library.set_status(ids[3], "read")
    library.set_status(ids[4], "skipped")
    library.set_note(ids[0], "Compare the merging with model soups.")
    library.set_tags(ids[0], ["editing", "llm"])
    return home


async def shoot(home: Path, name: str, size: tuple[int, int], keys: Sequence[str] = ()) -> Path:
    """Run the app at ``size``, press ``keys``, save ``name``.svg."""
    app = PapersApp(Library(home))
    async with app.run_test(size=size) as pilot:
        while not (isinstance(app.screen, MainScreen) and app.main_screen.index is not None):
            await pilot.pause(0.02)
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


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        home = sample_home(Path(folder))
        shots = [
            await shoot(home, "main", (120, 36)),
            await shoot(home, "search", (120, 36), ["slash", *"difusion sampling", "escape"]),
            await shoot(home, "help", (120, 36), ["question_mark"]),
            await shoot(home, "narrow", (60, 20), ["j"]),
        ]
    for shot in shots:
        print(f"wrote {shot.relative_to(OUT.parent)}", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())
