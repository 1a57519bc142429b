"""Layering: storage/ never imports Textual (checked in a fresh interpreter per module), and
the import-linter contracts of pyproject.toml hold."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import storage

MODULES = sorted(m.name for m in pkgutil.walk_packages(storage.__path__, prefix="storage.")) + [
    "storage"
]


_IMPORT_EACH = """
import importlib, sys
for name in sys.argv[1:]:
    before = set(sys.modules)
    importlib.import_module(name)
    found = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))
    if found:
        came = sorted(m for m in set(sys.modules) - before if m.startswith("storage"))
        print(f"importing {name} (which loaded {', '.join(came)}) loaded {found[:3]}")
        break
"""


def test_no_storage_module_imports_textual() -> None:
    """Each storage module imported in turn in one fresh interpreter: the first that pulls in
    Textual or Rich is named (those before it were clean when imported)."""
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_EACH, *MODULES],
        capture_output=True,
        text=True,
        cwd=Path(storage.__file__).parents[1],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"pulls in textual or rich: {done.stdout}"


#: The only modules that open a TinyDB file of HOME, and that change one's tables.
_OWNERS = {"storage/files/papers_file.py", "storage/files/triage_file.py"}


def test_each_file_in_home_has_one_owner() -> None:
    """Only the owners of papers.json and triage.json open them or change their tables."""
    root = Path(storage.__file__).parents[1]
    for path in sorted([*root.glob("storage/**/*.py"), *root.glob("tui/**/*.py")]):
        name = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        if name in _OWNERS or name == "storage/files/atomic.py":
            continue
        assert "AtomicJSONStorage(" not in text, f"{name} opens a file of HOME"
        assert ".writable_table(" not in text, f"{name} changes a table of a file of HOME"
        assert "TinyDB(" not in text, f"{name} opens a TinyDB file"


def test_every_storage_module_is_checked() -> None:
    assert {"storage.library", "storage.search", "storage.files.atomic", "storage.export"} <= set(
        MODULES
    )


def test_import_contracts_hold() -> None:
    """pyproject.toml's [tool.importlinter] contracts (storage has no screen, widgets no
    screens, the view model no Textual)."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from importlinter.cli import lint_imports_command; "
            "sys.exit(lint_imports_command())",
            "--no-cache",
        ],
        capture_output=True,
        text=True,
        cwd=Path(storage.__file__).parents[1],
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


#: The most lines a module of ``storage/`` or ``tui/`` may have (DESIGN.md: a module a
#: newcomer can keep in their head, under ~700 lines; a helper's change once went past it
#: unseen, which only ``wc`` found).
MODULE_LINES = 700


def test_no_module_of_storage_or_tui_is_past_its_lines() -> None:
    root = Path(__file__).resolve().parents[2]
    long = {
        str(path.relative_to(root)): lines
        for package in ("storage", "tui")
        for path in sorted((root / package).rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert not long, long
