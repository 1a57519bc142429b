"""What the web tests share: skipped, saying why, where textual-serve or the browser is missing."""

from __future__ import annotations

import functools
import importlib.util
import subprocess
import tempfile

import pytest

from benchmarks import _browser


@pytest.fixture
def needs_serve() -> None:
    """Skip unless textual-serve (the web extra) is installed."""
    if importlib.util.find_spec("textual_serve") is None:
        pytest.skip("textual-serve is not installed (pip install -e '.[web]')")


@pytest.fixture
def needs_browser(needs_serve: None) -> None:
    """Skip unless headless Chromium, its driver and selenium are here."""
    why = _browser.missing() or _chromium_fails()
    if why is not None:
        pytest.skip(f"no browser test here: {why}")


@functools.cache
def _chromium_fails() -> str | None:
    """Why Chromium does not start here (a library missing…), tried once: None when it does."""
    with tempfile.TemporaryDirectory() as profile:
        try:
            ran = subprocess.run(
                [
                    _browser.CHROMIUM,
                    *_browser.CHROMIUM_FLAGS,
                    f"--user-data-dir={profile}",
                    "--dump-dom",
                    "about:blank",
                ],
                capture_output=True,
                text=True,
                timeout=60,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{_browser.CHROMIUM} does not start: {exc}"
    if ran.returncode != 0 or "<html" not in ran.stdout:
        said = (ran.stderr.strip().splitlines() or ["no output"])[-1][:200]
        return f"{_browser.CHROMIUM} does not start (exit code {ran.returncode}): {said}"
    return None
