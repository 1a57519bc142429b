"""Years, arXiv ids and paragraphs as real exports write them, kept on import and in every
citation export: an arXiv feed's dates, CSL-JSON's ``raw`` and ``literal`` dates, Google
Scholar's ``arXiv preprint arXiv:…`` journals and CSV ``Number``, an EndNote abstract of two
paragraphs, and a preprint merged with its published version in either order."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Library
from storage.export import export
from storage.sources.citation import arxiv_id, citation_of, doi_of, year_of
from storage.sources.registry import read_source

_ATOM = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom"
      xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <opensearch:totalResults>2</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/2312.09999v2</id>
    <published>2023-12-29T18:00:00Z</published>
    <updated>2024-02-01T10:00:00Z</updated>
    <title>A Preprint Published at
      ICLR</title>
    <summary>We study a thing and show it works.</summary>
    <author><name>Ann Lee</name></author>
    <arxiv:journal_ref>ICLR 2024</arxiv:journal_ref>
    <category term="cs.LG"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/hep-th/9901001v1</id>
    <published>1999-01-04T00:00:00Z</published>
    <title>A Note on Dualities</title>
    <summary>Dualities in six dimensions, once more.</summary>
    <author><name>C Theorist</name></author>
  </entry>
</feed>
"""


def _imported(tmp_path: Path, name: str, text: str) -> Library:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(source)
    return library


def _exported(library: Library, fmt: str) -> str:
    return export(library.papers(), library.triage(), fmt)


def test_an_arxiv_feed_gives_each_paper_its_year_and_month(tmp_path: Path) -> None:
    library = _imported(tmp_path, "query.atom", _ATOM)
    papers = {p.display_title: p for p in library.papers()}
    note = citation_of(papers["A Note on Dualities"])
    assert (note.year, note.month, note.arxiv) == (1999, 1, "hep-th/9901001")
    published = citation_of(papers["A Preprint Published at ICLR"])
    assert published.year == 2024  # its journal reference's year, not the preprint's
    assert published.month is None  # the preprint's December is not the venue's
    bibtex = _exported(library, "bibtex")
    assert "year = {1999}" in bibtex and "month = jan" in bibtex and "year = {2024}" in bibtex
    assert "PY  - 1999" in _exported(library, "ris")
    assert '"issued"' in _exported(library, "csl-json")


@pytest.mark.parametrize(
    ("issued", "year", "month"),
    [
        ({"raw": "May 2023"}, 2023, 5),  # as citeproc-js parses a raw date
        ({"literal": "Spring 2022"}, 2022, None),
        ({"raw": "2024-05-01"}, 2024, 5),
        ({"raw": 2021}, 2021, None),
        ({"date-parts": [["2020", "3"]]}, 2020, 3),
    ],
)
def test_a_csl_date_written_raw_or_literal_keeps_its_year(
    tmp_path: Path, issued: dict, year: int, month: int | None
) -> None:
    import json

    author = [{"family": "Lee", "given": "Ann"}]
    item = {"id": "x", "type": "article-journal", "title": "A Dated Paper", "issued": issued,
            "container-title": "Journal of Tests", "author": author}  # fmt: skip
    source = tmp_path / "items.json"
    source.write_text(json.dumps([item]), encoding="utf-8")
    [record] = read_source(source).records
    assert dict(record.extra).get("year") == year
    assert dict(record.extra).get("month") == month
    assert record.venue == f"Journal of Tests {year}"


_SCHOLAR_BIB = """@article{doe2023some,
  title={Some Scholar Paper},
  author={Doe, J and Roe, R},
  journal={arXiv preprint arXiv:2305.12345},
  year={2023}
}

@article{theorist1999note,
  title={A note on string dualities},
  author={Theorist, C},
  journal={arXiv preprint hep-th/9901001},
  year={1999}
}
"""


def test_a_scholar_arxiv_preprint_is_cited_by_its_arxiv_id(tmp_path: Path) -> None:
    library = _imported(tmp_path, "scholar.bib", _SCHOLAR_BIB)
    papers = {p.display_title: p for p in library.papers()}
    some = papers["Some Scholar Paper"]
    assert arxiv_id(some) == "2305.12345" and some.url == "https://arxiv.org/abs/2305.12345"
    assert some.venue == "" and citation_of(some).kind == "misc"
    assert arxiv_id(papers["A note on string dualities"]) == "hep-th/9901001"
    bibtex = _exported(library, "bibtex")
    assert "eprint = {2305.12345}" in bibtex and "arXiv preprint" not in bibtex


