"""Exports as real tools wrote them, trimmed: every entry comes in with its year and links,
or a line says what it could not hold.

Each file of ``tests/fixtures/real_exports`` names, in its opening comment, the public file
whose shape it keeps (Better BibTeX for Zotero's import fixtures, which users sent from
EndNote, BibDesk and their own hands; a README's Mendeley entry; arXiv's feed specification).
"""

from __future__ import annotations

import json
from pathlib import Path

from storage.sources.authors import name_parts
from storage.sources.records import SourceRecord
from storage.sources.registry import read_source

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"


def _extra(record: SourceRecord) -> dict[str, object]:
    return dict(record.extra)


def test_endnote_entries_that_open_with_no_key_are_read() -> None:
    result = read_source(FOLDER / "endnote.bib")
    assert not result.errors
    first, second = result.records
    assert first.title == "Alzheimer mechanisms and therapeutic strategies"
    assert first.authors == ("Y. Huang", "L. Mucke") and first.abstract.startswith("A review")
    assert (first.venue, _extra(first)["year"], _extra(first)["volume"]) == (
        "Cell 2012",
        2012,
        "148",
    )
    assert second.title == "The amyloid hypothesis of Alzheimer's disease at 25 years"
    assert _extra(second)["year"] == 2016


def test_bibdesk_links_are_the_papers_links() -> None:
    senior, pavsic = read_source(FOLDER / "bibdesk.bib").records
    assert senior.url == "https://doi.org/10.1038/s41586-019-1923-7"  # Remote-Url
    assert pavsic.url == "https://doi.org/10.1038/ncomms5764"  # Bdsk-Url-1, before Bdsk-Url-2
    assert pavsic.authors == ("Miha Pavšič", "Gregor Gunčar")


def test_mendeleys_arxiv_id_is_the_papers_arxiv_id() -> None:
    (record,) = read_source(FOLDER / "mendeley_arxivid.bib").records
    assert record.url == "https://arxiv.org/abs/1610.04325"
    assert (_extra(record)["eprint"], _extra(record)["archiveprefix"]) == ("1610.04325", "arXiv")


def test_a_year_typed_as_a_date_is_its_year_and_one_that_names_none_is_said() -> None:
    result = read_source(FOLDER / "years_typed.bib")
    woods, biermann, pending = result.records
    assert (_extra(woods)["year"], _extra(woods)["month"]) == (1978, 1)
    assert _extra(biermann)["year"] == 1975
    assert "year" not in _extra(pending)
    (warning,) = result.warnings
    assert "record 3: 'in press'" in warning and "imported without one" in warning


def test_a_year_that_names_none_gives_way_to_the_date(tmp_path: Path) -> None:
    path = tmp_path / "forthcoming.bib"
    path.write_text("@article{a, title = {Soon}, year = {Forthcoming}, date = {2022-03}}\n")
    result = read_source(path)
    (record,) = result.records
    assert (_extra(record)["year"], _extra(record)["month"]) == (2022, 3)
    assert not result.warnings


def test_arxiv_rss_feeds_give_the_doi_and_journal_of_a_published_paper() -> None:
    (record,) = read_source(FOLDER / "arxiv_rss.atom").records
    assert record.authors == ("Antonin Monteil", "Paul Pegon")
    assert record.url == "https://arxiv.org/abs/2203.01250"
    assert _extra(record)["doi"] == "10.5802/jep.257"
    journal = "Journal de l'École polytechnique - Mathématiques, Tome 11 (2024), pp. 431-472"
    assert _extra(record)["journal"] == journal and record.venue == journal


def test_a_macro_or_comment_opening_its_own_line_is_no_entry_without_a_key(tmp_path: Path) -> None:
    path = tmp_path / "macros.bib"
    path.write_text(
        "@string{\n  jmlr = {Journal of Machine Learning Research}}\n"
        "@comment{\n  note = {not an entry}}\n"
        "@article{k, title = {Kept}, journal = jmlr, year = 2020}\n"
    )
    result = read_source(path)
    (record,) = result.records
    assert (record.title, _extra(record)["journal"]) == (
        "Kept",
        "Journal of Machine Learning Research",
    )
    assert not result.errors


