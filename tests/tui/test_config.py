"""config.toml: a key setting that would leave a key dead is reported and falls back to defaults."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from storage import Status
from tests.tui.helpers import make_app, ready, wait_for
from tui.commands import BY_ID, COMMANDS, keys_for
from tui.config import load_config
from tui.keys import character_key, normalise_key
from tui.screens.help import HelpScreen


def config(tmp_path: Path, *settings: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text("[keys]\n" + "\n".join(settings) + "\n", encoding="utf-8")
    return path


def test_a_characters_key_name_is_the_one_textual_gives_its_key_event() -> None:
    """``character_key`` stands for Textual's private ``_character_to_key`` (the app names no
    private Textual name): the same name for every character of ASCII, Latin-1 and some
    beyond, controls included. A Textual that names keys otherwise fails here."""
    from textual.keys import _character_to_key  # the test alone reads it, to compare

    characters = [chr(c) for c in (*range(0x00, 0x250), 0x20AC, 0x2013, 0x00B5, 0x03C4)]
    differ = [c for c in characters if character_key(c) != _character_to_key(c)]
    assert differ == []


def test_every_default_key_is_a_key_name() -> None:
    for command in COMMANDS:
        for key in keys_for(command, {}):
            assert normalise_key(key) == key, (command.id, key)


def test_no_default_keys_clash() -> None:
    assert load_config([]).problems == []
    assert not load_config([]).keymap


@pytest.mark.parametrize(
    ("written", "named"),
    [
        ("f", "f"),
        ("G", "G"),
        ("?", "question_mark"),
        ("question_mark", "question_mark"),
        ("Ctrl+F", "ctrl+f"),
        ("ctrl+shift+pageup", "ctrl+shift+pageup"),
        ("F5", "f5"),
        ("é", "é"),
        ("€", "euro_sign"),
        ("euro_sign", "euro_sign"),
        (" escape ", "escape"),
    ],
)
def test_key_names_are_normalised_as_textual_names_key_events(written: str, named: str) -> None:
    assert normalise_key(written) == named


@pytest.mark.parametrize(
    "written",
    [
        *("notakey", "ctrl+", "+", "", "😀", "grinning_face", "❤", "ctrl+ctrl+a", "hyper+"),
        *("cmd+a", "\x1b", "\u202e", "e\u0301", "zz"),
    ],
)
def test_what_is_no_key_name(written: str) -> None:
    assert normalise_key(written) is None


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ('"notakey"', '"notakey" is not a key name'),
        ('"ctrl+"', '"ctrl+" is not a key name'),
        ('"😀"', '"😀" is not a key name'),
        ('"f,notakey"', '"notakey" is not a key name'),
        ('""', "no key given"),
        ('" , "', "no key given"),
        ("5", 'star = 5: a key is written in quotes (star = "f")'),
        ('["f"]', 'star = ["f"]: a key is written in quotes'),
    ],
)
def test_a_dead_key_setting_is_one_warning_and_the_defaults(
    tmp_path: Path, value: str, says: str
) -> None:
    loaded = load_config([config(tmp_path, f"star = {value}")])
    [problem] = loaded.problems
    assert problem.startswith(f"{tmp_path / 'config.toml'}: [keys] star = ")
    assert says in problem and "keeps its default keys (s)" in problem
    assert "\n" not in problem
    assert loaded.keymap == {}


def test_two_commands_of_one_screen_on_one_key(tmp_path: Path) -> None:
    loaded = load_config([config(tmp_path, 'star = "f"', 'skip = "f"')])
    [problem] = loaded.problems
    assert 'skip and star both bind "f" on the main screen' in problem
    assert "skip, star keep their default keys (x; s)" in problem
    assert loaded.keymap == {}


def test_a_remapped_key_that_takes_another_commands_default(tmp_path: Path) -> None:
    loaded = load_config([config(tmp_path, 'star = "x"', 'note = "?"')])
    assert len(loaded.problems) == 2
    assert 'skip and star both bind "x"' in loaded.problems[0]
    assert "star keeps its default keys (s)" in loaded.problems[0]
    assert 'note and help both bind "?"' in loaded.problems[1]
    assert loaded.keymap == {}


def test_an_app_key_counts_on_every_screen(tmp_path: Path) -> None:
    loaded = load_config([config(tmp_path, 'bulk_star = "ctrl+q"')])
    [problem] = loaded.problems
    assert "force_quit" in problem and "bulk dialog" in problem


def test_keys_shared_across_screens_and_swaps_are_fine(tmp_path: Path) -> None:
    loaded = load_config([config(tmp_path, 'star = "x"', 'skip = "s"', 'bulk_star = "f"')])
    assert loaded.problems == []
    # the bulk dialog's skip follows the main screen's; its star was remapped itself
    assert loaded.keymap == {"star": "x", "skip": "s", "bulk_star": "f", "bulk_skip": "s"}


def test_a_dialogs_mirror_of_a_main_key_follows_its_remap(tmp_path: Path) -> None:
    """With read and star swapped, the bulk dialog's s starred all the marked papers (its
    button said "Star (s)"), and j still moved in the similar papers with down = "ctrl+n"."""
    loaded = load_config([config(tmp_path, 'read = "s"', 'star = "r"', 'down = "ctrl+n,down"')])
    assert loaded.problems == []
    assert loaded.keymap["bulk_read"] == "s" and loaded.keymap["bulk_star"] == "r"
    assert loaded.keymap["similar_down"] == loaded.keymap["help_down"] == "ctrl+n,down"
    assert "bulk_skip" not in loaded.keymap and "similar_up" not in loaded.keymap


def test_a_remap_that_does_not_hold_is_not_followed(tmp_path: Path) -> None:
    # read = "s" clashes with star's s on the main screen: read keeps r there and in the dialog
    loaded = load_config([config(tmp_path, 'read = "s"')])
    assert len(loaded.problems) == 1 and loaded.keymap == {}
    # a dialog key the mirror would clash with there: named, and the dialog keeps its default
    loaded = load_config([config(tmp_path, 'read = "f"', 'bulk_inbox = "f"')])
    [problem] = loaded.problems
    assert 'bulk_read and bulk_inbox both bind "f" on the bulk dialog' in problem
    assert problem.endswith("bulk_read keeps its default keys (r)")  # the setting stays
    assert loaded.keymap == {"read": "f", "bulk_inbox": "f"}


def test_a_followed_key_on_a_dialogs_own_default_is_not_taken_unsaid(tmp_path: Path) -> None:
    """star = "q" (quit elsewhere): the bulk dialog's star took q, which its Cancel has (q
    closes every dialog), and the start warned of bulk_star and bulk_cancel, two settings the
    user never wrote. The dialog's q cancels, its s stars, and nothing is said."""
    loaded = load_config([config(tmp_path, 'star = "q"', 'quit = "Z"')])
    assert loaded.problems == []
    assert loaded.keymap == {"star": "q", "quit": "Z"}


