"""DBLP's XML (``storage.sources.dblp_xml``): a person's publication list, the records of
its dump and its search API's answer, as dblp.org writes them (the fixtures' sources:
``tests/fixtures/real_exports/README.md``); and the hostile border (entities, a file cut
short, markup, control characters, no publications). Each of these files was refused in one
line before ("an XML document whose root is <dblpperson>…")."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from storage import Library
from storage.errors import SourceError
from storage.sources.dblp_xml import DBLP_XML, MAX_VALUE_CHARS
from storage.sources.records import Fit, SourceRecord
from storage.sources.registry import read_source, reader_for

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"

#: DBLP's search API's answer in XML (``/search/publ/api?q=…&format=xml``): its frame
#: (``query``, ``status``, ``time``, ``completions``, then ``hits``, lines ending CRLF) as
#: CompleteSearch, the engine behind it, writes it; each hit's ``info`` the fields of the
#: same API's JSON answer (``tests/unit/test_reader_export_quirks.py``), its ``@`` keys the
#: attributes they stand for.
SEARCH = "\r\n".join(
    [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<result>",
        '<query id="1970786">lora low rank adaptation*</query>',
        '<status code="200">OK</status>',
        '<time unit="msecs">12.34</time>',
        '<completions total="1" computed="1" sent="1">',
        '<c sc="2" dc="2" oc="2" id="9">adaptation</c>',
        "</completions>",
        '<hits total="3" computed="3" sent="3" first="0">',
        '<hit score="7" id="1970786"><info><authors>'
        '<author pid="152/5077">Edward J. Hu</author><author pid="222/7885">Yelong Shen</author>'
        "</authors><title>LoRA: Low-Rank Adaptation of Large Language Models.</title>"
        "<venue>ICLR</venue><year>2022</year><type>Conference and Workshop Papers</type>"
        "<access>open</access><key>conf/iclr/HuSWALWWC22</key>"
        "<ee>http://127.0.0.1:9/forum?id=nZeVKeeFYf9</ee>"
        "<url>https://dblp.org/rec/conf/iclr/HuSWALWWC22</url></info><url>URL#1970786</url></hit>",
        '<hit score="7" id="1970787"><info><authors>'
        '<author pid="152/5077">Edward J. Hu</author></authors>'
        "<title>A Single-Author Paper.</title><venue>CoRR</venue>"
        "<volume>abs/2106.09686</volume><year>2021</year>"
        "<type>Informal and Other Publications</type><access>open</access>"
        "<key>journals/corr/abs-2106-09686</key><doi>10.48550/ARXIV.2106.09686</doi>"
        "<ee>https://doi.org/10.48550/arXiv.2106.09686</ee>"
        "<url>https://dblp.org/rec/journals/corr/abs-2106-09686</url></info></hit>",
        '<hit score="7" id="1970788"><info><authors>'
        '<author pid="1/1">Ann Lee 0001</author></authors><title>Journal Paper.</title>'
        "<venue>J. Mach. Learn. Res.</venue><volume>24</volume><pages>1-40</pages>"
        "<year>2023</year><type>Journal Articles</type><key>journals/jmlr/Lee23</key>"
        "<ee>http://127.0.0.1:9/papers/v24/22-0001.html</ee></info></hit>",
        "</hits>",
        "</result>",
        "",
    ]
)
#: A record of the dump in the DTD's title markup (``<i>``, ``<sub>``, ``<sup>``, ``<tt>``)
#: and entities (``&ouml;``), a volume of its editors, a withdrawn paper (our own words).
DUMP = """<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE dblp SYSTEM "dblp.dtd">
<dblp>
<inproceedings key="conf/xyz/MullerL21" mdate="2021-07-01">
<author pid="1/2">J&ouml;rg M&uuml;ller 0002</author>
<author>Ann Lee</author>
<title>Capturing CO<sub>2</sub> with <i>k</i>-Means over <tt>x</tt><sup>2</sup> and
<sub>f(x)</sub> Features.</title>
<year>2021</year>
<booktitle>XYZ</booktitle>
<ee type="oa">http://arxiv.org/abs/2101.00001</ee>
</inproceedings>
<proceedings key="conf/xyz/2021" mdate="2021-07-01">
<editor>Ann Lee</editor>
<editor>Bo Park 0003</editor>
<title>Proceedings of the First Workshop on Things, XYZ 2021, Online, July 2021.</title>
<booktitle>XYZ</booktitle>
<publisher>A Publisher</publisher>
<year>2021</year>
<isbn>978-3-16-148410-0</isbn>
</proceedings>
<article key="journals/x/Roe20" mdate="2021-01-01" publtype="withdrawn">
<author>Rob Roe</author>
<title>A Withdrawn Result...</title>
<year>2020</year>
<journal>J. Things</journal>
</article>
<phdthesis key="phd/Moe19" mdate="2019-01-01">
<author>Max Moe</author>
<title>A Thesis?</title>
<year>2019</year>
<school>University of Somewhere</school>
</phdthesis>
</dblp>
"""


def _extra(record: SourceRecord) -> dict[str, object]:
    return dict(record.extra)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _refusal(path: Path) -> str:
    with pytest.raises(SourceError) as caught:
        read_source(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return message


def test_a_person_page_is_the_persons_publications() -> None:
    """``https://dblp.org/pid/95/7448-1.xml``: the list is named after the person, without
    the number DBLP tells homonyms apart by; titles lose DBLP's full stop, a journal's
    abbreviation keeps its own; the first electronic edition is the link, a doi.org one the
    DOI."""
    result = read_source(FOLDER / "dblp_person.xml")
    assert not result.errors and result.list_name == "Di Xu"
    forests, clipped, logo = result.records
    assert forests.title == "Random Forests Based View Generation for Multiview TV"
    assert forests.authors == ("Mahsa T. Pourazad", "Di Xu", "Panos Nasiopoulos")
    assert (forests.venue, forests.url) == ("ICTAI 2012", "https://doi.org/10.1109/ICTAI.2012.57")
    assert _extra(forests)["entry_type"] == "inproceedings"
    assert _extra(forests)["pages"] == "367–372"
    assert clipped.venue == "IEEE Trans. Vis. Comput. Graph. 2011"
    assert (_extra(clipped)["volume"], _extra(clipped)["issue"]) == ("17", "3")
    assert _extra(clipped)["doi"] == "10.1109/TVCG.2010.63"
    assert logo.title == "Logo insertion transcoding for H.264/AVC compressed video"


def test_the_dumps_records_are_read_and_homepages_passed_over() -> None:
    """``dblp.xml``'s records after its ``DOCTYPE``: a ``<www>`` homepage is no paper; an
    informal report keeps its PDF and its journal; a CoRR paper is an arXiv preprint (its id
    from its DOI ``10.48550/arXiv.…``, no venue), its month read."""
    result = read_source(FOLDER / "dblp_records.xml")
    assert not result.errors
    gentry, yao, spectre, theft = result.records
    assert (gentry.title, gentry.venue) == (
        "Computing arbitrary functions of encrypted data",
        "Commun. ACM 2010",
    )
    assert yao.url == "http://127.0.0.1:9/10.1109/SFCS.1982.45" and yao.venue == "FOCS 1982"
    assert spectre.authors[3] == "Werner Haas" and spectre.authors[7] == "Thomas Prescher"
    assert _extra(spectre)["pdf"] == "http://127.0.0.1:9/spectre.pdf"
    assert spectre.url == "https://dblp.org/rec/tr/meltdown/s18"  # its PDF is no page
    assert (_extra(spectre)["entry_type"], spectre.venue) == ("misc", "meltdownattack.com 2018")
    assert theft.title == "Identity Theft in AI Conference Peer Review" and theft.venue == ""
    extra = _extra(theft)
    assert (extra["eprint"], extra["archiveprefix"], extra["month"]) == ("2508.04024", "arXiv", 8)


def test_markup_entities_editors_and_publication_types(tmp_path: Path) -> None:
    (paper, volume, withdrawn, thesis) = read_source(_write(tmp_path, "dump.xml", DUMP)).records
    assert paper.title == "Capturing CO₂ with k-Means over x² and f(x) Features"
    assert paper.authors == ("Jörg Müller", "Ann Lee")
    assert (_extra(paper)["eprint"], paper.url) == ("2101.00001", "http://arxiv.org/abs/2101.00001")
    assert volume.authors == ("Ann Lee", "Bo Park")  # a volume of its editors
    assert (_extra(volume)["entry_type"], _extra(volume)["isbn"]) == (
        "proceedings",
        "978-3-16-148410-0",
    )
    assert volume.url == "https://dblp.org/rec/conf/xyz/2021"
    assert withdrawn.title == "A Withdrawn Result..." and withdrawn.venue_status == "Withdrawn"
    assert thesis.title == "A Thesis?" and _extra(thesis)["school"] == "University of Somewhere"


def test_the_search_apis_xml_answer_is_its_json_answer(tmp_path: Path) -> None:
    """The same hits as the JSON answer, read alike: a CoRR paper's arXiv id, a journal's
    name, DBLP's numbers off the names."""
    result = read_source(_write(tmp_path, "lora.xml", SEARCH))
    assert not result.errors and result.list_name == "lora"
    lora, corr, journal = result.records
    assert lora.title == "LoRA: Low-Rank Adaptation of Large Language Models"
    assert lora.authors == ("Edward J. Hu", "Yelong Shen") and lora.venue == "ICLR 2022"
    assert lora.url == "http://127.0.0.1:9/forum?id=nZeVKeeFYf9"
    assert (_extra(corr)["eprint"], _extra(corr)["entry_type"], corr.venue) == (
        "2106.09686",
        "misc",
        "",
    )
    assert journal.authors == ("Ann Lee",) and _extra(journal)["journal"] == "J. Mach. Learn. Res."
    hits = [
        {"@score": "7", "@id": "1970786", "info": {
            "authors": {"author": [{"@pid": "152/5077", "text": "Edward J. Hu"},
                                   {"@pid": "222/7885", "text": "Yelong Shen"}]},
            "title": "LoRA: Low-Rank Adaptation of Large Language Models.", "venue": "ICLR",
            "year": "2022", "type": "Conference and Workshop Papers",
            "key": "conf/iclr/HuSWALWWC22", "ee": "http://127.0.0.1:9/forum?id=nZeVKeeFYf9",
            "url": "https://dblp.org/rec/conf/iclr/HuSWALWWC22"}},
    ]  # fmt: skip
    answer = {"result": {"hits": {"@total": "1", "hit": hits}}}
    [as_json] = read_source(_write(tmp_path, "lora.json", json.dumps(answer))).records
    assert (as_json.title, as_json.authors, as_json.venue, as_json.url) == (
        lora.title,
        lora.authors,
        lora.venue,
        lora.url,
    )


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("pid.txt", (FOLDER / "dblp_person.xml").read_text(encoding="utf-8")),
        ("records.xml", (FOLDER / "dblp_records.xml").read_text(encoding="utf-8")),
        ("answer", SEARCH),
    ],
    ids=["person", "dump", "search"],
)
def test_it_is_told_by_its_root_whatever_its_name(name: str, text: str) -> None:
    assert reader_for(text, Path(name)) is DBLP_XML
    assert DBLP_XML.sniff(text, Path(name)) is Fit.OPENS


