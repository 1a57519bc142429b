"""A paper whose only change at a re-import is its place in its list is not "updated"."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library

ABSTRACTS = {
    name: f"We introduce {name}, a method that makes {topic} faster and cheaper than before."
    for name, topic in [("Alpha", "sorting"), ("Beta", "parsing"), ("Gamma", "hashing")]
}


def write_list(path: Path, titles: list[str]) -> None:
    rows = [{"title": title, "abstract": ABSTRACTS[title.split()[0]]} for title in titles]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_papers_moved_by_the_source_are_stored_in_its_order_not_counted_updated(
    home: Path, tmp_path: Path
) -> None:
    """The service listed Gamma first once decided: Gamma changed, Alpha and Beta only moved."""
    source = tmp_path / "venue.jsonl"
    write_list(source, ["Alpha", "Beta", "Gamma"])
    library = Library(home)
    library.import_file(source)
    write_list(source, ["Gamma (accepted)", "Alpha", "Beta"])
    report = Library(home).import_file(source)
    assert (report.added, report.updated, report.skipped) == (0, 1, 2)
    papers = Library(home).papers()
    assert [p.title for p in papers] == ["Gamma (accepted)", "Alpha", "Beta"]
    assert [p.position for p in papers] == [0, 1, 2]


def test_a_library_imported_into_itself_changes_nothing(seeded_home: Path, tmp_path: Path) -> None:
    """Its papers.json is a new file of its lists at first, so starts after their papers;
    imported again, every paper shifts by as much: the same order, nothing to write."""
    copy = tmp_path / "copy" / "papers.json"
    copy.parent.mkdir()
    copy.write_bytes((seeded_home / "papers.json").read_bytes())
    order = [p.id for p in Library(seeded_home).papers()]
    for _ in range(2):
        copy.write_bytes((seeded_home / "papers.json").read_bytes())
        before = (seeded_home / "papers.json").read_bytes()
        report = Library(seeded_home).import_file(copy)
        assert (report.added, report.updated, report.skipped) == (0, 0, 38)
        assert [p.id for p in Library(seeded_home).papers()] == order
    assert (seeded_home / "papers.json").read_bytes() == before
