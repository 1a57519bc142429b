"""The user's note and tags in the BibTeX, RIS and CSL-JSON exports: where reference managers
read them (BibTeX's ``annote`` and ``keywords``, RIS's ``N1`` and ``KW``, CSL's ``note`` and
``keyword``), and back through our readers as the note and tags, never as the source's
keywords or note, whatever the note holds."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import bibtexparser
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import Library, Status
from storage.export import export
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.records import SourceRecord
from storage.sources.registry import read_text_content
from storage.text.sanitize import file_block, printable_block

NAMES = {"bibtex": "x.bib", "ris": "x.ris", "csl-json": "x.csl.json"}
PAPER = Paper(
    id="aaaaaaaaaaaa",
    title="Sparse autoencoders find features",
    abstract="We train sparse autoencoders on activations and find features, long enough.",
    authors=("Ann Lee",),
    keywords=("interpretability", "SAE"),
    github=("https://github.com/o/r",),
    extra=(("bib_note", "Oral"),),
    list="ICLR 2025",
)
NOTE = "Read section 3 first.\nCompare with the [baseline](http://127.0.0.1/baseline)."
TAGS = ("sae", "interp")


def _triage(note: str = NOTE, tags: tuple[str, ...] = TAGS) -> TriageState:
    return TriageState(notes={PAPER.id: note}, tags={PAPER.id: tags})


def _read_back(fmt: str, note: str = NOTE, tags: tuple[str, ...] = TAGS) -> SourceRecord:
    text = export([PAPER], _triage(note, tags), fmt)
    [record] = read_text_content(text, Path(NAMES[fmt])).records
    return record


def test_bibtex_writes_the_note_in_annote_and_the_tags_among_the_keywords() -> None:
    text = export([PAPER], _triage(), "bibtex")
    [entry] = bibtexparser.parse_string(text).entries
    assert entry["note"] == "Oral; Code: https://github.com/o/r"  # the reference's, as before
    assert entry["annote"] == NOTE  # its lines as the field's lines (JabRef, Zotero: a note)
    # "SAE" is the source's keyword already: the tag "sae" is not written twice
    assert entry["keywords"] == "interpretability, SAE, interp"
    assert entry["mendeley-tags"] == "sae, interp"  # which of them are tags, as Mendeley says


def test_ris_writes_the_tags_as_kw_lines_and_the_note_as_an_n1_of_its_own() -> None:
    lines = export([PAPER], _triage(), "ris").splitlines()
    assert [line for line in lines if line.startswith("KW")] == [
        "KW  - interpretability",
        "KW  - SAE",
        "KW  - interp",
    ]
    first = lines.index("N1  - Read section 3 first.")
    assert lines[first + 1] == "  Compare with the [baseline](http://127.0.0.1/baseline)."
    assert lines[first + 2] == "N1  - Oral; Code: https://github.com/o/r"
    assert "U3  - Tags: sae; interp" in lines and "U4  - The first N1 is the user's note" in lines


def test_csl_json_writes_the_note_first_in_note_which_zotero_reads() -> None:
    [item] = json.loads(export([PAPER], _triage(), "csl-json"))
    assert item["note"] == f"{NOTE}\n\nOral; Code: https://github.com/o/r"
    assert item["keyword"] == "interpretability, SAE, interp"
    assert item["custom"]["tags"] == ["sae", "interp"]
    assert item["custom"]["reference_note"] == "Oral; Code: https://github.com/o/r"


@pytest.mark.parametrize("fmt", list(NAMES))
def test_the_note_and_tags_read_back_as_the_note_and_tags(fmt: str) -> None:
    record = _read_back(fmt)
    assert record.decision is not None and record.decision.status is None  # no status said
    assert (record.decision.note, record.decision.tags) == (NOTE, TAGS)
    assert record.keywords == PAPER.keywords  # the source's alone, no tag among them
    assert record.github == PAPER.github  # the code links of the reference's note
    assert dict(record.extra)["bib_note"] == "Oral"


@pytest.mark.parametrize("fmt", list(NAMES))
def test_a_note_naming_code_links_keeps_them_as_the_user_wrote_them(fmt: str) -> None:
    note = "Code: https://github.com/x/y\n\nOral; Code: https://github.com/o/r"
    record = _read_back(fmt, note)
    assert record.decision is not None and record.decision.note == note
    assert record.github == PAPER.github and dict(record.extra)["bib_note"] == "Oral"


@pytest.mark.parametrize("fmt", list(NAMES))
def test_a_paper_without_note_or_tags_carries_no_decision(fmt: str) -> None:
    record = _read_back(fmt, "", ())
    assert record.decision is None and record.keywords == PAPER.keywords


HOSTILE_NOTES = [
    "{unbalanced braces}}} {{ and \\backslashes\\ \\textbf{x} \\\\ 50% #1 & $x_1$ ~^",
    "first line\nTY  - JOUR\nER  - \n  KW  - indented\nN1  - not a note",
    "@misc{evil,\n  title = {Evil}}\n@comment{x}\n% not a comment\n}",
    "control: \x1b[31mred\x07 \x00 \x7f \x9b \u202e reversed \u2028 separated\x85",
    "Markdown: **bold**, *em*, `code`, ``quotes'', [a](http://127.0.0.1/a), <b>html</b>",
    "spaces:  two\n    indented\n\n\nthree blank lines, then a hard break  \nend",
    "Ünïcödé é ễ ę 中文 τ ∞ — – « » \u00a0nbsp",
]


@pytest.mark.parametrize("note", HOSTILE_NOTES)
@pytest.mark.parametrize("fmt", list(NAMES))
def test_a_hostile_note_keeps_the_file_valid_and_reads_back_as_it_was(fmt: str, note: str) -> None:
    """Braces, backslashes, ``%``, lines that read as RIS tags or BibTeX entries, control
    characters: the file stays one valid entry, and the note comes back as it was (control
    characters as they are, but what would end a RIS line and NUL, shown; BibTeX shows them,
    as the Markdown export does)."""
    tags = ("a-b", "c\\d", "x{y}", "50%", "ü", "#x_y", "~", "@home")
    text = export([PAPER], _triage(note, tags), fmt)
    if fmt == "bibtex":
        library = bibtexparser.parse_string(text)
        assert text.isascii() and not library.failed_blocks and len(library.entries) == 1
    elif fmt == "ris":
        heads = [line[:6] for line in text.splitlines() if line.startswith(("TY  -", "ER  -"))]
        assert heads == ["TY  - ", "ER  - "]  # one record, no line of the note starts another
    else:
        assert len(json.loads(text)) == 1
    [record] = read_text_content(text, Path(NAMES[fmt])).records
    kept = {"csl-json": str, "ris": file_block, "bibtex": printable_block}[fmt]
    shown = kept(note.strip())
    assert record.decision is not None and record.decision.note == shown.strip()
    assert record.decision.tags == tags and record.keywords == PAPER.keywords


def test_a_tag_typed_with_a_comma_or_semicolon_is_two_tags_in_every_format(
    tmp_path: Path,
) -> None:
    library = Library(tmp_path / "home")
    source = tmp_path / "list.jsonl"
    source.write_text(json.dumps({"title": PAPER.title, "abstract": PAPER.abstract}) + "\n")
    library.import_file(source)
    (paper,) = library.papers()
    library.set_tags(paper.id, ["a,b", "c;d", "e"])
    assert library.triage().tags[paper.id] == ("a", "b", "c", "d", "e")
    for fmt, name in NAMES.items():
        text = export(library.papers(), library.triage(), fmt)
        [record] = read_text_content(text, Path(name)).records
        assert record.decision is not None
        assert record.decision.tags == ("a", "b", "c", "d", "e") and record.keywords == (), fmt


# A note as a user may type it: any character but surrogates, lines among them.
_NOTE = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=60)
# What BibTeX holds as it was: ASCII, and letters its table writes (the rest, as every field's,
# ``tex_ascii``'s: a ligature as its letters, a thin space as a space).
_BIBTEX_NOTE = st.text(
    st.sampled_from([chr(c) for c in range(32, 127)] + list("\n\n éüßø中τ∞—ễ")),
    min_size=1,
    max_size=60,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(note=_NOTE, fmt=st.sampled_from(["ris", "csl-json"]))
def test_any_note_reads_back_from_ris_and_csl_json(note: str, fmt: str) -> None:
    note = note.strip()
    record = _read_back(fmt, note)
    expected = note if fmt == "csl-json" else file_block(note).strip()
    assert (record.decision.note if record.decision else "") == expected


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(note=_BIBTEX_NOTE)
def test_any_note_reads_back_from_bibtex(note: str) -> None:
    note = note.strip()
    record = _read_back("bibtex", note)
    expected = unicodedata.normalize("NFC", note)
    assert (record.decision.note if record.decision else "") == expected


@settings(max_examples=150, deadline=None)
@given(
    keywords=st.lists(st.sampled_from(["sae", "SAE", "aa", "aaa", "graph", "Graph nets"]),
                      unique=True, max_size=4),
    tags=st.lists(st.sampled_from(["sae", "aa", "aaa", "graph"]), unique=True, max_size=3),
    fmt=st.sampled_from(list(NAMES)),
)  # fmt: skip
def test_keywords_and_tags_that_meet_come_back_so_that_the_file_is_written_again_the_same(
    keywords: list[str], tags: list[str], fmt: str
) -> None:
    """A tag that is a keyword too is written once: read back, it is a tag, and a keyword
    as long as one of the source's follows it (export, import, export was not a fixed point:
    keywords ``aaa, aa`` and the tag ``aaa`` came back as the keyword ``aa``, then
    ``aa, aaa``)."""
    paper = Paper(id=PAPER.id, title=PAPER.title, abstract=PAPER.abstract, list="L",
                  keywords=tuple(keywords))  # fmt: skip
    text = export([paper], TriageState(tags={paper.id: tuple(tags)}), fmt)
    [record] = read_text_content(text, Path(NAMES[fmt])).records
    assert (record.decision.tags if record.decision else ()) == tuple(tags)
    assert set(record.keywords) <= set(keywords)  # no tag taken for a keyword of the source
    again = Paper(id=paper.id, title=paper.title, abstract=paper.abstract, list="L",
                  keywords=record.keywords)  # fmt: skip
    assert export([again], TriageState(tags={paper.id: tuple(tags)}), fmt) == text


def test_a_mendeley_file_gives_its_tags_as_tags_and_its_annote_as_the_note() -> None:
    """Mendeley Desktop writes a reference's tags among its ``keywords`` and names them in
    ``mendeley-tags``, and the user's note in ``annote`` (Zotero and JabRef write a note
    there too, with TeX's escapes)."""
    text = (
        "@article{Elyan2020,\n"
        "annote = {Good for the \\{imbalanced\\} case, 50\\% faster.\nSee fig. 3},\n"
        "author = {Elyan, Eyad},\n"
        "keywords = {Class-imbalance,Classification,Imbalance Datasets,Oversampling},\n"
        "mendeley-tags = {Imbalance Datasets},\n"
        "title = {{CDSMOTE: class decomposition}},\n"
        "year = {2020}\n"
        "}\n"
    )
    [record] = read_text_content(text, Path("mendeley.bib")).records
    assert record.keywords == ("Class-imbalance", "Classification", "Oversampling")
    assert record.decision is not None
    assert record.decision.tags == ("imbalance-datasets",)
    assert record.decision.note == "Good for the {imbalanced} case, 50% faster.\nSee fig. 3"


