"""The readers of other tools' files and of our own: BibTeX, RIS, CSL-JSON, arXiv emails,
OpenReview v1/v2, CSV as RFC 4180, a papers-tui library, and what is never a list."""

from __future__ import annotations

import contextlib
import csv
import json
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import Library, Status
from storage.errors import SourceError
from storage.sources.records import Reader
from storage.sources.registry import READERS, read_source, read_text_content, reader_for

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "interchange"


def test_bibtex_macros_crossref_latex_and_failed_blocks() -> None:
    result = read_source(FIXTURES / "zotero.bib")
    tau, child = result.records
    assert tau.title == "τ-bench: A Benchmark for Über Agents"
    assert tau.authors == ("Jörg Müller", "Ann Lee", "Google Research")
    assert tau.venue == "Proc. of International Conference on Learning Representations 2025"
    assert tau.url == "https://openreview.net/forum?id=tau"
    assert r"95\% of tasks" in tau.abstract  # as written: the display converts it
    assert child.abstract == "" and child.title == "A Paper Without an Abstract"
    assert child.authors == ("John Smith", "John von Neumann Jr")
    assert child.venue.startswith("International Conference on Learning Representations")
    assert dict(child.extra) == {
        "doi": "10.1234/abc.5", "entry_type": "inproceedings", "year": 2025,
        "booktitle": "International Conference on Learning Representations",
    }  # fmt: skip
    [error] = result.errors
    assert "not a BibTeX entry" in error.reason and "broken" in error.reason


def test_a_bibtex_field_without_its_comma_is_read_apart_and_said(tmp_path: Path) -> None:
    """A hand's edit that left out a comma (``title = {A}`` then ``author = {B}``): both fields
    read, with a warning, not the author swallowed into the title; a title that holds "x = y"
    inside its braces is kept whole."""
    path = tmp_path / "hand.bib"
    path.write_text(
        "@article{missing,\n  title = {Missing Comma Between Fields}\n"
        "  author = {Doe, Jane},\n  year = {2002}\n}\n"
        "@article{kept,\n  title = {When x = y Holds},\n  author = {Roe, Rob},\n}\n",
        encoding="utf-8",
    )
    result = read_source(path)
    missing, kept = result.records
    assert missing.title == "Missing Comma Between Fields" and missing.authors == ("Jane Doe",)
    assert dict(missing.extra)["year"] == 2002
    assert kept.title == "When x = y Holds" and kept.authors == ("Rob Roe",)
    [warning] = result.warnings
    assert "record 1" in warning and "a comma is missing before author" in warning


def test_semantic_scholar_api_json_keeps_the_doi_arxiv_id_and_pdf(tmp_path: Path) -> None:
    path = tmp_path / "s2.json"
    path.write_text(
        json.dumps(
            {"total": 1, "offset": 0, "data": [{
                "paperId": "204e30", "externalIds": {"ArXiv": "1706.03762", "CorpusId": 1},
                "url": "http://127.0.0.1:9/paper/204e30",
                "title": "Attention is All you Need", "abstract": "Transformers, all of them.",
                "year": 2017, "authors": [{"authorId": "4", "name": "Ashish Vaswani"}],
                "openAccessPdf": {"url": "http://127.0.0.1:9/pdf/1706.03762", "status": "GREEN"},
            }, {
                "paperId": "abc", "externalIds": {"DOI": "10.1000/xyz"}, "title": "Another",
                "abstract": None, "year": 2020, "authors": [{"name": "Jane Doe"}],
            }]}
        ),
        encoding="utf-8",
    )  # fmt: skip
    first, second = read_source(path).records
    facts = dict(first.extra)
    assert (facts["eprint"], facts["archiveprefix"]) == ("1706.03762", "arXiv")
    assert facts["pdf"] == "http://127.0.0.1:9/pdf/1706.03762"
    assert first.authors == ("Ashish Vaswani",)
    assert dict(second.extra)["doi"] == "10.1000/xyz"


def test_bibtex_imports_as_papers_with_venue(home: Path) -> None:
    lib = Library(home)
    report = lib.import_file(FIXTURES / "zotero.bib")
    assert report.added == 2 and len(report.errors) == 1
    tau = lib.papers()[0]
    assert tau.venue == "ICLR 2025" and tau.display_abstract.endswith("and ℓ₂ costs.")