@pytest.mark.parametrize("value", ['"x"', '"space"', '"?"', '"ctrl+j,y"'])
def test_a_search_box_key_the_box_types_is_refused(tmp_path: Path, value: str) -> None:
    """search_results = "y" was taken: the footer named "y Results" while y was typed."""
    loaded = load_config([config(tmp_path, f"search_results = {value}")])
    [problem] = loaded.problems
    assert "is typed in the search box; it keeps its default keys (Enter)" in problem
    assert loaded.keymap == {}


@pytest.mark.parametrize(
    ("setting", "named"),
    [
        ('search_delete_word = "ctrl+s"', "save_search and search_delete_word"),
        ('search_results = "ctrl+l"', "clear_search and search_results"),
        ('search_results = "escape"', "leave_search and search_results"),
        ('clear_search = "enter"', "clear_search and search_results"),
    ],
)
def test_a_search_box_key_clashes_with_the_screens_that_act_while_typing(
    tmp_path: Path, setting: str, named: str
) -> None:
    """search_delete_word = "ctrl+s" was taken without a word: the footer named both
    "ctrl+s Save" and "ctrl+s Delete word", and ctrl+s no longer saved from the box."""
    loaded = load_config([config(tmp_path, setting)])
    assert any(f"{named} both bind" in p and "on the search box" in p for p in loaded.problems)
    assert loaded.keymap == {}


