"""Exports and API answers as more tools write them (Mendeley Desktop's paths in TeX, Semantic
Scholar's Open Research Corpus, DBLP's search API in JSON with its completions, and as it was
before 2017): every paper comes in with its abstract, people, links and attachment as the file
says them.

``tests/fixtures/real_exports/README.md`` names the public file each fixture keeps the shape of.
"""

from __future__ import annotations

from pathlib import Path

from storage.sources.records import SourceRecord
from storage.sources.registry import read_source

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"


def _extra(record: SourceRecord) -> dict[str, object]:
    return dict(record.extra)


def test_mendeleys_file_path_in_tex_names_the_file_its_letters_spell() -> None:
    """Mendeley Desktop writes a path's letters as TeX (``Thi{\\'{e}}ry``): the attachment
    was looked for at ``Thi\\'ery - 2012 - ….pdf``, a file no one has."""
    thiery, elyan, turkeli = read_source(FOLDER / "mendeley_tex_paths.bib").records
    assert _extra(thiery)["file"] == (
        "D:/work/data/biblio/Thiéry - 2012 - Validation des calculs de transport d'énergie "
        "dans le logiciel MARTHE.pdf"
    )
    assert _extra(elyan)["file"] == (
        "C:/Users/carlos/Dropbox/Manuscripts/publishedversion_NCA2020.pdf"
    )
    assert _extra(turkeli)["file"] == (
        "/home/me/Mendeley Desktop/Türkeli, Kemp - 2018 - Straße & Cañon_v2.pdf"
    )
    assert thiery.authors == ("Dominique Thiéry",)


def test_a_mendeley_path_in_tex_is_the_pdf_beside_the_export(tmp_path: Path) -> None:
    pdf = tmp_path / "Thiéry - 2012 - Validation.pdf"
    pdf.write_bytes(b"%PDF-1.4\n")
    bib = tmp_path / "library.bib"
    tex = str(pdf).lstrip("/").replace("Thiéry", "Thi{\\'{e}}ry")
    bib.write_text(f"@article{{Thiery2012,\ntitle = {{Validation}},\nfile = {{:{tex}:pdf}}\n}}\n")
    [paper] = read_source(bib).records
    assert _extra(paper)["file"] == str(pdf)


def test_semantic_scholars_open_research_corpus_keeps_its_abstracts() -> None:
    """The corpus's JSON Lines (``s2-corpus-*.gz``) name the abstract ``paperAbstract`` and the
    paper's page ``s2Url``: both were dropped, every paper came in with no abstract."""
    result = read_source(FOLDER / "s2_open_corpus.jsonl")
    assert not result.errors
    couplets, integrals = result.records
    assert couplets.abstract.startswith("Our words in place of the paper's: a writer")
    assert integrals.abstract.startswith("Our words in place of the paper's: an adaptive")
    assert (
        couplets.url == "https://semanticscholar.org/paper/4cd223df721b722b1c40689caa52932a41fcc223"
    )
    assert (_extra(couplets)["volume"], _extra(couplets)["pages"]) == ("31", "152–163")
    assert _extra(couplets)["doi"] == "10.1093/llc/fqu052" and "pdf" not in _extra(couplets)
    assert _extra(integrals)["pdf"] == "http://127.0.0.1:9/genz/papers/cuhre.pdf"
    assert integrals.authors == ("Jarle Berntsen", "Terje O. Espelid", "Alan Genz")


def test_dblps_search_answer_with_its_completions_is_its_hits() -> None:
    """DBLP's JSON answer lists its completions (``"c": [{"@sc": …, "text": "test"}, …]``)
    before its hits: they were taken for the papers, and the import refused as 'record 1: no
    abstract and no title'."""
    result = read_source(FOLDER / "dblp_search.json")
    assert not result.errors
    three, one = result.records
    assert three.title.startswith("A Test Cost Reduction Method") and not three.title.endswith(".")
    assert three.authors == ("Tsuyoshi Shinogi", "Hiroyuki Yamada", "Terumine Hayashi")
    assert three.venue == "Asian Test Symposium 2005" and three.url == (
        "https://doi.org/10.1109/ATS.2005.17"
    )
    assert (_extra(three)["doi"], _extra(three)["pages"]) == ("10.1109/ATS.2005.17", "366–371")
    assert one.authors == ("Tsuyoshi Shinogi",) and one.title == "A Test Paper of One Author"
    assert _extra(one)["doi"] == "10.1109/ISPDC.2017.18"


def test_dblps_search_answer_in_json_before_2017_reads_as_its_xml_does() -> None:
    """The API before 2017 (``/search/api/?format=json``): the title and its link an object
    (``{"@ee": …, "text": …}``), the venue's parts its attributes, the authors plain names."""
    result = read_source(FOLDER / "dblp_search_2015.json")
    assert not result.errors
    toce, corr, ets = result.records
    assert toce.title.endswith("North-Rhine Westphalia, Germany - A Case Study")
    assert toce.authors == ("Maria Knobelsdorf", "Johannes Magenheim", "Ulrik Schroeder")
    assert toce.url == "http://doi.acm.org/10.1145/2716313" and toce.venue == "TOCE 2015"
    assert (_extra(toce)["volume"], _extra(toce)["issue"], _extra(toce)["pages"]) == (
        "15", "2", "9",
    )  # fmt: skip
    assert _extra(corr)["eprint"] == "1401.7735" and corr.venue == ""
    assert ets.venue == "Educational Technology & Society 2012"
    assert ets.authors == ("Anna Lea Dyckhoff", "Mareike Bültmann", "Wolfgang Müller")
    assert ets.url == "https://dblp.org/rec/journals/ets/DyckhoffZBCS12"
