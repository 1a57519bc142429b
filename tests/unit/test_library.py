"""The library: import, ids, re-import, catalog, triage, undo/redo, notes, tags, stats, files."""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import date
from pathlib import Path

import pytest

from storage import Library, Status
from storage.errors import DamagedFileError, NewerFileError, SourceError, UnknownPaperError
from storage.files.papers_file import paper_from_doc, paper_to_doc
from storage.files.triage_file import HISTORY_LIMIT
from storage.importing.replay import REPLAY_FILE
from storage.models import Paper
from storage.sources.papers import paper_id
from tests.helpers import home_files

SEED_LINKS = {
    "https://github.com/LINs-lab/CollabEdit",
    "https://github.com/Jianrong-Lu/ParaSolver",
    "https://github.com/agiresearch/AIOS-LSFS",
    "https://github.com/bryanbocao/fca",
    "https://github.com/Rezaei-Parham/Mixture-UCB",
    "https://github.com/thu-ml/ReMoE",
    "https://github.com/Master-PLC/FreDF",
    "https://github.com/Eric-qi/NeuroQuant",
}


def test_seed_import(home: Path, sample_files: list[Path]) -> None:
    lib = Library(home)
    report = lib.import_files(sample_files)
    assert (report.added, report.updated, report.skipped, report.errors) == (38, 0, 0, [])
    papers = lib.papers()
    assert len(papers) == 38
    assert {u for p in papers for u in p.github} == SEED_LINKS
    assert sum(1 for p in papers if p.github) == 8
    assert all(len(p.id) == 12 and int(p.id, 16) >= 0 for p in papers)
    assert all(p.title and len(p.title) <= 100 and p.title_derived for p in papers)
    assert [p.list for p in papers[:1]] == ["ICLR 2025 论文列表"]
    assert [p.position for p in papers[:19]] == list(range(19))
    released = [p for p in papers if "released on GitHub" in p.abstract]
    assert released and all(not p.github for p in released)


def test_reimport_changes_nothing_and_keeps_decisions(
    library: Library, sample_files: list[Path]
) -> None:
    first = library.papers()[0]
    library.set_status(first.id, Status.STARRED)
    library.set_note(first.id, "read this")
    before = library.triage_path.read_bytes()
    report = library.import_files(sample_files)
    assert (report.added, report.updated, report.skipped) == (0, 0, 38)
    assert library.triage_path.read_bytes() == before
    assert library.status(first.id) is Status.STARRED
    assert [p.id for p in library.papers()] == [p.id for p in Library(library.home).papers()]


def test_a_reimport_that_changes_no_paper_writes_nothing(
    seeded_home: Path, sample_files: list[Path]
) -> None:
    """Not even the list's stamp: papers.json rewritten would make every derived file again
    (12,000 papers: 3.5-4.1 s for an import that changed nothing, 2.2-2.6 s without)."""
    library = Library(seeded_home)
    library.loaded_papers()  # a copied HOME: papers.key learns the copy's stamp once

    def files() -> dict[str, tuple[int, int, bytes]]:
        """Every file, derived ones too, by name: its inode, change of contents, bytes."""
        return {
            p.name: (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes())
            for p in sorted(seeded_home.iterdir())
            if p.is_file() and not p.name.startswith(".")
        }

    written = files()
    assert {"papers.json", "papers.cache", "search.index", "similar.index"} <= set(written)
    report = Library(seeded_home).import_files(sample_files)
    assert (report.added, report.updated, report.skipped) == (0, 0, 38)
    # only its report is kept, for the next such import (``storage.importing.replay``)
    after = files()
    assert after.pop(REPLAY_FILE) and after == written
    lists = Library(seeded_home).lists()
    assert [(x.name, x.size) for x in lists] == [(x.name, x.size) for x in library.lists()]


def test_id_is_stable_across_sources_and_unicode_forms(home: Path, tmp_path: Path) -> None:
    abstract = "We introduce ﬁne-grained EXAMPLE models, a new family of benchmarks for testing."
    assert paper_id(abstract) == paper_id(abstract.replace("ﬁ", "fi").upper() + "  ")
    (tmp_path / "a.txt").write_text(f"List A\n\n{abstract}\n")
    (tmp_path / "b.jsonl").write_text(json.dumps({"title": "EXAMPLE", "abstract": abstract}) + "\n")
    lib = Library(home)
    lib.import_file(tmp_path / "a.txt")
    report = lib.import_file(tmp_path / "b.jsonl")
    assert (report.added, report.updated) == (0, 1)
    [paper] = lib.papers()
    assert paper.title == "EXAMPLE" and not paper.title_derived
    assert paper.list == "List A" and paper.lists == ("List A", "b")