def test_a_doi_in_ris_m3_is_the_papers_doi() -> None:
    # M3 ("type of work") holding the DOI: zotero/translators RIS.js reads it as the DOI
    # (its degenerateImportFieldMap), bare or as EndNote wrote it ("doi: DOI: 10.…")
    zhou, klingberg, scopus = read_source(FOLDER / "pubmed_m3.ris").records
    assert (_extra(zhou)["doi"], zhou.url) == (
        "10.1172/JCI13505",
        "https://doi.org/10.1172/JCI13505",
    )
    assert _extra(klingberg)["doi"] == "10.1016/j.tics.2010.05.002"
    assert "doi" not in _extra(scopus) and not scopus.url  # "M3  - Article": no DOI


def test_arxivs_rss_2_feed_is_read_as_its_atom_feed(tmp_path: Path) -> None:
    result = read_source(FOLDER / "arxiv_rss.xml")
    (record,) = result.records
    assert record.title == "Mass concentration in rescaled first order integral functionals"
    assert record.authors == ("Antonin Monteil", "Paul Pegon")
    assert record.abstract.startswith("First order local minimization problems")
    assert (record.url, record.keywords) == (
        "https://arxiv.org/abs/2203.01250",
        ("math.AP", "math.OC"),
    )
    assert _extra(record)["doi"] == "10.5802/jep.257"
    assert _extra(record)["date"] == "2024-02-23" and _extra(record)["eprint"] == "2203.01250"
    (error,) = result.errors
    assert error.record == 2 and "a replacement (2401.00001v2)" in error.reason
    # a weekend's feed, named .rss: no items, nothing refused, nothing said wrongly
    weekend = tmp_path / "math.OC.rss"
    text = (FOLDER / "arxiv_rss.xml").read_text()
    weekend.write_text(text[: text.index("<item>")] + "</channel>\n</rss>\n")
    empty = read_source(weekend)
    assert not empty.records and not empty.errors


def test_biblatexs_subtitle_ends_the_title() -> None:
    judge, ahmann, book = read_source(FOLDER / "biblatex_subtitle.bib").records
    assert judge.title == (
        "General and Specific Measures in Organizational Behaviour Research: "
        "Considerations, Examples, and Recommandations for Researchers"
    )
    assert (
        ahmann.title
        == "A Descriptive Review of ADHD Coaching Research: Implications for College Students"
    )
    assert (_extra(judge)["year"], _extra(judge)["doi"]) == (2012, "10.1002/job.764")
    assert book.title == "A Book Whose Author Has an Annotation" and book.authors == ("U. Author",)


def test_a_crossref_parent_lends_no_subtitle_link_or_arxiv_id(tmp_path: Path) -> None:
    path = tmp_path / "volume.bib"
    path.write_text(
        "@incollection{child, title = {Chapter}, author = {Lee, Ann}, crossref = {vol}}\n"
        "@book{vol, title = {Volume}, subtitle = {Its Subtitle}, year = 2011,\n"
        "  bdsk-url-1 = {https://doi.org/10.1000/volume}, remote-url = {https://doi.org/10.1000/v},\n"
        "  arxivid = {1610.04325}}\n"
    )
    (record,) = read_source(path).records
    assert (record.title, record.url, _extra(record)["year"]) == ("Chapter", "", 2011)
    assert "eprint" not in _extra(record) and _extra(record)["booktitle"] == "Volume"


def test_zoteros_biblatex_names_a_conference_in_eventtitle() -> None:
    fahad, zhang = read_source(FOLDER / "zotero_biblatex.bib").records
    conference = "12th European Conference on Product and Process Modelling (ECPPM 2018)"
    assert fahad.venue == conference and _extra(fahad)["booktitle"] == conference
    assert (_extra(fahad)["year"], _extra(fahad)["month"]) == (2018, 9)
    assert zhang.authors == ("Hehua Zhang", "Wenqi Zhao", "Jianqiao Gu", "Han Liu", "Ming Gu")
    assert (zhang.venue, _extra(zhang)["year"]) == ("Semantic Web Journal (rejected) 2017", 2017)


