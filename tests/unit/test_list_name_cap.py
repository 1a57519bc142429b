"""A list's name is kept within its cap (``caps.MAX_LIST_NAME_CHARS``) by the import.

The readers cut the names a file gives (a header, a JSON list's name: 200 characters); a
``--list`` of any length was kept whole; every other device's sync then
refused the papers in that list ("a list name of 600 characters"), so they never reached it.
"""

from __future__ import annotations

from pathlib import Path

from storage import Library
from storage.caps import MAX_LIST_NAME_CHARS, lists_problem

ABSTRACTS = (
    "We introduce LONGNAME, a method for testing how a library keeps a list's name within "
    "its cap, so that every device that syncs it takes its papers.",
    "We study SECOND, a second abstract of the same list, long enough to be an abstract and "
    "to be its own paper when imported.",
)


def _plain_list(path: Path, header: str) -> Path:
    path.write_text(header + "\n\n" + "\n\n".join(ABSTRACTS) + "\n", encoding="utf-8")
    return path


def test_a_list_named_past_the_cap_is_cut_said_once_and_taken_by_a_sync(tmp_path: Path) -> None:
    library = Library(tmp_path / "home")
    name = "Reading " + "x" * 600
    report = library.import_file(_plain_list(tmp_path / "a.txt", "Header"), list_name=name)
    assert report.added == 2
    kept = name[: MAX_LIST_NAME_CHARS - 1] + "…"
    assert report.lists == [kept]
    said = [w for w in report.warnings if "list's name of 608 characters" in w]
    assert len(said) == 1 and len(said[0]) < 200, report.warnings
    papers = library.papers()
    assert {p.list for p in papers} == {kept}
    assert all(lists_problem(p.lists or [p.list]) == "" for p in papers)
    # the same name again is the same list: nothing new, nothing said of a second list
    again = library.import_file(_plain_list(tmp_path / "b.txt", "Header"), list_name=name)
    assert again.lists == [kept] and again.added == 0
    assert {p.list for p in library.papers()} == {kept}


def test_a_list_kept_whole_before_the_cap_is_removed_by_its_name(tmp_path: Path) -> None:
    """A library whose import kept a list's name of 600 characters whole (before the cap):
    its name, as the list chooser of the app and ``papers remove --list`` give it, was cut
    first, and "no list is named" it: the list could not be removed at all."""
    home = tmp_path / "home"
    library = Library(home)
    library.import_file(_plain_list(tmp_path / "a.txt", "Header"), list_name="OLDLIST")
    name = "Reading " + "x" * 600
    papers = home / "papers.json"
    papers.write_text(papers.read_text(encoding="utf-8").replace("OLDLIST", name), "utf-8")
    library = Library(home)
    assert name in {info.name for info in library.lists()}
    removal = library.remove_list(name)
    assert list(removal.lists) == [name] and len(removal.ids) == 2
    assert library.lists() == [] and len(library) == 0
