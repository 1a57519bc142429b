"""The child processes that make derived files: started the same way, waited for the same way.

A build runs as ``python -m storage.cache.MODULE ARGS…`` with this checkout first on its path;
the caller waits for it, asking every tenth of a second whether to stop it (``wait_for``). A
child whose standard input is a pipe from its parent can end when that parent does, however
the parent ends (``end_with_parent``, called by the child). A child runs without the cyclic
garbage collector (``without_collector``).
"""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any


def start(
    module: str,
    args: list[str],
    *,
    stdin: int | IO[Any] = subprocess.DEVNULL,
    stdout: int | IO[Any] = subprocess.DEVNULL,
    own_session: bool = False,
) -> subprocess.Popen[bytes] | None:
    """Start ``python -m MODULE ARGS…`` (None when it cannot be started); ``own_session``:
    not ended with the terminal the caller runs in."""
    package_root = str(Path(__file__).resolve().parents[2])
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, path]))}
    try:
        return subprocess.Popen(
            [sys.executable, "-m", module, *args],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=own_session,
        )
    except OSError:
        return None


def wait_for(child: subprocess.Popen[bytes], cancelled: Callable[[], bool]) -> bool:
    """Wait for ``child``, asking ``cancelled`` every tenth of a second (True kills it);
    True when it ended with exit code 0."""
    while True:
        try:
            return child.wait(timeout=0.1) == 0
        except subprocess.TimeoutExpired:
            if cancelled():
                child.kill()
                child.wait()
                return False


def end_with_parent() -> None:
    """In the child: end this process when its standard input (a pipe from the parent, never
    written) ends: the parent ended (quit, killed, crashed), and nobody waits any more."""

    def watch() -> None:
        # os.read, not sys.stdin: a daemon thread holding the stream's lock would make the
        # interpreter abort at exit
        with contextlib.suppress(OSError):
            while os.read(0, 4096):
                pass
        os._exit(1)

    threading.Thread(target=watch, name="end with parent", daemon=True).start()


def without_collector() -> None:
    """In a build process (a child here, a second process of ``storage.second_process``): no
    cyclic garbage collector for its life.

    A build makes millions of objects (100,000 papers read back, their words, their chunks),
    none of them garbage until the process ends, and its objects hold no cycles, so reference
    counts free what it lets go (``chunk_words.numbered`` breaks the one cycle it made); the
    collector's passes walk all of it again and again (the search index child of 100,000
    papers, five runs each way alternating: median 9.10 s without them, 9.37 s with them,
    the same peak memory). The app and the commands set their own policy (``tui.memory``);
    this is only for processes that live for one build.
    """
    gc.disable()
