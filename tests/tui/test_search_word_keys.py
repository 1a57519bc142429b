"""Readline's word keys in the search box: Alt+b moves back to a word's start, Alt+f on to a
word's end (bash's and Emacs's forward-word), Alt+d deletes to a word's end, Alt+Backspace the
word before the cursor.

A terminal sends them as ESC and the key, which Textual reads as ctrl+left, ctrl+right, alt+d
and ctrl+w; one that speaks the kitty keyboard protocol (kitty, WezTerm, foot: Textual asks
for it) as alt+b, alt+f, alt+d, alt+backspace. Before: Alt+d left the search box (read as
Esc then d) and the d was "held back" with a warning; under the kitty protocol Alt+b and
Alt+f did nothing, Alt+d did nothing, and Alt+Backspace deleted the word after the cursor.
Then Alt+f (ESC f) moved to the next word's start, as ctrl+right does, and Alt+d deleted to
it: after Alt+f, the space alone. The keys are posted as the app's terminal driver reads the
terminal's bytes: its decoder (``tui.terminal``), then Textual's own parser."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual._xterm_parser import XTermParser  # what the terminal driver reads keys with

from tests.tui.helpers import make_app, messages, opened, ready, wait_for
from tui.terminal import lenient_decoder

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
    """The keys the app reads from ``sent``, as its terminal driver does: decoded by its
    decoder, then parsed by Textual's parser (an ESC alone with the next byte: the parser's
    end of input stands for its escape delay)."""
    text = lenient_decoder("utf-8")().decode(sent.encode(), final=True)
    parser = XTermParser()
    return [
        event for event in (*parser.feed(text), *parser.feed("")) if isinstance(event, events.Key)
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
        await alt("f")  # readline's forward-word: to the end of the word
        assert box.cursor_position == len("diffusion")
        await alt("f")
        assert box.cursor_position == len("diffusion model")
        await pilot.press("left", "left")
        await alt("d")  # readline's kill-word: to the end of the word
        assert (box.value, box.cursor_position) == ("diffusion mod sampler", len("diffusion mod"))
        await alt("d")
        assert (box.value, box.cursor_position) == ("diffusion mod", len("diffusion mod"))
        await pilot.press("home")
        await alt("d")
        assert (box.value, box.cursor_position) == (" mod", 0)
        await pilot.press("end")
        await alt("backspace")
        assert box.value == " "
        await pilot.press(*"graph")
        await wait_for(pilot, lambda: screen.view.query == "graph")
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


async def test_alt_f_and_alt_d_take_words_of_letters_and_digits_as_readline_does(
    seeded_home: Path,
) -> None:
    """Readline's words are letters and digits: Alt+f and Alt+d took ``_`` as part of one
    (``graph_nets`` was one word); a letter of any script is one."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        box = screen.search_box
        await pilot.press("slash", *"graph_nets2 é_x", "home")
        await wait_for(pilot, lambda: box.value == "graph_nets2 é_x")
        for expected in (len("graph"), len("graph_nets2"), len("graph_nets2 é")):
            for event in terminal_keys(SENT["ESC"]["f"]):
                app.post_message(event)
            await wait_for(pilot, lambda at=expected: box.cursor_position == at)
        await pilot.press("home")
        for event in terminal_keys(SENT["ESC"]["d"]):
            app.post_message(event)
        await wait_for(pilot, lambda: box.value == "_nets2 é_x")
        for event in terminal_keys(SENT["ESC"]["d"]):
            app.post_message(event)
        await wait_for(pilot, lambda: box.value == " é_x")
        assert app.focused is box


