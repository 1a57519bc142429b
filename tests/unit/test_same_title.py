"""Two works of one title (records without abstracts) stay two papers; one work from two
sources stays one (storage.importing.author_keys, identity, resolve)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from storage import Library, Status
from storage.importing import gather, identity, replay, resolve
from storage.importing.author_keys import authors_compatible, family_key, same_person
from storage.sources.papers import paper_id
from storage.sync import sync_library
from storage.text.normalize import key

#: Google Scholar's BibTeX of two works called "Deep learning".
LECUN = """@article{lecun2015deep,
  title={Deep learning},
  author={LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  journal={Nature},
  volume={521},
  number={7553},
  pages={436--444},
  year={2015},
  publisher={Nature Publishing Group UK London}
}
"""
GOODFELLOW = """@book{goodfellow2016deep,
  title={Deep learning},
  author={Goodfellow, Ian and Bengio, Yoshua and Courville, Aaron},
  volume={1},
  year={2016},
  publisher={MIT press Cambridge}
}
"""
ABSTRACT = (
    "We propose a sampler that improves accuracy by 9.5% over the baseline, using the "
    "combination alpha + beta of two well known schedules, on three benchmarks."
)


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _jsonl(tmp_path: Path, name: str, rows: list[dict[str, object]]) -> Path:
    return _file(tmp_path, name, "".join(json.dumps(row) + "\n" for row in rows))


def _works(library: Library) -> dict[str, tuple[tuple[str, ...], object, object]]:
    """First author → (authors, journal, entry type) of each paper."""
    return {
        p.authors[0]: (p.authors, p.fact("journal"), p.fact("publisher")) for p in library.papers()
    }


def test_two_works_of_one_title_in_one_file_are_two_papers(tmp_path: Path) -> None:
    library = Library(tmp_path / "home")
    report = library.import_file(_file(tmp_path, "b15.bib", LECUN + "\n" + GOODFELLOW))
    works = _works(library)
    assert works == {
        "Yann LeCun": (
            ("Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"),
            "Nature",
            "Nature Publishing Group UK London",
        ),
        "Ian Goodfellow": (
            ("Ian Goodfellow", "Yoshua Bengio", "Aaron Courville"),
            None,
            "MIT press Cambridge",
        ),
    }
    assert (report.added, report.merged, report.read) == (1, [], 2)
    [apart] = report.apart
    assert "not its first author" in apart.reason and apart.record == 2
    assert report.accounted == report.read
    again = library.import_file(tmp_path / "b15.bib")
    assert (again.added, again.apart, len(library)) == (0, [], 2)


def test_two_works_of_one_title_from_two_imports_in_either_order(tmp_path: Path) -> None:
    lecun = _file(tmp_path, "lecun.bib", LECUN)
    goodfellow = _file(tmp_path, "goodfellow.bib", GOODFELLOW)
    ids = []
    for n, files in enumerate(((lecun, goodfellow), (goodfellow, lecun))):
        library = Library(tmp_path / f"home{n}")
        for path in files:
            library.import_file(path)
        assert _works(library)["Yann LeCun"][1] == "Nature"
        assert _works(library)["Ian Goodfellow"][0][0] == "Ian Goodfellow"
        ids.append({p.authors[0]: p.id for p in library.papers()})
    assert ids[0] == ids[1] and len(set(ids[0].values())) == 2  # the records' ids, not the order's


def test_a_paper_with_an_abstract_does_not_join_another_authors_title(tmp_path: Path) -> None:
    library = Library(tmp_path / "home")
    library.import_file(_file(tmp_path, "lecun.bib", LECUN))
    row = {"title": "Deep Learning", "authors": ["Ian J. Goodfellow"], "abstract": ABSTRACT}
    report = library.import_file(_jsonl(tmp_path, "book.jsonl", [row]))
    assert len(library) == 2 and len(report.apart) == 1 and not report.merged
    assert _works(library)["Yann LeCun"][0][0] == "Yann LeCun"
    assert {p.abstract for p in library.papers()} == {"", ABSTRACT}


def test_one_work_from_two_sources_is_one_paper(tmp_path: Path) -> None:
    """The arXiv version (2021, ``Yann LeCun``) and the conference's (2022, ``LeCun, Y.``)."""
    arxiv = """@misc{lecun2021,
  title={A Path Towards Things},
  author={Yann LeCun and Ann Lee},
  year={2021},
  eprint={2101.00001},
  archivePrefix={arXiv},
}
"""
    proceedings = """@inproceedings{lecun2022,
  title={A path towards things},
  author={LeCun, Y. and Lee, A.},
  booktitle={Proceedings of Things},
  year={2022},
}
"""
    library = Library(tmp_path / "home")
    first = library.import_file(_file(tmp_path, "arxiv.bib", arxiv))
    second = library.import_file(_file(tmp_path, "proc.bib", proceedings))
    [paper] = library.papers()
    assert first.added == 1 and len(second.merged) == 1 and not second.apart
    assert paper.lists == ("arxiv", "proc")
    together = Library(tmp_path / "together")
    report = together.import_file(_file(tmp_path, "both.bib", arxiv + proceedings))
    assert (report.added, len(report.merged), len(together)) == (1, 1, 1)
    [merged] = together.papers()
    assert merged.id == paper.id


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Yann LeCun", "Y. LeCun"),
        ("Yann LeCun", "LeCun, Yann"),
        ("LeCun Y", "Yann LeCun"),  # PubMed's and Scopus's initials after the family name
        ("LeCun, Y.", "Yann André LeCun"),
        ("Jan van der Berg", "Van der Berg, Jan"),
        ("Ludwig van Beethoven", "Beethoven, L."),
        ("Hans Müller", "Mueller, Hans"),
        ("Søren Kierkegaard", "Soren Kierkegaard"),
        ("John Smith Jr.", "Smith, Jr., John"),
        ("Zhang San", "San Zhang"),  # a family name written first
        ("Wei LI", "Wei Li"),
        ("张三", "张 三"),
        ("张三", "San Zhang"),  # two scripts: nothing said
        ("Иван Петров", "Петров, Иван"),
        ("Y.", "Ian Goodfellow"),  # initials alone: nothing said
        ("", "Ian Goodfellow"),
        ("et al.", "Ian Goodfellow"),
    ],
)
def test_one_person_written_two_ways(first: str, second: str) -> None:
    assert same_person(first, second) and same_person(second, first)
    assert authors_compatible([first], [second, "Someone Else"])


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Yann LeCun", "Ian Goodfellow"),
        ("LeCun, Yann", "Goodfellow, Ian"),
        ("Y. LeCun", "I. Goodfellow"),
        ("John Smith", "John Doe"),
        ("张三", "李四"),
        ("Google DeepMind", "Ian Goodfellow"),
    ],
)
def test_two_people(first: str, second: str) -> None:
    assert not same_person(first, second) and not same_person(second, first)
    assert not authors_compatible([first, "Yoshua Bengio"], [second, "Yoshua Bengio"])


