"""A large list imports as a small one does: read line by line, the same papers.

A list of 20,000 generated papers (with the kinds of records that merge, stay apart, carry no
abstract or fail) is imported as ``papers import`` reads it (line by line) and as the whole
file read at once: the papers, the files and the report are the same, and a sample of them is
what the import made before it streamed (the ids and merges below were read from that
version). A second process for the ids is tried in ``test_importing_streamed.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from storage import Library
from storage.models import ImportReport
from storage.sources.records import RecordStream
from storage.sources.registry import open_source, read_source

PAPERS = 20_000
VOCABULARY = (
    "graph neural network diffusion sampler transformer attention sparse dense retrieval "
    "language model agent reward policy gradient benchmark dataset robust adversarial "
    "federated privacy kernel spectral contrastive representation token memory latent "
    "variational flow matching protein molecule vision segmentation detection scaling law"
)
WORDS = VOCABULARY.split()


def paper_record(rng: random.Random, n: int) -> dict[str, object]:
    """A generated paper: a title, an abstract with numbers (some in TeX), authors, a link."""
    words = [rng.choice(WORDS) for _ in range(rng.randint(40, 70))]
    words[rng.randrange(len(words))] += f" by {rng.randint(1, 99)}.{rng.randint(0, 9)}%"
    if n % 5 == 0:
        words.insert(3, r"$\alpha$-stable")
    record: dict[str, object] = {
        "title": " ".join(rng.choice(WORDS).capitalize() for _ in range(6)) + f" {n}",
        "abstract": " ".join(words).capitalize() + ".",
        "authors": [f"Author {rng.randint(1, 5000)}" for _ in range(rng.randint(1, 6))],
        "url": f"https://openreview.net/forum?id=paper{n:06d}",
    }
    if n % 7 == 0:
        record["code"] = f"https://github.com/lab{n % 50}/repo{n}"
    return record


def write_list(path: Path, papers: int = PAPERS) -> None:
    """``papers`` generated records as a JSON Lines list, with records that merge or fail."""
    rng = random.Random(13)
    made: list[dict[str, object]] = []
    lines: list[str] = []
    for n in range(papers):
        record = paper_record(rng, n)
        made.append(record)
        lines.append(json.dumps(record, ensure_ascii=n % 3 == 0))
        if n % 97 == 50:  # the same paper again
            lines.append(json.dumps(made[n - 40]))
        if n % 101 == 60:  # another paper with the same abstract: kept apart
            lines.append(json.dumps({**made[n - 50], "title": f"Another Paper {n}"}))
        if n % 103 == 70:  # the same abstract, its TeX written in Unicode: one paper
            other = made[(n - 10) // 5 * 5]
            text = str(other["abstract"]).replace(r"$\alpha$", "α")
            lines.append(json.dumps({**other, "abstract": text}, ensure_ascii=False))
        if n % 107 == 80:  # a record without an abstract, of a known title
            lines.append(json.dumps({"title": made[n - 60]["title"]}))
        if n % 211 == 90:  # a placeholder abstract, a paper of its own
            lines.append(json.dumps({"title": f"Untold {n}", "abstract": "Abstract not available"}))
        if n % 997 == 100:
            lines.extend(["{broken", "[1, 2]", ""])
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def report_facts(report: ImportReport) -> tuple[object, ...]:
    return (
        report.added, report.updated, report.skipped, [str(e) for e in report.errors],
        report.lists, [str(m) for m in report.merged], [str(m) for m in report.apart],
    )  # fmt: skip


@pytest.fixture(scope="module")
def big_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("large") / "generated.jsonl"
    write_list(path)
    return path


@pytest.fixture(scope="module")
def whole(big_list: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ImportReport]:
    """The list imported from the whole file, read at once, in this process alone."""
    home = tmp_path_factory.mktemp("whole") / "home"
    return home, Library(home).import_results([read_source(big_list)])


def same_libraries(first: Path, second: Path) -> None:
    one, two = Library(first), Library(second)
    assert one.papers() == two.papers()
    assert [(i.name, i.order, i.size) for i in one.lists()] == [
        (i.name, i.order, i.size) for i in two.lists()
    ]
    tables = [json.loads((home / "papers.json").read_bytes()) for home in (first, second)]
    for table in tables:
        for doc in table["lists"].values():
            doc.pop("at")
    assert tables[0] == tables[1]


@pytest.mark.slow(15)
def test_a_large_list_is_read_line_by_line(big_list: Path) -> None:
    stream = open_source(big_list)
    assert isinstance(stream, RecordStream)
    result = read_source(big_list)
    assert list(stream.records) == result.records
    assert stream.errors == result.errors
    assert stream.expected() >= len(result.records)


@pytest.mark.slow(15)
def test_the_streamed_import_is_the_whole_file_import(
    big_list: Path, whole: tuple[Path, ImportReport], tmp_path: Path
) -> None:
    home, expected = whole
    report = Library(tmp_path / "streamed").import_file(big_list)
    assert report_facts(report) == report_facts(expected)
    same_libraries(tmp_path / "streamed", home)


def test_a_sample_is_what_the_import_made_before_it_streamed(
    whole: tuple[Path, ImportReport],
) -> None:
    home, report = whole
    papers = Library(home).papers()
    assert (
        report.added,
        len(report.merged),
        len(report.apart),
        len(report.errors),
    ) == SAMPLE_COUNTS
    assert [papers[i].id for i in SAMPLE_ROWS] == SAMPLE_IDS
    assert sorted({m.reason for m in report.merged}) == SAMPLE_REASONS
    assert [(m.paper_id, m.title, m.reason) for m in report.merged[:2]] == SAMPLE_MERGES
    assert [m.record for m in report.merged[:2]] == [52, 74]  # lines of the file


SAMPLE_ROWS = (0, 1, 2, 5, 999, 10_000, 19_999, -1)
SAMPLE_COUNTS = (20_095, 587, 198, 40)  # kept apart: not counted as added too
SAMPLE_IDS = [
    "4ee63f96f985", "495ca4eab700", "af40c46dcead", "37aa08aeba3b",
    "16aa0f4e5865", "5dde58b0bd15", "0c3ffd1d33e9", "61bc750bd9a7",
]  # fmt: skip
SAMPLE_REASONS = [
    "the same abstract, written differently",
    "the same paper twice in the import",
    "the same title; the record has no abstract",
]
SAMPLE_MERGES = [
    ("d871bb5c248f", "Molecule Robust Graph Graph Agent Benchmark 10",
     "the same paper twice in the import"),
    ("398309138394", "Memory Benchmark Kernel Contrastive Vision Molecule 60",
     "the same abstract, written differently"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("b.bib", "@book{b1,\n title={A Book With No Abstract},\n author={Smith, Jane},\n}\n"),
        ("t.json", '[{"title": "Only A Title Here", "authors": ["Jane Smith"]}]'),
    ],
)
def test_a_title_only_record_imported_again_is_unchanged_not_merged(
    tmp_path: Path, name: str, text: str
) -> None:
    """Importing the same file twice said "1 merged: the same title; the record has no
    abstract" of a paper whose id is the record's own: it is the paper itself, unchanged."""
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    library = Library(tmp_path / "home")
    assert library.import_file(source).added == 1
    again = library.import_file(source)
    assert (again.added, again.updated, again.skipped, again.merged) == (0, 0, 1, [])
