"""BibTeX keys of a sensible length: a title whose first long word is huge (a 1,000-letter
"word", an unbroken run of letters a list gives for a title) or a family name as long gave a
key of that length (``anonxxxx…``, a page of one line in the ``.bib``, in CSL-JSON's ``id``).
The name and the word are each cut at ``KEY_PART_CHARS``: the keys of real papers, whose
words and names are all shorter, are those they were, and keys stay unique within a file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from storage.export import export
from storage.export.bibtex import KEY_PART_CHARS, bibtex_key
from storage.files.triage_file import TriageState
from storage.models import Paper
from storage.sources.papers import build_paper
from storage.sources.registry import read_source


def _paper(n: int, title: str, authors: tuple[str, ...] = ()) -> Paper:
    return Paper(id=f"{n:012x}", title=title, abstract="", authors=authors, list="l")


def test_a_huge_first_word_gives_a_key_of_a_sensible_length() -> None:
    word = "x" * 1000
    papers = [
        _paper(1, word),
        _paper(2, f"{word} again"),  # the same key but for its suffix
        _paper(3, "A Study", ("Ann " + "L" * 1000,)),
        _paper(4, "y" * 1000, ("Bo " + "P" * 1000,)),
    ]
    taken: set[str] = set()
    keys = [bibtex_key(p, taken) for p in papers]
    assert keys[0] == "anon" + "x" * KEY_PART_CHARS
    assert keys[1] == keys[0] + "a"  # unique still
    assert keys[2] == "l" * KEY_PART_CHARS + "study"
    assert keys[3] == "p" * KEY_PART_CHARS + "y" * KEY_PART_CHARS
    assert all(len(k) <= 2 * KEY_PART_CHARS + 8 for k in keys)
    bib = export(papers, TriageState(), "bibtex")
    assert max(len(line) for line in bib.splitlines() if line.startswith("@")) < 100
    items = json.loads(export(papers, TriageState(), "csl-json"))
    assert [item["id"] for item in items] == keys


def test_keys_of_many_papers_of_one_cut_word_are_unique() -> None:
    papers = [_paper(n, "z" * 500 + str(n)) for n in range(60)]
    taken: set[str] = set()
    keys = [bibtex_key(p, taken) for p in papers]
    assert len(set(keys)) == 60


def test_the_keys_of_the_real_list_are_those_they_were(real_list: Path) -> None:
    """The 3,703 ICLR 2025 papers' keys, in list order, as the export made them before the
    cut (their digest): none of their names or words is that long."""
    result = read_source(real_list)
    papers = [build_paper(r, "iclr2025", n) for n, r in enumerate(result.records)]
    taken: set[str] = set()
    keys = [bibtex_key(p, taken) for p in papers]
    assert len(keys) == 3703 and keys[:3] == [
        "luo2025beyond",
        "laiz2025selfsupervised",
        "kran2025darkbench",
    ]
    digest = hashlib.sha256("\n".join(keys).encode()).hexdigest()[:16]
    assert digest == "e88adeddeb0253c9"
