"""The main screen's reading-queue and PDF keys: move the paper under the cursor in the
queue, sort the queue once, open a paper's PDF, download the PDFs of the queue (or of the
marked papers) and read their text, off the screen's thread."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from storage.models import Paper
from storage.queue import (
    QueueOrder,
    QueueSort,
    SortFacts,
    move_to,
    queue_empty,
    reordered,
    sort_named,
)
from storage.text.sanitize import printable
from storage.text.words import count
from tui import links
from tui.ending import is_ending
from tui.key_gate import expect_screen, screen_arrived
from tui.screens.main.base import MainBase
from tui.web import in_browser, open_file_in_tab

if TYPE_CHECKING:
    from storage.pdfs.failures import Failure, PdfFailures
    from tui.pdfs import FailuresRead
    from tui.screens.main.search import SearchPart

#: Progress on the list's bottom border is redrawn at most this often (seconds).
PROGRESS_EVERY_S = 0.25


#: The workers that read or load the PDFs' texts.
_TEXT_GROUPS = ("pdf-text", "pdf-text-load")


def searches_pdfs(query: str) -> bool:
    """Whether ``query`` has a ``pdf:`` qualifier, whose papers are of those with a copy."""
    from storage.search.query import parse_query

    if "pdf:" not in query.casefold():  # (most queries: not parsed here, on each scan)
        return False
    return any(qualifier.key == "pdf" for qualifier in parse_query(query).qualifiers)


class QueuePart(MainBase):
    """``[`` ``]`` ``{`` ``}`` (ctrl+arrows) move a paper in the queue, ``Q`` sorts it;
    ``p`` opens a PDF, ``P`` downloads PDFs."""

    # -- the queue ------------------------------------------------------------------------
    def _in_queue_view(self) -> bool:
        """Whether the list shows the reading queue in its order (the Starred tab, no search,
        not only the marked papers); says why not when it does not."""
        view = self.view
        if view.tab == "starred" and not view.query and not view.only_marked:
            return True
        # what stands between the list and the queue's order, each with its key as remapped
        # (in the Starred tab it said to go to the Starred tab, naming 2 and ctrl+l whatever
        # the keys were)
        key = self.key_shown
        steps = []
        if view.query:
            steps.append(f"clear the search ({key('clear_search')})")
        if view.only_marked:
            steps.append(f"show the whole list ({key('marked_view')})")
        if view.tab != "starred":
            steps.append(f"go to the Starred tab ({key('tab_starred')})")
        said = f"The reading queue moves in its own order: {' and '.join(steps)} first."
        self.notify(
            said,
            severity="warning",
            timeout=3,
            markup=False,
        )
        return False

    def action_queue_move(self, where: str) -> None:
        """Move the paper under the cursor up, down, to the top or to the bottom of the
        queue: shown at once, written by the session's writer (one undo step)."""
        paper = self.paper_list.current
        if paper is None or not self._in_queue_view():
            self.app.bell()
            return
        state = self.session.state
        queue = QueueOrder.of(state.statuses, state.positions, state.decided_at)
        if paper.id not in queue.keys:
            return
        here = queue.ids.index(paper.id)
        target = {"up": here - 1, "down": here + 1, "top": 0, "bottom": len(queue) - 1}[where]
        if not 0 <= target < len(queue) or target == here:
            self.app.bell()  # and said: a bell alone is often silent
            end = "head" if where in ("up", "top") else "end"
            self.notify(f"The paper is at the {end} of the queue already.", timeout=3)
            return
        self.session.hold_writes()
        self.call_after_frame(self.session.release_writes)
        before = self.session.version
        self.session.queue_placement(move_to(queue, paper.id, target), moved=(paper.id,))
        self.view.counts_unchanged(before)  # the order changed, not what any tab holds
        # the Starred tab lists the queue in its order: its rows are the queue's places
        if where in ("up", "down") and self.view.swap_listed(here, target):
            self.paper_list.rows_swapped(here, target)  # the cursor follows its paper
            self.show_current()
        else:
            self.rebuild(keep=paper.id, counts=False)

    def action_queue_sort(self) -> None:
        """Choose a sort, then sort the queue once by it (one undo step)."""
        from tui.screens.queue_sort import QueueSortDialog

        if not self._in_queue_view():
            return
        if not self.queue_ids():
            self.notify(queue_empty(self.key_shown("star")), markup=False)
            return

        def chosen(name: str | None) -> None:
            if name is not None:
                self.sort_queue(name)

        self.app.push_screen(QueueSortDialog(), chosen)

    def sort_queue(self, name: str) -> None:
        """Sort the queue by ``name`` in a thread (likeness needs the similarity index), then
        write the new order as one step."""
        sort = sort_named(name)
        state = self.session.state
        ids = list(self.queue_ids())
        papers = {pid: p for pid in ids if (p := self.view.paper(pid)) is not None}
        statuses, decided = dict(state.statuses), dict(state.decided_at)
        all_papers = self.view.papers

        def work() -> None:
            try:
                ordered()
            except Exception as exc:  # noqa: BLE001 - said; the keys held go on (``_unsorted``)
                said = f"The queue is not sorted: {printable(f'{type(exc).__name__}: {exc}')}"
                self.app.call_from_thread(self._unsorted, said)

        def ordered() -> None:
            likeness: dict[str, float] = {}
            if sort.needs_likeness and len(papers) > 1:
                index = self.similar_work.index_for(all_papers)
                found = index.suggest(statuses, candidates=list(papers))
                likeness = {s.paper_id: s.score for s in found}
            texts = self.pdfs.loaded_texts()
            facts = SortFacts(papers, decided, likeness, texts.pages())
            unsorted = sort.unsorted(ids, facts)
            if unsorted is not None:
                self.app.call_from_thread(self._unsorted, unsorted)
                return
            order = sort.order(ids, facts)
            self.app.call_from_thread(self._sorted, sort, order)

        self.run_worker(
            work, thread=True, exclusive=True, group="queue", exit_on_error=False,
            description="sort the queue",
        )  # fmt: skip
        # the keys typed after Enter move in the sorted queue, not in the one it replaces
        # (``Q`` Enter ``j``: the sort came after the ``j``, the cursor back on the head)
        expect_screen(self.app)

    def _unsorted(self, said: str) -> None:
        self.notify(said, timeout=4, markup=False)
        screen_arrived(self.app)

    def _sorted(self, sort: QueueSort, order: Sequence[str]) -> None:
        try:
            self._show_sorted(sort, order)
        finally:
            screen_arrived(self.app)

    def _show_sorted(self, sort: QueueSort, order: Sequence[str]) -> None:
        state = self.session.state
        queue = QueueOrder.of(state.statuses, state.positions, state.decided_at)
        order = [pid for pid in order if pid in queue.keys]
        sorted_ids = set(order)
        order += [pid for pid in queue.ids if pid not in sorted_ids]  # starred meanwhile
        placement = reordered(queue, order)
        what = sort.label[:1].lower() + sort.label[1:]
        if not placement:  # no step: an undo would undo nothing
            said = f"Nothing moved: the queue is already sorted {what}."
            self.notify(said, timeout=4, markup=False)
            return
        before = self.session.version
        self.session.queue_placement(placement, sort=sort.name)
        self.view.counts_unchanged(before)
        if self.view.tab == "starred":
            self.rebuild(cursor=0, counts=False)
        undo = self.key_shown("undo")
        self.notify(f"Queue sorted {what}. One step: {undo} undoes it.", timeout=4, markup=False)

    # -- PDFs -----------------------------------------------------------------------------
    def action_open_pdf(self) -> None:
        """Open the paper's PDF: the local copy (made from the paper's attachment when it
        has one here, off the screen's thread: the file may be on a slow disk; in a browser
        tab, sent to a new tab), else the source's PDF."""
        paper = self.paper_list.current
        if paper is None:
            return
        # pressed while the folder is read (at start, after a download): once it is read
        self.after_pdfs_scanned("open_pdf", lambda: self._open_pdf_of(paper))

    def _open_pdf_of(self, paper: Paper) -> None:
        from storage.pdfs.attached import attachment_of

        copy = self.pdfs.copy_of(paper.id)
        if copy is None and attachment_of(paper):
            self.run_worker(
                lambda: self._link_and_open(paper), thread=True, group="attachment",
                exit_on_error=False, description="open the attachment",
            )  # fmt: skip
            return
        self._open_pdf(paper, copy)

    def _link_and_open(self, paper: Paper) -> None:
        """The paper's attachment made its copy, then opened (in the worker); what goes wrong
        said in a line (a list's hostile ``pdf`` field closed the app), the app kept up."""
        try:
            self._linked_and_opened(paper)
        except Exception as exc:  # noqa: BLE001 - said; nothing is written here
            said = f"The PDF is not opened: {printable(f'{type(exc).__name__}: {exc}')}"
            self.app.call_from_thread(
                self.notify, " ".join(said.split()), severity="error", timeout=6, markup=False
            )

    def _linked_and_opened(self, paper: Paper) -> None:
        from storage.pdfs.attached import attachment_of, link_attachment

        copy = link_attachment(paper, self.pdfs.folder)  # its reference manager's PDF
        if copy is None:
            self.app.call_from_thread(
                self.notify,
                f"The attachment is not here or is no PDF: {printable(attachment_of(paper))}",
                severity="warning",
                markup=False,
            )
        else:
            self.app.call_from_thread(self._pdf_arrived)
        self.app.call_from_thread(self._open_pdf, paper, copy)

    def _open_pdf(self, paper: Paper, copy: Path | None) -> None:
        from storage.pdfs.links import pdf_url

        if copy is not None and copy.is_file():
            if in_browser(self.app):  # the server's file, sent to a tab of the browser
                open_file_in_tab(self.app, copy, "the local PDF")
            else:
                links.open_link(self.app, copy.resolve().as_uri())
            return
        url = pdf_url(paper)
        if not url:
            self.notify(
                "No PDF known for this paper (no OpenReview or arXiv page, no pdf field).",
                severity="warning",
                markup=False,
            )
            return
        links.open_link(self.app, url)

    def action_download_pdfs(self) -> None:
        """Download the PDFs of the marked papers of the list, else of the reading queue, in
        the background (progress on the list's bottom border), then read their text; while
        they download, stop them (each part kept, to resume). Those
        whose link failed for good before (``storage.pdfs.failures``, which ``papers pdf``
        passes over) are asked for again, the key being the asking, and said so with why."""
        pdfs = self.pdfs
        if pdfs.busy:  # asked again: stopped (a queue of 500 took 8 minutes, unstoppable)
            self.workers.cancel_group(self, "pdf")
            again = self.key_shown("download_pdfs")
            said = f"Stopping the downloads: {again} again resumes them where they stopped."
            if not pdfs.downloading:  # still reading the disk, nothing written: let go now
                # (a hung share held the read: "Stopping" said at each P until it returned)
                self._download_failed(None, pdfs.runs)
                said = f"Stopped before any download: {again} again starts them."
            self.notify(said, title="PDFs", markup=False, timeout=4)
            return
        if self.pdfs.scanning:  # pressed while the folder is read: once it is
            self.after_pdfs_scanned("download_pdfs", self.action_download_pdfs)
            return
        marked = self.view.marked_in(self.paper_list.rows)
        ids = marked or list(self.queue_ids())
        if not ids:  # (it said every paper of the queue had its PDF here)
            star, mark = self.key_shown("star"), self.key_shown("mark")
            said = f"The reading queue is empty: star papers ({star}), or mark some ({mark}), "
            said += "to get PDFs."
            self.notify(said, markup=False, timeout=4)
            return
        papers = [p for pid in ids if (p := self.view.paper(pid)) is not None]
        todo = [p for p in papers if not self.pdfs.has_copy(p.id)]
        if not todo:
            what = "marked papers" if marked else "papers of the queue"
            self.notify(f"Every one of the {what} has its PDF here.", markup=False, timeout=3)
            self.read_pdf_texts()
            return
        pdfs.busy, pdfs.downloading = True, False
        pdfs.runs += 1
        run = pdfs.runs
        known = self.view.position  # every paper's id (replaced whole, never changed, on reload)
        # as of the papers.json they are: a failure kept after it (`papers pdf` in another
        # terminal) may be of a paper imported since, which a reload would show
        version = self.papers_version
        as_of = version.mtime_ns / 1e9 if version is not None else 0.0
        copies = self.pdfs.copies_known  # (the folder is not listed here: thousands of copies)
        self.run_worker(
            lambda: self._download(run, todo, copies, known, as_of), thread=True, exclusive=True,
            group="pdf", exit_on_error=False, description="download PDFs",
        )  # fmt: skip

    def _download(
        self,
        run: int,
        papers: list[Paper],
        copies: Mapping[str, Path],
        known: Collection[str],
        as_of: float,
    ) -> None:
        """The downloads, in this worker from the first look at the disk: the folder, the
        failures kept (``pdf-failures.json``) and the attachments of the papers passed over
        may be on a slow or hung disk (a share); read on the screen's thread, each key waited
        for them. ``run``: which of ``P``'s (one stopped while it read them is let go, and
        another may have begun since: this one then ends saying nothing)."""
        from textual.worker import get_current_worker

        from storage.pdfs.failures import PdfFailures
        from storage.pdfs.folder import folder_problem

        # each way out ends ``busy`` on the screen's thread, before it can read P again
        try:
            problem = folder_problem(self.pdfs.folder.path)  # a file, a link to nothing…
            if problem:
                self.app.call_from_thread(self._download_failed, problem, run)
                return
            failures = PdfFailures(self.library.home)
            before = [failure for _, failure in failures.sort_out(papers, copies)[1]]
            if get_current_worker().is_cancelled:  # P again while the disk was read
                self.app.call_from_thread(self._download_failed, None, run)
                return
            if self.app.call_from_thread(self._downloads_begin, run, len(papers), before):
                self._download_all(run, papers, failures, known, as_of)
        except BaseException:
            if self.pdfs.runs == run:
                self.pdfs.busy = False
            raise

    def _downloads_begin(self, run: int, todo: int, before: list[Failure]) -> bool:
        """Whether ``run``'s downloads begin (not when it was let go meanwhile), said."""
        if run != self.pdfs.runs or not self.pdfs.busy:
            return False
        self.pdfs.downloading = True  # (P again now waits for them: they write parts)
        said = f"Downloading {count(todo, 'PDF')} into {self.pdfs.folder.path}, one at a time…"
        if before:
            causes = {failure.cause for failure in before}  # the kinds alone when several
            why = causes.pop() if len(causes) == 1 else ", ".join(sorted({f.kind for f in before}))
            which = "It" if todo == 1 else f"{len(before):,} of them"
            said += f"\n{which} failed before ({why}): asked for again."
        self.notify(said, timeout=8 if before else 4, markup=False)
        return True

    def _download_all(
        self,
        run: int,
        papers: list[Paper],
        failures: PdfFailures,
        known: Collection[str],
        as_of: float,
    ) -> None:
        from textual.worker import get_current_worker

        from storage.pdfs.download import DownloadOptions, Event, download_pdfs
        from tui.pdfs import progress_note

        worker = get_current_worker()
        last = [0.0]

        def progress(event: Event) -> None:
            failures.learn(event)  # what papers pdf passes over next time, or not
            now = time.monotonic()
            if event.kind == "bytes" and now - last[0] < PROGRESS_EVERY_S:
                return
            last[0] = now
            self.app.call_from_thread(self._progress, progress_note(event))
            if event.kind in ("done", "linked"):
                self.app.call_from_thread(self._pdf_arrived)

        options = DownloadOptions()  # papers pdf's, [pdf] timeout as it reads it
        if self.pdf_timeout is not None:
            options = DownloadOptions(timeout=self.pdf_timeout)
        # of papers removed since, or stale (``storage.pdfs.failures``)
        failures.prune(known, as_of)
        try:
            report = download_pdfs(
                papers, self.pdfs.folder, options, progress, lambda: worker.is_cancelled
            )
        except OSError as exc:  # the folder (a full disk, no permission): said, not lost
            where = f"{exc.filename}: " if exc.filename else ""
            said = f"PDFs not downloaded: {where}{exc.strerror or exc}"
            self.app.call_from_thread(self._download_failed, said, run)
            return
        self.app.call_from_thread(self._downloaded, report)
        # what the pane says of a failed PDF, read here once P is free again (a hung share
        # held this read: P said "Stopping" until it returned, the downloads done)
        read = self.pdfs.read_failures()
        self.app.call_from_thread(self._pdf_failures_read, read, reading=False)

    def _download_failed(self, message: str | None, run: int) -> None:
        """``run``'s downloads ended before they began, said why (None: stopped, said so);
        nothing when it was let go (stopped while it read the disk, another begun since)."""
        if run != self.pdfs.runs or not self.pdfs.busy:
            return
        self.pdfs.busy = False  # (P again starts them, not stops them)
        if is_ending(self.app):  # (its widgets may be gone: let go, as ``_downloaded``)
            return
        self._progress(None)
        if message is not None:
            self.notify(message, title="PDFs", severity="error", timeout=12, markup=False)

    def _progress(self, text: str | None) -> None:
        if not is_ending(self.app):  # (a download's event in flight as the app ends: let go)
            self.set_list_note("pdfs", text)

    def _pdf_arrived(self) -> None:
        """A copy made (downloaded, linked from its attachment): the folder read again, off
        this thread; its row's mark and the pane follow once it is (``_pdfs_scanned``)."""
        self.scan_pdfs()

    def _downloaded(self, report: object) -> None:
        from storage.pdfs.download import DownloadReport

        assert isinstance(report, DownloadReport)
        self.pdfs.busy = False
        if is_ending(self.app):  # (its widgets may be gone: let go; the copies are kept)
            return
        self._progress(None)
        failed = report.failed
        message = report.summary()
        if failed:  # by cause, a few lines whatever their number (a server down: one)
            message += ":\n" + "\n".join(report.failures())
        self.notify(
            message,
            title="PDFs",
            severity="warning" if failed or report.busy else "information",
            timeout=12 if failed else 5,
            markup=False,
        )
        self.read_pdf_texts()

    def scan_pdfs(self) -> None:
        """Read the folder of copies again in a thread worker: at start (47 ms for 3,000
        copies, which the start waited for before its first frame), after a download or an
        import, when the folder changed (``papers pdf`` filling it in another terminal: a
        listing of the whole folder once a second, on this thread, stalled the keys). One at
        a time: asked for while one runs, another follows it; what each read is taken here,
        in order (``_pdfs_scanned``), the rows' marks, the pane and ``pdf:`` following."""
        pdfs = self.pdfs
        if pdfs.scanning:
            pdfs.scan_again = True
            return
        pdfs.scanning = True
        pdfs.scans_started += 1

        def work() -> None:
            found = None
            try:
                found = self.pdfs.read_folder()
            finally:  # (failed, too: what p or P asked meanwhile is done, not held for ever)
                self.app.call_from_thread(self._pdfs_scanned, found)

        self.run_worker(
            work, thread=True, group="pdf-scan", exit_on_error=False,
            description="scan the PDF folder",
        )  # fmt: skip

    def read_pdf_failures(self) -> None:
        """Read ``pdf-failures.json`` in a thread worker (HOME may be on a slow or hung disk:
        read on this thread, at the first pane that showed a PDF link and whenever ``papers
        pdf`` changed it, the keys waited for it), one read at a time; what it read is taken
        here and the pane follows."""
        pdfs = self.pdfs
        if pdfs.reading_failures:
            return  # (still changed once it is read: the next look at the disk reads it again)
        pdfs.reading_failures = True

        def work() -> None:
            read = None
            try:
                read = pdfs.read_failures()
            finally:
                self.app.call_from_thread(self._pdf_failures_read, read)

        self.run_worker(
            work, thread=True, group="pdf-failures", exit_on_error=False,
            description="read pdf-failures.json",
        )  # fmt: skip

    def _pdf_failures_read(self, read: FailuresRead | None, *, reading: bool = True) -> None:
        """Take a read of ``pdf-failures.json`` (``reading``: ``read_pdf_failures``'s)."""
        if reading:
            self.pdfs.reading_failures = False
        if read is None or is_ending(self.app):  # (its widgets may be gone: let go)
            return
        if self.pdfs.take_failures(read) and self.is_mounted:
            self.show_current()

    def after_pdfs_scanned(
        self, name: str, action: Callable[[], None], *, fresh: bool = False
    ) -> None:
        """Do ``action`` once the folder's scan under way is taken, at once when none is;
        with ``fresh``, once a scan started from now is (a copy just made is in it). By
        ``name``: asked twice meanwhile, it is done once (``MainBase.after_pdf_scan``)."""
        pdfs = self.pdfs
        if fresh:
            self.scan_pdfs()  # started now, else to follow the one under way
            needed = pdfs.scans_started + (1 if pdfs.scan_again else 0)
        elif pdfs.scanning:
            needed = pdfs.scans_started
        else:
            action()
            return
        self.after_pdf_scan[name] = (needed, action)

    def _pdfs_scanned(self, found: tuple[dict[str, Path], dict[str, Path]] | None) -> None:
        """What a scan read (None: it failed), taken on this thread; the next scan asked
        for meanwhile started; what waited for this one done."""
        pdfs = self.pdfs
        first = not pdfs.scanned
        taken = pdfs.scans_started  # (one at a time: the scan that ended is the last started)
        pdfs.scanning = False
        had = pdfs.copies_known.keys()  # (``take`` replaces the copies whole)
        changed = pdfs.take(found)
        if not self.is_mounted or is_ending(self.app):  # (its widgets may be gone: let go)
            return
        again, pdfs.scan_again = pdfs.scan_again, False
        due = [name for name, (needed, _) in self.after_pdf_scan.items() if needed <= taken]
        for name in due:  # p or P pressed while it ran, the texts to read of the copies
            self.after_pdf_scan.pop(name)[1]()
        # the scan asked for meanwhile, after them: P waited for each next one, for ever
        # while the folder kept changing (a slow share filled elsewhere); one they started
        # reads the change too
        if again and not pdfs.scanning:
            self.scan_pdfs()
        if changed:  # (none: nothing to redraw)
            self.paper_list.refresh()
            self.show_current()
        if not (self.index is not None and searches_pdfs(self.view.query)):
            return
        if first:
            searcher = cast("SearchPart", self).searcher  # of the papers with a copy
            self.search_box.use(searcher(self.index))
        elif had != pdfs.copies_known.keys():  # a copy came or went: the results with it
            # (they stayed as they were until a key was typed in the box); the cursor kept
            cast("SearchPart", self).search_after_outside_changes()

    def read_pdf_texts(self) -> None:
        """Read the text of the local PDFs that have none yet, once a scan of the folder
        started now is taken (off this thread: the copies just made are in it)."""
        self.after_pdfs_scanned("read_pdf_texts", self._read_texts, fresh=True)

    def _read_texts(self) -> None:
        """Read the texts of the copies known in a child process watched by a thread worker
        (the keys keep their interpreter), then load them for ``pdf:``."""
        copies = self.pdfs.copies_known

        def work() -> None:
            from textual.worker import get_current_worker

            from storage.cache.pdf_text import PdfTexts, extract_elsewhere

            worker = get_current_worker()
            todo = PdfTexts.open(self.library.home).stale(copies) if copies else []
            if todo:  # no progress drawn: a repaint per PDF would share every key's frame
                extract_elsewhere(
                    self.library.home,
                    self.pdfs.folder.path,
                    cancelled=lambda: worker.is_cancelled,
                )
            texts = self.pdfs.load_texts()
            self.app.call_from_thread(self._texts_ready, len(todo), len(texts))

        self.run_worker(
            work, thread=True, exclusive=True, group="pdf-text", exit_on_error=False,
            description="read PDF text",
        )  # fmt: skip

    def reload_pdf_texts(self) -> None:
        """The texts again from ``pdf-text.cache``, which another process wrote (``papers
        pdf`` in a second terminal): the pane's pages, ``pdf:`` and the length sort follow
        it. Not while the app reads texts itself: its reading loads them when it ends."""
        if any(w.group in _TEXT_GROUPS and not w.is_finished for w in self.workers):
            return

        def work() -> None:
            texts = self.pdfs.load_texts()
            self.app.call_from_thread(self._texts_ready, 0, len(texts))

        self.run_worker(
            work, thread=True, exclusive=True, group="pdf-text-load", exit_on_error=False,
            description="load PDF text",
        )  # fmt: skip

    def _texts_ready(self, read: int = 0, ready: int = 0) -> None:
        if is_ending(self.app):  # (its widgets may be gone: let go)
            return
        if read:
            self.notify(
                f"The text of {count(ready, 'PDF')} is ready for pdf: searches.",
                timeout=3,
                markup=False,
            )
        if "pdf:" in self.view.query.casefold() and self.index is not None:
            box = self.search_box
            if box.waiting:  # a query just typed: its search may have read the texts before
                box.run_search(box.search_text)
            else:  # the query again, with the texts: the cursor kept on its paper, as after
                # a scan (it went to the first row, the paper it was on still found)
                cast("SearchPart", self).search_after_outside_changes()
        current = self.paper_list.current
        if current is not None and self.pdfs.has_copy(current.id):
            self.show_current()  # the texts change only what a local copy's line says
