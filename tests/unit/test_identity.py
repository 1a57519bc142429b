"""When two records are one paper, ids, the import report's merges, and moving old libraries."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage import Library, Status
from storage.importing import identity
from storage.importing.identity import (
    abstract_identity,
    is_placeholder,
    titles_compatible,
)
from storage.sources.papers import paper_id
from storage.text.latex import to_unicode
from storage.text.normalize import key

ABSTRACT = (
    "We propose a sampler that improves accuracy by 9.5% over the baseline, using the "
    "combination alpha + beta of two well known schedules, on three benchmarks."
)


def write_jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            r"We use $\alpha + \beta$ and $\ell_2$ loss on ﬁne data sets.",
            "We use α + β and ℓ₂ loss on fine data sets.",
        ),
        (
            r"Gains of 10\% with \textbf{ParaSolver} -- a new sampler.",
            "Gains of 10% with ParaSolver – a new sampler.",
        ),
        (
            "state-of-the-art results at 10^-3 learning rate",
            "State of the art results at 10⁻³ learning rate",
        ),
    ],
)
def test_latex_and_unicode_forms_are_one_abstract(first: str, second: str) -> None:
    padded = " with enough words to be read as a real abstract of a paper"
    assert abstract_identity(first + padded) == abstract_identity(second + padded)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("improves accuracy by 9.5% over", "improves accuracy by 95% over"),
        ("the combination α + β of two", "the combination α − β of two"),
        (r"the combination $\alpha + \beta$ of two", r"the combination $\alpha - \beta$ of two"),
        ("a bound of x ≤ 3 holds", "a bound of x ≥ 3 holds"),
    ],
)
def test_numbers_and_operators_keep_abstracts_apart(first: str, second: str) -> None:
    padded = " in every one of the experiments that we report in this paper today"
    assert abstract_identity(first + padded) != abstract_identity(second + padded)


@pytest.mark.parametrize(
    "text",
    ["The abstract of this paper is not available", "N/A", "No abstract available.", "TBD", ""],
)
def test_placeholders_are_no_abstract(text: str) -> None:
    assert is_placeholder(text) and abstract_identity(text) is None


def test_a_short_real_abstract_is_no_placeholder() -> None:
    assert not is_placeholder("We show that transformers do not need attention in most tasks.")


def test_titles_compatible() -> None:
    assert titles_compatible("", "Anything at all")
    assert titles_compatible(r"{$\tau$}-bench: tools", "τ-bench: Tools")
    assert titles_compatible("MaRS: A Fast Sampler", "MRS: A Fast Sampler")
    assert titles_compatible("Sampler", "Sampler: and a subtitle")
    assert not titles_compatible("Graph curvature flows", "Protein folding at scale")


def test_placeholder_records_stay_apart_by_title(home: Path, tmp_path: Path) -> None:
    placeholder = "The abstract of this paper is not available"
    rows = [
        {"title": "First paper", "abstract": placeholder, "authors": ["A"], "url": "https://a.org/1"},
        {"title": "Second paper", "abstract": placeholder, "authors": ["B"], "url": "https://a.org/2"},
    ]  # fmt: skip
    report = Library(home).import_file(write_jsonl(tmp_path / "p.jsonl", rows))
    papers = Library(home).papers()
    assert report.added == 2 and not report.merged
    assert [(p.title, p.abstract, p.authors, p.url) for p in papers] == [
        ("First paper", "", ("A",), "https://a.org/1"),
        ("Second paper", "", ("B",), "https://a.org/2"),
    ]


def test_near_identical_abstracts_stay_apart(home: Path, tmp_path: Path) -> None:
    rows = [
        {"abstract": ABSTRACT},
        {"abstract": ABSTRACT.replace("9.5%", "95%")},
        {"abstract": ABSTRACT.replace("alpha + beta", "alpha - beta")},
    ]
    report = Library(home).import_file(write_jsonl(tmp_path / "n.jsonl", rows))
    assert report.added == 3 and not report.merged


def test_same_abstract_different_titles_kept_apart_and_reported(home: Path, tmp_path: Path) -> None:
    rows = [
        {"title": "Graph curvature flows", "abstract": ABSTRACT},
        {"title": "Protein folding at scale", "abstract": ABSTRACT},
        {"title": "Graph Curvature Flows", "abstract": ABSTRACT + "  "},
    ]
    lib = Library(home)
    report = lib.import_file(write_jsonl(tmp_path / "t.jsonl", rows))
    # every record once: the first added, the second kept apart, the third merged
    assert (report.added, len(report.apart), len(report.merged), report.read) == (1, 1, 1, 3)
    assert report.accounted == report.read
    assert [m.reason for m in report.merged] == ["the same paper twice in the import"]
    assert report.merged[0].joined == "Graph curvature flows" and report.merged[0].record == 3
    [apart] = report.apart
    assert apart.title == "Protein folding at scale" and "not its title" in apart.reason
    assert len({p.id for p in lib.papers()}) == 2
    again = lib.import_file(write_jsonl(tmp_path / "t.jsonl", rows))
    assert (again.added, again.skipped, again.apart) == (0, 2, [])


def test_title_only_record_joins_its_paper(home: Path, tmp_path: Path) -> None:
    lib = Library(home)
    lib.import_file(
        write_jsonl(tmp_path / "a.jsonl", [{"title": "Graph flows", "abstract": ABSTRACT}])
    )
    links = [{"title": "GRAPH FLOWS", "github": ["https://github.com/o/r"], "rating": [6, 8]}]
    report = lib.import_file(write_jsonl(tmp_path / "links.jsonl", links))
    [paper] = lib.papers()
    assert report.updated == 0 and report.merged[0].reason.startswith("the same title")
    assert report.merged[0].joined == "Graph flows" and report.accounted == report.read == 1
    assert paper.github == ("https://github.com/o/r",) and paper.fact("rating") == 7.0
    assert paper.lists == ("a", "links")
    assert paper.id == paper_id(ABSTRACT)


def test_a_paper_known_by_title_takes_its_abstract_later(home: Path, tmp_path: Path) -> None:
    lib = Library(home)
    lib.import_file(write_jsonl(tmp_path / "t.jsonl", [{"title": "Graph flows"}]))
    [before] = lib.papers()
    lib.set_status(before.id, "starred")
    lib.import_file(
        write_jsonl(tmp_path / "a.jsonl", [{"title": "Graph flows", "abstract": ABSTRACT}])
    )
    [after] = lib.papers()
    assert after.id == before.id and after.abstract == ABSTRACT
    assert lib.status(after.id) is Status.STARRED
    # the same record again, or our own export of the paper: that paper, never a second one
    again = lib.import_file(
        write_jsonl(tmp_path / "b.jsonl", [{"title": "Graph Flows", "abstract": ABSTRACT}])
    )
    assert again.added == 0 and [p.id for p in lib.papers()] == [before.id]
    # another abstract under the same title is another paper (another version says so)
    other = lib.import_file(
        write_jsonl(tmp_path / "c.jsonl", [{"title": "Graph flows", "abstract": "Other. " * 9}])
    )
    assert other.added == 1 and len(lib.papers()) == 2


@pytest.mark.slow(20)
def test_real_list_merges_nothing_and_seeds_find_their_records(
    home: Path, real_list: Path, sample_files: list[Path]
) -> None:
    lib = Library(home)
    report = lib.import_files([*sample_files, real_list])
    assert len(lib) == 3703 and report.added == 3703 and not report.apart
    assert len(report.merged) == 38  # the seeds' 38 abstracts, met again in the real list
    alone = Library(home.parent / "alone")
    alone_report = alone.import_file(real_list)
    assert len(alone) == 3703 and not alone_report.merged and not alone_report.apart


# -- an old library moves to the new ids -------------------------------------------------------


def _old_id(abstract: str) -> str:
    """The id rule of papers.json schema 1: the hash of the abstract's letters and digits."""
    return hashlib.sha1(key(abstract).encode()).hexdigest()[:12]


