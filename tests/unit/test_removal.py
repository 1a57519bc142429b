"""Removing papers and lists: one undo step, decisions kept in the history, undo and redo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import Library, Status
from storage.errors import LibraryError, UnknownPaperError
from storage.models import StepDone
from tests.unit.test_sync_support import SAMPLE


def test_remove_papers_is_one_step_and_undo_brings_them_back(library: Library) -> None:
    a, b, c = library.papers()[:3]
    library.set_status(a.id, "starred")
    library.set_note(a.id, "keep this")
    library.set_tags(b.id, ["later"])
    removal = library.remove([a.id, b.id[:8]])
    assert removal.ids == (a.id, b.id) and removal.titles == (a.title, b.title)
    assert len(library) == 36 and a.id not in {p.id for p in library.papers()}
    assert library.statuses() == {} and library.triage().notes == {}
    assert Library(library.home).papers()[0] == c  # the files say so too
    assert library.undo() == [
        (a.id, Status.INBOX, Status.STARRED),
        (b.id, Status.INBOX, Status.INBOX),
    ]
    assert [p.id for p in library.papers()][:3] == [a.id, b.id, c.id]  # in their places
    assert library.statuses() == {a.id: Status.STARRED}
    assert library.triage().notes == {a.id: "keep this"} and library.triage().tags == {
        b.id: ("later",)
    }
    done = library.redo_step()
    assert done.removed is not None and done.removed.ids == (a.id, b.id) and len(library) == 36
    assert library.undo_step().restored is not None and len(library) == 38
    assert library.undo() == [(a.id, Status.STARRED, Status.INBOX)]  # the decision before it


def test_remove_a_list_keeps_papers_in_other_lists(home: Path, tmp_path: Path) -> None:
    abstract = "A paper that two lists share, with enough words to be an abstract of a paper."
    (tmp_path / "one.txt").write_text(
        f"One\n\n{abstract}\n\nOnly in the first list, a paper of its own with words.\n"
    )
    (tmp_path / "two.txt").write_text(
        f"Two\n\n{abstract}\n\nOnly in the second list, another paper with words.\n"
    )
    lib = Library(home)
    lib.import_files([tmp_path / "one.txt", tmp_path / "two.txt"])
    shared, only_one, only_two = lib.papers()
    lib.set_status(only_one.id, "read")
    removal = lib.remove_list("One")
    assert (
        removal.ids == (only_one.id,) and removal.lists == ("One",) and removal.kept == (shared.id,)
    )
    assert [i.name for i in lib.lists()] == ["Two"]
    moved = {p.id: p for p in lib.papers()}[shared.id]
    assert moved.list == "Two" and moved.lists == ("Two",)
    assert lib.stats().by_list.keys() == {"Two"}
    lib.undo()
    assert [p.id for p in lib.papers()] == [shared.id, only_one.id, only_two.id]
    assert [i.name for i in lib.lists()] == ["One", "Two"] and lib.papers()[0].lists == (
        "One",
        "Two",
    )
    assert lib.status(only_one.id) is Status.READ


def test_undoing_a_list_removal_keeps_what_its_papers_gained_since(home: Path) -> None:
    """A list taken out, its papers then imported into another list (or given it by a sync),
    the removal undone: they are back in the list, and keep the list they gained since (the
    undo put each back as it was, and list D held none of its papers)."""
    first = sorted(SAMPLE.glob("*.txt"))[0]
    lib = Library(home)
    lib.import_files([first], list_name="C")
    lib.import_files([first], list_name="A")
    lib.remove_list("C")
    lib.import_files([first], list_name="D")
    lib.undo()
    papers = lib.papers()
    assert {p.lists for p in papers} == {("C", "A", "D")}
    assert {p.list for p in papers} == {"C"}
    assert sorted(p.position for p in papers) == list(range(len(papers)))  # as they were in C
    assert {i.name: i.size for i in lib.lists()} == dict.fromkeys("CAD", len(papers))


@pytest.mark.parametrize(
    ("part", "value", "said"),
    [
        ("lists", [1, 2], "its lists taken out are not a table"),
        ("changed", [1], "its papers changed are not a table"),
        ("papers", "x", "its papers taken out are not a table"),
        ("changed", "each", "which is no paper"),
        ("lists", "each", "which is no list"),
        ("lists", "key", "its lists taken out hold one under 'abc'"),
    ],
)
def test_undoing_a_removal_written_over_by_hand_is_one_line_and_changes_nothing(
    home: Path, part: str, value: object, said: str
) -> None:
    """A removal's payload in papers.json damaged by hand (a list where a table was, a
    string for a paper): the undo says so in one line and neither file is written; it was
    "internal error: AttributeError"."""
    first, second = sorted(SAMPLE.glob("*.txt"))
    lib = Library(home)
    lib.import_files([first], list_name="A")
    lib.import_files([first, second], list_name="Extra")
    lib.remove_list("Extra")
    path = home / "papers.json"
    tables = json.loads(path.read_text())
    [payload] = tables["removed"].values()
    if value == "each":
        payload[part] = dict.fromkeys(payload[part], "x")
    elif value == "key":
        payload[part] = {"abc": next(iter(payload[part].values()))}
    else:
        payload[part] = value
    path.write_text(json.dumps(tables))
    before = {name: (home / name).read_bytes() for name in ("papers.json", "triage.json")}
    again = Library(home)
    with pytest.raises(LibraryError, match="the removal to undo is damaged") as raised:
        again.undo()
    assert said in str(raised.value) and "\n" not in str(raised.value)
    assert {name: (home / name).read_bytes() for name in before} == before


def test_remove_unknown_ids_and_lists_are_one_line_errors(library: Library) -> None:
    with pytest.raises(UnknownPaperError, match="no paper has the id"):
        library.remove(["ffffffffffff"])
    with pytest.raises(UnknownPaperError, match="no list is named 'Nope'") as caught:
        library.remove_list("Nope")
    assert "\n" not in str(caught.value)


def test_a_new_decision_after_an_undone_removal_forgets_it(library: Library) -> None:
    first, second = library.papers()[:2]
    library.remove([first.id])
    library.undo()
    library.set_status(second.id, "read")  # drops the redo step
    library.remove([second.id])  # and its removed papers are no longer kept
    removed = json.loads(library.papers_path.read_text())["removed"]
    assert len(removed) == 1
    assert library.redo() == []


def test_removal_steps_do_not_count_as_decisions(library: Library) -> None:
    pid = library.papers()[0].id
    library.set_status(pid, "read")
    library.remove([pid])
    library.undo()
    assert sum(d.total for d in library.days()) == 1


def test_decisions_and_removals_undo_and_redo_as_one_sequence(library: Library) -> None:
    a, b, c, d = (p.id for p in library.papers()[:4])
    first_list = library.lists()[0].name
    library.set_status(a, "read")  # 1
    library.set_note(b, "a note")
    library.set_status(b, "starred")  # 2
    library.remove([b])  # 3
    library.set_statuses([c, d], "skipped")  # 4: a bulk decision
    library.remove_list(first_list)  # 5
    end = (len(library), library.triage())
    undone = [library.undo_step() for _ in range(5)]
    assert [bool(s.restored) for s in undone] == [True, False, True, False, False]
    assert undone[1].changes == [
        (d, Status.SKIPPED, Status.INBOX),
        (c, Status.SKIPPED, Status.INBOX),
    ]
    assert undone[2].changes == [(b, Status.INBOX, Status.STARRED)]
    assert undone[4].changes == [(a, Status.READ, Status.INBOX)]
    assert library.undo_step() == StepDone() and len(library) == 38
    assert library.statuses() == {} and library.triage().notes == {b: "a note"}
    redone = [library.redo_step() for _ in range(5)]
    assert [bool(s.removed) for s in redone] == [False, False, True, False, True]
    assert redone[2].removed is not None and redone[2].removed.ids == (b,)
    assert library.redo_step() == StepDone()
    assert (len(library), library.triage()) == end
