"""Layering: storage/ never imports Textual (checked in a fresh interpreter per module), and
the import-linter contracts of pyproject.toml hold."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import storage

MODULES = sorted(m.name for m in pkgutil.walk_packages(storage.__path__, prefix="storage.")) + [
    "storage"
]


@pytest.mark.parametrize("module", MODULES)
def test_storage_module_does_not_import_textual(module: str) -> None:
    code = f"import sys, {module}; print(sorted(m for m in sys.modules if m.startswith('textual')))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=Path(storage.__file__).parents[1],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"{module} pulls in textual: {done.stdout}"


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
