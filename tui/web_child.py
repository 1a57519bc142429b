"""The process ``papers serve`` starts for each browser tab: the ``papers`` app, which ends
with the server (``python -m tui.web_child --home DIR``).

textual-serve talks to it through its standard input and output (Textual's ``WebDriver`` as
``tui.web_driver.PacketDriver``, set by ``TEXTUAL_DRIVER``). The server stops it by a quit
message, as a closed tab does; if the server itself is killed (``kill -9``), Linux sends this
process SIGTERM (``PR_SET_PDEATHSIG``), which ends the app as ``q`` does, every decision
saved, instead of leaving it running unseen.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys

#: The server's process id, set in the child's environment: the parent this child must have.
SERVER_VARIABLE = "PAPERS_SERVE_PID"
#: The page's origin (``http://127.0.0.1:8000``) as the browser sent it (``tui/web.py``).
ORIGIN_VARIABLE = "PAPERS_WEB_ORIGIN"
#: The child's Textual driver (``TEXTUAL_DRIVER``): ``WebDriver``, one packet at a time.
DRIVER = "tui.web_driver:PacketDriver"
_PR_SET_PDEATHSIG = 1


def end_with_server() -> None:
    """Have this process sent SIGTERM when its parent (the server) dies (Linux only); if the
    server is already gone, end now."""
    expected = os.environ.get(SERVER_VARIABLE, "")
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl: the quit message and the closed pipes still end the app
    if expected.isdigit() and os.getppid() != int(expected):
        sys.exit(0)  # the server died before the death signal was asked for


def run() -> int:
    """Run the app the way ``papers`` does, tied to the server."""
    from tui.cli import main

    end_with_server()
    return main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(run())
