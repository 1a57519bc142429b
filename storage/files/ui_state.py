"""What the app remembers between sessions: its look (the theme, the split) and where the
user left it (the tab, the paper under the cursor).

Kept in ``HOME/ui.json``, apart from ``config.toml`` (which is the user's to write, comments
and all). A file that does not parse, or holds values out of range, is ignored: the app
opens with its defaults and writes the file afresh on the next change.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from pathlib import Path

import orjson

from storage.files.atomic import atomic_write, read_regular

UI_FILE = "ui.json"
#: The paper list's share of the width (or, stacked, of the height), in percent.
SPLIT_DEFAULT, SPLIT_MIN, SPLIT_MAX = 50, 20, 80


@dataclass(frozen=True, slots=True)
class UiState:
    """The app's look, as the user last left it."""

    theme: str = ""
    split: int = SPLIT_DEFAULT
    #: The tab shown when the app was quit ("" for the first, the Inbox).
    tab: str = ""
    #: The id of the paper under the cursor then ("" for none).
    paper: str = ""

    def with_split(self, delta: int) -> UiState:
        """The split moved by ``delta`` percent, kept within bounds."""
        return replace(self, split=max(SPLIT_MIN, min(SPLIT_MAX, self.split + delta)))


def load_ui_state(home: Path) -> UiState:
    """The state saved in ``home`` (defaults when there is none or it is unreadable)."""
    try:
        data = orjson.loads(read_regular(home / UI_FILE))
    except (OSError, orjson.JSONDecodeError):
        return UiState()
    if not isinstance(data, dict):
        return UiState()
    theme = data.get("theme")
    split = data.get("split")
    if not isinstance(split, int) or not SPLIT_MIN <= split <= SPLIT_MAX:
        split = SPLIT_DEFAULT
    return UiState(
        theme=theme if isinstance(theme, str) else "",
        split=split,
        tab=_short(data.get("tab")),
        paper=_short(data.get("paper")),
    )


def _short(value: object) -> str:
    """A name or an id kept in the file: a short string, else nothing."""
    return value if isinstance(value, str) and len(value) <= 200 else ""


def save_ui_state(home: Path, state: UiState) -> None:
    """Remember ``state`` (best effort: a folder that cannot be written keeps the old one)."""
    payload = orjson.dumps(
        {"theme": state.theme, "split": state.split, "tab": state.tab, "paper": state.paper}
    )
    with contextlib.suppress(OSError):
        atomic_write(home / UI_FILE, payload, backup=False)
