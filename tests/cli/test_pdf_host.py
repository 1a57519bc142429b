"""``papers pdf`` names the server it could not reach: a queue gathered from several sites
(OpenReview, arXiv, a lab's page) said "cannot connect (Connection refused)" for each, and
which server was down had to be guessed."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from tests.cli.test_cli import make_env, ok, run


def failed_download(tmp_path: Path, title: str, url: str) -> tuple[int, str]:
    """``papers pdf`` of one paper whose link is ``url`` (its port: one nothing listens on,
    ``{port}`` in it): the port, and what it said."""
    env = make_env(tmp_path)
    home = tmp_path / "home"
    with socket.socket() as sock:  # a port of this machine that nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
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
