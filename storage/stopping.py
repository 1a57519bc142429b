"""A network exchange that a stop ends within a second, whatever the server does.

A blocked read waits for its timeout (30 s for a fetch, 60 s for a PDF), and checks for a
stop only between reads: Esc in the app's import dialog, or quitting the app while a PDF
downloads, waited for a server holding its answer. ``stoppable`` runs the exchange on a thread
of its own while the caller's thread checks every ``STOP_CHECK`` seconds whether it was
stopped; once stopped, the exchange's connections are shut (``shut_sockets``: a read blocked
on one ends at once, which closing the socket under it would not do) and the caller goes on,
having given the exchange's thread ``STOP_WAIT`` seconds to end. A connect still under way
ends by its own timeout, on that daemon thread: the caller has gone on without it.

Used by ``papers fetch`` (``storage.fetch.web``) and the PDF downloads
(``storage.pdfs.download``).
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterable
from typing import Final, TypeVar

T = TypeVar("T")

#: How often an exchange waited for checks whether it was stopped (seconds).
STOP_CHECK: Final = 0.1
#: How long a stopped exchange's thread is given to end once its connections are shut (seconds).
STOP_WAIT: Final = 1.0


class Stopped(Exception):
    """The exchange was stopped (``cancelled``) before it ended; what it did is dropped."""


def stoppable(
    work: Callable[[], T], cancelled: Callable[[], bool], shut: Callable[[], None], name: str
) -> T:
    """What ``work()`` returns (or raises), run on a daemon thread called ``name``; ``Stopped``
    once ``cancelled()`` says so, after ``shut()`` (which must end ``work``'s blocked reads).

    An interruption of the caller's thread (Ctrl+C: ``KeyboardInterrupt``) shuts the exchange
    too, and is raised once its thread ended (or ``STOP_WAIT`` passed): what it wrote is
    whole on disk, not cut by the process's end under a thread still writing."""
    outcome: list[T | BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:  # (handed to the caller's thread, raised there)
            outcome.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, name=name, daemon=True).start()
    try:
        while not done.wait(STOP_CHECK):
            if cancelled():
                shut()
                done.wait(STOP_WAIT)
                raise Stopped
    except BaseException as exc:
        if not isinstance(exc, Stopped):
            shut()
            done.wait(STOP_WAIT)
        raise
    found = outcome[0]
    if isinstance(found, BaseException):
        raise found
    return found


def shut_sockets(sockets: Iterable[object]) -> None:
    """Shut each socket for reading and writing: a read blocked on it ends at once (an
    ``SSLSocket`` too). One closed already, or never connected, is passed over."""
    for sock in sockets:
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
