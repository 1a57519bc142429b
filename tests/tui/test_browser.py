"""`o` / `O`: the browser's own output stays off the app's screen; a failure is said as one."""

from __future__ import annotations

import json
import stat
import sys
import time
from pathlib import Path

import pytest

from benchmarks._pty import spawn
from storage import Library
from tests.tui.helpers import make_app, ready, wait_for
from tui.browser import open_in_browser

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell scripts as browsers")

URL = "https://openreview.net/forum?id=abc123"


def fake_browser(tmp_path: Path, code: int) -> Path:
    """A browser command that chatters on both outputs, notes the URL, and exits ``code``."""
    script = tmp_path / "browser.sh"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$1" >> "{tmp_path / "opened.txt"}"\n'
        'echo "JUNK-ON-STDOUT $1"\n'
        'printf "\\033[2J\\033]52;c;cHduZWQ=\\007\\n"\n'
        'echo "gio: $1: Operation not supported" >&2\n'
        f"exit {code}\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


@pytest.fixture
def no_desktop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the fake browser may be found (no desktop browser on the machine running tests)."""
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
        monkeypatch.delenv(name, raising=False)


def test_a_failing_browser_is_a_failure_with_its_last_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_desktop: None
) -> None:
    browser = fake_browser(tmp_path, 4)
    monkeypatch.setenv("BROWSER", str(browser))
    opening = open_in_browser(URL)
    assert not opening.opened
    assert opening.detail == (
        f"BROWSER={browser} failed (exit code 4): gio: {URL}: Operation not supported"
    )
    assert (tmp_path / "opened.txt").read_text() == URL + "\n"


def test_a_browser_that_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_desktop: None
) -> None:
    monkeypatch.setenv("BROWSER", str(fake_browser(tmp_path, 0)))
    assert open_in_browser(URL).opened


def test_no_browser_at_all(monkeypatch: pytest.MonkeyPatch, no_desktop: None) -> None:
    monkeypatch.setenv("PATH", "")
    opening = open_in_browser(URL)
    assert not opening.opened and "no browser found" in opening.detail


def fake_opener(folder: Path, code: int, said: str = "") -> Path:
    """An ``xdg-open`` alone on PATH (in a temporary folder): notes the URL, says ``said``
    and exits ``code`` (3: xdg-open's "no browser found")."""
    folder.mkdir(exist_ok=True)
    script = folder / "xdg-open"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$1" >> "{folder / "opened.txt"}"\n'
        + (f'echo "{said}" >&2\n' if said else "")
        + f"exit {code}\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return folder


@pytest.mark.parametrize("said", ["", "xdg-open: no method available for opening it"])
def test_an_opener_that_fails_after_starting_is_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_desktop: None, said: str
) -> None:
    """xdg-open is started by webbrowser in the background and taken for a success at once;
    here its exit code decides."""
    folder = fake_opener(tmp_path / "bin", 3, said)
    monkeypatch.setenv("PATH", str(folder))
    monkeypatch.setenv("DISPLAY", ":99")  # a desktop, as far as webbrowser can tell
    opening = open_in_browser(URL)
    assert not opening.opened
    assert opening.detail == (said or "xdg-open exited with code 3")
    assert (folder / "opened.txt").read_text() == URL + "\n"


def test_an_opener_that_succeeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_desktop: None
) -> None:
    folder = fake_opener(tmp_path / "bin", 0)
    monkeypatch.setenv("PATH", str(folder))
    monkeypatch.setenv("DISPLAY", ":99")
    assert open_in_browser(URL).opened


