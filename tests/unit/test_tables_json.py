"""A TinyDB file read a line at a time is exactly the file read whole: the same tables, or the
same refusal, whatever its text (as written, edited by hand, damaged)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage.errors import DamagedFileError
from storage.files import tables_json
from storage.files.tables_json import encoded_tables, parse_lines, parse_tables

PATH = Path("papers.json")
documents = st.dictionaries(
    st.integers(0, 10_000).map(str),
    st.fixed_dictionaries(
        {"id": st.text(max_size=6), "title": st.text(max_size=8)},
        optional={
            "n": st.integers(-(2**63), 2**63 - 1)
            | st.floats(allow_nan=False, allow_infinity=False),
            "x": st.lists(st.text()),
        },
    ),
    max_size=9,
)
tables = st.dictionaries(
    st.sampled_from(["papers", "lists", "meta", "removed", 'w"é\n']), documents
)


def read_in_lines(text: bytes) -> object:
    """What reading ``text`` a line at a time gives: the tables, or the refusal's message."""
    try:
        return parse_lines(text.splitlines(keepends=True), PATH, lambda: text)
    except DamagedFileError as exc:
        return str(exc)


def read_whole(text: bytes) -> object:
    try:
        return parse_tables(text, PATH)
    except DamagedFileError as exc:
        return str(exc)


@pytest.fixture(autouse=True)
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_json, "_DOCUMENTS_AT_ONCE", 2)  # many lines from a few papers


@settings(max_examples=300, deadline=None)
@given(tables)
def test_tables_read_a_line_at_a_time_are_those_written(found: dict) -> None:
    text = b"".join(encoded_tables(found))
    assert orjson.loads(text) == found
    assert tables_json._in_lines(text.splitlines(keepends=True)) == found  # no whole parse


@pytest.mark.slow(15)
@settings(max_examples=500, deadline=None)
@given(tables, st.data())
def test_any_edit_reads_as_the_whole_text_reads(found: dict, data: st.DataObject) -> None:
    text = bytearray(b"".join(encoded_tables(found)))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        edit = data.draw(
            st.sampled_from(["delete", "newline", "comma", "brace", "space", "swap lines"])
        )
        if edit == "delete" and at < len(text):
            del text[at]
        elif edit == "swap lines":
            lines = bytes(text).splitlines(keepends=True)
            if len(lines) > 2:
                i = data.draw(st.integers(0, len(lines) - 2))
                lines[i], lines[i + 1] = lines[i + 1], lines[i]
                text = bytearray(b"".join(lines))
        else:
            text[at:at] = {"newline": b"\n", "comma": b",", "brace": b"}", "space": b" "}.get(
                edit, b""
            )
    assert read_in_lines(bytes(text)) == read_whole(bytes(text))


@pytest.mark.parametrize(
    "text",
    [
        b'{"papers":{\n"1":{"id":"a"},"2":{"id":"b"}\n,"3":{"id":"c"}\n}}',
        b'{\n  "papers": {\n    "1": {"id": "a"}\n  }\n}\n',  # pretty-printed by another tool
        b'{"papers":{\n"1":{"id":"a"}\n"2":{"id":"b"}\n}}',  # a comma missing: not JSON
        b'{"papers":{\n"1":{"id":"a"}\n}}\n{"papers":{}}',  # two objects
        b'{"papers":{"1":{"id":"a"}}}',  # one line, as older versions wrote it
        b'{"papers":{\n"1":{"id":"a"}\n},}',  # a comma before the end: not JSON
        b'{"papers":{\n"1":{"id":"a"}\n},',  # cut after a comma
    ],
)
def test_layouts_written_otherwise(text: bytes) -> None:
    assert read_in_lines(text) == read_whole(text)
