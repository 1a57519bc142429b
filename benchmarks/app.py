"""App benchmark: cold start, keystroke to repaint and memory of the real app, against targets.

Run from the repository root::

    python -m benchmarks.app [--quick] [--workdir DIR]

Figures (targets in brackets):

- cold start to the first painted Inbox: the real ``papers --home DIR`` spawned in a 120x36
  pseudo-terminal until the tab bar's text is on screen, beside a bare Textual hello-world
  started the same way (median of 7 runs, 5 with ``--quick``, after one warm-up run)
  [<= 1.0 s for the 38-paper sample, <= 2.0 s at 12,000 papers, <= 2x the hello-world];
- memory: VmRSS and VmHWM of the real app in a pseudo-terminal once its search index is built
  (the process is idle and a search has answered) [<= 250 MB at 12,000]; the 3,703 real papers
  for reference; and, at 12,000, keys typed into the terminal timed to the last byte they cause;
- keystroke to repaint [<= 30 ms at 12,000] for triage (``s`` in the Inbox), tab switches
  (``1``..``5``), filtering (one key typed in the search box, until its results are painted)
  and clearing the filter (``ctrl+l``), in the real app under ``App.run_test(size=(120, 36))``,
  timed three ways: the key posted as the terminal driver posts it, until the first frame
  that shows the result (list and detail; the figure judged) and until the screen settles;
  Pilot's ``press`` + ``pause``; and the bare handler plus the list's ``render_line`` for every
  visible row. Beside it, a naive app holding the same titles in a stock ``OptionList`` and
  ``DataTable`` (tab switch and filter: clear + add the rows; triage: remove one);
- the keystrokes again at 100,000 papers ("stays usable"; skipped by ``--quick``).

The libraries are the real ICLR 2025 list and ``benchmarks.corpus.scaled_corpus``, imported
with ``Library.import_file`` in a temporary folder (or ``--workdir``, reused when present),
with a fifth of the papers decided. Without the real data only the sample cold start runs.
Progress goes to stderr; the default run takes about five minutes on two CPUs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widgets import DataTable, Input, OptionList, Static

from benchmarks import _pty
from benchmarks.corpus import DATA_DIR, REAL_LIST, scaled_corpus
from benchmarks.search import TYPED_QUERIES
from benchmarks.timing import Latency
from storage import Library
from storage.models import Paper, Status
from tui.app import PapersApp, sample_files
from tui.keys import character_key
from tui.text import printable_block
from tui.view import SEARCH_LIMIT, Found
from tui.widgets.paper_list import PaperList

SIZE = (_pty.COLUMNS, _pty.ROWS)
TAB_KEYS = {"1": "inbox", "2": "starred", "3": "read", "4": "skipped", "5": "all"}
#: The tab bar's progress text: on screen once the Inbox is painted.
PAINTED = b"triaged"
HELLO_TEXT = "Hello, World! (a bare Textual app)"
HELLO_WORLD = f'''"""A bare Textual app: the floor for a cold start."""

from textual.app import App, ComposeResult
from textual.widgets import Static


class HelloWorld(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("{HELLO_TEXT}")


if __name__ == "__main__":
    HelloWorld().run()
'''
COLD_START_SAMPLE_S = 1.0
COLD_START_12K_S = 2.0
COLD_START_RATIO = 2.0
KEY_TARGET_MS = 30.0
RSS_TARGET_MB = 250.0
#: Silence after the last frame that ends a keystroke's repaint.
QUIET_S = 0.05

_began = time.perf_counter()


def log(message: str) -> None:
    """Progress on stderr, with the time since the benchmark started."""
    print(f"[{time.perf_counter() - _began:6.1f} s] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- statistics


def mb(size: int) -> float:
    """Bytes as megabytes (10^6)."""
    return size / 1e6


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


# --------------------------------------------------------------------------- libraries


@dataclass
class Libraries:
    """The HOMEs the benchmark opens, and how long building each took (None: reused)."""

    sample: Path
    sizes: dict[int, Path] = field(default_factory=dict)
    import_seconds: dict[int, float | None] = field(default_factory=dict)


def write_jsonl(papers: Sequence[Paper], path: Path) -> None:
    """Papers as a JSONL list file, in the field names ``papers import`` reads."""
    with path.open("w", encoding="utf-8") as handle:
        for paper in papers:
            record = {
                "title": paper.title,
                "abstract": paper.abstract,
                "authors": list(paper.authors),
                "github": list(paper.github),
                "url": paper.url,
                "keywords": list(paper.keywords),
                "status": paper.venue_status,
            }
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def import_library(home: Path, source: Path | Sequence[Path]) -> float | None:
    """Import ``source`` into a new library in ``home``; seconds taken, None if it existed."""
    if (home / "papers.json").exists():
        return None
    paths = [source] if isinstance(source, Path) else list(source)
    start = time.perf_counter()
    Library(home).import_files(paths)
    return time.perf_counter() - start


def seed_triage(home: Path, share: float = 0.2, seed: int = 0) -> None:
    """Decide a share of the papers (read, skipped, starred alike), as after hours of triage.

    Every tab then holds papers, as it would in use; three writes, three undo steps.
    """
    library = Library(home)
    if library.statuses():
        return
    rng = random.Random(seed)
    groups: dict[Status, list[str]] = {s: [] for s in (Status.READ, Status.SKIPPED, Status.STARRED)}
    for paper in library.papers():
        if rng.random() < share:
            groups[rng.choice(list(groups))].append(paper.id)
    for status, ids in groups.items():
        if ids:
            library.set_statuses(ids, status)


def build_libraries(workdir: Path, sizes: Sequence[int], real: bool) -> Libraries:
    """The sample library and, with the real data, the real list and scaled libraries."""
    libraries = Libraries(sample=workdir / "home-sample")
    import_library(libraries.sample, sample_files())
    if not real:
        return libraries
    home = workdir / "home-3703"
    log("importing the real list (3,703 papers)")
    libraries.import_seconds[3_703] = import_library(home, DATA_DIR / REAL_LIST)
    seed_triage(home)
    libraries.sizes[3_703] = home
    for n in sizes:
        home = workdir / f"home-{n}"
        if not (home / "papers.json").exists():
            log(f"building the {n:,}-paper corpus and importing it")
            source = workdir / f"scaled-{n}.jsonl"
            write_jsonl(scaled_corpus(n, seed=0), source)
            libraries.import_seconds[n] = import_library(home, source)
            seed_triage(home)
            source.unlink()
        else:
            libraries.import_seconds[n] = None
        libraries.sizes[n] = home
    return libraries


def scratch_copy(home: Path, workdir: Path, name: str) -> Path:
    """A throwaway copy of a library, for runs that triage papers."""
    target = workdir / "scratch" / name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(home, target)
    return target


# --------------------------------------------------------------------------- cold start


def papers_command(home: Path) -> list[str]:
    """The installed ``papers`` console script beside this interpreter (else ``-m tui``)."""
    script = Path(sys.executable).with_name("papers")
    if script.exists():
        return [str(script), "--home", str(home)]
    return [sys.executable, "-m", "tui", "--home", str(home)]


def papers_interpreter() -> str:
    """The interpreter the ``papers`` script runs with (its shebang), so both start alike."""
    script = Path(sys.executable).with_name("papers")
    if script.exists():
        first = script.read_text(encoding="utf-8", errors="replace").splitlines()[0]
        if first.startswith("#!") and Path(first[2:].strip()).exists():
            return first[2:].strip()
    return sys.executable


def time_start(command: Sequence[str], marker: bytes) -> float:
    """Seconds from spawning ``command`` in a pseudo-terminal until ``marker`` is on screen."""
    terminal = _pty.spawn(command)
    try:
        return terminal.wait_for(marker, timeout=120)
    finally:
        terminal.close(quit_keys=None)  # killed: a quitting app would still be using the CPU
        time.sleep(0.2)


@dataclass(frozen=True, slots=True)
class StartCase:
    """One program whose cold start is timed."""

    name: str
    command: list[str]
    marker: bytes
    runs: int


def cold_starts(cases: Sequence[StartCase]) -> dict[str, list[float]]:
    """Seconds to first paint, one warm-up run each, then runs interleaved across the cases."""
    times: dict[str, list[float]] = {case.name: [] for case in cases}
    rounds = max(case.runs for case in cases)
    for round_ in range(rounds + 1):
        for case in cases:
            if round_ > case.runs:
                continue
            seconds = time_start(case.command, case.marker)
            if round_:  # round 0 warms the disk cache and the bytecode
                times[case.name].append(seconds)
        log(f"cold start round {round_}/{rounds} done")
    return times


# --------------------------------------------------------------------------- memory (pty)


@dataclass
class PtySession:
    """The real app in a pseudo-terminal: paint time, memory, keystrokes end to end."""

    papers: int
    paint_s: float
    rss_paint: int
    rss_ready: int
    hwm_ready: int
    idle_s: float
    keys: dict[str, Latency] = field(default_factory=dict)
    rss_after_keys: int = 0
    hwm_after_keys: int = 0


def pty_session(home: Path, papers: int, key_reps: int) -> PtySession:
    """Open the app, wait for the index (a search answers), read memory, then time keys.

    ``key_reps`` triage and tab keys are timed from writing the key to the last byte of the
    repaint it causes (the program then writes nothing for ``QUIET_S``).
    """
    terminal = _pty.spawn(papers_command(home))
    try:
        paint = terminal.wait_for(PAINTED, timeout=180)
        rss_paint, _ = terminal.memory()
        # The index is built off the UI thread: done when the program stops using the CPU.
        idle = _pty.wait_idle(terminal) - terminal.started
        # Then a search must answer: "· search" (or "· best 5,000") in the list title.
        terminal.type(b"/")
        terminal.quiet(0.2, 30)  # the search box has the focus
        mark = len(terminal.screen)
        terminal.type(b"diffusion")
        answered = ("· search".encode(), "· best".encode())
        terminal.wait_for(answered, timeout=60, start=mark)
        terminal.type(b"\x0c")  # ctrl+l: clear the search (the cursor stays in the box)
        terminal.quiet(0.2, 5)
        terminal.type(b"\x1b")  # back to the list
        terminal.quiet(0.2, 5)
        rss_ready = _pty.stable_rss(terminal)
        _, hwm_ready = terminal.memory()
        session = PtySession(papers, paint, rss_paint, rss_ready, hwm_ready, idle)
        if key_reps:
            triage = [terminal.key_to_quiet(b"s", QUIET_S) for _ in range(key_reps)]
            session.keys["triage s"] = Latency.of(triage)
            keys = ("23451" * (key_reps // 5 + 1))[:key_reps]
            tabs = [terminal.key_to_quiet(k.encode(), QUIET_S) for k in keys]
            if keys[-1] != "1":
                terminal.key_to_quiet(b"1", QUIET_S)
            session.keys["tab 1..5"] = Latency.of(tabs)
            session.rss_after_keys, session.hwm_after_keys = terminal.memory()
        return session
    finally:
        terminal.close()


# --------------------------------------------------------------------------- in-process


class FrameMeter:
    """Watches every frame Textual paints: when it is done, what it cost, what it showed.

    Headless Textual composes each frame but skips turning it into escape sequences; the meter
    does that step too (``render_segments``), so a frame costs what it costs in a terminal.
    ``watch`` is checked as each frame is painted: the first frame for which it holds is the
    first one that shows the keystroke's result.
    """

    def __init__(self) -> None:
        self.paints: list[float] = []
        self.first: float | None = None
        self.watch: Callable[[], bool] | None = None
        self.frame_seconds = 0.0

    def reset(self, watch: Callable[[], bool] | None = None) -> None:
        self.paints.clear()
        self.first = None
        self.watch = watch
        self.frame_seconds = 0.0

    @contextmanager
    def installed(self) -> Iterator[FrameMeter]:
        """Patch ``Screen._on_timer_update`` and ``App._display`` while the block runs."""
        timer_update = Screen._on_timer_update
        display = App._display
        meter = self

        def on_timer_update(screen: Screen[Any]) -> None:
            start = time.perf_counter()
            painted = len(meter.paints)
            timer_update(screen)
            if len(meter.paints) > painted:
                meter.frame_seconds += time.perf_counter() - start

        def display_frame(app: App[Any], screen: Screen[Any], renderable: Any) -> None:
            if renderable is not None and app.is_headless and not app._batch_count:
                renderable.render_segments(app.console)
                now = time.perf_counter()
                meter.paints.append(now)
                if meter.first is None and meter.watch is not None and meter.watch():
                    meter.first = now
            display(app, screen, renderable)

        Screen._on_timer_update = on_timer_update  # type: ignore[method-assign,assignment]
        App._display = display_frame  # type: ignore[method-assign,assignment]
        try:
            yield self
        finally:
            Screen._on_timer_update = timer_update  # type: ignore[method-assign]
            App._display = display  # type: ignore[method-assign]


class GcWatch:
    """Pauses of the cyclic garbage collector's full (generation 2) collections."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif info.get("generation") == 2:
            self.pauses.append(time.perf_counter() - self._started)

    @contextmanager
    def installed(self) -> Iterator[GcWatch]:
        gc.callbacks.append(self._callback)
        try:
            yield self
        finally:
            gc.callbacks.remove(self._callback)