def _doc(pid: str, title: str, abstract: str, position: int, lst: str = "Old list") -> dict:
    return {
        "id": pid, "title": title, "abstract": abstract, "authors": [], "github": [],
        "url": "", "keywords": [], "venue_status": "", "list": lst, "position": position,
        "title_derived": False, "name": "", "lists": [lst],
    }  # fmt: skip


def test_a_schema_1_library_migrates_and_decisions_follow(home: Path) -> None:
    latex = r"We use $\alpha$ and $\beta$ schedules to sample faster than any baseline we know."
    plain = "We use α and β schedules to sample faster than any baseline we know."
    other = "A second paper about graphs, with enough words to be an abstract of a paper."
    placeholder = "The abstract of this paper is not available"
    ids = [_old_id(t) for t in (latex, plain, other, placeholder)]
    assert len(set(ids)) == 4  # the old rule kept the LaTeX and Unicode forms apart
    titles = ["Sampler", "Sampler", "Graphs", "No abstract"]
    abstracts = [latex, plain, other, placeholder]
    rows = zip(ids, titles, abstracts, strict=True)
    papers = {str(int(pid, 16)): _doc(pid, t, a, i) for i, (pid, t, a) in enumerate(rows)}
    home.mkdir()
    (home / "papers.json").write_text(json.dumps({
        "papers": papers,
        "lists": {"1": {"name": "Old list", "sources": {"old.txt": 0}, "size": 4, "at": 1}},
        "meta": {"1": {"schema": 1, "kind": "papers"}},
    }))  # fmt: skip
    (home / "triage.json").write_text(json.dumps({
        "decisions": {
            str(int(ids[0], 16)): {"status": "read", "at": 100, "note": "older note"},
            str(int(ids[1], 16)): {"status": "starred", "at": 200, "tags": ["x"]},
            str(int(ids[2], 16)): {"status": "skipped", "at": 150},
            str(int(ids[3], 16)): {"note": "no abstract, still mine"},
        },
        "history": {"1": {"at": 100, "changes": [[ids[2], "inbox", "skipped"]], "undone": False}},
        "days": {},
        "meta": {"1": {"schema": 2, "kind": "triage"}},
    }))  # fmt: skip
    lib = Library(home)
    by_title = {p.title: p for p in lib.papers()}
    assert sorted(by_title) == ["Graphs", "No abstract", "Sampler"]  # the two forms: one paper
    sampler, graphs, empty = by_title["Sampler"], by_title["Graphs"], by_title["No abstract"]
    assert graphs.id == paper_id(other) and empty.id == paper_id("", "No abstract")
    triage = lib.triage()
    assert triage.statuses == {sampler.id: Status.STARRED, graphs.id: Status.SKIPPED}
    assert triage.notes == {sampler.id: "older note", empty.id: "no abstract, still mine"}
    assert triage.tags == {sampler.id: ("x",)}
    assert json.loads((home / "triage.json").read_text())["meta"]["1"]["schema"] == 3
    assert lib.undo() == [(graphs.id, Status.SKIPPED, Status.INBOX)]  # the log follows too
    reopened = Library(home)
    assert {p.id for p in reopened.papers()} == {sampler.id, graphs.id, empty.id}
    assert reopened.statuses() == {sampler.id: Status.STARRED}


