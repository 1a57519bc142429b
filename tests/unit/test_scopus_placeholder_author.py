"""Scopus's ``[No author name available]`` (``tests/fixtures/real_exports/scopus_2017.csv``,
whose source the fixtures' README names) in a library an older version made, where it was
stored as the paper's one author: importing the same file again corrects the stored paper,
and its decision, note and tags stay."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library, Status
from storage.files.triage_model import doc_id
from storage.importing.identity import id_of_title

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "real_exports"
PLACEHOLDER = "[No author name available]"
TITLE = "Proceedings of the 2016 Workshop on Routing"


def _as_an_older_version_stored_it(home: Path) -> str:
    """The library as a version that read the placeholder as a name left it: the paper's one
    author, its id keyed by it as that version keyed a title-only paper."""
    path = home / "papers.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    old_id = id_of_title(TITLE, [PLACEHOLDER])
    papers = data["papers"]
    [key] = [k for k, doc in papers.items() if doc["title"] == TITLE]
    doc = papers.pop(key)
    doc["authors"], doc["id"] = [PLACEHOLDER], old_id
    papers[str(doc_id(old_id))] = doc
    path.write_text(json.dumps(data), encoding="utf-8")
    return old_id


def test_a_reimport_drops_the_stored_placeholder_and_keeps_decisions(tmp_path: Path) -> None:
    home = tmp_path / "home"
    source = FOLDER / "scopus_2017.csv"
    Library(home).import_file(source)
    old_id = _as_an_older_version_stored_it(home)
    library = Library(home)
    assert [p.authors for p in library.papers() if p.title == TITLE] == [(PLACEHOLDER,)]
    library.set_status(old_id, Status.STARRED)
    library.set_note(old_id, "read the keynote")
    library.set_tags(old_id, ["routing"])

    Library(home).import_file(source)

    library = Library(home)
    [workshop] = [p for p in library.papers() if p.title == TITLE]
    assert workshop.authors == ()
    assert len(library.papers()) == 2
    assert library.status(workshop.id) is Status.STARRED
    triage = library.triage()
    assert triage.notes[workshop.id] == "read the keynote"
    assert triage.tags[workshop.id] == ("routing",)