def test_a_result_that_is_no_dblp_answer_is_not_claimed(tmp_path: Path) -> None:
    text = '<?xml version="1.0"?><result><row>1</row></result>'
    assert DBLP_XML.sniff(text, tmp_path / "x.xml") is Fit.NO
    message = _refusal(_write(tmp_path, "x.xml", text))
    assert message.endswith("(its XML formats: EndNote XML, Zotero RDF, arXiv Atom, DBLP XML)")


# -- the hostile border ----------------------------------------------------------------------


def test_an_entity_expansion_bomb_is_refused_at_once(tmp_path: Path) -> None:
    entities = ['<!ENTITY a0 "ha">'] + [
        f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10)
    ]
    text = (
        f'<?xml version="1.0"?><!DOCTYPE dblp [{"".join(entities)}]>'
        '<dblp><article key="a/b"><title>&a9;</title></article></dblp>'
    )
    began = time.process_time()  # CPU time: a guard against a bomb, not the clock's figure
    message = _refusal(_write(tmp_path, "bomb.xml", text))
    assert time.process_time() - began < 2
    assert "not DBLP's XML: it declares an entity ('a0')" in message


def test_an_external_entity_or_dtd_is_never_read(tmp_path: Path) -> None:
    secret = _write(tmp_path, "secret.txt", "the contents of a private file")
    leak = (
        f'<?xml version="1.0"?><!DOCTYPE dblp [<!ENTITY leak SYSTEM "{secret.as_uri()}">]>'
        '<dblp><article key="a/b"><title>&leak;</title></article></dblp>'
    )
    message = _refusal(_write(tmp_path, "leak.xml", leak))
    assert "declares an entity ('leak'" in message and "private" not in message
    dtd = _write(tmp_path, "dblp.dtd", '<!ENTITY title "from the DTD">')
    text = (
        f'<?xml version="1.0"?><!DOCTYPE dblp SYSTEM "{dtd.as_uri()}">'
        '<dblp><article key="a/b"><title>Caf&eacute; &title; models.</title></article></dblp>'
    )
    (record,) = read_source(_write(tmp_path, "dtd.xml", text)).records
    assert record.title == "Café &title; models"  # HTML's entity read, the DTD's never


