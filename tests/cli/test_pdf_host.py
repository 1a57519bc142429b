"""``papers pdf`` names the server it could not reach: a queue gathered from several sites
(OpenReview, arXiv, a lab's page) said "cannot connect (Connection refused)" for each, and
which server was down had to be guessed; and a server that cannot be reached at all is asked
once a run, said in one line."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from tests.cli.test_cli import make_env, ok, run
from tests.pdf_files import paper_pdf
from tests.pdf_server import PdfServer


def free_port() -> int:
    """A port of this machine that nothing listens on (a connection to it is refused)."""
    return free_ports(1)[0]


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports of this machine that nothing listens on (bound together, so
    none is handed out twice, then let go)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [int(sock.getsockname()[1]) for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def failed_download(tmp_path: Path, title: str, url: str) -> tuple[int, str]:
    """``papers pdf`` of one paper whose link is ``url`` (its port: one nothing listens on,
    ``{port}`` in it): the port, and what it said."""
    env = make_env(tmp_path)
    home = tmp_path / "home"
    port = free_port()
    listed = tmp_path / "down.jsonl"
    abstract = f"We study what a reader is told when the server of a PDF is down: {title}."
    record = {"title": title, "abstract": abstract, "url": url.format(port=port)}
    listed.write_text(json.dumps(record) + "\n", encoding="utf-8")
    ok(run("--home", home, "import", listed, env=env))
    (pid,) = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))]
    done = run("--home", home, "pdf", pid, "--pause", "0", "--no-text", env=env)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    return port, done.stderr


def test_a_server_that_refuses_the_connection_is_named(tmp_path: Path) -> None:
    title = "A paper on a server that is down"
    port, said = failed_download(tmp_path, title, "http://127.0.0.1:{port}/forum?id=down1")
    (line,) = [line for line in said.splitlines() if "failed:" in line]
    assert f"cannot connect to 127.0.0.1:{port} (Connection refused)" in line


def test_the_server_is_named_without_the_password_its_link_holds(tmp_path: Path) -> None:
    """A link with a user and password in it (``http://reader:s3cret@127.0.0.1:PORT/…``): the host
    named was the link's whole network location, the password printed with it."""
    title = "A paper behind a password on a server that is down"
    url = "http://reader:s3cret@127.0.0.1:{port}/paper.pdf"
    port, said = failed_download(tmp_path, title, url)
    (line,) = [line for line in said.splitlines() if "failed:" in line]
    assert f"cannot connect to 127.0.0.1:{port} (Connection refused)" in line
    assert "s3cret" not in said


def test_a_server_that_cannot_be_reached_is_asked_once_and_said_in_one_line(
    tmp_path: Path,
) -> None:
    """Offline, each paper of the queue was asked for, a pause apiece, and each failed with
    the same "cannot connect to openreview.net (Name or service not known)". A server that
    cannot be reached at all (here two servers of this machine, their connections refused;
    a name not resolved is the same, ``test_pdfs``) is asked once: its other papers are not
    asked for in this run, those of another server are (a 404 is the paper's own), and one
    line a server says how many PDFs were not downloaded. Each of its papers is kept as a
    failure that may mend (listed by ``--failed``), none passed over: the next run asks again."""
    server = PdfServer().start()
    try:
        port, other = free_ports(2)
        records = []
        for n in range(3):  # the servers' papers in turn, as a queue from several sites
            key = f"s{n}"
            title = f"A sampler study {n}"
            server.pdfs[key] = paper_pdf(tmp_path / f"{key}.pdf", title, 1, seed=n).read_bytes()
            for where, url in (
                ("here", server.forum(key)),
                ("refused", f"http://127.0.0.1:{port}/forum?id=r{n}"),
                ("down too", f"http://127.0.0.1:{other}/forum?id=u{n}"),
            ):
                abstract = f"We study sampler {n} on a server that is {where}, at length."
                records.append({"title": f"{title} ({where})", "abstract": abstract, "url": url})
        server.behaviour.update(s0="missing", s1="missing")  # a 404 apiece: each is asked
        listed = tmp_path / "queue.json"
        listed.write_text(json.dumps(records), encoding="utf-8")
        env = make_env(tmp_path)
        home = tmp_path / "home"
        ok(run("--home", home, "import", listed, env=env))
        ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))]
        ok(run("--home", home, "mark", *ids, "starred", env=env))
        done = run("--home", home, "pdf", "--pause", "0", "--no-text", env=env)
        said = done.stderr
        assert done.returncode == 1 and "Traceback" not in said, said
        assert sorted(r.paper for r in server.requests) == ["s0", "s1", "s2"]  # each once
        failed = [line for line in said.splitlines() if "failed:" in line]
        assert len(failed) == 4, said  # two 404s, one paper of each server down
        assert sum(f"127.0.0.1:{port}" in line for line in failed) == 1
        assert sum(f"127.0.0.1:{other}" in line for line in failed) == 1
        assert "1 PDF downloaded, 4 failed, 4 not tried (their server cannot be reached)" in said
        refused = f"cannot reach 127.0.0.1:{port} (Connection refused): 3 PDFs not downloaded"
        assert f"{refused}; try again when it answers\n" in said
        too = f"cannot reach 127.0.0.1:{other} (Connection refused): 3 PDFs not downloaded"
        assert f"{too}; try again when it answers\n" in said
        kept = json.loads((home / "pdf-failures.json").read_text(encoding="utf-8"))
        # the 404s for good; each paper of a server down (asked for or not) as may mend
        lasting = sorted(entry["lasting"] for entry in kept["papers"].values())
        assert lasting == [False] * 6 + [True] * 2, kept
        again = run("--home", home, "pdf", "--pause", "0", "--no-text", env=env)
        assert f"{refused}; try again when it answers\n" in again.stderr
        assert "not asked for again" not in again.stderr  # a 404 once may mend: asked again
    finally:
        server.stop()


