"""The app's triage session: decisions show at once, reach the disk in order, none dropped."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from storage import Library, Status
from tui.session import HOLD_LIMIT_S, Outcome, TriageSession


class Collected:
    """Outcomes as the writer thread reports them."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []
        self.lock = threading.Lock()

    def __call__(self, outcome: Outcome) -> None:
        with self.lock:
            self.outcomes.append(outcome)


def absorb_all(session: TriageSession, collected: Collected) -> None:
    with collected.lock:
        outcomes, collected.outcomes = collected.outcomes, []
    for outcome in outcomes:
        session.absorb(outcome)


def test_decisions_show_at_once_and_persist_in_order(library: Library) -> None:
    collected = Collected()
    session = TriageSession(library, collected)
    ids = [p.id for p in library.papers()]
    for i, pid in enumerate(ids):
        session.queue_status([pid], [Status.READ, Status.SKIPPED, Status.STARRED][i % 3])
    session.queue_status([ids[0]], Status.STARRED)  # a later decision on the same paper wins
    assert session.status(ids[0]) is Status.STARRED  # shown before it is saved
    assert session.close(timeout=30)
    on_disk = Library(library.home).statuses()
    assert on_disk == session.state.statuses
    assert on_disk[ids[0]] is Status.STARRED
    assert [o.op.seq for o in collected.outcomes] == sorted(o.op.seq for o in collected.outcomes)
    assert all(o.error is None for o in collected.outcomes)


def test_undo_comes_back_from_the_disk(library: Library) -> None:
    collected = Collected()
    session = TriageSession(library, collected)
    a, b = (p.id for p in library.papers()[:2])
    session.queue_status([a, b], Status.SKIPPED)  # one step
    session.queue_undo()
    assert session.flush(timeout=10)
    absorb_all(session, collected)
    assert session.state.statuses == {}
    session.queue_redo()
    assert session.flush(timeout=10)
    absorb_all(session, collected)
    assert session.state.statuses == {a: Status.SKIPPED, b: Status.SKIPPED}
    session.close()


def test_reload_keeps_decisions_still_on_their_way(library: Library) -> None:
    collected = Collected()
    session = TriageSession(library, collected)
    a, b, c = (p.id for p in library.papers()[:3])
    Library(library.home).set_status(c, "read")  # another process
    session.queue_reload()
    session.queue_status([a], Status.STARRED)  # made after the reload was asked for
    assert session.flush(timeout=10)
    with collected.lock:
        reload_outcome = next(o for o in collected.outcomes if o.op.kind == "reload")
    reload_outcome.triage.statuses.pop(a, None)  # as if read before the star was saved
    collected.outcomes.remove(reload_outcome)
    session.absorb(reload_outcome)
    assert session.state.statuses == {c: Status.READ, a: Status.STARRED}
    session.queue_status([b], Status.READ)
    session.close()
    assert Library(library.home).statuses() == {a: Status.STARRED, b: Status.READ, c: Status.READ}


def test_a_failed_write_is_reported_and_the_disk_shown(library: Library) -> None:
    collected = Collected()
    session = TriageSession(library, collected)
    a = library.papers()[0].id
    library.triage_path.write_bytes(b"{broken")  # damaged by someone else: never written over
    session.queue_status([a], Status.STARRED)
    assert session.flush(timeout=10)
    [outcome] = collected.outcomes
    assert outcome.error is not None and "damaged" in str(outcome.error)
    assert library.triage_path.read_bytes() == b"{broken"
    session.close()


def test_another_process_decision_shows_even_when_the_app_writes_first(library: Library) -> None:
    collected = Collected()
    session = TriageSession(library, collected)
    a, b = (p.id for p in library.papers()[:2])
    Library(library.home).set_status(a, "read")  # a `papers mark` in another terminal
    session.queue_status([b], Status.STARRED)  # the app decides before noticing
    assert session.flush(timeout=10)
    absorb_all(session, collected)
    assert session.state.statuses == {a: Status.READ, b: Status.STARRED}
    assert not library.triage_changed_on_disk()
    session.close()


