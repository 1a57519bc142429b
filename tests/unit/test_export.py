"""Writers against golden files, and the escaping that keeps them valid."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from storage.export import bib_escape, export, md_escape, md_url, to_bibtex
from storage.files.triage_file import TriageState
from storage.models import Paper, Status

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

PAPERS = [
    Paper(
        id="aaaaaaaaaaaa",
        title="ParaSolver: A Hierarchical Parallel Integral Solver for Diffusion Models",
        abstract="We propose ParaSolver, a parallel sampler.",
        authors=("Jianrong Lu", "Zhiyu Zhu", "Junhui Hou"),
        github=("https://github.com/Jianrong-Lu/ParaSolver",),
        url="https://openreview.net/forum?id=2JihLwirxO",
        venue_status="Poster",
        list="ICLR 2025 Papers",
    ),
    Paper(
        id="bbbbbbbbbbbb",
        title="{$\\tau$}-bench: *Tools* & [Agents] <in> the_wild",
        abstract="A benchmark.",
        authors=("Ada Lovelace",),
        github=("https://github.com/a/b", "https://github.com/c/d.e"),
        url="https://example.org/paper(1)",
        venue_status="Oral",
        list="ICLR 2025 Papers",
        position=1,
    ),
    Paper(
        id="cccccccccccc",
        title="A paper with no authors",
        abstract="Nothing here.",
        list="ICLR 2025 Papers",
        position=2,
    ),
]
TRIAGE = TriageState(
    statuses={"aaaaaaaaaaaa": Status.STARRED, "bbbbbbbbbbbb": Status.STARRED},
    notes={"aaaaaaaaaaaa": "Compare with DPM-Solver.\n- a list marker\n# not a heading"},
    tags={"aaaaaaaaaaaa": ("diffusion", "sampling"), "bbbbbbbbbbbb": ("agents",)},
)


@pytest.mark.parametrize(
    ("name", "fmt", "group_by"),
    [
        ("export.md", "markdown", "none"),
        ("export-by-tag.md", "markdown", "tag"),
        ("export-by-venue.md", "markdown", "venue"),
        ("export.bib", "bibtex", "none"),
    ],
)
def test_against_golden_files(name: str, fmt: str, group_by: str) -> None:
    text = export(PAPERS, TRIAGE, fmt, group_by=group_by)
    assert text == (GOLDEN / name).read_text(encoding="utf-8")


def test_csv_and_json_round_trip() -> None:
    rows = list(csv.DictReader(io.StringIO(export(PAPERS, TRIAGE, "csv"))))
    assert [r["id"] for r in rows] == ["aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"]
    assert rows[0]["authors"] == "Jianrong Lu; Zhiyu Zhu; Junhui Hou"
    assert rows[1]["github"] == "https://github.com/a/b https://github.com/c/d.e"
    assert rows[0]["tags"] == "diffusion; sampling"
    records = json.loads(export(PAPERS, TRIAGE, "json"))
    assert records[1]["title"] == PAPERS[1].title
    assert records[2]["status"] == "inbox"
    assert {
        "id",
        "title",
        "status",
        "github",
        "url",
        "list",
        "abstract",
        "authors",
        "venue_status",
    } <= set(records[0])


def test_markdown_escapes_everything_that_could_be_syntax() -> None:
    assert md_escape("*a* _b_ [c](d) <e> `f` #g !h |i ~j &k $l") == (
        r"\*a\* \_b\_ &#91;c&#93;(d) &lt;e&gt; \`f\` \#g \!h \|i \~j \&k \$l"
    )
    # MathJax-aware viewers read \( and \[ as math: parentheses stay, brackets are entities
    assert md_escape("Kernel (KBG) [1]") == "Kernel (KBG) &#91;1&#93;"
    assert md_url("https://x.org/a b(1)<2>") == "https://x.org/a%20b%281%29%3C2%3E"


def test_bibtex_keys_are_unique_and_fields_escaped() -> None:
    twin = Paper(
        id="dddddddddddd",
        title=PAPERS[0].title,
        abstract="x",
        authors=PAPERS[0].authors,
        list="ICLR 2025 Papers",
    )
    text = to_bibtex([PAPERS[0], twin], TRIAGE)
    assert (
        "@inproceedings{lu2025parasolver," in text and "@inproceedings{lu2025parasolvera," in text
    )
    # bibtex counts every brace, escaped or not: a brace of the text is a command
    assert bib_escape("50% of {x} & y_1") == r"50\% of {$\lbrace$}x{$\rbrace$} \& y\_1"


def test_the_bibtex_first_line_names_code_links_only_when_an_entry_has_them() -> None:
    """It said "https://github.com links are in each note" of any export, one of papers
    without code links too."""
    from storage.sources.registry import read_text_content

    bare = PAPERS[2]  # no code links
    assert export([bare], TRIAGE, "bibtex").startswith("% Written by papers-tui\n\n@")
    coded = export([bare, PAPERS[0]], TRIAGE, "bibtex")
    said = "% Written by papers-tui (an entry's https://github.com links end its note)\n\n@"
    assert coded.startswith(said)
    # either way the reader knows its own export: the links given are the note's, no other
    [record] = read_text_content(export([bare], TRIAGE, "bibtex"), Path("x.bib")).records
    assert record.links_given


def test_unknown_format_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        export(PAPERS, TRIAGE, "docx")


@pytest.mark.parametrize(
    "name",
    [
        "NeurIPS -- orals",  # read back as "NeurIPS - - orals" before
        "Reading group ---> <img src=x onerror=alert(document.domain)> <!--",
        "a\\*b R&amp D &lt -",  # (";" separates lists: a name has none)
    ],
)
def test_a_list_name_stays_inside_its_comment_and_comes_back_as_it_was(
    name: str, tmp_path: Path
) -> None:
    """The lists of a Markdown entry are an HTML comment: a name could close it before
    ("--->" left "- -->"), and what followed was live HTML in any viewer that shows HTML."""
    import re

    from storage import Library

    source = tmp_path / "list.jsonl"
    record = {"title": "Graph flows", "abstract": "We study the flows of curvature. " * 3}
    source.write_text(json.dumps(record) + "\n", encoding="utf-8")
    first = Library(tmp_path / "a")
    first.import_file(source, list_name=name)
    [paper] = first.papers()
    text = export([paper], first.triage(), "markdown")
    [comment] = re.findall(r"<!--(.*?)-->", text)
    assert comment.startswith(" lists: ") and "--" not in comment and "<!--" not in comment
    assert text.count("-->") == 1
    exported = tmp_path / "starred.md"
    exported.write_text(text, encoding="utf-8")
    second = Library(tmp_path / "b")
    second.import_file(exported)
    assert [p.lists for p in second.papers()] == [(name,)]


def test_an_eprint_of_no_archive_named_writes_no_empty_archiveprefix() -> None:
    """An entry's ``eprint`` that is no arXiv id, with no ``archiveprefix`` (a HAL or SSRN
    number, a mistyped id): the export wrote ``archiveprefix = {}``, which biber warns of."""
    paper = Paper("a", "Eprinted", "x", extra=(("eprint", "hal-01234567"),))
    bib = export([paper], TriageState(), "bibtex")
    assert "eprint = {hal-01234567}" in bib and "archiveprefix" not in bib


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Ørsted, Hans", "orsted2024things"),  # was rsted: ø has no ASCII decomposition
        ("Łukasz Kaiser", "kaiser2024things"),
        ("李, Wei", "wei2024things"),  # a family name of no ASCII letter: the name's last word
        ("García López, José", "garcialopez2024things"),
    ],
)
def test_a_bibtex_key_takes_the_family_names_letters_as_ascii_writes_them(
    name: str, key: str
) -> None:
    paper = Paper("a", "Things Worth Knowing", "x", authors=(name,), extra=(("year", 2024),))
    assert f"{{{key}," in export([paper], TriageState(), "bibtex")
