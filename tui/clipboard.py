"""The system clipboard through pyperclip, quietly and with a verdict people can read.

pyperclip runs xclip, xsel, wl-copy… as child processes that inherit the terminal: with a
broken DISPLAY, xclip prints its complaint straight over the app's screen. Here pyperclip gets
a ``subprocess`` whose children write to /dev/null, the copy is checked by reading it back, and
a failure comes back as a reason, never as an exception.
"""

from __future__ import annotations

import subprocess
import threading
import types
from typing import Any

import pyperclip

COPY_TIMEOUT = 3.0


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
            back = pyperclip.paste()
        except Exception as exc:  # noqa: BLE001 - pyperclip raises many kinds
            result.append(_reason(exc))
            return
        if back != text:
            result.append("the system clipboard did not keep the text")
        else:
            result.append(None)

    worker = threading.Thread(target=attempt, name="papers-clipboard", daemon=True)
    worker.start()
    worker.join(timeout)
    if not result:
        return "the system clipboard did not answer"
    return result[0]


def _reason(exc: Exception) -> str:
    message = " ".join(str(exc).split())
    if "could not find a copy/paste mechanism" in message.lower():
        return "no system clipboard here (no xclip, xsel or wl-copy with a display)"
    return message[:120] or type(exc).__name__