def test_putting_back_a_default_can_clash_again(tmp_path: Path) -> None:
    # star's default "s" comes back, and read had taken it: read goes back to "r" as well.
    loaded = load_config([config(tmp_path, 'star = "f"', 'skip = "f"', 'read = "s"')])
    assert loaded.keymap == {}
    assert len(loaded.problems) == 2


def test_a_later_file_decides_even_when_it_is_wrong(tmp_path: Path) -> None:
    first = tmp_path / "a"
    first.mkdir()
    good = config(first, 'star = "f"')
    loaded = load_config([good, config(tmp_path, 'star = "notakey"')])
    assert loaded.keymap == {} and len(loaded.problems) == 1
    assert load_config([good]).keymap == {"star": "f", "bulk_star": "f"}


def test_an_unknown_command_is_named(tmp_path: Path) -> None:
    [problem] = load_config([config(tmp_path, 'stra = "f"')]).problems
    assert "[keys] stra: no such command" in problem


async def test_the_app_starts_with_the_defaults_and_one_warning_a_setting(
    seeded_home: Path,
) -> None:
    config(seeded_home, 'star = "f"', 'skip = "f"', 'read = "notakey"', 'tag = "!"')
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        warnings = [n.message for n in app._notifications if n.title == "Config"]
        assert len(warnings) == 2
        assert any("star" in w and "skip" in w for w in warnings)
        assert any("read" in w and "notakey" in w for w in warnings)
        assert app.keymap == {"tag": "exclamation_mark"}
        await pilot.press("s")  # star's default key works: no dead key
        await pilot.press("r")
        assert sorted(app.session.state.statuses.values()) == [Status.READ, Status.STARRED]
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = {str(c): str(k) for c, k in zip(*(col.cells for col in (
            app.screen.table().columns[2], app.screen.table().columns[1]
        )), strict=True)}  # fmt: skip
        assert rows[BY_ID["star"].help] == "s" and rows[BY_ID["skip"].help] == "x"
        assert rows[BY_ID["tag"].help] == "!"  # the key as people write it
        await pilot.press("escape")
        await pilot.press("exclamation_mark")  # a key written as its character works
        assert app.screen.__class__.__name__ != "MainScreen"


async def test_the_bulk_dialog_takes_and_shows_the_swapped_keys(seeded_home: Path) -> None:
    from textual.widgets import Button

    from tui.screens.dialogs import BulkDecision

    config(seeded_home, 'read = "s"', 'star = "r"')
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("space", "j", "space", "D")
        await pilot.pause()
        assert isinstance(app.screen, BulkDecision)
        labels = {str(b.label) for b in app.screen.query(Button)}
        assert {"Read (s)", "Star (r)", "Skip (x)", "Cancel (Esc, q)"} <= labels
        await pilot.press("s")
        await pilot.pause()
        assert sorted(app.session.state.statuses.values()) == [Status.READ, Status.READ]


def test_a_settings_long_value_is_named_cut(tmp_path: Path) -> None:
    """A thousand keys with one that is none, a key of 100,000 letters, a command named at
    length: each warning quoted the setting whole (15,000 and 200,000 characters), a toast
    over the whole screen at start. Each names it cut now, one short line still."""
    many = ",".join(f"ctrl+shift+f{i % 24 + 1}" for i in range(1000)) + ",notakey"
    path = config(
        tmp_path,
        f'similar = "{many}"\nstats_close = "{"x" * 100_000}"\n{"y" * 5000} = "f"',
    )
    problems = load_config([path]).problems
    assert len(problems) == 3, problems
    assert all(len(problem) < 400 and "\n" not in problem for problem in problems), problems
    assert '[keys] similar = "ctrl+shift+f1,ctrl+shift+f2,' in problems[0]
    assert "…" in problems[0] and "is not a key name" in problems[0]
    assert '[keys] stats_close = "xxxx' in problems[1] and "is not a key name" in problems[1]
    assert "[keys] yyyy" in problems[2] and "no such command" in problems[2]


