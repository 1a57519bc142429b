"""Keystroke to glass: the real app in a pseudo-terminal, its output replayed in an emulator.

Run from the repository root::

    python -m benchmarks.glass [--quick] [--workdir DIR] [--no-sync] [--seed N]
                               [--program LABEL=DIR ...] [--rounds N] [--sizes N,N] [--no-naive]

What is measured. The installed ``papers --home HOME`` runs in a 120x36 pseudo-terminal
(TERM=xterm-256color). The benchmark is the terminal: it writes each key's bytes as a terminal
does (``j``, ``s``, ``2``, ``/``, letters, ``\\x1b`` for Esc, ``\\x0c`` for ctrl+l, ``\\x04``
for ctrl+d), one key at a time, the next one 150-300 ms (random) after the previous one and
never before the app has been silent for 120 ms and stopped using the CPU (a search worker may
still be busy after a silence), so every key meets an idle app as a person's key does. Per
keystroke it records, from the moment the key's byte is written:

- **first change**: the first time the screen (as a terminal would show it) differs from the
  screen before the key; **pane**: the same for the paper pane, the right half of the screen
  (columns 60-119 of rows 2-34; the list is the left half);
- **settled**: the last change of the screen before the next key (so at least 120 ms of
  silence, often more, follow it);
- **frames**: how many frames the key produced. The benchmark answers Textual's query for
  synchronized output (``\\x1b[?2026$p``) as kitty, WezTerm, foot, Ghostty, iTerm2 or Windows
  Terminal do, so Textual 8.2.8 wraps every frame in ``\\x1b[?2026h`` ... ``\\x1b[?2026l`` and a
  frame is one such pair; the screen is compared at the end of each pair, when such a terminal
  presents it. With ``--no-sync`` (an xterm that does not answer) frames are not marked: the
  screen is compared after every chunk read, and frames are counted as bursts of output
  separated by at least 2 ms of silence. Bursts are reported in both modes;
- **checks**: whether the key did what it should, read from the screen: after ``j``/``k``/
  ``ctrl+d`` the pane's first three lines of text (the title) changed; after ``r``/``x``/``s``
  the Inbox count in the tab bar is one less; after a tab key the tab's name shows below the
  tab bar; after a typed letter the query typed so far is on screen; after ``ctrl+l`` the query
  is gone and the list changed. A key that changed nothing visible fails its check too.

A change of one cell whose character stays the same (the search box's text cursor blinking)
is not a change and its frame is not counted. Times are ``perf_counter`` (monotonic) stamps
taken by a reader thread (``_pty.Recorder``) as each chunk is read with ``select``; the
emulator (``pyte``) parses the chunks later, between keys, so its cost never delays a read.
The app's own start is not measured: the app is first left to paint its Inbox, then a probe
query (``diffusion``, in one write, as a paste: its typing is not the app's time) is typed and
the benchmark waits until its results change the list (the search index is built off the UI
thread after the first paint), clears it, and waits until the process is idle; the time from
spawning it to the probe's results is printed as "search ready". A warm-up start of each
program comes first (bytecode caches, see ``_pty.terminal_env``; disk caches; the real app's
warm-up waits for its search index too, so an index kept on disk is there for the measured
start).

Keys, in order: a triage session in the Inbox (random ``j``/``k``/``r``/``x``/``s``/``ctrl+d``),
tab switches (``2``, ``3``, ``4``, ``5``, ``1``, ...), then queries from
``benchmarks.search.TYPED_QUERIES``: ``/``, every letter, ``Esc`` (leaves the box, keeps the
filter; Textual waits ``ESCDELAY``, 100 ms, for a lone Esc byte: a cost users of terminals
without the kitty keyboard protocol pay too), ``ctrl+l`` (clears the filter). In the same run,
``j``/``k`` in a minimal Textual app (one line of text changed by the key: the floor) and in the
naive app of ``benchmarks.app`` (a stock ``OptionList`` of the Inbox titles and a ``Static``
with the highlighted paper, side by side). Sizes: 12,000 and 100,000 papers (``--quick``: 12,000
and fewer keys), built as ``benchmarks.app`` builds them (same folder names, so one
``--workdir`` serves both); each run triages a scratch copy. The targets of issue 13 are judged
on the settled times. A full run takes about 5 minutes once the libraries exist (building them
adds half a minute), ``--quick`` about 70 seconds.

Before and after, in the same run. ``--program LABEL=DIR`` (repeatable) times the papers-tui
checkout in ``DIR`` (``python -m tui`` there: its code, this interpreter and packages) instead
of the installed ``papers``: ``--program after=. --program before=../old`` times both, on fresh
copies of the same library (copies of checkouts, rather than ``.``, keep a long run from timing
code edited meanwhile). They run side by side, each in a pseudo-terminal of its own, and get
the same keys in lockstep: each key goes to one, then (once it is idle again) to the other,
the order flipping every key, so that a machine that gets busier halfway colours both alike
(one program after the other, an A/A run of two copies of one commit differed by 26 ms in
j/k p95 as the load moved). ``--rounds N`` repeats it on fresh copies, the keys seeded anew.
A table then puts each program's p50 / p95 per key beside the first's, with the difference:
every key's settled time, the quiet keys' (``QUIET_WAIT_S``) and the app's CPU time per key.
That is how a speed-up is shown to earn its place (issue 19 keeps one when it buys at least
1 ms of a key's settled p95 at 12,000 papers). The targets are judged on the first program.
``--sizes`` picks the library sizes; ``--no-naive`` leaves the
naive app out (the minimal app, the floor of the ratios, always runs).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyte

from benchmarks import _pty
from benchmarks.app import (
    import_library,
    papers_command,
    papers_interpreter,
    scratch_copy,
    seed_triage,
    write_jsonl,
)
from benchmarks.corpus import DATA_DIR, REAL_LIST, scaled_corpus
from benchmarks.search import TYPED_QUERIES
from benchmarks.timing import Latency
from storage import Library

REPOSITORY = Path(__file__).resolve().parents[1]
COLUMNS, ROWS = _pty.COLUMNS, _pty.ROWS
#: The paper pane and the list: right and left halves of the rows between the bars.
PANE_COLUMNS = range(COLUMNS // 2, COLUMNS)
LIST_COLUMNS = range(0, COLUMNS // 2)
BODY_ROWS = range(2, ROWS - 1)
#: Borders and scrollbars, stripped from the ends of a pane's lines to find its heading.
FRAME_CHARACTERS = " │┃╭╮╰╯─━▁▂▃▄▅▆▇█▔▎▊▌▐"

SYNC_START = b"\x1b[?2026h"
SYNC_END = b"\x1b[?2026l"
#: Textual asks whether the terminal supports synchronized output (DECRQM 2026) ...
SYNC_QUERY = b"\x1b[?2026$p"
#: ... and a terminal that does answers "supported, currently off" (DECRPM).
SYNC_SUPPORTED = b"\x1b[?2026;2$y"

#: Silence that ends a keystroke's repaint; the next key waits at least this long.
QUIET_S = 0.12
#: A person's pace: the next key comes this long (random) after the previous one.
GAP_S = (0.15, 0.30)
#: Output closer together than this is one burst (a frame, when frames are not marked).
BURST_GAP_S = 0.002
KEY_TIMEOUT_S = 30.0
#: A key during which the app's threads waited this long, in all, for a CPU that other work
#: held is not "quiet" (``Stroke.waited``): the quiet keys' times are what a machine of its
#: own would show, and do not move with the load of a shared machine.
QUIET_WAIT_S = 0.001
#: A process that used this share of a CPU over this window is still working on the key ...
BUSY_SHARE, BUSY_WINDOW_S = 0.3, 0.05
#: ... unless it has written nothing for this long.
BUSY_LIMIT_S = 5.0

TAB_NAMES = {"1": "Inbox", "2": "Starred", "3": "Read", "4": "Skipped", "5": "All"}
PROBE_QUERY = "diffusion"

#: Targets of issue 13 (settled times, ms).
NAV_MEDIAN_MS, NAV_P95_MS, NAV_P95_100K_MS = 12.0, 25.0, 40.0
ONE_FRAME_SHARE = 0.95
LETTER_P95_MS = 35.0
FLOOR_RATIO = 3.0
SEARCH_READY_S = 2.0
#: The app's peak memory (VmHWM) at 100,000 papers, index loaded and every key typed.
PEAK_RSS_MB = 600.0
JUDGED = ("j/k", "r/x/s", "tab 1-5", "queue move", "j/k, PDF text read")
#: The reading queue the 12,000-paper run holds (issue 22): its move keys are timed too.
QUEUE_PAPERS = 500
#: j/k pressed while the app's child process reads PDFs' text are also reported apart.
READING_PDFS = "j/k, PDF text read"

KINDS = (
    "j/k",
    READING_PDFS,
    "queue move",
    "r/x/s",
    "tab 1-5",
    "ctrl+d",
    "/ (focus search)",
    "search letter",
    "  1st letter",
    "  2nd letter",
    "  3rd+ letter",
    "esc (leave search)",
    "ctrl+l (clear)",
)

MINIMAL_TEXT = "line 0 of a minimal Textual app"
MINIMAL_APP = '''"""The floor: a minimal Textual app, one line of text changed by j and k."""

from textual.app import App, ComposeResult
from textual.widgets import Static


class OneLine(App[None]):
    BINDINGS = [("j", "move(1)"), ("k", "move(-1)")]
    line = 0

    def compose(self) -> ComposeResult:
        yield Static("line 0 of a minimal Textual app", id="line")

    def action_move(self, step: int) -> None:
        self.line += step
        self.query_one("#line", Static).update(f"line {self.line} of a minimal Textual app")


if __name__ == "__main__":
    OneLine().run()
'''
NAIVE_MARK = "naive OptionList"
NAIVE_APP = '''"""benchmarks.app's naive paper list: an OptionList of titles, a Static with one."""

