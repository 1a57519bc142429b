"""The parts of a streamed import: a list read line by line as it would be read whole, files
written a part at a time as they would be written at once, ids worked out by a second process
as they are here."""

from __future__ import annotations

import io
import json
import marshal
import os
import random
from pathlib import Path

import orjson
import pytest

import storage.importing.abstract_ids as abstract_ids_module
import storage.importing.gather as importing
import storage.second_process as second_process
import storage.sources.limits as limits_module
import storage.sources.registry as registry
from storage import Library
from storage.cache import papers_cache
from storage.errors import SourceError
from storage.files import tables_json as files_module
from storage.files.tables_json import _in_lines, encoded_tables
from storage.importing.abstract_ids import abstract_ids, with_ids
from storage.sources.limits import ListFile, ReadLimits
from storage.sources.records import SNIFF_CHARS, ReadResult, RecordStream
from storage.sources.registry import READERS, open_source, read_source
from tests.helpers import needs_two_cores

ABSTRACT = (
    "We propose a sampler for diffusion models that needs {n} steps instead of 1000, and show "
    "on $\\alpha$-stable benchmarks a gain of {n}.5% over strong baselines, at no extra cost."
)


@pytest.fixture
def small_heads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files of a few KB are read line by line, as those of megabytes are."""
    monkeypatch.setattr(registry, "HEAD_BYTES", 2048)
    monkeypatch.setattr(registry, "SNIFF_CHARS", 1024)
    monkeypatch.setattr(limits_module, "_CHUNK", 1000)  # lines cut across chunks


def jsonl(tmp_path: Path, lines: list[str], name: str = "list.jsonl", **options: str) -> Path:
    path = tmp_path / name
    text = "\n".join(lines) + "\n"
    path.write_bytes(
        options.get("bom", "").encode() + text.replace("\n", options.get("eol", "\n")).encode()
    )
    return path


def records(count: int, start: int = 0) -> list[str]:
    return [
        json.dumps(
            {"title": f"Paper {n}", "abstract": ABSTRACT.format(n=n)}, ensure_ascii=n % 2 == 0
        )
        for n in range(start, start + count)
    ]


# -- reading line by line ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape",
    ["plain", "crlf and bom", "no last newline", "odd lines", "unicode line ends", "long line"],
)
def test_a_list_read_line_by_line_is_the_list_read_whole(
    tmp_path: Path, small_heads: None, shape: str
) -> None:
    lines = records(40)
    options: dict[str, str] = {}
    if shape == "crlf and bom":
        options = {"eol": "\r\n", "bom": "\ufeff"}
    if shape == "odd lines":
        lines[5:5] = ["", "   ", "{broken", "[1, 2]", '"text"', "\r"]
    if shape == "unicode line ends":  # str.splitlines cuts a line at these: so does the stream
        lines[7] = lines[7].replace("sampler", "sam\u2028pler").replace("steps", "ste\x85ps")
        lines[9] = json.dumps({"abstract": ABSTRACT.format(n=99) + "\u2029"}, ensure_ascii=False)
    if shape == "long line":
        lines[20] = json.dumps({"title": "Long", "abstract": ABSTRACT.format(n=7) * 100})
    path = jsonl(tmp_path, lines, **options)
    if shape == "no last newline":
        path.write_bytes(path.read_bytes().rstrip(b"\n"))
    stream = open_source(path)
    assert isinstance(stream, RecordStream)
    whole = read_source(path)
    assert list(stream.records) == whole.records and whole.records
    assert stream.errors == whole.errors
    assert (stream.source, stream.list_name) == (whole.source, whole.list_name)


def test_a_short_list_or_another_format_is_read_whole(tmp_path: Path, small_heads: None) -> None:
    short = jsonl(tmp_path, records(2), "short.jsonl")
    named_json = jsonl(tmp_path, records(40), "lines.json")  # JSON's: read whole, as JSON Lines
    text = tmp_path / "list.txt"
    text.write_text("A list\n\n" + "\n\n".join(ABSTRACT.format(n=n) for n in range(40)))
    for path in (short, named_json, text):
        assert isinstance(open_source(path), ReadResult)


def failure_read_whole_and_by_line(path: Path) -> str:
    """The one-line error reading ``path`` whole, which reading it line by line gives too."""
    with pytest.raises(SourceError) as whole:
        read_source(path)
    stream = open_source(path)
    assert isinstance(stream, RecordStream)
    with pytest.raises(SourceError) as streamed:
        list(stream.records)
    assert str(streamed.value) == str(whole.value)
    return str(whole.value)


@pytest.mark.parametrize("damage", [b"\xff", b"\xe2\n"])
def test_a_list_undecodable_part_way_fails_as_when_read_whole(
    tmp_path: Path, small_heads: None, damage: bytes
) -> None:
    path = jsonl(tmp_path, records(40), bom="\ufeff")
    data = path.read_bytes()
    path.write_bytes(data[:3000] + damage + data[3000:])
    assert "not UTF-8 text (byte 2997 cannot" in failure_read_whole_and_by_line(path)


def test_a_list_of_no_json_objects_fails_as_when_read_whole(
    tmp_path: Path, small_heads: None
) -> None:
    path = jsonl(tmp_path, [f"{{not json at all, line {n}" for n in range(300)])
    assert "no line holds a JSON object" in failure_read_whole_and_by_line(path)


def test_a_list_changed_before_it_is_read_is_not_half_read(
    tmp_path: Path, small_heads: None
) -> None:
    path = jsonl(tmp_path, records(40))
    stream = open_source(path)
    path.write_text("\n".join(records(50)) + "\n")
    with pytest.raises(SourceError, match="changed while it was being imported"):
        list(stream.records)


def test_a_failed_streamed_import_leaves_the_library_as_it_was(
    library: Library, tmp_path: Path, small_heads: None
) -> None:
    path = jsonl(tmp_path, records(40))
    path.write_bytes(path.read_bytes() + b"\xff\n")
    before = {p.name: p.read_bytes() for p in library.home.iterdir() if p.is_file()}
    with pytest.raises(SourceError, match="not UTF-8"):
        library.import_file(path)
    assert {p.name: p.read_bytes() for p in library.home.iterdir() if p.is_file()} == before


def test_progress_follows_a_streamed_list(home: Path, tmp_path: Path, small_heads: None) -> None:
    path = jsonl(tmp_path, records(450))
    seen: list[tuple[int, int]] = []
    Library(home).import_files([path], progress=lambda done, total: seen.append((done, total)))
    assert seen == [(200, 450), (400, 450), (450, 450)]


def test_every_reader_knows_a_file_by_its_start(tmp_path: Path) -> None:
    """What a file is, is told by its start: a large file is read line by line on that word."""
    rng = random.Random(3)
    bodies = [
        "\n".join(records(400)),
        json.dumps([json.loads(line) for line in records(400)]),
        "title,abstract\n" + "\n".join(f'T{n},"{ABSTRACT.format(n=n)}"' for n in range(400)),
        "@article{a,\n title={T},\n abstract={" + ABSTRACT * 500 + "}}\n",
        "TY  - JOUR\nTI  - T\nAB  - " + ABSTRACT * 500 + "\nER  - \n",
        "A list\n\n" + "\n\n".join(ABSTRACT.format(n=n) for n in range(400)),
    ]
    names = ["x.jsonl", "x.json", "x.csv", "x.bib", "x.ris", "x.txt", "papers.json", "x.csl"]
    for body in bodies:
        for lead in ("", " " * rng.randint(1, 70_000)):
            text = lead + body
            assert len(text) - len(lead) > SNIFF_CHARS
            start = text[: len(lead) + SNIFF_CHARS]
            for name in names:
                for reader in READERS:
                    if reader.name == "papers-tui library" and name == "papers.json":
                        continue  # known by its name: never read line by line (see the registry)
                    path = tmp_path / name
                    assert reader.sniff(text, path) == reader.sniff(start, path), (reader, name)


def test_lines_are_those_of_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits_module, "_CHUNK", 7)
    rng = random.Random(5)
    for _ in range(200):
        data = bytes(rng.choice(b"ab\n\r ") for _ in range(rng.randint(0, 60)))
        path = tmp_path / "f"
        path.write_bytes(data)
        with ListFile(path, ReadLimits()) as file:
            head = file.read(rng.randint(0, 10))
            found = list(file.lines(head))
        expected = data.split(b"\n")
        if expected and not expected[-1]:
            expected.pop()
        assert found == expected, data


# -- writing a part at a time -----------------------------------------------------------------


def test_tables_written_in_parts_are_those_written_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(11)
    for _ in range(100):
        monkeypatch.setattr(files_module, "_DOCUMENTS_AT_ONCE", rng.choice([1, 2, 3, 1000]))
        tables = {
            name: {str(n): {"id": f"{n:012x}", "title": "é\u2028\"x" * (n % 3), "at": n / 7}
                   for n in range(rng.choice([0, 1, 2, 5, 1500]))}
            for name in rng.sample(["papers", "lists", "meta", "w\"é"], rng.randint(0, 4))
        }  # fmt: skip
        text = b"".join(encoded_tables(tables))
        assert orjson.loads(text) == tables  # the same JSON, newlines apart
        lines = text.splitlines(keepends=True)
        assert _in_lines(lines) == tables  # read a line at a time as written
        at_once = files_module._DOCUMENTS_AT_ONCE
        slices = [-(-len(t) // at_once) for t in tables.values() if len(t) > at_once]
        assert len(lines) == 1 + sum(n + 1 for n in slices)  # a line a slice


def test_a_cache_header_has_room_for_every_block(
    seeded_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = Library(seeded_home).papers()
    monkeypatch.setattr(papers_cache, "CHUNK_ROWS", 1)  # as many blocks as can be
    (seeded_home / papers_cache.PAPERS_CACHE_FILE).unlink()
    Library(seeded_home).papers()  # writes the cache
    library = Library(seeded_home)
    assert library.loaded_papers().from_cache and library.papers() == expected


# -- ids by a second process ------------------------------------------------------------------


def some_abstracts() -> list[str]:
    found = [ABSTRACT.format(n=n) for n in range(700)]
    found[5] = "Abstract not available"
    found[6] = ""
    found[7] = "L'abstract est en français : $\\beta$-VAE, 3×10⁻⁴, «ré-entraîné» – ﬁn."
    return found


@needs_two_cores
@pytest.mark.parametrize("batch", [1, 64])
def test_ids_worked_out_by_a_second_process_are_those_worked_out_here(
    monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    abstracts = some_abstracts()
    batches = [abstracts[i : i + batch] for i in range(0, len(abstracts), batch)]
    here: list[int] = []

    def counted(abstracts: list[str]) -> list[str | None]:
        here.append(len(abstracts))
        return abstract_ids(abstracts)

    monkeypatch.setattr(abstract_ids_module, "abstract_ids", counted)
    found = list(with_ids(iter(batches), lambda b: b, second_process=True))
    assert [b for b, _ in found] == batches
    assert [i for _, ids in found for i in ids] == abstract_ids(abstracts)
    assert len(here) <= len(batches) - 2  # the second process answered some


@pytest.mark.parametrize(
    "program",
    ["import sys; sys.stdin.buffer.read(10)", "import sys; sys.stdout.write('garbage')"],
)
def test_a_second_process_that_stops_leaves_the_work_here(
    monkeypatch: pytest.MonkeyPatch, program: str
) -> None:
    monkeypatch.setattr(second_process, "PROGRAM", program)
    abstracts = some_abstracts()
    batches = [abstracts[i : i + 50] for i in range(0, len(abstracts), 50)]
    found = list(with_ids(iter(batches), lambda b: b, second_process=True))
    assert [i for _, ids in found for i in ids] == abstract_ids(abstracts)


def test_a_stuck_second_process_is_ended(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(second_process, "PROGRAM", "import time; time.sleep(60)")
    monkeypatch.setattr(second_process, "STALLED_S", 0.2)
    monkeypatch.setattr(second_process, "ENDING_S", 0.1)
    abstracts = some_abstracts()
    batches = [abstracts[i : i + 50] for i in range(0, len(abstracts), 50)]
    found = list(with_ids(iter(batches), lambda b: b, second_process=True))
    assert [i for _, ids in found for i in ids] == abstract_ids(abstracts)


def test_a_second_process_answers_batch_after_batch() -> None:
    batches = [["first abstract", ABSTRACT.format(n=1)], [], [ABSTRACT.format(n=2)]]
    stdin = io.BytesIO()
    for batch in batches:
        payload = marshal.dumps(batch)
        stdin.write(len(payload).to_bytes(4, "big") + payload)
    stdin.seek(0)
    stdout = io.BytesIO()
    second_process.serve("storage.importing.abstract_ids:abstract_ids", stdin, stdout)
    data, answers = stdout.getvalue(), []
    while data:
        size = int.from_bytes(data[:4], "big")
        answers.append(marshal.loads(data[4 : 4 + size]))
        data = data[4 + size :]
    assert answers == [abstract_ids(b) for b in batches]


def test_an_import_with_a_second_process_is_the_same(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_heads: None
) -> None:
    lines = records(900) + records(30)  # the last 30 again: merged
    lines[100] = json.dumps({"title": "Paper 3"})  # known by its title
    path = jsonl(tmp_path, lines)
    expected = Library(tmp_path / "here").import_file(path)
    monkeypatch.setattr(importing, "SECOND_PROCESS_BYTES", 0)
    monkeypatch.setattr(abstract_ids_module, "BATCH", 16)
    report = Library(home).import_file(path)
    assert Library(home).papers() == Library(tmp_path / "here").papers()
    assert (report.added, report.merged, report.errors) == (
        expected.added, expected.merged, expected.errors,
    )  # fmt: skip
    assert len(report.merged) == 31
    assert os.listdir(home)  # written