def test_a_long_value_or_name_in_the_other_tables_is_named_cut(tmp_path: Path) -> None:
    """The warnings of ``[keys]`` name a long setting cut; those of ``[venues]``, ``[queue]``,
    ``[pdf]``, ``[sync]`` and of a setting nothing reads quoted it whole: a venue id past 500
    characters (refused for its length), a list of thousands, a name of 5,000 letters, each a
    toast of 5,000 to 100,000 characters over the whole screen at start."""
    big, many = "x" * 100_000, ", ".join(["1"] * 20_000)
    path = tmp_path / "config.toml"
    path.write_text(
        f'{"z" * 5000} = 1\n[venues]\nv = "{big}"\n"{"w" * 5000} w" = "ICLR.cc"\n'
        f'[queue]\nnew = "{big}"\n[pdf]\ntimeout = [{many}]\n{"p" * 5000} = 1\n'
        f"[sync]\nfolder = [{many}]\n",
        encoding="utf-8",
    )
    problems = load_config([path]).problems
    assert len(problems) == 7, problems
    assert all(len(problem) < 400 and "…" in problem for problem in problems), problems
    assert any('[venues] v = "xxxx' in problem for problem in problems), problems
    assert any("[pdf] timeout = [1, 1," in problem for problem in problems), problems


def test_values_are_named_as_toml_writes_them(tmp_path: Path) -> None:
    """``[queue] new = True`` named the value as Python writes it, not as the file does."""
    path = tmp_path / "config.toml"
    path.write_text(
        '[queue]\nnew = true\n[sync]\nname = ["x"]\n[pdf]\ncolor = "red"\n'
        '[keys]\nhelp = "f"\nnote = "f"\n',
        encoding="utf-8",
    )
    problems = load_config([path]).problems
    assert any("[queue] new = true: ignored" in p for p in problems)
    assert any('[sync] name = ["x"]: ignored' in p for p in problems)
    assert any('[pdf] color = "red": ignored' in p for p in problems)
    # a default key as people write it: "?", not question_mark
    assert any("note, help keep their default keys (n; ?)" in p for p in problems)


