"""The app's sync with the ``[sync] folder``: off the UI thread, on start, after changes, on quit.

One thread does it all with its own ``Library`` on the same HOME (so a merge reaches the
screen as another process's change does: the main screen notices ``triage.json`` changed and
the session reloads it). The thread looks at the library's files and the folder every
``POLL_SECONDS``: a change here is synced once the files have been still for
``SETTLE_SECONDS`` (a run of decisions is one sync, at most ``LONGEST_WAIT`` after its first),
a change in the folder at once. ``request`` syncs now (the ``sync`` key); ``close`` syncs a
last time and stops. ``text`` says how things stand in a few quiet words for the footer or the
stats screen; problems are notified once each.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from storage.errors import LibraryError
from storage.files.atomic import signature
from storage.files.papers_file import PAPERS_FILE
from storage.files.triage_file import TRIAGE_FILE
from storage.text.sanitize import printable
from storage.text.words import count

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

    from storage.library import Library
    from storage.sync import SyncReport
    from tui.config import Config

POLL_SECONDS = 2.0
SETTLE_SECONDS = 3.0
LONGEST_WAIT = 30.0
NO_FOLDER = 'No sync folder: set [sync] folder = "…" in config.toml (or run `papers sync DIR`).'

#: Says one thing to the user: the message and its severity.
Notifier = Callable[[str, "SeverityLevel"], None]


class AppSync:
    """Syncs one library with one folder in the background (inactive without a folder)."""

    def __init__(
        self, home: Path, folder: Path | None, name: str = "", notify: Notifier | None = None
    ) -> None:
        self.home = home
        self.folder = folder
        self.name = name
        tell = notify or (lambda message, severity: None)
        # Messages name the folder's files and devices: whoever writes there chose the names.
        self._notify: Notifier = lambda message, severity: tell(printable(message), severity)
        self._wake = threading.Event()
        self._stop = False
        self._requested = False
        self._said: set[str] = set()  # problems notified already: each is said once
        self._library: Library | None = None
        self._thread: threading.Thread | None = None
        #: The last sync's report, its time, and the last error ("" when it went well).
        self.report: SyncReport | None = None
        self.synced_at: float | None = None
        self.error = ""
        self.busy = False

    @classmethod
    def for_app(cls, app: App[Any], home: Path, config: Config) -> AppSync:
        """The sync an app's config asks for; notifications go to the app, posted (Textual's
        ``notify`` is safe from any thread): the sync never waits for the app's thread,
        which may be waiting for it (the last sync, ``close``, on quit: it waited for the
        whole bound, then was said not ended). On any thread, the app running or gone."""

        def notify(message: str, severity: SeverityLevel) -> None:
            with contextlib.suppress(Exception):  # the app has gone: nobody to tell
                app.notify(message, title="Sync", severity=severity, markup=False)

        return cls(home, config.sync_folder, config.sync_name, notify)

    @property
    def active(self) -> bool:
        return self.folder is not None

    @property
    def text(self) -> str:
        """How the sync stands, in a few words ("" without a sync folder)."""
        if not self.active:
            return ""
        if self.busy:
            return "syncing…"
        if self.error:
            return "sync failed"
        if self.synced_at is None:
            return "sync waiting"
        waiting = self.report.waiting if self.report is not None else 0
        if waiting:
            return f"sync: {waiting:,} to send"
        return f"synced {datetime.fromtimestamp(self.synced_at):%H:%M}"

    @property
    def detail(self) -> str:
        """One line for the stats screen: the state, the folder, this device and the others
        ("" without a sync folder)."""
        if not self.active:
            return ""
        line = f"Sync: {self.text} · {self.folder}"
        if self.report is not None:
            device = self.report.device
            line += (
                f" · this device {device.name} ({device.short}),"
                f" {count(self.report.devices, 'other device')}"
            )
        if self.error:
            line += f" · {self.error}"
        return line

    # -- called on the UI thread ------------------------------------------------------------
    def start(self) -> None:
        """Sync now, then whenever the library or the folder changes."""
        if self.active and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="papers-sync", daemon=True)
            self._thread.start()

    def request(self) -> None:
        """Sync now (the result is notified)."""
        if not self.active:
            self._notify(NO_FOLDER, "warning")
            return
        self._requested = True
        self.start()
        self._wake.set()

    def close(self, timeout: float = 5.0) -> bool:
        """Sync a last time (what was decided is on disk by now) and stop; False when the
        last sync did not end within ``timeout`` seconds (it goes on while the process lives)."""
        thread = self._thread
        if thread is None:
            return True
        self._stop = True
        self._wake.set()
        thread.join(timeout)
        return not thread.is_alive()

    # -- the thread -------------------------------------------------------------------------
    def _run(self) -> None:
        # What the files were like before a sync began: a change made while it ran (a
        # decision, another device's files arriving) is then still a change after it.
        seen = (self._local(), self._remote())
        self._sync(requested=False)
        changed_at: float | None = None
        first_change: float | None = None
        while not self._stop:
            self._wake.wait(POLL_SECONDS)
            self._wake.clear()
            if self._stop:
                break
            now = time.monotonic()
            local, remote = self._local(), self._remote()
            if local != seen[0]:
                changed_at, first_change = now, first_change or now
            settled = changed_at is not None and (
                now - changed_at >= SETTLE_SECONDS or now - (first_change or now) >= LONGEST_WAIT
            )
            requested, self._requested = self._requested, False
            if settled or remote != seen[1] or requested:
                self._sync(requested=requested)
                changed_at = first_change = None
            seen = (local, remote)
        self._sync(requested=False)

    def _local(self) -> tuple[object, ...]:
        return (signature(self.home / TRIAGE_FILE), signature(self.home / PAPERS_FILE))

    def _remote(self) -> tuple[object, ...]:
        """What tells that the other devices' files changed: their sizes and times."""
        from storage.sync.folder import ROOT_NAME

        root = (self.folder or Path()) / ROOT_NAME
        mine = self.report.device.id if self.report is not None else ""
        found: list[object] = []
        with contextlib.suppress(OSError):
            for device in sorted(os.scandir(root), key=lambda e: e.name):
                if device.name == mine:
                    continue
                with contextlib.suppress(OSError):
                    for entry in sorted(os.scandir(device.path), key=lambda e: e.name):
                        stat = entry.stat()
                        found.append((device.name, entry.name, stat.st_size, stat.st_mtime_ns))
        return tuple(found)

    def _sync(self, *, requested: bool) -> None:
        from storage.library import Library
        from storage.sync import sync_library

        assert self.folder is not None
        self.busy = True
        try:
            if self._library is None:
                self._library = Library(self.home)
            report = sync_library(self._library, self.folder, name=self.name or None)
        except (LibraryError, OSError) as exc:
            self._fail(str(exc), requested)
            return
        except Exception as exc:  # noqa: BLE001 - a sync must never take the app down
            self._fail(f"{type(exc).__name__}: {exc}", requested)
            return
        finally:
            self.busy = False
        self.report, self.synced_at, self.error = report, time.time(), ""
        self._said.discard("error")
        for problem in report.problems:
            self._say(problem, "warning")
        arrived = sum(report.applied.values())
        if requested:
            self._notify(report.summary(), "information")
        elif arrived:
            self._notify(f"{count(arrived, 'change')} arrived from other devices.", "information")

    def _fail(self, message: str, requested: bool) -> None:
        self.error = message
        if requested or "error" not in self._said:  # a lasting failure is said once
            self._said.add("error")
            self._notify(f"Sync failed: {message}", "error")

    def _say(self, message: str, severity: SeverityLevel) -> None:
        if message not in self._said:
            self._said.add(message)
            self._notify(message, severity)


def sync_detail(app: App[Any]) -> str:
    """The stats screen's sync line for ``app`` ("" when it does not sync)."""
    syncing = getattr(app, "syncing", None)
    return syncing.detail if isinstance(syncing, AppSync) else ""


def sync_now(app: App[Any]) -> None:
    """The ``sync`` command: sync the app's library now."""
    syncing = getattr(app, "syncing", None)
    if isinstance(syncing, AppSync):
        syncing.request()
    else:
        app.notify(NO_FOLDER, title="Sync", severity="warning", markup=False)
