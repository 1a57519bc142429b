"""Textual's code (and textual-serve's) that papers-tui relies on beyond its public API: the
one list.

Each entry names a function or method of the pinned Textual (``pyproject.toml``), the
SHA-256 (first 16 hex digits) of its source as the app relies on it, what relies on it, and
the change upstream that would let the app stop relying on it (the text of the issue it would
open). ``tests/tui/test_textual_pin.py`` checks every digest, and that no module of the app
names a private Textual module or name: an upgrade of Textual that changes one of these fails
there, naming what to look at.
"""

from __future__ import annotations

from typing import Final, NamedTuple


class Reliance(NamedTuple):
    """What the app relies on in one piece of Textual's code."""

    #: SHA-256 of the source (dedented), first 16 hex digits.
    digest: str
    #: The module of the app that relies on it, and how.
    user: str
    #: The change upstream that would make it public (or unneeded).
    upstream: str


UPSTREAM: Final[dict[str, Reliance]] = {
    "textual.drivers.linux_driver.LinuxDriver.start_application_mode": Reliance(
        "a6a78976dcf6f302",
        "tui/terminal.py's TerminalDriver: the driver writes to the terminal only through "
        "`write` (which it replaces), its own writer thread being left nothing to write",
        "Let a driver's output survive a terminal that goes away: `WriterThread` stops on a "
        "write error (EIO) instead of dying with its queue full, so that the app's next "
        "write does not wait for ever (and SIGTERM is still handled); and a hook for the "
        "terminal hanging up (no SIGHUP reaches a process that is not its session's "
        "leader), so an app can end as on SIGHUP.",
    ),
    "textual.drivers.linux_driver.LinuxDriver.run_input_thread": Reliance(
        "03c4634c663e82c5",
        "tui/terminal.py's TerminalDriver: the input thread makes its UTF-8 decoder through "
        "its module's `getincrementaldecoder`, which the driver replaces by one that reads "
        "a byte that is no UTF-8 as U+FFFD",
        "Decode the terminal's input with errors='replace': a byte that is no UTF-8 (a "
        "Latin-1 terminal's é, an 8-bit CSI 0x9b) raises UnicodeDecodeError in "
        "`run_input_thread`, and the app panics and exits with a traceback.",
    ),
    "textual.drivers.web_driver.WebDriver.run_input_thread": Reliance(
        "9cc683ef01eacfc2",
        "tui/web_driver.py's PacketDriver: the browser tab's input thread makes its UTF-8 "
        "decoder through its module's `getincrementaldecoder`, which the driver replaces by "
        "the terminal's (`tui.terminal.TerminalInput`: ESC and a digit as Alt and the digit)",
        "Let a driver choose how its input is decoded before the parser reads it (a "
        "`Driver.input_decoder` hook), and read ESC and a digit as Alt and the digit rather "
        "than the sign macOS's Option types with it, which a keyboard types too.",
    ),
    "textual.drivers.web_driver.WebDriver.__init__": Reliance(
        "e12cc4b8d1110416",
        "tui/web_driver.py's PacketDriver: every packet goes out through the driver's `_write` "
        "(`partial(os.write, fileno)`), which the driver replaces by a write of the whole packet",
        "Write each packet whole: `os.write` may write part of it (a non-blocking or signalled "
        "pipe), the rest is dropped, and the server reads the next packet's head as data.",
    ),
    "textual.drivers.linux_driver.LinuxDriver.close": Reliance(
        "e53d5bcd492141df",
        "tui/terminal.py's TerminalDriver: `close` stops Textual's writer thread (given "
        "nothing to write, it ends at once)",
        "As for `start_application_mode`: an output that survives the terminal going away.",
    ),
    "textual.drivers.linux_driver.LinuxDriver.__init__": Reliance(
        "8ffb11d084a66090",
        "tui/terminal.py's TerminalDriver reads `_file` (the terminal's stream) as it was set here",
        "Expose the driver's output stream (a `Driver.file` property).",
    ),
    "textual.driver.Driver.__init__": Reliance(
        "11bfb0bb055825d6",
        "tui/terminal.py's TerminalDriver reads `_app` and `_loop` as set here, to hand the "
        "keys read in a batch to the app (`send_message`)",
        "Let a driver hand the app many events at once (a flood of keys schedules one task "
        "each on the loop, and an exit waits behind them all): `Driver.send_messages`.",
    ),
    "textual.worker.Worker._run_threaded": Reliance(
        "25b7bb3d9c5c0f5d",
        "tui/threads.py's DaemonThreads: a thread worker runs on the event loop's default "
        "executor, which the app makes a pool of daemon threads",
        "Let an app choose the executor of thread workers (`App.worker_executor`), or run "
        "them on daemon threads, so that a worker still running never keeps the process "
        "alive after the app has ended.",
    ),
    "textual_serve.app_service.AppService.run": Reliance(
        "43c1c0a44ebee9f4",
        "tui/web_server.py's ChildApp.run: it passes the app's packets (the `__GANGLION__` "
        "prelude, then `D`, `M` and `P` packets) to the tab as this method does, in its "
        "place, to keep the app's standard error and tell the page why the app ended",
        "Let an `AppService` hand a subclass the app's standard error and exit status when "
        "the app ends (an `on_app_ended(returncode, stderr)` hook), instead of writing the "
        "error to the server's stdout, so that the page can say why its session ended.",
    ),
}
