"""Export → import restores a library: every status, note and tag, and the reading queue's
order, over random libraries; any export imported back into its library changes nothing,
whatever control characters its text holds and however its names are written."""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from storage import Library, Status
from storage.export import EXPORTERS, SUFFIXES, export
from storage.models import Paper

# Notes and tags of any Unicode (surrogates are no text), empty or huge.
_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
# huge: up to a note's cap of 100,000 characters (a longer one is refused, not saved)
_NOTE = st.one_of(
    st.just(""), _TEXT, _TEXT.map(lambda t: (t + "·") * min(3000, 100_000 // (len(t) + 1)))
)
_TAG = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Z")), min_size=1, max_size=12)


@st.composite
def libraries(draw: st.DrawFn) -> list[dict[str, object]]:
    """Papers with random titles and abstracts (distinct), each with a random decision."""
    count = draw(st.integers(1, 8))
    words = draw(st.lists(_TEXT, min_size=count, max_size=count))
    return [
        {
            "title": f"Paper {i}: {w}".strip(),
            "abstract": f"Abstract number {i} about {w!r}, long enough to be read as one.",
            "status": draw(st.sampled_from(list(Status))),
            "note": draw(_NOTE),
            "tags": draw(st.lists(_TAG, max_size=3)),
            # where the paper is moved to in the reading queue, once every paper is decided
            "move_to": draw(st.integers(1, count)),
        }
        for i, w in enumerate(words)
    ]


def _build(home: Path, rows: list[dict[str, object]]) -> Library:

    lib = Library(home)
    source = home.parent / f"{home.name}.jsonl"
    source.write_text("\n".join(json.dumps({k: r[k] for k in ("title", "abstract")}) for r in rows))
    lib.import_file(source)
    for paper, row in zip(lib.papers(), rows, strict=True):
        lib.set_status(paper.id, str(row["status"]))
        lib.set_note(paper.id, str(row["note"]))
        lib.set_tags(paper.id, list(row["tags"]))  # type: ignore[call-overload]
    for paper, row in zip(lib.papers(), rows, strict=True):  # the user's own queue order
        if row["status"] == Status.STARRED:
            lib.move_in_queue(paper.id, int(row["move_to"]))  # type: ignore[call-overload]
    return lib


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=libraries(), fmt=st.sampled_from(["json", "csv"]))
def test_export_then_import_into_an_empty_home_restores_everything(
    rows: list[dict[str, object]], fmt: str
) -> None:
    if fmt == "csv":  # a text file holds no NUL, and CSV reads a CR as a line break
        assume(not any(c in str(r[k]) for r in rows for k in ("title", "note") for c in "\0\r"))
    with tempfile.TemporaryDirectory() as folder:
        source = _build(Path(folder) / "source", rows)
        triage = source.triage()
        path = Path(folder) / f"export.{fmt}"
        path.write_text(export(source.papers(), triage, fmt), encoding="utf-8")
        target = Library(Path(folder) / "target")
        target.import_file(path)
        restored = target.triage()
        assert [(p.id, p.title, p.abstract, p.lists) for p in target.papers()] == [
            (p.id, p.title, p.abstract, p.lists) for p in source.papers()
        ]
        assert restored.statuses == triage.statuses
        assert restored.notes == triage.notes
        assert restored.tags == triage.tags
        assert restored.decided_at == triage.decided_at
        assert target.queue() == source.queue()


#: What a paper's text may hold from its file: ESC, BEL, an OSC sequence, DEL, the 8-bit CSI,
#: a right-to-left override, NUL, a line's ends.
HOSTILE = "\x1b[1mbold\x07 \x1b]0;x\x07 \x7f \x9b2J \u202eevil\u202c \x00 a\rb\u2028c\x85d"
#: ``HOSTILE`` in a name: without its ";", which parts two names in a CSV cell of names (as
#: in Zotero's), whatever else the name holds.
NAMED = HOSTILE.replace(";", "")
#: Names a list wrote ``Last, First``, stored as written.
COMMA_NAMES = ["O'Brien, {Zoë}", "García López, José"]


@pytest.mark.parametrize("fmt", [e.name for e in EXPORTERS])
def test_an_export_of_hostile_text_reimported_into_its_library_changes_nothing(
    tmp_path: Path, fmt: str
) -> None:
    """Whatever a format does with a control character (keeps it, shows it as Markdown
    does, or drops it as BibTeX's ASCII must), the text the library holds is kept: the
    Markdown export's ``�`` for a right-to-left override, a name BibTeX wrote without its
    ESC, a NUL written U+FFFD each made '1 updated'."""
    rows = [
        {"title": f"Title {HOSTILE} end", "authors": [f"Ann {NAMED} Lee", *COMMA_NAMES],
         "abstract": f"An abstract {HOSTILE}, long enough.\n\nIts second {HOSTILE} part."},
        {"title": f"Known by its title {HOSTILE}", "authors": [*COMMA_NAMES, f"Bo {NAMED}"]},
    ]  # fmt: skip
    library, papers = imported_again(tmp_path, rows, fmt)
    assert library.papers() == papers


def imported_again(
    tmp_path: Path, rows: list[dict[str, Any]], fmt: str
) -> tuple[Library, list[Paper]]:
    """A library of ``rows`` (a JSON list), its papers, then its export in ``fmt`` imported
    back into it, which must change nothing."""
    source = tmp_path / "list.json"
    source.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    papers = library.papers()
    path = tmp_path / f"export{SUFFIXES[fmt]}"
    path.write_text(export(papers, library.triage(), fmt, abstracts=True), encoding="utf-8")
    report = library.import_file(path)
    assert (report.added, report.updated, report.refused) == (0, 0, 0), report.summary()
    return library, papers


@pytest.mark.parametrize("fmt", [e.name for e in EXPORTERS])
def test_a_tag_with_control_characters_comes_back_as_the_same_tag(tmp_path: Path, fmt: str) -> None:
    """A tag the library holds with an ESC came back from the Markdown export shown
    (``t␛x``) and from BibTeX without it (``tx``), and re-importing the export gave the paper
    that second tag beside its own."""
    library = Library(tmp_path / "home")
    source = tmp_path / "list.jsonl"
    source.write_text(json.dumps({"title": "Tagged", "abstract": "A paper of my own, tagged."}))
    library.import_file(source)
    (paper,) = library.papers()
    library.set_tags(paper.id, [f"t{HOSTILE}", "plain"])
    tags = library.triage().tags
    path = tmp_path / f"export{SUFFIXES[fmt]}"
    path.write_text(export(library.papers(), library.triage(), fmt), encoding="utf-8")
    library.import_file(path)
    assert library.triage().tags == tags


# Text of letters and punctuation with the control characters files bring (ESC and the
# sequences it starts, BEL, DEL, the 8-bit CSI, bidirectional overrides and isolates, NUL)
# and what ends a line (CR, LF, NEL, U+2028) among them.
_CONTROL_PIECES = ["\x1b", "\x1b[1m", "\x1b]0;x\x07", "\x07", "\x7f", "\x9b", "\x9b2J", "\u202e",
                   "\u2066", "\u202c", "\x00", "\x01", "\r", "\n", "\x85", "\u2028"]  # fmt: skip
_PLAIN = st.text(st.sampled_from(list("abcxyzé ABC 0123 .:-'()")), min_size=1, max_size=6)
_HOSTILE_TEXT = st.lists(st.one_of(_PLAIN, st.sampled_from(_CONTROL_PIECES)), min_size=1,
                         max_size=6).map("".join)  # fmt: skip
# A person's name: ``First Last`` with hostile text inside, or ``Last, First`` as a list may
# write it (stored as written). No ";": it parts two names in a CSV cell of names.
_IN_NAME = _HOSTILE_TEXT.map(lambda t: t.replace(";", ""))
_NAME = st.one_of(
    st.builds(lambda t: f"Ann {t} Lee", _IN_NAME),
    st.builds(lambda t, u: f"Lee{t}, Ann{u}", _IN_NAME, _IN_NAME),
    st.sampled_from(["O'Brien, Zoë", "O'Brien, {Zoë}", "García López, José", "Le Cun, Y.",
                     "van der Berg, Jan", "Smith, John, Jr."]),
)  # fmt: skip
# A tag: no two apostrophes in a row, which LaTeX (BibTeX's tags) reads as a closing quote;
# no ";", which parts keywords in BibTeX, CSV and RIS as in a cell of names (a tag typed
# has none: papers tag and t part tags at it; one comes only from a file, an OSC sequence).
_TAG_TEXT = _HOSTILE_TEXT.map(lambda t: re.sub("'{2,}", "'", t).replace(";", ""))
#: What a file keeps of a text: its control characters (not a line's ends, nor NUL).
_KEPT_CONTROLS = re.compile("[\x01-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u202a-\u202e\u2066-\u2069]")


@st.composite
def hostile_libraries(draw: st.DrawFn) -> list[dict[str, object]]:
    """Papers whose titles, names, abstracts, notes and tags hold control characters, some
    known by their title alone (their ids take the first author's family name), decided."""
    rows: list[dict[str, object]] = []
    for i in range(draw(st.integers(1, 3))):
        row: dict[str, object] = {
            "title": f"Paper {i} {draw(_HOSTILE_TEXT)}",
            "authors": draw(st.lists(_NAME, min_size=1, max_size=3)),
            "status": draw(st.sampled_from(list(Status))),
            "note": draw(st.one_of(st.just(""), _HOSTILE_TEXT)),
            "tags": draw(st.lists(_TAG_TEXT, max_size=2)),
        }
        if draw(st.booleans()):
            row["abstract"] = f"Abstract {i} of a paper, long enough: {draw(_HOSTILE_TEXT)}."
        rows.append(row)
    return rows


def _controls(texts: Iterable[str]) -> Counter[str]:
    return Counter(c for text in texts for c in _KEPT_CONTROLS.findall(text))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=hostile_libraries(), fmt=st.sampled_from([e.name for e in EXPORTERS]))
