"""The user's notes of a BibTeX entry read whole: Zotero's BibTeX writes an ``annote`` a note,
its BibLaTeX an ``annotation`` a note (``zotero/translators`` ``BibLaTeX.js``), some tools
both; a note is never refused for its length (it is cut at the note's cap, said), and a note
our own export wrote, at the cap, reads back as it was."""

from __future__ import annotations

from pathlib import Path

from storage import Library
from storage.caps import MAX_NOTE_CHARS
from storage.export import export
from storage.models import ImportReport

HEAD = "@article{{{key},\n  title = {{{title}}},\n  author = {{Lee, Ann}},\n  year = {{2024}},\n"


def _imported(tmp_path: Path, text: str) -> tuple[ImportReport, dict[str, str], Library]:
    path = tmp_path / "notes.bib"
    path.write_text(text, encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(path)
    notes = {p.title: library.triage().notes.get(p.id, "") for p in library.papers()}
    return report, notes, library


def test_annote_and_annotation_of_one_entry_are_both_kept_once_each(tmp_path: Path) -> None:
    """``annotation`` beside ``annote`` was dropped in silence (the first named read); both
    are the note now, a blank line between them, and one text written in both is kept once."""
    text = (
        HEAD.format(key="two", title="Sparse Attention at Scale")
        + "  annote = {Read section 3 first.},\n"
        + "  annotation = {Compare with table 2},\n}\n"
        + HEAD.format(key="same", title="Dense Attention at Scale")
        + "  annotation = {Same text.},\n  annote = { Same text.},\n}\n"
        # Zotero's BibLaTeX: an annotation a note
        + HEAD.format(key="biblatex", title="Graph Flows for Everyone")
        + "  annotation = {Comment: 12 pages},\n  annotation = {My own note},\n}\n"
    )
    report, notes, _ = _imported(tmp_path, text)
    assert (report.added, report.errors, report.warnings) == (3, [], [])
    assert notes == {
        "Sparse Attention at Scale": "Read section 3 first.\n\nCompare with table 2",
        "Dense Attention at Scale": "Same text.",
        "Graph Flows for Everyone": "Comment: 12 pages\n\nMy own note",
    }


def test_a_long_plain_annote_is_cut_at_the_notes_cap_and_said_not_blamed_on_macros(
    tmp_path: Path,
) -> None:
    """A 10 MB ``annote`` with no macro at all was refused: "a value grows past 50,000
    characters by its macros". It is the paper's note now, cut at the cap, and the warning
    says how long the notes were; the repository its end links is still the paper's code."""
    late = "https://github.com/example/late\\_notes"
    body = "word " * 2_000_000 + f"Code at {late}"
    report, notes, library = _imported(
        tmp_path, HEAD.format(key="big", title="Big Notes") + f"  annote = {{{body}}},\n}}\n"
    )
    assert (report.added, report.errors) == (1, [])
    [warning] = report.warnings
    assert f"@article{{big}} (line 1): its notes are {len(body):,} characters long" in warning
    assert f"the first {MAX_NOTE_CHARS:,} kept as its note" in warning
    assert "macros" not in warning
    note = notes["Big Notes"]
    assert len(note) == MAX_NOTE_CHARS and note.startswith("word word") and note.endswith("…")
    [paper] = library.papers()
    assert paper.github == ("https://github.com/example/late_notes",)


def test_a_note_our_export_wrote_at_the_cap_reads_back_whole(tmp_path: Path) -> None:
    """Our BibTeX export writes a note of the cap in one ``annote``: 60,000 characters, or
    fewer beyond ASCII (each written in up to 57), were refused on import as grown "by its
    macros", so an export of one's notes did not import into an empty library."""
    text = HEAD.format(key="a", title="Sparse Attention at Scale") + "}\n"
    _, _, library = _imported(tmp_path, text)
    [paper] = library.papers()
    note = (("日本語のノート、" + "plain_words " * 3)[:44] * (MAX_NOTE_CHARS // 44)).strip()
    library.set_note(paper.id, note)
    written = export([paper], library.triage(), "bibtex")
    assert len(written) > 50_000
    again = tmp_path / "again"
    again.mkdir()
    report, notes, _ = _imported(again, written)
    assert (report.added, report.errors, report.warnings) == (1, [], [])
    assert notes == {"Sparse Attention at Scale": note}


def test_another_long_field_is_refused_for_its_length_not_for_macros(tmp_path: Path) -> None:
    """A field other than a note, longer than a field may be: the refusal says its length."""
    title = "Long " * 12_000
    text = HEAD.format(key="t", title=title) + "}\n" + HEAD.format(key="b", title="B") + "}\n"
    report, _, _ = _imported(tmp_path, text)
    [error] = report.errors
    assert "title: its value is 60,000 characters long (at most 50,000 a field)" in str(error)


def test_a_crossref_parents_long_note_is_read_once_for_its_children(tmp_path: Path) -> None:
    """A ``crossref`` parent lends its note to each of its children: no longer refused at
    50,000 characters, a note of megabytes was read from its TeX again for each child, and a
    file of 3 MB, 200 papers of one proceedings with a note of 2.8 MB, took 56 s to import
    (1 s before the note's cap went; 1 s now). Its links are each child's code too."""
    import time

    from storage.sources.bibtex import read_bibtex

    repo = "https://github.com/example/late_repo"
    note = "word \\_ " * 200_000 + f"Code at {repo.replace('_', chr(92) + '_')}"
    parent = "@proceedings{P,\n  title = {Proceedings of Things},\n  year = {2024},\n"
    children = "".join(
        HEAD.format(key=f"c{k}", title=f"Paper {k} on Sparse Things") + "  crossref = {P}\n}\n"
        for k in range(100)
    )
    started = time.process_time()
    result = read_bibtex(f"{parent}  annote = {{{note}}}\n}}\n{children}", tmp_path / "p.bib")
    assert time.process_time() - started < 5
    assert len(result.records) == 100 and not result.errors
    for record in result.records:
        assert record.decision is not None and record.decision.note.startswith("word _ word _")
        assert len(record.decision.note) == MAX_NOTE_CHARS and record.github == (repo,)