def test_a_csl_event_names_the_conference_of_a_paper_without_proceedings() -> None:
    # CSL-JSON as the CSL 1.0.1 schema names the conference, "event"
    # (citation-style-language/schema, schemas/input/csl-data.json), the records those of
    # Zotero's export in Accord-Project/zotero-bibliography (export/biblatex.bib)
    reasoner, conformance = read_source(FOLDER / "csl_event.json").records
    conference = "12th European Conference on Product and Process Modelling (ECPPM 2018)"
    assert reasoner.venue == conference and _extra(reasoner)["booktitle"] == conference
    assert conformance.venue.startswith("26th International Workshop")  # proceedings first


def test_hostile_values_in_the_new_shapes_refuse_nothing_whole(tmp_path: Path) -> None:
    """A review's finds: a ``Bdsk-Url`` numbered with 5,000 digits (``int`` refuses such a
    string: the whole file was an internal error), a ``pubDate`` whose zone overflows (the
    whole feed one), and a DOI in M3 with the sentence's full stop or a semicolon after it."""
    bib = tmp_path / "links.bib"
    bib.write_text(
        "@article{a, title={A Title of Enough Words}, bdsk-url-2={https://arxiv.org/abs/2001.00002},"
        f" bdsk-url-{'9' * 5000}={{https://arxiv.org/abs/2001.00009}},"
        " bdsk-url-10={https://arxiv.org/abs/2001.00010}}\n"
    )
    (record,) = read_source(bib).records
    assert record.url == "https://arxiv.org/abs/2001.00002"
    text = (FOLDER / "arxiv_rss.xml").read_text()
    feed = tmp_path / "cs.LG.xml"
    feed.write_text(text.replace("-0500</pubDate>", "+99999999999999999</pubDate>"))
    assert "+9999" in feed.read_text() and read_source(feed).records
    ris = tmp_path / "m3.ris"
    ris.write_text(
        "TY  - JOUR\nTI  - A Title of Enough Words\nM3  - doi: DOI: 10.1016/j.cell.2020.01.001.\n"
        "ER  - \n\nTY  - JOUR\nTI  - Another Title of Words\nM3  - 10.1172/JCI13505;\nER  - \n"
    )
    first, second = read_source(ris).records
    assert (_extra(first)["doi"], _extra(second)["doi"]) == (
        "10.1016/j.cell.2020.01.001",
        "10.1172/JCI13505",
    )


def test_an_arxiv_papers_date_is_not_its_citations_when_its_journal_names_the_year(
    tmp_path: Path,
) -> None:
    """arXiv's date of a paper its journal reference dates (NeurIPS 2020) is not the paper's
    date of publication: the arXiv reader gives it no month. The RIS and CSL-JSON exports
    wrote it as the publication's date (``DA  - 2020/06/19/``), and imported back into the
    same library they gave the paper a month ("1 updated"); in a fresh one, a wrong one."""
    from storage import Library
    from storage.export import export

    library = Library(tmp_path / "home")
    atom = tmp_path / "feed.xml"
    atom.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"'
        ' xmlns:arxiv="http://arxiv.org/schemas/atom"><title>ArXiv Query</title>'
        "<id>http://arxiv.org/api/q</id><entry><id>http://arxiv.org/abs/2006.11239v2</id>"
        "<published>2020-06-19T17:06:00Z</published>"
        "<title>Denoising Diffusion Probabilistic Models</title>"
        "<summary>We present high quality image synthesis results using diffusion "
        "probabilistic models, a class of latent variable models.</summary>"
        "<author><name>Jonathan Ho</name></author>"
        "<arxiv:journal_ref>NeurIPS 2020</arxiv:journal_ref></entry></feed>\n"
    )
    assert library.import_file(atom).added == 1
    for fmt, name in (("ris", "out.ris"), ("csl-json", "out.csl.json")):
        path = tmp_path / name
        path.write_text(export(library.papers(), library.triage(), fmt), encoding="utf-8")
        if fmt == "ris":
            assert "PY  - 2020\n" in path.read_text() and "DA  - " not in path.read_text()
        else:
            [item] = json.loads(path.read_text(encoding="utf-8"))
            assert item["issued"] == {"date-parts": [[2020]]}
        report = library.import_file(path)
        assert (report.updated, report.skipped) == (0, 1), (fmt, report.summary())


