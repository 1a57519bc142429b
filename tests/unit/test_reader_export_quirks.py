"""Real exports' quirks that readers once got silently wrong: a CSV row's quote left open, a
CSL-JSON file known only past its start, dates and years in the shapes tools write them,
Web of Science's early-access records, Semantic Scholar's arXiv journal, Scopus's links,
EndNote's keyword lines, OpenReview's publication times."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library
from storage.sources.records import ReadResult
from storage.sources.registry import read_source


def _read(tmp_path: Path, name: str, text: str) -> ReadResult:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_source(path)


def _years(result: ReadResult) -> dict[str, object]:
    return {r.title: dict(r.extra).get("year") for r in result.records}


def test_a_csv_quote_left_open_refuses_its_line_and_reads_the_rows_after_it(
    tmp_path: Path,
) -> None:
    """The second row's abstract opens a quote it never closes: it is refused, naming its
    line, and the third row, which the open quote ran into, is read as itself."""
    text = (
        "Title,Abstract,Year\n"
        'First paper,"We study the first thing in depth and report that it works well.",2020\n'
        'Second paper,"We study the second thing, the so-called ""widget"" problem.,2021\n'
        'Third paper,"We study the third thing in depth and report that it works too.",2022\n'
        'Fourth paper,"We study the fourth thing in depth and report that it works also.",2023\n'
    )
    result = _read(tmp_path, "q.csv", text)
    assert _years(result) == {"First paper": 2020, "Third paper": 2022, "Fourth paper": 2023}
    [error] = result.errors
    assert error.record == 2 and error.reason.startswith("line 3: a quote opened on it")
    assert "Second" not in result.records[1].abstract


def test_a_csv_quote_never_closed_is_refused_not_read_to_the_end(tmp_path: Path) -> None:
    text = (
        "Title,Abstract,Year\n"
        'First paper,"An abstract whose quote is never closed, on to the end of the file,2020\n'
        "Second paper,A plain abstract of the second paper long enough to be one at all.,2021\n"
        "Third paper,A plain abstract of the third paper long enough to be one at all.,2022\n"
    )
    result = _read(tmp_path, "open.csv", text)
    assert _years(result) == {"Second paper": 2021, "Third paper": 2022}
    [error] = result.errors
    assert "line 2" in error.reason and "never closed" in error.reason


def test_csv_rows_a_quote_ran_into_that_are_no_rows_are_refused_together(
    tmp_path: Path,
) -> None:
    """An abstract of two lines whose inner quotes are not doubled: its lines are no rows of
    their own, so both are refused, saying which; a stray space after a closing quote on one
    line is read as before."""
    text = (
        "Title,Abstract,Year\n"
        'First paper,"An abstract on two lines,\n'
        'with a "quoted" word inside it, not doubled as it should be.",2020\n'
        'Second paper,"An abstract with a space after its closing quote, long enough." ,2021\n'
    )
    result = _read(tmp_path, "inner.csv", text)
    assert [r.title for r in result.records] == ["Second paper"]
    [error] = result.errors
    assert error.reason.startswith("lines 2–3: a quote opened on line 2")


def test_csl_json_is_known_by_its_items_when_its_start_names_nothing_of_csl(
    tmp_path: Path,
) -> None:
    """Zotero writes ``abstract`` before ``container-title``: a first abstract of 9,000
    characters hid every name of CSL's own from the sniff, and the generic JSON reader lost
    the authors and the year."""
    long_review = {
        "id": "http://127.0.0.1:9/users/1/items/A",
        "type": "article-journal",
        "abstract": "We study a long review topic in depth across many settings. " * 150,
        "container-title": "Physics Reports",
        "title": "A very long review",
        "author": [{"family": "Lee", "given": "Ann"}, {"family": "Park", "given": "Bo"}],
        "issued": {"date-parts": [["2019", 3]]},
    }
    second = {
        "type": "article-journal",
        "title": "Second item",
        "container-title": "Nature",
        "author": [{"family": "Roe", "given": "Rick"}],
        "issued": {"date-parts": [[2020]]},
    }
    result = _read(tmp_path, "My Library.json", json.dumps([long_review, second], indent="\t"))
    review, item = result.records
    assert review.authors == ("Ann Lee", "Bo Park") and item.authors == ("Rick Roe",)
    assert dict(review.extra)["year"] == 2019 and dict(review.extra)["journal"] == "Physics Reports"
    assert _years(result)["Second item"] == 2020


def test_csl_json_dates_written_as_edtf_strings_give_their_year_and_month(
    tmp_path: Path,
) -> None:
    """CSL's schema prefers ``"issued": "2021-03-04"`` (EDTF) to ``date-parts``."""
    issued = {"A day": "2021-03-04", "A month": "2021-03", "A year": "2019",
              "An interval": "2020-03/2020-05", "Uncertain": "2022?",
              "A season": "2018-21"}  # fmt: skip
    items = [
        {"type": "article-journal", "title": title, "container-title": "Nature", "issued": date}
        for title, date in issued.items()
    ]
    result = _read(tmp_path, "dates.json", json.dumps(items))
    found = {r.title: dict(r.extra) for r in result.records}
    assert {t: (e.get("year"), e.get("month"), e.get("date")) for t, e in found.items()} == {
        "A day": (2021, 3, "2021-03-04"),
        "A month": (2021, 3, None),
        "A year": (2019, None, None),
        "An interval": (2020, 3, None),
        "Uncertain": (2022, None, None),
        "A season": (2018, None, None),
    }
    assert result.records[0].venue == "Nature 2021"


