"""The search box: runs each query off the keystroke path and paints a letter with its results."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import ClassVar

from textual import events, on, work
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input

from tui.commands import bindings
from tui.view import Found

#: A typed letter waits at most this long to be painted with its results (see ``hold_paint``).
HOLD_PAINT_SECONDS = 0.02


class SearchBox(Input):
    """One line of search text. Each change runs ``searcher`` in a thread (the latest query
    wins) and hands its result to ``on_results`` on the UI thread, unless the text changed
    meanwhile. (An emptied box searches nothing: its ``Input.Changed`` says so.)

    The searcher is given when there is something to search (``use``): until then typing
    only records the text, and ``use`` runs the query typed so far.
    """

    #: Readline's word keys as a terminal that speaks the kitty keyboard protocol sends them
    #: (Textual asks for it: kitty, WezTerm, foot): Alt+b, Alt+f move a word back and
    #: forward, Alt+d and Alt+Backspace delete the word after and before the cursor. Others
    #: send ESC and the key, which Textual reads as ctrl+left, ctrl+right, ctrl+w (the
    #: field's and ours already) and alt+d. Before, alt+d left the box (Esc then d: the d
    #: held back, with a warning), alt+b and alt+f did nothing, and alt+backspace, the
    #: field's, deleted the word after the cursor. The app does not split them into Esc
    #: then the key (``tui.key_gate.escape_then``) while the box has the focus; the box
    #: takes them before the field types alt+d's d (``on_key``).
    WORD_KEYS: ClassVar[dict[str, str]] = {
        "alt+b": "cursor_left_word",
        "alt+f": "cursor_right_word",
        "alt+d": "delete_right_word",
        "alt+backspace": "delete_left_word",
    }

    #: Its own keys (Enter, ctrl+w: ``tui.commands``, remappable), which the footer shows
    #: while it has the focus.
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

    async def on_key(self, event: events.Key) -> None:
        action = self.WORD_KEYS.get(event.key)
        if action is not None:  # (a key of the field's own kind: not remapped, not shown)
            event.stop()
            event.prevent_default()
            await self.run_action(action)

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
