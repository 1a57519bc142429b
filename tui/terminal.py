"""The terminal driver: Textual's Linux driver, with an output that cannot hang the app and a
watch that ends the app when its terminal goes away.

Textual's driver writes through a thread (``WriterThread``) fed by a queue of 30 writes, and
blocks the app while that queue is full. When the terminal goes away (its window closed,
the ssh connection dropped) a write fails with EIO: the thread dies on the exception, the
queue never empties again, and the app's next writes (at the latest ``close``'s last one,
in ``App._shutdown``) wait for ever; the process then ignores SIGTERM as well, since the
event loop that would handle it is the thread that waits. And a terminal closed under a
process that is not its session's leader sends no SIGHUP: nothing told the app to end, and
Textual's input thread spun at 100% on the end of its input.

``TerminalDriver`` keeps Textual's driver and changes two things:

- every write goes to ``TerminalOutput``: a bounded queue as Textual's (a slow terminal
  still slows the app down instead of piling frames up), written with ``os.write`` to the
  terminal's file descriptor (no Python buffer lock that a stuck write could hold at exit).
  A failed write marks the terminal gone: from then on writes are dropped at once; and
  ``stop`` gives the last writes (the restored terminal modes) ``STOP_SECONDS`` at most;
- ``HangupWatch`` waits (in ``poll``, at no cost) for the terminal to hang up, and then
  ends the app as a SIGHUP does (``tui/signals.py``: every decision saved, exit code 129).

And its input reads a byte that is no UTF-8 (a Latin-1 terminal's ``é``, an 8-bit CSI, a
paste of binary junk) as U+FFFD: Textual's strict decoder raised there, which ended the app
with a traceback (``lenient_decoder``); and the keys a terminal sends as ESC and a byte as the
keys they are (``TerminalInput``): Alt+f, not Textual's ctrl+right; Esc and a digit, not the
sign macOS's Option types with it; Alt+Backspace, not ctrl+w (ESC DEL) or Backspace (ESC ^H);
with the kitty protocol off too (``tui.stand_ins``).

Textual's own writer thread is still made by ``LinuxDriver.start_application_mode``, but is
given nothing to write: it ends at once in ``close``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import queue
import re
import select
import signal
import termios
import threading
import time
from codecs import IncrementalDecoder, getincrementaldecoder
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from textual import constants, events
from textual.drivers import linux_driver
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from tui.stand_ins import NONCHARACTERS, STAND_IN

if TYPE_CHECKING:
    from textual.app import App

#: Writes waiting for the terminal, at most (as Textual's ``MAX_QUEUED_WRITES``).
MAX_QUEUED_WRITES = 30
#: How long ``stop`` waits for the last writes to reach a terminal that is still there.
STOP_SECONDS = 0.5
#: How often a write that waits for room in the queue looks whether the terminal went away.
WAIT_SLICE_SECONDS = 0.05

# The Textual code this module relies on (that the driver writes only through ``write``,
# stops its own writer thread in ``close``, and where it keeps the app, the loop and the
# terminal's stream) is listed, pinned and guarded in tui/upstream.py.


class TerminalOutput(threading.Thread):
    """Writes text to a terminal's file descriptor in order, off the app's thread; never
    blocks the app once the terminal is gone or the output is stopping."""

    def __init__(self, file: IO[str], on_gone: Callable[[], None] = lambda: None) -> None:
        super().__init__(daemon=True, name="papers-output")
        self._fd = file.fileno()
        self._encoding = getattr(file, "encoding", None) or "utf-8"
        self._errors = getattr(file, "errors", None) or "strict"
        self._queue: queue.Queue[str | None] = queue.Queue(MAX_QUEUED_WRITES)
        self._on_gone = on_gone
        #: The terminal took no more writes (EIO, EPIPE…): everything from now on is dropped.
        self.gone = False
        self._stopping = False

    def write(self, text: str) -> None:
        """Queue ``text``; waits while the queue is full and the terminal is still there."""
        while not (self.gone or self._stopping):
            try:
                self._queue.put(text, timeout=WAIT_SLICE_SECONDS)
                return
            except queue.Full:
                if not self.is_alive():
                    return

    def stop(self, timeout: float = STOP_SECONDS) -> bool:
        """Let the queued writes go out for ``timeout`` seconds at most, then end; False when
        the terminal did not take them in time (the thread is left to die with the process)."""
        self._stopping = True
        if self.is_alive():
            with contextlib.suppress(queue.Full):
                self._queue.put(None, timeout=timeout)
            self.join(timeout)
        return not self.is_alive()

    def run(self) -> None:
        get = self._queue.get
        while True:
            text = get()
            last = text is None
            parts = [] if text is None else [text]
            while not last:  # what else is waiting goes out in the same write
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    last = True
                else:
                    parts.append(more)
            if parts and not self.gone:
                self._write("".join(parts).encode(self._encoding, self._errors))
            if last:
                return

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._fd, view) :]
        except OSError:
            self.gone = True
            self._on_gone()


_HUNG_UP = select.POLLHUP | select.POLLERR | select.POLLNVAL


class HangupWatch(threading.Thread):
    """Waits for a terminal to hang up, then calls ``on_hangup`` once; ``stop`` ends it."""

    def __init__(self, fds: list[int], on_hangup: Callable[[], None]) -> None:
        super().__init__(daemon=True, name="papers-hangup-watch")
        self._fds = fds
        self._on_hangup = on_hangup
        self._wake_read, self._wake_write = os.pipe()

    def run(self) -> None:
        poller = select.poll()
        for fd in self._fds:
            poller.register(fd, 0)  # POLLHUP and POLLERR are reported whatever is asked
        poller.register(self._wake_read, select.POLLIN)
        try:
            while True:
                try:
                    events = poller.poll()
                except OSError:
                    return
                if any(fd == self._wake_read for fd, _ in events):
                    return
                if any(mask & _HUNG_UP for _, mask in events):
                    self._on_hangup()
                    return
        finally:
            os.close(self._wake_read)

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_write, b"x")
            os.close(self._wake_write)
        self.join(1.0)


#: What Textual's ``stop_application_mode`` writes, in one go: keyboard protocol, bracketed
#: paste, mouse and focus reports off; line wrap on; the main screen and the cursor back.
RESTORE = (
    "\x1b[<u\x1b[?2004l\x1b[?7h\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"
    "\x1b[?2048l\x1b[?1049l\x1b[?25h\x1b[?1004l"
)

#: What a user does: keys, clicks, pastes (dropped once the app is ending).
_INPUT = (events.InputEvent, events.Paste)


#: ESC and what follows it in a key a terminal sends so: Alt+f, which Textual reads as
#: ctrl+right (iTerm's Option+→), as the kitty keyboard protocol's alt+f; Esc and a digit typed
#: within tmux's escape-time (tmux sends both at once) or Alt+digit (WezTerm's macOS
#: Option+digit), which Textual reads as the sign macOS's Option types with the digit (ESC 3
#: as ``£``, which a UK keyboard types too); Alt+Backspace (ESC DEL, which Textual reads as
#: ctrl+w, or as some terminals send it, ESC ^H, which Textual reads as Backspace).
_AFTER_ESC = re.compile("\x1b([f0-9\x08\x7f])")


class TerminalInput(IncrementalDecoder):
    """Decodes what the terminal sends, replacing what is no ``encoding`` with U+FFFD
    instead of raising, and giving the keys a terminal sends as ESC and a byte as the kitty
    keyboard protocol reports them (``_AFTER_ESC``), so Textual reads each as the key it is:

    - Alt+f (ESC f): alt+f, which the search box takes as readline's forward-word (to the
      word's end; ``SearchBox.action_cursor_word_end``). Textual read it as ctrl+right,
      which moves to the next word's start; the app still takes it so in every other text
      field, and a real ctrl+right is still ctrl+right;
    - ESC and a digit: alt and the digit, Esc then the digit to the app
      (``tui.key_gate.escape_then``). Textual read it as the sign (ESC 2 as ``™``), which a
      keyboard types too (a UK one ``£``, a Spanish one ``º``): the app could not type a
      real one into a text field;
    - Alt+Backspace (ESC DEL, or ESC ^H): alt+backspace, which the search box takes as
      readline's backward-kill-word, and the app elsewhere as ctrl+w (``PapersApp``), as
      Textual read ESC DEL: ctrl+w is the box's unix-word-rubout (to the space before the
      cursor). Textual read ESC ^H as Backspace, one character.

    Without the kitty protocol (``TEXTUAL_DISABLE_KITTY_KEY``) Textual reads no report: each
    is given as a stand-in the app takes for the same key (``tui.stand_ins``): ESC 2 was read
    as ``™`` then, and ESC DEL as ctrl+w. ESC in one read and the byte in the next are taken
    so too when the byte comes within Textual's escape delay (the parser still holds the ESC
    then): Esc then 2 typed quickly outside tmux."""

    def __init__(self, encoding: str, errors: str = "replace") -> None:
        super().__init__(errors)
        self._decoder = getincrementaldecoder(encoding)(errors="replace")
        #: Textual reads the kitty protocol's keys unless told not to.
        self._kitty = not constants.DISABLE_KITTY_KEY
        #: When the last read ended with an ESC (None: it did not).
        self._esc_at: float | None = None

    def _reported(self, byte: str) -> str:
        """What ``byte`` after an ESC is given as: the rest of the key's report (without the
        protocol, the stand-in of Alt and the key, which the ESC before it leaves as it is)."""
        if byte == "\x08":
            byte = "\x7f"  # (whatever Textual does with the ESC, this is a Backspace too)
        if not self._kitty:
            return STAND_IN["alt+backspace" if byte == "\x7f" else f"alt+{byte}"]
        return f"[{ord(byte)};3u"

    def _after_esc(self, found: re.Match[str]) -> str:
        """ESC and ``byte`` as one key: its report (the stand-in alone, without the protocol)."""
        reported = self._reported(found[1])
        return "\x1b" + reported if self._kitty else reported

    def decode(self, data: bytes, final: bool = False) -> str:  # type: ignore[override]
        text = self._decoder.decode(data, final)
        if not text:
            return text
        text = NONCHARACTERS.sub("\ufffd", text)  # (none the terminal sends is a stand-in)
        now = time.monotonic()
        esc_at, self._esc_at = self._esc_at, None
        if esc_at is not None and now - esc_at < constants.ESCAPE_DELAY:
            text = self._reported(text[0]) + text[1:] if _AFTER_ESC.match("\x1b" + text) else text
        elif esc_at is not None and text[0].isdigit() and text[0].isascii():
            # read after the delay, the parser may hold the ESC still (its tick not yet run:
            # this thread late), and read the pair as a sign: the digit as a key report of its
            # own, a key whether or not the ESC went out (Esc, then the digit); without the
            # protocol an ESC and the digit's stand-in, which Textual reads as Alt and it
            alone = f"[{ord(text[0])}u" if self._kitty else STAND_IN[text[0]]
            text = "\x1b" + alone + text[1:]
        if "\x1b" in text:
            text = _AFTER_ESC.sub(self._after_esc, text)
            if text.endswith("\x1b"):
                self._esc_at = now
        return text

    def reset(self) -> None:
        self._decoder.reset()
        self._esc_at = None


def lenient_decoder(encoding: str) -> Callable[[], IncrementalDecoder]:
    """The decoder class Textual's input thread asks for (``getincrementaldecoder``):
    ``TerminalInput``."""
    return lambda: TerminalInput(encoding)


def end_as_hangup() -> None:
    """End the process as a hung-up terminal's SIGHUP does (``tui/signals.py`` handles it)."""
    os.kill(os.getpid(), signal.SIGHUP)


