"""Helpers for driving the real app: a fake OS clipboard, waiting for workers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import pyperclip
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.screen import Screen

from storage import Library
from tui.app import PapersApp
from tui.screens.main import MainScreen
from tui.view import TABS
from tui.widgets.paper_list import PaperList
from tui.widgets.tab_bar import TabBar

if TYPE_CHECKING:
    from tui.view import TriageView


class FakeClipboard:
    """The OS clipboard, in memory (the only thing tests mock)."""

    def __init__(self) -> None:
        self.text = ""
        self.fail: str | None = None

    def copy(self, text: str) -> None:
        if self.fail:
            raise pyperclip.PyperclipException(self.fail)
        self.text = text

    def paste(self) -> str:
        return self.text


def one_paper_list(path: Path, title: str, abstract: str) -> Path:
    """A JSONL list file holding one paper."""
    path.write_text(json.dumps({"title": title, "abstract": abstract}), encoding="utf-8")
    return path


def make_app(home: Path) -> PapersApp:
    """The real app on the library in ``home`` (first run imports the sample)."""
    return PapersApp(Library(home))


async def wait_for(
    pilot: Pilot[None], condition: Callable[[], bool], timeout: float = 10.0
) -> None:
    """Let the app run until ``condition`` holds (workers, the writer thread…)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.02)


async def opened(pilot: Pilot[None], key: str, kind: type[Screen[Any]]) -> Screen[Any]:
    """Press ``key`` and wait for the screen it opens, of ``kind``."""
    await pilot.press(key)
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, kind))
    return pilot.app.screen


async def ready(pilot: Pilot[None]) -> MainScreen:
    """The main screen once its search index is built and its PDF folder scanned."""
    app = pilot.app
    assert isinstance(app, PapersApp)
    screen = app.main_screen
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, MainScreen) and screen.index is not None and screen.pdfs.scanned
        ),
    )
    return app.main_screen


async def settled(pilot: Pilot[None]) -> None:
    """Every decision made so far is on disk and its outcome absorbed: waited for, not
    guessed (the writer is idle before it hands its last outcome to the screen, whose queue
    a loaded machine may reach later than any fixed pause)."""
    app = pilot.app
    assert isinstance(app, PapersApp)
    await wait_for(pilot, lambda: not app.session.busy and app.session.absorbed)
    await pilot.pause(0.05)


def plist(app: PapersApp) -> PaperList:
    """The main screen's paper list."""
    return app.main_screen.query_one(PaperList)


def tab_text(app: PapersApp) -> str:
    """The tab bar as text."""
    return str(app.main_screen.query_one("#tabs").render())


def messages(app: PapersApp) -> list[str]:
    """Every notification the app showed."""
    return [n.message for n in app._notifications]


class ShownTabs:
    """What a ``TabBar`` reads of a ``TriageView``, given by hand: counts no small list of
    papers could give (100,000 papers), the current tab, saved searches' tabs."""

    def __init__(
        self, counts: dict[str, int], tab: str = "inbox", saved: Sequence[tuple[str, str]] = ()
    ) -> None:
        self.shown = dict(counts)
        self.tab = tab
        self.names = list(saved)

    def counts(self) -> dict[str, int]:
        return self.shown

    @property
    def saved(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name=name) for name, _ in self.names]

    def saved_label(self, tab: SimpleNamespace) -> str:
        return dict(self.names)[tab.name]

    def label(self, name: str | None = None) -> str:
        name = name or self.tab
        return dict(self.names).get(name) or TABS[name][0]


class OneTabBar(App[None]):
    """A tab bar alone, drawing a ``ShownTabs``."""

    def __init__(self, shown: ShownTabs) -> None:
        super().__init__()
        self.shown = shown

    def compose(self) -> ComposeResult:
        yield TabBar(cast("TriageView", self.shown), id="tabs")


def big_library(home: Path, tmp_path: Path, n: int) -> list[str]:
    """``n`` papers that all say "model" (more than the search lists at once), the last
    three starred: at the end of the list, as the papers a user stars late are."""
    import json
    import random

    rng = random.Random(5)
    words = ["graph", "neural", "diffusion", "sampler", "policy", "gradient", "attention"]
    path = tmp_path / "big.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            said = " ".join(rng.choices(words, k=30))
            abstract = f"Study {i}: we propose a model of {said}, and the model works well."
            title = f"A model of {' '.join(rng.choices(words, k=3))} number {i}"
            out.write(json.dumps({"title": title, "abstract": abstract}) + "\n")
    library = Library(home)
    library.import_file(path)
    starred = [p.id for p in library.papers()][-3:]
    for pid in starred:
        library.set_status(pid, "starred")
    return starred