def test_a_year_written_as_a_float_is_the_year_in_json_and_csv(tmp_path: Path) -> None:
    """pandas writes a year column with a gap in it as floats: ``2024.0``, in JSON and CSV."""
    items = [
        {"title": "Float year", "authors": ["Ann Lee"], "year": 2024.0,
         "journal": "Nature Machine Intelligence"},
        {"title": "Float year, no venue", "authors": ["Bo Park"], "year": 2021.0},
    ]  # fmt: skip
    result = _read(tmp_path, "p2.json", json.dumps(items))
    assert _years(result) == {"Float year": 2024, "Float year, no venue": 2021}
    assert result.records[0].venue == "Nature Machine Intelligence 2024"
    table = _read(tmp_path, "p2.csv", "title,venue,year\nFloat year,ICLR,2024.0\nNo year,ICLR,\n")
    assert _years(table) == {"Float year": 2024, "No year": None}
    assert [r.venue for r in table.records] == ["ICLR 2024", "ICLR"]


def test_a_json_record_with_a_date_and_no_year_takes_the_dates_year(tmp_path: Path) -> None:
    """Papers with Code gives a ``date`` and no ``year``: the date's year is the paper's, as a
    BibTeX ``date`` gives its year, unless its venue names a year (the date is then the
    preprint's: the ICLR 2022 paper is dated 2021)."""
    items = [
        {"title": "LoRA", "arxiv_id": "2106.09685", "proceeding": "ICLR 2022 4",
         "date": "2021-06-17"},
        {"title": "An arXiv-only paper", "arxiv_id": "2301.00001", "proceeding": None,
         "date": "2023-01-01"},
        {"title": "In a journal", "journal": "Nature", "date": "2020-05-02"},
    ]  # fmt: skip
    result = _read(tmp_path, "pwc.json", json.dumps(items))
    assert _years(result) == {"LoRA": None, "An arXiv-only paper": 2023, "In a journal": 2020}
    lora, preprint, journal = result.records
    assert lora.venue == "ICLR 2022 4" and dict(preprint.extra)["month"] == 1
    assert journal.venue == "Nature 2020"


_EARLY_ACCESS = """\ufeffFN Clarivate Analytics Web of Science
VR 1.0
PT J
AF Lee, Ann
TI An early access article
SO NATURE MACHINE INTELLIGENCE
DT Article; Early Access
AB We report a result that appeared online first and is not yet in an issue of the journal.
DI 10.1038/s42256-024-00001-1
EA JAN 2024
TC 7
UT WOS:001140000000001
ER

PT J
AF Roe, Rick
TI Early access with a year alone
SO NEURAL COMPUTATION
EY 2023
ER

EF
"""


def test_a_web_of_science_early_access_record_takes_its_year_from_its_ea_date(
    tmp_path: Path,
) -> None:
    """An early-access record has no ``PY`` until it is in an issue: ``EA JAN 2024`` (or
    ``EY 2023``) is when it was published."""
    result = _read(tmp_path, "savedrecs.txt", _EARLY_ACCESS)
    early, alone = result.records
    assert (dict(early.extra)["year"], dict(early.extra)["month"]) == (2024, 1)
    assert early.venue == "NATURE MACHINE INTELLIGENCE 2024" and dict(early.extra)["citations"] == 7
    assert dict(alone.extra)["year"] == 2023 and "month" not in dict(alone.extra)
    header = "PT\tAF\tTI\tSO\tAB\tPY\tEA\tUT\n"
    row = "J\tLee, Ann\tTabbed early access\tNATURE\tAn abstract.\t\tFEB 2024\tWOS:1\n"
    [tabbed] = _read(tmp_path, "tab.txt", header + row).records
    assert (dict(tabbed.extra)["year"], dict(tabbed.extra)["month"]) == (2024, 2)