def key_event(key: str) -> events.Key:
    """The Key event a terminal driver posts for a key name or a typed character."""
    if len(key) == 1:
        return events.Key(character_key(key), key)
    return events.Key(key, None)


@dataclass
class Timings:
    """Durations (seconds) of one kind of keystroke, measured several ways."""

    first: list[float] = field(default_factory=list)
    settled: list[float] = field(default_factory=list)
    frames: list[float] = field(default_factory=list)
    pilot: list[float] = field(default_factory=list)
    handler: list[float] = field(default_factory=list)
    render: list[float] = field(default_factory=list)
    search: list[float] = field(default_factory=list)
    gc_pauses: list[float] = field(default_factory=list)
    missed: int = 0

    def pure(self) -> list[float]:
        """Handler (+ search) + render, per sample."""
        searches = self.search or [0.0] * len(self.handler)
        return [h + r + s for h, r, s in zip(self.handler, self.render, searches, strict=True)]


async def key_to_paint(
    app: App[Any],
    meter: FrameMeter,
    key: str,
    done: Callable[[], bool],
    timings: Timings,
    timeout: float = 10.0,
) -> None:
    """Post ``key`` as the terminal driver does; time the frames it causes.

    ``first``: until the first frame painted with ``done()`` true (the keystroke's result is
    on screen); ``settled``: until the last frame painted before ``QUIET_S`` without one.
    """
    meter.reset(done)
    start = time.perf_counter()
    app.post_message(key_event(key))
    while meter.first is None:
        if time.perf_counter() - start > timeout:
            timings.missed += 1
            return
        await asyncio.sleep(0.0005)
    while True:
        seen = len(meter.paints)
        await asyncio.sleep(QUIET_S)
        if len(meter.paints) == seen:
            break
    timings.first.append(meter.first - start)
    timings.settled.append(meter.paints[-1] - start)
    timings.frames.append(meter.frame_seconds)


