"""Export from the app: the list shown or the marked papers, in any format, to a file (asking
before replacing one) or to the clipboard.

A file of many papers is written by a thread while the app answers (the BibTeX of 100,000
papers takes 25 s here); Esc stops it, and the file is then as it was (it is replaced whole,
or not at all: ``storage.export.destination``). Meanwhile the form takes no key but Esc: the
keys typed wait for the dialog to close, then act on the list (``expect_screen``); should the
file not be written, the form is back and those keys are dropped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Final

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from storage.errors import LibraryError
from storage.export import EXPORTERS, export_pieces
from storage.export.destination import ExportTarget, export_target, write_export
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.text.words import count
from tui import links
from tui.commands import (
    BY_ID,
    COMMANDS,
    bindings,
    button_label,
    closing_words,
    key_label,
    key_named,
    keys_for,
    own_key_free,
)
from tui.key_gate import expect_screen, screen_arrived, screen_stays
from tui.paths import typed_path, unsure_name
from tui.text import printable
from tui.text_fields import after_typed
from tui.web import download_name, in_browser, offer_download
from tui.widgets.fitting import DialogBox, Shrinking, fit_after_refresh, fit_dialog
from tui.widgets.path_input import PathInput

#: Papers a file is written for while the dialog waits (a few tenths of a second at most, in
#: any format); more are written by a thread (``ExportScreen.write_in_thread``).
WRITE_AT_ONCE: Final = 2_000


class ExportStopped(Exception):
    """Esc while a thread wrote the file: it was left as it was."""


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

    def __init__(
        self,
        keys: Mapping[str, str],
        *,
        on_chosen: Callable[[int], None],
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.keys = dict(keys)
        #: Told of a format chosen (by key, arrow or click) as it is chosen. (Posted as a
        #: message, it came after the Enter typed with the key: ``e b`` Enter wrote BibTeX
        #: into papers-inbox.md, the file's suffix not yet following the format.)
        self._on_chosen = on_chosen
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
            self._on_chosen(index)

    def on_click(self, event: events.Click) -> None:
        for line, start, end, index in self._spans:
            if event.y == line and start <= event.x - 1 < end:  # (1: the padding)
                self.choose(index)


class ExportScreen(ModalScreen[None]):
    """Pick the papers and the format (one key each, or ← →); Enter writes the file from
    anywhere in the dialog, ctrl+y copies instead. The focus starts on the formats, so that
    their keys work at once; Tab (or ↓) goes to the file's path, where every key types."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "export"
    BINDINGS = bindings(KEYS)

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
        #: The path's field as the last Enter read it: its change, come after (keys typed in
        #: a burst before Enter: ``tui.text_fields``), leaves what that Enter said alone.
        self.entered: str | None = None
        self.keys = format_keys(keymap or {})
        self.keymap = dict(keymap or {})
        #: A thread is writing the file (``write_in_thread``); Esc sets ``stop``.
        self.writing = False
        self.stop = threading.Event()

    def _key(self, command_id: str) -> str:
        """A key of the dialog as its words name it, after the user's remapping."""
        return key_named(command_id, self.keymap, web=self.app.is_web)

    def _cancel_words(self, verb: str = "cancel") -> str:
        """``Esc cancels``: every key that does, as the footer names them (not the first)."""
        return closing_words(self.KEYS, self.keymap, web=self.app.is_web, verb=verb)

    def compose(self) -> ComposeResult:
        web = in_browser(self.app)  # in a browser tab, the file is a download
        with DialogBox(classes="dialog") as box:
            box.border_title = "Export"
            write, copy, cancels = (
                self._key("export_write"),
                self._key("export_copy"),
                self._cancel_words(),
            )
            writes = "downloads" if web else "writes"
            box.say_keys(
                f"{write} {writes} · {copy} copies · {cancels}",
                f"{write} {writes} · {cancels}",
                cancels,
            )
            # what is exported, and what the format holds, scroll on a short screen: the
            # formats, the file's field and the result line keep their rows (``fit_dialog``)
            with Shrinking(id="export-about"):
                if len(self.choices) > 1:
                    with RadioSet(id="export-what"):
                        for i, choice in enumerate(self.choices):
                            yield RadioButton(Text(printable(choice.label)), value=i == 0)
                else:
                    yield Label(Text(printable(self.choices[0].label)), id="export-what-one")
                back, on = map(self._key, ("export_previous_format", "export_next_format"))
                words = f"Format (its key, or {back} {on}):"  # Text: a key may be "["
                yield Label(Text(words), classes="field-label")
            yield FormatChoice(
                self.keys, on_chosen=lambda _: self.format_changed(), id="export-format"
            )
            with Shrinking(id="export-format-about"):
                yield Static(self._format_words(), id="export-format-words", classes="note")
                there = f"{self._key('export_field')} goes there"
                if own_key_free("tab", "export", self.keymap):  # Textual's, unless taken
                    there = f"Tab or {there}"
                if web:
                    yield Label(Text(f"Download as ({there}):"))
                else:
                    complete = self._key("path_complete")
                    yield Label(Text(f"File ({there}, where {complete} completes):"))
            if web:
                yield PathInput(self._file_name(), id="export-path")
            else:
                yield PathInput(str(Path.cwd() / self._file_name()), id="export-path")
            yield Static(id="export-note", classes="note")
            with Horizontal(id="export-buttons", classes="buttons"):
                keymap = getattr(self.app, "keymap", {})
                write = button_label("export_write", keymap, title="Download" if web else "")
                for label, button_id, variant in (
                    (write, "write", "primary"),
                    (button_label("export_copy", keymap, web=web), "copy", "default"),
                    (button_label("export_cancel", keymap), "cancel", "default"),
                ):
                    button = Button(label, id=button_id, variant=variant)  # type: ignore[arg-type]
                    button.can_focus = False  # the keys say it all: Enter is always "write"
                    yield button

    def on_mount(self) -> None:
        self.query_one("#export-format", FormatChoice).focus()
        field = self.query_one("#export-path", PathInput)
        field.cursor_position = len(field.value)
        fit_after_refresh(self, self._fit)

    def on_resize(self) -> None:
        fit_after_refresh(self, self._fit)

    def on_unmount(self) -> None:
        """The dialog gone while a thread writes (the app quit: ctrl+q goes through while it
        writes) stops the writing, as Esc does: the file is left as it was."""
        self.stop.set()

    def _fit(self) -> None:
        """The formats, the file's field and the result line whole; the words around them
        (what the format holds first) give up their rows."""
        parts = [(self.query_one("#export-about"), 0), (self.query_one("#export-format-about"), 0)]
        fit_dialog(self.query_one(".dialog"), parts)

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
        fit_after_refresh(self, self._fit)  # a longer line: the words give up their rows

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

    def format_changed(self) -> None:
        """The words say the format; the file's suffix follows it (when the name is still
        the default's)."""
        self.query_one("#export-format-words", Static).update(self._format_words())
        fit_after_refresh(self, self._fit)
        field = self.query_one("#export-path", PathInput)
        path = Path(field.value)
        if path.stem == self.stem or path.name.startswith(f"{self.stem}."):
            field.value = str(path.with_name(self._file_name()))
        self.confirmed = None

    @on(Input.Changed, "#export-path")
    def path_changed(self, event: Input.Changed) -> None:
        if event.value != event.input.value or event.value == self.entered:
            return  # a change already followed by another, or the one the last Enter read
        self.entered = self.confirmed = None
        self._say("")

    @on(PathInput.Completions)
    def completions(self, event: PathInput.Completions) -> None:
        self._say("  ".join(printable(n) for n in event.names) or "Nothing matches.", "dim")

    # -- doing it ---------------------------------------------------------------------------
    def action_write(self) -> None:
        """Write the file; an existing one only after a second Enter. Its path as the field
        holds it once it has taken the keys typed before Enter (``tui.text_fields``)."""
        after_typed(self, self._write)

    @on(Input.Submitted, "#export-path")
    def _write(self) -> None:
        if self.writing:
            return
        field = self.query_one("#export-path", PathInput)
        self.entered = field.value
        if in_browser(self.app):
            self._download(download_name(field.value, self._file_name()))
            return
        try:
            path = typed_path(field.value)
            unsure = unsure_name(path)  # (a file named otherwise than shown was written)
            if unsure:
                raise LibraryError(unsure)
            where = export_target(path, self._file_name(), self.home)
            if where.exists and where.path != self.confirmed:
                self.confirmed = where.path
                again = f"{self._key('export_write')} again replaces it"
                self._say(f"{printable(str(where.path))} exists: {again}.", "bold")
                return
            papers = len(self.choice.papers)
            label = EXPORTERS[self.exporter_index].label
            if papers > WRITE_AT_ONCE:
                self._writing(True)
                self.stop.clear()
                # the keys typed meanwhile are for the list (Esc, at once, for the dialog)
                cancel = keys_for(BY_ID["export_cancel"], self.keymap)
                expect_screen(self.app, wait=None, passing=cancel)
                stops = self._cancel_words("stop")
                self._say(f"Writing {count(papers, 'paper')} as {label}… {stops}.", "bold")
                self.write_in_thread(where, self._pieces(), self._file_name(), papers, label)
                return
            written = write_export(
                where.path, self._pieces(), self._file_name(), home=self.home, replace=True
            )
        except LibraryError as exc:
            self._failed(str(exc))
            return
        self._written(written, papers, label)

    @work(thread=True, exclusive=True, exit_on_error=False, description="export")
    def write_in_thread(
        self, where: ExportTarget, pieces: Iterable[str], default_name: str, papers: int, label: str
    ) -> None:
        """``write_export`` of many papers, the app answering meanwhile; Esc (``stop``) ends
        it between two pieces, the file left as it was."""

        def until_stopped() -> Iterator[str]:
            for piece in pieces:
                if self.stop.is_set():
                    raise ExportStopped
                yield piece
            if self.stop.is_set():  # before the file takes the place of the old one
                raise ExportStopped

        try:
            written = write_export(
                where.path, until_stopped(), default_name, home=self.home, replace=True
            )
        except ExportStopped:
            self.app.call_from_thread(self._stopped, where)
        except LibraryError as exc:
            self.app.call_from_thread(self._failed, str(exc))
        except Exception as exc:  # a bug: said in the dialog, which stays usable (Esc closes it)
            self.app.call_from_thread(self._failed, f"internal error: {type(exc).__name__}: {exc}")
        else:
            self.app.call_from_thread(self._written, written, papers, label)

    def _writing(self, writing: bool) -> None:
        """While a thread writes the file, what it was asked for cannot change: the form is
        disabled and only Esc acts (``check_action``)."""
        self.writing = writing
        if writing:  # (else the focus, moved on as each is disabled, left the path's field:
            self.set_focus(None)  # a text field left, after which letters are held back)
        for widget in self.query("#export-what, #export-format, #export-path, Button"):
            widget.disabled = writing and widget.id != "cancel"
        if not writing:
            self.query_one("#export-format", FormatChoice).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not self.writing or action == "cancel"

    def _written(self, path: Path, papers: int, label: str) -> None:
        self.writing = False
        self.app.notify(
            f"Wrote {count(papers, 'paper')} as {label} to {path}",
            title="Exported",
            timeout=6,
            markup=False,
        )
        self._close()

    def _close(self) -> None:
        """Back to the list, where the keys typed while a thread wrote now act."""
        self.dismiss(None)
        screen_arrived(self.app)

    def _failed(self, message: str) -> None:
        if self.writing:
            self._writing(False)
            dropped = screen_stays(self.app)
            if dropped:
                message += f"; {count(dropped, 'key')} typed meanwhile, for the list, not used"
        self._say(f"Not written: {printable(message)}", "bold red")

    def _stopped(self, where: ExportTarget) -> None:
        self.writing = False
        kept = f"{where.path} was left as it was" if where.exists else "nothing was written"
        self.app.notify(f"The export was stopped; {kept}.", timeout=6, markup=False)
        self._close()

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
        if self.writing:
            return
        papers = self.choice.papers
        label = EXPORTERS[self.exporter_index].label
        instead = f"{self._key('export')}, then {self._key('export_write')}, writes it to a file"
        what = f"{count(len(papers), 'paper')} as {label}"
        links.copy_text(self.app, self._text(), what, instead=instead)
        self.dismiss(None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "write":
            self.action_write()
        elif event.button.id == "copy":
            self.action_copy()
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        """Esc: close the dialog; while a thread writes the file, stop it first (the dialog
        closes once it has stopped, the file as it was)."""
        if not self.writing:
            self.dismiss(None)
        elif not self.stop.is_set():
            self.stop.set()
            self._say("Stopping…", "bold")