async def test_the_app_says_an_opener_failed_and_shows_the_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_desktop: None
) -> None:
    folder = fake_opener(tmp_path / "bin", 3)
    monkeypatch.setenv("PATH", str(folder))
    monkeypatch.setenv("DISPLAY", ":99")
    app = make_app(linked_home(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("o")
        await wait_for(pilot, lambda: any(n.title == "Browser" for n in app._notifications))
        [note] = [n for n in app._notifications if n.title == "Browser"]
        assert note.severity == "error"
        assert note.message == f"Could not open the browser: xdg-open exited with code 3\n{URL}"


def linked_home(tmp_path: Path) -> Path:
    source = tmp_path / "linked.jsonl"
    record = {
        "title": "A linked paper",
        "abstract": "A paper with a page and a repository, to open both from the keyboard.",
        "url": URL,
        "github": "https://github.com/owner/repo",
    }
    source.write_text(json.dumps(record) + "\n")
    home = tmp_path / "home"
    Library(home).import_file(source)
    return home


@pytest.mark.parametrize(("code", "key"), [(4, "o"), (0, "o"), (4, "O")])
async def test_the_app_says_whether_the_page_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_desktop: None, code: int, key: str
) -> None:
    browser = fake_browser(tmp_path, code)
    monkeypatch.setenv("BROWSER", str(browser))
    app = make_app(linked_home(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press(key)
        await wait_for(pilot, lambda: any(n.title == "Browser" for n in app._notifications))
        [note] = [n for n in app._notifications if n.title == "Browser"]
        url = URL if key == "o" else "https://github.com/owner/repo"
        if code:
            assert note.severity == "error"
            assert note.message == (
                f"Could not open the browser: BROWSER={browser} failed (exit code 4): "
                f"gio: {url}: Operation not supported\n{url}"
            )
        else:
            assert note.severity == "information" and note.message.startswith(f"Opened {url}")
        assert not any(n.message.startswith("Opening") for n in app._notifications)


def test_the_browser_never_writes_on_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_desktop: None
) -> None:
    home = linked_home(tmp_path)
    monkeypatch.setenv("BROWSER", str(fake_browser(tmp_path, 4)))  # the app inherits it
    script = Path(sys.executable).with_name("papers")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "tui"]
    terminal = spawn([*command, "--home", str(home)])
    try:
        terminal.wait_for(b"triaged", timeout=60)
        start = len(terminal.screen)
        terminal.type(b"o")
        terminal.wait_for(b"Could not open", timeout=20, start=start)
        time.sleep(0.3)
        terminal.quiet(0.2, timeout=3)
        shown = bytes(terminal.screen[start:])
        assert b"JUNK-ON-STDOUT" not in shown
        assert b"\x1b]52;" not in shown and b"cHduZWQ=" not in shown  # the clipboard untouched
        assert (tmp_path / "opened.txt").read_text() == URL + "\n"
    finally:
        terminal.close()


def test_a_local_file_not_opened_is_shown_as_its_path() -> None:
    from tui.links import _shown_link

    url = "file:///home/me/papers/pdfs/%5Bbold%5D%20Title%20%28ab12cd34ef56%29.pdf"
    assert _shown_link(url) == "/home/me/papers/pdfs/[bold] Title (ab12cd34ef56).pdf"
    assert _shown_link("http://127.0.0.1:9/pdf?id=x%20y") == "http://127.0.0.1:9/pdf?id=x%20y"


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("false", "BROWSER=false failed (exit code 1)"),
        ("/nonexistent/browser", "BROWSER=/nonexistent/browser not found"),
    ],
)
def test_a_browser_set_that_fails_is_named(
    monkeypatch: pytest.MonkeyPatch, no_desktop: None, command: str, said: str
) -> None:
    """A BROWSER that fails silently is named, not taken for "no browser found"."""
    monkeypatch.setenv("BROWSER", command)
    opening = open_in_browser(URL)
    assert not opening.opened
    assert opening.detail == said


async def test_the_app_names_the_browser_set_that_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_desktop: None
) -> None:
    monkeypatch.setenv("BROWSER", "false")
    app = make_app(linked_home(tmp_path))
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("o")
        await wait_for(pilot, lambda: any(n.title == "Browser" for n in app._notifications))
        [note] = [n for n in app._notifications if n.title == "Browser"]
        assert note.message == (
            f"Could not open the browser: BROWSER=false failed (exit code 1)\n{URL}"
        )