class TerminalDriver(LinuxDriver):
    """Textual's Linux driver whose output never hangs the app and which ends the app when
    the terminal goes away (see the module)."""

    #: The driver that put the terminal in application mode in this process (one app runs
    #: in a terminal at a time): the one ``restore_active`` puts back.
    active: TerminalDriver | None = None
    _output: TerminalOutput | None = None
    _watch: HangupWatch | None = None
    _hung_up = False
    _in_application_mode = False
    #: What the input thread read and the event loop has not yet handed to the app.
    _inbox: list[Message]
    _delivering = False

    def __init__(self, app: App[Any], **options: Any) -> None:
        super().__init__(app, **options)
        self._inbox = []
        self._inbox_lock = threading.Lock()

    def _terminal_gone(self) -> None:
        if not self._hung_up:
            self._hung_up = True
            end_as_hangup()

    def start_application_mode(self) -> None:
        self._in_application_mode = True
        TerminalDriver.active = self
        assert self._file is not None  # (sys.__stderr__: None only without a console)
        self._output = TerminalOutput(self._file, self._terminal_gone)
        self._output.start()  # before: Textual's start writes through ``write``
        super().start_application_mode()
        fds = sorted({fd for fd in (self.fileno, self._file.fileno()) if os.isatty(fd)})
        if fds:
            self._watch = HangupWatch(fds, self._terminal_gone)
            self._watch.start()

    def run_input_thread(self) -> None:
        """Textual's input thread, reading bytes that are no UTF-8 as U+FFFD (see the
        module; it makes its decoder through its module's ``getincrementaldecoder``, as
        tui/upstream.py pins)."""
        linux_driver.getincrementaldecoder = lenient_decoder  # type: ignore[assignment]
        super().run_input_thread()

    def send_message(self, message: Message) -> None:
        """Hand what the input thread read to the app (called on that thread).

        Textual schedules a task on the event loop per key; under a flood of keys (a paste,
        a key held down, a terminal dying) thousands of them wait in the loop, each run in
        turn before anything else, such as the exit a signal asked for. Here what arrives
        waits in one list that one callback empties, and once the app is ending, keys and
        clicks are dropped, so that its end waits behind none of them.
        """
        if self._ending() and isinstance(message, _INPUT):
            return
        with self._inbox_lock:
            self._inbox.append(message)
            if self._delivering:
                return
            self._delivering = True
        self._loop.call_soon_threadsafe(self._deliver)

    def _deliver(self) -> None:
        with self._inbox_lock:
            messages, self._inbox = self._inbox, []
            self._delivering = False
        ending = self._ending()
        for message in messages:
            if not (ending and isinstance(message, _INPUT)):
                self._app.post_message(message)

    def _ending(self) -> bool:
        return bool(getattr(self._app, "ending", False))

    def stop_application_mode(self) -> None:
        super().stop_application_mode()
        self._in_application_mode = False

    @classmethod
    def restore_active(cls) -> None:
        """``restore_now`` of the driver in application mode in this process, if any."""
        if cls.active is not None:
            cls.active.restore_now()

    def restore_now(self) -> None:
        """Put the terminal back as it was, at once and without waiting on it (the last
        resort of ``tui/ending.py``: Textual's own restoring did not run in time)."""
        if not self._in_application_mode:
            return
        self._in_application_mode = False
        if self.attrs_before is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(self.fileno, termios.TCSANOW, self.attrs_before)
        with contextlib.suppress(OSError, ValueError, AttributeError):
            fd = self._file.fileno()  # type: ignore[union-attr]
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
            fcntl.fcntl(fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)
            try:
                os.write(fd, RESTORE.encode())
            finally:
                fcntl.fcntl(fd, fcntl.F_SETFL, flags)

    def write(self, data: str) -> None:
        output = self._output
        if output is not None:
            output.write(data)

    def close(self) -> None:
        watch, self._watch = self._watch, None
        if watch is not None:
            watch.stop()
        output, self._output = self._output, None
        if output is not None:
            output.stop()
        super().close()  # Textual's writer: nothing queued, it ends at once