def test_a_decision_made_while_an_undo_is_queued_is_not_dropped(library: Library) -> None:
    collected = Collected()
    session = TriageSession(library, collected)
    a = library.papers()[0].id
    session.queue_status([a], Status.STARRED)
    assert session.flush(timeout=10)
    absorb_all(session, collected)
    with library.lock:  # hold the writer back, as a busy disk would
        session.queue_undo()
        session.queue_status([a], Status.STARRED)  # still shown starred: star it again
    session.close()
    assert Library(library.home).statuses() == {a: Status.STARRED}


def run_all(session: TriageSession, collected: Collected) -> list[Outcome]:
    """Wait for the writer, absorb what it reported; returns those outcomes."""
    assert session.flush(timeout=10)
    with collected.lock:
        outcomes = list(collected.outcomes)
    absorb_all(session, collected)
    return outcomes


def test_removal_is_a_step_of_the_same_undo_log(library: Library) -> None:
    collected = Collected()
    session = TriageSession(library, collected)
    a, b, c = (p.id for p in library.papers()[:3])
    session.queue_status([a], Status.STARRED)  # 1
    session.queue_note(a, "why it matters")
    session.queue_removal([a, b])  # 2: in order after the decision, which it keeps
    session.queue_status([c], Status.READ)  # 3
    [*_, removed, _decided] = run_all(session, collected)
    assert removed.removed is not None and removed.removed.ids == (a, b)
    assert removed.papers_changed and len(Library(library.home)) == 36
    assert session.state.statuses == {c: Status.READ} and session.state.notes == {}

    session.queue_undo()  # 3
    session.queue_undo()  # 2: the papers come back with their decision and note
    [undid_read, restored] = run_all(session, collected)
    assert undid_read.changes == [(c, Status.READ, Status.INBOX)] and not undid_read.restored
    assert restored.restored is not None and set(restored.restored.ids) == {a, b}
    assert len(Library(library.home)) == 38
    assert session.state.statuses == {a: Status.STARRED}
    assert session.state.notes == {a: "why it matters"}

    session.queue_redo()  # 2: out again
    [redone] = run_all(session, collected)
    assert redone.removed is not None and redone.removed.ids == (a, b) and redone.papers_changed
    assert session.state.statuses == {} and len(Library(library.home)) == 36
    session.queue_redo()  # 3
    [again] = run_all(session, collected)
    assert again.changes == [(c, Status.INBOX, Status.READ)]
    session.close()


def test_a_list_removal_and_the_papers_it_changes(library: Library) -> None:
    collected = Collected()
    session = TriageSession(library, collected)
    first = library.lists()[0]
    session.queue_removal(list_name=first.name)
    assert session.changing_papers  # until its outcome is absorbed: the app's own change
    [outcome] = run_all(session, collected)
    assert not session.changing_papers
    assert outcome.removed is not None and outcome.removed.lists == (first.name,)
    assert len(outcome.removed.ids) == first.size and len(Library(library.home)) == 38 - first.size
    session.close()


def test_a_failed_removal_is_reported(library: Library) -> None:
    collected = Collected()
    session = TriageSession(library, collected)
    session.queue_removal(list_name="No such list")
    [outcome] = run_all(session, collected)
    assert outcome.error is not None and "no list is named" in str(outcome.error)
    assert outcome.triage is not None and not outcome.papers_changed
    session.close()


def test_held_writes_wait_for_their_release_and_never_for_long(library: Library) -> None:
    session = TriageSession(library, Collected())
    first, second = (p.id for p in library.papers()[:2])
    session.hold_writes()
    session.queue_status([first], Status.READ)
    assert session.status(first) is Status.READ  # shown at once
    time.sleep(HOLD_LIMIT_S / 3)
    assert session.busy  # held: not yet written…
    assert Library(library.home).status(first) is Status.INBOX
    session.release_writes()
    assert session.flush(timeout=10)  # …released: written
    assert Library(library.home).status(first) is Status.READ
    session.hold_writes()  # a UI that never releases delays a write, never loses it
    session.queue_status([second], Status.STARRED)
    assert session.close(timeout=10)
    assert Library(library.home).status(second) is Status.STARRED


def test_the_version_moves_with_every_change_of_the_live_state(library: Library) -> None:
    session = TriageSession(library, Collected())
    pid = library.papers()[0].id
    seen = [session.version]
    session.queue_status([pid], Status.READ)
    seen.append(session.version)
    session.queue_status([pid], Status.READ)  # no change: the same version
    seen.append(session.version)
    session.queue_note(pid, "a note")
    seen.append(session.version)
    session.queue_tags(pid, ["x"])
    seen.append(session.version)
    assert session.close(timeout=10)
    assert seen[0] < seen[1] == seen[2] < seen[3] < seen[4]