def test_a_table_nothing_reads_is_named(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('top = 1\n[Sync]\nfolder = "S"\n[weird]\nx = 1\n', encoding="utf-8")
    loaded = load_config([path])
    assert [p.split(": ", 1)[1] for p in loaded.problems] == [
        "top: no such setting, ignored (tables: keys, sync, queue, pdf, venues)",
        "[Sync]: no such table, ignored (did you mean [sync]?)",
        "[weird]: no such table, ignored (tables: keys, sync, queue, pdf, venues)",
    ]
    assert loaded.problems_of("keys") == loaded.problems  # a whole file's: every command's
    assert loaded.sync_folder is None


async def test_more_problems_than_fit_are_counted_and_the_help_lists_them(
    seeded_home: Path,
) -> None:
    """With 12 problems only the last three toasts fit at 80x24: the first ones, which
    turned the sync off, were never seen."""
    config(
        seeded_home, *(f'{name} = "notakey"' for name in ("star", "skip", "read", "tag", "note"))
    )
    app = make_app(seeded_home)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        said = [n.message for n in app._notifications if n.title == "Config"]
        assert len(said) == 3 and said[2].startswith("and 3 more problems in config.toml")
        assert "star" in said[0] and "skip" in said[1]
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        listed = str(app.screen.query_one(".help-problems").render())
        assert all(f'{name} = "notakey"' in listed for name in ("star", "tag", "note"))


def test_a_value_nested_hundreds_deep_is_named_shortly(tmp_path: Path) -> None:
    """star = [[[…]]] 450 deep (which TOML reads) ran the message's writing out of stack:
    every command reading the config ended in an internal error."""
    path = tmp_path / "config.toml"
    path.write_text("[keys]\nstar = " + "[" * 450 + "]" * 450 + "\n", encoding="utf-8")
    [problem] = load_config([path]).problems
    assert "star = [[[[[…]]]]]: a key is written in quotes" in problem


async def test_what_the_app_says_names_the_undo_key_as_remapped(seeded_home: Path) -> None:
    """With ``undo = "U"`` the app still said "u undoes it", "u brings back the tags…" (a
    key that then typed nothing), in its notifications, the queue's sort and the help."""
    from tests.tui.helpers import messages, opened, settled, wait_for
    from tui.screens.queue_sort import QueueSortDialog
    from tui.stray_keys import GAP_S

    config(seeded_home, 'undo = "U"', 'decide_marked = "ctrl+x"')
    app = make_app(seeded_home)
    seen: list[str] = []  # (a notification goes after a few seconds: each kept as shown)

    async def said(words: str) -> None:
        def shown() -> bool:
            seen.extend(m for m in messages(app) if m not in seen)
            return any(words in m for m in seen)

        await wait_for(pilot, shown)

    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("s", "s", "t", *"one", "enter")
        await said("Tags: #one")
        await pilot.pause(GAP_S)  # (letters right after a field's Enter are held back)
        await pilot.press("t", "ctrl+u", *"two", "enter")
        await said("U brings back the tags it replaced (#one)")
        await pilot.pause(GAP_S)
        await pilot.press("space", "j", "space", "ctrl+x", "r")  # two papers read at once
        await said("2 papers → read (one step: U undoes it)")
        await settled(pilot)
        await pilot.press("space", "r")  # a decision while a paper is marked
        await said("1 marked paper waits: ctrl+x decides them at once")
        await settled(pilot)
        await pilot.press("2")
        dialog = await opened(pilot, "Q", QueueSortDialog)
        dialog_words = " ".join(str(label.render()) for label in dialog.query("Label"))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        help_screen = await opened(pilot, "question_mark", HelpScreen)
        intro = str(help_screen.query_one(".help-intro").render())
    assert "· U undoes" in dialog_words and "it; U undoes, even after a restart" in intro
    assert " u " not in " ".join(seen) + dialog_words + intro


async def test_the_dialogs_and_search_hints_name_their_keys_as_remapped(seeded_home: Path) -> None:
    """With the note editor's, the search's, the topics' and the export's keys remapped, the
    app still said "ctrl+s to save", "Esc again … ctrl+s saves", "ctrl+s saves the search",
    "D decides them all", "Enter writes · ctrl+y copies": keys that then did nothing. The
    command table's words name no key the user may remap ("u brings them back")."""
    from textual.containers import Vertical
    from textual.widgets import Label

    from storage.similar.topics import Topic
    from tests.tui.helpers import messages, opened, wait_for
    from tui.screens.dialogs import NoteEditor
    from tui.screens.export import ExportScreen
    from tui.screens.similar import TopicsScreen

    config(
        seeded_home,
        'note_save = "ctrl+o"',
        'note_cancel = "ctrl+g"',
        'save_search = "f2"',
        'search = "F"',
        'topics_decide = "X"',
        'topics_mark = "m"',
        'topics_close = "q"',
        'export_write = "ctrl+t"',
        'export_copy = "ctrl+k"',
        'export_cancel = "ctrl+g"',
    )
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        editor = await opened(pilot, "n", NoteEditor)
        hint = str(editor.query_one(".hint", Label).render())
        assert hint.startswith("ctrl+o to save · ctrl+g to cancel")
        await pilot.press("a", "ctrl+g")
        said = "Not saved: ctrl+g again throws away what you typed · ctrl+o saves"
        await wait_for(pilot, lambda: said in messages(app))
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("7", "f2")
        await wait_for(pilot, lambda: len(messages(app)) >= 3)
        assert "No saved search 2: f2 saves the search typed as a tab." in messages(app)
        assert "Type a search first (F), then f2 saves it as a tab." in messages(app)
        topics = TopicsScreen([Topic("one", (screen.view.papers[0].id,))], screen.view.papers, {})
        await app.push_screen(topics)
        subtitle = str(topics.query_one(".dialog", Vertical).border_subtitle)
        assert subtitle == "m marks the topic's papers · X decides them all · q closes"
        await pilot.press("q")
        await wait_for(pilot, lambda: app.screen is screen)
        export = await opened(pilot, "e", ExportScreen)
        subtitle = str(export.query_one(".dialog", Vertical).border_subtitle)
        assert subtitle == "ctrl+t writes · ctrl+k copies · ctrl+g cancels"
    said_keys = re.compile(r"\bu (brings|undoes)|before D\b")
    assert [c.id for c in COMMANDS if said_keys.search(c.help)] == []


@pytest.mark.parametrize("value", ['"ctrl+w,alt+backspace"', '"alt+backspace, ctrl+w"', '"ctrl+w"'])
def test_a_former_default_written_out_is_the_default_now(tmp_path: Path, value: str) -> None:
    """A config.toml written out with search_delete_word's old default (ctrl+w was the box's
    word key before it became search_delete_to_space's) warned that the two clash on the
    search box and put search_delete_word back: a file that repeats a default said nothing
    wrong. It is the default now, said nothing about; ctrl+w deletes back to a space."""
    loaded = load_config([config(tmp_path, f"search_delete_word = {value}")])
    assert loaded.problems == []
    assert loaded.keymap == {}
    assert keys_for(BY_ID["search_delete_word"], loaded.keymap) == ["alt+backspace"]
    assert keys_for(BY_ID["search_delete_to_space"], loaded.keymap) == ["ctrl+w"]


def test_a_clash_beyond_a_former_default_still_warns(tmp_path: Path) -> None:
    """ctrl+w with a key the old default never had is the user's choice: the clash is said."""
    loaded = load_config([config(tmp_path, 'search_delete_word = "ctrl+w,alt+h"')])
    [problem] = loaded.problems
    assert "search_delete_to_space and search_delete_word both bind" in problem, problem
    assert loaded.keymap == {}
    moved = load_config([config(tmp_path, 'search_delete_word = "ctrl+w,alt+backspace"',
                                'search_delete_to_space = "ctrl+t"')])  # fmt: skip
    assert moved.problems == []  # ctrl+w kept by nothing else: the file's, as it says
    assert moved.keymap == {
        "search_delete_word": "ctrl+w,alt+backspace",
        "search_delete_to_space": "ctrl+t",
    }


async def test_a_former_default_chosen_beside_a_moved_key_is_kept(
    seeded_home: Path, tmp_path: Path
) -> None:
    """search_delete_to_space moved to ctrl+k and search_delete_word = "ctrl+w": the user's
    choice, ctrl+w free for it. It was read as the default (alt+backspace) in silence, and
    ctrl+w did nothing in the search box."""
    settings = ('search_delete_to_space = "ctrl+k"', 'search_delete_word = "ctrl+w"')
    loaded = load_config([config(tmp_path, *settings)])
    assert loaded.problems == []
    assert keys_for(BY_ID["search_delete_word"], loaded.keymap) == ["ctrl+w"]
    config(seeded_home, *settings)
    app = make_app(seeded_home)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await ready(pilot)
        box = screen.search_box
        await pilot.press("slash", *"graph foo-bar")
        await wait_for(pilot, lambda: box.value == "graph foo-bar")
        await pilot.press("ctrl+w")
        await wait_for(pilot, lambda: box.value == "graph foo-")
        await pilot.press("ctrl+k")
        await wait_for(pilot, lambda: box.value == "graph ")


def test_every_former_default_differs_from_the_default() -> None:
    for command in COMMANDS:
        for former in command.former:
            assert {normalise_key(k) for k in former.split(",")} != {
                normalise_key(k) for k in command.keys.split(",")
            }, command.id
