"""What the web tests share: skipped, saying why, where textual-serve or the browser is missing."""

from __future__ import annotations

import importlib.util

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
    why = _browser.missing()
    if why is not None:
        pytest.skip(f"no browser test here: {why}")
