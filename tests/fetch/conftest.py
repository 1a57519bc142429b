"""Fixtures of the fetch tests: the local stand-in for the services, and the environment that
points ``papers`` at it (and nowhere else: a proxy that does not exist for any other host)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fetch.services import PROXY_VARIABLES, Services, environment, serving

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "storage" / "sample"
REAL_LIST = REPO.parent / "shared" / "data" / "iclr2025.jsonl"
PAPERS = [str(Path(sys.executable).with_name("papers"))]


@pytest.fixture
def services() -> Iterator[tuple[Services, str]]:
    """The stand-in services, served on 127.0.0.1, and their base URL."""
    found = Services()
    with serving(found) as base:
        yield found, base


@pytest.fixture
def env(services: tuple[Services, str], tmp_path: Path) -> dict[str, str]:
    """The environment of ``papers``: every service on the stand-in, HOME in tmp_path, and a
    dead proxy for any host but 127.0.0.1 (a request beyond the machine fails there)."""
    clean = {k: v for k, v in os.environ.items() if k not in PROXY_VARIABLES}
    clean.pop("OPENREVIEW_USERNAME", None)
    clean.pop("OPENREVIEW_PASSWORD", None)
    clean.pop("OPENREVIEW_TOKEN", None)
    return {
        **clean,
        **environment(services[1]),
        "PAPERS_HOME": str(tmp_path / "home"),
        "HTTP_PROXY": "http://127.0.0.1:9",
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "NO_PROXY": "127.0.0.1,localhost",
    }


def papers(
    env: dict[str, str], *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the real ``papers`` with ``env``."""
    return subprocess.run(
        [*PAPERS, *args], env=env, capture_output=True, text=True, timeout=timeout,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
