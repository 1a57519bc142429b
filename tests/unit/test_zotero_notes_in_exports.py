"""Zotero's notes as its exports write them, read into the library: its BibTeX writes an
``annote`` per note (the arXiv translator's ``Comment: …`` first, then the user's), its RIS an
``N1`` per note in the note's HTML (``<p>…</p>``), its RDF a ``bib:Memo``. Every note is kept,
as text, and a repository an arXiv comment links (``Code at https://github.com/…``) is the
paper's code whichever of them carried it."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Library
from storage.export import export
from storage.models import Paper
from storage.sources.registry import read_text_content

REPO = "https://github.com/example/tabdiff"
COMMENT = f"Comment: 12 pages, 4 figures; code at {REPO}"
ABSTRACT = "We present TabDiff, a diffusion model for tables of mixed types."

#: Zotero 7's "Export Collection… → BibTeX" of an arXiv preprint saved from arXiv.org with a
#: note of the user's: ``annote`` once per note, the fields in Zotero's order, tab-indented.
ZOTERO_BIB = f"""
@misc{{chen_tabular_2024,
\ttitle = {{Tabular {{Diffusion}} with {{Sparse}} {{Attention}}}},
\turl = {{http://arxiv.org/abs/2405.01234}},
\tdoi = {{10.48550/arXiv.2405.01234}},
\tabstract = {{We present TabDiff, a diffusion model for tables of mixed types.}},
\turldate = {{2024-05-20}},
\tpublisher = {{arXiv}},
\tauthor = {{Chen, Li and Okafor, Ngozi}},
\tmonth = may,
\tyear = {{2024}},
\tnote = {{arXiv:2405.01234 [cs]}},
\tkeywords = {{Computer Science - Machine Learning}},
\tannote = {{{COMMENT}}},
\tannote = {{Read section 3 first.
Compare with the baseline of table 2.}},
}}
"""

#: The same item as Zotero's RIS writes it: each note an ``N1`` in its HTML.
ZOTERO_RIS = f"""TY  - PREPRINT
TI  - Tabular Diffusion with Sparse Attention
AU  - Chen, Li
AU  - Okafor, Ngozi
AB  - {ABSTRACT}
DA  - 2024/05/02/
PY  - 2024
DO  - 10.48550/arXiv.2405.01234
DP  - arXiv.org
M3  - arXiv:2405.01234
PB  - arXiv
UR  - http://arxiv.org/abs/2405.01234
Y2  - 2024/05/20/08:30:00
N1  - <p>{COMMENT}</p>
N1  - <div data-schema-version="9"><p>Read <strong>section 3</strong> first &amp; then 4.</p>
</div>
KW  - Computer Science - Machine Learning
ER  - 

"""

#: The same item in Zotero's RDF: the comment a ``bib:Memo`` the item refers to.
ZOTERO_RDF = f"""<rdf:RDF
 xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
 xmlns:z="http://www.zotero.org/namespaces/export#"
 xmlns:dcterms="http://purl.org/dc/terms/"
 xmlns:bib="http://purl.org/net/biblio#"
 xmlns:foaf="http://xmlns.com/foaf/0.1/"
 xmlns:link="http://purl.org/rss/1.0/modules/link/"
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:prism="http://prismstandard.org/namespaces/1.2/basic/">
    <rdf:Description rdf:about="http://arxiv.org/abs/2405.01234">
        <z:itemType>preprint</z:itemType>
        <dc:publisher>
            <foaf:Organization>
               <foaf:name>arXiv</foaf:name>
            </foaf:Organization>
        </dc:publisher>
        <bib:authors>
            <rdf:Seq>
                <rdf:li>
                    <foaf:Person>
                        <foaf:surname>Chen</foaf:surname>
                        <foaf:givenName>Li</foaf:givenName>
                    </foaf:Person>
                </rdf:li>
            </rdf:Seq>
        </bib:authors>
        <dcterms:isReferencedBy rdf:resource="#item_3"/>
        <dc:title>Tabular Diffusion with Sparse Attention</dc:title>
        <dcterms:abstract>{ABSTRACT}</dcterms:abstract>
        <dc:date>2024-05-02</dc:date>
        <z:libraryCatalog>arXiv.org</z:libraryCatalog>
        <dc:identifier>
            <dcterms:URI>
               <rdf:value>http://arxiv.org/abs/2405.01234</rdf:value>
            </dcterms:URI>
        </dc:identifier>
        <dc:description>arXiv:2405.01234 [cs]</dc:description>
    </rdf:Description>
    <bib:Memo rdf:about="#item_3">
        <rdf:value>&lt;div data-schema-version=&quot;9&quot;&gt;&lt;p&gt;{COMMENT}&lt;/p&gt;
&lt;/div&gt;</rdf:value>
    </bib:Memo>
</rdf:RDF>
"""


def _imported(tmp_path: Path, name: str, text: str) -> Paper:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(path)
    assert (report.added, report.errors) == (1, [])
    [paper] = library.papers()
    assert paper.title == "Tabular Diffusion with Sparse Attention"
    assert paper.fact("year") == 2024 or "2024" in paper.venue
    return paper


@pytest.mark.parametrize(
    ("name", "text"),
    [("zotero.bib", ZOTERO_BIB), ("zotero.ris", ZOTERO_RIS), ("zotero.rdf", ZOTERO_RDF)],
    ids=["bibtex", "ris", "rdf"],
)
def test_a_repository_in_arxivs_comment_as_a_zotero_note_is_the_papers_code(
    tmp_path: Path, name: str, text: str
) -> None:
    paper = _imported(tmp_path, name, text)
    assert paper.github == (REPO,)


def test_every_annote_zotero_writes_is_kept_in_the_note(tmp_path: Path) -> None:
    """BibTeX names no field twice, but Zotero writes an ``annote`` for each note: the user's
    own, after arXiv's comment, was dropped in silence."""
    paper = _imported(tmp_path, "zotero.bib", ZOTERO_BIB)
    note = Library(tmp_path / "home").triage().notes[paper.id]
    assert note == f"{COMMENT}\n\nRead section 3 first.\nCompare with the baseline of table 2."


def test_zoteros_html_notes_in_ris_are_read_as_text(tmp_path: Path) -> None:
    paper = _imported(tmp_path, "zotero.ris", ZOTERO_RIS)
    assert paper.fact("bib_note") == f"{COMMENT}; Read section 3 first & then 4."


def test_our_own_exports_keep_a_notes_markup_and_name_no_repository_of_the_users_note(
    tmp_path: Path,
) -> None:
    """Our exports give the paper's code apart: a link in the user's note stays in the note,
    and a reference's note that reads as HTML comes back as it was written."""
    library = Library(tmp_path / "home")
    source = tmp_path / "list.bib"
    source.write_text(
        "@article{a,\n  title = {Sparse Attention at Scale},\n  author = {Lee, Ann},\n"
        "  year = {2024},\n  note = {<p>as printed</p>},\n}\n",
        encoding="utf-8",
    )
    library.import_file(source)
    [paper] = library.papers()
    library.set_note(paper.id, f"Compare with {REPO}")
    for fmt in ("bibtex", "ris"):
        text = export([paper], library.triage(), fmt)
        [record] = read_text_content(text, Path(f"ours.{fmt[:3]}")).records
        assert record.github == () and record.decision is not None
        assert record.decision.note == f"Compare with {REPO}"
        assert dict(record.extra)["bib_note"] == "<p>as printed</p>"


def test_another_field_written_twice_is_said_not_dropped_in_silence(tmp_path: Path) -> None:
    """A field other than a note named twice in an entry (a hand's merge of two entries): the
    first read, as BibTeX does, and the others named in a warning of the import."""
    path = tmp_path / "merged.bib"
    path.write_text(
        "@article{lee2024,\n  title = {Sparse Attention at Scale},\n  author = {Lee, Ann},\n"
        "  url = {http://127.0.0.1:9/a},\n  year = {2024},\n  url = {http://127.0.0.1:9/b},\n"
        "  year = {2023},\n}\n",
        encoding="utf-8",
    )
    report = Library(tmp_path / "home").import_file(path)
    assert report.added == 1
    [paper] = Library(tmp_path / "home").papers()
    assert paper.url == "http://127.0.0.1:9/a" and paper.fact("year") == 2024
    [warning] = report.warnings
    assert "record 1: @article{lee2024} (line 1): url, year written twice" in warning


def test_zotero_notes_past_a_notes_cap_are_cut_and_said_not_the_paper_refused(
    tmp_path: Path,
) -> None:
    """Twenty notes of 8,000 characters, as Zotero's BibTeX writes an ``annote`` for each
    (and its RDF a memo): once every annote was kept, the 160,000 characters joined made the
    BibTeX entry's note too long and the paper was refused (before, the first note alone was
    read); the RDF's notes were cut at the cap with a warning. Both keep the paper now, its
    notes cut at the cap, said; the repository the last note links is still its code."""
    late = "https://github.com/example/late_notes"
    notes = [f"Note {i}: " + "reading " * 1000 for i in range(20)] + [f"Code at {late}"]
    escaped = "".join(f"\tannote = {{{n}}},\n" for n in notes).replace("_", "\\_")  # as TeX
    bib = ZOTERO_BIB.replace("\tannote = {Read", escaped + "\tannote = {Read")
    memos = "".join(f"&lt;p&gt;{n}&lt;/p&gt;" for n in notes)
    first = f"&lt;p&gt;{COMMENT}&lt;/p&gt;"
    rdf = ZOTERO_RDF.replace(first, first + memos)
    for name, text in (("zotero.bib", bib), ("zotero.rdf", rdf)):
        home = tmp_path / name
        path = tmp_path / f"in-{name}"
        path.write_text(text, encoding="utf-8")
        library = Library(home)
        report = library.import_file(path)
        assert (report.added, report.errors) == (1, []), name
        [warning] = [w for w in report.warnings if "notes are" in w]
        assert "the first 100,000 kept as its note" in warning, warning
        [paper] = library.papers()
        note = library.triage().notes[paper.id]
        assert len(note) == 100_000 and note.startswith(COMMENT) and note.endswith("…"), name
        assert paper.github == (REPO, late), name


def test_an_annote_and_annotations_past_the_cap_are_one_note_cut_and_said(
    tmp_path: Path,
) -> None:
    """An entry with one ``annote`` (linking a repository) and biblatex's ``annotation`` many
    times, past the cap together: every one of them is the user's note (the annotations were
    once dropped in silence), cut at the cap and said, and the annote's repository is the
    paper's code."""
    mine = "https://github.com/example/mine"
    many = "".join(f"\tannotation = {{{i} {'reading ' * 1000}}},\n" for i in range(14))
    head = "@misc{lee2024,\n\ttitle = {Sparse Attention for Tables},\n"
    bib = f"{head}\tannote = {{Code at {mine}}},\n{many}}}\n"
    path = tmp_path / "in.bib"
    path.write_text(bib, encoding="utf-8")
    library = Library(tmp_path / "home")
    report = library.import_file(path)
    assert (report.added, report.errors) == (1, [])
    [warning] = [w for w in report.warnings if "notes are" in w]
    assert "the first 100,000 kept as its note" in warning
    [paper] = library.papers()
    assert paper.github == (mine,)
    note = library.triage().notes[paper.id]
    assert note.startswith(f"Code at {mine}\n\n0 reading") and len(note) == 100_000
