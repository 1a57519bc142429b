"""Fixtures for driving the real app: the OS clipboard mocked, the text cursor frozen."""

from __future__ import annotations

import pyperclip
import pytest
from textual.widgets import Input, TextArea

from tests.tui.helpers import FakeClipboard


@pytest.fixture(autouse=True)
def clipboard(monkeypatch: pytest.MonkeyPatch) -> FakeClipboard:
    fake = FakeClipboard()
    monkeypatch.setattr(pyperclip, "copy", fake.copy)
    monkeypatch.setattr(pyperclip, "paste", fake.paste)
    return fake


@pytest.fixture(autouse=True)
def no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Freeze the text cursors (as they are when a field takes the focus: shown) so that
    screenshots do not depend on the moment they are taken, nor counts of what was drawn on
    how long the typing took. Patched as ``Input.on_mount`` (setting ``cursor_blink``), the
    freeze never ran: Textual calls ``Input._on_mount`` instead of an ``on_mount`` of the same
    class, and every field and note editor blinked in the tests (a loaded run drew the list
    behind the import dialog at each blink, past the count allowed; a snapshot of the note
    editor taken 0.5 s late had no cursor)."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", lambda self: None)