def test_web_of_sciences_excel_export_saved_as_csv_is_read_as_its_other_exports(
    tmp_path: Path,
) -> None:
    """Its ``Article Title`` is the title; its ``Publication Date`` ``DEC`` is a month, not
    a date; ``Early Access Date`` gives a year to a record without one."""
    text = (
        "Publication Type,Authors,Author Full Names,Article Title,Source Title,Document Type,"
        "Abstract,Publication Date,Publication Year,Start Page,End Page,DOI,Early Access Date,"
        '"Times Cited, WoS Core",UT (Unique WOS ID)\n'
        'J,"Vaswani, A; Shazeer, N","Vaswani, Ashish; Shazeer, Noam",Attention is all you need,'
        "ADVANCES IN NEURAL INFORMATION PROCESSING SYSTEMS,Article,The dominant sequence "
        "transduction models are based on recurrent networks.,DEC,2017,5998,6008,"
        "10.5555/3295222.3295349,,12,WOS:000452649406008\n"
        'J,"Lee, A","Lee, Ann",Early,NATURE,Article; Early Access,An abstract,,,,,,'
        "JAN 2024,,WOS:001140000000001\n"
    )
    attention, early = _read(tmp_path, "savedrecs.csv", text).records
    assert attention.title == "Attention is all you need"
    assert attention.authors == ("Ashish Vaswani", "Noam Shazeer")
    facts = dict(attention.extra)
    assert (facts["year"], facts["month"], facts["pages"], facts["citations"]) == (
        2017, 12, "5998–6008", 12,
    )  # fmt: skip
    assert "date" not in facts and facts["journal"].startswith("ADVANCES")
    assert early.title == "Early" and dict(early.extra)["year"] == 2024


def test_semantic_scholars_bibtex_arxiv_journal_and_volume_is_an_arxiv_preprint(
    tmp_path: Path,
) -> None:
    """Semantic Scholar's BibTeX cites a preprint as ``journal={ArXiv}`` with its id in
    ``volume={abs/2106.09685}``: a preprint with that eprint, no journal called ArXiv."""
    text = (
        "@article{Hu2021LoRALA,\n  title={LoRA: Low-Rank Adaptation of Large Language Models},\n"
        "  author={J. Edward Hu and Yelong Shen},\n  journal={ArXiv},\n  year={2021},\n"
        "  volume={abs/2106.09685},\n"
        "  url={http://127.0.0.1:9/CorpusID:235458009}\n}\n"
    )
    [lora] = _read(tmp_path, "s2.bib", text).records
    facts = dict(lora.extra)
    assert (facts["eprint"], facts["archiveprefix"], facts["entry_type"]) == (
        "2106.09685", "arXiv", "misc",
    )  # fmt: skip
    assert "journal" not in facts and "volume" not in facts and lora.venue == ""


def test_scopus_ris_is_linked_by_its_doi_and_keeps_its_citation_count(tmp_path: Path) -> None:
    """Scopus's ``UR`` is its own record page, which only its subscribers may open: a record
    with a DOI is linked by the DOI, as Scopus's CSV is; ``Cited By: 12`` in ``N1`` is the
    citation count, and the rest of the note stays a note."""
    text = (
        "TY  - CONF\nAU  - Zhang, W.\nTI  - Efficient Attention for Dense Prediction\n"
        "PY  - 2023\nDO  - 10.1109/CVPR52729.2023.00123\n"
        "UR  - https://www.scopus.com/inward/record.uri?eid=2-s2.0-85173924000&partnerID=40\n"
        "DB  - Scopus\nN1  - Export Date: 15 January 2024; Cited By: 12\nER  - \n\n"
        "TY  - JOUR\nTI  - Without a DOI\n"
        "UR  - https://www.scopus.com/inward/record.uri?eid=2-s2.0-1\n"
        "N1  - Export Date: 15 January 2024; Cited By :3; Correspondence Address: Lee, A.\n"
        "ER  - \n"
    )
    attention, alone = _read(tmp_path, "scopus.ris", text).records
    assert attention.url == "https://doi.org/10.1109/CVPR52729.2023.00123"
    assert dict(attention.extra)["citations"] == 12 and "bib_note" not in dict(attention.extra)
    assert alone.url.startswith("https://www.scopus.com/inward/record.uri")
    facts = dict(alone.extra)
    assert facts["citations"] == 3 and facts["bib_note"] == "Correspondence Address: Lee, A."