def test_a_scholar_csv_keeps_the_issue_and_the_arxiv_id(tmp_path: Path) -> None:
    text = (
        "Authors,Title,Publication,Volume,Number,Pages,Year,Publisher\n"
        '"Y LeCun, Y Bengio",Deep learning,Nature,521,7553,436-444,2015,Nature Publishing Group\n'
        '"DP Kingma, J Ba",Adam: A method for stochastic optimization,'
        "arXiv preprint arXiv:1412.6980,,,,2014,\n"
    )
    library = _imported(tmp_path, "citations.csv", text)
    papers = {p.display_title: p for p in library.papers()}
    deep = papers["Deep learning"]
    assert (deep.fact("volume"), deep.fact("issue"), deep.fact("pages")) == (
        "521",
        "7553",
        "436–444",
    )
    assert arxiv_id(papers["Adam: A method for stochastic optimization"]) == "1412.6980"


def test_an_endnote_abstract_of_two_paragraphs_keeps_the_record_whole(tmp_path: Path) -> None:
    text = (
        "%0 Journal Article\n%T Attention is all you need\n%A Vaswani, Ashish\n%D 2017\n"
        "%X The dominant models are recurrent.\n\nWe propose the Transformer.\n"
        "%U http://127.0.0.1:9/abs/1706.03762\n%K attention\n%R 10.48550/arXiv.1706.03762\n\n"
        "%0 Conference Proceedings\n%T Deep residual learning\n%A He, Kaiming\n%D 2016\n"
    )
    result = read_source(_write(tmp_path, "scholar.enw", text))
    assert not result.errors
    first, second = result.records
    assert first.abstract == "The dominant models are recurrent.\n\nWe propose the Transformer."
    assert first.url == "http://127.0.0.1:9/abs/1706.03762" and first.keywords == ("attention",)
    assert dict(first.extra)["doi"] == "10.48550/arXiv.1706.03762"
    assert second.title == "Deep residual learning"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


_PREPRINT = """@misc{kingma2014adam,
  title = {Adam: A Method for Stochastic Optimization},
  author = {Kingma, Diederik P. and Ba, Jimmy},
  year = {2014},
  eprint = {1412.6980},
  archivePrefix = {arXiv},
  primaryClass = {cs.LG}
}
"""
_PUBLISHED = """@inproceedings{kingma2015adam,
  title = {Adam: A Method for Stochastic Optimization},
  author = {Kingma, Diederik P. and Ba, Jimmy},
  booktitle = {3rd International Conference on Learning Representations, {ICLR} 2015},
  year = {2015}
}
"""


@pytest.mark.parametrize("first", ["preprint", "published"])
def test_a_preprint_and_its_published_version_cite_the_published_year(
    tmp_path: Path, first: str
) -> None:
    files = {"preprint": _PREPRINT, "published": _PUBLISHED}
    library = Library(tmp_path / "home")
    for name in (first, next(n for n in files if n != first)):
        library.import_file(_write(tmp_path, f"{name}.bib", files[name]))
    [paper] = library.papers()
    cited = citation_of(paper)
    assert (cited.kind, cited.year, cited.arxiv) == ("inproceedings", 2015, "1412.6980")
    bibtex = _exported(library, "bibtex")
    assert "year = {2015}" in bibtex and "2014" not in bibtex.replace("kingma2014", "")


def test_a_zotero_csv_date_gives_its_month_to_every_citation_export(tmp_path: Path) -> None:
    text = (
        '\ufeff"Key","Item Type","Publication Year","Author","Title","Publication Title",'
        '"Abstract Note","Date"\n'
        '"ABCD1234","journalArticle","2024","Lee, Ann","Graph Networks for Molecules",'
        '"Nature Machine Intelligence","We study graphs of molecules.","2024-05-01"\n'
    )
    library = _imported(tmp_path, "zotero.csv", text)
    [paper] = library.papers()
    assert (citation_of(paper).year, citation_of(paper).month) == (2024, 5)
    assert "month = may" in _exported(library, "bibtex")
    # the fixed point: our own BibTeX export read back into the library changes nothing
    again = _write(tmp_path, "again.bib", _exported(library, "bibtex"))
    report = library.import_file(again)
    assert report.added == 0 and report.updated == 0, report.summary()