def test_ris_lenient_lines_and_a_last_record_without_er() -> None:
    great, doe = read_source(FIXTURES / "zotero.ris").records
    assert great.title == "A Great Paper on two lines"
    assert great.authors == ("Ann Lee", "Bob Smith") and great.keywords == ("graphs", "sampling")
    assert great.venue == "International Conference on Learning Representations 2025"
    assert great.url == "https://openreview.net/forum?id=great"
    assert dict(great.extra) == {
        "doi": "10.1/great", "year": 2025, "entry_type": "inproceedings",
        "booktitle": "International Conference on Learning Representations",
        # without a comma beside "Lee, Ann": a name Zotero holds in one field, written whole
        "literal_names": "Bob Smith",
    }  # fmt: skip
    assert doe.title == "A one-space record with no ER at the end" and doe.authors == ("Jane Doe",)


def test_ris_of_pubmed_and_mendeley_keywords_on_one_line_and_a_marked_issn(
    tmp_path: Path,
) -> None:
    text = (
        "TY  - JOUR\nAU  - LeCun, Yann\nTI  - Deep learning\nT2  - Nature\nPY  - 2015///\n"
        "KW  - deep learning; neural networks\nKW  - review\n"
        "SN  - 1476-4687 (Electronic)\nSN  - 0028-0836 (Linking)\nER  - \n"
    )
    path = tmp_path / "pubmed.ris"
    path.write_text(text, encoding="utf-8")
    [record] = read_source(path).records
    assert record.keywords == ("deep learning", "neural networks", "review")
    assert dict(record.extra)["issn"] == "1476-4687" and "isbn" not in dict(record.extra)


def test_csl_json_is_told_from_other_json_by_its_content() -> None:
    path = FIXTURES / "zotero.json"
    assert reader_for(path.read_text(), path).name == "CSL-JSON"  # type: ignore[union-attr]
    [item] = read_source(path).records
    assert item.title == "Graph Flows for Everyone" and item.authors == ("Ann Lee", "OpenAI")
    assert item.venue == "International Conference on Learning Representations 2025"
    assert item.github == ("https://github.com/ann/flows",) and item.decision is None
    assert item.keywords == ("graphs", "flows") and dict(item.extra) == {
        "doi": "10.5/flows", "entry_type": "inproceedings", "year": 2025, "month": 4,
        "booktitle": "International Conference on Learning Representations",
    }  # fmt: skip


def test_openreview_v1_and_v2_with_venue_and_extra_fields() -> None:
    v2, v1 = read_source(FIXTURES / "openreview_v2.json").records
    assert v2.title == "An OpenReview v2 Paper" and v2.authors == ("Ann Lee", "Bob Smith")
    assert (v2.venue, v2.venue_status) == ("ICLR 2025 Oral", "Oral")
    assert v2.url == "https://openreview.net/forum?id=abc123XYZ"
    assert dict(v2.extra) == {"area": "reinforcement learning"}
    assert (v1.venue, v1.venue_status) == ("ICLR 2024 Poster", "Poster")
    assert dict(v1.extra) == {"rating": 6.33}


def test_arxiv_listing_email() -> None:
    result = read_source(FIXTURES / "listing.eml")
    [paper] = result.records
    assert paper.title == "A Very Long Title That Wraps Onto a Second Line"
    assert paper.authors == ("Ann Lee", "Bob Smith", "Carol Jones")
    assert paper.url == "https://arxiv.org/abs/2411.12345" and paper.venue == "ICLR 2025"
    assert paper.github == ("https://github.com/a/b",) and paper.keywords == ("cs.LG", "cs.AI")
    assert paper.abstract.startswith("We propose a method")
    [notice] = result.errors
    assert "replacement notice" in notice.reason


