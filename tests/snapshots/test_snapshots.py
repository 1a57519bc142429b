"""SVG snapshots of the real app at fixed sizes (cursor blink frozen by tests/tui/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from storage import Library
from tests.tui.conftest import clipboard, no_cursor_blink  # noqa: F401 - fixtures
from tests.tui.helpers import make_app, ready, wait_for


def decided_home(home: Path) -> Path:
    """The sample with a few decisions, so every mark shows."""
    lib = Library(home)
    ids = [p.id for p in lib.papers()]
    lib.set_status(ids[1], "starred")
    lib.set_status(ids[3], "read")
    lib.set_status(ids[4], "skipped")
    return home


async def settle(pilot: Pilot[None]) -> None:
    await ready(pilot)
    await pilot.pause(0.1)


def test_inbox(snap_compare: Any, seeded_home: Path) -> None:
    app = make_app(decided_home(seeded_home))
    assert snap_compare(app, terminal_size=(120, 36), run_before=settle)


def test_all_tab_with_marks(snap_compare: Any, seeded_home: Path) -> None:
    app = make_app(decided_home(seeded_home))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("5", "j", "j")

    assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)


def test_search(snap_compare: Any, seeded_home: Path) -> None:
    app = make_app(seeded_home)

    async def run_before(pilot: Pilot[None]) -> None:
        screen = await ready(pilot)
        await pilot.press("slash", *"difusion")
        await wait_for(
            pilot, lambda: screen.view.query == "difusion" and screen.view.hit_rows is not None
        )
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)


def test_help(snap_compare: Any, seeded_home: Path) -> None:
    app = make_app(seeded_home)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)


def test_narrow(snap_compare: Any, seeded_home: Path) -> None:
    app = make_app(decided_home(seeded_home))
    assert snap_compare(app, terminal_size=(60, 20), run_before=settle)


def test_tiny(snap_compare: Any, seeded_home: Path) -> None:
    app = make_app(seeded_home)
    assert snap_compare(app, terminal_size=(40, 12), run_before=settle)


def test_narrow_80x24_abstract_scrolled(snap_compare: Any, seeded_home: Path) -> None:
    """At 80x24 the abstract is read from the keyboard: into the paper, a page down."""
    app = make_app(decided_home(seeded_home))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("l", "space")
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_zoomed_paper(snap_compare: Any, seeded_home: Path) -> None:
    app = make_app(decided_home(seeded_home))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("j", "z")
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)


def test_light_theme(snap_compare: Any, seeded_home: Path) -> None:
    home = decided_home(seeded_home)
    lib = Library(home)
    lib.set_note(lib.papers()[0].id, "Compare with model soups.")
    app = make_app(home)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        pilot.app.theme = "textual-light"
        await pilot.press("5")
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)


def test_marked_view(snap_compare: Any, seeded_home: Path) -> None:
    app = make_app(decided_home(seeded_home))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("space", "j", "space", "j", "j", "space", "M")
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)


def test_rated_venue(snap_compare: Any, home: Path, tmp_path: Path) -> None:
    """A fetched venue's ratings in the list's rating column (a paper without one: blank)."""
    import json

    statuses = ["Oral", "Poster", "Spotlight", "Poster", "Poster", "Rejected"]
    records = [
        {
            "title": f"Paper {i} on {topic}",
            "abstract": f"We study {topic} in paper {i}, with its reviews.",
            "status": status,
            **({"ratings": ratings} if ratings else {}),
        }
        for i, (topic, status, ratings) in enumerate(
            zip(
                ["diffusion", "graphs", "agents", "retrieval", "proofs", "robots"],
                statuses,
                [[8, 8, 10], [6, 5, 6], [], [3, 5, 6, 5], [10, 10, 10], [1, 3]],
                strict=True,
            )
        )
    ]
    source = tmp_path / "venue.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    Library(home).import_file(source)
    app = make_app(home)
    assert snap_compare(app, terminal_size=(120, 36), run_before=settle)


def test_tabs_at_40_columns(snap_compare: Any, seeded_home: Path) -> None:
    """A phone's width with saved searches, one of them shown: the tabs that fit, whole, the
    one shown among them, the others counted ("+N more")."""
    from storage.files.saved_searches import SavedSearches

    home = decided_home(seeded_home)
    searches = SavedSearches(home)
    for name in ("model", "learning", "graph", "language", "agents"):
        searches.save(name, name)
    app = make_app(home)

    async def run_before(pilot: Pilot[None]) -> None:
        screen = await ready(pilot)
        await pilot.press("7")
        await wait_for(pilot, lambda: screen.view.tab == "saved:learning")
        await wait_for(pilot, lambda: all(tab.found is not None for tab in screen.view.saved))
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=(40, 20), run_before=run_before)


def test_note_editor_at_60_columns(snap_compare: Any, seeded_home: Path) -> None:
    """A dialog at 60 columns: its keys' line worded to fit, none wrapped word by word."""
    app = make_app(decided_home(seeded_home))

    async def run_before(pilot: Pilot[None]) -> None:
        await ready(pilot)
        await pilot.press("n")
        await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "NoteEditor")
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=(60, 24), run_before=run_before)