def test_a_rejected_or_withdrawn_paper_is_cited_as_submitted_not_published(
    tmp_path: Path,
) -> None:
    """OpenReview's notes of papers its venue did not accept: cited as OpenReview cites them,
    ``@misc`` with the year and the forum link, never as the venue's proceedings."""
    notes = [
        {"title": f"Paper {fate}", "abstract": f"We study {fate} things at length here.",
         "venueid": f"ICLR.cc/2025/Conference/{fate}", "venue": "Submitted to ICLR 2025",
         "forum": f"http://127.0.0.1:9/forum?id={fate[:6]}"}
        for fate in ("Rejected_Submission", "Withdrawn_Submission", "Desk_Rejected_Submission")
    ]  # fmt: skip
    notes.append({"title": "Paper accepted", "abstract": "We study accepted things.",
                  "venueid": "ICLR.cc/2025/Conference", "venue": "ICLR 2025 Poster"})  # fmt: skip
    import json

    library = _imported(tmp_path, "iclr2025.json", json.dumps(notes))
    cited = {p.title: citation_of(p) for p in library.papers()}
    for fate in ("Rejected_Submission", "Withdrawn_Submission", "Desk_Rejected_Submission"):
        assert (cited[f"Paper {fate}"].kind, cited[f"Paper {fate}"].container) == ("misc", "")
        assert cited[f"Paper {fate}"].year == 2025
    assert cited["Paper accepted"].kind == "inproceedings"
    bibtex, ris = _exported(library, "bibtex"), _exported(library, "ris")
    assert bibtex.count("@misc{") == 3 and bibtex.count("booktitle") == 1
    assert ris.count("TY  - CONF") == 1 and ris.count("T2  - ") == 1
    assert _exported(library, "csl-json").count('"paper-conference"') == 1


def test_a_reference_file_named_after_a_venue_gives_its_papers_no_venue(tmp_path: Path) -> None:
    """A file's name is a paper list's venue ("ICLR 2025 Papers"), not a reference file's:
    arXiv's @misc in iclr2025-related-work.bib stays @misc, its year its own."""
    bib = """@misc{vaswani2017attention,
      title={Attention Is All You Need},
      author={Ashish Vaswani and Noam Shazeer},
      year={2017},
      eprint={1706.03762},
      archivePrefix={arXiv},
      primaryClass={cs.CL},
      url={http://127.0.0.1:9/abs/1706.03762},
}
"""
    library = _imported(tmp_path, "iclr2025-related-work.bib", bib)
    [paper] = library.papers()
    assert paper.venue == "" and citation_of(paper).kind == "misc"
    assert "@misc{vaswani2017attention" in _exported(library, "bibtex")
    assert "booktitle" not in _exported(library, "bibtex")


#: One reference without a year (Turing's in Mind) as each reference manager's format writes it.
_NO_YEAR = {
    "bib": "@article{someold,\n  title = {A classic paper with no year given},\n"
    "  author = {Turing, Alan},\n  journal = {Mind},\n}\n"
    "@misc{pytorch,\n  title = {PyTorch: A Library},\n  author = {Paszke, Adam},\n"
    "  howpublished = {\\url{http://127.0.0.1:9/docs}},\n}\n",
    "ris": "TY  - JOUR\nAU  - Turing, Alan\nTI  - A classic paper with no year given\n"
    "T2  - Mind\nER  - \n",
    "enw": "%0 Journal Article\n%T A classic paper with no year given\n%A Turing, Alan\n%J Mind\n",
    "csl.json": '[{"id": "t", "type": "article-journal", "title": "A classic paper with no '
    'year given", "author": [{"family": "Turing", "given": "Alan"}], "container-title": "Mind"}]',
    "txt": "FN Clarivate Analytics Web of Science\nVR 1.0\nPT J\nAU Turing, A\n"
    "AF Turing, Alan\nTI A classic paper with no year given\nSO MIND\nER\n\nEF\n",
    "csv": '"Key","Item Type","Publication Year","Author","Title","Publication Title"\n'
    '"K1","journalArticle","","Turing, Alan","A classic paper with no year given","Mind"\n',
}


