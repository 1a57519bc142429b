"""``triage.cache``: the triage state a command read or wrote, loaded by the next command
instead of a parse, and never believed for any other version of ``triage.json``."""

from __future__ import annotations

import json
import os
import shutil
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import storage.files.triage_file as triage_file_module
from storage import Library, Status
from storage.cache.triage_memo import FORMAT, MEMO_FILE, TriageMemo, _packed, _unpacked
from storage.errors import NewerFileError
from storage.files.atomic import file_content
from storage.files.triage_model import SCHEMA, DayCount, TriageState


def command_library(home: Path) -> Library:
    """A library as a command of the CLI opens it: it keeps the memo."""
    library = Library(home)
    library.short_lived = True
    return library


def decided(library: Library) -> Library:
    ids = [p.id for p in library.papers()]
    library.set_statuses(ids[:5], Status.READ)
    library.set_statuses(ids[5:8], Status.STARRED)
    library.set_note(ids[1], "a note")
    library.set_tags(ids[2], ["rl", "theory"])
    return library


def memo_kept(home: Path) -> Library:
    """A command that decided papers, and kept the memo as it ended."""
    command = command_library(home)
    decided(command)
    command.keep_triage_memo()
    return command


def everything(library: Library) -> tuple[object, ...]:
    """The state and days, each dictionary in its order."""
    state, days = library.triage_file.state_and_days()
    return (
        list(state.statuses.items()),
        list(state.notes.items()),
        list(state.tags.items()),
        list(state.decided_at.items()),
        list(state.positions.items()),
        list(state.positioned_at.items()),
        days,
    )


