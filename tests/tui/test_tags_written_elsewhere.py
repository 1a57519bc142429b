"""Tags given elsewhere while the tag prompt (``t``) is open are not lost when it saves:
``papers tag ID …`` from a script (or another window) while the prompt was open, then Enter,
and the prompt's text was written whole: the other change was gone, in silence. The save is a
three-way merge (``storage.files.three_way.merge_tags``): the tags on disk, with those the user
added in the prompt and without those the user took out there, in the disk's order then the
user's additions; what came from elsewhere (added, removed) is said."""

from __future__ import annotations

import subprocess
from pathlib import Path

from storage import Library
from storage.caps import MAX_TAGS
from tests.cli.test_cli import PAPERS, make_env
from tests.tui.helpers import make_app, messages, opened, ready, settled, wait_for
from tui.screens.dialogs import TextPrompt

SIZE = (100, 30)


def tag_elsewhere(home: Path, tmp_path: Path, paper_id: str, *tags: str) -> None:
    """``papers tag ID TAG…``: another process replaces the paper's tags."""
    tagged = subprocess.run(
        [*PAPERS, "--home", str(home), "tag", paper_id, *tags],
        env=make_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert tagged.returncode == 0, tagged.stderr


async def test_a_tag_added_elsewhere_while_the_prompt_is_open_is_kept(
    seeded_home: Path, tmp_path: Path
) -> None:
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_tags(first, ["rl", "old"])
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        assert screen.paper_list.current is not None and screen.paper_list.current.id == first
        await opened(pilot, "t", TextPrompt)
        # elsewhere: "later" and "urgent" added (and "old" kept there)
        tag_elsewhere(seeded_home, tmp_path, first, "rl", "old", "later", "urgent")
        # here: "old" taken out, "theory" added
        await pilot.press("home", "ctrl+k", *"rl theory", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        want = ("rl", "later", "urgent", "theory")  # the disk's order, then the user's
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == want)
        await settled(pilot)
        said = "Tags saved, merged with what changed elsewhere while the prompt was open: "
        assert said + "added #later #urgent" in messages(app), messages(app)
    assert Library(seeded_home).triage().tags.get(first) == want


async def test_a_tag_the_prompt_took_out_stays_out_and_nothing_is_said(
    seeded_home: Path, tmp_path: Path
) -> None:
    """Only what another writer added since the prompt opened is kept: a tag the prompt
    opened with, taken out there, is not brought back (nor said), whatever the disk holds."""
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_tags(first, ["rl", "old"])
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "t", TextPrompt)
        tag_elsewhere(seeded_home, tmp_path, first, "old", "rl")  # the same, reordered
        await pilot.press("home", "ctrl+k", *"rl", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == ("rl",))
        await settled(pilot)
        assert not any("changed elsewhere" in m for m in messages(app)), messages(app)
    assert Library(seeded_home).triage().tags.get(first) == ("rl",)


async def test_tags_added_elsewhere_past_the_cap_are_said_not_kept(
    seeded_home: Path, tmp_path: Path
) -> None:
    """Tags another writer added, which with those typed would pass the cap of tags a paper,
    cannot be kept: the tags are saved as typed, and that is said with them."""
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    many = [f"t{i}" for i in range(MAX_TAGS - 2)]
    lib.set_tags(first, many)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "t", TextPrompt)
        tag_elsewhere(seeded_home, tmp_path, first, *many, "extra")
        await pilot.press("end", *" a b", "enter")  # typed: the cap; with "extra", past it
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
        await wait_for(pilot, lambda: any("not kept: #extra" in m for m in messages(app)))
    assert Library(seeded_home).triage().tags.get(first) == (*many, "a", "b")


async def test_a_tag_removed_elsewhere_while_the_prompt_is_open_stays_removed(
    seeded_home: Path, tmp_path: Path
) -> None:
    """``papers tag`` took "old" out (and added "urgent") while the prompt, opened on
    "rl old later", was open; the user added "theory" there, leaving "old" as it showed. "old"
    came back with the save, in silence: it stays out now, and the message says so."""
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_tags(first, ["rl", "old", "later"])
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "t", TextPrompt)
        tag_elsewhere(seeded_home, tmp_path, first, "urgent", "rl", "later")
        await pilot.press("end", *" theory", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        want = ("urgent", "rl", "later", "theory")
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == want)
        await settled(pilot)
        said = (
            "Tags saved, merged with what changed elsewhere while the prompt was open: "
            "added #urgent; removed #old"
        )
        assert said in messages(app), messages(app)
    assert Library(seeded_home).triage().tags.get(first) == want


async def test_tags_cleared_elsewhere_and_the_prompt_saved_unedited(seeded_home: Path) -> None:
    """Another window (the Library API here) cleared the tags while the prompt was open; Enter
    on the prompt as it opened changes nothing of the user's: the tags stay cleared."""
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_tags(first, ["rl", "old"])
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "t", TextPrompt)
        Library(seeded_home).set_tags(first, [])
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
        await wait_for(pilot, lambda: app.session.state.tags.get(first, ()) == ())
        said = "Tags saved, merged with what changed elsewhere while the prompt was open: "
        assert said + "removed #rl #old" in messages(app), messages(app)
    assert Library(seeded_home).triage().tags.get(first, ()) == ()


async def test_tags_removed_elsewhere_stay_out_when_those_added_pass_the_cap(
    seeded_home: Path, tmp_path: Path
) -> None:
    """Past the cap with the tags added elsewhere, those are not kept; the one taken out
    elsewhere stays out all the same."""
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    many = [f"t{i}" for i in range(MAX_TAGS - 2)]
    lib.set_tags(first, many)
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "t", TextPrompt)
        tag_elsewhere(seeded_home, tmp_path, first, *many[1:], "extra", "more")
        await pilot.press("end", *" a b", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
        await wait_for(pilot, lambda: any("not kept: #extra #more" in m for m in messages(app)))
    assert Library(seeded_home).triage().tags.get(first) == (*many[1:], "a", "b")


async def test_u_after_the_prompt_saved_undoes_only_what_was_typed(
    seeded_home: Path, tmp_path: Path
) -> None:
    """``u`` right after the prompt saved puts back the tags it replaced, as a three-way
    merge too: a tag given elsewhere since (``papers tag``) stays. It wrote the tags the
    prompt replaced whole: the other tag was gone, in silence."""
    from tui.stray_keys import GAP_S

    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_tags(first, ["rl", "old"])
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "t", TextPrompt)
        await pilot.press("end", *" theory", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        await settled(pilot)
        assert Library(seeded_home).triage().tags.get(first) == ("rl", "old", "theory")
        tag_elsewhere(seeded_home, tmp_path, first, "rl", "old", "theory", "urgent")
        await pilot.pause(GAP_S)
        await pilot.press("u")
        want = ("rl", "old", "urgent")
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == want)
        await settled(pilot)
    assert Library(seeded_home).triage().tags.get(first) == want
