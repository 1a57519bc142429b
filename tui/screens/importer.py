"""Import a list from inside the app: a path prompt, or a source to fetch by name, then a
progress bar.

The list field takes a file or folder, or what ``papers fetch`` takes (``iclr2025``,
``openreview:VENUE_ID``, ``paperlists:iclr2025``, ``arxiv:QUERY``, arXiv ids) with its options
(``--all``, ``--reviews``, ``--refresh``, ``--max N``); the catalog field a file or a source.
A fetch runs in the dialog's worker thread: the bar follows the papers fetched, then cleaned;
a server's wait is said on the status line; Esc stops the fetch (nothing is imported) and
closes the dialog.

While an import or a fetch runs, the fields take no typing (disabled, they show so): the keys
typed meanwhile wait for the dialog to close and then act on the list, the imported papers in
it, in order (``tui.key_gate.expect_screen``); Esc and ctrl+q (quit) still act at once. Should
the import fail, the dialog stays and those keys, typed for the list, are dropped (the line
says so).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, ProgressBar, Static
from textual.worker import Worker, WorkerState

from storage.errors import LibraryError
from storage.library import Library
from storage.sources.registry import readable_formats
from storage.text.words import count
from tui.commands import BY_ID, bindings, closing_words, key_named, keys_for
from tui.ending import is_ending
from tui.key_gate import expect_screen, screen_stays
from tui.memory import collector_paused
from tui.paths import typed_path
from tui.text import NAME_CELLS, cut_cells, printable
from tui.text_fields import after_typed
from tui.widgets.fitting import Hint, Shrinking, fit_after_refresh, fit_dialog
from tui.widgets.path_input import PathInput

if TYPE_CHECKING:
    from storage.fetch.registry import Fetched
    from storage.models import ImportReport

#: Options the list field takes after a source, as ``papers fetch`` takes them.
_FLAGS = {"--all": "all_submissions", "--reviews": "reviews", "--refresh": "refresh"}


@dataclass(slots=True)
class Fetching:
    """A source typed in the dialog, and the options typed after it."""

    words: list[str]
    all_submissions: bool = False
    reviews: bool = False
    refresh: bool = False
    max_papers: int | None = None


def fetching(text: str, names: Mapping[str, str]) -> Fetching | None:
    """What to fetch, when ``text`` names a source rather than a path (a path that exists is a
    path); None otherwise. ``ValueError`` for an option that makes no sense."""
    from storage.fetch.names import SOURCE_NAMES, is_source, joined_words

    text = text.strip()
    # os.path.exists: False for a name no file can have (too long, a NUL), where Path.exists
    # raised, and a paste of a page of text into the field ended the app
    if not text or os.path.exists(typed_path(text)):
        return None
    found = Fetching([])
    rest: list[str] = []
    tokens = text.split()
    while tokens:
        token = tokens.pop(0)
        if token in _FLAGS:
            setattr(found, _FLAGS[token], True)
        elif token == "--max":
            value = tokens.pop(0) if tokens else ""
            if not value.isdigit() or int(value) < 1:
                raise ValueError(f"--max wants a number of papers, not {value!r}")
            found.max_papers = int(value)
        else:
            rest.append(token)
    if not rest:
        return None
    head = rest[0].partition(":")[0].casefold()
    # a query (arxiv:ti:diffusion AND cat:cs.CV) is one source; short names are several
    found.words = [" ".join(rest)] if head in SOURCE_NAMES else joined_words(rest)
    return found if all(is_source(w, names) for w in found.words) else None


class ImportScreen(ModalScreen[str | None]):
    """Ask for a list file (or folder, or a source to fetch) and an optional catalog, then
    import with progress.

    Dismisses with a one-line summary of what was imported, or None when cancelled.
    """

    #: Its keys (``tui.commands``), which the footer shows while it is open.
    KEYS: ClassVar[str] = "import"
    BINDINGS = bindings(KEYS)

    def __init__(self, library: Library, pdf_folder: Path | None = None) -> None:
        super().__init__()
        self.library = library
        #: Where the imported papers' attachments become their copies (None: not made).
        self.pdf_folder = pdf_folder
        self.running = False
        #: Set by Esc during a fetch: the worker stops at its next request or wait.
        self.stop = threading.Event()
        #: An import runs whose fetch is not over yet (not yet begun, too): Esc stops it.
        self.fetch_running = False
        #: Held while the worker goes from fetching to writing, and while the app's quit
        #: asks whether it may end (``quit_now``): an import is never begun by a quitting app,
        #: nor cut short by one (papers.json, then triage.json).
        self._writing_lock = threading.Lock()
        self._quitting = False
        #: The import (not its fetch) is being written: the app's quit waits for it.
        self.writing = False
        #: When the oldest page a fetch read from the cache was kept (None: none was): the
        #: papers are as they were then, which the import's "unchanged" does not say.
        self.cached_at: float | None = None
        #: The folder the user was told of, as the field held it (a second Enter imports it).
        self.folder_confirmed: str | None = None
        self._venue_names: dict[str, str] | None = None
        #: The status line says what the field will fetch (``path_changed``).
        self._hinted = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="import-dialog") as box:
            box.border_title = "Import a list"
            yield Label("A list file or folder, or one to fetch (iclr2025):")
            yield PathInput(str(Path.cwd()) + "/", id="import-path", select_on_focus=False)
            # the catalog's field, then what the fields take, scroll on a short screen: the
            # list's field and the result line keep their rows (``fit_dialog``); apart, so
            # that the words' scrollbar does not make the catalog's field a column narrower
            with Shrinking(id="import-more"):
                other = self._key("import_field")  # (Text: a remapped key may be "[")
                yield Label(
                    Text(f"A catalog to fill titles, authors and links (optional, {other}):")
                )
                yield PathInput(
                    placeholder="catalog file or iclr2025 (optional)", id="import-catalog"
                )
            with Shrinking(id="import-formats"):
                yield Static(
                    Text(
                        f"Files: {readable_formats()}. Lists to fetch: iclr2025, "
                        "openreview:VENUE_ID, paperlists:iclr2025, arxiv:QUERY; then --all "
                        "--reviews --refresh --max N.",
                        style="dim",
                    ),
                    classes="note",
                )
            yield ProgressBar(total=None, show_eta=False, id="import-progress")
            yield Hint(*self._usual(), id="import-status", classes="note")

    def _key(self, command_id: str) -> str:
        """A key of the dialog as its words name it, after the user's remapping."""
        return key_named(command_id, self._keymap(), web=self.app.is_web)

    def _cancels(self) -> str:
        """``Esc cancels``: every key that does, as the footer names them (not the first)."""
        return closing_words(self.KEYS, self._keymap(), web=self.app.is_web, verb="cancel")

    def _usual(self) -> tuple[str, ...]:
        """The status line while nothing else is to be said: the dialog's keys, in words for
        each width (``Hint``)."""
        start, complete, cancels = (
            self._key("import_start"),
            self._key("path_complete"),
            self._cancels(),
        )
        return (
            f"{start} imports · {complete} completes a path · {cancels}",
            f"{start} imports · {complete} completes · {cancels}",
            f"{start} imports · {cancels}",
        )

    def on_mount(self) -> None:
        self.query_one("#import-progress").display = False
        self.query_one("#import-path", Input).focus()

    def on_resize(self) -> None:
        fit_after_refresh(self, self._fit)

    def _fit(self) -> None:
        """The result line and the list's field whole; what the field takes scrolls."""
        more, formats = self.query_one("#import-more"), self.query_one("#import-formats")
        fit_dialog(self.query_one(".dialog"), [(more, 0), (formats, 0)])

    def action_other_field(self) -> None:
        """↓ / ↑: between the list's path and the catalog's."""
        path = self.query_one("#import-path", PathInput)
        (self.query_one("#import-catalog", PathInput) if path.has_focus else path).focus()

    @on(PathInput.Completions)
    def completions(self, event: PathInput.Completions) -> None:
        said = "  ".join(printable(n) for n in event.names) or "Nothing matches."
        # Tab from "iclr" made "iclr2025" of iclr2025.jsonl: a source, which Enter fetches
        field = self.query_one("#import-path", Input)
        wanted = self._wanted(field.value) if self.focused is field else None
        if wanted is not None:
            said += f" · {self._key('import_start')} fetches {', '.join(wanted.words)}"
        self._status(said, style="dim")

    def _wanted(self, text: str) -> Fetching | None:
        """What Enter fetches for the list's field holding ``text`` (None: a path, or an
        option not yet right)."""
        try:
            return fetching(_without_cwd(text), self._names())
        except ValueError:
            return None

    def _names(self) -> dict[str, str]:
        """The short names ``config.toml`` adds (``[venues]``), read once a dialog."""
        if self._venue_names is None:
            from storage.locations import config_paths
            from tui.config import load_config

            self._venue_names = load_config(config_paths(self.library.home)).venues
        return self._venue_names

    @on(Input.Changed, "#import-path")
    def path_changed(self, event: Input.Changed) -> None:
        """Say what Enter will do with what the field holds: a source to fetch shows after
        the current folder the field starts with (``/home/me/iclr2025``), which reads like a
        file's path; anything else, the dialog's usual line again."""
        if self.running:
            return
        try:
            wanted = fetching(_without_cwd(event.value), self._names())
        except ValueError as exc:  # ``--max 0``, ``--max 5x``: no fetch on Enter, but this
            if event.value.split()[-1:] != ["--max"]:  # (``--max``: its number still to come)
                self._hinted = True
                start, cancels = self._key("import_start"), self._cancels()
                self._status(f"{start} will not fetch: {exc} · {cancels}", style="dim")
            return
        if wanted is None:
            if self._hinted:
                self._hinted = False
                self._status(*self._usual(), style="dim")
            return
        self._hinted = True
        start, cancels = self._key("import_start"), self._cancels()
        fetched = ", ".join(wanted.words)
        self._status(
            f"{start} fetches {fetched}, then imports it · {cancels}",
            f"{start} fetches {fetched} · {cancels}",
        )

    def action_start(self) -> None:
        """Enter, in either field: import (or fetch, then import) what the fields hold once
        they have taken the keys typed before it (``tui.text_fields``)."""
        after_typed(self, self._start)

    @on(Input.Submitted)
    def _start(self) -> None:
        if self.running:
            return
        path = self.query_one("#import-path", Input).value.strip()
        catalog = self.query_one("#import-catalog", Input).value.strip() or None
        if not path:
            self.query_one("#import-path", Input).focus()
            return
        names = self._names()
        try:
            wanted = fetching(_without_cwd(path), names)
            catalog_wanted = fetching(catalog, names) if catalog else None
        except ValueError as exc:
            self._status(f"Not imported: {exc}", style="bold red")
            return
        if wanted is None and path != self.folder_confirmed and os.path.isdir(typed_path(path)):
            # every list file under it, recursively: Enter on the field as it starts (the
            # current folder: a home folder's every .txt and .json) is asked about first
            self.folder_confirmed = path
            self._status(
                f"{typed_path(path)} is a folder: {self._key('import_start')} again imports "
                "every list file in it "
                "and in its folders.",
                style="bold",
            )
            return
        self.running = True
        self.fetch_running = bool(wanted or catalog_wanted)
        self.stop.clear()
        self._fields_take_keys(False)
        # the keys typed from now on are for the list this import brings (and Esc for this
        # dialog, at once): they wait for it, however long it takes (``MainScreen``'s
        # ``action_import_list`` says when it is there; ``_failed``, that it will not come)
        expect_screen(self.app, wait=None, passing=keys_for(BY_ID["import_cancel"], self._keymap()))
        self.query_one("#import-progress").display = True
        first = catalog_wanted or wanted  # (the catalog is fetched first)
        self._status(f"Fetching {', '.join(first.words)}…" if first else "Reading…")
        self.run_import(path, catalog, wanted, catalog_wanted, names)

    def _keymap(self) -> Mapping[str, str]:
        keymap = getattr(self.app, "keymap", None)
        return keymap if isinstance(keymap, Mapping) else {}

    def _fields_take_keys(self, taking: bool) -> None:
        """While an import runs its fields are disabled: what they hold is what is imported."""
        if not taking:  # (the focus would move on to the field still enabled)
            self.set_focus(None)
        for field in self.query(PathInput):
            field.disabled = not taking
        if taking:
            self.query_one("#import-path", Input).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not self.running or action == "cancel"

    def _status(self, *wordings: str, style: str = "") -> None:
        """The status line: the fullest of ``wordings`` that fits on a line (``Hint``). An
        error quotes the path and what the file held: shown, never obeyed."""
        self.query_one("#import-status", Hint).say(*wordings, style=style)
        fit_after_refresh(self, self._fit)  # a longer line: the rest gives up its rows

    @work(thread=True, exclusive=True, exit_on_error=False, description="import")
    def run_import(
        self,
        path: str,
        catalog: str | None,
        wanted: Fetching | None,
        catalog_wanted: Fetching | None,
        names: Mapping[str, str],
    ) -> None:
        from storage.fetch.errors import FetchCancelled

        bar = self.query_one("#import-progress", ProgressBar)

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(bar.update, total=total, progress=done)
            self.app.call_from_thread(self._status, f"{done:,} / {count(total, 'paper')} cleaned")

        try:
            with collector_paused():  # a tenth of a large import (see tui.memory)
                try:
                    report = self._import(path, catalog, wanted, catalog_wanted, names, progress)
                finally:
                    self.writing = False  # written whole, or failed: nothing of it written
        except FetchCancelled:
            if not self._app_ending():  # (a quit stopped it: the app may be gone already)
                self.app.call_from_thread(self._stopped)
            return
        except (LibraryError, OSError) as exc:
            self.app.call_from_thread(self._failed, in_the_app(str(exc)))
            return
        except Exception as exc:  # a bug: said in the dialog, which stays usable (Esc closes it)
            self.app.call_from_thread(self._failed, f"internal error: {type(exc).__name__}: {exc}")
            return
        # a list's name cut as in the stats' table: one of 300 characters filled the toast
        lists = ", ".join(cut_cells(printable(name), NAME_CELLS) for name in report.lists)
        summary = f"Imported {lists}: {report.summary()}"
        if self.cached_at is not None:  # (the CLI says it on stderr)
            from storage.fetch.registry import kept_at

            summary += f"; pages from the cache of {kept_at(self.cached_at)} (--refresh asks again)"
        if report.attached and self.pdf_folder is not None:
            from storage.pdfs.attached import link_attachments
            from storage.pdfs.folder import PdfFolder

            try:
                linked = link_attachments(report.attached, PdfFolder(self.pdf_folder)).summary()
            except Exception as exc:  # the papers are in: only their copies were not made
                linked = f"the attachments were not linked ({type(exc).__name__}: {exc})"
            summary += f"; {linked}" if linked else ""
        cautions = import_cautions(report)
        if cautions:  # (the CLI prints them under its report line; the summary only counts)
            self.app.call_from_thread(
                self.app.notify,
                cautions,
                title="Import",
                severity="warning",
                timeout=12,
                markup=False,
            )
        self.app.call_from_thread(self.dismiss, summary)

    def _import(
        self,
        path: str,
        catalog: str | None,
        wanted: Fetching | None,
        catalog_wanted: Fetching | None,
        names: Mapping[str, str],
        progress: Callable[[int, int], None],
    ) -> ImportReport:
        """The import, in the worker: fetched sources or files, a fetched or file catalog."""
        found = None
        if catalog_wanted is not None:
            from storage.sources.papers import Catalog

            found = Catalog.from_results(self._fetch(catalog_wanted, names).results)
            if not len(found):
                raise LibraryError(f"{catalog}: the catalog holds no papers")
        fetched = self._fetch(wanted, names) if wanted is not None else None
        with self._writing_lock:  # the import itself is not stopped halfway (``quit_now``)
            if self._quitting or self.stop.is_set():  # (Esc as the fetch got its last page)
                from storage.fetch.errors import FetchCancelled

                raise FetchCancelled
            self.fetch_running = False
            self.writing = True
        if fetched is not None:
            self.cached_at = fetched.cached_at if fetched.from_cache else None
            return self.library.import_results(fetched.results, found, progress=progress)
        if found is not None:
            from storage.sources.registry import import_files_of, open_files

            opened = open_files(import_files_of([typed_path(path)]), None)
            report = self.library.import_results(opened.results, found, progress=progress)
            report.failed, report.passed = opened.failed, opened.passed
            return report
        return self.library.import_files(
            [typed_path(path)],
            catalog=typed_path(catalog) if catalog else None,
            progress=progress,
        )

    def _fetch(self, wanted: Fetching, names: Mapping[str, str]) -> Fetched:
        """Fetch in the worker: the bar follows the papers, waits show on the status line."""
        from storage.fetch.registry import fetch_all
        from storage.fetch.request import FetchRequest, WebOptions

        bar = self.query_one("#import-progress", ProgressBar)

        def progress(what: str, done: int, total: int | None) -> None:
            of = f" / {total:,}" if total is not None else ""
            self.app.call_from_thread(bar.update, total=total, progress=done)
            self.app.call_from_thread(self._status, f"{what}: {done:,}{of} papers fetched")

        def notify(line: str) -> None:
            self.app.call_from_thread(self._status, line)

        request = FetchRequest(
            all_submissions=wanted.all_submissions,
            reviews=wanted.reviews,
            max_papers=wanted.max_papers,
            names=names,
            progress=progress,
            starting=notify,
        )
        options = WebOptions(refresh=wanted.refresh, notify=notify, cancelled=self.stop.is_set)
        try:
            return fetch_all(wanted.words, request, self.library.home, options)
        finally:
            if not self._app_ending():
                self.app.call_from_thread(self._status, "Importing…")

    def _app_ending(self) -> bool:
        return is_ending(self.app)

    def quit_now(self) -> bool:
        """Whether the app may end now (its quit asks): yes unless an import is being
        written, which then goes on to its end (the app quits after it); a fetch is stopped,
        and an import not yet begun never begins."""
        with self._writing_lock:
            if self.writing:
                return False
            self._quitting = True
            self.stop.set()
            return True

    def _stop_fetch(self) -> bool:
        """Stop the fetch, if it is not over (the worker goes from fetching to writing under
        the same lock: a stop comes before the import begins, or is not made)."""
        with self._writing_lock:
            if self.fetch_running:
                self.stop.set()
            return self.fetch_running

    def on_unmount(self) -> None:
        """The dialog gone while a fetch runs (the app quit: ctrl+q goes through while it
        runs) stops the fetch, as Esc does; an import being written is not stopped halfway:
        the app's quit waits for it (``quit_now``)."""
        self.stop.set()

    def _failed(self, message: str) -> None:
        self.running = self.fetch_running = False
        dropped = screen_stays(self.app)
        self.query_one("#import-progress").display = False
        if dropped:
            message += f"; {count(dropped, 'key')} typed meanwhile, for the list, not used"
        self._status(f"Not imported: {message}", style="bold red")
        self._fields_take_keys(True)

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """A failure ``run_import`` did not catch still ends the import (the keys typed
        meanwhile no longer wait for it, and the form takes keys again)."""
        if event.state is WorkerState.ERROR and self.running:
            self._failed(f"internal error: {event.worker.error!r}")

    def _stopped(self) -> None:
        self.running = self.fetch_running = False
        self.app.notify("The fetch was stopped; nothing was imported.", timeout=4)
        self.dismiss(None)

    def action_cancel(self) -> None:
        """Esc: close the dialog; while a fetch runs, stop it (then the dialog closes, nothing
        imported); an import under way is not stopped halfway: it is said, and it goes on."""
        if not self.running:
            self.dismiss(None)
        elif self._stop_fetch():
            self._status("Stopping the fetch…")
        else:
            self._status("An import is not stopped halfway: the dialog closes once it is done.")