def test_a_command_keeps_what_it_read_and_the_next_reads_it_without_a_parse(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    decided(library)
    parsed = everything(Library(library.home))
    first = command_library(library.home)
    assert everything(first) == parsed
    assert not (library.home / MEMO_FILE).exists()  # kept once the command is done
    first.keep_triage_memo()
    assert (library.home / MEMO_FILE).exists()
    with monkeypatch.context() as patch:
        patch.setattr(triage_file_module, "state_from_tables", _fail)
        assert everything(command_library(library.home)) == parsed
        with pytest.raises(AssertionError, match="from a parse"):
            Library(library.home).triage()  # the app parses the file


def _fail(*_args: object) -> TriageState:
    raise AssertionError("the state was read from a parse")


def test_a_command_that_decides_keeps_the_state_it_wrote(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    memo_kept(library.home)
    expected = everything(Library(library.home))  # from a parse
    with monkeypatch.context() as patch:
        patch.setattr(triage_file_module, "state_from_tables", _fail)
        assert everything(command_library(library.home)) == expected
    assert len(dict(expected[0])) == 8  # type: ignore[call-overload]


def test_the_app_writes_no_memo(library: Library) -> None:
    decided(library)  # short_lived is False: the app
    library.triage()
    library.keep_triage_memo()
    assert not (library.home / MEMO_FILE).exists()


def test_a_change_by_another_process_is_read_from_the_file(library: Library) -> None:
    memo_kept(library.home)
    pid = library.papers()[20].id
    other = Library(library.home)  # the app, elsewhere: no memo kept
    other.set_status(pid, Status.SKIPPED)
    again = command_library(library.home)
    assert again.triage().statuses[pid] is Status.SKIPPED
    assert everything(again) == everything(Library(library.home))


def test_a_file_of_the_same_size_changed_is_read_from_the_file(library: Library) -> None:
    """``read`` and ``skipped`` … a decision that leaves the file its size and time."""
    command = command_library(library.home)
    pid = library.papers()[0].id
    command.set_status(pid, Status.SKIPPED)
    command.keep_triage_memo()
    path = library.triage_path
    before = path.stat()
    text = path.read_text()
    assert '"skipped"' in text
    path.write_text(text.replace('"skipped"', '"starred"', 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    assert command_library(library.home).triage().statuses[pid] is Status.STARRED


def test_a_copied_home_reads_the_memo_without_a_parse(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memo_kept(library.home)
    expected = everything(Library(library.home))
    copy = tmp_path / "copy"
    shutil.copytree(library.home, copy, copy_function=shutil.copy)  # new inodes and times
    with monkeypatch.context() as patch:
        patch.setattr(triage_file_module, "state_from_tables", _fail)
        assert everything(command_library(copy)) == expected


@pytest.mark.parametrize(
    "damage",
    ["flip", "truncate", "empty", "garbage", "other-schema", "folder", "fifo", "other-magic"],
)
def test_a_memo_that_is_not_whole_and_ours_is_ignored(library: Library, damage: str) -> None:
    command = memo_kept(library.home)
    expected = everything(Library(library.home))
    memo = library.home / MEMO_FILE
    data = memo.read_bytes()
    if damage == "flip":
        memo.write_bytes(data[:-40] + bytes([data[-40] ^ 0x55]) + data[-39:])
    elif damage == "truncate":
        memo.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        memo.write_bytes(b"")
    elif damage == "garbage":
        memo.write_bytes(os.urandom(5000))
    elif damage == "other-magic":
        memo.write_bytes(data.replace(b"triage.cache %d " % FORMAT, b"triage.cache 9 ", 1))
    elif damage == "other-schema":
        state, days = command.triage_file.state_and_days()
        found = file_content(library.triage_path)
        assert found is not None
        TriageMemo(library.home).write(found[1], SCHEMA + 1, state, days)
    elif damage == "folder":
        memo.unlink()
        memo.mkdir()
    elif damage == "fifo":
        memo.unlink()
        os.mkfifo(memo)
    assert TriageMemo(library.home).read(library.triage_path, SCHEMA) is None
    assert everything(command_library(library.home)) == expected


def test_a_damaged_triage_file_is_reported_though_a_memo_is_there(library: Library) -> None:
    memo_kept(library.home)
    text = library.triage_path.read_text()
    library.triage_path.write_text(text.replace('"read"', '"maybe"', 1))
    with pytest.raises(ValueError, match="maybe"):
        Library(library.home).triage()


def test_a_file_with_a_bad_record_leaves_no_memo(library: Library) -> None:
    decided(library)
    text = library.triage_path.read_text()
    library.triage_path.write_text(text.replace('"read"', '"maybe"', 1))
    command = command_library(library.home)
    with pytest.raises(ValueError):
        command.triage()
    command.keep_triage_memo()
    assert not (library.home / MEMO_FILE).exists()


def test_a_newer_triage_file_is_refused_whatever_the_memo(library: Library) -> None:
    memo_kept(library.home)
    tables = json.loads(library.triage_path.read_text())
    tables["meta"]["1"]["schema"] = SCHEMA + 1
    library.triage_path.write_text(json.dumps(tables))
    with pytest.raises(NewerFileError):
        Library(library.home).triage()


texts = st.text(max_size=8)
ids = st.text(alphabet="0123456789abcdef", min_size=1, max_size=12)
times = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(
    statuses=st.dictionaries(ids, st.sampled_from(list(Status))),
    notes=st.dictionaries(ids, texts),
    tags=st.dictionaries(ids, st.lists(texts, max_size=3).map(tuple)),
    decided_at=st.dictionaries(ids, times),
    positions=st.dictionaries(ids, times),
    days=st.lists(
        st.tuples(st.dates(), st.lists(st.integers(0, 10**6), min_size=4, max_size=4)),
        max_size=5,
    ),
)
def test_the_memo_keeps_every_value_in_its_order(
    statuses: dict[str, Status],
    notes: dict[str, str],
    tags: dict[str, tuple[str, ...]],
    decided_at: dict[str, float],
    positions: dict[str, float],
    days: list[tuple[date, list[int]]],
) -> None:
    import marshal

    state = TriageState(statuses, notes, tags, decided_at, positions, dict(positions))
    counted = [DayCount(day, dict(zip(Status, counts, strict=True))) for day, counts in days]
    back, back_days = _unpacked(marshal.loads(marshal.dumps(_packed(state, counted))))
    for name in ("statuses", "notes", "tags", "decided_at", "positions", "positioned_at"):
        assert list(getattr(back, name).items()) == list(getattr(state, name).items())
    assert back_days == counted


def rewrite_in_place(path: Path, old: str, new: str) -> None:
    """Change the file's bytes, not its size nor its modification time."""
    before = path.stat()
    text = path.read_text()
    assert old in text and len(old) == len(new)
    with path.open("r+") as handle:  # the same inode
        handle.write(text.replace(old, new, 1))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size


def test_a_file_rewritten_before_the_memo_is_kept_is_not_answered_for(library: Library) -> None:
    """The memo names the bytes the command parsed, not the file as it is when the memo is
    written: a rewrite in between (same size, time put back) is read from the file."""
    decided(library)
    pid = library.papers()[0].id
    command = command_library(library.home)
    assert command.triage().statuses[pid] is Status.READ
    rewrite_in_place(library.triage_path, '"read"', '"rexd"')  # damaged meanwhile
    command.keep_triage_memo()
    with pytest.raises(ValueError, match="rexd"):
        command_library(library.home).triage()
    rewrite_in_place(library.triage_path, '"rexd"', '"sxxx"')
    with pytest.raises(ValueError, match="sxxx"):
        Library(library.home).triage()


def test_a_same_size_damage_is_reported_though_a_memo_is_there(library: Library) -> None:
    memo_kept(library.home)
    assert TriageMemo(library.home).read(library.triage_path, SCHEMA) is not None
    rewrite_in_place(library.triage_path, '"read"', '"rexd"')
    assert TriageMemo(library.home).read(library.triage_path, SCHEMA) is None
    with pytest.raises(ValueError, match="rexd"):
        command_library(library.home).triage()


def test_a_state_read_from_the_memo_is_the_version_seen(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change made elsewhere after it is one (a sync's merge asks), none before."""
    memo_kept(library.home)
    reader = command_library(library.home)
    with monkeypatch.context() as patch:
        patch.setattr(triage_file_module, "state_from_tables", _fail)
        reader.triage()  # from the memo
    assert not reader.triage_changed_on_disk()
    reader.set_status(library.papers()[31].id, Status.READ)  # from the memo's version
    assert not reader.last_change_met_others
    pid = library.papers()[30].id
    Library(library.home).set_status(pid, Status.SKIPPED)  # elsewhere
    assert reader.triage_changed_on_disk()
    assert reader.triage().statuses[pid] is Status.SKIPPED
    assert not reader.triage_changed_on_disk()
    reader.set_status(pid, Status.STARRED)  # its own decision
    assert not reader.last_change_met_others
    assert reader.triage().statuses[pid] is Status.STARRED


def test_no_triage_file_and_a_memo_is_no_decision(library: Library) -> None:
    memo_kept(library.home)
    library.triage_path.unlink()
    assert command_library(library.home).triage().statuses == {}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(-1e9, 1e9) | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=5,
)
documents = st.fixed_dictionaries(
    {"status": st.sampled_from([s.value for s in Status])},
    optional={
        "id": st.sampled_from(["", "0000000000aa", "0000000000bb", "paper one"]),
        "at": json_values,
        "note": json_values,
        "tags": st.lists(texts, max_size=3) | texts,
        "q": json_values,
        "qa": json_values,
    },
)


@settings(max_examples=40, deadline=None)
@given(
    decisions=st.dictionaries(st.integers(1, 300).map(str), documents, max_size=25),
    days=st.dictionaries(
        st.dates(date(2020, 1, 1), date(2030, 1, 1)),
        st.fixed_dictionaries({}, optional={s.value: st.integers(0, 999) for s in Status}),
        max_size=3,
    ),
)
def test_a_file_read_through_the_memo_reads_as_its_parse(
    tmp_path_factory: pytest.TempPathFactory,
    decisions: dict[str, dict[str, object]],
    days: dict[date, dict[str, int]],
) -> None:
    """Any decisions a file holds (odd values, shared ids, positions that are no number): the
    memo gives what a parse gives, every dictionary in its order."""
    home = tmp_path_factory.mktemp("memo")
    tables = {
        "decisions": decisions,
        "days": {str(d.toordinal()): {"day": d.isoformat(), **c} for d, c in days.items()},
        "meta": {"1": {"schema": SCHEMA, "kind": "triage"}},
    }
    (home / "triage.json").write_text(json.dumps(tables))
    parsed = everything(Library(home))
    command = command_library(home)
    assert everything(command) == parsed
    command.keep_triage_memo()
    assert TriageMemo(home).read(home / "triage.json", SCHEMA) is not None
    original = triage_file_module.state_from_tables
    triage_file_module.state_from_tables = _fail  # type: ignore[assignment]
    try:
        assert everything(command_library(home)) == parsed
    finally:
        triage_file_module.state_from_tables = original