def _library_with_decisions(home: Path, note: str, tags: list[str]) -> Library:
    library = Library(home)
    source = home.parent / f"{home.name}.jsonl"
    source.write_text(json.dumps({"title": PAPER.title, "abstract": PAPER.abstract}) + "\n")
    library.import_file(source)
    (paper,) = library.papers()
    library.set_status(paper.id, Status.STARRED)
    library.set_note(paper.id, note)
    library.set_tags(paper.id, tags)
    return library


@pytest.mark.parametrize("fmt", list(NAMES))
def test_round_trips_into_the_same_library_never_double_the_note(tmp_path: Path, fmt: str) -> None:
    library = _library_with_decisions(tmp_path / "home", NOTE, list(TAGS))
    (paper,) = library.papers()
    path = tmp_path / NAMES[fmt]
    for _ in range(3):  # export, import into the same library, export again…
        text = export(library.papers(), library.triage(), fmt)
        path.write_text(text, encoding="utf-8")
        report = library.import_file(path)
        assert (report.added, report.restored, report.differing) == (0, 0, 0)
        assert library.triage().notes[paper.id] == NOTE
        assert library.triage().tags[paper.id] == TAGS
        assert library.papers()[0].keywords == ()  # no tag taken for the source's keyword
        assert export(library.papers(), library.triage(), fmt) == text
    assert library.status(paper.id) is Status.STARRED