@pytest.mark.parametrize("suffix", list(_NO_YEAR))
@pytest.mark.parametrize("stem", ["iclr2025-related-work", "my-thesis-2019"])
def test_a_reference_files_name_gives_its_papers_no_year(
    tmp_path: Path, stem: str, suffix: str
) -> None:
    """A reference file's name is no venue, nor a year: an entry without a year of its own
    stays without one in every export and in ``year:`` searches, though its type was implied
    by its journal (and so not kept, and its file's name read again)."""
    library = _imported(tmp_path, f"{stem}.{suffix}", _NO_YEAR[suffix])
    papers = library.papers()
    assert papers and all(p.fact("entry_type") for p in papers)
    assert [(citation_of(p).year, year_of(p)) for p in papers] == [(None, None)] * len(papers)
    for fmt, year in (("bibtex", "year = "), ("ris", "PY  - "), ("csl-json", '"issued"')):
        assert year not in _exported(library, fmt), fmt
    from storage.search import SearchIndex

    index = SearchIndex(papers)
    assert index.rank("year:2025", limit=None).ids == index.rank("year:2019", limit=None).ids == []
    # our exports of them, read back, are the same papers (nothing changed)
    for fmt, name in (("bibtex", "back.bib"), ("ris", "back.ris"), ("csl-json", "back.csl.json")):
        (tmp_path / name).write_text(_exported(library, fmt), encoding="utf-8")
        report = library.import_file(tmp_path / name)
        assert (report.added, report.updated) == (0, 0), fmt


def test_a_library_given_a_year_by_a_file_name_loses_it_when_the_file_comes_again(
    tmp_path: Path,
) -> None:
    """A paper stored before (the type its journal implies not kept: the year its file's name
    gave it) is mended by importing its file again."""
    import json

    stored = {
        "title": "A classic paper with no year given",
        "authors": ["Alan Turing"],
        "lists": ["iclr2025-related-work"],
        "venue": "Mind",
        "extra": {"journal": "Mind"},
    }
    before = tmp_path / "before.json"
    before.write_text(json.dumps({"format": "papers-tui", "papers": [stored]}), encoding="utf-8")
    library = Library(tmp_path / "home")
    library.import_file(before)
    [paper] = library.papers()
    assert year_of(paper) == 2025  # as the library had it
    source = tmp_path / "iclr2025-related-work.bib"
    source.write_text(_NO_YEAR["bib"], encoding="utf-8")
    library.import_file(source)
    assert [year_of(p) for p in library.papers()] == [None, None]
    assert "year = " not in _exported(library, "bibtex")


def test_a_venue_lists_name_still_gives_its_papers_their_year(tmp_path: Path) -> None:
    """What a list's name is for: a plain-text venue list, a JSON list of a venue's papers."""
    text = "ICLR 2025\n\n" + "We study a thing and show it works on every benchmark we tried.\n"
    listed = _imported(tmp_path, "list.txt", text)
    assert [(citation_of(p).year, year_of(p)) for p in listed.papers()] == [(2025, 2025)]
    rows = '[{"title": "A paper of the list", "authors": ["Ann Lee"]}]'
    (tmp_path / "json").mkdir()
    named = _imported(tmp_path / "json", "neurips2024.json", rows)
    assert [(citation_of(p).year, year_of(p)) for p in named.papers()] == [(2024, 2024)]
    assert "year = {2024}" in _exported(named, "bibtex")


