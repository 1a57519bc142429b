"""A note's raw HTML in the Markdown export is text: rendered, it hides nothing after it.

Checked with a real CommonMark parser (markdown-it-py, which Rich brings with Textual): the
export of hostile notes holds no HTML but the lists' comments the export writes itself, every
paper is its own item, and a note reads the same raw and rendered.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage import Library, Status
from storage.export import export
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.text.markdown_html import html_literal, html_restored

markdown_it = pytest.importorskip("markdown_it")

HOSTILE = [
    "unclosed <!-- comment",
    "<!-- closed --> but still a comment",
    "<script>alert(1)",
    "a <textarea> b",
    "<style>\n\nbody { display: none }",
    "<pre>",
    "<div class=x>\nstuff",
    "</div>",
    "<details><summary>x</summary>",
    "<?php echo 1",
    "<!DOCTYPE html",
    "<![CDATA[ x",
    "<!--x@y.z> an email autolink's shape that opens a comment block",
    "- item\n  ```\n<script>\n  ```",
    "a `` b\nc `` <script> ``",
    "\\\\<style> (an escaped backslash, then a tag)",
    "> quoted <!--\n> more",
    "1. <iframe src=x>",
    "    <!-- indented -->",
    # a fence opened indented, closed at the start of a line: what follows is no code
    "x\n   ```\ncode\n```\n<div>\n<!--",
    "- item\n  ```\n   ```\n<script>",
    # a backtick in a link's destination pairs with none
    "[a](x`) <script> `y` `",
    "[a](<x`>) <!-- `y` `",
]


def _papers(n: int) -> list[Paper]:
    return [
        Paper(id=f"{i:012x}", title=f"Paper number {i}", abstract="An abstract.", list="L",
              position=i)
        for i in range(n)
    ]  # fmt: skip


def _tokens(markdown: str) -> list:  # type: ignore[type-arg]
    """Every token of ``markdown``, inline ones too."""
    out = []
    stack = list(reversed(markdown_it.MarkdownIt("commonmark").parse(markdown)))
    while stack:
        token = stack.pop()
        out.append(token)
        stack.extend(reversed(token.children or []))
    return out


def _assert_shows_every_paper(notes: list[str]) -> None:
    papers = _papers(len(notes) + 1)  # a paper after the last note, too
    triage = TriageState(
        statuses={p.id: Status.STARRED for p in papers},
        notes={p.id: note for p, note in zip(papers, notes, strict=False)},
    )
    markdown = export(papers, triage, "markdown")
    tokens = _tokens(markdown)
    html = [t.content for t in tokens if t.type.startswith("html")]
    assert html == ["<!-- lists: L -->"] * len(papers), markdown
    items = [t for t in tokens if t.type == "list_item_open" and t.level == 1]
    assert len(items) == len(papers)
    # every paper's title is the bold text of its own item
    titles = [
        tokens[i + 1].content
        for i, t in enumerate(tokens)
        if t.type == "strong_open" and tokens[i + 1].type == "text"
    ]
    assert titles == [p.title for p in papers]
    rendered = markdown_it.MarkdownIt("commonmark").render(markdown)
    assert rendered.count("<strong>Paper number") == len(papers)
    page = rendered.replace("<!-- lists: L -->", "")
    for tag in ("<!", "<?", "<script", "<style", "<textarea", "<iframe", "<div", "<details"):
        assert tag not in page


@pytest.mark.parametrize("note", HOSTILE)
def test_a_notes_raw_html_hides_nothing(note: str) -> None:
    _assert_shows_every_paper([note])


def test_every_hostile_note_together() -> None:
    _assert_shows_every_paper(HOSTILE)


_HOSTILE_CHARS = st.sampled_from(
    list("<<<>!!-?/`~\\ \n\n  abcsp") + ["<!--", "-->", "<script", "```", "~~~", "> ", "- "]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_HOSTILE_CHARS, max_size=40).map("".join), min_size=1, max_size=3))
def test_random_notes_never_open_html(notes: list[str]) -> None:
    _assert_shows_every_paper(notes)


@settings(max_examples=300, deadline=None)
@given(st.lists(_HOSTILE_CHARS, max_size=60).map("".join))
def test_restored_is_the_inverse(note: str) -> None:
    written = html_literal(note)
    assert html_literal(html_restored(written)) == written  # export → import → export
    if "\\<" not in note:  # a backslash the user wrote before a tag is read back without it
        assert html_restored(written) == note


def test_notes_stay_readable() -> None:
    """Only what would be HTML gets a backslash: code, autolinks, comparisons stay."""
    kept = [
        "a `<b>` code span, `` `<i>` `` in a double one",
        "<http://127.0.0.1/a?b=1> and <ada@localhost>",
        "```html\n<!-- in a fence -->\n<script>\n```",
        "~~~\n<div>\n~~~~",
        "x < y, 3 <4, a <- b, <= and <>",
        "**bold** _it_ [link](http://127.0.0.1) # not changed",
    ]
    for note in kept:
        assert html_literal(note) == note
    assert html_literal("the <eos> token, </s> and <!-- x") == (
        "the \\<eos> token, \\</s> and \\<!-- x"
    )
    assert html_literal("```\nfence\n```\n<b>after</b>") == "```\nfence\n```\n\\<b>after\\</b>"
    # the rendered text is what the user wrote
    rendered = markdown_it.MarkdownIt("commonmark").render(html_literal("the <eos> token"))
    assert rendered == "<p>the &lt;eos&gt; token</p>\n"


def test_a_note_comes_back_from_the_markdown_export(tmp_path: Path) -> None:
    """Imported again, the export gives the note as it was written, HTML and all."""
    note = "the <eos> token\n<!-- unclosed\n`<b>` code and <http://127.0.0.1>"
    source = tmp_path / "list.json"
    abstract = "We study a thing with enough words to be read as an abstract by any reader."
    source.write_text(
        json.dumps([{"title": "A paper", "abstract": abstract, "note": note}]), encoding="utf-8"
    )
    first = Library(tmp_path / "first")
    first.import_file(source)
    (paper,) = first.papers()
    first.set_status(paper.id, Status.STARRED)
    first.set_note(paper.id, note)
    path = tmp_path / "export.md"
    path.write_text(export(first.papers(), first.triage(), "markdown"), encoding="utf-8")
    assert "\\<!-- unclosed" in path.read_text(encoding="utf-8")
    second = Library(tmp_path / "second")
    second.import_file(path)
    assert list(second.triage().notes.values()) == [note]


def test_a_note_with_windows_line_ends_is_exported_as_its_lines(tmp_path: Path) -> None:
    """A note imported from a CSV written on Windows ends its lines in CRLF: the export gave
    every line but the last a visible ``␍``, which an import of the file then kept."""
    paper = Paper(id="a" * 12, title="A title", abstract="An abstract.", list="L")
    note = "first line\r\nsecond line\r\n\r\nlast"
    triage = TriageState(statuses={paper.id: Status.STARRED}, notes={paper.id: note})
    text = export([paper], triage, "markdown")
    assert "␍" not in text and "\r" not in text
    assert "  first line\n  second line\n\n  last\n" in text
    path = tmp_path / "export.md"
    path.write_text(text, encoding="utf-8")
    second = Library(tmp_path / "second")
    second.import_file(path)
    assert list(second.triage().notes.values()) == ["first line\nsecond line\n\nlast"]


def test_abstract_paragraphs_and_links_keep_their_shape() -> None:
    """An abstract's paragraph that starts like a list is text; a backslash ending a link
    does not escape its closing parenthesis."""
    paper = Paper(
        id="a" * 12,
        title="A title",
        abstract="- not a list item\n\n1. not numbered\n\n+ not this either",
        url="http://127.0.0.1/a\\",
        list="L",
    )
    triage = TriageState(statuses={paper.id: Status.STARRED})
    tokens = _tokens(export([paper], triage, "markdown", abstracts=True))
    kinds = {t.type for t in tokens}
    assert not kinds & {"ordered_list_open", "hr"}
    assert [t.type for t in tokens].count("bullet_list_open") == 1  # the papers' list alone
    quoted = [t.content for t in tokens if t.type == "text" and "not" in t.content]
    assert quoted == ["- not a list item", "1. not numbered", "+ not this either"]
    (link,) = [t for t in tokens if t.type == "link_open"]
    assert link.attrs["href"] == "http://127.0.0.1/a%5C"


@pytest.mark.parametrize("note", HOSTILE)
def test_a_hostile_note_comes_back_as_written(note: str) -> None:
    """Escaped everywhere or only outside its code, a note is read back as it was."""
    written = html_literal(note)
    assert html_literal(html_restored(written)) == written
    if "\\<" not in note:
        assert html_restored(written) == note
