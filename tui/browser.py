"""Open a web page in the user's browser, keeping the browser's own output off the app's screen.

``webbrowser.open`` runs the opener (``$BROWSER``, ``xdg-open``, ``gio``…) with the app's
terminal as its output: what it prints (``gio: … Operation not supported``) lands on the
screen and stays there, and whether it worked is not known (``xdg-open``, ``gio open`` are
started in the background and taken for a success at once: `o` said "Opened" when
``xdg-open`` then failed with no browser). So Python's ``webbrowser`` runs in a child process
instead, waiting for such openers' exit code: its output goes to a file, read back to say
why opening failed; it runs in a session of its own without ``TERM``, so that no text-mode
browser tries to take over the app's terminal; and its exit code says whether a browser
took the page. ``open_in_browser`` is the one way out to a browser.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from storage.text.sanitize import printable

#: How long a browser gets to say it opened the page; one still running then has it in front.
WAIT_SECONDS = 5.0

#: What the child runs: Python's ``webbrowser``, except that an opener it would start in the
#: background and take for a success while it still runs (``xdg-open``, ``gio open``…: a
#: ``BackgroundBrowser``) is waited for, so that its exit code says whether a page opened;
#: the next opener is tried when one fails, as ``webbrowser.open`` does. A ``$BROWSER`` that
#: fails is named in what is said (``BROWSER=false failed (exit code 1)``), even when it
#: printed nothing, rather than taken for "no browser found".
_OPEN = """
import os, subprocess, sys, tempfile, webbrowser
url = sys.argv[1]
chosen = [c for c in os.environ.get("BROWSER", "").split(os.pathsep) if c]
webbrowser.register_standard_browsers()
failed = []
for name in list(getattr(webbrowser, "_tryorder", None) or [None]):
    try:
        browser = webbrowser.get(name)
    except webbrowser.Error:
        continue
    if isinstance(browser, webbrowser.GenericBrowser):
        who = f"BROWSER={name}" if name in chosen else browser.name
        command = [browser.name] + [a.replace("%s", url) for a in browser.args]
        with tempfile.TemporaryFile() as output:
            try:
                done = subprocess.run(
                    command, stdin=subprocess.DEVNULL, stdout=output, stderr=output
                )
            except FileNotFoundError:
                failed.append(f"{who} not found")
                continue
            except OSError as exc:
                failed.append(f"{who} could not be started ({exc.strerror or exc})")
                continue
            if done.returncode == 0:
                sys.exit(0)
            output.seek(0)
            said = [l.strip() for l in output.read()[-4096:].decode(errors="replace").splitlines()]
        last = next((line for line in reversed(said) if line), "")
        if name in chosen:  # the user's own choice is named, with its last words
            said_too = f": {last}" if last else ""
            failed.append(f"{who} failed (exit code {done.returncode}){said_too}")
        else:
            failed.append(last or f"{who} exited with code {done.returncode}")
    elif browser.open(url, new=2):
        sys.exit(0)
if failed:
    print(failed[0] if chosen else failed[-1], file=sys.stderr)
    sys.exit(4)
sys.exit(3)
"""
_NOTHING_OPENED = 3


@dataclass(frozen=True, slots=True)
class Opening:
    """What became of asking for a page to be opened."""

    opened: bool
    #: One line for people: why it failed, or that the browser has not answered yet.
    detail: str = ""


def open_in_browser(url: str, wait: float = WAIT_SECONDS) -> Opening:
    """Open ``url`` in the user's browser (blocks up to ``wait`` seconds: run it off-thread)."""
    environment = {k: v for k, v in os.environ.items() if k != "TERM"}
    with tempfile.TemporaryFile() as output:
        try:
            child = subprocess.Popen(
                [sys.executable, "-c", _OPEN, url],
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=output,
                env=environment,
                start_new_session=True,
            )
        except OSError as exc:
            return Opening(False, f"the browser could not be started ({exc.strerror or exc})")
        try:
            code = child.wait(timeout=wait)
        except subprocess.TimeoutExpired:  # a browser that stays in the foreground
            return Opening(True, f"the browser has not answered after {wait:.0f} s")
        if code == 0:
            return Opening(True)
        output.seek(0, os.SEEK_END)
        output.seek(max(0, output.tell() - 4096))
        said = [line.strip() for line in output.read().decode(errors="replace").splitlines()]
    last = printable(next((line for line in reversed(said) if line), ""))[:200]
    if last:
        return Opening(False, last)
    if code == _NOTHING_OPENED:
        return Opening(False, "no browser found (set BROWSER to the command that opens one)")
    return Opening(False, f"the browser command failed (exit code {code})")