def test_catalog_gives_the_seeds_their_real_titles(
    home: Path, sample_files: list[Path], real_list: Path
) -> None:
    lib = Library(home)
    report = lib.import_files(sample_files, catalog=real_list)
    assert report.added == 38
    papers = lib.papers()
    assert all(not p.title_derived for p in papers)
    assert all(p.authors and p.url.startswith("https://openreview.net/") for p in papers)
    assert {p.venue_status for p in papers} <= {"Oral", "Spotlight", "Poster"}
    titles = {p.title for p in papers}
    assert "ParaSolver: A Hierarchical Parallel Integral Solver for Diffusion Models" in titles


def test_real_list_links_and_order(home: Path, real_list: Path) -> None:
    lib = Library(home)
    report = lib.import_file(real_list)
    assert report.added == 3703 and not report.errors
    papers = lib.papers()
    raw = [json.loads(line) for line in real_list.read_text(encoding="utf-8").splitlines()]
    assert [p.title for p in papers[:5]] == [r["title"] for r in raw[:5]]
    assert sum(len(p.github) for p in papers) >= 715


def test_failed_import_leaves_files_byte_for_byte(library: Library, tmp_path: Path) -> None:
    library.set_status(library.papers()[0].id, "read")
    before = home_files(library.home)
    good = tmp_path / "good.txt"
    good.write_text(
        "New list\n\n" + "We propose a brand new method for something entirely different. " * 3
    )
    bad = tmp_path / "bad.json"
    bad.write_text('[{"abstract": "tru')
    with pytest.raises(SourceError):
        library.import_files([good, bad])
    assert home_files(library.home) == before
    assert len(library.papers()) == 38


def test_status_undo_redo_across_restarts(library: Library) -> None:
    a, b, c = (p.id for p in library.papers()[:3])
    library.set_status(a, Status.STARRED)
    library.set_status(b, "skipped")
    library.set_statuses([a, c], Status.READ)
    reopened = Library(library.home)
    assert reopened.statuses() == {a: Status.READ, b: Status.SKIPPED, c: Status.READ}
    assert reopened.undo() == [(c, Status.READ, Status.INBOX), (a, Status.READ, Status.STARRED)]
    again = Library(library.home)
    assert again.statuses() == {a: Status.STARRED, b: Status.SKIPPED}
    assert again.undo() == [(b, Status.SKIPPED, Status.INBOX)]
    assert again.redo() == [(b, Status.INBOX, Status.SKIPPED)]
    assert again.redo() == [(a, Status.STARRED, Status.READ), (c, Status.INBOX, Status.READ)]
    assert again.redo() == []
    assert again.undo() and again.undo() and again.undo()
    assert again.undo() == []
    assert again.statuses() == {}


def test_a_new_decision_drops_the_redo_steps(library: Library) -> None:
    a, b = (p.id for p in library.papers()[:2])
    library.set_status(a, "starred")
    library.undo()
    library.set_status(b, "read")
    assert library.redo() == []
    assert library.statuses() == {b: Status.READ}


def test_same_status_is_no_step(library: Library) -> None:
    a = library.papers()[0].id
    library.set_status(a, "read")
    assert library.set_status(a, "read") == []
    assert library.undo() == [(a, Status.READ, Status.INBOX)]
    assert library.undo() == []


def test_history_is_capped(library: Library) -> None:
    a = library.papers()[0].id
    for i in range(HISTORY_LIMIT + 20):
        library.set_status(a, "read" if i % 2 else "starred")
    raw = json.loads(library.triage_path.read_text())
    assert len(raw["history"]) == HISTORY_LIMIT


def test_ids_resolve_by_unique_prefix(library: Library) -> None:
    pid = library.papers()[0].id
    assert library.resolve_id(pid[:8].upper()) == pid
    with pytest.raises(UnknownPaperError):
        library.resolve_id("zzzzzzzz")
    with pytest.raises(UnknownPaperError):
        library.resolve_id(pid[:2])


def test_notes_and_tags(library: Library) -> None:
    pid = library.papers()[0].id
    library.set_note(pid, "  compare with ParaSolver  ")
    assert library.set_tags(pid, ["Diffusion", "to read", "diffusion"]) == ()  # the tags it had
    snap = Library(library.home).triage()
    assert snap.notes == {pid: "compare with ParaSolver"}
    assert snap.tags == {pid: ("diffusion", "to-read")}
    library.set_note(pid, "")
    assert library.set_tags(pid, []) == ("diffusion", "to-read")
    # nothing kept of the paper but when its note and tags were cleared (sync sends that)
    [doc] = json.loads(library.triage_path.read_text())["decisions"].values()
    assert set(doc) == {"na", "ga"}


def test_stats(library: Library) -> None:
    ids = [p.id for p in library.papers()]
    library.set_statuses(ids[:5], "read")
    library.set_status(ids[5], "starred")
    stats = library.stats()
    assert stats.total == 38 and stats.triaged == 6
    assert stats.by_status[Status.READ] == 5
    assert stats.by_list["ICLR 2025 论文列表"][Status.READ] == 5
    [today] = stats.days
    assert today.day == date.today() and today.total == 6
    assert stats.rate_per_day == 6
    assert stats.days_to_empty_inbox == pytest.approx(32 / 6)
    library.undo()
    assert library.stats().days[0].total == 5
    assert library.stats().to_json()["by_status"]["starred"] == 0


