"""A tab whose app ends on an error says why, in the page: a ``triage.json`` damaged while
``papers serve`` runs showed only "The session ended", the one-line error (the terminal
app's) reaching the server's log alone, twice and raw. The server keeps running, and each
new tab says the same, until the file is repaired."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from benchmarks._browser import Browser, serve
from storage import Library

pytestmark = pytest.mark.usefixtures("needs_browser")


def closed_dialog(browser: Browser, timeout: float = 30.0) -> str:
    """The text of the page's closing dialog, once the session has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = browser.script(
            "return document.body.classList.contains('-closed')"
            " && document.querySelector('.closed-dialog').innerText"
        )
        if shown and ":" in shown:  # the reason comes just before the close
            return str(shown)
        time.sleep(0.05)
    raise TimeoutError("the session never ended with a reason")


def test_a_triage_file_damaged_while_serving_is_said_in_the_page(seeded_home: Path) -> None:
    paper = Library(seeded_home).papers()[0]
    Library(seeded_home).set_status(paper.id, "starred")
    triage = seeded_home / "triage.json"
    served = serve(seeded_home)
    try:
        damaged = b'{"status": {"_default": {"1": '
        triage.write_bytes(damaged)
        with Browser() as browser:
            for _ in range(2):  # "Open it again" opens a new session, which says it again
                browser.open(served.url)
                shown = closed_dialog(browser)
                assert "The session ended:" in shown
                assert f"papers: error: {triage} is damaged (not valid JSON" in shown
                assert "move it aside" in shown
        assert served.proc.poll() is None, "the server ended with the tab"
        log = "".join(served.output)
        assert log.count("is damaged") == 2  # once a tab, not twice raw
        assert "a tab's app did not start: papers: error:" in log
        assert "Traceback" not in log
        assert triage.read_bytes() == damaged  # never written over
    finally:
        assert served.stop() == 0
