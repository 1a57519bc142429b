"""The export formats the CLI's arguments offer (``storage.export.names``) are the exporters'
own, and a command that exports nothing starts without the exporters."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from storage.export import names, registry
from storage.export.selection import GROUPINGS

REPO = Path(__file__).resolve().parents[2]


def test_the_names_are_the_exporters() -> None:
    exporters = registry.EXPORTERS
    assert names.FORMATS == tuple(e.name for e in exporters) == registry.FORMATS
    assert names.SUFFIXES == {e.name: e.suffix for e in exporters} == registry.SUFFIXES
    assert tuple(e.label for e in exporters) == names.LABELS
    assert names.GROUPINGS == GROUPINGS
    assert names.export_formats() == "Markdown, CSV, JSON, BibTeX, CSL-JSON or RIS"


#: Runs a command as ``papers`` does, then says which exporters' modules it imported.
_IMPORTED = (
    "import sys\n"
    "from tui.cli.main import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    "print(sorted(m for m in sys.modules if m.startswith('storage.export.')"
    " and m != 'storage.export.names'), file=sys.stderr)\n"
)


@pytest.mark.parametrize(
    ("command", "exporters"),
    [
        (["list"], False),
        (["stats"], False),
        (["import", "{list}"], False),  # its module names the formats (storage.export.names)
        (["export", "--format", "bibtex"], True),
    ],
)
def test_only_an_export_imports_the_exporters(
    tmp_path: Path, command: list[str], exporters: bool
) -> None:
    """Every command builds ``export``'s arguments; importing the exporters for them took some
    70 ms of ``papers list``'s start (``names`` holds what the arguments need), and ``papers
    import``, whose module reads ``names``, took the whole package with it (80 ms)."""
    listed = tmp_path / "list.jsonl"
    listed.write_text('{"title": "A paper", "abstract": "What it says."}\n', encoding="utf-8")
    command = [word.replace("{list}", str(listed)) for word in command]
    done = subprocess.run(
        [sys.executable, "-c", _IMPORTED, "--home", str(tmp_path / "home"), *command],
        capture_output=True, text=True, cwd=REPO, timeout=60,
    )  # fmt: skip
    imported = done.stderr.strip().splitlines()[-1]
    assert ("storage.export.registry" in imported) is exporters, imported
