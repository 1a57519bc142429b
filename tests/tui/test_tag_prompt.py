"""The tag prompt (``t``): ``u`` right after it cleared or replaced a paper's tags brings them
back, as after the note editor; a tag typed as the pane writes it, ``#name``, is ``name``.

Tags are no steps of the history: ``u`` after the prompt cleared them (empty, Enter) undid
the decision before, and the tags were gone for good. Typed ``a,b #c``, the pane showed
``#a #b ##c``.
"""

from __future__ import annotations

from pathlib import Path

from storage import Library, Status
from tests.tui.helpers import make_app, messages, opened, ready, settled, wait_for
from tui.screens.dialogs import TextPrompt
from tui.stray_keys import GAP_S
from tui.widgets.paper_pane import PaperPane

SIZE = (80, 24)


async def test_u_after_the_prompt_cleared_tags_brings_them_back(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    first, second = (p.id for p in lib.papers()[:2])
    lib.set_status(second, Status.STARRED)  # a step of the history, before the tags
    lib.set_tags(first, ["reread", "rl"])
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        assert screen.paper_list.current is not None and screen.paper_list.current.id == first
        await opened(pilot, "t", TextPrompt)
        await pilot.press("home", "ctrl+k", "enter")  # the field emptied: clears them
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: first not in app.session.state.tags)
        assert "Tags cleared; u brings back the tags it replaced (#reread #rl)." in messages(app)
        await pilot.pause(GAP_S)
        await pilot.press("u")
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == ("reread", "rl"))
        await settled(pilot)
        assert app.session.state.statuses.get(second) is Status.STARRED  # no decision undone
        assert "Tags put back: #reread #rl." in messages(app)
        await pilot.press("u")  # nothing typed to lose: u is the history's again
        await wait_for(pilot, lambda: second not in app.session.state.statuses)
        await settled(pilot)
    assert Library(seeded_home).triage().tags.get(first) == ("reread", "rl")


async def test_u_after_tags_replaced_toggles_and_a_decision_ends_it(seeded_home: Path) -> None:
    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_tags(first, ["old"])
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "t", TextPrompt)
        await pilot.press("home", "ctrl+k", *"new", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == ("new",))
        assert "Tags: #new; u brings back the tags it replaced (#old)." in messages(app)
        await pilot.pause(GAP_S)
        await pilot.press("u")
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == ("old",))
        assert "Tags put back: #old; u brings back the tags it replaced (#new)." in messages(app)
        await pilot.press("u")  # the newer ones, typed a moment ago, are not lost either
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == ("new",))
        await pilot.press("s")  # something else done: u is the history's again
        await settled(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: first not in app.session.state.statuses)
        await settled(pilot)
        assert app.session.state.tags.get(first) == ("new",)
    assert Library(seeded_home).triage().tags.get(first) == ("new",)


async def test_tags_typed_with_a_hash_are_their_names(seeded_home: Path) -> None:
    """``a,b #c`` is three tags, ``#c`` shown once; ``#`` alone names none, nor does ``,``:
    refused with a line, the tags left as they were (dropped, they cleared them)."""
    first = Library(seeded_home).papers()[0].id
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        await opened(pilot, "t", TextPrompt)
        await pilot.press(*"a,b #c", "enter")
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == ("a", "b", "c"))
        await wait_for(pilot, lambda: "#a #b #c" in screen.query_one(PaperPane).text.plain)
        assert "##" not in screen.query_one(PaperPane).text.plain
        assert "No tags to clear." not in messages(app)
        await pilot.pause(GAP_S)
        await opened(pilot, "t", TextPrompt)
        await pilot.press("home", "ctrl+k", *"#", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: any("'#' is not a tag" in m for m in messages(app)))
        await settled(pilot)
        assert app.session.state.tags.get(first) == ("a", "b", "c")
        await pilot.pause(GAP_S)
        await opened(pilot, "t", TextPrompt)  # a comma names none either: it cleared them
        await pilot.press("home", "ctrl+k", *" , ", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: any("',' is not a tag" in m for m in messages(app)))
        await settled(pilot)
        assert app.session.state.tags.get(first) == ("a", "b", "c")
        await pilot.pause(GAP_S)
        await opened(pilot, "t", TextPrompt)
        await pilot.press("home", "ctrl+k", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.pause(GAP_S)
        await opened(pilot, "t", TextPrompt)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "No tags to clear." in messages(app))
        await settled(pilot)
    assert Library(seeded_home).triage().tags.get(first, ()) == ()


async def test_a_tag_with_a_control_character_is_kept_as_it_is_or_refused(
    seeded_home: Path,
) -> None:
    """A tag with an ESC in it (an import's) shows as ``a␛b``: a tag added beside it saved
    ``a␛b``, another tag, in silence. Left as shown it is the tag it was; a tag typed with
    ``␛`` (or a control character) is refused in one line, as ``papers tag`` refuses it."""
    from textual.widgets import Input

    lib = Library(seeded_home)
    first = lib.papers()[0].id
    lib.set_tags(first, ["a\x1bb"])
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        prompt = await opened(pilot, "t", TextPrompt)
        assert prompt.query_one(Input).value == "a␛b"
        await pilot.press("end", *" c", "enter")
        await wait_for(pilot, lambda: app.session.state.tags.get(first) == ("a\x1bb", "c"))
        await pilot.pause(GAP_S)
        prompt = await opened(pilot, "t", TextPrompt)
        prompt.query_one(Input).value = "a␛b c x␛y"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen)
        said = "'x␛y' is not a tag: a tag holds no control character, nor a symbol shown for one"
        await wait_for(pilot, lambda: any(m.startswith(said) for m in messages(app)))
        await settled(pilot)
    assert Library(seeded_home).triage().tags.get(first) == ("a\x1bb", "c")
