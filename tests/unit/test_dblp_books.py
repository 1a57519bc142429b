"""DBLP's "Books and Theses" (``@book``, ``@phdthesis``, ``@mastersthesis``) as DBLP writes
them, in its BibTeX, its XML (dump and person pages: ``<book>``, ``<phdthesis>``,
``<mastersthesis>``, ``<series href=…>``) and its search API (``"type": "Books and
Theses"``): each imports with its year, its publisher or school and its series (and its
volume in it), and every citation export writes them back, read again as they were.

Before: a book's ``series`` was dropped by every reader; a master's thesis came back from
RIS and CSL-JSON as a PhD thesis (its type of work, RIS's ``M3`` and CSL's ``genre`` as
Zotero writes a thesis's, neither written nor read); the search API's thesis was a ``book``
with its school for a venue, and a book's ``publisher`` there was dropped.

The entries are DBLP's as its pages give them (``dblp.org/rec/….bib``, ``.xml``, its API's
answer as ``tests/fixtures/real_exports/README.md`` names its sources), links pointed at this
machine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage.export import export
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.citation import citation_of
from storage.sources.papers import build_paper
from storage.sources.registry import read_source

BIBTEX = """@book{DBLP:books/lib/Bishop07,
  author       = {Christopher M. Bishop},
  title        = {Pattern recognition and machine learning, 5th Edition},
  series       = {Information science and statistics},
  publisher    = {Springer},
  year         = {2007},
  url          = {http://127.0.0.1:9/oclc/71008143},
  isbn         = {978-0-387-31073-2},
  timestamp    = {Thu, 16 Jul 2020 01:00:00 +0200},
  biburl       = {https://dblp.org/rec/books/lib/Bishop07.bib},
  bibsource    = {dblp computer science bibliography, https://dblp.org}
}

@phdthesis{DBLP:phd/dnb/Bast04,
  author       = {Hannah Bast},
  title        = {Provably optimal scheduling of similar tasks},
  school       = {Saarland University, Saarbr{\\"{u}}cken, Germany},
  year         = {2004},
  url          = {http://127.0.0.1:9/urn:nbn:de:bsz:291-scidok-2219},
  urn          = {urn:nbn:de:bsz:291-scidok-2219},
  timestamp    = {Sat, 30 Sep 2017 01:00:00 +0200},
  biburl       = {https://dblp.org/rec/phd/dnb/Bast04.bib},
  bibsource    = {dblp computer science bibliography, https://dblp.org}
}

@mastersthesis{DBLP:ms/Brown92,
  author       = {Kurt P. Brown},
  title        = {{PRPL:} {A} Database Workload Language, v1.3},
  school       = {Univ. of Wisconsin-Madison},
  year         = {1992},
  timestamp    = {Wed, 07 Jun 2017 14:43:16 +0200},
  biburl       = {https://dblp.org/rec/ms/Brown92.bib},
  bibsource    = {dblp computer science bibliography, https://dblp.org}
}

@book{DBLP:conf/spire/2006,
  editor       = {Fabio Crestani and
                  Paolo Ferragina and
                  Mark Sanderson},
  title        = {String Processing and Information Retrieval, 13th International Conference,
                  {SPIRE} 2006, Glasgow, UK, October 11-13, 2006, Proceedings},
  series       = {Lecture Notes in Computer Science},
  volume       = {4209},
  publisher    = {Springer},
  year         = {2006},
  isbn         = {3-540-45774-7},
  timestamp    = {Tue, 14 May 2019 10:00:35 +0200},
  biburl       = {https://dblp.org/rec/conf/spire/2006.bib},
  bibsource    = {dblp computer science bibliography, https://dblp.org}
}
"""

XML = """<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE dblp SYSTEM "dblp.dtd">
<dblp>
<book mdate="2017-05-16" key="books/lib/Bishop07">
<author pid="b/ChristopherMBishop">Christopher M. Bishop</author>
<title>Pattern recognition and machine learning, 5th Edition.</title>
<pages>I-XX, 1-738</pages>
<year>2007</year>
<series href="db/series/iss/index.html">Information science and statistics</series>
<publisher>Springer</publisher>
<isbn>978-0-387-31073-2</isbn>
<ee>http://127.0.0.1:9/oclc/71008143</ee>
</book>
<phdthesis mdate="2020-07-15" key="phd/dnb/Bast04">
<author pid="b/HannahBast">Hannah Bast</author>
<title>Provably optimal scheduling of similar tasks.</title>
<year>2004</year>
<school>Saarland University, Saarbr&uuml;cken, Germany</school>
<ee type="oa">http://127.0.0.1:9/urn:nbn:de:bsz:291-scidok-2219</ee>
<note type="uri">urn:nbn:de:bsz:291-scidok-2219</note>
</phdthesis>
<mastersthesis mdate="2017-04-22" key="ms/Brown92">
<author>Kurt P. Brown</author>
<title>PRPL: A Database Workload Language, v1.3.</title>
<year>1992</year>
<school>Univ. of Wisconsin-Madison</school>
</mastersthesis>
<proceedings mdate="2019-05-14" key="conf/spire/2006">
<editor>Fabio Crestani</editor>
<editor>Paolo Ferragina</editor>
<editor>Mark Sanderson</editor>
<title>String Processing and Information Retrieval, 13th International Conference, SPIRE 2006,
Glasgow, UK, October 11-13, 2006, Proceedings</title>
<booktitle>SPIRE</booktitle>
<series href="db/series/lncs/index.html">Lecture Notes in Computer Science</series>
<volume>4209</volume>
<publisher>Springer</publisher>
<year>2006</year>
<isbn>3-540-45774-7</isbn>
</proceedings>
</dblp>
"""

#: The search API's JSON hits of "Books and Theses": a book in a series, with its publisher
#: (as a public client's test records the answer for Knuth's ``Companion``), and a thesis.
SEARCH = {
    "result": {
        "hits": {
            "@total": "2",
            "hit": [
                {
                    "@score": "5",
                    "@id": "1",
                    "info": {
                        "authors": {
                            "author": {"@pid": "k/DonaldEKnuth", "text": "Donald E. Knuth"}
                        },
                        "title": "Companion to the papers of Donald Knuth.",
                        "venue": "CSLI lecture notes series",
                        "volume": "202",
                        "pages": "I-XIII, 1-441",
                        "publisher": "Cambridge University Press",
                        "year": "2012",
                        "type": "Books and Theses",
                        "access": "closed",
                        "key": "books/daglib/0030428",
                        "url": "https://dblp.org/rec/books/daglib/0030428",
                    },
                },
                {
                    "@score": "5",
                    "@id": "2",
                    "info": {
                        "authors": {"author": {"@pid": "b/HannahBast", "text": "Hannah Bast"}},
                        "title": "Provably optimal scheduling of similar tasks.",
                        "venue": "Saarland University, Saarbrücken, Germany",
                        "year": "2004",
                        "type": "Books and Theses",
                        "access": "open",
                        "key": "phd/dnb/Bast04",
                        "url": "https://dblp.org/rec/phd/dnb/Bast04",
                    },
                },
            ],
        }
    }
}

SAARLAND = "Saarland University, Saarbrücken, Germany"
LNCS = "Lecture Notes in Computer Science"
#: What each work is cited as: (title, kind, year, publisher, school, series, volume, isbn).
EXPECTED = [
    ("Pattern recognition and machine learning, 5th Edition", "book", 2007, "Springer", None,
     "Information science and statistics", None, "978-0-387-31073-2"),
    ("Provably optimal scheduling of similar tasks", "phdthesis", 2004, None, SAARLAND, None,
     None, None),
    ("PRPL: A Database Workload Language, v1.3", "mastersthesis", 1992, None,
     "Univ. of Wisconsin-Madison", None, None, None),
]  # fmt: skip
VOLUME = ("Springer", LNCS, "4209", "3-540-45774-7")


def _papers(path: Path) -> list[Paper]:
    result = read_source(path)
    assert not result.errors and not result.warnings
    return [build_paper(r, "l", n) for n, r in enumerate(result.records)]


def _cited(paper: Paper) -> tuple[object, ...]:
    cited = citation_of(paper)
    facts = (paper.fact(n) for n in ("publisher", "school", "series", "volume", "isbn"))
    return (paper.title, cited.kind, cited.year, *facts)


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["dblp.bib", "dblp.xml"])
def test_dblp_books_and_theses_import_with_year_publisher_school_and_series(
    name: str, tmp_path: Path
) -> None:
    papers = _papers(_write(tmp_path, name, BIBTEX if name.endswith(".bib") else XML))
    assert [_cited(p) for p in papers[:3]] == EXPECTED
    volume = papers[3]
    assert volume.authors == ("Fabio Crestani", "Paolo Ferragina", "Mark Sanderson")
    assert citation_of(volume).year == 2006
    facts = (volume.fact(n) for n in ("publisher", "series", "volume", "isbn"))
    assert tuple(facts) == VOLUME


FORMATS = {"bibtex": ".bib", "ris": ".ris", "csl-json": ".csl.json", "json": ".json", "csv": ".csv"}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("name", ["dblp.bib", "dblp.xml"])
def test_dblp_books_and_theses_export_back_without_loss(
    name: str, fmt: str, tmp_path: Path
) -> None:
    papers = _papers(_write(tmp_path, name, BIBTEX if name.endswith(".bib") else XML))[:3]
    written = export(papers, TriageState(), fmt)
    back = _papers(_write(tmp_path, f"back{FORMATS[fmt]}", written))
    assert [_cited(p) for p in back] == EXPECTED
    assert [p.authors for p in back] == [p.authors for p in papers]


def test_the_exports_say_a_masters_thesis_and_a_series_as_their_formats_do() -> None:
    """RIS: a master's thesis's ``M3`` and a book's series in ``T2`` (Zotero's); CSL-JSON:
    the thesis's ``genre`` and the book's ``collection-title``; BibTeX: ``series``."""
    from storage.sources.registry import read_text_content

    papers = [build_paper(r, "l", n) for n, r in enumerate(
        read_text_content(BIBTEX, Path("dblp.bib")).records
    )]  # fmt: skip
    book, _, masters, _ = papers
    ris = export([book, masters], TriageState(), "ris").splitlines()
    assert "T2  - Information science and statistics" in ris
    assert "M3  - Master's thesis" in ris
    items = json.loads(export([book, masters], TriageState(), "csl-json"))
    assert items[0]["collection-title"] == "Information science and statistics"
    assert (items[1]["type"], items[1]["genre"]) == ("thesis", "Master's thesis")
    bib = export([book], TriageState(), "bibtex")
    assert "series = {Information science and statistics}" in bib


def test_the_search_apis_books_and_theses(tmp_path: Path) -> None:
    """A thesis is told by its key (``phd/…``; ``ms/…`` a master's), its venue its school; a
    book's venue beside its publisher is its series."""
    book, thesis = _papers(_write(tmp_path, "knuth.json", json.dumps(SEARCH)))
    assert _cited(book) == (
        "Companion to the papers of Donald Knuth", "book", 2012,
        "Cambridge University Press", None, "CSLI lecture notes series", "202", None,
    )  # fmt: skip
    assert _cited(thesis) == (
        "Provably optimal scheduling of similar tasks", "phdthesis", 2004, None, SAARLAND,
        None, None, None,
    )  # fmt: skip
    bib = export([book, thesis], TriageState(), "bibtex")
    assert "publisher = {Cambridge University Press}" in bib
    assert "@phdthesis{" in bib and "school = {Saarland University" in bib
