"""The Textual app: opens the library, keeps the live triage session, shows the main screen."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Collection
from dataclasses import replace
from importlib.resources import files
from pathlib import Path

from rich.console import RenderableType
from textual import events, messages, work
from textual.app import App, AutopilotCallbackType
from textual.driver import Driver
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.theme import Theme
from textual.timer import Timer

from storage.library import Library
from storage.locations import config_paths
from storage.models import Paper
from storage.text.sanitize import printable, printable_block
from tui.commands import COMMANDS, PaperCommands, bindings, key_named, keys_for, textual_keymap
from tui.config import load_config, pdf_folder
from tui.ending import EndingDeadline
from tui.key_gate import KeyGate, escape_then, sign_digit
from tui.memory import IdleCollector, kept_for_good, use_app_thresholds
from tui.messages import Persisted
from tui.screens.main import MainScreen
from tui.session import Outcome, TriageSession
from tui.signals import SignalEnding
from tui.stand_ins import stood_for
from tui.stray_keys import MOVING, StrayKeys
from tui.syncing import AppSync
from tui.text_fields import is_text_field
from tui.web import in_browser, offer_download
from tui.widgets.search_box import SearchBox

#: How long quitting waits for the last sync with the [sync] folder (one takes ~0.1 s): a
#: sync cut short is taken up again by the next one, as after a kill.
QUIT_SYNC_SECONDS = 0.6
#: How long the first run's welcome stays above the paper.
WELCOME_SECONDS = 45.0
#: Config problems said as notifications at start, at most (the last one saying how many
#: more there are): at 80x24 three fit; the help screen lists them all.
CONFIG_TOASTS = 3


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
    #: A screen under 20 rows is "-short": its dialogs drop their blank rows (app.tcss).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]
    #: A screen under 90 columns is "-cramped": D's five buttons go three to a row; under 60
    #: "-slim" too: dialogs and notifications take the screen's width (app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-slim"), (60, "-cramped"), (90, "-roomy")]

    def __init__(self, library: Library, *, import_sample: bool = True) -> None:
        super().__init__()
        self.library = library
        self.first_run = False
        # first run: no papers.json at all (a link to one that is missing, as on a drive not
        # mounted, is the user's library not here: said in on_mount, no sample put there)
        self.missing_links = library.missing_links()
        papers_path = library.papers_path
        if import_sample and not papers_path.exists() and not papers_path.is_symlink():
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
        library.queue_top = config.queue_top  # [queue] new = "top"
        self.session = TriageSession(library, self._persisted)
        self.main_screen = MainScreen(
            library, self.session, papers, version, self.keymap, pdf_folder(library.home, config),
            pdf_timeout=config.pdf_timeout,
        )  # fmt: skip
        self._quit_anyway = False
        #: A quit waits for an import being written (said once).
        self._quit_after_import = False

        #: Keys typed on after leaving a text field: held back, not run.
        def keys_of(ids: Collection[str]) -> set[str]:
            return {key for c in COMMANDS if c.id in ids for key in keys_for(c, self.keymap)}

        #: Keys of a burst, taken one after another (``tui/key_gate.py``); the quit key of
        #: every screen (ctrl+q) is never held behind a thread's work.
        self.key_gate = KeyGate(self, self._take_key, keys_of({"force_quit"}))

        self.stray_keys = StrayKeys(keys_of(MOVING))
        #: When the last key or click the app took was made (``event.time``): a text field
        #: left is left at that moment, the user's, not when the app got round to it.
        self._input_at = math.inf
        #: The main screen's keys that only move the cursor or switch tabs: they open nothing
        #: and move no focus, so the next key waits for them to be taken, not drawn.
        self.quick_keys = keys_of(MOVING - {"search"})
        self._stray_report: Timer | None = None
        #: The app is ending: input is no longer taken (see ``exit``).
        self.ending = False
        #: The app is the process (``papers``, not a test or a screenshot run inside
        #: another program): its threads must not keep it alive, its end is bounded.
        self.own_process = False
        #: What the ending signals do (``papers`` sets it: ``tui/signals.py``); the handlers
        #: are taken back from the event loop once the app runs (``on_mount``).
        self.signal_ending: SignalEnding | None = None
        #: Ends the process if the graceful end is late (started by ``run_async`` in its own
        #: process only).
        self.deadline = EndingDeadline(
            save=lambda: self.session.close(timeout=10.0), restore=self._restore_terminal
        )

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

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """End the app (``q``, a signal, the terminal gone): from now on keys and clicks
        still on their way change nothing, so the end does not wait behind them. The tab and
        the paper under the cursor are kept for the next start, whatever ended it. Asked
        again once Textual's end is under way (a second signal, a late thread's ``exit``),
        it asks only: the first kept them, and the screens' widgets are being taken down."""
        if self.is_running:  # (a signal's handler may have begun the ending already)
            self.main_screen.remember_place()
            self._keep_what_is_typed()
        self.begin_ending(return_code)
        super().exit(result, return_code, message)

    def on_exit_app(self, event: messages.ExitApp) -> None:
        """An ``ExitApp`` that did not come through ``exit``: the quit message of
        textual-serve (a browser tab closed or reloaded, ``papers serve`` stopped), which
        Textual's ``WebDriver`` posts as it is. It ends the app as ``exit`` does, keeping the
        place and a note being typed (both were lost; found by a hostile review of the web
        mode): its default handling (``App``'s) is prevented, and runs for the ``ExitApp``
        that ``exit`` posts. The keys typed before it that wait behind a key settling are
        taken first (``tui/key_gate.py``): a reload right after ``ssssss`` kept one star."""
        if not self.ending:
            event.prevent_default()
            if not self.key_gate.hold(event):
                self._exit_after_typing()

    def _exit_after_typing(self) -> None:
        """End the app for a browser tab's quit once the text field under the cursor has
        taken the characters sent before it: they wait in the field's own queue, which the
        gate does not hold, and a note typed then the tab closed at once was saved without
        them (or not at all)."""
        focused = self.focused
        if (
            focused is None
            or not is_text_field(focused)
            or not focused.call_later(self._exit_unless_ending)  # (the field gone meanwhile)
        ):
            self.exit()

    def _exit_unless_ending(self) -> None:
        if not self.ending:
            self.exit()

    def _keep_what_is_typed(self) -> None:
        """A note typed in an editor still open is saved as the app ends (``keep_typed``)."""
        for screen in self.screen_stack:
            keep = getattr(screen, "keep_typed", None)
            if callable(keep):
                keep()

    def begin_ending(self, code: int = 0) -> None:
        """Take no more input: the app is ending, to exit with ``code`` (called by ``exit``,
        and by a signal's handler at once, before the exit it asks for is reached). In a
        real terminal the process is then gone within a second (``tui/ending.py``)."""
        self.ending = True
        self.key_gate.drop()
        self.deadline.begin(code)

    def _restore_terminal(self) -> None:
        """The deadline's last step: the terminal as it was, without waiting on it."""
        from tui.terminal import TerminalDriver

        TerminalDriver.restore_active()

    def check_message_enabled(self, message: Message) -> bool:
        # Keys and clicks that arrive once the app is ending are not even queued.
        if self.ending and isinstance(message, (events.InputEvent, events.Paste)):
            return False
        return super().check_message_enabled(message)

    async def on_event(self, event: events.Event) -> None:
        if self.ending and isinstance(event, (events.InputEvent, events.Paste)):
            return  # (queued before the end began)
        if isinstance(event, events.InputEvent):
            self._idle_collector.touched()  # full passes wait until the user is still
            if isinstance(event, events.MouseDown) and not event.is_forwarded:
                self._input_at = event.time
        if isinstance(event, events.Key):
            event = stood_for(event)  # (the terminal's without the kitty protocol: alt+2…)
        if isinstance(event, events.Key | events.Paste) and not event.is_forwarded:
            if not self.key_gate.hold(event):
                await self._take_key(event)
            return
        await super().on_event(event)

    async def _take_key(self, event: events.Key | events.Paste | messages.ExitApp) -> None:
        """A key, given out in its turn (``tui/key_gate.py``): one that is not a character
        typed into a text field holds the next keys until it has settled. (A paste waits its
        turn as a key does, and holds nothing.)"""
        if isinstance(event, messages.ExitApp):  # the tab closed, after the keys before it
            if not self.ending:
                self._exit_after_typing()
            return
        if isinstance(event, events.Paste):
            if not self.ending:
                await super().on_event(event)
            return
        if self.ending:
            return
        self._input_at = event.time  # (taken in turn: the keys after it wait, ``key_gate``)
        if self._held_back(event):
            return
        focused = self.focused
        # Esc and a key typed at once: Esc first (leaves the search box, closes a dialog of no
        # field); in a dialog's field Esc would close it and throw away what was typed: it types
        typing = is_text_field(focused) and not isinstance(focused, SearchBox)
        # (but the search box's word keys, Alt+d…, act there: ``SearchBox.WORD_COMMANDS``)
        words = isinstance(focused, SearchBox) and focused.word_action(event.key) is not None
        if event.key == "alt+f" and is_text_field(focused) and not words:
            event = events.Key("ctrl+right", None)  # Esc f in another field, as Textual read it
        if event.key == "alt+backspace" and not words:
            event = events.Key("ctrl+w", None)  # ESC DEL out of the box, as Textual read it
        then = None if typing or words else escape_then(event)
        if typing and event.character is None and (digit := escape_then(event)) is not None:
            event = digit  # Esc and a digit at once (alt+3): the digit, as a letter's the letter
        # Esc and a digit read as one (alt+3), or the sign macOS's Option+3 types (``£``), on
        # the main screen out of the search box: the digit alone, the tab (Esc first cleared
        # the list's search filter); in a text field a sign is typed (a UK keyboard's ``£``)
        on_list = self.screen is self.main_screen and not is_text_field(focused)
        if then is not None and then.key.isdigit() and on_list:
            event, then = then, None
        elif on_list and (digit := sign_digit(event)) is not None:
            event = digit
        if then is not None:
            await self._take_key(events.Key("escape", "\x1b"))
            self.key_gate.first(then)
            return
        typed = is_text_field(focused) and event.is_printable
        quick = self.screen is self.main_screen and event.key in self.quick_keys
        if (before_key := getattr(self.screen, "before_key", None)) is not None:
            before_key(event)  # (the palette's Enter holds the keys after it for its command)
        await super().on_event(event)
        if not typed:
            self.key_gate.settle(focused or self.screen, frame=not quick)

    def _held_back(self, event: events.Key) -> bool:
        """Whether a key is the rest of a word typed after leaving a text field, not a
        command (``tui/stray_keys.py``); keys typed into a text field are noted."""
        focused = self.focused
        if is_text_field(focused):
            if event.is_printable:
                self.stray_keys.typed(event.time)
            return False
        if self.screen is not self.main_screen:
            return False
        if not self.stray_keys.hold(event.key, event.character, event.time):
            return False
        if self._stray_report is not None:
            self._stray_report.stop()
        self._stray_report = self.set_timer(self.stray_keys.gap, self._report_held_keys)
        return True

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        """A text field left by Esc, Enter, Tab, a click: at the time that key or click was
        made. The blur comes once the app has taken it, which on a busy app (a loaded machine,
        a long frame) was after the keys typed a deliberate second later had come: they were
        held back as the rest of a word."""
        if is_text_field(event.widget):
            self.stray_keys.typed(min(event.time, self._input_at))

    def watch_app_focus(self, focus: bool) -> None:
        """The app given the focus with no widget focused: the screen's first focus (the list
        on the main screen), as Textual gives it when a screen opens. A browser tab's app is
        blurred as it starts (Textual's ``WebDriver``), before the main screen focused the
        list: the page's focus, or the first key, had no widget to give it back to, and ``j``
        moved a cursor drawn as in a list without the focus until a click or Esc. (Textual's
        own watcher, which gives the focus back to the widget that had it, runs first.)"""
        if not focus or not self.screen_stack:
            return
        screen = self.screen
        first = screen.AUTO_FOCUS if screen.AUTO_FOCUS is not None else self.AUTO_FOCUS
        if screen.focused is not None or not first:
            return
        for widget in screen.query(first):
            if widget.focusable:
                screen.set_focus(widget, scroll_visible=False)
                return

    def _report_held_keys(self) -> None:
        self._stray_report = None
        held = self.stray_keys.take_held()
        if held:
            what = "that key again to use it" if len(held) == 1 else "those keys again to use them"
            self.notify(
                f"Held back “{held}”: typed right after leaving a text field, so not taken"
                f" as commands. Press {what}.",
                title="Not a command",
                severity="warning",
                timeout=6,
                markup=False,
            )

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, but in a terminal ours: its output never hangs the app, and a
        terminal that goes away ends it (``tui/terminal.py``). A driver named in
        ``TEXTUAL_DRIVER`` (the web mode's) is left as it is."""
        driver = super().get_driver_class()
        from textual.drivers.linux_driver import LinuxDriver

        if driver is LinuxDriver:
            from tui.terminal import TerminalDriver

            return TerminalDriver
        return driver

    async def run_async(
        self,
        *,
        headless: bool = False,
        inline: bool = False,
        inline_no_clear: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
        auto_pilot: AutopilotCallbackType | None = None,
    ) -> None:
        """Run the app; in its own process (``own_process``) with its thread workers on
        daemon threads (``tui/threads.py``: a search, an index or an import still running
        never keeps the process alive), and gone within a second once it is ending
        (``tui/ending.py``)."""
        if self.own_process:
            from tui.threads import DaemonThreads

            asyncio.get_running_loop().set_default_executor(DaemonThreads())
            self.deadline.start()
        return await super().run_async(
            headless=headless,
            inline=inline,
            inline_no_clear=inline_no_clear,
            mouse=mouse,
            size=size,
            auto_pilot=auto_pilot,
        )

    def get_default_screen(self) -> MainScreen:
        """The main screen is the first on the stack: no blank default screen painted first."""
        return self.main_screen

    def on_mount(self) -> None:
        if self.signal_ending is not None:  # (the driver has started: it may have taken them)
            self.signal_ending.reclaim()
        self._idle_collector.start(self)
        remembered = self.main_screen.ui.theme
        if remembered in self.available_themes:
            self.theme = remembered
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        if self.keymap:  # (with the keys of the dialogs whose opener moved: bound_keys)
            self.set_keymap(textual_keymap(self.keymap))
        problems = self.config_problems
        shown = problems if len(problems) <= CONFIG_TOASTS else problems[: CONFIG_TOASTS - 1]
        for problem in shown:
            self.notify(problem, title="Config", severity="warning", timeout=10, markup=False)
        if len(shown) < len(problems):  # the rest would push the first off the screen
            more = len(problems) - len(shown)
            self.notify(
                f"and {more} more problems in config.toml: the help ({self.key_of('help')}) "
                "lists them all",
                title="Config",
                severity="warning",
                timeout=10,
                markup=False,
            )
        for missing in self.missing_links:
            self.notify(missing, title="Library", severity="warning", timeout=30, markup=False)
        self.syncing.start()
        if self.first_run:  # in the pane, above the paper: a toast would cover its border
            self.main_screen.call_after_refresh(self._welcome)

    def _welcome(self) -> None:
        pane = self.main_screen.detail
        key = self.key_of
        pane.set_welcome(
            "Welcome to papers",
            "This is the bundled sample (38 ICLR 2025 papers). Import your own list with "
            f"`{key('import')}` here, or `papers import FILE` in a shell. {key('read')}, "
            f"{key('skip')}, {key('star')} decide; {key('help')} shows every key.",
        )
        self.set_timer(WELCOME_SECONDS, lambda: pane.set_welcome("", ""))

    def key_of(self, command_id: str) -> str:
        """A command's key as the app's words name it, after the user's remapping."""
        return key_named(command_id, self.keymap, web=self.is_web)

    def palette_extras(self) -> list[tuple[str, str, Callable[[], object]]]:
        """The app's own palette entries, after the commands of the screen."""
        return [
            ("Theme", "Change the theme (remembered)", self.action_change_theme),
            (
                "Screenshot",
                "Save an SVG screenshot in the current folder (in a browser: download it)",
                lambda: self.set_timer(0.1, self.screenshot_here),  # once the palette is gone
            ),
        ]

    def screenshot_here(self) -> None:
        """Save what the screen shows now as an SVG in the current folder, and say where (in
        a browser tab: offer it as a download)."""
        if in_browser(self):
            name = f"papers-{time.strftime('%Y%m%d-%H%M%S')}.svg"
            offer_download(self, self.export_screenshot(), name)
            self.notify(f"Sent {name} to your browser", title="Screenshot", markup=False)
            return
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
            screen.ui_writes.save(screen.ui)

    def action_command_palette(self) -> None:
        """ctrl+p: the command palette, ours (``tui.screens.palette``: dismissed once)."""
        from tui.screens.palette import Palette

        if self.use_command_palette and not isinstance(self.screen, Palette):
            self.push_screen(Palette(id="--command-palette"))

    async def action_quit(self) -> None:
        """Quit once every decision is on disk (the screen stays live while it waits), and
        once an import being written is written whole (ctrl+q goes through while the import
        dialog works: its fetch is stopped, its import not cut short between papers.json and
        triage.json)."""
        for screen in self.screen_stack:
            quit_now = getattr(screen, "quit_now", None)  # (the import dialog's)
            if quit_now is not None and not quit_now():
                if not self._quit_after_import:
                    self._quit_after_import = True
                    self.notify("Quitting once the import is written…", timeout=10, markup=False)
                # asked again shortly (not awaited here: the app's messages go on meanwhile)
                self.set_timer(0.05, lambda: self.run_action("quit"))
                return
        self.main_screen.remember_place()
        self._keep_what_is_typed()
        if self._quit_anyway or self.session.flush(timeout=0.5):
            saved = not self._quit_anyway
            self.session.close(timeout=1.0)
            self.syncing.close(QUIT_SYNC_SECONDS)
            self._exit_quit(saved=saved)
            return
        self.notify("Saving the last decisions…", timeout=5, markup=False)
        self._quit_when_saved()

    def _exit_quit(self, *, saved: bool) -> None:
        """End the app for ``q``; ``saved``: every decision is on disk, so a signal that
        arrives while the app is taken down (a ``kill`` sent on the way out) finds nothing to
        save, and the process exits 0 as the quit asked, not 143 (``SignalEnding.quit_saved``).
        A quit anyway (the disk not answering) saved nothing: a signal then still counts."""
        if saved and self.signal_ending is not None:
            self.signal_ending.quit_saved()
        self.exit()

    @work(thread=True, exclusive=True, group="quit", exit_on_error=False, description="quit")
    def _quit_when_saved(self) -> None:
        if self.session.flush(timeout=10.0):
            self.syncing.close(QUIT_SYNC_SECONDS)
            self.call_from_thread(self._exit_quit, saved=True)
            return
        self._quit_anyway = True
        self.call_from_thread(
            self.notify,
            "Decisions are still being saved (the disk has not answered for 10 s). "
            f"Press {self.key_of('quit')} again to quit anyway and lose them.",
            severity="error",
            timeout=15,
            markup=False,
        )
