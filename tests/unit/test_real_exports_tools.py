"""Exports as more tools write them (Mendeley's links, Semantic Scholar's API: its papers, and
its authors with their papers; Scopus's CSV of before its ``Author full names``, DBLP's RIS,
OpenReview's BibTeX of a submission, EndNote's RIS): every paper comes in with its people,
links and venue as the file says them.

``tests/fixtures/real_exports/README.md`` names the public file each fixture keeps the shape of.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage.errors import SourceError
from storage.sources.records import SourceRecord
from storage.sources.registry import read_source

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"


def _extra(record: SourceRecord) -> dict[str, object]:
    return dict(record.extra)


def test_a_github_repository_among_a_papers_links_is_its_code() -> None:
    several, tool, preprint = read_source(FOLDER / "mendeley_links.bib").records
    assert several.url == "http://127.0.0.1:9/en/content/articlehtml/2020/cc/d0cc03512b"
    assert several.github == ()
    # the url the tool's own repository: the paper's page and its code
    assert tool.url == "https://github.com/spinicist/QUIT"
    assert tool.github == ("https://github.com/spinicist/QUIT",)
    # Mendeley's second link, its underscore escaped
    assert preprint.url == "http://arxiv.org/abs/1901.00001"
    assert preprint.github == ("https://github.com/annlee/sparse_routing",)


def test_semantic_scholars_citations_and_references_are_their_papers() -> None:
    """The API's ``/paper/{id}/citations`` and ``/references`` wrap each paper in
    ``citingPaper`` or ``citedPaper``, beside the citation's contexts and intents."""
    result = read_source(FOLDER / "s2_citations.json")
    assert not result.errors
    lora, bert = result.records
    assert lora.title == "LoRA: Low-Rank Adaptation of Large Language Models"
    assert lora.authors == ("J. E. Hu", "Yelong Shen") and lora.abstract.startswith("We freeze")
    assert (_extra(lora)["eprint"], _extra(lora)["year"]) == ("2106.09685", 2021)
    assert (_extra(bert)["eprint"], _extra(bert)["doi"]) == ("1810.04805", "10.18653/v1/N19-1423")
    result = read_source(FOLDER / "s2_references.json")
    attention, unresolved = result.records  # a reference S2 could not resolve keeps its title
    assert attention.title == "Attention is All you Need" and _extra(attention)["eprint"]
    assert unresolved.title == "Neural machine translation in a workshop we could not find"
    (error,) = result.errors  # one of nothing at all is said
    assert error.record == 3 and error.reason == "no abstract and no title"


def test_semantic_scholars_author_search_is_its_authors_papers() -> None:
    """``/graph/v1/author/search?fields=name,papers.title,papers.abstract,…`` nests each
    author's papers under it (``{"data": [{"authorId", "name", "papers": […]}]}``): the
    answer was refused, its authors taken for papers with no title."""
    result = read_source(FOLDER / "s2_author_search.json")
    assert not result.errors and result.list_name == "A. Turing"  # the one author's papers
    dystopian, review, text = result.records
    assert dystopian.title.startswith("Dystopian or Utopian?") and dystopian.abstract
    assert (
        review.authors == ("A. Turing", "Jonathan P. Bowen") and review.venue == "Cryptologia 2020"
    )
    assert _extra(review)["doi"] == "10.1080/01611194.2019.1650846"
    assert (text.title, text.abstract, _extra(text)["year"]) == ("Text Processing", "", 2020)


def test_semantic_scholars_authors_in_a_batch_give_each_paper_once() -> None:
    """``/graph/v1/author/batch`` answers an array of authors (``null`` for an id it does not
    know); a paper two of them wrote is one record."""
    result = read_source(FOLDER / "s2_author_batch.json")
    assert not result.errors and result.list_name == "s2_author_batch"
    collection, humble = result.records
    assert collection.title == "On-the-Fly Garbage Collection: An Exercise in Cooperation"
    assert collection.authors[:2] == ("E. Dijkstra", "L. Lamport")
    assert (humble.title, _extra(humble)["doi"]) == (
        "The Humble Programmer",
        "10.1145/3544585.3544588",
    )


