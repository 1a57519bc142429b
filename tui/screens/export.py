"""Export from the app: the list shown or the marked papers, in any format, to a file (asking
before replacing one) or to the clipboard."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from storage.errors import LibraryError
from storage.export import EXPORTERS, export
from storage.export.destination import export_target, write_export
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.text.words import count
from tui import links
from tui.commands import bindings
from tui.paths import typed_path
from tui.text import printable
from tui.web import download_name, in_browser, offer_download
from tui.widgets.path_input import PathInput


@dataclass(frozen=True, slots=True)
class Choice:
    """Papers the user may export: what they are called, their heading, the papers."""

    label: str
    heading: str
    papers: Sequence[Paper]


class ExportScreen(ModalScreen[None]):
    """Pick the papers and the format; Enter writes the file, ctrl+y copies instead."""

    BINDINGS = bindings("export")

    def __init__(
        self, choices: Sequence[Choice], triage: TriageState, name: str, home: Path
    ) -> None:
        super().__init__()
        self.choices = list(choices)
        #: The library's folder: exports never write into it.
        self.home = home
        self.triage = triage
        #: The default file's stem ("papers-inbox"); its suffix follows the format.
        self.stem = name
        #: The file the user was warned exists (a second Enter replaces it).
        self.confirmed: Path | None = None

    def compose(self) -> ComposeResult:
        web = in_browser(self.app)  # in a browser tab, the file is a download
        with Vertical(classes="dialog") as box:
            box.border_title = "Export"
            box.border_subtitle = (
                f"Enter {'downloads' if web else 'writes'} · ctrl+y copies · Esc cancels"
            )
            if len(self.choices) > 1:
                with RadioSet(id="export-what"):
                    for i, choice in enumerate(self.choices):
                        yield RadioButton(Text(printable(choice.label)), value=i == 0)
            else:
                yield Label(Text(printable(self.choices[0].label)), id="export-what-one")
            with RadioSet(id="export-format", classes="inline"):
                for i, exporter in enumerate(EXPORTERS):
                    yield RadioButton(exporter.label, value=i == 0)
            yield Label("Download as:" if web else "Write to this file (Tab completes):")
            start = self._file_name() if web else str(Path.cwd() / self._file_name())
            yield PathInput(start, id="export-path")
            yield Static(id="export-note", classes="note")
            with Horizontal(classes="buttons"):
                label = "Download (Enter)" if web else "Write file (Enter)"
                yield Button(label, id="write", variant="primary")
                yield Button("Copy (ctrl+y)", id="copy")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        field = self.query_one("#export-path", PathInput)
        field.focus()
        field.cursor_position = len(field.value)

    # -- what the user picked ---------------------------------------------------------------
    @property
    def choice(self) -> Choice:
        found = self.query("#export-what")
        if not found:
            return self.choices[0]
        index = found.first(RadioSet).pressed_index
        return self.choices[max(0, index)]

    @property
    def exporter_index(self) -> int:
        return max(0, self.query_one("#export-format", RadioSet).pressed_index)

    def _file_name(self) -> str:
        index = self.exporter_index if self.is_mounted else 0
        return f"{self.stem}{EXPORTERS[index].suffix}"

    def _text(self) -> str:
        choice = self.choice
        name = EXPORTERS[self.exporter_index].name
        return export(choice.papers, self.triage, name, heading=choice.heading)

    def _say(self, text: str, style: str = "") -> None:
        self.query_one("#export-note", Static).update(Text(text, style=style))

    @on(RadioSet.Changed, "#export-format")
    def format_changed(self) -> None:
        """The file's suffix follows the format (when the name is still the default's)."""
        field = self.query_one("#export-path", PathInput)
        path = Path(field.value)
        if path.stem == self.stem:
            field.value = str(path.with_name(self._file_name()))
        self.confirmed = None

    @on(Input.Changed, "#export-path")
    def path_changed(self) -> None:
        self.confirmed = None
        self._say("")

    @on(PathInput.Completions)
    def completions(self, event: PathInput.Completions) -> None:
        self._say("  ".join(printable(n) for n in event.names) or "Nothing matches.", "dim")

    # -- doing it ---------------------------------------------------------------------------
    @on(Input.Submitted, "#export-path")
    def action_write(self) -> None:
        """Write the file; an existing one only after a second Enter."""
        field = self.query_one("#export-path", PathInput)
        if in_browser(self.app):
            self._download(download_name(field.value, self._file_name()))
            return
        try:
            where = export_target(typed_path(field.value), self._file_name(), self.home)
            if where.exists and where.path != self.confirmed:
                self.confirmed = where.path
                self._say(f"{printable(str(where.path))} exists: Enter again replaces it.", "bold")
                return
            written = write_export(
                where.path, self._text(), self._file_name(), home=self.home, replace=True
            )
        except LibraryError as exc:
            self._say(f"Not written: {printable(str(exc))}", "bold red")
            return
        papers = self.choice.papers
        self.app.notify(
            f"Wrote {count(len(papers), 'paper')} to {written}",
            title="Exported",
            timeout=6,
            markup=False,
        )
        self.dismiss(None)

    def _download(self, name: str) -> None:
        """Offer the export to the browser as a download called ``name``."""
        offer_download(self.app, self._text(), name)
        papers = self.choice.papers
        self.app.notify(
            f"Sent {count(len(papers), 'paper')} to your browser as {name}",
            title="Exported",
            timeout=6,
            markup=False,
        )
        self.dismiss(None)

    def action_copy(self) -> None:
        """Copy the export to the clipboard instead of writing a file."""
        papers = self.choice.papers
        label = EXPORTERS[self.exporter_index].label
        links.copy_text(self.app, self._text(), f"{count(len(papers), 'paper')} as {label}")
        self.dismiss(None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "write":
            self.action_write()
        elif event.button.id == "copy":
            self.action_copy()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
