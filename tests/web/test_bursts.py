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
    sent = browser.script(
        "const s = window.__stdin; return [s.sent, s.ws ? s.ws.bufferedAmount : -1]"
    )
    assert sent == [len(keys), 0]


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