def test_what_reference_managers_write_around_links_venues_and_groups(tmp_path: Path) -> None:
    """Mendeley's ``{\\_}`` in a link and its several links in one ``url``; a DBLP paper with
    its own DOI under a volume's url; JabRef's groups separated by commas."""
    bib = r"""@article{Doe2020,
abstract = {We look at code at https://github.com/foo/bar{\_}baz. It works on every benchmark.},
author = {Doe, Jane},
title = {{A Mendeley Paper}},
url = {http://127.0.0.1:9/abs/2001.00001 http://127.0.0.1:9/paper{\_}page},
groups = {Reading, Thesis},
year = {2020}
}
@inproceedings{DBLP:conf/eccv/X20,
  author    = {Ann Lee},
  title     = {A Chapter of a Volume},
  crossref  = {DBLP:conf/eccv/2020-1},
  doi       = {10.1007/978-3-030-58452-8\_13},
}
@proceedings{DBLP:conf/eccv/2020-1,
  title     = {Computer Vision - {ECCV} 2020},
  publisher = {Springer},
  year      = {2020},
  url       = {http://127.0.0.1:9/volume/978-3-030-58452-8},
}
"""
    library = _imported(tmp_path, "refs.bib", bib)
    mendeley, chapter = library.papers()
    assert mendeley.github == ("https://github.com/foo/bar_baz",)
    assert mendeley.url == "http://127.0.0.1:9/abs/2001.00001"
    assert mendeley.lists == ("Reading", "Thesis")
    # its own DOI's link, not the volume's url
    assert doi_of(chapter.url) == "10.1007/978-3-030-58452-8_13"
    assert chapter.fact("publisher") == "Springer"


def test_a_ris_journal_is_its_full_name_before_its_abbreviation(tmp_path: Path) -> None:
    ris = (
        "TY  - JOUR\r\nTI  - Deep Things\r\nAU  - Lee, Ann\r\n"
        "T2  - Journal of Deep Things\r\nJ2  - J. Deep Things\r\nPY  - 2021\r\nER  - \r\n\r\n"
        "TY  - JOUR\r\nTI  - Only Abbreviated\r\nAU  - Lee, Ann\r\n"
        "J2  - Nat. Mach. Intell.\r\nPY  - 2022\r\nER  - \r\n"
    )
    library = _imported(tmp_path, "scopus.ris", ris)
    assert [citation_of(p).journal for p in library.papers()] == [
        "Journal of Deep Things",
        "Nat. Mach. Intell.",
    ]


def test_semantic_scholar_and_papers_with_code_fields(tmp_path: Path) -> None:
    import json

    s2 = {"data": [{
        "paperId": "649def34f8be52c8b66281af98ae884c09aef38b",
        "externalIds": {"ArXiv": "1706.03762", "DOI": "10.5555/3295222.3295349"},
        "title": "Attention is All you Need",
        "abstract": "The dominant sequence transduction models are based on recurrent networks.",
        "year": 2017, "publicationDate": "2017-06-12",
        "tldr": {"model": "tldr@v2.0.0", "text": "A new network architecture, the Transformer."},
        "authors": [{"authorId": "40348417", "name": "Ashish Vaswani"}],
    }]}  # fmt: skip
    library = _imported(tmp_path, "s2.json", json.dumps(s2))
    pwc = [
        {
            "paper_title": "Attention is All you Need",
            "paper_arxiv_id": "1706.03762",
            "repo_url": "https://github.com/tensorflow/tensor2tensor",
        }
    ]
    (tmp_path / "pwc.json").write_text(json.dumps(pwc), encoding="utf-8")
    library.import_file(tmp_path / "pwc.json")
    [paper] = library.papers()
    assert paper.fact("tldr") == "A new network architecture, the Transformer."
    assert (paper.fact("date"), paper.fact("month")) == ("2017-06-12", 6)
    assert paper.github == ("https://github.com/tensorflow/tensor2tensor",)