def test_a_crossref_to_an_entry_not_in_the_file_is_said_when_it_lends_what_is_lacking() -> None:
    """biblatex's example chapter copied without its collection comes without a venue and a
    year, said in one line; DBLP's paper names its volume too, but holds its booktitle and year:
    nothing to say of it."""
    result = read_source(FOLDER / "crossref_elsewhere.bib")
    westfahl, bast = result.records
    assert westfahl.title.startswith("The True Frontier: Confronting and Avoiding")
    assert westfahl.authors == ("Gary Westfahl",) and "year" not in _extra(westfahl)
    assert bast.venue.startswith("String Processing") and _extra(bast)["year"] == 2006
    (warning,) = result.warnings
    assert warning == (
        f"{FOLDER / 'crossref_elsewhere.bib'}: record 1: @incollection{{westfahl:space}} "
        "(line 7) names a crossref the file does not hold (westfahl:frontier): imported "
        "without the venue and year it would lend"
    )


def test_an_endnote_doi_is_the_first_electronic_resource_number_that_is_one(
    tmp_path: Path,
) -> None:
    """``%R`` is EndNote's electronic resource number: zotero/translators' Refer/BibIX test
    case gives a book two, an OAI id and a URN, neither a DOI. The first ``%R`` was the DOI
    whatever it held: a DOI after such ids was lost, and the OAI id exported as a DOI."""
    path = tmp_path / "refer.enw"
    path.write_text(
        "%0 Book\n%R oai:nb.bibsys.no:998320569524702202\n"
        "%R URN:NBN:no-nb_digibok_2016062048105\n%T Usynlige byer\n%A Calvino, Italo\n"
        "%D 1982\n\n"
        "%0 Book Section\n%R URN:NBN:no-nb_digibok_2016062048105\n%R doi: 10.1007/11880561_13\n"
        "%T Output-Sensitive Autocompletion Search\n%A Bast, H.\n%D 2006\n",
        encoding="utf-8",
    )
    calvino, bast = read_source(path).records
    assert "doi" not in _extra(calvino)
    assert _extra(bast)["doi"] == "10.1007/11880561_13"
    assert bast.url == "https://doi.org/10.1007/11880561_13"


def test_a_dblp_corr_volume_is_the_papers_arxiv_id() -> None:
    """DBLP's ``journal = {CoRR}, volume = {abs/1709.00103}`` with no url or eprint (as
    citations trim it) came with no link: the DBLP JSON reader read the volume, BibTeX not."""
    (record,) = read_source(FOLDER / "dblp_corr_trimmed.bib").records
    assert record.url == "https://arxiv.org/abs/1709.00103"
    assert (_extra(record)["eprint"], _extra(record)["archiveprefix"]) == ("1709.00103", "arXiv")
    assert record.authors == ("Victor Zhong", "Caiming Xiong", "Richard Socher")


def test_the_csl_bibtex_styles_abstract_note_is_the_abstract() -> None:
    # Zotero's Quick Copy and OJS sites' "How to Cite" write it in ``abstractNote``, and OJS
    # escapes its HTML once or twice: it was no field the reader knew, the abstract lost
    pythia, chunking, vslam = read_source(FOLDER / "csl_bibtex_style.bib").records
    assert pythia.abstract.startswith("We train a suite of language models")
    assert pythia.authors[2:] == ("Kyle O’Brien", "Oskar van der Wal")
    assert (_extra(pythia)["year"], _extra(pythia)["month"]) == (2023, 4)
    assert chunking.abstract == (
        "Retrieval systems ground a model's answers in documents; we cut them into chunks "
        "with BERT, in our own words for this test."
    )
    assert vslam.abstract == (
        "A visual localization and mapping system made of learned parts, in our own words "
        "for this test."
    )


