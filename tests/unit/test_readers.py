"""Readers: the plain-text list, JSON, JSONL, CSV, detection, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage.errors import SourceError
from storage.sources.plain_text import split_title
from storage.sources.records import venue_status
from storage.sources.registry import list_files, read_source, read_text_content

ABSTRACT = (
    "We propose ParaSolver, a hierarchical parallel sampling technique for diffusion models "
    "that cuts latency by an order of magnitude. Code: https://github.com/x/ParaSolver."
)
ABSTRACT2 = (
    "Graph neural networks on curved spaces capture spectral and curvature signals, and our "
    "model CUSP combines both to improve node classification on heterophilic benchmarks."
)


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_seed_lists_give_38_papers_with_their_headers(sample_files: list[Path]) -> None:
    results = [read_source(p) for p in sample_files]
    assert [len(r.records) for r in results] == [19, 19]
    assert [r.list_name for r in results] == ["ICLR 2025 论文列表", "ICLR 2025 Papers"]
    assert all(not r.errors for r in results)
    assert all(not rec.title for r in results for rec in r.records)


def test_text_without_header_uses_the_file_name(tmp_path: Path) -> None:
    result = read_source(write(tmp_path, "mylist.txt", f"{ABSTRACT}\n\n{ABSTRACT2}\n"))
    assert result.list_name == "mylist"
    assert len(result.records) == 2


def test_text_paragraph_with_a_title_line(tmp_path: Path) -> None:
    text = f"My list\n\nParaSolver: Fast Diffusion Sampling\n{ABSTRACT}\n"
    [record] = read_source(write(tmp_path, "l.txt", text)).records
    assert record.title == "ParaSolver: Fast Diffusion Sampling"
    assert record.abstract == ABSTRACT


def test_hard_wrapped_abstract_is_not_taken_for_a_title() -> None:
    wrapped = (
        "We propose ParaSolver, a hierarchical parallel sampling technique for diffusion\n"
        "models that cuts latency by an order of magnitude on image benchmarks and keeps\n"
        "quality."
    )
    assert split_title(wrapped) == ("", wrapped)


def test_stray_short_paragraphs_and_huge_ones_are_record_errors(tmp_path: Path) -> None:
    text = f"List\n\n{ABSTRACT}\n\n---\n\n{'x' * 30_000}\n"
    result = read_source(write(tmp_path, "l.txt", text))
    assert len(result.records) == 1
    reasons = [e.reason for e in result.errors]
    assert any("too short" in r for r in reasons)
    assert any("too long" in r for r in reasons)


def test_a_long_list_is_told_from_its_first_paragraphs_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a text is a list of abstracts is read from its first paragraphs (0.2 ms each:
    20 s for a list of 100,000), and a long list whose first ones are no abstracts is no list."""
    import storage.sources.plain_text as plain

    asked: list[str] = []
    prose = plain.reads_as_prose
    monkeypatch.setattr(plain, "reads_as_prose", lambda text: asked.append(text) or prose(text))
    papers = "\n\n".join(f"{ABSTRACT} Number {n}." for n in range(600))
    assert len(read_source(write(tmp_path, "long.txt", f"List\n\n{papers}\n")).records) == 600
    assert 0 < len(asked) <= 200
    options = "\n\n".join(f"--option-{n}  what it sets, with more words after" for n in range(300))
    with pytest.raises(SourceError, match="only 0 of its first 200 paragraphs read as"):
        read_source(write(tmp_path, "options.txt", f"usage: tool\n\n{options}\n\n{papers}\n"))


def test_json_array_with_aliases(tmp_path: Path) -> None:
    items = [
        {
            "Title": "ParaSolver",
            "summary": ABSTRACT,
            "author": "Ada Lovelace; Alan Turing",
            "forum": "2JihLwirxO",
            "code_url": "https://github.com/Jianrong-Lu/ParaSolver/tree/main",
            "decision": "Accept (Oral)",
            "keywords": "diffusion, sampling",
        }
    ]
    [record] = read_source(write(tmp_path, "x.json", json.dumps(items))).records
    assert record.title == "ParaSolver"
    assert record.authors == ("Ada Lovelace", "Alan Turing")
    assert record.url == "https://openreview.net/forum?id=2JihLwirxO"
    assert record.github == ("https://github.com/Jianrong-Lu/ParaSolver",)
    assert record.venue_status == "Oral"
    assert record.keywords == ("diffusion", "sampling")


def test_json_object_holding_the_array_and_openreview_content(tmp_path: Path) -> None:
    data = {
        "name": "Workshop picks",
        "notes": [{"content": {"title": {"value": "T"}, "abstract": {"value": ABSTRACT}}}],
    }
    result = read_source(write(tmp_path, "x.json", json.dumps(data)))
    assert result.list_name == "Workshop picks"
    assert [r.title for r in result.records] == ["T"]


def test_jsonl_with_a_broken_line_keeps_the_others(tmp_path: Path) -> None:
    lines = [
        json.dumps({"abstract": ABSTRACT}),
        '{"abstract": "trunc',
        json.dumps({"abstract": ABSTRACT2}),
    ]
    result = read_source(write(tmp_path, "x.jsonl", "\n".join(lines)))
    assert len(result.records) == 2
    assert [e.record for e in result.errors] == [2]


