"""Every paper of a server that cannot be reached is kept in ``pdf-failures.json`` (subprocess,
a real server on 127.0.0.1 that is down, then up at the same address).

A server down is asked once a run: the first of its papers failed, the rest were not asked
for. The summary counted them, but only the first was kept, so ``papers pdf --failed`` (and
its ``--json``) listed one paper of three. Each is kept now, with the server's cause, as a
failure that may mend; the run that downloads them forgets them.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import make_env, ok, run
from tests.cli.test_pdf_host import free_port
from tests.pdf_files import paper_pdf
from tests.pdf_server import PdfServer


def test_each_paper_of_a_server_down_is_listed_then_forgotten_once_downloaded(
    tmp_path: Path,
) -> None:
    env = make_env(tmp_path)
    home = tmp_path / "home"
    port = free_port()  # nothing listens there: each connection is refused
    keys = ["d0", "d1", "d2"]
    listed = tmp_path / "down.jsonl"
    records = [
        {
            "title": f"Sampler study {n}",
            "abstract": f"We study sampler {n} on a server that is down, at some length.",
            "url": f"http://127.0.0.1:{port}/forum?id={key}",
        }
        for n, key in enumerate(keys)
    ]
    listed.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    ok(run("--home", home, "import", listed, env=env))
    ids = [r["id"] for r in json.loads(ok(run("--home", home, "list", "--json", env=env)))]
    ok(run("--home", home, "mark", *ids, "starred", env=env))

    def download() -> tuple[int, str]:
        done = run("--home", home, "pdf", "--pause", "0", "--no-text", env=env)
        assert "Traceback" not in done.stderr, done.stderr
        return done.returncode, done.stderr

    code, said = download()
    assert code == 1, said
    assert "0 PDFs downloaded, 1 failed, 2 not tried (their server cannot be reached)" in said
    refused = f"cannot connect to 127.0.0.1:{port} (Connection refused)"
    lines = ok(run("--home", home, "pdf", "--failed", env=env)).splitlines()
    assert [line.split("  ", 1)[0] for line in lines] == ids, lines
    assert all(refused in line for line in lines), lines
    assert all(line.endswith("may mend, failed once: asked for again next time)") for line in lines)
    records = json.loads(ok(run("--home", home, "pdf", "--failed", "--json", env=env)))
    assert [(r["id"], r["lasting"], r["runs"]) for r in records] == [(i, False, 1) for i in ids]
    assert all(refused in r["cause"] for r in records), records

    download()  # still down: a run more in a row, for each
    records = json.loads(ok(run("--home", home, "pdf", "--failed", "--json", env=env)))
    assert [(r["id"], r["runs"]) for r in records] == [(i, 2) for i in ids]

    server = PdfServer(port=port)  # the server is back, at the address its papers name
    for n, key in enumerate(keys):
        made = paper_pdf(tmp_path / "made" / f"{key}.pdf", f"Sampler study {n}", 1, seed=n)
        server.pdfs[key] = made.read_bytes()
    server.start()
    try:
        code, said = download()
    finally:
        server.stop()
    assert code == 0 and "3 PDFs downloaded" in said, said
    assert json.loads(ok(run("--home", home, "pdf", "--failed", "--json", env=env))) == []
    none = run("--home", home, "pdf", "--failed", env=env)
    assert none.returncode == 0 and none.stdout == "", none.stdout
