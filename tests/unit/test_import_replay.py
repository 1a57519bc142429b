"""A re-import that changes nothing, of files as they were, answered from ``imports.replay``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import orjson
import pytest

from storage import Library, Status
from storage.importing.replay import REPLAY_FILE
from storage.models import ImportReport

ABSTRACT = (
    "We study paper number {n} in a benchmark of retrieval for long documents, with {n} "
    "queries and a new estimator whose variance we bound; results improve by {n}.5 points."
)


def write_list(path: Path, count: int, *, first: int = 0) -> Path:
    lines = [
        json.dumps({"title": f"Paper {n}", "abstract": ABSTRACT.format(n=n)})
        for n in range(first, first + count)
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def outcome(report: ImportReport) -> tuple[object, ...]:
    """Everything a report says but whether it was replayed."""
    return (
        report.added, report.updated, report.skipped, report.read, report.errors,
        report.merged, report.apart, report.lists, report.warnings, report.summary(),
    )  # fmt: skip


@pytest.fixture
def listed(home: Path, tmp_path: Path) -> Path:
    """A list of 30 papers with a duplicate and a refused record, imported once."""
    path = write_list(tmp_path / "talks.jsonl", 30)
    with path.open("a", encoding="utf-8") as handle:  # the same paper twice, a broken record
        handle.write(json.dumps({"title": "Paper 3", "abstract": ABSTRACT.format(n=3)}) + "\n")
        handle.write("{not json\n")
    Library(home).import_file(path)
    return path


def test_the_second_unchanged_reimport_is_the_first_ones_report_without_reading(
    home: Path, listed: Path
) -> None:
    first = Library(home).import_file(listed)  # changes nothing: its report is kept
    assert (first.added, first.updated, first.skipped) == (0, 0, 30)
    assert first.merged and first.errors and not first.replayed
    assert (home / REPLAY_FILE).is_file()
    papers_json = (home / "papers.json").read_bytes()

    again = Library(home).import_file(listed)
    assert again.replayed
    assert outcome(again) == outcome(first)
    assert (home / "papers.json").read_bytes() == papers_json
    # a copy of the file, elsewhere in time: the same content is the same import
    shutil.copy(listed, listed.with_suffix(".tmp"))
    listed.with_suffix(".tmp").replace(listed)
    assert Library(home).import_file(listed).replayed


def test_the_cli_says_the_files_were_not_read_again(home: Path, listed: Path) -> None:
    import subprocess
    import sys

    command = [sys.executable, "-m", "tui", "--home", str(home), "import", str(listed)]
    runs = [subprocess.run(command, capture_output=True, text=True, check=True) for _ in "ab"]
    first, second = (run.stdout.splitlines() for run in runs)
    assert first[0] == second[0] and "0 added, 0 updated, 30 skipped (unchanged)" in first[0]
    assert "not read again" not in runs[0].stdout
    assert second[-1].strip().endswith("not read again)")


def test_a_changed_file_is_read_again(home: Path, listed: Path) -> None:
    Library(home).import_file(listed)
    text = listed.read_text(encoding="utf-8")
    # the same size, one title changed in the middle of the file
    listed.write_text(text.replace('"Paper 17"', '"Paper X7"'), encoding="utf-8")
    assert len(listed.read_bytes()) == len(text.encode())
    report = Library(home).import_file(listed)
    assert not report.replayed and report.updated == 1
    assert any(p.title == "Paper X7" for p in Library(home).papers())


def test_papers_changed_since_read_the_file_again(home: Path, listed: Path) -> None:
    library = Library(home)
    library.import_file(listed)
    gone = next(p for p in library.papers() if p.title == "Paper 5")
    library.remove([gone.id])
    report = Library(home).import_file(listed)
    assert not report.replayed and report.added == 1
    assert gone.id in {p.id for p in Library(home).papers()}


def test_another_list_name_or_limit_is_another_import(home: Path, listed: Path) -> None:
    from storage.sources.limits import ReadLimits

    Library(home).import_file(listed)
    assert not Library(home).import_file(listed, list_name="Talks").replayed
    assert not Library(home).import_file(listed, list_name="Talks").replayed  # papers.json moved
    again = Library(home).import_files([listed], list_name="Talks")
    assert again.replayed
    other = Library(home).import_files([listed], list_name="Talks", limits=ReadLimits(10**7))
    assert not other.replayed


def test_decisions_a_file_carries_are_never_replayed(home: Path, tmp_path: Path) -> None:
    path = write_list(tmp_path / "mine.jsonl", 5)
    library = Library(home)
    library.import_file(path)
    exported = tmp_path / "export.json"
    records = [
        {"title": p.title, "abstract": p.abstract, "status": "read"} for p in library.papers()
    ]
    exported.write_text(json.dumps(records), encoding="utf-8")
    for _ in range(3):
        report = Library(home).import_file(exported)
        assert not report.replayed and report.carried == 5
    # a decision undone here is taken again from the file: the import was not skipped
    first = Library(home).papers()[0]
    Library(home).set_status(first.id, Status.INBOX)
    Library(home).import_file(exported)
    assert Library(home).status(first.id) is Status.READ


def test_an_export_whose_pdfs_were_not_there_is_read_again_once_they_are(
    home: Path, tmp_path: Path
) -> None:
    """A Zotero export read where its files/ folder was not: its report said the PDF was not
    found, and once it was put there the next import was that report again (the warning
    said again, the PDF never linked)."""
    from tests.pdf_files import paper_pdf
    from tests.unit.test_zotero_rdf import export, items

    body = (
        '<bib:Article rdf:about="#item_1"><z:itemType>journalArticle</z:itemType>'
        f"<dc:title>Paper 1</dc:title><dcterms:abstract>{ABSTRACT.format(n=1)}"
        '</dcterms:abstract><link:link rdf:resource="#item_2"/></bib:Article>'
        '<z:Attachment rdf:about="#item_2"><z:itemType>attachment</z:itemType>'
        '<rdf:resource rdf:resource="files/2/paper.pdf"/><link:type>application/pdf</link:type>'
        "</z:Attachment>"
    )
    path = export(tmp_path / "export", items(body))
    Library(home).import_file(path)
    again = Library(home).import_file(path)  # changed nothing
    assert again.skipped == 1 and "1 attached PDF not found" in again.warnings[0]
    paper_pdf(tmp_path / "export" / "files" / "2" / "paper.pdf", "Paper 1", 1)
    found = Library(home).import_file(path)
    assert not found.replayed and found.updated == 1 and not found.warnings
    assert [p.title for p in found.attached] == ["Paper 1"]


def test_a_replayed_folder_import_names_the_xml_of_other_kinds_it_passed_over(
    home: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "lists"
    folder.mkdir()
    write_list(folder / "talks.jsonl", 3)
    (folder / "pom.xml").write_text('<project xmlns="http://maven.apache.org/POM/4.0.0"/>')
    Library(home).import_file(folder)
    first = Library(home).import_file(folder)
    again = Library(home).import_file(folder)
    assert again.replayed and not first.replayed
    assert again.passed == first.passed == [str(folder / "pom.xml")]
    assert again.summary() == first.summary()


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"\x00\xff not json",
        b'{"magic": "papers-tui imports.replay", "format": 1, "entries": []}',
        b"[1, 2, 3]",
    ],
)
def test_a_damaged_replay_file_is_ignored(home: Path, listed: Path, damage: bytes) -> None:
    Library(home).import_file(listed)
    (home / REPLAY_FILE).write_bytes(damage)
    report = Library(home).import_file(listed)
    assert not report.replayed and report.skipped == 30
    assert Library(home).import_file(listed).replayed  # kept again, whole


def test_a_forged_report_is_not_believed(home: Path, listed: Path) -> None:
    Library(home).import_file(listed)
    path = home / REPLAY_FILE
    data = orjson.loads(path.read_bytes())
    [entry] = data["entries"].values()
    for field, value in (("skipped", -1), ("read", 7), ("added", True), ("lists", [3])):
        forged = {**entry, "report": {**entry["report"], field: value}}
        path.write_bytes(orjson.dumps({**data, "entries": {k: forged for k in data["entries"]}}))
        report = Library(home).import_file(listed)
        assert not report.replayed and report.skipped == 30
        path.write_bytes(orjson.dumps(data))


def test_an_import_into_an_empty_library_keeps_nothing(home: Path, tmp_path: Path) -> None:
    Library(home).import_file(write_list(tmp_path / "a.jsonl", 3))
    assert not (home / REPLAY_FILE).exists()  # it changed the library: nothing to replay


def test_a_pipe_is_never_replayed(home: Path, listed: Path, tmp_path: Path) -> None:
    import os
    import threading

    from storage.sources.limits import ReadLimits

    Library(home).import_file(listed)
    fifo = tmp_path / "talks.fifo"
    for _ in range(2):
        os.mkfifo(fifo)
        feeder = threading.Thread(target=lambda: fifo.write_bytes(listed.read_bytes()))
        feeder.start()
        report = Library(home).import_files(
            [fifo], list_name="talks", limits=ReadLimits(special_files=True)
        )
        feeder.join()
        fifo.unlink()
        assert not report.replayed and report.read == 32