async def pilot_press(
    pilot: Pilot[Any], key: str, done: Callable[[], bool], timings: Timings, timeout: float = 10.0
) -> None:
    """Time ``pilot.press(key)``, waiting until ``done()``, then ``pilot.pause()``."""
    start = time.perf_counter()
    await pilot.press(key)
    while not done():
        if time.perf_counter() - start > timeout:
            timings.missed += 1
            return
        await asyncio.sleep(0.0005)
    await pilot.pause()
    timings.pilot.append(time.perf_counter() - start)


def time_pure(timings: Timings, handler: Callable[[], None], view: ScrollView) -> None:
    """Time a handler called directly, then the list's ``render_line`` for every visible row."""
    start = time.perf_counter()
    handler()
    handled = time.perf_counter()
    height = view.scrollable_content_region.height or view.size.height
    for y in range(height):
        view.render_line(y)
    timings.handler.append(handled - start)
    timings.render.append(time.perf_counter() - handled)


async def settle(pilot: Pilot[Any]) -> None:
    """Let the app finish what is queued (not timed)."""
    await pilot.pause()
    await asyncio.sleep(0.01)


@dataclass
class OursResult:
    """Keystroke timings of the real app, and the rows it showed (replayed by the naive apps)."""

    papers: int
    load_s: float
    index_s: float
    actions: dict[str, Timings]
    tab_rows: dict[str, list[int]]
    filter_rows: list[list[int]]
    titles: list[str]


