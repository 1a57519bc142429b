"""Tags given elsewhere while the tag prompt (``t``) is open are not lost when it saves:
``papers tag ID …`` from a script (or another window) while the prompt was open, then Enter,
and the prompt's text was written whole: the other change was gone, in silence. The tags added
meanwhile are kept after those typed, and said; one the user took out in the prompt stays out."""

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
        want = ("rl", "theory", "later", "urgent")
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == want)
        await settled(pilot)
        said = "Tags saved, with those added elsewhere while the prompt was open: #later #urgent"
        assert said in messages(app), messages(app)
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
        assert not any("added elsewhere" in m for m in messages(app)), messages(app)
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
