"""``pdf-failures.json``: the papers whose PDF link failed: in a way that will not mend by
itself, or (asked for again every run) in one that may.

A link that answers HTTP 404 or 410, or sends a page that is no PDF (a login page), answers the
same tomorrow: ``papers pdf`` asked for it on every run, a pause and a failed line apiece. Such
a failure (``DownloadError.lasting``) is kept here per paper with the link it was of; once the
link has failed so on two runs (``SEEN_TO_PASS``), the next batches pass the paper over
(``PdfFailures.sort_out``: said in one line, ``--retry`` asks again) for a week
(``PASSED_FOR_S``), then ask again. Once is not enough: a hotel's Wi-Fi answers every link with
its login page, and a camera-ready not uploaded yet is a 404 that mends. A failure that may mend
(no answer in time, a refused connection, a 5xx, a 429) is kept too, apart (``Failure.lasting``
False): never passed over, it tells ``papers pdf --failed`` when it last failed and on how many
runs in a row (30 PDFs that time out were listed nowhere); a lasting failure after it, or it
after a lasting one, starts the count again. A server that cannot be reached is asked once a
run: each of its papers not asked for after is kept with its cause too (only the first was,
and ``papers pdf --failed`` listed one paper of a queue on a server down). A paper's link
that changed since (a list imported again with another page) is asked for again. Its copy
made, found there or linked from its attachment forgets the paper; a failure of this machine
(the folder refused a write) is no failure of the link, and forgets it too.

Entries no batch will ever correct go (they were kept forever: a paper unstarred after its
timeouts, or removed, was listed by ``papers pdf --failed`` as "may mend" months later). A
failure that may mend is read no more once ``MAY_MEND_KEPT_S`` have passed since it last
failed (every batch with its paper in it forgets it or counts a run more, so the paper has
been in none since). A lasting failure stays while its paper is in the library, however old,
for the pane and ``--failed`` to say why its PDF is not here. A removed paper's failure, of
either kind, goes ``REMOVED_KEPT_S`` after a batch first found the paper gone (``gone``, which
``PdfFailures.prune``, run first by each batch, writes): an undo of the removal, or the list
imported again, within them finds the failure as it was (it went at the next batch: a 404
seen once was then counted from one again, and the pane and ``--failed`` forgot why); the
paper back, its ``gone`` goes. A failure kept after the papers a batch knows were read is
not of a paper gone: it may be of one imported since, in another process (the app's papers
are those it last read), and stays.

Kept in HOME, apart from the folder of copies (which may be the user's ``~/Papers``), and
written whole, atomically (``files.atomic_write``: a crash leaves the old file or the new
one), after reading it again, so that the app's downloads and ``papers pdf`` keep each
other's entries; two batches at once into two folders may still miss each other's very last
entry, which costs one request next time. It is no decision of the user's: a file that does
not parse, or an entry that holds other than what is written here, is none (that paper is
asked for again), and deleting the file is always safe.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

import orjson

from storage.files.atomic import atomic_write, read_regular
from storage.models import Paper
from storage.pdfs.attached import attachment_of, usable
from storage.pdfs.check import is_pdf
from storage.pdfs.download import Event
from storage.pdfs.links import pdf_url

FAILURES_FILE: Final = "pdf-failures.json"
#: The layout of the file; entries of another are not read.
FORMAT: Final = 1
#: The longest link and cause kept (longer ones in a file were not written here).
_MAX_URL: Final = 4000
_MAX_CAUSE: Final = 500
#: On how many runs a link failed for good before batches pass its paper over.
SEEN_TO_PASS: Final = 2
#: How long after the last such failure they do (then they ask again).
PASSED_FOR_S: Final = 7 * 24 * 3600.0
#: How long a failure that may mend is kept after it last failed (see the module).
MAY_MEND_KEPT_S: Final = 30 * 24 * 3600.0
#: How long a removed paper's failure is kept after a batch first found the paper gone.
REMOVED_KEPT_S: Final = 30 * 24 * 3600.0
#: The most runs in a row counted of a failure that may mend.
_MAX_SEEN: Final = 1_000_000
#: The latest time a failure is read at (the year 3000): one past every clock's range (a hand
#: edit) ended ``papers pdf --failed`` in an OverflowError.
_LATEST: Final = 32_503_680_000.0


@dataclass(frozen=True, slots=True)
class Failure:
    """A paper's link that failed: the link, why (the download's line), when; for good
    (``lasting``) or in a way that may mend, asked for again."""

    url: str
    cause: str
    #: When it last failed so, in seconds since the epoch.
    at: float
    #: On how many runs in a row it failed so (a lasting one's up to ``SEEN_TO_PASS``).
    seen: int = 1
    lasting: bool = True
    #: When a batch first found its paper gone from the library (None: it was not).
    gone: float | None = None

    def passes(self, now: float) -> bool:
        """Whether a batch passes the paper over now (see the module)."""
        return self.lasting and self.seen >= SEEN_TO_PASS and 0 <= now - self.at < PASSED_FOR_S

    def expired(self, now: float) -> bool:
        """A failure that may mend, last failed more than ``MAY_MEND_KEPT_S`` ago: no more
        read (see the module)."""
        return not self.lasting and now - self.at > MAY_MEND_KEPT_S

    def removed_long_ago(self, now: float) -> bool:
        """Its paper was found gone more than ``REMOVED_KEPT_S`` ago (see the module)."""
        return self.gone is not None and now - self.gone > REMOVED_KEPT_S

    @property
    def kind(self) -> str:
        """The cause without its details: ``HTTP 404 Not Found``, ``not a PDF``."""
        return self.cause.split(" (", 1)[0]


class PdfFailures:
    """The failures of a HOME's PDF links, as last read (see the module)."""

    def __init__(self, home: Path) -> None:
        self.path = home / FAILURES_FILE
        self._known = _load(self.path)

    def of(self, paper: Paper) -> Failure | None:
        """The lasting failure of the paper's link as it is now (None: it has not failed for
        good, or its link changed since)."""
        failure = self.last(paper)
        return failure if failure is not None and failure.lasting else None

    def last(self, paper: Paper) -> Failure | None:
        """The failure of the paper's link as it is now, for good or one that may mend (None:
        its last download did not fail, or its link changed since)."""
        failure = self._known.get(paper.id)
        return failure if failure is not None and failure.url == pdf_url(paper) else None

    def passed(self, paper: Paper, now: float) -> Failure | None:
        """The failure for which a batch passes the paper over now, if any (see the module)."""
        failure = self.of(paper)
        return failure if failure is not None and failure.passes(now) else None

    def sort_out(
        self, papers: Iterable[Paper], copies: Mapping[str, Path]
    ) -> tuple[list[Paper], list[tuple[Paper, Failure]]]:
        """The papers to download, and those passed over with their failure: their link
        failed for good, and they have neither a copy (of ``copies``, a folder's
        ``PdfFolder.copies``: the app's as last scanned, its folder not listed on the
        screen's thread) nor an attachment here (each of which the download would take
        without asking the web)."""
        todo: list[Paper] = []
        passed: list[tuple[Paper, Failure]] = []
        now = time.time()
        for paper in papers:
            failure = self.passed(paper, now)
            copy = copies.get(paper.id)
            here = copy is not None and is_pdf(copy)  # "already here", as the download says
            if failure is None or here or usable(attachment_of(paper)) is not None:
                todo.append(paper)
            else:
                passed.append((paper, failure))
        return todo, passed

    def learn(self, event: Event) -> None:
        """What a download's ``event`` says of its paper's link: a failure of it is kept (a
        run more of the same kind); its copy made, found or linked, or a failure of this
        machine's, forgets the paper. A paper not asked for, its server not reached for
        another (``unreached``), failed with that server's cause, unless its link failed for
        good before (not asked, it says nothing new of it)."""
        url = pdf_url(event.paper)
        if event.kind in ("failed", "unreached") and url and not event.local:
            before = self.last(event.paper)  # of this link: a run more
            if event.kind == "unreached" and before is not None and before.lasting:
                return  # not asked for: nothing new of its link, whose answer is kept
            seen = 1 if before is None or before.lasting != event.lasting else before.seen + 1
            cause = event.message[:_MAX_CAUSE]
            seen = min(seen, SEEN_TO_PASS if event.lasting else _MAX_SEEN)
            failure = Failure(url, cause, time.time(), seen, event.lasting)
            self._change(event.paper.id, failure)
        elif event.kind in ("done", "linked", "skipped", "failed"):
            self._change(event.paper.id, None)

    def prune(self, papers: Collection[str], as_of: float) -> int:
        """Forget the failures of papers no longer in the library (ids not in ``papers``, the
        library's as of the time ``as_of``) ``REMOVED_KEPT_S`` after a batch first found them
        gone (now, the first time: ``Failure.gone``; a paper back loses its ``gone``), and
        those expired (see the module). A failure kept after ``as_of`` stays, whatever its
        paper: it may be of a paper imported since (by another process: the app's papers are
        those it last read). The file is written only when one changed; returns how many
        went."""
        now = time.time()
        found = _load(self.path, expired=True)  # as written, the expired too
        kept: dict[str, Failure] = {}
        for pid, failure in found.items():
            if failure.expired(now):
                continue
            if pid in papers:  # (back from a removal: found gone afresh if it goes again)
                kept[pid] = replace(failure, gone=None)
            elif failure.at > as_of:
                kept[pid] = failure
            elif failure.gone is None or failure.gone > now:  # (a clock set back: from now)
                kept[pid] = replace(failure, gone=now)
            elif not failure.removed_long_ago(now):
                kept[pid] = failure
        self._known = kept
        if kept != found:
            self._write(kept)
        return len(found) - len(kept)

    def _change(self, paper_id: str, failure: Failure | None) -> None:
        """Keep (or, with None, forget) the paper's failure: the file read again, written
        whole (best effort: a HOME that cannot be written asks again next time)."""
        if failure is None and paper_id not in self._known:
            return
        known = _load(self.path)  # another process's entries since, kept
        if failure is None:
            known.pop(paper_id, None)
        else:
            known[paper_id] = failure
        self._known = known
        self._write(known)

    def _write(self, known: dict[str, Failure]) -> None:
        entries = {
            pid: {"url": f.url, "cause": f.cause, "at": f.at, "seen": f.seen, "lasting": f.lasting}
            | ({"gone": f.gone} if f.gone is not None else {})
            for pid, f in known.items()
        }
        payload = orjson.dumps({"format": FORMAT, "papers": entries})
        with contextlib.suppress(OSError):
            atomic_write(self.path, payload, backup=False)


