"""``[pdf] timeout`` in ``config.toml``: how long the app's ``P`` and ``papers pdf`` wait for a
server that stays silent (Pilot and a subprocess, a real server on 127.0.0.1).

``P`` waited a fixed 60 s, whatever ``papers pdf --timeout`` was told; there was no setting
for it. Both read ``[pdf] timeout`` now (``--timeout`` wins for a run), their one default
``storage.pdfs.download.TIMEOUT_S``; a value that is no timeout is said and ignored.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from storage import Library
from storage.pdfs.download import TIMEOUT_S, DownloadOptions
from storage.pdfs.timeout import MAX_TIMEOUT_S
from tests.cli.test_cli import make_env, run
from tests.pdf_server import PdfServer
from tests.tui.helpers import messages, ready, wait_for
from tests.tui.test_queue_keys import pdf_library
from tui.app import PapersApp
from tui.config import load_config

WIDE = (120, 36)


async def test_P_gives_up_on_a_silent_server_after_the_pdf_timeout_setting(
    home: Path, tmp_path: Path, server: PdfServer
) -> None:
    pdf_library(home, server, tmp_path)  # k0, k1 PDFs, k2 a login page
    server.behaviour["k0"] = "silent"  # (it answers nothing for 30 s)
    (home / "config.toml").write_text("[pdf]\ntimeout = 1\n", encoding="utf-8")
    app = PapersApp(Library(home), import_sample=False)
    async with app.run_test(size=WIDE) as pilot:
        await ready(pilot)
        assert not app.config_problems
        started = time.monotonic()
        await pilot.press("2", "P")
        done = "1 PDF downloaded, 2 failed"
        await wait_for(pilot, lambda: any(m.startswith(done) for m in messages(app)), 20)
        assert time.monotonic() - started < 20
        said = next(m for m in messages(app) if m.startswith(done))
        assert "no answer in time" in said, said


def test_papers_pdf_reads_the_setting_and_timeout_wins_over_it(
    tmp_path: Path, server: PdfServer
) -> None:
    home = tmp_path / "home"
    pdf_library(home, server, tmp_path)
    server.behaviour["k0"] = "silent"
    env = make_env(tmp_path)
    config = home / "config.toml"
    for setting, given in (("1", ()), ("3600", ("--timeout", "1"))):
        config.write_text(f"[pdf]\ntimeout = {setting}\n", encoding="utf-8")
        started = time.monotonic()
        done = run("--home", home, "pdf", "--pause", "0", "--no-text", *given, env=env)
        assert time.monotonic() - started < 25, done.stderr
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "ignored" not in done.stderr, done.stderr
        failed = [line for line in done.stderr.splitlines() if "failed:" in line]
        assert sum("no answer in time" in line for line in failed) == 1, done.stderr


@pytest.mark.parametrize("value", ["1e-300", "0", "-1", "nan", "inf", "7200", '"60"', "true"])
def test_a_timeout_setting_that_is_none_is_said_and_the_default_kept(
    tmp_path: Path, value: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[pdf]\ntimeout = {value}\n", encoding="utf-8")
    config = load_config([path])
    assert config.pdf_timeout is None
    (problem,) = config.problems_of("pdf")
    assert f"[pdf] timeout = {value}: ignored (" in problem, problem


def test_one_default_for_the_app_and_the_command(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[pdf]\ntimeout = 0.5\n", encoding="utf-8")
    assert load_config([path]).pdf_timeout == 0.5
    assert DownloadOptions().timeout == TIMEOUT_S <= MAX_TIMEOUT_S
    said = run("pdf", "--help", env=make_env(tmp_path)).stdout
    assert f"[pdf] timeout, else {TIMEOUT_S:g}" in " ".join(said.split())
