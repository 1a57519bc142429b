"""Text fields, and keys bound above them that read what was typed into them.

A key bound with priority (Enter in the import and export dialogs: "from either field") runs
as the app receives it, before the focused field has taken the keys that came just before it:
those wait in the field's own queue. In a burst (a paste without brackets, ``tmux send-keys
"list.bib" Enter``, a fast typist) the field's value read at once missed them: the import
dialog imported the folder it was filled with (the whole current folder, recursively) instead
of the file typed after it. ``after_typed`` runs such an action once the field has taken them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input


def is_text_field(widget: Widget | None) -> bool:
    """Whether typing goes into ``widget`` (an input line, or a text area: by name, so that
    the text area's module is not imported at start)."""
    return isinstance(widget, Input) or any(c.__name__ == "TextArea" for c in type(widget).__mro__)


def after_typed(screen: Screen[Any], action: Callable[[], object]) -> None:
    """Run ``action`` once the focused text field has taken every key typed before the one
    running it (queued on the field, it runs after them); at once when no field has the
    focus, or the field no longer takes messages."""
    focused = screen.focused
    if is_text_field(focused) and focused is not None and focused.call_later(action):
        return
    action()