def test_a_file_cut_short_says_where_and_imports_nothing(tmp_path: Path) -> None:
    whole = (FOLDER / "dblp_person.xml").read_text(encoding="utf-8")
    path = _write(tmp_path, "cut.xml", whole[: whole.index("Colin Doutre") + 5])
    message = _refusal(path)
    assert message.startswith(f"{path}: the XML is cut short: it ends at line ")
    assert "inside record 2, <author>; nothing imported" in message
    library = Library(tmp_path / "home")
    with pytest.raises(SourceError):
        library.import_file(path)
    assert library.papers() == []


def test_a_file_not_well_formed_says_where(tmp_path: Path) -> None:
    text = (FOLDER / "dblp_person.xml").read_text(encoding="utf-8")
    message = _refusal(_write(tmp_path, "bad.xml", text.replace("</title>", "</titel>", 1)))
    assert "not well-formed XML at line 17, column" in message and "mismatched tag" in message


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            '<dblpperson name="Ann Lee" pid="1/1" n="0"><r><www key="homepages/1/1">'
            "<title>Home Page</title></www></r></dblpperson>",
            "a DBLP publication list of no publications (1 record of homepages or people "
            "passed over); nothing to import",
        ),
        ("<dblp>\n</dblp>", "a DBLP XML document of no publications; nothing to import"),
        (
            '<result><status code="200">OK</status><hits total="0" sent="0"/></result>',
            "a DBLP search answer of no hits; nothing to import",
        ),
    ],
    ids=["person", "dump", "search"],
)
def test_a_document_of_no_publications_says_so(tmp_path: Path, text: str, said: str) -> None:
    path = _write(tmp_path, "none.xml", text)
    assert _refusal(path) == f"{path}: {said}"