def test_an_id_takes_the_first_authors_family_name_however_written() -> None:
    assert family_key(["LeCun, Yann"]) == family_key(["Y. LeCun"]) == family_key(["LeCun Y"])
    assert family_key(["et al.", "Jan van der Berg"]) == "berg"
    assert family_key([]) == family_key(["J. A."]) == ""
    title = "Deep learning"
    assert identity.id_of_title(title, ["LeCun, Yann"]) == identity.id_of_title(title, ["Y. LeCun"])
    assert identity.id_of_title(title, ["Yann LeCun"]) != identity.id_of_title(
        title, ["Ian Goodfellow"]
    )
    # without a first author: the title alone, as every title-only paper had before
    plain = hashlib.sha1(("title\x1f" + key(title)).encode()).hexdigest()[:12]
    assert identity.id_of_title(title) == identity.id_of_title(title, ["J."]) == plain


def test_a_library_of_before_keeps_its_ids_and_gets_no_duplicates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A title-only paper imported before ids took the first author keeps its id and its
    decision when its list comes again; another work of its title, merged into it then, is
    another paper now (the report of that import, kept to be given again, is not)."""
    lecun = _file(tmp_path, "lecun.bib", LECUN)
    both = _file(tmp_path, "b15.bib", LECUN + GOODFELLOW)
    home = tmp_path / "home"
    with monkeypatch.context() as patch:  # the rules of before: the title alone
        patch.setattr(gather, "id_of_title", lambda title, authors=(): identity.id_of_title(title))
        patch.setattr(resolve, "authors_compatible", lambda first, second: True)
        patch.setattr(replay, "FORMAT", 1)
        Library(home).import_file(lecun)
        for _ in range(2):  # Goodfellow's merged into LeCun's, as it was; then nothing changed
            Library(home).import_file(both)
        assert Library(home).import_file(both).replayed  # a report kept, changing nothing
    library = Library(home)
    [before] = library.papers()
    assert before.id == identity.id_of_title("Deep learning")
    library.set_status(before.id, Status.STARRED)
    # the report kept before is not given again: its file is matched anew
    again = library.import_file(both)
    assert not again.replayed and len(again.apart) == 1 and len(library) == 2
    assert library.status(before.id) is Status.STARRED
    assert library.import_file(lecun).added == 0
    library.import_file(_file(tmp_path, "goodfellow.bib", GOODFELLOW))
    assert len(library) == 2 and before.id in {p.id for p in library.papers()}
    assert _works(library)["Yann LeCun"][1] == "Nature"
    # the paper, once it has taken an abstract, is still found by its record with one
    row = {"title": "Deep learning", "authors": ["Yann LeCun"], "abstract": ABSTRACT}
    library.import_file(_jsonl(tmp_path, "a.jsonl", [row]))
    library.import_file(_jsonl(tmp_path, "b.jsonl", [row]))
    assert len(library) == 2 and library.status(before.id) is Status.STARRED


def test_two_works_of_one_title_synced_from_two_machines_stay_two(tmp_path: Path) -> None:
    folder = tmp_path / "synced"
    folder.mkdir()
    laptop, desktop = Library(tmp_path / "laptop"), Library(tmp_path / "desktop")
    laptop.import_file(_file(tmp_path, "lecun.bib", LECUN))
    desktop.import_file(_file(tmp_path, "goodfellow.bib", GOODFELLOW))
    [lecun_paper] = laptop.papers()
    laptop.set_status(lecun_paper.id, Status.STARRED)
    for library in (laptop, desktop, laptop):
        sync_library(library, folder)
    for library in (laptop, desktop):
        assert _works(library)["Yann LeCun"][1] == "Nature"
        assert _works(library)["Ian Goodfellow"][2] == "MIT press Cambridge"
        assert library.statuses() == {lecun_paper.id: Status.STARRED}


def test_a_catalog_gives_a_record_only_its_own_works_fields(tmp_path: Path) -> None:
    """A catalog of titles and code links: its "Deep learning" is LeCun's, not Goodfellow's."""
    entry = {
        "title": "Deep learning",
        "authors": ["Yann LeCun"],
        "github": "https://github.com/l/d",
    }
    catalog = _jsonl(tmp_path, "catalog.jsonl", [entry])
    for n, author in enumerate(("I. Goodfellow", "LeCun, Y.")):
        listed = _jsonl(
            tmp_path, f"list{n}.jsonl", [{"title": "Deep learning", "authors": [author]}]
        )
        library = Library(tmp_path / f"home{n}")
        library.import_file(listed, catalog=catalog)
        [paper] = library.papers()
        assert paper.github == (() if n == 0 else ("https://github.com/l/d",))


def test_a_title_only_paper_takes_one_abstract_not_every_one_of_its_title(tmp_path: Path) -> None:
    """Two papers with abstracts and the title of a paper known without one: the first takes
    it, the second is a paper of its own, not written over the first."""
    library = Library(tmp_path / "home")
    library.import_file(_jsonl(tmp_path, "t.jsonl", [{"title": "Graph flows"}]))
    [known] = library.papers()
    other = "A second abstract about other graph flows, long enough to be one, and different."
    rows = [
        {"title": "Graph flows", "abstract": ABSTRACT},
        {"title": "Graph flows", "abstract": other},
    ]
    library.import_file(_jsonl(tmp_path, "a.jsonl", rows))
    abstracts = {p.id: p.abstract for p in library.papers()}
    assert abstracts[known.id] == ABSTRACT and sorted(abstracts.values()) == sorted(
        [ABSTRACT, other]
    )


def test_a_schema_1_library_keeps_two_works_of_one_title_apart(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    docs = {
        str(n): {
            "id": f"{n:012x}", "title": "Deep learning", "abstract": "", "authors": [author],
            "github": [], "url": "", "keywords": [], "venue_status": "", "list": "Old",
            "position": n, "title_derived": False, "name": "", "lists": ["Old"],
        }
        for n, author in ((1, "Yann LeCun"), (2, "Ian Goodfellow"))
    }  # fmt: skip
    (home / "papers.json").write_text(json.dumps({
        "papers": docs,
        "lists": {"1": {"name": "Old", "sources": {"old.bib": 0}, "size": 2, "at": 1}},
        "meta": {"1": {"schema": 1, "kind": "papers"}},
    }))  # fmt: skip
    papers = Library(home).papers()
    assert sorted(p.authors[0] for p in papers) == ["Ian Goodfellow", "Yann LeCun"]
    assert {p.id for p in papers} == {
        paper_id("", "Deep learning", ["Yann LeCun"]),
        paper_id("", "Deep learning", ["Ian Goodfellow"]),
    }


@pytest.mark.parametrize(
    ("one", "other"),
    [("Y. LeCun", "Le Cun, Y."), ("José García-López", "García López, José")],
)
def test_a_family_name_of_two_words_written_as_one_is_one_person(
    tmp_path: Path, one: str, other: str
) -> None:
    """``Le Cun, Y.`` and ``Y. LeCun`` were two people: the same paper from a BibTeX file and
    a RIS file became two papers, and had two ids on two devices (found by a review)."""
    assert same_person(one, other) and family_key([one]) == family_key([other])
    library = Library(tmp_path / "home")
    for n, author in enumerate((one, other)):
        entry = {"title": "Gradient-based learning applied to documents", "authors": [author]}
        library.import_file(_file(tmp_path, f"list{n}.json", json.dumps([entry])))
    assert len(library.papers()) == 1
