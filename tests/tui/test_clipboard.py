"""The system clipboard's verdict: a copy is checked by reading it back, as real clipboards
return text (line endings, a final newline), and a real failure is still reported.

Only the OS clipboard (pyperclip's copy and paste) is replaced, by clipboards that behave as
the real ones do.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pyperclip
import pytest

from tests.tui.helpers import make_app, ready, wait_for
from tui.clipboard import copy_to_system, kept

#: 717 links, as ``C`` copies them from a big list (one a line, no final newline).
LINKS = "\n".join(f"https://github.com/owner{i}/repo{i}" for i in range(717))


class Clipboard:
    """An OS clipboard that hands text back changed as ``give_back`` says."""

    def __init__(self, give_back: Callable[[str], str]) -> None:
        self.give_back = give_back
        self.text = ""
        self.pastes = 0

    def copy(self, text: str) -> None:
        self.text = text

    def paste(self) -> str:
        self.pastes += 1
        return self.give_back(self.text)


def use(monkeypatch: pytest.MonkeyPatch, clipboard: Clipboard) -> None:
    monkeypatch.setattr(pyperclip, "copy", clipboard.copy)
    monkeypatch.setattr(pyperclip, "paste", clipboard.paste)


KEPT: dict[str, Callable[[str], str]] = {
    "as sent": lambda t: t,
    "Windows line endings": lambda t: t.replace("\n", "\r\n"),
    "old Mac line endings": lambda t: t.replace("\n", "\r"),
    "a final newline added (Klipper, xsel)": lambda t: t + "\n",
    "a final CRLF added": lambda t: t.replace("\n", "\r\n") + "\r\n",
    "trailing spaces trimmed": lambda t: "\n".join(line.rstrip() for line in t.split("\n")),
    "trailing spaces added": lambda t: t + "  ",
}

NOT_KEPT: dict[str, tuple[Callable[[str], str], str]] = {
    "empty": (lambda t: "", "stayed empty"),
    "None (some mechanisms)": (lambda t: None, "stayed empty"),  # type: ignore[dict-item]
    "cut short": (lambda t: t[: len(t) // 2], "other text"),
    "a line lost": (lambda t: t.split("\n", 1)[1], "other text"),
    "the text before": (lambda t: "an older copy", "other text"),
    "a leading newline": (lambda t: "\n" + t, "other text"),
}


@pytest.mark.parametrize("how", list(KEPT))
def test_a_copy_the_clipboard_keeps_is_a_success(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, Clipboard(KEPT[how]))
    assert copy_to_system(LINKS) is None
    assert copy_to_system("https://github.com/LINs-lab/CollabEdit") is None


@pytest.mark.parametrize("how", list(NOT_KEPT))
def test_a_copy_the_clipboard_lost_is_a_failure(how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    give_back, said = NOT_KEPT[how]
    clipboard = Clipboard(give_back)
    use(monkeypatch, clipboard)
    problem = copy_to_system(LINKS)
    assert problem is not None and said in problem
    assert clipboard.pastes == 3  # read back again before saying so


def test_a_clipboard_that_takes_a_moment_is_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    clipboard = Clipboard(lambda t: t)
    clipboard.give_back = lambda t: t if clipboard.pastes > 1 else "the previous copy"
    use(monkeypatch, clipboard)
    assert copy_to_system(LINKS) is None
    assert clipboard.pastes == 2


def test_kept() -> None:
    assert kept("", "")
    assert kept("a\nb", "a\r\nb\r\n")
    assert not kept("a", "")
    assert not kept("a\nb", "a b")
    assert not kept("a\n\nb", "a\nb")  # a blank line inside is text


async def test_copying_717_links_says_copied(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``C`` through a clipboard that ends the text with a newline and uses CRLF: "Copied"."""
    clipboard = Clipboard(lambda t: t.replace("\n", "\r\n") + "\r\n")
    use(monkeypatch, clipboard)
    app = make_app(seeded_home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("C")
        await wait_for(pilot, lambda: any(n.title == "Copied" for n in app._notifications))
        [note] = [n for n in app._notifications if n.title == "Copied"]
        assert note.message.startswith("Copied 8 links from 8 papers to the system clipboard")
        assert note.severity == "information"


def test_a_long_copy_is_shown_as_whole_lines_and_how_many_more() -> None:
    from tui.links import SHOWN_CHARS, shown_copy

    links = [f"https://github.com/owner{n:03}/repository-{n:03}" for n in range(40)]
    shown = shown_copy("\n".join(links)).splitlines()
    assert shown[-1] == f"… and {40 - len(shown) + 1} lines more"
    assert shown[:-1] == links[: len(shown) - 1]  # every link shown whole, none cut
    assert sum(map(len, shown[:-1])) <= SHOWN_CHARS
    assert shown_copy("a\nb") == "a\nb"
    assert shown_copy("x" * 1000) == "x" * SHOWN_CHARS + "…"  # one line: cut