def test_semantic_scholars_venue_is_the_one_it_resolved_else_the_journals(tmp_path: Path) -> None:
    """A paper's ``publicationVenue`` (the journal or conference Semantic Scholar linked it
    to) names its venue; without one, its ``journal`` (the publisher's record: name, volume,
    pages), not the free ``venue`` text, which names Turing's 1950 paper by the anthology
    that reprinted it (on main: ``The Philosophy of Artificial Intelligence 1950``); a
    journal that is arXiv is its preprint's, and the conference's name stays."""
    (turing,) = read_source(FOLDER / "s2_paper.json").records
    assert turing.venue == "Mind 1950"
    assert (_extra(turing)["volume"], _extra(turing)["pages"]) == ("LIX", "433–460")
    conference = {
        "paperId": "204e3073870fae3d05bcbc2f6a8e263d9b72e776", "title": "Attention is All you Need",
        "venue": "Neural Information Processing Systems", "year": 2017,
        "publicationVenue": {"id": "d9720b90", "name": "Neural Information Processing Systems",
                             "type": "conference", "alternate_names": ["NeurIPS", "NIPS"]},
        "journal": {"name": "ArXiv", "volume": "abs/1706.03762"},
    }  # fmt: skip
    renamed = {**conference, "paperId": "x1", "title": "Another", "venue": "NIPS",
               "journal": {"name": "Advances in neural information processing systems",
                           "pages": "5998-6008", "volume": "30"}}  # fmt: skip
    unlinked = {**conference, "paperId": "x2", "title": "Unlinked", "publicationVenue": None}
    path = tmp_path / "s2.json"
    path.write_text(json.dumps({"data": [conference, renamed, unlinked]}), encoding="utf-8")
    attention, another, alone = read_source(path).records
    assert attention.venue == "Neural Information Processing Systems 2017"
    assert _extra(attention)["eprint"] == "1706.03762" and "volume" not in _extra(attention)
    assert another.venue == "Neural Information Processing Systems 2017"
    assert alone.venue == "Neural Information Processing Systems 2017"


def test_semantic_scholars_arxiv_journal_with_the_papers_arxiv_id_is_no_journal(
    tmp_path: Path,
) -> None:
    """As Semantic Scholar gives a conference paper that is also a preprint: its arXiv id in
    ``externalIds`` and ``journal: {"name": "ArXiv", "volume": "abs/…"}``. The journal's name
    and volume were taken as the citation's (an ``@article`` in ``journal = {ArXiv}``,
    ``volume = {abs/1706.03762}``, where the version before cited the conference); they are
    the preprint's id, which its ``eprint`` holds already."""
    attention = {
        "paperId": "204e3073870fae3d05bcbc2f6a8e263d9b72e776", "title": "Attention is All you Need",
        "venue": "Neural Information Processing Systems", "year": 2017,
        "externalIds": {"ArXiv": "1706.03762", "DBLP": "conf/nips/VaswaniSPUJGKP17"},
        "publicationVenue": {"id": "d9720b90", "name": "Neural Information Processing Systems",
                             "type": "conference", "alternate_names": ["NeurIPS", "NIPS"]},
        "journal": {"name": "ArXiv", "volume": "abs/1706.03762"},
    }  # fmt: skip
    preprint = {**attention, "paperId": "x3", "title": "A preprint", "venue": "arXiv.org",
                "externalIds": {"ArXiv": "2301.00002"}, "publicationVenue": None,
                "journal": {"name": "ArXiv", "volume": "abs/2301.00002"}}  # fmt: skip
    path = tmp_path / "s2.json"
    path.write_text(json.dumps({"data": [attention, preprint]}), encoding="utf-8")
    cited, alone = read_source(path).records
    assert cited.venue == "Neural Information Processing Systems 2017"
    for record, eprint in ((cited, "1706.03762"), (alone, "2301.00002")):
        extra = _extra(record)
        assert extra["eprint"] == eprint and "volume" not in extra, extra
        assert "journal" not in extra, extra