def test_hostile_fields_are_records_or_one_line_each(tmp_path: Path) -> None:
    """Control characters XML cannot hold (raw, or referenced) are read as they are, as every
    reader keeps them; a title past the bound refuses its record, the others are read; a
    record of nothing is one error; a hostile key makes no link."""
    text = (
        '<dblpperson name="Eve &#27;[2J 0001" pid="1/1">'
        '<r><article key="a/b"><author>Eve\x07 Smith 0001</author>'
        "<title>Title &#27;]0;owned&#7; here.</title><year>2020</year></article></r>"
        f'<r><article key="a/c"><title>{"x" * (MAX_VALUE_CHARS + 1)}</title></article></r>'
        '<r><article key="a/d"><title> </title><ee>javascript:alert(1)</ee></article></r>'
        '<r><article key="a b\x1b"><title>Keyed.</title><ee>file:///etc/passwd</ee></article></r>'
        "</dblpperson>"
    )
    result = read_source(_write(tmp_path, "eve.xml", text))
    (eve, keyed) = result.records
    assert eve.title == "Title \x1b]0;owned\x07 here" and eve.authors == ("Eve\x07 Smith",)
    assert result.list_name == "Eve \x1b[2J"
    assert keyed.url == ""
    assert [(e.record, e.reason) for e in result.errors] == [
        (2, f"<title> holds {MAX_VALUE_CHARS + 1:,} characters, too long"),
        (3, "no abstract and no title"),
    ]