def test_endnote_keywords_are_split_on_their_lines_and_separators(tmp_path: Path) -> None:
    """``%K`` keywords: one a line (a ``%K``'s continued lines too), ``;`` between them, or
    ``,`` when all are on one line; a keyword alone on its line keeps its comma."""
    text = (
        "%0 Journal Article\n%T Continued lines\n%K Machine learning\nNeural networks\n"
        "Deep learning\n\n"
        "%0 Conference Paper\n%T One line, commas\n%K graph neural networks, recommendation\n\n"
        "%0 Journal Article\n%T Semicolons\n%K attention; transformers\n\n"
        "%0 Journal Article\n%T One a line\n%K Neural Networks, Computer\n%K Humans\n"
    )
    result = _read(tmp_path, "refs.enw", text)
    assert {r.title: r.keywords for r in result.records} == {
        "Continued lines": ("Machine learning", "Neural networks", "Deep learning"),
        "One line, commas": ("graph neural networks", "recommendation"),
        "Semicolons": ("attention", "transformers"),
        "One a line": ("Neural Networks, Computer", "Humans"),
    }


def test_an_openreview_v2_note_saved_to_a_file_takes_its_year_as_a_fetch_does(
    tmp_path: Path,
) -> None:
    """A TMLR note's venue ("Accepted by TMLR") names no year: its publication date
    (``pdate``, ms since the epoch) gives it, before its creation date (``cdate``); a note
    whose venue names a year keeps that one."""
    notes = {
        "notes": [
            {"id": "nZeVKeeFYf9", "content": {"title": {"value": "LoRA"},
             "venue": {"value": "ICLR 2022 Poster"}}, "cdate": 1632875000000},
            {"id": "Xyz123abc", "content": {"title": {"value": "A TMLR paper"},
             "venue": {"value": "Accepted by TMLR"}, "venueid": {"value": "TMLR"}},
             "cdate": 1700000000000, "pdate": 1710000000000},
            {"id": "Abc456def", "content": {"title": {"value": "Under review"},
             "venue": {"value": "Under review for TMLR"}}, "cdate": 1700000000000},
        ],
        "count": 3,
    }  # fmt: skip
    result = _read(tmp_path, "tmlr.json", json.dumps(notes))
    assert _years(result) == {"LoRA": None, "A TMLR paper": 2024, "Under review": 2023}
    assert result.records[1].venue == "Accepted by TMLR 2024"


def test_biblatex_xdata_entries_lend_their_fields_and_are_no_papers(tmp_path: Path) -> None:
    """biblatex's ``@xdata`` holds fields written once for many entries (``xdata =
    {neurips2020}``): they are the entries' own, and the ``@xdata`` entry, which is no paper,
    is counted as a container, not refused as a record without a title."""
    text = (
        '@STRING(nips = "Advances in Neural Information Processing Systems")\n'
        "@xdata{neurips2020,\n  booktitle = nips,\n  publisher = {Curran Associates},\n"
        "  year = {2020},\n  xdata = {curran}\n}\n"
        "@XData{curran,\n  location = {Red Hook},\n  publisher = {Someone Else}\n}\n"
        "@inproceedings{ho2020,\n  title = {Denoising Diffusion Probabilistic Models},\n"
        "  author = {Ho, Jonathan},\n  xdata = {NeurIPS2020},\n}\n"
        "@inproceedings{own,\n  title = {A Paper of Its Own Year},\n  year = {2021},\n"
        "  xdata = {neurips2020, missing}\n}\n"
    )
    result = _read(tmp_path, "b10.bib", text)
    assert not result.errors and result.containers == 2
    ho, own = result.records
    facts = dict(ho.extra)
    assert (facts["booktitle"], facts["publisher"], facts["year"]) == (
        "Advances in Neural Information Processing Systems", "Curran Associates", 2020,
    )  # fmt: skip
    assert ho.venue == "Advances in Neural Information Processing Systems 2020"
    assert dict(own.extra)["year"] == 2021
    report = Library(tmp_path / "home").import_file(tmp_path / "b10.bib")
    assert "2 crossref or xdata containers (4 records read)" in report.summary()