def test_any_export_imported_back_changes_nothing_and_a_file_keeps_the_text(
    rows: list[dict[str, object]], fmt: str
) -> None:
    """Every export imported back into its library changes nothing (the README's promise):
    names written ``Last, First`` came back from RIS and CSV as ``First Last``, control
    characters shown or left out (and a NUL written U+FFFD) came back as another text, each
    '1 updated'. Imported into an empty library, the exports that keep the text (JSON, CSV,
    CSL-JSON, RIS; not Markdown, which shows them, nor BibTeX's ASCII) give back the control
    characters of every title, name, abstract and note: RIS wrote them as ``␛``."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        source = folder / "list.json"
        lists = [{k: v for k, v in r.items() if k not in ("status", "note", "tags")} for r in rows]
        source.write_text(json.dumps(lists, ensure_ascii=False), encoding="utf-8")
        library = Library(folder / "home")
        library.import_file(source)
        for paper, row in zip(library.papers(), rows, strict=True):
            library.set_status(paper.id, str(row["status"]))
            library.set_note(paper.id, str(row["note"]))
            library.set_tags(paper.id, list(row["tags"]))  # type: ignore[call-overload]
        papers, triage = library.papers(), library.triage()
        path = folder / f"export{SUFFIXES[fmt]}"
        path.write_text(export(papers, triage, fmt, abstracts=True), encoding="utf-8")
        report = library.import_file(path)
        assert (report.added, report.updated, report.refused) == (0, 0, 0), report.summary()
        assert library.papers() == papers
        again = library.triage()
        assert (again.statuses, again.notes, again.tags) == (
            triage.statuses,
            triage.notes,
            triage.tags,
        )
        if fmt in ("markdown", "bibtex"):
            return
        other = Library(folder / "other")
        other.import_file(path)
        read = other.papers()
        for field in ("title", "abstract"):
            kept = [_controls([getattr(p, field)]) for p in read]
            assert kept == [_controls([getattr(p, field)]) for p in papers], field
        assert [_controls(p.authors) for p in read] == [_controls(p.authors) for p in papers]
        notes = other.triage().notes
        assert [_controls([notes.get(p.id, "")]) for p in read] == [
            _controls([triage.notes.get(p.id, "")]) for p in papers
        ]


def _reordered_queue(home: Path) -> Library:
    """A library of four starred papers, each moved to the head of the queue in turn."""
    rows = [
        {"title": f"Paper {i}", "abstract": f"Abstract number {i}, long enough to be read."}
        for i in range(4)
    ]
    for row in rows:
        row.update(status="starred", note="", tags=[], move_to=1)  # each moved to the head
    return _build(home, rows)


def test_a_library_folder_imported_keeps_its_queue_order(tmp_path: Path) -> None:
    source = _reordered_queue(tmp_path / "source")
    assert source.queue() == [p.id for p in reversed(source.papers())]
    target = Library(tmp_path / "target")
    target.import_file(tmp_path / "source")
    assert target.queue() == source.queue()


def _library_with_one_star(tmp_path: Path) -> tuple[Library, Paper]:
    """A library of one paper of its own, starred: a queue already there."""
    target = Library(tmp_path / "target")
    mine = tmp_path / "mine.jsonl"
    mine.write_text('{"title": "Mine", "abstract": "A paper of my own, queued before."}\n')
    target.import_file(mine)
    (own,) = target.papers()
    target.set_status(own.id, Status.STARRED)
    return target, own


def test_a_queue_imported_into_a_library_with_one_joins_behind_it_in_its_order(
    tmp_path: Path,
) -> None:
    source = _reordered_queue(tmp_path / "source")
    exported = tmp_path / "queue.json"
    exported.write_text(export(source.papers(), source.triage(), "json"), encoding="utf-8")
    target, own = _library_with_one_star(tmp_path)
    target.import_file(exported)
    assert target.queue() == [own.id, *source.queue()]


def test_redoing_an_imports_restored_decisions_gives_back_the_queue_undo_took(
    tmp_path: Path,
) -> None:
    """The restore is one undo step, and the queue's order is part of it: redone, the queue
    came back starred in list order (the paper that was #1 came last), though the file's
    order was restored at first. Statuses, notes and tags are as the import left them; a
    sync carries the redone queue as it carries any decision."""
    from storage.sync import sync_library

    source = _reordered_queue(tmp_path / "source")
    first, second = source.papers()[:2]
    source.set_status(first.id, Status.READ)  # out of the queue: a decision of another kind
    source.set_note(second.id, "the second")
    source.set_tags(second.id, ["queued"])
    queue = source.queue()
    assert queue != sorted(queue, key=[p.id for p in source.papers()].index)
    exported = tmp_path / "backup.json"
    exported.write_text(export(source.papers(), source.triage(), "json"), encoding="utf-8")
    target = Library(tmp_path / "target")
    assert target.import_file(exported).restored == 4
    restored = target.triage()
    assert target.queue() == queue
    assert [c[0] for c in target.undo()] and target.queue() == []
    assert len(target.redo()) == 4
    assert target.queue() == Library(target.home).queue() == queue
    again = target.triage()
    assert (again.statuses, again.notes, again.tags) == (
        restored.statuses,
        restored.notes,
        restored.tags,
    )
    folder = tmp_path / "synced"
    folder.mkdir()
    sync_library(target, folder)
    other = Library(tmp_path / "other")
    sync_library(other, folder)
    assert other.queue() == queue
    target.undo(), target.redo()  # once more, after a sync: it travels as a decision does
    sync_library(target, folder), sync_library(other, folder)
    assert other.queue() == target.queue() == queue


def test_stars_without_places_keep_their_order_through_an_imports_undo_and_redo(
    tmp_path: Path,
) -> None:
    """A library of an earlier version keeps no places: its stars line up by when they were
    starred, and so does the queue an import of it restores, after an undo and a redo too
    (they were given places at the end in list order). Undoing an import that took a star of
    this library (``take_theirs``) puts it back where it stood among them."""
    import orjson

    source = _reordered_queue(tmp_path / "source")
    data = orjson.loads(source.triage_path.read_bytes())
    for n, doc in enumerate(data["decisions"].values()):
        doc.pop("q", None)
        doc["at"] = 1_700_000_000 + (10 - n)  # starred in the reverse of the list's order
    source.triage_path.write_bytes(orjson.dumps(data))
    queue = Library(source.home).queue()
    assert queue == [p.id for p in reversed(source.papers())]
    target = Library(tmp_path / "target")
    target.import_file(source.home)
    assert target.queue() == queue
    target.undo(), target.redo()
    assert target.queue() == queue
    read = tmp_path / "read.json"  # the file says the queue's second paper was read
    rows = orjson.loads(export(source.papers(), source.triage(), "json"))
    read.write_bytes(orjson.dumps([{**r, "status": "read"} for r in rows if r["id"] == queue[1]]))
    fresh = Library(tmp_path / "fresh")
    fresh.import_file(source.home)
    fresh.import_file(read, take_theirs=True)
    assert fresh.queue() == [queue[0], *queue[2:]]
    fresh.undo()
    assert fresh.queue() == queue


def test_stars_of_another_tools_list_join_the_queue_in_its_order(tmp_path: Path) -> None:
    """A list that names its stars without places or times (a CSV of another tool, like our
    Markdown) gave them to the queue ordered by paper id: they all stood at the import's
    time. They come in the file's order, behind the queue there is (one undo step)."""
    import csv
    import io

    rows = [
        {"title": f"Paper {i}", "abstract": f"Abstract number {i}, long enough to be read."}
        for i in range(5)
    ]
    target, own = _library_with_one_star(tmp_path)
    plain = tmp_path / "plain.csv"  # the papers first, in the Inbox
    text = io.StringIO()
    writer = csv.DictWriter(text, ["title", "abstract", "status"], lineterminator="\n")
    writer.writeheader()
    writer.writerows({**r, "status": "inbox"} for r in rows)
    plain.write_text(text.getvalue())
    target.import_file(plain)
    ids = {p.title: p.id for p in target.papers()}
    picked = sorted((r for r in rows[:4]), key=lambda r: ids[str(r["title"])], reverse=True)
    starred = tmp_path / "starred.csv"
    text = io.StringIO()
    writer = csv.DictWriter(text, ["title", "abstract", "status"], lineterminator="\n")
    writer.writeheader()
    writer.writerows({**r, "status": "starred"} for r in picked)
    starred.write_text(text.getvalue())
    assert target.import_file(starred).restored == 4
    wanted = [own.id, *(ids[str(r["title"])] for r in picked)]
    assert target.queue() == wanted
    target.undo()
    assert target.queue() == [own.id]
    target.redo()
    assert target.queue() == Library(target.home).queue() == wanted


@pytest.mark.parametrize("fmt", ["bibtex", "ris", "csl-json", "json", "csv", "markdown"])
def test_quotes_as_tex_reads_them_come_back_as_they_were(tmp_path: Path, fmt: str) -> None:
    """Two single quotes are TeX's ” and a grave accent one of its quotes: a tag ``a''b``, or
    ``'\\x1b'`` (its control character left out of BibTeX's ASCII: ``''``), came back from
    BibTeX as a new tag (``a”b``, ``”``: Hypothesis found it now and then in the test above).
    The BibTeX export writes them apart (``'{}'``, ``\\textasciigrave{}``), as TeX sets them,
    and they are read so. (A title is TeX's text: its ``''`` is shown ”, and comes back so.)"""
    source = tmp_path / "list.json"
    rows = [
        {"title": "It''s the ``best'' `model' of ''''", "abstract": "We say ''x'' and `y' here."},
        {"title": "Plain quotes: model's", "abstract": "A plain abstract of some length here."},
    ]
    source.write_text(json.dumps(rows), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    ids = [paper.id for paper in library.papers()]
    library.set_tags(ids[0], ["'\x1b'", "a''b"])
    papers, triage = library.papers(), library.triage()
    path = tmp_path / f"export{SUFFIXES[fmt]}"
    path.write_text(export(papers, triage, fmt, abstracts=True), encoding="utf-8")
    report = library.import_file(path)
    assert (report.added, report.updated, report.refused) == (0, 0, 0), report.summary()
    assert library.triage().tags == triage.tags
    if fmt == "bibtex":
        other = Library(tmp_path / "other")
        other.import_file(path)
        assert [p.display_title for p in other.papers()] == [p.display_title for p in papers]


def test_hyphens_a_control_character_stood_between_come_back_as_they_were(tmp_path: Path) -> None:
    """A tag ``0-\\x1b--``: BibTeX's ASCII leaves the ESC out, and the hyphens it stood between
    were written ``--`` (``0--{}-``), read back as a dash, a new tag ``0–-`` beside the old one
    (the property test above found it now and then). Hyphens that meet once it is left out
    are written apart (``-{}-``), as hyphens side by side are."""
    source = tmp_path / "list.json"
    rows = [{"title": "Paper 0 0", "abstract": "A plain abstract of some length here."}]
    source.write_text(json.dumps(rows), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    (paper,) = library.papers()
    library.set_tags(paper.id, ["0-\x1b--", "a-\x07-b"])
    path = tmp_path / "export.bib"
    path.write_text(export(library.papers(), library.triage(), "bibtex"), encoding="utf-8")
    assert "keywords = {0-{}-{}-, a-{}-b}" in path.read_text(encoding="utf-8")
    report = library.import_file(path)
    assert (report.added, report.updated, report.refused) == (0, 0, 0), report.summary()
    assert library.triage().tags[paper.id] == ("0-\x1b--", "a-\x07-b")


@pytest.mark.parametrize("fmt", [e.name for e in EXPORTERS])
def test_an_abstract_a_line_end_broke_comes_back_as_the_same_paper(
    tmp_path: Path, fmt: str
) -> None:
    """A word a line's end broke at its hyphen (``at-⏎tention``) is shown whole on screen
    (``at-tention``) but exported as the display form writes it (``at- tention``): a paper's
    identity reads that hyphen as a dash, a sign, and ``at-tention``'s as none, so a Markdown
    export that joined it came back as a second paper. So with a capital after the break
    (``Computer-Aided``: no sign either); ``Llama3-70B`` keeps the sign (a dash after a digit
    is one), but the paper re-imported took the export's text for its abstract."""
    abstract = (
        "Models have lately gained at-\ntention and large-\nscale data in Computer-\nAided "
        "design on Llama3-\n70B, long enough."
    )
    library, papers = imported_again(tmp_path, [{"title": "Broken", "abstract": abstract}], fmt)
    assert library.papers() == papers and papers[0].abstract == abstract
