"""Import a list from inside the app: a path prompt, then a progress bar for big lists."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, ProgressBar, Static

from storage.errors import LibraryError
from storage.library import Library
from storage.sources.registry import readable_formats
from storage.text.words import count
from tui.commands import bindings
from tui.memory import collector_paused
from tui.paths import typed_path
from tui.text import printable
from tui.widgets.path_input import PathInput


class ImportScreen(ModalScreen[str | None]):
    """Ask for a list file (or folder) and an optional catalog, then import with progress.

    Dismisses with a one-line summary of what was imported, or None when cancelled.
    """

    BINDINGS = bindings("import")

    def __init__(self, library: Library) -> None:
        super().__init__()
        self.library = library
        self.running = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = "Import a list"
            yield Label(f"A list file ({readable_formats()}) or a folder of them:")
            yield PathInput(str(Path.cwd()) + "/", id="import-path", select_on_focus=False)
            yield Label("Optionally, a catalog to fill titles, authors and links (↓ to go there):")
            yield PathInput(placeholder="catalog file (optional)", id="import-catalog")
            yield ProgressBar(total=None, show_eta=False, id="import-progress")
            yield Static(
                Text("Enter imports · Tab completes a path · Esc cancels", style="dim"),
                id="import-status",
                classes="note",
            )

    def on_mount(self) -> None:
        self.query_one("#import-progress").display = False
        self.query_one("#import-path", Input).focus()

    def action_other_field(self) -> None:
        """↓ / ↑: between the list's path and the catalog's."""
        path = self.query_one("#import-path", PathInput)
        (self.query_one("#import-catalog", PathInput) if path.has_focus else path).focus()

    @on(PathInput.Completions)
    def completions(self, event: PathInput.Completions) -> None:
        self._status("  ".join(printable(n) for n in event.names) or "Nothing matches.", "dim")

    @on(Input.Submitted)
    def start(self) -> None:
        """Enter, in either field: import."""
        if self.running:
            return
        path = self.query_one("#import-path", Input).value.strip()
        catalog = self.query_one("#import-catalog", Input).value.strip() or None
        if not path:
            self.query_one("#import-path", Input).focus()
            return
        self.running = True
        self.query_one("#import-progress").display = True
        self._status("Reading…")
        self.run_import(path, catalog)

    def _status(self, text: str, style: str = "") -> None:
        # An error quotes the path and what the file held: shown, never obeyed.
        self.query_one("#import-status", Static).update(Text(printable(text), style=style))

    @work(thread=True, exclusive=True, exit_on_error=False, description="import")
    def run_import(self, path: str, catalog: str | None) -> None:
        bar = self.query_one("#import-progress", ProgressBar)

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(bar.update, total=total, progress=done)
            self.app.call_from_thread(self._status, f"{done:,} / {count(total, 'paper')} cleaned")

        try:
            with collector_paused():  # a tenth of a large import (see tui.memory)
                report = self.library.import_files(
                    [typed_path(path)],
                    catalog=typed_path(catalog) if catalog else None,
                    progress=progress,
                )
        except (LibraryError, OSError) as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        summary = f"Imported {', '.join(report.lists)}: {report.summary()}"
        self.app.call_from_thread(self.dismiss, summary)

    def _failed(self, message: str) -> None:
        self.running = False
        self.query_one("#import-progress").display = False
        self._status(f"Not imported: {message}", style="bold red")
        self.query_one("#import-path", Input).focus()

    def action_cancel(self) -> None:
        if not self.running:
            self.dismiss(None)