def test_a_papers_id_is_the_same_whichever_file_came_first(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{a, title={Graph Flows}, author={Lee, Ann}, year=2024}\n")
    listed = write_jsonl(tmp_path / "list.jsonl", [{"title": "Graph Flows", "abstract": ABSTRACT}])
    found = []
    for n, files in enumerate(([bib, listed], [listed, bib])):
        library = Library(tmp_path / f"home{n}")
        report = library.import_files(files)
        assert (report.added, len(report.merged), report.read) == (1, 1, 2)
        [paper] = library.papers()
        found.append((paper.id, paper.abstract, paper.authors))
    assert found[0] == found[1] and found[0][0] == paper_id(ABSTRACT)


#: The signs as first written: the words that are not all letters, searched one by one with a
#: look-ahead for where a sign may start (what ids were made with; they must not change).
_LETTER, _DASH, _OPS = r"[^\W\d_]", "[-‐‑‒–—−]", "+±∓×÷=≠≈<>≤≥≪≫∝/%⁄"
_FIRST_SIGNS = re.compile(
    rf"(?=[\d{_OPS}‐‑‒–—−-])"
    rf"(?:\d+(?:[.,]\d+)*|[{_OPS}]"
    rf"|(?<!{_LETTER})(?<!{_DASH}){_DASH}++|(?<!{_DASH}){_DASH}++(?!{_LETTER}))"
)


def first_signs(text: str) -> str:
    pieces = " ".join([word for word in text.split() if not word.isalpha()])
    found = " ".join(_FIRST_SIGNS.findall(pieces)).translate(identity._SAME_SIGN)
    return re.sub("-+", "-", found)


_SIGNS_AND_NEIGHBOURS = list("ab Z09.,-‐‑‒–—−+±×=≠<>≤/%⁄_ \t\n\x1c\xa0\u2009éΣ中²½Ⅳ٣$\\{}")


@settings(max_examples=3000, deadline=None)
@given(st.one_of(st.text(st.sampled_from(_SIGNS_AND_NEIGHBOURS), max_size=40), st.text()))
def test_the_signs_of_a_text_are_those_its_words_had(text: str) -> None:
    """The signs are searched over the whole text in one pass (``_SIGNS``): the same signs as
    the search of each word that is not all letters, which ids were first made with."""
    assert identity._signs(text) == first_signs(text)


_ASCII_AND_MARKUP = list("ab Z09 .-_$\\{}~^*`'&<>[]()w:/\t\n\r\x0b\x0c\x1c\x00\x7f") + [
    "''",
    "--",
    "www.",
    "](",
    "\n\n",
]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_ASCII_AND_MARKUP), max_size=30).map("".join))
def test_a_text_given_as_it_is_reads_as_the_converter_shows_it(text: str) -> None:
    """``_readable`` gives plain ASCII text as it is: the converter changes only its spaces,
    so its key and its signs are those of the converted text."""
    readable = identity._readable(text)
    if readable is text:
        assert readable.split() == to_unicode(text).split()
    assert key(readable) == key(to_unicode(text))
    assert identity._signs(readable) == identity._signs(to_unicode(text))


