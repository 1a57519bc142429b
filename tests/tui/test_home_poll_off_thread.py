"""The poll looks at HOME's files off the screen's thread (Pilot, a real HOME, real processes).

Each second the screen asked whether ``searches.json``, ``papers.json`` or ``triage.json``
changed: a stat of each (and a read of ``searches.json`` when it had), made on the screen's
thread. With HOME on a share that hangs (NFS, SMB, a sync client's folder whose server went
away) a stat waits until it answers, and no key was read meanwhile. The look here is a real
one (``HomeFiles.look``) that says on which thread it ran and waits until the test lets it go
on: a share as hung as the test needs (as ``test_pdf_poll_off_thread`` holds the PDF folder).
So was the place the cursor rested on written (``ui.json``) by the poll: held the same way.
"""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

from storage import Library
from storage.files.saved_searches import SavedSearches
from storage.files.ui_state import UI_FILE, UiState, load_ui_state
from storage.models import Status
from tests.cli.test_cli import PAPERS, make_env
from tests.tui.helpers import make_app, messages, one_paper_list, plist, ready, wait_for
from tui.home_look import HomeFiles, HomeLook, HomeSeen, UiWrites

SIZE = (100, 30)
#: The longest a held look or write waits for the test to let it go: a bound for a test that
#: failed before it did, never reached otherwise. It was 10 s, and a loaded machine (CI's)
#: took longer than that over the three `papers` processes run while a look was held: it
#: answered on its own, and the test said the keys had waited for it.
HELD_AT_MOST_S = 60.0


class HungHome(HomeFiles):
    """HOME's real files, whose looks say on which thread they ran, and wait while ``go`` is
    clear (a hung share; at most ``HOLD_S``)."""

    HOLD_S = HELD_AT_MOST_S

    def __init__(self, library: Library) -> None:
        super().__init__(library)
        self.threads: list[threading.Thread] = []
        self.go = threading.Event()
        self.waiting = threading.Event()

    def look(self, seen: HomeSeen) -> HomeLook:
        self.threads.append(threading.current_thread())
        self.waiting.set()
        self.go.wait(self.HOLD_S)
        self.waiting.clear()
        return super().look(seen)