def test_zoteros_biblatex_eprint_with_its_category_is_the_arxiv_id() -> None:
    # ``eprint = {2010.11929 [cs]}``: no arXiv id as written, so the paper had no link, no
    # PDF, and our BibTeX export wrote it back with an empty ``archiveprefix``
    vit, snapkv = read_source(FOLDER / "zotero_biblatex_eprint.bib").records
    assert vit.url == "https://arxiv.org/abs/2010.11929"
    assert (_extra(vit)["eprint"], _extra(vit)["primaryclass"]) == ("2010.11929", "cs")
    assert (_extra(vit)["year"], _extra(vit)["month"]) == (2021, 6)
    assert snapkv.url == "https://arxiv.org/abs/2404.14469"
    assert _extra(snapkv)["primaryclass"] == "cs.CL"


def test_pubmeds_medline_export_is_read_record_by_record(tmp_path: Path) -> None:
    # PubMed's "Citation manager" file was taken for a plain-text list: each record a
    # paragraph, titled by its ``PMID-`` line, its authors and year lost
    for path in (FOLDER / "pubmed.nbib", tmp_path / "pubmed-ibrutinib-set.txt"):
        if not path.exists():  # PubMed's "Save → PubMed format" names it .txt
            path.write_bytes((FOLDER / "pubmed.nbib").read_bytes())
        result = read_source(path)
        assert not result.errors and not result.warnings
        trial, hdac, erratum = result.records
        assert trial.title == (
            "Ibrutinib Regimens versus Chemoimmunotherapy in Older Patients with Untreated CLL"
        )
        assert trial.authors == ("Jennifer A Woyach", "Amy S Ruppert", "Wei Ding")
        assert trial.abstract.startswith("BACKGROUND: A trial of three treatments for older")
        assert "for this test, its lines wrapped" in trial.abstract
        assert trial.url == "https://pubmed.ncbi.nlm.nih.gov/30501481/"
        facts = _extra(trial)
        assert (facts["year"], facts["month"], facts["doi"]) == (2018, 12, "10.1056/NEJMoa1812836")
        assert (facts["journal"], facts["volume"], facts["issue"], facts["pages"]) == (
            "The New England journal of medicine",
            "379",
            "26",
            "2517–2528",
        )
        assert hdac.title.endswith("Sensitize Cells to Sapacitabine in Acute Myelogenous Leukemia")
        assert _extra(hdac)["journal"] == (
            "Clinical cancer research : an official journal of the American Association for "
            "Cancer Research"
        )
        assert (_extra(erratum)["year"], erratum.abstract) == (2021, "")


def test_a_medline_record_naming_its_authors_by_initials_alone_keeps_their_family_names(
    tmp_path: Path,
) -> None:
    """An older PubMed record has ``AU`` lines alone (``Woyach JA``), no ``FAU``: read whole,
    the exports took ``JA`` for the family name (key ``ja1998…``, RIS ``AU  - JA, Woyach``)."""
    path = tmp_path / "old.nbib"
    path.write_text(
        "PMID- 1\nTI  - Old paper.\nAB  - An abstract of an old study measured in many "
        "patients over the years.\nAU  - Woyach JA\nAU  - van der Berg J\nDP  - 1998 Mar\n"
    )
    [record] = read_source(path).records
    assert record.authors == ("J.A. Woyach", "J. van der Berg")


def test_a_medline_author_by_initials_keeps_a_suffix_apart(tmp_path: Path) -> None:
    """``AU  - Baker JR Jr`` (NLM writes a suffix after the initials): the name ended with a
    word not the initials', was read whole, and ``JR`` was its family name (key ``jr…``)."""
    path = tmp_path / "old.nbib"
    path.write_text(
        "PMID- 1\nTI  - Old paper.\nAB  - An abstract of an old study measured in many "
        "patients over the years.\nAU  - Baker JR Jr\nAU  - Hunt DJ III\nAU  - Smith II\n"
        "DP  - 1998 Mar\n"
    )
    [record] = read_source(path).records
    assert record.authors == ("J.R. Baker Jr", "D.J. Hunt III", "I.I. Smith")
    assert [name_parts(name).family for name in record.authors] == ["Baker", "Hunt", "Smith"]