REVISED = (
    "We revise the flows of curvature on graphs for the camera-ready version, with sharper "
    "bounds on mixing times and experiments on twelve new benchmark graphs."
)
FORUM = "https://openreview.net/forum?id=Upd001XyZq"


@pytest.mark.parametrize(
    ("title", "abstract"),
    [
        ("Sharper graph curvature flows", REVISED),  # both revised
        ("Sharper graph curvature flows", ABSTRACT),  # the title alone
        ("Graph curvature flows", REVISED),  # the abstract alone
    ],
)
def test_a_paper_revised_at_its_own_page_is_updated_not_added(
    home: Path, tmp_path: Path, title: str, abstract: str
) -> None:
    """A venue fetched again after the camera-ready: the same OpenReview forum with a revised
    title or abstract, and now a decision. Before: a second paper (or one "kept apart"), the
    first left under review for good with the user's star on it."""
    lib = Library(home)
    first = {"title": "Graph curvature flows", "abstract": ABSTRACT, "url": FORUM}
    lib.import_file(write_jsonl(tmp_path / "submitted.jsonl", [first]))
    [before] = lib.papers()
    lib.set_status(before.id, "starred")
    revised = {"title": title, "abstract": abstract, "url": FORUM, "venue_status": "Oral"}
    report = lib.import_file(write_jsonl(tmp_path / "accepted.jsonl", [revised]))
    [after] = lib.papers()
    assert (report.added, report.apart) == (0, [])
    assert after.id == before.id and lib.status(after.id) is Status.STARRED
    assert (after.title, after.abstract, after.venue_status) == (title, abstract, "Oral")


def test_papers_at_pages_of_their_own_stay_apart(home: Path, tmp_path: Path) -> None:
    """Another forum (or arXiv paper) is another paper, whatever else the two share; a
    revised record at an arXiv page of another version is the same paper."""
    lib = Library(home)
    rows = [
        {"title": "Graph curvature flows", "abstract": ABSTRACT, "url": FORUM},
        {"title": "Arxiv flows", "abstract": "First. " * 9, "url": "https://arxiv.org/abs/2501.01234v1"},
    ]  # fmt: skip
    lib.import_file(write_jsonl(tmp_path / "a.jsonl", rows))
    others = [
        {"title": "Other flows", "abstract": REVISED, "url": FORUM.replace("Upd001", "Oth002")},
        {"title": "Arxiv flows", "abstract": "Second. " * 9, "url": "https://arxiv.org/abs/2501.01234v3"},
    ]  # fmt: skip
    report = lib.import_file(write_jsonl(tmp_path / "b.jsonl", others))
    assert report.added == 1 and len(lib.papers()) == 3
    assert {p.abstract for p in lib.papers()} == {ABSTRACT, REVISED, ("Second. " * 9).strip()}


@pytest.mark.parametrize("fmt", ["markdown", "bibtex", "ris", "csl-json", "json", "csv"])
@pytest.mark.parametrize("abstracts", [False, True])
def test_our_export_of_papers_with_derived_titles_comes_back_as_them(
    home: Path, tmp_path: Path, fmt: str, abstracts: bool
) -> None:
    """A plain-text list's papers have titles derived from their abstracts. Our Markdown
    export without abstracts named them by those titles, which no import matched: each came
    back as a second paper. With the abstracts, every format but JSON gave the titles back as
    real ones (each paper changed): they now say the title was derived (BibTeX
    ``titlederived``, RIS ``U2``, CSL ``custom``, a Markdown comment)."""
    from storage.export import export

    source = tmp_path / "list.txt"
    source.write_text(
        "My reading list\n\n"
        "We propose a transformer-based model for federated edge screening that reduces "
        "communication cost by forty percent while keeping accuracy on three benchmarks.\n\n"
        "This paper studies robust reinforcement learning under adversarial perturbations "
        "of the observation space and proves sample complexity bounds.\n",
        encoding="utf-8",
    )
    lib = Library(home)
    lib.import_file(source)
    before = lib.papers()
    assert all(p.title_derived for p in before)
    exported = tmp_path / f"export.{fmt}"
    exported.write_text(export(before, lib.triage(), fmt, abstracts=abstracts), encoding="utf-8")
    report = lib.import_file(exported)
    assert (report.added, report.updated) == (0, 0)
    assert lib.papers() == before
