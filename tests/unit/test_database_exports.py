"""What bibliographic databases export, read as the papers they hold: IEEE Xplore's CSV,
Crossref's REST API answers, Paperpile's and Scopus's BibTeX, Google Scholar's RIS.

The files of ``tests/fixtures/databases`` are small copies of real exports. Each test names
what a reader once lost; the last ones re-import our own exports of them and see nothing
change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Library
from storage.export import EXPORTERS, export
from storage.models import Paper
from storage.sources.citation import citation_of
from tests.unit.test_real_shapes import SUFFIXES

FOLDER = Path(__file__).parent.parent / "fixtures" / "databases"


def _papers(tmp_path: Path, name: str) -> dict[str, Paper]:
    library = Library(tmp_path / "home")
    report = library.import_file(FOLDER / name)
    assert report.refused == 0, report.summary()
    return {p.display_title: p for p in library.papers()}


def test_ieee_xplore_csv_titles_pages_isbns_and_conference_papers(tmp_path: Path) -> None:
    """``Document Title`` is the title (none derived from the abstract), a row without an
    abstract is known by it, ``Start Page``/``End Page`` are the pages, and a ``Document
    Identifier`` of ``IEEE Conferences`` makes an ``@inproceedings{booktitle}``."""
    papers = _papers(tmp_path, "ieee.csv")
    assert set(papers) == {
        "Edge Transformers for Federated Screening",
        "Robust RL under Adversarial Observations",
        "Sparse Mixture Routing for On-Device Speech Recognition",
    }
    journal = papers["Edge Transformers for Federated Screening"]
    cited = citation_of(journal)
    assert (cited.kind, cited.journal, cited.year) == (
        "article", "IEEE Transactions on Neural Networks and Learning Systems", 2023,
    )  # fmt: skip
    assert (journal.fact("pages"), journal.fact("citations")) == ("1201–1215", 12)
    talk = papers["Robust RL under Adversarial Observations"]
    cited = citation_of(talk)
    assert (cited.kind, cited.booktitle, cited.journal) == (
        "inproceedings", "2022 International Joint Conference on Neural Networks (IJCNN)", "",
    )  # fmt: skip
    assert (talk.fact("pages"), talk.fact("isbn")) == ("1–8", "978-1-7281-8671-9")
    untold = papers["Sparse Mixture Routing for On-Device Speech Recognition"]
    assert untold.abstract == "" and citation_of(untold).kind == "inproceedings"


def test_excels_sep_line_names_the_delimiter(tmp_path: Path) -> None:
    """Excel's first line ``sep=,`` (IEEE Xplore's CSV saved from it) is no header row: the
    file was refused (its columns: sep=)."""
    assert set(_papers(tmp_path, "ieee_sep.csv")) == {
        "Edge Transformers for Federated Screening",
        "Robust RL under Adversarial Observations",
    }
    path = tmp_path / "semicolons.txt"  # told by its content alone, a semicolon its delimiter
    path.write_text(
        "sep=;\r\nTitle;Abstract\r\nA, B;We study semicolons, commas, and the files that hold"
        " both of them.\r\n",
        encoding="utf-8",
    )
    library = Library(tmp_path / "semicolons")
    assert library.import_file(path).added == 1
    assert [p.title for p in library.papers()] == ["A, B"]


def test_crossref_api_answers_are_their_works(tmp_path: Path) -> None:
    """A page of works (``message.items``) and one work (``message``): CSL items but for
    their lists of titles, their types and their JATS abstracts (a heading, paragraphs)."""
    papers = _papers(tmp_path, "crossref_works.json")
    journal = papers["Edge Transformers for Federated Screening"]
    cited = citation_of(journal)
    assert (cited.kind, cited.journal, cited.year, cited.month, cited.doi) == (
        "article", "IEEE Transactions on Neural Networks and Learning Systems", 2023, 5,
        "10.1109/TNNLS.2023.1234567",
    )  # fmt: skip
    assert journal.abstract.startswith("We propose a transformer-based model") and "<" not in (
        journal.abstract
    )
    assert journal.url == "https://doi.org/10.1109/TNNLS.2023.1234567"
    assert (journal.fact("pages"), journal.fact("citations"), journal.fact("issn")) == (
        "1201–1215", 12, "2162-237X",
    )  # fmt: skip
    talk = papers["Robust RL under Adversarial Observations: Bounds for the Tabular Case"]
    cited = citation_of(talk)
    assert (cited.kind, cited.booktitle, cited.year, cited.date) == (
        "inproceedings", "2022 International Joint Conference on Neural Networks (IJCNN)", 2022,
        "2022-09-30",
    )  # fmt: skip
    assert talk.abstract == (
        "This paper studies robust reinforcement learning under adversarial perturbations of "
        "the observation space.\n\nWe prove sample complexity bounds for the tabular case and "
        "test them on <10 tasks."
    )
    assert talk.authors == ("Kyung Lee", "RL Benchmarks Consortium")
    assert talk.fact("isbn") == "9781728186719"
    one = _papers(tmp_path / "one", "crossref_work.json")
    assert list(one) == ["Edge Transformers for Federated Screening"]


def test_paperpile_months_after_their_days(tmp_path: Path) -> None:
    """Paperpile writes a month with its day first, ``"11~" # feb``: the macro is the month
    (February), not the day before it (which no month 11, nor no month at all, is)."""
    papers = _papers(tmp_path, "paperpile.bib")
    months = {title: citation_of(p).month for title, p in papers.items()}
    assert months == {
        "SoftMatcha 2: A Fast and Soft Pattern Matcher for Trillion-scale Corpora": 2,
        "Do different prompting methods yield a common task representation in language models?": 2,
        "Sparse Mixture Routing for On-Device Speech Recognition": 3,
    }


def test_scopus_bibtex_conference_papers_keywords_and_links(tmp_path: Path) -> None:
    """Scopus's ``@CONFERENCE`` names its proceedings in ``journal``: the booktitle (BibTeX
    styles warn of an empty one); its ``author_keywords`` are the keywords; its ``url`` is its
    own record page, behind its login: the DOI's page instead."""
    papers = _papers(tmp_path, "scopus.bib")
    talk = papers["Robust RL under Adversarial Observations"]
    cited = citation_of(talk)
    assert (cited.kind, cited.booktitle, cited.journal) == (
        "inproceedings", "Proceedings of the International Joint Conference on Neural Networks", "",
    )  # fmt: skip
    assert talk.url == "https://doi.org/10.1109/IJCNN55064.2022.9892001"
    article = papers[
        "MGMASR: Multi-Graph and Multi-Aspect Neural Network for Service Recommendation in "
        "Internet of Services"
    ]
    assert citation_of(article).journal == "IEEE Transactions on Network and Service Management"
    assert article.keywords == ("service recommendation", "graph neural network")
    assert article.url == "https://doi.org/10.1109/TNSM.2023.3239847"


