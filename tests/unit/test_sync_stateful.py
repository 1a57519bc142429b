"""Three devices, random changes, random deliveries by a sync tool: nothing lost, one library.

Each device has its own HOME and its own copy of the synced folder, and a clock of its own
(hours off, either way). Between random decisions, notes, tags, undos, redos, imports and
removals, a sync tool delivers files from one copy to another, often only a part of them (cut
anywhere, mid-record too), in any order; now and then it makes a conflicted copy, or a byte of a
device's own log is damaged (a file changed before its end is delivered whole). After a full
exchange at the end of every run:

1. every device shows the same library (papers, statuses, notes, tags);
2. each of its papers' statuses, notes and tags is the greatest record of the logs (the merge
   is last-writer-wins on the records, whatever order they arrived in);
3. every change a device made before a sync is in the folder after it: a record of that
   device with that value (no acknowledged change is dropped on the way out); one that lost to
   another device's written without seeing it is merged with it in a later record of that
   device, which holds the note's text, or every tag added here (``storage.sync.both``);
4. that record is stamped after every record the device had read before (a change made after
   seeing another supersedes it, whatever the clocks say).

2 and 3 make every acknowledged decision present at the end, or superseded by a record
stamped later; 4 makes "later" include every decision made after seeing it.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from storage.sync.folder import ROOT_NAME
from storage.sync.records import PAPER, STATUS
from tests.unit.test_sync_support import Machine, all_records, damage, shown

DEVICES = 3
PAPERS = 10
#: Three lists of the same pool of papers, overlapping.
LISTS = ((0, 1, 2, 3, 4, 5), (3, 4, 5, 6, 7), (7, 8, 9, 0))
STATUSES = ("inbox", "read", "skipped", "starred")
DEFAULTS: dict[str, Any] = {STATUS: "inbox", "n": "", "g": ()}

device = st.integers(0, DEVICES - 1)
paper = st.integers(0, PAPERS - 1)


def _pool(folder: Path) -> list[Path]:
    files = []
    for n, members in enumerate(LISTS):
        path = folder / f"list{n}.jsonl"
        rows = [
            {"title": f"Paper {i}", "abstract": f"We study problem {i} of the pool, at length."}
            for i in members
        ]
        path.write_bytes(b"\n".join(orjson.dumps(r) for r in rows))
        files.append(path)
    return files


class SyncedDevices(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="papers-sync-"))
        self.lists = _pool(self.root)
        self.time = NOW[0] = 1_700_000_000.0
        skews = (0.0, 3 * 3600.0, -2 * 3600.0)  # one device's clock 3 h fast, one 2 h slow
        self.machines = [
            Machine(self.root / f"home{n}", self.root / f"folder{n}", skews[n], self.now)
            for n in range(DEVICES)
        ]
        self.ids: list[str] = []
        #: Per device: its triage as shown after its last sync (what it sends changes against).
        self.after_sync: list[dict[tuple[str, str], Any]] = [{} for _ in range(DEVICES)]
        #: Per device: each triage register's greatest stamp in the records it had read at
        #: its last sync (a change made since to that register must beat it; another
        #: register's stamps, a clock ahead's included, say nothing of it).
        self.seen_stamp: list[dict[tuple[str, str], int]] = [{} for _ in range(DEVICES)]
        #: Per device: the papers decided since its last sync, and the status last given.
        self.decided: list[dict[str, str]] = [{} for _ in range(DEVICES)]
        #: Per device: the papers whose decision was undone since its last sync.
        self.withdrawn: list[set[str]] = [set() for _ in range(DEVICES)]
        #: Per device: whether it has synced (before, each of its values is a change of its own).
        self.synced: list[bool] = [False] * DEVICES

    def now(self) -> float:
        NOW[0] = self.time
        return self.time

    def teardown(self) -> None:
        try:
            self.exchange_everything()
            self.check_one_library()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    # -- what users do ---------------------------------------------------------------------
    def _present(self, n: int, i: int) -> str | None:
        pid = self.ids[i]
        return pid if self.machines[n].library.loaded_papers().row_of(pid) is not None else None

    @initialize(
        first=st.lists(st.tuples(paper, st.sampled_from(STATUSES[1:])), max_size=6),
        second=st.lists(st.tuples(paper, st.sampled_from(STATUSES[1:])), max_size=6),
    )
    def start(self, first: list[tuple[int, str]], second: list[tuple[int, str]]) -> None:
        """Device 0 has two lists, device 1 the third, device 2 nothing yet (it joins); the
        first two have decided a few papers before they ever synced."""
        probe = Machine(self.root / "probe", self.root / "probe-folder").library
        for path in self.lists:
            probe.import_file(path)
        by_title = {p.title: p.id for p in probe.papers()}
        self.ids = [by_title[f"Paper {i}"] for i in range(PAPERS)]
        self.machines[0].library.import_files(self.lists[:2])
        self.machines[1].library.import_file(self.lists[2])
        self.decide(0, first)
        self.time_passes(60)
        self.decide(1, second)

    @rule(n=device, which=st.integers(0, len(LISTS) - 1))
    def import_list(self, n: int, which: int) -> None:
        self.machines[n].library.import_file(self.lists[which])

    @rule(n=device, choices=st.lists(st.tuples(paper, st.sampled_from(STATUSES)), max_size=4))
    def decide(self, n: int, choices: list[tuple[int, str]]) -> None:
        for i, status in choices:
            pid = self._present(n, i)
            if pid and self.machines[n].library.set_status(pid, status):
                self.decided[n][pid] = status
                event("a decision")

    @rule(n=device, i=paper, note=st.sampled_from(("", "good", "read §3")))
    def note(self, n: int, i: int, note: str) -> None:
        pid = self._present(n, i)
        if pid:
            self.machines[n].library.set_note(pid, note)

    #: Lists none of which holds all the others: tags written on two devices at once merge
    #: (with nested lists alone the later held all the tags in 99 runs of 100: no merge). On
    #: three papers as often as on the other seven together, so that two devices meet there.
    @rule(
        n=device,
        i=st.one_of(st.integers(0, 2), paper),
        tags=st.sampled_from(([], ["rl"], ["rl", "theory"], ["survey"], ["theory", "survey"])),
    )
    def tag(self, n: int, i: int, tags: list[str]) -> None:
        pid = self._present(n, i)
        if pid:
            self.machines[n].library.set_tags(pid, tags)

    @rule(n=device, redo=st.booleans())
    def undo(self, n: int, redo: bool) -> None:
        library = self.machines[n].library
        changes = library.redo() if redo else library.undo()
        for pid, _old, new in changes:
            if not redo:
                self.decided[n].pop(pid, None)  # withdrawn: not a decision of its own
                self.withdrawn[n].add(pid)
            elif pid in self.withdrawn[n]:
                self.withdrawn[n].discard(pid)  # undone and redone since the last sync: the
                # files are as they were, nothing to send
            else:
                self.decided[n][pid] = new.value  # a decision undone before the sync, again
        if changes:
            event("an undo or redo")

    @rule(n=device, i=paper)
    def remove(self, n: int, i: int) -> None:
        pid = self._present(n, i)
        if pid and self.machines[n].library.remove([pid]):
            self.decided[n].pop(pid, None)
            event("a removal")

    @rule(seconds=st.sampled_from((0.2, 1.0, 30.0, 5000.0)))
    def time_passes(self, seconds: float) -> None:
        self.time += seconds
        NOW[0] = self.time

    # -- what devices and the sync tool do -------------------------------------------------
    @rule(n=device)
    def sync(self, n: int) -> None:
        self.sync_and_check(n)

    def sync_and_check(self, n: int) -> int:
        """Sync device ``n`` and check what it sent (3 and 4); returns how many records."""
        machine = self.machines[n]
        before = self._triage(n)
        last = self.after_sync[n]
        # A paper not shown at the last sync (removed here, or not here yet) comes back (an
        # undo, an import) with what it had or the registers' triage: not a change made here
        # (``storage.sync.local``). A decision made since is, below. (Compared with the
        # defaults, a note an undo of a removal brought back, as the registers held it, was
        # taken for one when a later step had dropped the undone removal from the undo log.)
        changed = {
            k: v
            for k, v in before.items()
            if v != last.get(k, DEFAULTS[k[0]]) and (k in last or not self.synced[n])
        }
        for pid, status in self.decided[n].items():  # decided, even if back to where it was
            if before.get((STATUS, pid)) == status:
                changed[(STATUS, pid)] = status
        self.decided[n], self.withdrawn[n] = {}, set()
        report = machine.sync()
        if report.kept_both:
            event("notes edited at once kept both")
        if report.tags_merged:
            event("tags edited at once merged")
        records = sorted(
            (r for r in all_records(machine.folder) if r.device == machine.device_id),
            key=lambda r: r.stamp,
        )
        for (kind, pid), value in changed.items():
            if machine.library.loaded_papers().row_of(pid) is None:
                continue  # a removal took the paper (its triage waits in the undo step)
            mine = [r for r in records if (r.kind, r.paper) == (kind, pid)]
            sent = [
                r for r in mine if r.value == value or (kind == "g" and tuple(r.value) == value)
            ]
            assert sent, f"device {n}: {kind} of {pid} = {value!r} was not sent"
            seen = self.seen_stamp[n].get((kind, pid), 0)
            assert sent[-1].stamp > seen, "a change made after a record of it stamps lower"
            if mine[-1] is not sent[-1]:
                # lost to another device's written at once, and merged with it after it
                # (``storage.sync.both``): the merge holds what was added here
                assert kind in ("n", "g") and mine[-1].stamp > sent[-1].stamp
                event(f"a change made here merged with another device's ({kind})")
                if kind == "n":
                    assert value in mine[-1].value
                else:
                    added = set(value) - set(last.get((kind, pid), ()))
                    assert added <= set(mine[-1].value), "a tag added here lost in a merge"
        self.after_sync[n] = self._triage(n)
        self.synced[n] = True
        seen: dict[tuple[str, str], int] = {}
        for record in all_records(machine.folder):
            if record.kind != PAPER:
                where = (record.kind, record.paper)
                seen[where] = max(seen.get(where, 0), record.stamp)
        self.seen_stamp[n] = seen
        # A decision's time is kept to the second: one undone and redone within the second of
        # a sync is the same file as before it. People take longer than that.
        self.time_passes(1.0)
        return report.sent + report.relayed

    def _triage(self, n: int) -> dict[tuple[str, str], Any]:
        _papers, statuses, notes, tags = shown(self.machines[n].library)
        found: dict[tuple[str, str], Any] = {}
        for pid in set(_papers):
            found[(STATUS, pid)] = statuses.get(pid, "inbox")
            found[("n", pid)] = notes.get(pid, "")
            found[("g", pid)] = tuple(tags.get(pid, ()))
        return found

    @rule(src=device, dst=device, data=st.data())
    def deliver(self, src: int, dst: int, data: st.DataObject) -> None:
        """The sync tool copies what ``src``'s folder has to ``dst``'s, maybe only a part."""
        if src == dst:
            return
        whole = data.draw(st.booleans())
        fraction = 1.0 if whole else data.draw(st.floats(0.0, 1.0))
        self._copy(self.machines[src].folder, self.machines[dst], fraction)

    @rule(n=device, data=st.data())
    def damage_own_log(self, n: int, data: st.DataObject) -> None:
        """A byte anywhere in one of a device's own logs damaged: the device writes again at
        the log's end what the damaged line held (it alone knows what it wrote)."""
        machine = self.machines[n]
        own = machine.folder / ROOT_NAME / machine.device_id
        logs = [log for name in ("triage.jsonl", "papers.jsonl") if (log := own / name).exists()]
        if logs:
            log = data.draw(st.sampled_from(logs))
            size = log.stat().st_size
            if size:
                damage(log, data.draw(st.integers(0, size - 1)))
                event("a line of a device's own log damaged")

    @rule(n=device)
    def conflicted_copy(self, n: int) -> None:
        logs = sorted(self.machines[n].folder.rglob("triage.jsonl"))
        if logs:
            shutil.copyfile(logs[0], logs[0].with_name("triage (conflicted copy).jsonl"))

    def _copy(self, source: Path, target: Machine, fraction: float) -> None:
        own = target.folder / ROOT_NAME / target.device_id
        for path in sorted(source.rglob("*")):
            dest = target.folder / path.relative_to(source)
            if not path.is_file() or dest.parent == own:
                continue  # a device's own files are its own
            data = path.read_bytes()
            have = dest.read_bytes() if dest.exists() else b""
            if path.name == "device.json":
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(data)
            elif data.startswith(have) and len(data) > len(have):
                cut = len(have) + round((len(data) - len(have)) * fraction)
                if cut < len(data) and data[cut - 1 : cut] != b"\n":
                    event("a record cut in two by a delivery")
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(data[:cut])
            elif not data.startswith(have):  # changed before the end (damaged): replaced
                dest.write_bytes(data)

    # -- the end ---------------------------------------------------------------------------
    def exchange_everything(self) -> None:
        """Every device syncs and the sync tool delivers everything everywhere, until a round
        sends nothing new; then each device syncs once more."""
        for _round in range(4):
            sent = sum(self.sync_and_check(n) for n in range(DEVICES))
            for src in range(DEVICES):
                for dst in range(DEVICES):
                    if src != dst:
                        self._copy(self.machines[src].folder, self.machines[dst], 1.0)
            if not sent and _round:
                break
        for n in range(DEVICES):
            self.sync_and_check(n)

    def check_one_library(self) -> None:
        views = [shown(m.library) for m in self.machines]
        assert views[0] == views[1] == views[2]
        event(f"papers at the end: {min(len(views[0][0]), 10) // 5 * 5}+")
        event(f"decided at the end: {min(len(views[0][1]), 6) // 3 * 3}+")
        event(f"notes or tags at the end: {min(len(views[0][2]) + len(views[0][3]), 2)}+")
        greatest: dict[tuple[str, str], Any] = {}
        for record in all_records(self.machines[0].folder):
            key = (record.kind, record.paper)
            if key not in greatest or record.holder() > greatest[key].holder():
                greatest[key] = record
        papers, statuses, notes, tags = views[0]
        for pid in papers:
            for kind, shown_value, default in (
                (STATUS, statuses.get(pid, "inbox"), "inbox"),
                ("n", notes.get(pid, ""), ""),
                ("g", list(tags.get(pid, ())), []),
            ):
                record = greatest.get((kind, pid))
                assert shown_value == (record.value if record is not None else default)

    @invariant()
    def libraries_open(self) -> None:
        for machine in self.machines:
            machine.library.check()