def test_decisions_waiting_together_are_written_in_one_transaction(
    library: Library, monkeypatch: object
) -> None:
    """With another process holding the HOME lock, the decisions made meanwhile reach the disk
    together once it lets go (one write, not one per decision), each its own undo step; the
    session says meanwhile how long the oldest has waited."""
    collected = Collected()
    session = TriageSession(library, collected)
    ids = [p.id for p in library.papers()[:20]]
    writes = []
    store = library.triage_file._store
    original = store.transaction

    def counted():  # type: ignore[no-untyped-def]
        writes.append(1)
        return original()

    store.transaction = counted  # type: ignore[method-assign]
    other = Library(library.home)  # another process's lock: the writer waits for it
    with other.lock:
        for pid in ids:
            session.queue_status([pid], Status.STARRED)
        session.queue_note(ids[0], "first")
        session.queue_tags(ids[1], ["rl"])
        time.sleep(0.3)
        assert session.waited >= 0.25 and not session.late
    assert session.flush(timeout=10)
    assert len(writes) <= 3  # the first decision alone (it was waiting), then the rest
    assert len(collected.outcomes) == 22 and all(o.error is None for o in collected.outcomes)
    assert [o.op.seq for o in collected.outcomes] == list(range(1, 23))
    fresh = Library(library.home)
    assert set(fresh.statuses()) == set(ids)
    assert fresh.triage().notes == {ids[0]: "first"} and fresh.triage().tags == {ids[1]: ("rl",)}
    assert len(fresh.triage_file.steps()) == 20  # one undo step a decision, as before
    assert session.waited == 0.0
    session.close()


def test_a_batch_with_a_paper_removed_elsewhere_writes_the_rest(library: Library) -> None:
    collected = Collected()
    session = TriageSession(library, collected)
    a, b, c = (p.id for p in library.papers()[:3])
    other = Library(library.home)
    with other.lock:
        session.queue_status([a], Status.READ)
        session.queue_status([b], Status.READ)
        session.queue_status([c], Status.READ)
        other.remove([b])  # re-entrant: the lock is this thread's already
    assert session.flush(timeout=10)
    errors = [o for o in collected.outcomes if o.error is not None]
    assert [o.op.paper_ids for o in errors] == [(b,)]
    assert Library(library.home).statuses() == {a: Status.READ, c: Status.READ}
    session.close()


def test_absorbed_waits_for_the_outcome_the_writer_was_idle_before(library: Library) -> None:
    """The writer is idle (``busy`` False) before it hands its outcome to the UI: only
    ``absorbed`` says that the UI has taken it in."""
    collected = Collected()
    session = TriageSession(library, collected)
    first = library.papers()[0].id
    session.queue_status([first], Status.READ)
    assert session.flush(timeout=10)
    assert not session.busy and not session.absorbed  # on disk; its outcome not taken in
    deadline = time.monotonic() + 10
    while not collected.outcomes and time.monotonic() < deadline:
        time.sleep(0.01)
    absorb_all(session, collected)
    assert session.absorbed
    assert session.close(timeout=10)


async def test_settled_waits_for_an_outcome_handed_to_the_screen_late(
    seeded_home: Path,
) -> None:
    """``settled`` (tests/tui/helpers.py) waited for the writer to be idle and then a fixed
    0.05 s, and the tests after it asserted what the outcome brings (an undo's toast, a merged
    note's message); on a loaded machine the writer thread, idle, handed it over later than
    that. Here it hands it over 0.3 s late, as a descheduled thread would."""
    from tests.tui.helpers import make_app, messages, ready, settled

    app = make_app(seeded_home)
    hand_over = app.session._on_outcome

    def late(outcome: Outcome) -> None:
        time.sleep(0.3)
        hand_over(outcome)

    app.session._on_outcome = late
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        await pilot.press("s")
        await settled(pilot)
        assert app.session.state.statuses  # (shown at once)
        await pilot.press("u")
        await settled(pilot)
        assert any(m.startswith("Undid: ") for m in messages(app)), messages(app)
        assert app.session.state.statuses == {}