def test_ris_conference_papers_name_their_proceedings_in_jo_or_jf(tmp_path: Path) -> None:
    """Google Scholar's ``TY  - CONF`` names its proceedings in ``JO`` (once lost), others in
    ``JF`` (once a journal of a paper in proceedings): the booktitle either way."""
    papers = _papers(tmp_path, "gs_conf.ris")
    found = {
        title: (citation_of(p).kind, citation_of(p).booktitle, citation_of(p).journal)
        for title, p in papers.items()
    }
    assert found == {
        "Deep residual learning for image recognition": (
            "inproceedings",
            "Proceedings of the IEEE conference on computer vision and pattern recognition",
            "",
        ),
        "Attention is all you need in conference": (
            "inproceedings", "Advances in Neural Information Processing Systems", "",
        ),
    }  # fmt: skip


def test_arxiv_rss_atom_feeds_authors_abstracts_and_replacements(tmp_path: Path) -> None:
    """arXiv's RSS feed in Atom: ``dc:creator`` authors (once none), abstracts without their
    ``arXiv:… Announce Type: new Abstract:`` start, the id from ``oai:arXiv.org:…``; a
    ``replace`` announcement is a paper of an earlier listing, as in the listing emails."""
    library = Library(tmp_path / "home")
    report = library.import_file(FOLDER / "arxiv_cs_LG.atom")
    assert (report.added, report.refused) == (1, 1)
    assert "replacement (2509.10001v2)" in report.errors[0].reason
    [paper] = library.papers()
    assert paper.title == (
        "Proximity-Based Evidence Retrieval for Uncertainty-Aware Neural Networks"
    )
    assert paper.authors == ("Hassan Gharoun", "Mohammad Sadegh Khorshidi", "Fang Chen")
    assert paper.abstract.startswith("This work proposes an evidence-retrieval mechanism")
    cited = citation_of(paper)
    assert (cited.arxiv, cited.year, cited.month) == ("2509.13338", 2025, 9)


#: Every file above, read together into one library.
FILES = ("ieee.csv", "crossref_works.json", "crossref_work.json", "paperpile.bib", "scopus.bib",
         "gs_conf.ris", "arxiv_cs_LG.atom")  # fmt: skip


@pytest.mark.parametrize("fmt", [e.name for e in EXPORTERS])
def test_our_exports_of_them_reimported_change_nothing(tmp_path: Path, fmt: str) -> None:
    library = Library(tmp_path / "home")
    library.import_files([FOLDER / name for name in FILES])
    papers = library.papers()
    path = tmp_path / f"export{SUFFIXES[fmt]}"
    path.write_text(export(papers, library.triage(), fmt), encoding="utf-8")
    report = library.import_file(path)
    assert (report.added, report.updated, report.refused) == (0, 0, 0), report.summary()
    assert library.papers() == papers