@dataclass(frozen=True, slots=True)
class Reps:
    """How many keystrokes of each kind to time, each way."""

    triage: int  #: ``s`` presses, per way
    tabs: int  #: tab keys, per way
    queries: int  #: queries typed (key -> paint), from ``benchmarks.search.TYPED_QUERIES``
    chars: int  #: keys typed of each query
    pilot_queries: int  #: of them, typed again through Pilot (4 keys each)
    pilot: bool = True  #: time triage and tabs through Pilot too
    pure_queries: int = 15  #: of them, applied again as bare handlers


class OursBench:
    """Drives the real app's main screen: the keys, what shows they are done, the bare handlers."""

    def __init__(self, app: PapersApp, pilot: Pilot[None], meter: FrameMeter) -> None:
        self.app = app
        self.pilot = pilot
        self.meter = meter
        self.screen = app.main_screen
        self.plist: PaperList = self.screen.paper_list
        self.detail = self.screen.detail

    def detail_current(self) -> bool:
        """The detail pane shows the paper under the cursor."""
        paper = self.plist.current
        shown = self.detail.text.plain
        if paper is None:
            return shown.startswith("No papers")
        return shown.startswith(printable_block(paper.display_title))

    def show_detail(self) -> None:
        """What the screen does when the cursor lands on another paper."""
        self.screen.show_current()

    async def measure(
        self,
        timings: Timings,
        key: str,
        done: Callable[[], bool],
        mode: str,
        handler: Callable[[], None] | None = None,
    ) -> None:
        """One keystroke in one ``mode``: "paint", "pilot" or "pure" (``handler`` + render)."""
        if mode == "paint":
            await key_to_paint(self.app, self.meter, key, done, timings)
        elif mode == "pilot":
            await pilot_press(self.pilot, key, done, timings)
        else:
            assert handler is not None
            await settle(self.pilot)
            time_pure(timings, handler, self.plist)
        await settle(self.pilot)

    async def triage(self, timings: Timings, reps: Reps) -> None:
        """``s`` in the Inbox: star the paper, it leaves the list, the next one shows."""
        plist = self.plist

        def decide() -> None:
            self.screen.action_decide("starred")
            self.show_detail()

        for mode in ("paint", "pilot", "pure") if reps.pilot else ("paint", "pure"):
            for _ in range(reps.triage):
                left = len(plist.rows) - 1

                def done(left: int = left) -> bool:
                    return len(plist.rows) == left and self.detail_current()

                await self.measure(timings, "s", done, mode, decide)

    async def tabs(self, timings: Timings, reps: Reps, rows: dict[str, list[int]]) -> None:
        """``2``, ``3``, ``4``, ``5``, ``1``, ...: each shows another tab."""
        keys = ("23451" * (reps.tabs // 5 + 1))[: max(5, reps.tabs)]
        for mode in ("paint", "pilot", "pure") if reps.pilot else ("paint", "pure"):
            for key in keys:
                name = TAB_KEYS[key]

                def done(name: str = name) -> bool:
                    return self.screen.view.tab == name and self.detail_current()

                def switch(name: str = name) -> None:
                    self.screen.action_show_tab(name)
                    self.show_detail()

                await self.measure(timings, key, done, mode, switch)
                rows.setdefault(name, list(self.plist.rows))
        if self.screen.view.tab != "inbox":
            self.screen.action_show_tab("inbox")
            await settle(self.pilot)

    async def filtering(
        self, typing: Timings, clearing: Timings, reps: Reps, found: list[list[int]]
    ) -> None:
        """Type queries one key at a time (each key's results painted), then ``ctrl+l``."""
        screen = self.screen
        queries = list(TYPED_QUERIES[: reps.queries])

        def cleared() -> bool:
            return screen.view.hit_rows is None and not screen.view.query and self.detail_current()

        for mode, count, chars in (
            ("paint", reps.queries, reps.chars),
            ("pilot", reps.pilot_queries if reps.pilot else 0, min(reps.chars, 4)),
        ):
            for query in queries[:count]:
                await self.pilot.press("slash")
                await settle(self.pilot)
                for end in range(1, min(chars, len(query)) + 1):
                    text, before = query[:end].strip(), screen.view.hit_rows

                    def applied(text: str = text, before: object = before) -> bool:
                        return (
                            screen.view.query == text
                            and screen.view.hit_rows is not before
                            and self.detail_current()
                        )

                    await self.measure(typing, query[end - 1], applied, mode)
                    if mode == "paint":
                        found.append(list(self.plist.rows))
                await self.measure(clearing, "ctrl+l", cleared, mode)
                await self.pilot.press("escape")  # ctrl+l left the cursor in the box
                await settle(self.pilot)
        index = screen.index
        assert index is not None
        state = self.app.session.state
        for number, query in enumerate(queries):
            index.clear_caches()  # as when the query was first typed
            timed = number < reps.pure_queries  # the others only get a filter to clear
            ends = range(1, min(reps.chars, len(query)) + 1) if timed else [reps.chars]
            for end in ends:
                text = query[:end].strip()
                start = time.perf_counter()
                ranking = index.rank(
                    text, limit=SEARCH_LIMIT, statuses=dict(state.statuses), tags=dict(state.tags)
                )
                found = screen.view.found_by(ranking)
                searched = time.perf_counter() - start

                def apply(text: str = text, found: Found = found) -> None:
                    screen.search_results(text, found)
                    self.show_detail()

                if timed:
                    typing.search.append(searched)
                    await self.measure(typing, "", lambda: True, "pure", apply)
                else:
                    apply()
                    await settle(self.pilot)

            def clear() -> None:
                screen.query_changed(Input.Changed(screen.search_box, ""))
                self.show_detail()

            await self.measure(clearing, "", lambda: True, "pure", clear)


async def bench_ours(home: Path, reps: Reps) -> OursResult:
    """Time triage, tab switches, filtering and clearing in the real app (headless, 120x36)."""
    meter = FrameMeter()
    start = time.perf_counter()
    app = PapersApp(Library(home), import_sample=False)
    load = time.perf_counter() - start
    names = ("triage s", "tab 1..5", "filter key", "clear")
    actions = {name: Timings() for name in names}
    tab_rows: dict[str, list[int]] = {}
    found: list[list[int]] = []
    with meter.installed():
        async with app.run_test(size=SIZE) as pilot:
            mounted = time.perf_counter()
            while not (app.screen is app.main_screen and app.main_screen.index is not None):
                await asyncio.sleep(0.01)
            index_s = time.perf_counter() - mounted
            await settle(pilot)
            bench = OursBench(app, pilot, meter)
            # The cursor blinks every 0.5 s in the search box: frames no keystroke asked for.
            bench.screen.search_box.cursor_blink = False
            n = len(app.papers)
            steps: list[tuple[str, Callable[[], Any]]] = [
                ("triage s", lambda: bench.triage(actions["triage s"], reps)),
                ("tab 1..5", lambda: bench.tabs(actions["tab 1..5"], reps, tab_rows)),
                (
                    "filter key",
                    lambda: bench.filtering(actions["filter key"], actions["clear"], reps, found),
                ),
            ]
            for name, step in steps:
                log(f"  {n:,} papers: {name}")
                watch = GcWatch()
                with watch.installed():
                    await step()
                actions[name].gc_pauses = watch.pauses
            titles = [p.display_title for p in app.papers]
        app.session.close(timeout=10)
    return OursResult(n, load, index_s, actions, tab_rows, found or [[]], titles)


class NaiveApp(App[None]):
    """The naive approach: every title one option of a stock ``OptionList`` (or ``DataTable``).

    ``s`` removes the highlighted paper; ``1``..``5`` show the rows the real app showed for
    that tab; ``f`` shows the next of the real app's search results; ``c`` shows every paper.
    """

    BINDINGS = [
        ("s", "triage", "Star"),
        ("1", "tab(0)", "Inbox"),
        ("2", "tab(1)", "Starred"),
        ("3", "tab(2)", "Read"),
        ("4", "tab(3)", "Skipped"),
        ("5", "tab(4)", "All"),
        ("f", "filter", "Filter"),
        ("c", "clear", "Clear"),
    ]

    def __init__(
        self,
        titles: Sequence[str],
        tabs: Sequence[list[int]],
        filters: Sequence[list[int]],
        kind: str,
    ) -> None:
        super().__init__()
        self.titles = titles
        self.tabs = tabs
        self.filters = filters
        self.kind = kind
        self.next_filter = 0
        self.shown = len(titles)

    def compose(self) -> ComposeResult:
        yield Static("Inbox", id="tabs")
        if self.kind == "OptionList":
            yield OptionList(*(Text(t) for t in self.titles), id="list")
        else:
            table: DataTable[Any] = DataTable(id="list", cursor_type="row")
            table.add_columns("", "title")
            table.add_rows(("·", Text(t)) for t in self.titles)
            yield table
        yield Static(id="detail")

    @property
    def view(self) -> ScrollView:
        return self.query_one("#list", ScrollView)

    def on_mount(self) -> None:
        self.view.focus()

    def show(self, rows: Sequence[int]) -> None:
        """Replace the list's content: what a naive tab switch or filter does."""
        titles = self.titles
        view = self.view
        if isinstance(view, OptionList):
            view.clear_options()
            view.add_options([Text(titles[i]) for i in rows])
            view.highlighted = 0 if rows else None
        elif isinstance(view, DataTable):
            view.clear()
            view.add_rows([("·", Text(titles[i])) for i in rows])
        self.shown = len(rows)
        self.query_one("#tabs", Static).update(f"{len(rows):,} papers")

    def action_triage(self) -> None:
        view = self.view
        if isinstance(view, OptionList) and view.highlighted is not None:
            view.remove_option_at_index(view.highlighted)
        elif isinstance(view, DataTable) and view.row_count:
            key = view.coordinate_to_cell_key(view.cursor_coordinate).row_key
            view.remove_row(key)
        self.shown -= 1
        self.query_one("#detail", Static).update(f"{self.shown:,} left")

    def action_tab(self, index: int) -> None:
        self.show(self.tabs[index % len(self.tabs)])

    def action_filter(self) -> None:
        self.show(self.filters[self.next_filter % len(self.filters)])
        self.next_filter += 1

    def action_clear(self) -> None:
        self.show(range(len(self.titles)))


def count_of(view: ScrollView) -> int:
    """How many rows a naive list holds."""
    if isinstance(view, OptionList):
        return view.option_count
    if isinstance(view, DataTable):
        return view.row_count
    return 0


async def bench_naive(ours: OursResult, kind: str, reps: int, budget: float) -> dict[str, Timings]:
    """The same keystrokes in the naive app; each kind stops after ``budget`` seconds."""
    tabs = [ours.tab_rows.get(TAB_KEYS[k], []) for k in sorted(TAB_KEYS)]
    app = NaiveApp(ours.titles, tabs, ours.filter_rows, kind)
    meter = FrameMeter()
    actions = {name: Timings() for name in ("triage s", "tab 1..5", "filter key", "clear")}
    with meter.installed():
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            view = app.view

            def expect(key: str) -> Callable[[], bool]:
                """What shows that ``key`` was handled: the list holds the rows it should."""
                if key == "s":
                    left = count_of(view) - 1
                    return lambda: count_of(view) == left
                if key in TAB_KEYS:
                    wanted = len(tabs[int(key) - 1])
                    return lambda: count_of(view) == wanted and app.shown == wanted
                if key == "f":
                    wanted = len(ours.filter_rows[app.next_filter % len(ours.filter_rows)])
                    return lambda: app.shown == wanted and count_of(view) == wanted
                return lambda: count_of(view) == len(ours.titles)

            plan = {"triage s": "s", "tab 1..5": "23451", "filter key": "f", "clear": "c"}
            for name, keys in plan.items():
                log(f"  naive {kind}: {name}")
                timings = actions[name]
                began = time.perf_counter()
                for i in range(reps):
                    if i >= 5 and time.perf_counter() - began > budget:
                        break
                    if name == "clear":  # clear a filter, as in the real app
                        app.action_filter()
                        await settle(pilot)
                    key = keys[i % len(keys)]
                    await key_to_paint(app, meter, key, expect(key), timings, timeout=60)
                    await settle(pilot)
                handlers: dict[str, Callable[[str], None]] = {
                    "triage s": lambda _key: app.action_triage(),
                    "tab 1..5": lambda key: app.action_tab(int(key) - 1),
                    "filter key": lambda _key: app.action_filter(),
                    "clear": lambda _key: app.action_clear(),
                }
                for i in range(min(10, max(5, len(timings.first)))):
                    if name == "clear":
                        app.action_filter()
                    await settle(pilot)
                    key = keys[i % len(keys)]
                    time_pure(timings, partial(handlers[name], key), view)
                await settle(pilot)
    return actions


# --------------------------------------------------------------------------- report

Target = tuple[str, str, bool]


def print_table(title: str, header: str, rows: Sequence[str]) -> None:
    """A titled table with a rule under its header."""
    print(f"\n## {title}")
    print(header)
    print("-" * len(header))
    for row in rows:
        print(row)


def keystroke_tables(
    ours: OursResult, naive: dict[str, dict[str, Timings]], targets: list[Target] | None
) -> None:
    """Print the keystroke tables of one library size; add its verdicts to ``targets``."""
    n = ours.papers
    header = f"{'keystroke':<11} | {'measured as':<40} | {'p50 ms':>7} | {'p95 ms':>7} | "
    header += f"{'max ms':>7} | {'n':>5}"
    rows: list[str] = []
    for name, t in ours.actions.items():
        lines = [
            ("key -> first frame showing the result", Latency.of(t.first, t.missed)),
            ("key -> last frame (screen settled)", Latency.of(t.settled)),
            ("  CPU in frames (compose + encode)", Latency.of(t.frames)),
            ("pilot.press + pause", Latency.of(t.pilot)),
            ("pure: search + map hits (worker thread)", Latency.of(t.search)),
            ("pure: handler", Latency.of(t.handler)),
            ("pure: list render_line x visible rows", Latency.of(t.render)),
            ("pure: total", Latency.of(t.pure())),
        ]
        label = name
        for what, lat in lines:
            if lat.count:
                rows.append(f"{label:<11} | {what:<40} | {lat.cells()}")
                label = ""
        if t.gc_pauses:
            pauses = sorted(t.gc_pauses)
            rows.append(
                f"{'':<11} | {'full GC pauses (all modes): ' + str(len(pauses)):<40} | "
                f"{statistics.median(pauses) * 1000:>7.1f} | {'':>7} | "
                f"{pauses[-1] * 1000:>7.1f} | {len(pauses):>5}"
            )
    print_table(
        f"Keystroke to repaint at {n:,} papers (App.run_test {SIZE[0]}x{SIZE[1]}; load "
        f"{ours.load_s:.2f} s, index ready {ours.index_s:.2f} s after mount)",
        header,
        rows,
    )
    if targets is not None:
        for name, t in ours.actions.items():
            lat = Latency.of(t.first, t.missed)
            settled = Latency.of(t.settled)
            targets.append(
                (
                    f"{name} at {n:,}: key -> shown, p95 <= {KEY_TARGET_MS:.0f} ms",
                    f"p50 {lat.p50:.0f} / p95 {lat.p95:.0f} ms (settled p95 {settled.p95:.0f})",
                    lat.p95 <= KEY_TARGET_MS and not lat.missed,
                )
            )
    if not naive:
        return
    header = f"{'keystroke':<11} | {'naive widget':<12} | {'shown p50':>9} | {'p95':>7} | "
    header += f"{'n':>3} | {'pure p50':>8} | {'ours/naive shown p50':>20} | {'pure':>6}"
    rows = []
    for name, mine in ours.actions.items():
        for kind, actions in naive.items():
            t = actions[name]
            lat = Latency.of(t.first, t.missed)
            pure = Latency.of(t.pure())
            rows.append(
                f"{name:<11} | {kind:<12} | {lat.p50:>9.1f} | {lat.p95:>7.1f} | {lat.count:>3} | "
                f"{pure.p50:>8.1f} | {Latency.of(mine.first).p50 / lat.p50:>20.2f} | "
                f"{Latency.of(mine.pure()).p50 / pure.p50:>6.2f}"
            )
    print_table(
        f"Naive apps at {n:,} titles (tab/filter: clear + add the same rows; triage: remove one; "
        "the naive filter replays the real app's results: no search cost)",
        header,
        rows,
    )


def print_targets(targets: Sequence[Target]) -> None:
    """The verdict table."""
    print_table(
        "Targets",
        f"{'target':<48} | {'measured':<40} | verdict",
        [f"{name:<48} | {value:<40} | {verdict(ok)}" for name, value, ok in targets],
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print its tables; exit 0 unless something crashed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs, no 100,000 papers")
    parser.add_argument(
        "--workdir", type=Path, help="build (and reuse) the libraries here, not in a temp folder"
    )
    args = parser.parse_args(argv)
    real = (DATA_DIR / REAL_LIST).is_file()
    sizes = (12_000,) if args.quick else (12_000, 100_000)
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        return run(args.workdir.resolve(), args.quick, real, sizes)
    with tempfile.TemporaryDirectory(prefix="papers-bench-") as folder:
        return run(Path(folder), args.quick, real, sizes)


def run(workdir: Path, quick: bool, real: bool, sizes: Sequence[int]) -> int:
    """The benchmark proper, with its libraries in ``workdir``."""
    began = time.perf_counter()
    print(f"app benchmark{' (quick)' if quick else ''}: terminal {SIZE[0]}x{SIZE[1]}")
    print(
        f"python {sys.version.split()[0]}, textual {version('textual')}, "
        f"{os.cpu_count()} CPUs; papers runs on {papers_interpreter()}"
    )
    if not real:
        print(f"the real data ({DATA_DIR / REAL_LIST}) is absent: only the sample cold start runs")
    libraries = build_libraries(workdir, sizes, real)
    targets: list[Target] = []
    if libraries.import_seconds:
        rows = []
        for n, seconds in libraries.import_seconds.items():
            size = (libraries.sizes[n] / "papers.json").stat().st_size
            took = "reused" if seconds is None else f"{seconds:.2f}"
            rows.append(f"{n:>9,} | {took:>8} | {mb(size):>13.1f}")
        print_table(
            "Libraries: Library(home).import_file(JSONL); then 20% of papers decided",
            f"{'papers':>9} | {'import s':>8} | {'papers.json MB':>13}",
            rows,
        )
    cold_start_section(workdir, libraries, quick, targets)
    if real:
        memory_section(workdir, libraries, targets)
        for n in sizes:
            keystroke_section(workdir, libraries.sizes[n], n, quick, targets)
    print_targets(targets)
    print(f"\nbenchmark took {time.perf_counter() - began:.0f} s")
    return 0


def cold_start_section(
    workdir: Path, libraries: Libraries, quick: bool, targets: list[Target]
) -> None:
    """Time the cold starts and judge them."""
    hello = workdir / "hello_world.py"
    hello.write_text(HELLO_WORLD, encoding="utf-8")
    runs = 5 if quick else 7
    cases = [
        StartCase("hello world", [papers_interpreter(), str(hello)], HELLO_TEXT.encode(), runs),
        StartCase("papers, sample (38)", papers_command(libraries.sample), PAINTED, runs),
    ]
    for n, home in sorted(libraries.sizes.items()):
        cases.append(
            StartCase(f"papers, {n:,}", papers_command(home), PAINTED, runs if n <= 12_000 else 3)
        )
    log("cold starts: " + ", ".join(case.name for case in cases))
    starts = cold_starts(cases)
    floor = statistics.median(starts["hello world"])
    rows = []
    for case in cases:
        times = starts[case.name]
        median = statistics.median(times)
        rows.append(
            f"{case.name:<22} | {median:>8.3f} | {min(times):>7.3f} | {max(times):>7.3f} | "
            f"{len(times):>4} | {median / floor:>7.2f}"
        )
    print_table(
        f"Cold start to first paint (spawned in a {SIZE[0]}x{SIZE[1]} pty, until its text shows)",
        f"{'program':<22} | {'median s':>8} | {'min s':>7} | {'max s':>7} | {'runs':>4} | "
        f"{'x hello':>7}",
        rows,
    )
    for name, limit in (("sample (38)", COLD_START_SAMPLE_S), ("12,000", COLD_START_12K_S)):
        found = starts.get(f"papers, {name}")
        if found is None:
            continue
        median = statistics.median(found)
        targets.append(
            (f"cold start, {name}: <= {limit:.1f} s", f"{median:.3f} s", median <= limit)
        )
        targets.append(
            (
                f"cold start, {name}: <= {COLD_START_RATIO:.0f}x hello world",
                f"{median / floor:.2f}x ({median:.3f} / {floor:.3f} s)",
                median <= COLD_START_RATIO * floor,
            )
        )


def memory_section(workdir: Path, libraries: Libraries, targets: list[Target]) -> None:
    """Memory of the real app in a pty, and keystrokes end to end at 12,000."""
    sessions: list[PtySession] = []
    for n, home in sorted(libraries.sizes.items()):
        log(f"memory at {n:,} papers (pty)")
        copy = scratch_copy(home, workdir, f"pty-{n}")
        sessions.append(pty_session(copy, n, key_reps=30 if n == 12_000 else 0))
        shutil.rmtree(copy)
    print_table(
        "Memory of the real app in a pty (MB = 10^6 bytes; idle: index built and the CPU idle; "
        "ready: then a search answered)",
        f"{'papers':>9} | {'paint s':>7} | {'idle s':>7} | {'RSS at paint':>12} | "
        f"{'RSS ready':>9} | {'VmHWM':>7}",
        [
            f"{s.papers:>9,} | {s.paint_s:>7.2f} | {s.idle_s:>7.2f} | {mb(s.rss_paint):>12.0f} | "
            f"{mb(s.rss_ready):>9.0f} | {mb(s.hwm_ready):>7.0f}"
            for s in sessions
        ],
    )
    for s in sessions:
        if s.papers != 12_000:
            continue
        ready, peak = mb(s.rss_ready), mb(s.hwm_ready)
        limit = RSS_TARGET_MB
        targets.append(
            (f"RSS at 12,000, index built: <= {limit:.0f} MB", f"{ready:.0f} MB", ready <= limit)
        )
        targets.append(
            (f"peak RSS (VmHWM) at 12,000: <= {limit:.0f} MB", f"{peak:.0f} MB", peak <= limit)
        )
        if s.keys:
            print_table(
                "Keystroke to the last byte of its repaint: the real app in a pty at 12,000 "
                f"(terminal I/O included; a repaint ends after {QUIET_S * 1000:.0f} ms of silence)",
                f"{'keystroke':<11} | {'p50 ms':>7} | {'p95 ms':>7} | {'max ms':>7} | {'n':>5}",
                [f"{name:<11} | {lat.cells()}" for name, lat in s.keys.items()],
            )
            print(
                f"after these keys: RSS {mb(s.rss_after_keys):.0f} MB, "
                f"VmHWM {mb(s.hwm_after_keys):.0f} MB"
            )


def keystroke_section(
    workdir: Path, home: Path, n: int, quick: bool, targets: list[Target]
) -> None:
    """Keystrokes in process at ``n`` papers; the naive apps beside it at 12,000."""
    if n > 12_000:
        reps = Reps(triage=20, tabs=20, queries=3, chars=3, pilot_queries=0, pilot=False)
    elif quick:
        reps = Reps(triage=30, tabs=30, queries=30, chars=2, pilot_queries=8)
    else:
        reps = Reps(triage=40, tabs=40, queries=30, chars=3, pilot_queries=8)
    log(f"keystrokes at {n:,} papers (run_test)")
    copy = scratch_copy(home, workdir, f"keys-{n}")
    ours = asyncio.run(bench_ours(copy, reps))
    shutil.rmtree(copy)
    naive: dict[str, dict[str, Timings]] = {}
    if n <= 12_000:
        for kind in ("OptionList", "DataTable"):
            log(f"naive {kind} at {n:,} titles")
            naive[kind] = asyncio.run(bench_naive(ours, kind, reps=30, budget=4))
    keystroke_tables(ours, naive, targets if n <= 12_000 else None)
    gc.collect()


if __name__ == "__main__":
    raise SystemExit(main())