def test_a_redirect_loop_is_one_line_and_a_redirect_to_the_pdf_is_followed(
    tmp_path: Path,
) -> None:
    """A link that redirects to itself (a login wall, a misconfigured mirror) failed with
    urllib's message, three lines ("HTTP 302 The HTTP server returned a redirect error that
    would lead to an infinite loop.", "The last 30x error message was:", "Found"): `papers
    pdf` printed them run together, and the app's notification in three lines of its own.
    It is one cause now, said so. A redirect that leads to the PDF is followed."""
    server = PdfServer().start()
    try:
        for key in ("loop1", "moved1"):
            made = paper_pdf(tmp_path / f"{key}.pdf", f"Paper {key}", 1, seed=1)
            server.pdfs[key] = made.read_bytes()
        server.behaviour["loop1"] = f"redirect:{server.base}/pdf?id=loop1"
        server.behaviour["moved1"] = f"redirect:{server.base}/pdf/moved1x"
        server.pdfs["moved1x"] = server.pdfs["moved1"]
        records = [
            {
                "title": f"A paper whose link {how}",
                "abstract": f"We study what a reader is told when a PDF's link {how}, at length.",
                "url": server.forum(key),
            }
            for key, how in (("loop1", "redirects to itself"), ("moved1", "moved"))
        ]
        listed = tmp_path / "redirects.json"
        listed.write_text(json.dumps(records), encoding="utf-8")
        env = make_env(tmp_path)
        home = tmp_path / "home"
        ok(run("--home", home, "import", listed, env=env))
        ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))]
        done = run("--home", home, "pdf", *ids, "--pause", "0", "--no-text", env=env)
        said = done.stderr
        assert done.returncode == 1 and "Traceback" not in said, said
        (failed,) = [line for line in said.splitlines() if "failed:" in line]
        loop = "redirects to itself: HTTP 302: redirected in a loop (or more than 10 times)"
        assert failed.endswith(loop), said
        assert "The last 30x" not in said and "Found" not in said
        assert "1 PDF downloaded, 1 failed" in said
    finally:
        server.stop()
