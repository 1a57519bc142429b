"""Fixtures for driving the real app: the OS clipboard mocked, the text cursor frozen."""

from __future__ import annotations

import pyperclip
import pytest
from textual.widgets import Input

from tests.tui.helpers import FakeClipboard


@pytest.fixture(autouse=True)
def clipboard(monkeypatch: pytest.MonkeyPatch) -> FakeClipboard:
    fake = FakeClipboard()
    monkeypatch.setattr(pyperclip, "copy", fake.copy)
    monkeypatch.setattr(pyperclip, "paste", fake.paste)
    return fake


@pytest.fixture(autouse=True)
def no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Freeze the text cursor so screenshots do not depend on the moment they are taken."""
    original = Input.on_mount if hasattr(Input, "on_mount") else None

    def on_mount(self: Input) -> None:
        self.cursor_blink = False
        if original is not None:
            original(self)

    monkeypatch.setattr(Input, "on_mount", on_mount, raising=False)