#: The test's "real" time, which the libraries' decisions are stamped with.
NOW = [1_700_000_000.0]


@pytest.fixture(autouse=True)
def _no_fsync_and_test_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Durability is tested elsewhere (here fsync only makes the runs slow); decisions are
    made at the test's time, which each device's clock then reads with its own error."""
    import storage.files.triage_file

    monkeypatch.setattr(os, "fsync", lambda fd: None)
    monkeypatch.setattr(storage.files.triage_file, "now", lambda: NOW[0])


SyncedDevices.TestCase.settings = settings(
    # The same runs every time (a CI run that fails fails for a change, not for a draw);
    # SYNC_RANDOM=1 draws new ones (each found some: see the plain cases after them).
    derandomize=not os.environ.get("SYNC_RANDOM"),
    max_examples=int(os.environ.get("SYNC_EXAMPLES", "80")),
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_three_devices = pytest.mark.slow(75)(SyncedDevices.TestCase)


def _deliver(state: SyncedDevices, src: int, dst: int) -> None:
    state._copy(state.machines[src].folder, state.machines[dst], 1.0)


def test_a_paper_back_by_an_undo_decided_as_another_device_had_is_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found by the run above (shrunk): device 0 takes paper 7 out and syncs, reading that
    device 1 read it meanwhile; it undoes the removal and reads the paper itself. Its decision
    was not sent: the paper's status waited in the registers, and a status decided here after
    the register's was sent only when it differed. A third device's change stamped before the
    decision would then have beaten it."""
    monkeypatch.setattr(sys.modules[__name__], "event", lambda *_args, **_kw: None)
    state = SyncedDevices()
    state.start(first=[(0, "read")], second=[(0, "read"), (7, "read")])
    state.sync(n=1)
    state.sync(n=0)
    _deliver(state, 1, 0)
    state.remove(i=7, n=0)
    state.sync(n=0)
    state.undo(n=0, redo=False)
    state.decide(choices=[(7, "read")], n=0)
    state.teardown()


