"""Each dialog names every key that closes it, in its footer and in its words, from its
bindings: the similar papers, the topics, the help, the queue's sorts and the tab list said
``esc Close`` (and "Esc closes"), though q closes each of them too (m the similar papers,
? the help); the removal's footer said ``n Cancel``, though Esc cancels too."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Label

from storage import Library
from tests.tui.helpers import make_app, ready, wait_for
from tests.tui.test_dialog_sizes import footer
from tui.widgets.key_bar import KeyBar


def test_every_dialogs_footer_names_every_key_that_closes_it() -> None:
    """Every dialog's closing command: its footer entry names each of its keys (and the help's
    its opener's, ``?`` as remapped: ``help = "f10"``), as bound, remapped too."""
    from tui.commands import BY_ID, COMMANDS, SCOPES, closes, closing_keys, key_label, keys_for

    for keymap in ({}, {"similar_close": "escape,x", "help": "f10", "prompt_cancel": "ctrl+g"}):
        bar = KeyBar(keymap)
        for scope in SCOPES:
            closing = [c for c in COMMANDS if c.scope == scope and closes(c)]
            if not closing:
                continue
            bar.scope = scope
            named = {entry[0]: entry[2] for entry in bar.entries()}
            [command] = closing
            keys = keys_for(command, keymap)
            if command.opener:
                keys += keys_for(BY_ID[command.opener], keymap)
            wanted = " ".join(dict.fromkeys(key_label(k) for k in keys))
            assert named[command.id] == wanted, (scope, named)
    assert closing_keys("similar", {}) == ["escape", "q", "m"]
    assert closing_keys("help", {"help": "f10"}) == ["escape", "q", "question_mark", "f10"]


#: A dialog: the key that opens it, its footer's closing entry, its words' (None: it has
#: none about its keys), and a key that closes it other than Esc.
DIALOGS = [
    ("m", "esc q m Close", "Esc, q, m close", "m"),
    ("T", "esc q Close", "Esc, q close", "q"),
    ("question_mark", "esc q ? Close", "Esc, q, ? close", "q"),
    ("0", "esc q Close", None, "q"),
    ("Q", "esc q Close", None, "q"),
    ("delete", "n esc Cancel", None, "n"),
    ("shift+delete", "esc q Cancel", "Esc, q close", "q"),
]


@pytest.mark.parametrize(("key", "closing", "words", "closer"), DIALOGS)
async def test_each_dialog_names_the_keys_that_close_it(
    seeded_home: Path, key: str, closing: str, words: str | None, closer: str
) -> None:
    library = Library(seeded_home)
    for paper in library.papers()[:3]:
        library.set_status(paper.id, "starred")
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        if key == "Q":  # the reading queue's, on the Starred tab
            await pilot.press("2")
            await wait_for(pilot, lambda: screen.view.tab == "starred")
        await pilot.press(key)
        await wait_for(pilot, lambda: app.screen is not screen)
        dialog = app.screen
        await wait_for(pilot, lambda: closing in footer(app))
        if words is not None:
            said = [str(dialog.query_one(".dialog").border_subtitle)]
            said += [str(label.render()) for label in dialog.query(Label)]
            assert any(words in line for line in said), said
        await pilot.press(closer)
        await wait_for(pilot, lambda: app.screen is screen)
