"""A plain JSON list's titles in HTML (as APIs and scrapers write them: ``Growth of <i>E.
coli</i> at CO<sub>2</sub>``) read as their text, as OpenAlex's and CSL-JSON's do
(``storage.text.rich_text.plain_title``); a title whose ``<`` opens no element (``a < b and
c > d``, ``Vector<int> in C++``), an escaped tag, and our own export's display text stay as
written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import Library
from storage.sources.registry import read_source

ABSTRACT = (
    "We measure how fast bacteria grow under raised carbon dioxide and relate the rate "
    "to the temperature of the culture across forty samples."
)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("Growth of <i>E. coli</i> at CO<sub>2</sub> levels", "Growth of E. coli at CO₂ levels"),
        ("<b>Deep</b> nets on x<sup>2</sup> data", "Deep nets on x² data"),
        ('A <span class="nocase">BERT</span> probe', "A BERT probe"),
        ("a < b and c > d in sorted lists", "a < b and c > d in sorted lists"),
        ("Vector<int> in C++ templates", "Vector<int> in C++ templates"),
        ("Escaped &lt;i&gt;tags&lt;/i&gt; stay", "Escaped <i>tags</i> stay"),
    ],
)
@pytest.mark.parametrize("name", ["list.json", "list.jsonl"])
def test_a_plain_lists_html_title_reads_as_its_text(
    tmp_path: Path, written: str, read: str, name: str
) -> None:
    """Found on main: the tags shown raw (``Growth of <i>E. coli</i> at CO<sub>2</sub>``)."""
    items = [{"title": written, "abstract": ABSTRACT}, {"paper_title": written}]
    path = tmp_path / name
    text = json.dumps(items) if name.endswith(".json") else "\n".join(map(json.dumps, items))
    path.write_text(text, encoding="utf-8")
    assert [r.title for r in read_source(path).records] == [read, read]


def test_our_json_exports_title_is_kept_as_written(tmp_path: Path) -> None:
    """Our export writes display text: a title a library holds with its tags comes back so
    (its id, from that title, unchanged), as CSL-JSON's and RIS's readers keep ours."""
    title = "Growth of <i>E. coli</i> at CO<sub>2</sub> levels"
    exported = tmp_path / "export.json"
    exported.write_text(json.dumps([{
        "id": "0123456789ab", "title": title, "status": "inbox", "abstract": "", "list": "x",
        "lists": ["x"], "title_derived": False, "authors": ["Ann Lee"],
    }]))  # fmt: skip
    assert [r.title for r in read_source(exported).records] == [title]


def test_a_json_list_imported_again_keeps_its_papers_and_ids(tmp_path: Path) -> None:
    """Once read, once more: no second copy, one id for each paper (title-keyed or not)."""
    path = tmp_path / "list.json"
    path.write_text(json.dumps([
        {"title": "Growth of <i>E. coli</i> at CO<sub>2</sub> levels", "authors": ["Ann Lee"]},
        {"title": "<i>In vivo</i> imaging", "abstract": ABSTRACT},
    ]))  # fmt: skip
    library = Library(tmp_path / "home")
    library.import_file(path)
    ids = [p.id for p in library.papers()]
    again = Library(tmp_path / "home").import_file(path)
    assert [p.id for p in Library(tmp_path / "home").papers()] == ids and not again.added
    titles = [p.title for p in library.papers()]
    assert titles == ["Growth of E. coli at CO₂ levels", "In vivo imaging"]
