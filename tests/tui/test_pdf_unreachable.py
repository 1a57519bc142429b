"""``P`` in the app when a server of the queue's PDFs cannot be reached (offline, a server
down): each paper on it was asked for, a second's pause apiece, and the notification that
followed listed each failure with the same cause, some twenty lines covering the pane for its
twelve seconds. The server is asked once, and the notification says each cause once, with
counts, in a few lines whatever the number of papers (Pilot, a real server on 127.0.0.1)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets._toast import Toast

from storage import Library
from storage.pdfs.failures import PdfFailures
from tests.cli.test_pdf_host import free_ports
from tests.pdf_files import paper_pdf
from tests.pdf_server import PdfServer
from tests.tui.helpers import messages, ready, wait_for
from tui.app import PapersApp

WIDE = (120, 36)


def down_library(
    home: Path, server: PdfServer, tmp_path: Path, ports: tuple[int, int]
) -> list[str]:
    """Four papers on ``server`` (one PDF, two 404s, a login page) and six on each of two
    servers of this machine that cannot be reached (``ports``), in turn; all starred in that
    order."""
    import json

    records = []
    for n in range(6):
        for where, url in (
            ("refused", f"http://127.0.0.1:{ports[0]}/forum?id=r{n}"),
            ("down too", f"http://127.0.0.1:{ports[1]}/forum?id=u{n}"),
        ):
            abstract = f"We study sampler {n} on a server that is {where}, at some length."
            records.append({"title": f"Sampler {n} ({where})", "abstract": abstract, "url": url})
        if n < 4:
            key = f"k{n}"
            title = f"Sampler study {n}"
            server.pdfs[key] = paper_pdf(tmp_path / f"{key}.pdf", title, 1, seed=n).read_bytes()
            abstract = f"We study sampler {n} on a server that answers, at some length."
            records.append({"title": title, "abstract": abstract, "url": server.forum(key)})
    server.behaviour.update(k1="missing", k2="missing", k3="html")
    listed = tmp_path / "queue.json"
    listed.write_text(json.dumps(records), encoding="utf-8")
    library = Library(home)
    library.import_file(listed)
    by_url = {p.url: p.id for p in library.papers()}
    ids = [by_url[record["url"]] for record in records]
    for pid in ids:
        library.set_status(pid, "starred")
    return ids


async def test_P_asks_a_server_down_once_and_says_each_cause_once_in_a_few_lines(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    port, other = free_ports(2)  # ports of this machine that nothing listens on
    ids = down_library(home, server, tmp_path, (port, other))
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE, notifications=True) as pilot:  # toasts drawn
        await ready(pilot)
        await pilot.press("2", "P")
        done = "1 PDF downloaded"
        await wait_for(pilot, lambda: any(m.startswith(done) for m in messages(app)), 40)
        said = next(m for m in messages(app) if m.startswith(done))
        lines = said.splitlines()
        assert len(lines) <= 5, said
        summary = "1 PDF downloaded, 5 failed, 10 not tried (their server cannot be reached)"
        assert lines[0] == f"{summary}:", said
        refused = f"cannot reach 127.0.0.1:{port} (Connection refused): 6 PDFs not downloaded"
        assert f"{refused}; try again when it answers" in lines, said
        too = f"cannot reach 127.0.0.1:{other} (Connection refused): 6 PDFs not downloaded"
        assert f"{too}; try again when it answers" in lines, said
        assert any(line.startswith("HTTP 404 Not Found: 2 PDFs (") for line in lines), said
        rest = "… and 1 other PDF not downloaded (papers pdf --failed lists the failures and why)"
        assert lines[-1] == rest, said
        assert sum(pid in said for pid in ids) <= 4  # a few papers named, not each
        assert sorted(r.paper for r in server.requests) == ["k0", "k1", "k2", "k3"]
        # each paper that failed kept, those of a server down not asked for too (for
        # `papers pdf --failed`): only the first of each server was
        failures = PdfFailures(home)
        kept = [p.id for p in Library(home).papers() if failures.last(p) is not None]
        assert sorted(kept) == sorted(set(ids) - {ids[2]})  # all but k0, downloaded

        def drawn() -> list[Toast]:
            return [t for t in app.screen.query(Toast) if t.render().plain.endswith(said)]

        await wait_for(pilot, lambda: bool(drawn()) and drawn()[0].size.height > 0)
        assert drawn()[0].size.height <= 12, said  # a few lines, the pane below seen
