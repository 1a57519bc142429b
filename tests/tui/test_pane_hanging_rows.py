"""The paper pane's link rows (Paper, Code, PDF) at a narrow width: their wrapped lines keep
the indent under the label column, a link too long for a line is broken in place (not moved
to a line of its own at column 0), and the hint "(p opens it)" is never split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import Library
from tests.tui.helpers import make_app, ready, wait_for
from tui.widgets.paper_pane import PaperPane

#: Long addresses on this machine (nothing is asked of them: the pane only shows them).
FORUM = "http://127.0.0.1:9/forum?id=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
PDF = "http://127.0.0.1:9/pdf/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-with-a-long-name.pdf"
CODE = "https://github.com/a-research-group-with-a-long-name/a-repository-with-a-long-name"
INDENT = " " * 7


def linked_home(tmp_path: Path) -> Path:
    source = tmp_path / "linked.jsonl"
    record = {
        "title": "A paper with long links",
        "abstract": "A paper whose page and code have long addresses, shown in a narrow pane.",
        "url": FORUM,
        "pdf": PDF,
        "github": CODE,
    }
    source.write_text(json.dumps(record) + "\n")
    home = tmp_path / "home"
    Library(home).import_file(source)
    return home


@pytest.mark.parametrize("columns", [80, 90, 100, 110])
async def test_link_rows_keep_their_indent_and_the_hint_whole(tmp_path: Path, columns: int) -> None:
    app = make_app(linked_home(tmp_path))
    async with app.run_test(size=(columns, 30)) as pilot:
        await ready(pilot)
        pane = app.main_screen.query_one(PaperPane)
        await wait_for(pilot, lambda: "opens it" in pane.text.plain)
        await pilot.pause(0.05)
        lines = [strip.text.rstrip() for strip in pane._wrap()]
        width = pane._text_width
    first = next(i for i, line in enumerate(lines) if line.startswith("Paper  "))
    last = next(i for i, line in enumerate(lines) if "opens it" in line)
    rows = lines[first : last + 1]
    assert all(len(line) <= width for line in rows), rows
    for line in rows:  # each line a label's, or one indented under the labels
        assert line.startswith(("Paper  ", "Code   ", "PDF    ", INDENT)), rows
        assert not line.startswith(INDENT + " "), rows
    assert "(p opens it)" in lines[last], rows
    joined = {"Paper": "", "Code": "", "PDF": ""}
    label = ""
    for line in rows:
        if not line.startswith(INDENT):
            label = line.split()[0]
            line = line[7:]
        joined[label] += line.strip()  # a link broken in place: its pieces, in order
    assert joined["Paper"] == FORUM and joined["Code"] == CODE, joined
    assert joined["PDF"].startswith(PDF) and joined["PDF"].endswith("(p opens it)"), joined
