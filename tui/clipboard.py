"""The system clipboard through pyperclip, quietly and with a verdict people can read.

pyperclip runs xclip, xsel, wl-copy… as child processes that inherit the terminal: with a
broken DISPLAY, xclip prints its complaint straight over the app's screen. Here pyperclip gets
a ``subprocess`` whose children write to /dev/null, the copy is checked by reading it back
(``kept``: the same text as clipboards return it, line endings and a final newline aside), and
a failure comes back as a reason, never as an exception.
"""

from __future__ import annotations

import subprocess
import threading
import time
import types
from typing import Any

import pyperclip

COPY_TIMEOUT = 3.0
#: Seconds to wait before each reading back of a copy (the first at once).
READ_BACK_WAITS = (0.0, 0.05, 0.2)


class _QuietSubprocess(types.ModuleType):
    """``subprocess`` as pyperclip sees it: children never write to the terminal."""

    def __init__(self) -> None:
        super().__init__("subprocess")

    def __getattr__(self, name: str) -> Any:
        return getattr(subprocess, name)

    @staticmethod
    def Popen(*args: Any, **kwargs: Any) -> subprocess.Popen[Any]:  # noqa: N802 - pyperclip's name
        kwargs.setdefault("stdout", subprocess.DEVNULL)
        kwargs.setdefault("stderr", subprocess.DEVNULL)
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        return subprocess.Popen(*args, **kwargs)

    @staticmethod
    def call(*args: Any, **kwargs: Any) -> int:
        kwargs.setdefault("stdout", subprocess.DEVNULL)
        kwargs.setdefault("stderr", subprocess.DEVNULL)
        return subprocess.call(*args, **kwargs)

    @staticmethod
    def check_call(*args: Any, **kwargs: Any) -> int:
        kwargs.setdefault("stdout", subprocess.DEVNULL)
        kwargs.setdefault("stderr", subprocess.DEVNULL)
        return subprocess.check_call(*args, **kwargs)


pyperclip.subprocess = _QuietSubprocess()


def copy_to_system(text: str, timeout: float = COPY_TIMEOUT) -> str | None:
    """Put ``text`` on the system clipboard; returns None on success, else why it failed."""
    result: list[str | None] = []

    def attempt() -> None:
        try:
            pyperclip.copy(text)
            back = _read_back(text)
        except Exception as exc:  # noqa: BLE001 - pyperclip raises many kinds
            result.append(_reason(exc))
            return
        if kept(text, back):
            result.append(None)
        elif not back:
            result.append("the system clipboard stayed empty")
        else:
            result.append("the system clipboard holds other text than was copied")

    worker = threading.Thread(target=attempt, name="papers-clipboard", daemon=True)
    worker.start()
    worker.join(timeout)
    if not result:
        return "the system clipboard did not answer"
    return result[0]


def _read_back(text: str) -> str:
    """What the clipboard holds after a copy of ``text``; read again a few times when it is
    not that yet (a clipboard tool may take a moment to own the selection)."""
    back = ""
    for wait in READ_BACK_WAITS:
        time.sleep(wait)
        pasted = pyperclip.paste()
        back = pasted if isinstance(pasted, str) else ""
        if kept(text, back):
            break
    return back


def kept(sent: str, back: str) -> bool:
    """Whether the clipboard holds ``sent``, as real clipboards hand text back: line endings
    as ``\\r\\n`` (Windows) or ``\\r``, a final newline added (Klipper) or dropped,
    trailing whitespace of a line trimmed. Empty or other text is not ``sent``."""
    return _comparable(sent) == _comparable(back) and (bool(back) or not sent)


def _comparable(text: str) -> str:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).rstrip("\n")


def _reason(exc: Exception) -> str:
    message = " ".join(str(exc).split())
    if "could not find a copy/paste mechanism" in message.lower():
        return "no system clipboard here (no xclip, xsel or wl-copy with a display)"
    return message[:120] or type(exc).__name__