@pytest.mark.parametrize("name", ["README.md", "refs.bib", "refs.ris"])
def test_markdown_bibtex_and_ris_are_never_paragraph_lists(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(
        "# My project\n\nSome prose about the project that is long enough to be a paragraph.\n\n"
        "See [the site](https://example.org) for the documentation and more prose here.\n"
    )
    with pytest.raises(SourceError) as caught:
        read_source(path)
    assert "\n" not in str(caught.value)


def test_csv_is_read_as_rfc_4180_whatever_the_first_rows_hold(tmp_path: Path) -> None:
    rows = [
        (f"Paper {i}", f"An abstract number {i} that is long enough to be one, with words.")
        for i in range(200)
    ]
    rows.append(("Quoted", 'It says "Interestingly, FINALLY" inside, and keeps, its commas.'))
    path = tmp_path / "list.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["title", "abstract"])
        writer.writerows(rows)
    result = read_source(path)
    assert [(r.title, r.abstract) for r in result.records] == rows and not result.errors


def test_title_only_catalog_adds_links_by_title(home: Path, tmp_path: Path) -> None:
    abstract = "A paper whose abstract links no code at all, written with enough words here."
    (tmp_path / "list.jsonl").write_text(json.dumps({"title": "Graph Flows", "abstract": abstract}))
    (tmp_path / "links.jsonl").write_text(
        json.dumps({"title": "Graph flows", "github": ["https://github.com/o/flows"]})
    )
    lib = Library(home)
    report = lib.import_file(tmp_path / "list.jsonl", catalog=tmp_path / "links.jsonl")
    assert report.added == 1 and lib.papers()[0].github == ("https://github.com/o/flows",)


def test_a_library_folder_restores_papers_and_decisions(library: Library, tmp_path: Path) -> None:
    first, second = library.papers()[:2]
    library.set_status(first.id, "starred")
    library.set_note(second.id, "mine")
    library.set_tags(second.id, ["x"])
    other = Library(tmp_path / "other")
    report = other.import_file(library.home)  # the folder: papers.json and triage.json
    assert report.added == 38 and report.restored == 1  # the star; the note and tags:
    assert report.filled == 1  # (counted as a decision restored, which a note is not)
    assert [p.id for p in other.papers()] == [p.id for p in library.papers()]
    assert other.statuses() == {first.id: Status.STARRED}
    assert other.triage().notes == {second.id: "mine"} and other.triage().tags == {
        second.id: ("x",)
    }
    alone = Library(tmp_path / "alone")
    assert alone.import_file(library.papers_path).added == 38  # papers.json alone: all of them


def test_a_used_library_folder_imports_without_its_own_other_files(
    library: Library, tmp_path: Path
) -> None:
    """A library the app and sync have used holds ui.json, searches.json, pdf-failures.json
    and sync/device.json beside its papers: each was "a file not read" (the import exiting 1)."""
    from storage.files.saved_searches import SavedSearches
    from storage.files.ui_state import UiState, save_ui_state
    from storage.pdfs.failures import FAILURES_FILE
    from storage.sync.device import load_device

    SavedSearches(library.home, library.lock).save("graphs", "graph")
    save_ui_state(library.home, UiState(theme="textual-light"))
    (library.home / FAILURES_FILE).write_text('{"abc": {"url": "http://127.0.0.1:9/x.pdf"}}')
    load_device(library.home, "laptop")
    assert (library.home / "sync" / "device.json").is_file()
    report = Library(tmp_path / "other").import_file(library.home)
    assert report.added == 38 and not report.failed and not report.passed
    mine = tmp_path / "lists" / "sync"  # a folder of the user's named so, no library's
    mine.mkdir(parents=True)
    (mine / "ui.json").write_text('[{"title": "Mine", "abstract": "' + "word " * 30 + '"}]')
    assert Library(tmp_path / "third").import_file(mine.parent).added == 1


def test_our_json_export_into_an_existing_library(library: Library, tmp_path: Path) -> None:
    from storage.export import export

    a, b, c = (p.id for p in library.papers()[:3])
    library.set_status(a, "starred")
    library.set_status(b, "read")
    path = tmp_path / "backup.json"
    path.write_text(export(library.papers(), library.triage(), "json"))
    other = Library(tmp_path / "other")
    other.import_file(path)
    other.set_status(a, "skipped")  # decided otherwise here
    other.set_status(b, "inbox")
    report = other.import_file(path)
    assert (report.restored, report.differing) == (1, 1)
    assert other.statuses() == {a: Status.SKIPPED, b: Status.READ}
    assert other.import_file(path, take_theirs=True).restored == 1
    assert other.statuses() == {a: Status.STARRED, b: Status.READ}
    assert c not in other.statuses()


def test_a_note_and_tags_go_to_a_paper_decided_here_as_the_file_says_or_not_at_all(
    library: Library, tmp_path: Path
) -> None:
    """A file that names the paper's own status, or none (a CSV of notes and tags; BibTeX,
    RIS and CSL-JSON name none), differs from it in nothing: its note and tags fill what the
    paper has not. A status not named was taken for the Inbox, said to differ from the
    paper's, and the note and tags left out; and so were those of the same status."""
    first, second = library.papers()[:2]
    library.set_status(first.id, "starred")
    library.set_status(second.id, "read")
    library.set_note(second.id, "mine")
    path = tmp_path / "notes.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["title", "abstract", "status", "note", "tags"])
        for paper, status in ((first, "starred"), (second, "")):
            writer.writerow([paper.title, paper.abstract, status, "theirs", "x; y"])
    report = library.import_file(path)
    assert (report.restored, report.filled, report.differing) == (0, 2, 0)
    assert library.statuses() == {first.id: Status.STARRED, second.id: Status.READ}
    notes, tags = library.triage().notes, library.triage().tags
    assert (notes[first.id], tags[first.id]) == ("theirs", ("x", "y"))
    assert (notes[second.id], tags[second.id]) == ("mine", ("x", "y"))  # its own note kept
    again = library.import_file(path)  # nothing left to take: the note kept is said to differ
    assert (again.restored, again.differing) == (0, 1)


_MARKUP = st.sampled_from(
    [
        "@misc{k,",
        "title = {",
        "}",
        "{",
        "TY  - ",
        "ER  - ",
        "\\\\\n",
        "Title: ",
        "Authors: ",
        "-" * 30 + "\n",
        '"',
        ",",
        "\n",
        '{"type": "x"',
        "#",
        "=",
    ]
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(_MARKUP, st.text(max_size=20)), max_size=60).map("".join),
    st.sampled_from(["x.bib", "x.ris", "x.eml", "x.csl-json", "papers.json", "x.csv", "x.txt"]),
)
def test_no_text_makes_the_new_readers_raise_anything_but_source_error(
    text: str, name: str
) -> None:
    try:
        result = read_text_content(text, Path(name))
    except SourceError as exc:
        assert "\n" not in str(exc)
    else:
        assert all(r.abstract.strip() or r.title.strip() for r in result.records)


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.name)
def test_readers_take_hostile_input_in_linear_time(reader: Reader) -> None:
    suffix = reader.suffixes[0] if reader.suffixes else ".txt"  # told by content alone
    path = Path("papers.json" if reader.name == "papers-tui library" else f"x{suffix}")
    for text in ("@a{" * 50_000, "{" * 200_000, "TY  - JOUR\n" * 50_000, '"' * 200_000):
        # CPU time: the tests beside it on a loaded machine (a load of 8 on 2 cores) took a
        # 0.7 s read past 5 s of the clock
        start = time.process_time()
        with contextlib.suppress(SourceError):
            reader.read(text, path)
        assert time.process_time() - start < 5, (reader.name, text[:10])


