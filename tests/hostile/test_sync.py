"""A hostile device, a hostile file in the sync folder, a sync cut short: nothing lost or slow.

Each case failed before (issue 24): a decision lost, a sync stopped or slowed by one file,
a paper that never travelled, a record accepted here and refused everywhere else.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from storage import Library
from storage.caps import MAX_ABSTRACT_CHARS, MAX_LISTS, MAX_NOTE_CHARS, MAX_TAGS, TooBigError
from storage.files.papers_file import paper_to_doc
from storage.sync import run as sync_run
from storage.sync import sync_library
from storage.sync.device import load_device
from storage.sync.folder import MAX_CARD, ROOT_NAME, SyncFolder
from storage.sync.records import MAX_AHEAD_MS, MAX_LINE, MAX_STAMP
from storage.sync.state import load_state, state_path
from tests.cli.test_cli import PAPERS, make_env
from tests.unit.test_sync_support import all_records, seeded

HOSTILE = "eeee0000000000ee"
T0 = 1_700_000_000.0


class Wall:
    """A clock the test moves: every device reads it (no skew: "later" is plain)."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now

    def later(self, seconds: float = 10.0) -> None:
        self.now += seconds


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> Wall:
    import storage.files.triage_file

    clock = Wall()
    monkeypatch.setattr(storage.files.triage_file, "now", clock)
    return clock


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "synced"
    path.mkdir()
    return path


def hostile_log(folder: Path, name: str = "triage.jsonl", device: str = HOSTILE) -> Path:
    path = folder / ROOT_NAME / device / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def write_rows(path: Path, rows: list[list[object]]) -> None:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))


