"""The exporter registry and the one export-to-file flow of the CLI and the app."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Library, Status
from storage.errors import LibraryError
from storage.export import EXPORTERS, FORMATS, SUFFIXES, Exporter, export, write_export
from storage.files.triage_file import TriageState
from tui.cli import main


@pytest.mark.parametrize("exporter", EXPORTERS, ids=lambda e: e.name)
def test_every_exporter_is_declared_whole(exporter: Exporter) -> None:
    assert exporter.name == exporter.name.lower() and exporter.label and exporter.description
    assert exporter.suffix.startswith(".") and SUFFIXES[exporter.name] == exporter.suffix
    assert callable(exporter.write)


def test_formats_and_suffixes_come_from_the_registry() -> None:
    assert tuple(e.name for e in EXPORTERS) == FORMATS
    assert len(set(FORMATS)) == len(FORMATS) == len(set(SUFFIXES.values()))
    with pytest.raises(ValueError, match="unknown format"):
        export([], TriageState(), "docx")


@pytest.mark.parametrize("exporter", EXPORTERS, ids=lambda e: e.name)
def test_every_exporter_is_reachable_from_papers_export(
    exporter: Exporter, seeded_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = Library(seeded_home)
    first = library.papers()[0]
    library.set_status(first.id, Status.STARRED)
    out = tmp_path / "out"
    out.mkdir()
    code = main(["--home", str(seeded_home), "export", "--format", exporter.name, "-o", str(out)])
    assert code == 0, capsys.readouterr().err
    written = out / f"starred{exporter.suffix}"
    triage = library.triage()
    assert written.read_text(encoding="utf-8") == export(
        [first], triage, exporter.name, heading=f"Starred papers: {first.list}"
    )


def test_write_export_puts_the_default_name_inside_a_folder(tmp_path: Path) -> None:
    assert write_export(tmp_path, "text\n", "starred.md") == tmp_path / "starred.md"
    assert (tmp_path / "starred.md").read_text() == "text\n"
    target = tmp_path / "mine.md"
    assert write_export(target, "other\n", "starred.md") == target
    assert target.read_text() == "other\n"


def test_write_export_refuses_a_missing_folder_with_one_line(tmp_path: Path) -> None:
    with pytest.raises(LibraryError) as caught:
        write_export(tmp_path / "no" / "such" / "x.md", "text\n", "starred.md")
    message = str(caught.value)
    assert "\n" not in message and "no such folder" in message
    assert str(tmp_path / "no" / "such") in message
    assert not (tmp_path / "no").exists()


def test_a_failed_write_is_one_line_naming_the_file(tmp_path: Path) -> None:
    target = tmp_path / ("x" * 300 + ".md")  # longer than any file system allows
    with pytest.raises(LibraryError) as caught:
        write_export(target, "text\n", "starred.md")
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{target}: cannot write")
    assert list(tmp_path.iterdir()) == []
