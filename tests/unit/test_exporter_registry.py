"""The exporter registry and the one export-to-file flow of the CLI and the app."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage import Library, Status
from storage.errors import LibraryError
from storage.export import (
    CSV_COLUMNS,
    EXPORTERS,
    FORMATS,
    SUFFIXES,
    Exporter,
    export,
    export_pieces,
    in_batches,
    write_export,
)
from storage.export.json_array import json_array_pieces
from storage.export.markdown import _ended
from storage.files.triage_file import TriageState
from storage.models import Paper
from tui.cli import main


@pytest.mark.parametrize("exporter", EXPORTERS, ids=lambda e: e.name)
def test_every_exporter_is_declared_whole(exporter: Exporter) -> None:
    assert exporter.name == exporter.name.lower() and exporter.label and exporter.description
    assert exporter.suffix.startswith(".") and SUFFIXES[exporter.name] == exporter.suffix
    assert callable(exporter.pieces)


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


# -- written in pieces ---------------------------------------------------------------------


def many_papers(n: int) -> list[Paper]:
    return [
        Paper(
            id=f"{i:012x}",
            title=f"Paper {i}: a title with é, {{braces}} and -- dashes",
            abstract=f"Abstract {i}. $x_{i}$ and\n\nA second paragraph, *stars*.",
            authors=(f"Ann Lee{i}", "Bo Li"),
            url=f"https://127.0.0.1/p{i}",
            list="L",
            lists=("L",),
            position=i,
        )
        for i in range(n)
    ]


@pytest.mark.parametrize("n", [0, 1, 255, 256, 257, 513])
def test_a_json_array_in_pieces_is_the_array_dumped_whole(n: int) -> None:
    """Batches of 256 items: at their edges the text is that of one array."""
    items = [{"id": i, "nested": {"list": [i, "x\ny"]}, "empty": {}} for i in range(n)]
    whole = orjson.dumps(items, option=orjson.OPT_INDENT_2).decode() + "\n"
    assert "".join(json_array_pieces(iter(items))) == whole


@pytest.mark.parametrize("n", [0, 1, 256, 257, 600])
def test_csv_in_pieces_is_each_paper_s_row_in_order(n: int) -> None:
    """Rows go out 256 at a time: none is lost, doubled or split at the edges."""
    papers = many_papers(n)
    triage = TriageState()
    rows = list(csv.reader(io.StringIO(export(papers, triage, "csv"))))
    assert rows[0] == list(CSV_COLUMNS)
    alone = [list(csv.reader(io.StringIO(export([p], triage, "csv"))))[1] for p in papers]
    assert rows[1:] == alone


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["", "a", "\n", "b\n", "\n\n", "c d", " "]), max_size=12))
def test_markdown_lines_end_as_joined_and_stripped(lines: list[str]) -> None:
    assert "".join(_ended(iter(lines))) == "\n".join(lines).rstrip("\n") + "\n"


@pytest.mark.parametrize("size", [1, 7, 1 << 20])
def test_batches_keep_the_text(size: int) -> None:
    pieces = ["ab", "", "c", "défg", "", "h" * 10]
    batches = list(in_batches(iter(pieces), size))
    assert "".join(batches) == "".join(pieces)
    assert all(batches) and all(len(b) >= size for b in batches[:-1])
    assert list(in_batches(iter(["", ""]), size)) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_written_in_pieces_is_the_export(fmt: str, tmp_path: Path) -> None:
    papers = many_papers(600)
    triage = TriageState()
    target = tmp_path / f"out{SUFFIXES[fmt]}"
    write_export(target, export_pieces(papers, triage, fmt), f"x{SUFFIXES[fmt]}")
    assert target.read_text(encoding="utf-8") == export(papers, triage, fmt)


class Interrupted(Exception):
    pass


@pytest.mark.parametrize("failure", [Interrupted, KeyboardInterrupt])
def test_an_export_that_fails_half_written_leaves_the_file_as_it_was(
    tmp_path: Path, failure: type[BaseException]
) -> None:
    """A writer that raises (or a Ctrl-C) after a batch has gone to the file: the old file
    stays whole and no temporary file is left."""
    target = tmp_path / "starred.md"
    target.write_text("the old export\n")

    def pieces() -> Iterator[str]:
        yield "x" * (3 << 20)  # three batches' worth: written before the failure
        raise failure()

    with pytest.raises(failure):
        write_export(target, pieces(), "starred.md", replace=True)
    assert target.read_text() == "the old export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["starred.md"]


@pytest.mark.parametrize("exporter", EXPORTERS, ids=lambda e: e.name)
def test_what_an_exporter_heeds_is_what_changes_its_output(exporter: Exporter) -> None:
    """``Exporter.heeds`` is what ``papers export`` refuses for the other formats: an option
    a format declares it ignores leaves its text as it was, one it heeds changes it."""
    triage = TriageState()
    papers = [
        Paper(id=f"{n:012x}", title=f"Paper {n}", abstract=f"Abstract number {n} of the list.")
        for n in range(3)
    ]
    plain = export(papers, triage, exporter.name)
    for option, value in (("group_by", "venue"), ("abstracts", True)):
        asked = export(papers, triage, exporter.name, **{option: value})  # type: ignore[arg-type]
        assert (asked != plain) == (option in exporter.heeds), option