def test_a_semantic_scholar_paper_without_an_abstract_is_read_by_its_title(
    tmp_path: Path,
) -> None:
    """Semantic Scholar's API answers for one paper with ``"abstract": null`` for many: the
    paper is read by its title, not its authors' list taken for a list of papers."""
    paper = {
        "paperId": "a8ca46b171467ceb2d7652fbfb67fe701ad86092",
        "externalIds": {"ArXiv": "2106.09685", "CorpusId": 235458009},
        "title": "LoRA: Low-Rank Adaptation of Large Language Models",
        "abstract": None,
        "venue": "International Conference on Learning Representations",
        "year": 2021,
        "citationCount": 5000,
        "authors": [{"authorId": "2157840220", "name": "J. E. Hu"},
                    {"authorId": "1752875", "name": "Yelong Shen"}],
    }  # fmt: skip
    result = _read(tmp_path, "s2one.json", json.dumps(paper))
    [lora] = result.records
    assert not result.errors and lora.authors == ("J. E. Hu", "Yelong Shen")
    assert lora.title.startswith("LoRA") and dict(lora.extra)["eprint"] == "2106.09685"


def _dblp(hits: object) -> str:
    return json.dumps({"result": {"query": "lora*", "status": {"@code": "200", "text": "OK"},
                       "hits": {"@total": "3", "@sent": "3", "hit": hits}}})  # fmt: skip


def test_dblps_search_api_answer_is_read_as_its_papers(tmp_path: Path) -> None:
    """DBLP's search API: ``{"result": {"hits": {"hit": [{"info": {…}}]}}}``; an author alone
    is an object, not a list, and a name carries DBLP's number (``Ann Lee 0001``)."""
    hits = [
        {"@score": "7", "@id": "1970786", "url": "URL#1970786", "info": {
            "authors": {"author": [{"@pid": "152/5077", "text": "Edward J. Hu"},
                                   {"@pid": "222/7885", "text": "Yelong Shen"}]},
            "title": "LoRA: Low-Rank Adaptation of Large Language Models.", "venue": "ICLR",
            "year": "2022", "type": "Conference and Workshop Papers",
            "key": "conf/iclr/HuSWALWWC22", "ee": "http://127.0.0.1:9/forum?id=nZeVKeeFYf9",
            "url": "http://127.0.0.1:9/rec/conf/iclr/HuSWALWWC22"}},
        {"@score": "7", "@id": "1970787", "info": {
            "authors": {"author": {"@pid": "152/5077", "text": "Edward J. Hu"}},
            "title": "A Single-Author Paper.", "venue": "CoRR", "volume": "abs/2106.09686",
            "year": "2021", "type": "Informal and Other Publications",
            "doi": "10.48550/ARXIV.2106.09686"}},
        {"@score": "7", "@id": "1970788", "info": {
            "authors": {"author": [{"@pid": "1/1", "text": "Ann Lee 0001"}]},
            "title": "Journal Paper.", "venue": "J. Mach. Learn. Res.", "volume": "24",
            "pages": "1-40", "year": "2023", "type": "Journal Articles",
            "ee": "http://127.0.0.1:9/papers/v24/22-0001.html"}},
    ]  # fmt: skip
    result = _read(tmp_path, "dblp.json", _dblp(hits))
    assert not result.errors
    lora, corr, journal = result.records
    assert lora.title == "LoRA: Low-Rank Adaptation of Large Language Models"
    assert lora.authors == ("Edward J. Hu", "Yelong Shen") and lora.venue == "ICLR 2022"
    assert lora.url == "http://127.0.0.1:9/forum?id=nZeVKeeFYf9"
    assert dict(lora.extra)["entry_type"] == "inproceedings"
    assert corr.authors == ("Edward J. Hu",) and corr.venue == ""
    assert (dict(corr.extra)["eprint"], dict(corr.extra)["entry_type"]) == ("2106.09686", "misc")
    assert journal.authors == ("Ann Lee",) and dict(journal.extra)["journal"].startswith("J. M")
    [alone] = _read(tmp_path, "one.json", _dblp(hits[0])).records
    assert alone.title == lora.title