def test_latex_through_pylatexenc_tables_and_accents_on_dotless_i() -> None:
    from storage.text.latex import to_unicode
    from storage.text.source_text import literal

    assert to_unicode(r"A 10\texteuro{} budget") == "A 10€ budget"
    assert to_unicode(r"Mart{\`\i}n and V{\'{\i}}ctor and {\"\i}") == "Martìn and Víctor and ï"
    assert to_unicode(r"\textmu{}m, \guillemotleft{}x\guillemotright") == "µm, «x»"
    assert to_unicode(r"{\ensuremath{\langle}\texttt{U+4E2D}\ensuremath{\rangle}}") == "中"
    for text in ("a {Y} b", "350M~66B", "x_1 and *y*", r"back\slash", "A&B --"):
        assert to_unicode(literal(text)) == text


def test_bibtex_export_never_writes_a_question_mark_for_a_character() -> None:
    from storage.export.tex import tex_ascii
    from storage.text.latex import to_unicode

    for text in ("中文 😀", "Ħ ș ḿ", "V\u00edctor", "ﬁ", "\u00e9\u0301"):
        written = tex_ascii(text)
        assert written.isascii() and "?" not in written, written
    assert tex_ascii("Víctor") == r"V{\'i}ctor"  # biber makes {\'{\i}} ı + U+0301
    assert to_unicode(tex_ascii("中文 😀 Ħ ș")) == "中文 😀 Ħ ș"


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("Nguyễn", r"Nguy{\~{{\^e}}}n"),  # as ACL's Nguy{\~{\^e}}n, the ê in a group of its own
        ("Trần Huỳnh", r"Tr{\`{{\^a}}}n Hu{\`{{y}}}nh"),
        ("ố ầ ǘ ḿ", r"{\'{{\^o}}} {\`{{\^a}}} {\'{{\"u}}} {\'{{m}}}"),
        ("Ștefan Țurcanu", r"{\textcommabelow{S}}tefan {\textcommabelow{T}}urcanu"),
    ],
)
def test_bibtex_export_writes_stacked_accents_as_nested_commands(text: str, written: str) -> None:
    """A letter under two accents, or one the table lacks, is written as LaTeX's accents
    around it (pdflatex + bibtex and biber set them: ``test_bibtex_compile``), not as
    ``U+0302`` placeholders; it reads back as it was."""
    from storage.export.tex import tex_ascii
    from storage.text.latex import to_unicode

    assert tex_ascii(text) == written
    assert to_unicode(written) == text