def test_semantic_scholars_authors_without_their_papers_are_one_line(tmp_path: Path) -> None:
    """An answer asked for the authors' names alone (``/author/batch?fields=name``, as the API
    gives it) holds no paper: said in one line, not as one error per author."""
    path = tmp_path / "authors.json"
    path.write_text(
        '[null, {"authorId": "3234559", "name": "E. Dijkstra"}, '
        '{"authorId": "1726629", "name": "D. Parnas"}]',
        encoding="utf-8",
    )
    with pytest.raises(SourceError) as caught:
        read_source(path)
    assert str(caught.value) == (
        f"{path}: a Semantic Scholar answer of 2 authors and no papers (ask for them: "
        "fields=name,papers.title,papers.abstract,…); nothing to import"
    )


def test_scopus_authors_before_its_full_names_column_are_people() -> None:
    """Scopus's ``Authors`` column writes each person ``Surname Initials``: before 2017 with a
    comma inside (``Dehghan, M., Jiang, B.``), then ``Yagai T., Kimura Y.``; its placeholder
    for none is no one."""
    yagai, wang, lange = read_source(FOLDER / "scopus_2016.csv").records
    assert yagai.authors == ("T. Yagai", "Y. Kimura", "H. Kamada", "S. Nomura")
    assert wang.authors == ("W.T. Wang", "Z. Wang", "M.H. Pu")
    assert lange.authors == ("B. Lange",)
    dehghan, workshop = read_source(FOLDER / "scopus_2017.csv").records
    assert dehghan.authors == ("M. Dehghan", "B. Jiang", "A. Seetharam")
    assert workshop.title == "Proceedings of the 2016 Workshop on Routing"
    assert workshop.authors == ()


def test_scopus_authors_separated_by_semicolons_without_full_names(tmp_path: Path) -> None:
    path = tmp_path / "scopus.csv"
    path.write_text(
        "\ufeffAuthors,Title,Year,Source title,DOI,Link,Source,EID\n"
        '"Vaswani A.; Shazeer N.; van der Berg J.-P.","Attention is all you need",2017,'
        '"Advances in Neural Information Processing Systems",,"",Scopus,2-s2.0-85044\n',
        encoding="utf-8",
    )
    (record,) = read_source(path).records
    assert record.authors == ("A. Vaswani", "N. Shazeer", "J.-P. van der Berg")


def test_scopus_placeholder_among_full_names_is_no_one(tmp_path: Path) -> None:
    path = tmp_path / "scopus.csv"
    path.write_text(
        "\ufeffAuthors,Author full names,Author(s) ID,Title,Year,Source,EID\n"
        '"[No author name available]","[No author name available]","[No author id available]",'
        '"Proceedings of a Workshop",2020,Scopus,2-s2.0-85099\n',
        encoding="utf-8",
    )
    (record,) = read_source(path).records
    assert record.authors == ()


def test_dblps_ris_titles_and_proceedings_end_without_its_full_stop() -> None:
    """DBLP ends every title (and a proceedings' name) with a full stop, which its BibTeX and
    its search API's answer (read without it) do not hold."""
    chini, ai = read_source(FOLDER / "dblp.ris").records
    assert chini.title == "A Framework for Consistency Algorithms"
    assert _extra(chini)["booktitle"] == (
        "40th IARCS Annual Conference on Foundations of Software Technology and Theoretical "
        "Computer Science, FSTTCS 2020"
    )
    assert chini.venue == _extra(chini)["booktitle"]
    assert chini.authors == ("Peter Chini", "Prakash Saivasan") and _extra(chini)["year"] == 2020
    assert ai.title.endswith("for Ad-hoc Retrieval") and ai.url.endswith("2911451.2914688")


def test_dblps_ris_journal_keeps_the_full_stop_of_its_abbreviation(tmp_path: Path) -> None:
    """A journal's name in DBLP is abbreviated (``IEEE Trans. Pattern Anal. Mach. Intell.``, as
    its BibTeX writes it): its last full stop is the abbreviation's, not one DBLP added."""
    path = tmp_path / "dblp.ris"
    path.write_text(
        "TY  - JOUR\nID  - DBLP:journals/pami/HeZRS15\nAU  - He, Kaiming\n"
        "TI  - Spatial Pyramid Pooling in Deep Convolutional Networks for Visual Recognition.\n"
        "JO  - IEEE Trans. Pattern Anal. Mach. Intell.\nVL  - 37\nPY  - 2015//\nER  - \n",
        encoding="utf-8",
    )
    (record,) = read_source(path).records
    assert record.title.endswith("for Visual Recognition")
    assert _extra(record)["journal"] == "IEEE Trans. Pattern Anal. Mach. Intell."
    assert record.venue.startswith("IEEE Trans. Pattern Anal. Mach. Intell. ")