@pytest.mark.parametrize("fmt", list(NAMES))
def test_a_note_from_a_file_fills_a_starred_paper_with_none(tmp_path: Path, fmt: str) -> None:
    """A file that names no status (these three formats) takes no status from the paper:
    its note and tags go to a paper decided here that has none (before, the file's decision
    counted as the Inbox, and was refused as differing from the star)."""
    source = _library_with_decisions(tmp_path / "source", NOTE, list(TAGS))
    path = tmp_path / NAMES[fmt]
    path.write_text(export(source.papers(), source.triage(), fmt), encoding="utf-8")
    target = _library_with_decisions(tmp_path / "target", "", [])
    (paper,) = target.papers()
    report = target.import_file(path)
    assert (report.restored, report.filled, report.differing) == (0, 1, 0)
    assert target.status(paper.id) is Status.STARRED
    assert target.triage().notes[paper.id] == NOTE and target.triage().tags[paper.id] == TAGS


@pytest.mark.parametrize("fmt", list(NAMES))
def test_a_note_changed_since_the_export_is_kept_and_said_to_differ(
    tmp_path: Path, fmt: str
) -> None:
    library = _library_with_decisions(tmp_path / "home", NOTE, list(TAGS))
    (paper,) = library.papers()
    path = tmp_path / NAMES[fmt]
    path.write_text(export(library.papers(), library.triage(), fmt), encoding="utf-8")
    library.set_note(paper.id, "Rewritten since.")
    report = library.import_file(path)
    assert (report.restored, report.differing) == (0, 1)
    assert library.triage().notes[paper.id] == "Rewritten since."


@pytest.mark.parametrize("fmt", ["bibtex", "ris"])  # (CSL-JSON's string keeps the CRLF)
def test_a_note_written_with_crlf_reads_back_with_its_lines(
    fmt: str,
) -> None:
    """A note typed on Windows (CRLF): RIS wrote each CR as a visible ``␍``, which came back
    into the note on a re-import; it ends the line there, as BibTeX's does."""
    record = _read_back(fmt, "Read section 3 first.\r\nThen 4.\r\n")
    assert record.decision is not None
    assert record.decision.note == "Read section 3 first.\nThen 4."
