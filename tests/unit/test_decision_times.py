"""Papers decided together are a millisecond apart, so a decision of many runs ahead of the
clock: a paper decided again within that time must be decided after, not before, its star."""

from __future__ import annotations

import json
from pathlib import Path

from storage import Library


def _library(tmp_path: Path, papers: int) -> Library:
    source = tmp_path / "many.jsonl"
    lines = (
        {"title": f"Paper number {i}", "abstract": f"We study question {i} of many, at length."}
        for i in range(papers)
    )
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    library = Library(tmp_path / "home")
    library.import_file(source)
    return library


def test_a_paper_decided_again_just_after_a_decision_of_many_is_decided_after_it(
    tmp_path: Path,
) -> None:
    """2,000 papers starred at once: the last one's star is 2 s ahead of the clock. Read at
    once after, it was dated before its star, so sync (which keeps a paper's latest) gave the
    other devices the star back."""
    library = _library(tmp_path, 2_000)
    ids = [paper.id for paper in library.papers()]
    library.set_statuses(ids, "starred")
    starred = library.triage().decided_at[ids[-1]]
    library.set_status(ids[-1], "read")
    read = library.triage().decided_at[ids[-1]]
    assert read > starred
    assert library.status(ids[-1]).value == "read"
    # the others keep their spread, in order
    times = [library.triage().decided_at[pid] for pid in ids[:-1]]
    assert times == sorted(set(times))


def test_a_redo_gives_the_decision_its_own_time_again(tmp_path: Path) -> None:
    """The read just after 2,000 stars was dated after its star, ahead of the clock; undone
    and redone, it was dated again by the step's own time (the clock when it was recorded), so
    before the star it had replaced: sync gave the other devices the star back. A decision's
    step was also timed by a second reading of the clock, a millisecond after the decision's
    own at times, and a redo moved it by that (the CLI's undo test saw it)."""
    library = _library(tmp_path, 2_000)
    ids = [paper.id for paper in library.papers()]
    library.set_statuses(ids, "starred")
    library.set_status(ids[-1], "read")
    read = library.triage().decided_at[ids[-1]]
    library.undo()
    library.redo()
    assert library.triage().decided_at[ids[-1]] == read
    assert library.status(ids[-1]).value == "read"
    # a paper decided on its own: its redo at its decision's time, to the millisecond
    library.set_status(ids[0], "skipped")
    skipped = library.triage().decided_at[ids[0]]
    library.undo()
    library.redo()
    assert library.triage().decided_at[ids[0]] == skipped