def _load(path: Path, *, expired: bool = False) -> dict[str, Failure]:
    """The failures kept at ``path`` (none when there is no file, or it does not parse), but
    those expired (``Failure.expired``) unless ``expired``."""
    try:
        data = orjson.loads(read_regular(path))
    except (OSError, orjson.JSONDecodeError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    papers = data.get("papers")
    if not isinstance(papers, dict):
        return {}
    found = {pid: failure for pid, entry in papers.items() if (failure := _failure(entry))}
    if expired:
        return found
    now = time.time()
    return {pid: failure for pid, failure in found.items() if not failure.expired(now)}


def _failure(entry: Any) -> Failure | None:
    """An entry as written here, else None."""
    if not isinstance(entry, dict):
        return None
    url, cause, at, seen = (entry.get(k) for k in ("url", "cause", "at", "seen"))
    lasting = entry.get("lasting", True)  # (an entry of an older version: one for good)
    if not isinstance(lasting, bool):
        return None
    if not (isinstance(url, str) and 0 < len(url) <= _MAX_URL):
        return None
    if not (isinstance(cause, str) and len(cause) <= _MAX_CAUSE):
        return None
    if not isinstance(at, int | float) or isinstance(at, bool) or not 0 <= at <= _LATEST:
        return None
    most = SEEN_TO_PASS if lasting else _MAX_SEEN
    if not isinstance(seen, int) or isinstance(seen, bool) or not 1 <= seen <= most:
        return None
    gone = entry.get("gone")
    if gone is not None and (
        not isinstance(gone, int | float) or isinstance(gone, bool) or not 0 <= gone <= _LATEST
    ):
        return None
    return Failure(url, cause, float(at), seen, lasting, None if gone is None else float(gone))
