"""Export from the app: the list shown or the marked papers, in any format, to a file (asking
before replacing one) or to the clipboard."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from storage.errors import LibraryError
from storage.export import EXPORTERS, export_pieces
from storage.export.destination import export_target, write_export
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.text.words import count
from tui import links
from tui.commands import COMMANDS, bindings, key_label, keys_for
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


def format_keys(keymap: Mapping[str, str]) -> dict[str, str]:
    """The key that chooses each export format in the dialog (by exporter name), from the
    command table and the user's remapping."""
    found: dict[str, str] = {}
    for command in COMMANDS:
        if command.scope == "export" and command.action.startswith("choose_format("):
            name = command.action.split("'")[1]
            keys = keys_for(command, keymap)
            if keys:
                found[name] = key_label(keys[0])
    return found


class FormatChoice(Static, can_focus=True):
    """The export formats on as few lines as the width allows, never cut: each with its key,
    the chosen one marked (●) and highlighted; a click chooses one."""

    DEFAULT_CSS = """
    FormatChoice {
        height: auto;
        padding: 0 1;
        background: $boost;
    }
    FormatChoice:focus {
        background-tint: $foreground 8%;
    }
    """

    class Chosen(Message):
        """A format was chosen (by key, arrow or click)."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, keys: Mapping[str, str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keys = dict(keys)
        self.index = 0
        #: Where each format is drawn: (line, first column, end column, index).
        self._spans: list[tuple[int, int, int, int]] = []

    def _item(self, i: int) -> Text:
        exporter = EXPORTERS[i]
        chosen = i == self.index
        item = Text("● " if chosen else "○ ", style="bold" if chosen else "dim")
        key = self.keys.get(exporter.name)
        if key:
            item.append(key, style="bold underline")
            item.append(" ")
        item.append(exporter.label, style="bold reverse" if chosen else "")
        return item

    def render(self) -> Text:
        width = max(1, self.content_region.width or self.size.width or 80)
        text = Text()
        self._spans = []
        line, column = 0, 0
        for i in range(len(EXPORTERS)):
            item = self._item(i)
            gap = 3 if column else 0
            if column and column + gap + item.cell_len > width:
                text.append("\n")
                line, column, gap = line + 1, 0, 0
            text.append(" " * gap)
            self._spans.append((line, column + gap, column + gap + item.cell_len, i))
            text.append_text(item)
            column += gap + item.cell_len
        return text

    def choose(self, index: int) -> None:
        index %= len(EXPORTERS)
        if index != self.index:
            self.index = index
            self.refresh(layout=True)
            self.post_message(self.Chosen(index))

    def on_click(self, event: events.Click) -> None:
        for line, start, end, index in self._spans:
            if event.y == line and start <= event.x - 1 < end:  # (1: the padding)
                self.choose(index)


class ExportScreen(ModalScreen[None]):
    """Pick the papers and the format (one key each, or ← →); Enter writes the file from
    anywhere in the dialog, ctrl+y copies instead. The focus starts on the formats, so that
    their keys work at once; Tab (or ↓) goes to the file's path, where every key types."""

    BINDINGS = bindings("export")

    def __init__(
        self,
        choices: Sequence[Choice],
        triage: TriageState,
        name: str,
        home: Path,
        keymap: Mapping[str, str] | None = None,
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
        self.keys = format_keys(keymap or {})

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
            yield Label("Format (its key, or ← →):", classes="field-label")
            yield FormatChoice(self.keys, id="export-format")
            yield Static(self._format_words(), id="export-format-words", classes="note")
            if web:
                yield Label("Download as (Tab or ↓ goes there):")
                yield PathInput(self._file_name(), id="export-path")
            else:
                yield Label("File (Tab or ↓ goes there, where Tab completes):")
                yield PathInput(str(Path.cwd() / self._file_name()), id="export-path")
            yield Static(id="export-note", classes="note")
            with Horizontal(classes="buttons"):
                for label, button_id, variant in (
                    ("Download (Enter)" if web else "Write (Enter)", "write", "primary"),
                    ("Copy (ctrl+y)", "copy", "default"),
                    ("Cancel (Esc)", "cancel", "default"),
                ):
                    button = Button(label, id=button_id, variant=variant)  # type: ignore[arg-type]
                    button.can_focus = False  # the keys say it all: Enter is always "write"
                    yield button

    def on_mount(self) -> None:
        self.query_one("#export-format", FormatChoice).focus()
        field = self.query_one("#export-path", PathInput)
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
        if not self.is_mounted:
            return 0
        return self.query_one("#export-format", FormatChoice).index

    def _file_name(self) -> str:
        return f"{self.stem}{EXPORTERS[self.exporter_index].suffix}"

    def _format_words(self) -> Text:
        """The chosen format, in words: its name, its file's suffix, what it holds."""
        exporter = EXPORTERS[self.exporter_index]
        words = Text("Format: ", style="dim")
        words.append(exporter.label, style="bold")
        words.append(f" ({exporter.suffix}): {exporter.description}", style="dim")
        return words

    def _text(self) -> str:
        return "".join(self._pieces())

    def _pieces(self) -> Iterator[str]:
        """The export in pieces, for a file (``export_pieces``)."""
        choice = self.choice
        name = EXPORTERS[self.exporter_index].name
        return export_pieces(choice.papers, self.triage, name, heading=choice.heading)

    def _say(self, text: str, style: str = "") -> None:
        self.query_one("#export-note", Static).update(Text(text, style=style))

    def action_choose_format(self, name: str) -> None:
        """A format's key (m, c, j, b, l, r): that format."""
        index = next((i for i, e in enumerate(EXPORTERS) if e.name == name), None)
        if index is not None:
            self.query_one("#export-format", FormatChoice).choose(index)

    def action_step_format(self, step: int) -> None:
        """← →: the previous or next format."""
        formats = self.query_one("#export-format", FormatChoice)
        formats.choose(formats.index + step)

    def action_other_field(self) -> None:
        """↓ / ↑: between the formats and the file's path."""
        path = self.query_one("#export-path", PathInput)
        (self.query_one("#export-format", FormatChoice) if path.has_focus else path).focus()

    @on(FormatChoice.Chosen)
    def format_changed(self) -> None:
        """The words say the format; the file's suffix follows it (when the name is still
        the default's)."""
        self.query_one("#export-format-words", Static).update(self._format_words())
        field = self.query_one("#export-path", PathInput)
        path = Path(field.value)
        if path.stem == self.stem or path.name.startswith(f"{self.stem}."):
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
                where.path, self._pieces(), self._file_name(), home=self.home, replace=True
            )
        except LibraryError as exc:
            self._say(f"Not written: {printable(str(exc))}", "bold red")
            return
        papers = self.choice.papers
        label = EXPORTERS[self.exporter_index].label
        self.app.notify(
            f"Wrote {count(len(papers), 'paper')} as {label} to {written}",
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