def test_bibtex_export_writes_a_mark_no_plain_document_sets_as_its_code() -> None:
    """An ogonek needs the T1 encoding even through bibtex, and biber makes a dot below a
    Unicode mark pdflatex cannot set: those marks alone are ``U+XXXX``, the rest accents."""
    from storage.export.tex import tex_ascii, unihex
    from storage.text.latex import to_unicode

    assert tex_ascii("ę") == "{e}" + unihex("\u0328")
    assert tex_ascii("ệ") == r"{\^{{e}}}" + unihex("\u0323")
    assert to_unicode(tex_ascii("Łęcka Nguyệt")) == "Łęcka Nguyệt"


@pytest.mark.parametrize("title", ["Paper 0 *", "Paper 0 \\", "**Bold** claims \\* and *stars*"])
def test_a_markdown_title_ending_in_an_escaped_mark_reads_back(tmp_path: Path, title: str) -> None:
    """``**Paper 0 \\***``: the escaped star is the title's, the two after it close it (the
    reader once closed the title at the first two stars, losing the star and keeping `\\`)."""
    from storage.export import export

    first = Library(tmp_path / "first")
    source = tmp_path / "list.json"
    abstract = "Abstract: aa aa aa aa aa aa aa aa aa aa aa aa. And more words here."
    source.write_text(json.dumps([{"title": title, "abstract": abstract}]), encoding="utf-8")
    first.import_file(source)
    path = tmp_path / "export.md"
    path.write_text(export(first.papers(), first.triage(), "markdown", abstracts=True))
    second = Library(tmp_path / "second")
    second.import_file(path)
    assert [p.display_title for p in second.papers()] == [p.display_title for p in first.papers()]


@pytest.mark.parametrize("name", ["export.csl.json", "renamed.json"])
def test_our_csl_json_of_a_bare_paper_reads_back_with_its_list(tmp_path: Path, name: str) -> None:
    """A paper with no authors, venue or date gives CSL-JSON with only ``type`` and ``custom``
    of CSL's names: it was read as plain JSON, its list lost (the file's name taken instead)."""
    from storage.export import export

    first = Library(tmp_path / "first")
    source = tmp_path / "list.json"
    abstract = "Abstract: aa aa aa aa aa aa aa aa aa aa aa aa. And more words here."
    source.write_text(
        json.dumps([{"title": "Paper 0", "abstract": abstract, "lists": ["My list"]}]),
        encoding="utf-8",
    )
    first.import_file(source)
    path = tmp_path / name
    path.write_text(export(first.papers(), first.triage(), "csl-json", abstracts=True))
    found = reader_for(path.read_text(encoding="utf-8"), path)
    assert found is not None and found.name == "CSL-JSON"
    second = Library(tmp_path / "second")
    second.import_file(path)
    assert [p.lists for p in second.papers()] == [("My list",)]


@pytest.mark.parametrize(
    ("note", "github"),
    [
        ("0/0", ()),
        ("pp. 1/2, Vol 3/4", ()),
        ("Oral; Code: https://github.com/o/r", ("https://github.com/o/r",)),
        ("see https://github.com/o/r for 1/2 of it", ("https://github.com/o/r",)),
    ],
)
def test_a_bibtex_note_names_a_repository_only_by_its_link(
    tmp_path: Path, note: str, github: tuple[str, ...]
) -> None:
    """A note that looks like ``OWNER/REPO`` (``0/0``, a volume) is no code link."""
    path = tmp_path / "refs.bib"
    abstract = "Abstract: aa aa aa aa aa aa aa aa aa aa aa aa. And more words here."
    path.write_text(f"@article{{k, title={{T}}, abstract={{{abstract}}}, note={{{note}}}}}\n")
    [record] = read_source(path).records
    assert record.github == github