def test_csv_with_header_aliases(tmp_path: Path) -> None:
    text = (
        'title,abstract,authors,code\n"A, B",'
        + json.dumps(ABSTRACT)
        + ',"X Y, Z W",https://github.com/a/b\n'
    )
    [record] = read_source(write(tmp_path, "x.csv", text)).records
    assert record.title == "A, B"
    assert record.authors == ("X Y", "Z W")
    assert record.github == ("https://github.com/a/b",)


def test_format_comes_from_content_as_well_as_the_name(tmp_path: Path) -> None:
    as_txt = write(tmp_path, "papers.txt", json.dumps([{"abstract": ABSTRACT}]))
    assert read_source(as_txt).records[0].abstract == ABSTRACT
    jsonl_as_json = write(
        tmp_path,
        "p.json",
        json.dumps({"abstract": ABSTRACT}) + "\n" + json.dumps({"abstract": ABSTRACT2}),
    )
    assert len(read_source(jsonl_as_json).records) == 2
    csv_as_txt = write(tmp_path, "p.txt", "abstract,title\n" + json.dumps(ABSTRACT) + ",T\n")
    assert read_source(csv_as_txt).records[0].title == "T"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.txt", b"", "empty"),
        ("blank.txt", b"  \n\n \n", "empty"),
        ("binary.pdf", b"%PDF-1.4\x00\x01\x02binary", "binary"),
        ("latin1.txt", "caf\xe9 ".encode("latin-1") * 20, "UTF-8"),
        ("trunc.json", b'[{"abstract": "abc', "not valid JSON"),
        ("numbers.json", b"[1, 2, 3]", "no list of papers"),
        ("object.json", b'{"a": 1}', "no list of papers"),
        ("nocol.csv", b"venue,year\nA,2024\n", "no abstract or title column"),
        ("header.txt", b"Just a header line\n", "no abstracts"),
        ("text.json", b"hello there", "not valid JSON"),
    ],
)
def test_bad_files_raise_one_clear_line(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    path = write(tmp_path, name, content)
    with pytest.raises(SourceError) as caught:
        result = read_source(path)
        if not result.records:  # a header-only file reads, but holds nothing
            raise SourceError(f"{path}: no abstracts")
    text = str(caught.value)
    assert message in text
    assert "\n" not in text
    assert str(path) in text


def test_missing_path_and_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        list_files(tmp_path / "nope.txt")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError, match="holds no list files"):
        list_files(tmp_path / "empty")


def test_folder_lists_its_list_files_but_not_hidden_ones(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(ABSTRACT)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.jsonl").write_text(json.dumps({"abstract": ABSTRACT2}))
    (tmp_path / ".hidden.txt").write_text(ABSTRACT)
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    assert [p.name for p in list_files(tmp_path)] == ["a.txt", "b.jsonl"]


def test_a_20_mb_single_paragraph_is_one_record_error(tmp_path: Path) -> None:
    path = write(tmp_path, "huge.txt", "word " * 4_000_000)
    result = read_source(path)
    assert not result.records
    assert len(result.errors) == 1
    assert "too long" in result.errors[0].reason


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Accept (Oral)", "Oral"),
        ("Accept (Talk)", "Oral"),
        ("ICLR 2025 Spotlight", "Spotlight"),
        ("poster", "Poster"),
        ("Desk", "Desk"),
        ("ICML 2026 regular", "Poster"),  # ICML 2026's posters
        ("Regular", "Regular"),  # a list's own status: no ICML poster (a review found it)
        ("Technical Track on Regular", "Technical Track on Regular"),
        # a decision against the paper, in the words of the fetch (Paper Copilot's, ours)
        ("Withdraw", "Withdrawn"),
        ("Reject", "Rejected"),
        ("Desk Reject", "Desk rejected"),
        ("Active", "Under review"),
        ("Rejected", "Rejected"),
        ("Desk rejected", "Desk rejected"),
        ("Under review", "Under review"),
        ("Interactive", "Interactive"),  # no "Active" but the whole status
    ],
)
def test_venue_status(text: str, expected: str) -> None:
    assert venue_status(text) == expected


def test_openreviews_venue_ids_say_decisions_as_its_fetch_does(tmp_path: Path) -> None:
    """OpenReview's notes saved to a file said "Reject" and "Desk Reject" (``venueid``
    ``…/Rejected_Submission``, ``…/Desk_Rejected_Submission``) and "Submitted" where its fetch
    says Rejected, Desk rejected and Under review."""
    venue = "ICLR.cc/2025/Conference"
    notes = [
        {"title": f"Paper {end}", "abstract": f"A study of {end} sampling, with experiments.",
         "venue": "Submitted to ICLR 2025", "venueid": f"{venue}/{end}"}
        for end in ("Rejected_Submission", "Withdrawn_Submission", "Desk_Rejected_Submission",
                    "Submission")
    ]  # fmt: skip
    path = tmp_path / "notes.json"
    path.write_text(json.dumps(notes), encoding="utf-8")
    assert [r.venue_status for r in read_source(path).records] == [
        "Rejected", "Withdrawn", "Desk rejected", "Under review",
    ]  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=3000), st.sampled_from(["x.txt", "x.json", "x.jsonl", "x.csv", "x"]))
def test_no_text_makes_a_reader_raise_anything_but_source_error(text: str, name: str) -> None:
    try:
        result = read_text_content(text, Path(name))
    except SourceError as exc:
        assert "\n" not in str(exc)
    else:
        for record in result.records:  # a record without an abstract is known by its title
            assert record.abstract.strip() or record.title.strip()