@pytest.mark.parametrize("name", ["papers.json", "triage.json"])
@pytest.mark.parametrize(
    "damage", [b'{"papers": {"1": {"id"', b"not json at all", b"[1, 2]", b"", b'{"papers": [1]}']
)
def test_damaged_files_are_refused_and_left_alone(
    library: Library, name: str, damage: bytes
) -> None:
    library.set_status(library.papers()[0].id, "read")
    path = library.home / name
    path.write_bytes(damage)
    fresh = Library(library.home)
    with pytest.raises(DamagedFileError) as caught:
        fresh.check()
        fresh.set_status(fresh.papers()[1].id, "starred")
    message = str(caught.value)
    assert str(path) in message and "\n" not in message
    assert path.read_bytes() == damage


def test_damaged_file_names_its_backup(library: Library) -> None:
    pid = library.papers()[0].id
    library.set_status(pid, "read")
    library.set_status(pid, "starred")
    good = library.triage_path.read_bytes()
    assert (library.home / "triage.json.bak").exists()
    library.triage_path.write_bytes(good[: len(good) // 2])
    with pytest.raises(DamagedFileError, match=r"triage\.json\.bak"):
        Library(library.home).check()
    # recovering as the message says gives the previous version back
    (library.home / "triage.json.bak").replace(library.triage_path)
    assert Library(library.home).status(pid) is Status.READ


def test_previous_schema_opens_and_migrates(library: Library) -> None:
    a, b = (p.id for p in library.papers()[:2])
    v1 = {
        "meta": {"1": {"schema": 1, "kind": "triage"}},
        "decisions": {
            "1": {"paper_id": a, "status": "starred", "note": "old note"},
            "2": {"paper_id": b, "status": "read"},
        },
        "history": {
            "1": {"id": a, "old": "inbox", "new": "starred", "at": 1.0},
            "2": {"id": b, "old": "inbox", "new": "read", "at": 2.0},
        },
    }
    library.triage_path.write_text(json.dumps(v1))
    lib = Library(library.home)
    assert lib.statuses() == {a: Status.STARRED, b: Status.READ}
    assert lib.triage().notes == {a: "old note"}
    assert sum(d.total for d in lib.days()) == 2  # progress kept: days rebuilt from the log
    assert lib.undo() == [(b, Status.READ, Status.INBOX)]
    stored = json.loads(lib.triage_path.read_text())
    assert stored["meta"]["1"]["schema"] == 3  # the current schema (3: ids of importing.identity)
    assert Library(library.home).statuses() == {a: Status.STARRED}


def test_newer_schema_is_refused(library: Library) -> None:
    library.triage_path.write_text(json.dumps({"meta": {"1": {"schema": 99}}}))
    with pytest.raises(NewerFileError, match="newer papers-tui"):
        Library(library.home).statuses()


def test_files_of_one_list_keep_their_places_on_reimport(
    home: Path, sample_files: list[Path]
) -> None:
    first, second = sample_files
    lib = Library(home)
    lib.import_files([first, second], list_name="Mine")  # one run, two files
    order = [p.id for p in lib.papers()]
    assert [p.position for p in lib.papers()] == list(range(38))
    report = lib.import_file(second, list_name="Mine")
    assert (report.added, report.updated, report.skipped) == (0, 0, 19)
    lib.import_file(first, list_name="Mine")
    assert [p.id for p in lib.papers()] == order
    [info] = lib.lists()
    assert info.sources == (str(first), str(second)) and info.size == 38


def test_a_later_file_goes_after_the_list(home: Path, sample_files: list[Path]) -> None:
    first, second = sample_files
    lib = Library(home)
    lib.import_file(first, list_name="Mine")
    lib.import_file(second, list_name="Mine")
    lib.import_file(second, list_name="Mine")
    assert [p.position for p in lib.papers()] == list(range(38))
    assert [p.id for p in lib.papers()][:19] == [p.id for p in Library(home).papers()][:19]


def test_every_paper_field_survives_the_file() -> None:
    """paper_from_doc is positional (fast at start): a field added to Paper must be read back."""
    paper = Paper(
        id="0123456789abcdef", title="T", abstract="A", authors=("a", "b"), github=("g",),
        url="u", keywords=("k",), venue_status="Oral", list="L", position=7,
        title_derived=True, name="N", lists=("L", "M"),
    )  # fmt: skip
    assert paper_from_doc(paper_to_doc(paper)) == paper
    assert tuple(paper_to_doc(paper)) == tuple(f.name for f in fields(Paper))
    minimal = paper_from_doc({"id": "0123456789abcdef", "title": "T", "abstract": "A"})
    assert minimal == Paper(id="0123456789abcdef", title="T", abstract="A")
