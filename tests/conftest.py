"""Shared fixtures: every test gets its own HOME and config folders; real data when present."""

from __future__ import annotations

import ipaddress
import shutil
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from storage import Library
from tests.pdf_server import PdfServer

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "storage" / "sample"
DATA = REPO.parent / "shared" / "data"
REAL_LIST = DATA / "iclr2025.jsonl"


def _local_only(connect: Callable[..., Any]) -> Callable[..., Any]:
    """``socket.connect`` that refuses every address beyond this machine."""

    def guarded(self: socket.socket, address: Any, *args: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else None
        if host is not None and not ipaddress.ip_address(host).is_loopback:
            raise AssertionError(f"a test connected beyond the machine: {address!r}")
        return connect(self, address, *args)

    return guarded


def pytest_configure(config: pytest.Config) -> None:
    """The project's bytecode written once, before the workers start (the controller alone):
    with ``PYTHONDONTWRITEBYTECODE`` set, as on these machines, Python writes none, and each
    of the suite's thousands of ``papers`` processes compiled every module it imported again
    (``papers list`` on the sample: 250 ms of CPU against 140 ms with the bytecode there).
    What a run tests is the same: a module's bytecode is its source's, checked by its time."""
    if hasattr(config, "workerinput"):
        return
    import compileall

    for package in ("storage", "tui", "benchmarks"):
        compileall.compile_dir(REPO / package, quiet=1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``slow(seconds)`` at the head of each worker's run, the longest first
    (``tests/ordering.py``)."""
    from tests.ordering import spread_first

    def weight(item: pytest.Item) -> float:
        mark = item.get_closest_marker("slow")
        return 0.0 if mark is None else float(mark.args[0] if mark.args else 1.0)

    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    items[:] = spread_first(items, weight, workers)


@pytest.fixture(autouse=True)
def isolated_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test reads or writes the user's real library or config, nor reaches beyond the
    machine: in this process no socket connects beyond loopback, and a child process that
    tried would meet a proxy that is not there (only 127.0.0.1 and localhost bypass it)."""
    monkeypatch.setattr(socket.socket, "connect", _local_only(socket.socket.connect))
    monkeypatch.setattr(socket.socket, "connect_ex", _local_only(socket.socket.connect_ex))
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost,::1")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost,::1")
    monkeypatch.setenv("PAPERS_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PAPERS_DEBUG", raising=False)
    yield


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty library folder."""
    return tmp_path / "home"


@pytest.fixture
def server() -> Iterator[PdfServer]:
    """A PDF server on 127.0.0.1 (``tests.pdf_server``), stopped after the test."""
    running = PdfServer().start()
    yield running
    running.stop()


@pytest.fixture
def sample_files() -> list[Path]:
    """The two bundled seed lists."""
    return sorted(SAMPLE.glob("*.txt"))


@pytest.fixture(scope="session")
def _seeded_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("seeded") / "home"
    Library(folder).import_files(sorted(SAMPLE.glob("*.txt")))
    return folder


@pytest.fixture
def seeded_home(home: Path, _seeded_template: Path) -> Path:
    """A library folder holding the 38 sample papers (copied from a session template)."""
    shutil.copytree(_seeded_template, home)
    return home


@pytest.fixture
def library(seeded_home: Path) -> Library:
    """A library with the 38 sample papers, nothing decided."""
    return Library(seeded_home)


@pytest.fixture(scope="session")
def real_list() -> Path:
    """The real ICLR 2025 list; tests that need it skip on a clone without ../shared/data."""
    if not REAL_LIST.is_file():
        pytest.skip(f"real data absent: {REAL_LIST} (only on machines with ../shared/data)")
    return REAL_LIST
