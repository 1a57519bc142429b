"""The Textual app: opens the library, keeps the live triage session, shows the main screen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from importlib.resources import files
from pathlib import Path

from textual import events, work
from textual.app import App
from textual.notifications import SeverityLevel
from textual.theme import Theme

from storage.files.ui_state import save_ui_state
from storage.library import Library
from storage.locations import config_paths
from storage.models import Paper
from storage.text.sanitize import printable, printable_block
from tui.commands import PaperCommands, bindings
from tui.config import load_config
from tui.memory import IdleCollector, kept_for_good, use_app_thresholds
from tui.messages import Persisted
from tui.screens.main import MainScreen
from tui.session import Outcome, TriageSession
from tui.syncing import AppSync


def sample_files() -> list[Path]:
    """The bundled sample lists (the two seed lists), shipped inside the package."""
    folder = files("storage").joinpath("sample")
    return sorted(Path(str(p)) for p in folder.iterdir() if p.name.endswith(".txt"))


class PapersApp(App[None]):
    """papers-tui: triage a conference's papers from the keyboard."""

    TITLE = "papers"
    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = True
    #: One palette provider, so that the app's commands come first (see PaperCommands).
    COMMANDS = {PaperCommands}
    BINDINGS = bindings("app")

    def __init__(self, library: Library, *, import_sample: bool = True) -> None:
        super().__init__()
        self.library = library
        self.first_run = False
        if import_sample and not library.papers_path.exists():
            library.import_files(sample_files())
            self.first_run = True
        # The papers live as long as the app: loaded without collector passes and frozen out
        # of later ones (a full pass over 12,000 papers is a visible pause in a keystroke).
        with kept_for_good():
            papers, version = library.versioned_papers()
        use_app_thresholds()  # the collector's policy: tui/memory.py
        self._idle_collector = IdleCollector()
        config = load_config(config_paths(library.home))
        self.keymap: dict[str, str] = config.keymap
        self.config_problems = config.problems
        #: The [sync] folder's sync: on start, after decisions, on quit (tui/syncing.py).
        self.syncing = AppSync.for_app(self, library.home, config)
        self.session = TriageSession(library, self._persisted)
        self.main_screen = MainScreen(library, self.session, papers, version, self.keymap)
        self._quit_anyway = False

    @property
    def papers(self) -> list[Paper]:
        """The papers the app shows, in list order."""
        return self.main_screen.view.papers

    def _persisted(self, outcome: Outcome) -> None:
        """Called on the writer thread: hand the outcome to the main screen."""
        self.main_screen.post_message(Persisted(outcome))

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notification of every screen: what came from a file in it shows, never acts
        (an imported list's name, a path, an error quoting a record)."""
        super().notify(
            printable_block(message),
            title=printable(title),
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            self._idle_collector.touched()  # full passes wait until the user is still
        await super().on_event(event)

    def get_default_screen(self) -> MainScreen:
        """The main screen is the first on the stack: no blank default screen painted first."""
        return self.main_screen

    def on_mount(self) -> None:
        self._idle_collector.start(self)
        remembered = self.main_screen.ui.theme
        if remembered in self.available_themes:
            self.theme = remembered
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        if self.keymap:
            self.set_keymap(self.keymap)
        for problem in self.config_problems:
            self.notify(problem, title="Config", severity="warning", timeout=10, markup=False)
        self.syncing.start()
        if self.first_run:
            self.notify(
                "This is the bundled sample (38 ICLR 2025 papers). Import your own list with "
                "`a` here, or `papers import FILE` in a shell.",
                title="Welcome to papers",
                timeout=12,
                markup=False,
            )

    def palette_extras(self) -> list[tuple[str, str, Callable[[], object]]]:
        """The app's own palette entries, after the commands of the screen."""
        return [
            ("Theme", "Change the theme (remembered)", self.action_change_theme),
            (
                "Screenshot",
                "Save an SVG screenshot in the current folder",
                lambda: self.set_timer(0.1, self.screenshot_here),  # once the palette is gone
            ),
        ]

    def screenshot_here(self) -> None:
        """Save what the screen shows now as an SVG in the current folder, and say where."""
        try:
            path = self.save_screenshot(path=str(Path.cwd()))
        except OSError as exc:
            self.notify(f"No screenshot: {exc.strerror or exc}", severity="error", markup=False)
            return
        self.notify(f"Saved {path}", title="Screenshot", timeout=6, markup=False)

    def _remember_theme(self, theme: Theme) -> None:
        """The theme chosen in the palette is the one the app opens with next time."""
        screen = self.main_screen
        if theme.name != screen.ui.theme:
            screen.ui = replace(screen.ui, theme=theme.name)
            save_ui_state(self.library.home, screen.ui)

    async def action_quit(self) -> None:
        """Quit once every decision is on disk (the screen stays live while it waits)."""
        if self._quit_anyway or self.session.flush(timeout=0.5):
            self.session.close(timeout=1.0)
            self.syncing.close()
            self.exit()
            return
        self.notify("Saving the last decisions…", timeout=5, markup=False)
        self._quit_when_saved()

    @work(thread=True, exclusive=True, group="quit", exit_on_error=False, description="quit")
    def _quit_when_saved(self) -> None:
        if self.session.flush(timeout=10.0):
            self.syncing.close()
            self.call_from_thread(self.exit)
            return
        self._quit_anyway = True
        self.call_from_thread(
            self.notify,
            "Decisions are still being saved (the disk has not answered for 10 s). "
            "Press q again to quit anyway and lose them.",
            severity="error",
            timeout=15,
            markup=False,
        )
