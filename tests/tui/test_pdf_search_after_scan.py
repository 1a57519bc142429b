"""A ``pdf:`` search shown follows the scans of the PDF folder (Pilot, real PDFs, their text
read by the real extractor).

``pdf:WORD`` finds the papers whose copy is in the folder (as last scanned) and whose text has
the word. A copy deleted by hand, or one back in the folder (a file manager, ``papers pdf`` in
another terminal), changed what the search finds at the next scan, but the results shown
stayed as they were until a key was typed in the box: a paper listed whose pane said it had
no PDF, or one missing. The search is run again when a scan changes which papers have a copy,
the cursor kept on its paper.
"""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library
from storage.cache.pdf_text import update_texts
from storage.pdfs.folder import pdf_name
from tests.pdf_files import paper_pdf
from tests.tui.helpers import plist, ready, wait_for
from tui.app import PapersApp

WIDE = (120, 36)


def library_with_texts(home: Path, tmp_path: Path) -> list[str]:
    """Four papers, the first three with a copy whose text has "wombat", read already."""
    listed = tmp_path / "list.jsonl"
    records = [
        {"title": f"Sampler study {n}", "abstract": f"We study sampler {n} with care, at length."}
        for n in range(4)
    ]
    listed.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    library = Library(home)
    library.import_file(listed)
    papers = library.papers()
    folder = home / "pdfs"
    folder.mkdir(parents=True)
    copies = {}
    for n, paper in enumerate(papers[:3]):
        marker = f"A wombat theorem {n} bounds the sampler error."
        copies[paper.id] = paper_pdf(
            folder / pdf_name(paper), paper.title, 1, seed=n, marker=marker
        )
    update_texts(home, copies)
    return [p.id for p in papers]


def shown(app: PapersApp) -> list[str]:
    papers = plist(app).papers
    return [papers[row].id for row in plist(app).rows]


async def test_a_pdf_search_follows_copies_that_go_and_come_back(
    home: Path, tmp_path: Path
) -> None:
    ids = library_with_texts(home, tmp_path)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("5")  # every paper
        # the start's reading of the texts (none to read: loaded) done before the search
        await pilot.pause(2.5)
        await wait_for(pilot, lambda: screen.pdfs.texts is not None and len(screen.pdfs.texts) == 3)
        await wait_for(pilot, lambda: not any(w.group == "pdf-text" for w in screen.workers))
        await pilot.press("slash", *"pdf:wombat", "escape")
        await wait_for(pilot, lambda: sorted(shown(app)) == sorted(ids[:3]))
        last = shown(app)[-1]
        await pilot.pause(1.0)  # (a letter right after leaving the box is held back: a stray)
        await pilot.press("G")  # the cursor on the last paper found
        await wait_for(pilot, lambda: plist(app).current.id == last)  # type: ignore[union-attr]
        gone = next(pid for pid in ids[:3] if pid != last)
        copy = screen.pdfs.copy_of(gone)
        assert copy is not None
        moved = copy.rename(tmp_path / copy.name)  # deleted by hand, or moved away
        await wait_for(pilot, lambda: sorted(shown(app)) == sorted(set(ids[:3]) - {gone}), 10)
        assert plist(app).current.id == last  # type: ignore[union-attr]
        moved.rename(copy)  # back (its text still read)
        await wait_for(pilot, lambda: sorted(shown(app)) == sorted(ids[:3]), 10)
        assert plist(app).current.id == last  # type: ignore[union-attr]
        assert ids[3] not in shown(app)


async def test_a_pdf_search_keeps_its_paper_when_the_texts_are_read_elsewhere(
    home: Path, tmp_path: Path
) -> None:
    """``papers pdf`` in another terminal read a copy's text again (the copy rewritten in
    place: the folder itself unchanged): the app loads the texts again and runs the
    ``pdf:`` search again, which put the cursor on its first row, away from the paper it was
    on, though that paper was still found. It stays on its paper, as after a scan."""
    ids = library_with_texts(home, tmp_path)
    fourth = Library(home).paper(ids[3])
    folder = home / "pdfs"
    copy = paper_pdf(folder / pdf_name(fourth), fourth.title, 1, seed=3)  # no wombat in it
    update_texts(home, {ids[3]: copy}, forget=False)
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await ready(pilot)
        await pilot.press("5")
        await pilot.pause(2.5)  # the start's reading of the texts (none to read)
        await wait_for(pilot, lambda: screen.pdfs.texts is not None and len(screen.pdfs.texts) == 4)
        await wait_for(pilot, lambda: not any(w.group == "pdf-text" for w in screen.workers))
        await pilot.press("slash", *"pdf:wombat", "escape")
        await wait_for(pilot, lambda: sorted(shown(app)) == sorted(ids[:3]))
        last = shown(app)[-1]
        await pilot.pause(1.0)  # (a letter right after leaving the box is held back: a stray)
        await pilot.press("G")
        await wait_for(pilot, lambda: plist(app).current.id == last)  # type: ignore[union-attr]
        # rewritten in place, its text read by another process: the folder is as it was
        rewritten = paper_pdf(tmp_path / "new.pdf", fourth.title, 1, seed=3, marker="A wombat.")
        copy.write_bytes(rewritten.read_bytes())
        update_texts(home, dict(screen.pdfs.copies_known))
        await wait_for(pilot, lambda: sorted(shown(app)) == sorted(ids), 10)
        assert shown(app).index(last) != 0  # (the first row would not tell)
        assert plist(app).current.id == last  # type: ignore[union-attr]
