"""A paper's title of a thousand characters in what ``u`` and ctrl+r say: "Undid: TITLE →
starred" and "Undid a move in the reading queue: TITLE" said it whole, a toast over the whole
list (22 lines at 120 columns); cut now as the removal's toast cuts a list's name."""

from __future__ import annotations

from pathlib import Path

from storage import Library
from tests.tui.helpers import make_app, messages, one_paper_list, plist, ready, settled, wait_for

LONG = "Very long title " + "about attention and transformers and diffusion " * 20
ABSTRACT = "We study what a toast says of a paper whose title is longer than any screen."


async def test_undo_and_redo_toasts_cut_a_long_title(seeded_home: Path, tmp_path: Path) -> None:
    library = Library(seeded_home)
    library.import_file(one_paper_list(tmp_path / "long.jsonl", LONG, ABSTRACT))
    long_id = next(p.id for p in library.papers() if p.title.startswith("Very long title"))
    other = next(p.id for p in library.papers() if p.id != long_id)
    library.set_status(other, "starred")
    library.set_status(long_id, "starred")  # second in the queue
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: len(plist(app).row_papers()) == 2)
        await pilot.press("G", "left_curly_bracket")  # the long one to the head
        await wait_for(pilot, lambda: plist(app).row_papers()[0].id == long_id)
        await settled(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: any(m.startswith("Undid a move") for m in messages(app)))
        await settled(pilot)
        await pilot.press("x")  # the long one, the cursor on it again: skipped, then undone
        await wait_for(pilot, lambda: len(plist(app).row_papers()) == 1)
        await settled(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: any(m.startswith("Undid: ") for m in messages(app)))
        await settled(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: any(m.startswith("Redid: ") for m in messages(app)))
        await settled(pilot)
    said = [m for m in messages(app) if m.startswith(("Undid", "Redid"))]
    assert len(said) == 3, said
    for message in said:
        assert "Very long title about attention" in message and "…" in message
        assert len(message) < 160, message
    assert said[1].endswith("… → starred") and said[2].endswith("… → skipped")


async def test_the_removal_question_cuts_a_long_title(seeded_home: Path, tmp_path: Path) -> None:
    """Delete on a paper of a thousand-character title asked with all of it: on a screen of
    80x24 the buttons and the word that u brings it back were pushed below the dialog."""
    from textual.widgets import Button

    from tests.tui.helpers import opened
    from tui.screens.remove import ConfirmRemoval

    library = Library(seeded_home)
    library.import_file(one_paper_list(tmp_path / "long.jsonl", LONG, ABSTRACT))
    long_id = next(p.id for p in library.papers() if p.title.startswith("Very long title"))
    library.set_status(long_id, "starred")
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: [p.id for p in plist(app).row_papers()] == [long_id])
        dialog = await opened(pilot, "delete", ConfirmRemoval)
        assert dialog.question.startswith("Remove “Very long title about attention")
        assert "…” from the library?" in dialog.question and len(dialog.question) < 200
        button = dialog.query_one("#remove", Button)
        assert button.region.bottom <= app.size.height - 1  # on the screen, above the footer
        await pilot.press("n")
        await settled(pilot)