def elsewhere(home: Path, tmp_path: Path, *args: str) -> None:
    """``papers ARGS…`` in another process, on the same HOME."""
    done = subprocess.run(
        [*PAPERS, "--home", str(home), *args],
        env=make_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


async def test_keys_are_read_while_the_polls_look_at_home_hangs(
    seeded_home: Path, tmp_path: Path
) -> None:
    ids = [p.id for p in Library(seeded_home).papers()]
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        assert plist(app).current is not None and plist(app).current.id == ids[0]
        home = HungHome(screen.library)
        screen.home_files = home
        await wait_for(pilot, home.waiting.is_set)  # the poll's look, hung
        await pilot.press("j")  # read and acted on while it hangs
        await wait_for(pilot, lambda: plist(app).current.id == ids[1])  # type: ignore[union-attr]
        # meanwhile, other processes: a search saved, a paper starred, a list imported
        elsewhere(seeded_home, tmp_path, "search", "--save", "Graphs", "graph")
        elsewhere(seeded_home, tmp_path, "mark", ids[5], "starred")
        source = one_paper_list(tmp_path / "other.jsonl", "Other Paper", "Imported by a script.")
        elsewhere(seeded_home, tmp_path, "import", str(source))
        await pilot.pause(1.2)  # a poll more, at least
        await pilot.press("j")
        await wait_for(pilot, lambda: plist(app).current.id == ids[2])  # type: ignore[union-attr]
        assert home.waiting.is_set()  # the keys answered before the share did
        assert len(home.threads) == 1  # one look at a time: no thread more each second
        assert app.session.status(ids[5]) is Status.INBOX
        assert [tab.search.name for tab in screen.view.saved] == []
        assert len(screen.view.papers) == len(ids)
        home.go.set()  # once the share answers, the app knows what changed meanwhile
        await wait_for(pilot, lambda: app.session.status(ids[5]) is Status.STARRED)
        await wait_for(
            pilot, lambda: [tab.search.name for tab in screen.view.saved] == ["Graphs"], 5
        )
        await wait_for(pilot, lambda: len(screen.view.papers) == len(ids) + 1)
        assert "Papers imported elsewhere were added." in messages(app)
    assert [t for t in home.threads if t is threading.main_thread()] == []


class HungWrites(UiWrites):
    """``ui.json``'s real writes, which say on which thread they ran, and wait while ``go``
    is clear (a hung share; at most ``HOLD_S``; not the end's, on the main thread, unless
    ``ends_too``)."""

    HOLD_S = HELD_AT_MOST_S

    def __init__(self, home: Path, *, ends_too: bool = True) -> None:
        super().__init__(home)
        #: Whether the writes made on the main thread (the end's) wait too.
        self.ends_too = ends_too
        self.threads: list[threading.Thread] = []
        self.go = threading.Event()
        self.waiting = threading.Event()
        self.done = threading.Event()  # (a write let go, too)

    def write(self, order: int, state: UiState) -> None:
        self.threads.append(threading.current_thread())
        if not self.ends_too and self.threads[-1] is threading.main_thread():
            super().write(order, state)
            return
        self.waiting.set()
        self.go.wait(self.HOLD_S)
        self.waiting.clear()
        super().write(order, state)
        self.done.set()


async def test_keys_are_read_while_the_resting_place_is_written_to_a_hung_home(
    seeded_home: Path,
) -> None:
    ids = [p.id for p in Library(seeded_home).papers()]
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        writes = HungWrites(seeded_home)
        screen.ui_writes = writes
        await pilot.press("j")
        await wait_for(pilot, lambda: plist(app).current.id == ids[1])  # type: ignore[union-attr]
        await wait_for(pilot, writes.waiting.is_set)  # rested on it: its write, hung
        await pilot.press("j")  # read and acted on while it hangs
        await wait_for(pilot, lambda: plist(app).current.id == ids[2])  # type: ignore[union-attr]
        await pilot.pause(2.2)  # rested on the next paper for polls more
        assert writes.waiting.is_set()  # the keys answered before the share did
        assert len(writes.threads) == 1  # one write at a time: no thread more each second
        writes.go.set()  # once the share answers, the place rested on last is written
        await wait_for(pilot, lambda: load_ui_state(seeded_home).paper == ids[2])
        assert len(writes.threads) == 2
    assert [t for t in writes.threads if t is threading.main_thread()] == []


def test_a_write_asked_for_before_the_last_one_written_is_let_go(tmp_path: Path) -> None:
    """A place written in a worker, held by a hung share while the split was changed (or
    the app ended on another place), lands after it: the newer state stays."""
    writes = UiWrites(tmp_path)
    older, newer = writes.ask(), writes.ask()
    writes.write(newer, UiState(split=30, paper="newer"))
    writes.write(older, UiState(split=50, paper="older"))
    assert load_ui_state(tmp_path) == UiState(split=30, paper="newer")


class LateHome(HomeFiles):
    """HOME's real files, whose looks that read saved searches wait, with what they read,
    while ``go`` is clear (a share that answers the read, then holds the result's way
    back; at most ``HOLD_S``)."""

    HOLD_S = HELD_AT_MOST_S

    def __init__(self, library: Library) -> None:
        super().__init__(library)
        self.go = threading.Event()
        self.waiting = threading.Event()

    def look(self, seen: HomeSeen) -> HomeLook:
        look = super().look(seen)
        if look.saved:
            self.waiting.set()
            self.go.wait(self.HOLD_S)
        return look


async def test_a_look_older_than_the_apps_own_save_leaves_its_tab(seeded_home: Path) -> None:
    """A look read ``searches.json`` (a search saved elsewhere), then the user saved one in
    the app and went to its tab: the look's older searches, taken after, closed that tab
    (the Inbox shown instead) until the next poll brought it back."""
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        home = LateHome(screen.library)
        screen.home_files = home
        SavedSearches(seeded_home).save("Graphs", "graph")  # elsewhere
        await wait_for(pilot, home.waiting.is_set)  # read, and held on its way back
        screen.saved_searches.save("Mine", "learning")  # as the app's own save does
        screen.read_saved_searches()
        mine = next(tab.name for tab in screen.view.saved if tab.search.name == "Mine")
        screen.action_show_tab(mine)
        assert screen.view.tab == mine
        home.go.set()
        await wait_for(pilot, lambda: not home.looking)  # (the next look: not held)
        await pilot.pause(1.2)
        assert screen.view.tab == mine
        assert [tab.search.name for tab in screen.view.saved] == ["Graphs", "Mine"]


async def test_a_look_older_than_an_import_from_the_dialog_says_nothing(
    seeded_home: Path, tmp_path: Path
) -> None:
    """A look begun before the import dialog opened, held by the share until the dialog's
    import was written and shown: papers.json had changed since the version it was begun
    against, by the app's own hand, and the look, taken after, said the papers came from
    elsewhere and read them again."""
    from tests.tui.test_import_dialog import ELSEWHERE, import_typed

    source = one_paper_list(tmp_path / "one.jsonl", "Quiet Paper", "Imported from the dialog.")
    ids = [p.id for p in Library(seeded_home).papers()]
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        home = HungHome(screen.library)
        screen.home_files = home
        await wait_for(pilot, home.waiting.is_set)  # begun, and held before its stats
        await import_typed(pilot, source)
        await wait_for(pilot, lambda: any(m.startswith("Imported") for m in messages(app)))
        await wait_for(pilot, lambda: len(screen.view.papers) == len(ids) + 1)
        home.go.set()
        await wait_for(pilot, lambda: not home.looking)
        await pilot.pause(1.2)  # and a poll after it
        assert ELSEWHERE not in messages(app)


async def test_a_look_that_answers_as_the_app_ends_is_let_go(
    seeded_home: Path, tmp_path: Path
) -> None:
    """A look held by the share answers once the app's end has begun (``q``, a signal): what
    it saw changes nothing (the widgets it would redraw may be gone), and the look is let go."""
    ids = [p.id for p in Library(seeded_home).papers()]
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        home = HungHome(screen.library)
        screen.home_files = home
        await wait_for(pilot, home.waiting.is_set)
        elsewhere(seeded_home, tmp_path, "search", "--save", "Graphs", "graph")
        elsewhere(seeded_home, tmp_path, "mark", ids[5], "starred")
        app.ending = True  # (what ``begin_ending`` sets first)
        home.go.set()
        await wait_for(pilot, lambda: not home.looking)
        await pilot.pause(0.3)
        assert screen.view.saved == []
        assert app.session.status(ids[5]) is Status.INBOX
        assert not app.session.busy  # (no reload queued)
        app.ending = False


async def test_the_place_is_written_as_the_app_ends_while_its_write_hangs(
    seeded_home: Path,
) -> None:
    """The app quit while a worker's write of the place it rested on was held: the place was
    taken as kept (the worker's), the end wrote nothing, and the process could end before
    the worker did. The end writes it too; the worker's, once the share answers, is let go
    (it was asked for before)."""
    ids = [p.id for p in Library(seeded_home).papers()]
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(pilot)
        writes = HungWrites(seeded_home, ends_too=False)
        screen.ui_writes = writes
        await pilot.press("j")
        await wait_for(pilot, writes.waiting.is_set)  # rested on ids[1]: its write, hung
        assert screen.ui.paper == ids[1]
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running)
        assert load_ui_state(seeded_home).paper == ids[1]  # written by the end
        state = (seeded_home / UI_FILE).stat()
        writes.go.set()  # the share answers: the worker's write, asked for before, let go
        assert writes.done.wait(30)
    assert (seeded_home / UI_FILE).stat() == state
    assert len([t for t in writes.threads if t is not threading.main_thread()]) == 1


async def test_papers_damaged_elsewhere_are_said_and_the_app_goes_on(seeded_home: Path) -> None:
    """Another process left ``papers.json`` damaged: the poll saw it changed and read it
    again, which failed. On the screen's thread the read was inside the poll's ``try`` (a
    notification: the app goes on with what it loaded); taken from the look in a worker, it
    was outside any: the error went back to the worker (``call_from_thread``), which let it
    go, and nothing was said (the damaged version is not "changed" again: never said)."""
    ids = [p.id for p in Library(seeded_home).papers()]
    app = make_app(seeded_home)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        (seeded_home / "papers.json").write_text('{"papers": ', encoding="utf-8")
        await wait_for(pilot, lambda: any("goes on with what" in m for m in messages(app)))
        await pilot.pause(1.2)  # a poll more: said once
        assert len([m for m in messages(app) if "goes on with what" in m]) == 1
        await pilot.press("j")
        await wait_for(pilot, lambda: plist(app).current.id == ids[1])  # type: ignore[union-attr]
        assert app.is_running
