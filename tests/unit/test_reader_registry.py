"""The reader registry: each format declared once, picked in a fixed precedence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage.errors import SourceError
from storage.sources.json_lists import JSON
from storage.sources.records import Fit, Reader
from storage.sources.registry import (
    LIST_SUFFIXES,
    READERS,
    SHOWN_ORDER,
    list_files,
    read_text_content,
    readable_formats,
    reader_for,
)
from tui.cli import build_parser

ABSTRACT = (
    "We propose ParaSolver, a hierarchical parallel sampling technique for diffusion models "
    "that cuts latency by an order of magnitude on standard image benchmarks."
)


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.label)
def test_every_reader_is_declared_whole(reader: Reader) -> None:
    assert reader.name and reader.label
    # a format told by its content alone, whose files are another's (``.txt``), names none
    assert reader.suffixes or reader.name in (
        "IEEE Xplore plain text",
        "ScienceDirect plain text",
        "DBLP XML",  # ``.xml``, EndNote XML's
    )
    assert all(s.startswith(".") and s == s.lower() for s in reader.suffixes)
    assert callable(reader.sniff) and callable(reader.read)


def test_names_and_suffixes_are_unique_and_make_the_folder_suffixes() -> None:
    names = [r.name for r in READERS]
    suffixes = [s for r in READERS for s in r.suffixes]
    assert len(set(names)) == len(names)
    assert len(set(suffixes)) == len(suffixes)
    assert set(suffixes) == LIST_SUFFIXES


def test_help_texts_show_every_reader_once() -> None:
    # the readers are declared twice (precedence, and the order help texts show): a reader
    # missing from SHOWN_ORDER would silently drop out of every help text
    shown = [r.name for r in SHOWN_ORDER]
    assert sorted(shown) == sorted(r.name for r in READERS)
    assert readable_formats() == ", ".join(r.label for r in SHOWN_ORDER)


def test_a_folder_picks_up_a_file_of_every_reader(tmp_path: Path) -> None:
    for reader in READERS:
        for suffix in reader.suffixes:
            (tmp_path / f"list{suffix}").write_text(ABSTRACT)
    (tmp_path / "notes.docx").write_text(ABSTRACT)
    assert {p.suffix for p in list_files(tmp_path)} == LIST_SUFFIXES


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("list.txt", ABSTRACT, "plain text"),
        ("list.txt", json.dumps([{"abstract": ABSTRACT}]), "JSON"),
        ("list.txt", json.dumps({"abstract": ABSTRACT}), "JSON"),
        ("list.jsonl", json.dumps({"abstract": ABSTRACT}), "JSON Lines"),
        ("list.jsonl", json.dumps([{"abstract": ABSTRACT}]), "JSON"),
        ("list.json", "title,abstract\nA,B\n", "JSON"),  # named JSON: read as JSON, or refused
        ("list.jsonl", "title,abstract\nA,B\n", "JSON Lines"),
        ("list.txt", "title,abstract\nA,B\n", "CSV/TSV"),
        ("list.csv", ABSTRACT, "CSV/TSV"),
        ("list.csv", json.dumps([{"abstract": ABSTRACT}]), "JSON"),
        ("list", ABSTRACT, "plain text"),
    ],
)
def test_the_strongest_fit_reads_the_file(name: str, text: str, expected: str) -> None:
    reader = reader_for(text, Path(name))
    assert reader is not None and reader.name == expected


def test_sniffs_say_how_strongly() -> None:
    assert JSON.sniff("  [1]", Path("x.txt")) == Fit.OPENS
    assert JSON.sniff("hello", Path("x.json")) == Fit.NAMED
    assert JSON.sniff("hello", Path("x.txt")) == Fit.NO


def test_a_file_no_reader_takes_gets_one_line_naming_the_formats_tried(tmp_path: Path) -> None:
    with pytest.raises(SourceError) as caught:
        read_text_content(ABSTRACT, tmp_path / "list.txt", readers=(JSON,))
    text = str(caught.value)
    assert "\n" not in text and str(tmp_path / "list.txt") in text
    assert "tried JSON" in text


def test_help_texts_name_the_formats_from_the_registry(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    formats = (
        "text, JSON, JSONL, CSV, BibTeX, RIS, EndNote, EndNote XML, Zotero RDF, DBLP XML, "
        "Web of Science, PubMed MEDLINE, CSL-JSON, Markdown, arXiv Atom, arXiv listing emails, "
        "IEEE Xplore text, ScienceDirect text, papers-tui library"
    )
    assert readable_formats() == formats
    assert readable_formats(folder=True) == f"{formats} or a folder"
    monkeypatch.setenv("COLUMNS", "300")  # one line per option: the formats are not wrapped
    with pytest.raises(SystemExit):
        build_parser().parse_args(["import", "--help"])
    assert f"({readable_formats()})" in capsys.readouterr().out
