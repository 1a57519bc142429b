"""What the pane knows of failed PDFs is the newest read of ``pdf-failures.json``, whatever
order the reads end in (real files).

The file is read in thread workers (``AppPdfs.read_failures``): at start and whenever it
changed (``MainScreen.poll_disk``), and after ``P``'s downloads; each read is taken on the
screen's thread (``take_failures``) in the order the reads end. A read begun before a change
(held by a slow or hung share) that ended after the downloads' own read was taken over it: the
pane went back to the failures of before (a paper whose link just failed said nothing) until
the next look at the disk. An older read is now passed over.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from storage.models import Paper
from storage.pdfs.failures import FAILURES_FILE
from storage.pdfs.links import pdf_url
from tui.pdfs import AppPdfs


def paper(n: int) -> Paper:
    return Paper(
        id=f"p{n}", title=f"Study {n}", abstract=f"Study {n}.", url=f"http://127.0.0.1/{n}.pdf"
    )


def write_failures(home: Path, *papers: Paper) -> None:
    entries = {
        p.id: {"url": pdf_url(p), "cause": "HTTP 404 Not Found", "at": time.time(), "seen": 2,
               "lasting": True}
        for p in papers
    }  # fmt: skip
    (home / FAILURES_FILE).write_text(json.dumps({"format": 1, "papers": entries}))


def test_a_read_that_began_earlier_and_ended_later_is_not_taken(tmp_path: Path) -> None:
    first, second = paper(1), paper(2)
    pdfs = AppPdfs(tmp_path, tmp_path / "pdfs")
    write_failures(tmp_path, first)
    assert pdfs.take_failures(pdfs.read_failures())
    slow = pdfs.read_failures()  # begun by a look at the disk, ended after the next
    time.sleep(0.01)
    write_failures(tmp_path, first, second)  # the downloads: the second's link failed
    fresh = pdfs.read_failures()
    assert pdfs.take_failures(fresh)
    assert pdfs.failure_of(second) is not None
    assert not pdfs.take_failures(slow)  # older: passed over, not a change
    assert pdfs.failure_of(second) is not None  # the pane still says why
    assert not pdfs.failures_stale()
