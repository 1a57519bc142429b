"""The search box: runs each query off the keystroke path and paints a letter with its results."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from typing import ClassVar

from textual import events, on, work
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input
from textual.widgets.input import Selection

from tui.commands import BY_ID, bindings, keys_for
from tui.view import Found

#: A typed letter waits at most this long to be painted with its results (see ``hold_paint``).
HOLD_PAINT_SECONDS = 0.02
#: From the cursor to the end of the word it is in, or else of the next word: readline's
#: words, letters and digits (``_`` is none: Alt+f stops after ``graph`` in ``graph_nets``).
_TO_WORD_END = re.compile(r"[\W_]*[^\W_]+")
#: From the start of the word before the cursor to the cursor (searched in the text before
#: it): Alt+b and Alt+Backspace take readline's words as Alt+f does (``graph_nets``: ``nets``).
_FROM_WORD_START = re.compile(r"[^\W_]*[\W_]*\Z")
#: From the space before the cursor to it: ctrl+w's (readline's unix-word-rubout) word.
_FROM_SPACE = re.compile(r"\S*\s*\Z")


class SearchBox(Input):
    """One line of search text. Each change runs ``searcher`` in a thread (the latest query
    wins) and hands its result to ``on_results`` on the UI thread, unless the text changed
    meanwhile. (An emptied box searches nothing: its ``Input.Changed`` says so.)

    The searcher is given when there is something to search (``use``): until then typing
    only records the text, and ``use`` runs the query typed so far.
    """

    #: Readline's word keys (``tui.commands``, remappable, in the help): Alt+b, Alt+f move
    #: to a word's start and end, Alt+d deletes to the word's end, Alt+Backspace to its
    #: start (ctrl+w, a binding of the box's own, back to the space before the cursor). A
    #: terminal that speaks the kitty keyboard protocol (Textual asks for it: kitty, WezTerm,
    #: foot) sends them as such; others send ESC and the key, which the app reads as
    #: ctrl+left (the same move), alt+f, alt+d and alt+backspace (``tui.terminal``).
    #: The app does not split them into Esc then the key (``tui.key_gate.escape_then``)
    #: while the box has the focus; the box takes them before the field types alt+d's d
    #: (``on_key``).
    WORD_COMMANDS: ClassVar[tuple[str, ...]] = (
        "search_word_back",
        "search_word_forward",
        "search_delete_next_word",
        "search_delete_word",
    )

    #: Its own keys (Enter, ctrl+w: ``tui.commands``, remappable), which the footer shows
    #: while it has the focus (but the word keys: ``KeyBar``).
    BINDINGS = bindings("search")

    class _Found(Message):
        """A search's result, posted by its thread."""

        def __init__(self, text: str, result: Found) -> None:
            self.text = text
            self.result = result
            super().__init__()

    def __init__(
        self,
        on_results: Callable[[str, Found], None],
        *,
        on_entered: Callable[[], None],
        placeholder: str = "",
        id: str | None = None,
    ) -> None:
        super().__init__(placeholder=placeholder, id=id, compact=True)
        self._on_results = on_results
        self._on_entered = on_entered
        self._searcher: Callable[[str], Found] | None = None
        #: The text whose results were last shown.
        self.answered = ""
        self._held_paint: ExitStack | None = None
        self._hold_timer: Timer | None = None

    @property
    def search_text(self) -> str:
        """The search text, stripped."""
        return self.value.strip()

    @property
    def waiting(self) -> bool:
        """Whether the text's results are still to come (its search runs)."""
        return (
            bool(self.search_text)
            and self._searcher is not None
            and (self.answered != self.search_text)
        )

    def use(self, searcher: Callable[[str], Found] | None) -> None:
        """Search with ``searcher`` from now on (None: nothing to search with yet)."""
        self._searcher = searcher
        if searcher is not None and self.search_text:
            self.run_search(self.search_text)

    def clear_text(self) -> None:
        """Empty the box (which ends the search)."""
        self.value = ""

    def word_action(self, key: str) -> str | None:
        """The action of ``key`` when it is one of the box's word keys (as remapped)."""
        keymap: Mapping[str, str] = getattr(self.app, "keymap", {})
        for command_id in self.WORD_COMMANDS:
            command = BY_ID[command_id]
            if key in keys_for(command, keymap):
                return command.action
        return None

    async def on_key(self, event: events.Key) -> None:
        action = self.word_action(event.key)
        if action is not None:  # (before the field types alt+d's d)
            event.stop()
            event.prevent_default()
            await self.run_action(action)

    def _word_end(self) -> int:
        found = _TO_WORD_END.match(self.value, self.cursor_position)
        return found.end() if found else len(self.value)

    def _word_start(self) -> int:
        found = _FROM_WORD_START.search(self.value, 0, self.cursor_position)
        return found.start() if found else 0

    def action_cursor_left_word(self, select: bool = False) -> None:
        """Back to the start of the word the cursor is in or after: readline's backward-word,
        Alt+b (and ctrl+left in the box). Textual's took ``_`` as part of a word."""
        start, target = self.selection.start, self._word_start()
        if select:
            self.selection = Selection(start, target)
        else:
            self.cursor_position = target

    def action_delete_left_word(self) -> None:
        """Delete back to where Alt+b goes: readline's backward-kill-word, Alt+Backspace."""
        if not self.selection.is_empty:
            self.delete_selection()
        else:
            self.delete(self._word_start(), self.cursor_position)

    def action_delete_to_space(self) -> None:
        """Delete back to the space before the cursor: readline's unix-word-rubout, ctrl+w
        (``foo-bar`` goes whole, where Alt+Backspace deletes ``bar``)."""
        if not self.selection.is_empty:
            self.delete_selection()
        else:
            found = _FROM_SPACE.search(self.value, 0, self.cursor_position)
            self.delete(found.start() if found else 0, self.cursor_position)

    def action_cursor_word_end(self) -> None:
        """To the end of the word the cursor is in, else of the next one: readline's (bash's,
        Emacs's) forward-word, Alt+f. (Textual's ctrl+right goes to the next word's start.)"""
        self.cursor_position = self._word_end()

    def action_delete_word_end(self) -> None:
        """Delete from the cursor to where Alt+f goes: readline's kill-word, Alt+d. (Textual's
        deletes to the next word's start: after Alt+f, the space alone.)"""
        if not self.selection.is_empty:
            self.delete_selection()
        else:
            self.delete(self.cursor_position, self._word_end())

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        query = self.search_text
        if query and self._searcher is not None:
            self.hold_paint()
            self.run_search(query)

    async def action_submit(self) -> None:
        """Enter: ``on_entered``, as the key is taken. (Posted as a message, it reached the
        screen after the keys typed behind Enter were given to the box: ``/graph`` Enter
        ``j j`` searched ``graphjj`` on a busy machine.)"""
        self._on_entered()

    @work(thread=True, exclusive=True, group="search", exit_on_error=False, description="search")
    def run_search(self, query: str) -> None:
        """Search off the keystroke path; the result comes back through ``_found``."""
        searcher = self._searcher
        if searcher is not None:
            self.post_message(self._Found(query, searcher(query)))

    @on(_Found)
    def _found(self, event: _Found) -> None:
        event.stop()
        if event.text == self.search_text:  # else stale: the user typed on (their hold goes on)
            self.answered = event.text
            self._on_results(event.text, event.result)
            self.release_paint()

    def hold_paint(self) -> None:
        """Paint the letter just typed together with its results, if they come in time.

        A search takes a few milliseconds off the UI thread. Painted at once, the letter
        would set Textual's frame clock going and the results would wait for the next tick,
        up to 17 ms later; held (for ``HOLD_PAINT_SECONDS`` at most), both show in one frame.
        The keystroke itself is never held: only the painting of it.
        """
        if self._held_paint is None:
            self._held_paint = ExitStack()
            self._held_paint.enter_context(self.app.batch_update())
            self._hold_timer = self.set_timer(HOLD_PAINT_SECONDS, self.release_paint)

    def release_paint(self) -> None:
        """Paint again (results arrived, or the hold ran out)."""
        held, self._held_paint = self._held_paint, None
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        if held is not None:
            held.close()

    @property
    def holding(self) -> bool:
        """Whether a typed letter is waiting to be painted with its results."""
        return self._held_paint is not None

    def on_unmount(self) -> None:
        self.release_paint()