# -- a sync cut short ------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["disk full", "kill"])
def test_a_merge_cut_short_after_it_wrote_triage_is_not_resent_as_this_devices_own(
    tmp_path: Path, folder: Path, wall: Wall, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """B's sync writes A's decision into triage.json, then dies (or the disk fills) before
    it saves its state. B's next sync sent that status again as B's own new decision, stamped
    after everything B had seen (here a device whose clock is an hour fast): it then beat C's
    decision, made ten minutes after A's."""
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    sync_library(a, folder, wall=wall)
    sync_library(b, folder, wall=wall)
    pid, other = a.papers()[0].id, a.papers()[3].id
    fast = int(wall() * 1000) + 3_600_000  # within the bound: believed
    write_rows(hostile_log(folder), [["s", fast, HOSTILE, other, "read"]])
    wall.later()
    a.set_status(pid, "read")
    sync_library(a, folder, wall=wall)
    wall.later()

    saves = []
    save = sync_run.save_state

    def cut_short(path: Path, state: object) -> None:
        saves.append(path)
        if len(saves) == 2:  # the first notes the merge as pending, the second ends it
            if how == "kill":
                raise SystemExit("killed")
            raise OSError(errno.ENOSPC, "No space left on device")
        save(path, state)  # type: ignore[arg-type]

    monkeypatch.setattr(sync_run, "save_state", cut_short)
    with pytest.raises((OSError, SystemExit)):
        sync_library(b, folder, wall=wall)
    monkeypatch.setattr(sync_run, "save_state", save)
    assert b.status(pid).value == "read"  # the merge reached triage.json
    b_id = load_device(b.home)[0].id

    wall.later(600)
    c = seeded(tmp_path / "c")
    c.set_status(pid, "skipped")  # ten minutes after A's "read"
    sync_library(c, folder, wall=wall)
    wall.later()
    b = Library(tmp_path / "b")  # a new process
    sync_library(b, folder, wall=wall)
    for library in (a, b, c):
        sync_library(library, folder, wall=wall)
    assert [lib.status(pid).value for lib in (a, b, c)] == ["skipped"] * 3
    resent = [r for r in all_records(folder) if r.paper == pid and r.device == b_id]
    assert not resent, f"B sent the status it received as its own: {resent}"


# -- clocks ----------------------------------------------------------------------------------
def test_a_record_of_the_year_9998_pins_no_clock_and_later_decisions_still_win(
    tmp_path: Path, folder: Path, wall: Wall
) -> None:
    """One record stamped just under the cap on future stamps moved every device's clock to
    the year 9998 on reading it: from then on their stamps were a counter, and a decision made
    later on one device lost to an earlier one made on another."""
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    sync_library(a, folder, wall=wall)
    sync_library(b, folder, wall=wall)
    ids = [p.id for p in a.papers()]
    write_rows(hostile_log(folder), [["s", MAX_STAMP - 10, HOSTILE, ids[5], "starred"]])
    wall.later()
    report = sync_library(a, folder, wall=wall)
    assert any("not believed until then" in p for p in report.problems)
    assert a.status(ids[5]).value == "inbox"  # held, not believed
    state, _ = load_state(state_path(a.home, folder), folder, report.device.id)
    assert state.clock <= wall() * 1000 + MAX_AHEAD_MS
    for n in range(20):  # A decides a lot after seeing it: its stamps stay near the present
        a.set_status(ids[0], ("read", "skipped")[n % 2])
        sync_library(a, folder, wall=wall)
        wall.later(1)
    wall.later(60)
    b.set_status(ids[0], "starred")  # B decides a minute after A's last: B's wins
    sync_library(b, folder, wall=wall)
    sync_library(a, folder, wall=wall)
    assert a.status(ids[0]).value == b.status(ids[0]).value == "starred"
    assert all(
        r.stamp < wall() * 1000 + MAX_AHEAD_MS for r in all_records(folder) if r.device != HOSTILE
    )


def test_a_record_a_little_ahead_is_believed_and_one_far_ahead_once_its_time_comes(
    tmp_path: Path, folder: Path, wall: Wall
) -> None:
    a = seeded(tmp_path / "a")
    sync_library(a, folder, wall=wall)
    ids = [p.id for p in a.papers()]
    soon, later = int(wall() * 1000) + 3_600_000, int(wall() * 1000) + 3 * MAX_AHEAD_MS
    write_rows(
        hostile_log(folder),
        [["s", soon, HOSTILE, ids[0], "read"], ["s", later, HOSTILE, ids[1], "skipped"]],
    )
    sync_library(a, folder, wall=wall)
    assert (a.status(ids[0]).value, a.status(ids[1]).value) == ("read", "inbox")
    wall.later(3 * MAX_AHEAD_MS / 1000)  # the clock is now near it: it is believed
    sync_library(a, folder, wall=wall)
    assert a.status(ids[1]).value == "skipped"


# -- what travels ----------------------------------------------------------------------------
def test_a_paper_with_every_extra_field_reaches_the_other_device(
    tmp_path: Path, folder: Path
) -> None:
    """Any extra field (rating, citations, area, doi, tldr) made the paper's record "no
    paper this version reads": it never reached another device."""
    listed = tmp_path / "list.jsonl"
    listed.write_bytes(
        orjson.dumps(
            {
                "title": "Ratings travel",
                "abstract": "We show that every field of a paper reaches the other device.",
                "rating": [6, 8, 7],
                "citations": 120,
                "primary_area": "optimization",
                "doi": "10.1000/xyz",
                "tldr": "It all travels.",
            }
        )
    )
    a = Library(tmp_path / "a")
    a.import_file(listed)
    sync_library(a, folder)
    b = Library(tmp_path / "b")
    report = sync_library(b, folder)
    assert not report.problems
    assert [paper_to_doc(p) for p in b.papers()] == [paper_to_doc(p) for p in a.papers()]
    assert dict(b.papers()[0].extra) == {
        "rating": 7.0,
        "citations": 120,
        "area": "optimization",
        "doi": "10.1000/xyz",
        "tldr": "It all travels.",
    }


# -- the same caps everywhere ----------------------------------------------------------------
def test_a_note_or_tags_past_the_caps_are_refused_where_they_are_made(tmp_path: Path) -> None:
    """A note over 100,000 characters, or 250 tags, were kept here and refused as a damaged
    line by every other device."""
    library = seeded(tmp_path / "home")
    pid = library.papers()[0].id
    with pytest.raises(TooBigError, match="at most 100,000"):
        library.set_note(pid, "x" * (MAX_NOTE_CHARS + 1))
    with pytest.raises(TooBigError, match="250 tags are too many"):
        library.set_tags(pid, [f"t{n}" for n in range(250)])
    with pytest.raises(TooBigError, match="too long"):
        library.set_tags(pid, ["x" * 500])
    library.set_note(pid, "x" * MAX_NOTE_CHARS)
    library.set_tags(pid, [f"t{n}" for n in range(MAX_TAGS)])
    assert len(library.triage().tags[pid]) == MAX_TAGS


def test_the_cli_refuses_a_note_or_tags_past_the_caps_in_one_line(tmp_path: Path) -> None:
    env = make_env(tmp_path)
    home = tmp_path / "home"
    seeded(home)
    pid = Library(home).papers()[0].id
    for args in (
        ["note", pid, "x" * (MAX_NOTE_CHARS + 10)],
        ["tag", pid, *(f"t{n}" for n in range(250))],
    ):
        done = subprocess.run(
            [*PAPERS, "--home", str(home), *args], env=env, capture_output=True, text=True
        )
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert len(done.stderr.splitlines()) == 1 and "not saved" in done.stderr
    assert pid not in Library(home).triage().notes


def test_an_import_refuses_a_record_whose_note_or_tags_pass_the_caps(tmp_path: Path) -> None:
    listed = tmp_path / "export.json"
    abstract = "We study a careful problem at length and report what we found there."
    listed.write_bytes(
        orjson.dumps(
            [
                {"title": "Fine", "abstract": abstract, "status": "read", "note": "ok"},
                {"title": "Long note", "abstract": abstract, "note": "x" * 200_000},
                {
                    "title": "Many tags",
                    "abstract": abstract,
                    "tags": ",".join(map(str, range(300))),
                },
            ]
        )
    )
    library = Library(tmp_path / "home")
    report = library.import_file(listed)
    assert [p.title for p in library.papers()] == ["Fine"]  # the others: one line each
    reasons = " / ".join(e.reason for e in report.errors)
    assert "the note is 200,000 characters long" in reasons and "tags are too many" in reasons


def test_a_paper_past_the_caps_arriving_by_sync_is_refused_like_an_import(
    tmp_path: Path, folder: Path
) -> None:
    """A 5 MB abstract arrived although imports refuse 20,000 characters (the app then took
    7 s to paint); one record naming 20,000 lists took half a minute (quadratic)."""
    base = {"title": "T", "authors": [], "github": [], "url": "", "keywords": []}
    rows = []
    for n, (abstract, lists) in enumerate(
        (
            ("a" * (MAX_ABSTRACT_CHARS + 1), ["L"]),
            ("fine abstract " * 10, [f"list {k}" for k in range(20_000)]),
            ("b" * 5_000_000, ["L"]),
        )
    ):
        pid = f"{n + 1:012x}"
        doc = {**base, "id": pid, "abstract": abstract, "list": lists[0], "lists": lists}
        rows.append(["P", int(T0 * 1000) + n, HOSTILE, pid, doc])
    write_rows(hostile_log(folder, "papers.jsonl"), rows)
    library = Library(tmp_path / "home")
    report = sync_library(library, folder)
    assert len(library) == 0 and len(library.lists()) == 0
    said = " ".join(report.problems)
    assert "2 paper records" in said and "no paper this version takes" in said
    assert "1 damaged line(s) skipped" in said  # 5 MB: no record is that long
    assert MAX_LISTS < 20_000 and MAX_LINE < 5_000_000


# -- records for papers no device has --------------------------------------------------------
def test_records_for_papers_no_device_has_stay_out_of_triage_json(
    tmp_path: Path, folder: Path
) -> None:
    """300,000 such records made triage.json 16 MB and every later decision 2.8 s; they now
    wait in the sync state, and reach triage.json when their paper arrives."""
    library = seeded(tmp_path / "home")
    sync_library(library, folder)
    before = library.triage_path.stat().st_size if library.triage_path.exists() else 0
    stamp = int(T0 * 1000)
    write_rows(
        hostile_log(folder),
        [["s", stamp + n, HOSTILE, f"{n + 1:012x}", "read"] for n in range(20_000)]
        + [["n", stamp, HOSTILE, f"{n + 1:012x}", "a note " * 50] for n in range(5_000)],
    )
    report = sync_library(library, folder)
    assert report.received == 25_000
    size = library.triage_path.stat().st_size if library.triage_path.exists() else 0
    assert size - before < 4096
    # one of them arrives as a paper: its triage comes with it
    doc = {"id": f"{7:012x}", "title": "Arrives late", "abstract": "A paper that comes later on."}
    doc.update(list="Late", lists=["Late"])
    write_rows(hostile_log(folder, "papers.jsonl"), [["P", stamp, HOSTILE, doc["id"], doc]])
    sync_library(library, folder)
    assert library.status(doc["id"]).value == "read"
    assert library.triage().notes[doc["id"]].startswith("a note")


def test_a_paper_imported_here_after_its_triage_arrived_takes_that_triage(
    tmp_path: Path, folder: Path, wall: Wall
) -> None:
    """A device's triage log can arrive before its papers log: the triage waits, and an import
    of the same list here takes it (instead of sending its Inbox as a new decision)."""
    a, b = seeded(tmp_path / "a"), Library(tmp_path / "b")
    sync_library(a, folder, wall=wall)
    pid = a.papers()[0].id
    a.set_status(pid, "starred")
    wall.later()
    sync_library(a, folder, wall=wall)
    own = folder / ROOT_NAME / sync_library(a, folder, wall=wall).device.id
    (own / "papers.jsonl").rename(tmp_path / "papers.jsonl")  # not arrived yet
    wall.later()
    sync_library(b, folder, wall=wall)
    assert len(b) == 0
    seeded(b.home)  # B imports the same lists itself
    wall.later()
    sync_library(b, folder, wall=wall)
    (tmp_path / "papers.jsonl").rename(own / "papers.jsonl")
    sync_library(a, folder, wall=wall), sync_library(b, folder, wall=wall)
    assert a.status(pid).value == b.status(pid).value == "starred"


# -- files that stopped or slowed every sync -------------------------------------------------
def test_a_symlink_loop_named_like_a_log_stops_neither_sync_nor_status(
    tmp_path: Path, folder: Path
) -> None:
    env = make_env(tmp_path)
    home = tmp_path / "home"
    seeded(home)
    run = [*PAPERS, "--home", str(home), "sync"]
    assert subprocess.run([*run, str(folder)], env=env, capture_output=True).returncode == 0
    for device in (HOSTILE, next(p.name for p in (folder / ROOT_NAME).iterdir())):
        loop = hostile_log(folder, "loop.jsonl", device)
        loop.symlink_to(loop)
    (folder / ROOT_NAME / "eeee0000000000aa").symlink_to(folder / ROOT_NAME)  # a folder loop
    for extra in ([], ["--status"]):
        done = subprocess.run(
            [*run, *extra, str(folder)], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    done = subprocess.run([*run, str(folder)], env=env, capture_output=True, text=True)
    assert "loop.jsonl: not read (a symbolic link, never followed)" in done.stderr


def test_a_2_gb_sparse_log_costs_neither_seconds_nor_gigabytes(
    tmp_path: Path, folder: Path
) -> None:
    """A log of 2 GB of zeros (a sparse file: no disk) made every sync read all of it into
    memory, again and again (2.1 GB, 6-16 s each). Measured from outside: the child's peak
    memory."""
    env = make_env(tmp_path)
    home = tmp_path / "home"
    seeded(home)
    sparse = hostile_log(folder)
    with sparse.open("wb") as out:
        out.write(orjson.dumps(["s", int(T0 * 1000), HOSTILE, "0123456789ab", "read"]) + b"\n")
        out.truncate(2 * 1024**3)
    junk = hostile_log(folder, "junk.jsonl")  # 300 MB of one line: no record, nor zeros
    with junk.open("wb") as out:
        for _ in range(300):
            out.write(b"x" * 1024**2)
    # each sync in a grandparent of its own: its peak memory alone, not the suite's children's
    measure = (
        "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], text=True, "
        "capture_output=True); sys.stderr.write(done.stderr); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(done.returncode)"
    )
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", measure, *PAPERS, "--home", str(home), "sync", str(folder)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        peak_mb = int(done.stdout.split()[-1]) / 1024
        assert peak_mb < 200, f"a sync took {peak_mb:.0f} MB"
    assert "not fully arrived" in done.stderr


def test_a_log_read_in_bounded_pieces_keeps_every_record(tmp_path: Path) -> None:
    """Lines across chunks, a line too long to be a record (skipped, never held), one still
    arriving at the end: every record read once, the cursor right."""
    place = SyncFolder(tmp_path)
    path = hostile_log(tmp_path)
    rows = [
        orjson.dumps(["s", int(T0 * 1000) + n, HOSTILE, "0123456789ab", "read"])
        for n in range(60_000)
    ]
    body = b"\n".join(rows[:30_000]) + b"\n" + b"y" * (3 * MAX_LINE) + b"\n"
    body += b"\n".join(rows[30_000:]) + b"\n"
    path.write_bytes(body + b"z" * (2 * MAX_LINE))  # a long line, still arriving
    (log,) = place.log_files()
    first = place.read(log, None)
    assert len(first.records) == 60_000 and first.skipped == 1
    assert first.cursor.offset == len(body) + 2 * MAX_LINE and first.waiting == 0
    with path.open("ab") as out:  # it ends (no record: too long), and a record follows
        out.write(b"z\n" + rows[0] + b"\n")
    second = place.read(log, first.cursor)
    assert not second.restarted and second.skipped == 1 and len(second.records) == 1
    assert MAX_CARD < MAX_LINE


def test_a_card_or_log_replaced_by_a_link_is_said_and_never_followed(
    tmp_path: Path, folder: Path
) -> None:
    secret = tmp_path / "secret.jsonl"
    write_rows(secret, [["s", int(T0 * 1000), HOSTILE, "0123456789ab", "read"]])
    log = hostile_log(folder)
    os.symlink(secret, log)
    library = seeded(tmp_path / "home")
    report = sync_library(library, folder)
    assert any("not read (a symbolic link" in p for p in report.problems)
    assert report.received == 0


# -- one hostile record at a time, beside a good one -----------------------------------------
GOOD_PAPER = {"id": "0123456789ab", "title": "Good", "abstract": "A good paper, at length."}


def _paper(**fields: object) -> list[object]:
    doc = {**GOOD_PAPER, "id": "0000000000cc", "list": "L", "lists": ["L"], **fields}
    return ["P", int(T0 * 1000), HOSTILE, "0000000000cc", doc]


HOSTILE_RECORDS: dict[str, bytes] = {
    "stamp 0": orjson.dumps(["s", 0, HOSTILE, "0000000000cc", "read"]),
    "negative stamp": orjson.dumps(["s", -5, HOSTILE, "0000000000cc", "read"]),
    "stamp true": b'["s", true, "eeee0000000000ee", "0000000000cc", "read"]',
    "stamp a float": b'["s", 1.7e12, "eeee0000000000ee", "0000000000cc", "read"]',
    "stamp text": b'["s", "1700000000000", "eeee0000000000ee", "0000000000cc", "read"]',
    "stamp of 30 digits": b'["s", ' + b"9" * 30 + b', "eeee0000000000ee", "0000000000cc", "read"]',
    "stamp at the cap": orjson.dumps(["s", MAX_STAMP, HOSTILE, "0000000000cc", "read"]),
    "unknown kind": orjson.dumps(["q", int(T0 * 1000), HOSTILE, "0000000000cc", [1]]),
    "device not hex": orjson.dumps(["s", int(T0 * 1000), "../../etc", "0000000000cc", "read"]),
    "paper id of 40 chars": orjson.dumps(["s", int(T0 * 1000), HOSTILE, "a" * 40, "read"]),
    "status unknown": orjson.dumps(["s", int(T0 * 1000), HOSTILE, "0000000000cc", "deleted"]),
    "note a number": orjson.dumps(["n", int(T0 * 1000), HOSTILE, "0000000000cc", 5]),
    "note past the cap": orjson.dumps(
        ["n", int(T0 * 1000), HOSTILE, "0000000000cc", "n" * 100_001]
    ),
    "201 tags": orjson.dumps(["g", int(T0 * 1000), HOSTILE, "0000000000cc", ["t"] * 201]),
    "an empty tag": orjson.dumps(["g", int(T0 * 1000), HOSTILE, "0000000000cc", [""]]),
    "a tag of 101 chars": orjson.dumps(["g", int(T0 * 1000), HOSTILE, "0000000000cc", ["t" * 101]]),
    "tags an object": orjson.dumps(["g", int(T0 * 1000), HOSTILE, "0000000000cc", {"a": 1}]),
    "600 nested arrays": b"[" * 600 + b"]" * 600,
    "not an array": b'{"kind": "s"}',
    "null": b"null",
    "six fields": orjson.dumps(["s", int(T0 * 1000), HOSTILE, "0000000000cc", "read", 1]),
    "invalid UTF-8": b'["n", 1700000000000, "eeee0000000000ee", "0000000000cc", "\xff\xfe"]',
    "a NUL inside": b'["n", 1700000000000, "eeee0000000000ee", "0000000000cc", "a\x00b"]',
    "a line of 2 MB": b'["n", 1700000000000, "x' + b"y" * 2 * 1024 * 1024 + b'"]',
    "paper: a rating that is text": orjson.dumps(_paper(extra=[["rating", "high"]])),
    "paper: an unknown extra field": orjson.dumps(_paper(extra=[["salary", 5]])),
    "paper: an extra of three": orjson.dumps(_paper(extra=[["rating", 5, 6]])),
    "paper: a title of 2,000 chars": orjson.dumps(_paper(title="t" * 2000)),
    "paper: 101 lists": orjson.dumps(_paper(lists=[f"l{n}" for n in range(101)])),
    "paper: a list name of 600 chars": orjson.dumps(_paper(list="n" * 600, lists=["n" * 600])),
    "paper: another paper's id": orjson.dumps(_paper(id="0000000000dd")),
    "paper: position as text": orjson.dumps(_paper(position="1")),
    "paper: authors an object": orjson.dumps(_paper(authors={"a": "b"})),
    "paper: no title": orjson.dumps(
        ["P", int(T0 * 1000), HOSTILE, "0000000000cc", {"id": "0000000000cc"}]
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE_RECORDS))
def test_a_hostile_record_is_skipped_and_the_good_ones_beside_it_are_read(
    tmp_path: Path, folder: Path, name: str
) -> None:
    library = seeded(tmp_path / "home")
    sync_library(library, folder)
    pid = library.papers()[0].id
    good = orjson.dumps(["s", int(T0 * 1000) + 5, HOSTILE, pid, "starred"])
    log = hostile_log(folder, "papers.jsonl" if name.startswith("paper") else "triage.jsonl")
    log.write_bytes(HOSTILE_RECORDS[name] + b"\n")
    hostile_log(folder, "good.jsonl").write_bytes(good + b"\n")
    report = sync_library(library, folder)
    assert library.status(pid).value == "starred"  # the good record, read all the same
    assert len(library) == 38  # no paper from the hostile record
    assert "0000000000cc" not in library.triage().statuses
    assert "0000000000cc" not in library.triage().notes
    said = " ".join(report.problems)
    assert (
        "damaged line" in said
        or "no paper this version takes" in said
        or "past the caps" in said  # (a record that is whole: said by what it holds)
        or (name == "stamp at the cap")
    ), said
    library.check()
    assert sync_library(library, folder).received == 0  # and never read again


async def test_the_apps_note_and_tag_dialogs_refuse_past_the_caps(tmp_path: Path) -> None:
    """A note over 100,000 characters, or 250 tags, were saved here and refused as a damaged
    line by every other device: the dialogs say so where they were typed."""
    from textual.widgets import Input, TextArea

    from tests.tui.helpers import make_app, ready, settled
    from tui.screens.dialogs import NoteEditor

    home = tmp_path / "home"
    seeded(home)
    app = make_app(home)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        first = app.papers[0].id
        await pilot.press("n")
        editor = app.screen
        assert isinstance(editor, NoteEditor)
        editor.query_one(TextArea).text = "x" * (MAX_NOTE_CHARS + 1)
        await pilot.press("ctrl+s")
        await settled(pilot)
        assert isinstance(app.screen, NoteEditor)  # still open: the text is kept
        assert any("not saved" in n.message for n in app._notifications)
        await pilot.press("escape", "escape")  # (the first says what the second throws away)
        await pilot.press("t")
        app.screen.query_one(Input).value = " ".join(f"t{n}" for n in range(250))
        await pilot.press("enter")
        await settled(pilot)
        assert any("250 tags are too many" in n.message for n in app._notifications)
    triage = Library(home).triage()
    assert first not in triage.notes and first not in triage.tags
