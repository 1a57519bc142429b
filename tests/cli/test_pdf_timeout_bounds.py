"""``--timeout`` takes seconds a server can answer in (subprocess).

``papers pdf --timeout 1e-300`` was taken (any number over 0 was), and every PDF of the queue
"timed out" in turn, each a line and a failure kept; a timeout must be from 0.1 s to an hour
now, else one line says so and the command exits 2 as for any bad option, nothing asked for.
``papers fetch`` reads its ``--timeout`` the same way; ``--pause`` and ``--max-wait`` are from
0 to an hour.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_cli import make_env, ok, run
from tests.cli.test_queue_cli import pdf_home
from tests.pdf_server import PdfServer

NONSENSE = ["1e-300", "0.05", "0", "-0", "-5", "nan", "inf", "-inf", "1e400", "3601", "1e9"]


@pytest.mark.parametrize("value", NONSENSE)
def test_papers_pdf_refuses_a_timeout_no_server_can_answer_in(
    tmp_path: Path, server: PdfServer, value: str
) -> None:
    env = make_env(tmp_path)
    home, _ids = pdf_home(tmp_path, env, server, 1)
    done = run("--home", home, "pdf", "--no-text", f"--timeout={value}", env=env)
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()[-1:]
    assert "--timeout" in line and "must be from 0.1 to 3600 seconds" in line, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert server.requests == []  # nothing asked for
    assert not (home / "pdf-failures.json").exists()


@pytest.mark.parametrize("value", ["0.1", "3600"])
def test_the_bounds_themselves_are_taken(tmp_path: Path, server: PdfServer, value: str) -> None:
    env = make_env(tmp_path)
    home, _ids = pdf_home(tmp_path, env, server, 1)
    said = run("--home", home, "pdf", "--no-text", "--pause", "0", "--timeout", value, env=env)
    ok(said)
    assert "1 PDF downloaded" in said.stderr, said.stderr


def test_papers_fetch_refuses_it_too(tmp_path: Path) -> None:
    env = make_env(tmp_path, PAPERS_OPENREVIEW_API="http://127.0.0.1:9")
    done = run("--home", tmp_path / "home", "fetch", "iclr2025", "--timeout", "1e-300", env=env)
    assert done.returncode == 2, done.stderr
    assert "must be from 0.1 to 3600 seconds, not 1e-300" in done.stderr, done.stderr


@pytest.mark.parametrize(
    "given",
    [
        ("--pause", "nan"),
        ("--pause", "-1"),
        ("--pause", "1e9"),
        ("--pause", "3601"),
        ("--max-wait", "nan"),
        ("--max-wait", "inf"),
        ("--max-wait", "1e9"),
        ("--max-wait", "-0.5"),
    ],
)
def test_papers_pdf_refuses_a_pause_or_wait_that_is_no_number_of_seconds(
    tmp_path: Path, server: PdfServer, given: tuple[str, str]
) -> None:
    """``--pause nan`` was taken as no pause at all, ``--max-wait nan`` or ``inf`` as "wait
    for any Retry-After", a day's if the server asked; ``--pause 1e9`` was taken, a run that
    slept 31 years between two PDFs (``--max-wait 1e9`` waited as long if a server asked).
    Each is from 0 to an hour now."""
    env = make_env(tmp_path)
    home, _ids = pdf_home(tmp_path, env, server, 1)
    option, value = given
    done = run("--home", home, "pdf", "--no-text", *given, env=env)
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert f"argument {option}: must be from 0 to 3600 seconds, not {value}" in line, line
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert server.requests == []
    assert not (home / "pdf-failures.json").exists()


@pytest.mark.parametrize("option", ["--pause", "--max-wait"])
def test_an_hour_is_taken(tmp_path: Path, server: PdfServer, option: str) -> None:
    env = make_env(tmp_path)
    home, _ids = pdf_home(tmp_path, env, server, 1)
    pause = [] if option == "--pause" else ["--pause", "0"]
    said = run("--home", home, "pdf", "--no-text", *pause, option, "3600", env=env)
    ok(said)  # (one PDF: no pause is slept before the first request)
    assert "1 PDF downloaded" in said.stderr, said.stderr
