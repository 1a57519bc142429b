"""The app given the focus (a browser tab's page, which textual-serve's app starts blurred)
with no widget focused: the screen's own first focus, the list on the main screen.

In a browser the app is blurred as it starts, before the main screen has given the list the
focus; the page's focus (its terminal takes it as it opens), or the first key, had then no
widget to give it back to: ``j`` moved a cursor drawn as in a list without the focus (its
border dim, its cursor grey), until a click or Esc."""

from __future__ import annotations

from pathlib import Path

from textual import events

from tests.tui.helpers import make_app, plist, ready, wait_for

SIZE = (120, 36)


async def test_the_focus_given_to_the_app_goes_to_the_list_when_none_had_it(
    seeded_home: Path,
) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        screen.set_focus(None)  # as a browser tab's app starts: nothing focused, then blurred
        app.post_message(events.AppBlur())
        await wait_for(pilot, lambda: not app.app_focus)
        app.post_message(events.AppFocus())  # the page's terminal took the focus
        await wait_for(pilot, lambda: app.app_focus)
        await pilot.pause()
        assert app.focused is plist(app)


async def test_the_first_key_of_a_blurred_app_focuses_the_list_and_moves(
    seeded_home: Path,
) -> None:
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        screen.set_focus(None)
        app.post_message(events.AppBlur())
        await wait_for(pilot, lambda: not app.app_focus)
        await pilot.press("j")  # no focus from the page came: the key gives it
        assert app.app_focus and app.focused is plist(app)
        assert plist(app).cursor == 1