def test_endnotes_ris_keywords_one_a_line_are_each_a_keyword() -> None:
    """EndNote writes a reference's keywords one a line after a single ``KW  -`` (rispy's
    ``tests/data/example_endnote.ris``)."""
    (record,) = read_source(FOLDER / "endnote_keywords.ris").records
    assert record.keywords == ("citation", "reference", "library", "wizardry")
    assert record.authors == ("A. Nonymous Smith", "J. Doe")
    assert (record.title, _extra(record)["doi"]) == (
        "EndNote: The Only Reference I Can Remember",
        "10.1234/endnote.joke.2024",
    )


def test_openreviews_bibtex_names_the_venue_its_edition_says(tmp_path: Path) -> None:
    """OpenReview cites a submission under review as ``Submitted to The Twelfth International
    Conference on Learning Representations`` with the year it was sent in (2023: ICLR 2024's),
    and NeurIPS by its edition (``Thirty-seventh Conference on Neural Information Processing
    Systems``), not by the name the venue table knew."""
    from storage import Library

    library = Library(tmp_path / "home")
    library.import_file(FOLDER / "openreview.bib")
    implicit, improving, scaling, greats = library.papers()
    assert (implicit.venue, implicit.venue_status) == ("ICLR 2024", "Submitted")
    assert (improving.venue, improving.venue_status) == ("ICLR 2022", "Submitted")
    assert (scaling.venue, scaling.venue_status) == ("NeurIPS 2023", "")
    assert (greats.venue, greats.venue_status) == ("NeurIPS 2024", "")


def test_semantic_scholars_venue_names_are_the_venues() -> None:
    from storage.sources.venues import venue_text

    assert venue_text("Neural Information Processing Systems", "2017") == "NeurIPS 2017"
    assert venue_text("Computer Vision and Pattern Recognition 2016") == "CVPR 2016"
    naacl = "North American Chapter of the Association for Computational Linguistics"
    assert venue_text(naacl, "2019") == "NAACL 2019"
    # another conference of a like name stays itself
    icon = "International Conference on Neural Information Processing 2020"
    assert venue_text(icon) == icon


def test_a_workshop_of_a_known_conference_is_neither_its_venue_nor_in_its_proceedings(
    tmp_path: Path,
) -> None:
    """Google Scholar's and OpenReview's BibTeX of a workshop paper (``booktitle = {ICLR 2024
    Workshop on …}``): the paper's venue was "ICLR 2024", and one with no booktitle of its
    own was cited in the conference's proceedings."""
    from storage import Library
    from storage.export import export
    from storage.files.triage_file import TriageState
    from storage.models import Paper
    from storage.sources.venues import venue_text

    long = "ICLR 2024 Workshop on Mathematical and Empirical Understanding of Foundation Models"
    assert venue_text(long) == long
    assert venue_text("ICLR 2024 Workshop ME-FoMo Poster") == "ICLR 2024 Workshop ME-FoMo"
    assert venue_text("ICLR 2024 Poster") == "ICLR 2024"  # the conference's own, as before
    source = tmp_path / "scholar.bib"
    source.write_text(
        "@inproceedings{lee2024small,\n  title={Small Models Know More},\n"
        f"  author={{Lee, Ann}},\n  booktitle={{{long}}},\n  year={{2024}}\n}}\n"
    )
    library = Library(tmp_path / "home")
    library.import_file(source)
    [paper] = library.papers()
    assert (paper.venue, paper.venue_status) == (long, "Workshop")
    workshop = Paper(
        "a", "Small Models", "x", venue="ICLR 2024 Workshop ME-FoMo", venue_status="Poster"
    )
    bib = export([workshop], TriageState(), "bibtex")
    assert "booktitle = {ICLR 2024 Workshop ME-FoMo}" in bib and "year = {2024}" in bib
    assert "Learning Representations" not in bib


