"""DBLP's BibTeX of a Dagstuhl paper (LIPIcs, OASIcs) names its URN beside its DOI, ``urn =
{urn:nbn:de:0030-drops-…}``: it was dropped; it is kept as the paper's ``urn`` (with the DOI,
the ISBN and the ISSN, where identifiers are kept) and written back by the BibTeX export."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library
from storage.export import export

DBLP_LIPICS = """@inproceedings{DBLP:conf/icalp/Williams16,
  author    = {Virginia Vassilevska Williams},
  title     = {Fine-Grained Algorithms and Complexity (Invited Talk)},
  booktitle = {43rd International Colloquium on Automata, Languages, and Programming,
               {ICALP} 2016, July 11-15, 2016, Rome, Italy},
  pages     = {3:1--3:1},
  year      = {2016},
  crossref  = {DBLP:conf/icalp/2016},
  url       = {http://127.0.0.1/10.4230/LIPIcs.ICALP.2016.3},
  doi       = {10.4230/LIPIcs.ICALP.2016.3},
  urn       = {urn:nbn:de:0030-drops-63258},
  timestamp = {Tue, 11 Feb 2020 15:52:14 +0100},
  biburl    = {http://127.0.0.1/rec/conf/icalp/Williams16.bib},
  bibsource = {dblp computer science bibliography, http://127.0.0.1}
}
"""


def _library(tmp_path: Path, name: str, text: str) -> Library:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    library = Library(tmp_path / f"home-{name}")
    library.import_file(source)
    return library


def test_dblps_urn_is_kept_and_written_back(tmp_path: Path) -> None:
    library = _library(tmp_path, "dblp.bib", DBLP_LIPICS)
    (paper,) = library.papers()
    assert paper.fact("urn") == "urn:nbn:de:0030-drops-63258"
    assert paper.fact("doi") == "10.4230/LIPIcs.ICALP.2016.3"
    bib = export([paper], library.triage(), "bibtex")
    assert "urn = {urn:nbn:de:0030-drops-63258}" in bib
    (back,) = _library(tmp_path, "back.bib", bib).papers()
    assert back.fact("urn") == paper.fact("urn")
    (item,) = json.loads(export([paper], library.triage(), "json"))
    assert "urn:nbn:de:0030-drops-63258" in json.dumps(item)


def test_a_hostile_urn_is_handled_as_a_doi_or_an_isbn_is(tmp_path: Path) -> None:
    hostile = DBLP_LIPICS.replace("urn:nbn:de:0030-drops-63258", "urn:\x1b[2J<b>" + "9" * 5000)
    library = _library(tmp_path, "hostile.bib", hostile)
    (paper,) = library.papers()
    urn = paper.fact("urn")
    assert isinstance(urn, str) and len(urn) <= 1000
    bib = export([paper], library.triage(), "bibtex")
    assert "\x1b" not in bib
    for line in bib.splitlines():
        if line.strip().startswith("urn = "):
            assert line.count("{") == line.count("}")
