"""Small modal dialogs: a one-line prompt, the note editor, the bulk-decision confirmation."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

from storage.caps import note_problem
from storage.models import Paper, Status
from storage.text.words import count
from tui.commands import bindings, button_label, closing_named, closing_words, key_named
from tui.screens.keys_first import DialogKeysFirst
from tui.text import editable_block, printable
from tui.text_fields import after_typed
from tui.widgets.fitting import DialogBox, Hint, Shrinking, fit_after_refresh, fit_dialog


class TextPrompt(ModalScreen[str | None]):
    """Ask for one line of text (a path, tags); Enter accepts, Esc cancels."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "prompt"
    BINDINGS = bindings(KEYS)

    def __init__(
        self, title: str, question: str, value: str = "", *, replace: bool = False
    ) -> None:
        super().__init__()
        self.prompt_title = title
        self.question = question
        self.value = value
        #: The value is a suggestion, selected: what is typed replaces it (a search's name),
        #: rather than goes on from it (tags).
        self.replace = replace
        #: The value as the field shows it: what came from a file (a tag) shows, never acts.
        self.shown_value = printable(value)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = Text(printable(self.prompt_title))  # Text: no markup in it
            with Shrinking(id="prompt-question"):
                yield Static(Text(printable(self.question)), classes="note")
            yield Input(self.shown_value, id="prompt-input", select_on_focus=self.replace)
            keymap, web = getattr(self.app, "keymap", {}), self.app.is_web
            accept = key_named("prompt_accept", keymap, web=web)
            cancel = closing_named(self.KEYS, keymap, web=web)  # every key, as the footer
            cancels = closing_words(self.KEYS, keymap, web=web, verb="cancel")
            yield Hint(f"{accept} to accept · {cancel} to cancel", f"{accept} accepts · {cancels}")

    def on_mount(self) -> None:
        fit_after_refresh(self, self._fit)

    def on_resize(self) -> None:
        fit_after_refresh(self, self._fit)

    def _fit(self) -> None:
        """The field whole; the question above it scrolls on a short screen."""
        fit_dialog(self.query_one(".dialog"), [(self.query_one("#prompt-question"), 0)])

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self._accept(event.value)

    def action_accept(self) -> None:
        """Enter: what the field holds, once it has taken the keys typed before Enter
        (``tui.text_fields``). Bound with priority, so that the prompt closes as Enter is
        taken: through the field's ``Submitted`` message it closed after the keys typed
        behind Enter had gone to the field (``t mytag`` Enter ``j`` lost the ``j``)."""
        field = self.query_one("#prompt-input", Input)
        after_typed(self, lambda: self._accept(field.value))

    def _accept(self, shown: str) -> None:
        # Accepted as shown: the value as it was (not its visible stand-ins).
        value = self.value if shown == self.shown_value else shown
        self.dismiss(value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


#: A screen with fewer rows than this gives the note editor's text area every row it can.
SHORT_ROWS = 18


class NoteEditor(ModalScreen[str | None]):
    """Edit the note of a paper; ctrl+s saves, Esc cancels (twice when something was typed:
    the first says what a second throws away). Its words name those keys as remapped."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "note"
    BINDINGS = bindings(KEYS)

    def __init__(
        self,
        paper: Paper,
        note: str,
        keep: Callable[[str], object] | None = None,
        draft: str | None = None,
    ) -> None:
        super().__init__()
        self.paper = paper
        self.note = note
        #: What the text area starts with instead of the note: a note typed before that the
        #: disk refused (a changed note, for Esc and for ``keep_typed``).
        self.draft = draft
        #: Saves a note as ctrl+s's caller would (``keep_typed``, the app ending).
        self._keep = keep
        self.kept = False
        #: The note as the editor shows it: control characters (an imported note's) visible,
        #: its lines and tabs as they are (``editable_block``).
        self.shown_note = editable_block(note)
        #: Esc was pressed once on a changed note: the next one throws the changes away.
        self.warned = False

    def compose(self) -> ComposeResult:
        with DialogBox(classes="dialog dialog-tall note-dialog") as box:
            box.border_title = "Note"
            yield Label(Text(printable(self.paper.display_title), style="bold"), classes="title")
            text = self.shown_note if self.draft is None else self.draft
            yield TextArea(text, id="note-text", soft_wrap=True, show_line_numbers=False)
            yield Hint(*self._usual(), classes="hint")

    def _key(self, command_id: str) -> str:
        """A key of the editor as its words name it, after the user's remapping."""
        return key_named(command_id, getattr(self.app, "keymap", {}), web=self.app.is_web)

    def _cancel(self, last: str = ", ") -> str:
        """Every key that cancels, as the footer names them (it named the first alone), the
        last after ``last`` (``closing_named``)."""
        keymap = getattr(self.app, "keymap", {})
        return closing_named(self.KEYS, keymap, web=self.app.is_web, last=last)

    def _usual(self) -> tuple[str, str, str]:
        """The editor's keys, in words for each width (``Hint``): at 60 and 70 columns the
        line wrapped."""
        save, cancel = self._key("note_save"), self._cancel()
        cancels = closing_words(
            self.KEYS, getattr(self.app, "keymap", {}), web=self.app.is_web, verb="cancel"
        )
        return (
            f"{save} to save · {cancel} to cancel · an empty note is removed",
            f"{save} saves · {cancels}\nAn empty note is removed.",
            f"{save} saves · {cancels}",
        )

    def _unsaved(self) -> tuple[str, str, str]:
        """What a first Esc on a changed note says, in words for each width."""
        save, cancel = self._key("note_save"), self._cancel(" or ")
        return (
            f"Not saved: {cancel} again throws away what you typed · {save} saves",
            f"Not saved: {cancel} again throws it away · {save} saves",
            f"{cancel} again throws it away · {save} saves",
        )

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """On a short screen (40x12) the text area had no row left under the title's lines,
        the margins and the hint: the whole height, the title on one line, the hint in the
        border."""
        short = self.app.size.height < SHORT_ROWS
        self.set_class(short, "-short")
        box = self.query_one(".note-dialog", DialogBox)
        if not short:
            box.say_keys()
        elif self.warned:
            box.say_keys(*self._unsaved())
        else:
            box.say_keys(self._usual()[-1])

    def action_save(self) -> None:
        text = self.query_one(TextArea).text
        note = self.note if text == self.shown_note else text  # unedited: as it was
        problem = note_problem(note.strip())
        if problem:  # refused where it was typed: the text stays, to be cut down
            self.notify(f"{problem}: not saved", severity="error", markup=False)
            return
        self.dismiss(note)

    def keep_typed(self) -> None:
        """The app is ending with the editor open (the terminal closed, a kill, ctrl+q): a
        changed note is saved, once, as ctrl+s saves it (it was lost in silence; found by a
        hostile review). One past its cap cannot be, and stays unsaved."""
        if self._keep is None or self.kept or not self.is_mounted:
            return
        text = self.query_one(TextArea).text
        if text == self.shown_note or note_problem(text.strip()):
            return
        self.kept = True
        self._keep(text)

    def action_cancel(self) -> None:
        """Close without saving; a changed note is closed by a second Esc, the first saying
        so (one Esc, out of habit, threw away what had been typed, and said nothing)."""
        if self.warned or self.query_one(TextArea).text == self.shown_note:
            self.dismiss(None)
            return
        self.warned = True
        self.app.bell()
        said = self._unsaved()
        self.query_one(".hint", Hint).say(*said, style="bold")
        if self.has_class("-short"):
            self.query_one(".note-dialog", DialogBox).say_keys(*said)
        self.notify(said[0], severity="warning", timeout=4, markup=False)


class BulkDecision(DialogKeysFirst[Status | None]):
    """Confirm a decision on many papers: says how many; r / x / s decide, Esc or q cancels."""

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "bulk"
    BINDINGS = bindings(KEYS)

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count

    def compose(self) -> ComposeResult:
        noun = count(self.count, "paper")
        keymap = getattr(self.app, "keymap", {})
        with Vertical(classes="dialog") as box:
            box.border_title = "Decide together"
            yield Label(Text(f"Decide {noun} at once? One undo step takes it back."))
            with Horizontal(id="bulk-buttons", classes="buttons"):
                for command_id, button_id, variant in (
                    ("bulk_read", "read", "primary"),
                    ("bulk_skip", "skipped", "error"),
                    ("bulk_star", "starred", "warning"),
                    ("bulk_inbox", "inbox", "default"),
                    ("bulk_cancel", "cancel", "default"),
                ):
                    label = button_label(command_id, keymap, web=self.app.is_web)
                    yield Button(label, id=button_id, variant=variant)  # type: ignore[arg-type]

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
        else:
            self.dismiss(Status(event.button.id or "inbox"))

    def action_choose(self, value: str) -> None:
        self.dismiss(Status(value))

    def action_cancel(self) -> None:
        self.dismiss(None)