def test_a_bibtex_title_keeps_a_brace_it_spells(tmp_path: Path) -> None:
    """``{$\\lbrace$}`` reads ``{``: the title is kept so that it still shows one (it was kept
    as ``Paper 0 {``, whose lone brace the display then dropped)."""
    path = tmp_path / "refs.bib"
    abstract = "Abstract: aa aa aa aa aa aa aa aa aa aa aa aa. And more words here."
    title = "{{Paper 0 {$\\lbrace$}}}"
    path.write_text(f"@article{{k, title={title}, abstract={{{abstract}}}}}\n")
    library = Library(tmp_path / "home")
    library.import_file(path)
    assert [p.display_title for p in library.papers()] == ["Paper 0 {"]


def test_entities_read_alike_in_our_json_extra_and_in_a_flat_field(tmp_path: Path) -> None:
    """``&ap;`` is ``≈`` in a field of our JSON's ``extra`` as in the same field given flat (a
    CSV export of the paper then read back as it was written)."""
    abstract = "Abstract: aa aa aa aa aa aa aa aa aa aa aa aa. And more words here."
    nested = {"title": "P", "abstract": abstract, "extra": {"journal": "Journal of &ap;"}}
    flat = {"title": "P", "abstract": abstract, "journal": "Journal of &ap;"}
    found = []
    for name, row in (("nested", nested), ("flat", flat)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps([row]), encoding="utf-8")
        library = Library(tmp_path / name)
        library.import_file(path)
        found.append([dict(p.extra).get("journal") for p in library.papers()])
    assert found == [["Journal of ≈"], ["Journal of ≈"]]


@pytest.mark.parametrize("publisher", ["*0*", "A **bold** press", "A* and B*"])
def test_asterisks_a_bibtex_export_writes_read_back_as_asterisks(
    tmp_path: Path, publisher: str
) -> None:
    """A field that reads as Markdown's emphasis (``*0*``) is written so that it does not: the
    BibTeX read back kept ``0``, the asterisks read as emphasis."""
    from storage.export import export

    abstract = "Abstract: aa aa aa aa aa aa aa aa aa aa aa aa. And more words here."
    source = tmp_path / "list.json"
    row = {"title": "P", "abstract": abstract, "extra": {"publisher": publisher}}
    source.write_text(json.dumps([row]), encoding="utf-8")
    first = Library(tmp_path / "first")
    first.import_file(source)
    path = tmp_path / "export.bib"
    path.write_text(export(first.papers(), first.triage(), "bibtex"), encoding="utf-8")
    again = Library(tmp_path / "again")
    again.import_file(path)
    assert [dict(p.extra).get("publisher") for p in again.papers()] == [publisher]


@pytest.mark.parametrize(
    ("given", "read"),
    [
        ("Lee, Ann; Doe, Bob", ["Ann Lee", "Bob Doe"]),
        ("Ann Lee; Bob Doe", ["Ann Lee", "Bob Doe"]),
        ("King, Jr.; Smith, Jr.", ["King, Jr.", "Smith, Jr."]),  # suffixes, not given names
        ("Lee, Ann; Bob Doe", ["Lee, Ann", "Bob Doe"]),  # not every name so written
        # one person written last, first (a list's text field): not two people
        ("Lee, Ann", ["Ann Lee"]),
        ("van der Berg, J. A.", ["J. A. van der Berg"]),
        ("Müller, Jürgen", ["Jürgen Müller"]),
        ("Lee, Ann and Park, Bo", ["Ann Lee", "Bo Park"]),  # BibTeX's way
        ("Ann Lee, Bo Park", ["Ann Lee", "Bo Park"]),  # two people
        ("Smith, Jones and Brown", ["Smith", "Jones", "Brown"]),  # three, by family name
    ],
)
def test_authors_written_last_first_and_semicolons_read_first_last(
    tmp_path: Path, given: str, read: list[str]
) -> None:
    abstract = "Abstract: aa aa aa aa aa aa aa aa aa aa aa aa. And more words here."
    path = tmp_path / "list.json"
    path.write_text(json.dumps([{"title": "P", "abstract": abstract, "authors": given}]))
    library = Library(tmp_path / "home")
    library.import_file(path)
    assert [list(p.authors) for p in library.papers()] == [read]