def test_elements_nested_deep_are_read_in_linear_time(tmp_path: Path) -> None:
    """Elements nested 100,000 deep inside a record (each had its path joined into a field's
    name), or a long text under as many ``<sub>`` (joined again at each), took a minute."""
    deep = "<x>" * 100_000 + "</x>" * 100_000
    subs = "<sub>" * 100_000 + "y" * 900 + "</sub>" * 100_000
    text = (
        f'<dblp><article key="a/b"><title>Deep.</title>{deep}<year>2020</year></article>'
        f'<article key="a/c"><title>Sub {subs}.</title></article></dblp>'
    )
    path = _write(tmp_path, "deep.xml", text)
    began = time.process_time()  # CPU time: a guard against quadratic reading
    deep_record, sub_record = read_source(path).records
    assert time.process_time() - began < 5
    assert (deep_record.title, _extra(deep_record)["year"]) == ("Deep", 2020)
    assert sub_record.title == "Sub " + "y" * 900


# -- a dump's excerpt without its DOCTYPE; the search API's answer before 2017 ----------------


def test_an_excerpt_of_the_dump_without_its_doctype_reads_dblps_entities(
    tmp_path: Path,
) -> None:
    """``dblp.xml`` cut out from its second line (``head -n`` and ``tail -n +3`` of the dump,
    its DOCTYPE line gone): dblp.dtd's ISO Latin-1 entities (``&ouml;``, ``&eacute;``,
    ``&szlig;``) and its own (``&reg;``, ``&times;``) are read as their characters, as with
    the DOCTYPE; nothing is fetched, and an entity declared in the file is still refused."""
    excerpt = DUMP.replace('<!DOCTYPE dblp SYSTEM "dblp.dtd">\n', "").replace(
        "Ann Lee</author>", "Ren&eacute; Stra&szlig;e&reg; &times;</author>", 1
    )
    assert "<!DOCTYPE" not in excerpt
    paper, *_ = read_source(_write(tmp_path, "excerpt.xml", excerpt)).records
    assert paper.authors == ("Jörg Müller", "René Straße® ×")
    bare = excerpt.split("\n", 1)[1]  # without its XML declaration too
    paper, *_ = read_source(_write(tmp_path, "bare.xml", bare)).records
    assert paper.authors[0] == "Jörg Müller"
    unknown = bare.replace("J&ouml;rg", "J&nosuch;rg")
    paper, *_ = read_source(_write(tmp_path, "unknown.xml", unknown)).records
    assert paper.authors[0] == "J&nosuch;rg Müller"  # as written
    bomb = '<!DOCTYPE dblp [<!ENTITY a "ha">]>' + bare
    assert "declares an entity ('a')" in _refusal(_write(tmp_path, "bomb.xml", bomb))


