"""Arbitrary Unicode and control characters in every field of every reader's format.

Whatever a file holds, reading it gives papers or a one-line ``SourceError``, never another
exception; a paper's link is one line of http(s) or nothing; and what the papers become at the
borders (the command's lines and JSON, each export) carries no control character to a terminal
and no structure the file chose.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings

from storage.errors import SourceError
from storage.export import to_bibtex, to_csv, to_json, to_markdown
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.links import web_url
from storage.sources.papers import build_paper
from storage.sources.registry import READERS, read_text_content
from tests.hostile.formats import FORMATS, registered_formats
from tests.hostile.hostile import HOSTILE, TerminalBuffer, hostile_text, leaks, sound_paper
from tui.cli.output import print_papers

CASES = [(name, field) for name, fmt in registered_formats().items() for field in fmt.fields]
GITHUB = re.compile(r"https://github\.com/[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+")


def test_every_reader_has_a_hostile_writer() -> None:
    missing = [r.name for r in READERS if r.name not in FORMATS]
    assert not missing, f"add a writer for {missing} to FORMATS in tests/hostile/formats.py"


def papers_from(fmt_name: str, fields: Mapping[str, str]) -> list[Paper]:
    """Read one paper written in a format; [] when the reader refuses the file (one line)."""
    fmt = FORMATS[fmt_name]
    text = fmt.write([fields])
    try:
        result = read_text_content(text, Path(fmt.file_name.format(stem="hostile")))
    except SourceError as exc:
        assert "\n" not in str(exc)
        return []
    return [build_paper(r, result.list_name, i) for i, r in enumerate(result.records)]


@contextlib.contextmanager
def captured_stdout() -> Iterator[io.StringIO]:
    """Standard output captured, as a terminal (the border that matters here)."""
    out = TerminalBuffer()
    with contextlib.redirect_stdout(out):
        yield out


def check_borders(papers: list[Paper]) -> None:
    """Every border the papers cross: links, the command's output, every export."""
    triage = TriageState(
        notes={p.id: f"note {p.title}" for p in papers}, tags={p.id: ("t",) for p in papers}
    )
    for paper in papers:
        assert paper.url == "" or web_url(paper.url) == paper.url
        assert all(GITHUB.fullmatch(link) for link in paper.github), paper.github
    with captured_stdout() as lines:
        print_papers(papers, triage, as_json=False)
    assert not leaks(lines.getvalue().replace("\n", "")), lines.getvalue()
    assert lines.getvalue().count("\n") == len(papers)
    with captured_stdout() as out:
        print_papers(papers, triage, as_json=True)
    assert not leaks(out.getvalue().replace("\n", ""))
    records = json.loads(out.getvalue())
    assert [(r["title"], r["venue_status"], r["list"]) for r in records] == [
        (p.title, p.venue_status, p.list) for p in papers
    ]
    markdown = to_markdown(papers, triage)
    assert not leaks(markdown.replace("\n", "")), leaks(markdown)
    # No field starts a line of its own structure: one heading, one entry per paper.
    lines = markdown.split("\n")
    assert [line for line in lines if line.startswith("#")] == lines[:1], markdown
    assert sum(line.startswith("- ") for line in lines) == len(papers), markdown
    assert json.loads(to_json(papers, triage)) == json.loads(out.getvalue())
    rows = list(csv.reader(io.StringIO(to_csv(papers, triage))))
    assert len(rows) == len(papers) + 1
    bibtex = to_bibtex(papers, triage)
    assert bibtex.count("{") - bibtex.count("\\{") == bibtex.count("}") - bibtex.count("\\}")
    assert all("\n" not in line for line in re.findall(r"url = \{[^}]*\}", bibtex))


@pytest.mark.parametrize(("fmt_name", "field"), CASES, ids=["-".join(c) for c in CASES])
def test_any_text_in_any_field(fmt_name: str, field: str) -> None:
    examples = FORMATS[fmt_name].examples

    @settings(settings.get_profile("hostile"), max_examples=examples)
    @given(text=hostile_text)
    def any_text(text: str) -> None:
        fields = sound_paper()
        # The abstract keeps the sound words, so that the record is still a paper.
        fields[field] = f"{fields['abstract']} {text}" if field == "abstract" else text
        check_borders(papers_from(fmt_name, fields))

    any_text()


@pytest.mark.parametrize("fmt_name", list(registered_formats()))
@pytest.mark.parametrize("hostile", list(HOSTILE))
def test_each_hostile_text_in_every_field_at_once(fmt_name: str, hostile: str) -> None:
    text = HOSTILE[hostile]
    fields = {
        name: (f"{value} {text}" if name in ("abstract", "title") else text)
        for name, value in sound_paper().items()
    }
    fields["url"] = f"https://example.org/x{text}"
    papers = papers_from(fmt_name, fields)
    check_borders(papers)
    if fmt_name != "plain text":  # a plain list cannot say where a paper's fields end
        assert papers, f"{hostile} made the paper unreadable"


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org/x\n## Injected heading",
        "https://example.org/x\r\n@misc{evil,",
        "https://example.org/}\n@misc{evil,",
        "https://example.org/\x1b[2J",
        "https://example.org/\u202egpj.exe",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://",
    ],
)
def test_a_url_is_one_line_of_http_or_nothing(url: str) -> None:
    fields = sound_paper()
    fields["url"] = url
    for fmt_name in set(registered_formats()) - {"plain text", "arXiv listing email"}:
        [paper] = papers_from(fmt_name, fields)
        # Nothing, or (a reader that drops control characters) what is left, on one line.
        assert paper.url == "" or web_url(paper.url) == paper.url, (fmt_name, paper.url)
        assert not leaks(paper.url) and not re.search("Injected|@misc|passwd", paper.url)
        check_borders([paper])


def test_a_url_with_braces_is_kept_encoded() -> None:
    fields = sound_paper()
    fields["url"] = " https://example.org/a{b}|c "
    [paper] = papers_from("JSON", fields)
    assert paper.url == "https://example.org/a%7Bb%7D%7Cc"