def test_a_note_an_undo_brought_back_is_not_a_change_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found by the run above (shrunk): a note, the paper taken out and synced, the removal
    undone, then an import (which drops the undone removal from the undo log). The note came
    back as the registers held it, nothing to send; the model took it for a change made here,
    compared with no note."""
    monkeypatch.setattr(sys.modules[__name__], "event", lambda *_args, **_kw: None)
    state = SyncedDevices()
    state.start(first=[(0, "read")], second=[(7, "read")])
    state.note(i=7, n=0, note="read §3")
    state.sync(n=0)
    state.remove(i=7, n=0)
    state.sync(n=0)
    state.undo(n=0, redo=False)
    state.import_list(n=0, which=2)
    state.decide(choices=[(9, "read")], n=0)
    state.teardown()


def test_damaged_own_logs_and_a_part_delivered_end_in_one_library(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found by SYNC_RANDOM=1 SYNC_EXAMPLES=500 (shrunk): device 1's own logs damaged, a part
    of its folder delivered to device 0, then the rest with a byte device 0 had read damaged:
    device 0 read device 1's papers log again from its start and passed on its records, a
    paper with the document its own library still held (a list fewer or more than device 1's
    import gave it) under device 1's stamp. The other two took the greater of the two
    documents of that stamp, device 0 kept device 1's: ``merge.held_document``."""
    monkeypatch.setattr(sys.modules[__name__], "event", lambda *_args, **_kw: None)
    state = SyncedDevices()

    def damaged(name: str, at: int) -> None:
        machine = state.machines[1]
        damage(machine.folder / ROOT_NAME / machine.device_id / name, at)

    state.start(first=[(0, "read")], second=[(0, "read")])
    state.sync(n=1)
    damaged("papers.jsonl", 778)
    state.sync(n=1)
    damaged("triage.jsonl", 0)
    damaged("triage.jsonl", 0)
    state._copy(state.machines[1].folder, state.machines[0], 0.431773538826442)
    state.import_list(n=1, which=0)
    damaged("papers.jsonl", 583)
    state.teardown()
