"""The driver of a browser tab's app (``papers serve``): Textual's ``WebDriver``, one packet
written at a time, and the quit message of a closed tab taken after the keys sent before it.

``WebDriver`` writes its packets to the server with one ``os.write`` each: the screen's
frames from the app's thread, and a download's chunks (``deliver_chunk``) from its input
thread, which answers the server's requests for them. Linux keeps a write to a pipe whole
only up to ``PIPE_BUF`` (4 kB): when the server reads more slowly than the app writes (a
busy machine), two larger packets written at once from the two threads are interleaved,
the server misreads the stream, and the download never arrives (the page may show
garbage). Here each packet is written under one lock, and written whole (``_write_whole``:
``os.write`` may write part of it), so packets reach the server whole and in turn.
Textual's ``TEXTUAL_DRIVER`` names this class in the child's environment
(``tui.web_child.DRIVER``).

The keys a page sends and textual-serve's quit message (the tab closed or reloaded) come down
the same pipe in order, but ``WebDriver`` posts each key to the app through a task of its own
(``Driver.send_message``) and the quit at once (``post_message``): the quit reached the app's
queue before keys that came with it, and ``ssssss`` typed just before a reload kept 0 to 4 of
its stars. Here the quit takes the keys' way, so it comes after them.

``WebDriver`` also blurs the app as it starts (the page may not have the focus), by a
callback that posts the blur once the app takes it, and posts the page's focus at once: the
page's terminal takes the focus as it opens, its focus came to the app before that blur,
and the app then stayed blurred, its list drawn as without the focus, until a key. Here the
page's focus and blur take the blur's way, so they come after it.
"""

from __future__ import annotations

import os
import select
import threading
from functools import partial
from typing import Any

from textual import events, messages
from textual.app import App
from textual.drivers.web_driver import WebDriver


class PacketDriver(WebDriver):
    """``WebDriver`` whose data, meta and binary packets are written one whole at a time."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self._one_packet = threading.RLock()
        self._write = partial(self._write_whole)  # (Textual's is ``partial(os.write, fd)``)

    def _write_whole(self, data: bytes) -> int:
        """Write all of ``data``: ``os.write`` may write part of it (a pipe set non-blocking
        and full, a signal caught part way), and Textual's wrote the rest nowhere, so the
        server read the next packet's head as data: the page showed garbage and then nothing
        more (its keys still decided papers on disk)."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.fileno, view) :]
            except BlockingIOError:
                select.select([], [self.fileno], [])
        return len(data)

    def run_input_thread(self) -> None:
        """Textual's input thread, its keys decoded as the app's terminal decodes them
        (``tui.terminal.TerminalInput``, through its module's ``getincrementaldecoder``, as
        tui/upstream.py pins): the page's Alt+1 (ESC 1, as Esc then 1 typed at once) read as
        ``¡`` was typed into the search box, where the terminal's leaves it for the tab."""
        from textual.drivers import web_driver

        from tui.terminal import lenient_decoder

        web_driver.getincrementaldecoder = lenient_decoder  # type: ignore[assignment]
        super().run_input_thread()

    def write(self, data: str) -> None:
        with self._one_packet:
            super().write(data)

    def write_meta(self, data: dict[str, object]) -> None:
        with self._one_packet:
            super().write_meta(data)

    def write_binary_encoded(self, data: tuple[str | bytes, ...]) -> None:
        with self._one_packet:
            super().write_binary_encoded(data)

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type == "quit":  # in its turn, after the keys sent before it
            self.send_message(messages.ExitApp())
            return
        if packet_type in ("focus", "blur"):  # after the start's own blur
            event = events.AppFocus() if packet_type == "focus" else events.AppBlur()
            self._app.call_later(self._app.post_message, event)
            return
        super().on_meta(packet_type, payload)