@pytest.mark.parametrize("terminal", sorted(SENT))
async def test_alt_b_and_alt_backspace_take_the_words_alt_f_takes(
    seeded_home: Path, terminal: str
) -> None:
    """Alt+b and Alt+Backspace took Textual's words, ``_`` a part of one: in ``graph_nets``
    Alt+f stopped after ``graph`` but Alt+b went back to ``g`` and Alt+Backspace deleted
    all of it. They take readline's words, letters and digits, as Alt+f and Alt+d do."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        box = screen.search_box
        text = "graph_nets2 é_x"
        await pilot.press("slash", *text)
        await wait_for(pilot, lambda: box.value == text)
        for before in ("graph_nets2 é_", "graph_nets2 ", "graph_", ""):
            for event in terminal_keys(SENT[terminal]["b"]):
                app.post_message(event)
            await wait_for(pilot, lambda at=before: box.cursor_position == len(at))
        await pilot.press("end")
        for expected in ("graph_nets2 é_", "graph_nets2 ", "graph_", ""):
            for event in terminal_keys(SENT[terminal]["backspace"]):
                app.post_message(event)
            await wait_for(pilot, lambda left=expected: box.value == left)
        assert app.focused is box


@pytest.mark.parametrize("terminal", sorted(SENT))
async def test_ctrl_w_deletes_back_to_a_space_and_alt_backspace_a_word(
    seeded_home: Path, terminal: str
) -> None:
    """ctrl+w in the search box deleted as Alt+Backspace does, the word before the cursor
    (``bar`` of ``foo-bar``): it is readline's unix-word-rubout now, back to the space
    before the cursor (``foo-bar`` whole). Alt+Backspace (ESC DEL, which Textual reads as
    ctrl+w) still deletes the word alone."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        box = screen.search_box
        text = "graph_nets foo-bar"
        await pilot.press("slash", *text)
        await wait_for(pilot, lambda: box.value == text)
        for event in terminal_keys(SENT[terminal]["backspace"]):
            app.post_message(event)
        await wait_for(pilot, lambda: box.value == "graph_nets foo-")
        for left in ("graph_nets ", ""):
            for event in terminal_keys("\x17"):  # ctrl+w
                app.post_message(event)
            await wait_for(pilot, lambda left=left: box.value == left)
        assert app.focused is box


async def test_alt_backspace_out_of_the_search_box_is_ctrl_w_as_before(
    seeded_home: Path,
) -> None:
    """ESC DEL, which Textual reads as ctrl+w, is read as Alt+Backspace now (the search box
    tells it from ctrl+w); out of the box it is ctrl+w still: on the list it deletes the
    saved search shown, in a dialog's field the word before the cursor."""
    from storage.files.saved_searches import SavedSearches
    from tui.screens.dialogs import TextPrompt

    searches = SavedSearches(seeded_home)
    searches.save("Graphs", "graph")
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await pilot.press("6")
        await wait_for(pilot, lambda: screen.view.tab == "saved:graphs")
        for event in terminal_keys(SENT["ESC"]["backspace"]):
            app.post_message(event)
        await wait_for(pilot, lambda: searches.all() == [])
        await pilot.pause(0.2)
        prompt = await opened(pilot, "t", TextPrompt)
        field = prompt.query_one("Input")
        await pilot.press(*"alpha beta")
        for event in terminal_keys(SENT["kitty"]["backspace"]):
            app.post_message(event)
        await wait_for(pilot, lambda: getattr(field, "value", None) == "alpha ")


async def test_alt_backspace_sent_as_esc_ctrl_h_deletes_the_word_before_the_cursor(
    seeded_home: Path,
) -> None:
    """A terminal whose Backspace sends ^H sends Alt+Backspace as ESC ^H, which Textual read as
    Backspace: one character went, not the word (ESC DEL deleted the word). In one read or
    two (ESC, then ^H within the escape delay)."""
    from tui.terminal import TerminalInput

    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        box = screen.search_box
        await pilot.press("slash", *TEXT)
        await wait_for(pilot, lambda: box.value == TEXT)
        for event in terminal_keys("\x1b\x08"):
            app.post_message(event)
        await wait_for(pilot, lambda: box.value == "diffusion model ")
        decode, parser = TerminalInput("utf-8").decode, XTermParser()
        for event in [*parser.feed(decode(b"\x1b")), *parser.feed(decode(b"\x08"))]:
            app.post_message(event)
        await wait_for(pilot, lambda: box.value == "diffusion ")
        assert app.focused is box


#: What each terminal sends for ctrl+right (xterm's form) and ctrl+left.
CTRL_ARROWS = {"right": "\x1b[1;5C", "left": "\x1b[1;5D"}