import json
import sys

sys.path.insert(0, @REPOSITORY@)

from rich.text import Text
from textual.widgets import OptionList, Static

from benchmarks.app import NaiveApp


class NaiveGlass(NaiveApp):
    """Side by side as in papers-tui: the list on the left, the highlighted paper on the right."""

    CSS = """
    Screen { layout: grid; grid-size: 2 2; grid-rows: 1 1fr; }
    #tabs { column-span: 2; }
    """
    BINDINGS = [*NaiveApp.BINDINGS, ("j", "move(1)"), ("k", "move(-1)")]

    def __init__(self, papers: list[list[str]]) -> None:
        super().__init__([p[0] for p in papers], [], [], "OptionList")
        self.papers = papers

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#tabs", Static).update(f"@MARK@: {len(self.papers):,} papers")
        self.query_one("#list", OptionList).highlighted = 0

    def action_move(self, step: int) -> None:
        view = self.query_one("#list", OptionList)
        view.action_cursor_down() if step > 0 else view.action_cursor_up()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        title, authors, abstract = self.papers[event.option_index]
        self.query_one("#detail", Static).update(Text(f"{title}\\n\\n{authors}\\n\\n{abstract}"))


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        NaiveGlass(json.load(handle)).run()
'''

_began = time.perf_counter()


def log(message: str) -> None:
    """Progress on stderr, with the time since the benchmark started."""
    print(f"[{time.perf_counter() - _began:6.1f} s] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the emulator


@dataclass(frozen=True, slots=True)
class Paint:
    """A moment a terminal would show new content: a frame's end, or a chunk outside frames."""

    at: float  #: when the bytes that complete it were read
    frame: bool  #: it ends a synchronized-update frame
    screen: bool  #: something visible changed (a blinking text cursor alone does not count)
    pane: bool  #: the paper pane changed
    blink: bool  #: the only change was one cell's attributes (the text cursor blinking)


def _held_back(data: bytes, markers: Sequence[bytes]) -> int:
    """How many bytes at the end of ``data`` could be the start of a marker split by a read."""
    for size in range(max(len(m) for m in markers) - 1, 0, -1):
        tail = data[-size:]
        if any(m.startswith(tail) for m in markers):
            return size
    return 0


class Emulator:
    """A pyte screen fed a program's output, reporting each moment the picture changes.

    With synchronized output a terminal holds the picture from ``?2026h`` and shows it at
    ``?2026l``: the screen is compared there. Outside such frames it shows bytes as they come:
    the screen is compared after every chunk.
    """

    def __init__(self, columns: int = COLUMNS, rows: int = ROWS) -> None:
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self.screen)
        self._cells = [self._row(y) for y in range(rows)]
        self.screen.dirty.clear()
        self._carry = b""
        self.in_frame = False

    def _row(self, y: int) -> tuple[pyte.screens.Char, ...]:
        line = self.screen.buffer[y]
        return tuple(line[x] for x in range(self.screen.columns))

    def feed(self, at: float, chunk: bytes) -> list[Paint]:
        """Parse one chunk read at ``at``; the paints it completes."""
        data = self._carry + chunk
        keep = _held_back(data, (SYNC_START, SYNC_END))
        data, self._carry = (data[:-keep], data[-keep:]) if keep else (data, b"")
        paints: list[Paint] = []
        position = 0
        while (end := data.find(SYNC_END, position)) >= 0:
            self._stream.feed(data[position : end + len(SYNC_END)])
            self.in_frame = False
            paints.append(self._compare(at, frame=True))
            position = end + len(SYNC_END)
        rest = data[position:]
        start = rest.find(SYNC_START)
        if start >= 0:
            if start and not self.in_frame:
                self._stream.feed(rest[:start])
                paints.append(self._compare(at, frame=False))
            self._stream.feed(rest[start:])
            self.in_frame = True
        elif rest:
            self._stream.feed(rest)
            if not self.in_frame:
                paints.append(self._compare(at, frame=False))
        return paints

    def _compare(self, at: float, frame: bool) -> Paint:
        changed: list[tuple[int, int, bool]] = []  # (row, column, character changed)
        for y in sorted(self.screen.dirty):
            if not 0 <= y < self.screen.lines:
                continue
            new = self._row(y)
            old = self._cells[y]
            if new != old:
                changed.extend(
                    (y, x, a.data != b.data)
                    for x, (a, b) in enumerate(zip(old, new, strict=True))
                    if a != b
                )
                self._cells[y] = new
        self.screen.dirty.clear()
        blink = len(changed) == 1 and not changed[0][2]
        pane = any(y in BODY_ROWS and x in PANE_COLUMNS for y, x, _ in changed)
        return Paint(at, frame, bool(changed) and not blink, pane and not blink, blink)

    def lines(self) -> list[str]:
        """The text of every row."""
        return list(self.screen.display)


@dataclass(frozen=True, slots=True)
class View:
    """What the screen shows at one moment, as text."""

    lines: list[str]

    def region(self, columns: range, rows: range = BODY_ROWS) -> str:
        return "\n".join(self.lines[y][columns.start : columns.stop] for y in rows)

    @property
    def pane(self) -> str:
        return self.region(PANE_COLUMNS)

    @property
    def pane_heading(self) -> list[str]:
        """The first three lines of text in the pane (the paper's title, for a paper)."""
        lines = (line.strip(FRAME_CHARACTERS) for line in self.pane.splitlines())
        return [line for line in lines if line][:3]

    @property
    def listing(self) -> str:
        return self.region(LIST_COLUMNS)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def count(self, label: str) -> int | None:
        """The number after ``label`` in the tab bar (e.g. ``Inbox 9,574``), if shown."""
        match = re.search(rf"{re.escape(label)}\s+([\d,]+)", "\n".join(self.lines[:2]))
        return int(match.group(1).replace(",", "")) if match else None


# --------------------------------------------------------------------------- keystrokes

#: Whether a key did what it should: (screen before, screen after) -> ok.
Check = Callable[[View, View], bool]


@dataclass(frozen=True, slots=True)
class Key:
    """One keystroke to time: its bytes, the report row it belongs to, what shows it worked."""

    data: bytes
    kinds: tuple[str, ...]
    check: Check


@dataclass(frozen=True, slots=True)
class Stroke:
    """What one keystroke caused, in seconds from writing its byte."""

    kinds: tuple[str, ...]
    first: float | None  #: first visible change of the screen
    first_pane: float | None  #: first change of the paper pane
    settled: float | None  #: last visible change before the next key
    frames: int  #: frames written (synchronized updates; bursts without them)
    bursts: int  #: output bursts separated by BURST_GAP_S of silence
    ok: bool  #: the check held
    #: Seconds the app's threads ran on a CPU, and waited for one, from the key until it was
    #: done (``_pty.sched_seconds``; None where /proc does not say).
    ran: float | None = None
    waited: float | None = None

    @property
    def quiet(self) -> bool:
        """The key met no competition for the CPU (see ``QUIET_WAIT_S``)."""
        return self.waited is not None and self.waited < QUIET_WAIT_S


def bursts_of(times: Sequence[float], gap: float = BURST_GAP_S) -> int:
    """How many bursts the chunk arrival ``times`` form, ``gap`` seconds of silence apart."""
    return sum(1 for i, at in enumerate(times) if i == 0 or at - times[i - 1] >= gap)


def stroke_of(
    key: Key,
    sent: float,
    paints: Sequence[Paint],
    arrivals: Sequence[float],
    ok: bool,
    sched: tuple[float, float] | None = None,
) -> Stroke:
    """Summarise the paints and chunks that followed a key written at ``sent``."""
    shown = [p.at for p in paints if p.screen]
    pane = [p.at for p in paints if p.pane]
    framed = [p for p in paints if p.frame and not p.blink]
    bursts = bursts_of(arrivals)
    return Stroke(
        key.kinds,
        shown[0] - sent if shown else None,
        pane[0] - sent if pane else None,
        shown[-1] - sent if shown else None,
        len(framed) if any(p.frame for p in paints) else bursts,
        bursts,
        ok and bool(shown),
        sched[0] if sched else None,
        sched[1] if sched else None,
    )


@dataclass
class _Pending:
    key: Key
    before: View
    sent: float
    paints: list[Paint] = field(default_factory=list)
    arrivals: list[float] = field(default_factory=list)
    sched: tuple[float, float] | None = None  #: (ran, waited) until it was done


class Glass:
    """A program in a 120x36 pseudo-terminal, timed from its keys to what the screen shows."""

    def __init__(
        self,
        command: Sequence[str],
        sync: bool,
        rng: random.Random,
        cwd: Path | None = None,
    ) -> None:
        self.terminal = _pty.spawn(command, cwd=cwd)
        answers = {SYNC_QUERY: SYNC_SUPPORTED} if sync else None
        self.recorder = _pty.Recorder(self.terminal, answers)
        self.emulator = Emulator()
        self.rng = rng
        self.strokes: list[Stroke] = []
        self.failures: list[str] = []
        self._parsed = 0
        self._pending: _Pending | None = None

    @property
    def started(self) -> float:
        return self.terminal.started

    def catch_up(self) -> None:
        """Parse every chunk read so far; paints after a key's byte belong to that key."""
        chunks = self.recorder.chunks
        pending = self._pending
        while self._parsed < len(chunks):
            at, chunk = chunks[self._parsed]
            self._parsed += 1
            paints = self.emulator.feed(at, chunk)
            if pending is not None and at >= pending.sent:
                pending.paints.extend(paints)
                pending.arrivals.append(at)

    def view(self) -> View:
        self.catch_up()
        return View(self.emulator.lines())

    def wait_for(self, ready: Callable[[View], bool], timeout: float, what: str) -> float:
        """Wait until ``ready(view)`` holds; the time it was first seen to hold."""
        deadline = time.perf_counter() + timeout
        while True:
            view = self.view()
            if ready(view):
                return time.perf_counter()
            if time.perf_counter() > deadline or self.recorder.ended:
                tail = "\n".join(view.lines)
                raise TimeoutError(f"{what}: not on screen after {timeout:.0f} s; screen:\n{tail}")
            time.sleep(0.01)

    def settle(self, silence: float = 0.3, timeout: float = 30.0) -> None:
        """Wait until the program has written nothing for ``silence`` seconds."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() - self.recorder.last < silence:
            if time.perf_counter() > deadline:
                break
            time.sleep(0.01)
        self.catch_up()

    def idle(self, window: float = 0.5, busy: float = 0.05, timeout: float = 120.0) -> None:
        """Wait until the program uses under ``busy`` of a CPU for ``window`` seconds."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            began, used = time.perf_counter(), _pty.cpu_seconds(self.terminal.pid)
            time.sleep(window)
            self.catch_up()
            spent = _pty.cpu_seconds(self.terminal.pid) - used
            if spent < busy * (time.perf_counter() - began):
                return
        log(f"warning: the program still used the CPU after {timeout:.0f} s; keys start anyway")

    def type(self, text: bytes, pause: float = 0.05) -> None:
        """Type untimed keys, one byte at a time."""
        for byte in text:
            self.terminal.type(bytes([byte]))
            time.sleep(pause)

    def press(self, key: Key) -> None:
        """Write one timed key, wait for the app to go quiet, then a person's pause."""
        self.finish()
        before = View(self.emulator.lines())
        threads = self._sched()
        sent = self.terminal.type(key.data)
        self._pending = pending = _Pending(key, before, sent)
        self.wait_done(sent)
        if threads is not None and (now := self._sched()) is not None:
            pending.sched = _pty.sched_spent(threads, now)
        self.catch_up()  # between keys: the app is idle, so parsing delays nothing it does
        due = pending.sent + self.rng.uniform(*GAP_S)
        time.sleep(max(due - time.perf_counter(), 0.02))

    def _sched(self) -> dict[int, tuple[float, float]] | None:
        try:
            return _pty.sched_seconds(self.terminal.pid)
        except OSError:  # no /proc (or the program ended)
            return None

    def wait_done(self, sent: float) -> None:
        """Wait until the key's output has stopped for QUIET_S and the process is idle.

        Silence alone could end a keystroke while a worker thread still searches: while the
        process keeps using the CPU (up to BUSY_LIMIT_S after its last output), its next
        output is waited for.
        """
        if not self.recorder.wait_quiet(sent, QUIET_S, KEY_TIMEOUT_S):
            return
        pid = self.terminal.pid
        while time.perf_counter() - self.recorder.last < BUSY_LIMIT_S:
            began, used = time.perf_counter(), _pty.cpu_seconds(pid)
            time.sleep(BUSY_WINDOW_S)
            if _pty.cpu_seconds(pid) - used < BUSY_SHARE * (time.perf_counter() - began):
                return
            if self.recorder.last > began:  # it wrote again: wait for silence after that
                self.recorder.wait_quiet(began, QUIET_S, KEY_TIMEOUT_S)

    def finish(self) -> None:
        """Close the pending keystroke: everything up to now was its doing."""
        pending = self._pending
        if pending is None:
            return
        self.catch_up()
        self._pending = None
        after = View(self.emulator.lines())
        ok = pending.key.check(pending.before, after)
        stroke = stroke_of(
            pending.key, pending.sent, pending.paints, pending.arrivals, ok, pending.sched
        )
        self.strokes.append(stroke)
        if not stroke.ok and len(self.failures) < 5:
            self.failures.append(
                f"{pending.key.data!r} ({pending.key.kinds[0]}): check failed; screen after:\n"
                + "\n".join(after.lines[:6])
            )

    def close(self) -> None:
        self.finish()
        self.recorder.stop()
        self.terminal.close()


# --------------------------------------------------------------------------- what to type


def pane_changed(before: View, after: View) -> bool:
    """The pane shows another paper: its first lines of text (the title) changed."""
    return before.pane_heading != after.pane_heading


def screen_changed(before: View, after: View) -> bool:
    return before.lines != after.lines


def shown_anything(before: View, after: View) -> bool:
    """Any visible change will do (a stroke without one fails anyway): focus moved."""
    return True


def inbox_one_less(before: View, after: View) -> bool:
    was, now = before.count("Inbox"), after.count("Inbox")
    if was is None or now is None:
        return pane_changed(before, after)
    return now == was - 1


def tab_shown(name: str) -> Check:
    def check(before: View, after: View) -> bool:
        below_tabs = "\n".join(after.lines[1:])
        return screen_changed(before, after) and name in below_tabs

    return check


def query_shown(typed: str) -> Check:
    def check(before: View, after: View) -> bool:
        return typed.strip() in after.text

    return check


def query_cleared(query: str) -> Check:
    def check(before: View, after: View) -> bool:
        return query.strip() not in "\n".join(after.lines[:2]) and before.listing != after.listing

    return check


@dataclass(frozen=True, slots=True)
class Plan:
    """How many keys of each part to time at one size."""

    triage: int  #: keys of the triage session (j/k/r/x/s/ctrl+d)
    tabs: int  #: tab switches
    queries: int  #: queries typed, every letter
    floor: int  #: j/k in the minimal and naive apps
    queue: int = 0  #: keys in the reading queue (the Starred tab): moves, and j/k between them


def triage_session(count: int, rng: random.Random) -> Iterator[Key]:
    """A person triaging the Inbox: mostly ``j``, some ``k``, a decision every third key."""
    row = 0
    for _ in range(count):
        roll = rng.random()
        if roll < 0.15 and row > 0:
            row -= 1
            yield Key(b"k", ("j/k",), pane_changed)
        elif roll < 0.55:
            row += 1
            yield Key(b"j", ("j/k",), pane_changed)
        elif roll < 0.9:
            yield Key(rng.choice((b"r", b"x", b"s")), ("r/x/s",), inbox_one_less)
        else:
            row += 16
            yield Key(b"\x04", ("ctrl+d",), pane_changed)


def queue_moves(count: int, size: int, rng: random.Random) -> Iterator[Key]:
    """In the Starred tab (the reading queue of ``size`` papers): the paper under the cursor
    moved down, up, to the top or the bottom (``]``, ``[``, ``}``, ``{``), now and then ``j``
    to another; never a move that cannot be made (the cursor's row is followed). Back to the
    Inbox at the end."""
    yield Key(b"2", ("tab 1-5",), tab_shown("Starred"))
    row = 0
    for _ in range(count):
        roll = rng.random()
        if roll < 0.2 and row < size - 1:
            row += 1
            yield Key(b"j", ("j/k",), pane_changed)
            continue
        if roll < 0.55 and row < size - 1 or row == 0:
            move, row = (b"]", row + 1) if rng.random() < 0.9 else (b"}", size - 1)
        else:
            move, row = (b"[", row - 1) if rng.random() < 0.9 else (b"{", 0)
        yield Key(move, ("queue move",), screen_changed)
    yield Key(b"1", ("tab 1-5",), tab_shown("Inbox"))


def reading_pdfs() -> bool:
    """Whether a child of the app reads PDFs' text now (``storage.cache.pdf_text``)."""
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        try:
            if b"storage.cache.pdf_text" in (entry / "cmdline").read_bytes():
                return True
        except OSError:
            continue
    return False


def tab_switches(count: int) -> Iterator[Key]:
    """``2``, ``3``, ``4``, ``5``, ``1``, ... ending on the Inbox."""
    keys = "23451" * (count // 5 + 1)
    for key in keys[: max(5, count - count % 5)]:
        yield Key(key.encode(), ("tab 1-5",), tab_shown(TAB_NAMES[key]))


def searches(queries: Sequence[str]) -> Iterator[Key]:
    """Each query: ``/``, every letter, Esc (leave the box), ctrl+l (clear the filter, the
    cursor back in the box), Esc (to the list, where the next query starts with ``/``)."""
    for query in queries:
        yield Key(b"/", ("/ (focus search)",), shown_anything)
        for end in range(1, len(query) + 1):
            position = ("  1st letter", "  2nd letter")[end - 1] if end <= 2 else "  3rd+ letter"
            kinds = ("search letter", position)
            yield Key(query[end - 1].encode(), kinds, query_shown(query[:end]))
        yield Key(b"\x1b", ("esc (leave search)",), shown_anything)
        yield Key(b"\x0c", ("ctrl+l (clear)",), query_cleared(query))
        yield Key(b"\x1b", ("esc (leave search)",), shown_anything)


# --------------------------------------------------------------------------- programs


@dataclass
class Run:
    """The keystrokes of one program at one size."""

    program: str
    papers: int
    strokes: list[Stroke]
    ready_s: float | None = None  #: spawn -> first search results (the real app)
    failures: list[str] = field(default_factory=list)
    peak_mb: float | None = None  #: the real app's VmHWM after its last key


def drive(glass: Glass, keys: Iterator[Key], label: str, pdfs: bool = False) -> None:
    """Press every key, logging progress now and then; with ``pdfs``, a j/k pressed while
    the app reads PDFs' text counts in a row of its own too."""
    for number, key in enumerate(keys, start=1):
        if pdfs and key.kinds == ("j/k",) and reading_pdfs():
            key = Key(key.data, (*key.kinds, READING_PDFS), key.check)
        glass.press(key)
        if number % 50 == 0:
            log(f"  {label}: {number} keys")
    glass.finish()


def searchable(glass: Glass) -> float:
    """Wait until the real app has painted its Inbox and answers a search; when it answered.

    The probe query is typed (in one write) once the Inbox is painted: its results change the
    list once the search index is built. Then the filter is cleared and the app left to go idle.
    """
    glass.wait_for(lambda v: "Inbox" in v.text, 600, "the Inbox")
    glass.settle()
    listing = glass.view().listing
    glass.type(b"/")
    glass.settle(0.2)
    # In one write, as a paste: typed a letter per 50 ms, the query's own typing (0.45 s) was
    # in the figure, and the first letters (`d`, `di`) leave the top of a 100,000 list as it was.
    glass.type(PROBE_QUERY.encode(), pause=0.0)
    ready = glass.wait_for(lambda v: v.listing != listing, 600, "results of a probe search")
    glass.settle()
    glass.type(b"\x0c")
    # Clearing keeps the cursor on the paper it was on (issue 14): the Inbox comes back
    # around that paper; `g` then takes it to the top, where the measured keys start.
    glass.wait_for(lambda v: "search" not in v.lines[2], 30, "the Inbox after the probe")
    glass.settle()
    glass.type(b"\x1b")  # ctrl+l left the cursor in the box: back to the list
    time.sleep(0.3)  # (a lone Esc is told from Esc + `g`, i.e. alt+g, by a pause)
    glass.settle()
    glass.type(b"g")
    glass.wait_for(lambda v: v.listing == listing, 30, "the top of the Inbox after the probe")
    glass.settle()
    glass.idle()
    return ready - glass.started


def shows(marker: str) -> Callable[[Glass], float]:
    """Readiness of a comparison app: ``marker`` on screen, then silence and an idle process."""

    def ready(glass: Glass) -> float:
        at = glass.wait_for(lambda v: marker in v.text, 600, marker)
        glass.settle()
        glass.idle()
        return at - glass.started

    return ready


@dataclass(frozen=True, slots=True)
class Program:
    """A papers-tui to time: the installed ``papers`` (``folder`` None) or a checkout's code."""

    label: str
    folder: Path | None = None

    def command(self, home: Path) -> list[str]:
        if self.folder is None:
            return papers_command(home)
        # `-m`: the checkout's folder comes first on sys.path, before the installed package
        return [papers_interpreter(), "-m", "tui", "--home", str(home)]

    @classmethod
    def parse(cls, text: str) -> Program:
        """``LABEL=DIR`` (``--program``)."""
        label, sep, folder = text.partition("=")
        path = Path(folder).expanduser().resolve()
        if not sep or not label or not (path / "tui" / "__main__.py").is_file():
            raise argparse.ArgumentTypeError(f"not LABEL=DIR of a papers-tui checkout: {text}")
        return cls(label, path)


THIS = Program("papers-tui")


def run_ours(
    home: Path, papers: int, plan: Plan, sync: bool, seed: int, program: Program = THIS
) -> Run:
    """The real app, once it answers searches: the triage session, tab switches, queries."""
    rng = random.Random(seed)
    glass = Glass(program.command(home), sync, rng, cwd=program.folder)
    label = f"{program.label} {papers:,}"
    try:
        ready = searchable(glass)
        log(f"  {label}: search ready {ready:.1f} s after start")
        drive(glass, triage_session(plan.triage, rng), f"{label} triage", pdfs=True)
        drive(glass, tab_switches(plan.tabs), f"{label} tabs")
        if plan.queue:
            drive(glass, queue_moves(plan.queue, QUEUE_PAPERS, rng), f"{label} queue")
        drive(glass, searches(TYPED_QUERIES[: plan.queries]), f"{label} search")
        glass.finish()
        peak_mb = glass.terminal.memory()[1] / 2**20
    finally:
        glass.close()
    return Run(program.label, papers, glass.strokes, ready, glass.failures, peak_mb)


def run_together(
    homes: Sequence[Path],
    papers: int,
    plan: Plan,
    sync: bool,
    seed: int,
    programs: Sequence[Program],
) -> list[Run]:
    """Several papers-tui side by side, key by key: each key goes to every program in turn
    (the order flips every key), so that whatever else the machine does meets them alike.

    Each program runs in a pseudo-terminal of its own on its own copy of the library; each
    is started and left idle before the first key, and each key waits until the program it
    went to is idle again, as with one program.
    """
    glasses: list[Glass] = []
    readies: list[float] = []
    try:
        for program, home in zip(programs, homes, strict=True):
            glass = Glass(program.command(home), sync, random.Random(seed), cwd=program.folder)
            glasses.append(glass)
            readies.append(searchable(glass))
            log(f"  {program.label} {papers:,}: search ready {readies[-1]:.1f} s after start")
        rng = random.Random(seed)
        keys = [
            *triage_session(plan.triage, rng),
            *tab_switches(plan.tabs),
            *(queue_moves(plan.queue, QUEUE_PAPERS, rng) if plan.queue else ()),
            *searches(TYPED_QUERIES[: plan.queries]),
        ]
        for number, key in enumerate(keys, start=1):
            for glass in glasses if number % 2 else reversed(glasses):
                glass.press(key)
            if number % 50 == 0:
                log(f"  {papers:,} side by side: {number} of {len(keys)} keys")
        peaks = []
        for glass in glasses:
            glass.finish()
            peaks.append(glass.terminal.memory()[1] / 2**20)
    finally:
        for glass in glasses:
            glass.close()
    return [
        Run(program.label, papers, glass.strokes, ready, glass.failures, peak)
        for program, glass, ready, peak in zip(programs, glasses, readies, peaks, strict=True)
    ]


def run_floor(
    name: str, command: Sequence[str], marker: str, papers: int, count: int, sync: bool, seed: int
) -> Run:
    """``j``/``k`` in a comparison app (the minimal one, the naive one)."""
    rng = random.Random(seed)
    glass = Glass(command, sync, rng)
    check = pane_changed if name.startswith("naive") else screen_changed
    try:
        shows(marker)(glass)
        keys = (
            Key(b"j" if i < 3 or rng.random() < 0.7 else b"k", ("j/k",), check)
            for i in range(count)
        )
        drive(glass, keys, name)
    finally:
        glass.close()
    return Run(name, papers, glass.strokes, failures=glass.failures)


def warm_up(
    command: Sequence[str],
    ready: Callable[[Glass], float],
    sync: bool,
    cwd: Path | None = None,
) -> None:
    """Start a program once until it is ready: bytecode and disk caches written and warm."""
    glass = Glass(command, sync, random.Random(0), cwd=cwd)
    try:
        ready(glass)
    finally:
        glass.close()


def naive_papers(home: Path, target: Path) -> None:
    """The Inbox papers (title, authors, abstract) for the naive app, as JSON."""
    library = Library(home)
    decided = library.statuses()
    rows = [
        [p.title, ", ".join(p.authors), p.abstract] for p in library.papers() if p.id not in decided
    ]
    target.write_text(json.dumps(rows), encoding="utf-8")


# --------------------------------------------------------------------------- libraries


def library_home(workdir: Path, papers: int) -> Path:
    """The library of ``papers`` papers in ``workdir`` (built once, as benchmarks.app does)."""
    home = workdir / f"home-{papers}"
    if not (home / "papers.json").exists():
        log(f"building the {papers:,}-paper library")
        source = workdir / f"scaled-{papers}.jsonl"
        write_jsonl(scaled_corpus(papers, seed=0), source)
        import_library(home, source)
        seed_triage(home)
        source.unlink()
    return home


#: The files of a warmed library a run only reads (each is replaced by a rename when written):
#: linked into a run's copy, so that the derived files, keyed by papers.json's inode, size and
#: mtime, are believed there as in the warmed library (a copy has another inode: its search
#: index would be built again, at 100,000 papers half a minute into the run).
READ_ONLY = ("papers.json", "papers.cache", "search.index", "similar.index")


def run_copy(template: Path, target: Path) -> Path:
    """A copy of a warmed library for one run: its read-only files linked, the rest copied."""
    if target.exists():
        shutil.rmtree(target)

    def link_or_copy(source: str, destination: str) -> object:
        if Path(source).name in READ_ONLY:
            return os.link(source, destination)
        return shutil.copy2(source, destination)

    shutil.copytree(template, target, copy_function=link_or_copy)
    return target


# --------------------------------------------------------------------------- report


def latency(seconds: Sequence[float | None]) -> Latency:
    return Latency.of([s for s in seconds if s is not None], missed=sum(s is None for s in seconds))


@dataclass(frozen=True, slots=True)
class Summary:
    """One report row: the strokes of one kind."""

    count: int
    first: Latency
    pane: Latency
    settled: Latency
    one_frame: float
    frames: float
    bursts: float
    failed: int
    #: The settled times of the quiet keys (``Stroke.quiet``) alone.
    quiet: Latency
    #: CPU time the app's threads spent on each key (drawing ahead after it included).
    ran: Latency

    @classmethod
    def of(cls, strokes: Sequence[Stroke]) -> Summary:
        n = len(strokes)
        return cls(
            n,
            latency([s.first for s in strokes]),
            Latency.of([s.first_pane for s in strokes if s.first_pane is not None]),
            latency([s.settled for s in strokes]),
            sum(s.frames == 1 for s in strokes) / n if n else float("nan"),
            statistics.fmean(s.frames for s in strokes) if n else float("nan"),
            statistics.fmean(s.bursts for s in strokes) if n else float("nan"),
            sum(not s.ok for s in strokes),
            latency([s.settled for s in strokes if s.quiet]),
            Latency.of([s.ran for s in strokes if s.ran is not None]),
        )


def summaries(run: Run) -> dict[str, Summary]:
    """Rows by kind, in report order."""
    return {
        kind: Summary.of(picked)
        for kind in KINDS
        if (picked := [s for s in run.strokes if kind in s.kinds])
    }


def print_run(run: Run, sync: bool) -> dict[str, Summary]:
    """The per-kind table of one program at one size."""
    rows = summaries(run)
    frames = "?2026 frames" if sync else "bursts"
    header = (
        f"{'key':<19} | {'n':>4} | {'first p50':>9} | {'p95':>6} | {'pane p50':>8} | {'p95':>6} | "
        f"{'settled p50':>11} | {'p95':>6} | {'max':>6} | {'1 frame':>7} | {'frames':>6} | "
        f"{'bursts':>6} | {'bad':>3} | {'quiet n':>7} | {'p50':>6} | {'p95':>6} | {'cpu p50':>7}"
    )
    print(f"\n## {run.program} at {run.papers:,} papers (ms from the key's byte; frames: {frames})")
    print(header)
    print("-" * len(header))
    for kind, s in rows.items():
        print(
            f"{kind:<19} | {s.count:>4} | {s.first.p50:>9.1f} | {s.first.p95:>6.1f} | "
            f"{s.pane.p50:>8.1f} | {s.pane.p95:>6.1f} | {s.settled.p50:>11.1f} | "
            f"{s.settled.p95:>6.1f} | {s.settled.max:>6.1f} | {s.one_frame:>7.0%} | "
            f"{s.frames:>6.2f} | {s.bursts:>6.2f} | {s.failed:>3} | {s.quiet.count:>7} | "
            f"{s.quiet.p50:>6.1f} | {s.quiet.p95:>6.1f} | {s.ran.p50:>7.1f}"
        )
    if run.ready_s is not None:
        print(f"search ready (first results of a query typed at first paint): {run.ready_s:.1f} s")
    if run.peak_mb is not None:
        print(f"peak memory (VmHWM) after the last key: {run.peak_mb:,.0f} MB")
    for failure in run.failures:
        log(f"{run.program} at {run.papers:,}: {failure}")
    return rows


Target = tuple[str, str, bool]


def judge(
    papers: int,
    ours: dict[str, Summary],
    floor: dict[str, Summary],
    ready_s: float | None,
    peak_mb: float | None = None,
) -> list[Target]:
    """Issue 13's figures at one size."""
    targets: list[Target] = []
    nav = [k for k in JUDGED if k in ours]
    floor_median = floor["j/k"].settled.p50 if "j/k" in floor else float("nan")
    for kind in nav:
        s = ours[kind].settled
        if papers <= 12_000:
            targets.append(
                (
                    f"{papers:,}: {kind} settled p50 <= {NAV_MEDIAN_MS:.0f} "
                    f"and p95 <= {NAV_P95_MS:.0f}",
                    f"p50 {s.p50:.1f} / p95 {s.p95:.1f} ms",
                    s.p50 <= NAV_MEDIAN_MS and s.p95 <= NAV_P95_MS and not s.missed,
                )
            )
            ratio = s.p50 / floor_median
            targets.append(
                (
                    f"{papers:,}: {kind} p50 <= {FLOOR_RATIO:.0f}x minimal app's j/k",
                    f"{ratio:.1f}x ({s.p50:.1f} / {floor_median:.1f} ms)",
                    ratio <= FLOOR_RATIO,
                )
            )
        else:
            targets.append(
                (
                    f"{papers:,}: {kind} settled p95 <= {NAV_P95_100K_MS:.0f}",
                    f"p50 {s.p50:.1f} / p95 {s.p95:.1f} ms",
                    s.p95 <= NAV_P95_100K_MS and not s.missed,
                )
            )
    if papers <= 12_000 and nav:
        total = sum(ours[k].count for k in nav)
        one = sum(ours[k].one_frame * ours[k].count for k in nav) / total
        targets.append(
            (
                f"{papers:,}: one frame for >= {ONE_FRAME_SHARE:.0%} of {', '.join(nav)}",
                f"{one:.0%} of {total}",
                one >= ONE_FRAME_SHARE,
            )
        )
    if papers <= 12_000 and "search letter" in ours:
        s = ours["search letter"].settled
        targets.append(
            (
                f"{papers:,}: each search letter settled p95 <= {LETTER_P95_MS:.0f}",
                f"p50 {s.p50:.1f} / p95 {s.p95:.1f} ms",
                s.p95 <= LETTER_P95_MS and not s.missed,
            )
        )
    if papers > 12_000 and ready_s is not None:
        targets.append(
            (
                f"{papers:,}: search ready <= {SEARCH_READY_S:.0f} s after start",
                f"{ready_s:.1f} s",
                ready_s <= SEARCH_READY_S,
            )
        )
    if papers > 12_000 and peak_mb is not None:
        targets.append(
            (
                f"{papers:,}: the app's peak RSS <= {PEAK_RSS_MB:.0f} MB",
                f"{peak_mb:,.0f} MB",
                peak_mb <= PEAK_RSS_MB,
            )
        )
    return targets


def print_comparison(runs: Sequence[Run]) -> None:
    """j/k in every program at one size, and the ratios to the minimal app."""
    rows = {run.program: Summary.of([s for s in run.strokes if "j/k" in s.kinds]) for run in runs}
    floor = rows.get("minimal")
    header = (
        f"{'program':<18} | {'n':>4} | {'first p50':>9} | {'settled p50':>11} | {'p95':>6} | "
        f"{'1 frame':>7} | {'frames':>6} | {'x minimal p50':>13} | {'x minimal p95':>13}"
    )
    print(f"\n## j/k side by side at {runs[0].papers:,} papers (settled, ms)")
    print(header)
    print("-" * len(header))
    for program, s in rows.items():
        ratio50 = s.settled.p50 / floor.settled.p50 if floor else float("nan")
        ratio95 = s.settled.p95 / floor.settled.p95 if floor else float("nan")
        print(
            f"{program:<18} | {s.count:>4} | {s.first.p50:>9.1f} | {s.settled.p50:>11.1f} | "
            f"{s.settled.p95:>6.1f} | {s.one_frame:>7.0%} | {s.frames:>6.2f} | "
            f"{ratio50:>13.1f} | {ratio95:>13.1f}"
        )


def print_targets(targets: Sequence[Target]) -> None:
    header = f"{'target (issue 13)':<58} | {'measured':<32} | verdict"
    print("\n## Targets")
    print(header)
    print("-" * len(header))
    for name, value, ok in targets:
        print(f"{name:<58} | {value:<32} | {'PASS' if ok else 'MISS'}")


# --------------------------------------------------------------------------- main


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables; exit 0 unless something crashed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="12,000 papers only, fewer keys")
    parser.add_argument("--workdir", type=Path, help="build (and reuse) the libraries here")
    parser.add_argument(
        "--no-sync",
        action="store_true",
        help="do not answer the synchronized-output query (an xterm): frames are bursts",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the keys and the gaps")
    parser.add_argument(
        "--pdfs",
        type=Path,
        help="a folder of PDFs (benchmarks.pdfs --workdir W makes W/made): copied into the "
        "12,000-paper HOME, their text read while the keys come",
    )
    parser.add_argument(
        "--program",
        type=Program.parse,
        action="append",
        default=[],
        metavar="LABEL=DIR",
        help="time the papers-tui checkout in DIR (repeat: before/after in the same run)",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="run every program this many times, in turns"
    )
    parser.add_argument(
        "--sizes",
        type=lambda text: [int(n) for n in text.split(",")],
        help="library sizes, comma-separated (default 12000,100000; --quick: 12000)",
    )
    parser.add_argument("--no-naive", action="store_true", help="leave the naive app out")
    parser.add_argument(
        "--saved",
        type=int,
        default=0,
        metavar="N",
        help="save N searches in each library first (N tabs, their counts moved by each key)",
    )
    args = parser.parse_args(argv)
    if not (DATA_DIR / REAL_LIST).is_file():
        print(f"the real data ({DATA_DIR / REAL_LIST}) is absent: nothing to measure")
        return 0
    options = Options(
        quick=args.quick,
        sync=not args.no_sync,
        seed=args.seed,
        programs=tuple(args.program) or (THIS,),
        rounds=max(1, args.rounds),
        sizes=tuple(args.sizes or ((12_000,) if args.quick else (12_000, 100_000))),
        naive=not args.no_naive,
        pdfs=args.pdfs,
        saved=args.saved,
    )
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        return run(args.workdir.resolve(), options)
    with tempfile.TemporaryDirectory(prefix="papers-glass-") as folder:
        return run(Path(folder), options)


def queue_home(home: Path, size: int, pdfs: Path | None) -> None:
    """Star ``size`` papers of the scratch library (a reading queue of that length); with
    ``pdfs``, put its PDFs in HOME/pdfs, so that the app reads their text while keys come."""
    library = Library(home)
    ids = [p.id for p in library.papers()]
    library.set_statuses(library.queue(), "read")  # the library's own stars: read
    step = max(1, len(ids) // (size + 1))
    library.set_statuses(ids[step::step][:size], "starred")
    assert len(library.queue()) == size
    if pdfs is not None:
        folder = home / "pdfs"
        folder.mkdir(exist_ok=True)
        for n, source in enumerate(sorted(pdfs.glob("*.pdf"))):
            shutil.copy(source, folder / f"Paper {n} ({ids[n]}).pdf")
        log(f"{len(list(folder.iterdir()))} PDFs in HOME/pdfs: their text is read as keys come")


#: Words of the saved searches ``--saved`` makes; every other one also has a triage qualifier.
SAVED_WORDS = ("diffusion", "graph", "language", "reinforcement", "vision", "robot", "privacy")


def save_searches(home: Path, count: int) -> None:
    """Save ``count`` searches in the scratch library: half of them with a triage qualifier
    (``is:inbox``, ``-is:read``: their counts move with every decision)."""
    from storage.files.saved_searches import SavedSearches

    searches = SavedSearches(home)
    for n in range(count):
        word = SAVED_WORDS[n % len(SAVED_WORDS)]
        live = ("", " is:inbox", " -is:read")[n % 3]
        searches.save(f"{word} {n}", f"{word}{live}")
    log(f"{count:,} saved searches in the library: as many tabs")


@dataclass(frozen=True, slots=True)
class Options:
    """What one run of the benchmark times (see ``main``)."""

    quick: bool = False
    sync: bool = True
    seed: int = 0
    programs: tuple[Program, ...] = (THIS,)
    rounds: int = 1
    sizes: tuple[int, ...] = (12_000, 100_000)
    naive: bool = True
    #: A folder of PDFs copied into the 12,000-paper HOME (their text read as keys come).
    pdfs: Path | None = None
    #: Saved searches put in each HOME (tabs whose counts every decision moves).
    saved: int = 0


def plan_for(papers: int, quick: bool) -> Plan:
    """How many keys of each kind to time at a size."""
    if quick:
        return Plan(triage=60, tabs=10, queries=3, floor=30, queue=40)
    if papers <= 12_000:
        return Plan(triage=150, tabs=25, queries=8, floor=60, queue=80)
    return Plan(triage=120, tabs=15, queries=4, floor=50)


def pooled(runs: Sequence[Run]) -> Run:
    """The rounds of one program at one size as one run."""
    first = runs[0]
    readies = [r.ready_s for r in runs if r.ready_s is not None]
    peaks = [r.peak_mb for r in runs if r.peak_mb is not None]
    return Run(
        first.program,
        first.papers,
        [s for r in runs for s in r.strokes],
        statistics.median(readies) if readies else None,
        [f for r in runs for f in r.failures][:5],
        max(peaks) if peaks else None,
    )


def print_programs(runs: Sequence[Run], floor: Summary | None) -> None:
    """Each program's times per key beside the first's, with the difference: what a change
    bought. Three blocks: every key's settled time; the quiet keys' (no competition for the
    CPU: what a machine of its own shows); the CPU the app spent per key."""
    rows = [summaries(r) for r in runs]
    first = runs[0]
    blocks: list[tuple[str, Callable[[Summary], Latency]]] = [
        ("settled, every key", lambda s: s.settled),
        (
            f"settled, quiet keys (waited < {QUIET_WAIT_S * 1000:.0f} ms for a CPU)",
            lambda s: s.quiet,
        ),
        ("CPU time of the app's threads per key", lambda s: s.ran),
    ]
    print(
        f"\n## Before / after at {first.papers:,} papers "
        f"(p50 / p95 ms, keys; diff: minus {first.program}'s)"
    )
    header = f"{'key':<19} | " + " | ".join(
        f"{r.program[:19]:>19}" + ("" if i == 0 else f" | {'diff':>13}") for i, r in enumerate(runs)
    )
    for title, measure in blocks:
        print(f"\n{title}")
        print(header)
        print("-" * len(header))
        for kind, base in rows[0].items():
            cells = []
            for i, summary in enumerate(rows):
                s = summary.get(kind)
                if s is None:
                    cells.append(f"{'-':>19}" + ("" if i == 0 else f" | {'-':>13}"))
                    continue
                m, b = measure(s), measure(base)
                cells.append(f"{m.p50:>5.1f} / {m.p95:>5.1f} ({m.count:>3})")
                if i:
                    cells.append(f"{m.p50 - b.p50:>+5.1f} / {m.p95 - b.p95:>+5.1f}")
            print(f"{kind:<19} | " + " | ".join(cells))
    if floor is not None:
        ratios = ", ".join(
            f"{r.program} {summary['j/k'].settled.p50 / floor.settled.p50:.2f}x"
            for r, summary in zip(runs, rows, strict=True)
            if "j/k" in summary
        )
        print(f"\nj/k settled p50 over the minimal app's ({floor.settled.p50:.1f} ms): {ratios}")
    shares = ", ".join(
        f"{r.program} {sum(s.frames == 1 for s in r.strokes) / max(1, len(r.strokes)):.0%} "
        f"(quiet {sum(s.quiet for s in r.strokes) / max(1, len(r.strokes)):.0%})"
        for r in runs
    )
    print(f"keys in one frame (every kind), and the share of quiet keys: {shares}")


def run(workdir: Path, options: Options) -> int:
    """The benchmark proper, with its libraries and scratch copies in ``workdir``."""
    began = time.perf_counter()
    sync, quick = options.sync, options.quick
    sys.setswitchinterval(0.0005)  # the reader thread gets the interpreter back quickly
    print(f"glass benchmark{' (quick)' if quick else ''}: pty {COLUMNS}x{ROWS}, xterm-256color")
    print(
        f"python {sys.version.split()[0]}, textual {version('textual')}, pyte {version('pyte')}, "
        f"{os.cpu_count()} CPUs; papers runs on {papers_interpreter()}; synchronized output "
        f"{'answered (frames are ?2026h..l pairs)' if sync else 'not answered (frames: bursts)'}"
    )
    if len(options.programs) > 1 or options.rounds > 1:
        named = ", ".join(f"{p.label} ({p.folder or 'installed'})" for p in options.programs)
        print(f"programs: {named}; {options.rounds} round(s), in turns")
    print(f"load average at the start: {load()} (other work on the machine colours the figures)")
    minimal = workdir / "glass_minimal.py"
    minimal.write_text(MINIMAL_APP, encoding="utf-8")
    naive = workdir / "glass_naive.py"
    naive.write_text(
        NAIVE_APP.replace("@REPOSITORY@", repr(str(REPOSITORY))).replace("@MARK@", NAIVE_MARK),
        encoding="utf-8",
    )
    interpreter = papers_interpreter()
    targets: list[Target] = []
    warmed = False
    for papers in options.sizes:
        plan = plan_for(papers, quick)
        # Warmed up once (derived files written), then copied afresh for every run: each
        # run triages its own copy of the same library.
        template = scratch_copy(library_home(workdir, papers), workdir, f"glass-{papers}")
        if plan.queue:
            queue_home(template, QUEUE_PAPERS, options.pdfs)
        if options.saved:
            save_searches(template, options.saved)
        naive_list = workdir / f"glass-naive-{papers}.json"
        commands = {"minimal": ([interpreter, str(minimal)], MINIMAL_TEXT)}
        if options.naive:
            naive_papers(template, naive_list)
            commands[NAIVE_MARK] = ([interpreter, str(naive), str(naive_list)], NAIVE_MARK)
        log(f"{papers:,} papers: warm-up starts")
        for program in options.programs:
            warm_up(program.command(template), searchable, sync, cwd=program.folder)
        (template / "pdf-text.cache").unlink(missing_ok=True)  # read again in the measured runs
        if not warmed:  # the comparison apps' files are the same at every size
            for command, marker in commands.values():
                warm_up(command, shows(marker), sync)
            warmed = True
        rounds: dict[str, list[Run]] = {p.label: [] for p in options.programs}
        for round_ in range(options.rounds):
            seed = options.seed + round_
            log(f"{papers:,} papers: {', '.join(rounds)} (round {round_ + 1})")
            homes = [
                run_copy(template, workdir / "scratch" / f"glass-{papers}-run{i}")
                for i in range(len(options.programs))
            ]
            if len(homes) == 1:
                runs = [run_ours(homes[0], papers, plan, sync, seed, options.programs[0])]
            else:
                runs = run_together(homes, papers, plan, sync, seed, options.programs)
            for one in runs:
                rounds[one.program].append(one)
            for home in homes:
                shutil.rmtree(home)
        ours = [pooled(runs) for runs in rounds.values()]
        others = []
        for name, (command, marker) in commands.items():
            log(f"{papers:,} papers: {name}")
            others.append(run_floor(name, command, marker, papers, plan.floor, sync, options.seed))
        ours_rows = [print_run(run, sync) for run in ours]
        floor_rows: dict[str, Summary] = {}
        for other in others:
            rows = print_run(other, sync)
            if other.program == "minimal":
                floor_rows = rows
        print_comparison([*ours, *others])
        if len(ours) > 1:
            print_programs(ours, floor_rows.get("j/k"))
        # every program's (they were the first's alone: ``--program before=… --program now=.``
        # judged before), each named when there are several
        for run, rows in zip(ours, ours_rows, strict=True):
            judged = judge(papers, rows, floor_rows, run.ready_s, run.peak_mb)
            if len(ours) > 1:
                judged = [(f"{run.program}: {name}", got, ok) for name, got, ok in judged]
            targets += judged
        shutil.rmtree(template)
        naive_list.unlink(missing_ok=True)
    print_targets(targets)
    print(
        f"\nbenchmark took {time.perf_counter() - began:.0f} s; load average at the end: {load()}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