def test_an_arxiv_paper_and_a_pdf_named_by_their_addresses_are_kept() -> None:
    """BibSonomy writes the eprint as the arXiv page's address; JabRef links a PDF on the web
    in its file field (``:http\\://…:PDF``), which names no file on this machine."""
    kingma, zapata, online = read_source(FOLDER / "jabref_online.bib").records
    assert _extra(kingma)["eprint"] == "1312.6114v10"
    assert kingma.url == "https://arxiv.org/abs/1312.6114v10"
    assert str(_extra(kingma)["file"]).endswith("KingmaWelling_Auto-EncodingVariationalBayes.pdf")
    assert "pdf" not in _extra(kingma)  # the arXiv paper's own PDF: its id says it
    assert zapata.url == "https://doi.org/10.48550/ARXIV.MATH/0410068"
    assert "pdf" not in _extra(zapata)
    assert _extra(online)["pdf"] == "http://127.0.0.1:9/papers/online2020.pdf"
    assert online.url == "http://127.0.0.1:9/papers/online2020.pdf"


def test_a_stale_submitted_venue_of_an_accepted_note_says_no_submission(tmp_path: Path) -> None:
    """An OpenReview note whose ``venue`` was left ``Submitted to …`` after its decision: its
    ``venueid`` (the conference's own) says it was accepted."""
    path = tmp_path / "notes.json"
    path.write_text(
        '[{"title": "Kept", "venue": "Submitted to ICLR 2024",'
        ' "venueid": "ICLR.cc/2024/Conference"},'
        ' {"title": "Sent", "venue": "Submitted to ICLR 2024"}]',
        encoding="utf-8",
    )
    kept, sent = read_source(path).records
    assert (kept.venue_status, sent.venue_status) == ("", "Submitted")


def test_a_titles_rich_text_reads_as_its_text(tmp_path: Path) -> None:
    """CSL-JSON marks a title's italics, small capitals and scripts with a few HTML elements
    (``<i>``, ``<sub>``, ``<span class="nocase">``), as Zotero keeps titles; Scopus writes its
    subscripts ``<inf>``. The list showed ``YBa<inf>2</inf>Cu<inf>3</inf>O``."""
    pen, fly, plain = read_source(FOLDER / "csl_rich_text.json").records
    assert pen.title == "this is a Pen that is a Smith Pencil"
    assert fly.title == "Effects of Drosophila melanogaster on CO₂ uptake at 10³ ppm"
    assert plain.title == "Whether a < b and <b> alone stay"
    _, wang, _ = read_source(FOLDER / "scopus_2016.csv").records
    assert wang.title.startswith("A Novel Partial Melting Process for YBa₂Cu₃O7−z Superconducting")
    ris = tmp_path / "zotero.ris"  # Zotero's RIS writes the title as Zotero keeps it
    ris.write_text("TY  - JOUR\nTI  - The <i>in vivo</i> role of H<sub>2</sub>S\nER  - \n")
    (record,) = read_source(ris).records
    assert record.title == "The in vivo role of H₂S"
    listed = tmp_path / "list.json"  # a plain JSON list's HTML, as APIs and scrapers write it
    listed.write_text('[{"title": "Why <b>bold</b> reads"}]', encoding="utf-8")
    assert read_source(listed).records[0].title == "Why bold reads"
    table = tmp_path / "list.csv"  # a plain CSV list's title is its text as written
    table.write_text("title\nWhy <b>bold</b> stays\n", encoding="utf-8")
    assert read_source(table).records[0].title == "Why <b>bold</b> stays"


def test_a_year_with_its_letter_gives_the_venue_its_year_alone(tmp_path: Path) -> None:
    """``year = {2023a}`` (a reference list's second work of 2023, as BibDesk and JabRef keep
    it): the year was 2023, the venue shown "Journal of Things 2023a"."""
    source = tmp_path / "lettered.bib"
    source.write_text(
        "@article{a,\n  title = {Year Suffix Things},\n  author = {Lee, Ann},\n"
        "  journal = {Journal of Things},\n  year = {2023b}\n}\n"
    )
    [record] = read_source(source).records
    assert record.venue == "Journal of Things 2023"