_WOS = (
    "\ufeffFN Clarivate Analytics Web of Science\nVR 1.0\n"
    "PT J\nAU Mueller, J\n   Lee, A\nAF Mueller, Juergen\n   Lee, Ann\n"
    "TI Deep learning for protein folding: a study of\n   many things\n"
    "SO NATURE MACHINE INTELLIGENCE\nLA English\nDT Article\n"
    "DE protein folding; deep learning\n"
    "AB We study protein folding with deep networks and show that they work\n"
    "   well on every benchmark we tried.\n"
    "PD JUN 2021\nPY 2021\nVL 3\nIS 6\nBP 512\nEP 520\nDI 10.1038/s42256-021-00001-x\n"
    "UT WOS:000123456700001\nER\n\n"
    "PT S\nAU Smith, J\nAF Smith, John\nTI A Proceedings Paper on Graphs\n"
    "SO COMPUTER VISION - ECCV 2020, PT I\nSE Lecture Notes in Computer Science\n"
    "CT 16th European Conference on Computer Vision (ECCV)\nDT Proceedings Paper\n"
    "AB Graphs are everywhere and we show how to learn on them quickly.\nPY 2020\n"
    "BP 1\nEP 17\nER\n\nEF\n"
)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_a_web_of_science_export_is_read_not_taken_for_abstracts(
    tmp_path: Path, encoding: str
) -> None:
    """Its plain-text export had become two papers titled "FN Clarivate Analytics Web of
    Science" and "PT J"; its tab-delimited one a paper titled by its header row."""
    (tmp_path / "savedrecs.txt").write_text(_WOS, encoding=encoding)
    library = Library(tmp_path / "home")
    report = library.import_file(tmp_path / "savedrecs.txt")
    assert (report.added, report.read) == (2, 2)
    article, chapter = library.papers()
    assert article.title == "Deep learning for protein folding: a study of many things"
    assert article.authors == ("Juergen Mueller", "Ann Lee")
    assert article.abstract.startswith("We study protein folding") and "tried." in article.abstract
    assert article.keywords == ("protein folding", "deep learning")
    cited = citation_of(article)
    assert (cited.kind, cited.journal, cited.year, cited.month) == (
        "article", "NATURE MACHINE INTELLIGENCE", 2021, 6)  # fmt: skip
    assert (citation_of(chapter).kind, citation_of(chapter).booktitle) == (
        "inproceedings", "COMPUTER VISION - ECCV 2020, PT I")  # fmt: skip
    header = "PT\tAU\tAF\tTI\tSO\tDT\tDE\tAB\tPY\tDI\tUT"
    row = "\t".join(
        ["J", "Muller, J; Lee, A", "Muller, Jurgen; Lee, Ann", "A Tabbed Paper", "NATURE",
         "Article", "a; b", "We study tabs in depth and find them useful.", "2021", "10.1038/x",
         "WOS:1"]
    )  # fmt: skip
    (tmp_path / "tabbed.txt").write_text(f"{header}\r\n{row}\r\n", encoding=encoding)
    tabbed = library.import_file(tmp_path / "tabbed.txt")
    assert tabbed.added == 1
    paper = next(p for p in library.papers() if p.title == "A Tabbed Paper")
    assert paper.authors == ("Jurgen Muller", "Ann Lee") and paper.keywords == ("a", "b")


def test_a_month_with_its_day_and_a_date_of_another_year(tmp_path: Path) -> None:
    bib = """@article{a, title={Month With Day}, author={Lee, Ann}, year={2021},
  month = jan # "~15", abstract={We study months with days attached to them in BibTeX.}}
@article{b, title={Year Beats Date}, author={Lee, Ann}, year={2020}, date={2019-12-01},
  abstract={We study years and dates that disagree in BibTeX files.}}
"""
    library = _imported(tmp_path, "months.bib", bib)
    with_day, other_year = library.papers()
    assert citation_of(with_day).month == 1
    assert (citation_of(other_year).year, citation_of(other_year).month) == (2020, None)


def test_endnotes_internal_pdf_is_no_address(tmp_path: Path) -> None:
    ris = (
        "TY  - JOUR\nTI  - Internal PDF\nAU  - Lee, Ann\nPY  - 2020\n"
        "AB  - We study EndNote libraries and where they keep their files.\n"
        "L1  - internal-pdf://0123456789/Lee-2020-Internal.pdf\nER  - \n"
    )
    [paper] = _imported(tmp_path, "endnote.ris", ris).papers()
    assert paper.fact("pdf") is None


def test_a_paper_whose_decision_its_source_does_not_know_is_not_cited_as_published() -> None:
    """Paper Copilot's "Unknown" (brought by ``papers fetch --all``) is no decision: such a
    paper is cited as a submission, as a rejected one is, not as a paper of the proceedings."""
    from storage.sources.citation import not_published

    assert not_published("Unknown") and not_published("  undecided ") and not_published("TBD")
    assert not not_published("Poster") and not not_published("Unknown Territory Oral")
