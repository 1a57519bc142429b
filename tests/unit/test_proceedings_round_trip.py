"""A volume of proceedings (BibTeX's ``@proceedings``, as DBLP and JabRef write it) keeps its
type through the RIS and CSL-JSON exports: both wrote it as a book (RIS ``BOOK``, CSL
``book``), which came back a ``@book``. RIS writes it ``CONF`` ("conference proceeding", as
EndNote's type of that name does), its series in ``T3``, its editors in ``ED``; CSL, which has
no such type, a ``book`` whose ``genre`` says "Conference proceedings". A conference paper
(``CONF`` naming its authors or its proceedings: Zotero's, Google Scholar's) stays a paper.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import Library
from storage.export import export
from storage.sources.citation import citation_of
from storage.sources.registry import read_source

DBLP_PROCEEDINGS = """@proceedings{DBLP:conf/spire/2006,
  editor       = {Fabio Crestani and
                  Paolo Ferragina and
                  Mark Sanderson},
  title        = {String Processing and Information Retrieval, 13th International Conference,
                  {SPIRE} 2006, Glasgow, UK, October 11-13, 2006, Proceedings},
  series       = {Lecture Notes in Computer Science},
  volume       = {4209},
  publisher    = {Springer},
  year         = {2006},
  url          = {http://127.0.0.1/10.1007/11880561},
  doi          = {10.1007/11880561},
  isbn         = {3-540-45774-7},
  timestamp    = {Tue, 14 May 2019 10:00:37 +0200},
  biburl       = {http://127.0.0.1/rec/conf/spire/2006.bib},
  bibsource    = {dblp computer science bibliography, http://127.0.0.1}
}
"""

JABREF_PROCEEDINGS = """% Encoding: UTF-8

@Proceedings{NeurIPS2019,
  title     = {Advances in Neural Information Processing Systems 32},
  year      = {2019},
  editor    = {Wallach, Hanna and Larochelle, Hugo and Beygelzimer, Alina},
  publisher = {Curran Associates, Inc.},
}

@Comment{jabref-meta: databaseType:bibtex;}
"""


def _library(tmp_path: Path, name: str, text: str) -> Library:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    library = Library(tmp_path / f"home-{name}")
    library.import_file(source)
    return library


@pytest.mark.parametrize("text", [DBLP_PROCEEDINGS, JABREF_PROCEEDINGS], ids=["dblp", "jabref"])
@pytest.mark.parametrize("fmt", ["ris", "csl-json", "bibtex"])
def test_proceedings_come_back_as_proceedings(tmp_path: Path, text: str, fmt: str) -> None:
    library = _library(tmp_path, "volume.bib", text)
    (volume,) = library.papers()
    assert citation_of(volume).kind == "proceedings"
    exported = export([volume], library.triage(), fmt)
    name = {"ris": "back.ris", "csl-json": "back.csl.json", "bibtex": "back.bib"}[fmt]
    (back,) = _library(tmp_path, name, exported).papers()
    assert citation_of(back).kind == "proceedings"
    assert back.authors == volume.authors and back.fact("edited_by") == volume.fact("edited_by")
    assert back.fact("series") == volume.fact("series")
    assert back.fact("volume") == volume.fact("volume")


def test_ris_and_csl_write_them_as_their_conventions_say(tmp_path: Path) -> None:
    library = _library(tmp_path, "volume.bib", DBLP_PROCEEDINGS)
    (volume,) = library.papers()
    ris = export([volume], library.triage(), "ris").splitlines()
    assert ris[0] == "TY  - CONF"
    assert "T3  - Lecture Notes in Computer Science" in ris
    assert "ED  - Crestani, Fabio" in ris
    assert not any(line.startswith(("T2", "AU")) for line in ris)
    (item,) = json.loads(export([volume], library.triage(), "csl-json"))
    assert (item["type"], item["genre"]) == ("book", "Conference proceedings")
    assert item["collection-title"] == "Lecture Notes in Computer Science"


ZOTERO_CONFERENCE_PAPER = """TY  - CONF
TI  - Output-Sensitive Autocompletion Search
AU  - Bast, H.
AU  - Weber, Ingmar
PY  - 2006
ER  - 

"""

SCHOLAR_CONFERENCE_PAPER = """TY  - CONF
T1  - Attention is all you need
A1  - Vaswani, Ashish
JO  - Advances in neural information processing systems
SP  - 5998
EP  - 6008
Y1  - 2017
ER  - 
"""

ENDNOTE_EDITED_PAPER = """TY  - CONF
TI  - A paper named by its proceedings' editor alone
A2  - Crestani, Fabio
T2  - String Processing and Information Retrieval
PY  - 2006
ER  - 
"""


@pytest.mark.parametrize(
    "text", [ZOTERO_CONFERENCE_PAPER, SCHOLAR_CONFERENCE_PAPER, ENDNOTE_EDITED_PAPER]
)
def test_a_conference_paper_stays_a_paper(tmp_path: Path, text: str) -> None:
    path = tmp_path / "paper.ris"
    path.write_text(text, encoding="utf-8")
    (record,) = read_source(path).records
    assert dict(record.extra)["entry_type"] == "inproceedings"