async def test_ctrl_arrows_still_move_as_textual_has_them(seeded_home: Path) -> None:
    """ctrl+right goes to the next word's start and ctrl+left to a word's start, as Textual's
    field has them: Alt+f (ESC f, which Textual reads as ctrl+right) is told apart from it."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        box = screen.search_box
        await pilot.press("slash", *TEXT)
        await wait_for(pilot, lambda: box.value == TEXT)
        await pilot.press("home")
        for event in terminal_keys(CTRL_ARROWS["right"]):
            app.post_message(event)
        await wait_for(pilot, lambda: box.cursor_position == TEXT.index("model"))
        for event in terminal_keys(SENT["ESC"]["f"]):
            app.post_message(event)
        await wait_for(pilot, lambda: box.cursor_position == len("diffusion model"))
        for event in terminal_keys(CTRL_ARROWS["left"]):
            app.post_message(event)
        await wait_for(pilot, lambda: box.cursor_position == TEXT.index("model"))
        assert box.value == TEXT and app.focused is box


@pytest.mark.parametrize("terminal", sorted(SENT))
async def test_alt_f_in_another_field_moves_as_ctrl_right_did(
    seeded_home: Path, terminal: str
) -> None:
    """In a dialog's field (the tag prompt) Alt+f moves to the next word's start, as ESC f,
    read as ctrl+right, did there (iTerm's Option+→); it types no f."""
    from textual.widgets import Input

    from tui.screens.dialogs import TextPrompt

    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        prompt = await opened(pilot, "t", TextPrompt)
        field = prompt.query_one(Input)
        await pilot.press(*"alpha beta", "home")
        for event in terminal_keys(SENT[terminal]["f"]):
            app.post_message(event)
        await wait_for(pilot, lambda: field.cursor_position == len("alpha "))
        assert field.value == "alpha beta" and isinstance(app.screen, TextPrompt)


async def test_the_help_and_the_readme_list_the_word_keys(seeded_home: Path) -> None:
    """The word keys were in neither the help (``?``) nor the README's key list: they are in
    both, in few words (on one line in the help at 80 columns), after the main screen's keys
    (the tabs' among them, on the help's first page as before)."""
    from tests.tui.test_remapped_words import as_text
    from tui.commands import BY_ID, help_text
    from tui.screens.help import HelpScreen

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        shown = await opened(pilot, "question_mark", HelpScreen)
        assert isinstance(shown, HelpScreen)
        width = shown.query_one(".dialog").content_region.width
        main_keys = as_text(shown.table(wide=False), width)
        dialogs = as_text(shown.table(dialogs=True, wide=False), width)
        for key, command_id in WORD_KEYS.items():
            words = help_text(BY_ID[command_id])
            rows = [line for line in dialogs.splitlines() if key in line.split()]
            assert rows, (key, dialogs)
            if key != "alt+backspace":  # (ctrl+w's line, as it was, with ctrl+u's words)
                assert words in rows[0] and len(words) <= 40, (key, rows)
            assert f"`{key}`" in readme.split("<!-- keys -->")[1]
            assert key not in main_keys
        assert "Show the papers marked read" in main_keys


#: Each word key, and its command (``tui.commands``).
WORD_KEYS = {
    "alt+b": "search_word_back",
    "alt+f": "search_word_forward",
    "alt+d": "search_delete_next_word",
    "alt+backspace": "search_delete_word",
}


def test_in_a_browser_the_help_names_no_key_for_the_search_boxs_ctrl_w() -> None:
    """A browser keeps ctrl+w (it closes the tab), and the help names alt+backspace for it
    (xterm.js sends it as ESC DEL): it named alt+backspace for the box's ctrl+w (back to a
    space) too, which there is the box's Alt+Backspace (the word alone). It names no key for
    it in a browser; the list's ctrl+w (delete the saved search) is alt+backspace still."""
    from tui.commands import BY_ID, keys_shown

    assert keys_shown(BY_ID["search_delete_to_space"], {}, web=True) == []
    assert keys_shown(BY_ID["search_delete_to_space"], {}) == ["ctrl+w"]
    assert keys_shown(BY_ID["search_delete_word"], {}, web=True) == ["alt+backspace"]
    assert keys_shown(BY_ID["delete_search"], {}, web=True) == ["alt+backspace"]
    assert keys_shown(BY_ID["search_results"], {}, web=True) == ["Enter"]


async def test_the_help_and_the_readme_name_ctrl_w_in_the_search_box(seeded_home: Path) -> None:
    """ctrl+w in the search box deletes back to a space (``search_delete_to_space``): the
    help lists it among the box's keys, the README's key table and its footer's words too
    (which said "ctrl+w deletes a word", Alt+Backspace's)."""
    import re

    from tests.tui.test_remapped_words import as_text
    from tui.commands import BY_ID, help_text
    from tui.screens.help import HelpScreen

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    words = help_text(BY_ID["search_delete_to_space"])
    table = readme.split("<!-- keys -->")[1].split("**Dialogs**")[0].split("**Search box**")[1]
    assert f"| `ctrl+w` | {words} | `search_delete_to_space` |" in table
    footer = re.search(r"while you type a search, the\s+search box's \(([^)]*)\)", readme)
    assert footer is not None
    assert "ctrl+w deletes back to a space" in " ".join(footer.group(1).split()), footer.group(1)
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        shown = await opened(pilot, "question_mark", HelpScreen)
        assert isinstance(shown, HelpScreen)
        width = shown.query_one(".dialog").content_region.width
        dialogs = as_text(shown.table(dialogs=True, wide=False), width)
        box = dialogs[dialogs.index("Search box") : dialogs.index("\nDialogs")]
        [row] = [line for line in box.splitlines() if "ctrl+w" in line.split()]
        assert "delete back to a space" in row, box
        assert "search_delete_to_space" in box and "alt+backspace" in box
