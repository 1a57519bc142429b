"""Keys typed into the page in one burst, in headless Chromium: the page sends them through its
websocket together, and the tab's app must take them as a terminal does, one after another,
and keep every decision they make, even when the tab is reloaded or closed right after them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks._browser import Browser, Served, serve
from storage import Library, Status
from tests.web.test_browser import decided, wait_until

pytestmark = pytest.mark.usefixtures("needs_browser")

ENTER_ESC = ("\ue007", "\ue00c")  # selenium's Keys.ENTER and Keys.ESCAPE

#: What the page's script records: every ``stdin`` message the page sent, and whether the
#: browser still held any of it unsent (``bufferedAmount``).
SENT_HOOK = """
window.__stdin = {sent: 0, ws: null};
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (String(data).startsWith('["stdin"')) {
    window.__stdin.sent += 1;
    window.__stdin.ws = this;
  }
  return send.call(this, data);
};
"""


@pytest.fixture
def served(seeded_home: Path) -> Iterator[Served]:
    server = serve(seeded_home)
    yield server
    server.stop()


def type_then_leave(browser: Browser, keys: str) -> None:
    """Type ``keys`` in one burst and make sure the page handed them all to its websocket,
    so that what is lost after this is lost by the server or the app, not by the browser."""
    browser.script(SENT_HOOK)
    browser.press(*keys)

    def sent() -> list[int]:
        return browser.script(  # type: ignore[no-any-return]
            "const s = window.__stdin; return [s.sent, s.ws ? s.ws.bufferedAmount : -1]"
        )

    # Every key is handed to the websocket as it is typed; on a busy machine the browser may
    # still hold some bytes of them unsent for a moment (bufferedAmount 52 in one CI run).
    assert wait_until(lambda: sent() == [len(keys), 0], timeout=5), sent()


def test_decisions_typed_just_before_a_reload_or_a_closed_tab_are_kept(
    served: Served, seeded_home: Path
) -> None:
    """``ssssss`` then the page reloaded at once: textual-serve's quit message overtook keys
    it came after (Textual's driver posts keys through tasks and the quit at once), and the
    keys still held behind a key settling were dropped as the app ended: 0 to 4 of the 6
    stars were kept, each reload."""
    with Browser() as browser:
        browser.open(served.url)
        browser.wait_for("Inbox · 1 / 38")
        for round_ in range(1, 3):
            type_then_leave(browser, "ssssss")
            browser.driver.refresh()
            browser.wait_for(f"Starred {6 * round_} ", what=f"{6 * round_} stars kept")
        # the tab closed just after its keys (another tab keeps the browser open)
        browser.wait_for("Inbox · 1 / 26")
        first = browser.driver.current_window_handle
        browser.driver.switch_to.new_window("tab")
        browser.driver.switch_to.window(first)
        type_then_leave(browser, "xxxx")
        browser.driver.close()
        browser.driver.switch_to.window(browser.driver.window_handles[0])
        assert wait_until(lambda: len(decided(seeded_home, Status.SKIPPED)) == 4, timeout=20)
    assert len(decided(seeded_home, Status.STARRED)) == 12
    assert len(Library(seeded_home).triage().statuses) == 16


def test_the_browser_shows_a_key_for_ctrl_w_that_works_in_a_browser(seeded_home: Path) -> None:
    """ctrl+w (delete the saved search shown; in the search box, the word before the
    cursor) closes the browser's tab instead, and the page cannot keep it: the footer, the
    help and the palette showed ctrl+w. They show alt+backspace, which xterm.js sends as ESC
    DEL, read as ctrl+w: it deletes the word and the saved search."""
    from storage.files.saved_searches import SavedSearches

    searches = SavedSearches(seeded_home, Library(seeded_home).lock)
    searches.save("models", "model")
    alt_backspace = ("\ue00a", "\ue003", "\ue000")  # ALT, BACKSPACE, NULL (releases ALT)
    server = serve(seeded_home)
    try:
        with Browser() as browser:
            browser.open(server.url)
            browser.wait_for("Inbox · 1 / 38")
            browser.press("?")
            browser.wait_for("Show the papers marked read")
            browser.press(" ")  # a page down, to the Lists' keys
            shown = browser.wait_for("Delete the saved search whose tab is shown")
            assert "alt+backspace" in shown and "ctrl+w" not in shown
            browser.press(ENTER_ESC[1])  # (Esc and 6 read at once are §, Textual's alt+6)
            browser.wait_for(lambda text: "Delete the saved search" not in text)
            browser.press("6")
            browser.wait_for("models · 1 / 32", what="the saved search's tab")
            browser.press(*alt_backspace)
            assert wait_until(lambda: searches.all() == [])
            browser.press("/", *"graph neural")
            shown = browser.wait_for("alt+backspace Delete word", what="the box's footer")
            assert "ctrl+w" not in shown
            browser.press(*alt_backspace)
            browser.wait_for(lambda text: "graph neural" not in text and "graph " in text)
    finally:
        server.stop()