def test_the_search_apis_answer_before_2012_holds_each_hit_in_cdata() -> None:
    """The old API (``dblp.org/search/api/?q=…&format=xml``, CompleteSearch) wrote each hit's
    record as markup in a CDATA ``<title>``, its elements ``dblp:``-prefixed, the link in the
    title's ``ee`` attribute, the venue's name, year and pages in one text (attributes after
    September 2012), the record's page (``/rec/bibtex/KEY``) in the hit's ``<url>``. It read as
    "no hits"."""
    result = read_source(FOLDER / "dblp_search_2012.xml")
    assert not result.errors
    chip, graph = result.records
    assert chip.title == "Chip and PIN is Broken"
    assert chip.authors == ("Steven J. Murdoch", "Saar Drimer", "Ross J. Anderson", "Mike Bond")
    assert chip.url == "http://127.0.0.1:9/10.1109/SP.2010.33"
    assert chip.venue == "IEEE Symposium on Security and Privacy 2010"
    extra = _extra(chip)
    assert (extra["entry_type"], extra["pages"], extra["year"]) == (
        "inproceedings",
        "433–446",
        2010,
    )
    assert graph.title == "The transformation graph Gˣʸᶻ when xyz=-++"
    assert graph.authors == ("Baoyindureng Wu", "Li Zhang", "Zhao Zhang")
    extra = _extra(graph)
    assert (extra["entry_type"], extra["journal"], extra["doi"]) == (
        "article",
        "Discrete Mathematics",
        "10.1016/j.disc.2005.04.002",
    )
    assert (extra["volume"], extra["issue"], extra["pages"]) == ("296", "2-3", "263–270")


def test_the_search_apis_answer_of_2012_to_2017_names_the_venue_in_attributes() -> None:
    """Between September 2012 and 2017 each hit's ``<info>`` was XML of its own: the link in
    the title's ``ee``, the venue's parts as the ``<venue>``'s attributes (``conference``, or
    ``journal``, ``volume``, ``number``, ``pages``, or ``publisher``), ``<type>`` the record's
    element name. The venue read as ``APBC 2007:153-164``, every paper as @misc, no link."""
    result = read_source(FOLDER / "dblp_search_2016.xml")
    assert not result.errors
    lattice, qchem, book = result.records
    assert lattice.title == "Fitting Protein Chains to Cubic Lattice is NP-Complete"
    assert lattice.authors == ("Ján Manuch", "Daya Ram Gaur")
    assert lattice.venue == "APBC 2007" and _extra(lattice)["entry_type"] == "inproceedings"
    assert _extra(lattice)["pdf"] == "http://127.0.0.1:9/apbc2007/apbc226a.pdf"
    assert lattice.url == "https://dblp.org/rec/conf/apbc/ManuchG07"
    extra = _extra(qchem)
    assert (extra["journal"], extra["volume"], extra["issue"]) == (
        "Journal of Computational Chemistry",
        "21",
        "16",
    )
    assert extra["doi"] == "10.1002/1096-987X(200012)21:16<1532::AID-JCC10>3.0.CO;2-W"
    assert book.title == "Räumliche Markov-additive Prozesse und Bedienstationen ohne Warteraum"
    assert (_extra(book)["entry_type"], _extra(book)["publisher"]) == ("book", "Universität Trier")


def test_a_cdata_record_that_is_not_xml_is_one_error_and_the_others_are_read(
    tmp_path: Path,
) -> None:
    """The API before 2012 did not escape the record it put in CDATA: a bare ``&`` is read as
    written; a ``<`` that opens no element makes that hit an error of one line."""
    text = (FOLDER / "dblp_search_2012.xml").read_text(encoding="utf-8")
    text = text.replace("Chip and PIN is Broken. ", "Chip & PIN: x < y is Broken. ")
    result = read_source(_write(tmp_path, "old.xml", text))
    assert [r.title for r in result.records] == ["The transformation graph Gˣʸᶻ when xyz=-++"]
    assert [(e.record, e.reason) for e in result.errors] == [(1, "its CDATA <title> is not XML")]
    text = text.replace(" x < y", "")
    chip, _ = read_source(_write(tmp_path, "amp.xml", text)).records
    assert chip.title == "Chip & PIN: is Broken"