#: The cautions of an import shown in the app, at most (the rest counted), and their length.
CAUTIONS_SHOWN: Final = 3
CAUTION_CHARS: Final = 200


def in_the_app(message: str) -> str:
    """An import's refusal as the dialog says it: the options it names are the command
    line's (the dialog takes none of them for a file), so it says where to give them."""
    from storage.sources.limits import ANY_FILE_HINT, MAX_SIZE_HINT

    return message.replace(
        ANY_FILE_HINT, "(papers import --any-file in a shell reads it anyway)"
    ).replace(MAX_SIZE_HINT, "(papers import --max-size in a shell raises it)")


def import_cautions(report: ImportReport) -> str:
    """What ``papers import`` prints under its report line as warnings and files not read
    (its readers' warnings: attached PDFs not on this machine, a macro past its budget), a
    few lines: the app showed only the summary, which counts neither."""
    lines = [f"file not read: {failed}" for failed in report.failed]
    lines += [f"warning: {warning}" for warning in report.warnings]
    if not lines:
        return ""
    shown = [printable(line) for line in lines[:CAUTIONS_SHOWN]]
    shown = [
        line if len(line) <= CAUTION_CHARS else line[: CAUTION_CHARS - 1] + "…" for line in shown
    ]
    if len(lines) > CAUTIONS_SHOWN:
        shown.append(f"… and {len(lines) - CAUTIONS_SHOWN:,} more")
    return "\n".join(shown)


def _without_cwd(text: str) -> str:
    """The field starts with the current folder: a source typed after it is the source."""
    prefix = str(Path.cwd()) + "/"
    rest = text.removeprefix(prefix)
    return rest if rest != text and rest and not os.path.exists(text) else text