def test_an_arxiv_listing_emails_authors_typed_in_tex_read_in_unicode(tmp_path: Path) -> None:
    """The listing writes names as arXiv holds them, in TeX (``J\\"org``)."""
    text = (FIXTURES / "listing.eml").read_text(encoding="utf-8")
    path = tmp_path / "listing.eml"
    path.write_text(text.replace("Ann Lee, Bob Smith", 'J\\"org M\\"uller, Fran\\c{c}ois Fleuret'))
    first = read_source(path).records[0]
    assert first.authors == ("Jörg Müller", "François Fleuret", "Carol Jones")


def test_tags_and_notes_are_read_as_written_not_as_html(tmp_path: Path) -> None:
    """Our CSV joins tags with "; ": tags ``&lt`` and ``0`` read as the entity ``&LT;``, and
    came back as one tag ``<-0`` (found by the round-trip property test)."""
    source = tmp_path / "ours.csv"
    with source.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["title", "abstract", "tags", "note"])
        writer.writerow(
            ["Paper 0", "An abstract long enough to be read as one.", "&LT; 0", "a &amp; b"]
        )
    library = Library(tmp_path / "home")
    library.import_file(source)
    (paper,) = library.papers()
    assert library.triage().tags[paper.id] == ("&lt", "0")
    assert library.triage().notes[paper.id] == "a &amp; b"


def test_a_bibtex_file_jabref_wrote_in_windows_1252_is_read_in_it(tmp_path: Path) -> None:
    """JabRef on Windows writes "% Encoding: Cp1252" at the top of a file in that encoding:
    it was refused as not UTF-8. A file that says nothing of its encoding still is."""
    source = tmp_path / "refs.bib"
    source.write_bytes(
        "% This file was created with JabRef 2.10.\n% Encoding: Cp1252\n\n"
        "@article{mueller2020,\n  title = {Über Graphen – eine Studie},\n"
        "  author = {Müller, Jürgen},\n  journal = {Zeitschrift},\n  year = {2020}\n}\n".encode(
            "cp1252"
        )
    )
    library = Library(tmp_path / "home")
    library.import_file(source)
    (paper,) = library.papers()
    assert paper.title == "Über Graphen – eine Studie" and paper.authors == ("Jürgen Müller",)
    silent = tmp_path / "silent.bib"
    silent.write_bytes(source.read_bytes().replace(b"% Encoding: Cp1252\n", b""))
    with pytest.raises(SourceError, match="not UTF-8 text"):
        read_source(silent)


def test_links_to_nothing_and_fifos_are_said_not_passed_over(home: Path, tmp_path: Path) -> None:
    """A loop of links read "no such file or folder"; in a folder, a FIFO or a dangling link
    named as a list was left out in silence, though a folder's import names each file it could
    not read."""
    import os

    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    (tmp_path / "dangling.bib").symlink_to("next.bib")
    (tmp_path / "next.bib").symlink_to("gone.bib")  # a chain: its end is what is missing
    lib = Library(home)
    with pytest.raises(SourceError, match="a: a loop of symbolic links"):
        lib.import_file(tmp_path / "a")
    with pytest.raises(SourceError, match="a symbolic link to .*/gone.bib, which does not exist"):
        lib.import_file(tmp_path / "dangling.bib")
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "ok.bib").write_text("@article{a, title={A Title of Enough Words}, year={2020}}\n")
    (folder / "gone.bib").symlink_to("../nowhere.bib")
    os.mkfifo(folder / "pipe.ris")
    report = lib.import_file(folder)
    assert report.added == 1
    assert sorted((Path(f.path).name, f.reason.split(": ", 1)[1]) for f in report.failed) == [
        ("gone.bib", f"a symbolic link to {tmp_path.resolve()}/nowhere.bib, which does not exist"),
        ("pipe.ris", "is a FIFO, not a regular file; papers imports list files and folders "
         "(--any-file reads it anyway, up to --max-size)"),
    ]  # fmt: skip
